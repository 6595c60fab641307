/* tests/unit/test_robust.c: the numerical guards of the common monitor and
 * of the residual:
 *   - a NaN or an Inf anywhere in x (even where A x + b stays finite) gives
 *     an infinite residual, never "solved";
 *   - lcp_monitor_step stops with LCP_ERROR and a "diverged: NaN or Inf"
 *     message on such an iterate, and with "diverged: residual grew from X
 *     to Y at iteration K" on a growth by ten orders of magnitude, keeping
 *     the best iterate;
 *   - ccp: an iterate running off to infinity whose relative residual falls
 *     below tol only through |r| is not solved;
 *   - --reg: lcp_problem_regularise adds EPS to the diagonal (inserting the
 *     missing entries) and lcp_verify reports the original problem's
 *     residual while returning the regularised w.
 * Every expected number is worked out in the comment next to it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/problem.h"
#include "solvers/solver.h"
#include "core/verify.h"

/* A problem from a dense row-major n x n array. */
static void make(lcp_problem *p, lcp_kind kind, int n, const double *rm, const double *b)
{
    lcp_problem_init(p);
    double *cm = calloc((size_t)n * n, sizeof(double));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) cm[i + (size_t)j * n] = rm[(size_t)i * n + j];
    lcp_csr_from_dense_colmajor(&p->A, n, n, cm);
    free(cm);
    p->n = n;
    p->kind = kind;
    p->b = malloc((size_t)n * sizeof(double));
    memcpy(p->b, b, (size_t)n * sizeof(double));
    if (kind & LCP_KIND_FRICTION) {
        p->nc = p->nmu = n / 3;
        p->mu = malloc((size_t)p->nc * sizeof(double));
        for (int i = 0; i < p->nc; i++) p->mu[i] = 0.5;
    }
}

static void test_verify_nonfinite(void)
{
    /* A = diag(1, 0), b = (-1, 0): column 2 is empty, so x2 = Inf leaves
     * w = A x + b = (x1 - 1, 0) finite, and min(Inf, 0) = 0: without the
     * guard x = (1, Inf) would have residual 0, "solved".  A NaN x1 would
     * drop out of fmin.  Both: infinite. */
    const double A[4] = {1, 0, 0, 0}, b[2] = {-1, 0};
    lcp_problem p;
    make(&p, LCP_KIND_LCP, 2, A, b);
    double w[2];
    lcp_metrics m;
    double x_ok[2] = {1, 0}; /* w = (0, 0): a solution, residual 0 */
    lcp_verify(&p, x_ok, w, &m);
    CHECK(m.residual == 0.0);
    double x_inf[2] = {1, INFINITY};
    lcp_verify(&p, x_inf, w, &m);
    CHECK(isinf(m.residual));
    double x_nan[2] = {NAN, 0};
    lcp_verify(&p, x_nan, w, &m);
    CHECK(isinf(m.residual));
    lcp_problem_free(&p);
}

static void test_monitor_nan_and_growth(void)
{
    /* A = I, b = (-1, -1): x = 0 has residual |min(0, -1)| / 1 = 1 */
    const double A[4] = {1, 0, 0, 1}, b[2] = {-1, -1};
    lcp_problem p;
    make(&p, LCP_KIND_LCP, 2, A, b);
    lcp_settings s;
    lcp_settings_default(&s);
    lcp_monitor mon;
    CHECK(lcp_monitor_init(&mon, &p, &s, NULL) == 0);
    double x[2] = {0, 0};
    CHECK(lcp_monitor_step(&mon, 0, x, NULL) == 0);
    CHECK_NEAR(mon.first_residual, 1.0, 0);
    x[0] = 0.5; /* w = (-0.5, -1): residual 1 still (row 2); best stays iteration 0's */
    CHECK(lcp_monitor_step(&mon, 1, x, NULL) == 0);
    x[1] = NAN;
    CHECK(lcp_monitor_step(&mon, 2, x, NULL) != 0);
    CHECK(mon.status == LCP_ERROR);
    CHECK(strstr(mon.message, "diverged: NaN or Inf in the iterate at iteration 2") != NULL);
    CHECK(isfinite(mon.best.residual) && isfinite(mon.best_x[0]) && isfinite(mon.best_x[1]));
    lcp_monitor_free(&mon);

    /* growth: residual 1 at the start, then x = (-2e10, 0): w1 = -2e10 - 1,
     * min(x1, w1) = -2e10 - 1 > 1e10 * max(1, 1e-3): diverged */
    CHECK(lcp_monitor_init(&mon, &p, &s, NULL) == 0);
    x[0] = x[1] = 0;
    CHECK(lcp_monitor_step(&mon, 0, x, NULL) == 0);
    x[0] = -2e10;
    CHECK(lcp_monitor_step(&mon, 7, x, NULL) != 0);
    CHECK(mon.status == LCP_ERROR);
    CHECK(strstr(mon.message, "diverged: residual grew from 1 to 2e+10 at iteration 7") != NULL);
    CHECK(mon.best_x[0] == 0.0); /* the best iterate is the start */
    lcp_monitor_free(&mon);
    lcp_problem_free(&p);
}

static void test_monitor_ccp_unbounded(void)
{
    /* two contacts, normals coupled by W_n = [1 -1; -1 1], q_n = (-1, -1):
     * u_n1 + u_n2 = -2 at any r, so there is no solution.  r = t (1, 0, 0,
     * 1, 0, 0): u = (-1, 0, 0, -1, 0, 0), r - P_K(r - u) = r - P_K(r + e_n)
     * = (-1, 0, 0, -1, 0, 0): error sqrt 2, residual sqrt 2 / max(|q|,
     * |r|, |u|) = sqrt 2 / (t sqrt 2) = 1/t, below tol 1e-8 for t = 1e9.
     * The error of r = 0 is |P_K(-q)| = |(1, 0, 0, 1, 0, 0)| = sqrt 2. */
    double A[36] = {0};
    for (int i = 0; i < 6; i++) A[i * 6 + i] = 1;
    A[0 * 6 + 3] = A[3 * 6 + 0] = -1;
    const double q[6] = {-1, 0, 0, -1, 0, 0};
    lcp_problem p;
    make(&p, LCP_KIND_CCP, 6, A, q);
    lcp_settings s;
    lcp_settings_default(&s);
    lcp_monitor mon;
    CHECK(lcp_monitor_init(&mon, &p, &s, NULL) == 0);
    CHECK_NEAR(mon.start_error, sqrt(2.0), 1e-15);
    double r[6] = {0};
    CHECK(lcp_monitor_step(&mon, 0, r, NULL) == 0);
    r[0] = r[3] = 1e9;
    CHECK(lcp_monitor_step(&mon, 1, r, NULL) != 0);
    CHECK(mon.last.residual <= s.tol); /* the residual alone would say solved */
    CHECK(mon.status == LCP_ERROR);
    CHECK(strstr(mon.message, "diverged: |r| grew to") != NULL);
    lcp_monitor_free(&mon);
    lcp_problem_free(&p);

    /* a ccp with a solution, reached: solved.  W = I, q = (-1, 0, 0): r =
     * (1, 0, 0), u = 0: error 0 */
    const double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, q1[3] = {-1, 0, 0};
    make(&p, LCP_KIND_CCP, 3, I3, q1);
    CHECK(lcp_monitor_init(&mon, &p, &s, NULL) == 0);
    double r1[3] = {1, 0, 0};
    CHECK(lcp_monitor_step(&mon, 0, r1, NULL) != 0);
    CHECK(mon.status == LCP_SOLVED);
    lcp_monitor_free(&mon);
    lcp_problem_free(&p);
}

static void test_regularise(void)
{
    /* A = [0 0; 0 2] (A(1,1) absent), b = (1, -2); --reg 0.5: A + 0.5 I =
     * [0.5 0; 0 2.5].  x = (0, 0.8): regularised w = (1, 0), original w =
     * (1, -0.4): residual |min(0.8, -0.4)| / 2 = 0.2 */
    const double A[4] = {0, 0, 0, 2}, b[2] = {1, -2};
    lcp_problem p;
    lcp_err err = {{0}};
    make(&p, LCP_KIND_LCP, 2, A, b);
    CHECK(lcp_csr_nnz(&p.A) == 1);
    CHECK(lcp_problem_regularise(&p, 0.5, &err) == 0);
    CHECK(lcp_csr_nnz(&p.A) == 2);
    CHECK(lcp_csr_diag(&p.A, 0) == 0.5 && lcp_csr_diag(&p.A, 1) == 2.5);
    CHECK(p.reg == 0.5);
    double x[2] = {0, 0.8}, w[2];
    lcp_metrics m;
    lcp_verify(&p, x, w, &m);
    CHECK_NEAR(w[0], 1.0, 1e-15);
    CHECK_NEAR(w[1], 0.0, 1e-15);
    CHECK_NEAR(m.residual, 0.2, 1e-15);
    lcp_problem_free(&p);
}

int main(void)
{
    test_verify_nonfinite();
    test_monitor_nan_and_growth();
    test_monitor_ccp_unbounded();
    test_regularise();
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed != 0;
}
