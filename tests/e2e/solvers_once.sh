#!/bin/sh
# tests/e2e/solvers_once.sh: every solver of --list-solvers once on a small
# problem of each kind it takes (bundled or generated here), solved to 1e-8
# and checked independently: lcp and blcp by tests/check_residual.py's
# formulas, ccp and fc3d by tests/check_friction.py.  The quick tier's
# (make check) run of every solver.
. tests/lib.sh
# the problems: lcp and fc3d bundled; ccp generated (factored form: si);
# blcp the column with bounds 0 <= x <= 1 (the lower contacts at the bound)
"$LCP" generate pyramid --base 3 --mu 0.5 --kind ccp -o "$T/ccp" 2>/dev/null
mkdir -p "$T/blcp" && cp problems/column-20/*.mtx "$T/blcp/" && rm -f "$T/blcp/reference.mtx"
python3 - "$T/blcp" <<'PY'
import json, sys
d = sys.argv[1]
def vec(name, vals):
    with open(f"{d}/{name}.mtx", "w") as f:
        f.write("%%%%MatrixMarket matrix array real general\n%d 1\n" % len(vals))
        f.writelines("%.17g\n" % v for v in vals)
vec("lo", [0.0] * 20)
vec("hi", [1.0] * 20)  # the lower contacts of the column meet the upper bound
json.dump({"kind": "blcp", "A": "A.mtx", "b": "b.mtx", "lo": "lo.mtx", "hi": "hi.mtx",
           "M": "M.mtx", "J": "J.mtx", "v": "v.mtx"}, open(f"{d}/problem.json", "w"))
PY
problem() { # problem KIND: the problem of that kind
    case $1 in
    lcp) echo problems/column-20 ;;
    blcp) echo "$T/blcp" ;;
    ccp) echo "$T/ccp" ;;
    fc3d) echo problems/pyramid-5-fc3d ;;
    esac
}
# the independent residual of x (lcp, blcp from the JSON; ccp, fc3d from files)
verify() { # verify KIND PROBLEM X.mtx
    case $1 in
    lcp) python3 tests/check_residual.py "$2/A.mtx" "$2/b.mtx" "$3" --max 1e-8 >/dev/null ;;
    blcp) python3 - "$2" "$3" <<'PY'
import sys
sys.path.insert(0, "tests")
from check_residual import read_mtx
d = sys.argv[1]
def vec(path):
    m, _, e = read_mtx(path)
    v = [0.0] * m
    for i, _, x in e: v[i] = x
    return v
n, _, A = read_mtx(f"{d}/A.mtx")
b, lo, hi, x = vec(f"{d}/b.mtx"), vec(f"{d}/lo.mtx"), vec(f"{d}/hi.mtx"), vec(sys.argv[2])
w = list(b)
for i, j, a in A: w[i] += a * x[j]
r = max(abs(x[i] - min(max(lo[i], x[i] - w[i]), hi[i])) for i in range(n)) / max(1, max(abs(v) for v in b))
sys.exit(0 if r <= 1e-8 else 1)
PY
    ;;    ccp|fc3d) python3 tests/check_friction.py "$1" "$2/A.mtx" "$2/b.mtx" "$2/mu.mtx" "$3" --max 1e-8 >/dev/null ;;
    esac
}
"$LCP" --list-solvers | while read -r name kinds rest; do
    case $name in *-cuda|mpi-*) continue ;; esac
    for k in $(echo "$kinds" | tr ',' ' '); do echo "$name $k"; done
done >"$T/list"
check "the list names every kind" sh -c "[ \$(cut -d' ' -f2 '$T/list' | sort -u | wc -l) -eq 4 ]"
while read -r s k; do
    p=$(problem "$k")
    "$LCP" -s "$s" -t 1e-8 --json -o "$T/x.mtx" "$p" >"$T/out" 2>"$T/err"; rc=$?
    st=$(json_field status)
    if [ "$rc" -eq 0 ] && [ "$st" = solved ] && verify "$k" "$p" "$T/x.mtx"; then
        ok "$s on $k ($(basename "$p")): solved, independent residual <= 1e-8"
    else
        bad "$s on $k ($(basename "$p")): exit $rc, status '$st': $(head -c 200 "$T/err")"
    fi
done <"$T/list"
finish
