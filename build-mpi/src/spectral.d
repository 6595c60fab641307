build-mpi/src/spectral.o: src/spectral.c src/spectral.h src/csr.h \
 src/common.h
src/spectral.h:
src/csr.h:
src/common.h:
