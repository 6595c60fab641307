/* src/solvers/fixed_point.c: fc3d as a fixed point of ccp solves (De Saxce
 * & Feng 1998; Acary, Cadoux, Lemaréchal & Malick 2011, "A formulation of
 * the linear discrete Coulomb friction problem via convex optimization",
 * ZAMM 91(2); Siconos' fc3d_TrescaFixedPoint and its "SOCLCP" fixed point).
 *
 * fc3d asks u_i + s_i e_n in K_i^*, perpendicular to r_i in K_i, with the
 * De Saxce term s_i = mu_i |u_T,i|.  With s frozen that is the ccp with
 * q + s e_n (u' = u + s e_n = W r + (q + s e_n)), a convex cone QP when W is
 * symmetric positive semidefinite.  Outer iteration k:
 *     s_i = mu_i |u_T,i|,  u = W r + q of the current r;
 *     r <- the solution of the ccp (W, q + s e_n, mu), by the inner solver
 *          (--inner NAME, default nsgs: any solver taking ccp), warm-started
 *          from r, to the inner tolerance;
 * until the fc3d residual of r (the outer monitor, docs/contract.md) meets --tol.
 * A fixed point is an fc3d solution; the map converges for small enough
 * mu (Acary et al. 2011), in practice for the usual 0.1-1.
 *
 * The inner solve runs on a shallow copy of the problem (kind ccp, b
 * replaced by q + s e_n) with its own monitor; its tolerance follows the
 * outer residual: max(tol / 10, min(1e-2, residual / 10)), tightened as the
 * outer loop proceeds (an inexact fixed point early, exact at the end); its
 * iteration limit is --max-iter, its time limit what is left of
 * --time-limit.  An inner solve that stops short (limits) hands on its best
 * iterate; an inner breakdown (status error, no solution) stops the outer
 * loop with the inner solver's message.  info->iterations counts outer
 * iterations.  Trace columns: inner_iterations (of the step), inner_residual
 * (the ccp residual the inner solve reached).  fc3d only (for ccp the inner
 * solver is the whole answer).
 */
#include "solver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {"inner_iterations", "inner_residual", NULL};

#define INNER_TOL_MAX 1e-2 /* the loosest inner tolerance */
#define INNER_TOL_FACTOR 0.1

static int fixed_point_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                             lcp_err *err)
{
    const lcp_solver *inner = s->fixed_point.inner ? s->fixed_point.inner : lcp_solver_find("nsgs");
    if (!inner || !(inner->kinds & LCP_KIND_CCP) || inner->solve == NULL)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "fixed-point: --inner must name a solver of ccp problems");
    int n = p->n, nc = p->nc, rc = 0;
    lcp_problem cp = *p; /* shallow: the inner ccp, b replaced */
    cp.kind = LCP_KIND_CCP;
    double *qs = lcp_alloc((size_t)n, sizeof(double));
    lcp_monitor imon;
    memset(&imon, 0, sizeof imon);
    if (!qs || lcp_monitor_init(&imon, &cp, s, NULL)) {
        free(qs);
        lcp_monitor_free(&imon);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "fixed-point: out of memory (n = %d)", n);
    }
    cp.b = qs;
    lcp_settings is = *s;
    lcp_settings_inner(&is, s);
    is.fixed_point.inner = NULL;
    imon.s = &is;
    double extra[2] = {0, NAN};
    if (!lcp_monitor_step(mon, 0, x, extra)) {
        for (int k = 1;; k++) {
            const double *u = mon->w;                              /* W r + q of the last check */
            memcpy(qs, p->b, (size_t)n * sizeof(double));
            for (int i = 0; i < nc; i++) qs[3 * i] += p->mu[i] * sqrt(u[3 * i + 1] * u[3 * i + 1] + u[3 * i + 2] * u[3 * i + 2]);
            is.tol = fmax(s->tol * INNER_TOL_FACTOR, fmin(INNER_TOL_MAX, mon->last.residual * INNER_TOL_FACTOR));
            if (s->time_limit > 0) {
                double left = s->time_limit - (lcp_now() - mon->t0);
                is.time_limit = left > 1e-6 ? left : 1e-6;
            }
            /* a fresh inner monitor on the same workspace */
            imon.best.residual = INFINITY;
            imon.status = LCP_MAX_ITER;
            imon.iter = 0;
            imon.t0 = lcp_now();
            lcp_info iinfo;
            memset(&iinfo, 0, sizeof iinfo);
            iinfo.status = LCP_MAX_ITER;
            if ((rc = inner->solve(&cp, &is, x, &imon, &iinfo, err))) break;
            if (imon.status != LCP_SOLVED && imon.best.residual < imon.last.residual)
                memcpy(x, imon.best_x, (size_t)n * sizeof(double));  /* the inner best iterate */
            if (iinfo.status == LCP_ERROR || iinfo.status == LCP_NO_SOLUTION || imon.status == LCP_ERROR) {
                info->status = LCP_ERROR;
                snprintf(info->message, sizeof info->message, "fixed-point: inner %s broke down at outer step %d: %.180s",
                         inner->name, k, *iinfo.message ? iinfo.message : "the iteration diverged or produced NaN");
                lcp_monitor_step(mon, k, x, extra);
                break;
            }
            extra[0] = imon.iter;
            extra[1] = fmin(imon.best.residual, imon.last.residual);
            if (lcp_monitor_step(mon, k, x, extra)) break;
        }
    }
    info->iterations = mon->iter;
    if (!rc && info->status != LCP_ERROR)
        snprintf(info->message, sizeof info->message, "inner solver %s", inner->name);
    lcp_monitor_free(&imon);
    free(qs);
    return rc;
}

const lcp_solver lcp_solver_fixed_point = {
    "fixed-point", "De Saxce fixed point: fc3d as a sequence of ccp solves (--inner NAME, default nsgs)",
    LCP_KIND_FC3D, columns, fixed_point_solve, NULL, 0, 0};
