/* src/mpi/solvers.c: the distributed solvers of `make MPI=1` (run under
 * mpirun; one process is fine too), over the partition of src/mpi/dist.h.
 *
 *  mpi-pgs     colour-ordered projected Gauss-Seidel (lcp, blcp): the
 *              sweep of `pgs --order colour`, bit for bit, for every
 *              number of processes; a halo exchange after each class.
 *  mpi-nsgs    colour-ordered nonsmooth Gauss-Seidel over contacts (ccp,
 *              fc3d): nsgs's contact update (lcp_nsgs_update: --local,
 *              --omega, --rho) in the classes of `nsgs --order colour`,
 *              bit for bit, for every number of processes.
 *  mpi-jacobi  projected Jacobi, x <- mid(lo, x - omega D^-1 (A x + b), hi),
 *              omega = 1/lmax(D^-1 A) (60 Lanczos steps, --omega to set
 *              it); one exchange a sweep.
 *  mpi-apgd    accelerated projected gradient (Nesterov with the gradient
 *              restart of O'Donoghue and Candes, as src/solvers/apgd.c)
 *              in the metric M = D^-1 (lcp, blcp without findex) or one
 *              scalar a contact, 3 / trace of its block (ccp), with the
 *              fixed step 1/(1.05 lmax(M A)) (60 Lanczos steps); A
 *              symmetric positive semidefinite.  A y is combined from the
 *              products of the last two iterates, so an iteration costs one
 *              product with A and one exchange.
 * Trace column halo_bytes: bytes all processes sent so far. */
#include "dist.h"
#include "../la/spectral.h"
#include "../core/verify.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {"halo_bytes", NULL};

/* x whole on every process at the end: the last and the best iterate */
static void finish(lcp_dist *d, double *x, lcp_monitor *mon, lcp_info *info)
{
    lcp_dist_gather(d, x);
    lcp_dist_gather(d, mon->best_x);
    info->iterations = mon->iter;
}

static int mpi_pgs_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                         lcp_err *err)
{
    double *dinv = NULL;
    int rc = lcp_inverse_diagonal(p, "mpi-pgs", &dinv, err);
    if (rc) return rc;
    lcp_dist d;
    if ((rc = lcp_dist_init(&d, p, 1, err))) {
        free(dinv);
        return rc;
    }
    double omega = s->omega > 0 ? s->omega : 1.0, bytes = 0.0;
    lcp_gs gs;
    if (lcp_gs_init(&gs, p, dinv, omega)) {
        lcp_dist_free(&d);
        free(dinv);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "mpi-pgs: out of memory");
    }
    info->omega = omega;
    if (!lcp_dist_monitor(&d, mon, 0, x, &bytes))
        for (int k = 1;; k++) {
            for (int c = 0; c < d.ncolours; c++) {
                for (int a = d.cptr[c]; a < d.cptr[c + 1]; a++) {
                    int i = d.cnodes[a];
                    lcp_pgs_sweep(p, &gs, x, i, i, 1);
                }
                lcp_dist_exchange(&d, c, x);
            }
            bytes += (double)d.bytes_sweep;
            if (lcp_dist_monitor(&d, mon, k, x, &bytes)) break;
        }
    finish(&d, x, mon, info);
    lcp_dist_free(&d);
    lcp_gs_free(&gs);
    free(dinv);
    return 0;
}

static int mpi_nsgs_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon,
                          lcp_info *info, lcp_err *err)
{
    lcp_nsgs *S = NULL;
    int rc = lcp_nsgs_setup(p, s, &S, err);
    if (rc) return rc;
    lcp_dist d;
    if ((rc = lcp_dist_init(&d, p, 1, err))) {
        lcp_nsgs_free(S);
        return rc;
    }
    info->omega = s->omega > 0 && !s->omega_auto ? s->omega : 1.0;
    double bytes = 0.0;
    if (!lcp_dist_monitor(&d, mon, 0, x, &bytes))
        for (int k = 1;; k++) {
            for (int c = 0; c < d.ncolours; c++) {
                for (int a = d.cptr[c]; a < d.cptr[c + 1]; a++) lcp_nsgs_update(S, d.cnodes[a], x);
                lcp_dist_exchange(&d, c, x);
            }
            bytes += (double)d.bytes_sweep;
            if (lcp_dist_monitor(&d, mon, k, x, &bytes)) break;
        }
    finish(&d, x, mon, info);
    lcp_dist_free(&d);
    lcp_nsgs_free(S);
    return 0;
}

/* The metric m (a row) and the step 1/L of the gradient solvers: m = 1/A_ii
 * for lcp/blcp, 3/(A_nn + A_t1t1 + A_t2t2) for each row of a ccp contact;
 * lmax of M^1/2 A M^1/2 by 60 Lanczos steps. */
static int metric(const lcp_problem *p, const char *name, double **mout, double *lmax, lcp_err *err)
{
    double *dinv = NULL;
    int rc = lcp_inverse_diagonal(p, name, &dinv, err);
    if (rc) return rc;
    double *sc = malloc((size_t)(p->n > 0 ? p->n : 1) * sizeof(double));
    if (!sc) {
        free(dinv);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    }
    if (p->kind == LCP_KIND_CCP)
        for (int c = 0; c < p->nc; c++) {
            double m = 3.0 / (1.0 / dinv[3 * c] + 1.0 / dinv[3 * c + 1] + 1.0 / dinv[3 * c + 2]);
            dinv[3 * c] = dinv[3 * c + 1] = dinv[3 * c + 2] = m;
        }
    for (int i = 0; i < p->n; i++) sc[i] = sqrt(dinv[i]);
    double lmin;
    if (lcp_spectrum(&p->A, sc, 60, &lmin, lmax, NULL) || !(*lmax > 0)) rc = lcp_fail(err, LCP_ERROR, NULL, 0,
                                                                                         "%s: cannot estimate the spectrum of M A", name);
    free(sc);
    if (rc) free(dinv);
    else *mout = dinv;
    return rc;
}

static int mpi_jacobi_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon,
                            lcp_info *info, lcp_err *err)
{
    double *dinv = NULL, lmax = 0;
    int rc = metric(p, "mpi-jacobi", &dinv, &lmax, err);
    if (rc) return rc;
    double omega = s->omega > 0 && !s->omega_auto ? s->omega : 1.0 / lmax, bytes = 0.0;
    info->omega = omega;
    lcp_dist d;
    double *xn = malloc((size_t)(p->n > 0 ? p->n : 1) * sizeof(double));
    if (!xn) rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    if (rc || (rc = lcp_dist_init(&d, p, 0, err))) {
        free(dinv);
        free(xn);
        return rc;
    }
    const int *ap = p->A.p, *aj = p->A.j;
    const double *ax = p->A.x;
    if (!lcp_dist_monitor(&d, mon, 0, x, &bytes))
        for (int k = 1;; k++) {
            for (int a = 0; a < d.nown; a++) {
                int i = d.own[a];
                double r = lcp_csr_row_dot(aj, ax, x, ap[i], ap[i + 1]) + p->b[i]; /* pgs_row's order */
                double xi = x[i] - omega * r * dinv[i], lo = 0.0, hi = INFINITY;
                if (p->kind == LCP_KIND_BLCP) lcp_problem_bounds(p, x, i, &lo, &hi);
                xn[i] = fmin(fmax(xi, lo), hi);
            }
            for (int a = 0; a < d.nown; a++) x[d.own[a]] = xn[d.own[a]];
            lcp_dist_exchange(&d, d.ncolours, x);
            bytes += (double)d.bytes_all;
            if (lcp_dist_monitor(&d, mon, k, x, &bytes)) break;
        }
    finish(&d, x, mon, info);
    lcp_dist_free(&d);
    free(dinv);
    free(xn);
    return 0;
}

static int mpi_apgd_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon,
                          lcp_info *info, lcp_err *err)
{
    (void)s;
    if (p->kind == LCP_KIND_BLCP && p->findex)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "mpi-apgd: blcp with findex rows is not a convex QP (use mpi-pgs)");
    double *m = NULL, lmax = 0;
    int rc = metric(p, "mpi-apgd", &m, &lmax, err);
    if (rc) return rc;
    int n = p->n, b = p->kind == LCP_KIND_CCP ? 3 : 1;
    double t = 1.0 / (1.05 * lmax), bytes = 0.0, theta = 1.0, beta = 0.0;
    double *xp = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    double *wp = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    double *xn = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    lcp_dist d;
    if (!xp || !wp || !xn) rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    if (rc || (rc = lcp_dist_init(&d, p, 0, err))) {
        free(m), free(xp), free(wp), free(xn);
        return rc;
    }
    double *w = mon->w; /* A x + b on the owned rows, from the monitor */
    if (!lcp_dist_monitor(&d, mon, 0, x, &bytes)) {
        memcpy(xp, x, (size_t)n * sizeof(double));
        memcpy(wp, w, (size_t)n * sizeof(double));
        for (int k = 1;; k++) {
            double dot = 0.0;
            for (int a = 0; a < d.nown; a++) {
                int v = d.own[a];
                for (int i = b * v; i < b * v + b; i++) {
                    double y = x[i] + beta * (x[i] - xp[i]), g = w[i] + beta * (w[i] - wp[i]);
                    xn[i] = y - t * m[i] * g;
                    if (b == 1) {
                        double lo = 0.0, hi = INFINITY;
                        if (p->kind == LCP_KIND_BLCP) lcp_problem_bounds(p, x, i, &lo, &hi);
                        xn[i] = fmin(fmax(xn[i], lo), hi);
                    }
                }
                if (b == 3) lcp_cone_project(p->mu[v], xn + 3 * v);
                for (int i = b * v; i < b * v + b; i++) dot += (w[i] + beta * (w[i] - wp[i])) * (xn[i] - x[i]);
            }
            dot = lcp_dist_sum(&d, dot);
            double th = 0.5 * (-theta * theta + theta * sqrt(theta * theta + 4.0));
            beta = theta * (1.0 - theta) / (theta * theta + th);
            theta = th;
            if (dot > 0) theta = 1.0, beta = 0.0; /* restart: the momentum points uphill */
            for (int a = 0; a < d.nown; a++)
                for (int i = b * d.own[a]; i < b * d.own[a] + b; i++) xp[i] = x[i], wp[i] = w[i], x[i] = xn[i];
            lcp_dist_exchange(&d, d.ncolours, x);
            bytes += (double)d.bytes_all;
            if (lcp_dist_monitor(&d, mon, k, x, &bytes)) break;
        }
    }
    finish(&d, x, mon, info);
    lcp_dist_free(&d);
    free(m), free(xp), free(wp), free(xn);
    return 0;
}

const lcp_solver lcp_solver_mpi_pgs = {"mpi-pgs", "colour-ordered PGS over MPI processes (the bits of pgs --order colour)",
                                       LCP_KIND_LCP | LCP_KIND_BLCP, columns, mpi_pgs_solve, NULL, LCP_SOLVER_DIST, 0};
const lcp_solver lcp_solver_mpi_nsgs = {"mpi-nsgs", "colour-ordered NSGS over MPI processes (the bits of nsgs --order colour)",
                                        LCP_KIND_CCP | LCP_KIND_FC3D, columns, mpi_nsgs_solve, NULL, LCP_SOLVER_DIST, 0};
const lcp_solver lcp_solver_mpi_jacobi = {"mpi-jacobi", "projected Jacobi over MPI processes (omega 1/lmax)",
                                          LCP_KIND_LCP | LCP_KIND_BLCP, columns, mpi_jacobi_solve, NULL,
                                          LCP_SOLVER_DIST, 0};
const lcp_solver lcp_solver_mpi_apgd = {"mpi-apgd", "accelerated projected gradient over MPI processes (symmetric A)",
                                        LCP_KIND_LCP | LCP_KIND_BLCP | LCP_KIND_CCP, columns, mpi_apgd_solve, NULL,
                                        LCP_SOLVER_DIST, 0};
