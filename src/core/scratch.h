/* src/core/scratch.h: large work arrays kept by each thread between solves.
 *
 * A dense n x n array of a few hundred rows is hundreds of kilobytes:
 * malloc takes it from the system (mmap) and gives it back at free, and
 * every solve then pays a page fault per 4 KiB page on first touch (about
 * a microsecond each on a virtual machine: 2-3 ms a solve for ipm's two
 * 300 x 300 arrays, as much as the factorisations).  A slot keeps its
 * buffer for the thread's next solve (up to LCP_SCRATCH_MAX bytes; freed
 * when the thread ends); a slot already in use (a solve inside a solve: a
 * crash start's guess) or a larger request is served by malloc instead.
 * A slot's buffer of 256 KiB and more is whole 2 MiB pages, aligned and
 * marked for transparent huge pages (madvise): its first touch faults once
 * a 2 MiB instead of 512 times (pivot's small path on a findex column of
 * 1,020 rows: 23 ms the first time in a process, 1.1 ms with it).
 * The contents of a buffer taken are undefined, as malloc's. */
#ifndef LCPSOLVE_SCRATCH_H
#define LCPSOLVE_SCRATCH_H

#include <stddef.h>

#define LCP_SCRATCH_MAX ((size_t)32 << 20) /* LCP_SCRATCH_SWEEP: 4 MiB */

typedef enum {
    LCP_SCRATCH_DENSE_A, /* a dense copy of A (ipm) */
    LCP_SCRATCH_DENSE_M, /* a dense matrix to factor (ipm's M, the Newton solvers' H) */
    LCP_SCRATCH_SWEEP,   /* pgs's fused sweeps: the padded A, x_old, w, the partials (kept up to 4 MiB) */
    LCP_SCRATCH_PIVOT,   /* pivot: every array of a solve, its factors included (src/solvers/pivot.c) */
    LCP_SCRATCH_SLOTS
} lcp_scratch_slot;

/* bytes from this thread's slot where it is free and bytes <= the slot's cap, else from malloc
 * (subject to --max-memory as lcp_alloc); NULL when out of memory. */
void *lcp_scratch_take(lcp_scratch_slot slot, size_t bytes);
/* Gives back what lcp_scratch_take returned (the slot's buffer, or frees a malloc'd one); NULL is fine. */
void lcp_scratch_give(lcp_scratch_slot slot, void *p);

#endif
