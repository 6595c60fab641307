/* src/solvers/pivot_small.h: pivot's path for small problems -- block
 * principal pivoting, its blocks dense on the stack or in the thread's scratch (pivot_small.c).
 *
 * The problems an engine or an RL environment solves millions of times
 * have a few to a hundred unknowns; there the set-up of a general solve
 * (a monitor, work arrays, a factor kept up to date across pivots) costs
 * more than the solve itself.  The pipeline (src/core/pipeline.c) runs this
 * first where the solver is pivot or auto and the problem is an lcp or blcp
 * of up to LCP_SMALL_LANE_N unknowns, before any choice or set-up, and
 * takes its answer where the residual verifies it; anything else -- a
 * singular block, no termination within its steps -- goes on to the
 * general solve as if it had not run.  Beyond, up to LCP_SMALL_N, pivot
 * (named, or auto's pick) runs it first itself (src/solvers/pivot.c): a few
 * block steps, each a dense factorisation of the free block, cost less than
 * a pivot a row with a factor kept up to date (dense SPD problems of 150 to
 * 1,000 unknowns: 3 to 11 times less; a column of 200 spheres 67 times,
 * one of 60 spheres with friction rows, 180 of them, 7.6 times). */
#ifndef LCPSOLVE_PIVOT_SMALL_H
#define LCPSOLVE_PIVOT_SMALL_H

#include "../core/problem.h"

#define LCP_SMALL_N 1024     /* the most unknowns the small path takes (pivot: the block and its arrays, 8 MB in
                              * the thread's scratch at that size) */
#define LCP_SMALL_LANE_N 128 /* up to this many the pipeline takes it before any choice or set-up */
#define LCP_SMALL_STACK_N 64 /* up to this many its block is on the stack (8 n^2 bytes), beyond in the thread's
                              * scratch (src/core/scratch.h) */
#define LCP_TINY_N 16  /* up to this many: a singular block sends its dependent rows to a bound, and auto takes
                        * lemke where the small path stops short (beyond: a singular block stops it, auto
                        * chooses) */
#define LCP_STR_(v) #v
#define LCP_STR(v) LCP_STR_(v) /* a macro's value as a string literal */

/* Whether p is a problem the small path takes: an lcp or blcp of 1 to
 * LCP_SMALL_N unknowns (findex rows pointing at rows without one). */
int lcp_pivot_small_fits(const lcp_problem *p);

/* The violation a row may keep at the end (the thr of lcp_pivot_small) for
 * a residual (docs/contract.md) to tol: well inside it, not below rounding
 * (bscale: lcp_verify_bscale(p), which the caller's check uses too). */
double lcp_pivot_small_threshold(const lcp_problem *p, double tol, double bscale);

/* Solves p (lcp_pivot_small_fits) from the index sets of start (NULL: x =
 * 0, or the bound nearest 0) by block principal pivoting (a triangular A
 * with a positive diagonal: first one pass of substitution; an unsymmetric
 * lcp from scratch: first Dantzig and Cottle's method, dantzig_small.h): x,
 * and the block steps or pivots taken in *steps (at most max_steps; <= 0:
 * the path's own cap).
 * Returns 1 where the sets ended complementary to within thr (an absolute
 * bound on any row's violation), 0 where it stopped short (a singular or
 * ill-conditioned block, or the cap): x is then undefined. */
int lcp_pivot_small(const lcp_problem *p, const double *start, double thr, int max_steps, double *x, int *steps);

/* The block factorisations this thread's small paths made so far: by L D L' (a symmetric block, over its
 * profile; one that met a negative pivot counts as LU) and by LU (tests: which factorisation a problem took). */
void lcp_pivot_small_counts(long *ldl, long *lu);

#endif
