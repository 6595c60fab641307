/* src/core/options.c: the option table and the handler of the solve's
 * options; see options.h. */
#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../io/plan.h"

const lcp_option lcp_options[] = {
    {"solver", 1, OPT_SOLVER, "NAME", "solver (default auto; see --list-solvers)", LCP_OPT_SOLVE},
    {"precond", 1, OPT_PRECOND, "NAME", "preconditioner (default none; see --list-solvers)", LCP_OPT_SOLVE},
    {"tol", 1, OPT_TOL, "X", "stop when the residual <= X (default 1e-8)", LCP_OPT_SOLVE},
    {"max-iter", 1, OPT_MAXITER, "N", "iteration limit (default 100000)", LCP_OPT_SOLVE},
    {"omega", 1, OPT_OMEGA, "W|auto", "relaxation (psor: default auto, the estimated optimum; sgs: 1; jacobi: 1/lmax)", LCP_OPT_SOLVE},
    {"threads", 1, OPT_THREADS, "N", "OpenMP threads (default 1)", LCP_OPT_SOLVE},
    {"time-limit", 1, OPT_TIMELIMIT, "S", "stop after S seconds of solving", LCP_OPT_SOLVE},
    {"max-memory", 1, OPT_MAX_MEMORY, "BYTES", "cap the memory of the run (suffix K, M, G): refused at load (exit 2), else out of memory (exit 5)", LCP_OPT_CLI},
    {"reg", 1, OPT_REG, "EPS", "Tikhonov regularisation: solve A + EPS I (changes the problem; the residual reported is the original's)", LCP_OPT_SOLVE},
    {"trace", 1, OPT_TRACE, "FILE.csv", "write one CSV row per iteration", LCP_OPT_SOLVE},
    {"output", 1, OPT_OUTPUT, "FILE", "write the solution (lambda or r) as a Matrix Market array", LCP_OPT_CLI},
    {"output-w", 1, OPT_OUTPUT_W, "FILE", "write w = A lambda + b (or u) as a Matrix Market array", LCP_OPT_CLI},
    {"json", 0, OPT_JSON, NULL, "print one JSON object instead of the summary", LCP_OPT_CLI},
    {"reference", 1, OPT_REFERENCE, "FILE", "compare the solution with a reference (.mtx vector)", LCP_OPT_CLI},
    {"ref-tol", 1, OPT_REFTOL, "X", "largest relative difference to --reference (default 1e-6)", LCP_OPT_CLI},
    {"warm-start", 1, OPT_WARM, "FILE", "start from this vector (.mtx)", LCP_OPT_CLI},
    {"warm-factor", 1, OPT_WARM_FACTOR, "F", "scale the --warm-start vector by F (default 1; 0.8-0.95 typical)", LCP_OPT_SOLVE},
    {"dt-ratio", 1, OPT_DT_RATIO, "R", "scale the --warm-start impulses by the time-step ratio new/old (default 1)", LCP_OPT_SOLVE},
    {"config", 1, OPT_CONFIG, "FILE.yaml", "read options from a YAML mapping (the command line wins)", LCP_OPT_CLI},
    {"cover", 1, OPT_COVER, "FILE", "lemke: the covering vector (.mtx, all entries > 0; default all ones)", LCP_OPT_SOLVE},
    {"linsolve", 1, OPT_LINSOLVE, "auto|dense|sparse|pcg", "linear systems of ipm, the Newton solvers and lemke (default auto; pcg: ipm)", LCP_OPT_SOLVE},
    {"cycle", 1, OPT_CYCLE, "V|W", "multigrid cycle of -p mg and pmg (default V)", LCP_OPT_SOLVE},
    {"order", 1, OPT_ORDER, "NAME", "sweep order: natural, rcm, amd, nd, colour, dsatur (colour classes: parallel on -j); factorisations: natural, amd, nd", LCP_OPT_SOLVE},
    {"decompose", 1, OPT_DECOMPOSE, "auto|on|off", "solve each connected component on its own (auto, the default: when there are several, n >= 200 and no --trace)", LCP_OPT_SOLVE},
    {"graph", 1, OPT_GRAPH, "FILE.dot", "write the contact graph for Graphviz (nodes filled by DSATUR colour)", LCP_OPT_CLI},
    {"local", 1, OPT_LOCAL, "projection|newton|exact", "nsgs: the per-contact solver (default exact)", LCP_OPT_SOLVE},
    {"rho", 1, OPT_RHO, "X", "nsgs --local projection: the step (default 1/max diag of W_ii); admm: the starting penalty", LCP_OPT_SOLVE},
    {"inner", 1, OPT_INNER, "NAME", "fixed-point: the ccp solver of each outer step (default nsgs)", LCP_OPT_SOLVE},
    {"crash", 1, OPT_CRASH, "auto|none|NAME", "lemke (sparse path), pivot (symmetric A): the start basis / clamped set from a guess (auto: the warm start, else ipm's answer; NAME: that lcp solver's; none: B = I / from scratch)", LCP_OPT_SOLVE},
    {"schedule", 1, OPT_SCHEDULE, "SPEC", "lcpsolve sequence: per-step caps or tolerances by progress, e.g. 0:5,0.5:20 or 0:1e-2,0.8:1e-6", LCP_OPT_CLI},
    {"tune", 0, OPT_TUNE, NULL, "lcpsolve sequence: each step's solver and iteration budget chosen by a bandit (reward -alpha time - beta residual)", LCP_OPT_CLI},
    {"alpha", 1, OPT_ALPHA, "X", "lcpsolve sequence --tune: the weight of a step's seconds in the reward (default 1)", LCP_OPT_CLI},
    {"beta", 1, OPT_BETA, "X", "lcpsolve sequence --tune: the weight of a step's residual in the reward (default 1)", LCP_OPT_CLI},
    {"adaptive", 1, OPT_ADAPTIVE, "FRAC", "stop (status stalled) when an iteration improves the residual by less than FRAC of it", LCP_OPT_SOLVE},
    {"shuffle", 0, OPT_SHUFFLE, NULL, "nsgs: a new (seeded, reproducible) contact order each sweep", LCP_OPT_SOLVE},
    {"cone", 1, OPT_CONE, "pyramid:K", "solve a K-facet pyramid approximation of the friction cones (4: box blcp)", LCP_OPT_SOLVE},
    {"auto-model", 1, OPT_AUTO_MODEL, "FILE", "--solver auto: predict from this model (lcpsolve tune -o FILE) instead of the built-in one", LCP_OPT_SOLVE},
    {"kind", 1, OPT_KIND, "KIND", "lcp, blcp, ccp or fc3d (when the files do not say)", LCP_OPT_CLI},
    {"mu", 1, OPT_MU, "FILE", "friction coefficients (one a contact; blcp with findex: one a row)", LCP_OPT_CLI},
    {"lo", 1, OPT_LO, "FILE", "blcp lower bounds (|x| >= 1e300 means infinite)", LCP_OPT_CLI},
    {"hi", 1, OPT_HI, "FILE", "blcp upper bounds", LCP_OPT_CLI},
    {"findex", 1, OPT_FINDEX, "FILE", "blcp friction index: row j (0-based) or -1, per row", LCP_OPT_CLI},
    {"features", 0, OPT_FEATURES, NULL, "with info: print the features --solver auto predicts from (also with --json)", LCP_OPT_CLI},
    {"info", 0, OPT_INFO, NULL, "print facts about the problem instead of solving it", LCP_OPT_CLI},
    {"quiet", 0, OPT_QUIET, NULL, "no summary on stdout (the exit code still tells)", LCP_OPT_CLI},
    {"list-solvers", 0, OPT_LIST, NULL, "list the solvers, the kinds they solve and their preconditioners", LCP_OPT_CLI},
    {"help", 0, OPT_HELP, NULL, "print this help", LCP_OPT_CLI},
    {"version", 0, OPT_VERSION, NULL, "print the version", LCP_OPT_CLI},
    {"sensitivity", 1, OPT_SENSITIVITY, "DB.mtx|DIR.json", "the derivative of the solution along a change DB of b, or along a direction file's changes of A, b, mu, lo, hi (with --sensitivity-out)", LCP_OPT_CLI},
    {"sensitivity-out", 1, OPT_SENSITIVITY_OUT, "FILE", "write the --sensitivity derivative dx as a Matrix Market array", LCP_OPT_CLI},
    {"adjoint", 1, OPT_ADJOINT, "G.mtx", "the gradients of <G, x> with respect to the problem's data (with --adjoint-out)", LCP_OPT_CLI},
    {"adjoint-out", 1, OPT_ADJOINT_OUT, "DIR", "write the --adjoint gradients into DIR: grad_A, grad_b, grad_mu, grad_lo, grad_hi (grad_M, grad_J, grad_v, grad_e)", LCP_OPT_CLI},
    {NULL, 0, 'A', "FILE", "the matrix A (Matrix Market)", LCP_OPT_CLI},
    {NULL, 0, 'b', "FILE", "the vector b", LCP_OPT_CLI},
    {NULL, 0, 'M', "FILE", "factored form: block-diagonal mass matrix", LCP_OPT_CLI},
    {NULL, 0, 'J', "FILE", "factored form: contact Jacobian", LCP_OPT_CLI},
    {NULL, 0, 'v', "FILE", "factored form: free velocity", LCP_OPT_CLI},
    {NULL, 0, 'e', "FILE", "factored form: restitution/stabilisation term", LCP_OPT_CLI},
    {NULL, 0, 0, NULL, NULL, 0},
};

const lcp_option *lcp_option_find(const char *name)
{
    for (const lcp_option *o = lcp_options; name && o->help; o++)
        if (o->name && !strcmp(o->name, name)) return o;
    return NULL;
}

const lcp_option *lcp_option_by_id(int id)
{
    for (const lcp_option *o = lcp_options; o->help; o++)
        if (o->id == id) return o;
    return NULL;
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

#define BAD(...) lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, __VA_ARGS__)

int lcp_option_apply(lcp_solve_opts *o, const lcp_option *opt, const char *val, lcp_err *err)
{
    double x;
    int k;
    const char *name = opt->name ? opt->name : opt->arg;
    if (opt->scope != LCP_OPT_SOLVE)
        return BAD("'%s' is an option of the command line (its files, its output or the whole process), not a "
                   "setting of a solve", name);
    if (!opt->has_arg) { /* a flag: "" (set) or a boolean */
        int b = *val ? lcp_plan_bool(val) : 1;
        if (b < 0) return BAD("--%s takes true or false, not '%s'", name, val);
        if (opt->id == OPT_SHUFFLE) o->s.nsgs.shuffle = b;
        return 0;
    }
    switch (opt->id) {
    case OPT_SOLVER: {
        const lcp_solver *sv = lcp_solver_find(val);
        if (strcmp(val, "auto") && !sv) return BAD("unknown solver '%s' (see lcpsolve --list-solvers)", val);
        o->solver = sv ? sv->name : "auto";
        break;
    }
    case OPT_PRECOND: {
        const lcp_precond_type *t = lcp_precond_find(val);
        if (strcmp(val, "none") && !t)
            return BAD("unknown preconditioner '%s' (this build has: %s)", val, lcp_precond_names());
        o->precond = t ? t->name : "none";
        o->s.precond = t;
        break;
    }
    case OPT_WARM_FACTOR:
    case OPT_DT_RATIO:
        if (!lcp_parse_number(val, &x) || x < 0) return BAD("--%s: '%s' is not a non-negative number", name, val);
        if (opt->id == OPT_WARM_FACTOR) o->warm_factor = x;
        else o->dt_ratio = x;
        break;
    case OPT_ORDER:
        if (lcp_order_parse(val, &o->order))
            return BAD("--%s: '%s' must be natural, rcm, amd, nd, colour or dsatur", name, val);
        o->order_named = 1;
        break;
    case OPT_DECOMPOSE:
        if (!strcmp(val, "auto")) o->decompose = -1;
        else if (!strcmp(val, "on")) o->decompose = 1;
        else if (!strcmp(val, "off")) o->decompose = 0;
        else return BAD("--%s: '%s' must be auto, on or off", name, val);
        break;
    case OPT_CYCLE:
        if (!strcmp(val, "V") || !strcmp(val, "v")) o->s.mg.cycle = 1;
        else if (!strcmp(val, "W") || !strcmp(val, "w")) o->s.mg.cycle = 2;
        else return BAD("--%s: '%s' must be V or W", name, val);
        break;
    case OPT_TOL:
        if (!lcp_parse_number(val, &x) || x <= 0) return BAD("--%s: '%s' is not a positive number", name, val);
        o->s.tol = x;
        break;
    case OPT_MAXITER:
        if (!parse_int(val, &k)) return BAD("--%s: '%s' is not a non-negative integer", name, val);
        o->s.max_iter = k;
        break;
    case OPT_OMEGA:
        if (!strcmp(val, "auto")) {
            o->s.omega_auto = 1;
            break;
        }
        if (!lcp_parse_number(val, &x) || x <= 0 || x >= 2)
            return BAD("--%s: '%s' must be 'auto' or a number in (0, 2)", name, val);
        o->s.omega = x;
        o->s.omega_auto = 0;
        break;
    case OPT_THREADS:
        if (!parse_int(val, &k) || k < 1) return BAD("--%s: '%s' is not a positive integer", name, val);
        o->s.threads = k;
        break;
    case OPT_REG:
        if (!lcp_parse_number(val, &x) || x < 0) return BAD("--%s: '%s' is not a non-negative number", name, val);
        o->reg = x;
        break;
    case OPT_TIMELIMIT:
        if (!lcp_parse_number(val, &x) || x <= 0) return BAD("--%s: '%s' is not a positive number", name, val);
        o->s.time_limit = x;
        break;
    case OPT_TRACE: o->trace = *val ? val : NULL; break;
    case OPT_AUTO_MODEL: o->auto_model = *val ? val : NULL; break;
    case OPT_COVER: o->cover = *val ? val : NULL; break;
    case OPT_LOCAL:
        if (!strcmp(val, "projection")) o->s.nsgs.local = LCP_LOCAL_PROJECTION;
        else if (!strcmp(val, "newton")) o->s.nsgs.local = LCP_LOCAL_NEWTON;
        else if (!strcmp(val, "exact")) o->s.nsgs.local = LCP_LOCAL_EXACT;
        else return BAD("--%s: '%s' must be projection, newton or exact", name, val);
        break;
    case OPT_RHO:
        if (!lcp_parse_number(val, &x) || x <= 0) return BAD("--%s: '%s' is not a positive number", name, val);
        o->s.nsgs.rho = o->s.admm.rho = x;
        break;
    case OPT_ADAPTIVE:
        if (!lcp_parse_number(val, &x) || !(x > 0 && x < 1)) return BAD("--%s: '%s' must be a fraction in (0, 1)", name, val);
        o->s.adaptive = x;
        break;
    case OPT_CONE: return lcp_cone_parse(val, &o->cone_k, err);
    case OPT_INNER: {
        const lcp_solver *in = lcp_solver_find(val);
        if (!in) return BAD("--%s: unknown solver '%s' (see lcpsolve --list-solvers)", name, val);
        if (!(in->kinds & LCP_KIND_CCP))
            return BAD("--inner: solver '%s' does not solve ccp problems (fixed-point needs a ccp solver: nsgs, "
                       "admm, ...)", val);
        o->s.fixed_point.inner = in;
        break;
    }
    case OPT_CRASH:
        if (!strcmp(val, "auto")) {
            o->s.crash.mode = LCP_CRASH_AUTO;
        } else if (!strcmp(val, "none")) {
            o->s.crash.mode = LCP_CRASH_NONE;
        } else {
            const lcp_solver *by = lcp_solver_find(val);
            if (!by) return BAD("--%s: '%s' must be auto, none or a solver name (see lcpsolve --list-solvers)", name, val);
            if (!(by->kinds & LCP_KIND_LCP) || !strcmp(by->name, "lemke") || !by->solve)
                return BAD("--crash: '%s' is not a solver of lcp problems other than lemke (try ipm or pgs)", val);
            o->s.crash.mode = LCP_CRASH_SOLVER;
            o->s.crash.by = by;
        }
        break;
    case OPT_LINSOLVE:
        if (!strcmp(val, "auto")) o->s.linsolve = LCP_LINSOLVE_AUTO;
        else if (!strcmp(val, "dense")) o->s.linsolve = LCP_LINSOLVE_DENSE;
        else if (!strcmp(val, "sparse")) o->s.linsolve = LCP_LINSOLVE_SPARSE;
        else if (!strcmp(val, "pcg")) o->s.linsolve = LCP_LINSOLVE_PCG;
        else return BAD("--%s: '%s' must be auto, dense, sparse or pcg", name, val);
        break;
    default: return BAD("option --%s cannot be used here", name);
    }
    return 0;
}

/* Which solvers read a solve option, as data: the options that only some
 * solvers read, each with the solvers that do.  The others ignore it (the
 * same answer, bit for bit, as without it) or refuse it (--cone, --reg;
 * and --order, whose readers come from the registry's flags: the solvers
 * that sweep in an order or factorise).  An LCP_OPT_SOLVE option not
 * listed here is read by every solver: the pipeline applies it (tol,
 * max-iter, trace, warm-factor, decompose, ...).  lcps_option_read_by
 * gives it to the Python package (lcpsolve.solvers(), options(solver));
 * tests/python/test_options.py checks the lists against solves. */
static const struct {
    const char *option, *solvers; /* "!a,b": every solver but a and b */
} option_readers[] = {
    {"omega", "psor,sgs,jacobi,nsgs,admm,fixed-point"}, /* fixed-point: its inner nsgs */
    {"linsolve", "lemke,ipm,newton-fb,newton-min"},
    {"cycle", "pmg,ipm,mprgp"}, /* ipm and mprgp: with -p mg */
    {"local", "nsgs,bgs,fixed-point"},
    {"shuffle", "nsgs,fixed-point"},
    {"rho", "nsgs,admm,fixed-point"},
    {"inner", "fixed-point"},
    {"crash", "lemke,pivot"},
    {"cover", "lemke"},
    {"reg", "!si"}, /* si works on M, J, v, not on A */
    /* the pyramid's blcp with findex friction rows */
    {"cone", "pgs,psor,sgs,jacobi,lemke,pivot,ipm,newton-fb,newton-min,bgs"},
    {"auto-model", ""}, /* --solver auto's, no solver's */
    {NULL, NULL},
};

static int in_list(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *s = list; *s;) {
        const char *e = strchr(s, ',');
        size_t l = e ? (size_t)(e - s) : strlen(s);
        if (l == len && !strncmp(s, name, len)) return 1;
        if (!e) break;
        s = e + 1;
    }
    return 0;
}

int lcp_option_read_by(const lcp_option *opt, const lcp_solver *sv)
{
    if (!opt || !sv || opt->scope != LCP_OPT_SOLVE) return 0;
    if (opt->id == OPT_ORDER) return (sv->flags & (LCP_SOLVER_ORDER | LCP_SOLVER_FACTOR)) != 0;
    for (int k = 0; option_readers[k].option; k++)
        if (opt->name && !strcmp(option_readers[k].option, opt->name)) {
            const char *list = option_readers[k].solvers;
            return *list == '!' ? !in_list(list + 1, sv->name) : in_list(list, sv->name);
        }
    return 1;
}
