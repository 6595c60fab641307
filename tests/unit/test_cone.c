/* tests/unit/test_cone.c: the pyramid approximations of src/core/cone.c.
 *
 * The Stewart-Trinkle matrix of a two-contact problem is checked entry by
 * entry against E'W E formed densely here (E = [e_n, D] per contact, D's
 * columns (0, cos 2 pi k/K, sin 2 pi k/K)), with the gamma rows and
 * columns and b = E'q; the box form keeps A and b with findex and mu per
 * row; map_back inverts E on chosen beta; parse refuses bad K.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/cone.h"

static double entry(const lcp_csr *A, int i, int j)
{
    for (int k = A->p[i]; k < A->p[i + 1]; k++)
        if (A->j[k] == j) return A->x[k];
    return 0.0;
}

int main(void)
{
    /* two contacts, W symmetric 6 x 6 with coupling */
    const double W[36] = {4, 1, 0.5, 1, 0.2, 0,   1, 3, 0.3, 0, 1, 0.1,  0.5, 0.3, 2, 0.2, 0, 1,
                          1, 0, 0.2, 5, 0.4, 0.6, 0.2, 1, 0, 0.4, 3, 0.2, 0, 0.1, 1, 0.6, 0.2, 2};
    const double q[6] = {-1, 0.5, -0.25, -2, 0.1, 0.3}, mu[2] = {0.3, 0.7};
    double cm[36];
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) cm[i + 6 * j] = W[6 * i + j];
    lcp_problem p;
    lcp_problem_init(&p);
    p.kind = LCP_KIND_FC3D;
    CHECK(lcp_csr_from_dense_colmajor(&p.A, 6, 6, cm) == 0);
    p.b = malloc(sizeof q);
    p.blen = 6;
    memcpy(p.b, q, sizeof q);
    p.mu = malloc(sizeof mu);
    memcpy(p.mu, mu, sizeof mu);
    p.nmu = 2;
    p.source = lcp_strdup("test");
    lcp_err err = {{0}};
    CHECK(lcp_problem_finish(&p, &err) == 0);

    for (int K = 3; K <= 8; K++) {
        lcp_problem s;
        CHECK(lcp_cone_convert(&p, LCP_CONE_STEWART_TRINKLE, K, &s, &err) == 0);
        int B = K + 2;
        CHECK(s.kind == LCP_KIND_LCP && s.n == 2 * B);
        double E[3][10]; /* E[a][p], p = 0 (lambda_n), 1..K (beta) */
        memset(E, 0, sizeof E);
        E[0][0] = 1.0;
        for (int k = 0; k < K; k++) {
            E[1][1 + k] = cos(2 * M_PI * k / K);
            E[2][1 + k] = sin(2 * M_PI * k / K);
        }
        double maxerr = 0.0;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                for (int a = 0; a <= K; a++)
                    for (int c = 0; c <= K; c++) {
                        double v = 0.0; /* (E'W_ij E)[a][c] */
                        for (int r = 0; r < 3; r++)
                            for (int t = 0; t < 3; t++) v += E[r][a] * W[6 * (3 * i + r) + 3 * j + t] * E[t][c];
                        maxerr = fmax(maxerr, fabs(entry(&s.A, i * B + a, j * B + c) - v));
                    }
        CHECK(maxerr < 1e-12);
        for (int i = 0; i < 2; i++) {
            int g = i * B + K + 1;
            CHECK_NEAR(entry(&s.A, g, i * B), mu[i], 0);                 /* mu lambda_n */
            CHECK_NEAR(entry(&s.A, g, g), 0.0, 0);                       /* zero diagonal */
            for (int k = 0; k < K; k++) {
                CHECK_NEAR(entry(&s.A, i * B + 1 + k, g), 1.0, 0);       /* + gamma */
                CHECK_NEAR(entry(&s.A, g, i * B + 1 + k), -1.0, 0);      /* - beta */
                CHECK_NEAR(s.b[i * B + 1 + k], E[1][1 + k] * q[3 * i + 1] + E[2][1 + k] * q[3 * i + 2], 1e-15);
            }
            CHECK_NEAR(s.b[i * B], q[3 * i], 0);
            CHECK_NEAR(s.b[g], 0.0, 0);
        }
        /* map back: beta_1 = 2 on contact 0, beta_K = 1 on contact 1 */
        double x[20] = {0}, r[6];
        x[0] = 1.5, x[1] = 2.0, x[B] = 0.5, x[B + K] = 1.0;
        lcp_cone_map_back(&p, LCP_CONE_STEWART_TRINKLE, K, x, r);
        CHECK_NEAR(r[0], 1.5, 0);
        CHECK_NEAR(r[1], 2.0, 1e-15);
        CHECK_NEAR(r[2], 0.0, 1e-15);
        CHECK_NEAR(r[3], 0.5, 0);
        CHECK_NEAR(r[4], cos(2 * M_PI * (K - 1) / K), 1e-15);
        CHECK_NEAR(r[5], sin(2 * M_PI * (K - 1) / K), 1e-15);
        lcp_problem_free(&s);
    }

    lcp_problem bx;
    CHECK(lcp_cone_convert(&p, LCP_CONE_BOX, 4, &bx, &err) == 0);
    CHECK(bx.kind == LCP_KIND_BLCP && bx.n == 6 && bx.nmu == 6);
    CHECK(bx.findex[0] == -1 && bx.findex[1] == 0 && bx.findex[2] == 0);
    CHECK(bx.findex[3] == -1 && bx.findex[4] == 3 && bx.findex[5] == 3);
    CHECK_NEAR(bx.mu[4], 0.7, 0);
    CHECK_NEAR(entry(&bx.A, 1, 4), W[6 * 1 + 4], 0);
    double xb[6] = {2, 0.5, -0.5, 1, 0.1, 0.2}, lo, hi;
    lcp_problem_bounds(&bx, xb, 1, &lo, &hi);
    CHECK_NEAR(lo, -0.6, 1e-15);                                          /* -mu r_n */
    CHECK_NEAR(hi, 0.6, 1e-15);
    lcp_problem_free(&bx);
    CHECK(lcp_cone_convert(&p, LCP_CONE_BOX, 6, &bx, &err) == LCP_INPUT_ERROR);
    lcp_problem_free(&bx);

    int K = 0;
    CHECK(lcp_cone_parse("pyramid:4", &K, &err) == 0 && K == 4);
    CHECK(lcp_cone_parse("pyramid:12", &K, &err) == 0 && K == 12);
    CHECK(lcp_cone_parse("pyramid:2", &K, &err) == LCP_INPUT_ERROR);
    CHECK(lcp_cone_parse("pyramid:", &K, &err) == LCP_INPUT_ERROR);
    CHECK(lcp_cone_parse("pyramid:4x", &K, &err) == LCP_INPUT_ERROR);
    CHECK(lcp_cone_parse("box:4", &K, &err) == LCP_INPUT_ERROR);

    lcp_problem l; /* an lcp is refused */
    lcp_problem_init(&l);
    l.kind = LCP_KIND_LCP;
    l.source = lcp_strdup("lcp");
    CHECK(lcp_cone_convert(&l, LCP_CONE_BOX, 4, &bx, &err) == LCP_INPUT_ERROR);
    lcp_problem_free(&l);
    lcp_problem_free(&p);
    CHECK_DONE();
}
