/* src/core/features.c: the features of a problem (see features.h).
 *
 *  log_n, log_row (entries a row), log_density, symmetric, diag_pos (every
 *  diagonal entry > 0), diag_dom (share of rows diagonally dominant),
 *  log_diag_range (max / min of the diagonal), log_cond (the 10-step
 *  Lanczos estimate of the condition of D^-1/2 A D^-1/2, 16 where the
 *  smallest Ritz value is ~0: semidefinite), log_components and
 *  largest_share (the contact graph: a contact is a row, or 3 rows for
 *  ccp/fc3d), log_diameter (double-sweep BFS on the largest component),
 *  growth (ln size / ln diameter of it: ~1 chains, ~2 walls, 2.5+ 3D piles),
 *  log_degree_ratio (largest over mean entries a row), findex_share (blcp
 *  friction rows), mu_mean, open_share (share of contacts with b_n > 0),
 *  offdiag_pos_share (share of off-diagonal entries > 0).
 */
#include "features.h"

#include "common.h"
#include "../la/spectral.h"

#define LANCZOS_STEPS 10 /* the condition estimate: a feature, a rough one does */

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const lcp_feature_names[LCP_NFEATURES] = {
    "log_n",         "log_row",      "log_density",   "symmetric",        "diag_pos",     "diag_dom",
    "log_diag_range", "log_cond",    "log_components", "largest_share",   "log_diameter", "growth",
    "log_degree_ratio", "findex_share", "mu_mean",    "open_share",       "offdiag_pos_share",
};

/* BFS over the contacts on A's pattern from `from` (a contact: block rows,
 * the first of which stands for them: the rows of a contact share their
 * pattern), over the nodes with dist < 0, appending to queue[tail...];
 * returns the new tail, *last the last node reached (the farthest) and *far
 * its distance. */
static int bfs(const lcp_csr *A, int block, int from, int *dist, int *queue, int tail, int *last, int *far)
{
    int head = tail;
    dist[from] = 0;
    queue[tail++] = from;
    *last = from;
    while (head < tail) {
        int v = queue[head++], r = v * block;
        *last = v;
        for (int k = A->p[r]; k < A->p[r + 1]; k++) {
            int u = block == 1 ? A->j[k] : A->j[k] / 3;
            if (dist[u] < 0) dist[u] = dist[v] + 1, queue[tail++] = u;
        }
    }
    *far = dist[*last];
    return tail;
}

static int find(int *parent, int v)
{
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
}

/* components, the largest, and its diameter (double sweep: a lower bound,
 * usually close; the sweeps follow A's rows from the largest component's
 * first node).  A symmetric A: a BFS from each node not yet reached finds
 * the components and is the first sweep (two passes over the pattern in
 * all); otherwise the components are those of the undirected graph
 * (union-find over the entries) and the sweeps run on their own. */
static int graph_facts(const lcp_problem *p, lcp_features *f)
{
    int block = p->kind & LCP_KIND_FRICTION ? 3 : 1, nn = f->contacts; /* (lcp_features_basic's) */
    f->components = nn > 0 ? 1 : 0;
    f->largest = nn;
    f->diameter = 0;
    if (nn <= 0) return 0;
    if (lcp_csr_nnz(&p->A) == (long)p->n * p->n) { /* every row full: one component, every pair one step apart */
        f->diameter = nn > 1;
        return 0;
    }
    /* one block: dist and queue, and parent and size where A is not symmetric (nn each) */
    int *dist = lcp_alloc((size_t)nn * (f->symmetric ? 2 : 4), sizeof *dist);
    if (!dist) return LCP_ERROR;
    int *queue = dist + nn, *parent = f->symmetric ? NULL : queue + nn, *size = f->symmetric ? NULL : queue + 2 * (size_t)nn;
    for (int v = 0; v < nn; v++) dist[v] = -1;
    int comps = 0, tail = 0, bstart = 0, bsize = 0, blast = 0, last, far;
    if (f->symmetric) {
        for (int v = 0; v < nn; v++) {
            if (dist[v] >= 0) continue;
            int start = tail;
            tail = bfs(&p->A, block, v, dist, queue, tail, &last, &far);
            comps++;
            if (tail - start > bsize) bstart = start, bsize = tail - start, blast = last;
        }
        for (int k = bstart; k < bstart + bsize; k++) dist[queue[k]] = -1;
    } else {
        for (int v = 0; v < nn; v++) parent[v] = v, size[v] = 0;
        for (int r = 0; r < p->n; r += block) { /* a contact's first row: its 3 rows share their pattern */
            int a = find(parent, r / block);
            for (int k = p->A.p[r]; k < p->A.p[r + 1]; k++) {
                int b = find(parent, block == 1 ? p->A.j[k] : p->A.j[k] / 3);
                if (a != b) parent[a < b ? b : a] = a < b ? a : b, a = a < b ? a : b;
            }
        }
        int best = 0;
        for (int v = 0; v < nn; v++) {
            int root = find(parent, v);
            if (size[root]++ == 0) comps++;
        }
        for (int v = 0; v < nn; v++)
            if (size[v] > size[best]) best = v;
        bsize = size[best];
        tail = bfs(&p->A, block, best, dist, queue, 0, &blast, &far); /* the first sweep, from its root */
        for (int k = 0; k < tail; k++) dist[queue[k]] = -1;
        bstart = 0;
    }
    f->components = comps;
    f->largest = bsize;
    /* the second sweep, from the farthest node of the first */
    bfs(&p->A, block, blast, dist, queue, bstart, &last, &far);
    f->diameter = far;
    free(dist);
    return 0;
}

int lcp_features_basic(const lcp_problem *p, lcp_features *f)
{
    double t0 = lcp_now();
    memset(f, 0, sizeof *f);
    int n = p->n;
    const lcp_csr *A = &p->A;
    f->n = n;
    f->nnz = lcp_csr_nnz(A);
    f->symmetric = lcp_csr_is_symmetric(A, 1e-12);
    double dmin = INFINITY, dmax = 0;
    long dom = 0, off = 0, offpos = 0, rowmax = 0;
    f->diag_pos = 1;
    for (int i = 0; i < n; i++) {
        double d = 0, s = 0;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            if (A->j[k] == i) d += A->x[k];
            else {
                s += fabs(A->x[k]);
                off++;
                offpos += A->x[k] > 0;
            }
        }
        long row = A->p[i + 1] - A->p[i];
        if (row > rowmax) rowmax = row;
        if (!(d > 0)) f->diag_pos = 0;
        dom += d > 0 && d >= s;
        double ad = fabs(d);
        if (ad < dmin) dmin = ad;
        if (ad > dmax) dmax = ad;
    }
    int block = p->kind & LCP_KIND_FRICTION ? 3 : 1;
    f->contacts = n / block;
    f->cond = INFINITY;
    double nz = n > 0 ? (double)f->nnz / n : 0;
    double *v = f->v;
    v[0] = log10(n > 1 ? n : 1);
    v[1] = log10(nz > 1 ? nz : 1);
    v[2] = n > 0 && f->nnz > 0 ? log10((double)f->nnz / ((double)n * n)) : 0;
    v[3] = f->symmetric;
    v[4] = f->diag_pos;
    v[5] = n > 0 ? (double)dom / n : 0;
    v[6] = dmin > 0 && dmax > 0 ? fmin(16, log10(dmax / dmin)) : 16;
    /* v[7..11]: lcp_features_complete's (0 until then) */
    v[12] = nz > 0 && rowmax > 0 ? log10(rowmax / nz) : 0;
    int findex = 0;
    if (p->findex)
        for (int i = 0; i < n; i++) findex += p->findex[i] >= 0;
    v[13] = n > 0 ? (double)findex / n : 0;
    double mu = 0;
    for (int i = 0; p->mu && i < p->nmu; i++) mu += p->mu[i];
    v[14] = p->mu && p->nmu > 0 ? mu / p->nmu : 0;
    int open = 0;
    for (int c = 0; c < f->contacts; c++) open += p->b[c * block] > 0;
    v[15] = f->contacts > 0 ? (double)open / f->contacts : 0;
    v[16] = off > 0 ? (double)offpos / off : 0;
    f->time_s = lcp_now() - t0;
    return 0;
}

int lcp_features_complete(const lcp_problem *p, lcp_features *f)
{
    if (f->complete) return 0;
    double t0 = lcp_now();
    const lcp_csr *A = &p->A;
    int rc = graph_facts(p, f);
    if (rc) return rc;
    f->cond = INFINITY;
    double lmin = 0, lmax = 0;
    int ok = p->n > 0 && f->diag_pos &&
             (f->symmetric ? lcp_spectrum_symmetric(A, LANCZOS_STEPS, &lmin, &lmax, &f->lanczos_steps)
                           : lcp_spectrum_part(A, LANCZOS_STEPS, &lmin, &lmax, &f->lanczos_steps)) == 0;
    if (ok && lmin > 1e-12 * lmax) f->cond = lmax / lmin;
    double *v = f->v;
    v[7] = isfinite(f->cond) ? fmin(16, log10(f->cond > 1 ? f->cond : 1)) : 16;
    v[8] = log10(f->components > 1 ? f->components : 1);
    v[9] = f->contacts > 0 ? (double)f->largest / f->contacts : 1;
    v[10] = log10(1 + f->diameter);
    v[11] = f->diameter > 1 ? log((double)f->largest) / log((double)f->diameter) : 1;
    if (v[11] > 8) v[11] = 8;
    f->complete = 1;
    f->time_s += lcp_now() - t0;
    return 0;
}

double lcp_features_complete_cost(const lcp_problem *p)
{
    int steps = p->n < LANCZOS_STEPS ? p->n : LANCZOS_STEPS;
    return LCP_FEATURE_S_ENTRY * ((double)lcp_csr_nnz(&p->A) + p->n) * (2.0 + steps);
}

int lcp_features_compute(const lcp_problem *p, lcp_features *f)
{
    int rc = lcp_features_basic(p, f);
    return rc ? rc : lcp_features_complete(p, f);
}
