/* src/core/verify.c: residual, complementarity and feasibility of a candidate
 * solution, for every kind (docs/contract.md).  The only place they are computed. */
#include "verify.h"

#if defined(__x86_64__) && defined(__GNUC__) /* GCC and clang: a function for AVX2 beside the baseline's */
#define LCP_HAVE_AVX2_PATH 1
#include <immintrin.h>
#endif

#include <math.h>
#include <stdlib.h>

/* fmax and fmin (a NaN argument gives the other), inline: libm's are calls,
 * several a row in the loops below that run after every iteration */
static inline double max_nan(double a, double b) { return (b > a || a != a) ? b : a; }
static inline double min_nan(double a, double b) { return (b < a || a != a) ? b : a; }

/* ||v - P_K(v)|| for the cone K_mu, given nt = |v_T|: 0, with no
 * projection or root, where lcp_cone_project_nt's own test says v is
 * inside (it would leave v as it is). */
static inline double cone_distance(double mu, const double *v, double nt)
{
    if (v[0] >= 0 && nt <= mu * v[0]) return 0.0;
    double d[3] = {v[0], v[1], v[2]};
    lcp_cone_project_nt(mu, d, nt);
    return sqrt((v[0] - d[0]) * (v[0] - d[0]) + (v[1] - d[1]) * (v[1] - d[1]) + (v[2] - d[2]) * (v[2] - d[2]));
}

/* Distance of u to the dual cone K*_mu = {mu |u_T| <= u_n}, given
 * nt = |u_T|. */
static inline double dual_cone_distance(double mu, const double *u, double nt)
{
    if (mu > 0) return cone_distance(1.0 / mu, u, nt); /* K*_mu = K_{1/mu} */
    return u[0] < 0 ? -u[0] : 0.0;                     /* mu = 0: the half-space u_n >= 0 */
}

/* max_nan(m, |v_i|) over v from m = 0, NaNs passed over: m never NaN, so
 * each step is maxpd(|v_i|, m) (which keeps m where |v_i| is NaN), in two
 * lanes of two -- the same value in any order, without the scalar loop's
 * test a row */
static double inf_norm(const double *v, int n)
{
#ifdef __SSE2__
    const __m128d sign = _mm_set1_pd(-0.0);
    __m128d m0 = _mm_setzero_pd(), m1 = m0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        m0 = _mm_max_pd(_mm_andnot_pd(sign, _mm_loadu_pd(v + i)), m0);
        m1 = _mm_max_pd(_mm_andnot_pd(sign, _mm_loadu_pd(v + i + 2)), m1);
    }
    for (; i + 2 <= n; i += 2) m0 = _mm_max_pd(_mm_andnot_pd(sign, _mm_loadu_pd(v + i)), m0);
    if (i < n) m1 = _mm_max_pd(_mm_andnot_pd(sign, _mm_set_sd(v[i])), m1); /* (the upper lane: max(0, m1)) */
    m0 = _mm_max_pd(m0, m1);
    return _mm_cvtsd_f64(_mm_max_sd(m0, _mm_unpackhi_pd(m0, m0)));
#else
    double m = 0.0;
    for (int i = 0; i < n; i++) m = max_nan(m, fabs(v[i]));
    return m;
#endif
}

/* The sums and maxima of one chunk of rows (of contacts for ccp/fc3d).
 * Rows are cut into chunks of a fixed size, whatever the thread count, and
 * the chunks' sums are added in order: every -j gives the same bits, and a
 * problem of one chunk (most) the bits of a plain loop. */
enum { VERIFY_CHUNK = LCP_VERIFY_CHUNK }; /* rows a chunk (contacts: a third of it): small enough to balance two threads at 10,000 rows */

typedef lcp_verify_partial partial; /* res: max for lcp/blcp, sum of squares for ccp/fc3d */

static inline void row_lcp(const double *x, const double *w, int i, partial *c)
{
    c->res = max_nan(c->res, fabs(min_nan(x[i], w[i])));
    c->comp += x[i] * w[i];
    c->feas = max_nan(c->feas, max_nan(-x[i], -w[i]));
}

static inline void row_blcp(const lcp_problem *p, const double *x, const double *w, int i, partial *c)
{
    double lo, hi;
    lcp_problem_bounds(p, x, i, &lo, &hi);
    double mid = min_nan(max_nan(x[i] - w[i], lo), hi); /* mid(lo, x - w, hi) */
    c->res = max_nan(c->res, fabs(x[i] - mid));
    c->feas = max_nan(c->feas, max_nan(lo - x[i], x[i] - hi));
    double bound = w[i] > 0 ? lo : hi; /* the bound w's sign asks for */
    double d = isfinite(bound) ? fabs(x[i] - bound) : max_nan(1.0, fabs(x[i]));
    if (w[i] != 0) c->comp += fabs(w[i]) * d;
}

static inline void contact_friction(const lcp_problem *p, const double *r, const double *u, int i, partial *c)
{
    int desaxce = p->kind == LCP_KIND_FC3D;
    const double *ri = r + 3 * i, *ui = u + 3 * i, *qi = p->b + 3 * i;
    double mu = p->mu[i], nt = lcp_norm2(ui[1], ui[2]);      /* |u_T|: once, for the three uses below */
    double ut[3] = {ui[0], ui[1], ui[2]};
    if (desaxce) ut[0] += mu * nt;                           /* De Saxce: u + mu |u_T| e_n */
    c->res += lcp_contact_residual2_v(mu, ri, ut);          /* lcp_contact_residual2's bits */
    for (int k = 0; k < 3; k++) {
        c->nq += qi[k] * qi[k];
        c->nr += ri[k] * ri[k];
        c->nu += ui[k] * ui[k];
    }
    c->comp += fabs(ri[0] * ut[0] + ri[1] * ut[1] + ri[2] * ut[2]);
    double dr = cone_distance(mu, ri, lcp_norm2(ri[1], ri[2])); /* |r - P_K(r)| */
    c->feas = max_nan(c->feas, max_nan(dr, dual_cone_distance(mu, ut, nt))); /* ut_T = u_T */
}

/* The metrics' terms of node v (a row; a contact for ccp/fc3d), NaN test included. */
static inline void node_terms(const lcp_problem *p, const double *x, const double *w, int v, partial *c)
{
    int friction = p->kind == LCP_KIND_CCP || p->kind == LCP_KIND_FC3D;
    if (friction) contact_friction(p, x, w, v, c);
    else if (p->kind == LCP_KIND_BLCP) row_blcp(p, x, w, v, c);
    else row_lcp(x, w, v, c);
    int b = friction ? 3 : 1; /* fmin/fmax drop NaNs: look for them */
    for (int i = b * v; i < b * v + b; i++) /* min(Inf, 0) = 0 too */
        if (!isfinite(x[i]) || !isfinite(w[i])) c->nan = 1;
}

void lcp_verify_nodes(const lcp_problem *p, const double *x, const double *w, const int *nodes, int count,
                      lcp_verify_partial *c)
{
    *c = (partial){0};
    for (int k = 0; k < count; k++) node_terms(p, x, w, nodes[k], c);
}

void lcp_verify_add(const lcp_problem *p, lcp_verify_partial *t, const lcp_verify_partial *c)
{
    int friction = p->kind == LCP_KIND_CCP || p->kind == LCP_KIND_FC3D;
    t->res = friction ? t->res + c->res : max_nan(t->res, c->res);
    t->comp += c->comp;
    t->feas = max_nan(t->feas, c->feas);
    t->nq += c->nq;
    t->nr += c->nr;
    t->nu += c->nu;
    t->nan |= c->nan;
}

double lcp_verify_bscale(const lcp_problem *p)
{
    return p->kind == LCP_KIND_CCP || p->kind == LCP_KIND_FC3D ? 0.0 : inf_norm(p->b, p->n);
}

void lcp_verify_finish(const lcp_problem *p, const lcp_verify_partial *t, lcp_metrics *m)
{
    lcp_verify_finish_b(p, t, lcp_verify_bscale(p), m);
}

void lcp_verify_finish_b(const lcp_problem *p, const lcp_verify_partial *t, double bscale, lcp_metrics *m)
{
    if (p->kind == LCP_KIND_CCP || p->kind == LCP_KIND_FC3D) {
        double norm = max_nan(max_nan(sqrt(t->nq), p->scale_floor), max_nan(sqrt(t->nr), sqrt(t->nu)));
        m->scale = norm > 0 ? norm : 1.0;
        m->xnorm = sqrt(t->nr);
        m->residual = sqrt(t->res) / m->scale;
        m->complementarity = t->comp;
        m->feasibility = t->feas;
    } else {
        m->scale = max_nan(max_nan(1.0, p->scale_floor), bscale);
        m->xnorm = 0.0;
        m->residual = t->res / m->scale;
        m->complementarity = p->kind == LCP_KIND_BLCP ? t->comp : fabs(t->comp);
        m->feasibility = max_nan(0.0, t->feas);
    }
    /* a NaN anywhere must never look like convergence */
    if (isnan(m->residual) || t->nan) m->residual = INFINITY;
}

/* lcp_verify_lcp_rows (verify.h): m = min_nan(x_i, w_i) (x_i NaN ? w_i :
 * minpd(w_i, x_i)), res and feas maxima with |m| and -m (-min_nan(x, w) is
 * max_nan(-x, -w) to the bit, NaN and signed zeros included), the NaN flag
 * as x_i - x_i or w_i - w_i unordered (NaN exactly where x_i or w_i is not
 * finite).  Each maximum runs in lanes from +0 and is taken with maxpd,
 * which keeps it where the term is NaN or a zero: it stays +0 or positive
 * and never NaN, so the lanes' maximum, and its maximum with c's, is the
 * row-by-row max_nan's value to the bit.  SSE2: rows q, q + 1 in the lanes
 * of one pair of maxima, q + 2, q + 3 in another (two chains of maxpd); an
 * odd last row in lane 0 beside x = w = xn = 0, whose terms change
 * nothing; the largest change only where xn is given.  AVX2: four rows a
 * register, then the same for what is left. */
#ifdef __SSE2__
typedef struct {
    __m128d res, feas, nan, dx; /* nan: a mask */
} rows_acc;

/* always inline: the accumulators stay in registers (rows_finish takes
 * them by address), in rows_avx2 too (GCC and clang inline a baseline
 * function into an AVX2 one) */
#define ROWS_INLINE static inline __attribute__((always_inline))

/* the rows of x and w (a pair; xn's where given) into a */
ROWS_INLINE void rows_pair(rows_acc *a, __m128d x, __m128d w, const double *xn, int two)
{
    const __m128d sign = _mm_set1_pd(-0.0);
    __m128d nx = _mm_cmpunord_pd(x, x), m = _mm_or_pd(_mm_and_pd(nx, w), _mm_andnot_pd(nx, _mm_min_pd(w, x)));
    a->res = _mm_max_pd(_mm_andnot_pd(sign, m), a->res);
    a->feas = _mm_max_pd(_mm_xor_pd(sign, m), a->feas);
    a->nan = _mm_or_pd(a->nan, _mm_cmpunord_pd(_mm_sub_pd(x, x), _mm_sub_pd(w, w)));
    if (xn) a->dx = _mm_max_pd(_mm_andnot_pd(sign, _mm_sub_pd(two ? _mm_loadu_pd(xn) : _mm_set_sd(*xn), x)), a->dx);
}

/* rows q.. (from q) two a step into a[0], four a step into a[0] and a[1]
 * while four are left; a[0] and a[1] folded into c and *dx */
ROWS_INLINE void rows_finish(rows_acc a[2], lcp_verify_partial *c, const double *x, const double *w, int q, int n,
                               const double *xn, double *dx)
{
    for (; q + 4 <= n; q += 4) {
        rows_pair(&a[0], _mm_loadu_pd(x + q), _mm_loadu_pd(w + q), xn ? xn + q : NULL, 1);
        rows_pair(&a[1], _mm_loadu_pd(x + q + 2), _mm_loadu_pd(w + q + 2), xn ? xn + q + 2 : NULL, 1);
    }
    for (; q + 2 <= n; q += 2) rows_pair(&a[0], _mm_loadu_pd(x + q), _mm_loadu_pd(w + q), xn ? xn + q : NULL, 1);
    if (q < n) rows_pair(&a[0], _mm_set_sd(x[q]), _mm_set_sd(w[q]), xn ? xn + q : NULL, 0);
    __m128d r = _mm_max_pd(a[0].res, a[1].res), f = _mm_max_pd(a[0].feas, a[1].feas), d = _mm_max_pd(a[0].dx, a[1].dx);
    c->res = lcp_sel_max(_mm_cvtsd_f64(_mm_max_sd(r, _mm_unpackhi_pd(r, r))), c->res);
    c->feas = lcp_sel_max(_mm_cvtsd_f64(_mm_max_sd(f, _mm_unpackhi_pd(f, f))), c->feas);
    c->nan |= _mm_movemask_pd(_mm_or_pd(a[0].nan, a[1].nan)) != 0;
    if (xn) *dx = lcp_sel_max(_mm_cvtsd_f64(_mm_max_sd(d, _mm_unpackhi_pd(d, d))), *dx);
}

static void rows_sse2(lcp_verify_partial *c, const double *x, const double *w, int n, const double *xn, double *dx)
{
    __m128d z = _mm_setzero_pd();
    rows_acc a[2] = {{z, z, z, z}, {z, z, z, z}};
    rows_finish(a, c, x, w, 0, n, xn, dx);
}
#endif

/* the same terms a row at a time (the portable path, and a chunk of fewer
 * than 4 rows, where the vector set-up costs more than its rows) */
static void rows_scalar(lcp_verify_partial *c, const double *x, const double *w, int n, const double *xn, double *dx)
{
    double fin = 0.0;
    for (int q = 0; q < n; q++) {
        double m = lcp_min_nan(x[q], w[q]);
        c->res = lcp_sel_max(fabs(m), c->res);
        c->feas = lcp_sel_max(-m, c->feas);
        fin += (x[q] - x[q]) + (w[q] - w[q]);
        if (xn) *dx = lcp_sel_max(fabs(xn[q] - x[q]), *dx);
    }
    c->nan |= fin != fin;
}

#ifdef LCP_HAVE_AVX2_PATH
__attribute__((target("avx2"))) static void rows_avx2(lcp_verify_partial *c, const double *x, const double *w, int n,
                                                      const double *xn, double *dx)
{
    const __m256d sign = _mm256_set1_pd(-0.0);
    __m256d res = _mm256_setzero_pd(), feas = res, nan = res, d = res;
    int q = 0;
    for (; q + 4 <= n; q += 4) {
        __m256d X = _mm256_loadu_pd(x + q), W = _mm256_loadu_pd(w + q);
        __m256d m = _mm256_blendv_pd(_mm256_min_pd(W, X), W, _mm256_cmp_pd(X, X, _CMP_UNORD_Q));
        res = _mm256_max_pd(_mm256_andnot_pd(sign, m), res);
        feas = _mm256_max_pd(_mm256_xor_pd(sign, m), feas);
        nan = _mm256_or_pd(nan, _mm256_cmp_pd(_mm256_sub_pd(X, X), _mm256_sub_pd(W, W), _CMP_UNORD_Q));
        if (xn) d = _mm256_max_pd(_mm256_andnot_pd(sign, _mm256_sub_pd(_mm256_loadu_pd(xn + q), X)), d);
    }
    rows_acc a[2] = {{_mm256_castpd256_pd128(res), _mm256_castpd256_pd128(feas), _mm256_castpd256_pd128(nan),
                      _mm256_castpd256_pd128(d)},
                     {_mm256_extractf128_pd(res, 1), _mm256_extractf128_pd(feas, 1), _mm256_extractf128_pd(nan, 1),
                      _mm256_extractf128_pd(d, 1)}};
    rows_finish(a, c, x, w, q, n, xn, dx);
}
#endif

int lcp_verify_lcp_rows_isa(int isa, lcp_verify_partial *c, const double *x, const double *w, int n,
                            const double *xn, double *dx)
{
#ifdef LCP_HAVE_AVX2_PATH
    if (isa == 1) {
        if (!__builtin_cpu_supports("avx2")) return -1;
        rows_avx2(c, x, w, n, xn, dx);
        return 0;
    }
#endif
    if (isa != 0) return -1;
#ifdef __SSE2__
    rows_sse2(c, x, w, n, xn, dx);
#else
    rows_scalar(c, x, w, n, xn, dx);
#endif
    return 0;
}

/* AVX2 where the CPU has it (__builtin_cpu_supports: a load and a test of
 * libgcc's CPU model, once a chunk), the portable one otherwise */
void lcp_verify_lcp_rows(lcp_verify_partial *c, const double *x, const double *w, int n, const double *xn,
                         double *dx)
{
    if (n < 4) {
        rows_scalar(c, x, w, n, xn, dx);
        return;
    }
    if (lcp_verify_lcp_rows_isa(1, c, x, w, n, xn, dx)) lcp_verify_lcp_rows_isa(0, c, x, w, n, xn, dx);
}

/* verify_chunk for lcp: w_i = A_i x + b_i (less reg x_i) and the sum of
 * row_lcp's comp row by row while the row is at hand, then the chunk's
 * other terms over its x and w (lcp_verify_lcp_rows), instead of a pass
 * for w and another for the terms; the same bits as row_lcp and
 * node_terms' NaN test. */
static void lcp_chunk(const lcp_csr *A, const double *restrict b, double reg, const double *restrict x,
                      double *restrict w, int lo, int hi, partial *c)
{
    const int *restrict ap = A->p, *restrict aj = A->j;
    const double *restrict ax = A->x;
    double comp = 0.0;
    for (int i = lo; i < hi; i++) {
        int lo_i = ap[i], hi_i = ap[i + 1];
        double wi = (hi_i - lo_i <= 3 ? lcp_csr_row_dot3(aj, ax, x, lo_i, hi_i)
                                      : lcp_csr_row_dot(aj, ax, x, lo_i, hi_i)) + b[i], xi = x[i];
        if (reg > 0) wi -= reg * xi; /* the original problem's w (see below) */
        comp += xi * wi;
        w[i] = wi;
    }
    *c = (partial){.comp = comp};
    lcp_verify_lcp_rows(c, x + lo, w + lo, hi - lo, NULL, NULL);
    if (reg > 0)
        for (int i = lo; i < hi; i++) w[i] += reg * x[i]; /* w of the problem solved */
}

/* verify_chunk for blcp without --reg: w_i = A_i x + b_i and row_blcp's terms while the row is at hand, the NaN
 * test as x_i - x_i or w_i - w_i NaN (exactly where one is not finite: node_terms' test) -- the same bits as a
 * pass of node_terms, without its test of the kind and its loop over a node's rows at every row */
static void blcp_chunk(const lcp_problem *p, const lcp_csr *A, const double *restrict x, double *restrict w, int lo,
                       int hi, partial *c)
{
    const int *restrict ap = A->p, *restrict aj = A->j;
    const double *restrict ax = A->x, *restrict b = p->b;
    partial t = {0};
    double fin = 0.0;
    for (int i = lo; i < hi; i++) {
        int lo_i = ap[i], hi_i = ap[i + 1];
        double wi = (hi_i - lo_i <= 3 ? lcp_csr_row_dot3(aj, ax, x, lo_i, hi_i)
                                      : lcp_csr_row_dot(aj, ax, x, lo_i, hi_i)) + b[i];
        w[i] = wi;
        row_blcp(p, x, w, i, &t);
        fin += (x[i] - x[i]) + (wi - wi);
    }
    t.nan = fin != fin;
    *c = t;
}

/* Chunk k: w = A x + b on its rows first (when A is given), then its metrics. */
static void verify_chunk(const lcp_problem *p, const lcp_csr *A, const double *x, double *w, int k, partial *c)
{
    int block = p->kind == LCP_KIND_CCP || p->kind == LCP_KIND_FC3D ? 3 : 1;
    int rows = block * (VERIFY_CHUNK / block);
    int lo = k * rows, hi = lo + rows < p->n ? lo + rows : p->n;
    if (A && p->kind == LCP_KIND_LCP) { /* the common case in one pass: the same bits as below */
        lcp_chunk(A, p->b, p->reg, x, w, lo, hi, c);
        return;
    }
    if (A && p->kind == LCP_KIND_BLCP && !(p->reg > 0)) {
        blcp_chunk(p, A, x, w, lo, hi, c);
        return;
    }
    *c = (partial){0};
    if (A && !(p->reg > 0)) { /* a node's rows of w, then its terms, while its rows are at hand (same bits as below) */
        const int *ap = A->p, *aj = A->j;
        const double *ax = A->x;
        for (int v = lo / block; v < hi / block; v++) {
            for (int i = block * v; i < block * v + block; i++) w[i] = lcp_csr_row_dot(aj, ax, x, ap[i], ap[i + 1]) + p->b[i];
            node_terms(p, x, w, v, c);
        }
        return;
    }
    if (A) {
        const int *ap = A->p, *aj = A->j;
        const double *ax = A->x;
        for (int i = lo; i < hi; i++) w[i] = lcp_csr_row_dot(aj, ax, x, ap[i], ap[i + 1]) + p->b[i];
        if (p->reg > 0) /* A = A_orig + reg I (--reg): the metrics are of the original problem */
            for (int i = lo; i < hi; i++) w[i] -= p->reg * x[i];
    }
    for (int v = lo / block; v < hi / block; v++) node_terms(p, x, w, v, c);
    if (A && p->reg > 0) /* w of the problem solved, for the solvers */
        for (int i = lo; i < hi; i++) w[i] += p->reg * x[i];
}

/* Every chunk (on the OpenMP threads when there are several), then their
 * sums in chunk order. */
static void verify_all(const lcp_problem *p, const lcp_csr *A, const double *x, double *w, double bscale, lcp_metrics *m)
{
    int block = p->kind == LCP_KIND_CCP || p->kind == LCP_KIND_FC3D ? 3 : 1;
    int rows = block * (VERIFY_CHUNK / block);
    int nchunks = p->n > 0 ? (p->n + rows - 1) / rows : 0;
    partial one = {0}, *parts = nchunks > 1 ? malloc((size_t)nchunks * sizeof *parts) : &one;
    if (!parts) { /* no memory for the partials: one chunk at a time */
        parts = &one;
        for (int k = 0; k < nchunks; k++) {
            partial c;
            verify_chunk(p, A, x, w, k, &c);
            if (k) lcp_verify_add(p, &one, &c);
            else one = c;
        }
        nchunks = 1;
    } else if (nchunks > 1) {
#pragma omp parallel for schedule(static)
        for (int k = 0; k < nchunks; k++) verify_chunk(p, A, x, w, k, &parts[k]);
    } else if (nchunks == 1) {
        verify_chunk(p, A, x, w, 0, &parts[0]);
    }
    partial t = parts[0];
    for (int k = 1; k < nchunks; k++) lcp_verify_add(p, &t, &parts[k]);
    if (parts != &one) free(parts);
    lcp_verify_finish_b(p, &t, bscale, m);
}

void lcp_verify_w(const lcp_problem *p, const double *x, const double *w, lcp_metrics *m)
{
    verify_all(p, NULL, x, (double *)w, lcp_verify_bscale(p), m); /* without A, w is only read */
}

void lcp_verify(const lcp_problem *p, const double *x, double *w, lcp_metrics *m)
{
    verify_all(p, &p->A, x, w, lcp_verify_bscale(p), m);
}

void lcp_verify_b(const lcp_problem *p, const double *x, double *w, double bscale, lcp_metrics *m)
{
    if ((p->kind == LCP_KIND_LCP || p->kind == LCP_KIND_BLCP) && p->n <= VERIFY_CHUNK) {
        partial c; /* one chunk (the small paths' answers): verify_all's run without its partials, the same bits */
        verify_chunk(p, &p->A, x, w, 0, &c);
        lcp_verify_finish_b(p, &c, bscale, m);
        return;
    }
    verify_all(p, &p->A, x, w, bscale, m);
}

double lcp_relative_diff(const double *x, const double *y, int n)
{
    double d = 0.0, s = 0.0;
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(x[i] - y[i]));
        s = fmax(s, fabs(y[i]));
        if (isnan(x[i]) || isnan(y[i])) return INFINITY;
    }
    return d / fmax(1.0, s);
}
