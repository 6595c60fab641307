/* src/solvers/pgs.c: projected Gauss-Seidel and its relatives, for lcp and
 * blcp (Cottle, Pang and Stone, ch. 5; Murty ch. 9; Erleben 2007).
 *
 * One sweep over the rows i = 0..n-1 (sgs: then back n-1..0):
 *     r_i      = b_i + sum_k A_ik x_k                 (row residual, current x)
 *     x_i     <- mid(lo_i, x_i - omega * r_i / A_ii, hi_i)
 * with lo = 0, hi = +inf for lcp, the box (and findex friction bounds
 * +-mu_i |x_j|, taken at the current x) for blcp.
 *   pgs : omega = 1 (--omega is for psor and sgs)
 *   psor: omega from --omega; without it (or with --omega auto) the estimate
 *         2 / (1 + sqrt(1 - rho^2)) of the optimal factor, rho the spectral
 *         radius of the Jacobi iteration I - D^-1 A, estimated by Lanczos
 *         (src/spectral.c) within a work budget (choose_omega), at most
 *         1.9995; 1 when rho >= 1 (stopped as soon as lmax >= 2) or A is
 *         numerically singular (lmin <= 1e-10 lmax)
 *   sgs : a forward and a backward sweep per iteration (symmetric SOR with
 *         --omega, default 1)
 * Every row needs A_ii > 0.  Trace column: max_dx, the largest change of x
 * in the iteration.
 *
 * Memory traffic (the sweeps are bound by it on large problems): on an lcp
 * the row update has its own loop (lcp_row: no call, no reload of the
 * problem's fields); pgs and psor in natural order also fuse the monitor's
 * residual and metrics into the sweep (fused_solve: A read once an
 * iteration, not twice, x_old and w not read again), with the same bits as
 * the plain loop, and no branch on the data in the row loop; that sweep
 * reads its own copy of A with rows padded to a multiple of 4 entries (one
 * loop of whole steps a row: padded_build below), and sums w_i in the
 * residual's order (lcp_csr_row_dot, four running sums).
 */
#include "solver.h"
#include "../spectral.h"

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
 * estimate_by_default) estimates the optimal one; otherwise 1. */
static int choose_omega(const lcp_problem *p, const lcp_settings *s, int estimate_by_default, double *omega,
                        lcp_err *err)
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
    if (rho >= 1.0 || lmin <= OMEGA_SINGULAR * lmax) return 0;
    *omega = 2.0 / (1.0 + sqrt(1.0 - rho * rho));
    if (*omega > OMEGA_MAX) *omega = OMEGA_MAX;
    return 0;
}

/* The projected update of row i; returns |dx|.  r_i in lcp_csr_row_dot's
 * order (four running sums, then + b_i): four chains of adds, not one as
 * long as the row, which bounded the sweep on rows of 28 entries (a
 * pyramid of boxes: 1.89 -> 1.75 s for 1,000 sweeps of pyramid-100000). */
static inline double pgs_row(const lcp_problem *p, const double *dinv, double omega, double *x, int i)
{
    const int *ap = p->A.p, *aj = p->A.j;
    const double *ax = p->A.x;
    double r = lcp_csr_row_dot(aj, ax, x, ap[i], ap[i + 1]) + p->b[i];
    double xi = x[i] - omega * r * dinv[i];
    if (p->kind == LCP_KIND_BLCP) {
        double lo, hi;
        lcp_problem_bounds(p, x, i, &lo, &hi);
        xi = fmin(fmax(xi, lo), hi);
    } else if (xi < 0.0) {
        xi = 0.0;
    }
    double d = fabs(xi - x[i]);
    x[i] = xi;
    return d;
}

/* pgs_row for lcp (bounds 0 and +inf), the arrays of A passed in: no call
 * in the row loop (the blcp bounds are one) and no reload of the problem's
 * fields after each store to x, so the loop is loads, multiply-adds and
 * one store a row.  The same operations in the same order: the same bits. */
static inline double lcp_row(const int *restrict ap, const int *restrict aj, const double *restrict ax,
                             const double *restrict b, const double *restrict dinv, double omega, double *restrict x,
                             int i)
{
    double r = lcp_csr_row_dot(aj, ax, x, ap[i], ap[i + 1]) + b[i];
    double xi = x[i] - omega * r * dinv[i];
    if (xi < 0.0) xi = 0.0;
    double d = fabs(xi - x[i]);
    x[i] = xi;
    return d;
}

/* fmax (a NaN argument gives the other), inline: libm's is a call a row */
static inline double max_nan(double a, double b) { return (b > a || a != a) ? b : a; }

/* the arguments of lcp_row from the problem */
#define LCP_ROW_ARGS(p) (p)->A.p, (p)->A.j, (p)->A.x, (p)->b

/* One sweep over rows first..last (step +1 or -1); returns max |dx|. */
double lcp_pgs_sweep(const lcp_problem *p, const double *dinv, double omega, double *x, int first, int last,
                     int step)
{
    double dmax = 0.0;
    if (p->kind == LCP_KIND_LCP) {
        const int *ap = p->A.p, *aj = p->A.j;
        const double *ax = p->A.x, *b = p->b;
        if (step > 0)
            for (int i = first; i <= last; i++) dmax = max_nan(dmax, lcp_row(ap, aj, ax, b, dinv, omega, x, i));
        else
            for (int i = first; i >= last; i--) dmax = max_nan(dmax, lcp_row(ap, aj, ax, b, dinv, omega, x, i));
        return dmax;
    }
    for (int i = first; i != last + step; i += step) dmax = max_nan(dmax, pgs_row(p, dinv, omega, x, i));
    return dmax;
}

/* One sweep in the order o (backward when step < 0).  With colour classes
 * the rows of a class share no entry of A (nor a findex link), so they are
 * updated at once on the OpenMP threads: every thread count gives the bits
 * of the sequential sweep in the same order. */
static double ordered_sweep(const lcp_problem *p, const double *dinv, double omega, double *x, const lcp_order *o,
                            int step)
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
                dmax = max_nan(dmax, lcp ? lcp_row(LCP_ROW_ARGS(p), dinv, omega, x, o->perm[k])
                                         : pgs_row(p, dinv, omega, x, o->perm[k]));
        }
        return dmax;
    }
    for (int kk = 0; kk < o->n; kk++) {
        int i = o->perm[step > 0 ? kk : o->n - 1 - kk];
        dmax = max_nan(dmax, lcp ? lcp_row(LCP_ROW_ARGS(p), dinv, omega, x, i) : pgs_row(p, dinv, omega, x, i));
    }
    return dmax;
}

extern volatile sig_atomic_t lcp_interrupted; /* src/solvers/monitor.c, set by main's signal handler */

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

/* The padded copy, an lcp_csr (-1 when there is no memory, or the padded
 * count exceeds an int) */
static int padded_build(const lcp_csr *A, lcp_csr *a)
{
    int n = A->m;
    long nz = 0;
    for (int i = 0; i < n; i++) nz += (A->p[i + 1] - A->p[i] + PAD_ROW - 1) / PAD_ROW * PAD_ROW;
    if (lcp_csr_alloc(a, n, A->n, nz > 0 ? nz : 1)) return -1;
    int t = 0;
    for (int i = 0; i < n; i++) {
        for (int k = A->p[i]; k < A->p[i + 1]; k++, t++) a->j[t] = A->j[k], a->x[t] = A->x[k];
        for (; t % PAD_ROW; t++) a->j[t] = i, a->x[t] = 0.0;
        a->p[i + 1] = t;
    }
    return 0;
}

/* A forward sweep over the rows of an lcp (the bits of lcp_pgs_sweep) that
 * also computes, from the same pass over A, w = A x_old + b with x_old the
 * iterate the sweep starts from, in the residual's summation order
 * (lcp_csr_row_dot's four running sums, then + b_i: lcp_verify's bits),
 * leaves x_old in xo, and
 * the metrics' partial of x_old and w for each chunk of LCP_VERIFY_CHUNK
 * rows in parts (lcp_verify_row_lcp: lcp_verify_w's bits once added in chunk
 * order).  x_old is copied to xo first; row i then takes two products a
 * nonzero, a_ij x_j (x_j updated for j < i) and a_ij xo_j: A (padded, above)
 * is read once for the sweep and the residual check of the iterate before
 * it, instead of twice, and w_i is used where it is computed (neither
 * stored nor read again).
 *
 * One loop a row, PAD_ROW entries a step: the loop cut at the diagonal (one
 * product below it, with x and xo apart, one shared from it on) cost a
 * second loop exit and a test a nonzero, mispredicted once or twice a row;
 * the copy costs a pass over x, small beside A.  r is summed in lcp_row's
 * order (four running sums too): the iterates of the plain loop, bit for
 * bit. */
static double fused_sweep(const lcp_problem *p, const lcp_csr *a, const double *restrict dinv, double omega,
                          double *restrict x, double *restrict xo, lcp_verify_partial *restrict parts)
{
    const int *restrict ap = a->p, *restrict aj = a->j;
    const double *restrict ax = a->x, *restrict b = p->b;
    double dmax = 0.0;
    memcpy(xo, x, (size_t)p->n * sizeof(double));
    for (int lo = 0, c = 0; lo < p->n; lo += LCP_VERIFY_CHUNK, c++) {
        int hi = p->n - lo > LCP_VERIFY_CHUNK ? lo + LCP_VERIFY_CHUNK : p->n, bad = 0;
        double res = 0.0, comp = 0.0, feas = 0.0;
        for (int i = lo; i < hi; i++) {
            double r0 = 0.0, r1 = 0.0, r2 = 0.0, r3 = 0.0, s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
            for (int k = ap[i]; k < ap[i + 1]; k += PAD_ROW) { /* PAD_ROW = 4, written out */
                r0 += ax[k] * x[aj[k]], s0 += ax[k] * xo[aj[k]];
                r1 += ax[k + 1] * x[aj[k + 1]], s1 += ax[k + 1] * xo[aj[k + 1]];
                r2 += ax[k + 2] * x[aj[k + 2]], s2 += ax[k + 2] * xo[aj[k + 2]];
                r3 += ax[k + 3] * x[aj[k + 3]], s3 += ax[k + 3] * xo[aj[k + 3]];
            }
            double r = ((r0 + r1) + (r2 + r3)) + b[i], wi = ((s0 + s1) + (s2 + s3)) + b[i], xi = xo[i];
            double xn = xi - omega * r * dinv[i];
            xn = lcp_sel_max(0.0, xn); /* if (xn < 0) xn = 0, without a branch */
            double d = fabs(xn - xi);
            x[i] = xn;
            dmax = lcp_max_nan(dmax, d);
            lcp_verify_row_lcp(xi, wi, &res, &comp, &feas, &bad);
        }
        parts[c] = (lcp_verify_partial){.res = res, .comp = comp, .feas = feas, .nan = bad};
    }
    return dmax;
}

/* pgs and psor on an lcp in natural order (no --order, no --reg): each
 * fused_sweep k+1 gives the metrics' partials of iterate k, whose sum
 * (lcp_verify_add in chunk order, lcp_verify_finish: the residual of
 * DESIGN.md, the bits lcp_verify and so lcp_monitor_step would get) goes
 * to the monitor as iteration k.  The same iterates, decisions and answer as
 * the plain loop (on a stop x is set back to the iterate judged), one sweep
 * more, and one pass over A an iteration instead of two; |b|_inf taken once
 * (lcp_verify_finish_b), and an improving iterate given to the monitor as
 * its best by a swap of buffers, not a copy (lcp_monitor_record_give).  The
 * padded copy of A costs its memory (about 12 bytes a nonzero) for the
 * solve.  -1 when there is no memory for the workspace (the caller runs the
 * plain loop). */
static int fused_solve(const lcp_problem *p, const double *dinv, double omega, double *x, lcp_monitor *mon)
{
    int n = p->n, nchunks = (n + LCP_VERIFY_CHUNK - 1) / LCP_VERIFY_CHUNK;
    lcp_csr a;
    if (padded_build(&p->A, &a)) return -1;
    double *xo = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(double));
    lcp_verify_partial *parts = lcp_alloc((size_t)(nchunks > 0 ? nchunks : 1), sizeof *parts);
    if (!xo || !parts) {
        free(xo), free(parts), lcp_csr_free(&a);
        return -1;
    }
    double dx = 0.0, bscale = lcp_verify_bscale(p); /* dx: the largest change of the iteration judged (0 for the start) */
    for (int k = 0;; k++) {
        double next = fused_sweep(p, &a, dinv, omega, x, xo, parts);
        lcp_verify_partial t = {0};
        if (nchunks > 0) t = parts[0];
        for (int c = 1; c < nchunks; c++) lcp_verify_add(p, &t, &parts[c]);
        lcp_metrics m;
        lcp_verify_finish_b(p, &t, bscale, &m);
        const double *judged = xo;
        if (lcp_monitor_record_give(mon, k, lcp_now() - mon->t0, lcp_interrupted, &m, &xo, &dx)) {
            memcpy(x, xo == judged ? xo : mon->best_x, (size_t)n * sizeof(double));
            break;
        }
        dx = next;
    }
    free(xo), free(parts), lcp_csr_free(&a);
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
    if (relax && (rc = choose_omega(p, s, relax == 2, &omega, err))) {
        free(dinv);
        return rc;
    }
    info->omega = omega;
    double dx = 0.0;
    if (!symmetric && !s->order && p->kind == LCP_KIND_LCP && !(p->reg > 0) && !fused_solve(p, dinv, omega, x, mon))
        ; /* done: the residual check fused into the sweeps */
    else if (!lcp_monitor_step(mon, 0, x, &dx)) {
        for (int k = 1;; k++) {
            if (s->order) {
                dx = ordered_sweep(p, dinv, omega, x, s->order, 1);
                if (symmetric) dx = fmax(dx, ordered_sweep(p, dinv, omega, x, s->order, -1));
            } else {
                dx = lcp_pgs_sweep(p, dinv, omega, x, 0, p->n - 1, 1);
                if (symmetric) dx = fmax(dx, lcp_pgs_sweep(p, dinv, omega, x, p->n - 1, 0, -1));
            }
            if (lcp_monitor_step(mon, k, x, &dx)) break;
        }
    }
    info->iterations = mon->iter;
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
                                   LCP_KIND_LCP | LCP_KIND_BLCP, columns, pgs_solve, preconds, LCP_SOLVER_ORDER};
const lcp_solver lcp_solver_psor = {"psor", "projected SOR (--omega W, or --omega auto)",
                                    LCP_KIND_LCP | LCP_KIND_BLCP, columns, psor_solve, preconds, LCP_SOLVER_ORDER};
const lcp_solver lcp_solver_sgs = {"sgs", "symmetric projected Gauss-Seidel (forward + backward sweep)",
                                   LCP_KIND_LCP | LCP_KIND_BLCP, columns, sgs_solve, preconds, LCP_SOLVER_ORDER};
