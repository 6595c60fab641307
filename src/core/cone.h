/* src/core/cone.h: polyhedral (pyramid) approximations of the friction cones
 * (--cone pyramid:K).
 *
 *   K = 4, as a box LCP (blcp): the ODE/Bullet box-friction model.  The
 *     unknowns stay r (3 a contact); the normal row has bounds [0, inf), the
 *     two tangent rows findex = the normal row and mu per row, so
 *     |r_t1|, |r_t2| <= mu r_n: a 4-sided pyramid circumscribing the cone.
 *   any K >= 3, as an lcp (Stewart & Trinkle 1996, "An implicit
 *     time-stepping scheme for rigid body dynamics with inelastic collisions
 *     and Coulomb friction", IJNME 39; Anitescu & Potra 1997): K tangent
 *     directions d_k = cos(2 pi k/K) t1 + sin(2 pi k/K) t2, per contact the
 *     unknowns (lambda_n, beta_1..K, gamma) and, with E = [e_n, D] (3 x
 *     (K+1), D = [d_1..d_K]) and e = ones(K),
 *         w_n    = e_n' (W E x + q)              >= 0  _|_ lambda_n >= 0
 *         w_beta = D' (W E x + q) + e gamma      >= 0  _|_ beta     >= 0
 *         w_g    = mu lambda_n - e' beta         >= 0  _|_ gamma    >= 0
 *     (x = (lambda_n, beta) of every contact): the inscribed K-gon
 *     pyramid.  The gamma rows have a zero diagonal: lemke solves it (the
 *     matrix is copositive-plus when W is positive semidefinite), pivoting
 *     and sweep methods that need a positive diagonal do not.
 * Solutions map back to r: r_n = lambda_n, r_T = sum_k beta_k d_k.
 */
#ifndef LCPSOLVE_CONE_H
#define LCPSOLVE_CONE_H

#include "problem.h"

typedef enum { LCP_CONE_NONE = 0, LCP_CONE_BOX = 1, LCP_CONE_STEWART_TRINKLE = 2 } lcp_cone_form;

/* Parses "pyramid:K" (K >= 3); 0 and *K set, or LCP_INPUT_ERROR. */
int lcp_cone_parse(const char *s, int *K, lcp_err *err);

/* dst <- the pyramid approximation of the friction problem src (ccp or
 * fc3d) in the given form (BOX needs K = 4).  dst is a new problem (free
 * with lcp_problem_free); src is not changed. */
int lcp_cone_convert(const lcp_problem *src, lcp_cone_form form, int K, lcp_problem *dst, lcp_err *err);

/* r (src->n) <- the reactions of the solution x of the converted problem. */
void lcp_cone_map_back(const lcp_problem *src, lcp_cone_form form, int K, const double *x, double *r);

#endif
