build-mpi/src/trace.o: src/trace.c src/trace.h src/io/io.h \
 src/io/../problem.h src/io/../csr.h src/io/../common.h src/verify.h \
 src/problem.h
src/trace.h:
src/io/io.h:
src/io/../problem.h:
src/io/../csr.h:
src/io/../common.h:
src/verify.h:
src/problem.h:
