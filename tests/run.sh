#!/bin/sh
# tests/run.sh: runs each unit-test binary given as argument, then the
# end-to-end tests (tests/e2e/*.sh), and prints one closing line
# "N passed, N failed, N skipped" with the totals (skipped: checks that need
# the optional public collections, LCPSOLVE_DATA, or a peer not installed).  Exit 1 if anything failed.
# TEST_JOBS=N (default 1; make test TEST_JOBS=2) runs N of them at a time;
# each one's output is kept and printed in the order above, as it finishes,
# after "== NAME (SECONDS s)" (its wall time).
passed=0; failed=0; skipped=0
jobs=${TEST_JOBS:-1}
# -j N runs exactly N threads in the tests, however loaded the machine (the
# bits of the thread counts are compared; src/core/common.c lcp_threads_free)
LCPSOLVE_THREADS=${LCPSOLVE_THREADS-exact}; export LCPSOLVE_THREADS
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
log=$dir/log
count() { # add the last "N passed, N failed[, N skipped]" line of $log, or count a crash
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ -n "$line" ]; then
        passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
        failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
        s=$(echo "$line" | sed -n 's/.*, \([0-9][0-9]*\) skipped.*/\1/p')
        skipped=$((skipped + ${s:-0}))
    else
        failed=$((failed + 1))
    fi
}
# the list: NUMBER KIND PATH (KIND u: a unit-test binary, e: sh SCRIPT)
i=0
for t in "$@"; do i=$((i + 1)); echo "$i u $t"; done >"$dir/list"
for t in ${E2E:-tests/e2e/*.sh}; do # E2E="a.sh b.sh": only those
    [ -f "$t" ] || continue
    i=$((i + 1)); echo "$i e $t"
done >>"$dir/list"
# run them, $jobs at a time: NUMBER.log, then NUMBER.rc when it is done
D=$dir xargs -L 1 -P "$jobs" sh -c '
    s=$(date +%s)
    if [ "$2" = u ]; then "$3"; else sh "$3"; fi >"$D/$1.log" 2>&1
    echo $? $(($(date +%s) - s)) >"$D/$1.tmp"; mv "$D/$1.tmp" "$D/$1.rc"' _ <"$dir/list" &
while read -r n kind t; do
    while [ ! -f "$dir/$n.rc" ]; do sleep 1; done
    mv "$dir/$n.log" "$log"; read -r rc secs <"$dir/$n.rc"
    echo "== $t ($secs s)"
    if [ "$kind" = u ]; then # its failed checks and sanitizer reports first, then its last lines
        grep -E ': check failed: |, expected .* \(tol |ERROR: [A-Za-z]+Sanitizer|runtime error' "$log" | head -n 20
        grep -vE '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 20
    else
        grep -E '^(FAIL|SKIP)' "$log" | head -n 30
    fi
    grep -qE '^[0-9]+ passed, [0-9]+ failed' "$log" || echo "FAIL $t: no closing line (exit $rc)"
    grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | sed 's/^/   /'
    count
    [ "$rc" -ne 0 ] && ! grep -qE '^[0-9]+ passed, [1-9]' "$log" && failed=$((failed + 1))
done <"$dir/list"
wait
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
