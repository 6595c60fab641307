/* src/core/auto.c: `--solver auto`.
 *
 * Cheap facts first (O(nnz) each): kind, n, nnz and density, symmetry, the
 * diagonal (all positive?), findex rows (blcp), the contact graph's largest
 * component; then, only where the choice depends on it, a short Lanczos
 * estimate (at most 60 products with A, src/la/spectral.c) of the extreme
 * eigenvalues of D^-1/2 A D^-1/2: lmin ~ 0 says semidefinite (or nearly),
 * lmax / lmin is the condition estimate that decides between a plain sweep
 * (psor/sgs: few sweeps when well conditioned), a first-order method
 * (apgd) and a Krylov method (mprgp with ichol), and for friction between
 * admm and the robust sweeps.  The rules come from scripts/auto-check (every candidate on
 * problems/, the Siconos collections and generated scenes; see the README):
 *
 *  lcp, blcp with a non-positive diagonal entry: no sweep or gradient
 *    method applies: lemke (lcp) or pivot (blcp).
 *  lcp, non-symmetric A: lemke up to n = 2000 (dense pivoting is exact and
 *    fast there), psor above (positive diagonal).
 *  lcp/blcp, symmetric, n <= 40: pivot (principal pivoting, exact, dense)
 *    -- a few microseconds where sweeps may take many.
 *  blcp with findex, n > 300: pivot up to n = 4000, pgs above.
 *  lcp/blcp, symmetric, no findex, n > 40: the contact graph's largest
 *    component, its diameter (double-sweep BFS) and their growth exponent
 *    g = log(size) / log(diameter) -- about 1 for chains and columns, 2 for
 *    walls and 2D pyramids, 2.5 and more for 3D piles of spheres or planks,
 *    4 and more for random (expander-like) graphs:
 *      g >= 3.5 (information crosses in a few sweeps): pgs (mprgp -p ichol
 *        after 300 sweeps);
 *      n <= 300 and g < 2.3: mprgp -p ichol (nearly exact on chains and
 *        walls: a few iterations, where dense pivoting takes n pivots);
 *      the Lanczos condition estimate below 100: pgs (mprgp -p ichol after
 *        300);
 *      g >= 2.3 (3D piles): apgd -p diag -- incomplete Cholesky of the whole
 *        A is a poor preconditioner there (little of the factor's fill kept,
 *        and a third or more of the contacts end up inactive, where the
 *        factor of A is not one of the active part), so MPRGP + ichol runs
 *        hundreds of iterations; accelerated projected gradient with the
 *        diagonal is robust, in about sqrt(cond) to 30 sqrt(cond)
 *        iterations: ipm after 50 sqrt(cond) (at least 2000); but a pile of
 *        more than 2000 contacts in one group: ipm (its 15-20 sparse
 *        factorisations cost less than apgd's thousands of iterations);
 *      otherwise (chains, columns, walls, 2D piles, mass ratios): mprgp -p
 *        ichol (<= 10 iterations there; ipm after 100; on chains, growth <
 *        1.2, pmg after 5, then ipm: mprgp_fallback()).
 *    and, unless pgs, where A has 35 or more entries a row (many contact
 *    points on each body: towers, point grids): newton-min first, 3 steps at
 *    most, then that pick (newton_probe() below).
 *  fc3d and ccp: the condition estimate only for 3D piles (growth >= 2.3)
 *    of point contacts (points_per_pair() < 2: spheres); elsewhere admm's
 *    budgets take cond = 2e4 (the Lanczos steps cost as much as admm's
 *    whole solve on towers and stacks of boxes).
 *  fc3d and ccp, n <= 30: nsgs, 100 sweeps at most (a chain of heavy on
 *    light bodies stalls it: 80,000 sweeps), then admm (W not symmetric:
 *    nsn, socp-ipm).
 *  fc3d: nsgs when the contact graph falls apart into small components
 *    (largest <= 16 contacts: decomposition solves them apart);
 *    half the contacts or more opening (b_n > 0: simulation steps with
 *    speculative contacts, most of which end at r = 0) and point contacts
 *    (points_per_pair() < 2: spheres): nsgs (2-4x faster than admm on
 *    generated sphere simulations; on stacks of boxes, 4 points a face,
 *    nsgs crawls: Siconos BoxesStack1); for ccp there socp-ipm (1-2.5x
 *    faster than admm, which takes hundreds of iterations; nsgs is slower);
 *    W not symmetric: nsn (nsgs after its budget);
 *    W symmetric: admm (pyramids, towers, and since admm scales per contact
 *    and takes De Saxce's s from the dual, columns and stacks of boxes too:
 *    8-75 iterations, 10-80x faster than nsn there); after 300 (ADMM_TAIL)
 *    nsn from admm's best iterate, 10 steps at most; failing that admm
 *    again from its best iterate up to 10 sqrt(cond) in all (300 to 2000,
 *    cond taken as 2e4 where not estimated), nsn from its iterate once
 *    more; then nsn from zero, then nsgs; but a 3D granular pile (growth >=
 *    2.3, point contacts, the Lanczos estimate above 2e4), which defeats
 *    admm and Newton alike but for small piles: admm for 100 iterations,
 *    then nsgs.  nsn's budget scales with the chain it has to settle: 100 +
 *    2 diameter steps.  (No structural fact tells the stacks where admm
 *    crawls from those it solves at once: generated stacks of boxes with
 *    2x2-5x5 points, growth 1.5-2.1, take 8-9 iterations, Siconos'
 *    BoxesStack1, the same shape, 3,097; what separates them is admm's own
 *    progress, hence the budget and the warm Newton polish.)
 *  ccp: nsgs for small or split-up problems; W symmetric: admm (tens of
 *    iterations), socp-ipm after 10 sqrt(cond) (200 to 2000), then nsgs;
 *    but a granular pile (as for fc3d): admm for 100 iterations, then
 *    socp-ipm, nsgs on a breakdown; W not symmetric: socp-ipm, nsgs on a
 *    breakdown.
 * A pick that may stall runs on an iteration budget; unless it solved (or
 * proved there is no solution), its fallback then runs from zero (main.c,
 * sequence.c): lemke -> newton-fb, pgs -> mprgp -p ichol, mprgp -> ipm,
 * apgd -> ipm, admm -> nsn -> nsgs or admm -> socp-ipm -> nsgs, nsn -> nsgs;
 * fc3d's admm -> nsn first from admm's best iterate (auto.h warm_budget).
 */
#include "auto.h"

#include "../la/spectral.h"
#include "../graph/graph.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int n, symmetric, diag_ok, bad_row, findex, largest, components, diameter;
    long nnz;
    double density, diag_min, diag_max;
    double growth;           /* log(largest) / log(diameter): 1 chains, 2 walls, 2.5+ 3D piles */
    double lmin, lmax, cond; /* scaled spectrum (Lanczos); cond < 0: not computed */
    int lanczos_steps;
} facts;

/* The 30-step Lanczos estimate of the condition of D^-1/2 A D^-1/2 (a lower
 * bound: Ritz values lie inside the spectrum); INFINITY when lmin ~ 0. */
static void condition(const lcp_problem *p, facts *f)
{
    f->lanczos_steps = 0;
    f->cond = INFINITY;
    int rc = f->symmetric ? lcp_spectrum_symmetric(&p->A, 30, &f->lmin, &f->lmax, &f->lanczos_steps)
                          : lcp_spectrum(&p->A, NULL, 30, &f->lmin, &f->lmax, &f->lanczos_steps);
    if (rc == 0 && f->lmin > 1e-12 * f->lmax) f->cond = f->lmax / f->lmin;
}

/* A budget of iterations c sqrt(cond), clamped to [lo, hi]. */
static int sqrt_budget(double c, double cond, int lo, int hi)
{
    double b = isfinite(cond) ? c * sqrt(cond) : hi;
    return b < lo ? lo : b > hi ? hi : (int)b;
}

static void append_cond(char *est, size_t size, const facts *f)
{
    size_t l = strlen(est);
    if (isfinite(f->cond))
        snprintf(est + l, size - l, ", scaled cond ~%.3g (Lanczos, %d steps)", f->cond, f->lanczos_steps);
    else
        snprintf(est + l, size - l, ", semidefinite or nearly (Lanczos lmin ~ 0, %d steps)", f->lanczos_steps);
}

static void set(lcp_auto_choice *ch, const char *solver, const char *precond)
{
    ch->solver = lcp_solver_find(solver);
    ch->precond = precond ? lcp_precond_find(precond) : NULL;
    ch->precond_name = ch->precond ? precond : "none";
}

static void fallback(lcp_auto_choice *ch, const char *solver, int budget)
{
    ch->fallback = lcp_solver_find(solver);
    ch->budget = budget;
}

/* The eccentricity of the last node reached by a breadth-first search from
 * the farthest node of a first one (the double sweep): a lower bound on the
 * diameter of start's component, usually close.  Information crosses a
 * Gauss-Seidel sweep along edges, so sweeps grow like diameter^2 on chains
 * and stay few on well-connected contact sets.  -1 on no memory. */
static int diameter_estimate(const lcp_graph *g, int start)
{
    int *dist = lcp_alloc((size_t)g->n, sizeof *dist), *queue = lcp_alloc((size_t)g->n, sizeof *queue);
    int ecc = -1;
    if (dist && queue) {
        int from = start;
        for (int sweep = 0; sweep < 2; sweep++) {
            for (int v = 0; v < g->n; v++) dist[v] = -1;
            int head = 0, tail = 0, last = from;
            dist[from] = 0;
            queue[tail++] = from;
            while (head < tail) {
                int v = queue[head++];
                last = v;
                for (int k = g->p[v]; k < g->p[v + 1]; k++)
                    if (dist[g->j[k]] < 0) dist[g->j[k]] = dist[v] + 1, queue[tail++] = g->j[k];
            }
            ecc = dist[last];
            from = last;
        }
    }
    free(dist);
    free(queue);
    return ecc;
}

/* Breadth-first search over the contacts straight on the pattern of a
 * symmetric A (which is then the contact graph: no copy), a contact being
 * `block` consecutive rows; dist[] >= 0 marks the visited.  Returns the
 * number reached; *last gets the last one (the farthest). */
static int bfs_pattern(const lcp_csr *A, int block, int from, int *dist, int *queue, int *last)
{
    int head = 0, tail = 0;
    dist[from] = 0;
    queue[tail++] = from;
    *last = from;
    while (head < tail) {
        int v = queue[head++];
        *last = v;
        for (int r = v * block; r < (v + 1) * block; r++)
            for (int k = A->p[r]; k < A->p[r + 1]; k++) {
                int u = A->j[k] / block;
                if (dist[u] < 0) dist[u] = dist[v] + 1, queue[tail++] = u;
            }
    }
    return tail;
}

/* largest_component() for a symmetric A: components and the double sweep
 * on A's own pattern, O(nnz) each, without building the graph (whose
 * triplet sort cost more than the rest of auto's analysis together). */
static int largest_component_sym(const lcp_problem *p, facts *f)
{
    int block = p->kind & LCP_KIND_FRICTION ? 3 : 1, nn = p->n / block;
    int *dist = lcp_alloc((size_t)(nn > 0 ? nn : 1), sizeof *dist);
    int *queue = lcp_alloc((size_t)(nn > 0 ? nn : 1), sizeof *queue);
    if (!dist || !queue || nn == 0) {
        free(dist);
        free(queue);
        return -1;
    }
    for (int v = 0; v < nn; v++) dist[v] = -1;
    int best = 0, start = 0, count = 0, last;
    for (int v = 0; v < nn; v++)
        if (dist[v] < 0) {
            int size = bfs_pattern(&p->A, block, v, dist, queue, &last);
            count++;
            if (size > best) best = size, start = v;
        }
    f->components = count;
    f->largest = best;
    for (int sweep = 0; sweep < 2; sweep++) {
        for (int v = 0; v < nn; v++) dist[v] = -1;
        bfs_pattern(&p->A, block, start, dist, queue, &last);
        f->diameter = dist[last];
        start = last;
    }
    free(dist);
    free(queue);
    return 0;
}

static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Contacts a distinct neighbourhood: contact points on the same pair of
 * bodies touch the same contacts (those of either body), so their rows of a
 * symmetric A share one pattern of contacts: 1 for point contacts (spheres),
 * 4 for planks crossing or boxes on boxes at 4 corners, K^2 for K x K grids.
 * A hash of each contact's set of neighbours (O(nnz), then a sort); 1 on no
 * memory. */
static double points_per_pair(const lcp_problem *p)
{
    int block = p->kind & LCP_KIND_FRICTION ? 3 : 1, nn = p->n / block;
    if (nn < 1) return 1;
    uint64_t *h = lcp_alloc((size_t)nn, sizeof *h);
    int *mark = lcp_alloc((size_t)nn, sizeof *mark);
    double r = 1;
    if (h && mark) {
        for (int v = 0; v < nn; v++) mark[v] = -1;
        for (int v = 0; v < nn; v++) {
            uint64_t sum = 0, cnt = 0;
            for (int row = v * block; row < (v + 1) * block; row++)
                for (int k = p->A.p[row]; k < p->A.p[row + 1]; k++) {
                    int u = p->A.j[k] / block;
                    if (mark[u] != v) mark[u] = v, sum += mix64((uint64_t)u), cnt++;
                }
            h[v] = mix64(sum ^ mix64(cnt << 32));
        }
        qsort(h, (size_t)nn, sizeof *h, cmp_u64);
        int distinct = 1;
        for (int v = 1; v < nn; v++) distinct += h[v] != h[v - 1];
        r = (double)nn / distinct;
    }
    free(h);
    free(mark);
    return r;
}

/* The share of friction contacts whose normal velocity opens (b_n > 0). */
static double open_share(const lcp_problem *p)
{
    int open = 0;
    for (int c = 0; c < p->nc; c++) open += p->b[3 * c] > 0;
    return p->nc > 0 ? (double)open / p->nc : 0;
}

/* a complete (or edgeless) group: every contact next to every other */
static void set_growth(facts *f)
{
    if (f->diameter >= 0) f->growth = f->diameter <= 1 ? INFINITY : log((double)f->largest) / log((double)f->diameter);
}

static int largest_component(const lcp_problem *p, facts *f)
{
    f->diameter = -1;
    lcp_graph g;
    lcp_err e;
    f->largest = p->kind & LCP_KIND_FRICTION ? p->nc : p->n;
    f->components = 1;
    f->growth = 1;
    if (f->symmetric && largest_component_sym(p, f) == 0) {
        set_growth(f);
        return 0;
    }
    if (lcp_graph_build(p, &g, &e)) return 0; /* no memory: assume one component */
    int *comp = lcp_alloc((size_t)(g.n > 0 ? g.n : 1), sizeof *comp);
    int *size = lcp_alloc((size_t)(g.n > 0 ? g.n : 1), sizeof *size);
    if (comp && size && g.n > 0) {
        int k = lcp_graph_components(&g, comp, size);
        if (k > 0) {
            f->components = k;
            f->largest = size[0];
            int v0 = 0;
            while (v0 < g.n && comp[v0] != 0) v0++;
            if (v0 < g.n) f->diameter = diameter_estimate(&g, v0);
        }
    }
    set_growth(f);
    free(comp);
    free(size);
    lcp_graph_free(&g);
    return 0;
}

/* mprgp -p ichol's fallback: ipm after 100 iterations; but on a chain
 * (growth < 1.2: each contact coupled to the next only) ichol is the exact
 * factor and mprgp takes 1 iteration, unless A is singular (a chain held at
 * both ends: a hanging rope chain resting on the ground), where it takes
 * hundreds and ipm, dense up to n = 1000, costs 100x pmg: there pmg after
 * 5 (multigrid cycles independent of the chain's length), ipm after 100
 * cycles.  (mprgp's set-up and 20 iterations cost as much as pmg's solve.) */
static int is_chain(const facts *f)
{
    return f->diameter >= 0 && f->growth < 1.2;
}

static const char *chain_then(const facts *f)
{
    return is_chain(f) ? "a chain (growth < 1.2: ichol exact, 1 iteration unless A is singular): pmg after 5, "
                         "ipm after 100 cycles"
                       : "ipm after 100";
}

static void mprgp_fallback(lcp_auto_choice *ch, const facts *f)
{
    if (is_chain(f) && lcp_solver_find("pmg")) {
        fallback(ch, "pmg", 5);
        ch->fallback2 = lcp_solver_find("ipm");
        ch->fallback_budget = 100;
    } else {
        fallback(ch, "ipm", 100);
    }
}

/* The Newton first try (lcp, symmetric, n > 40, not a pgs pick): where A has
 * PROBE_ROW or more entries a row, each contact is coupled with 35 or more
 * others -- many contact points on each body (towers of planks crossing
 * several below and above, stacks with grids of points on each face), n far
 * above A's rank.  There incomplete Cholesky costs nearly a complete
 * factorization yet leaves MPRGP tens of iterations, and apgd crawls along
 * the near-null directions; while in a resting stack every contact presses,
 * and newton-min's first step from zero (every contact with b_i <= 0 active:
 * one factorization) is the answer.  scripts/auto-check --unseen: towers of
 * 3-5 planks a layer (41-76 a row), 4x4-8x8 point grids (47-190): newton-min
 * solves in 1 step, 1.4-7x faster than the rules' pick; pyramids, 2-plank
 * towers, 2x2-3x3 grids, granular piles (12-27 a row): mprgp or apgd are
 * 1.4-5x faster than newton-min.  The pick of the rules runs after
 * PROBE_STEPS steps, its fallback after it. */
#define PROBE_ROW 35.0
/* admm's first try on an fc3d granular pile: it solves piles of ~40 contacts
 * in ~30 iterations, 4x faster than nsgs; on larger piles it stalls, and 100
 * iterations cost little against nsgs's thousands of sweeps there */
#define PILE_ADMM 100
#define PROBE_STEPS 3
/* fc3d, W symmetric, not a granular pile: admm's budget, then nsn from its
 * best iterate on NEWTON_POLISH steps (auto.h warm_budget); failing that,
 * admm again from its best iterate up to 10 sqrt(cond) iterations in all
 * (its old budget: about what nsn from zero costs), nsn from its iterate
 * once more, then nsn from zero.  admm solves every generated stack, tower,
 * column, pyramid and mass ratio at rest in 8-31 iterations, the Siconos
 * files it takes in 9-75; where it runs on (BoxesStack1: 3,097 to 1e-8;
 * steps of a sphere pyramid simulation: 400-30,000), it is in a slow linear
 * tail, and Newton from its iterate after 300 finishes in 1-2 steps (14 of
 * 17 such steps, 5 of which nsn from zero fails; BoxesStack1: 1 step, 4 ms,
 * against 10-13 ms for nsn alone and 40 ms for admm alone), or crawls for
 * hundreds: there admm's second round (a step where it solves by 915; one
 * where Newton from its 1,414th iterate solves and nothing else does within
 * 60 ms). */
#define ADMM_TAIL 300
/* fc3d/ccp with n <= 30: nsgs's sweeps (about 1 us each there) before admm */
#define SMALL_SWEEPS 100
#define NEWTON_POLISH 10

static void newton_probe(lcp_auto_choice *ch, char *why, size_t size, double row)
{
    char rest[700];
    memcpy(rest, why, sizeof rest < size ? sizeof rest : size);
    rest[sizeof rest - 1] = '\0';
    ch->fallback2 = ch->fallback;
    ch->fallback_budget = ch->budget;
    ch->fallback = ch->solver;
    ch->fallback_precond = ch->precond;
    ch->budget = PROBE_STEPS;
    ch->probe = 1;
    const char *pre = ch->precond ? ch->precond_name : NULL;
    char then[64];
    snprintf(then, sizeof then, "%s%s%s", ch->solver->name, pre ? " -p " : "", pre ? pre : "");
    set(ch, "newton-min", NULL);
    snprintf(why, size, "%.1f entries a row >= %g (many contact points a body, A far below full rank: a resting "
             "stack, all contacts pressed): newton-min first, %d steps at most, then %s: %.400s", row, PROBE_ROW,
             PROBE_STEPS, then, rest);
}

void lcp_auto_drop_probe(lcp_auto_choice *ch)
{
    if (!ch->probe) return;
    ch->solver = ch->fallback;
    ch->precond = ch->fallback_precond;
    ch->precond_name = ch->precond ? ch->precond->name : "none";
    ch->budget = ch->fallback2 ? ch->fallback_budget : 0;
    ch->fallback = ch->fallback2;
    ch->fallback_precond = NULL;
    ch->fallback2 = NULL;
    ch->fallback_budget = 0;
    ch->probe = 0;
    size_t l = strlen(ch->reason);
    snprintf(ch->reason + l, sizeof ch->reason - l, "; without the Newton first try: %s", ch->solver->name);
}

void lcp_auto_begin(const lcp_auto_choice *ch, const lcp_solver *sv, const lcp_precond_type *precond, int user_max,
                    lcp_auto_run *r)
{
    *r = (lcp_auto_run){.solver = sv, .precond = precond, .pick_precond = precond, .start = LCP_AUTO_FROM_ZERO};
    if (ch->fallback && ch->budget > 0 && ch->budget < user_max) r->max_iter = ch->budget;
}

int lcp_auto_next(const lcp_auto_choice *ch, const lcp_problem *p, int user_max, lcp_status status, int best_finite,
                  int saved, lcp_auto_run *r)
{
    int cut = status == LCP_ERROR || (r->max_iter > 0 && (status == LCP_MAX_ITER || status == LCP_STALLED));
    if (!cut) return 0;
    if (r->polish && !r->resumed && saved && ch->resume > ch->budget) { /* the pick again, from its best iterate */
        r->solver = ch->solver;
        r->precond = r->pick_precond;
        r->polish = 0;
        r->resumed = 1;
        r->max_iter = ch->resume - ch->budget < user_max ? ch->resume - ch->budget : 0;
        r->start = LCP_AUTO_FROM_SAVED;
        r->what = "again from its best iterate";
        return 1;
    }
    const lcp_solver *next = r->polish ? r->solver : r->stage == 0 ? ch->fallback : r->stage == 1 ? ch->fallback2 : NULL;
    if (!next || lcp_solver_check(next, p, NULL)) return 0;
    /* the first fallback from the pick's best iterate on warm_budget iterations; then from zero */
    int warm = !r->polish && r->stage == 0 && ch->warm_budget > 0 && status != LCP_ERROR && best_finite;
    r->solver = next;
    r->precond = r->stage == 0 ? ch->fallback_precond : NULL;
    r->polish = warm;
    r->start = warm ? LCP_AUTO_FROM_BEST : LCP_AUTO_FROM_ZERO;
    r->what = warm ? "from its best iterate" : "from zero";
    if (warm) {
        r->max_iter = ch->warm_budget < user_max ? ch->warm_budget : 0;
    } else {
        r->max_iter = r->stage == 0 && ch->fallback2 && ch->fallback_budget > 0 && ch->fallback_budget < user_max
                          ? ch->fallback_budget
                          : 0;
        r->stage++;
    }
    return 1;
}

#define WHY_LEN 700 /* the reason of a rule */

/* The rules for lcp and blcp (the reason into why). */
static void choose_linear(const lcp_problem *p, facts f, lcp_auto_choice *ch, char *why)
{
    int n = p->n;
    int blcp = p->kind == LCP_KIND_BLCP;
    if (!f.diag_ok) {
        set(ch, blcp ? "pivot" : "lemke", NULL);
        snprintf(why, WHY_LEN, "A(%d,%d) = %g: the sweep and gradient methods need a positive diagonal",
                 f.bad_row + 1, f.bad_row + 1, lcp_csr_diag(&p->A, f.bad_row));
        if (!blcp) fallback(ch, "newton-fb", 0);
    } else if (!f.symmetric && !blcp && n <= 2000) {
        set(ch, "lemke", NULL);
        snprintf(why, WHY_LEN, "A not symmetric, n = %d <= 2000: dense complementary pivoting is exact", n);
        fallback(ch, "newton-fb", 0);
    } else if (!f.symmetric) {
        set(ch, "psor", NULL);
        snprintf(why, WHY_LEN, "A not symmetric, n = %d%s: projected SOR on the positive diagonal", n,
                 blcp ? "" : " > 2000");
    } else if (f.findex && n <= 4000) {
        set(ch, "pivot", NULL);
        snprintf(why, WHY_LEN, "%d findex (friction) rows, n = %d <= 4000: principal pivoting with the friction "
                 "bound fixed point", f.findex, n);
    } else if (f.findex) {
        set(ch, "pgs", NULL);
        snprintf(why, WHY_LEN, "%d findex (friction) rows, n = %d > 4000: projected Gauss-Seidel", f.findex, n);
    } else if (n <= 40) {
        set(ch, "pivot", NULL);
        snprintf(why, WHY_LEN, "symmetric, n = %d <= 40: principal pivoting, exact in a few dense steps", n);
    } else {
        largest_component(p, &f);
        char est[300];
        snprintf(est, sizeof est, "group %d rows, diameter ~%d, growth ln size/ln diameter = %.2f",
                 f.largest, f.diameter, f.growth);
        if (f.diameter >= 0 && f.growth >= 3.5) {
            set(ch, "pgs", NULL);
            snprintf(why, WHY_LEN, "symmetric, n = %d, %s >= 3.5: well connected, few Gauss-Seidel sweeps "
                     "(mprgp -p ichol after 300)", n, est);
            fallback(ch, "mprgp", 300);
            ch->fallback_precond = lcp_precond_find("ichol");
        } else if (n <= 300 && f.growth < 2.3) {
            set(ch, "mprgp", "ichol");
            snprintf(why, WHY_LEN, "symmetric, n = %d <= 300, %s < 2.3 (chains, walls, 2D piles): MPRGP + "
                     "incomplete Cholesky, nearly exact there, a few iterations; %s", n, est, chain_then(&f));
            mprgp_fallback(ch, &f);
        } else {
            condition(p, &f); /* decides pgs; sets apgd's budget */
            append_cond(est, sizeof est, &f);
            if (f.cond < 100) {
                set(ch, "pgs", NULL);
                snprintf(why, WHY_LEN, "symmetric, n = %d, %s < 100: a few Gauss-Seidel sweeps "
                         "(mprgp -p ichol after 300)", n, est);
                fallback(ch, "mprgp", 300);
                ch->fallback_precond = lcp_precond_find("ichol");
            } else if (f.growth >= 2.3 && f.largest > 2000) {
                set(ch, "ipm", NULL);
                snprintf(why, WHY_LEN, "symmetric, n = %d, %s; growth >= 2.3, a 3D pile, group > 2000: interior "
                         "point (15-20 factorisations at any size; apgd's iterations grow with the pile)", n, est);
            } else if (f.growth >= 2.3) {
                int budget = sqrt_budget(50, f.cond, 2000, 50000);
                set(ch, "apgd", "diag");
                snprintf(why, WHY_LEN, "symmetric, n = %d, %s; growth >= 2.3 (3D pile: ichol keeps little, many "
                         "contacts end inactive): accelerated projected gradient, diagonal scaling; ipm after "
                         "%d (50 sqrt(cond) in [2000, 50000])",
                         n, est, budget);
                fallback(ch, "ipm", budget);
            } else {
                set(ch, "mprgp", "ichol");
                snprintf(why, WHY_LEN, "symmetric, n = %d, %s; growth < 2.3 (chains, walls, 2D piles): MPRGP + "
                         "incomplete Cholesky, <= 10 iterations there; %s", n, est, chain_then(&f));
                mprgp_fallback(ch, &f);
            }
        }
        double row = (double)f.nnz / n;
        if (row >= PROBE_ROW && ch->solver && strcmp(ch->solver->name, "pgs") && !ch->fallback2 &&
            lcp_solver_find("newton-min"))
            newton_probe(ch, why, WHY_LEN, row);
    }
}

/* The rules for ccp and fc3d (the reason into why). */
static void choose_friction(const lcp_problem *p, facts f, lcp_auto_choice *ch, char *why)
{
    int n = p->n;
    const char *kind = lcp_kind_name(p->kind);
    largest_component(p, &f);
    int ccp = p->kind == LCP_KIND_CCP;
    int nsn_budget = 100 + 2 * (f.diameter > 0 ? f.diameter : 0); /* Newton settles a chain step by step */
    char est[300];
    snprintf(est, sizeof est, "%d contacts, largest group %d (of %d), diameter ~%d, growth ln size/ln "
             "diameter = %.2f", p->nc, f.largest, f.components, f.diameter, f.growth);
    if (n <= 30) {
        /* a few sweeps solve most small problems; a chain of heavy on light bodies (mass ratios) takes
         * Gauss-Seidel 80,000 (a column of 10 spheres, top one 1000x heavier: 150 ms, admm 0.2 ms) */
        const char *then = f.symmetric ? "admm" : ccp ? "socp-ipm" : "nsn";
        set(ch, "nsgs", NULL);
        snprintf(why, WHY_LEN, "%s, n = %d <= 30, %d contacts, largest coupled group %d (of %d): block "
                 "Gauss-Seidel over contacts, %d sweeps at most (a mass ratio along a chain stalls it), then %s",
                 kind, n, p->nc, f.largest, f.components, SMALL_SWEEPS, then);
        fallback(ch, then, SMALL_SWEEPS);
    } else if (n <= 30 || f.largest <= 16) {
        set(ch, "nsgs", NULL);
        snprintf(why, WHY_LEN, "%s, %d contacts, largest coupled group %d (of %d): block Gauss-Seidel over "
                 "contacts", kind, p->nc, f.largest, f.components);
    } else if (ccp && open_share(p) >= 0.5 && points_per_pair(p) < 2) {
        set(ch, "socp-ipm", NULL);
        snprintf(why, WHY_LEN, "ccp, %s, %.0f%% of the contacts opening (b_n > 0: a simulation step with "
                 "speculative contacts), point contacts (%.2f a neighbourhood < 2: spheres): interior point over "
                 "the cones, 10-20 steps where admm takes hundreds (nsgs on a breakdown)", est,
                 100 * open_share(p), points_per_pair(p));
        fallback(ch, "nsgs", 0);
    } else if (!ccp && open_share(p) >= 0.5 && points_per_pair(p) < 2) {
        set(ch, "nsgs", NULL);
        snprintf(why, WHY_LEN, "fc3d, %s, %.0f%% of the contacts opening (b_n > 0: a simulation step with "
                 "speculative contacts), point contacts (%.2f a neighbourhood < 2: spheres): block Gauss-Seidel "
                 "settles them in a sweep, where admm iterates the whole system", est, 100 * open_share(p),
                 points_per_pair(p));
    } else if (f.symmetric) {
        /* the condition estimate (30 products with W: as much as admm's whole solve on a tower) decides
         * only granular 3D piles: growth >= 2.3 and point contacts (one contact a pair of bodies).
         * Elsewhere it would only set admm's budget, which then assumes the worst condition admm is
         * picked for, 2e4 */
        double pts = f.growth >= 2.3 ? points_per_pair(p) : 1;
        if (f.growth >= 2.3 && pts < 2) {
            condition(p, &f);
            append_cond(est, sizeof est, &f);
        } else if (f.growth >= 2.3) {
            size_t l = strlen(est);
            snprintf(est + l, sizeof est - l, ", %.1f contacts a neighbourhood >= 2 (several points on each pair "
                     "of bodies: a stack of planks or boxes, not a granular pile of point contacts; cond taken as "
                     "2e4)", pts);
        } else {
            size_t l = strlen(est);
            snprintf(est + l, sizeof est - l, " < 2.3 (no condition estimate: not a 3D pile; cond taken as 2e4)");
        }
        double cond = f.cond >= 0 ? f.cond : 2e4;
        int pile = f.growth >= 2.3 && !(f.cond <= 2e4);
        if (ccp && pile) {
            set(ch, "admm", NULL);
            snprintf(why, WHY_LEN, "ccp, %s > 2e4, W symmetric: an ill-conditioned 3D pile (growth >= 2.3: "
                     "granular), where ADMM crawls on all but small piles: admm first, %d iterations at most, "
                     "then interior point over the cones (nsgs on a breakdown)", est, PILE_ADMM);
            fallback(ch, "socp-ipm", PILE_ADMM);
            ch->fallback2 = lcp_solver_find("nsgs");
            ch->fallback_budget = 0;
        } else if (ccp) {
            int budget = sqrt_budget(10, cond, 200, 2000);
            set(ch, "admm", NULL);
            snprintf(why, WHY_LEN, "ccp, %s, W symmetric, not an ill-conditioned 3D pile: ADMM on the cone QP; "
                     "socp-ipm after %d (10 sqrt(cond) in [200, 2000]), then nsgs", est, budget);
            fallback(ch, "socp-ipm", budget);
            ch->fallback2 = lcp_solver_find("nsgs");
            ch->fallback_budget = 0;
        } else if (pile) {
            set(ch, "admm", NULL);
            snprintf(why, WHY_LEN, "fc3d, %s > 2e4, W symmetric: an ill-conditioned 3D pile (growth >= 2.3: "
                     "granular), which stalls admm and Newton on all but small piles: admm first, %d iterations "
                     "at most (it solves small piles in 30), then block Gauss-Seidel over contacts", est,
                     PILE_ADMM);
            fallback(ch, "nsgs", PILE_ADMM);
        } else {
            int budget = sqrt_budget(10, cond, ADMM_TAIL, 2000);
            set(ch, "admm", NULL);
            snprintf(why, WHY_LEN, "fc3d, %s, W symmetric, not an ill-conditioned 3D pile: ADMM on the cone "
                     "QP (tens of iterations on stacks, towers, columns); after %d, nsn from admm's best iterate, "
                     "%d steps at most (Newton finishes admm's slow tail in 1-2); failing that admm again from its "
                     "best iterate up to %d (10 sqrt(cond) in [300, 2000]) and nsn from its iterate once more; "
                     "then nsn from zero, nsgs after %d = 100 + 2 diameter steps", est, ADMM_TAIL, NEWTON_POLISH,
                     budget, nsn_budget);
            fallback(ch, "nsn", ADMM_TAIL);
            ch->warm_budget = NEWTON_POLISH;
            ch->resume = budget;
            ch->fallback2 = lcp_solver_find("nsgs");
            ch->fallback_budget = nsn_budget;
        }
    } else if (ccp) {
        set(ch, "socp-ipm", NULL);
        snprintf(why, WHY_LEN, "ccp, %s, W not symmetric: interior point over the cones", est);
        fallback(ch, "nsgs", 0);
    } else {
        set(ch, "nsn", NULL);
        snprintf(why, WHY_LEN, "fc3d, %s, W not symmetric: nonsmooth Newton (UMFPACK); nsgs after %d = "
                 "100 + 2 diameter steps", est, nsn_budget);
        fallback(ch, "nsgs", nsn_budget);
    }
}

int lcp_choose_auto(const lcp_problem *p, lcp_auto_choice *ch, lcp_err *err)
{
    double t0 = lcp_now();
    memset(ch, 0, sizeof *ch);
    facts f = {0};
    f.n = p->n;
    f.nnz = lcp_csr_nnz(&p->A);
    f.density = p->n > 0 ? (double)f.nnz / ((double)p->n * p->n) : 1.0;
    f.symmetric = lcp_csr_is_symmetric(&p->A, 1e-12);
    f.diag_ok = 1;
    f.bad_row = -1;
    f.diag_min = INFINITY;
    f.diag_max = 0;
    f.cond = -1;
    for (int i = 0; i < p->n; i++) {
        double d = lcp_csr_diag(&p->A, i);
        if (!(d > 0) && f.diag_ok) f.diag_ok = 0, f.bad_row = i;
        f.diag_min = fmin(f.diag_min, d);
        f.diag_max = fmax(f.diag_max, d);
    }
    if (p->findex)
        for (int i = 0; i < p->n; i++) f.findex += p->findex[i] >= 0;
    const char *kind = lcp_kind_name(p->kind);
    char why[WHY_LEN];

    if (p->kind & (LCP_KIND_LCP | LCP_KIND_BLCP))
        choose_linear(p, f, ch, why);
    else
        choose_friction(p, f, ch, why);
    if (!ch->solver)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "auto: no solver of this build takes this %s problem", kind);
    if (strcmp(ch->precond_name, "none") && lcp_solver_check_precond(ch->solver, ch->precond_name, err)) {
        ch->precond = NULL; /* a build without it */
        ch->precond_name = "none";
    }
    if (ch->fallback && ch->fallback == ch->solver) ch->fallback = NULL;
    snprintf(ch->reason, sizeof ch->reason, "auto: %s%s%s (%s)%s%s%s%s", ch->solver->name, ch->precond ? " -p " : "",
             ch->precond ? ch->precond_name : "", why, ch->fallback ? "; fallback " : "",
             ch->fallback ? ch->fallback->name : "", ch->fallback2 && ch->probe ? ", then " : "",
             ch->fallback2 && ch->probe ? ch->fallback2->name : "");
    ch->time_s = lcp_now() - t0;
    return 0;
}
