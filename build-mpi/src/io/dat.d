build-mpi/src/io/dat.o: src/io/dat.c src/io/io.h src/io/../problem.h \
 src/io/../csr.h src/io/../common.h
src/io/io.h:
src/io/../problem.h:
src/io/../csr.h:
src/io/../common.h:
