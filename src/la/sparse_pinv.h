/* src/la/sparse_pinv.h: the pseudo-inverse of a sparse symmetric positive
 * semidefinite matrix S, applied without forming it (a singular S of any
 * size: redundant contacts make A = J M^-1 J' singular).
 *
 * Method.  Rank: a simplicial LDL' factorisation (CHOLMOD) of the
 * unit-diagonal scaling Z S Z + delta I (Z = diag(S)^-1/2, delta =
 * LCP_PINV_SHIFT) with its fill-reducing order; a row whose pivot D_k is
 * below LCP_PINV_RANK_TOL depends on the rows before it in that order (in
 * exact arithmetic S's Schur complement there is 0: a PSD matrix with a
 * zero diagonal entry has a zero row, so the shift keeps the next pivots
 * as they are to within delta).  I: the other rows; D the dependent ones.
 * Then S_II is positive definite and rank S = |I|; its Cholesky (CHOLMOD,
 * supernodal) is G0 = [S_II^-1 0; 0 0], a generalised inverse (S G0 S = S
 * because S's Schur complement on D is 0, which is checked: its diagonal,
 * PSD, to LCP_PINV_SCHUR_TOL of diag(S)).  The null space is spanned by
 * the columns N_d = [-S_II^-1 S_Id; e_d] (d in D), sparse where the
 * dependencies are local (a face's fourth contact on its three others:
 * entries below 1e-13 of a column's largest are rounding and dropped), and
 * with the orthogonal projector P = I - N (N'N)^-1 N' onto range(S)
 *     S^+ = P G0 P
 * (S^+ = S^+ S G0 S S^+ and S S^+ = S^+ S = P): one solve with S_II's
 * factor, two products with N and N', and two solves with the Cholesky of
 * the |D| x |D| matrix N'N.  S^+ r is the least-squares solution of S y = r
 * of minimal norm, and S^+ is symmetric: the same call serves S'. */
#ifndef LCPSOLVE_SPARSE_PINV_H
#define LCPSOLVE_SPARSE_PINV_H

#include "../core/common.h"
#include "csr.h"
#include "sparse_factor.h"

#define LCP_PINV_SHIFT 1e-11    /* delta: the scaled matrix's shift for the rank's LDL' */
#define LCP_PINV_RANK_TOL 1e-9  /* the smallest scaled pivot below this: there are dependent rows */
#define LCP_PINV_GAP 100.0      /* their pivots' cluster ends at a gap of this ratio */
#define LCP_PINV_RANK_MAX 1e-5  /* or at this */
#define LCP_PINV_CLEAR 1e3      /* the next pivot at least this times the cluster's largest, else the rank is unclear */
#define LCP_PINV_SCHUR_TOL 1e-5 /* a dependent row's Schur complement, relative to S_dd */
#define LCP_PINV_DROP 1e-13     /* null-vector entries below this times the column's largest: dropped */

typedef struct {
    int n, ni, nd;          /* rows; independent; dependent (the null space's dimension) */
    int *imap;              /* row -> its place among the independent rows, -1 dependent */
    int *dep;               /* the dependent rows (nd) */
    lcp_csr SI;             /* S_II */
    lcp_sparse_factor F;    /* its Cholesky */
    int f_on;
    cholmod_common cc;      /* N, N'N and its factor */
    int cc_on;
    cholmod_sparse *N;      /* n x nd, the null space's basis (columns) */
    cholmod_factor *LG;     /* Cholesky of N'N */
    cholmod_dense *c, *X, *Y, *E; /* nd: N' v, and cholmod_solve2's workspace */
    double *u, *v;          /* n, ni */
} lcp_pinv;

/* Prepares S^+ for S (n x n CSR, both triangles stored, symmetric).
 * 0: ready (P->nd the null space's dimension, 0 when S is nonsingular to
 * the tolerance); 1: S is not positive semidefinite, its dependent rows'
 * Schur complement is not 0, or S_II is not positive definite -- the
 * caller takes another way, nothing is set; LCP_ERROR (err set) for memory
 * or a failure of the libraries.  lcp_pinv_free in every case. */
int lcp_pinv_init(lcp_pinv *P, const lcp_csr *S, lcp_err *err);

/* y = S^+ r (n each; r == y allowed).  0, or LCP_ERROR. */
int lcp_pinv_apply(lcp_pinv *P, const double *r, double *y);

void lcp_pinv_free(lcp_pinv *P);

#endif
