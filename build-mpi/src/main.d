build-mpi/src/main.o: src/main.c \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 src/batch.h src/cone.h src/problem.h src/csr.h src/common.h src/config.h \
 src/generate.h src/info.h src/io/io.h src/io/../problem.h \
 src/solvers/solver.h src/solvers/../problem.h src/solvers/../trace.h \
 src/solvers/../io/io.h src/solvers/../verify.h src/solvers/../problem.h \
 src/solvers/../verify.h src/solvers/../precond/precond.h \
 src/solvers/../precond/../csr.h src/solvers/../graph/graph.h \
 src/solvers/../graph/../problem.h src/graph/decompose.h \
 src/graph/../solvers/solver.h src/sparse_factor.h \
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
 /usr/include/suitesparse/cholmod_modify.h \
 /usr/include/suitesparse/umfpack.h \
 /usr/include/suitesparse/umfpack_symbolic.h \
 /usr/include/suitesparse/umfpack_numeric.h \
 /usr/include/suitesparse/umfpack_solve.h \
 /usr/include/suitesparse/umfpack_free_symbolic.h \
 /usr/include/suitesparse/umfpack_free_numeric.h \
 /usr/include/suitesparse/umfpack_defaults.h \
 /usr/include/suitesparse/umfpack_qsymbolic.h \
 /usr/include/suitesparse/umfpack_wsolve.h \
 /usr/include/suitesparse/umfpack_triplet_to_col.h \
 /usr/include/suitesparse/umfpack_col_to_triplet.h \
 /usr/include/suitesparse/umfpack_transpose.h \
 /usr/include/suitesparse/umfpack_scale.h \
 /usr/include/suitesparse/umfpack_get_lunz.h \
 /usr/include/suitesparse/umfpack_get_numeric.h \
 /usr/include/suitesparse/umfpack_get_symbolic.h \
 /usr/include/suitesparse/umfpack_save_numeric.h \
 /usr/include/suitesparse/umfpack_load_numeric.h \
 /usr/include/suitesparse/umfpack_save_symbolic.h \
 /usr/include/suitesparse/umfpack_load_symbolic.h \
 /usr/include/suitesparse/umfpack_get_determinant.h \
 /usr/include/suitesparse/umfpack_report_status.h \
 /usr/include/suitesparse/umfpack_report_info.h \
 /usr/include/suitesparse/umfpack_report_control.h \
 /usr/include/suitesparse/umfpack_report_matrix.h \
 /usr/include/suitesparse/umfpack_report_triplet.h \
 /usr/include/suitesparse/umfpack_report_vector.h \
 /usr/include/suitesparse/umfpack_report_symbolic.h \
 /usr/include/suitesparse/umfpack_report_numeric.h \
 /usr/include/suitesparse/umfpack_report_perm.h \
 /usr/include/suitesparse/umfpack_timer.h \
 /usr/include/suitesparse/umfpack_tictoc.h /usr/include/suitesparse/amd.h \
 /usr/include/suitesparse/umfpack_global.h
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
src/batch.h:
src/cone.h:
src/problem.h:
src/csr.h:
src/common.h:
src/config.h:
src/generate.h:
src/info.h:
src/io/io.h:
src/io/../problem.h:
src/solvers/solver.h:
src/solvers/../problem.h:
src/solvers/../trace.h:
src/solvers/../io/io.h:
src/solvers/../verify.h:
src/solvers/../problem.h:
src/solvers/../verify.h:
src/solvers/../precond/precond.h:
src/solvers/../precond/../csr.h:
src/solvers/../graph/graph.h:
src/solvers/../graph/../problem.h:
src/graph/decompose.h:
src/graph/../solvers/solver.h:
src/sparse_factor.h:
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
/usr/include/suitesparse/umfpack.h:
/usr/include/suitesparse/umfpack_symbolic.h:
/usr/include/suitesparse/umfpack_numeric.h:
/usr/include/suitesparse/umfpack_solve.h:
/usr/include/suitesparse/umfpack_free_symbolic.h:
/usr/include/suitesparse/umfpack_free_numeric.h:
/usr/include/suitesparse/umfpack_defaults.h:
/usr/include/suitesparse/umfpack_qsymbolic.h:
/usr/include/suitesparse/umfpack_wsolve.h:
/usr/include/suitesparse/umfpack_triplet_to_col.h:
/usr/include/suitesparse/umfpack_col_to_triplet.h:
/usr/include/suitesparse/umfpack_transpose.h:
/usr/include/suitesparse/umfpack_scale.h:
/usr/include/suitesparse/umfpack_get_lunz.h:
/usr/include/suitesparse/umfpack_get_numeric.h:
/usr/include/suitesparse/umfpack_get_symbolic.h:
/usr/include/suitesparse/umfpack_save_numeric.h:
/usr/include/suitesparse/umfpack_load_numeric.h:
/usr/include/suitesparse/umfpack_save_symbolic.h:
/usr/include/suitesparse/umfpack_load_symbolic.h:
/usr/include/suitesparse/umfpack_get_determinant.h:
/usr/include/suitesparse/umfpack_report_status.h:
/usr/include/suitesparse/umfpack_report_info.h:
/usr/include/suitesparse/umfpack_report_control.h:
/usr/include/suitesparse/umfpack_report_matrix.h:
/usr/include/suitesparse/umfpack_report_triplet.h:
/usr/include/suitesparse/umfpack_report_vector.h:
/usr/include/suitesparse/umfpack_report_symbolic.h:
/usr/include/suitesparse/umfpack_report_numeric.h:
/usr/include/suitesparse/umfpack_report_perm.h:
/usr/include/suitesparse/umfpack_timer.h:
/usr/include/suitesparse/umfpack_tictoc.h:
/usr/include/suitesparse/amd.h:
/usr/include/suitesparse/umfpack_global.h:
