/* src/solvers/ipm_psd.c: ipm's tests of monotonicity (src/solvers/ipm.c,
 * whose header lists the verdicts): before the first step, a negative
 * diagonal entry or an indefinite 2x2 principal submatrix of (A + A')/2
 * (on CSR, or on the dense copy in the same pass as the symmetry test);
 * during the steps, the curvature dz'A dz of a direction against its
 * rounding scale; after a stall, the smallest eigenvalue of (A + A')/2
 * (n <= PSD_DENSE_MAX) or a Cholesky factorization of (A + A')/2 + delta I.
 */
#include "ipm_internal.h"
#include "../la/analyse.h"
#include "../la/suitesparse.h"

#include <cholmod.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MINOR_TOL 1e-12     /* 2x2 minor test: S_ii S_jj - S_ij^2 < -MINOR_TOL S_ij^2 */
#define PSD_DENSE_MAX 2000  /* definiteness by eigenvalues up to this n */

/* One pass over the pairs i < j of the dense copy (64 x 64 tiles: the
 * transposed reads stay in cache): *sym = 0 where |A_ij - A_ji| > lim
 * somewhere (lcp_csr_is_symmetric's test), and the return value 1 where a
 * 2x2 principal submatrix of (A + A')/2 is indefinite (not_psd_quick's
 * test; diag: A's diagonal). */
int ipm_dense_scan(const double *a, const double *diag, int n, double lim, int *sym)
{
    int s = 1, bad = 0;
    for (int ib = 0; ib < n; ib += 64)
        for (int jb = ib; jb < n; jb += 64)
            for (int i = ib; i < n && i < ib + 64; i++) {
                const double *ri = a + (size_t)i * n;
                for (int j = jb > i ? jb : i + 1; j < n && j < jb + 64; j++) {
                    double aij = ri[j], aji = a[(size_t)j * n + i], m = 0.5 * (aij + aji);
                    s &= fabs(aij - aji) <= lim;
                    bad |= diag[i] * diag[j] - m * m < -MINOR_TOL * m * m;
                }
            }
    *sym = s;
    return bad;
}

/* y = A x; returns x'A x, and in *absq |x|'|A||x| (the size of its
 * rounding error, up to the row length times the unit roundoff) where
 * x'A x < 0, x'A x itself where it is >= 0 (nothing to weigh: the pass
 * over |A| is saved; non-finite values stay non-finite). */
double ipm_curvature(const linsys *L, const double *x, double *y, double *absq)
{
    const lcp_csr *A = L->A;
    ipm_ls_matvec(L, x, y);
    double q = 0.0, qa = 0.0;
    for (int i = 0; i < A->m; i++) q += x[i] * y[i];
    if (q >= 0) {
        *absq = q;
        return q;
    }
    for (int i = 0; i < A->m; i++) {
        double sa = 0.0;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) sa += fabs(A->x[k] * x[A->j[k]]);
        qa += fabs(x[i]) * sa;
    }
    *absq = qa;
    return q;
}

/* Cheap certificates that A is not psd, before the first step: A_ii < 0, or
 * an indefinite 2x2 principal submatrix [S_ii S_ij; S_ij S_jj] of S = (A +
 * A')/2.  diag: A's diagonal.  Returns 1 (with the evidence in why) or 0 (no
 * conclusion). */
int ipm_not_psd_quick(const lcp_csr *A, const lcp_csr *At, const double *diag, char *why, size_t len)
{
    int n = A->m;
    for (int i = 0; i < n; i++)
        if (diag[i] < 0) {
            snprintf(why, len, "A(%d,%d) = %g < 0", i + 1, i + 1, diag[i]);
            return 1;
        }
    for (int i = 0; i < n; i++) {     /* row i of A and of A', merged by column */
        int a = A->p[i], ae = A->p[i + 1], t = At->p[i], te = At->p[i + 1];
        while (a < ae || t < te) {
            int j;
            double s = 0.0;
            if (t >= te || (a < ae && A->j[a] < At->j[t])) j = A->j[a], s = A->x[a++];
            else if (a >= ae || At->j[t] < A->j[a]) j = At->j[t], s = At->x[t++];
            else j = A->j[a], s = A->x[a++] + At->x[t++];
            if (j <= i) continue;
            s *= 0.5;                                          /* S_ij */
            if (diag[i] * diag[j] - s * s < -MINOR_TOL * s * s) { /* det of the 2x2 minor */
                snprintf(why, len,
                         "(A + A')/2 has the indefinite 2x2 principal submatrix [%g %g; %g %g] at rows %d, %d",
                         diag[i], s, s, diag[j], i + 1, j + 1);
                return 1;
            }
        }
    }
    return 0;
}

/* not_psd_quick on the dense copy (row-major), the same tests in the same
 * order (the first violation, by rows, is the one named): a negative
 * diagonal entry, an indefinite 2x2 principal submatrix of (A + A')/2. */
static int minor_bad(const double *a, int n, int i, int j)
{
    double s = 0.5 * (a[(size_t)i * n + j] + a[(size_t)j * n + i]);
    return a[(size_t)i * n + i] * a[(size_t)j * n + j] - s * s < -MINOR_TOL * s * s;
}

int ipm_not_psd_quick_dense(const double *a, int n, int bad, char *why, size_t len)
{
    for (int i = 0; i < n; i++)
        if (a[(size_t)i * n + i] < 0) {
            snprintf(why, len, "A(%d,%d) = %g < 0", i + 1, i + 1, a[(size_t)i * n + i]);
            return 1;
        }
    if (!bad) return 0; /* dense_scan found no indefinite 2x2 minor */
    for (int i = 0; i < n; i++) /* the first, by rows */
        for (int j = i + 1; j < n; j++)
            if (minor_bad(a, n, i, j)) {
                double s = 0.5 * (a[(size_t)i * n + j] + a[(size_t)j * n + i]);
                snprintf(why, len,
                         "(A + A')/2 has the indefinite 2x2 principal submatrix [%g %g; %g %g] at rows %d, %d",
                         a[(size_t)i * n + i], s, s, a[(size_t)j * n + j], i + 1, j + 1);
                return 1;
            }
    return 0;
}

/* The definitive test, after a stall: 1 when (A + A')/2 is psd (to
 * rounding), 0 when it is not (evidence in why), -1 when it could not be
 * decided (out of memory). */
int ipm_is_psd(const lcp_problem *p, char *why, size_t len)
{
    if (p->n <= PSD_DENSE_MAX) {
        lcp_matrix_facts f;
        lcp_err e;
        if (lcp_matrix_analyse(p, PSD_DENSE_MAX, &f, &e)) return -1;
        if (strcmp(f.definite, "indefinite")) return 1;
        snprintf(why, len, "the smallest eigenvalue of (A + A')/2 is %.3g", f.eig_min);
        return 0;
    }
    const lcp_csr *A = &p->A;
    lcp_csr T;
    if (lcp_csr_transpose(A, &T)) return -1;
    cholmod_common c;
    lcp_cholmod_start(&c);
    cholmod_sparse Av = lcp_csr_as_cholmod(A, 0), Tv = lcp_csr_as_cholmod(&T, 0);
    double half[2] = {0.5, 0};
    cholmod_sparse *S = cholmod_add(&Av, &Tv, half, half, 1, 1, &c); /* (A + A')/2 */
    int res = -1;
    if (S) {
        S->stype = -1;
        double smax = 0.0;
        for (int i = 0; i < p->n; i++) smax = fmax(smax, lcp_csr_diag(A, i));
        double beta[2] = {1e-10 * fmax(smax, 1e-300), 0};            /* S + beta I */
        cholmod_factor *F = cholmod_analyze(S, &c);
        if (F && lcp_cholmod_factorize(S, beta[0], F, &c)) {
            res = c.status == CHOLMOD_OK ? 1 : c.status == CHOLMOD_NOT_POSDEF ? 0 : -1;
            if (res == 0)
                snprintf(why, len, "the Cholesky factorization of (A + A')/2 + %.1e I fails at column %d",
                         beta[0], (int)F->minor + 1);
        }
        cholmod_free_factor(&F, &c);
        cholmod_free_sparse(&S, &c);
    }
    cholmod_finish(&c);
    lcp_csr_free(&T);
    return res;
}
