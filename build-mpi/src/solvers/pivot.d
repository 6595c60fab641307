build-mpi/src/solvers/pivot.o: src/solvers/pivot.c src/solvers/solver.h \
 src/solvers/../problem.h src/solvers/../csr.h src/solvers/../common.h \
 src/solvers/../trace.h src/solvers/../io/io.h \
 src/solvers/../io/../problem.h src/solvers/../verify.h \
 src/solvers/../problem.h src/solvers/../verify.h \
 src/solvers/../precond/precond.h src/solvers/../precond/../csr.h \
 src/solvers/../graph/graph.h src/solvers/../graph/../problem.h
src/solvers/solver.h:
src/solvers/../problem.h:
src/solvers/../csr.h:
src/solvers/../common.h:
src/solvers/../trace.h:
src/solvers/../io/io.h:
src/solvers/../io/../problem.h:
src/solvers/../verify.h:
src/solvers/../problem.h:
src/solvers/../verify.h:
src/solvers/../precond/precond.h:
src/solvers/../precond/../csr.h:
src/solvers/../graph/graph.h:
src/solvers/../graph/../problem.h:
