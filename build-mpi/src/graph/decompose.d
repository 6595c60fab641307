build-mpi/src/graph/decompose.o: src/graph/decompose.c \
 src/graph/decompose.h src/graph/../solvers/solver.h \
 src/graph/../solvers/../problem.h src/graph/../solvers/../csr.h \
 src/graph/../solvers/../common.h src/graph/../solvers/../trace.h \
 src/graph/../solvers/../io/io.h src/graph/../solvers/../io/../problem.h \
 src/graph/../solvers/../verify.h src/graph/../solvers/../problem.h \
 src/graph/../solvers/../verify.h \
 src/graph/../solvers/../precond/precond.h \
 src/graph/../solvers/../precond/../csr.h \
 src/graph/../solvers/../graph/graph.h \
 src/graph/../solvers/../graph/../problem.h
src/graph/decompose.h:
src/graph/../solvers/solver.h:
src/graph/../solvers/../problem.h:
src/graph/../solvers/../csr.h:
src/graph/../solvers/../common.h:
src/graph/../solvers/../trace.h:
src/graph/../solvers/../io/io.h:
src/graph/../solvers/../io/../problem.h:
src/graph/../solvers/../verify.h:
src/graph/../solvers/../problem.h:
src/graph/../solvers/../verify.h:
src/graph/../solvers/../precond/precond.h:
src/graph/../solvers/../precond/../csr.h:
src/graph/../solvers/../graph/graph.h:
src/graph/../solvers/../graph/../problem.h:
