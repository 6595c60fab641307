/* src/solvers/lemke_internal.h: what lemke's two files share: the
 * workspace of a solve (the basis, its inverse or LU and eta file, the
 * scaled data) and the basis operations of src/solvers/lemke_basis.c,
 * which src/solvers/lemke.c (the pivoting method) calls.  Not part of the
 * library's interface.
 */
#ifndef LCPSOLVE_LEMKE_INTERNAL_H
#define LCPSOLVE_LEMKE_INTERNAL_H

#include "solver.h"
#include "../la/sparse_factor.h"

#define LEX_ROWS 16       /* sparse: ties among this many rows are decided on their rows of B^-1 */

typedef struct {
    int n;
    lcp_csr At;      /* (S A)': row j holds column j of the scaled A */
    double *bs, *ds; /* S b and S d (n each) */
    double *Binv;    /* n x n, column-major: the basis inverse */
    double *beta;    /* n: the basic values B^-1 S b */
    double *col;     /* n: the entering column B^-1 a_e */
    double *rowr;    /* n: row r of B^-1 before an update */
    double *tmp;     /* n: scattered columns, residuals */
    double *wv;      /* n: A z + b for lcp_verify */
    int *basis;      /* n: the variable basic at each row */
    int *row_of;     /* 2n + 1: the row of each variable, -1 when nonbasic */
    int *cand;       /* n: rows tied in the ratio test */
    int *ipiv;       /* n: LU row interchanges */
    double *lwork;   /* dgetri workspace */
    int nlwork;
    /* the sparse path: B = B0 E_1 ... E_k, B0 = L U (UMFPACK), E_t eta matrices */
    int sparse;
    lcp_sparse_factor F;
    int *Bp, *Bi;    /* B0 in compressed columns (n + 1; nnz(A) + 2n) */
    double *Bx;
    int neta;        /* eta vectors since the last factorisation */
    int *eta_r;      /* ETA_MAX: the row (slot) of each */
    long *eta_p;     /* ETA_MAX + 1: their entries in eta_i / eta_x */
    double *eta_piv; /* ETA_MAX: the pivot abar_r */
    int *eta_i;      /* eta_cap: row indices, r excluded */
    double *eta_x;
    long eta_cap;
    double lu_nnz;   /* nnz(L) + nnz(U) of the last factorisation */
    double eta_work; /* eta entries applied by ftran since then */
    double *rowb;    /* n: a column of B^-1 (lexicographic tie-break) */
    double *lexrow;  /* LEX_ROWS x n: rows of B^-1 (lexicographic tie-break) */
    int *mark;       /* n: the rows still tied (lexicographic tie-break), 0 between */
} lemke_work;

/* Workspace: all of it, the scaled data S A (as columns), S b, S d, and B = I
 * (sparse: B0 = I factored, an empty eta file); 0, or LCP_ERROR (out of
 * memory; lemke_work_free cleans up either way). */
int lemke_work_init(lemke_work *W, const lcp_problem *p, const double *cover, int sparse);
void lemke_work_free(lemke_work *W);

/* Sparse path: x = B^-1 a (ftran; a == x allowed) and x = B^-T x (btran);
 * the solve's status (LCP_SF_OK or its failure). */
int lemke_ftran(lemke_work *W, const double *a, double *x);
int lemke_btran(lemke_work *W, double *x);

/* Sparse path: B0 = the current basis and its LU (column order qinit, or
 * UMFPACK's own when NULL), an empty eta file; the factorisation's status. */
int lemke_sparse_factor_basis(lemke_work *W, const int *qinit);

/* Sparse path: lemke_sparse_factor_basis, then beta = B^-1 S b; 0, or -1. */
int lemke_sparse_refactor(lemke_work *W);

/* W->col = B^-1 a_v, the column of entering variable v. */
void lemke_entering_column(lemke_work *W, int v);

/* Variable e enters at row r (its column in W->col): beta, B^-1 (or the
 * eta file), basis and row_of updated; 1 when the eta file is full. */
int lemke_do_pivot(lemke_work *W, int r, int e);

/* W->tmp = S b - B beta; returns its max norm. */
double lemke_basis_residual(lemke_work *W);

/* beta += B^-1 (S b - B beta): one step of iterative refinement. */
void lemke_refine(lemke_work *W);

/* B^-1 (sparse: B0's LU) rebuilt from the basis columns, beta = B^-1 S b;
 * 0, or -1 when B is singular. */
int lemke_refactor(lemke_work *W);

/* x = the basic z values (z0 excluded), 0 elsewhere; returns z0. */
double lemke_current_z(const lemke_work *W, double *x);

#endif
