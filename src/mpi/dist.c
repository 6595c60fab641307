/* src/mpi/dist.c: see dist.h. */
#include "dist.h"
#include "../graph/graph.h"
#include "../core/verify.h"

#include <metis.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>



static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* METIS k-way partition of the contact graph on process 0, broadcast. */
static int partition(lcp_dist *d, const lcp_graph *g, lcp_err *err)
{
    int rc = 0;
    if (d->rank == 0 && d->size > 1 && g->n > 0) {
        idx_t nv = g->n, ncon = 1, nparts = d->size, objval;
        idx_t *xadj = malloc((size_t)(g->n + 1) * sizeof *xadj);
        idx_t *adj = malloc((size_t)(g->p[g->n] > 0 ? g->p[g->n] : 1) * sizeof *adj);
        idx_t *part = malloc((size_t)g->n * sizeof *part);
        idx_t opt[METIS_NOPTIONS];
        METIS_SetDefaultOptions(opt);
        opt[METIS_OPTION_SEED] = 1;
        if (!xadj || !adj || !part) rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        if (!rc) {
            for (int i = 0; i <= g->n; i++) xadj[i] = g->p[i];
            for (int k = 0; k < g->p[g->n]; k++) adj[k] = g->j[k];
            int st = nparts > nv ? METIS_OK
                                 : METIS_PartGraphKway(&nv, &ncon, xadj, adj, NULL, NULL, NULL, &nparts, NULL,
                                                       NULL, opt, &objval, part);
            if (nparts > nv) /* fewer contacts than processes: one each, the rest idle */
                for (int i = 0; i < g->n; i++) part[i] = i;
            if (st != METIS_OK) rc = lcp_fail(err, LCP_ERROR, NULL, 0, "METIS partitioning failed (status %d)", st);
            else
                for (int i = 0; i < g->n; i++) d->part[i] = (int)part[i];
        }
        free(xadj);
        free(adj);
        free(part);
    }
    MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, d->comm);
    if (rc) return rc == LCP_ERROR && !err->msg[0] ? lcp_fail(err, LCP_ERROR, NULL, 0, "partitioning failed") : rc;
    MPI_Bcast(d->part, d->nodes, MPI_INT, 0, d->comm);
    return 0;
}

int lcp_dist_init(lcp_dist *d, const lcp_problem *p, int colours, lcp_err *err)
{
    memset(d, 0, sizeof *d);
    d->comm = lcp_procs > 1 ? MPI_COMM_WORLD : MPI_COMM_SELF; /* a bench child is on its own */
    MPI_Comm_rank(d->comm, &d->rank);
    MPI_Comm_size(d->comm, &d->size);
    lcp_graph g = {0};
    lcp_order o = {0};
    int *colour = NULL, *nbrof = NULL, *stamp = NULL, *tmp = NULL;
    int rc = lcp_graph_build(p, &g, err);
    if (rc) goto done;
    d->nodes = g.n;
    d->block = g.block;
    int n = g.n, me = d->rank;
    d->part = calloc((size_t)(n > 0 ? n : 1), sizeof(int));
    colour = calloc((size_t)(n > 0 ? n : 1), sizeof(int));
    nbrof = malloc((size_t)d->size * sizeof(int));
    stamp = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    tmp = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    if (!d->part || !colour || !nbrof || !stamp || !tmp) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    if ((rc = partition(d, &g, err))) goto done;
    if (colours) { /* the classes of --order colour */
        if ((rc = lcp_order_build(p, LCP_ORDER_COLOUR, &o, err))) goto done;
        d->ncolours = o.ncolours;
        for (int c = 0; c < o.ncolours; c++)
            for (int k = o.cptr[c]; k < o.cptr[c + 1]; k++) colour[o.perm[k]] = c;
    }
    int nc = d->ncolours, nph = nc + 1;
    /* owned contacts, and by class */
    for (int v = 0; v < n; v++) d->nown += d->part[v] == me;
    d->own = malloc((size_t)(d->nown > 0 ? d->nown : 1) * sizeof(int));
    d->cptr = calloc((size_t)nc + 2, sizeof(int));
    d->cnodes = malloc((size_t)(d->nown > 0 ? d->nown : 1) * sizeof(int));
    if (!d->own || !d->cptr || !d->cnodes) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    for (int v = 0, k = 0; v < n; v++)
        if (d->part[v] == me) d->own[k++] = v;
    for (int k = 0; k < d->nown; k++) d->cptr[colour[d->own[k]] + 1]++;
    for (int c = 0; c < nc; c++) d->cptr[c + 1] += d->cptr[c];
    for (int c = 0, k = 0; c < nc; c++)
        for (int q = 0; q < d->nown; q++)
            if (colour[d->own[q]] == c) d->cnodes[k++] = d->own[q];
    /* neighbouring processes */
    for (int q = 0; q < d->size; q++) nbrof[q] = -1;
    for (int k = 0; k < d->nown; k++)
        for (int e = g.p[d->own[k]]; e < g.p[d->own[k] + 1]; e++) {
            int q = d->part[g.j[e]];
            if (q != me && nbrof[q] < 0) nbrof[q] = 0;
        }
    d->nbr = malloc((size_t)d->size * sizeof(int));
    if (!d->nbr) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    for (int q = 0; q < d->size; q++)
        if (nbrof[q] == 0) nbrof[q] = d->nnbr, d->nbr[d->nnbr++] = q;
    /* exchange lists, phase by phase: count, then fill */
    size_t nl = (size_t)nph * (size_t)d->nnbr;
    d->sptr = calloc(nl + 1, sizeof(int));
    d->rptr = calloc(nl + 1, sizeof(int));
    if (!d->sptr || !d->rptr) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    /* contact v of ours goes to q in phase colour[v] and phase nc when one
     * of q's contacts reads it; u of q's comes to us in the same phases
     * when one of ours reads it.  Lists ascending: both sides agree. */
    int *seenq = malloc((size_t)d->size * sizeof(int));
    if (!seenq) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    for (int pass = 0; pass < 2; pass++) {
        int *sfill = NULL; /* pass 1: where the next entry of each send list, then receive list, goes */
        if (pass) {
            d->snodes = malloc((size_t)(d->sptr[nl] > 0 ? d->sptr[nl] : 1) * sizeof(int));
            d->rnodes = malloc((size_t)(d->rptr[nl] > 0 ? d->rptr[nl] : 1) * sizeof(int));
            sfill = malloc((nl + 1) * 2 * sizeof(int));
            if (!d->snodes || !d->rnodes || !sfill) {
                free(sfill);
                free(seenq);
                rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
                goto done;
            }
            for (size_t l = 0; l < nl; l++) sfill[l] = d->sptr[l], sfill[nl + 1 + l] = d->rptr[l];
        }
        for (int q = 0; q < d->size; q++) seenq[q] = -1;
        for (int v = 0; v < n; v++) stamp[v] = 0;
        for (int a = 0; a < d->nown; a++) {
            int v = d->own[a];
            for (int e = g.p[v]; e < g.p[v + 1]; e++) {
                int u = g.j[e], q = d->part[u];
                if (q == me) continue;
                int k = nbrof[q];
                if (seenq[q] != v) { /* v to q, once */
                    seenq[q] = v;
                    size_t l1 = (size_t)nc * d->nnbr + k;
                    if (pass) {
                        if (nc) d->snodes[sfill[(size_t)colour[v] * d->nnbr + k]++] = v;
                        d->snodes[sfill[l1]++] = v;
                    } else {
                        if (nc) d->sptr[(size_t)colour[v] * d->nnbr + k + 1]++;
                        d->sptr[l1 + 1]++;
                    }
                }
                if (!stamp[u]) { /* u from q, once */
                    stamp[u] = 1;
                    size_t l1 = (size_t)nc * d->nnbr + k;
                    if (pass) {
                        if (nc) d->rnodes[sfill[nl + 1 + (size_t)colour[u] * d->nnbr + k]++] = u;
                        d->rnodes[sfill[nl + 1 + l1]++] = u;
                    } else {
                        if (nc) d->rptr[(size_t)colour[u] * d->nnbr + k + 1]++;
                        d->rptr[l1 + 1]++;
                    }
                }
            }
        }
        if (!pass)
            for (size_t l = 0; l < nl; l++) d->sptr[l + 1] += d->sptr[l], d->rptr[l + 1] += d->rptr[l];
        else {
            free(sfill);
            for (size_t l = 0; l < nl; l++) /* receives came in our order: sort to the sender's */
                qsort(d->rnodes + d->rptr[l], (size_t)(d->rptr[l + 1] - d->rptr[l]), sizeof(int), cmp_int);
        }
    }
    free(seenq);
    /* buffers: the largest phase */
    long smax = 1, rmax = 1, bsweep = 0, ball = 0;
    for (int f = 0; f < nph; f++) {
        size_t l0 = (size_t)f * d->nnbr, l1 = l0 + d->nnbr;
        long s = d->sptr[l1] - d->sptr[l0], r = d->rptr[l1] - d->rptr[l0];
        smax = s > smax ? s : smax;
        rmax = r > rmax ? r : rmax;
        if (f < nc) bsweep += s;
        else ball += s;
    }
    long bytes[2] = {bsweep * d->block * (long)sizeof(double), ball * d->block * (long)sizeof(double)};
    MPI_Allreduce(MPI_IN_PLACE, bytes, 2, MPI_LONG, MPI_SUM, d->comm);
    d->bytes_sweep = bytes[0];
    d->bytes_all = bytes[1];
    d->sbuf = malloc((size_t)smax * d->block * sizeof(double));
    d->rbuf = malloc((size_t)rmax * d->block * sizeof(double));
    d->req = malloc((size_t)(2 * d->nnbr + 1) * sizeof(MPI_Request));
    /* gather: rows per process, contacts in process order */
    d->counts = calloc((size_t)d->size, sizeof(int));
    d->displs = calloc((size_t)d->size + 1, sizeof(int));
    d->order = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    d->gbuf = malloc((size_t)(p->n > 0 ? p->n : 1) * sizeof(double));
    if (!d->sbuf || !d->rbuf || !d->req || !d->counts || !d->displs || !d->order || !d->gbuf) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    for (int v = 0; v < n; v++) d->counts[d->part[v]] += d->block;
    for (int q = 0; q < d->size; q++) d->displs[q + 1] = d->displs[q] + d->counts[q];
    for (int q = 0; q < d->size; q++) tmp[q] = d->displs[q] / (d->block > 0 ? d->block : 1);
    for (int v = 0; v < n; v++) d->order[tmp[d->part[v]]++] = v;
done:
    /* a failure on one process is a failure on all (no one waits for it) */
    MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, d->comm);
    if (rc && !err->msg[0]) lcp_fail(err, LCP_ERROR, NULL, 0, "another process failed to set up the partition");
    lcp_graph_free(&g);
    lcp_order_free(&o);
    free(colour);
    free(nbrof);
    free(stamp);
    free(tmp);
    if (rc) lcp_dist_free(d);
    return rc;
}

void lcp_dist_free(lcp_dist *d)
{
    free(d->part);
    free(d->own);
    free(d->cptr);
    free(d->cnodes);
    free(d->nbr);
    free(d->sptr);
    free(d->snodes);
    free(d->rptr);
    free(d->rnodes);
    free(d->sbuf);
    free(d->rbuf);
    free(d->req);
    free(d->counts);
    free(d->displs);
    free(d->order);
    free(d->gbuf);
    memset(d, 0, sizeof *d);
}

void lcp_dist_exchange(lcp_dist *d, int f, double *x)
{
    if (!d->nnbr) return;
    int b = d->block, nr = 0;
    size_t l0 = (size_t)f * d->nnbr;
    for (int k = 0; k < d->nnbr; k++) {
        int r0 = d->rptr[l0 + k] - d->rptr[l0], rc = d->rptr[l0 + k + 1] - d->rptr[l0 + k];
        if (rc) MPI_Irecv(d->rbuf + (size_t)r0 * b, rc * b, MPI_DOUBLE, d->nbr[k], f, d->comm, &d->req[nr++]);
    }
    for (int k = 0; k < d->nnbr; k++) {
        int s0 = d->sptr[l0 + k] - d->sptr[l0], sc = d->sptr[l0 + k + 1] - d->sptr[l0 + k];
        double *buf = d->sbuf + (size_t)s0 * b;
        const int *nodes = d->snodes + d->sptr[l0 + k];
        for (int a = 0; a < sc; a++)
            for (int i = 0; i < b; i++) buf[a * b + i] = x[(size_t)nodes[a] * b + i];
        if (sc) MPI_Isend(buf, sc * b, MPI_DOUBLE, d->nbr[k], f, d->comm, &d->req[nr++]);
    }
    MPI_Waitall(nr, d->req, MPI_STATUSES_IGNORE);
    int rtot = d->rptr[l0 + d->nnbr] - d->rptr[l0];
    const int *rn = d->rnodes + d->rptr[l0];
    for (int a = 0; a < rtot; a++)
        for (int i = 0; i < b; i++) x[(size_t)rn[a] * b + i] = d->rbuf[(size_t)a * b + i];
}

int lcp_dist_monitor(lcp_dist *d, lcp_monitor *mon, int iter, const double *x, const double *extra)
{
    const lcp_problem *p = mon->p;
    const int *ap = p->A.p, *aj = p->A.j, b = d->block;
    const double *ax = p->A.x;
    double *w = mon->w;
    for (int k = 0; k < d->nown; k++)
        for (int i = d->own[k] * b; i < d->own[k] * b + b; i++) {
            w[i] = lcp_csr_row_dot(aj, ax, x, ap[i], ap[i + 1]) + p->b[i] - p->reg * x[i]; /* --reg: the metrics are of the original problem */
        }
    lcp_verify_partial t;
    lcp_verify_nodes(p, x, w, d->own, d->nown, &t);
    if (p->reg > 0) /* w of the problem solved, for the solvers */
        for (int k = 0; k < d->nown; k++)
            for (int i = d->own[k] * b; i < d->own[k] * b + b; i++) w[i] += p->reg * x[i];
    int friction = b == 3;
    double mx[5] = {friction ? 0.0 : t.res, t.feas, (double)t.nan, lcp_now() - mon->t0, (double)mon->stop_asked}; /* the callback's word, the same everywhere */
    mon->collective = 1;
    double sm[5] = {friction ? t.res : 0.0, t.comp, t.nq, t.nr, t.nu};
    MPI_Allreduce(MPI_IN_PLACE, mx, 5, MPI_DOUBLE, MPI_MAX, d->comm);
    MPI_Allreduce(MPI_IN_PLACE, sm, 5, MPI_DOUBLE, MPI_SUM, d->comm);
    t = (lcp_verify_partial){friction ? sm[0] : mx[0], sm[1], mx[1], sm[2], sm[3], sm[4], mx[2] != 0.0};
    lcp_metrics m;
    lcp_verify_finish(p, &t, &m);
    int v[2] = {lcp_monitor_record(mon, iter, mx[3], mx[4] != 0.0, &m, x, extra), (int)mon->status};
    /* the metrics are the same everywhere, but a test on x itself (the
     * friction run-off test) sees only this process's part: process 0
     * decides for all */
    MPI_Bcast(v, 2, MPI_INT, 0, d->comm);
    mon->status = (lcp_status)v[1];
    return v[0];
}

void lcp_dist_gather(lcp_dist *d, double *x)
{
    int b = d->block, me = d->rank;
    double *mine = d->gbuf + d->displs[me];
    for (int k = 0; k < d->nown; k++)
        for (int i = 0; i < b; i++) mine[k * b + i] = x[(size_t)d->own[k] * b + i];
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d->gbuf, d->counts, d->displs, MPI_DOUBLE, d->comm);
    for (int k = 0; k < d->nodes; k++)
        for (int i = 0; i < b; i++) x[(size_t)d->order[k] * b + i] = d->gbuf[(size_t)k * b + i];
}

double lcp_dist_sum(lcp_dist *d, double v)
{
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, d->comm);
    return v;
}
