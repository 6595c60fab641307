/* src/io/plan.h: experiment plans (`lcpsolve bench PLAN.yaml`), read from
 * YAML through libyaml (src/io/plan.c).
 *
 *   problems:              # paths and globs, relative to the plan's folder
 *     - ../problems/column-*
 *   configs:               # solver configurations: keys are long option names
 *     - {name: pgs, solver: pgs}
 *     - {name: mprgp-ichol, solver: mprgp, precond: ichol}
 *   tol: 1e-8              # any other long option: a default for every config
 *   repeats: 3
 *   grace: 10              # seconds past time-limit before a run is killed
 *   output: results.csv    # relative to the plan
 *   traces: traces/        # optional: one --trace CSV a run, CONFIG__PROBLEM.csv
 *
 * Reading checks everything that can be checked without running: the YAML,
 * the shape, unknown or repeated keys, every option value (through the
 * caller's check function: the option handler of the command line), that
 * each glob matches at least one problem and each path exists, and that
 * configuration names are unique.  Errors: "FILE:LINE: reason",
 * LCP_INPUT_ERROR.
 */
#ifndef LCPSOLVE_PLAN_H
#define LCPSOLVE_PLAN_H

#include "../core/common.h"

typedef struct {
    char *key, *value;
    long line;
    int flag; /* an option without argument (shuffle): value is true or false */
} lcp_plan_opt;

typedef struct {
    char *name;
    long line;
    lcp_plan_opt *opt;
    int nopt;
} lcp_plan_config;

typedef struct {
    char *path; /* as found: the plan's folder joined with the pattern's match */
    char *name; /* short, unique, file-name safe: the basename without .dat/.json/.hdf5/.h5 */
    long line;  /* of the pattern that matched it */
} lcp_plan_problem;

typedef struct {
    char *file, *dir; /* the plan file and its folder */
    lcp_plan_problem *problems;
    int nproblems;
    lcp_plan_config *configs;
    int nconfigs;
    lcp_plan_opt *defaults; /* plan-level options, before each config's own */
    int ndefaults;
    int repeats;            /* default 1 */
    double grace;           /* default 10 */
    char *output;           /* resolved against dir; default dir/results.csv */
    char *traces;           /* resolved against dir; NULL without traces */
} lcp_plan;

/* check(ctx, key, value, &flag, msg, len): 0 when key is an option a plan
 * may set and value fits it (flag set to 1 for options without argument),
 * otherwise non-zero with a one-line reason in msg.  NULL: every key taken. */
typedef int (*lcp_plan_check_fn)(void *ctx, const char *key, const char *value, int *flag, char *msg, size_t len);

int lcp_plan_read(const char *path, lcp_plan_check_fn check, void *ctx, lcp_plan *plan, lcp_err *err);
void lcp_plan_free(lcp_plan *plan);

/* The value a run of configuration k gets for key: the configuration's own,
 * else the plan's default, else NULL. */
const char *lcp_plan_value(const lcp_plan *plan, int k, const char *key);

/* YAML-style truth of a flag value: true/yes/on/1 -> 1, false/no/off/0 -> 0, else -1. */
int lcp_plan_bool(const char *value);

#endif
