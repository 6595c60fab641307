/* tests/unit/test_socp.c: the cone kernels of socp-ipm (src/solvers/socp_ipm.c)
 * and the solver on one-contact problems.
 *
 * - NT scaling, on random points strictly inside the second-order cone
 *   (including points close to its boundary): W symmetric positive definite,
 *   W s = W^-1 z = lambda (lambda from the closed form), W Winv = I, and
 *   lambda inside the cone;
 * - the step to the boundary: x + a d on the boundary (det = 0) at the
 *   returned a, inside just before it, INFINITY for directions inside Q;
 * - socp-ipm on hand-solved ccp contacts (stick, slide, take-off, mu = 0),
 *   checked against the known r by numbers, not by the solver's say-so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "solvers/solver.h"
#include "core/verify.h"

/* the kernels (src/solvers/socp_ipm.c; no header: they serve that file) */
int lcp_socp_nt_scaling(const double *s, const double *z, double *W, double *Winv, double *lam);
double lcp_socp_max_step(const double *x, const double *d);
extern const lcp_solver lcp_solver_socp_ipm;

static double urand(void) { return rand() / (RAND_MAX + 1.0); }

/* a random point strictly inside Q; gap in (0, 1]: relative distance to the boundary */
static void interior_point(double *x, double gap)
{
    double a = 2 * M_PI * urand(), t = 0.1 + 3 * urand();
    x[1] = t * cos(a);
    x[2] = t * sin(a);
    x[0] = t * (1 + gap) + 1e-3 * gap;
}

static double det3(const double *x) { return x[0] * x[0] - x[1] * x[1] - x[2] * x[2]; }

static void test_nt(void)
{
    double gaps[] = {1.0, 0.1, 1e-3, 1e-6};
    for (int trial = 0; trial < 200; trial++) {
        double s[3], z[3], W[9], Wi[9], lam[3], ws[3], wiz[3];
        interior_point(s, gaps[trial % 4]);
        interior_point(z, gaps[(trial / 4) % 4]);
        double f = 0.01 + 10 * urand();
        for (int i = 0; i < 3; i++) z[i] *= f;
        CHECK(lcp_socp_nt_scaling(s, z, W, Wi, lam) == 0);
        double scale = fmax(fabs(lam[0]), 1e-300), err = 0, ierr = 0, sym = 0;
        for (int i = 0; i < 3; i++) {
            ws[i] = W[3 * i] * s[0] + W[3 * i + 1] * s[1] + W[3 * i + 2] * s[2];
            wiz[i] = Wi[3 * i] * z[0] + Wi[3 * i + 1] * z[1] + Wi[3 * i + 2] * z[2];
            err = fmax(err, fmax(fabs(ws[i] - lam[i]), fabs(wiz[i] - lam[i])) / scale);
            for (int j = 0; j < 3; j++) {
                double p = 0;
                for (int k = 0; k < 3; k++) p += W[3 * i + k] * Wi[3 * k + j];
                ierr = fmax(ierr, fabs(p - (i == j)));
                sym = fmax(sym, fabs(W[3 * i + j] - W[3 * j + i]));
            }
        }
        CHECK(err <= 1e-8);
        CHECK(ierr <= 1e-8);
        CHECK(sym == 0.0);
        CHECK(lam[0] > sqrt(lam[1] * lam[1] + lam[2] * lam[2]));
        CHECK(W[0] > 0 && W[0] * W[4] - W[1] * W[3] > 0); /* leading minors: positive definite */
        if (err > 1e-8) fprintf(stderr, "  NT trial %d: |W s - lambda|, |W^-1 z - lambda| = %.3g\n", trial, err);
    }
    double s[3] = {1, 0.5, 0}, z[3] = {1, 2, 0}, W[9], Wi[9], lam[3];
    CHECK(lcp_socp_nt_scaling(s, z, W, Wi, lam) == -1); /* z outside */
    /* s = z = e: W = I, lambda = e */
    double e[3] = {1, 0, 0};
    CHECK(lcp_socp_nt_scaling(e, e, W, Wi, lam) == 0);
    CHECK_NEAR(W[0], 1, 1e-15);
    CHECK_NEAR(W[4], 1, 1e-15);
    CHECK_NEAR(W[1], 0, 1e-15);
    CHECK_NEAR(lam[0], 1, 1e-15);
}

static void test_step(void)
{
    for (int trial = 0; trial < 200; trial++) {
        double x[3], d[3], y[3];
        interior_point(x, trial % 2 ? 1.0 : 1e-3);
        for (int i = 0; i < 3; i++) d[i] = 2 * urand() - 1;
        double a = lcp_socp_max_step(x, d);
        if (isinf(a)) { /* the ray stays inside: d in Q */
            CHECK(d[0] >= sqrt(d[1] * d[1] + d[2] * d[2]) - 1e-12);
            continue;
        }
        CHECK(a > 0);
        for (int i = 0; i < 3; i++) y[i] = x[i] + a * d[i];
        CHECK(fabs(det3(y)) <= 1e-9 * (x[0] * x[0] + a * a * (d[0] * d[0] + d[1] * d[1] + d[2] * d[2])));
        CHECK(y[0] >= -1e-12);
        for (int i = 0; i < 3; i++) y[i] = x[i] + 0.999 * a * d[i];
        CHECK(det3(y) > 0 && y[0] > 0);
    }
    double x[3] = {1, 0, 0}, d[3] = {1, 0.5, 0}, dm[3] = {-1, 0, 0};
    CHECK(isinf(lcp_socp_max_step(x, d)));
    CHECK_NEAR(lcp_socp_max_step(x, dm), 1.0, 1e-15);
}

/* one-contact ccp solves: W (row-major), q, mu, expected r */
static void solve_one(const char *name, const double *Wrm, const double *q, double mu, const double *rexp)
{
    double cm[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) cm[i + 3 * j] = Wrm[3 * i + j];
    lcp_problem p;
    lcp_problem_init(&p);
    p.kind = LCP_KIND_CCP;
    if (lcp_csr_from_dense_colmajor(&p.A, 3, 3, cm)) exit(2);
    p.b = malloc(3 * sizeof(double));
    memcpy(p.b, q, 3 * sizeof(double));
    p.blen = 3;
    p.mu = malloc(sizeof(double));
    p.mu[0] = mu;
    p.nmu = 1;
    p.source = lcp_strdup(name);
    lcp_err err = {{0}};
    CHECK(lcp_problem_finish(&p, &err) == 0);
    lcp_settings s;
    lcp_settings_default(&s);
    s.tol = 1e-10;
    s.max_iter = 100;
    lcp_monitor mon;
    CHECK(lcp_monitor_init(&mon, &p, &s, NULL) == 0);
    lcp_info info = {0};
    info.status = LCP_MAX_ITER;
    double x[3] = {0, 0, 0};
    CHECK(lcp_solver_socp_ipm.solve(&p, &s, x, &mon, &info, &err) == 0);
    CHECK(mon.status == LCP_SOLVED);
    CHECK(info.iterations <= 40);
    if (info.iterations > 40) fprintf(stderr, "  %s: %d iterations\n", name, info.iterations);
    for (int i = 0; i < 3; i++) CHECK_NEAR(x[i], rexp[i], 1e-7);
    if (mon.status != LCP_SOLVED) fprintf(stderr, "  %s: %s\n", name, info.message);
    lcp_monitor_free(&mon);
    lcp_problem_free(&p);
}

static void test_solve(void)
{
    double W[9] = {2, 1, 0, 1, 2, 0, 0, 0, 2};
    /* stick: r* = (1, 0.2, -0.1) inside K_0.5, u = 0: q = -W r* */
    double qs[3] = {-2.2, -1.4, 0.2}, rs[3] = {1, 0.2, -0.1};
    solve_one("stick", W, qs, 0.5, rs);
    /* take-off: q_n > 0, r = 0 */
    double qt[3] = {1, -1, 0.5}, rt[3] = {0, 0, 0};
    solve_one("take-off", W, qt, 0.3, rt);
    /* slide (ccp): r* = (1, 0.24, 0.32), u* = (0.8, -1.2, -1.6) on the dual
     * cone's surface, perpendicular to r*: q = u* - W r* */
    double W2[9] = {2, 0.5, 0.2, 0.5, 1.5, 0.1, 0.2, 0.1, 1}, q2[3] = {-1.384, -2.092, -2.144},
           r2[3] = {1, 0.24, 0.32};
    solve_one("slide", W2, q2, 0.4, r2);
    /* mu = 0: r_T = 0, r_n = -q_n / W_nn = 1.5 */
    double q0[3] = {-3, 5, -7}, r0[3] = {1.5, 0, 0};
    solve_one("mu = 0", W, q0, 0.0, r0);
}

int main(void)
{
    srand(7);
    test_nt();
    test_step();
    test_solve();
    CHECK_DONE();
}
