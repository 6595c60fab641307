/* src/scenes/scenes.h: the scene generators, as the library
 * (lcps_problem_generate, src/core/api.c) and the `lcpsolve generate`
 * command (src/cli/generate.c) see them: the scenes and the one option
 * table (src/scenes/params.c), the parameters parsed and checked, a scene
 * built in memory (src/scenes/scenes.c; the rigid-body scenes in
 * geometry.c and rigid.c, random-spd and murty in matrices.c) and the
 * random numbers every scene draws.  Scenes:
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
 * The rigid-body scenes come in both forms of docs/contract.md: the factored
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
#ifndef LCPSOLVE_SCENES_H
#define LCPSOLVE_SCENES_H

#include <stdint.h>

#include "../core/problem.h"
#include "../la/csr.h"

/* The scene as a problem in memory (the library's lcps_problem_generate):
 * options NULL-terminated pairs of the command's long option names and
 * values ("base", "10", "mu", "0.5", ...; a flag: "true" or "false"),
 * checked as the command checks them but printing nothing and without
 * getopt (safe in threads); p (initialised) gets A, b, the factored form
 * and mu, lcp_problem_finish()ed.  0, or LCP_INPUT_ERROR / LCP_ERROR with
 * the reason in err. */
int lcp_generate_problem(const char *scene, const char *const *options, lcp_problem *p, lcp_err *err);

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

#define NSCENES 9
extern const gen_scene lcp_gen_scenes[]; /* NSCENES of them */

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

#define NOPTIONS 31
extern const gen_option lcp_gen_options[]; /* NOPTIONS of them */

/* The default of option o for the scene (SC_...; 0: the table's own), as
 * applied when the option is not given and shown by --help. */
const char *lcp_gen_scene_default(unsigned scene, const gen_option *o);

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

void lcp_gen_result_free(gen_result *r);

/* ------------------------------------------------------------ parameters */

/* The one-line reason of the last usage error of this thread: the command
 * prints it ("lcpsolve generate: <what>"), the library returns it. */
extern _Thread_local char lcp_gen_usage_msg[512];

/* Keeps the reason in lcp_gen_usage_msg and returns exit code 2. */
int lcp_gen_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* g at its defaults; 0, or an exit code (a bad default: a bug). */
int lcp_gen_params_init(gen_params *g);

/* Option o set to val, checked (0, or the exit code with the reason kept). */
int lcp_gen_set_option(gen_params *g, const gen_option *o, const char *val);

/* The table's option of getopt value key, its index in *index; NULL if none. */
const gen_option *lcp_gen_find_option(int key, int *index);

/* The scene named, its defaults and the checks across options (0, or the
 * exit code with the reason kept). */
int lcp_gen_params_finish(gen_params *g, const char *scene);

/* The scene of g into r (0, or non-zero when out of memory). */
int lcp_gen_build(const gen_params *g, gen_result *r);

/* ------------------------------------------------------ random numbers */

/* splitmix64 (Steele, Lea, Flood 2014): a 64-bit state, full period, good
 * enough for test matrices, and the same on every platform. */
static inline uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1): the top 53 bits. */
static inline double rng_uniform(uint64_t *s) { return (double)(rng_next(s) >> 11) * 0x1.0p-53; }

/* Uniform integer in [0, k), 0 < k <= 2^31 (bias below k / 2^53). */
static inline long rng_below(uint64_t *s, long k)
{
    long v = (long)(rng_uniform(s) * (double)k);
    return v < k ? v : k - 1;
}

#endif
