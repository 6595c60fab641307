build-mpi/src/csr.o: src/csr.c src/csr.h src/common.h
src/csr.h:
src/common.h:
