#!/bin/sh
# tests/e2e/pivot_dense.sh: pivot from scratch on dense problems of 100-1,000
# unknowns, the path that keeps A's rows with the clamped columns first
# (a symmetric A) or A's columns (otherwise), forms A dx on the rows at a
# bound only, and takes no crash start under --crash auto.  Random problems
# written here (seeded): symmetric positive definite lcps against ipm (x
# unique: agreement to 1e-7), positive semidefinite ones of half rank and
# ones with every row repeated (redundant contacts; w = A x + b agreeing
# with ipm's to 1e-8), a box blcp against pgs, findex friction of 100 and
# 300 contacts (A dense and singular: 300 and 900 rows) solved to 1e-10, a
# non-symmetric P-matrix against lemke; the same answer with and without a
# trace; the start named, and the crash start tried where the pivots from
# scratch end without an answer; the residual after the last refinement.  Run from the repository root: sh
# tests/e2e/pivot_dense.sh.  Ends with "N passed, N failed, N skipped".
. tests/lib.sh
if ! python3 -c 'import numpy' 2>/dev/null; then
    skip "pivot_dense: numpy missing (python3-numpy)"; finish; exit
fi
python3 - "$T" <<'P'
import json, sys
import numpy as np
d = sys.argv[1]
rng = np.random.default_rng(11)
def put(name, A, b, **kw):
    o = {"kind": kw.pop("kind", "lcp"), "A": A.tolist(), "b": b.tolist()}
    for k, v in kw.items():
        o[k] = [("inf" if x == np.inf else "-inf" if x == -np.inf else x) for x in np.asarray(v).tolist()]
    json.dump(o, open(f"{d}/{name}.json", "w"))
def solvable(A):  # b = w* - A x*, x* and w* >= 0 complementary: a solution exists
    n = A.shape[0]
    x = np.where(rng.uniform(size=n) < 0.5, rng.uniform(0, 1, n), 0.0)
    w = np.where(x > 0, 0.0, rng.uniform(0, 1, n))
    return w - A @ x
for n in (100, 300):
    B = rng.standard_normal((n, n))
    A = B @ B.T + 1e-2 * n * np.eye(n)           # SPD, dense, condition ~1e4
    put(f"spd{n}", A, rng.standard_normal(n))
for n in (200, 400):
    B = rng.standard_normal((n, n // 2))
    A = B @ B.T                                  # PSD of rank n / 2
    put(f"psd{n}", A, solvable(A))
J = rng.standard_normal((150, 60))
J = np.repeat(J, 2, axis=0)                      # every row twice: redundant contacts
A = J @ J.T
put("red300", A, solvable(A))
n = 300
B = rng.standard_normal((n, n))
A = B @ B.T + n * np.eye(n)
lo = -rng.uniform(0, 1, n); hi = rng.uniform(0, 1, n)
lo[::4] = -np.inf; hi[1::4] = np.inf
put("box300", A, 30 * rng.standard_normal(n), kind="blcp", lo=lo, hi=hi)
for c, bodies in ((100, 40), (300, 120)):      # 3 rows a contact: A dense, singular (rank 6 bodies of 3 c)
    J = rng.standard_normal((3 * c, 6 * bodies))
    A = J @ J.T / bodies
    b = J @ rng.standard_normal(6 * bodies) - 0.5
    b[0::3] -= 1.0
    lo = np.zeros(3 * c); hi = np.zeros(3 * c); hi[0::3] = np.inf
    findex = np.full(3 * c, -1); mu = np.zeros(3 * c)
    for k in range(c):
        findex[3 * k + 1] = findex[3 * k + 2] = 3 * k
        mu[3 * k + 1] = mu[3 * k + 2] = 0.5
    put(f"fric{c}", A, b, kind="blcp", lo=lo, hi=hi, findex=findex, mu=mu)
n = 200
P = rng.uniform(-1, 1, (n, n))                   # row diagonally dominant: a P-matrix, not symmetric
np.fill_diagonal(P, np.abs(P).sum(1) + 0.5)
put("pmat200", P, rng.standard_normal(n))
P
field() { python3 -c "import json,sys; v=json.load(open(sys.argv[2])).get(sys.argv[1]); print('' if v is None else v)" "$1" "$2"; }
# wclose PROBLEM X REF: max |A (x - ref)| <= 1e-8 max(1, |b|) (w agrees where x is not unique)
wclose() {
    python3 - "$1" "$2" "$3" <<'W'
import json, sys
import numpy as np
p = json.load(open(sys.argv[1]))
A, b = np.array(p["A"]), np.array(p["b"])
def vec(f):
    return np.array([float(l) for l in [l for l in open(f) if l.strip() and not l.startswith("%")][1:]])
sys.exit(0 if np.abs(A @ (vec(sys.argv[2]) - vec(sys.argv[3]))).max() <= 1e-8 * max(1.0, np.abs(b).max()) else 1)
W
}
# solve NAME PROBLEM: pivot (crash auto) to 1e-10 from scratch, x in $T/x.mtx
solve() {
    "$LCP" -s pivot -t 1e-10 --json -o "$T/x.mtx" "$2" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 0 ]; then ok "$1: solved to 1e-10 ($(field iterations "$T/out") pivots)"
    else bad "$1: pivot exit $rc: $(field message "$T/out") $(head -c 200 "$T/err")"; return 1; fi
}
# ref SOLVER PROBLEM: the reference to 1e-12 in $T/ref.mtx
ref() {
    "$LCP" -s "$1" -t 1e-12 -n 10000000 --quiet -o "$T/ref.mtx" "$2" 2>"$T/err" && return 0
    bad "$2: the reference ($1) fails: $(head -c 200 "$T/err")"; return 1
}

# positive definite: x unique, pivot = ipm (the small path, up to 1,024 unknowns: block steps, no note; with
# --crash none the general one, which names its start)
for n in 100 300; do
    solve "spd n=$n" "$T/spd$n.json" || continue
    check "spd n=$n: pivot's small path (up to 1,024 unknowns: block steps, no note)" \
        sh -c "[ -z \"\$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[\"message\"])' '$T/out')\" ]"
    "$LCP" -s pivot -t 1e-10 --json --trace "$T/tr.csv" "$T/spd$n.json" >"$T/out" 2>&1
    check "spd n=$n with a trace (the general path): from scratch, the reason named" \
        grep -Eq 'no crash start: (a dense A, )?n = '"$n" "$T/out"
    ref ipm "$T/spd$n.json" && check "spd n=$n: pivot = ipm (1e-7)" "$LCP" -s pivot -t 1e-10 --quiet \
        --reference "$T/ref.mtx" --ref-tol 1e-7 "$T/spd$n.json"
    [ $n = 100 ] && check "spd n=$n --crash none (the general path): pivot = ipm (1e-7)" "$LCP" -s pivot \
        --crash none -t 1e-10 --quiet --reference "$T/ref.mtx" --ref-tol 1e-7 "$T/spd$n.json"
done
# the general path's last step of refinement (solved after pivots): the residual at the rounding of w --
# below 8e-16 at n = 100 and 3e-15 at n = 300 (without the step 1.1e-15 and 4.7e-15; with it 4.1e-16, 1.6e-15)
for n in 100 300; do
    lim=3e-15
    [ $n = 100 ] && lim=8e-16
    "$LCP" -s pivot --crash none -t 1e-10 --json "$T/spd$n.json" >"$T/out" 2>&1
    check "spd n=$n --crash none: the residual after the last refinement <= $lim" python3 -c \
        "import json, sys; sys.exit(0 if json.load(open('$T/out'))['residual'] <= $lim else 1)"
done
"$LCP" generate random-spd --size 1000 --density 1 --cond 1e4 --seed 1001 -o "$T/g1000" >/dev/null 2>&1
if solve "random-spd n=1000 (cond 1e4)" "$T/g1000"; then
    check "n=1000: independent residual <= 1e-10" indep "$T/g1000/A.mtx" "$T/g1000/b.mtx" "$T/x.mtx" --max 1e-10
    mv "$T/x.mtx" "$T/x1000.mtx"
    ref ipm "$T/g1000" && check "n=1000: pivot = ipm (1e-7)" "$LCP" -s pivot -t 1e-10 --quiet \
        --reference "$T/ref.mtx" --ref-tol 1e-7 "$T/g1000"
    # the crash start still runs where asked: from ipm's guess, the same answer
    "$LCP" -s pivot -t 1e-10 --crash ipm --json -o "$T/xc.mtx" "$T/g1000" >"$T/out" 2>&1; rc=$?
    check "n=1000 --crash ipm: solved (exit $rc)" [ $rc -eq 0 ]
    check "n=1000 --crash ipm: the crash named" grep -q "crash start from ipm's answer" "$T/out"
    check "n=1000: from the crash = from scratch (1e-7)" "$LCP" -s pivot -t 1e-10 --quiet \
        --reference "$T/x1000.mtx" --ref-tol 1e-7 "$T/g1000"
fi

# positive semidefinite (half rank; every row twice): w agrees with ipm's
for p in psd200 psd400 red300; do
    solve "$p" "$T/$p.json" || continue
    mv "$T/x.mtx" "$T/xp.mtx"
    ref ipm "$T/$p.json" && check "$p: w = A x + b agrees with ipm's (1e-8)" wclose "$T/$p.json" "$T/xp.mtx" "$T/ref.mtx"
done

# a box blcp (x unique): pivot = pgs
solve "box blcp n=300" "$T/box300.json" && ref pgs "$T/box300.json" &&
    check "box blcp n=300: pivot = pgs (1e-7)" "$LCP" -s pivot -t 1e-10 --quiet --reference "$T/ref.mtx" \
        --ref-tol 1e-7 "$T/box300.json"
# findex friction on a dense singular A: the bounds' fixed point to 1e-10
solve "findex friction, 100 contacts on 40 bodies (300 rows)" "$T/fric100.json"
solve "findex friction, 300 contacts on 120 bodies (900 rows)" "$T/fric300.json"
# a non-symmetric P-matrix (A's columns, no permutation): pivot = lemke
solve "P-matrix n=200" "$T/pmat200.json" && ref lemke "$T/pmat200.json" &&
    check "P-matrix n=200: pivot = lemke (1e-7)" "$LCP" -s pivot -t 1e-10 --quiet --reference "$T/ref.mtx" \
        --ref-tol 1e-7 "$T/pmat200.json"

# from scratch without an answer (tol out of reach): the crash start tried after all, then from
# scratch again; the answer judged, at rounding
"$LCP" -s pivot -t 1e-18 --json "$T/spd300.json" >"$T/out" 2>&1; rc=$?
check "tol 1e-18: exit 1 (exit $rc)" [ $rc -eq 1 ]
check "tol 1e-18: the crash start tried after the pivots from scratch" grep -q 'pivots from the crash start' "$T/out"
check "tol 1e-18: the answer's residual at rounding (<= 1e-13)" python3 -c \
    "import json, sys; sys.exit(0 if json.load(open('$T/out'))['residual'] <= 1e-13 else 1)"

# with and without a trace (w afresh each pivot, or along the steps): the same answer
for p in spd300 psd200 pmat200; do
    "$LCP" -s pivot -t 1e-10 --quiet -o "$T/x1.mtx" "$T/$p.json"
    "$LCP" -s pivot -t 1e-10 --json -o "$T/x2.mtx" --trace "$T/tr.csv" "$T/$p.json" >"$T/out" 2>&1; rc=$?
    check "$p with a trace: solved (exit $rc)" [ $rc -eq 0 ]
    case $p in
    psd*) check "$p: the same w with and without a trace (1e-8)" wclose "$T/$p.json" "$T/x1.mtx" "$T/x2.mtx" ;;
    *) check "$p: the same x with and without a trace (1e-9)" "$LCP" -s pivot -t 1e-10 --quiet \
        --reference "$T/x2.mtx" --ref-tol 1e-9 "$T/$p.json" ;;
    esac
done
finish
