build-mpi/src/io/text.o: src/io/text.c src/io/io.h src/io/../problem.h \
 src/io/../csr.h src/io/../common.h
src/io/io.h:
src/io/../problem.h:
src/io/../csr.h:
src/io/../common.h:
