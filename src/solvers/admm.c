/* src/solvers/admm.c: the alternating direction method of multipliers for
 * ccp and fc3d (Boyd, Parikh, Chu, Peleato & Eckstein 2011, "Distributed
 * optimization and statistical learning via ADMM", sections 3.1, 3.4.1
 * (residual balancing) and 3.4.3 (over-relaxation); Acary, Brémond & Huber
 * 2018, "On solving contact problems with Coulomb friction: formulations
 * and numerical comparisons", and Siconos' fc3d_admm for the De Saxce
 * update).
 *
 * Scaling: the iteration runs on r = D r~, D = diag(d_i^-1/2) with d_i the
 * mean diagonal entry of W over contact i's three rows (a scalar a
 * contact, so D maps each cone K_mu_i onto itself and the projections stay
 * the plain ones): W~ = D W D has a diagonal of about 1 whatever the
 * masses, lever arms and units, q~ = D q, u~ = D u.  Everything below is in
 * those variables; the monitor sees r = D z.
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
 * ccp / fc3d as docs/contract.md states them).
 *   fc3d: the De Saxce term enters as q_s = q + s e_n, s_i = mu_i |u_T,i|,
 * recomputed every iteration (as Siconos' fc3d_admm does) from the
 * velocity the dual carries: -rho y' = P_{K^*}-part of rh + y, which is
 * u + s e_n at a fixed point, so its tangential part estimates u_T.  (s
 * from u = W z + q of the projected iterate, the choice before, couples
 * the cone projection into q_s and oscillates: 51,594 iterations where
 * this takes about 3,300 on a granular pile of 1,045 contacts, and 99,377
 * where this takes 33 on Siconos' BoxesStack1.)  At a fixed point r = z,
 * u_i + s_i e_n in K_i^*, perpendicular to r_i, which is fc3d.  ccp: q_s = q.
 *
 * Start: z = P_K(x) (zeros or --warm-start), y = -(W z + q_s) / rho (the
 * dual consistent with z: a solution z is then a fixed point at once).
 *
 * Acceleration (as Siconos' fc3d_admm's default; Goldstein, O'Donoghue,
 * Setzer & Baraniuk 2014, "Fast alternating direction optimization
 * methods", Alg. 8): the next step starts from z_hat = z + a (z - z_prev),
 * y_hat likewise, a = (tau - 1) / tau', tau' = (1 + sqrt(1 + 4 tau^2)) / 2,
 * while the combined residual |y - y_hat|^2 + |z - z_hat|^2 (Goldstein's
 * c_k / rho, both in the units of r) falls by the factor RESTART_ETA;
 * otherwise a restart from the previous iterate, tau = 1.
 *
 * rho: --rho X fixes the starting value (in the scaled variables), default
 * RHO_DEFAULT = 0.1 of the unit diagonal.  Adapted every ADAPT_EVERY
 * iterations by residual balancing (Boyd et al. 3.4.1, in the sqrt form
 * of OSQP): rho' = rho sqrt(||r - z|| / (rho ||z - z_old||)), at most a
 * factor RHO_STEP, taken only when it differs from rho by more than a
 * factor RHO_CHANGE, because each change costs a numeric refactorisation;
 * y is rescaled by rho/rho'.  (The residuals are compared as they are: the
 * scaling makes r and u commensurate.  A primal residual of 0 -- every r
 * already in K, as in stacks -- lowers rho by RHO_STEP: the r-step is then
 * a proximal step on the QP, the faster the smaller rho.)  Before the
 * first check, rho is rebalanced as soon as the factor has been at its cap
 * CAPPED_RUN iterations running (stacks: the primal residual is 0 from the
 * second iteration; KaplasTower to 1e-8 in 9 iterations instead of 15).
 * A change is declined (refactor_pays) when the residual, at its rate over
 * the last ADAPT_EVERY iterations, would reach the tolerance at the old rho
 * in fewer iterations than REMAINING_SAFETY^-1 of a refactorisation costs
 * (the cost model of shifted_costs: CHOLMOD's / UMFPACK's flop count of a
 * factorisation against the flops of an iteration).
 * --omega sets the over-relaxation alpha in (0, 2) (default 1: none).
 *
 * Linear systems: W~ + rho I on the pattern of W plus its diagonal (one
 * triangle of it when W is symmetric);
 * symmetric W (to 1e-10): CHOLMOD LL' (cholmod_analyze once,
 * cholmod_factorize at each rho change); non-symmetric W: UMFPACK LU
 * (symbolic once, numeric at each rho change).  A negative diagonal entry
 * of W is refused (input error: W is not positive semidefinite); a failed
 * factorisation (W + rho I not positive definite) is an error.  Both
 * factorisations through src/la/sparse_factor.c.  A problem in factored form
 * (M, J with W = J M^-1 J', no --reg) is solved through the Woodbury
 * identity instead (woodbury_analyse): (D W D + rho I)^-1 = (I - D J K^-1 J' D
 * / rho) / rho with K = M + J' D^2 J / rho, bodies x bodies and most often
 * much sparser than W (pyramid of 10,000 contacts: a factor of 0.43 million
 * nonzeros against 5.9 million for W + rho I), checked on a test vector
 * against A before it is used (A and J M^-1 J' might disagree), when its
 * predicted cost is the smaller (choose_form: a factorisation and
 * CHOICE_ITERS solves by CHOLMOD's flop counts; W + rho I is analysed only
 * when K is not cheaper than a lower bound of W's factor; a column of
 * boxes, Siconos' Spheres and Box_Stacks go by W + rho I).  CHOLMOD's
 * factorisations run with OpenMP's dynamic threads (lcp_cholmod_factorize).
 * Trace columns: rho, primal_res, dual_res (scaled variables).
 */
#include "solver.h"
#include "../la/sparse_factor.h"
#include "../la/suitesparse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {"rho", "primal_res", "dual_res", NULL};

#define ALPHA_DEFAULT 1.0 /* over-relaxation: none by default (--omega) */
#define ADAPT_EVERY 10    /* iterations between residual-balancing checks */
#define RHO_CHANGE 3.0    /* refactor only when rho would change by more */
#define RHO_STEP 100.0    /* at most this factor a balancing step */
#define RHO_DEFAULT 0.1   /* the start, in the scaled variables (diag(D W D) about 1) */
#define SYM_TOL 1e-10     /* relative asymmetry below which W counts as symmetric */
#define CAPPED_RUN 3      /* before the first check: adapt once the balance is this many iterations at its cap */
#define REMAINING_SAFETY 2.0 /* the forecast iterations to tol, times this, against a refactorisation */
#define CHOICE_ITERS 20.0 /* iterations a factorisation, in the predicted cost of a form */
#define RESTART_ETA 0.999 /* acceleration kept while the combined residual falls by this factor */

/* W + rho I on the pattern of W plus the diagonal, with its factorisation. */
typedef struct {
    int n, sym;
    int *mp, *mj, *dpos;       /* CSR pattern, diagonal slots */
    double *dbase, *mx;        /* W's diagonal, W + rho I's values on the pattern */
    lcp_sparse_factor F;       /* CHOLMOD (W symmetric) / UMFPACK on that pattern */
    int factorisations;
    double fact_flops, iter_flops; /* the cost model of a refactorisation against an iteration */
    double cost_w, cost_k;     /* the predicted costs of the two forms where both were weighed (0: not) */
    /* the factored form W = J M^-1 J' (Woodbury): K = M + J' D^2 J / rho */
    int wb;                    /* 1: solves by K, the fields below set */
    const lcp_csr *J;
    const double *sc;          /* D */
    double rho;
    int nb;
    int cc_on;                 /* cc started */
    cholmod_common cc;
    cholmod_sparse *K0;        /* M + J' D^2 J: the pattern of K (both triangles, sorted) */
    double *kM, *kx;           /* M's values on that pattern; K's values */
    lcp_sparse_factor KF;
    double *g;                 /* nb */
} shifted;

/* Frees the form W + rho I (the pattern, its values, its factor). */
static void shifted_drop_w(shifted *S)
{
    free(S->mp);
    free(S->mj);
    free(S->dpos);
    free(S->dbase);
    free(S->mx);
    lcp_sparse_factor_free(&S->F);
    S->mp = S->mj = S->dpos = NULL;
    S->dbase = S->mx = NULL;
    memset(&S->F, 0, sizeof S->F);
}

/* Frees the factored form (K, its factor); the solves go by W again. */
static void woodbury_drop(shifted *S)
{
    lcp_sparse_factor_free(&S->KF);
    memset(&S->KF, 0, sizeof S->KF);
    if (S->cc_on) {
        cholmod_free_sparse(&S->K0, &S->cc);
        cholmod_finish(&S->cc);
    }
    free(S->kM);
    free(S->kx);
    free(S->g);
    S->K0 = NULL;
    S->kM = S->kx = S->g = NULL;
    S->cc_on = S->wb = 0;
}

static void shifted_free(shifted *S)
{
    shifted_drop_w(S);
    woodbury_drop(S);
    memset(S, 0, sizeof *S);
}

/* The pattern of A plus the diagonal, and the symbolic analysis.
 * Symmetric: the upper triangle of the CSR only (CHOLMOD reads it as the
 * lower triangle of the CSC, the one it uses), half the entries to copy,
 * analyse and scatter into the factor.  Only the diagonal changes with
 * rho: its values without rho are kept (dbase). */
static int shifted_init(shifted *S, const lcp_csr *A, const double *sc, int sym, lcp_err *err)
{
    int n = A->m;
    S->n = n;
    S->sym = sym;
    long nnz = lcp_csr_nnz(A) + n;
    if (sym) {
        nnz = n;
        for (int i = 0; i < n; i++)
            for (int k = A->p[i]; k < A->p[i + 1]; k++) nnz += A->j[k] > i;
    }
    S->mp = lcp_alloc((size_t)n + 1, sizeof(int));
    S->mj = lcp_alloc((size_t)nnz, sizeof(int));
    S->dpos = lcp_alloc((size_t)n, sizeof(int));
    S->dbase = lcp_alloc((size_t)n, sizeof(double));
    S->mx = lcp_alloc((size_t)nnz, sizeof(double));
    if (!S->mp || !S->mj || !S->dpos || !S->dbase || !S->mx)
        return lcp_fail(err, LCP_ERROR, NULL, 0, "admm: out of memory (W + rho I, n = %d)", n);
    if (sym) { /* row i: the diagonal, then the columns j > i (sorted) */
        long m = 0;
        S->mp[0] = 0;
        for (int i = 0; i < n; i++) {
            S->dpos[i] = (int)m;
            S->mj[m] = i;
            S->mx[m++] = 0.0;
            for (int k = A->p[i]; k < A->p[i + 1]; k++) {
                int c = A->j[k];
                if (c == i) S->mx[S->dpos[i]] += A->x[k];
                else if (c > i) {
                    S->mj[m] = c;
                    S->mx[m++] = A->x[k] * sc[i] * sc[c];
                }
            }
            S->mx[S->dpos[i]] *= sc[i] * sc[i];
            S->mp[i + 1] = (int)m;
        }
    } else {
        lcp_pattern_with_diagonal(A, S->mp, S->mj, S->dpos, NULL, S->mx);
        for (int i = 0; i < n; i++) /* D W D */
            for (int k = S->mp[i]; k < S->mp[i + 1]; k++) S->mx[k] *= sc[i] * sc[S->mj[k]];
    }
    for (int i = 0; i < n; i++) S->dbase[i] = S->mx[S->dpos[i]];
    /* symmetric: CHOLMOD on one triangle (CSR = CSC); UMFPACK otherwise */
    if (lcp_sparse_factor_init(&S->F, n, S->mp, S->mj, S->mx, sym, LCP_SF_REFINE_DEFAULT) == LCP_SF_OK) return 0;
    if (!S->F.stage) return lcp_fail(err, LCP_ERROR, NULL, 0, "admm: out of memory");
    return lcp_fail(err, LCP_ERROR, NULL, 0, "admm: %s failed (status %d)", S->F.stage, S->F.status);
}

/* Numeric factorisation of W + rho I. */
static int shifted_factor(shifted *S, double rho, lcp_err *err)
{
    if (S->wb) {
        long m = (long)((int *)S->K0->p)[S->nb];
        const double *k0 = S->K0->x;
        for (long k = 0; k < m; k++) S->kx[k] = S->kM[k] + (k0[k] - S->kM[k]) / rho; /* M + G / rho */
        S->rho = rho;
        S->factorisations++;
        int st = lcp_sparse_factor_refactor(&S->KF, S->kx, LCP_SF_CHOLESKY);
        if (st != LCP_SF_OK)
            return lcp_fail(err, LCP_ERROR, NULL, 0, "admm: CHOLMOD factorisation of M + J'D^2J/rho failed (rho = %g)",
                            rho);
        return 0;
    }
    for (int i = 0; i < S->n; i++) S->mx[S->dpos[i]] = S->dbase[i] + rho;
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
    if (S->wb) { /* (D J M^-1 J' D + rho I)^-1 x = (x - D J K^-1 J' D x / rho) / rho */
        const lcp_csr *J = S->J;
        memset(S->g, 0, (size_t)S->nb * sizeof(double));
        for (int i = 0; i < S->n; i++) {
            double t = S->sc[i] * x[i];
            for (int k = J->p[i]; k < J->p[i + 1]; k++) S->g[J->j[k]] += J->x[k] * t;
        }
        int st = lcp_sparse_factor_solve(&S->KF, S->g, S->g);
        if (st != LCP_SF_OK) return lcp_sparse_factor_fail(&S->KF, err, "admm: ");
        for (int i = 0; i < S->n; i++) {
            double jh = 0.0;
            for (int k = J->p[i]; k < J->p[i + 1]; k++) jh += J->x[k] * S->g[J->j[k]];
            x[i] = (x[i] - S->sc[i] * jh / S->rho) / S->rho;
        }
        return 0;
    }
    int st = lcp_sparse_factor_solve(&S->F, x, x);
    if (st != LCP_SF_OK && st != LCP_SF_SINGULAR) return lcp_sparse_factor_fail(&S->F, err, "admm: ");
    return 0;
}

/* The cost model of a rho change: fact_flops, the flops of a numeric
 * factorisation (CHOLMOD's count of the analysis, UMFPACK's of the last
 * numeric factorisation), against iter_flops, an iteration's: the solve
 * (two triangular solves, 4 flops a factor nonzero; UMFPACK's default
 * refinement steps add a product with W and a solve each; the Woodbury
 * form two products with J), the monitor's product with W and the vector
 * work. */
static void shifted_costs(shifted *S, const lcp_problem *p)
{
    double n = p->n, aw = (double)lcp_csr_nnz(&p->A), solve;
    if (S->wb) {
        S->fact_flops = S->KF.cc.fl;
        solve = 4.0 * S->KF.cc.lnz + 4.0 * (double)lcp_csr_nnz(&p->J);
    } else if (S->sym) {
        S->fact_flops = S->F.cc.fl;
        solve = 4.0 * S->F.cc.lnz;
    } else {
        S->fact_flops = S->F.info[UMFPACK_FLOPS] > 0 ? S->F.info[UMFPACK_FLOPS] : 0.0;
        solve = 3.0 * (2.0 * (S->F.info[UMFPACK_LNZ] + S->F.info[UMFPACK_UNZ]) + 2.0 * aw);
    }
    S->iter_flops = solve + 2.0 * aw + 40.0 * n;
}

/* Whether a refactorisation at a new rho can pay for itself: no when the
 * residual, falling from res_then to res_now over the last ADAPT_EVERY
 * iterations, reaches tol at that rate in fewer iterations than one
 * numeric factorisation costs (then even an infinitely faster rate after
 * the change would not win back its price).  A residual that does not
 * fall, or no tolerance, always pays.  A wrong forecast costs at most
 * ADAPT_EVERY iterations: the next check decides again. */
static int refactor_pays(const shifted *S, double res_now, double res_then, int span, double tol)
{
    if (!(tol > 0) || !(res_now > tol) || !(res_then > res_now) || !(S->iter_flops > 0) || span < 1) return 1;
    double per_iter = log(res_then / res_now) / span;           /* log decrease an iteration */
    double remaining = log(res_now / tol) / per_iter;           /* iterations to tol at that rate */
    return REMAINING_SAFETY * remaining * S->iter_flops >= S->fact_flops;
}

/* q_s = q + s e_n, s_i = mu_i |u_T,i| (fc3d) from u; q_s = q (ccp).  In
 * the scaled variables (q~ = D q, u~ = D u) the same formula holds: D is a
 * scalar a contact. */
static void shifted_q(const lcp_problem *p, const double *q, const double *u, double *qs)
{
    memcpy(qs, q, (size_t)p->n * sizeof(double));
    if (p->kind != LCP_KIND_FC3D) return;
    for (int i = 0; i < p->nc; i++) {
        const double *ui = u + 3 * i;
        qs[3 * i] += p->mu[i] * sqrt(ui[1] * ui[1] + ui[2] * ui[2]);
    }
}

/* The factored form, when the problem has one (M, J; no --reg): W~ + rho I
 * = D J M^-1 J' D + rho I is inverted by the Woodbury identity through K =
 * M + J' D^2 J / rho (bodies x bodies: 6 a body against 3 a contact, and
 * most often sparser than W), so each solve is two products with J and one
 * with the factor of K.  woodbury_analyse builds K's pattern and its
 * symbolic analysis (returns 1; 0: no factored form or a failure, nothing
 * kept); woodbury_check factorises K at rho and checks that its solves
 * invert W~ + rho I to 1e-8 on a test vector (A and J M^-1 J' might
 * disagree); on failure it drops the form (returns 0). */
static int woodbury_analyse(shifted *S, const lcp_problem *p, const double *sc)
{
    int n = p->n, nb = p->M.m;
    if (!p->M.p || !p->J.p || p->J.m != n || p->J.n != nb || p->M.n != nb || p->reg != 0 || nb < 1) return 0;
    lcp_cholmod_start(&S->cc);
    S->cc_on = 1;
    lcp_csr JS = {0, 0, NULL, NULL, NULL};
    cholmod_sparse *G = NULL;
    int ok = 0;
    if (lcp_csr_copy(&JS, &p->J)) goto out;
    for (int i = 0; i < n; i++)
        for (int k = JS.p[i]; k < JS.p[i + 1]; k++) JS.x[k] *= sc[i];
    {
        cholmod_sparse JSt = lcp_csr_as_cholmod(&JS, 0); /* (D J)' = J' D, nb x n */
        cholmod_sparse Mv = lcp_csr_as_cholmod(&p->M, 0);
        cholmod_sparse *DJ = cholmod_transpose(&JSt, 1, &S->cc); /* D J, n x nb */
        if (DJ) G = cholmod_ssmult(&JSt, DJ, 0, 1, 1, &S->cc);    /* J' D^2 J */
        cholmod_free_sparse(&DJ, &S->cc);
        if (!G) goto out;
        S->K0 = cholmod_add(&Mv, G, (double[2]){1, 0}, (double[2]){1, 0}, 1, 1, &S->cc);
        if (!S->K0 || !S->K0->packed) goto out;
    }
    {
        const int *kp = S->K0->p, *ki = S->K0->i;
        long m = kp[nb];
        S->kM = lcp_alloc((size_t)m, sizeof(double));
        S->kx = lcp_alloc((size_t)m, sizeof(double));
        S->g = lcp_alloc((size_t)nb, sizeof(double));
        if (!S->kM || !S->kx || !S->g) goto out;
        memset(S->kM, 0, (size_t)m * sizeof(double));
        for (int c = 0; c < nb; c++) { /* M's values on K0's pattern (columns = rows: symmetric) */
            int k = kp[c];
            for (int t = p->M.p[c]; t < p->M.p[c + 1]; t++) {
                while (k < kp[c + 1] && ki[k] < p->M.j[t]) k++;
                if (k == kp[c + 1] || ki[k] != p->M.j[t]) goto out;
                S->kM[k] = p->M.x[t];
            }
        }
        if (lcp_sparse_factor_init(&S->KF, nb, kp, ki, S->kx, 1, LCP_SF_REFINE_DEFAULT) != LCP_SF_OK) goto out;
    }
    S->wb = 1;
    S->n = n;
    S->J = &p->J;
    S->sc = sc;
    S->nb = nb;
    ok = 1;
out:
    cholmod_free_sparse(&G, &S->cc);
    lcp_csr_free(&JS);
    if (!ok) woodbury_drop(S);
    return ok;
}

static int woodbury_check(shifted *S, const lcp_problem *p, const double *sc, double rho)
{
    int n = p->n, ok = 0;
    lcp_err e2 = {{0}};
    double *xt = lcp_alloc((size_t)n, sizeof(double)), *bt = lcp_alloc((size_t)n, sizeof(double));
    double *w = lcp_alloc((size_t)n, sizeof(double));
    if (xt && bt && w && !shifted_factor(S, rho, &e2)) {
        /* x -> (W~ + rho I) x by A, then back by the solve */
        for (int i = 0; i < n; i++) w[i] = sc[i] * (xt[i] = sin(1.0 + i));
        lcp_csr_matvec(&p->A, w, bt);
        double e = 0.0, nx = 0.0;
        for (int i = 0; i < n; i++) bt[i] = sc[i] * bt[i] + rho * xt[i];
        if (!shifted_solve(S, bt, &e2)) {
            for (int i = 0; i < n; i++) e = fmax(e, fabs(bt[i] - xt[i])), nx = fmax(nx, fabs(xt[i]));
            ok = e <= 1e-8 * nx;
        }
    }
    free(xt);
    free(bt);
    free(w);
    if (!ok) woodbury_drop(S);
    return ok;
}

/* The predicted cost of a form: a factorisation and CHOICE_ITERS solves. */
static double form_cost(double fl, double solve) { return fl + CHOICE_ITERS * solve; }

/* The choice between the forms (symmetric W, both available): K's cost
 * from its analysis against a lower bound of W's (a factor holds at least
 * the triangle of W + rho I, lnz >= (nnz(W) + n) / 2, and fl >= lnz^2 / n
 * by Cauchy-Schwarz over its column counts); when K is not clearly
 * cheaper, W + rho I is analysed too and the cheaper form kept.  Returns
 * 0 or an error of shifted_init. */
static int choose_form(shifted *S, const lcp_problem *p, const double *sc, lcp_err *err)
{
    double n = p->n, nj = (double)lcp_csr_nnz(&p->J);
    double kcost = form_cost(S->KF.cc.fl, 4.0 * S->KF.cc.lnz + 4.0 * nj);
    double lnz_lb = 0.5 * ((double)lcp_csr_nnz(&p->A) + n);
    if (kcost <= form_cost(lnz_lb * lnz_lb / n, 4.0 * lnz_lb)) return 0;
    int rc = shifted_init(S, &p->A, sc, 1, err);
    if (rc) return rc;
    S->cost_k = kcost;
    S->cost_w = form_cost(S->F.cc.fl, 4.0 * S->F.cc.lnz);
    if (S->cost_w < S->cost_k) woodbury_drop(S);
    else shifted_drop_w(S);
    return 0;
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
    double *qs = lcp_alloc((size_t)n, sizeof(double)), *z = lcp_alloc((size_t)n, sizeof(double));
    double *sc = lcp_alloc((size_t)n, sizeof(double)), *q = lcp_alloc((size_t)n, sizeof(double));
    double *u = lcp_alloc((size_t)n, sizeof(double));
    double hist[ADAPT_EVERY + 1];                                  /* the residuals of the last ADAPT_EVERY iterations */
    int declined = 0;                                              /* rho changes not worth a refactorisation */
    int capped = 0;                                                /* iterations running with the balance at its cap */
    if (!r || !y || !zh || !yh || !zk || !yk || !qs || !z || !sc || !q || !u) {
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
    /* the scaling D: per contact 1 / sqrt(mean of its diagonal of W) */
    double trace = 0.0;
    for (int i = 0; i < n; i++) trace += lcp_csr_diag(&p->A, i);
    double dmean = trace > 0 ? trace / n : 1.0;
    for (int i = 0; i < nc; i++) {
        double d = (lcp_csr_diag(&p->A, 3 * i) + lcp_csr_diag(&p->A, 3 * i + 1) + lcp_csr_diag(&p->A, 3 * i + 2)) / 3;
        if (!(d > 1e-12 * dmean)) d = dmean;
        sc[3 * i] = sc[3 * i + 1] = sc[3 * i + 2] = 1.0 / sqrt(d);
    }
    for (int i = 0; i < n; i++) q[i] = sc[i] * p->b[i];
    int sym = lcp_csr_is_symmetric(&p->A, SYM_TOL);
    double rho = s->admm.rho > 0 ? s->admm.rho : RHO_DEFAULT;
    /* the form: the factored one (Woodbury) where it is available, checked
     * and, for a symmetric W, not predicted dearer than W + rho I */
    if (woodbury_analyse(&S, p, sc) && sym && (rc = choose_form(&S, p, sc, err))) goto done;
    if (S.wb && !woodbury_check(&S, p, sc, rho)) S.cost_w = S.cost_k = 0;
    if (!S.wb && !S.mp && (rc = shifted_init(&S, &p->A, sc, sym, err))) goto done;
    S.factorisations = S.wb;                                      /* K is factorised at rho by the check */

    double rho_min = rho * 1e-6, rho_max = rho * 1e6;
    double alpha = s->omega > 0 && !s->omega_auto ? s->omega : ALPHA_DEFAULT;
    info->omega = alpha;
    if (!S.wb && (rc = shifted_factor(&S, rho, err))) goto done;
    shifted_costs(&S, p);

    for (int i = 0; i < nc; i++) lcp_cone_project(p->mu[i], x + 3 * i); /* z = P_K(x) */
    for (int i = 0; i < n; i++) z[i] = x[i] / sc[i];
    double extra[3] = {rho, NAN, NAN};
    if (!lcp_monitor_step(mon, 0, x, extra)) {
        hist[0] = mon->last.residual;
        for (int i = 0; i < n; i++) u[i] = sc[i] * mon->w[i];     /* D (W x + q) of the monitor's check */
        shifted_q(p, q, u, qs);
        for (int i = 0; i < n; i++) y[i] = -(u[i] + qs[i] - q[i]) / rho; /* -(W z + q_s) / rho, scaled */
        memcpy(zh, z, (size_t)n * sizeof(double));
        memcpy(zk, z, (size_t)n * sizeof(double));
        memcpy(yh, y, (size_t)n * sizeof(double));
        memcpy(yk, y, (size_t)n * sizeof(double));
        double tau = 1.0, ek = INFINITY;                           /* acceleration: momentum, last combined residual */
        for (int k = 1;; k++) {
            for (int i = 0; i < n; i++) r[i] = rho * (zh[i] - yh[i]) - qs[i];
            if ((rc = shifted_solve(&S, r, err))) goto done;       /* (W + rho I) r = rho (zh - yh) - q_s */
            for (int i = 0; i < n; i++) z[i] = alpha * r[i] + (1.0 - alpha) * zh[i] + yh[i]; /* rh + yh */
            for (int i = 0; i < nc; i++) lcp_cone_project(p->mu[i], z + 3 * i); /* z = P_K(rh + yh) */
            double pr2 = 0.0, dr2 = 0.0;
            for (int i = 0; i < n; i++) {
                double rh = alpha * r[i] + (1.0 - alpha) * zh[i];
                y[i] = yh[i] + rh - z[i];
                pr2 += (r[i] - z[i]) * (r[i] - z[i]);
                dr2 += (z[i] - zh[i]) * (z[i] - zh[i]);
                x[i] = sc[i] * z[i];
            }
            double prim = sqrt(pr2), dual = rho * sqrt(dr2);
            extra[0] = rho, extra[1] = prim, extra[2] = dual;
            if (lcp_monitor_step(mon, k, x, extra)) break;
            hist[k % (ADAPT_EVERY + 1)] = mon->last.residual;
            for (int i = 0; i < n; i++) u[i] = -rho * y[i];       /* De Saxce: s from the dual's velocity */
            shifted_q(p, q, u, qs);
            /* Nesterov acceleration with restart (Goldstein et al. 2014, Alg. 8) */
            double e = pr2 + dr2;                                  /* |y - yh|^2 + |z - zh|^2 */
            if (e < RESTART_ETA * ek) {
                double tau1 = 0.5 * (1.0 + sqrt(1.0 + 4.0 * tau * tau)), a = (tau - 1.0) / tau1;
                for (int i = 0; i < n; i++) {
                    zh[i] = z[i] + a * (z[i] - zk[i]);
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
            memcpy(zk, z, (size_t)n * sizeof(double));
            memcpy(yk, y, (size_t)n * sizeof(double));
            /* residual balancing */
            double f = dual > 0 ? sqrt(prim / dual) : (prim > 0 ? RHO_STEP : 1.0);
            f = fmin(RHO_STEP, fmax(1.0 / RHO_STEP, f));
            capped = f == RHO_STEP || f == 1.0 / RHO_STEP ? capped + 1 : 0;
            /* every ADAPT_EVERY iterations; before the first, as soon as the
             * balance has been at its cap CAPPED_RUN iterations running */
            if (k % ADAPT_EVERY && !(k < ADAPT_EVERY && capped >= CAPPED_RUN)) continue;
            double rnew = fmin(rho_max, fmax(rho_min, rho * f));
            int span = k < ADAPT_EVERY ? k : ADAPT_EVERY;             /* the residual span k - span .. k */
            if (!(rnew > RHO_CHANGE * rho || rnew * RHO_CHANGE < rho)) continue;
            if (!refactor_pays(&S, hist[k % (ADAPT_EVERY + 1)], hist[(k - span) % (ADAPT_EVERY + 1)], span, s->tol))
                declined++;
            else {
                for (int i = 0; i < n; i++) {                      /* the unscaled duals rho y stay */
                    y[i] *= rho / rnew;
                    yh[i] *= rho / rnew;
                    yk[i] *= rho / rnew;
                }
                rho = rnew;
                capped = 0;
                tau = 1.0;                                         /* the residuals' scale changed */
                ek = INFINITY;
                if ((rc = shifted_factor(&S, rho, err))) goto done;
            }
        }
    }
    info->iterations = mon->iter;
    char why[96] = "";
    if (S.cost_w > 0)
        snprintf(why, sizeof why, " (predicted %.3g flops against %.3g for %s)", S.wb ? S.cost_k : S.cost_w,
                 S.wb ? S.cost_w : S.cost_k, S.wb ? "W + rho I" : "the factored form");
    snprintf(info->message, sizeof info->message,
             "%s%s, %d factorisation%s (%d rho change%s declined), final rho %.3g",
             S.wb ? "CHOLMOD LL' of M + J'D^2J/rho (factored form, Woodbury)"
                  : sym ? "CHOLMOD LL' of W + rho I" : "UMFPACK LU of W + rho I (W not symmetric)", why,
             S.factorisations, S.factorisations == 1 ? "" : "s", declined, declined == 1 ? "" : "s", rho);
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
    free(z);
    free(sc);
    free(q);
    free(u);
    return rc;
}

const lcp_solver lcp_solver_admm = {
    "admm", "ADMM on the cone QP: (W + rho I) solves by CHOLMOD/UMFPACK, adaptive rho (--rho, --omega = alpha)",
    LCP_KIND_CCP | LCP_KIND_FC3D, columns, admm_solve, NULL, LCP_SOLVER_FACTOR | LCP_SOLVER_MONOTONE, 0};
