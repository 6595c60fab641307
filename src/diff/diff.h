/* src/diff/diff.h: exact derivatives of a verified solution x(A, b, mu) by
 * implicit differentiation of the natural map at x.
 *
 * Every kind is written as one natural-map equation G(x) = 0:
 *   lcp : G = x - max(0, x - w)
 *   blcp: G = x - mid(lo(x), x - w, hi(x))   (findex: lo, hi = -+mu_i |x_j|)
 *   ccp : G_i = r_i - P_K(mu_i)(r_i - u_i)            per contact
 *   fc3d: G_i = r_i - P_K(mu_i)(r_i - u_i - mu_i |u_iT| e_n)
 * with w = u = A x + b (+ reg x).  At the solution its (generalised)
 * Jacobian is
 *     dG = K dx + B (dA x + db) + C dmu,   K = (I - P') + B A,  B = P' (I + S)
 * where P' is the derivative of the projection (a 0/1 diagonal for lcp and
 * blcp, the 3 x 3 derivative of the cone projection for friction: interior
 * I, polar cone 0, boundary the rank-2 surface projection), S the De Saxce
 * term's derivative (fc3d) and C the derivative in mu.  So
 *     JVP: dx = -K^-1 (B (dA x + db) + C dmu)
 *     VJP: l = K^-T g;  nu = -B' l;  grad_b = nu, grad_A(i,j) = nu_i x_j,
 *          grad_mu = -C' l
 * with one factorisation made once and reused by every JVP and VJP: rows
 * held at their bound (K's row e_i) are eliminated, and the rest, K_RR, is
 * factorised by CHOLMOD where it is symmetric (lcp and blcp with A
 * symmetric: K_RR = A_RR) and by UMFPACK's LU otherwise (fc3d: De Saxce's
 * term makes it unsymmetric where contacts slide); ccp with A symmetric
 * takes a symmetric reduction instead (a Cholesky; see fsym below), and
 * so does an fc3d whose contacts do not slide (|u_T| within the tolerance
 * or in the polar cone: De Saxce's S is 0 and K is ccp's).  A
 * singular K_RR (redundant contacts) takes its pseudo-inverse: the
 * derivative of minimal norm -- sparse where K_RR is symmetric
 * (src/la/sparse_pinv.h), dense otherwise.  A blcp's bounds lo, hi enter as one more
 * right-hand side on the rows held at them (dx_i = dlo_i or dhi_i).
 *
 * Degenerate rows (both sides of a complementarity pair within the
 * tolerance, or z = x - w on the border of two pieces of the projection)
 * take the piece of lower rank: the row stays at its bound (lcp: dx_i = 0;
 * blcp: dx_i = d bound_i; friction: the polar piece (dr_i = 0) before the
 * surface, the surface before the interior).  They are flagged.
 *
 * The factored form (M, J, v, e; A = J M^-1 J', b = J v + e) chains
 * through M^-1 (a CHOLMOD factor of M). */
#ifndef LCPSOLVE_DIFF_H
#define LCPSOLVE_DIFF_H

#include "../core/problem.h"
#include "../la/sparse_factor.h"
#include "../la/sparse_pinv.h"

/* The tolerance of degeneracy, relative to the residual's scale
 * (max(1, |b|_inf) for lcp / blcp, max(1, |q|, |r|, |u|) for friction). */
#define LCP_DIFF_DEG_TOL 1e-7
/* x must solve the problem differentiated (with reg) to this natural-map
 * residual, relative to the same scale (max over rows, or contacts). */
#define LCP_DIFF_SOLVED_TOL 1e-6
/* A singular K_RR (reciprocal condition below 1e-14, or a singular LU):
 * the derivative is the least-squares solution of minimal norm (K_RR's
 * pseudo-inverse).  Symmetric and positive semidefinite (lcp, blcp with A
 * symmetric; ccp's M below): the sparse one of src/la/sparse_pinv.h, any
 * size.  Else, or where that one declines (not semidefinite, its rank not
 * settled): LAPACK's dsyevd or dgesdd, the
 * singular values below LCP_DIFF_RANK_TOL times the largest counting as
 * zero, when nr is at most LCP_DIFF_DENSE_MAX; larger ones are refused. */
#define LCP_DIFF_RANK_TOL 1e-9
#define LCP_DIFF_DENSE_MAX 3000
/* UMFPACK's iterative refinement steps in a solve with K_RR's LU */
#define LCP_DIFF_LU_REFINE 0

typedef struct {
    const lcp_problem *p;  /* borrowed: the problem solved (kept unchanged while this lives) */
    int n, nc, nmu;
    double reg;            /* the solve's --reg: the derivative is of A + reg I */
    double *x, *w;         /* the solution and w = (A + reg I) x + b */
    double *B;             /* lcp/blcp: n (diagonal); friction: 9 nc (3 x 3 blocks, row-major) */
    double *C;             /* d G / d mu: n entries (row i: column mu_i for blcp, mu_{i/3} for friction) */
    int *flag;             /* per row: 1 degenerate */
    int ndeg;
    int *side;             /* blcp: -1 held at lo[i], 1 at hi[i] (rows without findex), else 0 */
    int bounds;            /* blcp: lo and hi are variables of the JVP and VJP */
    double residual;       /* of x, relative (LCP_DIFF_SOLVED_TOL) */
    lcp_csr K;
    /* rows whose K row is e_i (x_i held at a bound that moves with no
     * other unknown; a contact in the polar cone) are solved apart: K =
     * [K_RR K_RF; 0 I], and only K_RR (nr x nr) is factorised */
    int nr, *ridx, *rmap;  /* the other rows; rmap[i]: i's place among them, -1 if held */
    lcp_csr KR;            /* K_RR */
    lcp_csr KF;            /* K_RF: row k of K_RR's rows, its entries in held columns (global column index) */
    lcp_sparse_factor F;   /* Cholesky of K_RR where it is symmetric (lcp, blcp: A symmetric) */
    int fac_on, chol;
    /* else K_RR's LU (UMFPACK): its pattern is symmetric (B is block
     * diagonal, K_RR's blocks those of A_RR), so the symmetric strategy
     * (AMD on K_RR + K_RR', diagonal pivots preferred) gives a fill near
     * A's Cholesky; no iterative refinement (LCP_DIFF_LU_REFINE) */
    void *lu_sym, *lu_num;
    double lu_control[UMFPACK_CONTROL], lu_info[UMFPACK_INFO];
    int *lu_wi;
    double *lu_ww;
    /* ccp (fc3d without sliding) with A symmetric: the symmetric reduction instead of K_RR.  Per
     * contact P' = T diag(D) T' (T orthonormal, 3 x 3, column-major; D: 1
     * inside the cone; 1, lambda, 0 on its surface along the generator, the
     * tangent circle and the cone's normal; 0 in the polar cone).  In y =
     * T' dx the components with D = 0 are fixed by the right-hand side
     * (held) and the others solve the symmetric positive (semi)definite
     *   M y_f = ...,  M = diag(1/D - 1) + T_f' (A + reg I) T_f,
     * factorised by CHOLMOD: a JVP or VJP is one Cholesky solve and one
     * product with A restricted to the held rows.  M singular (redundant
     * contacts): its sparse pseudo-inverse (SP, sp_on) -- y_f of minimal
     * norm, so dx = T y too (T orthonormal, y_h fixed). */
    int fsym, nf;
    double *T, *D;         /* 9 nc, 3 nc */
    int *fmap;             /* per component (3 c + k): its row of M, -1 held */
    lcp_csr MF;
    lcp_sparse_factor FS;
    int fs_on;
    double *f1, *f2, *z, *az; /* nf, nf, n, n */
    /* K_RR singular (rank deficient: redundant contacts): its pseudo-inverse
     * (dense, nr x nr, column-major) stands for its inverse: the derivative
     * of minimal norm (see LCP_DIFF_RANK_TOL) */
    double *pinv;
    /* or, K_RR symmetric, of any size: the sparse pseudo-inverse (src/la/sparse_pinv.h) */
    lcp_pinv SP;
    int sp_on;
    int nullity;           /* nr - the numerical rank of K_RR; 0: K_RR invertible */
    double *r1, *r2;       /* nr each */
    /* the factored form */
    lcp_sparse_factor FM;  /* Cholesky of M */
    int fm_on;
    double *pz;            /* M^-1 J' x (nb) */
    double *t1, *t2;       /* workspace: n, nb */
} lcp_diff;

/* Prepares the derivatives at the solution x (p->n values) of p (finished:
 * lcp_problem_finish passed), the problem having been solved with
 * regularisation reg (0: none).  A singular K_RR (the solution not
 * unique, e.g. redundant contacts) takes its pseudo-inverse (SP or pinv,
 * nullity); LCP_ERROR when the sparse one does not take it (not
 * symmetric, indefinite) and it has more than LCP_DIFF_DENSE_MAX rows
 * (differentiate a regularised problem, --reg) or out of memory.  lcp_diff_free even on failure. */
int lcp_diff_prepare(lcp_diff *d, const lcp_problem *p, const double *x, double reg, lcp_err *err);

/* dx = the derivative of x along dA (values in p->A's order, NULL: 0), db
 * (n, NULL: 0), dmu (nmu, NULL: 0). */
int lcp_diff_jvp(lcp_diff *d, const double *dA, const double *db, const double *dmu, double *dx, lcp_err *err);

/* The gradients of <g, x> (g: n): grad_A (nnz(A), p->A's order), grad_b (n),
 * grad_mu (nmu); any may be NULL. */
int lcp_diff_vjp(lcp_diff *d, const double *g, double *grad_A, double *grad_b, double *grad_mu, lcp_err *err);

/* The factored form (p->M, p->J present): dM, dJ in the order of p->M.x,
 * p->J.x, dv (nb), de (n), dmu; any NULL: 0. */
int lcp_diff_jvp_factored(lcp_diff *d, const double *dM, const double *dJ, const double *dv, const double *de,
                          const double *dmu, double *dx, lcp_err *err);
int lcp_diff_vjp_factored(lcp_diff *d, const double *g, double *grad_M, double *grad_J, double *grad_v,
                          double *grad_e, double *grad_mu, lcp_err *err);

/* The same with the bounds of a blcp as variables too: dlo, dhi (n each,
 * NULL: 0; rows with findex ignore them), and their gradients grad_lo,
 * grad_hi (n each, 0 on rows not held at that bound; NULL: not computed).
 * Of a problem of another kind, dlo and dhi must be NULL and grad_lo,
 * grad_hi are zeros. */
int lcp_diff_jvp_bounds(lcp_diff *d, const double *dA, const double *db, const double *dmu, const double *dlo,
                        const double *dhi, double *dx, lcp_err *err);
int lcp_diff_vjp_bounds(lcp_diff *d, const double *g, double *grad_A, double *grad_b, double *grad_mu,
                        double *grad_lo, double *grad_hi, lcp_err *err);

/* How K_RR was factorised: "Cholesky (CHOLMOD)", "LU (UMFPACK, symmetric
 * strategy)", "pseudo-inverse (LAPACK)", "none" (every row held), or for ccp
 * "symmetric reduction, Cholesky (CHOLMOD)". */
const char *lcp_diff_method(const lcp_diff *d);

/* y = K_RR^-1 r (trans: K_RR^-T r) with the handle's factor, as every JVP
 * and VJP does (the benchmarks time it alone). */
int lcp_diff_solve_factor(lcp_diff *d, int trans, const double *r, double *y);

/* The lcp_diff of a handle of the library (diff_api.c; the benchmarks). */
struct lcps_diff;
const lcp_diff *lcp_diff_of(const struct lcps_diff *h);

/* 1 where a pseudo-inverse stands for the inverse: the dense one, or the
 * sparse one with a null space (the derivative of minimal norm). */
static inline int lcp_diff_minimum_norm(const lcp_diff *d) { return d->pinv || (d->sp_on && d->SP.nd > 0); }

/* The number of degenerate rows (flag). */
int lcp_diff_count_degenerate(const lcp_diff *d);

void lcp_diff_free(lcp_diff *d);

/* The derivative of the projection onto K_mu = {(n, t): |t| <= mu n} at z
 * (3 values): Jp (3 x 3, row-major) and dP/dmu (3).  Returns the piece:
 * 0 polar (P = 0), 1 surface, 2 interior (P = z); *deg = 1 when z lies
 * within tol of a border between pieces (the lower piece is taken). */
int lcp_diff_cone_jacobian(double mu, const double *z, double tol, double *Jp, double *Pmu, int *deg);

#endif
