#!/bin/sh
# tests/run.sh: runs each unit-test binary given as argument, then the
# end-to-end tests (tests/e2e/*.sh), and prints one closing line
# "N passed, N failed" with the totals.  Exit 1 if anything failed.
passed=0; failed=0
log=$(mktemp); trap 'rm -f "$log"' EXIT
count() { # add the last "N passed, N failed" line of $log, or count a crash
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ -n "$line" ]; then
        passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
        failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
    else
        failed=$((failed + 1))
    fi
}
for t in "$@"; do
    echo "== $t"
    "$t" >"$log" 2>&1; rc=$?
    grep -vE '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 20
    grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | sed 's/^/   /'
    count
    [ $rc -ne 0 ] && ! grep -qE '^[0-9]+ passed, [1-9]' "$log" && failed=$((failed + 1))
done
for t in ${E2E:-tests/e2e/*.sh}; do # E2E="a.sh b.sh": only those (CI's sanitizer run)
    [ -f "$t" ] || continue
    echo "== $t"
    sh "$t" >"$log" 2>&1; rc=$?
    grep -E '^(FAIL|SKIP)' "$log" | head -n 30
    grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | sed 's/^/   /'
    count
    [ $rc -ne 0 ] && ! grep -qE '^[0-9]+ passed, [1-9]' "$log" && failed=$((failed + 1))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
