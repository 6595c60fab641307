/* src/solvers/apgd.c: accelerated projected gradient descent (APGD; Mazhar,
 * Heyn, Negrut and Tasora 2015, "Using Nesterov's method to accelerate
 * multibody dynamics with friction and contact", ACM TOG 34(3), algorithm 2)
 * for lcp, blcp with box bounds and ccp.
 *
 * For symmetric positive semidefinite A the problem is the convex QP
 *     min f(x) = 1/2 x'A x + b'x  over the set K
 * (lcp: x >= 0; blcp: lo <= x <= hi; ccp: r_i in the friction cone K_mu_i of
 * each contact, projected by lcp_cone_project -- its KKT conditions are the
 * cone complementarity problem of docs/contract.md).  Nesterov's accelerated
 * projected gradient in the metric M = diag(m):
 *     g       = A y + b
 *     x_new   = P_K(y - t M g),  t = 1/L, and while
 *               (x_new - y)'A(x_new - y) > L |x_new - y|^2_{M^-1}:  L <- 2L
 *               (the backtracking Lipschitz test f(x_new) <= f(y) +
 *               g'(x_new - y) + L/2 |x_new - y|^2, written with the exact
 *               quadratic so that it does not cancel near the solution)
 *     theta'  = (-theta^2 + theta sqrt(theta^2 + 4)) / 2
 *     y       = x_new + theta(1 - theta)/(theta^2 + theta') (x_new - x)
 *     restart when g'(x_new - x) > 0 (O'Donoghue and Candes 2015, the
 *               gradient scheme): y = x_new, theta = 1
 *     L <- 0.9 L after each iteration (the step may grow again).
 * L starts at |M^1/2 A v| / |M^-1/2 v| for a fixed vector v.  A y is formed
 * from the products A x of the iterates (y is their combination), so an
 * iteration costs one product with A per backtracking trial.
 *
 * -p diag: m_i = 1/A_ii (lcp, blcp: the projection onto a box is the same in
 * every diagonal metric); for ccp one scalar per contact, 3 / (A_nn + A_t1t1
 * + A_t2t2), so that the Euclidean cone projection stays the projection of
 * the metric.  -p none: m = 1.
 *
 * The monitor keeps the best iterate (APGD is not monotone).  Negative
 * curvature (x_new - y)'A(x_new - y) < 0 is an error: A is not positive
 * semidefinite.  Refused
 * (exit 2): non-symmetric A, blcp with findex rows; fc3d is not a convex
 * QP and is not taken.  Trace columns: L (the Lipschitz estimate used),
 * restarts (so far), matvecs (products with A so far, the monitor's
 * A x + b included).
 */
#include "solver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {"L", "restarts", "matvecs", NULL};
static const char *const preconds[] = {"diag", NULL};

#define SYM_TOL 1e-10 /* |A - A'| <= SYM_TOL max|A|: symmetric to rounding */

typedef struct {
    const lcp_problem *p;
    const double *l, *u; /* box kinds */
    int cone;            /* ccp */
} proj_set;

static void project(const proj_set *S, double *x)
{
    const lcp_problem *p = S->p;
    if (S->cone) {
        for (int c = 0; c < p->nc; c++) lcp_cone_project(p->mu[c], x + 3 * c);
    } else {
        for (int i = 0; i < p->n; i++) x[i] = fmin(fmax(x[i], S->l[i]), S->u[i]);
    }
}

static int apgd_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                      lcp_err *err)
{
    int n = p->n, rc = 0, cone = p->kind == LCP_KIND_CCP;
    if (p->kind == LCP_KIND_BLCP && p->findex)
        for (int i = 0; i < n; i++)
            if (p->findex[i] >= 0)
                return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                                "apgd takes box bounds only, not findex friction rows (row %d has findex %d): use "
                                "pivot or pgs, or give the contacts as ccp",
                                i + 1, p->findex[i] + 1);
    if (!lcp_csr_is_symmetric(&p->A, SYM_TOL))
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                        "apgd needs a symmetric A (it minimises 1/2 x'Ax + b'x), and A is not: use ipm or lemke");
    lcp_precond P = {0};
    if ((rc = lcp_precond_setup(&P, s->precond, &p->A, s, err))) return rc;
    double *l = NULL, *u = NULL;
    double *m = lcp_alloc((size_t)n, sizeof(double)), *xn = lcp_alloc((size_t)n, sizeof(double));
    double *y = lcp_alloc((size_t)n, sizeof(double)), *Ax = lcp_alloc((size_t)n, sizeof(double));
    double *Ay = lcp_alloc((size_t)n, sizeof(double)), *Axn = lcp_alloc((size_t)n, sizeof(double));
    double *g = lcp_alloc((size_t)n, sizeof(double)), *v = lcp_alloc((size_t)n, sizeof(double));
    if (!cone) {
        l = lcp_alloc((size_t)n, sizeof(double));
        u = lcp_alloc((size_t)n, sizeof(double));
    }
    if (!m || !xn || !y || !Ax || !Ay || !Axn || !g || !v || (!cone && (!l || !u))) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    if (!cone)
        for (int i = 0; i < n; i++) {
            if (p->kind == LCP_KIND_BLCP) lcp_problem_bounds(p, x, i, &l[i], &u[i]); /* no findex: constant */
            else l[i] = 0.0, u[i] = INFINITY;
        }
    /* the metric: P^-1 applied to ones (diag: 1/A_ii); for cones one scalar a contact */
    for (int i = 0; i < n; i++) v[i] = 1.0;
    lcp_precond_apply(&P, v, m);
    if (cone && P.type)
        for (int c = 0; c < p->nc; c++) {
            double sc = 3.0 / (1.0 / m[3 * c] + 1.0 / m[3 * c + 1] + 1.0 / m[3 * c + 2]);
            m[3 * c] = m[3 * c + 1] = m[3 * c + 2] = sc;
        }
    double anorm = 0.0; /* Gershgorin bound of ||A||: the curvature threshold */
    for (int i = 0; i < n; i++) {
        double r = 0.0;
        for (int k = p->A.p[i]; k < p->A.p[i + 1]; k++) r += fabs(p->A.x[k]);
        anorm = fmax(anorm, r);
    }
    proj_set S = {p, l, u, cone};
    project(&S, x);
    /* the first Lipschitz estimate |M^1/2 A v| / |M^-1/2 v| */
    for (int i = 0; i < n; i++) v[i] = 1.0 + 0.5 * sin(1.0 + 1.7 * i);
    lcp_csr_matvec(&p->A, v, g);
    double num = 0.0, den = 0.0;
    for (int i = 0; i < n; i++) {
        num += m[i] * g[i] * g[i];
        den += v[i] * v[i] / m[i];
    }
    double L = den > 0 && num > 0 ? sqrt(num / den) : 1.0, theta = 1.0, matvecs = 2;
    double extra[3] = {L, 0, matvecs};
    int restarts = 0, idle = 0;
    if (lcp_monitor_step(mon, 0, x, extra)) goto finish;
    for (int i = 0; i < n; i++) Ax[i] = mon->w[i] - p->b[i];
    memcpy(y, x, (size_t)n * sizeof(double));
    memcpy(Ay, Ax, (size_t)n * sizeof(double));
    for (int k = 1;; k++) {
        for (int i = 0; i < n; i++) g[i] = Ay[i] + p->b[i];
        double dMd = 0.0;
        for (int trial = 0;; trial++) {
            double t = 1.0 / L;
            for (int i = 0; i < n; i++) xn[i] = y[i] - t * m[i] * g[i];
            project(&S, xn);
            lcp_csr_matvec(&p->A, xn, Axn);
            matvecs++;
            double dAd = 0.0, dd = 0.0, d1 = 0.0, xmax = 0.0;
            dMd = 0.0;
            for (int i = 0; i < n; i++) {
                double di = xn[i] - y[i];
                dAd += di * (Axn[i] - Ay[i]);
                dMd += di * di / m[i];
                dd += di * di;
                d1 += fabs(di);
                xmax = fmax(xmax, fmax(fabs(xn[i]), fabs(y[i])));
            }
            /* A d is the difference A xn - A y (Ay extrapolated): its rounding,
             * about eps |A| max|x| a row, is far above |A| d'd when the step is
             * tiny against x (a mass ratio of 1e6) -- not curvature */
            if (dAd < -1e-10 * anorm * dd - 1e-12 * anorm * d1 * xmax) {
                info->status = LCP_ERROR;
                snprintf(info->message, sizeof info->message,
                         "A is not positive semidefinite: negative curvature d'Ad = %.3g (d'd = %.3g)", dAd, dd);
                goto finish;
            }
            if (dAd <= L * dMd || !(dMd > 0)) break;
            if (trial >= 200 || !isfinite(dAd)) { /* L beyond any bound of ||A||: not a number left */
                info->status = LCP_ERROR;
                snprintf(info->message, sizeof info->message,
                         "the Lipschitz backtracking did not end (L = %.3g): A or b holds values out of range", L);
                goto finish;
            }
            L *= 2.0;
        }
        double thn = 0.5 * (-theta * theta + theta * sqrt(theta * theta + 4.0));
        double bet = theta * (1.0 - theta) / (theta * theta + thn);
        double gdx = 0.0, dx = 0.0;
        for (int i = 0; i < n; i++) {
            gdx += g[i] * (xn[i] - x[i]);
            dx = fmax(dx, fabs(xn[i] - x[i]));
        }
        if (gdx > 0) { /* gradient restart */
            restarts++;
            thn = 1.0;
            bet = 0.0;
        }
        for (int i = 0; i < n; i++) {
            y[i] = xn[i] + bet * (xn[i] - x[i]);
            Ay[i] = Axn[i] + bet * (Axn[i] - Ax[i]);
        }
        memcpy(x, xn, (size_t)n * sizeof(double));
        memcpy(Ax, Axn, (size_t)n * sizeof(double));
        theta = thn;
        extra[0] = L;
        extra[1] = restarts;
        extra[2] = ++matvecs; /* the monitor's A x + b */
        if (lcp_monitor_step(mon, k, x, extra)) break;
        idle = dx > 0 ? 0 : idle + 1;
        if (idle >= 3) {
            snprintf(info->message, sizeof info->message,
                     "stalled: the projected gradient step no longer changes x (residual %.3g above tol at "
                     "rounding level)",
                     mon->last.residual);
            break;
        }
        L *= 0.9;
    }
finish:
    info->iterations = mon->iter;
done:
    lcp_precond_free(&P);
    free(l), free(u), free(m), free(xn), free(y), free(Ax), free(Ay), free(Axn), free(g), free(v);
    return rc;
}

const lcp_solver lcp_solver_apgd = {
    "apgd", "Nesterov-accelerated projected gradient, gradient restart, backtracking L (Mazhar et al. 2015)",
    LCP_KIND_LCP | LCP_KIND_BLCP | LCP_KIND_CCP, columns, apgd_solve, preconds, LCP_SOLVER_MONOTONE | LCP_SOLVER_LINEAR, 0};
