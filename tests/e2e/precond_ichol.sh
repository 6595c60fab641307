#!/bin/sh
# tests/e2e/precond_ichol.sh: the ichol and spai preconditioners
# (src/precond/ichol.c, spai.c).  No solver takes them yet, so the
# command line is checked for the names (-p error list, manual, docs/guide.md), and
# the unit-test binary's PCG comparison (build/tests/test_precond FILE...:
# ichol needs fewer CG iterations than none and diag, spai/diag run too) is
# run on generated scenes: a long column with mass ratio 100, a singular
# pyramid contact set and a friction pyramid.  Run from the repository root
# after `make build/tests/test_precond` (skipped without it).
. tests/lib.sh

"$LCP" -p nosuch problems/column-20 >"$T/out" 2>"$T/err"; rc=$?
check "-p nosuch: exit 2" [ $rc -eq 2 ]
check "-p nosuch: lists ichol and spai" grep -q "this build has: none, .*ichol.*spai" "$T/err"
for p in ichol spai; do
    check "man page has preconditioner $p" grep -q "^\.B $p\$" man/lcpsolve.1
    check "the guide lists preconditioner $p" grep -q "^| \`$p\` |" docs/guide.md
done

TP=build/tests/test_precond
if [ -x "$TP" ]; then
    "$LCP" generate column --bodies 300 --mass-ratio 100 -o "$T/col" 2>/dev/null
    "$LCP" generate pyramid --base 8 -o "$T/pyr" 2>/dev/null
    "$LCP" generate pyramid --base 6 --mu 0.5 -o "$T/pyrf" 2>/dev/null
    for d in col pyr pyrf; do
        "$TP" "$T/$d/A.mtx" >"$T/out" 2>"$T/err"; rc=$?
        check "PCG on generated $d: ichol beats none and diag ($(grep -o 'none.*' "$T/err"))" \
            sh -c "[ $rc -eq 0 ] && grep -q '^[1-9][0-9]* passed, 0 failed' '$T/out'"
    done
else
    skip "build/tests/test_precond not built"
fi
finish
