/* src/core/batch_run.h: how a batch's problems are spread over threads,
 * for every batch front end (lcpsolve batch, src/cli/batch.c;
 * lcps_solve_batch and lcps_solve_stacked, src/core/batch_api.c). */
#ifndef LCP_BATCH_RUN_H
#define LCP_BATCH_RUN_H

#include "auto_memo.h"

/* The calling thread runs alone while the batch has taken less than
 * LCP_BATCH_ALONE_S seconds, unless, from its first LCP_BATCH_PROBE items
 * on, the rest at their pace would take more than twice that: a team of
 * threads costs its start -- on a virtual machine an idle CPU woken took
 * 0.1 to 10 ms for an empty parallel region -- more than a batch shorter
 * than that saves (4,096 environments of 8 contacts: 1.5 ms in all, 1.8
 * times as long with two threads from the start), and a long batch loses
 * no more than its first items' time to the wait. */
#define LCP_BATCH_ALONE_S 2e-3
#define LCP_BATCH_PROBE 8

/* fn(ctx, k, clock) for k = 0 .. n - 1, each once: first the leaders of
 * auto's patterns in sh (lcp_auto_share_made; sh NULL: none), in order on
 * the calling thread (the others of a pattern take the choice a leader's
 * solve made: the same choices for any thread count), then the others on
 * the calling thread in order while the rule above says so (to the end
 * with threads <= 1), then the rest on a team of `threads` OpenMP threads, in chunks of about
 * a 64th of a thread's share (one item a fetch of the loop's counter
 * bounced it between the CPUs at every item).  *clock is the thread's time
 * (lcp_now_fast) at the end of the item before on this thread, or of its
 * start; fn sets it to the end of its own (its time is the difference: one
 * read of the clock an item).  Returns the threads that took part: 1 where
 * the batch was over before the team's start. */
int lcp_batch_run(int n, int threads, const lcp_auto_share *sh, void (*fn)(void *ctx, int k, double *clock),
                  void *ctx);

#endif
