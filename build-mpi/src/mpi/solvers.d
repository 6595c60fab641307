build-mpi/src/mpi/solvers.o: src/mpi/solvers.c src/mpi/dist.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 src/mpi/../solvers/solver.h src/mpi/../solvers/../problem.h \
 src/mpi/../solvers/../csr.h src/mpi/../solvers/../common.h \
 src/mpi/../solvers/../trace.h src/mpi/../solvers/../io/io.h \
 src/mpi/../solvers/../io/../problem.h src/mpi/../solvers/../verify.h \
 src/mpi/../solvers/../problem.h src/mpi/../solvers/../verify.h \
 src/mpi/../solvers/../precond/precond.h \
 src/mpi/../solvers/../precond/../csr.h \
 src/mpi/../solvers/../graph/graph.h \
 src/mpi/../solvers/../graph/../problem.h src/mpi/../spectral.h \
 src/mpi/../csr.h src/mpi/../verify.h
src/mpi/dist.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
src/mpi/../solvers/solver.h:
src/mpi/../solvers/../problem.h:
src/mpi/../solvers/../csr.h:
src/mpi/../solvers/../common.h:
src/mpi/../solvers/../trace.h:
src/mpi/../solvers/../io/io.h:
src/mpi/../solvers/../io/../problem.h:
src/mpi/../solvers/../verify.h:
src/mpi/../solvers/../problem.h:
src/mpi/../solvers/../verify.h:
src/mpi/../solvers/../precond/precond.h:
src/mpi/../solvers/../precond/../csr.h:
src/mpi/../solvers/../graph/graph.h:
src/mpi/../solvers/../graph/../problem.h:
src/mpi/../spectral.h:
src/mpi/../csr.h:
src/mpi/../verify.h:
