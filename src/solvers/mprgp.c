/* src/solvers/mprgp.c: modified proportioning with reduced gradient
 * projections (MPRGP; Dostal and Schoeberl 2005, "Minimizing quadratic
 * functions subject to bound constraints with the rate of convergence and
 * finite termination"; Dostal 2009, "Optimal quadratic programming
 * algorithms", ch. 8-9) for lcp and blcp with box bounds.
 *
 * For symmetric positive (semi)definite A the problem is the bound-
 * constrained QP  min f(x) = 1/2 x'A x + b'x  over l <= x <= u  (lcp: l = 0,
 * u = +inf), whose gradient g = A x + b is w.  With the free set
 * F = {l_i < x_i < u_i}:
 *   free gradient     phi_i = g_i on F, 0 elsewhere
 *   chopped gradient  beta_i = min(g_i, 0) at a lower bound, max(g_i, 0) at
 *                     an upper bound, 0 elsewhere (and for fixed l_i = u_i)
 *   reduced free gradient  phit_i = min((x_i - l_i)/abar, m_i phi_i) where
 *                     phi_i > 0, max((x_i - u_i)/abar, m_i phi_i) where < 0
 * An iterate is proportional when  sum m_i beta_i^2 <= Gamma^2 phit'phi
 * (Gamma = 1).  Each iteration is one of three steps:
 *   CG step: conjugate gradients on the free set, preconditioned in face:
 *       z = mask_F(P^-1 phi) (P^-1 applied to the free gradient, zeros on
 *       the active set, then masked), d = z - gamma d_old with gamma =
 *       z'A d_old / d_old'A d_old, a = g'd / d'A d; taken when x - a d is
 *       feasible;
 *   expansion step: otherwise, the longest feasible step a_f along -d
 *       (to x_h, where a bound is hit), then the fixed-step projected
 *       free-gradient step x = P(x_h - abar m.*phi(x_h)), CG restarts;
 *   proportioning step: when the iterate is not proportional, along the
 *       chopped gradient d = m.*beta with the exact step g'd / d'A d (cut
 *       at the first bound it would cross), CG restarts.
 * The metric m is 1 for -p none and m_i = 1/A_ii for every preconditioner
 * (the expansion and proportioning steps then run on D^-1/2 A D^-1/2:
 * -p diag is exactly MPRGP on the diagonally scaled problem);
 * abar = 1.9 / lambda_max(M^1/2 A M^1/2), lambda_max estimated by at most
 * 60 Lanczos steps (abar must lie in (0, 2/||A||]).
 *
 * -p ichol, spai, mg (any preconditioner but diag): P^-1 replaces D^-1 in
 * the CG steps, and each CG restart (the first iteration, and the one after
 * an expansion or proportioning step) is a preconditioned projected step
 *     x <- x + a (P(x - P^-1 g) - x),  a = min(1, -g'dx / dx'A dx)
 * (step 4; feasible, and a descent step whenever g'dx < 0, else skipped).
 * CG, expansion and proportioning steps only ever free or bind the bounds
 * one gradient-coupling at a time, so on a chain whose load enters at one
 * end (a column on the ground) they need about N iterations whatever the
 * preconditioner; this step carries P^-1's global information across the
 * active set, and with P^-1 close to A^-1 it lands near the answer at once
 * (the unit test: one iteration at every N with P = A).
 *
 * The gradient is never updated by recurrences: after each step it is the
 * monitor's w = A x + b of that step, so it does not drift.  Verdicts:
 * a direction of zero curvature along which no bound blocks proves that
 * f is unbounded below on the box: no_solution, the ray as evidence;
 * negative curvature: error (A is not positive semidefinite); a step that
 * changes nothing twice running (the residual is at rounding level above
 * tol): stops with max_iter and says so.  Refused (exit 2): non-symmetric
 * A, blcp with findex friction rows.  Trace columns: step (1 CG,
 * 2 expansion, 3 proportioning, 4 preconditioned projected step, 0 the
 * start), free (size of the free set before the step)
 * and matvecs (products with A so far: the Lanczos estimate, the solver's
 * own and the monitor's A x + b, which the solver uses as its gradient).
 */
#include "solver.h"
#include "../la/spectral.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {"step", "free", "matvecs", NULL};
static const char *const preconds[] = {"diag", "ichol", "spai", "mg", NULL};


#define GAMMA 1.0        /* proportioning parameter */
#define ABAR_FACTOR 1.9  /* abar = ABAR_FACTOR / lambda_max */
#define LANCZOS_MAX 60   /* Lanczos steps for lambda_max */
#define SYM_TOL 1e-10    /* |A - A'| <= SYM_TOL max|A|: symmetric to rounding */

enum { STEP_START = 0, STEP_CG = 1, STEP_EXPANSION = 2, STEP_PROPORTIONING = 3, STEP_PRECOND = 4 };

/* Box solvers need symmetric A and constant bounds. */
static int check_input(const lcp_problem *p, lcp_err *err)
{
    if (p->findex)
        for (int i = 0; i < p->n; i++)
            if (p->findex[i] >= 0)
                return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                                "mprgp takes box bounds only, not findex friction rows (row %d has findex %d): "
                                "use pivot or pgs",
                                i + 1, p->findex[i] + 1);
    if (!lcp_csr_is_symmetric(&p->A, SYM_TOL))
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                        "mprgp needs a symmetric A (it minimises 1/2 x'Ax + b'x), and A is not: use ipm, lemke or "
                        "pivot");
    return 0;
}

typedef struct {
    int n;
    const double *l, *u, *m;
    double abar;
} box;

/* phi, beta and the two sides of the proportioning test at (x, g);
 * returns the size of the free set. */
static int split_gradient(const box *B, const double *x, const double *g, double *phi, double *beta,
                          double *beta2, double *phitphi)
{
    int nfree = 0;
    double sb = 0.0, sp = 0.0;
    for (int i = 0; i < B->n; i++) {
        double xi = x[i], gi = g[i], li = B->l[i], ui = B->u[i];
        phi[i] = beta[i] = 0.0;
        if (xi > li && xi < ui) {
            nfree++;
            phi[i] = gi;
            double mg = B->m[i] * gi, pt;
            if (gi > 0) pt = fmin((xi - li) / B->abar, mg);
            else pt = fmax((xi - ui) / B->abar, mg);
            sp += gi * pt;
        } else if (li < ui) {
            if (xi <= li) beta[i] = fmin(gi, 0.0);
            else beta[i] = fmax(gi, 0.0);
            sb += B->m[i] * beta[i] * beta[i];
        }
    }
    *beta2 = sb;
    *phitphi = sp;
    return nfree;
}

/* The longest step a >= 0 with l <= x - a d <= u, and the index that
 * blocks it (-1: none, a = +inf). */
static double feasible_step(const box *B, const double *x, const double *d, int *block)
{
    double af = INFINITY;
    *block = -1;
    for (int i = 0; i < B->n; i++) {
        double a;
        if (d[i] > 0) a = (x[i] - B->l[i]) / d[i];
        else if (d[i] < 0) a = (x[i] - B->u[i]) / d[i];
        else continue;
        if (a < af) {
            af = a;
            *block = i;
        }
    }
    if (af < 0) af = 0;
    return af;
}

/* x <- P(x - a d); the blocking index, if any, exactly on its bound. */
static void step_to(const box *B, double *x, const double *d, double a, int block)
{
    for (int i = 0; i < B->n; i++)
        if (d[i] != 0) x[i] = fmin(fmax(x[i] - a * d[i], B->l[i]), B->u[i]);
    if (block >= 0) x[block] = d[block] > 0 ? B->l[block] : B->u[block];
}

static double norm_inf(const double *a, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s = fmax(s, fabs(a[i]));
    return s;
}

static double dot(const double *a, const double *b, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

/* The preconditioned projected step x <- x + a (P(x - P^-1 g) - x) with the
 * exact line search a = min(1, -g'dx / dx'A dx) (a convex combination of
 * feasible points: feasible; a descent step whenever g'dx < 0).  Returns 0,
 * leaving x alone, when dx is not a descent direction. */
static int precond_step(const box *B, const lcp_precond *P, const lcp_csr *A, double *x, const double *g,
                        double *z, double *dx, double *Adx, double anorm, double *moved, double *matvecs)
{
    int n = B->n;
    lcp_precond_apply(P, g, z);
    double gdx = 0.0, dd = 0.0;
    for (int i = 0; i < n; i++) {
        dx[i] = fmin(fmax(x[i] - z[i], B->l[i]), B->u[i]) - x[i];
        gdx += g[i] * dx[i];
        dd += dx[i] * dx[i];
    }
    if (!(gdx < 0)) return 0;
    lcp_csr_matvec(A, dx, Adx);
    (*matvecs)++;
    double dAd = dot(dx, Adx, n);
    double a = dAd > 1e-14 * anorm * dd ? fmin(1.0, -gdx / dAd) : 1.0;
    for (int i = 0; i < n; i++) x[i] = fmin(fmax(x[i] + a * dx[i], B->l[i]), B->u[i]);
    *moved = a * norm_inf(dx, n);
    return 1;
}

/* Ad = A d and the minimising step gd / d'Ad along d (INFINITY where A
 * is flat along d); non-zero with info set when d'Ad < 0 (A is not
 * positive semidefinite). */
static int curvature_step(const lcp_csr *A, const double *d, double gd, double anorm, double *Ad, double *dAd,
                          double *acg, lcp_info *info)
{
    int n = A->m;
    lcp_csr_matvec(A, d, Ad);
    double dd = dot(d, d, n);
    *dAd = dot(d, Ad, n);
    if (*dAd < -1e-10 * anorm * dd) {
        info->status = LCP_ERROR;
        snprintf(info->message, sizeof info->message,
                 "A is not positive semidefinite: negative curvature d'Ad = %.3g (d'd = %.3g)", *dAd, dd);
        return 1;
    }
    *acg = *dAd > 1e-14 * anorm * dd ? gd / *dAd : INFINITY;
    return 0;
}

static int mprgp_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                       lcp_err *err)
{
    int rc = check_input(p, err);
    if (rc) return rc;
    int n = p->n;
    lcp_precond P = {0};
    if ((rc = lcp_precond_setup(&P, s->precond, &p->A, s, err))) return rc;
    double *l = lcp_alloc((size_t)n, sizeof(double)), *u = lcp_alloc((size_t)n, sizeof(double));
    double *m = lcp_alloc((size_t)n, sizeof(double)), *sq = lcp_alloc((size_t)n, sizeof(double));
    double *g = lcp_alloc((size_t)n, sizeof(double)), *phi = lcp_alloc((size_t)n, sizeof(double));
    double *beta = lcp_alloc((size_t)n, sizeof(double)), *z = lcp_alloc((size_t)n, sizeof(double));
    double *d = lcp_calloc((size_t)n, sizeof(double)), *Ad = lcp_alloc((size_t)n, sizeof(double));
    if (!l || !u || !m || !sq || !g || !phi || !beta || !z || !d || !Ad) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        if (p->kind == LCP_KIND_BLCP) lcp_problem_bounds(p, x, i, &l[i], &u[i]); /* no findex: constant */
        else l[i] = 0.0, u[i] = INFINITY;
        x[i] = fmin(fmax(x[i], l[i]), u[i]);       /* a warm start may lie outside */
    }
    /* the metric: D^-1 with a preconditioner (where diag(A) > 0), else 1 */
    int scaled = s->precond != NULL;
    for (int i = 0; i < n && scaled; i++)
        if (!(lcp_csr_diag(&p->A, i) > 0)) scaled = 0;
    double anorm = 0.0; /* Gershgorin bound of ||A||, for the curvature thresholds */
    for (int i = 0; i < n; i++) {
        double r = 0.0;
        for (int k = p->A.p[i]; k < p->A.p[i + 1]; k++) r += fabs(p->A.x[k]);
        anorm = fmax(anorm, r);
        m[i] = scaled ? 1.0 / lcp_csr_diag(&p->A, i) : 1.0;
        sq[i] = sqrt(m[i]);
    }
    double lmin = 0.0, lmax = 0.0;
    int nlanczos = 0;
    if (lcp_spectrum(&p->A, sq, LANCZOS_MAX, &lmin, &lmax, &nlanczos)) { /* src/la/spectral.c */
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "mprgp: cannot estimate ||A|| (Lanczos)");
        goto done;
    }
    if (!(lmax > 0)) lmax = 1.0; /* A = 0: any step; curvature checks decide */
    box B = {n, l, u, m, ABAR_FACTOR / lmax};
    double matvecs = nlanczos + 1, extra[3] = {STEP_START, 0, 0};
    int nfree = 0, have_dir = 0, idle = 0, last = STEP_START;
    /* the preconditioned projected step: with a preconditioner other than diag */
    int pstep = s->precond && strcmp(s->precond->name, "diag") != 0;
    for (int i = 0; i < n; i++) nfree += x[i] > l[i] && x[i] < u[i];
    extra[1] = nfree;
    extra[2] = matvecs;
    if (lcp_monitor_step(mon, 0, x, extra)) goto finish;
    memcpy(g, mon->w, (size_t)n * sizeof(double));
    for (int k = 1;; k++) {
        double beta2, phitphi;
        nfree = split_gradient(&B, x, g, phi, beta, &beta2, &phitphi);
        int step;
        double moved = 0.0;
        if (pstep && !have_dir && last != STEP_PRECOND &&
            precond_step(&B, &P, &p->A, x, g, z, d, Ad, anorm, &moved, &matvecs)) {
            step = STEP_PRECOND;
        } else if (beta2 <= GAMMA * GAMMA * phitphi) {
            if (!have_dir) { /* restart: d = mask_F(P^-1 phi) */
                lcp_precond_apply(&P, phi, z);
                for (int i = 0; i < n; i++) d[i] = x[i] > l[i] && x[i] < u[i] ? z[i] : 0.0;
                have_dir = 1;
            }
            double gd = dot(g, d, n);
            if (!(gd > 0)) { /* not a descent direction (rounding): the plain free gradient */
                for (int i = 0; i < n; i++) d[i] = m[i] * phi[i];
                gd = dot(g, d, n);
            }
            if (!(gd > 0) && beta2 == 0) {
                /* phi = beta = 0 to the last bit: x is stationary, yet the monitor says not solved */
                snprintf(info->message, sizeof info->message,
                         "stalled: the projected gradient vanishes in floating point (residual %.3g above tol)",
                         mon->last.residual);
                break;
            }
            double dAd, acg;
            matvecs++;
            if (curvature_step(&p->A, d, gd, anorm, Ad, &dAd, &acg, info)) break;
            int block;
            double af = feasible_step(&B, x, d, &block);
            if (acg < af) { /* CG step */
                step = STEP_CG;
                step_to(&B, x, d, acg, -1);
                moved = acg * norm_inf(d, n);
            } else { /* expansion step */
                step = STEP_EXPANSION;
                if (block < 0) {
                    info->status = LCP_NO_SOLUTION;
                    snprintf(info->message, sizeof info->message,
                             "no solution: 1/2 x'Ax + b'x is unbounded below on the bounds along the ray x - t d "
                             "(|A d|_inf = %.3g, b'd = %.3g, |d|_inf = %.3g): the problem is infeasible",
                             norm_inf(Ad, n), dot(p->b, d, n), norm_inf(d, n));
                    break;
                }
                step_to(&B, x, d, af, block);
                for (int i = 0; i < n; i++) g[i] -= af * Ad[i]; /* the gradient at x_h */
                moved = af * norm_inf(d, n);
                for (int i = 0; i < n; i++)
                    if (x[i] > l[i] && x[i] < u[i]) {
                        double xi = fmin(fmax(x[i] - B.abar * m[i] * g[i], l[i]), u[i]);
                        moved = fmax(moved, fabs(xi - x[i]));
                        x[i] = xi;
                    }
                have_dir = 0;
            }
        } else { /* proportioning step along d = m.*beta */
            step = STEP_PROPORTIONING;
            for (int i = 0; i < n; i++) d[i] = m[i] * beta[i];
            double gd = beta2; /* g'd = sum m beta^2 */
            double dAd, acg;
            matvecs++;
            if (curvature_step(&p->A, d, gd, anorm, Ad, &dAd, &acg, info)) break;
            int block;
            double af = feasible_step(&B, x, d, &block);
            if (acg < af) block = -1;
            double a = fmin(acg, af);
            if (!isfinite(a)) {
                info->status = LCP_NO_SOLUTION;
                snprintf(info->message, sizeof info->message,
                         "no solution: 1/2 x'Ax + b'x is unbounded below on the bounds along the ray x - t d "
                         "(|A d|_inf = %.3g, b'd = %.3g, |d|_inf = %.3g): the problem is infeasible",
                         norm_inf(Ad, n), dot(p->b, d, n), norm_inf(d, n));
                break;
            }
            step_to(&B, x, d, a, block);
            moved = a * norm_inf(d, n);
            have_dir = 0;
        }
        matvecs++; /* the monitor's A x + b: the new gradient */
        extra[0] = step;
        extra[1] = nfree;
        extra[2] = matvecs;
        last = step;
        if (lcp_monitor_step(mon, k, x, extra)) break;
        memcpy(g, mon->w, (size_t)n * sizeof(double));
        if (step == STEP_CG) { /* next conjugate direction on the same face */
            double dAd = dot(d, Ad, n);
            for (int i = 0; i < n; i++) phi[i] = x[i] > l[i] && x[i] < u[i] ? g[i] : 0.0;
            lcp_precond_apply(&P, phi, z);
            for (int i = 0; i < n; i++)
                if (!(x[i] > l[i] && x[i] < u[i])) z[i] = 0.0;
            double gam = dAd > 0 ? dot(z, Ad, n) / dAd : 0.0;
            for (int i = 0; i < n; i++) d[i] = z[i] - gam * d[i];
        }
        idle = moved > 0 ? 0 : idle + 1;
        if (idle >= 2) {
            snprintf(info->message, sizeof info->message,
                     "stalled: the steps no longer change x (residual %.3g above tol at rounding level)",
                     mon->last.residual);
            break;
        }
    }
finish:
    info->iterations = mon->iter;
done:
    lcp_precond_free(&P);
    free(l), free(u), free(m), free(sq), free(g), free(phi), free(beta), free(z), free(d), free(Ad);
    return rc;
}

const lcp_solver lcp_solver_mprgp = {
    "mprgp", "MPRGP (Dostal): CG on the free set + expansion/proportioning steps, symmetric PSD A, box bounds",
    LCP_KIND_LCP | LCP_KIND_BLCP, columns, mprgp_solve, preconds, LCP_SOLVER_MONOTONE | LCP_SOLVER_LINEAR, 0};
