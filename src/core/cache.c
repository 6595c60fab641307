/* src/core/cache.c: the update path of the pipeline: the set-up that
 * depends on a problem's pattern only, kept across solves of problems with
 * the same pattern (a time-stepping loop, a sequence whose contacts
 * persist).  Today: the sweep orders and colour classes of --order (the
 * contact graph, its colouring, RCM, AMD or nested dissection), the most
 * expensive pattern-only analysis of the pipeline's own; and a store of the
 * factorising solvers' symbolic analyses (src/la/symbolic_store.h: CHOLMOD
 * and UMFPACK, each pattern analysed once), made current for the solves
 * that use this cache.
 *
 * An entry holds a copy of the pattern it was built for (kind, n, rowptr,
 * col, findex) and is taken only on an exact match.  Entries are immutable
 * once built and counted while in use, so that solves in several threads
 * share one cache: lookups and inserts under a mutex, the order itself read
 * without one. */
#include "pipeline.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define KEEP 4 /* entries kept beyond those in use */

typedef struct entry {
    lcp_kind kind;
    int n, method, refs;
    int *rowptr, *col, *findex; /* the pattern, copied */
    lcp_order order;
    struct entry *next;
} entry;

struct lcp_pipeline_cache {
    pthread_mutex_t lock;
    lcp_symbolic_store *store; /* the factorisations' analyses */
    entry *head;  /* newest first */
    long builds, hits;
};

lcp_pipeline_cache *lcp_pipeline_cache_new(void)
{
    lcp_pipeline_cache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    if (!(c->store = lcp_symbolic_store_new())) {
        free(c);
        return NULL;
    }
    if (pthread_mutex_init(&c->lock, NULL)) {
        lcp_symbolic_store_free(c->store);
        free(c);
        return NULL;
    }
    return c;
}

static void entry_free(entry *e)
{
    free(e->rowptr), free(e->col), free(e->findex);
    lcp_order_free(&e->order);
    free(e);
}

void lcp_pipeline_cache_free(lcp_pipeline_cache *c)
{
    if (!c) return;
    for (entry *e = c->head, *nx; e; e = nx) {
        nx = e->next;
        entry_free(e);
    }
    lcp_symbolic_store_free(c->store);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

void lcp_pipeline_cache_stats(lcp_pipeline_cache *c, long *builds, long *hits)
{
    pthread_mutex_lock(&c->lock);
    *builds = c->builds;
    *hits = c->hits;
    pthread_mutex_unlock(&c->lock);
}

lcp_symbolic_store *lcp_pipeline_cache_store(lcp_pipeline_cache *c) { return c ? c->store : NULL; }

static int same_pattern(const entry *e, const lcp_problem *p, int method)
{
    long nnz = lcp_csr_nnz(&p->A);
    return e->method == method && e->kind == p->kind && e->n == p->n && e->rowptr[p->n] == nnz &&
           !memcmp(e->rowptr, p->A.p, (size_t)(p->n + 1) * sizeof(int)) &&
           !memcmp(e->col, p->A.j, (size_t)nnz * sizeof(int)) && !e->findex == !p->findex &&
           (!p->findex || !memcmp(e->findex, p->findex, (size_t)p->n * sizeof(int)));
}

const lcp_order *lcp_pipeline_cache_order(lcp_pipeline_cache *c, const lcp_problem *p, lcp_order_method method,
                                          void **handle, lcp_err *err)
{
    *handle = NULL;
    pthread_mutex_lock(&c->lock);
    for (entry *e = c->head; e; e = e->next)
        if (same_pattern(e, p, (int)method)) {
            e->refs++;
            c->hits++;
            pthread_mutex_unlock(&c->lock);
            *handle = e;
            return &e->order;
        }
    pthread_mutex_unlock(&c->lock);
    /* not there: built here, outside the lock, then kept */
    long nnz = lcp_csr_nnz(&p->A);
    entry *e = calloc(1, sizeof *e);
    if (!e) {
        lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        return NULL;
    }
    e->kind = p->kind;
    e->n = p->n;
    e->method = (int)method;
    e->refs = 1;
    e->rowptr = lcp_alloc((size_t)p->n + 1, sizeof(int));
    e->col = lcp_alloc((size_t)(nnz > 0 ? nnz : 1), sizeof(int));
    e->findex = p->findex ? lcp_alloc((size_t)p->n, sizeof(int)) : NULL;
    if (!e->rowptr || !e->col || (p->findex && !e->findex)) {
        entry_free(e);
        lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        return NULL;
    }
    memcpy(e->rowptr, p->A.p, (size_t)(p->n + 1) * sizeof(int));
    memcpy(e->col, p->A.j, (size_t)nnz * sizeof(int));
    if (p->findex) memcpy(e->findex, p->findex, (size_t)p->n * sizeof(int));
    if (lcp_order_build(p, method, &e->order, err)) {
        entry_free(e);
        return NULL;
    }
    pthread_mutex_lock(&c->lock);
    c->builds++;
    e->next = c->head;
    c->head = e;
    /* keep the newest KEEP entries not in use */
    int kept = 0;
    for (entry **pp = &c->head; *pp;) {
        entry *x = *pp;
        if (x->refs == 0 && ++kept > KEEP) {
            *pp = x->next;
            entry_free(x);
        } else {
            pp = &x->next;
        }
    }
    pthread_mutex_unlock(&c->lock);
    *handle = e;
    return &e->order;
}

void lcp_pipeline_cache_release(lcp_pipeline_cache *c, void *handle)
{
    if (!c || !handle) return;
    pthread_mutex_lock(&c->lock);
    ((entry *)handle)->refs--;
    pthread_mutex_unlock(&c->lock);
}
