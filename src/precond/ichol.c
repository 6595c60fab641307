/* src/precond/ichol.c: shifted incomplete Cholesky, IC(0), P = D^1/2 L L' D^1/2.
 *
 * A (symmetric, both triangles stored; only the lower triangle is read) is
 * first scaled to unit diagonal, S = D^-1/2 A D^-1/2 with D = diag(A), so the
 * factorisation does not care how badly A is scaled (mass ratios).  L is the
 * incomplete Cholesky factor of S + alpha I on the pattern of the lower
 * triangle of A (no fill):
 *
 *     L_ik = (S_ik - sum_{j<k} L_ij L_kj) / L_kk      (k < i, A_ik stored)
 *     L_ii = sqrt(1 + alpha - sum_{j<i} L_ij^2)
 *
 * First with alpha = 0; if a pivot (the radicand of L_ii) falls to
 * sqrt(eps) (1 + alpha) or below -- a semidefinite A such as a rank-deficient
 * contact set, or a matrix on which IC(0) breaks down -- the factorisation
 * restarts with alpha = 1e-3, then 1e-2, 1e-1, ... (Manteuffel's shifted
 * incomplete Cholesky) until one works; two bisections of log(alpha)
 * between the last failure and that success then pick the smallest shift
 * that works to within a factor 10^(1/4) (a smaller shift keeps P closer to
 * A: on a friction pyramid 0.56 instead of 1 saves a fifth of the CG
 * iterations).  Once alpha exceeds the largest off-diagonal row sum of |S|,
 * S + alpha I is strictly diagonally dominant and IC(0) cannot break down;
 * the last shift tried is at least max(1e4, 2 * that sum), so the search
 * always ends (the LCP_ERROR after it is only a safeguard), for an
 * indefinite A too.
 *
 * apply: y = D^-1/2 L^-T L^-1 D^-1/2 r, two sparse triangular solves, both
 * over the rows of L (the transposed solve scatters by columns), so P^-1 is
 * symmetric positive definite.  Setup costs about sum_i sum_{k in row i}
 * nnz(row k of L) flops per attempt (at most about 12 attempts, 1 for a
 * positive definite A where IC(0) exists), apply 4 nnz(L) flops; memory
 * about nnz(A).
 *
 * Every diagonal entry of A must be positive (LCP_INPUT_ERROR naming the
 * first row that is not).  lcp_precond_ichol_shift() gives the alpha used.
 */
#include "precond.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

typedef struct {
    int n;
    int *p, *j;     /* L by rows, lower triangle, diagonal last in each row */
    double *x;
    double *dhalf;  /* D^-1/2 */
    double alpha;   /* the shift that worked */
} ichol;

static void release(void *state)
{
    ichol *f = state;
    if (f) {
        free(f->p);
        free(f->j);
        free(f->x);
        free(f->dhalf);
    }
    free(f);
}

/* The shift alpha used by a built ichol state (0: none was needed). */
double lcp_precond_ichol_shift(const void *state);
double lcp_precond_ichol_shift(const void *state) { return ((const ichol *)state)->alpha; }

/* IC(0) of S + alpha I into f->x, with S's lower triangle in s (same pattern
 * as L).  lw is an n-vector of zeros, left zero.  Returns the row of the
 * first pivot <= sqrt(eps)(1 + alpha) (or not finite), or -1 on success. */
static int factor(ichol *f, const double *s, double alpha, double *lw)
{
    const double tiny = sqrt(DBL_EPSILON) * (1 + alpha);
    for (int i = 0; i < f->n; i++) {
        int last = f->p[i + 1] - 1; /* the diagonal */
        double d = s[last] + alpha;
        for (int q = f->p[i]; q < last; q++) {
            int k = f->j[q];
            double sum = s[q];
            for (int t = f->p[k]; t < f->p[k + 1] - 1; t++) sum -= lw[f->j[t]] * f->x[t];
            double l = sum / f->x[f->p[k + 1] - 1];
            f->x[q] = l;
            lw[k] = l;
            d -= l * l;
        }
        for (int q = f->p[i]; q < last; q++) lw[f->j[q]] = 0;
        if (!(d > tiny) || !isfinite(d)) return i;
        f->x[last] = sqrt(d);
    }
    return -1;
}

static int setup(const lcp_csr *A, const struct lcp_settings_s *s, void **state, lcp_err *err)
{
    (void)s;
    int n = A->n;
    if (A->m != n) return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "preconditioner ichol needs a square matrix");
    int bad_row, bad_col;
    if (!lcp_csr_all_finite(A, &bad_row, &bad_col))
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "preconditioner ichol: A(%d,%d) is not finite", bad_row + 1,
                        bad_col + 1);
    for (int i = 0; i < n; i++) {
        double a = lcp_csr_diag(A, i);
        if (!(a > 0))
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                            "preconditioner ichol needs a positive diagonal, but A(%d,%d) = %g", i + 1, i + 1, a);
    }
    long nl = 0;
    for (int i = 0; i < n; i++)
        for (int q = A->p[i]; q < A->p[i + 1]; q++) nl += A->j[q] <= i;
    ichol *f = lcp_calloc(1, sizeof *f);
    double *sv = NULL, *lw = NULL;
    if (!f || !(f->p = lcp_alloc((size_t)n + 1, sizeof(int))) || !(f->j = lcp_alloc((size_t)nl, sizeof(int))) ||
        !(f->x = lcp_alloc((size_t)nl, sizeof(double))) || !(f->dhalf = lcp_alloc((size_t)n, sizeof(double))) ||
        !(sv = lcp_alloc((size_t)nl, sizeof(double))) || !(lw = lcp_calloc((size_t)n, sizeof(double)))) {
        release(f);
        free(sv);
        free(lw);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    }
    f->n = n;
    for (int i = 0; i < n; i++) f->dhalf[i] = 1 / sqrt(lcp_csr_diag(A, i));
    /* the scaled lower triangle, columns sorted so the diagonal comes last;
     * the largest off-diagonal row sum of |S| bounds the shift */
    double rowsum_max = 0;
    long q = 0;
    f->p[0] = 0;
    for (int i = 0; i < n; i++) {
        double rowsum = 0;
        for (int t = A->p[i]; t < A->p[i + 1]; t++) {
            int c = A->j[t];
            double v = A->x[t] * f->dhalf[i] * f->dhalf[c];
            if (c != i) rowsum += fabs(v);
            if (c > i) continue;
            f->j[q] = c;
            sv[q++] = c == i ? 1.0 : v;
        }
        f->p[i + 1] = (int)q;
        if (rowsum > rowsum_max) rowsum_max = rowsum;
    }
    double alpha_max = fmax(1e4, 2 * rowsum_max);
    double alpha = 0;
    int bad;
    while ((bad = factor(f, sv, alpha, lw)) >= 0) {
        if (alpha >= alpha_max || !isfinite(rowsum_max)) break;
        alpha = alpha == 0 ? 1e-3 : alpha * 10;
    }
    /* refine between the last failure alpha/10 and alpha: two bisections of
     * the logarithm, ending on the smallest shift that worked (within a
     * factor 10^(1/4)); a smaller shift keeps P closer to A */
    if (bad < 0 && alpha > 1e-3) {
        double lo = alpha / 10, hi = alpha;
        int holds_hi = 1; /* f->x is the factor for hi */
        for (int k = 0; k < 2; k++) {
            double mid = sqrt(lo * hi);
            holds_hi = factor(f, sv, mid, lw) < 0;
            if (holds_hi) hi = mid;
            else lo = mid;
        }
        alpha = hi;
        if (!holds_hi) bad = factor(f, sv, alpha, lw);
    }
    free(sv);
    free(lw);
    if (bad >= 0) {
        release(f);
        return lcp_fail(err, LCP_ERROR, NULL, 0,
                        "preconditioner ichol: incomplete Cholesky breaks down at row %d even with shift %g", bad + 1,
                        alpha);
    }
    f->alpha = alpha;
    *state = f;
    return 0;
}

static void apply(void *state, const double *r, double *y)
{
    const ichol *f = state;
    int n = f->n;
    double *z = y; /* solved in place in y */
    /* L z = D^-1/2 r, by rows */
    for (int i = 0; i < n; i++) {
        double sum = f->dhalf[i] * r[i];
        int last = f->p[i + 1] - 1;
        for (int q = f->p[i]; q < last; q++) sum -= f->x[q] * z[f->j[q]];
        z[i] = sum / f->x[last];
    }
    /* L' u = z, by columns of L' (rows of L), then y = D^-1/2 u */
    for (int i = n - 1; i >= 0; i--) {
        int last = f->p[i + 1] - 1;
        double u = z[i] / f->x[last];
        z[i] = u;
        for (int q = f->p[i]; q < last; q++) z[f->j[q]] -= f->x[q] * u;
    }
    for (int i = 0; i < n; i++) y[i] = f->dhalf[i] * z[i];
}

const lcp_precond_type lcp_precond_ichol = {
    "ichol", "incomplete Cholesky IC(0) of D^-1/2 A D^-1/2, shifted (1e-3, 1e-2, ...) when a pivot breaks down",
    setup, apply, release};
