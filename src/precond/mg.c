/* src/precond/mg.c: smoothed-aggregation algebraic multigrid (Vanek, Mandel
 * and Brezina 1996): the hierarchy of mg.h, and the `mg` preconditioner,
 * P^-1 r = one V- or W-cycle from zero (--cycle).
 *
 * Setup, level by level until <= LCP_MG_COARSE_MAX rows:
 *   strong graph   j ~ i  when |a_ij| >= theta sqrt(a_ii a_jj)   (theta 0.08)
 *   aggregates     greedy, in three passes: (1) a row whose strong
 *                  neighbours are all free starts an aggregate with them;
 *                  (2) a row left over joins the aggregate of its strongest
 *                  aggregated neighbour; (3) what remains starts aggregates
 *                  with its free neighbours.  Rows without strong neighbours
 *                  (diagonally dominant: Gauss-Seidel alone settles them)
 *                  are left out of every aggregate.
 *   prolongation   P = (I - omega D^-1 A) P_tent, omega = 4/3 / lmax(D^-1 A)
 *                  (Lanczos estimate); P_tent: the near-null space B (the
 *                  constant on level 0, its restriction Q'B below)
 *                  orthonormalised on each aggregate (B = QR).  Smoothed
 *                  aggregation: on Laplacian-like chains its W-cycles
 *                  converge at a rate independent of the size, its
 *                  V-cycles at one that grows slowly with the number of
 *                  levels (0.33 at 1e3-1e4 rows, 0.42 at 1e5; plain
 *                  aggregation's degrade much faster)
 *   coarse matrix  A_c = P' (A P), two CSR sparse products (Gustavson)
 *   coarsest       CHOLMOD LL' of A_L + shift I, shift = 1e-10 max diag
 *                  (raised x100 while the factorisation fails: singular
 *                  contact matrices such as pyramids of boxes)
 * Smoothing: one forward Gauss-Seidel sweep before, one backward after the
 * coarse correction, so a cycle is a symmetric operator (usable by CG).
 */
#include "mg.h"
#include "precond.h"
#include "../solvers/solver.h"
#include "../la/spectral.h"
#include "../la/suitesparse.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int n;
    lcp_csr A;        /* this level's matrix (owned) */
    lcp_csr P, R;     /* prolongation n x nc to the next level and R = P' (not at the coarsest) */
    lcp_csr P0;       /* level 0: the unmasked P */
    double *dinv;     /* 1 / a_ii, 0 where a_ii <= 0 (rows emptied by masking) */
    double *t;        /* residual scratch */
    double *b, *x;    /* right-hand side and solution when a coarser level of a cycle */
    double *b2, *e;   /* the second pass of a W-cycle */
} level;

struct lcp_mg {
    int nl, cycle;
    const char *who;  /* the caller, for messages (a string literal) */
    level lv[LCP_MG_MAX_LEVELS];
    cholmod_common cc;
    int cc_on;
    cholmod_factor *L;
    cholmod_dense cb, *X, *Y, *E;
    double shift;
};

/* ------------------------------------------------------------ CSR kernels */

int lcp_csr_multiply(const lcp_csr *A, const lcp_csr *B, lcp_csr *C)
{
    int m = A->m, n = B->n;
    memset(C, 0, sizeof *C);
    int *mark = lcp_alloc((size_t)n + 1, sizeof(int));
    double *acc = lcp_alloc((size_t)n + 1, sizeof(double));
    lcp_csr U, T;
    memset(&U, 0, sizeof U);
    memset(&T, 0, sizeof T);
    int rc = LCP_ERROR;
    if (!mark || !acc) goto done;
    for (int c = 0; c < n; c++) mark[c] = -1;
    long nnz = 0;
    for (int i = 0; i < m; i++)
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            int r = A->j[k];
            for (int q = B->p[r]; q < B->p[r + 1]; q++)
                if (mark[B->j[q]] != i) {
                    mark[B->j[q]] = i;
                    nnz++;
                }
        }
    if (nnz > INT_MAX || lcp_csr_alloc(&U, m, n, nnz)) goto done;
    for (int c = 0; c < n; c++) mark[c] = -1;
    int pos = 0;
    for (int i = 0; i < m; i++) {
        int start = pos;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            int r = A->j[k];
            double a = A->x[k];
            for (int q = B->p[r]; q < B->p[r + 1]; q++) {
                int c = B->j[q];
                if (mark[c] != i) {
                    mark[c] = i;
                    U.j[pos++] = c;
                    acc[c] = a * B->x[q];
                } else {
                    acc[c] += a * B->x[q];
                }
            }
        }
        for (int q = start; q < pos; q++) U.x[q] = acc[U.j[q]];
        U.p[i + 1] = pos;
    }
    /* two transposes sort the columns of every row */
    if (lcp_csr_transpose(&U, &T) || lcp_csr_transpose(&T, C)) goto done;
    rc = 0;
done:
    free(mark);
    free(acc);
    lcp_csr_free(&U);
    lcp_csr_free(&T);
    return rc;
}

/* A_c = R A P */
static int galerkin(const lcp_csr *R, const lcp_csr *A, const lcp_csr *P, lcp_csr *Ac)
{
    lcp_csr AP;
    if (lcp_csr_multiply(A, P, &AP)) return LCP_ERROR;
    int rc = lcp_csr_multiply(R, &AP, Ac);
    lcp_csr_free(&AP);
    return rc;
}

/* ------------------------------------------------------------ setup */

static void coarse_solve(lcp_mg *mg, const double *b, double *x);


static void level_free(level *L)
{
    lcp_csr_free(&L->A);
    lcp_csr_free(&L->P);
    lcp_csr_free(&L->R);
    lcp_csr_free(&L->P0);
    free(L->dinv);
    free(L->t);
    free(L->b);
    free(L->x);
    free(L->b2);
    free(L->e);
    memset(L, 0, sizeof *L);
}

static void set_dinv(level *L)
{
    double dmax = 0.0;
    for (int i = 0; i < L->n; i++) dmax = fmax(dmax, lcp_csr_diag(&L->A, i));
    for (int i = 0; i < L->n; i++) {
        double a = lcp_csr_diag(&L->A, i);
        L->dinv[i] = a > 1e-14 * dmax ? 1.0 / a : 0.0;
    }
}

static int level_alloc(level *L, int n)
{
    L->n = n;
    size_t m = (size_t)n + 1;
    L->dinv = lcp_alloc(m, sizeof(double));
    L->t = lcp_alloc(m, sizeof(double));
    L->b = lcp_alloc(m, sizeof(double));
    L->x = lcp_alloc(m, sizeof(double));
    L->b2 = lcp_alloc(m, sizeof(double));
    L->e = lcp_alloc(m, sizeof(double));
    return L->dinv && L->t && L->b && L->x && L->b2 && L->e ? 0 : LCP_ERROR;
}

/* Aggregates of the strong graph of A: agg[i] in 0..nagg-1, or -1 (rows
 * without strong neighbours).  Returns nagg, or -1 out of memory. */
static int aggregate(const lcp_csr *A, const double *dinv, int *agg)
{
    int n = A->m, nagg = 0;
    const double theta = LCP_MG_THETA;
    int *first = lcp_alloc((size_t)n + 1, sizeof(int));
    if (!first) return -1;
#define STRONG(i, k) (A->j[k] != (i) && dinv[i] > 0 && dinv[A->j[k]] > 0 && \
                      A->x[k] * A->x[k] * dinv[i] * dinv[A->j[k]] >= theta * theta)
    for (int i = 0; i < n; i++) agg[i] = -2; /* -2: not yet aggregated */
    /* pass 1: a row whose strong neighbours are all free, with them */
    for (int i = 0; i < n; i++) {
        if (agg[i] != -2) continue;
        int nstrong = 0, ok = 1;
        for (int k = A->p[i]; k < A->p[i + 1]; k++)
            if (STRONG(i, k)) {
                nstrong++;
                if (agg[A->j[k]] != -2) ok = 0;
            }
        if (!nstrong) {
            agg[i] = -1; /* isolated */
            continue;
        }
        if (!ok) continue;
        agg[i] = nagg;
        for (int k = A->p[i]; k < A->p[i + 1]; k++)
            if (STRONG(i, k)) agg[A->j[k]] = nagg;
        nagg++;
    }
    /* pass 2: join the aggregate of the strongest aggregated neighbour (as
     * aggregated by pass 1) */
    for (int i = 0; i < n; i++) first[i] = agg[i];
    for (int i = 0; i < n; i++) {
        if (agg[i] != -2) continue;
        double best = 0.0;
        int to = -2;
        for (int k = A->p[i]; k < A->p[i + 1]; k++)
            if (STRONG(i, k) && first[A->j[k]] >= 0 && fabs(A->x[k]) * sqrt(dinv[A->j[k]]) > best) {
                best = fabs(A->x[k]) * sqrt(dinv[A->j[k]]);
                to = first[A->j[k]];
            }
        agg[i] = to;
    }
    /* pass 3: the rest, with their free neighbours */
    for (int i = 0; i < n; i++) {
        if (agg[i] != -2) continue;
        agg[i] = nagg;
        for (int k = A->p[i]; k < A->p[i + 1]; k++)
            if (STRONG(i, k) && agg[A->j[k]] == -2) agg[A->j[k]] = nagg;
        nagg++;
    }
#undef STRONG
    free(first);
    return nagg;
}

/* The tentative prolongation of the aggregates from the near-null space B
 * (n x k, column-major): on an aggregate of m rows the first
 * r = min(k, max(1, m/3)) columns of B (so that every level is at least 3
 * times coarser), orthonormalised there by modified Gram-Schmidt (twice),
 * dependent ones dropped; those are the aggregate's columns of P_tent, and
 * the coarse near-null space is Bc = P_tent' B (nc x k).  Returns nc, or -1
 * out of memory. */
static int tentative(int n, const double *B, int k, const int *agg, int nagg, lcp_csr *Pt, double **Bc_out)
{
    int nc = -1;
    int *start = lcp_calloc((size_t)nagg + 2, sizeof(int)), *mem = lcp_alloc((size_t)n + 1, sizeof(int));
    int *off = lcp_alloc((size_t)nagg + 1, sizeof(int)), *ra = lcp_alloc((size_t)nagg + 1, sizeof(int));
    double *Q = lcp_calloc((size_t)n * k + 1, sizeof(double));
    double *Bcr = lcp_alloc((size_t)nagg * k * k + 1, sizeof(double)), *Bc = NULL;
    memset(Pt, 0, sizeof *Pt);
    if (!start || !mem || !off || !ra || !Q || !Bcr) goto done;
    for (int i = 0; i < n; i++)
        if (agg[i] >= 0) start[agg[i] + 2]++;
    for (int a = 0; a < nagg; a++) start[a + 2] += start[a + 1];
    for (int i = 0; i < n; i++)
        if (agg[i] >= 0) mem[start[agg[i] + 1]++] = i;
    /* now start[a] .. start[a+1] are aggregate a's rows */
    int total = 0;
    long nnz = 0;
    for (int a = 0; a < nagg; a++) {
        const int *ms = mem + start[a];
        int m = start[a + 1] - start[a], r = m / 3, cols = 0;
        if (r < 1) r = 1;
        if (r > k) r = k;
        for (int c = 0; c < r; c++) {
            double n0 = 0.0, nv = 0.0;
            for (int t = 0; t < m; t++) {
                double v = B[ms[t] + (size_t)c * n];
                Q[(size_t)ms[t] * k + cols] = v;
                n0 += v * v;
            }
            for (int pass = 0; pass < 2; pass++)
                for (int q = 0; q < cols; q++) {
                    double dot = 0.0;
                    for (int t = 0; t < m; t++) dot += Q[(size_t)ms[t] * k + q] * Q[(size_t)ms[t] * k + cols];
                    for (int t = 0; t < m; t++) Q[(size_t)ms[t] * k + cols] -= dot * Q[(size_t)ms[t] * k + q];
                }
            for (int t = 0; t < m; t++) nv += Q[(size_t)ms[t] * k + cols] * Q[(size_t)ms[t] * k + cols];
            if (!(nv > 1e-16 * n0) || !(nv > 0.0)) continue; /* dependent on the columns before */
            nv = sqrt(nv);
            for (int t = 0; t < m; t++) Q[(size_t)ms[t] * k + cols] /= nv;
            cols++;
        }
        if (!cols) { /* B vanishes on the aggregate: the constant */
            for (int t = 0; t < m; t++) Q[(size_t)ms[t] * k] = 1.0 / sqrt((double)m);
            cols = 1;
        }
        ra[a] = cols;
        off[a] = total;
        for (int q = 0; q < cols; q++)
            for (int c = 0; c < k; c++) {
                double s = 0.0;
                for (int t = 0; t < m; t++) s += Q[(size_t)ms[t] * k + q] * B[ms[t] + (size_t)c * n];
                Bcr[(size_t)(total + q) * k + c] = s;
            }
        total += cols;
        nnz += (long)m * cols;
    }
    if (lcp_csr_alloc(Pt, n, total, nnz) || !(Bc = lcp_alloc((size_t)total * k + 1, sizeof(double)))) {
        lcp_csr_free(Pt);
        goto done;
    }
    int q = 0;
    for (int i = 0; i < n; i++) {
        if (agg[i] >= 0)
            for (int c = 0; c < ra[agg[i]]; c++) {
                Pt->j[q] = off[agg[i]] + c;
                Pt->x[q++] = Q[(size_t)i * k + c];
            }
        Pt->p[i + 1] = q;
    }
    for (int r = 0; r < total; r++)
        for (int c = 0; c < k; c++) Bc[r + (size_t)c * total] = Bcr[(size_t)r * k + c];
    *Bc_out = Bc;
    nc = total;
done:
    free(start), free(mem), free(off), free(ra), free(Q), free(Bcr);
    return nc;
}

/* P = (I - omega D^-1 A) P_tent, omega = 4/3 / lmax(D^-1 A). */
static int smooth_prolongation(const lcp_csr *A, const double *dinv, const lcp_csr *Pt, lcp_csr *P)
{
    int n = A->m;
    double lmin, lmax;
    if (lcp_scaled_spectrum(A, 30, &lmin, &lmax) || !(lmax > 0)) {
        lmax = 0.0; /* Gershgorin */
        for (int i = 0; i < n; i++) {
            double s = 0.0;
            for (int k = A->p[i]; k < A->p[i + 1]; k++) s += fabs(A->x[k]);
            lmax = fmax(lmax, s * dinv[i]);
        }
    }
    double omega = (4.0 / 3.0) / lmax;
    lcp_csr AP;
    if (lcp_csr_multiply(A, Pt, &AP)) return LCP_ERROR;
    for (int i = 0; i < n; i++)
        for (int k = AP.p[i]; k < AP.p[i + 1]; k++) AP.x[k] *= -omega * dinv[i];
    /* AP's pattern holds P_tent's (a_ii > 0): add P_tent in */
    for (int i = 0; i < n; i++)
        for (int k = Pt->p[i]; k < Pt->p[i + 1]; k++) {
            int lo = AP.p[i], hi = AP.p[i + 1] - 1, c = Pt->j[k];
            while (lo <= hi) {
                int mid = lo + (hi - lo) / 2;
                if (AP.j[mid] == c) {
                    AP.x[mid] += Pt->x[k];
                    break;
                }
                if (AP.j[mid] < c) lo = mid + 1;
                else hi = mid - 1;
            }
        }
    *P = AP;
    return 0;
}

/* The coarse factor of the last level (again after masking). */
static int coarse_factor(lcp_mg *mg, lcp_err *err)
{
    level *C = &mg->lv[mg->nl - 1];
    if (mg->L) cholmod_free_factor(&mg->L, &mg->cc);
    cholmod_sparse S = lcp_csr_as_cholmod(&C->A, -1);
    double dmax = 0.0;
    for (int i = 0; i < C->n; i++) dmax = fmax(dmax, lcp_csr_diag(&C->A, i));
    if (!(dmax > 0)) dmax = 1.0;
    mg->L = cholmod_analyze(&S, &mg->cc);
    if (!mg->L) return lcp_fail(err, LCP_ERROR, NULL, 0, "%s: CHOLMOD analysis of the coarse matrix failed", mg->who);
    for (double shift = 1e-10 * dmax; shift <= 1e-2 * dmax; shift *= 100) {
        double beta[2] = {shift, 0.0};
        mg->shift = shift;
        if (lcp_cholmod_factorize(&S, beta[0], mg->L, &mg->cc) && mg->cc.status == CHOLMOD_OK) return 0;
    }
    return lcp_fail(err, LCP_ERROR, NULL, 0,
                    "%s: A is not positive semidefinite (no Cholesky factor of its %d x %d Galerkin coarse matrix)",
                    mg->who, C->n, C->n);
}

void lcp_mg_free(lcp_mg *mg)
{
    if (!mg) return;
    for (int l = 0; l < mg->nl; l++) level_free(&mg->lv[l]);
    if (mg->cc_on) {
        cholmod_free_factor(&mg->L, &mg->cc);
        cholmod_free_dense(&mg->X, &mg->cc);
        cholmod_free_dense(&mg->Y, &mg->cc);
        cholmod_free_dense(&mg->E, &mg->cc);
        cholmod_finish(&mg->cc);
    }
    free(mg);
}


/* min_levels 2: a second level even when A is small (P = I then), so that
 * lcp_mg_coarse_correction always has a masked coarse level. */
static int build(lcp_mg **out, const lcp_csr *A, int cycle, const char *who, int min_levels, lcp_err *err)
{
    *out = NULL;
    if (A->m != A->n) return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "%s needs a square matrix", who);
    int n = A->n;
    for (int i = 0; i < n; i++) {
        double a = lcp_csr_diag(A, i);
        if (!(a > 0))
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "%s needs a positive diagonal, but A(%d,%d) = %g", who,
                            i + 1, i + 1, a);
    }
    if (!lcp_csr_is_symmetric(A, 1e-10))
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                        "%s needs a symmetric positive (semi)definite A, and A is not symmetric", who);
    lcp_mg *mg = lcp_calloc(1, sizeof *mg);
    int *agg = lcp_alloc((size_t)n + 1, sizeof(int));
    const int k = 1; /* the near-null space: the constant (coarser levels: its restriction) */
    double *B = lcp_alloc((size_t)n + 1, sizeof(double));
    if (!mg || !agg || !B) goto oom;
    mg->cycle = cycle == 2 ? 2 : 1;
    mg->who = who;
    lcp_cholmod_start(&mg->cc);
    mg->cc_on = 1;
    mg->nl = 1;
    if (level_alloc(&mg->lv[0], n) || lcp_csr_copy(&mg->lv[0].A, A)) goto oom;
    set_dinv(&mg->lv[0]);
    for (int i = 0; i < n; i++) B[i] = 1.0;
    for (;;) {
        level *F = &mg->lv[mg->nl - 1];
        int small = F->n <= LCP_MG_COARSE_MAX, nc = 0;
        if ((small && mg->nl >= min_levels) || mg->nl == LCP_MG_MAX_LEVELS) break;
        if (!small) {
            int nagg = aggregate(&F->A, F->dinv, agg);
            if (nagg < 0) goto oom;
            if (nagg > 0) {
                lcp_csr Pt;
                double *Bc = NULL;
                nc = tentative(F->n, B, k, agg, nagg, &Pt, &Bc);
                if (nc < 0) goto oom;
                /* stalled (hardly coarser): this is the coarsest level */
                if (nc > 0.85 * F->n) {
                    nc = 0;
                    free(Bc);
                } else {
                    int rc = smooth_prolongation(&F->A, F->dinv, &Pt, &F->P);
                    free(B);
                    B = Bc;
                    if (rc) {
                        lcp_csr_free(&Pt);
                        goto oom;
                    }
                }
                lcp_csr_free(&Pt);
            }
            if (!nc && mg->nl >= min_levels) break;
        }
        if (!nc) { /* a small A with min_levels 2, or coarsening stalled: P = I */
            nc = F->n;
            if (lcp_csr_alloc(&F->P, F->n, F->n, F->n)) goto oom;
            for (int i = 0; i < F->n; i++) {
                F->P.j[i] = i;
                F->P.x[i] = 1.0;
                F->P.p[i + 1] = i + 1;
            }
        }
        level *C = &mg->lv[mg->nl];
        if (lcp_csr_transpose(&F->P, &F->R) || galerkin(&F->R, &F->A, &F->P, &C->A) || level_alloc(C, nc))
            goto oom;
        set_dinv(C);
        mg->nl++;
    }
    free(B);
    B = NULL;
    if (mg->nl > 1 && lcp_csr_copy(&mg->lv[0].P0, &mg->lv[0].P)) goto oom;
    /* the coarse solve's workspace, made once on a scratch right-hand side */
    level *C = &mg->lv[mg->nl - 1];
    memset(&mg->cb, 0, sizeof mg->cb);
    mg->cb.nrow = mg->cb.d = mg->cb.nzmax = (size_t)C->n;
    mg->cb.ncol = 1;
    mg->cb.xtype = CHOLMOD_REAL;
    mg->cb.dtype = CHOLMOD_DOUBLE;
    free(agg);
    agg = NULL;
    int rc = coarse_factor(mg, err);
    if (rc) {
        lcp_mg_free(mg);
        return rc;
    }
    for (int i = 0; i < C->n; i++) C->b[i] = 0.0;
    coarse_solve(mg, C->b, C->x);
    if (!mg->X) {
        lcp_mg_free(mg);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "mg: CHOLMOD coarse solve failed");
    }
    *out = mg;
    return 0;
oom:
    free(agg);
    free(B);
    lcp_mg_free(mg);
    return lcp_fail(err, LCP_ERROR, NULL, 0, "%s: out of memory building the multigrid hierarchy", who);
}

int lcp_mg_build(lcp_mg **mg, const lcp_csr *A, int cycle, const char *who, lcp_err *err)
{
    return build(mg, A, cycle, who, 1, err);
}

int lcp_mg_mask(lcp_mg *mg, const unsigned char *free_rows, lcp_err *err)
{
    if (mg->nl < 2) return 0;
    level *F = &mg->lv[0];
    lcp_csr Pm;
    if (lcp_csr_alloc(&Pm, F->P0.m, F->P0.n, lcp_csr_nnz(&F->P0)))
        return lcp_fail(err, LCP_ERROR, NULL, 0, "mg: out of memory");
    int q = 0;
    for (int i = 0; i < F->n; i++) {
        if (!free_rows || free_rows[i])
            for (int k = F->P0.p[i]; k < F->P0.p[i + 1]; k++) {
                Pm.j[q] = F->P0.j[k];
                Pm.x[q++] = F->P0.x[k];
            }
        Pm.p[i + 1] = q;
    }
    lcp_csr_free(&F->P);
    lcp_csr_free(&F->R);
    F->P = Pm;
    for (int l = 0; l + 1 < mg->nl; l++) {
        level *L = &mg->lv[l], *C = &mg->lv[l + 1];
        lcp_csr_free(&C->A);
        if ((l == 0 && lcp_csr_transpose(&L->P, &L->R)) || galerkin(&L->R, &L->A, &L->P, &C->A))
            return lcp_fail(err, LCP_ERROR, NULL, 0, "mg: out of memory");
        set_dinv(C);
    }
    return coarse_factor(mg, err);
}

/* ------------------------------------------------------------ cycles */

static void coarse_solve(lcp_mg *mg, const double *b, double *x)
{
    int n = mg->lv[mg->nl - 1].n;
    mg->cb.x = (void *)b;
    if (cholmod_solve2(CHOLMOD_A, mg->L, &mg->cb, NULL, &mg->X, NULL, &mg->Y, &mg->E, &mg->cc))
        memcpy(x, mg->X->x, (size_t)n * sizeof(double));
    else
        memset(x, 0, (size_t)n * sizeof(double));
}

static void gs_sweep(const level *L, const double *b, double *x, int backward)
{
    const lcp_csr *A = &L->A;
    int n = L->n;
    for (int s = 0; s < n; s++) {
        int i = backward ? n - 1 - s : s;
        if (L->dinv[i] == 0.0) continue;
        double r = b[i];
        for (int k = A->p[i]; k < A->p[i + 1]; k++) r -= A->x[k] * x[A->j[k]];
        x[i] += r * L->dinv[i];
    }
}

static void residual(const lcp_csr *A, const double *b, const double *x, double *r)
{
    for (int i = 0; i < A->m; i++) {
        double s = b[i];
        for (int k = A->p[i]; k < A->p[i + 1]; k++) s -= A->x[k] * x[A->j[k]];
        r[i] = s;
    }
}

static void cycle(lcp_mg *mg, int l, const double *b, double *x);

/* x_c = (one or two cycles at level c from zero) for A_c x_c = b_c, both in lv[c] */
static void coarse_cycles(lcp_mg *mg, int c)
{
    level *C = &mg->lv[c];
    cycle(mg, c, C->b, C->x);
    if (mg->cycle == 2 && c < mg->nl - 1) {
        residual(&C->A, C->b, C->x, C->b2);
        cycle(mg, c, C->b2, C->e);
        for (int i = 0; i < C->n; i++) C->x[i] += C->e[i];
    }
}

static void cycle(lcp_mg *mg, int l, const double *b, double *x)
{
    if (l == mg->nl - 1) {
        coarse_solve(mg, b, x);
        return;
    }
    level *L = &mg->lv[l], *C = &mg->lv[l + 1];
    memset(x, 0, (size_t)L->n * sizeof(double));
    gs_sweep(L, b, x, 0);
    residual(&L->A, b, x, L->t);
    lcp_csr_matvec(&L->R, L->t, C->b);
    coarse_cycles(mg, l + 1);
    for (int i = 0; i < L->n; i++) {
        double s = 0.0;
        for (int k = L->P.p[i]; k < L->P.p[i + 1]; k++) s += L->P.x[k] * C->x[L->P.j[k]];
        x[i] += s;
    }
    gs_sweep(L, b, x, 1);
}

void lcp_mg_cycle(lcp_mg *mg, const double *r, double *x) { cycle(mg, 0, r, x); }

void lcp_mg_coarse_correction(lcp_mg *mg, const double *r, double *e)
{
    level *L = &mg->lv[0];
    if (mg->nl < 2) {
        coarse_solve(mg, r, e);
        return;
    }
    level *C = &mg->lv[1];
    lcp_csr_matvec(&L->R, r, C->b);
    coarse_cycles(mg, 1);
    lcp_csr_matvec(&L->P, C->x, e);
}

int lcp_mg_levels(const lcp_mg *mg) { return mg->nl; }
const lcp_csr *lcp_mg_matrix(const lcp_mg *mg, int l) { return &mg->lv[l].A; }
const lcp_csr *lcp_mg_prolongation(const lcp_mg *mg, int l) { return &mg->lv[l].P; }

int lcp_mg_build_projected(lcp_mg **mg, const lcp_csr *A, int cycle, const char *who, lcp_err *err)
{
    return build(mg, A, cycle, who, 2, err);
}

/* ------------------------------------------------------------ the preconditioner */

static int setup(const lcp_csr *A, const struct lcp_settings_s *s, void **state, lcp_err *err)
{
    lcp_mg *mg;
    int rc = lcp_mg_build(&mg, A, s ? s->mg.cycle : 1, "preconditioner mg", err);
    if (rc) return rc;
    *state = mg;
    return 0;
}

static void apply(void *state, const double *r, double *y) { lcp_mg_cycle(state, r, y); }

static void release(void *state) { lcp_mg_free(state); }

const lcp_precond_type lcp_precond_mg = {
    "mg", "smoothed-aggregation algebraic multigrid, one V-cycle (--cycle W: W-cycle) from zero", setup, apply,
    release};
