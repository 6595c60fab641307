build-mpi/src/io/outfile.o: src/io/outfile.c src/io/io.h \
 src/io/../problem.h src/io/../csr.h src/io/../common.h
src/io/io.h:
src/io/../problem.h:
src/io/../csr.h:
src/io/../common.h:
