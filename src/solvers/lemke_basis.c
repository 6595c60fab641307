/* src/solvers/lemke_basis.c: the basis of Lemke's method (src/solvers/lemke.c,
 * whose header describes the method and both paths): the workspace and the
 * row scaling S; the columns of [I, -S A, -S d]; the dense path's B^-1 with
 * its rank-1 update (dger) and its rebuild by LAPACK dgetrf + dgetri; the
 * sparse path's B = B0 E_1 .. E_k, B0 factored by UMFPACK, and the eta file
 * (ftran, btran; B0 is refactored once the eta entries applied outweigh a
 * factorisation, REFACTOR_COST); the basis residual and iterative
 * refinement.
 */
#include "lemke_internal.h"
#include "../la/suitesparse.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK */
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dgetri_(const int *n, double *a, const int *lda, const int *ipiv, double *work, const int *lwork,
             int *info);

#define ETA_MAX 256               /* sparse: eta vectors between two LU factorisations at most */
#define ETA_ROOM 64L              /* sparse: the eta file holds ETA_ROOM n entries ... */
#define ETA_CAP (16L * 1024 * 1024) /* ... up to ETA_CAP */
#define REFACTOR_COST 200.0       /* sparse: a factorisation costs as much as applying REFACTOR_COST
                                   * (nnz(B) + nnz(L + U) + n) eta entries */

void lemke_work_free(lemke_work *W)
{
    lcp_csr_free(&W->At);
    free(W->bs);
    free(W->ds);
    free(W->Binv);
    free(W->beta);
    free(W->col);
    free(W->rowr);
    free(W->tmp);
    free(W->wv);
    free(W->basis);
    free(W->row_of);
    free(W->cand);
    free(W->ipiv);
    free(W->lwork);
    lcp_sparse_factor_free(&W->F);
    free(W->Bp);
    free(W->Bi);
    free(W->Bx);
    free(W->eta_r);
    free(W->eta_p);
    free(W->eta_piv);
    free(W->eta_i);
    free(W->eta_x);
    free(W->rowb);
    free(W->lexrow);
    free(W->mark);
    memset(W, 0, sizeof *W);
}

/* All workspace; the scaled data S A (as columns), S b, S d; B = I. */
int lemke_work_init(lemke_work *W, const lcp_problem *p, const double *cover, int sparse)
{
    int n = p->n;
    memset(W, 0, sizeof *W);
    W->n = n;
    W->sparse = sparse;
    lcp_csr As;
    if (lcp_csr_copy(&As, &p->A)) return LCP_ERROR;
    W->bs = lcp_alloc((size_t)n, sizeof(double));
    W->ds = lcp_alloc((size_t)n, sizeof(double));
    W->Binv = sparse ? NULL : lcp_calloc((size_t)n * (size_t)n, sizeof(double));
    W->beta = lcp_alloc((size_t)n, sizeof(double));
    W->col = lcp_alloc((size_t)n, sizeof(double));
    W->rowr = lcp_alloc((size_t)n, sizeof(double));
    W->tmp = lcp_alloc((size_t)n, sizeof(double));
    W->wv = lcp_alloc((size_t)n, sizeof(double));
    W->basis = lcp_alloc((size_t)n, sizeof(int));
    W->row_of = lcp_alloc(2 * (size_t)n + 1, sizeof(int));
    W->cand = lcp_alloc((size_t)n, sizeof(int));
    W->ipiv = sparse ? NULL : lcp_alloc((size_t)n, sizeof(int));
    int ok = W->bs && W->ds && (sparse || (W->Binv && W->ipiv)) && W->beta && W->col && W->rowr && W->tmp && W->wv && W->basis &&
             W->row_of && W->cand;
    if (ok) {
        for (int i = 0; i < n; i++) {
            double amax = 0.0;
            for (int k = As.p[i]; k < As.p[i + 1]; k++) amax = fmax(amax, fabs(As.x[k])); /* max_j |A_ij| */
            double si = amax > 0 ? 1.0 / amax : 1.0;                                          /* S_ii */
            for (int k = As.p[i]; k < As.p[i + 1]; k++) As.x[k] *= si;                        /* row i of S A */
            W->bs[i] = si * p->b[i];                                                          /* S b */
            W->ds[i] = si * (cover ? cover[i] : 1.0);                                         /* S d */
            W->beta[i] = W->bs[i];                                                            /* B^-1 S b */
            if (!sparse) W->Binv[i + (size_t)i * n] = 1.0;                                    /* B = I */
            W->basis[i] = i;                                                                  /* w_i basic */
        }
        for (int v = 0; v <= 2 * n; v++) W->row_of[v] = v < n ? v : -1;
        ok = !lcp_csr_transpose(&As, &W->At); /* columns of S A */
    }
    long nnz = lcp_csr_nnz(&As);
    lcp_csr_free(&As);
    if (ok && sparse) { /* B0 = I, its LU; the eta file */
        W->eta_cap = ETA_ROOM * n < ETA_CAP ? ETA_ROOM * n : ETA_CAP;
        if (W->eta_cap < 2L * n) W->eta_cap = 2L * n;
        W->Bp = lcp_alloc((size_t)n + 1, sizeof(int));
        W->Bi = lcp_alloc((size_t)nnz + 2 * (size_t)n, sizeof(int));
        W->Bx = lcp_alloc((size_t)nnz + 2 * (size_t)n, sizeof(double));
        W->eta_r = lcp_alloc(ETA_MAX, sizeof(int));
        W->eta_p = lcp_alloc(ETA_MAX + 1, sizeof(long));
        W->eta_piv = lcp_alloc(ETA_MAX, sizeof(double));
        W->eta_i = lcp_alloc((size_t)W->eta_cap, sizeof(int));
        W->eta_x = lcp_alloc((size_t)W->eta_cap, sizeof(double));
        W->rowb = lcp_alloc((size_t)n, sizeof(double));
        W->lexrow = lcp_alloc((size_t)LEX_ROWS * (size_t)n, sizeof(double));
        W->mark = lcp_calloc((size_t)n, sizeof(int));
        ok = W->mark && W->Bp && W->Bi && W->Bx && W->eta_r && W->eta_p && W->eta_piv && W->eta_i && W->eta_x && W->rowb && W->lexrow;
        if (ok) {
            for (int i = 0; i <= n; i++) W->Bp[i] = i;
            for (int i = 0; i < n; i++) {
                W->Bi[i] = i;
                W->Bx[i] = 1.0;
            }
            W->eta_p[0] = 0;
            ok = lcp_sparse_factor_init(&W->F, n, W->Bp, W->Bi, W->Bx, 0, 0) == LCP_SF_OK &&
                 lcp_sparse_factor_refactor(&W->F, W->Bx, LCP_SF_LU) == LCP_SF_OK;
            W->lu_nnz = n;
        }
    }
    if (ok && !sparse) { /* dgetri's optimal workspace */
        int lw = -1, info = 0;
        double q = 0.0;
        dgetri_(&n, W->Binv, &n, W->ipiv, &q, &lw, &info);
        W->nlwork = info == 0 && q >= n ? (int)q : n;
        W->lwork = lcp_alloc((size_t)W->nlwork, sizeof(double));
        ok = W->lwork != NULL;
    }
    if (ok) return 0;
    lemke_work_free(W);
    return LCP_ERROR;
}

/* a = the column of variable v in [I, -S A, -S d] (dense, n). */
static void basis_column(const lemke_work *W, int v, double *a)
{
    int n = W->n;
    if (v == 2 * n) {
        for (int i = 0; i < n; i++) a[i] = -W->ds[i]; /* -S d */
        return;
    }
    memset(a, 0, (size_t)n * sizeof(double));
    if (v < n) {
        a[v] = 1.0; /* e_v */
        return;
    }
    const lcp_csr *T = &W->At;
    for (int k = T->p[v - n]; k < T->p[v - n + 1]; k++) a[T->j[k]] = -T->x[k]; /* -(S A)(:, j) */
}

/* Sparse path. x = B^-1 a: x = B0^-1 a (UMFPACK), then the eta
 * matrices in order, E_t^-1 x: x_r /= abar_r, x_i -= abar_i x_r.  a == x
 * is allowed.  Returns LCP_SF_OK or the failure of the solve. */
int lemke_ftran(lemke_work *W, const double *a, double *x)
{
    W->eta_work += (double)W->eta_p[W->neta];
    int rc = lcp_sparse_factor_solve_transposed(&W->F, a, x); /* F holds B0' as CSR: B0 x = a */
    for (int t = 0; t < W->neta; t++) {
        int r = W->eta_r[t];
        double xr = x[r] / W->eta_piv[t];
        x[r] = xr;
        if (xr == 0.0) continue;
        for (long k = W->eta_p[t]; k < W->eta_p[t + 1]; k++) x[W->eta_i[k]] -= W->eta_x[k] * xr;
    }
    return rc;
}

/* Sparse path. x = B^-T x (in place): row i of B^-1 is B^-T e_i.  B^-T =
 * B0^-T E_1^-T .. E_k^-T: the eta file backwards (E_t^-T changes x_r only:
 * x_r = (x_r - sum_{i != r} abar_i x_i) / abar_r), then UMFPACK's solve
 * with B0' (F's matrix). */
int lemke_btran(lemke_work *W, double *x)
{
    for (int t = W->neta - 1; t >= 0; t--) {
        int r = W->eta_r[t];
        double sum = x[r];
        for (long k = W->eta_p[t]; k < W->eta_p[t + 1]; k++) sum -= W->eta_x[k] * x[W->eta_i[k]];
        x[r] = sum / W->eta_piv[t];
    }
    return lcp_sparse_factor_solve(&W->F, x, x);
}

/* B0 = the current basis in compressed columns and its LU, an empty eta
 * file; the factorisation's status (LCP_SF_SINGULAR keeps the factor). */
int lemke_sparse_factor_basis(lemke_work *W, const int *qinit)
{
    int n = W->n, m = 0;
    const lcp_csr *T = &W->At;
    for (int r = 0; r < n; r++) {
        int v = W->basis[r];
        W->Bp[r] = m;
        if (v < n) { /* e_v */
            W->Bi[m] = v;
            W->Bx[m++] = 1.0;
        } else if (v < 2 * n) { /* -(S A)(:, j): row j of (S A)', columns sorted */
            for (int k = T->p[v - n]; k < T->p[v - n + 1]; k++) {
                W->Bi[m] = T->j[k];
                W->Bx[m++] = -T->x[k];
            }
        } else { /* -S d */
            for (int i = 0; i < n; i++) {
                W->Bi[m] = i;
                W->Bx[m++] = -W->ds[i];
            }
        }
    }
    W->Bp[n] = m;
    W->neta = 0;
    W->eta_work = 0.0;
    int st = lcp_sparse_factor_lu_repattern_q(&W->F, W->Bp, W->Bi, W->Bx, qinit);
    W->lu_nnz = W->F.info[UMFPACK_LNZ] + W->F.info[UMFPACK_UNZ];
    return st;
}

/* lemke_sparse_factor_basis, then beta = B^-1 S b; 0, or -1 when B is singular
 * or the factorisation failed. */
int lemke_sparse_refactor(lemke_work *W)
{
    int n = W->n;
    if (lemke_sparse_factor_basis(W, NULL) != LCP_SF_OK) return -1;
    if (lemke_ftran(W, W->bs, W->beta) != LCP_SF_OK) return -1;
    for (int i = 0; i < n; i++)
        if (!isfinite(W->beta[i])) return -1;
    return 0;
}

/* The eta vector of a pivot at row r with column W->col (before beta's
 * update changes nothing in it); 1 when the file is full (refactor). */
static int eta_append(lemke_work *W, int r)
{
    int n = W->n, t = W->neta;
    long m = W->eta_p[t];
    const double *a = W->col;
    W->eta_r[t] = r;
    W->eta_piv[t] = a[r];
    for (int i = 0; i < n; i++)
        if (a[i] != 0.0 && i != r) {
            W->eta_i[m] = i;
            W->eta_x[m++] = a[i];
        }
    W->eta_p[t + 1] = m;
    W->neta = t + 1;
    return W->neta == ETA_MAX || W->eta_work > REFACTOR_COST * (W->lu_nnz + W->Bp[n] + n) || m + n > W->eta_cap;
}

/* col = B^-1 a_v. */
void lemke_entering_column(lemke_work *W, int v)
{
    int n = W->n;
    if (W->sparse) {
        basis_column(W, v, W->col);
        lemke_ftran(W, W->col, W->col);
        return;
    }
    if (v < n) {
        cblas_dcopy(n, W->Binv + (size_t)v * n, 1, W->col, 1); /* B^-1 e_v */
        return;
    }
    const lcp_csr *T = &W->At;
    if (v < 2 * n && 4L * (T->p[v - n + 1] - T->p[v - n]) < n) { /* sparse column: sum of columns of B^-1 */
        memset(W->col, 0, (size_t)n * sizeof(double));
        for (int k = T->p[v - n]; k < T->p[v - n + 1]; k++)
            cblas_daxpy(n, -T->x[k], W->Binv + (size_t)T->j[k] * n, 1, W->col, 1); /* col -= a_kj B^-1(:, k) */
        return;
    }
    basis_column(W, v, W->tmp);
    cblas_dgemv(CblasColMajor, CblasNoTrans, n, n, 1.0, W->Binv, n, W->tmp, 1, 0.0, W->col, 1); /* B^-1 a_v */
}

/* Variable e enters at row r (column in W->col): beta and B^-1 updated;
 * returns 1 when the sparse path's eta file is full (refactor). */
int lemke_do_pivot(lemke_work *W, int r, int e)
{
    int n = W->n;
    double piv = W->col[r];
    double theta = W->beta[r] / piv; /* the entering variable's new value */
    if (theta < 0.0) theta = 0.0;    /* beta_r = -0 by round-off */
    cblas_daxpy(n, -theta, W->col, 1, W->beta, 1);                /* beta -= theta abar */
    W->beta[r] = theta;                                           /* beta_r = theta */
    int full = 0;
    if (W->sparse) {
        full = eta_append(W, r); /* B <- B E, E = I + (abar - e_r) e_r' */
    } else {
        cblas_dcopy(n, W->Binv + r, n, W->rowr, 1);                   /* e_r' B^-1 */
        W->col[r] -= 1.0;                                             /* abar - e_r */
        cblas_dger(CblasColMajor, n, n, -1.0 / piv, W->col, 1, W->rowr, 1, W->Binv, n); /* eta update */
    }
    W->row_of[W->basis[r]] = -1;
    W->basis[r] = e;
    W->row_of[e] = r;
    return full;
}

/* tmp = S b - B beta, the residual of the basis system; returns its max norm. */
double lemke_basis_residual(lemke_work *W)
{
    int n = W->n;
    const lcp_csr *T = &W->At;
    memcpy(W->tmp, W->bs, (size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) {
        int v = W->basis[i];
        if (v < n) {
            W->tmp[v] -= W->beta[i]; /* - e_v w_v */
        } else if (v < 2 * n) {
            for (int k = T->p[v - n]; k < T->p[v - n + 1]; k++)
                W->tmp[T->j[k]] += T->x[k] * W->beta[i]; /* + (S A)(:, j) z_j */
        } else {
            cblas_daxpy(n, W->beta[i], W->ds, 1, W->tmp, 1); /* + S d z0 */
        }
    }
    return fabs(W->tmp[cblas_idamax(n, W->tmp, 1)]);
}

/* beta += B^-1 (S b - B beta): one step of iterative refinement. */
void lemke_refine(lemke_work *W)
{
    lemke_basis_residual(W);
    if (W->sparse) {
        lemke_ftran(W, W->tmp, W->tmp);
        cblas_daxpy(W->n, 1.0, W->tmp, 1, W->beta, 1);
        return;
    }
    cblas_dgemv(CblasColMajor, CblasNoTrans, W->n, W->n, 1.0, W->Binv, W->n, W->tmp, 1, 1.0, W->beta, 1);
}

/* B^-1 rebuilt from the basis columns (LU), beta = B^-1 S b; 0, or -1
 * when B is singular. */
int lemke_refactor(lemke_work *W)
{
    if (W->sparse) return lemke_sparse_refactor(W);
    int n = W->n, info = 0;
    for (int i = 0; i < n; i++) basis_column(W, W->basis[i], W->Binv + (size_t)i * n); /* B */
    dgetrf_(&n, &n, W->Binv, &n, W->ipiv, &info);                                      /* P B = L U */
    if (info != 0) return -1;
    dgetri_(&n, W->Binv, &n, W->ipiv, W->lwork, &W->nlwork, &info); /* B^-1 */
    if (info != 0) return -1;
    cblas_dgemv(CblasColMajor, CblasNoTrans, n, n, 1.0, W->Binv, n, W->bs, 1, 0.0, W->beta, 1); /* beta */
    return 0;
}

/* x = the basic z values (z0 excluded), 0 elsewhere; returns z0. */
double lemke_current_z(const lemke_work *W, double *x)
{
    int n = W->n;
    memset(x, 0, (size_t)n * sizeof(double));
    for (int i = 0; i < n; i++)
        if (W->basis[i] >= n && W->basis[i] < 2 * n) x[W->basis[i] - n] = W->beta[i];
    return W->row_of[2 * n] >= 0 ? W->beta[W->row_of[2 * n]] : 0.0;
}

int lemke_ratio_ties(int n, const double *a, const double *beta, const int *basis, int *cand, int *nc)
{
    double amax = 0.0, bmax = 1.0;
    for (int i = 0; i < n; i++) amax = fmax(amax, fabs(a[i])), bmax = fmax(bmax, fabs(beta[i]));
    double ptol = PIVOT_TOL * fmax(1.0, amax); /* entries below it do not block */
    double theta = INFINITY;
    for (int i = 0; i < n; i++)
        if (a[i] > ptol) theta = fmin(theta, fmax(beta[i], 0.0) / a[i]); /* the step to the first zero */
    if (theta == INFINITY) return -1;
    *nc = 0;
    for (int i = 0; i < n; i++)
        if (a[i] > ptol && fmax(beta[i], 0.0) - theta * a[i] <= TIE_TOL * bmax) { /* reaches 0 with the step */
            if (basis[i] == 2 * n) return i;                                     /* z0 leaves: done */
            cand[(*nc)++] = i;
        }
    return -2;
}

int lemke_lexico_dense(int n, const double *a, const double *Binv, int *cand, int nc)
{
    for (int k = 0; k < n && nc > 1; k++) { /* lexico-min over the columns of B^-1 */
        const double *bk = Binv + (size_t)k * n;
        double vmin = INFINITY, vabs = 0.0;
        for (int c = 0; c < nc; c++) {
            double v = bk[cand[c]] / a[cand[c]]; /* (B^-1)_ik / abar_i */
            vmin = fmin(vmin, v);
            vabs = fmax(vabs, fabs(v));
        }
        if (vabs == 0.0) continue;
        int keep = 0;
        for (int c = 0; c < nc; c++)
            if (bk[cand[c]] / a[cand[c]] <= vmin + LEX_TOL * vabs) cand[keep++] = cand[c];
        nc = keep;
    }
    int r = cand[0];
    for (int c = 1; c < nc; c++) /* unresolved by round-off: the largest pivot */
        if (a[cand[c]] > a[r]) r = cand[c];
    return r;
}
