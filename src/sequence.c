/* src/sequence.c: time-step sequences of contact problems.
 *
 * `lcpsolve generate sequence` runs a short simulation of rigid spheres
 * (velocity-level time stepping, as in Anitescu-Potra / Stewart-Trinkle and
 * the engines): each step
 *   1. detects the contacts: sphere pairs and sphere/ground (and, for
 *      granular, sphere/wall) pairs whose gap is below a margin (0.25 r),
 *   2. forms M (6x6 a body), J (1 normal row, or normal + 2 tangent rows a
 *      contact), v = u + dt M^-1 f_ext (gravity) and e (the gap term: gap/dt
 *      for an open gap, a speculative contact; 0.2 gap/dt for a
 *      penetration, Baumgarte), A = J M^-1 J', b = J v + e,
 *   3. writes the step's folder (the same files as `lcpsolve generate`, plus
 *      e.mtx and ids.mtx),
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
 * --schedule rule; --schedule's parser is here.
 */
#include "sequence.h"

#include "core/auto.h"
#include "core/pipeline.h"
#include "io/io.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROG "lcpsolve generate sequence"

/* ------------------------------------------------------------ schedule */

int lcp_schedule_parse(const char *spec, lcp_schedule *sch, lcp_err *err)
{
    memset(sch, 0, sizeof *sch);
    const char *s = spec;
    int kinds = 0; /* 1: caps seen, 2: tolerances seen */
    if (!*s) return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--schedule: empty (expected P:V,P:V,... e.g. 0:5,0.5:20)");
    while (*s) {
        char *end;
        if (sch->n == LCP_SCHEDULE_MAX)
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--schedule: more than %d entries", LCP_SCHEDULE_MAX);
        errno = 0;
        double at = strtod(s, &end);
        if (end == s || *end != ':' || errno || !(at >= 0 && at < 1))
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                            "--schedule: '%s': each entry is P:V with a progress fraction 0 <= P < 1", spec);
        const char *v = end + 1;
        errno = 0;
        double val = strtod(v, &end);
        if (end == v || (*end && *end != ',') || errno || !isfinite(val))
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--schedule: '%s': the value after '%.*s:' is not a number",
                            spec, (int)(v - 1 - s), s);
        int is_int = 1;
        for (const char *q = v; q < end; q++)
            if (*q < '0' || *q > '9') is_int = 0;
        if (is_int) {
            if (!(val >= 1 && val <= 2147483647.0))
                return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--schedule: '%s': an iteration cap must be >= 1", spec);
            kinds |= 1;
        } else {
            if (!(val > 0 && val < 1))
                return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                                "--schedule: '%s': a tolerance must be in (0, 1) (caps are whole numbers)", spec);
            kinds |= 2;
        }
        if (kinds == 3)
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                            "--schedule: '%s' mixes iteration caps and tolerances (use one kind)", spec);
        if (sch->n == 0 && at != 0)
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--schedule: '%s': the first entry must be at progress 0",
                            spec);
        if (sch->n > 0 && !(at > sch->at[sch->n - 1]))
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--schedule: '%s': progress fractions must increase", spec);
        sch->at[sch->n] = at;
        sch->value[sch->n] = val;
        sch->n++;
        s = *end ? end + 1 : end;
        if (*end == ',' && !*s)
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--schedule: '%s' ends with a comma", spec);
    }
    sch->is_tol = kinds == 2;
    return 0;
}

void lcp_schedule_apply(const lcp_schedule *sch, double f, lcp_settings *s)
{
    if (!sch || sch->n == 0) return;
    int k = 0;
    for (int q = 0; q < sch->n; q++)
        if (sch->at[q] <= f + 1e-12) k = q;
    if (sch->is_tol) s->tol = sch->value[k];
    else s->max_iter = (int)sch->value[k];
}

/* ------------------------------------------------------- random numbers */

static uint64_t rng_next(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static double rng_uniform(uint64_t *s) { return (double)(rng_next(s) >> 11) * 0x1.0p-53; }

/* ------------------------------------------------------------ the scene */

typedef struct {
    double m, I;            /* mass, moment of inertia (solid sphere: 2/5 m r^2) */
    double x[3], u[3], w[3]; /* position, linear and angular velocity */
} sphere;

typedef struct {
    int a, b;      /* bodies: a < b; a < 0: ground (-1) or a wall (-2..-5) */
    double n[3];   /* unit normal from a into b */
    double p[3];   /* contact point */
    double gap;    /* signed distance (negative: penetration) */
} seq_contact;

typedef struct {
    int scene; /* 0 column, 1 pyramid, 2 granular */
    long bodies, base, layers, steps;
    double radius, mass, mass_ratio, dt, gravity, mu, gap, jitter;
    int friction;
    const char *kind;
    uint64_t seed;
    const char *out;
    double box[2]; /* granular: walls at x = 0, box[0] and y = 0, box[1] */
} seq_params;

static const char *const scene_names[] = {"column", "pyramid", "granular"};

static int build_scene(const seq_params *g, sphere **out, int *nb)
{
    double r = g->radius;
    uint64_t rng = g->seed;
    long N;
    if (g->scene == 0) N = g->bodies;
    else if (g->scene == 1) N = g->base * (g->base + 1) / 2;
    else N = g->base * g->base * g->layers;
    sphere *S = lcp_calloc((size_t)N, sizeof *S);
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
static int detect(const seq_params *g, const sphere *S, int nb, seq_contact **out, int *ncout)
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

/* The contact frame of src/generate.c: t1 the unit axis least aligned with
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

/* Builds one step's problem in p (kind, M, J, v, e, A, b, mu) from the
 * bodies and contacts; ids (nc) gets the contact ids. */
static int build_step(const seq_params *g, const sphere *S, int nb, const seq_contact *C, int nc, lcp_problem *p,
                      double *ids)
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
    {
        double *acc = lcp_calloc((size_t)(n > 0 ? n : 1), sizeof *acc);
        int *mark = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof *mark), *cols = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof *cols);
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
                for (int q = Jt.p[col]; q < Jt.p[col + 1]; q++) {
                    int j = Jt.j[q];
                    if (j < i) continue;
                    if (mark[j] != i) mark[j] = i, acc[j] = 0.0, cols[len++] = j;
                    acc[j] += xv * Jt.x[q];
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
        if (!ok) goto done;
    }
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

static int write_step(const seq_params *g, const lcp_problem *p, const double *ids, int nc, int nb, long step,
                      const char *dir, lcp_err *err)
{
    char path[4200], note[256];
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return lcp_fail(err, LCP_INPUT_ERROR, dir, 0, "cannot create folder: %s", strerror(errno));
    static const char *const what[] = {"A = J M^-1 J'", "b = J v + e", "M = blockdiag(m I3, I I3)",
                                       "J, contact Jacobian", "v = u + dt M^-1 f_ext", "e, gap term"};
    const char *files[] = {"A.mtx", "b.mtx", "M.mtx", "J.mtx", "v.mtx", "e.mtx"};
    int rc = 0;
    for (int k = 0; k < 6 && !rc; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[k]);
        snprintf(note, sizeof note, "lcpsolve generate sequence %s, step %ld: %s", scene_names[g->scene], step,
                 what[k]);
        if (k == 0) rc = lcp_write_mtx_matrix(path, &p->A, note, err);
        else if (k == 1) rc = lcp_write_mtx_vector(path, p->b, p->n, note, err);
        else if (k == 2) rc = lcp_write_mtx_matrix(path, &p->M, note, err);
        else if (k == 3) rc = lcp_write_mtx_matrix(path, &p->J, note, err);
        else if (k == 4) rc = lcp_write_mtx_vector(path, p->v, 6 * nb, note, err);
        else rc = lcp_write_mtx_vector(path, p->e, p->n, note, err);
    }
    if (!rc && g->friction) {
        snprintf(path, sizeof path, "%s/mu.mtx", dir);
        rc = lcp_write_mtx_vector(path, p->mu, nc, "lcpsolve generate sequence: mu, one a contact", err);
    } else if (!rc) {
        snprintf(path, sizeof path, "%s/mu.mtx", dir);
        remove(path);
    }
    if (!rc) {
        snprintf(path, sizeof path, "%s/ids.mtx", dir);
        rc = lcp_write_mtx_vector(path, ids, nc,
                                  "lcpsolve generate sequence: contact ids, (a + 8) (bodies + 8) + (b + 8) of the "
                                  "pair a < b (ground -1, walls -2..-5)",
                                  err);
    }
    if (rc) return rc;
    cJSON *o = cJSON_CreateObject(), *par = cJSON_CreateObject();
    if (!o || !par) {
        cJSON_Delete(o);
        cJSON_Delete(par);
        return lcp_fail(err, LCP_ERROR, dir, 0, "out of memory");
    }
    cJSON_AddStringToObject(o, "kind", lcp_kind_name(p->kind));
    for (int k = 0; k < 6; k++) {
        char key[2] = {files[k][0], 0};
        cJSON_AddStringToObject(o, key, files[k]);
    }
    if (g->friction) cJSON_AddStringToObject(o, "mu", "mu.mtx");
    cJSON_AddStringToObject(o, "ids", "ids.mtx");
    cJSON_AddStringToObject(o, "scene", "sequence");
    cJSON_AddStringToObject(par, "sequence_scene", scene_names[g->scene]);
    cJSON_AddNumberToObject(par, "step", (double)step);
    cJSON_AddNumberToObject(par, "steps", (double)g->steps);
    cJSON_AddNumberToObject(par, "time", (double)step * g->dt);
    cJSON_AddNumberToObject(par, "dt", g->dt);
    cJSON_AddNumberToObject(par, "bodies", nb);
    cJSON_AddNumberToObject(par, "contacts", nc);
    cJSON_AddNumberToObject(par, "radius", g->radius);
    cJSON_AddNumberToObject(par, "mass", g->mass);
    cJSON_AddNumberToObject(par, "mass_ratio", g->mass_ratio);
    cJSON_AddNumberToObject(par, "gravity", g->gravity);
    if (g->friction) cJSON_AddNumberToObject(par, "mu", g->mu);
    cJSON_AddNumberToObject(par, "seed", (double)(g->seed & ((1ULL << 53) - 1)));
    cJSON_AddNumberToObject(par, "n", p->n);
    cJSON_AddItemToObject(o, "params", par);
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    if (!text) return lcp_fail(err, LCP_ERROR, dir, 0, "out of memory");
    snprintf(path, sizeof path, "%s/problem.json", dir);
    lcp_outfile of;
    if ((rc = lcp_outfile_open(&of, path, err))) {
        free(text);
        return rc;
    }
    fputs(text, of.fp);
    fputc('\n', of.fp);
    free(text);
    return lcp_outfile_commit(&of, err);
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
    lcp_auto_drop_probe(&ch); /* no budget here: the rules' pick, not a first try */
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

static void seq_help(FILE *f)
{
    fprintf(f,
            "Usage: lcpsolve generate sequence --scene column|pyramid|granular --steps K [OPTIONS] -o DIR\n"
            "\n"
            "A short simulation of rigid spheres (velocity-level time stepping): each step\n"
            "detects the contacts (gap below 0.25 radius; speculative for open gaps),\n"
            "writes DIR/step-NNNN (A b M J v e [mu] .mtx, problem.json, and ids.mtx: one\n"
            "id a contact, the pair of bodies, the same in every step the pair touches),\n"
            "solves the step through the solver table (auto, tolerance 1e-10) and moves\n"
            "the spheres with the impulses.  Solve the steps in order with\n"
            "`lcpsolve sequence DIR`.\n"
            "\n"
            "Scenes:\n"
            "  column    --bodies N spheres stacked, dropped from gaps, jittered sideways\n"
            "  pyramid   a 2D triangle of spheres, --base B in the bottom row\n"
            "  granular  B x B x L jittered spheres (--base, --layers) falling into a box\n"
            "\n"
            "Options:\n"
            "  --scene NAME     column, pyramid or granular (required)\n"
            "  --steps K        time steps (default 20, 1 to 100000)\n"
            "  --bodies N       column: spheres (default 10)\n"
            "  --base B         pyramid, granular: spheres along the base (default 5)\n"
            "  --layers L       granular: layers (default 3)\n"
            "  --radius R       sphere radius, m (default 0.1)\n"
            "  --mass M         mass of a sphere (the lightest), kg (default 1)\n"
            "  --mass-ratio R   column, pyramid: top / bottom mass (geometric by height);\n"
            "                   granular: masses log-uniform in [M, M R] (default 1)\n"
            "  --gap G          initial gap between neighbours, m (default 0.3 R: above the contact margin)\n"
            "  --jitter J       random sideways offsets, in radii (default 0.1)\n"
            "  --dt S           time step, s (default 0.01)\n"
            "  --gravity G      m/s^2 along -z (default 9.81)\n"
            "  --mu MU          Coulomb friction: 3 rows a contact (default none: lcp)\n"
            "  --kind KIND      fc3d (default) or ccp, with --mu\n"
            "  --seed S         random seed (default 1)\n"
            "  -o DIR           output folder (required)\n"
            "\nExit status: 0 written, 2 usage or input error, 5 out of memory or a failed step solve.\n");
}

enum { Q_SCENE = 300, Q_STEPS, Q_BODIES, Q_BASE, Q_LAYERS, Q_RADIUS, Q_MASS, Q_RATIO, Q_GAP, Q_JITTER, Q_DT,
       Q_GRAVITY, Q_MU, Q_KIND, Q_SEED };

static int useerr(const char *what, const char *val)
{
    fprintf(stderr, PROG ": %s '%s'\n", what, val);
    return 2;
}

static int num(const char *name, const char *val, double lo, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(val, &end);
    if (end == val || *end || errno || !isfinite(x) || x < lo) {
        fprintf(stderr, PROG ": --%s: '%s' is not a number >= %g\n", name, val, lo);
        return 2;
    }
    *out = x;
    return 0;
}

int lcp_sequence_generate_main(int argc, char **argv)
{
    static const struct option lo[] = {
        {"scene", 1, NULL, Q_SCENE},   {"steps", 1, NULL, Q_STEPS},     {"bodies", 1, NULL, Q_BODIES},
        {"base", 1, NULL, Q_BASE},     {"layers", 1, NULL, Q_LAYERS},   {"radius", 1, NULL, Q_RADIUS},
        {"mass", 1, NULL, Q_MASS},     {"mass-ratio", 1, NULL, Q_RATIO}, {"gap", 1, NULL, Q_GAP},
        {"jitter", 1, NULL, Q_JITTER}, {"dt", 1, NULL, Q_DT},           {"gravity", 1, NULL, Q_GRAVITY},
        {"mu", 1, NULL, Q_MU},         {"kind", 1, NULL, Q_KIND},       {"seed", 1, NULL, Q_SEED},
        {"output", 1, NULL, 'o'},      {"help", 0, NULL, 'h'},          {NULL, 0, NULL, 0}};
    seq_params g = {.scene = -1, .bodies = 10, .base = 5, .layers = 3, .steps = 20, .radius = 0.1, .mass = 1,
                    .mass_ratio = 1, .dt = 0.01, .gravity = 9.81, .mu = -1, .gap = -1, .jitter = 0.1,
                    .kind = "fc3d", .seed = 1};
    double x;
    int c, kind_given = 0;
    /* argv[0] "generate", argv[1] "sequence": options follow */
    optind = 2;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", lo, NULL)) != -1) {
        int rc = 0;
        switch (c) {
        case 'h': seq_help(stdout); return 0;
        case 'o': g.out = optarg; break;
        case Q_SCENE:
            g.scene = -1;
            for (int k = 0; k < 3; k++)
                if (!strcmp(optarg, scene_names[k])) g.scene = k;
            if (g.scene < 0) return useerr("--scene must be column, pyramid or granular, not", optarg);
            break;
        case Q_STEPS:
        case Q_BODIES:
        case Q_BASE:
        case Q_LAYERS:
            if ((rc = num(lo[c - Q_SCENE].name, optarg, 1, &x))) return rc;
            if (x != floor(x) || x > (c == Q_STEPS ? 100000 : c == Q_BODIES ? 20000 : 60))
                return useerr("out of range or not a whole number:", optarg);
            if (c == Q_STEPS) g.steps = (long)x;
            else if (c == Q_BODIES) g.bodies = (long)x;
            else if (c == Q_BASE) g.base = (long)x;
            else g.layers = (long)x;
            break;
        case Q_RADIUS: rc = num("radius", optarg, 1e-300, &g.radius); break;
        case Q_MASS: rc = num("mass", optarg, 1e-300, &g.mass); break;
        case Q_RATIO: rc = num("mass-ratio", optarg, 1e-300, &g.mass_ratio); break;
        case Q_GAP: rc = num("gap", optarg, 0, &g.gap); break;
        case Q_JITTER: rc = num("jitter", optarg, 0, &g.jitter); break;
        case Q_DT: rc = num("dt", optarg, 1e-300, &g.dt); break;
        case Q_GRAVITY: rc = num("gravity", optarg, -1e300, &g.gravity); break;
        case Q_MU: rc = num("mu", optarg, 0, &g.mu); break;
        case Q_KIND:
            if (strcmp(optarg, "fc3d") && strcmp(optarg, "ccp"))
                return useerr("--kind must be fc3d or ccp, not", optarg);
            g.kind = optarg;
            kind_given = 1;
            break;
        case Q_SEED: {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(optarg, &end, 10);
            if (end == optarg || *end || errno || strchr(optarg, '-')) return useerr("--seed: not a non-negative integer:", optarg);
            g.seed = v;
            break;
        }
        case ':': return useerr("option needs a value:", argv[optind - 1]);
        default: return useerr("unknown option", argv[optind - 1]);
        }
        if (rc) return rc;
    }
    if (optind < argc) return useerr("unexpected argument", argv[optind]);
    if (g.scene < 0) return useerr("--scene is required (column, pyramid or granular)", "");
    if (!g.out || !*g.out) return useerr("-o DIR is required", "");
    if (kind_given && g.mu < 0) return useerr("--kind needs --mu", "");
    if ((long)(g.scene == 0 ? g.bodies : g.scene == 1 ? g.base * (g.base + 1) / 2 : g.base * g.base * g.layers) > 20000)
        return useerr("too many spheres (at most 20000)", "");
    if (g.gap < 0) g.gap = 0.3 * g.radius;
    g.friction = g.mu >= 0;
    g.box[0] = g.box[1] = 2.0 * g.radius + (2.0 * g.radius + g.gap) * (double)(g.base - 1) + 1.5 * g.jitter * g.radius +
                          0.1 * g.radius;

    lcp_err err = {{0}};
    sphere *S = NULL;
    int nb = 0, rc = 0, total_contacts = 0, minc = -1, maxc = 0;
    if (build_scene(&g, &S, &nb)) {
        fprintf(stderr, PROG ": out of memory\n");
        return 5;
    }
    if (mkdir(g.out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, PROG ": %s: cannot create folder: %s\n", g.out, strerror(errno));
        free(S);
        return 2;
    }
    size_t plen = strlen(g.out) + 64;
    char *dir = malloc(plen);
    double worst = 0;
    /* an earlier, longer sequence's steps past K would be read as this one's */
    DIR *od = dir ? opendir(g.out) : NULL;
    struct dirent *de;
    while (od && (de = readdir(od))) {
        char *end;
        if (strncmp(de->d_name, "step-", 5)) continue;
        long k = strtol(de->d_name + 5, &end, 10);
        if (*end || k < g.steps) continue;
        static const char *const stale[] = {"A.mtx", "b.mtx", "M.mtx", "J.mtx", "v.mtx", "e.mtx",
                                            "mu.mtx", "ids.mtx", "problem.json"};
        for (size_t q = 0; q < sizeof stale / sizeof stale[0]; q++) {
            snprintf(dir, plen, "%s/%s/%s", g.out, de->d_name, stale[q]);
            remove(dir);
        }
        snprintf(dir, plen, "%s/%s", g.out, de->d_name);
        if (rmdir(dir) != 0) {
            fprintf(stderr, PROG ": %s: cannot remove this step of an earlier sequence: %s\n", dir, strerror(errno));
            closedir(od);
            free(dir);
            free(S);
            return 2;
        }
    }
    if (od) closedir(od);
    for (long step = 0; step < g.steps && !rc && dir; step++) {
        seq_contact *C = NULL;
        int nc = 0;
        lcp_problem p;
        lcp_problem_init(&p);
        double *ids = NULL, *lam = NULL, *f = NULL;
        if (detect(&g, S, nb, &C, &nc)) rc = LCP_ERROR;
        ids = lcp_alloc((size_t)(nc > 0 ? nc : 1), sizeof *ids);
        if (!rc && (!ids || build_step(&g, S, nb, C, nc, &p, ids))) rc = LCP_ERROR;
        if (!rc) {
            p.source = lcp_strdup(g.out);
            p.format = lcp_strdup("generated");
            snprintf(dir, plen, "%s/step-%04ld", g.out, step);
            rc = write_step(&g, &p, ids, nc, nb, step, dir, &err);
        }
        int it = 0;
        double res = 0;
        lam = lcp_calloc((size_t)(p.n > 0 ? p.n : 1), sizeof *lam);
        f = lcp_calloc((size_t)(6 * nb), sizeof *f);
        if (!rc && (!lam || !f)) rc = LCP_ERROR;
        if (!rc && (rc = step_solve(&p, lam, &it, &res, &err)) == 0) {
            worst = fmax(worst, res);
            /* u = v + M^-1 J' lambda, then x += dt u */
            for (int i = 0; i < p.n; i++)
                for (int kk = p.J.p[i]; kk < p.J.p[i + 1]; kk++) f[p.J.j[kk]] += p.J.x[kk] * lam[i];
            for (int k = 0; k < nb; k++)
                for (int e = 0; e < 3; e++) {
                    S[k].u[e] = p.v[6 * k + e] + f[6 * k + e] / S[k].m;
                    S[k].w[e] = p.v[6 * k + 3 + e] + f[6 * k + 3 + e] / S[k].I;
                    S[k].x[e] += g.dt * S[k].u[e];
                }
            total_contacts += nc;
            if (minc < 0 || nc < minc) minc = nc;
            if (nc > maxc) maxc = nc;
        }
        free(C);
        free(ids);
        free(lam);
        free(f);
        lcp_problem_free(&p);
    }
    free(S);
    if (!dir) rc = LCP_ERROR;
    free(dir);
    if (rc) {
        fprintf(stderr, PROG ": %s\n", err.msg[0] ? err.msg : "out of memory");
        return lcp_status_exit_code((lcp_status)rc);
    }
    fprintf(stderr,
            PROG ": %s, %d bodies, %ld steps of %g s, %d to %d contacts a step (mean %.1f), %s; worst internal "
                 "residual %.1e -> %s\n",
            scene_names[g.scene], nb, g.steps, g.dt, minc, maxc, (double)total_contacts / (double)g.steps,
            g.friction ? g.kind : "lcp", worst, g.out);
    return 0;
}
