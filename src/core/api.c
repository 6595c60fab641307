/* src/core/api.c: the public API of include/lcpsolve.h, on the problem
 * model (src/core/problem.h), the option table (options.h) and the pipeline
 * (pipeline.h).  Nothing here prints or exits. */
#include "../../include/lcpsolve.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../scenes/scenes.h"
#include "../io/io.h"
#include "options.h"
#include "api_internal.h"
#include "pipeline.h"

/* The public status values are the internal ones (common.h's table). */
_Static_assert(LCPS_SOLVED == (int)LCP_SOLVED && LCPS_MAX_ITER == (int)LCP_MAX_ITER &&
                   LCPS_TIME_LIMIT == (int)LCP_TIME_LIMIT && LCPS_INPUT_ERROR == (int)LCP_INPUT_ERROR &&
                   LCPS_NO_SOLUTION == (int)LCP_NO_SOLUTION && LCPS_REFERENCE_MISMATCH == (int)LCP_REF_MISMATCH &&
                   LCPS_ERROR == (int)LCP_ERROR && LCPS_STALLED == (int)LCP_STALLED && LCP_STATUS_COUNT == 8,
               "lcpsolve.h's lcps_status must follow LCP_STATUS_TABLE");

struct lcps_problem {
    lcp_problem p;
    int checked;           /* lcp_problem_finish passed since the last change */
    pthread_mutex_t lock;  /* the check of a const handle, by the first of the solves that use it */
    int *perm;             /* lcps_problem_csr: entry k of the caller's val -> A.x[perm[k]]; NULL: A.x's order */
    long nval;             /* the caller's entries (rowptr[n]) */
    lcp_pipeline_cache *cache; /* the update path: pattern-only set-up kept across solves */
    /* the update path for auto: the choice of the last solve that chose (kept, with the model it was made
     * from, NULL the built-in one), taken by the solves after lcps_problem_update changed A (kept_on) --
     * under lock, as the check */
    lcp_auto_choice *kept;
    char *kept_model;
    int kept_on;
};

struct lcps_settings {
    lcp_solve_opts o;
    char **owned;          /* the values set (the options keep pointers into them) */
    char **names;          /* and their names, in order: a copy replays them */
    int nowned, cap;
    int (*fn)(void *ctx, const lcps_iteration *row);
    void *ctx;
};

/* ---- errors ----------------------------------------------------------- */

static int put_err(char *err, size_t errlen, int code, const char *msg)
{
    if (err && errlen) snprintf(err, errlen, "%s", msg);
    return lcp_status_exit_code((lcp_status)code);
}

static int fail(char *err, size_t errlen, int code, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return put_err(err, errlen, code, msg);
}

static int from(const lcp_err *e, int code, char *err, size_t errlen)
{
    return put_err(err, errlen, code ? code : LCP_ERROR, e->msg);
}

const char *lcps_version(void) { return LCP_VERSION; }

const char *lcps_status_name(int status)
{
    return status >= 0 && status < LCP_STATUS_COUNT ? lcp_status_name((lcp_status)status) : "unknown";
}

int lcps_status_exit_code(int status)
{
    return status >= 0 && status < LCP_STATUS_COUNT ? lcp_status_exit_code((lcp_status)status) : 5;
}

/* ---- problems --------------------------------------------------------- */

static lcps_problem *problem_new(void)
{
    lcps_problem *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    lcp_problem_init(&h->p);
    if (!(h->cache = lcp_pipeline_cache_new())) {
        free(h);
        return NULL;
    }
    if (pthread_mutex_init(&h->lock, NULL)) {
        lcp_pipeline_cache_free(h->cache);
        free(h);
        return NULL;
    }
    return h;
}

void lcps_problem_free(lcps_problem *h)
{
    if (!h) return;
    lcp_problem_free(&h->p);
    lcp_pipeline_cache_free(h->cache);
    free(h->perm);
    free(h->kept);
    free(h->kept_model);
    pthread_mutex_destroy(&h->lock);
    free(h);
}

/* Drops the kept choice (a change of what the choice reads besides A's and b's values). */
static void kept_drop(lcps_problem *h)
{
    free(h->kept);
    free(h->kept_model);
    __atomic_store_n(&h->kept, NULL, __ATOMIC_RELEASE); /* (read without the lock by lcp_api_solve) */
    h->kept_model = NULL;
    h->kept_on = 0;
}

static int parse_kind(const char *kind, lcp_kind *k, char *err, size_t errlen)
{
    if (!kind || !(*k = lcp_kind_parse(kind)))
        return fail(err, errlen, LCP_INPUT_ERROR, "unknown kind '%s' (lcp, blcp, ccp, fc3d)", kind ? kind : "(null)");
    return 0;
}

/* A CSR matrix of the caller's, checked and copied (columns sorted,
 * duplicates summed: through triplets). */
static int copy_csr(const char *what, int m, int n, const int *rowptr, const int *col, const double *val,
                    lcp_csr *A, char *err, size_t errlen)
{
    if (m < 1 || n < 1) return fail(err, errlen, LCP_INPUT_ERROR, "%s: %d x %d: the size must be positive", what, m, n);
    if (!rowptr || !col || !val) return fail(err, errlen, LCP_INPUT_ERROR, "%s: rowptr, col and val must be given", what);
    if (rowptr[0] != 0) return fail(err, errlen, LCP_INPUT_ERROR, "%s: rowptr[0] is %d, not 0", what, rowptr[0]);
    for (int i = 0; i < m; i++)
        if (rowptr[i + 1] < rowptr[i])
            return fail(err, errlen, LCP_INPUT_ERROR, "%s: rowptr decreases at row %d (%d after %d)", what, i,
                        rowptr[i + 1], rowptr[i]);
    long nnz = rowptr[m];
    for (long k = 0; k < nnz; k++) {
        if (col[k] < 0 || col[k] >= n)
            return fail(err, errlen, LCP_INPUT_ERROR, "%s: col[%ld] = %d is outside 0..%d", what, k, col[k], n - 1);
        if (!isfinite(val[k]))
            return fail(err, errlen, LCP_INPUT_ERROR, "%s: val[%ld] = %g is not finite", what, k, val[k]);
    }
    int *ti = lcp_alloc((size_t)(nnz > 0 ? nnz : 1), sizeof(int));
    if (!ti) return fail(err, errlen, LCP_ERROR, "%s: out of memory", what);
    for (int i = 0; i < m; i++)
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++) ti[k] = i;
    int rc = lcp_csr_from_triplets(A, m, n, nnz, ti, col, val);
    free(ti);
    if (rc) return fail(err, errlen, rc, "%s: cannot build the matrix (%s)", what, rc == LCP_ERROR ? "out of memory" : "bad entries");
    return 0;
}

static double *copy_vec(const double *v, int n)
{
    double *c = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(double));
    if (c && n > 0) memcpy(c, v, (size_t)n * sizeof(double));
    return c;
}

int lcps_problem_csr(const char *kind, int n, const int *rowptr, const int *col, const double *val,
                     const double *b, lcps_problem **out, char *err, size_t errlen)
{
    lcp_kind k;
    int rc;
    if (!out) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_csr: out is NULL");
    *out = NULL;
    if ((rc = parse_kind(kind, &k, err, errlen))) return rc;
    if (!b) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_csr: b is NULL");
    lcps_problem *h = problem_new();
    if (!h) return fail(err, errlen, LCP_ERROR, "out of memory");
    if ((rc = copy_csr("A", n, n, rowptr, col, val, &h->p.A, err, errlen))) {
        lcps_problem_free(h);
        return rc;
    }
    h->p.kind = k;
    h->p.n = n;
    h->nval = rowptr[n];
    h->perm = lcp_alloc((size_t)(h->nval > 0 ? h->nval : 1), sizeof(int));
    for (int i = 0; h->perm && i < n; i++) /* where each of the caller's entries went (columns sorted, duplicates summed) */
        for (int q = rowptr[i]; q < rowptr[i + 1]; q++) {
            int lo = h->p.A.p[i], hi = h->p.A.p[i + 1] - 1;
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (h->p.A.j[mid] < col[q]) lo = mid + 1;
                else hi = mid;
            }
            h->perm[q] = lo;
        }
    if (!h->perm || !(h->p.b = copy_vec(b, n))) {
        lcps_problem_free(h);
        return fail(err, errlen, LCP_ERROR, "out of memory");
    }
    h->p.blen = n;
    h->p.format = lcp_strdup("api");
    *out = h;
    return 0;
}

int lcps_problem_factored(const char *kind, const lcps_csr *M, const lcps_csr *J, const double *v, const double *e,
                          lcps_problem **out, char *err, size_t errlen)
{
    lcp_kind k;
    int rc;
    if (!out) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_factored: out is NULL");
    *out = NULL;
    if ((rc = parse_kind(kind, &k, err, errlen))) return rc;
    if (!M || !J || !v) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_factored: M, J and v must be given");
    if (M->rows != M->cols)
        return fail(err, errlen, LCP_INPUT_ERROR, "M is %d x %d, not square", M->rows, M->cols);
    if (J->cols != M->rows)
        return fail(err, errlen, LCP_INPUT_ERROR, "J has %d columns but M is %d x %d", J->cols, M->rows, M->rows);
    lcps_problem *h = problem_new();
    if (!h) return fail(err, errlen, LCP_ERROR, "out of memory");
    if ((rc = copy_csr("M", M->rows, M->cols, M->rowptr, M->col, M->val, &h->p.M, err, errlen)) ||
        (rc = copy_csr("J", J->rows, J->cols, J->rowptr, J->col, J->val, &h->p.J, err, errlen))) {
        lcps_problem_free(h);
        return rc;
    }
    h->p.kind = k;
    h->p.n = J->rows;
    h->p.vlen = M->rows;
    h->p.elen = e ? J->rows : 0;
    if (!(h->p.v = copy_vec(v, M->rows)) || (e && !(h->p.e = copy_vec(e, J->rows)))) {
        lcps_problem_free(h);
        return fail(err, errlen, LCP_ERROR, "out of memory");
    }
    h->p.format = lcp_strdup("api");
    *out = h;
    return 0;
}

int lcps_problem_generate(const char *scene, const char *const *options, lcps_problem **out, char *err,
                          size_t errlen)
{
    if (!out) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_generate: out is NULL");
    *out = NULL;
    if (!scene) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_generate: no scene");
    lcps_problem *h = problem_new();
    if (!h) return fail(err, errlen, LCP_ERROR, "out of memory");
    lcp_err e = {{0}};
    int rc = lcp_generate_problem(scene, options, &h->p, &e);
    if (rc) {
        lcps_problem_free(h);
        return from(&e, rc, err, errlen);
    }
    h->checked = 1;
    *out = h;
    return 0;
}

/* libhdf5 (serial build) is not thread-safe: one FCLIB read at a time. */
static pthread_mutex_t hdf5_lock = PTHREAD_MUTEX_INITIALIZER;

int lcps_problem_read(const char *path, lcps_problem **out, char *err, size_t errlen)
{
    if (!out) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_read: out is NULL");
    *out = NULL;
    if (!path || !*path) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_read: no path given");
    lcps_problem *h = problem_new();
    if (!h) return fail(err, errlen, LCP_ERROR, "out of memory");
    lcp_err e = {{0}};
    size_t l = strlen(path);
    int hdf5 = (l > 5 && !strcmp(path + l - 5, ".hdf5")) || (l > 3 && !strcmp(path + l - 3, ".h5"));
    if (hdf5) pthread_mutex_lock(&hdf5_lock);
    int rc = lcp_read_problem(path, LCP_KIND_NONE, &h->p, &e);
    if (hdf5) pthread_mutex_unlock(&hdf5_lock);
    if (rc) {
        lcps_problem_free(h);
        return from(&e, rc, err, errlen);
    }
    h->checked = 1; /* lcp_read_problem finished it */
    *out = h;
    return 0;
}

int lcps_problem_set_vector(lcps_problem *h, const char *name, const double *v, int len, char *err, size_t errlen)
{
    if (!h || !name || !v || len < 0)
        return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_set_vector: %s", !h ? "no problem" : !name ? "no name"
                                                                                 : !v ? "no values" : "negative length");
    double **slot = NULL;
    int *n = NULL;
    if (!strcmp(name, "mu")) slot = &h->p.mu, n = &h->p.nmu;
    else if (!strcmp(name, "lo")) slot = &h->p.lo, n = &h->p.lolen;
    else if (!strcmp(name, "hi")) slot = &h->p.hi, n = &h->p.hilen;
    else if (!strcmp(name, "e")) slot = &h->p.e, n = &h->p.elen;
    else if (!strcmp(name, "b")) slot = &h->p.b, n = &h->p.blen;
    else if (!strcmp(name, "v") && h->p.M.p) slot = &h->p.v, n = &h->p.vlen;
    else return fail(err, errlen, LCP_INPUT_ERROR, "unknown vector '%s' (mu, lo, hi, e, b%s)", name,
                     h->p.M.p ? ", v" : "");
    double *c = copy_vec(v, len);
    if (!c) return fail(err, errlen, LCP_ERROR, "out of memory");
    int bounds = !strcmp(name, "lo") || !strcmp(name, "hi");
    for (int i = 0; bounds && i < len; i++) /* as the readers: |x| >= 1e300 is infinite */
        if (fabs(c[i]) >= 1e300) c[i] = c[i] > 0 ? INFINITY : -INFINITY;
    free(*slot);
    *slot = c;
    *n = len;
    if (bounds || !strcmp(name, "mu")) kept_drop(h); /* which bounds, mu: what auto's choice reads */
    if ((!strcmp(name, "e") || !strcmp(name, "v")) && h->p.M.p && h->p.b) { /* b = J v + e again at the next check */
        free(h->p.b);
        h->p.b = NULL;
        h->p.blen = 0;
    }
    h->checked = 0;
    return 0;
}

int lcps_problem_set_findex(lcps_problem *h, const int *findex, int len, char *err, size_t errlen)
{
    if (!h || !findex || len < 0)
        return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_set_findex: %s",
                    !h ? "no problem" : !findex ? "no values" : "negative length");
    int *c = lcp_alloc((size_t)(len > 0 ? len : 1), sizeof(int));
    if (!c) return fail(err, errlen, LCP_ERROR, "out of memory");
    if (len > 0) memcpy(c, findex, (size_t)len * sizeof(int));
    free(h->p.findex);
    h->p.findex = c;
    h->p.findexlen = len;
    kept_drop(h);
    h->checked = 0;
    return 0;
}

int lcps_problem_update(lcps_problem *h, const double *val, const double *b, char *err, size_t errlen)
{
    if (!h) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_update: no problem");
    if (val && h->p.M.p)
        return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_update: A of a factored problem is J M^-1 J' (change "
                                                  "v or e with lcps_problem_set_vector)");
    if (val && !h->p.A.p) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_update: the problem has no A yet");
    long nnz = h->perm ? h->nval : lcp_csr_nnz(&h->p.A);
    for (long k = 0; val && k < nnz; k++)
        if (!isfinite(val[k]))
            return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_update: val[%ld] = %g is not finite", k, val[k]);
    if (val) {
        if (h->perm) { /* the caller's order, duplicates summed again */
            memset(h->p.A.x, 0, (size_t)lcp_csr_nnz(&h->p.A) * sizeof(double));
            for (long k = 0; k < nnz; k++) h->p.A.x[h->perm[k]] += val[k];
        } else {
            memcpy(h->p.A.x, val, (size_t)nnz * sizeof(double));
        }
        h->checked = 0;
        if (h->kept) h->kept_on = 1; /* the next solves with auto take the kept choice */
    }
    if (b) return lcps_problem_set_vector(h, "b", b, h->p.n, err, errlen);
    return 0;
}

/* lcp_problem_finish once after a change (sizes, finite values, mu, bounds,
 * findex; A and b from the factored form). */
static int check(lcps_problem *h, lcp_err *e)
{
    int rc = 0;
    if (__atomic_load_n(&h->checked, __ATOMIC_ACQUIRE)) return 0; /* the common case: no lock */
    pthread_mutex_lock(&h->lock);
    if (!h->checked) {
        if (h->p.kind == LCP_KIND_BLCP && h->p.findex && !h->p.mu)
            rc = lcp_fail(e, LCP_INPUT_ERROR, NULL, 0, "findex is set but mu is not (one a row)");
        else if (!(rc = lcp_problem_finish(&h->p, e)))
            __atomic_store_n(&h->checked, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&h->lock);
    return rc;
}

int lcps_problem_write(const lcps_problem *hc, const char *path, char *err, size_t errlen)
{
    if (!hc || !path || !*path)
        return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_write: %s", !hc ? "no problem" : "no path");
    lcps_problem *h = (lcps_problem *)hc; /* the check may complete it (under its lock) */
    lcp_err e = {{0}};
    int rc = check(h, &e);
    if (!rc) rc = lcp_write_problem(&h->p, path, &e);
    return rc ? from(&e, rc, err, errlen) : 0;
}

int lcps_problem_n(const lcps_problem *h) { return h ? h->p.n : -1; }

const char *lcps_problem_kind(const lcps_problem *h) { return h ? lcp_kind_name(h->p.kind) : NULL; }

/* ---- settings --------------------------------------------------------- */

lcps_settings *lcps_settings_new(void)
{
    lcps_settings *s = calloc(1, sizeof *s);
    if (s) lcp_solve_opts_default(&s->o);
    lcp_now_fast(); /* the time-stamp counter's calibration (its first 2 ms, a clock read a call) starts here,
                     * before the solves that read it (a batch of 4,096 small problems takes about that long) */
    return s;
}

void lcps_settings_free(lcps_settings *s)
{
    if (!s) return;
    for (int k = 0; k < s->nowned; k++) free(s->owned[k]), free(s->names[k]);
    free(s->owned);
    free(s->names);
    free(s);
}

int lcps_settings_set(lcps_settings *s, const char *name, const char *value, char *err, size_t errlen)
{
    if (!s || !name || !value)
        return fail(err, errlen, LCP_INPUT_ERROR, "lcps_settings_set: %s",
                    !s ? "no settings" : !name ? "no option name" : "no value");
    const lcp_option *opt = lcp_option_find(name);
    if (!opt) return fail(err, errlen, LCP_INPUT_ERROR, "unknown option '%s' (see lcpsolve --help)", name);
    if (s->nowned == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        char **o = realloc(s->owned, (size_t)cap * sizeof *o), **n = o ? realloc(s->names, (size_t)cap * sizeof *n) : NULL;
        if (o) s->owned = o;
        if (n) s->names = n;
        if (!o || !n) return fail(err, errlen, LCP_ERROR, "out of memory");
        s->cap = cap;
    }
    char *v = lcp_strdup(value), *nm = lcp_strdup(name);
    if (!v || !nm) {
        free(v), free(nm);
        return fail(err, errlen, LCP_ERROR, "out of memory");
    }
    lcp_err e = {{0}};
    int rc = lcp_option_apply(&s->o, opt, v, &e);
    if (rc) {
        free(v), free(nm);
        return from(&e, rc, err, errlen);
    }
    s->owned[s->nowned] = v;
    s->names[s->nowned++] = nm;
    return 0;
}

lcps_settings *lcps_settings_copy(const lcps_settings *s)
{
    if (!s) return NULL;
    lcps_settings *c = lcps_settings_new();
    for (int k = 0; c && k < s->nowned; k++)
        if (lcps_settings_set(c, s->names[k], s->owned[k], NULL, 0)) {
            lcps_settings_free(c);
            return NULL;
        }
    if (c) lcps_settings_on_iteration(c, s->fn, s->ctx);
    return c;
}

/* The monitor's callback (lcp_settings) as the public one. */
static int on_iteration(void *ctx, int iter, double time_s, const lcp_metrics *m, const char *const *columns,
                        const double *extra)
{
    const lcps_settings *s = ctx;
    lcps_iteration row = {.iteration = iter,
                          .time_s = time_s,
                          .residual = m ? m->residual : NAN,
                          .complementarity = m ? m->complementarity : NAN,
                          .feasibility = m ? m->feasibility : NAN,
                          .extra_names = columns,
                          .extra = extra};
    for (int k = 0; extra && columns && columns[k]; k++) row.nextra = k + 1;
    if (!extra) row.extra_names = NULL;
    return s->fn(s->ctx, &row);
}

/* lcps_stop_on_fd, called straight from the monitor: it reads the
 * iteration and the time alone, so no row is filled for it. */
static int stop_fd_tick(void *ctx, int iter, double time_s, const lcp_metrics *m, const char *const *columns,
                        const double *extra)
{
    (void)m, (void)columns, (void)extra;
    lcps_iteration row = {.iteration = iter, .time_s = time_s};
    return lcps_stop_on_fd(ctx, &row);
}

int lcps_settings_on_iteration(lcps_settings *s, int (*fn)(void *ctx, const lcps_iteration *row), void *ctx)
{
    if (!s) return put_err(NULL, 0, LCP_INPUT_ERROR, "");
    s->fn = fn;
    s->ctx = ctx;
    s->o.s.on_iteration = !fn ? NULL : fn == lcps_stop_on_fd ? stop_fd_tick : on_iteration;
    s->o.s.on_iteration_ctx = !fn ? NULL : fn == lcps_stop_on_fd ? ctx : s;
    s->o.s.on_iteration_rows = fn != NULL && fn != lcps_stop_on_fd; /* the stop polls: it reads no rows */
    return 0;
}

/* ---- solving ---------------------------------------------------------- */

/* r's message and auto_reason in one block of their own size, r's
 * internal_ (a batch keeps many results: 2 KB each would be fresh memory
 * to fault in). */
static void keep_texts(lcps_result *r, const char *message, const char *reason)
{
    size_t lm = strlen(message), la = strlen(reason);
    if (!lm && !la) { /* the common case: no block (lcps_result_free frees NULL) */
        r->message = r->auto_reason = "";
        return;
    }
    char *b = malloc(lm + la + 2);
    if (!b) {
        r->message = r->auto_reason = "";
        return;
    }
    memcpy(b, message, lm + 1);
    memcpy(b + lm + 1, reason, la + 1);
    r->internal_ = b;
    r->message = b;
    r->auto_reason = b + lm + 1;
}

void lcps_result_free(lcps_result *r)
{
    if (!r) return;
    if (r->internal_ && r->internal_ == (void *)r->x) { /* x and w in one block (lcp_api_solve) */
        free(r->x);
    } else {
        free(r->x);
        free(r->w);
        free(r->internal_);
    }
    memset(r, 0, sizeof *r);
}

/* A solve refused before it starts: r (where given) says so, as err does. */
static int refuse(lcps_result *r, char *err, size_t errlen, const char *why)
{
    if (r) {
        memset(r, 0, sizeof *r);
        r->status = LCPS_INPUT_ERROR;
        r->solver = r->precond = "";
        keep_texts(r, why, "");
    }
    return fail(err, errlen, LCP_INPUT_ERROR, "%s", why);
}

int lcps_solve(const lcps_problem *hc, const lcps_settings *s, const double *x0, lcps_result *r, char *err,
               size_t errlen)
{
    return lcp_api_solve(hc, s, x0, r, err, errlen, NULL, NULL, NULL, NULL);
}

int lcps_solve_into(const lcps_problem *hc, const lcps_settings *s, const double *x0, double *x, double *w,
                    lcps_result *r, char *err, size_t errlen)
{
    if (!x) return refuse(r, err, errlen, "lcps_solve_into: x is NULL");
    return lcp_api_solve(hc, s, x0, r, err, errlen, NULL, NULL, x, w);
}

int lcp_api_solve(const lcps_problem *hc, const lcps_settings *s, const double *x0, lcps_result *r, char *err,
                  size_t errlen, const lcp_auto_choice *given, lcp_auto_choice *made, double *x_into, double *w_into)
{
    if (!r) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_solve: r is NULL");
    if (!hc) return refuse(r, err, errlen, "lcps_solve: no problem (NULL)");
    memset(r, 0, sizeof *r);
    r->status = LCPS_INPUT_ERROR;
    r->solver = r->precond = r->message = r->auto_reason = "";
    lcps_problem *h = (lcps_problem *)hc; /* the check may complete it (under its lock) */
    lcp_solve_opts defaults;
    const lcp_solve_opts *o = s ? &s->o : &defaults;
    if (!s) lcp_solve_opts_default(&defaults);
    lcp_err e;
    e.msg[0] = '\0';
    int rc = check(h, &e), tried = 0;
    /* auto, unless a batch gives the choice: the choice kept with the handle after an update of A's values, and
     * the choice made (where the caller, a batch's leader, does not take it), to keep */
    if (!rc) { /* the small paths first, their answer straight into r: none of the general run's set-up */
        lcp_small_answer a;
        tried = lcp_pipeline_small(&h->p, o, x0, x0 ? h->p.n : 0, x_into, w_into, -1.0, &a);
        if (tried > 0) {
            if (made && !given && !strcmp(o->solver, "auto")) made->solver = NULL; /* (no choice made) */
            r->status = (int)LCP_SOLVED;
            r->iterations = a.steps;
            r->time_s = a.time_s;
            r->residual = a.m.residual;
            r->complementarity = a.m.complementarity;
            r->feasibility = a.m.feasibility;
            r->solver = a.solver->name;
            r->precond = "none";
            r->n = h->p.n;
            r->components = 1;
            if (a.reason) r->auto_reason = a.reason; /* (static storage: not copied) */
            if (!x_into) { /* x and w in one block: internal_ = x says so to lcps_result_free */
                r->x = a.x;
                r->w = a.w;
                r->internal_ = a.x;
            }
            if (err && errlen) *err = '\0';
            return 0;
        }
    }
    const char *model = o->auto_model;
    int keep = !given && !strcmp(o->solver, "auto");
    lcp_auto_choice buf[2]; /* the kept choice given; the choice made */
    if (keep) {
        /* the lock only where a choice is kept (the pointer is set under it by a solve of this handle) */
        if (__atomic_load_n(&h->kept, __ATOMIC_ACQUIRE)) {
            pthread_mutex_lock(&h->lock);
            if (h->kept && h->kept_on && (h->kept_model ? model && !strcmp(h->kept_model, model) : !model)) {
                buf[0] = *h->kept;
                given = buf;
            }
            pthread_mutex_unlock(&h->lock);
        }
        if (!made) made = buf + 1;
        made->solver = NULL;
    }
    if (given || made || x_into || tried) { /* a batch's shared choice (lcp_solve_opts.auto_given), or the
                                             * handle's; the caller's arrays; the small paths run already */
        if (s) defaults = s->o;
        defaults.s.small_tried = tried < 0;
        defaults.auto_given = given;
        defaults.auto_made = made;
        if (keep && given) defaults.auto_given_from = "the choice made at this problem's solve before A's values "
                                                      "changed (lcps_problem_update)";
        defaults.x_into = x_into;
        defaults.w_into = x_into ? w_into : NULL;
        o = &defaults;
    }
    lcp_solve_out out; /* filled by the pipeline (its first act), 3 KB of texts: not cleared here */
    out.status = LCP_SOLVED; /* as cleared: a failed check reports LCPS_ERROR, or LCPS_INPUT_ERROR by rc */
    out.x = out.w = NULL;
    if (!rc) rc = lcp_pipeline_solve_cached(&h->p, o, x0, x0 ? h->p.n : 0, "x0", h->cache, &out, &e);
    if (keep) {
        /* kept: a choice this solve computed (not one taken from the thread's last, auto_time_s 0, nor the
         * handle's own) whose first candidate solved the problem (fallbacks would be run again each solve);
         * dropped where the choice taken did not solve it */
        int good = !rc && out.status == LCP_SOLVED && made->solver && out.solver == made->solver;
        int computed = good && !out.auto_shared && out.auto_time_s > 0;
        if (computed || (!good && __atomic_load_n(&h->kept, __ATOMIC_ACQUIRE))) { /* (nothing kept: nothing to drop) */
            pthread_mutex_lock(&h->lock);
            char *mc = computed && model ? strdup(model) : NULL;
            if (computed && !h->kept) __atomic_store_n(&h->kept, malloc(sizeof *h->kept), __ATOMIC_RELEASE);
            if (!computed || !h->kept || (model && !mc)) {
                free(mc);
                kept_drop(h);
            } else {
                *h->kept = *made;
                free(h->kept_model);
                h->kept_model = mc;
                h->kept_on = 0; /* taken after the next update */
            }
            pthread_mutex_unlock(&h->lock);
        }
    }
    if (rc) {
        r->status = out.status != LCP_SOLVED ? (int)out.status : LCPS_ERROR;
        if (rc == LCP_INPUT_ERROR) r->status = LCPS_INPUT_ERROR;
        keep_texts(r, e.msg, "");
        lcp_solve_out_free(&out);
        return from(&e, rc, err, errlen);
    }
    r->status = (int)out.status;
    r->iterations = out.iterations;
    r->time_s = out.time_s;
    r->residual = out.m.residual;
    r->complementarity = out.m.complementarity;
    r->feasibility = out.m.feasibility;
    r->solver = out.solver ? out.solver->name : "";
    r->precond = out.precond;
    r->n = h->p.n;
    r->x = out.x;
    r->w = out.w;
    if (x_into) { /* lcps_solve_into: the answer in the caller's arrays (a small path wrote it there already) */
        if (out.x) memcpy(x_into, out.x, (size_t)h->p.n * sizeof *x_into);
        if (out.w && w_into) memcpy(w_into, out.w, (size_t)h->p.n * sizeof *w_into);
        lcp_solve_out_free(&out);
        r->x = r->w = NULL;
    }
    r->components = out.components;
    r->omega = out.omega;
    if (out.reason_literal && !out.message[0]) r->message = "", r->auto_reason = out.reason_literal; /* no copy */
    else keep_texts(r, out.message, lcp_solve_out_reason(&out));
    if (r->x && out.xw_block) { /* x and w in one block (a small path's): internal_ = x says so to
                                 * lcps_result_free, where no texts took it; else w apart */
        if (!r->internal_) {
            r->internal_ = r->x;
        } else {
            double *wa = malloc((size_t)h->p.n * sizeof *wa); /* (short of memory: no w) */
            if (wa) memcpy(wa, r->w, (size_t)h->p.n * sizeof *wa);
            r->w = wa;
        }
    }
    if (err && errlen) *err = '\0';
    return lcp_status_exit_code(out.status);
}

/* ---- the registry ----------------------------------------------------- */

static const char *solver_names[64]; /* filled once (pthread_once), the same every time */
static pthread_once_t solver_names_once = PTHREAD_ONCE_INIT;

static void fill_solver_names(void)
{
    int k = 0;
    for (const lcp_solver *const *sv = lcp_solver_list(); *sv && k < 63; sv++) solver_names[k++] = (*sv)->name;
    solver_names[k] = NULL;
}

const char *const *lcps_solver_names(void)
{
    pthread_once(&solver_names_once, fill_solver_names);
    return solver_names;
}

/* ---- for the other parts of the library (api_internal.h) --------------- */

const lcp_problem *lcp_api_problem(const lcps_problem *hc, const int **perm, long *nval, lcp_err *e)
{
    lcps_problem *h = (lcps_problem *)hc; /* the check may complete it (under its lock) */
    if (!h || check(h, e)) return NULL;
    if (perm) *perm = h->perm;
    if (nval) *nval = h->perm ? h->nval : lcp_csr_nnz(&h->p.A);
    return &h->p;
}

double lcp_api_settings_reg(const lcps_settings *s) { return s ? s->o.reg : 0.0; }

const lcp_solve_opts *lcp_api_settings_opts(const lcps_settings *s) { return &s->o; }

/* ---- data out ----------------------------------------------------------- */

int lcps_problem_matrix(const lcps_problem *hc, const char *name, int *rows, int *cols, const int **rowptr,
                        const int **col, const double **val, char *err, size_t errlen)
{
    if (!hc || !name) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_matrix: %s", !hc ? "no problem" : "no name");
    lcps_problem *h = (lcps_problem *)hc; /* the check may complete it (under its lock) */
    lcp_err e = {{0}};
    int rc = check(h, &e);
    if (rc) return from(&e, rc, err, errlen);
    const lcp_csr *A = !strcmp(name, "A") ? &h->p.A : !strcmp(name, "M") ? &h->p.M : !strcmp(name, "J") ? &h->p.J : NULL;
    if (!A) return fail(err, errlen, LCP_INPUT_ERROR, "unknown matrix '%s' (A, M, J)", name);
    if (!A->p) return fail(err, errlen, LCP_INPUT_ERROR, "the problem has no %s (not a factored problem)", name);
    if (rows) *rows = A->m;
    if (cols) *cols = A->n;
    if (rowptr) *rowptr = A->p;
    if (col) *col = A->j;
    if (val) *val = A->x;
    return 0;
}

int lcps_problem_vector(const lcps_problem *hc, const char *name, const double **v, int *len, char *err,
                        size_t errlen)
{
    if (!hc || !name || !v || !len)
        return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_vector: %s", !hc ? "no problem" : "no name or output");
    lcps_problem *h = (lcps_problem *)hc;
    lcp_err e = {{0}};
    int rc = check(h, &e);
    if (rc) return from(&e, rc, err, errlen);
    const lcp_problem *p = &h->p;
    int n = p->n, nb = p->M.p ? p->M.m : 0;
    if (!strcmp(name, "b")) *v = p->b, *len = n;
    else if (!strcmp(name, "mu")) *v = p->mu, *len = p->nmu;
    else if (!strcmp(name, "lo")) *v = p->lo, *len = n;
    else if (!strcmp(name, "hi")) *v = p->hi, *len = n;
    else if (!strcmp(name, "e")) *v = p->e, *len = n;
    else if (!strcmp(name, "v")) *v = p->v, *len = nb;
    else return fail(err, errlen, LCP_INPUT_ERROR, "unknown vector '%s' (b, mu, lo, hi, e, v)", name);
    if (!*v) *len = 0;
    return 0;
}

int lcps_problem_findex(const lcps_problem *hc, const int **findex, int *len, char *err, size_t errlen)
{
    if (!hc || !findex || !len) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_problem_findex: no problem or output");
    lcps_problem *h = (lcps_problem *)hc;
    lcp_err e = {{0}};
    int rc = check(h, &e);
    if (rc) return from(&e, rc, err, errlen);
    *findex = h->p.findex;
    *len = h->p.findex ? h->p.n : 0;
    return 0;
}
