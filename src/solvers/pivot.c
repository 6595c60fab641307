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
 * lower triangle), dense n x n each (the solves: see Dense A below).  A row
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
 * nonsingular.  Rounding: after each pivot w is taken afresh from A x + b
 * (the monitor's, or the same sums without a trace: no drift, the same
 * steps) -- except on a dense A without a trace, where w goes on along
 * each step (w + t dw on the rows that can end a step: i and the rows at
 * a bound; w_C stays 0) and is taken afresh every 16 pivots and at the
 * end of a pass (on a dense A, A x + b costs more than the pivot) on the
 * rows up to the last one taken (the others' w is formed when they are
 * taken); when w_C has drifted from 0 by more than 1e-12 max(1, |b|), one
 * step of iterative refinement corrects x_C.
 *
 * Dense A (n <= 2048 with nnz >= n^2 / 4, and every A of n <= 128: below
 * that a dense step costs less than a sparse one whatever the density --
 * columns of spheres, pyramids and random sparse SPD problems of 20-128
 * unknowns take 0.4-0.8 of the sparse path's time): copied once a solve
 * (the symmetry test on the copy).  A symmetric: the copy holds A's rows with their
 * columns permuted so that the clamped ones come first (positions
 * 0..|C|-1, in any order; one column swap across the rows when a row
 * joins or leaves C, Dantzig's layout as Bullet's btDantzigLCP and ODE's
 * dLCP keep it), so A_Ci and a new row's A_Ck are gathered from one row,
 * and dw_k = A(k, C) dx_C + A_ki d is a contiguous dot of |C| entries on
 * i and the rows at a bound only -- the rows a step can end on: |N| |C|
 * per pivot, not n |C|.  Not symmetric: A's columns, and dw = A dx over
 * the taken rows, four columns at a time.  The rounding scale |A||dx| of
 * dw_k is formed only where its bounds max|A_k.| max(1, max|dx|) and
 * max|A_k.| sum|dx| leave the test undecided (a CSR row).  A symmetric A
 * has U = D L', so a row joining C takes its row of L from its column of
 * U (l = D^-1 u), and the row that ends its own drive takes u from the
 * direction's first triangular solve: the bordering costs no solve then.
 * The inner loops (src/solvers/pivot_kernels.c) are written once with
 * GCC's vector extensions and compiled for AVX2 and for the baseline, the
 * same bits either way; the triangular solves of n <= 2048 are theirs
 * (four columns at a time), BLAS dtrsv above.
 *
 * Per solve: one workspace (the factors, the dense copy and every vector:
 * one buffer, kept by the thread between solves up to 32 MiB), no format
 * for the start note, the copy's symmetry test in 4 x 4 blocks transposed
 * in registers, the factor's rows and columns moved by vector loops; on an A whose rows all hold n entries the monitor's
 * checks (the caller's x, the end of a pass) form w = A x + b by
 * contiguous dots in the order of the residual's CSR walk, the same bits,
 * and an lcp's metrics from verify.h's partial sums as verify.c forms
 * them (where the monitor reads no clock: no trace, callback, time limit
 * or reward, and no --reg).
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
 * once.  On an lcp of n <= 128 without a warm start, --crash auto takes no
 * guess (ipm's solve and the crash factor cost more than the few pivots
 * from scratch; "from scratch (no crash start: n = ..."), nor on an lcp
 * with a dense symmetric A of n <= 1024 (the dense steps above cost less
 * than ipm's guess: "from scratch (no crash start: a dense A, n = ...");
 * where those pivots end in an error or above tol, the crash start is
 * taken after all, from x = 0 again, and named); a warm start or
 * --crash SOLVER is still the crash's guess there.  The message names the
 * start used.  --crash none: from scratch, always.
 *
 * Monitor: row 0 checks the caller's x (a --warm-start that already solves
 * ends there with 0 pivots; otherwise it is the crash's guess, or with
 * --crash none the scheme starts afresh from s).  With a trace, one row
 * follows each pivot (a pass that ends on a point the monitor has not seen
 * -- no pivot at all, or a refinement after the last -- counts one more, so
 * that point is checked).  Without one, each pivot is only ticked
 * (lcp_monitor_tick: iteration and time limits, the callback; no residual,
 * which on a dense A cost as much as the pivot) and the monitor checks the
 * point at the end of each pass, and in the first pass once more before
 * its first findex row (where the normal rows often solve it already), and
 * where a limit stops the pivots (so the answer is judged and kept); the
 * crash's point is always checked.  A library callback
 * (lcps_settings_on_iteration) gets a row a pivot, as with a trace.  Trace
 * columns: pivots (so far, all passes) and clamped (|C|).  iterations = pivots.  Verdicts of its own:
 * no_solution on a certified ray; error on cycling (more than 50 n + 1000
 * pivots in a pass), on a negative pivot, or a ray without certificate.
 * Memory: two dense n x n factors (and (2 n + 64) 64 doubles for the
 * crash's blocks, 6 n for the steps' vectors, n x n more for the copy of
 * a dense A), one buffer kept
 * per thread between solves up to 32 MiB (no fresh pages a solve for the
 * problems an engine solves again and again); n with more than 4 GiB of
 * factors is refused; A' is shared with A when A is symmetric, copied
 * otherwise; nothing is allocated after the start (ipm and the
 * purification, run for the crash, allocate their own).
 *
 * Files: this one holds the method (the drive of a row and its ratio test,
 * the ray certificate, the passes, the solve); the factors of A_CC -- the
 * bordering, Bennett's update, the blocked refactorisation, the pivot
 * checks -- are src/solvers/pivot_factor.c, the dense inner loops
 * src/solvers/pivot_kernels.c, the crash start (its clamped
 * set, factor and purification) src/solvers/pivot_crash.c, their shared
 * declarations src/solvers/pivot_internal.h.  Problems of up to
 * LCP_SMALL_N (1,024) unknowns go first by the small path,
 * src/solvers/pivot_small.c (block principal pivoting, a dense
 * factorisation of the free block a step): up to LCP_SMALL_LANE_N (128)
 * run by the pipeline before any set-up, beyond by pivot_solve itself
 * before its own set-up (s->small_tried: not twice); the scheme above
 * takes what that path does not solve, or where the run asks for what it
 * does not give (a trace, a callback's rows, --crash none or SOLVER, an
 * --order).
 */
#include "../core/scratch.h"
#include "pivot_internal.h"
#include "pivot_small.h"

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
#define CERT_TOL 1e-9     /* ray certificate: |A'd| <= CERT_TOL (|A'||d|), b'd < -CERT_TOL |b|'|d| */
#define MAX_PASSES 1000   /* friction fixed-point passes */
#define STALL_PASSES 10   /* passes without a smaller bound change: stalled */
#define SETTLED 1e-3      /* bounds settled: relative change <= SETTLED tol */
#define MAX2(a, b) ((a) > (b) ? (a) : (b)) /* fmax without the call (no NaN here) */
#define DENSE_COPY_N 2048 /* A kept as a dense copy (contiguous columns) at n <= DENSE_COPY_N with nnz >= n^2 / 4 */
#define DENSE_SMALL_N 128 /* ... and at n <= DENSE_SMALL_N whatever its density (a sparse step costs more there) */
#define CRASH_MIN_N 128   /* --crash auto on an lcp: no ipm guess at n <= CRASH_MIN_N (it costs more than the pivots) */
#define CRASH_DENSE_N 1024 /* ... nor on a dense symmetric A of n <= CRASH_DENSE_N (the dense steps are cheaper) */
#define MAX_DENSE_BYTES (4.0 * 1024 * 1024 * 1024) /* both factors together */

enum { B_NONE, B_SELF_C, B_SELF_BOUND, B_C_OUT, B_N_IN }; /* what ends a step: (a) (b)/(e) (c) (d) */

int pivot_verdict(pv *W, lcp_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(W->info->message, sizeof W->info->message, fmt, ap);
    va_end(ap);
    W->info->status = st;
    return -1;
}

/* The monitor's check of x (lcp_monitor_step): on an A of full rows, w =
 * A x + b by contiguous dots in the order of lcp_csr_row_dot (the same
 * bits as the monitor's CSR walk) and the metrics of x and w (an lcp by
 * the partial sums of verify.h, chunk by chunk as verify.c forms them; a
 * blcp by lcp_verify_w), where the monitor reads no clock: no trace, callback,
 * time limit or reward (then lcp_monitor_step's time is 0 as well), and
 * no --reg (whose w is not A x + b). */
static int pv_step(pv *W, int iter, const double *x, const double *extra)
{
    lcp_monitor *mon = W->mon;
    const lcp_settings *s = mon->s;
    const lcp_problem *p = W->p;
    if (!W->full_rows || mon->trace || s->on_iteration || s->time_limit > 0 || s->reward_alpha > 0 || p->reg > 0)
        return lcp_monitor_step(mon, iter, x, extra);
    int n = W->n, zero = 1; /* x = 0 (the usual start): the row sums are +0 (A is finite), w = b + 0 */
    for (int k = 0; k < n && zero; k++) zero = x[k] == 0.0;
    double *w = mon->w;
    lcp_metrics m;
    if (p->kind != LCP_KIND_LCP) {
        for (int k = 0; k < n; k++) w[k] = (zero ? 0.0 : pivot_dot_csr(n, p->A.x + p->A.p[k], x)) + p->b[k];
        lcp_verify_w(p, x, w, &m);
        return lcp_monitor_record(mon, iter, 0.0, 0, &m, x, extra);
    }
    lcp_verify_partial t = {0}; /* lcp: the chunks of verify.c, each its comp row by row, then its rows' terms */
    for (int lo = 0; lo < n; lo += LCP_VERIFY_CHUNK) {
        int hi = lo + LCP_VERIFY_CHUNK < n ? lo + LCP_VERIFY_CHUNK : n;
        double comp = 0.0;
        for (int k = lo; k < hi; k++) {
            double wk = (zero ? 0.0 : pivot_dot_csr(n, p->A.x + p->A.p[k], x)) + p->b[k];
            comp += x[k] * wk;
            w[k] = wk;
        }
        lcp_verify_partial c = {.comp = comp};
        lcp_verify_lcp_rows(&c, x + lo, w + lo, hi - lo, NULL, NULL);
        if (lo) lcp_verify_add(p, &t, &c);
        else t = c;
    }
    lcp_verify_finish_b(p, &t, mon->bscale, &m);
    return lcp_monitor_record(mon, iter, 0.0, 0, &m, x, extra);
}

/* One pivot done: the monitor's row.  Non-zero: stop the solve.  Then w is
 * taken from the monitor's exact A x + b (no drift), and where rounding has
 * moved w_C off 0 by more than REFINE max(1, |b|), one step of iterative
 * refinement A_CC e = -w_C, x_C += e, w += A(:, C) e puts it back. */
int pivot_done(pv *W, double *x)
{
    W->pivots++;
    W->info->iterations = W->pivots;
    double extra[2] = {W->pivots, W->nc};
    if (W->quick) { /* no trace: no residual a pivot (the check at the end of the pass judges) */
        W->seen = 0;
        W->ticked = 1;
        if (lcp_monitor_tick(W->mon, W->pivots, x, extra)) return pivot_check(W, x), 1; /* a limit: x judged, kept */
        /* w afresh (the monitor's sums, the same bits without --reg): after every pivot on a
         * sparse A, so the steps are those of a traced solve; every EXACT_EVERY on a dense one,
         * where A x costs more than the pivot and w goes on along the steps in between */
        if (!W->Ad) {
            const lcp_csr *A = &W->p->A;
            for (int k = 0; k < W->n; k++) W->w[k] = lcp_csr_row_dot(A->j, A->x, x, A->p[k], A->p[k + 1]) + W->p->b[k];
        } else if (W->perm && ++W->since_exact >= EXACT_EVERY) { /* the rows taken: b + A(k, :) x, permuted */
            int len = 0, hr = W->hi_rows;
            W->since_exact = 0;
            for (int a = 0; a < W->n; a++)
                if ((W->dxp[a] = x[W->cperm[a]]) != 0.0) len = a + 1;
            for (int k = 0; k < hr; k++) W->w[k] = W->p->b[k] + pivot_dot(len, W->Ad + (size_t)k * W->n, W->dxp);
        } else if (!W->perm && ++W->since_exact >= EXACT_EVERY) { /* the rows taken: b + the columns of the nonzero x_j */
            int nx = 0, hr = W->hi_rows;
            W->since_exact = 0;
            for (int j = 0; j < W->n; j++)
                if (x[j] != 0.0) {
                    W->cols[nx] = j;
                    W->coef[nx++] = x[j];
                }
            memcpy(W->w, W->p->b, (size_t)hr * sizeof(double));
            pivot_cols_axpy(hr, nx, W->Ad, (size_t)W->n, W->cols, W->coef, W->w);
        }
    } else {
        W->seen = 1;
        if (lcp_monitor_step(W->mon, W->pivots, x, extra)) return 1;
        memcpy(W->w, W->mon->w, (size_t)W->n * sizeof(double)); /* A x + b of this check */
    }
    double drift = 0.0;
    for (int q = 0; q < W->nc; q++) drift = MAX2(drift, fabs(W->w[W->cidx[q]]));
    if (!(drift > REFINE * W->wscale)) return 0;
    const lcp_csr *T = &W->At;
    for (int q = 0; q < W->nc; q++) W->dxc[q] = -W->w[W->cidx[q]];
    pivot_cc_solve(W, W->dxc);
    for (int q = 0; q < W->nc; q++) {
        int k = W->cidx[q];
        x[k] += W->dxc[q];
        for (int e = T->p[k]; e < T->p[k + 1]; e++) W->w[T->j[e]] += T->x[e] * W->dxc[q];
    }
    W->seen = 0; /* checked at the next pivot, or at the end of the pass */
    return 0;
}

int pivot_refine_rows(const lcp_problem *p, const int *rows, int k, const double *lo, const double *hi, double *x,
                      int (*solve)(void *ctx, double *r), void *ctx, double *r, double *kept)
{
    double before = 0.0, after = 0.0;
    for (int q = 0; q < k; q++) {
        r[q] = pivot_row_w(p, x, rows[q]);
        before = MAX2(before, fabs(r[q]));
        kept[q] = x[rows[q]];
    }
    if (!(before > 0.0) || solve(ctx, r)) return 0;
    int inside = 1;
    for (int q = 0; q < k; q++) {
        int i = rows[q];
        x[i] -= r[q];
        inside &= x[i] >= lo[i] && x[i] <= hi[i];
    }
    for (int q = 0; inside && q < k && after < before; q++) after = MAX2(after, fabs(pivot_row_w(p, x, rows[q])));
    if (inside && after < before) return 1;
    for (int q = 0; q < k; q++) x[rows[q]] = kept[q];
    return 0;
}

static int cc_solve(void *W, double *v)
{
    pivot_cc_solve(W, v);
    return 0;
}

/* The monitor's check of x after ticked pivots (no pivot counted): the
 * residual of the current point, w afresh from it.  Non-zero: stop. */
int pivot_check(pv *W, double *x)
{
    double extra[2] = {W->pivots, W->nc};
    W->seen = 1;
    W->ticked = 0;
    W->since_exact = 0;
    if (pv_step(W, W->pivots, x, extra)) return 1;
    memcpy(W->w, W->mon->w, (size_t)W->n * sizeof(double));
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
        return pivot_verdict(W, LCP_NO_SOLUTION,
                       "no solution: driving row %d finds a ray d in the recession cone of the box with "
                       "A'd = 0 (|A'd| = %.2g, |A'||d| = %.2g) and b'd = %.6g < 0, so w'd = b'd < 0 at any x, "
                       "which complementarity forbids (Farkas)",
                       i + 1, rmax, rscale, bd);
    return pivot_verdict(W, LCP_ERROR,
                   "ray termination driving row %d without a certificate of infeasibility (|A'd| = %.2g, "
                   "b'd = %.3g): A is probably not positive semidefinite",
                   i + 1, rmax, bd);
}

/* Permuted mode: the columns at positions a and b of every row of Ad swapped. */
static void perm_swap(pv *W, int a, int b)
{
    int n = W->n, ca = W->cperm[a], cb = W->cperm[b];
    double *r = W->Ad;
    for (int k = 0; k < n; k++, r += n) {
        double t = r[a];
        r[a] = r[b];
        r[b] = t;
    }
    W->cperm[a] = cb;
    W->cperm[b] = ca;
    W->ppos[ca] = b;
    W->ppos[cb] = a;
}

void pivot_perm_sync(pv *W)
{
    if (!W->perm) return;
    int nc = W->nc, a = 0;
    for (int q = 0; q < nc; q++) {
        int k = W->cidx[q];
        if (W->ppos[k] >= nc) {
            while (W->pos[W->cperm[a]] >= 0) a++; /* a position below |C| holding a column off C */
            perm_swap(W, a, W->ppos[k]);          /* (the columns of C already placed stay) */
        }
        W->cpq[q] = W->ppos[k];
    }
}

/* dx at full length in W->dxf (x_i: d; C: dx_C); returns 1. */
static int fill_dxf(pv *W, int i, double d)
{
    W->dxf[i] = d;
    for (int q = 0; q < W->nc; q++) W->dxf[W->cidx[q]] = W->dxc[q];
    return 1;
}

static void clear_dxf(pv *W, int i)
{
    W->dxf[i] = 0.0;
    for (int q = 0; q < W->nc; q++) W->dxf[W->cidx[q]] = 0.0;
}

/* Does w_k move along the step: |dw_k| > PIV_ZERO max((|A||dx|)_k, max|A_k.| max(1, max|dx|))?
 * On a dense A the scale |A||dx| is formed only where the bounds
 * max|A_k.| max(1, max|dx|) <= (|A||dx|)_k <= max|A_k.| sum|dx| do not
 * decide (*full: dx at full length in W->dxf, filled at the first need). */
static int dw_moves(pv *W, int k, int i, double dir, double dxmax, double dxsum, int *full)
{
    double a = fabs(W->dw[k]);
    if (!W->Ad) return a > W->dwabs[k];
    double f = W->rowmax[k] * dxmax;
    if (a <= PIV_ZERO * f) return 0;
    if (a > PIV_ZERO * W->rowmax[k] * dxsum) return 1;
    if (!*full) *full = fill_dxf(W, i, dir);
    const lcp_csr *A = &W->p->A;
    double s = 0.0;
    for (int e = A->p[k]; e < A->p[k + 1]; e++) s += fabs(A->x[e] * W->dxf[A->j[e]]);
    return a > PIV_ZERO * MAX2(s, f);
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
    if (A->p[i + 1] - A->p[i] == n) { /* a full row (columns 0..n-1 in order) */
        double s;
        wi += pivot_dot_abs(n, A->x + A->p[i], x, &s);
        wabs += s;
    } else {
        for (int e = A->p[i]; e < A->p[i + 1]; e++) {
            wi += A->x[e] * x[A->j[e]];
            wabs += fabs(A->x[e] * x[A->j[e]]);
        }
    }
    w[i] = wi;
    double wtiny = 64 * DBL_EPSILON * wabs, dir = 1.0;
    if (i + 1 > W->hi_rows) W->hi_rows = i + 1;
    /* rows the steps update: all, or on a dense A without a trace those up to the last taken
     * (an untaken row's w is formed afresh when it is taken, and every EXACT_EVERY pivots) */
    int nr = W->Ad && W->quick ? W->hi_rows : n;
    int zero = 0;
    if (x[i] < W->lo[i] || x[i] > W->hi[i]) /* outside the box: (e) enter it first */
        dir = x[i] < W->lo[i] ? 1.0 : -1.0;
    else if (place(W, x, i, wtiny, &dir, &zero))
        return 0;
    for (;;) {
        double lo = W->lo[i], hi = W->hi[i];
        int outside = x[i] < lo || x[i] > hi;
        if (W->pivots - W->pass_start > W->guard)
            return pivot_verdict(W, LCP_ERROR, "cycling: more than %ld pivots in one pass (50 n + 1000) at row %d",
                           W->guard, i + 1);
        int m = W->nc;
        double *dxc = W->dxc, *dw = W->dw, *da = W->dwabs;
        if (W->perm) { /* -d A(C, i) = -d A(i, C)' */
            pivot_perm_sync(W);
            const double *ri = W->Ad + (size_t)i * n;
            for (int q = 0; q < m; q++) dxc[q] = -dir * ri[W->cpq[q]];
        } else if (W->Ad) { /* -d A(C, i) */
            const double *ci = W->Ad + (size_t)i * n;
            for (int q = 0; q < m; q++) dxc[q] = -dir * ci[W->cidx[q]];
        } else {
            memset(dxc, 0, (size_t)m * sizeof(double));
            for (int e = T->p[i]; e < T->p[i + 1]; e++)
                if (W->pos[T->j[e]] >= 0) dxc[W->pos[T->j[e]]] = -dir * T->x[e];
        }
        pivot_cc_solve_l(W, dxc); /* dx_C = -d A_CC^-1 A_Ci: L z = -d A_Ci, ... */
        if (W->at_shared && m) { /* z kept: if i joins C, its row of L is -d z (pivot_c_add) */
            for (int q = 0; q < m; q++) W->zc[q] = -dir * dxc[q];
            W->zc_row = i;
        }
        pivot_cc_solve_u(W, dxc); /* ... U dx_C = z */
        int nR = 0, *R = W->rlist; /* the rows at a bound (taken rows: below nr), in order */
        for (int k = 0; k < nr; k++)
            if (W->state[k] == S_LO || W->state[k] == S_HI) R[nR++] = k;
        double dxmax = 1.0, dxsum = 1.0; /* max(1, max|dx|), max(1, sum|dx|) */
        int full = 0;                    /* dxf holds dx */
        if (W->Ad) {
            dxsum = fabs(dir);
            for (int q = 0; q < m; q++) {
                dxmax = MAX2(dxmax, fabs(dxc[q]));
                dxsum += fabs(dxc[q]);
            }
            dxsum = MAX2(dxsum, dxmax);
            if (W->perm) { /* dw_k = A(k, C) dx_C + A(k, i) d on i and the rows at a bound only: the
                            * clamped columns contiguous (Dantzig's scheme, as Bullet and ODE keep it) */
                int pi = W->ppos[i];
                for (int q = 0; q < m; q++) W->dxp[W->cpq[q]] = dxc[q];
                pivot_rows_dot(m, W->Ad, (size_t)n, &i, 1, W->dxp, pi, dir, dw);
                pivot_rows_dot(m, W->Ad, (size_t)n, R, nR, W->dxp, pi, dir, dw);
            } else { /* dw = A dx over the rows up to nr, the moving columns four at a time */
                W->cols[0] = i;
                W->coef[0] = dir;
                memcpy(W->cols + 1, W->cidx, (size_t)m * sizeof(int));
                memcpy(W->coef + 1, dxc, (size_t)m * sizeof(double));
                memset(dw, 0, (size_t)nr * sizeof(double));
                pivot_cols_axpy(nr, m + 1, W->Ad, (size_t)n, W->cols, W->coef, dw);
            }
        } else {
            memset(dw, 0, (size_t)nr * sizeof(double));
            memset(da, 0, (size_t)nr * sizeof(double));
            for (int q = -1; q < m; q++) { /* dw = A dx, column by column */
                int k = q < 0 ? i : W->cidx[q];
                double d = q < 0 ? dir : dxc[q];
                dxmax = MAX2(dxmax, fabs(d));
                for (int e = T->p[k]; e < T->p[k + 1]; e++) {
                    dw[T->j[e]] += T->x[e] * d;
                    da[T->j[e]] += fabs(T->x[e] * d);
                }
            }
            for (int k = 0; k < nr; k++) { /* the rounding scale of dw_k: |A||dx|, at least max|A_k.| max|dx| */
                double f = W->rowmax[k] * dxmax;
                da[k] = PIV_ZERO * MAX2(da[k], f);
            }
        }
        /* the ratio test: row i's own ends first, so that they win ties */
        double tmin = INFINITY, t;
        int kind = B_NONE, blk = -1;
        int moves = dw_moves(W, i, i, dir, dxmax, dxsum, &full); /* the Schur complement is not 0 */
        if (moves && dw[i] * dir < 0) return pivot_negative_schur(W, i, m, dw[i] * dir, dxc, dir);
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
            double bd = d < 0 ? W->lo[k] : W->hi[k];
            if (d < 0 ? bd == -INFINITY : bd == INFINITY) continue; /* t = inf (an lcp's hi): no division */
            t = MAX2(0.0, (bd - x[k]) / d);
            if (t < tmin) {
                tmin = t;
                kind = B_C_OUT;
                blk = q;
            }
        }
        for (int r = 0; r < nR; r++) { /* (d) w_k of a row at a bound reaches 0 (rows taken: below nr) */
            int k = R[r], st = W->state[k];
            if (!((st == S_LO && dw[k] < 0) || (st == S_HI && dw[k] > 0)) || !dw_moves(W, k, i, dir, dxmax, dxsum, &full))
                continue;
            t = MAX2(0.0, -w[k] / dw[k]);
            if (t < tmin) {
                tmin = t;
                kind = B_N_IN;
                blk = k;
            }
        }
        if (full) clear_dxf(W, i);
        if (kind == B_NONE || !isfinite(tmin)) return ray(W, i, dir);
        for (int q = 0; q < m; q++) x[W->cidx[q]] += tmin * dxc[q]; /* the step */
        x[i] += tmin * dir;
        if (W->Ad) { /* w along the step: rows at a bound and i (w_C stays 0; the others are formed when needed) */
            w[i] += tmin * dw[i];
            for (int r = 0; r < nR; r++) w[R[r]] += tmin * dw[R[r]];
        } else {
            for (int k = 0; k < nr; k++) w[k] += tmin * dw[k];
        }
        int done = 0, rc = 0;
        switch (kind) {
        case B_SELF_C: /* (a) */
            w[i] = 0.0;
            rc = pivot_c_add(W, i);
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
            rc = pivot_c_remove(W, blk, up ? S_HI : S_LO);
            break;
        }
        default: /* (d) */
            w[blk] = 0.0;
            rc = pivot_c_add(W, blk);
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
        W->zc_row = -1;
        W->hi_rows = 0; /* no row taken yet */
    }
    W->pass_start = W->pivots;
    if (first && !W->crashed && !W->Ad) { /* w = A x + b (a later pass goes on with w of the last pivot, or of
                                             * the crash; on a dense A each row's w is formed when it is taken) */
        lcp_csr_matvec(&p->A, x, W->w);
        for (int k = 0; k < n; k++) W->w[k] += p->b[k];
    }
    int fchecked = 0; /* ticked pivots: the point checked once before the first findex row */
    for (int o = 0; o < n; o++) {
        int i = W->order[o], fr = p->findex && p->findex[i] >= 0;
        if (!first && !fr) continue;
        if (fr && first && !fchecked) { /* the rows without findex all taken: often solved already (sticking
                                          * friction: w_T ~ 0), as a traced solve would find */
            fchecked = 1;
            if (W->ticked && !W->seen && pivot_check(W, x)) return 1;
        }
        if (first && W->state[i] != S_U) continue; /* taken by the crash start */
        if (fr) {
            double lo, hi;
            lcp_problem_bounds(p, x, i, &lo, &hi);
            int fits = !first && still_fits(W, x, i, lo, hi);
            W->lo[i] = lo;
            W->hi[i] = hi;
            if (fits) continue;
            if (W->state[i] == S_C && pivot_c_remove(W, W->pos[i], S_U)) return -1; /* x_i stays: others unchanged */
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
    /* check the pass's point: a pass without a pivot (every row placed at once: fixed rows, lo = hi) counts one
     * step, as a traced solve does, and without a trace is then checked too (its tick alone checks nothing) */
    if (!W->seen && (W->ticked ? pivot_check(W, x) : pivot_done(W, x) || (W->quick && pivot_check(W, x)))) return 1;
    return 0;
}

/* The workspace of a solve (the two factors, the dense copy of A, the
 * crash's blocks and every vector: one buffer, pv_layout) is the thread's
 * LCP_SCRATCH_PIVOT (src/core/scratch.h), kept between solves: a
 * simulation solving small problems again and again then pays no
 * allocation and no fresh pages a solve (on a virtual machine a page fault
 * costs microseconds: more than the pivots of a 32-row problem); a solve
 * nested in another (a crash guess by pivot) takes its own. */
/* Is x (the caller's start) a warm start: any entry nonzero? */
static int warm_start(const double *x, int n)
{
    for (int k = 0; k < n; k++)
        if (x[k] != 0.0) return 1;
    return 0;
}

static void pv_free(pv *W)
{
    if (!W->at_shared) lcp_csr_free(&W->At);
    lcp_scratch_give(LCP_SCRATCH_PIVOT, W->L); /* every array of the solve: one buffer (pv_layout) */
}

/* The arrays of a solve carved from one buffer at base (NULL: only
 * counted): the two factors, the dense copy of A (dense), the crash's
 * blocks, then the vectors of n1 entries, each on an 8-byte boundary.
 * Returns the doubles it takes. */
static size_t pv_layout(pv *W, double *base, size_t n1, int dense)
{
    size_t nn = n1 * n1, nblk = (2 * n1 + LU_BLOCK) * LU_BLOCK, at = 0;
#define PV_TAKE(ptr, count, type)                                                                                  \
    do {                                                                                                           \
        if (base) (ptr) = (type *)(void *)(base + at);                                                             \
        at += ((count) * sizeof(type) + sizeof(double) - 1) / sizeof(double);                                      \
    } while (0)
    PV_TAKE(W->L, nn, double);
    PV_TAKE(W->Ut, nn, double);
    if (dense) PV_TAKE(W->Ad, nn, double);
    PV_TAKE(W->blk, nblk, double);
    PV_TAKE(W->coef, n1 + 1, double);
    double **dv[] = {&W->dxf, &W->zc, &W->dxp, &W->lo, &W->hi, &W->diag, &W->rowmax, &W->w,
                     &W->dxc, &W->dw, &W->dwabs, &W->xv, &W->yv, &W->tmp, &W->guess};
    for (size_t k = 0; k < sizeof dv / sizeof *dv; k++) PV_TAKE(*dv[k], n1, double);
    PV_TAKE(W->key, n1, lcp_crash_key);
    PV_TAKE(W->cols, n1 + 1, int);
    int **iv[] = {&W->rlist, &W->cperm, &W->ppos, &W->cpq, &W->cidx, &W->pos,
                  &W->state, &W->order, &W->dep, &W->cand};
    for (size_t k = 0; k < sizeof iv / sizeof *iv; k++) PV_TAKE(*iv[k], n1, int);
    PV_TAKE(W->dropq, n1, char);
#undef PV_TAKE
    return at;
}

/* dst (cap bytes) = a, then v in decimal unless v < 0, then b, cut to fit
 * as snprintf would: the notes of every small solve without a format. */
static void note_put(char *dst, size_t cap, const char *a, int v, const char *b)
{
    lcp_text t = {dst, cap, 0};
    lcp_text_put(&t, a);
    if (v >= 0) lcp_text_long(&t, v);
    lcp_text_put(&t, b);
}

/* The crash start (a symmetric A): from the warm start, --crash SOLVER, or
 * (lcp) ipm's answer -- or none, the reason in W->note (dense_skip: none on
 * a dense A of n <= CRASH_DENSE_N under --crash auto, W->dense_scratch set).
 * 1: the monitor stopped the solve there. */
static int crash_start(pv *W, const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon,
                       lcp_info *info, lcp_status status0, int dense_skip)
{
    int n = W->n;
    if (s->crash.mode != LCP_CRASH_NONE) {
        static const char *const by_lcp[] = {"ipm", NULL};
        char how[96] = "";
        if (!W->at_shared && !lcp_csr_is_symmetric(&p->A, 1e-12)) { /* (at_shared: A = A' exactly) */
            note_put(W->note, sizeof W->note, "from scratch (no crash start: A is not symmetric)", -1, "");
        } else if (s->crash.mode == LCP_CRASH_AUTO && p->kind == LCP_KIND_LCP && n <= CRASH_MIN_N &&
                   !warm_start(x, n)) {
            note_put(W->note, sizeof W->note, "from scratch (no crash start: n = ", n,
                     ", where ipm's guess costs more than the pivots)");
        } else if (dense_skip && s->crash.mode == LCP_CRASH_AUTO && p->kind == LCP_KIND_LCP && W->perm &&
                   n <= CRASH_DENSE_N && !warm_start(x, n)) {
            W->dense_scratch = 1;
            note_put(W->note, sizeof W->note, "from scratch (no crash start: a dense A, n = ", n,
                     ", where ipm's guess costs more than the pivots)");
        } else if (lcp_crash_start_guess(p, s, x, p->kind == LCP_KIND_LCP ? by_lcp : NULL, W->guess, mon->t0, how,
                                         sizeof how)) {
            if (s->crash.mode == LCP_CRASH_SOLVER || p->kind == LCP_KIND_LCP)
                snprintf(W->note, sizeof W->note, "from scratch (no crash start: %s gave no answer in time)",
                         s->crash.mode == LCP_CRASH_SOLVER ? s->crash.by->name : "ipm");
        } else {
            int ncl = 0, ndep = 0, npur = -1, nout = 0;
            int rc = pivot_crash(W, x, s->time_limit > 0 ? mon->t0 + s->time_limit : 0.0, &ncl, &ndep, &npur, &nout);
            char pur[48] = "";
            if (npur >= 0) snprintf(pur, sizeof pur, " (purified to a vertex: %d exchanges)", npur);
            if (rc >= 0)
                snprintf(W->note, sizeof W->note,
                         "crash start from %s: %d rows clamped, %d dependent ones dropped%s, %d left to take", how,
                         ncl - ndep, ndep, pur, nout);
            if (rc > 0) return 1;
            if (rc < 0) {
                snprintf(W->note, sizeof W->note, "the crash start from %s failed (%.60s): from scratch", how,
                         *info->message ? info->message : "the clamped set is not positive definite");
                W->crashed = 0;
                W->regs = 0;
                info->status = status0;
                *info->message = '\0';
            }
        }
    }
    return 0;
}

/* The dense n x n matrix D transposed in place, in tiles. */
static void dense_transpose(double *D, int n)
{
    enum { TILE = 32 };
    for (int i0 = 0; i0 < n; i0 += TILE)
        for (int j0 = i0; j0 < n; j0 += TILE) {
            int i1 = i0 + TILE < n ? i0 + TILE : n, j1 = j0 + TILE < n ? j0 + TILE : n;
            for (int i = i0; i < i1; i++)
                for (int j = j0 > i + 1 ? j0 : i + 1; j < j1; j++) {
                    double *a = D + (size_t)i * n + j, *b = D + (size_t)j * n + i;
                    double t = *a;
                    *a = *b;
                    *b = t;
                }
        }
}

/* A(i,i): on a full row (columns 0..n-1 in order) without the search. */
static double diag_of(const lcp_csr *A, int n, int i)
{
    return A->p[i + 1] - A->p[i] == n ? A->x[A->p[i] + i] : lcp_csr_diag(A, i);
}

/* The small path first (pivot_small.h), where the pipeline has not run it (s->small_tried) and nothing asks
 * for the scheme's own pivots (a trace, a callback's rows, --crash none or SOLVER, --order, a preconditioner,
 * --reg's shifted A, MPI processes): from x's sets where x is not 0 (a warm start), else from scratch.  1
 * where the monitor takes its answer (x, info's iterations: its block steps); else 0, x as it was, and the
 * scheme starts as if it had not run. */
static int small_first(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info)
{
    int n = p->n, warm = 0, steps = 0;
    if (s->small_tried || mon->trace || s->on_iteration_rows || s->crash.mode != LCP_CRASH_AUTO || s->order ||
        s->precond || p->reg > 0 || lcp_procs > 1 || n <= 0 || !lcp_pivot_small_fits(p))
        return 0;
    for (int i = 0; i < n && !warm; i++) warm = x[i] != 0.0;
    double *x_in = warm ? lcp_alloc((size_t)n, sizeof *x_in) : NULL; /* the start, for the scheme if need be */
    if (warm && !x_in) return 0;
    if (warm) memcpy(x_in, x, (size_t)n * sizeof *x);
    int ok = lcp_pivot_small(p, x_in, lcp_pivot_small_threshold(p, s->tol, mon->bscale), s->max_iter, x, &steps);
    if (ok) {
        info->iterations = steps;
        ok = lcp_monitor_step(mon, steps, x, NULL) && mon->status == LCP_SOLVED;
    }
    if (!ok) {
        info->iterations = 0;
        if (warm) memcpy(x, x_in, (size_t)n * sizeof *x);
        else memset(x, 0, (size_t)n * sizeof *x);
    }
    free(x_in);
    return ok;
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
    /* the small path first: its block steps take a zero diagonal entry where the block holding it is
     * nonsingular (a convex QP's KKT system) */
    if (small_first(p, s, x, mon, info)) return 0;
    /* A zero diagonal entry in a row or column coupled to others: A is then
     * neither P nor symmetric positive semidefinite (where a zero diagonal
     * forces a zero row and column), and a principal pivot on it is zero */
    for (int i = 0; i < n; i++) {
        if (diag_of(&p->A, n, i) != 0) continue;
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
    size_t n1 = (size_t)(n > 0 ? n : 1);
    int dense = n <= DENSE_COPY_N && ((double)p->A.p[n] >= 0.25 * (double)n * (double)n || n <= DENSE_SMALL_N);
    double *ws = lcp_scratch_take(LCP_SCRATCH_PIVOT, pv_layout(&W, NULL, n1, dense) * sizeof(double)); /* one buffer:
                                                                                           every array of the solve */
    if (ws) {
        pv_layout(&W, ws, n1, dense);
        memset(W.dxf, 0, n1 * sizeof(double));
    }
    W.full_rows = 1;
    for (int k = 0; k < n && W.full_rows; k++) W.full_rows = p->A.p[k + 1] - p->A.p[k] == n;
    int sym;
    if (W.L && W.Ad) { /* a dense A: copied, and the symmetry test on the copy */
        for (int k = 0; k < n; k++) { /* row k at Ad + k n */
            double *r = W.Ad + (size_t)k * n;
            if (p->A.p[k + 1] - p->A.p[k] == n) { /* a full row: columns 0..n-1 in order */
                memcpy(r, p->A.x + p->A.p[k], (size_t)n * sizeof(double));
                continue;
            }
            memset(r, 0, (size_t)n * sizeof(double));
            for (int e = p->A.p[k]; e < p->A.p[k + 1]; e++) r[p->A.j[e]] = p->A.x[e];
        }
        sym = pivot_symmetric(n, W.Ad); /* exactly, as lcp_csr_is_symmetric at tolerance 0 */
        if (!sym) dense_transpose(W.Ad, n); /* column k at Ad + k n */
    } else {
        sym = lcp_csr_is_symmetric(&p->A, 0.0);
    }
    if (sym) { /* A' = A: shared, not copied */
        W.At = p->A;
        W.at_shared = 1;
    }
    W.zc_row = -1;
    if (!W.L || (!W.at_shared && lcp_csr_transpose(&p->A, &W.At))) {
        pv_free(&W);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (pivot, n = %d)", n);
    }
    W.perm = W.Ad && W.at_shared; /* rows of A in Ad (= its columns), their columns permuted as C changes */
    for (int k = 0; k < n; k++) W.cperm[k] = W.ppos[k] = k;
    int nf = 0; /* rows with findex */
    for (int k = 0; k < n; k++) {
        W.diag[k] = W.Ad ? W.Ad[(size_t)k * n + k] : lcp_csr_diag(&p->A, k);
        W.diagmax = MAX2(W.diagmax, fabs(W.diag[k]));
        W.rowmax[k] = pivot_max_abs(p->A.p[k + 1] - p->A.p[k], p->A.x + p->A.p[k]);
        nf += p->findex && p->findex[k] >= 0;
    }
    W.wscale = 1.0;
    for (int k = 0; k < n; k++) W.wscale = MAX2(W.wscale, fabs(p->b[k]));
    int start[3] = {0, 0, 0}; /* order: free rows, bounded rows, findex rows (each in row order); */
    for (int k = 0; k < n; k++) { /* the kinds in cand meanwhile (the crash's, later) */
        int fr = p->findex && p->findex[k] >= 0;
        double lo, hi;
        lcp_problem_bounds(p, x, k, &lo, &hi);
        int kind = fr ? 2 : (lo == -INFINITY && hi == INFINITY) ? 0 : 1;
        W.cand[k] = kind;
        start[kind]++;
    }
    start[2] = start[0] + start[1];
    start[1] = start[0];
    start[0] = 0;
    for (int k = 0; k < n; k++) W.order[start[W.cand[k]]++] = k;

    openblas_set_num_threads(1); /* one BLAS thread: the same bits for every -j */
    info->iterations = 0;
    W.seen = 1;
    W.quick = mon->trace == NULL && !s->on_iteration_rows;
    W.hi_rows = n; /* rows taken may be anywhere (a crash start); a first pass from scratch starts at 0 */
    double extra[2] = {0, 0};
    lcp_status status0 = info->status;
    if (pv_step(&W, 0, x, extra)) goto done; /* the caller's x already does (or a limit) */
    /* the crash start (symmetric A): from the warm start, --crash SOLVER, or (lcp) ipm's answer */
    if (crash_start(&W, p, s, x, mon, info, status0, 1)) goto done;
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
        if ((rc < 0 && info->status == LCP_ERROR) || (!rc && !nf)) {
            if (W.dense_scratch) { /* from scratch on a dense A without an answer: the crash start after all */
                char why[120], note0[sizeof W.note];
                lcp_status st = info->status;
                long regs = W.regs;
                snprintf(why, sizeof why, "%.100s", rc ? info->message : "the residual above tol");
                memcpy(note0, W.note, sizeof note0);
                memcpy(W.dw, x, (size_t)n * sizeof(double)); /* the answer from scratch (dw: unused by the crash) */
                W.dense_scratch = 0;
                W.regs = 0;
                info->status = status0;
                *info->message = '\0';
                memset(x, 0, (size_t)n * sizeof(double)); /* the caller's x was 0 */
                if (crash_start(&W, p, s, x, mon, info, status0, 0)) goto done;
                if (W.crashed) {
                    size_t len = strlen(W.note);
                    snprintf(W.note + len, sizeof W.note - len, ", after the pivots from scratch ended with %s", why);
                    ps = 0;
                    continue;
                }
                /* no guess: the answer from scratch stands, as it was */
                memcpy(x, W.dw, (size_t)n * sizeof(double));
                memcpy(W.note, note0, sizeof note0);
                info->status = st;
                snprintf(info->message, sizeof info->message, "%s", why);
                W.regs = regs;
                if (!rc) *info->message = '\0';
            }
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
    /* the answer's last step of iterative refinement, with the factor of A_CC (no findex: bounds that follow x):
     * the rounding of the pivots' updates shows in w_C on a dense problem of some size (1,000 rows: 2.1e-15 ->
     * 2.2e-16), for two passes over C's rows and one solve, a few percent of the pivots */
    if (mon->status == LCP_SOLVED && W.pivots > 0 && W.nc > 0 && !nf)
        pivot_refine_rows(p, W.cidx, W.nc, W.lo, W.hi, x, cc_solve, &W, W.dxc, W.tmp);
    if (W.regs && info->status != LCP_ERROR && info->status != LCP_NO_SOLUTION && mon->status != LCP_SOLVED) {
        size_t len = strlen(info->message);
        snprintf(info->message + len, sizeof info->message - len, "%s%ld pivots regularised (redundant rows)",
                 len ? "; " : "", W.regs);
    }
    if (*W.note) { /* which start, after the message (a verdict's evidence first) */
        size_t len = strlen(info->message);
        note_put(info->message + len, sizeof info->message - len, len ? "; " : "", -1, W.note);
    }
    info->iterations = W.pivots;
    pv_free(&W);
    return 0;
}

const lcp_solver lcp_solver_pivot = {"pivot",
                                     "principal pivoting (Dantzig/Baraff, ODE dLCP): box bounds, findex "
                                     "friction by bound fixed point",
                                     LCP_KIND_LCP | LCP_KIND_BLCP, columns, pivot_solve, NULL, 0, LCP_SMALL_N};
