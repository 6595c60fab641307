/* src/la/suitesparse.h: lcp_csr matrices as CHOLMOD sees them, and a quiet
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

/* The numeric Cholesky factorisation of A + shift I (shift 0: of A) on L's
 * symbolic factor, as cholmod_factorize_p; returns its TRUE/FALSE, the
 * status in c->status.  The one way lcpsolve calls it: with OpenMP's
 * dynamic threads on.  CHOLMOD's supernodal factorisation (SuiteSparse 5)
 * opens its parallel loops with num_threads(CHOLMOD_OMP_NUM_THREADS), 4
 * whatever -j and OMP_NUM_THREADS say, so every factorisation ran on 4
 * threads (3 of them started by the first), whose barriers wait for
 * descheduled threads on a loaded machine (admm on KaplasTower at load 10
 * on 2 cores: wall time 5-10 times the CPU time).  With dynamic threads
 * libgomp bounds the count by the one asked for (omp_set_num_threads: -j, 1
 * by default) and the load average. */
int lcp_cholmod_factorize(cholmod_sparse *A, double shift, cholmod_factor *L, cholmod_common *c);

#endif
