/* src/scenes/matrices.c: the scenes that are a matrix alone, with no
 * bodies: random-spd (a random sparse SPD A of a set condition number,
 * the largest eigenvalue by Lanczos) and murty (Murty's exponential
 * example for Lemke's method). */
#include "builders.h"

#include "../core/common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------- random-spd */

/* Number of eigenvalues below x of the symmetric tridiagonal matrix with
 * diagonal a[0..m-1] and off-diagonal e[0..m-2] (Sturm sequence, LDL'). */
static int sturm_count(const double *a, const double *e, int m, double x)
{
    int count = 0;
    double d = 1.0;
    for (int i = 0; i < m; i++) {
        d = a[i] - x - (i ? e[i - 1] * e[i - 1] / d : 0.0);
        if (d == 0.0) d = -1e-300; /* x is an eigenvalue: count it below */
        count += d < 0.0;
    }
    return count;
}

/* Largest eigenvalue of that tridiagonal matrix, by bisection from its
 * Gershgorin interval. */
static double tridiag_max(const double *a, const double *e, int m)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < m; i++) {
        double r = (i ? fabs(e[i - 1]) : 0.0) + (i + 1 < m ? fabs(e[i]) : 0.0);
        lo = fmin(lo, a[i] - r);
        hi = fmax(hi, a[i] + r);
    }
    for (int it = 0; it < 200 && lo < hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        if (sturm_count(a, e, m, mid) >= m) hi = mid; /* every eigenvalue below mid */
        else lo = mid;
    }
    return lo;
}

/* theta <= lambda_max(A) for a symmetric A: the largest Ritz value of at
 * most 300 Lanczos steps from the start vector x (overwritten).  No
 * reorthogonalisation: the extreme Ritz value converges first, and the
 * copies of it that rounding brings later do not move it.  Stops when theta
 * changes by less than 1e-12 relative over 10 steps. */
static int lanczos_max(const lcp_csr *A, double *x, double *theta)
{
    int n = A->m, kmax = n < 300 ? n : 300;
    double *q0 = lcp_calloc((size_t)n, sizeof *q0), *w = lcp_alloc((size_t)n, sizeof *w);
    double *al = lcp_alloc((size_t)kmax, sizeof *al), *be = lcp_alloc((size_t)kmax, sizeof *be);
    *theta = 0.0;
    if (!q0 || !w || !al || !be) {
        free(q0), free(w), free(al), free(be);
        return LCP_ERROR;
    }
    double nx = 0.0, prev = 0.0;
    for (int i = 0; i < n; i++) nx += x[i] * x[i];
    nx = sqrt(nx);
    for (int i = 0; i < n && nx > 0.0; i++) x[i] /= nx;
    for (int k = 0; k < kmax && nx > 0.0; k++) {
        lcp_csr_matvec(A, x, w); /* w = A q_k - beta_{k-1} q_{k-1} - alpha_k q_k */
        double a = 0.0, b = 0.0;
        for (int i = 0; i < n; i++) w[i] -= (k ? be[k - 1] : 0.0) * q0[i];
        for (int i = 0; i < n; i++) a += w[i] * x[i];
        for (int i = 0; i < n; i++) {
            w[i] -= a * x[i];
            b += w[i] * w[i];
        }
        al[k] = a;
        be[k] = b = sqrt(b);
        int last = k + 1 == kmax || !(b > 1e-14 * fabs(al[0]) + 1e-300);
        if (last || (k + 1) % 10 == 0) {
            *theta = tridiag_max(al, be, k + 1);
            if (last || fabs(*theta - prev) <= 1e-12 * fabs(*theta)) break;
            prev = *theta;
        }
        for (int i = 0; i < n; i++) { /* q_{k+1} = w / beta_k */
            q0[i] = x[i];
            x[i] = w[i] / b;
        }
    }
    free(q0), free(w), free(al), free(be);
    return 0;
}

/* A = D L D + delta I, with
 *   L = sum over edges (i,j) of w_ij (e_i - e_j)(e_i - e_j)', the weighted
 *       Laplacian of a random graph: each off-diagonal pair is an edge with
 *       probability --density, plus a random Hamiltonian path that makes the
 *       graph connected; weights uniform in [0.1, 1);
 *   D = diag(+-1) random signs, so the off-diagonal entries of A have mixed
 *       signs (A(i,j) = -w_ij d_i d_j);
 *   delta = theta / (c - 1), theta the largest eigenvalue of L estimated by
 *       Lanczos (a Ritz value, so theta <= lambda_max(L)).
 * L is positive semidefinite with the single null vector 1 (the graph is
 * connected), so D L D has the null vector D 1 and lambda_min(A) = delta
 * exactly, lambda_max(A) = lambda_max(L) + delta >= theta + delta:
 *   cond(A) = (lambda_max(L) + delta) / delta >= c, equal to c up to the
 * error of theta (the Ritz value converges to 1e-10 or better, in at most
 * 300 matrix-vector products).  The
 * small eigenvalue belongs to a global mode, like the rigid modes of a
 * floating structure: diagonal scaling does not remove it. */
int lcp_gen_build_random_spd(const gen_params *g, gen_result *res)
{
    int n = (int)g->size;
    double dens = g->density;
    uint64_t st = g->seed;
    triplets t = {0};
    int *perm = NULL, rc = LCP_ERROR;
    double *sg = NULL, *x = NULL;
    sg = lcp_alloc((size_t)n, sizeof *sg);
    perm = lcp_alloc((size_t)n, sizeof *perm);
    if (!sg || !perm) goto done;
    for (int i = 0; i < n; i++) sg[i] = (rng_next(&st) >> 63) ? -1.0 : 1.0;
    for (int i = 0; i < n; i++)
        if (lcp_trip_push(&t, i, i, 0.0)) goto done; /* every diagonal entry present */

    /* edge (i,j,w): the Laplacian's 2x2 block w [1 -1; -1 1], signed by D */
#define ADD_EDGE(I_, J_)                                                                \
    do {                                                                                \
        double w_ = 0.1 + 0.9 * rng_uniform(&st), o_ = -w_ * sg[(I_)] * sg[(J_)];       \
        if (lcp_trip_push(&t, (I_), (I_), w_) || lcp_trip_push(&t, (J_), (J_), w_) ||   \
            lcp_trip_push(&t, (I_), (J_), o_) || lcp_trip_push(&t, (J_), (I_), o_))     \
            goto done;                                                                  \
    } while (0)

    /* random edges, pair (i,j), j > i, with probability dens: the gaps between
     * successive chosen j are geometric, so the cost is O(edges), not O(n^2) */
    if (dens > 0.0) {
        double lq = log1p(-dens); /* -inf for dens = 1 */
        for (int i = 0; i < n - 1; i++) {
            long j = i;
            for (;;) {
                long skip = 0;
                if (dens < 1.0) {
                    double u = 1.0 - rng_uniform(&st); /* (0, 1] */
                    double k = floor(log(u) / lq);
                    skip = k > (double)n ? n : (long)k;
                }
                j += 1 + skip;
                if (j >= n) break;
                ADD_EDGE(i, (int)j);
            }
        }
    }
    /* a random Hamiltonian path: connected graph, so the null space of L is 1 */
    for (int i = 0; i < n; i++) perm[i] = i;
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
        int k = (int)rng_below(&st, (long)i + 1), tmp = perm[i];
        perm[i] = perm[k];
        perm[k] = tmp;
    }
    for (int i = 0; i + 1 < n; i++) ADD_EDGE(perm[i], perm[i + 1]);
#undef ADD_EDGE
    if (lcp_trip_to_csr(&t, n, n, &res->A)) goto done;

    /* theta ~ lambda_max(L): Lanczos on D L D (the same spectrum) */
    x = lcp_alloc((size_t)n, sizeof *x);
    if (!x) goto done;
    for (int i = 0; i < n; i++) x[i] = 2.0 * rng_uniform(&st) - 1.0;
    double theta;
    if (lanczos_max(&res->A, x, &theta)) goto done;
    double delta = theta > 0.0 ? theta / (g->cond - 1.0) : 1.0; /* n = 1: A = [1] */
    for (int i = 0; i < n; i++)
        for (int q = res->A.p[i]; q < res->A.p[i + 1]; q++)
            if (res->A.j[q] == i) res->A.x[q] += delta;
    res->cond = (theta + delta) / delta;

    /* b uniform in [-1, 1): mixed signs, so some constraints are active */
    res->b = lcp_alloc((size_t)n, sizeof *res->b);
    if (!res->b) goto done;
    for (int i = 0; i < n; i++) res->b[i] = 2.0 * rng_uniform(&st) - 1.0;
    res->n = n;
    res->kind = "lcp";
    rc = 0;
done:
    lcp_trip_free(&t);
    free(sg);
    free(perm);
    free(x);
    return rc;
}

/* ------------------------------------------------------------ murty */

/* Murty (1988, ch. 6): A(i,i) = 1, A(i,j) = 2 for j < i, 0 above; b = -1.
 * Lemke's method with the covering vector 1 takes 2^n pivots on it (the
 * transpose, upper triangular, takes 2: Siconos' lcp_exp_murty.dat read
 * column-major is that one). */
int lcp_gen_build_murty(const gen_params *g, gen_result *res)
{
    int n = (int)g->size;
    triplets t = {0};
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            if (lcp_trip_push(&t, i, j, i == j ? 1.0 : 2.0)) {
                lcp_trip_free(&t);
                return LCP_ERROR;
            }
    if (lcp_trip_to_csr(&t, n, n, &res->A)) return LCP_ERROR;
    res->b = lcp_alloc((size_t)n, sizeof *res->b);
    if (!res->b) return LCP_ERROR;
    for (int i = 0; i < n; i++) res->b[i] = -1.0;
    res->n = n;
    res->kind = "lcp";
    return 0;
}
