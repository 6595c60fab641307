/* src/cli/bench.c: `lcpsolve bench [OPTIONS] PLAN.yaml` (see bench.h).
 *
 * The parent never solves: it reads the plan, forks one child a problem to
 * read it (kind, n, nnz: which configurations fit), then one child a run,
 * which calls lcpsolve's own main with `--json OPTIONS -- PROBLEM`, its
 * stdout and stderr on pipes.  The parent waits with poll() up to
 * time-limit + grace, then SIGKILL.  Rows are kept in memory and written as
 * CSV at the end through src/io/outfile.c (temporary + rename), the output
 * opened first so that an unwritable path fails before any run.
 */
#define _GNU_SOURCE /* strsignal */
#ifdef LCP_HAVE_MPI
#include <mpi.h>
#endif
#include "bench.h"

#include "../core/cone.h"
#include "../io/io.h"
#include "../solvers/solver.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROG "lcpsolve bench"
#define DEFAULT_TIME_LIMIT 60.0

static volatile sig_atomic_t bench_stop;
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

typedef struct {
    const char *solver, *precond; /* "auto", "none" when not given */
    const lcp_solver *sv;         /* NULL for auto */
    lcp_kind kind_hint;
    int cone_k;
    double time_limit;
    const char *tol, *threads; /* as given, for rows without --json */
} bench_cfg;

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

/* ---------------------------------------------------------------- children */

typedef struct {
    char *out, *errtxt;
    size_t nout, nerr;
    int wstatus, timed_out, interrupted; /* interrupted: bench passed on a SIGINT/SIGTERM */
    double wall_s;
    long pid;
} child_res;

static void child_res_free(child_res *r)
{
    free(r->out);
    free(r->errtxt);
    memset(r, 0, sizeof *r);
}

static int append(char **buf, size_t *n, const char *data, size_t len, size_t cap)
{
    if (*n >= cap) return 0; /* keep the first cap bytes */
    if (len > cap - *n) len = cap - *n;
    char *nb = realloc(*buf, *n + len + 1);
    if (!nb) return -1;
    memcpy(nb + *n, data, len);
    *n += len;
    nb[*n] = '\0';
    *buf = nb;
    return 0;
}

/* Forks; the child runs body(arg) with stdout and stderr on pipes and exits
 * with its value.  The parent collects both, kills the child (SIGKILL) when
 * it is still alive limit_s seconds after the fork (limit_s <= 0: no limit),
 * and forwards a SIGINT/SIGTERM it gets as SIGTERM.  0, or -1 when no child
 * could be started (err set). */
static int run_child(int (*body)(void *), void *arg, double limit_s, child_res *r, lcp_err *err)
{
    memset(r, 0, sizeof *r);
    int po[2], pe[2];
    if (pipe(po) != 0) return lcp_fail(err, LCP_ERROR, NULL, 0, "pipe: %s", strerror(errno)), -1;
    if (pipe(pe) != 0) {
        close(po[0]);
        close(po[1]);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "pipe: %s", strerror(errno)), -1;
    }
    fflush(stdout);
    fflush(stderr);
    double t0 = lcp_now();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "fork: %s", strerror(e)), -1;
    }
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        close(po[0]);
        close(pe[0]);
        if (dup2(po[1], STDOUT_FILENO) < 0 || dup2(pe[1], STDERR_FILENO) < 0) _exit(5);
        close(po[1]);
        close(pe[1]);
        int rc = body(arg);
        fflush(stdout);
        fflush(stderr);
        _exit(rc & 0xff);
    }
    r->pid = (long)pid;
    close(po[1]);
    close(pe[1]);
    struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
    int open_fds = 2, forwarded = 0, killed = 0, oom = 0;
    char buf[8192];
    for (;;) {
        if (bench_stop && !forwarded) {
            kill(pid, SIGTERM); /* the child stops at its next iteration, "interrupted" */
            forwarded = 1;
        }
        double left = limit_s > 0 ? limit_s - (lcp_now() - t0) : 1.0;
        if (limit_s > 0 && left <= 0 && !killed) {
            kill(pid, SIGKILL);
            killed = r->timed_out = 1;
        }
        if (open_fds == 0) {
            pid_t w = waitpid(pid, &r->wstatus, killed ? 0 : WNOHANG);
            if (w == pid) break;
            if (w < 0 && errno != EINTR) break;
            struct timespec ts = {0, 5000000};
            nanosleep(&ts, NULL);
            continue;
        }
        int ms = killed || left > 0.25 ? 250 : (int)(left * 1000) + 1;
        int pr = poll(fds, 2, ms);
        if (pr < 0 && errno != EINTR) break;
        for (int i = 0; i < 2 && pr > 0; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t got = read(fds[i].fd, buf, sizeof buf);
            if (got > 0) {
                if (i == 0) oom |= append(&r->out, &r->nout, buf, (size_t)got, 1 << 20);
                else oom |= append(&r->errtxt, &r->nerr, buf, (size_t)got, 1 << 16);
            } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            }
        }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0) close(fds[i].fd);
    r->wall_s = lcp_now() - t0;
    r->interrupted = forwarded;
    (void)oom; /* a truncated capture reads as a missing JSON object */
    return 0;
}

/* the probe: read the problem, print "OK kind n nnz contacts" or "ERR message" */
typedef struct {
    const char *path;
    lcp_kind hint;
} probe_arg;

static int probe_body(void *a)
{
    const probe_arg *pa = a;
    lcp_problem p;
    lcp_problem_init(&p);
    lcp_err e = {{0}};
    int rc = lcp_read_problem(pa->path, pa->hint, &p, &e);
    if (rc) printf("ERR %s\n", e.msg);
    else
        printf("OK %d %d %ld %d\n", (int)p.kind, p.n, lcp_csr_nnz(&p.A), (p.kind & LCP_KIND_FRICTION) ? p.nc : p.n);
    lcp_problem_free(&p);
    return rc ? 2 : 0;
}

typedef struct {
    int done, ok;
    char status[16]; /* when not ok: input_error, crash or timeout */
    lcp_kind kind;
    int n, contacts;
    long nnz;
    char msg[600];
} probe_res;

static void probe(const char *path, lcp_kind hint, double limit_s, probe_res *pr)
{
    memset(pr, 0, sizeof *pr);
    pr->done = 1;
    probe_arg pa = {path, hint};
    child_res r;
    lcp_err e = {{0}};
    if (run_child(probe_body, &pa, limit_s, &r, &e)) {
        snprintf(pr->status, sizeof pr->status, "error");
        snprintf(pr->msg, sizeof pr->msg, "%.500s", e.msg);
        return;
    }
    int kind;
    if (r.timed_out) {
        snprintf(pr->status, sizeof pr->status, "timeout");
        snprintf(pr->msg, sizeof pr->msg, "reading the problem took over %g s", limit_s);
    } else if (WIFSIGNALED(r.wstatus)) {
        snprintf(pr->status, sizeof pr->status, "crash");
        snprintf(pr->msg, sizeof pr->msg, "reading the problem: killed by signal %d (%s)", WTERMSIG(r.wstatus),
                 strsignal(WTERMSIG(r.wstatus)));
    } else if (r.out && sscanf(r.out, "OK %d %d %ld %d", &kind, &pr->n, &pr->nnz, &pr->contacts) == 4) {
        pr->ok = 1;
        pr->kind = (lcp_kind)kind;
    } else {
        snprintf(pr->status, sizeof pr->status, "input_error");
        const char *m = r.out && !strncmp(r.out, "ERR ", 4) ? r.out + 4 : "cannot read the problem";
        snprintf(pr->msg, sizeof pr->msg, "%s", m);
        pr->msg[strcspn(pr->msg, "\n")] = '\0';
    }
    child_res_free(&r);
}

/* a run: lcpsolve's main on a fresh argv */
typedef struct {
    int (*main_fn)(int, char **);
    int argc;
    char **argv;
} run_arg;

static int run_body(void *a)
{
    run_arg *ra = a;
    lcp_procs = 1; /* this child is one process, even under mpirun */
    optind = 0; /* glibc: a full re-initialisation of getopt */
    return ra->main_fn(ra->argc, ra->argv);
}

/* ---------------------------------------------------------------- rows */

typedef struct {
    int problem, config, repeat;
    int exit_code; /* -1: none (skipped) */
    char status[24];
    cJSON *json;   /* the run's --json object, or NULL */
    char *message; /* bench's own note (crash, timeout, skip, stderr), or NULL */
    double wall_s; /* < 0: not run */
    const probe_res *pr;
} bench_row;

typedef struct {
    bench_row *v;
    int n, cap;
} row_list;

static bench_row *new_row(row_list *rows)
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

/* the first line of the child's stderr, without the "lcpsolve: " prefix */
static char *first_error_line(const char *s)
{
    if (!s) return NULL;
    while (*s == '\n') s++;
    if (!*s) return NULL;
    if (!strncmp(s, "lcpsolve: ", 10)) s += 10;
    size_t len = strcspn(s, "\n");
    char *m = malloc(len + 1);
    if (m) {
        memcpy(m, s, len);
        m[len] = '\0';
    }
    return m;
}

/* the last line of the child's stdout that parses as a JSON object */
static cJSON *last_json(char *out)
{
    if (!out) return NULL;
    cJSON *found = NULL;
    for (char *line = out; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        if (*line == '{') {
            cJSON *o = cJSON_Parse(line);
            if (o && cJSON_IsObject(o)) {
                cJSON_Delete(found);
                found = o;
            } else
                cJSON_Delete(o);
        }
        line = nl ? nl + 1 : NULL;
    }
    return found;
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

/* ---------------------------------------------------------------- CSV */

static const char *const fixed_cols[] = {
    "kind", "n", "nnz", "solver", "precond", "status", "iterations", "time_s", "residual", "complementarity",
    "feasibility", "contacts", "components", "parse_time_s", "tol", "threads", "omega", "reference_diff",
    "ref_tol", "cone", "cone_form", "original_kind", "original_n", "cone_error", "version", NULL};

static int is_fixed(const char *k)
{
    for (int i = 0; fixed_cols[i]; i++)
        if (!strcmp(fixed_cols[i], k)) return 1;
    return !strcmp(k, "problem") || !strcmp(k, "message"); /* as path, and last */
}

static void fmt_number(double x, char *buf, size_t len)
{
    if (x == floor(x) && fabs(x) < 1e15) {
        snprintf(buf, len, "%.0f", x);
        return;
    }
    snprintf(buf, len, "%.15g", x);
    if (strtod(buf, NULL) != x) snprintf(buf, len, "%.17g", x);
}

/* the text of a JSON value ("" when absent); buf holds it when needed */
static const char *json_text(const cJSON *o, const char *key, char *buf, size_t len)
{
    const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    if (!v || cJSON_IsNull(v)) return "";
    if (cJSON_IsString(v)) return v->valuestring;
    if (cJSON_IsBool(v)) return cJSON_IsTrue(v) ? "true" : "false";
    if (cJSON_IsNumber(v)) {
        fmt_number(v->valuedouble, buf, len);
        return buf;
    }
    char *s = cJSON_PrintUnformatted(v);
    snprintf(buf, len, "%s", s ? s : "");
    free(s);
    return buf;
}

static void csv_field(FILE *f, const char *s, int last)
{
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (const char *c = s; *c; c++) {
            if (*c == '"') fputc('"', f);
            fputc(*c, f);
        }
        fputc('"', f);
    } else
        fputs(s, f);
    fputc(last ? '\n' : ',', f);
}

/* a column's value for a row: the run's JSON, else what bench knows */
static const char *row_value(const bench_row *r, const bench_cfg *c, const char *col, char *buf, size_t len)
{
    if (!strcmp(col, "status")) return r->status;
    const char *s = json_text(r->json, col, buf, len);
    if (*s) return s;
    const probe_res *pr = r->pr;
    if (pr && pr->ok) {
        if (!strcmp(col, "kind")) return lcp_kind_name(pr->kind);
        if (!strcmp(col, "n")) return snprintf(buf, len, "%d", pr->n), buf;
        if (!strcmp(col, "nnz")) return snprintf(buf, len, "%ld", pr->nnz), buf;
        if (!strcmp(col, "contacts")) return snprintf(buf, len, "%d", pr->contacts), buf;
    }
    if (!strcmp(col, "solver")) return c->solver;
    if (!strcmp(col, "precond")) return c->precond;
    if (!strcmp(col, "tol") && c->tol) return c->tol;
    if (!strcmp(col, "threads") && c->threads) return c->threads;
    return "";
}

static int write_csv(lcp_outfile *out, const lcp_plan *plan, const bench_cfg *cfg, const row_list *rows, lcp_err *err)
{
    FILE *f = out->fp;
    /* the columns past the fixed ones: every other key any run reported, first seen first */
    const char **extra = NULL;
    int nextra = 0;
    for (int i = 0; i < rows->n; i++)
        for (const cJSON *it = rows->v[i].json ? rows->v[i].json->child : NULL; it; it = it->next) {
            if (!it->string || is_fixed(it->string)) continue;
            int seen = 0;
            for (int k = 0; k < nextra && !seen; k++) seen = !strcmp(extra[k], it->string);
            if (seen) continue;
            const char **ne = realloc(extra, (size_t)(nextra + 1) * sizeof *ne);
            if (!ne) {
                free(extra);
                return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
            }
            extra = ne;
            extra[nextra++] = it->string;
        }
    fputs("config,problem,repeat,exit_code,", f);
    for (int i = 0; fixed_cols[i]; i++) fprintf(f, "%s,", fixed_cols[i]);
    for (int k = 0; k < nextra; k++) fprintf(f, "%s,", extra[k]);
    fputs("wall_s,path,message\n", f);
    char buf[512];
    for (int i = 0; i < rows->n; i++) {
        const bench_row *r = &rows->v[i];
        const bench_cfg *c = &cfg[r->config];
        csv_field(f, plan->configs[r->config].name, 0);
        csv_field(f, plan->problems[r->problem].name, 0);
        fprintf(f, "%d,", r->repeat);
        if (r->exit_code >= 0) fprintf(f, "%d", r->exit_code);
        fputc(',', f);
        for (int k = 0; fixed_cols[k]; k++) csv_field(f, row_value(r, c, fixed_cols[k], buf, sizeof buf), 0);
        for (int k = 0; k < nextra; k++) csv_field(f, json_text(r->json, extra[k], buf, sizeof buf), 0);
        if (r->wall_s >= 0) fmt_number(round(r->wall_s * 1e6) / 1e6, buf, sizeof buf);
        else buf[0] = '\0';
        csv_field(f, buf, 0);
        csv_field(f, plan->problems[r->problem].path, 0);
        const char *msg = r->message ? r->message : json_text(r->json, "message", buf, sizeof buf);
        csv_field(f, msg, 1);
    }
    free(extra);
    return 0;
}

/* ---------------------------------------------------------------- summary */

typedef struct {
    double median;   /* of the solved runs' time_s; NAN when none */
    int solved, runs;
    const char *status; /* "solved", or the most frequent status of the runs */
    int best;
} cell;

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void make_cells(const lcp_plan *plan, const row_list *rows, cell *cells)
{
    int np = plan->nproblems, nc = plan->nconfigs;
    double *t = lcp_alloc((size_t)(rows->n > 0 ? rows->n : 1), sizeof(double));
    for (int i = 0; i < np * nc; i++) {
        memset(&cells[i], 0, sizeof cells[i]);
        cells[i].median = NAN;
        cells[i].status = "not_run";
    }
    /* the rows of a pair are consecutive: problems outer, configurations inner, then repeats */
    for (int i = 0; i < rows->n;) {
        const bench_row *r0 = &rows->v[i];
        cell *e = &cells[r0->problem * nc + r0->config];
        int end = i, nt = 0, top = 0;
        while (end < rows->n && rows->v[end].problem == r0->problem && rows->v[end].config == r0->config) end++;
        for (int k = i; k < end; k++) {
            const bench_row *r = &rows->v[k];
            e->runs++;
            if (!strcmp(r->status, "solved")) {
                const cJSON *ts = cJSON_GetObjectItemCaseSensitive(r->json, "time_s");
                if (t && cJSON_IsNumber(ts)) t[nt++] = ts->valuedouble;
                e->solved++;
            }
            int count = 0; /* the most frequent status, the first on ties */
            for (int j = i; j < end; j++) count += !strcmp(rows->v[j].status, r->status);
            if (count > top) {
                top = count;
                e->status = r->status;
            }
        }
        if (nt) {
            qsort(t, (size_t)nt, sizeof *t, cmp_dbl);
            e->median = nt % 2 ? t[nt / 2] : 0.5 * (t[nt / 2 - 1] + t[nt / 2]);
            e->status = "solved";
        } else
            e->solved = 0; /* solved without a time: cannot be ranked */
        i = end;
    }
    for (int p = 0; p < np; p++) {
        double best = INFINITY;
        for (int c = 0; c < nc; c++)
            if (cells[p * nc + c].solved && cells[p * nc + c].median < best) best = cells[p * nc + c].median;
        for (int c = 0; c < nc; c++)
            if (cells[p * nc + c].solved && cells[p * nc + c].median == best) cells[p * nc + c].best = 1;
    }
    free(t);
}

static void print_table(const lcp_plan *plan, const cell *cells)
{
    int np = plan->nproblems, nc = plan->nconfigs;
    int w0 = (int)strlen("wins/solved");
    for (int p = 0; p < np; p++)
        if ((int)strlen(plan->problems[p].name) > w0) w0 = (int)strlen(plan->problems[p].name);
    int *w = lcp_alloc((size_t)nc, sizeof(int));
    char (*txt)[48] = lcp_alloc((size_t)(np + 1) * (size_t)nc, sizeof *txt);
    if (!w || !txt) {
        free(w);
        free(txt);
        return;
    }
    for (int c = 0; c < nc; c++) {
        int wins = 0, solved = 0;
        for (int p = 0; p < np; p++) {
            const cell *e = &cells[p * nc + c];
            char *s = txt[p * nc + c];
            if (e->solved) {
                int n = snprintf(s, 48, "%.3g%s", e->median, e->best ? "*" : "");
                if (e->solved < e->runs) snprintf(s + n, (size_t)(48 - n), " (%d/%d)", e->solved, e->runs);
                solved++;
                wins += e->best;
            } else
                snprintf(s, 48, "%s", e->status);
        }
        snprintf(txt[np * nc + c], 48, "%d/%d", wins, solved);
        w[c] = (int)strlen(plan->configs[c].name);
        for (int p = 0; p <= np; p++)
            if ((int)strlen(txt[p * nc + c]) > w[c]) w[c] = (int)strlen(txt[p * nc + c]);
    }
    printf("median solve time (s) of the solved runs (* fastest; (k/r): k of r runs solved), else the status\n");
    printf("%-*s", w0, "problem");
    for (int c = 0; c < nc; c++) printf("  %*s", w[c], plan->configs[c].name);
    printf("\n");
    for (int p = 0; p <= np; p++) {
        printf("%-*s", w0, p < np ? plan->problems[p].name : "wins/solved");
        for (int c = 0; c < nc; c++) printf("  %*s", w[c], txt[p * nc + c]);
        printf("\n");
    }
    free(w);
    free(txt);
}

static void print_json(const lcp_plan *plan, const bench_cfg *cfg, const row_list *rows, const cell *cells,
                       const char *output, int interrupted, int exit_code)
{
    int np = plan->nproblems, nc = plan->nconfigs;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "command", "bench");
    cJSON_AddStringToObject(o, "plan", plan->file);
    cJSON_AddStringToObject(o, "output", output);
    if (plan->traces) cJSON_AddStringToObject(o, "traces", plan->traces);
    else cJSON_AddNullToObject(o, "traces");
    cJSON_AddNumberToObject(o, "problems", np);
    cJSON_AddNumberToObject(o, "configs", nc);
    cJSON_AddNumberToObject(o, "repeats", plan->repeats);
    cJSON_AddNumberToObject(o, "rows", rows->n);
    cJSON *counts = cJSON_AddObjectToObject(o, "statuses");
    for (int i = 0; i < rows->n; i++) {
        cJSON *v = cJSON_GetObjectItemCaseSensitive(counts, rows->v[i].status);
        if (v) cJSON_SetNumberValue(v, v->valuedouble + 1);
        else cJSON_AddNumberToObject(counts, rows->v[i].status, 1);
    }
    cJSON *ca = cJSON_AddArrayToObject(o, "config_summary");
    for (int c = 0; c < nc; c++) {
        int wins = 0, solved = 0;
        for (int p = 0; p < np; p++) {
            solved += cells[p * nc + c].solved > 0;
            wins += cells[p * nc + c].best;
        }
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", plan->configs[c].name);
        cJSON_AddStringToObject(e, "solver", cfg[c].solver);
        cJSON_AddStringToObject(e, "precond", cfg[c].precond);
        cJSON_AddNumberToObject(e, "wins", wins);
        cJSON_AddNumberToObject(e, "solved", solved);
        cJSON_AddItemToArray(ca, e);
    }
    cJSON *pa = cJSON_AddArrayToObject(o, "table");
    for (int p = 0; p < np; p++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "problem", plan->problems[p].name);
        cJSON_AddStringToObject(e, "path", plan->problems[p].path);
        const char *best = NULL;
        cJSON *res = cJSON_AddObjectToObject(e, "results");
        for (int c = 0; c < nc; c++) {
            const cell *x = &cells[p * nc + c];
            cJSON *r = cJSON_CreateObject();
            cJSON_AddStringToObject(r, "status", x->status);
            if (x->solved) cJSON_AddNumberToObject(r, "median_time_s", x->median);
            else cJSON_AddNullToObject(r, "median_time_s");
            cJSON_AddNumberToObject(r, "solved", x->solved);
            cJSON_AddNumberToObject(r, "runs", x->runs);
            cJSON_AddBoolToObject(r, "best", x->best);
            cJSON_AddItemToObject(res, plan->configs[c].name, r);
            if (x->best && !best) best = plan->configs[c].name;
        }
        if (best) cJSON_AddStringToObject(e, "best", best);
        else cJSON_AddNullToObject(e, "best");
        cJSON_AddItemToArray(pa, e);
    }
    cJSON_AddBoolToObject(o, "interrupted", interrupted);
    cJSON_AddNumberToObject(o, "exit_code", exit_code);
    char *s = cJSON_PrintUnformatted(o);
    printf("%s\n", s ? s : "{}");
    free(s);
    cJSON_Delete(o);
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

/* argv of a run: lcpsolve --json [defaults not overridden] [the config's]
 * [--time-limit 60 when none] [--trace FILE] -- PROBLEM; every string owned */
static void free_argv(char **v)
{
    if (!v) return;
    for (int i = 0; v[i]; i++) free(v[i]);
    free(v);
}

static char **run_argv(const lcp_plan *plan, int k, const char *trace, const char *problem, int *argc)
{
    const lcp_plan_config *c = &plan->configs[k];
    size_t cap = (size_t)(2 * (plan->ndefaults + c->nopt) + 10);
    char **v = lcp_calloc(cap, sizeof *v);
    if (!v) return NULL;
    int n = 0, ok = 1;
#define PUSH(s) (ok &= (v[n++] = lcp_strdup(s)) != NULL)
    PUSH("lcpsolve");
    PUSH("--json");
    int has_tl = 0;
    for (int pass = 0; pass < 2; pass++) {
        const lcp_plan_opt *o = pass ? c->opt : plan->defaults;
        int no = pass ? c->nopt : plan->ndefaults;
        for (int i = 0; i < no; i++) {
            int over = 0; /* a default the configuration overrides */
            for (int j = 0; !pass && j < c->nopt && !over; j++) over = !strcmp(c->opt[j].key, o[i].key);
            if (over) continue;
            if (!strcmp(o[i].key, "time-limit")) has_tl = 1;
            if (o[i].flag && lcp_plan_bool(o[i].value) != 1) continue;
            char opt[128];
            snprintf(opt, sizeof opt, "--%s", o[i].key);
            PUSH(opt);
            if (!o[i].flag) PUSH(o[i].value);
        }
    }
    if (!has_tl) {
        char tl[32];
        snprintf(tl, sizeof tl, "%g", DEFAULT_TIME_LIMIT);
        PUSH("--time-limit");
        PUSH(tl);
    }
    if (trace) {
        PUSH("--trace");
        PUSH(trace);
    }
    PUSH("--");
    PUSH(problem);
#undef PUSH
    v[n] = NULL;
    *argc = n;
    if (!ok) {
        for (int i = 0; i < n; i++) free(v[i]);
        free(v);
        return NULL;
    }
    return v;
}

static char *path_join3(const char *dir, const char *a, const char *b, const char *c)
{
    size_t len = strlen(dir) + strlen(a) + strlen(b) + strlen(c) + 2;
    char *s = malloc(len);
    if (s) snprintf(s, len, "%s/%s%s%s", dir, a, b, c);
    return s;
}

/* One run: fork, wait, turn what came back into a row. */
static int do_run(const lcp_plan *plan, const bench_cfg *cfg, int p, int k, int rep, int (*run_main)(int, char **),
                  const probe_res *pr, row_list *rows, lcp_err *err)
{
    char *trace = NULL;
    if (plan->traces && !(trace = path_join3(plan->traces, plan->configs[k].name, "__", plan->problems[p].name)))
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    if (trace) { /* .csv */
        char *t = realloc(trace, strlen(trace) + 5);
        if (!t) {
            free(trace);
            return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        }
        trace = strcat(t, ".csv");
    }
    int argc = 0;
    char **argv = run_argv(plan, k, trace, plan->problems[p].path, &argc);
    bench_row *r = new_row(rows);
    if (!argv || !r) {
        free(trace);
        free_argv(argv);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    }
    r->problem = p;
    r->config = k;
    r->repeat = rep;
    r->pr = pr;
    run_arg ra = {run_main, argc, argv};
    child_res cr;
    double limit = cfg[k].time_limit + plan->grace;
    int rc = run_child(run_body, &ra, limit, &cr, err);
    free_argv(argv);
    if (rc) {
        free(trace);
        rows->n--;
        return LCP_ERROR;
    }
    r->wall_s = cr.wall_s;
    r->json = last_json(cr.out);
    char msg[700] = "";
    if (cr.timed_out) {
        snprintf(r->status, sizeof r->status, "timeout");
        r->exit_code = 128 + SIGKILL;
        snprintf(msg, sizeof msg, "killed by bench after %.3g s (time-limit %g + grace %g)", cr.wall_s,
                 cfg[k].time_limit, plan->grace);
    } else if (WIFSIGNALED(cr.wstatus)) {
        int sig = WTERMSIG(cr.wstatus);
        snprintf(r->status, sizeof r->status, "crash");
        r->exit_code = 128 + sig;
        snprintf(msg, sizeof msg, "killed by signal %d (%s)%s", sig, strsignal(sig),
                 cr.interrupted ? ", bench was interrupted" : "");
    } else {
        r->exit_code = WIFEXITED(cr.wstatus) ? WEXITSTATUS(cr.wstatus) : 5;
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(r->json, "status");
        if (cJSON_IsString(st) && strlen(st->valuestring) < sizeof r->status)
            snprintf(r->status, sizeof r->status, "%s", st->valuestring);
        else
            snprintf(r->status, sizeof r->status, "%s", r->exit_code == 2 ? "input_error" : "error");
    }
    if (*msg) {
        char *e = first_error_line(cr.errtxt); /* what the child said before it died, if anything */
        size_t len = strlen(msg);
        if (e && *e) snprintf(msg + len, sizeof msg - len, "; stderr: %s", e);
        free(e);
        r->message = lcp_strdup(msg);
    } else if (!r->json || !cJSON_GetObjectItemCaseSensitive(r->json, "message"))
        r->message = first_error_line(cr.errtxt);
    if (trace && (cr.timed_out || WIFSIGNALED(cr.wstatus))) { /* the trace's temporary, left by the dead child */
        char tmp[2048];
        snprintf(tmp, sizeof tmp, "%s.tmp.%ld", trace, cr.pid);
        remove(tmp);
    }
    child_res_free(&cr);
    free(trace);
    return 0;
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
        if (do_run(plan, cfg, t[0], t[1], t[2], run_main, NULL, &one, err) == 0) r = &one.v[0];
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
            probe_res *pr = &probes[p * 16 + (cfg[k].kind_hint & 15)];
            if (!pr->done) {
                if (tty) progress(done, total, "", plan->problems[p].name, 0, 0);
                probe(plan->problems[p].path, cfg[k].kind_hint, 300 + plan->grace, pr);
            }
            char why[700];
            const char *skip = NULL, *status = NULL;
            if (!pr->ok) {
                status = pr->status;
                skip = pr->msg;
            } else if ((skip = skip_reason(&cfg[k], pr->kind, why, sizeof why)))
                status = "skipped";
            if (status) {
                bench_row *r = new_row(rows);
                if (!r) {
                    rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
                    goto out;
                }
                r->problem = p, r->config = k, r->repeat = 1, r->pr = pr;
                snprintf(r->status, sizeof r->status, "%s", status);
                r->message = lcp_strdup(skip);
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
        bench_row *r = new_row(rows);
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
    struct sigaction sa, old_int, old_term;
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

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop; /* no SA_RESTART: poll() returns */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
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
    for (int p = 0; p < plan.nproblems && !bench_stop; p++) {
        for (int k = 0; k < plan.nconfigs && !bench_stop; k++) {
            probe_res *pr = &probes[p * 16 + (cfg[k].kind_hint & 15)];
            if (!pr->done) {
                if (tty) progress(done, total, "", plan.problems[p].name, 0, 0);
                probe(plan.problems[p].path, cfg[k].kind_hint, 300 + plan.grace, pr);
            }
            char why[700];
            const char *skip = NULL, *status = NULL;
            if (!pr->ok) {
                status = pr->status;
                skip = pr->msg;
            } else if ((skip = skip_reason(&cfg[k], pr->kind, why, sizeof why)))
                status = "skipped";
            if (status) { /* one row: the pair was not run */
                bench_row *r = new_row(&rows);
                if (!r) {
                    rc = lcp_fail(&err, LCP_ERROR, NULL, 0, "out of memory");
                    goto fail;
                }
                r->problem = p;
                r->config = k;
                r->repeat = 1;
                r->pr = pr;
                snprintf(r->status, sizeof r->status, "%s", status);
                r->message = lcp_strdup(skip);
                done += plan.repeats;
                continue;
            }
            for (int rep = 1; rep <= plan.repeats && !bench_stop; rep++) {
                if (tty) progress(done, total, plan.configs[k].name, plan.problems[p].name, rep, plan.repeats);
                if ((rc = do_run(&plan, cfg, p, k, rep, run_main, pr, &rows, &err))) goto fail;
                done++;
                if (!strcmp(rows.v[rows.n - 1].status, "input_error")) { /* refused: it would be again */
                    done += plan.repeats - rep;
                    break;
                }
            }
        }
    }
    if (tty) progress(0, 0, NULL, NULL, 0, 0);
    if (bench_stop) {
        exit_code = 1;
        fprintf(stderr, PROG ": interrupted after %d of %d runs; %s holds the runs so far\n", done, total, output);
    }
    if ((rc = write_csv(&out, &plan, cfg, &rows, &err))) goto fail;
    out_open = 0;
    if ((rc = lcp_outfile_commit(&out, &err))) goto fail;
    make_cells(&plan, &rows, cells);
    if (json) print_json(&plan, cfg, &rows, cells, output, bench_stop != 0, exit_code);
    else if (!quiet && strcmp(output, "-")) print_table(&plan, cells); /* -o -: the CSV is stdout */
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
    for (int i = 0; i < rows.n; i++) {
        cJSON_Delete(rows.v[i].json);
        free(rows.v[i].message);
    }
    free(rows.v);
    free(cells);
    free(probes);
    free(cfg);
    lcp_plan_free(&plan);
    return exit_code;
}
