/* src/main.c: the command line: options, dispatch, the summary, exit codes.
 *
 *   lcpsolve [OPTIONS] PROBLEM
 *   lcpsolve [OPTIONS] -A A.mtx -b b.mtx [--mu mu.mtx] ...
 *   lcpsolve info PROBLEM          lcpsolve generate SCENE ... -o DIR
 *   lcpsolve batch [OPTIONS] DIR   (src/batch.c)
 *   lcpsolve bench [OPTIONS] PLAN.yaml  (src/bench.c: each run calls main again in a child)
 *
 * Everything else lives in the module its name says: reading in src/io/,
 * checks in src/problem.c, residuals in src/verify.c, solvers in
 * src/solvers/ (one registry table), traces in src/trace.c.
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
#include "choose.h"
#include "cone.h"
#include "config.h"
#include "generate.h"
#include "info.h"
#include "io/io.h"
#include "sequence.h"
#include "solvers/solver.h"
#include "graph/decompose.h"
#include "sparse_factor.h"

extern volatile sig_atomic_t lcp_interrupted;

/* Every option: the single source of getopt's table and of --help. */
enum {
    OPT_SOLVER = 's', OPT_PRECOND = 'p', OPT_TOL = 't', OPT_MAXITER = 'n', OPT_THREADS = 'j',
    OPT_OUTPUT = 'o', OPT_HELP = 'h', OPT_A = 'A', OPT_B = 'b', OPT_M = 'M', OPT_J = 'J', OPT_V = 'v',
    OPT_E = 'e',
    OPT_OMEGA = 256, OPT_TIMELIMIT, OPT_TRACE, OPT_OUTPUT_W, OPT_JSON, OPT_REFERENCE, OPT_REFTOL, OPT_WARM,
    OPT_CONFIG, OPT_LIST, OPT_VERSION, OPT_MU, OPT_LO, OPT_HI, OPT_FINDEX, OPT_KIND, OPT_INFO, OPT_QUIET,
    OPT_COVER, OPT_LINSOLVE, OPT_LOCAL, OPT_RHO, OPT_SHUFFLE, OPT_WARM_FACTOR, OPT_DT_RATIO, OPT_CYCLE, OPT_INNER, OPT_CRASH, OPT_CONE,
    OPT_ORDER, OPT_GRAPH, OPT_DECOMPOSE, OPT_REG, OPT_SCHEDULE, OPT_ADAPTIVE,
    OPT_MAX_MEMORY,
};

typedef struct {
    const char *name;
    int has_arg, id;
    const char *arg, *help;
} option_doc;

static const option_doc options[] = {
    {"solver", 1, OPT_SOLVER, "NAME", "solver (default auto; see --list-solvers)"},
    {"precond", 1, OPT_PRECOND, "NAME", "preconditioner (default none; see --list-solvers)"},
    {"tol", 1, OPT_TOL, "X", "stop when the residual <= X (default 1e-8)"},
    {"max-iter", 1, OPT_MAXITER, "N", "iteration limit (default 100000)"},
    {"omega", 1, OPT_OMEGA, "W|auto", "relaxation (psor: default auto, the estimated optimum; sgs: 1; jacobi: 1/lmax)"},
    {"threads", 1, OPT_THREADS, "N", "OpenMP threads (default 1)"},
    {"time-limit", 1, OPT_TIMELIMIT, "S", "stop after S seconds of solving"},
    {"max-memory", 1, OPT_MAX_MEMORY, "BYTES", "cap the memory of the run (suffix K, M, G): refused at load (exit 2), else out of memory (exit 5)"},
    {"reg", 1, OPT_REG, "EPS",
     "Tikhonov regularisation: solve A + EPS I (changes the problem; the residual reported is the original's)"},
    {"trace", 1, OPT_TRACE, "FILE.csv", "write one CSV row per iteration"},
    {"output", 1, OPT_OUTPUT, "FILE", "write the solution (lambda or r) as a Matrix Market array"},
    {"output-w", 1, OPT_OUTPUT_W, "FILE", "write w = A lambda + b (or u) as a Matrix Market array"},
    {"json", 0, OPT_JSON, NULL, "print one JSON object instead of the summary"},
    {"reference", 1, OPT_REFERENCE, "FILE", "compare the solution with a reference (.mtx vector)"},
    {"ref-tol", 1, OPT_REFTOL, "X", "largest relative difference to --reference (default 1e-6)"},
    {"warm-start", 1, OPT_WARM, "FILE", "start from this vector (.mtx)"},
    {"warm-factor", 1, OPT_WARM_FACTOR, "F", "scale the --warm-start vector by F (default 1; 0.8-0.95 typical)"},
    {"dt-ratio", 1, OPT_DT_RATIO, "R", "scale the --warm-start impulses by the time-step ratio new/old (default 1)"},
    {"config", 1, OPT_CONFIG, "FILE.yaml", "read options from a YAML mapping (the command line wins)"},
    {"cover", 1, OPT_COVER, "FILE", "lemke: the covering vector (.mtx, all entries > 0; default all ones)"},
    {"linsolve", 1, OPT_LINSOLVE, "auto|dense|sparse|pcg", "linear systems of ipm, the Newton solvers and lemke (default auto; pcg: ipm)"},
    {"cycle", 1, OPT_CYCLE, "V|W", "multigrid cycle of -p mg and pmg (default V)"},
    {"order", 1, OPT_ORDER, "NAME", "sweep order: natural, rcm, amd, nd, colour, dsatur (colour classes: parallel on -j); factorisations: natural, amd, nd"},
    {"decompose", 1, OPT_DECOMPOSE, "auto|on|off",
     "solve each connected component on its own (auto, the default: when there are several, n >= 200 and no --trace)"},
    {"graph", 1, OPT_GRAPH, "FILE.dot", "write the contact graph for Graphviz (nodes filled by DSATUR colour)"},
    {"local", 1, OPT_LOCAL, "projection|newton|exact", "nsgs: the per-contact solver (default exact)"},
    {"rho", 1, OPT_RHO, "X", "nsgs --local projection: the step (default 1/max diag of W_ii); admm: the starting penalty"},
    {"inner", 1, OPT_INNER, "NAME", "fixed-point: the ccp solver of each outer step (default nsgs)"},
    {"crash", 1, OPT_CRASH, "auto|none|NAME", "lemke (sparse path), pivot (symmetric A): the start basis / clamped set from a guess (auto: the warm start, else ipm's answer; NAME: that lcp solver's; none: B = I / from scratch)"},
    {"schedule", 1, OPT_SCHEDULE, "SPEC",
     "lcpsolve sequence: per-step caps or tolerances by progress, e.g. 0:5,0.5:20 or 0:1e-2,0.8:1e-6"},
    {"adaptive", 1, OPT_ADAPTIVE, "FRAC",
     "stop (status stalled) when an iteration improves the residual by less than FRAC of it"},
    {"shuffle", 0, OPT_SHUFFLE, NULL, "nsgs: a new (seeded, reproducible) contact order each sweep"},
    {"cone", 1, OPT_CONE, "pyramid:K", "solve a K-facet pyramid approximation of the friction cones (4: box blcp)"},
    {"kind", 1, OPT_KIND, "KIND", "lcp, blcp, ccp or fc3d (when the files do not say)"},
    {"mu", 1, OPT_MU, "FILE", "friction coefficients (one a contact; blcp with findex: one a row)"},
    {"lo", 1, OPT_LO, "FILE", "blcp lower bounds (|x| >= 1e300 means infinite)"},
    {"hi", 1, OPT_HI, "FILE", "blcp upper bounds"},
    {"findex", 1, OPT_FINDEX, "FILE", "blcp friction index: row j (0-based) or -1, per row"},
    {"info", 0, OPT_INFO, NULL, "print facts about the problem instead of solving it"},
    {"quiet", 0, OPT_QUIET, NULL, "no summary on stdout (the exit code still tells)"},
    {"list-solvers", 0, OPT_LIST, NULL, "list the solvers, the kinds they solve and their preconditioners"},
    {"help", 0, OPT_HELP, NULL, "print this help"},
    {"version", 0, OPT_VERSION, NULL, "print the version"},
    {NULL, 0, 'A', "FILE", "the matrix A (Matrix Market)"},
    {NULL, 0, 'b', "FILE", "the vector b"},
    {NULL, 0, 'M', "FILE", "factored form: block-diagonal mass matrix"},
    {NULL, 0, 'J', "FILE", "factored form: contact Jacobian"},
    {NULL, 0, 'v', "FILE", "factored form: free velocity"},
    {NULL, 0, 'e', "FILE", "factored form: restitution/stabilisation term"},
    {NULL, 0, 0, NULL, NULL},
};

typedef struct {
    lcp_settings s;
    double warm_factor, dt_ratio;
    const char *graph;
    int order_given, order_named; /* order_named: --order was given, natural too */
    int decompose;                /* -1 auto, 0 off, 1 on */
    lcp_order_method order;
    const char *solver, *precond, *trace, *output, *output_w, *reference, *warm, *config, *problem, *cover;
    const char *file[10]; /* A b mu lo hi findex M J v e, from the command line */
    double ref_tol;
    double reg;        /* --reg EPS, 0 for none */
    int json, info, quiet;
    int cone_k;        /* --cone pyramid:K, 0 for none */
    int sequence;      /* lcpsolve sequence DIR */
    lcp_schedule schedule; /* --schedule (sequence) */
    lcp_kind kind;
    const char *where; /* "FILE:LINE" prefix for config errors, NULL for the command line */
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
           "manifest, a Siconos .dat file or an FCLIB .hdf5 file.  '-' means stdin/stdout.\n\nOptions:\n");
    for (const option_doc *o = options; o->help; o++) {
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
        printf("%-11s %-17s precond: %-24s %s\n", (*s)->name, kinds, lcp_solver_precond_names(*s), (*s)->summary);
    }
}

static int parse_double(const char *s, double *x)
{
    char *end;
    errno = 0;
    *x = strtod(s, &end);
    return end != s && *end == '\0' && errno == 0 && isfinite(*x);
}

static int parse_int(const char *s, int *x)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < 0 || v > 2147483647L) return 0;
    *x = (int)v;
    return 1;
}

static int bad(cli *c, const char *fmt, const char *a, const char *b)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a, b);
    if (c->where) lcp_fail(c->err, LCP_INPUT_ERROR, NULL, 0, "%s: %s", c->where, msg);
    else lcp_fail(c->err, LCP_INPUT_ERROR, NULL, 0, "%s", msg);
    return LCP_INPUT_ERROR;
}

/* The one option handler, for the command line and for --config files. */
/* --max-memory: what a solve needs beyond the problem, roughly: vectors and
 * sparse copies of A, and the n x n dense matrices of the pivoting solvers
 * and of the dense linear solves (--linsolve dense, or auto up to n = 1000). */
static double solve_memory(const lcp_solver *sv, const lcp_problem *p, const lcp_settings *s)
{
    double n = p->n, nnz = (double)lcp_csr_nnz(&p->A);
    double need = nnz * 12.0 * 4 + n * 8.0 * 40;
    int dense = !strcmp(sv->name, "lemke") || !strcmp(sv->name, "pivot") ||
                ((s->linsolve == LCP_LINSOLVE_DENSE || (s->linsolve == LCP_LINSOLVE_AUTO && p->n <= 1000)) &&
                 (!strcmp(sv->name, "ipm") || !strncmp(sv->name, "newton", 6)));
    return dense ? need + 2.0 * n * n * 8.0 : need;
}

static int apply_option(cli *c, int id, const char *val, const char *name)
{
    double x;
    int k;
    switch (id) {
    case OPT_SOLVER:
        if (strcmp(val, "auto") && !lcp_solver_find(val))
            return bad(c, "unknown solver '%s' (see lcpsolve --list-solvers)%s", val, "");
        c->solver = val;
        break;
    case OPT_PRECOND:
        if (strcmp(val, "none") && !lcp_precond_find(val))
            return bad(c, "unknown preconditioner '%s' (this build has: %s)", val, lcp_precond_names());
        c->precond = val;
        c->s.precond = lcp_precond_find(val);
        break;
    case OPT_WARM_FACTOR:
    case OPT_DT_RATIO:
        if (!parse_double(val, &x) || x < 0) return bad(c, "--%s: '%s' is not a non-negative number", name, val);
        if (id == OPT_WARM_FACTOR) c->warm_factor = x;
        else c->dt_ratio = x;
        break;
    case OPT_ORDER:
        if (lcp_order_parse(val, &c->order))
            return bad(c, "--%s: '%s' must be natural, rcm, amd, nd, colour or dsatur", name, val);
        c->order_given = c->order != LCP_ORDER_NATURAL;
        c->order_named = 1;
        break;
    case OPT_GRAPH: c->graph = val; break;
    case OPT_DECOMPOSE:
        if (!strcmp(val, "auto")) c->decompose = -1;
        else if (!strcmp(val, "on")) c->decompose = 1;
        else if (!strcmp(val, "off")) c->decompose = 0;
        else return bad(c, "--%s: '%s' must be auto, on or off", name, val);
        break;
    case OPT_CYCLE:
        if (!strcmp(val, "V") || !strcmp(val, "v")) c->s.mg_cycle = 1;
        else if (!strcmp(val, "W") || !strcmp(val, "w")) c->s.mg_cycle = 2;
        else return bad(c, "--%s: '%s' must be V or W", name, val);
        break;
    case OPT_TOL:
        if (!parse_double(val, &x) || x <= 0) return bad(c, "--%s: '%s' is not a positive number", name, val);
        c->s.tol = x;
        break;
    case OPT_MAXITER:
        if (!parse_int(val, &k)) return bad(c, "--%s: '%s' is not a non-negative integer", name, val);
        c->s.max_iter = k;
        break;
    case OPT_OMEGA:
        if (!strcmp(val, "auto")) {
            c->s.omega_auto = 1;
            break;
        }
        if (!parse_double(val, &x) || x <= 0 || x >= 2)
            return bad(c, "--%s: '%s' must be 'auto' or a number in (0, 2)", name, val);
        c->s.omega = x;
        c->s.omega_auto = 0;
        break;
    case OPT_THREADS:
        if (!parse_int(val, &k) || k < 1) return bad(c, "--%s: '%s' is not a positive integer", name, val);
        c->s.threads = k;
        break;
    case OPT_REG:
        if (!parse_double(val, &x) || x < 0) return bad(c, "--%s: '%s' is not a non-negative number", name, val);
        c->reg = x;
        break;
    case OPT_TIMELIMIT:
        if (!parse_double(val, &x) || x <= 0) return bad(c, "--%s: '%s' is not a positive number", name, val);
        c->s.time_limit = x;
        break;
    case OPT_MAX_MEMORY: {
        size_t bytes;
        if (lcp_parse_bytes(val, &bytes) || bytes == 0)
            return bad(c, "--%s: '%s' is not a size in bytes (suffix K, M, G: e.g. 512M)", name, val);
        if (lcp_set_memory_limit(bytes)) return bad(c, "--%s: cannot set the limit (setrlimit)%s", name, "");
        break;
    }
    case OPT_TRACE: c->trace = val; break;
    case OPT_OUTPUT: c->output = val; break;
    case OPT_OUTPUT_W: c->output_w = val; break;
    case OPT_JSON: c->json = 1; break;
    case OPT_INFO: c->info = 1; break;
    case OPT_QUIET: c->quiet = 1; break;
    case OPT_REFERENCE: c->reference = val; break;
    case OPT_REFTOL:
        if (!parse_double(val, &x) || x < 0) return bad(c, "--%s: '%s' is not a non-negative number", name, val);
        c->ref_tol = x;
        break;
    case OPT_WARM: c->warm = val; break;
    case OPT_COVER: c->cover = val; break;
    case OPT_LOCAL:
        if (!strcmp(val, "projection")) c->s.local = LCP_LOCAL_PROJECTION;
        else if (!strcmp(val, "newton")) c->s.local = LCP_LOCAL_NEWTON;
        else if (!strcmp(val, "exact")) c->s.local = LCP_LOCAL_EXACT;
        else return bad(c, "--%s: '%s' must be projection, newton or exact", name, val);
        break;
    case OPT_RHO:
        if (!parse_double(val, &x) || x <= 0) return bad(c, "--%s: '%s' is not a positive number", name, val);
        c->s.rho = x;
        break;
    case OPT_SHUFFLE: c->s.shuffle = 1; break;
    case OPT_SCHEDULE:
        if (lcp_schedule_parse(val, &c->schedule, c->err)) return bad(c, "%s%s", c->err->msg, "");
        break;
    case OPT_ADAPTIVE:
        if (!parse_double(val, &x) || !(x > 0 && x < 1)) return bad(c, "--%s: '%s' must be a fraction in (0, 1)", name, val);
        c->s.adaptive = x;
        break;
    case OPT_CONE:
        if (lcp_cone_parse(val, &c->cone_k, c->err)) return bad(c, "%s%s", c->err->msg, "");
        break;
    case OPT_INNER: {
        const lcp_solver *in = lcp_solver_find(val);
        if (!in) return bad(c, "--%s: unknown solver '%s' (see lcpsolve --list-solvers)", name, val);
        if (!(in->kinds & LCP_KIND_CCP))
            return bad(c, "--inner: solver '%s' does not solve ccp problems (%s)", val,
                       "fixed-point needs a ccp solver: nsgs, admm, ...");
        c->s.inner = in;
        break;
    }
    case OPT_CRASH:
        if (!strcmp(val, "auto")) {
            c->s.crash = LCP_CRASH_AUTO;
        } else if (!strcmp(val, "none")) {
            c->s.crash = LCP_CRASH_NONE;
        } else {
            const lcp_solver *by = lcp_solver_find(val);
            if (!by) return bad(c, "--%s: '%s' must be auto, none or a solver name (see lcpsolve --list-solvers)", name, val);
            if (!(by->kinds & LCP_KIND_LCP) || !strcmp(by->name, "lemke") || !by->solve)
                return bad(c, "--crash: '%s' is not a solver of lcp problems other than lemke (%s)", val, "try ipm or pgs");
            c->s.crash = LCP_CRASH_SOLVER;
            c->s.crash_by = by;
        }
        break;
    case OPT_LINSOLVE:
        if (!strcmp(val, "auto")) c->s.linsolve = LCP_LINSOLVE_AUTO;
        else if (!strcmp(val, "dense")) c->s.linsolve = LCP_LINSOLVE_DENSE;
        else if (!strcmp(val, "sparse")) c->s.linsolve = LCP_LINSOLVE_SPARSE;
        else if (!strcmp(val, "pcg")) c->s.linsolve = LCP_LINSOLVE_PCG;
        else return bad(c, "--%s: '%s' must be auto, dense, sparse or pcg", name, val);
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
    static char where[1100];
    snprintf(where, sizeof where, "%s:%ld", c->config, line);
    c->where = where;
    int rc = -1;
    for (const option_doc *o = options; o->help; o++)
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
            rc = apply_option(c, o->id, o->has_arg ? copy : "", key);
            break;
        }
    if (rc < 0) rc = bad(c, "unknown option '%s' in a configuration%s", key, "");
    c->where = NULL;
    return rc;
}

/* Options of an experiment plan (src/plan.h): the long options of a run,
 * checked by the option handler on a scratch command line; not those that
 * name per-problem files or outputs, which bench sets itself. */
static int plan_check(void *ctx, const char *key, const char *value, int *flag, char *msg, size_t len)
{
    (void)ctx;
    static const char *const refused[] = {"output", "output-w", "trace", "json", "quiet", "info", "config", "graph",
                                          "reference", "warm-start", "cover", "mu", "lo", "hi", "findex",
                                          "list-solvers", "help", "version", NULL};
    for (int i = 0; refused[i]; i++)
        if (!strcmp(key, refused[i])) {
            snprintf(msg, len, "'%s' cannot be set in a plan (%s)", key,
                     !strcmp(key, "trace") ? "use traces: FOLDER"
                     : !strcmp(key, "output") ? "output: is the plan's CSV file, at the top level"
                                               : "bench sets the per-run files and outputs itself");
            return 1;
        }
    for (const option_doc *o = options; o->help; o++)
        if (o->name && !strcmp(o->name, key)) {
            lcp_err err = {{0}};
            cli c;
            memset(&c, 0, sizeof c);
            lcp_settings_default(&c.s);
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

/* Human summary or JSON of a finished run. */
typedef struct {
    const lcp_problem *p;
    const char *solver;
    lcp_status status;
    int iterations, components;
    double rows_swept, nnz_swept; /* components > 1: lcp_info's */
    double time_s, parse_s, omega, ref_diff;
    lcp_metrics m;
    const char *message;
    /* --cone: the original problem, the form solved, the error of the mapped-back r */
    const lcp_problem *orig;
    const char *cone_form;
    double cone_error;
    const char *auto_reason; /* --solver auto: the pick and why; NULL otherwise */
    double auto_time_s;
} run_report;

static void report(const cli *c, const run_report *r)
{
    const lcp_problem *p = r->p;
    if (c->json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "problem", p->source ? p->source : "");
        cJSON_AddStringToObject(o, "kind", lcp_kind_name(p->kind));
        cJSON_AddNumberToObject(o, "n", p->n);
        cJSON_AddNumberToObject(o, "nnz", (double)lcp_csr_nnz(&p->A));
        cJSON_AddNumberToObject(o, "contacts", (p->kind & LCP_KIND_FRICTION) ? p->nc : p->n);
        cJSON_AddStringToObject(o, "solver", r->solver);
        cJSON_AddStringToObject(o, "precond", c->precond);
        cJSON_AddStringToObject(o, "status", lcp_status_name(r->status));
        cJSON_AddNumberToObject(o, "iterations", r->iterations);
        cJSON_AddNumberToObject(o, "components", r->components);
        if (r->components > 1) {
            cJSON_AddNumberToObject(o, "rows_swept", r->rows_swept);
            cJSON_AddNumberToObject(o, "nnz_swept", r->nnz_swept);
        }
        cJSON_AddNumberToObject(o, "time_s", r->time_s);
        cJSON_AddNumberToObject(o, "parse_time_s", r->parse_s);
        cJSON_AddNumberToObject(o, "residual", isfinite(r->m.residual) ? r->m.residual : 1e308);
        cJSON_AddNumberToObject(o, "complementarity", isfinite(r->m.complementarity) ? r->m.complementarity : 1e308);
        cJSON_AddNumberToObject(o, "feasibility", isfinite(r->m.feasibility) ? r->m.feasibility : 1e308);
        cJSON_AddNumberToObject(o, "tol", c->s.tol);
        cJSON_AddNumberToObject(o, "threads", c->s.threads);
        if (r->omega > 0) cJSON_AddNumberToObject(o, "omega", r->omega);
        if (p->reg > 0) {
            cJSON_AddNumberToObject(o, "reg", p->reg);
            cJSON_AddStringToObject(o, "residual_of", "original"); /* not of A + reg I */
        }
        if (c->reference) {
            cJSON_AddNumberToObject(o, "reference_diff", isfinite(r->ref_diff) ? r->ref_diff : 1e308);
            cJSON_AddNumberToObject(o, "ref_tol", c->ref_tol);
        }
        if (r->message && *r->message) cJSON_AddStringToObject(o, "message", r->message);
        if (r->auto_reason) {
            cJSON_AddStringToObject(o, "auto_reason", r->auto_reason);
            cJSON_AddNumberToObject(o, "auto_time_s", r->auto_time_s);
        }
        if (r->orig) {
            char cone[32];
            snprintf(cone, sizeof cone, "pyramid:%d", c->cone_k);
            cJSON_AddStringToObject(o, "cone", cone);
            cJSON_AddStringToObject(o, "cone_form", r->cone_form);
            cJSON_AddStringToObject(o, "original_kind", lcp_kind_name(r->orig->kind));
            cJSON_AddNumberToObject(o, "original_n", r->orig->n);
            cJSON_AddNumberToObject(o, "cone_error", isfinite(r->cone_error) ? r->cone_error : 1e308);
        }
        cJSON_AddStringToObject(o, "version", LCP_VERSION);
        char *s = cJSON_PrintUnformatted(o);
        printf("%s\n", s ? s : "{}");
        free(s);
        cJSON_Delete(o);
        return;
    }
    if (c->quiet) return;
    printf("problem          %s (%s, n = %d, nnz = %ld)\n", p->source ? p->source : "-", lcp_kind_name(p->kind),
           p->n, lcp_csr_nnz(&p->A));
    printf("solver           %s (precond %s, %d thread%s)", r->solver, c->precond, c->s.threads, c->s.threads > 1 ? "s" : "");
    if (r->omega > 0 && r->omega != 1.0) printf(", omega = %.4g", r->omega);
    if (r->components > 1) printf(", %d components solved apart", r->components);
    printf("\nstatus           %s after %d iterations%s, %.3g s (parse %.3g s)\n", lcp_status_name(r->status),
           r->iterations, r->components > 1 ? " (the most of any component)" : "", r->time_s, r->parse_s);
    if (r->auto_reason) printf("choice           %s (%.3g s)\n", r->auto_reason, r->auto_time_s);
    printf("residual         %.3e (tol %.1e)\n", r->m.residual, c->s.tol);
    printf("complementarity  %.3e\nfeasibility      %.3e\n", r->m.complementarity, r->m.feasibility);
    if (r->orig)
        printf("cone             pyramid:%d as %s of the %s problem, %d contacts\n"
               "cone error       %.3e (the %s residual of the mapped-back r on the original problem)\n",
               c->cone_k, r->cone_form, lcp_kind_name(r->orig->kind), r->orig->nc, r->cone_error,
               lcp_kind_name(r->orig->kind));
    if (p->reg > 0)
        printf("regularised      solved A + %g I in place of A (--reg); the residual above is of the original "
               "problem\n", p->reg);
    if (c->reference) printf("reference        relative difference %.3e (ref-tol %.1e)\n", r->ref_diff, c->ref_tol);
    if (r->message && *r->message) printf("note             %s\n", r->message);
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

static int solve(cli *c, lcp_err *err)
{
    lcp_problem p, pc; /* as read; its pyramid approximation (--cone) */
    lcp_problem_init(&p);
    lcp_problem_init(&pc);
    double t0 = lcp_now();
    int rc = load(c, &p, err);
    double parse_s = lcp_now() - t0;
    double *x = NULL, *ref = NULL, *cover = NULL, *rb = NULL, *ub = NULL, *xsave = NULL; /* xsave: auto's resume */
    lcp_problem *wp = &p;  /* the problem solved */
    lcp_cone_form form = LCP_CONE_NONE;
    lcp_trace trace, *tr = NULL;
    lcp_monitor mon = {0};
    lcp_order order = {0};
    int exit_code = -1; /* set once a run completed */
    if (rc) goto done;
    if (c->graph && (rc = write_graph(&p, c->graph, err))) goto done;
    if (c->info && !c->cone_k) {
        rc = lcp_info_print(stdout, &p, NULL, c->json, err);
        goto done;
    }
    if (c->cone_k) { /* the box form for K = 4 when the solver takes blcp, else Stewart-Trinkle */
        const lcp_solver *named = strcmp(c->solver, "auto") ? lcp_solver_find(c->solver) : NULL;
        form = c->cone_k == 4 && (!named || (named->kinds & LCP_KIND_BLCP)) ? LCP_CONE_BOX : LCP_CONE_STEWART_TRINKLE;
        if ((rc = lcp_cone_convert(&p, form, c->cone_k, &pc, err))) goto done;
        if (c->warm && form == LCP_CONE_STEWART_TRINKLE) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                          "--warm-start: the Stewart-Trinkle form (--cone pyramid:%d) has other unknowns than r",
                          c->cone_k);
            goto done;
        }
        wp = &pc;
    }
    if (c->reg > 0) { /* once, in the problem solved; residuals stay those of the original (verify.c) */
        if (c->solver && !strcmp(c->solver, "si")) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--reg: si works on M, J and v, not on A (use pgs)");
            goto done;
        }
        if ((rc = lcp_problem_regularise(wp, c->reg, err))) goto done;
    }
    char why[1024] = ""; /* auto's reason, then what its fallbacks did */
    lcp_auto_choice ch = {0};
    const lcp_solver *sv = NULL;
    if (strcmp(c->solver, "auto")) sv = lcp_solver_find(c->solver);
    else if ((rc = lcp_choose_auto(wp, &ch, err))) goto done;
    else {
        if (strcmp(c->precond, "none")) lcp_auto_drop_probe(&ch); /* -p is for the rules' pick */
        sv = ch.solver;
        snprintf(why, sizeof why, "%s", ch.reason);
        if (!strcmp(c->precond, "none")) { /* auto picks the preconditioner too, unless -p says */
            c->precond = ch.precond_name;
            c->s.precond = ch.precond;
        } else {
            size_t l = strlen(why);
            snprintf(why + l, sizeof why - l, "; -p %s from the command line", c->precond);
        }
    }
    if (!sv) {
        rc = *why ? lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "%s", why)
                  : lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "unknown solver '%s' (see --list-solvers)", c->solver);
        goto done;
    }
    if ((rc = lcp_solver_check(sv, wp, err))) {
        if (form) { /* say where the lcp/blcp came from */
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%.700s: --cone pyramid:%d makes it a%s", err->msg, c->cone_k,
                     form == LCP_CONE_BOX ? " blcp (K = 4 with a blcp solver)" : "n lcp (Stewart-Trinkle: try lemke)");
            snprintf(err->msg, sizeof err->msg, "%s", msg);
        }
        goto done;
    }
    if ((rc = lcp_solver_check_precond(sv, c->precond, err))) goto done;
    if (!lcp_memory_fits(solve_memory(sv, wp, &c->s))) {
        char need[32], cap[32];
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "%s on n = %d needs about %s, more than --max-memory %s", sv->name,
                      wp->n, lcp_bytes_str(solve_memory(sv, wp, &c->s), need),
                      lcp_bytes_str((double)lcp_memory_limit, cap));
        goto done;
    }
#ifdef LCP_HAVE_MPI
    int nprocs = lcp_procs;
    if (nprocs > 1 && !(sv->flags & LCP_SOLVER_DIST)) {
        rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "solver '%s' runs in one process: under mpirun with %d "
                      "processes use mpi-pgs, mpi-nsgs, mpi-jacobi or mpi-apgd", sv->name, nprocs);
        goto done;
    }
#endif
    if (c->order_named && (sv->flags & LCP_SOLVER_FACTOR)) { /* the ordering of the factorisations */
        if (c->order != LCP_ORDER_NATURAL && c->order != LCP_ORDER_AMD && c->order != LCP_ORDER_ND) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "solver '%s' takes --order natural, amd or nd (the ordering "
                          "of its sparse factorisations), not '%s'", sv->name, lcp_order_name(c->order));
            goto done;
        }
        lcp_sparse_factor_set_ordering(c->order == LCP_ORDER_NATURAL ? LCP_SF_ORDER_NATURAL
                                       : c->order == LCP_ORDER_AMD   ? LCP_SF_ORDER_AMD
                                                                     : LCP_SF_ORDER_ND);
    } else if (c->order_given) {
        if (!(sv->flags & LCP_SOLVER_ORDER)) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "solver '%s' does not take --order (the sweeping solvers do: "
                          "pgs, psor, sgs, nsgs; the factorising ones take natural, amd or nd: ipm, socp-ipm, "
                          "newton-fb, newton-min, nsn, prox, admm)", sv->name);
            goto done;
        }
        if ((rc = lcp_order_build(wp, c->order, &order, err))) goto done;
        c->s.order = &order;
    }
    if (*why && !c->json && !c->quiet && !c->info) fprintf(stderr, "lcpsolve: %s\n", why);
    x = lcp_calloc((size_t)wp->n, sizeof(double));
    if (form) {
        rb = lcp_alloc((size_t)p.n, sizeof(double));
        ub = lcp_alloc((size_t)p.n, sizeof(double));
    }
    if (!x || (form && (!rb || !ub))) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    if (c->warm) {
        double *w0;
        int n0;
        if ((rc = lcp_read_mtx_vector(c->warm, &w0, &n0, err))) goto done;
        if (n0 != wp->n) {
            free(w0);
            rc = lcp_fail(err, LCP_INPUT_ERROR, c->warm, 0, "has %d entries, the problem has %d unknowns", n0, wp->n);
            goto done;
        }
        /* the previous step's impulses, damped (--warm-factor) and scaled to
         * the new time step (--dt-ratio) */
        for (int i = 0; i < wp->n; i++) x[i] = c->warm_factor * c->dt_ratio * w0[i];
        free(w0);
    }
    if (c->cover) {
        int nc;
        if ((rc = lcp_read_mtx_vector(c->cover, &cover, &nc, err))) goto done;
        if (nc != wp->n) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, c->cover, 0, "has %d entries, the problem has %d unknowns", nc, wp->n);
            goto done;
        }
        for (int i = 0; i < nc; i++)
            if (!(cover[i] > 0)) {
                rc = lcp_fail(err, LCP_INPUT_ERROR, c->cover, 0, "entry %d is %g: a covering vector must be positive",
                              i + 1, cover[i]);
                goto done;
            }
        c->s.cover = cover;
    }
    if (c->reference) {
        int nr;
        if ((rc = lcp_read_mtx_vector(c->reference, &ref, &nr, err))) goto done;
        if (nr != p.n) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, c->reference, 0, "has %d entries, the problem has %d unknowns", nr, p.n);
            goto done;
        }
    }
    if (c->trace) {
        if ((rc = lcp_trace_open(&trace, c->trace, sv->columns, err))) goto done;
        tr = &trace;
    }
#ifdef _OPENMP
    omp_set_num_threads(c->s.threads);
#endif
    if (lcp_monitor_init(&mon, wp, &c->s, tr)) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    lcp_info info = {0};
    info.status = LCP_MAX_ITER;
    double ts = lcp_now();
    int ncomp = 1;
    if (c->decompose == 1 && c->trace) {
        rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--decompose on and --trace cannot be used together (a trace "
                                                     "follows the whole problem)");
        goto done;
    }
    /* auto: a pick that may stall runs on an iteration budget, then its fallbacks (choose.h) */
    int user_max = c->s.max_iter;
    lcp_auto_run run;
    lcp_auto_begin(&ch, sv, c->s.precond, user_max, &run);
    lcp_status status;
again:
    if (run.max_iter > 0) c->s.max_iter = run.max_iter;
    rc = -1;
    /* auto: only where it can pay (below ~200 unknowns the set-up costs more than a solve) */
    if ((c->decompose == 1 || (c->decompose < 0 && wp->n >= 200)) && !c->trace && !c->s.order &&
        !(sv->flags & LCP_SOLVER_DIST))
        rc = lcp_solve_components(sv, wp, &c->s, x, &mon, &info, &ncomp, err);
    if (rc < 0) { /* one problem, or a component that wants the whole (decompose.h) */
        ncomp = 1;
        info = (lcp_info){.status = LCP_MAX_ITER};
        rc = sv->solve(wp, &c->s, x, &mon, &info, err);
    }
    c->s.max_iter = user_max;
    if (rc) goto done;
    status = info.status == LCP_NO_SOLUTION || info.status == LCP_ERROR ? info.status : mon.status;
    if (lcp_auto_next(&ch, wp, user_max, status, isfinite(mon.best.residual), xsave != NULL, &run)) {
        size_t l = strlen(why);
        snprintf(why + l, sizeof why - l, "; %s stopped (%s after %d iterations): %s %s", sv->name,
                 lcp_status_name(status), info.iterations, run.solver->name, run.what);
        if (run.start == LCP_AUTO_FROM_BEST) {
            if (!xsave) xsave = lcp_alloc((size_t)wp->n, sizeof(double)); /* NULL: no second round */
            if (xsave) memcpy(xsave, mon.best_x, (size_t)wp->n * sizeof(double));
            memcpy(x, mon.best_x, (size_t)wp->n * sizeof(double));
        } else if (run.start == LCP_AUTO_FROM_SAVED) {
            memcpy(x, xsave, (size_t)wp->n * sizeof(double));
        } else {
            memset(x, 0, (size_t)wp->n * sizeof(double));
        }
        lcp_monitor_free(&mon);
        if (lcp_monitor_init(&mon, wp, &c->s, tr)) {
            rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
            goto done;
        }
        sv = run.solver;
        c->s.precond = run.precond;
        c->precond = c->s.precond ? c->s.precond->name : "none";
        goto again;
    }
    double solve_s = lcp_now() - ts;
    /* the answer reported is verified here, not taken from the solver; short
     * of a solution, the best iterate the monitor saw (lowest residual, not
     * the last: iterations, interrupted or diverging, need not descend) */
    if (status != LCP_SOLVED) {
        lcp_metrics mx;
        lcp_verify(wp, x, mon.w, &mx);
        if (isfinite(mon.best.residual) && mon.best.residual <= mx.residual)
            memcpy(x, mon.best_x, (size_t)wp->n * sizeof(double));
    }
    run_report r = {.p = wp, .solver = sv->name, .status = status, .iterations = info.iterations, .time_s = solve_s,
                    .components = ncomp > 0 ? ncomp : 1, .rows_swept = info.rows_swept, .nnz_swept = info.nnz_swept,
                    .parse_s = parse_s, .omega = info.omega, .message = info.message,
                    .auto_reason = *why ? why : NULL, .auto_time_s = ch.time_s};
    lcp_verify(wp, x, mon.w, &r.m);
    for (int i = 0; wp->reg > 0 && i < wp->n; i++) mon.w[i] -= wp->reg * x[i]; /* --output-w: the original w */
    const double *xout = x, *wout = mon.w; /* what --output and --output-w write */
    if (form) { /* r of the original problem, and how far it is from solving it */
        lcp_metrics cm;
        lcp_cone_map_back(&p, form, c->cone_k, x, rb);
        lcp_verify(&p, rb, ub, &cm);
        r.orig = &p;
        r.cone_form = form == LCP_CONE_BOX ? "blcp (box friction, findex)" : "lcp (Stewart-Trinkle)";
        r.cone_error = cm.residual;
        xout = rb;
        wout = ub;
    }
    if (status == LCP_SOLVED && !(r.m.residual <= c->s.tol)) status = r.status = LCP_ERROR;
    if (status == LCP_ERROR && !*info.message)
        r.message = *mon.message ? mon.message
                                 : "the iteration diverged or produced NaN: check the problem (lcpsolve info) or try "
                                   "another solver";
    if (status == LCP_TIME_LIMIT && lcp_interrupted) r.message = "interrupted";
    if (ref) {
        r.ref_diff = lcp_relative_diff(xout, ref, p.n);
        if (status == LCP_SOLVED && !(r.ref_diff <= c->ref_tol)) r.status = status = LCP_REF_MISMATCH;
    }
    if (tr) {
        tr = NULL;
        if ((rc = lcp_trace_close(&trace, err))) goto done;
    }
    if (c->output && (rc = lcp_write_mtx_vector(c->output, xout, p.n, "lcpsolve solution", err))) goto done;
    if (c->output_w && (rc = lcp_write_mtx_vector(c->output_w, wout, p.n, "lcpsolve w = A x + b", err))) goto done;
    if (c->info) { /* lcpsolve info --cone: the problem's facts and the approximation's error */
        char cone[32];
        snprintf(cone, sizeof cone, "pyramid:%d", c->cone_k);
        lcp_cone_facts cf = {cone, r.cone_form, wp->n, sv->name, lcp_status_name(status), info.iterations,
                             r.m.residual, r.cone_error};
        if ((rc = lcp_info_print(stdout, &p, &cf, c->json, err))) goto done;
    } else
        report(c, &r);
    exit_code = lcp_status_exit_code(status);
done:
    free(xsave);
    if (tr) lcp_trace_abort(tr);
    lcp_monitor_free(&mon);
    lcp_order_free(&order);
    c->s.order = NULL;
    free(x);
    free(ref);
    free(cover);
    c->s.cover = NULL;
    free(rb);
    free(ub);
    lcp_problem_free(&pc);
    lcp_problem_free(&p);
    if (exit_code >= 0) return exit_code;
    if (c->info && !rc) return 0;
    return lcp_status_exit_code(rc ? (lcp_status)rc : LCP_ERROR);
}

static int run(int argc, char **argv);

int main(int argc, char **argv)
{
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

static int run(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "generate") && !strcmp(argv[2], "sequence"))
        return lcp_sequence_generate_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "generate")) return lcp_generate_main(argc - 1, argv + 1);
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
    lcp_settings_default(&c.s);
    c.solver = "auto";
    c.precond = "none";
    c.warm_factor = 1.0;
    c.decompose = -1;
    c.dt_ratio = 1.0;
    c.ref_tol = 1e-6;
    c.err = &err;
    c.info = info_cmd;

    struct option longopts[sizeof options / sizeof options[0]];
    char shortopts[64] = "";
    int nl = 0;
    for (const option_doc *o = options; o->help; o++) {
        if (o->name) longopts[nl++] = (struct option){o->name, o->has_arg ? required_argument : no_argument, NULL, o->id};
        if (o->id < 256) {
            size_t l = strlen(shortopts);
            shortopts[l] = (char)o->id;
            shortopts[l + 1] = '\0';
            if (o->has_arg || !o->name) strcat(shortopts, ":");
        }
    }
    longopts[nl] = (struct option){NULL, 0, NULL, 0};

    /* pass 1: --config first, so the command line overrides it */
    opterr = 0;
    int opt, rc = 0;
    const char *config = NULL;
    while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1)
        if (opt == OPT_CONFIG) config = optarg;
    if (config) {
        c.config = config;
        if (lcp_config_read(config, config_set, &c, &err)) {
            fprintf(stderr, "lcpsolve: %s\n", err.msg);
            rc = 2;
            goto out;
        }
    }
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        switch (opt) {
        case OPT_HELP: help(); goto out;
        case OPT_VERSION: printf("lcpsolve %s\n", LCP_VERSION); goto out;
        case OPT_LIST: list_solvers(); goto out;
        case OPT_CONFIG: break;
        case '?':
            if (optopt && optopt < 256)
                fprintf(stderr, "lcpsolve: unknown option or missing value: '-%c' (see lcpsolve --help)\n", optopt);
            else
                fprintf(stderr, "lcpsolve: unknown option or missing value: '%s' (see lcpsolve --help)\n",
                        argv[optind - 1]);
            rc = 2;
            goto out;
        default: {
            const char *name = "?";
            for (const option_doc *o = options; o->help; o++)
                if (o->id == opt) name = o->name ? o->name : o->arg;
            if (apply_option(&c, opt, optarg ? optarg : "", name)) {
                fprintf(stderr, "lcpsolve: %s\n", err.msg);
                rc = 2;
                goto out;
            }
        }
        }
    }
    if (optind < argc) c.problem = argv[optind++];
    if (optind < argc) {
        fprintf(stderr, "lcpsolve: unexpected argument '%s' (one PROBLEM at a time)\n", argv[optind]);
        rc = 2;
        goto out;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
#ifdef LCP_HAVE_MPI
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank > 0) c.output = c.output_w = c.trace = c.graph = NULL; /* process 0 writes */
#endif
    if (seq_cmd) {
        const char *no = c.trace ? "--trace" : c.output ? "--output" : c.output_w ? "--output-w" : c.reference ? "--reference"
                       : c.warm ? "--warm-start" : c.cone_k ? "--cone" : c.graph ? "--graph" : c.order_given ? "--order"
                       : NULL;
        if (!c.problem) {
            fprintf(stderr, "lcpsolve: sequence: no folder given (lcpsolve sequence DIR [OPTIONS])\n");
            rc = 2;
        } else if (no) {
            fprintf(stderr, "lcpsolve: sequence: %s cannot be used with a sequence\n", no);
            rc = 2;
        } else {
            lcp_sequence_opts so = {.dir = c.problem, .solver = c.solver, .precond = c.precond, .s = &c.s,
                                    .schedule = &c.schedule, .warm_factor = c.warm_factor, .json = c.json,
                                    .quiet = c.quiet};
            rc = lcp_sequence_solve(&so, &err);
            if (err.msg[0]) fprintf(stderr, "lcpsolve: %s\n", err.msg);
        }
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
