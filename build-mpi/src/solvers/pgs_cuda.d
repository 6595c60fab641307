build-mpi/src/solvers/pgs_cuda.o: src/solvers/pgs_cuda.c
