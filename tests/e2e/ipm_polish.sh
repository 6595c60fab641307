#!/bin/sh
# tests/e2e/ipm_polish.sh: ipm's dense path and its polish -- primal-dual
# active-set steps on the factored M_BB alone, tried from the start (the
# active set of z = 0, or of the warm start) and after interior-point steps
# -- end to end.
#  - random monotone LCPs written here (A = G G' + delta I, plus a skew part
#    K for the nonsymmetric ones; positive definite, and rank-deficient
#    positive semidefinite), with a solution built in: z_i > 0 = w_i on a
#    third of the rows, z_i = 0 < w_i on another, and z_i = w_i = 0 (a
#    degenerate solution) on the rest; b = w - A z.  ipm --linsolve dense
#    solves each to 1e-12 (checked by tests/check_residual.py); where A is
#    positive definite (one solution) its z matches the built one and
#    lexicolemke's (-s lemke, and Siconos' lcp_lexicolemke where the peer is
#    built) to 1e-10, and ipm --linsolve sparse (the interior-point path
#    alone) to 1e-8; where A is symmetric psd, w (unique there) matches
#    lemke's to 1e-9;
#  - the dense problems of the exact benchmark (random-spd --density 1, n =
#    100 and 300) end in at most 3 iterations (the polish from the start)
#    with lemke's answer to 1e-10;
#  - a warm start near the solution: the polish from its support solves at
#    the first iteration;
#  - contact scenes where the polish cannot finish early (a pyramid and a
#    granular pile: A singular, degenerate) still solve to 1e-10 on the
#    dense path, with the sparse path's w to 1e-8, and a mass-ratio column
#    of 800 contacts (the interior-point steps stall for a while before the
#    solution) solves: the polish candidates shown to the monitor do not
#    count as steps of the stall test;
#  - the verdicts stand: a monotone problem without solution (exit 3) and a
#    non-monotone one (exit 5) on the dense path.
# Run from the repository root: sh tests/e2e/ipm_polish.sh
# Ends with "N passed, N failed"; exit 1 on any failure.
. tests/lib.sh
PEER=build/peer/siconos_lcp
field() { # field NAME: a top-level value of the --json object in $T/out
    python3 -c "import json,sys; v=json.load(open(sys.argv[2])).get(sys.argv[1]); print('' if v is None else v)" "$1" "$T/out"
}
# vdiff A.mtx B.mtx: max |a - b| / max(1, max |b|) of two Matrix Market arrays (comments anywhere before the size)
vdiff() {
    awk 'FNR == 1 { f++; hdr = 1; k = 0 } /^%/ { next } hdr { hdr = 0; next }
         f == 1 { a[++k] = $1 } f == 2 { d = a[++k] - $1; if (d < 0) d = -d; if (d > m) m = d;
                  v = $1 < 0 ? -$1 : $1; if (v > s) s = v }
         END { if (s < 1) s = 1; printf "%.3g\n", m / s }' "$1" "$2"
}
close() { awk -v d="$(vdiff "$1" "$2")" -v t="$3" 'BEGIN { exit !(d <= t) }'; }
have_peer=0
[ -x "$PEER" ] && have_peer=1

# gen DIR N SEED KIND: a random monotone LCP with a built solution (z.mtx)
# KIND: spd (symmetric pd), nspd (nonsymmetric pd), psd (symmetric, rank
# n/2), npsd (nonsymmetric, psd symmetric part of rank n/2)
gen() {
    python3 - "$@" <<'PY'
import os, random, sys
d, n, seed, kind = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rnd = random.Random(seed)
r = n if kind in ("spd", "nspd") else n // 2
G = [[rnd.gauss(0, 1) for _ in range(r)] for _ in range(n)]
delta = 0.1 if kind in ("spd", "nspd") else 0.0
A = [[sum(G[i][k] * G[j][k] for k in range(r)) / r + (delta if i == j else 0.0) for j in range(n)] for i in range(n)]
if kind in ("nspd", "npsd"):
    for i in range(n):
        for j in range(i + 1, n):
            k = 0.5 * rnd.gauss(0, 1)
            A[i][j] += k
            A[j][i] -= k
z = [0.0] * n
w = [0.0] * n
for i in range(n):
    c = i % 3
    if c == 0: z[i] = rnd.uniform(0.5, 2.0)
    elif c == 1: w[i] = rnd.uniform(0.5, 2.0)
    # c == 2: z_i = w_i = 0, degenerate
b = [w[i] - sum(A[i][j] * z[j] for j in range(n)) for i in range(n)]
os.makedirs(d, exist_ok=True)
with open(os.path.join(d, "A.mtx"), "w") as f:
    f.write("%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n" % (n, n, n * n))
    for i in range(n):
        for j in range(n):
            f.write("%d %d %.17g\n" % (i + 1, j + 1, A[i][j]))
for name, v in (("b.mtx", b), ("z.mtx", z)):
    with open(os.path.join(d, name), "w") as f:
        f.write("%%%%MatrixMarket matrix array real general\n%d 1\n" % n)
        for x in v:
            f.write("%.17g\n" % x)
PY
}

# --- random monotone problems with degenerate solutions
for kind in spd nspd psd npsd; do
    for spec in "12 1" "40 2" "100 3"; do
        set -- $spec; n=$1; seed=$2; name=$kind$n; d=$T/$name
        gen "$d" "$n" "$seed" "$kind"
        "$LCP" -s ipm --linsolve dense -t 1e-12 --json -o "$T/x.mtx" --output-w "$T/w.mtx" -A "$d/A.mtx" -b "$d/b.mtx" \
            >"$T/out" 2>"$T/err"; rc=$?
        if [ $rc -ne 0 ]; then bad "$name: ipm dense exit $rc: $(field status) $(field message) $(head -c 200 "$T/err")"; continue; fi
        ok "$name: ipm dense solved to 1e-12 in $(field iterations) iterations"
        check "$name: independent residual <= 1e-12" indep "$d/A.mtx" "$d/b.mtx" "$T/x.mtx" --max 1e-12
        case $kind in
        spd|nspd)
            check "$name: z = the built solution to 1e-10 ($(vdiff "$T/x.mtx" "$d/z.mtx"))" close "$T/x.mtx" "$d/z.mtx" 1e-10
            if "$LCP" -s lemke -t 1e-13 --quiet -o "$T/xl.mtx" -A "$d/A.mtx" -b "$d/b.mtx" 2>/dev/null; then
                check "$name: z = lemke's to 1e-10 ($(vdiff "$T/x.mtx" "$T/xl.mtx"))" close "$T/x.mtx" "$T/xl.mtx" 1e-10
            else bad "$name: lemke does not solve it"; fi
            if [ $have_peer -eq 1 ]; then
                if "$PEER" lemke "$d" "$T/xs.mtx" 1e-13 >/dev/null 2>&1; then
                    check "$name: z = Siconos lexicolemke's to 1e-10 ($(vdiff "$T/x.mtx" "$T/xs.mtx"))" \
                        close "$T/x.mtx" "$T/xs.mtx" 1e-10
                else skip "$name: Siconos lexicolemke does not solve it"; fi
            fi
            if "$LCP" -s ipm --linsolve sparse -t 1e-12 --quiet -o "$T/xsp.mtx" -A "$d/A.mtx" -b "$d/b.mtx" 2>/dev/null; then
                check "$name: dense = sparse path to 1e-8 ($(vdiff "$T/x.mtx" "$T/xsp.mtx"))" close "$T/x.mtx" "$T/xsp.mtx" 1e-8
            else bad "$name: ipm --linsolve sparse does not solve it"; fi ;;
        psd)
            if "$LCP" -s lemke -t 1e-13 --quiet --output-w "$T/wl.mtx" -A "$d/A.mtx" -b "$d/b.mtx" 2>/dev/null; then
                check "$name: w = lemke's to 1e-9 ($(vdiff "$T/w.mtx" "$T/wl.mtx"))" close "$T/w.mtx" "$T/wl.mtx" 1e-9
            else skip "$name: lemke does not solve it"; fi ;;
        esac
    done
done

# --- the exact benchmark's dense problems: the polish from the start ends it
for spec in "100 1" "300 2"; do
    set -- $spec; d=$T/spd-dense-$1
    "$LCP" generate random-spd --size "$1" --density 1 --cond 1e4 --seed "$2" -o "$d" >/dev/null 2>&1
    "$LCP" -s lemke -t 1e-13 --quiet -o "$T/xl.mtx" "$d" 2>/dev/null
    "$LCP" -s ipm -t 1e-10 --json -o "$T/x.mtx" "$d" >"$T/out" 2>"$T/err"; rc=$?
    it=$(field iterations)
    if [ $rc -eq 0 ] && [ "$it" -le 3 ]; then ok "spd-dense-$1: solved in $it iterations (<= 3)"
    else bad "spd-dense-$1: exit $rc, $it iterations: $(field message)"; fi
    check "spd-dense-$1: = lemke to 1e-10 ($(vdiff "$T/x.mtx" "$T/xl.mtx"))" close "$T/x.mtx" "$T/xl.mtx" 1e-10
    check "spd-dense-$1: message names dense Cholesky" sh -c "grep -q 'dpotrf' '$T/out'"
done

# --- a warm start near the solution: the polish from its support
d=$T/spd-dense-300
"$LCP" -s ipm -t 1e-10 --json --warm-start "$T/xl.mtx" --warm-factor 0.9 -o "$T/x.mtx" "$d" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(field iterations)" = 1 ]; then ok "warm start x 0.9: solved at iteration 1"
else bad "warm start x 0.9: exit $rc, $(field iterations) iterations"; fi
check "warm start: = lemke to 1e-10" close "$T/x.mtx" "$T/xl.mtx" 1e-10

# --- contact scenes where the polish cannot end it early
"$LCP" generate pyramid --base 8 -o "$T/pyr" >/dev/null 2>&1
"$LCP" generate granular --base 6 --layers 4 -o "$T/gran" >/dev/null 2>&1
"$LCP" generate mass-ratio --bodies 800 --ratio 1e6 -o "$T/mr" >/dev/null 2>&1
for name in pyr gran mr; do
    "$LCP" -s ipm --linsolve dense -t 1e-10 --json -o "$T/x.mtx" --output-w "$T/wd.mtx" "$T/$name" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 0 ]; then ok "$name: dense solved to 1e-10 ($(field iterations) iterations)"
    else bad "$name: dense exit $rc: $(field status) $(field message)"; continue; fi
    check "$name: independent residual <= 1e-10" indep "$T/$name/A.mtx" "$T/$name/b.mtx" "$T/x.mtx" --max 1e-10
    if "$LCP" -s ipm --linsolve sparse -t 1e-10 --quiet --output-w "$T/ws.mtx" "$T/$name" 2>/dev/null; then
        check "$name: w dense = sparse to 1e-8 ($(vdiff "$T/wd.mtx" "$T/ws.mtx"))" close "$T/wd.mtx" "$T/ws.mtx" 1e-8
    else bad "$name: sparse does not solve it"; fi
done

# --- verdicts on the dense path
cat >"$T/nosol.json" <<'J'
{"kind": "lcp", "A": [[1, -1], [-1, 1]], "b": [-1, -1]}
J
cat >"$T/indef.json" <<'J'
{"kind": "lcp", "A": [[1, 0.8, 0.8], [0.8, 1, -0.8], [0.8, -0.8, 1]], "b": [-1, -1, -1]}
J
"$LCP" -s ipm --linsolve dense -t 1e-10 --json "$T/nosol.json" >"$T/out" 2>&1; rc=$?
if [ $rc -eq 3 ] && grep -q Farkas "$T/out"; then ok "no solution: exit 3 with a Farkas certificate"
else bad "no solution: exit $rc: $(field message)"; fi
"$LCP" -s ipm --linsolve dense -t 1e-10 --json "$T/indef.json" >"$T/out" 2>&1; rc=$?
if [ $rc -eq 5 ] && grep -q "not positive semidefinite" "$T/out"; then ok "not monotone: exit 5"
else bad "not monotone: exit $rc: $(field message)"; fi

finish
