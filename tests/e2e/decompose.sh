#!/bin/sh
# tests/e2e/decompose.sh: --decompose solves each connected component of
# the contact graph on its own: on by default where there are several
# (and no --trace), the answer is solved to tol on the whole problem (the
# independent checker agrees), -j 2 gives the same bits as -j 1, the
# components are reported (--json components, the summary), every solver
# kind goes through it (pgs, lemke, ipm, pivot on blcp, nsgs on fc3d and
# ccp), one component's failure is reported naming it, --decompose on
# with --trace is refused, and a time limit the largest component uses up
# still leaves the small ones solved.  Run from the repository root.
. tests/lib.sh
SIC=$SICONOS_DATA/fc3d
"$LCP" generate pyramid --base 4 --piles 3 -o "$T/pyr" 2>/dev/null
"$LCP" generate column --bodies 12 --piles 4 --mass-ratio 10 -o "$T/col" 2>/dev/null
"$LCP" generate pyramid --base 4 --piles 3 --mu 0.5 -o "$T/pyrf" 2>/dev/null
"$LCP" generate granular --base 4 --layers 2 --piles 2 --mu 0.3 --kind ccp -o "$T/gran" 2>/dev/null

"$LCP" info --json "$T/pyr" >"$T/out"
check "--piles 3: 3 components" python3 -c "import json; exit(0 if json.load(open('$T/out'))['graph']['components'] == 3 else 1)"

for s in pgs psor lemke ipm newton-fb; do
    for prob in "$T/pyr" "$T/col"; do
        "$LCP" --decompose on -s $s --json -o "$T/x1.mtx" "$prob" >"$T/out"; rc=$?
        check "$s $(basename $prob) decomposed: solved" [ $rc -eq 0 ]
        check "$s $(basename $prob): components in --json" [ "$(json_field components)" -gt 1 ]
        check "$s $(basename $prob): independent residual" indep "$prob/A.mtx" "$prob/b.mtx" "$T/x1.mtx" --max 1e-8
        "$LCP" --decompose on -s $s -j 2 -o "$T/x2.mtx" --quiet "$prob"
        check "$s $(basename $prob): -j 2 = -j 1" cmp -s "$T/x1.mtx" "$T/x2.mtx"
    done
done
# the column's components are positive definite: decomposed = whole answer
"$LCP" -s lemke -t 1e-12 --decompose off -o "$T/ref.mtx" --quiet "$T/col"
"$LCP" --decompose on -s pgs -t 1e-10 --reference "$T/ref.mtx" --ref-tol 1e-7 --quiet "$T/col"
check "column: decomposed pgs = whole lemke" [ $? -eq 0 ]
"$LCP" -s pgs --decompose off --json "$T/col" >"$T/out"
check "--decompose off: one component" [ "$(json_field components)" = 1 ]
"$LCP" --decompose on -s pgs "$T/col" >"$T/out"
check "summary says components solved apart" grep -q "4 components solved apart" "$T/out"
"$LCP" -s pgs --trace "$T/t.csv" --json "$T/col" >"$T/out"
check "--trace: the whole problem (auto is off)" [ "$(json_field components)" = 1 ]
"$LCP" -s pgs --trace "$T/t.csv" --decompose on "$T/col" >/dev/null 2>"$T/err"; rc=$?
check "--decompose on --trace: exit 2" [ $rc -eq 2 ]
"$LCP" -s pgs --decompose maybe "$T/col" >/dev/null 2>"$T/err"; rc=$?
check "--decompose maybe: exit 2" [ $rc -eq 2 ]

# auto: small problems (n < 200) are solved whole, larger ones apart
"$LCP" -s pgs --json "$T/col" >"$T/out"
check "auto: 48 unknowns solved whole" [ "$(json_field components)" = 1 ]
"$LCP" generate column --bodies 60 --piles 4 -o "$T/col240" 2>/dev/null
"$LCP" -s pgs --json "$T/col240" >"$T/out"
check "auto: 240 unknowns in 4 piles solved apart" [ "$(json_field components)" = 4 ]

# friction, fc3d and ccp: the whole residual within tol
for prob in "$T/pyrf" "$T/gran"; do
    "$LCP" --decompose on -s nsgs -t 1e-8 --json -o "$T/x1.mtx" "$prob" >"$T/out"; rc=$?
    check "nsgs $(basename $prob) decomposed: solved" sh -c "[ $rc -eq 0 ] && [ \"\$(python3 -c \"import json; d=json.load(open('$T/out')); print(d['components'] > 1 and d['residual'] <= 1e-8)\")\" = True ]"
    "$LCP" --decompose on -s nsgs -t 1e-8 -j 2 -o "$T/x2.mtx" --quiet "$prob"
    check "nsgs $(basename $prob): -j 2 = -j 1" cmp -s "$T/x1.mtx" "$T/x2.mtx"
done
if [ -f "$SIC/Capsules-i122-1617.dat" ]; then
    "$LCP" --decompose on -s nsgs -t 1e-8 --json "$SIC/Capsules-i122-1617.dat" >"$T/out"; rc=$?
    check "Capsules (33 components): solved to 1e-8" sh -c "[ $rc -eq 0 ] && [ \"\$(python3 -c \"import json; d=json.load(open('$T/out')); print(d['components'], d['residual'] <= 1e-8)\")\" = '33 True' ]"
else skip "Capsules: $SICONOS_DATA missing"; fi

# blcp with findex links: pivot and pgs on three separate contact groups
python3 - "$T/pyrf" "$T/blcp" <<'PY'
import os, sys
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
def vec(f): return [float(l) for l in [l for l in open(f) if not l.startswith('%')][1:]]
b = vec(os.path.join(src, 'b.mtx')); mu = vec(os.path.join(src, 'mu.mtx')); n = len(b)
def wv(name, v):
    with open(os.path.join(dst, name), 'w') as f:
        f.write('%%MatrixMarket matrix array real general\n')
        f.write('%d 1\n' % len(v))
        f.writelines('%.17g\n' % x for x in v)
lo = []; hi = []; fi = []; m = []
for i in range(n):
    c, a = divmod(i, 3)
    lo.append(0 if a == 0 else -1e300); hi.append(1e300); fi.append(-1 if a == 0 else 3 * c); m.append(mu[c])
wv('b.mtx', b); wv('lo.mtx', lo); wv('hi.mtx', hi); wv('findex.mtx', fi); wv('mu.mtx', m)
os.symlink(os.path.abspath(os.path.join(src, 'A.mtx')), os.path.join(dst, 'A.mtx'))
PY
for s in pgs pivot; do
    "$LCP" --decompose on -s $s --kind blcp -t 1e-8 --json "$T/blcp" >"$T/out"; rc=$?
    check "$s blcp with findex decomposed: solved" [ $rc -eq 0 ]
    check "$s blcp with findex: 3 components" [ "$(json_field components)" = 3 ]
done

# a component that fails is named: an iteration limit no component reaches
"$LCP" --decompose on -s pgs -n 3 --json "$T/col" >"$T/out"; rc=$?
check "limit: exit 1" [ $rc -eq 1 ]
check "limit: the message names a component" sh -c "json_field() { python3 -c \"import json; print(json.load(open('$T/out')).get('message', ''))\"; }; json_field | grep -q 'component [0-9]* of 4'"
# --time-limit spent by a large component leaves the small ones their
# step: a column of 3,000 spheres pgs cannot finish in 0.3 s, beside a
# single contact (A = 1, b = -1: x = 1), is cut by the limit with the
# single contact solved (it was last, given no time, and its start's
# residual, 1, stood for the whole answer)
"$LCP" generate column --bodies 3000 -o "$T/long" 2>/dev/null
mkdir -p "$T/longplus"
python3 - "$T/long" "$T/longplus" <<'PY'
import sys
src, dst = sys.argv[1], sys.argv[2]
L = [l for l in open(src + "/A.mtx").read().splitlines() if not l.startswith("%")]
n, _, nz = map(int, L[0].split())
with open(dst + "/A.mtx", "w") as f:
    f.write("%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n" % (n + 1, n + 1, nz + 1))
    f.write("\n".join(L[1:]) + "\n%d %d 1\n" % (n + 1, n + 1))
B = [l for l in open(src + "/b.mtx").read().splitlines() if not l.startswith("%")]
with open(dst + "/b.mtx", "w") as f:
    f.write("%%%%MatrixMarket matrix array real general\n%d 1\n" % (n + 1))
    f.write("\n".join(B[1:]) + "\n-1\n")
PY
"$LCP" -s pgs -t 1e-12 --time-limit 0.3 --decompose on --json -o "$T/xl.mtx" "$T/longplus" >"$T/out"; rc=$?
check "time limit, components: exit 1, time_limit" [ $rc -eq 1 -a "$(json_field status)" = time_limit ]
check "time limit, components: the single contact solved ($(tail -1 "$T/xl.mtx"))" python3 -c "
import sys; v = float(open('$T/xl.mtx').read().split()[-1]); sys.exit(0 if abs(v - 1) < 1e-12 else 1)"
check "time limit, components: the residual is the column's, below 0.5 ($(json_field residual))" python3 -c "
import json, sys; sys.exit(0 if json.load(open('$T/out'))['residual'] < 0.5 else 1)"
# the work of a decomposed solve: each component's rows and nonzeros times
# its own iterations (the column 50, to the limit; the single contact 1)
"$LCP" -s pgs -n 50 -t 1e-12 --decompose on --json "$T/longplus" >"$T/out"
check "rows_swept, nnz_swept: 3,000 rows and 8,998 nonzeros 50 times, 1 and 1 once ($(cut -c1-200 "$T/out"))" python3 -c "
import json, sys; d = json.load(open('$T/out'))
sys.exit(0 if (d['iterations'], d['components'], d['rows_swept'], d['nnz_swept']) == (50, 2, 3000 * 50 + 1, 8998 * 50 + 1) else 1)"
"$LCP" -s pgs -n 50 -t 1e-12 --decompose off --json "$T/longplus" >"$T/out"
check "--decompose off: no rows_swept" python3 -c "
import json, sys; d = json.load(open('$T/out')); sys.exit(0 if 'rows_swept' not in d and 'nnz_swept' not in d else 1)"
finish
