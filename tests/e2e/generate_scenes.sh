#!/bin/sh
# tests/e2e/generate_scenes.sh: the rigid-body scenes tower, mass-ratio,
# redundant and chain of `lcpsolve generate` end to end.  Each scene: the
# same command writes the same bytes (every file compared), the sizes are
# the documented ones (problem.json and `lcpsolve info`), `info` says
# symmetric, positive definite or semidefinite (singular) as documented and
# counts the components of --piles; solvers reach 1e-10 with the residual
# checked independently (tests/check_residual.py).  The failure modes: a
# 100-link chain needs tens of thousands of pgs sweeps where pmg and
# mprgp -p mg take a few; mass ratio 1e6 stops pgs at 100,000 sweeps while
# ipm, lemke and mprgp -p ichol solve it; the redundant stack gives two
# solvers different lambda but the same w.  Friction variants (fc3d, ccp),
# --envs for batch, and bad options (exit 2, one line).  Run from the
# repository root: sh tests/e2e/generate_scenes.sh.  Ends with
# "N passed, N failed".
. tests/lib.sh
# field NAME FILE: a field of a JSON file, dotted for nested ('' if absent)
field() {
    python3 -c "
import json, sys
v = json.load(open(sys.argv[2]))
for k in sys.argv[1].split('.'):
    v = v.get(k) if isinstance(v, dict) else None
print('' if v is None else v)" "$1" "$2"
}
le() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)" "$1" "$2"; }

# gen NAME ARGS...: generates $T/NAME twice ($T/NAME and $T/NAME.again) and
# checks that every file is the same bytes
gen() {
    name=$1; shift
    if ! "$LCP" generate "$@" -o "$T/$name" 2>"$T/err"; then
        bad "generate $*: $(cat "$T/err")"; return 1
    fi
    "$LCP" generate "$@" -o "$T/$name.again" 2>/dev/null
    check "$name: the same bytes twice" diff -r -q "$T/$name" "$T/$name.again"
}

# sizes NAME N CONTACTS: problem.json and info agree with the formula
sizes() {
    check "$1: n = $2, $3 contacts in problem.json" \
        [ "$(field params.n "$T/$1/problem.json")" = "$2" -a "$(field params.contacts "$T/$1/problem.json")" = "$3" ]
    "$LCP" info --json "$T/$1" >"$T/info.json" 2>/dev/null
    check "$1: info n = $2" [ "$(field n "$T/info.json")" = "$2" ]
    check "$1: info symmetric" [ "$(field symmetric "$T/info.json")" = "True" ]
}

# definite NAME WHAT COMPONENTS: info's definiteness and component count
definite() {
    "$LCP" info --json "$T/$1" >"$T/info.json" 2>/dev/null
    check "$1: $2" [ "$(field definiteness "$T/info.json")" = "$2" ]
    check "$1: $3 component(s)" [ "$(field graph.components "$T/info.json")" = "$3" ]
}

# solves NAME SOLVER [OPTIONS]: to 1e-10, checked independently at 1e-8
solves() {
    name=$1; s=$2; shift 2
    "$LCP" -s "$s" "$@" -t 1e-10 -n 1000000 --json -o "$T/x.mtx" "$T/$name" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 0 ] && indep "$T/$name/A.mtx" "$T/$name/b.mtx" "$T/x.mtx" --max 1e-8; then
        ok "$name: $s $* solves it ($(json_field iterations) iterations, independent check)"
    else
        bad "$name: $s $* exit $rc $(json_field status) $(json_field message) $(head -c 200 "$T/err")"
    fi
}

# --- tower: 10 layers of 2 Kapla planks: 4 P + 4 P^2 (L - 1) = 152 contacts
gen tower tower
sizes tower 152 152
definite tower "positive semidefinite" 1
for s in pgs psor ipm; do solves tower $s; done
gen tower3 tower --layers 6 --planks 3 --piles 3
sizes tower3 $((3 * (12 + 36 * 5))) $((3 * (12 + 36 * 5)))
definite tower3 "positive semidefinite" 3
solves tower3 psor
gen towerf tower --layers 5 --mu 0.5
sizes towerf $((3 * (8 + 16 * 4))) $((8 + 16 * 4))
check "tower --mu: mu.mtx, kind fc3d" [ -f "$T/towerf/mu.mtx" -a "$(field kind "$T/towerf/problem.json")" = fc3d ]
for s in nsgs nsn; do
    "$LCP" -s $s -t 1e-8 -n 100000 "$T/towerf" >/dev/null 2>"$T/err"; rc=$?
    check "tower --mu 0.5: $s solves it (exit $rc)" [ $rc -eq 0 ]
done
gen towerc tower --layers 5 --mu 0.5 --kind ccp
"$LCP" -s socp-ipm -t 1e-8 "$T/towerc" >/dev/null 2>&1; rc=$?
check "tower --kind ccp: socp-ipm solves it (exit $rc)" [ $rc -eq 0 ]

# --- mass-ratio: a heavy sphere on 3 light ones
gen mr mass-ratio --ratio 1e6
sizes mr 4 4
definite mr "positive definite" 1
"$LCP" info --json "$T/mr" >"$T/info.json" 2>/dev/null
check "mass-ratio 1e6: condition > 1e6" le 1e6 "$(field condition "$T/info.json")"
for s in ipm lemke; do solves mr $s; done
solves mr mprgp -p ichol
"$LCP" -s pgs -t 1e-10 -n 100000 --json "$T/mr" >"$T/out" 2>/dev/null; rc=$?
check "mass-ratio 1e6: pgs stops at 100,000 sweeps (exit $rc, $(json_field status))" [ $rc -eq 1 -a "$(json_field status)" = max_iter ]
gen mr1 mass-ratio --ratio 1
"$LCP" -s pgs -t 1e-10 --json "$T/mr1" >"$T/out" 2>/dev/null
check "mass-ratio 1: pgs in under 1,000 sweeps ($(json_field iterations))" le "$(json_field iterations)" 1000

# --- redundant: 3 boxes, 3 x 3 points a face: 27 rows, rank 9
gen red redundant
sizes red 27 27
definite red "positive semidefinite" 1
"$LCP" info "$T/red" >"$T/info.txt" 2>/dev/null
check "redundant: info says singular" grep -q "singular" "$T/info.txt"
for s in pgs psor ipm; do solves red $s; done
# lambda is not unique, w is: pgs and ipm agree on w = A x + b
"$LCP" -s pgs -t 1e-12 -n 1000000 -o "$T/x1.mtx" "$T/red" >/dev/null 2>&1
"$LCP" -s ipm -t 1e-12 -o "$T/x2.mtx" "$T/red" >/dev/null 2>&1
check "redundant: pgs and ipm give the same w" python3 - "$T/red/A.mtx" "$T/red/b.mtx" "$T/x1.mtx" "$T/x2.mtx" <<'EOF'
import sys
sys.path.insert(0, "tests")
from check_residual import read_mtx
m, n, A = read_mtx(sys.argv[1])
b = [v for _, _, v in sorted(read_mtx(sys.argv[2])[2])]
def vec(p):
    e = read_mtx(p)[2]
    return [v for _, _, v in sorted(e)]
def w(x):
    r = list(b)
    for i, j, v in A:
        r[i] += v * x[j]
    return r
w1, w2 = w(vec(sys.argv[3])), w(vec(sys.argv[4]))
sys.exit(0 if max(abs(p - q) for p, q in zip(w1, w2)) <= 1e-7 else 1)
EOF
gen redf redundant --bodies 2 --points 4 --mu 0.4
sizes redf 96 32
"$LCP" -s nsgs -t 1e-8 -n 100000 "$T/redf" >/dev/null 2>&1; rc=$?
check "redundant --mu: nsgs solves it (exit $rc)" [ $rc -eq 0 ]

# --- chain: 100 capsule links on ropes, swinging at 20 degrees
gen chain chain --links 100 --angle 20
sizes chain 100 100
definite chain "positive definite" 1
for s in psor ipm lemke; do solves chain $s; done
"$LCP" -s pgs -t 1e-8 -n 1000000 --json "$T/chain" >"$T/out" 2>/dev/null
pgs_it=$(json_field iterations)
check "chain 100: pgs needs over 10,000 sweeps ($pgs_it)" le 10000 "${pgs_it:-0}"
for s in pmg "mprgp -p mg"; do
    "$LCP" -s $s -t 1e-8 --json -o "$T/x.mtx" "$T/chain" >"$T/out" 2>/dev/null; rc=$?
    it=$(json_field iterations)
    check "chain 100: $s in at most 20 iterations ($it, exit $rc)" \
        sh -c "[ $rc -eq 0 ] && [ ${it:-999} -le 20 ] && python3 tests/check_residual.py '$T/chain/A.mtx' '$T/chain/b.mtx' '$T/x.mtx' --max 1e-7 >/dev/null"
done
gen chaing chain --links 30 --ground
sizes chaing 31 31
definite chaing "positive semidefinite" 1
for s in pgs ipm; do solves chaing $s; done
gen chaint chain --links 30 --ground --angle 30 --piles 2
definite chaint "positive definite" 2

# --- environments for batch
gen envs tower --layers 3 --envs 3
check "tower --envs 3: three folders" [ -f "$T/envs/env00002/A.mtx" -a ! -d "$T/envs/env00003" ]
"$LCP" batch -s pgs -t 1e-8 "$T/envs" >/dev/null 2>&1; rc=$?
check "tower --envs: batch solves them (exit $rc)" [ $rc -eq 0 ]

# --- bad options: exit 2, one line
for args in "tower --planks 6" "tower --planks 2 --width 0.04" "mass-ratio --ratio 0" \
    "mass-ratio --bodies 1" "redundant --points 1" "chain --mu 0.3" "chain --angle 95" \
    "chain --links -3" "tower --ratio 10" "redundant --ground"; do
    "$LCP" generate $args -o "$T/bad" >"$T/out" 2>"$T/err"; rc=$?
    check "generate $args: exit 2, one line" [ $rc -eq 2 -a "$(wc -l <"$T/err")" -eq 1 -a ! -d "$T/bad" ]
done
finish
