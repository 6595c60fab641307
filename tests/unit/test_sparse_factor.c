/* tests/unit/test_sparse_factor.c: src/la/sparse_factor.c on small matrices
 * worked by hand: the pattern with the diagonal added, CHOLMOD and UMFPACK
 * solves (in place and not), refactorisation with new values on the same
 * analysis, and the statuses of the failures (not positive definite,
 * singular) with their messages. */
#include "check.h"
#include "la/sparse_factor.h"

#include <string.h>

/* y = M x for M in CSR */
static void matvec(int n, const int *p, const int *j, const double *x, const double *v, double *y)
{
    for (int i = 0; i < n; i++) {
        y[i] = 0.0;
        for (int k = p[i]; k < p[i + 1]; k++) y[i] += x[k] * v[j[k]];
    }
}

int main(void)
{
    /* A = [2 -1 0 0; -1 2 -1 0; 0 -1 0 -1; 0 0 -1 2]: row 2 lacks its diagonal,
     * row 0 is complete */
    int Ap[] = {0, 2, 5, 7, 9}, Aj[] = {0, 1, 0, 1, 2, 1, 3, 2, 3};
    double Ax[] = {2, -1, -1, 2, -1, -1, -1, -1, 2};
    lcp_csr A = {4, 4, Ap, Aj, Ax};
    int p[5], j[13], dpos[4], amap[13];
    double x[13];
    long nnz = lcp_pattern_with_diagonal(&A, p, j, dpos, amap, x);
    CHECK(nnz == 10);
    CHECK(p[4] == 10 && p[3] == 8);
    CHECK(j[dpos[2]] == 2 && amap[dpos[2]] == -1 && x[dpos[2]] == 0.0);
    CHECK(j[5] == 1 && j[6] == 2 && j[7] == 3);          /* row 2: 1, (2 added), 3 */
    CHECK(dpos[0] == 0 && amap[0] == 0 && x[1] == -1.0);
    CHECK(amap[9] == 8 && dpos[3] == 9);

    /* M = A + diag(0, 0, 3, 0): symmetric positive definite */
    x[dpos[2]] = 3.0;
    lcp_sparse_factor F;
    lcp_err err = {{0}};
    CHECK(lcp_sparse_factor_init(&F, 4, p, j, x, 1, LCP_SF_REFINE_DEFAULT) == LCP_SF_OK);
    CHECK(F.symbolic == NULL); /* LU not set up before it is asked for */
    CHECK(lcp_sparse_factor_refactor(&F, x, LCP_SF_CHOLESKY) == LCP_SF_OK && F.cur == LCP_SF_CHOLESKY);
    double sol[] = {1, -2, 0.5, 3}, b[4], y[4];
    matvec(4, p, j, x, sol, b);
    CHECK(lcp_sparse_factor_solve(&F, b, y) == LCP_SF_OK);
    for (int i = 0; i < 4; i++) CHECK_NEAR(y[i], sol[i], 1e-12);
    memcpy(y, b, sizeof b);
    CHECK(lcp_sparse_factor_solve(&F, y, y) == LCP_SF_OK); /* in place */
    for (int i = 0; i < 4; i++) CHECK_NEAR(y[i], sol[i], 1e-12);

    /* the same pattern, indefinite values: Cholesky refuses, LU solves */
    double xi[13];
    memcpy(xi, x, sizeof xi);
    xi[dpos[2]] = -1.0;
    CHECK(lcp_sparse_factor_refactor(&F, xi, LCP_SF_CHOLESKY) == LCP_SF_NOT_POSDEF && F.cur == LCP_SF_NONE);
    CHECK(lcp_sparse_factor_fail(&F, &err, "t: ") == LCP_ERROR);
    CHECK(strstr(err.msg, "t: CHOLMOD factorization failed (status") == err.msg);
    CHECK(lcp_sparse_factor_refactor(&F, xi, LCP_SF_LU) == LCP_SF_OK && F.cur == LCP_SF_LU);
    matvec(4, p, j, xi, sol, b);
    memcpy(y, b, sizeof b);
    CHECK(lcp_sparse_factor_solve(&F, y, y) == LCP_SF_OK);
    for (int i = 0; i < 4; i++) CHECK_NEAR(y[i], sol[i], 1e-12);
    /* and Cholesky again on the first values: the analysis is reused */
    CHECK(lcp_sparse_factor_refactor(&F, x, LCP_SF_CHOLESKY) == LCP_SF_OK);
    matvec(4, p, j, x, sol, b);
    CHECK(lcp_sparse_factor_solve(&F, b, y) == LCP_SF_OK);
    for (int i = 0; i < 4; i++) CHECK_NEAR(y[i], sol[i], 1e-12);
    lcp_sparse_factor_free(&F);
    CHECK(F.L == NULL && F.symbolic == NULL && F.cc_on == 0);

    /* nonsymmetric: M = A + diag + a skew part, LU only, no refinement */
    double xn[13];
    memcpy(xn, x, sizeof xn);
    xn[1] += 0.5; /* (0, 1) */
    xn[2] -= 0.5; /* (1, 0) */
    xn[7] += 2.0; /* (2, 3) */
    CHECK(lcp_sparse_factor_init(&F, 4, p, j, xn, 0, 0) == LCP_SF_OK && F.symbolic != NULL);
    CHECK(lcp_sparse_factor_refactor(&F, xn, LCP_SF_CHOLESKY) == LCP_SF_FAILED); /* not declared symmetric */
    CHECK(lcp_sparse_factor_refactor(&F, xn, LCP_SF_LU) == LCP_SF_OK);
    matvec(4, p, j, xn, sol, b);
    CHECK(lcp_sparse_factor_solve(&F, b, y) == LCP_SF_OK);
    for (int i = 0; i < 4; i++) CHECK_NEAR(y[i], sol[i], 1e-12);
    /* singular values on the same pattern: rows 0 and 1 made equal multiples */
    double xs[13];
    memcpy(xs, xn, sizeof xs);
    xs[0] = 1.0, xs[1] = 1.0, xs[2] = 2.0, xs[3] = 2.0, xs[4] = 0.0; /* row 1 = 2 row 0 */
    CHECK(lcp_sparse_factor_refactor(&F, xs, LCP_SF_LU) == LCP_SF_SINGULAR && F.cur == LCP_SF_LU);
    lcp_sparse_factor_free(&F);

    /* every ordering (--order natural|amd|nd) gives the same solutions;
     * CHOLMOD's factor records the ordering it used */
    const int orderings[] = {LCP_SF_ORDER_NATURAL, LCP_SF_ORDER_AMD, LCP_SF_ORDER_ND, LCP_SF_ORDER_AUTO};
    const int cholmod_ord[] = {CHOLMOD_NATURAL, CHOLMOD_AMD, CHOLMOD_METIS, -1};
    for (int o = 0; o < 4; o++) {
        lcp_sparse_factor_set_ordering(orderings[o]);
        CHECK(lcp_sparse_factor_init(&F, 4, p, j, x, 1, LCP_SF_REFINE_DEFAULT) == LCP_SF_OK);
        if (cholmod_ord[o] >= 0) CHECK(F.L->ordering == cholmod_ord[o]);
        CHECK(lcp_sparse_factor_refactor(&F, x, LCP_SF_CHOLESKY) == LCP_SF_OK);
        matvec(4, p, j, x, sol, b);
        CHECK(lcp_sparse_factor_solve(&F, b, y) == LCP_SF_OK);
        for (int i = 0; i < 4; i++) CHECK_NEAR(y[i], sol[i], 1e-12);
        CHECK(lcp_sparse_factor_refactor(&F, xn, LCP_SF_LU) == LCP_SF_OK);
        matvec(4, p, j, xn, sol, b);
        CHECK(lcp_sparse_factor_solve(&F, b, y) == LCP_SF_OK);
        for (int i = 0; i < 4; i++) CHECK_NEAR(y[i], sol[i], 1e-12);
        lcp_sparse_factor_free(&F);
    }
    CHECK_DONE();
}
