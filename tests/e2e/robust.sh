#!/bin/sh
# tests/e2e/robust.sh: numerical robustness, determinism and interruption
# end to end.
#   1. NaN/Inf in the input refused at load (exit 2, one line naming the
#      file) in every format: Matrix Market (-A/-b and folders), JSON inline
#      and entries, Siconos .dat (matrix, q, mu), the factored form (NaN in M,
#      A = J M^-1 J' or b = J v overflowing); FCLIB's are in test_fclib.c.
#   2. every solver of --list-solvers on a zero and a negative diagonal
#      (table-driven): exit 2 with one line naming the row (or the real
#      reason: symmetry, no factored form), exit 0 with an answer verified
#      here by an independent residual, or exit 3 with evidence; never a
#      crash, a hang or a wrong "solved".
#   3. divergence stopped by the common monitor: exit 5, status error, the
#      hint "diverged: residual grew from X to Y at iteration K".
#   4. problems without solution: lemke, pivot, ipm, mprgp and socp-ipm
#      prove it (exit 3 with the evidence); no solver says solved.
#   5. mass ratio 1e6 (a column and a heavy-on-light pyramid) by the solvers
#      that claim it; --reg EPS reports the ORIGINAL problem's residual.
#   6. determinism: every solver twice, the same bits (-o and --json minus
#      times); -j 1 = -j 2 for jacobi, colour-ordered sweeps, batch,
#      --decompose.
#   7. SIGINT/SIGTERM and --time-limit: exit 1, -o whole and at its reported
#      residual (the best iterate), the trace complete.
# Run from the repository root: sh tests/e2e/robust.sh.
. tests/lib.sh
field() { python3 -c "import json,sys; v=json.load(open(sys.argv[2])).get(sys.argv[1]); print('' if v is None else v)" "$1" "$2"; }
one_line() { [ "$(wc -l <"$1")" -eq 1 ]; }

# chk.py PROBLEM.json X.mtx MAX: the residual of docs/contract.md from the JSON's
# inline data (A, or M J v), standard library only; exit 1 above MAX
cat >"$T/chk.py" <<'PY'
import json, math, sys
P = json.load(open(sys.argv[1]))
def vec(path):
    vals = [ln for ln in open(path) if ln.strip() and not ln.startswith('%')]
    return [float(t) for ln in vals[1:] for t in ln.split()]
x = vec(sys.argv[2]); mx = float(sys.argv[3])
if 'A' in P:
    A, b = P['A'], P['b']
else:  # factored: A = J M^-1 J', b = J v (M diagonal here)
    M, J, v = P['M'], P['J'], P['v']
    A = [[sum(J[i][k] * J[j][k] / M[k][k] for k in range(len(M))) for j in range(len(J))] for i in range(len(J))]
    b = [sum(J[i][k] * v[k] for k in range(len(v))) for i in range(len(J))]
n = len(b)
w = [sum(A[i][j] * x[j] for j in range(n)) + b[i] for i in range(n)]
kind = P.get('kind', 'lcp')
if kind == 'lcp':
    r = max(abs(min(x[i], w[i])) for i in range(n)) / max(1.0, max(abs(t) for t in b))
else:
    def proj(mu, r):
        rn, nt = r[0], math.hypot(r[1], r[2])
        if nt <= mu * rn: return list(r)
        if mu * nt <= -rn: return [0.0, 0.0, 0.0]
        pn = (rn + mu * nt) / (1 + mu * mu); s = mu * pn / nt
        return [pn, r[1] * s, r[2] * s]
    e2 = 0.0
    for c, mu in enumerate(P['mu']):
        ri, ui = x[3*c:3*c+3], list(w[3*c:3*c+3])
        if kind == 'fc3d': ui[0] += mu * math.hypot(ui[1], ui[2])
        z = proj(mu, [ri[k] - ui[k] for k in range(3)])
        e2 += sum((ri[k] - z[k]) ** 2 for k in range(3))
    nrm = lambda v: math.sqrt(sum(t * t for t in v))
    d = max(nrm(b), nrm(x), nrm(w))
    r = math.sqrt(e2) / (d if d > 0 else 1.0)
print(r)
sys.exit(0 if r <= mx and not math.isnan(r) else 1)
PY
chk() { python3 "$T/chk.py" "$@" >"$T/chk" 2>&1; }

# ---------------------------------------------------------------- 1. load
mtxv() { f=$1; shift; { echo '%%MatrixMarket matrix array real general'; echo "$# 1"; for v in "$@"; do echo "$v"; done; } >"$f"; }
mtxc() { f=$1; n=$2; shift 2; { echo '%%MatrixMarket matrix coordinate real general'; echo "$n $n $n"; i=1; for v in "$@"; do echo "$i $i $v"; i=$((i + 1)); done; } >"$f"; }
mkdir -p "$T/ld" "$T/fm" "$T/fv" "$T/fa" "$T/fb"
mtxc "$T/ld/A.mtx" 2 1 2; mtxc "$T/ld/A_nan.mtx" 2 1 nan
mtxv "$T/ld/b.mtx" -1 -1; mtxv "$T/ld/b_inf.mtx" -1 inf; mtxv "$T/ld/b_big.mtx" -1 1e400; mtxv "$T/ld/b_minf.mtx" -Infinity 1
printf '{"kind": "lcp", "A": [[1, 0], [0, 2]], "b": [-1, 1e999]}\n' >"$T/ld/inf.json"
printf '{"kind": "lcp",\n "A": {"size": [2, 2], "entries": [[0, 0, 1], [1, 1, -1e999]]},\n "b": [-1, 1]}\n' >"$T/ld/entries.json"
printf '{"kind": "lcp", "A": [[1, 0], [0, NaN]], "b": [-1, 1]}\n' >"$T/ld/nan.json"
printf '2\n0 2 2\n2 2\n1 0\n0 nan\n-1 -1\n' >"$T/ld/A_nan.dat"
printf '2\n0 2 2\n2 2\n1 0\n0 1\n-1 inf\n' >"$T/ld/q_inf.dat"
printf '3 1\n0 3 3\n3 3\n1 0 0\n0 1 0\n0 0 1\n-1 0 0\nnan\n' >"$T/ld/mu_nan.dat"
mtxc "$T/fm/M.mtx" 1 nan; mtxc "$T/fm/J.mtx" 1 1; mtxv "$T/fm/v.mtx" -1
mtxc "$T/fv/M.mtx" 1 1; mtxc "$T/fv/J.mtx" 1 1; mtxv "$T/fv/v.mtx" -inf
mtxc "$T/fa/M.mtx" 1 1e-300; mtxc "$T/fa/J.mtx" 1 1e10; mtxv "$T/fa/v.mtx" -1
mtxc "$T/fb/M.mtx" 1 1; mtxc "$T/fb/J.mtx" 1 1e150; mtxv "$T/fb/v.mtx" -1e200
# refuse NAME WORDS FILE-IN-MESSAGE ARGS...
refuse() {
    r_name=$1; r_words=$2; r_file=$3; shift 3
    timeout 30 "$LCP" "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 2 ] && one_line "$T/err" && grep -q "^lcpsolve: $r_file" "$T/err" && grep -q "$r_words" "$T/err"; then
        ok "load: $r_name refused: $(cat "$T/err")"
    else
        bad "load: $r_name: exit $rc, $(head -c 300 "$T/err")"
    fi
}
refuse "mtx A NaN" "A_nan.mtx:4: value is not finite" "$T/ld/A_nan.mtx" -A "$T/ld/A_nan.mtx" -b "$T/ld/b.mtx"
refuse "mtx b Inf" "b_inf.mtx:4: value is not finite" "$T/ld/b_inf.mtx" -A "$T/ld/A.mtx" -b "$T/ld/b_inf.mtx"
refuse "mtx b -Infinity" "b_minf.mtx:3: value is not finite" "$T/ld/b_minf.mtx" -A "$T/ld/A.mtx" -b "$T/ld/b_minf.mtx"
refuse "mtx b 1e400 (overflow)" "b_big.mtx:4: value is not finite" "$T/ld/b_big.mtx" -A "$T/ld/A.mtx" -b "$T/ld/b_big.mtx"
refuse "json inline b 1e999" "inf.json:1: b\[2\] is not finite" "$T/ld/inf.json" "$T/ld/inf.json"
refuse "json entries -1e999" "entries.json:2: A(2,2) is not finite" "$T/ld/entries.json" "$T/ld/entries.json"
refuse "json NaN token" "nan.json:1: invalid JSON" "$T/ld/nan.json" "$T/ld/nan.json"
refuse "dat matrix nan" "A_nan.dat:5: a matrix value is not a finite number" "$T/ld/A_nan.dat" "$T/ld/A_nan.dat"
refuse "dat q inf" "q_inf.dat:6: a value of q is not a finite number" "$T/ld/q_inf.dat" "$T/ld/q_inf.dat"
refuse "dat mu nan" "mu_nan.dat:8: a value of mu is not a finite number" "$T/ld/mu_nan.dat" "$T/ld/mu_nan.dat"
refuse "folder b NaN" "not finite" "tests/bad/folder_nan_b" tests/bad/folder_nan_b
refuse "factored M NaN" "M.mtx:3: value is not finite" "$T/fm/M.mtx" "$T/fm"
refuse "factored -v -inf" "v.mtx:3: value is not finite" "$T/fv/v.mtx" -M "$T/fv/M.mtx" -J "$T/fv/J.mtx" -v "$T/fv/v.mtx"
refuse "factored A = J M^-1 J' overflows" "A = J M^-1 J' overflows at (1,1)" "$T/fa/J.mtx" "$T/fa"
refuse "factored b = J v overflows" "b = J v + e overflows in row 1" "$T/fb/v.mtx" "$T/fb"

# ------------------------------------------------ 2. zero/negative diagonal
# zd: symmetric psd, row 1 zero (x1 = 0); zd2: monotone, not symmetric, the
# zero-diagonal row coupled (x = (3, 1, 1)); nd: A(1,1) = -1 (x1 = 0 or 1);
# friction: contact 1 has W_nn = 0 or -1; zdm: the factored form with a zero
# row of J (si works on M, J, v; no factored form has a negative diagonal)
cat >"$T/zd.json" <<'J'
{"kind": "lcp", "A": [[0, 0, 0], [0, 2, -1], [0, -1, 2]], "b": [1, -1, -1]}
J
cat >"$T/zd2.json" <<'J'
{"kind": "lcp", "A": [[0, 1, 0], [-1, 2, 0], [0, 0, 1]], "b": [-1, 1, -1]}
J
cat >"$T/nd.json" <<'J'
{"kind": "lcp", "A": [[-1, 0, 0], [0, 2, -1], [0, -1, 2]], "b": [1, -1, -1]}
J
cat >"$T/zdm.json" <<'J'
{"kind": "lcp", "M": [[1, 0, 0], [0, 2, 0], [0, 0, 1]], "J": [[0, 0, 0], [0, 1, 0], [0, 1, 1]], "v": [0, -1, -1]}
J
for k in ccp fc3d; do
    for d in 0 -1; do
        cat >"$T/diag$d-$k.json" <<J
{"kind": "$k", "mu": [0.5, 0.5],
 "A": [[$d, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0],
       [0, 0, 0, 2, 0.5, 0], [0, 0, 0, 0.5, 2, 0], [0, 0, 0, 0, 0, 2]],
 "b": [1, 0.3, 0, -1, 0.2, 0.1]}
J
    done
done
# judge SOLVER PROBLEM WHAT ROWPATTERN
judge() {
    j_s=$1; j_p=$2; j_what=$3; j_row=$4
    rm -f "$T/x.mtx"
    timeout 60 "$LCP" -s "$j_s" --time-limit 5 -n 200000 --json -o "$T/x.mtx" "$j_p" >"$T/out" 2>"$T/err"; rc=$?
    case $rc in
    0) if chk "$j_p" "$T/x.mtx" 1e-8; then ok "diag: $j_s $j_what: solved, verified here ($(cat "$T/chk"))"
       else bad "diag: $j_s $j_what: exit 0 with a wrong answer (residual here $(cat "$T/chk"))"; fi ;;
    2) if one_line "$T/err" && grep -qE "$j_row" "$T/err"; then ok "diag: $j_s $j_what: refused: $(cat "$T/err")"
       else bad "diag: $j_s $j_what: exit 2 without the reason: $(head -c 300 "$T/err")"; fi ;;
    3) if [ -n "$(field message "$T/out")" ]; then ok "diag: $j_s $j_what: no solution, evidence: $(field message "$T/out" | head -c 120)"
       else bad "diag: $j_s $j_what: exit 3 without evidence"; fi ;;
    124) bad "diag: $j_s $j_what: hangs (killed after 60 s despite --time-limit 5)" ;;
    *) bad "diag: $j_s $j_what: exit $rc ($(field status "$T/out"): $(field message "$T/out" | head -c 200)) $(head -c 200 "$T/err")" ;;
    esac
}
nsolvers=0
for s in $("$LCP" --list-solvers | awk '{print $1}'); do
    nsolvers=$((nsolvers + 1))
    kinds=$("$LCP" --list-solvers | awk -v s="$s" '$1 == s {print $2}')
    row1='A\(1,1\) = 0|row 1|contact 1'
    rown='A\(1,1\) = -1|row 1|contact 1'
    case $kinds in
    lcp*|blcp*)
        if [ "$s" = si ]; then
            judge si "$T/zdm.json" "zero diagonal (factored)" "$row1"
            judge si "$T/nd.json" "negative diagonal (A only)" 'needs the factored form'
        else
            judge "$s" "$T/zd.json" "zero diagonal (symmetric)" "$row1"
            judge "$s" "$T/zd2.json" "zero diagonal (coupled, not symmetric)" "$row1|needs a symmetric A"
            judge "$s" "$T/nd.json" "negative diagonal" "$rown"
        fi ;;
    ccp*) judge "$s" "$T/diag0-ccp.json" "zero W_nn (ccp)" "$row1"
          judge "$s" "$T/diag-1-ccp.json" "negative W_nn (ccp)" "$rown" ;;
    *) judge "$s" "$T/diag0-fc3d.json" "zero W_nn (fc3d)" "$row1"
       judge "$s" "$T/diag-1-fc3d.json" "negative W_nn (fc3d)" "$rown" ;;
    esac
done
check "diag: all $nsolvers listed solvers judged" [ "$nsolvers" -ge 20 ]

# ------------------------------------------------------------ 3. divergence
# a non-symmetric A with unit diagonal and large off-diagonal entries:
# Gauss-Seidel-type sweeps blow up (spectral radius >> 1)
python3 - "$T/nonsym.json" <<'PY'
import json, random, sys
random.seed(3); n = 30
A = [[1.0 if i == j else (random.uniform(-3, 3) if random.random() < 0.3 else 0.0) for j in range(n)] for i in range(n)]
json.dump({"kind": "lcp", "A": A, "b": [random.uniform(-1, 1) for _ in range(n)]}, open(sys.argv[1], "w"))
PY
diverge() {
    d_name=$1; shift
    timeout 60 "$LCP" --json --trace "$T/div.csv" -o "$T/x.mtx" "$@" >"$T/out" 2>"$T/err"; rc=$?
    msg=$(field message "$T/out")
    if [ $rc -eq 5 ] && [ "$(field status "$T/out")" = error ] &&
       echo "$msg" | grep -qE '^diverged: residual grew from [0-9.e+-]+ to [0-9.e+-]+ at iteration [0-9]+; try a smaller --omega'; then
        ok "diverge: $d_name: exit 5, $msg"
    else
        bad "diverge: $d_name: exit $rc, status $(field status "$T/out"), message '$msg' $(head -c 200 "$T/err")"
    fi
    # what is written is the best iterate, finite, at the residual reported
    r=$(field residual "$T/out")
    check "diverge: $d_name: -o is the best iterate, finite, at its reported residual" \
        python3 -c "
import math,sys
vals=[l for l in open('$T/x.mtx').read().splitlines() if not l.startswith('%')]
x=[float(t) for t in vals[1:]]
rows=[l.split(',') for l in open('$T/div.csv').read().splitlines()[1:]]
best=min(float(r[2]) for r in rows)  # the trace prints 7 digits
sys.exit(0 if len(x) == 30 and all(map(math.isfinite, x)) and abs(best-$r) <= 1e-6*best else 1)"
}
diverge "psor --omega 1.99" -s psor --omega 1.99 "$T/nonsym.json"
diverge "pgs" -s pgs "$T/nonsym.json"
diverge "sgs" -s sgs "$T/nonsym.json"
diverge "jacobi" -s jacobi "$T/nonsym.json"
# NaN never solves: the residual of a NaN iterate is infinite (unit test
# test_robust covers the monitor's NaN stop and verify's NaN/Inf)

# ----------------------------------------------------- 4. no solution
# lcp: w1 + w2 = -2 < 0 for every x (A psd, singular); ccp/fc3d: the same
# on the normal rows of two contacts
cat >"$T/inf.json" <<'J'
{"kind": "lcp", "A": [[1, -1, 0], [-1, 1, 0], [0, 0, 2]], "b": [-1, -1, -1]}
J
cat >"$T/infc.json" <<'J'
{"kind": "ccp", "mu": [0.5, 0.5],
 "A": [[1,0,0,-1,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[-1,0,0,1,0,0],[0,0,0,0,1,0],[0,0,0,0,0,1]],
 "b": [-1, 0, 0, -1, 0, 0]}
J
sed 's/"ccp"/"fc3d"/' "$T/infc.json" >"$T/inff.json"
for s in lemke pivot ipm mprgp; do
    timeout 60 "$LCP" -s $s --time-limit 5 --json "$T/inf.json" >"$T/out" 2>"$T/err"; rc=$?
    check "infeasible lcp: $s proves it (exit 3 got $rc): $(field message "$T/out" | head -c 100)" \
        [ $rc -eq 3 -a "$(field status "$T/out")" = no_solution ]
done
timeout 60 "$LCP" -s socp-ipm --json "$T/infc.json" >"$T/out" 2>"$T/err"; rc=$?
check "infeasible ccp: socp-ipm proves it (exit 3 got $rc): $(field message "$T/out" | head -c 100)" \
    [ $rc -eq 3 -a "$(field status "$T/out")" = no_solution ]
# every solver: never "solved" on a problem without solution
for s in $("$LCP" --list-solvers | awk '{print $1}'); do
    kinds=$("$LCP" --list-solvers | awk -v s="$s" '$1 == s {print $2}')
    case $kinds in lcp*|blcp*) f=inf ;; ccp*) f=infc ;; *) f=inff ;; esac
    timeout 60 "$LCP" -s "$s" --time-limit 1 -n 20000 --json "$T/$f.json" >"$T/out" 2>"$T/err"; rc=$?
    check "infeasible: $s does not say solved (exit $rc, $(field status "$T/out"))" [ $rc -ne 0 -a $rc -ne 124 -a $rc -lt 128 ]
done

# ------------------------------------------------------ 5. mass ratio 1e6
"$LCP" generate column --bodies 20 --mass-ratio 1e6 -o "$T/col" >/dev/null 2>&1
"$LCP" generate pyramid --base 4 -o "$T/pyr4" >/dev/null 2>&1
# heavy on light: each box row k of the pyramid 1e6^(k/3) heavier (the top
# box 1e6 times the base ones); the folder holds M, J, v: A and b formed here
mkdir -p "$T/hol"
python3 - "$T/pyr4" "$T/hol" <<'PY'
import shutil, sys
src, dst = sys.argv[1], sys.argv[2]; B = 4
rows = [k for k in range(B) for _ in range(B - k)]
for f in ("J.mtx", "v.mtx"): shutil.copy(src + "/" + f, dst)
out, hdr = [], True
for ln in open(src + "/M.mtx").read().splitlines():
    if ln.startswith("%"): out.append(ln); continue
    if hdr: out.append(ln); hdr = False; continue
    i, j, v = ln.split()
    out.append("%s %s %.17g" % (i, j, float(v) * 1e6 ** (rows[(int(i) - 1) // 6] / (B - 1))))
open(dst + "/M.mtx", "w").write("\n".join(out) + "\n")
PY
# A = J M^-1 J' and b = J v of that folder for the independent checker,
# formed here (M diagonal), not by lcpsolve
python3 - "$T/hol" <<'PY'
import sys
d = sys.argv[1]
def rd(p):
    L = [l for l in open(p) if not l.startswith('%') and l.strip()]
    return L[0].split(), [l.split() for l in L[1:]]
(m, n, _), M = rd(d + "/M.mtx"); (jm, jn, _), J = rd(d + "/J.mtx"); _, v = rd(d + "/v.mtx")
minv = {int(i): 1 / float(x) for i, j, x in M if i == j}
v = [float(t[0]) for t in v]; jm = int(jm)
rowsJ = [dict() for _ in range(jm)]
for i, j, x in J: rowsJ[int(i) - 1][int(j)] = float(x)
with open(d + "/Aind.mtx", "w") as f:
    ent = []
    for a in range(jm):
        for b in range(jm):
            s = sum(x * rowsJ[b].get(k, 0.0) * minv[k] for k, x in rowsJ[a].items())
            if s != 0: ent.append((a + 1, b + 1, s))
    f.write("%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n" % (jm, jm, len(ent)))
    for a, b, s in ent: f.write("%d %d %.17g\n" % (a, b, s))
with open(d + "/bind.mtx", "w") as f:
    f.write("%%%%MatrixMarket matrix array real general\n%d 1\n" % jm)
    for a in range(jm): f.write("%.17g\n" % sum(x * v[k - 1] for k, x in rowsJ[a].items()))
PY
# Solved to half the bound the independent check holds the answer to: A
# formed here differs from lcpsolve's by rounding, which the mass ratio
# amplifies (mprgp stopped at 9.998e-9 by its residual once read 1.00004e-8
# here).
massratio() { # NAME FOLDER A b SOLVER-ARGS...
    m_name=$1; m_dir=$2; m_A=$3; m_b=$4; shift 4
    timeout 120 "$LCP" --time-limit 30 -t 5e-9 --json -o "$T/x.mtx" "$@" "$m_dir" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 0 ] && indep "$m_A" "$m_b" "$T/x.mtx" --max 1e-8; then
        ok "mass ratio 1e6: $m_name: $* solved, verified ($(field iterations "$T/out") iterations)"
    else
        bad "mass ratio 1e6: $m_name: $*: exit $rc $(field status "$T/out") $(field residual "$T/out") $(field message "$T/out" | head -c 150)"
    fi
}
for a in "-s ipm" "-s lemke" "-s pivot" "-s newton-fb" "-s newton-min" "-s mprgp -p ichol" "-s pmg"; do
    # shellcheck disable=SC2086
    massratio column "$T/col" "$T/col/A.mtx" "$T/col/b.mtx" $a
    # shellcheck disable=SC2086
    massratio "heavy-on-light pyramid" "$T/hol" "$T/hol/Aind.mtx" "$T/hol/bind.mtx" $a
done
# --reg EPS: the residual reported is the ORIGINAL problem's, whatever the outcome
for a in "-s pgs --reg 1e-6" "-s psor --reg 1e-9" "-s jacobi --reg 1e-3"; do
    # shellcheck disable=SC2086
    timeout 120 "$LCP" --time-limit 5 -n 20000 --json -o "$T/x.mtx" $a "$T/col" >"$T/out" 2>"$T/err"; rc=$?
    r=$(field residual "$T/out")
    here=$(python3 tests/check_residual.py "$T/col/A.mtx" "$T/col/b.mtx" "$T/x.mtx")
    check "--reg: $a: reports the original residual ($r = $here here), of 'original', exit $rc fits it" python3 -c "
import sys
r, h, rc = float('$r'), float('$here'), $rc
sys.exit(0 if abs(r - h) <= 1e-6 * max(r, 1e-300) and '$(field residual_of "$T/out")' == 'original' and (rc == 0) == (r <= 1e-8) else 1)"
done
# --reg makes a zero diagonal solvable for the sweeps; the answer solves the original
timeout 60 "$LCP" -s psor --reg 1e-9 --json -o "$T/x.mtx" "$T/zd.json" >"$T/out" 2>"$T/err"; rc=$?
check "--reg: psor on a zero diagonal (refused without --reg) solves the original (exit $rc)" \
    sh -c "[ $rc -eq 0 ] && python3 '$T/chk.py' '$T/zd.json' '$T/x.mtx' 1e-8 >/dev/null"
"$LCP" -s psor "$T/zd.json" >/dev/null 2>&1; rc=$?
check "--reg: psor without --reg refuses the zero diagonal (exit $rc)" [ $rc -eq 2 ]
"$LCP" -s si --reg 1e-6 "$T/col" >/dev/null 2>"$T/err"; rc=$?
check "--reg: si refuses it (works on M, J, v): exit $rc" [ $rc -eq 2 ]
"$LCP" --reg -1 "$T/col" >/dev/null 2>"$T/err"; rc=$?
check "--reg -1 refused: exit $rc" [ $rc -eq 2 ]

# ------------------------------------------------------- 6. determinism
"$LCP" generate pyramid --base 5 -o "$T/p5" >/dev/null 2>&1
"$LCP" generate pyramid --base 5 --mu 0.5 -o "$T/p5f" >/dev/null 2>&1
"$LCP" generate pyramid --base 5 --mu 0.5 --kind ccp -o "$T/p5c" >/dev/null 2>&1
"$LCP" generate random-spd --size 200 --cond 1e4 --seed 7 -o "$T/spd" >/dev/null 2>&1
"$LCP" generate column --bodies 30 --piles 4 -o "$T/piles" >/dev/null 2>&1
strip() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
for k in list(d):
    if k.endswith('time_s') or k == 'time_s': del d[k]
print(json.dumps(d, sort_keys=True))" "$1"; }
# same NAME ARGS...: two runs, the same -o bits and the same --json minus times
same() {
    s_name=$1; shift
    timeout 120 "$LCP" --time-limit 20 -n 20000 --json -o "$T/d1.mtx" "$@" >"$T/d1.json" 2>/dev/null; rc1=$?
    timeout 120 "$LCP" --time-limit 20 -n 20000 --json -o "$T/d2.mtx" "$@" >"$T/d2.json" 2>/dev/null; rc2=$?
    if [ $rc1 -eq 124 ] || [ ! -s "$T/d1.json" ]; then bad "determinism: $s_name: no answer (exit $rc1)"; return; fi
    if [ "$(field status "$T/d1.json")" = time_limit ]; then skip "determinism: $s_name: hit the time limit"; return; fi
    if [ $rc1 -eq $rc2 ] && cmp -s "$T/d1.mtx" "$T/d2.mtx" && [ "$(strip "$T/d1.json")" = "$(strip "$T/d2.json")" ]; then
        ok "determinism: $s_name: same bits (exit $rc1)"
    else
        bad "determinism: $s_name: runs differ (exit $rc1/$rc2)"
    fi
}
for s in $("$LCP" --list-solvers | awk '{print $1}'); do
    kinds=$("$LCP" --list-solvers | awk -v s="$s" '$1 == s {print $2}')
    case $kinds in
    lcp*|blcp*) same "$s pyramid-5" -s "$s" "$T/p5" ;;
    ccp*) same "$s pyramid-5 ccp" -s "$s" "$T/p5c" ;;
    *) same "$s pyramid-5 fc3d" -s "$s" "$T/p5f" ;;
    esac
done
same "nsgs --shuffle" -s nsgs --shuffle "$T/p5f"
# thread counts: -j 1 and -j 2 give the same bits where promised
threads() {
    t_name=$1; shift
    timeout 120 "$LCP" -j 1 -n 20000 --json -o "$T/j1.mtx" "$@" >"$T/j1.json" 2>/dev/null
    timeout 120 "$LCP" -j 2 -n 20000 --json -o "$T/j2.mtx" "$@" >"$T/j2.json" 2>/dev/null
    a=$(strip "$T/j1.json" | sed 's/"threads\(_used\)\{0,1\}": [0-9]*//g'); b=$(strip "$T/j2.json" | sed 's/"threads\(_used\)\{0,1\}": [0-9]*//g')
    if [ -s "$T/j1.mtx" ] && cmp -s "$T/j1.mtx" "$T/j2.mtx" && [ "$a" = "$b" ]; then ok "threads: $t_name: -j 1 = -j 2, bit for bit"
    else bad "threads: $t_name: -j 1 and -j 2 differ"; fi
}
threads "jacobi" -s jacobi "$T/spd"
threads "pgs --order colour" -s pgs --order colour "$T/p5"
threads "psor --order dsatur" -s psor --order dsatur "$T/spd"
threads "sgs --order colour" -s sgs --order colour "$T/p5"
threads "nsgs --order dsatur" -s nsgs --order dsatur "$T/p5f"
threads "psor --decompose on (4 piles)" -s psor --decompose on "$T/piles"
threads "ipm --decompose on (4 piles)" -s ipm --decompose on "$T/piles"
mkdir -p "$T/envs"
"$LCP" generate pyramid --base 3 --envs 6 -o "$T/envs" >/dev/null 2>&1
for s in pgs ipm lemke; do
    "$LCP" batch -s $s -j 1 -o "$T/b1" --json "$T/envs" >"$T/bj1.json" 2>/dev/null
    "$LCP" batch -s $s -j 2 -o "$T/b2" --json "$T/envs" >"$T/bj2.json" 2>/dev/null
    if [ -n "$(ls "$T/b1" 2>/dev/null)" ] && diff -r "$T/b1" "$T/b2" >/dev/null; then ok "threads: batch -s $s: -j 1 = -j 2 answers, bit for bit"
    else bad "threads: batch -s $s: -j 1 and -j 2 answers differ"; fi
    rm -rf "$T/b1" "$T/b2"
done

# ------------------------------------------------------ 7. interruption
"$LCP" generate column --bodies 2000 -o "$T/long" >/dev/null 2>&1
# the written file: whole (header, size line, n values), finite, and at the
# residual the run reported; the trace: every line with all its fields
whole() { # NAME
    w_name=$1
    r=$(field residual "$T/out")
    here=$(python3 tests/check_residual.py "$T/long/A.mtx" "$T/long/b.mtx" "$T/x.mtx" 2>&1)
    check "$w_name: -o whole, at its reported residual ($r, here $here)" python3 -c "
import math, sys
L = open('$T/x.mtx').read().splitlines()
vals = [l for l in L if not l.startswith('%')]
n = int(vals[0].split()[0]); x = [float(t) for t in vals[1:]]
r, h = float('$r'), float('$here')
sys.exit(0 if len(x) == n == 2000 and all(map(math.isfinite, x)) and abs(r - h) <= 1e-6 * r else 1)"
    check "$w_name: trace complete (header + one full row a iteration, ending in a newline)" python3 -c "
import sys
t = open('$T/t.csv').read()
L = t.splitlines(); k = len(L[0].split(','))
rows = [l.split(',') for l in L[1:]]
ok = t.endswith('\n') and k >= 5 and len(rows) >= 2 and all(len(r) == k for r in rows)
ok = ok and [int(r[0]) for r in rows] == list(range(len(rows)))
# the best iterate is what was written: the lowest residual of the trace
ok = ok and abs(min(float(r[2]) for r in rows) - float('$r')) <= 1e-6 * float('$r')  # 7 digits
sys.exit(0 if ok else 1)"
    check "$w_name: no temporary file left" sh -c "! ls '$T' | grep -q '\.tmp\.'"
}
for sig in INT TERM; do
    for s in pgs psor; do
        rm -f "$T/x.mtx" "$T/t.csv"
        "$LCP" -s $s --omega 1.0 -t 1e-14 -n 100000000 --time-limit 600 --json -o "$T/x.mtx" --trace "$T/t.csv" "$T/long" >"$T/out" 2>"$T/err" &
        pid=$!
        started
        kill -$sig $pid
        wait $pid; rc=$?
        check "SIG$sig $s: exit 1 (got $rc), status time_limit, note interrupted" \
            [ $rc -eq 1 -a "$(field status "$T/out")" = time_limit -a "$(field message "$T/out")" = interrupted ]
        whole "SIG$sig $s"
    done
done
# solvers whose iterations are long: the interrupt is seen within a second
"$LCP" generate random-spd --size 2500 --cond 1e6 --seed 3 -o "$T/big" >/dev/null 2>&1
"$LCP" generate column --bodies 3000 --mass-ratio 1e3 -o "$T/hard" >/dev/null 2>&1
for a in "-s lemke big" "-s ipm --linsolve dense big" "-s newton-fb --linsolve dense big" "-s pivot big" "-s jacobi -j 2 hard" \
         "-s mprgp hard" "-s apgd hard" "-s bb hard" "-s pmg hard" "-s nsgs -j 2 --order colour bigf" "-s admm bigf" \
         "-s pgs -j 2 --decompose on piles2"; do
    f=${a##* }; a=${a% *}
    [ "$f" = bigf ] && [ ! -d "$T/bigf" ] && "$LCP" generate pyramid --base 25 --mu 0.3 -o "$T/bigf" >/dev/null 2>&1 # a big friction pile
    [ "$f" = piles2 ] && "$LCP" generate column --bodies 1500 --piles 4 -o "$T/piles2" >/dev/null 2>&1
    rm -f "$T/x.mtx"
    # shellcheck disable=SC2086
    "$LCP" $a -t 1e-15 -n 100000000 --time-limit 600 --json -o "$T/x.mtx" "$T/$f" >"$T/out" 2>"$T/err" &
    pid=$!
    started
    t0=$(date +%s.%N)
    kill -INT $pid 2>/dev/null
    wait $pid; rc=$?
    t1=$(date +%s.%N)
    dt=$(python3 -c "print(round($t1 - $t0, 2))")
    if [ "$(field status "$T/out")" = solved ]; then skip "SIGINT $a: solved within a second"; continue; fi
    check "SIGINT $a: stops within 5 s ($dt s, on a shared machine), exit 1 (got $rc), -o written" \
        python3 -c "import os, sys; sys.exit(0 if $dt < 5 and $rc == 1 and os.path.getsize('$T/x.mtx') > 0 else 1)"
done
# batch: every environment stops at once and writes its best answer
"$LCP" generate column --bodies 400 --envs 8 -o "$T/envs2" >/dev/null 2>&1
"$LCP" batch -s pgs -t 1e-14 -n 100000000 --time-limit 600 -o "$T/bo" --json "$T/envs2" >"$T/out" 2>"$T/err" &
pid=$!
started
kill -INT $pid
wait $pid; rc=$?
check "SIGINT batch: exit 1 (got $rc), 8 answers written, each whole" python3 -c "
import glob, math, sys
F = sorted(glob.glob('$T/bo/*.mtx')); ok = len(F) == 8
for f in F:
    v = [l for l in open(f).read().splitlines() if not l.startswith('%')]
    x = [float(t) for t in v[1:]]
    ok = ok and len(x) == int(v[0].split()[0]) == 400 and all(map(math.isfinite, x))
sys.exit(0 if ok and $rc == 1 else 1)"
# --time-limit: the same path as a signal
rm -f "$T/x.mtx" "$T/t.csv"
"$LCP" -s pgs -t 1e-14 -n 100000000 --time-limit 1 --json -o "$T/x.mtx" --trace "$T/t.csv" "$T/long" >"$T/out" 2>"$T/err"; rc=$?
check "--time-limit 1: exit 1 (got $rc), status time_limit" [ $rc -eq 1 -a "$(field status "$T/out")" = time_limit ]
whole "--time-limit"
# the best iterate, not the last: bb (non-monotone line search) on the long
# chain, stopped by -n 40 after its best (iteration 31): it writes its best
rm -f "$T/x.mtx" "$T/t.csv"
"$LCP" -s bb -n 40 --json -o "$T/x.mtx" --trace "$T/t.csv" "$T/long" >"$T/out" 2>"$T/err"; rc=$?
last=$(tail -n 1 "$T/t.csv" | cut -d, -f3)
check "best, not last: bb -n 40 exit 1 (got $rc); its last residual $last is above its best" \
    python3 -c "import sys; sys.exit(0 if $rc == 1 and float('$last') > 1.01 * float('$(field residual "$T/out")') else 1)"
whole "best, not last"
finish
