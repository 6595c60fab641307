/* src/solvers/pivot.c: principal pivoting for box LCPs with friction index
 * (the incremental Dantzig scheme of ODE's dLCP and Bullet's btDantzigLCP).
 *
 * Problem (blcp; an lcp is the box [0, inf)): find x with lo <= x <= hi,
 * w = A x + b, and for each row i
 *     x_i = lo_i => w_i >= 0,   x_i = hi_i => w_i <= 0,   lo_i < x_i < hi_i => w_i = 0.
 *
 * Method (Cottle and Dantzig 1968, "Complementary pivot theory of
 * mathematical programming", the principal pivoting method; Baraff 1994,
 * "Fast contact force computation for nonpenetrating rigid bodies",
 * SIGGRAPH; R. Smith, ODE's lcp.cpp; Cottle, Pang and Stone 1992, ch. 4).
 * The rows are taken one at a time.  Rows already taken are in one of the
 * index sets
 *     C (clamped):  w_k = 0,             lo_k <= x_k <= hi_k
 *     N (at bound): x_k = lo_k, w_k >= 0  or  x_k = hi_k, w_k <= 0
 *                   (or lo_k = hi_k: any w_k)
 * and the rows not yet taken sit at s_k = mid(lo_k, 0, hi_k), so every taken
 * row is complementary at each step.  Taking row i: if x_i = s_i is already
 * complementary, i joins N at no cost.  Otherwise x_i is driven in the
 * direction d = -sign(w_i) that brings w_i towards 0, the set C kept
 * clamped:
 *     dx_i = d,  A_CC dx_C = -A_Ci d,  dx_N = 0,   dw = A dx (dw_C = 0),
 *     dw_i = d (A_ii - A_iC A_CC^-1 A_Ci)          (a Schur complement, > 0)
 * along x + t dx, w + t dw, until the first of
 *     (a) w_i = 0                 -> i joins C, row i done
 *     (b) x_i reaches its bound   -> i joins N, row i done
 *     (c) some x_k, k in C, reaches lo_k or hi_k  -> k moves to N
 *     (d) some w_k, k in N, reaches 0 from its side -> k moves to C
 * and after (c) or (d) the direction is recomputed for the new C and the
 * drive goes on.  Each such step is one pivot.  For A positive definite (or
 * P) every Schur complement is positive and the scheme ends after finitely
 * many pivots; for A symmetric positive semidefinite it ends as well or in a
 * ray.  On a ray (no step ends the drive) the direction d (x_i and x_C) lies
 * in the recession cone of the box; if A'd = 0 and b'd < 0 it is a Farkas
 * certificate: any solution would have w'd = b'd < 0, while complementarity
 * makes every w_k d_k >= 0 -- no solution, with that evidence.
 *
 * Factorisation: A_CC = L U (no pivoting, L unit lower, U kept as U' in a
 * lower triangle), dense n x n each (BLAS dtrsv for the solves).  A row
 * joining C borders the factors (O(|C|^2)); a row leaving C drops its row
 * and column, which leaves L2 U2 + l u' on the trailing block, a rank-1
 * update done in place (Bennett 1965, "Triangular factors of modified
 * matrices", Numer. Math. 7).  Every 2|C| + 200 updates the block is
 * refactored from A (blocked right-looking LU: dger, dtrsm, dgemm).  No
 * pivoting is needed: A_CC is positive definite (or P), so its Schur
 * complements are positive.  A pivot below 1e-12 A_kk is raised to that (a
 * tiny regularisation, like a constraint force mixing term); one below
 * -1e-8 A_kk means A is not positive semidefinite and ends the solve.  A
 * step with |dw_k| <= 1e-10 max((|A| |dx|)_k, max_j |A_kj| max|dx|) counts
 * as no change of w_k: a row dependent on C (redundant contacts, PSD A)
 * has dw_k = 0 in exact arithmetic, so it never enters C and C stays
 * nonsingular.  Rounding: after each pivot w is taken from the monitor's
 * A x + b (exact, no drift), and when w_C has drifted from 0 by more than
 * 1e-12 max(1, |b|), one step of iterative refinement corrects x_C.
 *
 * Friction (findex[i] = j): the bounds of row i are -+ mu_i |x_j|.  As in
 * ODE, findex rows are taken after all the others (free rows first, then
 * bounded ones), and each takes its bounds from x_j at the moment it is
 * taken; they stay fixed for the rest of that pass.  Then an outer
 * fixed-point loop: each later pass keeps the index sets and factors, and
 * goes through the findex rows giving each the bounds at the current x; a
 * row that no longer fits them (x outside the new box, or at a bound that
 * moved) leaves its set (x_i stays, so the others stay complementary) and
 * is taken again, first moved into its box along the same kind of
 * direction ((e): x_i reaches the box, the others kept complementary).
 * Passes stop when the bounds change by at most 1e-3 tol (relative), or
 * stall (10 passes without a smaller change), or after 1000.  The common
 * blcp residual (src/core/verify.c, bounds at the final x) decides "solved",
 * never this solver; the fixed point converges linearly and may fail for
 * large mu (the message says so).
 *
 * Crash start (--crash, default auto; Dirkse and Ferris 1997, the start of
 * PATH and of lemke --crash), for a symmetric A: the first pass goes on
 * from a guess x* -- the --warm-start, else (lcp only) the answer of ipm
 * to 1e-8 in 200 iterations at most, or of the solver --crash names
 * (src/solvers/crash.c) -- instead of from s.  With the bounds at x* and
 * w* = A x* + b, row k is clamped where x*_k lies more than 1e-9 max|x*|
 * inside its box and its load outweighs w*_k (A_kk (x*_k - lo_k) > w*_k,
 * A_kk (hi_k - x*_k) > -w*_k; free rows always), else it is at its nearer
 * bound.  C, by decreasing load, is factored a block of 64 rows at a time
 * bordered onto the rows kept so far (crash_factor: left-looking, BLAS 3
 * over the kept set only); a row whose pivot is below 1e-10 A_kk depends
 * on the rows before it (for A symmetric positive semidefinite its whole
 * Schur row and column are ~0) and is DROPPED from C, not regularised:
 * its column of L is 0, so leaving it out leaves the factors of the
 * smaller A_CC exact; it goes to its bound.  An lcp with dropped rows is
 * then purified (lcp_crash_purify, as lemke: CHOLMOD on A(C, C)): the
 * loads of the dropped rows are pushed along null directions of A onto C,
 * exchanging rows, to a vertex of the solution set -- ipm's answer is an
 * interior point of that set when A is singular (pyramids: 4 contacts a
 * face), and the basic solution of an interior point leaves hundreds of
 * loads negative, each then costing pivots -- and the new C is factored
 * the same way.  Then x_C = -A_CC^-1 (b_C + A_CN x_N) (refined twice at
 * most), and the rows left non-complementary (k in C with x_k outside its
 * box, k at a bound with w_k on the wrong side beyond rounding) become
 * untaken with x_k kept (removing a clamped row while x_k stays leaves
 * every other x and w_C as they are; one factor afresh when many, else
 * one removal each); the monitor checks that point as one pivot, and the
 * first pass takes the untaken rows as above ((e) brings an x_k outside
 * its box into it).  Everything else -- the verdicts, the ray certificate,
 * the findex passes -- is as from scratch.  A non-symmetric A, no guess
 * (ipm refused the problem or gave a verdict: a monotone problem without
 * solution is certified infeasible by ipm), a crash factor with a clearly
 * negative pivot, or a first pass from the crash that ends in an error
 * (no verdict is drawn from a crash start) or, without findex rows, above
 * tol (rounding on an ill-conditioned clamped set: a heavy-on-light
 * pyramid, mass ratio 1e6, ends its crash pass at 5e-7): from scratch,
 * once.  The message names the start used.  --crash none: from scratch, always.
 *
 * Monitor: row 0 checks the caller's x (a --warm-start that already solves
 * ends there with 0 pivots; otherwise it is the crash's guess, or with
 * --crash none the scheme starts afresh from s), and
 * one row follows each pivot (a pass that ends on a point the monitor has
 * not seen -- no pivot at all, or a refinement after the last -- counts one
 * more, so that point is checked).  Trace columns: pivots (so far, all
 * passes) and clamped (|C|).  iterations = pivots.  Verdicts of its own:
 * no_solution on a certified ray; error on cycling (more than 50 n + 1000
 * pivots in a pass), on a negative pivot, or a ray without certificate.
 * Memory: two dense n x n factors (and (2 n + 64) 64 doubles for the
 * crash's blocks); n with more than 4 GiB of factors is refused; nothing
 * is allocated after the start (ipm and the purification, run for the
 * crash, allocate their own).
 */
#include "solver.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {"pivots", "clamped", NULL};

#define PIV_ZERO 1e-10    /* |dw_k| <= PIV_ZERO max((|A||dx|)_k, max|A_k.| max|dx|): w_k does not move */
#define DX_ZERO 1e-13     /* |dx_k| <= DX_ZERO max|dx|: x_k does not move */
#define PIV_REG 1e-12     /* smallest pivot, relative to A_kk (regularisation) */
#define PIV_NEG 1e-8      /* a pivot below -PIV_NEG A_kk: A is not PSD */
#define CERT_TOL 1e-9     /* ray certificate: |A'd| <= CERT_TOL (|A'||d|), b'd < -CERT_TOL |b|'|d| */
#define MAX_PASSES 1000   /* friction fixed-point passes */
#define STALL_PASSES 10   /* passes without a smaller bound change: stalled */
#define REFINE 1e-12      /* refine x_C when max_C |w_k| > REFINE max(1, |b|) */
#define SETTLED 1e-3      /* bounds settled: relative change <= SETTLED tol */
#define LU_BLOCK 64       /* block size of the refactorisation */
#define MAX_DENSE_BYTES (4.0 * 1024 * 1024 * 1024) /* both factors together */
#define CRASH_X 1e-9      /* crash: x*_k clamped when more than CRASH_X max|x*| inside its box ... */
#define CRASH_DEP 1e-10   /* crash: a pivot below CRASH_DEP A_kk is a dependent row: dropped from C */

enum { S_U, S_C, S_LO, S_HI, S_FIX, S_ZERO }; /* untaken, clamped, at lo, at hi, lo = hi, w = 0 off C */
enum { B_NONE, B_SELF_C, B_SELF_BOUND, B_C_OUT, B_N_IN }; /* what ends a step: (a) (b)/(e) (c) (d) */

typedef struct {
    const lcp_problem *p;   /* borrowed */
    lcp_csr At;             /* A' (row k = column k of A), owned */
    int n;
    int nc;                 /* |C| */
    double *L, *Ut;         /* n x n column-major: A_CC = L U, L unit lower, Ut = U' */
    int *cidx;              /* C in factor order */
    int *pos;               /* pos[k] = position of k in cidx, -1 off C */
    int *state;             /* S_* per row */
    int *order;             /* the order rows are taken in */
    double *lo, *hi;        /* bounds of the current pass */
    double *diag;           /* A_kk */
    double *rowmax;         /* max_j |A_kj| */
    double *w;              /* A x + b: the monitor's after each pivot, updated along a step */
    double *dxc;            /* dx_C in factor order; also a solve buffer */
    double *dw, *dwabs;     /* A dx and |A| |dx| */
    double *xv, *yv;        /* the rank-1 vectors of a removal */
    double *tmp;            /* gathered rows and columns */
    double diagmax;
    double wscale;          /* max(1, |b|_inf), the residual's scale */
    int updates;            /* factor changes since the last refactorisation */
    long regs;              /* pivots raised by the regularisation */
    int pivots, pass_start; /* pivots so far, at the start of this pass */
    long guard;             /* pivots a pass may take */
    int seen;               /* the monitor has seen the current x */
    int crashed;            /* the first pass goes on from the crash start's sets */
    double *guess;          /* the crash start's guess x* (n) */
    char *dropq;            /* crash: dependent rows of a block; C rows to leave; purify's flags */
    int *dep;               /* crash: the dropped rows (purification) */
    int *cand;              /* crash: the rows to clamp, in order */
    double *blk;            /* crash: (2 n + LU_BLOCK) LU_BLOCK, the blocks of crash_factor */
    lcp_crash_key *key;     /* crash: the clamped rows by decreasing load (key -load) */
    char note[200];         /* which start the pivots came from */
    lcp_monitor *mon;
    lcp_info *info;
} pv;

/* Pivot floor of row k: PIV_REG times A_kk (or the largest diagonal). */
static double piv_scale(const pv *W, int k)
{
    return W->diag[k] > 0 ? W->diag[k] : W->diagmax;
}

static int verdict(pv *W, lcp_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int verdict(pv *W, lcp_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(W->info->message, sizeof W->info->message, fmt, ap);
    va_end(ap);
    W->info->status = st;
    return -1;
}

/* v <- A_CC^-1 v (v: |C| entries, factor order). */
static void cc_solve(const pv *W, double *v)
{
    if (!W->nc) return;
    cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasUnit, W->nc, W->L, W->n, v, 1); /* L z = v */
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, W->nc, W->Ut, W->n, v, 1); /* U y = z */
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
static int negative_schur(pv *W, int k, int m, double d, const double *vc, double vk)
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
        return verdict(W, LCP_ERROR,
                       "cannot decide: the Schur complement of row %d on the clamped set (%d rows) is %.3g < 0, "
                       "but v'Av from A is %.3g (scale %.3g): rounding on a near-singular clamped set, as for a "
                       "singular semidefinite A (try ipm or lemke)",
                       k + 1, m, d, q, qs);
    if (!proof)
        return verdict(W, LCP_ERROR,
                       "cannot decide: the Schur complement of row %d on the clamped set (%d rows) is %.3g < 0, "
                       "but %ld pivots were regularised (A_CC singular): within rounding if A is positive "
                       "semidefinite and singular (try ipm or lemke)",
                       k + 1, m, d, W->regs);
    return verdict(W, LCP_ERROR,
                   "A is not positive semidefinite: the Schur complement of row %d on the clamped set "
                   "(%d rows) is %.3g < 0; pivot needs A positive (semi)definite (try lemke)",
                   k + 1, m, d);
}

/* Checks a new pivot d of row k: raised to the floor, or -1 if negative. */
static int check_pivot(pv *W, int k, double *d)
{
    double s = piv_scale(W, k);
    if (*d < -PIV_NEG * s)
        return negative_schur(W, k, W->nc, *d, NULL, 0.0);
    if (*d < PIV_REG * s) {
        *d = PIV_REG * s; /* redundant row: regularise (a tiny diagonal term) */
        W->regs++;
    }
    return 0;
}

/* Refactors A_CC = L U from A (blocked, no pivoting: A_CC is P / PD). */
static int refactor(pv *W)
{
    int m = W->nc, n = W->n;
    double *a = W->L;
    const lcp_csr *T = &W->At;
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

static int count_update(pv *W)
{
    return ++W->updates > 2 * W->nc + 200 ? refactor(W) : 0;
}

/* Row k joins C at the end: borders L and U (A_CC grows by A_Ck, A_kC, A_kk). */
static int c_add(pv *W, int k)
{
    int m = W->nc, n = W->n;
    const lcp_csr *A = &W->p->A, *T = &W->At;
    double *u = W->dxc, *l = W->tmp;
    memset(u, 0, (size_t)m * sizeof(double));
    memset(l, 0, (size_t)m * sizeof(double));
    for (int e = T->p[k]; e < T->p[k + 1]; e++) /* u = A(C, k) */
        if (W->pos[T->j[e]] >= 0) u[W->pos[T->j[e]]] = T->x[e];
    for (int e = A->p[k]; e < A->p[k + 1]; e++) /* l = A(k, C)' */
        if (W->pos[A->j[e]] >= 0) l[W->pos[A->j[e]]] = A->x[e];
    if (m) {
        cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasUnit, m, W->L, n, u, 1);     /* L u = A(C,k) */
        cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, m, W->Ut, n, l, 1); /* U' l = A(k,C)' */
    }
    double d = W->diag[k] - (m ? cblas_ddot(m, l, 1, u, 1) : 0.0); /* Schur complement of k */
    W->cidx[m] = k;
    W->pos[k] = m;
    W->state[k] = S_C;
    if (d < -PIV_NEG * piv_scale(W, k)) { /* v = (-A_CC^-1 A_Ck, 1): v'Av = d */
        if (m) cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, m, W->Ut, n, u, 1);
        for (int q = 0; q < m; q++) u[q] = -u[q];
        return negative_schur(W, k, m, d, u, 1.0);
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
static int c_remove(pv *W, int p, int newstate)
{
    int m = W->nc, n = W->n, k = W->cidx[p];
    double *L = W->L, *Ut = W->Ut, *x = W->xv, *y = W->yv;
    int r = m - 1 - p; /* trailing size */
    memcpy(x, L + (p + 1) + (size_t)p * n, (size_t)r * sizeof(double));  /* L(p+1:, p) */
    memcpy(y, Ut + (p + 1) + (size_t)p * n, (size_t)r * sizeof(double)); /* U(p, p+1:)' */
    for (int j = 0; j < p; j++) { /* columns left of p: rows below p move up */
        memmove(L + p + (size_t)j * n, L + p + 1 + (size_t)j * n, (size_t)r * sizeof(double));
        memmove(Ut + p + (size_t)j * n, Ut + p + 1 + (size_t)j * n, (size_t)r * sizeof(double));
    }
    for (int j = p + 1; j < m; j++) { /* columns right of p move left and up */
        memmove(L + (j - 1) + (size_t)(j - 1) * n, L + j + (size_t)j * n, (size_t)(m - j) * sizeof(double));
        memmove(Ut + (j - 1) + (size_t)(j - 1) * n, Ut + j + (size_t)j * n, (size_t)(m - j) * sizeof(double));
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
        if (!(dn > PIV_REG * piv_scale(W, W->cidx[ii]))) return refactor(W); /* lost accuracy: afresh */
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

/* One pivot done: the monitor's row.  Non-zero: stop the solve.  Then w is
 * taken from the monitor's exact A x + b (no drift), and where rounding has
 * moved w_C off 0 by more than REFINE max(1, |b|), one step of iterative
 * refinement A_CC e = -w_C, x_C += e, w += A(:, C) e puts it back. */
static int pivot_done(pv *W, double *x)
{
    W->pivots++;
    W->info->iterations = W->pivots;
    W->seen = 1;
    double extra[2] = {W->pivots, W->nc};
    if (lcp_monitor_step(W->mon, W->pivots, x, extra)) return 1;
    memcpy(W->w, W->mon->w, (size_t)W->n * sizeof(double)); /* A x + b of this check */
    double drift = 0.0;
    for (int q = 0; q < W->nc; q++) drift = fmax(drift, fabs(W->w[W->cidx[q]]));
    if (!(drift > REFINE * W->wscale)) return 0;
    const lcp_csr *T = &W->At;
    for (int q = 0; q < W->nc; q++) W->dxc[q] = -W->w[W->cidx[q]];
    cc_solve(W, W->dxc);
    for (int q = 0; q < W->nc; q++) {
        int k = W->cidx[q];
        x[k] += W->dxc[q];
        for (int e = T->p[k]; e < T->p[k + 1]; e++) W->w[T->j[e]] += T->x[e] * W->dxc[q];
    }
    W->seen = 0; /* checked at the next pivot, or at the end of the pass */
    return 0;
}

/* A drive found no step: a Farkas certificate (no_solution) or an error. */
static int ray(pv *W, int i, double dir)
{
    const lcp_problem *p = W->p;
    const lcp_csr *A = &p->A;
    int n = W->n, m = W->nc;
    double dmax = 1.0, bd = 0.0, bdabs = 0.0, rmax = 0.0, rscale = 0.0;
    for (int q = 0; q < m; q++) dmax = fmax(dmax, fabs(W->dxc[q]));
    double *r = W->dw, *ra = W->dwabs; /* A'd and |A'||d| */
    memset(r, 0, (size_t)n * sizeof(double));
    memset(ra, 0, (size_t)n * sizeof(double));
    for (int q = 0; q <= m; q++) {
        int k = q < m ? W->cidx[q] : i;
        double d = q < m ? W->dxc[q] : dir;
        if (fabs(d) <= DX_ZERO * dmax) continue; /* not moving: not in d */
        bd += p->b[k] * d;
        bdabs += fabs(p->b[k] * d);
        for (int e = A->p[k]; e < A->p[k + 1]; e++) { /* row k of A, times d_k */
            r[A->j[e]] += A->x[e] * d;
            ra[A->j[e]] += fabs(A->x[e] * d);
        }
    }
    for (int k = 0; k < n; k++) {
        rmax = fmax(rmax, fabs(r[k]));
        rscale = fmax(rscale, ra[k]);
    }
    if (rmax <= CERT_TOL * rscale && bd < -CERT_TOL * bdabs)
        return verdict(W, LCP_NO_SOLUTION,
                       "no solution: driving row %d finds a ray d in the recession cone of the box with "
                       "A'd = 0 (|A'd| = %.2g, |A'||d| = %.2g) and b'd = %.6g < 0, so w'd = b'd < 0 at any x, "
                       "which complementarity forbids (Farkas)",
                       i + 1, rmax, rscale, bd);
    return verdict(W, LCP_ERROR,
                   "ray termination driving row %d without a certificate of infeasibility (|A'd| = %.2g, "
                   "b'd = %.3g): A is probably not positive semidefinite",
                   i + 1, rmax, bd);
}

/* Places row i if it is complementary where it stands (inside its box):
 * sets its state and returns 1; else returns 0 with the direction *dir
 * that brings w_i towards 0, and *zero when w_i = 0 already. */
static int place(pv *W, double *x, int i, double wtiny, double *dir, int *zero)
{
    double lo = W->lo[i], hi = W->hi[i], wi = W->w[i];
    if (!(lo < hi)) { /* a fixed row: any w */
        x[i] = lo;
        W->state[i] = S_FIX;
        return 1;
    }
    if (x[i] <= lo && wi >= -wtiny) { /* complementary at lo */
        x[i] = lo;
        W->state[i] = S_LO;
        return 1;
    }
    if (x[i] >= hi && wi <= wtiny) {
        x[i] = hi;
        W->state[i] = S_HI;
        return 1;
    }
    *zero = fabs(wi) <= wtiny;             /* inside the box with w_i = 0 */
    *dir = *zero || wi < 0 ? 1.0 : -1.0;   /* the way that brings w_i to 0 */
    return 0;
}

/* Takes row i: brings it into complementarity, the taken rows kept so.  A
 * row outside its box (its friction bounds shrank) first moves into it.
 * 0: done; 1: the monitor stopped the solve; -1: a verdict (info set). */
static int drive(pv *W, double *x, int i)
{
    const lcp_problem *p = W->p;
    const lcp_csr *A = &p->A, *T = &W->At;
    int n = W->n;
    double *w = W->w;
    double wi = p->b[i], wabs = fabs(p->b[i]); /* w_i afresh, and its rounding scale */
    for (int e = A->p[i]; e < A->p[i + 1]; e++) {
        wi += A->x[e] * x[A->j[e]];
        wabs += fabs(A->x[e] * x[A->j[e]]);
    }
    w[i] = wi;
    double wtiny = 64 * DBL_EPSILON * wabs, dir = 1.0;
    int zero = 0;
    if (x[i] < W->lo[i] || x[i] > W->hi[i]) /* outside the box: (e) enter it first */
        dir = x[i] < W->lo[i] ? 1.0 : -1.0;
    else if (place(W, x, i, wtiny, &dir, &zero))
        return 0;
    for (;;) {
        double lo = W->lo[i], hi = W->hi[i];
        int outside = x[i] < lo || x[i] > hi;
        if (W->pivots - W->pass_start > W->guard)
            return verdict(W, LCP_ERROR, "cycling: more than %ld pivots in one pass (50 n + 1000) at row %d",
                           W->guard, i + 1);
        int m = W->nc;
        double *dxc = W->dxc, *dw = W->dw, *da = W->dwabs;
        memset(dxc, 0, (size_t)m * sizeof(double));
        for (int e = T->p[i]; e < T->p[i + 1]; e++) /* -d A(C, i) */
            if (W->pos[T->j[e]] >= 0) dxc[W->pos[T->j[e]]] = -dir * T->x[e];
        cc_solve(W, dxc); /* dx_C = -d A_CC^-1 A_Ci */
        memset(dw, 0, (size_t)n * sizeof(double));
        memset(da, 0, (size_t)n * sizeof(double));
        double dxmax = 1.0;
        for (int q = -1; q < m; q++) { /* dw = A dx, column by column */
            int k = q < 0 ? i : W->cidx[q];
            double d = q < 0 ? dir : dxc[q];
            dxmax = fmax(dxmax, fabs(d));
            for (int e = T->p[k]; e < T->p[k + 1]; e++) {
                dw[T->j[e]] += T->x[e] * d;
                da[T->j[e]] += fabs(T->x[e] * d);
            }
        }
        for (int k = 0; k < n; k++) /* the rounding scale of dw_k: |A||dx|, at least max|A_k.| max|dx| */
            da[k] = PIV_ZERO * fmax(da[k], W->rowmax[k] * dxmax);
        /* the ratio test: row i's own ends first, so that they win ties */
        double tmin = INFINITY, t;
        int kind = B_NONE, blk = -1;
        int moves = fabs(dw[i]) > da[i]; /* the Schur complement is not 0 */
        if (moves && dw[i] * dir < 0) return negative_schur(W, i, m, dw[i] * dir, dxc, dir);
        if (outside) { /* (e) x_i enters its box */
            tmin = dir > 0 ? lo - x[i] : x[i] - hi;
            kind = B_SELF_BOUND;
        } else {
            if (moves) { /* (a) w_i = 0 */
                tmin = zero ? 0.0 : fmax(0.0, -w[i] / dw[i]);
                kind = B_SELF_C;
            } else if (zero) { /* w_i = 0 stays: i is done off C (redundant row) */
                W->state[i] = S_ZERO;
                return 0;
            }
            t = dir > 0 ? hi - x[i] : x[i] - lo; /* (b) x_i at its bound */
            if (t < tmin) {
                tmin = fmax(0.0, t);
                kind = B_SELF_BOUND;
            }
        }
        for (int q = 0; q < m; q++) { /* (c) a clamped x_k at a bound */
            int k = W->cidx[q];
            double d = dxc[q];
            if (fabs(d) <= DX_ZERO * dxmax) continue;
            t = fmax(0.0, d < 0 ? (W->lo[k] - x[k]) / d : (W->hi[k] - x[k]) / d);
            if (t < tmin) {
                tmin = t;
                kind = B_C_OUT;
                blk = q;
            }
        }
        for (int k = 0; k < n; k++) { /* (d) w_k of a row at a bound reaches 0 */
            int st = W->state[k];
            if (!((st == S_LO && dw[k] < -da[k]) || (st == S_HI && dw[k] > da[k]))) continue;
            t = fmax(0.0, -w[k] / dw[k]);
            if (t < tmin) {
                tmin = t;
                kind = B_N_IN;
                blk = k;
            }
        }
        if (kind == B_NONE || !isfinite(tmin)) return ray(W, i, dir);
        for (int q = 0; q < m; q++) x[W->cidx[q]] += tmin * dxc[q]; /* the step */
        x[i] += tmin * dir;
        for (int k = 0; k < n; k++) w[k] += tmin * dw[k];
        int done = 0, rc = 0;
        switch (kind) {
        case B_SELF_C: /* (a) */
            w[i] = 0.0;
            rc = c_add(W, i);
            done = 1;
            break;
        case B_SELF_BOUND: /* (b), or (e) */
            x[i] = dir > 0 ? (outside ? lo : hi) : (outside ? hi : lo);
            if (!outside) {
                W->state[i] = dir > 0 ? S_HI : S_LO;
                done = 1;
            } else {
                done = place(W, x, i, wtiny, &dir, &zero); /* in the box: complementary there? */
            }
            break;
        case B_C_OUT: { /* (c) */
            int k = W->cidx[blk], up = dxc[blk] > 0;
            x[k] = up ? W->hi[k] : W->lo[k];
            rc = c_remove(W, blk, up ? S_HI : S_LO);
            break;
        }
        default: /* (d) */
            w[blk] = 0.0;
            rc = c_add(W, blk);
            break;
        }
        if (rc) return -1;
        if (pivot_done(W, x)) return 1;
        if (done) return 0;
    }
}

/* Is taken row k still complementary where it stands, with the bounds
 * lo, hi (its friction bounds moved)? */
static int still_fits(const pv *W, const double *x, int k, double lo, double hi)
{
    switch (W->state[k]) {
    case S_C: return lo < hi && lo <= x[k] && x[k] <= hi;
    case S_LO: return lo < hi && x[k] == lo;
    case S_HI: return lo < hi && x[k] == hi;
    case S_FIX: return lo == hi && x[k] == lo;
    case S_ZERO: return lo < x[k] && x[k] < hi;
    default: return 0;
    }
}

/* One pass.  The first takes every row from s, each findex row with the
 * bounds at x when it is taken (ODE).  A later one keeps the sets and, row
 * by row, gives each findex row the bounds at the current x, taking it
 * again where it no longer fits.  0, 1, -1 as drive. */
static int pass(pv *W, double *x, int first)
{
    const lcp_problem *p = W->p;
    int n = W->n;
    if (first && !W->crashed) {
        for (int k = 0; k < n; k++) {
            lcp_problem_bounds(p, x, k, &W->lo[k], &W->hi[k]); /* findex rows: set when taken */
            int fr = p->findex && p->findex[k] >= 0;
            double s = fr ? 0.0 : fmin(fmax(0.0, W->lo[k]), W->hi[k]); /* s = mid(lo, 0, hi) */
            if (x[k] != s) W->seen = 0;
            x[k] = s;
            W->state[k] = S_U;
            W->pos[k] = -1;
        }
        W->nc = 0;
        W->updates = 0;
    }
    W->pass_start = W->pivots;
    if (first && !W->crashed) { /* w = A x + b (a later pass goes on with w of the last pivot, or of the crash) */
        lcp_csr_matvec(&p->A, x, W->w);
        for (int k = 0; k < n; k++) W->w[k] += p->b[k];
    }
    for (int o = 0; o < n; o++) {
        int i = W->order[o], fr = p->findex && p->findex[i] >= 0;
        if (!first && !fr) continue;
        if (first && W->state[i] != S_U) continue; /* taken by the crash start */
        if (fr) {
            double lo, hi;
            lcp_problem_bounds(p, x, i, &lo, &hi);
            int fits = !first && still_fits(W, x, i, lo, hi);
            W->lo[i] = lo;
            W->hi[i] = hi;
            if (fits) continue;
            if (W->state[i] == S_C && c_remove(W, W->pos[i], S_U)) return -1; /* x_i stays: others unchanged */
            W->state[i] = S_U;
        }
        int rc = drive(W, x, i);
        if (rc) return rc;
    }
    for (int i = 0; i < n; i++) /* rows left off C with w = 0: again, once */
        if (W->state[i] == S_ZERO) {
            W->state[i] = S_U;
            int rc = drive(W, x, i);
            if (rc) return rc;
        }
    if (!W->seen && pivot_done(W, x)) return 1; /* a pass without pivots: check its point */
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
static int crash(pv *W, double *x, double deadline, int *nclamp, int *ndep, int *npur, int *nout)
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
        cc_solve(W, W->dxc);
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
        if (refactor(W)) return -1;
    } else { /* few: one at a time, the last first */
        for (int q = W->nc - 1; q >= 0; q--)
            if (W->dropq[q] && c_remove(W, q, S_U)) return -1;
    }
    W->crashed = 1;
    W->seen = 0;
    return pivot_done(W, x) ? 1 : 0;
}

static void pv_free(pv *W)
{
    lcp_csr_free(&W->At);
    free(W->L);
    free(W->Ut);
    free(W->cidx);
    free(W->pos);
    free(W->state);
    free(W->order);
    free(W->lo);
    free(W->hi);
    free(W->diag);
    free(W->rowmax);
    free(W->w);
    free(W->dxc);
    free(W->dw);
    free(W->dwabs);
    free(W->xv);
    free(W->yv);
    free(W->tmp);
    free(W->guess);
    free(W->dropq);
    free(W->key);
    free(W->dep);
    free(W->cand);
    free(W->blk);
}

static int pivot_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                       lcp_err *err)
{
    int n = p->n;
    double bytes = 2.0 * (double)n * (double)n * sizeof(double);
    if (bytes > MAX_DENSE_BYTES)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                        "pivot keeps two dense %d x %d factors (%.1f GiB, more than 4 GiB): n = %d is too "
                        "large for it (try pgs)",
                        n, n, bytes / (1024.0 * 1024 * 1024), n);
    /* A zero diagonal entry in a row or column coupled to others: A is then
     * neither P nor symmetric positive semidefinite (where a zero diagonal
     * forces a zero row and column), and a principal pivot on it is zero */
    for (int i = 0; i < n; i++) {
        if (lcp_csr_diag(&p->A, i) != 0) continue;
        int row = -1; /* the first zero-diagonal row with an off-diagonal entry in its row or column */
        for (int k = 0; k < n && row < 0; k++)
            for (int e = p->A.p[k]; e < p->A.p[k + 1]; e++) {
                int j2 = p->A.j[e];
                if (j2 == k || p->A.x[e] == 0) continue;
                if (lcp_csr_diag(&p->A, k) == 0) row = k;
                else if (lcp_csr_diag(&p->A, j2) == 0) row = j2;
                if (row >= 0) break;
            }
        if (row >= 0)
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                            "pivot needs a nonzero pivot on row %d, but A(%d,%d) = 0 and the row is coupled to others "
                            "(A is neither P nor symmetric positive semidefinite): try lemke or ipm",
                            row + 1, row + 1, row + 1);
        break; /* the zero-diagonal rows are all decoupled */
    }
    pv W;
    memset(&W, 0, sizeof W);
    W.p = p;
    W.n = n;
    W.mon = mon;
    W.info = info;
    W.guard = 50L * n + 1000;
    size_t nn = (size_t)n * (size_t)n, n1 = (size_t)(n > 0 ? n : 1);
    W.L = lcp_alloc(nn ? nn : 1, sizeof(double));
    W.Ut = lcp_alloc(nn ? nn : 1, sizeof(double));
    W.cidx = lcp_alloc(n1, sizeof(int));
    W.pos = lcp_alloc(n1, sizeof(int));
    W.state = lcp_alloc(n1, sizeof(int));
    W.order = lcp_alloc(n1, sizeof(int));
    W.lo = lcp_alloc(n1, sizeof(double));
    W.hi = lcp_alloc(n1, sizeof(double));
    W.diag = lcp_alloc(n1, sizeof(double));
    W.rowmax = lcp_calloc(n1, sizeof(double));
    W.w = lcp_alloc(n1, sizeof(double));
    W.dxc = lcp_alloc(n1, sizeof(double));
    W.dw = lcp_alloc(n1, sizeof(double));
    W.dwabs = lcp_alloc(n1, sizeof(double));
    W.xv = lcp_alloc(n1, sizeof(double));
    W.yv = lcp_alloc(n1, sizeof(double));
    W.tmp = lcp_alloc(n1, sizeof(double));
    W.guess = lcp_alloc(n1, sizeof(double));
    W.dropq = lcp_alloc(n1, 1);
    W.key = lcp_alloc(n1, sizeof(lcp_crash_key));
    W.dep = lcp_alloc(n1, sizeof(int));
    W.cand = lcp_alloc(n1, sizeof(int));
    W.blk = lcp_alloc((2 * n1 + LU_BLOCK) * LU_BLOCK, sizeof(double));
    if (!W.L || !W.Ut || !W.cidx || !W.pos || !W.state || !W.order || !W.lo || !W.hi || !W.diag || !W.rowmax || !W.w ||
        !W.dxc || !W.dw || !W.dwabs || !W.xv || !W.yv || !W.tmp || !W.guess || !W.dropq || !W.key || !W.dep || !W.cand || !W.blk ||
        lcp_csr_transpose(&p->A, &W.At)) {
        pv_free(&W);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (pivot, n = %d)", n);
    }
    int nf = 0; /* rows with findex */
    for (int k = 0; k < n; k++) {
        W.diag[k] = lcp_csr_diag(&p->A, k);
        W.diagmax = fmax(W.diagmax, fabs(W.diag[k]));
        for (int e = p->A.p[k]; e < p->A.p[k + 1]; e++) W.rowmax[k] = fmax(W.rowmax[k], fabs(p->A.x[e]));
        nf += p->findex && p->findex[k] >= 0;
    }
    W.wscale = 1.0;
    for (int k = 0; k < n; k++) W.wscale = fmax(W.wscale, fabs(p->b[k]));
    int no = 0; /* order: free rows, bounded rows, findex rows */
    for (int pass_kind = 0; pass_kind < 3; pass_kind++)
        for (int k = 0; k < n; k++) {
            int fr = p->findex && p->findex[k] >= 0;
            double lo, hi;
            lcp_problem_bounds(p, x, k, &lo, &hi);
            int kind = fr ? 2 : (lo == -INFINITY && hi == INFINITY) ? 0 : 1;
            if (kind == pass_kind) W.order[no++] = k;
        }

    openblas_set_num_threads(1); /* one BLAS thread: the same bits for every -j */
    info->iterations = 0;
    W.seen = 1;
    double extra[2] = {0, 0};
    lcp_status status0 = info->status;
    if (lcp_monitor_step(mon, 0, x, extra)) goto done; /* the caller's x already does (or a limit) */
    /* the crash start (symmetric A): from the warm start, --crash SOLVER, or (lcp) ipm's answer */
    if (s->crash.mode != LCP_CRASH_NONE) {
        static const char *const by_lcp[] = {"ipm", NULL};
        char how[96] = "";
        if (!lcp_csr_is_symmetric(&p->A, 1e-12)) {
            snprintf(W.note, sizeof W.note, "from scratch (no crash start: A is not symmetric)");
        } else if (lcp_crash_start_guess(p, s, x, p->kind == LCP_KIND_LCP ? by_lcp : NULL, W.guess, mon->t0, how,
                                         sizeof how)) {
            if (s->crash.mode == LCP_CRASH_SOLVER || p->kind == LCP_KIND_LCP)
                snprintf(W.note, sizeof W.note, "from scratch (no crash start: %s gave no answer in time)",
                         s->crash.mode == LCP_CRASH_SOLVER ? s->crash.by->name : "ipm");
        } else {
            int ncl = 0, ndep = 0, npur = -1, nout = 0;
            int rc = crash(&W, x, s->time_limit > 0 ? mon->t0 + s->time_limit : 0.0, &ncl, &ndep, &npur, &nout);
            char pur[48] = "";
            if (npur >= 0) snprintf(pur, sizeof pur, " (purified to a vertex: %d exchanges)", npur);
            if (rc >= 0)
                snprintf(W.note, sizeof W.note,
                         "crash start from %s: %d rows clamped, %d dependent ones dropped%s, %d left to take", how,
                         ncl - ndep, ndep, pur, nout);
            if (rc > 0) goto done;
            if (rc < 0) {
                snprintf(W.note, sizeof W.note, "the crash start from %s failed (%.60s): from scratch", how,
                         *info->message ? info->message : "the clamped set is not positive definite");
                W.crashed = 0;
                W.regs = 0;
                info->status = status0;
                *info->message = '\0';
            }
        }
    }
    double best = INFINITY, change = INFINITY;
    int best_pass = 0;
    for (int ps = 1; ps <= MAX_PASSES; ps++) {
        int rc = pass(&W, x, ps == 1);
        if (rc < 0 && W.crashed && info->status == LCP_ERROR) { /* no verdict from a crash start: afresh */
            snprintf(W.note, sizeof W.note, "the pivots from the crash start ended in an error (%.80s) at pivot %d: "
                     "started again from scratch", info->message, W.pivots);
            W.crashed = 0;
            W.regs = 0;
            info->status = status0;
            *info->message = '\0';
            ps = 0;
            continue;
        }
        if (rc) goto done; /* the monitor stopped it, or a verdict */
        if (!nf && W.crashed) { /* the crash start's clamped set too ill-conditioned: afresh */
            snprintf(W.note, sizeof W.note, "the pivots from the crash start ended at the residual %.3g above tol "
                     "(pivot %d): started again from scratch", mon->last.residual, W.pivots);
            W.crashed = 0;
            W.regs = 0;
            ps = 0;
            continue;
        }
        if (!nf) {
            snprintf(info->message, sizeof info->message,
                     "pivoting ended with the residual %.3g above tol (rounding: an ill-conditioned clamped "
                     "block, or tol too small)",
                     mon->last.residual);
            goto done;
        }
        double chg = 0.0, big = 0.0; /* bounds of the pass against bounds at x */
        for (int k = 0; k < n; k++)
            if (p->findex && p->findex[k] >= 0) {
                double lo, hi;
                lcp_problem_bounds(p, x, k, &lo, &hi);
                chg = fmax(chg, fabs(hi - W.hi[k]));
                big = fmax(big, hi);
            }
        change = chg / fmax(big, DBL_MIN);
        if (change <= SETTLED * s->tol) {
            snprintf(info->message, sizeof info->message,
                     "friction bounds settled after %d passes (change %.2g) but the residual %.3g is above tol",
                     ps, change, mon->last.residual);
            goto done;
        }
        if (change < best) {
            best = change;
            best_pass = ps;
        } else if (ps - best_pass >= STALL_PASSES) {
            snprintf(info->message, sizeof info->message,
                     "friction bounds fixed point stalls: change %.2g after %d passes (best %.2g)", change, ps,
                     best);
            goto done;
        }
    }
    snprintf(info->message, sizeof info->message,
             "friction bounds fixed point: %d passes without settling (change %.2g)", MAX_PASSES, change);
done:
    if (W.regs && info->status != LCP_ERROR && info->status != LCP_NO_SOLUTION && mon->status != LCP_SOLVED) {
        size_t len = strlen(info->message);
        snprintf(info->message + len, sizeof info->message - len, "%s%ld pivots regularised (redundant rows)",
                 len ? "; " : "", W.regs);
    }
    if (*W.note) { /* which start, after the message (a verdict's evidence first) */
        size_t len = strlen(info->message);
        snprintf(info->message + len, sizeof info->message - len, "%s%s", len ? "; " : "", W.note);
    }
    info->iterations = W.pivots;
    pv_free(&W);
    return 0;
}

const lcp_solver lcp_solver_pivot = {"pivot",
                                     "principal pivoting (Dantzig/Baraff, ODE dLCP): box bounds, findex "
                                     "friction by bound fixed point",
                                     LCP_KIND_LCP | LCP_KIND_BLCP, columns, pivot_solve, NULL, 0};
