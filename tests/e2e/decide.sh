#!/bin/sh
# tests/e2e/decide.sh: lcps that no pivoting method decides -- a small block
# that is not copositive-plus, hidden in a positive definite problem (rows
# permuted), or a whole problem of a few rows -- are decided completely
# (src/solvers/enumerate.c): lemke and auto answer solved or no_solution,
# never "cannot decide".  Every answer is judged here independently, with
# exact rational arithmetic: a solution by its residual, a no_solution by
# enumerating the small block's complementary bases in fractions.
. tests/lib.sh
python3 - "$T" <<'PY'
import json, random, sys
from fractions import Fraction as F
T = sys.argv[1]
rng = random.Random(20261205)
def solve(A, b):  # exact Gauss-Jordan; None when singular
    n = len(b); A = [[F(x) for x in r] + [F(y)] for r, y in zip(A, b)]
    for c in range(n):
        p = next((r for r in range(c, n) if A[r][c] != 0), None)
        if p is None: return None
        A[c], A[p] = A[p], A[c]
        for r in range(n):
            if r != c and A[r][c] != 0:
                f = A[r][c] / A[c][c]; A[r] = [x - f * y for x, y in zip(A[r], A[c])]
    return [A[i][n] / A[i][i] for i in range(n)]
def minors_regular(M):
    k = len(M)
    return all(solve([[M[i][j] for j in S] for i in S], [0] * len(S)) is not None
               for S in ([i for i in range(k) if m >> i & 1] for m in range(1, 1 << k)))
cases = []
for t in range(24):
    k = rng.choice([2, 3, 3, 4, 5, 6])
    while True:
        M = [[rng.randint(-3, 3) for _ in range(k)] for _ in range(k)]
        if minors_regular(M): break
    q = [rng.randint(-3, 3) for _ in range(k)]
    m = rng.choice([0, 0, 20, 47])  # the positive definite rest (0: the block alone)
    n = m + k
    A = [[0] * n for _ in range(n)]; b = [0] * n
    for i in range(m):
        A[i][i] = 4
        if i + 1 < m: A[i][i + 1] = A[i + 1][i] = -1
        b[i] = rng.randint(-5, 5)
    for a in range(k):
        for c in range(k): A[m + a][m + c] = M[a][c]
        b[m + a] = q[a]
    perm = list(range(n)); rng.shuffle(perm)
    P = [[A[perm[i]][perm[j]] for j in range(n)] for i in range(n)]
    pb = [b[perm[i]] for i in range(n)]
    json.dump({"kind": "lcp", "A": P, "b": pb}, open(f"{T}/d{t}.json", "w"))
    json.dump({"A": P, "b": pb, "block": [perm.index(m + a) for a in range(k)]}, open(f"{T}/d{t}.key", "w"))
    cases.append(f"d{t}")
# degenerate ones: small entries, singular principal minors allowed, no rest
for t in range(10):
    k = rng.choice([5, 6, 7])
    M = [[rng.randint(-2, 2) for _ in range(k)] for _ in range(k)]
    q = [rng.randint(-2, 2) for _ in range(k)]
    json.dump({"kind": "lcp", "A": M, "b": q}, open(f"{T}/g{t}.json", "w"))
    json.dump({"A": M, "b": q, "block": list(range(k))}, open(f"{T}/g{t}.key", "w"))
    cases.append(f"g{t}")
open(f"{T}/cases", "w").write("\n".join(cases) + "\n")
PY
# judge CASE X.mtx|none: 0 when x solves it (residual <= 1e-8), or, for none,
# when the block has no solution by exact enumeration (its rows are coupled to
# no other, so the whole has none)
cat >"$T/judge.py" <<'PY'
import json, sys
from fractions import Fraction as F
d = json.load(open(sys.argv[1])); A, b = d["A"], d["b"]; n = len(b)
if sys.argv[2] != "none":
    x = [float(l) for l in open(sys.argv[2]).read().split("\n")[3:] if l.strip()]
    w = [sum(A[i][j] * x[j] for j in range(n)) + b[i] for i in range(n)]
    r = max(abs(min(x[i], w[i])) for i in range(n)) / max(1, max(abs(v) for v in b))
    sys.exit(0 if r <= 1e-8 else 1)
blk = d["block"]; k = len(blk)
M = [[F(A[i][j]) for j in blk] for i in blk]; q = [F(b[i]) for i in blk]
# complete in exact arithmetic, degenerate blocks too: a solution, if any,
# has one whose z-support T and zero-w rows R (T within R) give a system
# A_RT z_T = -b_R of full column rank (Caratheodory), so every (T, R) is
# tried: its unique solution, where it has one, tested
def rank_solve(rows, cols):  # exact elimination on [A_RT | -b_R]: z or None
    m = [[M[i][j] for j in cols] + [-q[i]] for i in rows]; c = len(cols); piv = []; r = 0
    for col in range(c):
        p = next((i for i in range(r, len(m)) if m[i][col] != 0), None)
        if p is None: return None  # not full column rank
        m[r], m[p] = m[p], m[r]
        for i in range(len(m)):
            if i != r and m[i][col] != 0:
                f = m[i][col] / m[r][col]; m[i] = [x - f * y for x, y in zip(m[i], m[r])]
        piv.append(r); r += 1
    if any(m[i][c] != 0 for i in range(r, len(m))): return None  # inconsistent
    return [m[piv[j]][c] / m[piv[j]][j] for j in range(c)]
import itertools
for lab in itertools.product((0, 1, 2), repeat=k):  # 0: z > 0 allowed (in T), 1: w = 0 only, 2: w free
    T_ = [i for i in range(k) if lab[i] == 0]; R = [i for i in range(k) if lab[i] < 2]
    zt = rank_solve(R, T_) if T_ else ([] if all(q[i] == 0 for i in R) else None)
    if zt is None: continue
    z = [F(0)] * k
    for a, i in enumerate(T_): z[i] = zt[a]
    w = [sum(M[i][j] * z[j] for j in range(k)) + q[i] for i in range(k)]
    if all(v >= 0 for v in z) and all(v >= 0 for v in w) and all(z[i] * w[i] == 0 for i in range(k)):
        sys.exit(1)  # a solution exists
sys.exit(0)
PY
solved=0; none=0
while read -r c; do
    for s in lemke auto; do
        "$LCP" -s "$s" -t 1e-10 -o "$T/x.mtx" --json "$T/$c.json" >"$T/out" 2>"$T/err"; rc=$?
        case $rc in
        0) check "$s $c: solved, and x solves it (exact check)" python3 "$T/judge.py" "$T/$c.key" "$T/x.mtx"
           solved=$((solved + 1)) ;;
        3) check "$s $c: no_solution, and its block has none (exact enumeration)" python3 "$T/judge.py" "$T/$c.key" none
           check "$s $c: the evidence names the rows" grep -q "complementary bases\|no z >= 0\|ray" "$T/out"
           none=$((none + 1)) ;;
        *) bad "$s $c: exit $rc ($(json_field status)): $(json_field message | head -c 200)" ;;
        esac
    done
done <"$T/cases"
check "both verdicts met ($solved solved, $none no_solution)" [ "$solved" -gt 0 ] && [ "$none" -gt 0 ]
# the message of the hidden block
python3 - "$T/h.json" <<'PY'
import json, sys
M, q = [[3, 2, 2], [-1, -1, 2], [-2, 1, 3]], [-3, 0, 1]  # feasible (z = (1, 0, 0)), no solution
n, m = 50, 47
A = [[0] * n for _ in range(n)]; b = [0] * n
for i in range(m):
    A[i][i] = 4; b[i] = (-1) ** i
    if i + 1 < m: A[i][i + 1] = A[i + 1][i] = -1
for a in range(3):
    for c in range(3): A[m + a][m + c] = M[a][c]
    b[m + a] = q[a]
perm = [(7 * i + 3) % n for i in range(n)]
json.dump({"kind": "lcp", "A": [[A[perm[i]][perm[j]] for j in range(n)] for i in range(n)],
           "b": [b[perm[i]] for i in range(n)]}, open(sys.argv[1], "w"))
PY
"$LCP" -s lemke --json "$T/h.json" >"$T/out" 2>"$T/err"; rc=$?
check "hidden 3x3 block in 50 rows: lemke exit 3 (was 5: cannot decide)" [ $rc -eq 3 ]
check "hidden block: the evidence, 8 complementary bases of 3 rows" grep -q "the 3 rows .* none of their 8 complementary bases" "$T/out"
# 25-row components, decided by the branching search in well under the time
# limit (an exhaustive enumeration of 2^25 bases takes over a minute): a
# 3-row block M (the first 3 rows) coupled one way into 22 more rows whose
# own block D is a P-matrix, all one component.  The verdict is known
# exactly: w_M depends on z_M alone, so the whole has a solution exactly
# when M's LCP has one (D's rows are then solvable for any z_M).
python3 - "$T" <<'PY'
import json, random, sys
rng = random.Random(25)
T = sys.argv[1]
blocks = [([[3, 2, 2], [-1, -1, 2], [-2, 1, 3]], [-3, 0, 1], "none"),   # feasible, no solution
          ([[-1, 2, 0], [2, -1, 1], [0, 1, -1]], [1, -1, 2], "some")]   # z = (0, 1, 0): w = (3, 0, 3)
for t in range(4):
    M, q, verdict = blocks[t % 2]
    n = 25
    A = [[0] * n for _ in range(n)]; b = [0] * n
    for a in range(3):
        for c in range(3): A[a][c] = M[a][c]
        b[a] = q[a]
    for i in range(3, n):
        for j in range(n):
            if j != i and rng.random() < 0.3: A[i][j] = rng.randint(-3, 3)
        A[i][i] = sum(abs(v) for j, v in enumerate(A[i]) if j >= 3 and j != i) + rng.randint(1, 3)  # D diagonally dominant
        b[i] = rng.randint(-6, 3)
        A[i][rng.randrange(3)] = rng.choice([-2, -1, 1, 2])  # coupled to the block
    perm = list(range(n)); rng.shuffle(perm)
    json.dump({"kind": "lcp", "A": [[A[perm[i]][perm[j]] for j in range(n)] for i in range(n)],
               "b": [b[perm[i]] for i in range(n)]}, open(f"{T}/big{t}.json", "w"))
    open(f"{T}/big{t}.verdict", "w").write(verdict)
PY
for t in 0 1 2 3; do
    "$LCP" -s lemke --time-limit 20 -o "$T/x.mtx" --json "$T/big$t.json" >"$T/out" 2>"$T/err"; rc=$?
    if [ "$(cat "$T/big$t.verdict")" = none ]; then
        check "25 rows, one component, no solution: lemke exit 3 in the time limit (exit $rc)" [ $rc -eq 3 ]
        check "25 rows: the evidence names the 25 rows and the nodes searched" \
            grep -q "the 25 rows .* none of their 33554432 complementary bases.*nodes" "$T/out"
    else
        check "25 rows, one component, solvable: lemke exit 0 in the time limit (exit $rc)" [ $rc -eq 0 ]
        check "25 rows: x solves it (independent residual)" python3 -c "
import json, sys
d = json.load(open('$T/big$t.json')); A, b = d['A'], d['b']; n = len(b)
x = [float(l) for l in open('$T/x.mtx').read().split('\n')[3:] if l.strip()]
w = [sum(A[i][j] * x[j] for j in range(n)) + b[i] for i in range(n)]
sys.exit(0 if max(abs(min(x[i], w[i])) for i in range(n)) <= 1e-8 * max(1, max(map(abs, b))) else 1)"
    fi
done
finish
