build-mpi/src/precond/ichol.o: src/precond/ichol.c src/precond/precond.h \
 src/precond/../csr.h src/precond/../common.h
src/precond/precond.h:
src/precond/../csr.h:
src/precond/../common.h:
