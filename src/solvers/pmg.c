/* src/solvers/pmg.c: projected multigrid for lcp and box lcp with A
 * symmetric positive (semi)definite: the problem is then the convex QP
 *     min f(x) = x'A x / 2 + b'x  over  lo <= x <= hi
 * (lcp: lo = 0, hi = +inf), and every step below lowers f, so the method
 * cannot diverge (in the spirit of Mandel 1984 and Kornhuber's truncated
 * monotone multigrid, 1994).
 *
 * One iteration (one cycle):
 *   1. a forward projected Gauss-Seidel sweep (exact minimisation of f
 *      along each coordinate, within the bounds);
 *   2. the free set: rows inside their bounds, or at a bound that the
 *      gradient w = A x + b does not press them against; rows at a bound with
 *      w pointing outward (x_i = lo_i, w_i > 0, or x_i = hi_i, w_i < 0) are
 *      frozen.  The rows of the finest prolongation P_0 of the
 *      smoothed-aggregation hierarchy (src/precond/mg.h) are masked to the
 *      free rows and the coarse Galerkin operators recomputed, when more
 *      than 0.5% of the rows changed since the last time, or any did 8
 *      cycles ago (in between the correction is zeroed on frozen rows);
 *   3. the coarse-grid correction e = P_0 (V- or W-cycle (--cycle) for
 *      P_0' A P_0 e_c = -P_0' w): zero on frozen rows;
 *   4. c = a e + b s, the minimiser of f over the plane of e and the last
 *      cycle's step s (restricted to free rows): a conjugate-gradient-like
 *      acceleration, which matters where the coarse space is poor
 *      (rank-deficient stacks);
 *   5. two feasible steps, each with its exact line search: along c,
 *      truncated at the first bound it meets, and along the projected
 *      d = mid(lo, x + c, hi) - x (t in [0, the first bound along d]); the
 *      one that lowers f more is taken;
 *   6. a backward projected Gauss-Seidel sweep.
 * On contact chains (all contacts pressed: every row free) this is
 * smoothed-aggregation multigrid with an energy line search: a number of
 * cycles that hardly grows with the length, where projected Gauss-Seidel
 * needs a number of sweeps growing with the square of it.
 *
 * Needs A symmetric with a positive diagonal (refused otherwise, exit 2) and
 * box bounds: findex friction rows are refused (their bounds move with x:
 * not a QP; use pivot, pgs or nsgs).  Trace columns: max_dx (largest change
 * of x in the iteration), active (rows at a bound, frozen for the coarse
 * correction), step (the line-search step t).  An A that is not positive
 * semidefinite shows when the coarse matrix has no Cholesky factor: status
 * error (exit 5).
 */
#include "solver.h"
#include "../precond/mg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {"max_dx", "active", "step", NULL};

/* The step t in [0, tmax] that minimises f(x + t d) = f(x) + t g + t^2 h / 2
 * (g = d'w, h = d'A d); *gain = the decrease of f. */
static double best_step(double g, double h, double tmax, double *gain)
{
    double t = h > 0.0 ? -g / h : (g < 0.0 ? tmax : 0.0);
    if (!(t > 0.0)) t = 0.0;
    if (t > tmax) t = tmax;
    if (!isfinite(t)) t = 0.0;
    *gain = -(t * g + 0.5 * t * t * h);
    if (!isfinite(*gain)) *gain = -INFINITY;
    return t;
}

static int pmg_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                     lcp_err *err)
{
    int n = p->n;
    if (p->kind == LCP_KIND_BLCP && p->findex)
        for (int i = 0; i < n; i++)
            if (p->findex[i] >= 0)
                return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                                "pmg takes box bounds only, but row %d has findex friction bounds (try pivot or pgs)",
                                i + 1);
    double *dinv = NULL;
    int rc = lcp_inverse_diagonal(p, "pmg", &dinv, err);
    if (rc) return rc;
    lcp_mg *mg = NULL;
    if ((rc = lcp_mg_build_projected(&mg, &p->A, s->mg.cycle, "pmg", err))) {
        free(dinv);
        if (rc != LCP_ERROR) return rc;
        /* A not positive semidefinite (no coarse factor): the solver's verdict */
        double extra0[3] = {0.0, 0.0, 0.0};
        lcp_monitor_step(mon, 0, x, extra0);
        info->iterations = 0;
        info->status = LCP_ERROR;
        snprintf(info->message, sizeof info->message, "%.255s", err->msg);
        return 0;
    }
    double *lo = lcp_alloc((size_t)n + 1, sizeof(double)), *hi = lcp_alloc((size_t)n + 1, sizeof(double));
    double *w = lcp_alloc((size_t)n + 1, sizeof(double)), *r = lcp_alloc((size_t)n + 1, sizeof(double));
    double *e = lcp_alloc((size_t)n + 1, sizeof(double)), *d = lcp_alloc((size_t)n + 1, sizeof(double));
    double *ad = lcp_alloc((size_t)n + 1, sizeof(double)), *ae = lcp_alloc((size_t)n + 1, sizeof(double));
    double *sv = lcp_alloc((size_t)n + 1, sizeof(double)), *as = lcp_alloc((size_t)n + 1, sizeof(double));
    double *xprev = lcp_alloc((size_t)n + 1, sizeof(double)), *wprev = lcp_alloc((size_t)n + 1, sizeof(double));
    unsigned char *fr = lcp_calloc((size_t)n + 1, 1), *prev = lcp_calloc((size_t)n + 1, 1);
    lcp_gs smooth; /* the smoother's rows: pgs, omega 1 */
    int nogs = lcp_gs_init(&smooth, p, dinv, 1.0);
    if (nogs || !lo || !hi || !w || !r || !e || !d || !ad || !ae || !sv || !as || !xprev || !wprev || !fr || !prev) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "pmg: out of memory");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        if (p->kind == LCP_KIND_BLCP) lcp_problem_bounds(p, x, i, &lo[i], &hi[i]);
        else lo[i] = 0.0, hi[i] = INFINITY;
    }
    /* the starting point inside the box (a warm start may not be) */
    for (int i = 0; i < n; i++) x[i] = fmin(fmax(x[i], lo[i]), hi[i]);

    double extra[3] = {0.0, 0.0, 0.0};
    int masked = 0, have_prev = 0;
    for (int i = 0; i < n; i++) extra[1] += !(x[i] > lo[i] && x[i] < hi[i]);
    if (!lcp_monitor_step(mon, 0, x, extra)) {
        for (int k = 1;; k++) {
            double dx = lcp_pgs_sweep(p, &smooth, x, 0, n - 1, 1);
            lcp_csr_matvec(&p->A, x, w);
            int nfree = 0, changed = 0;
            for (int i = 0; i < n; i++) {
                w[i] += p->b[i];
                /* frozen: at a bound that the gradient presses it against */
                fr[i] = !((x[i] <= lo[i] && w[i] > 0.0) || (x[i] >= hi[i] && w[i] < 0.0));
                nfree += fr[i];
                changed += fr[i] != prev[i];
            }
            double t = 0.0;
            if (nfree > 0) {
                /* the coarse operators follow the free set; a few rows
                 * changing only every few iterations (the correction is zeroed
                 * on frozen rows below either way) */
                if (!masked || (size_t)changed * 200 > (size_t)n || (changed && k - masked >= 8)) {
                    if ((rc = lcp_mg_mask(mg, fr, err))) {
                        info->status = LCP_ERROR;
                        snprintf(info->message, sizeof info->message, "%.255s", err->msg);
                        rc = 0;
                        break;
                    }
                    memcpy(prev, fr, (size_t)n);
                    masked = k;
                }
                for (int i = 0; i < n; i++) r[i] = fr[i] ? -w[i] : 0.0;
                lcp_mg_coarse_correction(mg, r, e);
                for (int i = 0; i < n; i++)
                    if (!fr[i]) e[i] = 0.0;
                /* c = a e + b s minimises f over the plane of e and the last
                 * step s (free rows); then d = mid(lo, x + c, hi) - x */
                double alpha = 1.0, beta = 0.0;
                lcp_csr_matvec(&p->A, e, ae);
                if (have_prev) {
                    int exact = 1; /* A s = w - w_prev when s is not masked */
                    for (int i = 0; i < n; i++) {
                        sv[i] = x[i] - xprev[i];
                        if (!fr[i] && sv[i] != 0.0) exact = 0, sv[i] = 0.0;
                    }
                    if (exact) for (int i = 0; i < n; i++) as[i] = w[i] - wprev[i];
                    else lcp_csr_matvec(&p->A, sv, as);
                    double hee = 0, hes = 0, hss = 0, ge = 0, gs = 0;
                    for (int i = 0; i < n; i++) {
                        hee += e[i] * ae[i], hes += e[i] * as[i], hss += sv[i] * as[i];
                        ge += e[i] * w[i], gs += sv[i] * w[i];
                    }
                    double det = hee * hss - hes * hes;
                    if (hee > 0 && hss > 0 && det > 1e-10 * hee * hss) {
                        alpha = (-ge * hss + gs * hes) / det;
                        beta = (-gs * hee + ge * hes) / det;
                    } else {
                        have_prev = 0;
                    }
                }
                memcpy(xprev, x, (size_t)n * sizeof(double));
                memcpy(wprev, w, (size_t)n * sizeof(double));
                /* two feasible candidates: x + t c with t up to the first bound
                 * c meets, and x + t d with d = mid(lo, x + c, hi) - x; the one
                 * that lowers f more wins */
                double gc = 0.0, hc = 0.0, tmc = INFINITY, gd = 0.0, tmd = INFINITY, dmax = 0.0, cmax = 0.0;
                int clipped = 0;
                for (int i = 0; i < n; i++) {
                    double c = have_prev ? alpha * e[i] + beta * sv[i] : e[i];
                    double aci = have_prev ? alpha * ae[i] + beta * as[i] : ae[i];
                    e[i] = c;
                    ae[i] = aci;
                    gc += c * w[i];
                    hc += c * aci;
                    cmax = fmax(cmax, fabs(c));
                    if (c < 0.0) tmc = fmin(tmc, (x[i] - lo[i]) / -c);
                    else if (c > 0.0) tmc = fmin(tmc, (hi[i] - x[i]) / c);
                    d[i] = fmin(fmax(x[i] + c, lo[i]), hi[i]) - x[i];
                    clipped |= d[i] != c;
                    gd += d[i] * w[i];
                    dmax = fmax(dmax, fabs(d[i]));
                    if (d[i] < 0.0) tmd = fmin(tmd, (x[i] - lo[i]) / -d[i]);
                    else if (d[i] > 0.0) tmd = fmin(tmd, (hi[i] - x[i]) / d[i]);
                }
                double gain_c, gain_d = -INFINITY;
                t = best_step(gc, hc, tmc, &gain_c);
                const double *step = e;
                double smax = cmax;
                if (clipped && dmax > 0.0) {
                    lcp_csr_matvec(&p->A, d, ad);
                    double hd = 0.0;
                    for (int i = 0; i < n; i++) hd += d[i] * ad[i];
                    double td = best_step(gd, hd, fmax(tmd, 1.0), &gain_d);
                    if (gain_d > gain_c) {
                        t = td;
                        step = d;
                        smax = dmax;
                    }
                }
                if (t > 0.0) {
                    for (int i = 0; i < n; i++) x[i] = fmin(fmax(x[i] + t * step[i], lo[i]), hi[i]);
                    dx = fmax(dx, t * smax);
                }
                have_prev = 1;
            }
            dx = fmax(dx, lcp_pgs_sweep(p, &smooth, x, n - 1, 0, -1));
            extra[0] = dx;
            extra[1] = n - nfree;
            extra[2] = t;
            if (lcp_monitor_step(mon, k, x, extra)) break;
        }
    }
    info->iterations = mon->iter;
done:
    free(lo), free(hi), free(w), free(r), free(e), free(d), free(ad), free(ae), free(sv), free(as);
    free(xprev), free(wprev), free(fr), free(prev);
    if (!nogs) lcp_gs_free(&smooth);
    free(dinv);
    lcp_mg_free(mg);
    return rc;
}

const lcp_solver lcp_solver_pmg = {"pmg",
                                   "projected multigrid: PGS smoothing, smoothed-aggregation coarse correction "
                                   "on the free rows, energy line search (A symmetric psd; --cycle V|W)",
                                   LCP_KIND_LCP | LCP_KIND_BLCP, columns, pmg_solve, NULL, LCP_SOLVER_MONOTONE | LCP_SOLVER_LINEAR, 0};
