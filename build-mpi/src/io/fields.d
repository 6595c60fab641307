build-mpi/src/io/fields.o: src/io/fields.c src/io/io.h \
 src/io/../problem.h src/io/../csr.h src/io/../common.h
src/io/io.h:
src/io/../problem.h:
src/io/../csr.h:
src/io/../common.h:
