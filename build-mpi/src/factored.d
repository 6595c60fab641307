build-mpi/src/factored.o: src/factored.c src/factored.h src/problem.h \
 src/csr.h src/common.h src/suitesparse.h \
 /usr/include/suitesparse/cholmod.h \
 /usr/include/suitesparse/cholmod_io64.h \
 /usr/include/suitesparse/SuiteSparse_config.h \
 /usr/include/suitesparse/cholmod_config.h \
 /usr/include/suitesparse/cholmod_core.h \
 /usr/include/suitesparse/cholmod_check.h \
 /usr/include/suitesparse/cholmod_cholesky.h \
 /usr/include/suitesparse/cholmod_partition.h \
 /usr/include/suitesparse/cholmod_camd.h \
 /usr/include/suitesparse/cholmod_supernodal.h \
 /usr/include/suitesparse/cholmod_matrixops.h \
 /usr/include/suitesparse/cholmod_modify.h
src/factored.h:
src/problem.h:
src/csr.h:
src/common.h:
src/suitesparse.h:
/usr/include/suitesparse/cholmod.h:
/usr/include/suitesparse/cholmod_io64.h:
/usr/include/suitesparse/SuiteSparse_config.h:
/usr/include/suitesparse/cholmod_config.h:
/usr/include/suitesparse/cholmod_core.h:
/usr/include/suitesparse/cholmod_check.h:
/usr/include/suitesparse/cholmod_cholesky.h:
/usr/include/suitesparse/cholmod_partition.h:
/usr/include/suitesparse/cholmod_camd.h:
/usr/include/suitesparse/cholmod_supernodal.h:
/usr/include/suitesparse/cholmod_matrixops.h:
/usr/include/suitesparse/cholmod_modify.h:
