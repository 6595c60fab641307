/* src/spectral.c: power iterations on the diagonally scaled matrix
 * S = D^-1/2 A_s D^-1/2.  Used for the optimal SOR factor
 * (rho_Jacobi = max(|1 - lmin|, |1 - lmax|)), the Jacobi step, and
 * condition estimates of large problems. */
#include "spectral.h"

#include <math.h>
#include <stdlib.h>

/* y = S x with S = D^-1/2 (A + A')/2 D^-1/2; d = D^-1/2. */
static void scaled_apply(const lcp_csr *A, const double *d, const double *x, double *y, double *t)
{
    int n = A->m;
    for (int i = 0; i < n; i++) t[i] = d[i] * x[i];
    for (int i = 0; i < n; i++) y[i] = 0.0;
    for (int i = 0; i < n; i++)
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            double a = 0.5 * A->x[k];
            y[i] += a * t[A->j[k]];     /* A/2 */
            y[A->j[k]] += a * t[i];     /* A'/2 */
        }
    for (int i = 0; i < n; i++) y[i] *= d[i];
}

static double normalize(double *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    s = sqrt(s);
    if (s > 0)
        for (int i = 0; i < n; i++) x[i] /= s;
    return s;
}

/* Largest eigenvalue of (shift*I - S) when sign < 0, of S when sign > 0. */
static double power(const lcp_csr *A, const double *d, int iters, double shift, double sign, double *x,
                    double *y, double *t)
{
    int n = A->m;
    for (int i = 0; i < n; i++) x[i] = 1.0 + 0.5 * sin(1.0 + i); /* fixed, generic start */
    normalize(x, n);
    double lam = 0.0;
    for (int it = 0; it < iters; it++) {
        scaled_apply(A, d, x, y, t);
        if (sign < 0)
            for (int i = 0; i < n; i++) y[i] = shift * x[i] - y[i];
        double r = 0.0; /* Rayleigh quotient x'y (x normalised) */
        for (int i = 0; i < n; i++) r += x[i] * y[i];
        lam = r;
        if (normalize(y, n) == 0.0) break;
        double *s = x; /* both are scratch: swap roles */
        x = y;
        y = s;
    }
    return lam;
}

int lcp_scaled_spectrum(const lcp_csr *A, int iters, double *lmin, double *lmax)
{
    int n = A->m;
    double *d = lcp_alloc((size_t)n, sizeof(double));
    double *x = lcp_alloc((size_t)n, sizeof(double));
    double *y = lcp_alloc((size_t)n, sizeof(double));
    double *t = lcp_alloc((size_t)n, sizeof(double));
    int rc = LCP_ERROR;
    if (!d || !x || !y || !t) goto done;
    for (int i = 0; i < n; i++) {
        double a = lcp_csr_diag(A, i);
        if (!(a > 0)) goto done;
        d[i] = 1.0 / sqrt(a);
    }
    *lmax = power(A, d, iters, 0.0, 1.0, x, y, t);
    double shift = *lmax * 1.0001;
    *lmin = shift - power(A, d, iters, shift, -1.0, x, y, t);
    if (*lmin < 0 && *lmin > -1e-8 * *lmax) *lmin = 0.0;
    rc = 0;
done:
    free(d);
    free(x);
    free(y);
    free(t);
    return rc;
}
