/* src/graph/decompose.c: solving a problem one connected component of its
 * contact graph at a time (--decompose).
 *
 * Contacts in different components share no entry of A (nor a findex link),
 * so the problem is the direct sum of the components' problems: each is cut
 * out (A, b, bounds, findex, mu, and the factored form: the rows of J, the
 * bodies they touch with their whole mass blocks, v, e), solved by the
 * chosen solver with its own monitor, smallest first, as OpenMP tasks on the
 * -j threads (each solve is sequential inside, so the bits do not depend on
 * the thread count), and written back into x.  The whole answer is then
 * checked once by the caller's monitor on the whole problem.
 *
 * Tolerances: each part carries the whole problem's |b| as the floor of its
 * residual's normalisation (lcp_problem.scale_floor), so for lcp and blcp
 * the whole residual is the largest of the parts' and tol carries over.  The
 * friction residual is a 2-norm over contacts normalised by the largest of
 * |q|, |r|, |u| (at least |q| of the whole): with k parts each solved to
 * tol / sqrt(k) the whole is within tol.
 */
#include "decompose.h"
#include "../la/sparse_factor.h"
#include "../la/symbolic_store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* S = rows `rows` (nr of them) of A, columns mapped by colmap (global ->
 * local, -1 to drop); ncols local columns. */
static int submatrix(const lcp_csr *A, const int *rows, int nr, const int *colmap, int ncols, lcp_csr *S)
{
    long nnz = 0;
    for (int r = 0; r < nr; r++)
        for (int k = A->p[rows[r]]; k < A->p[rows[r] + 1]; k++) nnz += colmap[A->j[k]] >= 0;
    if (lcp_csr_alloc(S, nr, ncols, nnz)) return LCP_ERROR;
    long q = 0;
    for (int r = 0; r < nr; r++) {
        for (int k = A->p[rows[r]]; k < A->p[rows[r] + 1]; k++)
            if (colmap[A->j[k]] >= 0) S->j[q] = colmap[A->j[k]], S->x[q++] = A->x[k];
        S->p[r + 1] = (int)q;
    }
    return 0; /* column order is kept: the maps are increasing */
}

static double *pick(const double *v, const int *idx, int n)
{
    double *o = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(double));
    for (int i = 0; o && i < n; i++) o[i] = v[idx[i]];
    return o;
}

/* The sub-problem of the rows `rows` (nr, increasing; whole contacts), its
 * residual normalised by at least floor. */
static int subproblem(const lcp_problem *p, const int *rows, int nr, double floor, int *map, lcp_problem *s)
{
    lcp_problem_init(s);
    s->scale_floor = floor;
    s->reg = p->reg;
    s->kind = p->kind;
    s->n = nr;
    s->nc = (p->kind & LCP_KIND_FRICTION) ? nr / 3 : 0;
    for (int i = 0; i < p->n; i++) map[i] = -1;
    for (int r = 0; r < nr; r++) map[rows[r]] = r;
    if (submatrix(&p->A, rows, nr, map, nr, &s->A) || !(s->b = pick(p->b, rows, nr))) return LCP_ERROR;
    if (p->lo && !(s->lo = pick(p->lo, rows, nr))) return LCP_ERROR;
    if (p->hi && !(s->hi = pick(p->hi, rows, nr))) return LCP_ERROR;
    if (p->findex) {
        if (!(s->findex = lcp_alloc((size_t)nr, sizeof(int)))) return LCP_ERROR;
        for (int r = 0; r < nr; r++) s->findex[r] = p->findex[rows[r]] >= 0 ? map[p->findex[rows[r]]] : -1;
    }
    if (p->mu) {
        if (p->kind & LCP_KIND_FRICTION) {
            if (!(s->mu = lcp_alloc((size_t)(s->nc > 0 ? s->nc : 1), sizeof(double)))) return LCP_ERROR;
            for (int c = 0; c < s->nc; c++) s->mu[c] = p->mu[rows[3 * c] / 3];
            s->nmu = s->nc;
        } else {
            if (!(s->mu = pick(p->mu, rows, nr))) return LCP_ERROR;
            s->nmu = nr;
        }
    }
    if (p->e && !(s->e = pick(p->e, rows, nr))) return LCP_ERROR;
    if (p->J.p && p->M.p && p->v) { /* the bodies the rows touch, with their whole mass blocks */
        int nb = p->J.n, *bmap = lcp_alloc((size_t)nb, sizeof(int)), *queue = lcp_alloc((size_t)nb, sizeof(int));
        if (!bmap || !queue) {
            free(bmap), free(queue);
            return LCP_ERROR;
        }
        for (int k = 0; k < nb; k++) bmap[k] = -1;
        int head = 0, tail = 0;
        for (int r = 0; r < nr; r++)
            for (int k = p->J.p[rows[r]]; k < p->J.p[rows[r] + 1]; k++)
                if (bmap[p->J.j[k]] < 0) bmap[p->J.j[k]] = 0, queue[tail++] = p->J.j[k];
        while (head < tail) { /* closure in M's graph: a body's whole block */
            int d = queue[head++];
            for (int k = p->M.p[d]; k < p->M.p[d + 1]; k++)
                if (bmap[p->M.j[k]] < 0) bmap[p->M.j[k]] = 0, queue[tail++] = p->M.j[k];
        }
        int nsb = 0;
        for (int k = 0; k < nb; k++)
            if (bmap[k] >= 0) queue[nsb] = k, bmap[k] = nsb++;
        int rc = submatrix(&p->J, rows, nr, bmap, nsb, &s->J) || submatrix(&p->M, queue, nsb, bmap, nsb, &s->M) ||
                 !(s->v = pick(p->v, queue, nsb));
        free(bmap), free(queue);
        if (rc) return LCP_ERROR;
    }
    s->source = lcp_strdup(p->source);
    s->format = lcp_strdup(p->format);
    return 0;
}

/* Which outcome of two tells more: a verdict over a failure over a limit. */
static int severity(lcp_status s)
{
    switch (s) {
    case LCP_NO_SOLUTION: return 5;
    case LCP_ERROR: return 4;
    case LCP_TIME_LIMIT: return 3;
    case LCP_MAX_ITER:
    case LCP_STALLED: return 2;
    default: return 1;
    }
}

typedef struct {
    int rows_first, nrows; /* into the row list */
    lcp_status status;
    int iterations, rc, cut; /* cut: auto's monitor ended it (lcp_monitor.budget_hit) */
    double nnz; /* of the component's A */
    char message[256];
    lcp_err err;
} part;

/* One component's solve (the body of a task when -j > 1): its subproblem, a
 * monitor of its own, the solver; the answer into its rows of x. */
static void solve_part(const lcp_solver *sv, const lcp_problem *p, const lcp_settings *s, const lcp_settings *sub,
                       const int *rows, double floor, double t0, double *x, part *pc)
{
    lcp_problem sp;
    lcp_monitor m;
    lcp_problem_init(&sp);
    lcp_settings ss = *sub;
    int *map = lcp_alloc((size_t)p->n, sizeof(int));
    double *xc = NULL;
    pc->status = LCP_ERROR;
    if (ss.time_limit > 0) ss.time_limit = fmax(s->time_limit - (lcp_now() - t0), 1e-9);
    if (!map || subproblem(p, rows + pc->rows_first, pc->nrows, floor, map, &sp) ||
        !(xc = pick(x, rows + pc->rows_first, pc->nrows)) || lcp_monitor_init(&m, &sp, &ss, NULL)) {
        pc->rc = lcp_fail(&pc->err, LCP_ERROR, NULL, 0, "out of memory (--decompose)");
    } else {
        lcp_info in = {0};
        in.status = LCP_MAX_ITER;
        pc->rc = sv->solve(&sp, &ss, xc, &m, &in, &pc->err);
        pc->status = in.status == LCP_NO_SOLUTION || in.status == LCP_ERROR ? in.status : m.status;
        pc->iterations = in.iterations;
        pc->cut = m.interrupted ? 0 : m.budget_hit;
        pc->nnz = (double)lcp_csr_nnz(&sp.A);
        snprintf(pc->message, sizeof pc->message, "%s", *in.message ? in.message : m.message);
        if (pc->status != LCP_SOLVED && m.best.residual <= m.last.residual)
            memcpy(xc, m.best_x, (size_t)pc->nrows * sizeof(double));
        for (int r = 0; r < pc->nrows; r++) x[rows[pc->rows_first + r]] = xc[r];
        lcp_monitor_free(&m);
    }
    free(xc);
    free(map);
    lcp_problem_free(&sp);
}

int lcp_solve_components(const lcp_solver *sv, const lcp_problem *p, const lcp_settings *s, double *x,
                         lcp_monitor *mon, lcp_info *info, int *ncomp, lcp_err *err)
{
    int rc = 0, block = (p->kind & LCP_KIND_FRICTION) ? 3 : 1, n = p->n / block;
    int *comp = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(int)), *size = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(int));
    int *rows = lcp_alloc((size_t)(p->n > 0 ? p->n : 1), sizeof(int)), k = 0;
    double *x0 = lcp_alloc((size_t)(p->n > 0 ? p->n : 1), sizeof(double));
    part *parts = NULL;
    if (!comp || !size || !rows || !x0 || (k = lcp_problem_components(p, comp, size)) < 0 ||
        !(parts = lcp_calloc((size_t)(k > 0 ? k : 1), sizeof(part)))) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (--decompose)");
        goto done;
    }
    *ncomp = k;
    if (k <= 1) { /* one piece: the caller solves it whole */
        rc = -1;
        goto done;
    }
    memcpy(x0, x, (size_t)p->n * sizeof(double));
    /* rows grouped by component (largest first), increasing within each */
    for (int c = 0, first = 0; c < k; c++) parts[c].rows_first = first, first += size[c] * block;
    for (int v = 0; v < n; v++)
        for (int a = 0; a < block; a++)
            rows[parts[comp[v]].rows_first + parts[comp[v]].nrows++] = v * block + a;
    lcp_settings sub = *s;
    sub.order = NULL; /* orders are of the whole problem */
    double t0 = lcp_now();
    if (p->kind & LCP_KIND_FRICTION) sub.tol = s->tol / sqrt((double)k);
    double floor = 0.0; /* the whole problem's |b|, in the residual's norm */
    for (int i = 0; i < p->n; i++)
        floor = (p->kind & LCP_KIND_FRICTION) ? floor + p->b[i] * p->b[i] : fmax(floor, fabs(p->b[i]));
    if (p->kind & LCP_KIND_FRICTION) floor = sqrt(floor);
    int worst = -1, iters = 0;
    /* smallest first: under --time-limit each component gets what the ones
     * before it left, so the small ones (often single contacts, solved in
     * a step) must not wait for the largest to use it all up and then start
     * with none, their start's residual then standing for the whole answer */
    if (s->threads > 1) {
        int ordering = lcp_sparse_factor_get_ordering(); /* the solve's, for the tasks' threads */
        lcp_symbolic_store *store = lcp_symbolic_store_current();
#pragma omp parallel
#pragma omp single
        for (int c = k - 1; c >= 0; c--) {
#pragma omp task firstprivate(c)
            {
                lcp_sparse_factor_set_ordering(ordering);
                lcp_symbolic_store_set_current(store);
                solve_part(sv, p, s, &sub, rows, floor, t0, x, &parts[c]);
                lcp_symbolic_store_set_current(NULL); /* the pool's thread keeps no pointer to it */
            }
        }
    } else { /* no OpenMP team: a team of one still spin-waits in the libraries' own regions (CHOLMOD) */
        for (int c = k - 1; c >= 0; c--) {
            /* auto's budget is of the whole run: on one thread, what the components before left of it */
            if (s->budget_cpu > 0) sub.budget_cpu = fmax(s->budget_cpu - lcp_monitor_cpu(mon), 1e-9);
            solve_part(sv, p, s, &sub, rows, floor, t0, x, &parts[c]);
        }
    }
    /* a component that could not run or gave a verdict (no solution,
     * breakdown): the whole problem is solved as one instead, so that the
     * message and its evidence name the problem's own rows and contacts */
    worst = -1;
    info->rows_swept = info->nnz_swept = 0.0;
    for (int c = 0; c < k; c++) {
        if (parts[c].rc || parts[c].status == LCP_NO_SOLUTION || parts[c].status == LCP_ERROR) {
            memcpy(x, x0, (size_t)p->n * sizeof(double));
            rc = -1;
            goto done;
        }
        if (parts[c].iterations > iters) iters = parts[c].iterations;
        info->rows_swept += (double)parts[c].nrows * parts[c].iterations;
        info->nnz_swept += parts[c].nnz * parts[c].iterations;
        if (parts[c].status != LCP_SOLVED && (worst < 0 || severity(parts[c].status) > severity(parts[worst].status)))
            worst = c;
    }
    info->iterations = iters;
    snprintf(info->message, sizeof info->message, "%s", parts[0].message); /* the largest component's */
    lcp_monitor_step(mon, iters, x, NULL); /* the whole answer, once */
    if (mon->status != LCP_SOLVED && worst >= 0) {
        mon->status = parts[worst].status;
        if (mon->status == LCP_TIME_LIMIT) mon->budget_hit = parts[worst].cut; /* auto's cut, not the caller's limit */
        snprintf(info->message, sizeof info->message, "component %d of %d (%d contacts)%s%.180s", worst + 1, k,
                 parts[worst].nrows / block, *parts[worst].message ? ": " : "", parts[worst].message);
    }
done:
    free(comp), free(size), free(rows), free(parts), free(x0);
    return rc;
}
