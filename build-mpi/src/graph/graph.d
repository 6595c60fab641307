build-mpi/src/graph/graph.o: src/graph/graph.c src/graph/graph.h \
 src/graph/../problem.h src/graph/../csr.h src/graph/../common.h \
 src/graph/../io/io.h src/graph/../io/../problem.h \
 src/graph/../suitesparse.h /usr/include/suitesparse/cholmod.h \
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
 /usr/include/suitesparse/cholmod_modify.h /usr/include/suitesparse/amd.h
src/graph/graph.h:
src/graph/../problem.h:
src/graph/../csr.h:
src/graph/../common.h:
src/graph/../io/io.h:
src/graph/../io/../problem.h:
src/graph/../suitesparse.h:
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
/usr/include/suitesparse/amd.h:
