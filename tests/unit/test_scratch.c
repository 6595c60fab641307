/* tests/unit/test_scratch.c: the work arrays a thread keeps between solves
 * (src/core/scratch.c): the same buffer again once given back, a second one
 * while the slot is in use, malloc's above the cap and beside --max-memory,
 * each thread its own; a buffer of 256 KiB or more in whole 2 MiB pages,
 * aligned (transparent huge pages); and ipm's dense path, which takes them, gives the
 * same answer on its second solve. */
#include "check.h"
#include "../../src/core/common.h"
#include "../../src/core/pipeline.h"
#include "../../src/core/scratch.h"
#include "../../src/scenes/scenes.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

static void *other(void *arg)
{
    void *p = lcp_scratch_take(LCP_SCRATCH_DENSE_A, 1000);
    int same = p == arg;
    lcp_scratch_give(LCP_SCRATCH_DENSE_A, p);
    return (void *)(long)same;
}

int main(void)
{
    char *a = lcp_scratch_take(LCP_SCRATCH_DENSE_A, 1000);
    CHECK(a != NULL);
    memset(a, 7, 1000); /* writable, all of it */
    char *b = lcp_scratch_take(LCP_SCRATCH_DENSE_A, 1000); /* in use: another buffer */
    CHECK(b != NULL && b != a);
    memset(b, 8, 1000);
    lcp_scratch_give(LCP_SCRATCH_DENSE_A, b); /* freed (malloc's) */
    lcp_scratch_give(LCP_SCRATCH_DENSE_A, a);
    char *c = lcp_scratch_take(LCP_SCRATCH_DENSE_A, 500); /* the kept one again */
    CHECK(c == a);
    char *d = lcp_scratch_take(LCP_SCRATCH_DENSE_M, 500); /* another slot: its own */
    CHECK(d != NULL && d != c);
    lcp_scratch_give(LCP_SCRATCH_DENSE_M, d);
    lcp_scratch_give(LCP_SCRATCH_DENSE_A, c);
    char *e = lcp_scratch_take(LCP_SCRATCH_DENSE_A, 5000); /* larger: grown */
    CHECK(e != NULL);
    memset(e, 1, 5000);
    lcp_scratch_give(LCP_SCRATCH_DENSE_A, e);
    pthread_t t;
    void *same = (void *)1;
    CHECK(pthread_create(&t, NULL, other, e) == 0 && pthread_join(t, &same) == 0);
    CHECK(same == NULL); /* another thread: not this thread's buffer */
    char *big = lcp_scratch_take(LCP_SCRATCH_DENSE_A, LCP_SCRATCH_MAX + 1); /* above the cap: malloc's */
    CHECK(big != NULL && big != e);
    lcp_scratch_give(LCP_SCRATCH_DENSE_A, big);
    CHECK(lcp_scratch_take(LCP_SCRATCH_DENSE_A, 100) == e); /* the kept one survived */
    lcp_scratch_give(LCP_SCRATCH_DENSE_A, e);
    lcp_memory_limit = 1000; /* --max-memory: refused even where the kept buffer would hold it */
    CHECK(lcp_scratch_take(LCP_SCRATCH_DENSE_A, 2000) == NULL);
    lcp_memory_limit = 0;
    lcp_scratch_give(LCP_SCRATCH_DENSE_A, NULL); /* NULL: nothing */
    /* 256 KiB and more: whole 2 MiB pages, aligned (transparent huge pages: a fault a 2 MiB, not one a 4 KiB) */
    char *h = lcp_scratch_take(LCP_SCRATCH_DENSE_A, (size_t)1 << 20);
    CHECK(h != NULL && (uintptr_t)h % ((uintptr_t)2 << 20) == 0);
    memset(h, 3, (size_t)1 << 20);
    lcp_scratch_give(LCP_SCRATCH_DENSE_A, h);
    CHECK(lcp_scratch_take(LCP_SCRATCH_DENSE_A, (size_t)2 << 20) == h); /* (the 2 MiB page holds it) */
    lcp_scratch_give(LCP_SCRATCH_DENSE_A, h);

    /* ipm's dense path twice, and newton-min's: the same bits each time */
    const char *spd[] = {"size", "60", "density", "1", "cond", "1e3", "seed", "5", NULL};
    lcp_problem p;
    lcp_err err;
    lcp_problem_init(&p);
    CHECK(lcp_generate_problem("random-spd", spd, &p, &err) == 0);
    const char *solvers[] = {"ipm", "newton-min"};
    for (int s = 0; s < 2; s++) {
        lcp_solve_opts o;
        lcp_solve_opts_default(&o);
        o.solver = solvers[s];
        lcp_solve_out r1, r2;
        CHECK(lcp_pipeline_solve(&p, &o, NULL, 0, NULL, &r1, &err) == 0 && r1.status == LCP_SOLVED);
        CHECK(lcp_pipeline_solve(&p, &o, NULL, 0, NULL, &r2, &err) == 0 && r2.status == LCP_SOLVED);
        CHECK(r1.x && r2.x && memcmp(r1.x, r2.x, (size_t)p.n * sizeof(double)) == 0);
        CHECK(strstr(r1.message, "dense") != NULL || s == 1); /* ipm: the dense path took them */
        lcp_solve_out_free(&r1);
        lcp_solve_out_free(&r2);
    }
    lcp_problem_free(&p);
    CHECK_DONE();
}
