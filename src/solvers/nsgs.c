/* src/solvers/nsgs.c: nonsmooth block Gauss-Seidel over contacts, for ccp
 * and fc3d (Jean & Moreau 1992; Jean 1999, "The non-smooth contact dynamics
 * method"; Acary & Brogliato 2008, "Numerical methods for nonsmooth
 * dynamical systems", ch. 12-13; Siconos' fc3d_nsgs).
 *
 * The problem (docs/contract.md): u = W r + q, per contact i (rows 3i = normal,
 * 3i+1, 3i+2 = tangents) r_i in K_i = {|r_T| <= mu_i r_n} and
 *   fc3d: v_i = u_i + mu_i |u_iT| e_n in K_i^*,  r_i'v_i = 0   (De Saxce)
 *   ccp : u_i in K_i^*,  r_i'u_i = 0                          (Anitescu-Tasora)
 * with K^* = {mu |u_T| <= u_n} the dual cone.
 *
 * One sweep visits the contacts i = 0..nc-1 (or a shuffled order) and solves
 * the contact's own problem with the others frozen at their latest values:
 *     u_i = W_ii r_i + qloc_i,   qloc_i = q_i + sum_{j != i} W_ij r_j
 * (qloc from the CSR rows 3i..3i+2 of W, each summed whole with r_i set
 * to 0 for the time, so that the diagonal block's terms add +-0 (W is
 * finite): one range a row, one pass over nnz(W) a sweep), then
 * r_i <- omega r_loc + (1-omega) r_i (then P_K when omega > 1).  The
 * diagonal blocks W_ii and their inverses are formed once; W_ii must be
 * nonsingular with W_nn > 0 (else the contact is named and the problem
 * refused).
 *
 * Local solvers (--local):
 *  projection: the fixed point r <- P_K(r - rho v(r)) (v the modified
 *      velocity above), up to LOCAL_PROJ_ITERS times a visit; rho from
 *      --rho, default 1 / max diag W_ii.
 *  newton: Alart-Curnier's function (Alart & Curnier 1991; Christensen,
 *      Klarbring, Pang & Stromberg 1998), with rho_n = 1/W_nn, rho_T =
 *      2/(W_t1t1 + W_t2t2), and the normal velocity nu = u_n (fc3d) or
 *      nu = u_n - mu |u_T| (ccp: the ccp in u is the fc3d in
 *      u - mu |u_T| e_n, so the same Coulomb law applies):
 *          Phi_n = r_n - max(0, r_n - rho_n nu)
 *          Phi_T = r_T - P_B(mu max(0, r_n - rho_n nu)) (r_T - rho_T u_T)
 *      (P_B(R) the projection onto the disc of radius R); a generalized
 *      Newton step J d = -Phi (3x3 Gaussian elimination, partial pivoting)
 *      with an Armijo backtracking on |Phi|^2/2; the exact solver below, then
 *      the projection iteration, take over when it fails (strongly coupled
 *      W_ii, about 2% of random ones).
 *  exact (default, also auto): enumerates the three regimes of the contact
 *      (cf. Daviet, Bertails-Descoubes & Boissieux 2011, whose sliding case
 *      is a quartic; Siconos' fc3d_unitary_enumerative):
 *      take-off r = 0 (fc3d: q_n >= 0; ccp: q in K^*); stick
 *      r = -W_ii^-1 q in K; slide r = r_n d(t), d(t) = (1, mu cos t,
 *      mu sin t) on the cone's boundary, with
 *          fc3d: u_n = 0, u_T = -lambda (cos t, sin t), lambda >= 0
 *          ccp : u = sigma (mu, -cos t, -sin t), sigma >= 0  (u _|_ r in K^*)
 *      Both say: m'u = 0 and b'u = 0, b = (0, -sin t, cos t), m = e_n (fc3d)
 *      or d(t) (ccp); so r_n = -m'q / m'W d and t solves the scalar equation
 *          G(t) = (m'W d)(b'q) - (m'q)(b'W d) = 0,
 *      a trigonometric polynomial of degree 2 (at most 4 roots): Newton on t
 *      from the contact's last direction, else a scan of NSCAN angles (then
 *      32 NSCAN) with a safeguarded Newton in each sign change, over the arc
 *      where m'W d > 0 (fc3d: W_nn + mu (W_nt1 cos t + W_nt2 sin t) > 0,
 *      an arc in closed form; roots come in close pairs across its ends);
 *      a root counts when m'W d > 0,
 *      r_n >= 0 and lambda (sigma) >= 0.  Works for any W_ii with a positive
 *      definite symmetric part; a sliding answer is checked (a bound on
 *      its natural-map residual by its distance to an exact slide, else the
 *      residual itself, src/core/verify.c), and the Newton local solver, then the
 *      projection iteration, take over if it fails.  mu = 0 gives
 *      r = (max(0, -q_n / W_nn), 0, 0) at once.
 *
 * --omega W relaxes (default 1; --omega auto is 1 too), --shuffle visits the
 * contacts in a new random order each sweep (a fixed-seed PRNG: runs are
 * reproducible).  Trace column: max_dr, the largest |r_i new - r_i old| of
 * the sweep.  All workspace is allocated before the first sweep.
 */
#include "solver.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {"max_dr", NULL};

#define TWO_PI 6.28318530717958647692
#define LOCAL_PROJ_ITERS 10     /* projection: iterations a visit (--local projection) */
#define FALLBACK_PROJ_ITERS 200 /* projection after a failed exact/Newton solve */
#define NEWTON_ITERS 30         /* local Newton iterations */
#define NSCAN 32                /* angles sampled by the exact solver's scan */
#define LOCAL_ACCEPT 1e-10      /* relative local residual an exact/Newton answer must reach */
#define SINGULAR_DET 1e-12      /* |det W_ii| / (W_nn W_t1t1 W_t2t2) below this: singular */

/* One contact's problem: u = W r + q, mu, kind. */
typedef struct {
    const double *W;    /* 3x3 row-major W_ii */
    const double *Winv; /* its inverse */
    double q[3];        /* qloc_i */
    double mu;
    int desaxce;        /* 1: fc3d, 0: ccp */
    double rho;         /* projection step */
} local_problem;

/* ---------------------------------------------------------- 3x3 helpers */

static inline double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static inline void mv3(const double *W, const double *x, double *y) /* y = W x */
{
    y[0] = W[0] * x[0] + W[1] * x[1] + W[2] * x[2];
    y[1] = W[3] * x[0] + W[4] * x[1] + W[5] * x[2];
    y[2] = W[6] * x[0] + W[7] * x[1] + W[8] * x[2];
}

static inline double norm3(const double *a) { return sqrt(dot3(a, a)); }

static inline double det3(const double *W)
{
    return W[0] * (W[4] * W[8] - W[5] * W[7]) - W[1] * (W[3] * W[8] - W[5] * W[6]) +
           W[2] * (W[3] * W[7] - W[4] * W[6]);
}

/* Solves J x = f (J 3x3 row-major, destroyed) by Gaussian elimination with
 * partial pivoting; non-zero when a pivot vanishes. */
static int solve3(double *J, double *f, double *x)
{
    int piv[3] = {0, 1, 2};
    for (int k = 0; k < 3; k++) {
        int p = k;
        for (int i = k + 1; i < 3; i++)
            if (fabs(J[3 * piv[i] + k]) > fabs(J[3 * piv[p] + k])) p = i;
        int t = piv[k]; piv[k] = piv[p]; piv[p] = t;               /* row swap */
        double d = J[3 * piv[k] + k];
        if (!(fabs(d) > 1e-300)) return 1;
        for (int i = k + 1; i < 3; i++) {
            double l = J[3 * piv[i] + k] / d;                     /* multiplier */
            for (int j = k; j < 3; j++) J[3 * piv[i] + j] -= l * J[3 * piv[k] + j];
            f[piv[i]] -= l * f[piv[k]];
        }
    }
    for (int k = 2; k >= 0; k--) {                                 /* back substitution */
        double s = f[piv[k]];
        for (int j = k + 1; j < 3; j++) s -= J[3 * piv[k] + j] * x[j];
        x[k] = s / J[3 * piv[k] + k];
    }
    return !(isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]));
}

/* Inverse of W (3x3, row-major) by the adjugate; non-zero when singular:
 * |det W| <= SINGULAR_DET W_11 W_22 W_33 (with a positive diagonal: blind
 * to the scaling of the rows, at most 1 for a positive definite W), else
 * <= SINGULAR_DET max|W_ij|^3. */
static int inverse3(const double *W, double *Wi)
{
    double det = det3(W), m = 0;
    for (int k = 0; k < 9; k++) m = fmax(m, fabs(W[k]));
    double scale = W[0] > 0 && W[4] > 0 && W[8] > 0 ? W[0] * W[4] * W[8] : m * m * m;
    if (!(fabs(det) > SINGULAR_DET * scale)) return 1;
    Wi[0] = (W[4] * W[8] - W[5] * W[7]) / det;
    Wi[1] = (W[2] * W[7] - W[1] * W[8]) / det;
    Wi[2] = (W[1] * W[5] - W[2] * W[4]) / det;
    Wi[3] = (W[5] * W[6] - W[3] * W[8]) / det;
    Wi[4] = (W[0] * W[8] - W[2] * W[6]) / det;
    Wi[5] = (W[2] * W[3] - W[0] * W[5]) / det;
    Wi[6] = (W[3] * W[7] - W[4] * W[6]) / det;
    Wi[7] = (W[1] * W[6] - W[0] * W[7]) / det;
    Wi[8] = (W[0] * W[4] - W[1] * W[3]) / det;
    return 0;
}

/* -------------------------------------------------- the local residual */

/* max(|q|, |r|, |u|)^2: the square of the local residual's scale */
static inline double local_scale2(const local_problem *L, const double *r, const double *u)
{
    return lcp_max_nan(dot3(L->q, L->q), lcp_max_nan(dot3(r, r), dot3(u, u)));
}

/* The local residual's square and its scale's: ||r - P_K(r - v)||^2 and
 * max(|q|, |r|, |u|)^2, the global residual's measure for one contact
 * (src/core/verify.c). */
static void local_error2(const local_problem *L, const double *r, double *e2, double *s2)
{
    double u[3];
    mv3(L->W, r, u);
    for (int k = 0; k < 3; k++) u[k] += L->q[k];                   /* u = W r + q */
    *e2 = lcp_contact_residual2(L->mu, L->desaxce, r, u);
    *s2 = local_scale2(L, r, u);
}

/* ||r - P_K(r - v)|| / max(|q|, |r|, |u|) */
static double local_error(const local_problem *L, const double *r)
{
    double e2, s2;
    local_error2(L, r, &e2, &s2);
    double e = sqrt(e2), s = sqrt(s2); /* the largest norm: the root of the largest square */
    return s > 0 ? e / s : e;
}

/* local_error(L, r) <= LOCAL_ACCEPT, tested on the squares: no roots and
 * no division on the path every sliding contact takes */
static int local_accepted(const local_problem *L, const double *r)
{
    double e2, s2;
    local_error2(L, r, &e2, &s2);
    return s2 > 0 ? e2 <= LOCAL_ACCEPT * LOCAL_ACCEPT * s2 : e2 <= LOCAL_ACCEPT * LOCAL_ACCEPT;
}

/* ------------------------------------------------- local: projection */

/* r <- P_K(r - rho v(r)), up to iters times, stopping when r settles. */
static void local_projection(const local_problem *L, double *r, int iters)
{
    for (int it = 0; it < iters; it++) {
        double u[3], z[3];
        mv3(L->W, r, u);
        for (int k = 0; k < 3; k++) u[k] += L->q[k];               /* u = W r + q */
        if (L->desaxce) u[0] += L->mu * lcp_norm2(u[1], u[2]);     /* v = u + mu |u_T| e_n */
        for (int k = 0; k < 3; k++) z[k] = r[k] - L->rho * u[k];   /* r - rho v */
        lcp_cone_project(L->mu, z);                                /* P_K */
        double d = fabs(z[0] - r[0]) + fabs(z[1] - r[1]) + fabs(z[2] - r[2]);
        memcpy(r, z, sizeof z);
        if (d <= 1e-15 * (fabs(r[0]) + fabs(r[1]) + fabs(r[2]))) break;
    }
}

/* ------------------------------------------ local: Alart-Curnier Newton */

/* Phi(r) of the header and, when J != NULL, a generalized Jacobian. */
static void ac_function(const local_problem *L, double rn_rho, double rt_rho, const double *r, double *F,
                        double *J)
{
    const double *W = L->W;
    double mu = L->mu, u[3];
    mv3(W, r, u);
    for (int k = 0; k < 3; k++) u[k] += L->q[k];                   /* u = W r + q */
    double ut = lcp_norm2(u[1], u[2]);
    double kappa = L->desaxce ? 0.0 : mu;                          /* ccp: nu = u_n - mu |u_T| */
    double nu = u[0] - kappa * ut;
    double dnu[3];                                                 /* d nu / d r */
    for (int j = 0; j < 3; j++)
        dnu[j] = W[j] - (ut > 0 ? kappa * (u[1] * W[3 + j] + u[2] * W[6 + j]) / ut : 0.0);
    double xn = r[0] - rn_rho * nu;                                /* augmented normal reaction */
    double y[2] = {r[1] - rt_rho * u[1], r[2] - rt_rho * u[2]};    /* augmented tangent reaction */
    double R = mu * fmax(0.0, xn), ny = lcp_norm2(y[0], y[1]);     /* disc radius, |y| */
    F[0] = r[0] - fmax(0.0, xn);
    if (ny <= R) {
        F[1] = r[1] - y[0];
        F[2] = r[2] - y[1];
    } else {
        F[1] = r[1] - R * y[0] / ny;
        F[2] = r[2] - R * y[1] / ny;
    }
    if (!J) return;
    for (int j = 0; j < 3; j++) J[j] = xn > 0 ? rn_rho * dnu[j] : (j == 0); /* dPhi_n */
    double dy[2][3];                                               /* dy/dr = E_T - rho_T W_T */
    for (int a = 0; a < 2; a++)
        for (int j = 0; j < 3; j++) dy[a][j] = (j == a + 1) - rt_rho * W[3 * (a + 1) + j];
    if (ny <= R) {                                                 /* inside the disc: Phi_T = rho_T u_T */
        for (int a = 0; a < 2; a++)
            for (int j = 0; j < 3; j++) J[3 * (a + 1) + j] = (j == a + 1) - dy[a][j];
        return;
    }
    double t[2] = {y[0] / ny, y[1] / ny}, s = R / ny;
    for (int a = 0; a < 2; a++)
        for (int j = 0; j < 3; j++) {
            double dR = xn > 0 ? mu * ((j == 0) - rn_rho * dnu[j]) : 0.0; /* dR/dr */
            double ty = t[0] * dy[0][j] + t[1] * dy[1][j];
            double dP = t[a] * dR + s * (dy[a][j] - t[a] * ty);   /* d(R y/|y|) = t dR + R/|y| (I - t t') dy */
            J[3 * (a + 1) + j] = (j == a + 1) - dP;
        }
}

/* Newton with an Armijo line search on |Phi|^2 / 2 from r; 0 when the
 * local residual is below LOCAL_ACCEPT. */
static int local_newton(const local_problem *L, double *r)
{
    const double *W = L->W;
    double rn_rho = 1.0 / W[0], rt_rho = 2.0 / (W[4] + W[8]);
    if (!(rt_rho > 0 && isfinite(rt_rho))) rt_rho = rn_rho;
    double F[3], J[9], d[3], rt[3], Ft[3];
    ac_function(L, rn_rho, rt_rho, r, F, J);
    double psi = 0.5 * dot3(F, F);
    for (int it = 0; it < NEWTON_ITERS && psi > 0; it++) {
        double mf[3] = {-F[0], -F[1], -F[2]};
        if (solve3(J, mf, d)) break;                               /* J d = -Phi */
        double t = 1.0, psit = psi;
        for (int ls = 0; ls < 30; ls++, t *= 0.5) {                /* Armijo: psi(r + t d) <= (1 - 2 sigma t) psi */
            for (int k = 0; k < 3; k++) rt[k] = r[k] + t * d[k];
            ac_function(L, rn_rho, rt_rho, rt, Ft, NULL);
            psit = 0.5 * dot3(Ft, Ft);
            if (psit <= (1.0 - 2e-4 * t) * psi) break;
        }
        if (!(psit < psi)) break;                                  /* no descent: stalled */
        double step = t * norm3(d);
        memcpy(r, rt, sizeof rt);
        ac_function(L, rn_rho, rt_rho, r, F, J);
        psi = 0.5 * dot3(F, F);
        if (step <= 1e-16 * norm3(r)) break;
    }
    lcp_cone_project(L->mu, r);                                    /* r in K exactly */
    return !local_accepted(L, r);
}

/* ----------------------------------------------- local: exact (enumerative) */

typedef struct {
    double c, s;    /* the direction (cos t, sin t) */
    double G, dG;   /* G(t) and G'(t) */
    double ma;      /* m'W d */
    double rn;      /* -m'q / m'W d (full evaluation only, as below) */
    double u[3];    /* u = r_n W d + q, the velocity of r = r_n d */
    double sigma;   /* lambda (fc3d) or sigma (ccp): must be >= 0 */
    double scale;   /* |q| + rn |W d|, for sign tests */
    double gscale;  /* |m'W d| |q| + |m'q| |W d|: bounds G's terms */
} slide_point;

/* The sliding candidate at the direction (c, sn) = (cos t, sin t) (header):
 * G and G' (what Newton and the scan need); with full, also r_n, the sign of
 * the velocity's multiplier and the scales of the tests.  The angle itself
 * is never formed: no sine or cosine a step. */
static void slide_eval(const local_problem *L, double c, double sn, slide_point *s, int full)
{
    double mu = L->mu;
    double d[3] = {1.0, mu * c, mu * sn};                          /* boundary ray d(t) */
    double b[3] = {0.0, -sn, c}, bp[3] = {0.0, -c, -sn};           /* b(t) _|_ d, and b'(t) */
    double a[3], ap[3];
    mv3(L->W, d, a);                                               /* a = W d */
    mv3(L->W, b, ap);
    for (int k = 0; k < 3; k++) ap[k] *= mu;                       /* a' = W d' = mu W b */
    double m[3], mp[3];
    if (L->desaxce) {                                              /* fc3d: m = e_n */
        m[0] = 1.0, m[1] = m[2] = 0.0;
        mp[0] = mp[1] = mp[2] = 0.0;
    } else {                                                       /* ccp: m = d, m' = mu b */
        memcpy(m, d, sizeof d);
        for (int k = 0; k < 3; k++) mp[k] = mu * b[k];
    }
    const double *q = L->q;
    double ma = dot3(m, a), mq = dot3(m, q), ba = dot3(b, a), bq = dot3(b, q);
    double dma = dot3(mp, a) + dot3(m, ap), dmq = dot3(mp, q);
    double dba = dot3(bp, a) + dot3(b, ap), dbq = dot3(bp, q);
    s->c = c, s->s = sn;
    s->G = ma * bq - mq * ba;
    s->dG = dma * bq + ma * dbq - dmq * ba - mq * dba;
    s->ma = ma;
    if (!full) return;
    s->rn = ma > 0 ? -mq / ma : -1.0;
    double e[3] = {L->desaxce ? 0.0 : mu, -c, -sn};                /* u = sigma e at a root */
    double *u = s->u;
    for (int k = 0; k < 3; k++) u[k] = s->rn * a[k] + q[k];
    s->sigma = dot3(e, u) / dot3(e, e);
    double na = norm3(a), nq = norm3(q);
    s->scale = nq + fabs(s->rn) * na;
    s->gscale = fabs(ma) * nq + fabs(mq) * na;                     /* |b| = 1 bounds b'q, b'a */
}

/* slide_eval at the angle t (the scan's points) */
static void slide_eval_at(const local_problem *L, double t, slide_point *s, int full)
{
    slide_eval(L, cos(t), sin(t), s, full);
}

static int slide_valid(const slide_point *s)
{
    double eps = 1e-12 * s->scale;
    return s->ma > 0 && s->rn >= 0 && s->sigma >= -eps && fabs(s->G) <= 1e-10 * s->gscale;
}

/* A sliding answer r = r_n d(t) passes local_accepted when this bound
 * does, with no root, division or projection (the slide's u = r_n W d + q
 * of the full evaluation: W r + q but for rounding).  With sigma >= 0 and
 * u* = sigma e (e as in slide_eval), (r, u*) solves the contact's law
 * exactly (r in K; ccp: u* in K^*, r'u* = 0; fc3d: u* = (0, -sigma c,
 * -sigma s), whose modified velocity v* = sigma (mu, -c, -s) is in K^* and
 * orthogonal to r), so r = P_K(r - v*), and P_K being nonexpansive,
 * ||r - P_K(r - v)|| <= ||v - v*||.  ccp: v - v* = u - u*.  fc3d: with
 * beta = (-s, c) u_T, |u_T| = sqrt(sigma^2 + beta^2), so ||v - v*|| <=
 * |u_n| + mu (|u_T| - sigma) + |beta| <= |u_n| + (1 + mu) |beta|, whose square is
 * at most 2 (1 + mu)^2 ||u - u*||^2.  When the bound fails (sigma < 0, or
 * a slide far from converged) local_accepted decides. */
static int slide_certified(const local_problem *L, const slide_point *s, const double *r)
{
    if (!(s->sigma >= 0)) return 0;
    double mu = L->mu, e[3] = {L->desaxce ? 0.0 : mu, -s->c, -s->s}, w[3];
    for (int k = 0; k < 3; k++) w[k] = s->u[k] - s->sigma * e[k];  /* u - u* */
    double kappa = L->desaxce ? 2.0 * (1.0 + mu) * (1.0 + mu) : 1.0;
    return kappa * dot3(w, w) <= LOCAL_ACCEPT * LOCAL_ACCEPT * local_scale2(L, r, s->u);
}

/* Newton on G from the direction (c, sn), |steps| <= 0.5: a step h moves
 * the direction to (c, sn) + h (-sn, c), scaled back onto the circle (the
 * angle moves by atan h = h - h^3/3 + ...: Newton's quadratic convergence
 * is kept, and the step costs a square root, not a sine and a cosine).
 * Leaves the full evaluation at the final direction in s. */
static void slide_newton(const local_problem *L, double c, double sn, slide_point *s)
{
    for (int it = 0; it < 40; it++) {
        slide_eval(L, c, sn, s, 0);
        if (s->G == 0.0) break;
        if (!(s->dG != 0.0)) break;
        double h = -s->G / s->dG;
        if (h > 0.5) h = 0.5;
        if (h < -0.5) h = -0.5;
        double h2 = h * h, k = h2 < 1e-12 ? 1.0 - 0.5 * h2 : 1.0 / sqrt(1.0 + h2); /* 1/sqrt(1 + h^2), to rounding */
        double cn = (c - h * sn) * k;
        sn = (sn + h * c) * k;
        c = cn;
        if (fabs(h) < 1e-8) break; /* converging quadratically: the angle now right to about h^2 */
    }
    slide_eval(L, c, sn, s, 1);
}

/* A root of G in [lo, hi] with G(lo) G(hi) <= 0: Newton, kept inside the
 * bracket, bisection when it leaves it; returns its angle, the full
 * evaluation there in s. */
static double slide_bracket(const local_problem *L, double lo, double hi, double glo, slide_point *s)
{
    double t = 0.5 * (lo + hi);
    for (int it = 0; it < 100 && hi - lo > 1e-15; it++) {
        slide_eval_at(L, t, s, 0);
        if (s->G == 0.0) break;
        if ((s->G < 0) == (glo < 0)) lo = t, glo = s->G;           /* keep the sign change bracketed */
        else hi = t;
        double tn = s->dG != 0 ? t - s->G / s->dG : 0.5 * (lo + hi);
        if (!(tn > lo && tn < hi)) tn = 0.5 * (lo + hi);          /* Newton left the bracket: bisect */
        if (fabs(tn - t) < 1e-15) {
            t = tn;
            break;
        }
        t = tn;
    }
    slide_eval_at(L, t, s, 1);
    return t;
}

static double angle_distance(double a, double b)
{
    double d = fmod(fabs(a - b), TWO_PI);
    return d > TWO_PI / 2 ? TWO_PI - d : d;
}

/* The three regimes; 0 when r solves the local problem (take-off and stick
 * exactly by construction, a slide when its residual passes LOCAL_ACCEPT). */
static int local_exact(const local_problem *L, double *r)
{
    const double *q = L->q, *W = L->W;
    double mu = L->mu;
    if (L->desaxce ? q[0] >= 0 : q[0] >= mu * lcp_norm2(q[1], q[2])) { /* take-off: r = 0, u = q */
        r[0] = r[1] = r[2] = 0.0;
        return 0;
    }
    if (mu == 0) {                                                 /* frictionless: u_n = 0 */
        r[0] = fmax(0.0, -q[0] / W[0]);
        r[1] = r[2] = 0.0;
        return 0;
    }
    double s[3];
    mv3(L->Winv, q, s);
    for (int k = 0; k < 3; k++) s[k] = -s[k];                      /* stick: W r = -q, u = 0 */
    double st2 = s[1] * s[1] + s[2] * s[2], lim = mu * s[0] * (1 + 1e-12);
    if (s[0] > 0 && st2 <= lim * lim) {                            /* in K (to rounding): |s_T| <= lim */
        double st = sqrt(st2);
        if (st > mu * s[0]) s[1] *= mu * s[0] / st, s[2] *= mu * s[0] / st; /* onto K exactly */
        memcpy(r, s, sizeof s);
        return 0;
    }
    /* slide: Newton on G from the contact's last direction (or the stick
     * candidate's, or -q_T's) */
    double c0 = 1.0, s0 = 0.0, rt = lcp_norm2(r[1], r[2]), st, qt;
    if (rt > 0) {
        double k = 1.0 / rt;
        c0 = r[1] * k, s0 = r[2] * k;
    } else if ((st = sqrt(st2)) > 0) {
        c0 = s[1] / st, s0 = s[2] / st;
    } else if ((qt = lcp_norm2(q[1], q[2])) > 0) {
        c0 = -q[1] / qt, s0 = -q[2] / qt;
    }
    slide_point sp, best;
    slide_newton(L, c0, s0, &sp);
    int found = slide_valid(&sp);
    best = sp;
    if (!found) {                                                  /* scan the angles where m'W d > 0 */
        double t0 = atan2(s0, c0), tbest = 0.0;
        double lo = t0, hi = t0 + TWO_PI;
        if (L->desaxce) {                                          /* m'W d = W_nn + mu R cos(t - phi) */
            double R = lcp_norm2(W[1], W[2]), phi = atan2(W[2], W[1]);
            if (mu * R > W[0]) {                                   /* an arc: |t - phi| < alpha */
                double alpha = acos(-W[0] / (mu * R));
                lo = phi - alpha;
                hi = phi + alpha;
            }
        }
        for (int pass = 0; pass < 2 && !found; pass++) {           /* NSCAN intervals, then 32 NSCAN */
            int ns = pass ? 32 * NSCAN : NSCAN;
            slide_point prev, cur;
            double tp = lo;
            slide_eval_at(L, tp, &prev, 0);
            for (int k = 1; k <= ns; k++) {
                double tk = lo + (hi - lo) * k / ns;
                slide_eval_at(L, tk, &cur, 0);
                if ((prev.G <= 0) != (cur.G <= 0) || cur.G == 0) { /* a sign change: refine */
                    double tr = slide_bracket(L, tp, tk, prev.G, &sp);
                    if (slide_valid(&sp) && (!found || angle_distance(tr, t0) < angle_distance(tbest, t0))) {
                        best = sp;
                        tbest = tr;
                        found = 1;
                    }
                }
                prev = cur;
                tp = tk;
            }
        }
    }
    if (!found) return 1;
    r[0] = best.rn;                                                /* r = r_n d(t) */
    r[1] = best.rn * mu * best.c;
    r[2] = best.rn * mu * best.s;
    return !(slide_certified(L, &best, r) || local_accepted(L, r));
}

/* ------------------------------------------------------ local dispatch */

/* r <- the local solution by the chosen solver; when it fails, the other
 * of exact/Newton from the same start, then the projection iteration from
 * the better of the two. */
static void local_solve(const local_problem *L, int local, double *r)
{
    if (local == LCP_LOCAL_PROJECTION) {
        local_projection(L, r, LOCAL_PROJ_ITERS);
        return;
    }
    double r0[3] = {r[0], r[1], r[2]}, r1[3];
    int newton_first = local == LCP_LOCAL_NEWTON;
    if (!(newton_first ? local_newton(L, r) : local_exact(L, r))) return;
    memcpy(r1, r, sizeof r1);                                      /* the first solver's answer */
    memcpy(r, r0, sizeof r0);
    if (!(newton_first ? local_exact(L, r) : local_newton(L, r))) return;
    if (local_error(L, r1) < local_error(L, r)) memcpy(r, r1, sizeof r1);
    double rp[3] = {r[0], r[1], r[2]};                             /* both failed: project */
    local_projection(L, rp, FALLBACK_PROJ_ITERS);
    if (local_error(L, rp) < local_error(L, r)) memcpy(r, rp, sizeof rp);
}

/* --------------------------------------------------------------- solve */

/* splitmix64: a fixed-seed generator for --shuffle */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* W_ii of every contact (row-major, 9 a contact) and its inverse; refuses
 * a contact whose block is singular or has W_nn <= 0. */
static int diagonal_blocks(const lcp_problem *p, double *W, double *Winv, lcp_err *err)
{
    for (int i = 0; i < p->nc; i++) {
        double *Wi = W + 9 * i;
        lcp_csr_block3(&p->A, i, Wi);
        if (!(Wi[0] > 0) || inverse3(Wi, Winv + 9 * i))
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                            "nsgs needs a nonsingular diagonal block W_ii with W_nn > 0, but contact %d "
                            "(rows %d-%d) has W_nn = %g, det W_ii = %g",
                            i + 1, 3 * i + 1, 3 * i + 3, Wi[0], det3(Wi));
    }
    return 0;
}

/* What one contact's update reads. */
typedef struct {
    const lcp_problem *p;
    const double *W, *Winv, *rho;
    int local;
    double omega;
} sweep_data;

/* Solves contact i's local problem with the others fixed and writes r_i;
 * returns |dr_i|^2 (the sweep takes the root of the largest: the same bits
 * as the largest root, one root a sweep).  Reads only the rows of contact i
 * and the r_j it is coupled with, so contacts that share no body may run at
 * once. */
static double contact_update(const sweep_data *C, int i, double *x)
{
    const lcp_problem *p = C->p;
    const int *ap = p->A.p, *aj = p->A.j;
    const double *ax = p->A.x, *b = p->b;
    local_problem L = {C->W + 9 * i, C->Winv + 9 * i, {0, 0, 0}, p->mu[i], p->kind == LCP_KIND_FC3D, C->rho[i]};
    double *ri = x + 3 * i, r0[3] = {ri[0], ri[1], ri[2]}, rl[3] = {ri[0], ri[1], ri[2]};
    ri[0] = ri[1] = ri[2] = 0.0; /* r_i set aside: its terms add +-0 to the sums below */
    for (int a = 0; a < 3; a++) { /* qloc = q_i + sum_{j != i} W_ij r_j, a row in one range */
        int row = 3 * i + a;
        L.q[a] = lcp_csr_row_dot(aj, ax, x, ap[row], ap[row + 1]) + b[row];
    }
    local_solve(&L, C->local, rl);
    if (C->omega != 1.0) { /* r <- omega r_loc + (1 - omega) r */
        for (int a = 0; a < 3; a++) rl[a] = C->omega * rl[a] + (1.0 - C->omega) * r0[a];
        if (C->omega > 1.0) lcp_cone_project(L.mu, rl);
    }
    double dr[3] = {rl[0] - r0[0], rl[1] - r0[1], rl[2] - r0[2]};
    memcpy(ri, rl, sizeof rl);
    return dot3(dr, dr);
}

/* The per-contact update of the sweeps, on its own (src/mpi sweeps its own
 * contacts with it): the diagonal blocks, their inverses and the steps. */
struct lcp_nsgs {
    sweep_data C;
    double *W, *Winv, *rho;
};

void lcp_nsgs_free(lcp_nsgs *S)
{
    if (!S) return;
    free(S->W);
    free(S->Winv);
    free(S->rho);
    free(S);
}

int lcp_nsgs_setup(const lcp_problem *p, const lcp_settings *s, lcp_nsgs **out, lcp_err *err)
{
    int nc = p->nc;
    lcp_nsgs *S = calloc(1, sizeof *S);
    *out = NULL;
    if (S) {
        S->W = lcp_alloc((size_t)nc, 9 * sizeof(double));
        S->Winv = lcp_alloc((size_t)nc, 9 * sizeof(double));
        S->rho = lcp_alloc((size_t)nc, sizeof(double));
    }
    if (!S || !S->W || !S->Winv || !S->rho ) {
        lcp_nsgs_free(S);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (%d contacts)", nc);
    }
    int rc = diagonal_blocks(p, S->W, S->Winv, err);
    if (rc) {
        lcp_nsgs_free(S);
        return rc;
    }
    for (int i = 0; i < nc; i++) { /* projection step: --rho or 1/max diag */
        const double *Wi = S->W + 9 * i;
        S->rho[i] = s->nsgs.rho > 0 ? s->nsgs.rho : 1.0 / fmax(Wi[0], fmax(Wi[4], Wi[8]));
    }
    double omega = s->omega > 0 && !s->omega_auto ? s->omega : 1.0;
    S->C = (sweep_data){p, S->W, S->Winv, S->rho, s->nsgs.local, omega};
    *out = S;
    return 0;
}

double lcp_nsgs_update(const lcp_nsgs *S, int contact, double *x) { return sqrt(contact_update(&S->C, contact, x)); }

/* The sweeps; extra[0] gets max_dr for the trace (the caller may have more
 * columns: bgs on friction kinds). */
int lcp_nsgs_run(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                 lcp_err *err, double *extra)
{
    int nc = p->nc;
    lcp_nsgs *S = NULL;
    int *order = NULL;
    int rc = lcp_nsgs_setup(p, s, &S, err);
    if (rc) return rc;
    if (s->nsgs.shuffle && !(order = lcp_alloc((size_t)nc, sizeof(int)))) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (%d contacts)", nc);
        goto done;
    }
    for (int i = 0; order && i < nc; i++) order[i] = i;
    info->omega = S->C.omega;

    if (order && s->order) {
        rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "nsgs: --shuffle and --order cannot be used together");
        goto done;
    }
    const sweep_data *C = &S->C;
    uint64_t seed = 0x6e7367736e736773ULL;                         /* fixed: reproducible shuffles */
    double maxdr = 0.0;
    extra[0] = maxdr;
    lcp_team team; /* colour classes: the sweeps' threads, chosen by their times */
    lcp_team_init(&team, s->order && s->order->ncolours > 0 ? s->threads : 1);
    if (!lcp_monitor_step(mon, 0, x, extra)) {
        for (int k = 1;; k++) {
            lcp_team_begin(&team);
            if (order)
                for (int i = nc - 1; i > 0; i--) {                 /* Fisher-Yates */
                    int j = (int)(next_random(&seed) % (uint64_t)(i + 1));
                    int t = order[i]; order[i] = order[j]; order[j] = t;
                }
            maxdr = 0.0; /* the largest |dr_i|^2 of the sweep */
            if (s->order && s->order->ncolours > 0) { /* a colour class at a time, its contacts at once */
                const lcp_order *o = s->order;
                /* one team for the whole sweep: a barrier between classes, not a fork */
#pragma omp parallel reduction(max : maxdr)
                for (int c = 0; c < o->ncolours; c++) {
#pragma omp for schedule(static)
                    for (int ii = o->cptr[c]; ii < o->cptr[c + 1]; ii++)
                        maxdr = lcp_max_nan(maxdr, contact_update(C, o->perm[ii], x));
                }
            } else {
                for (int ii = 0; ii < nc; ii++) {
                    int i = order ? order[ii] : s->order ? s->order->perm[ii] : ii;
                    maxdr = lcp_max_nan(maxdr, contact_update(C, i, x));
                }
            }
            extra[0] = sqrt(maxdr);
            int stop = lcp_monitor_step(mon, k, x, extra);
            lcp_team_end(&team);
            if (stop) break;
        }
    }
    lcp_team_done(&team);
    info->iterations = mon->iter;
done:
    lcp_nsgs_free(S);
    free(order);
    return rc;
}

static int nsgs_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                      lcp_err *err)
{
    double extra[1] = {0.0};
    return lcp_nsgs_run(p, s, x, mon, info, err, extra);
}

const lcp_solver lcp_solver_nsgs = {
    "nsgs", "nonsmooth block Gauss-Seidel over contacts (--local exact|newton|projection, --shuffle)",
    LCP_KIND_CCP | LCP_KIND_FC3D, columns, nsgs_solve, NULL, LCP_SOLVER_ORDER | LCP_SOLVER_LINEAR, 0};
