/* src/cli/bench_run.c: the children of `lcpsolve bench` (src/cli/bench.c):
 * a fork with stdout and stderr on pipes, read with poll() and killed at
 * its time limit (a SIGINT/SIGTERM to bench passed on as SIGTERM); the
 * probe that reads a problem in a child; one run -- lcpsolve's own main on
 * the argv of a configuration -- turned into a row (status, exit code, the
 * --json object, a message from a crash, a timeout or stderr).
 */
#define _GNU_SOURCE /* strsignal */
#include "bench_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

void bench_probe(const char *path, lcp_kind hint, double limit_s, probe_res *pr)
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
int bench_do_run(const lcp_plan *plan, const bench_cfg *cfg, int p, int k, int rep, int (*run_main)(int, char **),
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
    bench_row *r = bench_new_row(rows);
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
