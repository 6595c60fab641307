#!/bin/sh
# tests/e2e/mpi.sh: the MPI build (make MPI=1, src/mpi) where Open MPI is
# installed (skipped cleanly where mpicc or mpirun is missing).  The build
# reuses this build's objects except those that see LCP_HAVE_MPI, in a
# folder of its own.  Under `mpirun -np 1, 2, 4` (oversubscribed): mpi-pgs
# gives the bits of `pgs --order colour` (lcp, and blcp with findex rows);
# mpi-jacobi and mpi-apgd (lcp, ccp) solve, checked by the independent
# residual; one process writes -o and the trace, whole; a solver that runs in
# one process is refused under mpirun with several; the plain build has no
# mpi- solvers.  Run from the repository root.
. tests/lib.sh
"$LCP" --list-solvers | grep -q '^mpi-'
check "the default build has no mpi- solvers" [ $? -ne 0 ]
if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1 || [ ! -f /usr/include/metis.h ]; then
    skip "MPI build: mpicc, mpirun or metis.h not found (scripts/install-deps installs them)"
    finish; exit $?
fi
case " $MAKEFLAGS " in *" SANITIZE=1 "*) # make test SANITIZE=1: the MPI part would repeat make test's, to the bit
    skip "MPI build under make test SANITIZE=1: built from the plain objects with SANITIZE=0, the same as make test's run"
    finish; exit $? ;;
esac
if [ ! -f build/src/cli/main.o ]; then
    skip "MPI build: no build/ objects to reuse (run make first)"
    finish; exit $?
fi
B="$T/bm"
mkdir -p "$B"
cp -rp build/src "$B/src"
rm -f "$B/src/cli/main.o" "$B/src/solvers/registry.o" "$B/src/cli/bench.o"
env -u MAKEFLAGS -u MFLAGS -u SANITIZE make -s MPI=1 SANITIZE=0 BUILD="$B" BIN="$B/lcpsolve" "$B/lcpsolve" >"$T/make.log" 2>&1; rc=$? # the plain objects, whatever the calling make (SANITIZE=1)
check "make MPI=1: builds" [ $rc -eq 0 ]
grep -v "^make" "$T/make.log" >"$T/warn.log"
check "make MPI=1: no compiler warnings" [ ! -s "$T/warn.log" ]
[ $rc -eq 0 -a ! -s "$T/warn.log" ] || cat "$T/make.log"
[ $rc -eq 0 ] || { finish; exit $?; }
M="$B/lcpsolve"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
run() { np=$1; shift; timeout 300 mpirun --oversubscribe -np "$np" "$M" "$@"; }
"$M" --list-solvers >"$T/list"
for s in mpi-pgs mpi-nsgs mpi-jacobi mpi-apgd; do
    check "make MPI=1 lists $s" grep -q "^$s" "$T/list"
done

# mpi-pgs: the bits of pgs --order colour, for 1, 2 and 4 processes
"$LCP" generate pyramid --base 12 -o "$T/pyr" >/dev/null 2>&1
"$LCP" generate pyramid --base 6 --mu 0.5 -o "$T/fric" >/dev/null 2>&1
"$LCP" -s pgs --order colour -t 1e-8 -o "$T/s.mtx" --quiet "$T/pyr"
"$LCP" -s pgs --order colour -t 1e-8 --cone pyramid:4 -o "$T/sb.mtx" --quiet "$T/fric"
for np in 1 2 4; do
    run $np -s mpi-pgs -t 1e-8 -o "$T/m.mtx" --json "$T/pyr" >"$T/out"; rc=$?
    check "mpi-pgs -np $np: solved" [ $rc -eq 0 ]
    check "mpi-pgs -np $np: the bits of pgs --order colour" cmp -s "$T/s.mtx" "$T/m.mtx"
    check "mpi-pgs -np $np: one summary" [ "$(grep -c '"solver"' "$T/out")" -eq 1 ]
    run $np -s mpi-pgs -t 1e-8 --cone pyramid:4 -o "$T/mb.mtx" --quiet "$T/fric"; rc=$?
    check "mpi-pgs -np $np: blcp with findex (--cone pyramid:4) solved" [ $rc -eq 0 ]
    check "mpi-pgs -np $np: blcp, the bits of pgs --order colour" cmp -s "$T/sb.mtx" "$T/mb.mtx"
done

# mpi-nsgs: the bits of nsgs --order colour (fc3d; a Siconos file too)
"$LCP" -s nsgs --order colour -t 1e-8 -o "$T/n.mtx" --quiet problems/pyramid-5-fc3d
F=$(ls "$SICONOS_DATA"/fc3d/*.dat 2>/dev/null | head -n 1)
[ -n "$F" ] && "$LCP" -s nsgs --order colour -t 1e-6 -n 2000 -o "$T/nf.mtx" --quiet "$F"
[ -n "$F" ] || skip "mpi-nsgs on a Siconos fc3d file: none in $SICONOS_DATA/fc3d (LCPSOLVE_DATA)"
for np in 1 2 4; do
    run $np -s mpi-nsgs -t 1e-8 -o "$T/mn.mtx" --quiet problems/pyramid-5-fc3d; rc=$?
    check "mpi-nsgs -np $np pyramid-5-fc3d: solved (exit $rc)" [ $rc -eq 0 ]
    check "mpi-nsgs -np $np: the bits of nsgs --order colour" cmp -s "$T/n.mtx" "$T/mn.mtx"
    if [ -n "$F" ]; then
        run $np -s mpi-nsgs -t 1e-6 -n 2000 -o "$T/mnf.mtx" --quiet "$F"
        check "mpi-nsgs -np $np $(basename "$F"): the bits of nsgs --order colour" cmp -s "$T/nf.mtx" "$T/mnf.mtx"
    fi
done

# mpi-jacobi, mpi-apgd: solved, by the independent checker
for s in mpi-jacobi mpi-apgd; do
    for np in 2 4; do
        run $np -s $s -t 1e-7 -n 100000 -o "$T/x.mtx" --quiet problems/column-20; rc=$?
        check "$s -np $np column-20: solved" [ $rc -eq 0 ]
        check "$s -np $np column-20: independent residual" indep problems/column-20/A.mtx problems/column-20/b.mtx "$T/x.mtx" --max 1e-7
        run $np -s $s -t 1e-6 -n 100000 -o "$T/x.mtx" --quiet problems/pyramid-5; rc=$?
        check "$s -np $np pyramid-5 (semidefinite): solved" [ $rc -eq 0 ]
        check "$s -np $np pyramid-5: independent residual" indep problems/pyramid-5/A.mtx problems/pyramid-5/b.mtx "$T/x.mtx" --max 1e-6
    done
done
"$LCP" -s apgd -t 1e-8 --kind ccp -o "$T/ref.mtx" --quiet problems/pyramid-5-fc3d
run 2 -s mpi-apgd --kind ccp -t 1e-8 --json problems/pyramid-5-fc3d >"$T/out"; rc=$?
check "mpi-apgd -np 2 ccp: solved" [ $rc -eq 0 ]
check "mpi-apgd -np 2 ccp: residual <= 1e-8" python3 -c "import json; assert json.load(open('$T/out'))['residual'] <= 1e-8"

# outputs: written once, whole; the trace counts the halo
run 2 -s mpi-pgs -t 1e-8 --trace "$T/tr.csv" -o "$T/o.mtx" --json "$T/pyr" >"$T/out"
it=$(json_field iterations)
check "trace: a header and a row an iteration" [ "$(wc -l <"$T/tr.csv")" -eq $((it + 2)) ]
check "trace: the halo_bytes column" sh -c "head -1 '$T/tr.csv' | grep -q halo_bytes"
check "trace: bytes sent with 2 processes" sh -c "tail -1 '$T/tr.csv' | awk -F, '{ exit !(\$NF > 0) }'"
check "-o: the whole solution" cmp -s "$T/s.mtx" "$T/o.mtx"

# mpirun -np N lcpsolve bench: the runs spread over processes 1..N-1, one CSV
# with the rows of the one-process run (a refusal once, a timeout recorded)
"$LCP" generate column --bodies 40000 -o "$T/big" >/dev/null 2>&1
cat >"$T/plan.yaml" <<EOF
problems: [$PWD/problems/column-20, $PWD/problems/murty-8, $PWD/problems/pyramid-5, $PWD/problems/pyramid-5-fc3d, $T/big]
configs:
  - {name: pgs, solver: pgs, max-iter: 2000}
  - {name: ipm, solver: ipm}
  - {name: nsgs, solver: nsgs}
  - {name: mprgp, solver: mprgp, precond: ichol}
  - {name: slow, solver: pgs, time-limit: 0.001}
repeats: 2
grace: 0
EOF
cols() { python3 -c "
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    slow = r['config'] == 'slow'  # 1 ms: a small problem may end solved or stopped, by the load of the moment
    st = 'limit' if r['status'] in ('timeout', 'time_limit') else r['status']
    print(r['config'], r['problem'], r['repeat'], '-' if slow and r['problem'] != 'big' else st, '' if slow else r['iterations'])
" "$1"; }
"$LCP" bench -q -o "$T/one.csv" "$T/plan.yaml"; rc=$?
check "bench, one process: exit 0" [ $rc -eq 0 ]
cols "$T/one.csv" >"$T/one.txt"
for np in 2 4; do
    run $np bench -q -o "$T/many.csv" "$T/plan.yaml"; rc=$?
    check "mpirun -np $np bench: exit 0" [ $rc -eq 0 ]
    cols "$T/many.csv" >"$T/many.txt"
    if cmp -s "$T/one.txt" "$T/many.txt"; then ok "mpirun -np $np bench: the rows of the one-process run"
    else bad "mpirun -np $np bench: the rows of the one-process run"; diff "$T/one.txt" "$T/many.txt" | sed 's/^/    /' | head -n 20; fi
    check "mpirun -np $np bench: the same header" sh -c "[ \"\$(head -1 '$T/one.csv')\" = \"\$(head -1 '$T/many.csv')\" ]"
done
check "bench: the slow runs stopped by their limit" grep -q "^slow big 2 limit" "$T/many.txt"
check "bench: mprgp on murty-8 refused once" [ "$(grep -c '^mprgp murty-8' "$T/many.txt")" -eq 1 ]

# refusals
run 2 -s pgs "$T/pyr" >/dev/null 2>"$T/err"; rc=$?
check "pgs under mpirun -np 2: exit 2" [ $rc -eq 2 ]
check "pgs under mpirun -np 2: says what to use" grep -q "mpi-pgs" "$T/err"
run 1 -s pgs -t 1e-8 --quiet "$T/pyr"; rc=$?
check "pgs under mpirun -np 1: runs" [ $rc -eq 0 ]
finish
