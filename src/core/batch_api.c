/* src/core/batch_api.c: the calls of include/lcpsolve.h for front ends
 * that drive the library from another language (the Python package,
 * python/lcpsolve): many problems solved at once on threads
 * (lcps_solve_batch, as `lcpsolve batch` solves its environments), a stop
 * on a signal that leaves the best iterate (lcps_stop_on_fd), and the
 * registry and option table as data (lcps_solver_info, lcps_option_info).
 * Nothing here prints or exits. */
#include "../../include/lcpsolve.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "api_internal.h"
#include "auto_memo.h"
#include "batch_run.h"
#include "common.h"
#include "options.h"
#include "../solvers/solver.h"

void openblas_set_num_threads(int);

/* each solve of a batch on one thread: a copy of the settings with threads 1 (NULL, err set: out of memory),
 * and one BLAS thread */
static lcps_settings *one_thread(const lcps_settings *s, char *err, size_t errlen)
{
    lcps_settings *one = s ? lcps_settings_copy(s) : lcps_settings_new();
    if (!one || lcps_settings_set(one, "threads", "1", err, errlen)) {
        lcps_settings_free(one);
        if (err && errlen && !*err) snprintf(err, errlen, "out of memory");
        return NULL;
    }
    openblas_set_num_threads(1);
    return one;
}

/* lcpsolve batch's precedence of the exit codes: input error, breakdown,
 * no solution, limit. */
static int worse(int a, int b)
{
    static const int rank[6] = {0, 1, 4, 2, 0, 3};
    int ra = a > 0 && a < 6 ? rank[a] : 5, rb = b > 0 && b < 6 ? rank[b] : 5;
    if (a == 0) ra = 0;
    if (b == 0) rb = 0;
    return rb > ra ? b : a;
}

/* what a batch reports: its exit code (the worst) and the message of its first bad problem */
typedef struct {
    int code, first_bad;
    char *err;
    size_t errlen;
} batch_report;

/* the report after the solve of problem k (exit code rc, message e) */
static void note(batch_report *b, int k, int rc, const char *e)
{
#ifdef _OPENMP
#pragma omp critical(lcps_solve_batch)
#endif
    {
        b->code = worse(b->code, rc);
        if ((rc == 2 || rc == 5) && (b->first_bad < 0 || k < b->first_bad)) {
            b->first_bad = k;
            if (b->err && b->errlen) snprintf(b->err, b->errlen, "problem %d: %s", k, e);
        }
    }
}

int lcp_batch_run(int n, int threads, const lcp_auto_share *sh, void (*fn)(void *ctx, int k, double *clock),
                  void *ctx)
{
    double clock = lcp_now_fast();
    for (int k = 0; sh && k < n; k++) /* the leaders first */
        if (lcp_auto_share_made(sh, k)) fn(ctx, k, &clock);
    double t0 = clock;
    int k0 = 0, used = 1;
    while (k0 < n) { /* alone (src/core/batch_run.h) */
        if (!(sh && lcp_auto_share_made(sh, k0))) fn(ctx, k0, &clock);
        double spent = clock - t0;
        k0++;
        if (threads > 1 && (spent >= LCP_BATCH_ALONE_S ||
                            (k0 >= LCP_BATCH_PROBE && spent / k0 * (n - k0) > 2 * LCP_BATCH_ALONE_S)))
            break;
    }
    if (k0 >= n) return 1;
    int chunk = (n - k0) / (64 * threads);
    if (chunk < 1) chunk = 1;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads) firstprivate(clock)
#endif
    {
        clock = lcp_now_fast();
#ifdef _OPENMP
#pragma omp single nowait
        used = omp_get_num_threads();
#pragma omp for schedule(dynamic, chunk)
#else
        (void)chunk;
#endif
        for (int k = k0; k < n; k++)
            if (!(sh && lcp_auto_share_made(sh, k))) fn(ctx, k, &clock);
    }
    return used;
}

/* lcps_solve_batch's problems and their results, for lcp_batch_run */
typedef struct {
    const lcps_problem *const *p;
    const lcps_settings *one;
    const double *const *x0;
    lcps_result *r;
    const lcp_auto_share *sh;
    batch_report *report;
} batch_job;

/* problem k: a pattern's leader keeps the choice it makes, the others take their leader's */
static void batch_one(void *ctx, int k, double *clock)
{
    const batch_job *b = ctx;
    char e[512];
    int rc = lcp_api_solve(b->p[k], b->one, b->x0 ? b->x0[k] : NULL, &b->r[k], e, sizeof e,
                           lcp_auto_share_given(b->sh, k), lcp_auto_share_made(b->sh, k), NULL, NULL);
    note(b->report, k, rc, e);
    *clock = lcp_now_fast();
}

int lcps_solve_batch(const lcps_problem *const *p, int count, const lcps_settings *s, const double *const *x0,
                     int threads, lcps_result *r, char *err, size_t errlen)
{
    if (err && errlen) *err = '\0';
    if ((!p && count > 0) || (!r && count > 0) || count < 0 || threads < 1) {
        if (err && errlen)
            snprintf(err, errlen, "lcps_solve_batch: %s", !p ? "no problems" : !r ? "r is NULL"
                                                          : count < 0 ? "negative count" : "threads must be >= 1");
        return 2;
    }
    /* each solve on one thread (its own settings copy), threads: solves at once */
    lcps_settings *one = one_thread(s, err, errlen);
    if (!one) return 5;
    batch_report report = {0, -1, err, errlen};
    /* auto chooses once a pattern, for its first problem, solved before the others (the same choices for
     * any thread count); the problems of that pattern take it (as lcpsolve batch: src/cli/batch.c) */
    lcp_auto_share sh = {0};
    const lcp_problem **pp =
        !strcmp(lcp_api_settings_opts(one)->solver, "auto") && count > 1 ? malloc((size_t)count * sizeof *pp) : NULL;
    for (int k = 0; pp && k < count; k++) {
        lcp_err pe = {{0}};
        pp[k] = p[k] ? lcp_api_problem(p[k], NULL, NULL, &pe) : NULL; /* NULL: checked again by its solve */
    }
    if (pp) lcp_auto_share_init(&sh, pp, count, lcp_api_settings_opts(one));
    free(pp);
    batch_job job = {p, one, x0, r, &sh, &report};
    lcp_batch_run(count, threads, &sh, batch_one, &job);
    lcp_auto_share_free(&sh);
    lcps_settings_free(one);
    return report.code;
}

/* lcps_solve_stacked's problems, their new values and the arrays of the answers, for lcp_batch_run */
typedef struct {
    lcps_problem *const *p;
    const lcps_settings *one;
    const double *val;
    long nval;
    const double *b, *x0;
    int n;
    double *x;
    int *status, *iterations;
    double *residual;
    batch_report *report;
} stacked_job;

/* problem k: its new values, its solve, its answer into row k of the arrays */
static void stacked_one(void *ctx, int k, double *clock)
{
    const stacked_job *j = ctx;
    int n = j->n;
    char e[512];
    lcps_result r;
    int rc = lcps_problem_update(j->p[k], j->val ? j->val + (size_t)k * (size_t)j->nval : NULL,
                                 j->b ? j->b + (size_t)k * (size_t)n : NULL, e, sizeof e);
    if (rc) {
        memset(&r, 0, sizeof r);
        r.status = LCPS_INPUT_ERROR;
        r.residual = INFINITY;
    } else {
        rc = lcps_solve(j->p[k], j->one, j->x0 ? j->x0 + (size_t)k * (size_t)n : NULL, &r, e, sizeof e);
    }
    double *xk = j->x + (size_t)k * (size_t)n;
    if (r.x) memcpy(xk, r.x, (size_t)n * sizeof(double));
    else
        for (int i = 0; i < n; i++) xk[i] = NAN;
    if (j->status) j->status[k] = r.status;
    if (j->iterations) j->iterations[k] = r.iterations;
    if (j->residual) j->residual[k] = r.x ? r.residual : INFINITY;
    lcps_result_free(&r);
    note(j->report, k, rc, e);
    *clock = lcp_now_fast();
}

int lcps_solve_stacked(lcps_problem *const *p, int count, const double *val, long nval, const double *b,
                       const double *x0, const lcps_settings *s, int threads, double *x, int *status,
                       int *iterations, double *residual, char *err, size_t errlen)
{
    if (err && errlen) *err = '\0';
    if (count < 0 || threads < 1 || (count > 0 && (!p || !x))) {
        if (err && errlen)
            snprintf(err, errlen, "lcps_solve_stacked: %s", count < 0 ? "negative count" : threads < 1 ?
                     "threads must be >= 1" : !p ? "no problems" : "x is NULL");
        return 2;
    }
    /* one size, and val of each problem's own length, checked before anything is solved or changed */
    int n = count > 0 && p[0] ? lcps_problem_n(p[0]) : 0;
    for (int k = 0; k < count; k++) {
        lcp_err e = {{0}};
        long nv = 0;
        if (!p[k] || lcps_problem_n(p[k]) != n) {
            if (err && errlen)
                snprintf(err, errlen, "lcps_solve_stacked: problem %d %s", k, !p[k] ? "is NULL" : "is not of the size of problem 0");
            return 2;
        }
        if (val && (!lcp_api_problem(p[k], NULL, &nv, &e) || nv != nval)) {
            if (err && errlen)
                snprintf(err, errlen, "lcps_solve_stacked: problem %d: %s", k, e.msg[0] ? e.msg : "its A does not have nval values");
            return 2;
        }
    }
    lcps_settings *one = one_thread(s, err, errlen);
    if (!one) return 5;
    batch_report report = {0, -1, err, errlen};
    stacked_job job = {p, one, val, nval, b, x0, n, x, status, iterations, residual, &report};
    lcp_batch_run(count, threads, NULL, stacked_one, &job); /* (each handle keeps its own choice: no leaders) */
    lcps_settings_free(one);
    return report.code;
}

long lcps_results_x(const lcps_result *r, int count, double *out)
{
    long at = 0;
    for (int k = 0; r && k < count; k++) {
        if (!r[k].x && r[k].n > 0) return -1;
        if (out && r[k].n > 0) memcpy(out + at, r[k].x, (size_t)r[k].n * sizeof(double));
        at += r[k].n > 0 ? r[k].n : 0;
    }
    return at;
}

/* ctx: lcps_stop_fd.  The first call of a solve (started_ 0) empties the
 * pipe of what came before the solve; then the pipe is read when a new 20 ms
 * of the solve's time has begun (and at every set-up poll), so a solve of
 * many short iterations pays a system call every 20 ms at most.  Calls may
 * come from several threads at once (atomics). */
int lcps_stop_on_fd(void *ctx, const lcps_iteration *row)
{
    lcps_stop_fd *c = ctx;
    if (!c || c->fd < 0) return 0;
    if (__atomic_load_n(&c->stopped, __ATOMIC_RELAXED)) return 1;
    /* plain loads first: the threads of a batch share c, written every 20 ms at most */
    int first = !__atomic_load_n(&c->started_, __ATOMIC_RELAXED) && !__atomic_exchange_n(&c->started_, 1, __ATOMIC_RELAXED);
    double next;
    __atomic_load(&c->next_s_, &next, __ATOMIC_RELAXED);
    if (!first && row && row->iteration >= 0 && row->time_s < next && row->time_s >= next - 0.04) return 0;
    next = (row && row->time_s > 0 ? row->time_s : 0.0) + 0.02;
    __atomic_store(&c->next_s_, &next, __ATOMIC_RELAXED);
    unsigned char buf[64];
    int hit = 0;
    for (;;) {
        ssize_t got = read(c->fd, buf, sizeof buf);
        if (got <= 0) break; /* empty (EAGAIN: the fd must be non-blocking), closed, or an error */
        for (ssize_t k = 0; k < got && !first; k++)
            if (c->signum == 0 || buf[k] == (unsigned char)c->signum) hit = 1;
    }
    if (hit) __atomic_store_n(&c->stopped, 1, __ATOMIC_RELAXED);
    return hit;
}

int lcps_solver_info(const char *name, char *kinds, size_t kindslen, const char *const **preconds,
                     const char **summary)
{
    const lcp_solver *sv = name ? lcp_solver_find(name) : NULL;
    if (!sv) return 2;
    if (kinds && kindslen) {
        *kinds = '\0';
        size_t used = 0;
        for (unsigned k = 1; k <= LCP_KIND_FC3D; k <<= 1)
            if (sv->kinds & k) {
                int w = snprintf(kinds + used, kindslen - used, "%s%s", used ? "," : "", lcp_kind_name((lcp_kind)k));
                if (w < 0 || (size_t)w >= kindslen - used) break;
                used += (size_t)w;
            }
    }
    if (preconds) *preconds = sv->preconds;
    if (summary) *summary = sv->summary;
    return 0;
}

int lcps_option_info(int k, const char **name, const char **arg, const char **help)
{
    int m = 0;
    for (const lcp_option *o = lcp_options; o->help; o++) {
        if (o->scope != LCP_OPT_SOLVE || !o->name) continue;
        if (m++ != k) continue;
        if (name) *name = o->name;
        if (arg) *arg = o->arg;
        if (help) *help = o->help;
        return 0;
    }
    return -1;
}

int lcps_option_read_by(const char *option, const char *solver)
{
    const lcp_option *o = option ? lcp_option_find(option) : NULL;
    const lcp_solver *sv = solver ? lcp_solver_find(solver) : NULL;
    if (!o || o->scope != LCP_OPT_SOLVE || !sv) return -1;
    return lcp_option_read_by(o, sv);
}
