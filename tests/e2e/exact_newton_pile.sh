#!/bin/sh
# tests/e2e/exact_newton_pile.sh: newton-fb and newton-min on generated
# granular piles: A = J M^-1 J' singular positive semidefinite
# (more contacts than degrees of freedom), degenerate contacts (z_i = w_i =
# 0) at the solution.  On such piles the monotone line search took damped
# steps for hundreds of iterations (414 newton-fb steps on the first pile
# below) and the LU of the full Newton matrix cost ~4x the Cholesky of the
# reduced one.  Checked for each solver, on a pile of 1,819 contacts with
# --linsolve sparse (CHOLMOD on the reduced system) and one of 1,471 with
# --linsolve dense (LAPACK Cholesky):
#  - solved to 1e-10 (exit 0, status solved), the independent residual
#    (tests/check_residual.py) <= 1e-10;
#  - w = A z + b equal to ipm's (at 1e-12) to 1e-8: z is not unique where A
#    is singular, but A z is (A psd: every solution has the same A z);
#  - the sparse path names CHOLMOD (A symmetric: no LU);
#  - fewer than 150 iterations (the non-monotone line search);
#  - fast local convergence visible in the trace: last step 1, the last
#    residual <= 1e-2 times the one before, a larger cut than the step
#    before made (superlinear: quadratic needs BD-regularity, which a
#    degenerate pile lacks; in practice r_k+1 ~ r_k^1.4 there).
# Siconos' lcp_newton_FB is not compared: it does not finish these piles
# in a minute (nor the 8,087-contact pile of the exact benchmark at all).
# Run from the repository root: sh tests/e2e/exact_newton_pile.sh
. tests/lib.sh
# run NAME EXPECTED_EXIT ARGS...: lcpsolve (60 s at most), stdout/stderr in $T/out, $T/err
run() {
    _r=$1; _want=$2; shift 2
    "$LCP" --time-limit 60 "$@" >"$T/out" 2>"$T/err"; _got=$?
    if [ "$_got" -eq "$_want" ]; then ok "$_r (exit $_got)"; else bad "$_r: exit $_got, expected $_want: $(head -c 300 "$T/out" "$T/err")"; fi
}
# same_w A.mtx b.mtx x1.mtx x2.mtx TOL: ||A x1 - A x2||_inf <= TOL max(1, ||b||_inf)
same_w() { python3 - "$@" <<'P'
import sys
sys.path.insert(0, 'tests')
from check_residual import read_mtx, read_vector
m, n, entries = read_mtx(sys.argv[1])
b, x1, x2 = (read_vector(f) for f in sys.argv[2:5])
d = [0.0] * m
for i, j, v in entries:
    d[i] += v * (x1[j] - x2[j])
sys.exit(0 if max(map(abs, d)) <= float(sys.argv[5]) * max(1.0, max(map(abs, b))) else 1)
P
}
below() { python3 -c "import sys; sys.exit(0 if float('$1') < float('$2') else 1)"; }
# fast_end trace.csv: last step 1; the last two rows each cut the residual, the
# last by 100 at least and by more than the one before (superlinear)
fast_end() { python3 - "$1" <<'P'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
res = [float(x['residual']) for x in r]
ok = len(res) >= 3 and float(r[-1]['step']) == 1 and res[-1] <= 1e-2 * res[-2]
sys.exit(0 if ok and res[-2] < res[-3] and res[-1] / res[-2] <= res[-2] / res[-3] else 1)
P
}

for pile in "sparse:--base 10 --layers 5 --seed 3" "dense:--base 9 --layers 5 --seed 2"; do
    ls=${pile%%:*}; scene=${pile#*:}
    # shellcheck disable=SC2086
    "$LCP" generate granular $scene -o "$T/g" >/dev/null 2>&1 || { bad "generate granular $scene"; continue; }
    run "ipm: granular $scene (reference)" 0 -s ipm -t 1e-12 --quiet -o "$T/ref.mtx" "$T/g"
    for s in newton-fb newton-min; do
        run "$s/$ls: granular $scene" 0 -s $s --linsolve "$ls" -t 1e-10 --json -o "$T/x.mtx" --trace "$T/tr.csv" "$T/g"
        check "$s/$ls: status solved" [ "$(json_field status)" = solved ]
        check "$s/$ls: independent residual <= 1e-10" indep "$T/g/A.mtx" "$T/g/b.mtx" "$T/x.mtx" --max 1e-10
        check "$s/$ls: w = A z + b = ipm's (1e-8)" same_w "$T/g/A.mtx" "$T/g/b.mtx" "$T/x.mtx" "$T/ref.mtx" 1e-8
        check "$s/$ls: < 150 iterations ($(json_field iterations))" below "$(json_field iterations)" 150
        check "$s/$ls: fast local convergence at the end of the trace" fast_end "$T/tr.csv"
        if [ "$ls" = sparse ]; then
            check "$s/sparse: CHOLMOD on the reduced system ($(json_field message))" \
                grep -q '"message":"sparse Cholesky (CHOLMOD)' "$T/out"
        fi
    done
done
finish
