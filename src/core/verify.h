/* src/core/verify.h: the one place residuals are computed (docs/contract.md).
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

#include <math.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
/* Rows a chunk of the partial sums (contacts: a third of it): the whole
 * computation adds one partial a chunk, in chunk order. */
enum { LCP_VERIFY_CHUNK = 1024 };
/* a > b ? a : b and a < b ? a : b without a branch (x86-64: maxsd and
 * minsd, whose results are exactly these, NaN and signed zeros included) */
static inline double lcp_sel_max(double a, double b)
{
#ifdef __SSE2__
    return _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(a), _mm_set_sd(b)));
#else
    return a > b ? a : b;
#endif
}
static inline double lcp_sel_min(double a, double b)
{
#ifdef __SSE2__
    return _mm_cvtsd_f64(_mm_min_sd(_mm_set_sd(a), _mm_set_sd(b)));
#else
    return a < b ? a : b;
#endif
}
/* fmax and fmin (a NaN argument gives the other): the values of
 * (b > a || a != a) ? b : a and (b < a || a != a) ? b : a, with no branch
 * on the data (the comparison of x_i and w_i goes either way from row to
 * row: a mispredicted branch in the row loops) and a test of a that is
 * never taken where nothing is NaN. */
static inline double lcp_max_nan(double a, double b) { return a != a ? b : lcp_sel_max(b, a); }
static inline double lcp_min_nan(double a, double b) { return a != a ? b : lcp_sel_min(b, a); }
/* The terms of lcp rows (x_i, w_i) in a partial: the one definition, for
 * verify.c and the fused sweep of src/solvers/pgs.c.
 *     res  = max_nan(res, |min_nan(x_i, w_i)|)    comp += x_i w_i
 *     feas = max_nan(feas, max_nan(-x_i, -w_i))   nan |= x_i or w_i not finite
 * comp is a sum: the caller adds x_i w_i row by row, in row order, where
 * w_i is computed.  res, feas and nan are maxima and a flag, the same bits
 * in any order of the rows: lcp_verify_lcp_rows folds those of rows
 * 0..n-1 of x and w into c afterwards, off a sweep's row-to-row path (and,
 * where xn is given, *dx = max(*dx, |xn_i - x_i|), *dx >= 0: a sweep's
 * largest change, from the same pass).  Vectorised: SSE2 pairs, AVX2
 * fours where the CPU has them (verify.c). */
void lcp_verify_lcp_rows(lcp_verify_partial *c, const double *x, const double *w, int n, const double *xn,
                         double *dx);
/* The same by one implementation, for the tests: 0 = the portable one
 * (SSE2 on x86-64), 1 = AVX2 (-1 and nothing done where the CPU lacks it) */
int lcp_verify_lcp_rows_isa(int isa, lcp_verify_partial *c, const double *x, const double *w, int n,
                            const double *xn, double *dx);
void lcp_verify_nodes(const lcp_problem *p, const double *x, const double *w, const int *nodes, int count,
                      lcp_verify_partial *c);
void lcp_verify_add(const lcp_problem *p, lcp_verify_partial *t, const lcp_verify_partial *c);
void lcp_verify_finish(const lcp_problem *p, const lcp_verify_partial *t, lcp_metrics *m);
/* The same with |b|_inf given (lcp_verify_bscale(p): 0 for ccp/fc3d, whose
 * scale comes from the partials): a solver that finishes a check every
 * iteration computes it once a solve instead of a pass over b each check
 * (b does not change during a solve; the same bits). */
double lcp_verify_bscale(const lcp_problem *p);
void lcp_verify_b(const lcp_problem *p, const double *x, double *w, double bscale, lcp_metrics *m);
void lcp_verify_finish_b(const lcp_problem *p, const lcp_verify_partial *t, double bscale, lcp_metrics *m);

/* |(a, b)|: sqrt, not hypot (several times slower, and contact impulses
 * and velocities are nowhere near overflow) */
static inline double lcp_norm2(double a, double b) { return sqrt(a * a + b * b); }

/* Projection of r (3 doubles) onto the cone ||r_T|| <= mu r_n, in place,
 * given nt = ||r_T||.  Inline (here, not in verify.c): the residual's
 * terms and nsgs's local solves call it once a contact or more. */
static inline void lcp_cone_project_nt(double mu, double *r, double nt)
{
    double rn = r[0];
    if (rn >= 0 && nt <= mu * rn) return; /* inside K_mu */
    if (mu * nt <= -rn) {                 /* inside the polar cone: project to 0 */
        r[0] = r[1] = r[2] = 0.0;
        return;
    }
    double pn = (rn + mu * nt) / (1.0 + mu * mu); /* onto the cone's surface */
    double s = nt > 0 ? mu * pn / nt : 0.0;
    r[0] = pn;
    r[1] *= s;
    r[2] *= s;
}

/* Projection of r (3 doubles) onto the cone ||r_T|| <= mu r_n, in place. */
static inline void lcp_cone_project(double mu, double *r) { lcp_cone_project_nt(mu, r, lcp_norm2(r[1], r[2])); }

/* ||r - P_K(r - v)||^2, v the velocity of the law (De Saxce's for fc3d) */
static inline double lcp_contact_residual2_v(double mu, const double *r, const double *v)
{
    double z[3] = {r[0] - v[0], r[1] - v[1], r[2] - v[2]}; /* r - v */
    lcp_cone_project(mu, z);                               /* P_K(r - v) */
    return (r[0] - z[0]) * (r[0] - z[0]) + (r[1] - z[1]) * (r[1] - z[1]) + (r[2] - z[2]) * (r[2] - z[2]);
}

/* The natural-map residual of one friction contact, squared:
 * ||r - P_K(r - v)||^2 with v = u + mu |u_T| e_n (desaxce: fc3d, De Saxce's
 * modified velocity) or v = u (ccp); r, u: 3 doubles (normal, tangents).
 * The term of the ccp/fc3d residual above for one contact; per-contact
 * solvers (nsgs) judge their local solves with it. */
static inline double lcp_contact_residual2(double mu, int desaxce, const double *r, const double *u)
{
    double v[3] = {u[0], u[1], u[2]};
    if (desaxce) v[0] += mu * lcp_norm2(u[1], u[2]); /* De Saxce: u + mu |u_T| e_n */
    return lcp_contact_residual2_v(mu, r, v);
}

/* max_i |x_i - y_i| / max(1, max_i |y_i|) */
double lcp_relative_diff(const double *x, const double *y, int n);

#endif
