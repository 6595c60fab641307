#!/bin/sh
# tests/e2e/max_memory.sh: --max-memory BYTES (man page): refused at load from
# the declared sizes (exit 2, FILE:LINE), refused before solving from the
# solver's estimate (exit 5), a generous cap changes nothing, bad values exit 2.
. tests/lib.sh
P=problems/random-spd-200

$LCP -s lemke --quiet -t 1e-10 -o "$T/x0.mtx" $P 2>"$T/err"; rc=$?
check "no cap: lemke solves" [ "$rc" -eq 0 ]
$LCP -s lemke --quiet -t 1e-10 -o "$T/x1.mtx" --max-memory 2G $P 2>"$T/err"; rc=$?
check "2G cap: lemke solves, the same solution bits" sh -c "[ $rc -eq 0 ] && cmp -s '$T/x0.mtx' '$T/x1.mtx'"

$LCP -s pgs --max-memory 100K $P >"$T/out" 2>"$T/err"; rc=$?
check "100K cap: refused at load, exit 2" [ "$rc" -eq 2 ]
check "100K cap: one line naming A.mtx:3 and --max-memory" \
    sh -c "[ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'A.mtx:3:.*--max-memory' '$T/err'"

# 200 x 200: A is read in ~150 KiB, but lemke's dense basis needs 2 n^2 doubles
$LCP -s lemke --max-memory 400K $P >"$T/out" 2>"$T/err"; rc=$?
check "400K cap: lemke refused before solving, exit 5" [ "$rc" -eq 5 ]
check "400K cap: the message names the solver and the cap" grep -q 'lemke on n = 200 needs about .*--max-memory 400.0 KiB' "$T/err"
$LCP -s pgs --max-memory 400K $P >"$T/out" 2>"$T/err"; rc=$?
check "400K cap: pgs (sparse) still solves" [ "$rc" -eq 0 ]

for v in 12X -5M 0 ''; do
    $LCP --max-memory "$v" $P >"$T/out" 2>"$T/err"; rc=$?
    check "--max-memory '$v' refused (exit 2)" sh -c "[ $rc -eq 2 ] && grep -q 'max-memory' '$T/err'"
done
$LCP --max-memory 1.5GiB -s pgs $P >"$T/out" 2>"$T/err"; rc=$?
check "--max-memory 1.5GiB accepted" [ "$rc" -eq 0 ]
# ipm's memory is estimated on the path --linsolve auto takes: a column of 1000 spheres (tridiagonal A,
# the sparse path) fits in 2M, where the dense path's n x n arrays (16 MB) would not
$LCP generate column --bodies 1000 -o "$T/col1000" >/dev/null 2>&1
$LCP -s ipm --max-memory 2M -o "$T/xc.mtx" "$T/col1000" >"$T/out" 2>"$T/err"; rc=$?
check "ipm on a 1000-sphere column under --max-memory 2M: the sparse path's estimate fits, solved (exit $rc)" \
    sh -c "[ $rc -eq 0 ] && [ -s '$T/xc.mtx' ]"
$LCP -s ipm --linsolve dense --max-memory 2M "$T/col1000" >"$T/out" 2>"$T/err"; rc=$?
check "the same with --linsolve dense: refused before the solve (exit $rc), naming --max-memory" \
    sh -c "[ $rc -ne 0 ] && grep -q 'max-memory' '$T/err'"
finish
