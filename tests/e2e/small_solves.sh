#!/bin/sh
# tests/e2e/small_solves.sh: the per-solve path of small problems.  A small
# solve makes no system call, auto's included (lcps_solve again and again in
# one process, build/bench/solve_loop: the thread's CPU clock is read only at
# auto's checks once a budget may have been reached; strace counts, SKIP
# without strace); pgs's kept
# workspace gives the answers of fresh solves whatever the sizes solved
# before it on the thread (a batch of environments of different sizes,
# larger, smaller, larger, against one solve each, the same bits); a time
# limit still stops the solve and a trace's rows still carry their times
# (the clock read only where they read it).  Run from the repository root.
. tests/lib.sh
LOOP=build/bench/solve_loop
make -s "$LOOP" >/dev/null 2>&1
# calls PROBLEM SOLVER N: the system calls of a solve_loop run of N solves
calls() {
    # the solving thread's calls only (no -f: OpenBLAS's idle thread yields)
    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 strace -c -o "$T/st" "$LOOP" "$1" "$2" 1e-8 "$3" 100 >/dev/null 2>&1 ||
        { echo -1; return; }
    awk '$NF == "total" { print $4 }' "$T/st"
}
if [ ! -x "$LOOP" ]; then
    skip "no build/bench/solve_loop (make build/bench/solve_loop failed)"
elif ! command -v strace >/dev/null 2>&1 || [ -n "$LCPSOLVE_WRAP" ]; then
    skip "strace is not installed (or a wrapped run): the system calls of a solve are not counted"
else
    for s in pivot pgs lemke auto; do
        a=$(calls problems/murty-8 $s 500); b=$(calls problems/murty-8 $s 1500)
        check "-s $s: 1,000 more solves in one process make no system call each ($a calls for 500, $b for 1,500)" \
            [ "$a" -gt 0 -a "$b" -gt 0 -a $((b - a)) -lt 50 ]
    done
fi

# pgs's workspace kept by the thread: sizes 60, 4, 90, 12 unknowns in turn
mkdir -p "$T/envs"
"$LCP" generate column --bodies 60 -o "$T/envs/env00000" 2>/dev/null
"$LCP" generate random-spd --size 4 --density 1 --cond 1e2 --seed 3 -o "$T/envs/env00001" 2>/dev/null
"$LCP" generate pyramid --base 3 -o "$T/envs/env00002" 2>/dev/null
"$LCP" generate random-spd --size 12 --density 0.5 --cond 1e2 --seed 4 -o "$T/envs/env00003" 2>/dev/null
"$LCP" batch -s pgs -j 1 -t 1e-6 -n 100000 --quiet -o "$T/answers" "$T/envs" >/dev/null 2>&1; rc=$?
check "batch -s pgs over sizes 60, 4, 90, 12: exit 0" [ $rc -eq 0 ]
same=0
for e in env00000 env00001 env00002 env00003; do
    "$LCP" -s pgs -t 1e-6 -n 100000 --quiet -o "$T/one-$e.mtx" "$T/envs/$e" >/dev/null 2>&1
    python3 - "$T/answers/$e.mtx" "$T/one-$e.mtx" <<'EOF' && same=$((same + 1))
import sys
def vec(p):
    rows = [l.split() for l in open(p) if l.strip() and not l.startswith("%")]
    return [float(r[0]) for r in rows[1:]]
a, b = vec(sys.argv[1]), vec(sys.argv[2])
sys.exit(0 if a and a == b else 1)
EOF
done
check "batch -s pgs, one thread: each answer the bits of its own solve ($same of 4)" [ $same -eq 4 ]

# the clock where it is read: a time limit stops pgs's fused sweeps and pivot
"$LCP" generate column --bodies 3000 -o "$T/col" 2>/dev/null
s0=$(date +%s)
"$LCP" -s pgs -t 1e-30 -n 100000000 --time-limit 0.3 --json "$T/col" >"$T/out" 2>/dev/null; rc=$?
s1=$(date +%s)
check "pgs --time-limit 0.3: status time_limit (exit $rc)" [ "$(json_field status)" = time_limit ]
check "pgs --time-limit 0.3: stopped within 20 s" [ $((s1 - s0)) -lt 20 ]
# the iteration callback still gets the time (a trace row a check)
"$LCP" -s pgs -t 1e-8 --trace "$T/tr.csv" --quiet "$T/envs/env00001" >/dev/null 2>&1
check "pgs --trace: the rows carry a time that grows" python3 - "$T/tr.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
col = next(k for k in rows[0] if k.startswith("time"))
t = [float(r[col]) for r in rows]
sys.exit(0 if len(t) >= 2 and t[-1] > 0 and all(b >= a for a, b in zip(t, t[1:])) else 1)
EOF
finish
