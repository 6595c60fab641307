#!/bin/sh
# tests/e2e/sensitivity.sh: --sensitivity DB.mtx --sensitivity-out DX.mtx and
# --adjoint G.mtx --adjoint-out DIR (the derivatives of the solution,
# src/diff/): the derivative against central differences of two more solves
# of the command, the adjoint's gradient of b against the derivative (the
# dot-product test), the factored form's gradients written; a direction
# file (.json) of the bounds of a blcp and of A and mu of an fc3d, with the
# gradients of the bounds; the minimum-norm derivative of a singular
# Jacobian, flagged; the usage and input errors (exit 2, one line).
# Run from the repository root.
. tests/lib.sh
# a vector of n entries: awk program printing entry i (0-based) from i
vec() { awk -v n="$1" "BEGIN { print \"%%MatrixMarket matrix array real general\"; print n, 1; for (i = 0; i < n; i++) print $2 }"; }
vals() { grep -v '^%' "$1" | tail -n +2; } # the entries of an array file
"$LCP" generate column --bodies 12 --mu 0.4 -o "$T/col" >/dev/null 2>&1
"$LCP" generate column --bodies 12 -o "$T/lcol" >/dev/null 2>&1
n=36
vec $n '(i % 3 == 0 ? 1.0 + 0.1 * i : 0.3 * ((i % 3) - 1.5))' >"$T/db.mtx"
vec $n 'sin(i + 1.0)' >"$T/g.mtx"

# fc3d: the derivative along db against (x(b + h db) - x(b - h db)) / 2h
"$LCP" -s nsn -t 1e-13 --quiet "$T/col" --sensitivity "$T/db.mtx" --sensitivity-out "$T/dx.mtx" \
    --adjoint "$T/g.mtx" --adjoint-out "$T/grads"
check "fc3d: --sensitivity and --adjoint run (exit 0)" [ $? -eq 0 ]
for s in p m; do
    h=$([ $s = p ] && echo 1e-6 || echo -1e-6)
    vals "$T/col/b.mtx" >"$T/b"; vals "$T/db.mtx" >"$T/db"
    { echo "%%MatrixMarket matrix array real general"; echo "$n 1"
      paste -d' ' "$T/b" "$T/db" | awk -v h="$h" '{ printf "%.17g\n", $1 + h * $2 }'; } >"$T/b$s.mtx"
    "$LCP" -s nsn -t 1e-13 --quiet -A "$T/col/A.mtx" -b "$T/b$s.mtx" --mu "$T/col/mu.mtx" --kind fc3d -o "$T/x$s.mtx"
done
vals "$T/xp.mtx" >"$T/xp"; vals "$T/xm.mtx" >"$T/xm"; vals "$T/dx.mtx" >"$T/dx"
rel=$(paste "$T/xp" "$T/xm" "$T/dx" | awk '{ fd = ($1 - $2) / 2e-6; e = fd - $3; if (e < 0) e = -e; if (e > m) m = e;
      a = $3 < 0 ? -$3 : $3; if (a > s) s = a } END { printf "%.3g", (s > 0 ? m / s : 1) }')
check "fc3d: dx agrees with central differences of two solves (relative $rel <= 1e-6)" \
    awk -v r="$rel" 'BEGIN { exit !(r <= 1e-6) }'
# <g, dx> = <grad_b, db>
vals "$T/g.mtx" >"$T/g"; vals "$T/grads/grad_b.mtx" >"$T/gb"
lhs=$(paste "$T/g" "$T/dx" | awk '{ s += $1 * $2 } END { printf "%.17g", s }')
rhs=$(paste "$T/gb" "$T/db" | awk '{ s += $1 * $2 } END { printf "%.17g", s }')
check "fc3d: <g, dx> = <grad_b, db> to 1e-10 ($lhs, $rhs)" \
    awk -v a="$lhs" -v b="$rhs" 'BEGIN { d = a - b; if (d < 0) d = -d; s = a < 0 ? -a : a; exit !(d <= 1e-10 * (s + 1e-300)) }'
for f in grad_A grad_b grad_mu grad_M grad_J grad_v grad_e; do
    [ -s "$T/grads/$f.mtx" ] || missing="$missing $f"
done
check "fc3d, factored form: every gradient written (missing:${missing:- none})" [ -z "$missing" ]
check "grad_A has the pattern of A" sh -c "[ \"\$(grep -v '^%' '$T/grads/grad_A.mtx' | head -1)\" = \"\$(grep -v '^%' '$T/col/A.mtx' | head -1)\" ]"

# lcp: the same derivative through the library's pivoting solver
vec 12 '1.0 + 0.1 * i' >"$T/dbl.mtx"
"$LCP" -s lemke --quiet "$T/lcol" --sensitivity "$T/dbl.mtx" --sensitivity-out "$T/dxl.mtx" 2>"$T/e"
rc=$?
check "lcp: --sensitivity runs (exit $rc)" [ $rc -eq 0 ]
"$LCP" -s lemke --quiet -A "$T/lcol/A.mtx" -b "$T/lcol/b.mtx" --sensitivity "$T/dbl.mtx" --sensitivity-out "$T/dxl2.mtx"
check "lcp: the same derivative from the folder and from -A -b" cmp -s "$T/dxl.mtx" "$T/dxl2.mtx"

# usage and input errors: exit 2, one line
"$LCP" --quiet "$T/col" --sensitivity "$T/db.mtx" 2>"$T/e"; rc=$?
check "--sensitivity without --sensitivity-out: exit 2, one line ($(cat "$T/e"))" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$T/e') -eq 1 ]"
vec 5 '1' >"$T/short.mtx"
"$LCP" --quiet "$T/col" --adjoint "$T/short.mtx" --adjoint-out "$T/g2" 2>"$T/e"; rc=$?
check "a gradient of the wrong length: exit 2, naming the file ($(cat "$T/e"))" sh -c "[ $rc -eq 2 ] && grep -q short.mtx '$T/e'"
"$LCP" --quiet --cone pyramid:4 "$T/col" --sensitivity "$T/db.mtx" --sensitivity-out "$T/d3.mtx" 2>"$T/e"; rc=$?
check "--sensitivity with --cone: exit 2 ($(cat "$T/e"))" [ $rc -eq 2 ]
"$LCP" generate pyramid --base 3 -o "$T/pyr" >/dev/null 2>&1
vec 36 '1' >"$T/ones.mtx"
"$LCP" -s pgs --quiet "$T/pyr" --sensitivity "$T/ones.mtx" --sensitivity-out "$T/d4.mtx" 2>"$T/e"; rc=$?
check "redundant contacts (singular Jacobian): exit 0, the minimum-norm derivative flagged in the file ($(grep -m1 minimum-norm "$T/d4.mtx"))" \
    sh -c "[ $rc -eq 0 ] && grep -q '^% .*minimum-norm.*null space [1-9]' '$T/d4.mtx'"
check "a regular Jacobian's derivative says unique" grep -q '^% .*unique' "$T/dx.mtx"
# a pyramid of 3,600 contacts (more free rows than a dense pseudo-inverse takes): the sparse one; its
# gradient of b against the derivative along db (the dot-product test)
"$LCP" generate pyramid --base 30 -o "$T/pyr30" >/dev/null 2>&1
vec 3600 'sin(0.7 * i + 1.0)' >"$T/g30.mtx"
vec 3600 'cos(0.3 * i)' >"$T/db30.mtx"
"$LCP" -s ipm -t 1e-10 --quiet "$T/pyr30" --adjoint "$T/g30.mtx" --adjoint-out "$T/gr30" \
    --sensitivity "$T/db30.mtx" --sensitivity-out "$T/dx30.mtx" 2>"$T/e"; rc=$?
check "a pyramid of 3,600 contacts: exit 0, minimum-norm with its null space ($(sed -n 2p "$T/dx30.mtx" 2>/dev/null)$(cat "$T/e"))" \
    sh -c "[ $rc -eq 0 ] && grep -q '^% .*minimum-norm.*null space [1-9][0-9]*' '$T/dx30.mtx'"
vals "$T/g30.mtx" >"$T/a1"; vals "$T/dx30.mtx" >"$T/a2"; vals "$T/db30.mtx" >"$T/a3"; vals "$T/gr30/grad_b.mtx" >"$T/a4"
check "the pyramid of 3,600: <g, dx> = <grad_b, db> to 1e-10" sh -c "paste '$T/a1' '$T/a2' '$T/a3' '$T/a4' | awk '
    { l += \$1 * \$2; r += \$3 * \$4; s += \$1 * \$1; t += \$2 * \$2 }
    END { d = l - r; if (d < 0) d = -d; exit !(d <= 1e-10 * sqrt(s * t) && t > 0) }'"
# the same flags in --json's "derivative"
"$LCP" -s pgs --quiet --json "$T/pyr" --sensitivity "$T/ones.mtx" --sensitivity-out "$T/d4.mtx" >"$T/j4.json" 2>"$T/e"
"$LCP" --quiet --json "$T/col" --sensitivity "$T/db.mtx" --sensitivity-out "$T/d5.mtx" >"$T/j5.json" 2>"$T/e"
"$LCP" --quiet --json "$T/col" >"$T/j6.json" 2>"$T/e"
check "--json: the singular Jacobian's derivative flagged minimum-norm with its null space" python3 -c "
import json, sys; d = json.load(open('$T/j4.json'))['derivative']
sys.exit(not (d['minimum_norm'] is True and d['null_space'] >= 1 and d['degenerate_rows'] >= 0))"
check "--json: a regular one not, and no \"derivative\" without --sensitivity or --adjoint" python3 -c "
import json, sys; d = json.load(open('$T/j5.json'))['derivative']
sys.exit(not (d['minimum_norm'] is False and d['null_space'] == 0 and 'derivative' not in json.load(open('$T/j6.json'))))"

# the largest relative difference of dx (file DX) from central differences
# of two solutions (files XP, XM) at +-1e-6
fdrel() {
    vals "$1" >"$T/xp"; vals "$2" >"$T/xm"; vals "$3" >"$T/dx"
    paste "$T/xp" "$T/xm" "$T/dx" | awk '{ fd = ($1 - $2) / 2e-6; e = fd - $3; if (e < 0) e = -e; if (e > m) m = e;
        a = $3 < 0 ? -$3 : $3; if (a > s) s = a } END { printf "%.3g", (s > 0 ? m / s : 1) }'
}
# FILE moved by H times DFILE (Matrix Market arrays of the same length)
moved() {
    vals "$1" >"$T/mv1"; vals "$2" >"$T/mv2"
    echo "%%MatrixMarket matrix array real general"; wc -l <"$T/mv1" | awk '{ print $1, 1 }'
    paste -d' ' "$T/mv1" "$T/mv2" | awk -v h="$3" '{ printf "%.17g\n", $1 + h * $2 }'
}

# ---- a direction file: the bounds of a blcp (the lcp column, bounded) ----
# central differences of x along (db, dlo, dhi) from two solves with the
# data moved; <g, dx> = <grad_b, db> + <grad_lo, dlo> + <grad_hi, dhi>
m=12
vec $m '0' >"$T/lo.mtx"
vec $m '0.3 + 0.05 * i' >"$T/hi.mtx"
vec $m '0.05 * (i + 1)' >"$T/dbb.mtx"
vec $m '0.1 * cos(i)' >"$T/dlo.mtx"
vec $m '0.2 * sin(i + 1.0)' >"$T/dhi.mtx"
vec $m 'cos(2.0 * i + 0.5)' >"$T/gb.mtx"
printf '{"b": "dbb.mtx", "lo": "dlo.mtx", "hi": "dhi.mtx"}\n' >"$T/dir.json"
blcp() { "$LCP" -s pivot -t 1e-13 --quiet --kind blcp -A "$T/lcol/A.mtx" "$@"; }
blcp -b "$T/lcol/b.mtx" --lo "$T/lo.mtx" --hi "$T/hi.mtx" --sensitivity "$T/dir.json" --sensitivity-out "$T/dxb.mtx" \
    --adjoint "$T/gb.mtx" --adjoint-out "$T/gradsb" 2>"$T/e"
rc=$?
check "blcp: --sensitivity with a direction file and --adjoint run (exit $rc $(cat "$T/e"))" [ $rc -eq 0 ]
for s in p m; do
    h=$([ $s = p ] && echo 1e-6 || echo -1e-6)
    moved "$T/lcol/b.mtx" "$T/dbb.mtx" $h >"$T/b$s.mtx"
    moved "$T/lo.mtx" "$T/dlo.mtx" $h >"$T/lo$s.mtx"
    moved "$T/hi.mtx" "$T/dhi.mtx" $h >"$T/hi$s.mtx"
    blcp -b "$T/b$s.mtx" --lo "$T/lo$s.mtx" --hi "$T/hi$s.mtx" -o "$T/xb$s.mtx"
done
rel=$(fdrel "$T/xbp.mtx" "$T/xbm.mtx" "$T/dxb.mtx")
check "blcp: dx along (db, dlo, dhi) agrees with central differences (relative $rel <= 1e-6)" \
    awk -v r="$rel" 'BEGIN { exit !(r <= 1e-6) }'
vals "$T/gb.mtx" >"$T/g"; vals "$T/dxb.mtx" >"$T/dx"
for f in grad_b grad_lo grad_hi; do vals "$T/gradsb/$f.mtx" >"$T/$f"; done
vals "$T/dbb.mtx" >"$T/v1"; vals "$T/dlo.mtx" >"$T/v2"; vals "$T/dhi.mtx" >"$T/v3"
lhs=$(paste "$T/g" "$T/dx" | awk '{ s += $1 * $2 } END { printf "%.17g", s }')
rhs=$(paste "$T/grad_b" "$T/v1" "$T/grad_lo" "$T/v2" "$T/grad_hi" "$T/v3" |
      awk '{ s += $1 * $2 + $3 * $4 + $5 * $6 } END { printf "%.17g", s }')
check "blcp: <g, dx> = <grad_b, db> + <grad_lo, dlo> + <grad_hi, dhi> to 1e-10 ($lhs, $rhs)" \
    awk -v a="$lhs" -v b="$rhs" 'BEGIN { d = a - b; if (d < 0) d = -d; s = a < 0 ? -a : a; exit !(d <= 1e-10 * (s + 1e-300)) }'
check "blcp: the rows held at hi have a gradient of hi" awk '$1 != 0 { n++ } END { exit !(n > 0) }' "$T/grad_hi"

# ---- a direction file: A (on A's pattern) and mu (inline) of an fc3d ----
grep '^%' "$T/col/A.mtx" >"$T/dA.mtx"
grep -v '^%' "$T/col/A.mtx" | awk 'NR == 1 { print; next } { printf "%d %d %.17g\n", $1, $2, 0.1 * $3 * cos(NR) }' >>"$T/dA.mtx"
dmu=$(awk 'BEGIN { printf "["; for (c = 0; c < 12; c++) printf "%s%.3f", (c ? ", " : ""), 0.05 * sin(c + 2.0); printf "]" }')
printf '{"A": "dA.mtx", "mu": %s}\n' "$dmu" >"$T/dirA.json"
echo "$dmu" | tr -d '[] ' | tr ',' '\n' | awk 'BEGIN { print "%%MatrixMarket matrix array real general"; print 12, 1 } { print }' >"$T/dmu.mtx"
"$LCP" -s nsn -t 1e-13 --quiet "$T/col" --sensitivity "$T/dirA.json" --sensitivity-out "$T/dxA.mtx" 2>"$T/e"
rc=$?
check "fc3d: --sensitivity along dA and dmu runs (exit $rc $(cat "$T/e"))" [ $rc -eq 0 ]
grep -v '^%' "$T/col/A.mtx" >"$T/a0"; grep -v '^%' "$T/dA.mtx" >"$T/da0"
for s in p m; do
    h=$([ $s = p ] && echo 1e-6 || echo -1e-6)
    { grep '^%' "$T/col/A.mtx"; paste -d' ' "$T/a0" "$T/da0" |
      awk -v h="$h" 'NR == 1 { print $1, $2, $3; next } { printf "%d %d %.17g\n", $1, $2, $3 + h * $6 }'; } >"$T/A$s.mtx"
    moved "$T/col/mu.mtx" "$T/dmu.mtx" $h >"$T/mu$s.mtx"
    "$LCP" -s nsn -t 1e-13 --quiet -A "$T/A$s.mtx" -b "$T/col/b.mtx" --mu "$T/mu$s.mtx" --kind fc3d -o "$T/xA$s.mtx"
done
rel=$(fdrel "$T/xAp.mtx" "$T/xAm.mtx" "$T/dxA.mtx")
check "fc3d: dx along (dA, dmu) agrees with central differences (relative $rel <= 1e-6)" \
    awk -v r="$rel" 'BEGIN { exit !(r <= 1e-6) }'

# ---- a direction file of the factored form: v (the free velocities) ----
# <g, dx> = <grad_v, dv> with the gradients of the same run's --adjoint
nv=$(grep -v '^%' "$T/col/v.mtx" | head -1 | awk '{ print $1 }')
vec "$nv" '0.3 * cos(1.7 * i)' >"$T/dv.mtx"
printf '{"v": "dv.mtx", "mu": "dmu.mtx"}' >"$T/dirv.json"
"$LCP" -s nsn -t 1e-13 --quiet "$T/col" --sensitivity "$T/dirv.json" --sensitivity-out "$T/dxv.mtx" \
    --adjoint "$T/g.mtx" --adjoint-out "$T/gradsv" 2>"$T/e"
rc=$?
check "factored: --sensitivity along dv and dmu runs (exit $rc $(cat "$T/e"))" [ $rc -eq 0 ]
vals "$T/g.mtx" >"$T/g"; vals "$T/dxv.mtx" >"$T/dx"; vals "$T/gradsv/grad_v.mtx" >"$T/gv"; vals "$T/dv.mtx" >"$T/dvv"
vals "$T/gradsv/grad_mu.mtx" >"$T/gmu"; vals "$T/dmu.mtx" >"$T/dmuv"
lhs=$(paste "$T/g" "$T/dx" | awk '{ s += $1 * $2 } END { printf "%.17g", s }')
rhs=$( { paste "$T/gv" "$T/dvv"; paste "$T/gmu" "$T/dmuv"; } | awk '{ s += $1 * $2 } END { printf "%.17g", s }')
check "factored: <g, dx> = <grad_v, dv> + <grad_mu, dmu> to 1e-10 ($lhs, $rhs)" \
    awk -v a="$lhs" -v b="$rhs" 'BEGIN { d = a - b; if (d < 0) d = -d; s = a < 0 ? -a : a; exit !(d <= 1e-10 * (s + 1e-300)) }'
printf '{"b": "db.mtx", "v": "dv.mtx"}' >"$T/d6.json"

# direction files at fault: exit 2, one line naming the file
printf '%%%%MatrixMarket matrix coordinate real general\n36 36 1\n1 36 1.0\n' >"$T/dAout.mtx"
printf '{"A": "dAout.mtx"}' >"$T/d1.json"; printf '{"b": "db.mtx", "q": [1]}' >"$T/d2.json"
printf '{"lo": "db.mtx"}' >"$T/d3.json"; printf '{"b": "db.mtx",\n' >"$T/d4.json"
printf '{"b": [1, 2]}' >"$T/d5.json"
for j in d1 d2 d3 d4 d5 d6; do
    "$LCP" --quiet "$T/col" --sensitivity "$T/$j.json" --sensitivity-out "$T/o.mtx" 2>"$T/e"; rc=$?
    want=$([ $j = d1 ] && echo dAout.mtx || echo $j.json)
    check "direction file $j refused: exit 2, one line naming $want ($(cat "$T/e"))" \
        sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$T/e') -eq 1 ] && grep -q '$want' '$T/e'"
done
finish
