/* src/la/sparse_pinv.h: the pseudo-inverse of a sparse symmetric positive
 * semidefinite matrix S, applied without forming it (a singular S of any
 * size: redundant contacts make A = J M^-1 J' singular).
 *
 * Method.  Rank: a simplicial LDL' factorisation (CHOLMOD) of the
 * unit-diagonal scaling Z S Z + delta I (Z = diag(S)^-1/2, delta =
 * LCP_PINV_SHIFT) with its fill-reducing order.  A row whose pivot D_k is
 * below LCP_PINV_RANK_TOL depends on the rows before it in that order (in
 * exact arithmetic S's Schur complement there is 0: a PSD matrix with a
 * zero diagonal entry has a zero row, so the shift keeps the next pivots
 * as they are to within delta); a pivot above LCP_PINV_SURE is a row
 * independent of them.  Between lie rounding (the LDL' has no pivoting:
 * eliminating many dependent rows leaves errors up to 1e-7 and more) and
 * small true pivots: those rows C are settled exactly, by the Schur
 * complement T = S_CC - S_CI S_II^-1 S_IC on them of the sure rows I
 * (positive definite, so accurate) and LAPACK's pivoted Cholesky of T
 * (dpstrf) to the same tolerance: its rank's rows join I, the rest D.
 * Then S_II is positive definite and rank S = |I|: its Cholesky (CHOLMOD,
 * supernodal; each pivot, relative to its row's diagonal, must pass
 * LCP_PINV_RCOND: a dependent row the LDL' took for a sure one fails
 * there) gives G0 = [S_II^-1 0; 0 0], a generalised inverse (S G0 S = S
 * because S's Schur complement on D is 0, which is checked: its diagonal,
 * PSD, to LCP_PINV_SCHUR_TOL of diag(S)).  The null space is spanned by
 * the columns N_d = [-S_II^-1 S_Id; e_d] (d in D), sparse where the
 * dependencies are local (a face's fourth contact on its three others:
 * entries below 1e-13 of a column's largest are rounding and dropped):
 * with M = S_II^-1 S_ID (its rows those columns' parts in I, negated) and
 * C = [I M] (in the order I, D), S = C' S_II C with C of full row rank, so
 *     S^+ = C' (C C')^-1 S_II^-1 (C C')^-1 C,
 * C C' = I + M M' the range's Gram matrix (|I| x |I|, its Cholesky by
 * CHOLMOD): one solve with S_II's factor, two with the Gram matrix's and
 * two products with M.  The answer is C' times a vector: in the range of S
 * to the rounding of that product, with no projection onto it to be made
 * again.  (The other way, S^+ = P G0 P with the projector P = I - N
 * (N'N)^-1 N' onto the range, needs each projection made twice against the
 * rounding of the ill-conditioned N'N; on a pyramid of 10,000 contacts,
 * 3,825 rows independent, the Cholesky of N'N holds 3.6 million nonzeros
 * where that of I + M M' holds 2.0 million, and an application costs 3.4
 * times this one.)  S^+ r is the least-squares solution of S y = r of
 * minimal norm, and S^+ is symmetric: the same call serves S'. */
#ifndef LCPSOLVE_SPARSE_PINV_H
#define LCPSOLVE_SPARSE_PINV_H

#include "../core/common.h"
#include "csr.h"
#include "sparse_factor.h"

#define LCP_PINV_SHIFT 1e-11       /* delta: the scaled matrix's shift for the rank's LDL' */
#define LCP_PINV_RANK_TOL 1e-9     /* a scaled pivot below this: a dependent row */
#define LCP_PINV_SURE 1e-4         /* a scaled pivot above this: an independent row; between: settled exactly */
#define LCP_PINV_UNCLEAR_MAX 4000  /* more rows between than this: declined (T dense) */
#define LCP_PINV_SCHUR_TOL 1e-6    /* a dependent row's Schur complement, relative to S_dd */
#define LCP_PINV_RCOND 1e-10       /* S_II's Cholesky pivots, relative to their diagonal, at least this */
#define LCP_PINV_DROP 1e-13        /* null-vector entries below this times the column's largest: dropped */

typedef struct {
    int n, ni, nd;          /* rows; independent; dependent (the null space's dimension) */
    int *imap;              /* row -> its place among the independent rows, -1 dependent */
    int *dep;               /* the dependent rows (nd) */
    lcp_csr SI;             /* S_II */
    lcp_sparse_factor F;    /* its Cholesky */
    int f_on;
    cholmod_common cc;      /* M', I + M M' and its factor */
    int cc_on;
    cholmod_sparse *Mt;     /* ni x nd: column d the null vector of dependent row dep[d] on the independent rows,
                             * negated: row d of M = S_II^-1 S_ID */
    cholmod_factor *LC;     /* Cholesky of the range's Gram matrix I + M M' (ni x ni) */
    cholmod_dense *c, *X, *Y, *E; /* ni: its right-hand side, and cholmod_solve2's workspace */
    double *v;              /* ni: S^+ r's part in I as it is made */
} lcp_pinv;

/* Prepares S^+ for S (n x n CSR, both triangles stored, symmetric).
 * 0: ready (P->nd the null space's dimension, 0 when S is nonsingular to
 * the tolerance); 1: S is not positive semidefinite, more than
 * LCP_PINV_UNCLEAR_MAX rows are unclear, its dependent rows' Schur
 * complement is not 0, or S_II is not positive definite -- the caller
 * takes another way, nothing is set; LCP_ERROR (err set) for memory
 * or a failure of the libraries.  lcp_pinv_free in every case. */
int lcp_pinv_init(lcp_pinv *P, const lcp_csr *S, lcp_err *err);

/* y = S^+ r (n each; r == y allowed).  0, or LCP_ERROR. */
int lcp_pinv_apply(lcp_pinv *P, const double *r, double *y);

void lcp_pinv_free(lcp_pinv *P);

#endif
