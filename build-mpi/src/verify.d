build-mpi/src/verify.o: src/verify.c src/verify.h src/problem.h src/csr.h \
 src/common.h
src/verify.h:
src/problem.h:
src/csr.h:
src/common.h:
