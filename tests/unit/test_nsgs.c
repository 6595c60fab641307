/* tests/unit/test_nsgs.c: unit tests of the nsgs solver (src/solvers/nsgs.c)
 * and of the per-contact residual it judges local solves with
 * (lcp_contact_residual2, src/core/verify.c).
 *
 * One-contact problems are built backwards from a chosen solution, one per
 * regime (take-off, stick, slide), for fc3d and ccp, and solved with every
 * local solver; the expected r and u are worked out in the comments.  The
 * answers are checked against those numbers and by lcp_verify, never by the
 * solver's say-so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "solvers/solver.h"
#include "core/verify.h"

extern const lcp_solver lcp_solver_nsgs;

/* ------------------------------------------------------------------ helpers */

/* A friction problem with W (dense row-major n x n), q and mu. */
static void prob(lcp_problem *p, lcp_kind kind, int n, const double *Wrm, const double *q, const double *mu)
{
    double *cm = calloc((size_t)n * (size_t)n, sizeof(double));
    for (int i = 0; i < n; i++)
        for (int c = 0; c < n; c++) cm[i + (size_t)c * n] = Wrm[(size_t)i * n + c];
    lcp_problem_init(p);
    p->kind = kind;
    if (lcp_csr_from_dense_colmajor(&p->A, n, n, cm)) exit(2);
    free(cm);
    p->b = malloc((size_t)n * sizeof(double));
    memcpy(p->b, q, (size_t)n * sizeof(double));
    p->blen = n;
    p->mu = malloc((size_t)(n / 3) * sizeof(double));
    memcpy(p->mu, mu, (size_t)(n / 3) * sizeof(double));
    p->nmu = n / 3;
    p->source = lcp_strdup("test");
    lcp_err err = {{0}};
    if (lcp_problem_finish(p, &err)) {
        fprintf(stderr, "prob: %s\n", err.msg);
        exit(2);
    }
}

typedef struct {
    int rc;           /* solve()'s return */
    lcp_status status;
    int iterations;
    double residual;  /* recomputed by lcp_verify */
    lcp_err err;
} run_result;

/* nsgs from x (in/out) with the given local solver, shuffle and omega. */
static run_result run(const lcp_problem *p, int local, int shuffle, double omega, double tol, int max_iter,
                      double *x)
{
    lcp_settings s;
    memset(&s, 0, sizeof s);
    lcp_settings_default(&s);
    s.tol = tol;
    s.max_iter = max_iter;
    s.nsgs.local = local;
    s.nsgs.shuffle = shuffle;
    s.omega = omega;
    lcp_monitor mon;
    lcp_info info;
    memset(&info, 0, sizeof info);
    info.status = LCP_MAX_ITER;
    run_result r;
    memset(&r, 0, sizeof r);
    if (lcp_monitor_init(&mon, p, &s, NULL)) exit(2);
    r.rc = lcp_solver_nsgs.solve(p, &s, x, &mon, &info, &r.err);
    r.status = mon.status;
    r.iterations = info.iterations;
    double *u = malloc((size_t)p->n * sizeof(double));
    lcp_metrics m;
    lcp_verify(p, x, u, &m);
    r.residual = m.residual;
    free(u);
    lcp_monitor_free(&mon);
    return r;
}

static const int locals[] = {LCP_LOCAL_AUTO, LCP_LOCAL_EXACT, LCP_LOCAL_NEWTON, LCP_LOCAL_PROJECTION};
static const char *const local_names[] = {"auto", "exact", "newton", "projection"};

/* Solves a one-contact problem with every local solver from r = 0 and checks
 * r against rstar (to tol_r) and the residual. */
static void one_contact(const char *what, lcp_kind kind, const double *W, const double *q, double mu,
                        const double *rstar)
{
    lcp_problem p;
    prob(&p, kind, 3, W, q, &mu);
    for (int l = 0; l < 4; l++) {
        double x[3] = {0, 0, 0};
        run_result r = run(&p, locals[l], 0, 0.0, 1e-12, 100000, x);
        int ok = r.rc == 0 && r.status == LCP_SOLVED && r.residual <= 1e-12;
        for (int k = 0; k < 3; k++) ok = ok && fabs(x[k] - rstar[k]) <= 1e-10 * (1 + fabs(rstar[k]));
        /* exact and newton solve one contact in one sweep */
        if (locals[l] != LCP_LOCAL_PROJECTION) ok = ok && r.iterations <= 1;
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  %s, %s, --local %s: rc %d status %s after %d, residual %.3g, r = (%.17g, %.17g, %.17g)\n",
                    what, lcp_kind_name(kind), local_names[l], r.rc, lcp_status_name(r.status), r.iterations,
                    r.residual, x[0], x[1], x[2]);
    }
    lcp_problem_free(&p);
}

/* ------------------------------------------------------------------- tests */

static void test_contact_residual(void)
{
    /* r = (1, 0, 0), u = (0, 0.5, 0), mu = 0.5 (tests/unit/test_core.c):
     * fc3d: r - P_K(r - u~) = (0.2, 0.4, 0): 0.2; ccp: (0, 0.5, 0): 0.25 */
    const double r[] = {1, 0, 0}, u[] = {0, 0.5, 0};
    CHECK_NEAR(lcp_contact_residual2(0.5, 1, r, u), 0.2, 1e-15);
    CHECK_NEAR(lcp_contact_residual2(0.5, 0, r, u), 0.25, 1e-15);
    /* a sliding contact solved exactly (fc3d): r = (1, -0.5, 0), u = (0, 1, 0) */
    const double r2[] = {1, -0.5, 0}, u2[] = {0, 1, 0};
    CHECK_NEAR(lcp_contact_residual2(0.5, 1, r2, u2), 0.0, 1e-15);
    /* the sum over contacts over max(|q|, |r|, |u|) is lcp_verify's residual */
    const double W[36] = {1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
                          0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1};
    const double q[] = {-1, 0.5, 0.2, -2, -0.3, 0.4}, mu[] = {0.5, 0.3};
    double x[] = {1, 0.1, 0, 2, 0.5, -0.4}, w[6];
    for (int kind = 0; kind < 2; kind++) {
        lcp_problem p;
        prob(&p, kind ? LCP_KIND_FC3D : LCP_KIND_CCP, 6, W, q, mu);
        lcp_metrics m;
        lcp_verify(&p, x, w, &m);
        double e2 = 0, nq = 0, nr = 0, nu = 0;
        for (int i = 0; i < 2; i++) e2 += lcp_contact_residual2(mu[i], kind, x + 3 * i, w + 3 * i);
        for (int k = 0; k < 6; k++) nq += q[k] * q[k], nr += x[k] * x[k], nu += w[k] * w[k];
        CHECK_NEAR(m.residual, sqrt(e2) / sqrt(fmax(nq, fmax(nr, nu))), 1e-15);
        lcp_problem_free(&p);
    }
}

static void test_regimes(void)
{
    /* W symmetric positive definite, coupled normal/tangent */
    const double Wa[9] = {2, 1, 0, 1, 2, 0, 0, 0, 2};
    const double Wb[9] = {2, 0.5, 0.2, 0.5, 1.5, 0.1, 0.2, 0.1, 1};

    /* take-off: q_n = 1 >= 0: r = 0 (fc3d); ccp: mu |q_T| = 0.3 * sqrt(1.25)
     * = 0.335 <= q_n = 1, so q is in K^*: r = 0 too */
    const double q1[] = {1, -1, 0.5}, r1[] = {0, 0, 0};
    one_contact("take-off", LCP_KIND_FC3D, Wa, q1, 0.3, r1);
    one_contact("take-off", LCP_KIND_CCP, Wa, q1, 0.3, r1);

    /* stick: r* = (1, 0.2, -0.1), |r_T| = 0.2236 <= 0.5 r_n; u = 0, so
     * q = -W r* = -(2.2, 1.4, -0.2) for both kinds */
    const double q2[] = {-2.2, -1.4, 0.2}, r2[] = {1, 0.2, -0.1};
    one_contact("stick", LCP_KIND_FC3D, Wa, q2, 0.5, r2);
    one_contact("stick", LCP_KIND_CCP, Wa, q2, 0.5, r2);

    /* slide, fc3d: mu = 0.4, direction (c, s) = (0.6, 0.8), r_n = 1:
     * r* = (1, 0.24, 0.32) on the cone; u* = (0, -lambda c, -lambda s) with
     * lambda = 2: (0, -1.2, -1.6); W r* = (2.184, 0.892, 0.544), so
     * q = u* - W r* = (-2.184, -2.092, -2.144).  Stick would need
     * r = -W^-1 q, outside the cone. */
    const double q3[] = {-2.184, -2.092, -2.144}, r3[] = {1, 0.24, 0.32};
    one_contact("slide", LCP_KIND_FC3D, Wb, q3, 0.4, r3);

    /* slide, ccp: the same r*, u* = sigma (mu, -c, -s) with sigma = 2:
     * (0.8, -1.2, -1.6), perpendicular to r* and on the dual cone's
     * surface (the contact separates while it slides); q = u* - W r* =
     * (-1.384, -2.092, -2.144) */
    const double q4[] = {-1.384, -2.092, -2.144};
    one_contact("slide", LCP_KIND_CCP, Wb, q4, 0.4, r3);

    /* mu = 0: r = (-q_n / W_nn, 0, 0) = (1, 0, 0) for q = (-2, 5, 1),
     * u = (0, 6, 1): frictionless sliding */
    const double q5[] = {-2, 5, 1}, r5[] = {1, 0, 0};
    one_contact("frictionless", LCP_KIND_FC3D, Wa, q5, 0.0, r5);
    one_contact("frictionless", LCP_KIND_CCP, Wa, q5, 0.0, r5);

    /* a non-symmetric W_ii (positive definite symmetric part), sliding:
     * W = [[2, 0.6, 0], [0.4, 1, 0.2], [0, 0, 1.5]], mu = 0.5, r* = (2, 1, 0)
     * (c = 1, s = 0, on the cone: 1 = 0.5 * 2), u* = (0, -3, 0) (lambda = 3):
     * W r* = (4.6, 1.8, 0), q = (-4.6, -4.8, 0) */
    const double Wn[9] = {2, 0.6, 0, 0.4, 1, 0.2, 0, 0, 1.5};
    const double q6[] = {-4.6, -4.8, 0}, r6[] = {2, 1, 0};
    one_contact("slide, non-symmetric W", LCP_KIND_FC3D, Wn, q6, 0.5, r6);
}

/* Two coupled contacts: every local solver (and shuffle, over-relaxation)
 * reaches the tolerance; the velocities agree. */
static void test_two_contacts(void)
{
    const double W[36] = {2,   0.5, 0.2, 0.3, 0,   0.1, /* diagonally dominant, symmetric */
                          0.5, 1.5, 0.1, 0,   0.2, 0,
                          0.2, 0.1, 1,   0.1, 0,   0.2,
                          0.3, 0,   0.1, 2,   0.4, 0,
                          0,   0.2, 0,   0.4, 1.5, 0.3,
                          0.1, 0,   0.2, 0,   0.3, 1.2};
    const double q[] = {-1, 0.8, -0.3, -0.5, -0.9, 0.2}, mu[] = {0.3, 0.6};
    for (int kind = 0; kind < 2; kind++) {
        lcp_problem p;
        prob(&p, kind ? LCP_KIND_FC3D : LCP_KIND_CCP, 6, W, q, mu);
        double uref[6], x0[6] = {0}, u[6];
        run_result r0 = run(&p, LCP_LOCAL_EXACT, 0, 0.0, 1e-13, 100000, x0);
        CHECK(r0.rc == 0 && r0.status == LCP_SOLVED && r0.residual <= 1e-13);
        lcp_metrics m;
        lcp_verify(&p, x0, uref, &m);
        for (int l = 0; l < 4; l++)
            for (int variant = 0; variant < 3; variant++) { /* plain, --shuffle, --omega 1.3 */
                double x[6] = {0};
                run_result r = run(&p, locals[l], variant == 1, variant == 2 ? 1.3 : 0.0, 1e-11, 100000, x);
                lcp_verify(&p, x, u, &m);
                int ok = r.rc == 0 && r.status == LCP_SOLVED && r.residual <= 1e-11 &&
                         lcp_relative_diff(u, uref, 6) <= 1e-8;
                CHECK(ok);
                if (!ok)
                    fprintf(stderr, "  two contacts %s --local %s variant %d: %s after %d, residual %.3g, du %.3g\n",
                            lcp_kind_name(p.kind), local_names[l], variant, lcp_status_name(r.status),
                            r.iterations, r.residual, lcp_relative_diff(u, uref, 6));
            }
        /* --shuffle is reproducible: the same bits twice */
        double xa[6] = {0}, xb[6] = {0};
        run_result ra = run(&p, LCP_LOCAL_AUTO, 1, 0.0, 1e-12, 100000, xa);
        run_result rb = run(&p, LCP_LOCAL_AUTO, 1, 0.0, 1e-12, 100000, xb);
        CHECK(ra.iterations == rb.iterations && !memcmp(xa, xb, sizeof xa));
        /* a warm start at the solution: solved at iteration 0 */
        double xw[6];
        memcpy(xw, x0, sizeof xw);
        run_result rw = run(&p, LCP_LOCAL_AUTO, 0, 0.0, 1e-12, 100000, xw);
        CHECK(rw.status == LCP_SOLVED && rw.iterations == 0);
        /* the iteration limit: max_iter status, the iterate kept */
        double xl[6] = {0};
        run_result rl = run(&p, LCP_LOCAL_PROJECTION, 0, 0.0, 1e-15, 2, xl);
        CHECK(rl.rc == 0 && rl.status == LCP_MAX_ITER && rl.iterations == 2);
        lcp_problem_free(&p);
    }
}

/* Random one-contact problems (a fixed-seed generator): W = L L' + 0.05 I
 * with rows scaled by 10^[-2, 2], half of them made non-symmetric (a skew
 * part), q with entries up to 10, mu in [0, 2] (0 for one in ten), a warm
 * start inside K for one in three; exact and newton must solve each in one
 * sweep (local fallbacks included) to 1e-10, both kinds. */
static unsigned long long rng_state = 42;
static double urand(void) /* uniform in [-1, 1) */
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) / 4503599627370496.0 - 1.0;
}

static void test_random_contacts(void)
{
    int failed = 0, tried = 0;
    for (int t = 0; t < 2000; t++) {
        double L[9], W[9], q[3], sc[3], mu = t % 10 ? 2 * fabs(urand()) : 0.0;
        for (int k = 0; k < 9; k++) L[k] = urand();
        for (int k = 0; k < 3; k++) sc[k] = pow(10, 2 * urand()), q[k] = urand() * pow(10, urand());
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double d = (i == j) * 0.05;
                for (int k = 0; k < 3; k++) d += L[3 * i + k] * L[3 * j + k];
                W[3 * i + j] = d * sqrt(sc[i] * sc[j]);
            }
        if (t % 2)
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < i; j++) {
                    double a = 0.3 * urand() * sqrt(W[4 * i] * W[4 * j]); /* keeps the symmetric part */
                    W[3 * i + j] += a;
                    W[3 * j + i] -= a;
                }
        for (int kind = 0; kind < 2; kind++) {
            lcp_problem p;
            prob(&p, kind ? LCP_KIND_FC3D : LCP_KIND_CCP, 3, W, q, &mu);
            for (int l = 0; l < 3; l++) { /* auto, exact, newton */
                double x[3] = {0, 0, 0};
                if (t % 3 == 1) x[0] = fabs(urand()), x[1] = 0.7 * mu * x[0] * urand(), x[2] = 0.7 * mu * x[0] * urand();
                run_result r = run(&p, locals[l], 0, 0.0, 1e-10, 1, x);
                tried++;
                if (!(r.rc == 0 && r.status == LCP_SOLVED)) {
                    if (failed++ < 3)
                        fprintf(stderr, "  random contact %d %s --local %s: %s after %d, residual %.3g\n", t,
                                lcp_kind_name(p.kind), local_names[l], lcp_status_name(r.status), r.iterations,
                                r.residual);
                }
            }
            lcp_problem_free(&p);
        }
    }
    CHECK(failed == 0 && tried == 12000);
}

/* A zero or singular diagonal block is refused, naming the contact. */
static void test_singular_block(void)
{
    const double W[36] = {1, 0, 0, 0, 0, 0, /* contact 2: W_22 = [[1,0,0],[0,1,1],[0,1,1]] */
                          0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0,
                          0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1};
    const double q[] = {-1, 0, 0, -1, 0, 0}, mu[] = {0.5, 0.5};
    lcp_problem p;
    prob(&p, LCP_KIND_FC3D, 6, W, q, mu);
    double x[6] = {0};
    run_result r = run(&p, LCP_LOCAL_AUTO, 0, 0.0, 1e-10, 100, x);
    CHECK(r.rc == LCP_INPUT_ERROR && strstr(r.err.msg, "contact 2 (rows 4-6)") != NULL);
    lcp_problem_free(&p);
    const double Z[9] = {0, 0, 0, 0, 1, 0, 0, 0, 1}; /* W_nn = 0 */
    const double q1[] = {-1, 0, 0}, mu1[] = {0.5};
    prob(&p, LCP_KIND_CCP, 3, Z, q1, mu1);
    r = run(&p, LCP_LOCAL_AUTO, 0, 0.0, 1e-10, 100, x);
    CHECK(r.rc == LCP_INPUT_ERROR && strstr(r.err.msg, "contact 1 ") != NULL);
    lcp_problem_free(&p);
}

int main(void)
{
    test_contact_residual();
    test_regimes();
    test_two_contacts();
    test_random_contacts();
    test_singular_block();
    CHECK_DONE();
}
