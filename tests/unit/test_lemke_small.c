/* tests/unit/test_lemke_small.c: lemke's path for tiny problems
 * (src/solvers/lemke_small.h): Lemke's method with B^-1 on the stack, the
 * pivots of lemke's dense path.
 *
 * - Random P-matrices (not symmetric), positive semidefinite matrices (a
 *   Gram matrix plus a skew part: copositive-plus) and bimatrix games
 *   (A = [0 P; Q' 0], P and Q positive, b = -1: zero diagonal, neither P
 *   nor semidefinite) of 1 to 16 unknowns: where the path says solved, the
 *   answer verifies, equals the answer of lemke's general solve, in as
 *   many pivots; on the P-matrices and the semidefinite ones it says
 *   solved wherever lemke's general solve does (a game's tied start ends
 *   Lemke's method on a ray: the general solve decides those by
 *   enumeration, the path leaves them to it).  A problem without solution
 *   (b < 0, A <= 0): no answer.
 * - Hostile values (NaN, infinities) and what it does not take (17
 *   unknowns, a blcp): no answer, no crash.
 * - Through the pipeline: auto on lcp_CPS_2 of the Siconos collection
 *   (Cottle, Pang and Stone, example 4.4.7: zero diagonal) and on copies
 *   with b perturbed stops pivot's small path and takes lemke's tiny one
 *   (the reason says lemke; the answer and pivots of lemke's general
 *   solve).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dense_problem.h"
#include "core/pipeline.h"
#include "core/verify.h"
#include "solvers/lemke_small.h"

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;

enum { P_MATRIX, PSD, GAME, FAMILIES };

/* A of family f, n x n row-major, and b */
static void family(int f, int n, double *a, double *b)
{
    for (int i = 0; i < n; i++) {
        b[i] = dense_unif(&rng);
        for (int j = 0; j < n; j++) a[n * i + j] = 0.0;
    }
    if (f == P_MATRIX) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) a[n * i + j] = i == j ? n + 0.5 * dense_unif(&rng) : dense_unif(&rng);
    } else if (f == PSD) { /* G G' (rank about n / 2) + S - S' */
        int r = n / 2 + 1;
        double g[16 * 9];
        for (int e = 0; e < n * r; e++) g[e] = dense_unif(&rng);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double t = 0.0;
                for (int k = 0; k < r; k++) t += g[i * r + k] * g[j * r + k];
                a[n * i + j] = t;
            }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < i; j++) {
                double s = dense_unif(&rng);
                a[n * i + j] += s;
                a[n * j + i] -= s;
            }
    } else { /* a bimatrix game: rows 0..h-1 against h..n-1 */
        int h = n / 2 > 0 ? n / 2 : 1;
        for (int i = 0; i < n; i++) {
            b[i] = -1.0;
            for (int j = 0; j < n; j++)
                if ((i < h) != (j < h)) a[n * i + j] = 1.5 + dense_unif(&rng);
        }
    }
}

static void families(void)
{
    const char *names[FAMILIES] = {"P-matrices", "semidefinite", "games"};
    for (int f = 0; f < FAMILIES; f++) {
        int tries = 0, said = 0, agree = 0, solved_general = 0, wrong = 0;
        for (int n = f == GAME ? 2 : 1; n <= LCP_LEMKE_SMALL_N; n++)
            for (int t = 0; t < 10; t++, tries++) {
                double a[16 * 16], b[16], x[16];
                family(f, n, a, b);
                lcp_problem p;
                make(&p, n, a, b, NULL, NULL, NULL, 0);
                lcp_solve_out g;
                int pivots = 0, ok = lcp_lemke_small(&p, x, &pivots);
                int grc = dense_lemke(&p, 1e-9, &g);
                int gok = !grc && g.status == LCP_SOLVED;
                solved_general += gok;
                if (ok) {
                    said++;
                    double d = 0.0, sc = 1.0;
                    for (int i = 0; gok && i < n; i++) d = fmax(d, fabs(x[i] - g.x[i])), sc = fmax(sc, fabs(g.x[i]));
                    if (dense_residual(&p, x) <= 1e-9 && gok && d <= 1e-9 * sc && pivots == g.iterations) agree++;
                    else wrong++;
                }
                lcp_solve_out_free(&g);
                lcp_problem_free(&p);
            }
        printf("%s: %d problems, the tiny path solved %d (lemke's general solve %d), %d the same answer in as "
               "many pivots\n",
               names[f], tries, said, solved_general, agree);
        CHECK(wrong == 0 && agree == said);
        if (f != GAME) CHECK(said == solved_general && said == tries);
    }
}

static void no_solution(void)
{
    double a[4] = {-1, -1, -1, -1}, b[2] = {-1, -1}, x[2];
    lcp_problem p;
    make(&p, 2, a, b, NULL, NULL, NULL, 0);
    int pivots = 0;
    CHECK(!lcp_lemke_small(&p, x, &pivots)); /* w = A z + b < 0 for every z >= 0: a ray */
    lcp_problem_free(&p);
}

static void hostile(void)
{
    double a[9] = {2, 1, 0, 1, 2, 1, 0, 1, 2}, b[3] = {-1, 1, -1}, x[17];
    int pivots = 0;
    CHECK(dense_hostile_said(a, b, lcp_lemke_small) == 0); /* NaN and infinities */
    double big[17 * 17] = {0}, b17[17];
    for (int i = 0; i < 17; i++) big[17 * i + i] = 1.0, b17[i] = -1.0;
    lcp_problem p;
    make(&p, 17, big, b17, NULL, NULL, NULL, 0);
    CHECK(!lcp_lemke_small(&p, x, &pivots)); /* more than LCP_LEMKE_SMALL_N */
    lcp_problem_free(&p);
    double lo[3] = {-1, -1, -1};
    make(&p, 3, a, b, lo, NULL, NULL, 0);
    CHECK(!lcp_lemke_small(&p, x, &pivots)); /* a blcp */
    lcp_problem_free(&p);
}

static void pipeline(void)
{
    const double a[9] = {0, 2, -1, -1, 0, 1, 2, -2, 0}, b0[3] = {-3, 6, -1};
    int tiny = 0, same = 0, tries = 0;
    for (int t = 0; t < 20; t++) {
        double b[3];
        for (int i = 0; i < 3; i++) b[i] = b0[i] * (t ? 1.0 + 0.2 * dense_unif(&rng) : 1.0);
        lcp_problem p;
        make(&p, 3, a, b, NULL, NULL, NULL, 0);
        lcp_solve_opts o;
        lcp_solve_opts_default(&o);
        o.solver = "auto";
        o.s.tol = 1e-9;
        lcp_solve_out out, g;
        lcp_err e = {{0}};
        if (!dense_lemke(&p, 1e-9, &g) && g.status == LCP_SOLVED && !strstr(g.message, "enumeration")) { /* plain lemke */
            tries++;
            int rc = lcp_pipeline_solve(&p, &o, NULL, 0, NULL, &out, &e);
            tiny += !rc && out.status == LCP_SOLVED && out.m.residual <= 1e-9 && out.solver &&
                    !strcmp(out.solver->name, "lemke") && out.reason_literal &&
                    strstr(lcp_solve_out_reason(&out), "auto: lemke");
            double d = 0.0;
            for (int i = 0; !rc && out.x && i < 3; i++) d = fmax(d, fabs(out.x[i] - g.x[i]));
            same += !rc && out.iterations == g.iterations && d <= 1e-12 * (1 + fabs(g.x[0]) + fabs(g.x[1]));
            if (!t) printf("lcp_CPS_2: auto by lemke's tiny path in %d pivots (its general solve: %d)\n",
                           out.iterations, g.iterations);
            lcp_solve_out_free(&out);
        }
        lcp_solve_out_free(&g);
        lcp_problem_free(&p);
    }
    CHECK(tries >= 10 && tiny == tries && same == tries);
}

int main(void)
{
    families();
    no_solution();
    hostile();
    pipeline();
    printf("%d passed, %d failed, %d skipped\n", check_passed, check_failed, check_skipped);
    return check_failed ? 1 : 0;
}
