/* src/graph/graph.c: the contact graph, its components, colourings,
 * orderings and the facts `lcpsolve info` reports (see graph.h). */
#include "graph.h"

#include "../io/io.h"
#include "../la/suitesparse.h"

#include <amd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK: eigenvalues of a symmetric tridiagonal matrix */
void dstev_(const char *jobz, const int *n, double *d, double *e, double *z, const int *ldz, double *work, int *info);

void lcp_graph_free(lcp_graph *g)
{
    if (!g) return;
    free(g->p);
    free(g->j);
    g->p = g->j = NULL;
    g->n = 0;
}

int lcp_graph_build(const lcp_problem *p, lcp_graph *g, lcp_err *err)
{
    memset(g, 0, sizeof *g);
    int block = (p->kind & LCP_KIND_FRICTION) ? 3 : 1, n = p->n / block;
    long nnz = lcp_csr_nnz(&p->A), nf = 0;
    if (p->kind == LCP_KIND_BLCP && p->findex)
        for (int i = 0; i < p->n; i++) nf += p->findex[i] >= 0;
    long cap = 2 * (nnz + nf);
    int *ti = lcp_alloc((size_t)(cap > 0 ? cap : 1), sizeof(int)), *tj = lcp_alloc((size_t)(cap > 0 ? cap : 1), sizeof(int));
    double *tx = lcp_alloc((size_t)(cap > 0 ? cap : 1), sizeof(double));
    long nz = 0;
    int rc = 0;
    if (!ti || !tj || !tx) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (contact graph of %d nodes)", n);
        goto done;
    }
    for (int r = 0; r < p->n; r++)
        for (int k = p->A.p[r]; k < p->A.p[r + 1]; k++) {
            int u = r / block, v = p->A.j[k] / block;
            if (u == v) continue;
            ti[nz] = u, tj[nz] = v, tx[nz++] = 1.0;
            ti[nz] = v, tj[nz] = u, tx[nz++] = 1.0;
        }
    for (int r = 0; nf && r < p->n; r++)
        if (p->findex[r] >= 0 && p->findex[r] != r) {
            ti[nz] = r, tj[nz] = p->findex[r], tx[nz++] = 1.0;
            ti[nz] = p->findex[r], tj[nz] = r, tx[nz++] = 1.0;
        }
    lcp_csr G;
    if (lcp_csr_from_triplets(&G, n, n, nz, ti, tj, tx)) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (contact graph of %d nodes)", n);
        goto done;
    }
    g->n = n;
    g->block = block;
    g->p = G.p;
    g->j = G.j;
    free(G.x);
done:
    free(ti);
    free(tj);
    free(tx);
    return rc;
}

/* ------------------------------------------------------------ components */

typedef struct {
    int size, first, id;
} comp_info;

static int by_size(const void *a, const void *b)
{
    const comp_info *x = a, *y = b;
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    return (x->first > y->first) - (x->first < y->first);
}

/* comp[v] (provisional ids ci[].id, in order of first node) renumbered by
 * decreasing size, ties by first node; size[c] (optional).  relabel: nc ints. */
static void number_by_size(comp_info *ci, int nc, int *relabel, int *comp, int n, int *size)
{
    qsort(ci, (size_t)nc, sizeof *ci, by_size);
    for (int c = 0; c < nc; c++) {
        relabel[ci[c].id] = c;
        if (size) size[c] = ci[c].size;
    }
    for (int v = 0; v < n; v++) comp[v] = relabel[comp[v]];
}

int lcp_graph_components(const lcp_graph *g, int *comp, int *size)
{
    int n = g->n, nc = 0;
    int *queue = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(int));
    comp_info *ci = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(comp_info));
    int *relabel = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(int));
    if (!queue || !ci || !relabel) {
        free(queue), free(ci), free(relabel);
        return -1;
    }
    for (int v = 0; v < n; v++) comp[v] = -1;
    for (int s = 0; s < n; s++) {
        if (comp[s] >= 0) continue;
        int head = 0, tail = 0;
        queue[tail++] = s;
        comp[s] = nc;
        while (head < tail) {
            int v = queue[head++];
            for (int k = g->p[v]; k < g->p[v + 1]; k++)
                if (comp[g->j[k]] < 0) {
                    comp[g->j[k]] = nc;
                    queue[tail++] = g->j[k];
                }
        }
        ci[nc] = (comp_info){tail, s, nc};
        nc++;
    }
    number_by_size(ci, nc, relabel, comp, n, size);
    free(queue), free(ci), free(relabel);
    return nc;
}

static int uf_find(int *parent, int v)
{
    while (parent[v] != v) v = parent[v] = parent[parent[v]]; /* path halving */
    return v;
}

int lcp_problem_components(const lcp_problem *p, int *comp, int *size)
{
    int block = (p->kind & LCP_KIND_FRICTION) ? 3 : 1, n = p->n / block, nc = 0;
    int *parent = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(int)), *relabel = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(int));
    comp_info *ci = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(comp_info));
    if (!parent || !relabel || !ci) {
        free(parent), free(relabel), free(ci);
        return -1;
    }
    /* One component, told without the union-find where either a full row joins every contact (dense A), or
     * every contact after the first has an entry left of its own block in one of its rows -- joined to a
     * contact before it, so by induction all are joined: a connected scene numbered along its contacts (a
     * stack, a column).  The rows' columns are sorted: a row's first entry is its leftmost, so the test
     * reads one entry a row, in order. */
    int one = n > 0;
    for (int c = 1; c < n && one; c++) {
        int left = 0;
        for (int r = block * c; r < block * c + block; r++)
            left |= p->A.p[r] < p->A.p[r + 1] && p->A.j[p->A.p[r]] < block * c;
        one = left;
    }
    for (int r = 0; r < p->n && n > 0 && !one; r++) one = p->A.p[r + 1] - p->A.p[r] == p->n;
    if (one) {
        for (int v = 0; v < n; v++) comp[v] = 0;
        if (size) size[0] = n;
        free(parent), free(relabel), free(ci);
        return 1;
    }
    for (int v = 0; v < n; v++) parent[v] = v;
    int joins = 0; /* n - 1 joins: one component, the rest of A need not be read (the finds wait on memory:
                    * on a random SPD A of 200 unknowns, connected but not numbered along its contacts, the
                    * whole pass was a tenth of a choice afresh; it stops about half way) */
    for (int r = 0; r < p->n && joins < n - 1; r++) { /* an entry of A, or a findex link, joins two contacts
                                                       * (the smaller root stays: a root is its component's
                                                       * first node) */
        int u = uf_find(parent, r / block); /* the row's root, kept as its entries join theirs to it */
        for (int k = p->A.p[r]; k < p->A.p[r + 1]; k++) {
            int c = p->A.j[k] / block;
            if (parent[c] == u) continue; /* (the row's own contact, or one joined already) */
            int v = uf_find(parent, c);
            if (u < v) parent[v] = u, joins++;
            else if (v < u) parent[u] = v, u = v, joins++;
        }
        if (p->kind == LCP_KIND_BLCP && p->findex && p->findex[r] >= 0) {
            int a = uf_find(parent, r), v = uf_find(parent, p->findex[r]);
            if (a != v) parent[a > v ? a : v] = a < v ? a : v, joins++;
        }
    }
    if (n > 0 && joins == n - 1) { /* (the labels below would say the same) */
        for (int v = 0; v < n; v++) comp[v] = 0;
        if (size) size[0] = n;
        free(parent), free(relabel), free(ci);
        return 1;
    }
    for (int v = 0; v < n; v++) { /* provisional ids in order of each component's first node, as the BFS */
        int root = uf_find(parent, v);
        if (root == v) {
            relabel[v] = nc;
            ci[nc] = (comp_info){0, v, nc};
            nc++;
        }
        comp[v] = relabel[root];
        ci[comp[v]].size++;
    }
    number_by_size(ci, nc, relabel, comp, n, size);
    free(parent), free(relabel), free(ci);
    return nc;
}

/* -------------------------------------------------------------- colouring */

/* The smallest colour no neighbour of v has (mark: n+1 stamps, reused). */
static int first_free(const lcp_graph *g, const int *colour, int v, int *mark)
{
    for (int k = g->p[v]; k < g->p[v + 1]; k++)
        if (colour[g->j[k]] >= 0) mark[colour[g->j[k]]] = v + 1;
    int c = 0;
    while (mark[c] == v + 1) c++;
    return c;
}

typedef struct {
    int sat, deg, v;
} heap_item;

static int heap_less(const heap_item *a, const heap_item *b) /* a before b */
{
    if (a->sat != b->sat) return a->sat > b->sat;
    if (a->deg != b->deg) return a->deg > b->deg;
    return a->v < b->v;
}

static void heap_push(heap_item *h, long *len, heap_item it)
{
    long i = (*len)++;
    h[i] = it;
    while (i > 0 && heap_less(&h[i], &h[(i - 1) / 2])) {
        heap_item t = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static heap_item heap_pop(heap_item *h, long *len)
{
    heap_item top = h[0];
    h[0] = h[--(*len)];
    long i = 0;
    for (;;) {
        long l = 2 * i + 1, r = l + 1, m = i;
        if (l < *len && heap_less(&h[l], &h[m])) m = l;
        if (r < *len && heap_less(&h[r], &h[m])) m = r;
        if (m == i) break;
        heap_item t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
    return top;
}

/* Brelaz's DSATUR with a lazy heap; the saturation of u is the number of
 * distinct colours among its coloured neighbours (a bit mask for colours
 * below 64, a scan of the neighbours above). */
static int dsatur(const lcp_graph *g, int *colour, int *mark)
{
    int n = g->n, k = 0;
    long cap = (long)n + 2 * lcp_graph_edges(g) + 1, len = 0;
    heap_item *h = lcp_alloc((size_t)cap, sizeof *h);
    int *sat = lcp_calloc((size_t)(n > 0 ? n : 1), sizeof(int));
    uint64_t *mask = lcp_calloc((size_t)(n > 0 ? n : 1), sizeof(uint64_t));
    if (!h || !sat || !mask) {
        free(h), free(sat), free(mask);
        return -1;
    }
    for (int v = 0; v < n; v++) heap_push(h, &len, (heap_item){0, g->p[v + 1] - g->p[v], v});
    while (len > 0) {
        heap_item it = heap_pop(h, &len);
        int v = it.v;
        if (colour[v] >= 0 || it.sat != sat[v]) continue; /* stale */
        int c = first_free(g, colour, v, mark);
        colour[v] = c;
        if (c + 1 > k) k = c + 1;
        for (int e = g->p[v]; e < g->p[v + 1]; e++) {
            int u = g->j[e];
            if (colour[u] >= 0) continue;
            int fresh;
            if (c < 64) {
                fresh = !(mask[u] >> c & 1);
                mask[u] |= (uint64_t)1 << c;
            } else {
                fresh = 1;
                for (int f = g->p[u]; f < g->p[u + 1] && fresh; f++)
                    if (g->j[f] != v && colour[g->j[f]] == c) fresh = 0;
            }
            if (fresh) {
                sat[u]++;
                heap_push(h, &len, (heap_item){sat[u], g->p[u + 1] - g->p[u], u});
            }
        }
    }
    free(h), free(sat), free(mask);
    return k;
}

int lcp_graph_colour(const lcp_graph *g, int method, int *colour)
{
    int n = g->n, k = 0;
    int *mark = lcp_calloc((size_t)n + 2, sizeof(int));
    if (!mark) return -1;
    for (int v = 0; v < n; v++) colour[v] = -1;
    if (method == LCP_COLOUR_DSATUR) {
        k = dsatur(g, colour, mark);
        free(mark);
        return k;
    }
    for (int v = 0; v < n; v++) {
        colour[v] = first_free(g, colour, v, mark);
        if (colour[v] + 1 > k) k = colour[v] + 1;
    }
    /* balance: move nodes out of classes above the mean into the smallest
     * class they fit in that is below it (one pass, in node order) */
    int *count = lcp_calloc((size_t)k + 1, sizeof(int));
    if (!count) {
        free(mark);
        return -1;
    }
    for (int v = 0; v < n; v++) count[colour[v]]++;
    int target = k ? (n + k - 1) / k : 0;
    memset(mark, 0, ((size_t)n + 2) * sizeof(int));
    for (int v = 0; v < n; v++) {
        if (count[colour[v]] <= target) continue;
        for (int e = g->p[v]; e < g->p[v + 1]; e++) mark[colour[g->j[e]]] = v + 1;
        int best = -1;
        for (int c = 0; c < k; c++)
            if (mark[c] != v + 1 && count[c] < target && (best < 0 || count[c] < count[best])) best = c;
        if (best >= 0) {
            count[colour[v]]--;
            colour[v] = best;
            count[best]++;
        }
    }
    free(count);
    free(mark);
    return k;
}

/* -------------------------------------------------------------- orderings */

static const char *const order_names[] = {"natural", "rcm", "amd", "nd", "colour", "dsatur"};

const char *lcp_order_name(lcp_order_method m) { return order_names[m]; }

int lcp_order_parse(const char *s, lcp_order_method *m)
{
    for (int i = 0; i < (int)(sizeof order_names / sizeof order_names[0]); i++)
        if (!strcmp(s, order_names[i])) {
            *m = (lcp_order_method)i;
            return 0;
        }
    if (!strcmp(s, "color")) {
        *m = LCP_ORDER_COLOUR;
        return 0;
    }
    return -1;
}

void lcp_order_free(lcp_order *o)
{
    if (!o) return;
    free(o->perm);
    free(o->cptr);
    memset(o, 0, sizeof *o);
}

/* Reverse Cuthill-McKee: BFS from a pseudo-peripheral node of each
 * component (the last node reached from a minimum-degree start), neighbours
 * by increasing degree, the whole order reversed. */
static int rcm(const lcp_graph *g, int *perm)
{
    int n = g->n, done = 0;
    int *seen = lcp_calloc((size_t)(n > 0 ? n : 1), sizeof(int)), *level = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(int));
    if (!seen || !level) {
        free(seen), free(level);
        return -1;
    }
#define DEG(v) (g->p[(v) + 1] - g->p[v])
    for (int s0 = 0; s0 < n; s0++) {
        if (seen[s0]) continue;
        /* minimum degree node of the component, then the farthest from it */
        int head = 0, tail = 0, start = s0;
        level[tail++] = s0;
        seen[s0] = 2;
        while (head < tail) {
            int v = level[head++];
            if (DEG(v) < DEG(start)) start = v;
            for (int k = g->p[v]; k < g->p[v + 1]; k++)
                if (!seen[g->j[k]]) seen[g->j[k]] = 2, level[tail++] = g->j[k];
        }
        for (int t = 0; t < tail; t++) seen[level[t]] = 0;
        for (int pass = 0; pass < 2; pass++) { /* BFS from start; pass 0 finds the far end */
            int first = done;
            head = tail = first;
            perm[tail++] = start;
            seen[start] = 1;
            while (head < tail) {
                int v = perm[head++];
                int lo = tail;
                for (int k = g->p[v]; k < g->p[v + 1]; k++)
                    if (!seen[g->j[k]]) seen[g->j[k]] = 1, perm[tail++] = g->j[k];
                for (int a = lo + 1; a < tail; a++) /* insertion sort by degree (short lists) */
                    for (int b = a; b > lo && DEG(perm[b]) < DEG(perm[b - 1]); b--) {
                        int t = perm[b];
                        perm[b] = perm[b - 1];
                        perm[b - 1] = t;
                    }
            }
            if (pass == 0) {
                start = perm[tail - 1];
                for (int t = first; t < tail; t++) seen[perm[t]] = 0;
            } else {
                done = tail;
            }
        }
    }
#undef DEG
    for (int a = 0, b = n - 1; a < b; a++, b--) {
        int t = perm[a];
        perm[a] = perm[b];
        perm[b] = t;
    }
    free(seen), free(level);
    return 0;
}

int lcp_order_build(const lcp_problem *p, lcp_order_method m, lcp_order *o, lcp_err *err)
{
    memset(o, 0, sizeof *o);
    lcp_graph g;
    int rc = lcp_graph_build(p, &g, err);
    if (rc) return rc;
    int n = g.n;
    o->method = m;
    o->n = n;
    o->block = g.block;
    o->perm = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(int));
    int *colour = NULL;
    if (!o->perm) goto oom;
    for (int v = 0; v < n; v++) o->perm[v] = v;
    if (m == LCP_ORDER_RCM) {
        if (rcm(&g, o->perm)) goto oom;
    } else if (m == LCP_ORDER_AMD) {
        double control[AMD_CONTROL], info[AMD_INFO];
        amd_defaults(control);
        int st = amd_order(n, g.p, g.j, o->perm, control, info);
        if (st != AMD_OK && st != AMD_OK_BUT_JUMBLED) goto oom;
    } else if (m == LCP_ORDER_ND) {
        cholmod_common c;
        lcp_cholmod_start(&c);
        cholmod_sparse S;
        memset(&S, 0, sizeof S);
        S.nrow = S.ncol = (size_t)n;
        S.nzmax = (size_t)g.p[n];
        S.p = g.p;
        S.i = g.j;
        S.stype = 1;
        S.itype = CHOLMOD_INT;
        S.xtype = CHOLMOD_PATTERN;
        S.dtype = CHOLMOD_DOUBLE;
        S.sorted = S.packed = 1;
        int ok = n == 0 || cholmod_metis(&S, NULL, 0, 1, o->perm, &c);
        int st = c.status;
        cholmod_finish(&c);
        if (!ok) {
            lcp_graph_free(&g);
            lcp_order_free(o);
            return lcp_fail(err, LCP_ERROR, NULL, 0, "--order nd: METIS through CHOLMOD failed (status %d)", st);
        }
    } else if (m == LCP_ORDER_COLOUR || m == LCP_ORDER_DSATUR) {
        colour = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(int));
        if (!colour) goto oom;
        int k = lcp_graph_colour(&g, m == LCP_ORDER_DSATUR ? LCP_COLOUR_DSATUR : LCP_COLOUR_GREEDY, colour);
        if (k < 0 || !(o->cptr = lcp_calloc((size_t)k + 2, sizeof(int)))) goto oom;
        o->ncolours = k;
        for (int v = 0; v < n; v++) o->cptr[colour[v] + 1]++;
        for (int c = 0; c < k; c++) o->cptr[c + 1] += o->cptr[c];
        int *next = lcp_alloc((size_t)k + 1, sizeof(int));
        if (!next) goto oom;
        memcpy(next, o->cptr, (size_t)k * sizeof(int));
        for (int v = 0; v < n; v++) o->perm[next[colour[v]]++] = v;
        free(next);
    }
    free(colour);
    lcp_graph_free(&g);
    return 0;
oom:
    free(colour);
    lcp_graph_free(&g);
    lcp_order_free(o);
    return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (--order %s)", lcp_order_name(m));
}

/* ------------------------------------------------------------------ facts */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Extreme nonzero eigenvalues of the Laplacian L = D - Adj of the nodes
 * with comp[v] == 0 (the largest component), by Lanczos with the constant
 * vector (L's null vector there) projected out every step. */
static void laplacian_estimate(const lcp_graph *g, const int *comp, int size, lcp_graph_facts *f)
{
    int n = g->n, m = size - 1 < 300 ? size - 1 : 300;
    f->lap_lmax = f->lap_fiedler = f->lap_cond = 0.0;
    f->lap_steps = 0;
    if (m < 1) return;
    double *q = lcp_calloc((size_t)n, sizeof(double)), *qp = lcp_calloc((size_t)n, sizeof(double));
    double *w = lcp_calloc((size_t)n, sizeof(double)), *al = lcp_alloc((size_t)m, sizeof(double));
    double *be = lcp_alloc((size_t)m, sizeof(double)), *work = NULL;
    if (!q || !qp || !w || !al || !be) goto done;
    uint64_t s = 0x9e3779b97f4a7c15ULL;
    double mean = 0.0, nrm = 0.0;
    for (int v = 0; v < n; v++)
        if (comp[v] == 0) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            q[v] = (double)(s >> 11) * 0x1.0p-53 - 0.5;
            mean += q[v];
        }
    mean /= size;
    for (int v = 0; v < n; v++)
        if (comp[v] == 0) q[v] -= mean, nrm += q[v] * q[v];
    nrm = sqrt(nrm);
    if (!(nrm > 0)) goto done;
    for (int v = 0; v < n; v++) q[v] /= nrm;
    int steps = 0;
    double beta = 0.0;
    for (int k = 0; k < m; k++) {
        double a = 0.0, mw = 0.0;
        for (int v = 0; v < n; v++) {
            if (comp[v] != 0) continue;
            double y = (double)(g->p[v + 1] - g->p[v]) * q[v];
            for (int e = g->p[v]; e < g->p[v + 1]; e++) y -= q[g->j[e]];
            w[v] = y - beta * qp[v];
            a += q[v] * y;
        }
        for (int v = 0; v < n; v++)
            if (comp[v] == 0) w[v] -= a * q[v], mw += w[v];
        mw /= size;
        double b = 0.0;
        for (int v = 0; v < n; v++)
            if (comp[v] == 0) w[v] -= mw, b += w[v] * w[v];
        b = sqrt(b);
        al[k] = a;
        steps = k + 1;
        if (!(b > 1e-12 * fabs(a)) || k + 1 == m) break;
        be[k] = b;
        for (int v = 0; v < n; v++)
            if (comp[v] == 0) qp[v] = q[v], q[v] = w[v] / b;
        beta = b;
    }
    int info = 0, one = 1;
    work = lcp_alloc((size_t)(2 * steps + 2), sizeof(double));
    if (!work) goto done;
    dstev_("N", &steps, al, be, NULL, &one, work, &info);
    if (info) goto done;
    f->lap_steps = steps;
    f->lap_lmax = al[steps - 1];
    f->lap_fiedler = al[0];
    f->lap_cond = al[0] > 1e-12 * al[steps - 1] ? al[steps - 1] / al[0] : INFINITY;
done:
    free(q), free(qp), free(w), free(al), free(be), free(work);
}

int lcp_graph_analyse(const lcp_graph *g, lcp_graph_facts *f)
{
    memset(f, 0, sizeof *f);
    int n = g->n;
    f->nodes = n;
    f->edges = lcp_graph_edges(g);
    if (n == 0) return 0;
    int *comp = lcp_alloc((size_t)n, sizeof(int)), *size = lcp_alloc((size_t)n, sizeof(int));
    int *deg = lcp_alloc((size_t)n, sizeof(int)), *colour = lcp_alloc((size_t)n, sizeof(int));
    int rc = LCP_ERROR;
    if (!comp || !size || !deg || !colour) goto done;
    f->components = lcp_graph_components(g, comp, size);
    if (f->components < 0) goto done;
    f->largest = size[0];
    long sum = 0;
    for (int v = 0; v < n; v++) {
        deg[v] = g->p[v + 1] - g->p[v];
        sum += deg[v];
        int b = 0;
        for (int d = deg[v]; d > 1 && b < 7; d >>= 1) b++;
        f->deg_hist[deg[v] == 0 ? 0 : b + 1 > 7 ? 7 : b + 1]++;
    }
    f->deg_mean = (double)sum / n;
    qsort(deg, (size_t)n, sizeof(int), cmp_int);
    f->deg_min = deg[0];
    f->deg_max = deg[n - 1];
    f->deg_median = deg[n / 2];
    if ((f->colours_greedy = lcp_graph_colour(g, LCP_COLOUR_GREEDY, colour)) < 0) goto done;
    if ((f->colours_dsatur = lcp_graph_colour(g, LCP_COLOUR_DSATUR, colour)) < 0) goto done;
    laplacian_estimate(g, comp, size[0], f);
    rc = 0;
done:
    free(comp), free(size), free(deg), free(colour);
    return rc;
}

int lcp_graph_write_dot(const lcp_graph *g, const int *colour, const char *path, lcp_err *err)
{
    lcp_outfile o;
    int rc = lcp_outfile_open(&o, path, err);
    if (rc) return rc;
    FILE *fp = o.fp;
    fprintf(fp, "graph contacts {\n  /* lcpsolve: one node a contact, an edge where A couples two contacts */\n");
    fprintf(fp, "  node [shape=circle, style=filled, fontsize=8];\n");
    for (int v = 0; v < g->n; v++) {
        if (colour) fprintf(fp, "  %d [fillcolor=\"/set312/%d\", label=\"%d\"];\n", v, colour[v] % 12 + 1, v);
        else fprintf(fp, "  %d;\n", v);
    }
    for (int v = 0; v < g->n; v++)
        for (int k = g->p[v]; k < g->p[v + 1]; k++)
            if (g->j[k] > v) fprintf(fp, "  %d -- %d;\n", v, g->j[k]);
    fprintf(fp, "}\n");
    if (ferror(fp)) {
        lcp_outfile_abort(&o);
        return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "cannot write the graph");
    }
    return lcp_outfile_commit(&o, err);
}
