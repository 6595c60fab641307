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
 * problem min ||S(I,J) m - e_j(I)||_2, solved by LAPACK dgelsd (SVD, so the
 * rank-deficient submatrices of semidefinite contact matrices give the
 * minimum-norm solution; singular values below 1e-12 of the largest are
 * dropped).  The columns are independent, so M minimises ||I - S M||_F over
 * every matrix with that pattern.
 *
 * M itself is not symmetric, but conjugate gradients need a symmetric
 * preconditioner, so apply uses (M + M')/2 (the same pattern when A's
 * pattern is symmetric): y = D^-1/2 ((M + M')/2) D^-1/2 r, one sparse
 * matvec.  That matrix is not always positive definite (M's columns can
 * overshoot where S is far from diagonally dominant); CG may then break
 * down, and ichol is the safer choice.
 *
 * Cost: setup sum_j (4 |I_j| |J_j|^2 + 10 |J_j|^3) flops (one SVD per
 * column), about 4 n k^4 for k entries a row; apply 2 nnz(A) flops; memory
 * about nnz(A).  Patterns whose least-squares problems would take more than
 * 1e11 flops (dense A) are refused with LCP_INPUT_ERROR.
 */
#include "precond.h"

#include <math.h>
#include <stdlib.h>

void dgelsd_(const int *m, const int *n, const int *nrhs, double *a, const int *lda, double *b, const int *ldb,
             double *s, const double *rcond, int *rank, double *work, const int *lwork, int *iwork, int *info);

typedef struct {
    lcp_csr M; /* (M + M')/2 */
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

static int setup(const lcp_csr *A, const struct lcp_settings_s *s, void **state, lcp_err *err)
{
    (void)s;
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
    /* S' = (D^-1/2 A D^-1/2)': its rows are the columns of S */
    lcp_csr At = {0};
    double *dhalf = lcp_alloc((size_t)n, sizeof(double));
    if (!dhalf || lcp_csr_transpose(A, &At)) {
        free(dhalf);
        lcp_csr_free(&At);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    }
    for (int i = 0; i < n; i++) dhalf[i] = 1 / sqrt(lcp_csr_diag(A, i));
    for (int i = 0; i < n; i++)
        for (int t = At.p[i]; t < At.p[i + 1]; t++) At.x[t] *= dhalf[i] * dhalf[At.j[t]];
    /* the pattern J of column j is row j of A', plus j; the rows I are the
     * union of the columns k in J, i.e. of the rows k of A' */
    int *pos = lcp_alloc((size_t)n, sizeof(int));
    int *cols = lcp_alloc((size_t)n + 1, sizeof(int));
    int *rows = lcp_alloc((size_t)n, sizeof(int));
    long nt = 0; /* triplets: two per entry of M */
    for (int j = 0; j < n; j++) nt += 2 * ((long)(At.p[j + 1] - At.p[j]) + 1);
    int *ti = lcp_alloc((size_t)nt, sizeof(int)), *tj = lcp_alloc((size_t)nt, sizeof(int));
    double *tx = lcp_alloc((size_t)nt, sizeof(double));
    double *a = NULL, *bv = NULL, *sv = NULL, *work = NULL;
    int *iwork = NULL;
    size_t acap = 0, bcap = 0, scap = 0, wcap = 0, icap = 0;
    spai *f = lcp_calloc(1, sizeof *f);
    int rc = 0;
    if (!pos || !cols || !rows || !ti || !tj || !tx || !f) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    for (int i = 0; i < n; i++) pos[i] = -1;
    /* the cost estimate first, so a dense A is refused before any work */
    double flops = 0;
    for (int j = 0; j < n && flops <= 1e11; j++) {
        int nj = 0, ni = 0;
        cols[nj++] = j;
        for (int t = At.p[j]; t < At.p[j + 1]; t++)
            if (At.j[t] != j) cols[nj++] = At.j[t];
        for (int c = 0; c < nj; c++)
            for (int t = At.p[cols[c]]; t < At.p[cols[c] + 1]; t++)
                if (pos[At.j[t]] < 0) pos[rows[ni++] = At.j[t]] = 1;
        for (int r = 0; r < ni; r++) pos[rows[r]] = -1;
        flops += 4.0 * ni * (double)nj * nj + 10.0 * (double)nj * nj * nj;
    }
    if (flops > 1e11) {
        rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                      "preconditioner spai: A is too dense for a sparse approximate inverse (more than 1e11 flops "
                      "of least squares); use ichol or diag");
        goto done;
    }
    long q = 0;
    const double rcond = 1e-12;
    for (int j = 0; j < n; j++) {
        int nj = 0, ni = 0;
        cols[nj++] = j;
        for (int t = At.p[j]; t < At.p[j + 1]; t++)
            if (At.j[t] != j) cols[nj++] = At.j[t];
        for (int c = 0; c < nj; c++)
            for (int t = At.p[cols[c]]; t < At.p[cols[c] + 1]; t++)
                if (pos[At.j[t]] < 0) {
                    pos[At.j[t]] = ni;
                    rows[ni++] = At.j[t];
                }
        int ldb = ni > nj ? ni : nj, mn = ni < nj ? ni : nj, nrhs = 1, rank, info, lwork = -1;
        if (ni == 0) { /* column j of A is empty: m_j = 0 */
            for (int c = 0; c < nj; c++) {
                ti[q] = cols[c], tj[q] = j, tx[q++] = 0;
                ti[q] = j, tj[q] = cols[c], tx[q++] = 0;
            }
            continue;
        }
        if (grow((void **)&a, &acap, (size_t)ni * nj, sizeof(double)) ||
            grow((void **)&bv, &bcap, (size_t)ldb, sizeof(double)) ||
            grow((void **)&sv, &scap, (size_t)mn, sizeof(double))) {
            rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
            goto done;
        }
        for (size_t k = 0; k < (size_t)ni * nj; k++) a[k] = 0;
        for (int c = 0; c < nj; c++)
            for (int t = At.p[cols[c]]; t < At.p[cols[c] + 1]; t++) a[pos[At.j[t]] + (size_t)c * ni] = At.x[t];
        for (int k = 0; k < ldb; k++) bv[k] = 0;
        if (pos[j] >= 0) bv[pos[j]] = 1;
        double wq;
        int iwq;
        dgelsd_(&ni, &nj, &nrhs, a, &ni, bv, &ldb, sv, &rcond, &rank, &wq, &lwork, &iwq, &info);
        lwork = (int)wq + 1;
        if (grow((void **)&work, &wcap, (size_t)lwork, sizeof(double)) ||
            grow((void **)&iwork, &icap, (size_t)(iwq > 1 ? iwq : 1), sizeof(int))) {
            rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
            goto done;
        }
        dgelsd_(&ni, &nj, &nrhs, a, &ni, bv, &ldb, sv, &rcond, &rank, work, &lwork, iwork, &info);
        if (info != 0) {
            rc = lcp_fail(err, LCP_ERROR, NULL, 0, "preconditioner spai: the SVD for column %d did not converge",
                          j + 1);
            goto done;
        }
        for (int r = 0; r < ni; r++) pos[rows[r]] = -1;
        for (int c = 0; c < nj; c++) { /* M(cols[c], j) = bv[c], into D^-1/2 ((M + M')/2) D^-1/2 */
            double v = 0.5 * bv[c] * dhalf[cols[c]] * dhalf[j];
            ti[q] = cols[c], tj[q] = j, tx[q++] = v;
            ti[q] = j, tj[q] = cols[c], tx[q++] = v;
        }
    }
    if (lcp_csr_from_triplets(&f->M, n, n, q, ti, tj, tx)) rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
done:
    lcp_csr_free(&At);
    free(dhalf);
    free(pos);
    free(cols);
    free(rows);
    free(ti);
    free(tj);
    free(tx);
    free(a);
    free(bv);
    free(sv);
    free(work);
    free(iwork);
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
    "spai", "sparse approximate inverse of D^-1/2 A D^-1/2 on the pattern of A (least squares a column, dgelsd), symmetrised",
    setup, apply, release};
