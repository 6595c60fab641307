/* src/solvers/ipm_internal.h: what ipm's three files share: the Newton
 * system of a step (linsys) and its calls in src/solvers/ipm_linsys.c, and
 * the tests of monotonicity in src/solvers/ipm_psd.c, both called by the
 * method, src/solvers/ipm.c.  Not part of the library's interface.
 */
#ifndef LCPSOLVE_IPM_INTERNAL_H
#define LCPSOLVE_IPM_INTERNAL_H

#include "solver.h"
#include "../la/sparse_factor.h"

enum { LS_DENSE_CHOL, LS_DENSE_LU, LS_CHOLMOD, LS_UMFPACK, LS_PCG }; /* linsys.cur */

/* M = A + diag(d) (or its polish variant), factored once a step and solved
 * twice (predictor, corrector). */
typedef struct {
    const lcp_csr *A;
    int n, sym, sparse;
    int cur;                     /* LS_*: the factorization in use this step */
    int chol_fail;               /* steps where Cholesky failed (LU instead) */
    int factored;                /* factorizations done */
    /* dense */
    double *ad;                  /* n x n copy of A, row by row (row-major: A' to LAPACK, A where symmetric) */
    double *m;                   /* n x n: M' (column-major; M where symmetric), then its factor */
    int *ipiv;
    int nb;                      /* polish: the order of the factored M_BB (the rows of B, packed), else n */
    int *bidx;                   /* polish: B's rows, in order (nb of them) */
    double *tmp;                 /* n: a right-hand side gathered on B */
    /* sparse: M in CSR on the pattern of A plus the diagonal */
    int *mp, *mj, *dpos;         /* row pointers, columns, diagonal slots */
    double *base, *mx;           /* A's values on that pattern (0 where A has none), M's values */
    lcp_sparse_factor sf;        /* CHOLMOD (symmetric) / UMFPACK on that pattern */
    /* --linsolve pcg: conjugate gradients on M with the -p preconditioner,
     * rebuilt from M at every factor step */
    int pcg;
    const lcp_precond_type *ptype;
    const lcp_settings *s;
    lcp_precond P;
    double *cg;                  /* 4n: residual, preconditioned residual, direction, M direction */
    long cg_iters;               /* CG iterations in all */
    int cg_fail;                 /* solves that missed PCG_RTOL */
} linsys;

/* ipm_linsys.c.  What ran, for info->message. */
const char *ipm_ls_method(const linsys *L);
void ipm_ls_free(linsys *L);

/* ipm_linsys.c.  Chooses the method, allocates everything, runs the
 * symbolic analyses; ad (the dense path's copy of A) becomes L's.  0, or
 * an error with err set. */
int ipm_ls_init(linsys *L, const lcp_problem *p, int sparse, int sym, int pcg, const lcp_settings *s,
                double *ad, lcp_err *err);

/* ipm_linsys.c.  Factors M = A + diag(d) (keep: the polish's M with
 * A_BB); x <- M^-1 x with the last factorization.  0, or LCP_ERROR with
 * the reason in err. */
int ipm_ls_factor(linsys *L, const double *d, const unsigned char *keep, lcp_err *err);
int ipm_ls_solve(linsys *L, double *x, lcp_err *err);

/* ipm_linsys.c.  y = A x and y = A'x (At: A' or A itself). */
void ipm_ls_matvec(const linsys *L, const double *x, double *y);
void ipm_ls_matvec_t(const linsys *L, const lcp_csr *At, const double *x, double *y);

/* ipm_linsys.c.  The dense path's copy of A, row by row; NULL when out of
 * memory. */
double *ipm_dense_rows(const lcp_csr *A);

/* ipm_psd.c.  One pass over the dense copy: *sym (symmetric to lim), and 1
 * where a 2x2 principal submatrix of (A + A')/2 is indefinite. */
int ipm_dense_scan(const double *a, const double *diag, int n, double lim, int *sym);

/* ipm_psd.c.  y = A x; returns x'A x, its rounding scale in *absq where
 * it is negative. */
double ipm_curvature(const linsys *L, const double *x, double *y, double *absq);

/* ipm_psd.c.  Cheap certificates that A is not psd (a negative diagonal
 * entry, an indefinite 2x2 minor of (A + A')/2), on CSR or on the dense
 * copy: 1 with the evidence in why, else 0. */
int ipm_not_psd_quick(const lcp_csr *A, const lcp_csr *At, const double *diag, char *why, size_t len);
int ipm_not_psd_quick_dense(const double *a, int n, int bad, char *why, size_t len);

/* ipm_psd.c.  The definitive test after a stall: 1 psd (to rounding), 0
 * not (evidence in why), -1 undecided. */
int ipm_is_psd(const lcp_problem *p, char *why, size_t len);

#endif
