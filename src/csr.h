/* src/csr.h: compressed sparse row matrices, 0-based, columns sorted within
 * each row, no duplicates.  nnz = p[m]. */
#ifndef LCPSOLVE_CSR_H
#define LCPSOLVE_CSR_H

#include "common.h"

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

/* y = A x */
void lcp_csr_matvec(const lcp_csr *A, const double *x, double *y);
/* B = A' */
int lcp_csr_transpose(const lcp_csr *A, lcp_csr *B);
/* A(i,i), or 0 where absent. */
double lcp_csr_diag(const lcp_csr *A, int i);
/* 1 if |A - A'| <= tol * max|A| entrywise, 0 otherwise. */
int lcp_csr_is_symmetric(const lcp_csr *A, double tol);
/* Dense column-major copy (m*n doubles, caller frees); NULL if too large. */
double *lcp_csr_to_dense_colmajor(const lcp_csr *A);
/* 1 if every value is finite. */
int lcp_csr_all_finite(const lcp_csr *A, int *bad_row, int *bad_col);

#endif
