/* src/solvers/pivot_factor.c: the factors of the clamped block of pivot
 * (src/solvers/pivot.c, whose header describes the method):
 * A_CC = L U without pivoting, L unit lower, U kept as U', dense n x n
 * each; solves by the vector loops of pivot_kernels.c (dtrsv at n > 2048);
 * a row joining C borders the factors (A symmetric: its row of L from its
 * column of U, l = D^-1 u, and u from the drive's first solve), a row
 * leaving C drops its row and column and updates the trailing block by
 * rank 1 (Bennett 1965); every 2|C| + 200 changes, and when an update
 * loses accuracy, the blocked refactorisation from A; the floor and the
 * sign test of each new pivot (regularisation, or the verdict that A is
 * not positive semidefinite).
 */
#include "pivot_internal.h"

#include <cblas.h>
#include <math.h>
#include <string.h>

#define PIV_REG 1e-12     /* smallest pivot, relative to A_kk (regularisation) */

/* The triangular solves in the loops of pivot_kernels.c (four columns at a
 * time) up to n = SMALL_N: BLAS's dtrsv costs more in its call (a buffer
 * taken under a lock) than the solve of a block of a few rows, and its
 * blocking pays only on large blocks (on dense SPD problems of n = 300, the
 * kernels' solves take less time than dtrsv's).  T lower, column-major,
 * leading dimension ld; m rows. */
#define SMALL_N 2048

static void trsv(const pv *W, int m, const double *T, int trans, int unit, double *v)
{
    if (W->n <= SMALL_N) pivot_trsv(m, T, (size_t)W->n, trans, unit, v);
    else cblas_dtrsv(CblasColMajor, CblasLower, trans ? CblasTrans : CblasNoTrans, unit ? CblasUnit : CblasNonUnit, m, T,
                     W->n, v, 1);
}

/* v <- L^-1 v, v <- U^-1 v, v <- A_CC^-1 v (v: |C| entries, factor order). */
void pivot_cc_solve_l(const pv *W, double *v)
{
    if (W->nc) trsv(W, W->nc, W->L, 0, 1, v); /* L z = v */
}

void pivot_cc_solve_u(const pv *W, double *v)
{
    if (W->nc) trsv(W, W->nc, W->Ut, 1, 0, v); /* U y = z */
}

void pivot_cc_solve(const pv *W, double *v)
{
    pivot_cc_solve_l(W, v);
    pivot_cc_solve_u(W, v);
}

/* A negative Schur complement d of row k on the clamped set (m rows).  With
 * v = (vk at k, vc[q] at cidx[q]) -- the direction whose v'Av is d in exact
 * arithmetic -- v'Av is recomputed from A itself: clearly negative (below
 * -PIV_NEG sum_r |v_r| (|A||v|)_r), it proves that A is not positive
 * semidefinite; otherwise d is rounding on a near-singular clamped set
 * (pyramid-30 from scratch: 1,121 clamped rows of a singular semidefinite
 * A) and nothing is decided.  Without v (a refactorisation): the proof is
 * taken from d while no pivot of A_CC was raised by the regularisation
 * (after one was, A_CC^-1 amplifies the rounding by 1/PIV_REG). */
int pivot_negative_schur(pv *W, int k, int m, double d, const double *vc, double vk)
{
    int proof = !W->regs;
    double q = 0.0, qs = 0.0;
    if (vc) {
        const lcp_csr *A = &W->p->A;
        double *v = W->xv;
        memset(v, 0, (size_t)W->n * sizeof(double));
        v[k] = vk;
        for (int c = 0; c < m; c++) v[W->cidx[c]] = vc[c];
        for (int c = -1; c < m; c++) { /* v'Av over the support of v */
            int r = c < 0 ? k : W->cidx[c];
            double sr = 0.0, sa = 0.0;
            for (int e = A->p[r]; e < A->p[r + 1]; e++) {
                sr += A->x[e] * v[A->j[e]];
                sa += fabs(A->x[e] * v[A->j[e]]);
            }
            q += v[r] * sr;
            qs += fabs(v[r]) * sa;
        }
        proof = q < -PIV_NEG * qs;
    }
    if (!proof && vc)
        return pivot_verdict(W, LCP_ERROR,
                       "cannot decide: the Schur complement of row %d on the clamped set (%d rows) is %.3g < 0, "
                       "but v'Av from A is %.3g (scale %.3g): rounding on a near-singular clamped set, as for a "
                       "singular semidefinite A (try ipm or lemke)",
                       k + 1, m, d, q, qs);
    if (!proof)
        return pivot_verdict(W, LCP_ERROR,
                       "cannot decide: the Schur complement of row %d on the clamped set (%d rows) is %.3g < 0, "
                       "but %ld pivots were regularised (A_CC singular): within rounding if A is positive "
                       "semidefinite and singular (try ipm or lemke)",
                       k + 1, m, d, W->regs);
    return pivot_verdict(W, LCP_ERROR,
                   "A is not positive semidefinite: the Schur complement of row %d on the clamped set "
                   "(%d rows) is %.3g < 0; pivot needs A positive (semi)definite (try lemke)",
                   k + 1, m, d);
}

/* Checks a new pivot d of row k: raised to the floor, or -1 if negative. */
static int check_pivot(pv *W, int k, double *d)
{
    double s = piv_scale(W, k);
    if (*d < -PIV_NEG * s)
        return pivot_negative_schur(W, k, W->nc, *d, NULL, 0.0);
    if (*d < PIV_REG * s) {
        *d = PIV_REG * s; /* redundant row: regularise (a tiny diagonal term) */
        W->regs++;
    }
    return 0;
}

/* Refactors A_CC = L U from A (blocked, no pivoting: A_CC is P / PD). */
int pivot_refactor(pv *W)
{
    int m = W->nc, n = W->n;
    double *a = W->L;
    const lcp_csr *T = &W->At;
    W->zc_row = -1;
    for (int q = 0; q < m; q++) { /* column q of A_CC = column cidx[q] of A at rows C */
        double *col = a + (size_t)q * n;
        memset(col, 0, (size_t)m * sizeof(double));
        int k = W->cidx[q];
        for (int e = T->p[k]; e < T->p[k + 1]; e++)
            if (W->pos[T->j[e]] >= 0) col[W->pos[T->j[e]]] = T->x[e];
    }
    for (int k0 = 0; k0 < m; k0 += LU_BLOCK) {
        int kb = m - k0 < LU_BLOCK ? m - k0 : LU_BLOCK, k1 = k0 + kb;
        for (int j = k0; j < k1; j++) { /* the panel, unblocked */
            double *ajj = a + j + (size_t)j * n;
            if (check_pivot(W, W->cidx[j], ajj)) return -1;
            cblas_dscal(m - j - 1, 1.0 / *ajj, ajj + 1, 1); /* L(j+1:, j) */
            if (j + 1 < k1)                                  /* panel columns j+1..k1-1 */
                cblas_dger(CblasColMajor, m - j - 1, k1 - j - 1, -1.0, ajj + 1, 1, ajj + n, n, ajj + n + 1, n);
        }
        if (k1 < m) {
            double *a11 = a + k0 + (size_t)k0 * n, *a12 = a + k0 + (size_t)k1 * n;
            double *a21 = a + k1 + (size_t)k0 * n, *a22 = a + k1 + (size_t)k1 * n;
            cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, kb, m - k1, 1.0, a11, n,
                        a12, n); /* U12 = L11^-1 A12 */
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m - k1, m - k1, kb, -1.0, a21, n, a12, n, 1.0,
                        a22, n); /* A22 -= L21 U12 */
        }
    }
    for (int j = 0; j < m; j++) /* Ut = U' */
        for (int i = 0; i <= j; i++) W->Ut[j + (size_t)i * n] = a[i + (size_t)j * n];
    W->updates = 0;
    return 0;
}

static int count_update(pv *W)
{
    return ++W->updates > 2 * W->nc + 200 ? pivot_refactor(W) : 0;
}

/* Row k joins C at the end: borders L and U (A_CC grows by A_Ck, A_kC, A_kk). */
int pivot_c_add(pv *W, int k)
{
    int m = W->nc, n = W->n;
    const lcp_csr *A = &W->p->A, *T = &W->At;
    double *u = W->dxc, *l = W->tmp;
    if (W->zc_row == k) { /* L^-1 A(C, k) from the drive of row k, the factor unchanged since */
        memcpy(u, W->zc, (size_t)m * sizeof(double));
    } else {
        memset(u, 0, (size_t)m * sizeof(double));
        if (W->perm) { /* A(C, k) = A(k, C)': row k of A, its columns permuted */
            pivot_perm_sync(W);
            const double *rk = W->Ad + (size_t)k * n;
            for (int q = 0; q < m; q++) u[q] = rk[W->cpq[q]];
        } else if (W->Ad) {
            const double *ck = W->Ad + (size_t)k * n;
            for (int q = 0; q < m; q++) u[q] = ck[W->cidx[q]];
        } else {
            for (int e = T->p[k]; e < T->p[k + 1]; e++) /* u = A(C, k) */
                if (W->pos[T->j[e]] >= 0) u[W->pos[T->j[e]]] = T->x[e];
        }
        if (m) trsv(W, m, W->L, 0, 1, u); /* L u = A(C,k) */
    }
    W->zc_row = -1;
    if (W->at_shared) { /* A symmetric: U = D L', so U'^-1 A(k,C)' = D^-1 u */
        for (int q = 0; q < m; q++) l[q] = u[q] / W->Ut[q + (size_t)q * n];
    } else {
        memset(l, 0, (size_t)m * sizeof(double));
        for (int e = A->p[k]; e < A->p[k + 1]; e++) /* l = A(k, C)' */
            if (W->pos[A->j[e]] >= 0) l[W->pos[A->j[e]]] = A->x[e];
        if (m) trsv(W, m, W->Ut, 0, 0, l); /* U' l = A(k,C)' */
    }
    double d = W->diag[k]; /* the Schur complement of k */
    if (m && n <= SMALL_N)
        for (int q = 0; q < m; q++) d -= l[q] * u[q];
    else if (m)
        d -= cblas_ddot(m, l, 1, u, 1);
    W->cidx[m] = k;
    W->pos[k] = m;
    W->state[k] = S_C;
    if (d < -PIV_NEG * piv_scale(W, k)) { /* v = (-A_CC^-1 A_Ck, 1): v'Av = d */
        if (m) trsv(W, m, W->Ut, 1, 0, u);
        for (int q = 0; q < m; q++) u[q] = -u[q];
        return pivot_negative_schur(W, k, m, d, u, 1.0);
    }
    if (check_pivot(W, k, &d)) return -1;
    for (int q = 0; q < m; q++) {
        W->L[m + (size_t)q * n] = l[q];  /* row m of L */
        W->Ut[m + (size_t)q * n] = u[q]; /* column m of U */
    }
    W->L[m + (size_t)m * n] = 1.0;
    W->Ut[m + (size_t)m * n] = d;
    W->nc = m + 1;
    return count_update(W);
}

/* The row at position p of C leaves it: drop its row and column of L and U,
 * then the rank-1 update L2 U2 + x y' of the trailing block (Bennett). */
int pivot_c_remove(pv *W, int p, int newstate)
{
    int m = W->nc, n = W->n, k = W->cidx[p];
    double *L = W->L, *Ut = W->Ut, *x = W->xv, *y = W->yv;
    W->zc_row = -1;
    int r = m - 1 - p; /* trailing size */
    memcpy(x, L + (p + 1) + (size_t)p * n, (size_t)r * sizeof(double));  /* L(p+1:, p) */
    memcpy(y, Ut + (p + 1) + (size_t)p * n, (size_t)r * sizeof(double)); /* U(p, p+1:)' */
    for (int j = 0; j < p; j++) { /* columns left of p: rows below p move up */
        pivot_move(r, L + p + (size_t)j * n, L + p + 1 + (size_t)j * n);
        pivot_move(r, Ut + p + (size_t)j * n, Ut + p + 1 + (size_t)j * n);
    }
    for (int j = p + 1; j < m; j++) { /* columns right of p move left and up */
        pivot_move(m - j, L + (j - 1) + (size_t)(j - 1) * n, L + j + (size_t)j * n);
        pivot_move(m - j, Ut + (j - 1) + (size_t)(j - 1) * n, Ut + j + (size_t)j * n);
    }
    for (int q = p; q < m - 1; q++) {
        W->cidx[q] = W->cidx[q + 1];
        W->pos[W->cidx[q]] = q;
    }
    W->pos[k] = -1;
    W->state[k] = newstate;
    W->nc = m - 1;
    for (int i = 0; i < r; i++) { /* Bennett: L U + x y' on positions p.. */
        int ii = p + i;
        double *lc = L + (size_t)ii * n, *uc = Ut + (size_t)ii * n;
        double d = uc[ii], xi = x[i], yi = y[i], dn = d + xi * yi; /* new pivot */
        if (!(dn > PIV_REG * piv_scale(W, W->cidx[ii]))) return pivot_refactor(W); /* lost accuracy: afresh */
        if (xi == 0.0 && yi == 0.0) continue;
        for (int j = i + 1; j < r; j++) {
            int jj = p + j;
            double xj = x[j], yj = y[j];
            x[j] = xj - xi * lc[jj];            /* x2 - x1 l */
            lc[jj] = (lc[jj] * d + xj * yi) / dn; /* (l u11 + x2 y1) / u11' */
            y[j] = (d * yj - yi * uc[jj]) / dn; /* (u11 y2 - y1 u) / u11' */
            uc[jj] += xi * yj;                  /* u + x1 y2 */
        }
        uc[ii] = dn;
    }
    return count_update(W);
}
