/* tests/unit/dense_problem.h: lcp and blcp problems from dense arrays, for
 * the unit tests of the small paths (test_pivot_small.c,
 * test_lemke_small.c, test_dantzig_small.c): the problem, hostile copies
 * of it, a random number generator, the residual of an answer and lemke's
 * general solve. */
#ifndef LCPSOLVE_TEST_DENSE_PROBLEM_H
#define LCPSOLVE_TEST_DENSE_PROBLEM_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pipeline.h"
#include "core/problem.h"
#include "core/verify.h"
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

/* How many of the 3 x 3 lcps (a, b) with one value -- of A or of b, each in
 * turn -- made NaN, +inf or -inf, as given (not finished), solve answers
 * (returns 1): a small path must answer none. */
static inline int dense_hostile_said(const double a[9], const double b[3],
                                     int (*solve)(const lcp_problem *, double *, int *))
{
    const double bad[3] = {NAN, INFINITY, -INFINITY};
    int said = 0, pivots = 0;
    double x[3];
    for (int v = 0; v < 3; v++)
        for (int where = 0; where < 12; where++) {
            double aa[9], bb[3];
            memcpy(aa, a, sizeof aa);
            memcpy(bb, b, sizeof bb);
            if (where < 9) aa[where] = bad[v];
            else bb[where - 9] = bad[v];
            lcp_problem p;
            build(&p, 3, aa, bb, NULL, NULL, NULL, 0);
            p.n = 3;
            said += solve(&p, x, &pivots);
            lcp_problem_free(&p);
        }
    return said;
}

/* uniform in [-1, 1) from the xorshift state *rng */
static inline double dense_unif(unsigned long long *rng)
{
    *rng ^= *rng << 13, *rng ^= *rng >> 7, *rng ^= *rng << 17;
    return (double)(*rng >> 11) / 4503599627370496.0 - 1.0;
}

/* the residual of x for p (docs/contract.md) */
static inline double dense_residual(const lcp_problem *p, const double *x)
{
    double *w = malloc((size_t)p->n * sizeof *w);
    lcp_metrics m;
    lcp_verify(p, x, w, &m);
    free(w);
    return m.residual;
}

/* lemke's general solve to tol (the solver named: no small path) */
static inline int dense_lemke(const lcp_problem *p, double tol, lcp_solve_out *out)
{
    lcp_solve_opts o;
    lcp_solve_opts_default(&o);
    o.solver = "lemke";
    o.s.tol = tol;
    lcp_err e = {{0}};
    return lcp_pipeline_solve(p, &o, NULL, 0, NULL, out, &e);
}

#endif
