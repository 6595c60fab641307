/* peer/siconos_lcp.c: the peer, Siconos Numerics 4.4, on an LCP file.
 *
 *   build/peer/siconos_lcp SOLVER FILE.dat OUT.mtx [TOL [MAX_ITER]]
 *
 * Reads the Siconos .dat file with Siconos' own reader, solves it with
 * SOLVER (lemke = lcp_lexicolemke, pgs = lcp_pgs, psor = lcp_psor, nsgs =
 * lcp_nsgs_SBM, newton-fb = lcp_newton_FB) through linearComplementarity_driver,
 * writes z as a Matrix Market array and prints one line: info, iterations,
 * Siconos' own error, solve seconds.  Built by `make peer` where
 * libsiconos-numerics-dev is installed (scripts/install-deps --peer). */
#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NonSmoothDrivers.h>
#include <SolverOptions.h>
#include <lcp_cst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int solver_id(const char *name)
{
    if (!strcmp(name, "lemke")) return SICONOS_LCP_LEMKE;
    if (!strcmp(name, "pgs")) return SICONOS_LCP_PGS;
    if (!strcmp(name, "psor")) return SICONOS_LCP_PSOR;
    if (!strcmp(name, "nsgs")) return SICONOS_LCP_NSGS_SBM;
    if (!strcmp(name, "newton-fb")) return SICONOS_LCP_NEWTON_FB_FBLSA;
    return -1;
}

int main(int argc, char **argv)
{
    if (argc < 4 || solver_id(argv[1]) < 0) {
        fprintf(stderr, "usage: %s lemke|pgs|psor|nsgs|newton-fb FILE.dat OUT.mtx [TOL [MAX_ITER]]\n", argv[0]);
        return 2;
    }
    LinearComplementarityProblem *p = newLCP();
    FILE *in = fopen(argv[2], "r"); /* Siconos' reader does not check this */
    if (in) fclose(in);
    if (!in || (linearComplementarity_newFromFilename(p, argv[2]), p->size <= 0 || !p->M || !p->q)) {
        fprintf(stderr, "%s: Siconos cannot read it\n", argv[2]);
        return 2;
    }
    int n = p->size;
    double *z = calloc((size_t)n, sizeof(double)), *w = calloc((size_t)n, sizeof(double));
    SolverOptions *o = solver_options_create(solver_id(argv[1]));
    if (argc > 4) o->dparam[SICONOS_DPARAM_TOL] = atof(argv[4]);
    if (argc > 5) o->iparam[SICONOS_IPARAM_MAX_ITER] = atoi(argv[5]);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int info = linearComplementarity_driver(p, z, w, o);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    FILE *f = fopen(argv[3], "w");
    if (!f) return 2;
    fprintf(f, "%%%%MatrixMarket matrix array real general\n%% siconos %s %s\n%d 1\n", argv[1], argv[2], n);
    for (int i = 0; i < n; i++) fprintf(f, "%.17g\n", z[i]);
    fclose(f);
    printf("info %d iterations %d error %.3e time_s %.6e\n", info, o->iparam[SICONOS_IPARAM_ITER_DONE],
           o->dparam[SICONOS_DPARAM_RESIDU], (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
    solver_options_delete(o);
    freeLinearComplementarityProblem(p);
    free(z);
    free(w);
    return info ? 1 : 0;
}
