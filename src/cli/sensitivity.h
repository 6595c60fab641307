/* src/cli/sensitivity.h: --sensitivity and --adjoint of the solve command:
 * the derivatives of the solution (src/diff/) read and written as Matrix
 * Market files. */
#ifndef LCPSOLVE_CLI_SENSITIVITY_H
#define LCPSOLVE_CLI_SENSITIVITY_H

#include "../core/problem.h"

/* The direction of --sensitivity, one array a variable (NULL: no change):
 * DB.mtx gives db alone; a direction file (.json) any of them. */
enum { LCP_DIR_A, LCP_DIR_B, LCP_DIR_MU, LCP_DIR_LO, LCP_DIR_HI, LCP_DIR_M, LCP_DIR_J, LCP_DIR_V, LCP_DIR_E, LCP_DIR_N };

typedef struct {
    const char *sensitivity, *sensitivity_out; /* DB.mtx or DIRECTION.json -> DX.mtx */
    const char *adjoint, *adjoint_out;         /* G.mtx -> DIR of gradients */
    double *db, *g;                            /* read by lcp_cli_diff_check */
    double *dir[LCP_DIR_N];                    /* the direction (dir[LCP_DIR_B] is db) */
    /* what lcp_cli_diff found (--json's "derivative"): done 1 once written */
    int done, degenerate, minimum_norm, null_space;
} lcp_cli_diff_opts;

/* Before the solve: the options in pairs, no --cone, the vectors (and a
 * direction file's matrices, on the pattern of the problem's) read and
 * their lengths checked against the problem (exit 2, naming the file). */
int lcp_cli_diff_check(lcp_cli_diff_opts *d, const lcp_problem *p, int cone_k, lcp_err *err);

/* After the solve: the derivatives at x (of the problem with reg on its
 * diagonal), written. */
int lcp_cli_diff(lcp_cli_diff_opts *d, const lcp_problem *p, const double *x, double reg, lcp_err *err);

void lcp_cli_diff_free(lcp_cli_diff_opts *d);

#endif
