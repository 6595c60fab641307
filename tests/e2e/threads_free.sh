#!/bin/sh
# tests/e2e/threads_free.sh: -j N runs on the CPUs free at the start of the
# solve (src/core/common.c lcp_threads_free): with a CPU hog on every CPU a
# -j 2 run is given one thread (--json threads_used), and its answer has the
# same bits as -j 1's (the colour-ordered sweeps give the same bits for any
# thread count).  Without OpenMP every run has one thread: the same checks hold.
. tests/lib.sh
unset LCPSOLVE_THREADS # the program's own choice (lib.sh asks for exact counts)
"$LCP" generate column --bodies 2000 -o "$T/col" >/dev/null 2>&1
PY=/usr/bin/python3; [ -x $PY ] || PY=python3
used() { $PY -c "import json; print(json.load(open('$T/out'))['threads_used'])"; }
"$LCP" -s pgs --order colour -j 1 -n 50 -t 1e-30 --json -o "$T/x1.mtx" "$T/col" >"$T/out"
check "-j 1: threads_used 1 ($(used))" test "$(used)" = 1
hogs=""
for i in $(seq 1 "$(nproc)") 1; do
    sh -c 'while :; do :; done' & hogs="$hogs $!"
done
sleep 1
"$LCP" -s pgs --order colour -j 2 -n 50 -t 1e-30 --json -o "$T/x2.mtx" "$T/col" >"$T/out"
for h in $hogs; do kill "$h"; done
wait 2>/dev/null
check "-j 2 with a hog on every CPU: threads_used 1 ($(used))" test "$(used)" = 1
check "-j 2 asked for: threads 2 in --json" sh -c "grep -q '\"threads\":2' '$T/out'"
check "-j 2 with hogs: the same bits as -j 1" cmp -s "$T/x1.mtx" "$T/x2.mtx"
# LCPSOLVE_THREADS=exact: the count asked for, whatever the load
"$LCP" generate column --bodies 20 -o "$T/small" >/dev/null 2>&1
hogs=""
for i in $(seq 1 "$(nproc)") 1; do
    sh -c 'while :; do :; done' & hogs="$hogs $!"
done
sleep 1
LCPSOLVE_THREADS=exact "$LCP" -s pgs --order colour -j 2 -n 50 --json "$T/small" >"$T/out"
for h in $hogs; do kill "$h"; done
wait 2>/dev/null
u=$(used)
LCPSOLVE_THREADS=exact "$LCP" -s pgs --order colour -j 2 -n 50 --json "$T/small" >"$T/out"
if [ "$(used)" = 1 ]; then
    skip "built without OpenMP (OPENMP=0): one thread always"
else
    check "LCPSOLVE_THREADS=exact with hogs: threads_used 2 ($u)" test "$u" = 2
fi
finish
