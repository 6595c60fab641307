/* src/solvers/bb.c: projected Barzilai-Borwein, the spectral projected
 * gradient method (SPG2 of Birgin, Martinez and Raydan 2000, "Nonmonotone
 * spectral projected gradient methods on convex sets", SIAM J. Optim. 10)
 * with the non-monotone line search of Grippo, Lampariello and Lucidi
 * (1986), for lcp and blcp with box bounds.
 *
 * For symmetric positive semidefinite A the problem is the QP
 *     min f(x) = 1/2 x'A x + b'x  over l <= x <= u   (lcp: l = 0, u = +inf).
 * One iteration, in the metric M = diag(m):
 *     d      = P(x - lambda M g) - x                (g = A x + b)
 *     a      = 1, then while f(x + a d) > max(f_k, ..., f_{k-9}) + 1e-4 a g'd:
 *              a <- the minimiser -g'd / d'A d of f on the line where it lies
 *              in [0.1 a, 0.9 a], else a/2             (GLL, memory M = 10)
 *     x     <- x + a d   (feasible: between x and a projected point)
 *     lambda = the adaptive Barzilai-Borwein step (ABB; Zhou, Gao and Dai
 *              2006): with s = a d, y = a A d,
 *                  BB1 = s'M^-1 s / s'y = d'M^-1 d / d'A d,
 *                  BB2 = s'y / y'M y = d'A d / (A d)'M (A d),
 *              BB2 when BB2 < 0.2 BB1, else BB1; kept in [1e-30, 1e30];
 *              1e30 when d'A d <= 0.  (BB1 alone falls into a slow cycle
 *              on chains: column --bodies 200 was not solved to 1e-8 in
 *              100000 iterations; ABB takes about 1400.)
 * f is quadratic, so f(x + a d) = f + a g'd + a^2/2 d'A d exactly: one
 * product A d an iteration, none in the line search; f is carried by these
 * exact increments, and the new gradient is the monitor's A x + b.  The
 * first lambda is the Cauchy step of the projected gradient direction.
 * -p diag: m_i = 1/A_ii (the projection onto a box is the same in every
 * diagonal metric); -p none: m = 1.
 *
 * Refused (exit 2): non-symmetric A, blcp with findex rows.  Negative
 * curvature is an error (A not positive semidefinite).  Trace columns:
 * lambda (the spectral step used), alpha (the accepted line-search step)
 * and matvecs (products with A so far, the monitor's A x + b included).
 */
#include "solver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {"lambda", "alpha", "matvecs", NULL};
static const char *const preconds[] = {"diag", NULL};

#define SYM_TOL 1e-10   /* |A - A'| <= SYM_TOL max|A|: symmetric to rounding */
#define MEMORY 10       /* GLL: the last MEMORY values of f */
#define ARMIJO 1e-4     /* sufficient decrease */
#define SIGMA1 0.1      /* safeguards of the interpolated step */
#define SIGMA2 0.9
#define LAMBDA_MIN 1e-30
#define LAMBDA_MAX 1e30
#define ABB_TAU 0.2     /* BB2 when BB2 < ABB_TAU BB1 (adaptive BB) */

static int bb_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                    lcp_err *err)
{
    int n = p->n, rc = 0;
    if (p->findex)
        for (int i = 0; i < n; i++)
            if (p->findex[i] >= 0)
                return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                                "bb takes box bounds only, not findex friction rows (row %d has findex %d): use pivot "
                                "or pgs",
                                i + 1, p->findex[i] + 1);
    if (!lcp_csr_is_symmetric(&p->A, SYM_TOL))
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                        "bb needs a symmetric A (it minimises 1/2 x'Ax + b'x), and A is not: use ipm, lemke or pivot");
    lcp_precond P = {0};
    if ((rc = lcp_precond_setup(&P, s->precond, &p->A, s, err))) return rc;
    double *l = lcp_alloc((size_t)n, sizeof(double)), *u = lcp_alloc((size_t)n, sizeof(double));
    double *m = lcp_alloc((size_t)n, sizeof(double)), *g = lcp_alloc((size_t)n, sizeof(double));
    double *d = lcp_alloc((size_t)n, sizeof(double)), *Ad = lcp_alloc((size_t)n, sizeof(double));
    if (!l || !u || !m || !g || !d || !Ad) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        if (p->kind == LCP_KIND_BLCP) lcp_problem_bounds(p, x, i, &l[i], &u[i]); /* no findex: constant */
        else l[i] = 0.0, u[i] = INFINITY;
        x[i] = fmin(fmax(x[i], l[i]), u[i]);
        d[i] = 1.0;
    }
    lcp_precond_apply(&P, d, m); /* the metric: P^-1 ones (diag: 1/A_ii) */
    double anorm = 0.0;          /* Gershgorin bound of ||A||: curvature threshold */
    for (int i = 0; i < n; i++) {
        double r = 0.0;
        for (int k = p->A.p[i]; k < p->A.p[i + 1]; k++) r += fabs(p->A.x[k]);
        anorm = fmax(anorm, r);
    }
    double hist[MEMORY], lambda = 0.0, alpha = 0.0, matvecs = 1, extra[3] = {0, 0, 1};
    int idle = 0;
    if (lcp_monitor_step(mon, 0, x, extra)) goto finish;
    memcpy(g, mon->w, (size_t)n * sizeof(double));
    double f = 0.0;
    for (int i = 0; i < n; i++) f += 0.5 * x[i] * (g[i] + p->b[i]); /* 1/2 x'A x + b'x */
    for (int j = 0; j < MEMORY; j++) hist[j] = f;
    for (int k = 1;; k++) {
        double step = lambda > 0 ? lambda : 1.0; /* the first: a unit step, replaced by Cauchy's below */
        double gd = 0.0, dMd = 0.0, dd = 0.0;
        for (int i = 0; i < n; i++) {
            double xi = fmin(fmax(x[i] - step * m[i] * g[i], l[i]), u[i]);
            d[i] = xi - x[i];
        }
        for (int i = 0; i < n; i++) {
            gd += g[i] * d[i];
            dMd += d[i] * d[i] / m[i];
            dd += d[i] * d[i];
        }
        if (!(dd > 0)) {
            snprintf(info->message, sizeof info->message,
                     "stalled: the projected gradient vanishes in floating point (residual %.3g above tol)",
                     mon->last.residual);
            break;
        }
        lcp_csr_matvec(&p->A, d, Ad);
        matvecs++;
        double dAd = 0.0;
        for (int i = 0; i < n; i++) dAd += d[i] * Ad[i];
        if (dAd < -1e-10 * anorm * dd) {
            info->status = LCP_ERROR;
            snprintf(info->message, sizeof info->message,
                     "A is not positive semidefinite: negative curvature d'Ad = %.3g (d'd = %.3g)", dAd, dd);
            break;
        }
        if (lambda == 0 && dAd > 0) {
            /* first iteration: scale d to the Cauchy point of the projected
             * gradient arc's first segment (a cheap, scale-free lambda_0) */
            lambda = dMd / dAd;
            if (lambda < 1.0) { /* shorter than the unit trial: recompute d with it */
                for (int i = 0; i < n; i++) {
                    double xi = fmin(fmax(x[i] - lambda * m[i] * g[i], l[i]), u[i]);
                    d[i] = xi - x[i];
                }
                lcp_csr_matvec(&p->A, d, Ad);
                matvecs++;
                gd = dAd = dMd = dd = 0.0;
                for (int i = 0; i < n; i++) {
                    gd += g[i] * d[i];
                    dAd += d[i] * Ad[i];
                    dMd += d[i] * d[i] / m[i];
                    dd += d[i] * d[i];
                }
            } else {
                lambda = 1.0;
            }
        }
        if (lambda == 0) lambda = 1.0;
        double fmaxh = hist[0];
        for (int j = 1; j < MEMORY; j++) fmaxh = fmax(fmaxh, hist[j]);
        /* GLL: (f - fmax) + a (1 - ARMIJO) g'd + a^2/2 d'Ad <= 0, with f - fmax <= 0 */
        double a = 1.0, df = f - fmaxh;
        int bt;
        for (bt = 0; bt < 60; bt++) {
            if (df + a * (1.0 - ARMIJO) * gd + 0.5 * a * a * dAd <= 0) break;
            double at = dAd > 0 ? -gd / dAd : 0.5 * a;
            a = at >= SIGMA1 * a && at <= SIGMA2 * a ? at : 0.5 * a;
        }
        if (bt == 60 && dAd > 0) a = fmin(a, -gd / dAd); /* the line minimiser always passes */
        for (int i = 0; i < n; i++) x[i] = fmin(fmax(x[i] + a * d[i], l[i]), u[i]);
        f += a * gd + 0.5 * a * a * dAd;
        hist[k % MEMORY] = f;
        alpha = a;
        double used = lambda;
        double AMA = 0.0;
        for (int i = 0; i < n; i++) AMA += m[i] * Ad[i] * Ad[i];
        double l1 = dMd / dAd, l2 = dAd / AMA; /* BB1, BB2 */
        lambda = dAd > 0 ? fmin(fmax(l2 < ABB_TAU * l1 ? l2 : l1, LAMBDA_MIN), LAMBDA_MAX) : LAMBDA_MAX;
        extra[0] = used;
        extra[1] = alpha;
        extra[2] = ++matvecs; /* the monitor's A x + b: the new gradient */
        if (lcp_monitor_step(mon, k, x, extra)) break;
        memcpy(g, mon->w, (size_t)n * sizeof(double));
        idle = a * sqrt(dd) > 0 ? 0 : idle + 1;
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
    free(l), free(u), free(m), free(g), free(d), free(Ad);
    return rc;
}

const lcp_solver lcp_solver_bb = {
    "bb", "projected Barzilai-Borwein (spectral projected gradient), non-monotone GLL line search (M = 10)",
    LCP_KIND_LCP | LCP_KIND_BLCP, columns, bb_solve, preconds, LCP_SOLVER_MONOTONE | LCP_SOLVER_LINEAR, 0};
