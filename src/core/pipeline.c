/* src/core/pipeline.c: the one solve pipeline; see pipeline.h for its stages. */
#include "pipeline.h"


#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "auto.h"
#include "auto_memo.h"
#include "../graph/decompose.h"
#include "../io/io.h"
#include "../la/sparse_factor.h"
#include "../la/linsolve_cost.h"
#include "../solvers/lemke_small.h"
#include "../solvers/pivot_small.h"

void lcp_solve_opts_default(lcp_solve_opts *o)
{
    memset(o, 0, sizeof *o);
    lcp_settings_default(&o->s);
    o->solver = "auto";
    o->precond = "none";
    o->warm_factor = 1.0;
    o->dt_ratio = 1.0;
    o->decompose = -1;
    o->order = LCP_ORDER_NATURAL;
}

const char *lcp_solve_out_reason(const lcp_solve_out *out)
{
    return out->reason_literal ? out->reason_literal : out->auto_reason;
}

const char *lcp_solve_out_choice(const lcp_solve_out *out)
{
    return out->reason_literal ? out->reason_literal : out->choice;
}

void lcp_solve_out_free(lcp_solve_out *out)
{
    if (!out) return;
    free(out->x);
    if (!out->xw_block) free(out->w);
    out->x = out->w = NULL;
    out->xw_block = 0;
}

/* --max-memory: what a solve needs beyond the problem, roughly: vectors and
 * sparse copies of A, and the n x n dense matrices of the pivoting solvers
 * and of the dense linear solves (--linsolve dense, or auto where it takes the dense path). */
static double solve_memory(const lcp_solver *sv, const lcp_problem *p, const lcp_settings *s)
{
    double n = p->n, nnz = (double)lcp_csr_nnz(&p->A);
    double need = nnz * 12.0 * 4 + n * 8.0 * 40;
    /* ipm and the Newton solvers: dense as --linsolve auto decides it (src/la/linsolve_cost.c: up to n = 1000,
     * where not predicted dearer than sparse) */
    int factoring = !strcmp(sv->name, "ipm") || !strncmp(sv->name, "newton", 6);
    int pcg = s->linsolve == LCP_LINSOLVE_PCG || (s->precond && !strcmp(sv->name, "ipm"));
    int dense = !strcmp(sv->name, "lemke") || !strcmp(sv->name, "pivot") ||
                (factoring && !pcg &&
                 (s->linsolve == LCP_LINSOLVE_DENSE ||
                  (s->linsolve == LCP_LINSOLVE_AUTO && p->n <= 1000 && !lcp_linsolve_prefer_sparse(&p->A, NULL, NULL))));
    return dense ? need + 2.0 * n * n * 8.0 : need;
}

/* The covering vector of --cover FILE: n entries, all > 0. */
static int read_cover(const char *path, int n, double **cover, lcp_err *err)
{
    int nc, rc;
    if ((rc = lcp_read_mtx_vector(path, cover, &nc, err))) return rc;
    if (nc != n) return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "has %d entries, the problem has %d unknowns", nc, n);
    for (int i = 0; i < nc; i++)
        if (!((*cover)[i] > 0))
            return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "entry %d is %g: a covering vector must be positive",
                            i + 1, (*cover)[i]);
    return 0;
}

/* src into dst of size cap (cap >= 1), cut to fit: the messages copied on
 * every solve, without the cost of a formatted print. */
static void copy_text(char *dst, size_t cap, const char *src)
{
    size_t l = strnlen(src, cap - 1);
    memcpy(dst, src, l);
    dst[l] = '\0';
}

/* The solver of the run: the one named, or auto's pick (ch, why) with its
 * preconditioner unless one was named; then whether it fits. */
static int choose(const lcp_solve_opts *o, const lcp_problem *wp, lcp_cone_form form, lcp_auto_choice *ch,
                  const lcp_solver **out, lcp_settings *s, const char **precond, lcp_solve_out *r, lcp_err *err)
{
    const lcp_solver *sv = NULL;
    int rc;
    *precond = o->precond;
    if (strcmp(o->solver, "auto")) {
        sv = lcp_solver_find(o->solver);
    } else {
        if (o->auto_given) { /* another problem's of this pattern (a batch) */
            *ch = *o->auto_given;
            ch->time_s = 0;
            r->auto_shared = 1;
        } else if (!lcp_auto_memo_get(wp, o->auto_model, ch)) { /* the same problem but b as the last: its choice */
            if ((rc = lcp_choose_auto_model(wp, o->auto_model, ch, err))) return rc;
            lcp_auto_memo_put(wp, o->auto_model, ch);
        }
        sv = ch->solver;
        copy_text(r->auto_reason, sizeof r->auto_reason, ch->reason);
        if (r->auto_shared) {
            size_t l = strlen(r->auto_reason);
            snprintf(r->auto_reason + l, sizeof r->auto_reason - l, "; %s",
                     o->auto_given_from ? o->auto_given_from
                                        : "the choice made for the first problem of this pattern in the batch");
        }
        if (!strcmp(o->precond, "none")) { /* auto picks the preconditioner too, unless -p says */
            *precond = ch->precond_name;
            s->precond = ch->precond;
        } else {
            size_t l = strlen(r->auto_reason);
            snprintf(r->auto_reason + l, sizeof r->auto_reason - l, "; -p %s from the command line", o->precond);
        }
        copy_text(r->choice, sizeof r->choice, r->auto_reason);
        copy_text(r->auto_predicted, sizeof r->auto_predicted, ch->predicted);
    }
    if (!sv)
        return *r->auto_reason ? lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "%s", r->auto_reason)
                               : lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "unknown solver '%s' (see --list-solvers)",
                                          o->solver);
    if ((rc = lcp_solver_check(sv, wp, err))) {
        if (form) { /* say where the lcp/blcp came from */
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%.700s: --cone pyramid:%d makes it a%s", err->msg, o->cone_k,
                     form == LCP_CONE_BOX ? " blcp (K = 4 with a blcp solver)" : "n lcp (Stewart-Trinkle: try lemke)");
            snprintf(err->msg, sizeof err->msg, "%s", msg);
        }
        return rc;
    }
    if ((rc = lcp_solver_check_precond(sv, *precond, err))) return rc;
    if (lcp_memory_limit && !lcp_memory_fits(solve_memory(sv, wp, s))) { /* the estimate only under --max-memory */
        char need[32], cap[32];
        return lcp_fail(err, LCP_ERROR, NULL, 0, "%s on n = %d needs about %s, more than --max-memory %s", sv->name,
                        wp->n, lcp_bytes_str(solve_memory(sv, wp, s), need),
                        lcp_bytes_str((double)lcp_memory_limit, cap));
    }
    if (lcp_procs > 1 && !(sv->flags & LCP_SOLVER_DIST))
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "solver '%s' runs in one process: under mpirun with %d "
                        "processes use mpi-pgs, mpi-nsgs, mpi-jacobi or mpi-apgd", sv->name, lcp_procs);
    *out = sv;
    return 0;
}

/* --order: the ordering of the factorisations (factorising solvers), or
 * the sweep order (sweeping solvers: built into order, s->order set). */
static int set_order(const lcp_solve_opts *o, const lcp_solver *sv, const lcp_problem *wp, lcp_settings *s,
                     lcp_order *order, lcp_pipeline_cache *cache, void **held, lcp_err *err)
{
    int rc;
    /* per solve (thread-local: a solve before this one leaves nothing behind) */
    lcp_sparse_factor_set_ordering(LCP_SF_ORDER_AUTO);
    if (o->order_named && (sv->flags & LCP_SOLVER_FACTOR)) {
        if (o->order != LCP_ORDER_NATURAL && o->order != LCP_ORDER_AMD && o->order != LCP_ORDER_ND)
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "solver '%s' takes --order natural, amd or nd (the ordering "
                            "of its sparse factorisations), not '%s'", sv->name, lcp_order_name(o->order));
        lcp_sparse_factor_set_ordering(o->order == LCP_ORDER_NATURAL ? LCP_SF_ORDER_NATURAL
                                       : o->order == LCP_ORDER_AMD   ? LCP_SF_ORDER_AMD
                                                                     : LCP_SF_ORDER_ND);
    } else if (o->order != LCP_ORDER_NATURAL) {
        if (!(sv->flags & LCP_SOLVER_ORDER))
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "solver '%s' does not take --order (the sweeping solvers do: "
                            "pgs, psor, sgs, nsgs; the factorising ones take natural, amd or nd: ipm, socp-ipm, "
                            "newton-fb, newton-min, nsn, prox, admm)", sv->name);
        if (cache) { /* the update path: built once a pattern */
            if (!(s->order = lcp_pipeline_cache_order(cache, wp, o->order, held, err))) return LCP_ERROR;
            return 0;
        }
        if ((rc = lcp_order_build(wp, o->order, order, err))) return rc;
        s->order = order;
    }
    return 0;
}

/* auto's probe.  Where the model's pick is not a first-order method and a
 * few sweeps of the kind's Gauss-Seidel method (pgs; nsgs for friction)
 * cost a small share of the pick's predicted time, the sweeps run first:
 * after PROBE_SWEEPS of them their rate (the log of the best residual an
 * iteration) extrapolated to the tolerance, at a sweep's modelled cost,
 * must come within the pick's predicted time / LCP_PROBE_MARGIN, else the
 * monitor cuts the run; where it does, the sweeps go on for up to
 * LCP_PROBE_MARGIN times the sweeps extrapolated (and the pick's predicted
 * time as their budget and switch, as any first-order candidate).  Short of
 * the tolerance the model's candidates run from zero, as without the probe.
 * The decisions use iterations and residuals only (the same runs whatever
 * the load): the cost of a sweep is modelled, not timed (the monitor's
 * probe_cut). */
#define PROBE_SWEEPS 6        /* the sweeps the rate is taken over */
#define PROBE_SHARE 0.1       /* those cost at most this share of the pick's predicted time */
#define SWEEP_S_ENTRY 2e-9    /* a sweep's seconds a stored entry of A (a row's bookkeeping: 3 entries' worth) */
#define SWEEP_S_FRICTION 4.0  /* a friction sweep (nsgs: a local problem a contact) costs this many times more */
#define PROBE_SETUP_S 2e-6    /* a run's set-up and the monitor's new start (about 1-2 us here): the probe's own cost */

/* The probe's solver (the one the model measured: ch->probe) and its sweep's modelled seconds, where a
 * probe fits ch's pick (else NULL). */
static const lcp_solver *probe_plan(const lcp_solve_opts *o, const lcp_problem *wp, const lcp_auto_choice *ch,
                                    double *sweep_s, double *top)
{
    const lcp_solver *ps = ch->probe;
    if (strcmp(o->solver, "auto") || !ps || ch->ncand < 1 || (ch->cand[0].solver->flags & LCP_SOLVER_LINEAR) ||
        o->reg > 0)
        return NULL;
    *top = isfinite(ch->cand[0].t_scaled) && ch->cand[0].t_scaled > 0 ? ch->cand[0].t_scaled : ch->cand[0].t_pred;
    *sweep_s = SWEEP_S_ENTRY * ((double)lcp_csr_nnz(&wp->A) + 3.0 * wp->n) *
               (wp->kind & LCP_KIND_FRICTION ? SWEEP_S_FRICTION : 1.0);
    return isfinite(*top) && PROBE_SETUP_S + PROBE_SWEEPS * *sweep_s <= PROBE_SHARE * *top ? ps : NULL;
}

/* The runs: the solver (whole or by components), then auto's fallbacks
 * while lcp_auto_next gives one.  x in place; status and info of the last. */
static int run_all(const lcp_solve_opts *o, const lcp_problem *wp, lcp_auto_choice *ch, const lcp_solver **svp,
                   lcp_settings *s, const char **precond, double *x, lcp_monitor *mon, lcp_trace *tr,
                   lcp_info *info, lcp_status *status, lcp_solve_out *r, lcp_err *err)
{
    const lcp_solver *sv = *svp;
    int rc, user_max = s->max_iter;
    double user_tl = s->time_limit, start = mon->t0; /* the caller's limit: of the whole solve, all runs */
    lcp_auto_run run, model_run;
    double *own = NULL; /* the candidates' own best iterates (run.kept), ncand x n */
    lcp_auto_begin(ch, sv, s->precond, user_max, &run);
    double sweep_s = 0, top = 0;
    const lcp_solver *ps = probe_plan(o, wp, ch, &sweep_s, &top);
    int probe = ps && (user_max <= 0 || user_max > PROBE_SWEEPS);
    if (probe) { /* the probe's sweeps first */
        model_run = run;
        run = (lcp_auto_run){.solver = ps, .time_limit = fmax(top, LCP_SWITCH_FLOOR), .switch_cpu = top,
                             .switch_by_rate = 1};
        sv = ps;
        s->precond = NULL;
        *precond = "none";
        s->probe_iter = PROBE_SWEEPS;
        s->probe_sweep_s = sweep_s;
        s->probe_top = top;
    }
    for (;;) {
        if (run.max_iter > 0) s->max_iter = run.max_iter;
        /* auto's time budget and switch in the thread's CPU time: the same runs whatever the machine's load */
        s->budget_cpu = run.time_limit > 0 ? run.time_limit : 0;
        s->switch_cpu = run.switch_cpu > 0 ? run.switch_cpu : 0;
        s->switch_by_rate = run.switch_by_rate;
        if (user_tl > 0) s->time_limit = fmax(user_tl - (lcp_now() - start), 1e-9);
        s->columns = sv->columns; /* the callback's extra columns */
        rc = -1;
        r->components = 1;
        *info = (lcp_info){.status = LCP_MAX_ITER}; /* each run its own (a refusal's LCP_ERROR is the last run's) */
        /* auto: only where it can pay (below ~200 unknowns the set-up costs more than a solve) */
        if ((o->decompose == 1 || (o->decompose < 0 && wp->n >= 200)) && !tr && !s->order &&
            !(sv->flags & LCP_SOLVER_DIST))
            rc = lcp_solve_components(sv, wp, s, x, mon, info, &r->components, err);
        if (rc < 0) { /* one problem, or a component that wants the whole (decompose.h) */
            r->components = 1;
            *info = (lcp_info){.status = LCP_MAX_ITER}; /* what the components counted before they gave up: not this run's */
            if (wp->n > 0) rc = sv->solve(wp, s, x, mon, info, err);
            else rc = 0, lcp_monitor_step(mon, 0, x, NULL); /* no contacts: solved as it is */
        }
        s->max_iter = user_max;
        s->time_limit = user_tl;
        s->budget_cpu = s->switch_cpu = 0;
        s->switch_by_rate = 0;
        if (rc == LCP_INPUT_ERROR && (ch->ncand > 1 || probe)) { /* auto: a candidate that refuses the problem: the next */
            rc = 0;
            info->status = LCP_ERROR;
        }
        if (rc) break;
        *status = info->status == LCP_NO_SOLUTION || info->status == LCP_ERROR ? info->status : mon->status;
        if (*status == LCP_TIME_LIMIT && (!mon->budget_hit || mon->interrupted)) break; /* the caller's limit */
        size_t l = strlen(r->auto_reason);
        if (probe) { /* the probe's sweeps ended: solved, or the model's pick from zero (model_run's start) */
            s->probe_iter = 0;
            probe = 0;
            const char *pick = model_run.solver->name;
            char t1[32], t2[32], said[80];
            lcp_fmt_g3(mon->probe_more, t1);
            lcp_fmt_g3(top, t2);
            if (isnan(mon->probe_more)) /* decomposed: each component had its own probe */
                snprintf(said, sizeof said, "%s", *status == LCP_SOLVED ? "by components" : "a component's rate said more");
            else
                snprintf(said, sizeof said, "its rate said %s s%s", t1, *status == LCP_SOLVED ? "" : " more");
            if (*status == LCP_SOLVED) {
                snprintf(r->auto_reason + l, sizeof r->auto_reason - l, "; probe: %s solved it in %d iterations (%s, "
                         "%s %s s)", ps->name, info->iterations, said, pick, t2);
                break;
            }
            snprintf(r->auto_reason + l, sizeof r->auto_reason - l, "; probe: %s stopped (%s after %d iterations; %s, "
                     "%s %s s): %s from zero", ps->name, lcp_status_name(*status), info->iterations, said, pick, t2, pick);
            run = model_run;
        } else { /* auto's next candidate, where lcp_auto_next gives one */
            int progressed = mon->best.residual < mon->first_residual;
            /* kept: a longer round of this first-order candidate goes on from here */
            if (progressed && ch->ncand > 1 && run.stage < LCP_AUTO_MAXCAND && sv == ch->cand[run.stage].solver &&
                (sv->flags & LCP_SOLVER_LINEAR) && *status != LCP_SOLVED) {
                if (!own && !(own = lcp_alloc((size_t)ch->ncand * (size_t)wp->n + 1, sizeof(double)))) {
                    rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
                    break;
                }
                memcpy(own + (size_t)run.stage * wp->n, mon->best_x, (size_t)wp->n * sizeof(double));
                run.kept |= 1u << run.stage;
            }
            double taken = 0, rest = INFINITY; /* the run's time to the tolerance as far as known: its CPU time, and the rest its rate said */
            if (mon->budget_hit && ch->ncand > 1) {
                if (isfinite(mon->eta_cpu)) rest = mon->eta_cpu;
                taken = lcp_monitor_cpu(mon) + (isfinite(rest) ? rest : 0);
            }
            if (!lcp_auto_next(ch, wp, user_max, *status, mon->budget_hit, progressed, taken, rest, &run)) break;
            snprintf(r->auto_reason + l, sizeof r->auto_reason - l, "; %s stopped (%s after %d iterations): %s %s",
                     sv->name, lcp_status_name(*status), info->iterations, run.solver->name, run.what);
        }
        /* the next run: its start, a fresh monitor */
        if (run.start == LCP_AUTO_FROM_BEST) memcpy(x, mon->best_x, (size_t)wp->n * sizeof(double));
        else if (run.start == LCP_AUTO_FROM_OWN) memcpy(x, own + (size_t)run.stage * wp->n, (size_t)wp->n * sizeof(double));
        else memset(x, 0, (size_t)wp->n * sizeof(double));
        lcp_monitor_free(mon);
        if (lcp_monitor_init(mon, wp, s, tr)) {
            rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
            break;
        }
        sv = run.solver;
        s->precond = run.precond;
        *precond = s->precond ? s->precond->name : "none";
    }
    *svp = sv;
    free(own);
    return rc;
}

int lcp_pipeline_solve(const lcp_problem *p, const lcp_solve_opts *o, const double *x0, int n0,
                       const char *x0_source, lcp_solve_out *r, lcp_err *err)
{
    return lcp_pipeline_solve_cached(p, o, x0, n0, x0_source, NULL, r, err);
}

/* One solve's state, from stage to stage. */
typedef struct {
    const lcp_problem *p;  /* as given */
    const lcp_problem *wp; /* the problem solved: p, its cone form or its regularised copy */
    lcp_problem pc, pr;    /* the pyramid approximation (--cone); the regularised copy (--reg) */
    int reg_copy;          /* pr.A is ours */
    lcp_cone_form form;
    lcp_settings s;        /* o->s with the run's precond, order, cover, budget */
    lcp_trace trace, *tr;
    lcp_monitor mon;
    lcp_order order;       /* --order when there is no cache */
    void *held;            /* the cache entry of the order in use */
    double *x, *cover;
    int threads_used;      /* -j capped by the free CPUs (stage_start) */
} solve_state;

/* validate -> cone conversion -> regularisation: S->wp. */
static int stage_forms(solve_state *S, const lcp_solve_opts *o, const double *x0, lcp_solve_out *r, lcp_err *err)
{
    const lcp_problem *p = S->p;
    int rc;
    if (!p || p->n < 0 || (p->n > 0 && (!p->A.p || !p->b)))
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "no problem to solve (empty, or not finished)");
    S->wp = p;
    r->solved_kind = p->kind;
    r->solved_n = p->n;
    r->solved_nc = p->nc;
    r->solved_nnz = lcp_csr_nnz(&p->A);
    if (o->cone_k) { /* the box form for K = 4 when the solver takes blcp, else Stewart-Trinkle */
        const lcp_solver *named = strcmp(o->solver, "auto") ? lcp_solver_find(o->solver) : NULL;
        S->form = o->cone_k == 4 && (!named || (named->kinds & LCP_KIND_BLCP)) ? LCP_CONE_BOX
                                                                              : LCP_CONE_STEWART_TRINKLE;
        if ((rc = lcp_cone_convert(p, S->form, o->cone_k, &S->pc, err))) return rc;
        if (x0 && S->form == LCP_CONE_STEWART_TRINKLE)
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                            "--warm-start: the Stewart-Trinkle form (--cone pyramid:%d) has other unknowns than r",
                            o->cone_k);
        S->wp = &S->pc;
        r->cone_form = S->form;
        r->solved_kind = S->pc.kind;
        r->solved_n = S->pc.n;
        r->solved_nc = S->pc.nc;
        r->solved_nnz = lcp_csr_nnz(&S->pc.A);
    }
    if (o->reg > 0) { /* on a copy of A; residuals stay those of the original (verify.c) */
        if (!strcmp(o->solver, "si"))
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--reg: si works on M, J and v, not on A (use pgs)");
        S->pr = *S->wp; /* shares every array but A */
        if (lcp_csr_copy(&S->pr.A, &S->wp->A)) return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        S->reg_copy = 1;
        if ((rc = lcp_problem_regularise(&S->pr, o->reg, err))) return rc;
        S->wp = &S->pr;
        r->reg = o->reg;
        r->solved_nnz = lcp_csr_nnz(&S->pr.A);
    }
    return 0;
}

/* The start of the runs: x from the warm start, the covering vector, the
 * trace, the threads and the monitor. */
static int stage_start(solve_state *S, const lcp_solve_opts *o, const lcp_solver *sv, const double *x0, int n0,
                       const char *x0_source, lcp_err *err)
{
    const lcp_problem *wp = S->wp;
    int rc;
    if (!(S->x = lcp_calloc((size_t)(wp->n > 0 ? wp->n : 1), sizeof(double))))
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    if (x0) {
        if (n0 != wp->n)
            return lcp_fail(err, LCP_INPUT_ERROR, x0_source ? x0_source : "the warm start", 0,
                            "has %d entries, the problem has %d unknowns", n0, wp->n);
        /* the previous step's impulses, damped (--warm-factor) and scaled to
         * the new time step (--dt-ratio) */
        for (int i = 0; i < wp->n; i++) S->x[i] = o->warm_factor * o->dt_ratio * x0[i];
    }
    if (o->cover) {
        if ((rc = read_cover(o->cover, wp->n, &S->cover, err))) return rc;
        S->s.lemke.cover = S->cover;
    }
    if (o->decompose == 1 && o->trace)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--decompose on and --trace cannot be used together (a trace "
                                                       "follows the whole problem)");
    if (o->trace) {
        if ((rc = lcp_trace_open(&S->trace, o->trace, sv->columns, err))) return rc;
        S->tr = &S->trace;
    }
#ifdef _OPENMP
    /* -j N on the CPUs free at this moment: a thread sharing its core with
     * another busy process makes every barrier wait for its time slice */
    S->threads_used = lcp_threads_free(S->s.threads);
    if (omp_get_max_threads() != S->threads_used) omp_set_num_threads(S->threads_used);
    S->s.threads = S->threads_used; /* the sweeps' team (src/solvers/team.c) tries no more than that either */
#else
    S->threads_used = 1;
#endif
    if (lcp_monitor_init(&S->mon, wp, &S->s, S->tr)) return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    return 0;
}


/* best iterate -> verification -> map back, and the outcome in words. */
static int stage_answer(solve_state *S, const lcp_solve_opts *o, lcp_status status, const lcp_info *info,
                        lcp_solve_out *r, lcp_err *err)
{
    const lcp_problem *wp = S->wp, *p = S->p;
    lcp_monitor *mon = &S->mon;
    double *x = S->x;
    /* the answer reported is verified here, not taken from the solver; short
     * of a solution, the best iterate the monitor saw (lowest residual, not
     * the last: iterations, interrupted or diverging, need not descend) */
    /* |b|_inf as the monitor took it at its init (lcp_verify_bscale of wp):
     * lcp_verify's bits without a pass over b */
    if (status != LCP_SOLVED) {
        lcp_metrics mx;
        lcp_verify_b(wp, x, mon->w, mon->bscale, &mx);
        if (isfinite(mon->best.residual) && mon->best.residual <= mx.residual)
            memcpy(x, mon->best_x, (size_t)wp->n * sizeof(double));
    }
    lcp_verify_b(wp, x, mon->w, mon->bscale, &r->m);
    for (int i = 0; wp->reg > 0 && i < wp->n; i++) mon->w[i] -= wp->reg * x[i]; /* the original w */
    if (S->form) { /* r of the original problem, and how far it is from solving it */
        lcp_metrics cm;
        r->x = lcp_alloc((size_t)p->n, sizeof(double));
        r->w = lcp_alloc((size_t)p->n, sizeof(double));
        if (!r->x || !r->w) return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        lcp_cone_map_back(p, S->form, o->cone_k, x, r->x);
        lcp_verify(p, r->x, r->w, &cm);
        r->cone_error = cm.residual;
    } else { /* the buffers themselves */
        r->x = x;
        r->w = mon->w;
        S->x = mon->w = NULL;
    }
    if (status == LCP_SOLVED && !(r->m.residual <= S->s.tol)) status = LCP_ERROR;
    r->status = status;
    r->iterations = info->iterations;
    r->rows_swept = info->rows_swept;
    r->nnz_swept = info->nnz_swept;
    r->omega = info->omega;
    r->interrupted = mon->interrupted;
    copy_text(r->message, sizeof r->message, info->message);
    if (status == LCP_ERROR && !*info->message)
        copy_text(r->message, sizeof r->message,
                  *mon->message ? mon->message
                                : "the iteration diverged or produced NaN: check the problem (lcpsolve info) or try "
                                  "another solver");
    if (status == LCP_TIME_LIMIT && mon->interrupted) snprintf(r->message, sizeof r->message, "interrupted");
    if (S->tr) {
        S->tr = NULL;
        return lcp_trace_close(&S->trace, err);
    }
    return 0;
}

static int solve_once(const lcp_problem *p, const lcp_solve_opts *o, const double *x0, int n0, const char *x0_source,
                      lcp_pipeline_cache *cache, lcp_solve_out *r, lcp_err *err);

/* r as a solve starts it: cleared, not the 3 KB of texts after message (emptied) */
static void out_clear(lcp_solve_out *r)
{
    memset(r, 0, offsetof(lcp_solve_out, message));
    r->message[0] = r->choice[0] = r->auto_reason[0] = r->auto_predicted[0] = '\0';
    r->status = LCP_INPUT_ERROR;
    r->precond = "none";
    r->components = 1;
}

/* Where a path before any set-up puts x and w (n doubles each): the
 * caller's arrays (x_into; w in wbuf where it wants none: w_into NULL),
 * else one new block, w = x + n (one allocation a solve, not two);
 * small_drop gives back what small_arrays allocated. */
static int small_arrays(double *x_into, double *w_into, int n, double *wbuf, double **x, double **w)
{
    if (x_into) {
        *x = x_into;
        *w = w_into ? w_into : wbuf;
        return 1;
    }
    *x = lcp_alloc(2 * (size_t)n, sizeof(double));
    *w = *x ? *x + n : NULL;
    return *x != NULL;
}

static void small_drop(const double *x_into, double *x)
{
    if (!x_into) free(x); /* (w with it) */
}

/* auto's reason where lemke answers a small lcp (lemke's tiny path or its general solve) */
static const char small_lemke_reason[] = "auto: lemke (a problem of up to " LCP_STR(LCP_TINY_N) " unknowns that "
                                         "pivot's small path did not solve: A neither P nor positive "
                                         "semidefinite; before any choice)";

static const lcp_solver *small_pivot, *small_lemke_solver; /* the registry's pivot and lemke, found once */
static pthread_once_t small_once = PTHREAD_ONCE_INIT;
static void small_solvers_find(void)
{
    small_pivot = lcp_solver_find("pivot");
    small_lemke_solver = lcp_solver_find("lemke");
}

/* s is the name lit (a literal: inline, a byte at a time, where strcmp is a
 * call; a solve asks a few of these) */
static inline int name_is(const char *s, const char *lit)
{
    size_t i = 0;
    for (; lit[i]; i++)
        if (s[i] != lit[i]) return 0;
    return !s[i];
}

int lcp_pipeline_small_first(const lcp_problem *p, const lcp_solve_opts *o, const double *x0, int n0)
{
    return !((!name_is(o->solver, "pivot") && !name_is(o->solver, "auto")) || o->cone_k || o->reg > 0 || o->trace ||
             o->order_named || o->order != LCP_ORDER_NATURAL || o->decompose == 1 || o->s.on_iteration_rows ||
             o->s.crash.mode != LCP_CRASH_AUTO || !name_is(o->precond, "none") || lcp_procs > 1 || !p ||
             p->reg > 0 || (x0 && n0 != p->n) || p->n > LCP_SMALL_LANE_N || !lcp_pivot_small_fits(p));
}

/* The small answer a found: a callback that wants no rows (a signal's stop,
 * a recorder of the residuals checked) sees its check once. */
static int small_found(const lcp_solve_opts *o, lcp_small_answer *a, const lcp_solver *solver, double *x, double *w,
                       const double *x_into, const double *w_into, const char *reason, double t0)
{
    a->solver = solver;
    a->reason = reason;
    a->x = x;
    a->w = !x_into || w_into ? w : NULL; /* (wbuf, on the stack: not the caller's) */
    a->t_end = lcp_now_fast();
    double t = a->t_end - t0;
    a->time_s = t > 0.0 ? t : 0.0;
    if (o->s.on_iteration) o->s.on_iteration(o->s.on_iteration_ctx, a->steps, a->time_s, &a->m, NULL, NULL);
    return 1;
}

/* The small paths (src/solvers/pivot_small.h): an lcp or blcp of up to
 * LCP_SMALL_LANE_N unknowns, solver pivot or auto, solved on the stack (its
 * block beyond LCP_SMALL_STACK_N in the thread's scratch) before any choice
 * or set-up (beyond, pivot runs its small path itself: src/solvers/pivot.c),
 * where nothing asks for the general run (a trace, an iteration
 * callback that wants a row an iteration, --cone, --reg, --order,
 * --decompose on, --crash none or SOLVER, a preconditioner, MPI processes;
 * --cover, lemke's, is ignored as pivot ignores it, its file still
 * checked: a bad one leaves the problem to the general run, which refuses
 * it).  Then, with auto, on an lcp of up to LCP_LEMKE_SMALL_N unknowns that
 * pivot's path does not solve (A neither P nor positive semidefinite, as a
 * bimatrix game's or a copositive one's): lemke's tiny path
 * (src/solvers/lemke_small.h: nothing allocated, lemke's pivots), exact on
 * any lcp, before the model's choice, which on so small a problem costs
 * more than its pivots.  Each answer is verified as any other (the same
 * residual); where it stops short or the residual is above the tolerance,
 * nothing of it is kept. */
int lcp_pipeline_small(const lcp_problem *p, const lcp_solve_opts *o, const double *x0, int n0, double *x_into,
                       double *w_into, double t0, lcp_small_answer *a)
{
    static const char pivot_reason[] = "auto: pivot (a problem of up to " LCP_STR(LCP_SMALL_LANE_N) " unknowns: its "
                                       "small path, before any choice)";
    if (!lcp_pipeline_small_first(p, o, x0, n0)) return 0;
    int named = name_is(o->solver, "pivot");
    pthread_once(&small_once, small_solvers_find);
    if (!small_pivot) return 0;
    if (o->cover) { /* pivot ignores --cover (lemke's), but a bad file is refused as the general path refuses it */
        double *cover = NULL;
        lcp_err ce;
        int bad = read_cover(o->cover, p->n, &cover, &ce);
        free(cover);
        if (bad) return 0;
    }
    if (!(t0 >= 0.0)) t0 = lcp_now_fast();
    double start[LCP_SMALL_LANE_N], tol = o->s.tol;
    double bscale = lcp_verify_bscale(p); /* once: the path's threshold and the check */
    for (int i = 0; x0 && i < p->n; i++) start[i] = o->warm_factor * o->dt_ratio * x0[i];
    double wbuf[LCP_SMALL_LANE_N], *x, *w;
    a->steps = 0;
    if (!small_arrays(x_into, w_into, p->n, wbuf, &x, &w)) return -1;
    if (lcp_pivot_small(p, x0 ? start : NULL, lcp_pivot_small_threshold(p, tol, bscale), o->s.max_iter, x,
                        &a->steps)) {
        lcp_verify_b(p, x, w, bscale, &a->m);
        if (a->m.residual <= tol) return small_found(o, a, small_pivot, x, w, x_into, w_into,
                                                     named ? NULL : pivot_reason, t0);
    }
    if (!named && p->kind == LCP_KIND_LCP && p->n <= LCP_TINY_N && !o->cover && small_lemke_solver &&
        p->n <= LCP_LEMKE_SMALL_N) {
        a->steps = 0;
        if (lcp_lemke_small(p, x, &a->steps) && !(o->s.max_iter > 0 && a->steps > o->s.max_iter)) {
            lcp_verify(p, x, w, &a->m);
            if (a->m.residual <= tol) return small_found(o, a, small_lemke_solver, x, w, x_into, w_into,
                                                         small_lemke_reason, t0);
        }
    }
    small_drop(x_into, x);
    return -1;
}

/* The pipeline's first stage: the small paths' answer into r (1), or,
 * where they took the problem and have no verified answer (or the caller
 * tried them: o->s.small_tried), auto on an lcp of up to LCP_TINY_N unknowns
 * goes on with lemke's general solve before the model's choice (1 where it
 * solved: r holds it); else 0 and r as cleared: the general run (*tried:
 * whether pivot's small path has run, for pivot's own solve not to run it
 * again). */
static int stage_small(const lcp_problem *p, const lcp_solve_opts *o, const double *x0, int n0, lcp_solve_out *r,
                       int *tried)
{
    *tried = o->s.small_tried;
    if (!o->s.small_tried) {
        lcp_small_answer a;
        int got = lcp_pipeline_small(p, o, x0, n0, o->x_into, o->w_into, -1.0, &a);
        if (!got) return 0;
        *tried = 1;
        if (got > 0) {
            r->status = LCP_SOLVED;
            r->iterations = a.steps;
            r->m = a.m;
            r->x = o->x_into ? NULL : a.x; /* (in the caller's arrays: not ours) */
            r->w = o->x_into ? NULL : a.w;
            r->xw_block = !o->x_into;
            r->solver = a.solver;
            r->threads_used = 1;
            r->solved_kind = p->kind;
            r->solved_n = p->n;
            r->solved_nc = p->nc;
            r->solved_nnz = lcp_csr_nnz(&p->A);
            r->reason_literal = a.reason; /* (not copied: lcp_solve_out_reason) */
            r->time_s = a.time_s;
            return 1;
        }
    } else if (!lcp_pipeline_small_first(p, o, x0, n0)) {
        return 0;
    }
    if (name_is(o->solver, "pivot") || p->kind != LCP_KIND_LCP || p->n > LCP_TINY_N) return 0;
    lcp_solve_opts lo = *o;
    lo.solver = "lemke";
    lo.auto_given = NULL;
    lo.auto_made = NULL;
    lcp_err e = {{0}};
    if (solve_once(p, &lo, x0, n0, NULL, NULL, r, &e) || r->status != LCP_SOLVED) {
        lcp_solve_out_free(r);
        out_clear(r);
        return 0;
    }
    r->reason_literal = small_lemke_reason; /* (lemke named: its own texts are empty) */
    return 1;
}

int lcp_pipeline_solve_cached(const lcp_problem *p, const lcp_solve_opts *o, const double *x0, int n0,
                              const char *x0_source, lcp_pipeline_cache *cache, lcp_solve_out *r, lcp_err *err)
{
    int rc = solve_once(p, o, x0, n0, x0_source, cache, r, err);
    /* a choice taken from a problem of the same pattern that did not solve this one (its values differ):
     * auto chooses for it afresh (not under a time limit, which the first try has used) */
    if (r->auto_shared && (rc || r->status != LCP_SOLVED) && !r->interrupted && !(o->s.time_limit > 0)) {
        lcp_solve_opts own = *o;
        own.auto_given = NULL;
        lcp_solve_out_free(r);
        err->msg[0] = '\0';
        rc = solve_once(p, &own, x0, n0, x0_source, cache, r, err);
    }
    return rc;
}

static int solve_once(const lcp_problem *p, const lcp_solve_opts *o, const double *x0, int n0, const char *x0_source,
                      lcp_pipeline_cache *cache, lcp_solve_out *r, lcp_err *err)
{
    out_clear(r);
    int small_tried;
    if (stage_small(p, o, x0, n0, r, &small_tried)) return 0; /* a small problem: on the stack, before any set-up */
    solve_state S;
    memset(&S, 0, sizeof S);
    S.p = p;
    S.s = o->s;
    S.s.small_tried = small_tried;
    lcp_problem_init(&S.pc);
    /* auto's choice where the caller keeps it (auto_made: no copy of its 2 KB a solve), else here; auto fills
     * it (choose), a named solver runs with none */
    lcp_auto_choice own_ch, *ch = o->auto_made ? o->auto_made : &own_ch;
    if (strcmp(o->solver, "auto")) memset(ch, 0, sizeof *ch);
    const lcp_solver *sv = NULL;
    const char *precond = o->precond;
    lcp_info info = {.status = LCP_MAX_ITER};
    lcp_status status = LCP_MAX_ITER;
    int rc = stage_forms(&S, o, x0, r, err);                               /* validate, cone, reg */
    if (!rc) rc = choose(o, S.wp, S.form, ch, &sv, &S.s, &precond, r, err); /* auto, checks, memory */
    if (!rc) {
        r->solver = sv;
        r->precond = precond;
        r->auto_time_s = ch->time_s;
        rc = set_order(o, sv, S.wp, &S.s, &S.order, cache, &S.held, err); /* --order */
    }
    if (!rc) rc = stage_start(&S, o, sv, x0, n0, x0_source, err);
    r->threads_used = S.threads_used ? S.threads_used : 1;
    lcp_symbolic_store_set_current(lcp_pipeline_cache_store(cache)); /* the factorisations' update path */
    if (!rc) { /* the solve (decomposed or whole) with auto's fallbacks */
        double ts = S.mon.t0; /* the monitor's start, taken last in stage_start: one clock read less */
        rc = run_all(o, S.wp, ch, &sv, &S.s, &precond, S.x, &S.mon, S.tr, &info, &status, r, err);
        r->solver = sv;
        r->precond = precond;
        r->time_s = lcp_now() - ts;
    }
    if (!rc) rc = stage_answer(&S, o, status, &info, r, err); /* best iterate, verify, map back */
    if (rc) r->status = rc > 0 && rc < LCP_STATUS_COUNT ? (lcp_status)rc : LCP_ERROR;
    lcp_symbolic_store_set_current(NULL);
    if (S.tr) lcp_trace_abort(S.tr);
    lcp_monitor_free(&S.mon);
    lcp_order_free(&S.order);
    lcp_pipeline_cache_release(cache, S.held);
    free(S.x);
    free(S.cover);
    if (S.reg_copy) lcp_csr_free(&S.pr.A);
    if (S.form) lcp_problem_free(&S.pc); /* the cone form: only with --cone */
    return rc;
}
