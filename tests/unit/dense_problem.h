/* tests/unit/dense_problem.h: lcp and blcp problems from dense arrays, for
 * the unit tests of the small paths (test_pivot_small.c,
 * test_lemke_small.c). */
#ifndef LCPSOLVE_TEST_DENSE_PROBLEM_H
#define LCPSOLVE_TEST_DENSE_PROBLEM_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/problem.h"
#include "la/csr.h"

/* p from a dense A (row-major), b, and optional lo, hi, findex/mu, not yet finished (lcp_problem_finish). */
static inline void build(lcp_problem *p, int n, const double *a, const double *b, const double *lo, const double *hi,
                         const int *findex, double mu)
{
    double *cm = malloc((size_t)n * n * sizeof *cm);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) cm[i + n * j] = a[n * i + j];
    lcp_problem_init(p);
    p->kind = lo || hi || findex ? LCP_KIND_BLCP : LCP_KIND_LCP;
    if (lcp_csr_from_dense_colmajor(&p->A, n, n, cm)) exit(2);
    free(cm);
    p->b = malloc((size_t)n * sizeof(double));
    memcpy(p->b, b, (size_t)n * sizeof(double));
    p->blen = n;
    if (lo || hi) {
        p->lo = malloc((size_t)n * sizeof(double));
        p->hi = malloc((size_t)n * sizeof(double));
        for (int i = 0; i < n; i++) p->lo[i] = lo ? lo[i] : 0.0, p->hi[i] = hi ? hi[i] : INFINITY;
        p->lolen = p->hilen = n;
    }
    if (findex) {
        p->findex = malloc((size_t)n * sizeof(int));
        p->mu = malloc((size_t)n * sizeof(double));
        memcpy(p->findex, findex, (size_t)n * sizeof(int));
        p->findexlen = n;
        for (int i = 0; i < n; i++) p->mu[i] = mu;
        p->nmu = n;
    }
    p->source = lcp_strdup("test");
}

/* build's problem, finished (a data error ends the test binary) */
static inline void make(lcp_problem *p, int n, const double *a, const double *b, const double *lo, const double *hi,
                        const int *findex, double mu)
{
    build(p, n, a, b, lo, hi, findex, mu);
    lcp_err err = {{0}};
    if (lcp_problem_finish(p, &err)) {
        fprintf(stderr, "make: %s\n", err.msg);
        exit(2);
    }
}

#endif
