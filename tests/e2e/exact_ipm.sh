#!/bin/sh
# tests/e2e/exact_ipm.sh: the interior-point solver (-s ipm) end to end.
#  - the Siconos LCP collection ($LCPSOLVE_DATA/siconos/lcp, skipped where
#    absent): monotone files (A + A' psd, by `lcpsolve info`) solved to
#    1e-10; the others get a verdict (exit 3 or 5 with a note), quickly;
#    where A is positive definite (a unique solution) the answer matches the
#    peer's lcp_lexicolemke (build/peer/siconos_lcp, skipped where Siconos
#    Numerics is missing) to 1e-7, and Siconos' lcp_newton_FB where it runs;
#  - generated scenes solved to 1e-10 through both linear-system paths
#    (dense LAPACK, sparse CHOLMOD/UMFPACK), agreeing with each other and
#    with pgs/psor (lambda where it is unique, w on pyramids, whose lambda
#    is not), with 5..60 iterations for condition numbers 1e2..1e8 (sparse;
#    dense: 1..60, its active-set polish may end the solve at once);
#  - a nonsymmetric positive definite problem through the LU paths; monotone
#    problems without a solution (exit 3, a Farkas certificate), dense and
#    sparse; non-monotone ones (exit 5, quickly); limits and a tolerance
#    below rounding (exit 1); the trace columns; a warm start.
# Run from the repository root: sh tests/e2e/exact_ipm.sh
# Ends with "N passed, N failed"; exit 1 on any failure.
. tests/lib.sh
SICONOS=$SICONOS_DATA/lcp
PEER=build/peer/siconos_lcp
command -v timeout >/dev/null 2>&1 || timeout() { shift; "$@"; } # no hang guard without coreutils
# run NAME EXPECTED_EXITS ARGS...: lcpsolve -s ipm (60 s at most), stdout in
# $T/out, stderr in $T/err; EXPECTED_EXITS like "0" or "3|5"
run() {
    r_name=$1; r_want=$2; shift 2
    timeout 60 "$LCP" -s ipm "$@" >"$T/out" 2>"$T/err"; got=$?
    case "|$r_want|" in
    *"|$got|"*) ok "$r_name (exit $got)"; return 0 ;;
    *) bad "$r_name: exit $got, expected $r_want: $(grep -E '^(status|residual|note)' "$T/out" | tr '\n' ' ' | head -c 300)$(head -c 200 "$T/err")"
       return 1 ;;
    esac
}
field() { # field NAME: a top-level value of the --json object in $T/out
    sed -n "s/.*\"$1\":\\(\"[^\"]*\"\\|[^,}]*\\).*/\\1/p" "$T/out" | tr -d '"'
}
# vdiff A.mtx B.mtx: max |a - b| / max(1, max |b|) of two Matrix Market arrays
vdiff() {
    awk 'FNR == 1 { f++; hdr = 1 } /^%/ { next } hdr { hdr = 0; next }
         f == 1 { a[FNR] = $1 } f == 2 { b[FNR] = $1; d = a[FNR] - $1; if (d < 0) d = -d; if (d > m) m = d;
                  v = $1 < 0 ? -$1 : $1; if (v > s) s = v }
         END { if (s < 1) s = 1; printf "%.3g\n", m / s }' "$1" "$2"
}
# close A.mtx B.mtx TOL: vdiff <= TOL
close() { awk -v d="$(vdiff "$1" "$2")" -v t="$3" 'BEGIN { exit !(d <= t) }'; }

# --- the Siconos collection
have_peer=0
if [ -d /usr/include/siconos ] && make -s peer >/dev/null 2>&1 && [ -x "$PEER" ]; then have_peer=1
else skip "Siconos Numerics is not installed (scripts/install-deps --peer): no peer comparisons"; fi
if [ -d "$SICONOS" ]; then
    for f in "$SICONOS"/*.dat; do
        name=$(basename "$f" .dat)
        "$LCP" info --json "$f" >"$T/info" 2>/dev/null
        if grep -q '"definiteness":"positive \(semi\)\{0,1\}definite"' "$T/info"; then
            run "$name: monotone, solved to 1e-10" 0 -t 1e-10 "$f" || continue
            grep -q '"definiteness":"positive definite"' "$T/info" || continue
            [ "$have_peer" -eq 1 ] || continue
            if "$PEER" lemke "$f" "$T/lemke.mtx" 1e-14 >/dev/null 2>&1; then
                run "$name: = siconos lexicolemke to 1e-7" 0 -t 1e-10 --reference "$T/lemke.mtx" --ref-tol 1e-7 "$f"
            else
                skip "$name: siconos lexicolemke does not solve it"
            fi
            if "$PEER" newton-fb "$f" "$T/fb.mtx" 1e-12 1000 >/dev/null 2>&1; then
                run "$name: = siconos newton-FB to 1e-7" 0 -t 1e-10 --reference "$T/fb.mtx" --ref-tol 1e-7 "$f"
            else
                skip "$name: siconos newton-FB does not solve it"
            fi
        else
            start=$(date +%s)
            run "$name: not monotone, a verdict" "3|5" -t 1e-10 "$f" &&
                if grep -q '^note' "$T/out" && [ $(($(date +%s) - start)) -le 5 ]; then ok "$name: verdict explained, quickly"
                else bad "$name: no note, or slower than 5 s"; fi
        fi
    done
else
    skip "$SICONOS absent"
fi

# --- generated scenes, both linear-system paths, against pgs/psor
gen() { d=$T/$1; shift; [ -d "$d" ] || "$LCP" generate "$@" -o "$d" 2>/dev/null; }
# both NAME REF_SOLVER COMPARE(x|w) MIN_ITER: ipm dense and sparse to 1e-10
# in MIN_ITER..60 iterations (dense: 1..60: its active-set polish, tried from
# the start, often ends the solve at once), agreeing with each other to 1e-6
# (a residual of 1e-10 leaves x uncertain by cond(A) 1e-10: column300's sparse
# answer, at 8e-11, is 1e-7 from lexicolemke's, the dense one 7e-11) and with
# REF_SOLVER (none: skip) on x and w, or on w only
both() {
    name=$1; rs=$2; what=$3; lo=$4; d=$T/$name
    for ls in dense sparse; do
        run "$name: ipm --linsolve $ls to 1e-10" 0 --json -t 1e-10 --linsolve $ls -o "$T/x_$ls.mtx" \
            --output-w "$T/w_$ls.mtx" "$d" || continue
        it=$(field iterations); l=$lo; [ $ls = dense ] && l=1
        if [ "$it" -ge "$l" ] && [ "$it" -le 60 ]; then ok "$name: $ls: $it iterations in $l..60"
        else bad "$name: $ls: $it iterations, not in $l..60"; fi
    done
    if close "$T/w_dense.mtx" "$T/w_sparse.mtx" 1e-6 &&
       { [ "$what" = w ] || close "$T/x_dense.mtx" "$T/x_sparse.mtx" 1e-6; }; then
        ok "$name: dense and sparse agree ($what)"
    else bad "$name: dense and sparse differ: x by $(vdiff "$T/x_dense.mtx" "$T/x_sparse.mtx"), w by $(vdiff "$T/w_dense.mtx" "$T/w_sparse.mtx")"; fi
    [ "$rs" = none ] && return
    if ! timeout 60 "$LCP" -s "$rs" -t 1e-12 -n 10000000 -o "$T/xr.mtx" --output-w "$T/wr.mtx" "$d" >/dev/null 2>&1; then
        bad "$name: $rs does not solve it"; return
    fi
    if close "$T/${what}_sparse.mtx" "$T/${what}r.mtx" 1e-6; then ok "$name: ipm = $rs ($what)"
    else bad "$name: ipm and $rs differ on $what by $(vdiff "$T/${what}_sparse.mtx" "$T/${what}r.mtx")"; fi
}
for c in 1e2 1e4 1e6 1e8; do
    gen rspd100_$c random-spd --size 100 --cond $c --seed 2
    gen rdense100_$c random-spd --size 100 --cond $c --density 1 --seed 3
done
for c in 1e2 1e4; do both rspd100_$c pgs x 5; both rdense100_$c psor x 5; done
for c in 1e6 1e8; do both rspd100_$c none x 5; both rdense100_$c none x 5; done
gen column50 column --bodies 50;                    both column50 pgs x 1
gen column300 column --bodies 300 --mass-ratio 10;  both column300 psor x 1
gen pyramid5 pyramid --base 5;                      both pyramid5 pgs w 1
gen pyramid12 pyramid --base 12;                    both pyramid12 psor w 1
gen murty16 murty --size 16;                        both murty16 pgs x 1
# generated problems with a unique solution against the peer's lexicolemke
# (Murty's problem of size 12: 2^12 pivots, within the peer's 10000)
if [ "$have_peer" -eq 1 ]; then
    gen murty12 murty --size 12
    for name in column50 rspd100_1e4 murty12; do
        if "$PEER" lemke "$T/$name" "$T/lemke.mtx" 1e-10 >/dev/null 2>&1; then
            run "$name: = siconos lexicolemke to 1e-7" 0 -t 1e-10 --reference "$T/lemke.mtx" --ref-tol 1e-7 "$T/$name"
        else
            skip "$name: siconos lexicolemke does not solve it"
        fi
    done
fi

# --- a nonsymmetric positive definite problem: the LU paths.  (A + A')/2 =
# diag(4, 3, 5, 2); by hand z = (11/24, 0, 5/12, 1/2), w = (0, 59/24, 0, 0)
cat >"$T/nonsym.json" <<'J'
{"kind": "lcp", "A": [[4, 1, -2, 0], [-1, 3, 1, 1], [2, -1, 5, 0], [0, -1, 0, 2]], "b": [-1, 2, -3, -1]}
J
printf '%%%%MatrixMarket matrix array real general\n4 1\n0.45833333333333331\n0\n0.41666666666666669\n0.5\n' >"$T/nonsym_ref.mtx"
run "nonsymmetric: dense LU" 0 -t 1e-10 --linsolve dense --reference "$T/nonsym_ref.mtx" --ref-tol 1e-9 "$T/nonsym.json" &&
    if grep -q "dgetrf" "$T/out"; then ok "nonsymmetric dense: LU named"; else bad "nonsymmetric dense: LU not named"; fi
run "nonsymmetric: UMFPACK" 0 -t 1e-10 --linsolve sparse --reference "$T/nonsym_ref.mtx" --ref-tol 1e-9 "$T/nonsym.json" &&
    if grep -q "UMFPACK" "$T/out"; then ok "nonsymmetric sparse: UMFPACK named"; else bad "nonsymmetric sparse: UMFPACK not named"; fi
run "symmetric: CHOLMOD named" 0 -t 1e-10 --linsolve sparse "$T/pyramid5" &&
    if grep -q "CHOLMOD" "$T/out"; then ok "symmetric sparse: CHOLMOD named"; else bad "symmetric sparse: CHOLMOD not named"; fi

# --- monotone, no solution: exit 3 with a Farkas certificate.
# skew: w2 = -z1 - 1 < 0 for every z >= 0 (y = e2: A'y = (-1, 0) <= 0, b'y = -1)
cat >"$T/skew.json" <<'J'
{"kind": "lcp", "A": [[0, 1], [-1, 0]], "b": [1, -1]}
J
# psd singular: w1 + w2 = -2 < 0 (y = (1, 1): A'y = 0, b'y = -2)
cat >"$T/psd.json" <<'J'
{"kind": "lcp", "A": [[1, -1], [-1, 1]], "b": [1, -3]}
J
# sparse: a ring's Laplacian (A e = 0) plus a skew cycle, n = 1500, with
# e'b = -1.5 < 0 (y = e: A'y = 0)
awk 'BEGIN { n = 1500; printf "{\"kind\": \"lcp\", \"A\": {\"size\": [%d, %d], \"entries\": [", n, n
       for (i = 0; i < n; i++) { j = (i + 1) % n; k = (i + n - 1) % n
         printf "%s[%d, %d, 2], [%d, %d, -0.5], [%d, %d, -1.5]", i ? ", " : "", i, i, i, j, i, k }
       printf "]}, \"b\": ["
       for (i = 0; i < n; i++) printf "%s%g", i ? ", " : "", (i % 2 ? 1 : -1) - 0.001
       print "]}" }' >"$T/ring.json"
for p in skew psd ring; do
    run "$p: monotone without a solution" 3 --json -t 1e-10 "$T/$p.json" &&
        if [ "$(field status)" = no_solution ] && grep -q "Farkas" "$T/out"; then ok "$p: no_solution with a certificate"
        else bad "$p: status $(field status), message $(field message)"; fi
done
run "ring, dense path: no solution" 3 -t 1e-10 --linsolve dense "$T/ring.json"

# --- not monotone: exit 5 with the reason, quickly.  Positive diagonal and
# psd 2x2 minors, yet (A + A')/2 has a negative eigenvalue.
cat >"$T/indef.json" <<'J'
{"kind": "lcp", "A": [[1, 0.8, 0.8], [0.8, 1, -0.8], [0.8, -0.8, 1]], "b": [-1, -1, -1]}
J
cat >"$T/negdiag.json" <<'J'
{"kind": "lcp", "A": [[1, 0], [0, -1]], "b": [-1, -1]}
J
run "indef: not monotone" 5 --json "$T/indef.json" &&
    if field message | grep -q "not positive semidefinite"; then ok "indef: says why"
    else bad "indef: message $(field message)"; fi
# a negative diagonal entry proves it before the solve: refused, exit 2
run "negdiag: not monotone, refused" 2 --json "$T/negdiag.json" &&
    if grep -q "positive semidefinite, but A(2,2) = -1" "$T/err"; then ok "negdiag: names the row"
    else bad "negdiag: $(cat "$T/err")"; fi

# --- limits: -n stops with exit 1; a tolerance below double precision ends
# in a stall at the rounding level (exit 1, with the reason), not a verdict
run "max-iter" 1 -n 2 "$T/column50"
run "tolerance below rounding" 1 --json -t 1e-17 "$T/rspd100_1e4" &&
    if field message | grep -q "rounding level"; then ok "rounding stall explained"
    else bad "rounding stall: message $(field message)"; fi

# --- trace columns, iteration 0, the warm start checked at iteration 0
run "trace" 0 -t 1e-10 --trace "$T/t.csv" "$T/column50"
if head -n 1 "$T/t.csv" | grep -q "^iter,time_s,residual,complementarity,feasibility,mu,step,sigma$" &&
   sed -n 2p "$T/t.csv" | grep -q "^0,"; then ok "trace: mu, step, sigma columns, row 0"
else bad "trace header: $(head -n 1 "$T/t.csv")"; fi
"$LCP" -s ipm -t 1e-12 -o "$T/sol.mtx" "$T/column50" >/dev/null 2>&1
run "warm start accepted at iteration 0" 0 --json -t 1e-8 -n 0 --warm-start "$T/sol.mtx" "$T/column50" &&
    if [ "$(field iterations)" = 0 ]; then ok "warm start: 0 iterations"; else bad "warm start: $(field iterations) iterations"; fi

# --- the dense path's products (BLAS dgemv on the dense copy of A; the pass
# over |A| of the curvature test only where dz'A dz < 0) against the sparse
# path's (CSR): the same negative curvature on the same step, the same Farkas
# verdict for a symmetric A (A' is A itself, no transpose), the same solution
for ls in dense sparse; do
    run "indef, $ls: not monotone" 5 --json --linsolve $ls "$T/indef.json" &&
        if field message | grep -q "dz'A dz = -2.81 < 0 on a direction of step 1"; then ok "indef, $ls: curvature found"
        else bad "indef, $ls: message $(field message)"; fi
    run "psd (symmetric), $ls: no solution" 3 --json --linsolve $ls "$T/psd.json" &&
        if [ "$(field status)" = no_solution ] && grep -q "Farkas" "$T/out"; then ok "psd, $ls: Farkas certificate"
        else bad "psd, $ls: status $(field status), message $(field message)"; fi
done
run "rspd100 dense" 0 -t 1e-12 --linsolve dense -o "$T/xd.mtx" "$T/rspd100_1e4"
run "rspd100 sparse" 0 -t 1e-12 --linsolve sparse -o "$T/xs.mtx" "$T/rspd100_1e4"
check "rspd100: dense (dgemv) = sparse (CSR) to 1e-10 ($(vdiff "$T/xd.mtx" "$T/xs.mtx"))" close "$T/xd.mtx" "$T/xs.mtx" 1e-10
run "rspd100: -j 2 (LAPACK threads) = -j 1" 0 -t 1e-12 -j 2 --linsolve dense -o "$T/xj.mtx" "$T/rspd100_1e4"
check "rspd100: -j 2 = -j 1 to 1e-10" close "$T/xj.mtx" "$T/xd.mtx" 1e-10

# --linsolve pcg: conjugate gradients on the Newton matrix with every
# preconditioner ipm takes, on a definite (column) and a semidefinite
# (pyramid) A: solved to 1e-10, the same answer as the sparse factorisation
for prob in problems/column-20-ratio100 problems/pyramid-5; do
    "$LCP" -s ipm --linsolve sparse -t 1e-10 -o "$T/xs.mtx" --output-w "$T/ws.mtx" --quiet "$prob"
    for pc in none diag ichol spai mg; do
        "$LCP" -s ipm --linsolve pcg -p $pc -t 1e-10 --json -o "$T/xp.mtx" --output-w "$T/wp.mtx" "$prob" >"$T/out"; rc=$?
        check "ipm pcg -p $pc $(basename $prob): solved" [ $rc -eq 0 ]
        check "ipm pcg -p $pc $(basename $prob): message says PCG" grep -q '"message":"[^"]*PCG' "$T/out"
        check "ipm pcg -p $pc $(basename $prob): w as with sparse LL' to 1e-8" close "$T/wp.mtx" "$T/ws.mtx" 1e-8
    done
done
"$LCP" -s ipm -p ichol --linsolve dense problems/column-20 >/dev/null 2>"$T/err"; rc=$?
check "ipm -p ichol --linsolve dense: refused (exit 2)" [ $rc -eq 2 ]
"$LCP" -s ipm --linsolve pcg problems/murty-8 >/dev/null 2>"$T/err"; rc=$?
check "ipm --linsolve pcg, A not symmetric: refused (exit 2)" [ $rc -eq 2 ]
"$LCP" -s newton-fb --linsolve pcg problems/column-20 >/dev/null 2>"$T/err"; rc=$?
check "newton-fb --linsolve pcg: refused (exit 2)" [ $rc -eq 2 ]

# a granular pile of 8,087 contacts: redundant contacts make A_BB singular in
# the polish, and a degenerate contact (z = w = 0) converges only like
# sqrt(mu): 1e-10 comes from the polish (it stalled at 8.5e-9 with the
# polish regularized like the Newton steps)
"$LCP" generate granular --base 16 --layers 8 -o "$T/g16" >/dev/null 2>&1
"$LCP" -s ipm -t 1e-10 --json -o "$T/g16.mtx" "$T/g16" >"$T/out" 2>&1; rc=$?
check "ipm: granular 16x8 solved to 1e-10 (exit $rc)" [ $rc -eq 0 ]
check "ipm: granular 16x8 independent residual" indep "$T/g16/A.mtx" "$T/g16/b.mtx" "$T/g16.mtx" --max 1e-10

# a column of 85,000 spheres: loads up to 8,300 against the start's 0.5; the
# infeasible-start steps stall (exit 5, "no progress in 20 steps", before
# the restart), then one restart from z_0 = T e, T the largest entry of
# A^-1 (-b), solves it; a column of 5,000 is solved without one
"$LCP" generate column --bodies 85000 -o "$T/c85" >/dev/null 2>&1
"$LCP" -s ipm -t 1e-10 --json -o "$T/c85.mtx" "$T/c85" >"$T/out" 2>&1; rc=$?
check "ipm: column 85,000 solved to 1e-10 (exit $rc)" [ $rc -eq 0 ]
check "ipm: column 85,000: the message names the restart" grep -q 'restarted after step' "$T/out"
check "ipm: column 85,000 independent residual" indep "$T/c85/A.mtx" "$T/c85/b.mtx" "$T/c85.mtx" --max 1e-10
# the same on a column of 1,000 with a top/bottom mass ratio of 1e4 (a stall
# at residual 3e-5 before)
"$LCP" generate column --bodies 1000 --mass-ratio 1e4 -o "$T/cmr" >/dev/null 2>&1
"$LCP" -s ipm -t 1e-10 --json -o "$T/cmr.mtx" "$T/cmr" >"$T/out" 2>&1; rc=$?
check "ipm: column 1,000, mass ratio 1e4, solved to 1e-10 (exit $rc)" [ $rc -eq 0 ]
check "ipm: column mass ratio: independent residual" indep "$T/cmr/A.mtx" "$T/cmr/b.mtx" "$T/cmr.mtx" --max 1e-10
"$LCP" generate column --bodies 5000 -o "$T/c5" >/dev/null 2>&1
"$LCP" -s ipm -t 1e-10 --json "$T/c5" >"$T/out" 2>&1; rc=$?
check "ipm: column 5,000 solved without a restart (exit $rc)" sh -c "[ $rc -eq 0 ] && ! grep -q restarted '$T/out'"

finish
