/* src/cli/bench.c: `lcpsolve bench [OPTIONS] PLAN.yaml` (see bench.h).
 *
 * The parent never solves: it reads the plan, forks one child a problem to
 * read it (kind, n, nnz: which configurations fit), then one child a run,
 * which calls lcpsolve's own main with `--json OPTIONS -- PROBLEM`, its
 * stdout and stderr on pipes.  The parent waits with poll() up to
 * time-limit + grace, then SIGKILL.  Rows are kept in memory and written as
 * CSV at the end through src/io/outfile.c (temporary + rename), the output
 * opened first so that an unwritable path fails before any run.
 *
 * Files: this one holds the command (options, configurations, the plan's
 * loop in one process or over MPI, the exit code); the children -- fork
 * with pipes and a time limit, the probe of a problem, one run made into a
 * row -- are src/cli/bench_run.c, the CSV, the table and the JSON summary
 * src/cli/bench_report.c, their shared types src/cli/bench_internal.h.
 */
#ifdef LCP_HAVE_MPI
#include <mpi.h>
#endif
#include "bench.h"

#include "bench_internal.h"
#include "../core/cone.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PROG "lcpsolve bench"

volatile sig_atomic_t bench_stop;
static void on_stop(int sig) { (void)sig; bench_stop = 1; }

/* ---------------------------------------------------------------- options */

enum { O_OUTPUT = 'o', O_QUIET = 'q', O_HELP = 'h', O_JSON = 256 };

static const struct {
    const char *name;
    int id;
    const char *arg, *help;
} bench_options[] = {
    {"output", O_OUTPUT, "FILE.csv", "the CSV (default: the plan's output:; '-': stdout, no table)"},
    {"json", O_JSON, NULL, "print one JSON summary instead of the table"},
    {"quiet", O_QUIET, NULL, "no table (the CSV is still written)"},
    {"help", O_HELP, NULL, "print this help"},
    {NULL, 0, NULL, NULL},
};

static void help(void)
{
    printf("usage: lcpsolve bench [OPTIONS] PLAN.yaml\n\n"
           "Runs an experiment plan: every problem with every configuration whose solver\n"
           "takes its kind, `repeats` times, each run in a child process (a crash or a\n"
           "hang is recorded, the plan goes on).  Writes one CSV row a run and prints a\n"
           "table: the median solve time of the solved runs, per problem and\n"
           "configuration, the fastest marked *, and wins/solved per configuration.\n\n"
           "A plan (YAML; paths relative to the plan's folder):\n"
           "  problems:                 # paths and globs\n"
           "    - ../problems/*\n"
           "    - ../more/*.dat\n"
           "  configs:                  # keys are lcpsolve's long option names\n"
           "    - {name: pgs, solver: pgs}\n"
           "    - {name: mprgp-ichol, solver: mprgp, precond: ichol}\n"
           "    - {name: lemke, solver: lemke, tol: 1e-10}\n"
           "  tol: 1e-8                 # any other long option: a default for every config\n"
           "  time-limit: 30            # seconds of solving (default %g in a plan)\n"
           "  grace: 10                 # a run still alive time-limit + grace s after its start\n"
           "                            # is killed and recorded as timeout (default 10)\n"
           "  repeats: 3                # default 1\n"
           "  output: results.csv       # default results.csv\n"
           "  traces: traces/           # optional: TRACES/CONFIG__PROBLEM.csv (--trace of a run)\n\n"
           "Statuses: those of --json (solved, max_iter, time_limit, no_solution, error,\n"
           "reference_mismatch), input_error (the run was refused: exit 2), crash (killed\n"
           "by a signal), timeout (killed by bench), skipped (the solver does not take the\n"
           "problem's kind; one row, repeat 1).\n\n"
           "CSV, one row a run: config,problem,repeat,exit_code, then the --json fields\n"
           "(kind,n,nnz,solver,precond,status,iterations,time_s,residual,complementarity,\n"
           "feasibility,contacts,components,... empty where a run has none), wall_s,path,message.\n\n"
           "Options:\n",
           DEFAULT_TIME_LIMIT);
    for (int i = 0; bench_options[i].name; i++) {
        char left[64];
        if (bench_options[i].id < 256)
            snprintf(left, sizeof left, "-%c, --%s%s%s", bench_options[i].id, bench_options[i].name,
                     bench_options[i].arg ? " " : "", bench_options[i].arg ? bench_options[i].arg : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", bench_options[i].name, bench_options[i].arg ? " " : "",
                     bench_options[i].arg ? bench_options[i].arg : "");
        printf("  %-28s %s\n", left, bench_options[i].help);
    }
    printf("\nExit status: 0 the plan ran to the end (whatever the runs' statuses), 1\n"
           "interrupted (the CSV holds the runs so far), 2 usage or plan error (FILE:LINE:\n"
           "reason), 5 the CSV could not be written.\n");
}

/* ------------------------------------------------------- configurations */

static int resolve_configs(const lcp_plan *plan, bench_cfg *cfg, lcp_err *err)
{
    for (int k = 0; k < plan->nconfigs; k++) {
        bench_cfg *c = &cfg[k];
        const char *v;
        c->solver = (v = lcp_plan_value(plan, k, "solver")) ? v : "auto";
        c->precond = (v = lcp_plan_value(plan, k, "precond")) ? v : "none";
        c->sv = strcmp(c->solver, "auto") ? lcp_solver_find(c->solver) : NULL;
        c->kind_hint = (v = lcp_plan_value(plan, k, "kind")) ? lcp_kind_parse(v) : LCP_KIND_NONE;
        c->time_limit = (v = lcp_plan_value(plan, k, "time-limit")) ? strtod(v, NULL) : DEFAULT_TIME_LIMIT;
        c->tol = lcp_plan_value(plan, k, "tol");
        c->threads = lcp_plan_value(plan, k, "threads");
        if ((v = lcp_plan_value(plan, k, "cone")) && lcp_cone_parse(v, &c->cone_k, err))
            return lcp_fail(err, LCP_INPUT_ERROR, plan->file, plan->configs[k].line, "configuration '%s': %s",
                            plan->configs[k].name, err->msg);
        if (c->sv && lcp_solver_check_precond(c->sv, c->precond, err)) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            return lcp_fail(err, LCP_INPUT_ERROR, plan->file, plan->configs[k].line, "configuration '%s': %s",
                            plan->configs[k].name, msg);
        }
    }
    return 0;
}

/* NULL when configuration c can run on a problem of this kind, else why not */
static const char *skip_reason(const bench_cfg *c, lcp_kind kind, char *buf, size_t len)
{
    if (c->cone_k) {
        if (!(kind & LCP_KIND_FRICTION)) {
            snprintf(buf, len, "--cone pyramid:%d needs a ccp or fc3d problem (this one is %s)", c->cone_k,
                     lcp_kind_name(kind));
            return buf;
        }
        kind = c->cone_k == 4 && (!c->sv || (c->sv->kinds & LCP_KIND_BLCP)) ? LCP_KIND_BLCP : LCP_KIND_LCP;
    }
    if (!c->sv || (c->sv->kinds & kind)) return NULL;
    lcp_problem tmp;
    lcp_problem_init(&tmp);
    tmp.kind = kind;
    lcp_err e = {{0}};
    lcp_solver_check(c->sv, &tmp, &e);
    lcp_problem_free(&tmp);
    if (c->cone_k) snprintf(buf, len, "%.500s (--cone pyramid:%d makes it %s)", e.msg, c->cone_k, lcp_kind_name(kind));
    else snprintf(buf, len, "%.500s", e.msg);
    return buf;
}

/* ---------------------------------------------------------------- rows */

bench_row *bench_new_row(row_list *rows)
{
    if (rows->n == rows->cap) {
        int cap = rows->cap ? 2 * rows->cap : 64;
        bench_row *nv = realloc(rows->v, (size_t)cap * sizeof *nv);
        if (!nv) return NULL;
        rows->v = nv;
        rows->cap = cap;
    }
    bench_row *r = &rows->v[rows->n++];
    memset(r, 0, sizeof *r);
    r->exit_code = -1;
    r->wall_s = -1;
    return r;
}

/* ---------------------------------------------------------------- progress */

static void progress(int done, int total, const char *config, const char *problem, int rep, int reps)
{
    char bar[31];
    int fill = total ? (int)((long)30 * done / total) : 30;
    for (int i = 0; i < 30; i++) bar[i] = i < fill ? '#' : '.';
    bar[30] = '\0';
    if (config && !reps)
        fprintf(stderr, "\r[%s] %d/%d reading %s\033[K", bar, done, total, problem);
    else if (config)
        fprintf(stderr, "\r[%s] %d/%d %s on %s (%d/%d)\033[K", bar, done, total, config, problem, rep, reps);
    else
        fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

/* ---------------------------------------------------------------- main */

static int make_dirs(const char *path, lcp_err *err) /* mkdir -p */
{
    char *p = lcp_strdup(path);
    if (!p) return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    for (char *s = p + 1;; s++) {
        if (*s == '/' || !*s) {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                int e = errno;
                int rc = lcp_fail(err, LCP_INPUT_ERROR, p, 0, "cannot create folder: %s", strerror(e));
                free(p);
                return rc;
            }
            *s = c;
            if (!c) break;
        }
    }
    struct stat st;
    int rc = stat(p, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : lcp_fail(err, LCP_INPUT_ERROR, p, 0, "not a folder");
    free(p);
    return rc;
}

static int make_parent(const char *file, lcp_err *err)
{
    const char *slash = strrchr(file, '/');
    if (!slash || slash == file) return 0;
    char *d = lcp_strdup(file);
    if (!d) return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    d[slash - file] = '\0';
    int rc = make_dirs(d, err);
    free(d);
    return rc;
}

static int parse_args(int argc, char **argv, const char **plan, const char **output, int *json, int *quiet)
{
    struct option lo[sizeof bench_options / sizeof bench_options[0]];
    char shortopts[16] = ":";
    int nl = 0;
    for (int i = 0; bench_options[i].name; i++) {
        lo[nl++] = (struct option){bench_options[i].name, bench_options[i].arg ? required_argument : no_argument, NULL,
                                   bench_options[i].id};
        if (bench_options[i].id < 256) {
            size_t l = strlen(shortopts);
            shortopts[l] = (char)bench_options[i].id;
            shortopts[l + 1] = '\0';
            if (bench_options[i].arg) strcat(shortopts, ":");
        }
    }
    lo[nl] = (struct option){NULL, 0, NULL, 0};
    optind = 0;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
        switch (opt) {
        case O_HELP: help(); return -1;
        case O_OUTPUT: *output = optarg; break;
        case O_JSON: *json = 1; break;
        case O_QUIET: *quiet = 1; break;
        case ':':
            fprintf(stderr, PROG ": option '%s' needs a value\n", argv[optind - 1]);
            return 2;
        default:
            fprintf(stderr, PROG ": unknown option '%s' (see lcpsolve bench --help)\n", argv[optind - 1]);
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, PROG ": no plan given (usage: lcpsolve bench [OPTIONS] PLAN.yaml)\n");
        return 2;
    }
    if (*json && *output && !strcmp(*output, "-")) {
        fprintf(stderr, PROG ": -o - and --json both write to stdout: choose one\n");
        return 2;
    }
    *plan = argv[optind++];
    if (optind < argc) {
        fprintf(stderr, PROG ": unexpected argument '%s' (one plan at a time)\n", argv[optind]);
        return 2;
    }
    return 0;
}

/* The pair (problem p, configuration k): its problem probed (once a kind
 * hint, *prp its probe); a pair that is not to run (the probe failed, or
 * skip_reason) gets its one row here.  0: run it; 1: its row is there;
 * LCP_ERROR: out of memory (err set). */
static int probe_pair(const lcp_plan *plan, const bench_cfg *cfg, probe_res *probes, row_list *rows, int p, int k,
                      int tty, int done, probe_res **prp, lcp_err *err)
{
    const int total = plan->nproblems * plan->nconfigs * plan->repeats;
    probe_res *pr = *prp = &probes[p * 16 + (cfg[k].kind_hint & 15)];
    if (!pr->done) {
        if (tty) progress(done, total, "", plan->problems[p].name, 0, 0);
        bench_probe(plan->problems[p].path, cfg[k].kind_hint, 300 + plan->grace, pr);
    }
    char why[700];
    const char *skip = NULL, *status = NULL;
    if (!pr->ok) {
        status = pr->status;
        skip = pr->msg;
    } else if ((skip = skip_reason(&cfg[k], pr->kind, why, sizeof why)))
        status = "skipped";
    if (!status) return 0;
    bench_row *r = bench_new_row(rows);
    if (!r) return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    r->problem = p, r->config = k, r->repeat = 1, r->pr = pr;
    snprintf(r->status, sizeof r->status, "%s", status);
    r->message = lcp_strdup(skip);
    return 1;
}

/* The plan in one process: each problem probed once (per kind hint), each
 * pair skipped with one row or run `repeats` times (a refusal, input_error,
 * is not repeated); stops handing out runs on SIGINT/SIGTERM.  *done counts
 * the runs done or skipped.  0, or an error with err set. */
static int run_plan(const lcp_plan *plan, const bench_cfg *cfg, probe_res *probes, row_list *rows,
                    int (*run_main)(int, char **), int tty, int *done, lcp_err *err)
{
    const int total = plan->nproblems * plan->nconfigs * plan->repeats;
    int rc;
    for (int p = 0; p < plan->nproblems && !bench_stop; p++) {
        for (int k = 0; k < plan->nconfigs && !bench_stop; k++) {
            probe_res *pr;
            if ((rc = probe_pair(plan, cfg, probes, rows, p, k, tty, *done, &pr, err)) > 1) return rc;
            if (rc == 1) { /* one row: the pair was not run */
                *done += plan->repeats;
                continue;
            }
            for (int rep = 1; rep <= plan->repeats && !bench_stop; rep++) {
                if (tty) progress(*done, total, plan->configs[k].name, plan->problems[p].name, rep, plan->repeats);
                if ((rc = bench_do_run(plan, cfg, p, k, rep, run_main, pr, rows, err))) return rc;
                ++*done;
                if (!strcmp(rows->v[rows->n - 1].status, "input_error")) { /* refused: it would be again */
                    *done += plan->repeats - rep;
                    break;
                }
            }
        }
    }
    return 0;
}

/* SIGINT/SIGTERM set bench_stop from now on; the handlers they had go to
 * *old_int, *old_term. */
static void catch_stop(struct sigaction *old_int, struct sigaction *old_term)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop; /* no SA_RESTART: poll() returns */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, old_int);
    sigaction(SIGTERM, &sa, old_term);
}

/* The results: the CSV written and committed (*out_open cleared once it
 * is handed to the commit), then the table or the JSON summary on stdout.
 * 0, or an error with err set. */
static int report_results(const lcp_plan *plan, const bench_cfg *cfg, const row_list *rows, cell *cells,
                          lcp_outfile *out, int *out_open, const char *output, int json, int quiet, int exit_code,
                          lcp_err *err)
{
    int rc;
    if ((rc = bench_write_csv(out, plan, cfg, rows, err))) return rc;
    *out_open = 0;
    if ((rc = lcp_outfile_commit(out, err))) return rc;
    bench_make_cells(plan, rows, cells);
    if (json) bench_print_json(plan, cfg, rows, cells, output, bench_stop != 0, exit_code);
    else if (!quiet && strcmp(output, "-")) bench_print_table(plan, cells); /* -o -: the CSV is stdout */
    return 0;
}

static void free_rows(row_list *rows)
{
    for (int i = 0; i < rows->n; i++) {
        cJSON_Delete(rows->v[i].json);
        free(rows->v[i].message);
    }
    free(rows->v);
}

#ifdef LCP_HAVE_MPI
/* ------------------------------------------------- the plan over MPI
 * mpirun -np N lcpsolve bench PLAN.yaml: process 0 reads every problem
 * (the probes), records the skipped pairs, and hands the runs out, largest
 * problem (nonzeros) first, one at a time to processes 1..N-1 as they
 * finish; each runs it in a forked child exactly as a one-process bench
 * does and sends the row back.  Process 0 sorts the rows into the
 * one-process order (problem, configuration, repeat), so the CSV and the
 * table hold the same runs.  A refused pair (input_error) is not run
 * again; SIGINT/SIGTERM stops handing out. */
enum { TAG_TASK = 1, TAG_STOP, TAG_ROW };

typedef struct {
    int p, k, rep;
    long nnz;
} task;

static int cmp_task(const void *a, const void *b)
{
    const task *x = a, *y = b;
    if (x->nnz != y->nnz) return x->nnz > y->nnz ? -1 : 1;
    if (x->p != y->p) return x->p - y->p;
    if (x->k != y->k) return x->k - y->k;
    return x->rep - y->rep;
}

static int cmp_row(const void *a, const void *b)
{
    const bench_row *x = a, *y = b;
    if (x->problem != y->problem) return x->problem - y->problem;
    if (x->config != y->config) return x->config - y->config;
    return x->repeat - y->repeat;
}

/* a row as bytes: 4 ints, wall_s, then status, json and message, each NUL-ended */
static char *pack_row(const bench_row *r, int *len)
{
    char *js = r->json ? cJSON_PrintUnformatted(r->json) : NULL;
    const char *m = r->message ? r->message : "";
    size_t ls = strlen(r->status) + 1, lj = js ? strlen(js) + 1 : 1, lm = strlen(m) + 1;
    size_t n = 4 * sizeof(int) + sizeof(double) + ls + lj + lm;
    char *b = malloc(n);
    if (b) {
        int h[4] = {r->problem, r->config, r->repeat, r->exit_code};
        memcpy(b, h, sizeof h);
        memcpy(b + sizeof h, &r->wall_s, sizeof(double));
        char *q = b + sizeof h + sizeof(double);
        memcpy(q, r->status, ls);
        memcpy(q + ls, js ? js : "", lj);
        memcpy(q + ls + lj, m, lm);
        *len = (int)n;
    }
    free(js);
    return b;
}

static int unpack_row(const char *b, int n, bench_row *r)
{
    int h[4];
    size_t fixed = sizeof h + sizeof(double);
    if ((size_t)n < fixed + 3 || b[n - 1] != '\0') return -1;
    memcpy(h, b, sizeof h);
    memcpy(&r->wall_s, b + sizeof h, sizeof(double));
    r->problem = h[0], r->config = h[1], r->repeat = h[2], r->exit_code = h[3];
    const char *st = b + fixed, *end = b + n;
    const char *js = st + strlen(st) + 1;
    if (js >= end) return -1;
    const char *m = js + strlen(js) + 1;
    if (m >= end) return -1;
    size_t ls = strlen(st) < sizeof r->status ? strlen(st) : sizeof r->status - 1;
    memcpy(r->status, st, ls);
    r->status[ls] = '\0';
    r->json = *js ? cJSON_Parse(js) : NULL;
    r->message = *m ? lcp_strdup(m) : NULL;
    return 0;
}

/* processes 1..N-1: run what process 0 sends until it says stop */
static int mpi_worker(const lcp_plan *plan, const bench_cfg *cfg, int (*run_main)(int, char **), lcp_err *err)
{
    for (;;) {
        int t[3];
        MPI_Status st;
        MPI_Recv(t, 3, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG == TAG_STOP) return 0;
        row_list one = {0};
        bench_row failed = {.problem = t[0], .config = t[1], .repeat = t[2], .exit_code = 5, .wall_s = -1};
        const bench_row *r = &failed;
        if (bench_do_run(plan, cfg, t[0], t[1], t[2], run_main, NULL, &one, err) == 0) r = &one.v[0];
        else {
            snprintf(failed.status, sizeof failed.status, "error");
            failed.message = err->msg;
        }
        int len = 0;
        char *b = pack_row(r, &len);
        if (!b) b = pack_row(&failed, &len); /* out of memory: try the short form */
        MPI_Send(b ? b : "", b ? len : 0, MPI_BYTE, 0, TAG_ROW, MPI_COMM_WORLD);
        free(b);
        for (int i = 0; i < one.n; i++) {
            cJSON_Delete(one.v[i].json);
            free(one.v[i].message);
        }
        free(one.v);
    }
}

/* process 0: the probes, the skipped rows, then the runs handed out */
static int mpi_master(const lcp_plan *plan, const bench_cfg *cfg, probe_res *probes, row_list *rows, int size,
                      int tty, int *done_out, lcp_err *err)
{
    const int total = plan->nproblems * plan->nconfigs * plan->repeats;
    int done = 0, ntask = 0, rc = 0;
    task *tasks = lcp_alloc((size_t)total + 1, sizeof *tasks);
    char *refused = lcp_calloc((size_t)plan->nproblems * (size_t)plan->nconfigs + 1, 1);
    if (!tasks || !refused) {
        free(tasks);
        free(refused);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    }
    for (int p = 0; p < plan->nproblems && !bench_stop; p++)
        for (int k = 0; k < plan->nconfigs && !bench_stop; k++) {
            probe_res *pr;
            int got = probe_pair(plan, cfg, probes, rows, p, k, tty, done, &pr, err);
            if (got > 1) {
                rc = got;
                goto out;
            }
            if (got == 1) {
                done += plan->repeats;
                continue;
            }
            for (int rep = 1; rep <= plan->repeats; rep++) tasks[ntask++] = (task){p, k, rep, pr->nnz};
        }
    qsort(tasks, (size_t)ntask, sizeof *tasks, cmp_task);
    int next = 0, busy = 0;
    for (int w = 1; w < size; w++) { /* one run each to start */
        while (next < ntask && refused[tasks[next].p * plan->nconfigs + tasks[next].k]) next++;
        if (next < ntask && !bench_stop) {
            MPI_Send(&tasks[next++], 3, MPI_INT, w, TAG_TASK, MPI_COMM_WORLD);
            busy++;
        } else
            MPI_Send(&next, 0, MPI_INT, w, TAG_STOP, MPI_COMM_WORLD);
    }
    while (busy > 0) {
        MPI_Status st;
        int n = 0, flag = 0;
        while (!flag) { /* poll, so that a signal can stop the hand-out */
            MPI_Iprobe(MPI_ANY_SOURCE, TAG_ROW, MPI_COMM_WORLD, &flag, &st);
            if (!flag) {
                struct timespec ts = {0, 2000000};
                nanosleep(&ts, NULL);
            }
        }
        MPI_Get_count(&st, MPI_BYTE, &n);
        char *b = malloc(n > 0 ? (size_t)n : 1);
        if (!b) {
            rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
            MPI_Abort(MPI_COMM_WORLD, 5);
        }
        MPI_Recv(b, n, MPI_BYTE, st.MPI_SOURCE, TAG_ROW, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        busy--;
        bench_row *r = bench_new_row(rows);
        if (r && unpack_row(b, n, r) == 0) {
            r->pr = &probes[r->problem * 16 + (cfg[r->config].kind_hint & 15)];
            done++;
            if (!strcmp(r->status, "input_error")) refused[r->problem * plan->nconfigs + r->config] = 1;
            if (tty) progress(done, total, plan->configs[r->config].name, plan->problems[r->problem].name, r->repeat,
                              plan->repeats);
        } else if (r)
            rows->n--; /* a garbled row: counted as lost */
        free(b);
        while (next < ntask && refused[tasks[next].p * plan->nconfigs + tasks[next].k]) next++, done++;
        if (next < ntask && !bench_stop) {
            MPI_Send(&tasks[next++], 3, MPI_INT, st.MPI_SOURCE, TAG_TASK, MPI_COMM_WORLD);
            busy++;
        } else
            MPI_Send(&next, 0, MPI_INT, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
    }
    qsort(rows->v, (size_t)rows->n, sizeof *rows->v, cmp_row);
    /* a refused pair has one row, its first repeat's, as in one process
     * (other repeats may have been in flight when the refusal came back) */
    int kept = 0;
    for (int i = 0; i < rows->n; i++) {
        bench_row *r = &rows->v[i];
        if (kept > 0 && refused[r->problem * plan->nconfigs + r->config] && rows->v[kept - 1].problem == r->problem &&
            rows->v[kept - 1].config == r->config) {
            cJSON_Delete(r->json);
            free(r->message);
            continue;
        }
        rows->v[kept++] = *r;
    }
    rows->n = kept;
out:
    *done_out = done;
    free(tasks);
    free(refused);
    return rc;
}
#endif

int lcp_bench_main(int argc, char **argv, int (*run_main)(int, char **), lcp_plan_check_fn check)
{
    const char *plan_path = NULL, *output = NULL;
    int json = 0, quiet = 0;
    char **av = lcp_alloc((size_t)argc + 1, sizeof *av); /* getopt_long permutes */
    if (!av) return lcp_status_exit_code(LCP_ERROR);
    memcpy(av, argv, (size_t)argc * sizeof *av);
    av[argc] = NULL;
    int rc = parse_args(argc, av, &plan_path, &output, &json, &quiet);
    free(av);
    if (rc) return rc < 0 ? 0 : rc;

    lcp_err err = {{0}};
    lcp_plan plan;
    bench_cfg *cfg = NULL;
    probe_res *probes = NULL;
    row_list rows = {0};
    lcp_outfile out = {0};
    cell *cells = NULL;
    int exit_code = 0, out_open = 0, handlers = 0;
    struct sigaction old_int, old_term;
    if ((rc = lcp_plan_read(plan_path, check, NULL, &plan, &err))) {
        fprintf(stderr, PROG ": %s\n", err.msg);
        return lcp_status_exit_code((lcp_status)rc);
    }
    if (!output) output = plan.output;
    if (!(cfg = lcp_calloc((size_t)plan.nconfigs, sizeof *cfg)) ||
        !(probes = lcp_calloc((size_t)plan.nproblems * 16, sizeof *probes)) ||
        !(cells = lcp_calloc((size_t)plan.nproblems * (size_t)plan.nconfigs, sizeof *cells))) {
        rc = lcp_fail(&err, LCP_ERROR, NULL, 0, "out of memory");
        goto fail;
    }
    if ((rc = resolve_configs(&plan, cfg, &err))) goto fail;
    int rank = 0;
#ifdef LCP_HAVE_MPI
    if (lcp_procs > 1) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#endif
    /* fail before any run when the results cannot be written (process 0 writes them) */
    if (rank == 0 && strcmp(output, "-") && (rc = make_parent(output, &err))) goto fail;
    if (rank == 0 && (rc = lcp_outfile_open(&out, output, &err))) goto fail;
    out_open = rank == 0;
    if (plan.traces && (rc = make_dirs(plan.traces, &err))) goto fail;

    catch_stop(&old_int, &old_term);
    handlers = 1;
    bench_stop = 0;

    const int tty = isatty(STDERR_FILENO);
    const int total = plan.nproblems * plan.nconfigs * plan.repeats;
    int done = 0;
#ifdef LCP_HAVE_MPI
    if (lcp_procs > 1 && rank > 0) { /* a worker: rows go to process 0 */
        if ((rc = mpi_worker(&plan, cfg, run_main, &err))) goto fail;
        goto done;
    }
    if (lcp_procs > 1) {
        if ((rc = mpi_master(&plan, cfg, probes, &rows, lcp_procs, tty, &done, &err))) goto fail;
    } else
#endif
    if ((rc = run_plan(&plan, cfg, probes, &rows, run_main, tty, &done, &err))) goto fail;
    if (tty) progress(0, 0, NULL, NULL, 0, 0);
    if (bench_stop) {
        exit_code = 1;
        fprintf(stderr, PROG ": interrupted after %d of %d runs; %s holds the runs so far\n", done, total, output);
    }
    if ((rc = report_results(&plan, cfg, &rows, cells, &out, &out_open, output, json, quiet, exit_code, &err)))
        goto fail;
    goto done;
fail:
    fprintf(stderr, PROG ": %s\n", err.msg);
    exit_code = rc == LCP_INPUT_ERROR ? 2 : 5;
done:
    if (handlers) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
    }
    if (out_open) lcp_outfile_abort(&out);
    free_rows(&rows);
    free(cells);
    free(probes);
    free(cfg);
    lcp_plan_free(&plan);
    return exit_code;
}
