/* src/solvers/lemke_small.c: Lemke's method for tiny problems, nothing
 * allocated (see lemke_small.h for where the pipeline takes it).
 *
 * The method and its rules are lemke.c's dense path (Lemke 1965; Cottle,
 * Pang and Stone 1992, sec. 4.4): the rows scaled by S = diag(1 / max_j
 * |A_ij|), the system  S w - (S A) z - (S d) z0 = S b  with d = 1, B^-1
 * kept dense and updated by each pivot (B^-1 <- B^-1 - (abar - e_r)(e_r'
 * B^-1) / abar_r), z0 entering at the row of the most negative b_i (ties:
 * the last), then the complement of each leaving variable entering, the
 * leaving row by the minimum ratio, z0 first among ties, then the lexico-
 * minimum of the rows [beta_i, (B^-1)_i.] / abar_i.  What lemke.c does
 * besides -- refactoring B^-1 when it drifts or before trusting a ray or a
 * small pivot, the certificate of a ray, refinement of the final basis --
 * is left to it: here a ray, a pivot below SMALL_PIVOT of its column, a
 * NaN or more than CAP pivots ends the path, and the caller runs lemke's
 * general solve.  On a problem this small the pivots cost a few hundred
 * operations; the general solve's set-up (work arrays, the monitor, BLAS
 * calls on 3 x 3 arrays) cost four times that. */
#include "lemke_small.h"

#include <math.h>
#include <string.h>

#define PIVOT_TOL 1e-9   /* abar_i <= PIVOT_TOL * max(1, |abar|_inf) does not block (lemke.c's) */
#define SMALL_PIVOT 1e-6 /* a pivot below SMALL_PIVOT * |abar|_inf: lemke.c confirms it with a fresh B^-1 */
#define TIE_TOL 1e-12    /* ratio tie: within TIE_TOL * max(1, |beta|_inf) of 0 after the step (lemke.c's) */
#define LEX_TOL 1e-11    /* lexicographic tie (lemke.c's) */
#define CAP(n) (8 * (n) + 8) /* pivots before the path gives up (Lemke's method may need more: lemke.c) */

enum { N = LCP_LEMKE_SMALL_N };

/* The leaving row for the column a (lemke.c's ratio_test on the dense
 * B^-1, row-major here: Binv[i * n + k]); -1 for a ray. */
static int ratio_row(int n, const double *a, const double *beta, const double *Binv, const int *basis)
{
    double amax = 0.0, bmax = 1.0;
    for (int i = 0; i < n; i++) amax = fmax(amax, fabs(a[i])), bmax = fmax(bmax, fabs(beta[i]));
    double ptol = PIVOT_TOL * fmax(1.0, amax), theta = INFINITY;
    for (int i = 0; i < n; i++)
        if (a[i] > ptol) theta = fmin(theta, fmax(beta[i], 0.0) / a[i]);
    if (theta == INFINITY) return -1;
    int cand[N], nc = 0;
    for (int i = 0; i < n; i++)
        if (a[i] > ptol && fmax(beta[i], 0.0) - theta * a[i] <= TIE_TOL * bmax) {
            if (basis[i] == 2 * n) return i; /* z0 leaves */
            cand[nc++] = i;
        }
    for (int k = 0; k < n && nc > 1; k++) { /* lexico-min over the columns of B^-1 */
        double vmin = INFINITY, vabs = 0.0;
        for (int c = 0; c < nc; c++) {
            double v = Binv[cand[c] * n + k] / a[cand[c]];
            vmin = fmin(vmin, v);
            vabs = fmax(vabs, fabs(v));
        }
        if (vabs == 0.0) continue;
        int keep = 0;
        for (int c = 0; c < nc; c++)
            if (Binv[cand[c] * n + k] / a[cand[c]] <= vmin + LEX_TOL * vabs) cand[keep++] = cand[c];
        nc = keep;
    }
    int r = cand[0];
    for (int c = 1; c < nc; c++) /* unresolved by round-off: the largest pivot */
        if (a[cand[c]] > a[r]) r = cand[c];
    return r;
}

int lcp_lemke_small(const lcp_problem *p, double *x, int *pivots)
{
    const int n = p->n, *ap = p->A.p, *aj = p->A.j;
    const double *ax = p->A.x, *b = p->b;
    *pivots = 0;
    if (p->kind != LCP_KIND_LCP || n < 1 || n > N || !ap || !b) return 0;
    double SA[N * N], s[N], Binv[N * N], beta[N], a[N];
    int basis[N]; /* the variable basic at each row: w_j = j, z_j = n + j, z0 = 2 n */
    memset(SA, 0, (size_t)n * (size_t)n * sizeof *SA);
    for (int i = 0; i < n; i++) {
        double m = 0.0;
        for (int e = ap[i]; e < ap[i + 1]; e++) {
            if (!(fabs(ax[e]) < INFINITY)) return 0; /* (a NaN or an infinity: the general solve reports it) */
            m = fmax(m, fabs(ax[e]));
        }
        s[i] = m > 0.0 ? 1.0 / m : 1.0;
        for (int e = ap[i]; e < ap[i + 1]; e++) SA[i * n + aj[e]] += s[i] * ax[e];
    }
    int r = -1; /* z0's row: the most negative b_i (ties: the last) */
    for (int i = 0; i < n; i++) {
        if (!(fabs(b[i]) < INFINITY)) return 0; /* (a NaN or an infinity: the general solve reports it) */
        if (b[i] < 0 && (r < 0 || b[i] <= b[r])) r = i;
    }
    if (r < 0) { /* b >= 0: z = 0 */
        memset(x, 0, (size_t)n * sizeof *x);
        return 1;
    }
    memset(Binv, 0, (size_t)n * (size_t)n * sizeof *Binv);
    for (int i = 0; i < n; i++) Binv[i * n + i] = 1.0, beta[i] = s[i] * b[i], basis[i] = i, a[i] = -s[i];
    int e = 2 * n; /* the entering variable: z0 first */
    for (int k = 0; k < CAP(n); k++) {
        if (k) { /* abar = B^-1 (the entering column): e_j for w_j, -(S A) e_j for z_j */
            if (e < n) {
                for (int i = 0; i < n; i++) a[i] = Binv[i * n + e];
            } else {
                int j = e - n;
                for (int i = 0; i < n; i++) {
                    double t = 0.0;
                    for (int q = 0; q < n; q++) t += Binv[i * n + q] * SA[q * n + j];
                    a[i] = -t;
                }
            }
            r = ratio_row(n, a, beta, Binv, basis);
            if (r < 0) return 0; /* a ray: lemke.c decides it */
        }
        double amax = 0.0;
        for (int i = 0; i < n; i++) amax = fmax(amax, fabs(a[i]));
        if (!(fabs(a[r]) >= SMALL_PIVOT * amax) || !(amax < INFINITY)) return 0;
        /* the pivot at row r */
        double inv = 1.0 / a[r], *Br = Binv + r * n;
        for (int q = 0; q < n; q++) Br[q] *= inv;
        beta[r] *= inv;
        for (int i = 0; i < n; i++) {
            if (i == r || a[i] == 0.0) continue;
            double f = a[i], *Bi = Binv + i * n;
            for (int q = 0; q < n; q++) Bi[q] -= f * Br[q];
            beta[i] -= f * beta[r];
        }
        int leaving = basis[r];
        basis[r] = e;
        ++*pivots;
        if (leaving == 2 * n) { /* z0 left: the basis is complementary, its z the answer */
            memset(x, 0, (size_t)n * sizeof *x);
            for (int i = 0; i < n; i++)
                if (basis[i] >= n && basis[i] < 2 * n) x[basis[i] - n] = beta[i];
            return 1;
        }
        e = leaving < n ? leaving + n : leaving - n; /* the complement enters */
    }
    return 0;
}
