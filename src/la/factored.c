/* src/la/factored.c: the factored form's M^-1 J' (A = J M^-1 J'), computed
 * blockwise: M is split into the components of its graph (the bodies'
 * blocks, usually 6 x 6 or diagonal), each block is inverted densely
 * (Cholesky), and row i of Y = (M^-1 J')' is those inverses applied to the
 * parts of j_i on the blocks it touches: O(nnz(J) k) for blocks of k
 * columns.  CHOLMOD's spsolve of M \ J' costs O(n nb) (dense column
 * chunks): 35 s at 10000 contacts.  A block of more than BLOCK_MAX columns
 * (M not block-diagonal) takes the CHOLMOD route.  Used by the si solver
 * and by lcp_problem_finish to form A = J Y'. */
#include "factored.h"
#include "suitesparse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Y = (M \ J')' through CHOLMOD (any SPD M): X = M \ J' column by column
 * costs O(n nb); used only when M has a block larger than BLOCK_MAX. */
static int minv_jt_cholmod(const lcp_problem *p, lcp_csr *Y, lcp_err *err)
{
    cholmod_common c;
    lcp_cholmod_start(&c);
    cholmod_sparse Mt = lcp_csr_as_cholmod(&p->M, 0);
    cholmod_sparse Jt = lcp_csr_as_cholmod(&p->J, 0); /* J' (nb x n) */
    cholmod_sparse *Ml = cholmod_copy(&Mt, -1, 1, &c);
    cholmod_factor *L = NULL;
    cholmod_sparse *X = NULL;
    int rc = 0;
    if (!Ml) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory factoring M");
        goto done;
    }
    L = cholmod_analyze(Ml, &c);
    if (L) lcp_cholmod_factorize(Ml, 0.0, L, &c);
    if (!L || c.status == CHOLMOD_NOT_POSDEF || L->minor < L->n) {
        rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "the mass matrix M is not positive definite");
        goto done;
    }
    X = cholmod_spsolve(CHOLMOD_A, L, &Jt, &c); /* nb x n: column i = M^-1 j_i' */
    if (!X || !X->packed || X->xtype != CHOLMOD_REAL) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "cannot form M^-1 J' (out of memory)");
        goto done;
    }
    {
        lcp_csr T; /* the CSC of X is the CSR of X' = Y */
        T.m = (int)X->ncol;
        T.n = (int)X->nrow;
        T.p = X->p;
        T.j = X->i;
        T.x = X->x;
        if (lcp_csr_copy(Y, &T)) rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    }
done:
    cholmod_free_sparse(&Ml, &c);
    cholmod_free_sparse(&X, &c);
    cholmod_free_factor(&L, &c);
    cholmod_finish(&c);
    return rc;
}

/* In place inverse of the SPD k x k matrix a (row-major, symmetric) by
 * Cholesky a = L L', then a^-1 = L^-T L^-1 column by column; non-zero if
 * a is not positive definite. */
static int spd_inverse(int k, double *a, double *work)
{
    double *L = work, *col = work + (size_t)k * k;
    for (int i = 0; i < k; i++)
        for (int j = 0; j <= i; j++) {
            double sum = a[i * k + j];
            for (int q = 0; q < j; q++) sum -= L[i * k + q] * L[j * k + q];
            if (i == j) {
                if (!(sum > 0)) return 1;
                L[i * k + i] = sqrt(sum);
            } else {
                L[i * k + j] = sum / L[j * k + j];
            }
        }
    for (int c = 0; c < k; c++) {
        for (int i = 0; i < k; i++) { /* L y = e_c */
            double sum = i == c ? 1.0 : 0.0;
            for (int q = 0; q < i; q++) sum -= L[i * k + q] * col[q];
            col[i] = sum / L[i * k + i];
        }
        for (int i = k - 1; i >= 0; i--) { /* L' z = y */
            double sum = col[i];
            for (int q = i + 1; q < k; q++) sum -= L[q * k + i] * col[q];
            col[i] = sum / L[i * k + i];
        }
        for (int i = 0; i < k; i++) a[i * k + c] = col[i];
    }
    return 0;
}

/* Y = (M^-1 J')' (n x nb CSR, owned).  M block-diagonal (its graph's
 * components: the bodies, usually 6 x 6 or diagonal): one dense inverse a
 * block, and row i of Y = the blocks' inverses times the parts of j_i on
 * the blocks it touches, O(nnz(J) k).  A block above BLOCK_MAX columns
 * (M not block-diagonal in the bodies' sense) takes CHOLMOD instead. */
#define BLOCK_MAX 64
int lcp_minv_jt(const lcp_problem *p, lcp_csr *Y, lcp_err *err)
{
    int nb = p->M.m, n = p->J.m, rc = 0;
    const int *mp = p->M.p, *mj = p->M.j;
    memset(Y, 0, sizeof *Y);
    int *comp = lcp_alloc((size_t)nb, sizeof(int)), *bptr = lcp_alloc((size_t)nb + 1, sizeof(int));
    int *cols = lcp_alloc((size_t)nb, sizeof(int)), *posn = lcp_alloc((size_t)nb, sizeof(int));
    int *stamp = lcp_alloc((size_t)nb, sizeof(int));
    long *boff = lcp_alloc((size_t)nb + 1, sizeof(long));
    double *inv = NULL, *work = NULL, *jb = NULL;
    if (!comp || !bptr || !cols || !posn || !stamp || !boff) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    /* components of M's graph, by breadth-first search: cols[bptr[b]..] */
    for (int c = 0; c < nb; c++) comp[c] = -1;
    int nblk = 0, top = 0, kmax = 0;
    long isize = 0;
    for (int c0 = 0; c0 < nb; c0++) {
        if (comp[c0] >= 0) continue;
        bptr[nblk] = top;
        comp[c0] = nblk;
        cols[top++] = c0;
        for (int h = bptr[nblk]; h < top; h++)
            for (int e = mp[cols[h]]; e < mp[cols[h] + 1]; e++)
                if (comp[mj[e]] < 0) {
                    comp[mj[e]] = nblk;
                    cols[top++] = mj[e];
                }
        int k = top - bptr[nblk];
        if (k > BLOCK_MAX) {
            rc = minv_jt_cholmod(p, Y, err);
            goto done;
        }
        for (int h = bptr[nblk]; h < top; h++) posn[cols[h]] = h - bptr[nblk];
        boff[nblk] = isize;
        isize += (long)k * k;
        kmax = k > kmax ? k : kmax;
        nblk++;
    }
    bptr[nblk] = top;
    boff[nblk] = isize;
    inv = lcp_calloc((size_t)(isize ? isize : 1), sizeof(double));
    work = lcp_alloc((size_t)kmax * (kmax + 1) + 1, sizeof(double));
    jb = lcp_calloc((size_t)kmax + 1, sizeof(double));
    if (!inv || !work || !jb) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    for (int b = 0; b < nblk; b++) {
        int k = bptr[b + 1] - bptr[b];
        double *a = inv + boff[b];
        for (int h = 0; h < k; h++) {
            int r = cols[bptr[b] + h];
            for (int e = mp[r]; e < mp[r + 1]; e++) a[h * k + posn[mj[e]]] = p->M.x[e];
        }
        if (spd_inverse(k, a, work)) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                          "the mass matrix M is not positive definite (its block at column %d)",
                          cols[bptr[b]] + 1);
            goto done;
        }
    }
    /* rows of Y: count, then fill */
    long nnz = 0;
    for (int c = 0; c < nb; c++) stamp[c] = -1;
    for (int i = 0; i < n; i++)
        for (int e = p->J.p[i]; e < p->J.p[i + 1]; e++) {
            int b = comp[p->J.j[e]];
            if (stamp[b] == i) continue;
            stamp[b] = i;
            nnz += bptr[b + 1] - bptr[b];
        }
    if (nnz > 2147483647L || lcp_csr_alloc(Y, n, nb, nnz)) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory for M^-1 J'");
        goto done;
    }
    for (int c = 0; c < nb; c++) stamp[c] = -1;
    long q = 0;
    for (int i = 0; i < n; i++) {
        Y->p[i] = (int)q;
        for (int e0 = p->J.p[i]; e0 < p->J.p[i + 1]; e0++) {
            int b = comp[p->J.j[e0]];
            if (stamp[b] == i) continue;
            stamp[b] = i;
            int k = bptr[b + 1] - bptr[b];
            const double *a = inv + boff[b];
            for (int e = p->J.p[i]; e < p->J.p[i + 1]; e++) /* j_i on block b */
                if (comp[p->J.j[e]] == b) jb[posn[p->J.j[e]]] += p->J.x[e];
            for (int h = 0; h < k; h++) {
                double sum = 0.0;
                for (int g = 0; g < k; g++) sum += a[h * k + g] * jb[g];
                Y->j[q] = cols[bptr[b] + h];
                Y->x[q++] = sum;
            }
            for (int g = 0; g < k; g++) jb[g] = 0.0;
        }
    }
    Y->p[n] = (int)q;
    for (int i = 0; i < n; i++) /* columns sorted within each row (the CSR contract): insertion sort */
        for (int e = Y->p[i] + 1; e < Y->p[i + 1]; e++) {
            int cj = Y->j[e];
            double cx = Y->x[e];
            int f = e;
            for (; f > Y->p[i] && Y->j[f - 1] > cj; f--) {
                Y->j[f] = Y->j[f - 1];
                Y->x[f] = Y->x[f - 1];
            }
            Y->j[f] = cj;
            Y->x[f] = cx;
        }
done:
    free(comp);
    free(bptr);
    free(cols);
    free(posn);
    free(stamp);
    free(boff);
    free(inv);
    free(work);
    free(jb);
    return rc;
}

