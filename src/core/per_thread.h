/* src/core/per_thread.h: state a thread keeps between solves (work arrays,
 * auto's last choice), one object per purpose, freed when the thread ends.
 *
 * One pthread key holds a table of the thread's objects; the key's
 * destructor calls each object's cleanup, then frees it.  (C11's
 * _Thread_local has no destructor: a worker thread's buffers would leak at
 * its end.) */
#ifndef LCPSOLVE_PER_THREAD_H
#define LCPSOLVE_PER_THREAD_H

#include <stddef.h>

typedef enum {
    LCP_PER_THREAD_SCRATCH,   /* src/core/scratch.c */
    LCP_PER_THREAD_AUTO_MEMO, /* src/core/auto_memo.c */
    LCP_PER_THREAD_COUNT
} lcp_per_thread_id;

/* This thread's object id: NULL where it has none and create is 0;
 * created zeroed (size bytes) where create is 1 (NULL when memory or the
 * key fails).  cleanup (may be NULL) frees what the object points to,
 * before the object itself is freed at the thread's end; the first call
 * that creates the object sets it. */
void *lcp_per_thread(lcp_per_thread_id id, size_t size, void (*cleanup)(void *obj), int create);

#endif
