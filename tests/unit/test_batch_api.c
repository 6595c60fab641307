/* tests/unit/test_batch_api.c: the calls of include/lcpsolve.h for front
 * ends in other languages: lcps_solve_batch (each problem's answer that of
 * lcps_solve, the same bits for any thread count, the worst exit code, the
 * first bad problem named), lcps_stop_on_fd (a byte on a pipe stops a solve
 * with its best iterate; bytes from before the solve are dropped), the
 * problem's data out (lcps_problem_matrix, _vector, _findex), and the
 * registry and option table as data. */
#include <lcpsolve.h>

#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/batch_run.h"
#include "core/common.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* A tridiagonal lcp of n rows (2 + s on the diagonal, -1 beside). */
static lcps_problem *chain(int n, double s)
{
    int *rp = malloc((size_t)(n + 1) * sizeof *rp), *cj = malloc((size_t)(3 * n) * sizeof *cj), k = 0;
    double *vx = malloc((size_t)(3 * n) * sizeof *vx), *b = malloc((size_t)n * sizeof *b);
    rp[0] = 0;
    for (int i = 0; i < n; i++) {
        for (int j = i - 1; j <= i + 1; j++)
            if (j >= 0 && j < n) cj[k] = j, vx[k++] = i == j ? 2.0 + s : -1.0;
        rp[i + 1] = k;
        b[i] = i % 3 == 1 ? 0.5 : -1.0;
    }
    lcps_problem *p = NULL;
    char err[256];
    if (lcps_problem_csr("lcp", n, rp, cj, vx, b, &p, err, sizeof err)) fprintf(stderr, "chain: %s\n", err);
    free(rp), free(cj), free(vx), free(b);
    return p;
}

static void test_batch(void)
{
    enum { N = 24 };
    lcps_problem *p[N];
    for (int k = 0; k < N; k++) p[k] = chain(10 + k, 0.01 * k);
    lcps_settings *s = lcps_settings_new();
    char err[256];
    CHECK(lcps_settings_set(s, "solver", "pgs", err, sizeof err) == 0);
    lcps_result one[N], two[N], single;
    CHECK(lcps_solve_batch((const lcps_problem *const *)p, N, s, NULL, 1, one, err, sizeof err) == 0);
    CHECK(lcps_solve_batch((const lcps_problem *const *)p, N, s, NULL, 2, two, err, sizeof err) == 0);
    long total = lcps_results_x(one, N, NULL);
    double *all = malloc((size_t)total * sizeof *all);
    CHECK(total == N * 10 + N * (N - 1) / 2 && lcps_results_x(one, N, all) == total);
    CHECK(!memcmp(all, one[0].x, 10 * sizeof *all) && !memcmp(all + total - (10 + N - 1), one[N - 1].x,
                                                                 (size_t)(10 + N - 1) * sizeof *all));
    free(all);
    int same = 1;
    for (int k = 0; k < N; k++) {
        CHECK(lcps_solve(p[k], s, NULL, &single, err, sizeof err) == 0);
        same &= one[k].status == LCPS_SOLVED && one[k].n == 10 + k && single.iterations == one[k].iterations &&
                !memcmp(one[k].x, single.x, (size_t)single.n * sizeof(double)) &&
                !memcmp(two[k].x, single.x, (size_t)single.n * sizeof(double)) && !strcmp(one[k].solver, "pgs");
        lcps_result_free(&single);
        lcps_result_free(&one[k]);
        lcps_result_free(&two[k]);
    }
    CHECK(same);

    /* limits: the worst code (1), the best iterates */
    CHECK(lcps_settings_set(s, "max-iter", "2", err, sizeof err) == 0);
    CHECK(lcps_solve_batch((const lcps_problem *const *)p, N, s, NULL, 2, one, err, sizeof err) == 1);
    int limited = 1;
    for (int k = 0; k < N; k++) {
        limited &= one[k].status == LCPS_MAX_ITER && one[k].x && one[k].iterations == 2;
        lcps_result_free(&one[k]);
    }
    CHECK(limited);

    /* a bad problem among good ones: 2, named by its index; the others solved */
    lcps_problem *bad = NULL;
    int rp[] = {0, 1, 2}, cj[] = {0, 1};
    double vx[] = {1.0, 1.0}, b[] = {-1.0, -1.0};
    CHECK(lcps_problem_csr("fc3d", 2, rp, cj, vx, b, &bad, err, sizeof err) == 0); /* fc3d needs 3 rows a contact */
    const lcps_problem *mix[3] = {p[0], bad, p[1]};
    lcps_settings *d = lcps_settings_new();
    CHECK(lcps_solve_batch(mix, 3, d, NULL, 2, one, err, sizeof err) == 2);
    CHECK(!strncmp(err, "problem 1: ", 11));
    CHECK(one[0].status == LCPS_SOLVED && one[2].status == LCPS_SOLVED && one[1].status == LCPS_INPUT_ERROR);
    for (int k = 0; k < 3; k++) lcps_result_free(&one[k]);

    /* warm starts: x0 per problem */
    double *x0[2] = {NULL, NULL};
    CHECK(lcps_settings_set(d, "solver", "pgs", err, sizeof err) == 0);
    CHECK(lcps_solve(p[0], d, NULL, &single, err, sizeof err) == 0);
    x0[1] = single.x;
    const lcps_problem *pair[2] = {p[1], p[0]};
    CHECK(lcps_solve_batch(pair, 2, d, (const double *const *)x0, 1, one, err, sizeof err) == 0);
    CHECK(one[1].iterations <= 1 && one[0].iterations > 1);
    for (int k = 0; k < 2; k++) lcps_result_free(&one[k]);
    lcps_result_free(&single);

    /* bad arguments */
    CHECK(lcps_solve_batch(NULL, 1, d, NULL, 1, one, err, sizeof err) == 2 && strstr(err, "no problems"));
    CHECK(lcps_solve_batch(mix, 1, d, NULL, 0, one, err, sizeof err) == 2 && strstr(err, "threads"));
    CHECK(lcps_solve_batch(mix, 0, d, NULL, 2, one, err, sizeof err) == 0);
    lcps_settings_free(d);
    lcps_settings_free(s);
    lcps_problem_free(bad);
    for (int k = 0; k < N; k++) lcps_problem_free(p[k]);
}

/* auto in a batch: the problems of one pattern (chains of 140 rows, other values) take the choice made for
 * the first, for any thread count; a problem of another pattern chooses for itself (chains of more rows
 * than pivot's small path takes: it solves a small problem before any choice, test_batch_small) */
static void test_batch_auto(void)
{
    enum { N = 9 };
    lcps_problem *p[N];
    for (int k = 0; k < N; k++) p[k] = chain(k == 4 ? 148 : 140, 0.05 * k);
    lcps_settings *s = lcps_settings_new();
    lcps_result one[N], two[N];
    char err[256];
    CHECK(lcps_solve_batch((const lcps_problem *const *)p, N, s, NULL, 1, one, err, sizeof err) == 0);
    CHECK(lcps_solve_batch((const lcps_problem *const *)p, N, s, NULL, 2, two, err, sizeof err) == 0);
    int same = 1, shared = 0;
    for (int k = 0; k < N; k++) {
        same &= one[k].status == LCPS_SOLVED && two[k].status == LCPS_SOLVED && !strcmp(one[k].solver, two[k].solver) &&
                !memcmp(one[k].x, two[k].x, (size_t)one[k].n * sizeof(double)) &&
                !strcmp(one[k].auto_reason, two[k].auto_reason);
        shared += strstr(one[k].auto_reason, "the choice made for the first problem of this pattern") != NULL;
    }
    CHECK(same);
    CHECK(shared == N - 2); /* all but the first chain of 140 and the chain of 148 */
    CHECK(strstr(one[0].auto_reason, "of this pattern") == NULL && strstr(one[4].auto_reason, "of this pattern") == NULL);
    /* the next step, A's values changed (lcps_problem_update): each pattern's first problem takes the choice
     * its handle kept, the others take that one as before */
    for (int k = 0; k < N; k++) {
        lcps_result_free(&two[k]);
        int rows = 0, cols = 0;
        const int *rp = NULL, *cj = NULL;
        const double *vx = NULL;
        CHECK(lcps_problem_matrix(p[k], "A", &rows, &cols, &rp, &cj, &vx, err, sizeof err) == 0);
        double *v = malloc((size_t)rp[rows] * sizeof *v);
        for (int e = 0; e < rp[rows]; e++) v[e] = 1.01 * vx[e];
        CHECK(lcps_problem_update(p[k], v, NULL, err, sizeof err) == 0);
        free(v);
    }
    CHECK(lcps_solve_batch((const lcps_problem *const *)p, N, s, NULL, 2, two, err, sizeof err) == 0);
    int kept = 0;
    shared = 0;
    for (int k = 0; k < N; k++) {
        CHECK(two[k].status == LCPS_SOLVED && !strcmp(two[k].solver, one[k].solver));
        kept += strstr(two[k].auto_reason, "before A's values changed (lcps_problem_update)") != NULL;
        shared += strstr(two[k].auto_reason, "the choice made for the first problem of this pattern") != NULL;
    }
    CHECK(kept == 2 && shared == N - 2); /* the two leaders kept theirs; the rest took their leader's */
    CHECK(strstr(two[0].auto_reason, "before A's values changed") && strstr(two[4].auto_reason, "before A's values changed"));
    for (int k = 0; k < N; k++) lcps_result_free(&one[k]), lcps_result_free(&two[k]), lcps_problem_free(p[k]);
    lcps_settings_free(s);
}

/* auto in a batch of small problems (chains of 12 rows): each solved by pivot's small path, no choice made or
 * shared, the same bits on one thread and on two, and the answer that of pivot's general path */
static void test_batch_small(void)
{
    enum { N = 6 };
    lcps_problem *p[N];
    for (int k = 0; k < N; k++) p[k] = chain(12, 0.05 * k);
    lcps_settings *s = lcps_settings_new();
    lcps_result one[N], two[N];
    char err[256];
    CHECK(lcps_solve_batch((const lcps_problem *const *)p, N, s, NULL, 1, one, err, sizeof err) == 0);
    CHECK(lcps_solve_batch((const lcps_problem *const *)p, N, s, NULL, 2, two, err, sizeof err) == 0);
    int small = 0, same = 1;
    for (int k = 0; k < N; k++) {
        small += !strcmp(one[k].solver, "pivot") && strstr(one[k].auto_reason, "small path") != NULL &&
                 strstr(one[k].auto_reason, "of this pattern") == NULL;
        same &= two[k].status == LCPS_SOLVED && !memcmp(one[k].x, two[k].x, (size_t)one[k].n * sizeof(double));
    }
    CHECK(small == N && same);
    /* pivot's general path (--crash none: not the small path) gives the same answer (a chain has one) */
    lcps_settings *pv = lcps_settings_new();
    CHECK(lcps_settings_set(pv, "solver", "pivot", err, sizeof err) == 0 &&
          lcps_settings_set(pv, "crash", "none", err, sizeof err) == 0);
    lcps_result r;
    CHECK(lcps_solve(p[3], pv, NULL, &r, err, sizeof err) == 0 && r.residual <= 1e-8);
    double d = 0;
    for (int i = 0; i < r.n; i++) d = fmax(d, fabs(r.x[i] - one[3].x[i]));
    CHECK(d <= 1e-12 * (1 + fabs(r.x[0])));
    lcps_result_free(&r);
    for (int k = 0; k < N; k++) lcps_result_free(&one[k]), lcps_result_free(&two[k]), lcps_problem_free(p[k]);
    lcps_settings_free(pv);
    lcps_settings_free(s);
}

static void test_stop_on_fd(void)
{
    int fd[2];
    CHECK(pipe(fd) == 0);
    fcntl(fd[0], F_SETFL, O_NONBLOCK);
    lcps_problem *p = chain(4000, 0.0);
    lcps_settings *s = lcps_settings_new();
    char err[256];
    lcps_stop_fd stop = {.fd = fd[0], .signum = SIGINT};
    CHECK(lcps_settings_set(s, "solver", "pgs", err, sizeof err) == 0);
    CHECK(lcps_settings_set(s, "max-iter", "300", err, sizeof err) == 0);
    CHECK(lcps_settings_on_iteration(s, lcps_stop_on_fd, &stop) == 0);
    /* a byte written before the solve is dropped at its first call: the solve runs to its limit */
    unsigned char sig = SIGINT;
    CHECK(write(fd[1], &sig, 1) == 1);
    lcps_result r;
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 1);
    CHECK(r.status == LCPS_MAX_ITER && r.iterations == 300 && stop.stopped == 0);
    lcps_result_free(&r);
    /* a byte of another signal does not stop it; SIGINT's does (at a set-up poll or a 20 ms mark) */
    stop.started_ = 1; /* as if the solve had begun: the bytes below count */
    unsigned char other = SIGTERM;
    CHECK(write(fd[1], &other, 1) == 1);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 1 && r.status == LCPS_MAX_ITER && !stop.stopped);
    lcps_result_free(&r);
    stop.started_ = 1;
    CHECK(write(fd[1], &sig, 1) == 1);
    CHECK(lcps_settings_set(s, "max-iter", "100000000", err, sizeof err) == 0);
    CHECK(lcps_settings_set(s, "tol", "1e-300", err, sizeof err) == 0);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 1);
    CHECK(r.status == LCPS_TIME_LIMIT && !strcmp(r.message, "interrupted") && stop.stopped == 1 && r.x &&
          isfinite(r.residual));
    lcps_result_free(&r);
    /* stopped stays: the next solve stops at once until the caller resets it */
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 1 && r.status == LCPS_TIME_LIMIT);
    lcps_result_free(&r);
    lcps_settings_free(s);
    lcps_problem_free(p);
    close(fd[0]);
    close(fd[1]);
}

static void test_data_out(void)
{
    const char *opts[] = {"base", "3", "mu", "0.5", NULL};
    lcps_problem *p = NULL;
    char err[256];
    CHECK(lcps_problem_generate("pyramid", opts, &p, err, sizeof err) == 0);
    int rows = 0, cols = 0, len = 0;
    const int *rp = NULL, *cj = NULL;
    const double *vx = NULL, *v = NULL;
    CHECK(lcps_problem_matrix(p, "A", &rows, &cols, &rp, &cj, &vx, err, sizeof err) == 0);
    CHECK(rows == lcps_problem_n(p) && cols == rows && rp[0] == 0 && rp[rows] > rows);
    int sorted = 1, symmetric = 1;
    for (int i = 0; i < rows; i++)
        for (int k = rp[i]; k < rp[i + 1]; k++) {
            if (k > rp[i] && cj[k] <= cj[k - 1]) sorted = 0;
            int j = cj[k], found = 0; /* A = J M^-1 J' is symmetric */
            for (int t = rp[j]; t < rp[j + 1]; t++)
                if (cj[t] == i) found = fabs(vx[t] - vx[k]) <= 1e-12 * (1 + fabs(vx[k]));
            symmetric &= found;
        }
    CHECK(sorted && symmetric);
    CHECK(lcps_problem_vector(p, "mu", &v, &len, err, sizeof err) == 0 && len == rows / 3 && v[0] == 0.5);
    CHECK(lcps_problem_vector(p, "b", &v, &len, err, sizeof err) == 0 && len == rows);
    CHECK(lcps_problem_vector(p, "lo", &v, &len, err, sizeof err) == 0 && len == 0 && !v);
    CHECK(lcps_problem_matrix(p, "J", &rows, &cols, &rp, &cj, &vx, err, sizeof err) == 0 && rows == lcps_problem_n(p));
    CHECK(lcps_problem_vector(p, "v", &v, &len, err, sizeof err) == 0 && len == cols);
    CHECK(lcps_problem_matrix(p, "Q", &rows, &cols, &rp, &cj, &vx, err, sizeof err) == 2 && strstr(err, "'Q'"));
    CHECK(lcps_problem_vector(p, "z", &v, &len, err, sizeof err) == 2 && strstr(err, "'z'"));
    const int *f = NULL;
    CHECK(lcps_problem_findex(p, &f, &len, err, sizeof err) == 0 && !f && len == 0);
    lcps_problem_free(p);
    p = chain(5, 0.0);
    CHECK(lcps_problem_matrix(p, "M", &rows, &cols, &rp, &cj, &vx, err, sizeof err) == 2 && strstr(err, "no M"));
    lcps_problem_free(p);
    CHECK(lcps_problem_matrix(NULL, "A", &rows, &cols, &rp, &cj, &vx, err, sizeof err) == 2);
}

static void test_registry(void)
{
    char kinds[64];
    const char *const *pre = NULL;
    const char *summary = NULL;
    CHECK(lcps_solver_info("pgs", kinds, sizeof kinds, &pre, &summary) == 0 && !strcmp(kinds, "lcp,blcp") &&
          pre && !strcmp(pre[0], "diag") && summary && *summary);
    CHECK(lcps_solver_info("nsn", kinds, sizeof kinds, &pre, &summary) == 0 && !strcmp(kinds, "ccp,fc3d"));
    CHECK(lcps_solver_info("nosuch", kinds, sizeof kinds, &pre, &summary) == 2);
    int named = 0, k = 0, tol = 0, output = 0;
    for (const char *const *n = lcps_solver_names(); *n; n++)
        named += lcps_solver_info(*n, kinds, sizeof kinds, NULL, NULL) == 0;
    CHECK(named > 15);
    const char *name, *arg, *help;
    for (; lcps_option_info(k, &name, &arg, &help) == 0; k++) {
        tol += !strcmp(name, "tol") && arg && help;
        output += !strcmp(name, "output");
    }
    CHECK(k > 10 && tol == 1 && output == 0 && lcps_option_info(k, &name, &arg, &help) == -1);
}

/* lcp_batch_run, which spreads the batch front ends' problems over threads: every item once; auto's
 * patterns' leaders first; the
 * calling thread alone, in order, each item's clock the end of the one before, for as long as the rule of
 * src/core/batch_run.h says (checked against the times the run itself read, so the check holds on a machine
 * of any speed and load), then a team of 2 for the rest; one thread: all alone */
typedef struct {
    int done[400], thread[400], order[400], next;
    double spin, start[400], end[400];
} run_log;

static void run_item(void *ctx, int k, double *clock)
{
    run_log *g = ctx;
    double t0 = lcp_now_fast();
    while (lcp_now_fast() - t0 < g->spin) {
    }
    int tid = 0;
#ifdef _OPENMP
    tid = omp_get_thread_num();
#endif
#pragma omp critical(run_log)
    {
        g->done[k]++, g->thread[k] = tid, g->order[g->next++] = k;
        g->start[k] = *clock;
    }
    *clock = g->end[k] = lcp_now_fast();
}

/* the calling thread's run alone (in order, each clock the end of the one before: the team's first item on
 * that thread starts from the team's own read); -1 where an item was not done once */
static int run_alone(const run_log *g, int n)
{
    for (int k = 0; k < n; k++)
        if (g->done[k] != 1) return -1;
    int a = 0;
    while (a < n && g->order[a] == a && g->thread[a] == 0 && (a == 0 || g->start[a] == g->end[a - 1])) a++;
    return a;
}

/* the run alone went on while the rule said so and stopped where it said so */
static int run_rule(const run_log *g, int n, int a)
{
    for (int j = 0; j < a; j++) {
        double spent = g->end[j] - g->start[0];
        int stop = spent >= LCP_BATCH_ALONE_S ||
                   (j + 1 >= LCP_BATCH_PROBE && spent / (j + 1) * (n - j - 1) > 2 * LCP_BATCH_ALONE_S);
        if (stop != (j == a - 1 && a < n)) return 0;
    }
    return 1;
}

static void test_batch_run(void)
{
    static run_log g;
    /* 400 items of 100 us (40 ms): the first items' pace says the rest is long, the team takes it */
    memset(&g, 0, sizeof g);
    g.spin = 100e-6;
    int used = lcp_batch_run(400, 2, NULL, run_item, &g), alone = run_alone(&g, 400);
    CHECK(alone >= 1 && alone < 400 && run_rule(&g, 400, alone));
#ifdef _OPENMP
    CHECK(used == 2);
#else
    CHECK(used == 1);
#endif
    /* 300 items of 5 us (1.5 ms): short, alone to the end (unless the machine stopped it for 2 ms) */
    memset(&g, 0, sizeof g);
    g.spin = 5e-6;
    used = lcp_batch_run(300, 2, NULL, run_item, &g), alone = run_alone(&g, 300);
    CHECK(alone >= 1 && run_rule(&g, 300, alone));
#ifdef _OPENMP
    CHECK(used == (alone < 300 ? 2 : 1));
#endif
    /* one thread: all in order on the calling thread */
    memset(&g, 0, sizeof g);
    g.spin = 20e-6;
    used = lcp_batch_run(400, 1, NULL, run_item, &g);
    CHECK(used == 1 && run_alone(&g, 400) == 400);
    CHECK(lcp_batch_run(0, 2, NULL, run_item, &g) == 1);
    /* auto's patterns: the leaders (1 and 4) first, in order, then the others */
    lcp_auto_choice c1, c4;
    lcp_auto_choice *made[6] = {NULL, &c1, NULL, NULL, &c4, NULL};
    int lead[6] = {0, 1, 1, 3, 4, 4};
    lcp_auto_share sh = {.n = 6, .lead = lead, .made = made};
    memset(&g, 0, sizeof g);
    used = lcp_batch_run(6, 2, &sh, run_item, &g);
    const int order[6] = {1, 4, 0, 2, 3, 5};
    int leaders = used == 1;
    for (int k = 0; k < 6; k++) leaders &= g.order[k] == order[k] && g.done[k] == 1;
    CHECK(leaders);
}

int main(void)
{
    test_batch();
    test_batch_auto();
    test_batch_small();
    test_batch_run();
    test_stop_on_fd();
    test_data_out();
    test_registry();
    CHECK_DONE();
}
