/* src/la/spectral.h: cheap spectral estimates by the Lanczos process. */
#ifndef LCPSOLVE_SPECTRAL_H
#define LCPSOLVE_SPECTRAL_H

#include "csr.h"

/* Estimates the extreme eigenvalues of S = D^-1/2 A_s D^-1/2 (A_s = (A + A')/2,
 * D = diag(A), which must be positive) by at most max_steps Lanczos steps
 * (one product with A each), stopping early once both ends have settled.
 * lmin is clamped at 0.  Deterministic (fixed start vector).  Returns 0, or
 * LCP_ERROR on a non-positive diagonal or no memory. */
/* The step limit the solvers use: enough for chains of a few thousand. */
#define LCP_LANCZOS_STEPS 3000

int lcp_scaled_spectrum(const lcp_csr *A, int max_steps, double *lmin, double *lmax);

/* The same for S = diag(scale) A_s diag(scale) (scale NULL: D^-1/2, as
 * above); *steps (if not NULL) gets the products with A made. */
int lcp_spectrum(const lcp_csr *A, const double *scale, int max_steps, double *lmin, double *lmax, int *steps);

/* lcp_scaled_spectrum that also stops as soon as the largest Ritz value
 * reaches hi_stop (then lmax >= hi_stop for certain; the Ritz values are
 * looked at after each of the first 10 steps, then every 10), for callers
 * that only need to know whether lmax passes a threshold (psor's omega:
 * lmax >= 2 means rho_Jacobi >= 1).  *steps (if not NULL) gets the
 * products with A made. */
int lcp_scaled_spectrum_until(const lcp_csr *A, int max_steps, double hi_stop, double *lmin, double *lmax,
                              int *steps);

/* lcp_spectrum(A, NULL, ...) for an A known to be symmetric: the same
 * estimate at half the memory traffic a step, the Ritz values by bisection
 * to a relative 1e-6 each (no LAPACK call, so no BLAS threads woken; what
 * auto's log-condition feature needs); a smallest Ritz value at or under
 * 1e-14 of the Gershgorin bound gives lmin 0.  Deterministic. */
int lcp_spectrum_symmetric(const lcp_csr *A, int max_steps, double *lmin, double *lmax, int *steps);

/* The same estimate for a non-symmetric A (of its symmetric part, as
 * lcp_spectrum) with the sums and Ritz values of lcp_spectrum_symmetric:
 * not lcp_spectrum's bits, 2-4 times faster on a dense A (auto's
 * log-condition feature).  Deterministic. */
int lcp_spectrum_part(const lcp_csr *A, int max_steps, double *lmin, double *lmax, int *steps);

/* The largest eigenvalue of the symmetric 3 x 3 matrix B (row-major; its
 * upper triangle is read): the trigonometric form of the roots of the
 * characteristic polynomial (Smith 1961, "Eigenvalues of a symmetric 3 x 3
 * matrix", Comm. ACM 4), exact to rounding (nsn's rho by contact blocks). */
double lcp_sym3_lmax(const double *B);

#endif
