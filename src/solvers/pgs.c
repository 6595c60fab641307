/* src/solvers/pgs.c: projected Gauss-Seidel and its relatives, for lcp and
 * blcp (Cottle, Pang and Stone, ch. 5; Murty ch. 9; Erleben 2007).
 *
 * One sweep over the rows i = 0..n-1 (sgs: then back n-1..0):
 *     r_i      = b_i + sum_k A_ik x_k                 (row residual, current x)
 *     x_i     <- mid(lo_i, x_i - omega * r_i / A_ii, hi_i)
 * with lo = 0, hi = +inf for lcp, the box (and findex friction bounds
 * +-mu_i |x_j|, taken at the current x) for blcp.  On an lcp the same
 * update is taken in another order of its operations, set up once a solve
 * (lcp_gs_init):
 *     s_i  = b_i + sum_{k != i-1} A_ik x_k        (column i-1 left out)
 *     x_i <- max(0, (x_i - c_i s_i) - g_i x_{i-1}),
 *     c_i  = omega / A_ii,  g_i = c_i A_i,i-1  (0 where row i has no such entry)
 * so that in a forward sweep the new x_{i-1} reaches row i through one
 * product, a subtraction and the projection, not through the whole sum and
 * its scaling: the row-to-row path that bounds a sweep on rows of few
 * entries (a column of spheres: rows of 3).  b_i, c_i and g_i are one array
 * (lcp_gs_row: one stream, one pointer).
 *   pgs : omega = 1 (--omega is for psor and sgs)
 *   psor: omega from --omega; without it (or with --omega auto) the estimate
 *         2 / (1 + sqrt(1 - rho^2)) of the optimal factor, rho the spectral
 *         radius of the Jacobi iteration I - D^-1 A, estimated by Lanczos
 *         (src/la/spectral.c) within a work budget (choose_omega), at most
 *         1.9995; 1 when rho >= 1 (stopped as soon as lmax >= 2) or A is
 *         numerically singular (lmin <= 1e-10 lmax)
 *   sgs : a forward and a backward sweep per iteration (symmetric SOR with
 *         --omega, default 1)
 * Every row needs A_ii > 0.  Trace column: max_dx, the largest change of x
 * in the iteration.
 *
 * Memory traffic (the sweeps are bound by it on large problems, or by the
 * row-to-row path above on short rows): on an lcp the row update has its
 * own loop (lcp_row: no call, no reload of the problem's fields); pgs and
 * psor in natural order also fuse the monitor's
 * residual and metrics into the sweep (fused_solve: A read once an
 * iteration, not twice), with the same bits as the plain loop, and no
 * branch on the data in the row loop; that sweep
 * reads its own copy of A with rows padded to a multiple of 4 entries (one
 * loop of whole steps a row: padded_build below), and sums w_i in the
 * residual's order (lcp_csr_row_dot, four running sums).
 */
#include "../core/scratch.h"
#include "solver.h"
#include "../la/spectral.h"

#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {"max_dx", NULL};
/* -p diag: Gauss-Seidel is invariant under the symmetric scaling
 * D^-1/2 A D^-1/2 (the sweep already divides by A_ii), so the steps are the
 * ones without it; taken so that scripts may pass it to every solver. */
static const char *const preconds[] = {"diag", NULL};

/* Inverse diagonal of A; fails (with the row) when a diagonal is not positive. */
int lcp_inverse_diagonal(const lcp_problem *p, const char *solver, double **dinv, lcp_err *err)
{
    double *d = lcp_alloc((size_t)p->n, sizeof(double));
    if (!d) return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    for (int i = 0; i < p->n; i++) {
        double a = lcp_csr_diag(&p->A, i);
        if (!(a > 0)) {
            free(d);
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                            "%s needs a positive diagonal, but A(%d,%d) = %g (try lemke, pivot or ipm)",
                            solver, i + 1, i + 1, a);
        }
        d[i] = 1.0 / a;
    }
    *dinv = d;
    return 0;
}

/* psor's estimate: its work budget (multiply-adds), its least number of
 * Lanczos steps, the relative lmin taken as 0, and the largest factor */
#define OMEGA_WORK 2e8
#define OMEGA_MIN_STEPS 30
#define OMEGA_SINGULAR 1e-10
#define OMEGA_MAX 1.9995

/* The relaxation factor: --omega W; --omega auto (or no --omega when
 * estimate_by_default) estimates the optimal one; otherwise 1.  An
 * estimate says what it found in why (the summary's note). */
static int choose_omega(const lcp_problem *p, const lcp_settings *s, int estimate_by_default, double *omega,
                        char *why, size_t len, lcp_err *err)
{
    *omega = 1.0;
    if (s->omega > 0 && !s->omega_auto) {
        *omega = s->omega;
        return 0;
    }
    if (!s->omega_auto && !estimate_by_default) return 0;
    /* A budget of Lanczos steps (a product with A each, about a sweep's
     * cost): LCP_LANCZOS_STEPS where A is small (long chains need them to
     * resolve lmin), fewer where it is large, at most about OMEGA_WORK
     * multiply-adds in all.  Stopped early, lmin is over-estimated, so the
     * factor is below the optimum: slower, never unstable.  The estimate
     * also stops as soon as lmax >= 2 (then rho >= 1 whatever lmin is). */
    long nnz = lcp_csr_nnz(&p->A);
    double budget = OMEGA_WORK / (double)(nnz > 0 ? nnz : 1);
    int steps = budget >= LCP_LANCZOS_STEPS ? LCP_LANCZOS_STEPS
                : budget < OMEGA_MIN_STEPS  ? OMEGA_MIN_STEPS
                                            : (int)budget;
    double lmin, lmax;
    if (lcp_scaled_spectrum_until(&p->A, steps, 2.0, &lmin, &lmax, NULL))
        return lcp_fail(err, LCP_ERROR, NULL, 0, "cannot estimate the Jacobi spectral radius");
    double rho = fmax(fabs(1.0 - lmin), fabs(1.0 - lmax));
    /* rho >= 1 (lmax >= 2), or lmin indistinguishable from 0 (a singular A,
     * e.g. rank-deficient contact sets, where Lanczos ends at lmin ~ 1e-16
     * and the formula would give omega = 2 - 0): the linear theory gives no
     * usable optimum, and over-relaxation only slows the modes that do
     * converge: use 1 */
    if (rho >= 1.0 || lmin <= OMEGA_SINGULAR * lmax) {
        snprintf(why, len, "omega 1 (--omega auto: %s, no optimum to estimate; --omega W sets one)",
                 rho >= 1.0 ? "the Jacobi iteration does not contract (lmax of D^-1 A >= 2)"
                            : "A is singular to the estimate (lmin of D^-1 A ~ 0)");
        return 0;
    }
    *omega = 2.0 / (1.0 + sqrt(1.0 - rho * rho));
    if (*omega > OMEGA_MAX) *omega = OMEGA_MAX;
    snprintf(why, len, "omega %.4g (--omega auto: the optimum for the Jacobi spectral radius %.4g, estimated)", *omega,
             rho);
    return 0;
}

int lcp_gs_init(lcp_gs *gs, const lcp_problem *p, const double *dinv, double omega)
{
    gs->dinv = dinv, gs->omega = omega, gs->row = NULL;
    if (p->kind != LCP_KIND_LCP) return 0;
    int n = p->n;
    lcp_gs_row *row = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof *row);
    if (!row) return -1;
    for (int i = 0; i < n; i++) {
        row[i] = (lcp_gs_row){.b = p->b[i], .c = omega * dinv[i], .g = 0.0};
        for (int k = p->A.p[i]; i > 0 && k < p->A.p[i + 1] && p->A.j[k] < i; k++)
            if (p->A.j[k] == i - 1) row[i].g = row[i].c * p->A.x[k];
    }
    gs->row = row;
    return 0;
}

void lcp_gs_free(lcp_gs *gs)
{
    free(gs->row);
    gs->row = NULL;
}

/* The projected update of blcp row i; returns |dx|.  r_i in
 * lcp_csr_row_dot's order (four running sums, then + b_i). */
static inline double pgs_row(const lcp_problem *p, const lcp_gs *gs, double *x, int i)
{
    const int *ap = p->A.p, *aj = p->A.j;
    const double *ax = p->A.x;
    double r = lcp_csr_row_dot(aj, ax, x, ap[i], ap[i + 1]) + p->b[i];
    double xi = x[i] - gs->omega * r * gs->dinv[i];
    double lo, hi;
    lcp_problem_bounds(p, x, i, &lo, &hi);
    xi = fmin(fmax(xi, lo), hi);
    double d = fabs(xi - x[i]);
    x[i] = xi;
    return d;
}

/* The update of lcp row i (the header's), the arrays passed in: no call in
 * the row loop and no reload of the problem's fields after each store to
 * x.  s_i is summed with x_{i-1} set to 0 for the time (its entry adds +-0
 * to its running sum, which leaves the sum as it is): the other entries in
 * lcp_csr_row_dot's order, with no test on the columns.  For sweeps that
 * update one row at a time (x_{i-1} is nobody else's meanwhile); returns
 * |dx|. */
static inline double lcp_row(const int *restrict ap, const int *restrict aj, const double *restrict ax,
                             const lcp_gs_row *restrict rw, double *restrict x, int i)
{
    double v = 0.0; /* x_{i-1}; g_0 = 0 */
    if (i > 0) v = x[i - 1], x[i - 1] = 0.0;
    double s = lcp_csr_row_dot(aj, ax, x, ap[i], ap[i + 1]) + rw[i].b;
    if (i > 0) x[i - 1] = v;
    double xi = x[i], xn = lcp_sel_max(0.0, (xi - rw[i].c * s) - rw[i].g * v);
    x[i] = xn;
    return fabs(xn - xi);
}

/* lcp_row for the colour-parallel sweep, which writes x_i alone: the entry
 * of column i-1 left out of s_i by its column (lcp_csr_row_dot_except: the
 * same bits), and x_{i-1} read only where row i has that entry (g_i != 0:
 * then i-1 is in another class, not being written); where g_i = 0 the term
 * is left out (lcp_row takes 0 x_{i-1}: the same but for a non-finite
 * x_{i-1} or the sign of a zero; every thread count runs this function). */
static inline double lcp_row_shared(const int *restrict ap, const int *restrict aj, const double *restrict ax,
                                    const lcp_gs_row *restrict rw, double *restrict x, int i)
{
    double s = lcp_csr_row_dot_except(aj, ax, x, ap[i], ap[i + 1], i - 1) + rw[i].b;
    double xi = x[i], xn = xi - rw[i].c * s;
    if (rw[i].g != 0.0) xn -= rw[i].g * x[i - 1];
    xn = lcp_sel_max(0.0, xn);
    x[i] = xn;
    return fabs(xn - xi);
}

/* fmax (a NaN argument gives the other), inline: libm's is a call a row */
static inline double max_nan(double a, double b) { return (b > a || a != a) ? b : a; }

/* the arguments of lcp_row from the problem */
#define LCP_ROW_ARGS(p, gs) (p)->A.p, (p)->A.j, (p)->A.x, (gs)->row

/* One sweep over rows first..last (step +1 or -1); returns max |dx|. */
double lcp_pgs_sweep(const lcp_problem *p, const lcp_gs *gs, double *x, int first, int last, int step)
{
    double dmax = 0.0;
    if (p->kind == LCP_KIND_LCP) {
        const int *ap = p->A.p, *aj = p->A.j;
        const double *ax = p->A.x;
        const lcp_gs_row *rw = gs->row;
        if (step > 0)
            for (int i = first; i <= last; i++) dmax = max_nan(dmax, lcp_row(ap, aj, ax, rw, x, i));
        else
            for (int i = first; i >= last; i--) dmax = max_nan(dmax, lcp_row(ap, aj, ax, rw, x, i));
        return dmax;
    }
    for (int i = first; i != last + step; i += step) dmax = max_nan(dmax, pgs_row(p, gs, x, i));
    return dmax;
}

/* One sweep in the order o (backward when step < 0).  With colour classes
 * the rows of a class share no entry of A (nor a findex link), so they are
 * updated at once on the OpenMP threads: every thread count gives the bits
 * of the sequential sweep in the same order. */
static double ordered_sweep(const lcp_problem *p, const lcp_gs *gs, double *x, const lcp_order *o, int step)
{
    double dmax = 0.0;
    int lcp = p->kind == LCP_KIND_LCP;
    if (o->ncolours > 0) {
        /* one team for the whole sweep: a barrier between classes, not a fork */
#pragma omp parallel reduction(max : dmax)
        for (int cc = 0; cc < o->ncolours; cc++) {
            int c = step > 0 ? cc : o->ncolours - 1 - cc;
#pragma omp for schedule(static)
            for (int k = o->cptr[c]; k < o->cptr[c + 1]; k++)
                dmax = max_nan(dmax, lcp ? lcp_row_shared(LCP_ROW_ARGS(p, gs), x, o->perm[k])
                                         : pgs_row(p, gs, x, o->perm[k]));
        }
        return dmax;
    }
    for (int kk = 0; kk < o->n; kk++) {
        int i = o->perm[step > 0 ? kk : o->n - 1 - kk];
        dmax = max_nan(dmax, lcp ? lcp_row(LCP_ROW_ARGS(p, gs), x, i) : pgs_row(p, gs, x, i));
    }
    return dmax;
}



/* A's rows padded with zeros to a multiple of PAD_ROW entries, for the
 * fused sweep: each pad entry is 0 at column i (row i's own, so x_i is at
 * hand), added after the row's own entries.  Adding 0 * x_i (+-0 for a
 * finite x_i) leaves a sum as it is unless the sum is -0, which the
 * running sums of r and w (started at +0) never are: the iterates and w
 * have the bits of the rows without the pads while x is finite (with x_i
 * infinite, row i's sums turn NaN instead of +-Inf: non-finite either way
 * for the metrics).  A pad at entry e of its row falls in running sum
 * e mod 4, as it would in lcp_csr_row_dot.  The
 * row loop then runs PAD_ROW entries a step with no remainder: one loop a row
 * whose trip count varies less, instead of a loop of varying length whose
 * exit was mispredicted on every row of a pile (rows of 14 to 23 entries). */
enum { PAD_ROW = 4 };

/* The entries of A's padded copy. */
static long padded_count(const lcp_csr *A)
{
    long nz = 0;
    for (int i = 0; i < A->m; i++) nz += (A->p[i + 1] - A->p[i] + PAD_ROW - 1) / PAD_ROW * PAD_ROW;
    return nz;
}

/* The padded copy into a, whose p (m + 1), j and x (padded_count) are
 * given. */
static void padded_build(const lcp_csr *A, lcp_csr *a)
{
    int n = A->m;
    a->m = n, a->n = A->n;
    a->p[0] = 0;
    int t = 0;
    for (int i = 0; i < n; i++) {
        for (int k = A->p[i]; k < A->p[i + 1]; k++, t++) a->j[t] = A->j[k], a->x[t] = A->x[k];
        for (; t % PAD_ROW; t++) a->j[t] = i, a->x[t] = 0.0;
        a->p[i + 1] = t;
    }
}

/* fused_solve's workspace (the padded A, x_old, the chunk's w, the
 * partials) in one block, the thread's LCP_SCRATCH_SWEEP (src/core/scratch.h):
 * kept between solves (up to 4 MiB), so that a small problem solved again
 * and again allocates nothing and touches no fresh page (a page fault on a
 * virtual machine costs microseconds: more than a sweep of a small
 * problem); a solve nested in another one's takes its own block. */

/* A forward sweep over the rows of an lcp (the bits of lcp_pgs_sweep) that
 * also computes, from the same pass over A, w = A x_old + b with x_old the
 * iterate the sweep starts from, in the residual's summation order
 * (lcp_csr_row_dot's four running sums, then + b_i: lcp_verify's bits),
 * leaves x_old in xo, and the metrics' partial of x_old and w for each
 * chunk of LCP_VERIFY_CHUNK rows in parts (lcp_verify's bits).  x_old is
 * copied to xo first; row i then takes two products a nonzero, a_ij x_j
 * and a_ij xo_j: A (padded, above) is read once for the sweep and the
 * residual check of the iterate before it, instead of twice.
 *
 * The row loop keeps to what the next row waits on or must have in row
 * order: the new x_{i-1} stays in a register (xp) and x[i-1] holds 0 while
 * row i is summed (lcp_row's s_i), x[i-1] = xp written after it: row i
 * waits on row i-1 through g_i xp, a subtraction and the projection, not
 * through a store, a reload and the whole sum (about 1.6 times the rows a
 * second on a column of spheres, whose rows of three entries left little
 * else to overlap).  w_i goes to the chunk's buffer w (LCP_VERIFY_CHUNK
 * doubles) and x_i w_i to the metrics' sum, in row order; the metrics'
 * maxima and NaN flag, and the largest change of x, are taken once a chunk
 * over xo, w and x by lcp_verify_lcp_rows, several rows an instruction
 * (about 1.3 times the rows a second on the column again, against those
 * terms row by row in the loop).  One loop a row, PAD_ROW entries a step,
 * at least one step (every row has its diagonal).
 *
 * SSE2 (every x86-64): the running sums 0 and 2 of r in one register, 1
 * and 3 in another, the same for w, then (s0 + s1, s2 + s3) and their sum
 * with the two halves apart: the same operations on the same values as the
 * scalar loop (the same bits). */
static double fused_sweep(const lcp_problem *p, const lcp_csr *a, const lcp_gs_row *restrict rw,
                          double *restrict x, double *restrict xo, double *restrict w,
                          lcp_verify_partial *restrict parts)
{
    const int *restrict ap = a->p, *restrict aj = a->j;
    const double *restrict ax = a->x;
    double dmax = 0.0, xp = 0.0; /* xp: the new x_{i-1} (g_0 = 0) */
    memcpy(xo, x, (size_t)p->n * sizeof(double));
    for (int lo = 0, c = 0; lo < p->n; lo += LCP_VERIFY_CHUNK, c++) {
        int hi = p->n - lo > LCP_VERIFY_CHUNK ? lo + LCP_VERIFY_CHUNK : p->n;
        double comp = 0.0; /* the metrics' sum of x_i w_i, in row order */
        for (int i = lo; i < hi; i++) {
            int k = ap[i], e = ap[i + 1];
            double r, wi;
#ifdef __SSE2__
            __m128d rp = _mm_setzero_pd(), rq = rp, sp = rp, sq = rp; /* r's sums (0, 2), (1, 3); w's */
            do {                                                      /* PAD_ROW = 4, written out */
                __m128d a01 = _mm_loadu_pd(ax + k), a23 = _mm_loadu_pd(ax + k + 2);
                __m128d a02 = _mm_unpacklo_pd(a01, a23), a13 = _mm_unpackhi_pd(a01, a23);
                int j0 = aj[k], j1 = aj[k + 1], j2 = aj[k + 2], j3 = aj[k + 3];
                rp = _mm_add_pd(rp, _mm_mul_pd(a02, _mm_loadh_pd(_mm_load_sd(x + j0), x + j2)));
                rq = _mm_add_pd(rq, _mm_mul_pd(a13, _mm_loadh_pd(_mm_load_sd(x + j1), x + j3)));
                sp = _mm_add_pd(sp, _mm_mul_pd(a02, _mm_loadh_pd(_mm_load_sd(xo + j0), xo + j2)));
                sq = _mm_add_pd(sq, _mm_mul_pd(a13, _mm_loadh_pd(_mm_load_sd(xo + j1), xo + j3)));
                k += PAD_ROW;
            } while (k < e);
            __m128d R = _mm_add_pd(rp, rq), S = _mm_add_pd(sp, sq); /* (r0 + r1, r2 + r3), w's */
            __m128d rs = _mm_add_pd(_mm_add_pd(_mm_unpacklo_pd(R, S), _mm_unpackhi_pd(R, S)), _mm_set1_pd(rw[i].b));
            r = _mm_cvtsd_f64(rs), wi = _mm_cvtsd_f64(_mm_unpackhi_pd(rs, rs));
#else
            double r0 = 0.0, r1 = 0.0, r2 = 0.0, r3 = 0.0, s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
            do {
                r0 += ax[k] * x[aj[k]], s0 += ax[k] * xo[aj[k]];
                r1 += ax[k + 1] * x[aj[k + 1]], s1 += ax[k + 1] * xo[aj[k + 1]];
                r2 += ax[k + 2] * x[aj[k + 2]], s2 += ax[k + 2] * xo[aj[k + 2]];
                r3 += ax[k + 3] * x[aj[k + 3]], s3 += ax[k + 3] * xo[aj[k + 3]];
                k += PAD_ROW;
            } while (k < e);
            r = ((r0 + r1) + (r2 + r3)) + rw[i].b, wi = ((s0 + s1) + (s2 + s3)) + rw[i].b;
#endif
            double xi = xo[i], xn = lcp_sel_max(0.0, (xi - rw[i].c * r) - rw[i].g * xp); /* no branch */
            if (i > 0) x[i - 1] = xp;
            x[i] = 0.0; /* for row i + 1's sum */
            xp = xn;
            w[i - lo] = wi;
            comp += xi * wi;
        }
        x[hi - 1] = xp; /* the chunk's new x whole, for a moment (row hi's sum needs 0 there) */
        parts[c] = (lcp_verify_partial){.comp = comp};
        lcp_verify_lcp_rows(&parts[c], xo + lo, w, hi - lo, x + lo, &dmax);
        x[hi - 1] = 0.0;
    }
    if (p->n > 0) x[p->n - 1] = xp;
    return dmax;
}

/* pgs and psor on an lcp in natural order (no --order, no --reg): each
 * fused_sweep k+1 gives the metrics' partials of iterate k, whose sum
 * (lcp_verify_add in chunk order, lcp_verify_finish: the residual of
 * docs/contract.md, the bits lcp_verify and so lcp_monitor_step would get) goes
 * to the monitor as iteration k.  The same iterates, decisions and answer as
 * the plain loop (on a stop x is set back to the iterate judged), one sweep
 * more, and one pass over A an iteration instead of two; |b|_inf taken once
 * (lcp_verify_finish_b), and an improving iterate given to the monitor as
 * its best by a swap of buffers, not a copy (lcp_monitor_record_give).  The
 * padded copy of A costs its memory (about 12 bytes a nonzero) for the
 * solve.  -1 when there is no memory for the workspace (the caller runs the
 * plain loop). */
static int fused_solve(const lcp_problem *p, const lcp_gs *gs, double *x, lcp_monitor *mon)
{
    int n = p->n, nchunks = (n + LCP_VERIFY_CHUNK - 1) / LCP_VERIFY_CHUNK;
    long nz = padded_count(&p->A);
    if (nz > INT_MAX) return -1;
    /* one block (lcp_scratch_take): the doubles a->x (nz), w (a chunk's rows), the
     * partials, then the ints a->p (n + 1), a->j (nz); each part on a cache
     * line of its own.  xo apart: the monitor may keep it as its best
     * iterate (lcp_monitor_record_give swaps buffers) */
    size_t nw = (size_t)(n < LCP_VERIFY_CHUNK ? (n > 0 ? n : 1) : LCP_VERIFY_CHUNK);
#define WS_LINE(b) (((b) + 63) / 64 * 64)
    size_t o_w = WS_LINE((size_t)(nz > 0 ? nz : 1) * sizeof(double)), o_parts = o_w + WS_LINE(nw * sizeof(double)),
           o_p = o_parts + WS_LINE((size_t)(nchunks > 0 ? nchunks : 1) * sizeof(lcp_verify_partial)),
           o_j = o_p + WS_LINE(((size_t)n + 1) * sizeof(int)), bytes = o_j + WS_LINE((size_t)(nz > 0 ? nz : 1) * sizeof(int));
#undef WS_LINE
    char *ws = lcp_scratch_take(LCP_SCRATCH_SWEEP, bytes);
    double *xo = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(double));
    if (!ws || !xo) {
        lcp_scratch_give(LCP_SCRATCH_SWEEP, ws);
        free(xo);
        return -1;
    }
    lcp_csr a = {.x = (double *)ws, .p = (int *)(ws + o_p), .j = (int *)(ws + o_j)};
    padded_build(&p->A, &a);
    double *w = (double *)(ws + o_w);
    lcp_verify_partial *parts = (lcp_verify_partial *)(ws + o_parts);
    double dx = 0.0, bscale = lcp_verify_bscale(p); /* dx: the largest change of the iteration judged (0 for the start) */
    for (int k = 0;; k++) {
        double next = fused_sweep(p, &a, gs->row, x, xo, w, parts);
        lcp_verify_partial t = {0};
        if (nchunks > 0) t = parts[0];
        for (int c = 1; c < nchunks; c++) lcp_verify_add(p, &t, &parts[c]);
        lcp_metrics m;
        lcp_verify_finish_b(p, &t, bscale, &m);
        const double *judged = xo;
        double tc = lcp_monitor_time(mon); /* read only where it is read */
        if (lcp_monitor_record_give(mon, k, tc, 0, &m, &xo, &dx)) {
            memcpy(x, xo == judged ? xo : mon->best_x, (size_t)n * sizeof(double));
            break;
        }
        dx = next;
    }
    free(xo);
    lcp_scratch_give(LCP_SCRATCH_SWEEP, ws);
    return 0;
}

/* relax: 0 for omega = 1 (pgs); 1 for --omega or 1 (sgs); 2 for --omega or
 * the estimated optimum (psor). */
static int gs_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                    lcp_err *err, const char *name, int symmetric, int relax)
{
    double *dinv = NULL, omega = 1.0;
    int rc = lcp_inverse_diagonal(p, name, &dinv, err);
    if (rc) return rc;
    lcp_gs gs;
    if (!(relax && (rc = choose_omega(p, s, relax == 2, &omega, info->message, sizeof info->message, err))) &&
        lcp_gs_init(&gs, p, dinv, omega))
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "%s: out of memory", name);
    if (rc) {
        free(dinv);
        return rc;
    }
    info->omega = omega;
    double dx = 0.0;
    if (!symmetric && !s->order && p->kind == LCP_KIND_LCP && !(p->reg > 0) && !fused_solve(p, &gs, x, mon))
        ; /* done: the residual check fused into the sweeps */
    else if (!lcp_monitor_step(mon, 0, x, &dx)) {
        lcp_team team; /* colour classes: the sweeps' threads, chosen by their times */
        lcp_team_init(&team, s->order && s->order->ncolours > 0 ? s->threads : 1);
        for (int k = 1;; k++) {
            lcp_team_begin(&team);
            if (s->order) {
                dx = ordered_sweep(p, &gs, x, s->order, 1);
                if (symmetric) dx = fmax(dx, ordered_sweep(p, &gs, x, s->order, -1));
            } else {
                dx = lcp_pgs_sweep(p, &gs, x, 0, p->n - 1, 1);
                if (symmetric) dx = fmax(dx, lcp_pgs_sweep(p, &gs, x, p->n - 1, 0, -1));
            }
            int stop = lcp_monitor_step(mon, k, x, &dx);
            lcp_team_end(&team);
            if (stop) break;
        }
        lcp_team_done(&team);
    }
    info->iterations = mon->iter;
    lcp_gs_free(&gs);
    free(dinv);
    return 0;
}

static int pgs_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                     lcp_err *err)
{
    return gs_solve(p, s, x, mon, info, err, "pgs", 0, 0);
}

static int psor_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon,
                      lcp_info *info, lcp_err *err)
{
    return gs_solve(p, s, x, mon, info, err, "psor", 0, 2);
}

static int sgs_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                     lcp_err *err)
{
    return gs_solve(p, s, x, mon, info, err, "sgs", 1, 1);
}

const lcp_solver lcp_solver_pgs = {"pgs", "projected Gauss-Seidel over sparse rows",
                                   LCP_KIND_LCP | LCP_KIND_BLCP, columns, pgs_solve, preconds, LCP_SOLVER_ORDER | LCP_SOLVER_LINEAR, 0};
const lcp_solver lcp_solver_psor = {"psor", "projected SOR (--omega W, or --omega auto)",
                                    LCP_KIND_LCP | LCP_KIND_BLCP, columns, psor_solve, preconds, LCP_SOLVER_ORDER | LCP_SOLVER_LINEAR, 0};
const lcp_solver lcp_solver_sgs = {"sgs", "symmetric projected Gauss-Seidel (forward + backward sweep)",
                                   LCP_KIND_LCP | LCP_KIND_BLCP, columns, sgs_solve, preconds, LCP_SOLVER_ORDER | LCP_SOLVER_LINEAR, 0};
