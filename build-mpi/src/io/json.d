build-mpi/src/io/json.o: src/io/json.c src/io/io.h src/io/../problem.h \
 src/io/../csr.h src/io/../common.h
src/io/io.h:
src/io/../problem.h:
src/io/../csr.h:
src/io/../common.h:
