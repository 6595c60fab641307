/* bench/api_overhead.c: what a solve through the library costs beside the
 * solver's own work, on a small problem (RL environments solve millions).
 *
 *   build/bench/api_overhead PROBLEM LCPSOLVE [REPEATS] [SOLVER...]
 *
 * For each solver (default pgs, pivot, lemke, auto), alternating, REPEATS
 * rounds of:
 *   alone   the solver itself on the problem as read: a monitor and
 *           solver->solve(), as the pipeline calls it (the residual checks
 *           of its iterations included: they are the solver's iterations);
 *           pivot on a problem its small path takes: that path alone
 *           (lcp_pivot_small, src/solvers/pivot_small.h);
 *   lcps    lcps_solve() on the same problem and settings (the pipeline:
 *           checks, the choice, decomposition test, solve, best iterate,
 *           verification, the answer copied out), a handle kept across
 *           solves as an engine keeps it;
 *   binary  the same solve by the command: fork, exec `LCPSOLVE -s SOLVER
 *           PROBLEM --quiet`, wait (start, parse, solve, exit).
 * Prints the median of each in microseconds, the overhead of the library
 * (lcps - alone) and the ratio lcps / binary, all measured in this run.
 * After each child the two in-process solves run twice and the second is
 * timed (the first meets the caches the child left). */
#include <lcpsolve.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "io/io.h"
#include "solvers/pivot_small.h"
#include "solvers/solver.h"
#include "median.h"


/* The solver alone, as the pipeline runs it (from zero). */
static double alone(const lcp_problem *p, const lcp_solver *sv, double *x)
{
    if (!strcmp(sv->name, "pivot") && lcp_pivot_small_fits(p)) { /* its small path, as the pipeline runs it */
        double t0 = lcp_now();
        int steps = 0, ok = lcp_pivot_small(p, NULL, lcp_pivot_small_threshold(p, 1e-8, lcp_verify_bscale(p)), 0, x, &steps);
        return ok ? lcp_now() - t0 : -1;
    }
    lcp_settings s;
    lcp_settings_default(&s);
    lcp_monitor mon;
    lcp_info info = {.status = LCP_MAX_ITER};
    lcp_err err;
    double t0 = lcp_now();
    memset(x, 0, (size_t)p->n * sizeof *x);
    if (lcp_monitor_init(&mon, p, &s, NULL)) return -1;
    int rc = sv->solve(p, &s, x, &mon, &info, &err);
    lcp_monitor_free(&mon);
    return rc ? -1 : lcp_now() - t0;
}

static double through_binary(const char *bin, const char *solver, const char *problem)
{
    double t0 = lcp_now();
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) dup2(fd, 1), dup2(fd, 2);
        execl(bin, bin, "-s", solver, problem, "--quiet", (char *)NULL);
        _exit(127);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) > 1) return -1;
    return lcp_now() - t0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: api_overhead PROBLEM LCPSOLVE [REPEATS] [SOLVER...]\n");
        return 2;
    }
    const char *path = argv[1], *bin = argv[2];
    int reps = argc > 3 ? atoi(argv[3]) : 200;
    const char *defaults[] = {"pgs", "pivot", "lemke", "auto"};
    const char **solvers = argc > 4 ? (const char **)argv + 4 : defaults;
    int ns = argc > 4 ? argc - 4 : 4;
    if (reps < 1) reps = 1;
#ifdef _OPENMP
    omp_set_num_threads(1); /* as the pipeline sets it for -j 1 (no idle team spinning beside the children) */
#endif
    lcp_problem p;
    lcp_err err = {{0}};
    char msg[512];
    lcp_problem_init(&p);
    lcps_problem *h = NULL;
    if (lcp_read_problem(path, LCP_KIND_NONE, &p, &err) || lcps_problem_read(path, &h, msg, sizeof msg)) {
        fprintf(stderr, "%s\n", err.msg[0] ? err.msg : msg);
        return 2;
    }
    double *x = malloc((size_t)p.n * sizeof *x), *ta = malloc((size_t)reps * sizeof *ta);
    double *tl = malloc((size_t)reps * sizeof *tl), *tb = malloc((size_t)reps * sizeof *tb);
    printf("problem %s: %s, n = %d, nnz = %ld; %d rounds, alternating; medians in microseconds\n", path,
           lcp_kind_name(p.kind), p.n, lcp_csr_nnz(&p.A), reps);
    printf("%-8s %-8s %6s %10s %10s %10s %10s %12s\n", "solver", "ran", "iters", "alone", "lcps_solve", "overhead",
           "binary", "lcps/binary");
    for (int k = 0; k < ns; k++) {
        lcps_settings *s = lcps_settings_new();
        if (lcps_settings_set(s, "solver", solvers[k], msg, sizeof msg)) {
            fprintf(stderr, "%s\n", msg);
            return 2;
        }
        lcps_result r;
        lcps_solve(h, s, NULL, &r, msg, sizeof msg); /* warm the caches, learn auto's pick */
        const lcp_solver *sv = lcp_solver_find(r.solver);
        int iters = r.iterations;
        lcps_result_free(&r);
        if (!sv) {
            fprintf(stderr, "%s: no solver ran (%s)\n", solvers[k], msg);
            return 2;
        }
        for (int i = 0; i < reps; i++) {
            /* the binary first: whichever in-process solve comes right
             * after a child starts with cold caches, so each is run once
             * to warm them and timed the second time */
            tb[i] = through_binary(bin, solvers[k], path);
            for (int w = 0; w < 2; w++) {
                if (i % 2) ta[i] = alone(&p, sv, x); /* which of the two goes first alternates */
                double t0 = lcp_now();
                lcps_solve(h, s, NULL, &r, msg, sizeof msg);
                tl[i] = lcp_now() - t0;
                lcps_result_free(&r);
                if (i % 2 == 0) ta[i] = alone(&p, sv, x);
            }
            if (ta[i] < 0 || tb[i] < 0) {
                fprintf(stderr, "%s: a run failed\n", solvers[k]);
                return 5;
            }
        }
        double a = median(ta, reps), l = median(tl, reps), b = median(tb, reps);
        printf("%-8s %-8s %6d %10.2f %10.2f %10.2f %10.1f %12.5f\n", solvers[k], sv->name, iters, 1e6 * a, 1e6 * l,
               1e6 * (l - a), 1e6 * b, l / b);
        lcps_settings_free(s);
    }
    free(x), free(ta), free(tl), free(tb);
    lcps_problem_free(h);
    lcp_problem_free(&p);
    return 0;
}
