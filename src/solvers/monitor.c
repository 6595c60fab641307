/* src/solvers/monitor.c: the stopping test every solver shares.  After each
 * iteration it recomputes the residual of docs/contract.md through src/core/verify.c,
 * writes the trace row, calls the settings' iteration callback, keeps the
 * best iterate, and stops the solve on convergence, a limit, the callback's
 * word, a NaN or a divergence. */
#include "solver.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lcp_settings_default(lcp_settings *s)
{
    memset(s, 0, sizeof *s); /* every field not named below: 0 or NULL */
    s->tol = 1e-8;
    s->max_iter = 100000;
    s->time_limit = 0;
    s->omega = 0.0; /* the solver's default */
    s->omega_auto = 0;
    s->threads = 1;
    s->linsolve = LCP_LINSOLVE_AUTO;
    s->precond = NULL;
    s->order = NULL;
    s->adaptive = 0.0;
    s->lemke.cover = NULL;
    s->crash.mode = LCP_CRASH_AUTO;
    s->crash.by = NULL;
    s->nsgs.local = LCP_LOCAL_AUTO;
    s->nsgs.rho = 0.0;
    s->nsgs.shuffle = 0;
    s->admm.rho = 0.0;
    s->mg.cycle = 1;
    s->fixed_point.inner = lcp_solver_find("nsgs");
    s->on_iteration = NULL;
    s->on_iteration_ctx = NULL;
    s->columns = NULL;
}

/* The monitor of the solve running on this thread, for lcp_monitor_poll. */
static _Thread_local lcp_monitor *current;

int lcp_monitor_init(lcp_monitor *mon, const lcp_problem *p, const lcp_settings *s, lcp_trace *trace)
{
    memset(mon, 0, sizeof *mon);
    mon->outer = current; /* an inner solve's monitor (a crash guess, fixed-point's steps) gives it back */
    current = mon;
    mon->p = p;
    mon->s = s;
    mon->trace = trace;
    mon->w = lcp_alloc((size_t)p->n, sizeof(double));
    mon->best_x = lcp_alloc((size_t)p->n, sizeof(double));
    mon->best.residual = INFINITY;
    mon->status = LCP_MAX_ITER;
    mon->t0 = lcp_now();
    /* for s->budget_cpu and s->switch_cpu (auto sets them after this init).  The thread's CPU clock is a
     * system call (microseconds on a virtual machine: more than a small solve), read only at auto's checks
     * once a threshold may have been reached (auto_cut, cpu_spent): most small solves end before it */
    mon->c0 = NAN;
    mon->w0 = lcp_now_is_wall() ? mon->t0 : lcp_wall_now(); /* a clock read costs ~50 ns here: one where one does */
    mon->eta_cpu = NAN;
    mon->probe_i0 = -1;
    mon->probe_more = NAN; /* none extrapolated (yet; or a decomposed run: each part has its own) */
    mon->bscale = lcp_verify_bscale(p); /* |b|_inf (lcp, blcp) once, not a pass over b at each check */
    if (p->kind & LCP_KIND_FRICTION) { /* the error of r = 0 (u = q), in the units of the error itself */
        double r0[3] = {0, 0, 0}, e2 = 0.0;
        for (int i = 0; i < p->nc; i++) e2 += lcp_contact_residual2(p->mu[i], p->kind == LCP_KIND_FC3D, r0, p->b + 3 * i);
        mon->start_error = sqrt(e2);
    }
    if (!mon->w || !mon->best_x) {
        lcp_monitor_free(mon);
        return LCP_ERROR;
    }
    return 0;
}

void lcp_monitor_free(lcp_monitor *mon)
{
    if (current == mon) current = mon->outer;
    free(mon->w);
    free(mon->best_x);
    mon->w = mon->best_x = NULL;
}

static double norm2v(const double *v, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += v[i] * v[i];
    return sqrt(s);
}

/* ccp/fc3d: the residual of docs/contract.md divides by max(|q|, |r|, |u|), so on a
 * problem without solution an iterate r running off to infinity drives it
 * to 0 while the error itself, |r - P_K(r - u)|, stays where it started.
 * Such an iterate is not a solution: true when the unnormalised error is
 * still above half that of r = 0 (and above tol |q|); mon->message says so. */
static int unbounded(lcp_monitor *mon, int iter)
{
    const lcp_problem *p = mon->p;
    double nq = norm2v(p->b, p->n), nr = mon->last.xnorm; /* from the metrics: the same in every MPI process */
    double err = mon->last.residual * mon->last.scale;
    if (err <= 0.5 * mon->start_error || err <= mon->s->tol * fmax(nq, p->scale_floor)) return 0;
    snprintf(mon->message, sizeof mon->message,
             "diverged: |r| grew to %.3g by iteration %d, and the residual (%.3g) fell only through it: "
             "|r - P_K(r - u)| = %.3g, not below r = 0's %.3g; no solution? try -s socp-ipm",
             nr, iter, mon->last.residual, err, mon->start_error);
    return 1;
}

/* The time of a check since the init, read only where something reads it
 * (a trace row, the callback, a time limit); else 0: a read of the clock
 * costs about what the check of a small problem does.  For a time limit
 * alone on the thread's CPU clock (LCPSOLVE_CLOCK=thread: a system call a
 * read, 1-2 us) the wall clock (vDSO) answers while it is below the limit:
 * the thread's CPU time is no more than the wall time since the init, so
 * the limit cannot have been reached (lcpsolve tune times tiny solves of
 * many iterations without a system call in each). */
double lcp_monitor_time(const lcp_monitor *mon)
{
    if (mon->trace || mon->s->on_iteration || mon->s->reward_alpha > 0) return lcp_now() - mon->t0;
    if (!(mon->s->time_limit > 0)) return 0.0;
    if (!lcp_now_is_wall()) {
        double w = lcp_wall_now() - mon->w0;
        if (w < mon->s->time_limit) return w;
    }
    return lcp_now() - mon->t0;
}

int lcp_monitor_step(lcp_monitor *mon, int iter, const double *x, const double *extra)
{
    double t = lcp_monitor_time(mon);
    lcp_metrics m;
    lcp_verify_b(mon->p, x, mon->w, mon->bscale, &m);
    return lcp_monitor_record(mon, iter, t, 0, &m, x, extra);
}

static int record(lcp_monitor *mon, int iter, double t, int interrupted, const lcp_metrics *m, const double *x,
                  double **give, const double *extra);

int lcp_monitor_record(lcp_monitor *mon, int iter, double t, int interrupted, const lcp_metrics *m,
                       const double *x, const double *extra)
{
    return record(mon, iter, t, interrupted, m, x, NULL, extra);
}

int lcp_monitor_record_give(lcp_monitor *mon, int iter, double t, int interrupted, const lcp_metrics *m, double **x,
                            const double *extra)
{
    return record(mon, iter, t, interrupted, m, *x, x, extra);
}

/* The iteration callback of the settings: 1 when it asks to stop (for a
 * collective monitor only noted in stop_asked: the caller reduces it). */
static int ask_stop(lcp_monitor *mon, int iter, double t, const lcp_metrics *m, const double *extra)
{
    const lcp_settings *s = mon->s;
    if (!s->on_iteration || !s->on_iteration(s->on_iteration_ctx, iter, t, m, s->columns, extra)) return 0;
    if (mon->collective) {
        mon->stop_asked = 1;
        return 0;
    }
    mon->interrupted = 1;
    return 1;
}

static int lcp_settings_forward_poll(void *ctx, int iter, double time_s, const lcp_metrics *m, const char *const *columns,
                              const double *extra)
{
    const lcp_settings *outer = ctx;
    (void)iter, (void)m, (void)columns, (void)extra;
    if (!outer->on_iteration || !outer->on_iteration(outer->on_iteration_ctx, -1, time_s, NULL, NULL, NULL)) return 0;
    if (current && current->outer) current->outer->stop_pending = 1; /* the outer solve stops at its next check */
    return 1;
}

void lcp_settings_inner(lcp_settings *inner, const lcp_settings *outer)
{
    inner->on_iteration = outer->on_iteration ? lcp_settings_forward_poll : NULL;
    inner->on_iteration_ctx = outer->on_iteration ? (void *)outer : NULL;
    inner->columns = NULL;
}

int lcp_monitor_poll(void)
{
    lcp_monitor *mon = current;
    if (!mon || !mon->s) return 0;
    if (!mon->stop_pending && mon->s->on_iteration &&
        mon->s->on_iteration(mon->s->on_iteration_ctx, -1, lcp_now() - mon->t0, NULL, NULL, NULL))
        mon->stop_pending = 1;
    return mon->stop_pending;
}

/* The CPU time of the run so far (s->budget_cpu, s->switch_cpu).  At the
 * first read the time before it is counted as the wall time since the
 * init: its bound (equal on a machine with a core free; on a busy one the
 * run's first moments count a little more than their CPU time). */
static double cpu_spent(lcp_monitor *mon)
{
    double c = lcp_cpu_now();
    /* the CPU time before this first read, unknown without a read at the init: its wall time, but at most a
     * quarter of the least budget (LCP_SWITCH_FLOOR) -- a thread descheduled before it (a loaded machine) is
     * not charged the time it waited, and no run is cut for it before 3/4 of that budget of its own CPU */
    if (isnan(mon->c0)) mon->c0 = c - fmin(lcp_wall_now() - mon->w0, 0.25 * LCP_SWITCH_FLOOR);
    return c - mon->c0;
}

double lcp_monitor_cpu(lcp_monitor *mon) { return cpu_spent(mon); }

int lcp_breakeven_step(lcp_breakeven *b, int iter, double t, double best, double alpha, double beta)
{
    if (b->ib == 0 || iter >= 2 * b->ib) {
        if (b->ib == 0) b->ia = iter, b->ta = t, b->ra = best;
        else b->ia = b->ib, b->ta = b->tb, b->ra = b->rb;
        b->ib = iter, b->tb = t, b->rb = best;
    }
    if (iter < 10 || iter - b->ia < 3) return 0;
    /* the next iteration's gain at the rate of the window (the best residual's factor an iteration) against
     * an iteration's cost over it */
    double k = iter - b->ia, rho = b->ra > 0 && best > 0 ? pow(best / b->ra, 1 / k) : 0;
    return beta * best * (1 - rho) < alpha * (t - b->ta) / k;
}

int lcp_monitor_afford(lcp_monitor *mon, double cpu_s)
{
    const lcp_settings *s = mon->s;
    if (!(cpu_s >= 0) || (!(s->budget_cpu > 0) && !(s->switch_cpu > 0))) return 0;
    int over_next = s->switch_cpu > 0 && cpu_s > LCP_SWITCH_MARGIN * s->switch_cpu;
    if (!over_next && !(s->budget_cpu > 0 && cpu_spent(mon) + cpu_s > s->budget_cpu)) return 0;
    mon->budget_hit = over_next ? LCP_CUT_STEP : LCP_CUT_BUDGET;
    mon->status = LCP_TIME_LIMIT;
    return 1;
}

/* auto's cut of a run (s->budget_cpu, s->switch_cpu; see solver.h).  The
 * time to the tolerance is extrapolated from the observed rate: the log of
 * the best residual (it never rises, where the residual of an accelerated
 * or splitting method may) against the iterations, from an anchor between a
 * half and a quarter of the iterations back (the fast start of a sweep
 * leaves the window), times the CPU time of an iteration between the first
 * read of the CPU clock and now.  The CPU clock is a system call (about 2 us
 * on a virtual machine, more than a small solve's sweep): it is read only
 * once the wall clock, which the thread's CPU time cannot pass, says a
 * threshold (the budget, half the switch's prediction) may have been
 * reached, from a quarter of it on, then at most every sixteenth of it.
 * measured: the residual of this iteration was computed (a tick is not). */
static int auto_cut(lcp_monitor *mon, int iter, int measured)
{
    const lcp_settings *s = mon->s;
    if (!(s->budget_cpu > 0) && !(s->switch_cpu > 0)) return 0;
    if (measured && iter > 0) { /* the rate's anchors: iterations and residuals only */
        double lr = log(fmax(mon->best.residual, 1e-300));
        if (mon->rate_ib == 0) {
            mon->rate_ia = mon->rate_ib = iter;
            mon->rate_la = mon->rate_lb = lr;
        } else if (iter >= 2 * mon->rate_ib) {
            mon->rate_ia = mon->rate_ib, mon->rate_la = mon->rate_lb;
            mon->rate_ib = iter, mon->rate_lb = lr;
        }
    }
    double th = s->budget_cpu > 0 ? s->budget_cpu : INFINITY;
    if (s->switch_cpu > 0)
        th = fmin(th, fmax((s->switch_by_rate ? 0.5 : LCP_SWITCH_MARGIN) * s->switch_cpu, LCP_SWITCH_FLOOR));
    double w = lcp_wall_now() - mon->w0;
    if (w < fmax(mon->wall_next, 0.25 * th)) return 0;
    mon->wall_next = w + th / 16;
    double e = cpu_spent(mon);
    if (measured && iter > 0) {
        if (mon->rate_i1 == 0) {
            mon->rate_i1 = iter;
            mon->c1 = e;
        } else if (iter > mon->rate_i1 && iter - mon->rate_ia >= 4) {
            double lr = log(fmax(mon->best.residual, 1e-300));
            double rate = (mon->rate_la - lr) / (iter - mon->rate_ia); /* log residual an iteration */
            double per_it = fmax(e - mon->c1, 0) / (iter - mon->rate_i1);
            mon->eta_cpu = rate > 0 ? (lr - log(s->tol)) / rate * per_it : INFINITY;
        }
    }
    double eta = mon->eta_cpu;
    if (s->switch_by_rate && s->switch_cpu > 0 && measured && !isnan(eta) && iter >= 10 &&
        e >= fmax(0.5 * s->switch_cpu, LCP_SWITCH_FLOOR) &&
        eta > LCP_SWITCH_MARGIN * fmax(s->switch_cpu, e)) {
        mon->budget_hit = LCP_CUT_RATE;
        mon->status = LCP_TIME_LIMIT;
        return 1;
    }
    int ends_soon = measured && eta <= LCP_GO_ON * e; /* its rate says it ends within LCP_GO_ON times as much again */
    /* a run without a rate to watch: cut once it has taken LCP_SWITCH_MARGIN times the next's prediction,
     * unless it ends soon (as past the budget) */
    if (!s->switch_by_rate && s->switch_cpu > 0 && e > fmax(LCP_SWITCH_MARGIN * s->switch_cpu, LCP_SWITCH_FLOOR) &&
        !ends_soon) {
        mon->budget_hit = LCP_CUT_NEXT;
        mon->status = LCP_TIME_LIMIT;
        return 1;
    }
    /* past the budget: on, while it ends soon (up to the next round's budget) */
    if (s->budget_cpu > 0 && e >= s->budget_cpu && !(ends_soon && e < 4 * s->budget_cpu)) {
        mon->budget_hit = LCP_CUT_BUDGET;
        mon->status = LCP_TIME_LIMIT;
        return 1;
    }
    return 0;
}

/* auto's probe (s->probe_iter; solver.h): iterations and residuals only, no clock -- the same runs whatever
 * the load.  The rate is taken over the second half of the probe's iterations (a sweep's fast start, before
 * the slow modes dominate, would promise too much).  Called at the iterations whose residual was computed. */
static int probe_cut(lcp_monitor *mon, int iter)
{
    const lcp_settings *s = mon->s;
    if (s->probe_iter <= 0) return 0;
    double lr = log(fmax(mon->best.residual, 1e-300));
    if (mon->probe_i0 < 0) { /* the first measured iteration */
        mon->probe_i0 = iter;
        mon->probe_l0 = NAN;
        return 0;
    }
    if (!mon->probe_cap) {
        int half = mon->probe_i0 + (s->probe_iter + 1) / 2;
        if (isnan(mon->probe_l0)) {
            if (iter >= half) mon->probe_l0 = lr, mon->probe_i0 = iter; /* the window's start */
            return 0;
        }
        if (iter < mon->probe_i0 + s->probe_iter / 2) return 0;
        double rate = (mon->probe_l0 - lr) / (iter - mon->probe_i0);
        double more = rate > 0 ? fmax(lr - log(s->tol), 0) / rate : INFINITY; /* iterations */
        mon->probe_more = more * s->probe_sweep_s;
        if (LCP_PROBE_MARGIN * mon->probe_more <= s->probe_top) {
            mon->probe_cap = iter + s->probe_iter + (int)fmin(ceil(LCP_PROBE_MARGIN * more), 1e9);
            return 0;
        }
    } else if (iter < mon->probe_cap) {
        return 0;
    }
    mon->budget_hit = LCP_CUT_PROBE;
    mon->status = LCP_TIME_LIMIT;
    return 1;
}

/* give: NULL, or the caller's buffer (x = *give), swapped with best_x
 * instead of copied into it */
static int record(lcp_monitor *mon, int iter, double t, int interrupted, const lcp_metrics *m, const double *x,
                  double **give, const double *extra)
{
    const lcp_problem *p = mon->p;
    double prev = iter > 0 && mon->iter < iter ? mon->last.residual : INFINITY; /* the previous check's */
    mon->last = *m;
    mon->iter = iter;
    if (mon->trace) lcp_trace_row(mon->trace, iter, t, &mon->last, extra);
    if (ask_stop(mon, iter, t, &mon->last, extra)) interrupted = 1;
    if (mon->stop_pending) { /* asked during the set-up (lcp_monitor_poll) */
        if (mon->collective) mon->stop_asked = 1;
        else interrupted = mon->interrupted = 1;
    }
    if (iter == 0) mon->first_residual = mon->last.residual;
    if (mon->last.residual < mon->best.residual) {
        mon->best = mon->last;
        if (give) {
            double *old = mon->best_x;
            mon->best_x = *give;
            *give = old;
        } else {
            memcpy(mon->best_x, x, (size_t)p->n * sizeof(double));
        }
    }
    if (mon->last.residual <= mon->s->tol) {
        if ((p->kind & LCP_KIND_FRICTION) && unbounded(mon, iter)) {
            mon->status = LCP_ERROR;
            return 1;
        }
        mon->status = LCP_SOLVED;
        return 1;
    }
    if (!isfinite(mon->last.residual)) { /* NaN or Inf in x or in A x + b (verify.c) */
        mon->status = LCP_ERROR;
        snprintf(mon->message, sizeof mon->message,
                 "diverged: NaN or Inf in the iterate at iteration %d (residual %.3g at the start, best %.3g); "
                 "try a smaller --omega, -s ipm or --reg EPS", iter, mon->first_residual, mon->best.residual);
        return 1;
    }
    /* grown by ten orders of magnitude: the iteration diverges */
    if (mon->last.residual > 1e10 * fmax(mon->first_residual, 1e-3)) {
        mon->status = LCP_ERROR;
        snprintf(mon->message, sizeof mon->message,
                 "diverged: residual grew from %.3g to %.3g at iteration %d; try a smaller --omega, -s ipm or "
                 "--reg EPS", mon->first_residual, mon->last.residual, iter);
        return 1;
    }
    if (iter >= mon->s->max_iter) {
        mon->status = LCP_MAX_ITER;
        return 1;
    }
    if ((mon->s->time_limit > 0 && t >= mon->s->time_limit) || interrupted) {
        if (interrupted) mon->interrupted = 1;
        mon->status = LCP_TIME_LIMIT;
        return 1;
    }
    if (auto_cut(mon, iter, 1) || probe_cut(mon, iter)) return 1;
    /* the reward's break-even (lcp_breakeven_step) */
    if (mon->s->reward_alpha > 0 && iter > 0 &&
        lcp_breakeven_step(&mon->breakeven, iter, t, mon->best.residual, mon->s->reward_alpha, mon->s->reward_beta)) {
        mon->status = LCP_STALLED;
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
    double t = lcp_monitor_time(mon);
    int stop = ask_stop(mon, iter, t, NULL, extra) || mon->stop_pending;
    if (iter >= mon->s->max_iter) {
        mon->status = LCP_MAX_ITER;
        return 1;
    }
    if ((mon->s->time_limit > 0 && t >= mon->s->time_limit) || stop) {
        mon->status = LCP_TIME_LIMIT;
        return 1;
    }
    return auto_cut(mon, iter, 0);
}
