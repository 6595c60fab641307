build-mpi/src/generate.o: src/generate.c src/generate.h src/common.h \
 src/csr.h src/io/io.h src/io/../problem.h src/io/../csr.h
src/generate.h:
src/common.h:
src/csr.h:
src/io/io.h:
src/io/../problem.h:
src/io/../csr.h:
