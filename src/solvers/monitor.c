/* src/solvers/monitor.c: the stopping test every solver shares.  After each
 * iteration it recomputes the residual of DESIGN.md through src/verify.c,
 * writes the trace row, keeps the best iterate, and stops the solve on
 * convergence, a limit, an interrupt, a NaN or a divergence. */
#include "solver.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

volatile sig_atomic_t lcp_interrupted; /* set by main's SIGINT/SIGTERM handler */

void lcp_settings_default(lcp_settings *s)
{
    s->tol = 1e-8;
    s->max_iter = 100000;
    s->time_limit = 0;
    s->omega = 0.0; /* the solver's default */
    s->omega_auto = 0;
    s->threads = 1;
    s->cover = NULL;
    s->linsolve = LCP_LINSOLVE_AUTO;
    s->local = LCP_LOCAL_AUTO;
    s->rho = 0.0;
    s->shuffle = 0;
    s->precond = NULL;
    s->mg_cycle = 1;
    s->order = NULL;
    s->adaptive = 0.0;
    s->inner = lcp_solver_find("nsgs");
}

int lcp_monitor_init(lcp_monitor *mon, const lcp_problem *p, const lcp_settings *s, lcp_trace *trace)
{
    memset(mon, 0, sizeof *mon);
    mon->p = p;
    mon->s = s;
    mon->trace = trace;
    mon->w = lcp_alloc((size_t)p->n, sizeof(double));
    mon->best_x = lcp_alloc((size_t)p->n, sizeof(double));
    mon->best.residual = INFINITY;
    mon->status = LCP_MAX_ITER;
    mon->t0 = lcp_now();
    if (!mon->w || !mon->best_x) {
        lcp_monitor_free(mon);
        return LCP_ERROR;
    }
    return 0;
}

void lcp_monitor_free(lcp_monitor *mon)
{
    free(mon->w);
    free(mon->best_x);
    mon->w = mon->best_x = NULL;
}

int lcp_monitor_step(lcp_monitor *mon, int iter, const double *x, const double *extra)
{
    const lcp_problem *p = mon->p;
    double t = lcp_now() - mon->t0;
    double prev = iter > 0 && mon->iter < iter ? mon->last.residual : INFINITY; /* the previous check's */
    lcp_verify(p, x, mon->w, &mon->last);
    mon->iter = iter;
    if (mon->trace) lcp_trace_row(mon->trace, iter, t, &mon->last, extra);
    if (iter == 0) mon->first_residual = mon->last.residual;
    if (mon->last.residual < mon->best.residual) {
        mon->best = mon->last;
        memcpy(mon->best_x, x, (size_t)p->n * sizeof(double));
    }
    if (mon->last.residual <= mon->s->tol) {
        mon->status = LCP_SOLVED;
        return 1;
    }
    if (!isfinite(mon->last.residual)) {
        mon->status = LCP_ERROR;
        return 1;
    }
    /* grown by ten orders of magnitude: the iteration diverges */
    if (mon->last.residual > 1e10 * fmax(mon->first_residual, 1e-3)) {
        mon->status = LCP_ERROR;
        return 1;
    }
    if (iter >= mon->s->max_iter) {
        mon->status = LCP_MAX_ITER;
        return 1;
    }
    if ((mon->s->time_limit > 0 && t >= mon->s->time_limit) || lcp_interrupted) {
        mon->status = LCP_TIME_LIMIT;
        return 1;
    }
    /* --adaptive FRAC: the last sweep improved the residual by less than FRAC of it */
    if (mon->s->adaptive > 0 && isfinite(prev) && prev - mon->last.residual < mon->s->adaptive * prev) {
        mon->status = LCP_STALLED;
        return 1;
    }
    return 0;
}

int lcp_monitor_tick(lcp_monitor *mon, int iter, const double *x, const double *extra)
{
    if (mon->trace) return lcp_monitor_step(mon, iter, x, extra); /* every row is traced */
    mon->iter = iter;
    if (iter >= mon->s->max_iter) {
        mon->status = LCP_MAX_ITER;
        return 1;
    }
    if ((mon->s->time_limit > 0 && lcp_now() - mon->t0 >= mon->s->time_limit) || lcp_interrupted) {
        mon->status = LCP_TIME_LIMIT;
        return 1;
    }
    return 0;
}
