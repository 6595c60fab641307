#!/bin/sh
# tests/e2e/lemke_purify.sh: the purification of lemke's crash start
# (src/solvers/lemke.c, purify): on a symmetric A the guess (ipm's answer,
# an interior point of the solution set when A is singular) is moved to a
# vertex of that set before the crash basis is built.
#  - rank-deficient contact sets (pyramids, granular piles, Kapla towers,
#    redundant stacks, several piles): solved to 1e-10 on the sparse path,
#    the note says the dependent loads were purified, the residual
#    recomputed independently (tests/check_residual.py), w = A z + b the
#    same as ipm's (w is unique, z is not), at most as many loads as the
#    crash basis has z columns (a vertex), fewer than ipm's (interior), and
#    fewer pivots than from B = I (--crash none);
#  - a problem without dependent loads (column): 0 pivots, no purification;
#  - a non-symmetric A is not purified (the crash basis as before);
#  - --time-limit still stops a large pyramid (exit 1).
# Run from the repository root: sh tests/e2e/lemke_purify.sh
. tests/lib.sh

# wdiff A.mtx b.mtx X1.mtx X2.mtx: max |w1 - w2| / max(1, |b|), w = A x + b
# (standard library only, as tests/check_residual.py)
wdiff() { python3 - "$@" <<'P'
import sys
sys.path.insert(0, "tests")
from check_residual import read_mtx
m, n, ea = read_mtx(sys.argv[1])
_, _, eb = read_mtx(sys.argv[2])
b = [0.0] * m
for i, _, v in eb: b[i] = v
def w(path):
    _, _, ex = read_mtx(path)
    x = [0.0] * n
    for i, _, v in ex: x[i] = v
    y = b[:]
    for i, j, v in ea: y[i] += v * x[j]
    return y
w1, w2 = w(sys.argv[3]), w(sys.argv[4])
print("%.3e" % (max(abs(a - c) for a, c in zip(w1, w2)) / max(1.0, max(abs(v) for v in b))))
P
}
# support X.mtx: the number of z_j > 1e-12 max z
support() { python3 - "$1" <<'P'
import sys
sys.path.insert(0, "tests")
from check_residual import read_mtx
_, _, ex = read_mtx(sys.argv[1])
x = [v for _, _, v in ex]
top = max(x)
print(sum(1 for v in x if v > 1e-12 * top))
P
}
below() { python3 -c "import sys; sys.exit(0 if float('$1') <= float('$2') else 1)"; }
# the z basic of the crash note "... N of M z basic ..." (the largest component's)
# plus the unknowns of the other components (n - M)
zbasic() { python3 -c "
import json, re
d = json.load(open('$T/out'))
m = re.search(r'(\d+) of (\d+) z basic', d['message'])
print(int(m.group(1)) + d['n'] - int(m.group(2)))"; }

for scene in "pyramid --base 8" "pyramid --base 16" "pyramid --base 6 --mass 100" "granular --base 6 --layers 3" \
             "granular --base 8 --layers 4" "tower --layers 12" "redundant --bodies 4 --points 4"; do
    # shellcheck disable=SC2086
    "$LCP" generate $scene -o "$T/g" >/dev/null 2>&1 || { bad "generate $scene"; continue; }
    "$LCP" -s ipm --linsolve sparse -t 1e-12 -o "$T/xi.mtx" "$T/g" >/dev/null 2>&1 || { bad "$scene: ipm"; continue; }
    "$LCP" -s lemke --linsolve sparse --crash none -t 1e-10 --json "$T/g" >"$T/out" 2>"$T/err"
    pn=$(json_field iterations)
    "$LCP" -s lemke --linsolve sparse -t 1e-10 --json -o "$T/x.mtx" "$T/g" >"$T/out" 2>"$T/err"
    rc=$?
    check "$scene: solved (exit $rc)" [ "$rc" -eq 0 ]
    pc=$(json_field iterations)
    check "$scene: the note says purified" grep -q 'dependent ones purified to a vertex ([0-9]* exchanges)' "$T/out"
    check "$scene: independent residual <= 1e-10" indep "$T/g/A.mtx" "$T/g/b.mtx" "$T/x.mtx" --max 1e-10
    d=$(wdiff "$T/g/A.mtx" "$T/g/b.mtx" "$T/x.mtx" "$T/xi.mtx")
    check "$scene: w = ipm's w ($d <= 1e-9)" below "$d" 1e-9
    sl=$(support "$T/x.mtx"); si=$(support "$T/xi.mtx"); zb=$(zbasic)
    check "$scene: a vertex: $sl loads <= $zb basic z" [ "$sl" -le "$zb" ]
    check "$scene: fewer loads than ipm's interior point ($sl < $si)" [ "$sl" -lt "$si" ]
    check "$scene: fewer pivots than from B = I ($pc < $pn)" [ "$pc" -lt "$pn" ]
done

# several piles: each component purified on its own
"$LCP" generate pyramid --base 6 --piles 3 -o "$T/g" >/dev/null 2>&1
"$LCP" -s lemke --linsolve sparse -t 1e-10 --json -o "$T/x.mtx" "$T/g" >"$T/out" 2>"$T/err"
check "3 piles: solved" [ "$(json_field status)" = solved ]
check "3 piles: independent residual <= 1e-10" indep "$T/g/A.mtx" "$T/g/b.mtx" "$T/x.mtx" --max 1e-10

# no dependent loads: nothing to purify, ipm's answer is the basis
"$LCP" generate column --bodies 800 -o "$T/g" >/dev/null 2>&1
"$LCP" -s lemke --linsolve sparse -t 1e-10 --json "$T/g" >"$T/out" 2>"$T/err"
check "column: 0 pivots" [ "$(json_field iterations)" = 0 ]
check "column: no purification" grep -q '0 dependent ones replaced by w' "$T/out"

# a non-symmetric A (the pyramid's A with one off-diagonal entry changed): not purified
"$LCP" generate pyramid --base 6 -o "$T/g" >/dev/null 2>&1
python3 - "$T/g/A.mtx" <<'P'
import sys
p = sys.argv[1]
lines = open(p).read().splitlines()
body = [i for i, s in enumerate(lines) if s.strip() and not s.startswith("%")][1:]
for k in body:
    i, j, v = lines[k].split()
    if i != j:
        lines[k] = "%s %s %.17g" % (i, j, float(v) * 1.001)
        break
open(p, "w").write("\n".join(lines) + "\n")
P
"$LCP" -s lemke --linsolve sparse -t 1e-10 --json -o "$T/x.mtx" "$T/g" >"$T/out" 2>"$T/err"
rc=$?
check "non-symmetric: not purified" sh -c "! grep -q 'purified' '$T/out'"
if [ "$rc" -eq 0 ]; then
    check "non-symmetric: independent residual <= 1e-10" indep "$T/g/A.mtx" "$T/g/b.mtx" "$T/x.mtx" --max 1e-10
else
    check "non-symmetric: an honest verdict (exit $rc)" [ "$rc" -eq 4 ] || [ "$rc" -eq 5 ]
fi

# --linsolve auto takes the sparse path, and so the crash start, on contact
# problems of up to 10% nonzeros: a pyramid of 1,024 contacts (2.5%) is
# solved in a few pivots (the dense path from B = I: over 1,000 pivots and
# 30 s without reaching the answer); with --crash none auto keeps the 2% rule
"$LCP" generate pyramid --base 16 -o "$T/g" >/dev/null 2>&1
"$LCP" -s lemke -t 1e-10 --time-limit 20 --json -o "$T/x.mtx" "$T/g" >"$T/out" 2>"$T/err"
rc=$?
check "pyramid-16 (2.5% nonzeros), --linsolve auto: solved (exit $rc)" [ "$rc" -eq 0 ]
check "pyramid-16, auto: the crash start ran" grep -q 'crash start from' "$T/out"
check "pyramid-16, auto: at most 20 pivots ($(json_field iterations))" [ "$(json_field iterations)" -le 20 ]
check "pyramid-16, auto: independent residual <= 1e-10" indep "$T/g/A.mtx" "$T/g/b.mtx" "$T/x.mtx" --max 1e-10
"$LCP" -s lemke --crash none -n 3 --json "$T/g" >"$T/out" 2>"$T/err"
check "pyramid-16, --crash none: no crash start (the dense path)" sh -c "! grep -q 'crash start' '$T/out'"

# the time limit still holds with the purification (exit 1: not solved in time)
"$LCP" generate pyramid --base 40 -o "$T/g" >/dev/null 2>&1
"$LCP" -s lemke --linsolve sparse -t 1e-10 --time-limit 0.05 --json "$T/g" >"$T/out" 2>"$T/err"
rc=$?
check "time limit 0.05 s on pyramid-40: exit 1 ($rc)" [ "$rc" -eq 1 ]

# the time limit when the crash guess (ipm) takes all of it: no crash basis
# is factored afterwards (that LU cannot be interrupted: a 24,142-contact pile
# with --time-limit 1 ran 3.4 s; now about the limit plus ipm's last step);
# the thread clock, so that load does not count
"$LCP" generate granular --base 24 --layers 10 -o "$T/g24" >/dev/null 2>&1
LCPSOLVE_CLOCK=thread "$LCP" -s lemke -t 1e-10 --time-limit 1 --json "$T/g24" >"$T/out" 2>"$T/err"; rc=$?
check "time limit 1 s on a 24,142-contact pile: exit 1 ($rc)" [ "$rc" -eq 1 ]
check "time limit 1 s on the pile: stopped within 2.5 s ($(json_field time_s))" \
    python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 2.5 else 1)" "$(json_field time_s)"

finish
