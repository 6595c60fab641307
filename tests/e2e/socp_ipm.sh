#!/bin/sh
# tests/e2e/socp_ipm.sh: the second-order-cone interior-point solver
# (-s socp-ipm, src/solvers/socp_ipm.c) end to end, on ccp problems.  Run
# from the repository root: sh tests/e2e/socp_ipm.sh.
# - generated scenes: pyramid --base 5 (W singular), column --bodies 20,
#   pyramid --base 16 (1,024 contacts), pyramid with mu = 0 and with mixed
#   mu (some contacts 0): 1e-10 with exit 0, checked by the independent
#   checker, u (--output-w) equal to nsgs's u at 1e-10 (r need not be
#   unique when W is singular; u is), docs/contract.md's residual recomputed here
#   in Python, iteration counts within 60;
# - the Siconos fc3d files read as ccp (--kind ccp): 1e-10, exit 0 (the
#   non-symmetric W of Rover and Capsules through UMFPACK);
# - hand-made problems: no solution (exit 3, the certificate in the
#   message), not positive semidefinite (exit 5);
# - refusals: lcp and fc3d problems (exit 2); trace columns; limits.
# Ends with "N passed, N failed".
. tests/lib.sh
DATA=$SICONOS_DATA/fc3d
MAXIT=60
have_python=0; command -v python3 >/dev/null 2>&1 && have_python=1
run() { # run NAME EXPECTED_EXIT ARGS...
    name=$1; want=$2; shift 2
    "$LCP" "$@" >"$T/out" 2>"$T/err"; got=$?
    if [ "$got" -eq "$want" ]; then ok "$name (exit $got)"; else bad "$name: exit $got, expected $want: $(head -c 300 "$T/out" "$T/err")"; fi
}
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }
# udiff U1 U2 Q: |u1 - u2|_2 / max(|q|_2, |u2|_2, |u1|_2)
udiff() {
    python3 - "$1" "$2" "$3" <<'PY'
import math, sys
def vec(path):
    rows = [l for l in open(path) if not l.startswith('%') and l.strip()]
    return [float(x) for x in rows[1:]]
a, b, q = (vec(p) for p in sys.argv[1:4])
n2 = lambda v: math.sqrt(sum(x * x for x in v))
print("%.3e" % (n2([x - y for x, y in zip(a, b)]) / max(n2(q), n2(b), n2(a), 1e-300)))
PY
}

# ccp_residual A B MU R: docs/contract.md's ccp residual of r, computed here with
# the Matrix Market readers of tests/check_residual.py (none of lcpsolve's code)
ccp_residual() {
    python3 - "$@" <<'PY'
import math, sys
sys.path.insert(0, "tests")
from check_residual import read_mtx, read_vector
_, _, a = read_mtx(sys.argv[1])
q, mu, r = (read_vector(p) for p in sys.argv[2:5])
u = list(q)
for i, j, v in a:
    u[i] += v * r[j]
def proj(m, x):  # onto ||x_T|| <= m x_n
    n, t = x[0], math.hypot(x[1], x[2])
    if t <= m * n: return list(x)
    if m * t <= -n: return [0.0, 0.0, 0.0]
    pn = (n + m * t) / (1 + m * m)
    return [pn, x[1] * m * pn / t, x[2] * m * pn / t]
e2 = 0.0
for c in range(len(mu)):
    rc, uc = r[3 * c:3 * c + 3], u[3 * c:3 * c + 3]
    p = proj(mu[c], [rc[k] - uc[k] for k in range(3)])
    e2 += sum((rc[k] - p[k]) ** 2 for k in range(3))
n2 = lambda v: math.sqrt(sum(x * x for x in v))
print("%.3e" % (math.sqrt(e2) / max(n2(q), n2(r), n2(u), 1e-300)))
PY
}

if ! "$LCP" --list-solvers | grep -q '^socp-ipm '; then
    bad "socp-ipm is not in --list-solvers"; finish; exit 1
fi
ok "socp-ipm listed"

# solve NAME DIR_OR_FILE [ARGS]: socp-ipm to 1e-10, exit 0, iterations <= MAXIT,
# and (for folders) the independent checker; u in $T/u.mtx
solve() {
    name=$1; prob=$2; shift 2
    run "socp-ipm solves $name to 1e-10" 0 -s socp-ipm -t 1e-10 --json -o "$T/r.mtx" --output-w "$T/u.mtx" "$@" "$prob"
    [ $have_python -eq 1 ] || return
    it=$(json_field iterations)
    if [ -n "$it" ] && [ "$it" -le $MAXIT ]; then ok "$name: $it iterations (<= $MAXIT)"; else bad "$name: $it iterations (> $MAXIT)"; fi
    if [ -d "$prob" ] && [ -f "$prob/A.mtx" ]; then
        res=$(ccp_residual "$prob/A.mtx" "$prob/b.mtx" "$prob/mu.mtx" "$T/r.mtx")
        if le "$res" 1e-9; then ok "$name: independent ccp residual $res <= 1e-9"
        else bad "$name: the independent ccp residual is $res"; fi
    fi
}
# agree NAME DIR_OR_FILE [ARGS]: u of socp-ipm = u of nsgs (1e-10) within 1e-6
# (relative; the mass-ratio column's conditioning leaves ~2e-7 at residual 1e-10)
agree() {
    name=$1; prob=$2; shift 2
    [ $have_python -eq 1 ] || return
    if ! "$LCP" -s nsgs -t 1e-10 -n 1000000 --quiet --output-w "$T/un.mtx" "$@" "$prob" 2>"$T/err"; then
        skip "$name: nsgs does not reach 1e-10 ($(head -c 100 "$T/err"))"; return
    fi
    "$LCP" -s nsgs -n 0 --quiet --output-w "$T/q.mtx" "$@" "$prob" 2>/dev/null # u at r = 0: q
    d=$(udiff "$T/u.mtx" "$T/un.mtx" "$T/q.mtx")
    if le "$d" 1e-6; then ok "$name: u of socp-ipm = u of nsgs (relative difference $d)"
    else bad "$name: u of socp-ipm differs from nsgs's: $d > 1e-6"; fi
}

# ------------------------------------------------------ generated scenes
G="$T/gen"; mkdir -p "$G"
"$LCP" generate pyramid --base 5 --mu 0.5 --kind ccp -o "$G/pyr5" >/dev/null 2>&1
"$LCP" generate column --bodies 20 --mu 0.3 --kind ccp -o "$G/col20" >/dev/null 2>&1
"$LCP" generate pyramid --base 16 --mu 0.5 --kind ccp -o "$G/pyr16" >/dev/null 2>&1
"$LCP" generate pyramid --base 5 --mu 0 --kind ccp -o "$G/pyr5mu0" >/dev/null 2>&1
"$LCP" generate column --bodies 20 --mu 0.3 --mass-ratio 100 --kind ccp -o "$G/col20m" >/dev/null 2>&1
# mixed mu: every third contact frictionless
cp -r "$G/pyr5" "$G/pyr5mix"
awk 'BEGIN { k = 0 } /^%/ || !h { print; if (!/^%/) h = 1; next } { k++; print (k % 3 == 0 ? 0 : $1) }' "$G/pyr5/mu.mtx" >"$G/pyr5mix/mu.mtx"
if grep -q '^0$' "$G/pyr5mix/mu.mtx"; then ok "mixed mu file made"; else bad "mixed mu file: no zero"; fi
for sc in pyr5 col20 col20m pyr5mu0 pyr5mix; do
    solve "$sc" "$G/$sc"
    agree "$sc" "$G/$sc"
done
grep -q "mu = 0 contacts as rays" "$T/out" && ok "mixed mu: the rays are named" || bad "mixed mu: $(cat "$T/out")"
solve "pyr16 (1,000 contacts)" "$G/pyr16"
it16=$(json_field iterations)
"$LCP" -s socp-ipm -t 1e-10 --json "$G/pyr5" >"$T/out" 2>/dev/null; it5=$(json_field iterations)
if [ -n "$it5" ] && [ -n "$it16" ] && [ "$it16" -le $((it5 + 10)) ]; then ok "iterations grow little with size ($it5 at 100 contacts, $it16 at 1,000)"
else bad "iterations: $it5 at 100 contacts, $it16 at 1,000"; fi
# (no nsgs comparison on pyr16: nsgs needs ~40 s there; pyr5 covers it)

# ------------------------------------------------- the Siconos collection
if [ ! -d "$DATA" ]; then
    skip "$DATA absent: no Siconos files"
else
    for f in "$DATA"/*.dat "$DATA"/*.hdf5; do
        [ -f "$f" ] || continue
        base=$(basename "$f")
        solve "$base (as ccp)" "$f" --kind ccp
        case $base in BoxesStack1*) continue ;; esac # nsgs needs ~10^5 sweeps there
        agree "$base (as ccp)" "$f" --kind ccp
    done
fi

# ------------------------------------------------ hand-made problems
# W = 0 on the normal: r = t (1, 0, 0) in K, u_n = -1 whatever t: no solution
cat >"$T/nosol.json" <<'J'
{"kind": "ccp", "A": [[0, 0, 0], [0, 1, 0], [0, 0, 1]], "b": [-1, 0, 0], "mu": [0.5]}
J
run "no solution (exact certificate)" 3 -s socp-ipm --json "$T/nosol.json"
[ $have_python -eq 1 ] && { json_field message | grep -q "q'y = -1 < 0" && ok "the certificate is in the message" || bad "message: $(json_field message)"; }
# two contacts pushing each other apart along a null direction of W
cat >"$T/nosol2.json" <<'J'
{"kind": "ccp", "A": [[1, 1, 0, -1, -1, 0], [1, 1, 0, -1, -1, 0], [0, 0, 1, 0, 0, 0], [-1, -1, 0, 1, 1, 0], [-1, -1, 0, 1, 1, 0], [0, 0, 0, 0, 0, 1]], "b": [-1, 0, 0, -1, 0, 0], "mu": [0.5, 0.5]}
J
run "no solution (singular W, two contacts)" 3 -s socp-ipm "$T/nosol2.json"
# contact 2 touches nothing (zero rows of W) and its u = q = (1, 3, 0) is
# outside K*_0.5 (0.5 * 3 > 1): no r helps; y = (1, -0.5, 0) in K certifies
cat >"$T/nosol3.json" <<'J'
{"kind": "ccp", "A": [[2, 0, 0, 0, 0, 0], [0, 2, 0, 0, 0, 0], [0, 0, 2, 0, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]], "b": [-1, 0, 0, 1, 3, 0], "mu": [0.5, 0.5]}
J
run "no solution (an uncoupled contact with q outside K*)" 3 -s socp-ipm "$T/nosol3.json"
# the same with q = (1, 1, 0) inside K*: solved, r_2 = 0
sed 's/1, 3, 0\]/1, 1, 0]/' "$T/nosol3.json" >"$T/uncoupled.json"
run "an uncoupled contact with q inside K*: solved" 0 -s socp-ipm -t 1e-10 "$T/uncoupled.json"
# W indefinite: a negative diagonal entry is refused before the solve (exit
# 2, naming it); a positive diagonal with W indefinite is found during it
cat >"$T/negdiag.json" <<'J'
{"kind": "ccp", "A": [[1, 0, 0], [0, -1, 0], [0, 0, 1]], "b": [-1, 1, 1], "mu": [0.5]}
J
run "W with a negative diagonal: refused" 2 -s socp-ipm --json "$T/negdiag.json"
grep -q "W(2,2) = -1 < 0 (contact 1)" "$T/err" && ok "names W(2,2)" || bad "refusal: $(cat "$T/err")"
cat >"$T/indef.json" <<'J'
{"kind": "ccp", "A": [[1, 2, 0], [2, 1, 0], [0, 0, 1]], "b": [-1, 1, 1], "mu": [0.5]}
J
run "W not positive semidefinite" 5 -s socp-ipm --json "$T/indef.json"
[ $have_python -eq 1 ] && { json_field message | grep -q "not positive semidefinite" && ok "says why" || bad "message: $(json_field message)"; }
# hand-solved slide (ccp): r* = (1, 0.24, 0.32)
cat >"$T/slide.json" <<'J'
{"kind": "ccp", "A": [[2, 0.5, 0.2], [0.5, 1.5, 0.1], [0.2, 0.1, 1]], "b": [-1.384, -2.092, -2.144], "mu": [0.4]}
J
printf '%%%%MatrixMarket matrix array real general\n3 1\n1\n0.24\n0.32\n' >"$T/rslide.mtx"
run "slide: exact r" 0 -s socp-ipm -t 1e-10 --reference "$T/rslide.mtx" --ref-tol 1e-8 "$T/slide.json"

# ------------------------------------------------------------------ refusals
cat >"$T/lcp.json" <<'J'
{"kind": "lcp", "A": [[2, 1], [1, 2]], "b": [-5, -6]}
J
run "refuses an lcp" 2 -s socp-ipm "$T/lcp.json"
grep -q "socp-ipm" "$T/err" && ok "the refusal names the solver" || bad "refusal: $(cat "$T/err")"
run "refuses fc3d" 2 -s socp-ipm "$G/pyr5" --kind fc3d
sed 's/"ccp"/"fc3d"/' "$T/slide.json" >"$T/slide-fc3d.json"
run "refuses an fc3d file" 2 -s socp-ipm "$T/slide-fc3d.json"
run "refuses a preconditioner" 2 -s socp-ipm -p diag "$G/pyr5"

# ------------------------------------------------------- trace and limits
run "trace" 0 -s socp-ipm -t 1e-10 --trace "$T/trace.csv" "$G/pyr5"
if head -n 1 "$T/trace.csv" | grep -q '^iter,time_s,residual,complementarity,feasibility,mu,step,sigma$'; then ok "trace header"
else bad "trace header: $(head -n 1 "$T/trace.csv")"; fi
if [ "$(sed -n 2p "$T/trace.csv" | cut -d, -f1)" = 0 ]; then ok "trace row 0 is the start"; else bad "trace row 0 missing"; fi
if awk -F, 'NR > 2 { if (!($6 > 0) || !($7 > 0 && $7 <= 1) || !($8 >= 0 && $8 <= 1)) bad = 1 } END { exit bad }' "$T/trace.csv"
then ok "trace: mu > 0, step in (0, 1], sigma in [0, 1]"; else bad "trace columns out of range"; fi
run "iteration limit" 1 -s socp-ipm -n 2 -t 1e-10 "$G/pyr5"
run "warm start from the solution: 0 iterations" 0 -s socp-ipm -t 1e-6 --json --warm-start "$T/rslide.mtx" "$T/slide.json"
[ $have_python -eq 1 ] && { [ "$(json_field iterations)" = 0 ] && ok "accepted at iteration 0" || bad "warm start: $(json_field iterations) iterations"; }

finish
