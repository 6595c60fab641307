#!/bin/sh
# tests/e2e/bench_nsn.sh: scripts/bench-nsn (make bench-nsn), nsn on
# generated granular piles to 1e-10 beside Siconos' nsn-ac, on its first
# pile only (--limit 1: fc3d and ccp, W and W + 1e-3 I): the machine and
# command lines, the table's header and its four rows, the counts; the ccp
# rows (which Siconos has no Newton for) say "-" in its column, and nsn
# solves the pile as ccp (the piece locking's case: exit 5 before it).
# --set wide --kind ccp --limit 1: two rows of a base-4 pile, ccp only.
# The Siconos column is checked only where its runner is built.
. tests/lib.sh
/usr/bin/python3 -c 'import numpy, scipy' 2>/dev/null || { skip "python3-numpy and python3-scipy are missing"; finish; exit $?; }
/usr/bin/python3 scripts/bench-nsn --set tune --limit 1 --timeout 30 >"$T/table" 2>"$T/err"
check "bench-nsn exits 0" [ $? -eq 0 ]
grep -q '^machine: ' "$T/table" && grep -q '^command: scripts/bench-nsn --tol 1e-10' "$T/table"
check "machine and command lines" [ $? -eq 0 ]
grep -q '^| pile | kind | W | n | nsn steps (s) | Siconos nsn-ac steps (s) |$' "$T/table"
check "the table's header" [ $? -eq 0 ]
check "four rows (fc3d and ccp, W and W + 1e-3 I)" [ "$(grep -c '^| pile-3x3-s1 |' "$T/table")" -eq 4 ]
grep -q '^| pile-3x3-s1 | ccp | W | 177 | [0-9]* ([0-9.]* s) | - |$' "$T/table"
check "nsn solves the pile as ccp; no Siconos Newton for ccp" [ $? -eq 0 ]
grep -q '^nsn solved [34] of 4$' "$T/table"
check "the count of nsn's solves: $(grep '^nsn solved' "$T/table")" [ $? -eq 0 ]
# --set wide --kind ccp: the larger piles of the second start's check, one kind
/usr/bin/python3 scripts/bench-nsn --set wide --kind ccp --limit 1 --timeout 30 >"$T/wide" 2>"$T/err"
check "bench-nsn --set wide --kind ccp exits 0" [ $? -eq 0 ]
grep -q '^command: scripts/bench-nsn --tol 1e-10 --timeout 30 --set wide --kind ccp --limit 1$' "$T/wide"
check "the command line names the set and the kind" [ $? -eq 0 ]
check "two rows of the pile as ccp (W and W + 1e-3 I)" [ "$(grep -c '^| pile-4x3-s81 | ccp |' "$T/wide")" -eq 2 ]
check "no other rows (no fc3d)" [ "$(grep -c '^| pile-' "$T/wide")" -eq 2 ]
if [ -x build/peer/siconos_fc3d ]; then
    grep -q '^Siconos nsn-ac solved [0-9] of 2 (fc3d only)$' "$T/table"
    check "the count of Siconos' solves" [ $? -eq 0 ]
else
    skip "build/peer/siconos_fc3d not built (make peer): the Siconos column is not checked"
fi
finish
