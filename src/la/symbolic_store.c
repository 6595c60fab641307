/* src/la/symbolic_store.c: see symbolic_store.h. */
#include "symbolic_store.h"
#include "suitesparse.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <umfpack.h>

#define KEEP 8 /* entries kept beyond those lent out */

typedef struct entry {
    int method, ordering, n, refs;
    int *p, *j;             /* the pattern, copied */
    cholmod_factor *L;      /* LCP_SYM_CHOLMOD: symbolic */
    void *symbolic;         /* LCP_SYM_UMFPACK */
    struct entry *next;
} entry;

struct lcp_symbolic_store {
    pthread_mutex_t lock;
    cholmod_common cc;      /* frees the kept factors */
    entry *head;            /* newest first */
    long analyses, reuses;
};

static _Thread_local lcp_symbolic_store *current;

void lcp_symbolic_store_set_current(lcp_symbolic_store *s) { current = s; }
lcp_symbolic_store *lcp_symbolic_store_current(void) { return current; }

lcp_symbolic_store *lcp_symbolic_store_new(void)
{
    lcp_symbolic_store *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    if (pthread_mutex_init(&s->lock, NULL)) {
        free(s);
        return NULL;
    }
    lcp_cholmod_start(&s->cc);
    return s;
}

static void entry_free(lcp_symbolic_store *s, entry *e)
{
    if (e->L) cholmod_free_factor(&e->L, &s->cc);
    if (e->symbolic) umfpack_di_free_symbolic(&e->symbolic);
    free(e->p), free(e->j);
    free(e);
}

void lcp_symbolic_store_free(lcp_symbolic_store *s)
{
    if (!s) return;
    for (entry *e = s->head, *nx; e; e = nx) {
        nx = e->next;
        entry_free(s, e);
    }
    cholmod_finish(&s->cc);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

void lcp_symbolic_store_stats(lcp_symbolic_store *s, long *analyses, long *reuses)
{
    pthread_mutex_lock(&s->lock);
    *analyses = s->analyses;
    *reuses = s->reuses;
    pthread_mutex_unlock(&s->lock);
}

/* under the lock */
static entry *find(lcp_symbolic_store *s, int method, int ordering, int n, const int *p, const int *j)
{
    for (entry *e = s->head; e; e = e->next)
        if (e->method == method && e->ordering == ordering && e->n == n && e->p[n] == p[n] &&
            !memcmp(e->p, p, (size_t)(n + 1) * sizeof(int)) && !memcmp(e->j, j, (size_t)p[n] * sizeof(int)))
            return e;
    return NULL;
}

/* under the lock: the KEEP newest of the entries not lent out stay */
static void trim(lcp_symbolic_store *s)
{
    int idle = 0;
    for (entry **pe = &s->head; *pe;) {
        entry *e = *pe;
        if (e->refs == 0 && ++idle > KEEP) {
            *pe = e->next;
            entry_free(s, e);
        } else {
            pe = &e->next;
        }
    }
}

/* A new entry for the pattern (not yet in the store), or NULL (memory). */
static entry *entry_new(int method, int ordering, int n, const int *p, const int *j)
{
    entry *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->method = method;
    e->ordering = ordering;
    e->n = n;
    e->p = malloc((size_t)(n + 1) * sizeof(int));
    e->j = malloc((size_t)(p[n] > 0 ? p[n] : 1) * sizeof(int));
    if (!e->p || !e->j) {
        free(e->p), free(e->j), free(e);
        return NULL;
    }
    memcpy(e->p, p, (size_t)(n + 1) * sizeof(int));
    memcpy(e->j, j, (size_t)p[n] * sizeof(int));
    return e;
}

/* under the lock: e goes in front (or, when another thread put the same
 * pattern in meanwhile, is dropped: returns the one there) */
static entry *insert(lcp_symbolic_store *s, entry *e)
{
    entry *there = find(s, e->method, e->ordering, e->n, e->p, e->j);
    if (there) {
        entry_free(s, e);
        return there;
    }
    e->next = s->head;
    s->head = e;
    s->analyses++;
    return e;
}

cholmod_factor *lcp_symbolic_store_get_cholmod(lcp_symbolic_store *s, int ordering, int n, const int *p,
                                               const int *j, cholmod_common *cc)
{
    cholmod_factor *L = NULL;
    pthread_mutex_lock(&s->lock);
    entry *e = find(s, LCP_SYM_CHOLMOD, ordering, n, p, j);
    if (e && (L = cholmod_copy_factor(e->L, cc))) s->reuses++;
    pthread_mutex_unlock(&s->lock);
    return L;
}

void lcp_symbolic_store_put_cholmod(lcp_symbolic_store *s, int ordering, int n, const int *p, const int *j,
                                    const cholmod_factor *L)
{
    entry *e = entry_new(LCP_SYM_CHOLMOD, ordering, n, p, j);
    if (!e) return;
    pthread_mutex_lock(&s->lock);
    if (!(e->L = cholmod_copy_factor((cholmod_factor *)L, &s->cc))) {
        entry_free(s, e);
    } else {
        insert(s, e);
        trim(s);
    }
    pthread_mutex_unlock(&s->lock);
}

void *lcp_symbolic_store_get_umfpack(lcp_symbolic_store *s, int ordering, int n, const int *p, const int *j,
                                     void **ref)
{
    *ref = NULL;
    pthread_mutex_lock(&s->lock);
    entry *e = find(s, LCP_SYM_UMFPACK, ordering, n, p, j);
    if (e) {
        e->refs++;
        s->reuses++;
        *ref = e;
    }
    pthread_mutex_unlock(&s->lock);
    return e ? e->symbolic : NULL;
}

void *lcp_symbolic_store_put_umfpack(lcp_symbolic_store *s, int ordering, int n, const int *p, const int *j,
                                     void *symbolic, void **ref)
{
    *ref = NULL;
    entry *e = entry_new(LCP_SYM_UMFPACK, ordering, n, p, j);
    if (!e) return NULL;
    e->symbolic = symbolic;
    pthread_mutex_lock(&s->lock);
    entry *in = insert(s, e); /* another thread's equal analysis: ours is freed with e, theirs lent */
    in->refs++;
    *ref = in;
    trim(s);
    pthread_mutex_unlock(&s->lock);
    return in->symbolic;
}

void lcp_symbolic_store_release(lcp_symbolic_store *s, void *ref)
{
    if (!s || !ref) return;
    pthread_mutex_lock(&s->lock);
    ((entry *)ref)->refs--;
    trim(s);
    pthread_mutex_unlock(&s->lock);
}
