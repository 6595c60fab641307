/* src/verify.h: the one place residuals are computed (DESIGN.md).
 *
 *   lcp : ||min(lambda, w)||_inf / max(1, ||b||_inf)
 *   blcp: ||lambda - mid(lo, lambda - w, hi)||_inf / max(1, ||b||_inf)
 *   ccp / fc3d: sqrt(sum_i ||r_i - P_K(r_i - (u_i + mu_i |u_Ti| e_n))||^2)
 *               / max(||q||, ||r||, ||u||)   (ccp without the mu|u_T| term;
 *               denominator 1 when all three vanish)
 */
#ifndef LCPSOLVE_VERIFY_H
#define LCPSOLVE_VERIFY_H

#include "problem.h"

typedef struct {
    double residual;        /* the number that decides "solved" */
    double complementarity; /* |lambda'w|, blcp: sum |w_i| * distance to the active bound,
                               friction: sum_i |r_i'u_i| (u with De Saxce term for fc3d) */
    double feasibility;     /* largest violation: lcp: max(0,-min lambda,-min w);
                               blcp: bound violation; friction: cone violations */
    double scale;           /* the residual's denominator (its unnormalised value is residual * scale) */
    double xnorm;           /* ccp/fc3d: |r| (2-norm); 0 for lcp/blcp */
} lcp_metrics;

/* w = A x + b (w: n doubles, caller-owned), then the metrics of x. */
void lcp_verify(const lcp_problem *p, const double *x, double *w, lcp_metrics *m);

/* Metrics from x and an already computed w = A x + b. */
void lcp_verify_w(const lcp_problem *p, const double *x, const double *w, lcp_metrics *m);

/* The same metrics in pieces, for solvers that hold x in parts (src/mpi):
 * the terms of some nodes (rows; contacts of 3 rows for ccp/fc3d) with w
 * given on their rows, combined (res: max for lcp/blcp, a sum of squares
 * for ccp/fc3d; comp, nq, nr, nu: sums; feas, nan: max), then finished
 * into the metrics of the whole.  The terms of a node are those the whole
 * computation adds, so the maxima are the same bits. */
typedef struct {
    double res, comp, feas, nq, nr, nu;
    int nan;
} lcp_verify_partial;
void lcp_verify_nodes(const lcp_problem *p, const double *x, const double *w, const int *nodes, int count,
                      lcp_verify_partial *c);
void lcp_verify_add(const lcp_problem *p, lcp_verify_partial *t, const lcp_verify_partial *c);
void lcp_verify_finish(const lcp_problem *p, const lcp_verify_partial *t, lcp_metrics *m);

/* Projection of r (3 doubles) onto the cone ||r_T|| <= mu r_n, in place. */
void lcp_cone_project(double mu, double *r);

/* The natural-map residual of one friction contact, squared:
 * ||r - P_K(r - v)||^2 with v = u + mu |u_T| e_n (desaxce: fc3d, De Saxce's
 * modified velocity) or v = u (ccp); r, u: 3 doubles (normal, tangents).
 * The term of the ccp/fc3d residual above for one contact; per-contact
 * solvers (nsgs) judge their local solves with it. */
double lcp_contact_residual2(double mu, int desaxce, const double *r, const double *u);

/* max_i |x_i - y_i| / max(1, max_i |y_i|) */
double lcp_relative_diff(const double *x, const double *y, int n);

#endif
