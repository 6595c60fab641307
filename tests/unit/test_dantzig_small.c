/* tests/unit/test_dantzig_small.c: Dantzig and Cottle's principal pivoting
 * for tiny unsymmetric lcps (src/solvers/dantzig_small.h), the first
 * method of pivot's small path on an unsymmetric A that is not a Z-matrix.
 *
 * - P-matrices of 1 to 32 unknowns, unsymmetric: diagonally dominant ones,
 *   positive definite ones (a Gram matrix plus a skew part plus I), Murty's
 *   (1 on the diagonal, 2 on one side of it, b = -1) in both orientations,
 *   the same scaled by 1e-6 and 1e6, and diagonally dominant ones with rows
 *   and columns scaled by 10^-3 .. 10^3 (a pivot judged against its own
 *   row's diagonal, not A's largest entry): every answer verifies to 1e-10
 *   and equals lemke's general solve where that has one (the solution of
 *   a P-matrix lcp is unique; Murty's take Lemke 2^n pivots); the path
 *   answers every one but the transposed Murty's (exponential for this
 *   method too: it stops at its cap), the lower Murty's in one pivot.
 * - Degenerate b (zeros, ties): answered and verified.
 * - A zero or negative diagonal entry (a bimatrix game, not P): no answer
 *   and no pivot; NaN and infinities in A or b: no answer; a blcp, 33
 *   unknowns: not taken.
 * - Through the pipeline: auto on Murty's problems of 30 unknowns, both
 *   ways, solved on pivot's small path (its reason): the lower one by this
 *   method in one pivot, where the block steps alone gave up (a step per
 *   row) and the model's choice took pgs; the transposed one by the block
 *   steps after the method stopped at its cap.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dense_problem.h"
#include "core/pipeline.h"
#include "core/verify.h"
#include "solvers/dantzig_small.h"

enum { NMAX = LCP_DANTZIG_SMALL_N };

static unsigned long long rng = 0x2545F4914F6CDD1DULL;

enum { DOMINANT, DEFINITE, MURTY_LOWER, MURTY_UPPER, SCALED, FAMILIES };

static void family(int f, int n, double scale, int degenerate, double *a, double *b)
{
    for (int i = 0; i < n; i++) {
        b[i] = degenerate && i % 3 == 0 ? 0.0 : degenerate && i % 3 == 1 ? -0.5 : dense_unif(&rng);
        for (int j = 0; j < n; j++) a[n * i + j] = 0.0;
    }
    if (f == DOMINANT || f == SCALED) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) a[n * i + j] = i == j ? n + 0.5 * dense_unif(&rng) : dense_unif(&rng);
    } else if (f == DEFINITE) { /* G G' + S - S' + I: x'Ax = |G'x|^2 + |x|^2 > 0 */
        double g[NMAX * NMAX];
        for (int e = 0; e < n * n; e++) g[e] = dense_unif(&rng);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double t = i == j ? 1.0 : 0.0;
                for (int k = 0; k < n; k++) t += g[i * n + k] * g[j * n + k];
                a[n * i + j] = t;
            }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < i; j++) {
                double s = 2.0 * dense_unif(&rng);
                a[n * i + j] += s;
                a[n * j + i] -= s;
            }
    } else { /* Murty's: 1 on the diagonal, 2 below (or above) it, b = -1 */
        for (int i = 0; i < n; i++) {
            b[i] = -1.0;
            for (int j = 0; j < n; j++)
                a[n * i + j] = i == j ? 1.0 : (f == MURTY_LOWER ? j < i : j > i) ? 2.0 : 0.0;
        }
    }
    for (int e = 0; e < n * n; e++) a[e] *= scale;
    if (f == SCALED) /* D1 A D2, positive diagonals of 10^-3 .. 10^3 (still P; condition up to 10^12 more) */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) a[n * i + j] *= pow(10.0, (i * 5 % 7) - 3) * pow(10.0, (j * 3 % 7) - 3);
}

/* answered: the path's answer; right: verified to 1e-10 and lemke's where lemke's general solve has one (Murty's
 * problems take it 2^n pivots: beyond its cap from 11 unknowns, not asked) */
static void families(void)
{
    const char *names[FAMILIES] = {"diagonally dominant", "positive definite", "Murty's (lower)", "Murty's (upper)",
                                   "dominant, rows and columns scaled"};
    const double scales[3] = {1.0, 1e-6, 1e6};
    for (int f = 0; f < FAMILIES; f++) {
        int tries = 0, said = 0, right = 0, lemke = 0, most = 0;
        for (int n = 1; n <= NMAX; n++)
            for (int t = 0; t < (f >= MURTY_LOWER ? 1 : 4); t++)
                for (int sc = 0; sc < 3; sc++) {
                    double a[NMAX * NMAX], b[NMAX], x[NMAX];
                    family(f, n, scales[sc], t % 2, a, b);
                    lcp_problem p;
                    make(&p, n, a, b, NULL, NULL, NULL, 0);
                    int pivots = 0, ok = lcp_dantzig_small(&p, x, &pivots);
                    lcp_solve_out g;
                    memset(&g, 0, sizeof g);
                    int gok = (f != MURTY_LOWER || n <= 10) && !dense_lemke(&p, 1e-10, &g) && g.status == LCP_SOLVED;
                    tries++, said += ok, lemke += gok;
                    if (ok && pivots > most) most = pivots;
                    if (ok) {
                        double d = 0.0, s = 0.0;
                        for (int i = 0; gok && i < n; i++) d = fmax(d, fabs(x[i] - g.x[i])), s = fmax(s, fabs(g.x[i]));
                        int same = d <= 1e-8 * fmax(s, 1e-300);
                        right += dense_residual(&p, x) <= 1e-10 && same;
                        if (!same)
                            printf("  %s n %d scale %g: |x - lemke's| %.3g of %.3g, residual %.3g, lemke's %.3g\n",
                                   names[f], n, scales[sc], d, s, dense_residual(&p, x), g.m.residual);
                    }
                    lcp_solve_out_free(&g);
                    lcp_problem_free(&p);
                }
        printf("%s: %d problems, answered %d (at most %d pivots), %d of them right; lemke's general solve %d\n",
               names[f], tries, said, most, right, lemke);
        CHECK(right == said);
        if (f != MURTY_UPPER) CHECK(said == tries); /* (transposed, exponential: the block steps take it) */
        if (f == MURTY_LOWER) CHECK(most == 1);
    }
}

static void not_taken(void)
{
    double x[NMAX + 1];
    int pivots = 0;
    /* a bimatrix game: zero diagonal */
    double game[16] = {0, 0, 2, 1, 0, 0, 1, 3, 1, 2, 0, 0, 3, 1, 0, 0}, bg[4] = {-1, -1, -1, -1};
    lcp_problem p;
    make(&p, 4, game, bg, NULL, NULL, NULL, 0);
    CHECK(!lcp_dantzig_small(&p, x, &pivots) && pivots == 0);
    lcp_problem_free(&p);
    double neg[4] = {1, 2, 0.5, -1}, bn[2] = {-1, -1}; /* a negative diagonal entry */
    make(&p, 2, neg, bn, NULL, NULL, NULL, 0);
    CHECK(!lcp_dantzig_small(&p, x, &pivots) && pivots == 0);
    lcp_problem_free(&p);
    double a[9] = {2, 1, 0, -1, 2, 1, 0, -1, 2}, b[3] = {-1, 1, -1};
    CHECK(dense_hostile_said(a, b, lcp_dantzig_small) == 0); /* NaN and infinities */
    make(&p, 3, a, b, NULL, NULL, NULL, 0);
    CHECK(lcp_dantzig_small(&p, x, &pivots) && dense_residual(&p, x) <= 1e-12); /* the same problem, finite */
    lcp_problem_free(&p);
    double lo[3] = {-1, -1, -1};
    make(&p, 3, a, b, lo, NULL, NULL, 0);
    CHECK(!lcp_dantzig_small(&p, x, &pivots)); /* a blcp */
    lcp_problem_free(&p);
    static double big[33 * 33];
    double b33[33];
    for (int i = 0; i < 33; i++) big[33 * i + i] = 1.0, big[33 * i + (i + 1) % 33] = 0.5, b33[i] = -1.0;
    make(&p, 33, big, b33, NULL, NULL, NULL, 0);
    CHECK(!lcp_dantzig_small(&p, x, &pivots)); /* more than LCP_DANTZIG_SMALL_N */
    lcp_problem_free(&p);
}

static void pipeline(void)
{
    enum { M = 30 };
    static double a[M * M];
    double b[M];
    for (int f = MURTY_LOWER; f <= MURTY_UPPER; f++) {
        family(f, M, 1.0, 0, a, b);
        lcp_problem p;
        make(&p, M, a, b, NULL, NULL, NULL, 0);
        lcp_solve_opts o;
        lcp_solve_opts_default(&o);
        o.s.tol = 1e-10;
        lcp_solve_out out;
        lcp_err e = {{0}};
        int rc = lcp_pipeline_solve(&p, &o, NULL, 0, NULL, &out, &e);
        const char *why = lcp_solve_out_reason(&out);
        printf("Murty's %d x %d (%s): auto by %s in %d iterations, residual %.3g\n", M, M,
               f == MURTY_LOWER ? "lower" : "upper", out.solver ? out.solver->name : "-", out.iterations,
               out.m.residual);
        CHECK(!rc && out.status == LCP_SOLVED && out.m.residual <= 1e-10);
        CHECK(out.solver && !strcmp(out.solver->name, "pivot") && why && strstr(why, "small path"));
        if (f == MURTY_LOWER) CHECK(out.iterations == 1);
        lcp_solve_out_free(&out);
        lcp_problem_free(&p);
    }
}

int main(void)
{
    families();
    not_taken();
    pipeline();
    CHECK_DONE();
}
