/* src/solvers/si.c: sequential impulses, as game engines run them (Catto,
 * "Iterative dynamics with temporal coherence", GDC 2005, and Box2D; Bullet's
 * btSequentialImpulseConstraintSolver), for lcp, blcp, ccp and fc3d problems
 * given in factored form (M, J, v[, e]): A = J M^-1 J', b = J v + e
 * (docs/contract.md).
 *
 * The solver works on the body velocities, never on A:
 *     u = v + M^-1 J' lambda                       (nb: the bodies' velocities)
 * and one sweep visits the contact rows i = 0..n-1 in order:
 *     c_i      = j_i u + e_i                       (the row's relative velocity = w_i)
 *     lambda_i <- mid(lo_i, lambda_i - c_i / A_ii, hi_i)   (the ACCUMULATED impulse clamped)
 *     u       += (lambda_i new - lambda_i old) M^-1 j_i'
 * with lo = 0, hi = +inf for lcp; the box, and findex friction bounds
 * +-mu_i |lambda_j| at the current lambda, for blcp.  A_ii = j_i M^-1 j_i'
 * is the row's effective mass (inverse), formed once.  In exact arithmetic
 * the iterates are those of pgs on A (omega 1); the cost of a row is
 * nnz(j_i) + nnz(M^-1 j_i') instead of nnz(A_i), and nothing of size
 * nnz(A) is ever formed or read.
 *
 * M^-1 j_i': the rows of Y = (M^-1 J')' (n x nb), computed once by
 * lcp_minv_jt (src/la/factored.c): dense inverses of M's blocks (the bodies)
 * applied to the parts of each j_i on the blocks it touches, O(nnz(J) k)
 * for blocks of k columns (CHOLMOD when M is not block-diagonal).
 * e: taken as b - J v, so that a problem whose folder gives both A, b and
 * M, J, v solves the b the residual is measured with.  The starting lambda (zeros, or --warm-start
 * scaled by --warm-factor and --dt-ratio in main.c) gives u = v + Y' lambda.
 * u is recomputed from lambda every REFRESH sweeps, so that rounding in the
 * incremental updates does not pile up over long runs.
 *
 * Stopping: the monitor (the residual of docs/contract.md, from A x + b) decides
 * "solved".  The solver also stops on its own when a whole sweep changed
 * every impulse by less than the tolerance in the residual's units:
 * max_i A_ii |dlambda_i| <= tol max(1, ||b||_inf) / 100 (the change of the
 * row's velocity an impulse change makes; a stagnating sweep), with a note
 * in info->message; the status is then the monitor's (max_iter, exit 1,
 * unless the residual is below tol).  Trace column: max_dlambda, the
 * largest |dlambda_i| of the sweep (impulse units).
 *
 * Friction (ccp, fc3d; contact c = rows 3c normal, 3c+1, 3c+2 tangents), as
 * Box2D and Jolt do it: the contact's normal row first,
 *     lambda_n <- max(0, lambda_n - c_n / A_nn),   u updated,
 * then the tangent pair with the new u, one step along -c_T clamped to the
 * disc of radius mu lambda_n:
 *     lambda_T <- P_disc(mu lambda_n)(lambda_T - alpha c_T),
 *     alpha = 1 / max(A_t1t1, A_t2t2),
 * a common step for both tangents, so that at a sliding fixed point c_T is
 * opposite lambda_T (the exact 2x2 step W_TT^-1 c_T would bend the sliding
 * direction when A_t1t1 != A_t2t2).  The fixed points are then exactly the
 * fc3d solutions (De Saxce: r_n > 0 => u_n = 0, take-off u_n >= 0, stick
 * u = 0, slide u_T = -s r_T).  For ccp the normal row uses
 * c_n - mu |c_T| (the ccp in u is the fc3d in u - mu |u_T| e_n, as in
 * src/solvers/nsgs.c), so that a sliding contact separates at
 * u_n = mu |u_T|.  No convergence theory (the disc moves with lambda_n);
 * the monitor's fc3d/ccp residual decides, as for the others.
 *
 * Refused (exit 2): problems given as A only (no M, J, v: use pgs, the same
 * iteration on A, or nsgs for friction), a zero row of J (A_ii = 0), an M
 * that is not positive definite.
 */
#include "solver.h"
#include "../la/factored.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {"max_dlambda", NULL};

#define REFRESH 128 /* sweeps between recomputations of u from lambda */

/* u = v + Y' x */
static void body_velocity(const lcp_problem *p, const lcp_csr *Y, const double *x, double *u)
{
    int nb = p->M.m;
    memcpy(u, p->v, (size_t)nb * sizeof(double));
    for (int i = 0; i < Y->m; i++) {
        if (x[i] == 0.0) continue;
        for (int k = Y->p[i]; k < Y->p[i + 1]; k++) u[Y->j[k]] += Y->x[k] * x[i];
    }
}

static int si_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                    lcp_err *err)
{
    if (!p->M.p || !p->J.p || !p->v)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                        "si needs the factored form (M, J, v: -M -J -v or M.mtx J.mtx v.mtx), this problem gives "
                        "only A; use -s pgs (the same iteration on A), or nsgs for friction");
    if (p->J.m != p->n || p->J.n != p->M.m)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "si: J is %d x %d, but A is %d x %d and M %d x %d", p->J.m,
                        p->J.n, p->n, p->n, p->M.m, p->M.n);
    int n = p->n, nb = p->M.m, rc;
    lcp_csr Y;
    if ((rc = lcp_minv_jt(p, &Y, err))) return rc;
    double *aii = lcp_alloc((size_t)n, sizeof(double));
    double *ainv = lcp_alloc((size_t)n, sizeof(double));
    double *ebar = lcp_alloc((size_t)n, sizeof(double));
    double *u = lcp_alloc((size_t)nb, sizeof(double));
    double *work = lcp_calloc((size_t)nb, sizeof(double));
    if (!aii || !ainv || !ebar || !u || !work) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "si: out of memory");
        goto done;
    }
    const int *jp = p->J.p, *jj = p->J.j, *yp = Y.p, *yj = Y.j;
    const double *jx = p->J.x, *yx = Y.x;
    /* effective masses A_ii = j_i . (M^-1 j_i') and ebar = b - J v */
    for (int i = 0; i < n; i++) {
        for (int k = yp[i]; k < yp[i + 1]; k++) work[yj[k]] = yx[k];
        double a = 0.0, jv = 0.0;
        for (int k = jp[i]; k < jp[i + 1]; k++) {
            a += jx[k] * work[jj[k]];
            jv += jx[k] * p->v[jj[k]];
        }
        for (int k = yp[i]; k < yp[i + 1]; k++) work[yj[k]] = 0.0;
        if (!(a > 0.0)) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                          "si needs j_i M^-1 j_i' > 0 for every row, but row %d of J gives %g (a zero row of J?)",
                          i + 1, a);
            goto done;
        }
        aii[i] = a;
        ainv[i] = 1.0 / a;
        ebar[i] = p->b[i] - jv;
    }
    double bmax = 1.0;
    for (int i = 0; i < n; i++) bmax = fmax(bmax, fabs(p->b[i]));
    const double stall = 1e-2 * s->tol * bmax;
    int box = p->kind == LCP_KIND_BLCP;

    body_velocity(p, &Y, x, u);
    double dmax = 0.0;
    if (!lcp_monitor_step(mon, 0, x, &dmax)) {
        for (int it = 1;; it++) {
            double dvel = 0.0;
            dmax = 0.0;
            if (it % REFRESH == 0) body_velocity(p, &Y, x, u);
            if (p->kind & LCP_KIND_FRICTION) {
                for (int c = 0; c < p->nc; c++) {
                    int i0 = 3 * c;
                    double v3[3], d3[3];
                    for (int r = 0; r < 3; r++) {
                        double t = ebar[i0 + r];
                        for (int k = jp[i0 + r]; k < jp[i0 + r + 1]; k++) t += jx[k] * u[jj[k]];
                        v3[r] = t;
                    }
                    /* normal: ccp's velocity is fc3d's minus mu |u_T| (the Coulomb law on u - mu |u_T| e_n) */
                    double vn = v3[0];
                    if (p->kind == LCP_KIND_CCP) vn -= p->mu[c] * sqrt(v3[1] * v3[1] + v3[2] * v3[2]);
                    double xn = fmax(0.0, x[i0] - vn * ainv[i0]);
                    d3[0] = xn - x[i0];
                    if (d3[0] != 0.0) {
                        for (int k = yp[i0]; k < yp[i0 + 1]; k++) u[yj[k]] += d3[0] * yx[k];
                        x[i0] = xn;
                    }
                    /* tangent pair: one step alpha = 1 / max(A_t1t1, A_t2t2) for both (a step along
                     * -u_T, so that a sliding fixed point has u_T opposite r_T), clamped to the disc
                     * of radius mu lambda_n */
                    for (int r = 1; r < 3; r++) {
                        double t = ebar[i0 + r];
                        for (int k = jp[i0 + r]; k < jp[i0 + r + 1]; k++) t += jx[k] * u[jj[k]];
                        v3[r] = t;
                    }
                    double alpha = 1.0 / fmax(aii[i0 + 1], aii[i0 + 2]);
                    double t1 = x[i0 + 1] - alpha * v3[1], t2 = x[i0 + 2] - alpha * v3[2];
                    double R = p->mu[c] * x[i0], tn = sqrt(t1 * t1 + t2 * t2);
                    if (tn > R) {
                        double f = R > 0 ? R / tn : 0.0;
                        t1 *= f;
                        t2 *= f;
                    }
                    d3[1] = t1 - x[i0 + 1];
                    d3[2] = t2 - x[i0 + 2];
                    for (int r = 1; r < 3; r++)
                        if (d3[r] != 0.0) {
                            for (int k = yp[i0 + r]; k < yp[i0 + r + 1]; k++) u[yj[k]] += d3[r] * yx[k];
                            x[i0 + r] += d3[r];
                        }
                    for (int r = 0; r < 3; r++) {
                        dmax = fmax(dmax, fabs(d3[r]));
                        dvel = fmax(dvel, fabs(d3[r]) * aii[i0 + r]);
                    }
                }
            } else
            for (int i = 0; i < n; i++) {
                double c = ebar[i];
                for (int k = jp[i]; k < jp[i + 1]; k++) c += jx[k] * u[jj[k]];
                double xi = x[i] - c * ainv[i];
                if (box) {
                    double lo, hi;
                    lcp_problem_bounds(p, x, i, &lo, &hi);
                    xi = fmin(fmax(xi, lo), hi);
                } else if (xi < 0.0) {
                    xi = 0.0;
                }
                double d = xi - x[i];
                if (d == 0.0) continue;
                x[i] = xi;
                for (int k = yp[i]; k < yp[i + 1]; k++) u[yj[k]] += d * yx[k];
                dmax = fmax(dmax, fabs(d));
                dvel = fmax(dvel, fabs(d) * aii[i]);
            }
            if (lcp_monitor_step(mon, it, x, &dmax)) break;
            if (dvel <= stall) {
                snprintf(info->message, sizeof info->message,
                         "si stopped: the impulse changes of sweep %d are below tol (max A_ii |dlambda| = %.3g), "
                         "residual %.3g",
                         it, dvel, mon->last.residual);
                break;
            }
        }
    }
    info->iterations = mon->iter;
done:
    lcp_csr_free(&Y);
    free(aii);
    free(ainv);
    free(ebar);
    free(u);
    free(work);
    return rc;
}

const lcp_solver lcp_solver_si = {"si",
                                  "sequential impulses on body velocities (factored form M, J, v; Box2D/Bullet)",
                                  LCP_KIND_LCP | LCP_KIND_BLCP | LCP_KIND_FRICTION, columns, si_solve, NULL, LCP_SOLVER_LINEAR, 0};
