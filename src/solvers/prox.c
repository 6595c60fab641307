/* src/solvers/prox.c: proximal-point iteration around the Alart-Curnier
 * Newton of nsn, for ccp and fc3d (Rockafellar 1976; Siconos'
 * fc3d_proximal).
 *
 * Outer iteration k solves the regularised problem
 *     u = (W + sigma I) r + q - sigma r_k      (= W r + q + sigma (r - r_k))
 * from r_k with nsn's globalised Newton step (src/solvers/nsn.h: the same
 * code, no copy), at most INNER_STEPS steps, until its own natural-map
 * residual is below max(tol / 10, residual_k / 10); the answer is r_{k+1}.
 * W + sigma I is better conditioned than W, and nonsingular where W is
 * only positive semidefinite (rank-deficient contact sets: stacks,
 * pyramids), where plain nsn needs its fallbacks.  A solution of the
 * regularised problem with r = r_k solves the problem itself.
 *
 * sigma starts at the mean diagonal of W, is divided by 10 after an inner
 * solve that converged (down to 1e-14 times the mean diagonal) and
 * multiplied by 10 after one that did not (then r_{k+1} = r_k unless the
 * inner iterate has the smaller residual); above 1e10 times the mean
 * diagonal the solve stops with status error.
 *
 * One iteration = one outer (proximal) step.  Trace columns: sigma (of the
 * step), inner (its Newton steps), merit (the inner merit at its end).
 */
#include "nsn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INNER_STEPS 25
#define SIGMA_DOWN 10.0
#define SIGMA_UP 10.0
#define SIGMA_MIN 1e-14
#define SIGMA_MAX 1e10

static const char *const columns[] = {"sigma", "inner", "merit", NULL};

static int prox_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                      lcp_err *err)
{
    int n = p->n;
    nsn_work *w;
    int rc = nsn_work_new(p, &w, err);
    if (rc) return rc;
    double *rk = lcp_alloc((size_t)n, sizeof(double));
    if (!rk) {
        nsn_work_free(w);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    }
    double dsum = 0.0;
    int dcnt = 0;
    for (int i = 0; i < n; i++) {
        double d = lcp_csr_diag(&p->A, i);
        if (d > 0) dsum += d, dcnt++;
    }
    double scale = dcnt ? dsum / dcnt : 1.0, sigma = scale;
    double extra[3] = {sigma, 0, nsn_eval(w, x)};
    if (!lcp_monitor_step(mon, 0, x, extra)) {
        double res = mon->last.residual;
        for (int k = 1;; k++) {
            memcpy(rk, x, (size_t)n * sizeof(double));
            nsn_set_prox(w, sigma, rk);
            nsn_eval(w, x);
            double itol = fmax(0.1 * s->tol, 0.1 * res);
            int steps = 0, conv = 0;
            for (;;) {
                if (nsn_residual(w, x) <= itol) {
                    conv = 1;
                    break;
                }
                if (steps >= INNER_STEPS) break;
                double t;
                int st = nsn_step(w, x, &t, err);
                if (st == LCP_ERROR) {
                    rc = st;
                    goto done;
                }
                if (st == 1) break;
                steps++;
            }
            extra[0] = sigma;
            extra[1] = steps;
            extra[2] = nsn_merit(w);
            if (!conv) {                                     /* keep the better of r_k and the inner iterate */
                nsn_set_prox(w, 0.0, NULL);
                nsn_eval(w, x);
                if (!(nsn_residual(w, x) < res)) memcpy(x, rk, (size_t)n * sizeof(double));
            }
            if (lcp_monitor_step(mon, k, x, extra)) break;
            res = mon->last.residual;
            sigma = conv ? fmax(sigma / SIGMA_DOWN, SIGMA_MIN * scale) : sigma * SIGMA_UP;
            if (sigma > SIGMA_MAX * scale) {
                info->status = LCP_ERROR;
                snprintf(info->message, sizeof info->message,
                         "the proximal regularisation grew past %g without a converged inner solve (residual %.3e)",
                         SIGMA_MAX * scale, res);
                break;
            }
        }
    }
done:
    info->iterations = mon->iter;
    free(rk);
    nsn_work_free(w);
    return rc;
}

const lcp_solver lcp_solver_prox = {
    "prox", "proximal point around nsn's Newton: W + sigma I, sigma adapted (rank-deficient W)",
    LCP_KIND_CCP | LCP_KIND_FC3D, columns, prox_solve, NULL, LCP_SOLVER_FACTOR, 0};
