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
 *
 * Files: this one holds the method (the steps, the polish, the verdicts,
 * the solve's loop); the Newton systems M = A + Z^-1 W (--linsolve: their
 * factorizations and solves, the products with A) are
 * src/solvers/ipm_linsys.c, the tests of monotonicity (the 2x2 minors,
 * the curvature of a direction, the definitive test after a stall)
 * src/solvers/ipm_psd.c, their shared declarations
 * src/solvers/ipm_internal.h.
 */
#include "../la/linsolve_cost.h"
#include "ipm_internal.h"
#include "../core/scratch.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AUTO_DENSE_MAX 1000 /* --linsolve auto: dense up to this n */
#define DENSE_MAX 16384     /* dense M: n^2 doubles (2 GiB) at most */
#define TAU_MIN 0.99        /* fraction to the boundary, far from a solution ... */
#define TAU_MAX 0.9999      /* ... and near one */
#define REG 1e-13           /* floor of Z^-1 W, relative to max|A_ij| */
#define CURV_TOL 1e-9       /* dz'A dz < -CURV_TOL |dz|'|A||dz|: negative curvature */
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

static const char *const columns[] = {"mu", "step", "sigma", NULL};
/* with --linsolve pcg, for the conjugate gradients on the Newton matrix */
static const char *const preconds[] = {"diag", "ichol", "spai", "mg", NULL};

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
        if (ipm_ls_factor(L, W->d, W->keep, err)) break;
        W->pdas++;
        double prev = INFINITY;
        for (int it = 0;; it++) { /* Newton, then refinement while it halves the residual on B */
            if (!have_w) {
                ipm_ls_matvec(L, W->zp, W->vw);
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
            if (ipm_ls_solve(L, W->vr, err)) return best;
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
            ipm_ls_matvec(L, W->zp, W->vw);
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
    ipm_ls_matvec_t(L, At, y, aty);                                 /* A'y */
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
    int psd = ipm_is_psd(p, why, sizeof why);
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
    /* --linsolve auto: the cheaper by the predicted costs (src/la/linsolve_cost.c) */
    int cheaper = s->linsolve == LCP_LINSOLVE_AUTO && !pcg && lcp_linsolve_prefer_sparse(&p->A, NULL, NULL);
    int sparse = s->linsolve == LCP_LINSOLVE_SPARSE || pcg || (s->linsolve == LCP_LINSOLVE_AUTO && (n > AUTO_DENSE_MAX || cheaper));
    if (s->precond && !pcg)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "ipm: -p %s preconditions --linsolve pcg only",
                        s->precond->name);
    const char *how = pcg ? "" : s->linsolve == LCP_LINSOLVE_AUTO ? (n > AUTO_DENSE_MAX ? ", auto: n > 1000" : sparse ? ", auto: sparse cheaper" : ", auto: dense cheaper") : "";
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
    double *ad = sparse ? NULL : ipm_dense_rows(&p->A);
    int sym = 0, minors_bad = 0;
    if (sparse) sym = lcp_csr_is_symmetric(&p->A, 1e-12);
    else if (ad && W.vw) {
        for (int i = 0; i < n; i++) W.vw[i] = ad[(size_t)i * n + i];
        minors_bad = ipm_dense_scan(ad, W.vw, n, 1e-12 * amax, &sym);
    }
    W.At = sym ? &p->A : &W.At_own;                        /* A' (A itself when symmetric; sparse path only) */
    if (rc || !W.keep || (!sparse && !ad) || (sparse && !sym && lcp_csr_transpose(&p->A, &W.At_own))) {
        lcp_scratch_give(LCP_SCRATCH_DENSE_A, ad);
        work_free(&W);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "ipm: out of memory");
    }
    openblas_set_num_threads(1); /* one BLAS/LAPACK thread: the same bits for every -j (threaded reductions reorder sums) */
    if ((rc = ipm_ls_init(&L, p, sparse, sym, pcg, s, ad, err))) goto done;
    /* under auto's budget: a factorisation predicted far past it is not started */
    if (sparse && !pcg && lcp_monitor_afford(mon, lcp_sparse_factor_flops(&L.sf) / LCP_FLOP_RATE)) {
        snprintf(info->message, sizeof info->message, "ipm: a factorisation of %.3g flops: past auto's budget",
                 lcp_sparse_factor_flops(&L.sf));
        goto done;
    }

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
    ipm_ls_matvec(&L, W.z, W.az);
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
    if (!stop && (L.ad ? ipm_not_psd_quick_dense(L.ad, n, minors_bad, why, sizeof why) : ipm_not_psd_quick(&p->A, W.At, W.vw, why, sizeof why))) {
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
    if (!stop && (rc = ipm_ls_factor(&L, W.d, NULL, err))) goto broken; /* step 1's M: first-time allocations here */
    if (!stop) {                                         /* and cholmod_solve2's workspace, on a scratch rhs */
        for (int i = 0; i < n; i++) W.vr[i] = W.r[i] - W.w[i];
        if ((rc = ipm_ls_solve(&L, W.vr, err))) goto broken;
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
        if ((rc = ipm_ls_solve(&L, W.dza, err))) goto broken;
        double qa, q = ipm_curvature(&L, W.dza, W.adz, &qa);
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
        if ((rc = ipm_ls_solve(&L, W.dz, err))) goto broken;
        q = ipm_curvature(&L, W.dz, W.adz, &qa);
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
        ipm_ls_matvec(&L, W.z, W.az);
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
        if ((rc = ipm_ls_factor(&L, W.d, NULL, err))) goto broken;
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
        int solved = ipm_ls_factor(&L, W.d, NULL, &rerr) == 0 && ipm_ls_solve(&L, W.vr, &rerr) == 0;
        double t = solved ? inf_norm(n, W.vr) : NAN;
        if (isfinite(t) && t > RESTART_GROWTH * tz && t <= RESTART_MAX * tz0) {
            tz = t;
            zlim = BLOWUP * (1.0 + bnorm) * fmax(1.0, tz);
            for (int i = 0; i < n; i++) W.z[i] = tz, W.w[i] = tw;
            ipm_ls_matvec(&L, W.z, W.az);
            for (int i = 0; i < n; i++) W.r[i] = W.w[i] - W.az[i] - b[i];
            mu = mu0 = tz * tw;
            rscale = fmax(rscale, inf_norm(n, W.r));
            best = mon->best.residual, best_ipm = INFINITY, best_k = ks, tiny = 0, stalled = 0, pnext = INFINITY;
            snprintf(restart_note, sizeof restart_note, "restarted after step %d from z = %.3g e (the largest entry of the "
                     "unconstrained solution); ", ks, tz);
            scaling(n, W.z, W.w, dmin, W.d);
            if ((rc = ipm_ls_factor(&L, W.d, NULL, err))) goto broken;
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
                 used ? "; " : "", restart_note, ipm_ls_method(&L), how);
    }
done:
    ipm_ls_free(&L);
    work_free(&W);
    return rc;
}

const lcp_solver lcp_solver_ipm = {"ipm",
                                   "primal-dual interior point (Mehrotra predictor-corrector), monotone LCP",
                                   LCP_KIND_LCP, columns, ipm_solve, preconds, LCP_SOLVER_FACTOR | LCP_SOLVER_MONOTONE, 0};
