/* src/la/factored.h: M^-1 J' of the factored form (M, J, v[, e]). */
#ifndef LCPSOLVE_FACTORED_H
#define LCPSOLVE_FACTORED_H

#include "../core/problem.h"

/* Y = (M^-1 J')' as an n x nb CSR matrix (owned; row i = (M^-1 j_i')'),
 * from p->M (symmetric positive definite) and p->J.  LCP_INPUT_ERROR when
 * M is not positive definite, LCP_ERROR when out of memory. */
int lcp_minv_jt(const lcp_problem *p, lcp_csr *Y, lcp_err *err);

#endif
