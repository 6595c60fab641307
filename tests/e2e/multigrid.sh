#!/bin/sh
# tests/e2e/multigrid.sh: the projected multigrid solver (-s pmg) end to end.
# Generated columns of N spheres (N = 100, 1000, 10000): solved to 1e-8 in a
# number of cycles that stays small and does not grow with N (where psor
# needs thousands of sweeps), answers checked by the independent residual
# checker; agreement at 1e-12 with psor, ipm and Siconos' Lemke (where the
# peer is built) through --reference; a mass ratio of 100; pyramids of boxes
# (A singular: residuals, not x); box LCPs with finite bounds (a column, and
# a random SPD matrix with hundreds of rows at each bound) against pivot and
# psor; free rows; V- and W-cycles; the trace columns; and the refusals:
# non-symmetric A, zero diagonal, findex rows, -p (exit 2), indefinite A
# (exit 5), limits (exit 1), warm start.  Run from the repository root:
# sh tests/e2e/multigrid.sh.  Ends with "N passed, N failed".
. tests/lib.sh
field() { python3 -c "import json,sys; v=json.load(open(sys.argv[2])).get(sys.argv[1]); print('' if v is None else v)" "$1" "$2"; }
le() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)" "$1" "$2"; }

if ! "$LCP" --list-solvers | grep -q '^pmg '; then
    bad "pmg is not in --list-solvers"; finish; exit 1
fi
ok "pmg listed"

# solve NAME DIR ARGS...: pmg to 1e-8, x checked by the independent checker
solve() {
    name=$1; dir=$2; shift 2
    "$LCP" -s pmg --json -o "$T/x.mtx" "$@" "$dir" >"$T/out" 2>"$T/err"; rc=$?
    it=$(json_field iterations)
    if [ $rc -eq 0 ] && indep "$dir/A.mtx" "$dir/b.mtx" "$T/x.mtx" --max 1e-8; then
        ok "$name: pmg solved in $it cycles (independent check)"
    else
        bad "$name: pmg exit $rc: $(json_field status) $(json_field message) $(head -c 200 "$T/err")"
    fi
}

# --- columns: cycles near-constant in N
for N in 100 1000 10000; do
    "$LCP" generate column --bodies $N -o "$T/col$N" >/dev/null 2>&1
    solve "column $N" "$T/col$N"
    eval "it$N=\$it"
done
check "column: at most 25 cycles for N = 1000 ($it1000)" [ "${it1000:-999}" -le 25 ]
check "column: N = 10000 takes at most 5 cycles more than N = 1000 ($it10000 vs $it1000)" \
    [ "${it10000:-999}" -le $((${it1000:-0} + 5)) ]
"$LCP" -s psor --json "$T/col1000" >"$T/out" 2>/dev/null
check "column 1000: psor needs 100 times the sweeps ($(json_field iterations) vs $it1000)" \
    [ "$(json_field iterations)" -ge $((100 * ${it1000:-999})) ]

# agree NAME REF PROBLEM...: REF to 1e-12, then pmg to 1e-12 agreeing with it to 1e-9
agree() {
    name=$1; ref=$2; shift 2
    if ! "$LCP" -s "$ref" -t 1e-12 -n 10000000 --quiet -o "$T/ref.mtx" "$@" 2>"$T/err"; then
        bad "$name: the reference ($ref) fails: $(head -c 200 "$T/err")"; return
    fi
    "$LCP" -s pmg -t 1e-12 --json --reference "$T/ref.mtx" --ref-tol 1e-9 "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 0 ]; then ok "$name: pmg = $ref at 1e-12 ($(json_field iterations) cycles)"
    else bad "$name: pmg exit $rc: $(json_field status) $(json_field message) $(head -c 200 "$T/err")"; fi
}
"$LCP" generate column --bodies 300 -o "$T/col300" >/dev/null 2>&1
"$LCP" generate column --bodies 1000 --mass-ratio 100 -o "$T/mr" >/dev/null 2>&1
agree "column 300" psor "$T/col300"
agree "column 1000" ipm "$T/col1000"
agree "column 1000, mass ratio 100" ipm "$T/mr"
solve "column 1000, mass ratio 100" "$T/mr"
check "mass ratio 100: at most 40 cycles ($it)" [ "${it:-999}" -le 40 ]
"$LCP" generate random-spd --size 2000 --cond 1e4 -o "$T/rspd" >/dev/null 2>&1
agree "random-spd 2000 (half the rows at 0)" ipm "$T/rspd"

# --- pyramids: A singular (x not unique), residuals checked
for B in 10 20; do
    "$LCP" generate pyramid --base $B -o "$T/pyr$B" >/dev/null 2>&1
    solve "pyramid base $B" "$T/pyr$B"
    "$LCP" -s pmg -t 1e-11 --json "$T/pyr$B" >"$T/out" 2>&1
    check "pyramid base $B: 1e-11 reached ($(json_field iterations) cycles)" [ "$(json_field status)" = solved ]
done
"$LCP" -s pgs --json "$T/pyr20" >"$T/out" 2>/dev/null
check "pyramid base 20: pgs needs 5 times the sweeps ($(json_field iterations) vs $it)" \
    [ "$(json_field iterations)" -ge $((5 * ${it:-999})) ]

# --- V and W cycles
for c in V W; do
    for d in col10000 mr pyr10; do
        "$LCP" -s pmg --cycle $c --json "$T/$d" >"$T/out" 2>&1
        check "$c-cycles on $d: solved ($(json_field iterations) cycles)" [ "$(json_field status)" = solved ]
    done
done

# --- box LCPs: column 300 with finite bounds
cp "$T/col300/A.mtx" "$T/col300/b.mtx" "$T/" && mkdir -p "$T/box" && mv "$T/A.mtx" "$T/b.mtx" "$T/box/"
python3 - "$T/box" <<'P'
import sys
d = sys.argv[1]
def put(name, vals):
    with open(d + '/' + name, 'w') as f:
        f.write('%%%%MatrixMarket matrix array real general\n%d 1\n' % len(vals))
        f.write(''.join('%.17g\n' % v for v in vals))
n = 300
put('lo.mtx', [-1.0 if i % 7 == 0 else 0.0 for i in range(n)])
put('hi.mtx', [10.0 if i % 3 else 20.0 for i in range(n)])
P
agree "box LCP (finite bounds)" pivot --kind blcp "$T/box"
agree "box LCP (finite bounds)" psor --kind blcp "$T/box"
# random-spd 2000 in a box: hundreds of rows at each end of it
mkdir -p "$T/rbox" && cp "$T/rspd/A.mtx" "$T/rspd/b.mtx" "$T/rbox/"
python3 - "$T/rbox" <<'P'
import sys
d = sys.argv[1]
def put(name, vals):
    with open(d + '/' + name, 'w') as f:
        f.write('%%%%MatrixMarket matrix array real general\n%d 1\n' % len(vals))
        f.write(''.join('%.17g\n' % v for v in vals))
put('lo.mtx', [-0.05 if i % 2 else 0.0 for i in range(2000)])
put('hi.mtx', [0.05 if i % 3 else 1e300 for i in range(2000)])  # 1e300: +inf
P
agree "random-spd 2000 in a box" pivot --kind blcp "$T/rbox"
"$LCP" -s pmg -t 1e-12 -o "$T/xb.mtx" --kind blcp "$T/rbox" >/dev/null 2>&1
check "box: 100+ rows at each bound" python3 -c "
import sys
x = [float(l) for l in [l for l in open(sys.argv[1]) if l.strip() and l[0] != '%'][1:]]
hi = [0.05 if i % 3 else 1e300 for i in range(2000)]
lo = [-0.05 if i % 2 else 0.0 for i in range(2000)]
sys.exit(0 if min(sum(abs(x[i] - hi[i]) < 1e-12 for i in range(2000)), sum(abs(x[i] - lo[i]) < 1e-12 for i in range(2000))) >= 100 else 1)" "$T/xb.mtx"
cat >"$T/free.json" <<'J'
{"kind": "blcp",
 "A": [[4, -1, 0, 0], [-1, 4, -1, 0], [0, -1, 4, -1], [0, 0, -1, 4]],
 "b": [1, -2, 3, -4],
 "lo": ["-inf", "-inf", 0, -0.1],
 "hi": ["inf", "inf", "inf", 0.5]}
J
agree "free rows and a box" pivot "$T/free.json"

# --- Siconos' Lemke on the symmetric positive definite collection files
if [ -d /usr/include/siconos ] && make -s peer >/dev/null 2>&1 && [ -d "$SICONOS_DATA/lcp" ]; then
    for f in mmc deudeu trivial; do
        if build/peer/siconos_lcp lemke "$SICONOS_DATA/lcp/lcp_$f.dat" "$T/sref.mtx" 1e-14 >/dev/null 2>&1; then
            "$LCP" -s pmg -t 1e-12 --quiet --reference "$T/sref.mtx" --ref-tol 1e-8 "$SICONOS_DATA/lcp/lcp_$f.dat" 2>"$T/err"
            check "siconos lcp_$f: pmg = Siconos Lemke" [ $? -eq 0 ]
        else
            skip "siconos lemke does not solve lcp_$f"
        fi
    done
else
    skip "Siconos Numerics peer or $SICONOS_DATA/lcp (LCPSOLVE_DATA) not available"
fi

# --- trace columns
"$LCP" -s pmg --json --trace "$T/tr.csv" "$T/rbox" --kind blcp >"$T/out" 2>&1
check "trace header" [ "$(head -n 1 "$T/tr.csv")" = "iter,time_s,residual,complementarity,feasibility,max_dx,active,step" ]
check "trace row 0" grep -q '^0,' "$T/tr.csv"
check "trace rows = cycles + 1" [ "$(($(wc -l <"$T/tr.csv") - 2))" -eq "$(json_field iterations)" ]
check "trace: active is a row count in [0, 2000], step in [0, inf)" \
    awk -F, 'NR > 1 && ($7 != int($7) || $7 < 0 || $7 > 2000 || $8 < 0) { exit 1 }' "$T/tr.csv"
check "trace: 100+ rows active at the end" awk -F, 'END { exit !($7 >= 100) }' "$T/tr.csv"

# --- refusals and verdicts
run() { # run NAME EXPECTED_EXIT ARGS...
    name=$1; want=$2; shift 2
    "$LCP" "$@" >"$T/out" 2>"$T/err"; got=$?
    if [ "$got" -eq "$want" ]; then ok "$name (exit $got)"; else bad "$name: exit $got, expected $want: $(head -c 300 "$T/out" "$T/err")"; fi
}
echo '{"kind": "lcp", "A": [[2, 1], [0, 2]], "b": [-1, -1]}' >"$T/nonsym.json"
run "non-symmetric A refused" 2 -s pmg "$T/nonsym.json"
check "refusal: one line naming symmetry" [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q symmetric "$T/err"
echo '{"kind": "lcp", "A": [[2, 1], [1, 0]], "b": [-1, -1]}' >"$T/zdiag.json"
run "zero diagonal refused" 2 -s pmg "$T/zdiag.json"
cat >"$T/findex.json" <<'J'
{"kind": "blcp", "A": [[4, 0.2, 0.1], [0.2, 4, 0.1], [0.1, 0.1, 4]], "b": [-1, 0, 0],
 "lo": [0, 0, 0], "hi": ["inf", 0, 0], "findex": [-1, 0, 0], "mu": [0, 0.5, 0.5]}
J
run "findex friction rows refused" 2 -s pmg "$T/findex.json"
check "findex refusal names findex" grep -q findex "$T/err"
run "-p mg refused by pmg" 2 -s pmg -p mg "$T/col100"
echo '{"kind": "lcp", "A": [[1, 2], [2, 1]], "b": [-1, -1]}' >"$T/indef.json"
run "indefinite A: error" 5 -s pmg --json "$T/indef.json"
check "error: status error" [ "$(json_field status)" = error ]
check "error says not positive semidefinite" grep -q 'not positive semidefinite' "$T/out"
run "max-iter 2: exit 1" 1 -s pmg -n 2 --json -o "$T/x2.mtx" "$T/col10000"
check "max-iter: 2 iterations" [ "$(json_field iterations)" = 2 ]
check "max-iter: best iterate written" grep -q MatrixMarket "$T/x2.mtx"
run "solve for a warm start" 0 -s pmg -t 1e-11 -o "$T/xs.mtx" "$T/col1000"
run "warm start at the solution" 0 -s pmg -t 1e-10 --json --warm-start "$T/xs.mtx" "$T/col1000"
check "warm start: 0 cycles" [ "$(json_field iterations)" = 0 ]

finish
