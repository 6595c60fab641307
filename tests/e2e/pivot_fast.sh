#!/bin/sh
# tests/e2e/pivot_fast.sh: pivot's per-solve path on small dense problems
# (2-100 unknowns) -- the one workspace, the monitor's checks by contiguous
# dots on an A of full rows, the block symmetry test of the dense copy, the
# factor's vector moves, the start note written without a format.  Random
# problems written here (seeded), at the sizes around the kernels' steps
# of four: symmetric positive definite lcps against lemke (x unique:
# --ref-tol 1e-7), box blcps against pgs, findex friction blcps (dense
# random contacts) solved to 1e-10 with the residual recomputed here from
# the bounds at x; non-symmetric P-matrix lcps (the general solve) against
# lemke; an lcp whose dense A stores no explicit zeros (rows not
# full: the monitor's CSR walk) against lemke; the monitor's own check
# (--time-limit, --trace, --reg take it) giving the same pivots and the
# same x to the bit as the contiguous one; the start note's text.  Run
# from the repository root: sh tests/e2e/pivot_fast.sh.  Ends with "N
# passed, N failed, N skipped".
. tests/lib.sh
if ! python3 -c 'import numpy' 2>/dev/null; then
    skip "pivot_fast: numpy missing (python3-numpy)"; finish; exit
fi
SIZES="2 3 4 5 7 8 9 13 16 17 31 32 33 63 64 100"
python3 - "$T" "$SIZES" <<'P'
import json, sys
import numpy as np
d, sizes = sys.argv[1], [int(s) for s in sys.argv[2].split()]
rng = np.random.default_rng(11)
def put(name, A, b, **kw):
    o = {"kind": kw.pop("kind", "lcp"), "A": A.tolist(), "b": b.tolist()}
    for k, v in kw.items():
        o[k] = [("inf" if x == np.inf else "-inf" if x == -np.inf else x) for x in np.asarray(v).tolist()]
    json.dump(o, open(f"{d}/{name}.json", "w"))
for n in sizes:
    B = rng.standard_normal((n, n))
    A = B @ B.T + 0.1 * n * np.eye(n)               # SPD, dense
    put(f"spd{n}", A, rng.standard_normal(n))
    lo = -rng.uniform(0, 1, n); hi = rng.uniform(0, 1, n)
    lo[::3] = -np.inf; hi[1::3] = np.inf             # some one-sided rows
    put(f"box{n}", A, 3 * rng.standard_normal(n), kind="blcp", lo=lo, hi=hi)
    Z = A.copy()                                     # zeros off the diagonal, kept SPD by the diagonal
    mask = rng.uniform(0, 1, (n, n)) < 0.3
    mask = np.triu(mask, 1); mask = mask | mask.T
    Z[mask] = 0.0
    np.fill_diagonal(Z, np.abs(Z).sum(1) + 0.5)
    put(f"zero{n}", Z, rng.standard_normal(n))
    P = rng.uniform(-1, 1, (n, n))                   # row diagonally dominant: a P-matrix, not symmetric
    np.fill_diagonal(P, np.abs(P).sum(1) + 0.5)
    put(f"pmat{n}", P, rng.standard_normal(n))
for c in (1, 3, 7, 11, 20):                          # 3 rows a contact, dense random contacts
    bodies = c                                       # 6 c freedoms > 3 c rows: A = J J' SPD
    J = rng.standard_normal((3 * c, 6 * bodies))
    A = J @ J.T / bodies
    b = J @ rng.standard_normal(6 * bodies) - 0.5
    b[0::3] -= 1.0                                    # pressed together
    lo = np.zeros(3 * c); hi = np.zeros(3 * c); hi[0::3] = np.inf
    findex = np.full(3 * c, -1); mu = np.zeros(3 * c)
    for k in range(c):
        findex[3 * k + 1] = findex[3 * k + 2] = 3 * k
        mu[3 * k + 1] = mu[3 * k + 2] = 0.5
    put(f"fric{c}", A, b, kind="blcp", lo=lo, hi=hi, findex=findex, mu=mu)
P
field() { python3 -c "import json,sys; v=json.load(open(sys.argv[2])).get(sys.argv[1]); print('' if v is None else v)" "$1" "$2"; }

# agree NAME REF PROBLEM: REF to 1e-12, pivot to 1e-10 agreeing to 1e-7
agree() {
    if ! "$LCP" -s "$2" -t 1e-12 -n 10000000 --quiet -o "$T/ref.mtx" "$3" 2>"$T/err"; then
        bad "$1: the reference ($2) fails: $(head -c 200 "$T/err")"; return
    fi
    "$LCP" -s pivot -t 1e-10 --json --reference "$T/ref.mtx" --ref-tol 1e-7 "$3" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 0 ]; then ok "$1: pivot = $2 ($(field iterations "$T/out") pivots)"
    else bad "$1: pivot exit $rc: $(field message "$T/out") $(head -c 200 "$T/err")"; fi
}
for n in $SIZES; do
    agree "spd lcp n=$n" lemke "$T/spd$n.json"
    agree "box blcp n=$n" pgs "$T/box$n.json"
    agree "lcp n=$n, zeros not stored" lemke "$T/zero$n.json"
    agree "P-matrix lcp n=$n (not symmetric)" lemke "$T/pmat$n.json"
done

# findex friction: solved to 1e-10, the residual recomputed here (bounds -+mu x_normal at x)
fres() {
    python3 - "$1" "$2" <<'P'
import json, sys
import numpy as np
o = json.load(open(sys.argv[1]))
A, b = np.array(o["A"], float), np.array(o["b"], float)
lo, hi = np.array(o["lo"], float), np.array([np.inf if v == "inf" else v for v in o["hi"]], float)
lines = [l for l in open(sys.argv[2]) if l.strip() and not l.startswith("%")]
x = np.array([float(l) for l in lines[1:]])
for i, j in enumerate(o["findex"]):
    if j >= 0:
        lo[i], hi[i] = -o["mu"][i] * abs(x[j]), o["mu"][i] * abs(x[j])
w = A @ x + b
r = np.max(np.abs(x - np.clip(x - w, lo, hi))) / max(1.0, np.max(np.abs(b)))
sys.exit(0 if r <= 1e-9 else 1)
P
}
for c in 1 3 7 11 20; do
    "$LCP" -s pivot -t 1e-10 --json -o "$T/x.mtx" "$T/fric$c.json" >"$T/out" 2>"$T/err"; rc=$?
    check "findex friction, $c contacts: solved to 1e-10 (exit $rc: $(field message "$T/out"))" [ $rc -eq 0 ]
    check "findex friction, $c contacts: the residual from the bounds at x <= 1e-9" fres "$T/fric$c.json" "$T/x.mtx"
done

# the monitor's own check (a time limit makes it read the clock, so pivot leaves the check to it): the same
# pivots and the same x to the bit as the contiguous dots of a full-row A
for p in spd7 spd32 spd64 box33 fric7 zero17; do
    "$LCP" -s pivot -t 1e-10 --json -o "$T/x1.mtx" "$T/$p.json" >"$T/out1" 2>&1
    "$LCP" -s pivot -t 1e-10 --json -o "$T/x2.mtx" --time-limit 1000 "$T/$p.json" >"$T/out2" 2>&1
    check "$p: the same pivots with the monitor's check ($(field iterations "$T/out1"))" \
        [ "$(field iterations "$T/out1")" = "$(field iterations "$T/out2")" ]
    check "$p: the same x to the bit with the monitor's check" cmp -s "$T/x1.mtx" "$T/x2.mtx"
    check "$p: the same residual with the monitor's check" [ "$(field residual "$T/out1")" = "$(field residual "$T/out2")" ]
done
# a trace (every pivot checked) and --reg (w of A + reg I) take the monitor's path too: solved
for p in spd32 box33 fric7; do
    "$LCP" -s pivot -t 1e-10 --quiet --trace "$T/tr.csv" "$T/$p.json"; rc=$?
    check "$p with a trace: solved (exit $rc)" [ $rc -eq 0 ]
    "$LCP" -s pivot -t 1e-10 --quiet --reg 1e-12 "$T/$p.json"; rc=$?
    check "$p with --reg 1e-12: solved (exit $rc)" [ $rc -eq 0 ]
done

# the start note, written without a format: the number and the text around it
"$LCP" -s pivot --json "$T/spd7.json" >"$T/out" 2>&1
check "n = 7: the note" [ "$(field message "$T/out")" = "from scratch (no crash start: n = 7, where ipm's guess costs more than the pivots)" ]
"$LCP" -s pivot --json "$T/spd100.json" >"$T/out" 2>&1
check "n = 100: the note" [ "$(field message "$T/out")" = "from scratch (no crash start: n = 100, where ipm's guess costs more than the pivots)" ]
"$LCP" -s pivot -n 2 --json "$T/spd64.json" >"$T/out" 2>&1; rc=$?
check "-n 2: exit 1 (max_iter), the note kept" \
    sh -c "[ $rc -eq 1 ] && grep -q 'from scratch (no crash start: n = 64, where' '$T/out'"
"$LCP" -s pivot --json "$T/pmat9.json" >"$T/out" 2>&1
check "not symmetric: the note" [ "$(field message "$T/out")" = "from scratch (no crash start: A is not symmetric)" ]
finish
