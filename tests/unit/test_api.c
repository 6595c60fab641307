/* tests/unit/test_api.c: the public API of include/lcpsolve.h: every call
 * with bad arguments (a status and a message, never a crash), problems of
 * every kind made from arrays and checked against an independent residual,
 * settings with the command line's checks, the iteration callback (rows,
 * cancellation), warm starts, a write/read round trip, and two threads
 * solving different problems at once, bit for bit the answers of the same
 * solves one after the other. */
#include <lcpsolve.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/api_internal.h"
#include "core/pipeline.h"
#include "scenes/scenes.h"
#include "cli/generate.h"
#include "io/io.h"

/* A tridiagonal lcp of n rows (2 on the diagonal, -1 beside, b = -1). */
static lcps_problem *chain(int n, const char *kind)
{
    int *rp = malloc((size_t)(n + 1) * sizeof *rp), *cj = malloc((size_t)(3 * n) * sizeof *cj), k = 0;
    double *vx = malloc((size_t)(3 * n) * sizeof *vx), *b = malloc((size_t)n * sizeof *b);
    rp[0] = 0;
    for (int i = 0; i < n; i++) {
        for (int j = i - 1; j <= i + 1; j++)
            if (j >= 0 && j < n) cj[k] = j, vx[k++] = i == j ? 2.0 : -1.0;
        rp[i + 1] = k;
        b[i] = i % 3 == 1 ? 0.5 : -1.0;
    }
    lcps_problem *p = NULL;
    char err[256];
    if (lcps_problem_csr(kind, n, rp, cj, vx, b, &p, err, sizeof err)) fprintf(stderr, "chain: %s\n", err);
    free(rp), free(cj), free(vx), free(b);
    return p;
}

/* max |min(x, w)| with w = A x + b recomputed here, for the chain above. */
static double chain_residual(int n, const double *x)
{
    double r = 0;
    for (int i = 0; i < n; i++) {
        double w = 2 * x[i] + (i > 0 ? -x[i - 1] : 0) + (i + 1 < n ? -x[i + 1] : 0) + (i % 3 == 1 ? 0.5 : -1.0);
        r = fmax(r, fabs(fmin(x[i], w)));
    }
    return r;
}

static void test_bad_arguments(void)
{
    char err[256];
    lcps_problem *p = (lcps_problem *)1;
    int rp[] = {0, 2, 4}, cj[] = {0, 1, 0, 1}, bad_cj[] = {0, 5, 0, 1}, bad_rp[] = {0, 3, 2};
    double vx[] = {2, -1, -1, 2}, b[] = {-1, -1}, nanv[] = {2, NAN, -1, 2};
    CHECK(lcps_problem_csr("lcp", 2, rp, cj, vx, b, NULL, err, sizeof err) == 2);
    CHECK(lcps_problem_csr("nope", 2, rp, cj, vx, b, &p, err, sizeof err) == 2 && !p && strstr(err, "nope"));
    CHECK(lcps_problem_csr(NULL, 2, rp, cj, vx, b, &p, err, sizeof err) == 2 && !p);
    CHECK(lcps_problem_csr("lcp", -3, rp, cj, vx, b, &p, err, sizeof err) == 2 && strstr(err, "positive"));
    CHECK(lcps_problem_csr("lcp", 0, rp, cj, vx, b, &p, err, sizeof err) == 2);
    CHECK(lcps_problem_csr("lcp", 2, NULL, cj, vx, b, &p, err, sizeof err) == 2);
    CHECK(lcps_problem_csr("lcp", 2, rp, cj, vx, NULL, &p, err, sizeof err) == 2);
    CHECK(lcps_problem_csr("lcp", 2, rp, bad_cj, vx, b, &p, err, sizeof err) == 2 && strstr(err, "col[1] = 5"));
    CHECK(lcps_problem_csr("lcp", 2, bad_rp, cj, vx, b, &p, err, sizeof err) == 2 && strstr(err, "decreases"));
    CHECK(lcps_problem_csr("lcp", 2, rp, cj, nanv, b, &p, err, sizeof err) == 2 && strstr(err, "not finite"));
    CHECK(lcps_problem_csr("lcp", 2, rp, bad_cj, vx, b, &p, NULL, 0) == 2); /* err may be NULL */
    CHECK(lcps_problem_read(NULL, &p, err, sizeof err) == 2);
    CHECK(lcps_problem_read("/nonexistent/problem.json", &p, err, sizeof err) == 2 && !p &&
          strstr(err, "/nonexistent/problem.json"));
    CHECK(lcps_problem_factored("lcp", NULL, NULL, NULL, NULL, &p, err, sizeof err) == 2);
    lcps_csr M = {2, 3, rp, cj, vx};
    CHECK(lcps_problem_factored("lcp", &M, &M, b, NULL, &p, err, sizeof err) == 2 && strstr(err, "square"));
    CHECK(lcps_problem_set_vector(NULL, "mu", b, 2, err, sizeof err) == 2);
    CHECK(lcps_problem_set_findex(NULL, rp, 2, err, sizeof err) == 2);
    CHECK(lcps_problem_write(NULL, "/tmp/x", err, sizeof err) == 2);
    CHECK(lcps_problem_n(NULL) == -1 && lcps_problem_kind(NULL) == NULL);
    lcps_problem_free(NULL);

    lcps_settings *s = lcps_settings_new();
    CHECK(s != NULL);
    CHECK(lcps_settings_set(s, "solver", "nope", err, sizeof err) == 2 && strstr(err, "unknown solver 'nope'"));
    CHECK(lcps_settings_set(s, "tol", "-1", err, sizeof err) == 2 && strstr(err, "--tol: '-1' is not a positive number"));
    CHECK(lcps_settings_set(s, "max-iter", "x", err, sizeof err) == 2);
    CHECK(lcps_settings_set(s, "omega", "2.5", err, sizeof err) == 2);
    CHECK(lcps_settings_set(s, "no-such-option", "1", err, sizeof err) == 2 && strstr(err, "unknown option"));
    CHECK(lcps_settings_set(s, "output", "x.mtx", err, sizeof err) == 2 && strstr(err, "command line"));
    CHECK(lcps_settings_set(s, "max-memory", "1G", err, sizeof err) == 2);
    CHECK(lcps_settings_set(s, "shuffle", "maybe", err, sizeof err) == 2);
    CHECK(lcps_settings_set(s, "shuffle", "true", err, sizeof err) == 0);
    CHECK(lcps_settings_set(NULL, "tol", "1", err, sizeof err) == 2);
    CHECK(lcps_settings_set(s, NULL, "1", err, sizeof err) == 2);
    CHECK(lcps_settings_set(s, "tol", NULL, err, sizeof err) == 2);
    CHECK(lcps_settings_on_iteration(NULL, NULL, NULL) == 2);
    lcps_settings_free(NULL);

    lcps_result r;
    CHECK(lcps_solve(NULL, s, NULL, &r, err, sizeof err) == 2 && r.status == LCPS_INPUT_ERROR && !r.x);
    lcps_result_free(&r);
    CHECK(lcps_solve(NULL, s, NULL, NULL, err, sizeof err) == 2);
    lcps_result_free(NULL);

    /* a friction problem without mu is refused at the solve, naming mu */
    lcps_problem *f = chain(3, "fc3d");
    CHECK(f != NULL);
    CHECK(lcps_solve(f, NULL, NULL, &r, err, sizeof err) == 2 && r.status == LCPS_INPUT_ERROR && strstr(err, "mu"));
    lcps_result_free(&r);
    double mu1[] = {-0.5};
    CHECK(lcps_problem_set_vector(f, "mu", mu1, 1, err, sizeof err) == 0);
    CHECK(lcps_solve(f, NULL, NULL, &r, err, sizeof err) == 2 && strstr(err, "mu"));
    lcps_result_free(&r);
    CHECK(lcps_problem_set_vector(f, "nu", mu1, 1, err, sizeof err) == 2 && strstr(err, "nu"));
    lcps_problem_free(f);

    /* a solver that does not take the kind, and a wrong warm start length */
    lcps_problem *l = chain(4, "lcp");
    CHECK(lcps_settings_set(s, "solver", "nsgs", err, sizeof err) == 0);
    CHECK(lcps_solve(l, s, NULL, &r, err, sizeof err) == 2 && strstr(err, "nsgs"));
    lcps_result_free(&r);
    lcps_problem_free(l);
    lcps_settings_free(s);

    CHECK(!strcmp(lcps_status_name(LCPS_SOLVED), "solved") && !strcmp(lcps_status_name(99), "unknown"));
    CHECK(lcps_status_exit_code(LCPS_NO_SOLUTION) == 3 && lcps_status_exit_code(LCPS_STALLED) == 1);
    CHECK(!strcmp(lcps_version(), LCPS_VERSION));
}

/* The example program, and the chain solved by several lcp solvers. */
static void test_lcp(void)
{
    char err[256];
    const char *solvers[] = {"pgs", "psor", "lemke", "pivot", "ipm", "newton-fb", "mprgp", "auto", NULL};
    lcps_problem *p = chain(30, "lcp");
    CHECK(lcps_problem_n(p) == 30 && !strcmp(lcps_problem_kind(p), "lcp"));
    for (int k = 0; solvers[k]; k++) {
        lcps_settings *s = lcps_settings_new();
        lcps_result r;
        CHECK(lcps_settings_set(s, "solver", solvers[k], err, sizeof err) == 0);
        CHECK(lcps_settings_set(s, "tol", "1e-10", err, sizeof err) == 0);
        int rc = lcps_solve(p, s, NULL, &r, err, sizeof err);
        CHECK(rc == 0 && r.status == LCPS_SOLVED && r.n == 30 && r.x && r.w);
        if (r.x) {
            CHECK(chain_residual(30, r.x) <= 1e-9);
            CHECK(r.residual <= 1e-10);
            double wmax = 0; /* w = A x + b as returned */
            for (int i = 0; i < 30; i++)
                wmax = fmax(wmax, fabs(r.w[i] - (2 * r.x[i] - (i ? r.x[i - 1] : 0) - (i < 29 ? r.x[i + 1] : 0) +
                                                 (i % 3 == 1 ? 0.5 : -1.0))));
            CHECK(wmax <= 1e-12);
        }
        CHECK(*r.solver && strcmp(r.solver, "auto"));
        if (strcmp(solvers[k], "auto")) CHECK(!strcmp(r.solver, solvers[k]));
        else CHECK(*r.auto_reason);
        lcps_result_free(&r);
        lcps_settings_free(s);
    }
    lcps_problem_free(p);
}

/* A limit: max_iter status, exit code 1, the best iterate returned. */
static void test_limits(void)
{
    char err[256];
    lcps_problem *p = chain(200, "lcp");
    lcps_settings *s = lcps_settings_new();
    lcps_result r;
    lcps_settings_set(s, "solver", "pgs", err, sizeof err);
    lcps_settings_set(s, "max-iter", "5", err, sizeof err);
    lcps_settings_set(s, "decompose", "off", err, sizeof err);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 1 && r.status == LCPS_MAX_ITER && r.iterations == 5);
    CHECK(r.x && r.residual > 1e-8 && isfinite(r.residual));
    lcps_result_free(&r);
    lcps_settings_free(s);
    lcps_problem_free(p);
}

typedef struct {
    int rows, stop_at, last, polls, extra;
    double first;
} watch;

static int on_row(void *ctx, const lcps_iteration *row)
{
    watch *w = ctx;
    if (row->iteration == -1) { /* a poll: a set-up or an inner solve (a crash start's guess) */
        CHECK(isnan(row->residual) && !row->extra);
        w->polls++;
        return 0;
    }
    if (row->nextra > 0) CHECK(row->extra && row->extra_names && row->extra_names[row->nextra - 1]);
    w->extra += row->nextra > 0;
    if (w->rows == 0) w->first = row->residual;
    CHECK(row->iteration == w->rows); /* 0, 1, 2, ... */
    w->rows++;
    w->last = row->iteration;
    return w->stop_at >= 0 && row->iteration >= w->stop_at;
}

static int stop_in_setup(void *ctx, const lcps_iteration *row)
{
    (void)ctx;
    CHECK(row->iteration >= -1);
    return row->iteration == -1; /* the set-up's poll */
}

static void test_callback(void)
{
    char err[256];
    lcps_problem *p = chain(100, "lcp");
    lcps_settings *s = lcps_settings_new();
    lcps_result r;
    watch w = {0, -1, 0, 0, 0, 0};
    lcps_settings_set(s, "solver", "pgs", err, sizeof err);
    lcps_settings_set(s, "decompose", "off", err, sizeof err);
    CHECK(lcps_settings_on_iteration(s, on_row, &w) == 0);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0);
    CHECK(w.rows == r.iterations + 1 && w.last == r.iterations && w.first > 0);
    lcps_result_free(&r);
    /* cancellation: stop at iteration 7 */
    w = (watch){0, 7, 0, 0, 0, 0};
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 1);
    CHECK(r.status == LCPS_TIME_LIMIT && r.iterations == 7 && !strcmp(r.message, "interrupted"));
    lcps_result_free(&r);
    /* a copy keeps the settings and the callback */
    lcps_settings *c = lcps_settings_copy(s);
    w = (watch){0, 3, 0, 0, 0, 0};
    CHECK(c && lcps_solve(p, c, NULL, &r, err, sizeof err) == 1 && r.iterations == 3 && !strcmp(r.solver, "pgs"));
    lcps_result_free(&r);
    lcps_settings_free(c);
    /* pivot's crash start runs ipm inside: its iterates come as polls, the
     * rows are pivot's own, with its extra columns (n = 200: at n <= 128
     * pivot starts from scratch, no ipm) */
    w = (watch){0, -1, 0, 0, 0, 0};
    lcps_settings_set(s, "solver", "pivot", err, sizeof err);
    lcps_problem *p200 = chain(200, "lcp");
    CHECK(lcps_solve(p200, s, NULL, &r, err, sizeof err) == 0);
    CHECK(w.rows == r.iterations + 1 && w.polls > 0);
    lcps_result_free(&r);
    /* from scratch (n = 100): a row each pivot, none a poll */
    w = (watch){0, -1, 0, 0, 0, 0};
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0);
    CHECK(w.rows == r.iterations + 1 && w.polls == 0 && r.iterations > 0);
    lcps_result_free(&r);
    lcps_problem_free(p200);
    w = (watch){0, -1, 0, 0, 0, 0};
    lcps_settings_set(s, "solver", "lemke", err, sizeof err);
    lcps_settings_set(s, "crash", "none", err, sizeof err);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0 && w.extra > 0);
    lcps_result_free(&r);
    /* a stop asked during a set-up (jacobi's spectral estimate, polled with
     * iteration -1): the solve stops at its start */
    lcps_settings_set(s, "solver", "jacobi", err, sizeof err);
    lcps_settings_on_iteration(s, stop_in_setup, NULL);
    lcps_problem *big = chain(3000, "lcp");
    CHECK(lcps_solve(big, s, NULL, &r, err, sizeof err) == 1);
    CHECK(r.status == LCPS_TIME_LIMIT && r.iterations == 0 && !strcmp(r.message, "interrupted"));
    lcps_result_free(&r);
    lcps_problem_free(big);
    lcps_settings_free(s);
    lcps_problem_free(p);
}

/* A warm start from the answer: solved at once, scaled by warm-factor. */
static void test_warm(void)
{
    char err[256];
    lcps_problem *p = chain(60, "lcp");
    lcps_settings *s = lcps_settings_new();
    lcps_result r, r2;
    lcps_settings_set(s, "solver", "pgs", err, sizeof err);
    lcps_settings_set(s, "tol", "1e-9", err, sizeof err);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0 && r.iterations > 5);
    CHECK(lcps_solve(p, s, r.x, &r2, err, sizeof err) == 0 && r2.iterations <= 1);
    lcps_result_free(&r2);
    lcps_settings_set(s, "warm-factor", "0", err, sizeof err); /* x0 * 0: a cold start again */
    CHECK(lcps_solve(p, s, r.x, &r2, err, sizeof err) == 0 && r2.iterations == r.iterations);
    lcps_result_free(&r2);
    lcps_result_free(&r);
    lcps_settings_free(s);
    lcps_problem_free(p);
}

/* blcp with findex (a box friction row), ccp and fc3d with mu, and the
 * factored form; each written and read back. */
static void test_kinds(void)
{
    char err[256], dir[64];
    lcps_result r;
    /* blcp: 3 rows, row 1 and 2 friction on row 0 */
    int rp[] = {0, 3, 6, 9}, cj[] = {0, 1, 2, 0, 1, 2, 0, 1, 2};
    double ax[] = {2, 0.5, 0.2, 0.5, 1.5, 0.1, 0.2, 0.1, 1.0}, b[] = {-1, 0.8, -0.3};
    double lo[] = {0, -1e300, -1e300}, hi[] = {1e300, 1e300, 1e300}, mu[] = {0, 0.3, 0.3};
    int findex[] = {-1, 0, 0};
    lcps_problem *p = NULL;
    CHECK(lcps_problem_csr("blcp", 3, rp, cj, ax, b, &p, err, sizeof err) == 0);
    CHECK(lcps_problem_set_vector(p, "lo", lo, 3, err, sizeof err) == 0);
    CHECK(lcps_problem_set_vector(p, "hi", hi, 3, err, sizeof err) == 0);
    CHECK(lcps_problem_set_findex(p, findex, 3, err, sizeof err) == 0);
    CHECK(lcps_solve(p, NULL, NULL, &r, err, sizeof err) == 2 && strstr(err, "mu")); /* findex without mu */
    lcps_result_free(&r);
    CHECK(lcps_problem_set_vector(p, "mu", mu, 3, err, sizeof err) == 0);
    CHECK(lcps_solve(p, NULL, NULL, &r, err, sizeof err) == 0 && r.status == LCPS_SOLVED);
    if (r.x) { /* the friction rows within +-mu x_0 */
        CHECK(r.x[0] > 0 && fabs(r.x[1]) <= 0.3 * r.x[0] + 1e-9 && fabs(r.x[2]) <= 0.3 * r.x[0] + 1e-9);
        CHECK(r.residual <= 1e-8);
    }
    double x0 = r.x ? r.x[0] : 0;
    lcps_result_free(&r);
    snprintf(dir, sizeof dir, "/tmp/lcps-test-%d", (int)getpid());
    CHECK(lcps_problem_write(p, dir, err, sizeof err) == 0);
    lcps_problem *q = NULL;
    CHECK(lcps_problem_read(dir, &q, err, sizeof err) == 0 && q && !strcmp(lcps_problem_kind(q), "blcp"));
    CHECK(q && lcps_solve(q, NULL, NULL, &r, err, sizeof err) == 0 && r.x && r.x[0] == x0);
    lcps_result_free(&r);
    lcps_problem_free(q);
    lcps_problem_free(p);
    check_rm_tree(dir);

    /* two contacts, fc3d and ccp: W = diag-dominant, q pushes into the ground */
    int n = 6, wrp[7], wcj[36], k = 0;
    double wx[36], q6[] = {-1, 0.2, 0.1, -0.5, -0.3, 0.0}, mu2[] = {0.5, 0.3};
    wrp[0] = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) wcj[k] = j, wx[k++] = i == j ? 2.0 : (i / 3 == j / 3 ? 0.1 : 0.05);
        wrp[i + 1] = k;
    }
    const char *kinds[] = {"fc3d", "ccp"};
    for (int t = 0; t < 2; t++) {
        lcps_problem *f = NULL;
        CHECK(lcps_problem_csr(kinds[t], n, wrp, wcj, wx, q6, &f, err, sizeof err) == 0);
        CHECK(lcps_problem_set_vector(f, "mu", mu2, 2, err, sizeof err) == 0);
        lcps_settings *s = lcps_settings_new();
        lcps_settings_set(s, "solver", "nsgs", err, sizeof err);
        CHECK(lcps_solve(f, s, NULL, &r, err, sizeof err) == 0 && r.status == LCPS_SOLVED);
        for (int c = 0; r.x && c < 2; c++) /* r in the cone */
            CHECK(hypot(r.x[3 * c + 1], r.x[3 * c + 2]) <= mu2[c] * r.x[3 * c] * (1 + 1e-9) + 1e-12);
        lcps_result_free(&r);
        lcps_settings_free(s);
        lcps_problem_free(f);
    }

    /* the factored form: two unit masses on the ground, one contact each
     * (normal rows only): A = J M^-1 J' = I, b = J v = -v_z */
    int mrp[] = {0, 1, 2}, mcj[] = {0, 1}, jrp[] = {0, 1, 2}, jcj[] = {0, 1};
    double mx[] = {1, 2}, jx[] = {1, 1}, v[] = {-1, -0.5};
    lcps_csr M = {2, 2, mrp, mcj, mx}, J = {2, 2, jrp, jcj, jx};
    lcps_problem *fp = NULL;
    CHECK(lcps_problem_factored("lcp", &M, &J, v, NULL, &fp, err, sizeof err) == 0);
    const char *fs[] = {"pgs", "si", NULL};
    for (int t = 0; fs[t]; t++) {
        lcps_settings *s = lcps_settings_new();
        lcps_settings_set(s, "solver", fs[t], err, sizeof err);
        CHECK(lcps_solve(fp, s, NULL, &r, err, sizeof err) == 0 && r.status == LCPS_SOLVED);
        if (r.x) CHECK(fabs(r.x[0] - 1.0) <= 1e-8 && fabs(r.x[1] - 1.0) <= 1e-8); /* lambda = -M v_z */
        lcps_result_free(&r);
        lcps_settings_free(s);
    }
    lcps_problem_free(fp);
}

/* Two threads solving different problems at once give the bits of the
 * same solves one after the other (psor with omega auto, nsgs, ipm with a
 * sparse factorisation ordered nd in one thread and natural in the other). */
typedef struct {
    lcps_problem *p;
    lcps_settings *s;
    int rounds, same;
    lcps_result ref;
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    char err[256];
    for (int k = 0; k < j->rounds; k++) {
        lcps_result r;
        lcps_solve(j->p, j->s, NULL, &r, err, sizeof err);
        int same = r.status == j->ref.status && r.iterations == j->ref.iterations && r.n == j->ref.n &&
                   r.x && !memcmp(r.x, j->ref.x, (size_t)r.n * sizeof(double)) &&
                   !memcmp(&r.residual, &j->ref.residual, sizeof r.residual);
        if (same) j->same++;
        lcps_result_free(&r);
    }
    return NULL;
}

static void test_threads(void)
{
    char err[256];
    job jobs[3];
    const char *cfg[3][3][2] = {{{"solver", "psor"}, {"omega", "auto"}, {"order", "rcm"}},
                                {{"solver", "ipm"}, {"order", "nd"}, {"linsolve", "sparse"}},
                                {{"solver", "newton-fb"}, {"order", "natural"}, {"linsolve", "sparse"}}};
    for (int t = 0; t < 3; t++) {
        jobs[t].p = chain(150 + 37 * t, "lcp");
        jobs[t].s = lcps_settings_new();
        for (int k = 0; k < 3; k++) CHECK(lcps_settings_set(jobs[t].s, cfg[t][k][0], cfg[t][k][1], err, sizeof err) == 0);
        jobs[t].rounds = 6;
        jobs[t].same = 0;
        CHECK(lcps_solve(jobs[t].p, jobs[t].s, NULL, &jobs[t].ref, err, sizeof err) == 0);
    }
    pthread_t th[3];
    for (int t = 0; t < 3; t++) CHECK(pthread_create(&th[t], NULL, run_job, &jobs[t]) == 0);
    for (int t = 0; t < 3; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < 3; t++) {
        CHECK(jobs[t].same == jobs[t].rounds);
        lcps_result_free(&jobs[t].ref);
        lcps_settings_free(jobs[t].s);
        lcps_problem_free(jobs[t].p);
    }
    /* one problem handle, unchecked, solved from two threads at once */
    job shared[2];
    lcps_problem *p = chain(120, "lcp");
    lcps_problem *q = chain(120, "lcp");
    lcps_settings *s = lcps_settings_new();
    lcps_settings_set(s, "solver", "pgs", err, sizeof err);
    lcps_result ref;
    CHECK(lcps_solve(q, s, NULL, &ref, err, sizeof err) == 0);
    for (int t = 0; t < 2; t++) shared[t] = (job){p, s, 4, 0, ref};
    for (int t = 0; t < 2; t++) CHECK(pthread_create(&th[t], NULL, run_job, &shared[t]) == 0);
    for (int t = 0; t < 2; t++) pthread_join(th[t], NULL);
    CHECK(shared[0].same == 4 && shared[1].same == 4);
    lcps_result_free(&ref);
    lcps_settings_free(s);
    lcps_problem_free(p);
    lcps_problem_free(q);
}

/* The update path: new values on a kept pattern give the bits of a new
 * problem with those values; a factored problem's v changes b, not A; the
 * colour classes of --order are built once a pattern. */
static void test_update(void)
{
    char err[256];
    /* unsorted columns and a duplicate: the caller's order is kept */
    int rp[] = {0, 3, 5, 7}, cj[] = {1, 0, 0, 0, 1, 2, 1};
    double v1[] = {-1, 1, 1, -1, 2, 2, -1}, v2[] = {-2, 3, 1, -2, 4, 3, -1}, b1[] = {-1, -1, 0.5}, b2[] = {-2, 1, -1};
    lcps_problem *p = NULL, *q = NULL;
    lcps_result r, rq;
    lcps_settings *s = lcps_settings_new();
    lcps_settings_set(s, "solver", "pgs", err, sizeof err);
    CHECK(lcps_problem_csr("lcp", 3, rp, cj, v1, b1, &p, err, sizeof err) == 0);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0);
    lcps_result_free(&r);
    CHECK(lcps_problem_update(p, v2, b2, err, sizeof err) == 0);
    CHECK(lcps_problem_csr("lcp", 3, rp, cj, v2, b2, &q, err, sizeof err) == 0);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0 && lcps_solve(q, s, NULL, &rq, err, sizeof err) == 0);
    CHECK(r.x && rq.x && r.iterations == rq.iterations && !memcmp(r.x, rq.x, 3 * sizeof(double)));
    lcps_result_free(&r);
    lcps_result_free(&rq);
    double bad[] = {1, NAN, 1, 1, 1, 1, 1};
    CHECK(lcps_problem_update(p, bad, NULL, err, sizeof err) == 2 && strstr(err, "val[1]"));
    CHECK(lcps_problem_update(NULL, v2, NULL, err, sizeof err) == 2);
    lcps_problem_free(p);
    lcps_problem_free(q);

    /* factored: v changed in place against a new problem with that v */
    int mrp[] = {0, 1, 2}, mcj[] = {0, 1}, jrp[] = {0, 1, 3}, jcj[] = {0, 0, 1};
    double mx[] = {1, 2}, jx[] = {1, -1, 1}, va[] = {-1, -0.5}, vb[] = {-2, 0.3};
    lcps_csr M = {2, 2, mrp, mcj, mx}, J = {2, 2, jrp, jcj, jx};
    CHECK(lcps_problem_factored("lcp", &M, &J, va, NULL, &p, err, sizeof err) == 0);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0);
    lcps_result_free(&r);
    CHECK(lcps_problem_update(p, v1, NULL, err, sizeof err) == 2 && strstr(err, "factored"));
    CHECK(lcps_problem_set_vector(p, "v", vb, 2, err, sizeof err) == 0);
    CHECK(lcps_problem_factored("lcp", &M, &J, vb, NULL, &q, err, sizeof err) == 0);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) <= 1 && lcps_solve(q, s, NULL, &rq, err, sizeof err) <= 1);
    CHECK(r.x && rq.x && r.iterations == rq.iterations && !memcmp(r.x, rq.x, 2 * sizeof(double)) &&
          !memcmp(r.w, rq.w, 2 * sizeof(double)));
    lcps_result_free(&r);
    lcps_result_free(&rq);
    lcps_problem_free(p);
    lcps_problem_free(q);
    lcps_settings_free(s);

    /* the cache: colour classes once a pattern, the same bits as without */
    lcp_problem a, c;
    lcp_err e = {{0}};
    lcp_problem_init(&a);
    lcp_problem_init(&c);
    CHECK(lcp_read_problem("problems/pyramid-5", LCP_KIND_NONE, &a, &e) == 0 &&
          lcp_read_problem("problems/pyramid-5", LCP_KIND_NONE, &c, &e) == 0);
    for (long k = 0; c.A.p && k < lcp_csr_nnz(&c.A); k++) c.A.x[k] *= 1.5; /* same pattern, other values */
    lcp_solve_opts o;
    lcp_solve_opts_default(&o);
    o.solver = "pgs";
    o.order = LCP_ORDER_COLOUR;
    o.order_named = 1;
    o.s.threads = 2;
    lcp_pipeline_cache *cache = lcp_pipeline_cache_new();
    lcp_solve_out u, w;
    long builds = -1, hits = -1;
    const lcp_problem *probs[] = {&a, &c, &a};
    for (int t = 0; t < 3; t++) {
        CHECK(lcp_pipeline_solve_cached(probs[t], &o, NULL, 0, NULL, cache, &u, &e) == 0);
        CHECK(lcp_pipeline_solve(probs[t], &o, NULL, 0, NULL, &w, &e) == 0);
        CHECK(u.x && w.x && u.iterations == w.iterations && !memcmp(u.x, w.x, (size_t)a.n * sizeof(double)));
        lcp_solve_out_free(&u);
        lcp_solve_out_free(&w);
    }
    lcp_pipeline_cache_stats(cache, &builds, &hits);
    CHECK(builds == 1 && hits == 2);
    lcp_problem_free(&c);
    lcp_problem_init(&c);
    CHECK(lcp_read_problem("problems/column-20", LCP_KIND_NONE, &c, &e) == 0); /* another pattern: built anew */
    CHECK(lcp_pipeline_solve_cached(&c, &o, NULL, 0, NULL, cache, &u, &e) == 0);
    lcp_solve_out_free(&u);
    lcp_pipeline_cache_stats(cache, &builds, &hits);
    CHECK(builds == 2 && hits == 2);
    lcp_pipeline_cache_free(cache);
    lcp_problem_free(&a);
    lcp_problem_free(&c);
}

/* auto on the update path: after lcps_problem_update changed A, a solve
 * takes the choice of the handle's last solve (its reason says so) and
 * gives the bits of a solve that chose the same for those values; a kept
 * choice that fails is replaced by one made afresh; a solve with another
 * model, or before any update, chooses as without it. */
static int has_kept(const lcps_result *r)
{
    return r->auto_reason && strstr(r->auto_reason, "before A's values changed (lcps_problem_update)") != NULL;
}

static void test_update_auto(void)
{
    char err[256];
    lcps_problem *p = NULL, *q = NULL;
    lcps_settings *s = lcps_settings_new(), *s2 = lcps_settings_new();
    lcps_result r, rq;
    CHECK(lcps_settings_set(s2, "auto-model", "models/auto.model", err, sizeof err) == 0);
    CHECK(lcps_problem_read("problems/random-spd-200", &p, err, sizeof err) == 0);
    int n = 0, m = 0;
    const int *rp = NULL, *cj = NULL;
    const double *a = NULL, *b = NULL;
    int blen = 0;
    CHECK(lcps_problem_matrix(p, "A", &n, &m, &rp, &cj, &a, err, sizeof err) == 0 &&
          lcps_problem_vector(p, "b", &b, &blen, err, sizeof err) == 0);
    long nnz = rp ? rp[n] : 0;
    double *v0 = malloc((size_t)(nnz + 1) * sizeof *v0), *v = malloc((size_t)(nnz + 1) * sizeof *v);
    double *bb = malloc((size_t)(n + 1) * sizeof *bb);
    memcpy(v0, a, (size_t)nnz * sizeof *v0);
    memcpy(bb, b, (size_t)n * sizeof *bb);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0 && !has_kept(&r));
    char first[32];
    snprintf(first, sizeof first, "%s", r.solver);
    lcps_result_free(&r);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0 && !has_kept(&r)); /* no update yet: as before */
    lcps_result_free(&r);
    for (int k = 1; k <= 3; k++) { /* new values: the kept choice, the bits of a solve choosing the same */
        for (long e = 0; e < nnz; e++) v[e] = v0[e] * (1 + 0.01 * k);
        CHECK(lcps_problem_update(p, v, NULL, err, sizeof err) == 0);
        CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0 && has_kept(&r) && !strcmp(r.solver, first));
        CHECK(r.status == LCPS_SOLVED && r.residual <= 1e-8);
        CHECK(lcps_problem_csr("lcp", n, rp, cj, v, bb, &q, err, sizeof err) == 0);
        CHECK(lcps_solve(q, s, NULL, &rq, err, sizeof err) == 0 && !has_kept(&rq));
        if (!strcmp(rq.solver, first)) /* the same choice made afresh: the same run */
            CHECK(r.x && rq.x && r.iterations == rq.iterations && !memcmp(r.x, rq.x, (size_t)n * sizeof(double)));
        lcps_result_free(&rq);
        lcps_problem_free(q);
        q = NULL;
        lcps_result_free(&r);
    }
    /* another model: its own choice, not the one kept from the built-in model's; then kept in its place */
    CHECK(lcps_problem_update(p, v0, NULL, err, sizeof err) == 0);
    CHECK(lcps_solve(p, s2, NULL, &r, err, sizeof err) == 0 && !has_kept(&r));
    lcps_result_free(&r);
    CHECK(lcps_problem_update(p, v, NULL, err, sizeof err) == 0);
    CHECK(lcps_solve(p, s2, NULL, &r, err, sizeof err) == 0 && has_kept(&r));
    lcps_result_free(&r);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0 && !has_kept(&r));
    lcps_result_free(&r);
    /* a kept choice that fails (A negated: no longer positive definite) is replaced by a fresh choice, which
     * is what the next update takes */
    for (long e = 0; e < nnz; e++) v[e] = -v0[e];
    CHECK(lcps_problem_update(p, v, NULL, err, sizeof err) == 0);
    int rc = lcps_solve(p, s, NULL, &r, err, sizeof err);
    CHECK(rc != 2 && !has_kept(&r));
    lcps_result_free(&r);
    CHECK(lcps_problem_update(p, v0, NULL, err, sizeof err) == 0);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0 && r.residual <= 1e-8);
    lcps_result_free(&r);
    free(v0), free(v), free(bb);
    lcps_problem_free(p);
    /* new bounds drop the kept choice (they are what the choice reads besides A's values): the next solve
     * chooses, and the one after an update takes that choice (140 unknowns: more than pivot's small path
     * takes, which solves before any choice) */
    enum { N6 = 140 };
    int rp6[N6 + 1], cj6[N6 * N6];
    double a6[N6 * N6], a6b[N6 * N6], b6[N6], lo6[N6], hi6[N6];
    for (int i = 0; i <= N6; i++) rp6[i] = N6 * i;
    for (int i = 0; i < N6; i++) {
        b6[i] = (i % 3 == 0 ? -1.0 : 0.5) * (1 + i % 4);
        for (int j = 0; j < N6; j++) {
            cj6[N6 * i + j] = j;
            a6[N6 * i + j] = i == j ? 4.0 : 1.0 / (1 + i + j);
            a6b[N6 * i + j] = 1.02 * a6[N6 * i + j];
        }
    }
    for (int i = 0; i < N6; i++) lo6[i] = -0.5, hi6[i] = 0.5;
    CHECK(lcps_problem_csr("blcp", N6, rp6, cj6, a6, b6, &p, err, sizeof err) == 0 &&
          lcps_problem_set_vector(p, "lo", lo6, N6, err, sizeof err) == 0 &&
          lcps_problem_set_vector(p, "hi", hi6, N6, err, sizeof err) == 0);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0 && !has_kept(&r));
    lcps_result_free(&r);
    CHECK(lcps_problem_update(p, a6b, NULL, err, sizeof err) == 0);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0 && has_kept(&r));
    lcps_result_free(&r);
    for (int i = 0; i < N6; i++) lo6[i] = -0.25;
    CHECK(lcps_problem_set_vector(p, "lo", lo6, N6, err, sizeof err) == 0);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0 && !has_kept(&r));
    lcps_result_free(&r);
    CHECK(lcps_problem_update(p, a6, NULL, err, sizeof err) == 0);
    CHECK(lcps_solve(p, s, NULL, &r, err, sizeof err) == 0 && has_kept(&r));
    lcps_result_free(&r);
    lcps_problem_free(p);
    lcps_settings_free(s);
    lcps_settings_free(s2);
}

/* The factorisations' update path (src/la/symbolic_store.h): through a
 * cache, each pattern is analysed once, later solves of that pattern take
 * the kept analysis, and every answer has the bits of a solve without. */
static void symbolic_same(const char *solver, const lcp_problem *const *probs, int np, int decompose, int threads,
                          long *analyses, long *reuses)
{
    lcp_err e = {{0}};
    lcp_solve_opts o;
    lcp_solve_opts_default(&o);
    o.solver = solver;
    o.decompose = decompose;
    o.s.threads = threads;
    o.s.max_iter = 200;
    o.s.linsolve = LCP_LINSOLVE_SPARSE; /* ipm, newton, lemke: sparse factorisations even on small n */
    lcp_pipeline_cache *cache = lcp_pipeline_cache_new();
    for (int t = 0; t < np; t++) {
        lcp_solve_out u, w;
        int ru = lcp_pipeline_solve_cached(probs[t], &o, NULL, 0, NULL, cache, &u, &e);
        int rw = lcp_pipeline_solve(probs[t], &o, NULL, 0, NULL, &w, &e);
        int n = probs[t]->n;
        CHECK(ru == 0 && rw == 0 && u.x && w.x && u.status == w.status && u.iterations == w.iterations &&
              !memcmp(u.x, w.x, (size_t)n * sizeof(double)));
        if (!(u.x && w.x && u.iterations == w.iterations && !memcmp(u.x, w.x, (size_t)n * sizeof(double))))
            fprintf(stderr, "  %s, problem %d: cached (%d, %d iterations) and plain (%d, %d) differ: %s\n", solver, t,
                    ru, u.iterations, rw, w.iterations, e.msg);
        lcp_solve_out_free(&u);
        lcp_solve_out_free(&w);
    }
    lcp_symbolic_store_stats(lcp_pipeline_cache_store(cache), analyses, reuses);
    lcp_pipeline_cache_free(cache);
}

static void test_symbolic(void)
{
    lcp_problem a, c, f, g, h, piles;
    lcp_err e = {{0}};
    lcp_problem *all[] = {&a, &c, &f, &g, &h, &piles};
    for (int k = 0; k < 6; k++) lcp_problem_init(all[k]);
    const char *ccp_opts[] = {"base", "4", "mu", "0.5", "kind", "ccp", NULL};
    CHECK(lcp_generate_problem("pyramid", ccp_opts, &h, &e) == 0);
    CHECK(lcp_read_problem("problems/pyramid-5", LCP_KIND_NONE, &a, &e) == 0 &&
          lcp_read_problem("problems/pyramid-5", LCP_KIND_NONE, &c, &e) == 0 &&
          lcp_read_problem("problems/pyramid-5-fc3d", LCP_KIND_NONE, &f, &e) == 0 &&
          lcp_read_problem("problems/pyramid-5-fc3d", LCP_KIND_NONE, &g, &e) == 0);
    for (long k = 0; c.A.p && k < lcp_csr_nnz(&c.A); k++) c.A.x[k] *= 1.5; /* same pattern, other values */
    for (int i = 0; g.b && i < g.n; i++) g.b[i] = 0.5 * g.b[i] - 0.01;
    const lcp_problem *lcps[] = {&a, &c, &a}, *fcs[] = {&f, &g, &f}, *ccps[] = {&h, &h, &h};
    /* the factorising solvers: the first solve analyses, the later ones of
     * the same pattern take every analysis from the store */
    const char *lcp_solvers[] = {"ipm", "newton-fb", "newton-min", "lemke", "pivot"};
    const char *fc_solvers[] = {"nsn", "prox", "admm", "socp-ipm"};
    long an1, re1, an3, re3, total = 0;
    for (int k = 0; k < 9; k++) {
        const char *sv = k < 5 ? lcp_solvers[k] : fc_solvers[k - 5];
        const lcp_problem *const *pr = k < 5 ? lcps : k < 8 ? fcs : ccps;
        symbolic_same(sv, pr, 1, 0, 1, &an1, &re1);
        symbolic_same(sv, pr, 3, 0, 1, &an3, &re3);
        /* three solves of one pattern: no more analyses than one, and the
         * two later solves take what the first kept */
        CHECK(an3 == an1 && re3 >= re1 + 2 * an1);
        if (!(an3 == an1 && re3 >= re1 + 2 * an1))
            fprintf(stderr, "  %s: %ld/%ld analyses, %ld/%ld reuses\n", sv, an1, an3, re1, re3);
        total += re3;
        if (getenv("SYMBOLIC_STATS")) fprintf(stderr, "  %s: %ld/%ld analyses, %ld/%ld reuses\n", sv, an1, an3, re1, re3);
    }
    CHECK(total > 0);
    /* four equal piles, decomposed: one analysis for the four components,
     * in one thread and in two (OpenMP tasks sharing the store; there the
     * first component on each thread may miss the store together, both
     * analyse and one analysis is kept: one reuse fewer a thread more) */
    const char *opts[] = {"base", "3", "piles", "4", NULL};
    CHECK(lcp_generate_problem("pyramid", opts, &piles, &e) == 0);
    const lcp_problem *pp[] = {&piles, &piles};
    for (int threads = 1; threads <= 2; threads++) {
        symbolic_same("ipm", pp, 2, 1, threads, &an1, &re1);
        int ok = an1 >= 1 && re1 >= 8 * an1 - threads; /* 2 problems x 4 components, one analysis */
        CHECK(ok);
        if (!ok || getenv("SYMBOLIC_STATS")) fprintf(stderr, "  piles: %ld analyses, %ld reuses\n", an1, re1);
    }
    for (int k = 0; k < 6; k++) lcp_problem_free(all[k]);
}

/* A generated scene through the library: the problem `lcpsolve generate`
 * writes, to the bit (the same answer), and the command's checks. */
static void test_generate(void)
{
    char err[256], dir[64], path[128];
    lcps_problem *g = NULL, *f = NULL;
    const char *opts[] = {"base", "3", "mu", "0.5", "kind", "ccp", NULL};
    CHECK(lcps_problem_generate("pyramid", opts, &g, err, sizeof err) == 0 && g);
    CHECK(g && lcps_problem_n(g) == 3 * 36 && !strcmp(lcps_problem_kind(g), "ccp"));
    snprintf(dir, sizeof dir, "/tmp/lcps-gen-%d", (int)getpid());
    snprintf(path, sizeof path, "%s/p", dir);
    char a0[] = "generate", a1[] = "pyramid", a2[] = "--base", a3[] = "3", a4[] = "--mu", a5[] = "0.5",
         a6[] = "--kind", a7[] = "ccp", a8[] = "-o";
    char *argv[] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, path, NULL};
    FILE *keep = stderr;
    stderr = fopen("/dev/null", "w"); /* the command's summary line */
    int grc = lcp_generate_main(10, argv);
    fclose(stderr);
    stderr = keep;
    CHECK(grc == 0);
    CHECK(lcps_problem_read(path, &f, err, sizeof err) == 0);
    lcps_settings *s = lcps_settings_new();
    lcps_settings_set(s, "solver", "nsgs", err, sizeof err);
    lcps_result a, b;
    CHECK(g && f && lcps_solve(g, s, NULL, &a, err, sizeof err) == 0 && lcps_solve(f, s, NULL, &b, err, sizeof err) == 0);
    CHECK(a.x && b.x && a.n == b.n && a.iterations == b.iterations && !memcmp(a.x, b.x, (size_t)a.n * sizeof(double)));
    lcps_result_free(&a);
    lcps_result_free(&b);
    lcps_settings_set(s, "solver", "si", err, sizeof err); /* the factored form came along */
    CHECK(g && lcps_solve(g, s, NULL, &a, err, sizeof err) <= 1 && a.x);
    lcps_result_free(&a);
    lcps_settings_free(s);
    lcps_problem_free(g);
    lcps_problem_free(f);
    check_rm_tree(dir);
    const char *bad1[] = {"base", "0", NULL}, *bad2[] = {"nope", "1", NULL}, *bad3[] = {"output", "x", NULL};
    const char *bad4[] = {"size", "5", NULL}, *flag[] = {"ground", "true", "links", "4", NULL};
    CHECK(lcps_problem_generate("pyramid", bad1, &g, err, sizeof err) == 2 && !g && strstr(err, "--base"));
    CHECK(lcps_problem_generate("pyramid", bad2, &g, err, sizeof err) == 2 && strstr(err, "nope"));
    CHECK(lcps_problem_generate("pyramid", bad3, &g, err, sizeof err) == 2);
    CHECK(lcps_problem_generate("pyramid", bad4, &g, err, sizeof err) == 2 && strstr(err, "does not apply"));
    CHECK(lcps_problem_generate("teapot", NULL, &g, err, sizeof err) == 2 && strstr(err, "teapot"));
    CHECK(lcps_problem_generate(NULL, NULL, &g, err, sizeof err) == 2);
    CHECK(lcps_problem_generate("chain", flag, &g, err, sizeof err) == 0 && g);
    lcps_problem_free(g);
    CHECK(lcps_problem_generate("murty", NULL, &g, err, sizeof err) == 0 && lcps_problem_n(g) == 8);
    lcps_problem_free(g);
}

static void test_registry(void)
{
    const char *const *names = lcps_solver_names();
    int n = 0, pgs = 0;
    for (; names[n]; n++) pgs += !strcmp(names[n], "pgs");
    CHECK(n >= 20 && pgs == 1);
}

/* lcps_solve_into: the answer in the caller's arrays, r->x and r->w NULL;
 * the same bits as lcps_solve's on the small paths (pivot's: 30 rows;
 * lemke's tiny one: a matrix neither P nor semidefinite) and on the
 * general path (140 rows: copied there); w NULL; x NULL refused. */
static void test_solve_into(void)
{
    char err[256];
    const int sizes[] = {30, 140};
    const char *solvers[] = {"auto", "pivot", "pgs"};
    for (int si = 0; si < 2; si++)
        for (int k = 0; k < 3; k++) {
            int n = sizes[si];
            lcps_problem *p = chain(n, "lcp");
            lcps_settings *s = lcps_settings_new();
            CHECK(lcps_settings_set(s, "solver", solvers[k], err, sizeof err) == 0);
            lcps_result r, q;
            double *x = malloc((size_t)n * sizeof *x), *w = malloc((size_t)n * sizeof *w);
            for (int i = 0; i < n; i++) x[i] = w[i] = NAN;
            int rc = lcps_solve(p, s, NULL, &r, err, sizeof err);
            int rq = lcps_solve_into(p, s, NULL, x, w, &q, err, sizeof err);
            CHECK(rc == 0 && rq == 0 && q.status == LCPS_SOLVED && !q.x && !q.w && q.n == n);
            CHECK(r.x && !memcmp(r.x, x, (size_t)n * sizeof *x) && !memcmp(r.w, w, (size_t)n * sizeof *w));
            CHECK(q.iterations == r.iterations && !strcmp(q.solver, r.solver) && q.residual == r.residual &&
                  !strcmp(q.auto_reason, r.auto_reason));
            lcps_result_free(&q);
            for (int i = 0; i < n; i++) x[i] = NAN;
            CHECK(lcps_solve_into(p, s, NULL, x, NULL, &q, err, sizeof err) == 0 && chain_residual(n, x) <= 1e-8);
            lcps_result_free(&q);
            lcps_result_free(&r);
            free(x), free(w);
            lcps_settings_free(s);
            lcps_problem_free(p);
        }
    /* lcp_CPS_2 (zero diagonal): auto by lemke's tiny path, into the caller's array */
    int rp[4] = {0, 2, 4, 6}, cj[6] = {1, 2, 0, 2, 0, 1};
    double vx[6] = {2, -1, -1, 1, 2, -2}, b[3] = {-3, 6, -1}, x[3], w[3];
    lcps_problem *p = NULL;
    lcps_result r, q;
    CHECK(lcps_problem_csr("lcp", 3, rp, cj, vx, b, &p, err, sizeof err) == 0);
    CHECK(lcps_solve(p, NULL, NULL, &r, err, sizeof err) == 0 && !strcmp(r.solver, "lemke"));
    CHECK(lcps_solve_into(p, NULL, NULL, x, w, &q, err, sizeof err) == 0 && !strcmp(q.solver, "lemke") && !q.x &&
          r.x && !memcmp(r.x, x, sizeof x) && !memcmp(r.w, w, sizeof w));
    lcps_result_free(&q);
    CHECK(lcps_solve_into(p, NULL, NULL, NULL, w, &q, err, sizeof err) == 2 && q.status == LCPS_INPUT_ERROR &&
          strstr(err, "x is NULL") && strstr(q.message, "x is NULL"));
    lcps_result_free(&q);
    lcps_result_free(&r);
    lcps_problem_free(p);
}

/* lcps_solve takes the small paths' answer straight into r
 * (lcp_pipeline_small) and the pipeline runs them as its first stage: the
 * two give the same status, steps, solver, reason, metrics and bits -- by
 * pivot's path (a chain of 30), by lemke's tiny path (lcp_CPS_2: a zero
 * diagonal), and where neither answers (A = -1, b = -1: no solution; the
 * general run after the small paths, once, gives lemke's certificate) --
 * with the solver auto and pivot named, into r's arrays and the caller's. */
static void test_small_lane(void)
{
    char err[256];
    int rp[4] = {0, 2, 4, 6}, cj[6] = {1, 2, 0, 2, 0, 1}, rp1[2] = {0, 1}, cj1[1] = {0};
    double vx[6] = {2, -1, -1, 1, 2, -2}, b[3] = {-3, 6, -1}, vx1[1] = {-1}, b1[1] = {-1};
    lcps_problem *ps[3] = {chain(30, "lcp"), NULL, NULL};
    CHECK(lcps_problem_csr("lcp", 3, rp, cj, vx, b, &ps[1], err, sizeof err) == 0);
    CHECK(lcps_problem_csr("lcp", 1, rp1, cj1, vx1, b1, &ps[2], err, sizeof err) == 0);
    const char *want[3] = {"pivot", "lemke", "lemke"};
    for (int k = 0; k < 3; k++)
        for (int named = 0; named < 2; named++) {
            if (named && k) continue; /* (pivot named solves none of the other two by its path) */
            lcps_settings *s = lcps_settings_new();
            CHECK(lcps_settings_set(s, "solver", named ? "pivot" : "auto", err, sizeof err) == 0);
            lcp_err e = {{0}};
            const lcp_problem *lp = lcp_api_problem(ps[k], NULL, NULL, &e);
            CHECK(lp != NULL);
            if (!lp) continue;
            int n = lp->n;
            lcp_solve_opts o = *lcp_api_settings_opts(s);
            lcp_solve_out u;
            CHECK(lcp_pipeline_solve(lp, &o, NULL, 0, NULL, &u, &e) == 0);
            lcps_result r, q;
            double x[30], w[30];
            int rc = lcps_solve(ps[k], s, NULL, &r, err, sizeof err);
            int rq = lcps_solve_into(ps[k], s, NULL, x, w, &q, err, sizeof err);
            CHECK(rc == lcps_status_exit_code((int)u.status) && rq == rc && r.status == (int)u.status &&
                  q.status == r.status);
            CHECK(k < 2 ? r.status == LCPS_SOLVED : r.status == LCPS_NO_SOLUTION);
            CHECK(r.iterations == u.iterations && q.iterations == u.iterations && u.solver &&
                  !strcmp(r.solver, u.solver->name) && !strcmp(q.solver, want[k]) && !strcmp(r.solver, want[k]));
            CHECK(!strcmp(r.auto_reason, lcp_solve_out_reason(&u)) && !strcmp(q.auto_reason, r.auto_reason) &&
                  (named ? !*r.auto_reason : strstr(r.auto_reason, want[k]) != NULL));
            CHECK(!strcmp(r.message, u.message) && !strcmp(r.precond, "none") && r.components == 1);
            CHECK(r.residual == u.m.residual && q.residual == u.m.residual &&
                  r.complementarity == u.m.complementarity && r.feasibility == u.m.feasibility);
            CHECK(r.n == n && r.x && u.x && !memcmp(r.x, u.x, (size_t)n * sizeof *x) && r.w && u.w &&
                  !memcmp(r.w, u.w, (size_t)n * sizeof *w) && !q.x && !q.w);
            if (k < 2) CHECK(!memcmp(x, u.x, (size_t)n * sizeof *x) && !memcmp(w, u.w, (size_t)n * sizeof *w));
            lcps_result_free(&q);
            lcps_result_free(&r);
            lcp_solve_out_free(&u);
            lcps_settings_free(s);
        }
    for (int k = 0; k < 3; k++) lcps_problem_free(ps[k]);
}

int main(void)
{
    test_bad_arguments();
    test_lcp();
    test_solve_into();
    test_small_lane();
    test_limits();
    test_callback();
    test_warm();
    test_kinds();
    test_threads();
    test_update();
    test_update_auto();
    test_symbolic();
    test_generate();
    test_registry();
    CHECK_DONE();
}
