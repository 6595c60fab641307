/* src/solvers/nsn.h: the globalised Alart-Curnier Newton step of nsn
 * (src/solvers/nsn.c), shared with the proximal-point solver prox
 * (src/solvers/prox.c).
 *
 * The problem it works on is the friction problem p (ccp or fc3d) or its
 * proximal regularisation u = (W + sigma I) r + q - sigma r_k: set with
 * nsn_set_prox (sigma = 0: the problem itself).  Usage:
 *
 *   nsn_work *w;  nsn_work_new(p, &w, err);
 *   nsn_set_prox(w, sigma, rk);       (optional; rk is borrowed)
 *   nsn_eval(w, r);                   (u, Phi and psi at r)
 *   loop: nsn_step(w, r, &t, err);    (one Newton step; r, u, Phi updated)
 *   nsn_work_free(w);
 */
#ifndef LCPSOLVE_NSN_H
#define LCPSOLVE_NSN_H

#include "solver.h"

typedef struct nsn_work nsn_work;

/* Pattern of the generalised Jacobian and UMFPACK's symbolic analysis of
 * it (once); returns 0, or LCP_ERROR with err set. */
int nsn_work_new(const lcp_problem *p, nsn_work **w, lcp_err *err);
void nsn_work_free(nsn_work *w);

/* Solve the regularised problem u = W r + q + sigma (r - rk) from now on
 * (sigma >= 0; rk: n doubles, borrowed, unused when sigma = 0); the
 * Alart-Curnier parameters rho follow the diagonal of W + sigma I.  Call
 * nsn_eval afterwards. */
void nsn_set_prox(nsn_work *w, double sigma, const double *rk);

/* u and Phi at r; returns the merit psi = |Phi|^2 / 2. */
double nsn_eval(nsn_work *w, const double *r);

/* The current merit psi and the natural-map residual (docs/contract.md's measure)
 * of the current (regularised) problem at the r of the last nsn_eval or
 * nsn_step. */
double nsn_merit(const nsn_work *w);
double nsn_residual(const nsn_work *w, const double *r);

/* The merit the next steps' line search compares with (Armijo's test
 * psi(r + t d) <= ref + sigma t slope): 0 or below the current psi: psi
 * itself (monotone, the default); the largest merit of the last few
 * iterates: the nonmonotone search of Grippo, Lampariello and Lucidi. */
void nsn_set_reference(nsn_work *w, double ref);

/* One globalised Newton step from r (which must be the r of the last
 * nsn_eval / nsn_step): solves (H + delta I) d = -Phi (delta: a
 * Levenberg-Marquardt term ~ |Phi|, raised when H is singular or the step
 * short), Armijo line search on psi, the gradient direction -H'Phi as the
 * last fallback (details in nsn.c).
 * *t: the step taken (0 when none).  Returns 0 after a step, 1 when no
 * direction decreases psi (r unchanged), LCP_ERROR with err set on a
 * breakdown (out of memory). */
int nsn_step(nsn_work *w, double *r, double *t, lcp_err *err);

/* The LU a step factorises, at r without the Levenberg-Marquardt term (at a
 * solution: the factorisation nsn's next step would make), and a solve
 * with it: what a solve by nsn leaves to reuse (bench/diff_cost.c measures
 * a derivative's solve against it).  nsn_factor returns 0, 1 when H is
 * singular, LCP_ERROR with err set; nsn_factor_solve 0, or 1 after a
 * failure. */
int nsn_factor(nsn_work *w, const double *r, lcp_err *err);
int nsn_factor_solve(nsn_work *w, const double *b, double *x);

#endif
