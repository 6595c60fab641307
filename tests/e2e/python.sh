#!/bin/sh
# tests/e2e/python.sh: the Python package (python/lcpsolve, on liblcpsolve)
# through its pytest tests (tests/python/test_*.py), with Debian's python3;
# one SKIP line where numpy, scipy or pytest is missing.  Each test counts
# as one check.
. tests/lib.sh
PY=/usr/bin/python3
if ! [ -x "$PY" ] || ! "$PY" -c 'import numpy, scipy, pytest' 2>/dev/null; then
    skip "python: Debian's python3 with numpy, scipy and pytest (python3-numpy python3-scipy python3-pytest)"
    finish; exit $?
fi
# one BLAS thread (the binary run from the tests too): the same bits for
# the solvers whose factorisations call threaded BLAS
OPENBLAS_NUM_THREADS=1 LCPSOLVE="$LCP" PYTHONPATH=python PYTHONDONTWRITEBYTECODE=1 \
    "$PY" -m pytest -q -rs -p no:cacheprovider tests/python >"$T/log" 2>&1
rc=$?
cat "$T/log"
# pytest's summary ("3 failed, 70 passed, 1 skipped in 9.1s") into ours
sum=$(tail -n 1 "$T/log")
p=$(echo "$sum" | sed -n 's/.* \([0-9][0-9]*\) passed.*/\1/p; s/^\([0-9][0-9]*\) passed.*/\1/p' | head -n 1)
f=$(echo "$sum" | sed -n 's/.*\b\([0-9][0-9]*\) failed.*/\1/p' | head -n 1)
e=$(echo "$sum" | sed -n 's/.*\b\([0-9][0-9]*\) errors\?.*/\1/p' | head -n 1)
s=$(echo "$sum" | sed -n 's/.*\b\([0-9][0-9]*\) skipped.*/\1/p' | head -n 1)
pass=${p:-0}; fail=$((${f:-0} + ${e:-0})); skipped=${s:-0}
grep -E '^SKIPPED' "$T/log" | sed 's/^SKIPPED/SKIP/'
grep -E '^FAILED|^ERROR' "$T/log" | sed 's/^FAILED/FAIL/; s/^ERROR/FAIL/'
[ "$rc" -eq 0 ] || [ "$fail" -gt 0 ] || fail=$((fail + 1)) # pytest failed without a count (collection)
finish
