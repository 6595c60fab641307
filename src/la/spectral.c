/* src/la/spectral.c: extreme eigenvalues of the diagonally scaled matrix
 * S = D^-1/2 A_s D^-1/2 (A_s = (A + A')/2), or of diag(s) A_s diag(s) for
 * a given scaling s, by the Lanczos process
 * (Golub and Van Loan, ch. 10): k steps build a tridiagonal T_k whose
 * extreme eigenvalues (LAPACK dstev) converge to those of S in about
 * sqrt(cond) steps, far faster than power iteration.  Without
 * reorthogonalisation the extreme Ritz values still converge (lost
 * orthogonality only duplicates them).  Used for the optimal SOR factor
 * (rho_Jacobi = max(|1 - lmin|, |1 - lmax|)), the Jacobi step and
 * mprgp's expansion step. */
#include "spectral.h"
#include "../solvers/solver.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

void dstev_(const char *jobz, const int *n, double *d, double *e, double *z, const int *ldz, double *work,
            int *info);
void dstebz_(const char *range, const char *order, const int *n, const double *vl, const double *vu, const int *il,
             const int *iu, const double *abstol, const double *d, const double *e, int *m, int *nsplit, double *w,
             int *iblock, int *isplit, double *work, int *iwork, int *info);

/* y = S x with S = D^-1/2 (A + A')/2 D^-1/2; d = D^-1/2, t scratch; sym:
 * A is known to be symmetric, a plain row-wise product. */
static void scaled_apply(const lcp_csr *A, const double *d, const double *x, double *y, double *t, int sym)
{
    int n = A->m;
    for (int i = 0; i < n; i++) t[i] = d[i] * x[i];
    if (sym) {
        for (int i = 0; i < n; i++) {
            double s = 0.0;
            for (int k = A->p[i]; k < A->p[i + 1]; k++) s += A->x[k] * t[A->j[k]];
            y[i] = d[i] * s;
        }
        return;
    }
    /* (A + A')/2: A t by rows (a gather) into y, A' t by scattering each row's entries scaled by t_i into
     * y; two loops, not one, so that each runs without the other's stores in its way (about 3x faster on
     * dense rows) */
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) s += A->x[k] * t[A->j[k]];
        y[i] = s;
    }
    for (int i = 0; i < n; i++) {
        const double ti = t[i];
        const int *restrict jj = A->j + A->p[i];
        const double *restrict xx = A->x + A->p[i];
        double *restrict yy = y;
        for (int k = 0, e = A->p[i + 1] - A->p[i]; k < e; k++) yy[jj[k]] += xx[k] * ti;
    }
    for (int i = 0; i < n; i++) y[i] *= 0.5 * d[i];
}

/* Extreme eigenvalues of the k x k tridiagonal (alpha, beta). */


static int ritz(const double *alpha, const double *beta, int k, double *lo, double *hi, double *work)
{
    double *d = work, *e = work + k;
    memcpy(d, alpha, (size_t)k * sizeof(double));
    if (k > 1) memcpy(e, beta, (size_t)(k - 1) * sizeof(double));
    int info = 0, one = 1;
    dstev_("N", &k, d, e, NULL, &one, NULL, &info);
    if (info) return -1;
    *lo = d[0];
    *hi = d[k - 1];
    return 0;
}

/* The same two Ritz values by bisection (LAPACK dstebz, Sturm counts):
 * O(k) a value where dstev's QR is O(k^2), which made the checks every 10
 * steps O(k^3) in all (seconds at k ~ 1000, a long chain's).  work: 5k
 * doubles, iwork: 5k ints. */
static int ritz_bisect(const double *alpha, const double *beta, int k, double *lo, double *hi, double *work,
                       int *iwork)
{
    int m = 0, nsplit = 0, info = 0, ends[2] = {1, k};
    double zero = 0.0, v[2];
    for (int e = 0; e < 2; e++) {
        dstebz_("I", "E", &k, &zero, &zero, &ends[e], &ends[e], &zero, alpha, beta, &m, &nsplit, work,
                iwork, iwork + k, work + k, iwork + 2 * k, &info);
        if (info || m != 1) return -1;
        v[e] = work[0];
    }
    *lo = v[0];
    *hi = v[1];
    return 0;
}

/* The same by bisection on Sturm counts (no LAPACK: dstev in an OpenMP
 * build of OpenBLAS wakes a thread team that then spins on the other cores,
 * which costs `--solver auto` more than its whole analysis). */
static int sturm_count(const double *alpha, const double *beta, int k, double x)
{
    int c = 0;
    double d = 1.0;
    for (int i = 0; i < k; i++) {
        d = alpha[i] - x - (i > 0 ? beta[i - 1] * beta[i - 1] / d : 0.0);
        if (d == 0.0) d = -1e-300; /* x an eigenvalue of the leading block: count it as below */
        c += d < 0;
    }
    return c;
}

static void ritz_sturm(const double *alpha, const double *beta, int k, double *lo, double *hi)
{
    double a = INFINITY, b = -INFINITY; /* Gershgorin */
    for (int i = 0; i < k; i++) {
        double r = (i > 0 ? fabs(beta[i - 1]) : 0.0) + (i < k - 1 ? fabs(beta[i]) : 0.0);
        a = fmin(a, alpha[i] - r);
        b = fmax(b, alpha[i] + r);
    }
    double scale = fmax(fabs(a), fabs(b));
    for (int end = 0; end < 2; end++) { /* the 1st and the k-th eigenvalue */
        int want = end == 0 ? 1 : k;
        double l = a - 1e-12 * scale, u = b + 1e-12 * scale;
        for (int it = 0; it < 200 && u - l > 1e-15 * scale; it++) {
            double m = 0.5 * (l + u);
            if (sturm_count(alpha, beta, k, m) >= want) u = m;
            else l = m;
        }
        if (end == 0) *lo = 0.5 * (l + u);
        else *hi = 0.5 * (l + u);
    }
}

int lcp_scaled_spectrum(const lcp_csr *A, int max_steps, double *lmin, double *lmax)
{
    return lcp_spectrum(A, NULL, max_steps, lmin, lmax, NULL);
}

/* The Lanczos process of lcp_spectrum; with a finite hi_stop it also stops
 * as soon as the largest Ritz value reaches hi_stop (Ritz values lie inside
 * the spectrum, so lmax >= hi_stop is then certain; the Ritz values are
 * taken at every one of the first 10 steps for that test), and finds the
 * Ritz values by bisection (ritz_bisect).  sym: A is known symmetric (half
 * the traffic a product, Ritz values by Sturm bisection, ritz_sturm, no
 * LAPACK).  INFINITY and sym = 0: lcp_spectrum's process and bits. */
static int spectrum(const lcp_csr *A, const double *scale, int max_steps, double hi_stop, double *lmin,
                    double *lmax, int *steps, int sym);

int lcp_spectrum_symmetric(const lcp_csr *A, int max_steps, double *lmin, double *lmax, int *steps)
{
    return spectrum(A, NULL, max_steps, INFINITY, lmin, lmax, steps, 1);
}

static int spectrum(const lcp_csr *A, const double *scale, int max_steps, double hi_stop, double *lmin,
                    double *lmax, int *steps, int sym)
{
    int n = A->m, kmax = max_steps < n ? max_steps : n;
    if (steps) *steps = 0;
    if (kmax < 1) kmax = 1;
    double *d = lcp_alloc((size_t)n, sizeof(double)), *q = lcp_calloc((size_t)n, sizeof(double));
    double *qn = lcp_alloc((size_t)n, sizeof(double)), *w = lcp_alloc((size_t)n, sizeof(double));
    double *t = lcp_alloc((size_t)n, sizeof(double)), *alpha = lcp_alloc((size_t)kmax, sizeof(double));
    int bisect = hi_stop < INFINITY;
    double *beta = lcp_alloc((size_t)kmax, sizeof(double)), *work = lcp_alloc(5 * (size_t)kmax, sizeof(double));
    int *iwork = bisect ? lcp_alloc(5 * (size_t)kmax, sizeof(int)) : NULL;
    int rc = LCP_ERROR;
    if (!d || !q || !qn || !w || !t || !alpha || !beta || !work || (bisect && !iwork)) goto done;
    for (int i = 0; i < n; i++) {
        if (scale) {
            d[i] = scale[i];
            continue;
        }
        double a = 0.0;
        for (int k = A->p[i]; k < A->p[i + 1]; k++)
            if (A->j[k] == i) a += A->x[k];
        if (!(a > 0)) goto done;
        d[i] = 1.0 / sqrt(a);
    }
    /* a fixed, generic start vector: deterministic results */
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        qn[i] = 1.0 + 0.5 * sin(1.0 + 1.7 * i);
        s += qn[i] * qn[i];
    }
    for (int i = 0; i < n; i++) qn[i] /= sqrt(s);
    double lo = 0, hi = 0, plo = INFINITY, phi = INFINITY, b = 0.0;
    int k;
    for (k = 0; k < kmax; k++) {
        /* q_{k-1} <- q_k... : q holds the previous vector, qn the current */
        scaled_apply(A, d, qn, w, t, sym);
        if (steps) (*steps)++;
        double a = 0.0;
        for (int i = 0; i < n; i++) a += qn[i] * w[i];
        alpha[k] = a;
        double nb = 0.0;
        for (int i = 0; i < n; i++) {
            w[i] -= a * qn[i] + b * q[i];
            nb += w[i] * w[i];
        }
        nb = sqrt(nb);
        int check = k % 10 == 9 || k == kmax - 1 || nb <= 1e-14 * fabs(a);
        if (check || (k < 10 && bisect)) {
            int bad = 0;
            if (sym) ritz_sturm(alpha, beta, k + 1, &lo, &hi);
            else bad = bisect ? ritz_bisect(alpha, beta, k + 1, &lo, &hi, work, iwork)
                              : ritz(alpha, beta, k + 1, &lo, &hi, work);
            if (bad) goto done;
            if (hi >= hi_stop) break;
            /* stop when both ends have settled */
            if (check && fabs(lo - plo) <= 1e-2 * fabs(lo) + 1e-12 * fabs(hi) && fabs(hi - phi) <= 1e-4 * fabs(hi))
                break;
            if (check) {
                plo = lo;
                phi = hi;
            }
        }
        if (nb <= 1e-14 * fabs(a)) break; /* invariant subspace: exact */
        if (k % 10 == 9 && lcp_monitor_poll()) break; /* asked to stop (SIGINT): the estimate so far; the solve stops next */
        beta[k] = nb;
        b = nb;
        for (int i = 0; i < n; i++) {
            q[i] = qn[i];
            qn[i] = w[i] / nb;
        }
    }
    *lmin = lo > 0 ? lo : 0.0;
    *lmax = hi;
    rc = 0;
done:
    free(d), free(q), free(qn), free(w), free(t), free(alpha), free(beta), free(work), free(iwork);
    return rc;
}

int lcp_spectrum(const lcp_csr *A, const double *scale, int max_steps, double *lmin, double *lmax, int *steps)
{
    return spectrum(A, scale, max_steps, INFINITY, lmin, lmax, steps, 0);
}

int lcp_scaled_spectrum_until(const lcp_csr *A, int max_steps, double hi_stop, double *lmin, double *lmax,
                              int *steps)
{
    return spectrum(A, NULL, max_steps, hi_stop, lmin, lmax, steps, 0);
}
