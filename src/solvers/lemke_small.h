/* src/solvers/lemke_small.h: lemke's path for tiny problems -- Lemke's
 * method with B^-1 dense on the stack (lemke_small.c).
 *
 * Where auto's small path (pivot_small.h) stops short on an lcp of up to
 * LCP_TINY_N unknowns (A neither P nor positive semidefinite, as a
 * bimatrix game's or a copositive one's), the pipeline takes lemke before
 * any choice; there the set-up of lemke's general solve (its work arrays,
 * the monitor, BLAS calls on 3 x 3 arrays) cost four times its pivots.
 * This path makes the same pivots as lemke's dense path (the same row
 * scaling, covering vector 1 and lexicographic ratio test) with nothing
 * allocated; where it ends in a ray, at its pivot cap or on a pivot too
 * small to trust, the caller runs the general lemke, which decides those
 * (a certificate, a refactored basis). */
#ifndef LCPSOLVE_LEMKE_SMALL_H
#define LCPSOLVE_LEMKE_SMALL_H

#include "../core/problem.h"

#define LCP_LEMKE_SMALL_N 16 /* the most unknowns it takes (the path's arrays: 2 KB of B^-1) */

/* Solves the lcp p (p->kind LCP_KIND_LCP, 1 <= n <= LCP_LEMKE_SMALL_N) from
 * z = 0: x (n values) and the pivots in *pivots.  Returns 1 where z0 left
 * the basis (x is then the complementary basis's z, to be verified by the
 * caller), 0 otherwise (a ray, the cap, a tiny pivot, a NaN): x undefined. */
int lcp_lemke_small(const lcp_problem *p, double *x, int *pivots);

#endif
