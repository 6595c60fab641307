/* tests/unit/test_spectral.c: the Lanczos estimates of src/la/spectral.c.  The
 * symmetric variant (row-wise product, Ritz values by Sturm bisection, used
 * by --solver auto) against the general one (scattered product, LAPACK
 * dstev) and against closed forms: the path Laplacian plus 2 I, whose
 * scaled spectrum is 1 + cos(k pi / (n + 1)) / 2 ... (exact once the Krylov
 * space is the whole space), a singular one, and a nearly singular one.
 * The symmetric variant finds its Ritz values to a relative 1e-6 (what a
 * log-condition feature needs, src/la/spectral.c RITZ_RTOL): the checks
 * against LAPACK allow that much.  The same for the symmetric part of a
 * non-symmetric A (lcp_spectrum_part), with dense rows and with gaps.
 * lcp_sym3_lmax against LAPACK dsyev on random symmetric 3 x 3 matrices
 * (definite, indefinite, scaled over 8 orders), diagonal ones, repeated
 * and triple eigenvalues, rank one. */
#include "check.h"
#include "la/spectral.h"

#include <math.h>
#include <stdlib.h>

void dsyev_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w, double *work,
            const int *lwork, int *info);

/* the largest eigenvalue of the symmetric 3 x 3 B by LAPACK */
static double lapack_lmax(const double *B)
{
    double a[9], w[3], work[64];
    int n = 3, lwork = 64, info;
    for (int k = 0; k < 9; k++) a[k] = B[k];
    dsyev_("N", "U", &n, a, &n, w, work, &lwork, &info);
    return info ? NAN : w[2];
}

static void sym3(void)
{
    unsigned s = 12345;
    for (int t = 0; t < 2000; t++) { /* random entries in [-1, 1], scaled by 10^(-4..4) */
        double B[9], sc = pow(10.0, (t % 9) - 4.0);
        for (int i = 0; i < 3; i++)
            for (int j = i; j < 3; j++) {
                s = s * 1103515245u + 12345u;
                B[3 * i + j] = B[3 * j + i] = sc * (2.0 * ((s >> 8) & 0xffff) / 65535.0 - 1.0);
            }
        if (t % 2) /* definite: + 3 sc I */
            for (int i = 0; i < 3; i++) B[4 * i] += 3 * sc;
        double ref = lapack_lmax(B);
        CHECK_NEAR(lcp_sym3_lmax(B), ref, 1e-12 * 3 * sc);
    }
    const double diag[9] = {2, 0, 0, 0, -1, 0, 0, 0, 5}, triple[9] = {4, 0, 0, 0, 4, 0, 0, 0, 4};
    CHECK(lcp_sym3_lmax(diag) == 5.0 && lcp_sym3_lmax(triple) == 4.0);
    /* repeated: Q diag(1, 3, 3) Q' and Q diag(3, 1, 1) Q' (r at -1 and +1: the clamp) */
    double v[3] = {1 / sqrt(3.0), 1 / sqrt(3.0), 1 / sqrt(3.0)}, R1[9], R2[9], one[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double vv = v[i] * v[j], id = i == j;
            R1[3 * i + j] = 3 * id - 2 * vv; /* eigenvalue 1 along v, 3 across */
            R2[3 * i + j] = id + 2 * vv;     /* 3 along v, 1 across */
            one[3 * i + j] = 7 * vv;         /* rank one: 7, 0, 0 */
        }
    CHECK_NEAR(lcp_sym3_lmax(R1), 3.0, 1e-14 * 3);
    CHECK_NEAR(lcp_sym3_lmax(R2), 3.0, 1e-14 * 3);
    CHECK_NEAR(lcp_sym3_lmax(one), 7.0, 1e-14 * 7);
}

/* tridiagonal: d on the diagonal, e off it (both triangles) */
static void tridiag(lcp_csr *A, int n, double d, double e)
{
    int nz = 3 * n, *ti = malloc(nz * sizeof(int)), *tj = malloc(nz * sizeof(int)), k = 0;
    double *tx = malloc(nz * sizeof(double));
    for (int i = 0; i < n; i++) {
        ti[k] = tj[k] = i, tx[k++] = d;
        if (i + 1 < n) {
            ti[k] = i, tj[k] = i + 1, tx[k++] = e;
            ti[k] = i + 1, tj[k] = i, tx[k++] = e;
        }
    }
    lcp_csr_from_triplets(A, n, n, k, ti, tj, tx);
    free(ti), free(tj), free(tx);
}

int main(void)
{
    /* 4 on the diagonal, -1 beside: D^-1/2 A D^-1/2 = I - T/4, eigenvalues 1 - cos(k pi/(n+1))/2 */
    int n = 40;
    lcp_csr A;
    tridiag(&A, n, 4.0, -1.0);
    double lo, hi, lo2, hi2;
    int steps = 0, steps2 = 0;
    CHECK(lcp_spectrum_symmetric(&A, n, &lo, &hi, &steps) == 0);
    CHECK(lcp_spectrum(&A, NULL, n, &lo2, &hi2, &steps2) == 0);
    double emin = 1 - cos(M_PI / (n + 1)) / 2, emax = 1 + cos(M_PI / (n + 1)) / 2;
    CHECK_NEAR(lo, emin, 1e-6);
    CHECK_NEAR(hi, emax, 1e-6);
    CHECK_NEAR(lo, lo2, 1e-6 * lo2); /* the same estimate as LAPACK's, to the relative 1e-6 */
    CHECK_NEAR(hi, hi2, 1e-6 * hi2);
    CHECK_NEAR(log10(hi / lo), log10(emax / emin), 1e-6); /* the log-condition feature */
    CHECK(steps == steps2 && steps >= 1 && steps <= n);
    /* 30 steps: Ritz values inside the spectrum (a lower bound on the condition), to the relative 1e-6,
     * and LAPACK's Ritz values of the same 30 steps to it */
    CHECK(lcp_spectrum_symmetric(&A, 30, &lo, &hi, &steps) == 0);
    CHECK(lo >= emin * (1 - 1e-6) && hi <= emax * (1 + 1e-6) && steps <= 30);
    CHECK(lcp_spectrum(&A, NULL, 30, &lo2, &hi2, &steps2) == 0);
    CHECK(steps == steps2);
    CHECK_NEAR(lo, lo2, 1e-6 * lo2);
    CHECK_NEAR(hi, hi2, 1e-6 * hi2);
    /* deterministic: the same bits again */
    CHECK(lcp_spectrum_symmetric(&A, 30, &lo2, &hi2, &steps2) == 0);
    CHECK(lo == lo2 && hi == hi2);
    lcp_csr_free(&A);

    /* a singular one: the path Laplacian (2 inside, 1 at the ends, -1 beside) has lmin = 0 */
    tridiag(&A, n, 2.0, -1.0);
    A.x[0] = 1.0;                     /* row 0: its diagonal comes first */
    A.x[lcp_csr_nnz(&A) - 1] = 1.0;   /* row n-1: its diagonal comes last */
    CHECK(lcp_csr_diag(&A, 0) == 1.0 && lcp_csr_diag(&A, n - 1) == 1.0);
    CHECK(lcp_spectrum_symmetric(&A, n, &lo, &hi, &steps) == 0);
    CHECK(lo == 0 && hi > 1.9 && hi <= 2.0 * (1 + 1e-6));
    lcp_csr_free(&A);

    /* nearly singular: the path Laplacian shifted by 1e-8 on the diagonal: the
     * smallest scaled eigenvalue a few 1e-9, found to the relative 1e-6 as LAPACK finds it (above
     * the floor, 1e-14 of the largest, under which it reads 0) */
    tridiag(&A, 10, 2.0 + 1e-8, -1.0);
    A.x[0] = 1.0 + 1e-8;
    A.x[lcp_csr_nnz(&A) - 1] = 1.0 + 1e-8;
    CHECK(lcp_spectrum_symmetric(&A, 10, &lo, &hi, &steps) == 0);
    CHECK(lcp_spectrum(&A, NULL, 10, &lo2, &hi2, &steps2) == 0);
    CHECK(lo > 0 && lo2 > 1e-9 && lo2 < 1e-7);
    CHECK_NEAR(lo, lo2, 1e-6 * lo2);
    CHECK_NEAR(hi, hi2, 1e-6 * hi2);
    lcp_csr_free(&A);

    /* a zero diagonal entry is refused */
    tridiag(&A, 3, 0.0, 1.0);
    CHECK(lcp_spectrum_symmetric(&A, 3, &lo, &hi, &steps) != 0);
    CHECK(lcp_spectrum_part(&A, 3, &lo, &hi, &steps) != 0);
    lcp_csr_free(&A);

    /* a non-symmetric A: lcp_spectrum_part (auto's feature) is lcp_spectrum's estimate of the symmetric
     * part to the relative 1e-6, in as many steps; and both that of the symmetric part given as such.
     * Dense rows (the scatter of A' by runs) and rows with gaps (by entries). */
    for (int gaps = 0; gaps < 2; gaps++) {
        int m = 60, nz = 0, *ti = malloc(m * m * sizeof(int)), *tj = malloc(m * m * sizeof(int));
        double *tx = malloc(m * m * sizeof(double));
        unsigned r = 7;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++) {
                r = r * 1103515245u + 12345u;
                double v = ((r >> 8) & 0xffff) / 65536.0 - 0.5;
                if (gaps && i != j && (i + 2 * j) % 3 == 0) continue; /* an unsymmetric pattern */
                ti[nz] = i, tj[nz] = j, tx[nz++] = i == j ? m : v;
            }
        lcp_csr N, S;
        CHECK(lcp_csr_from_triplets(&N, m, m, nz, ti, tj, tx) == 0);
        /* S = (N + N')/2 as triplets: each entry halved, twice (i, j) and (j, i) */
        int *si = malloc(2 * nz * sizeof(int)), *sj = malloc(2 * nz * sizeof(int));
        double *sv = malloc(2 * nz * sizeof(double));
        for (int k = 0; k < nz; k++) {
            si[2 * k] = ti[k], sj[2 * k] = tj[k], sv[2 * k] = tx[k] / 2;
            si[2 * k + 1] = tj[k], sj[2 * k + 1] = ti[k], sv[2 * k + 1] = tx[k] / 2;
        }
        CHECK(lcp_csr_from_triplets(&S, m, m, 2 * nz, si, sj, sv) == 0);
        CHECK(!lcp_csr_is_symmetric(&N, 1e-12) && lcp_csr_is_symmetric(&S, 1e-12));
        CHECK(lcp_spectrum_part(&N, 10, &lo, &hi, &steps) == 0);
        CHECK(lcp_spectrum(&N, NULL, 10, &lo2, &hi2, &steps2) == 0);
        CHECK(steps == steps2 && steps == 10);
        CHECK(lo > 0 && hi > lo);
        CHECK_NEAR(lo, lo2, 1e-6 * lo2);
        CHECK_NEAR(hi, hi2, 1e-6 * hi2);
        double lo3, hi3;
        int steps3;
        CHECK(lcp_spectrum(&S, NULL, 10, &lo3, &hi3, &steps3) == 0);
        CHECK_NEAR(lo3, lo2, 1e-9 * lo2);
        CHECK_NEAR(hi3, hi2, 1e-9 * hi2);
        CHECK(lcp_spectrum_part(&N, 10, &lo3, &hi3, &steps3) == 0 && lo3 == lo && hi3 == hi); /* deterministic */
        lcp_csr_free(&N), lcp_csr_free(&S);
        free(ti), free(tj), free(tx), free(si), free(sj), free(sv);
    }
    sym3();
    CHECK_DONE();
}
