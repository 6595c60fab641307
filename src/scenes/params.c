/* src/scenes/params.c: the scenes and the one option table of `lcpsolve
 * generate` and lcps_problem_generate (names, help, defaults, the scenes
 * each option applies to), the values parsed and range-checked, and the
 * checks across options once the scene is known.  The reason of a usage
 * error is kept in lcp_gen_usage_msg (this thread's); nothing here prints. */
#include "scenes.h"

#include "../core/common.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- tables */

const gen_scene lcp_gen_scenes[] = {
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
_Static_assert(sizeof lcp_gen_scenes / sizeof lcp_gen_scenes[0] == NSCENES, "NSCENES: the scenes table");

const gen_option lcp_gen_options[] = {
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
_Static_assert(sizeof lcp_gen_options / sizeof lcp_gen_options[0] == NOPTIONS, "NOPTIONS: the options table");

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

const char *lcp_gen_scene_default(unsigned scene, const gen_option *o)
{
    for (int k = 0; k < NSCENE_DEFAULTS; k++)
        if (gen_scene_defaults[k].scene == scene && gen_scene_defaults[k].key == o->key)
            return gen_scene_defaults[k].def;
    return o->def;
}

/* ------------------------------------------------------------ parameters */

_Thread_local char lcp_gen_usage_msg[512];

int lcp_gen_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lcp_gen_usage_msg, sizeof lcp_gen_usage_msg, fmt, ap);
    va_end(ap);
    return lcp_status_exit_code(LCP_INPUT_ERROR);
}

/* Whole-string integer in [lo, hi]: 0 ok, else prints the error, returns 2. */
static int parse_long(const char *name, const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0') return lcp_gen_usage_error("--%s: '%s' is not an integer", name, s);
    if (errno == ERANGE || v < lo || v > hi)
        return lcp_gen_usage_error("--%s: %s is out of range (%ld to %ld)", name, s, lo, hi);
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
        return lcp_gen_usage_error("--%s: '%s' is not a finite number", name, s);
    if ((positive == 1 && !(v > 0.0)) || (positive == 2 && !(v >= 0.0)))
        return lcp_gen_usage_error("--%s: %s must be %s", name, s, positive == 1 ? "> 0" : ">= 0");
    *out = v;
    return 0;
}

int lcp_gen_set_option(gen_params *g, const gen_option *o, const char *val)
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
        if (!rc && g->perturb >= 1.0) rc = lcp_gen_usage_error("--%s: %s must be < 1", o->name, val);
        break;
    case K_HOLES:
        rc = parse_double(o->name, val, 2, &g->holes);
        if (!rc && g->holes >= 1.0) rc = lcp_gen_usage_error("--%s: %s must be < 1", o->name, val);
        break;
    case K_SIZE: rc = parse_long(o->name, val, 1, MAX_SIZE, &g->size); break;
    case K_PLANKS: rc = parse_long(o->name, val, 1, 1000, &g->planks); break;
    case K_POINTS: rc = parse_long(o->name, val, 2, 32, &g->points); break;
    case K_LINKS: rc = parse_long(o->name, val, 1, MAX_BODIES, &g->links); break;
    case K_RATIO:
        rc = parse_double(o->name, val, 1, &g->ratio);
        if (!rc && !(g->ratio >= 1.0 && g->ratio <= 1e9))
            rc = lcp_gen_usage_error("--%s: %s must be in [1, 1e9]", o->name, val);
        break;
    case K_LENGTH: rc = parse_double(o->name, val, 1, &g->length); break;
    case K_GAP: rc = parse_double(o->name, val, 2, &g->gap); break;
    case K_ANGLE:
        rc = parse_double(o->name, val, 2, &g->angle);
        if (!rc && g->angle >= 90.0) rc = lcp_gen_usage_error("--%s: %s must be < 90", o->name, val);
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
        if (!rc && g->density > 1.0) rc = lcp_gen_usage_error("--%s: %s must be <= 1", o->name, val);
        break;
    case K_COND:
        rc = parse_double(o->name, val, 0, &g->cond);
        if (!rc && !(g->cond > 1.0 && g->cond <= MAX_COND))
            rc = lcp_gen_usage_error("--%s: %s must be > 1 and <= 1e15", o->name, val);
        break;
    case K_KIND:
        if (strcmp(val, "fc3d") && strcmp(val, "ccp"))
            rc = lcp_gen_usage_error("--%s: '%s' is not a friction kind (fc3d or ccp)", o->name, val);
        else
            g->kind = strcmp(val, "ccp") ? "fc3d" : "ccp";
        break;
    case K_SEED: {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(val, &end, 10);
        if (end == val || *end != '\0' || errno == ERANGE || strchr(val, '-'))
            return lcp_gen_usage_error("--%s: '%s' is not a non-negative integer", o->name, val);
        g->seed = (uint64_t)v;
        break;
    }
    case K_OUTPUT:
        if (!*val) rc = lcp_gen_usage_error("-o: the folder name is empty");
        g->out = val;
        break;
    default: break;
    }
    return rc;
}

const gen_option *lcp_gen_find_option(int key, int *index)
{
    for (int k = 0; k < NOPTIONS; k++)
        if (lcp_gen_options[k].key == key) {
            *index = k;
            return &lcp_gen_options[k];
        }
    return NULL;
}

static int was_given(const gen_params *g, int key)
{
    int idx = -1;
    return lcp_gen_find_option(key, &idx) && g->given[idx];
}

int lcp_gen_params_init(gen_params *g)
{
    memset(g, 0, sizeof *g);
    for (int k = 0; k < NOPTIONS; k++)
        if (lcp_gen_options[k].def && lcp_gen_set_option(g, &lcp_gen_options[k], lcp_gen_options[k].def))
            return lcp_status_exit_code(LCP_ERROR);
    g->mu = -1.0;
    g->density = -1.0;
    return 0;
}

int lcp_gen_params_finish(gen_params *g, const char *scene)
{
    int idx = -1;
    for (int s = 0; s < NSCENES; s++)
        if (!strcmp(scene, lcp_gen_scenes[s].name)) g->scene = &lcp_gen_scenes[s];
    if (!g->scene)
        return lcp_gen_usage_error("unknown scene '%s' (column, pyramid, granular, tower, mass-ratio, "
                                   "redundant, chain, random-spd or murty)",
                                   scene);
    for (int k = 0; k < NOPTIONS; k++)
        if (g->given[k] && !(lcp_gen_options[k].scenes & g->scene->id))
            return lcp_gen_usage_error("--%s does not apply to scene %s", lcp_gen_options[k].name,
                                       g->scene->name);
    for (int k = 0; k < NSCENE_DEFAULTS; k++) {
        const gen_option *o = lcp_gen_find_option(gen_scene_defaults[k].key, &idx);
        if (gen_scene_defaults[k].scene == g->scene->id && o && !g->given[idx] &&
            lcp_gen_set_option(g, o, gen_scene_defaults[k].def))
            return lcp_status_exit_code(LCP_ERROR); /* a bad default: a bug */
    }
    if (g->scene->id == SC_TOWER && (double)g->planks * g->depth > g->width)
        return lcp_gen_usage_error("--planks %ld of --depth %g do not fit side by side on a plank of "
                                   "--width %g",
                                   g->planks, g->depth, g->width);
    if (g->scene->id == SC_TOWER && (double)g->layers * (double)g->planks > (double)MAX_BODIES)
        return lcp_gen_usage_error("--layers %ld x --planks %ld: more than %ld planks", g->layers,
                                   g->planks, MAX_BODIES);
    if (g->scene->id == SC_MASS_RATIO && g->bodies < 2)
        return lcp_gen_usage_error("--bodies: mass-ratio needs at least 2 spheres (a heavy one on light ones)");
    if (g->scene->id == SC_REDUNDANT && (double)g->bodies * (double)(g->points * g->points) > 1e7)
        return lcp_gen_usage_error("--bodies %ld x --points %ld^2: more than 1e7 contacts", g->bodies,
                                   g->points);
    if (was_given(g, K_KIND) && g->mu < 0.0) return lcp_gen_usage_error("--kind needs --mu");
    if (was_given(g, K_PERTURB) && !g->envs) return lcp_gen_usage_error("--perturb needs --envs");
    if (g->scene->default_size && !was_given(g, K_SIZE)) g->size = g->scene->default_size;
    if (g->scene->id == SC_MURTY && g->size > MAX_MURTY)
        return lcp_gen_usage_error("--size: %ld is out of range for murty (1 to %ld)", g->size,
                                   MAX_MURTY);
    if (g->scene->id == SC_RANDOM_SPD) {
        double n = (double)g->size;
        if (g->density < 0.0) g->density = g->size > 1 ? fmin(1.0, 10.0 / (n - 1.0)) : 0.0;
        if (g->density * n * (n - 1.0) > MAX_OFFDIAG)
            return lcp_gen_usage_error("--size %ld with --density %g gives %.3g off-diagonal "
                                       "nonzeros, more than %.0e",
                                       g->size, g->density, g->density * n * (n - 1.0), MAX_OFFDIAG);
    }
    return 0;
}
