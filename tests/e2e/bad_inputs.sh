#!/bin/sh
# tests/e2e/bad_inputs.sh: the malformed inputs of tests/bad/ must be refused
# cleanly.  Run from the repository root: sh tests/e2e/bad_inputs.sh
#
# For each line FILE<TAB>ARGS<TAB>PATTERN of tests/bad/EXPECT, runs
# "$LCPSOLVE -o OUT ARGS" (default ./lcpsolve) with a 10 s timeout, standard
# input from tests/bad/FILE when FILE's '#suffix' starts with "stdin" (else
# /dev/null) and TMPDIR an empty folder, and checks:
#   - no crash (exit code >= 128) and no timeout;
#   - exit code 2 (usage or input error, DESIGN.md);
#   - stderr is exactly one line, matching the extended regex PATTERN (which
#     names the file and, where the format has lines, ":LINE:");
#   - nothing on stdout, no solution file OUT, nothing left in TMPDIR.
# Prints "PASS name" or "FAIL name: why" per case, then "N passed, N failed";
# exits 1 if any case failed.
LCPSOLVE=${LCPSOLVE:-./lcpsolve}
EXPECT=${EXPECT:-tests/bad/EXPECT}
passed=0
failed=0
tab=$(printf '\t')

if [ ! -x "$LCPSOLVE" ]; then
    echo "FAIL setup: $LCPSOLVE is not an executable (run make, or set LCPSOLVE)"
    echo "0 passed, 1 failed"
    exit 1
fi
if [ ! -r "$EXPECT" ]; then
    echo "FAIL setup: cannot read $EXPECT (run from the repository root)"
    echo "0 passed, 1 failed"
    exit 1
fi
if command -v timeout >/dev/null 2>&1; then
    run_limited() { timeout 10 "$@"; }
else
    run_limited() { "$@"; }
fi
# LCPSOLVE_WRAP (tests/lib.sh, scripts/valgrind-e2e): each run under that command, 300 s
[ -n "$LCPSOLVE_WRAP" ] && run_limited() { timeout 300 $LCPSOLVE_WRAP "$@"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bad_inputs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
set -f # ARGS are split on blanks, never globbed

fail() {
    echo "FAIL $name: $1"
    failed=$((failed + 1))
}

while IFS="$tab" read -r name args pattern rest; do
    case $name in '' | '#'*) continue ;; esac
    if [ -z "$args" ] || [ -z "$pattern" ] || [ -n "$rest" ]; then
        fail "malformed EXPECT line (want FILE<TAB>ARGS<TAB>PATTERN)"
        continue
    fi
    file=tests/bad/${name%%#*}
    if [ ! -e "$file" ]; then
        fail "$file does not exist"
        continue
    fi
    input=/dev/null
    case $name in *'#stdin'*) input=$file ;; esac
    rm -rf "$tmp/tmpdir" "$tmp/x.mtx" && mkdir "$tmp/tmpdir"
    # shellcheck disable=SC2086 # ARGS are meant to be split
    TMPDIR=$tmp/tmpdir run_limited "$LCPSOLVE" -o "$tmp/x.mtx" $args >"$tmp/out" 2>"$tmp/err" <"$input"
    rc=$?
    lines=$(wc -l <"$tmp/err" | tr -d ' ')
    # a last line without its newline counts too
    if [ -s "$tmp/err" ] && [ "$(tail -c 1 "$tmp/err" | od -An -c | tr -d ' ')" != '\n' ]; then
        lines=$((lines + 1))
    fi
    first=$(head -n 1 "$tmp/err")
    if [ "$rc" -eq 124 ]; then
        fail "timed out after 10 s"
    elif [ "$rc" -ge 128 ]; then
        fail "crashed (exit code $rc, signal $((rc - 128))): $first"
    elif [ "$rc" -ne 2 ]; then
        fail "exit code $rc, expected 2; stderr: $first"
    elif [ "$lines" -ne 1 ]; then
        fail "stderr has $lines lines, expected exactly 1: $(head -n 3 "$tmp/err" | tr '\n' '|')"
    elif ! printf '%s\n' "$first" | grep -Eq -- "$pattern"; then
        fail "stderr '$first' does not match /$pattern/"
    elif [ -s "$tmp/out" ]; then
        fail "wrote on stdout: $(head -c 200 "$tmp/out" | tr '\n' '|')"
    elif [ -e "$tmp/x.mtx" ]; then
        fail "wrote the solution file (-o)"
    elif [ -n "$(ls -A "$tmp/tmpdir")" ]; then
        fail "left files in TMPDIR: $(ls -A "$tmp/tmpdir" | head -n 3 | tr '\n' ' ')"
    else
        echo "PASS $name"
        passed=$((passed + 1))
    fi
done <"$EXPECT"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
