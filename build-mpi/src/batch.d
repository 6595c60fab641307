build-mpi/src/batch.o: src/batch.c src/batch.h src/common.h src/io/io.h \
 src/io/../problem.h src/io/../csr.h src/io/../common.h \
 src/solvers/solver.h src/solvers/../problem.h src/solvers/../trace.h \
 src/solvers/../io/io.h src/solvers/../verify.h src/solvers/../problem.h \
 src/solvers/../verify.h src/solvers/../precond/precond.h \
 src/solvers/../precond/../csr.h src/solvers/../graph/graph.h \
 src/solvers/../graph/../problem.h
src/batch.h:
src/common.h:
src/io/io.h:
src/io/../problem.h:
src/io/../csr.h:
src/io/../common.h:
src/solvers/solver.h:
src/solvers/../problem.h:
src/solvers/../trace.h:
src/solvers/../io/io.h:
src/solvers/../verify.h:
src/solvers/../problem.h:
src/solvers/../verify.h:
src/solvers/../precond/precond.h:
src/solvers/../precond/../csr.h:
src/solvers/../graph/graph.h:
src/solvers/../graph/../problem.h:
