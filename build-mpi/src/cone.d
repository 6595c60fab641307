build-mpi/src/cone.o: src/cone.c src/cone.h src/problem.h src/csr.h \
 src/common.h
src/cone.h:
src/problem.h:
src/csr.h:
src/common.h:
