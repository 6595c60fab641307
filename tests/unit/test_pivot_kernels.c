/* tests/unit/test_pivot_kernels.c: the dense kernels of pivot
 * (src/solvers/pivot_kernels.c, pivot_factor.c) against reference loops.
 *
 * - pivot_dot_csr, the contiguous dot of the monitor's check on an A of full
 *   rows, must give the bits of lcp_csr_row_dot (the residual's CSR walk,
 *   src/la/csr.h) on the same row, for every length 0..67 (every remainder
 *   of the steps of four) and values of mixed signs and magnitudes, zeros
 *   of both signs among them;
 * - pivot_cc_solve_u (U y = z with U' kept, the solve compiled with its
 *   flags constant) against the plain back substitution and to a small
 *   relative residual, for |C| = 1..40 in a leading dimension larger than
 *   |C|;
 * - pivot_symmetric (the exact symmetry test of the dense copy, in 4 x 4
 *   blocks) against the test of every pair, each off-diagonal entry of
 *   symmetric matrices of n = 0..21 changed in turn;
 * - pivot_move (the factor's rows and columns moved up and left) where
 *   source and destination overlap;
 * - pivot_trsv's four forms (L z = v, L' y = v, unit or not) against the
 *   plain substitution loops, to 1e-12 relative.
 */
#include "check.h"
#include "la/csr.h"
#include "solvers/pivot_internal.h"

#include <string.h>

static unsigned long long rng = 88172645463325252ULL;
static double urand(void) /* uniform in [-1, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 4503599627370496.0 - 1.0;
}

static double mixed(void) /* mixed signs and magnitudes, and zeros of both signs */
{
    double u = urand();
    if (u > 0.9) return 0.0;
    if (u < -0.9) return -0.0;
    return urand() * ldexp(1.0, (int)(20 * urand()));
}

static void test_dot_csr(void)
{
    enum { N = 67 };
    double a[N], x[N];
    int j[N];
    for (int n = 0; n <= N; n++)
        for (int rep = 0; rep < 20; rep++) {
            for (int k = 0; k < n; k++) {
                a[k] = mixed();
                x[k] = mixed();
                j[k] = k;
            }
            double ref = lcp_csr_row_dot(j, a, x, 0, n), got = pivot_dot_csr(n, a, x);
            CHECK(memcmp(&ref, &got, sizeof ref) == 0);
        }
}

/* y: U y = z by the plain loop (U = Ut', Ut lower, leading dimension ld) */
static void ref_solve_ut(int m, const double *Ut, int ld, double *y)
{
    for (int jj = m - 1; jj >= 0; jj--) {
        double s = y[jj];
        for (int r = jj + 1; r < m; r++) s -= Ut[r + (size_t)jj * ld] * y[r];
        y[jj] = s / Ut[jj + (size_t)jj * ld];
    }
}

static void test_solve_u(void)
{
    enum { MAXM = 40, LD = 45 };
    static double L[LD * LD], Ut[LD * LD];
    double z[MAXM], y1[MAXM], y2[MAXM];
    for (int m = 1; m <= MAXM; m++) {
        memset(Ut, 0, sizeof Ut);
        for (int q = 0; q < m; q++) { /* U' lower: diagonal in [0.5, 1.5), entries below */
            Ut[q + (size_t)q * LD] = 0.5 + fabs(urand());
            for (int r = q + 1; r < m; r++) Ut[r + (size_t)q * LD] = 0.5 * urand();
        }
        for (int q = 0; q < m; q++) z[q] = urand();
        pv W;
        memset(&W, 0, sizeof W);
        W.n = LD; /* a leading dimension larger than |C| */
        W.nc = m;
        W.L = L;
        W.Ut = Ut;
        memcpy(y1, z, sizeof z);
        memcpy(y2, z, sizeof z);
        pivot_cc_solve_u(&W, y1);
        ref_solve_ut(m, Ut, LD, y2);
        double e = 0, sc = 1; /* U y - z, and y against the plain loop */
        for (int q = 0; q < m; q++) {
            double s1 = -z[q];
            for (int r = q; r < m; r++) s1 += Ut[r + (size_t)q * LD] * y1[r];
            e = fmax(e, fabs(s1));
            sc = fmax(sc, fabs(y2[q]));
        }
        CHECK(e <= 1e-12 * sc);
        double d = 0;
        for (int q = 0; q < m; q++) d = fmax(d, fabs(y1[q] - y2[q]));
        CHECK(d <= 1e-12 * sc);
    }
}

static void test_trsv(void)
{
    enum { MAXM = 37, LD = 41 };
    static double T[LD * LD];
    double v[MAXM], ref[MAXM];
    for (int trans = 0; trans < 2; trans++)
        for (int unit = 0; unit < 2; unit++)
            for (int m = 0; m <= MAXM; m++) {
                for (int c = 0; c < m; c++)
                    for (int r = c; r < m; r++) T[r + (size_t)c * LD] = r == c ? 1.0 + fabs(urand()) : 0.3 * urand();
                for (int q = 0; q < m; q++) v[q] = ref[q] = urand();
                pivot_trsv(m, T, LD, trans, unit, v);
                if (!trans) /* T z = v, forward */
                    for (int r = 0; r < m; r++) {
                        double s = ref[r];
                        for (int c = 0; c < r; c++) s -= T[r + (size_t)c * LD] * ref[c];
                        ref[r] = unit ? s : s / T[r + (size_t)r * LD];
                    }
                else /* T' y = v, backward */
                    for (int r = m - 1; r >= 0; r--) {
                        double s = ref[r];
                        for (int c = r + 1; c < m; c++) s -= T[c + (size_t)r * LD] * ref[c];
                        ref[r] = unit ? s : s / T[r + (size_t)r * LD];
                    }
                double err = 0, sc = 1;
                for (int q = 0; q < m; q++) {
                    err = fmax(err, fabs(v[q] - ref[q]));
                    sc = fmax(sc, fabs(ref[q]));
                }
                CHECK(err <= 1e-12 * sc);
            }
}

/* pivot_symmetric against the test of every pair: symmetric matrices of
 * n = 0..21 (every remainder of the 4 x 4 blocks), then each off-diagonal
 * entry in turn changed (by one ulp, and to a zero of the other sign:
 * equal, still symmetric) */
static void test_symmetric(void)
{
    enum { N = 21 };
    static double D[N * N];
    for (int n = 0; n <= N; n++) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j <= i; j++) D[i * n + j] = D[j * n + i] = urand() > 0.8 ? 0.0 : urand();
        CHECK(pivot_symmetric(n, D) == 1);
        int all = 1;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                if (i == j) continue;
                double keep = D[i * n + j];
                D[i * n + j] = keep == 0.0 ? -0.0 : nextafter(keep, 2.0);
                int want = keep == 0.0; /* -0 = +0 */
                all &= pivot_symmetric(n, D) == want;
                D[i * n + j] = keep;
            }
        CHECK(all);
        CHECK(pivot_symmetric(n, D) == 1);
    }
}

/* pivot_move: dst[0..n) = src[0..n) front to back where the two overlap
 * (dst = src - s: the factor's rows moved up by one, columns left and up
 * by the leading dimension plus one), every n = 0..19 and the other entries
 * kept */
static void test_move(void)
{
    enum { N = 64 };
    double buf[N], want[N];
    int all = 1;
    for (int sft = 1; sft <= 9; sft += 4)
        for (int n = 0; n < 20; n++) {
            for (int k = 0; k < N; k++) buf[k] = want[k] = k + 0.5;
            for (int k = 0; k < n; k++) want[3 + k] = buf[3 + sft + k];
            pivot_move(n, buf + 3, buf + 3 + sft);
            all &= memcmp(buf, want, sizeof buf) == 0;
        }
    CHECK(all);
}

int main(void)
{
    test_dot_csr();
    test_symmetric();
    test_move();
    test_solve_u();
    test_trsv();
    CHECK_DONE();
}
