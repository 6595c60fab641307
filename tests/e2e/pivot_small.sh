#!/bin/sh
# tests/e2e/pivot_small.sh: pivot on small and dense problems (1-100
# unknowns), the path game engines and RL environments pay a solve at a
# time (up to 128 unknowns pivot's small path answers first,
# src/solvers/pivot_small.c; the answers below are checked either way, and
# --crash none, which the small path does not take, runs the general path):
# no crash start below its size (the pivots from scratch cost less
# than ipm's guess), no residual a pivot without a trace (limits only, the
# point checked at the end of a pass), A kept dense where it is, and the
# per-solve path (one workspace, the checks by contiguous dots on an A of
# full rows, the block symmetry test of the dense copy, the factor's vector
# moves, the start note written without a format).  Random problems
# written here (seeded), at the sizes around the kernels' steps of four:
# symmetric positive definite lcps against lemke (x unique: --ref-tol
# 1e-7), box blcps against pgs, non-symmetric P-matrix lcps against lemke,
# an lcp whose dense A stores no explicit zeros (rows not full: the
# monitor's CSR walk) against lemke, findex friction blcps (A of random
# contacts, singular where contacts outnumber the bodies' freedoms) solved
# to 1e-10 with the residual recomputed here from the bounds at x; the
# degenerate scenes (a pyramid of boxes, redundant contact points) solved to
# 1e-10 from scratch; the same answer with and without a trace; the
# monitor's own check (--time-limit, --trace, --reg take it) giving the
# same pivots and the same x to the bit as the contiguous one; the start
# note's text; a warm start still the crash's guess; the iteration limit
# still kept.  Run from the repository root: sh tests/e2e/pivot_small.sh.
# Ends with "N passed, N failed, N skipped".
. tests/lib.sh
if ! python3 -c 'import numpy' 2>/dev/null; then
    skip "pivot_small: numpy missing (python3-numpy)"; finish; exit
fi
SIZES="1 2 3 4 5 7 8 9 13 16 17 20 31 32 33 50 63 64 100 128 150"
FRIC="1 2 3 5 7 10 11 20"
python3 - "$T" "$SIZES" "$FRIC" <<'P'
import json, sys
import numpy as np
d, sizes, frics = sys.argv[1], [int(s) for s in sys.argv[2].split()], [int(s) for s in sys.argv[3].split()]
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
for c in frics:                                      # 3 rows a contact, random contacts
    bodies = c if c % 2 else max(2, c // 3)          # odd: 6 c freedoms > 3 c rows (A = J J' SPD); even: fewer bodies (singular where 3 c > 6 bodies)
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
for c in $FRIC; do
    "$LCP" -s pivot -t 1e-10 --json -o "$T/x.mtx" "$T/fric$c.json" >"$T/out" 2>"$T/err"; rc=$?
    check "findex friction, $c contacts: solved to 1e-10 (exit $rc: $(field message "$T/out"))" [ $rc -eq 0 ]
    check "findex friction, $c contacts: the residual from the bounds at x <= 1e-9" fres "$T/fric$c.json" "$T/x.mtx"
done

# the monitor's own check (a time limit makes it read the clock, so pivot leaves the check to it): the same
# pivots and the same x to the bit as the contiguous dots of a full-row A
for p in spd7 spd32 spd64 box33 fric7 zero17; do
    "$LCP" -s pivot -t 1e-10 --crash none --json -o "$T/x1.mtx" "$T/$p.json" >"$T/out1" 2>&1
    "$LCP" -s pivot -t 1e-10 --crash none --json -o "$T/x2.mtx" --time-limit 1000 "$T/$p.json" >"$T/out2" 2>&1
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

# the start note of the general path, written without a format: the number and the text around it (up to
# 1,024 unknowns the small path (src/solvers/pivot_small.c, tests/unit/test_pivot_small.c) answers, without a
# note -- up to 128 before any set-up, beyond in pivot's solve --; with a trace the general path)
for m in 7 64 100 150; do
    "$LCP" -s pivot --json "$T/spd$m.json" >"$T/out" 2>&1
    check "n = $m: the small path, no note" [ -z "$(field message "$T/out")" ] && [ "$(field status "$T/out")" = solved ]
done
"$LCP" -s pivot --json --trace "$T/tr.csv" "$T/spd150.json" >"$T/out" 2>&1
check "n = 150: the note" [ "$(field message "$T/out")" = "from scratch (no crash start: a dense A, n = 150, where ipm's guess costs more than the pivots)" ]
"$LCP" -s pivot --json --trace "$T/tr.csv" "$T/spd100.json" >"$T/out" 2>&1
check "n = 100 with a trace (the general path): the note" [ "$(field message "$T/out")" = "from scratch (no crash start: n = 100, where ipm's guess costs more than the pivots)" ]
"$LCP" -s pivot -n 2 --json --trace "$T/tr.csv" "$T/spd150.json" >"$T/out" 2>&1; rc=$?
check "-n 2: exit 1 (max_iter), the note kept" \
    sh -c "[ $rc -eq 1 ] && grep -q 'from scratch (no crash start: a dense A, n = 150, where' '$T/out'"
"$LCP" -s pivot --json --trace "$T/tr.csv" "$T/pmat150.json" >"$T/out" 2>&1
check "not symmetric: the note" [ "$(field message "$T/out")" = "from scratch (no crash start: A is not symmetric)" ]
# the general path's message names the start: from scratch below the crash's size or on a dense A, the crash
# above (with a trace); without one the small path, a few block steps
"$LCP" -s pivot --json --trace "$T/tr.csv" "$T/spd150.json" >"$T/out" 2>&1
check "n = 150: from scratch, the reason named" grep -q 'no crash start: a dense A, n = 150' "$T/out"
"$LCP" generate random-spd --size 200 --density 1 -o "$T/spd200" >/dev/null 2>&1
"$LCP" -s pivot --json --trace "$T/tr.csv" "$T/spd200" >"$T/out" 2>&1
check "n = 200, dense: from scratch, the reason named" grep -q "no crash start: a dense A, n = 200" "$T/out"
check "n = 200, dense: solved" [ "$(field status "$T/out")" = solved ]
"$LCP" generate column --bodies 200 -o "$T/col200" >/dev/null 2>&1
"$LCP" -s pivot --json --trace "$T/tr.csv" "$T/col200" >"$T/out" 2>&1
check "n = 200, sparse: the crash start from ipm" grep -q "crash start from ipm's answer" "$T/out"
check "n = 200, sparse: solved" [ "$(field status "$T/out")" = solved ]
for p in "$T/spd200" "$T/col200"; do
    "$LCP" -s pivot --json "$p" >"$T/out" 2>&1
    check "$(basename "$p") without a trace: the small path (no note, at most 5 steps)" \
        sh -c "[ -z \"$(field message "$T/out")\" ] && [ $(field iterations "$T/out") -le 5 ] && [ $(field status "$T/out") = solved ]"
done

# degenerate scenes: rank-deficient (a pyramid of boxes: 4 contacts a face;
# redundant contact points), solved from scratch to 1e-10, residual checked
# independently
scene() {
    "$LCP" generate "$@" -o "$T/sc" >/dev/null 2>&1 || { bad "generate $*"; return; }
    "$LCP" -s pivot -t 1e-10 --json -o "$T/x.mtx" "$T/sc" >"$T/out" 2>"$T/err"; rc=$?
    check "$*: solved to 1e-10 (exit $rc, $(field iterations "$T/out") pivots)" [ $rc -eq 0 ]
    check "$*: from scratch (small), or up to 128 unknowns the small path" \
        sh -c "grep -q 'no crash start' '$T/out' || [ \$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[\"n\"])' '$T/out') -le 128 ]"
    check "$*: independent residual <= 1e-10" indep "$T/sc/A.mtx" "$T/sc/b.mtx" "$T/x.mtx" --max 1e-10
}
scene pyramid --base 2
scene pyramid --base 4
scene pyramid --base 5
scene redundant --bodies 4 --points 3
scene column --bodies 50

# with and without a trace: the same answer (the trace checks every pivot, the plain solve ticks them; both
# by the general path: --crash none, as the small path is not taken with a trace)
for p in spd50 box64 pmat32; do
    "$LCP" -s pivot -t 1e-10 --crash none --json -o "$T/x1.mtx" "$T/$p.json" >"$T/out" 2>&1; a=$(field iterations "$T/out")
    "$LCP" -s pivot -t 1e-10 --crash none --json -o "$T/x2.mtx" --trace "$T/tr.csv" "$T/$p.json" >"$T/out" 2>&1; b=$(field iterations "$T/out")
    check "$p: $b pivots with a trace <= $a without (the trace may stop at tol before the last row)" [ "$b" -le "$a" ]
    check "$p: the same x with and without a trace (1e-9)" "$LCP" -s pivot -t 1e-10 --quiet --reference "$T/x2.mtx" \
        --ref-tol 1e-9 "$T/$p.json"
done
# findex: w's rounding (afresh a pivot with the trace, updated along the steps without) may
# change the path of the bounds' fixed point; both solve
"$LCP" -s pivot -t 1e-10 --trace "$T/tr.csv" --quiet "$T/fric10.json"; rc=$?
check "fric10 with a trace: solved too (exit $rc)" [ $rc -eq 0 ]
# the iteration limit still stops the pivots (exit 1), the answer judged
"$LCP" -s pivot -n 3 --json --trace "$T/tr.csv" "$T/spd150.json" >"$T/out" 2>&1; rc=$?
check "-n 3: exit 1 (max_iter)" [ $rc -eq 1 ]
check "-n 3: 3 pivots" [ "$(field iterations "$T/out")" = 3 ]
# a warm start is still the general path's crash guess (with a trace): at the solution, 0 pivots
"$LCP" -s pivot -t 1e-12 --quiet -o "$T/xs.mtx" "$T/spd150.json"
"$LCP" -s pivot -t 1e-10 --json --trace "$T/tr.csv" --warm-start "$T/xs.mtx" --warm-factor 0.9 "$T/spd150.json" >"$T/out" 2>&1; rc=$?
check "warm start x 0.9: solved (exit $rc)" [ $rc -eq 0 ]
check "warm start: the crash from it" grep -q 'crash start from the warm start' "$T/out"
finish
