/* src/cli/tune.c: `lcpsolve tune [OPTIONS] CORPUS... -o MODEL` and
 * `lcpsolve tune --lofo MODEL CORPUS...`.
 *
 * A corpus is a folder: its entries are problems (a problem folder, or a
 * single-file problem: .json, .dat, .hdf5), which form one family named
 * after the folder, or folders of problems, a family each (CORPUS/FAMILY/
 * PROBLEM).  For every problem tune computes the features
 * (src/core/features.c) and runs each candidate configuration of its kind
 * through the pipeline (the solve of `lcpsolve -s SOLVER -p P PROBLEM`) at
 * the tolerance, on a time limit of min(--time-limit, max(20 ms, --prune x
 * the best time so far on the problem)): a configuration past that limit
 * cannot be the best, and counts as failed.  A solved configuration under
 * 10 ms runs up to 3 times (the least time counts), one under 2 ms once more
 * as many times in a row as take about 2 ms (their mean counts where less:
 * the clock's reads and a cold first solve would weigh as much as a solve of
 * a few microseconds).  The model it writes
 * (src/core/auto.c describes the format) holds the features and the times.
 *
 * --lofo MODEL: for each family of the corpus, the model without it (the
 * measurements of that family dropped), and --solver auto on each of the
 * family's problems against the model's best configuration for it, both
 * timed here (the model read once before), --repeat rounds interleaved (the medians count; times below
 * --floor count as --floor).  A line a problem, then a line a family: the
 * ratios auto / best, median and worst, how many within 2x and 5x, and
 * auto's failures where a configuration solved.  Exit 0 when auto solved
 * every problem some configuration solved, 1 otherwise.
 */
#include "tune.h"

#include "../core/auto.h"
#include "../core/auto_memo.h"
#include "../core/common.h"
#include "../core/pipeline.h"
#include "../io/io.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROG "lcpsolve tune"

/* the candidates: what tune measures for each kind */
static const char *const candidates[][3] = {
    {"lcp", "pgs", "none"},      {"lcp", "psor", "none"},       {"lcp", "lemke", "none"},
    {"lcp", "pivot", "none"},    {"lcp", "ipm", "none"},        {"lcp", "newton-fb", "none"},
    {"lcp", "newton-min", "none"}, {"lcp", "mprgp", "ichol"},   {"lcp", "apgd", "diag"},
    {"lcp", "pmg", "none"},      {"blcp", "pgs", "none"},       {"blcp", "psor", "none"},
    {"blcp", "pivot", "none"},   {"blcp", "mprgp", "ichol"},    {"blcp", "pmg", "none"},
    {"blcp", "apgd", "diag"},    {"fc3d", "nsgs", "none"},      {"fc3d", "admm", "none"},
    {"fc3d", "nsn", "none"},     {"fc3d", "prox", "none"},      {"ccp", "nsgs", "none"},
    {"ccp", "admm", "none"},     {"ccp", "socp-ipm", "none"},   {"ccp", "apgd", "diag"},
};
#define NCAND ((int)(sizeof candidates / sizeof *candidates))

typedef struct {
    char *family, *name, *path;
} entry;

typedef struct {
    entry *e;
    int n, cap;
} corpus;

static int is_problem(const char *path)
{
    struct stat st;
    if (stat(path, &st)) return 0;
    if (!S_ISDIR(st.st_mode)) {
        const char *dot = strrchr(path, '.');
        return dot && (!strcmp(dot, ".json") || !strcmp(dot, ".dat") || !strcmp(dot, ".hdf5") || !strcmp(dot, ".h5"));
    }
    char f[4096];
    snprintf(f, sizeof f, "%s/A.mtx", path);
    if (!access(f, R_OK)) return 1;
    snprintf(f, sizeof f, "%s/problem.json", path);
    return !access(f, R_OK);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* the sorted entries of dir (no dot files); NULL on error */
static char **list(const char *dir, int *n)
{
    DIR *d = opendir(dir);
    if (!d) return NULL;
    char **v = NULL;
    int cap = 0;
    *n = 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] == '.') continue;
        if (*n == cap) {
            char **v2 = realloc(v, (size_t)(cap = cap ? 2 * cap : 32) * sizeof *v);
            if (!v2) break;
            v = v2;
        }
        v[(*n)++] = lcp_strdup(de->d_name);
    }
    closedir(d);
    if (v) qsort(v, (size_t)*n, sizeof *v, cmp_str);
    else v = calloc(1, sizeof *v);
    return v;
}

static void add(corpus *c, const char *family, const char *name, const char *path)
{
    if (c->n == c->cap) {
        entry *e = realloc(c->e, (size_t)(c->cap = c->cap ? 2 * c->cap : 64) * sizeof *e);
        if (!e) return;
        c->e = e;
    }
    c->e[c->n++] = (entry){lcp_strdup(family), lcp_strdup(name), lcp_strdup(path)};
}

static const char *base(const char *path)
{
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/') len--;
    const char *b = path + len;
    while (b > path && b[-1] != '/') b--;
    return b;
}

/* a word for the model: no blanks */
static void word(char *s)
{
    for (; *s; s++)
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') *s = '_';
}

static int scan(corpus *c, const char *dir)
{
    int n;
    char **v = list(dir, &n);
    if (!v) return fprintf(stderr, PROG ": %s: cannot read the corpus folder\n", dir), 2;
    char fam[256];
    snprintf(fam, sizeof fam, "%s", base(dir));
    size_t fl = strlen(fam);
    while (fl > 1 && fam[fl - 1] == '/') fam[--fl] = '\0';
    word(fam);
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, v[i]);
        char name[256];
        snprintf(name, sizeof name, "%s", v[i]);
        word(name);
        if (is_problem(path)) {
            add(c, fam, name, path);
        } else {
            struct stat st;
            if (stat(path, &st) || !S_ISDIR(st.st_mode)) continue;
            int m;
            char **w = list(path, &m);
            for (int j = 0; w && j < m; j++) {
                char sub[8400], nm[256];
                snprintf(sub, sizeof sub, "%s/%s", path, w[j]);
                snprintf(nm, sizeof nm, "%s", w[j]);
                word(nm);
                if (is_problem(sub)) add(c, name, nm, sub);
                free(w[j]);
            }
            free(w);
        }
        free(v[i]);
    }
    free(v);
    return 0;
}

typedef struct {
    double time_limit, prune, tol, floor;
    int repeat;
    const char *output, *lofo;
} tune_opts;

/* reps solves through the pipeline, one after the other between two reads of the clock: seconds to the
 * tolerance of one (the mean), or -1 */
static double run_reps(const lcp_problem *p, const char *solver, const char *precond, const char *model, double tol,
                       double limit, int *iters, char *used, size_t used_size, int reps)
{
    lcp_solve_opts o;
    lcp_solve_opts_default(&o);
    o.solver = solver;
    o.precond = precond;
    o.s.precond = strcmp(precond, "none") ? lcp_precond_find(precond) : NULL;
    o.s.tol = tol;
    o.s.time_limit = limit;
    o.auto_model = model;
    lcp_solve_out out;
    lcp_err err = {{0}};
    lcp_auto_memo_forget(); /* auto chooses afresh at every run, as on a problem it has not seen */
    /* in a row: timed as a whole on lcp_now's clock (the thread's CPU clock under LCPSOLVE_CLOCK=thread),
     * the solves reading the wall clock meanwhile (no system call a read) */
    double t0 = lcp_now();
    if (reps > 1) lcp_now_force_wall(1);
    int rc = lcp_pipeline_solve(p, &o, NULL, 0, NULL, &out, &err);
    for (int r = 1; r < reps && !rc && out.status == LCP_SOLVED; r++) {
        lcp_solve_out_free(&out);
        rc = lcp_pipeline_solve(p, &o, NULL, 0, NULL, &out, &err);
    }
    lcp_now_force_wall(0);
    double t = (lcp_now() - t0) / reps;
    if (iters) *iters = out.iterations;
    if (used) snprintf(used, used_size, "%s%s%s", out.solver ? out.solver->name : "-",
                       out.precond && strcmp(out.precond, "none") ? " -p " : "", out.precond && strcmp(out.precond, "none") ? out.precond : "");
    int ok = !rc && out.status == LCP_SOLVED;
    lcp_solve_out_free(&out);
    return ok ? t : -1;
}

static double run(const lcp_problem *p, const char *solver, const char *precond, const char *model, double tol,
                  double limit, int *iters, char *used, size_t used_size)
{
    return run_reps(p, solver, precond, model, tol, limit, iters, used, used_size, 1);
}

/* A solve under SHORT_S is timed again as the mean of as many solves in a row as take about SHORT_S in
 * all (at most SHORT_REPS): the clock's reads (a system call each on the thread's CPU clock) and the
 * first solve's cold caches weigh as much as a solve of a few microseconds, and would make every
 * configuration of a small problem look alike. */
#define SHORT_S 2e-3
#define SHORT_REPS 1000

static int tune(const corpus *c, const tune_opts *t)
{
    lcp_outfile of; /* atomic: the model appears whole or not at all */
    lcp_err oe = {0};
    if (lcp_outfile_open(&of, t->output, &oe)) return fprintf(stderr, PROG ": %s\n", oe.msg), 2;
    FILE *out = of.fp;
    fprintf(out, "# --solver auto's model: written by lcpsolve tune (src/cli/tune.c; format in src/core/auto.c)\n");
    fprintf(out, "lcpsolve-auto-model 1\ntime-limit %g\nfeatures", t->time_limit);
    for (int j = 0; j < LCP_NFEATURES; j++) fprintf(out, " %s", lcp_feature_names[j]);
    fputc('\n', out);
    for (int k = 0; k < NCAND; k++) fprintf(out, "config %s %s %s\n", candidates[k][0], candidates[k][1], candidates[k][2]);
    int measured = 0;
    for (int i = 0; i < c->n; i++) {
        lcp_problem p = {0};
        lcp_err err = {{0}};
        if (lcp_read_problem(c->e[i].path, 0, &p, &err)) {
            fprintf(stderr, PROG ": skipped %s: %s\n", c->e[i].path, err.msg);
            continue;
        }
        lcp_features f;
        if (p.n == 0 || lcp_features_compute(&p, &f)) { /* no contacts: nothing to learn */
            lcp_problem_free(&p);
            continue;
        }
        const char *kind = lcp_kind_name(p.kind);
        fprintf(out, "problem %s %s %s", kind, c->e[i].family, c->e[i].name);
        for (int j = 0; j < LCP_NFEATURES; j++) fprintf(out, " %.6g", f.v[j]);
        double best = INFINITY;
        char bestname[64] = "-";
        for (int k = 0; k < NCAND; k++) {
            if (strcmp(candidates[k][0], kind)) continue;
            const lcp_solver *sv = lcp_solver_find(candidates[k][1]);
            double tm = -1;
            int it = 0;
            if (sv && !lcp_solver_check(sv, &p, NULL)) {
                double limit = isfinite(best) ? fmin(t->time_limit, fmax(0.02, t->prune * best)) : t->time_limit;
                tm = run(&p, candidates[k][1], candidates[k][2], NULL, t->tol, limit, &it, NULL, 0);
                for (int r = 1; r < 3 && tm >= 0 && tm < 0.01; r++) {
                    double t2 = run(&p, candidates[k][1], candidates[k][2], NULL, t->tol, limit, NULL, NULL, 0);
                    if (t2 >= 0 && t2 < tm) tm = t2;
                }
                if (tm >= 0 && tm < SHORT_S) {
                    int reps = (int)fmin(SHORT_REPS, fmax(2, SHORT_S / fmax(tm, 1e-9)));
                    double t2 = run_reps(&p, candidates[k][1], candidates[k][2], NULL, t->tol, limit, NULL, NULL, 0, reps);
                    if (t2 >= 0) tm = fmin(tm, t2);
                }
            }
            if (tm >= 0 && tm < best) {
                best = tm;
                snprintf(bestname, sizeof bestname, "%s%s%s", candidates[k][1], strcmp(candidates[k][2], "none") ? " -p " : "",
                         strcmp(candidates[k][2], "none") ? candidates[k][2] : "");
            }
            fprintf(out, " %.6g %d", tm, tm >= 0 ? it : 0);
        }
        fputc('\n', out);
        fflush(out);
        measured++;
        fprintf(stderr, "%s/%s: %s n = %d, best %s %.3g s\n", c->e[i].family, c->e[i].name, kind, p.n, bestname,
                isfinite(best) ? best : -1.0);
        lcp_problem_free(&p);
    }
    if (lcp_outfile_commit(&of, &oe)) return fprintf(stderr, PROG ": %s\n", oe.msg), 2;
    fprintf(stderr, PROG ": %d problems measured, model %s\n", measured, t->output);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n == 0 ? NAN : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* leave one family out */
static int lofo(const corpus *c, const tune_opts *t)
{
    lcp_err err = {{0}};
    lcp_auto_model *full = lcp_auto_model_load(t->lofo, &err);
    if (!full) return fprintf(stderr, PROG ": %s\n", err.msg), 2;
    int fails = 0, total = 0, within2 = 0, within5 = 0;
    double worst_all = 0;
    printf("%-14s %-34s %-18s %10s %-22s %10s %8s\n", "family", "problem", "best", "best_s", "auto (ran)", "auto_s",
           "ratio");
    for (int i = 0; i < c->n; i++) {
        if (i > 0 && !strcmp(c->e[i].family, c->e[i - 1].family)) continue;
        const char *fam = c->e[i].family;
        /* the model without the family */
        lcp_auto_model *m = lcp_auto_model_load(t->lofo, &err);
        if (!m) return fprintf(stderr, PROG ": %s\n", err.msg), 2;
        lcp_auto_model_drop_family(m, fam);
        char path[256];
        snprintf(path, sizeof path, "%s/lcpsolve-lofo-%ld-%d.model", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
                 (long)getpid(), i); /* a name a family: auto keeps the models it read by name */
        FILE *fp = fopen(path, "w");
        if (!fp || lcp_auto_model_write(m, fp) || fclose(fp)) {
            lcp_auto_model_free(m);
            return fprintf(stderr, PROG ": %s: cannot write\n", path), 2;
        }
        lcp_auto_model_free(m);
        double ratios[4096];
        int nrat = 0, ffail = 0;
        { /* read the model once before the timed runs (a process keeps it: lcp_choose_auto_model) */
            lcp_problem p0 = {0};
            lcp_auto_choice ch0;
            if (!lcp_read_problem(c->e[i].path, 0, &p0, &err)) lcp_choose_auto_model(&p0, path, &ch0, &err);
            lcp_problem_free(&p0);
        }
        for (int j = i; j < c->n && !strcmp(c->e[j].family, fam); j++) {
            /* the measured best configuration of this problem */
            int idx = -1;
            for (int s = 0; s < lcp_auto_model_size(full); s++)
                if (!strcmp(lcp_auto_model_family(full, s), fam) && !strcmp(lcp_auto_model_name(full, s), c->e[j].name))
                    idx = s;
            if (idx < 0) {
                fprintf(stderr, PROG ": %s/%s is not in %s: skipped\n", fam, c->e[j].name, t->lofo);
                continue;
            }
            char bsolver[32] = "", bprecond[32] = "none";
            double bt = INFINITY;
            for (int k = 0; k < NCAND; k++) {
                char name[80];
                snprintf(name, sizeof name, "%s%s%s", candidates[k][1], strcmp(candidates[k][2], "none") ? " -p " : "",
                         strcmp(candidates[k][2], "none") ? candidates[k][2] : "");
                double tm = lcp_auto_model_time(full, idx, name);
                if (tm >= 0 && tm < bt) {
                    bt = tm;
                    snprintf(bsolver, sizeof bsolver, "%s", candidates[k][1]);
                    snprintf(bprecond, sizeof bprecond, "%s", candidates[k][2]);
                }
            }
            if (!isfinite(bt)) { /* no configuration solved it in the limit: no ratio to measure */
                printf("%-14s %-34s %-18s %10s %-22s %10s %8s\n", fam, c->e[j].name, "(none solved)", "-", "-", "-", "-");
                continue;
            }
            lcp_problem p = {0};
            if (lcp_read_problem(c->e[j].path, 0, &p, &err)) {
                fprintf(stderr, PROG ": skipped %s: %s\n", c->e[j].path, err.msg);
                continue;
            }
            double ta[64], tb[64];
            int na = 0, nb = 0, afail = 0;
            char used[96] = "";
            for (int r = 0; r < t->repeat && r < 64; r++) {
                double a = run(&p, "auto", "none", path, t->tol, t->time_limit * 10, NULL, used, sizeof used);
                if (a < 0) afail = 1;
                else ta[na++] = fmax(a, t->floor);
                if (isfinite(bt)) {
                    double b = run(&p, bsolver, bprecond, NULL, t->tol, t->time_limit * 10, NULL, NULL, 0);
                    if (b >= 0) tb[nb++] = fmax(b, t->floor);
                }
            }
            lcp_problem_free(&p);
            double amed = na ? median(ta, na) : -1, bmed = nb ? median(tb, nb) : -1;
            char bname[80];
            snprintf(bname, sizeof bname, "%s%s%s", bsolver, strcmp(bprecond, "none") ? " -p " : "",
                     strcmp(bprecond, "none") ? bprecond : "");
            if (!isfinite(bt)) {
                printf("%-14s %-34s %-18s %10s %-22s %10.3g %8s\n", fam, c->e[j].name, "(none solved)", "-", used,
                       amed, afail ? "-" : "solved");
                continue;
            }
            total++;
            if (afail || bmed < 0) {
                if (afail) ffail++, fails++;
                printf("%-14s %-34s %-18s %10.3g %-22s %10s %8s\n", fam, c->e[j].name, bname, bmed, used, "FAILED",
                       afail ? "fail" : "-");
                continue;
            }
            double ratio = amed / bmed;
            ratios[nrat++] = ratio;
            within2 += ratio <= 2;
            within5 += ratio <= 5;
            if (ratio > worst_all) worst_all = ratio;
            printf("%-14s %-34s %-18s %10.3g %-22s %10.3g %8.2f\n", fam, c->e[j].name, bname, bmed, used, amed, ratio);
        }
        remove(path);
        double worst = 0;
        for (int k = 0; k < nrat; k++) worst = fmax(worst, ratios[k]);
        int n2 = 0, n5 = 0;
        for (int k = 0; k < nrat; k++) n2 += ratios[k] <= 2, n5 += ratios[k] <= 5;
        double med = nrat ? median(ratios, nrat) : NAN;
        printf("FAMILY %-14s problems %d  auto/best median %.2f worst %.2f  within 2x %d  within 5x %d  failures %d\n",
               fam, nrat + ffail, med, worst, n2, n5, ffail);
        fflush(stdout);
    }
    printf("ALL problems %d  within 2x %d (%.0f%%)  within 5x %d (%.0f%%)  worst %.2f  failures %d\n", total, within2,
           total ? 100.0 * within2 / total : 0, within5, total ? 100.0 * within5 / total : 0, worst_all, fails);
    lcp_auto_model_free(full);
    return fails ? 1 : 0;
}

static int usage(const char *msg)
{
    if (msg) fprintf(stderr, PROG ": %s (see lcpsolve tune --help)\n", msg);
    FILE *f = msg ? stderr : stdout;
    fprintf(f, "Usage: lcpsolve tune [OPTIONS] CORPUS... -o MODEL\n"
               "       lcpsolve tune --lofo MODEL [OPTIONS] CORPUS...\n\n"
               "Measures the candidate configurations of each problem's kind on a corpus (a folder of\n"
               "problems, or of family folders of problems) and writes --solver auto's model: the\n"
               "problems' features and each configuration's time to the tolerance (or failure).\n"
               "With --lofo: leave-one-family-out validation of MODEL on the same corpus.\n\n"
               "  -o, --output MODEL     the model file to write (- for stdout)\n"
               "      --lofo MODEL       validate: auto without each family against the best configuration\n"
               "      --time-limit S     a measured run's limit (default 2)\n"
               "      --prune F          a run's limit: F x the best time so far on the problem (default 20)\n"
               "      --tol X            the tolerance (default 1e-8)\n"
               "      --repeat R         --lofo: interleaved rounds, medians (default 3)\n"
               "      --floor S          --lofo: times below S count as S (default 1e-4)\n"
               "  -h, --help             print this help\n");
    return msg ? 2 : 0;
}

static int number(const char *opt, const char *v, double *x)
{
    char *end = NULL;
    *x = v ? strtod(v, &end) : NAN;
    if (!v || *end || !(*x > 0)) {
        char m[256];
        snprintf(m, sizeof m, "%s: '%s' is not a positive number", opt, v ? v : "");
        return usage(m);
    }
    return 0;
}

int lcp_tune_main(int argc, char **argv)
{
    tune_opts t = {.time_limit = 2, .prune = 20, .tol = 1e-8, .floor = 1e-4, .repeat = 3};
    corpus c = {0};
    const char *dirs[256];
    int nd = 0, rc;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double x;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) return usage(NULL);
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (!v) return usage("-o needs a file");
            t.output = v, i++;
        } else if (!strcmp(a, "--lofo")) {
            if (!v) return usage("--lofo needs a model file");
            t.lofo = v, i++;
        } else if (!strcmp(a, "--time-limit") || !strcmp(a, "--prune") || !strcmp(a, "--tol") ||
                   !strcmp(a, "--floor") || !strcmp(a, "--repeat")) {
            if ((rc = number(a, v, &x))) return rc;
            i++;
            if (!strcmp(a, "--time-limit")) t.time_limit = x;
            else if (!strcmp(a, "--prune")) t.prune = x;
            else if (!strcmp(a, "--tol")) t.tol = x;
            else if (!strcmp(a, "--floor")) t.floor = x;
            else if (x < 1 || x > 64 || x != floor(x)) return usage("--repeat: want an integer in [1, 64]");
            else t.repeat = (int)x;
        } else if (a[0] == '-' && a[1]) {
            char m[300];
            snprintf(m, sizeof m, "unknown option '%.200s'", a);
            return usage(m);
        } else if (nd < 256) {
            dirs[nd++] = a;
        }
    }
    if (nd == 0) return usage("no corpus folder");
    if (!t.output && !t.lofo) return usage("-o MODEL (or --lofo MODEL) is required");
    for (int i = 0; i < nd; i++)
        if ((rc = scan(&c, dirs[i]))) return rc;
    if (c.n == 0) return fprintf(stderr, PROG ": no problem in the corpus\n"), 2;
    rc = t.lofo ? lofo(&c, &t) : tune(&c, &t);
    for (int i = 0; i < c.n; i++) free(c.e[i].family), free(c.e[i].name), free(c.e[i].path);
    free(c.e);
    return rc;
}
