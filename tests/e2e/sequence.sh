#!/bin/sh
# tests/e2e/sequence.sh: `lcpsolve generate sequence` and `lcpsolve
# sequence` end to end.  The generator: every step a problem folder that
# lcpsolve reads and solves (answers checked independently), ids.mtx one id a
# contact, ids persisting for the same pair of bodies across steps, contacts
# appearing as dropped spheres land, friction (3 rows a contact), the same
# bytes for the same command, stale steps of a longer sequence removed, bad
# options exit 2.  The solves: one line / one JSON object a step and a total;
# warm start by contact id matches the persisting contacts and cuts the
# iterations against cold starts (--warm-factor 0); --schedule caps and
# tolerances by progress; --adaptive stops a sweep solver with status
# stalled; bad specs exit 2.  Run from the repository root.
. tests/lib.sh
J() { python3 -c "import json,sys; rows=[json.loads(l) for l in open(sys.argv[1])]; $2" "$T/out"; }

# --- the generator
"$LCP" generate sequence --scene column --bodies 12 --steps 40 -o "$T/col" 2>"$T/err"; rc=$?
check "generate column sequence (exit $rc)" [ $rc -eq 0 ] && [ -f "$T/col/step-0039/ids.mtx" ] && [ ! -e "$T/col/step-0040" ]
check "summary line names the contacts" grep -q "12 bodies, 40 steps of 0.01 s, 0 to [0-9]* contacts" "$T/err"
for k in 0010 0020 0039; do
    "$LCP" -s pivot -t 1e-12 -o "$T/x.mtx" --quiet "$T/col/step-$k"; rc=$?
    if [ $rc -eq 0 ] && indep "$T/col/step-$k/A.mtx" "$T/col/step-$k/b.mtx" "$T/x.mtx" --max 1e-10; then
        ok "step $k reads back and solves (independent check)"
    else bad "step $k: exit $rc"; fi
done
# ids: one a contact; a pair keeps its id: decode (a, b) from the id and check against J's columns
python3 - "$T/col" <<'P' >"$T/ids" 2>&1 && ok "ids: one a contact, decode to the pair of bodies J couples, unique a step" || bad "ids: $(cat "$T/ids")"
import sys, os
sys.path.insert(0, "tests")
from check_residual import read_mtx
d = sys.argv[1]
for k in (5, 25, 39):
    s = os.path.join(d, "step-%04d" % k)
    m, _, ids = read_mtx(os.path.join(s, "ids.mtx"))
    ids = [int(v) for _, _, v in ids]
    n, nv, J = read_mtx(os.path.join(s, "J.mtx"))
    assert m == n, (m, n)
    assert len(set(ids)) == len(ids)
    nb = nv // 6
    bodies = {}
    for i, j, v in J:
        bodies.setdefault(i, set()).add(j // 6)
    for i, idv in enumerate(ids):
        a, b = idv // (nb + 8) - 8, idv % (nb + 8) - 8
        want = {x for x in (a, b) if x >= 0}
        assert bodies.get(i, set()) == want, (k, i, a, b, bodies.get(i))
P
python3 - "$T/col" <<'P' >"$T/ids" 2>&1 && ok "ids persist: contacts of step k found again in step k+1 with the same id; new ones appear" || bad "persist: $(cat "$T/ids")"
import sys, os
sys.path.insert(0, "tests")
from check_residual import read_mtx
d = sys.argv[1]
prev, kept, new = None, 0, 0
for k in range(40):
    ids = {int(v) for _, _, v in read_mtx(os.path.join(d, "step-%04d" % k, "ids.mtx"))[2]}
    if prev is not None:
        kept += len(ids & prev)
        new += len(ids - prev)
    prev = ids
assert kept > 100 and new >= 10, (kept, new)
P
"$LCP" generate sequence --scene column --bodies 12 --steps 40 -o "$T/col2" 2>/dev/null
check "the same command writes the same bytes" cmp -s "$T/col/step-0031/A.mtx" "$T/col2/step-0031/A.mtx"
"$LCP" generate sequence --scene column --bodies 12 --steps 10 -o "$T/col2" 2>/dev/null
check "a shorter sequence into the same folder removes the stale steps" [ -d "$T/col2/step-0009" ] && [ ! -e "$T/col2/step-0010" ]
"$LCP" generate sequence --scene granular --base 3 --layers 2 --steps 8 --mu 0.4 -o "$T/gf" 2>/dev/null; rc=$?
"$LCP" -o "$T/r.mtx" --quiet -t 1e-9 "$T/gf/step-0007"; rc2=$?
if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && python3 tests/check_friction.py fc3d "$T/gf/step-0007/A.mtx" "$T/gf/step-0007/b.mtx" \
        "$T/gf/step-0007/mu.mtx" "$T/r.mtx" --max 1e-8 >/dev/null; then
    ok "granular fc3d sequence: a step solves (independent fc3d residual)"
else bad "granular fc3d sequence: exit $rc / $rc2"; fi
n=$(sed -n '/^[0-9]/{p;q}' "$T/gf/step-0007/ids.mtx" | cut -d' ' -f1); nA=$(grep -v '^%' "$T/gf/step-0007/A.mtx" | head -1 | cut -d' ' -f1)
check "friction: one id a contact (3 rows)" [ $((3 * n)) -eq "$nA" ]
"$LCP" generate sequence --scene pyramid --base 4 --steps 3 -o "$T/pyr" 2>/dev/null
check "pyramid scene" [ -f "$T/pyr/step-0002/problem.json" ]
for a in "--scene cube --steps 3" "--scene column --steps 0" "--scene column --steps x" "--scene column --bogus 1" \
         "--steps 3" "--scene column --kind ccp" "--scene column --mu -1"; do
    "$LCP" generate sequence $a -o "$T/bad" 2>"$T/err"; rc=$?
    check "generate sequence $a: exit 2, one line" [ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ]
done

# --- the solves: a resting column with small sideways offsets (persistent contacts)
"$LCP" generate sequence --scene column --bodies 30 --steps 25 --gap 0 --jitter 0 -o "$T/rest" 2>/dev/null
"$LCP" sequence "$T/rest" -s pgs -t 1e-8 >"$T/out"; rc=$?
check "human output: a line a step and a total (exit $rc)" [ $rc -eq 0 ] && [ "$(grep -c '^step ' "$T/out")" -eq 25 ] && grep -q '^total: 25 steps, 25 solved' "$T/out"
"$LCP" sequence "$T/rest" -s pgs -t 1e-8 --json >"$T/out"
J_warm=$(J x "print(sum(r['iterations'] for r in rows[:-1]))")
check "--json: one object a step, then the summary" J x "assert len(rows) == 26 and rows[-1]['summary'] and rows[-1]['steps'] == 25 and all(r['status'] == 'solved' for r in rows[:-1])"
check "warm start matches persisting contacts by id" J x "assert rows[0]['matched'] == 0 and all(r['matched'] == r['contacts'] for r in rows[1:-1])"
"$LCP" sequence "$T/rest" -s pgs -t 1e-8 --json --warm-factor 0 >"$T/out"
J_cold=$(J x "print(sum(r['iterations'] for r in rows[:-1]))")
check "cold start: nothing matched" J x "assert all(r['matched'] == 0 for r in rows[:-1])"
check "warm start by id: fewer iterations ($J_warm) than cold starts ($J_cold)" [ $((2 * J_warm)) -lt "$J_cold" ]
"$LCP" sequence "$T/col" -s pgs --json >"$T/out"
check "a landing column: new contacts start at 0, the rest matched" J x "r = rows[:-1]; assert sum(x['new'] for x in r[1:]) >= 10 and sum(x['matched'] for x in r) > 100"

# --- --schedule: caps by progress fraction k/K
"$LCP" sequence "$T/rest" -s pgs -t 1e-14 --schedule 0:3,0.4:7,0.8:12 --json >"$T/out"; rc=$?
check "--schedule caps: 3 for k/K < 0.4, 7 to 0.8, 12 after; status max_iter, exit 1 ($rc)" J x "
K = 25
for k, r in enumerate(rows[:-1]):
    cap = 3 if k / K < 0.4 else 7 if k / K < 0.8 else 12
    assert r['max_iter'] == cap and r['iterations'] <= cap and r['status'] in ('max_iter', 'solved'), (k, r)
assert sum(r['iterations'] == r['max_iter'] for r in rows[:-1]) >= 20"
check "--schedule: exit 1 when steps stop at a cap" [ $rc -eq 1 ]
"$LCP" sequence "$T/rest" -s pgs --schedule 0:1e-2,0.5:1e-7 --json >"$T/out"; rc=$?
check "--schedule tolerances: 1e-2 then 1e-7, all solved (exit $rc)" J x "
for k, r in enumerate(rows[:-1]):
    assert r['tol'] == (1e-2 if k / 25 < 0.5 else 1e-7) and r['status'] == 'solved' and r['residual'] <= r['tol'], (k, r)"
for spec in "0.5:5" "0:5,0:6" "0:5,0.5:1e-3" "0:0" "0:1.5" "0:5," "x" "0:5,1:9" "0:-3"; do
    "$LCP" sequence "$T/rest" --schedule "$spec" >/dev/null 2>"$T/err"; rc=$?
    check "--schedule '$spec': exit 2, one line" [ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ]
done
"$LCP" --schedule 0:5 problems/column-20 >/dev/null 2>"$T/err"; rc=$?
check "--schedule without sequence: exit 2" [ $rc -eq 2 ]

# --- --adaptive: through the monitor; stops sweeps early with status stalled
"$LCP" generate column --bodies 200 -o "$T/c200" 2>/dev/null
"$LCP" -s pgs --adaptive 0.01 --json "$T/c200" >"$T/out"; rc=$?
st=$(python3 -c "import json; d=json.load(open('$T/out')); print(d['status'], d['iterations'])")
check "--adaptive 0.01 on a long chain: status stalled, exit 1 ($st, $rc)" [ "${st%% *}" = stalled ] && [ $rc -eq 1 ]
"$LCP" -s pgs --adaptive 0.01 --trace "$T/tr.csv" "$T/c200" >/dev/null
check "--adaptive: the last sweep improved the residual by less than 1%" python3 -c "
import csv; r = [float(x['residual']) for x in csv.DictReader(open('$T/tr.csv'))]
assert (r[-2] - r[-1]) < 0.0101 * r[-2] and all((r[k-1] - r[k]) >= 0.0099 * r[k-1] for k in range(1, len(r) - 1))"
"$LCP" -s pgs --adaptive 0.01 problems/random-spd-200 >/dev/null; rc=$?
check "--adaptive on a fast-converging problem: still solved (exit $rc)" [ $rc -eq 0 ]
"$LCP" sequence "$T/rest" -s pgs --adaptive 0.2 --json >"$T/out"
A=$(J x "print(sum(r['iterations'] for r in rows[:-1]))")
check "--adaptive in a sequence: fewer iterations ($A) than to tol ($J_warm), status stalled" J x "assert any(r['status'] == 'stalled' for r in rows[:-1]) and $A < $J_warm"
for v in 0 1 -0.5 x; do
    "$LCP" --adaptive $v problems/column-20 >/dev/null 2>&1; rc=$?
    check "--adaptive $v: exit 2" [ $rc -eq 2 ]
done

# --- bad sequence folders and options
"$LCP" sequence "$T/nothing" 2>"$T/err"; rc=$?
check "missing folder: exit 2" [ $rc -eq 2 ]
mkdir -p "$T/empty"; "$LCP" sequence "$T/empty" 2>"$T/err"; rc=$?
check "no step-* folders: exit 2" [ $rc -eq 2 ] && grep -q "no step-" "$T/err"
"$LCP" sequence "$T/rest" --trace "$T/t.csv" 2>"$T/err"; rc=$?
check "--trace with a sequence: exit 2" [ $rc -eq 2 ]
cp -r "$T/rest" "$T/broken"; printf '%%%%MatrixMarket matrix array real general\n2 1\n1\n2\n' >"$T/broken/step-0003/ids.mtx"
"$LCP" sequence "$T/broken" -s pgs >/dev/null 2>"$T/err"; rc=$?
check "ids.mtx of the wrong length: exit 2 naming it" [ $rc -eq 2 ] && grep -q "step-0003/ids.mtx" "$T/err"
finish
