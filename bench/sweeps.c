/* bench/sweeps.c: PGS sweeps per second against this machine's memory
 * bandwidth, measured in the same run.
 *
 *   build/bench/sweeps PROBLEM [SWEEPS] [REPEATS]
 *
 * Times SWEEPS projected Gauss-Seidel sweeps (lcp_pgs_sweep, the kernel of
 * the pgs solver, without the per-iteration residual check) REPEATS times,
 * then a STREAM-like triad a[i] = b[i] + s*c[i] over arrays far larger than
 * the caches, REPEATS times, and prints medians: sweeps/s, the bytes one
 * sweep streams (CSR values 8 B + column index 4 B per nonzero, row
 * pointers 4 B per row, x read+written, 8 B each per row, and the row's
 * b_i, c_i = 1 / A_ii and g_i, 24 B),
 * the bandwidth that implies, the triad bandwidth and their ratio.  Beside
 * it, as a ceiling for a row-by-row pass over A, the product y = A x
 * (lcp_csr_matvec: no Gauss-Seidel dependence, no projection; the same
 * bytes less b, c and g), timed the same way.  The pgs solver's own
 * iteration (the sweep with the residual check of the iterate before it
 * fused in) is `lcpsolve -s pgs` (time_s / iterations). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io.h"
#include "solvers/solver.h"
#include "median.h"


int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PROBLEM [SWEEPS] [REPEATS]\n", argv[0]);
        return 2;
    }
    int sweeps = argc > 2 ? atoi(argv[2]) : 100, reps = argc > 3 ? atoi(argv[3]) : 7;
    if (sweeps < 1 || reps < 1 || reps > 99) return 2;
    lcp_problem p;
    lcp_err err = {{0}};
    lcp_problem_init(&p);
    if (lcp_read_problem(argv[1], LCP_KIND_NONE, &p, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    double *dinv, *x = calloc((size_t)p.n, sizeof(double)), t[100];
    lcp_gs gs;
    if (!x || lcp_inverse_diagonal(&p, "pgs", &dinv, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    if (lcp_gs_init(&gs, &p, dinv, 1.0)) return 5;
    for (int r = 0; r < reps; r++) {
        memset(x, 0, (size_t)p.n * sizeof(double));
        double t0 = lcp_now();
        for (int k = 0; k < sweeps; k++) lcp_pgs_sweep(&p, &gs, x, 0, p.n - 1, 1);
        t[r] = (lcp_now() - t0) / sweeps;
    }
    double sweep_s = median(t, reps);
    double *y = calloc((size_t)p.n, sizeof(double));
    if (!y) return 5;
    for (int i = 0; i < p.n; i++) x[i] = 1.0 / (1.0 + i % 7);
    for (int r = 0; r < reps; r++) {
        double t0 = lcp_now();
        for (int k = 0; k < sweeps; k++) lcp_csr_matvec(&p.A, x, y);
        t[r] = (lcp_now() - t0) / sweeps;
    }
    double matvec_s = median(t, reps);
    long nnz = lcp_csr_nnz(&p.A);
    double bytes = 12.0 * (double)nnz + 4.0 * (p.n + 1) + 8.0 * 5 * p.n;

    size_t m = 1u << 24; /* 3 arrays of 128 MiB */
    double *a = malloc(m * sizeof(double)), *b = malloc(m * sizeof(double)), *c = malloc(m * sizeof(double));
    if (!a || !b || !c) return 5;
    for (size_t i = 0; i < m; i++) a[i] = 0, b[i] = 1.0, c[i] = 2.0;
    for (int r = 0; r < reps; r++) {
        double t0 = lcp_now();
        for (size_t i = 0; i < m; i++) a[i] = b[i] + 3.0 * c[i];
        t[r] = lcp_now() - t0;
    }
    double triad_bw = 3.0 * 8.0 * (double)m / median(t, reps);
    double sweep_bw = bytes / sweep_s;
    printf("problem        %s\n", argv[1]);
    printf("size           n = %d, nnz = %ld\n", p.n, nnz);
    printf("sweeps/s       %.1f (median of %d runs of %d sweeps)\n", 1.0 / sweep_s, reps, sweeps);
    printf("bytes/sweep    %.3g (%.1f MB)\n", bytes, bytes / 1e6);
    printf("sweep GB/s     %.2f\n", sweep_bw / 1e9);
    printf("triad GB/s     %.2f (median of %d, %.0f MiB arrays; checksum %g)\n", triad_bw / 1e9, reps,
           (double)(m * 8) / (1 << 20), a[m / 2]);
    printf("fraction       %.2f of measured triad bandwidth\n", sweep_bw / triad_bw);
    double mv_bw = (12.0 * (double)nnz + 4.0 * (p.n + 1) + 8.0 * 2 * p.n) / matvec_s;
    printf("y = A x GB/s   %.2f, %.2f of the triad (median of %d runs of %d; checksum %g)\n", mv_bw / 1e9,
           mv_bw / triad_bw, reps, sweeps, y[p.n / 2]);
    free(a), free(b), free(c), free(x), free(y), free(dinv);
    lcp_gs_free(&gs);
    lcp_problem_free(&p);
    return 0;
}
