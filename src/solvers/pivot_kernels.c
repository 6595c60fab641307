/* src/solvers/pivot_kernels.c: the dense inner loops of pivot
 * (src/solvers/pivot.c): the sum of a few columns of a column-major matrix,
 * scaled, into a vector (A dx over the moving columns, A x + b afresh) and
 * a dot product (a row of A times dx).  Written once with GCC's vector
 * extensions, four doubles wide, in a fixed order of operations, and
 * compiled twice on x86-64: for AVX2 (taken where the CPU has it) and for
 * the baseline -- the same bits either way (no contraction into FMA under
 * -std=c11).
 */
#include "pivot_internal.h"

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

static void cols_base(int nr, int m, const double *A, size_t ld, const int *cols, const double *coef, double *y)
{
    cols_body(nr, m, A, ld, cols, coef, y);
}

static double dot_base(int n, const double *a, const double *b)
{
    return dot_body(n, a, b);
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
#else
void pivot_cols_axpy(int nr, int m, const double *A, size_t ld, const int *cols, const double *coef, double *y)
{
    cols_base(nr, m, A, ld, cols, coef, y);
}

double pivot_dot(int n, const double *a, const double *b)
{
    return dot_base(n, a, b);
}
#endif
