/* src/solvers/lemke_internal.h: what lemke's files share: the
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
#define PIVOT_TOL 1e-9    /* abar_i <= PIVOT_TOL * max(1, |abar|_inf) does not block */
#define SMALL_PIVOT 1e-6  /* a pivot below SMALL_PIVOT * |abar|_inf is checked with a fresh B^-1 */
#define TIE_TOL 1e-12     /* ratio tie: row within TIE_TOL * max(1, |beta|_inf) of 0 after the step */
#define LEX_TOL 1e-11     /* lexicographic tie: within LEX_TOL * the column's largest |entry| */

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

/* The ratio test of the column a (n entries) against the basic values
 * beta: the rows whose value the step takes to 0 first (a_i above
 * PIVOT_TOL of |a|, within TIE_TOL of the minimum ratio).  Returns the row
 * of z0 (basis[row] = 2 n) where it is among them, -1 where no entry
 * blocks (a ray), else -2 with the rows in cand[0 .. *nc). */
int lemke_ratio_ties(int n, const double *a, const double *beta, const int *basis, int *cand, int *nc);
/* Of the tied rows cand[0 .. nc) the lexico-minimum of (B^-1)_i. / a_i over
 * the columns of the dense B^-1 (n x n, column-major), and among rows
 * round-off leaves tied the largest pivot a_i; cand is reordered. */
int lemke_lexico_dense(int n, const double *a, const double *Binv, int *cand, int nc);

#endif
