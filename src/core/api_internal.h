/* src/core/api_internal.h: what other parts of the library (src/diff/)
 * need of the public handles of src/core/api.c. */
#ifndef LCPSOLVE_API_INTERNAL_H
#define LCPSOLVE_API_INTERNAL_H

#include "../../include/lcpsolve.h"
#include "problem.h"

/* The problem of a handle, checked (lcp_problem_finish; NULL and e set when
 * it fails); *perm: entry k of the caller's val -> A.x[perm[k]] (NULL:
 * A.x's order), *nval the caller's entries. */
const lcp_problem *lcp_api_problem(const lcps_problem *h, const int **perm, long *nval, lcp_err *e);
/* The setting "reg" (0: none or s NULL). */
double lcp_api_settings_reg(const lcps_settings *s);

#endif
