/* src/solvers/ipm_linsys.c: the Newton systems of ipm (src/solvers/ipm.c,
 * whose header describes --linsolve): M = A + Z^-1 W, or the polish's
 * [A_BB + diag(d_B), 0; 0, I], factored once a step and solved twice --
 * dense by LAPACK (Cholesky dpotrf, LU dgetrf where it fails or A is not
 * symmetric; the polish's M_BB packed), sparse on the pattern of A plus
 * the diagonal by CHOLMOD or UMFPACK (src/la/sparse_factor.c), or by
 * conjugate gradients with the -p preconditioner (--linsolve pcg); the
 * products with A (the dense copy by dgemv, else CSR).
 */
#include "ipm_internal.h"
#include "../core/scratch.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK */
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda, double *b,
             const int *ldb, int *info);
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *lda, const int *ipiv,
             double *b, const int *ldb, int *info);

#define PCG_RTOL 1e-12 /* --linsolve pcg: |M x - b| <= PCG_RTOL |b| */

const char *ipm_ls_method(const linsys *L)
{
    if (L->pcg) return L->cg_fail ? "PCG (some solves short of 1e-12)" : "PCG";
    if (!L->sparse) {
        if (!L->sym) return "LAPACK dgetrf (dense LU)";
        return L->chol_fail ? "LAPACK dpotrf (dense Cholesky), dgetrf (LU) where it failed"
                            : "LAPACK dpotrf (dense Cholesky)";
    }
    if (!L->sym) return "UMFPACK (sparse LU)";
    return L->chol_fail ? "CHOLMOD (sparse Cholesky), UMFPACK (sparse LU) where it failed"
                        : "CHOLMOD (sparse Cholesky)";
}

void ipm_ls_free(linsys *L)
{
    lcp_scratch_give(LCP_SCRATCH_DENSE_A, L->ad);
    lcp_scratch_give(LCP_SCRATCH_DENSE_M, L->m);
    free(L->ipiv);
    free(L->bidx);
    free(L->tmp);
    free(L->mp);
    free(L->mj);
    free(L->dpos);
    free(L->base);
    free(L->mx);
    lcp_sparse_factor_free(&L->sf);
    lcp_precond_free(&L->P);
    free(L->cg);
    memset(L, 0, sizeof *L);
}

/* Chooses the method, allocates everything, runs the symbolic analyses. */
int ipm_ls_init(linsys *L, const lcp_problem *p, int sparse, int sym, int pcg, const lcp_settings *s,
                   double *ad, lcp_err *err)
{
    const lcp_csr *A = &p->A;
    int n = p->n;
    memset(L, 0, sizeof *L);
    L->A = A;
    L->n = n;
    L->sym = sym;
    L->sparse = sparse;
    L->pcg = pcg;
    L->ptype = s->precond;
    L->s = s;
    if (!sparse) {
        L->ad = ad;                              /* ours from here on */
        L->m = lcp_scratch_take(LCP_SCRATCH_DENSE_M, (size_t)n * (size_t)n * sizeof(double)); /* kept by the thread */
        L->ipiv = lcp_alloc((size_t)n, sizeof(int));
        L->bidx = lcp_alloc((size_t)n, sizeof(int));
        L->tmp = lcp_alloc((size_t)n, sizeof(double));
        if (!L->ad || !L->m || !L->ipiv || !L->bidx || !L->tmp) return lcp_fail(err, LCP_ERROR, NULL, 0, "ipm: out of memory (dense M)");
        return 0;
    }
    long nnz = lcp_csr_nnz(A) + n; /* at most one added diagonal a row */
    L->mp = lcp_alloc((size_t)n + 1, sizeof(int));
    L->mj = lcp_alloc((size_t)nnz, sizeof(int));
    L->dpos = lcp_alloc((size_t)n, sizeof(int));
    L->base = lcp_alloc((size_t)nnz, sizeof(double));
    L->mx = lcp_alloc((size_t)nnz, sizeof(double));
    if (!L->mp || !L->mj || !L->dpos || !L->base || !L->mx)
        return lcp_fail(err, LCP_ERROR, NULL, 0, "ipm: out of memory (sparse M)");
    long m = lcp_pattern_with_diagonal(A, L->mp, L->mj, L->dpos, NULL, L->base);
    memcpy(L->mx, L->base, (size_t)m * sizeof(double));
    if (L->pcg) {
        if (!sym)
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                            "ipm: --linsolve pcg needs a symmetric A (conjugate gradients); use sparse or dense");
        if (!(L->cg = lcp_alloc(4 * (size_t)n, sizeof(double))))
            return lcp_fail(err, LCP_ERROR, NULL, 0, "ipm: out of memory (PCG)");
        return 0;
    }
    /* CHOLMOD's analysis when A is symmetric (UMFPACK's at the first step
     * where Cholesky fails), UMFPACK's otherwise */
    if (lcp_sparse_factor_init(&L->sf, n, L->mp, L->mj, L->mx, sym, LCP_SF_REFINE_DEFAULT))
        return lcp_sparse_factor_fail(&L->sf, err, "ipm: ");
    return 0;
}

/* Factors M = A + diag(d); with keep (polish), M = [A_BB + diag(d_B), 0;
 * 0, I] for B = {i: keep[i]}.  Returns 0, or LCP_ERROR with the reason in
 * err (singular to working precision, out of memory). */
int ipm_ls_factor(linsys *L, const double *d, const unsigned char *keep, lcp_err *err)
{
    int n = L->n, info = 0;
    if (!L->sparse) {
        /* M', or with keep (M_BB)' alone, packed (order nb, leading dimension
         * nb: the polish factors |B|^3/3 flops, not n^3/3); column j of M' is
         * row j of ad, read contiguously, and LU solves with M' transposed */
        double *m = L->m;
        const double *ad = L->ad;
        int nb = n;
        if (keep) {
            nb = 0;
            for (int i = 0; i < n; i++)
                if (keep[i]) L->bidx[nb++] = i;
        }
        L->nb = nb;
        if (nb == 0) {                               /* B empty: nothing to factor (z = 0) */
            L->cur = L->sym ? LS_DENSE_CHOL : LS_DENSE_LU;
            L->factored++;
            return 0;
        }
        for (int pass = 0; pass < 2; pass++) {       /* 0: Cholesky (symmetric A), 1: LU */
            if (pass == 0 && !L->sym) continue;
            for (int jj = 0; jj < nb; jj++) {
                int j = keep ? L->bidx[jj] : jj, i0 = pass == 0 ? jj : 0; /* dpotrf "L" reads the lower part */
                const double *col = ad + (size_t)j * n;
                double *mc = m + (size_t)jj * nb;
                if (keep)
                    for (int ii = i0; ii < nb; ii++) mc[ii] = col[L->bidx[ii]];
                else
                    memcpy(mc + i0, col + i0, (size_t)(nb - i0) * sizeof(double));
                mc[jj] += d[j];                                                          /* + Z^-1 W */
            }
            if (pass == 0) {
                dpotrf_("L", &nb, m, &nb, &info);
                if (info == 0) {
                    L->cur = LS_DENSE_CHOL;
                    L->factored++;
                    return 0;
                }
                L->chol_fail++;
                continue;
            }
            dgetrf_(&nb, &nb, m, &nb, L->ipiv, &info);
            if (info > 0)
                return lcp_fail(err, LCP_ERROR, NULL, 0,
                                "ipm: the Newton matrix A + Z^-1 W is singular to working precision "
                                "(LAPACK dgetrf: U(%d,%d) = 0)", info, info);
            L->cur = LS_DENSE_LU;
            L->factored++;
            return 0;
        }
        return lcp_fail(err, LCP_ERROR, NULL, 0, "ipm: internal error (no dense factorization)");
    }
    for (int i = 0; i < n; i++) {                    /* values of M on the fixed pattern */
        for (int k = L->mp[i]; k < L->mp[i + 1]; k++)
            L->mx[k] = keep && (!keep[i] || !keep[L->mj[k]]) ? 0.0 : L->base[k];
        L->mx[L->dpos[i]] += keep && !keep[i] ? 1.0 : d[i];
    }
    if (L->pcg) { /* the preconditioner of this step's M */
        lcp_csr M = {n, n, L->mp, L->mj, L->mx};
        lcp_precond_free(&L->P);
        int rc = lcp_precond_setup(&L->P, L->ptype, &M, L->s, err);
        if (rc) return rc;
        L->cur = LS_PCG;
        L->factored++;
        return 0;
    }
    int st;
    if (L->sym) {
        st = lcp_sparse_factor_refactor(&L->sf, L->mx, LCP_SF_CHOLESKY); /* on the analysis of ls_init */
        if (st == LCP_SF_OK) {
            L->cur = LS_CHOLMOD;
            L->factored++;
            return 0;
        }
        if (st != LCP_SF_NOT_POSDEF) return lcp_sparse_factor_fail(&L->sf, err, "ipm: ");
        L->chol_fail++;                              /* not positive definite: LU this step */
    }
    st = lcp_sparse_factor_refactor(&L->sf, L->mx, LCP_SF_LU); /* UMFPACK set up at its first use */
    if (st == LCP_SF_SINGULAR)
        return lcp_fail(err, LCP_ERROR, NULL, 0,
                        "ipm: the Newton matrix A + Z^-1 W is singular to working precision (UMFPACK)");
    if (st != LCP_SF_OK) return lcp_sparse_factor_fail(&L->sf, err, "ipm: ");
    L->cur = LS_UMFPACK;
    L->factored++;
    return 0;
}

/* x <- M^-1 x with the last factorization.  Returns 0 or LCP_ERROR. */
int ipm_ls_solve(linsys *L, double *x, lcp_err *err)
{
    int n = L->n, one = 1, info = 0;
    switch (L->cur) {
    case LS_DENSE_CHOL:
    case LS_DENSE_LU: {
        int nb = L->nb;
        double *y = x;
        if (nb < n) {                            /* M_BB packed: gather x_B, solve, scatter (x_N = 0) */
            y = L->tmp;
            for (int k = 0; k < nb; k++) y[k] = x[L->bidx[k]];
            memset(x, 0, (size_t)n * sizeof(double));
        }
        if (nb > 0) {
            if (L->cur == LS_DENSE_CHOL) dpotrs_("L", &nb, &one, L->m, &nb, y, &nb, &info);
            else dgetrs_("T", &nb, &one, L->m, &nb, L->ipiv, y, &nb, &info); /* M = (M')' */
        }
        if (nb < n)
            for (int k = 0; k < nb; k++) x[L->bidx[k]] = y[k];
        return 0;
    }
    case LS_PCG: {                               /* conjugate gradients from 0, to PCG_RTOL */
        double *r = L->cg, *z = r + n, *pd = z + n, *q = pd + n, bn = 0.0, rz = 0.0;
        lcp_csr M = {n, n, L->mp, L->mj, L->mx};
        for (int i = 0; i < n; i++) r[i] = x[i], bn += x[i] * x[i], x[i] = 0.0;
        bn = sqrt(bn);
        if (bn == 0.0) return 0;
        lcp_precond_apply(&L->P, r, z);
        for (int i = 0; i < n; i++) pd[i] = z[i], rz += r[i] * z[i];
        int it = 0, maxit = 10 * n + 100;
        double rn = bn;
        for (; it < maxit && rn > PCG_RTOL * bn; it++) {
            lcp_csr_matvec(&M, pd, q);
            double pq = 0.0;
            for (int i = 0; i < n; i++) pq += pd[i] * q[i];
            if (!(pq > 0.0)) break; /* not positive definite along pd: stop with what there is */
            double a = rz / pq, rz1 = 0.0;
            rn = 0.0;
            for (int i = 0; i < n; i++) x[i] += a * pd[i], r[i] -= a * q[i], rn += r[i] * r[i];
            rn = sqrt(rn);
            lcp_precond_apply(&L->P, r, z);
            for (int i = 0; i < n; i++) rz1 += r[i] * z[i];
            for (int i = 0; i < n; i++) pd[i] = z[i] + rz1 / rz * pd[i];
            rz = rz1;
        }
        L->cg_iters += it;
        if (rn > PCG_RTOL * bn) L->cg_fail++;
        return 0;
    }
    default: {                                   /* CHOLMOD or UMFPACK (a zero pivot: inf/nan, caught later) */
        int st = lcp_sparse_factor_solve(&L->sf, x, x);
        if (st != LCP_SF_OK && st != LCP_SF_SINGULAR) return lcp_sparse_factor_fail(&L->sf, err, "ipm: ");
        return 0;
    }
    }
}

/* y = A x: BLAS dgemv on the dense copy of the dense path, else CSR. */
void ipm_ls_matvec(const linsys *L, const double *x, double *y)
{
    if (L->ad) cblas_dgemv(CblasRowMajor, CblasNoTrans, L->n, L->n, 1.0, L->ad, L->n, x, 1, 0.0, y, 1);
    else lcp_csr_matvec(L->A, x, y);
}

/* y = A'x: dgemv on the dense copy, else CSR on At (A' or A itself). */
void ipm_ls_matvec_t(const linsys *L, const lcp_csr *At, const double *x, double *y)
{
    if (L->ad) cblas_dgemv(CblasRowMajor, CblasTrans, L->n, L->n, 1.0, L->ad, L->n, x, 1, 0.0, y, 1);
    else lcp_csr_matvec(At, x, y);
}

/* The dense path's copy of A, row by row (each row zeroed, then filled:
 * written first, its pages fault once, not once to read and once to write
 * as calloc's would). */
double *ipm_dense_rows(const lcp_csr *A)
{
    int n = A->m;
    double *d = lcp_scratch_take(LCP_SCRATCH_DENSE_A, (size_t)n * (size_t)n * sizeof(double)); /* kept by the thread */
    if (!d) return NULL;
    for (int i = 0; i < n; i++) {
        double *row = d + (size_t)i * n;
        memset(row, 0, (size_t)n * sizeof(double));
        for (int k = A->p[i]; k < A->p[i + 1]; k++) row[A->j[k]] += A->x[k];
    }
    return d;
}
