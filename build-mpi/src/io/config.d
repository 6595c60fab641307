build-mpi/src/io/config.o: src/io/config.c src/io/../config.h \
 src/io/../common.h
src/io/../config.h:
src/io/../common.h:
