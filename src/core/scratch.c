/* src/core/scratch.c: work arrays kept by each thread; see scratch.h. */
#include "scratch.h"
#include "common.h"
#include "per_thread.h"

#include <stdlib.h>
#include <sys/mman.h>

typedef struct {
    void *buf[LCP_SCRATCH_SLOTS];
    size_t cap[LCP_SCRATCH_SLOTS];
    int busy[LCP_SCRATCH_SLOTS];
} scratch;

static void cleanup(void *v)
{
    scratch *s = v;
    for (int k = 0; k < LCP_SCRATCH_SLOTS; k++) free(s->buf[k]);
}

/* A buffer of 256 KiB and more: whole 2 MiB pages, aligned and marked for transparent huge pages, so the first
 * touch of each 2 MiB faults once, not 512 times (a virtual machine's fault costs microseconds: pivot's block of
 * 1,020 findex rows, 8 MB, took 23 ms the first time in a process, where its two steps take 0.17 ms) */
static void *scratch_alloc(size_t bytes, size_t *cap) /* (--max-memory: lcp_scratch_take's test) */
{
    enum { HUGE = 2 << 20 };
    void *p = NULL;
    *cap = bytes;
    if (bytes < HUGE / 8) return lcp_alloc(bytes ? bytes : 1, 1);
    *cap = (bytes + HUGE - 1) / HUGE * HUGE;
    if (posix_memalign(&p, HUGE, *cap)) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, *cap, MADV_HUGEPAGE); /* (advice: where refused, the pages stay small) */
#endif
    return p;
}

static scratch *mine(int create) { return lcp_per_thread(LCP_PER_THREAD_SCRATCH, sizeof(scratch), cleanup, create); }

void *lcp_scratch_take(lcp_scratch_slot slot, size_t bytes)
{
    if (lcp_memory_limit && bytes > lcp_memory_limit) return NULL; /* --max-memory, as lcp_alloc */
    size_t cap = slot == LCP_SCRATCH_SWEEP ? (size_t)4 << 20 : LCP_SCRATCH_MAX;
    scratch *s = bytes <= cap && slot < LCP_SCRATCH_SLOTS ? mine(1) : NULL;
    if (s && !s->busy[slot]) {
        if (s->cap[slot] < bytes || !s->buf[slot]) {
            free(s->buf[slot]);
            size_t got;
            s->buf[slot] = scratch_alloc(bytes, &got);
            s->cap[slot] = s->buf[slot] ? got : 0;
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
