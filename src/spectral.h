/* src/spectral.h: cheap spectral estimates by power iteration. */
#ifndef LCP_SPECTRAL_H
#define LCP_SPECTRAL_H

#include "csr.h"

/* Estimates the extreme eigenvalues of S = D^-1/2 A_s D^-1/2 (A_s = (A + A')/2,
 * D = diag(A), which must be positive) by `iters` power iterations for lmax
 * and as many on lmax*I - S for lmin.  Deterministic (fixed start vector).
 * Returns 0, or LCP_ERROR on a non-positive diagonal or no memory. */
int lcp_scaled_spectrum(const lcp_csr *A, int iters, double *lmin, double *lmax);

#endif
