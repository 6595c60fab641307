/* tests/unit/test_mg.c: unit tests of the multigrid hierarchy and the mg
 * preconditioner (src/precond/mg.[ch]).
 *
 *   - the sparse product lcp_csr_multiply against a dense product;
 *   - the Galerkin operators: A_1 = P_0' A_0 P_0 and A_2 = P_1' A_1 P_1,
 *     recomputed densely here from the CSR P and A, also after masking rows
 *     of P_0 (masked rows of P_0 empty);
 *   - one V-cycle as a stationary iteration on 1D Laplacians of n = 1000,
 *     10000 and 100000 rows: the residual reduction factor stays below 0.5,
 *     the same (within 5%) for W-cycles whatever n, for V-cycles the same
 *     at 1000 and 10000 and within 35% at 100000 (two more levels);
 *   - one cycle from zero (the preconditioner) reduces the energy norm of
 *     the error of a 1D Laplacian solve by half at least;
 *   - the cycle is a symmetric operator: u'B v = v'B u, for V and W, on a
 *     2D Laplacian and on a singular (Neumann) 1D Laplacian;
 *   - a singular system (Neumann Laplacian, consistent right-hand side):
 *     the cycles converge in the residual;
 *   - through the registry: -p mg found, setup/apply/free, refusals of a
 *     non-symmetric matrix and of a non-positive diagonal (LCP_INPUT_ERROR).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "precond/mg.h"
#include "precond/precond.h"
#include "solvers/solver.h"

/* 1D Laplacian tridiag(-1, 2, -1); neumann: the end rows have 1 on the diagonal (singular). */
static void laplace1d(lcp_csr *A, int n, int neumann)
{
    int *ti = malloc(3 * (size_t)n * sizeof(int)), *tj = malloc(3 * (size_t)n * sizeof(int));
    double *tx = malloc(3 * (size_t)n * sizeof(double));
    long nz = 0;
    for (int i = 0; i < n; i++) {
        ti[nz] = i, tj[nz] = i, tx[nz++] = neumann && (i == 0 || i == n - 1) ? 1.0 : 2.0;
        if (i > 0) ti[nz] = i, tj[nz] = i - 1, tx[nz++] = -1.0;
        if (i < n - 1) ti[nz] = i, tj[nz] = i + 1, tx[nz++] = -1.0;
    }
    if (lcp_csr_from_triplets(A, n, n, nz, ti, tj, tx)) exit(2);
    free(ti), free(tj), free(tx);
}

/* 2D Laplacian on an m x m grid (5-point, Dirichlet). */
static void laplace2d(lcp_csr *A, int m)
{
    int n = m * m;
    int *ti = malloc(5 * (size_t)n * sizeof(int)), *tj = malloc(5 * (size_t)n * sizeof(int));
    double *tx = malloc(5 * (size_t)n * sizeof(double));
    long nz = 0;
    for (int r = 0; r < m; r++)
        for (int c = 0; c < m; c++) {
            int i = r * m + c;
            ti[nz] = i, tj[nz] = i, tx[nz++] = 4.0;
            if (r > 0) ti[nz] = i, tj[nz] = i - m, tx[nz++] = -1.0;
            if (r < m - 1) ti[nz] = i, tj[nz] = i + m, tx[nz++] = -1.0;
            if (c > 0) ti[nz] = i, tj[nz] = i - 1, tx[nz++] = -1.0;
            if (c < m - 1) ti[nz] = i, tj[nz] = i + 1, tx[nz++] = -1.0;
        }
    if (lcp_csr_from_triplets(A, n, n, nz, ti, tj, tx)) exit(2);
    free(ti), free(tj), free(tx);
}

static double *dense(const lcp_csr *A)
{
    double *d = calloc((size_t)A->m * A->n, sizeof(double));
    for (int i = 0; i < A->m; i++)
        for (int k = A->p[i]; k < A->p[i + 1]; k++) d[(size_t)i * A->n + A->j[k]] += A->x[k];
    return d;
}

/* max |Ac - P' A P| / max |P' A P| entrywise, with A P and P' A P dense
 * (nc x nc), summed here entry by entry from the CSR arrays */
static double galerkin_error(const lcp_csr *A, const lcp_csr *P, const lcp_csr *Ac)
{
    int n = A->n, nc = P->n;
    double *ap = calloc((size_t)n * nc, sizeof(double)), *g = calloc((size_t)nc * nc, sizeof(double));
    for (int i = 0; i < n; i++)
        for (int k = A->p[i]; k < A->p[i + 1]; k++)
            for (int q = P->p[A->j[k]]; q < P->p[A->j[k] + 1]; q++)
                ap[(size_t)i * nc + P->j[q]] += A->x[k] * P->x[q];
    for (int i = 0; i < n; i++)
        for (int q = P->p[i]; q < P->p[i + 1]; q++)
            for (int c = 0; c < nc; c++) g[(size_t)P->j[q] * nc + c] += P->x[q] * ap[(size_t)i * nc + c];
    double *ac = dense(Ac), err = 0.0, scale = 0.0;
    for (size_t k = 0; k < (size_t)nc * nc; k++) {
        err = fmax(err, fabs(g[k] - ac[k]));
        scale = fmax(scale, fabs(g[k]));
    }
    free(ap), free(g), free(ac);
    return err / fmax(scale, 1e-300);
}

static void test_multiply(void)
{
    /* A 3x4, B 4x2 with a repeated column hit and an empty row */
    double ad[12] = {1, 0, 2, 0, /**/ 0, 0, 0, 0, /**/ -1, 3, 0, 4}; /* row-major */
    double bd[8] = {1, 2, /**/ 0, -1, /**/ 5, 0, /**/ 0, 0.5};
    double acm[12], bcm[8];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) acm[i + 3 * j] = ad[4 * i + j];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++) bcm[i + 4 * j] = bd[2 * i + j];
    lcp_csr A, B, C;
    CHECK(lcp_csr_from_dense_colmajor(&A, 3, 4, acm) == 0);
    CHECK(lcp_csr_from_dense_colmajor(&B, 4, 2, bcm) == 0);
    CHECK(lcp_csr_multiply(&A, &B, &C) == 0);
    CHECK(C.m == 3 && C.n == 2);
    double *c = dense(&C);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++) {
            double s = 0.0;
            for (int k = 0; k < 4; k++) s += ad[4 * i + k] * bd[2 * k + j];
            CHECK_NEAR(c[2 * i + j], s, 1e-15);
        }
    CHECK(C.p[2] - C.p[1] == 0); /* the empty row stays empty */
    for (int i = 0; i < C.m; i++)
        for (int k = C.p[i] + 1; k < C.p[i + 1]; k++) CHECK(C.j[k - 1] < C.j[k]); /* sorted */
    free(c);
    lcp_csr_free(&A), lcp_csr_free(&B), lcp_csr_free(&C);
}

static void test_galerkin(void)
{
    lcp_csr A;
    laplace2d(&A, 70); /* 4900 rows: at least three levels */
    lcp_mg *mg;
    lcp_err err = {{0}};
    CHECK(lcp_mg_build(&mg, &A, 1, "test", &err) == 0);
    int nl = lcp_mg_levels(mg);
    CHECK(nl >= 3);
    CHECK(lcp_mg_matrix(mg, nl - 1)->n <= LCP_MG_COARSE_MAX);
    for (int l = 0; l + 1 < nl && l < 2; l++) {
        const lcp_csr *Al = lcp_mg_matrix(mg, l), *P = lcp_mg_prolongation(mg, l), *Ac = lcp_mg_matrix(mg, l + 1);
        CHECK(P->m == Al->n && P->n == Ac->n && Ac->n < Al->n);
        CHECK(galerkin_error(Al, P, Ac) < 1e-13);
    }
    /* masking: every third row of P_0 frozen */
    unsigned char *fr = malloc((size_t)A.n);
    for (int i = 0; i < A.n; i++) fr[i] = i % 3 != 0;
    CHECK(lcp_mg_mask(mg, fr, &err) == 0);
    const lcp_csr *P = lcp_mg_prolongation(mg, 0);
    int empty = 1;
    for (int i = 0; i < A.n; i += 3) empty &= P->p[i + 1] == P->p[i];
    CHECK(empty);
    CHECK(galerkin_error(&A, P, lcp_mg_matrix(mg, 1)) < 1e-13);
    CHECK(galerkin_error(lcp_mg_matrix(mg, 1), lcp_mg_prolongation(mg, 1), lcp_mg_matrix(mg, 2)) < 1e-13);
    /* the masked coarse correction vanishes on frozen rows */
    double *r = malloc((size_t)A.n * sizeof(double)), *e = malloc((size_t)A.n * sizeof(double));
    for (int i = 0; i < A.n; i++) r[i] = sin(0.3 * i);
    lcp_mg_coarse_correction(mg, r, e);
    double emax = 0.0, efrozen = 0.0;
    for (int i = 0; i < A.n; i++) {
        emax = fmax(emax, fabs(e[i]));
        if (!fr[i]) efrozen = fmax(efrozen, fabs(e[i]));
    }
    CHECK(emax > 0.0 && efrozen == 0.0);
    /* unmasked again: the operators of the build */
    CHECK(lcp_mg_mask(mg, NULL, &err) == 0);
    CHECK(galerkin_error(&A, lcp_mg_prolongation(mg, 0), lcp_mg_matrix(mg, 1)) < 1e-13);
    free(fr), free(r), free(e);
    lcp_mg_free(mg);
    lcp_csr_free(&A);
}

/* The residual reduction factor of x += cycle(b - A x): the mean of cycles 11-15. */
static double cycle_rate(const lcp_csr *A, int cycle, int consistent_singular)
{
    int n = A->n;
    lcp_mg *mg;
    lcp_err err = {{0}};
    if (lcp_mg_build(&mg, A, cycle, "test", &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1e9;
    }
    double *x = calloc((size_t)n, sizeof(double)), *b = malloc((size_t)n * sizeof(double));
    double *r = malloc((size_t)n * sizeof(double)), *e = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) b[i] = sin(0.37 * i) + 0.5 * cos(1.9 * i) + 0.2;
    if (consistent_singular) { /* b in range(A) = orthogonal to the constant */
        double s = 0.0;
        for (int i = 0; i < n; i++) s += b[i];
        for (int i = 0; i < n; i++) b[i] -= s / n;
    }
    double r10 = 1.0, rate = 0.0;
    for (int k = 0; k <= 15; k++) {
        lcp_csr_matvec(A, x, r);
        double nr = 0.0;
        for (int i = 0; i < n; i++) {
            r[i] = b[i] - r[i];
            nr += r[i] * r[i];
        }
        nr = sqrt(nr);
        if (k == 10) r10 = nr;
        if (k == 15) rate = pow(nr / r10, 0.2);
        lcp_mg_cycle(mg, r, e);
        for (int i = 0; i < n; i++) x[i] += e[i];
    }
    free(x), free(b), free(r), free(e);
    lcp_mg_free(mg);
    return rate;
}

static void test_rates(void)
{
    double rv[3], rw[3];
    int sizes[3] = {1000, 10000, 100000};
    for (int s = 0; s < 3; s++) {
        lcp_csr A;
        laplace1d(&A, sizes[s], 0);
        rv[s] = cycle_rate(&A, 1, 0);
        rw[s] = cycle_rate(&A, 2, 0);
        printf("1D Laplacian n = %d: V-cycle rate %.3f, W-cycle %.3f\n", sizes[s], rv[s], rw[s]);
        CHECK(rv[s] < 0.5);
        CHECK(rw[s] <= rv[s] * 1.05);
        lcp_csr_free(&A);
    }
    /* W-cycles: a factor independent of n (and of the number of levels);
     * V-cycles: independent of n at a fixed depth, growing slowly with it */
    for (int s = 1; s < 3; s++) CHECK(fabs(rw[s] - rw[0]) < 0.05 * rw[0]);
    CHECK(fabs(rv[1] - rv[0]) < 0.05 * rv[0]);
    CHECK(rv[2] < 1.35 * rv[0]);
    /* singular (Neumann), consistent: converges in the residual */
    lcp_csr N;
    laplace1d(&N, 5000, 1);
    double rs = cycle_rate(&N, 1, 1);
    printf("singular 1D Laplacian n = 5000: V-cycle rate %.3f\n", rs);
    CHECK(rs < 0.6);
    lcp_csr_free(&N);
}

/* |u'Bv - v'Bu| / (|u||Bv|) for the cycle B */
static double asymmetry(const lcp_csr *A, int cycle)
{
    int n = A->n;
    lcp_mg *mg;
    lcp_err err = {{0}};
    if (lcp_mg_build(&mg, A, cycle, "test", &err)) return 1.0;
    double *u = malloc((size_t)n * sizeof(double)), *v = malloc((size_t)n * sizeof(double));
    double *bu = malloc((size_t)n * sizeof(double)), *bv = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) u[i] = sin(1.3 * i + 0.2), v[i] = cos(0.7 * i * i + 1.0);
    lcp_mg_cycle(mg, u, bu);
    lcp_mg_cycle(mg, v, bv);
    double ubv = 0.0, vbu = 0.0, nu = 0.0, nbv = 0.0, ubu = 0.0;
    for (int i = 0; i < n; i++) {
        ubv += u[i] * bv[i], vbu += v[i] * bu[i], ubu += u[i] * bu[i];
        nu += u[i] * u[i], nbv += bv[i] * bv[i];
    }
    CHECK(ubu > 0.0); /* positive definite */
    free(u), free(v), free(bu), free(bv);
    lcp_mg_free(mg);
    return fabs(ubv - vbu) / sqrt(nu * nbv);
}

static void test_symmetric(void)
{
    lcp_csr A, N;
    laplace2d(&A, 50);
    laplace1d(&N, 3000, 0);
    for (int c = 1; c <= 2; c++) {
        CHECK(asymmetry(&A, c) < 1e-12);
        CHECK(asymmetry(&N, c) < 1e-12);
    }
    lcp_csr_free(&A), lcp_csr_free(&N);
}

static void test_precond(void)
{
    const lcp_precond_type *t = lcp_precond_find("mg");
    CHECK(t != NULL);
    if (!t) return;
    CHECK(strstr(lcp_precond_names(), "mg") != NULL);
    lcp_settings s;
    lcp_settings_default(&s);
    lcp_csr A;
    laplace1d(&A, 2000, 0);
    lcp_precond P;
    lcp_err err = {{0}};
    CHECK(lcp_precond_setup(&P, t, &A, &s, &err) == 0);
    /* the exact solution of tridiag(-1, 2, -1) x = r by the Thomas algorithm */
    int n = 2000;
    double *r = malloc((size_t)n * sizeof(double)), *y = malloc((size_t)n * sizeof(double));
    double *xs = malloc((size_t)n * sizeof(double)), *c = malloc((size_t)n * sizeof(double));
    double *ae = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) r[i] = 1.0 + 0.5 * sin(0.05 * i);
    c[0] = -0.5, xs[0] = r[0] / 2.0;
    for (int i = 1; i < n; i++) {
        double m = 2.0 + c[i - 1];
        c[i] = -1.0 / m;
        xs[i] = (r[i] + xs[i - 1]) / m;
    }
    for (int i = n - 2; i >= 0; i--) xs[i] -= c[i] * xs[i + 1];
    lcp_precond_apply(&P, r, y);
    for (int i = 0; i < n; i++) y[i] -= xs[i]; /* the error */
    lcp_csr_matvec(&A, y, ae);
    double ee = 0.0, e0 = 0.0;
    for (int i = 0; i < n; i++) ee += y[i] * ae[i], e0 += xs[i] * r[i];
    printf("one cycle from zero: |x - y|_A / |x|_A = %.3f\n", sqrt(ee / e0));
    CHECK(sqrt(ee / e0) < 0.5);
    free(r), free(y), free(xs), free(c), free(ae);
    lcp_precond_free(&P);
    lcp_csr_free(&A);

    /* refusals */
    double ns[4] = {2, 1, 0, 2}; /* column-major [[2,0],[1,2]]: not symmetric */
    CHECK(lcp_csr_from_dense_colmajor(&A, 2, 2, ns) == 0);
    CHECK(lcp_precond_setup(&P, t, &A, &s, &err) == LCP_INPUT_ERROR);
    CHECK(strstr(err.msg, "symmetric") != NULL);
    lcp_csr_free(&A);
    double zd[4] = {2, 1, 1, 0}; /* zero diagonal */
    CHECK(lcp_csr_from_dense_colmajor(&A, 2, 2, zd) == 0);
    CHECK(lcp_precond_setup(&P, t, &A, &s, &err) == LCP_INPUT_ERROR);
    CHECK(strstr(err.msg, "A(2,2)") != NULL);
    lcp_csr_free(&A);
}

int main(void)
{
    test_multiply();
    test_galerkin();
    test_rates();
    test_symmetric();
    test_precond();
    CHECK_DONE();
}
