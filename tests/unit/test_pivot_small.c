/* tests/unit/test_pivot_small.c: pivot's small path (src/solvers/pivot_small.h):
 * block principal pivoting for problems of up to LCP_SMALL_N (1,024)
 * unknowns, run by the pipeline before any set-up up to LCP_SMALL_LANE_N
 * (128), beyond by pivot's solve itself; symmetric blocks by L D L' over
 * their profile, others by LU.
 *
 * - Random P-matrices (not symmetric: a dominant positive diagonal) of 1 to
 *   16 unknowns: solved, residual <= 1e-12, x that of lemke (a P-matrix LCP
 *   has one solution).
 * - Random SPD blcps with every kind of row (lo = 0, finite box, free,
 *   fixed lo = hi, only an upper bound): solved, x that of pivot's general
 *   path (one solution).
 * - Friction rows (findex): a stack of random contacts with mu 0.5, solved
 *   to a verified residual.
 * - Rank-deficient PSD problems (x* and w* chosen, b = w* - A x*): a block
 *   singular to working precision sends its dependent rows to a bound;
 *   where the path says solved (up to 16 unknowns: at least half), the
 *   residual verifies it (it may stop short: the general path takes those);
 *   up to 128 unknowns the pipeline solves every one, the small path
 *   stopping within its 36 steps; a pyramid of boxes (16 rows, four
 *   contacts a face) in at most 3 steps; one of 64 rows stops the path at
 *   its first (singular) block, and auto's choice (not lemke) solves it.
 * - Columns of 32 and 64 spheres (banded blocks: the profile): one step,
 *   the answer of pivot's general path; with b perturbed (contacts
 *   separating), at most 4 steps a solve on average (a Z-matrix: every
 *   row starts free).
 * - A symmetric matrix that is not semidefinite ([1 2; 2 1]): L D L' meets
 *   a negative pivot, the LU solves the block.
 * - Murty's problem of 16 unknowns (exponential for Murty's least-index
 *   rule alone): solved within the cap; from a warm start at the solution,
 *   one step; with max_steps 1 from zero, not solved.
 * - Hostile values (NaN, infinities, 1e300), in symmetric matrices too, of
 *   1 to 128 unknowns and 200 draws of 1 to 4: no crash, and what the path
 *   says solved verifies (the draws of 1 to 4 found two answers that did
 *   not: a row's w lost to cancellation near 1e300, checked in another
 *   order than the verification's; a friction row whose findex row ended
 *   below 0, on the other bound than its set said).
 * - Banded unsymmetric positive definite matrices (weak diagonal: row
 *   exchanges) of up to 128 unknowns: the LU over the band gives the
 *   general path's answer.
 * - Dense SPD problems in a box, up to 128 unknowns (the free set
 *   growing a layer a step, the leading rows of L D L' kept): the general
 *   path's answer; in a tight box, the start at the bounds their rows
 *   alone reach: 1 or 2 steps.
 * - Matrices symmetric but for one entry (changed, or stored on one side
 *   only), rows full and banded: each solved by the LU (L D L' would read
 *   another matrix), the answer of pivot's general path.
 * - Problems of 1 to 4 unknowns of every family, from scratch and from
 *   warm starts: P-matrices, SPD
 *   boxes and Z-matrices solved as pivot's general path solves them; PSD
 *   of half rank and symmetric indefinite matrices verified where said
 *   solved, solved by the pipeline; symmetric blocks by L D L', others
 *   by LU.
 * - Through the pipeline: -s pivot and auto on a small problem take the
 *   small path (auto's reason says so), a problem of 129 unknowns does not; a
 *   matrix that is neither P nor PSD (lcp_CPS_2's) stops the small path,
 *   and auto solves it by lemke before any choice.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dense_problem.h"
#include "core/pipeline.h"
#include "core/verify.h"
#include "scenes/scenes.h"
#include "solvers/pivot_small.h"

#define SN LCP_SMALL_LANE_N /* the sizes most tests here take (the lane's; beyond it: pipeline()) */

static unsigned long long rng = 88172645463325252ULL;
/* The pipeline's answer with solver (and crash none where general: pivot's general path). */
static int solve_with(const lcp_problem *p, const char *solver, int general, const double *x0, lcp_solve_out *out)
{
    lcp_solve_opts o;
    lcp_solve_opts_default(&o);
    o.solver = solver;
    o.s.tol = 1e-12;
    if (general) o.s.crash.mode = LCP_CRASH_NONE;
    lcp_err e = {{0}};
    return lcp_pipeline_solve(p, &o, x0, x0 ? p->n : 0, NULL, out, &e);
}

static double maxdiff(const double *x, const double *y, int n)
{
    double d = 0, s = 1;
    for (int i = 0; i < n; i++) d = fmax(d, fabs(x[i] - y[i])), s = fmax(s, fabs(y[i]));
    return d / s;
}

static void random_p(void)
{
    int solved = 0, tries = 0, same = 0, exact = 0;
    for (int n = 1; n <= SN; n++)
        for (int t = 0; t < 12; t++, tries++) {
            double a[SN * SN], b[SN], x[SN];
            for (int i = 0; i < n; i++) {
                b[i] = dense_unif(&rng);
                for (int j = 0; j < n; j++) a[n * i + j] = i == j ? n + 0.5 * dense_unif(&rng) : dense_unif(&rng);
            }
            lcp_problem p;
            make(&p, n, a, b, NULL, NULL, NULL, 0);
            int steps = 0;
            if (lcp_pivot_small(&p, NULL, 1e-14, 0, x, &steps)) {
                solved++;
                exact += dense_residual(&p, x) <= 1e-12;
                lcp_solve_out l;
                if (!solve_with(&p, "lemke", 0, NULL, &l) && l.status == LCP_SOLVED) same += maxdiff(x, l.x, n) <= 1e-9;
                lcp_solve_out_free(&l);
            }
            lcp_problem_free(&p);
        }
    printf("random P-matrices: %d of %d solved, %d to 1e-12, %d as lemke\n", solved, tries, exact, same);
    CHECK(solved == tries && exact == tries && same == tries);
}

static void random_box(void)
{
    int solved = 0, tries = 0, same = 0;
    for (int n = 2; n <= SN; n += 2)
        for (int t = 0; t < 10; t++, tries++) {
            double g[SN * SN], a[SN * SN], b[SN], lo[SN],
                hi[SN], x[SN];
            for (int i = 0; i < n * n; i++) g[i] = dense_unif(&rng);
            for (int i = 0; i < n; i++) {
                b[i] = 2 * dense_unif(&rng);
                for (int j = 0; j < n; j++) {
                    double s = i == j ? 0.1 : 0.0;
                    for (int k = 0; k < n; k++) s += g[n * i + k] * g[n * j + k];
                    a[n * i + j] = s;
                }
                switch (i % 5) { /* every kind of row */
                case 0: lo[i] = 0, hi[i] = INFINITY; break;
                case 1: lo[i] = -0.3, hi[i] = 0.4; break;
                case 2: lo[i] = -INFINITY, hi[i] = INFINITY; break;
                case 3: lo[i] = hi[i] = 0.2; break;
                default: lo[i] = -INFINITY, hi[i] = 0.1; break;
                }
            }
            lcp_problem p;
            make(&p, n, a, b, lo, hi, NULL, 0);
            int steps = 0;
            if (lcp_pivot_small(&p, NULL, 1e-14, 0, x, &steps) && dense_residual(&p, x) <= 1e-12) {
                solved++;
                lcp_solve_out g2;
                if (!solve_with(&p, "pivot", 1, NULL, &g2) && g2.status == LCP_SOLVED) same += maxdiff(x, g2.x, n) <= 1e-8;
                lcp_solve_out_free(&g2);
            }
            lcp_problem_free(&p);
        }
    printf("random SPD boxes: %d of %d solved, %d as pivot's general path\n", solved, tries, same);
    CHECK(solved == tries && same == tries);
}

static void friction(void)
{
    int solved = 0, tries = 0;
    for (int c = 1; c <= SN / 3; c++)
        for (int t = 0; t < 10; t++, tries++) {
            int n = 3 * c, fi[SN];
            double g[SN * SN], a[SN * SN], b[SN], x[SN];
            for (int i = 0; i < n * n; i++) g[i] = dense_unif(&rng);
            for (int i = 0; i < n; i++) {
                fi[i] = i % 3 ? i - i % 3 : -1;
                b[i] = i % 3 ? 0.5 * dense_unif(&rng) : -fabs(dense_unif(&rng)) - 0.1; /* each contact pressed */
                for (int j = 0; j < n; j++) {
                    double s = i == j ? 0.05 : 0.0;
                    for (int k = 0; k < n; k++) s += g[n * i + k] * g[n * j + k];
                    a[n * i + j] = s;
                }
            }
            double lo[SN], hi[SN];
            for (int i = 0; i < n; i++) lo[i] = 0, hi[i] = INFINITY;
            lcp_problem p;
            make(&p, n, a, b, lo, hi, fi, 0.5);
            int steps = 0;
            if (lcp_pivot_small(&p, NULL, 1e-14, 0, x, &steps) && dense_residual(&p, x) <= 1e-10) solved++;
            lcp_problem_free(&p);
        }
    printf("friction rows (findex, mu 0.5): %d of %d solved\n", solved, tries);
    CHECK(solved >= tries * 9 / 10);
}

static void rank_deficient(void)
{
    int said = 0, verified = 0, tries = 0, pipeline = 0, said16 = 0, tries16 = 0, capped = 1;
    for (int n = 2; n <= SN; n += n < 16 ? 2 : 8)
        for (int t = 0; t < 10; t++, tries++) {
            int m = n / 2; /* A = J J', rank n / 2 */
            double j[SN * SN], a[SN * SN], b[SN], xs[SN],
                x[SN];
            for (int i = 0; i < n * m; i++) j[i] = dense_unif(&rng);
            for (int i = 0; i < n; i++) {
                xs[i] = i % 2 ? fabs(dense_unif(&rng)) : 0.0;
                for (int k = 0; k < n; k++) {
                    double s = 0;
                    for (int l = 0; l < m; l++) s += j[m * i + l] * j[m * k + l];
                    a[n * i + k] = s;
                }
            }
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (int k = 0; k < n; k++) s += a[n * i + k] * xs[k];
                b[i] = (i % 2 ? 0.0 : fabs(dense_unif(&rng))) - s; /* w* = b + A x* complementary to x* */
            }
            lcp_problem p;
            make(&p, n, a, b, NULL, NULL, NULL, 0);
            int steps = 0;
            int ok = lcp_pivot_small(&p, NULL, 1e-14, 0, x, &steps);
            if (ok) said++, verified += dense_residual(&p, x) <= 1e-10;
            if (n <= 16) said16 += ok, tries16++;
            capped &= steps <= 36;
            lcp_solve_out o;
            if (!solve_with(&p, "auto", 0, NULL, &o)) pipeline += o.status == LCP_SOLVED;
            lcp_solve_out_free(&o);
            lcp_problem_free(&p);
        }
    printf("rank-deficient PSD: the small path solved %d of %d (%d verified; %d of %d up to 16 unknowns), the "
           "pipeline %d\n", said, tries, verified, said16, tries16, pipeline);
    CHECK(said16 >= tries16 / 2 && verified == said && pipeline == tries && capped);
    /* a pyramid of boxes (16 rows, four contacts a face: rank-deficient): every dependent row found by one
     * factorisation, so two steps */
    const char *pyr[] = {"base", "2", NULL};
    lcp_problem g;
    lcp_err ge = {{0}};
    lcp_problem_init(&g);
    CHECK(lcp_generate_problem("pyramid", pyr, &g, &ge) == 0 && g.n == 16);
    double xg[SN];
    int gsteps = 0;
    CHECK(lcp_pivot_small(&g, NULL, 1e-14, 0, xg, &gsteps) && gsteps <= 3 && dense_residual(&g, xg) <= 1e-12);
    printf("pyramid of boxes, base 2 (n = %d): %d steps\n", g.n, gsteps);
    lcp_problem_free(&g);
    const char *pyr4[] = {"base", "4", NULL};
    double x4[SN];
    lcp_problem_init(&g);
    CHECK(lcp_generate_problem("pyramid", pyr4, &g, &ge) == 0 && g.n == 64);
    CHECK(!lcp_pivot_small(&g, NULL, 1e-14, 0, x4, &gsteps) && gsteps == 1); /* more than 16: the first singular
                                                                             * block stops the path */
    lcp_solve_out q4;
    CHECK(solve_with(&g, "auto", 0, NULL, &q4) == 0 && q4.status == LCP_SOLVED && strcmp(q4.solver->name, "lemke") &&
          strstr(lcp_solve_out_reason(&q4), "small path") == NULL);
    printf("pyramid of boxes, base 4 (n = %d): stopped after %d step; auto: %s\n", g.n, gsteps, q4.solver->name);
    lcp_solve_out_free(&q4);
    lcp_problem_free(&g);
    /* lcp_CPS_1 (Cottle, Pang and Stone, remark 4.1.14): A = [1 1; 1 1], b = -1: x_1 + x_2 = 1 */
    double a[4] = {1, 1, 1, 1}, b[2] = {-1, -1}, x[2];
    lcp_problem p;
    make(&p, 2, a, b, NULL, NULL, NULL, 0);
    int steps = 0;
    CHECK(lcp_pivot_small(&p, NULL, 1e-14, 0, x, &steps) && fabs(x[0] + x[1] - 1) < 1e-15 && x[0] >= 0 && x[1] >= 0);
    lcp_problem_free(&p);
}

/* columns of resting spheres: a banded symmetric block, factored over its profile in one step */
static void columns(void)
{
    for (int bodies = 32; bodies <= 64; bodies *= 2) {
        char nb[8];
        snprintf(nb, sizeof nb, "%d", bodies);
        const char *args[] = {"bodies", nb, NULL};
        lcp_problem g;
        lcp_err ge = {{0}};
        lcp_problem_init(&g);
        CHECK(lcp_generate_problem("column", args, &g, &ge) == 0 && g.n == bodies);
        double x[SN];
        int steps = 0;
        CHECK(lcp_pivot_small(&g, NULL, 1e-14, 0, x, &steps) && steps == 1 && dense_residual(&g, x) <= 1e-12);
        lcp_solve_out q;
        CHECK(solve_with(&g, "pivot", 1, NULL, &q) == 0 && q.status == LCP_SOLVED && maxdiff(x, q.x, g.n) <= 1e-12);
        printf("column of %d spheres: %d step\n", bodies, steps);
        lcp_solve_out_free(&q);
        /* b perturbed (contacts approaching and separating at up to 0.02 m/s, gravity's step 0.098): A a
         * Z-matrix, the start every row free -- from the bound the load would reach the contacts below a step at
         * a time (measured apart: 147 and 238 steps in these 20 solves, against 25 and 53) */
        int zsteps = 0, most = 0;
        for (int t = 0; t < 20; t++) {
            for (int i = 0; i < g.n; i++) g.b[i] = (i == 0 ? -0.0981 : 0.0) + 0.02 * dense_unif(&rng);
            CHECK(lcp_pivot_small(&g, NULL, 1e-14, 0, x, &steps) && dense_residual(&g, x) <= 1e-12);
            CHECK(solve_with(&g, "pivot", 1, NULL, &q) == 0 && maxdiff(x, q.x, g.n) <= 1e-10);
            lcp_solve_out_free(&q);
            zsteps += steps, most = steps > most ? steps : most;
        }
        printf("column of %d spheres, b perturbed: %d steps in 20 solves, at most %d\n", bodies, zsteps, most);
        CHECK(zsteps <= 4 * 20);
        lcp_problem_free(&g);
    }
    /* symmetric, not semidefinite: L D L' meets d = 1 - 4 < 0, the LU solves A x = 1 (x = 1/3, 1/3, w = 0) */
    double a[4] = {1, 2, 2, 1}, b[2] = {-1, -1}, x[2];
    lcp_problem p;
    make(&p, 2, a, b, NULL, NULL, NULL, 0);
    int steps = 0;
    CHECK(lcp_pivot_small(&p, NULL, 1e-14, 0, x, &steps) && steps == 1 && fabs(x[0] - 1.0 / 3) < 1e-15 &&
          fabs(x[1] - 1.0 / 3) < 1e-15);
    lcp_problem_free(&p);
}

static int small_agrees(lcp_problem *p, double res, double tol, int *steps);

/* Sparse symmetric problems beyond the stack's 64 unknowns, up to 700 (the block stored over its profile,
 * row after row, in the thread's scratch): a band with gaps (entries at distances 1, 3 and 17, diagonally
 * dominant: SPD), b of either sign, every third row in a box -- the small path's answer is the general
 * path's (one solution), its residual at the rounding; a column of 300 spheres in one step */
static void sparse_profiles(void)
{
    static double a[700 * 700];
    double b[700], lo[700], hi[700], x[700];
    const int sizes[] = {100, 300, 700};
    int ok = 0, tries = 0;
    for (int si = 0; si < 3; si++)
        for (int t = 0; t < 2; t++, tries++) {
            int n = sizes[si];
            memset(a, 0, (size_t)n * n * sizeof *a);
            for (int i = 0; i < n; i++)
                for (int d = 1; d <= 17; d += d == 1 ? 2 : 14) /* (distances 1, 3, 17) */
                    if (i >= d) a[n * i + i - d] = a[n * (i - d) + i] = 0.5 * dense_unif(&rng);
            for (int i = 0; i < n; i++) {
                double sum = 0.0;
                for (int j = 0; j < n; j++) sum += j != i ? fabs(a[n * i + j]) : 0.0;
                a[n * i + i] = sum + 0.1 + 0.5 * (dense_unif(&rng) + 1);
                b[i] = dense_unif(&rng);
                lo[i] = i % 3 ? 0.0 : -0.2;
                hi[i] = i % 3 ? INFINITY : 0.2;
            }
            lcp_problem p;
            make(&p, n, a, b, lo, hi, NULL, 0);
            CHECK(lcp_csr_nnz(&p.A) < (long)n * n / 4); /* (sparse: the profile's path, not the dense one) */
            int steps;
            long ldl0, lu0, ldl1, lu1;
            lcp_pivot_small_counts(&ldl0, &lu0);
            int agrees = small_agrees(&p, 1e-10, 1e-8, &steps);
            lcp_pivot_small_counts(&ldl1, &lu1);
            CHECK(ldl1 - ldl0 == steps && lu1 == lu0); /* every block by L D L' (SPD: no negative pivot) */
            if (agrees) ok++;
            else fprintf(stderr, "sparse_profiles: n %d: steps %d\n", n, steps);
        }
    printf("sparse symmetric boxes of 100-700 unknowns (profile storage): %d of %d, the general path's answer\n", ok,
           tries);
    CHECK(ok == tries);
    const char *args[] = {"bodies", "300", NULL};
    lcp_problem g;
    lcp_err ge = {{0}};
    lcp_problem_init(&g);
    CHECK(lcp_generate_problem("column", args, &g, &ge) == 0 && g.n == 300);
    int steps = 0;
    CHECK(lcp_pivot_small(&g, NULL, 1e-14, 0, x, &steps) && steps == 1 && dense_residual(&g, x) <= 1e-12);
    lcp_problem_free(&g);
}

static void murty_and_starts(void)
{
    enum { N = 16 }; /* (of 64, Murty's rule would need more than the cap: the general path takes it) */
    double a[N * N], b[N], x[N], x2[N];
    for (int i = 0; i < N; i++) {
        b[i] = -1;
        for (int j = 0; j < N; j++) a[N * i + j] = i == j ? 1 : j < i ? 2 : 0;
    }
    lcp_problem p;
    make(&p, N, a, b, NULL, NULL, NULL, 0);
    int steps = 0, warm = 0, one = 0;
    CHECK(lcp_pivot_small(&p, NULL, 1e-14, 0, x, &steps) && dense_residual(&p, x) == 0 && fabs(x[0] - 1) == 0);
    CHECK(steps == 1); /* (lower triangular: the triangular pass) */
    CHECK(lcp_pivot_small(&p, x, 1e-14, 0, x2, &warm) && warm == 1 && maxdiff(x2, x, N) == 0);
    printf("Murty's problem, n = %d: %d steps; from the solution %d\n", N, steps, warm);
    lcp_problem_free(&p);
    /* transposed (upper triangular): the triangular pass too; with one entry below the diagonal (still P: the
     * leading 2 x 2 block's determinant 0.5) beyond the cap of Dantzig and Cottle's method (dantzig_small.h) the
     * block steps take it, and stop at the cap asked */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) a[N * i + j] = i == j ? 1 : j > i ? 2 : 0;
    make(&p, N, a, b, NULL, NULL, NULL, 0);
    steps = 0;
    CHECK(lcp_pivot_small(&p, NULL, 1e-14, 0, x, &steps) && dense_residual(&p, x) == 0 && steps == 1);
    lcp_problem_free(&p);
    a[N * 1 + 0] = 0.25;
    make(&p, N, a, b, NULL, NULL, NULL, 0);
    steps = 0;
    CHECK(lcp_pivot_small(&p, NULL, 1e-14, 0, x, &steps) && dense_residual(&p, x) <= 1e-14 && steps > 1 &&
          steps <= 2 * N + 4);
    CHECK(!lcp_pivot_small(&p, NULL, 1e-14, 1, x2, &one) && one == 1);
    printf("Murty's problem transposed, one entry below the diagonal, n = %d: %d steps\n", N, steps);
    lcp_problem_free(&p);
}

static void pipeline(void)
{
    /* up to the lane's size auto takes the small path before any choice (its reason says so), the same steps
     * as pivot; beyond, auto chooses, and pivot runs the small path itself up to LCP_SMALL_N (a few block
     * steps where the scheme from scratch pivots a row at a time: some 100), beyond that the scheme alone
     * (which names its start) */
    static double a[(LCP_SMALL_N + 1) * (LCP_SMALL_N + 1)], b[LCP_SMALL_N + 1];
    const int sizes[] = {SN, SN + 1, LCP_SMALL_N, LCP_SMALL_N + 1};
    for (int k = 0; k < 4; k++) {
        int n = sizes[k];
        for (int i = 0; i < n; i++) {
            b[i] = dense_unif(&rng);
            for (int j = 0; j < n; j++) a[n * i + j] = i == j ? 4.0 : 1.0 / (2 + i + j);
        }
        lcp_problem p;
        make(&p, n, a, b, NULL, NULL, NULL, 0);
        lcp_solve_out o, q, c;
        CHECK(solve_with(&p, "auto", 0, NULL, &o) == 0 && o.status == LCP_SOLVED);
        CHECK(solve_with(&p, "pivot", 0, NULL, &q) == 0 && q.status == LCP_SOLVED && !strcmp(q.solver->name, "pivot"));
        CHECK(solve_with(&p, "pivot", 1, NULL, &c) == 0 && c.status == LCP_SOLVED); /* the scheme alone */
        int small = strstr(lcp_solve_out_reason(&o), "small path") != NULL;
        CHECK(n <= SN ? small && !strcmp(o.solver->name, "pivot") && o.iterations == q.iterations : !small);
        /* (the scheme names its start in the message: beyond LCP_SMALL_N a dense one of 1,025 takes ipm's guess) */
        CHECK(n <= LCP_SMALL_N ? q.iterations <= 5 && c.iterations > 20 && !*q.message
                               : strstr(q.message, "crash start") != NULL);
        printf("n = %d: pivot %d steps (the scheme alone: %d pivots); auto %s%s%s%s\n", n, q.iterations, c.iterations,
               o.solver->name, small ? " by the small path" : "", *q.message ? "; pivot: " : "", q.message);
        CHECK(maxdiff(o.x, q.x, n) <= 1e-10 && maxdiff(c.x, q.x, n) <= 1e-10);
        lcp_solve_out_free(&o);
        lcp_solve_out_free(&q);
        lcp_solve_out_free(&c);
        lcp_problem_free(&p);
    }
    /* lcp_CPS_2 (Cottle, Pang and Stone, example 4.4.7): neither P nor PSD -- the small path stops, auto solves */
    double c[9] = {0, 2, -1, -1, 0, 1, 2, -2, 0}, bc[3] = {-3, 6, -1}, x[3];
    lcp_problem p;
    make(&p, 3, c, bc, NULL, NULL, NULL, 0);
    int steps = 0;
    int said = lcp_pivot_small(&p, NULL, 1e-14, 0, x, &steps);
    CHECK(!said || dense_residual(&p, x) <= 1e-12);
    lcp_solve_out o;
    CHECK(solve_with(&p, "auto", 0, NULL, &o) == 0 && o.status == LCP_SOLVED && o.m.residual <= 1e-12);
    CHECK(!said && !strcmp(o.solver->name, "lemke") && strstr(lcp_solve_out_reason(&o), "did not solve") != NULL);
    printf("lcp_CPS_2: the small path %s; auto: %s\n", said ? "solved it" : "stopped", o.solver->name);
    lcp_solve_out_free(&o);
    lcp_problem_free(&p);
}

/* Hostile values (NaN, infinities, 1e300, 1e-300, zeros, findex on any row): no crash, no read out of
 * bounds (the sanitizer tier runs this), and an answer said solved verifies to its threshold's order. */
static void hostile(void)
{
    const double vals[] = {0.0, 1.0, -1.0, 1e300, -1e300, 1e-300, NAN, INFINITY, -INFINITY, 0.5};
    int said = 0, bad = 0, runs = 0;
    for (int t = 0; t < 600; t++, runs++) { /* (the last 200 of 1 to 4 unknowns) */
        int n = 1 + (int)((dense_unif(&rng) + 1) * 0.5 * SN) % SN, fi[SN];
        if (t >= 400) n = 1 + t % 4;
        double a[SN * SN], b[SN], lo[SN], hi[SN], x[SN];
        for (int i = 0; i < n * n; i++) a[i] = dense_unif(&rng) < 0.6 ? dense_unif(&rng) : vals[(int)((dense_unif(&rng) + 1) * 5) % 10];
        if (t % 5 == 0) /* symmetric: the L D L' path */
            for (int i = 0; i < n; i++)
                for (int j = 0; j < i; j++) a[n * j + i] = a[n * i + j];
        for (int i = 0; i < n; i++) {
            a[n * i + i] = fabs(a[n * i + i]) + (t % 3 ? 1.0 : 0.0);
            b[i] = dense_unif(&rng) < 0.8 ? dense_unif(&rng) : vals[(int)((dense_unif(&rng) + 1) * 5) % 10];
            lo[i] = dense_unif(&rng) < 0.5 ? 0.0 : -fabs(dense_unif(&rng));
            hi[i] = dense_unif(&rng) < 0.5 ? INFINITY : lo[i] + fabs(dense_unif(&rng));
            fi[i] = i > 0 && dense_unif(&rng) < 0.3 ? (int)((dense_unif(&rng) + 1) * 0.5 * i) % i : -1;
        }
        for (int i = 0; i < n; i++)
            if (fi[i] >= 0 && fi[fi[i]] >= 0) fi[i] = -1;
        lcp_problem p;
        build(&p, n, a, b, t % 2 ? lo : NULL, t % 2 ? hi : NULL, t % 4 == 1 ? fi : NULL, 0.5);
        lcp_err e = {{0}};
        int steps = 0;
        if (!lcp_problem_finish(&p, &e) && lcp_pivot_small_fits(&p) && lcp_pivot_small(&p, NULL, 1e-12, 0, x, &steps)) {
            said++;
            double r = dense_residual(&p, x);
            bad += !(r <= 1e-6);
            if (!(r <= 1e-6)) {
                fprintf(stderr, "hostile draw %d (n %d, findex %d, box %d): said solved at residual %g after %d steps\n",
                        t, n, t % 4 == 1, t % 2, r, steps);
                for (int i = 0; i < n; i++) {
                    fprintf(stderr, "  row %d: b %g lo %g hi %g fi %d x %g | A:", i, b[i], t % 2 ? lo[i] : 0.0, t % 2 ? hi[i] : INFINITY, t % 4 == 1 ? fi[i] : -1, x[i]);
                    for (int j = 0; j < n; j++) fprintf(stderr, " %g", a[n * i + j]);
                    fprintf(stderr, "\n");
                }
            }
        }
        lcp_problem_free(&p);
    }
    printf("hostile values: %d runs, %d said solved, %d of those above 1e-6\n", runs, said, bad);
    CHECK(said > 0 && bad == 0);
}

/* p (finished) by the small path from zero and by pivot's general path:
 * 1 where the path says solved, its residual is at most res and its x the
 * general path's to within tol (relative); *steps the path's; p freed. */
static int small_agrees(lcp_problem *p, double res, double tol, int *steps)
{
    double *x = malloc((size_t)p->n * sizeof *x);
    lcp_solve_out g;
    *steps = 0;
    int said = x && lcp_pivot_small(p, NULL, 1e-14, 0, x, steps), grc = solve_with(p, "pivot", 1, NULL, &g);
    int ok = said && dense_residual(p, x) <= res && !grc && g.status == LCP_SOLVED && maxdiff(x, g.x, p->n) <= tol;
    lcp_solve_out_free(&g);
    lcp_problem_free(p);
    free(x);
    return ok;
}

/* Triangular A with a positive diagonal (lower, upper, diagonal; lcp and
 * blcp in a box; off the diagonal up to 2 / n, so that x does not grow as
 * Murty's; rows scaled 1e-4..1e4): one pass of substitution, the
 * general path's answer; a zero or negative diagonal entry, or findex,
 * is not taken by the pass (the block steps' answer, or none, as before). */
static void triangular(void)
{
    enum { M = 24 };
    double a[M * M], b[M], lo[M], hi[M], x[M];
    int ok = 0, tries = 0, one_pass = 0, other = 0, other_ok = 0;
    for (int shape = 0; shape < 3; shape++)
        for (int n = 1; n <= M; n += 3)
            for (int box = 0; box < 2; box++, tries++) {
                for (int i = 0; i < n; i++) {
                    double sc = pow(10.0, 4.0 * dense_unif(&rng));
                    b[i] = sc * dense_unif(&rng), lo[i] = -0.3, hi[i] = 0.4; /* (b_i scaled with its row: x of 1) */
                    for (int j = 0; j < n; j++) {
                        int on = shape == 0 ? j < i : shape == 1 ? j > i : 0;
                        a[n * i + j] = sc * (i == j ? 1.0 + dense_unif(&rng) * 0.5 : on ? 2.0 * dense_unif(&rng) / n : 0.0);
                    }
                }
                lcp_problem p;
                make(&p, n, a, b, box ? lo : NULL, box ? hi : NULL, NULL, 0);
                int steps = 0;
                if (small_agrees(&p, 1e-13, 1e-9, &steps)) ok++;
                else fprintf(stderr, "triangular: shape %d n %d box %d: steps %d\n", shape, n, box, steps);
                one_pass += steps == 1;
            }
    /* not taken: a zero diagonal entry (not P), a negative one, findex (bounds from a row not yet solved) */
    for (int kind = 0; kind < 3; kind++) {
        int n = 6;
        for (int i = 0; i < n; i++) {
            b[i] = -1.0 + 0.1 * i;
            for (int j = 0; j < n; j++) a[n * i + j] = i == j ? 2.0 : j < i ? 0.5 : 0.0;
        }
        if (kind == 0) a[n * 2 + 2] = 0.0;
        if (kind == 1) a[n * 3 + 3] = -1.0;
        int fx[6] = {-1, 0, 0, -1, 3, 3};
        lcp_problem p;
        make(&p, n, a, b, NULL, NULL, kind == 2 ? fx : NULL, 0.5);
        int steps = 0;
        double res = lcp_pivot_small(&p, NULL, 1e-14, 0, x, &steps) ? dense_residual(&p, x) : -1;
        other++;
        other_ok += res < 0 || (res <= 1e-12 && steps != 1) || (kind == 2 && res <= 1e-12);
        lcp_problem_free(&p);
    }
    printf("triangular A: %d of %d solved as the general path, %d in one pass; not P or findex: %d of %d handed on\n",
           ok, tries, one_pass, other_ok, other);
    CHECK(ok == tries && one_pass == tries && other_ok == other);
}

/* Matrices symmetric but for one entry, in each shape the path's
 * symmetry test walks (rows full: by position; sparse: the walk of each
 * row's lower part): an upper entry changed, a lower entry without its
 * upper one, an upper entry without its lower one.  L D L' reads the lower
 * part only, so a symmetric verdict on any of them would solve another
 * system: every answer must verify and equal pivot's general path's. */
static void near_symmetric(void)
{
    int ok = 0, tries = 0;
    for (int n = 3; n <= 40; n += 6)
        for (int shape = 0; shape < 2; shape++)
            for (int change = 0; change < 3; change++, tries++) {
                double a[40 * 40], b[40];
                for (int i = 0; i < n; i++) {
                    b[i] = dense_unif(&rng);
                    for (int j = 0; j < n; j++) a[n * i + j] = 0.0;
                }
                for (int i = 0; i < n; i++) /* SPD: diagonally dominant; shape 1 a band of width 2 */
                    for (int j = 0; j < i; j++)
                        if (!shape || i - j <= 2) a[n * i + j] = a[n * j + i] = shape ? 0.4 * dense_unif(&rng) : 0.8 * dense_unif(&rng) / n;
                for (int i = 0; i < n; i++) a[n * i + i] = 2.0;
                int i = n - 1, j = shape ? n - 2 : 0; /* an off-diagonal pair: (j, i) upper, (i, j) lower */
                if (change == 0) a[n * j + i] += 0.3;
                if (change == 1) a[n * i + j] = 0.3, a[n * j + i] = 0.0;
                if (change == 2) a[n * j + i] = 0.3, a[n * i + j] = 0.0;
                lcp_problem p;
                make(&p, n, a, b, NULL, NULL, NULL, 0);
                int steps;
                if (small_agrees(&p, 1e-12, 1e-9, &steps)) ok++;
                else fprintf(stderr, "near_symmetric: n %d shape %d change %d\n", n, shape, change);
            }
    CHECK(tries >= 30 && ok == tries);
}

/* Banded unsymmetric positive definite matrices (a banded Gram matrix
 * with a weak diagonal plus a banded skew part: a P-matrix, one solution,
 * the LU with row exchanges inside the band), of up to 128 unknowns: the
 * LU's search and updates over the band (lu_solve) give the answer of
 * pivot's general path. */
static void banded_unsymmetric(void)
{
    int ok = 0, tries = 0;
    static double a[SN * SN], g[SN * SN];
    const int sizes[] = {12, 40, 90, 128}, bands[] = {1, 2, 5};
    for (int si = 0; si < 4; si++)
        for (int bi = 0; bi < 3; bi++)
            for (int t = 0; t < 3; t++, tries++) {
                int n = sizes[si], w = bands[bi];
                double b[SN];
                for (int e = 0; e < n * n; e++) a[e] = g[e] = 0.0;
                for (int i = 0; i < n; i++) { /* G lower banded; A = G G' + 1e-2 I + (S - S'), S banded */
                    b[i] = dense_unif(&rng);
                    for (int j = i - w > 0 ? i - w : 0; j <= i; j++) g[n * i + j] = dense_unif(&rng);
                }
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < n; j++) {
                        double v = i == j ? 1e-2 : 0.0;
                        for (int q = 0; q < n; q++) v += g[n * i + q] * g[n * j + q];
                        a[n * i + j] = v;
                    }
                for (int i = 0; i < n; i++)
                    for (int j = i + 1; j <= i + w && j < n; j++) {
                        double v = 2.0 * dense_unif(&rng);
                        a[n * i + j] += v;
                        a[n * j + i] -= v;
                    }
                lcp_problem p;
                make(&p, n, a, b, NULL, NULL, NULL, 0);
                int steps;
                if (small_agrees(&p, 1e-10, 1e-7, &steps)) ok++;
                else fprintf(stderr, "banded_unsymmetric: n %d band %d\n", n, w);
            }
    printf("banded unsymmetric: %d of %d solved, the general path's answer\n", ok, tries);
    CHECK(ok == tries);
}

/* Dense SPD problems in a box, x in [-1, 1] (the unconstrained solution
 * partly outside, the free set growing by a layer a step): the steps keep
 * the leading rows of the block's L D L' (the rows free before, in their
 * order), and the answers are the general path's, at any size.  In a tight
 * box, [-0.05, 0.05] (the unconstrained solution far outside), the start
 * puts each row where its own 1 x 1 problem does (-w_i / a_ii beyond a
 * bound: at it), and most are solved in 1 or 2 steps (from every row free:
 * 4-7). */
/* a (n x n, row-major) = G G' / n + shift I, G's n x n entries uniform in [-1, 1) (drawn into g): dense SPD,
 * its condition set by shift */
static void gram(int n, double shift, double *a, double *g)
{
    for (int e = 0; e < n * n; e++) g[e] = dense_unif(&rng);
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double v = i == j ? shift * n : 0.0;
            for (int q = 0; q < n; q++) v += g[n * i + q] * g[n * j + q];
            a[n * i + j] = a[n * j + i] = v / n;
        }
}

static void dense_box_layers(void)
{
    static double a[SN * SN], g[SN * SN];
    const int sizes[] = {10, 32, 64, 100, 128};
    const double widths[] = {1.0, 0.05};
    for (int wi = 0; wi < 2; wi++) {
        int ok = 0, tries = 0, many = 0, few = 0;
        for (int si = 0; si < 5; si++)
            for (int t = 0; t < 3; t++, tries++) {
                int n = sizes[si];
                double b[SN], lo[SN], hi[SN];
                gram(n, 0.1, a, g);
                for (int i = 0; i < n; i++) b[i] = dense_unif(&rng), lo[i] = -widths[wi], hi[i] = widths[wi];
                lcp_problem p;
                make(&p, n, a, b, lo, hi, NULL, 0);
                int steps;
                if (small_agrees(&p, 1e-10, 1e-8, &steps)) ok++;
                else fprintf(stderr, "dense_box_layers: n %d: steps %d\n", n, steps);
                many += steps >= 3;
                few += steps <= 2;
            }
        printf("dense SPD in the box [-%g, %g]: %d of %d solved, the general path's answer (%d in 3 steps or more, %d "
               "in 1 or 2)\n", widths[wi], widths[wi], ok, tries, many, few);
        CHECK(ok == tries && (wi == 0 ? many >= tries / 2 : few >= tries / 2));
    }
}

/* Dense SPD problems of 32-128 unknowns, most rows free at the answer (b
 * mostly negative), conditioned about 1e1 and 1e6: the step of refinement
 * at the end leaves the residual within the rounding of w itself, in ulps
 * of max_i (|b_i| + sum_j |a_ij x_j|) (the size of the terms summed): each
 * below 1, their mean below 0.55 (here 0.28-0.59, mean 0.46; the L D L'
 * solve alone: up to 0.94, mean 0.67). */
static void dense_refined(void)
{
    static double a[SN * SN], g[SN * SN];
    const int sizes[] = {32, 64, 100, 128};
    int tries = 0, at_rounding = 0;
    double worst = 0.0, mean = 0.0;
    for (int si = 0; si < 4; si++)
        for (int t = 0; t < 6; t++, tries++) {
            int n = sizes[si];
            double b[SN], x[SN], shift = t % 2 ? 1e-6 : 0.1; /* condition about 1e6 or 1e1 */
            gram(n, shift, a, g);
            for (int i = 0; i < n; i++) b[i] = -1.0 + 0.3 * dense_unif(&rng);
            lcp_problem p;
            make(&p, n, a, b, NULL, NULL, NULL, 0);
            int steps = 0;
            double r = INFINITY, terms = 0.0, bmax = 1.0;
            if (lcp_pivot_small(&p, NULL, 1e-14, 0, x, &steps)) {
                r = dense_residual(&p, x);
                for (int i = 0; i < n; i++) {
                    double s = fabs(b[i]);
                    for (int j = 0; j < n; j++) s += fabs(a[n * i + j] * x[j]);
                    terms = fmax(terms, s);
                    bmax = fmax(bmax, fabs(b[i]));
                }
            }
            double ulps = r / (DBL_EPSILON * terms / bmax); /* (the residual is relative to max(1, |b|)) */
            worst = fmax(worst, ulps);
            at_rounding += ulps <= 1.0;
            mean += ulps / 24;
            lcp_problem_free(&p);
        }
    printf("dense SPD, most rows free: %d of %d within 1 ulp of w's terms, worst %.2g, mean %.2g\n", at_rounding,
           tries, worst, mean);
    CHECK(at_rounding == tries && mean <= 0.55);
}

/* Problems of 1 to 4 unknowns: every family, from scratch and from a warm start at a
 * bound or inside.  P-matrices, SPD boxes (every kind of row, fixed ones too) and Z-matrices (one answer): solved,
 * the answer of pivot's general path; PSD of half rank and symmetric indefinite matrices with a solution (b = w* -
 * A x*): what the path says solved verifies (1e-10), at least half of them; the pipeline (auto) solves every one
 * but the indefinite.  Symmetric blocks go by L D L', unsymmetric ones by LU (the thread's counts). */
static void tiny_sizes(void)
{
    int tries = 0, unique = 0, solved_unique = 0, same = 0, said = 0, verified = 0, pipeline = 0, warm = 0;
    long ldl0, lu0, ldl1, lu1;
    lcp_pivot_small_counts(&ldl0, &lu0);
    for (int n = 1; n <= 4; n++)
        for (int t = 0; t < 400; t++, tries++) {
            int fam = t % 5; /* 0 P unsymmetric, 1 SPD box, 2 PSD rank n / 2, 3 symmetric indefinite, 4 Z-matrix */
            double g[16], a[16], b[4], lo[4], hi[4], x[4], x0[4];
            for (int i = 0; i < n * n; i++) g[i] = dense_unif(&rng);
            for (int i = 0; i < n; i++) {
                b[i] = 2 * dense_unif(&rng);
                lo[i] = 0, hi[i] = INFINITY;
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    int m = fam == 2 ? (n + 1) / 2 : n;
                    for (int k = 0; k < m; k++) s += g[n * i + k] * g[n * j + k];
                    a[n * i + j] = fam == 0   ? (i == j ? n + 0.5 * dense_unif(&rng) : dense_unif(&rng))
                                   : fam == 3 ? 0.5 * (g[n * i + j] + g[n * j + i])
                                   : fam == 4 ? (i == j ? n + 0.5 : -fabs(g[n * i + j]))
                                              : s + (fam == 1 && i == j ? 0.1 : 0.0);
                }
                if (fam == 1) { /* every kind of row */
                    static const double L[4] = {0, -0.3, -INFINITY, 0.2}, H[4] = {INFINITY, 0.4, INFINITY, 0.2};
                    lo[i] = L[(i + t) % 4], hi[i] = H[(i + t) % 4];
                }
                x0[i] = (t / 5) % 3 == 0 ? 0.0 : (t / 5) % 3 == 1 ? lo[i] : 0.5 * dense_unif(&rng);
                if (!isfinite(x0[i])) x0[i] = 0.0;
            }
            if (fam == 2 || fam == 3) { /* b = w* - A x* for a complementary pair: a solution exists */
                double xs[4];
                for (int i = 0; i < n; i++) xs[i] = i % 2 ? fabs(dense_unif(&rng)) : 0.0;
                for (int i = 0; i < n; i++) {
                    double s = i % 2 ? 0.0 : fabs(dense_unif(&rng));
                    for (int j = 0; j < n; j++) s -= a[n * i + j] * xs[j];
                    b[i] = s;
                }
            }
            lcp_problem p;
            make(&p, n, a, b, fam == 1 ? lo : NULL, fam == 1 ? hi : NULL, NULL, 0);
            int steps = 0, start = (t / 5) % 3 != 0;
            warm += start;
            int ok = lcp_pivot_small(&p, start ? x0 : NULL, 1e-14, 0, x, &steps);
            if (fam <= 1 || fam == 4) {
                unique++;
                if (ok && dense_residual(&p, x) <= 1e-10) {
                    solved_unique++;
                    lcp_solve_out q;
                    if (!solve_with(&p, "pivot", 1, NULL, &q) && q.status == LCP_SOLVED) same += maxdiff(x, q.x, n) <= 1e-8;
                    lcp_solve_out_free(&q);
                }
            } else {
                said += ok;
                verified += ok && dense_residual(&p, x) <= 1e-10;
            }
            lcp_solve_out o;
            if (fam != 3 && !solve_with(&p, "auto", 0, NULL, &o)) pipeline += o.status == LCP_SOLVED;
            if (fam != 3) lcp_solve_out_free(&o);
            lcp_problem_free(&p);
        }
    lcp_pivot_small_counts(&ldl1, &lu1);
    printf("1 to 4 unknowns: %d problems (%d from a warm start); P, SPD boxes, Z: %d of %d solved, %d as pivot's "
           "general path; PSD and indefinite: %d said solved, %d verified; the pipeline %d; blocks by L D L' %ld, by "
           "LU %ld\n", tries, warm, solved_unique, unique, same, said, verified, pipeline, ldl1 - ldl0, lu1 - lu0);
    CHECK(solved_unique == unique && same == unique && verified == said && said >= (tries - unique) / 2 &&
          pipeline == tries - tries / 5 && ldl1 - ldl0 >= tries / 5 && lu1 - lu0 >= tries / 10);
}

int main(void)
{
    random_p();
    random_box();
    friction();
    rank_deficient();
    columns();
    sparse_profiles();
    murty_and_starts();
    pipeline();
    hostile();
    near_symmetric();
    banded_unsymmetric();
    dense_box_layers();
    dense_refined();
    triangular();
    tiny_sizes();
    printf("%d passed, %d failed, %d skipped\n", check_passed, check_failed, check_skipped);
    return check_failed ? 1 : 0;
}
