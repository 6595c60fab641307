/* bench/median.h: the median of a run's timings (the benchmarks quote
 * medians of alternating rounds); sorts v in place. */
#ifndef LCPSOLVE_BENCH_MEDIAN_H
#define LCPSOLVE_BENCH_MEDIAN_H

#include <stdlib.h>

static int bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
