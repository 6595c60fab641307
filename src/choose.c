/* src/choose.c: `--solver auto`.
 *
 * Cheap facts first (O(nnz) each): kind, n, nnz and density, symmetry, the
 * diagonal (all positive?), findex rows (blcp), the contact graph's largest
 * component; then, only where the choice depends on it, a short Lanczos
 * estimate (at most 60 products with A, src/spectral.c) of the extreme
 * eigenvalues of D^-1/2 A D^-1/2: lmin ~ 0 says semidefinite (or nearly),
 * lmax / lmin is the condition estimate that decides between a plain sweep
 * (psor/sgs: few sweeps when well conditioned) and a Krylov method (mprgp
 * with ichol).  The rules come from scripts/auto-check (every candidate on
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
 *    component and its diameter (double-sweep BFS): diameter <= 8 (well
 *    connected, e.g. random sparse SPD): pgs; otherwise n <= 300: pivot;
 *    otherwise the Lanczos condition estimate: below 100 pgs, else
 *    mprgp -p ichol (long chains, mass ratios, singular contact sets).
 *  fc3d: nsgs when the contact graph falls apart into small components
 *    (largest <= 16 contacts: decomposition solves them apart) or n <= 30;
 *    otherwise admm when W is symmetric (then nsn after 1000 iterations,
 *    then nsgs after 100 Newton steps: dense stacks stall admm and suit
 *    Newton, granular piles defeat Newton and suit nsgs), nsn when W is not
 *    symmetric (nsgs after 100 steps).
 *  ccp: nsgs for small or split-up problems; W symmetric: admm (stacks
 *    solve in tens of iterations), socp-ipm after 200 (granular piles),
 *    then nsgs; W not symmetric: socp-ipm, nsgs on a breakdown.
 * A pick that may stall runs on an iteration budget; unless it solved (or
 * proved there is no solution), its fallback then runs from zero (main.c,
 * sequence.c): lemke -> newton-fb, pgs -> mprgp -p ichol (300 sweeps),
 * mprgp -> ipm (100 iterations), admm -> nsn -> nsgs, nsn -> nsgs.
 */
#include "choose.h"

#include "spectral.h"
#include "graph/graph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int n, symmetric, diag_ok, bad_row, findex, largest, components, diameter;
    long nnz;
    double density, diag_min, diag_max;
    double lmin, lmax, cond; /* scaled spectrum (Lanczos); cond < 0: not computed */
} facts;

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

static int largest_component(const lcp_problem *p, facts *f)
{
    f->diameter = -1;
    lcp_graph g;
    lcp_err e;
    f->largest = p->kind & LCP_KIND_FRICTION ? p->nc : p->n;
    f->components = 1;
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
    free(comp);
    free(size);
    lcp_graph_free(&g);
    return 0;
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
    char why[400];
    int n = p->n;

    if (p->kind & (LCP_KIND_LCP | LCP_KIND_BLCP)) {
        int blcp = p->kind == LCP_KIND_BLCP;
        if (!f.diag_ok) {
            set(ch, blcp ? "pivot" : "lemke", NULL);
            snprintf(why, sizeof why, "A(%d,%d) = %g: the sweep and gradient methods need a positive diagonal",
                     f.bad_row + 1, f.bad_row + 1, lcp_csr_diag(&p->A, f.bad_row));
            if (!blcp) fallback(ch, "newton-fb", 0);
        } else if (!f.symmetric && !blcp && n <= 2000) {
            set(ch, "lemke", NULL);
            snprintf(why, sizeof why, "A not symmetric, n = %d <= 2000: dense complementary pivoting is exact", n);
            fallback(ch, "newton-fb", 0);
        } else if (!f.symmetric) {
            set(ch, "psor", NULL);
            snprintf(why, sizeof why, "A not symmetric, n = %d%s: projected SOR on the positive diagonal", n,
                     blcp ? "" : " > 2000");
        } else if (f.findex && n <= 4000) {
            set(ch, "pivot", NULL);
            snprintf(why, sizeof why, "%d findex (friction) rows, n = %d <= 4000: principal pivoting with the friction "
                     "bound fixed point", f.findex, n);
        } else if (f.findex) {
            set(ch, "pgs", NULL);
            snprintf(why, sizeof why, "%d findex (friction) rows, n = %d > 4000: projected Gauss-Seidel", f.findex, n);
        } else if (n <= 40) {
            set(ch, "pivot", NULL);
            snprintf(why, sizeof why, "symmetric, n = %d <= 40: principal pivoting, exact in a few dense steps", n);
        } else {
            largest_component(p, &f);
            int steps = 0;
            char est[160];
            snprintf(est, sizeof est, "largest group %d rows, diameter ~%d", f.largest, f.diameter);
            if (f.diameter > 8 && n > 300) { /* only here does the condition decide */
                if (lcp_spectrum(&p->A, NULL, 30, &f.lmin, &f.lmax, &steps) == 0)
                    f.cond = f.lmin > 1e-12 * f.lmax ? f.lmax / f.lmin : INFINITY;
                else
                    f.cond = INFINITY;
                size_t l = strlen(est);
                if (isfinite(f.cond))
                    snprintf(est + l, sizeof est - l, ", scaled condition ~%.3g (Lanczos, %d steps)", f.cond, steps);
                else
                    snprintf(est + l, sizeof est - l, ", semidefinite or nearly (Lanczos lmin ~ 0, %d steps)", steps);
            }
            if (f.diameter >= 0 && f.diameter <= 8) {
                set(ch, "pgs", NULL);
                snprintf(why, sizeof why, "symmetric, n = %d, %s: well connected, a few Gauss-Seidel sweeps "
                         "(mprgp -p ichol after 300)", n, est);
                fallback(ch, "mprgp", 300);
                ch->fallback_precond = lcp_precond_find("ichol");
            } else if (n <= 300) {
                set(ch, "pivot", NULL);
                snprintf(why, sizeof why, "symmetric, n = %d <= 300, %s: chains of contacts, principal pivoting "
                         "(exact in dense steps)", n, est);
            } else if (f.cond >= 0 && f.cond < 100) {
                set(ch, "pgs", NULL);
                snprintf(why, sizeof why, "symmetric, n = %d, %s < 100: a few Gauss-Seidel sweeps "
                         "(mprgp -p ichol after 300)", n, est);
                fallback(ch, "mprgp", 300);
                ch->fallback_precond = lcp_precond_find("ichol");
            } else {
                set(ch, "mprgp", "ichol");
                snprintf(why, sizeof why, "symmetric, n = %d, %s: long chains of contacts, MPRGP with incomplete "
                         "Cholesky (chains and piles of boxes: <= 10 iterations; ipm after 100)", n, est);
                fallback(ch, "ipm", 100);
            }
        }
    } else {
        largest_component(p, &f);
        int ccp = p->kind == LCP_KIND_CCP;
        if (n <= 30 || f.largest <= 16) {
            set(ch, "nsgs", NULL);
            snprintf(why, sizeof why, "%s, %d contacts, largest coupled group %d (of %d): block Gauss-Seidel over "
                     "contacts", kind, p->nc, f.largest, f.components);
        } else if (ccp && f.symmetric) {
            set(ch, "admm", NULL);
            snprintf(why, sizeof why, "ccp, %d contacts, largest coupled group %d, W symmetric: ADMM on the cone QP "
                     "(stacks: tens of iterations); socp-ipm after 200, then nsgs", p->nc, f.largest);
            fallback(ch, "socp-ipm", 200);
            ch->fallback2 = lcp_solver_find("nsgs");
            ch->fallback_budget = 0;
        } else if (ccp) {
            set(ch, "socp-ipm", NULL);
            snprintf(why, sizeof why, "ccp, %d contacts, largest coupled group %d: interior point over the cones",
                     p->nc, f.largest);
            fallback(ch, "nsgs", 0);
        } else if (f.symmetric) {
            set(ch, "admm", NULL);
            snprintf(why, sizeof why, "fc3d, %d contacts, largest coupled group %d, W symmetric: ADMM on the cone QP "
                     "(one CHOLMOD factor); nsn after 1000 iterations, nsgs after 100 Newton steps", p->nc, f.largest);
            fallback(ch, "nsn", 1000);
            ch->fallback2 = lcp_solver_find("nsgs");
            ch->fallback_budget = 100;
        } else {
            set(ch, "nsn", NULL);
            snprintf(why, sizeof why, "fc3d, %d contacts, largest coupled group %d, W not symmetric: global nonsmooth "
                     "Newton (UMFPACK); nsgs after 100 steps", p->nc, f.largest);
            fallback(ch, "nsgs", 100);
        }
    }
    if (!ch->solver)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "auto: no solver of this build takes this %s problem", kind);
    if (strcmp(ch->precond_name, "none") && lcp_solver_check_precond(ch->solver, ch->precond_name, err)) {
        ch->precond = NULL; /* a build without it */
        ch->precond_name = "none";
    }
    if (ch->fallback && ch->fallback == ch->solver) ch->fallback = NULL;
    snprintf(ch->reason, sizeof ch->reason, "auto: %s%s%s (%s)%s%s", ch->solver->name, ch->precond ? " -p " : "",
             ch->precond ? ch->precond_name : "", why, ch->fallback ? "; fallback " : "",
             ch->fallback ? ch->fallback->name : "");
    ch->time_s = lcp_now() - t0;
    return 0;
}
