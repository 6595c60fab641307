/* tests/unit/test_sweep.c: the sweep and residual kernels of the pgs family
 * against reference loops, bit for bit, and psor's relaxation factor.
 *
 * - lcp_pgs_sweep on an lcp takes its own row loop (lcp_row in
 *   src/solvers/pgs.c); it must give the bits of the update
 *   s = b_i + sum_{k != i-1} A_ik x_k (in the residual's order: four
 *   running sums), x_i <- max(0, (x_i - c_i s) - g_i x_{i-1}) with
 *   c_i = omega / A_ii and g_i = c_i A_i,i-1, written out here, forward and
 *   backward, omega 1 and not, on rows with and without an entry in column
 *   i-1, and the same largest change;
 * - lcp_verify on an lcp computes w and the metrics in one pass (lcp_chunk
 *   in src/core/verify.c); its metrics must be the bits of lcp_verify_w (the
 *   general per-node path) on the same w, over several chunks, with NaN
 *   and Inf in x, and with --reg;
 * - the lcp rows' metric terms (lcp_verify_lcp_rows: the maxima and the
 *   NaN flag over arrays in lanes, and a sweep's largest change beside
 *   them), by each implementation (SSE2, and AVX2 where the CPU has it),
 *   must be the bits of lcp_verify_nodes' row-by-row terms and of the
 *   scalar max |xn - x|, for every length 0..67 (every remainder of the
 *   steps of four and two rows) and with NaN, +-Inf, +-0 and negative
 *   values in x, w and xn;
 * - pgs and psor on an lcp fuse the residual check and its metrics into
 *   the sweep (fused_solve): the same iterations, status, metrics and
 *   answer, bit for bit, as the plain loop (taken here with an identity
 *   --order), from zeros, from a warm start of both signs, and from one with
 *   a NaN; so must the colour-parallel sweep's row update on classes of one
 *   row in natural order, from zeros;
 * - psor's factor (choose_omega): 1 on a singular A (the 2 x 2 of Siconos'
 *   lcp_CPS_1, where Lanczos ends at lmin ~ 1e-16), 1 when lmax >= 2, in
 *   (1, 2) with margin on a chain; lcp_scaled_spectrum_until stops within
 *   10 steps once lmax >= 2 and otherwise agrees with lcp_spectrum (its
 *   Ritz values by bisection: the same to rounding).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "solvers/solver.h"
#include "la/spectral.h"
#include "core/verify.h"

/* a deterministic pseudo-random number in [0, 1) */
static double rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (double)((*s >> 8) & 0xffffff) / 16777216.0;
}

/* An lcp of n rows: A = D + a few symmetric off-diagonal entries a row
 * within +-band (some far), D dominant; b of both signs. */
static void random_lcp(lcp_problem *p, int n, int band, unsigned seed)
{
    long cap = (long)n * 16;
    int *ti = malloc((size_t)cap * sizeof(int)), *tj = malloc((size_t)cap * sizeof(int));
    double *tx = malloc((size_t)cap * sizeof(double));
    long nz = 0;
    for (int i = 0; i < n; i++) {
        ti[nz] = tj[nz] = i, tx[nz++] = 4.0 + rnd(&seed);
        for (int e = 0; e < 3; e++) {
            /* the first coupling to the next row half the time: rows with an
             * entry in column i-1, whose product the sweeps add last */
            int j = e == 0 && rnd(&seed) < 0.5 ? i + 1 : i + 1 + (int)(rnd(&seed) * (e == 2 ? n : band));
            if (j >= n) continue;
            double v = rnd(&seed) - 0.5;
            ti[nz] = i, tj[nz] = j, tx[nz++] = v;
            ti[nz] = j, tj[nz] = i, tx[nz++] = v;
        }
    }
    lcp_problem_init(p);
    p->kind = LCP_KIND_LCP;
    if (lcp_csr_from_triplets(&p->A, n, n, nz, ti, tj, tx)) exit(2);
    free(ti), free(tj), free(tx);
    p->b = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) p->b[i] = 2.0 * rnd(&seed) - 1.0;
    p->blen = n;
    p->source = lcp_strdup("test");
    lcp_err err = {{0}};
    if (lcp_problem_finish(p, &err)) {
        fprintf(stderr, "random_lcp: %s\n", err.msg);
        exit(2);
    }
}

/* The textbook sweep in the update of src/solvers/pgs.c: s_i = b_i + the
 * row's entries but column i-1's in the residual's order (entry e of the
 * row in running sum e mod 4, column i-1's counted as 0, then (s0 + s1) +
 * (s2 + s3) + b_i), x_i <- max(0, (x_i - c_i s_i) - g_i x_{i-1}) with
 * c_i = omega / A_ii (omega * dinv_i) and g_i = c_i A(i, i-1). */
static double ref_sweep(const lcp_problem *p, const double *dinv, double omega, double *x, int first, int last,
                        int step)
{
    double dmax = 0.0;
    for (int i = first; i != last + step; i += step) {
        double s[4] = {0.0, 0.0, 0.0, 0.0}, c = omega * dinv[i], g = 0.0;
        for (int k = p->A.p[i]; k < p->A.p[i + 1]; k++) {
            int j = p->A.j[k];
            s[(k - p->A.p[i]) % 4] += p->A.x[k] * (j == i - 1 ? 0.0 : x[j]);
            if (j == i - 1) g = c * p->A.x[k];
        }
        double r = ((s[0] + s[1]) + (s[2] + s[3])) + p->b[i];
        double xi = (x[i] - c * r) - g * (i > 0 ? x[i - 1] : 0.0);
        if (xi < 0.0) xi = 0.0;
        double d = fabs(xi - x[i]);
        x[i] = xi;
        dmax = (d > dmax || dmax != dmax) ? d : dmax;
    }
    return dmax;
}

static void test_sweep(void)
{
    lcp_problem p;
    random_lcp(&p, 3000, 40, 7u);
    int n = p.n;
    double *dinv, *x = calloc((size_t)n, sizeof(double)), *y = calloc((size_t)n, sizeof(double));
    lcp_err err = {{0}};
    CHECK(lcp_inverse_diagonal(&p, "pgs", &dinv, &err) == 0);
    const double omegas[] = {1.0, 1.4};
    int same = 1, moved = 0, sub = 0;
    for (int i = 1; i < n; i++)
        for (int k = p.A.p[i]; k < p.A.p[i + 1]; k++) sub += p.A.j[k] == i - 1;
    CHECK(sub > n / 4); /* rows with an entry in column i-1: g_i taken */
    for (int o = 0; o < 2; o++) {
        lcp_gs gs;
        if (lcp_gs_init(&gs, &p, dinv, omegas[o])) exit(2);
        memset(x, 0, (size_t)n * sizeof(double));
        memset(y, 0, (size_t)n * sizeof(double));
        for (int k = 0; k < 20; k++) {
            int fwd = k % 3 != 2;
            double a = fwd ? lcp_pgs_sweep(&p, &gs, x, 0, n - 1, 1) : lcp_pgs_sweep(&p, &gs, x, n - 1, 0, -1);
            double b = fwd ? ref_sweep(&p, dinv, omegas[o], y, 0, n - 1, 1)
                           : ref_sweep(&p, dinv, omegas[o], y, n - 1, 0, -1);
            same &= memcmp(&a, &b, sizeof a) == 0 && memcmp(x, y, (size_t)n * sizeof(double)) == 0;
            moved |= a > 0;
        }
        /* one row at a time (mpi-pgs' use) */
        double a = 0.0, b = ref_sweep(&p, dinv, omegas[o], y, 0, n - 1, 1);
        for (int i = 0; i < n; i++) a = fmax(a, lcp_pgs_sweep(&p, &gs, x, i, i, 1));
        same &= a == b && memcmp(x, y, (size_t)n * sizeof(double)) == 0;
        lcp_gs_free(&gs);
    }
    CHECK(moved);
    CHECK(same);
    /* a few rows at 0 and a few not: the projection was exercised */
    int zero = 0, pos = 0;
    for (int i = 0; i < n; i++) zero += x[i] == 0.0, pos += x[i] > 0.0;
    CHECK(zero > 0 && pos > 0);
    free(dinv), free(x), free(y);
    lcp_problem_free(&p);
}

/* lcp_verify (one pass) against lcp_verify_w on w = A x + b (- reg x). */
static int verify_same(const lcp_problem *p, const double *x)
{
    int n = p->n;
    double *w = malloc((size_t)n * sizeof(double)), *w2 = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) { /* the residual's order: entry e of the row in sum e mod 4 */
        double s[4] = {0.0, 0.0, 0.0, 0.0};
        for (int q = p->A.p[i]; q < p->A.p[i + 1]; q++) s[(q - p->A.p[i]) % 4] += p->A.x[q] * x[p->A.j[q]];
        w2[i] = ((s[0] + s[1]) + (s[2] + s[3])) + p->b[i];
        if (p->reg > 0) w2[i] -= p->reg * x[i];
    }
    lcp_metrics a, b;
    lcp_verify(p, x, w, &a);
    lcp_verify_w(p, x, w2, &b);
    int same = memcmp(&a.residual, &b.residual, sizeof(double)) == 0 &&
               memcmp(&a.complementarity, &b.complementarity, sizeof(double)) == 0 &&
               memcmp(&a.feasibility, &b.feasibility, sizeof(double)) == 0 && a.scale == b.scale;
    for (int i = 0; i < n; i++) /* the w returned: that of the problem solved (A holds reg I) */
        same &= w[i] == (p->reg > 0 ? w2[i] + p->reg * x[i] : w2[i]) || (isnan(w[i]) && isnan(w2[i]));
    free(w), free(w2);
    return same;
}

static void test_verify(void)
{
    lcp_problem p;
    random_lcp(&p, 5000, 100, 11u); /* 5 chunks */
    int n = p.n;
    double *x = malloc((size_t)n * sizeof(double));
    unsigned s = 3u;
    for (int i = 0; i < n; i++) x[i] = rnd(&s) < 0.3 ? 0.0 : rnd(&s) - 0.2; /* some negative: infeasible */
    CHECK(verify_same(&p, x));
    lcp_metrics m;
    double *w = malloc((size_t)n * sizeof(double));
    lcp_verify(&p, x, w, &m);
    CHECK(m.residual > 0 && isfinite(m.residual) && m.feasibility > 0);
    x[4321] = INFINITY;
    CHECK(verify_same(&p, x));
    lcp_verify(&p, x, w, &m);
    CHECK(m.residual == INFINITY);
    x[4321] = NAN;
    CHECK(verify_same(&p, x));
    lcp_verify(&p, x, w, &m);
    CHECK(m.residual == INFINITY);
    x[4321] = 0.5;
    lcp_err err = {{0}};
    CHECK(lcp_problem_regularise(&p, 1e-3, &err) == 0);
    CHECK(verify_same(&p, x));
    free(x), free(w);
    lcp_problem_free(&p);
}

/* A value for the terms' test: mostly ordinary, some of each special kind */
static double special(unsigned *s)
{
    double u = rnd(s);
    if (u < 0.04) return NAN;
    if (u < 0.07) return INFINITY;
    if (u < 0.10) return -INFINITY;
    if (u < 0.20) return 0.0;
    if (u < 0.28) return -0.0;
    return rnd(s) - 0.3;
}

static void test_terms(void)
{
    enum { N = 67 };
    double x[N], w[N], xn[N];
    int same = 1, flagged = 0, clean = 0, avx2_missing = 0;
    unsigned s = 7u;
    lcp_problem p; /* lcp_verify_nodes reads the kind and nothing else of an lcp */
    lcp_problem_init(&p);
    p.kind = LCP_KIND_LCP;
    int nodes[N];
    for (int i = 0; i < N; i++) nodes[i] = i;
    for (int trial = 0; trial < 8 * (N + 1); trial++) {
        int n = trial % (N + 1), mode = trial / (N + 1) % 4; /* specials: 0 everywhere, 1 none, 2 in w, 3 NaN in x */
        for (int i = 0; i < n; i++) {
            x[i] = mode == 0 ? special(&s) : mode == 3 && rnd(&s) < 0.1 ? NAN : rnd(&s) - 0.3;
            w[i] = mode == 0 || mode == 2 ? special(&s) : rnd(&s) - 0.3;
            xn[i] = mode == 1 ? rnd(&s) : special(&s);
        }
        lcp_verify_partial b;
        lcp_verify_nodes(&p, x, w, nodes, n, &b);
        double dref = 0.0;
        for (int i = 0; i < n; i++) dref = lcp_sel_max(fabs(xn[i] - x[i]), dref);
        for (int isa = 0; isa < 2; isa++) { /* portable, AVX2 where the CPU has it */
            lcp_verify_partial a = {0}, c = {0};
            for (int i = 0; i < n; i++) a.comp += x[i] * w[i];
            double dx = 0.0;
            if (lcp_verify_lcp_rows_isa(isa, &a, x, w, n, xn, &dx)) {
                avx2_missing = 1;
                continue;
            }
            same &= memcmp(&a.res, &b.res, sizeof(double)) == 0 && memcmp(&a.feas, &b.feas, sizeof(double)) == 0 &&
                    (memcmp(&a.comp, &b.comp, sizeof(double)) == 0 || (isnan(a.comp) && isnan(b.comp))) &&
                    a.nan == b.nan && memcmp(&dx, &dref, sizeof(double)) == 0;
            lcp_verify_lcp_rows_isa(isa, &c, x, w, n, NULL, NULL); /* without xn: the same terms */
            same &= memcmp(&a.res, &c.res, sizeof(double)) == 0 && memcmp(&a.feas, &c.feas, sizeof(double)) == 0 &&
                    a.nan == c.nan;
        }
        lcp_verify_partial d = {0}; /* the dispatching entry: one of them */
        lcp_verify_lcp_rows(&d, x, w, n, NULL, NULL);
        same &= memcmp(&d.res, &b.res, sizeof(double)) == 0 && d.nan == b.nan;
        flagged += b.nan, clean += !b.nan && n > 0;
    }
    CHECK(same);
    CHECK(flagged > 50 && clean > 50); /* both kinds were met */
    if (avx2_missing) printf("test_terms: this CPU has no AVX2; its path was not run\n");
    lcp_problem_free(&p);
}

/* psor's factor on p, from a solve of at most a few iterations. */
static double psor_omega(const lcp_problem *p)
{
    lcp_settings s;
    lcp_settings_default(&s);
    s.max_iter = 3;
    lcp_monitor mon;
    lcp_info info;
    memset(&info, 0, sizeof info);
    double *x = calloc((size_t)p->n, sizeof(double));
    lcp_err err = {{0}};
    if (lcp_monitor_init(&mon, p, &s, NULL)) exit(2);
    const lcp_solver *sv = lcp_solver_find("psor");
    int rc = sv->solve(p, &s, x, &mon, &info, &err);
    lcp_monitor_free(&mon);
    free(x);
    return rc ? -1.0 : info.omega;
}

/* An lcp of dense row-major A (n x n) and b. */
static void dense_lcp(lcp_problem *p, int n, const double *a, const double *b)
{
    double *cm = malloc((size_t)n * (size_t)n * sizeof(double));
    for (int i = 0; i < n; i++)
        for (int c = 0; c < n; c++) cm[i + (size_t)c * n] = a[(size_t)i * n + c];
    lcp_problem_init(p);
    p->kind = LCP_KIND_LCP;
    if (lcp_csr_from_dense_colmajor(&p->A, n, n, cm)) exit(2);
    free(cm);
    p->b = malloc((size_t)n * sizeof(double));
    memcpy(p->b, b, (size_t)n * sizeof(double));
    p->blen = n;
    p->source = lcp_strdup("test");
    lcp_err err = {{0}};
    if (lcp_problem_finish(p, &err)) exit(2);
}

static void test_omega(void)
{
    lcp_problem p;
    /* singular (lcp_CPS_1's A): the scaled spectrum is {0, 2} */
    const double sing[4] = {1, 1, 1, 1}, bs[2] = {-1, -1};
    dense_lcp(&p, 2, sing, bs);
    CHECK(psor_omega(&p) == 1.0);
    lcp_problem_free(&p);
    /* a chain: tridiagonal 2, -1 (scaled spectrum inside (0, 2)): over-relaxed, with margin */
    enum { N = 200 };
    double *t = calloc((size_t)N * N, sizeof(double)), bc[N];
    for (int i = 0; i < N; i++) {
        t[(size_t)i * N + i] = 2.0;
        if (i) t[(size_t)i * N + i - 1] = t[(size_t)(i - 1) * N + i] = -1.0;
        bc[i] = -1.0;
    }
    dense_lcp(&p, N, t, bc);
    double w = psor_omega(&p);
    CHECK(w > 1.5 && w <= 1.9995);
    double lo1, hi1, lo2, hi2;
    int st1 = 0, st2 = 0;
    CHECK(lcp_spectrum(&p.A, NULL, 3000, &lo1, &hi1, &st1) == 0);
    CHECK(lcp_scaled_spectrum_until(&p.A, 3000, 2.0, &lo2, &hi2, &st2) == 0);
    /* 2 never reached: the same Lanczos process, Ritz values by bisection instead of QR */
    CHECK(hi1 < 2.0 && fabs(hi2 - hi1) <= 1e-9 * hi1 && fabs(lo2 - lo1) <= 0.05 * lo1 && lo1 > 0);
    CHECK(st2 >= st1 - 10 && st2 <= st1 + 10);
    lcp_problem_free(&p);
    /* all off-diagonal entries +1 (a star of rows): scaled lmax = 1 + (N-1)/2 >> 2 */
    for (int i = 0; i < N; i++)
        for (int c = 0; c < N; c++) t[(size_t)i * N + c] = i == c ? 2.0 : 1.0 / N;
    for (int i = 1; i < N; i++) t[i] = t[(size_t)i * N] = 1.0;
    dense_lcp(&p, N, t, bc);
    CHECK(lcp_scaled_spectrum_until(&p.A, 3000, 2.0, &lo2, &hi2, &st2) == 0);
    CHECK(hi2 >= 2.0 && st2 <= 10);
    CHECK(psor_omega(&p) == 1.0);
    lcp_problem_free(&p);
    free(t);
}

/* pgs or psor on p from 0: the fused loop (no order) or, with an identity
 * order, the plain one (ordered_sweep + lcp_monitor_step). */
typedef struct {
    int iterations;
    lcp_status status;
    double residual, complementarity, feasibility, scale, omega;
} run_out;

/* from x0 (NULL: zeros) */
static run_out solve_from(const lcp_problem *p, const char *name, double tol, int max_iter, int plain, double *x,
                          const double *x0)
{
    lcp_settings s;
    lcp_settings_default(&s);
    s.tol = tol;
    s.max_iter = max_iter;
    lcp_order o = {0};
    int *perm = malloc((size_t)p->n * sizeof(int)), *cptr = malloc((size_t)(p->n + 1) * sizeof(int));
    for (int i = 0; i < p->n; i++) perm[i] = i;
    for (int i = 0; i <= p->n; i++) cptr[i] = i;
    o.n = p->n, o.block = 1, o.perm = perm;
    if (plain == 2) o.ncolours = p->n, o.cptr = cptr; /* classes of one row, in natural order */
    if (plain) s.order = &o;
    lcp_monitor mon;
    lcp_info info;
    memset(&info, 0, sizeof info);
    if (x0) memcpy(x, x0, (size_t)p->n * sizeof(double));
    else memset(x, 0, (size_t)p->n * sizeof(double));
    lcp_err err = {{0}};
    if (lcp_monitor_init(&mon, p, &s, NULL)) exit(2);
    const lcp_solver *sv = lcp_solver_find(name);
    run_out r = {-1, LCP_ERROR, NAN, NAN, NAN, NAN, NAN};
    if (!sv->solve(p, &s, x, &mon, &info, &err)) {
        r.iterations = info.iterations;
        r.status = mon.status;
        r.residual = mon.last.residual;
        r.complementarity = mon.last.complementarity;
        r.feasibility = mon.last.feasibility;
        r.scale = mon.last.scale;
        r.omega = info.omega;
    }
    lcp_monitor_free(&mon);
    free(perm), free(cptr);
    return r;
}

static run_out solve(const lcp_problem *p, const char *name, double tol, int max_iter, int plain, double *x)
{
    return solve_from(p, name, tol, max_iter, plain, x, NULL);
}

/* the same bits: every field of the two runs and their answers */
static int same_run(run_out a, run_out b, const double *x, const double *y, int n)
{
    return a.iterations == b.iterations && a.status == b.status && memcmp(&a.residual, &b.residual, 8) == 0 &&
           memcmp(&a.complementarity, &b.complementarity, 8) == 0 &&
           memcmp(&a.feasibility, &b.feasibility, 8) == 0 && memcmp(&a.scale, &b.scale, 8) == 0 &&
           memcmp(&a.omega, &b.omega, 8) == 0 && memcmp(x, y, (size_t)n * sizeof(double)) == 0;
}

/* The fused sweep + residual (fused_solve in src/solvers/pgs.c): the
 * iterates, the monitor's residuals and decisions, the answer of the plain
 * loop, bit for bit, stopped by the tolerance or by the iteration limit. */
static void test_fused(void)
{
    lcp_problem p;
    random_lcp(&p, 2500, 30, 5u);
    int n = p.n;
    double *x = malloc((size_t)n * sizeof(double)), *y = malloc((size_t)n * sizeof(double));
    const char *names[] = {"pgs", "psor"};
    int same = 1, solved = 0, limited = 0;
    for (int v = 0; v < 2; v++)
        for (int lim = 0; lim < 2; lim++) {
            run_out a = solve(&p, names[v], 1e-10, lim ? 7 : 100000, 0, x);
            run_out b = solve(&p, names[v], 1e-10, lim ? 7 : 100000, 1, y);
            same &= same_run(a, b, x, y, n);
            solved += a.status == LCP_SOLVED;
            limited += a.status == LCP_MAX_ITER && a.iterations == 7;
        }
    CHECK(same);
    CHECK(solved == 2 && limited == 2);
    /* the colour-parallel sweep's row update (lcp_row_shared: the entry of
     * column i-1 left out by its column, x_{i-1} not read where there is
     * none) on classes of one row in natural order: the bits of the plain
     * loop on these finite iterates */
    int colour = 1;
    for (int v = 0; v < 2; v++) {
        run_out a = solve(&p, names[v], 1e-10, 100000, 1, x), b = solve(&p, names[v], 1e-10, 100000, 2, y);
        colour &= same_run(a, b, x, y, n) && a.status == LCP_SOLVED;
    }
    CHECK(colour);
    /* the answer is the one judged: its residual, recomputed */
    run_out a = solve(&p, "pgs", 1e-10, 100000, 0, x);
    lcp_metrics m;
    lcp_verify(&p, x, y, &m);
    CHECK(a.status == LCP_SOLVED && m.residual == a.residual && m.residual <= 1e-10);
    /* from a warm start of both signs (the metrics' max and min terms take
     * either side), and from one with a NaN (stopped at iteration 0, the
     * start given back): the bits of the plain loop */
    double *x0 = malloc((size_t)n * sizeof(double));
    unsigned seed = 11u;
    for (int i = 0; i < n; i++) x0[i] = rnd(&seed) - 0.3;
    int warm = 1;
    for (int v = 0; v < 2; v++)
        for (int lim = 0; lim < 2; lim++) {
            run_out c = solve_from(&p, names[v], 1e-10, lim ? 5 : 100000, 0, x, x0);
            run_out d = solve_from(&p, names[v], 1e-10, lim ? 5 : 100000, 1, y, x0);
            warm &= same_run(c, d, x, y, n) && c.status == (lim ? LCP_MAX_ITER : LCP_SOLVED);
        }
    CHECK(warm);
    x0[n / 2] = NAN;
    run_out c = solve_from(&p, "pgs", 1e-10, 100, 0, x, x0), d = solve_from(&p, "pgs", 1e-10, 100, 1, y, x0);
    CHECK(c.status == LCP_ERROR && c.iterations == 0 && isinf(c.residual));
    CHECK(c.status == d.status && c.iterations == d.iterations && c.residual == d.residual);
    CHECK(memcmp(x, x0, (size_t)n * sizeof(double)) == 0);
    free(x0);
    free(x), free(y);
    lcp_problem_free(&p);
}

/* The team of the parallel sweeps (src/solvers/team.c): one thread asked
 * for, one always; two asked for: a trial first (the threads and one,
 * alternately, three steps each), then one count or the other, never
 * anything else, and the count asked for again at the end. */
static void test_team(void)
{
    lcp_team t;
    lcp_team_init(&t, 1);
    int ones = 0;
    for (int k = 0; k < 100; k++) {
        ones += lcp_team_begin(&t) == 1;
        lcp_team_end(&t);
    }
    CHECK(ones == 100); /* team of 1: one thread on every step */
    lcp_team_init(&t, 2);
    int alternate = 1, others = 0;
    for (int k = 0; k < 6; k++) {
        alternate = alternate && lcp_team_begin(&t) == (k % 2 ? 1 : 2);
        lcp_team_end(&t);
    }
    CHECK(alternate && t.trials == 1); /* team of 2: the first trial alternates 2, 1, 2, 1, 2, 1 */
    for (int k = 0; k < 500; k++) {
        int n = lcp_team_begin(&t);
        others += n != 1 && n != 2;
        lcp_team_end(&t);
    }
    CHECK(others == 0 && t.trials >= 1 && t.serial <= t.trials); /* team of 2: only 1 or 2 threads */
    lcp_team_done(&t);
}

/* lcp_breakeven_step (the reward arms of sequence --tune): on a residual halving each iteration at 1 us an
 * iteration, with alpha = beta = 1 the next iteration gains r/2 against 1e-6 of cost: the stop comes where
 * r/2 falls below 1e-6 (r ~ 2e-6, iteration ~19), not before iteration 10; with beta = 0 (time alone) at the
 * first iteration it may (10); with alpha = 0 (residual alone) never; a residual that stops falling stops it */
static int breakeven_at(double alpha, double beta, int plateau)
{
    lcp_breakeven b = {0};
    for (int k = 1; k <= 200; k++) {
        double r = pow(0.5, plateau && k > 12 ? 12 : k);
        if (lcp_breakeven_step(&b, k, k * 1e-6, r, alpha, beta)) return k;
    }
    return 0;
}

static void test_breakeven(void)
{
    int k = breakeven_at(1, 1, 0);
    CHECK(k >= 19 && k <= 22);
    CHECK(breakeven_at(1, 0, 0) == 10);
    CHECK(breakeven_at(0, 1, 0) == 0);
    /* time nearly free: only the plateau (from iteration 12) stops it, once the window's earlier anchor lies
     * in it: the anchors move as the iterations double, to 16 at iteration 32 */
    CHECK(breakeven_at(1e-9, 1, 1) == 32);
}

int main(void)
{
    test_team();
    test_breakeven();
    test_sweep();
    test_verify();
    test_terms();
    test_omega();
    test_fused();
    CHECK_DONE();
}
