build-mpi/src/common.o: src/common.c src/common.h
src/common.h:
