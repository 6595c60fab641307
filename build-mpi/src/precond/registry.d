build-mpi/src/precond/registry.o: src/precond/registry.c \
 src/precond/precond.h src/precond/../csr.h src/precond/../common.h
src/precond/precond.h:
src/precond/../csr.h:
src/precond/../common.h:
