build-mpi/src/io/read.o: src/io/read.c src/io/io.h src/io/../problem.h \
 src/io/../csr.h src/io/../common.h
src/io/io.h:
src/io/../problem.h:
src/io/../csr.h:
src/io/../common.h:
