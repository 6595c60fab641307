/* src/solvers/pivot_crash.c: the crash start of pivot (src/solvers/pivot.c,
 * whose header describes it; Dirkse and Ferris 1997): the clamped set of
 * a guess x*, its factor bordered a block at a time with the dependent
 * rows dropped (crash_factor), the purification of an lcp's dropped loads
 * (lcp_crash_purify), x_C solved and refined, and the rows left
 * non-complementary handed back to the first pass.
 */
#include "pivot_internal.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CRASH_X 1e-9      /* crash: x*_k clamped when more than CRASH_X max|x*| inside its box ... */
#define CRASH_DEP 1e-10   /* crash: a pivot below CRASH_DEP A_kk is a dependent row: dropped from C */

/* The crash start's factor: C = the rows cand[0..m) in that order, less
 * the dependent ones, A_CC = L U, bordered a block of LU_BLOCK rows B at
 * a time onto the factor of the rows kept so far (left-looking, so that a
 * dependent row costs no update of the others: BLAS 3 over the kept set
 * only):  U_CB = L^-1 A_CB, L_BC = (U'^-1 A_BC')', S = A_BB - L_BC U_CB,
 * then S = L_BB U_BB unblocked, where a pivot below CRASH_DEP A_kk marks
 * row k dependent on the rows before it (for a symmetric positive
 * semidefinite A its whole Schur row and column are then ~0): it is
 * dropped -- its column of L_BB set to 0, so it eliminates nothing, and
 * its rows and columns left out -- which leaves the factors of the smaller
 * A_CC exactly, no regularisation.  A pivot below -PIV_NEG A_kk: -1, no
 * verdict (the crash fails).  Workspace: W->blk (2 n + LU_BLOCK) LU_BLOCK. */
static int crash_factor(pv *W, const int *cand, int m)
{
    const lcp_csr *A = &W->p->A, *T = &W->At;
    int n = W->n, c = 0, nb = LU_BLOCK;
    double *L = W->L, *Ut = W->Ut, *Y = W->blk, *Z = Y + (size_t)n * nb, *S = Z + (size_t)n * nb;
    W->zc_row = -1;
    for (int k = 0; k < n; k++) W->pos[k] = -1;
    for (int b0 = 0; b0 < m; b0 += nb) {
        int bs = m - b0 < nb ? m - b0 : nb;
        const int *B = cand + b0;
        for (int j = 0; j < bs; j++) {
            memset(Y + (size_t)j * n, 0, (size_t)c * sizeof(double));
            memset(Z + (size_t)j * n, 0, (size_t)c * sizeof(double));
        }
        memset(S, 0, (size_t)nb * nb * sizeof(double));
        for (int j = 0; j < bs; j++) W->pos[B[j]] = c + j; /* B after C, for the gathers */
        for (int j = 0; j < bs; j++) {
            int k = B[j];
            for (int e = T->p[k]; e < T->p[k + 1]; e++) { /* column k of A: A_Ck, A_Bk */
                int q = W->pos[T->j[e]];
                if (q >= c) S[(q - c) + (size_t)j * nb] = T->x[e];
                else if (q >= 0) Y[q + (size_t)j * n] = T->x[e];
            }
            for (int e = A->p[k]; e < A->p[k + 1]; e++) { /* row k of A: A_kC */
                int q = W->pos[A->j[e]];
                if (q >= 0 && q < c) Z[q + (size_t)j * n] = A->x[e];
            }
        }
        if (c) {
            cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, c, bs, 1.0, L, n, Y, n);
            cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, c, bs, 1.0, Ut, n, Z, n);
            cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, bs, bs, c, -1.0, Z, n, Y, n, 1.0, S, nb);
        }
        for (int j = 0; j < bs; j++) { /* S = L_BB U_BB, dropping the dependent rows */
            double *sj = S + j + (size_t)j * nb, sc = piv_scale(W, B[j]);
            if (*sj < -PIV_NEG * sc) return -1;
            if ((W->dropq[j] = *sj < CRASH_DEP * sc)) { /* dependent: eliminates nothing */
                memset(sj + 1, 0, (size_t)(bs - j - 1) * sizeof(double));
                continue;
            }
            cblas_dscal(bs - j - 1, 1.0 / *sj, sj + 1, 1);
            if (j + 1 < bs) cblas_dger(CblasColMajor, bs - j - 1, bs - j - 1, -1.0, sj + 1, 1, sj + nb, nb, sj + nb + 1, nb);
        }
        for (int q = 0; q < c; q++) /* rows c.. of L and Ut, columns of C: L_BC = Z', U_CB = Y */
            for (int j = 0, r = c; j < bs; j++)
                if (!W->dropq[j]) {
                    L[r + (size_t)q * n] = Z[q + (size_t)j * n];
                    Ut[r++ + (size_t)q * n] = Y[q + (size_t)j * n];
                }
        for (int i = 0, ri = c; i < bs; i++) { /* the kept block: L_BB below, U_BB on and above the diagonal */
            if (W->dropq[i]) continue;
            for (int j = 0, rj = c; j < bs; j++) {
                if (W->dropq[j]) continue;
                if (j < i) L[ri + (size_t)rj * n] = S[i + (size_t)j * nb];
                else Ut[rj + (size_t)ri * n] = S[i + (size_t)j * nb]; /* U(ri, rj) */
                rj++;
            }
            ri++;
        }
        for (int j = 0; j < bs; j++) {
            W->pos[B[j]] = -1;
            if (!W->dropq[j]) {
                W->cidx[c] = B[j];
                W->pos[B[j]] = c++;
            }
        }
    }
    W->nc = c;
    W->updates = 0;
    return 0;
}

/* Row k of the crash, not clamped: x_k at the bound of its box nearer the
 * guess g_k (S_LO, S_HI); a free row with no clear load untaken at 0. */
static void at_nearer_bound(pv *W, int k, double gk, double *x)
{
    double lo = W->lo[k], hi = W->hi[k];
    if (isfinite(lo) && (!isfinite(hi) || gk - lo <= hi - gk)) {
        x[k] = lo;
        W->state[k] = S_LO;
    } else if (isfinite(hi)) {
        x[k] = hi;
        W->state[k] = S_HI;
    } else {
        x[k] = 0.0;
        W->state[k] = S_U;
    }
}

/* The crash start from the guess g = W->guess (Dirkse and Ferris 1997; the
 * start of PATH and of lemke --crash).  With the bounds at g and
 * w* = A g + b, row k is clamped where g_k lies more than CRASH_X max|g|
 * inside its box and A_kk (g_k - lo_k) > w*_k, A_kk (hi_k - g_k) > -w*_k
 * (its load outweighs its w*; free rows always), else at its nearer bound.
 * C in order of decreasing load (free rows first) is factored with the
 * dependent rows dropped (crash_factor), which go to their bound; then
 * A_CC x_C = -(b_C + A_CN x_N).  Rows left non-complementary -- k in C
 * with x_k outside its box, k at a bound with w_k on the wrong side --
 * become untaken with x_k kept (removing a clamped row while x_k stays
 * leaves every other x and w_C as they are); the first pass takes them.
 * Returns 0 (W->crashed, the crash point checked by the monitor as one
 * pivot), 1 when the monitor stops there, -1 when the factor fails (no
 * verdict: the first pass starts from scratch). */
int pivot_crash(pv *W, double *x, double deadline, int *nclamp, int *ndep, int *npur, int *nout)
{
    const lcp_problem *p = W->p;
    const lcp_csr *A = &p->A;
    int n = W->n, m = 0;
    const double *g = W->guess;
    double *w = W->w, gmax = 0.0;
    for (int k = 0; k < n; k++) gmax = fmax(gmax, fabs(g[k]));
    double thr = CRASH_X * gmax;
    lcp_csr_matvec(A, g, w);
    for (int k = 0; k < n; k++) {
        double lo, hi;
        lcp_problem_bounds(p, g, k, &lo, &hi);
        W->lo[k] = lo;
        W->hi[k] = hi;
        W->pos[k] = -1;
        w[k] += p->b[k];
        double dl = g[k] - lo, dh = hi - g[k];
        if (!(lo < hi)) {
            x[k] = lo;
            W->state[k] = S_FIX;
        } else if (dl > thr && dh > thr && W->diag[k] * dl > w[k] && W->diag[k] * dh > -w[k]) {
            W->key[m++] = (lcp_crash_key){isfinite(dl) || isfinite(dh) ? -W->diag[k] * fmin(dl, dh) : -INFINITY, k};
            W->state[k] = S_C;
        } else {
            at_nearer_bound(W, k, g[k], x);
        }
    }
    qsort(W->key, (size_t)m, sizeof *W->key, lcp_crash_key_cmp);
    for (int q = 0; q < m; q++) W->cand[q] = W->key[q].j;
    *nclamp = m;
    if (crash_factor(W, W->cand, m)) return -1;
    *ndep = m - W->nc;
    *npur = -1;
    if (p->kind == LCP_KIND_LCP && *ndep > 0) { /* purified to a vertex: the loads of the dropped rows onto C */
        char *isz = W->dropq;
        int *dep = W->dep;
        int nd = 0;
        for (int k = 0; k < n; k++) isz[k] = W->pos[k] >= 0;
        for (int q = 0; q < m; q++)
            if (W->pos[W->key[q].j] < 0) dep[nd++] = W->key[q].j;
        if (lcp_crash_purify(p, g, isz, dep, nd, npur, deadline) == 0) {
            int c = 0;
            for (int q = 0; q < W->nc; q++) /* the rows kept, in their order, then those that came in */
                if (isz[W->cidx[q]]) W->cand[c++] = W->cidx[q];
            for (int q = 0; q < nd; q++)
                if (isz[dep[q]]) W->cand[c++] = dep[q];
            if (crash_factor(W, W->cand, c)) return -1;
            *ndep = m - W->nc;
        }
    }
    for (int q = 0; q < m; q++) { /* the dropped rows: at their nearer bound (a free row untaken) */
        int k = W->key[q].j;
        if (W->pos[k] < 0) at_nearer_bound(W, k, g[k], x);
    }
    /* x_C = -A_CC^-1 (b_C + A_CN x_N), then up to two steps of refinement */
    for (int q = 0; q < W->nc; q++) x[W->cidx[q]] = 0.0;
    for (int it = 0; it < 3; it++) {
        lcp_csr_matvec(A, x, w);
        double drift = 0.0;
        for (int k = 0; k < n; k++) w[k] += p->b[k];
        for (int q = 0; q < W->nc; q++) drift = fmax(drift, fabs(w[W->cidx[q]]));
        if (it > 0 && !(drift > REFINE * W->wscale)) break;
        for (int q = 0; q < W->nc; q++) W->dxc[q] = -w[W->cidx[q]];
        pivot_cc_solve(W, W->dxc);
        for (int q = 0; q < W->nc; q++) x[W->cidx[q]] += W->dxc[q];
        if (it == 2) {
            lcp_csr_matvec(A, x, w);
            for (int k = 0; k < n; k++) w[k] += p->b[k];
        }
    }
    /* the rows left non-complementary: untaken, x kept */
    int bad = 0;
    double cost = 0.0, mm = W->nc;
    for (int k = 0; k < n; k++) {
        int st = W->state[k];
        if (st == S_LO || st == S_HI) {
            double wabs = fabs(p->b[k]);
            for (int e = A->p[k]; e < A->p[k + 1]; e++) wabs += fabs(A->x[e] * x[A->j[e]]);
            double wtiny = 64 * DBL_EPSILON * wabs;
            if (st == S_LO ? w[k] < -wtiny : w[k] > wtiny) {
                W->state[k] = S_U;
                bad++;
            }
        } else if (st == S_C && (x[k] < W->lo[k] || x[k] > W->hi[k])) {
            W->dropq[W->pos[k]] = 1;
            cost += mm - W->pos[k];
            bad++;
        } else if (st == S_C) {
            W->dropq[W->pos[k]] = 0;
        }
    }
    *nout = bad;
    if (cost > mm * mm / 96) { /* many: the rest factored afresh */
        int c = 0;
        for (int q = 0; q < W->nc; q++) {
            int k = W->cidx[q];
            if (W->dropq[q]) {
                W->pos[k] = -1;
                W->state[k] = S_U;
                continue;
            }
            W->cidx[c] = k;
            W->pos[k] = c++;
        }
        W->nc = c;
        if (pivot_refactor(W)) return -1;
    } else { /* few: one at a time, the last first */
        for (int q = W->nc - 1; q >= 0; q--)
            if (W->dropq[q] && pivot_c_remove(W, q, S_U)) return -1;
    }
    W->crashed = 1;
    W->seen = 0;
    int quick = W->quick; /* the crash's point is checked, not ticked: it often solves already */
    W->quick = 0;
    int rc = pivot_done(W, x);
    W->quick = quick;
    return rc ? 1 : 0;
}
