/* src/cli/batch.c: `lcpsolve batch [OPTIONS] DIR` (see batch.h).
 *
 * Phases: list DIR (sorted by name), read and check every environment
 * (sequential: the HDF5 library is not thread-safe; timed as parse_s), solve
 * them (timed as solve_s, the wall time of the whole parallel loop), write
 * -o OUTDIR/NAME.mtx, report.  Per environment the solve is the one of
 * `lcpsolve PROBLEM` with the same options, on one thread: the pipeline of
 * src/core/pipeline.c (auto's pick and its fallbacks, the best iterate,
 * verification, ...); auto chooses once a pattern, for its first
 * environment (solve_all).  Every option of a solve is taken (the option table,
 * src/core/options.c) except --trace (one file a solve); -j is the number
 * of environments solved at once.
 *
 * env-steps/s = environments / solve_s: how many environments one call
 * advances a second, the throughput figure of batched simulation.
 */
#include "batch.h"
#include "../core/auto.h"
#include "../core/auto_memo.h"
#include "../core/batch_run.h"

#include "cli.h"
#include "../core/common.h"
#include "../core/options.h"
#include "../core/pipeline.h"
#include "../io/io.h"
#include "../solvers/solver.h"
#ifdef LCP_HAVE_CUDA
#include "../parallel/pgs_cuda.h"
#endif

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define PROG "lcpsolve batch"

void openblas_set_num_threads(int);

/* batch's own options; every option of a solve comes from the option
 * table (src/core/options.c), its ids below 512 */
enum { B_OUTPUT = 'o', B_HELP = 'h', B_JSON = 512, B_QUIET, B_KIND, B_DEVICE };

typedef struct {
    const char *name;
    int id;
    const char *arg, *help;
} batch_option;

static const batch_option batch_options[] = {
    {"kind", B_KIND, "KIND", "lcp, blcp, ccp or fc3d (when the files do not say)"},
    {"output", B_OUTPUT, "OUTDIR", "write each solution as OUTDIR/NAME.mtx"},
#ifdef LCP_HAVE_CUDA
    {"device", B_DEVICE, "cpu|gpu", "where to solve (gpu: batched PGS kernel, lcp/blcp; default cpu)"},
#else
    {"device", B_DEVICE, "cpu|gpu", "where to solve (gpu needs a CUDA build: make CUDA=1; default cpu)"},
#endif
    {"json", B_JSON, NULL, "print one JSON object instead of the summary"},
    {"quiet", B_QUIET, NULL, "no summary (the exit code still tells)"},
    {"help", B_HELP, NULL, "print this help"},
    {NULL, 0, NULL, NULL},
};

/* An environment: what a solve reads first (the problem's leading fields)
 * at the start of its own cache lines, then what the solve writes, the rest
 * after (the array of them is aligned to the lines: read_all). */
typedef struct {
    _Alignas(64) lcp_problem p;
    double *x;
    const lcp_solver *sv;
    const char *precond_name;        /* the preconditioner of the answer ("none", -p, or auto's pick) */
    lcp_status status;
    int iterations, rc;
    double residual, time_s;
    char *name;   /* entry name without the extension: the NAME of NAME.mtx */
    char *path;
    char msg[256];
} batch_env;

typedef struct {
    lcp_solve_opts o; /* the settings of every solve; o.s.threads: environments at once */
    const char *outdir, *dir;
    lcp_kind kind;
    int json, quiet, gpu;
} batch_cli;

static int usage(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, PROG ": ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return lcp_status_exit_code(LCP_INPUT_ERROR);
}

static void help_line(int id, const char *name, const char *arg, const char *text)
{
    char left[64];
    if (id < 256) snprintf(left, sizeof left, "-%c, --%s%s%s", id, name, arg ? " " : "", arg ? arg : "");
    else snprintf(left, sizeof left, "    --%s%s%s", name, arg ? " " : "", arg ? arg : "");
    printf("  %-28s %s\n", left, text);
}

static void help(void)
{
    printf("usage: lcpsolve batch [OPTIONS] DIR\n\n"
           "DIR holds many small problems (environments): each problem folder or .json, .dat,\n"
           ".hdf5 file in it is one, taken in name order.  All are read, then solved on the\n"
           "-j threads, one environment a thread at a time (the answers are the same bits\n"
           "for any -j).  Reports solved / not solved, the worst residual, the solve wall\n"
           "time, environment-steps per second and the per-environment times.  Each\n"
           "environment is solved as `lcpsolve PROBLEM` solves it with the same options\n"
           "(auto: the pick and its fallbacks), on one thread; -j N solves N at once (a\n"
           "short batch -- 2 ms, or 4 ms at its first environments' pace -- on one).\n\n"
           "Options of every solve (lcpsolve --help; --trace is refused: one file a solve):\n");
    for (const lcp_option *o = lcp_options; o->help; o++)
        if (o->scope == LCP_OPT_SOLVE && o->id != OPT_TRACE) help_line(o->id, o->name, o->arg, o->help);
    printf("\nOptions of batch:\n");
    for (const batch_option *o = batch_options; o->name; o++) help_line(o->id, o->name, o->arg, o->help);
    printf("\nExit status: 0 all solved, 1 some reached a limit, 2 usage or input error (the\n"
           "file named), 3 some have no solution, 5 a breakdown in some.\n");
}

/* One option into getopt's tables (shortopts: room for every short one). */
static void add_option(struct option *lo, int *nl, char *shortopts, const char *name, int has_arg, int id)
{
    lo[(*nl)++] = (struct option){name, has_arg ? required_argument : no_argument, NULL, id};
    if (id < 256) {
        size_t l = strlen(shortopts);
        shortopts[l] = (char)id;
        shortopts[l + 1] = '\0';
        if (has_arg) strcat(shortopts, ":");
    }
}

static int parse_args(int argc, char **argv, batch_cli *c)
{
    struct option lo[160];
    char shortopts[64] = ":";
    int nl = 0;
    for (const lcp_option *o = lcp_options; o->help && nl < 120; o++)
        if (o->scope == LCP_OPT_SOLVE) add_option(lo, &nl, shortopts, o->name, o->has_arg, o->id);
    for (const batch_option *o = batch_options; o->name; o++) add_option(lo, &nl, shortopts, o->name, o->arg != NULL, o->id);
    lo[nl] = (struct option){NULL, 0, NULL, 0};
    optind = 0; /* afresh; argv[0] ("batch") is skipped like a program name */
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
        const lcp_option *so = opt < 512 ? lcp_option_by_id(opt) : NULL;
        if (so && so->scope == LCP_OPT_SOLVE) {
            lcp_err err = {{0}};
            if (so->id == OPT_TRACE)
                return usage("--trace cannot be used with batch (one trace a solve: lcpsolve --trace FILE PROBLEM)%s%s",
                             "", "");
            if (lcp_option_apply(&c->o, so, optarg ? optarg : "", &err)) return usage("%s%s", err.msg, "");
            continue;
        }
        switch (opt) {
        case B_HELP: help(); return -1;
        case B_KIND:
            if (!(c->kind = lcp_kind_parse(optarg)))
                return usage("--kind: unknown kind '%s' (lcp, blcp, ccp, fc3d)%s", optarg, "");
            break;
        case B_DEVICE:
            if (!strcmp(optarg, "cpu")) c->gpu = 0;
            else if (!strcmp(optarg, "gpu")) {
#ifdef LCP_HAVE_CUDA
                c->gpu = 1;
#else
                return usage("--device gpu: this build has no CUDA support (build with make CUDA=1)%s%s", "", "");
#endif
            } else
                return usage("--device: '%s' must be cpu or gpu%s", optarg, "");
            break;
        case B_OUTPUT: c->outdir = optarg; break;
        case B_JSON: c->json = 1; break;
        case B_QUIET: c->quiet = 1; break;
        case ':': return usage("option '%s' needs a value%s", argv[optind - 1], "");
        default:
            if (optopt && optopt < 256) {
                char s[3] = {'-', (char)optopt, 0};
                return usage("unknown option '%s' (see lcpsolve batch --help)%s", s, "");
            }
            return usage("unknown option '%s' (see lcpsolve batch --help)%s", argv[optind - 1], "");
        }
    }
    if (c->gpu) {
        if (strcmp(c->o.solver, "auto") && strcmp(c->o.solver, "pgs"))
            return usage("--device gpu runs pgs (batched sweeps), not -s %s%s", c->o.solver, "");
        if (c->o.s.precond) return usage("--device gpu takes no preconditioner (-p %s)%s", c->o.precond, "");
        if (c->o.reg > 0 || c->o.cone_k || c->o.order_named || c->o.decompose == 1)
            return usage("--device gpu runs plain batched pgs sweeps: no --reg, --cone, --order or --decompose%s%s",
                         "", "");
        c->o.solver = "pgs";
    }
    if (optind >= argc) return usage("no DIR given (see lcpsolve batch --help)%s%s", "", "");
    if (optind + 1 < argc) return usage("unexpected argument '%s' (one DIR)%s", argv[optind + 1], "");
    c->dir = argv[optind];
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The entries of dir, sorted, hidden ones skipped. */
static int list_dir(const char *dir, char ***names, int *count, lcp_err *err)
{
    DIR *d = opendir(dir);
    if (!d) return lcp_fail(err, LCP_INPUT_ERROR, dir, 0, "cannot open the folder: %s", strerror(errno));
    int n = 0, cap = 0, rc = 0;
    char **v = NULL;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            char **nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv) {
                rc = lcp_fail(err, LCP_ERROR, dir, 0, "out of memory");
                break;
            }
            v = nv;
        }
        if (!(v[n] = lcp_strdup(de->d_name))) {
            rc = lcp_fail(err, LCP_ERROR, dir, 0, "out of memory");
            break;
        }
        n++;
    }
    closedir(d);
    if (!rc && n == 0) rc = lcp_fail(err, LCP_INPUT_ERROR, dir, 0, "no problems in this folder");
    if (rc) {
        for (int k = 0; k < n; k++) free(v[k]);
        free(v);
        return rc;
    }
    qsort(v, (size_t)n, sizeof *v, cmp_str);
    *names = v;
    *count = n;
    return 0;
}

/* Reads and checks one environment; errors name its path. */
static int read_env(const batch_cli *c, const char *dir, const char *entry, batch_env *e, lcp_err *err)
{
    size_t len = strlen(dir) + strlen(entry) + 2;
    e->path = malloc(len);
    e->name = lcp_strdup(entry);
    if (!e->path || !e->name) return lcp_fail(err, LCP_ERROR, entry, 0, "out of memory");
    snprintf(e->path, len, "%s/%s", dir, entry);
    struct stat st;
    if (stat(e->path, &st) == 0 && !S_ISDIR(st.st_mode)) {
        char *dot = strrchr(e->name, '.');
        if (dot && dot != e->name) *dot = '\0';
    }
    int rc = lcp_read_problem(e->path, c->kind, &e->p, err);
    if (rc) {
        if (!strstr(err->msg, e->path)) { /* make sure the message names the environment */
            char m[sizeof err->msg];
            snprintf(m, sizeof m, "%s: %.900s", e->path, err->msg);
            snprintf(err->msg, sizeof err->msg, "%s", m);
        }
        return rc;
    }
    /* a named solver must fit every environment before any is solved (auto
     * picks, and falls back, at the solve: the pipeline) */
    e->sv = lcp_solver_find(c->o.solver);
    if (e->sv && !c->o.cone_k &&
        ((rc = lcp_solver_check(e->sv, &e->p, err)) || (rc = lcp_solver_check_precond(e->sv, c->o.precond, err)))) {
        char m[sizeof err->msg];
        snprintf(m, sizeof m, "%s: %.900s", e->path, err->msg);
        snprintf(err->msg, sizeof err->msg, "%s", m);
        return rc;
    }
    if (c->gpu && (e->p.kind & ~(LCP_KIND_LCP | LCP_KIND_BLCP) || e->p.findex))
        return lcp_fail(err, LCP_INPUT_ERROR, e->path, 0,
                        "--device gpu solves lcp and blcp without findex (this is %s%s)", lcp_kind_name(e->p.kind),
                        e->p.findex ? " with findex" : "");
    if (!(e->x = lcp_calloc((size_t)(e->p.n > 0 ? e->p.n : 1), sizeof(double))))
        return lcp_fail(err, LCP_ERROR, e->path, 0, "out of memory");
    return 0;
}

/* src into e->msg, cut to its 250 characters: a copy on every solve,
 * without the cost of a formatted print. */
static void env_message(batch_env *e, const char *src)
{
    size_t l = strnlen(src, 250);
    memcpy(e->msg, src, l);
    e->msg[l] = '\0';
}

/* One environment, on the calling thread: the pipeline, as `lcpsolve
 * PROBLEM` with the same options solves it -- with auto, the choice given
 * (that of the first environment of its pattern), or the one made kept in
 * made.  *clock: the thread's time at the end of its environment before
 * (or of the start), moved to the end of this one: an environment's time
 * runs from one to the other (one read of the clock an environment: an
 * environment of a few unknowns takes a fraction of a microsecond, a read
 * of the time-stamp counter 10 ns). */
static void solve_env(batch_env *e, const lcp_solve_opts *o1, const lcp_auto_choice *given, lcp_auto_choice *made,
                      double *clock)
{
    /* the small paths first, the answer straight into the environment (as lcps_solve takes them: no copy of
     * the settings, no 3 KB answer to clear) */
    lcp_small_answer a;
    int tried = lcp_pipeline_small(&e->p, o1, NULL, 0, e->x, NULL, *clock, &a); /* (timed from *clock: one read) */
    if (tried > 0) {
        e->time_s = a.time_s;
        *clock = a.t_end;
        e->iterations = a.steps;
        e->sv = a.solver;
        e->precond_name = "none";
        e->status = LCP_SOLVED;
        e->residual = a.m.residual;
        e->msg[0] = '\0';
        return;
    }
    lcp_err err;
    err.msg[0] = '\0';
    lcp_solve_out out;
    lcp_solve_opts o = *o1;
    o.auto_given = given;
    o.auto_made = made;
    o.s.small_tried = tried < 0;
    o.x_into = e->x; /* the small paths write the answer there (no allocation); the others allocate out.x */
    int rc = lcp_pipeline_solve(&e->p, &o, NULL, 0, NULL, &out, &err);
    double t = lcp_now_fast();
    e->time_s = t > *clock ? t - *clock : 0.0;
    *clock = t;
    e->iterations = out.iterations;
    if (out.solver) e->sv = out.solver;
    e->precond_name = out.precond;
    if (rc) {
        e->rc = rc;
        e->status = (lcp_status)rc;
        e->residual = INFINITY;
        memset(e->x, 0, (size_t)e->p.n * sizeof(double)); /* (a small path's try may have written there) */
        env_message(e, err.msg);
    } else {
        e->status = out.status;
        e->residual = out.m.residual;
        if (out.x) memcpy(e->x, out.x, (size_t)e->p.n * sizeof(double));
        env_message(e, out.message);
    }
    lcp_solve_out_free(&out);
}

#ifdef LCP_HAVE_CUDA
/* The verdict of one finished solve, as `lcpsolve PROBLEM` gives it. */
static void finish_env(batch_env *e, const lcp_settings *s, lcp_monitor *mon, lcp_status solver_status)
{
    lcp_status status = solver_status == LCP_NO_SOLUTION || solver_status == LCP_ERROR ? solver_status : mon->status;
    if (status != LCP_SOLVED && mon->best.residual <= mon->last.residual)
        memcpy(e->x, mon->best_x, (size_t)e->p.n * sizeof(double));
    lcp_metrics m;
    lcp_verify(&e->p, e->x, mon->w, &m);
    e->residual = m.residual;
    if (status == LCP_SOLVED && !(m.residual <= s->tol)) status = LCP_ERROR;
    e->status = status;
}

/* --device gpu: every environment's CSR, b, 1/A_ii and bounds concatenated
 * and uploaded once; batched PGS sweeps on the device, GPU_CHECK sweeps a
 * launch; after each launch the iterates come back and every unfinished
 * environment goes through its own monitor (the common residual, limits,
 * best iterate), as its CPU solve would every sweep.  Iterations are sweeps,
 * counted in steps of GPU_CHECK (or to the iteration limit). */
#define GPU_CHECK_SWEEPS 10
static int solve_gpu(batch_env *env, int n, const lcp_settings *s, lcp_err *err)
{
    long rows = 0, nnz = 0;
    for (int k = 0; k < n; k++) {
        rows += env[k].p.n;
        nnz += lcp_csr_nnz(&env[k].p.A);
    }
    if (rows > 2147483647L - 1 || nnz > 2147483647L)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--device gpu: %ld rows, %ld nonzeros in all: too many", rows,
                        nnz);
    size_t nr = (size_t)rows + 1, nz = (size_t)nnz + 1;
    int *env_row = lcp_alloc((size_t)n + 1, sizeof(int)), *rp = lcp_alloc(nr, sizeof(int));
    int *cj = lcp_alloc(nz, sizeof(int));
    double *cx = lcp_alloc(nz, sizeof(double)), *b = lcp_alloc(nr, sizeof(double)), *d = lcp_alloc(nr, sizeof(double));
    double *lo = lcp_alloc(nr, sizeof(double)), *hi = lcp_alloc(nr, sizeof(double)), *x = lcp_alloc(nr, sizeof(double));
    unsigned char *active = lcp_alloc((size_t)n, 1);
    lcp_monitor *mon = lcp_calloc((size_t)n, sizeof *mon);
    lcp_cuda_batch *h = NULL;
    char msg[512];
    int rc = 0, left = n;
    if (!env_row || !rp || !cj || !cx || !b || !d || !lo || !hi || !x || !active || !mon) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    if (lcp_cuda_devices(msg, sizeof msg) <= 0) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "%s", msg);
        goto done;
    }
    env_row[0] = 0;
    rp[0] = 0;
    for (int k = 0, r = 0, q = 0; k < n; k++) {
        const lcp_problem *p = &env[k].p;
        for (int i = 0; i < p->n; i++, r++) {
            double a = lcp_csr_diag(&p->A, i);
            if (!(a > 0)) {
                rc = lcp_fail(err, LCP_INPUT_ERROR, env[k].path, 0,
                              "--device gpu (pgs) needs a positive diagonal, but A(%d,%d) = %g", i + 1, i + 1, a);
                goto done;
            }
            for (int t = p->A.p[i]; t < p->A.p[i + 1]; t++, q++) {
                cj[q] = p->A.j[t];
                cx[q] = p->A.x[t];
            }
            rp[r + 1] = q;
            b[r] = p->b[i];
            d[r] = 1.0 / a;
            lo[r] = p->kind == LCP_KIND_BLCP && p->lo ? p->lo[i] : 0.0;
            hi[r] = p->kind == LCP_KIND_BLCP && p->hi ? p->hi[i] : INFINITY;
            x[r] = env[k].x[i];
        }
        env_row[k + 1] = r;
    }
    for (int k = 0; k < n; k++) {
        if (lcp_monitor_init(&mon[k], &env[k].p, s, NULL)) {
            rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
            goto done;
        }
        active[k] = !lcp_monitor_step(&mon[k], 0, env[k].x, NULL);
        if (!active[k]) left--;
        env[k].time_s = 0.0;
    }
    if (lcp_cuda_batch_create(&h, n, env_row, rp, cj, cx, b, d, lo, hi, x, msg, sizeof msg)) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "--device gpu: %s", msg);
        goto done;
    }
    for (int it = 0; left > 0;) {
        int k = GPU_CHECK_SWEEPS;
        if (s->max_iter > it && s->max_iter - it < k) k = s->max_iter - it;
        if (lcp_cuda_batch_sweep(h, k, active, x, msg, sizeof msg)) {
            rc = lcp_fail(err, LCP_ERROR, NULL, 0, "--device gpu: %s", msg);
            goto done;
        }
        it += k;
#pragma omp parallel for schedule(dynamic, 16) reduction(- : left)
        for (int e = 0; e < n; e++) {
            if (!active[e]) continue;
            memcpy(env[e].x, x + env_row[e], (size_t)env[e].p.n * sizeof(double));
            if (lcp_monitor_step(&mon[e], it, env[e].x, NULL)) {
                env[e].time_s = lcp_now() - mon[e].t0;
                active[e] = 0;
                left--;
            }
        }
    }
    for (int k = 0; k < n; k++) {
        env[k].iterations = mon[k].iter;
        finish_env(&env[k], s, &mon[k], LCP_MAX_ITER);
    }
done:
    lcp_cuda_batch_free(h);
    for (int k = 0; mon && k < n; k++) lcp_monitor_free(&mon[k]);
    free(mon);
    free(active);
    free(env_row);
    free(rp);
    free(cj);
    free(cx);
    free(b);
    free(d);
    free(lo);
    free(hi);
    free(x);
    return rc;
}
#endif

static int make_dir(const char *dir, lcp_err *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return lcp_fail(err, LCP_INPUT_ERROR, dir, 0, "cannot create folder: %s", strerror(errno));
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return lcp_fail(err, LCP_INPUT_ERROR, dir, 0, "not a folder");
    return 0;
}

/* The environments of c->dir, read in name order: *names and *env (n of
 * them, every problem initialised), *times (n, for the summary), *sh
 * (auto's patterns, with the solver auto: lcp_auto_share_begin), and
 * c->outdir made; each set as soon as it exists, for the caller's cleanup.
 * 0, or an error with err set. */
static int read_all(const batch_cli *c, const lcp_solve_opts *o1, char ***names, int *n, batch_env **env,
                    double **times, lcp_auto_share *sh, lcp_err *err)
{
    int rc;
    if ((rc = list_dir(c->dir, names, n, err))) return rc;
    size_t bytes = (size_t)(*n > 0 ? *n : 1) * sizeof **env; /* (a multiple of the alignment: batch_env) */
    if (!lcp_memory_fits((double)bytes) || !(*env = aligned_alloc(_Alignof(batch_env), bytes)) ||
        !(*times = lcp_alloc((size_t)*n, sizeof(double))))
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    memset(*env, 0, bytes);
    for (int k = 0; k < *n; k++) lcp_problem_init(&(*env)[k].p);
    /* auto chooses once a pattern, for its first environment (in name order, solved before the others: the
     * same choices for any -j); the environments of that pattern take it (src/core/auto_memo.h).  The
     * patterns are told apart as each environment is read, while its arrays are in the cache. */
    const lcp_problem **pp = !c->gpu && !strcmp(o1->solver, "auto") && *n > 1 ? malloc((size_t)*n * sizeof *pp) : NULL;
    if (pp) lcp_auto_share_begin(sh, *n);
    for (int k = 0; k < *n; k++) {
        if ((rc = read_env(c, c->dir, (*names)[k], &(*env)[k], err))) break;
        if (pp) {
            pp[k] = &(*env)[k].p;
            lcp_auto_share_add(sh, pp, k, o1);
        }
    }
    free(pp);
    if (rc) return rc;
    if (c->outdir && (rc = make_dir(c->outdir, err))) return rc;
    return 0;
}

/* Every environment's arrays and answer in one block, in the order they
 * are solved (lcp_problems_pack): environments read one by one lie
 * scattered over the heap among the readers' freed buffers, and a batch of
 * small ones, each solved once, was bound by the cache and TLB misses of
 * reaching them (8-contact columns: a pass over 4,096 took twice the time
 * of the same pass again).  The block, or NULL where there was no memory
 * for it (the environments as they were). */
static void *pack_all(batch_env *env, int n)
{
    lcp_problem **pp = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof *pp);
    double **xs = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof *xs);
    void *block = NULL;
    if (pp && xs) {
        for (int k = 0; k < n; k++) pp[k] = &env[k].p, xs[k] = env[k].x;
        if ((block = lcp_problems_pack(pp, xs, n)))
            for (int k = 0; k < n; k++) env[k].x = xs[k];
    }
    free(pp);
    free(xs);
    return block;
}

/* the environments and their settings, for lcp_batch_run */
typedef struct {
    batch_env *env;
    const lcp_solve_opts *o1;
    const lcp_auto_share *sh;
} batch_job;

/* environment k: a pattern's leader keeps the choice it makes, the others take their leader's */
static void batch_one(void *ctx, int k, double *clock)
{
    const batch_job *b = ctx;
    solve_env(&b->env[k], b->o1, lcp_auto_share_given(b->sh, k), lcp_auto_share_made(b->sh, k), clock);
}

/* Every environment solved (o1: one thread each; threads: environments at
 * once, or the device); *solve_s the wall time of it all.  0, or an error
 * with err set. */
static int solve_all(const batch_cli *c, batch_env *env, int n, const lcp_solve_opts *o1, const lcp_auto_share *sh,
                     int threads, double *solve_s, int *threads_used, lcp_err *err)
{
    *threads_used = 1;
    int rc = 0;
    openblas_set_num_threads(1);
#ifdef _OPENMP
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
    double ts = lcp_now();
    if (c->gpu) {
#ifdef LCP_HAVE_CUDA
        rc = solve_gpu(env, n, &o1->s, err);
#else
        (void)err;
#endif
    } else {
        batch_job job = {env, o1, sh};
        *threads_used = lcp_batch_run(n, threads, sh, batch_one, &job); /* (src/core/batch_run.h) */
    }
    *solve_s = lcp_now() - ts;
    return rc;
}

/* What the summary reports. */
typedef struct {
    int solved, exit_code, threads, threads_used;
    double worst, median, tmax, parse_s, solve_s, rate;
    const char *worst_name, *solver, *precond, *device;
} batch_summary;

/* The counts, the worst residual, the exit code (precedence: input error,
 * breakdown, no solution, limit) and the times' median and maximum (times:
 * n doubles, sorted here); an environment neither solved nor stopped at a
 * limit is named on stderr. */
static void summarise(const batch_env *env, int n, double *times, batch_summary *S)
{
    int solved = 0, worst_code = 0;
    double worst = 0.0;
    const char *worst_name = "";
    for (int k = 0; k < n; k++) {
        const batch_env *e = &env[k];
        times[k] = e->time_s;
        if (e->status == LCP_SOLVED) solved++;
        if (!(e->residual <= worst)) {
            worst = e->residual;
            worst_name = e->name;
        }
        int code = lcp_status_exit_code(e->status);
        /* precedence: input error, breakdown, no solution, limit */
        static const int rank[6] = {0, 1, 4, 2, 0, 3};
        if (code > 0 && code < 6 && rank[code] > rank[worst_code]) worst_code = code;
        if (e->status != LCP_SOLVED && e->status != LCP_MAX_ITER && e->status != LCP_TIME_LIMIT)
            fprintf(stderr, PROG ": %s: %s%s%s\n", e->path, lcp_status_name(e->status), *e->msg ? ": " : "", e->msg);
    }
    S->solved = solved;
    S->worst = worst;
    S->worst_name = worst_name;
    S->exit_code = worst_code;
    qsort(times, (size_t)n, sizeof *times, cmp_dbl);
    S->median = n % 2 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
    S->tmax = times[n - 1];
}

/* -o OUTDIR: each answer as OUTDIR/NAME.mtx.  0, or an error with err set. */
static int write_answers(const char *outdir, const batch_env *env, int n, lcp_err *err)
{
    size_t len = strlen(outdir) + 16;
    for (int k = 0; k < n; k++) {
        char *path = malloc(len + strlen(env[k].name));
        if (!path) return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        snprintf(path, len + strlen(env[k].name), "%s/%s.mtx", outdir, env[k].name);
        int rc = lcp_write_mtx_vector(path, env[k].x, env[k].p.n, "lcpsolve solution", err);
        free(path);
        if (rc) return rc;
    }
    return 0;
}

/* The solver and preconditioner the answers name ("auto (mixed)" where
 * they differ), the device, the rate. */
static void describe(const batch_cli *c, const batch_env *env, int n, batch_summary *S)
{
    S->device = c->gpu ? "gpu" : "cpu";
    S->solver = env[0].sv ? env[0].sv->name : c->o.solver; /* auto: the one chosen, when all agree */
    S->precond = env[0].precond_name ? env[0].precond_name : c->o.precond;
    for (int k = 1; k < n; k++) {
        if (env[k].sv != env[0].sv) S->solver = "auto (mixed)";
        if (env[k].precond_name && strcmp(env[k].precond_name, S->precond)) S->precond = "auto (mixed)";
    }
    S->rate = S->solve_s > 0 ? n / S->solve_s : 0.0;
}

/* --json: the summary as one JSON object on stdout, with the names of the
 * first 100 environments not solved. */
static void print_json(const batch_cli *c, const batch_env *env, int n, const batch_summary *S)
{
    cJSON *o = cJSON_CreateObject(), *ns = cJSON_CreateArray();
    cJSON_AddStringToObject(o, "command", "batch");
    cJSON_AddStringToObject(o, "dir", c->dir);
    cJSON_AddStringToObject(o, "solver", S->solver);
    cJSON_AddStringToObject(o, "precond", S->precond);
    cJSON_AddStringToObject(o, "device", S->device);
    cJSON_AddNumberToObject(o, "threads", S->threads);
    cJSON_AddNumberToObject(o, "threads_used", S->threads_used);
    cJSON_AddNumberToObject(o, "environments", n);
    cJSON_AddNumberToObject(o, "solved", S->solved);
    cJSON_AddNumberToObject(o, "not_solved", n - S->solved);
    cJSON_AddNumberToObject(o, "worst_residual", S->worst);
    cJSON_AddStringToObject(o, "worst_environment", S->worst_name);
    cJSON_AddNumberToObject(o, "parse_s", S->parse_s);
    cJSON_AddNumberToObject(o, "solve_s", S->solve_s);
    cJSON_AddNumberToObject(o, "env_steps_per_s", S->rate);
    cJSON_AddNumberToObject(o, "median_env_s", S->median);
    cJSON_AddNumberToObject(o, "max_env_s", S->tmax);
    cJSON_AddNumberToObject(o, "tol", c->o.s.tol);
    for (int k = 0, m = 0; k < n && m < 100; k++)
        if (env[k].status != LCP_SOLVED) {
            cJSON_AddItemToArray(ns, cJSON_CreateString(env[k].name));
            m++;
        }
    cJSON_AddItemToObject(o, "not_solved_names", ns);
    cJSON_AddStringToObject(o, "status", S->exit_code == 0 ? "solved" : "not_solved");
    cJSON_AddNumberToObject(o, "exit_code", S->exit_code);
    char *text = cJSON_Print(o);
    if (text) puts(text);
    free(text);
    cJSON_Delete(o);
}

/* The summary as text on stdout. */
static void print_text(const batch_cli *c, int n, const batch_summary *S)
{
    int threads = S->threads;
    printf("environments     %d from %s (read in %.3f s)\n", n, c->dir, S->parse_s);
    char used[32] = "";
    if (S->threads_used != threads) snprintf(used, sizeof used, " (%d used)", S->threads_used);
    printf("solver           %s%s%s on %s, %d thread%s%s\n", S->solver, strcmp(S->precond, "none") ? " -p " : "",
           strcmp(S->precond, "none") ? S->precond : "", S->device, threads, threads == 1 ? "" : "s", used);
    printf("solved           %d, not solved %d (tol %.1e)\n", S->solved, n - S->solved, c->o.s.tol);
    printf("worst residual   %.3e (%s)\n", S->worst, S->worst_name);
    printf("solve wall time  %.4f s\n", S->solve_s);
    printf("env-steps/s      %.1f\n", S->rate);
    printf("per environment  median %.3e s, max %.3e s\n", S->median, S->tmax);
}

int lcp_batch_main(int argc, char **argv)
{
    batch_cli c;
    memset(&c, 0, sizeof c);
    lcp_solve_opts_default(&c.o);
    c.o.s.on_iteration = lcp_cli_stop_on_signal; /* SIGINT/SIGTERM: each solve stops with its best iterate */
    /* a private copy: getopt_long permutes the pointers */
    char **av = lcp_alloc((size_t)argc + 1, sizeof *av);
    if (!av) return lcp_status_exit_code(LCP_ERROR);
    memcpy(av, argv, (size_t)argc * sizeof *av);
    av[argc] = NULL;
    int rc = parse_args(argc, av, &c);
    free(av);
    if (rc) return rc < 0 ? 0 : rc;

    lcp_err err = {{0}};
    char **names = NULL;
    int n = 0, exit_code = 0;
    batch_env *env = NULL;
    double *times = NULL;
    void *block = NULL;     /* the environments' arrays (pack_all) */
    lcp_auto_share sh = {0}; /* auto's patterns (read_all) */
    batch_summary S = {.threads = c.o.s.threads};
    lcp_solve_opts o1 = c.o; /* each solve sequential inside */
    o1.s.threads = 1;

    double t0 = lcp_now();
    lcp_now_fast(); /* the time-stamp counter's calibration (its first 2 ms) runs while the environments are read */
    if ((rc = read_all(&c, &o1, &names, &n, &env, &times, &sh, &err))) goto fail;
    block = pack_all(env, n);
    S.parse_s = lcp_now() - t0;
    if ((rc = solve_all(&c, env, n, &o1, &sh, S.threads, &S.solve_s, &S.threads_used, &err))) goto fail;
    summarise(env, n, times, &S);
    exit_code = S.exit_code;
    if (c.outdir && (rc = write_answers(c.outdir, env, n, &err))) goto fail;
    describe(&c, env, n, &S);
    if (c.json) print_json(&c, env, n, &S);
    else if (!c.quiet) print_text(&c, n, &S);
    goto cleanup;
fail:
    fprintf(stderr, PROG ": %s\n", err.msg);
    exit_code = lcp_status_exit_code((lcp_status)(rc ? rc : LCP_ERROR));
cleanup:
    for (int k = 0; env && k < n; k++) {
        lcp_problem_free(&env[k].p);
        if (!block) free(env[k].x);
        free(env[k].name);
        free(env[k].path);
    }
    for (int k = 0; names && k < n; k++) free(names[k]);
    free(names);
    free(env);
    free(block);
    lcp_auto_share_free(&sh);
    free(times);
    return exit_code;
}
