/* bench/solve_loop.c: the per-solve cost of lcps_solve in one process over
 * many solves, as an engine or an RL environment pays it: the problem read
 * once, a settings handle kept, then lcps_solve and lcps_result_free again
 * and again (the pipeline's checks, the choice, the solve, the verification
 * and the answer copied out all inside the timing).
 *
 *   build/bench/solve_loop PROBLEM SOLVER TOL [MAX_REPEATS [BUDGET_S [NAME=VALUE...]]]
 *
 * Solves up to MAX_REPEATS times (default 1000), stopping once the solves
 * have taken BUDGET_S seconds in all (default 0.5; at least one solve), and
 * NAME=VALUE pairs are further settings (lcps_settings_set: crash=none ...);
 * fresh=1 makes auto choose afresh at every solve (without it a repeated
 * solve of one problem takes the thread's last choice again:
 * src/core/auto_memo.h); update=1 gives A new values before every solve
 * (lcps_problem_update, timed with the solve: A's entries scaled by 1 +
 * 1e-3 (k mod 7) / 7 at solve k), as a time-stepping loop whose contacts
 * persist solves; into=1 solves by lcps_solve_into, the answer into arrays
 * the loop keeps (as an engine keeps its own) instead of the result's;
 * batch=K times K solves at a time (the result freed inside) and reports
 * the time of one as a K-th of theirs -- below a microsecond the clock read
 * around each solve is a fifth of it and its 10 ns steps show in the
 * median.
 * Prints one line: the status of the last solve, its iterations, the median
 * seconds of one solve, the verified residual, the solver that answered
 * (auto: its pick) and the number of solves timed.  Exit code: that of the
 * last solve (0 solved). */
#include <lcpsolve.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "median.h"
#include "core/auto_memo.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    char err[512];
    if (argc < 4) {
        fprintf(stderr, "usage: %s PROBLEM SOLVER TOL [MAX_REPEATS [BUDGET_S]]\n", argv[0]);
        return 2;
    }
    int maxr = argc > 4 ? atoi(argv[4]) : 1000;
    double budget = argc > 5 ? atof(argv[5]) : 0.5;
    if (maxr < 1 || !(budget > 0)) {
        fprintf(stderr, "%s: MAX_REPEATS >= 1 and BUDGET_S > 0\n", argv[0]);
        return 2;
    }
    lcps_problem *p = NULL;
    lcps_settings *s = lcps_settings_new();
    if (!s || lcps_problem_read(argv[1], &p, err, sizeof err) || lcps_settings_set(s, "solver", argv[2], err, sizeof err) ||
        lcps_settings_set(s, "tol", argv[3], err, sizeof err) || lcps_settings_set(s, "max-iter", "1000000", err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    int fresh = 0, update = 0, into = 0, group = 1;
    for (int a = 6; a < argc; a++) {
        char name[64], *eq = strchr(argv[a], '=');
        if (!strncmp(argv[a], "batch=", 6) && atoi(argv[a] + 6) >= 1) {
            group = atoi(argv[a] + 6);
            continue;
        }
        if (!strcmp(argv[a], "fresh=1") || !strcmp(argv[a], "update=1") || !strcmp(argv[a], "into=1")) {
            if (argv[a][0] == 'f') fresh = 1;
            else if (argv[a][0] == 'u') update = 1;
            else into = 1;
            continue;
        }
        if (!eq || eq - argv[a] >= (long)sizeof name) {
            fprintf(stderr, "%s: not NAME=VALUE\n", argv[a]);
            return 2;
        }
        snprintf(name, sizeof name, "%.*s", (int)(eq - argv[a]), argv[a]);
        if (lcps_settings_set(s, name, eq + 1, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
    }
    double *t = malloc((size_t)maxr * sizeof *t), spent = 0, *val0 = NULL, *val = NULL;
    int np = lcps_problem_n(p);
    size_t nb = (size_t)(np > 0 ? np : 1) * sizeof(double);
    double *xin = malloc(nb), *win = malloc(nb);
    int k = 0, rc = 0, rows = 0, cols = 0;
    long nnz = 0;
    const int *rowptr = NULL, *col = NULL;
    const double *a0 = NULL;
    lcps_result r = {0};
    char who[64] = "";
    if (!t || !xin || !win) return 5;
    if (update) {
        if (lcps_problem_matrix(p, "A", &rows, &cols, &rowptr, &col, &a0, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        nnz = rowptr[rows];
        val0 = malloc((size_t)(nnz + 1) * sizeof *val0);
        val = malloc((size_t)(nnz + 1) * sizeof *val);
        if (!val0 || !val) return 5;
        memcpy(val0, a0, (size_t)nnz * sizeof *val0);
    }
    while (k < maxr && (k == 0 || spent < budget)) {
        double t0 = now();
        if (update) {
            double f = 1 + 1e-3 * (k % 7) / 7.0;
            for (long e = 0; e < nnz; e++) val[e] = val0[e] * f;
            if (lcps_problem_update(p, val, NULL, err, sizeof err)) {
                fprintf(stderr, "%s\n", err);
                return 2;
            }
        }
        for (int g = 0; g < group; g++) {
            if (fresh) lcp_auto_memo_forget(); /* (a store: timed with the solve) */
            if (g) lcps_result_free(&r);
            rc = into ? lcps_solve_into(p, s, NULL, xin, win, &r, err, sizeof err)
                      : lcps_solve(p, s, NULL, &r, err, sizeof err);
        }
        double dt = (now() - t0) / group;
        t[k++] = dt;
        spent += dt * group; /* (the budget is of wall time: all K solves) */
        if (rc == 2 || (rc == 5 && !r.x && !into)) {
            fprintf(stderr, "%s\n", err);
            lcps_result_free(&r);
            return rc;
        }
        if (k < maxr && spent < budget) lcps_result_free(&r);
    }
    snprintf(who, sizeof who, "%s", r.solver ? r.solver : "-");
    printf("status %s iterations %d time_s %.6e residual %.3e solver %s repeats %d\n", lcps_status_name(r.status),
           r.iterations, median(t, k), r.residual, who, k);
    lcps_result_free(&r);
    lcps_settings_free(s);
    lcps_problem_free(p);
    free(t);
    free(val0);
    free(val);
    free(xin);
    free(win);
    return rc;
}
