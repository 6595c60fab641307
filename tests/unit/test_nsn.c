/* tests/unit/test_nsn.c: unit tests of the Alart-Curnier Newton step shared
 * by nsn and prox (src/solvers/nsn.h).
 *
 * - The generalised Jacobian: started near a nondegenerate solution
 *   (sliding, sticking; fc3d and ccp), the full Newton step is taken and
 *   |Phi| falls quadratically, |Phi_{k+1}| <= 10 |Phi_k|^2 (a wrong block of
 *   H would leave a linear rate); the limit is the known solution, built
 *   backwards in the comments.
 * - The proximal regularisation: after nsn_set_prox(sigma, rk) the limit
 *   solves the problem with u = W r + q + sigma (r - rk), checked by
 *   lcp_contact_residual2 on that u computed here.
 * - The nonmonotone line search: on a pyramid of boxes (base 6, 144
 *   contacts, mu 0.5) with A + 1e-3 I, nsn (the reference merit the largest
 *   of the last iterates') solves to 1e-7 within 40 steps, where the same
 *   steps with the monotone Armijo test (reference = the current merit)
 *   have not: they crawl at steps of 1/16 and less (152 steps).
 * - The hybrid start: where 20 Newton steps have not cut the residual
 *   tenfold in their last 10, admm's answer to 1e-3 and Newton from there
 *   (three columns of spheres in the factored form: solved, the start said).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lcpsolve.h>

#include "check.h"
#include "core/api_internal.h"
#include "solvers/nsn.h"
#include "core/verify.h"

static void prob(lcp_problem *p, lcp_kind kind, const double *Wrm, const double *q, double mu)
{
    double cm[9];
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 3; c++) cm[i + 3 * c] = Wrm[3 * i + c];
    lcp_problem_init(p);
    p->kind = kind;
    if (lcp_csr_from_dense_colmajor(&p->A, 3, 3, cm)) exit(2);
    p->b = malloc(3 * sizeof(double));
    memcpy(p->b, q, 3 * sizeof(double));
    p->blen = 3;
    p->mu = malloc(sizeof(double));
    p->mu[0] = mu;
    p->nmu = 1;
    p->source = lcp_strdup("test");
    lcp_err err = {{0}};
    if (lcp_problem_finish(p, &err)) {
        fprintf(stderr, "prob: %s\n", err.msg);
        exit(2);
    }
}

/* Newton from rstar + perturbation: full steps, quadratic decrease, limit
 * rstar. */
static void quadratic(const char *name, lcp_kind kind, const double *W, const double *q, double mu,
                      const double *rstar)
{
    lcp_problem p;
    prob(&p, kind, W, q, mu);
    nsn_work *w;
    lcp_err err = {{0}};
    CHECK(nsn_work_new(&p, &w, &err) == 0);
    double r[3] = {rstar[0] + 2e-3, rstar[1] - 1e-3, rstar[2] + 1.5e-3};
    double e = sqrt(2 * nsn_eval(w, r));
    int quad = 1, full = 1, steps = 0;
    while (e > 1e-13 && steps < 20) {
        double t;
        if (nsn_step(w, r, &t, &err)) break;
        double e1 = sqrt(2 * nsn_merit(w));
        if (e > 1e-7 && !(e1 <= 10 * e * e)) quad = 0;    /* below 1e-7 rounding may dominate */
        if (t != 1.0) full = 0;
        e = e1;
        steps++;
    }
    printf("%s: %d steps, |Phi| %.2e, r = (%.12g, %.12g, %.12g)\n", name, steps, e, r[0], r[1], r[2]);
    CHECK(quad);
    CHECK(full);
    CHECK(e <= 1e-13);
    for (int k = 0; k < 3; k++) CHECK(fabs(r[k] - rstar[k]) <= 1e-10);
    nsn_work_free(w);
    lcp_problem_free(&p);
}

/* the pyramid of base 6 with A + 1e-3 I (lcps_problem_csr: its own arrays) */
static lcps_problem *shifted_pyramid(void)
{
    char err[512];
    const char *opt[] = {"base", "6", "mu", "0.5", NULL};
    lcps_problem *g = NULL, *p = NULL;
    if (lcps_problem_generate("pyramid", opt, &g, err, sizeof err)) return NULL;
    const lcp_problem *lp = lcp_api_problem(g, NULL, NULL, &(lcp_err){{0}});
    double *ax = lp ? malloc((size_t)lcp_csr_nnz(&lp->A) * sizeof *ax) : NULL;
    for (int i = 0; ax && i < lp->n; i++)
        for (int k = lp->A.p[i]; k < lp->A.p[i + 1]; k++) ax[k] = lp->A.x[k] + (lp->A.j[k] == i ? 1e-3 : 0.0);
    if (!ax || lcps_problem_csr("fc3d", lp->n, lp->A.p, lp->A.j, ax, lp->b, &p, err, sizeof err) ||
        lcps_problem_set_vector(p, "mu", lp->mu, lp->nmu, err, sizeof err)) {
        lcps_problem_free(p);
        p = NULL;
    }
    free(ax);
    lcps_problem_free(g);
    return p;
}

static void nonmonotone(void)
{
    lcps_problem *p = shifted_pyramid();
    CHECK(p != NULL);
    if (!p) return;
    char err[512];
    lcps_settings *s = lcps_settings_new();
    CHECK(!lcps_settings_set(s, "solver", "nsn", err, sizeof err) && !lcps_settings_set(s, "tol", "1e-7", err, sizeof err));
    lcps_result r;
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0);
    printf("shifted pyramid, nsn: status %d in %d steps, residual %.2e\n", r.status, r.iterations, r.residual);
    CHECK(r.status == LCPS_SOLVED);
    CHECK(r.iterations > 0 && r.iterations <= 40);
    /* the same Newton steps with the monotone test */
    const lcp_problem *lp = lcp_api_problem(p, NULL, NULL, &(lcp_err){{0}});
    nsn_work *w;
    lcp_err e = {{0}};
    CHECK(nsn_work_new(lp, &w, &e) == 0);
    double *x = calloc((size_t)lp->n, sizeof *x), t;
    nsn_eval(w, x);
    int k = 0;
    for (; k < 40 && nsn_residual(w, x) > 1e-7; k++)
        if (nsn_step(w, x, &t, &e)) break;
    printf("the monotone search: residual %.2e after %d steps\n", nsn_residual(w, x), k);
    CHECK(nsn_residual(w, x) > 1e-7);
    free(x);
    nsn_work_free(w);
    lcps_result_free(&r);
    lcps_settings_free(s);
    lcps_problem_free(p);
}

/* the hybrid start: three columns of 30 spheres with friction 0.5, where 20 Newton steps leave a residual of
 * 1e-2: admm's answer to 1e-3 from zero (a few iterations), and the steps from there solve it in fewer than the
 * 32 the Newton steps alone take; the same bits on one thread and on two (admm's start is zero, not memory
 * left as it was) */
static void hybrid(void)
{
    char err[512];
    const char *opt[] = {"bodies", "30", "mu", "0.5", "piles", "3", NULL};
    lcps_problem *p = NULL;
    CHECK(lcps_problem_generate("column", opt, &p, err, sizeof err) == 0);
    if (!p) return;
    lcps_settings *s = lcps_settings_new();
    CHECK(!lcps_settings_set(s, "solver", "nsn", err, sizeof err) && !lcps_settings_set(s, "tol", "1e-7", err, sizeof err) &&
          !lcps_settings_set(s, "threads", "1", err, sizeof err));
    lcps_result r;
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0);
    printf("three columns, nsn: status %d in %d steps, residual %.2e (%s)\n", r.status, r.iterations, r.residual,
           r.message ? r.message : "");
    CHECK(r.status == LCPS_SOLVED);
    CHECK(r.message && strstr(r.message, "hybrid start after 20 Newton steps") != NULL);
    CHECK(r.iterations > 20 && r.iterations < 32);
    lcps_result r2;
    CHECK(!lcps_settings_set(s, "threads", "2", err, sizeof err));
    CHECK(lcps_solve(p, s, NULL, &r2, err, sizeof err) == 0);
    CHECK(r2.iterations == r.iterations && r2.n == r.n && r.x && r2.x &&
          !memcmp(r2.x, r.x, (size_t)r.n * sizeof(double)));
    lcps_result_free(&r2);
    lcps_result_free(&r);
    lcps_settings_free(s);
    lcps_problem_free(p);
}

int main(void)
{
    /* fc3d slide: r* = (1, 0.24, 0.32) on the cone (mu 0.4), u* = (0, -1.2,
     * -1.6) opposite r_T: q = u* - W r* */
    static const double Ws[9] = {2, 0.5, 0.2, 0.5, 1.5, 0.1, 0.2, 0.1, 1};
    static const double rs[3] = {1, 0.24, 0.32};
    static const double qs[3] = {-2.184, -2.092, -2.144};
    quadratic("fc3d slide", LCP_KIND_FC3D, Ws, qs, 0.4, rs);
    /* ccp slide: the same r*, u* = 2 (mu, -0.6, -0.8) on the dual cone */
    static const double qc[3] = {-1.384, -2.092, -2.144};
    quadratic("ccp slide", LCP_KIND_CCP, Ws, qc, 0.4, rs);
    /* stick: r* = (1, 0.2, -0.1) inside the cone (mu 0.5), u* = 0 */
    static const double Wk[9] = {2, 1, 0, 1, 2, 0, 0, 0, 2};
    static const double rk[3] = {1, 0.2, -0.1};
    static const double qk[3] = {-2.2, -1.4, 0.2};
    quadratic("fc3d stick", LCP_KIND_FC3D, Wk, qk, 0.5, rk);
    quadratic("ccp stick", LCP_KIND_CCP, Wk, qk, 0.5, rk);

    /* proximal regularisation: sigma = 0.7 around rk = (0.5, 0, 0.1) on the
     * slide data; the limit solves u = W r + q + sigma (r - rk) */
    for (int kind = 0; kind < 2; kind++) {
        lcp_problem p;
        prob(&p, kind ? LCP_KIND_CCP : LCP_KIND_FC3D, Ws, kind ? qc : qs, 0.4);
        nsn_work *w;
        lcp_err err = {{0}};
        CHECK(nsn_work_new(&p, &w, &err) == 0);
        double rkp[3] = {0.5, 0.0, 0.1}, r[3] = {0, 0, 0}, sigma = 0.7, t;
        nsn_set_prox(w, sigma, rkp);
        nsn_eval(w, r);
        for (int k = 0; k < 50 && nsn_merit(w) > 1e-30; k++)
            if (nsn_step(w, r, &t, &err)) break;
        double u[3];
        for (int a = 0; a < 3; a++) {
            u[a] = p.b[a] + sigma * (r[a] - rkp[a]);
            for (int c = 0; c < 3; c++) u[a] += Ws[3 * a + c] * r[c];
        }
        double e = sqrt(lcp_contact_residual2(0.4, !kind, r, u));
        printf("prox %s: residual %.2e (nsn_residual %.2e), r = (%.12g, %.12g, %.12g)\n", kind ? "ccp" : "fc3d", e,
               nsn_residual(w, r), r[0], r[1], r[2]);
        CHECK(e <= 1e-12);
        CHECK(nsn_residual(w, r) <= 1e-12);
        CHECK(fabs(r[0] - 1.0) > 1e-3);                          /* not the unregularised answer */
        nsn_work_free(w);
        lcp_problem_free(&p);
    }
    nonmonotone();
    hybrid();
    CHECK_DONE();
}
