/* src/generate.c: `lcpsolve generate SCENE [OPTIONS] -o DIR`.
 *
 * Writes a problem folder that `lcpsolve DIR` (or `lcpsolve DIR/problem.json`)
 * reads back.  Scenes:
 *
 *  column      N spheres stacked on a static ground plane: rigid bodies with
 *              mass and inertia, one contact under each sphere.
 *  pyramid     a 2D pyramid of boxes (x-z plane), 4 contact points a face.
 *  granular    a pile of spheres in close-packed layers with random holes:
 *              contacts with the ground, the spheres below and beside.
 *  tower       a Kapla tower: layers of planks, each crossing the one below
 *              at 90 degrees, 4 contact points where two planks cross.
 *  mass-ratio  a column of spheres whose top sphere is R times heavier
 *              than the others: heavy on light, A ill-conditioned.
 *  redundant   a stack of boxes with a K x K grid of contact points on each
 *              face: more contact rows than degrees of freedom.
 *  chain       capsule links hanging from a fixed anchor, joined by ropes
 *              (unilateral distance constraints: tension >= 0).
 *  random-spd  a random sparse symmetric positive definite A, set condition.
 *  murty       Murty's exponential example for Lemke's method.
 *
 * The rigid-body scenes are written in both forms of DESIGN.md: the factored
 * form M (block diagonal, 6x6 a body), J (contact Jacobian), v (free
 * velocity after one gravity step), and the assembled A = J M^-1 J', b = J v.
 * Without --mu the problem is an `lcp` with one row (the normal) a contact;
 * with --mu each contact has the 3 rows normal, tangent 1, tangent 2 and the
 * problem is `fc3d` (or `ccp` with --kind ccp).
 *
 * Generalised velocities are body-major: body k owns columns 6k..6k+5 =
 * (linear velocity v_x, v_y, v_z, angular velocity w_x, w_y, w_z), both in
 * the world frame.  SI units throughout.
 *
 * Every random number comes from splitmix64 seeded by --seed, and every
 * loop runs in a fixed order, so the same command writes the same bytes.
 */
#include "generate.h"

#include "core/common.h"
#include "la/csr.h"
#include "io/io.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROG "lcpsolve generate"

/* ---------------------------------------------------------------- tables */

enum { SC_COLUMN = 1, SC_PYRAMID = 2, SC_RANDOM_SPD = 4, SC_MURTY = 8, SC_GRANULAR = 16 };
enum { SC_TOWER = 32, SC_MASS_RATIO = 64, SC_REDUNDANT = 128, SC_CHAIN = 256 };
#define SC_RIGID (SC_COLUMN | SC_PYRAMID | SC_GRANULAR | SC_TOWER | SC_MASS_RATIO | SC_REDUNDANT | SC_CHAIN)
#define SC_FRICTION (SC_RIGID & ~SC_CHAIN) /* scenes with friction contacts (--mu) */
#define SC_ALL (SC_RIGID | SC_RANDOM_SPD | SC_MURTY)

typedef struct {
    const char *name;
    unsigned id;
    long default_size; /* --size default (random-spd, murty), 0 if unused */
    const char *summary;
} gen_scene;

static const gen_scene gen_scenes[] = {
    {"column", SC_COLUMN, 0,
     "spheres stacked on the ground, one contact under each"},
    {"pyramid", SC_PYRAMID, 0,
     "2D pyramid of boxes, each on two below, 4 contact points a face"},
    {"granular", SC_GRANULAR, 0,
     "a pile of equal spheres in face-centred layers (B x B, then\n"
     "  (B-1) x (B-1) in the hollows, ...) with a random share of sites empty;\n"
     "  contacts with the ground, the spheres below (45 degree normals) and beside"},
    {"tower", SC_TOWER, 0,
     "a Kapla tower: L layers of P planks, each layer crossing the one below\n"
     "  at 90 degrees, every plank resting on all P planks below; 4 contact points\n"
     "  where two planks cross and at the corners of each plank on the ground\n"
     "  (4 P + 4 P^2 (L - 1) contacts; A singular, as for pyramid)"},
    {"mass-ratio", SC_MASS_RATIO, 0,
     "heavy on light: a column of N spheres on the ground whose top sphere\n"
     "  is R times heavier than the others (N contacts; A positive definite, its\n"
     "  condition growing like R; column --mass-ratio instead spreads the masses\n"
     "  geometrically)"},
    {"redundant", SC_REDUNDANT, 0,
     "N boxes stacked on the ground, a K x K grid of contact points on each\n"
     "  face (N K^2 contacts): more rows than degrees of freedom, A rank-deficient\n"
     "  (rank 3 N, or 6 N with --mu), lambda not unique, w unique"},
    {"chain", SC_CHAIN, 0,
     "N capsule links hanging from a fixed anchor (straight, at --angle from\n"
     "  the vertical), each joined to the one above (the first to the anchor) by\n"
     "  an inextensible rope: distance <= its length, tension >= 0 (N rows; with\n"
     "  --ground the lowest link also rests on the ground: N + 1 rows, and at\n"
     "  --angle 0 A is singular); no friction"},
    {"random-spd", SC_RANDOM_SPD, 100,
     "sparse SPD A = D L D + delta I (L a random graph's Laplacian,\n"
     "  D = diag(+-1), delta sets the condition number), b uniform in [-1, 1]"},
    {"murty", SC_MURTY, 8,
     "Murty's example (2^n Lemke pivots): A lower triangular, 1 on\n"
     "  and 2 below the diagonal, b = -1"},
};
#define NSCENES ((int)(sizeof gen_scenes / sizeof gen_scenes[0]))

enum {
    K_OUTPUT = 'o',
    K_HELP = 'h',
    K_BODIES = 256,
    K_RADIUS,
    K_MASS,
    K_MASS_RATIO,
    K_BASE,
    K_WIDTH,
    K_DEPTH,
    K_HEIGHT,
    K_DT,
    K_GRAVITY,
    K_MU,
    K_KIND,
    K_SIZE,
    K_DENSITY,
    K_COND,
    K_SEED,
    K_LAYERS,
    K_HOLES,
    K_PILES,
    K_ENVS,
    K_PERTURB,
    K_PLANKS,
    K_RATIO,
    K_POINTS,
    K_LINKS,
    K_LENGTH,
    K_GAP,
    K_ANGLE,
    K_GROUND,
};

/* The one table of options: --help, getopt_long, the defaults (parsed by
 * the same code as the command line) and the scene checks come from it. */
typedef struct {
    const char *name; /* long option */
    int key;          /* getopt value */
    const char *arg;  /* metavariable; NULL for a flag */
    const char *def;  /* default value; NULL: none (or see the help text) */
    unsigned scenes;  /* the scenes it applies to */
    const char *help;
} gen_option;

static const gen_option gen_options[] = {
    {"bodies", K_BODIES, "N", "10", SC_COLUMN | SC_REDUNDANT | SC_MASS_RATIO,
     "spheres in the column (mass-ratio: >= 2), boxes in the stack"},
    {"radius", K_RADIUS, "R", "0.1", SC_COLUMN | SC_GRANULAR | SC_MASS_RATIO | SC_CHAIN,
     "sphere (chain: capsule) radius, m"},
    {"mass", K_MASS, "M", "1", SC_RIGID,
     "mass of a body (column: of the bottom sphere; mass-ratio: of a light one), kg"},
    {"mass-ratio", K_MASS_RATIO, "R", "1", SC_COLUMN,
     "top / bottom sphere mass (geometric series)"},
    {"base", K_BASE, "B", "10", SC_PYRAMID | SC_GRANULAR,
     "pyramid: boxes in the base row (4 B^2 contacts); granular: spheres along a side"},
    {"layers", K_LAYERS, "L", "6", SC_GRANULAR | SC_TOWER, "layers of spheres or planks"},
    {"planks", K_PLANKS, "P", "2", SC_TOWER, "tower: planks a layer, P --depth <= --width"},
    {"ratio", K_RATIO, "R", "1000", SC_MASS_RATIO, "top / other sphere mass, in [1, 1e9]"},
    {"points", K_POINTS, "K", "3", SC_REDUNDANT, "K x K contact points a face, 2 to 32"},
    {"links", K_LINKS, "N", "20", SC_CHAIN, "chain: links"},
    {"length", K_LENGTH, "L", "0.1", SC_CHAIN, "chain: length of a link's cylinder (tip to tip L + 2R), m"},
    {"gap", K_GAP, "G", "0.01", SC_CHAIN, "chain: rope length between two links' tips, >= 0, m"},
    {"angle", K_ANGLE, "A", "0", SC_CHAIN, "chain: angle from the vertical, degrees, in [0, 90)"},
    {"ground", K_GROUND, NULL, NULL, SC_CHAIN, "chain: the lowest link rests on the ground"},
    {"holes", K_HOLES, "P", "0.1", SC_GRANULAR, "granular: share of lattice sites left empty, in [0, 1)"},
    {"piles", K_PILES, "K", "1", SC_RIGID, "K copies of the scene side by side, apart (K separate contact groups)"},
    {"width", K_WIDTH, "W", "1", SC_PYRAMID | SC_REDUNDANT | SC_TOWER, "box size along x (tower: plank length), m"},
    {"depth", K_DEPTH, "D", "1", SC_PYRAMID | SC_REDUNDANT | SC_TOWER, "box size along y (tower: plank width), m"},
    {"height", K_HEIGHT, "H", "0.5", SC_PYRAMID | SC_REDUNDANT | SC_TOWER, "box size along z (tower: plank thickness), m"},
    {"dt", K_DT, "S", "0.01", SC_RIGID, "time step, s"},
    {"gravity", K_GRAVITY, "G", "9.81", SC_RIGID, "gravity along -z, m/s^2"},
    {"mu", K_MU, "MU", NULL, SC_FRICTION,
     "friction: 3 rows a contact, mu.mtx (default: none, lcp)"},
    {"kind", K_KIND, "KIND", "fc3d", SC_FRICTION, "friction kind, fc3d or ccp (needs --mu)"},
    {"size", K_SIZE, "N", NULL, SC_RANDOM_SPD | SC_MURTY,
     "rows of A"},
    {"density", K_DENSITY, "D", NULL, SC_RANDOM_SPD,
     "share of nonzero off-diagonal pairs (default 10/(n-1))"},
    {"cond", K_COND, "C", "1000", SC_RANDOM_SPD, "condition number of A, > 1"},
    {"seed", K_SEED, "S", "1", SC_ALL, "random seed (random-spd and granular are random)"},
    {"envs", K_ENVS, "K", NULL, SC_ALL,
     "K environments for `lcpsolve batch`: folders DIR/env00000 ... with b (and v) perturbed"},
    {"perturb", K_PERTURB, "P", "0.1", SC_ALL,
     "--envs: each entry of v (factored form; then b = J v) or b times 1 + P * uniform[-1, 1]"},
    {"output", K_OUTPUT, "DIR", NULL, SC_ALL, "output folder (required, created if absent)"},
    {"help", K_HELP, NULL, NULL, SC_ALL, "print this help and exit"},
};
#define NOPTIONS ((int)(sizeof gen_options / sizeof gen_options[0]))

/* Defaults that differ by scene (applied when the option is not given, and
 * shown by --help under that scene). */
static const struct {
    unsigned scene;
    int key;
    const char *def;
} gen_scene_defaults[] = {
    {SC_TOWER, K_LAYERS, "10"},      {SC_TOWER, K_WIDTH, "0.12"},  {SC_TOWER, K_DEPTH, "0.024"},
    {SC_TOWER, K_HEIGHT, "0.008"},   {SC_TOWER, K_MASS, "0.012"},  {SC_MASS_RATIO, K_BODIES, "4"},
    {SC_REDUNDANT, K_BODIES, "3"},   {SC_CHAIN, K_RADIUS, "0.02"}, {SC_CHAIN, K_MASS, "0.1"},
};
#define NSCENE_DEFAULTS ((int)(sizeof gen_scene_defaults / sizeof gen_scene_defaults[0]))

static const char *scene_default(unsigned scene, const gen_option *o)
{
    for (int k = 0; k < NSCENE_DEFAULTS; k++)
        if (gen_scene_defaults[k].scene == scene && gen_scene_defaults[k].key == o->key)
            return gen_scene_defaults[k].def;
    return o->def;
}

/* Size limits: keep the output within what a workstation writes in seconds
 * to minutes, and every index within int. */
#define MAX_BODIES 1000000L
#define MAX_BASE 300L
#define MAX_SIZE 10000000L
#define MAX_MURTY 2000L
#define MAX_OFFDIAG 1e8 /* expected off-diagonal nonzeros of random-spd */
#define MAX_COND 1e15
#define MAX_ENVS 100000L /* env00000 .. env99999 */

typedef struct {
    const gen_scene *scene;
    long bodies, base, size, layers, piles;
    long planks, points, links; /* tower, redundant, chain */
    double ratio, length, gap, angle; /* mass-ratio, chain */
    int ground;                       /* chain: the lowest link on the ground */
    long envs, env; /* --envs K (0: one problem), the environment being written */
    double holes, perturb;
    double radius, mass, mass_ratio, width, depth, height, dt, gravity, mu, density, cond;
    const char *kind; /* "fc3d" or "ccp" */
    uint64_t seed;
    const char *out;
    int given[NOPTIONS]; /* 1 where the command line set the option */
} gen_params;

/* What a scene produced: the assembled problem, and for rigid bodies the
 * factored form too. */
typedef struct {
    const char *kind; /* "lcp", "fc3d", "ccp" */
    int n;            /* rows of A */
    lcp_csr A;
    double *b;
    int nbodies, ncontacts; /* rigid-body scenes */
    lcp_csr M, J;           /* factored form (M.p == NULL when absent) */
    double *v;              /* free velocity, 6 * nbodies */
    double *mu;             /* ncontacts, friction only */
    double cond;            /* random-spd: the condition number achieved (estimate) */
} gen_result;

static void result_free(gen_result *r)
{
    lcp_csr_free(&r->A);
    lcp_csr_free(&r->M);
    lcp_csr_free(&r->J);
    free(r->b);
    free(r->v);
    free(r->mu);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------ random numbers */

/* splitmix64 (Steele, Lea, Flood 2014): a 64-bit state, full period, good
 * enough for test matrices, and the same on every platform. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1): the top 53 bits. */
static double rng_uniform(uint64_t *s) { return (double)(rng_next(s) >> 11) * 0x1.0p-53; }

/* Uniform integer in [0, k), 0 < k <= 2^31 (bias below k / 2^53). */
static long rng_below(uint64_t *s, long k)
{
    long v = (long)(rng_uniform(s) * (double)k);
    return v < k ? v : k - 1;
}

/* ------------------------------------------------------------ triplets */

typedef struct {
    long n, cap;
    int *i, *j;
    double *x;
} triplets;

static int trip_push(triplets *t, int i, int j, double x)
{
    if (t->n == t->cap) {
        long cap = t->cap ? 2 * t->cap : 256;
        int *ni = realloc(t->i, (size_t)cap * sizeof *ni);
        if (ni) t->i = ni;
        int *nj = realloc(t->j, (size_t)cap * sizeof *nj);
        if (nj) t->j = nj;
        double *nx = realloc(t->x, (size_t)cap * sizeof *nx);
        if (nx) t->x = nx;
        if (!ni || !nj || !nx) return LCP_ERROR;
        t->cap = cap;
    }
    t->i[t->n] = i;
    t->j[t->n] = j;
    t->x[t->n] = x;
    t->n++;
    return 0;
}

static void trip_free(triplets *t)
{
    free(t->i);
    free(t->j);
    free(t->x);
    memset(t, 0, sizeof *t);
}

static int trip_to_csr(triplets *t, int m, int n, lcp_csr *A)
{
    int rc = lcp_csr_from_triplets(A, m, n, t->n, t->i, t->j, t->x);
    trip_free(t);
    return rc ? LCP_ERROR : 0; /* entries are in range by construction */
}

/* C = X Y by Gustavson's row-by-row product.  With sym, only C(i,j) for
 * j >= i is computed and mirrored to C(j,i): C is then exactly symmetric
 * (bit for bit), as X Y is in exact arithmetic for X Y = J M^-1 J'.  Exact
 * zeros off the diagonal are dropped. */
static int spgemm(const lcp_csr *X, const lcp_csr *Y, int sym, lcp_csr *C)
{
    int m = X->m, n = Y->n;
    double *acc = lcp_calloc((size_t)n, sizeof *acc);
    int *mark = lcp_alloc((size_t)n, sizeof *mark);
    int *cols = lcp_alloc((size_t)n, sizeof *cols);
    triplets t = {0};
    int rc = LCP_ERROR;
    if (!acc || !mark || !cols) goto done;
    for (int c = 0; c < n; c++) mark[c] = -1;
    for (int i = 0; i < m; i++) {
        int len = 0;
        for (int kk = X->p[i]; kk < X->p[i + 1]; kk++) {
            int k = X->j[kk];
            double xv = X->x[kk];
            for (int jj = Y->p[k]; jj < Y->p[k + 1]; jj++) {
                int c = Y->j[jj];
                if (sym && c < i) continue;
                if (mark[c] != i) {
                    mark[c] = i;
                    acc[c] = 0.0;
                    cols[len++] = c;
                }
                acc[c] += xv * Y->x[jj];
            }
        }
        for (int q = 0; q < len; q++) {
            int c = cols[q];
            if (acc[c] == 0.0 && !(sym && c == i)) continue;
            if (trip_push(&t, i, c, acc[c])) goto done;
            if (sym && c != i && trip_push(&t, c, i, acc[c])) goto done;
        }
    }
    rc = trip_to_csr(&t, m, n, C);
done:
    trip_free(&t);
    free(acc);
    free(mark);
    free(cols);
    return rc;
}

/* ------------------------------------------------------- rigid bodies */

typedef struct {
    double m;    /* mass, kg */
    double x[3]; /* centre of mass, world frame, m */
    double I[9]; /* inertia tensor about the centre of mass, world frame, kg m^2, row-major */
} rb_body;

typedef struct {
    int a, b;    /* body below (-1: the static ground) and body above */
    double p[3]; /* contact point, world frame */
    double n[3]; /* unit normal, from a into b */
} rb_contact;

typedef struct {
    int nb, nc;
    rb_body *body;
    rb_contact *con;
} rb_scene;

static void scene_free(rb_scene *s)
{
    free(s->body);
    free(s->con);
    memset(s, 0, sizeof *s);
}

static int scene_alloc(rb_scene *s, long nb, long nc)
{
    s->nb = (int)nb;
    s->nc = (int)nc;
    s->body = lcp_calloc((size_t)nb, sizeof *s->body);
    s->con = lcp_calloc((size_t)nc, sizeof *s->con);
    if (!s->body || !s->con) {
        scene_free(s);
        return LCP_ERROR;
    }
    return 0;
}

static void set3(double *d, double x, double y, double z)
{
    d[0] = x;
    d[1] = y;
    d[2] = z;
}

static void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* Diagonal inertia tensor diag(ix, iy, iz). */
static void inertia_diag(double *I, double ix, double iy, double iz)
{
    memset(I, 0, 9 * sizeof *I);
    I[0] = ix;
    I[4] = iy;
    I[8] = iz;
}

/* column: N solid spheres of radius r on the ground at the origin, sphere i
 * centred at z = r + 2 r i.  Mass m_i = m R^(i/(N-1)): the top sphere is R
 * times heavier than the bottom one (R = --mass-ratio), which spreads the
 * diagonal of A over R and makes the problem ill-conditioned for large R.
 * Inertia of a solid sphere: 2/5 m r^2 about every axis.
 * Contact 0: ground / sphere 0 at the origin; contact i: sphere i-1 /
 * sphere i at z = 2 r i.  All normals +z. */
static int scene_column(const gen_params *g, rb_scene *s)
{
    long N = g->bodies;
    double r = g->radius;
    if (scene_alloc(s, N, N)) return LCP_ERROR;
    for (long i = 0; i < N; i++) {
        rb_body *B = &s->body[i];
        B->m = g->mass * pow(g->mass_ratio, N > 1 ? (double)i / (double)(N - 1) : 0.0);
        set3(B->x, 0.0, 0.0, r + 2.0 * r * (double)i);
        double Is = 0.4 * B->m * r * r;
        inertia_diag(B->I, Is, Is, Is);
        rb_contact *C = &s->con[i];
        C->a = (int)i - 1; /* -1 for i = 0: the ground */
        C->b = (int)i;
        set3(C->p, 0.0, 0.0, 2.0 * r * (double)i);
        set3(C->n, 0.0, 0.0, 1.0);
    }
    return 0;
}

/* pyramid: rows k = 0 (on the ground) .. B-1, row k holding B-k boxes of
 * size w x d x h (x, y, z).  Box j of row k is centred at
 *   x = (j + k/2 - (B-1)/2) w,  y = 0,  z = h/2 + k h,
 * so it sits on boxes j and j+1 of row k-1, offset by half a box width.
 * Boxes in a row touch side to side; those side contacts carry no force
 * under gravity and are not modelled.  Inertia of a solid box:
 *   m/12 diag(d^2 + h^2, w^2 + h^2, w^2 + d^2).
 * Contacts: a base box on the ground at the 4 corners of its bottom face;
 * an upper box on each of its two supports at the 4 corners of the overlap
 * rectangle of the touching faces (x over half a width, y over the depth).
 * Four points on one face of rigid bodies: the contact set is redundant (A
 * is singular, the forces are not unique).  4 B^2 contacts in all. */
static int scene_pyramid(const gen_params *g, rb_scene *s)
{
    long B = g->base;
    double w = g->width, d = g->depth, h = g->height, m = g->mass;
    if (scene_alloc(s, B * (B + 1) / 2, 4 * B * B)) return LCP_ERROR;
    long nb = 0, nc = 0;
    long *row0 = lcp_alloc((size_t)B, sizeof *row0); /* index of box 0 of each row */
    if (!row0) {
        scene_free(s);
        return LCP_ERROR;
    }
    for (long k = 0; k < B; k++) {
        row0[k] = nb;
        for (long j = 0; j < B - k; j++) {
            rb_body *bd = &s->body[nb++];
            bd->m = m;
            set3(bd->x, ((double)j + 0.5 * (double)k - 0.5 * (double)(B - 1)) * w, 0.0,
                 0.5 * h + (double)k * h);
            inertia_diag(bd->I, m / 12.0 * (d * d + h * h), m / 12.0 * (w * w + h * h),
                         m / 12.0 * (w * w + d * d));
        }
    }
    for (long k = 0; k < B; k++) {
        for (long j = 0; j < B - k; j++) {
            int up = (int)(row0[k] + j);
            const rb_body *U = &s->body[up];
            int nsup = k == 0 ? 1 : 2;
            for (int q = 0; q < nsup; q++) {
                int lo = k == 0 ? -1 : (int)(row0[k - 1] + j + q); /* body below */
                double x0 = U->x[0] - 0.5 * w, x1 = U->x[0] + 0.5 * w;
                if (lo >= 0) { /* overlap with the support in x */
                    x0 = fmax(x0, s->body[lo].x[0] - 0.5 * w);
                    x1 = fmin(x1, s->body[lo].x[0] + 0.5 * w);
                }
                double z = (double)k * h;
                const double cx[4] = {x0, x1, x1, x0}, cy[4] = {-0.5 * d, -0.5 * d, 0.5 * d, 0.5 * d};
                for (int c = 0; c < 4; c++) {
                    rb_contact *C = &s->con[nc++];
                    C->a = lo;
                    C->b = up;
                    set3(C->p, cx[c], cy[c], z);
                    set3(C->n, 0.0, 0.0, 1.0);
                }
            }
        }
    }
    free(row0);
    return 0;
}

/* granular: L layers of solid spheres of radius r (--base B, --layers L).
 * Even layers hold a B x B square grid of spacing 2r; odd layers a
 * (B-1) x (B-1) grid in the hollows, shifted by (r, r) and raised by
 * sqrt(2) r, so each of their spheres touches the 4 below (normals at 45
 * degrees), and an even layer above an odd one sits in its hollows the same
 * way (a face-centred cubic packing).  Each lattice site is left empty with
 * probability --holes (seeded): spheres above a hole have fewer supports,
 * and the contact graph is irregular.  Contacts: every pair of spheres at
 * distance 2r (beside: along x and y in a layer; below: the 4 hollow
 * neighbours), and every sphere of layer 0 with the ground.  The normal
 * points from the lower (or, in a layer, the first) sphere to the other. */
static int scene_granular(const gen_params *g, rb_scene *s)
{
    long B = g->base, L = g->layers;
    double r = g->radius, m = g->mass, h = sqrt(2.0) * r;
    uint64_t rng = g->seed;
    /* site (k, i, j) -> body index or -1; layer k has side B - k % 2 */
    long nsite = 0;
    for (long k = 0; k < L; k++) nsite += (B - k % 2) * (B - k % 2);
    long *site = lcp_alloc((size_t)(nsite > 0 ? nsite : 1), sizeof *site), *first = lcp_alloc((size_t)L, sizeof *first);
    if (!site || !first) {
        free(site);
        free(first);
        return LCP_ERROR;
    }
    long nb = 0, q = 0;
    for (long k = 0; k < L; k++) {
        first[k] = q;
        for (long t = 0; t < (B - k % 2) * (B - k % 2); t++, q++)
            site[q] = rng_uniform(&rng) < g->holes ? -1 : nb++;
    }
#define SITE(k, i, j) site[first[k] + (i) * (B - (k) % 2) + (j)]
    /* contacts: at most 1 (ground) or 4 (below) + 2 (beside) a sphere */
    if (scene_alloc(s, nb > 0 ? nb : 1, 6 * (nb > 0 ? nb : 1))) {
        free(site);
        free(first);
        return LCP_ERROR;
    }
    s->nb = (int)nb;
    long nc = 0;
    for (long k = 0; k < L; k++) {
        long side = B - k % 2;
        double off = k % 2 ? r : 0.0;
        for (long i = 0; i < side; i++)
            for (long j = 0; j < side; j++) {
                long b = SITE(k, i, j);
                if (b < 0) continue;
                rb_body *bd = &s->body[b];
                bd->m = m;
                set3(bd->x, off + 2.0 * r * (double)i, off + 2.0 * r * (double)j, r + h * (double)k);
                double Is = 0.4 * m * r * r;
                inertia_diag(bd->I, Is, Is, Is);
            }
    }
    for (long k = 0; k < L; k++) {
        long side = B - k % 2;
        for (long i = 0; i < side; i++)
            for (long j = 0; j < side; j++) {
                long b = SITE(k, i, j);
                if (b < 0) continue;
                long nbr[6];
                int nn = 0;
                if (k > 0) { /* the 4 hollow neighbours below */
                    long d = k % 2 ? 0 : -1; /* an odd layer is shifted by +r over the even one */
                    for (long di = 0; di < 2; di++)
                        for (long dj = 0; dj < 2; dj++) {
                            long ii = i + d + di, jj = j + d + dj, sb = B - (k - 1) % 2;
                            if (ii >= 0 && jj >= 0 && ii < sb && jj < sb && SITE(k - 1, ii, jj) >= 0)
                                nbr[nn++] = SITE(k - 1, ii, jj);
                        }
                }
                if (i + 1 < side && SITE(k, i + 1, j) >= 0) nbr[nn++] = SITE(k, i + 1, j);
                if (j + 1 < side && SITE(k, i, j + 1) >= 0) nbr[nn++] = SITE(k, i, j + 1);
                const double *xb = s->body[b].x;
                if (k == 0) { /* the ground */
                    rb_contact *C = &s->con[nc++];
                    C->a = -1;
                    C->b = (int)b;
                    set3(C->p, xb[0], xb[1], 0.0);
                    set3(C->n, 0.0, 0.0, 1.0);
                }
                for (int t = 0; t < nn; t++) {
                    const double *xa = s->body[nbr[t]].x;
                    double d[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
                    double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                    /* the normal from the lower sphere up, or in a layer from the earlier one */
                    int up = d[2] > 0.5 * r || (d[2] > -0.5 * r && (d[0] + d[1]) < 0.0);
                    rb_contact *C = &s->con[nc++];
                    C->a = up ? (int)nbr[t] : (int)b;
                    C->b = up ? (int)b : (int)nbr[t];
                    double sg = up ? 1.0 : -1.0;
                    set3(C->n, sg * d[0] / len, sg * d[1] / len, sg * d[2] / len);
                    const double *xl = up ? xa : xb;
                    set3(C->p, xl[0] + r * C->n[0], xl[1] + r * C->n[1], xl[2] + r * C->n[2]);
                }
            }
    }
#undef SITE
    s->nc = (int)nc;
    free(site);
    free(first);
    return 0;
}

/* A K x K grid of contact points (K >= 2: the corners for K = 2) on the
 * rectangle [x0, x1] x [y0, y1] at height z, between body a (below; -1 the
 * ground) and body b (above), normal +z: the face-face contact of two
 * boxes, or of a box and the ground, as K^2 points.  Appends at s->con[*nc]. */
static void face_grid(rb_scene *s, long *nc, int a, int b, double x0, double x1, double y0,
                      double y1, double z, long K)
{
    for (long i = 0; i < K; i++)
        for (long j = 0; j < K; j++) {
            rb_contact *C = &s->con[(*nc)++];
            C->a = a;
            C->b = b;
            set3(C->p, x0 + (x1 - x0) * (double)j / (double)(K - 1),
                 y0 + (y1 - y0) * (double)i / (double)(K - 1), z);
            set3(C->n, 0.0, 0.0, 1.0);
        }
}

/* Inertia of a solid box w x d x h (x, y, z) about its centre. */
static void inertia_box(double *I, double m, double w, double d, double h)
{
    inertia_diag(I, m / 12.0 * (d * d + h * h), m / 12.0 * (w * w + h * h),
                 m / 12.0 * (w * w + d * d));
}

/* tower: L layers (--layers) of P planks (--planks) of size w x d x h
 * (--width: the long side, --depth, --height: the thickness; Kapla-like
 * defaults 0.12 x 0.024 x 0.008 m, 12 g).  Even layers lie along x, odd ones
 * along y (rotated 90 degrees about z: the inertia tensor's x and y entries
 * swap).  In a layer the planks are spread evenly across the length of the
 * planks below: plank j at c_j = (j - (P-1)/2) (w - d) / (P - 1) (c = 0 for
 * P = 1), so the outer ones lie flush with the ends below; layer k at
 * z = h/2 + k h.  Every plank of layer k >= 1 crosses every plank of layer
 * k-1 over a d x d square: 4 contacts at its corners.  Layer 0 stands on the
 * ground: 4 contacts at the corners of each plank's bottom face.
 * 4 P + 4 P^2 (L - 1) contacts; like pyramid, A is singular. */
static int scene_tower(const gen_params *g, rb_scene *s)
{
    long L = g->layers, P = g->planks;
    double w = g->width, d = g->depth, h = g->height, m = g->mass;
    if (scene_alloc(s, L * P, 4 * P + 4 * P * P * (L - 1))) return LCP_ERROR;
    long nc = 0;
    for (long k = 0; k < L; k++)
        for (long j = 0; j < P; j++) {
            rb_body *B = &s->body[k * P + j];
            double c = P > 1 ? ((double)j - 0.5 * (double)(P - 1)) * (w - d) / (double)(P - 1) : 0.0;
            B->m = m;
            if (k % 2 == 0) {
                set3(B->x, 0.0, c, 0.5 * h + (double)k * h);
                inertia_box(B->I, m, w, d, h);
            } else {
                set3(B->x, c, 0.0, 0.5 * h + (double)k * h);
                inertia_box(B->I, m, d, w, h);
            }
        }
    for (long k = 0; k < L; k++) {
        /* half extents of a plank of layer k (and of k - 1) along x and y */
        double hx = k % 2 ? 0.5 * d : 0.5 * w, hy = k % 2 ? 0.5 * w : 0.5 * d;
        for (long j = 0; j < P; j++) {
            int up = (int)(k * P + j);
            const double *xu = s->body[up].x;
            if (k == 0) {
                face_grid(s, &nc, -1, up, xu[0] - hx, xu[0] + hx, xu[1] - hy, xu[1] + hy, 0.0, 2);
                continue;
            }
            for (long i = 0; i < P; i++) { /* the crossing with plank i below */
                int lo = (int)((k - 1) * P + i);
                const double *xl = s->body[lo].x;
                face_grid(s, &nc, lo, up, fmax(xu[0] - hx, xl[0] - hy), fmin(xu[0] + hx, xl[0] + hy),
                          fmax(xu[1] - hy, xl[1] - hx), fmin(xu[1] + hy, xl[1] + hx),
                          (double)k * h, 2);
            }
        }
    }
    return 0;
}

/* mass-ratio: heavy on light.  The column of N spheres (--bodies N, as
 * scene_column builds it: radius r, on the ground, one contact under each)
 * with every sphere of mass m (--mass) except the top one, R m (--ratio R),
 * inertia scaled with it (a denser sphere).  (column --mass-ratio spreads
 * the masses geometrically instead.)  A light sphere held between two
 * parallel contacts only feels their difference through the heavy body's
 * mobility 1/(R m): the top rows of A approach [1 -1; -1 1]/m and its
 * condition number grows like R; the load R m g dt has to travel down
 * the column, so PGS needs about R sweeps (N = 4:
 * condition 1.4e7 for R = 1e6; pgs 5,900 sweeps to 1e-10 for R = 100,
 * 590,000 for R = 1e4). */
static int scene_mass_ratio(const gen_params *g, rb_scene *s)
{
    if (scene_column(g, s)) return LCP_ERROR;
    rb_body *top = &s->body[s->nb - 1];
    top->m *= g->ratio;
    for (int k = 0; k < 9; k++) top->I[k] *= g->ratio;
    return 0;
}

/* redundant: N boxes w x d x h (--bodies, --width, --depth, --height)
 * stacked on the ground, box k centred at (0, 0, h/2 + k h), each face-face
 * contact (box on ground, box on box) a K x K grid of points (--points K)
 * over the full w x d face.  A face of two rigid bodies takes 3 independent
 * normal rows (a push and two tilts) and 6 with friction, so of the N K^2
 * rows (3 N K^2 with --mu) only 3 N (6 N) are independent: A is
 * rank-deficient by N (K^2 - 3) (N (3 K^2 - 6)), lambda is not unique and
 * w is. */
static int scene_redundant(const gen_params *g, rb_scene *s)
{
    long N = g->bodies, K = g->points;
    double w = g->width, d = g->depth, h = g->height;
    if (scene_alloc(s, N, N * K * K)) return LCP_ERROR;
    long nc = 0;
    for (long k = 0; k < N; k++) {
        rb_body *B = &s->body[k];
        B->m = g->mass;
        set3(B->x, 0.0, 0.0, 0.5 * h + (double)k * h);
        inertia_box(B->I, g->mass, w, d, h);
        face_grid(s, &nc, (int)k - 1, (int)k, -0.5 * w, 0.5 * w, -0.5 * d, 0.5 * d, (double)k * h, K);
    }
    return 0;
}

/* chain: N links (--links), each a solid capsule of radius r (--radius) and
 * cylinder length l (--length), mass m; its tips (on the axis, l/2 + r from
 * the centre) are where the ropes attach.  The chain hangs straight from
 * the fixed anchor O along u = (sin a, 0, -cos a), a = --angle (a swinging
 * chain released at rest; 0: hanging still): with pitch P = l + 2 r + g,
 *   top tip of link i = O + u (g + i P),  centre = O + u (g + i P + l/2 + r).
 * Rope i joins the anchor (i = 0) or the bottom tip of link i-1 to the top
 * tip of link i, length g (--gap), taut.  Its row is the unilateral
 * inextensibility constraint g - |p_i - p_{i-1}| >= 0, by velocity
 *   -u . (v_tip_i - v_tip_{i-1}) >= 0,
 * with the tension lambda_i >= 0 pulling the link toward the one above: a
 * contact (rb_contact) with normal -u from link i-1 (a) to link i (b) at the
 * rope's midpoint (any point on the rope's line gives the same row).  The
 * anchor is at the height that puts the chain's lowest point (on the bottom
 * hemisphere of the last link) at z = 0; with --ground that point is a
 * contact with the ground, normal +z (N + 1 rows; the last link is then
 * held by the ground and its rope together, so A is singular).
 * Capsule inertia: cylinder m_c (l^2/12 + r^2/4) plus hemispheres
 * m_s (2 r^2/5 + l^2/4 + 3 l r/8) across the axis, m_c r^2/2 + 2 m_s r^2/5
 * along it (m_c, m_s by volume), turned to the world frame:
 * I = I_t (E - u u') + I_a u u'. */
static int scene_chain(const gen_params *g, rb_scene *s)
{
    long N = g->links;
    double r = g->radius, l = g->length, gp = g->gap, m = g->mass;
    double a = g->angle * M_PI / 180.0, u[3] = {sin(a), 0.0, -cos(a)};
    double P = l + 2.0 * r + gp;
    double vc = M_PI * r * r * l, vs = 4.0 / 3.0 * M_PI * r * r * r;
    double mc = m * vc / (vc + vs), ms = m * vs / (vc + vs);
    double It = mc * (l * l / 12.0 + r * r / 4.0) + ms * (0.4 * r * r + l * l / 4.0 + 0.375 * l * r);
    double Ia = 0.5 * mc * r * r + 0.4 * ms * r * r;
    /* lowest point: bottom hemisphere centre of link N-1, minus r in z */
    double O[3] = {0.0, 0.0, cos(a) * (gp + (double)(N - 1) * P + r + l) + r};
    if (scene_alloc(s, N, N + (g->ground ? 1 : 0))) return LCP_ERROR;
    for (long i = 0; i < N; i++) {
        rb_body *B = &s->body[i];
        double t = gp + (double)i * P + 0.5 * l + r;
        B->m = m;
        for (int k = 0; k < 3; k++) B->x[k] = O[k] + t * u[k];
        for (int p = 0; p < 3; p++)
            for (int q = 0; q < 3; q++)
                B->I[3 * p + q] = (p == q ? It : 0.0) + (Ia - It) * (u[p] * u[q]); /* symmetric */
        rb_contact *C = &s->con[i];
        C->a = (int)i - 1; /* -1 for i = 0: the anchor */
        C->b = (int)i;
        double tm = (double)i * P + 0.5 * gp; /* the rope's midpoint */
        for (int k = 0; k < 3; k++) {
            C->p[k] = O[k] + tm * u[k];
            C->n[k] = -u[k];
        }
    }
    if (g->ground) {
        rb_contact *C = &s->con[N];
        const double *x = s->body[N - 1].x;
        C->a = -1;
        C->b = (int)N - 1;
        set3(C->p, x[0] + 0.5 * l * u[0], x[1] + 0.5 * l * u[1], x[2] + 0.5 * l * u[2] - r);
        set3(C->n, 0.0, 0.0, 1.0);
    }
    return 0;
}

/* --piles K: K copies of the scene, the k-th shifted by k times (the
 * scene's extent + 1 m) along y, so no two copies touch: K components of
 * the contact graph. */
static int replicate(rb_scene *s, long K)
{
    if (K <= 1) return 0;
    if ((long)s->nb * K > MAX_BODIES * 4 || (long)s->nc * K > INT_MAX / 3) return LCP_ERROR;
    double ymin = INFINITY, ymax = -INFINITY;
    for (int b = 0; b < s->nb; b++) ymin = fmin(ymin, s->body[b].x[1]), ymax = fmax(ymax, s->body[b].x[1]);
    for (int c = 0; c < s->nc; c++) ymin = fmin(ymin, s->con[c].p[1]), ymax = fmax(ymax, s->con[c].p[1]);
    double gap = (s->nb ? ymax - ymin : 0.0) + 1.0;
    rb_scene r;
    if (scene_alloc(&r, (long)s->nb * K, (long)s->nc * K)) return LCP_ERROR;
    for (long k = 0; k < K; k++) {
        for (int b = 0; b < s->nb; b++) {
            rb_body *d = &r.body[k * s->nb + b];
            *d = s->body[b];
            d->x[1] += (double)k * gap;
        }
        for (int c = 0; c < s->nc; c++) {
            rb_contact *d = &r.con[k * s->nc + c];
            *d = s->con[c];
            d->p[1] += (double)k * gap;
            if (d->a >= 0) d->a += (int)(k * s->nb);
            d->b += (int)(k * s->nb);
        }
    }
    scene_free(s);
    *s = r;
    return 0;
}

/* Orthonormal contact frame (n, t1, t2), right-handed: t1 is the unit axis
 * least aligned with n made orthogonal to n, t2 = n x t1.  For n = +z this is
 * t1 = +x, t2 = +y. */
static void contact_frame(const double *n, double *t1, double *t2)
{
    int a = 0;
    for (int k = 1; k < 3; k++)
        if (fabs(n[k]) < fabs(n[a])) a = k;
    double e[3] = {0.0, 0.0, 0.0};
    e[a] = 1.0;
    double en = n[a];
    for (int k = 0; k < 3; k++) t1[k] = e[k] - en * n[k];
    double l = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
    for (int k = 0; k < 3; k++) t1[k] /= l;
    cross(n, t1, t2);
}

/* Inverse of a symmetric positive definite 3x3 matrix by the adjugate. */
static int inv3(const double *I, double *Ii)
{
    double c00 = I[4] * I[8] - I[5] * I[7], c01 = I[5] * I[6] - I[3] * I[8],
           c02 = I[3] * I[7] - I[4] * I[6];
    double det = I[0] * c00 + I[1] * c01 + I[2] * c02;
    if (!(det > 0.0) || !isfinite(det)) return LCP_ERROR;
    Ii[0] = c00 / det;
    Ii[1] = (I[2] * I[7] - I[1] * I[8]) / det;
    Ii[2] = (I[1] * I[5] - I[2] * I[4]) / det;
    Ii[3] = c01 / det;
    Ii[4] = (I[0] * I[8] - I[2] * I[6]) / det;
    Ii[5] = (I[2] * I[3] - I[0] * I[5]) / det;
    Ii[6] = c02 / det;
    Ii[7] = (I[1] * I[6] - I[0] * I[7]) / det;
    Ii[8] = (I[0] * I[4] - I[1] * I[3]) / det;
    return 0;
}

/* One Jacobian row: the relative velocity of body b with respect to body a
 * at the contact point p along the unit direction dir,
 *   (v_b + w_b x (p - x_b)) . dir - (v_a + w_a x (p - x_a)) . dir,
 * and since (w x r) . dir = w . (r x dir) the row is
 *   body a: [ -dir, -(p - x_a) x dir ],   body b: [ dir, (p - x_b) x dir ].
 * The static ground has no columns.  For dir = n the row is the normal gap
 * velocity (positive: separating); for dir = t1, t2 the sliding velocity. */
static int jacobian_row(const rb_scene *s, const rb_contact *C, const double *dir, int row,
                        triplets *t)
{
    const int who[2] = {C->a, C->b};
    const double sign[2] = {-1.0, 1.0};
    for (int q = 0; q < 2; q++) {
        if (who[q] < 0) continue; /* the ground */
        const rb_body *B = &s->body[who[q]];
        double r[3], rxd[3];
        for (int k = 0; k < 3; k++) r[k] = C->p[k] - B->x[k]; /* lever arm */
        cross(r, dir, rxd);
        int c0 = 6 * who[q];
        for (int k = 0; k < 3; k++) {
            double lin = sign[q] * dir[k], ang = sign[q] * rxd[k];
            if (lin != 0.0 && trip_push(t, row, c0 + k, lin)) return LCP_ERROR;
            if (ang != 0.0 && trip_push(t, row, c0 + 3 + k, ang)) return LCP_ERROR;
        }
    }
    return 0;
}

/* The factored and assembled forms of a rigid-body scene:
 *   M = blockdiag(m_k I3, I_k)              6 nb x 6 nb
 *   J: rpc rows a contact (normal[, t1, t2])  n x 6 nb
 *   v = v0 + dt M^-1 f_ext, v0 = 0 (the stack at rest), f_ext = m_k g (0,0,-1)
 *   A = J M^-1 J' (symmetric positive semidefinite), b = J v. */
static int build_rigid(const gen_params *g, const rb_scene *s, int friction, gen_result *res)
{
    int nb = s->nb, nv = 6 * s->nb, rpc = friction ? 3 : 1;
    long nrows = (long)rpc * s->nc;
    if (nrows > INT_MAX / 2 || (long)nv > INT_MAX / 2) return LCP_ERROR;
    int n = (int)nrows;
    triplets tm = {0}, tmi = {0}, tj = {0};
    lcp_csr Minv = {0}, Jt = {0}, W = {0};
    double *f = NULL;
    int rc = LCP_ERROR;

    /* M and M^-1, block by block */
    for (int k = 0; k < nb; k++) {
        const rb_body *B = &s->body[k];
        double Ii[9];
        if (inv3(B->I, Ii)) goto done;
        for (int q = 0; q < 3; q++) {
            if (trip_push(&tm, 6 * k + q, 6 * k + q, B->m)) goto done;
            if (trip_push(&tmi, 6 * k + q, 6 * k + q, 1.0 / B->m)) goto done;
        }
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
                if (B->I[3 * r + c] != 0.0 &&
                    trip_push(&tm, 6 * k + 3 + r, 6 * k + 3 + c, B->I[3 * r + c]))
                    goto done;
                if (Ii[3 * r + c] != 0.0 &&
                    trip_push(&tmi, 6 * k + 3 + r, 6 * k + 3 + c, Ii[3 * r + c]))
                    goto done;
            }
    }
    if (trip_to_csr(&tm, nv, nv, &res->M) || trip_to_csr(&tmi, nv, nv, &Minv)) goto done;

    /* J, contact-major: rows rpc*i (normal), rpc*i+1 (t1), rpc*i+2 (t2) */
    for (int i = 0; i < s->nc; i++) {
        const rb_contact *C = &s->con[i];
        double t1[3], t2[3];
        contact_frame(C->n, t1, t2);
        const double *dirs[3] = {C->n, t1, t2};
        for (int q = 0; q < rpc; q++)
            if (jacobian_row(s, C, dirs[q], rpc * i + q, &tj)) goto done;
    }
    if (trip_to_csr(&tj, n, nv, &res->J)) goto done;

    /* v = dt M^-1 f_ext: gravity, no applied torque (gyroscopic terms vanish at rest) */
    f = lcp_calloc((size_t)nv, sizeof *f);
    res->v = lcp_alloc((size_t)nv, sizeof *res->v);
    res->b = lcp_alloc((size_t)n, sizeof *res->b);
    if (!f || !res->v || !res->b) goto done;
    for (int k = 0; k < nb; k++) f[6 * k + 2] = -s->body[k].m * g->gravity;
    lcp_csr_matvec(&Minv, f, res->v);
    for (int k = 0; k < nv; k++) res->v[k] *= g->dt;

    /* A = (J M^-1) J', upper triangle mirrored; b = J v */
    if (spgemm(&res->J, &Minv, 0, &W)) goto done;
    if (lcp_csr_transpose(&res->J, &Jt)) goto done;
    if (spgemm(&W, &Jt, 1, &res->A)) goto done;
    lcp_csr_matvec(&res->J, res->v, res->b);

    if (friction) {
        res->mu = lcp_alloc((size_t)s->nc, sizeof *res->mu);
        if (!res->mu) goto done;
        for (int i = 0; i < s->nc; i++) res->mu[i] = g->mu;
    }
    res->n = n;
    res->nbodies = nb;
    res->ncontacts = s->nc;
    res->kind = friction ? g->kind : "lcp";
    rc = 0;
done:
    trip_free(&tm);
    trip_free(&tmi);
    trip_free(&tj);
    lcp_csr_free(&Minv);
    lcp_csr_free(&Jt);
    lcp_csr_free(&W);
    free(f);
    return rc;
}

/* ------------------------------------------------------- random-spd */

/* Number of eigenvalues below x of the symmetric tridiagonal matrix with
 * diagonal a[0..m-1] and off-diagonal e[0..m-2] (Sturm sequence, LDL'). */
static int sturm_count(const double *a, const double *e, int m, double x)
{
    int count = 0;
    double d = 1.0;
    for (int i = 0; i < m; i++) {
        d = a[i] - x - (i ? e[i - 1] * e[i - 1] / d : 0.0);
        if (d == 0.0) d = -1e-300; /* x is an eigenvalue: count it below */
        count += d < 0.0;
    }
    return count;
}

/* Largest eigenvalue of that tridiagonal matrix, by bisection from its
 * Gershgorin interval. */
static double tridiag_max(const double *a, const double *e, int m)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < m; i++) {
        double r = (i ? fabs(e[i - 1]) : 0.0) + (i + 1 < m ? fabs(e[i]) : 0.0);
        lo = fmin(lo, a[i] - r);
        hi = fmax(hi, a[i] + r);
    }
    for (int it = 0; it < 200 && lo < hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        if (sturm_count(a, e, m, mid) >= m) hi = mid; /* every eigenvalue below mid */
        else lo = mid;
    }
    return lo;
}

/* theta <= lambda_max(A) for a symmetric A: the largest Ritz value of at
 * most 300 Lanczos steps from the start vector x (overwritten).  No
 * reorthogonalisation: the extreme Ritz value converges first, and the
 * copies of it that rounding brings later do not move it.  Stops when theta
 * changes by less than 1e-12 relative over 10 steps. */
static int lanczos_max(const lcp_csr *A, double *x, double *theta)
{
    int n = A->m, kmax = n < 300 ? n : 300;
    double *q0 = lcp_calloc((size_t)n, sizeof *q0), *w = lcp_alloc((size_t)n, sizeof *w);
    double *al = lcp_alloc((size_t)kmax, sizeof *al), *be = lcp_alloc((size_t)kmax, sizeof *be);
    *theta = 0.0;
    if (!q0 || !w || !al || !be) {
        free(q0), free(w), free(al), free(be);
        return LCP_ERROR;
    }
    double nx = 0.0, prev = 0.0;
    for (int i = 0; i < n; i++) nx += x[i] * x[i];
    nx = sqrt(nx);
    for (int i = 0; i < n && nx > 0.0; i++) x[i] /= nx;
    for (int k = 0; k < kmax && nx > 0.0; k++) {
        lcp_csr_matvec(A, x, w); /* w = A q_k - beta_{k-1} q_{k-1} - alpha_k q_k */
        double a = 0.0, b = 0.0;
        for (int i = 0; i < n; i++) w[i] -= (k ? be[k - 1] : 0.0) * q0[i];
        for (int i = 0; i < n; i++) a += w[i] * x[i];
        for (int i = 0; i < n; i++) {
            w[i] -= a * x[i];
            b += w[i] * w[i];
        }
        al[k] = a;
        be[k] = b = sqrt(b);
        int last = k + 1 == kmax || !(b > 1e-14 * fabs(al[0]) + 1e-300);
        if (last || (k + 1) % 10 == 0) {
            *theta = tridiag_max(al, be, k + 1);
            if (last || fabs(*theta - prev) <= 1e-12 * fabs(*theta)) break;
            prev = *theta;
        }
        for (int i = 0; i < n; i++) { /* q_{k+1} = w / beta_k */
            q0[i] = x[i];
            x[i] = w[i] / b;
        }
    }
    free(q0), free(w), free(al), free(be);
    return 0;
}

/* A = D L D + delta I, with
 *   L = sum over edges (i,j) of w_ij (e_i - e_j)(e_i - e_j)', the weighted
 *       Laplacian of a random graph: each off-diagonal pair is an edge with
 *       probability --density, plus a random Hamiltonian path that makes the
 *       graph connected; weights uniform in [0.1, 1);
 *   D = diag(+-1) random signs, so the off-diagonal entries of A have mixed
 *       signs (A(i,j) = -w_ij d_i d_j);
 *   delta = theta / (c - 1), theta the largest eigenvalue of L estimated by
 *       Lanczos (a Ritz value, so theta <= lambda_max(L)).
 * L is positive semidefinite with the single null vector 1 (the graph is
 * connected), so D L D has the null vector D 1 and lambda_min(A) = delta
 * exactly, lambda_max(A) = lambda_max(L) + delta >= theta + delta:
 *   cond(A) = (lambda_max(L) + delta) / delta >= c, equal to c up to the
 * error of theta (the Ritz value converges to 1e-10 or better, in at most
 * 300 matrix-vector products).  The
 * small eigenvalue belongs to a global mode, like the rigid modes of a
 * floating structure: diagonal scaling does not remove it. */
static int build_random_spd(const gen_params *g, gen_result *res)
{
    int n = (int)g->size;
    double dens = g->density;
    uint64_t st = g->seed;
    triplets t = {0};
    int *perm = NULL, rc = LCP_ERROR;
    double *sg = NULL, *x = NULL;
    sg = lcp_alloc((size_t)n, sizeof *sg);
    perm = lcp_alloc((size_t)n, sizeof *perm);
    if (!sg || !perm) goto done;
    for (int i = 0; i < n; i++) sg[i] = (rng_next(&st) >> 63) ? -1.0 : 1.0;
    for (int i = 0; i < n; i++)
        if (trip_push(&t, i, i, 0.0)) goto done; /* every diagonal entry present */

    /* edge (i,j,w): the Laplacian's 2x2 block w [1 -1; -1 1], signed by D */
#define ADD_EDGE(I_, J_)                                                               \
    do {                                                                               \
        double w_ = 0.1 + 0.9 * rng_uniform(&st), o_ = -w_ * sg[(I_)] * sg[(J_)];      \
        if (trip_push(&t, (I_), (I_), w_) || trip_push(&t, (J_), (J_), w_) ||          \
            trip_push(&t, (I_), (J_), o_) || trip_push(&t, (J_), (I_), o_))            \
            goto done;                                                                 \
    } while (0)

    /* random edges, pair (i,j), j > i, with probability dens: the gaps between
     * successive chosen j are geometric, so the cost is O(edges), not O(n^2) */
    if (dens > 0.0) {
        double lq = log1p(-dens); /* -inf for dens = 1 */
        for (int i = 0; i < n - 1; i++) {
            long j = i;
            for (;;) {
                long skip = 0;
                if (dens < 1.0) {
                    double u = 1.0 - rng_uniform(&st); /* (0, 1] */
                    double k = floor(log(u) / lq);
                    skip = k > (double)n ? n : (long)k;
                }
                j += 1 + skip;
                if (j >= n) break;
                ADD_EDGE(i, (int)j);
            }
        }
    }
    /* a random Hamiltonian path: connected graph, so the null space of L is 1 */
    for (int i = 0; i < n; i++) perm[i] = i;
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
        int k = (int)rng_below(&st, (long)i + 1), tmp = perm[i];
        perm[i] = perm[k];
        perm[k] = tmp;
    }
    for (int i = 0; i + 1 < n; i++) ADD_EDGE(perm[i], perm[i + 1]);
#undef ADD_EDGE
    if (trip_to_csr(&t, n, n, &res->A)) goto done;

    /* theta ~ lambda_max(L): Lanczos on D L D (the same spectrum) */
    x = lcp_alloc((size_t)n, sizeof *x);
    if (!x) goto done;
    for (int i = 0; i < n; i++) x[i] = 2.0 * rng_uniform(&st) - 1.0;
    double theta;
    if (lanczos_max(&res->A, x, &theta)) goto done;
    double delta = theta > 0.0 ? theta / (g->cond - 1.0) : 1.0; /* n = 1: A = [1] */
    for (int i = 0; i < n; i++)
        for (int q = res->A.p[i]; q < res->A.p[i + 1]; q++)
            if (res->A.j[q] == i) res->A.x[q] += delta;
    res->cond = (theta + delta) / delta;

    /* b uniform in [-1, 1): mixed signs, so some constraints are active */
    res->b = lcp_alloc((size_t)n, sizeof *res->b);
    if (!res->b) goto done;
    for (int i = 0; i < n; i++) res->b[i] = 2.0 * rng_uniform(&st) - 1.0;
    res->n = n;
    res->kind = "lcp";
    rc = 0;
done:
    trip_free(&t);
    free(sg);
    free(perm);
    free(x);
    return rc;
}

/* ------------------------------------------------------------ murty */

/* Murty (1988, ch. 6): A(i,i) = 1, A(i,j) = 2 for j < i, 0 above; b = -1.
 * Lemke's method with the covering vector 1 takes 2^n pivots on it (the
 * transpose, upper triangular, takes 2: Siconos' lcp_exp_murty.dat read
 * column-major is that one). */
static int build_murty(const gen_params *g, gen_result *res)
{
    int n = (int)g->size;
    triplets t = {0};
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            if (trip_push(&t, i, j, i == j ? 1.0 : 2.0)) {
                trip_free(&t);
                return LCP_ERROR;
            }
    if (trip_to_csr(&t, n, n, &res->A)) return LCP_ERROR;
    res->b = lcp_alloc((size_t)n, sizeof *res->b);
    if (!res->b) return LCP_ERROR;
    for (int i = 0; i < n; i++) res->b[i] = -1.0;
    res->n = n;
    res->kind = "lcp";
    return 0;
}

/* ----------------------------------------------------------- output */

/* mkdir -p */
static int make_dirs(const char *dir, lcp_err *err)
{
    char *d = lcp_strdup(dir);
    if (!d) return LCP_ERROR;
    size_t len = strlen(d);
    for (size_t k = 1; k <= len; k++) {
        if (d[k] != '/' && d[k] != '\0') continue;
        char save = d[k];
        d[k] = '\0';
        if (mkdir(d, 0777) != 0 && errno != EEXIST) {
            int e = errno;
            lcp_fail(err, LCP_INPUT_ERROR, d, 0, "cannot create folder: %s", strerror(e));
            free(d);
            return LCP_INPUT_ERROR;
        }
        d[k] = save;
    }
    free(d);
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return lcp_fail(err, LCP_INPUT_ERROR, dir, 0, "not a folder");
    return 0;
}

static int join(char *buf, size_t size, const char *dir, const char *name, lcp_err *err)
{
    int k = snprintf(buf, size, "%s/%s", dir, name);
    if (k < 0 || (size_t)k >= size)
        return lcp_fail(err, LCP_INPUT_ERROR, dir, 0, "path too long");
    return 0;
}

static void add_num(cJSON *o, const char *key, double v) { cJSON_AddNumberToObject(o, key, v); }

static int write_json(const gen_params *g, const gen_result *r, const char *path, lcp_err *err)
{
    cJSON *root = cJSON_CreateObject(), *par = cJSON_CreateObject();
    char *text = NULL;
    int rc = lcp_fail(err, LCP_ERROR, path, 0, "out of memory");
    if (!root || !par) goto done;
    cJSON_AddStringToObject(root, "kind", r->kind);
    cJSON_AddStringToObject(root, "A", "A.mtx");
    cJSON_AddStringToObject(root, "b", "b.mtx");
    if (r->mu) cJSON_AddStringToObject(root, "mu", "mu.mtx");
    if (r->M.p) {
        cJSON_AddStringToObject(root, "M", "M.mtx");
        cJSON_AddStringToObject(root, "J", "J.mtx");
        cJSON_AddStringToObject(root, "v", "v.mtx");
    }
    cJSON_AddStringToObject(root, "scene", g->scene->name);
    unsigned id = g->scene->id;
    /* the effective parameters (defaults included), then what came out */
    if (id == SC_COLUMN) {
        add_num(par, "bodies", (double)g->bodies);
        add_num(par, "radius", g->radius);
        add_num(par, "mass", g->mass);
        add_num(par, "mass_ratio", g->mass_ratio);
    } else if (id == SC_GRANULAR) {
        add_num(par, "base", (double)g->base);
        add_num(par, "layers", (double)g->layers);
        add_num(par, "holes", g->holes);
        add_num(par, "radius", g->radius);
        add_num(par, "mass", g->mass);
        add_num(par, "seed", (double)(g->seed & ((1ULL << 53) - 1)));
    } else if (id == SC_PYRAMID) {
        add_num(par, "base", (double)g->base);
        add_num(par, "width", g->width);
        add_num(par, "depth", g->depth);
        add_num(par, "height", g->height);
        add_num(par, "mass", g->mass);
    } else if (id == SC_TOWER) {
        add_num(par, "layers", (double)g->layers);
        add_num(par, "planks", (double)g->planks);
        add_num(par, "width", g->width);
        add_num(par, "depth", g->depth);
        add_num(par, "height", g->height);
        add_num(par, "mass", g->mass);
    } else if (id == SC_MASS_RATIO) {
        add_num(par, "bodies", (double)g->bodies);
        add_num(par, "radius", g->radius);
        add_num(par, "mass", g->mass);
        add_num(par, "ratio", g->ratio);
    } else if (id == SC_REDUNDANT) {
        add_num(par, "bodies", (double)g->bodies);
        add_num(par, "points", (double)g->points);
        add_num(par, "width", g->width);
        add_num(par, "depth", g->depth);
        add_num(par, "height", g->height);
        add_num(par, "mass", g->mass);
    } else if (id == SC_CHAIN) {
        add_num(par, "links", (double)g->links);
        add_num(par, "radius", g->radius);
        add_num(par, "length", g->length);
        add_num(par, "gap", g->gap);
        add_num(par, "angle", g->angle);
        cJSON_AddBoolToObject(par, "ground", g->ground);
        add_num(par, "mass", g->mass);
    } else {
        add_num(par, "size", (double)g->size);
    }
    if (id & SC_RIGID) {
        add_num(par, "piles", (double)g->piles);
        add_num(par, "dt", g->dt);
        add_num(par, "gravity", g->gravity);
        if (r->mu) add_num(par, "mu", g->mu);
        add_num(par, "contacts", r->ncontacts);
    }
    if (id == SC_RANDOM_SPD) {
        add_num(par, "density", g->density);
        add_num(par, "cond", g->cond);
        add_num(par, "cond_estimate", r->cond);
        if (g->seed < (1ULL << 53)) { /* exact as a JSON number */
            add_num(par, "seed", (double)g->seed);
        } else {
            char seed[32];
            snprintf(seed, sizeof seed, "%llu", (unsigned long long)g->seed);
            cJSON_AddStringToObject(par, "seed", seed);
        }
    }
    if (g->envs) {
        add_num(par, "env", (double)g->env);
        add_num(par, "envs", (double)g->envs);
        add_num(par, "perturb", g->perturb);
    }
    add_num(par, "n", r->n);
    add_num(par, "nnz_A", (double)lcp_csr_nnz(&r->A));
    cJSON_AddItemToObject(root, "params", par);
    par = NULL;
    text = cJSON_Print(root);
    if (!text) goto done;

    lcp_outfile o;
    if ((rc = lcp_outfile_open(&o, path, err))) goto done;
    fputs(text, o.fp);
    fputc('\n', o.fp);
    rc = lcp_outfile_commit(&o, err);
done:
    cJSON_Delete(par);
    cJSON_Delete(root);
    free(text);
    return rc;
}

/* Writes the folder: the files of the result, then problem.json (last, so a
 * complete manifest means complete data).  Files of the problem-folder
 * schema that this result does not have (an earlier run's mu.mtx, M.mtx, ...)
 * are removed, so the folder always reads back as what was generated. */
static int write_folder(const gen_params *g, const gen_result *r, lcp_err *err)
{
    char path[4096], comment[256];
    int rc;
    const char *dir = g->out;
    if ((rc = make_dirs(dir, err))) return rc;
    const char *what = r->M.p ? "A = J M^-1 J'" : "A";
    snprintf(comment, sizeof comment, "lcpsolve generate %s: %s (see problem.json)",
             g->scene->name, what);
    if ((rc = join(path, sizeof path, dir, "A.mtx", err)) ||
        (rc = lcp_write_mtx_matrix(path, &r->A, comment, err)))
        return rc;
    snprintf(comment, sizeof comment, "lcpsolve generate %s: b%s", g->scene->name,
             r->M.p ? " = J v" : "");
    if ((rc = join(path, sizeof path, dir, "b.mtx", err)) ||
        (rc = lcp_write_mtx_vector(path, r->b, r->n, comment, err)))
        return rc;
    if (r->M.p) {
        snprintf(comment, sizeof comment,
                 "lcpsolve generate %s: M = blockdiag(m I3, inertia), 6 columns a body "
                 "(v, omega)", g->scene->name);
        if ((rc = join(path, sizeof path, dir, "M.mtx", err)) ||
            (rc = lcp_write_mtx_matrix(path, &r->M, comment, err)))
            return rc;
        snprintf(comment, sizeof comment,
                 "lcpsolve generate %s: J, contact Jacobian, %s", g->scene->name,
                 r->mu ? "rows normal, t1, t2 a contact" : "one normal row a contact");
        if ((rc = join(path, sizeof path, dir, "J.mtx", err)) ||
            (rc = lcp_write_mtx_matrix(path, &r->J, comment, err)))
            return rc;
        snprintf(comment, sizeof comment,
                 "lcpsolve generate %s: v = dt M^-1 f_ext, free velocity", g->scene->name);
        if ((rc = join(path, sizeof path, dir, "v.mtx", err)) ||
            (rc = lcp_write_mtx_vector(path, r->v, r->M.m, comment, err)))
            return rc;
    }
    if (r->mu) {
        snprintf(comment, sizeof comment, "lcpsolve generate %s: mu, one a contact",
                 g->scene->name);
        if ((rc = join(path, sizeof path, dir, "mu.mtx", err)) ||
            (rc = lcp_write_mtx_vector(path, r->mu, r->ncontacts, comment, err)))
            return rc;
    }
    static const char *const stale[] = {"M.mtx", "J.mtx", "v.mtx", "e.mtx",
                                        "mu.mtx", "lo.mtx", "hi.mtx", "findex.mtx"};
    for (size_t k = 0; k < sizeof stale / sizeof stale[0]; k++) {
        int mine = (k < 3 && r->M.p) || (k == 4 && r->mu);
        if (mine) continue;
        if ((rc = join(path, sizeof path, dir, stale[k], err))) return rc;
        if (remove(path) != 0 && errno != ENOENT)
            return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "cannot remove the stale file: %s",
                            strerror(errno));
    }
    if ((rc = join(path, sizeof path, dir, "problem.json", err))) return rc;
    return write_json(g, r, path, err);
}

/* --envs K: K folders DIR/env00000 ... (the names sort in order), each the
 * scene with its data perturbed: v_i (factored form, then b = J v, so both
 * forms stay one problem) or b_i times 1 + P u, u uniform in [-1, 1] from
 * splitmix64 seeded by (--seed, the environment's number): the same command
 * writes the same bytes, and environment k does not depend on K. */
static int write_envs(gen_params *g, gen_result *r, lcp_err *err)
{
    const char *dir = g->out;
    int rc = make_dirs(dir, err), nv = r->M.p ? r->M.m : 0;
    if (rc) return rc;
    double *b0 = lcp_alloc((size_t)r->n, sizeof(double)), *v0 = lcp_alloc((size_t)(nv > 0 ? nv : 1), sizeof(double));
    char *path = malloc(strlen(dir) + 32);
    if (!b0 || !v0 || !path) {
        free(b0);
        free(v0);
        free(path);
        return lcp_fail(err, LCP_ERROR, dir, 0, "out of memory");
    }
    memcpy(b0, r->b, (size_t)r->n * sizeof(double));
    if (nv) memcpy(v0, r->v, (size_t)nv * sizeof(double));
    for (long k = 0; k < g->envs && !rc; k++) {
        uint64_t st = g->seed ^ (0xd1b54a32d192ed03ULL * (uint64_t)(k + 1));
        rng_next(&st);
        if (nv) {
            for (int i = 0; i < nv; i++) r->v[i] = v0[i] * (1.0 + g->perturb * (2.0 * rng_uniform(&st) - 1.0));
            lcp_csr_matvec(&r->J, r->v, r->b);
        } else {
            for (int i = 0; i < r->n; i++) r->b[i] = b0[i] * (1.0 + g->perturb * (2.0 * rng_uniform(&st) - 1.0));
        }
        sprintf(path, "%s/env%05ld", dir, k);
        g->out = path;
        g->env = k;
        rc = write_folder(g, r, err);
        g->out = dir;
    }
    memcpy(r->b, b0, (size_t)r->n * sizeof(double));
    if (nv) memcpy(r->v, v0, (size_t)nv * sizeof(double));
    free(b0);
    free(v0);
    free(path);
    return rc;
}

/* ------------------------------------------------------ command line */

static void print_option(FILE *fp, const gen_option *o, long size_default, unsigned scene)
{
    char lhs[64], def[32] = "";
    const char *dv = scene_default(scene, o);
    if (o->key < 256)
        snprintf(lhs, sizeof lhs, "-%c, --%s%s%s", o->key, o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
    else
        snprintf(lhs, sizeof lhs, "    --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    if (o->key == K_SIZE) snprintf(def, sizeof def, " (default %ld)", size_default);
    else if (dv) snprintf(def, sizeof def, " (default %s)", dv);
    fprintf(fp, "  %-22s%s%s\n", lhs, o->help, def);
}

static void print_help(FILE *fp)
{
    fprintf(fp,
            "Usage: lcpsolve generate SCENE [OPTIONS] -o DIR\n"
            "\n"
            "Writes a generated problem into DIR: A.mtx, b.mtx and problem.json (a manifest\n"
            "naming them); the rigid-body scenes also write the factored form M.mtx, J.mtx,\n"
            "v.mtx (A = J M^-1 J', b = J v: one gravity step of a stack at rest), and\n"
            "mu.mtx with --mu.  Files of those names already in DIR are replaced, and\n"
            "problem-folder files the new problem lacks (M, J, v, e, mu, lo, hi, findex\n"
            ".mtx) are removed.  The same command always writes the same bytes.\n"
            "\n"
            "Scenes and their options (SI units):\n");
    for (int s = 0; s < NSCENES; s++) {
        fprintf(fp, "%s%s: %s\n", s ? "\n" : "", gen_scenes[s].name, gen_scenes[s].summary);
        for (int k = 0; k < NOPTIONS; k++)
            if (gen_options[k].scenes != SC_ALL && (gen_options[k].scenes & gen_scenes[s].id))
                print_option(fp, &gen_options[k], gen_scenes[s].default_size, gen_scenes[s].id);
    }
    fprintf(fp, "\nCommon options:\n");
    for (int k = 0; k < NOPTIONS; k++)
        if (gen_options[k].scenes == SC_ALL) print_option(fp, &gen_options[k], 0, 0);
    fprintf(fp,
            "\nExamples:\n"
            "  lcpsolve generate column --bodies 20 --mass-ratio 100 -o column20\n"
            "  lcpsolve generate pyramid --base 5 --mu 0.5 -o pyramid5-fc3d\n"
            "  lcpsolve generate random-spd --size 200 --cond 1e4 --seed 7 -o rspd200\n"
            "  lcpsolve generate tower --layers 20 --planks 3 --mu 0.5 -o kapla\n"
            "  lcpsolve generate mass-ratio --ratio 1e6 -o heavy\n"
            "  lcpsolve generate redundant --bodies 4 --points 4 -o grid\n"
            "  lcpsolve generate chain --links 100 --angle 30 -o chain100\n"
            "\nExit status: 0 written, 2 usage or input error, 5 out of memory.\n");
}

/* The one-line reason of the last usage error of this thread: the command
 * prints it ("lcpsolve generate: <what>"), the library returns it. */
static _Thread_local char usage_msg[512];

/* Keeps the reason and returns exit code 2. */
static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(usage_msg, sizeof usage_msg, fmt, ap);
    va_end(ap);
    return lcp_status_exit_code(LCP_INPUT_ERROR);
}

/* Whole-string integer in [lo, hi]: 0 ok, else prints the error, returns 2. */
static int parse_long(const char *name, const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0') return usage_error("--%s: '%s' is not an integer", name, s);
    if (errno == ERANGE || v < lo || v > hi)
        return usage_error("--%s: %s is out of range (%ld to %ld)", name, s, lo, hi);
    *out = v;
    return 0;
}

/* Whole-string finite number; positive: must be > 0 (1) or >= 0 (2). */
static int parse_double(const char *name, const char *s, int positive, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !isfinite(v) || errno == ERANGE)
        return usage_error("--%s: '%s' is not a finite number", name, s);
    if ((positive == 1 && !(v > 0.0)) || (positive == 2 && !(v >= 0.0)))
        return usage_error("--%s: %s must be %s", name, s, positive == 1 ? "> 0" : ">= 0");
    *out = v;
    return 0;
}

static int set_option(gen_params *g, const gen_option *o, const char *val)
{
    int rc = 0;
    switch (o->key) {
    case K_BODIES: rc = parse_long(o->name, val, 1, MAX_BODIES, &g->bodies); break;
    case K_BASE: rc = parse_long(o->name, val, 1, MAX_BASE, &g->base); break;
    case K_LAYERS: rc = parse_long(o->name, val, 1, MAX_BASE, &g->layers); break;
    case K_PILES: rc = parse_long(o->name, val, 1, 100000, &g->piles); break;
    case K_ENVS: rc = parse_long(o->name, val, 1, MAX_ENVS, &g->envs); break;
    case K_PERTURB:
        rc = parse_double(o->name, val, 2, &g->perturb);
        if (!rc && g->perturb >= 1.0) rc = usage_error("--%s: %s must be < 1", o->name, val);
        break;
    case K_HOLES:
        rc = parse_double(o->name, val, 2, &g->holes);
        if (!rc && g->holes >= 1.0) rc = usage_error("--%s: %s must be < 1", o->name, val);
        break;
    case K_SIZE: rc = parse_long(o->name, val, 1, MAX_SIZE, &g->size); break;
    case K_PLANKS: rc = parse_long(o->name, val, 1, 1000, &g->planks); break;
    case K_POINTS: rc = parse_long(o->name, val, 2, 32, &g->points); break;
    case K_LINKS: rc = parse_long(o->name, val, 1, MAX_BODIES, &g->links); break;
    case K_RATIO:
        rc = parse_double(o->name, val, 1, &g->ratio);
        if (!rc && !(g->ratio >= 1.0 && g->ratio <= 1e9))
            rc = usage_error("--%s: %s must be in [1, 1e9]", o->name, val);
        break;
    case K_LENGTH: rc = parse_double(o->name, val, 1, &g->length); break;
    case K_GAP: rc = parse_double(o->name, val, 2, &g->gap); break;
    case K_ANGLE:
        rc = parse_double(o->name, val, 2, &g->angle);
        if (!rc && g->angle >= 90.0) rc = usage_error("--%s: %s must be < 90", o->name, val);
        break;
    case K_GROUND: g->ground = 1; break;
    case K_RADIUS: rc = parse_double(o->name, val, 1, &g->radius); break;
    case K_MASS: rc = parse_double(o->name, val, 1, &g->mass); break;
    case K_MASS_RATIO: rc = parse_double(o->name, val, 1, &g->mass_ratio); break;
    case K_WIDTH: rc = parse_double(o->name, val, 1, &g->width); break;
    case K_DEPTH: rc = parse_double(o->name, val, 1, &g->depth); break;
    case K_HEIGHT: rc = parse_double(o->name, val, 1, &g->height); break;
    case K_DT: rc = parse_double(o->name, val, 1, &g->dt); break;
    case K_GRAVITY: rc = parse_double(o->name, val, 0, &g->gravity); break;
    case K_MU: rc = parse_double(o->name, val, 2, &g->mu); break;
    case K_DENSITY:
        rc = parse_double(o->name, val, 2, &g->density);
        if (!rc && g->density > 1.0) rc = usage_error("--%s: %s must be <= 1", o->name, val);
        break;
    case K_COND:
        rc = parse_double(o->name, val, 0, &g->cond);
        if (!rc && !(g->cond > 1.0 && g->cond <= MAX_COND))
            rc = usage_error("--%s: %s must be > 1 and <= 1e15", o->name, val);
        break;
    case K_KIND:
        if (strcmp(val, "fc3d") && strcmp(val, "ccp"))
            rc = usage_error("--%s: '%s' is not a friction kind (fc3d or ccp)", o->name, val);
        else
            g->kind = strcmp(val, "ccp") ? "fc3d" : "ccp";
        break;
    case K_SEED: {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(val, &end, 10);
        if (end == val || *end != '\0' || errno == ERANGE || strchr(val, '-'))
            return usage_error("--%s: '%s' is not a non-negative integer", o->name, val);
        g->seed = (uint64_t)v;
        break;
    }
    case K_OUTPUT:
        if (!*val) rc = usage_error("-o: the folder name is empty");
        g->out = val;
        break;
    default: break;
    }
    return rc;
}

static const gen_option *find_option(int key, int *index)
{
    for (int k = 0; k < NOPTIONS; k++)
        if (gen_options[k].key == key) {
            *index = k;
            return &gen_options[k];
        }
    return NULL;
}

static int was_given(const gen_params *g, int key)
{
    int idx = -1;
    return find_option(key, &idx) && g->given[idx];
}

/* Parses argv into g: 0 ok, -1 help printed, else the exit code. */
/* g at its defaults; 0, or an exit code (a bad default: a bug). */
static int params_init(gen_params *g)
{
    memset(g, 0, sizeof *g);
    for (int k = 0; k < NOPTIONS; k++)
        if (gen_options[k].def && set_option(g, &gen_options[k], gen_options[k].def))
            return lcp_status_exit_code(LCP_ERROR);
    g->mu = -1.0;
    g->density = -1.0;
    return 0;
}

static int params_finish(gen_params *g, const char *scene);

static int parse_args(int argc, char **av, gen_params *g)
{
    struct option lo[NOPTIONS + 1];
    for (int k = 0; k < NOPTIONS; k++) {
        lo[k].name = gen_options[k].name;
        lo[k].has_arg = gen_options[k].arg ? required_argument : no_argument;
        lo[k].flag = NULL;
        lo[k].val = gen_options[k].key;
    }
    memset(&lo[NOPTIONS], 0, sizeof lo[NOPTIONS]);
    int rc0 = params_init(g);
    if (rc0) return rc0;

    /* optind = 0 makes glibc's getopt start afresh (main may have used it);
     * av[0] ("generate") is skipped like a program name. */
    optind = 0;
    opterr = 0;
    int c, idx = -1;
    while ((c = getopt_long(argc, av, ":o:h", lo, NULL)) != -1) {
        if (c == '?') {
            if (optopt && optopt < 256) {
                char s[3] = {'-', (char)optopt, 0};
                return usage_error("unknown option '%s'", s);
            }
            return usage_error("unknown option '%s'", av[optind - 1]);
        }
        if (c == ':') return usage_error("option '%s' needs a value", av[optind - 1]);
        const gen_option *o = find_option(c, &idx);
        if (!o) return usage_error("unknown option '%s'", av[optind - 1]);
        if (c == K_HELP) {
            print_help(stdout);
            return -1;
        }
        int rc = set_option(g, o, optarg);
        if (rc) return rc;
        g->given[idx] = 1;
    }
    if (optind >= argc)
        return usage_error("no scene given (column, pyramid, granular, tower, mass-ratio, "
                           "redundant, chain, random-spd or murty)");
    if (optind + 1 < argc) return usage_error("unexpected argument '%s'", av[optind + 1]);
    if (!g->out) return usage_error("-o DIR is required");
    return params_finish(g, av[optind]);
}

/* The scene named, its defaults and the checks across options. */
static int params_finish(gen_params *g, const char *scene)
{
    int idx = -1;
    for (int s = 0; s < NSCENES; s++)
        if (!strcmp(scene, gen_scenes[s].name)) g->scene = &gen_scenes[s];
    if (!g->scene)
        return usage_error("unknown scene '%s' (column, pyramid, granular, tower, mass-ratio, "
                           "redundant, chain, random-spd or murty)",
                           scene);
    for (int k = 0; k < NOPTIONS; k++)
        if (g->given[k] && !(gen_options[k].scenes & g->scene->id))
            return usage_error("--%s does not apply to scene %s", gen_options[k].name,
                               g->scene->name);
    for (int k = 0; k < NSCENE_DEFAULTS; k++) {
        const gen_option *o = find_option(gen_scene_defaults[k].key, &idx);
        if (gen_scene_defaults[k].scene == g->scene->id && o && !g->given[idx] &&
            set_option(g, o, gen_scene_defaults[k].def))
            return lcp_status_exit_code(LCP_ERROR); /* a bad default: a bug */
    }
    if (g->scene->id == SC_TOWER && (double)g->planks * g->depth > g->width)
        return usage_error("--planks %ld of --depth %g do not fit side by side on a plank of "
                           "--width %g",
                           g->planks, g->depth, g->width);
    if (g->scene->id == SC_TOWER && (double)g->layers * (double)g->planks > (double)MAX_BODIES)
        return usage_error("--layers %ld x --planks %ld: more than %ld planks", g->layers,
                           g->planks, MAX_BODIES);
    if (g->scene->id == SC_MASS_RATIO && g->bodies < 2)
        return usage_error("--bodies: mass-ratio needs at least 2 spheres (a heavy one on light ones)");
    if (g->scene->id == SC_REDUNDANT && (double)g->bodies * (double)(g->points * g->points) > 1e7)
        return usage_error("--bodies %ld x --points %ld^2: more than 1e7 contacts", g->bodies,
                           g->points);
    if (was_given(g, K_KIND) && g->mu < 0.0) return usage_error("--kind needs --mu");
    if (was_given(g, K_PERTURB) && !g->envs) return usage_error("--perturb needs --envs");
    if (g->scene->default_size && !was_given(g, K_SIZE)) g->size = g->scene->default_size;
    if (g->scene->id == SC_MURTY && g->size > MAX_MURTY)
        return usage_error("--size: %ld is out of range for murty (1 to %ld)", g->size,
                           MAX_MURTY);
    if (g->scene->id == SC_RANDOM_SPD) {
        double n = (double)g->size;
        if (g->density < 0.0) g->density = g->size > 1 ? fmin(1.0, 10.0 / (n - 1.0)) : 0.0;
        if (g->density * n * (n - 1.0) > MAX_OFFDIAG)
            return usage_error("--size %ld with --density %g gives %.3g off-diagonal "
                               "nonzeros, more than %.0e",
                               g->size, g->density, g->density * n * (n - 1.0), MAX_OFFDIAG);
    }
    return 0;
}

/* The scene of g into r (0, or non-zero when out of memory). */
static int build(const gen_params *g, gen_result *r)
{
    rb_scene sc;
    int status = 0;
    memset(&sc, 0, sizeof sc);
    switch (g->scene->id) {
    case SC_COLUMN:
    case SC_PYRAMID:
    case SC_GRANULAR:
    case SC_TOWER:
    case SC_MASS_RATIO:
    case SC_REDUNDANT:
    case SC_CHAIN:
        status = g->scene->id == SC_COLUMN        ? scene_column(g, &sc)
                 : g->scene->id == SC_PYRAMID     ? scene_pyramid(g, &sc)
                 : g->scene->id == SC_GRANULAR    ? scene_granular(g, &sc)
                 : g->scene->id == SC_TOWER       ? scene_tower(g, &sc)
                 : g->scene->id == SC_MASS_RATIO  ? scene_mass_ratio(g, &sc)
                 : g->scene->id == SC_REDUNDANT   ? scene_redundant(g, &sc)
                                                  : scene_chain(g, &sc);
        if (!status) status = replicate(&sc, g->piles);
        if (!status) status = build_rigid(g, &sc, g->mu >= 0.0, r);
        break;
    case SC_RANDOM_SPD: status = build_random_spd(g, r); break;
    default: status = build_murty(g, r); break;
    }
    scene_free(&sc);
    return status;
}

/* The options of argv (as the command's, argv[0] "generate") checked as the
 * command checks them; 0, -1 for --help (printed), else the exit code with
 * the reason in usage_msg. */
static int parse_copy(int argc, char **argv, gen_params *g)
{
    if (argc < 1 || !argv) return usage_error("no arguments");
    /* a private copy: getopt_long permutes the pointers, not the caller's */
    char **av = lcp_alloc((size_t)argc + 1, sizeof *av);
    if (!av) return lcp_status_exit_code(LCP_ERROR);
    memcpy(av, argv, (size_t)argc * sizeof *av);
    av[argc] = NULL;
    int rc = parse_args(argc, av, g);
    free(av); /* g keeps pointers into argv's strings, not into av */
    return rc;
}

int lcp_generate_problem(const char *scene, const char *const *options, lcp_problem *p, lcp_err *err)
{
    gen_params g;
    gen_result r;
    int idx = -1;
    memset(&r, 0, sizeof r);
    usage_msg[0] = '\0';
    int rc = params_init(&g);
    for (int k = 0; !rc && options && options[k]; k += 2) { /* the table's options, by name, as the command's */
        const char *name = options[k], *val = options[k + 1];
        const gen_option *o = NULL;
        for (int q = 0; q < NOPTIONS; q++)
            if (!strcmp(gen_options[q].name, name)) o = &gen_options[q], idx = q;
        if (!o || o->key == K_HELP || o->key == K_OUTPUT || o->key == K_ENVS || o->key == K_PERTURB)
            rc = usage_error("'%s' is not an option of a scene (lcpsolve generate --help)", name);
        else if (!val)
            rc = usage_error("--%s: no value", name);
        else if (!o->arg) { /* a flag: true or false */
            if (strcmp(val, "true") && strcmp(val, "false")) rc = usage_error("--%s takes true or false", name);
            else if (!strcmp(val, "true")) rc = set_option(&g, o, ""), g.given[idx] = 1;
        } else if (!(rc = set_option(&g, o, val)))
            g.given[idx] = 1;
    }
    if (!rc) rc = params_finish(&g, scene ? scene : "");
    if (rc) return lcp_fail(err, rc == 5 ? LCP_ERROR : LCP_INPUT_ERROR, NULL, 0, "generate: %s", usage_msg);
    if (build(&g, &r)) {
        result_free(&r);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "generate %s: out of memory", g.scene->name);
    }
    /* the result's arrays become the problem's */
    p->kind = lcp_kind_parse(r.kind);
    p->n = r.n;
    p->A = r.A;
    p->b = r.b;
    p->blen = r.n;
    if (r.M.p) {
        p->M = r.M;
        p->J = r.J;
        p->v = r.v;
        p->vlen = r.M.m;
    }
    if (r.mu) {
        p->mu = r.mu;
        p->nmu = r.ncontacts;
    }
    char src[64];
    snprintf(src, sizeof src, "generate %s", g.scene->name);
    p->source = lcp_strdup(src);
    p->format = lcp_strdup("generated");
    return lcp_problem_finish(p, err);
}

int lcp_generate_main(int argc, char **argv)
{
    gen_params g;
    gen_result r;
    lcp_err err = {{0}};
    memset(&r, 0, sizeof r);
    usage_msg[0] = '\0';
    int rc = parse_copy(argc, argv, &g);
    if (rc > 0 && *usage_msg) fprintf(stderr, PROG ": %s\n", usage_msg);
    if (rc) return rc < 0 ? 0 : rc;
    int status = build(&g, &r);
    if (status) {
        fprintf(stderr, PROG ": %s: out of memory\n", g.scene->name);
        result_free(&r);
        return lcp_status_exit_code(LCP_ERROR);
    }
    status = g.envs ? write_envs(&g, &r, &err) : write_folder(&g, &r, &err);
    if (status) {
        fprintf(stderr, PROG ": %s\n", err.msg);
        result_free(&r);
        return lcp_status_exit_code((lcp_status)status);
    }
    fprintf(stderr, PROG ": %s", g.scene->name);
    if (g.scene->id & SC_RIGID)
        fprintf(stderr, ", %d bodies, %d %s", r.nbodies, r.ncontacts,
                g.scene->id == SC_CHAIN ? "ropes and contacts" : "contacts");
    fprintf(stderr, ": %s n=%d nnz(A)=%ld", r.kind, r.n, lcp_csr_nnz(&r.A));
    if (g.scene->id == SC_RANDOM_SPD) fprintf(stderr, " cond~%.3g", r.cond);
    if (g.envs) fprintf(stderr, " x %ld environments (perturb %g)", g.envs, g.perturb);
    fprintf(stderr, " -> %s\n", g.out);
    result_free(&r);
    return 0;
}
