/* src/la/sparse_factor.h: a sparse square matrix with a fixed pattern,
 * factorised many times (the Newton matrices of ipm, socp-ipm, newton-fb /
 * newton-min and nsn / prox): the symbolic analysis once, a numeric
 * factorisation per set of values, solves with the last one.
 *
 * The matrix M (n x n) is given in CSR (p, j, x; columns sorted within a
 * row), which SuiteSparse reads as M' in compressed columns; the arrays are
 * borrowed (the caller owns them and keeps the pattern fixed).
 *  - Cholesky (LCP_SF_CHOLESKY, M symmetric, sym = 1 at init): CHOLMOD LL'
 *    on the lower triangle of M (stype -1), cholmod_analyze once at init,
 *    cholmod_factorize on that symbolic factor at every refactor;
 *  - LU (LCP_SF_LU): UMFPACK, umfpack_di_symbolic once (at init when sym =
 *    0, at the first LU refactor otherwise), umfpack_di_numeric at every LU
 *    refactor (a new Numeric object each time: UMFPACK has no in-place
 *    refactorisation; the previous one is freed), solves by
 *    umfpack_di_wsolve(UMFPACK_At) (M' in CSC: solves M x = b) with
 *    `refine` steps of UMFPACK's iterative refinement.
 * A failed Cholesky (not positive definite) is reported, not replaced:
 * the caller chooses its fallback (LU, more regularisation, a message).
 *
 * Every function returns a status, LCP_SF_OK (0) or one of those below;
 * after a failure F->stage names the call that failed ("CHOLMOD
 * factorization", ...; NULL: our own allocation) and F->status the
 * library's status; lcp_sparse_factor_fail turns that into the message
 * "<prefix><stage> failed (status N[: out of memory])" (a failed solve:
 * the status only).  All workspace of
 * the solves is allocated at init (or at the first LU refactor of a
 * symmetric matrix); the libraries allocate their numeric factors. */
#ifndef LCPSOLVE_SPARSE_FACTOR_H
#define LCPSOLVE_SPARSE_FACTOR_H

#include <cholmod.h>
#include <umfpack.h>

#include "../core/common.h"
#include "csr.h"

enum {
    LCP_SF_OK = 0,
    LCP_SF_NOT_POSDEF, /* Cholesky: M is not positive definite (to working precision) */
    LCP_SF_SINGULAR,   /* LU: M is singular to working precision (a solve still ran: inf/nan in x) */
    LCP_SF_NOMEM,      /* out of memory (ours or the library's) */
    LCP_SF_FAILED      /* any other failure of the library */
};

enum { LCP_SF_NONE = 0, LCP_SF_CHOLESKY, LCP_SF_LU };

/* The fill-reducing ordering of the factorisations of the calling thread
 * (--order with a factorising solver): AUTO is the libraries' own choice
 * (CHOLMOD tries AMD and, for large matrices, METIS; UMFPACK picks AMD or
 * COLAMD by its strategy); NATURAL none; AMD (UMFPACK: AMD on the symmetric
 * strategy, COLAMD otherwise); ND nested dissection by METIS.  Thread-local:
 * the pipeline sets it at the start of every solve (src/core/pipeline.c),
 * and the component tasks of --decompose take the solve's (decompose.c). */
enum { LCP_SF_ORDER_AUTO = 0, LCP_SF_ORDER_NATURAL, LCP_SF_ORDER_AMD, LCP_SF_ORDER_ND };
void lcp_sparse_factor_set_ordering(int ordering);
int lcp_sparse_factor_get_ordering(void);

#define LCP_SF_REFINE_DEFAULT (-1) /* UMFPACK's default iterative refinement (2 steps) */

typedef struct {
    int n, sym;
    const int *p, *j;            /* the pattern (CSR), borrowed */
    const double *x;             /* the values of the last refactor, borrowed */
    int cur;                     /* LCP_SF_*: the factorisation held (NONE before the first) */
    int status;                  /* the library's status of the last failure */
    int nomem;                   /* that failure was out of memory */
    const char *stage;           /* the call that failed; NULL: our allocation */
    /* CHOLMOD */
    cholmod_common cc;
    int cc_on;
    cholmod_sparse cs;           /* view of (p, j, x): M' = M in CSC, lower triangle */
    cholmod_factor *L;           /* symbolic at init, numeric at every refactor */
    cholmod_dense cb, *X, *Y, *E;/* right-hand side view; cholmod_solve2's reusable workspace */
    /* UMFPACK */
    void *symbolic, *numeric;
    void *store, *symref;        /* symbolic lent by this store (symbolic_store.h): released, not freed */
    double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
    int refine;
    int *wi;                     /* umfpack_di_wsolve workspace: n ints, 5n doubles */
    double *ww, *tmp;            /* tmp: the right-hand side of an in-place solve */
} lcp_sparse_factor;

/* Symbolic analysis of the pattern (p, j) of an n x n matrix whose values
 * are x (read by nothing before the first refactor).  sym: M is symmetric
 * (Cholesky available; LU set up at the first LU refactor), else LU only.
 * refine: UMFPACK iterative refinement steps (LCP_SF_REFINE_DEFAULT, 0:
 * none).  F is zeroed first: call lcp_sparse_factor_free even on failure. */
int lcp_sparse_factor_init(lcp_sparse_factor *F, int n, const int *p, const int *j, const double *x, int sym,
                           int refine);

/* The flops of a numeric factorisation predicted from the analysis of init:
 * sum of the squared column counts of CHOLMOD's symbolic factor (sym), or
 * UMFPACK's estimate where its analysis was made here; NAN where unknown. */
double lcp_sparse_factor_flops(const lcp_sparse_factor *F);

/* Numeric factorisation of M with the values x (on the pattern of init) by
 * method LCP_SF_CHOLESKY (needs sym) or LCP_SF_LU.  LCP_SF_OK: F->cur =
 * method; LCP_SF_SINGULAR (LU): the factor is kept and can still be used
 * (F->cur = LU); otherwise no factor is held (F->cur = NONE). */
int lcp_sparse_factor_refactor(lcp_sparse_factor *F, const double *x, int method);

/* x = M^-1 b with the last factorisation; b == x is allowed (in place).
 * LCP_SF_SINGULAR when UMFPACK finds a zero pivot (x then holds inf/nan). */
int lcp_sparse_factor_solve(lcp_sparse_factor *F, const double *b, double *x);

/* LU of a matrix whose pattern changes between factorisations (the bases
 * of lemke): (p, j, x) replace the borrowed arrays, UMFPACK's symbolic
 * analysis is redone on the new pattern, then the numeric factorisation.
 * Returns as lcp_sparse_factor_refactor(F, x, LCP_SF_LU).  F from init
 * with sym = 0. */
int lcp_sparse_factor_lu_repattern(lcp_sparse_factor *F, const int *p, const int *j, const double *x);
/* The same with the column order of UMFPACK's matrix (M' in CSC: the rows of
 * the CSR given) fixed to qinit (n; NULL: UMFPACK's own fill-reducing
 * order): columns are pivoted in that order, rows chosen for stability, so
 * lcp_sparse_factor_lu_weak then names the columns that depend on columns
 * before them in qinit. */
int lcp_sparse_factor_lu_repattern_q(lcp_sparse_factor *F, const int *p, const int *j, const double *x, const int *qinit);

/* The columns of the last LU's matrix M' (UMFPACK's compressed columns:
 * the rows of the CSR given) whose pivot |U_kk| is at most tol times the
 * largest (UMFPACK's row scaling applied): the columns that depend, to
 * that tolerance, on the columns pivoted before them.  Written to cols
 * (n at most); returns their number, -1 without an LU or out of memory. */
int lcp_sparse_factor_lu_weak(lcp_sparse_factor *F, double tol, int *cols);
/* x = (M')^-1 b with the last LU (b == x is allowed): the transposed solve. */
int lcp_sparse_factor_solve_transposed(lcp_sparse_factor *F, const double *b, double *x);

/* lcp_fail(err, LCP_ERROR, ...) with "<prefix><stage> failed (status
 * N[: out of memory])", or "<prefix>out of memory" for our own allocation;
 * returns LCP_ERROR. */
int lcp_sparse_factor_fail(const lcp_sparse_factor *F, lcp_err *err, const char *prefix);

void lcp_sparse_factor_free(lcp_sparse_factor *F);

/* The pattern of the square A with every diagonal entry present (the
 * pattern of A + D, D diagonal): p (n + 1), j (nnz(A) + n at most, columns
 * sorted as in A), dpos[i] the slot of (i, i); amap[k] (if not NULL) the
 * slot of entry k in A, -1 for an added diagonal; x (if not NULL) A's
 * values, 0 on an added diagonal.  Needs A's columns sorted in each row.
 * Returns the number of entries. */
long lcp_pattern_with_diagonal(const lcp_csr *A, int *p, int *j, int *dpos, int *amap, double *x);

#endif
