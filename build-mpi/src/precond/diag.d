build-mpi/src/precond/diag.o: src/precond/diag.c src/precond/precond.h \
 src/precond/../csr.h src/precond/../common.h
src/precond/precond.h:
src/precond/../csr.h:
src/precond/../common.h:
