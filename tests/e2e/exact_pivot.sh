#!/bin/sh
# tests/e2e/exact_pivot.sh: the principal pivoting solver (-s pivot) end to
# end.  Box LCPs written here as JSON (finite boxes, one-sided bounds, free
# rows, a mixed one with a box off 0 and a fixed row, and small contact
# problems whose tangent rows take findex friction bounds and slide), each
# solved to 1e-10 and agreeing with pgs to 1e-12 (--ref-tol 1e-7); the
# positive definite Siconos LCPs and generated scenes against psor; a
# pyramid friction problem converted here from fc3d to a findex blcp, where
# pivot and pgs must both reach tol (A is rank-deficient: residuals, not x);
# the trace columns; and the verdicts: no solution (a Farkas ray, exit 3),
# A not positive semidefinite (exit 5), limits (exit 1), warm start, and
# the dense-size refusal (exit 2).  Run from the repository root:
# sh tests/e2e/exact_pivot.sh.  Ends with "N passed, N failed".
. tests/lib.sh
SICONOS=../shared/data/siconos/lcp
# field NAME FILE: a top-level field of a --json output
field() { python3 -c "import json,sys; v=json.load(open(sys.argv[2])).get(sys.argv[1]); print('' if v is None else v)" "$1" "$2"; }
le() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)" "$1" "$2"; }

# agree NAME REFSOLVER PROBLEM...: the reference solver to 1e-12, then
# pivot to 1e-10 agreeing with it to 1e-7
agree() {
    name=$1; ref=$2; shift 2
    if ! "$LCP" -s "$ref" -t 1e-12 -n 10000000 --quiet -o "$T/ref.mtx" "$@" 2>"$T/err"; then
        bad "$name: the reference ($ref) fails: $(head -c 200 "$T/err")"; return
    fi
    "$LCP" -s pivot -t 1e-10 --json --reference "$T/ref.mtx" --ref-tol 1e-7 "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 0 ]; then
        ok "$name: pivot = $ref ($(field iterations "$T/out") pivots)"
    else
        bad "$name: pivot exit $rc: $(field status "$T/out") $(field message "$T/out") $(head -c 200 "$T/err")"
    fi
}

if ! "$LCP" --list-solvers | grep -q '^pivot '; then
    bad "pivot is not in --list-solvers"; echo "$pass passed, $fail failed"; exit 1
fi
ok "pivot listed"

# --- box LCPs: A diagonally dominant, symmetric: positive definite
cat >"$T/box.json" <<'J'
{"kind": "blcp",
 "A": [[3.4, -0.7, 0.7, 0.5],
      [-0.7, 2.9, -0.5, -0],
      [0.7, -0.5, 1.9, -0.1],
      [0.5, -0, -0.1, 1.1]],
 "b": [-3, 2.5, -1, 4],
 "lo": [-1, -1, 0, -2],
 "hi": [1, 0.5, 1, 2]}
J
cat >"$T/onesided.json" <<'J'
{"kind": "blcp",
 "A": [[4.9, 0.9, 0.9, -0.9, -0.8],
      [0.9, 3.1, 0.7, 0.5, 0.3],
      [0.9, 0.7, 3.3, -0.4, 0.2],
      [-0.9, 0.5, -0.4, 3.1, 0.2],
      [-0.8, 0.3, 0.2, 0.2, 3.1]],
 "b": [-2, 3, -4, 1, 2],
 "lo": [0, "-inf", -1, "-inf", 0.5],
 "hi": ["inf", 1, "inf", -0.2, "inf"]}
J
cat >"$T/free.json" <<'J'
{"kind": "blcp",
 "A": [[1.4, -0.5, 0.1, -0.3],
      [-0.5, 2.8, 0.2, 0.3],
      [0.1, 0.2, 2.1, -0.9],
      [-0.3, 0.3, -0.9, 2.4]],
 "b": [1, -2, 3, -4],
 "lo": ["-inf", "-inf", "-inf", "-inf"],
 "hi": ["inf", "inf", "inf", "inf"]}
J
cat >"$T/mixed.json" <<'J'
{"kind": "blcp",
 "A": [[4.7, -0.5, -0.8, -0.2, -0.7, -0.9, -0.2],
      [-0.5, 4.7, 0.8, 0.6, 0.5, -0.6, 0.1],
      [-0.8, 0.8, 5.9, -0.4, -0.7, -0.8, -0.6],
      [-0.2, 0.6, -0.4, 5.2, 0.9, 0.7, 0.6],
      [-0.7, 0.5, -0.7, 0.9, 4.6, 0.6, -0.6],
      [-0.9, -0.6, -0.8, 0.7, 0.6, 5.4, -0.4],
      [-0.2, 0.1, -0.6, 0.6, -0.6, -0.4, 4]],
 "b": [2, -3, 1, -5, 4, -1, 3],
 "lo": ["-inf", 0, -0.5, 0.5, 0.3, "-inf", -1],
 "hi": ["inf", "inf", 0.5, 2, 0.3, 0.2, "inf"]}
J
cat >"$T/contact2.json" <<'J'
{"kind": "blcp",
 "A": [[4.1, 0.2, 0.5, 0.6, 0.9, 0.5],
      [0.2, 3.4, 0.8, -0.9, -0.1, 0.9],
      [0.5, 0.8, 4, 0.3, 0.8, -0.8],
      [0.6, -0.9, 0.3, 3.3, -0.1, -0.5],
      [0.9, -0.1, 0.8, -0.1, 3.9, 0.1],
      [0.5, 0.9, -0.8, -0.5, 0.1, 4.4]],
 "b": [-2.6, 0.48, -1.57, -1.46, 0.13, 0.13],
 "lo": [0, 0, 0, 0, 0, 0],
 "hi": ["inf", 0, 0, "inf", 0, 0],
 "findex": [-1, 0, 0, -1, 3, 3],
 "mu": [0, 0.5, 0.5, 0, 0.5, 0.5]}
J
cat >"$T/contact3.json" <<'J'
{"kind": "blcp",
 "A": [[4.6, 0.6, 0.6, -0, -0.5, -1, 0.3, -0.1, 0.5],
      [0.6, 5.2, -0.3, 0.5, -0.5, 0.6, 0.5, -0.2, 0.1],
      [0.6, -0.3, 5.6, 0.4, -0.6, 0.1, 0.6, -0.5, 0.6],
      [-0, 0.5, 0.4, 5, 0.4, 0.7, -0.3, -0.8, 0.6],
      [-0.5, -0.5, -0.6, 0.4, 5.6, 0.6, -0.1, -0.8, -0.6],
      [-1, 0.6, 0.1, 0.7, 0.6, 6.1, 0.3, -0.4, 0.9],
      [0.3, 0.5, 0.6, -0.3, -0.1, 0.3, 4.6, 0.2, -0.6],
      [-0.1, -0.2, -0.5, -0.8, -0.8, -0.4, 0.2, 5.3, 0.3],
      [0.5, 0.1, 0.6, 0.6, -0.6, 0.9, -0.6, 0.3, 4.7]],
 "b": [-2.1, -2.05, -1.52, -1.53, 5.22, 3.3, -1.69, 3.28, 2.96],
 "lo": [0, 0, 0, 0, 0, 0, 0, 0, 0],
 "hi": ["inf", 0, 0, "inf", 0, 0, "inf", 0, 0],
 "findex": [-1, 0, 0, -1, 3, 3, -1, 6, 6],
 "mu": [0, 0.5, 0.5, 0, 0.5, 0.5, 0, 0.5, 0.5]}
J
cat >"$T/contact4.json" <<'J'
{"kind": "blcp",
 "A": [[7.3, -0.4, -0.7, 0.3, -0.9, 0.1, -0.3, -0.9, 0, -0.9, -0.1, -0.9],
      [-0.4, 8, -0.8, -0.2, 0.7, -0.8, -0.6, 0.3, 0.9, 0.2, -0.2, 1],
      [-0.7, -0.8, 8, -0.9, 0.7, -0.4, -0.7, -0.8, -0.4, 0.6, -0.6, 0.2],
      [0.3, -0.2, -0.9, 6.5, 0.3, -0.3, 0.1, -0.9, -0.9, -0.6, 0.4, -0.1],
      [-0.9, 0.7, 0.7, 0.3, 5.8, -0.4, 0.2, -0.1, -0.4, 0.6, 0.4, -0.5],
      [0.1, -0.8, -0.4, -0.3, -0.4, 6.5, 0.1, 0.1, 0.8, 0.5, -0.4, 1],
      [-0.3, -0.6, -0.7, 0.1, 0.2, 0.1, 5.7, -0.8, -0.2, 0.5, -0.7, -0],
      [-0.9, 0.3, -0.8, -0.9, -0.1, 0.1, -0.8, 7.7, -0.9, 0.3, 0.5, 0.1],
      [0, 0.9, -0.4, -0.9, -0.4, 0.8, -0.2, -0.9, 7.8, 0.8, -0.4, 0.4],
      [-0.9, 0.2, 0.6, -0.6, 0.6, 0.5, 0.5, 0.3, 0.8, 6.3, 0.2, 0.2],
      [-0.1, -0.2, -0.6, 0.4, 0.4, -0.4, -0.7, 0.5, -0.4, 0.2, 5.1, -0.1],
      [-0.9, 1, 0.2, -0.1, -0.5, 1, -0, 0.1, 0.4, 0.2, -0.1, 6]],
 "b": [-2.94, -1.77, 0.43, -2.71, 4.78, 1.86, -2.68, 0.04, 2.99, -0.82, 2.87, 1.59],
 "lo": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
 "hi": ["inf", 0, 0, "inf", 0, 0, "inf", 0, 0, "inf", 0, 0],
 "findex": [-1, 0, 0, -1, 3, 3, -1, 6, 6, -1, 9, 9],
 "mu": [0, 0.5, 0.5, 0, 0.5, 0.5, 0, 0.5, 0.5, 0, 0.5, 0.5]}
J
for c in box onesided free mixed contact2 contact3 contact4; do agree "$c" pgs "$T/$c.json"; done
# the friction cases slide: some tangent row at its bound mu x_n
"$LCP" -s pivot -t 1e-12 --quiet -o "$T/x.mtx" "$T/contact3.json"
check "contact3 slides (|x_t| = mu x_n somewhere)" python3 -c "
import sys
x = [float(l) for l in [l for l in open(sys.argv[1]) if l.strip() and l[0] != '%'][1:]]
sys.exit(0 if any(abs(abs(x[3*c + k]) - 0.5 * x[3*c]) < 1e-9 and x[3*c] > 0 for c in range(3) for k in (1, 2)) else 1)" "$T/x.mtx"

# --- plain LCPs: the positive definite Siconos files, generated scenes
if [ -d "$SICONOS" ]; then
    for f in trivial deudeu ortiz mmc; do agree "siconos $f" psor "$SICONOS/lcp_$f.dat"; done
else
    skip "$SICONOS absent"
fi
"$LCP" generate random-spd --size 300 -o "$T/rspd" >/dev/null 2>&1 && agree "random-spd 300" psor "$T/rspd"
"$LCP" generate column --bodies 200 -o "$T/col" >/dev/null 2>&1 && agree "column 200" psor "$T/col"

# --- a pyramid of boxes with friction: fc3d converted to a findex blcp
# (normal rows: [0, inf), findex -1, mu 0; tangent rows: findex = the
# contact's normal row, mu = the contact's mu)
"$LCP" generate pyramid --base 5 --mu 0.5 -o "$T/pyr" >/dev/null 2>&1
python3 - "$T/pyr" <<'P'
import os, sys
d = sys.argv[1]
def vec(name):
    with open(os.path.join(d, name)) as f:
        rows = [l for l in f if l.strip() and not l.startswith('%')]
    return [float(v) for v in rows[1:1 + int(rows[0].split()[0])]]
def put(name, vals):
    with open(os.path.join(d, name), 'w') as f:
        f.write('%%%%MatrixMarket matrix array real general\n%d 1\n' % len(vals))
        f.write(''.join('%.17g\n' % v for v in vals))
mu = vec('mu.mtx')
put('lo.mtx', [0.0] * (3 * len(mu)))
put('hi.mtx', [v for c in mu for v in (1e300, 0.0, 0.0)])       # 1e300: +inf
put('findex.mtx', [v for c in range(len(mu)) for v in (-1, 3 * c, 3 * c)])
put('blcp_mu.mtx', [v for m in mu for v in (0.0, m, m)])
P
PYR="-A $T/pyr/A.mtx -b $T/pyr/b.mtx --lo $T/pyr/lo.mtx --hi $T/pyr/hi.mtx --findex $T/pyr/findex.mtx --mu $T/pyr/blcp_mu.mtx --kind blcp"
for s in pivot pgs; do
    # shellcheck disable=SC2086
    "$LCP" -s $s -t 1e-8 --json --trace "$T/$s.csv" $PYR >"$T/$s.json" 2>"$T/err"; rc=$?
    if [ $rc -eq 0 ] && le "$(field residual "$T/$s.json")" 1e-8; then
        ok "pyramid friction blcp: $s reaches 1e-8 ($(field iterations "$T/$s.json") iterations)"
    else
        bad "pyramid friction blcp: $s exit $rc: $(field message "$T/$s.json") $(head -c 200 "$T/err")"
    fi
done
check "pyramid: kind blcp" [ "$(field kind "$T/pivot.json")" = blcp ]
check "trace header" [ "$(head -n 1 "$T/pivot.csv")" = "iter,time_s,residual,complementarity,feasibility,pivots,clamped" ]
check "trace row 0" grep -q '^0,' "$T/pivot.csv"
check "trace rows = pivots + 1" [ "$(($(wc -l <"$T/pivot.csv") - 2))" -eq "$(field iterations "$T/pivot.json")" ]
check "trace: pivots column = iter" awk -F, 'NR > 1 && $1 != $6 { exit 1 }' "$T/pivot.csv"

# --- verdicts and limits
run() { # run NAME EXPECTED_EXIT ARGS...
    name=$1; want=$2; shift 2
    "$LCP" "$@" >"$T/out" 2>"$T/err"; got=$?
    if [ "$got" -eq "$want" ]; then ok "$name (exit $got)"; else bad "$name: exit $got, expected $want: $(head -c 300 "$T/out" "$T/err")"; fi
}
echo '{"kind": "lcp", "A": [[1, 0], [0, 0]], "b": [-1, -1]}' >"$T/nosol.json"
run "lcp without solution: no_solution" 3 -s pivot --json "$T/nosol.json"
check "no_solution names the Farkas ray" grep -q 'Farkas' "$T/out"
echo '{"kind": "blcp", "A": [[1, 1], [1, 1]], "b": [-1, -2], "lo": ["-inf", "-inf"], "hi": ["inf", "inf"]}' >"$T/incons.json"
run "inconsistent free rows: no_solution" 3 -s pivot "$T/incons.json"
echo '{"kind": "blcp", "A": [[1, 1], [1, 1]], "b": [-1, -1], "lo": ["-inf", "-inf"], "hi": ["inf", "inf"]}' >"$T/redund.json"
run "redundant free rows: solved" 0 -s pivot -t 1e-12 "$T/redund.json"
echo '{"kind": "lcp", "A": [[1, 2], [2, 1]], "b": [-1, -3]}' >"$T/indef.json"
run "indefinite A: error" 5 -s pivot --json "$T/indef.json"
check "error says not positive semidefinite" grep -q 'not positive semidefinite' "$T/out"
run "max-iter 2: exit 1" 1 -s pivot -n 2 --json -o "$T/x2.mtx" "$T/rspd"
check "max-iter: 2 iterations" [ "$(field iterations "$T/out")" = 2 ]
check "max-iter: best iterate written" grep -q MatrixMarket "$T/x2.mtx"
run "solve for a warm start" 0 -s pivot -t 1e-12 -o "$T/xs.mtx" "$T/mixed.json"
run "warm start at the solution" 0 -s pivot -t 1e-10 --json --warm-start "$T/xs.mtx" "$T/mixed.json"
check "warm start: 0 pivots" [ "$(field iterations "$T/out")" = 0 ]
# two dense 16400 x 16400 factors are 4.3 GB: refused before allocating
if "$LCP" generate random-spd --size 16400 -o "$T/big" >/dev/null 2>&1; then
    run "n = 16400 refused" 2 -s pivot "$T/big"
    check "refusal names n" grep -q 'n = 16400' "$T/err"
else
    skip "cannot generate random-spd --size 16400"
fi

# a negative Schur complement on a regularised (singular) clamped set is no
# proof that A is indefinite: the 3,600-contact pyramid (A = J M^-1 J' is
# semidefinite) gets "cannot decide", not "not positive semidefinite"
"$LCP" generate pyramid --base 30 -o "$T/p30" >/dev/null 2>&1
"$LCP" -s pivot -t 1e-10 --json "$T/p30" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ]; then ok "pyramid-30: solved"; ok "pyramid-30: no false verdict"
else
    check "pyramid-30: exit 5 or a limit (got $rc)" [ $rc -eq 5 -o $rc -eq 1 ]
    check "pyramid-30: no claim that A is indefinite" sh -c "! grep -q 'not positive semidefinite' '$T/out'"
fi

finish
