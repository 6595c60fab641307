/* src/la/csr.h: compressed sparse row matrices, 0-based, columns sorted within
 * each row, no duplicates.  nnz = p[m]. */
#ifndef LCPSOLVE_CSR_H
#define LCPSOLVE_CSR_H

#include "../core/common.h"

typedef struct {
    int m, n;   /* rows, columns */
    int *p;     /* row pointers, m+1 (NULL for an empty/absent matrix) */
    int *j;     /* column indices, nnz */
    double *x;  /* values, nnz */
} lcp_csr;

static inline long lcp_csr_nnz(const lcp_csr *A) { return A->p ? (long)A->p[A->m] : 0; }

/* Allocates an m x n matrix with room for nnz entries (p zeroed). */
int lcp_csr_alloc(lcp_csr *A, int m, int n, long nnz);
void lcp_csr_free(lcp_csr *A);
int lcp_csr_copy(lcp_csr *dst, const lcp_csr *src);

/* Builds A from triplets (0-based), summing duplicates and sorting columns.
 * Entries outside m x n are an error (returns LCP_INPUT_ERROR). */
int lcp_csr_from_triplets(lcp_csr *A, int m, int n, long nz, const int *ti, const int *tj,
                          const double *tx);

/* Builds A from a dense column-major m x n array, dropping exact zeros. */
int lcp_csr_from_dense_colmajor(lcp_csr *A, int m, int n, const double *a);

/* sum_k ax[k] x[aj[k]] over the entries lo..hi-1 of a row: entry lo + e
 * is added to running sum e mod 4, and the four are added as
 * (s0 + s1) + (s2 + s3).  Four independent chains of adds instead of one as
 * long as the row, which bounded the residual's pass over A on long rows
 * (friction rows of 60 entries and more).  The one order of w = A x + b in
 * every residual (src/core/verify.c, src/mpi/dist.c, the fused sweep of
 * src/solvers/pgs.c): the same bits wherever it is computed. */
static inline double lcp_csr_row_dot(const int *restrict aj, const double *restrict ax, const double *restrict x,
                                     int lo, int hi)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int e = lo;
    if (hi - lo >= 16 && aj[hi - 1] - aj[lo] == hi - lo - 1) { /* columns in one run (a dense row): no gather */
        const double *restrict xs = x + (aj[lo] - lo);           /* (sorted, no duplicates: x[aj[e]] = xs[e]) */
        for (; e + 4 <= hi; e += 4) {
            s0 += ax[e] * xs[e];
            s1 += ax[e + 1] * xs[e + 1];
            s2 += ax[e + 2] * xs[e + 2];
            s3 += ax[e + 3] * xs[e + 3];
        }
    }
    for (; e + 4 <= hi; e += 4) {
        s0 += ax[e] * x[aj[e]];
        s1 += ax[e + 1] * x[aj[e + 1]];
        s2 += ax[e + 2] * x[aj[e + 2]];
        s3 += ax[e + 3] * x[aj[e + 3]];
    }
    if (e < hi) { /* 1 to 3 entries left: products of the last entry in place of the missing ones, added as +0 */
        int l = hi - 1, e1 = e + 1 < hi ? e + 1 : l, e2 = e + 2 < hi ? e + 2 : l;
        double t1 = ax[e1] * x[aj[e1]], t2 = ax[e2] * x[aj[e2]];
        s0 += ax[e] * x[aj[e]];
        s1 += e + 1 < hi ? t1 : 0.0;
        s2 += e + 2 < hi ? t2 : 0.0;
    }
    return (s0 + s1) + (s2 + s3);
}

/* lcp_csr_row_dot's value, to the bit, of a row of at most 3 entries
 * (hi - lo <= 3), by the sums that remain: s_e = +0 + a_e x_e never -0,
 * so adding the empty sums' +0 changes nothing -- s0, s0 + s1, (s0 + s1) +
 * s2.  No clamped second and third product, no branch on the tail: the
 * residual's rows of a diagonal or banded A (its pass over a problem of a
 * few unknowns, where a call of the general one a row cost more than the
 * solve). */
static inline double lcp_csr_row_dot3(const int *restrict aj, const double *restrict ax, const double *restrict x,
                                      int lo, int hi)
{
    int m = hi - lo;
    if (m <= 0) return 0.0;
    double s0 = 0.0 + ax[lo] * x[aj[lo]];
    if (m == 1) return s0;
    double s1 = 0.0 + ax[lo + 1] * x[aj[lo + 1]];
    if (m == 2) return s0 + s1;
    return (s0 + s1) + (0.0 + ax[lo + 2] * x[aj[lo + 2]]);
}

/* lcp_csr_row_dot with the entry of column skip (if the row has one) read
 * as a_ij * 0: its running sum gets +-0, which leaves a running sum as it
 * is (started at +0, a sum is never -0), so the other entries keep their
 * sums and their order.  x_skip itself is not read (the pgs family's
 * colour-parallel sweep: another row of the class may be writing it). */
static inline double lcp_csr_row_dot_except(const int *restrict aj, const double *restrict ax,
                                            const double *restrict x, int lo, int hi, int skip)
{
#define LCP_X_EXCEPT(e) (aj[e] == skip ? 0.0 : x[aj[e]])
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int e = lo;
    for (; e + 4 <= hi; e += 4) {
        s0 += ax[e] * LCP_X_EXCEPT(e);
        s1 += ax[e + 1] * LCP_X_EXCEPT(e + 1);
        s2 += ax[e + 2] * LCP_X_EXCEPT(e + 2);
        s3 += ax[e + 3] * LCP_X_EXCEPT(e + 3);
    }
    if (e < hi) s0 += ax[e] * LCP_X_EXCEPT(e);
    if (e + 1 < hi) s1 += ax[e + 1] * LCP_X_EXCEPT(e + 1);
    if (e + 2 < hi) s2 += ax[e + 2] * LCP_X_EXCEPT(e + 2);
#undef LCP_X_EXCEPT
    return (s0 + s1) + (s2 + s3);
}

/* y = A x */
void lcp_csr_matvec(const lcp_csr *A, const double *x, double *y);
/* B = A' */
int lcp_csr_transpose(const lcp_csr *A, lcp_csr *B);
/* A(i,i), or 0 where absent. */
double lcp_csr_diag(const lcp_csr *A, int i);
/* B (row-major 3 x 3) = the diagonal block of rows and columns 3c .. 3c + 2
 * (contact c's W_cc), 0 where absent. */
void lcp_csr_block3(const lcp_csr *A, int c, double *B);
/* 1 if |A - A'| <= tol * max|A| entrywise, 0 otherwise (a NaN passed
 * over); tol 0: the entries exactly equal. */
int lcp_csr_is_symmetric(const lcp_csr *A, double tol);
/* Dense column-major copy (m*n doubles, caller frees); NULL if too large. */
double *lcp_csr_to_dense_colmajor(const lcp_csr *A);
/* A into the caller's dense row-major array out (m n doubles, zeroed
 * here: the small paths' arrays on the stack) and each row's largest
 * |entry| into rowmax (m values; NULL: not asked).  1, or 0 where an
 * entry is not finite (out then undefined). */
int lcp_csr_to_dense_rows(const lcp_csr *A, double *out, double *rowmax);
/* 1 if every value is finite. */
int lcp_csr_all_finite(const lcp_csr *A, int *bad_row, int *bad_col);

#endif
