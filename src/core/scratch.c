/* src/core/scratch.c: work arrays kept by each thread; see scratch.h. */
#include "scratch.h"
#include "common.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct {
    void *buf[LCP_SCRATCH_SLOTS];
    size_t cap[LCP_SCRATCH_SLOTS];
    int busy[LCP_SCRATCH_SLOTS];
} scratch;

static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int key_ok;

static void destroy(void *v)
{
    scratch *s = v;
    for (int k = 0; k < LCP_SCRATCH_SLOTS; k++) free(s->buf[k]);
    free(s);
}

static void init(void) { key_ok = pthread_key_create(&key, destroy) == 0; }

static scratch *mine(int create)
{
    if (pthread_once(&once, init) || !key_ok) return NULL;
    scratch *s = pthread_getspecific(key);
    if (!s && create && (s = calloc(1, sizeof *s)) && pthread_setspecific(key, s)) {
        free(s);
        s = NULL;
    }
    return s;
}

void *lcp_scratch_take(lcp_scratch_slot slot, size_t bytes)
{
    if (lcp_memory_limit && bytes > lcp_memory_limit) return NULL; /* --max-memory, as lcp_alloc */
    scratch *s = bytes <= LCP_SCRATCH_MAX && slot < LCP_SCRATCH_SLOTS ? mine(1) : NULL;
    if (s && !s->busy[slot]) {
        if (s->cap[slot] < bytes || !s->buf[slot]) {
            free(s->buf[slot]);
            s->buf[slot] = lcp_alloc(bytes ? bytes : 1, 1);
            s->cap[slot] = s->buf[slot] ? bytes : 0;
        }
        if (s->buf[slot]) {
            s->busy[slot] = 1;
            return s->buf[slot];
        }
    }
    return lcp_alloc(bytes ? bytes : 1, 1);
}

void lcp_scratch_give(lcp_scratch_slot slot, void *p)
{
    if (!p) return;
    scratch *s = slot < LCP_SCRATCH_SLOTS ? mine(0) : NULL;
    if (s && s->busy[slot] && s->buf[slot] == p) {
        s->busy[slot] = 0;
        return;
    }
    free(p);
}
