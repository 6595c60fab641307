/* src/scenes/simulation.c: the rigid-sphere simulation of `lcpsolve
 * generate sequence` (velocity-level time stepping, as in Anitescu-Potra /
 * Stewart-Trinkle and the engines): each step
 *   1. detects the contacts: sphere pairs and sphere/ground (and, for
 *      granular, sphere/wall) pairs whose gap is below a margin (0.25 r),
 *   2. forms M (6x6 a body), J (1 normal row, or normal + 2 tangent rows a
 *      contact), v = u + dt M^-1 f_ext (gravity) and e (the gap term: gap/dt
 *      for an open gap, a speculative contact; 0.2 gap/dt for a
 *      penetration, Baumgarte), A = J M^-1 J', b = J v + e,
 *   3. (the command, src/cli/generate_sequence.c) writes the step's folder
 *      (the same files as `lcpsolve generate`, plus e.mtx and ids.mtx),
 *   4. solves it through the solver table (auto's pick, tolerance 1e-10:
 *      lcp, or nsgs for friction) and integrates: u = v + M^-1 J' lambda,
 *      x += dt u (symplectic Euler; spheres need no orientation).
 * Contact ids: the pair (a, b) of bodies, a < b, ground -1, walls -2..-5,
 * as id = (a + 8) * (nbodies + 8) + (b + 8): the same pair keeps its id in
 * every step it touches, so a contact that opens and closes again is
 * matched too.
 *
 * `lcpsolve sequence DIR` (src/cli/sequence.c) solves DIR/step-* in name
 * order, each started from the previous step's solution matched by id (new
 * contacts start at 0), scaled by --warm-factor and --dt-ratio, with the
 * --schedule rule (its parser is there too).
 */
#include "simulation.h"

#include "scenes.h" /* splitmix64 */
#include "../core/auto.h"
#include "../core/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the scene */

typedef struct {
    int a, b;      /* bodies: a < b; a < 0: ground (-1) or a wall (-2..-5) */
    double n[3];   /* unit normal from a into b */
    double p[3];   /* contact point */
    double gap;    /* signed distance (negative: penetration) */
} seq_contact;

const char *const lcp_seq_scene_names[3] = {"column", "pyramid", "granular"};

void lcp_seq_params_derive(lcp_seq_params *g)
{
    if (g->gap < 0) g->gap = 0.3 * g->radius;
    g->friction = g->mu >= 0;
    g->box[0] = g->box[1] = 2.0 * g->radius + (2.0 * g->radius + g->gap) * (double)(g->base - 1) +
                            1.5 * g->jitter * g->radius + 0.1 * g->radius;
}

int lcp_seq_build_scene(const lcp_seq_params *g, lcp_seq_sphere **out, int *nb)
{
    double r = g->radius;
    uint64_t rng = g->seed;
    long N;
    if (g->scene == 0) N = g->bodies;
    else if (g->scene == 1) N = g->base * (g->base + 1) / 2;
    else N = g->base * g->base * g->layers;
    lcp_seq_sphere *S = lcp_calloc((size_t)N, sizeof *S);
    if (!S) return LCP_ERROR;
    long k = 0;
    double sp = 2.0 * r + g->gap; /* centre spacing: touching plus the drop gap */
    if (g->scene == 0) {
        for (long i = 0; i < N; i++, k++) {
            S[k].m = g->mass * pow(g->mass_ratio, N > 1 ? (double)i / (double)(N - 1) : 0.0);
            S[k].x[0] = g->jitter * r * (2.0 * rng_uniform(&rng) - 1.0);
            S[k].x[1] = g->jitter * r * (2.0 * rng_uniform(&rng) - 1.0);
            S[k].x[2] = r + g->gap + sp * (double)i;
        }
    } else if (g->scene == 1) { /* a 2D triangle of spheres in the x-z plane */
        for (long row = 0; row < g->base; row++)
            for (long j = 0; j < g->base - row; j++, k++) {
                S[k].m = g->mass * pow(g->mass_ratio, g->base > 1 ? (double)row / (double)(g->base - 1) : 0.0);
                S[k].x[0] = ((double)j + 0.5 * (double)row) * sp + g->jitter * r * (2.0 * rng_uniform(&rng) - 1.0);
                S[k].x[1] = 0.0;
                S[k].x[2] = r + g->gap + sqrt(3.0) * 0.5 * sp * (double)row;
            }
    } else { /* granular: a jittered lattice falling into a box */
        for (long l = 0; l < g->layers; l++)
            for (long i = 0; i < g->base; i++)
                for (long j = 0; j < g->base; j++, k++) {
                    /* masses log-uniform in [m, m R] */
                    S[k].m = g->mass * pow(g->mass_ratio, rng_uniform(&rng));
                    S[k].x[0] = r + sp * (double)i + g->jitter * r * rng_uniform(&rng);
                    S[k].x[1] = r + sp * (double)j + g->jitter * r * rng_uniform(&rng);
                    S[k].x[2] = r + g->gap + sp * (double)l + 0.5 * sp * (double)(l % 2);
                }
    }
    for (long q = 0; q < N; q++) S[q].I = 0.4 * S[q].m * r * r;
    *out = S;
    *nb = (int)N;
    return 0;
}

/* ------------------------------------------------------------ a time step */

static int push_contact(seq_contact **c, int *nc, int *cap, const seq_contact *x)
{
    if (*nc == *cap) {
        int nk = *cap ? 2 * *cap : 256;
        seq_contact *t = realloc(*c, (size_t)nk * sizeof *t);
        if (!t) return LCP_ERROR;
        *c = t;
        *cap = nk;
    }
    (*c)[(*nc)++] = *x;
    return 0;
}

typedef struct {
    int k;
    double x;
} xkey;
static int cmp_xkey(const void *a, const void *b)
{
    double d = ((const xkey *)a)->x - ((const xkey *)b)->x;
    return d < 0 ? -1 : d > 0 ? 1 : ((const xkey *)a)->k - ((const xkey *)b)->k;
}
static int cmp_contact(const void *a, const void *b)
{
    const seq_contact *p = a, *q = b;
    return p->a != q->a ? (p->a < q->a ? -1 : 1) : (p->b < q->b ? -1 : p->b > q->b);
}

typedef struct {
    int id;
    double gap, n[3];
} wall;

/* Contacts with a gap below margin: sweep and prune along x, then sorted by
 * (a, b) so the order does not depend on the positions. */
static int detect(const lcp_seq_params *g, const lcp_seq_sphere *S, int nb, seq_contact **out, int *ncout)
{
    double r = g->radius, margin = 0.25 * r;
    seq_contact *c = NULL, t;
    int nc = 0, cap = 0;
    xkey *ord = lcp_alloc((size_t)(nb > 0 ? nb : 1), sizeof *ord);
    if (!ord) return LCP_ERROR;
    for (int k = 0; k < nb; k++) ord[k] = (xkey){k, S[k].x[0]};
    qsort(ord, (size_t)nb, sizeof *ord, cmp_xkey);
    for (int q = 0; q < nb; q++) {
        int i = ord[q].k;
        for (int s = q + 1; s < nb && ord[s].x - ord[q].x < 2.0 * r + margin; s++) {
            int j = ord[s].k;
            double d[3] = {S[j].x[0] - S[i].x[0], S[j].x[1] - S[i].x[1], S[j].x[2] - S[i].x[2]};
            double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (len - 2.0 * r >= margin || len < 1e-12 * r) continue;
            int a = i < j ? i : j, b = i < j ? j : i;
            double sg = a == i ? 1.0 : -1.0;
            t.a = a;
            t.b = b;
            for (int e = 0; e < 3; e++) {
                t.n[e] = sg * d[e] / len;
                t.p[e] = S[a].x[e] + r * t.n[e];
            }
            t.gap = len - 2.0 * r;
            if (push_contact(&c, &nc, &cap, &t)) goto fail;
        }
    }
    for (int k = 0; k < nb; k++) {
        /* ground (-1): normal +z; granular walls -2 (x = 0), -3 (x = L), -4 (y = 0), -5 (y = L) */
        wall w[5] = {{-1, S[k].x[2] - r, {0, 0, 1}}};
        int nw = 1;
        if (g->scene == 2) {
            w[nw++] = (wall){-2, S[k].x[0] - r, {1, 0, 0}};
            w[nw++] = (wall){-3, g->box[0] - S[k].x[0] - r, {-1, 0, 0}};
            w[nw++] = (wall){-4, S[k].x[1] - r, {0, 1, 0}};
            w[nw++] = (wall){-5, g->box[1] - S[k].x[1] - r, {0, -1, 0}};
        }
        for (int q = 0; q < nw; q++) {
            if (w[q].gap >= margin) continue;
            t.a = w[q].id;
            t.b = k;
            memcpy(t.n, w[q].n, sizeof t.n);
            for (int e = 0; e < 3; e++) t.p[e] = S[k].x[e] - r * t.n[e];
            t.gap = w[q].gap;
            if (push_contact(&c, &nc, &cap, &t)) goto fail;
        }
    }
    free(ord);
    if (nc > 1) qsort(c, (size_t)nc, sizeof *c, cmp_contact);
    *out = c;
    *ncout = nc;
    return 0;
fail:
    free(ord);
    free(c);
    return LCP_ERROR;
}

static void cross3(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* The contact frame of src/scenes/rigid.c: t1 the unit axis least aligned with
 * n made orthogonal to n, t2 = n x t1. */
static void frame(const double *n, double *t1, double *t2)
{
    int a = 0;
    for (int k = 1; k < 3; k++)
        if (fabs(n[k]) < fabs(n[a])) a = k;
    double e[3] = {0, 0, 0};
    e[a] = 1.0;
    for (int k = 0; k < 3; k++) t1[k] = e[k] - n[a] * n[k];
    double l = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
    for (int k = 0; k < 3; k++) t1[k] /= l;
    cross3(n, t1, t2);
}

/* A = J M^-1 J' into p->A, exactly symmetric: A(i,j) for j >= i, mirrored
 * (Jt = J', dinv the diagonal of M^-1; n rows).  0, or LCP_ERROR. */
static int form_A(lcp_problem *p, const lcp_csr *Jt, const double *dinv, int n)
{
    double *acc = lcp_calloc((size_t)(n > 0 ? n : 1), sizeof *acc);
    int *mark = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof *mark);
    int *cols = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof *cols);
    long cap = 64L * (n > 0 ? n : 1), na = 0;
    int *ai = lcp_alloc((size_t)cap, sizeof *ai), *aj = lcp_alloc((size_t)cap, sizeof *aj);
    double *ax = lcp_alloc((size_t)cap, sizeof *ax);
    int ok = acc && mark && cols && ai && aj && ax;
    for (int i = 0; ok && i < n; i++) mark[i] = -1;
    for (int i = 0; ok && i < n; i++) {
        int len = 0;
        for (int kk = p->J.p[i]; kk < p->J.p[i + 1]; kk++) {
            int col = p->J.j[kk];
            double xv = p->J.x[kk] * dinv[col];
            for (int q = Jt->p[col]; q < Jt->p[col + 1]; q++) {
                int j = Jt->j[q];
                if (j < i) continue;
                if (mark[j] != i) mark[j] = i, acc[j] = 0.0, cols[len++] = j;
                acc[j] += xv * Jt->x[q];
            }
        }
        if (na + 2L * len > cap) {
            long nk = 2 * cap + 2L * len;
            int *a1 = realloc(ai, (size_t)nk * sizeof *ai), *a2 = a1 ? realloc(aj, (size_t)nk * sizeof *aj) : NULL;
            double *a3 = a2 ? realloc(ax, (size_t)nk * sizeof *ax) : NULL;
            if (a1) ai = a1;
            if (a2) aj = a2;
            if (a3) ax = a3;
            if (!a3) ok = 0;
            cap = nk;
        }
        for (int q = 0; ok && q < len; q++) {
            int j = cols[q];
            if (acc[j] == 0.0 && j != i) continue;
            ai[na] = i, aj[na] = j, ax[na++] = acc[j];
            if (j != i) ai[na] = j, aj[na] = i, ax[na++] = acc[j];
        }
    }
    if (ok && lcp_csr_from_triplets(&p->A, n, n, na, ai, aj, ax)) ok = 0;
    free(acc);
    free(mark);
    free(cols);
    free(ai);
    free(aj);
    free(ax);
    return ok ? 0 : LCP_ERROR;
}

/* Builds one step's problem in p (kind, M, J, v, e, A, b, mu) from the
 * bodies and contacts; ids (nc) gets the contact ids. */
static int build_step(const lcp_seq_params *g, const lcp_seq_sphere *S, int nb, const seq_contact *C, int nc,
                      lcp_problem *p, double *ids)
{
    int rpc = g->friction ? 3 : 1, n = rpc * nc, nv = 6 * nb;
    long nzj = 12L * n;
    int rc = LCP_ERROR;
    lcp_csr Jt = {0};
    double *dinv = NULL;
    int *ti = NULL, *tj = NULL;
    double *tx = NULL;
    p->kind = !g->friction ? LCP_KIND_LCP : strcmp(g->kind, "ccp") ? LCP_KIND_FC3D : LCP_KIND_CCP;
    p->n = n;
    p->nc = g->friction ? nc : n;
    /* M: diagonal for spheres */
    if (lcp_csr_alloc(&p->M, nv, nv, nv)) goto done;
    for (int k = 0; k < nv; k++) {
        p->M.p[k + 1] = k + 1;
        p->M.j[k] = k;
        p->M.x[k] = k % 6 < 3 ? S[k / 6].m : S[k / 6].I;
    }
    /* J by triplets */
    ti = lcp_alloc((size_t)(nzj > 0 ? nzj : 1), sizeof *ti);
    tj = lcp_alloc((size_t)(nzj > 0 ? nzj : 1), sizeof *tj);
    tx = lcp_alloc((size_t)(nzj > 0 ? nzj : 1), sizeof *tx);
    p->v = lcp_alloc((size_t)nv, sizeof(double));
    p->e = lcp_calloc((size_t)(n > 0 ? n : 1), sizeof(double));
    p->b = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(double));
    dinv = lcp_alloc((size_t)nv, sizeof *dinv);
    if (!ti || !tj || !tx || !p->v || !p->e || !p->b || !dinv) goto done;
    long nz = 0;
    for (int i = 0; i < nc; i++) {
        double t1[3], t2[3];
        frame(C[i].n, t1, t2);
        const double *dirs[3] = {C[i].n, t1, t2};
        for (int q = 0; q < rpc; q++) {
            int row = rpc * i + q;
            const int who[2] = {C[i].a, C[i].b};
            for (int s = 0; s < 2; s++) {
                if (who[s] < 0) continue;
                double sg = s ? 1.0 : -1.0, arm[3], rxd[3];
                for (int e = 0; e < 3; e++) arm[e] = C[i].p[e] - S[who[s]].x[e];
                cross3(arm, dirs[q], rxd);
                for (int e = 0; e < 3; e++) {
                    if (dirs[q][e] != 0.0) ti[nz] = row, tj[nz] = 6 * who[s] + e, tx[nz++] = sg * dirs[q][e];
                    if (rxd[e] != 0.0) ti[nz] = row, tj[nz] = 6 * who[s] + 3 + e, tx[nz++] = sg * rxd[e];
                }
            }
        }
        /* the gap term: speculative for an open gap, Baumgarte for a penetration */
        p->e[rpc * i] = C[i].gap > 0 ? C[i].gap / g->dt : 0.2 * C[i].gap / g->dt;
        ids[i] = (double)(C[i].a + 8) * (double)(nb + 8) + (double)(C[i].b + 8);
    }
    if (lcp_csr_from_triplets(&p->J, n, nv, nz, ti, tj, tx)) goto done;
    for (int k = 0; k < nb; k++)
        for (int e = 0; e < 3; e++) {
            p->v[6 * k + e] = S[k].u[e] - (e == 2 ? g->dt * g->gravity : 0.0);
            p->v[6 * k + 3 + e] = S[k].w[e];
        }
    lcp_csr_matvec(&p->J, p->v, p->b);
    for (int i = 0; i < n; i++) p->b[i] += p->e[i];
    p->blen = n;
    p->vlen = nv;
    p->elen = n;
    /* A = J M^-1 J', exactly symmetric: A(i,j) for j >= i, mirrored */
    for (int k = 0; k < nv; k++) dinv[k] = 1.0 / p->M.x[k];
    if (lcp_csr_transpose(&p->J, &Jt)) goto done;
    if (form_A(p, &Jt, dinv, n)) goto done;
    if (g->friction) {
        p->mu = lcp_alloc((size_t)(nc > 0 ? nc : 1), sizeof(double));
        if (!p->mu) goto done;
        for (int i = 0; i < nc; i++) p->mu[i] = g->mu;
        p->nmu = nc;
    }
    rc = 0;
done:
    free(ti);
    free(tj);
    free(tx);
    free(dinv);
    lcp_csr_free(&Jt);
    return rc;
}

/* One solve of p by sv from zero, through the pipeline (the whole problem:
 * no decomposition): 0 or an error; the answer (or the best iterate) in x,
 * its residual in *res. */
static int solve_with(const lcp_problem *p, const lcp_solver *sv, const lcp_precond_type *pre, double *x, int *iters,
                      double *res, lcp_err *err)
{
    lcp_solve_opts o;
    lcp_solve_opts_default(&o);
    o.s.tol = 1e-10;
    o.s.max_iter = p->kind & LCP_KIND_FRICTION ? 20000 : 100000;
    o.s.time_limit = 60;
    o.s.precond = pre;
    o.solver = sv->name;
    o.precond = pre ? pre->name : "none";
    o.decompose = 0;
    lcp_solve_out out;
    int rc = lcp_pipeline_solve(p, &o, NULL, 0, NULL, &out, err);
    if (!rc) {
        memcpy(x, out.x, (size_t)p->n * sizeof *x);
        *res = isfinite(out.m.residual) ? out.m.residual : INFINITY;
        *iters = out.iterations;
    }
    lcp_solve_out_free(&out);
    return rc;
}

/* Solves the step's problem for the impulses: auto's pick at 1e-10; where
 * that falls short of 1e-8, nsgs (friction) or pivot / psor (lcp) from zero,
 * keeping the better answer.  0 or an error. */
static int step_solve(lcp_problem *p, double *x, int *iters, double *res, lcp_err *err)
{
    *iters = 0;
    *res = 0;
    if (p->n == 0) return 0;
    lcp_auto_choice ch;
    int rc = lcp_choose_auto(p, &ch, err);
    if (!rc) rc = solve_with(p, ch.solver, ch.precond, x, iters, res, err);
    if (rc || *res > 1e-8) {
        const char *alt = p->kind & LCP_KIND_FRICTION ? "nsgs" : p->n <= 4000 ? "pivot" : "psor";
        double *y = lcp_alloc((size_t)p->n, sizeof *y), r2 = INFINITY;
        int it2 = 0;
        if (!y) return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        if (!solve_with(p, lcp_solver_find(alt), NULL, y, &it2, &r2, err) && (rc || r2 < *res)) {
            memcpy(x, y, (size_t)p->n * sizeof *x);
            *res = r2;
            *iters = it2;
            rc = 0;
        }
        free(y);
    }
    return rc;
}

int lcp_seq_step_problem(const lcp_seq_params *g, const lcp_seq_sphere *S, int nb, lcp_problem *p, double **ids,
                         int *nc)
{
    seq_contact *C = NULL;
    int rc = 0;
    *nc = 0;
    if (detect(g, S, nb, &C, nc)) rc = LCP_ERROR;
    *ids = lcp_alloc((size_t)(*nc > 0 ? *nc : 1), sizeof **ids);
    if (!rc && (!*ids || build_step(g, S, nb, C, *nc, p, *ids))) rc = LCP_ERROR;
    free(C);
    return rc;
}

int lcp_seq_step_advance(const lcp_seq_params *g, lcp_seq_sphere *S, int nb, lcp_problem *p, double *res,
                         lcp_err *err)
{
    int it = 0, rc = 0;
    *res = 0;
    double *lam = lcp_calloc((size_t)(p->n > 0 ? p->n : 1), sizeof *lam);
    double *f = lcp_calloc((size_t)(6 * nb), sizeof *f);
    if (!lam || !f) rc = LCP_ERROR;
    if (!rc && (rc = step_solve(p, lam, &it, res, err)) == 0) {
        /* u = v + M^-1 J' lambda, then x += dt u */
        for (int i = 0; i < p->n; i++)
            for (int kk = p->J.p[i]; kk < p->J.p[i + 1]; kk++) f[p->J.j[kk]] += p->J.x[kk] * lam[i];
        for (int k = 0; k < nb; k++)
            for (int e = 0; e < 3; e++) {
                S[k].u[e] = p->v[6 * k + e] + f[6 * k + e] / S[k].m;
                S[k].w[e] = p->v[6 * k + 3 + e] + f[6 * k + 3 + e] / S[k].I;
                S[k].x[e] += g->dt * S[k].u[e];
            }
    }
    free(lam);
    free(f);
    return rc;
}
