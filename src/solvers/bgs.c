/* src/solvers/bgs.c: block Gauss-Seidel for lcp and blcp, each block solved
 * exactly (Cottle, Pang and Stone 1992, 5.2 "block iterative methods";
 * Kaufman, Tamaki, Pai 2008's block PGS for contact groups).
 *
 * Blocking rule (formed once, from the graph of A): the rows are visited in
 * order; a row not yet in a block starts a new one, which then grows
 * greedily: among the rows not yet in any block that are neighbours in A of
 * a row of the block, the one with the strongest normalised coupling
 *     c_ij = |A_ij| / sqrt(A_ii A_jj)
 * to a member joins (a findex partner -- findex[j] = i or findex[i] = j --
 * first), until the block has BMAX = 8 rows or no neighbour left has
 * c_ij >= CMIN = 0.01.  Contact rows sharing a body are coupled, so a
 * block is a small cluster of contacts (a face's contact points, a chain's
 * neighbours); an isolated row is a block of one (then bgs is pgs there).
 * The blocks are visited in the order of their first rows.
 *
 * One sweep: for each block B, with the other rows fixed at their latest
 * values, q_B = b_B + A_{B,rest} x_rest, and the block's box LCP
 *     w_B = A_BB y + q_B,  y = mid(lo, y - w_B, hi)
 * (bounds at the current x; lcp: [0, inf)) is solved exactly by principal
 * pivoting (the incremental Dantzig scheme of src/solvers/pivot.c, dense
 * and small: the rows of the block are taken one at a time, the taken ones
 * kept complementary in the sets C (w = 0) and N (at a bound), each drive
 * ending when w_i = 0, y_i reaches a bound, a C row reaches a bound or an N
 * row's w reaches 0; the direction from an LU solve with A_CC), started
 * from the block's current values.  Rows whose Schur complement vanishes
 * (dependent contacts, singular A_BB) never enter C.  findex friction rows
 * take bounds +-mu_i |x_j| at the current x; when the normal row j is in
 * the same block, the block is solved again with the new bounds, up to
 * FINDEX_PASSES times, until they move by at most 1e-3 tol max(1, |b|)
 * (a fixed point on the bounds, as pivot does).  An
 * answer is checked (natural-map residual of the block); if a block solve
 * fails (a ray, cycling, a singular A_CC), that visit is a projected
 * Gauss-Seidel pass over the block's rows instead, and the run's message
 * counts such visits.
 *
 * Every row needs A_ii > 0.  A sweep costs one pass over nnz(A) plus the
 * block solves (O(8^3) each at most per pivot).  Trace columns: max_dx (the
 * largest change of x in the sweep) and pivots (in the sweep's block
 * solves).
 */
#include "solver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {"max_dx", "pivots", NULL};

#define BMAX 8           /* rows a block at most */
#define CMIN 0.01        /* weakest normalised coupling that joins a block */
#define FINDEX_PASSES 5  /* block solves per visit for findex bounds inside the block */

enum { ST_OUT = 0, ST_C, ST_LO, ST_HI, ST_FIX };

/* LU factors of the dense k x k G (row-major, in place) with partial
 * pivoting, rows permuted in piv; non-zero if singular. */
static int dense_factor(int k, double *G, int *piv)
{
    double gmax = 0.0;
    for (int a = 0; a < k * k; a++) gmax = fmax(gmax, fabs(G[a]));
    for (int a = 0; a < k; a++) piv[a] = a;
    for (int c = 0; c < k; c++) {
        int pr = c;
        for (int a = c + 1; a < k; a++)
            if (fabs(G[piv[a] * k + c]) > fabs(G[piv[pr] * k + c])) pr = a;
        int t = piv[c];
        piv[c] = piv[pr];
        piv[pr] = t;
        double d = G[piv[c] * k + c];
        if (!(fabs(d) > 1e-13 * gmax)) return 1;
        for (int a = c + 1; a < k; a++) {
            double l = G[piv[a] * k + c] / d;
            G[piv[a] * k + c] = l;
            for (int e = c + 1; e < k; e++) G[piv[a] * k + e] -= l * G[piv[c] * k + e];
        }
    }
    return 0;
}

/* Solves G z = r with the factors of dense_factor; r is overwritten by z. */
static void dense_lusolve(int k, const double *G, const int *piv, double *r)
{
    double y[BMAX], z[BMAX];
    for (int c = 0; c < k; c++) {
        double s = r[piv[c]];
        for (int e = 0; e < c; e++) s -= G[piv[c] * k + e] * y[e];
        y[c] = s;
    }
    for (int c = k - 1; c >= 0; c--) {
        double s = y[c];
        for (int e = c + 1; e < k; e++) s -= G[piv[c] * k + e] * z[e];
        z[c] = s / G[piv[c] * k + c];
    }
    for (int c = 0; c < k; c++) r[c] = z[c];
}

/* Solves the dense k x k system G z = r in place (G destroyed); non-zero
 * if singular. */
static int dense_solve(int k, double *G, double *r)
{
    int piv[BMAX];
    if (dense_factor(k, G, piv)) return 1;
    dense_lusolve(k, G, piv, r);
    return 0;
}

static void block_w(int k, const double *H, const double *q, const double *y, double *w)
{
    for (int a = 0; a < k; a++) {
        double s = q[a];
        for (int c = 0; c < k; c++) s += H[a * k + c] * y[c];
        w[a] = s;
    }
}

/* Is y complementary for the block's box LCP?  Natural map against the
 * block's own scale. */
static int block_ok(int k, const double *H, const double *q, const double *lo, const double *hi, const double *y)
{
    double w[BMAX], scale = 1.0, err = 0.0;
    block_w(k, H, q, y, w);
    for (int a = 0; a < k; a++) {
        scale = fmax(scale, fabs(q[a]));
        double t = 0.0;
        for (int c = 0; c < k; c++) t += fabs(H[a * k + c] * y[c]);
        scale = fmax(scale, t);
        err = fmax(err, fabs(y[a] - fmin(fmax(y[a] - w[a], lo[a]), hi[a])));
    }
    return err <= 1e-11 * scale;
}

/* The block's box LCP by incremental principal pivoting, from y (inside the
 * box).  Returns the pivots taken, or -1 on failure (ray, cycling, a
 * singular A_CC). */
static int block_lcp(int k, const double *H, const double *q, const double *lo, const double *hi, double *y,
                     signed char *st_out)
{
    int st[BMAX], cl[BMAX], pivots = 0;
    double w[BMAX], dy[BMAX], dw[BMAX], G[BMAX * BMAX], z[BMAX];
    for (int a = 0; a < k; a++) {
        st[a] = ST_OUT;
        y[a] = fmin(fmax(y[a], lo[a]), hi[a]);
    }
    block_w(k, H, q, y, w);
    for (int i = 0; i < k; i++) {
        for (;;) {
            double wscale = fabs(q[i]);
            for (int c = 0; c < k; c++) wscale += fabs(H[i * k + c] * y[c]);
            double wtol = 1e-13 * wscale;
            if (lo[i] == hi[i]) {
                st[i] = ST_FIX;
                break;
            }
            if (y[i] <= lo[i] && w[i] >= -wtol) {
                y[i] = lo[i];
                st[i] = ST_LO;
                break;
            }
            if (y[i] >= hi[i] && w[i] <= wtol) {
                y[i] = hi[i];
                st[i] = ST_HI;
                break;
            }
            /* the direction: dy_i = dir, dy_C = -A_CC^-1 A_Ci dir */
            int m = 0;
            for (int a = 0; a < k; a++)
                if (st[a] == ST_C) cl[m++] = a;
            double dir = w[i] > 0 ? -1.0 : 1.0;
            if (fabs(w[i]) <= wtol) { /* interior and w_i = 0: in C if independent, else to a bound */
                dir = isfinite(hi[i]) || !isfinite(lo[i]) ? 1.0 : -1.0;
            }
            for (int a = 0; a < k; a++) dy[a] = 0.0;
            dy[i] = dir;
            if (m) {
                for (int a = 0; a < m; a++) {
                    for (int c = 0; c < m; c++) G[a * m + c] = H[cl[a] * k + cl[c]];
                    z[a] = -H[cl[a] * k + i] * dir;
                }
                if (dense_solve(m, G, z)) return -1;
                for (int a = 0; a < m; a++) dy[cl[a]] = z[a];
            }
            double dymax = 0.0;
            for (int a = 0; a < k; a++) dymax = fmax(dymax, fabs(dy[a]));
            for (int a = 0; a < k; a++) {
                double s = 0.0, sa = 0.0;
                for (int c = 0; c < k; c++) {
                    s += H[a * k + c] * dy[c];
                    sa += fabs(H[a * k + c] * dy[c]);
                }
                dw[a] = fabs(s) <= 1e-10 * sa ? 0.0 : s; /* no change of w_a (a dependent row) */
                if (st[a] == ST_C) dw[a] = 0.0;
            }
            if (fabs(w[i]) <= wtol && dw[i] * dir > 0) { /* independent, w_i = 0: joins C */
                st[i] = ST_C;
                break;
            }
            double tbest = INFINITY;
            int ev = 0, who = -1; /* 1 (a) w_i = 0, 2 (b) y_i at bound, 3 (c) C row at bound, 4 (d) N row's w = 0 */
            if (dw[i] * dir > 0) {
                tbest = fmax(-w[i] / dw[i], 0.0);
                ev = 1;
            }
            {
                double t = dir > 0 ? hi[i] - y[i] : y[i] - lo[i];
                if (t < tbest) tbest = fmax(t, 0.0), ev = 2;
            }
            for (int a = 0; a < m; a++) {
                int c = cl[a];
                double t = INFINITY;
                if (dy[c] < -1e-12 * dymax && isfinite(lo[c])) t = (lo[c] - y[c]) / dy[c];
                else if (dy[c] > 1e-12 * dymax && isfinite(hi[c])) t = (hi[c] - y[c]) / dy[c];
                if (t < tbest) tbest = fmax(t, 0.0), ev = 3, who = c;
            }
            for (int a = 0; a < k; a++) {
                if (a == i) continue;
                double t = INFINITY;
                if (st[a] == ST_LO && dw[a] < 0) t = -w[a] / dw[a];
                else if (st[a] == ST_HI && dw[a] > 0) t = -w[a] / dw[a];
                if (t < tbest) tbest = fmax(t, 0.0), ev = 4, who = a;
            }
            if (!ev || !isfinite(tbest)) return -1; /* a ray: the block has no solution as it stands */
            for (int a = 0; a < k; a++) y[a] += tbest * dy[a];
            if (++pivots > 10 * k + 20) return -1;
            if (ev == 2) y[i] = dir > 0 ? hi[i] : lo[i];
            if (ev == 3) {
                y[who] = dy[who] < 0 ? lo[who] : hi[who];
                st[who] = dy[who] < 0 ? ST_LO : ST_HI;
            }
            block_w(k, H, q, y, w);
            if (ev == 1) {
                st[i] = ST_C;
                break;
            }
            if (ev == 2) {
                st[i] = dir > 0 ? ST_HI : ST_LO;
                break;
            }
            if (ev == 4) st[who] = ST_C;
        }
    }
    for (int a = 0; a < k; a++) st_out[a] = (signed char)st[a];
    return pivots;
}

/* The fast path (temporal coherence): the index sets of the block's last
 * visit, st (C: w = 0, LO/HI/FIX: at that bound), give y by one solve
 * A_CC y_C = -(q_C + A_CN y_N); accepted (0) when y_C is inside its box and
 * every N row's w has its sign. */
/* lu: the block's cached factors of A_CC (k*k doubles, k pivots) for the
 * set *mask (bit a: row a in C; -1: none yet). */
typedef struct {
    double *G;
    int *piv;
    int *mask;
} lu_cache;

static int block_guess(int k, const double *H, const double *q, const double *lo, const double *hi,
                       const signed char *st, double *y, lu_cache lu)
{
    int cl[BMAX], m = 0, mask = 0;
    double z[BMAX], yt[BMAX];
    for (int a = 0; a < k; a++) {
        if (st[a] == ST_C && lo[a] < hi[a]) {
            cl[m++] = a;
            mask |= 1 << a;
            continue;
        }
        double v = st[a] == ST_HI ? hi[a] : lo[a]; /* lo = hi (ST_FIX): that value */
        if (!isfinite(v)) return 1;
        yt[a] = v;
    }
    for (int a = 0; a < m; a++) {
        double r = -q[cl[a]];
        for (int c = 0; c < k; c++)
            if (!(mask >> c & 1)) r -= H[cl[a] * k + c] * yt[c];
        z[a] = r;
    }
    if (m && mask != *lu.mask) {
        *lu.mask = -1;
        for (int a = 0; a < m; a++)
            for (int c = 0; c < m; c++) lu.G[a * m + c] = H[cl[a] * k + cl[c]];
        if (dense_factor(m, lu.G, lu.piv)) return 1;
        *lu.mask = mask;
    }
    if (m) dense_lusolve(m, lu.G, lu.piv, z);
    for (int a = 0; a < m; a++) {
        int c = cl[a];
        if (!(z[a] >= lo[c] && z[a] <= hi[c])) return 1;
        yt[c] = z[a];
    }
    /* w_C = 0 by construction; the rows at a bound need w of their sign */
    for (int a = 0; a < k; a++) {
        if (mask >> a & 1 || lo[a] == hi[a]) continue;
        double w = q[a], scale = fmax(1.0, fabs(q[a]));
        for (int c = 0; c < k; c++) {
            double t = H[a * k + c] * yt[c];
            w += t;
            scale = fmax(scale, fabs(t));
        }
        if (st[a] == ST_HI ? !(w <= 1e-11 * scale) : !(w >= -1e-11 * scale)) return 1;
    }
    for (int a = 0; a < k; a++) y[a] = yt[a];
    return 0;
}

/* The fallback: one projected Gauss-Seidel pass over the block's rows. */
static void block_pgs(int k, const double *H, const double *q, const double *lo, const double *hi, double *y)
{
    for (int a = 0; a < k; a++) {
        double r = q[a];
        for (int c = 0; c < k; c++) r += H[a * k + c] * y[c];
        y[a] = fmin(fmax(y[a] - r / H[a * k + a], lo[a]), hi[a]);
    }
}

typedef struct {
    int nblk;
    int *bptr;  /* nblk + 1 */
    int *rows;  /* n: rows of block b are rows[bptr[b] .. bptr[b+1]) */
    int *blk;   /* n: the block of each row */
    int *pos;   /* n: a row's place in its block */
    long *hoff; /* nblk + 1: offsets of the dense blocks in H */
    double *H;  /* the dense A_BB, row-major */
    int *inner; /* nblk: 1 if a findex row of the block refers to a row of the same block */
    signed char *st; /* n: each row's index set at its block's last visit (ST_C, ST_LO, ...) */
    double *luG;     /* the blocks' cached LU factors of A_CC, at hoff */
    int *lupiv;      /* n: their pivots, at bptr */
    int *lumask;     /* nblk: the C set they factor, -1 for none */
} blocking;

static void blocking_free(blocking *B)
{
    free(B->bptr);
    free(B->rows);
    free(B->blk);
    free(B->pos);
    free(B->hoff);
    free(B->H);
    free(B->inner);
    free(B->st);
    free(B->luG);
    free(B->lupiv);
    free(B->lumask);
}

static int make_blocks(const lcp_problem *p, const double *dinv, blocking *B)
{
    int n = p->n;
    const int *ap = p->A.p, *aj = p->A.j;
    const double *ax = p->A.x;
    memset(B, 0, sizeof *B);
    B->bptr = lcp_alloc((size_t)n + 1, sizeof(int));
    B->rows = lcp_alloc((size_t)n, sizeof(int));
    B->blk = lcp_alloc((size_t)n, sizeof(int));
    B->pos = lcp_alloc((size_t)n, sizeof(int));
    B->hoff = lcp_alloc((size_t)n + 1, sizeof(long));
    B->inner = lcp_calloc((size_t)n, sizeof(int));
    B->st = lcp_calloc((size_t)n, sizeof(signed char));
    if (!B->bptr || !B->rows || !B->blk || !B->pos || !B->hoff || !B->inner || !B->st) return 1;
    for (int i = 0; i < n; i++) B->blk[i] = -1;
    int nr = 0, nb = 0;
    long hsize = 0;
    for (int i = 0; i < n; i++) {
        if (B->blk[i] >= 0) continue;
        int first = nr;
        B->bptr[nb] = first;
        B->rows[nr++] = i;
        B->blk[i] = nb;
        while (nr - first < BMAX) {
            int best = -1;
            double bc = CMIN;
            for (int a = first; a < nr; a++) {
                int r = B->rows[a];
                if (p->findex && p->findex[r] >= 0 && B->blk[p->findex[r]] < 0 && 2.0 > bc)
                    best = p->findex[r], bc = 2.0;
                for (int e = ap[r]; e < ap[r + 1]; e++) {
                    int j = aj[e];
                    if (B->blk[j] >= 0) continue;
                    double c = fabs(ax[e]) * sqrt(dinv[r] * dinv[j]);
                    if (p->findex && p->findex[j] == r) c = 2.0;
                    if (c > bc) best = j, bc = c;
                }
            }
            if (best < 0) break;
            B->rows[nr++] = best;
            B->blk[best] = nb;
        }
        int k = nr - first;
        for (int a = 0; a < k; a++) B->pos[B->rows[first + a]] = a;
        B->hoff[nb] = hsize;
        hsize += (long)k * k;
        nb++;
    }
    B->bptr[nb] = nr;
    B->hoff[nb] = hsize;
    B->nblk = nb;
    B->H = lcp_calloc((size_t)(hsize ? hsize : 1), sizeof(double));
    B->luG = lcp_calloc((size_t)(hsize ? hsize : 1), sizeof(double));
    B->lupiv = lcp_calloc((size_t)n + 1, sizeof(int));
    B->lumask = lcp_alloc((size_t)nb + 1, sizeof(int));
    if (!B->H || !B->luG || !B->lupiv || !B->lumask) return 1;
    for (int b = 0; b < nb; b++) B->lumask[b] = -1;
    for (int b = 0; b < nb; b++) {
        int k = B->bptr[b + 1] - B->bptr[b];
        double *H = B->H + B->hoff[b];
        for (int a = 0; a < k; a++) {
            int r = B->rows[B->bptr[b] + a];
            for (int e = ap[r]; e < ap[r + 1]; e++)
                if (B->blk[aj[e]] == b) H[a * k + B->pos[aj[e]]] = ax[e];
            if (p->findex && p->findex[r] >= 0 && B->blk[p->findex[r]] == b) B->inner[b] = 1;
        }
    }
    return 0;
}

static int bgs_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                     lcp_err *err)
{
    if (p->kind & LCP_KIND_FRICTION) { /* the blocks are the 3x3 contacts, each solved exactly: nsgs's sweeps */
        lcp_settings exact = *s;
        exact.nsgs.local = LCP_LOCAL_EXACT;
        double extra[2] = {0.0, 0.0}; /* max_dx (the largest |dr| of a contact), pivots (none) */
        return lcp_nsgs_run(p, &exact, x, mon, info, err, extra);
    }
    double *dinv = NULL;
    int rc = lcp_inverse_diagonal(p, "bgs", &dinv, err);
    if (rc) return rc;
    blocking B;
    if (make_blocks(p, dinv, &B)) {
        blocking_free(&B);
        free(dinv);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    }
    const int *ap = p->A.p, *aj = p->A.j;
    const double *ax = p->A.x;
    int box = p->kind == LCP_KIND_BLCP;
    long fallbacks = 0;
    double btol = 1.0; /* findex bounds that moved less than this need no second block solve */
    for (int i = 0; i < p->n; i++) btol = fmax(btol, fabs(p->b[i]));
    btol *= 1e-3 * s->tol;
    double extra[2] = {0.0, 0.0};
    for (int i = 0; i < p->n; i++) { /* the first guess: the sets the start x suggests */
        double l = 0.0, h = INFINITY;
        if (box) lcp_problem_bounds(p, x, i, &l, &h);
        B.st[i] = x[i] <= l ? ST_LO : x[i] >= h ? ST_HI : ST_C;
    }
    if (!lcp_monitor_step(mon, 0, x, extra)) {
        for (int it = 1;; it++) {
            double dmax = 0.0;
            long pivots = 0;
            for (int b = 0; b < B.nblk; b++) {
                const int *R = B.rows + B.bptr[b];
                int k = B.bptr[b + 1] - B.bptr[b];
                const double *H = B.H + B.hoff[b];
                double q[BMAX], lo[BMAX], hi[BMAX], y[BMAX], x0[BMAX];
                for (int a = 0; a < k; a++) {
                    int r = R[a];
                    double t = p->b[r];
                    for (int e = ap[r]; e < ap[r + 1]; e++)
                        if (B.blk[aj[e]] != b) t += ax[e] * x[aj[e]];
                    q[a] = t;
                    x0[a] = y[a] = x[r];
                }
                for (int pass = 0; pass < (B.inner[b] ? FINDEX_PASSES : 1); pass++) {
                    int changed = 0;
                    for (int a = 0; a < k; a++) {
                        double l = 0.0, h = INFINITY;
                        if (box) lcp_problem_bounds(p, x, R[a], &l, &h);
                        if (pass == 0 || !(fabs(l - lo[a]) <= btol) || !(fabs(h - hi[a]) <= btol)) changed = 1;
                        lo[a] = l;
                        hi[a] = h;
                    }
                    if (!changed) break;
                    signed char *st = B.st + B.bptr[b];
                    lu_cache lu = {B.luG + B.hoff[b], B.lupiv + B.bptr[b], B.lumask + b};
                    if (block_guess(k, H, q, lo, hi, st, y, lu)) {
                        int np = block_lcp(k, H, q, lo, hi, y, st);
                        if (np < 0 || !block_ok(k, H, q, lo, hi, y)) {
                            for (int a = 0; a < k; a++) y[a] = x0[a];
                            block_pgs(k, H, q, lo, hi, y);
                            fallbacks++;
                            for (int a = 0; a < k; a++) /* the sets y now suggests */
                                st[a] = y[a] <= lo[a] ? ST_LO : y[a] >= hi[a] ? ST_HI : ST_C;
                        } else {
                            pivots += np;
                        }
                    }
                    for (int a = 0; a < k; a++) x[R[a]] = y[a];
                    if (!B.inner[b]) break;
                }
                for (int a = 0; a < k; a++) dmax = fmax(dmax, fabs(y[a] - x0[a]));
            }
            extra[0] = dmax;
            extra[1] = (double)pivots;
            if (lcp_monitor_step(mon, it, x, extra)) break;
        }
    }
    if (fallbacks)
        snprintf(info->message, sizeof info->message,
                 "%ld block solves failed and took a projected Gauss-Seidel pass instead", fallbacks);
    info->iterations = mon->iter;
    blocking_free(&B);
    free(dinv);
    return 0;
}

const lcp_solver lcp_solver_bgs = {"bgs",
                                   "block Gauss-Seidel, blocks of <= 8 coupled rows solved exactly (pivoting)",
                                   LCP_KIND_LCP | LCP_KIND_BLCP | LCP_KIND_FRICTION, columns, bgs_solve, NULL, LCP_SOLVER_LINEAR, 0};
