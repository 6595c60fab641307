#!/bin/sh
# tests/e2e/exact_newton_chol.sh: the dense path of newton-fb and newton-min
# (src/solvers/newton.c): reduced Newton systems, Cholesky for symmetric A.
#  - symmetric problems (random SPD, dense and sparse, columns with and
#    without a mass ratio, a pyramid: A singular): --linsolve dense says
#    "dense Cholesky", takes the same iterates as --linsolve sparse (UMFPACK
#    LU of the full, unreduced Newton matrix: same iteration count, trace
#    residuals equal to 1e-4 relative down to 1e-7) and ends at the same
#    solution to 1e-10 (where it is unique), independent residual <= 1e-10;
#  - the reduction: rows with D_b,i = 0 (z_i = 0 < w_i at the cold start)
#    are eliminated (mean size < n); a warm start where every row is
#    eliminated (size 0, no factorization) solves in one step;
#  - non-symmetric A (Murty's triangular matrix, a non-symmetric positive
#    definite matrix) goes through LU, and agrees with lemke and the
#    sparse path;
#  - a symmetric indefinite A: Cholesky fails, LU takes over, the solution is
#    the known one;
#  - against the peer, Siconos' lcp_newton_FB (dense LU), on a dense SPD
#    problem to 1e-9 (skipped when the peer is not built).
# Run from the repository root: sh tests/e2e/exact_newton_chol.sh
. tests/lib.sh
# run NAME EXPECTED_EXIT ARGS...: lcpsolve (60 s at most), stdout/stderr in $T/out, $T/err
run() {
    _r=$1; _want=$2; shift 2
    "$LCP" --time-limit 60 "$@" >"$T/out" 2>"$T/err"; _got=$?
    if [ "$_got" -eq "$_want" ]; then ok "$_r (exit $_got)"; else bad "$_r: exit $_got, expected $_want: $(head -c 300 "$T/out" "$T/err")"; fi
}
msg() { json_field message; }
# size_below: the mean reduced size "mean size M/N" of the message is < N
size_below() { msg | python3 -c "import re, sys; m = re.search(r'mean size (\d+)/(\d+)', sys.stdin.read())
sys.exit(0 if m and int(m.group(1)) < int(m.group(2)) else 1)"; }
# same_trace A.csv B.csv: as many rows, residuals equal to 1e-4 relative while above 1e-7
same_trace() { python3 - "$1" "$2" <<'P'
import csv, sys
a, b = [[float(r['residual']) for r in csv.DictReader(open(f))] for f in sys.argv[1:3]]
ok = len(a) == len(b) and all(abs(x - y) <= 1e-4 * x for x, y in zip(a, b) if x > 1e-7)
sys.exit(0 if ok else 1)
P
}

# --- symmetric problems: Cholesky, the same iterates and solution as the full LU
for scene in "random-spd --size 200 --density 1 --cond 1e4" "random-spd --size 300 --cond 1e6" \
             "column --bodies 50" "column --bodies 300 --mass-ratio 1000" "pyramid --base 8"; do
    # shellcheck disable=SC2086
    "$LCP" generate $scene -o "$T/g" >/dev/null 2>&1 || { bad "generate $scene"; continue; }
    for s in newton-fb newton-min; do
        run "$s/sparse: $scene" 0 -s $s --linsolve sparse -t 1e-10 --quiet -o "$T/lu.mtx" --trace "$T/lu.csv" "$T/g"
        run "$s/dense: $scene" 0 -s $s --linsolve dense -t 1e-10 --json -o "$T/x.mtx" --trace "$T/ch.csv" "$T/g"
        check "$s/dense: $scene: Cholesky path ($(msg))" sh -c "grep -q '\"message\":\"dense Cholesky (LAPACK)' '$T/out'"
        check "$s/dense: $scene: same iterates as the sparse LU" same_trace "$T/lu.csv" "$T/ch.csv"
        check "$s/dense: $scene: independent residual <= 1e-10" \
            indep "$T/g/A.mtx" "$T/g/b.mtx" "$T/x.mtx" --max 1e-10
        case $scene in pyramid*) continue ;; esac # redundant contacts: lambda is not unique
        run "$s/dense: $scene: = the sparse LU solution (1e-10)" 0 -s psor -n 0 -t 1 --warm-start "$T/x.mtx" \
            --reference "$T/lu.mtx" --ref-tol 1e-10 "$T/g"
    done
done

# --- the reduction: cold start (z = 0: D_b,i = 0 where b_i > 0)
"$LCP" generate random-spd --size 200 --density 1 --cond 1e4 -o "$T/rs" >/dev/null 2>&1
for s in newton-fb newton-min; do
    run "$s: random-spd 200 dense" 0 -s $s --linsolve dense -t 1e-12 --json "$T/rs"
    check "$s: rows eliminated: mean reduced size < n ($(msg))" size_below
done
# every row eliminated: b > 0, z0 = 1e-9 (w_i ~ b_i >> z_i: D_b,i ~ (z_i/w_i)^2/2 < eps)
cat >"$T/pos.json" <<'J'
{"kind": "lcp", "A": [[4, 1, 0], [1, 4, 1], [0, 1, 4]], "b": [1, 2, 3]}
J
printf '%%%%MatrixMarket matrix array real general\n3 1\n1e-9\n1e-9\n1e-9\n' >"$T/z0.mtx"
for s in newton-fb newton-min; do
    run "$s: all rows eliminated" 0 -s $s -t 1e-14 --json --warm-start "$T/z0.mtx" "$T/pos.json"
    check "$s: all rows eliminated: size 0, one step ($(msg))" \
        sh -c "grep -q 'mean size 0/3' '$T/out' && [ '$(json_field iterations)' = 1 ]"
done

# --- non-symmetric A: LU (reduced), agreeing with lemke (exact pivoting) and the sparse path
cat >"$T/nsym.json" <<'J'
{"kind": "lcp", "A": [[2, 1, 0, 0], [-1, 2, 1, 0], [0, -1, 2, 1], [0, 0, -1, 2]], "b": [-1, 1, -2, -1]}
J
"$LCP" generate murty --size 12 -o "$T/mu" >/dev/null 2>&1 # 4096 Lemke pivots
for p in "$T/nsym.json" problems/murty-8 "$T/mu"; do
    "$LCP" -s lemke -t 1e-14 --quiet -o "$T/ref.mtx" "$p" || bad "lemke on $p"
    for s in newton-fb newton-min; do
        run "$s/dense: $(basename "$p"): = lemke (1e-10)" 0 -s $s --linsolve dense -t 1e-12 --json \
            --reference "$T/ref.mtx" --ref-tol 1e-10 -o "$T/x.mtx" "$p"
        check "$s/dense: $(basename "$p"): LU path ($(msg))" sh -c "grep -q '\"message\":\"dense LU (LAPACK)' '$T/out'"
        run "$s/sparse: $(basename "$p"): = dense (1e-10)" 0 -s $s --linsolve sparse -t 1e-12 \
            --reference "$T/x.mtx" --ref-tol 1e-10 "$p"
    done
done

# --- symmetric indefinite A: Cholesky fails, LU; the solution is z = (1/3, 1/3)
cat >"$T/indef.json" <<'J'
{"kind": "lcp", "A": [[1, 2], [2, 1]], "b": [-1, -1]}
J
printf '%%%%MatrixMarket matrix array real general\n2 1\n0.33333333333333333\n0.33333333333333333\n' >"$T/third.mtx"
for s in newton-fb newton-min; do
    run "$s: symmetric indefinite = (1/3, 1/3)" 0 -s $s --linsolve dense -t 1e-14 --json \
        --reference "$T/third.mtx" --ref-tol 1e-14 "$T/indef.json"
    check "$s: symmetric indefinite: Cholesky failed, LU ($(msg))" \
        sh -c "grep -q '\"message\":\"dense LU, Cholesky failed (LAPACK)' '$T/out'"
    run "$s/sparse: symmetric indefinite = (1/3, 1/3)" 0 -s $s --linsolve sparse -t 1e-14 --json \
        --reference "$T/third.mtx" --ref-tol 1e-14 "$T/indef.json"
    check "$s/sparse: symmetric indefinite: CHOLMOD failed, UMFPACK LU ($(msg))" \
        sh -c "grep -q '\"message\":\"sparse LU, Cholesky failed (UMFPACK)' '$T/out'"
done

# --- the peer: Siconos' lcp_newton_FB (dense LU of the full Newton matrix)
PEER=build/peer/siconos_lcp
if [ -d /usr/include/siconos ] && make -s "$PEER" >/dev/null 2>&1; then
    if "$PEER" newton-fb "$T/rs" "$T/ref.mtx" 1e-13 >"$T/peer" 2>&1; then
        for s in newton-fb newton-min; do
            run "$s: random-spd 200 dense = siconos newton_FB (1e-9)" 0 -s $s --linsolve dense -t 1e-13 \
                --reference "$T/ref.mtx" --ref-tol 1e-9 "$T/rs"
        done
    else
        bad "siconos newton-fb fails on random-spd 200: $(head -c 200 "$T/peer")"
    fi
else
    skip "Siconos Numerics is not installed (scripts/install-deps --peer)"
fi

finish
