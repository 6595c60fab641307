/* src/solvers/jacobi.c: projected Jacobi for lcp and blcp.
 *
 *     x <- mid(lo, x - omega D^-1 (A x + b), hi)       (all rows at once)
 *
 * a projected gradient step in the metric D = diag(A).  For symmetric
 * positive semidefinite A it converges for omega < 2 / lmax(D^-1 A); the
 * default omega (without --omega) is 1 / lmax, estimated by Lanczos
 * (src/la/spectral.c).  Rows are independent, so the update runs on OpenMP
 * threads and gives the same bits for every thread count.  Trace column:
 * max_dx.
 */
#include "solver.h"
#include "../la/spectral.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {"max_dx", NULL};
/* -p diag: the step is already taken in the metric D = diag(A) */
static const char *const preconds[] = {"diag", NULL};

static int jacobi_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon,
                        lcp_info *info, lcp_err *err)
{
    double *dinv = NULL, *xn = NULL, omega = s->omega;
    int rc = lcp_inverse_diagonal(p, "jacobi", &dinv, err);
    if (rc) return rc;
    if (s->omega_auto || s->omega <= 0) { /* default: 1 / lmax */
        double lmin, lmax;
        if (lcp_scaled_spectrum(&p->A, LCP_LANCZOS_STEPS, &lmin, &lmax) || !(lmax > 0)) {
            free(dinv);
            return lcp_fail(err, LCP_ERROR, NULL, 0, "cannot estimate the spectrum of D^-1 A");
        }
        omega = 1.0 / lmax;
    }
    info->omega = omega;
    xn = lcp_alloc((size_t)p->n, sizeof(double));
    if (!xn) {
        free(dinv);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    }
    const int *ap = p->A.p, *aj = p->A.j;
    const double *ax = p->A.x;
    int n = p->n, box = p->kind == LCP_KIND_BLCP;
    double dx = 0.0;
    if (!lcp_monitor_step(mon, 0, x, &dx)) {
        for (int k = 1;; k++) {
            dx = 0.0;
#pragma omp parallel for schedule(static) reduction(max : dx)
            for (int i = 0; i < n; i++) {
                double r = p->b[i];
                for (int q = ap[i]; q < ap[i + 1]; q++) r += ax[q] * x[aj[q]];
                double xi = x[i] - omega * r * dinv[i];
                if (box) {
                    double lo, hi;
                    lcp_problem_bounds(p, x, i, &lo, &hi);
                    xi = fmin(fmax(xi, lo), hi);
                } else if (xi < 0.0) {
                    xi = 0.0;
                }
                dx = fmax(dx, fabs(xi - x[i]));
                xn[i] = xi;
            }
            memcpy(x, xn, (size_t)n * sizeof(double));
            if (lcp_monitor_step(mon, k, x, &dx)) break;
        }
    }
    info->iterations = mon->iter;
    free(dinv);
    free(xn);
    return 0;
}

const lcp_solver lcp_solver_jacobi = {"jacobi", "projected Jacobi (OpenMP rows; default omega 1/lmax)",
                                      LCP_KIND_LCP | LCP_KIND_BLCP, columns, jacobi_solve, preconds, LCP_SOLVER_LINEAR, 0};
