/* tests/unit/test_mprgp.c: unit tests of the accelerated gradient solvers
 * mprgp, apgd and bb (src/solvers/mprgp.c, apgd.c, bb.c) called through the
 * solver contract, without the command line.
 *
 *  - a column chain (A = J M^-1 J' of N spheres on the ground, masses in a
 *    geometric series, b = -g dt e_1) whose answer is known in closed form:
 *    the impulse under sphere i carries the weight above it, x_i = g dt
 *    sum_{j >= i} m_j; every solver must find it;
 *  - mprgp with a preconditioner that is exactly A^-1 (dense Cholesky,
 *    LAPACK dpotrf, defined here through the lcp_precond_type contract, the
 *    way src/precond/ defines theirs): the iteration count must not grow
 *    with N (the goal a good preconditioner such as ichol or mg serves);
 *  - a box problem built backwards from a chosen solution with variables at
 *    the lower bound, at the upper bound, free and fixed (lo = hi), solved
 *    by every solver and preconditioner, checked against that solution;
 *  - a ccp problem for apgd built backwards the same way: one contact
 *    sticking (r inside the cone, u = 0), one sliding (r on the cone's
 *    boundary, u on the dual cone's boundary, r'u = 0), one taking off.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "solvers/solver.h"
#include "core/verify.h"

extern const lcp_solver lcp_solver_mprgp, lcp_solver_apgd, lcp_solver_bb;
extern const lcp_precond_type lcp_precond_diag;

void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda, double *b,
             const int *ldb, int *info);

/* ------------------------------------------- an exact preconditioner: A^-1 */

typedef struct {
    int n;
    double *L;
} exact;

static void exact_free(void *state)
{
    exact *e = state;
    if (e) free(e->L);
    free(e);
}

static int exact_setup(const lcp_csr *A, const struct lcp_settings_s *s, void **state, lcp_err *err)
{
    (void)s;
    exact *e = calloc(1, sizeof *e);
    e->n = A->n;
    e->L = lcp_csr_to_dense_colmajor(A);
    int info = 0;
    dpotrf_("L", &e->n, e->L, &e->n, &info);
    if (info) {
        exact_free(e);
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "exact: A is not positive definite");
    }
    *state = e;
    return 0;
}

static void exact_apply(void *state, const double *r, double *y)
{
    exact *e = state;
    int one = 1, info = 0;
    memcpy(y, r, (size_t)e->n * sizeof(double));
    dpotrs_("L", &e->n, &one, e->L, &e->n, y, &e->n, &info);
}

static const lcp_precond_type exact_type = {"exact", "dense Cholesky: P = A", exact_setup, exact_apply, exact_free};

/* ---------------------------------------------------------------- helpers */

/* Runs solver sv with preconditioner t; returns the monitor's status, the
 * iterations in *iters and the answer in x (n, zeros on entry). */
static lcp_status run(const lcp_solver *sv, const lcp_precond_type *t, const lcp_problem *p, double tol, double *x,
                      int *iters)
{
    lcp_settings s;
    lcp_settings_default(&s);
    s.tol = tol;
    s.max_iter = 200000;
    s.precond = t;
    lcp_monitor mon;
    lcp_info info = {0};
    info.status = LCP_MAX_ITER;
    lcp_err err = {{0}};
    memset(x, 0, (size_t)p->n * sizeof(double));
    if (lcp_monitor_init(&mon, p, &s, NULL)) return LCP_ERROR;
    int rc = sv->solve(p, &s, x, &mon, &info, &err);
    lcp_status st = rc ? LCP_INPUT_ERROR : info.status != LCP_MAX_ITER ? info.status : mon.status;
    if (rc) fprintf(stderr, "%s: %s\n", sv->name, err.msg);
    *iters = info.iterations;
    lcp_monitor_free(&mon);
    return st;
}

/* A column of n spheres (mass m_i = ratio^(i/(n-1))) on the ground: contact
 * i between sphere i-1 (the ground for i = 0) and sphere i. */
static void column(lcp_problem *p, int n, double ratio, double *xstar)
{
    const double g = 9.81, dt = 0.01;
    double *m = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) m[i] = n > 1 ? pow(ratio, (double)i / (n - 1)) : 1.0;
    int nz = 3 * n;
    int *ti = malloc((size_t)nz * sizeof(int)), *tj = malloc((size_t)nz * sizeof(int));
    double *tx = malloc((size_t)nz * sizeof(double));
    int k = 0;
    for (int i = 0; i < n; i++) {
        ti[k] = i, tj[k] = i, tx[k++] = 1.0 / m[i] + (i > 0 ? 1.0 / m[i - 1] : 0.0);
        if (i + 1 < n) {
            ti[k] = i, tj[k] = i + 1, tx[k++] = -1.0 / m[i];
            ti[k] = i + 1, tj[k] = i, tx[k++] = -1.0 / m[i];
        }
    }
    lcp_problem_init(p);
    p->kind = LCP_KIND_LCP;
    p->n = n;
    if (lcp_csr_from_triplets(&p->A, n, n, k, ti, tj, tx)) exit(2);
    p->b = calloc((size_t)n, sizeof(double));
    p->b[0] = -g * dt;
    p->source = lcp_strdup("column");
    double above = 0.0;
    for (int i = n - 1; i >= 0; i--) {
        above += m[i];
        xstar[i] = g * dt * above;
    }
    free(m), free(ti), free(tj), free(tx);
}

/* A symmetric positive definite banded matrix (a 1D Laplacian plus a
 * shift and a second band), as CSR. */
static void banded(lcp_csr *A, int n)
{
    int nz = 5 * n, k = 0;
    int *ti = malloc((size_t)nz * sizeof(int)), *tj = malloc((size_t)nz * sizeof(int));
    double *tx = malloc((size_t)nz * sizeof(double));
    for (int i = 0; i < n; i++) {
        ti[k] = i, tj[k] = i, tx[k++] = 2.2 + 0.3 * sin(i);
        if (i + 1 < n) ti[k] = i, tj[k] = i + 1, tx[k++] = -1.0, ti[k] = i + 1, tj[k] = i, tx[k++] = -1.0;
        if (i + 3 < n) ti[k] = i, tj[k] = i + 3, tx[k++] = 0.1, ti[k] = i + 3, tj[k] = i, tx[k++] = 0.1;
    }
    if (lcp_csr_from_triplets(A, n, n, k, ti, tj, tx)) exit(2);
    free(ti), free(tj), free(tx);
}

/* ------------------------------------------------------------------ tests */

static void test_column(void)
{
    const lcp_solver *all[] = {&lcp_solver_mprgp, &lcp_solver_apgd, &lcp_solver_bb};
    int n = 50;
    lcp_problem p;
    double *xs = malloc((size_t)n * sizeof(double)), *x = malloc((size_t)n * sizeof(double));
    column(&p, n, 10.0, xs);
    for (int k = 0; k < 3; k++)
        for (int pc = 0; pc < 2; pc++) {
            int it;
            lcp_status st = run(all[k], pc ? &lcp_precond_diag : NULL, &p, 1e-11, x, &it);
            CHECK(st == LCP_SOLVED);
            double d = lcp_relative_diff(x, xs, n);
            if (!(d <= 1e-7)) fprintf(stderr, "column: %s -p %s differs by %g\n", all[k]->name, pc ? "diag" : "none", d);
            CHECK(d <= 1e-7);
        }
    lcp_problem_free(&p);
    free(xs), free(x);
}

static void test_mprgp_exact_precond(void)
{
    int sizes[] = {100, 1000, 2000}, its[3];
    for (int k = 0; k < 3; k++) {
        int n = sizes[k];
        lcp_problem p;
        double *xs = malloc((size_t)n * sizeof(double)), *x = malloc((size_t)n * sizeof(double));
        column(&p, n, 100.0, xs);
        lcp_status st = run(&lcp_solver_mprgp, &exact_type, &p, 1e-10, x, &its[k]);
        CHECK(st == LCP_SOLVED);
        CHECK(lcp_relative_diff(x, xs, n) <= 1e-8);
        lcp_problem_free(&p);
        free(xs), free(x);
    }
    /* near-constant: a handful of iterations at every size */
    printf("mprgp with P = A on the column: %d %d %d iterations (n = 100, 1000, 2000)\n", its[0], its[1], its[2]);
    CHECK(its[0] <= 5 && its[1] <= 5 && its[2] <= 5);
}

/* A box problem with a known solution: x* with variables at lo, at hi,
 * free and fixed; w* = A x* + b zero where free, > 0 at lo, < 0 at hi. */
static void test_box(void)
{
    int n = 60;
    lcp_problem p;
    lcp_problem_init(&p);
    p.kind = LCP_KIND_BLCP;
    p.n = n;
    banded(&p.A, n);
    p.b = malloc((size_t)n * sizeof(double));
    p.lo = malloc((size_t)n * sizeof(double));
    p.hi = malloc((size_t)n * sizeof(double));
    p.source = lcp_strdup("box");
    double *xs = malloc((size_t)n * sizeof(double)), *ws = malloc((size_t)n * sizeof(double));
    double *x = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) {
        p.lo[i] = -1.0 - 0.01 * i;
        p.hi[i] = i % 7 == 3 ? INFINITY : 2.0;
        switch (i % 5) {
        case 0: xs[i] = p.lo[i], ws[i] = 0.5 + 0.1 * (i % 3); break;  /* at lo, w > 0 */
        case 1: xs[i] = p.hi[i] < INFINITY ? p.hi[i] : 1.5, ws[i] = p.hi[i] < INFINITY ? -0.7 : 0.0; break;
        case 4: p.lo[i] = p.hi[i] = 0.25, xs[i] = 0.25, ws[i] = 3.0 * sin(i); break; /* fixed */
        default: xs[i] = 0.3 * cos(i), ws[i] = 0.0; break;                        /* free */
        }
    }
    lcp_csr_matvec(&p.A, xs, p.b);
    for (int i = 0; i < n; i++) p.b[i] = ws[i] - p.b[i];
    const lcp_solver *all[] = {&lcp_solver_mprgp, &lcp_solver_apgd, &lcp_solver_bb};
    for (int k = 0; k < 3; k++)
        for (int pc = 0; pc < 3; pc++) {
            if (pc == 2 && k != 0) continue; /* exact: mprgp only takes it */
            const lcp_precond_type *t = pc == 0 ? NULL : pc == 1 ? &lcp_precond_diag : &exact_type;
            int it;
            lcp_status st = run(all[k], t, &p, 1e-12, x, &it);
            CHECK(st == LCP_SOLVED);
            double d = lcp_relative_diff(x, xs, n);
            if (!(d <= 1e-9)) fprintf(stderr, "box: %s precond %d differs by %g\n", all[k]->name, pc, d);
            CHECK(d <= 1e-9);
        }
    lcp_problem_free(&p);
    free(xs), free(ws), free(x);
}

/* ccp for apgd: three contacts, W block diagonal plus coupling, r* and u*
 * chosen: stick (r inside, u = 0), slide (r = (1, mu, 0)-ish on the cone
 * surface, u on the dual cone's surface and r'u = 0), take-off (r = 0,
 * u inside the dual cone). */
static void test_ccp(void)
{
    int n = 9;
    double mu[3] = {0.5, 0.5, 0.8};
    double W[81] = {0};
    for (int i = 0; i < n; i++) {
        W[i * n + i] = 3.0 + 0.2 * i;
        if (i + 1 < n) W[i * n + i + 1] = W[(i + 1) * n + i] = 0.4;
        if (i + 4 < n) W[i * n + i + 4] = W[(i + 4) * n + i] = -0.3;
    }
    double rs[9] = {1.0, 0.2, -0.1,              /* stick: |r_T| = 0.22 < 0.5 */
                    2.0, 0.6, 0.8,               /* slide: |r_T| = 1.0 = mu r_n */
                    0.0, 0.0, 0.0};              /* take off */
    /* slide: u = s (mu |r_T|... ): u orthogonal to r on the dual cone's
     * boundary: u_T = -t r_T/|r_T|, u_n = mu t (t = 0.3) */
    double us[9] = {0, 0, 0, 0.5 * 0.3, -0.3 * 0.6, -0.3 * 0.8, 1.0, 0.3, -0.2};
    double *cm = calloc(81, sizeof(double));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) cm[i + j * n] = W[i * n + j];
    lcp_problem p;
    lcp_problem_init(&p);
    p.kind = LCP_KIND_CCP;
    p.n = n;
    p.nc = 3;
    if (lcp_csr_from_dense_colmajor(&p.A, n, n, cm)) exit(2);
    free(cm);
    p.b = malloc(9 * sizeof(double));
    lcp_csr_matvec(&p.A, rs, p.b);
    for (int i = 0; i < n; i++) p.b[i] = us[i] - p.b[i];
    p.mu = malloc(3 * sizeof(double));
    memcpy(p.mu, mu, sizeof mu);
    p.nmu = 3;
    p.source = lcp_strdup("ccp");
    double x[9], w[9];
    lcp_metrics m;
    lcp_verify_w(&p, rs, us, &m);
    CHECK(m.residual <= 1e-15); /* the constructed point solves it */
    for (int pc = 0; pc < 2; pc++) {
        int it;
        lcp_status st = run(&lcp_solver_apgd, pc ? &lcp_precond_diag : NULL, &p, 1e-12, x, &it);
        CHECK(st == LCP_SOLVED);
        lcp_verify(&p, x, w, &m);
        CHECK(lcp_relative_diff(x, rs, n) <= 1e-9);
    }
    lcp_problem_free(&p);
}

int main(void)
{
    test_column();
    test_mprgp_exact_precond();
    test_box();
    test_ccp();
    CHECK_DONE();
}
