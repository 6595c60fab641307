#!/bin/sh
# tests/e2e/regress.sh: scripts/regress end to end on a copy of problems/.
# The unperturbed copy passes (every PROVENANCE parses, every reference is
# met); a lambda reference perturbed by 1e-3 and a w reference perturbed by
# 1e-5 fail, naming the folder and the solver, with exit 1; a solver
# refusing a problem not listed in `refused:` fails; a folder without a
# reference fails; bad usage exits 2.  Every reference.mtx passes the
# independent checker tests/check_residual.py (--mu for friction, whose
# fc3d residual is checked against lcpsolve's own).  A subset of solvers keeps it short
# (--solvers).  Run from the repository root: sh tests/e2e/regress.sh.
. tests/lib.sh
R="python3 scripts/regress --lcpsolve $LCP"
SOLVERS=pgs,lemke,ipm,mprgp,nsgs,admm
cp -r problems "$T/p"

$R --solvers $SOLVERS "$T/p" >"$T/out" 2>&1; rc=$?
check "unperturbed problems/ passes (exit $rc: $(grep -E '^(FAIL|MISMATCH)' "$T/out" | head -n 3))" [ $rc -eq 0 ]
check "every folder of problems/ has a PROVENANCE" \
    [ "$(ls -d problems/*/ | wc -l)" -eq "$(ls problems/*/PROVENANCE | wc -l)" ]
check "summary line counts the checks" grep -qE '^regress: [0-9]+ problems, [1-9][0-9]* checks: [0-9]+ ok' "$T/out"
check "lambda compared on column-20" grep -qE '^ok +column-20 +lemke +lambda' "$T/out"
check "w (u) compared on pyramid-5-fc3d" grep -qE '^ok +pyramid-5-fc3d +nsgs +u' "$T/out"
check "an expected refusal (mprgp on non-symmetric murty-8) is not a failure" \
    grep -qE '^refused +murty-8 +mprgp +\(expected\)' "$T/out"

# the references themselves: the independent checker, and its friction mode
# against lcpsolve's own residual
for d in problems/*/; do
    d=${d%/}
    [ -f "$d/reference.mtx" ] || continue
    mu=; [ -f "$d/mu.mtx" ] && mu="--mu $d/mu.mtx"
    check "$d/reference.mtx passes tests/check_residual.py $mu (< 1e-12)" indep "$d/A.mtx" "$d/b.mtx" "$d/reference.mtx" $mu --max 1e-12
done
P=problems/pyramid-5-fc3d
"$LCP" -s nsgs -t 1e-6 --json -o "$T/r.mtx" $P >"$T/out" 2>/dev/null
c=$(python3 tests/check_residual.py $P/A.mtx $P/b.mtx "$T/r.mtx" --mu $P/mu.mtx)
check "check_residual.py --mu equals lcpsolve's fc3d residual ($c vs $(json_field residual))" \
    python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(not abs(a - b) <= 1e-6 * b)" "$c" "$(json_field residual)"
check "check_residual.py --mu rejects that 1e-6 answer at --max 1e-9" sh -c "! python3 tests/check_residual.py $P/A.mtx $P/b.mtx '$T/r.mtx' --mu $P/mu.mtx --max 1e-9 >/dev/null"

# perturb: one lambda reference entry by 1e-3, one w reference entry by 1e-5
perturb() { # perturb FILE DELTA: adds DELTA to the first value of a Matrix Market array
    python3 - "$1" "$2" <<'P'
import sys
path, d = sys.argv[1], float(sys.argv[2])
lines = open(path).read().split("\n")
k = [i for i, l in enumerate(lines) if l.strip() and not l.startswith("%")][1]
lines[k] = repr(float(lines[k]) + d)
open(path, "w").write("\n".join(lines))
P
}
cp -r problems "$T/q"
perturb "$T/q/column-20/reference.mtx" 1e-3
$R --solvers $SOLVERS "$T/q" >"$T/out" 2>&1; rc=$?
check "perturbed lambda reference: exit 1 (got $rc)" [ $rc -eq 1 ]
check "the mismatch names column-20 and a solver" grep -qE '^MISMATCH +column-20 +(pgs|lemke|ipm) +lambda' "$T/out"
check "the failure list names column-20" grep -qE '^  column-20 (pgs|lemke|ipm): lambda' "$T/out"
check "no other folder fails" [ "$(grep -E '^(MISMATCH|FAIL)' "$T/out" | grep -vc ' column-20 ')" -eq 0 ]

cp "problems/column-20/reference.mtx" "$T/q/column-20/reference.mtx"
perturb "$T/q/pyramid-5/reference-w.mtx" 1e-5
$R --solvers pgs,ipm "$T/q/pyramid-5" >"$T/out" 2>&1; rc=$?
check "perturbed w reference (1e-5 > ref-tol 1e-7): exit 1 (got $rc)" [ $rc -eq 1 ]
check "the mismatch names pyramid-5 and w" grep -qE '^MISMATCH +pyramid-5 +pgs +w 1' "$T/out"
$R --solvers pgs,ipm "$T/p/pyramid-5" >"$T/out" 2>&1
check "a single problem folder as DIR" grep -qE '^regress: 1 problems, 2 checks: 2 ok' "$T/out"

# a refusal not listed, a folder with no reference
sed -i 's/^refused:.*/refused:/' "$T/q/murty-8/PROVENANCE"
$R --solvers mprgp,pgs "$T/q/murty-8" >"$T/out" 2>&1; rc=$?
check "unexpected refusal fails (exit $rc)" sh -c "[ $rc -eq 1 ] && grep -qE '^FAIL +murty-8 +mprgp +refused' '$T/out'"
mkdir "$T/r"; cp -r problems/column-20 "$T/r/noref"; rm "$T/r/noref/PROVENANCE" "$T/r/noref/reference.mtx"
$R --solvers pgs "$T/r" >"$T/out" 2>&1; rc=$?
check "folder without a reference fails (exit $rc)" sh -c "[ $rc -eq 1 ] && grep -q 'noref.*no reference' '$T/out'"

# bad usage: exit 2, one line of reason
$R --solvers nosuch "$T/p" >"$T/out" 2>&1; rc=$?
check "unknown solver: exit 2" sh -c "[ $rc -eq 2 ] && grep -q \"unknown solver 'nosuch'\" '$T/out'"
$R "$T/nonexistent" >"$T/out" 2>&1; rc=$?
check "missing folder: exit 2" [ $rc -eq 2 ]
$R --bogus >"$T/out" 2>&1; rc=$?
check "unknown option: exit 2" [ $rc -eq 2 ]
finish
