build-mpi/src/io/folder.o: src/io/folder.c src/io/io.h \
 src/io/../problem.h src/io/../csr.h src/io/../common.h
src/io/io.h:
src/io/../problem.h:
src/io/../csr.h:
src/io/../common.h:
