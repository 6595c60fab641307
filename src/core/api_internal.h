/* src/core/api_internal.h: what other parts of the library (src/diff/)
 * need of the public handles of src/core/api.c. */
#ifndef LCPSOLVE_API_INTERNAL_H
#define LCPSOLVE_API_INTERNAL_H

#include "../../include/lcpsolve.h"
#include "auto.h"
#include "problem.h"

/* The problem of a handle, checked (lcp_problem_finish; NULL and e set when
 * it fails); *perm: entry k of the caller's val -> A.x[perm[k]] (NULL:
 * A.x's order), *nval the caller's entries. */
const lcp_problem *lcp_api_problem(const lcps_problem *h, const int **perm, long *nval, lcp_err *e);
/* The setting "reg" (0: none or s NULL). */
double lcp_api_settings_reg(const lcps_settings *s);
/* s's options (not NULL) */
const struct lcp_solve_opts *lcp_api_settings_opts(const lcps_settings *s);
/* lcps_solve with auto's choice given (another problem's of the same
 * pattern: a batch) or the one made copied to made (either NULL: none);
 * x_into: lcps_solve_into's arrays (x_into, w_into), NULL for lcps_solve's. */
int lcp_api_solve(const lcps_problem *h, const lcps_settings *s, const double *x0, lcps_result *r, char *err,
                  size_t errlen, const lcp_auto_choice *given, lcp_auto_choice *made, double *x_into,
                  double *w_into);

#endif
