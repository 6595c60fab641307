#!/bin/sh
# tests/e2e/exact_newton.sh: the semismooth Newton solvers newton-fb and
# newton-min (src/solvers/newton.c) end to end.
#  - the Siconos LCP collection, both solvers, --linsolve dense and sparse:
#    every file is solved to 1e-10 (exit 0, residual recomputed here from the
#    .dat file, independently of lcpsolve), the hard cases included (CPS_*,
#    Pang_isolated_sol, enum_fails: singular, indefinite or zero-diagonal A);
#    a run is never allowed to hang (a time limit) nor to exit 0 above tol;
#  - agreement with the peer, Siconos' lcp_lexicolemke and lcp_newton_FB, on
#    the files whose solution is unique (skipped where
#    libsiconos-numerics-dev is missing);
#  - generated problems (random-spd, column, pyramid, murty) solved to 1e-10
#    with --linsolve dense and sparse (independent residual), agreeing with
#    psor (pyramid: lambda is not unique, the residual only; the heavy
#    column, condition 4e7, with lemke: psor stalls there); --linsolve
#    auto picks dense up to n = 1000 and sparse above, and says so;
#  - the trace: merit and step columns, full steps and fast local
#    convergence at the end (r_{k+1} <= 10 r_k^1.5 over the last 3 rows);
#  - unhappy paths: LCPs without a solution stop with exit 5 and "line
#    search failed" (never a hang, never "solved"); iteration limits (exit
#    1); refusals (blcp, fc3d, dense H beyond n = 16384).
# Run from the repository root: sh tests/e2e/exact_newton.sh
# Ends with "N passed, N failed"; exit 1 on a failure.
. tests/lib.sh
SICONOS=$SICONOS_DATA/lcp
# run NAME EXPECTED_EXIT ARGS...: runs lcpsolve (60 s at most), stdout/stderr in $T/out, $T/err
run() {
    _r=$1; _want=$2; shift 2
    "$LCP" --time-limit 60 "$@" >"$T/out" 2>"$T/err"; _got=$?
    if [ "$_got" -eq "$_want" ]; then ok "$_r (exit $_got)"; else bad "$_r: exit $_got, expected $_want: $(head -c 300 "$T/out" "$T/err")"; fi
}
# dat_residual FILE.dat X.mtx: the residual of docs/contract.md, from a dense
# Siconos .dat file read as Siconos reads it (M column-major), by Python alone
dat_residual() { python3 - "$1" "$2" <<'P'
import sys
t = open(sys.argv[1]).read().split()
n = int(t[0]); assert t[1] == "0", "dense .dat only"
m = [float(v) for v in t[6:6 + n * n]]          # column-major: m[j*n + i] = A(i, j)
b = [float(v) for v in t[6 + n * n:6 + n * n + n]]
x = [float(s) for s in [s for s in open(sys.argv[2]) if s.strip() and not s.startswith('%')][1:]]
w = [b[i] + sum(m[j * n + i] * x[j] for j in range(n)) for i in range(n)]
print("%.3e" % (max(abs(min(xi, wi)) for xi, wi in zip(x, w)) / max(1.0, max(abs(v) for v in b))))
P
}
below() { python3 -c "import sys; sys.exit(0 if float('$1') <= float('$2') else 1)"; }

# --- the Siconos LCP collection: every file, both solvers, both linear algebras
if [ -d "$SICONOS" ]; then
    for f in "$SICONOS"/*.dat; do
        name=$(basename "$f" .dat)
        for s in newton-fb newton-min; do
            for ls in dense sparse; do
                run "$s/$ls: $name solved to 1e-10" 0 -s $s --linsolve $ls -t 1e-10 --json -o "$T/x.mtx" "$f"
                check "$s/$ls: $name: status solved, residual <= 1e-10" \
                    python3 -c "import json, sys; o = json.load(open('$T/out'))
sys.exit(0 if o['status'] == 'solved' and o['residual'] <= 1e-10 else 1)"
                check "$s/$ls: $name: message names the path" grep -Eq "\"message\":\"$ls (LU|Cholesky)" "$T/out"
                case $name in *_block) continue ;; esac # sparse-block storage: the dense twin is checked
                r=$(dat_residual "$f" "$T/x.mtx")
                check "$s/$ls: $name: independent residual $r <= 1e-10" below "$r" 1e-10
            done
        done
    done
else
    skip "$SICONOS absent"
fi

# --- agreement with Siconos (lcp_lexicolemke and lcp_newton_FB) where the
# solution is unique: positive definite A (deudeu, mmc, ortiz, trivial and
# their _block twins), exp_murty (triangular, unit diagonal: a P-matrix),
# CPS_4/4bis (KKT of a strictly convex QP), CPS_2 and Pang_isolated_sol
# (unique by case analysis).  Not compared: CPS_1, inf_sol_perturbed (a ray
# of solutions), enum_fails (not known to be unique), CPS_3 (three Nash
# equilibria; Siconos' lemke ray-terminates there).
PEER=build/peer/siconos_lcp
if [ ! -d /usr/include/siconos ] || ! make -s "$PEER" >/dev/null 2>&1; then
    skip "Siconos Numerics is not installed (scripts/install-deps --peer)"
    PEER=
elif [ -d "$SICONOS" ]; then
    for name in lcp_CPS_2 lcp_CPS_4 lcp_CPS_4bis lcp_Pang_isolated_sol lcp_deudeu lcp_deudeu_block lcp_exp_murty \
                lcp_mmc lcp_ortiz lcp_ortiz_block lcp_trivial lcp_trivial_block; do
        f=$SICONOS/$name.dat
        [ -f "$f" ] || { skip "$name: absent"; continue; }
        for ps in lemke newton-fb; do
            if ! "$PEER" $ps "$f" "$T/ref.mtx" 1e-12 >"$T/peer" 2>&1; then
                bad "siconos $ps fails on $name: $(head -c 200 "$T/peer")"; continue
            fi
            for s in newton-fb newton-min; do
                run "$s: $name = siconos $ps (1e-7)" 0 -s $s -t 1e-10 --reference "$T/ref.mtx" --ref-tol 1e-7 "$f"
            done
        done
    done
else
    skip "against the peer: $SICONOS absent (LCPSOLVE_DATA)"
fi

# --- generated problems: dense and sparse, independent residual, psor agrees
for scene in "random-spd --size 100 --density 1" "random-spd --size 300 --cond 1e6" \
             "random-spd --size 200 --cond 1e8" "column --bodies 50" "column --bodies 300 --mass-ratio 1000" \
             "pyramid --base 8" "pyramid --base 20" "murty --size 8"; do
    # shellcheck disable=SC2086
    "$LCP" generate $scene -o "$T/g" >/dev/null 2>&1 || { bad "generate $scene"; continue; }
    unique=1 ref=psor rt=1e-12
    case $scene in
    pyramid*) unique=0 ;; # redundant contacts: lambda is not unique
    *mass-ratio*) # condition 4e7: psor stalls, round-off leaves lemke at ~3e-12 (exact
        ref=lemke rt=1e-10 # pivoting, where it is built)
        "$LCP" --list-solvers | grep -q "^lemke " || unique=0 ;;
    esac
    if [ $unique = 1 ]; then
        "$LCP" -s $ref -t $rt -n 5000000 --quiet -o "$T/ref.mtx" "$T/g" 2>/dev/null ||
            bad "$scene: $ref does not reach $rt"
    fi
    for s in newton-fb newton-min; do
        for ls in dense sparse; do
            run "$s/$ls: $scene solved to 1e-10" 0 -s $s --linsolve $ls -t 1e-10 -o "$T/x.mtx" "$T/g"
            check "$s/$ls: $scene: independent residual <= 1e-10" \
                indep "$T/g/A.mtx" "$T/g/b.mtx" "$T/x.mtx" --max 1e-10
            if [ $unique = 1 ]; then
                run "$s/$ls: $scene: $ref agrees (1e-6)" 0 -s psor -t 1e-10 -n 0 --warm-start "$T/x.mtx" \
                    --reference "$T/ref.mtx" --ref-tol 1e-6 "$T/g"
            fi
        done
    done
done
# against the peer's lcp_newton_FB on a dense generated problem (unique)
if [ -n "$PEER" ]; then
    "$LCP" generate random-spd --size 200 --density 1 --cond 1e4 -o "$T/rd" >/dev/null 2>&1
    if "$PEER" newton-fb "$T/rd" "$T/ref.mtx" 1e-12 >"$T/peer" 2>&1; then
        for s in newton-fb newton-min; do
            run "$s: random-spd 200 dense = siconos newton_FB (1e-7)" 0 -s $s -t 1e-10 \
                --reference "$T/ref.mtx" --ref-tol 1e-7 "$T/rd"
        done
    else
        bad "siconos newton-fb fails on random-spd 200: $(head -c 200 "$T/peer")"
    fi
fi

# --- --linsolve auto: sparse above n = 1000 or where predicted cheaper (a random sparse A of 1000
# rows has a wide envelope: dense); large sparse contact problems
"$LCP" generate random-spd --size 1000 -o "$T/r1000" >/dev/null 2>&1
"$LCP" generate pyramid --base 30 -o "$T/p30" >/dev/null 2>&1  # 3,600 contacts
for s in newton-fb newton-min; do
    run "$s: n = 1000 (auto)" 0 -s $s -t 1e-10 --json "$T/r1000"
    check "$s: n = 1000: auto chose dense" grep -q '"message":"dense Cholesky (LAPACK), auto: dense cheaper' "$T/out"
    run "$s: pyramid 3600 (auto)" 0 -s $s -t 1e-10 --json -o "$T/x.mtx" "$T/p30"
    check "$s: pyramid 3600: auto chose sparse (CHOLMOD: A symmetric)" grep -q '"message":"sparse Cholesky (CHOLMOD), auto: n > 1000' "$T/out"
    check "$s: pyramid 3600: independent residual" indep "$T/p30/A.mtx" "$T/p30/b.mtx" "$T/x.mtx" --max 1e-10
done

# --- the trace: columns, full steps and fast local convergence at the end
"$LCP" generate random-spd --size 200 --cond 1e4 -o "$T/rs" >/dev/null 2>&1
for s in newton-fb newton-min; do
    for ls in dense sparse; do
        run "$s/$ls: trace written" 0 -s $s --linsolve $ls -t 1e-10 --json --trace "$T/tr.csv" "$T/rs"
        check "$s/$ls: trace header ends in merit,step" \
            [ "$(head -n 1 "$T/tr.csv")" = "iter,time_s,residual,complementarity,feasibility,merit,step" ]
        check "$s/$ls: trace row 0: step 0" [ "$(sed -n 2p "$T/tr.csv" | cut -d, -f1,7)" = "0,0" ]
        check "$s/$ls: trace rows = iterations + 1" \
            [ "$(($(wc -l <"$T/tr.csv") - 2))" = "$(json_field iterations)" ]
        check "$s/$ls: merit decreases, last step 1, r_k+1 <= 10 r_k^1.5 over the last 3 rows" python3 -c "
import csv, sys
r = list(csv.DictReader(open('$T/tr.csv')))
m = [float(x['merit']) for x in r]; res = [float(x['residual']) for x in r]
ok = all(b < a for a, b in zip(m, m[1:])) and float(r[-1]['step']) == 1 and len(res) >= 3
ok = ok and all(res[k + 1] <= 10 * res[k] ** 1.5 for k in (len(res) - 3, len(res) - 2))
sys.exit(0 if ok else 1)"
    done
done

# --- unhappy paths
# no solution: w2 = -z1 - 1 < 0 for every z >= 0 (skew-symmetric A); A = -I, b = -1;
# A = 0, b = (-1, 2)
cat >"$T/skew.json" <<'J'
{"kind": "lcp", "A": [[0, 1], [-1, 0]], "b": [-1, -1]}
J
cat >"$T/negi.json" <<'J'
{"kind": "lcp", "A": [[-1, 0], [0, -1]], "b": [-1, -1]}
J
cat >"$T/zero.json" <<'J'
{"kind": "lcp", "A": [[0, 0], [0, 0]], "b": [-1, 2]}
J
for p in skew negi zero; do
    for s in newton-fb newton-min; do
        run "$s: $p (no solution): error" 5 -s $s -t 1e-10 --json "$T/$p.json"
        check "$s: $p: status error" [ "$(json_field status)" = error ]
        check "$s: $p: line search message" grep -q "line search failed: the problem may have no solution" "$T/out"
        check "$s: $p: stopped early" below "$(json_field iterations)" 1000
    done
done
# iteration limit, warm start at the solution
run "newton-fb: -n 2 stops (max_iter)" 1 -s newton-fb -t 1e-14 -n 2 --json "$T/rs"
check "newton-fb: -n 2: status max_iter, 2 iterations" [ "$(json_field status) $(json_field iterations)" = "max_iter 2" ]
"$LCP" -s newton-min -t 1e-12 --quiet -o "$T/sol.mtx" "$T/rs"
run "newton-fb: warm start at the solution: 0 steps" 0 -s newton-fb -t 1e-10 --json --warm-start "$T/sol.mtx" "$T/rs"
check "newton-fb: warm start: 0 iterations" [ "$(json_field iterations)" = 0 ]
# refusals
echo '{"kind": "blcp", "A": [[2, 1], [1, 2]], "b": [-1, -1], "lo": [0, 0], "hi": [1, 1]}' >"$T/blcp.json"
for s in newton-fb newton-min; do
    run "$s: blcp refused" 2 -s $s "$T/blcp.json"
    check "$s: blcp refused: reason" grep -q "does not solve blcp" "$T/err"
done
"$LCP" generate column --bodies 3 --mu 0.5 -o "$T/fc" >/dev/null 2>&1
run "newton-fb: fc3d refused" 2 -s newton-fb "$T/fc"
"$LCP" generate column --bodies 20000 -o "$T/c20k" >/dev/null 2>&1
run "newton-fb: --linsolve dense refused at n = 20000" 2 -s newton-fb --linsolve dense "$T/c20k"
check "dense refusal names n and the way out" grep -q "n = 20000 > 16384.*--linsolve sparse" "$T/err"
run "newton-fb: column 20000 sparse solved" 0 -s newton-fb -t 1e-10 -o "$T/x.mtx" "$T/c20k"
check "column 20000: independent residual" indep "$T/c20k/A.mtx" "$T/c20k/b.mtx" "$T/x.mtx" --max 1e-10

finish
