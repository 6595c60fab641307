/* tests/unit/test_precond.c: unit tests of the preconditioners
 * (src/precond/: diag, ichol, spai) through the registry.
 *
 * - ichol on a tridiagonal SPD matrix has no fill, so it is the exact
 *   Cholesky factor: P^-1 A x = x; on a 2D Laplacian (fill dropped) it is
 *   not exact, but still symmetric and positive;
 * - on a singular PSD matrix (1D Neumann Laplacian) the shift kicks in, and
 *   P = A + alpha diag(A) exactly (tridiagonal again); zero and negative
 *   diagonals are refused naming the row;
 * - spai on a diagonal matrix is the exact inverse, on a general SPD matrix
 *   ||I - A M||_F is below that of M = I and of M = diag(A)^-1;
 * - every preconditioner's apply is symmetric (u'P^-1 v = v'P^-1 u) and
 *   positive (r'P^-1 r > 0);
 * - a small preconditioned CG loop needs fewer iterations with ichol than
 *   without on a 1D Laplacian, on the bundled column-20 and on the singular
 *   pyramid-5 contact matrix (read with the Matrix Market reader; run from
 *   the repository root, as `make test` does), and on the files given as
 *   arguments (tests/e2e/precond_ichol.sh: generated scenes).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "io/io.h"
#include "precond/precond.h"
#include "solvers/solver.h"

double lcp_precond_ichol_shift(const void *state); /* src/precond/ichol.c */
void dsyev_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w, double *work,
            const int *lwork, int *info);

/* The smallest eigenvalue of a symmetric n x n (n <= 16) column-major array. */
static double min_eig(int n, const double *a)
{
    double c[256], w[16], work[256];
    int lw = 256, info;
    for (int i = 0; i < n * n; i++) c[i] = a[i];
    dsyev_("N", "L", &n, c, &n, w, work, &lw, &info);
    return info ? NAN : w[0];
}

/* The dense column-major P^-1 (n <= 16), applied to the unit vectors. */
static void dense_inverse(const lcp_precond *P, int n, double *out)
{
    double e[16] = {0};
    for (int k = 0; k < n; k++) {
        e[k] = 1;
        lcp_precond_apply(P, e, out + (size_t)k * n);
        e[k] = 0;
    }
}

/* ------------------------------------------------------------------ helpers */

static unsigned long long rng = 88172645463325252ULL;
static double urand(void) /* in (-1, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 4503599627370496.0 - 1.0;
}

static double dot(int n, const double *a, const double *b)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

/* A from a dense row-major n x n array (exact zeros dropped). */
static lcp_csr dense(int n, const double *rm)
{
    double *cm = calloc((size_t)n * n, sizeof(double));
    for (int i = 0; i < n; i++)
        for (int c = 0; c < n; c++) cm[i + (size_t)c * n] = rm[(size_t)i * n + c];
    lcp_csr A;
    if (lcp_csr_from_dense_colmajor(&A, n, n, cm)) exit(2);
    free(cm);
    return A;
}

/* Tridiagonal n x n with diagonal d and off-diagonal e (length n-1). */
static lcp_csr tridiag(int n, const double *d, const double *e)
{
    double *rm = calloc((size_t)n * n, sizeof(double));
    for (int i = 0; i < n; i++) {
        rm[(size_t)i * n + i] = d[i];
        if (i + 1 < n) rm[(size_t)i * n + i + 1] = rm[(size_t)(i + 1) * n + i] = e[i];
    }
    lcp_csr A = dense(n, rm);
    free(rm);
    return A;
}

/* 5-point Laplacian on a k x k grid, rows scaled by s_i s_j (badly scaled when s varies). */
static lcp_csr laplace2d(int k, const double *s)
{
    int n = k * k;
    double *rm = calloc((size_t)n * n, sizeof(double));
    for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++) {
            int i = a * k + b;
            rm[(size_t)i * n + i] = 4;
            if (a + 1 < k) rm[(size_t)i * n + i + k] = rm[(size_t)(i + k) * n + i] = -1;
            if (b + 1 < k) rm[(size_t)i * n + i + 1] = rm[(size_t)(i + 1) * n + i] = -1;
        }
    for (int i = 0; i < n; i++)
        for (int c = 0; c < n; c++) rm[(size_t)i * n + c] *= s[i] * s[c];
    lcp_csr A = dense(n, rm);
    free(rm);
    return A;
}

static int build_threads(lcp_precond *P, const char *name, const lcp_csr *A, int threads, lcp_err *err)
{
    lcp_settings s;
    lcp_settings_default(&s);
    s.threads = threads;
    const lcp_precond_type *t = lcp_precond_find(name);
    if (!t) {
        fprintf(stderr, "no preconditioner %s\n", name);
        exit(2);
    }
    memset(err, 0, sizeof *err);
    return lcp_precond_setup(P, t, A, &s, err);
}

static int build(lcp_precond *P, const char *name, const lcp_csr *A, lcp_err *err)
{
    return build_threads(P, name, A, 1, err);
}

/* max_i |(P^-1 A x - x)_i| / max|x| over a random x */
static double inverse_error(const lcp_precond *P, const lcp_csr *A)
{
    int n = A->n;
    double *x = calloc((size_t)n, sizeof(double)), *ax = calloc((size_t)n, sizeof(double)), *y = calloc((size_t)n, sizeof(double));
    double e = 0, xm = 0;
    for (int i = 0; i < n; i++) x[i] = urand();
    lcp_csr_matvec(A, x, ax);
    lcp_precond_apply(P, ax, y);
    for (int i = 0; i < n; i++) {
        e = fmax(e, fabs(y[i] - x[i]));
        xm = fmax(xm, fabs(x[i]));
    }
    free(x), free(ax), free(y);
    return e / xm;
}

/* Checks u'P^-1 v = v'P^-1 u and r'P^-1 r > 0 over a few random vectors. */
static void check_symmetric_positive(const char *name, const lcp_precond *P, int n)
{
    double *u = calloc((size_t)n, sizeof(double)), *v = calloc((size_t)n, sizeof(double));
    double *pu = calloc((size_t)n, sizeof(double)), *pv = calloc((size_t)n, sizeof(double));
    int sym = 1, pos = 1;
    for (int trial = 0; trial < 5; trial++) {
        for (int i = 0; i < n; i++) u[i] = urand(), v[i] = urand();
        lcp_precond_apply(P, u, pu);
        lcp_precond_apply(P, v, pv);
        double a = dot(n, u, pv), b = dot(n, v, pu);
        double scale = sqrt(dot(n, u, pu) * dot(n, v, pv));
        if (!(fabs(a - b) <= 1e-12 * scale)) {
            fprintf(stderr, "%s: u'P^-1 v = %.17g, v'P^-1 u = %.17g\n", name, a, b);
            sym = 0;
        }
        if (!(dot(n, u, pu) > 0) || !(dot(n, v, pv) > 0)) {
            fprintf(stderr, "%s: r'P^-1 r = %g, %g\n", name, dot(n, u, pu), dot(n, v, pv));
            pos = 0;
        }
    }
    CHECK(sym);
    CHECK(pos);
    free(u), free(v), free(pu), free(pv);
}

/* ||I - A Pinv||_F, Pinv applied to the unit vectors. */
static double frob_residual(const lcp_precond *P, const lcp_csr *A)
{
    int n = A->n;
    double *e = calloc(n, sizeof(double)), *m = calloc((size_t)n, sizeof(double)), *am = calloc((size_t)n, sizeof(double));
    double s = 0;
    for (int k = 0; k < n; k++) {
        e[k] = 1;
        lcp_precond_apply(P, e, m);
        lcp_csr_matvec(A, m, am);
        am[k] -= 1;
        s += dot(n, am, am);
        e[k] = 0;
    }
    free(e), free(m), free(am);
    return sqrt(s);
}

/* Preconditioned conjugate gradients for A x = b from x = 0; the iterations
 * to ||r|| <= tol ||b||, or -1 when maxit is reached or CG breaks down. */
static int pcg(const lcp_csr *A, const lcp_precond *P, const double *b, double tol, int maxit, double *x)
{
    int n = A->n;
    double *r = calloc((size_t)n, sizeof(double)), *z = calloc((size_t)n, sizeof(double));
    double *p = calloc((size_t)n, sizeof(double)), *q = calloc((size_t)n, sizeof(double));
    memset(x, 0, n * sizeof(double));
    memcpy(r, b, n * sizeof(double));
    double bn = sqrt(dot(n, b, b));
    lcp_precond_apply(P, r, z);
    memcpy(p, z, n * sizeof(double));
    double rz = dot(n, r, z);
    int it = -1;
    for (int k = 0; k < maxit; k++) {
        if (sqrt(dot(n, r, r)) <= tol * bn) {
            it = k;
            break;
        }
        lcp_csr_matvec(A, p, q);
        double pq = dot(n, p, q);
        if (!(pq > 0) || !(rz > 0)) break;
        double alpha = rz / pq;
        for (int i = 0; i < n; i++) x[i] += alpha * p[i], r[i] -= alpha * q[i];
        lcp_precond_apply(P, r, z);
        double rz1 = dot(n, r, z);
        for (int i = 0; i < n; i++) p[i] = z[i] + rz1 / rz * p[i];
        rz = rz1;
    }
    free(r), free(z), free(p), free(q);
    return it;
}

/* PCG iterations on A x = A x_true (consistent even for singular A). */
static int pcg_iters(const lcp_csr *A, const char *name, double tol)
{
    int n = A->n;
    double *xt = calloc((size_t)n, sizeof(double)), *b = calloc((size_t)n, sizeof(double)), *x = calloc((size_t)n, sizeof(double));
    rng = 12345;
    for (int i = 0; i < n; i++) xt[i] = urand();
    lcp_csr_matvec(A, xt, b);
    lcp_precond P;
    lcp_err err;
    int it = -2;
    if (build(&P, name, A, &err) == 0) {
        it = pcg(A, &P, b, tol, 10 * n + 100, x);
        /* check the answer: ||A x - b|| <= 10 tol ||b|| */
        double *ax = calloc((size_t)n, sizeof(double));
        lcp_csr_matvec(A, x, ax);
        for (int i = 0; i < n; i++) ax[i] -= b[i];
        if (it >= 0 && !(sqrt(dot(n, ax, ax)) <= 10 * tol * sqrt(dot(n, b, b)))) it = -3;
        free(ax);
        lcp_precond_free(&P);
    } else {
        fprintf(stderr, "pcg_iters %s: %s\n", name, err.msg);
    }
    free(xt), free(b), free(x);
    return it;
}

/* -------------------------------------------------------------------- tests */

static void test_registry(void)
{
    CHECK(lcp_precond_find("ichol") != NULL);
    CHECK(lcp_precond_find("spai") != NULL);
    CHECK(lcp_precond_find("diag") != NULL);
    CHECK(strstr(lcp_precond_names(), "ichol") != NULL);
    CHECK(strstr(lcp_precond_names(), "spai") != NULL);
}

static void test_ichol_tridiagonal_exact(void)
{
    /* SPD, badly scaled: diagonal from 1e-3 to 1e3 */
    enum { n = 12 };
    double d[n], e[n - 1];
    for (int i = 0; i < n; i++) d[i] = pow(10, (i % 7) - 3);
    for (int i = 0; i < n - 1; i++) e[i] = (i % 2 ? -0.45 : 0.3) * sqrt(d[i] * d[i + 1]);
    lcp_csr A = tridiag(n, d, e);
    lcp_precond P;
    lcp_err err;
    CHECK(build(&P, "ichol", &A, &err) == 0);
    CHECK(lcp_precond_ichol_shift(P.state) == 0);
    CHECK(inverse_error(&P, &A) < 1e-12);
    check_symmetric_positive("ichol tridiagonal", &P, n);
    lcp_precond_free(&P);
    lcp_csr_free(&A);
}

static void test_ichol_2d(void)
{
    enum { k = 6, n = k * k };
    double s[n];
    for (int i = 0; i < n; i++) s[i] = pow(10, (i % 5) - 2);
    lcp_csr A = laplace2d(k, s);
    lcp_precond P;
    lcp_err err;
    CHECK(build(&P, "ichol", &A, &err) == 0);
    CHECK(lcp_precond_ichol_shift(P.state) == 0); /* an M-matrix: IC(0) exists */
    double ie = inverse_error(&P, &A);
    CHECK(ie > 1e-3); /* fill dropped: not the exact inverse */
    CHECK(isfinite(ie));
    check_symmetric_positive("ichol 2d", &P, n);
    lcp_precond_free(&P);
    lcp_csr_free(&A);
}

static void test_ichol_shift(void)
{
    /* 1D Neumann Laplacian, scaled: singular PSD (null space: D^-1/2-scaled
     * ones), tridiagonal, so IC(0) of S + alpha I is exact and P = A + alpha D */
    enum { n = 10 };
    double d[n], e[n - 1], w[n];
    for (int i = 0; i < n; i++) w[i] = 1 + i;
    for (int i = 0; i < n; i++) d[i] = w[i] * w[i] * ((i == 0 || i == n - 1) ? 1 : 2);
    for (int i = 0; i < n - 1; i++) e[i] = -w[i] * w[i + 1];
    lcp_csr A = tridiag(n, d, e);
    lcp_precond P;
    lcp_err err;
    CHECK(build(&P, "ichol", &A, &err) == 0);
    double alpha = P.type ? lcp_precond_ichol_shift(P.state) : 0;
    CHECK(alpha >= 1e-3);
    CHECK(alpha <= 1);
    /* P^-1 (A + alpha diag(A)) x = x */
    lcp_csr B;
    CHECK(lcp_csr_copy(&B, &A) == 0);
    for (int i = 0; i < n; i++)
        for (int q = B.p[i]; q < B.p[i + 1]; q++)
            if (B.j[q] == i) B.x[q] *= 1 + alpha;
    CHECK(inverse_error(&P, &B) < 1e-10);
    check_symmetric_positive("ichol shifted", &P, n);
    lcp_precond_free(&P);
    lcp_csr_free(&B);
    lcp_csr_free(&A);

    /* pyramid-5: a singular contact matrix (more contacts than body freedoms) */
    lcp_csr C = {0};
    lcp_err rerr = {{0}};
    CHECK(lcp_read_mtx_matrix("problems/pyramid-5/A.mtx", &C, &rerr) == 0);
    if (C.p) {
        CHECK(build(&P, "ichol", &C, &err) == 0);
        if (P.type) {
            CHECK(lcp_precond_ichol_shift(P.state) > 0);
            check_symmetric_positive("ichol pyramid-5", &P, C.n);
        }
        lcp_precond_free(&P);
        lcp_csr_free(&C);
    }
}

static void test_ichol_indefinite(void)
{
    /* symmetric, unit diagonal, indefinite: IC(0) breaks down until the shift
     * makes S + alpha I diagonally dominant (alpha > 2); P^-1 is still SPD */
    const double rm[9] = {1, 2, 0, 2, 1, 0.5, 0, 0.5, 1};
    lcp_csr A = dense(3, rm);
    lcp_precond P;
    lcp_err err;
    CHECK(build(&P, "ichol", &A, &err) == 0);
    if (P.type) {
        double alpha = lcp_precond_ichol_shift(P.state), inv[9];
        CHECK(alpha > 1 && alpha < 10);
        dense_inverse(&P, 3, inv);
        CHECK(min_eig(3, inv) > 0);
        check_symmetric_positive("ichol indefinite", &P, 3);
    }
    lcp_precond_free(&P);
    lcp_csr_free(&A);

    /* [1 c; c 1], c = 1.8: IC(0) is the full Cholesky factor of S + alpha I,
     * which exists for alpha > 0.8; the search fails at 0.1, works at 1, and
     * both refinements (0.316, 0.562) fail, so the factor must be rebuilt
     * for alpha = 1: P = A + alpha diag(A) exactly */
    const double rm2[4] = {4, 7.2, 7.2, 4}; /* 4 [1 1.8; 1.8 1] */
    lcp_csr A2 = dense(2, rm2);
    CHECK(build(&P, "ichol", &A2, &err) == 0);
    if (P.type) {
        double alpha = lcp_precond_ichol_shift(P.state);
        CHECK_NEAR(alpha, 1, 1e-12);
        lcp_csr B2;
        CHECK(lcp_csr_copy(&B2, &A2) == 0);
        B2.x[0] *= 1 + alpha, B2.x[3] *= 1 + alpha;
        CHECK(inverse_error(&P, &B2) < 1e-12);
        lcp_csr_free(&B2);
    }
    lcp_precond_free(&P);
    lcp_csr_free(&A2);

    /* a friction pyramid (3 rows a contact): IC(0) breaks down with a
     * negative pivot even at alpha = 0.1, so the refined shift lies in
     * (0.1, 1], not on the powers of ten */
    lcp_csr C = {0};
    lcp_err rerr = {{0}};
    CHECK(lcp_read_mtx_matrix("problems/pyramid-5-fc3d/A.mtx", &C, &rerr) == 0);
    if (C.p) {
        CHECK(build(&P, "ichol", &C, &err) == 0);
        if (P.type) {
            double alpha = lcp_precond_ichol_shift(P.state);
            fprintf(stderr, "ichol pyramid-5-fc3d: shift %g\n", alpha);
            CHECK(alpha > 0.1 && alpha <= 1);
            CHECK(fabs(log10(alpha) - round(log10(alpha))) > 0.1);
            check_symmetric_positive("ichol pyramid-5-fc3d", &P, C.n);
        }
        lcp_precond_free(&P);
        lcp_csr_free(&C);
    }
}

static void test_bad_diagonal(void)
{
    const char *names[] = {"ichol", "diag", "spai"};
    for (int v = 0; v < 2; v++) {
        double dv = v ? -2 : 0;
        double d[4] = {2, 3, dv, 4}, e[3] = {-1, 0.5, -1};
        lcp_csr A = tridiag(4, d, e);
        for (int k = 0; k < 3; k++) {
            lcp_precond P;
            lcp_err err;
            int rc = build(&P, names[k], &A, &err);
            CHECK(rc == LCP_INPUT_ERROR);
            CHECK(strstr(err.msg, "A(3,3)") != NULL);
            CHECK(strstr(err.msg, names[k]) != NULL);
            CHECK(strchr(err.msg, '\n') == NULL);
            CHECK(P.type == NULL);
            lcp_precond_free(&P);
        }
        lcp_csr_free(&A);
    }
}

static void test_spai(void)
{
    /* diagonal: the exact inverse */
    enum { n = 7 };
    double rm[n * n] = {0};
    for (int i = 0; i < n; i++) rm[i * n + i] = pow(10, i - 3) * (1 + 0.1 * i);
    lcp_csr A = dense(n, rm);
    lcp_precond P;
    lcp_err err;
    CHECK(build(&P, "spai", &A, &err) == 0);
    double e[n] = {0}, y[n];
    int exact = 1;
    for (int k = 0; k < n; k++) {
        e[k] = 1;
        lcp_precond_apply(&P, e, y);
        for (int i = 0; i < n; i++)
            if (fabs(y[i] - (i == k ? 1 / rm[k * n + k] : 0)) > 1e-13 / rm[k * n + k]) exact = 0;
        e[k] = 0;
    }
    CHECK(exact);
    lcp_precond_free(&P);
    lcp_csr_free(&A);

    /* a general SPD matrix: 2D Laplacian with a constant diagonal, so that
     * A M is the S M whose Frobenius distance to I spai minimises */
    enum { k = 6, m = k * k };
    double s1[m], s2[m];
    for (int i = 0; i < m; i++) s1[i] = 1, s2[i] = pow(10, (i % 3) - 1);
    lcp_csr L = laplace2d(k, s1);
    lcp_precond Pi = {0}, Pd, Ps;
    Pi.n = m; /* the identity */
    CHECK(build(&Pd, "diag", &L, &err) == 0);
    CHECK(build(&Ps, "spai", &L, &err) == 0);
    double fi = frob_residual(&Pi, &L), fd = frob_residual(&Pd, &L), fs = frob_residual(&Ps, &L);
    fprintf(stderr, "spai 2d Laplacian: ||I - AM||_F identity %g, diag %g, spai %g\n", fi, fd, fs);
    CHECK(fs < fi);
    CHECK(fs < 0.75 * fd);
    check_symmetric_positive("spai 2d", &Ps, m);
    check_symmetric_positive("diag 2d", &Pd, m);

    /* the same matrix badly scaled, A2 = S A S: spai works on the unit-diagonal
     * scaling, so its P^-1 is S^-1 P^-1 S^-1, entry by entry */
    lcp_csr L2 = laplace2d(k, s2);
    lcp_precond Ps2;
    CHECK(build(&Ps2, "spai", &L2, &err) == 0);
    double e1[m] = {0}, y1[m], y2[m], dev = 0, ymax = 0;
    for (int c = 0; c < m; c++) {
        e1[c] = 1;
        lcp_precond_apply(&Ps, e1, y1);
        lcp_precond_apply(&Ps2, e1, y2);
        for (int i = 0; i < m; i++) {
            dev = fmax(dev, fabs(y2[i] * s2[i] * s2[c] - y1[i]));
            ymax = fmax(ymax, fabs(y1[i]));
        }
        e1[c] = 0;
    }
    CHECK(dev <= 1e-12 * ymax);
    double fi2 = frob_residual(&Pi, &L2), fs2 = frob_residual(&Ps2, &L2);
    CHECK(fs2 < fi2);
    lcp_precond_free(&Ps2);

    /* the symmetrised spai can be indefinite (as the manual says): a 5 x 5
     * SPD matrix far from diagonally dominant, one zero pair; ichol is not */
    {
        const double rm5[25] = {0.3686, 0.2053, 0.2178, 0.0401,  0.0086,  0.2053, 0.3907, 0.0250, 0.0,
                                0.0598, 0.2178, 0.0250, 0.5980, -0.0172, 0.0690, 0.0401, 0.0,    -0.0172,
                                0.0154, -0.0153, 0.0086, 0.0598, 0.0690, -0.0153, 0.1207};
        lcp_csr A5 = dense(5, rm5);
        double inv[25];
        CHECK(min_eig(5, rm5) > 1e-4); /* A is SPD */
        lcp_precond P5;
        CHECK(build(&P5, "spai", &A5, &err) == 0);
        dense_inverse(&P5, 5, inv);
        CHECK(min_eig(5, inv) < 0);
        lcp_precond_free(&P5);
        CHECK(build(&P5, "ichol", &A5, &err) == 0);
        dense_inverse(&P5, 5, inv);
        CHECK(min_eig(5, inv) > 0);
        lcp_precond_free(&P5);
        lcp_csr_free(&A5);
    }
    lcp_precond_free(&Pd);
    lcp_precond_free(&Ps);
    lcp_csr_free(&L2);
    lcp_csr_free(&L);
}

/* PCG with ichol needs fewer iterations than without and than with diag on
 * the matrix in a Matrix Market file. */
static void test_pcg_file(const char *path)
{
    lcp_csr C = {0};
    lcp_err err = {{0}};
    CHECK(lcp_read_mtx_matrix(path, &C, &err) == 0);
    if (!C.p) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    lcp_precond P0 = {0};
    P0.n = C.n;
    int m = C.n;
    double *xt = calloc((size_t)m, sizeof(double)), *b = calloc((size_t)m, sizeof(double));
    double *x = calloc((size_t)m, sizeof(double));
    rng = 12345;
    for (int i = 0; i < m; i++) xt[i] = urand();
    lcp_csr_matvec(&C, xt, b);
    int it0 = pcg(&C, &P0, b, 1e-8, 20 * m + 100, x);
    int itd = pcg_iters(&C, "diag", 1e-8), iti = pcg_iters(&C, "ichol", 1e-8), its = pcg_iters(&C, "spai", 1e-8);
    fprintf(stderr, "pcg %s: none %d, diag %d, ichol %d, spai %d\n", path, it0, itd, iti, its);
    CHECK(iti > 0);
    CHECK(it0 < 0 || iti < it0);
    CHECK(itd < 0 || iti < itd);
    free(xt), free(b), free(x);
    lcp_csr_free(&C);
}

/* a dense A (n = 1000: 1.4e10 flops a column) is refused at once, in one line: in less CPU time than 10 times
 * ichol's dense Cholesky of the same A (n^3 / 3 flops, where spai's columns would take 4 10^4 times that), timed
 * beside it (no absolute time: the machine's speed and a sanitizer's cost cancel) */
static void test_spai_dense(void)
{
    int n = 1000;
    lcp_csr A;
    CHECK(lcp_csr_alloc(&A, n, n, (long)n * n) == 0);
    for (int i = 0; i < n; i++) {
        A.p[i + 1] = (i + 1) * n;
        for (int c = 0; c < n; c++) A.j[(long)i * n + c] = c, A.x[(long)i * n + c] = c == i ? n + 1 : 1;
    }
    lcp_precond P;
    lcp_err err;
    clock_t t0 = clock();
    int rc = build(&P, "spai", &A, &err);
    double t = (double)(clock() - t0) / CLOCKS_PER_SEC; /* CPU seconds */
    CHECK(rc == LCP_INPUT_ERROR);
    CHECK(strstr(err.msg, "too dense") != NULL);
    lcp_precond_free(&P);
    t0 = clock();
    CHECK(build(&P, "ichol", &A, &err) == 0); /* ichol takes it: a dense Cholesky */
    double tc = (double)(clock() - t0) / CLOCKS_PER_SEC;
    if (!(t < 10 * tc)) fprintf(stderr, "spai's refusal %.3g CPU s, ichol's Cholesky %.3g\n", t, tc);
    CHECK(t < 10 * tc);
    CHECK(inverse_error(&P, &A) < 1e-10);
    lcp_precond_free(&P);
    lcp_csr_free(&A);
}

/* spai's columns on 1 and 3 threads: the same bits */
static void test_spai_threads(void)
{
    lcp_csr C = {0};
    lcp_err err = {{0}};
    CHECK(lcp_read_mtx_matrix("problems/pyramid-5-fc3d/A.mtx", &C, &err) == 0);
    if (!C.p) return;
    lcp_precond P1, P3;
    CHECK(build_threads(&P1, "spai", &C, 1, &err) == 0);
    CHECK(build_threads(&P3, "spai", &C, 3, &err) == 0);
    int n = C.n, same = 1;
    double *r = calloc((size_t)n, sizeof(double)), *y1 = calloc((size_t)n, sizeof(double));
    double *y3 = calloc((size_t)n, sizeof(double));
    for (int i = 0; i < n; i++) r[i] = urand();
    if (P1.type && P3.type) {
        lcp_precond_apply(&P1, r, y1);
        lcp_precond_apply(&P3, r, y3);
        same = !memcmp(y1, y3, (size_t)n * sizeof(double));
    }
    CHECK(same);
    CHECK(dot(n, r, y1) > 0);
    free(r), free(y1), free(y3);
    lcp_precond_free(&P1);
    lcp_precond_free(&P3);
    lcp_csr_free(&C);
}

static void test_pcg(void)
{
    /* 1D Dirichlet Laplacian: IC(0) is exact, one iteration */
    enum { n = 200 };
    double d[n], e[n - 1];
    for (int i = 0; i < n; i++) d[i] = 2;
    for (int i = 0; i < n - 1; i++) e[i] = -1;
    lcp_csr A = tridiag(n, d, e);
    int none = pcg_iters(&A, "diag", 1e-10), ic = pcg_iters(&A, "ichol", 1e-10), sp = pcg_iters(&A, "spai", 1e-10);
    fprintf(stderr, "pcg 1D Laplacian n=%d: diag %d, ichol %d, spai %d\n", n, none, ic, sp);
    CHECK(none > 50);
    CHECK(ic >= 1 && ic <= 2);
    CHECK(sp > 0 && sp < none);
    lcp_csr_free(&A);

    /* 2D Laplacian, badly scaled */
    {
        enum { k = 20, m = k * k };
        double *s = calloc((size_t)m, sizeof(double));
        for (int i = 0; i < m; i++) s[i] = pow(10, (i % 4) - 2);
        lcp_csr L = laplace2d(k, s);
        free(s);
        /* "none" goes through lcp_precond_setup(NULL) */
        lcp_precond P0 = {0};
        P0.n = m;
        double *xt = calloc((size_t)m, sizeof(double)), *b = calloc((size_t)m, sizeof(double)), *x = calloc((size_t)m, sizeof(double));
        rng = 777;
        for (int i = 0; i < m; i++) xt[i] = urand();
        lcp_csr_matvec(&L, xt, b);
        int it0 = pcg(&L, &P0, b, 1e-8, 20 * m, x);
        int itd = pcg_iters(&L, "diag", 1e-8), iti = pcg_iters(&L, "ichol", 1e-8), its = pcg_iters(&L, "spai", 1e-8);
        fprintf(stderr, "pcg 2D Laplacian %dx%d scaled: none %d, diag %d, ichol %d, spai %d\n", k, k, it0, itd, iti,
                its);
        CHECK(itd > 0 && (it0 < 0 || itd < it0));
        CHECK(iti > 0 && iti < itd);
        CHECK(its > 0 && its < itd);
        free(xt), free(b), free(x);
        lcp_csr_free(&L);
    }

    /* bundled contact matrices */
    const char *files[] = {"problems/column-20/A.mtx", "problems/column-20-ratio100/A.mtx",
                           "problems/pyramid-5/A.mtx", "problems/pyramid-5-fc3d/A.mtx"};
    for (int f = 0; f < 4; f++) test_pcg_file(files[f]);
}

/* With arguments (tests/e2e/precond_ichol.sh): only the PCG comparison on
 * each Matrix Market file named. */
int main(int argc, char **argv)
{
    if (argc > 1) {
        for (int i = 1; i < argc; i++) test_pcg_file(argv[i]);
        CHECK_DONE();
    }
    test_registry();
    test_ichol_tridiagonal_exact();
    test_ichol_2d();
    test_ichol_shift();
    test_ichol_indefinite();
    test_bad_diagonal();
    test_spai();
    test_spai_threads();
    test_spai_dense();
    test_pcg();
    CHECK_DONE();
}
