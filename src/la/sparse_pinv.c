/* src/la/sparse_pinv.c: see sparse_pinv.h. */
#include "sparse_pinv.h"
#include "suitesparse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NULL_BLOCK 32 /* null vectors solved for at once (one dense block of right-hand sides) */

static int nomem(lcp_err *err) { return lcp_fail(err, LCP_ERROR, NULL, 0, "pseudo-inverse: out of memory"); }

/* Each row's class from the pivots of a simplicial LDL' of Z S Z + delta I
 * (Z = diag(S)^-1/2, z here): cls[i] 1 dependent (|D_k| below
 * LCP_PINV_RANK_TOL), 0 independent (above LCP_PINV_SURE), 2 unclear
 * (between: rounding or a small true pivot, settled by candidates()).  The
 * number of rows of class 2, or -1 where S is not positive semidefinite (a
 * negative diagonal, a pivot below -LCP_PINV_SURE, or NaN), -2 for memory
 * or a failure of CHOLMOD. */
static int classify(const lcp_csr *S, const double *dg, const double *z, int *cls, int *ord)
{
    int n = S->m, nc = -2;
    cholmod_common cc;
    lcp_cholmod_start(&cc);
    cc.supernodal = CHOLMOD_SIMPLICIAL; /* D readable column by column */
    cc.final_ll = 0;                    /* LDL': a tiny or negative pivot is read, not refused */
    cholmod_sparse *U = NULL;
    cholmod_factor *L = NULL;
    /* the upper triangle of Z S Z + delta I, in compressed columns (column i: row i of the CSR up to i) */
    long nz = 0;
    for (int i = 0; i < n; i++)
        for (int e = S->p[i]; e < S->p[i + 1]; e++) nz += S->j[e] < i;
    if (!(U = cholmod_allocate_sparse((size_t)n, (size_t)n, (size_t)(nz + n), 1, 1, 1, CHOLMOD_REAL, &cc))) goto done;
    int *up = U->p, *ui = U->i;
    double *ux = U->x;
    long k = 0;
    for (int i = 0; i < n; i++) {
        up[i] = (int)k;
        for (int e = S->p[i]; e < S->p[i + 1]; e++)
            if (S->j[e] < i) ui[k] = S->j[e], ux[k++] = z[i] * S->x[e] * z[S->j[e]];
        ui[k] = i, ux[k++] = dg[i] * z[i] * z[i] + LCP_PINV_SHIFT;
    }
    up[n] = (int)k;
    if (!(L = cholmod_analyze(U, &cc))) goto done;
    cholmod_factorize(U, L, &cc);
    if (cc.status == CHOLMOD_OUT_OF_MEMORY || L->is_super || L->is_ll || L->minor < (size_t)n) {
        nc = cc.status == CHOLMOD_OUT_OF_MEMORY ? -2 : -1; /* stopped at a zero or NaN pivot: not PSD */
        goto done;
    }
    const int *lp = L->p, *perm = L->Perm;
    const double *lx = L->x;
    nc = 0;
    for (size_t c = 0; c < (size_t)n; c++) {
        double dk = lx[lp[c]];
        int i = perm ? perm[c] : (int)c;
        if (dk != dk || dk < -LCP_PINV_SURE) { /* a negative pivot beyond rounding: S is not semidefinite */
            nc = -1;
            break;
        }
        cls[i] = fabs(dk) < LCP_PINV_RANK_TOL ? 1 : fabs(dk) > LCP_PINV_SURE ? 0 : 2;
        ord[c] = i;
        nc += cls[i] == 2;
    }
done:
    cholmod_free_factor(&L, &cc);
    cholmod_free_sparse(&U, &cc);
    cholmod_finish(&cc);
    return nc;
}

/* out = S's rows and columns i with map[i] >= 0 (m of them, in that
 * order).  0, or 1 out of memory. */
static int submatrix(const lcp_csr *S, const int *map, int m, lcp_csr *out)
{
    long nz = 0;
    for (int i = 0; i < S->m; i++)
        if (map[i] >= 0)
            for (int e = S->p[i]; e < S->p[i + 1]; e++) nz += map[S->j[e]] >= 0;
    if (lcp_csr_alloc(out, m, m, nz)) return 1;
    nz = 0;
    for (int i = 0, r = 0; i < S->m; i++) {
        if (map[i] < 0) continue;
        for (int e = S->p[i]; e < S->p[i + 1]; e++)
            if (map[S->j[e]] >= 0) out->j[nz] = map[S->j[e]], out->x[nz++] = S->x[e];
        out->p[++r] = (int)nz;
    }
    return 0;
}

/* B (m x kb, column-major) = the columns rows[0..kb) of S on the rows with
 * map >= 0 (S symmetric: S's rows) */
static void gather(const lcp_csr *S, const int *map, int m, const int *rows, int kb, double *B)
{
    memset(B, 0, (size_t)m * kb * sizeof(double));
    for (int c = 0; c < kb; c++)
        for (int e = S->p[rows[c]]; e < S->p[rows[c] + 1]; e++)
            if (map[S->j[e]] >= 0) B[(size_t)c * m + map[S->j[e]]] += S->x[e];
}

/* S_II (map >= 0, m rows) into SI and its Cholesky into F (borrowing SI's
 * arrays; *on set once F needs freeing).  0, 1 (not positive definite),
 * LCP_ERROR (err set). */
static int factor_sub(const lcp_csr *S, const int *map, int m, lcp_csr *SI, lcp_sparse_factor *F, int *on,
                      lcp_err *err)
{
    if (submatrix(S, map, m, SI)) return nomem(err);
    *on = 1;
    int sf = lcp_sparse_factor_init(F, m, SI->p, SI->j, SI->x, 1, LCP_SF_REFINE_DEFAULT);
    if (!sf) sf = lcp_sparse_factor_refactor(F, SI->x, LCP_SF_CHOLESKY);
    if (sf == LCP_SF_NOT_POSDEF) return 1;
    return sf ? lcp_sparse_factor_fail(F, err, "pseudo-inverse: ") : 0;
}

/* B (m x kb, column-major) <- S_II^-1 B: one dense block of right-hand
 * sides through CHOLMOD's supernodal solve.  0, or LCP_ERROR. */
static int solve_block(lcp_sparse_factor *F, double *B, int m, int kb, lcp_err *err)
{
    cholmod_dense Bv = {0};
    Bv.nrow = Bv.d = (size_t)m, Bv.ncol = (size_t)kb, Bv.nzmax = (size_t)m * kb;
    Bv.x = B, Bv.xtype = CHOLMOD_REAL, Bv.dtype = CHOLMOD_DOUBLE;
    cholmod_dense *X = cholmod_solve(CHOLMOD_A, F->L, &Bv, &F->cc);
    if (!X) return lcp_fail(err, LCP_ERROR, NULL, 0, "pseudo-inverse: CHOLMOD solve failed (status %d)", F->cc.status);
    memcpy(B, X->x, (size_t)m * kb * sizeof(double));
    cholmod_free_dense(&X, &F->cc);
    return 0;
}

void dpstrf_(const char *uplo, const int *n, double *a, const int *lda, int *piv, int *rank, const double *tol,
             double *work, int *info);

/* The unclear rows (cls 2, nc of them) settled: T = S_CC - S_CI S_II^-1 S_IC
 * with I the rows of class 0 (their pivots clear: S_II positive definite),
 * scaled by z, is positive semidefinite with the rank that C adds to I;
 * LAPACK's pivoted Cholesky (dpstrf) of T with the tolerance
 * LCP_PINV_RANK_TOL picks the rows of C independent of I and of each other
 * (class 0), the rest depend on them (class 1).  0, 1 (decline: too many
 * unclear rows, S_II not positive definite), LCP_ERROR (err set). */
static int candidates(const lcp_csr *S, const double *z, int *cls, int nc, lcp_err *err)
{
    int n = S->m, ni = 0, rc = 0;
    if (nc > LCP_PINV_UNCLEAR_MAX) return 1;
    int *map = lcp_alloc((size_t)n + 1, sizeof(int)), *cand = lcp_alloc((size_t)nc + 1, sizeof(int));
    int *piv = lcp_alloc((size_t)nc + 1, sizeof(int));
    double *T = lcp_calloc((size_t)nc * nc + 1, sizeof(double)), *work = lcp_alloc(2 * (size_t)nc + 1, sizeof(double));
    double *B = NULL;
    lcp_csr SI = {0};
    lcp_sparse_factor F;
    int f_on = 0;
    if (!map || !cand || !piv || !T || !work) goto oom;
    for (int i = 0, c = 0; i < n; i++) {
        map[i] = cls[i] == 0 ? ni++ : cls[i] == 2 ? -2 - c : -1; /* -2 - c: candidate c */
        if (cls[i] == 2) cand[c++] = i;
    }
    /* S_CC into T (column-major; symmetric) */
    for (int a = 0; a < nc; a++) {
        int i = cand[a];
        for (int e = S->p[i]; e < S->p[i + 1]; e++)
            if (map[S->j[e]] <= -2) T[a + (size_t)(-2 - map[S->j[e]]) * nc] += S->x[e];
    }
    if (ni > 0) {
        if ((rc = factor_sub(S, map, ni, &SI, &F, &f_on, err))) goto done;
        if (!(B = lcp_alloc((size_t)ni * NULL_BLOCK + 1, sizeof(double)))) goto oom;
        /* T -= S_CI X, X = S_II^-1 S_IC, NULL_BLOCK columns of it at a time */
        for (int b0 = 0; b0 < nc; b0 += NULL_BLOCK) {
            int kb = nc - b0 < NULL_BLOCK ? nc - b0 : NULL_BLOCK;
            gather(S, map, ni, cand + b0, kb, B);
            if ((rc = solve_block(&F, B, ni, kb, err))) goto done;
            for (int a = 0; a < nc; a++) {
                int i = cand[a];
                for (int e = S->p[i]; e < S->p[i + 1]; e++) {
                    int m = map[S->j[e]];
                    if (m < 0) continue;
                    for (int c = 0; c < kb; c++) T[a + (size_t)(b0 + c) * nc] -= S->x[e] * B[(size_t)c * ni + m];
                }
            }
        }
    }
    for (int b = 0; b < nc; b++)
        for (int a = 0; a < nc; a++) T[a + (size_t)b * nc] *= z[cand[a]] * z[cand[b]];
    int rank = 0, info = 0;
    double tol = LCP_PINV_RANK_TOL;
    dpstrf_("L", &nc, T, &nc, piv, &rank, &tol, work, &info);
    if (info < 0) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "pseudo-inverse: LAPACK's pivoted Cholesky failed (info %d)", info);
        goto done;
    }
    for (int k = 0; k < nc; k++) cls[cand[piv[k] - 1]] = k < rank ? 0 : 1;
    goto done;
oom:
    rc = lcp_fail(err, LCP_ERROR, NULL, 0, "pseudo-inverse: out of memory");
done:
    if (f_on) lcp_sparse_factor_free(&F);
    lcp_csr_free(&SI);
    free(map), free(cand), free(piv), free(T), free(work), free(B);
    return rc;
}

/* The dependent rows of S into dep: their count; -1 (decline: S not
 * positive semidefinite, too many unclear rows), -2 (out of memory), -3
 * (a failure of the libraries: *rc and err set). */
static int dependent_rows(const lcp_csr *S, const double *dg, const double *z, int *dep, lcp_err *err, int *rc)
{
    int n = S->m, nd = -2;
    int *cls = lcp_alloc((size_t)n + 1, sizeof(int)), *ord = lcp_alloc((size_t)n + 1, sizeof(int));
    *rc = 0;
    if (!cls || !ord) goto done;
    int nc = classify(S, dg, z, cls, ord);
    if (nc < 0) {
        nd = nc;
        goto done;
    }
    if (nc > 0 && (*rc = candidates(S, z, cls, nc, err))) {
        nd = *rc == 1 ? -1 : -3;
        goto done;
    }
    nd = 0;
    for (int c = 0; c < n; c++) /* in the LDL's order */
        if (cls[ord[c]] == 1) dep[nd++] = ord[c];
done:
    free(cls), free(ord);
    return nd;
}

/* The smallest pivot of a Cholesky factor L of S_II relative to its row's
 * diagonal (min L_kk^2 / S_kk: the Schur complement of that row on the rows
 * before it, scaled -- unlike CHOLMOD's rcond, the same for any diagonal
 * scaling of S).  dg: S's diagonal, row: S_II's rows in S. */
static double min_pivot(const cholmod_factor *L, const double *dg, const int *row)
{
    int ni = (int)L->n;
    const int *perm = L->Perm;
    const double *x = L->x;
    double m = INFINITY;
    if (L->is_super) {
        const int *super = L->super, *pi = L->pi, *px = L->px;
        for (size_t s = 0; s < L->nsuper; s++) {
            int nsrow = pi[s + 1] - pi[s];
            for (int k = 0, j = super[s]; j < super[s + 1]; j++, k++) {
                double l = x[px[s] + (size_t)k * nsrow + k], d = dg[row[perm ? perm[j] : j]];
                m = fmin(m, d > 0 ? l * l / d : 0.0);
            }
        }
    } else { /* simplicial LL': the diagonal first in each column */
        const int *p = L->p;
        for (int j = 0; j < ni; j++) {
            double l = x[p[j]], d = dg[row[perm ? perm[j] : j]];
            m = fmin(m, d > 0 ? l * l / d : 0.0);
        }
    }
    return m;
}

/* Appends entry (i, v) at k of the growing compressed columns (ni, nx;
 * cap): 0, or 1 out of memory. */
static int push(int **ni, double **nx, long *cap, long k, int i, double v)
{
    if (k == *cap) {
        long nc = 2 * *cap + 16;
        int *a = realloc(*ni, (size_t)nc * sizeof(int));
        if (a) *ni = a;
        double *b = a ? realloc(*nx, (size_t)nc * sizeof(double)) : NULL;
        if (!a || !b) return 1;
        *nx = b, *cap = nc;
    }
    (*ni)[k] = i, (*nx)[k] = v;
    return 0;
}

/* Appends column col of M' -- x = S_II^-1 S_Id over the independent rows
 * (their places a in I, increasing; entries below LCP_PINV_DROP of the
 * largest dropped: rounding, where the dependencies are local).  0, or 1
 * out of memory. */
static int put_column(const lcp_pinv *P, const double *x, int col, int **ni, double **nx, long *cap, int *np)
{
    double big = 1.0;
    for (int a = 0; a < P->ni; a++) big = fmax(big, fabs(x[a]));
    long k = np[col];
    for (int a = 0; a < P->ni; a++)
        if (fabs(x[a]) > LCP_PINV_DROP * big && push(ni, nx, cap, k++, a, x[a])) return 1;
    np[col + 1] = (int)k;
    return 0;
}

int lcp_pinv_init(lcp_pinv *P, const lcp_csr *S, lcp_err *err)
{
    memset(P, 0, sizeof *P);
    int n = S->m, rc = 0;
    P->n = n;
    double *dg = lcp_alloc((size_t)n + 1, sizeof(double)), *B = NULL, *z = NULL;
    int *np = NULL, *ni = NULL, *row = lcp_alloc((size_t)n + 1, sizeof(int)); /* row[a]: the a-th independent row */
    double *nx = NULL;
    long cap = 0;
    P->imap = lcp_alloc((size_t)n + 1, sizeof(int));
    P->dep = lcp_alloc((size_t)n + 1, sizeof(int));
    P->v = lcp_alloc((size_t)n + 1, sizeof(double));
    z = lcp_alloc((size_t)n + 1, sizeof(double));
    if (!dg || !P->imap || !P->dep || !P->v || !z || !row) goto oom;
    for (int i = 0; i < n; i++) {
        dg[i] = lcp_csr_diag(S, i);
        if (dg[i] < 0 || dg[i] != dg[i]) goto decline; /* not positive semidefinite */
        z[i] = dg[i] > 0 ? 1.0 / sqrt(dg[i]) : 1.0;
    }
    int drc = 0, nd = dependent_rows(S, dg, z, P->dep, err, &drc);
    if (nd == -2) goto oom;
    if (nd == -3) {
        rc = drc;
        goto done;
    }
    if (nd < 0) goto decline;
    P->nd = nd;
    for (int i = 0; i < n; i++) P->imap[i] = 0;
    for (int k = 0; k < nd; k++) P->imap[P->dep[k]] = -1;
    int ni_ = 0;
    for (int i = 0; i < n; i++)
        if (P->imap[i] >= 0) row[ni_] = i, P->imap[i] = ni_++;
    P->ni = ni_;
    /* S_II, and its Cholesky: its pivots say whether the rank was right */
    if (ni_ > 0) {
        if ((rc = factor_sub(S, P->imap, ni_, &P->SI, &P->F, &P->f_on, err))) goto done;
        if (!(min_pivot(P->F.L, dg, row) > LCP_PINV_RCOND)) goto decline; /* a dependent row among I */
    }
    if (nd == 0) goto done;
    /* the null space: N_d = [-S_II^-1 S_Id; e_d] (d in D), its parts in I as the columns of M', NULL_BLOCK
     * columns a solve */
    lcp_cholmod_start(&P->cc);
    P->cc_on = 1;
    np = lcp_calloc((size_t)nd + 1, sizeof(int));
    B = lcp_alloc((size_t)ni_ * NULL_BLOCK + 1, sizeof(double));
    if (!np || !B) goto oom;
    for (int k0 = 0; k0 < nd; k0 += NULL_BLOCK) {
        int kb = nd - k0 < NULL_BLOCK ? nd - k0 : NULL_BLOCK;
        gather(S, P->imap, ni_, P->dep + k0, kb, B);
        if (ni_ > 0 && (rc = solve_block(&P->F, B, ni_, kb, err))) goto done;
        const double *X = B;
        int bad = 0;
        for (int c = 0; c < kb && !bad; c++) {
            int d = P->dep[k0 + c];
            const double *x = X + (size_t)c * ni_;
            /* S's Schur complement on d: S_dd - S_dI S_II^-1 S_Id */
            double s = dg[d];
            for (int e = S->p[d]; e < S->p[d + 1]; e++)
                if (P->imap[S->j[e]] >= 0) s -= S->x[e] * x[P->imap[S->j[e]]];
            if (!(fabs(s) <= LCP_PINV_SCHUR_TOL * dg[d])) bad = 1;
            else if (put_column(P, x, k0 + c, &ni, &nx, &cap, np)) bad = 2;
        }
        if (bad == 1) goto decline;
        if (bad == 2) goto oom;
    }
    /* M' as CHOLMOD's (N = [-M; I] in the order I, D; M = S_II^-1 S_ID), the range's Gram matrix C C' =
     * I + M M' (C = [I M]: S = C' S_II C) and its Cholesky (no independent row: S = 0, S^+ = 0) */
    if (ni_ == 0) goto done;
    if (!(P->Mt = cholmod_allocate_sparse((size_t)ni_, (size_t)nd, (size_t)(np[nd] > 0 ? np[nd] : 1), 1, 1, 0,
                                          CHOLMOD_REAL, &P->cc)))
        goto oom;
    memcpy(P->Mt->p, np, ((size_t)nd + 1) * sizeof(int));
    if (np[nd]) {
        memcpy(P->Mt->i, ni, (size_t)np[nd] * sizeof(int));
        memcpy(P->Mt->x, nx, (size_t)np[nd] * sizeof(double));
    }
    cholmod_sparse *G = cholmod_aat(P->Mt, NULL, 0, 1, &P->cc); /* M M', both triangles */
    cholmod_sparse *Id = G ? cholmod_speye((size_t)ni_, (size_t)ni_, CHOLMOD_REAL, &P->cc) : NULL;
    double one[2] = {1.0, 0.0};
    cholmod_sparse *GI = Id ? cholmod_add(G, Id, one, one, 1, 1, &P->cc) : NULL;
    cholmod_sparse *Gu = GI ? cholmod_copy(GI, 1, 1, &P->cc) : NULL; /* its upper triangle, symmetric */
    cholmod_free_sparse(&G, &P->cc);
    cholmod_free_sparse(&Id, &P->cc);
    cholmod_free_sparse(&GI, &P->cc);
    if (Gu && (P->LC = cholmod_analyze(Gu, &P->cc))) lcp_cholmod_factorize(Gu, 0.0, P->LC, &P->cc);
    int ok = Gu && P->LC && P->cc.status == CHOLMOD_OK;
    cholmod_free_sparse(&Gu, &P->cc);
    if (!ok) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "pseudo-inverse: the Cholesky of I + M M' failed (status %d)",
                      P->cc.status);
        goto done;
    }
    if (!(P->c = cholmod_allocate_dense((size_t)ni_, 1, (size_t)ni_, CHOLMOD_REAL, &P->cc))) goto oom;
    goto done;
decline:
    rc = 1;
    goto done;
oom:
    rc = nomem(err);
done:
    free(dg), free(z), free(B), free(np), free(ni), free(nx), free(row);
    return rc;
}

/* v (ni) <- (I + M M')^-1 v, by the Cholesky of the range's Gram matrix */
static int gram_solve(lcp_pinv *P, double *v)
{
    memcpy(P->c->x, v, (size_t)P->ni * sizeof(double));
    if (!cholmod_solve2(CHOLMOD_A, P->LC, P->c, NULL, &P->X, NULL, &P->Y, &P->E, &P->cc)) return LCP_ERROR;
    memcpy(v, P->X->x, (size_t)P->ni * sizeof(double));
    return 0;
}

/* S^+ r = C' (C C')^-1 S_II^-1 (C C')^-1 C r, with C = [I M] (S = C' S_II C, C of full row rank): C r =
 * r_I + M r_D, C' z = (z, M' z).  The answer is C' times a vector, in the range of S (no part of the null
 * space beyond the rounding of that product), so no projection has to be made again. */
int lcp_pinv_apply(lcp_pinv *P, const double *r, double *y)
{
    int n = P->n, ni = P->ni, nd = P->nd;
    double *v = P->v;
    for (int i = 0; i < n; i++)
        if (P->imap[i] >= 0) v[P->imap[i]] = r[i];
    if (nd && ni) { /* C r: v += M r_D (M' column d: row d of M) */
        const int *mp = P->Mt->p, *mi = P->Mt->i;
        const double *mx = P->Mt->x;
        for (int d = 0; d < nd; d++) {
            double rd = r[P->dep[d]];
            if (rd != 0.0)
                for (int k = mp[d]; k < mp[d + 1]; k++) v[mi[k]] += mx[k] * rd;
        }
        if (gram_solve(P, v)) return LCP_ERROR;
    }
    if (ni && lcp_sparse_factor_solve(&P->F, v, v)) return LCP_ERROR;
    if (nd && ni && gram_solve(P, v)) return LCP_ERROR;
    for (int i = 0; i < n; i++) y[i] = P->imap[i] >= 0 ? v[P->imap[i]] : 0.0;
    if (nd && ni) { /* C' z: y_D = M' z */
        const int *mp = P->Mt->p, *mi = P->Mt->i;
        const double *mx = P->Mt->x;
        for (int d = 0; d < nd; d++) {
            double s = 0.0;
            for (int k = mp[d]; k < mp[d + 1]; k++) s += mx[k] * v[mi[k]];
            y[P->dep[d]] = s;
        }
    }
    return 0;
}

void lcp_pinv_free(lcp_pinv *P)
{
    if (!P) return;
    free(P->imap), free(P->dep), free(P->v);
    lcp_csr_free(&P->SI);
    if (P->f_on) lcp_sparse_factor_free(&P->F);
    if (P->cc_on) {
        cholmod_free_sparse(&P->Mt, &P->cc);
        cholmod_free_factor(&P->LC, &P->cc);
        cholmod_free_dense(&P->c, &P->cc);
        cholmod_free_dense(&P->X, &P->cc);
        cholmod_free_dense(&P->Y, &P->cc);
        cholmod_free_dense(&P->E, &P->cc);
        cholmod_finish(&P->cc);
    }
    memset(P, 0, sizeof *P);
}
