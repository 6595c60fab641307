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

/* the processes of spectrum(): */
enum {
    SP_GENERAL, /* (A + A')/2 by a gather of A and a scatter of A' a step, one sum a row; LAPACK's Ritz values:
                 * lcp_spectrum's bits */
    SP_SYM,     /* A symmetric: one gather a row in lcp_csr_row_dot's four sums (no gather on a row of one run); Ritz values by Sturm bisection */
    SP_PART     /* (A + A')/2 as SP_GENERAL but the gather's sums and the Ritz values as SP_SYM (not
                 * lcp_spectrum's bits: auto's feature of a non-symmetric A) */
};

/* the axpy of a row of one run, in vectors of two (each y_j the one product and sum of the scalar loop) */
typedef double sp_v2 __attribute__((vector_size(16), aligned(8), may_alias));

/* y = S x with S = D^-1/2 (A + A')/2 D^-1/2; d = D^-1/2, t scratch; mode SP_*. */
static void scaled_apply(const lcp_csr *A, const double *d, const double *x, double *y, double *t, int mode)
{
    int n = A->m;
    for (int i = 0; i < n; i++) t[i] = d[i] * x[i];
    if (mode == SP_SYM) {
        for (int i = 0; i < n; i++) y[i] = d[i] * lcp_csr_row_dot(A->j, A->x, t, A->p[i], A->p[i + 1]);
        return;
    }
    /* (A + A')/2: A t by rows (a gather) into y, A' t by scattering each row's entries scaled by t_i into
     * y; two loops, not one, so that each runs without the other's stores in its way (about 3x faster on
     * dense rows) */
    for (int i = 0; i < n; i++) {
        if (mode == SP_PART) {
            y[i] = lcp_csr_row_dot(A->j, A->x, t, A->p[i], A->p[i + 1]);
            continue;
        }
        double s = 0.0;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) s += A->x[k] * t[A->j[k]];
        y[i] = s;
    }
    for (int i = 0; i < n; i++) {
        const double ti = t[i];
        const int e = A->p[i + 1] - A->p[i];
        const int *restrict jj = A->j + A->p[i];
        const double *restrict xx = A->x + A->p[i];
        if (e > 0 && jj[e - 1] - jj[0] == e - 1) { /* the row's columns one run: an axpy (vectorised; each y_j
                                                     * gets the same additions in the same order) */
            double *restrict yy = y + jj[0];
            int k = 0;
            const sp_v2 tv = {ti, ti};
            for (; k + 4 <= e; k += 4) { /* in vectors of two: each y_j the one product and sum as before */
                *(sp_v2 *)(yy + k) += *(const sp_v2 *)(xx + k) * tv;
                *(sp_v2 *)(yy + k + 2) += *(const sp_v2 *)(xx + k + 2) * tv;
            }
            for (; k < e; k++) yy[k] += xx[k] * ti;
            continue;
        }
        double *restrict yy = y;
        for (int k = 0; k < e; k++) yy[jj[k]] += xx[k] * ti;
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
/* The two Ritz values that --solver auto's log-condition feature needs, to a
 * relative RITZ_RTOL each (log10 of their ratio to about 1e-6; the
 * convergence test of spectrum() compares the ends to 1e-4 of the largest,
 * well above it): bisection on Sturm counts, geometric (the midpoint
 * sqrt(l u)) while the bracket spans more than a factor 2, then plain, the
 * two ends in one pass over T (two independent chains of divisions).  The
 * brackets: the largest in [max alpha, Gershgorin's upper end g], the
 * smallest in [max(Gershgorin's lower end, RITZ_FLOOR g), min alpha]; a
 * smallest at or below RITZ_FLOOR g (g is at most about 3 times the
 * largest) reads 0: semidefinite as far as the feature goes, which calls
 * a condition past 1e12 infinite.  About 20-25 steps an end where
 * bisection to 1e-15 of the scale took about 50.  Deterministic: the same
 * T gives the same bits. */
#define RITZ_RTOL 1e-6
#define RITZ_FLOOR 1e-14
static void sturm_count2(const double *alpha, const double *beta, int k, double x, double y, int *cx, int *cy)
{
    int c = 0, e = 0;
    double d = 1.0, g = 1.0;
    for (int i = 0; i < k; i++) {
        double b2 = i > 0 ? beta[i - 1] * beta[i - 1] : 0.0;
        d = alpha[i] - x - (i > 0 ? b2 / d : 0.0);
        g = alpha[i] - y - (i > 0 ? b2 / g : 0.0);
        if (d == 0.0) d = -1e-300; /* x an eigenvalue of the leading block: count it as below */
        if (g == 0.0) g = -1e-300;
        c += d < 0;
        e += g < 0;
    }
    *cx = c;
    *cy = e;
}

static double ritz_mid(double l, double u) { return l > 0 && u > 2 * l ? sqrt(l * u) : 0.5 * (l + u); }

static void ritz_sturm(const double *alpha, const double *beta, int k, double *lo, double *hi)
{
    double ga = INFINITY, gb = -INFINITY, amin = INFINITY, amax = -INFINITY; /* Gershgorin; the diagonal */
    for (int i = 0; i < k; i++) {
        double r = (i > 0 ? fabs(beta[i - 1]) : 0.0) + (i < k - 1 ? fabs(beta[i]) : 0.0);
        ga = fmin(ga, alpha[i] - r);
        gb = fmax(gb, alpha[i] + r);
        amin = fmin(amin, alpha[i]);
        amax = fmax(amax, alpha[i]);
    }
    double scale = fmax(fabs(ga), fabs(gb)), pad = 1e-12 * scale, tiny = RITZ_FLOOR * scale;
    /* the largest: in [amax, gb] (a Rayleigh quotient below it, Gershgorin above) */
    double hl = amax - pad, hu = gb + pad;
    /* the smallest: below amin; above Gershgorin's lower end, or above the floor (0 where it is not) */
    double ll = ga - pad, lu = amin + pad;
    int lo_live = 1, hi_live = 1, c, e;
    if (hu > 0) {
        double floor = RITZ_FLOOR * hu;
        if (ll < floor) {
            sturm_count2(alpha, beta, k, floor, floor, &c, &e);
            if (c >= 1) lo_live = 0, ll = lu = 0.0; /* at or below the floor: 0 */
            else ll = floor;
        }
    }
    while (lo_live || hi_live) {
        double ml = ritz_mid(ll, lu), mh = ritz_mid(hl, hu);
        lo_live = lo_live && lu - ll > RITZ_RTOL * fmax(fabs(ll), tiny) && ml > ll && ml < lu;
        hi_live = hi_live && hu - hl > RITZ_RTOL * fmax(fabs(hl), tiny) && mh > hl && mh < hu;
        if (!lo_live && !hi_live) break;
        sturm_count2(alpha, beta, k, ml, mh, &c, &e);
        if (lo_live) {
            if (c >= 1) lu = ml;
            else ll = ml;
        }
        if (hi_live) {
            if (e >= k) hu = mh;
            else hl = mh;
        }
    }
    *lo = 0.5 * (ll + lu);
    *hi = 0.5 * (hl + hu);
}

int lcp_scaled_spectrum(const lcp_csr *A, int max_steps, double *lmin, double *lmax)
{
    return lcp_spectrum(A, NULL, max_steps, lmin, lmax, NULL);
}

/* The Lanczos process of lcp_spectrum; with a finite hi_stop it also stops
 * as soon as the largest Ritz value reaches hi_stop (Ritz values lie inside
 * the spectrum, so lmax >= hi_stop is then certain; the Ritz values are
 * taken at every one of the first 10 steps for that test), and finds the
 * Ritz values by bisection (ritz_bisect).  mode SP_SYM: A is known
 * symmetric (half the traffic a product, Ritz values by Sturm bisection,
 * ritz_sturm, no LAPACK); SP_PART: a non-symmetric A with SP_SYM's sums
 * and Ritz values.  INFINITY and SP_GENERAL: lcp_spectrum's process and
 * bits. */
static int spectrum(const lcp_csr *A, const double *scale, int max_steps, double hi_stop, double *lmin,
                    double *lmax, int *steps, int mode);

int lcp_spectrum_symmetric(const lcp_csr *A, int max_steps, double *lmin, double *lmax, int *steps)
{
    return spectrum(A, NULL, max_steps, INFINITY, lmin, lmax, steps, SP_SYM);
}

int lcp_spectrum_part(const lcp_csr *A, int max_steps, double *lmin, double *lmax, int *steps)
{
    return spectrum(A, NULL, max_steps, INFINITY, lmin, lmax, steps, SP_PART);
}

static int spectrum(const lcp_csr *A, const double *scale, int max_steps, double hi_stop, double *lmin,
                    double *lmax, int *steps, int mode)
{
    int sym = mode != SP_GENERAL; /* the start vector and the Ritz values of the symmetric process */
    int n = A->m, kmax = max_steps < n ? max_steps : n;
    if (steps) *steps = 0;
    if (kmax < 1) kmax = 1;
    /* one block: d, q, qn, w, t (n each), alpha, beta (kmax each), work (5 kmax); iwork apart */
    int bisect = hi_stop < INFINITY;
    size_t nn = (size_t)n, kk = (size_t)kmax;
    double *blk = lcp_alloc(5 * nn + 7 * kk, sizeof(double));
    double *d = blk, *q = blk ? d + nn : NULL, *qn = blk ? q + nn : NULL, *w = blk ? qn + nn : NULL;
    double *t = blk ? w + nn : NULL, *alpha = blk ? t + nn : NULL, *beta = blk ? alpha + kk : NULL;
    double *work = blk ? beta + kk : NULL;
    int *iwork = bisect ? lcp_alloc(5 * (size_t)kmax, sizeof(int)) : NULL;
    int rc = LCP_ERROR;
    if (!blk || (bisect && !iwork)) goto done;
    memset(q, 0, nn * sizeof *q);
    for (int i = 0; i < n; i++) {
        if (scale) {
            d[i] = scale[i];
            continue;
        }
        double a = lcp_csr_diag(A, i); /* sorted, no duplicates: the one (i, i), by bisection */
        if (!(a > 0)) goto done;
        d[i] = 1.0 / sqrt(a);
    }
    /* a fixed, generic start vector: deterministic results.  1 + sin(1 + 1.7 i) / 2; the symmetric
     * variant (auto's features, on every solve) takes the sines by the rotation through 1.7, afresh from
     * sin and cos every 64 entries (a few units in the last place from the library's sin; none called
     * below 64 entries) */
    double s = 0.0;
    if (sym) {
        const double c17 = cos(1.7), s17 = sin(1.7);
        double sn = sin(1.0), cs = cos(1.0);
        for (int i = 0; i < n; i++) {
            if (i && i % 64 == 0) sn = sin(1.0 + 1.7 * i), cs = cos(1.0 + 1.7 * i);
            else if (i) {
                double sn1 = sn * c17 + cs * s17;
                cs = cs * c17 - sn * s17;
                sn = sn1;
            }
            qn[i] = 1.0 + 0.5 * sn;
            s += qn[i] * qn[i];
        }
    } else {
        for (int i = 0; i < n; i++) {
            qn[i] = 1.0 + 0.5 * sin(1.0 + 1.7 * i);
            s += qn[i] * qn[i];
        }
    }
    for (int i = 0; i < n; i++) qn[i] /= sqrt(s);
    double lo = 0, hi = 0, plo = INFINITY, phi = INFINITY, b = 0.0;
    int k;
    for (k = 0; k < kmax; k++) {
        /* q_{k-1} <- q_k... : q holds the previous vector, qn the current */
        scaled_apply(A, d, qn, w, t, mode);
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
    free(blk), free(iwork);
    return rc;
}

int lcp_spectrum(const lcp_csr *A, const double *scale, int max_steps, double *lmin, double *lmax, int *steps)
{
    return spectrum(A, scale, max_steps, INFINITY, lmin, lmax, steps, SP_GENERAL);
}

int lcp_scaled_spectrum_until(const lcp_csr *A, int max_steps, double hi_stop, double *lmin, double *lmax,
                              int *steps)
{
    return spectrum(A, NULL, max_steps, hi_stop, lmin, lmax, steps, SP_GENERAL);
}

double lcp_sym3_lmax(const double *B)
{
    double p1 = B[1] * B[1] + B[2] * B[2] + B[5] * B[5];
    if (p1 == 0.0) return fmax(B[0], fmax(B[4], B[8])); /* diagonal */
    double q = (B[0] + B[4] + B[8]) / 3.0, a = B[0] - q, b = B[4] - q, c = B[8] - q;
    double pp = sqrt((a * a + b * b + c * c + 2.0 * p1) / 6.0);
    /* r = det((B - q I) / pp) / 2 in [-1, 1] (clamped against rounding); the eigenvalues are
     * q + 2 pp cos(acos(r) / 3 + 2 pi k / 3), the largest at k = 0 */
    double det = a * (b * c - B[5] * B[5]) - B[1] * (B[1] * c - B[5] * B[2]) + B[2] * (B[1] * B[5] - b * B[2]);
    double r = det / (2.0 * pp * pp * pp);
    r = r < -1.0 ? -1.0 : r > 1.0 ? 1.0 : r;
    return q + 2.0 * pp * cos(acos(r) / 3.0);
}
