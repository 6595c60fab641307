build-mpi/src/io/fclib.o: src/io/fclib.c src/io/io.h src/io/../problem.h \
 src/io/../csr.h src/io/../common.h src/io/../suitesparse.h \
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
 /usr/include/hdf5/serial/hdf5.h /usr/include/hdf5/serial/H5public.h \
 /usr/include/hdf5/serial/H5pubconf.h \
 /usr/include/hdf5/serial/H5version.h \
 /usr/include/hdf5/serial/H5api_adpt.h \
 /usr/include/hdf5/serial/H5Apublic.h \
 /usr/include/hdf5/serial/H5Ipublic.h \
 /usr/include/hdf5/serial/H5Opublic.h \
 /usr/include/hdf5/serial/H5Lpublic.h \
 /usr/include/hdf5/serial/H5Tpublic.h \
 /usr/include/hdf5/serial/H5ACpublic.h \
 /usr/include/hdf5/serial/H5Cpublic.h \
 /usr/include/hdf5/serial/H5Dpublic.h \
 /usr/include/hdf5/serial/H5Epublic.h \
 /usr/include/hdf5/serial/H5Epubgen.h \
 /usr/include/hdf5/serial/H5Fpublic.h \
 /usr/include/hdf5/serial/H5FDpublic.h \
 /usr/include/hdf5/serial/H5Gpublic.h \
 /usr/include/hdf5/serial/H5MMpublic.h \
 /usr/include/hdf5/serial/H5Ppublic.h \
 /usr/include/hdf5/serial/H5Spublic.h \
 /usr/include/hdf5/serial/H5Zpublic.h \
 /usr/include/hdf5/serial/H5PLpublic.h \
 /usr/include/hdf5/serial/H5Rpublic.h /usr/include/hdf5/serial/H5FDcore.h \
 /usr/include/hdf5/serial/H5FDdirect.h \
 /usr/include/hdf5/serial/H5FDfamily.h \
 /usr/include/hdf5/serial/H5FDhdfs.h /usr/include/hdf5/serial/H5FDlog.h \
 /usr/include/hdf5/serial/H5FDmirror.h /usr/include/hdf5/serial/H5FDmpi.h \
 /usr/include/hdf5/serial/H5FDmpio.h /usr/include/hdf5/serial/H5FDmulti.h \
 /usr/include/hdf5/serial/H5FDros3.h /usr/include/hdf5/serial/H5FDsec2.h \
 /usr/include/hdf5/serial/H5FDsplitter.h \
 /usr/include/hdf5/serial/H5FDstdio.h
src/io/io.h:
src/io/../problem.h:
src/io/../csr.h:
src/io/../common.h:
src/io/../suitesparse.h:
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
/usr/include/hdf5/serial/hdf5.h:
/usr/include/hdf5/serial/H5public.h:
/usr/include/hdf5/serial/H5pubconf.h:
/usr/include/hdf5/serial/H5version.h:
/usr/include/hdf5/serial/H5api_adpt.h:
/usr/include/hdf5/serial/H5Apublic.h:
/usr/include/hdf5/serial/H5Ipublic.h:
/usr/include/hdf5/serial/H5Opublic.h:
/usr/include/hdf5/serial/H5Lpublic.h:
/usr/include/hdf5/serial/H5Tpublic.h:
/usr/include/hdf5/serial/H5ACpublic.h:
/usr/include/hdf5/serial/H5Cpublic.h:
/usr/include/hdf5/serial/H5Dpublic.h:
/usr/include/hdf5/serial/H5Epublic.h:
/usr/include/hdf5/serial/H5Epubgen.h:
/usr/include/hdf5/serial/H5Fpublic.h:
/usr/include/hdf5/serial/H5FDpublic.h:
/usr/include/hdf5/serial/H5Gpublic.h:
/usr/include/hdf5/serial/H5MMpublic.h:
/usr/include/hdf5/serial/H5Ppublic.h:
/usr/include/hdf5/serial/H5Spublic.h:
/usr/include/hdf5/serial/H5Zpublic.h:
/usr/include/hdf5/serial/H5PLpublic.h:
/usr/include/hdf5/serial/H5Rpublic.h:
/usr/include/hdf5/serial/H5FDcore.h:
/usr/include/hdf5/serial/H5FDdirect.h:
/usr/include/hdf5/serial/H5FDfamily.h:
/usr/include/hdf5/serial/H5FDhdfs.h:
/usr/include/hdf5/serial/H5FDlog.h:
/usr/include/hdf5/serial/H5FDmirror.h:
/usr/include/hdf5/serial/H5FDmpi.h:
/usr/include/hdf5/serial/H5FDmpio.h:
/usr/include/hdf5/serial/H5FDmulti.h:
/usr/include/hdf5/serial/H5FDros3.h:
/usr/include/hdf5/serial/H5FDsec2.h:
/usr/include/hdf5/serial/H5FDsplitter.h:
/usr/include/hdf5/serial/H5FDstdio.h:
