/* src/solvers/admm.c: the alternating direction method of multipliers for
 * ccp and fc3d (Boyd, Parikh, Chu, Peleato & Eckstein 2011, "Distributed
 * optimization and statistical learning via ADMM", sections 3.1, 3.4.1
 * (residual balancing) and 3.4.3 (over-relaxation); Stellato et al. 2020,
 * OSQP, section 5.2 (scaled residual balancing); Acary, Brémond & Huber
 * 2018, "On solving contact problems with Coulomb friction: formulations
 * and numerical comparisons", and Siconos' fc3d_admm for the De Saxce
 * update).
 *
 * The ccp is the convex QP  min 1/2 r'W r + q'r  s.t. r in K = prod K_mu_i
 * (its optimality conditions are u = W r + q in K^*, r'u = 0); with the
 * split r = z, z in K and the scaled dual y, one iteration is
 *     r   = (W + rho I)^-1 (rho (z - y) - q_s)            (linear solve)
 *     rh  = alpha r + (1 - alpha) z                       (over-relaxation)
 *     z'  = P_K(rh + y)                                   (per contact)
 *     y  += rh - z'
 * (z, y: the accelerated points z_hat, y_hat below)
 * primal residual ||r - z'||, dual residual rho ||z' - z||.  The r-step is
 * the resolvent of the monotone operator r -> W r + q_s, so the iteration
 * is Douglas-Rachford splitting of W r + q_s + N_K(r) = 0 and converges for
 * any W with a positive semidefinite symmetric part, symmetric or not (for
 * a non-symmetric W it solves the variational inequality, which is the
 * ccp / fc3d as DESIGN.md states them).
 *   fc3d: the De Saxce term enters as q_s = q + s e_n, s_i = mu_i |u_T,i|
 * with u = W z + q of the latest iterate, recomputed every iteration (as
 * Siconos' fc3d_admm does; the monitor's u = W z + q of its check is reused,
 * so it costs nothing): at a fixed point r = z, u_i + s_i e_n in K_i^*,
 * perpendicular to r_i, which is fc3d.  ccp: q_s = q.
 *
 * The monitor sees z (always in K).  Start: z = P_K(x) (zeros or
 * --warm-start), y = -(W z + q_s) / rho (the dual consistent with z:
 * a solution z is then a fixed point at once).
 *
 * Acceleration (as Siconos' fc3d_admm's default; Goldstein, O'Donoghue,
 * Setzer & Baraniuk 2014, "Fast alternating direction optimization
 * methods", Alg. 8): the next step starts from z_hat = z + a (z - z_prev),
 * y_hat likewise, a = (tau - 1) / tau', tau' = (1 + sqrt(1 + 4 tau^2)) / 2,
 * while the combined residual |r - z|^2 + rho^2 |z - z_hat|^2 falls by the
 * factor RESTART_ETA; otherwise a restart from the previous iterate, tau = 1.
 *
 * rho: --rho X fixes the starting value, default the mean diagonal of W.
 * Adapted every ADAPT_EVERY iterations by scaled residual balancing (OSQP):
 *     rho' = rho sqrt((||r - z|| / max(||r||, ||z||)) /
 *                     (rho ||z - z_old|| / max(||W r||, ||q_s||, ||rho y||)))
 * taken only when it differs from rho by a factor > RHO_CHANGE (5), because
 * each change costs a numeric refactorisation; y is rescaled by rho/rho'.
 * --omega sets the over-relaxation alpha in (0, 2) (default 1: none; 1.6 is
 * OSQP's choice, better on some problems, worse on others).
 *
 * Linear systems: W + rho I on the pattern of W plus its diagonal;
 * symmetric W (to 1e-10): CHOLMOD LL' (cholmod_analyze once,
 * cholmod_factorize at each rho change); non-symmetric W: UMFPACK LU
 * (symbolic once, numeric at each rho change).  A negative diagonal entry
 * of W is refused (input error: W is not positive semidefinite); a failed
 * factorisation (W + rho I not positive definite) is an error.  Both
 * factorisations through src/sparse_factor.c.
 * Trace columns: rho, primal_res, dual_res.
 */
#include "solver.h"
#include "../sparse_factor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {"rho", "primal_res", "dual_res", NULL};

#define ALPHA_DEFAULT 1.0 /* over-relaxation: none by default (--omega) */
#define ADAPT_EVERY 10    /* iterations between residual-balancing checks */
#define RHO_CHANGE 5.0    /* refactor only when rho would change by more */
#define SYM_TOL 1e-10
#define RESTART_ETA 0.999 /* acceleration kept while the combined residual falls by this factor */     /* relative asymmetry below which W counts as symmetric */

/* W + rho I on the pattern of W plus the diagonal, with its factorisation. */
typedef struct {
    int n, sym;
    int *mp, *mj, *dpos;       /* CSR pattern, diagonal slots */
    double *base, *mx;         /* W's values there, W + rho I's values */
    lcp_sparse_factor F;       /* CHOLMOD (W symmetric) / UMFPACK on that pattern */
    int factorisations;
} shifted;

static void shifted_free(shifted *S)
{
    free(S->mp);
    free(S->mj);
    free(S->dpos);
    free(S->base);
    free(S->mx);
    lcp_sparse_factor_free(&S->F);
    memset(S, 0, sizeof *S);
}

/* The pattern of A plus the diagonal, and the symbolic analysis. */
static int shifted_init(shifted *S, const lcp_csr *A, int sym, lcp_err *err)
{
    int n = A->m;
    memset(S, 0, sizeof *S);
    S->n = n;
    S->sym = sym;
    long nnz = lcp_csr_nnz(A) + n;
    S->mp = lcp_alloc((size_t)n + 1, sizeof(int));
    S->mj = lcp_alloc((size_t)nnz, sizeof(int));
    S->dpos = lcp_alloc((size_t)n, sizeof(int));
    S->base = lcp_alloc((size_t)nnz, sizeof(double));
    S->mx = lcp_alloc((size_t)nnz, sizeof(double));
    if (!S->mp || !S->mj || !S->dpos || !S->base || !S->mx)
        return lcp_fail(err, LCP_ERROR, NULL, 0, "admm: out of memory (W + rho I, n = %d)", n);
    long m = lcp_pattern_with_diagonal(A, S->mp, S->mj, S->dpos, NULL, S->base);
    memcpy(S->mx, S->base, (size_t)m * sizeof(double));
    /* symmetric: CHOLMOD on one triangle (CSR = CSC); UMFPACK otherwise */
    if (lcp_sparse_factor_init(&S->F, n, S->mp, S->mj, S->mx, sym, LCP_SF_REFINE_DEFAULT) == LCP_SF_OK) return 0;
    if (!S->F.stage) return lcp_fail(err, LCP_ERROR, NULL, 0, "admm: out of memory");
    return lcp_fail(err, LCP_ERROR, NULL, 0, "admm: %s failed (status %d)", S->F.stage, S->F.status);
}

/* Numeric factorisation of W + rho I. */
static int shifted_factor(shifted *S, double rho, lcp_err *err)
{
    int m = S->mp[S->n];
    memcpy(S->mx, S->base, (size_t)m * sizeof(double));
    for (int i = 0; i < S->n; i++) S->mx[S->dpos[i]] += rho;
    S->factorisations++;
    if (S->sym) {
        int st = lcp_sparse_factor_refactor(&S->F, S->mx, LCP_SF_CHOLESKY);
        if (st == LCP_SF_NOT_POSDEF)
            return lcp_fail(err, LCP_ERROR, NULL, 0,
                            "admm: W + rho I is not positive definite (rho = %g, CHOLMOD pivot %d): W is not "
                            "positive semidefinite",
                            rho, (int)S->F.L->minor + 1);
        if (st != LCP_SF_OK)
            return lcp_fail(err, LCP_ERROR, NULL, 0, "admm: CHOLMOD factorisation failed (status %d)", S->F.status);
        return 0;
    }
    int st = lcp_sparse_factor_refactor(&S->F, S->mx, LCP_SF_LU);
    if (st == LCP_SF_SINGULAR)
        return lcp_fail(err, LCP_ERROR, NULL, 0, "admm: W + rho I is singular (rho = %g, UMFPACK)", rho);
    if (st != LCP_SF_OK)
        return lcp_fail(err, LCP_ERROR, NULL, 0, "admm: UMFPACK factorisation failed (status %d)", S->F.status);
    return 0;
}

/* x <- (W + rho I)^-1 x. */
static int shifted_solve(shifted *S, double *x, lcp_err *err)
{
    int st = lcp_sparse_factor_solve(&S->F, x, x);
    if (st != LCP_SF_OK && st != LCP_SF_SINGULAR) return lcp_sparse_factor_fail(&S->F, err, "admm: ");
    return 0;
}

static double norm(const double *v, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += v[i] * v[i];
    return sqrt(s);
}

/* q_s = q + s e_n, s_i = mu_i |u_T,i| (fc3d) from u; q_s = q (ccp). */
static void shifted_q(const lcp_problem *p, const double *u, double *qs)
{
    memcpy(qs, p->b, (size_t)p->n * sizeof(double));
    if (p->kind != LCP_KIND_FC3D) return;
    for (int i = 0; i < p->nc; i++) {
        const double *ui = u + 3 * i;
        qs[3 * i] += p->mu[i] * sqrt(ui[1] * ui[1] + ui[2] * ui[2]);
    }
}

static int admm_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                      lcp_err *err)
{
    int n = p->n, nc = p->nc, rc = 0;
    shifted S;
    memset(&S, 0, sizeof S);
    double *r = lcp_alloc((size_t)n, sizeof(double)), *y = lcp_alloc((size_t)n, sizeof(double));
    double *zh = lcp_alloc((size_t)n, sizeof(double)), *yh = lcp_alloc((size_t)n, sizeof(double));
    double *zk = lcp_alloc((size_t)n, sizeof(double)), *yk = lcp_alloc((size_t)n, sizeof(double));
    double *qs = lcp_alloc((size_t)n, sizeof(double));
    if (!r || !y || !zh || !yh || !zk || !yk || !qs) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "admm: out of memory (n = %d)", n);
        goto done;
    }
    for (int i = 0; i < n; i++)                                    /* a certificate that W is not psd */
        if (lcp_csr_diag(&p->A, i) < 0) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                          "admm needs W positive semidefinite, but W(%d,%d) = %g < 0 (contact %d)", i + 1, i + 1,
                          lcp_csr_diag(&p->A, i), i / 3 + 1);
            goto done;
        }
    int sym = lcp_csr_is_symmetric(&p->A, SYM_TOL);
    if ((rc = shifted_init(&S, &p->A, sym, err))) goto done;

    double trace = 0.0;
    for (int i = 0; i < n; i++) trace += lcp_csr_diag(&p->A, i);
    double rho = s->rho > 0 ? s->rho : (trace > 0 ? trace / n : 1.0);
    /* fc3d: rho never below its start (a small rho with the De Saxce term
     * moving every iteration oscillates: pyramids, Spheres of Siconos) */
    double rho_min = p->kind == LCP_KIND_FC3D ? rho : rho * 1e-8, rho_max = rho * 1e8;
    double alpha = s->omega > 0 && !s->omega_auto ? s->omega : ALPHA_DEFAULT;
    info->omega = alpha;
    if ((rc = shifted_factor(&S, rho, err))) goto done;

    for (int i = 0; i < nc; i++) lcp_cone_project(p->mu[i], x + 3 * i); /* z = P_K(x) */
    double extra[3] = {rho, NAN, NAN};
    if (!lcp_monitor_step(mon, 0, x, extra)) {
        const double *u = mon->w;                                  /* W z + q of the monitor's check */
        shifted_q(p, u, qs);
        for (int i = 0; i < n; i++) y[i] = -(u[i] + qs[i] - p->b[i]) / rho; /* -(W z + q_s) / rho */
        memcpy(zh, x, (size_t)n * sizeof(double));
        memcpy(zk, x, (size_t)n * sizeof(double));
        memcpy(yh, y, (size_t)n * sizeof(double));
        memcpy(yk, y, (size_t)n * sizeof(double));
        double tau = 1.0, ek = INFINITY;                           /* acceleration: momentum, last combined residual */
        for (int k = 1;; k++) {
            for (int i = 0; i < n; i++) r[i] = rho * (zh[i] - yh[i]) - qs[i];
            if ((rc = shifted_solve(&S, r, err))) goto done;       /* (W + rho I) r = rho (zh - yh) - q_s */
            double pr2 = 0.0, dr2 = 0.0, nr2 = 0.0, nz2 = 0.0, nwr2 = 0.0;
            for (int i = 0; i < n; i++) {
                double wr = rho * (zh[i] - yh[i] - r[i]) - qs[i];  /* W r, from the system */
                nwr2 += wr * wr;
                x[i] = alpha * r[i] + (1.0 - alpha) * zh[i] + yh[i]; /* rh + yh */
            }
            for (int i = 0; i < nc; i++) lcp_cone_project(p->mu[i], x + 3 * i); /* z = P_K(rh + yh) */
            for (int i = 0; i < n; i++) {
                double rh = alpha * r[i] + (1.0 - alpha) * zh[i];
                y[i] = yh[i] + rh - x[i];
                pr2 += (r[i] - x[i]) * (r[i] - x[i]);
                dr2 += (x[i] - zh[i]) * (x[i] - zh[i]);
                nr2 += r[i] * r[i];
                nz2 += x[i] * x[i];
            }
            double prim = sqrt(pr2), dual = rho * sqrt(dr2);
            extra[0] = rho, extra[1] = prim, extra[2] = dual;
            if (lcp_monitor_step(mon, k, x, extra)) break;
            shifted_q(p, mon->w, qs);                              /* De Saxce: s from u = W z + q */
            /* Nesterov acceleration with restart (Goldstein et al. 2014, Alg. 8) */
            double e = pr2 + dual * dual;
            if (e < RESTART_ETA * ek) {
                double tau1 = 0.5 * (1.0 + sqrt(1.0 + 4.0 * tau * tau)), a = (tau - 1.0) / tau1;
                for (int i = 0; i < n; i++) {
                    zh[i] = x[i] + a * (x[i] - zk[i]);
                    yh[i] = y[i] + a * (y[i] - yk[i]);
                }
                tau = tau1;
                ek = e;
            } else {                                               /* restart from the previous iterate */
                tau = 1.0;
                ek /= RESTART_ETA;
                memcpy(zh, zk, (size_t)n * sizeof(double));
                memcpy(yh, yk, (size_t)n * sizeof(double));
            }
            memcpy(zk, x, (size_t)n * sizeof(double));
            memcpy(yk, y, (size_t)n * sizeof(double));
            if (k % ADAPT_EVERY) continue;
            /* scaled residual balancing */
            double ps = prim / fmax(sqrt(fmax(nr2, nz2)), 1e-300);
            double ds = dual / fmax(fmax(sqrt(nwr2), norm(qs, n)), fmax(rho * norm(y, n), 1e-300));
            if (!(ps > 0 && ds > 0)) continue;
            double rnew = fmin(rho_max, fmax(rho_min, rho * sqrt(ps / ds)));
            if (rnew > RHO_CHANGE * rho || rnew * RHO_CHANGE < rho) {
                for (int i = 0; i < n; i++) {                      /* the unscaled duals rho y stay */
                    y[i] *= rho / rnew;
                    yh[i] *= rho / rnew;
                    yk[i] *= rho / rnew;
                }
                rho = rnew;
                tau = 1.0;                                         /* the residuals' scale changed */
                ek = INFINITY;
                if ((rc = shifted_factor(&S, rho, err))) goto done;
            }
        }
    }
    info->iterations = mon->iter;
    snprintf(info->message, sizeof info->message, "%s, %d factorisation%s, final rho %.3g",
             sym ? "CHOLMOD LL' of W + rho I" : "UMFPACK LU of W + rho I (W not symmetric)", S.factorisations,
             S.factorisations == 1 ? "" : "s", rho);
done:
    if (rc && rc == LCP_ERROR && mon->iter > 0) { /* a breakdown inside the loop: report, do not abort */
        info->status = LCP_ERROR;
        snprintf(info->message, sizeof info->message, "%.250s", err->msg);
        err->msg[0] = '\0';
        info->iterations = mon->iter;
        rc = 0;
    }
    shifted_free(&S);
    free(r);
    free(y);
    free(zh);
    free(yh);
    free(zk);
    free(yk);
    free(qs);
    return rc;
}

const lcp_solver lcp_solver_admm = {
    "admm", "ADMM on the cone QP: (W + rho I) solves by CHOLMOD/UMFPACK, adaptive rho (--rho, --omega = alpha)",
    LCP_KIND_CCP | LCP_KIND_FC3D, columns, admm_solve, NULL, LCP_SOLVER_FACTOR | LCP_SOLVER_MONOTONE};
