/* src/verify.c: residual, complementarity and feasibility of a candidate
 * solution, for every kind (DESIGN.md).  The only place they are computed. */
#include "verify.h"

#include <math.h>

/* |(a, b)|: sqrt, not hypot (several times slower, and contact impulses
 * and velocities are nowhere near overflow) */
static inline double norm2(double a, double b) { return sqrt(a * a + b * b); }
/* fmax and fmin (a NaN argument gives the other), inline: libm's are calls,
 * several a row in the loops below that run after every iteration */
static inline double max_nan(double a, double b) { return (b > a || a != a) ? b : a; }
static inline double min_nan(double a, double b) { return (b < a || a != a) ? b : a; }

void lcp_cone_project(double mu, double *r)
{
    double rn = r[0], nt = norm2(r[1], r[2]);
    if (rn >= 0 && nt <= mu * rn) return; /* inside K_mu */
    if (mu * nt <= -rn) {             /* inside the polar cone: project to 0 */
        r[0] = r[1] = r[2] = 0.0;
        return;
    }
    double pn = (rn + mu * nt) / (1.0 + mu * mu); /* onto the cone's surface */
    double s = nt > 0 ? mu * pn / nt : 0.0;
    r[0] = pn;
    r[1] *= s;
    r[2] *= s;
}

/* Distance of u to the dual cone K*_mu = {mu |u_T| <= u_n}. */
static double dual_cone_distance(double mu, const double *u)
{
    double d[3] = {u[0], u[1], u[2]};
    if (mu > 0) {
        lcp_cone_project(1.0 / mu, d); /* K*_mu = K_{1/mu} */
        return sqrt((u[0] - d[0]) * (u[0] - d[0]) + (u[1] - d[1]) * (u[1] - d[1]) +
                    (u[2] - d[2]) * (u[2] - d[2]));
    }
    return u[0] < 0 ? -u[0] : 0.0; /* mu = 0: the half-space u_n >= 0 */
}

double lcp_contact_residual2(double mu, int desaxce, const double *r, const double *u)
{
    double v[3] = {u[0], u[1], u[2]};
    if (desaxce) v[0] += mu * norm2(u[1], u[2]);             /* De Saxce: u + mu |u_T| e_n */
    double z[3] = {r[0] - v[0], r[1] - v[1], r[2] - v[2]};   /* r - v */
    lcp_cone_project(mu, z);                                 /* P_K(r - v) */
    return (r[0] - z[0]) * (r[0] - z[0]) + (r[1] - z[1]) * (r[1] - z[1]) + (r[2] - z[2]) * (r[2] - z[2]);
}

static double inf_norm(const double *v, int n)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = max_nan(m, fabs(v[i]));
    return m;
}

static void metrics_lcp(const lcp_problem *p, const double *x, const double *w, lcp_metrics *m)
{
    double res = 0.0, comp = 0.0, feas = 0.0;
    for (int i = 0; i < p->n; i++) {
        res = max_nan(res, fabs(min_nan(x[i], w[i])));
        comp += x[i] * w[i];
        feas = max_nan(feas, max_nan(-x[i], -w[i]));
    }
    m->residual = res / fmax(fmax(1.0, p->scale_floor), inf_norm(p->b, p->n));
    m->complementarity = fabs(comp);
    m->feasibility = fmax(0.0, feas);
}

static void metrics_blcp(const lcp_problem *p, const double *x, const double *w, lcp_metrics *m)
{
    double res = 0.0, comp = 0.0, feas = 0.0;
    for (int i = 0; i < p->n; i++) {
        double lo, hi;
        lcp_problem_bounds(p, x, i, &lo, &hi);
        double mid = fmin(fmax(x[i] - w[i], lo), hi); /* mid(lo, x - w, hi) */
        res = fmax(res, fabs(x[i] - mid));
        feas = fmax(feas, fmax(lo - x[i], x[i] - hi));
        double bound = w[i] > 0 ? lo : hi; /* the bound w's sign asks for */
        double d = isfinite(bound) ? fabs(x[i] - bound) : fmax(1.0, fabs(x[i]));
        if (w[i] != 0) comp += fabs(w[i]) * d;
    }
    m->residual = res / fmax(fmax(1.0, p->scale_floor), inf_norm(p->b, p->n));
    m->complementarity = comp;
    m->feasibility = fmax(0.0, feas);
}

static void metrics_friction(const lcp_problem *p, const double *r, const double *u, lcp_metrics *m)
{
    int desaxce = p->kind == LCP_KIND_FC3D;
    double err2 = 0.0, comp = 0.0, feas = 0.0, nq = 0.0, nr = 0.0, nu = 0.0;
    for (int i = 0; i < p->nc; i++) {
        const double *ri = r + 3 * i, *ui = u + 3 * i, *qi = p->b + 3 * i;
        double mu = p->mu[i];
        err2 += lcp_contact_residual2(mu, desaxce, ri, ui);
        for (int k = 0; k < 3; k++) {
            nq += qi[k] * qi[k];
            nr += ri[k] * ri[k];
            nu += ui[k] * ui[k];
        }
        double ut[3] = {ui[0], ui[1], ui[2]};
        if (desaxce) ut[0] += mu * norm2(ui[1], ui[2]); /* De Saxce: u + mu |u_T| e_n */
        comp += fabs(ri[0] * ut[0] + ri[1] * ut[1] + ri[2] * ut[2]);
        double pr[3] = {ri[0], ri[1], ri[2]};
        lcp_cone_project(mu, pr);
        double dr = sqrt((ri[0] - pr[0]) * (ri[0] - pr[0]) + (ri[1] - pr[1]) * (ri[1] - pr[1]) +
                         (ri[2] - pr[2]) * (ri[2] - pr[2]));
        feas = fmax(feas, fmax(dr, dual_cone_distance(mu, ut)));
    }
    double norm = fmax(fmax(sqrt(nq), p->scale_floor), fmax(sqrt(nr), sqrt(nu)));
    m->residual = sqrt(err2) / (norm > 0 ? norm : 1.0);
    m->complementarity = comp;
    m->feasibility = feas;
}

void lcp_verify_w(const lcp_problem *p, const double *x, const double *w, lcp_metrics *m)
{
    switch (p->kind) {
    case LCP_KIND_BLCP: metrics_blcp(p, x, w, m); break;
    case LCP_KIND_CCP:
    case LCP_KIND_FC3D: metrics_friction(p, x, w, m); break;
    default: metrics_lcp(p, x, w, m); break;
    }
    /* a NaN anywhere must never look like convergence */
    if (isnan(m->residual)) m->residual = INFINITY;
    /* lcp, ccp, fc3d: a NaN in x or w makes the complementarity sum NaN,
     * so a number there says there is none (blcp skips rows with w = 0) */
    if (p->kind != LCP_KIND_BLCP && !isnan(m->complementarity)) return;
    for (int i = 0; i < p->n; i++) /* fmin/fmax drop NaNs: look for them */
        if (isnan(x[i]) || isnan(w[i])) {
            m->residual = INFINITY;
            break;
        }
}

void lcp_verify(const lcp_problem *p, const double *x, double *w, lcp_metrics *m)
{
    /* w = A x + b in one pass: the bits of lcp_csr_matvec, then + b */
    const int *ap = p->A.p, *aj = p->A.j;
    const double *ax = p->A.x;
    for (int i = 0; i < p->n; i++) {
        double s = 0.0;
        if (ap)
            for (int k = ap[i]; k < ap[i + 1]; k++) s += ax[k] * x[aj[k]];
        w[i] = s + p->b[i];
    }
    lcp_verify_w(p, x, w, m);
}

double lcp_relative_diff(const double *x, const double *y, int n)
{
    double d = 0.0, s = 0.0;
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(x[i] - y[i]));
        s = fmax(s, fabs(y[i]));
        if (isnan(x[i]) || isnan(y[i])) return INFINITY;
    }
    return d / fmax(1.0, s);
}
