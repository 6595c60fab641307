/* src/la/csr.c: compressed sparse row kernels. */
#include "csr.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int lcp_csr_alloc(lcp_csr *A, int m, int n, long nnz)
{
    memset(A, 0, sizeof *A);
    if (m < 0 || n < 0 || nnz < 0 || nnz > INT_MAX) return LCP_INPUT_ERROR;
    A->m = m;
    A->n = n;
    A->p = lcp_calloc((size_t)m + 1, sizeof(int));
    A->j = lcp_alloc((size_t)nnz, sizeof(int));
    A->x = lcp_alloc((size_t)nnz, sizeof(double));
    if (!A->p || !A->j || !A->x) {
        lcp_csr_free(A);
        return LCP_ERROR;
    }
    return 0;
}

void lcp_csr_free(lcp_csr *A)
{
    if (!A) return;
    free(A->p);
    free(A->j);
    free(A->x);
    memset(A, 0, sizeof *A);
}

int lcp_csr_copy(lcp_csr *dst, const lcp_csr *src)
{
    long nnz = lcp_csr_nnz(src);
    int rc = lcp_csr_alloc(dst, src->m, src->n, nnz);
    if (rc) return rc;
    memcpy(dst->p, src->p, ((size_t)src->m + 1) * sizeof(int));
    if (nnz) {
        memcpy(dst->j, src->j, (size_t)nnz * sizeof(int));
        memcpy(dst->x, src->x, (size_t)nnz * sizeof(double));
    }
    return 0;
}

int lcp_csr_from_triplets(lcp_csr *A, int m, int n, long nz, const int *ti, const int *tj,
                          const double *tx)
{
    memset(A, 0, sizeof *A);
    for (long k = 0; k < nz; k++)
        if (ti[k] < 0 || ti[k] >= m || tj[k] < 0 || tj[k] >= n) return LCP_INPUT_ERROR;
    /* counting sort by row, then by column within each row (via a transpose
     * pass: sort by column first, then stable by row) */
    int *cnt = lcp_calloc((size_t)(m > n ? m : n) + 1, sizeof(int));
    int *ord = lcp_alloc((size_t)nz, sizeof(int));
    int *ord2 = lcp_alloc((size_t)nz, sizeof(int));
    int rc = LCP_ERROR;
    if (!cnt || !ord || !ord2) goto done;
    for (long k = 0; k < nz; k++) cnt[tj[k] + 1]++;
    for (int c = 0; c < n; c++) cnt[c + 1] += cnt[c];
    for (long k = 0; k < nz; k++) ord[cnt[tj[k]]++] = (int)k;
    memset(cnt, 0, ((size_t)(m > n ? m : n) + 1) * sizeof(int));
    for (long k = 0; k < nz; k++) cnt[ti[k] + 1]++;
    for (int r = 0; r < m; r++) cnt[r + 1] += cnt[r];
    for (long k = 0; k < nz; k++) {
        int t = ord[k];
        ord2[cnt[ti[t]]++] = t;
    }
    /* ord2 is sorted by (row, column); merge duplicates */
    long unique = 0;
    for (long k = 0; k < nz; k++)
        if (k == 0 || ti[ord2[k]] != ti[ord2[k - 1]] || tj[ord2[k]] != tj[ord2[k - 1]]) unique++;
    if ((rc = lcp_csr_alloc(A, m, n, unique))) goto done;
    long q = -1;
    for (long k = 0; k < nz; k++) {
        int t = ord2[k];
        if (k == 0 || ti[t] != ti[ord2[k - 1]] || tj[t] != tj[ord2[k - 1]]) {
            q++;
            A->j[q] = tj[t];
            A->x[q] = tx[t];
            A->p[ti[t] + 1]++;
        } else {
            A->x[q] += tx[t];
        }
    }
    for (int r = 0; r < m; r++) A->p[r + 1] += A->p[r];
    rc = 0;
done:
    free(cnt);
    free(ord);
    free(ord2);
    return rc;
}

int lcp_csr_from_dense_colmajor(lcp_csr *A, int m, int n, const double *a)
{
    long nnz = 0;
    for (long k = 0; k < (long)m * n; k++) nnz += a[k] != 0.0;
    int rc = lcp_csr_alloc(A, m, n, nnz);
    if (rc) return rc;
    long q = 0;
    for (int i = 0; i < m; i++) {
        for (int c = 0; c < n; c++) {
            double v = a[i + (long)c * m];
            if (v != 0.0) {
                A->j[q] = c;
                A->x[q++] = v;
            }
        }
        A->p[i + 1] = (int)q;
    }
    return 0;
}

void lcp_csr_matvec(const lcp_csr *A, const double *x, double *y)
{
    const int *p = A->p, *j = A->j;
    const double *ax = A->x;
    for (int i = 0; i < A->m; i++) {
        double s = 0.0;
        for (int k = p[i]; k < p[i + 1]; k++) s += ax[k] * x[j[k]];
        y[i] = s;
    }
}

int lcp_csr_transpose(const lcp_csr *A, lcp_csr *B)
{
    long nnz = lcp_csr_nnz(A);
    int rc = lcp_csr_alloc(B, A->n, A->m, nnz);
    if (rc) return rc;
    for (long k = 0; k < nnz; k++) B->p[A->j[k] + 1]++;
    for (int c = 0; c < A->n; c++) B->p[c + 1] += B->p[c];
    int *next = lcp_alloc((size_t)A->n + 1, sizeof(int));
    if (!next) {
        lcp_csr_free(B);
        return LCP_ERROR;
    }
    memcpy(next, B->p, ((size_t)A->n + 1) * sizeof(int));
    for (int i = 0; i < A->m; i++)
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            int q = next[A->j[k]]++;
            B->j[q] = i;
            B->x[q] = A->x[k];
        }
    free(next);
    return 0;
}

double lcp_csr_diag(const lcp_csr *A, int i)
{
    if (A->m == A->n && A->p[A->n] == (long)A->n * A->n) return A->x[(size_t)i * (size_t)A->n + (size_t)i]; /* rows full */
    int lo = A->p[i], hi = A->p[i + 1] - 1;
    while (lo <= hi) { /* columns are sorted */
        int mid = lo + (hi - lo) / 2;
        if (A->j[mid] == i) return A->x[mid];
        if (A->j[mid] < i) lo = mid + 1;
        else hi = mid - 1;
    }
    return 0.0;
}

void lcp_csr_block3(const lcp_csr *A, int c, double *B)
{
    for (int a = 0; a < 3; a++) {
        int row = 3 * c + a, k = A->p[row];
        B[3 * a] = B[3 * a + 1] = B[3 * a + 2] = 0.0;
        while (k < A->p[row + 1] && A->j[k] < 3 * c) k++; /* (columns sorted) */
        for (; k < A->p[row + 1] && A->j[k] < 3 * c + 3; k++) B[3 * a + A->j[k] - 3 * c] = A->x[k];
    }
}

/* max |x_k| over nnz entries (a NaN passed over): four lanes, each a
 * dependent chain of a quarter of the entries, so that the compares of one
 * lane need not wait for the others' (a single chain takes about three
 * times as long on a dense A of n = 100). */
static double max_abs(const double *x, long nnz)
{
    double m0 = 0.0, m1 = 0.0, m2 = 0.0, m3 = 0.0;
    long k = 0;
    for (; k + 4 <= nnz; k += 4) {
        double a0 = fabs(x[k]), a1 = fabs(x[k + 1]), a2 = fabs(x[k + 2]), a3 = fabs(x[k + 3]);
        m0 = a0 > m0 ? a0 : m0;
        m1 = a1 > m1 ? a1 : m1;
        m2 = a2 > m2 ? a2 : m2;
        m3 = a3 > m3 ? a3 : m3;
    }
    for (; k < nnz; k++) {
        double a = fabs(x[k]);
        m0 = a > m0 ? a : m0;
    }
    m0 = m1 > m0 ? m1 : m0;
    m2 = m3 > m2 ? m3 : m2;
    return m2 > m0 ? m2 : m0;
}

/* a dense A's (i, j) and (j, i): the larger of their magnitudes into *a, their difference's into *d, each
 * passing a NaN over */
static inline void mirror_pair(const double *x, size_t nn, int i, int j, double *a, double *d)
{
    double u = fabs(x[i * nn + j]), l = fabs(x[j * nn + i]), e = fabs(x[i * nn + j] - x[j * nn + i]);
    *a = u > *a ? u : *a;
    *a = l > *a ? l : *a;
    *d = e > *d ? e : *d;
}

/* tolerance 0: A(i, j) == A(j, i) for every pair (an absent entry a 0; a
 * NaN passed over, as at any tolerance), the first difference ends it; no
 * magnitudes (0 x max|A| is no bound where an entry is infinite), and
 * no allocation up to 256 rows (pivot's small path asks at every solve).
 * The same walk as below: cur[j] follows the lower part of row j in step
 * with the upper entries (i, j) of the rows before it. */
static int symmetric_exact(const lcp_csr *A)
{
    const int n = A->n, *ap = A->p, *aj = A->j;
    const double *ax = A->x;
    if (ap[n] == (long)n * n) { /* every row full (sorted, no duplicates): A(i, j) = ax[i n + j] */
        size_t nn = (size_t)n;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (fabs(ax[i * nn + j] - ax[j * nn + i]) > 0.0) return 0;
        return 1;
    }
    int own[256], *cur = n <= 256 ? own : malloc((size_t)n * sizeof *cur), sym = 0;
    if (!cur) return 0;
    memcpy(cur, ap, (size_t)n * sizeof *cur);
    for (int i = 0; i < n; i++)
        for (int e = ap[i]; e < ap[i + 1]; e++) {
            int j = aj[e];
            if (j <= i) continue;
            int c = cur[j], ce = ap[j + 1];
            if (c < ce && aj[c] == i && ax[c] == ax[e]) { /* the common case: the mirror next, equal */
                cur[j] = c + 1;
                continue;
            }
            for (; c < ce && aj[c] < i; c++)
                if (fabs(ax[c]) > 0.0) goto out;
            double t = c < ce && aj[c] == i ? ax[c++] : 0.0;
            cur[j] = c;
            if (fabs(ax[e] - t) > 0.0) goto out;
        }
    for (int j = 0; j < n; j++)
        for (int c = cur[j]; c < ap[j + 1] && aj[c] < j; c++)
            if (fabs(ax[c]) > 0.0) goto out;
    sym = 1;
out:
    if (cur != own) free(cur);
    return sym;
}

int lcp_csr_is_symmetric(const lcp_csr *A, double tol)
{
    if (A->m != A->n) return 0;
    int n = A->n;
    if (n == 0 || !A->p) return 1;
    /* exactly symmetric (every |A(i, j) - A(j, i)| > 0 false) is symmetric within any tol: the exact test
     * first, one compare an upper entry where the mirrors are equal (the common case: auto's features of a
     * symmetric A, 2.5x fewer instructions than the tolerance's pass, which needs max |A| first) */
    if (symmetric_exact(A)) return 1;
    if (tol == 0.0) return 0;
    long nnz = lcp_csr_nnz(A);
    if (nnz == (long)n * n) { /* every row full (sorted, no duplicates): A(i, j) = x[i n + j]; in one pass the
                               * largest |A(i, j) - A(j, i)| and the largest |A(i, j)| (the diagonal and
                               * both triangles; a NaN passed over, as in max_abs), in 8 x 8 tiles of the
                               * upper part against their mirror (a cache line a row of each), a full tile
                               * in eight lanes, without a branch an entry */
        const double *x = A->x;
        size_t nn = (size_t)n;
        double d = 0.0, a = 0.0;
        for (int ib = 0; ib < n; ib += 8) {
            int ie = ib + 8 < n ? ib + 8 : n;
            for (int i = ib; i < ie; i++) /* the diagonal tile: its upper part, and the diagonal */
                for (int j = i; j < ie; j++) mirror_pair(x, nn, i, j, &a, &d);
            int jb = ie;
            for (; jb + 8 <= n; jb += 8) { /* full tiles: eight lanes (a column of the tile each) */
                double dl[8] = {0}, al[8] = {0};
                for (int i = ib; i < ie; i++) {
                    const double *r = x + i * nn + jb, *c = x + (size_t)jb * nn + i;
                    for (int q = 0; q < 8; q++) {
                        double u = fabs(r[q]), l = fabs(c[q * nn]), e = fabs(r[q] - c[q * nn]);
                        dl[q] = e > dl[q] ? e : dl[q];
                        al[q] = u > al[q] ? u : al[q];
                        al[q] = l > al[q] ? l : al[q];
                    }
                }
                for (int q = 0; q < 8; q++) {
                    d = dl[q] > d ? dl[q] : d;
                    a = al[q] > a ? al[q] : a;
                }
            }
            for (int i = ib; i < ie; i++) /* the columns past the last full tile */
                for (int j = jb; j < n; j++) mirror_pair(x, nn, i, j, &a, &d);
        }
        return !(d > tol * a);
    }
    double lim = tol * max_abs(A->x, nnz);
    /* No transpose: the rows are visited in order and cur[j] walks the lower
     * part of row j, (j, i) for i < j in increasing i, in step with the
     * upper entries (i, j) of the rows i visited; an entry without a
     * partner is compared with 0 (absent). */
    int *cur = malloc((size_t)n * sizeof(int));
    if (!cur) return 0;
    memcpy(cur, A->p, (size_t)n * sizeof(int));
    int sym = 1;
    for (int i = 0; i < n && sym; i++)
        for (int k = A->p[i]; k < A->p[i + 1] && sym; k++) {
            int j = A->j[k];
            if (j <= i) continue;                               /* upper entries (i, j) only */
            int c = cur[j], ce = A->p[j + 1];
            for (; c < ce && A->j[c] < i; c++)                  /* (j, l), l < i: no partner (l, j) */
                if (fabs(A->x[c]) > lim) sym = 0;
            double t = 0.0;
            if (c < ce && A->j[c] == i) t = A->x[c++];          /* (j, i) */
            cur[j] = c;
            if (fabs(A->x[k] - t) > lim) sym = 0;
        }
    for (int j = 0; j < n && sym; j++)                          /* lower entries left without a partner */
        for (int c = cur[j]; c < A->p[j + 1] && A->j[c] < j; c++)
            if (fabs(A->x[c]) > lim) sym = 0;
    free(cur);
    return sym;
}

double *lcp_csr_to_dense_colmajor(const lcp_csr *A)
{
    double *d = lcp_calloc((size_t)A->m * (size_t)A->n, sizeof(double));
    if (!d) return NULL;
    for (int i = 0; i < A->m; i++)
        for (int k = A->p[i]; k < A->p[i + 1]; k++) d[i + (size_t)A->j[k] * A->m] += A->x[k];
    return d;
}

int lcp_csr_to_dense_rows(const lcp_csr *A, double *out, double *rowmax)
{
    const int m = A->m, n = A->n, *ap = A->p, *aj = A->j;
    const double *ax = A->x;
    memset(out, 0, (size_t)m * (size_t)n * sizeof *out);
    double fin = 0.0; /* the sum of v - v: NaN where an entry is not finite (one test, not one an entry) */
    for (int i = 0; i < m; i++) {
        double most = 0.0, *oi = out + (size_t)i * n;
        for (int e = ap[i]; e < ap[i + 1]; e++) {
            double v = ax[e], a = fabs(v);
            fin += v - v;
            oi[aj[e]] += v;
            most = a > most ? a : most;
        }
        if (rowmax) rowmax[i] = most;
    }
    return fin == fin;
}

int lcp_csr_all_finite(const lcp_csr *A, int *bad_row, int *bad_col)
{
    for (int i = 0; i < A->m; i++)
        for (int k = A->p[i]; k < A->p[i + 1]; k++)
            if (!isfinite(A->x[k])) {
                if (bad_row) *bad_row = i;
                if (bad_col) *bad_col = A->j[k];
                return 0;
            }
    return 1;
}
