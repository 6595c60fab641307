#!/bin/sh
# tests/e2e/accelerated.sh: the accelerated gradient solvers mprgp, apgd and
# bb end to end.  Each one on column chains (N = 20, 200, 1000), a column
# with --mass-ratio 100, a random SPD lcp, box LCPs with finite bounds (a
# hand-written JSON one, and column 200 with an upper bound that binds),
# each reaching 1e-8, agreeing with the answer of ipm (lcp) or pivot (blcp)
# solved to 1e-12 (--reference), and passing the independent residual
# checker (tests/check_residual.py for lcp, a few lines of Python here for
# blcp and ccp); the pyramid (A singular: x is not unique, so residuals and
# w = A x + b -- the same at every minimiser of the convex QP -- are
# compared, not x); apgd on the ccp pyramid against nsgs; mprgp with every
# preconditioner its --list-solvers line names (the ones this build lacks
# are skipped: -p answers "unknown preconditioner"); the trace columns; and
# the refusals and verdicts: non-symmetric A, findex rows, fc3d for apgd,
# ccp for mprgp and bb (exit 2, one line), an lcp without solution for
# mprgp (exit 3), a warm start at the answer (0 iterations).
# Run from the repository root: sh tests/e2e/accelerated.sh.
. tests/lib.sh
SOLVERS="mprgp apgd bb"
field() { python3 -c "import json,sys; v=json.load(open(sys.argv[2])).get(sys.argv[1]); print('' if v is None else v)" "$1" "$2"; }
# vdiff A.mtx B.mtx TOL: max |a - b| <= TOL max(1, |b|_inf) for two Matrix Market arrays
vdiff() {
    python3 -c "
import sys
def r(p):
    v = [l for l in open(p) if l.strip() and l[0] != '%']
    return [float(t) for l in v[1:] for t in l.split()]
a, b = r(sys.argv[1]), r(sys.argv[2])
sys.exit(0 if len(a) == len(b) and max(abs(u - v) for u, v in zip(a, b)) <= float(sys.argv[3]) * max(1, max(map(abs, b))) else 1)" "$@"
}
le() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)" "$1" "$2"; }

for s in $SOLVERS; do
    if "$LCP" --list-solvers | grep -q "^$s "; then ok "$s listed"; else bad "$s is not in --list-solvers"; fi
done

# --- problems
for nb in 20 200 1000; do "$LCP" generate column --bodies $nb -o "$T/col$nb" >/dev/null 2>&1; done
"$LCP" generate column --bodies 200 --mass-ratio 100 -o "$T/ratio" >/dev/null 2>&1
"$LCP" generate random-spd --size 300 -o "$T/rspd" >/dev/null 2>&1
"$LCP" generate pyramid --base 5 -o "$T/pyr" >/dev/null 2>&1
"$LCP" generate pyramid --base 5 --mu 0.5 --kind ccp -o "$T/ccp" >/dev/null 2>&1
"$LCP" generate pyramid --base 5 --mu 0.5 -o "$T/fc3d" >/dev/null 2>&1
cat >"$T/box.json" <<'J'
{"kind": "blcp",
 "A": [[3.4, -0.7, 0.7, 0.5, 0.2],
      [-0.7, 2.9, -0.5, 0, 0.3],
      [0.7, -0.5, 1.9, -0.1, 0],
      [0.5, 0, -0.1, 1.1, 0.2],
      [0.2, 0.3, 0, 0.2, 2.0]],
 "b": [-3, 2.5, -1, 4, 0.5],
 "lo": [-1, -1, 0, -2, 0.3],
 "hi": [1, 0.5, 1, 2, 0.3]}
J
# column 200 with x <= 70% of its largest unbounded impulse: the bottom binds
python3 - "$T/col200" "$T/cbox" <<'P'
import os, shutil, sys
src, d = sys.argv[1], sys.argv[2]
os.makedirs(d, exist_ok=True)
for f in ('A.mtx', 'b.mtx'):
    shutil.copy(os.path.join(src, f), os.path.join(d, f))
n = int([l for l in open(os.path.join(src, 'b.mtx')) if not l.startswith('%')][0].split()[0])
def put(name, vals):
    with open(os.path.join(d, name), 'w') as f:
        f.write('%%%%MatrixMarket matrix array real general\n%d 1\n' % len(vals))
        f.write(''.join('%.17g\n' % v for v in vals))
put('lo.mtx', [0.0] * n)
put('hi.mtx', [0.7 * 9.81 * 0.01 * n] * n)   # 70% of the weight of the column, times dt
P
CBOX="-A $T/cbox/A.mtx -b $T/cbox/b.mtx --lo $T/cbox/lo.mtx --hi $T/cbox/hi.mtx --kind blcp"

# blcp_ok DIR_OR_JSON X.mtx MAX: the natural-map residual of a blcp, recomputed here
blcp_ok() {
    python3 - "$@" <<'P'
import json, math, os, sys
def mtx(path):
    with open(path) as f:
        head = f.readline().split()
        rows = [l for l in f if l.strip() and not l.startswith('%')]
    m, n = int(rows[0].split()[0]), int(rows[0].split()[1])
    if head[2] == 'coordinate':
        A = {}
        for l in rows[1:]:
            i, j, v = l.split()
            A[(int(i) - 1, int(j) - 1)] = A.get((int(i) - 1, int(j) - 1), 0) + float(v)
            if head[4] == 'symmetric' and i != j:
                A[(int(j) - 1, int(i) - 1)] = A.get((int(j) - 1, int(i) - 1), 0) + float(v)
        return [[A.get((i, j), 0.0) for j in range(n)] for i in range(m)]
    return [float(v) for l in rows[1:] for v in l.split()]
src, xs, mx = sys.argv[1], sys.argv[2], float(sys.argv[3])
fl = lambda v: float(v) if not isinstance(v, str) else float(v.replace('inf', 'Infinity'))
if src.endswith('.json'):
    P = json.load(open(src))
    A, b = P['A'], P['b']
    lo, hi = [fl(v) for v in P['lo']], [fl(v) for v in P['hi']]
else:
    A, b = mtx(os.path.join(src, 'A.mtx')), mtx(os.path.join(src, 'b.mtx'))
    lo, hi = mtx(os.path.join(src, 'lo.mtx')), mtx(os.path.join(src, 'hi.mtx'))
x = mtx(xs)
n = len(b)
w = [b[i] + sum(A[i][j] * x[j] for j in range(n) if A[i][j]) for i in range(n)]
res = max(abs(x[i] - min(max(x[i] - w[i], lo[i]), hi[i])) for i in range(n)) / max(1.0, max(abs(v) for v in b))
sys.exit(0 if res <= mx else 1)
P
}

# run_ok NAME ARGS...: exit 0, residual <= 1e-8; leaves $T/out (json), $T/x.mtx, $T/w.mtx
run_ok() {
    name=$1; shift
    "$LCP" -t 1e-8 -n 500000 --json -o "$T/x.mtx" --output-w "$T/w.mtx" "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 0 ] && le "$(json_field residual)" 1e-8; then
        ok "$name ($(json_field iterations) iterations)"; return 0
    fi
    bad "$name: exit $rc: $(json_field status) $(json_field message) $(head -c 200 "$T/err")"; return 1
}

# reference REF ARGS...: REF's answer to 1e-12 in $T/ref.mtx
reference() {
    r=$1; shift
    "$LCP" -s "$r" -t 1e-12 -n 10000000 --quiet -o "$T/ref.mtx" --output-w "$T/refw.mtx" "$@" 2>"$T/err" ||
        { bad "reference $r fails: $(head -c 200 "$T/err")"; return 1; }
}

# --- lcp with a unique answer: agree with ipm; independent residual.  At
# residual 1e-8 a gradient method's x is as far from the answer as the
# conditioning makes it (column 1000: |x - x*| ~ 4e-5 |x*|), hence 1e-4 here
# and the tighter check at tol 1e-11 below
for p in col20 col200 col1000 ratio rspd; do
    reference ipm "$T/$p" || continue
    for s in $SOLVERS; do
        if run_ok "$s $p" -s $s --reference "$T/ref.mtx" --ref-tol 1e-4 "$T/$p"; then
            check "$s $p: independent residual <= 1e-8" indep "$T/$p/A.mtx" "$T/$p/b.mtx" "$T/x.mtx" --max 1e-8
        fi
    done
done
# agreement to 1e-7 (tighter than the 1e-5 above) where the conditioning allows it
reference ipm "$T/col200"
for s in $SOLVERS; do
    "$LCP" -s $s -t 1e-11 -n 500000 --quiet --reference "$T/ref.mtx" --ref-tol 1e-7 "$T/col200"; rc=$?
    check "$s column 200 at tol 1e-11 = ipm to 1e-7 (exit $rc)" [ $rc -eq 0 ]
done

# --- pyramid: A singular; compare residuals and w (unique for the convex QP), not x
reference ipm "$T/pyr"
for s in $SOLVERS; do
    if run_ok "$s pyramid (singular A)" -s $s "$T/pyr"; then
        check "$s pyramid: independent residual" indep "$T/pyr/A.mtx" "$T/pyr/b.mtx" "$T/x.mtx" --max 1e-8
        check "$s pyramid: w = ipm's w to 1e-6" vdiff "$T/w.mtx" "$T/refw.mtx" 1e-6
    fi
done

# --- box LCPs: agree with pivot
for c in box cbox; do
    # (the column's conditioning: 1e-4 at residual 1e-8, as for the lcp above)
    if [ $c = box ]; then args="$T/box.json"; src="$T/box.json"; rtol=1e-6; else args=$CBOX; src="$T/cbox"; rtol=1e-4; fi
    # shellcheck disable=SC2086
    reference pivot $args || continue
    for s in mprgp bb apgd; do
        # shellcheck disable=SC2086
        if run_ok "$s blcp $c" -s $s --reference "$T/ref.mtx" --ref-tol "$rtol" $args; then
            check "$s blcp $c: independent residual <= 1e-8" blcp_ok "$src" "$T/x.mtx" 1e-8
            [ $c = cbox ] && check "$s blcp $c: the upper bound binds" python3 -c "
import sys
x = [float(l) for l in [l for l in open(sys.argv[1]) if l.strip() and l[0] != '%'][1:]]
sys.exit(0 if abs(x[0] - 0.7 * 9.81 * 0.01 * 200) < 1e-12 else 1)" "$T/x.mtx"
        fi
    done
done

# --- ccp: apgd against nsgs; an independent ccp residual
if run_ok "apgd ccp pyramid" -s apgd "$T/ccp"; then
    cp "$T/x.mtx" "$T/xa.mtx"; cp "$T/w.mtx" "$T/wa.mtx"
    check "apgd ccp: independent natural-map residual <= 1e-8" python3 - "$T/ccp" "$T/xa.mtx" <<'P'
import math, os, sys
def rows(p):
    with open(p) as f:
        head = f.readline().split(); r = [l.split() for l in f if l.strip() and not l.startswith('%')]
    return head, r
d = sys.argv[1]
head, r = rows(os.path.join(d, 'A.mtx'))
n = int(r[0][0]); A = [dict() for _ in range(n)]
for i, j, v in r[1:]:
    i, j, v = int(i) - 1, int(j) - 1, float(v)
    A[i][j] = A[i].get(j, 0) + v
    if head[4] == 'symmetric' and i != j: A[j][i] = A[j].get(i, 0) + v
vec = lambda p: [float(t[0]) for t in rows(p)[1][1:]]
q, x, mu = vec(os.path.join(d, 'b.mtx')), vec(sys.argv[2]), vec(os.path.join(d, 'mu.mtx'))
u = [q[i] + sum(v * x[j] for j, v in A[i].items()) for i in range(n)]
def proj(m, z):
    rn, nt = z[0], math.sqrt(z[1] ** 2 + z[2] ** 2)
    if rn >= 0 and nt <= m * rn: return z
    if m * nt <= -rn: return [0.0, 0.0, 0.0]
    pn = (rn + m * nt) / (1 + m * m); s = m * pn / nt if nt > 0 else 0
    return [pn, z[1] * s, z[2] * s]
e = 0.0
for c in range(n // 3):
    rc, uc = x[3*c:3*c+3], u[3*c:3*c+3]
    pz = proj(mu[c], [rc[k] - uc[k] for k in range(3)])
    e += sum((rc[k] - pz[k]) ** 2 for k in range(3))
nrm = max(math.sqrt(sum(v * v for v in q)), math.sqrt(sum(v * v for v in x)), math.sqrt(sum(v * v for v in u)))
sys.exit(0 if math.sqrt(e) / nrm <= 1e-8 else 1)
P
    if run_ok "nsgs ccp pyramid (the peer answer)" -s nsgs "$T/ccp"; then
        check "apgd ccp: u = nsgs's u to 1e-6 (u is unique: W singular, r is not)" vdiff "$T/wa.mtx" "$T/w.mtx" 1e-6
    fi
fi
run_ok "apgd -p diag ccp pyramid (per-contact scaling)" -s apgd -p diag "$T/ccp"

# --- preconditioners: every one mprgp lists; those this build lacks are skipped
reference ipm "$T/ratio"
for pc in $("$LCP" --list-solvers | awk '$1 == "mprgp" { print $4 }' | tr , ' '); do
    for p in ratio pyr; do
        "$LCP" -s mprgp -p "$pc" -t 1e-8 -n 500000 --json -o "$T/x.mtx" "$T/$p" >"$T/out" 2>"$T/err"; rc=$?
        if grep -q "unknown preconditioner" "$T/err"; then skip "mprgp -p $pc: not in this build"; break; fi
        if [ $rc -eq 0 ] && indep "$T/$p/A.mtx" "$T/$p/b.mtx" "$T/x.mtx" --max 1e-8; then
            ok "mprgp -p $pc $p ($(json_field iterations) iterations)"
        else
            bad "mprgp -p $pc $p: exit $rc $(json_field message) $(head -c 200 "$T/err")"
        fi
        [ $p = ratio ] && check "mprgp -p $pc ratio = ipm to 1e-4" vdiff "$T/x.mtx" "$T/ref.mtx" 1e-4
    done
done
for s in apgd bb; do run_ok "$s -p diag column 1000" -s $s -p diag "$T/col1000"; done

# --- trace columns
for s in $SOLVERS; do
    "$LCP" -s $s --quiet --trace "$T/$s.csv" "$T/col20"
    case $s in
    mprgp) cols="step,free,matvecs" ;;
    apgd) cols="L,restarts,matvecs" ;;
    bb) cols="lambda,alpha,matvecs" ;;
    esac
    check "$s trace header" [ "$(head -n 1 "$T/$s.csv")" = "iter,time_s,residual,complementarity,feasibility,$cols" ]
    check "$s trace row 0" grep -q '^0,' "$T/$s.csv"
    check "$s trace: matvecs grow" awk -F, 'NR > 2 && $8 <= prev { exit 1 } { prev = $8 }' "$T/$s.csv"
done
check "mprgp trace: CG steps taken" awk -F, '$6 == 1 { f = 1 } END { exit !f }' "$T/mprgp.csv"

# --- refusals (exit 2, one line) and verdicts
refuse() { # refuse NAME PATTERN ARGS...
    name=$1; pat=$2; shift 2
    "$LCP" "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "$pat" "$T/err"; then ok "$name refused (exit 2)"
    else bad "$name: exit $rc, $(head -c 300 "$T/err")"; fi
}
echo '{"kind": "lcp", "A": [[2, 1], [0, 2]], "b": [-1, -1]}' >"$T/nonsym.json"
cat >"$T/findex.json" <<'J'
{"kind": "blcp", "A": [[4, 0.5, 0.5], [0.5, 3, 0.2], [0.5, 0.2, 3]], "b": [-2, 0.5, 0.5],
 "lo": [0, 0, 0], "hi": ["inf", 0, 0], "findex": [-1, 0, 0], "mu": [0, 0.5, 0.5]}
J
for s in $SOLVERS; do
    refuse "$s non-symmetric A" "symmetric" -s $s "$T/nonsym.json"
    refuse "$s findex" "findex" -s $s "$T/findex.json"
done
refuse "apgd fc3d" "does not solve fc3d" -s apgd "$T/fc3d"
refuse "mprgp ccp" "does not solve ccp" -s mprgp "$T/ccp"
refuse "bb ccp" "does not solve ccp" -s bb "$T/ccp"
refuse "bb -p mg" "does not take\|unknown preconditioner" -s bb -p mg "$T/col20"
echo '{"kind": "lcp", "A": [[1, 0], [0, 0]], "b": [-1, -1]}' >"$T/nosol.json"
"$LCP" -s mprgp --json "$T/nosol.json" >"$T/out" 2>"$T/err"; rc=$?
check "mprgp: lcp without solution: exit 3 (got $rc)" [ $rc -eq 3 ]
check "mprgp: no_solution names the ray" grep -q 'unbounded below' "$T/out"
# a negative diagonal entry proves A indefinite: refused before the solve
# (exit 2, naming the row); positive diagonal but indefinite: negative
# curvature found during the solve (exit 5)
echo '{"kind": "lcp", "A": [[2, 0], [0, -1]], "b": [-1, -1]}' >"$T/negdiag.json"
echo '{"kind": "lcp", "A": [[1, 3], [3, 1]], "b": [-1, -2]}' >"$T/indef.json"
for s in $SOLVERS; do
    "$LCP" -s $s -n 1000 --json "$T/negdiag.json" >"$T/out" 2>"$T/err"; rc=$?
    check "$s negative diagonal: refused, exit 2 (got $rc)" [ $rc -eq 2 ]
    check "$s negative diagonal: names A(2,2)" grep -q 'positive semidefinite, but A(2,2) = -1' "$T/err"
    "$LCP" -s $s -n 1000 --json "$T/indef.json" >"$T/out" 2>"$T/err"; rc=$?
    check "$s negative curvature: error, exit 5 (got $rc)" [ $rc -eq 5 ]
    check "$s negative curvature: says A is not positive semidefinite" grep -q 'not positive semidefinite' "$T/out"
done
# ... but not a rounding-level one: with a mass ratio of 1e6 the steps end
# tiny against x and A d (a difference of products) is rounding there
"$LCP" generate mass-ratio --bodies 6 --ratio 1e6 -o "$T/mr6" >/dev/null 2>&1
for s in $SOLVERS; do
    "$LCP" -s $s -t 1e-8 --json -o "$T/xmr.mtx" "$T/mr6" >"$T/out" 2>"$T/err"; rc=$?
    check "$s mass ratio 1e6: solved, not a false indefinite (got $rc)" [ $rc -eq 0 ]
    check "$s mass ratio 1e6: independent residual" indep "$T/mr6/A.mtx" "$T/mr6/b.mtx" "$T/xmr.mtx" --max 1e-8
done
for s in $SOLVERS; do
    "$LCP" -s $s -t 1e-12 --quiet -o "$T/xs.mtx" "$T/rspd"
    "$LCP" -s $s -t 1e-10 --json --warm-start "$T/xs.mtx" "$T/rspd" >"$T/out" 2>"$T/err"
    check "$s warm start at the answer: 0 iterations" [ "$(json_field iterations)" = 0 ]
done

finish
