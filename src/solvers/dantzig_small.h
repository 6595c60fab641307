/* src/solvers/dantzig_small.h: pivot's method for tiny unsymmetric lcps --
 * the principal pivoting method of Dantzig and Cottle with the inverse of
 * the basic block on the stack (dantzig_small.c).
 *
 * Pivot's small path (pivot_small.h) factors its block afresh at each
 * block step: on a symmetric A (contacts) that costs the block's band and
 * the steps are few.  On an unsymmetric A that is not a Z-matrix (Murty's
 * problems, a friction model's unsymmetric LCP) the block steps can be as
 * many as the unknowns, each a dense LU; Dantzig and Cottle's method
 * takes the rows one at a time, each pivot an O(n k) update of the
 * inverse of the basic block, and ends on every P-matrix.  Where it stops
 * short (a pivot too small to trust: A not P; its cap; a NaN) pivot's
 * small path goes on with its block steps. */
#ifndef LCPSOLVE_DANTZIG_SMALL_H
#define LCPSOLVE_DANTZIG_SMALL_H

#include "../core/problem.h"

#define LCP_DANTZIG_SMALL_N 32 /* the most unknowns it takes (the inverse: 2 KB on the stack) */

/* Solves the lcp p (p->kind LCP_KIND_LCP, 1 <= n <= LCP_DANTZIG_SMALL_N)
 * from x = 0: x (n values) and the pivots in *pivots.  Returns 1 where
 * every row ended complementary (x is then the basis's answer, refined
 * once, to be verified by the caller), 0 otherwise: x undefined. */
int lcp_dantzig_small(const lcp_problem *p, double *x, int *pivots);

#endif
