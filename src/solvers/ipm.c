/* src/solvers/ipm.c: a primal-dual interior-point method with Mehrotra's
 * predictor-corrector for the monotone lcp
 *     w = A z + b,  z >= 0,  w >= 0,  z'w = 0,   A positive semidefinite
 * (x'A x >= 0 for every x; A symmetric or not).  References: Wright 1997,
 * "Primal-Dual Interior-Point Methods", SIAM, ch. 6 (infeasible starts), 8
 * (the monotone LCP) and 10 (Mehrotra's method); Nocedal and Wright 2006, "Numerical
 * Optimization", ch. 14 (predictor-corrector, step to the boundary);
 * Mehrotra 1992, SIAM J. Optim. 2(4); Kojima, Megiddo, Noma and Yoshise
 * 1991, "A unified approach to interior point algorithms for LCPs", LNCS 538.
 *
 * Iterates (z, w) > 0 strictly, infeasible in general: the residual
 *     r = w - A z - b,   mu = z'w / n   (complementarity)
 * goes to 0 together with mu.  Newton's method on (w - A z - b, Z W e) =
 * (0, sigma mu e), Z = diag(z), W = diag(w), e = ones:
 *     dw - A dz = -r,   W dz + Z dw = sigma mu e - Z W e - c
 * with dw = A dz - r eliminated:
 *     (A + Z^-1 W) dz = r - w + (sigma mu e - c) / z,   dw = A dz - r,
 * an n x n system, nonsymmetric when A is and symmetric positive definite
 * when A is symmetric (A psd plus a positive diagonal).  Step k, with one
 * factorization of M = A + Z^-1 W:
 *   predictor: sigma = 0, c = 0 (the affine-scaling direction dz_a, dw_a);
 *              a_a = the largest step in (0, 1] with z + a dz_a, w + a dw_a
 *              >= 0, mu_a = (z + a_a dz_a)'(w + a_a dw_a) / n;
 *   centring:  sigma = (mu_a / mu)^3 (Mehrotra's heuristic);
 *   corrector: c = dz_a .* dw_a (the second-order term of Z W);
 *   step:      a = min(1, tau a_max), a_max the step to the boundary of the
 *              corrected direction, tau = 0.99 rising to 0.9999 as mu/mu_0
 *              falls (fraction to the boundary); z += a dz, w += a dw, r is
 *              recomputed as w - A z - b (so the rounding of the steps never
 *              accumulates into it).
 * Monotonicity makes M nonsingular ((M + M')/2 >= Z^-1 W > 0) and gives the
 * convergence of infeasible-start interior-point methods to a solution
 * whenever one exists (Wright ch. 6 and 8); mu and r shrink by (1 - a) and
 * about (1 - a(1 - sigma)) a step: 5 to 30 steps to 1e-10 whatever the
 * conditioning.
 *
 * Starting point: z_0 = t_z e, w_0 = t_w e with t_w = max(1, ||b||_inf) and
 * t_z = t_w / (mean of A's diagonal), so that A z_0 and w_0 have the same
 * scale; the iterates do not use --warm-start (an interior-point method wants
 * a well-centred start): a warm start is checked as iteration 0, where the
 * monitor accepts it when it already solves the problem, and on the dense
 * path gives the first polish its active set (below).  A stall (below) on a start far
 * below the answer's scale is followed, once, by a restart from z_0 = T e,
 * T the largest entry of the unconstrained solution of (A + dmin I) z = -b,
 * when T > 4 t_z (see the restart after the loop).
 *
 * Endgame: near a solution the iterates stay interior, min(z_i, w_i) ~ mu /
 * max(z_i, w_i) (~ sqrt(mu) where the solution is degenerate), so mu is
 * driven well below the tolerance; once mu < 1e-6 mu_0 a cleanup ("polish")
 * is tried every step: guess the active set B = {i: z_i >= w_i}, set z_N =
 * 0 and solve A_BB z_B = -b_B by regularized Newton on the same pattern
 * (rows and columns outside B replaced by those of the identity, so the
 * symbolic factorization is reused), with two steps of iterative
 * refinement (stopped early once |(A z + b)_B| <= 1e-3 tol max(1, ||b||));
 * the candidate (projected on z >= 0) is shown to the monitor,
 * as an iteration of its own, only when its residual is below the last one
 * (it is no interior point: the iterates go on from z, w).
 *
 * Dense path: the polish factors A_BB alone (packed, |B|^3/3 flops, not
 * n^3/3) and runs as primal-dual active-set steps (Hintermueller, Ito and
 * Kunisch 2002, SIAM J. Optim. 13(3); the semismooth Newton method on
 * min(z, A z + b) = 0 that Siconos' lcp_newton_min also is): after each
 * solve B loses its z_i < 0 and gains the i outside with w_i < 0, while that
 * set of changes shrinks and the residual falls, at most 5 steps, the best
 * candidate shown.  Where the split is right it ends the solve at once, so
 * it is tried early: first from the active set of z = 0 (b_i < 0) or of the
 * warm start (x_i > 0), before any interior-point step, and then after the
 * steps, within a budget (its factorizations, weighed by (|B|/n)^3, at most
 * 1 + half the steps'); one that is no better than the best iterate so far
 * (at the start: than z = 0) puts the next early try off until mu has
 * fallen 1e3-fold.  Once mu < 1e-6 mu_0 it is one step each step, as on
 * the sparse path.  The stall test below counts interior-point steps, and
 * progress of the best residual or of the iterates' own.
 *
 * Linear systems (--linsolve): pcg (or -p NAME with auto; A symmetric):
 * conjugate gradients on M = A + Z^-1 W from 0 to |r| <= 1e-12 |rhs|, with
 * the -p preconditioner rebuilt from each step's M (src/precond/); dense: LAPACK, Cholesky dpotrf/dpotrs when A
 * is symmetric (tested once to 1e-12 of max|A_ij|, on the dense copy,
 * in one tiled pass with the 2x2 minors below), with LU
 * dgetrf/dgetrs for the steps where Cholesky fails, LU otherwise (n <=
 * 16384; A is copied row by row, which LAPACK reads as A': M' is factored,
 * LU solves transposed, Cholesky copies the lower triangle only); sparse: SuiteSparse on the pattern of A plus the diagonal (fixed
 * for every step, only the values of Z^-1 W change): CHOLMOD when A is
 * symmetric (cholmod_analyze once, cholmod_factorize on the same symbolic
 * factor each step; UMFPACK for the steps where it finds M not positive
 * definite, set up at the first such step), UMFPACK otherwise (umfpack_di_symbolic once, umfpack_di_numeric
 * per step; both through src/la/sparse_factor.c); auto: dense for n <= 1000,
 * sparse above.  info->message names
 * what ran.  LAPACK and the BLAS under CHOLMOD run on -j threads (default
 * 1: for n ~ 100 a second thread costs more than it gains).  The dense
 * path also takes its products with A (A z, the directions' A dz) from the
 * dense copy by BLAS dgemv; the curvature test's pass over |A| runs only
 * where dz'A dz < 0.  A symmetric A is its own transpose (no copy).  Z^-1 W is floored at 1e-13 max|A_ij| (a regularization that
 * keeps M numerically nonsingular when A is singular; r is recomputed
 * exactly, so it only makes the Newton step inexact).  All of our workspace
 * is allocated before the loop, and the first factorization and solve are
 * done there too; inside the loop CHOLMOD and UMFPACK manage their own numeric storage
 * (UMFPACK has no in-place refactorization: each umfpack_di_numeric builds a
 * new Numeric object, freed before the next).
 *
 * Verdicts (the monitor alone decides "solved"):
 *  - A not positive semidefinite -> status error, "A is not positive
 *    semidefinite (evidence): ipm needs a monotone LCP"; the evidence:
 *    before the first step, a negative diagonal entry or an indefinite 2x2
 *    principal submatrix of (A + A')/2 (O(nnz)); during the iteration,
 *    negative curvature dz'A dz < -1e-9 |dz|'|A||dz| on a predictor or
 *    corrector direction (beyond rounding: a certificate); after a failure to
 *    progress, the smallest eigenvalue of (A + A')/2 (LAPACK dsyev, n <=
 *    2000) or a failed Cholesky of (A + A')/2 + 1e-10 max(S_ii) I (CHOLMOD).
 *  - no progress: ||z||_inf > 1e10 (1 + ||b||_inf) max(1, t_z) (or ||w||
 *    likewise, or the monitor's divergence stop), 3 steps in a row shorter
 *    than 1e-12, or the best residual not halved in 20 steps.  Then, first,
 *    y = z and y = max(dz, 0) (the direction the iterates run off to) are
 *    tried as Farkas certificates of infeasibility: y >= 0 with b'y < 0 and
 *    A'y <= eps shows that no z >= 0 with ||z||_1 < -b'y / eps has A z + b
 *    >= 0 (0 <= y'(A z + b) <= eps ||z||_1 + b'y); when that radius exceeds
 *    both ||z||_inf and 1e4 ||z_0||_1 -> status no_solution, with y's
 *    numbers in the message.  (Monotone LCPs without a solution are exactly
 *    the infeasible ones, Cottle, Pang and Stone 1992, Thm 3.1.2, and the
 *    infeasible-start iterates then diverge, Wright ch. 6.)  Otherwise the
 *    definiteness test above; a psd A -> status error naming the symptom
 *    (divergence without a certificate, collapsed steps, no progress), except
 *    a stall with w - A z - b and mu already at the rounding level (||r|| <=
 *    1e-8 max(1, ||b||, ||r_0||), mu <= 1e-8 mu_0: the tolerance asked is
 *    below what double precision reaches), where the monitor's status
 *    (max_iter, exit 1) stands, with the reason.
 *  - a Newton matrix that cannot be factored (singular to working precision,
 *    a non-finite step, out of memory) -> status error with the reason.
 * Trace columns: mu (z'w/n after the step), step (a; NaN at iteration 0 and
 * for a polish), sigma (the centring parameter; NaN likewise).  lcp only.
 */
#include "solver.h"
#include "../la/analyse.h"
#include "../la/sparse_factor.h"
#include "../la/suitesparse.h"

#include <cblas.h>
#include <cholmod.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK */
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda, double *b,
             const int *ldb, int *info);
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *lda, const int *ipiv,
             double *b, const int *ldb, int *info);

#define AUTO_DENSE_MAX 1000 /* --linsolve auto: dense up to this n */
#define DENSE_MAX 16384     /* dense M: n^2 doubles (2 GiB) at most */
#define TAU_MIN 0.99        /* fraction to the boundary, far from a solution ... */
#define TAU_MAX 0.9999      /* ... and near one */
#define REG 1e-13           /* floor of Z^-1 W, relative to max|A_ij| */
#define CURV_TOL 1e-9       /* dz'A dz < -CURV_TOL |dz|'|A||dz|: negative curvature */
#define MINOR_TOL 1e-12     /* 2x2 minor test: S_ii S_jj - S_ij^2 < -MINOR_TOL S_ij^2 */
#define BLOWUP 1e10         /* ||z|| beyond this times the data's scale: divergence */
#define TINY_STEP 1e-12     /* a step shorter than this ... */
#define TINY_STEPS 3        /* ... this many times in a row: the steps collapsed */
#define STALL_STEPS 20      /* the best residual not halved in this many steps: stall */
#define RESTART_GROWTH 4.0  /* restart when the unconstrained solution is this much beyond z_0 ... */
#define RESTART_MAX 1e8     /* ... from z_0 = T e, T at most this times the first t_z */
#define INFEAS_REL 1e-8     /* a stall with ||r|| and mu below this (relative): rounding */
#define CERT_RADIUS 1e4     /* no_solution: no feasible z within this times ||z_0||_1 */
#define POLISH_MU 1e-6      /* polish once mu / mu_0 is below this */
#define POLISH_STEPS 20     /* polish: refinement steps at most */
#define POLISH_REG 1e-9     /* polish: the regularization of A_BB, relative to max|A_ij| (REG's 1e-13 lets a singular
                             * A_BB amplify rounding by 1e13; 1e-11 to 1e-7 polish a granular pile to 1e-16 alike) */
#define POLISH_RTOL 1e-3   /* polish: refinement done once |(A z + b)_B| <= this times tol max(1, ||b||) */
#define PDAS_STEPS 5        /* polish, dense: active-set steps at most */
#define PDAS_BUDGET 0.5     /* dense: early polish factorizations (in units of M's) at most 1 + this a step */
#define PDAS_BACKOFF 1e-3   /* dense: after a polish no better than the best iterate, the next early one once mu
                             * fell by this */
#define PSD_DENSE_MAX 2000  /* definiteness by eigenvalues up to this n */

static const char *const columns[] = {"mu", "step", "sigma", NULL};
/* with --linsolve pcg, for the conjugate gradients on the Newton matrix */
static const char *const preconds[] = {"diag", "ichol", "spai", "mg", NULL};

/* ------------------------------------------------------------ linear systems */

enum { LS_DENSE_CHOL, LS_DENSE_LU, LS_CHOLMOD, LS_UMFPACK, LS_PCG };

#define PCG_RTOL 1e-12 /* --linsolve pcg: |M x - b| <= PCG_RTOL |b| */

/* M = A + diag(d) (or its polish variant), factored once a step and solved
 * twice (predictor, corrector). */
typedef struct {
    const lcp_csr *A;
    int n, sym, sparse;
    int cur;                     /* LS_*: the factorization in use this step */
    int chol_fail;               /* steps where Cholesky failed (LU instead) */
    int factored;                /* factorizations done */
    /* dense */
    double *ad;                  /* n x n copy of A, row by row (row-major: A' to LAPACK, A where symmetric) */
    double *m;                   /* n x n: M' (column-major; M where symmetric), then its factor */
    int *ipiv;
    int nb;                      /* polish: the order of the factored M_BB (the rows of B, packed), else n */
    int *bidx;                   /* polish: B's rows, in order (nb of them) */
    double *tmp;                 /* n: a right-hand side gathered on B */
    /* sparse: M in CSR on the pattern of A plus the diagonal */
    int *mp, *mj, *dpos;         /* row pointers, columns, diagonal slots */
    double *base, *mx;           /* A's values on that pattern (0 where A has none), M's values */
    lcp_sparse_factor sf;        /* CHOLMOD (symmetric) / UMFPACK on that pattern */
    /* --linsolve pcg: conjugate gradients on M with the -p preconditioner,
     * rebuilt from M at every factor step */
    int pcg;
    const lcp_precond_type *ptype;
    const lcp_settings *s;
    lcp_precond P;
    double *cg;                  /* 4n: residual, preconditioned residual, direction, M direction */
    long cg_iters;               /* CG iterations in all */
    int cg_fail;                 /* solves that missed PCG_RTOL */
} linsys;

static const char *ls_method(const linsys *L)
{
    if (L->pcg) return L->cg_fail ? "PCG (some solves short of 1e-12)" : "PCG";
    if (!L->sparse) {
        if (!L->sym) return "LAPACK dgetrf (dense LU)";
        return L->chol_fail ? "LAPACK dpotrf (dense Cholesky), dgetrf (LU) where it failed"
                            : "LAPACK dpotrf (dense Cholesky)";
    }
    if (!L->sym) return "UMFPACK (sparse LU)";
    return L->chol_fail ? "CHOLMOD (sparse Cholesky), UMFPACK (sparse LU) where it failed"
                        : "CHOLMOD (sparse Cholesky)";
}

static void ls_free(linsys *L)
{
    free(L->ad);
    free(L->m);
    free(L->ipiv);
    free(L->bidx);
    free(L->tmp);
    free(L->mp);
    free(L->mj);
    free(L->dpos);
    free(L->base);
    free(L->mx);
    lcp_sparse_factor_free(&L->sf);
    lcp_precond_free(&L->P);
    free(L->cg);
    memset(L, 0, sizeof *L);
}

/* Chooses the method, allocates everything, runs the symbolic analyses. */
static int ls_init(linsys *L, const lcp_problem *p, int sparse, int sym, int pcg, const lcp_settings *s,
                   double *ad, lcp_err *err)
{
    const lcp_csr *A = &p->A;
    int n = p->n;
    memset(L, 0, sizeof *L);
    L->A = A;
    L->n = n;
    L->sym = sym;
    L->sparse = sparse;
    L->pcg = pcg;
    L->ptype = s->precond;
    L->s = s;
    if (!sparse) {
        L->ad = ad;                              /* ours from here on */
        L->m = lcp_alloc((size_t)n * (size_t)n, sizeof(double));
        L->ipiv = lcp_alloc((size_t)n, sizeof(int));
        L->bidx = lcp_alloc((size_t)n, sizeof(int));
        L->tmp = lcp_alloc((size_t)n, sizeof(double));
        if (!L->ad || !L->m || !L->ipiv || !L->bidx || !L->tmp) return lcp_fail(err, LCP_ERROR, NULL, 0, "ipm: out of memory (dense M)");
        return 0;
    }
    long nnz = lcp_csr_nnz(A) + n; /* at most one added diagonal a row */
    L->mp = lcp_alloc((size_t)n + 1, sizeof(int));
    L->mj = lcp_alloc((size_t)nnz, sizeof(int));
    L->dpos = lcp_alloc((size_t)n, sizeof(int));
    L->base = lcp_alloc((size_t)nnz, sizeof(double));
    L->mx = lcp_alloc((size_t)nnz, sizeof(double));
    if (!L->mp || !L->mj || !L->dpos || !L->base || !L->mx)
        return lcp_fail(err, LCP_ERROR, NULL, 0, "ipm: out of memory (sparse M)");
    long m = lcp_pattern_with_diagonal(A, L->mp, L->mj, L->dpos, NULL, L->base);
    memcpy(L->mx, L->base, (size_t)m * sizeof(double));
    if (L->pcg) {
        if (!sym)
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                            "ipm: --linsolve pcg needs a symmetric A (conjugate gradients); use sparse or dense");
        if (!(L->cg = lcp_alloc(4 * (size_t)n, sizeof(double))))
            return lcp_fail(err, LCP_ERROR, NULL, 0, "ipm: out of memory (PCG)");
        return 0;
    }
    /* CHOLMOD's analysis when A is symmetric (UMFPACK's at the first step
     * where Cholesky fails), UMFPACK's otherwise */
    if (lcp_sparse_factor_init(&L->sf, n, L->mp, L->mj, L->mx, sym, LCP_SF_REFINE_DEFAULT))
        return lcp_sparse_factor_fail(&L->sf, err, "ipm: ");
    return 0;
}

/* Factors M = A + diag(d); with keep (polish), M = [A_BB + diag(d_B), 0;
 * 0, I] for B = {i: keep[i]}.  Returns 0, or LCP_ERROR with the reason in
 * err (singular to working precision, out of memory). */
static int ls_factor(linsys *L, const double *d, const unsigned char *keep, lcp_err *err)
{
    int n = L->n, info = 0;
    if (!L->sparse) {
        /* M', or with keep (M_BB)' alone, packed (order nb, leading dimension
         * nb: the polish factors |B|^3/3 flops, not n^3/3); column j of M' is
         * row j of ad, read contiguously, and LU solves with M' transposed */
        double *m = L->m;
        const double *ad = L->ad;
        int nb = n;
        if (keep) {
            nb = 0;
            for (int i = 0; i < n; i++)
                if (keep[i]) L->bidx[nb++] = i;
        }
        L->nb = nb;
        if (nb == 0) {                               /* B empty: nothing to factor (z = 0) */
            L->cur = L->sym ? LS_DENSE_CHOL : LS_DENSE_LU;
            L->factored++;
            return 0;
        }
        for (int pass = 0; pass < 2; pass++) {       /* 0: Cholesky (symmetric A), 1: LU */
            if (pass == 0 && !L->sym) continue;
            for (int jj = 0; jj < nb; jj++) {
                int j = keep ? L->bidx[jj] : jj, i0 = pass == 0 ? jj : 0; /* dpotrf "L" reads the lower part */
                const double *col = ad + (size_t)j * n;
                double *mc = m + (size_t)jj * nb;
                if (keep)
                    for (int ii = i0; ii < nb; ii++) mc[ii] = col[L->bidx[ii]];
                else
                    memcpy(mc + i0, col + i0, (size_t)(nb - i0) * sizeof(double));
                mc[jj] += d[j];                                                          /* + Z^-1 W */
            }
            if (pass == 0) {
                dpotrf_("L", &nb, m, &nb, &info);
                if (info == 0) {
                    L->cur = LS_DENSE_CHOL;
                    L->factored++;
                    return 0;
                }
                L->chol_fail++;
                continue;
            }
            dgetrf_(&nb, &nb, m, &nb, L->ipiv, &info);
            if (info > 0)
                return lcp_fail(err, LCP_ERROR, NULL, 0,
                                "ipm: the Newton matrix A + Z^-1 W is singular to working precision "
                                "(LAPACK dgetrf: U(%d,%d) = 0)", info, info);
            L->cur = LS_DENSE_LU;
            L->factored++;
            return 0;
        }
        return lcp_fail(err, LCP_ERROR, NULL, 0, "ipm: internal error (no dense factorization)");
    }
    for (int i = 0; i < n; i++) {                    /* values of M on the fixed pattern */
        for (int k = L->mp[i]; k < L->mp[i + 1]; k++)
            L->mx[k] = keep && (!keep[i] || !keep[L->mj[k]]) ? 0.0 : L->base[k];
        L->mx[L->dpos[i]] += keep && !keep[i] ? 1.0 : d[i];
    }
    if (L->pcg) { /* the preconditioner of this step's M */
        lcp_csr M = {n, n, L->mp, L->mj, L->mx};
        lcp_precond_free(&L->P);
        int rc = lcp_precond_setup(&L->P, L->ptype, &M, L->s, err);
        if (rc) return rc;
        L->cur = LS_PCG;
        L->factored++;
        return 0;
    }
    int st;
    if (L->sym) {
        st = lcp_sparse_factor_refactor(&L->sf, L->mx, LCP_SF_CHOLESKY); /* on the analysis of ls_init */
        if (st == LCP_SF_OK) {
            L->cur = LS_CHOLMOD;
            L->factored++;
            return 0;
        }
        if (st != LCP_SF_NOT_POSDEF) return lcp_sparse_factor_fail(&L->sf, err, "ipm: ");
        L->chol_fail++;                              /* not positive definite: LU this step */
    }
    st = lcp_sparse_factor_refactor(&L->sf, L->mx, LCP_SF_LU); /* UMFPACK set up at its first use */
    if (st == LCP_SF_SINGULAR)
        return lcp_fail(err, LCP_ERROR, NULL, 0,
                        "ipm: the Newton matrix A + Z^-1 W is singular to working precision (UMFPACK)");
    if (st != LCP_SF_OK) return lcp_sparse_factor_fail(&L->sf, err, "ipm: ");
    L->cur = LS_UMFPACK;
    L->factored++;
    return 0;
}

/* x <- M^-1 x with the last factorization.  Returns 0 or LCP_ERROR. */
static int ls_solve(linsys *L, double *x, lcp_err *err)
{
    int n = L->n, one = 1, info = 0;
    switch (L->cur) {
    case LS_DENSE_CHOL:
    case LS_DENSE_LU: {
        int nb = L->nb;
        double *y = x;
        if (nb < n) {                            /* M_BB packed: gather x_B, solve, scatter (x_N = 0) */
            y = L->tmp;
            for (int k = 0; k < nb; k++) y[k] = x[L->bidx[k]];
            memset(x, 0, (size_t)n * sizeof(double));
        }
        if (nb > 0) {
            if (L->cur == LS_DENSE_CHOL) dpotrs_("L", &nb, &one, L->m, &nb, y, &nb, &info);
            else dgetrs_("T", &nb, &one, L->m, &nb, L->ipiv, y, &nb, &info); /* M = (M')' */
        }
        if (nb < n)
            for (int k = 0; k < nb; k++) x[L->bidx[k]] = y[k];
        return 0;
    }
    case LS_PCG: {                               /* conjugate gradients from 0, to PCG_RTOL */
        double *r = L->cg, *z = r + n, *pd = z + n, *q = pd + n, bn = 0.0, rz = 0.0;
        lcp_csr M = {n, n, L->mp, L->mj, L->mx};
        for (int i = 0; i < n; i++) r[i] = x[i], bn += x[i] * x[i], x[i] = 0.0;
        bn = sqrt(bn);
        if (bn == 0.0) return 0;
        lcp_precond_apply(&L->P, r, z);
        for (int i = 0; i < n; i++) pd[i] = z[i], rz += r[i] * z[i];
        int it = 0, maxit = 10 * n + 100;
        double rn = bn;
        for (; it < maxit && rn > PCG_RTOL * bn; it++) {
            lcp_csr_matvec(&M, pd, q);
            double pq = 0.0;
            for (int i = 0; i < n; i++) pq += pd[i] * q[i];
            if (!(pq > 0.0)) break; /* not positive definite along pd: stop with what there is */
            double a = rz / pq, rz1 = 0.0;
            rn = 0.0;
            for (int i = 0; i < n; i++) x[i] += a * pd[i], r[i] -= a * q[i], rn += r[i] * r[i];
            rn = sqrt(rn);
            lcp_precond_apply(&L->P, r, z);
            for (int i = 0; i < n; i++) rz1 += r[i] * z[i];
            for (int i = 0; i < n; i++) pd[i] = z[i] + rz1 / rz * pd[i];
            rz = rz1;
        }
        L->cg_iters += it;
        if (rn > PCG_RTOL * bn) L->cg_fail++;
        return 0;
    }
    default: {                                   /* CHOLMOD or UMFPACK (a zero pivot: inf/nan, caught later) */
        int st = lcp_sparse_factor_solve(&L->sf, x, x);
        if (st != LCP_SF_OK && st != LCP_SF_SINGULAR) return lcp_sparse_factor_fail(&L->sf, err, "ipm: ");
        return 0;
    }
    }
}

/* ------------------------------------------------------------ monotonicity */

/* y = A x: BLAS dgemv on the dense copy of the dense path, else CSR. */
static void ls_matvec(const linsys *L, const double *x, double *y)
{
    if (L->ad) cblas_dgemv(CblasRowMajor, CblasNoTrans, L->n, L->n, 1.0, L->ad, L->n, x, 1, 0.0, y, 1);
    else lcp_csr_matvec(L->A, x, y);
}

/* y = A'x: dgemv on the dense copy, else CSR on At (A' or A itself). */
static void ls_matvec_t(const linsys *L, const lcp_csr *At, const double *x, double *y)
{
    if (L->ad) cblas_dgemv(CblasRowMajor, CblasTrans, L->n, L->n, 1.0, L->ad, L->n, x, 1, 0.0, y, 1);
    else lcp_csr_matvec(At, x, y);
}

/* The dense path's copy of A, row by row (each row zeroed, then filled:
 * written first, its pages fault once, not once to read and once to write
 * as calloc's would). */
static double *dense_rows(const lcp_csr *A)
{
    int n = A->m;
    double *d = lcp_alloc((size_t)n * (size_t)n, sizeof(double));
    if (!d) return NULL;
    for (int i = 0; i < n; i++) {
        double *row = d + (size_t)i * n;
        memset(row, 0, (size_t)n * sizeof(double));
        for (int k = A->p[i]; k < A->p[i + 1]; k++) row[A->j[k]] += A->x[k];
    }
    return d;
}

/* One pass over the pairs i < j of the dense copy (64 x 64 tiles: the
 * transposed reads stay in cache): *sym = 0 where |A_ij - A_ji| > lim
 * somewhere (lcp_csr_is_symmetric's test), and the return value 1 where a
 * 2x2 principal submatrix of (A + A')/2 is indefinite (not_psd_quick's
 * test; diag: A's diagonal). */
static int dense_scan(const double *a, const double *diag, int n, double lim, int *sym)
{
    int s = 1, bad = 0;
    for (int ib = 0; ib < n; ib += 64)
        for (int jb = ib; jb < n; jb += 64)
            for (int i = ib; i < n && i < ib + 64; i++) {
                const double *ri = a + (size_t)i * n;
                for (int j = jb > i ? jb : i + 1; j < n && j < jb + 64; j++) {
                    double aij = ri[j], aji = a[(size_t)j * n + i], m = 0.5 * (aij + aji);
                    s &= fabs(aij - aji) <= lim;
                    bad |= diag[i] * diag[j] - m * m < -MINOR_TOL * m * m;
                }
            }
    *sym = s;
    return bad;
}

/* y = A x; returns x'A x, and in *absq |x|'|A||x| (the size of its
 * rounding error, up to the row length times the unit roundoff) where
 * x'A x < 0, x'A x itself where it is >= 0 (nothing to weigh: the pass
 * over |A| is saved; non-finite values stay non-finite). */
static double curvature(const linsys *L, const double *x, double *y, double *absq)
{
    const lcp_csr *A = L->A;
    ls_matvec(L, x, y);
    double q = 0.0, qa = 0.0;
    for (int i = 0; i < A->m; i++) q += x[i] * y[i];
    if (q >= 0) {
        *absq = q;
        return q;
    }
    for (int i = 0; i < A->m; i++) {
        double sa = 0.0;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) sa += fabs(A->x[k] * x[A->j[k]]);
        qa += fabs(x[i]) * sa;
    }
    *absq = qa;
    return q;
}

/* Cheap certificates that A is not psd, before the first step: A_ii < 0, or
 * an indefinite 2x2 principal submatrix [S_ii S_ij; S_ij S_jj] of S = (A +
 * A')/2.  diag: A's diagonal.  Returns 1 (with the evidence in why) or 0 (no
 * conclusion). */
static int not_psd_quick(const lcp_csr *A, const lcp_csr *At, const double *diag, char *why, size_t len)
{
    int n = A->m;
    for (int i = 0; i < n; i++)
        if (diag[i] < 0) {
            snprintf(why, len, "A(%d,%d) = %g < 0", i + 1, i + 1, diag[i]);
            return 1;
        }
    for (int i = 0; i < n; i++) {     /* row i of A and of A', merged by column */
        int a = A->p[i], ae = A->p[i + 1], t = At->p[i], te = At->p[i + 1];
        while (a < ae || t < te) {
            int j;
            double s = 0.0;
            if (t >= te || (a < ae && A->j[a] < At->j[t])) j = A->j[a], s = A->x[a++];
            else if (a >= ae || At->j[t] < A->j[a]) j = At->j[t], s = At->x[t++];
            else j = A->j[a], s = A->x[a++] + At->x[t++];
            if (j <= i) continue;
            s *= 0.5;                                          /* S_ij */
            if (diag[i] * diag[j] - s * s < -MINOR_TOL * s * s) { /* det of the 2x2 minor */
                snprintf(why, len,
                         "(A + A')/2 has the indefinite 2x2 principal submatrix [%g %g; %g %g] at rows %d, %d",
                         diag[i], s, s, diag[j], i + 1, j + 1);
                return 1;
            }
        }
    }
    return 0;
}

/* not_psd_quick on the dense copy (row-major), the same tests in the same
 * order (the first violation, by rows, is the one named): a negative
 * diagonal entry, an indefinite 2x2 principal submatrix of (A + A')/2. */
static int minor_bad(const double *a, int n, int i, int j)
{
    double s = 0.5 * (a[(size_t)i * n + j] + a[(size_t)j * n + i]);
    return a[(size_t)i * n + i] * a[(size_t)j * n + j] - s * s < -MINOR_TOL * s * s;
}

static int not_psd_quick_dense(const double *a, int n, int bad, char *why, size_t len)
{
    for (int i = 0; i < n; i++)
        if (a[(size_t)i * n + i] < 0) {
            snprintf(why, len, "A(%d,%d) = %g < 0", i + 1, i + 1, a[(size_t)i * n + i]);
            return 1;
        }
    if (!bad) return 0; /* dense_scan found no indefinite 2x2 minor */
    for (int i = 0; i < n; i++) /* the first, by rows */
        for (int j = i + 1; j < n; j++)
            if (minor_bad(a, n, i, j)) {
                double s = 0.5 * (a[(size_t)i * n + j] + a[(size_t)j * n + i]);
                snprintf(why, len,
                         "(A + A')/2 has the indefinite 2x2 principal submatrix [%g %g; %g %g] at rows %d, %d",
                         a[(size_t)i * n + i], s, s, a[(size_t)j * n + j], i + 1, j + 1);
                return 1;
            }
    return 0;
}

/* The definitive test, after a stall: 1 when (A + A')/2 is psd (to
 * rounding), 0 when it is not (evidence in why), -1 when it could not be
 * decided (out of memory). */
static int is_psd(const lcp_problem *p, char *why, size_t len)
{
    if (p->n <= PSD_DENSE_MAX) {
        lcp_matrix_facts f;
        lcp_err e;
        if (lcp_matrix_analyse(p, PSD_DENSE_MAX, &f, &e)) return -1;
        if (strcmp(f.definite, "indefinite")) return 1;
        snprintf(why, len, "the smallest eigenvalue of (A + A')/2 is %.3g", f.eig_min);
        return 0;
    }
    const lcp_csr *A = &p->A;
    lcp_csr T;
    if (lcp_csr_transpose(A, &T)) return -1;
    cholmod_common c;
    lcp_cholmod_start(&c);
    cholmod_sparse Av = lcp_csr_as_cholmod(A, 0), Tv = lcp_csr_as_cholmod(&T, 0);
    double half[2] = {0.5, 0};
    cholmod_sparse *S = cholmod_add(&Av, &Tv, half, half, 1, 1, &c); /* (A + A')/2 */
    int res = -1;
    if (S) {
        S->stype = -1;
        double smax = 0.0;
        for (int i = 0; i < p->n; i++) smax = fmax(smax, lcp_csr_diag(A, i));
        double beta[2] = {1e-10 * fmax(smax, 1e-300), 0};            /* S + beta I */
        cholmod_factor *F = cholmod_analyze(S, &c);
        if (F && lcp_cholmod_factorize(S, beta[0], F, &c)) {
            res = c.status == CHOLMOD_OK ? 1 : c.status == CHOLMOD_NOT_POSDEF ? 0 : -1;
            if (res == 0)
                snprintf(why, len, "the Cholesky factorization of (A + A')/2 + %.1e I fails at column %d",
                         beta[0], (int)F->minor + 1);
        }
        cholmod_free_factor(&F, &c);
        cholmod_free_sparse(&S, &c);
    }
    cholmod_finish(&c);
    lcp_csr_free(&T);
    return res;
}

/* ------------------------------------------------------------ the method */

static double inf_norm(int n, const double *v)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(v[i]));
    return m;
}

/* The largest a with v + a dv >= 0 (INFINITY when dv >= 0). */
static double to_boundary(int n, const double *v, const double *dv)
{
    double a = INFINITY;
    for (int i = 0; i < n; i++)
        if (dv[i] < 0) a = fmin(a, -v[i] / dv[i]);
    return a;
}

typedef struct {
    double *z, *w, *r, *az, *dz, *dw, *dza, *dwa, *d, *adz, *zp, *vw, *vr, *zb;
    unsigned char *keep;
    int pdas; /* the last polish: its active-set steps */
    lcp_csr At_own;              /* A' where A is not symmetric */
    const lcp_csr *At;           /* A' (A itself when symmetric) */
} ipm_work;

static void work_free(ipm_work *W)
{
    double *v[] = {W->z, W->w, W->r, W->az, W->dz, W->dw, W->dza, W->dwa, W->d, W->adz, W->zp, W->vw, W->vr, W->zb};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) free(v[i]);
    free(W->keep);
    lcp_csr_free(&W->At_own);
}

/* d = max(w / z, dmin): the diagonal Z^-1 W of M, floored. */
static void scaling(int n, const double *z, const double *w, double dmin, double *d)
{
    for (int i = 0; i < n; i++) d[i] = fmax(w[i] / z[i], dmin);
}

/* The polish candidate: B = {keep[i]} and zp (z_B) as the caller set them
 * (B = {z_i >= w_i}, zp = z on B, from an iterate), z_N = 0, A_BB z_B =
 * -b_B by Newton regularized by POLISH_REG with refinement (up to
 * POLISH_STEPS while each halves the residual on B, at least 2 unless it is
 * below rtol: on a singular A_BB -- redundant contacts -- the regularized
 * steps are a proximal-point iteration whose slow directions need more than
 * 2); then active-set steps (B loses its z_i < 0, gains the w_i < 0
 * outside) while the changes shrink and the residual falls, up to
 * PDAS_STEPS, each step's factorization counted in *work ((|B|/n)^3 dense,
 * 1 sparse) and taken only within budget, min_steps of them in any case.
 * Returns the best candidate's residual (INFINITY when none could be
 * computed), the candidate in zb and its metrics in m; M is left factored
 * for the polish system, so the caller refactors for the next step. */
static double polish(const lcp_problem *p, ipm_work *W, linsys *L, double dmin, double rtol, int min_steps,
                     double budget, double *work, lcp_metrics *m, lcp_err *err)
{
    int n = p->n, prev_changes = n + 1;
    double prev_res = INFINITY;
    double preg = dmin * (POLISH_REG / REG); /* POLISH_REG max|A_ij|: A_BB may be singular (redundant contacts) */
    double best = INFINITY;
    int have_w = 1; /* vw = A zp + b known (zp = 0: vw = b) */
    for (int i = 0; i < n; i++) {
        W->d[i] = preg; /* regularization on B */
        W->vw[i] = p->b[i];
        if (W->zp[i] != 0.0) have_w = 0;
    }
    W->pdas = 0;
    for (int step = 0; step < PDAS_STEPS; step++) {
        double cost = 1.0;                       /* this step's factorization, in units of M's */
        if (!L->sparse) {
            int nb = 0;
            for (int i = 0; i < n; i++) nb += W->keep[i];
            cost = pow((double)nb / n, 3);
        }
        if (step >= min_steps && *work + cost > budget) break;
        *work += cost;
        if (ls_factor(L, W->d, W->keep, err)) break;
        W->pdas++;
        double prev = INFINITY;
        for (int it = 0;; it++) { /* Newton, then refinement while it halves the residual on B */
            if (!have_w) {
                ls_matvec(L, W->zp, W->vw);
                for (int i = 0; i < n; i++) W->vw[i] += p->b[i];      /* w = A z + b */
            }
            have_w = 0;
            double rb = 0.0;
            for (int i = 0; i < n; i++) {
                W->vr[i] = W->keep[i] ? -W->vw[i] : 0.0;              /* -(A z + b)_B */
                rb = fmax(rb, fabs(W->vr[i]));
            }
            if (it == POLISH_STEPS || (it >= 1 && rb <= rtol) || (it >= 3 && !(rb < 0.5 * prev))) break;
            prev = rb;
            if (ls_solve(L, W->vr, err)) return best;
            for (int i = 0; i < n; i++)
                if (W->keep[i]) W->zp[i] += W->vr[i];
        }
        /* the next active set (primal-dual active set step): B loses its z_i < 0, gains the w_i < 0 outside */
        int changes = 0, neg = 0;
        for (int i = 0; i < n; i++)
            if (W->keep[i] ? W->zp[i] < 0.0 : W->vw[i] < 0.0) changes++, neg += W->zp[i] < 0.0;
        if (L->ad && neg <= n / 16) { /* dense, few: w -= A e_i z_i for each z_i < 0 set to 0 (column i: stride n) */
            for (int i = 0; i < n; i++)
                if (W->zp[i] < 0.0) {
                    cblas_daxpy(n, -W->zp[i], L->ad + i, n, W->vw, 1);
                    W->zp[i] = 0.0;
                }
        } else if (neg) {
            for (int i = 0; i < n; i++) W->zp[i] = fmax(W->zp[i], 0.0);
            ls_matvec(L, W->zp, W->vw);
            for (int i = 0; i < n; i++) W->vw[i] += p->b[i];
        }
        have_w = 1;                              /* vw = A zp + b, for the next step too */
        lcp_metrics pm;
        lcp_verify_w(p, W->zp, W->vw, &pm);
        if (pm.residual < best) {
            best = pm.residual, *m = pm;
            memcpy(W->zb, W->zp, (size_t)n * sizeof(double));
        }
        /* on while the set changes less and the residual falls, step by step */
        if (best <= L->s->tol || changes == 0 || changes >= prev_changes || !(pm.residual < prev_res)) break;
        prev_changes = changes, prev_res = pm.residual;
        for (int i = 0; i < n; i++)
            if (W->keep[i] ? W->zp[i] <= 0.0 : W->vw[i] < 0.0) W->keep[i] = !W->keep[i];
    }
    return best;
}

/* A Farkas certificate from y >= 0 (y is overwritten by y / ||y||_inf):
 * for every z >= 0 with A z + b >= 0, 0 <= y'(A z + b) <= max(A'y, 0)
 * ||z||_1 + b'y, so when b'y < 0 no feasible z has ||z||_1 < -b'y /
 * max(A'y, 0).  Returns that radius (INFINITY for an exact certificate, 0
 * when b'y >= 0); b'y and max(A'y, 0) in *by, *eps.  aty: n doubles. */
static double farkas_radius(const lcp_problem *p, const linsys *L, const lcp_csr *At, double *y, double *aty,
                            double *by, double *eps)
{
    int n = p->n;
    double ymax = inf_norm(n, y);
    *by = *eps = 0.0;
    if (!(ymax > 0) || !isfinite(ymax)) return 0.0;
    for (int i = 0; i < n; i++) y[i] /= ymax;
    ls_matvec_t(L, At, y, aty);                                 /* A'y */
    for (int i = 0; i < n; i++) {
        *by += p->b[i] * y[i];
        *eps = fmax(*eps, aty[i]);
    }
    if (!(*by < 0)) return 0.0;
    return *eps > 0 ? -*by / *eps : INFINITY;
}

/* The verdict when the loop stopped for want of progress (diverged: ||z||
 * or ||w|| beyond their limits, or the monitor's divergence; tiny: the steps
 * collapsed; else a stall).  no_solution needs a Farkas certificate whose
 * radius exceeds both ||z||_inf and 1e4 ||z_0||_1 (z0norm); otherwise
 * the definiteness test tells a non-monotone A from a breakdown.  Leaves
 * info->status at LCP_MAX_ITER (the monitor's verdict) only for a stall
 * at the rounding level. */
static void diagnose(const lcp_problem *p, ipm_work *W, const linsys *L, int k, int diverged, int tiny, double mu, double mu0,
                     double rscale, double z0norm, lcp_info *info)
{
    int n = p->n;
    double rn = inf_norm(n, W->r), zn = inf_norm(n, W->z);
    char why[200] = "";
    /* candidates: the iterate's direction z, and that of the last step, dz_+ */
    double by, eps, by2, eps2;
    memcpy(W->vr, W->z, (size_t)n * sizeof(double));
    double radius = farkas_radius(p, L, W->At, W->vr, W->vw, &by, &eps);
    for (int i = 0; i < n; i++) W->zp[i] = fmax(W->dz[i], 0.0);
    double radius2 = farkas_radius(p, L, W->At, W->zp, W->vw, &by2, &eps2);
    if (radius2 > radius) radius = radius2, by = by2, eps = eps2;
    if (radius > fmax(zn, CERT_RADIUS * z0norm)) {
        info->status = LCP_NO_SOLUTION;
        if (isinf(radius))
            snprintf(info->message, sizeof info->message,
                     "no solution: after %d steps (||z|| = %.3g) y >= 0 with A'y <= 0, b'y = %.3g < 0 proves no "
                     "z >= 0 has A z + b >= 0 (Farkas)", k, zn, by);
        else
            snprintf(info->message, sizeof info->message,
                     "no solution: after %d steps (||z|| = %.3g) y >= 0 with A'y <= %.2g, b'y = %.3g < 0 proves no "
                     "z >= 0 with ||z||_1 < %.3g has A z + b >= 0 (Farkas)", k, zn, eps, by, radius);
        return;
    }
    int psd = is_psd(p, why, sizeof why);
    info->status = LCP_ERROR;
    if (psd == 0)
        snprintf(info->message, sizeof info->message, "A is not positive semidefinite (%s): ipm needs a monotone LCP",
                 why);
    else if (diverged)
        snprintf(info->message, sizeof info->message,
                 "the iterates diverge (||z|| = %.3g, ||w - A z - b|| = %.3g after %d steps) without a certificate "
                 "of infeasibility", zn, rn, k);
    else if (rn <= INFEAS_REL * rscale && mu <= INFEAS_REL * mu0) {
        info->status = LCP_MAX_ITER;                             /* rounding: the monitor's verdict */
        snprintf(info->message, sizeof info->message,
                 "stalled at the rounding level (%s; ||w - A z - b|| = %.3g, z'w/n = %.3g after %d steps)",
                 tiny ? "the steps collapsed" : "the residual stopped halving", rn, mu, k);
    } else if (tiny)
        snprintf(info->message, sizeof info->message,
                 "the step length collapsed (below %.0e %d times in a row; ||w - A z - b|| = %.3g, z'w/n = %.3g "
                 "after %d steps)", TINY_STEP, TINY_STEPS, rn, mu, k);
    else
        snprintf(info->message, sizeof info->message,
                 "no progress in %d steps (||w - A z - b|| = %.3g, z'w/n = %.3g after %d steps)", STALL_STEPS, rn,
                 mu, k);
}

static int ipm_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                     lcp_err *err)
{
    int n = p->n, rc = 0;
    ipm_work W = {0};
    linsys L = {0};
    if (n == 0) { /* nothing to solve: the monitor accepts the empty vector */
        lcp_monitor_step(mon, 0, x, NULL);
        info->iterations = 0;
        return 0;
    }
    /* --linsolve pcg, or -p NAME with --linsolve auto: conjugate gradients */
    int pcg = s->linsolve == LCP_LINSOLVE_PCG || (s->precond && s->linsolve == LCP_LINSOLVE_AUTO);
    int sparse = s->linsolve == LCP_LINSOLVE_SPARSE || pcg || (s->linsolve == LCP_LINSOLVE_AUTO && n > AUTO_DENSE_MAX);
    if (s->precond && !pcg)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "ipm: -p %s preconditions --linsolve pcg only",
                        s->precond->name);
    const char *how = pcg ? "" : s->linsolve == LCP_LINSOLVE_AUTO ? (sparse ? ", auto: n > 1000" : ", auto: n <= 1000") : "";
    char restart_note[128] = ""; /* "restarted after step ..." for the message */
    if (!sparse && n > DENSE_MAX)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                        "ipm: --linsolve dense needs an n x n array (n = %d > %d); use --linsolve sparse", n,
                        DENSE_MAX);
    double **v[] = {&W.z, &W.w, &W.r, &W.az, &W.dz, &W.dw, &W.dza, &W.dwa, &W.d, &W.adz, &W.zp, &W.vw, &W.vr, &W.zb};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!(*v[i] = lcp_alloc((size_t)n, sizeof(double)))) rc = 1;
    W.keep = lcp_alloc((size_t)n, 1);
    double am[4] = {0, 0, 0, 0}, amax = 0.0; /* max|A_ij|, four chains */
    long nnz = lcp_csr_nnz(&p->A), k4 = nnz & ~3L;
    for (long k = 0; k < k4; k += 4)
        for (int c = 0; c < 4; c++) {
            double a = fabs(p->A.x[k + c]);
            am[c] = a > am[c] ? a : am[c];
        }
    for (long k = k4; k < nnz; k++) am[0] = fmax(am[0], fabs(p->A.x[k]));
    for (int c = 0; c < 4; c++) amax = fmax(amax, am[c]);
    /* the dense path: A's dense copy, and the symmetry test on it (the same test as lcp_csr_is_symmetric's)
     * with the 2x2 minors of not_psd_quick in the same pass */
    double *ad = sparse ? NULL : dense_rows(&p->A);
    int sym = 0, minors_bad = 0;
    if (sparse) sym = lcp_csr_is_symmetric(&p->A, 1e-12);
    else if (ad && W.vw) {
        for (int i = 0; i < n; i++) W.vw[i] = ad[(size_t)i * n + i];
        minors_bad = dense_scan(ad, W.vw, n, 1e-12 * amax, &sym);
    }
    W.At = sym ? &p->A : &W.At_own;                        /* A' (A itself when symmetric; sparse path only) */
    if (rc || !W.keep || (!sparse && !ad) || (sparse && !sym && lcp_csr_transpose(&p->A, &W.At_own))) {
        free(ad);
        work_free(&W);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "ipm: out of memory");
    }
    openblas_set_num_threads(1); /* one BLAS/LAPACK thread: the same bits for every -j (threaded reductions reorder sums) */
    if ((rc = ls_init(&L, p, sparse, sym, pcg, s, ad, err))) goto done;

    /* scales and the starting point */
    const double *b = p->b;
    double bnorm = inf_norm(n, b), dsum = 0.0;
    int dpos = 0;
    for (int i = 0; i < n; i++) {
        double a = W.vw[i] = L.ad ? L.ad[(size_t)i * n + i] : lcp_csr_diag(&p->A, i); /* vw: A's diagonal */
        if (a > 0) dsum += a, dpos++;
    }
    double dmean = dpos ? dsum / dpos : amax > 0 ? amax : 1.0;
    double dmin = REG * (amax > 0 ? amax : 1.0);            /* floor of Z^-1 W */
    double tw = fmax(1.0, bnorm), tz = tw / dmean;
    double zlim = BLOWUP * (1.0 + bnorm) * fmax(1.0, tz);   /* divergence of z ... */
    double wlim = BLOWUP * (1.0 + bnorm) * fmax(1.0, tw);   /* ... and of w */
    for (int i = 0; i < n; i++) W.z[i] = tz, W.w[i] = tw;
    ls_matvec(&L, W.z, W.az);
    for (int i = 0; i < n; i++) W.r[i] = W.w[i] - W.az[i] - b[i]; /* r = w - A z - b */
    double mu = n ? tz * tw : 0.0, mu0 = mu;
    double rnorm0 = inf_norm(n, W.r), rscale = fmax(fmax(1.0, bnorm), rnorm0);
    double rtol = POLISH_RTOL * s->tol * fmax(1.0, bnorm); /* polish: refinement stops below this on B */

    /* iteration 0: the warm start if one was given, else the starting point */
    int warm = 0;
    for (int i = 0; i < n; i++) warm |= x[i] != 0.0;
    double extra[3] = {mu, NAN, NAN};
    const double *last = warm ? x : W.z;                   /* the point the monitor saw last */
    int stop = lcp_monitor_step(mon, 0, last, extra);
    double best_ipm = mon->last.residual; /* the interior-point iterates' own best (the polish's aside) */
    char why[200] = "";
    if (!stop && (L.ad ? not_psd_quick_dense(L.ad, n, minors_bad, why, sizeof why) : not_psd_quick(&p->A, W.At, W.vw, why, sizeof why))) {
        info->status = LCP_ERROR;
        snprintf(info->message, sizeof info->message, "A is not positive semidefinite (%s): ipm needs a monotone LCP",
                 why);
        stop = 1;
    }
    int k = 0;
    double pwork = 0.0;     /* the polish's factorizations so far, in units of M's (one a step) */
    double pnext = INFINITY; /* dense: the next early polish once mu is below this */
    if (!stop && !sparse) { /* dense: first the active set of the warm start, else of z = 0 (w = b < 0) */
        for (int i = 0; i < n; i++) {
            W.keep[i] = warm ? x[i] > 0.0 : b[i] < 0.0;
            W.zp[i] = warm ? fmax(x[i], 0.0) : 0.0;
        }
        lcp_metrics pm;
        double pr = polish(p, &W, &L, dmin, rtol, 0, 1.0, &pwork, &pm, err), r0 = 0.0;
        for (int i = 0; i < n; i++) r0 = fmax(r0, -b[i]);
        r0 /= fmax(1.0, bnorm);                              /* the residual of z = 0 */
        if (!(pr < fmin(r0, mon->best.residual))) pnext = mu * PDAS_BACKOFF; /* no better: back off */
        if (pr < mon->last.residual) {
            k++;
            extra[1] = extra[2] = NAN;
            last = W.zb;
            stop = lcp_monitor_step(mon, k, last, extra);
        }
    }
    scaling(n, W.z, W.w, dmin, W.d);
    if (!stop && (rc = ls_factor(&L, W.d, NULL, err))) goto broken; /* step 1's M: first-time allocations here */
    if (!stop) {                                         /* and cholmod_solve2's workspace, on a scratch rhs */
        for (int i = 0; i < n; i++) W.vr[i] = W.r[i] - W.w[i];
        if ((rc = ls_solve(&L, W.vr, err))) goto broken;
    }

    /* ks: the interior-point steps (k: the monitor's iterations, polish candidates included); progress: the
     * best residual, or the iterates' own best, halved within STALL_STEPS steps */
    int tiny = 0, stalled = 0, diverged = 0, best_k = 0, ks = 0, restarted = 0;
    double best = mon->best.residual, sigma = NAN, alpha = NAN, qneg = 0.0, tz0 = tz;
again:
    while (!stop) {
        k++, ks++;
        /* predictor: (A + Z^-1 W) dz_a = r - w, dw_a = A dz_a - r */
        for (int i = 0; i < n; i++) W.dza[i] = W.r[i] - W.w[i];
        if ((rc = ls_solve(&L, W.dza, err))) goto broken;
        double qa, q = curvature(&L, W.dza, W.adz, &qa);
        for (int i = 0; i < n; i++) W.dwa[i] = W.adz[i] - W.r[i];
        if (!isfinite(qa)) goto nonfinite;
        if (!(q >= -CURV_TOL * qa)) {
            qneg = q;
            goto negative;
        }
        double aa = fmin(1.0, fmin(to_boundary(n, W.z, W.dza), to_boundary(n, W.w, W.dwa)));
        double mua = 0.0;
        for (int i = 0; i < n; i++) mua += (W.z[i] + aa * W.dza[i]) * (W.w[i] + aa * W.dwa[i]);
        mua /= n;
        sigma = fmin(1.0, fmax(0.0, pow(mua / mu, 3)));      /* Mehrotra's centring */
        /* corrector: rhs r - w + (sigma mu - dz_a dw_a) / z */
        for (int i = 0; i < n; i++) W.dz[i] = W.r[i] - W.w[i] + (sigma * mu - W.dza[i] * W.dwa[i]) / W.z[i];
        if ((rc = ls_solve(&L, W.dz, err))) goto broken;
        q = curvature(&L, W.dz, W.adz, &qa);
        for (int i = 0; i < n; i++) W.dw[i] = W.adz[i] - W.r[i];
        if (!isfinite(qa)) goto nonfinite;
        if (!(q >= -CURV_TOL * qa)) {
            qneg = q;
            goto negative;
        }
        double amx = fmin(to_boundary(n, W.z, W.dz), to_boundary(n, W.w, W.dw));
        double tau = fmin(TAU_MAX, fmax(TAU_MIN, 1.0 - mu / mu0));
        alpha = fmin(1.0, tau * amx);
        for (int i = 0; i < n; i++) {
            W.z[i] += alpha * W.dz[i];
            W.w[i] += alpha * W.dw[i];
        }
        ls_matvec(&L, W.z, W.az);
        mu = 0.0;
        for (int i = 0; i < n; i++) {
            W.r[i] = W.w[i] - W.az[i] - b[i];
            mu += W.z[i] * W.w[i];
        }
        mu /= n;
        extra[0] = mu, extra[1] = alpha, extra[2] = sigma;
        last = W.z;
        if ((stop = lcp_monitor_step(mon, k, last, extra))) break;
        if (mon->last.residual <= 0.5 * best_ipm) best_ipm = mon->last.residual, best_k = ks;

        /* polish once mu is small: shown to the monitor only if better */
        int late = mu < POLISH_MU * mu0;
        if (late || (!sparse && mu <= pnext)) {
            lcp_metrics pm;
            for (int i = 0; i < n; i++) {
                W.keep[i] = W.z[i] >= W.w[i];
                W.zp[i] = W.keep[i] ? W.z[i] : 0.0;
            }
            /* late, and on the sparse path: one step (a factorization), as each step's; early (dense):
             * active-set steps while the polish's factorizations stay within PDAS_BUDGET of the steps' */
            double pr = polish(p, &W, &L, dmin, rtol, late, late || sparse ? pwork + 1.0 : 1.0 + PDAS_BUDGET * ks,
                               &pwork, &pm, err);
            pnext = pr < mon->best.residual ? mu : mu * PDAS_BACKOFF; /* else wait for mu to fall */
            if (pr < mon->last.residual) {
                k++;
                extra[1] = extra[2] = NAN;
                last = W.zb;
                if ((stop = lcp_monitor_step(mon, k, last, extra))) break;
            }
        }

        /* verdicts instead of looping */
        if (mon->best.residual <= 0.5 * best) best = mon->best.residual, best_k = ks;
        tiny = alpha < TINY_STEP ? tiny + 1 : 0;
        diverged = inf_norm(n, W.z) > zlim || inf_norm(n, W.w) > wlim;
        stalled = ks - best_k >= STALL_STEPS || tiny >= TINY_STEPS || !(mu > 0) || !isfinite(mu);
        if (diverged || stalled) break;

        scaling(n, W.z, W.w, dmin, W.d);                      /* M for the next step */
        if ((rc = ls_factor(&L, W.d, NULL, err))) goto broken;
    }
    /* a stall on a start far below the solution's scale: once, a restart from z_0 = T e, T the largest
     * entry of the unconstrained solution z~ of (A + dmin I) z~ = -b (the answer where every row is
     * active: a column of 85,000 spheres carries loads up to 8,000 against t_z = 0.5, and the
     * infeasible-start steps, each shorter than 0.2, stall); the convergence theory of infeasible-start
     * methods asks z_0 >= z* (Wright 1997, ch. 6).  Not on divergence (the infeasibility verdicts), and
     * not when A + dmin I cannot be factored (the stall's own diagnosis then stands) */
    if (!stop && stalled && !diverged && !restarted && ks - best_k >= STALL_STEPS) {
        restarted = 1;
        lcp_err rerr = {{0}};
        for (int i = 0; i < n; i++) W.d[i] = dmin, W.vr[i] = -b[i];
        int solved = ls_factor(&L, W.d, NULL, &rerr) == 0 && ls_solve(&L, W.vr, &rerr) == 0;
        double t = solved ? inf_norm(n, W.vr) : NAN;
        if (isfinite(t) && t > RESTART_GROWTH * tz && t <= RESTART_MAX * tz0) {
            tz = t;
            zlim = BLOWUP * (1.0 + bnorm) * fmax(1.0, tz);
            for (int i = 0; i < n; i++) W.z[i] = tz, W.w[i] = tw;
            ls_matvec(&L, W.z, W.az);
            for (int i = 0; i < n; i++) W.r[i] = W.w[i] - W.az[i] - b[i];
            mu = mu0 = tz * tw;
            rscale = fmax(rscale, inf_norm(n, W.r));
            best = mon->best.residual, best_ipm = INFINITY, best_k = ks, tiny = 0, stalled = 0, pnext = INFINITY;
            snprintf(restart_note, sizeof restart_note, "restarted after step %d from z = %.3g e (the largest entry of the "
                     "unconstrained solution); ", ks, tz);
            scaling(n, W.z, W.w, dmin, W.d);
            if ((rc = ls_factor(&L, W.d, NULL, err))) goto broken;
            goto again;
        }
    }
    if (info->status == LCP_MAX_ITER && (diverged || stalled || mon->status == LCP_ERROR))
        diagnose(p, &W, &L, ks, diverged || mon->status == LCP_ERROR, tiny >= TINY_STEPS, mu, mu0, rscale, n * tz,
                 info);
    goto finish;
negative:
    info->status = LCP_ERROR;
    snprintf(info->message, sizeof info->message,
             "A is not positive semidefinite (dz'A dz = %.3g < 0 on a direction of step %d): ipm needs a "
             "monotone LCP", qneg, ks);
    goto finish;
nonfinite:
    lcp_fail(err, LCP_ERROR, NULL, 0,
             "ipm: the Newton step of step %d is not finite (A + Z^-1 W singular to working precision)", ks);
broken: /* a Newton system that cannot be factored or solved: a verdict, not a failure to run */
    info->status = LCP_ERROR;
    snprintf(info->message, sizeof info->message, "%.250s", err->msg);
    rc = 0;
finish:
    if (last != x) memcpy(x, last, (size_t)n * sizeof(double));
    info->iterations = mon->iter;
    if (L.factored) {
        size_t used = strlen(info->message);
        snprintf(info->message + used, sizeof info->message - used, "%s%slinear systems: %s%s",
                 used ? "; " : "", restart_note, ls_method(&L), how);
    }
done:
    ls_free(&L);
    work_free(&W);
    return rc;
}

const lcp_solver lcp_solver_ipm = {"ipm",
                                   "primal-dual interior point (Mehrotra predictor-corrector), monotone LCP",
                                   LCP_KIND_LCP, columns, ipm_solve, preconds, LCP_SOLVER_FACTOR | LCP_SOLVER_MONOTONE};
