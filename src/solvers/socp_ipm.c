/* src/solvers/socp_ipm.c: a primal-dual interior-point method over
 * second-order cones, with Nesterov-Todd scaling and Mehrotra's
 * predictor-corrector, for the ccp kind
 *     u = W r + q,  r_i in K_mu_i,  u_i in K*_mu_i,  r_i'u_i = 0
 * (K_mu = {||r_T|| <= mu r_n}, K*_mu = {mu ||u_T|| <= u_n}): with W
 * symmetric positive semidefinite, the optimality conditions of the convex
 * QP min 1/2 r'W r + q'r over the product of friction cones; W non-symmetric
 * with a positive semidefinite symmetric part (a monotone cone
 * complementarity problem) is taken too.  References: Vandenberghe 2010,
 * "The CVXOPT linear and quadratic cone program solvers" (NT scaling of the
 * second-order cone, sections 4 and 8; Mehrotra's correction); Nesterov and
 * Todd 1998, SIAM J. Optim. 8(2); Domahidi, Chu and Boyd 2013, "ECOS: an
 * SOCP solver for embedded systems"; Alizadeh and Goldfarb 2003, "Second-order
 * cone programming", Math. Program. 95 (the Jordan algebra, e, x o y).
 *
 * Standard cones.  D_i = diag(1, 1/mu_i, 1/mu_i) maps K_mu onto the standard
 * cone Q = {x_0 >= ||x_1||}: s_i = D_i r_i = (r_n, r_T / mu) in Q, and
 * z_i = D_i^-1 u_i = (u_n, mu u_T) in Q (the dual cone of Q is Q), with
 * s'z = r'u.  In s, z the problem is the monotone second-order cone LCP
 *     z = P s + qs,  s, z in Q^m,  s'z = 0,   P = Dinv W Dinv, qs = Dinv q,
 * Dinv = diag(1, mu, mu): no division by mu anywhere (r = Dinv s, and the
 * scaled quantities are bounded by the original ones).  A contact with mu =
 * 0 (the cone is the ray r_T = 0, r_n >= 0; its dual the half-space u_n >=
 * 0, u_T free) is a one-dimensional cone: s = r_n >= 0, z = u_n >= 0, its
 * tangent unknowns fixed at r_T = 0 (identity rows in the Newton system).
 *
 * Iterates (s, z) strictly inside the cones, infeasible in general:
 *     rr = z - P s - qs,   mu = s'z / m   (m: contacts; each cone has degree 1)
 * NT scaling, per cone, the 3x3 symmetric positive definite W_i with
 *     W s = W^-1 z = lambda
 * (nt_scaling below: s^ = s / sqrt(det s), z^ = z / sqrt(det z), gamma =
 * sqrt((1 + s^'z^) / 2), w = (z^ + J s^) / (2 gamma) with J = diag(1, -1, -1),
 * W = beta [w_0, w_1'; w_1, I + w_1 w_1' / (1 + w_0)], beta = (det z / det
 * s)^(1/4); lambda in closed form; on the ray, W = sqrt(z / s), lambda =
 * sqrt(s z)).  Newton's method on (rr, lambda o lambda) = (0, sigma mu e) in
 * the scaled directions ds~ = W ds, dz~ = W^-1 dz:
 *     dz - P ds = -rr,   lambda o (ds~ + dz~) = rc
 * with x o y = (x'y, x_0 y_1 + y_0 x_1), e = (1, 0, 0), gives t = lambda \ rc
 * (the inverse of the arrow matrix of lambda), dz~ = t - ds~ and
 *     (P + W^2) ds = rr + W t,
 * the reduced KKT system: W^2 block diagonal and positive definite, so
 * P + W^2 is symmetric positive definite for a symmetric positive
 * semidefinite W, also a singular one (rank-deficient contact sets).  Step k:
 *   predictor: rc = -lambda o lambda (t = -lambda): ds_a, dz_a; a_a = the
 *              largest step in (0, 1] keeping lambda + a ds~_a and lambda +
 *              a dz~_a in the cones, mu_a = (lambda + a_a ds~_a)'(lambda +
 *              a_a dz~_a) / m;
 *   centring:  sigma = (mu_a / mu)^3 (Mehrotra's heuristic);
 *   corrector: rc = -lambda o lambda + sigma mu e - ds~_a o dz~_a;
 *   step:      a = min(1, tau a_max), tau = 0.99 rising to 0.9999 as
 *              mu / mu_0 falls (fraction to the boundary); s += a ds, z += a
 *              dz; rr is recomputed from s and z (rounding never accumulates
 *              in it).  One factorization a step, two solves, each with up
 *              to 3 steps of iterative refinement against P + W^2 (what is
 *              left of that equation's residual is what is left of rr after
 *              a full step).  mu is computed as lambda'lambda / m, a sum of
 *              squares (s'z cancels on sliding contacts).
 * Near the end, s and z of sliding contacts lie within rounding of the cone
 * boundaries; when the step puts one outside in floating point, the monitor
 * still sees that point (its r may well solve the problem), then the step
 * is halved until the iterate is interior again.
 * The step to the boundary of Q is the smallest positive root of det(x + a
 * d) = 0, computed in the scaled space (x = lambda, well centred).
 *
 * Starting point: s_i = t_s e, z_i = t_z e with t_z = ||q||_inf (1 when
 * q = 0; the ccp residual is relative, so no floor at 1) and t_s = t_z /
 * (mean of W's positive diagonal), so that W r and u have the same scale.  --warm-start is only shown to the monitor as iteration 0
 * (it is accepted when it already solves the problem); an interior-point
 * method wants a well-centred start.
 *
 * Linear systems: sparse, on the pattern of W united with the 3x3 diagonal
 * blocks, fixed for every step (only the block values change): CHOLMOD
 * (cholmod_analyze once, cholmod_factorize on the same symbolic factor each
 * step) when W is symmetric (lcp_csr_is_symmetric to 1e-12), UMFPACK
 * (umfpack_di_symbolic once, umfpack_di_numeric each step) otherwise, both
 * through src/la/sparse_factor.c.  A
 * regularization 1e-13 max|W_ij| on the diagonal keeps M numerically
 * definite near the end, where the blocks of W^2 spread from 0 to infinity
 * (it only makes the Newton step inexact: rr is recomputed exactly); when
 * Cholesky still fails, the step is factored again with the regularization
 * times 1e3, up to 1e-4 max|W_ij|, then by UMFPACK.
 *
 * The monitor sees r = Dinv s, in the original variables, after every step;
 * it alone decides "solved" (docs/contract.md's ccp residual).
 *
 * Verdicts instead of looping:
 *  - no solution: once ||r|| exceeds 1e4 ||r_0|| (checked every step: the
 *    relative residual of docs/contract.md would call an iterate running off to
 *    infinity solved; here the radius must exceed 1e4 max(||r||, 1e4
 *    ||r_0||)), and when the iterates run off (||r|| beyond 1e10 times the
 *    data's scale, the monitor's divergence) or stop progressing, r / ||r||
 *    and the last direction dr (projected on the cones) are tried as
 *    certificates of infeasibility: y in K with q'y < 0 and -W'y within eps
 *    of K* proves that no feasible r (r in K, W r + q in K*) has ||r||_2 <
 *    -q'y / eps (0 <= y'(W r + q) <= eps ||r|| + q'y); when that radius
 *    exceeds both ||r|| and 1e4 ||r_0||, status no_solution with y's
 *    numbers in the message (for the QP: a ray along which 1/2 r'Wr + q'r
 *    decreases without bound);
 *  - W not positive semidefinite: negative curvature dr'W dr < -1e-9
 *    |dr|'|W||dr| on a Newton direction -> status error;
 *  - no progress (the best residual not halved in 20 steps, 3 steps in a row
 *    shorter than 1e-12): status error with the numbers, except a stall with
 *    rr and mu at the rounding level, where the monitor's verdict (max_iter)
 *    stands, with the reason;
 *  - a Newton matrix that cannot be factored: status error with the reason.
 * Trace columns: mu (s'z / m after the step), step (a; NaN at iteration 0),
 * sigma.  ccp only (fc3d is not a cone complementarity problem: the De Saxce
 * term makes it non-monotone); no preconditioner.
 */
#include "solver.h"
#include "../la/sparse_factor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAU_MIN 0.99        /* fraction to the boundary, far from a solution ... */
#define TAU_MAX 0.9999      /* ... and near one */
#define REG 1e-13           /* diagonal regularization, relative to max|W_ij| */
#define REG_MAX 1e-4        /* the largest one tried when Cholesky fails */
#define REFINE_STEPS 3      /* iterative refinement of each Newton step, at most */
#define MAX_HALVINGS 60     /* of a step that rounding puts outside a cone */
#define CURV_TOL 1e-9       /* dr'W dr < -CURV_TOL |dr|'|W||dr|: negative curvature */
#define BLOWUP 1e10         /* ||r|| beyond this times the data's scale: divergence */
#define TINY_STEP 1e-12     /* a step shorter than this ... */
#define TINY_STEPS 3        /* ... this many times in a row: the steps collapsed */
#define STALL_STEPS 20      /* the best residual not halved in this many steps: stall */
#define INFEAS_REL 1e-8     /* a stall with ||rr|| and mu below this (relative): rounding */
#define CERT_RADIUS 1e4     /* no_solution: no feasible r within this times ||r_0|| */

static const char *const columns[] = {"mu", "step", "sigma", NULL};

/* ------------------------------------------------------------ cone kernels */

/* det x = x_0^2 - ||x_1||^2 of a 3-vector, as (x_0 - |x_1|)(x_0 + |x_1|). */
static double cone_det(const double *x)
{
    double t = sqrt(x[1] * x[1] + x[2] * x[2]);
    return (x[0] - t) * (x[0] + t);
}

/* The NT scaling of one second-order cone of R^3: for s, z strictly inside
 * Q, the symmetric positive definite W (row-major 3x3), its inverse and
 * lambda with W s = W^-1 z = lambda.  Returns 0, or -1 when s or z is not
 * strictly inside Q.  (Vandenberghe 2010, section 4.) */
int lcp_socp_nt_scaling(const double *s, const double *z, double *W, double *Winv, double *lam)
{
    double ds = cone_det(s), dz = cone_det(z);
    if (!(ds > 0) || !(dz > 0) || !(s[0] > 0) || !(z[0] > 0)) return -1;
    double sn = sqrt(ds), zn = sqrt(dz);
    double sb[3] = {s[0] / sn, s[1] / sn, s[2] / sn}, zb[3] = {z[0] / zn, z[1] / zn, z[2] / zn};
    double gamma = sqrt(0.5 * (1.0 + sb[0] * zb[0] + sb[1] * zb[1] + sb[2] * zb[2]));
    double w[3] = {(zb[0] + sb[0]) / (2 * gamma), (zb[1] - sb[1]) / (2 * gamma), (zb[2] - sb[2]) / (2 * gamma)};
    double beta = sqrt(zn / sn);
    double c = 1.0 / (1.0 + w[0]);
    double Wb[9] = {w[0], w[1], w[2], w[1], 1.0 + c * w[1] * w[1], c * w[1] * w[2], w[2], c * w[1] * w[2],
                    1.0 + c * w[2] * w[2]};
    for (int k = 0; k < 9; k++) {
        W[k] = beta * Wb[k];
        /* W-bar^-1 = J W-bar J: the first row and column change sign, except (0,0) */
        double sg = ((k < 3) != (k % 3 == 0)) ? -1.0 : 1.0;
        Winv[k] = sg * Wb[k] / beta;
    }
    double dd = sb[0] + zb[0] + 2 * gamma, a = sqrt(sn * zn);
    lam[0] = a * gamma;
    lam[1] = a * ((gamma + zb[0]) * sb[1] + (gamma + sb[0]) * zb[1]) / dd;
    lam[2] = a * ((gamma + zb[0]) * sb[2] + (gamma + sb[0]) * zb[2]) / dd;
    return 0;
}

/* The largest a >= 0 with x + a d in Q (x strictly inside; INFINITY when
 * the whole ray stays inside): the smallest positive root of det(x + a d). */
double lcp_socp_max_step(const double *x, const double *d)
{
    double a = d[0] * d[0] - d[1] * d[1] - d[2] * d[2];
    double b = 2.0 * (x[0] * d[0] - x[1] * d[1] - x[2] * d[2]);
    double c = cone_det(x);
    if (!(c > 0)) return 0.0;
    double best = INFINITY;
    if (a == 0.0) {
        if (b < 0) best = -c / b;
    } else {
        double disc = b * b - 4.0 * a * c;
        if (disc >= 0) {
            double qq = -0.5 * (b + (b >= 0 ? sqrt(disc) : -sqrt(disc)));
            double r1 = qq != 0.0 ? qq / a : INFINITY, r2 = qq != 0.0 ? c / qq : INFINITY;
            if (r1 > 0) best = fmin(best, r1);
            if (r2 > 0) best = fmin(best, r2);
        }
    }
    /* det(x + a d) >= 0 also holds on -Q: stop where x_0 + a d_0 reaches 0 */
    if (d[0] < 0) best = fmin(best, -x[0] / d[0]);
    return best;
}

static void mat3vec(const double *M, const double *x, double *y)
{
    for (int i = 0; i < 3; i++) y[i] = M[3 * i] * x[0] + M[3 * i + 1] * x[1] + M[3 * i + 2] * x[2];
}

/* ------------------------------------------------------------ linear systems */

/* M = P + blockdiag(H) + reg I on the pattern of W united with the 3x3
 * diagonal blocks; CHOLMOD (symmetric) or UMFPACK. */
typedef struct {
    int n, sym, cur_lu, chol_fail, factored;
    int *mp, *mj, *bpos;   /* CSR pattern; bpos[9c + 3a + b]: slot of (3c+a, 3c+b) */
    double *base, *mx;     /* P on the pattern (0 where W has none); M */
    lcp_sparse_factor sf;  /* CHOLMOD (W symmetric) / UMFPACK on that pattern */
} linsys;

static void ls_free(linsys *L)
{
    free(L->mp);
    free(L->mj);
    free(L->bpos);
    free(L->base);
    free(L->mx);
    lcp_sparse_factor_free(&L->sf);
    memset(L, 0, sizeof *L);
}

/* The pattern, P's values on it (dinv: Dinv's diagonal), the symbolic
 * analysis. */
static int ls_init(linsys *L, const lcp_csr *A, const double *dinv, int sym, lcp_err *err)
{
    int n = A->m, nc = n / 3;
    memset(L, 0, sizeof *L);
    L->n = n;
    L->sym = sym;
    long nnz = lcp_csr_nnz(A) + 3L * n; /* at most 3 added a row */
    L->mp = lcp_alloc((size_t)n + 1, sizeof(int));
    L->mj = lcp_alloc((size_t)nnz, sizeof(int));
    L->bpos = lcp_alloc(9 * (size_t)nc, sizeof(int));
    L->base = lcp_alloc((size_t)nnz, sizeof(double));
    L->mx = lcp_alloc((size_t)nnz, sizeof(double));
    if (!L->mp || !L->mj || !L->bpos || !L->base || !L->mx)
        return lcp_fail(err, LCP_ERROR, NULL, 0, "socp-ipm: out of memory (Newton matrix)");
    int m = 0;
    L->mp[0] = 0;
    for (int i = 0; i < n; i++) { /* merge row i of W with columns 3c..3c+2 */
        int c = i / 3, blk = 3 * c, k = A->p[i], kend = A->p[i + 1], bj = 0;
        while (k < kend || bj < 3) {
            int ja = k < kend ? A->j[k] : n, jb = bj < 3 ? blk + bj : n, j = ja < jb ? ja : jb;
            double v = 0.0;
            if (ja == j) v = A->x[k++];
            if (jb == j) L->bpos[9 * c + 3 * (i - blk) + bj++] = m;
            L->mj[m] = j;
            L->base[m++] = dinv[i] * v * dinv[j];
        }
        L->mp[i + 1] = m;
    }
    memcpy(L->mx, L->base, (size_t)m * sizeof(double));
    if (lcp_sparse_factor_init(&L->sf, n, L->mp, L->mj, L->mx, sym, LCP_SF_REFINE_DEFAULT))
        return lcp_sparse_factor_fail(&L->sf, err, "socp-ipm: ");
    return 0;
}

/* Factors M = P + blockdiag(H) + reg I; fixed[i]: row and column i replaced
 * by those of the identity (the tangent rows of a mu = 0 contact). */
static int ls_factor(linsys *L, const double *H, const unsigned char *fixed, double reg, double regmax,
                     lcp_err *err)
{
    int n = L->n, lu = !L->sym;
    for (;;) {
        for (int i = 0; i < n; i++)
            for (int k = L->mp[i]; k < L->mp[i + 1]; k++) {
                int j = L->mj[k];
                L->mx[k] = fixed[i] || fixed[j] ? (i == j) : L->base[k] + (i == j ? reg : 0.0);
            }
        for (int c = 0; c < n / 3; c++)
            for (int e = 0; e < 9; e++) {
                int i = 3 * c + e / 3, j = 3 * c + e % 3;
                if (!fixed[i] && !fixed[j]) L->mx[L->bpos[9 * c + e]] += H[9 * c + e];
            }
        int more = reg * 1e3 <= regmax; /* a larger regularization left to try */
        int st;
        if (!lu) {
            st = lcp_sparse_factor_refactor(&L->sf, L->mx, LCP_SF_CHOLESKY);
            if (st == LCP_SF_OK) {
                L->cur_lu = 0;
                L->factored++;
                return 0;
            }
            if (st != LCP_SF_NOT_POSDEF) return lcp_sparse_factor_fail(&L->sf, err, "socp-ipm: ");
            L->chol_fail++;
            if (more) {
                reg *= 1e3;
                continue;
            }
            lu = 1; /* LU for this step (UMFPACK set up at its first use) */
        }
        st = lcp_sparse_factor_refactor(&L->sf, L->mx, LCP_SF_LU);
        if (st == LCP_SF_SINGULAR && more) {
            reg *= 1e3;
            continue;
        }
        if (st == LCP_SF_SINGULAR)
            return lcp_fail(err, LCP_ERROR, NULL, 0,
                            "socp-ipm: the Newton matrix P + W^2 is singular to working precision (UMFPACK)");
        if (st != LCP_SF_OK) return lcp_sparse_factor_fail(&L->sf, err, "socp-ipm: ");
        L->cur_lu = 1;
        L->factored++;
        return 0;
    }
}

/* x <- M^-1 x (a zero pivot of UMFPACK: inf/nan, caught by the caller) */
static int ls_solve(linsys *L, double *x, lcp_err *err)
{
    int st = lcp_sparse_factor_solve(&L->sf, x, x);
    if (st != LCP_SF_OK && st != LCP_SF_SINGULAR) return lcp_sparse_factor_fail(&L->sf, err, "socp-ipm: ");
    return 0;
}

/* ------------------------------------------------------------ the method */

typedef struct {
    int n, nc, m;
    const lcp_problem *p;
    double *dinv;           /* n: Dinv's diagonal (1, mu, mu); (1, 0, 0) for a ray */
    unsigned char *ray;     /* nc: mu = 0 */
    unsigned char *fixed;   /* n: tangent rows of rays */
    double *s, *z, *r, *wr, *rr;
    double *W, *H, *lam; /* 9 nc, 9 nc, n */
    double *t, *rhs, *res, *dnew, *ds, *dz, *dst, *dzt, *dsta, *dzta, *y, *v;
    lcp_csr At;
} work;

static void work_free(work *K)
{
    double *v[] = {K->dinv, K->s, K->z, K->r, K->wr, K->rr, K->W, K->H, K->lam, K->t, K->rhs, K->res, K->dnew,
                   K->ds, K->dz, K->dst, K->dzt, K->dsta, K->dzta, K->y, K->v};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) free(v[i]);
    free(K->ray);
    free(K->fixed);
    lcp_csr_free(&K->At);
}

static double inf_norm(int n, const double *v)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(v[i]));
    return m;
}

static double two_norm(int n, const double *v)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m += v[i] * v[i];
    return sqrt(m);
}

/* r = Dinv s, wr = W r + q, rr = z - Dinv wr; returns mu = s'z / m. */
static double residuals(work *K)
{
    int n = K->n;
    for (int i = 0; i < n; i++) K->r[i] = K->dinv[i] * K->s[i];
    lcp_csr_matvec(&K->p->A, K->r, K->wr);
    double g = 0.0;
    for (int i = 0; i < n; i++) {
        K->wr[i] += K->p->b[i];
        K->rr[i] = K->fixed[i] ? 0.0 : K->z[i] - K->dinv[i] * K->wr[i];
        g += K->s[i] * K->z[i];
    }
    return g / K->m;
}

/* 1 if every s and z is strictly inside its cone (in floating point). */
static int interior(const work *K)
{
    for (int c = 0; c < K->nc; c++) {
        const double *s = K->s + 3 * c, *z = K->z + 3 * c;
        if (K->ray[c] ? !(s[0] > 0 && z[0] > 0) : !(s[0] > 0 && z[0] > 0 && cone_det(s) > 0 && cone_det(z) > 0))
            return 0;
    }
    return 1;
}

/* W, W^-1, H = W^2, lambda of every cone.  Returns the first contact whose
 * s or z left the interior, or -1. */
static int scalings(work *K)
{
    for (int c = 0; c < K->nc; c++) {
        double *s = K->s + 3 * c, *z = K->z + 3 * c, *W = K->W + 9 * c, Wi[9], *H = K->H + 9 * c,
               *lam = K->lam + 3 * c;
        if (K->ray[c]) {
            if (!(s[0] > 0) || !(z[0] > 0)) return c;
            memset(W, 0, 9 * sizeof(double));
            memset(H, 0, 9 * sizeof(double));
            W[0] = sqrt(z[0] / s[0]);
            H[0] = z[0] / s[0];
            lam[0] = sqrt(s[0] * z[0]);
            lam[1] = lam[2] = 0.0;
            continue;
        }
        if (lcp_socp_nt_scaling(s, z, W, Wi, lam)) return c;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                H[3 * i + j] = W[3 * i] * W[j] + W[3 * i + 1] * W[3 + j] + W[3 * i + 2] * W[6 + j];
    }
    return -1;
}

/* res = rhs - (P + H) ds (fixed rows: -ds); returns ||res||_inf. */
static double kkt_residual(work *K, const double *ds, double *res)
{
    int n = K->n;
    for (int i = 0; i < n; i++) K->v[i] = K->dinv[i] * ds[i];
    lcp_csr_matvec(&K->p->A, K->v, K->y);
    double m = 0.0;
    for (int c = 0; c < K->nc; c++)
        for (int a = 0; a < 3; a++) {
            int i = 3 * c + a;
            const double *h = K->H + 9 * c + 3 * a;
            double v = K->fixed[i] ? -ds[i]
                                   : K->rhs[i] - K->dinv[i] * K->y[i] -
                                         (h[0] * ds[3 * c] + h[1] * ds[3 * c + 1] + h[2] * ds[3 * c + 2]);
            res[i] = v;
            m = fmax(m, fabs(v));
        }
    return m;
}

/* t = lambda \ rc per cone (the arrow matrix of lambda inverted), rhs = rr
 * + W t; the Newton step ds, then ds~ = W ds, dz~ = t - ds~ (scaled) and
 * dz = W dz~.  rc in K->t on entry. */
static int direction(work *K, linsys *L, lcp_err *err)
{
    for (int c = 0; c < K->nc; c++) {
        double *lam = K->lam + 3 * c, *t = K->t + 3 * c, wt[3];
        if (K->ray[c]) {
            t[0] /= lam[0];
            t[1] = t[2] = 0.0;
        } else {
            double det = cone_det(lam);
            double t0 = (lam[0] * t[0] - lam[1] * t[1] - lam[2] * t[2]) / det;
            t[1] = (t[1] - t0 * lam[1]) / lam[0];
            t[2] = (t[2] - t0 * lam[2]) / lam[0];
            t[0] = t0;
        }
        mat3vec(K->W + 9 * c, t, wt);
        for (int i = 0; i < 3; i++) {
            int row = 3 * c + i;
            K->ds[row] = K->fixed[row] ? 0.0 : K->rr[row] + wt[i];
        }
    }
    memcpy(K->rhs, K->ds, (size_t)K->n * sizeof(double));
    if (ls_solve(L, K->ds, err)) return 1;
    /* iterative refinement against P + W^2 (without the regularization):
     * the error of this equation is what is left of rr after a full step */
    double rn = kkt_residual(K, K->ds, K->res);
    for (int it = 0; it < REFINE_STEPS && rn > 0; it++) {
        if (ls_solve(L, K->res, err)) return 1;
        for (int i = 0; i < K->n; i++) K->dnew[i] = K->ds[i] + K->res[i];
        double rn2 = kkt_residual(K, K->dnew, K->res);
        if (!(rn2 < 0.5 * rn)) break;
        memcpy(K->ds, K->dnew, (size_t)K->n * sizeof(double));
        rn = rn2;
        if (!(rn2 > 0)) break;
        kkt_residual(K, K->ds, K->res);
    }
    for (int c = 0; c < K->nc; c++) {
        double *ds = K->ds + 3 * c;
        if (K->ray[c]) ds[1] = ds[2] = 0.0;
        mat3vec(K->W + 9 * c, ds, K->dst + 3 * c);
        for (int i = 0; i < 3; i++) K->dzt[3 * c + i] = K->t[3 * c + i] - K->dst[3 * c + i];
        mat3vec(K->W + 9 * c, K->dzt + 3 * c, K->dz + 3 * c);
    }
    return 0;
}

/* The largest step keeping lambda + a ds~ and lambda + a dz~ in the cones. */
static double max_step(const work *K, const double *dst, const double *dzt)
{
    double a = INFINITY;
    for (int c = 0; c < K->nc; c++) {
        const double *l = K->lam + 3 * c;
        if (K->ray[c]) {
            if (dst[3 * c] < 0) a = fmin(a, -l[0] / dst[3 * c]);
            if (dzt[3 * c] < 0) a = fmin(a, -l[0] / dzt[3 * c]);
            continue;
        }
        a = fmin(a, lcp_socp_max_step(l, dst + 3 * c));
        a = fmin(a, lcp_socp_max_step(l, dzt + 3 * c));
    }
    return a;
}

/* dr = Dinv ds; returns dr'W dr and |dr|'|W||dr| in *absq. */
static double curvature(work *K, const double *ds, double *absq)
{
    const lcp_csr *A = &K->p->A;
    double q = 0.0, qa = 0.0;
    for (int i = 0; i < K->n; i++) K->v[i] = K->dinv[i] * ds[i];
    for (int i = 0; i < A->m; i++) {
        double sm = 0.0, sa = 0.0;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            sm += A->x[k] * K->v[A->j[k]];
            sa += fabs(A->x[k] * K->v[A->j[k]]);
        }
        q += K->v[i] * sm;
        qa += fabs(K->v[i]) * sa;
    }
    *absq = qa;
    return q;
}

/* y (in K, original variables) as a certificate of infeasibility: y is
 * normalized, then q'y and eps = ||-W'y - P_K*(-W'y)||_2.  Returns the
 * radius -q'y / eps within which no feasible r exists (INFINITY when eps
 * = 0, 0 when q'y >= 0). */
static double cert_radius(work *K, double *y, double *qy, double *eps)
{
    int n = K->n;
    double yn = two_norm(n, y);
    *qy = *eps = 0.0;
    if (!(yn > 0) || !isfinite(yn)) return 0.0;
    for (int i = 0; i < n; i++) y[i] /= yn;
    lcp_csr_matvec(&K->At, y, K->v);
    double e2 = 0.0;
    for (int c = 0; c < K->nc; c++) {
        double mu = K->p->mu[c], *v = K->v + 3 * c, g[3] = {-v[0], -v[1], -v[2]}, pr[3] = {g[0], g[1], g[2]};
        if (mu > 0) {
            lcp_cone_project(1.0 / mu, pr); /* K*_mu = K_{1/mu} */
        } else {
            pr[0] = fmax(pr[0], 0.0); /* K*_0 = {u_n >= 0}: u_T free */
        }
        for (int i = 0; i < 3; i++) e2 += (g[i] - pr[i]) * (g[i] - pr[i]);
        for (int i = 0; i < 3; i++) *qy += K->p->b[3 * c + i] * y[3 * c + i];
    }
    *eps = sqrt(e2);
    if (!(*qy < 0)) return 0.0;
    return *eps > 0 ? -*qy / *eps : INFINITY;
}

/* Tries r / ||r|| and the last direction as certificates of infeasibility;
 * 1 (status no_solution with the numbers) when one proves that no feasible r
 * lies within margin max(||r||, CERT_RADIUS ||r_0||) (margin 1 when the
 * iterates have stopped; CERT_RADIUS while they still move, so that a
 * solution far beyond the iterate is never ruled out by mistake). */
static int certificate(work *K, int k, double r0norm, double margin, lcp_info *info)
{
    int n = K->n;
    double xn = two_norm(n, K->r);
    double qy, eps, qy2, eps2;
    memcpy(K->y, K->r, (size_t)n * sizeof(double)); /* r / ||r||: in K */
    double radius = cert_radius(K, K->y, &qy, &eps);
    for (int c = 0; c < K->nc; c++) {                /* the last direction, projected on K */
        double *y = K->y + 3 * c;
        for (int i = 0; i < 3; i++) y[i] = K->dinv[3 * c + i] * K->ds[3 * c + i];
        if (K->p->mu[c] > 0) lcp_cone_project(K->p->mu[c], y);
        else y[0] = fmax(y[0], 0.0), y[1] = y[2] = 0.0;
    }
    double radius2 = cert_radius(K, K->y, &qy2, &eps2);
    if (radius2 > radius) radius = radius2, qy = qy2, eps = eps2;
    if (radius > margin * fmax(xn, CERT_RADIUS * r0norm)) {
        info->status = LCP_NO_SOLUTION;
        if (isinf(radius))
            snprintf(info->message, sizeof info->message,
                     "no solution: after %d steps (||r|| = %.3g) y in K with -W'y in K*, q'y = %.3g < 0 proves "
                     "no r in K has W r + q in K*", k, xn, qy);
        else
            snprintf(info->message, sizeof info->message,
                     "no solution: after %d steps (||r|| = %.3g) y in K with -W'y within %.2g of K*, q'y = %.3g "
                     "< 0 proves no r in K with ||r|| < %.3g has W r + q in K*", k, xn, eps, qy, radius);
        return 1;
    }
    return 0;
}

/* The verdict when the loop stopped for want of progress. */
static void diagnose(work *K, int k, int diverged, int tiny, double mu, double mu0, double rscale, double r0norm,
                     lcp_info *info)
{
    int n = K->n;
    double rn = inf_norm(n, K->rr), xn = two_norm(n, K->r);
    if (certificate(K, k, r0norm, 1.0, info)) return;
    info->status = LCP_ERROR;
    if (diverged)
        snprintf(info->message, sizeof info->message,
                 "the iterates diverge (||r|| = %.3g, ||z - P s - q|| = %.3g after %d steps) without a "
                 "certificate of infeasibility", xn, rn, k);
    else if (rn <= INFEAS_REL * rscale && mu <= INFEAS_REL * mu0) {
        info->status = LCP_MAX_ITER; /* rounding: the monitor's verdict */
        snprintf(info->message, sizeof info->message,
                 "stalled at the rounding level (%s; ||z - P s - q|| = %.3g, s'z/m = %.3g after %d steps)",
                 tiny ? "the steps collapsed" : "the residual stopped halving", rn, mu, k);
    } else if (tiny)
        snprintf(info->message, sizeof info->message,
                 "no progress: the step length collapsed (below %.0e %d times in a row; ||z - P s - q|| = %.3g, "
                 "s'z/m = %.3g after %d steps)", TINY_STEP, TINY_STEPS, rn, mu, k);
    else
        snprintf(info->message, sizeof info->message,
                 "no progress in %d steps (||z - P s - q|| = %.3g, s'z/m = %.3g after %d steps)", STALL_STEPS, rn,
                 mu, k);
}

static int socp_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                      lcp_err *err)
{
    int n = p->n, nc = p->nc, rc = 0;
    work K = {0};
    linsys L = {0};
    (void)s; /* tol and limits reach the solver through the monitor */
    if (nc == 0) {
        lcp_monitor_step(mon, 0, x, NULL);
        info->iterations = 0;
        return 0;
    }
    K.n = n, K.nc = nc, K.m = nc, K.p = p;
    double **vn[] = {&K.dinv, &K.s, &K.z, &K.r, &K.wr, &K.rr, &K.lam, &K.t, &K.rhs, &K.res, &K.dnew, &K.ds, &K.dz,
                     &K.dst, &K.dzt, &K.dsta, &K.dzta, &K.y, &K.v};
    for (size_t i = 0; i < sizeof vn / sizeof vn[0]; i++)
        if (!(*vn[i] = lcp_calloc((size_t)n, sizeof(double)))) rc = 1;
    K.W = lcp_calloc(9 * (size_t)nc, sizeof(double));
    K.H = lcp_calloc(9 * (size_t)nc, sizeof(double));
    K.ray = lcp_calloc((size_t)nc, 1);
    K.fixed = lcp_calloc((size_t)n, 1);
    if (rc || !K.W || !K.H || !K.ray || !K.fixed || lcp_csr_transpose(&p->A, &K.At)) {
        work_free(&K);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "socp-ipm: out of memory");
    }
    int nray = 0;
    for (int c = 0; c < nc; c++) {
        double mu = p->mu[c];
        K.ray[c] = mu == 0.0;
        nray += K.ray[c];
        K.dinv[3 * c] = 1.0;
        K.dinv[3 * c + 1] = K.dinv[3 * c + 2] = K.ray[c] ? 0.0 : mu;
        K.fixed[3 * c + 1] = K.fixed[3 * c + 2] = K.ray[c];
    }
    int sym = lcp_csr_is_symmetric(&p->A, 1e-12);
    if ((rc = ls_init(&L, &p->A, K.dinv, sym, err))) goto done;

    /* scales and the starting point */
    double qnorm = inf_norm(n, p->b), amax = 0.0, dsum = 0.0;
    int dpos = 0;
    for (long k = 0; k < lcp_csr_nnz(&p->A); k++) amax = fmax(amax, fabs(p->A.x[k]));
    for (int i = 0; i < n; i++) {
        double a = lcp_csr_diag(&p->A, i);
        if (a > 0) dsum += a, dpos++;
    }
    double dmean = dpos ? dsum / dpos : amax > 0 ? amax : 1.0;
    double reg = REG * (amax > 0 ? amax : 1.0), regmax = REG_MAX * (amax > 0 ? amax : 1.0);
    double tz = qnorm > 0 ? qnorm : 1.0, ts = tz / dmean; /* the ccp residual is relative: no floor at 1 */
    for (int c = 0; c < nc; c++) K.s[3 * c] = ts, K.z[3 * c] = tz;
    double mu = residuals(&K), mu0 = mu;
    double r0norm = two_norm(n, K.r), rlim = BLOWUP * (1.0 + qnorm) * fmax(1.0, ts) * sqrt((double)nc);
    double rscale = fmax(fmax(1.0, qnorm), inf_norm(n, K.rr));

    int warm = 0;
    for (int i = 0; i < n; i++) warm |= x[i] != 0.0;
    double extra[3] = {mu, NAN, NAN};
    const double *last = warm ? x : K.r;
    int stop = lcp_monitor_step(mon, 0, last, extra);

    int k = 0, tiny = 0, stalled = 0, diverged = 0, best_k = 0, bad_c = -1;
    double best = mon->best.residual, sigma = NAN, alpha = NAN, qneg = 0.0, qa;
    while (!stop) {
        k++;
        if ((bad_c = scalings(&K)) >= 0) goto outside;
        double ll = 0.0; /* mu = s'z / m = lambda'lambda / m: a sum of squares, no cancellation */
        for (int i = 0; i < n; i++) ll += K.lam[i] * K.lam[i];
        mu = ll / K.m;
        if ((rc = ls_factor(&L, K.H, K.fixed, reg, regmax, err))) goto broken;
        /* predictor: rc = -lambda o lambda, t = -lambda */
        for (int i = 0; i < n; i++) K.t[i] = -K.lam[i];
        for (int c = 0; c < nc; c++) { /* as rc: lambda o t with t = -lambda */
            double *l = K.lam + 3 * c, *t = K.t + 3 * c;
            double l2 = l[0] * l[0] + l[1] * l[1] + l[2] * l[2];
            t[1] = -2 * l[0] * l[1];
            t[2] = -2 * l[0] * l[2];
            t[0] = -l2;
        }
        if (direction(&K, &L, err)) goto broken;
        double q = curvature(&K, K.ds, &qa);
        if (!isfinite(qa)) goto nonfinite;
        if (!(q >= -CURV_TOL * qa)) {
            qneg = q;
            goto negative;
        }
        memcpy(K.dsta, K.dst, (size_t)n * sizeof(double));
        memcpy(K.dzta, K.dzt, (size_t)n * sizeof(double));
        double aa = fmin(1.0, max_step(&K, K.dsta, K.dzta));
        double mua = 0.0;
        for (int i = 0; i < n; i++) mua += (K.lam[i] + aa * K.dsta[i]) * (K.lam[i] + aa * K.dzta[i]);
        mua /= K.m;
        sigma = fmin(1.0, fmax(0.0, pow(fmax(mua, 0.0) / mu, 3)));
        /* corrector: rc = -lambda o lambda + sigma mu e - ds~_a o dz~_a */
        for (int c = 0; c < nc; c++) {
            double *l = K.lam + 3 * c, *t = K.t + 3 * c, *a = K.dsta + 3 * c, *b = K.dzta + 3 * c;
            if (K.ray[c]) {
                t[0] = -l[0] * l[0] + sigma * mu - a[0] * b[0];
                t[1] = t[2] = 0.0;
                continue;
            }
            t[0] = -(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]) + sigma * mu - (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
            t[1] = -2 * l[0] * l[1] - (a[0] * b[1] + b[0] * a[1]);
            t[2] = -2 * l[0] * l[2] - (a[0] * b[2] + b[0] * a[2]);
        }
        if (direction(&K, &L, err)) goto broken;
        q = curvature(&K, K.ds, &qa);
        if (!isfinite(qa)) goto nonfinite;
        if (!(q >= -CURV_TOL * qa)) {
            qneg = q;
            goto negative;
        }
        double amx = max_step(&K, K.dst, K.dzt);
        double tau = fmin(TAU_MAX, fmax(TAU_MIN, 1.0 - mu / mu0));
        alpha = fmin(1.0, tau * amx);
        /* s += a ds, z += a dz.  When rounding puts a cone outside, the
         * monitor still sees that point (its r may solve the problem),
         * then a is halved until the iterate is interior again. */
        memcpy(K.t, K.s, (size_t)n * sizeof(double));
        memcpy(K.y, K.z, (size_t)n * sizeof(double));
        int shown = 0;
        for (int half = 0;; half++) {
            for (int i = 0; i < n; i++) {
                K.s[i] = K.t[i] + alpha * K.ds[i];
                K.z[i] = K.y[i] + alpha * K.dz[i];
            }
            if (interior(&K) || half == MAX_HALVINGS) break;
            if (half == 0) {
                extra[0] = residuals(&K), extra[1] = alpha, extra[2] = sigma;
                last = K.r;
                shown = 1;
                if ((stop = lcp_monitor_step(mon, k, last, extra))) break;
            }
            alpha *= 0.5;
        }
        if (stop) break;
        mu = residuals(&K);
        extra[0] = mu, extra[1] = alpha, extra[2] = sigma;
        last = K.r;
        /* r running off: docs/contract.md's residual, relative to ||r||, would call
         * such an iterate solved; a certificate says there is no solution */
        double rn2 = two_norm(n, K.r);
        if (rn2 > CERT_RADIUS * r0norm && certificate(&K, k, r0norm, CERT_RADIUS, info)) {
            if (!shown) lcp_monitor_step(mon, k, last, extra);
            break;
        }
        if (!shown && (stop = lcp_monitor_step(mon, k, last, extra))) break;

        if (mon->best.residual <= 0.5 * best) best = mon->best.residual, best_k = k;
        tiny = alpha < TINY_STEP ? tiny + 1 : 0;
        diverged = two_norm(n, K.r) > rlim;
        stalled = k - best_k >= STALL_STEPS || tiny >= TINY_STEPS || !(mu > 0) || !isfinite(mu);
        if (diverged || stalled) break;
    }
    if (info->status == LCP_MAX_ITER && (diverged || stalled || mon->status == LCP_ERROR))
        diagnose(&K, k, diverged || mon->status == LCP_ERROR, tiny >= TINY_STEPS, mu, mu0, rscale, r0norm, info);
    goto finish;
outside:
    info->status = LCP_ERROR;
    snprintf(info->message, sizeof info->message,
             "socp-ipm: the iterate of contact %d left the interior of its cone at step %d (rounding)", bad_c + 1, k);
    goto finish;
negative:
    info->status = LCP_ERROR;
    snprintf(info->message, sizeof info->message,
             "W is not positive semidefinite (dr'W dr = %.3g < 0 on a direction of step %d): socp-ipm needs a "
             "monotone problem", qneg, k);
    goto finish;
nonfinite:
    lcp_fail(err, LCP_ERROR, NULL, 0,
             "socp-ipm: the Newton step of step %d is not finite (P + W^2 singular to working precision)", k);
broken:
    info->status = LCP_ERROR;
    if (k > 1 && mu <= INFEAS_REL * mu0 && inf_norm(n, K.rr) <= INFEAS_REL * rscale) {
        info->status = LCP_MAX_ITER; /* at the rounding level: the monitor's verdict */
        snprintf(info->message, sizeof info->message, "stalled at the rounding level (s'z/m = %.3g): %.200s", mu,
                 err->msg);
        err->msg[0] = '\0';
    } else
        snprintf(info->message, sizeof info->message, "%.250s", err->msg);
    rc = 0;
finish:
    if (last != x) memcpy(x, last, (size_t)n * sizeof(double));
    info->iterations = mon->iter;
    if (L.factored) {
        size_t used = strlen(info->message);
        snprintf(info->message + used, sizeof info->message - used, "%slinear systems: %s%s%s",
                 used ? "; " : "", L.sym ? "CHOLMOD (sparse Cholesky)" : "UMFPACK (sparse LU; W not symmetric)",
                 L.sym && L.chol_fail ? ", regularized or UMFPACK where it failed" : "",
                 nray ? "; mu = 0 contacts as rays" : "");
    }
done:
    ls_free(&L);
    work_free(&K);
    return rc;
}

const lcp_solver lcp_solver_socp_ipm = {
    "socp-ipm", "interior point over second-order cones (NT scaling, Mehrotra), monotone ccp", LCP_KIND_CCP,
    columns, socp_solve, NULL, LCP_SOLVER_FACTOR | LCP_SOLVER_MONOTONE, 0};
