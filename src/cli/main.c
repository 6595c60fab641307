/* src/cli/main.c: the command line: options, dispatch, the summary, exit codes.
 *
 *   lcpsolve [OPTIONS] PROBLEM
 *   lcpsolve [OPTIONS] -A A.mtx -b b.mtx [--mu mu.mtx] ...
 *   lcpsolve info PROBLEM          lcpsolve generate SCENE ... -o DIR
 *   lcpsolve batch [OPTIONS] DIR   (src/cli/batch.c)
 *   lcpsolve bench [OPTIONS] PLAN.yaml  (src/cli/bench.c: each run calls main again in a child)
 *
 * Everything else lives in the module its name says: reading in src/io/,
 * checks in src/core/problem.c, residuals in src/core/verify.c, solvers in
 * src/solvers/ (one registry table), traces in src/io/trace.c.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <cjson/cJSON.h>
#ifdef LCP_HAVE_MPI
#include <mpi.h>
#endif

#include "batch.h"
#include "bench.h"
#include "../io/config.h"
#include "../core/options.h"
#include "../core/pipeline.h"
#include "generate.h"
#include "info.h"
#include "tune.h"
#include "../io/io.h"
#include "sequence.h"
#include "sensitivity.h"
#include "cli.h"

volatile sig_atomic_t lcp_interrupted; /* SIGINT/SIGTERM (on_signal) */

typedef struct {
    lcp_solve_opts o;  /* the settings of the solve (src/core/options.c) */
    const char *graph;
    const char *output, *output_w, *reference, *warm, *config, *problem;
    lcp_cli_diff_opts d; /* --sensitivity, --adjoint: derivatives of the solution (src/cli/diff.c) */
    const char *file[10]; /* A b mu lo hi findex M J v e, from the command line */
    double ref_tol;
    int json, info, quiet, features, tune;
    double alpha, beta; /* sequence --tune */
    lcp_schedule schedule; /* --schedule (sequence) */
    lcp_kind kind;
    const char *where; /* "FILE:LINE" prefix for config errors, NULL for the command line */
    char where_buf[1100];
    lcp_err *err;
    char *owned[64];   /* copies of --config values (the YAML parser frees its own) */
    int nowned;
} cli;


static void usage_line(FILE *f)
{
    fprintf(f, "usage: lcpsolve [OPTIONS] PROBLEM\n"
               "       lcpsolve [OPTIONS] -A A.mtx -b b.mtx [--mu mu.mtx]\n"
               "       lcpsolve [OPTIONS] -M M.mtx -J J.mtx -v v.mtx [-e e.mtx]\n"
               "       lcpsolve info PROBLEM\n"
               "       lcpsolve tune CORPUS... -o MODEL   (lcpsolve tune --help: --solver auto's model)\n"
               "       lcpsolve batch [OPTIONS] DIR           (lcpsolve batch --help)\n"
               "       lcpsolve bench [OPTIONS] PLAN.yaml     (lcpsolve bench --help)\n"
               "       lcpsolve sequence [OPTIONS] DIR        (steps of a simulation, warm-started by contact id)\n"
               "       lcpsolve generate sequence --scene S --steps K ... -o DIR   (--help: a sphere simulation)\n"
               "       lcpsolve generate SCENE [PARAMS] -o DIR   (lcpsolve generate --help)\n");
}

static void help(void)
{
    usage_line(stdout);
    printf("\nPROBLEM is a folder (A.mtx b.mtx ..., or M.mtx J.mtx v.mtx), a .json problem or\n"
           "manifest, a Siconos .dat file or an FCLIB .hdf5 file.  '-' means stdin/stdout:\n"
           "a problem on stdin may be JSON, Siconos .dat or FCLIB HDF5 (told from its first\n"
           "bytes; a Matrix Market file goes with -A - or -b -); with -o - stdout holds the\n"
           "solution alone and the summary goes to stderr.\n\nOptions:\n");
    for (const lcp_option *o = lcp_options; o->help; o++) {
        char left[64];
        const char *sh = NULL;
        static char buf[4];
        if (o->id < 256) {
            snprintf(buf, sizeof buf, "-%c", o->id);
            sh = buf;
        }
        if (o->name)
            snprintf(left, sizeof left, "%s%s--%s%s%s", sh ? sh : "", sh ? ", " : "    ", o->name, o->arg ? " " : "",
                     o->arg ? o->arg : "");
        else
            snprintf(left, sizeof left, "%s %s", sh, o->arg);
        printf("  %-28s %s\n", left, o->help);
    }
    printf("\nExit status: 0 solved, 1 limit reached (best iterate written), 2 usage or input\n"
           "error, 3 no solution, 4 differs from --reference, 5 numerical breakdown.\n");
}

static void list_solvers(void)
{
    for (const lcp_solver *const *s = lcp_solver_list(); *s; s++) {
        char kinds[64] = "";
        for (unsigned k = 1; k <= LCP_KIND_FC3D; k <<= 1)
            if ((*s)->kinds & k) {
                if (*kinds) strcat(kinds, ",");
                strcat(kinds, lcp_kind_name((lcp_kind)k));
            }
        /* the solve options only some solvers read (src/core/options.c), those this one reads */
        char own[256] = "";
        size_t l = 0;
        for (const lcp_option *o = lcp_options; o->name && l < sizeof own; o++) {
            if (o->scope != LCP_OPT_SOLVE || !lcp_option_read_by(o, *s)) continue;
            int all = 1;
            for (const lcp_solver *const *t = lcp_solver_list(); *t && all; t++) all = lcp_option_read_by(o, *t);
            if (!all) l += (size_t)snprintf(own + l, sizeof own - l, " --%s", o->name);
        }
        printf("%-11s %-17s precond: %-24s %s%s%s\n", (*s)->name, kinds, lcp_solver_precond_names(*s), (*s)->summary,
               *own ? "; reads" : "", own);
    }
}

static int bad(cli *c, const char *fmt, const char *a, const char *b)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a, b);
    if (c->where) lcp_fail(c->err, LCP_INPUT_ERROR, NULL, 0, "%s: %s", c->where, msg);
    else lcp_fail(c->err, LCP_INPUT_ERROR, NULL, 0, "%s", msg);
    return LCP_INPUT_ERROR;
}

/* The one option handler of the command line and --config files: the
 * options of the solve through the option table (src/core/options.c),
 * those of files and printing here. */
static int apply_option(cli *c, int id, const char *val, const char *name)
{
    double x;
    const lcp_option *opt = lcp_option_by_id(id);
    if (opt && opt->scope == LCP_OPT_SOLVE) {
        if (lcp_option_apply(&c->o, opt, val, c->err)) return bad(c, "%s%s", c->err->msg, "");
        return 0;
    }
    switch (id) {
    case OPT_GRAPH: c->graph = val; break;
    case OPT_MAX_MEMORY: {
        size_t bytes;
        if (lcp_parse_bytes(val, &bytes) || bytes == 0)
            return bad(c, "--%s: '%s' is not a size in bytes (suffix K, M, G: e.g. 512M)", name, val);
        if (lcp_set_memory_limit(bytes)) return bad(c, "--%s: cannot set the limit (setrlimit)%s", name, "");
        break;
    }
    case OPT_OUTPUT: c->output = val; break;
    case OPT_OUTPUT_W: c->output_w = val; break;
    case OPT_JSON: c->json = 1; break;
    case OPT_INFO: c->info = 1; break;
    case OPT_FEATURES: c->features = 1; break;
    case OPT_TUNE: c->tune = 1; break;
    case OPT_ALPHA:
    case OPT_BETA:
        if (!lcp_parse_number(val, &x) || x < 0) return bad(c, "--%s: '%s' is not a non-negative number", name, val);
        if (opt->id == OPT_ALPHA) c->alpha = x;
        else c->beta = x;
        break;
    case OPT_QUIET: c->quiet = 1; break;
    case OPT_REFERENCE: c->reference = val; break;
    case OPT_REFTOL:
        if (!lcp_parse_number(val, &x) || x < 0) return bad(c, "--%s: '%s' is not a non-negative number", name, val);
        c->ref_tol = x;
        break;
    case OPT_WARM: c->warm = val; break;
    case OPT_SENSITIVITY: c->d.sensitivity = val; break;
    case OPT_SENSITIVITY_OUT: c->d.sensitivity_out = val; break;
    case OPT_ADJOINT: c->d.adjoint = val; break;
    case OPT_ADJOINT_OUT: c->d.adjoint_out = val; break;
    case OPT_SCHEDULE:
        if (lcp_schedule_parse(val, &c->schedule, c->err)) return bad(c, "%s%s", c->err->msg, "");
        break;
    case OPT_KIND:
        if (!(c->kind = lcp_kind_parse(val))) return bad(c, "--%s: unknown kind '%s' (lcp, blcp, ccp, fc3d)", name, val);
        break;
    case OPT_A: c->file[0] = val; break;
    case OPT_B: c->file[1] = val; break;
    case OPT_MU: c->file[2] = val; break;
    case OPT_LO: c->file[3] = val; break;
    case OPT_HI: c->file[4] = val; break;
    case OPT_FINDEX: c->file[5] = val; break;
    case OPT_M: c->file[6] = val; break;
    case OPT_J: c->file[7] = val; break;
    case OPT_V: c->file[8] = val; break;
    case OPT_E: c->file[9] = val; break;
    default: return bad(c, "option --%s%s cannot be used here", name, "");
    }
    return 0;
}

static int config_set(void *ctx, const char *key, const char *value, long line)
{
    cli *c = ctx;
    snprintf(c->where_buf, sizeof c->where_buf, "%s:%ld", c->config, line);
    c->where = c->where_buf;
    int rc = -1;
    for (const lcp_option *o = lcp_options; o->help; o++)
        if (o->name && !strcmp(o->name, key)) {
            if (o->id == OPT_CONFIG || o->id == OPT_HELP || o->id == OPT_VERSION || o->id == OPT_LIST)
                break;
            char *copy = lcp_strdup(value);
            if (!copy || c->nowned == (int)(sizeof c->owned / sizeof c->owned[0])) {
                free(copy);
                rc = bad(c, "too many options in a configuration%s%s", "", "");
                break;
            }
            c->owned[c->nowned++] = copy;
            rc = apply_option(c, o->id, copy, key); /* a flag's value: true or false */
            break;
        }
    if (rc < 0) rc = bad(c, "unknown option '%s' in a configuration%s", key, "");
    c->where = NULL;
    return rc;
}

/* Options of an experiment plan (src/io/plan.h): the long options of a run,
 * checked by the option handler on a scratch command line; not those that
 * name per-problem files or outputs, which bench sets itself. */
static int plan_check(void *ctx, const char *key, const char *value, int *flag, char *msg, size_t len)
{
    (void)ctx;
    static const char *const refused[] = {"output", "output-w", "trace", "json", "quiet", "info", "config", "graph",
                                          "reference", "warm-start", "cover", "mu", "lo", "hi", "findex",
                                          "list-solvers", "help", "version", "sensitivity", "sensitivity-out",
                                          "adjoint", "adjoint-out", NULL};
    for (int i = 0; refused[i]; i++)
        if (!strcmp(key, refused[i])) {
            snprintf(msg, len, "'%s' cannot be set in a plan (%s)", key,
                     !strcmp(key, "trace") ? "use traces: FOLDER"
                     : !strcmp(key, "output") ? "output: is the plan's CSV file, at the top level"
                                               : "bench sets the per-run files and outputs itself");
            return 1;
        }
    for (const lcp_option *o = lcp_options; o->help; o++)
        if (o->name && !strcmp(o->name, key)) {
            lcp_err err = {{0}};
            cli c;
            memset(&c, 0, sizeof c);
            lcp_solve_opts_default(&c.o);
            c.err = &err;
            *flag = !o->has_arg;
            if (*flag && lcp_plan_bool(value) < 0) {
                snprintf(msg, len, "'%s' takes true or false, not '%s'", key, value);
                return 1;
            }
            if (apply_option(&c, o->id, o->has_arg ? value : "", key)) {
                snprintf(msg, len, "%s", err.msg);
                return 1;
            }
            return 0;
        }
    snprintf(msg, len, "unknown key '%s' (plan keys: problems, configs, repeats, grace, output, traces; "
                       "any other key is a long option of lcpsolve --help)", key);
    return 1;
}

/* Human summary or JSON of a finished run: the pipeline's out, the
 * problem as given (p), the --reference comparison. */
typedef struct {
    const lcp_problem *p;
    const lcp_solve_out *out;
    lcp_status status;   /* the out's, or reference_mismatch */
    double parse_s, ref_diff;
    const char *message;
} run_report;

/* The summary (or --json): on stdout, or on stderr when the solution goes
 * to stdout (-o - or --output-w -), so that stdout holds it alone. */
static void report(const cli *c, const run_report *r)
{
    FILE *f = (c->output && !strcmp(c->output, "-")) || (c->output_w && !strcmp(c->output_w, "-")) ? stderr : stdout;
    const lcp_problem *p = r->p;
    const lcp_solve_out *o = r->out;
    const lcp_settings *s = &c->o.s;
    int cone = o->cone_form != LCP_CONE_NONE;
    const char *cone_form = o->cone_form == LCP_CONE_BOX ? "blcp (box friction, findex)" : "lcp (Stewart-Trinkle)";
    const char *solver = o->solver ? o->solver->name : "?";
    if (c->json) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "problem", p->source ? p->source : "");
        cJSON_AddStringToObject(j, "kind", lcp_kind_name(o->solved_kind));
        cJSON_AddNumberToObject(j, "n", o->solved_n);
        cJSON_AddNumberToObject(j, "nnz", (double)o->solved_nnz);
        cJSON_AddNumberToObject(j, "contacts", (o->solved_kind & LCP_KIND_FRICTION) ? o->solved_nc : o->solved_n);
        cJSON_AddStringToObject(j, "solver", solver);
        cJSON_AddStringToObject(j, "precond", o->precond);
        cJSON_AddStringToObject(j, "status", lcp_status_name(r->status));
        cJSON_AddNumberToObject(j, "iterations", o->iterations);
        cJSON_AddNumberToObject(j, "components", o->components);
        if (o->components > 1) {
            cJSON_AddNumberToObject(j, "rows_swept", o->rows_swept);
            cJSON_AddNumberToObject(j, "nnz_swept", o->nnz_swept);
        }
        cJSON_AddNumberToObject(j, "time_s", o->time_s);
        cJSON_AddNumberToObject(j, "parse_time_s", r->parse_s);
        cJSON_AddNumberToObject(j, "residual", isfinite(o->m.residual) ? o->m.residual : 1e308);
        cJSON_AddNumberToObject(j, "complementarity", isfinite(o->m.complementarity) ? o->m.complementarity : 1e308);
        cJSON_AddNumberToObject(j, "feasibility", isfinite(o->m.feasibility) ? o->m.feasibility : 1e308);
        cJSON_AddNumberToObject(j, "tol", s->tol);
        cJSON_AddNumberToObject(j, "threads", s->threads);
        cJSON_AddNumberToObject(j, "threads_used", o->threads_used); /* -j capped by the free CPUs */
        if (o->omega > 0) cJSON_AddNumberToObject(j, "omega", o->omega);
        if (o->reg > 0) {
            cJSON_AddNumberToObject(j, "reg", o->reg);
            cJSON_AddStringToObject(j, "residual_of", "original"); /* not of A + reg I */
        }
        if (c->reference) {
            cJSON_AddNumberToObject(j, "reference_diff", isfinite(r->ref_diff) ? r->ref_diff : 1e308);
            cJSON_AddNumberToObject(j, "ref_tol", c->ref_tol);
        }
        if (r->message && *r->message) cJSON_AddStringToObject(j, "message", r->message);
        if (c->d.done) { /* --sensitivity / --adjoint: the flags of the derivative written */
            cJSON *dv = cJSON_AddObjectToObject(j, "derivative");
            cJSON_AddNumberToObject(dv, "degenerate_rows", c->d.degenerate);
            cJSON_AddBoolToObject(dv, "minimum_norm", c->d.minimum_norm);
            cJSON_AddNumberToObject(dv, "null_space", c->d.null_space);
        }
        if (*lcp_solve_out_reason(o)) {
            cJSON_AddStringToObject(j, "auto_reason", lcp_solve_out_reason(o));
            cJSON_AddNumberToObject(j, "auto_time_s", o->auto_time_s);
            if (*o->auto_predicted) { /* the ranked configurations and their predicted seconds */
                char buf[sizeof o->auto_predicted], *save = NULL;
                snprintf(buf, sizeof buf, "%s", o->auto_predicted);
                cJSON *pr = cJSON_AddObjectToObject(j, "auto_predicted");
                for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                    char *eq = strrchr(t, '=');
                    if (!eq) continue;
                    *eq = '\0';
                    if (!cJSON_GetObjectItem(j, "auto_config")) cJSON_AddStringToObject(j, "auto_config", t);
                    cJSON_AddNumberToObject(pr, t, atof(eq + 1));
                }
            }
        }
        if (cone) {
            char cs[32];
            snprintf(cs, sizeof cs, "pyramid:%d", c->o.cone_k);
            cJSON_AddStringToObject(j, "cone", cs);
            cJSON_AddStringToObject(j, "cone_form", cone_form);
            cJSON_AddStringToObject(j, "original_kind", lcp_kind_name(p->kind));
            cJSON_AddNumberToObject(j, "original_n", p->n);
            cJSON_AddNumberToObject(j, "cone_error", isfinite(o->cone_error) ? o->cone_error : 1e308);
        }
        cJSON_AddStringToObject(j, "version", LCP_VERSION);
        char *str = cJSON_PrintUnformatted(j);
        fprintf(f, "%s\n", str ? str : "{}");
        free(str);
        cJSON_Delete(j);
        return;
    }
    if (c->quiet) return;
    fprintf(f, "problem          %s (%s, n = %d, nnz = %ld)\n", p->source ? p->source : "-", lcp_kind_name(o->solved_kind),
           o->solved_n, o->solved_nnz);
    fprintf(f, "solver           %s (precond %s, %d thread%s)", solver, o->precond, s->threads, s->threads > 1 ? "s" : "");
    if (o->omega > 0 && o->omega != 1.0) fprintf(f, ", omega = %.4g", o->omega);
    if (o->components > 1) fprintf(f, ", %d components solved apart", o->components);
    fprintf(f, "\nstatus           %s after %d iterations%s, %.3g s (parse %.3g s)\n", lcp_status_name(r->status),
           o->iterations, o->components > 1 ? " (the most of any component)" : "", o->time_s, r->parse_s);
    if (*lcp_solve_out_reason(o))
        fprintf(f, "choice           %s (%.3g s)\n", lcp_solve_out_reason(o), o->auto_time_s);
    fprintf(f, "residual         %.3e (tol %.1e)\n", o->m.residual, s->tol);
    fprintf(f, "complementarity  %.3e\nfeasibility      %.3e\n", o->m.complementarity, o->m.feasibility);
    if (cone)
        fprintf(f, "cone             pyramid:%d as %s of the %s problem, %d contacts\n"
               "cone error       %.3e (the %s residual of the mapped-back r on the original problem)\n",
               c->o.cone_k, cone_form, lcp_kind_name(p->kind), p->nc, o->cone_error, lcp_kind_name(p->kind));
    if (o->reg > 0)
        fprintf(f, "regularised      solved A + %g I in place of A (--reg); the residual above is of the original "
               "problem\n", o->reg);
    if (c->reference) fprintf(f, "reference        relative difference %.3e (ref-tol %.1e)\n", r->ref_diff, c->ref_tol);
    if (r->message && *r->message) fprintf(f, "note             %s\n", r->message);
}

static void on_signal(int sig)
{
    lcp_interrupted = 1;   /* the monitor stops the solve; the best iterate and the trace are written */
    signal(sig, SIG_DFL);  /* a second SIGINT/SIGTERM kills at once (both calls are async-signal-safe) */
}

/* Loads the problem from PROBLEM or from -A/-b/... files. */
static int load(cli *c, lcp_problem *p, lcp_err *err)
{
    int nfiles = 0;
    for (int k = 0; k < 10; k++) nfiles += c->file[k] != NULL;
    if (c->problem && nfiles)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "give either PROBLEM or -A/-b (-M/-J/-v) files, not both");
    if (c->problem) return lcp_read_problem(c->problem, c->kind, p, err);
    if (!nfiles) return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "no problem given (try lcpsolve --help)");
    int stdin_used = 0;
    for (int k = 0; k < 10; k++) {
        if (!c->file[k]) continue;
        if (!strcmp(c->file[k], "-") && stdin_used++)
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "stdin ('-') can be used for one file only");
        int rc = lcp_read_field_mtx(p, lcp_field_names[k], c->file[k], err);
        if (rc) return rc;
    }
    p->kind = c->kind;
    p->format = lcp_strdup("mtx");
    p->source = lcp_strdup(c->file[0] ? c->file[0] : c->file[7] ? c->file[7] : "-");
    return lcp_problem_finish(p, err);
}

/* --graph FILE.dot: the contact graph, nodes filled by DSATUR colour. */
static int write_graph(const lcp_problem *p, const char *path, lcp_err *err)
{
    lcp_graph g;
    int rc = lcp_graph_build(p, &g, err);
    if (rc) return rc;
    int *colour = lcp_alloc((size_t)(g.n > 0 ? g.n : 1), sizeof(int));
    if (!colour || lcp_graph_colour(&g, LCP_COLOUR_DSATUR, colour) < 0)
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (--graph)");
    else
        rc = lcp_graph_write_dot(&g, colour, path, err);
    free(colour);
    lcp_graph_free(&g);
    return rc;
}

/* SIGINT/SIGTERM: the monitors stop at their next check (the callback of
 * the settings), the best iterate and the trace are written. */
int lcp_cli_stop_on_signal(void *ctx, int iter, double time_s, const lcp_metrics *m, const char *const *columns,
                           const double *extra)
{
    (void)ctx, (void)iter, (void)time_s, (void)m, (void)columns, (void)extra;
    return lcp_interrupted != 0;
}

/* The solve command: load, the pipeline (src/core/pipeline.c), then the
 * reference, the output files and the summary. */
/* The output files, checked before any work starts: each can be created
 * where it is to go (a probe: its temporary made and removed), so that a
 * long solve does not end in "cannot write". */
static int check_outputs(const cli *c, lcp_err *err)
{
    const char *paths[] = {c->output, c->output_w, c->graph, c->d.sensitivity_out};
    for (int k = 0; k < 4; k++) {
        if (!paths[k] || !strcmp(paths[k], "-")) continue;
        int rc = lcp_outfile_probe(paths[k], err);
        if (rc) return rc;
    }
    return 0;
}

static int solve(cli *c, lcp_err *err)
{
    lcp_problem p; /* as read */
    lcp_problem_init(&p);
    lcp_solve_out out;
    memset(&out, 0, sizeof out);
    int rc = check_outputs(c, err);
    double t0 = lcp_now();
    if (!rc) rc = load(c, &p, err);
    double parse_s = lcp_now() - t0;
    double *ref = NULL, *w0 = NULL;
    int n0 = 0, exit_code = -1; /* set once a run completed */
    if (rc) goto done;
    if (c->graph && (rc = write_graph(&p, c->graph, err))) goto done;
    if (c->features && !c->info) {
        rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--features goes with info: lcpsolve info --features PROBLEM");
        goto done;
    }
    if (c->info && c->features) {
        rc = lcp_info_features(stdout, &p, c->json, err);
        goto done;
    }
    if ((rc = lcp_cli_diff_check(&c->d, &p, c->o.cone_k, err))) goto done;
    if (c->info && !c->o.cone_k) {
        rc = lcp_info_print(stdout, &p, NULL, c->json, err);
        goto done;
    }
    if (c->warm && (rc = lcp_read_mtx_vector(c->warm, &w0, &n0, err))) goto done;
    if (c->reference) {
        int nr;
        if ((rc = lcp_read_mtx_vector(c->reference, &ref, &nr, err))) goto done;
        if (nr != p.n) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, c->reference, 0, "has %d entries, the problem has %d unknowns", nr, p.n);
            goto done;
        }
    }
    c->o.s.on_iteration = lcp_cli_stop_on_signal;
    rc = lcp_pipeline_solve(&p, &c->o, w0, n0, c->warm, &out, err);
    if (*lcp_solve_out_choice(&out) && !c->json && !c->quiet && !c->info)
        fprintf(stderr, "lcpsolve: %s\n", lcp_solve_out_choice(&out));
    if (rc) goto done;
    run_report r = {.p = &p, .out = &out, .status = out.status, .parse_s = parse_s, .message = out.message};
    if (ref) {
        r.ref_diff = lcp_relative_diff(out.x, ref, p.n);
        if (r.status == LCP_SOLVED && !(r.ref_diff <= c->ref_tol)) r.status = LCP_REF_MISMATCH;
    }
    if (c->output && (rc = lcp_write_mtx_vector(c->output, out.x, p.n, "lcpsolve solution", err))) goto done;
    if (c->output_w && (rc = lcp_write_mtx_vector(c->output_w, out.w, p.n, "lcpsolve w = A x + b", err))) goto done;
    if ((c->d.sensitivity || c->d.adjoint) && (rc = lcp_cli_diff(&c->d, &p, out.x, c->o.reg, err))) goto done;
    if (c->info) { /* lcpsolve info --cone: the problem's facts and the approximation's error */
        char cone[32];
        snprintf(cone, sizeof cone, "pyramid:%d", c->o.cone_k);
        lcp_cone_facts cf = {cone,
                             out.cone_form == LCP_CONE_BOX ? "blcp (box friction, findex)" : "lcp (Stewart-Trinkle)",
                             out.solved_n, out.solver->name, lcp_status_name(r.status), out.iterations,
                             out.m.residual, out.cone_error};
        if ((rc = lcp_info_print(stdout, &p, &cf, c->json, err))) goto done;
    } else
        report(c, &r);
    exit_code = lcp_status_exit_code(r.status);
done:
    lcp_solve_out_free(&out);
    lcp_cli_diff_free(&c->d);
    free(ref);
    free(w0);
    lcp_problem_free(&p);
    if (exit_code >= 0) return exit_code;
    if (c->info && !rc) return 0;
    return lcp_status_exit_code(rc ? (lcp_status)rc : LCP_ERROR);
}

static int run(int argc, char **argv);

int main(int argc, char **argv)
{
    lcp_heap_keep(); /* the freed top of the heap kept for the next factorisation (src/core/common.h) */
#ifdef LCP_HAVE_MPI /* every process runs the command; process 0 alone speaks and writes */
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &lcp_procs);
    if (rank > 0 && (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))) {
        MPI_Abort(MPI_COMM_WORLD, 5);
        return 5;
    }
    int rc = run(argc, argv);
    MPI_Finalize();
    return rc;
#else
    return run(argc, argv);
#endif
}

/* getopt_long's tables from the option table (src/core/options.c);
 * shortopts (64 bytes) starts empty. */
static void getopt_tables(struct option longopts[128], char *shortopts)
{
    int nl = 0;
    for (const lcp_option *o = lcp_options; o->help && nl < 127; o++) {
        if (o->name) longopts[nl++] = (struct option){o->name, o->has_arg ? required_argument : no_argument, NULL, o->id};
        if (o->id < 256) {
            size_t l = strlen(shortopts);
            shortopts[l] = (char)o->id;
            shortopts[l + 1] = '\0';
            if (o->has_arg || !o->name) strcat(shortopts, ":");
        }
    }
    longopts[nl] = (struct option){NULL, 0, NULL, 0};
}

/* The command line into c: --config first (the command line overrides
 * it), then every option, then PROBLEM.  0 to go on, -1 when the command
 * is done (--help, --version, --list-solvers printed), 2 on a usage error
 * (said on stderr). */
static int parse_command_line(cli *c, int argc, char **argv)
{
    struct option longopts[128];
    char shortopts[64] = "";
    getopt_tables(longopts, shortopts);

    /* pass 1: --config first, so the command line overrides it */
    opterr = 0;
    int opt;
    const char *config = NULL;
    while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1)
        if (opt == OPT_CONFIG) config = optarg;
    if (config) {
        c->config = config;
        if (lcp_config_read(config, config_set, c, c->err)) {
            fprintf(stderr, "lcpsolve: %s\n", c->err->msg);
            return 2;
        }
    }
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        switch (opt) {
        case OPT_HELP: help(); return -1;
        case OPT_VERSION: printf("lcpsolve %s\n", LCP_VERSION); return -1;
        case OPT_LIST: list_solvers(); return -1;
        case OPT_CONFIG: break;
        case '?':
            if (optopt && optopt < 256)
                fprintf(stderr, "lcpsolve: unknown option or missing value: '-%c' (see lcpsolve --help)\n", optopt);
            else
                fprintf(stderr, "lcpsolve: unknown option or missing value: '%s' (see lcpsolve --help)\n",
                        argv[optind - 1]);
            return 2;
        default: {
            const lcp_option *o = lcp_option_by_id(opt);
            const char *name = o ? (o->name ? o->name : o->arg) : "?";
            if (apply_option(c, opt, optarg ? optarg : "", name)) {
                fprintf(stderr, "lcpsolve: %s\n", c->err->msg);
                return 2;
            }
        }
        }
    }
    if (optind < argc) c->problem = argv[optind++];
    if (optind < argc) {
        fprintf(stderr, "lcpsolve: unexpected argument '%s' (one PROBLEM at a time)\n", argv[optind]);
        return 2;
    }
    return 0;
}

/* lcpsolve sequence DIR: the options of one problem's files refused, then
 * the steps solved in order (src/cli/sequence.c).  The exit code. */
static int run_sequence(cli *c, lcp_err *err)
{
    /* what is of one problem's files; every option of the solve holds for each step */
    const char *no = c->o.trace ? "--trace" : c->output ? "--output" : c->output_w ? "--output-w" : c->reference ? "--reference"
                   : c->warm ? "--warm-start" : c->graph ? "--graph" : c->info ? "--info"
                   : c->d.sensitivity ? "--sensitivity" : c->d.adjoint ? "--adjoint"
                   : c->o.cone_k ? "--cone (the steps are warm-started by contact id from r)" : NULL;
    int rc = 0;
    if (!c->problem) {
        fprintf(stderr, "lcpsolve: sequence: no folder given (lcpsolve sequence DIR [OPTIONS])\n");
        rc = 2;
    } else if (no) {
        fprintf(stderr, "lcpsolve: sequence: %s cannot be used with a sequence\n", no);
        rc = 2;
    } else {
        c->o.s.on_iteration = lcp_cli_stop_on_signal;
        if (c->alpha < 0) c->alpha = 1;
        if (c->beta < 0) c->beta = 1;
        lcp_sequence_opts so = {.dir = c->problem, .o = &c->o, .kind = c->kind, .schedule = &c->schedule,
                                .json = c->json, .quiet = c->quiet, .tune = c->tune, .alpha = c->alpha,
                                .beta = c->beta};
        rc = lcp_sequence_solve(&so, err);
        if (err->msg[0]) fprintf(stderr, "lcpsolve: %s\n", err->msg);
    }
    return rc;
}

static int run(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "generate") && !strcmp(argv[2], "sequence"))
        return lcp_sequence_generate_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "generate")) return lcp_generate_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "tune")) return lcp_tune_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "batch")) { /* its monitors stop on a signal too, and write what they have */
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
        return lcp_batch_main(argc - 1, argv + 1);
    }
    if (argc > 1 && !strcmp(argv[1], "bench")) return lcp_bench_main(argc - 1, argv + 1, run, plan_check);
    int info_cmd = argc > 1 && !strcmp(argv[1], "info");
    int seq_cmd = argc > 1 && !strcmp(argv[1], "sequence");
    if (info_cmd || seq_cmd) argc--, argv++;

    lcp_err err = {{0}};
    cli c;
    memset(&c, 0, sizeof c);
    lcp_solve_opts_default(&c.o);
    c.ref_tol = 1e-6;
    c.alpha = c.beta = -1; /* not given */
    c.err = &err;
    c.info = info_cmd;

    int rc = parse_command_line(&c, argc, argv);
    if (rc) {
        if (rc < 0) rc = 0; /* --help, --version, --list-solvers */
        goto out;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
#ifdef LCP_HAVE_MPI
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank > 0) c.output = c.output_w = c.o.trace = c.graph = NULL; /* process 0 writes */
#endif
    if (seq_cmd) {
        rc = run_sequence(&c, &err);
        goto out;
    }
    if (c.tune || c.alpha >= 0 || c.beta >= 0) {
        fprintf(stderr, "lcpsolve: --tune, --alpha and --beta apply to lcpsolve sequence DIR\n");
        rc = 2;
        goto out;
    }
    if (c.schedule.n) {
        fprintf(stderr, "lcpsolve: --schedule applies to lcpsolve sequence DIR (steps by progress)\n");
        rc = 2;
        goto out;
    }
    rc = solve(&c, &err);
    if (err.msg[0]) fprintf(stderr, "lcpsolve: %s\n", err.msg);
out:
    for (int k = 0; k < c.nowned; k++) free(c.owned[k]);
    return rc;
}
