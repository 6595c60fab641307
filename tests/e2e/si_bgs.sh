#!/bin/sh
# tests/e2e/si_bgs.sh: sequential impulses (-s si, on the factored form M, J,
# v) and block Gauss-Seidel (-s bgs) end to end.  si against pgs on the
# assembled A: the same answer (--reference at 1e-7 after both reach 1e-10)
# on a column of 20 spheres and one with mass ratio 100, the same iterates
# after 2000 sweeps on a column of 200 (si is pgs computed on body
# velocities), the same w and independently checked residuals on a
# singular pyramid; given as -M -J -v files, a folder, and a findex friction
# blcp; fc3d and ccp (Box2D-style disc clamp) to 1e-8 with an independent
# natural-map residual, on stacks and on a scene with sliding contacts, and
# = nsgs on a column; warm start from the solution with --warm-factor 0.9 in fewer
# sweeps than cold; its own stop on stagnating impulses; refusals (A only,
# friction kinds, a zero row of J: exit 2, one line).  bgs: lcp and blcp
# (box JSONs, the friction pyramid as a findex blcp) to tol agreeing with
# pgs / pivot; trace columns of both.  Run from the repository root:
# sh tests/e2e/si_bgs.sh.  Ends with "N passed, N failed".
. tests/lib.sh
field() { python3 -c "import json,sys; v=json.load(open(sys.argv[2])).get(sys.argv[1]); print('' if v is None else v)" "$1" "$2"; }
lt() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$1" "$2"; }
# close A.mtx B.mtx TOL: two Matrix Market vectors agree to TOL (relative to max(1, |B|_inf))
close() {
    python3 - "$1" "$2" "$3" <<'P'
import sys
def vec(p):
    rows = [l for l in open(p) if l.strip() and not l.startswith('%')]
    return [float(v) for v in rows[1:1 + int(rows[0].split()[0])]]
a, b = vec(sys.argv[1]), vec(sys.argv[2])
s = max([1.0] + [abs(v) for v in b])
sys.exit(0 if len(a) == len(b) and max(abs(x - y) for x, y in zip(a, b)) <= float(sys.argv[3]) * s else 1)
P
}

for s in si bgs; do
    check "$s listed" sh -c "'$LCP' --list-solvers | grep -q '^$s '"
done

"$LCP" generate column --bodies 20 -o "$T/c20" >/dev/null 2>&1
"$LCP" generate column --bodies 20 --mass-ratio 100 -o "$T/cm" >/dev/null 2>&1
"$LCP" generate column --bodies 200 -o "$T/c200" >/dev/null 2>&1
"$LCP" generate pyramid --base 5 -o "$T/p5" >/dev/null 2>&1

# agree NAME SOLVER REFSOLVER ARGS...: the reference to 1e-10, then SOLVER to
# 1e-10 agreeing with it to 1e-7
agree() {
    name=$1; sv=$2; ref=$3; shift 3
    if ! "$LCP" -s "$ref" -t 1e-10 -n 10000000 --quiet -o "$T/ref.mtx" "$@" 2>"$T/err"; then
        bad "$name: the reference ($ref) fails: $(head -c 200 "$T/err")"; return
    fi
    "$LCP" -s "$sv" -t 1e-10 -n 10000000 --json --reference "$T/ref.mtx" --ref-tol 1e-7 -o "$T/x.mtx" "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 0 ]; then
        ok "$name: $sv = $ref ($(json_field iterations) iterations)"
    else
        bad "$name: $sv exit $rc: $(json_field status) $(json_field message) $(head -c 200 "$T/err")"
    fi
}

# --- si = pgs on A
agree "column 20 (folder: A and M, J, v)" si pgs "$T/c20"
agree "column 20, -M -J -v" si pgs -M "$T/c20/M.mtx" -J "$T/c20/J.mtx" -v "$T/c20/v.mtx"
indep "$T/c20/A.mtx" "$T/c20/b.mtx" "$T/x.mtx" --max 1e-10 && ok "column 20: si answer checked independently" ||
    bad "column 20: independent residual of si above 1e-10"
agree "column 20, mass ratio 100" si pgs "$T/cm"
# the same sweeps in exact arithmetic (si on body velocities, pgs on A): on
# this slow chain (about 39,000 sweeps) the sweep where the residual first
# falls below 1e-10 moves with the last bits of the two sums; within 0.1%
its_si=$(json_field iterations)
its_pgs=$("$LCP" -s pgs -t 1e-10 --json "$T/cm" | python3 -c 'import json,sys; print(json.load(sys.stdin)["iterations"])')
check "mass ratio 100: si takes pgs's sweeps ($its_si, $its_pgs)" python3 -c "import sys; a, b = $its_si, $its_pgs; sys.exit(not (b > 10000 and abs(a - b) <= b / 1000 + 1))"
# column 200: pgs needs far more than 10^5 sweeps to 1e-10; the iterates after
# 2000 sweeps are the same (si computes pgs's iteration on body velocities)
"$LCP" -s pgs -n 2000 --quiet -o "$T/pgs200.mtx" "$T/c200"
"$LCP" -s si -n 2000 --quiet -o "$T/si200.mtx" "$T/c200"
check "column 200: si = pgs after 2000 sweeps (1e-10)" close "$T/si200.mtx" "$T/pgs200.mtx" 1e-10
agree "column 200: bgs = pivot" bgs pivot "$T/c200"

# M with dense 6 x 6 blocks (rotated inertia: the dense block inverses), and
# an M that is one tridiagonal block of 70 columns (not block-diagonal: the
# CHOLMOD path); J sparse random, 30 rows: A positive definite
python3 - "$T" <<'P'
import os, random, sys
d = sys.argv[1]; random.seed(5)
def mat(path, m, n, ent):
    with open(path, 'w') as f:
        f.write('%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n' % (m, n, len(ent)))
        f.write(''.join('%d %d %.17g\n' % (i + 1, j + 1, v) for i, j, v in ent))
def vec(path, v):
    with open(path, 'w') as f:
        f.write('%%%%MatrixMarket matrix array real general\n%d 1\n' % len(v))
        f.write(''.join('%.17g\n' % x for x in v))
for name, nb in (('blk6', 72), ('tri70', 70)):
    os.makedirs(os.path.join(d, name))
    ent = []
    if name == 'blk6':
        for b in range(nb // 6):
            G = [[random.uniform(-1, 1) for _ in range(6)] for _ in range(6)]
            for i in range(6):
                for j in range(6):
                    v = sum(G[i][k] * G[j][k] for k in range(6)) + (0.5 if i == j else 0.0)
                    ent.append((6 * b + i, 6 * b + j, v))
    else:
        for i in range(nb):
            ent.append((i, i, 4.0))
            if i + 1 < nb:
                ent += [(i, i + 1, -1.0), (i + 1, i, -1.0)]
    mat(os.path.join(d, name, 'M.mtx'), nb, nb, ent)
    J = []
    for i in range(30):
        for j in random.sample(range(nb), 4):
            J.append((i, j, random.uniform(-1, 1)))
    mat(os.path.join(d, name, 'J.mtx'), 30, nb, J)
    vec(os.path.join(d, name, 'v.mtx'), [random.uniform(-1, 1) for _ in range(nb)])
P
agree "M with dense 6 x 6 blocks" si pgs "$T/blk6"
agree "M one 70-column block (CHOLMOD)" si pgs "$T/tri70"

# pyramid: A = J M^-1 J' singular (4 contacts a face, rank 3): x is not
# unique, w = A x + b is; compare w and check residuals independently
for s in pgs si bgs; do
    if "$LCP" -s $s -t 1e-10 --quiet -o "$T/p5-$s.mtx" --output-w "$T/p5w-$s.mtx" "$T/p5"; then
        ok "pyramid 5: $s reaches 1e-10"
    else
        bad "pyramid 5: $s does not reach 1e-10"
    fi
    indep "$T/p5/A.mtx" "$T/p5/b.mtx" "$T/p5-$s.mtx" --max 1e-10 && ok "pyramid 5: $s residual checked independently" ||
        bad "pyramid 5: $s independent residual above 1e-10"
done
check "pyramid 5: si w = pgs w (1e-8)" close "$T/p5w-si.mtx" "$T/p5w-pgs.mtx" 1e-8
check "pyramid 5: bgs w = pgs w (1e-8)" close "$T/p5w-bgs.mtx" "$T/p5w-pgs.mtx" 1e-8

# --- warm start: from the solution, damped by 0.9, fewer sweeps than cold
"$LCP" -s pgs -t 1e-12 --quiet -o "$T/cm-sol.mtx" "$T/cm"
for s in si bgs; do
    "$LCP" -s $s -t 1e-10 --json "$T/cm" >"$T/out"; cold=$(json_field iterations)
    "$LCP" -s $s -t 1e-10 --json --warm-start "$T/cm-sol.mtx" --warm-factor 0.9 "$T/cm" >"$T/out"; rc=$?
    warm=$(json_field iterations)
    if [ $rc -eq 0 ] && [ -n "$warm" ] && [ "$warm" -lt "$cold" ]; then
        ok "warm start (0.9 x solution): $s $warm sweeps < $cold cold"
    else
        bad "warm start: $s exit $rc, $warm sweeps warm, $cold cold"
    fi
done
"$LCP" -s si -t 1e-10 --json --warm-start "$T/cm-sol.mtx" "$T/cm" >"$T/out"
check "warm start from the solution itself: si stops at sweep 0" [ "$(json_field iterations)" = 0 ]

# --- si's own stop: below rounding the impulses stop changing (exit 1, a note)
"$LCP" -s si -t 1e-20 --json "$T/c20" >"$T/out"; rc=$?
check "si -t 1e-20: exit 1" [ $rc -eq 1 ]
check "si -t 1e-20: stops on stagnating impulses before the iteration limit" \
    sh -c "grep -q 'impulse changes' '$T/out' && [ \$(python3 -c 'import json; print(json.load(open(\"$T/out\"))[\"iterations\"])') -lt 100000 ]"

# --- blcp: the friction pyramid as a findex blcp (normal rows [0, inf),
# tangent rows +-mu lambda_n), given to si in factored form
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
put('hi.mtx', [v for c in mu for v in (1e300, 0.0, 0.0)])
put('findex.mtx', [v for c in range(len(mu)) for v in (-1, 3 * c, 3 * c)])
put('blcp_mu.mtx', [v for m in mu for v in (0.0, m, m)])
P
BOX="--lo $T/pyr/lo.mtx --hi $T/pyr/hi.mtx --findex $T/pyr/findex.mtx --mu $T/pyr/blcp_mu.mtx --kind blcp"
for s in pgs bgs si; do
    if [ $s = si ]; then prob="-M $T/pyr/M.mtx -J $T/pyr/J.mtx -v $T/pyr/v.mtx"; else prob="-A $T/pyr/A.mtx -b $T/pyr/b.mtx"; fi
    # shellcheck disable=SC2086
    "$LCP" -s $s -t 1e-10 --json -o "$T/pyr-$s.mtx" --output-w "$T/pyrw-$s.mtx" --trace "$T/pyr-$s.csv" $prob $BOX >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 0 ] && [ "$(json_field kind)" = blcp ]; then
        ok "friction pyramid blcp: $s reaches 1e-10 ($(json_field iterations) sweeps)"
    else
        bad "friction pyramid blcp: $s exit $rc $(json_field message) $(head -c 200 "$T/err")"
    fi
done
check "friction blcp: si = pgs (same iterates, 1e-9)" close "$T/pyr-si.mtx" "$T/pyr-pgs.mtx" 1e-9
check "friction blcp: bgs w = pgs w (1e-6)" close "$T/pyrw-bgs.mtx" "$T/pyrw-pgs.mtx" 1e-6

# box LCPs with finite, one-sided and infinite bounds (bgs against pivot)
cat >"$T/box.json" <<'J'
{"kind": "blcp",
 "A": [[4.7, -0.5, -0.8, -0.2, -0.7, -0.9, -0.2],
      [-0.5, 4.7, 0.8, 0.6, 0.5, -0.6, 0.1],
      [-0.8, 0.8, 5.9, -0.4, -0.7, -0.8, -0.6],
      [-0.2, 0.6, -0.4, 5.2, 0.9, 0.7, 0.6],
      [-0.7, 0.5, -0.7, 0.9, 4.6, 0.6, -0.6],
      [-0.9, -0.6, -0.8, 0.7, 0.6, 5.4, -0.4],
      [-0.2, 0.1, -0.6, 0.6, -0.6, -0.4, 4]],
 "b": [3, -4, 2, -5, 1, 6, -2],
 "lo": [-0.3, "-inf", 0, -1, 0.2, "-inf", 0.5],
 "hi": [0.3, 0.4, "inf", -0.5, 0.2, "inf", 2]}
J
agree "box LCP (7 rows, one block)" bgs pivot "$T/box.json"
"$LCP" generate random-spd --size 300 -o "$T/rspd" >/dev/null 2>&1
agree "random-spd 300" bgs pivot "$T/rspd"

# --- friction (fc3d, ccp): Box2D-style normal row, then the tangent pair
# clamped to the disc mu lambda_n; reaches the common residual, checked by
# an independent natural-map residual; a scene with sliding contacts (the
# pyramid's bodies given random horizontal and spin velocities, b = J v
# rewritten)
# fric_resid KIND A b mu r: the natural-map residual of docs/contract.md
fric_resid() {
    python3 - "$@" <<'P'
import math, sys
kind, Ap, bp, mup, rp = sys.argv[1:6]
def rows(p):
    return [l for l in open(p) if l.strip() and not l.lstrip().startswith('%')]
def vec(p):
    r = rows(p); return [float(v) for v in r[1:1 + int(r[0].split()[0])]]
r0 = rows(Ap); n = int(r0[0].split()[0]); A = {}
for l in r0[1:]:
    i, j, v = l.split(); A.setdefault(int(i) - 1, []).append((int(j) - 1, float(v)))
q, mu, r = vec(bp), vec(mup), vec(rp)
u = [q[i] + sum(v * r[j] for j, v in A.get(i, [])) for i in range(n)]
def proj(z, m):  # onto {|z_T| <= m z_n}
    zn, zt = z[0], math.hypot(z[1], z[2])
    if zt <= m * zn: return z
    if m * zt <= -zn: return [0.0, 0.0, 0.0]
    a = (zn + m * zt) / (1 + m * m)
    return [a, m * a * z[1] / zt, m * a * z[2] / zt]
err = 0.0
for c in range(n // 3):
    uc = u[3 * c:3 * c + 3]; rc = r[3 * c:3 * c + 3]
    vn = uc[0] + (mu[c] * math.hypot(uc[1], uc[2]) if kind == 'fc3d' else 0.0)
    p = proj([rc[0] - vn, rc[1] - uc[1], rc[2] - uc[2]], mu[c])
    err += sum((rc[k] - p[k]) ** 2 for k in range(3))
nrm = lambda x: math.sqrt(sum(t * t for t in x))
print(math.sqrt(err) / max(nrm(q), nrm(r), nrm(u), 1e-300))
P
}
"$LCP" generate column --bodies 20 --mu 0.3 --mass-ratio 100 -o "$T/cfm" >/dev/null 2>&1
"$LCP" generate pyramid --base 5 --mu 0.5 -o "$T/pf" >/dev/null 2>&1
"$LCP" generate pyramid --base 5 --mu 0.5 --kind ccp -o "$T/pc" >/dev/null 2>&1
"$LCP" generate pyramid --base 6 --mu 0.3 -o "$T/sl" >/dev/null 2>&1
python3 - "$T/sl" <<'P'
import random, sys
random.seed(2)
d = sys.argv[1]
def put(name, v):
    open(d + '/' + name, 'w').write('%%%%MatrixMarket matrix array real general\n%d 1\n' % len(v) + ''.join('%.17g\n' % x for x in v))
rows = [l for l in open(d + '/v.mtx') if l.strip() and not l.startswith('%')]
n = int(rows[0].split()[0]); v = [float(x) for x in rows[1:1 + n]]
for b in range(n // 6):
    v[6 * b] += random.uniform(-0.5, 0.5); v[6 * b + 1] += random.uniform(-0.5, 0.5); v[6 * b + 5] += random.uniform(-1, 1)
put('v.mtx', v)
rows = [l for l in open(d + '/J.mtx') if l.strip() and not l.startswith('%')]
m = int(rows[0].split()[0]); b = [0.0] * m
for l in rows[1:]:
    i, j, x = l.split(); b[int(i) - 1] += float(x) * v[int(j) - 1]
put('b.mtx', b)  # b = J v; A = J M^-1 J' does not depend on v
P
for c in "cfm fc3d" "pf fc3d" "pc ccp" "sl fc3d" "sl ccp"; do
    set -- $c; d=$1; k=$2
    if "$LCP" -s si -t 1e-8 -n 200000 --kind "$k" --json -o "$T/r.mtx" --output-w "$T/u.mtx" "$T/$d" >"$T/out" 2>"$T/err"; then
        ok "$d $k: si reaches 1e-8 ($(json_field iterations) sweeps)"
    else
        bad "$d $k: si exit $?: $(json_field status) $(json_field residual) $(head -c 200 "$T/err")"; continue
    fi
    res=$(fric_resid "$k" "$T/$d/A.mtx" "$T/$d/b.mtx" "$T/$d/mu.mtx" "$T/r.mtx")
    if lt "$res" 2e-8; then ok "$d $k: independent residual $res"; else bad "$d $k: independent residual $res"; fi
done
# the sliding scene: many contacts on the cone's surface (|r_T| = mu r_n > 0)
"$LCP" -s si -t 1e-10 -n 200000 --quiet -o "$T/r.mtx" "$T/sl"
check "sliding scene: more than 50 contacts slide" python3 - "$T/r.mtx" <<'P'
import sys
rows = [l for l in open(sys.argv[1]) if l.strip() and not l.startswith('%')]
r = [float(v) for v in rows[1:1 + int(rows[0].split()[0])]]
s = sum(1 for c in range(len(r) // 3) if r[3 * c] > 1e-9 and abs((r[3 * c + 1] ** 2 + r[3 * c + 2] ** 2) ** .5 - 0.3 * r[3 * c]) <= 1e-6 * r[3 * c])
sys.exit(0 if s > 50 else 1)
P
# fc3d on a column: no tangential load, the solution is unique: si = nsgs
agree "column 20 fc3d, mass ratio 100" si nsgs "$T/cfm"

# --- trace columns
"$LCP" -s si -t 1e-10 --json --trace "$T/si.csv" "$T/c20" >"$T/out"
check "si trace header" [ "$(head -n 1 "$T/si.csv")" = "iter,time_s,residual,complementarity,feasibility,max_dlambda" ]
check "si trace rows = iterations + 1" [ "$(($(wc -l <"$T/si.csv") - 1))" -eq "$(($(json_field iterations) + 1))" ]
check "si trace: max_dlambda > 0 after row 0" awk -F, 'NR > 2 && !($6 > 0) { exit 1 }' "$T/si.csv"
check "bgs trace header" [ "$(head -n 1 "$T/pyr-bgs.csv")" = "iter,time_s,residual,complementarity,feasibility,max_dx,pivots" ]
check "bgs trace: pivots taken in the first sweep" awk -F, 'NR == 3 && !($7 > 0) { exit 1 }' "$T/pyr-bgs.csv"

# --- refusals: exit 2, one line
refuse() { # refuse NAME PATTERN ARGS...
    name=$1; pat=$2; shift 2
    "$LCP" "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "$pat" "$T/err"; then
        ok "$name (exit 2: $(cat "$T/err"))"
    else
        bad "$name: exit $rc: $(head -c 300 "$T/err")"
    fi
}
refuse "si on A only" "pgs" -s si -A "$T/c20/A.mtx" -b "$T/c20/b.mtx"
refuse "si on a JSON with A only" "factored form" -s si "$T/box.json"
"$LCP" generate column --bodies 4 --mu 0.3 -o "$T/cf" >/dev/null 2>&1
refuse "si on fc3d given as W, q only" "nsgs" -s si -A "$T/cf/A.mtx" -b "$T/cf/b.mtx" --mu "$T/cf/mu.mtx"
# bgs on fc3d: the 3x3 contact blocks solved exactly, the sweeps of nsgs --local exact
"$LCP" -s bgs -t 1e-8 --json "$T/cf" >"$T/out"; rc=$?
"$LCP" -s nsgs --local exact -t 1e-8 --json "$T/cf" >"$T/out2"
check "bgs on fc3d: solved" [ $rc -eq 0 ]
check "bgs on fc3d: the sweeps of nsgs --local exact" [ "$(json_field iterations)" = "$(python3 -c "import json; print(json.load(open('$T/out2'))['iterations'])")" ]
echo '{"kind": "lcp", "M": [[2, 0], [0, 1]], "J": [[1, -1], [0, 0]], "v": [-1, 1]}' >"$T/zero.json"
refuse "si: a zero row of J" "row 2 of J" -s si "$T/zero.json"
echo '{"kind": "lcp", "A": [[1, 0], [0, 0]], "b": [-1, 1]}' >"$T/zdiag.json"
refuse "bgs: a zero diagonal" "positive diagonal" -s bgs "$T/zdiag.json"

finish
