#!/bin/sh
# tests/e2e/sensitivity.sh: --sensitivity DB.mtx --sensitivity-out DX.mtx and
# --adjoint G.mtx --adjoint-out DIR (the derivatives of the solution,
# src/diff/): the derivative against central differences of two more solves
# of the command, the adjoint's gradient of b against the derivative (the
# dot-product test), the factored form's gradients written, and the usage
# and input errors (exit 2, one line) and a singular Jacobian (exit 5).
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
check "redundant contacts (singular Jacobian): exit 5, saying so ($(cat "$T/e"))" sh -c "[ $rc -eq 5 ] && grep -q singular '$T/e' && [ ! -e '$T/d4.mtx' ]"
finish
