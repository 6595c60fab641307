/* src/solvers/lemke_small.c: Lemke's method for tiny problems, nothing
 * allocated (see lemke_small.h for where the pipeline takes it).
 *
 * The method and its rules are lemke.c's dense path (Lemke 1965; Cottle,
 * Pang and Stone 1992, sec. 4.4): the rows scaled by S = diag(1 / max_j
 * |A_ij|), the system  S w - (S A) z - (S d) z0 = S b  with d = 1, B^-1
 * kept dense (column-major, as lemke.c keeps it) and updated by each pivot
 * (B^-1 <- B^-1 - (abar - e_r)(e_r' B^-1) / abar_r), z0 entering at the
 * row of the most negative b_i (ties: the last), then the complement of
 * each leaving variable entering, the leaving row by lemke.c's ratio test
 * and its tolerances (lemke_ratio_ties, lemke_lexico_dense:
 * lemke_internal.h).  What lemke.c does besides -- refactoring B^-1 when
 * it drifts or before trusting a ray or a small pivot, the certificate of
 * a ray, refinement of the final basis -- is left to it: here a ray, a pivot below SMALL_PIVOT of its column, a
 * NaN or more than CAP pivots ends the path, and the caller runs lemke's
 * general solve.  On a problem this small the pivots cost a few hundred
 * operations; the general solve's set-up (work arrays, the monitor, BLAS
 * calls on 3 x 3 arrays) cost four times that. */
#include "lemke_small.h"

#include "lemke_internal.h"

#include <math.h>
#include <string.h>

#define CAP(n) (8 * (n) + 8) /* pivots before the path gives up (Lemke's method may need more: lemke.c) */

enum { N = LCP_LEMKE_SMALL_N };

int lcp_lemke_small(const lcp_problem *p, double *x, int *pivots)
{
    const int n = p->n, *ap = p->A.p;
    const double *b = p->b;
    *pivots = 0;
    if (p->kind != LCP_KIND_LCP || n < 1 || n > N || !ap || !b) return 0;
    double SA[N * N], s[N], Binv[N * N], beta[N], a[N]; /* Binv column-major: (B^-1)_ik = Binv[k n + i] */
    int basis[N], cand[N]; /* the variable basic at each row: w_j = j, z_j = n + j, z0 = 2 n */
    if (!lcp_csr_to_dense_rows(&p->A, SA, s)) return 0; /* (a NaN or an infinity: the general solve reports it) */
    for (int i = 0; i < n; i++) { /* S A: each row by its largest |entry| */
        s[i] = s[i] > 0.0 ? 1.0 / s[i] : 1.0;
        for (int j = 0; j < n; j++) SA[i * n + j] *= s[i];
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
                memcpy(a, Binv + (size_t)e * n, (size_t)n * sizeof *a);
            } else {
                int j = e - n;
                for (int i = 0; i < n; i++) a[i] = 0.0;
                for (int q = 0; q < n; q++) {
                    double t = SA[q * n + j];
                    if (t == 0.0) continue;
                    for (int i = 0; i < n; i++) a[i] -= Binv[q * n + i] * t;
                }
            }
            int nc = 0;
            r = lemke_ratio_ties(n, a, beta, basis, cand, &nc);
            if (r == -1) return 0; /* a ray: lemke.c decides it */
            if (r == -2) r = lemke_lexico_dense(n, a, Binv, cand, nc);
        }
        double amax = 0.0;
        for (int i = 0; i < n; i++) amax = fmax(amax, fabs(a[i]));
        if (!(fabs(a[r]) >= SMALL_PIVOT * amax) || !(amax < INFINITY)) return 0;
        /* the pivot at row r: row r of B^-1 divided by abar_r, then eliminated from the others */
        double inv = 1.0 / a[r];
        beta[r] *= inv;
        for (int i = 0; i < n; i++)
            if (i != r) beta[i] -= a[i] * beta[r];
        for (int q = 0; q < n; q++) {
            double *Bq = Binv + (size_t)q * n, br = Bq[r] *= inv;
            if (br == 0.0) continue;
            for (int i = 0; i < n; i++)
                if (i != r) Bq[i] -= a[i] * br;
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
