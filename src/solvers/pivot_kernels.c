/* src/solvers/pivot_kernels.c: the dense inner loops of pivot
 * (src/solvers/pivot.c): the sum of a few columns of a column-major matrix,
 * scaled, into a vector (A dx over the moving columns, A x + b afresh) and
 * a dot product (a row of A times dx).  Written once with GCC's vector
 * extensions (and a . b with sum |a_r b_r|, max |a_r|, v -= s c, the
 * triangular solves of a small clamped block, the dots of a list of rows), four doubles wide, in a fixed order of operations, and
 * compiled twice on x86-64: for AVX2 (taken where the CPU has it) and for
 * the baseline -- the same bits either way (no contraction into FMA under
 * -std=c11).
 */
#include "pivot_internal.h"

#include <math.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi" /* the vector helpers are always inlined: no call passes a vector */
#endif

typedef double v4 __attribute__((vector_size(32), aligned(8), may_alias));

static inline __attribute__((always_inline)) v4 ld4(const double *p)
{
    v4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline __attribute__((always_inline)) void st4(double *p, v4 v)
{
    memcpy(p, &v, sizeof v);
}

/* y[0..nr) += sum_q coef[q] A(0..nr, cols[q]), columns four at a time. */
static inline __attribute__((always_inline)) void cols_body(int nr, int m, const double *A, size_t ld,
                                                            const int *cols, const double *coef, double *restrict y)
{
    int q = 0;
    for (; q + 4 <= m; q += 4) {
        const double *c0 = A + (size_t)cols[q] * ld, *c1 = A + (size_t)cols[q + 1] * ld;
        const double *c2 = A + (size_t)cols[q + 2] * ld, *c3 = A + (size_t)cols[q + 3] * ld;
        double d0 = coef[q], d1 = coef[q + 1], d2 = coef[q + 2], d3 = coef[q + 3];
        v4 e0 = {d0, d0, d0, d0}, e1 = {d1, d1, d1, d1}, e2 = {d2, d2, d2, d2}, e3 = {d3, d3, d3, d3};
        int r = 0;
        for (; r + 4 <= nr; r += 4)
            st4(y + r, ld4(y + r) + ((ld4(c0 + r) * e0 + ld4(c1 + r) * e1) + (ld4(c2 + r) * e2 + ld4(c3 + r) * e3)));
        for (; r < nr; r++) y[r] += (c0[r] * d0 + c1[r] * d1) + (c2[r] * d2 + c3[r] * d3);
    }
    for (; q < m; q++) {
        const double *c0 = A + (size_t)cols[q] * ld;
        double d0 = coef[q];
        v4 e0 = {d0, d0, d0, d0};
        int r = 0;
        for (; r + 4 <= nr; r += 4) st4(y + r, ld4(y + r) + ld4(c0 + r) * e0);
        for (; r < nr; r++) y[r] += c0[r] * d0;
    }
}

/* a . b over n entries: four vector sums, added in a fixed order. */
static inline __attribute__((always_inline)) double dot_body(int n, const double *a, const double *b)
{
    v4 s0 = {0, 0, 0, 0}, s1 = s0, s2 = s0, s3 = s0;
    int r = 0;
    for (; r + 16 <= n; r += 16) {
        s0 += ld4(a + r) * ld4(b + r);
        s1 += ld4(a + r + 4) * ld4(b + r + 4);
        s2 += ld4(a + r + 8) * ld4(b + r + 8);
        s3 += ld4(a + r + 12) * ld4(b + r + 12);
    }
    for (; r + 4 <= n; r += 4) s0 += ld4(a + r) * ld4(b + r);
    v4 s = (s0 + s1) + (s2 + s3);
    double t = (s[0] + s[1]) + (s[2] + s[3]);
    for (; r < n; r++) t += a[r] * b[r];
    return t;
}

/* a . b over n entries in the order of lcp_csr_row_dot (src/la/csr.h) on a
 * full row: entry e into sum e mod 4 (one vector lane each), the last 1-3
 * into sums 0-2, then (s0 + s1) + (s2 + s3) -- the same bits, contiguous. */
static inline __attribute__((always_inline)) double dot_csr_body(int n, const double *a, const double *b)
{
    v4 s = {0, 0, 0, 0};
    int r = 0;
    for (; r + 4 <= n; r += 4) s += ld4(a + r) * ld4(b + r);
    double s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
    if (r < n) s0 += a[r] * b[r];
    if (r + 1 < n) s1 += a[r + 1] * b[r + 1];
    if (r + 2 < n) s2 += a[r + 2] * b[r + 2];
    return (s0 + s1) + (s2 + s3);
}

typedef long long vl __attribute__((vector_size(32), aligned(8), may_alias));

static inline __attribute__((always_inline)) v4 vabs(v4 x)
{
    const vl mask = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
    vl i;
    memcpy(&i, &x, sizeof i);
    i &= mask;
    memcpy(&x, &i, sizeof x);
    return x;
}

static inline __attribute__((always_inline)) v4 vmax(v4 a, v4 b)
{
    vl m = a > b, ia, ib;
    memcpy(&ia, &a, sizeof ia);
    memcpy(&ib, &b, sizeof ib);
    ia = (ia & m) | (ib & ~m);
    memcpy(&a, &ia, sizeof a);
    return a;
}

/* 1 where the n x n matrix D (row-major) equals its transpose exactly
 * (|D_ij - D_ji| > 0 nowhere): 4 x 4 blocks of the upper triangle against
 * their mirror blocks, transposed in registers, one test a block row. */
static inline __attribute__((always_inline)) int sym_body(int n, const double *D)
{
    int nb = n - n % 4;
    for (int i = 0; i < nb; i += 4) {
        const double *r0 = D + (size_t)i * n, *r1 = r0 + n, *r2 = r1 + n, *r3 = r2 + n;
        vl bad = {0, 0, 0, 0};
        for (int j = i; j < nb; j += 4) {
            const double *c0 = D + (size_t)j * n + i, *c1 = c0 + n, *c2 = c1 + n, *c3 = c2 + n;
            v4 a0 = ld4(c0), a1 = ld4(c1), a2 = ld4(c2), a3 = ld4(c3); /* rows j..j+3, columns i..i+3 */
            /* (__builtin_shufflevector: GCC 12 and clang alike; constant indices into the pair's 8 lanes) */
            v4 t0 = __builtin_shufflevector(a0, a1, 0, 4, 2, 6), t1 = __builtin_shufflevector(a0, a1, 1, 5, 3, 7);
            v4 t2 = __builtin_shufflevector(a2, a3, 0, 4, 2, 6), t3 = __builtin_shufflevector(a2, a3, 1, 5, 3, 7);
            v4 m0 = __builtin_shufflevector(t0, t2, 0, 1, 4, 5), m1 = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
            v4 m2 = __builtin_shufflevector(t0, t2, 2, 3, 6, 7), m3 = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
            /* m0, m1: columns i, i+1; m2, m3: columns i+2, i+3 */
            bad |= vabs(ld4(r0 + j) - m0) > 0;
            bad |= vabs(ld4(r1 + j) - m1) > 0;
            bad |= vabs(ld4(r2 + j) - m2) > 0;
            bad |= vabs(ld4(r3 + j) - m3) > 0;
        }
        if (bad[0] | bad[1] | bad[2] | bad[3]) return 0;
    }
    for (int i = 0; i < n; i++) /* the last n % 4 columns against their rows */
        for (int j = i > nb ? i + 1 : nb; j < n; j++)
            if (fabs(D[(size_t)i * n + j] - D[(size_t)j * n + i]) > 0) return 0;
    return 1;
}

/* dst[0..n) = src[0..n), front to back (dst <= src: the factor's rows and
 * columns moved up and left), four at a time: no call for a few entries */
static inline __attribute__((always_inline)) void move_body(int n, double *dst, const double *src)
{
    int r = 0;
    for (; r + 4 <= n; r += 4) st4(dst + r, ld4(src + r));
    for (; r < n; r++) dst[r] = src[r];
}

/* max |a_r| over n entries (0 when n = 0). */
static inline __attribute__((always_inline)) double max_abs_body(int n, const double *a)
{
    v4 t0 = {0, 0, 0, 0}, t1 = t0;
    int r = 0;
    for (; r + 8 <= n; r += 8) {
        t0 = vmax(t0, vabs(ld4(a + r)));
        t1 = vmax(t1, vabs(ld4(a + r + 4)));
    }
    t0 = vmax(t0, t1);
    double m = t0[0] > t0[1] ? t0[0] : t0[1], m2 = t0[2] > t0[3] ? t0[2] : t0[3];
    m = m > m2 ? m : m2;
    for (; r < n; r++) m = fabs(a[r]) > m ? fabs(a[r]) : m;
    return m;
}

/* a . b over n entries, and sum |a_r b_r| in *abs_out. */
static inline __attribute__((always_inline)) double dot_abs_body(int n, const double *a, const double *b,
                                                                 double *abs_out)
{
    v4 s0 = {0, 0, 0, 0}, s1 = s0, t0 = s0, t1 = s0;
    int r = 0;
    for (; r + 8 <= n; r += 8) {
        v4 p0 = ld4(a + r) * ld4(b + r), p1 = ld4(a + r + 4) * ld4(b + r + 4);
        s0 += p0;
        s1 += p1;
        t0 += vabs(p0);
        t1 += vabs(p1);
    }
    v4 s = s0 + s1, t = t0 + t1;
    double u = (s[0] + s[1]) + (s[2] + s[3]), v = (t[0] + t[1]) + (t[2] + t[3]);
    for (; r < n; r++) {
        double p = a[r] * b[r];
        u += p;
        v += fabs(p);
    }
    *abs_out = v;
    return u;
}

/* v[0..n) -= s c[0..n) */
static inline __attribute__((always_inline)) void axpy_body(int n, double s, const double *c, double *restrict v)
{
    v4 e = {s, s, s, s};
    int r = 0;
    for (; r + 4 <= n; r += 4) st4(v + r, ld4(v + r) - ld4(c + r) * e);
    for (; r < n; r++) v[r] -= c[r] * s;
}

static inline __attribute__((always_inline)) double hsum(v4 s)
{
    return (s[0] + s[1]) + (s[2] + s[3]);
}

/* T v = b in place (trans 0), or T' v = b (trans 1); T lower, column-major,
 * leading dimension ld, m rows; unit: T's diagonal is 1.  Four columns at a
 * time: the 4 x 4 diagonal block by substitution, the rows below it by one
 * pass over v (trans 0: v -= T(below, block) v_block; trans 1: four dots). */
static inline __attribute__((always_inline)) void trsv_body(int m, const double *T, size_t ld, int trans, int unit,
                                                            double *restrict v)
{
    if (!trans) {
        int j = 0;
        for (; j + 4 <= m; j += 4) {
            const double *c0 = T + (size_t)j * ld, *c1 = c0 + ld, *c2 = c1 + ld, *c3 = c2 + ld;
            double d0 = unit ? v[j] : v[j] / c0[j];
            double d1 = v[j + 1] - c0[j + 1] * d0;
            d1 = unit ? d1 : d1 / c1[j + 1];
            double d2 = v[j + 2] - c0[j + 2] * d0 - c1[j + 2] * d1;
            d2 = unit ? d2 : d2 / c2[j + 2];
            double d3 = v[j + 3] - c0[j + 3] * d0 - c1[j + 3] * d1 - c2[j + 3] * d2;
            d3 = unit ? d3 : d3 / c3[j + 3];
            v[j] = d0;
            v[j + 1] = d1;
            v[j + 2] = d2;
            v[j + 3] = d3;
            v4 e0 = {d0, d0, d0, d0}, e1 = {d1, d1, d1, d1}, e2 = {d2, d2, d2, d2}, e3 = {d3, d3, d3, d3};
            int r = j + 4;
            for (; r + 4 <= m; r += 4)
                st4(v + r, ld4(v + r) - ((ld4(c0 + r) * e0 + ld4(c1 + r) * e1) + (ld4(c2 + r) * e2 + ld4(c3 + r) * e3)));
            for (; r < m; r++) v[r] -= (c0[r] * d0 + c1[r] * d1) + (c2[r] * d2 + c3[r] * d3);
        }
        for (; j < m; j++) {
            const double *c = T + (size_t)j * ld;
            double vj = unit ? v[j] : v[j] / c[j];
            v[j] = vj;
            axpy_body(m - j - 1, vj, c + j + 1, v + j + 1);
        }
        return;
    }
    int j0 = m;
    for (; j0 - 4 >= 0; j0 -= 4) { /* the block j0-4..j0-1; rows j0.. solved */
        int j = j0 - 4;
        const double *c0 = T + (size_t)j * ld, *c1 = c0 + ld, *c2 = c1 + ld, *c3 = c2 + ld;
        v4 a0 = {0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0;
        int r = j0;
        for (; r + 4 <= m; r += 4) {
            v4 x = ld4(v + r);
            a0 += ld4(c0 + r) * x;
            a1 += ld4(c1 + r) * x;
            a2 += ld4(c2 + r) * x;
            a3 += ld4(c3 + r) * x;
        }
        double s0 = hsum(a0), s1 = hsum(a1), s2 = hsum(a2), s3 = hsum(a3);
        for (; r < m; r++) {
            s0 += c0[r] * v[r];
            s1 += c1[r] * v[r];
            s2 += c2[r] * v[r];
            s3 += c3[r] * v[r];
        }
        double d3 = v[j + 3] - s3;
        d3 = unit ? d3 : d3 / c3[j + 3];
        double d2 = v[j + 2] - s2 - c2[j + 3] * d3;
        d2 = unit ? d2 : d2 / c2[j + 2];
        double d1 = v[j + 1] - s1 - c1[j + 2] * d2 - c1[j + 3] * d3;
        d1 = unit ? d1 : d1 / c1[j + 1];
        double d0 = v[j] - s0 - c0[j + 1] * d1 - c0[j + 2] * d2 - c0[j + 3] * d3;
        d0 = unit ? d0 : d0 / c0[j];
        v[j] = d0;
        v[j + 1] = d1;
        v[j + 2] = d2;
        v[j + 3] = d3;
    }
    for (int j = j0 - 1; j >= 0; j--) {
        const double *c = T + (size_t)j * ld;
        double sj = v[j] - dot_body(m - j - 1, c + j + 1, v + j + 1);
        v[j] = unit ? sj : sj / c[j];
    }
}

/* out[r] = A(rows[r], 0..m) . v + A(rows[r], col) d, the rows of a row-major A (leading dimension ld). */
static inline __attribute__((always_inline)) void rows_dot_body(int m, const double *A, size_t ld, const int *rows,
                                                                int nrows, const double *v, int col, double d,
                                                                double *out)
{
    for (int r = 0; r < nrows; r++) {
        const double *a = A + (size_t)rows[r] * ld;
        out[rows[r]] = dot_body(m, a, v) + a[col] * d;
    }
}

static void trsv_base(int m, const double *T, size_t ld, int trans, int unit, double *v)
{
    trsv_body(m, T, ld, trans, unit, v);
}

static void rows_dot_base(int m, const double *A, size_t ld, const int *rows, int nrows, const double *v, int col,
                          double d, double *out)
{
    rows_dot_body(m, A, ld, rows, nrows, v, col, d, out);
}

static void cols_base(int nr, int m, const double *A, size_t ld, const int *cols, const double *coef, double *y)
{
    cols_body(nr, m, A, ld, cols, coef, y);
}

static double dot_base(int n, const double *a, const double *b)
{
    return dot_body(n, a, b);
}

static void move_base(int n, double *dst, const double *src)
{
    move_body(n, dst, src);
}

static int sym_base(int n, const double *D)
{
    return sym_body(n, D);
}

static double dot_csr_base(int n, const double *a, const double *b)
{
    return dot_csr_body(n, a, b);
}

static double dot_abs_base(int n, const double *a, const double *b, double *abs_out)
{
    return dot_abs_body(n, a, b, abs_out);
}

static double max_abs_base(int n, const double *a)
{
    return max_abs_body(n, a);
}

static void axpy_base(int n, double c, const double *x, double *y)
{
    axpy_body(n, c, x, y);
}

#if defined(__x86_64__) && defined(__GNUC__) /* GCC and clang: AVX2 beside the baseline */
__attribute__((target("avx2"))) static void cols_avx2(int nr, int m, const double *A, size_t ld, const int *cols,
                                                      const double *coef, double *y)
{
    cols_body(nr, m, A, ld, cols, coef, y);
}

__attribute__((target("avx2"))) static double dot_avx2(int n, const double *a, const double *b)
{
    return dot_body(n, a, b);
}

__attribute__((target("avx2"))) static void move_avx2(int n, double *dst, const double *src)
{
    move_body(n, dst, src);
}

__attribute__((target("avx2"))) static int sym_avx2(int n, const double *D)
{
    return sym_body(n, D);
}

__attribute__((target("avx2"))) static double dot_csr_avx2(int n, const double *a, const double *b)
{
    return dot_csr_body(n, a, b);
}

__attribute__((target("avx2"))) static double dot_abs_avx2(int n, const double *a, const double *b, double *abs_out)
{
    return dot_abs_body(n, a, b, abs_out);
}

__attribute__((target("avx2"))) static double max_abs_avx2(int n, const double *a)
{
    return max_abs_body(n, a);
}

/* the two solves of pivot (L z = v, L unit; U y = z with U' stored, U not
 * unit) each compiled on its own: the flags constant in the loops */
__attribute__((target("avx2"))) static void trsv_avx2_l(int m, const double *T, size_t ld, double *v)
{
    trsv_body(m, T, ld, 0, 1, v);
}

__attribute__((target("avx2"))) static void trsv_avx2_ut(int m, const double *T, size_t ld, double *v)
{
    trsv_body(m, T, ld, 1, 0, v);
}

__attribute__((target("avx2"))) static void trsv_avx2(int m, const double *T, size_t ld, int trans, int unit,
                                                      double *v)
{
    trsv_body(m, T, ld, trans, unit, v);
}

__attribute__((target("avx2"))) static void rows_dot_avx2(int m, const double *A, size_t ld, const int *rows,
                                                          int nrows, const double *v, int col, double d, double *out)
{
    rows_dot_body(m, A, ld, rows, nrows, v, col, d, out);
}

__attribute__((target("avx2"))) static void axpy_avx2(int n, double c, const double *x, double *y)
{
    axpy_body(n, c, x, y);
}

static int have_avx2(void)
{
    static int h = -1; /* a benign race: every thread stores the same value */
    if (h < 0) h = __builtin_cpu_supports("avx2") ? 1 : 0;
    return h;
}

void pivot_cols_axpy(int nr, int m, const double *A, size_t ld, const int *cols, const double *coef, double *y)
{
    if (have_avx2()) cols_avx2(nr, m, A, ld, cols, coef, y);
    else cols_base(nr, m, A, ld, cols, coef, y);
}

double pivot_dot(int n, const double *a, const double *b)
{
    return have_avx2() ? dot_avx2(n, a, b) : dot_base(n, a, b);
}

void pivot_move(int n, double *dst, const double *src)
{
    if (have_avx2()) move_avx2(n, dst, src);
    else move_base(n, dst, src);
}

int pivot_symmetric(int n, const double *D)
{
    return have_avx2() ? sym_avx2(n, D) : sym_base(n, D);
}

double pivot_dot_csr(int n, const double *a, const double *b)
{
    return have_avx2() ? dot_csr_avx2(n, a, b) : dot_csr_base(n, a, b);
}

double pivot_dot_abs(int n, const double *a, const double *b, double *abs_out)
{
    return have_avx2() ? dot_abs_avx2(n, a, b, abs_out) : dot_abs_base(n, a, b, abs_out);
}

void pivot_trsv(int m, const double *T, size_t ld, int trans, int unit, double *v)
{
    if (!have_avx2()) trsv_base(m, T, ld, trans, unit, v);
    else if (!trans && unit) trsv_avx2_l(m, T, ld, v);
    else if (trans && !unit) trsv_avx2_ut(m, T, ld, v);
    else trsv_avx2(m, T, ld, trans, unit, v);
}

void pivot_rows_dot(int m, const double *A, size_t ld, const int *rows, int nrows, const double *v, int col, double d,
                    double *out)
{
    if (have_avx2()) rows_dot_avx2(m, A, ld, rows, nrows, v, col, d, out);
    else rows_dot_base(m, A, ld, rows, nrows, v, col, d, out);
}

double pivot_max_abs(int n, const double *a)
{
    return have_avx2() ? max_abs_avx2(n, a) : max_abs_base(n, a);
}

void pivot_axpy(int n, double c, const double *x, double *y)
{
    if (have_avx2()) axpy_avx2(n, c, x, y);
    else axpy_base(n, c, x, y);
}
#else
void pivot_cols_axpy(int nr, int m, const double *A, size_t ld, const int *cols, const double *coef, double *y)
{
    cols_base(nr, m, A, ld, cols, coef, y);
}

double pivot_dot(int n, const double *a, const double *b)
{
    return dot_base(n, a, b);
}

void pivot_move(int n, double *dst, const double *src)
{
    move_base(n, dst, src);
}

int pivot_symmetric(int n, const double *D)
{
    return sym_base(n, D);
}

double pivot_dot_csr(int n, const double *a, const double *b)
{
    return dot_csr_base(n, a, b);
}

double pivot_dot_abs(int n, const double *a, const double *b, double *abs_out)
{
    return dot_abs_base(n, a, b, abs_out);
}

void pivot_trsv(int m, const double *T, size_t ld, int trans, int unit, double *v)
{
    trsv_base(m, T, ld, trans, unit, v);
}

void pivot_rows_dot(int m, const double *A, size_t ld, const int *rows, int nrows, const double *v, int col, double d,
                    double *out)
{
    rows_dot_base(m, A, ld, rows, nrows, v, col, d, out);
}

double pivot_max_abs(int n, const double *a)
{
    return max_abs_base(n, a);
}

void pivot_axpy(int n, double c, const double *x, double *y)
{
    axpy_base(n, c, x, y);
}
#endif
