/* src/core/per_thread.c: a thread's objects; see per_thread.h. */
#include "per_thread.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct {
    void *obj[LCP_PER_THREAD_COUNT];
    void (*cleanup[LCP_PER_THREAD_COUNT])(void *);
} table;

static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int key_ok;

static void destroy(void *v)
{
    table *t = v;
    for (int k = 0; k < LCP_PER_THREAD_COUNT; k++) {
        if (t->obj[k] && t->cleanup[k]) t->cleanup[k](t->obj[k]);
        free(t->obj[k]);
    }
    free(t);
}

static void init(void) { key_ok = pthread_key_create(&key, destroy) == 0; }

void *lcp_per_thread(lcp_per_thread_id id, size_t size, void (*cleanup)(void *obj), int create)
{
    if ((unsigned)id >= LCP_PER_THREAD_COUNT || pthread_once(&once, init) || !key_ok) return NULL;
    table *t = pthread_getspecific(key);
    if (!t) {
        if (!create || !(t = calloc(1, sizeof *t))) return NULL;
        if (pthread_setspecific(key, t)) {
            free(t);
            return NULL;
        }
    }
    if (!t->obj[id] && create && (t->obj[id] = calloc(1, size ? size : 1))) t->cleanup[id] = cleanup;
    return t->obj[id];
}
