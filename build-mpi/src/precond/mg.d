build-mpi/src/precond/mg.o: src/precond/mg.c src/precond/mg.h \
 src/precond/../csr.h src/precond/../common.h src/precond/precond.h \
 src/precond/../solvers/solver.h src/precond/../solvers/../problem.h \
 src/precond/../solvers/../csr.h src/precond/../solvers/../trace.h \
 src/precond/../solvers/../io/io.h \
 src/precond/../solvers/../io/../problem.h \
 src/precond/../solvers/../verify.h src/precond/../solvers/../problem.h \
 src/precond/../solvers/../verify.h \
 src/precond/../solvers/../precond/precond.h \
 src/precond/../solvers/../graph/graph.h \
 src/precond/../solvers/../graph/../problem.h src/precond/../spectral.h \
 src/precond/../csr.h src/precond/../suitesparse.h \
 /usr/include/suitesparse/cholmod.h \
 /usr/include/suitesparse/cholmod_io64.h \
 /usr/include/suitesparse/SuiteSparse_config.h \
 /usr/include/suitesparse/cholmod_config.h \
 /usr/include/suitesparse/cholmod_core.h \
 /usr/include/suitesparse/cholmod_check.h \
 /usr/include/suitesparse/cholmod_cholesky.h \
 /usr/include/suitesparse/cholmod_partition.h \
 /usr/include/suitesparse/cholmod_camd.h \
 /usr/include/suitesparse/cholmod_supernodal.h \
 /usr/include/suitesparse/cholmod_matrixops.h \
 /usr/include/suitesparse/cholmod_modify.h
src/precond/mg.h:
src/precond/../csr.h:
src/precond/../common.h:
src/precond/precond.h:
src/precond/../solvers/solver.h:
src/precond/../solvers/../problem.h:
src/precond/../solvers/../csr.h:
src/precond/../solvers/../trace.h:
src/precond/../solvers/../io/io.h:
src/precond/../solvers/../io/../problem.h:
src/precond/../solvers/../verify.h:
src/precond/../solvers/../problem.h:
src/precond/../solvers/../verify.h:
src/precond/../solvers/../precond/precond.h:
src/precond/../solvers/../graph/graph.h:
src/precond/../solvers/../graph/../problem.h:
src/precond/../spectral.h:
src/precond/../csr.h:
src/precond/../suitesparse.h:
/usr/include/suitesparse/cholmod.h:
/usr/include/suitesparse/cholmod_io64.h:
/usr/include/suitesparse/SuiteSparse_config.h:
/usr/include/suitesparse/cholmod_config.h:
/usr/include/suitesparse/cholmod_core.h:
/usr/include/suitesparse/cholmod_check.h:
/usr/include/suitesparse/cholmod_cholesky.h:
/usr/include/suitesparse/cholmod_partition.h:
/usr/include/suitesparse/cholmod_camd.h:
/usr/include/suitesparse/cholmod_supernodal.h:
/usr/include/suitesparse/cholmod_matrixops.h:
/usr/include/suitesparse/cholmod_modify.h:
