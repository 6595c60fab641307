/* tests/unit/test_graph.c: the contact graph (src/graph/graph.c): its
 * edges from A's block pattern and from findex, components by decreasing
 * size, proper colourings (greedy balanced and DSATUR, which needs 2
 * colours on bipartite graphs and 3 on an odd cycle), orderings that are
 * permutations (rcm puts a shuffled path back in band order), colour
 * classes as contiguous runs of the order, and the Laplacian estimate of a
 * path against its closed form; components straight from the problem
 * (union-find, and a full row's shortcut) with the graph's labels. */
#include "check.h"
#include "graph/graph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* an lcp whose A has the given off-diagonal pairs (both triangles) and 4 on the diagonal */
static void make_lcp(lcp_problem *p, int n, int np, const int (*pairs)[2])
{
    int nz = n + 2 * np, *ti = malloc(nz * sizeof(int)), *tj = malloc(nz * sizeof(int));
    double *tx = malloc(nz * sizeof(double));
    int k = 0;
    for (int i = 0; i < n; i++) ti[k] = tj[k] = i, tx[k++] = 4.0;
    for (int e = 0; e < np; e++) {
        ti[k] = pairs[e][0], tj[k] = pairs[e][1], tx[k++] = -1.0;
        ti[k] = pairs[e][1], tj[k] = pairs[e][0], tx[k++] = -1.0;
    }
    lcp_problem_init(p);
    p->kind = LCP_KIND_LCP;
    p->n = n;
    lcp_csr_from_triplets(&p->A, n, n, nz, ti, tj, tx);
    p->b = calloc(n, sizeof(double));
    free(ti), free(tj), free(tx);
}

static int proper(const lcp_graph *g, const int *colour)
{
    for (int v = 0; v < g->n; v++)
        for (int k = g->p[v]; k < g->p[v + 1]; k++)
            if (colour[g->j[k]] == colour[v]) return 0;
    return 1;
}

static int is_perm(const int *perm, int n)
{
    int *seen = calloc(n, sizeof(int)), ok = 1;
    for (int i = 0; i < n; i++) {
        if (perm[i] < 0 || perm[i] >= n || seen[perm[i]]) ok = 0;
        else seen[perm[i]] = 1;
    }
    free(seen);
    return ok;
}

int main(void)
{
    lcp_err err;
    /* two components: a triangle {0,1,2} and a path 3-4-5-6 */
    const int pairs[][2] = {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {5, 6}};
    lcp_problem p;
    make_lcp(&p, 7, 6, pairs);
    lcp_graph g;
    CHECK(lcp_graph_build(&p, &g, &err) == 0);
    CHECK(g.n == 7 && g.block == 1 && lcp_graph_edges(&g) == 6);
    int comp[7], size[7], colour[7];
    CHECK(lcp_graph_components(&g, comp, size) == 2);
    CHECK(size[0] == 4 && size[1] == 3);  /* the path is larger: component 0 */
    CHECK(comp[3] == 0 && comp[6] == 0 && comp[0] == 1 && comp[2] == 1);
    { /* the same labels straight from the problem (union-find, no graph) */
        int comp2[7] = {0}, size2[7] = {0};
        CHECK(lcp_problem_components(&p, comp2, size2) == 2);
        CHECK(!memcmp(comp, comp2, sizeof comp) && size2[0] == 4 && size2[1] == 3);
    }
    CHECK(lcp_graph_colour(&g, LCP_COLOUR_DSATUR, colour) == 3); /* the triangle */
    CHECK(proper(&g, colour));
    int k = lcp_graph_colour(&g, LCP_COLOUR_GREEDY, colour);
    CHECK(k == 3 && proper(&g, colour));
    lcp_graph_facts f;
    CHECK(lcp_graph_analyse(&g, &f) == 0);
    CHECK(f.components == 2 && f.largest == 4 && f.deg_min == 1 && f.deg_max == 2);
    CHECK(f.deg_hist[1] == 2 && f.deg_hist[2] == 5);
    /* path of 4 nodes: Laplacian eigenvalues 2 - 2 cos(k pi / 4), k = 1..3 */
    CHECK_NEAR(f.lap_fiedler, 2 - 2 * cos(M_PI / 4), 1e-10);
    CHECK_NEAR(f.lap_lmax, 2 - 2 * cos(3 * M_PI / 4), 1e-10);
    lcp_graph_free(&g);
    lcp_problem_free(&p);
    { /* a full row (node 5 joined to all: a star): one component by the O(n) shortcut, as by the graph */
        const int star[][2] = {{5, 0}, {5, 1}, {5, 2}, {5, 3}, {5, 4}, {5, 6}};
        int c1[7] = {0}, s1[7] = {0}, c2[7] = {0}, s2[7] = {0};
        make_lcp(&p, 7, 6, star);
        CHECK(lcp_graph_build(&p, &g, &err) == 0);
        CHECK(lcp_graph_components(&g, c1, s1) == 1 && s1[0] == 7);
        CHECK(lcp_problem_components(&p, c2, s2) == 1 && s2[0] == 7);
        CHECK(!memcmp(c1, c2, sizeof c1));
        lcp_graph_free(&g);
        lcp_problem_free(&p);
        /* without it (node 6 apart): two, so the shortcut takes full rows only */
        make_lcp(&p, 7, 5, star);
        CHECK(lcp_problem_components(&p, c2, s2) == 2 && s2[0] == 6 && s2[1] == 1 && c2[6] == 1);
        lcp_problem_free(&p);
    }

    { /* random sparse graphs of 1-80 nodes, up to 2 edges a node (many components, singletons among them), then
       * up to 4 edges a node (mostly one component: the shortcut of every node joined to one before it, and
       * its near misses): the labels and sizes equal the graph's breadth-first ones */
        uint64_t r = 2026;
        int bad = 0, one = 0;
        for (int t = 0; t < 600; t++) {
            r = r * 6364136223846793005ULL + 1442695040888963407ULL;
            int nn = 1 + (int)((r >> 33) % 80), np = (int)((r >> 20) % (unsigned)((t < 300 ? 2 : 4) * nn + 1));
            int(*pr)[2] = malloc(sizeof(int[2]) * (np > 0 ? np : 1));
            for (int e = 0; e < np; e++) {
                r = r * 6364136223846793005ULL + 1442695040888963407ULL;
                pr[e][0] = (int)((r >> 33) % (unsigned)nn), pr[e][1] = (int)((r >> 13) % (unsigned)nn);
            }
            make_lcp(&p, nn, np, (const int(*)[2])pr);
            int *c1 = calloc(nn, sizeof(int)), *s1 = calloc(nn, sizeof(int)), *c2 = calloc(nn, sizeof(int)),
                *s2 = calloc(nn, sizeof(int));
            int k1 = lcp_graph_build(&p, &g, &err) == 0 ? lcp_graph_components(&g, c1, s1) : -2;
            int k2 = lcp_problem_components(&p, c2, s2);
            if (k1 != k2 || memcmp(c1, c2, nn * sizeof(int)) || memcmp(s1, s2, (k1 > 0 ? k1 : 0) * sizeof(int))) bad++;
            one += t >= 300 && k2 == 1 && nn > 10;
            lcp_graph_free(&g);
            lcp_problem_free(&p);
            free(pr), free(c1), free(s1), free(c2), free(s2);
        }
        CHECK(bad == 0 && one >= 30);
    }

    /* a shuffled path of 200 nodes: bipartite (2 colours), rcm makes it banded */
    int n = 200, perm0[200], (*pp)[2] = malloc(sizeof(int[2]) * (n - 1));
    for (int i = 0; i < n; i++) perm0[i] = i;
    uint64_t s = 12345;
    for (int i = n - 1; i > 0; i--) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        int j = (int)((s >> 33) % (uint64_t)(i + 1)), t = perm0[i];
        perm0[i] = perm0[j], perm0[j] = t;
    }
    for (int i = 0; i + 1 < n; i++) pp[i][0] = perm0[i], pp[i][1] = perm0[i + 1];
    make_lcp(&p, n, n - 1, (const int(*)[2])pp);
    free(pp);
    CHECK(lcp_graph_build(&p, &g, &err) == 0);
    int *col = malloc(n * sizeof(int));
    CHECK(lcp_graph_colour(&g, LCP_COLOUR_DSATUR, col) == 2 && proper(&g, col));
    CHECK(lcp_graph_colour(&g, LCP_COLOUR_GREEDY, col) >= 2 && proper(&g, col));
    free(col);
    lcp_graph_free(&g);
    for (int m = LCP_ORDER_NATURAL; m <= LCP_ORDER_DSATUR; m++) {
        lcp_order o;
        CHECK(lcp_order_build(&p, (lcp_order_method)m, &o, &err) == 0);
        CHECK(o.n == n && is_perm(o.perm, n));
        if (m == LCP_ORDER_RCM) { /* consecutive nodes of the order are neighbours on the path */
            int *pos = malloc(n * sizeof(int)), band = 0;
            for (int i = 0; i < n; i++) pos[o.perm[i]] = i;
            for (int i = 0; i + 1 < n; i++) band = abs(pos[perm0[i]] - pos[perm0[i + 1]]) > band ? abs(pos[perm0[i]] - pos[perm0[i + 1]]) : band;
            CHECK(band == 1);
            free(pos);
        }
        if (m == LCP_ORDER_COLOUR || m == LCP_ORDER_DSATUR) { /* classes: contiguous, independent */
            CHECK(o.ncolours >= 2 && o.cptr[0] == 0 && o.cptr[o.ncolours] == n);
            lcp_graph_build(&p, &g, &err);
            int *c2 = malloc(n * sizeof(int));
            for (int c = 0; c < o.ncolours; c++)
                for (int q = o.cptr[c]; q < o.cptr[c + 1]; q++) c2[o.perm[q]] = c;
            CHECK(proper(&g, c2));
            free(c2);
            lcp_graph_free(&g);
        } else {
            CHECK(o.ncolours == 0 && o.cptr == NULL);
        }
        lcp_order_free(&o);
    }
    lcp_problem_free(&p);

    /* friction: 3-row blocks are the nodes; a blcp findex link is an edge */
    const int fp[][2] = {{1, 4}}; /* a tangent row of contact 0 with one of contact 1 */
    make_lcp(&p, 9, 1, fp);
    p.kind = LCP_KIND_CCP;
    p.nc = 3;
    CHECK(lcp_graph_build(&p, &g, &err) == 0);
    CHECK(g.n == 3 && g.block == 3 && lcp_graph_edges(&g) == 1 && g.j[g.p[0]] == 1);
    lcp_graph_free(&g);
    p.kind = LCP_KIND_BLCP;
    p.findex = malloc(9 * sizeof(int));
    for (int i = 0; i < 9; i++) p.findex[i] = -1;
    p.findex[8] = 6;
    CHECK(lcp_graph_build(&p, &g, &err) == 0);
    CHECK(g.n == 9 && lcp_graph_edges(&g) == 2);
    lcp_graph_free(&g);
    lcp_problem_free(&p);
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed != 0;
}
