/* tests/unit/test_sparse_pinv.c: the sparse pseudo-inverse of a symmetric
 * positive semidefinite matrix (src/la/sparse_pinv.c) against the dense one
 * from LAPACK's eigendecomposition (eigenvalues below 1e-9 of the largest
 * dropped): S = J J' with rows of J that depend on others locally (a
 * contact on a face's three others) and globally (more rows than columns),
 * rows scaled over 8 orders of magnitude (mass ratios), nonsingular S, a
 * zero matrix, an indefinite one, and S^+ applied in place. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "la/sparse_pinv.h"

void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w, double *work,
             const int *lwork, int *iwork, const int *liwork, int *info);

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
static double urand(void) /* uniform in [-1, 1) */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* S (n x n, dense column-major) to CSR with its zero entries left out but the diagonal */
static void to_csr(const double *S, int n, lcp_csr *A)
{
    long nz = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) nz += S[i + (size_t)j * n] != 0.0 || i == j;
    lcp_csr_alloc(A, n, n, nz);
    nz = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            if (S[i + (size_t)j * n] != 0.0 || i == j) A->j[nz] = j, A->x[nz++] = S[i + (size_t)j * n];
        A->p[i + 1] = (int)nz;
    }
}

/* y = S^+ r from the eigendecomposition; returns the nullity */
static int dense_pinv(const double *S, int n, const double *r, double *y, double cut)
{
    double *a = malloc((size_t)n * n * sizeof *a), *w = malloc((size_t)n * sizeof *w), q;
    memcpy(a, S, (size_t)n * n * sizeof *a);
    int lwork = -1, liwork = -1, qi, info = 0;
    dsyevd_("V", "L", &n, a, &n, w, &q, &lwork, &qi, &liwork, &info);
    lwork = (int)q, liwork = qi;
    double *work = malloc((size_t)lwork * sizeof *work);
    int *iwork = malloc((size_t)liwork * sizeof *iwork);
    dsyevd_("V", "L", &n, a, &n, w, work, &lwork, iwork, &liwork, &info);
    double wmax = 0;
    for (int k = 0; k < n; k++) wmax = fmax(wmax, fabs(w[k]));
    int null = 0;
    memset(y, 0, (size_t)n * sizeof *y);
    for (int k = 0; k < n; k++) {
        const double *v = a + (size_t)k * n;
        if (!(fabs(w[k]) > cut * wmax)) {
            null++;
            continue;
        }
        double c = 0;
        for (int i = 0; i < n; i++) c += v[i] * r[i];
        for (int i = 0; i < n; i++) y[i] += v[i] * c / w[k];
    }
    free(a), free(w), free(work), free(iwork);
    return null;
}

/* S = D J J' D: J n x m, the first n0 rows random with 3 entries, each later
 * row a combination of 2 or 3 earlier ones (a local dependency); D scales
 * row i by 10^(spread (i mod 5) / 4 - spread / 2) */
static double *make(int n, int n0, int m, double spread)
{
    double *J = calloc((size_t)n * m, sizeof *J), *S = calloc((size_t)n * n, sizeof *S);
    for (int i = 0; i < n0; i++)
        for (int k = 0; k < 3; k++) J[i + (size_t)((int)((urand() + 1) * 0.5 * m) % m) * n] += urand();
    for (int i = n0; i < n; i++) {
        int parts = 2 + (i % 2);
        for (int k = 0; k < parts; k++) {
            int src = (i - 1 - k * 3) % n0;
            double c = urand();
            for (int j = 0; j < m; j++) J[i + (size_t)j * n] += c * J[src + (size_t)j * n];
        }
    }
    for (int i = 0; i < n; i++) {
        double d = pow(10.0, spread * (i % 5) / 4.0 - spread / 2);
        for (int j = 0; j < m; j++) J[i + (size_t)j * n] *= d;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < m; k++) s += J[i + (size_t)k * n] * J[j + (size_t)k * n];
            S[i + (size_t)j * n] = s;
        }
    free(J);
    return S;
}

static double rel_diff(const double *a, const double *b, int n)
{
    double d = 0, s = 0;
    for (int i = 0; i < n; i++) d = fmax(d, fabs(a[i] - b[i])), s = fmax(s, fabs(b[i]));
    return d / fmax(s, 1e-300);
}

/* the sparse pseudo-inverse against the dense one (eigenvalues below cut of
 * the largest dropped) on S: 0 and *null the nullity, or 1 where the sparse
 * one declined (may_decline: allowed) */
static int against_dense(const char *name, double *S, int n, double cut, double tol, int may_decline, int *null)
{
    lcp_csr A = {0};
    to_csr(S, n, &A);
    lcp_pinv P;
    lcp_err err = {{0}};
    double *r = malloc((size_t)n * sizeof *r), *y = malloc((size_t)n * sizeof *y), *yd = malloc((size_t)n * sizeof *yd);
    for (int i = 0; i < n; i++) r[i] = urand();
    *null = dense_pinv(S, n, r, yd, cut);
    int rc = lcp_pinv_init(&P, &A, &err);
    CHECK(rc == 0 || (rc == 1 && may_decline));
    double worst = 0;
    for (int t = 0; t < 3 && rc == 0; t++) {
        if (t) dense_pinv(S, n, r, yd, cut);
        CHECK(lcp_pinv_apply(&P, r, y) == 0);
        worst = fmax(worst, rel_diff(y, yd, n));
        CHECK(lcp_pinv_apply(&P, r, r) == 0); /* in place: the same */
        CHECK(rel_diff(r, y, n) == 0);
        for (int i = 0; i < n; i++) r[i] = urand();
    }
    if (name) printf("%-34s n %4d  null space %4d (dense %4d)  S^+ r against the dense: %.1e%s\n", name, n, P.nd, *null,
                     worst, rc ? " (declined)" : "");
    if (rc == 0) {
        CHECK(P.nd == *null);
        CHECK(worst <= tol);
    }
    lcp_pinv_free(&P);
    lcp_csr_free(&A);
    free(r), free(y), free(yd);
    return rc;
}

int main(void)
{
    int null;
    /* local dependencies only (a face's fourth contact on three others) */
    double *S = make(120, 90, 400, 0.0);
    CHECK(against_dense("local dependencies", S, 120, 1e-9, 1e-8, 0, &null) == 0 && null == 30);
    free(S);
    /* local and global (more rows than J's columns): random instances; where the pivots' gap is not clear
     * the sparse one declines (the caller takes the dense one), else it agrees */
    int declined = 0, runs = 12;
    for (int t = 0; t < runs; t++) {
        S = make(160, 100, 70, 0.0);
        declined += against_dense(t ? NULL : "local and global dependencies", S, 160, 1e-9, 1e-7, 1, &null);
        CHECK(null >= 90);
        free(S);
    }
    printf("local and global dependencies: %d of %d instances declined\n", declined, runs);
    CHECK(declined < runs / 2);
    /* scaled rows (10^-2..10^2: a mass ratio): the rank of the scaled matrix, which an eigenvalue cut at 1e-9
     * of the largest does not see (it drops an eigenvalue of the small rows): the dense one at the exact rank */
    S = make(120, 90, 400, 4.0);
    CHECK(against_dense("scaled rows", S, 120, 1e-13, 1e-6, 0, &null) == 0 && null == 30);
    free(S);
    /* nonsingular: J J' + I; the pseudo-inverse is the inverse */
    S = make(80, 80, 30, 0.0);
    for (int i = 0; i < 80; i++) S[i + (size_t)i * 80] += 1.0;
    CHECK(against_dense("nonsingular (J J' + I)", S, 80, 1e-9, 1e-10, 0, &null) == 0 && null == 0);
    free(S);
    /* the zero matrix: every row dependent, S^+ = 0 */
    {
        double Z[9] = {0}, r[3] = {1, -2, 3}, y[3] = {7, 7, 7};
        lcp_csr A = {0};
        to_csr(Z, 3, &A);
        lcp_pinv P;
        lcp_err err = {{0}};
        CHECK(lcp_pinv_init(&P, &A, &err) == 0 && P.nd == 3);
        CHECK(lcp_pinv_apply(&P, r, y) == 0 && y[0] == 0 && y[1] == 0 && y[2] == 0);
        lcp_pinv_free(&P);
        lcp_csr_free(&A);
    }
    /* indefinite and negative diagonal: declined (1), nothing set */
    {
        double M1[4] = {1, 2, 2, 1}, M2[4] = {-1, 0, 0, 1};
        const double *Ms[2] = {M1, M2};
        for (int k = 0; k < 2; k++) {
            lcp_csr A = {0};
            to_csr(Ms[k], 2, &A);
            lcp_pinv P;
            lcp_err err = {{0}};
            CHECK(lcp_pinv_init(&P, &A, &err) == 1);
            lcp_pinv_free(&P);
            lcp_csr_free(&A);
        }
    }
    CHECK_DONE();
}
