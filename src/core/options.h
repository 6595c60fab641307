/* src/core/options.h: the one option table (src/core/options.c).
 *
 * Every long option of lcpsolve is a row here: getopt's table and --help
 * of the command line (src/cli/), --config files, the keys of a bench
 * plan, lcps_settings_set() of the public API (src/core/api.c), and the
 * OPTIONS section of man/lcpsolve.1 (tests/e2e/options_table.sh checks
 * that every row is there) all come from it.
 *
 * An option is of one of two scopes:
 *  - LCP_OPT_SOLVE: a setting of the solve (lcp_solve_opts), applied by
 *    lcp_option_apply() with the same checks and messages everywhere;
 *  - LCP_OPT_CLI: about the command line's files and printing (-o, --json,
 *    --reference, -A, ...), or the process (--max-memory); the command
 *    line applies them itself, and lcps_settings_set() refuses them.
 */
#ifndef LCPSOLVE_OPTIONS_H
#define LCPSOLVE_OPTIONS_H

#include "pipeline.h"

enum {
    OPT_SOLVER = 's', OPT_PRECOND = 'p', OPT_TOL = 't', OPT_MAXITER = 'n', OPT_THREADS = 'j',
    OPT_OUTPUT = 'o', OPT_HELP = 'h', OPT_A = 'A', OPT_B = 'b', OPT_M = 'M', OPT_J = 'J', OPT_V = 'v',
    OPT_E = 'e',
    OPT_OMEGA = 256, OPT_TIMELIMIT, OPT_TRACE, OPT_OUTPUT_W, OPT_JSON, OPT_REFERENCE, OPT_REFTOL, OPT_WARM,
    OPT_CONFIG, OPT_LIST, OPT_VERSION, OPT_MU, OPT_LO, OPT_HI, OPT_FINDEX, OPT_KIND, OPT_INFO, OPT_QUIET,
    OPT_COVER, OPT_LINSOLVE, OPT_LOCAL, OPT_RHO, OPT_SHUFFLE, OPT_WARM_FACTOR, OPT_DT_RATIO, OPT_CYCLE, OPT_INNER,
    OPT_CRASH, OPT_CONE, OPT_ORDER, OPT_GRAPH, OPT_DECOMPOSE, OPT_REG, OPT_SCHEDULE, OPT_ADAPTIVE,
    OPT_MAX_MEMORY,
    OPT_SENSITIVITY, OPT_SENSITIVITY_OUT, OPT_ADJOINT, OPT_ADJOINT_OUT,
    OPT_AUTO_MODEL, OPT_FEATURES, OPT_TUNE, OPT_ALPHA, OPT_BETA,
};

enum { LCP_OPT_SOLVE = 1, LCP_OPT_CLI = 2 };

typedef struct {
    const char *name;   /* the long name; NULL for the short-only file options (-A, -b, ...) */
    int has_arg, id;    /* id: the short letter, or an OPT_ above 255 */
    const char *arg;    /* the value's name in --help ("N", "FILE", ...), NULL for a flag */
    const char *help;   /* one line; NULL ends the table */
    int scope;          /* LCP_OPT_SOLVE or LCP_OPT_CLI */
} lcp_option;

extern const lcp_option lcp_options[];

/* The row of a long name, or NULL. */
const lcp_option *lcp_option_find(const char *name);
/* The row of an id, or NULL. */
const lcp_option *lcp_option_by_id(int id);

/* Applies an LCP_OPT_SOLVE option to o: val is the option's value ("" or
 * "true"/"false" for a flag); the string is kept, not copied (the caller
 * keeps it alive as long as o).  0, or LCP_INPUT_ERROR with a one-line
 * message ("--tol: 'x' is not a positive number").  An LCP_OPT_CLI option
 * is refused, saying so. */
int lcp_option_apply(lcp_solve_opts *o, const lcp_option *opt, const char *val, lcp_err *err);

/* 1 when solver sv reads the LCP_OPT_SOLVE option opt (its answer can
 * depend on it), 0 when it ignores it or the pipeline refuses it for sv
 * (--order); 0 for an LCP_OPT_CLI option.  The data: options.c. */
int lcp_option_read_by(const lcp_option *opt, const lcp_solver *sv);

#endif
