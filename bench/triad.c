/* bench/triad.c: this machine's memory bandwidth, STREAM-like.
 *
 *   build/bench/triad [MIB [REPEATS]]
 *
 * Times the triad a[i] = b[i] + s * c[i] over three arrays of MIB MiB each
 * (default 128: far beyond the caches) REPEATS times (default 7) on one
 * thread, as lcpsolve's sweeps run, and prints the best and the median rate
 * in GB/s (24 bytes moved per element: two reads, one write; the write
 * allocation is not counted, as in STREAM).  scripts/bench-peers compiles
 * and runs it in the same run as the solvers it compares with it. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    long mib = argc > 1 ? atol(argv[1]) : 128;
    int reps = argc > 2 ? atoi(argv[2]) : 7;
    if (mib < 1 || reps < 1 || reps > 100) {
        fprintf(stderr, "usage: %s [MIB [REPEATS]]\n", argv[0]);
        return 2;
    }
    size_t m = (size_t)mib * (1u << 20) / sizeof(double);
    double *a = malloc(m * sizeof *a), *b = malloc(m * sizeof *b), *c = malloc(m * sizeof *c), t[100];
    if (!a || !b || !c) {
        fprintf(stderr, "out of memory\n");
        return 5;
    }
    for (size_t i = 0; i < m; i++) a[i] = 0.0, b[i] = 1.0, c[i] = 2.0;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        for (size_t i = 0; i < m; i++) a[i] = b[i] + 3.0 * c[i];
        t[r] = now() - t0;
    }
    double check = a[m / 2];
    qsort(t, (size_t)reps, sizeof *t, cmp);
    double bytes = 24.0 * (double)m;
    printf("triad_best_GBs %.3f triad_median_GBs %.3f mib %ld repeats %d check %g\n", bytes / t[0] / 1e9,
           bytes / t[reps / 2] / 1e9, mib, reps, check);
    free(a);
    free(b);
    free(c);
    return check == 7.0 ? 0 : 1;
}
