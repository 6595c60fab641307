build-mpi/src/precond/spai.o: src/precond/spai.c src/precond/precond.h \
 src/precond/../csr.h src/precond/../common.h \
 src/precond/../solvers/solver.h src/precond/../solvers/../problem.h \
 src/precond/../solvers/../csr.h src/precond/../solvers/../trace.h \
 src/precond/../solvers/../io/io.h \
 src/precond/../solvers/../io/../problem.h \
 src/precond/../solvers/../verify.h src/precond/../solvers/../problem.h \
 src/precond/../solvers/../verify.h \
 src/precond/../solvers/../precond/precond.h \
 src/precond/../solvers/../graph/graph.h \
 src/precond/../solvers/../graph/../problem.h
src/precond/precond.h:
src/precond/../csr.h:
src/precond/../common.h:
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
