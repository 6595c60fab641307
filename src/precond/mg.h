/* src/precond/mg.h: the aggregation multigrid hierarchy behind the `mg`
 * preconditioner (src/precond/mg.c) and the `pmg` solver (src/solvers/pmg.c).
 *
 * Built once from a symmetric positive (semi)definite A (both triangles):
 *   level 0 = A; level l+1: A_{l+1} = P_l' A_l P_l (Galerkin, sparse
 *   products), P_l the smoothed-aggregation prolongation
 *   (I - omega D^-1 A_l) P_tent, P_tent piecewise constant on greedy
 *   aggregates of the strong graph |a_ij| >= theta sqrt(a_ii a_jj);
 *   coarsening stops at <= LCP_MG_COARSE_MAX rows (or when it stalls), where
 *   a CHOLMOD LL' factor of A_L + shift I (shift 1e-10 max diag, raised when
 *   the factorisation fails: singular coarse matrices) solves directly.
 * A cycle (V: cycle 1, W: cycle 2) from zero approximates A^-1 r; with
 * symmetric Gauss-Seidel smoothing (forward before, backward after the
 * coarse correction) it is a symmetric operator.
 *
 * The projected solver freezes rows at a bound: lcp_mg_mask() zeroes those
 * rows of P_0 and recomputes every coarse operator (and the coarse factor)
 * from the masked prolongation, so that lcp_mg_coarse_correction() corrects
 * the free rows only.
 */
#ifndef LCPSOLVE_MG_H
#define LCPSOLVE_MG_H

#include "../la/csr.h"

#define LCP_MG_COARSE_MAX 300 /* rows of the coarsest level (direct solve) */
#define LCP_MG_THETA 0.08     /* strength of connection */
#define LCP_MG_MAX_LEVELS 25

typedef struct lcp_mg lcp_mg;

/* Builds the hierarchy of A (square, symmetric, positive diagonal: refused
 * otherwise with LCP_INPUT_ERROR naming the row; `who` names the caller in
 * messages).  cycle: 1 V, 2 W.  A is borrowed: it must outlive the
 * hierarchy. */
int lcp_mg_build(lcp_mg **mg, const lcp_csr *A, int cycle, const char *who, lcp_err *err);
/* The same with at least two levels (P_0 = I when A is already small), for
 * lcp_mg_mask and lcp_mg_coarse_correction. */
int lcp_mg_build_projected(lcp_mg **mg, const lcp_csr *A, int cycle, const char *who, lcp_err *err);
void lcp_mg_free(lcp_mg *mg);

/* x = one cycle from zero for A x = r at level 0 (r, x distinct, n each). */
void lcp_mg_cycle(lcp_mg *mg, const double *r, double *x);

/* Masks rows of P_0: free[i] = 0 freezes row i (NULL: every row free), then
 * recomputes A_1.. and the coarse factor.  Returns 0 or LCP_ERROR (memory). */
int lcp_mg_mask(lcp_mg *mg, const unsigned char *free_rows, lcp_err *err);

/* e = P_0 (one cycle from zero at level 1 for A_1 e_c = P_0' r): the coarse
 * grid correction of level 0 (masked: e is 0 on frozen rows).  A one-level
 * hierarchy (lcp_mg_build on a small A) solves directly instead, unmasked. */
void lcp_mg_coarse_correction(lcp_mg *mg, const double *r, double *e);

/* The hierarchy, for tests and traces. */
int lcp_mg_levels(const lcp_mg *mg);
const lcp_csr *lcp_mg_matrix(const lcp_mg *mg, int level);       /* A_level */
const lcp_csr *lcp_mg_prolongation(const lcp_mg *mg, int level); /* P_level (masked at 0), level < levels-1 */

/* Sparse product C = A B (CSR, columns sorted). Returns 0 or LCP_ERROR. */
int lcp_csr_multiply(const lcp_csr *A, const lcp_csr *B, lcp_csr *C);

#endif
