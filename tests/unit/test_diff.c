/* tests/unit/test_diff.c: the derivatives of a solution (src/diff/,
 * lcps_diff_new, lcps_jvp, lcps_vjp and their factored forms) against
 * central finite differences of re-solved problems, on every kind: random
 * problems with and without degenerate rows, generated scenes and (where
 * $LCPSOLVE_DATA holds them) Siconos files; the dot-product test <g, J v> =
 * <J' g, v> to 1e-10; the cone projection's derivative against differences
 * of the projection itself; bad arguments. */
#include <lcpsolve.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/api_internal.h"
#include "core/verify.h"
#include "diff/diff.h"

static unsigned long long rng = 88172645463325252ULL;
static double urand(void) /* uniform in [-1, 1) */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static double dot(const double *a, const double *b, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

static double norm_inf(const double *a, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(a[i]));
    return m;
}

/* ---- problems ---------------------------------------------------------- */

/* A fresh handle of the problem under test (the finite differences change
 * copies, never the one differentiated). */
typedef struct {
    const char *kind;
    int n, nmu, fac;
    /* from arrays: CSR (sorted, no duplicates), b, mu, lo, hi, findex */
    int *rp, *cj, *findex;
    double *vx, *b, *mu, *lo, *hi;
    /* factored: M (nb x nb), J (n x nb), v */
    int nb, *mrp, *mcj, *jrp, *jcj;
    double *mvx, *jvx, *v;
    /* or a file / a generated scene */
    const char *path, *scene;
    const char *const *options;
    double shift;  /* a scene or a file: A + shift I (its diagonal is stored) */
} spec;

static lcps_problem *make(const spec *sp)
{
    lcps_problem *p = NULL;
    char err[512];
    int rc;
    if (sp->path && !sp->shift) rc = lcps_problem_read(sp->path, &p, err, sizeof err);
    else if (sp->scene || sp->path) { /* as arrays (A + shift I, b, mu): values of A can be changed (lcps_problem_update) */
        lcps_problem *g = NULL;
        rc = sp->path ? lcps_problem_read(sp->path, &g, err, sizeof err)
                      : lcps_problem_generate(sp->scene, sp->options, &g, err, sizeof err);
        const lcp_problem *lp = rc ? NULL : lcp_api_problem(g, NULL, NULL, &(lcp_err){{0}});
        double *ax = lp ? malloc((size_t)(lcp_csr_nnz(&lp->A) + 1) * sizeof *ax) : NULL;
        for (int i = 0; ax && i < lp->n; i++)
            for (int k = lp->A.p[i]; k < lp->A.p[i + 1]; k++) ax[k] = lp->A.x[k] + (lp->A.j[k] == i ? sp->shift : 0.0);
        if (lp) rc = lcps_problem_csr(lcp_kind_name(lp->kind), lp->n, lp->A.p, lp->A.j, ax, lp->b, &p, err, sizeof err);
        free(ax);
        if (lp && !rc && lp->mu) rc = lcps_problem_set_vector(p, "mu", lp->mu, lp->nmu, err, sizeof err);
        lcps_problem_free(g);
    }
    else if (sp->fac) {
        lcps_csr M = {sp->nb, sp->nb, sp->mrp, sp->mcj, sp->mvx}, J = {sp->n, sp->nb, sp->jrp, sp->jcj, sp->jvx};
        rc = lcps_problem_factored(sp->kind, &M, &J, sp->v, NULL, &p, err, sizeof err);
        if (!rc && sp->mu) rc = lcps_problem_set_vector(p, "mu", sp->mu, sp->nmu, err, sizeof err);
    } else {
        rc = lcps_problem_csr(sp->kind, sp->n, sp->rp, sp->cj, sp->vx, sp->b, &p, err, sizeof err);
        if (!rc && sp->mu) rc = lcps_problem_set_vector(p, "mu", sp->mu, sp->nmu, err, sizeof err);
        if (!rc && sp->lo) rc = lcps_problem_set_vector(p, "lo", sp->lo, sp->n, err, sizeof err);
        if (!rc && sp->hi) rc = lcps_problem_set_vector(p, "hi", sp->hi, sp->n, err, sizeof err);
        if (!rc && sp->findex) rc = lcps_problem_set_findex(p, sp->findex, sp->n, err, sizeof err);
    }
    if (rc) fprintf(stderr, "make: %s\n", err);
    return rc ? NULL : p;
}

static void spec_free(spec *sp)
{
    free(sp->rp), free(sp->cj), free(sp->findex), free(sp->vx), free(sp->b), free(sp->mu), free(sp->lo), free(sp->hi);
    free(sp->mrp), free(sp->mcj), free(sp->jrp), free(sp->jcj), free(sp->mvx), free(sp->jvx), free(sp->v);
}

/* A = G G' / n + shift I, dense (stored as CSR), b uniform in [-1, 1]. */
static void random_spd(spec *sp, const char *kind, int n, double shift)
{
    memset(sp, 0, sizeof *sp);
    sp->kind = kind, sp->n = n;
    double *G = malloc((size_t)n * n * sizeof *G);
    for (int k = 0; k < n * n; k++) G[k] = urand();
    sp->rp = malloc((size_t)(n + 1) * sizeof(int));
    sp->cj = malloc((size_t)n * n * sizeof(int));
    sp->vx = malloc((size_t)n * n * sizeof(double));
    sp->b = malloc((size_t)n * sizeof(double));
    for (int i = 0; i <= n; i++) sp->rp[i] = i * n;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            double s = i == j ? shift : 0.0;
            for (int k = 0; k < n; k++) s += G[i * n + k] * G[j * n + k] / n;
            sp->cj[i * n + j] = j, sp->vx[i * n + j] = s;
        }
        sp->b[i] = urand();
    }
    free(G);
}

/* b = w* - A x* for a chosen solution: x* > 0 on rows i % 3 == 0, w* > 0
 * on the others, and rows listed in deg with x*_i = w*_i = 0. */
static void plant_solution(spec *sp, const int *deg, int ndeg)
{
    int n = sp->n;
    double *xs = calloc((size_t)n, sizeof *xs), *ws = calloc((size_t)n, sizeof *ws);
    for (int i = 0; i < n; i++) {
        if (i % 3 == 0) xs[i] = 0.5 + fabs(urand());
        else ws[i] = 0.5 + fabs(urand());
    }
    for (int k = 0; k < ndeg; k++) xs[deg[k]] = ws[deg[k]] = 0.0;
    for (int i = 0; i < n; i++) {
        double s = ws[i];
        for (int k = sp->rp[i]; k < sp->rp[i + 1]; k++) s -= sp->vx[k] * xs[sp->cj[k]];
        sp->b[i] = s;
    }
    free(xs), free(ws);
}

/* ---- the check --------------------------------------------------------- */

typedef struct {
    const char *solver;
    double tol, reg, h, rel;
    int one_sided;       /* directions chosen to stay on the piece taken */
    int expect_deg;      /* -1: any */
    const double *db;    /* a direction of b (NULL: random) */
    int no_dA;           /* b (and mu) only */
} how;

static int solve(lcps_problem *p, const how *hw, const double *x0, lcps_result *r)
{
    lcps_settings *s = lcps_settings_new();
    char tol[32], reg[32], err[256];
    snprintf(tol, sizeof tol, "%g", hw->tol);
    snprintf(reg, sizeof reg, "%g", hw->reg);
    lcps_settings_set(s, "solver", hw->solver, err, sizeof err);
    lcps_settings_set(s, "tol", tol, err, sizeof err);
    lcps_settings_set(s, "decompose", "off", err, sizeof err);
    if (hw->reg > 0) lcps_settings_set(s, "reg", reg, err, sizeof err);
    int rc = lcps_solve(p, s, x0, r, err, sizeof err);
    if (rc && !(rc == 1 && hw->reg > 0)) fprintf(stderr, "solve (%s): %s %s\n", hw->solver, lcps_status_name(r->status), err);
    lcps_settings_free(s);
    return rc;
}

static lcps_settings *settings_of(const how *hw)
{
    lcps_settings *s = lcps_settings_new();
    char reg[32];
    snprintf(reg, sizeof reg, "%g", hw->reg);
    if (hw->reg > 0) lcps_settings_set(s, "reg", reg, NULL, 0);
    return s;
}

/* x of the problem with A + t dA, b + t db, mu + t dmu (warm from x0) */
static int perturbed(const spec *sp, const how *hw, const double *A0, const double *b0, const double *mu0,
                     const double *dA, const double *db, const double *dmu, long na, int n, int nmu, double t,
                     const double *x0, double *x)
{
    lcps_problem *q = make(sp);
    double *a = malloc((size_t)(na + 1) * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    double *mu = malloc((size_t)(nmu + 1) * sizeof *mu);
    for (long k = 0; k < na; k++) a[k] = A0[k] + t * (dA ? dA[k] : 0.0);
    for (int i = 0; i < n; i++) b[i] = b0[i] + t * db[i];
    for (int i = 0; i < nmu; i++) mu[i] = mu0[i] + t * dmu[i];
    char err[256];
    int rc = !q || lcps_problem_update(q, dA ? a : NULL, b, err, sizeof err) ||
             (nmu && lcps_problem_set_vector(q, "mu", mu, nmu, err, sizeof err));
    lcps_result r;
    memset(&r, 0, sizeof r);
    if (!rc) rc = solve(q, hw, x0, &r);
    if (rc == 1 && hw->reg > 0) rc = 0; /* the residual reported is the original problem's */
    if (!rc) memcpy(x, r.x, (size_t)n * sizeof *x);
    lcps_result_free(&r);
    lcps_problem_free(q);
    free(a), free(b), free(mu);
    return rc;
}

/* For symmetric A a symmetric direction: entry (i, j) takes (i, j) + (j, i). */
static void symmetrise(const lcp_problem *lp, double *dA)
{
    const lcp_csr *A = &lp->A;
    if (!lcp_csr_is_symmetric(A, 1e-12)) return;
    for (int i = 0; i < A->m; i++)
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            int j = A->j[k];
            if (j <= i) continue;
            for (int l = A->p[j]; l < A->p[j + 1]; l++)
                if (A->j[l] == i) {
                    dA[l] = dA[k];
                    break;
                }
        }
}

/* The JVP against finite differences along a random (dA, db, dmu), and the
 * dot-product test of the VJP.  Returns the relative difference seen. */
static double check_problem(const char *name, const spec *sp, const how *hw)
{
    lcps_problem *p = make(sp);
    lcps_result r;
    memset(&r, 0, sizeof r);
    CHECK(p != NULL);
    if (!p) return INFINITY;
    int rc = solve(p, hw, NULL, &r);
    if (rc == 1 && hw->reg > 0) rc = 0; /* the residual reported is the original problem's */
    CHECK(rc == 0);
    lcps_diff *d = NULL;
    char err[512];
    lcps_settings *s = settings_of(hw);
    if (!rc) rc = lcps_diff_new(p, s, &r, &d, err, sizeof err);
    lcps_settings_free(s);
    if (rc) fprintf(stderr, "%s: %s\n", name, err);
    CHECK(rc == 0 && d);
    double rel = INFINITY;
    if (!d) goto out;
    int n = lcps_diff_len(d, "x"), nmu = lcps_diff_len(d, "mu");
    long na = lcps_diff_len(d, "A");
    const lcp_problem *lp = lcp_api_problem(p, NULL, NULL, &(lcp_err){{0}});
    int ndeg = lcps_diff_degenerate(d, NULL);
    if (hw->expect_deg >= 0) CHECK(ndeg == hw->expect_deg);
    double *dA = calloc((size_t)na + 1, sizeof *dA), *db = malloc((size_t)n * sizeof *db);
    double *dmu = calloc((size_t)nmu + 1, sizeof *dmu), *dx = malloc((size_t)n * sizeof *dx);
    double *xp = malloc((size_t)n * sizeof *xp), *xm = malloc((size_t)n * sizeof *xm);
    double *g = malloc((size_t)n * sizeof *g), *gA = malloc((size_t)(na + 1) * sizeof *gA);
    double *gb = malloc((size_t)n * sizeof *gb), *gmu = malloc((size_t)(nmu + 1) * sizeof *gmu);
    double bs = fmax(1.0, norm_inf(lp->b, n)), as = 0;
    for (long k = 0; k < na; k++) as = fmax(as, fabs(lp->A.x[k]));
    for (long k = 0; k < na && !hw->no_dA; k++) dA[k] = as * urand();
    if (!hw->no_dA) symmetrise(lp, dA);
    for (int i = 0; i < n; i++) db[i] = hw->db ? hw->db[i] : bs * urand();
    for (int i = 0; i < nmu; i++) dmu[i] = 0.5 * lp->mu[i] * urand();
    CHECK(lcps_jvp(d, hw->no_dA ? NULL : dA, db, nmu ? dmu : NULL, dx, err, sizeof err) == 0);
    double h = hw->h;
    int ok = !perturbed(sp, hw, lp->A.x, lp->b, lp->mu, hw->no_dA ? NULL : dA, db, dmu, na, n, nmu, h, r.x, xp);
    if (hw->one_sided) memcpy(xm, r.x, (size_t)n * sizeof *xm);
    else ok = ok && !perturbed(sp, hw, lp->A.x, lp->b, lp->mu, hw->no_dA ? NULL : dA, db, dmu, na, n, nmu, -h, r.x, xm);
    CHECK(ok);
    if (ok) {
        double e = 0, den = hw->one_sided ? h : 2 * h;
        for (int i = 0; i < n; i++) e = fmax(e, fabs((xp[i] - xm[i]) / den - dx[i]));
        rel = e / fmax(norm_inf(dx, n), 1e-300);
        if (!(rel <= hw->rel)) fprintf(stderr, "%s: finite differences differ by %.3g relative (|dx| %.3g)\n", name, rel, norm_inf(dx, n));
        CHECK(rel <= hw->rel);
        CHECK(norm_inf(dx, n) > 0); /* a direction that moves the solution */
    }
    /* the dot-product test: <g, dx> = <gA, dA> + <gb, db> + <gmu, dmu> */
    for (int i = 0; i < n; i++) g[i] = urand();
    CHECK(lcps_vjp(d, g, gA, gb, nmu ? gmu : NULL, err, sizeof err) == 0);
    double lhs = dot(g, dx, n), rhs = dot(gb, db, n) + (hw->no_dA ? 0 : dot(gA, dA, (int)na)) + dot(gmu, dmu, nmu);
    double scale = sqrt(dot(g, g, n) * dot(dx, dx, n));
    if (!(fabs(lhs - rhs) <= 1e-10 * scale)) fprintf(stderr, "%s: <g, Jv> %.17g, <J'g, v> %.17g\n", name, lhs, rhs);
    CHECK(fabs(lhs - rhs) <= 1e-10 * scale);
    printf("%-34s n %5d  degenerate %3d  fd rel %.1e  dot %.1e  %s\n", name, n, ndeg, rel, fabs(lhs - rhs) / scale,
           lcp_diff_method(lcp_diff_of(d)));
    free(dA), free(db), free(dmu), free(dx), free(xp), free(xm), free(g), free(gA), free(gb), free(gmu);
out:
    lcps_diff_free(d);
    lcps_result_free(&r);
    lcps_problem_free(p);
    return rel;
}

static const how EXACT_LCP = {"lemke", 1e-12, 0, 1e-6, 1e-6, 0, 0, NULL, 0};
static void check_singular(const char *name, const spec *sp, const how *hw, const double *planted);

/* ---- the tests --------------------------------------------------------- */

static void test_cone_jacobian(void)
{
    /* against central differences of the projection of verify.h, in each piece */
    double zs[][4] = {{1.0, 0.1, -0.2, 0.5},   /* interior */
                      {0.3, 0.8, 0.5, 0.5},    /* surface */
                      {-1.0, 0.1, 0.1, 0.5},   /* polar */
                      {0.2, -0.7, 0.4, 1.3},   /* surface, mu > 1 */
                      {0.7, 0.3, 0.0, 0.0}};   /* mu = 0: the ray */
    int want[] = {2, 1, 0, 1, 1};
    for (int c = 0; c < 5; c++) {
        double mu = zs[c][3], Jp[9], Pmu[3], h = 1e-7;
        int deg;
        CHECK(lcp_diff_cone_jacobian(mu, zs[c], 1e-9, Jp, Pmu, &deg) == want[c]);
        CHECK(deg == 0);
        for (int k = 0; k < 4; k++) {
            double zp[3] = {zs[c][0], zs[c][1], zs[c][2]}, zm[3] = {zs[c][0], zs[c][1], zs[c][2]};
            double mp = mu, mm = mu;
            if (k < 3) zp[k] += h, zm[k] -= h;
            else mp += h, mm -= h;
            if (k == 3 && mu == 0) continue; /* the cone's derivative in mu at 0 is one-sided */
            lcp_cone_project(mp, zp);
            lcp_cone_project(mm, zm);
            for (int a = 0; a < 3; a++) {
                double fd = (zp[a] - zm[a]) / (2 * h), an = k < 3 ? Jp[3 * a + k] : Pmu[a];
                CHECK_NEAR(an, fd, 1e-7);
            }
        }
    }
    double border[3] = {1.0, 0.5, 0.0}, Jp[9], Pmu[3]; /* on the surface of K_0.5: degenerate, the surface taken */
    int deg;
    CHECK(lcp_diff_cone_jacobian(0.5, border, 1e-9, Jp, Pmu, &deg) == 1 && deg == 1);
    double apex[3] = {0, 0, 0};
    CHECK(lcp_diff_cone_jacobian(0.5, apex, 1e-9, Jp, Pmu, &deg) == 0 && deg == 1);
}

static void test_lcp(void)
{
    spec sp;
    random_spd(&sp, "lcp", 40, 0.5);
    check_problem("lcp random 40", &sp, &EXACT_LCP);
    how hw = EXACT_LCP;
    hw.expect_deg = 0;
    plant_solution(&sp, NULL, 0); /* strictly complementary: no degenerate row */
    check_problem("lcp planted 40", &sp, &hw);
    /* two degenerate rows (x_i = w_i = 0): flagged; the derivative is the
     * one-sided one along a direction that keeps them at their bound */
    int deg[] = {3, 7};
    plant_solution(&sp, deg, 2);
    hw.expect_deg = 2;
    hw.one_sided = 1;
    hw.no_dA = 1;
    double *db = malloc(40 * sizeof *db);
    for (int i = 0; i < 40; i++) db[i] = 0.1 * urand();
    db[3] = db[7] = 50.0; /* w_3, w_7 grow: x_3 = x_7 = 0 stays */
    hw.db = db;
    check_problem("lcp degenerate 40 (one-sided)", &sp, &hw);
    free(db);
    spec_free(&sp);
}

/* blcp: bounds [-1, 1] on odd rows, [0, inf) on even rows, and findex
 * friction (row 3c normal; 3c+1, 3c+2 with findex 3c, mu per row). */
static void test_blcp(void)
{
    spec sp;
    int n = 36;
    random_spd(&sp, "blcp", n, 0.5);
    sp.lo = malloc((size_t)n * sizeof(double));
    sp.hi = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) {
        sp.lo[i] = i % 2 ? -0.3 : 0.0;
        sp.hi[i] = i % 2 ? 0.3 : INFINITY;
        sp.b[i] *= 2.0;
    }
    how hw = {"pivot", 1e-12, 0, 1e-6, 1e-6, 0, -1, NULL, 0};
    check_problem("blcp box 36", &sp, &hw);
    /* planted: even rows (i % 4 == 0, 2) free inside [0, inf) with w = 0;
     * odd rows at a bound of [-0.3, 0.3]: i % 4 == 1 at lo (w > 0), 3 at hi
     * (w < 0); then row 5 at hi with w = 0: degenerate */
    for (int pass = 0; pass < 2; pass++) {
        double *xs = calloc((size_t)n, sizeof *xs), *ws = calloc((size_t)n, sizeof *ws);
        for (int i = 0; i < n; i++) {
            int r = i % 4;
            if (r == 0 || r == 2) xs[i] = i % 2 ? 0.2 * urand() : 0.3 + fabs(urand());
            else if (r == 1) xs[i] = sp.lo[i], ws[i] = 0.5 + fabs(urand());
            else xs[i] = sp.hi[i], ws[i] = -0.5 - fabs(urand());
        }
        if (pass) xs[5] = sp.hi[5], ws[5] = 0.0;
        for (int i = 0; i < n; i++) {
            double v = ws[i];
            for (int k = sp.rp[i]; k < sp.rp[i + 1]; k++) v -= sp.vx[k] * xs[sp.cj[k]];
            sp.b[i] = v;
        }
        how hp = hw;
        hp.expect_deg = pass;
        double db[36];
        if (pass) {
            for (int i = 0; i < n; i++) db[i] = 0.1 * urand();
            db[5] = -50.0; /* w_5 < 0: x_5 stays at its upper bound */
            hp.one_sided = 1, hp.no_dA = 1, hp.db = db;
        }
        check_problem(pass ? "blcp degenerate at hi (one-sided)" : "blcp planted 36", &sp, &hp);
        free(xs), free(ws);
    }
    sp.findex = malloc((size_t)n * sizeof(int));
    sp.mu = malloc((size_t)n * sizeof(double));
    sp.nmu = n;
    for (int i = 0; i < n; i++) {
        sp.findex[i] = i % 3 ? i - i % 3 : -1;
        sp.mu[i] = i % 3 ? 0.3 + 0.1 * (i % 5) : 0.0;
        sp.lo[i] = i % 3 ? 0.0 : 0.0;
        sp.hi[i] = i % 3 ? 0.0 : INFINITY;
        sp.b[i] = i % 3 ? 2.0 * urand() : -fabs(urand());
    }
    check_problem("blcp findex 36", &sp, &hw);
    spec_free(&sp);
}

/* A random friction problem: W SPD, q with normal parts of both signs and
 * tangent parts: contacts separated, sticking and sliding. */
static void random_friction(spec *sp, const char *kind, int nc)
{
    random_spd(sp, kind, 3 * nc, 1.0);
    sp->mu = malloc((size_t)nc * sizeof(double));
    sp->nmu = nc;
    for (int c = 0; c < nc; c++) {
        sp->mu[c] = 0.2 + 0.6 * fabs(urand());
        sp->b[3 * c] = c % 4 == 3 ? 0.5 : -1.0 - fabs(urand());
        sp->b[3 * c + 1] = c % 2 ? 2.0 * urand() : 0.05 * urand();
        sp->b[3 * c + 2] = c % 2 ? 2.0 * urand() : 0.05 * urand();
    }
}

/* q = u* - W r* for a chosen solution: contacts c % 3 == 0 separated (r =
 * 0, u_n > 0), the others sticking (r inside the cone, u = 0), and contact
 * k at the apex (r = u = 0: degenerate between the polar cone and the
 * rest). */
static void plant_friction(spec *sp, int k)
{
    int n = sp->n;
    double *r = calloc((size_t)n, sizeof *r), *u = calloc((size_t)n, sizeof *u);
    for (int c = 0; c < n / 3; c++) {
        if (c == k) continue;
        if (c % 3 == 0) {
            u[3 * c] = 0.5 + fabs(urand()), u[3 * c + 1] = 0.3 * urand(), u[3 * c + 2] = 0.3 * urand();
        } else {
            r[3 * c] = 0.5 + fabs(urand());
            r[3 * c + 1] = 0.4 * sp->mu[c] * r[3 * c] * urand(), r[3 * c + 2] = 0.4 * sp->mu[c] * r[3 * c] * urand();
        }
    }
    for (int i = 0; i < n; i++) {
        double s = u[i];
        for (int e = sp->rp[i]; e < sp->rp[i + 1]; e++) s -= sp->vx[e] * r[sp->cj[e]];
        sp->b[i] = s;
    }
    free(r), free(u);
}

static void test_friction(void)
{
    spec sp;
    how hw = {"nsn", 1e-14, 0, 1e-6, 1e-6, 0, 0, NULL, 0};
    random_friction(&sp, "fc3d", 12);
    check_problem("fc3d random 12 contacts", &sp, &hw);
    spec_free(&sp);
    random_friction(&sp, "ccp", 12);
    check_problem("ccp random 12 contacts", &sp, &hw);
    /* contact 4 at the apex: its 3 rows flagged; the one-sided derivative
     * along a direction that separates it (q_n of contact 4 grows) */
    const char *kinds[] = {"ccp", "fc3d"};
    for (int t = 0; t < 2; t++) {
        sp.kind = kinds[t];
        plant_friction(&sp, -1);
        how hp = hw;
        check_problem(t ? "fc3d planted 12 (no degenerate)" : "ccp planted 12 (no degenerate)", &sp, &hp);
        plant_friction(&sp, 4);
        double db[36];
        for (int i = 0; i < 36; i++) db[i] = 0.1 * urand();
        db[12] = 50.0;
        hp.one_sided = 1, hp.no_dA = 1, hp.expect_deg = 3, hp.db = db;
        check_problem(t ? "fc3d apex contact (one-sided)" : "ccp apex contact (one-sided)", &sp, &hp);
    }
    spec_free(&sp);
}

/* The factored form: M block diagonal (nb = 6 a body), J random, v random;
 * the JVP along (dM symmetric, dJ, dv, dmu) against finite differences and
 * the dot-product test of the VJP. */
static void check_factored(const char *kind, int nbody, int n)
{
    spec sp;
    memset(&sp, 0, sizeof sp);
    sp.kind = kind, sp.n = n, sp.fac = 1;
    int nb = sp.nb = 6 * nbody;
    sp.mrp = malloc((size_t)(nb + 1) * sizeof(int));
    sp.mcj = malloc((size_t)nb * 6 * sizeof(int));
    sp.mvx = malloc((size_t)nb * 6 * sizeof(double));
    sp.mrp[0] = 0;
    for (int r = 0; r < nb; r++) { /* blocks of 6: I + 0.1 (symmetric) */
        int b0 = r / 6 * 6;
        for (int k = 0; k < 6; k++) {
            int c = b0 + k;
            sp.mcj[6 * r + k] = c;
            sp.mvx[6 * r + k] = (c == r ? 1.5 + (r % 3) : 0.0) + 0.1 * (((r + c) % 5) - 2) / 2.0;
        }
        sp.mrp[r + 1] = 6 * (r + 1);
    }
    sp.jrp = malloc((size_t)(n + 1) * sizeof(int));
    sp.jcj = malloc((size_t)n * 12 * sizeof(int));
    sp.jvx = malloc((size_t)n * 12 * sizeof(double));
    sp.jrp[0] = 0;
    for (int i = 0; i < n; i++) { /* two bodies a row */
        int b1 = (i / 3) % nbody, b2 = (b1 + 1) % nbody, lo = b1 < b2 ? b1 : b2, hi = b1 < b2 ? b2 : b1, k = 12 * i;
        for (int c = 0; c < 6; c++) sp.jcj[k] = 6 * lo + c, sp.jvx[k++] = urand();
        for (int c = 0; c < 6; c++) sp.jcj[k] = 6 * hi + c, sp.jvx[k++] = urand();
        sp.jrp[i + 1] = k;
    }
    sp.v = malloc((size_t)nb * sizeof(double));
    for (int k = 0; k < nb; k++) sp.v[k] = urand();
    int fric = strcmp(kind, "lcp") != 0;
    if (fric) {
        sp.nmu = n / 3;
        sp.mu = malloc((size_t)sp.nmu * sizeof(double));
        for (int c = 0; c < sp.nmu; c++) sp.mu[c] = 0.3 + 0.4 * fabs(urand());
    }
    how hw = {fric ? "nsn" : "lemke", fric ? 1e-14 : 1e-12, 0, 1e-6, 1e-6, 0, -1, NULL, 0};
    lcps_problem *p = make(&sp);
    lcps_result r;
    memset(&r, 0, sizeof r);
    int rc = solve(p, &hw, NULL, &r);
    CHECK(rc == 0);
    lcps_diff *d = NULL;
    char err[512];
    if (!rc) rc = lcps_diff_new(p, NULL, &r, &d, err, sizeof err);
    if (rc) fprintf(stderr, "factored %s: %s\n", kind, err);
    CHECK(rc == 0 && d);
    if (!d) goto out;
    int nm = lcps_diff_len(d, "M"), nj = lcps_diff_len(d, "J"), nmu = lcps_diff_len(d, "mu");
    CHECK(nm == 6 * nb && nj == 12 * n && lcps_diff_len(d, "v") == nb && lcps_diff_len(d, "e") == n);
    double *dM = calloc((size_t)nm, sizeof *dM), *dJ = malloc((size_t)nj * sizeof *dJ);
    double *dv = malloc((size_t)nb * sizeof *dv), *dmu = calloc((size_t)nmu + 1, sizeof *dmu);
    double *dx = malloc((size_t)n * sizeof *dx), *xp = malloc((size_t)n * sizeof *xp), *xm = malloc((size_t)n * sizeof *xm);
    for (int rr = 0; rr < nb; rr++) /* symmetric: (r, c) and (c, r) the same */
        for (int k = 0; k < 6; k++) {
            int c = sp.mcj[6 * rr + k];
            if (c >= rr) dM[6 * rr + k] = dM[6 * c + (rr - rr / 6 * 6)] = 0.2 * urand();
        }
    for (int k = 0; k < nj; k++) dJ[k] = urand();
    for (int k = 0; k < nb; k++) dv[k] = urand();
    for (int c = 0; c < nmu; c++) dmu[c] = 0.1 * urand();
    CHECK(lcps_jvp_factored(d, dM, dJ, dv, NULL, nmu ? dmu : NULL, dx, err, sizeof err) == 0);
    double h = 1e-6;
    spec q = sp; /* shares sp's arrays: perturbed copies of the values */
    double *m0 = sp.mvx, *j0 = sp.jvx, *v0 = sp.v, *mu0 = sp.mu;
    double *mq = malloc((size_t)nm * sizeof *mq), *jq = malloc((size_t)nj * sizeof *jq), *vq = malloc((size_t)nb * sizeof *vq);
    double *muq = malloc((size_t)(nmu + 1) * sizeof *muq);
    int ok = 1;
    for (int side = 0; side < 2 && ok; side++) {
        double t = side ? -h : h;
        for (int k = 0; k < nm; k++) mq[k] = m0[k] + t * dM[k];
        for (int k = 0; k < nj; k++) jq[k] = j0[k] + t * dJ[k];
        for (int k = 0; k < nb; k++) vq[k] = v0[k] + t * dv[k];
        for (int c = 0; c < nmu; c++) muq[c] = mu0[c] + t * dmu[c];
        q.mvx = mq, q.jvx = jq, q.v = vq, q.mu = nmu ? muq : NULL;
        lcps_problem *pq = make(&q);
        lcps_result rq;
        memset(&rq, 0, sizeof rq);
        ok = pq && !solve(pq, &hw, r.x, &rq);
        if (ok) memcpy(side ? xm : xp, rq.x, (size_t)n * sizeof(double));
        lcps_result_free(&rq);
        lcps_problem_free(pq);
    }
    CHECK(ok);
    double e = 0;
    for (int i = 0; ok && i < n; i++) e = fmax(e, fabs((xp[i] - xm[i]) / (2 * h) - dx[i]));
    double rel = e / fmax(norm_inf(dx, n), 1e-300);
    CHECK(rel <= 1e-6);
    CHECK(norm_inf(dx, n) > 0);
    /* the dot-product test, e as a variable too */
    double *g = malloc((size_t)n * sizeof *g), *gM = malloc((size_t)nm * sizeof *gM), *gJ = malloc((size_t)nj * sizeof *gJ);
    double *gv = malloc((size_t)nb * sizeof *gv), *ge = malloc((size_t)n * sizeof *ge), *gmu = malloc((size_t)(nmu + 1) * sizeof *gmu);
    double *de = malloc((size_t)n * sizeof *de), *dx2 = malloc((size_t)n * sizeof *dx2);
    for (int i = 0; i < n; i++) g[i] = urand(), de[i] = urand();
    CHECK(lcps_jvp_factored(d, dM, dJ, dv, de, nmu ? dmu : NULL, dx2, err, sizeof err) == 0);
    CHECK(lcps_vjp_factored(d, g, gM, gJ, gv, ge, nmu ? gmu : NULL, err, sizeof err) == 0);
    double lhs = dot(g, dx2, n);
    double rhs = dot(gM, dM, nm) + dot(gJ, dJ, nj) + dot(gv, dv, nb) + dot(ge, de, n) + dot(gmu, dmu, nmu);
    double scale = sqrt(dot(g, g, n) * dot(dx2, dx2, n));
    CHECK(fabs(lhs - rhs) <= 1e-10 * scale);
    /* the plain VJP's grad_b is the factored one's grad_e */
    double *gb = malloc((size_t)n * sizeof *gb);
    CHECK(lcps_vjp(d, g, NULL, gb, NULL, err, sizeof err) == 0);
    double diff = 0;
    for (int i = 0; i < n; i++) diff = fmax(diff, fabs(gb[i] - ge[i]));
    CHECK(diff == 0.0);
    printf("factored %-25s n %5d  degenerate %3d  fd rel %.1e  dot %.1e\n", kind, n, lcps_diff_degenerate(d, NULL), rel,
           fabs(lhs - rhs) / scale);
    free(g), free(gM), free(gJ), free(gv), free(ge), free(gmu), free(de), free(dx2), free(gb);
    free(dM), free(dJ), free(dv), free(dmu), free(dx), free(xp), free(xm), free(mq), free(jq), free(vq), free(muq);
out:
    lcps_diff_free(d);
    lcps_result_free(&r);
    lcps_problem_free(p);
    spec_free(&sp);
}

static void test_factored(void)
{
    check_factored("lcp", 8, 30);
    check_factored("fc3d", 8, 30);
    check_factored("ccp", 8, 30);
}

/* The setting "reg" differentiates A + reg I: the same JVP as the problem
 * with reg added to its diagonal (the solution of the regularised
 * problem, whose reported residual is the original's: status max_iter). */
static void reg_equals_shift(spec *sp)
{
    double shift = sp->shift;
    lcps_problem *ps = make(sp);
    sp->shift = 0;
    lcps_problem *p = make(sp);
    sp->shift = shift;
    how hl = EXACT_LCP;
    lcps_result rs, r;
    memset(&rs, 0, sizeof rs), memset(&r, 0, sizeof r);
    CHECK(solve(ps, &hl, NULL, &rs) == 0);
    int n = rs.n;
    lcps_settings *s = lcps_settings_new();
    char err[512], reg[32];
    snprintf(reg, sizeof reg, "%.17g", shift);
    lcps_settings_set(s, "reg", reg, NULL, 0);
    lcps_settings_set(s, "solver", "ipm", NULL, 0);
    int rc = lcps_solve(p, s, rs.x, &r, err, sizeof err);
    CHECK(rc == 0 || rc == 1);
    lcps_diff *ds = NULL, *d = NULL, *d0 = NULL;
    CHECK(lcps_diff_new(ps, NULL, &rs, &ds, err, sizeof err) == 0);
    CHECK(lcps_diff_new(p, s, &r, &d, err, sizeof err) == 0);
    CHECK(lcps_diff_new(p, NULL, &r, &d0, err, sizeof err) == 2 && strstr(err, "not a solution")); /* not of A itself */
    double *db = malloc((size_t)n * sizeof *db), *x1 = malloc((size_t)n * sizeof *x1), *x2 = malloc((size_t)n * sizeof *x2);
    for (int i = 0; i < n; i++) db[i] = urand();
    if (ds && d) {
        CHECK(lcps_jvp(ds, NULL, db, NULL, x1, err, sizeof err) == 0);
        CHECK(lcps_jvp(d, NULL, db, NULL, x2, err, sizeof err) == 0);
        double e = 0;
        for (int i = 0; i < n; i++) e = fmax(e, fabs(x1[i] - x2[i]));
        CHECK(e <= 1e-8 * norm_inf(x1, n));
    }
    free(db), free(x1), free(x2);
    lcps_diff_free(ds), lcps_diff_free(d), lcps_diff_free(d0);
    lcps_result_free(&rs), lcps_result_free(&r);
    lcps_settings_free(s);
    lcps_problem_free(ps), lcps_problem_free(p);
}

static void test_scenes(void)
{
    spec sp;
    memset(&sp, 0, sizeof sp);
    sp.scene = "column";
    const char *col[] = {"bodies", "30", NULL};
    sp.options = col;
    check_problem("scene column 30 (lcp)", &sp, &EXACT_LCP);
    const char *colf[] = {"bodies", "20", "mu", "0.4", NULL};
    sp.options = colf;
    how hw = {"nsn", 1e-14, 0, 1e-7, 1e-6, 0, -1, NULL, 0}; /* curved: the differences' error goes as h^2 */
    check_problem("scene column 20 (fc3d)", &sp, &hw);
    /* the pyramid's A is singular (4 contact points a face): the
     * minimum-norm derivative; the regularised problem's is unique */
    const char *pyr[] = {"base", "3", NULL};
    sp.scene = "pyramid";
    sp.options = pyr;
    lcps_problem *p = make(&sp);
    lcps_result r;
    memset(&r, 0, sizeof r);
    how hp = {"lemke", 1e-12, 0, 1e-6, 1e-6, 0, -1, NULL, 0};
    char err[512];
    lcps_diff *d = NULL;
    int rc = p ? solve(p, &hp, NULL, &r) : 1;
    CHECK(rc == 0);
    lcps_result_free(&r);
    lcps_problem_free(p);
    (void)d, (void)err;
    hp.solver = "pgs"; /* the force shared among the redundant points (lemke's vertex holds them at 0) */
    hp.h = 0; /* at rest: w = 0 on every contact, and its derivative 0 */
    check_singular("scene pyramid 3 (lcp, singular)", &sp, &hp, NULL);
    /* a pyramid of 3,600 contacts: more free rows than a dense pseudo-inverse takes (LCP_DIFF_DENSE_MAX), the
     * sparse one (src/la/sparse_pinv.h) */
    const char *pyr30[] = {"base", "30", NULL};
    sp.options = pyr30;
    how hi = {"ipm", 1e-10, 0, 0, 1e-6, 0, -1, NULL, 0};
    check_singular("scene pyramid 30 (lcp, singular)", &sp, &hi, NULL);
    /* its ccp (mu 0.5) of 1,600 contacts: the symmetric reduction's M singular, its sparse pseudo-inverse */
    const char *pyrc[] = {"base", "20", "mu", "0.5", "kind", "ccp", NULL};
    sp.options = pyrc;
    how hc = {"socp-ipm", 1e-10, 0, 0, 1e-6, 0, -1, NULL, 0};
    check_singular("scene pyramid 20 (ccp, singular)", &sp, &hc, NULL);
    /* as fc3d: at rest no contact slides, De Saxce's term has no derivative and K is ccp's (the reduction) */
    const char *pyrf[] = {"base", "20", "mu", "0.5", NULL};
    sp.options = pyrf;
    how hf = {"admm", 1e-10, 0, 0, 1e-6, 0, -1, NULL, 0};
    check_singular("scene pyramid 20 (fc3d, singular)", &sp, &hf, NULL);
    sp.options = pyr;
    sp.shift = 1e-2;
    how hs = EXACT_LCP;
    hs.no_dA = 1; /* A + 1e-2 I is ill-conditioned: along dA the differences' second order dominates */
    check_problem("scene pyramid 3 + 1e-2 I (lcp)", &sp, &hs);
    reg_equals_shift(&sp);
}

static void test_siconos(void)
{
    const char *lcps[] = {"/lcp/lcp_mmc.dat", "/lcp/lcp_deudeu.dat", "/lcp/lcp_exp_murty.dat", "/lcp/lcp_ortiz.dat",
                          "/lcp/lcp_enum_fails.dat"};
    const char *fc[] = {"/fc3d/FC3D_Example1.dat", "/fc3d/FrictionContact3D_1c.dat", "/fc3d/Rover1039.dat",
                        "/fc3d/Rover4396.dat"};
    if (access(check_data_path("/lcp"), R_OK)) {
        CHECK_SKIP("Siconos files: %s not found (LCPSOLVE_DATA)", check_data_path(""));
        return;
    }
    spec sp;
    memset(&sp, 0, sizeof sp);
    for (int k = 0; k < 5; k++) {
        sp.path = check_data_path(lcps[k]);
        check_problem(lcps[k], &sp, &EXACT_LCP);
    }
    how hw = {"nsn", 1e-14, 0, 1e-6, 1e-6, 0, -1, NULL, 0};
    for (int k = 0; k < 4; k++) {
        sp.path = check_data_path(fc[k]);
        check_problem(fc[k], &sp, &hw);
    }
    /* redundant contacts (a singular Jacobian): the minimum-norm derivative */
    sp.path = check_data_path("/fc3d/BoxesStack1-i100000-32.hdf5.dat");
    how hs = hw;
    hs.rel = 1e-5;
    check_singular("BoxesStack1 (fc3d, singular)", &sp, &hs, NULL);
    sp.shift = 1e-2;
    how hb = hw;
    hb.no_dA = 1; /* along b and mu: A + 1e-2 I is ill-conditioned (as the pyramid's) */
    check_problem("BoxesStack1 + 1e-2 I (fc3d)", &sp, &hb);
}


/* ---- the bounds of a blcp ---------------------------------------------- */

/* x of sp with lo + t dlo, hi + t dhi, b + t db, mu + t dmu (pivot) */
static int solve_bounds(const spec *sp, const double *dlo, const double *dhi, const double *db, const double *dmu,
                        double t, double *x)
{
    int n = sp->n;
    spec q = *sp;
    double *lo = malloc((size_t)n * sizeof *lo), *hi = malloc((size_t)n * sizeof *hi), *b = malloc((size_t)n * sizeof *b);
    double *mu = sp->mu ? malloc((size_t)n * sizeof *mu) : NULL;
    for (int i = 0; i < n; i++) {
        lo[i] = sp->lo[i] + t * dlo[i], hi[i] = sp->hi[i] + t * dhi[i], b[i] = sp->b[i] + t * db[i];
        if (mu) mu[i] = sp->mu[i] + t * dmu[i];
    }
    q.lo = lo, q.hi = hi, q.b = b, q.mu = mu;
    lcps_problem *p = make(&q);
    how hw = {"pivot", 1e-13, 0, 0, 0, 0, -1, NULL, 0};
    lcps_result r;
    memset(&r, 0, sizeof r);
    int rc = !p || solve(p, &hw, NULL, &r);
    if (!rc) memcpy(x, r.x, (size_t)n * sizeof *x);
    lcps_result_free(&r);
    lcps_problem_free(p);
    free(lo), free(hi), free(b), free(mu);
    return rc;
}

/* The JVP along (db, dmu, dlo, dhi) against central differences, and the
 * dot-product test of lcps_vjp_bounds with every gradient; lcps_jvp is
 * lcps_jvp_bounds with dlo = dhi = 0. */
static void check_bounds(const char *name, spec *sp)
{
    int n = sp->n;
    lcps_problem *p = make(sp);
    how hw = {"pivot", 1e-13, 0, 0, 0, 0, -1, NULL, 0};
    lcps_result r;
    memset(&r, 0, sizeof r);
    CHECK(p && solve(p, &hw, NULL, &r) == 0);
    lcps_diff *d = NULL;
    char err[512];
    CHECK(lcps_diff_new(p, NULL, &r, &d, err, sizeof err) == 0 && d);
    if (!d) {
        lcps_result_free(&r), lcps_problem_free(p);
        return;
    }
    CHECK(lcps_diff_len(d, "lo") == n && lcps_diff_len(d, "hi") == n && lcps_diff_minimum_norm(d) == 0);
    int nmu = lcps_diff_len(d, "mu");
    long na = lcps_diff_len(d, "A");
    double *dlo = calloc((size_t)n, sizeof *dlo), *dhi = calloc((size_t)n, sizeof *dhi), *db = malloc((size_t)n * sizeof *db);
    double *dmu = calloc((size_t)n, sizeof *dmu), *dx = malloc((size_t)n * sizeof *dx), *dx0 = malloc((size_t)n * sizeof *dx0);
    double *xp = malloc((size_t)n * sizeof *xp), *xm = malloc((size_t)n * sizeof *xm);
    int held = 0;
    for (int i = 0; i < n; i++) {
        if (isfinite(sp->lo[i])) dlo[i] = 0.5 * urand();
        if (isfinite(sp->hi[i])) dhi[i] = 0.5 * urand();
        if (sp->lo[i] + 0.5 > sp->hi[i] - 0.5) dhi[i] = dlo[i]; /* a narrow box stays a box */
        db[i] = 0.3 * urand();
        if (nmu && sp->findex[i] >= 0) dmu[i] = 0.2 * urand();
        held += r.x[i] == sp->lo[i] || r.x[i] == sp->hi[i];
    }
    CHECK(held > 0); /* rows at a bound: the bounds move the solution */
    CHECK(lcps_jvp_bounds(d, NULL, db, nmu ? dmu : NULL, dlo, dhi, dx, err, sizeof err) == 0);
    double h = 1e-6;
    int ok = !solve_bounds(sp, dlo, dhi, db, dmu, h, xp) && !solve_bounds(sp, dlo, dhi, db, dmu, -h, xm);
    CHECK(ok);
    double e = 0;
    for (int i = 0; ok && i < n; i++) e = fmax(e, fabs((xp[i] - xm[i]) / (2 * h) - dx[i]));
    double rel = e / fmax(norm_inf(dx, n), 1e-300);
    if (!(rel <= 1e-6)) fprintf(stderr, "%s: finite differences differ by %.3g relative\n", name, rel);
    CHECK(rel <= 1e-6);
    /* the bounds' share: the JVP without them differs */
    CHECK(lcps_jvp(d, NULL, db, nmu ? dmu : NULL, dx0, err, sizeof err) == 0);
    double moved = 0;
    for (int i = 0; i < n; i++) moved = fmax(moved, fabs(dx[i] - dx0[i]));
    CHECK(moved > 1e-3);
    /* the dot-product test, every variable */
    double *g = malloc((size_t)n * sizeof *g), *gA = malloc((size_t)(na + 1) * sizeof *gA), *gb = malloc((size_t)n * sizeof *gb);
    double *gmu = calloc((size_t)n, sizeof *gmu), *glo = malloc((size_t)n * sizeof *glo), *ghi = malloc((size_t)n * sizeof *ghi);
    double *dA = malloc((size_t)(na + 1) * sizeof *dA), *gb2 = malloc((size_t)n * sizeof *gb2);
    for (int i = 0; i < n; i++) g[i] = urand();
    for (long k = 0; k < na; k++) dA[k] = urand();
    CHECK(lcps_jvp_bounds(d, dA, db, nmu ? dmu : NULL, dlo, dhi, dx, err, sizeof err) == 0);
    CHECK(lcps_vjp_bounds(d, g, gA, gb, nmu ? gmu : NULL, glo, ghi, err, sizeof err) == 0);
    double lhs = dot(g, dx, n);
    double rhs = dot(gA, dA, (int)na) + dot(gb, db, n) + dot(gmu, dmu, nmu) + dot(glo, dlo, n) + dot(ghi, dhi, n);
    double scale = sqrt(dot(g, g, n) * dot(dx, dx, n));
    CHECK(fabs(lhs - rhs) <= 1e-10 * scale);
    CHECK(norm_inf(glo, n) + norm_inf(ghi, n) > 0);
    for (int i = 0; i < n; i++) /* no gradient where the bound is not the row's */
        CHECK((glo[i] == 0 || r.x[i] == sp->lo[i]) && (ghi[i] == 0 || r.x[i] == sp->hi[i]));
    /* lcps_vjp is lcps_vjp_bounds less the bounds */
    CHECK(lcps_vjp(d, g, NULL, gb2, NULL, err, sizeof err) == 0);
    double diff = 0;
    for (int i = 0; i < n; i++) diff = fmax(diff, fabs(gb[i] - gb2[i]));
    CHECK(diff == 0.0);
    printf("%-34s n %5d  held %3d  fd rel %.1e  dot %.1e\n", name, n, held, rel, fabs(lhs - rhs) / scale);
    free(dlo), free(dhi), free(db), free(dmu), free(dx), free(dx0), free(xp), free(xm);
    free(g), free(gA), free(gb), free(gmu), free(glo), free(ghi), free(dA), free(gb2);
    lcps_diff_free(d);
    lcps_result_free(&r);
    lcps_problem_free(p);
}

static void test_blcp_bounds(void)
{
    spec sp;
    int n = 36;
    random_spd(&sp, "blcp", n, 0.5);
    sp.lo = malloc((size_t)n * sizeof(double));
    sp.hi = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) { /* boxes of both signs, one-sided rows, a free row */
        int r = i % 4;
        sp.lo[i] = r == 0 ? -0.3 : r == 1 ? 0.1 : r == 2 ? -INFINITY : -1.0;
        sp.hi[i] = r == 0 ? 0.4 : r == 1 ? INFINITY : r == 2 ? 0.2 : -0.5;
        sp.b[i] *= 3.0;
    }
    check_bounds("blcp bounds 36", &sp);
    /* findex: normals [lo, inf), tangents -+mu x_normal; dlo moves the normals held, dmu the tangents */
    sp.findex = malloc((size_t)n * sizeof(int));
    sp.mu = malloc((size_t)n * sizeof(double));
    sp.nmu = n;
    for (int i = 0; i < n; i++) {
        sp.findex[i] = i % 3 ? i - i % 3 : -1;
        sp.mu[i] = i % 3 ? 0.3 + 0.1 * (i % 5) : 0.0;
        sp.lo[i] = i % 3 ? 0.0 : 0.05 + 0.05 * (i % 2); /* normals held at lo stay > 0: |x_n| smooth */
        sp.hi[i] = i % 3 ? 0.0 : INFINITY;
        sp.b[i] = i % 3 ? 2.0 * urand() : -fabs(urand()) * (i % 2 ? 1.0 : -1.0);
    }
    check_bounds("blcp findex bounds 36", &sp);
    /* another kind: no bounds */
    lcps_problem *p = NULL;
    char err[512];
    spec sl;
    random_spd(&sl, "lcp", 5, 0.5);
    p = make(&sl);
    lcps_result r;
    memset(&r, 0, sizeof r);
    lcps_diff *d = NULL;
    CHECK(lcps_solve(p, NULL, NULL, &r, err, sizeof err) == 0);
    CHECK(lcps_diff_new(p, NULL, &r, &d, err, sizeof err) == 0);
    double v[5] = {1, 1, 1, 1, 1}, out[5], glo[5] = {7};
    CHECK(lcps_diff_len(d, "lo") == 0);
    CHECK(lcps_jvp_bounds(d, NULL, NULL, NULL, v, NULL, out, err, sizeof err) == 2 && strstr(err, "blcp"));
    CHECK(lcps_vjp_bounds(d, v, NULL, out, NULL, glo, NULL, err, sizeof err) == 0 && norm_inf(glo, 5) == 0.0);
    lcps_diff_free(d);
    lcps_result_free(&r);
    lcps_problem_free(p);
    spec_free(&sl);
    spec_free(&sp);
}

/* ---- singular Jacobians: the minimum-norm derivative --------------------- */

/* A problem whose solution is not unique (redundant contacts), at its
 * solution (planted: that one, else hw's solver's): a handle with a null
 * space; the JVP of w = A x + b (unique where A = J M^-1 J') along db = A y
 * (a change the problem stays solvable under, as b = J v) against central
 * differences of re-solved problems (hw->h > 0: where the solution is
 * strictly complementary, w moving), and the dot-product test along any
 * direction. */
static void check_singular(const char *name, const spec *sp, const how *hw, const double *planted)
{
    unsigned long long rng0 = rng; /* the later checks' random directions as without this one */
    lcps_problem *p = make(sp);
    lcps_result r;
    memset(&r, 0, sizeof r);
    if (planted) {
        r.n = sp->n, r.x = malloc((size_t)sp->n * sizeof(double));
        memcpy(r.x, planted, (size_t)sp->n * sizeof(double));
    } else {
        CHECK(p && solve(p, hw, NULL, &r) == 0);
    }
    lcps_diff *d = NULL;
    char err[512];
    int rc = lcps_diff_new(p, NULL, &r, &d, err, sizeof err);
    if (rc) fprintf(stderr, "%s: %s\n", name, err);
    CHECK(rc == 0 && d);
    if (!d) {
        lcps_result_free(&r), lcps_problem_free(p);
        return;
    }
    int null = lcps_diff_minimum_norm(d);
    CHECK(null > 0);
    const lcp_problem *lp = lcp_api_problem(p, NULL, NULL, &(lcp_err){{0}});
    int n = lp->n, nmu = lcps_diff_len(d, "mu");
    double *y = malloc((size_t)n * sizeof *y), *db = malloc((size_t)n * sizeof *db), *dx = malloc((size_t)n * sizeof *dx);
    double *dw = malloc((size_t)n * sizeof *dw), *wp = malloc((size_t)n * sizeof *wp), *wm = malloc((size_t)n * sizeof *wm);
    double *xp = malloc((size_t)n * sizeof *xp), *zero = calloc((size_t)n + 1, sizeof *zero);
    for (int i = 0; i < n; i++) y[i] = urand();
    lcp_csr_matvec(&lp->A, y, db);
    CHECK(lcps_jvp(d, NULL, db, NULL, dx, err, sizeof err) == 0);
    lcp_csr_matvec(&lp->A, dx, dw);
    for (int i = 0; i < n; i++) dw[i] += db[i];
    double h = hw->h, rel = 0;
    int ok = 1;
    for (int side = 0; h > 0 && side < 2 && ok; side++) {
        ok = !perturbed(sp, hw, lp->A.x, lp->b, lp->mu, NULL, db, zero, lcp_csr_nnz(&lp->A), n, nmu, side ? -h : h,
                        r.x, xp);
        double *w = side ? wm : wp;
        lcp_csr_matvec(&lp->A, xp, w);
        for (int i = 0; i < n; i++) w[i] += lp->b[i] + (side ? -h : h) * db[i];
    }
    CHECK(ok);
    double e = 0;
    for (int i = 0; h > 0 && ok && i < n; i++) e = fmax(e, fabs((wp[i] - wm[i]) / (2 * h) - dw[i]));
    if (h > 0) rel = e / fmax(norm_inf(dw, n), 1e-300);
    if (!(rel <= hw->rel)) fprintf(stderr, "%s: w's finite differences differ by %.3g relative\n", name, rel);
    CHECK(rel <= hw->rel);
    if (h > 0) CHECK(norm_inf(dw, n) > 0);
    /* the dot-product test along any (dA, db, dmu) */
    long na = lcp_csr_nnz(&lp->A);
    double *dA = malloc((size_t)(na + 1) * sizeof *dA), *gA = malloc((size_t)(na + 1) * sizeof *gA);
    double *g = malloc((size_t)n * sizeof *g), *gb = malloc((size_t)n * sizeof *gb);
    double *dmu = malloc((size_t)(nmu + 1) * sizeof *dmu), *gmu = malloc((size_t)(nmu + 1) * sizeof *gmu);
    for (long k = 0; k < na; k++) dA[k] = urand();
    for (int i = 0; i < n; i++) db[i] = urand(), g[i] = urand();
    for (int c = 0; c < nmu; c++) dmu[c] = urand();
    CHECK(lcps_jvp(d, dA, db, nmu ? dmu : NULL, dx, err, sizeof err) == 0);
    CHECK(lcps_vjp(d, g, gA, gb, nmu ? gmu : NULL, err, sizeof err) == 0);
    double lhs = dot(g, dx, n), rhs = dot(gA, dA, (int)na) + dot(gb, db, n) + dot(gmu, dmu, nmu);
    double scale = sqrt(dot(g, g, n) * dot(dx, dx, n));
    CHECK(fabs(lhs - rhs) <= 1e-10 * scale);
    printf("%-34s n %5d  null space %4d  w fd rel %.1e  dot %.1e  %s\n", name, n, null, rel, fabs(lhs - rhs) / scale,
           lcp_diff_method(lcp_diff_of(d)));
    free(y), free(db), free(dx), free(dw), free(wp), free(wm), free(xp), free(zero);
    free(dA), free(gA), free(g), free(gb), free(dmu), free(gmu);
    lcps_diff_free(d);
    if (planted) free(r.x), r.x = NULL;
    lcps_result_free(&r);
    lcps_problem_free(p);
    rng = rng0;
}

/* Redundant contacts in an lcp: a random SPD problem of m rows with a
 * planted strictly complementary solution, rows 3k (active) duplicated
 * (A's row and column, b's entry): A is singular, the solution's force
 * on a duplicated row is any split between the copies; the copies' halves
 * planted. */
static void test_duplicated_rows(void)
{
    spec base;
    int m = 24, extra = 8, n = m + extra;
    random_spd(&base, "lcp", m, 0.5);
    plant_solution(&base, NULL, 0);
    double *x0 = malloc((size_t)m * sizeof *x0); /* the planted x: solve the base exactly */
    {
        lcps_problem *p = make(&base);
        lcps_result r;
        memset(&r, 0, sizeof r);
        CHECK(p && solve(p, &EXACT_LCP, NULL, &r) == 0);
        memcpy(x0, r.x, (size_t)m * sizeof *x0);
        lcps_result_free(&r);
        lcps_problem_free(p);
    }
    int *src = malloc((size_t)n * sizeof *src);
    for (int i = 0; i < m; i++) src[i] = i;
    for (int k = 0; k < extra; k++) src[m + k] = 3 * k; /* copies of active rows 0, 3, ... */
    spec sp;
    memset(&sp, 0, sizeof sp);
    sp.kind = "lcp", sp.n = n;
    sp.rp = malloc((size_t)(n + 1) * sizeof(int));
    sp.cj = malloc((size_t)n * n * sizeof(int));
    sp.vx = malloc((size_t)n * n * sizeof(double));
    sp.b = malloc((size_t)n * sizeof(double));
    for (int i = 0; i <= n; i++) sp.rp[i] = i * n;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) sp.cj[i * n + j] = j, sp.vx[i * n + j] = base.vx[src[i] * m + src[j]];
        sp.b[i] = base.b[src[i]];
    }
    double *x = malloc((size_t)n * sizeof *x);
    for (int i = 0; i < m; i++) x[i] = x0[i];
    for (int k = 0; k < extra; k++) x[3 * k] = x[m + k] = 0.5 * x0[3 * k];
    CHECK(x0[0] > 0 && x0[3 * (extra - 1)] > 0);
    check_singular("lcp duplicated rows (singular)", &sp, &EXACT_LCP, x);
    free(x0), free(src), free(x);
    spec_free(&sp);
    spec_free(&base);
}

/* Redundant contacts in a ccp: a random problem's sticking contact copied
 * (its 3 rows and columns of A, its q and mu), the force split in halves:
 * the symmetric reduction's M is singular, its sparse pseudo-inverse
 * takes over; w's derivative against differences. */
static void test_duplicated_contact_ccp(void)
{
    spec base;
    random_friction(&base, "ccp", 8);
    lcps_problem *p0 = make(&base);
    how hw = {"nsn", 1e-14, 0, 1e-6, 1e-5, 0, -1, NULL, 0};
    lcps_result r0;
    memset(&r0, 0, sizeof r0);
    CHECK(p0 && solve(p0, &hw, NULL, &r0) == 0);
    int m = base.n, n = m + 3, dup = -1;
    for (int c = 0; c < m / 3 && dup < 0; c++) { /* a sticking contact: r strictly inside its cone */
        const double *rc = r0.x + 3 * c;
        if (rc[0] > 1e-3 && sqrt(rc[1] * rc[1] + rc[2] * rc[2]) < 0.9 * base.mu[c] * rc[0]) dup = c;
    }
    CHECK(dup >= 0);
    if (dup < 0) {
        lcps_result_free(&r0), lcps_problem_free(p0), spec_free(&base);
        return;
    }
    int *src = malloc((size_t)n * sizeof *src);
    for (int i = 0; i < m; i++) src[i] = i;
    for (int k = 0; k < 3; k++) src[m + k] = 3 * dup + k;
    spec sp;
    memset(&sp, 0, sizeof sp);
    sp.kind = "ccp", sp.n = n, sp.nmu = n / 3;
    sp.rp = malloc((size_t)(n + 1) * sizeof(int));
    sp.cj = malloc((size_t)n * n * sizeof(int));
    sp.vx = malloc((size_t)n * n * sizeof(double));
    sp.b = malloc((size_t)n * sizeof(double));
    sp.mu = malloc((size_t)sp.nmu * sizeof(double));
    for (int i = 0; i <= n; i++) sp.rp[i] = i * n;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) sp.cj[i * n + j] = j, sp.vx[i * n + j] = base.vx[src[i] * m + src[j]];
        sp.b[i] = base.b[src[i]];
    }
    for (int c = 0; c < sp.nmu; c++) sp.mu[c] = base.mu[src[3 * c] / 3];
    double *x = malloc((size_t)n * sizeof *x);
    memcpy(x, r0.x, (size_t)m * sizeof *x);
    for (int k = 0; k < 3; k++) x[3 * dup + k] = x[m + k] = 0.5 * r0.x[3 * dup + k];
    check_singular("ccp duplicated contact (singular)", &sp, &hw, x);
    free(src), free(x);
    lcps_result_free(&r0);
    lcps_problem_free(p0);
    spec_free(&sp);
    spec_free(&base);
}

/* The minimum norm by construction: two copies of one contact (a
 * duplicated row and column of A): the derivative splits the force
 * equally between them. */
static void test_minimum_norm_split(void)
{
    /* A = [2 2 1; 2 2 1; 1 1 3], b = (-2, -2, -0.5): rows 0 and 1 the same contact */
    int rp[] = {0, 3, 6, 9}, cj[] = {0, 1, 2, 0, 1, 2, 0, 1, 2};
    double vx[] = {2, 2, 1, 2, 2, 1, 1, 1, 3}, b[] = {-2, -2, -0.5};
    lcps_problem *p = NULL;
    char err[512];
    CHECK(lcps_problem_csr("lcp", 3, rp, cj, vx, b, &p, err, sizeof err) == 0);
    double x[3] = {0.75, 0.25, 0.0}; /* x0 + x1 = 1, x2 = 0: w = (0, 0, 0.5) */
    lcps_result r;
    memset(&r, 0, sizeof r);
    r.n = 3, r.x = x;
    lcps_diff *d = NULL;
    CHECK(lcps_diff_new(p, NULL, &r, &d, err, sizeof err) == 0 && d);
    CHECK(lcps_diff_minimum_norm(d) == 1);
    double db[3] = {-1, -1, 0}, dx[3];
    CHECK(lcps_jvp(d, NULL, db, NULL, dx, err, sizeof err) == 0);
    /* 2 (dx0 + dx1) = 1, dx0 = dx1 (minimal norm), x2 stays 0 */
    CHECK_NEAR(dx[0], 0.25, 1e-12);
    CHECK_NEAR(dx[1], 0.25, 1e-12);
    CHECK_NEAR(dx[2], 0.0, 1e-12);
    lcps_diff_free(d);
    lcps_problem_free(p);
}

/* ccp with a symmetric A takes the symmetric reduction (a Cholesky of M;
 * its JVP and VJP are checked against finite differences and the
 * dot-product test by check_problem): here the method named, sliding and
 * sticking contacts present, and each contact's T diag(D) T' equal to the
 * cone projection's Jacobian P'. */
static void test_ccp_reduction(void)
{
    spec sp;
    random_friction(&sp, "ccp", 12);
    lcps_problem *p = make(&sp);
    how hw = {"nsn", 1e-14, 0, 1e-6, 1e-6, 0, 0, NULL, 0};
    lcps_result r;
    memset(&r, 0, sizeof r);
    CHECK(p && solve(p, &hw, NULL, &r) == 0);
    lcps_diff *h = NULL;
    char err[512];
    CHECK(lcps_diff_new(p, NULL, &r, &h, err, sizeof err) == 0 && h);
    if (!h) return;
    const lcp_diff *d = lcp_diff_of(h);
    CHECK(strstr(lcp_diff_method(d), "symmetric reduction") != NULL);
    int pieces[3] = {0, 0, 0};
    for (int c = 0; c < d->nc; c++) {
        const double *D = d->D + 3 * c;
        pieces[D[0] == 0 ? 0 : D[2] == 0 ? 1 : 2]++;
    }
    printf("ccp reduction: %d polar, %d surface, %d interior contacts\n", pieces[0], pieces[1], pieces[2]);
    CHECK(pieces[1] > 0 && pieces[2] > 0); /* sliding and sticking (separated: "ccp planted") */
    /* P' = T diag(D) T' against the cone projection's Jacobian, each contact */
    double worst = 0;
    for (int c = 0; c < d->nc; c++) {
        const double *u = d->w + 3 * c, *x = d->x + 3 * c, *T = d->T + 9 * c, *D = d->D + 3 * c;
        double z[3] = {x[0] - u[0], x[1] - u[1], x[2] - u[2]}, Jp[9], Pmu[3];
        int deg;
        lcp_diff_cone_jacobian(sp.mu[c], z, 1e-7 * fmax(1.0, norm_inf(sp.b, sp.n)), Jp, Pmu, &deg);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                double v = 0;
                for (int k = 0; k < 3; k++) v += T[3 * k + a] * D[k] * T[3 * k + b];
                worst = fmax(worst, fabs(v - Jp[3 * a + b]));
            }
    }
    CHECK(worst <= 1e-14);
    lcps_diff_free(h);
    lcps_result_free(&r);
    lcps_problem_free(p);
    /* with "reg": the reduction of A + reg I (the diagonal of M and the
     * products with A) gives the derivative of the problem with reg added
     * to A's diagonal, at that problem's solution */
    double eps = 1e-2;
    spec ss = sp;
    ss.vx = malloc((size_t)sp.n * sp.n * sizeof(double));
    for (int i = 0; i < sp.n; i++)
        for (int j = 0; j < sp.n; j++) ss.vx[i * sp.n + j] = sp.vx[i * sp.n + j] + (i == j ? eps : 0.0);
    lcps_problem *ps = make(&ss), *p0 = make(&sp);
    memset(&r, 0, sizeof r);
    CHECK(ps && p0 && solve(ps, &hw, NULL, &r) == 0);
    lcps_settings *sr = lcps_settings_new();
    lcps_settings_set(sr, "reg", "0.01", NULL, 0);
    lcps_diff *hs = NULL, *hreg = NULL;
    CHECK(lcps_diff_new(ps, NULL, &r, &hs, err, sizeof err) == 0);
    CHECK(lcps_diff_new(p0, sr, &r, &hreg, err, sizeof err) == 0);
    if (hs && hreg) {
        CHECK(strstr(lcp_diff_method(lcp_diff_of(hreg)), "symmetric reduction") != NULL);
        double db[36], g[36], d1[36], d2[36], g1[36], g2[36], e = 0, eg = 0;
        for (int i = 0; i < 36; i++) db[i] = urand(), g[i] = urand();
        CHECK(lcps_jvp(hs, NULL, db, NULL, d1, err, sizeof err) == 0 && lcps_jvp(hreg, NULL, db, NULL, d2, err, sizeof err) == 0);
        CHECK(lcps_vjp(hs, g, NULL, g1, NULL, err, sizeof err) == 0 && lcps_vjp(hreg, g, NULL, g2, NULL, err, sizeof err) == 0);
        for (int i = 0; i < 36; i++) e = fmax(e, fabs(d1[i] - d2[i])), eg = fmax(eg, fabs(g1[i] - g2[i]));
        CHECK(e <= 1e-12 * norm_inf(d1, 36) && eg <= 1e-12 * norm_inf(g1, 36) && norm_inf(d1, 36) > 0);
    }
    lcps_diff_free(hs), lcps_diff_free(hreg);
    lcps_settings_free(sr);
    lcps_result_free(&r);
    lcps_problem_free(ps), lcps_problem_free(p0);
    free(ss.vx);
    spec_free(&sp);
}

static void test_bad_arguments(void)
{
    spec sp;
    random_spd(&sp, "lcp", 6, 0.5);
    lcps_problem *p = make(&sp);
    lcps_result r;
    memset(&r, 0, sizeof r);
    lcps_diff *d = (lcps_diff *)1;
    char err[512];
    CHECK(lcps_diff_new(p, NULL, NULL, &d, err, sizeof err) == 2 && !d);
    lcps_settings *s = lcps_settings_new();
    lcps_settings_set(s, "solver", "pgs", NULL, 0);
    lcps_settings_set(s, "max-iter", "1", NULL, 0);
    lcps_settings_set(s, "tol", "1e-15", NULL, 0);
    lcps_solve(p, s, NULL, &r, err, sizeof err);
    CHECK(lcps_diff_new(p, NULL, &r, &d, err, sizeof err) == 2 && strstr(err, "not a solution"));
    lcps_result_free(&r);
    lcps_settings_free(s);
    CHECK(lcps_solve(p, NULL, NULL, &r, err, sizeof err) == 0);
    CHECK(lcps_diff_new(p, NULL, &r, &d, err, sizeof err) == 0 && d);
    double g[6] = {1, 0, 0, 0, 0, 0}, out[6];
    CHECK(lcps_vjp(d, NULL, NULL, out, NULL, err, sizeof err) == 2);
    CHECK(lcps_jvp(d, NULL, NULL, NULL, NULL, err, sizeof err) == 2);
    CHECK(lcps_jvp_factored(d, NULL, NULL, g, NULL, NULL, out, err, sizeof err) == 2 && strstr(err, "factored"));
    CHECK(lcps_diff_len(d, "nope") == -1 && lcps_diff_len(d, "M") == 0 && lcps_diff_len(d, "A") == 36);
    CHECK(lcps_jvp(d, NULL, NULL, NULL, out, err, sizeof err) == 0 && norm_inf(out, 6) == 0.0); /* no direction: 0 */
    lcps_diff_free(d);
    lcps_diff_free(NULL);
    lcps_result_free(&r);
    lcps_problem_free(p);
    spec_free(&sp);
}

int main(void)
{
    test_cone_jacobian();
    test_bad_arguments();
    test_lcp();
    test_blcp();
    test_friction();
    test_factored();
    test_scenes();
    test_siconos();
    test_blcp_bounds();
    test_minimum_norm_split();
    test_duplicated_rows();
    test_ccp_reduction();
    test_duplicated_contact_ccp();
    CHECK_DONE();
}
