/* src/precond/spai.c: sparse approximate inverse on the pattern of A,
 * symmetrised: P^-1 = D^-1/2 ((M + M')/2) D^-1/2.
 *
 * A is first scaled to unit diagonal, S = D^-1/2 A D^-1/2 with D = diag(A)
 * (every A_ii must be positive, as for diag and ichol), because the
 * Frobenius-norm objective below is not invariant under diagonal scaling:
 * on a badly scaled A (mass ratios) a sparse approximate inverse of A itself
 * spends its columns on the large entries and can do worse than diag.  On S
 * it does not depend on how A is scaled.
 *
 * Column j of M minimises ||S m_j - e_j||_2 over the vectors with the
 * sparsity pattern J of column j of A (plus j itself): with I the rows where
 * the columns J of S have entries, that is the small dense least-squares
 * problem min ||S(I,J) m - e_j(I)||_2, solved by LAPACK dgelsy (QR with
 * column pivoting and a complete orthogonal factorisation, so the
 * rank-deficient submatrices of semidefinite contact matrices give the
 * minimum-norm solution; rank decided at rcond 1e-12).  dgelsy, not dgels,
 * because those submatrices are often rank deficient, and not dgelsd (SVD):
 * the same answers on the test problems at half the time.  The columns are
 * independent, so M minimises ||I - S M||_F over every matrix with that
 * pattern, and they are computed on the OpenMP threads of -j (one OpenBLAS
 * thread each), the same bits for every thread count.
 *
 * M itself is not symmetric, but conjugate gradients need a symmetric
 * preconditioner, so apply uses (M + M')/2 (the same pattern when A's
 * pattern is symmetric): y = D^-1/2 ((M + M')/2) D^-1/2 r, one sparse
 * matvec.  That matrix is not always positive definite (M's columns can
 * overshoot where S is far from diagonally dominant; tests/unit/
 * test_precond.c has a 5 x 5 SPD example); CG may then break down, and
 * ichol is the safer choice.
 *
 * Cost: setup sum_j (4 |I_j| |J_j|^2 + 10 |J_j|^3) flops at most (one QR
 * per column), about 4 n k^4 for k entries a row: 0.6 s for a 3600-contact
 * pyramid (26 a row), 2 s for KaplasTower (n = 1710, 68 a row), 5 s for a
 * 1600-contact friction pyramid (n = 4800, 60 a row), one thread; apply
 * 2 nnz(A) flops; memory about nnz(A).  Patterns whose estimate exceeds
 * 1e11 flops (dense A, a quarter of a minute and more) are refused with
 * LCP_INPUT_ERROR.
 */
#include "precond.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "../solvers/solver.h"

void dgelsy_(const int *m, const int *n, const int *nrhs, double *a, const int *lda, double *b, const int *ldb,
             int *jpvt, const double *rcond, int *rank, double *work, const int *lwork, int *info);

typedef struct {
    lcp_csr M; /* D^-1/2 ((M + M')/2) D^-1/2 */
} spai;

static void release(void *state)
{
    spai *f = state;
    if (f) lcp_csr_free(&f->M);
    free(f);
}

/* Grows *buf to hold at least need elements of size sz; 0 or -1. */
static int grow(void **buf, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap) return 0;
    size_t c = need + need / 2 + 16;
    void *b = realloc(*buf, c * sz);
    if (!b) return -1;
    *buf = b;
    *cap = c;
    return 0;
}

/* One thread's workspace for the least-squares problems. */
typedef struct {
    int *pos;   /* n: row -> index in I, or -1 */
    int *cols;  /* J */
    int *rows;  /* I */
    double *a, *b, *work;
    int *iwork; /* dgelsy's column pivots */
    size_t acap, bcap, wcap, icap;
} lsq_work;

static void lsq_free(lsq_work *w)
{
    free(w->pos);
    free(w->cols);
    free(w->rows);
    free(w->a);
    free(w->b);
    free(w->work);
    free(w->iwork);
}

/* J = row j of S' (the pattern of column j of S) with j first; I = the
 * rows where those columns have entries.  Returns |J|, sets *ni = |I| and
 * leaves pos set on I (the caller resets it). */
static int pattern(const lcp_csr *St, int j, lsq_work *w, int *ni)
{
    int nj = 0, m = 0;
    w->cols[nj++] = j;
    for (int t = St->p[j]; t < St->p[j + 1]; t++)
        if (St->j[t] != j) w->cols[nj++] = St->j[t];
    for (int c = 0; c < nj; c++)
        for (int t = St->p[w->cols[c]]; t < St->p[w->cols[c] + 1]; t++)
            if (w->pos[St->j[t]] < 0) {
                w->pos[St->j[t]] = m;
                w->rows[m++] = St->j[t];
            }
    *ni = m;
    return nj;
}

/* Column j of M into w->b[0..nj-1] (pattern in w->cols); 0, or -1 out of
 * memory. */
static int column(const lcp_csr *St, int j, lsq_work *w, int *nj_out)
{
    int ni, nj = pattern(St, j, w, &ni);
    *nj_out = nj;
    int ldb = ni > nj ? ni : nj, nrhs = 1, rank, info = 0, lwork = -1;
    const double rcond = 1e-12;
    if (grow((void **)&w->a, &w->acap, (size_t)ni * nj, sizeof(double)) ||
        grow((void **)&w->b, &w->bcap, (size_t)ldb, sizeof(double)) ||
        grow((void **)&w->iwork, &w->icap, (size_t)nj, sizeof(int))) {
        info = -1;
        goto done;
    }
    for (int k = 0; k < ldb; k++) w->b[k] = 0;
    if (ni == 0) goto done; /* column j of S is empty: m_j = 0 */
    for (size_t k = 0; k < (size_t)ni * nj; k++) w->a[k] = 0;
    for (int c = 0; c < nj; c++)
        for (int t = St->p[w->cols[c]]; t < St->p[w->cols[c] + 1]; t++)
            w->a[w->pos[St->j[t]] + (size_t)c * ni] = St->x[t];
    if (w->pos[j] >= 0) w->b[w->pos[j]] = 1;
    for (int c = 0; c < nj; c++) w->iwork[c] = 0; /* every column free to pivot */
    double wq;
    dgelsy_(&ni, &nj, &nrhs, w->a, &ni, w->b, &ldb, w->iwork, &rcond, &rank, &wq, &lwork, &info);
    lwork = (int)wq + 1;
    if (grow((void **)&w->work, &w->wcap, (size_t)lwork, sizeof(double))) {
        info = -1;
        goto done;
    }
    dgelsy_(&ni, &nj, &nrhs, w->a, &ni, w->b, &ldb, w->iwork, &rcond, &rank, w->work, &lwork, &info);
done:
    for (int r = 0; r < ni; r++) w->pos[w->rows[r]] = -1;
    return info;
}

static int setup(const lcp_csr *A, const struct lcp_settings_s *s, void **state, lcp_err *err)
{
    int n = A->n;
    if (A->m != n) return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "preconditioner spai needs a square matrix");
    int bad_row, bad_col;
    if (!lcp_csr_all_finite(A, &bad_row, &bad_col))
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "preconditioner spai: A(%d,%d) is not finite", bad_row + 1,
                        bad_col + 1);
    for (int i = 0; i < n; i++) {
        double d = lcp_csr_diag(A, i);
        if (!(d > 0))
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                            "preconditioner spai needs a positive diagonal, but A(%d,%d) = %g", i + 1, i + 1, d);
    }
    int nth = s && s->threads > 1 ? s->threads : 1;
    /* S' = (D^-1/2 A D^-1/2)': its rows are the columns of S */
    lcp_csr St = {0};
    double *dhalf = lcp_alloc((size_t)n, sizeof(double));
    long *off = lcp_alloc((size_t)n + 1, sizeof(long)); /* column j's triplets start at off[j] */
    lsq_work *ws = lcp_calloc((size_t)nth, sizeof(lsq_work));
    int *ti = NULL, *tj = NULL;
    double *tx = NULL;
    spai *f = lcp_calloc(1, sizeof *f);
    int rc = 0;
    if (!dhalf || !off || !ws || !f || lcp_csr_transpose(A, &St)) goto oom;
    for (int t = 0; t < nth; t++) {
        if (!(ws[t].pos = lcp_alloc((size_t)n, sizeof(int))) || !(ws[t].cols = lcp_alloc((size_t)n + 1, sizeof(int))) ||
            !(ws[t].rows = lcp_alloc((size_t)n, sizeof(int))))
            goto oom;
        for (int i = 0; i < n; i++) ws[t].pos[i] = -1;
    }
    for (int i = 0; i < n; i++) dhalf[i] = 1 / sqrt(lcp_csr_diag(A, i));
    for (int i = 0; i < n; i++)
        for (int t = St.p[i]; t < St.p[i + 1]; t++) St.x[t] *= dhalf[i] * dhalf[St.j[t]];
    /* the cost estimate and the triplet offsets first, so that a dense A is
     * refused before any work */
    double flops = 0;
    off[0] = 0;
    for (int j = 0; j < n; j++) {
        int ni, nj = pattern(&St, j, &ws[0], &ni);
        for (int r = 0; r < ni; r++) ws[0].pos[ws[0].rows[r]] = -1;
        flops += 4.0 * ni * (double)nj * nj + 10.0 * (double)nj * nj * nj;
        off[j + 1] = off[j] + 2L * nj;
        if (flops > 1e11) break; /* a dense column costs more than finding its pattern */
    }
    if (flops > 1e11) {
        rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                      "preconditioner spai: A is too dense for a sparse approximate inverse (more than 1e11 flops "
                      "of least squares); use ichol or diag");
        goto done;
    }
    if (!(ti = lcp_alloc((size_t)off[n], sizeof(int))) || !(tj = lcp_alloc((size_t)off[n], sizeof(int))) ||
        !(tx = lcp_alloc((size_t)off[n], sizeof(double))))
        goto oom;
    /* the columns are independent: OpenMP threads (-j) over them, each with
     * its own workspace and its own triplet slots (the same bits for every
     * thread count); OpenBLAS on one thread inside, since its threads only
     * slow these small problems down */
    int blas_threads = openblas_get_num_threads();
    openblas_set_num_threads(1);
    int failed_col = -1, failed_info = 0;
#pragma omp parallel for schedule(dynamic, 16) num_threads(nth)
    for (int j = 0; j < n; j++) {
#ifdef _OPENMP
        lsq_work *w = &ws[omp_get_thread_num()];
#else
        lsq_work *w = &ws[0];
#endif
        int nj, info = column(&St, j, w, &nj);
        if (info) {
#pragma omp critical(spai_fail)
            if (failed_col < 0 || j < failed_col) failed_col = j, failed_info = info;
            continue;
        }
        for (int c = 0; c < nj; c++) { /* M(cols[c], j) = b[c], into D^-1/2 ((M + M')/2) D^-1/2 */
            long q = off[j] + 2L * c;
            double v = 0.5 * w->b[c] * dhalf[w->cols[c]] * dhalf[j];
            ti[q] = w->cols[c], tj[q] = j, tx[q] = v;
            ti[q + 1] = j, tj[q + 1] = w->cols[c], tx[q + 1] = v;
        }
    }
    openblas_set_num_threads(blas_threads);
    if (failed_col >= 0) {
        if (failed_info < 0) goto oom;
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "preconditioner spai: LAPACK dgelsy fails on column %d (info %d)",
                      failed_col + 1, failed_info);
        goto done;
    }
    if (lcp_csr_from_triplets(&f->M, n, n, off[n], ti, tj, tx)) goto oom;
    goto done;
oom:
    rc = lcp_fail(err, LCP_ERROR, NULL, 0, "preconditioner spai: out of memory");
done:
    lcp_csr_free(&St);
    free(dhalf);
    free(off);
    if (ws)
        for (int t = 0; t < nth; t++) lsq_free(&ws[t]);
    free(ws);
    free(ti);
    free(tj);
    free(tx);
    if (rc) release(f);
    else *state = f;
    return rc;
}

static void apply(void *state, const double *r, double *y)
{
    const spai *f = state;
    lcp_csr_matvec(&f->M, r, y);
}

const lcp_precond_type lcp_precond_spai = {
    "spai", "sparse approximate inverse of D^-1/2 A D^-1/2 on the pattern of A (least squares a column, dgelsy), symmetrised",
    setup, apply, release};
