/* src/suitesparse.h: lcp_csr matrices as CHOLMOD sees them, and a quiet
 * CHOLMOD workspace: the one place these conventions are written down. */
#ifndef LCPSOLVE_SUITESPARSE_H
#define LCPSOLVE_SUITESPARSE_H

#include <cholmod.h>

#include "csr.h"

/* The CSR arrays of A read as a CHOLMOD compressed-column matrix: that is
 * A' (n x m), with no copy; stype 0 (both triangles), or for a symmetric A
 * stype 1 / -1 to have CHOLMOD use the upper / lower triangle of A itself.
 * The view borrows A's arrays: do not free it with cholmod_free_sparse. */
cholmod_sparse lcp_csr_as_cholmod(const lcp_csr *A, int stype);

/* cholmod_start with printing off, no error handler, and LL' factors
 * (final_ll: an LDL' factorisation would accept an indefinite matrix). */
void lcp_cholmod_start(cholmod_common *c);

#endif
