/* src/io/fclib_check.h: the checks src/io/fclib.c applies to what libfclib
 * read, on structs given by the caller (tests/fuzz/fuzz_fclib.c builds them
 * from fuzz bytes).  len gives the element count of each array as it was
 * allocated (for the HDF5 path: the dataset sizes checked before reading).
 * Fills p (kind fc3d; local: A, b, mu; global: M, J, v, e, mu) or fails
 * with LCP_INPUT_ERROR naming path, exactly as lcp_read_fclib does after
 * libfclib returns.  The caller still owns the structs. */
#ifndef LCPSOLVE_FCLIB_CHECK_H
#define LCPSOLVE_FCLIB_CHECK_H

#include "../core/problem.h"

#include <fclib.h>

typedef struct {
    long long W[3];          /* local: W's p, i, x */
    long long q, mu;         /* local: q; both: mu */
    long long M[3], H[3];    /* global: M's and H's p, i, x */
    long long f, w;          /* global */
} lcp_fclib_lengths;

int lcp_fclib_local_checked(const char *path, const struct fclib_local *fl, const lcp_fclib_lengths *len,
                            lcp_problem *p, lcp_err *err);
int lcp_fclib_global_checked(const char *path, const struct fclib_global *fg, const lcp_fclib_lengths *len,
                             lcp_problem *p, lcp_err *err);

#endif
