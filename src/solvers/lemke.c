/* src/solvers/lemke.c: Lemke's complementary pivoting method for lcp, with
 * the lexicographic ratio test (Lemke 1965; Cottle, Pang and Stone 1992,
 * sec. 4.4; Murty 1988, ch. 2).
 *
 * The LCP  w = A z + b, z >= 0, w >= 0, z'w = 0  is embedded, with an
 * artificial variable z0 and a covering vector d > 0 (--cover, default 1), in
 *     w - A z - d z0 = b,   w, z, z0 >= 0,   w_i z_i = 0  (i = 1..n).     (*)
 * Variables are numbered w_j = j, z_j = n + j, z0 = 2n; a basis B holds n of
 * the columns of [I, -A, -d], beta = B^-1 b are the basic values.
 *   start:  b >= 0: z = 0 solves the LCP (0 pivots).  Otherwise z0 enters the
 *           basis {w} at the row r of the most negative b_r / d_r (ties: the
 *           largest r, which is the lexicographic choice), giving
 *           z0 = -b_r / d_r and w = b + d z0 >= 0.
 *   pivot:  the complement of the variable that just left enters (w_j <->
 *           z_j); its column is abar = B^-1 a_e and it grows until the first
 *           basic variable reaches 0:
 *               r = argmin { beta_i / abar_i : abar_i > 0 },
 *           ties broken by the lexico-minimum of the rows [beta_i, (B^-1)_i.]
 *           / abar_i.  That keeps every row of [beta, B^-1] lexico-positive,
 *           so no basis repeats and the method cannot cycle.  When z0 is
 *           among the tied rows it leaves.
 *   end:    z0 leaves: z0 = 0, the basis is complementary, z solves the LCP.
 *           No abar_i > 0: the ray (beta - t abar, t -> inf) stays feasible
 *           for (*): ray termination.  Its z part moves along y >= 0; when
 *           A is copositive-plus, y satisfies A'y <= 0 and b'y < 0 (CPS sec.
 *           4.4), a Farkas certificate that no z >= 0 has A z + b >= 0.
 *           The certificate is checked on the data: when it holds, the LCP
 *           has no solution (LCP_NO_SOLUTION, whatever A); when it fails,
 *           nothing is decided (LCP_ERROR: round-off if A is positive
 *           semidefinite, hence copositive-plus, tested by a Cholesky factor
 *           of (A + A')/2 + delta I; otherwise Lemke's method may ray-
 *           terminate on solvable problems).
 * Revised form: B^-1 is kept dense (n x n, column-major); abar is one dgemv
 * (or daxpys for a sparse column), and a pivot at row r is the rank-1 update
 *     B^-1 <- B^-1 - (abar - e_r) (e_r' B^-1) / abar_r          (dger)
 *     beta <- beta - theta abar, beta_r <- theta = beta_r / abar_r.
 * B^-1 is rebuilt from the basis columns (LAPACK dgetrf + dgetri) when the
 * residual S b - B beta of the basis system, checked every CHECK_EVERY
 * pivots, has drifted, and before accepting a ray or a pivot below
 * SMALL_PIVOT * |abar|_inf (then the ratio test is redone).  The rows are
 * scaled first, S = diag(1 / max_j |A_ij|): S w = (S A) z + S b + (S d) z0
 * has the same z and, in exact arithmetic, the same pivots.  Pivot column
 * entries below PIVOT_TOL * max(1, |abar|_inf) count as zero.  When z0 has
 * left and round-off leaves the residual above --tol, up to three steps of
 * iterative refinement (beta += B^-1 (S b - B beta)) precede the last check
 * (a singular, badly scaled A, e.g. a heavy-on-light pyramid, may need more than one).
 * Iterations are pivots (the first brings z0 in, the last takes it out).
 * Trace columns: pivots, z0.  -j N sets the OpenBLAS threads.  The dense work is limited to
 * 4 GiB (n <= 23170).
 *
 * Sparse path (--linsolve sparse; auto: n >= 500 with nnz(A) <= 2% of n^2,
 * or n beyond the dense limit): the same pivots without B^-1.  The basis
 * B0 is kept in compressed columns (e_v, -(S A)(:, j), -S d) and factored
 * by UMFPACK (a new symbolic analysis each time: the pattern changes), and
 * each pivot appends an eta vector abar (product form): B = B0 E_1 .. E_k,
 * E_t = I + (abar_t - e_r) e_r'.  ftran: x = B^-1 a = E_k^-1 .. E_1^-1
 * B0^-1 a, one sparse solve and the eta file.  B0 is refactored when the
 * eta file's work (eta entries applied since the last factorisation)
 * exceeds REFACTOR_COST times nnz(B0) + nnz(L + U) + n, at ETA_MAX etas or
 * a full eta file, and on the same drift / small-pivot / ray checks as the
 * dense path.  The lexicographic tie-break needs columns of B^-1 only on
 * ties, and only up to the first that decides: column k is e_s for free
 * when w_k is basic at row s, else one ftran of e_k (entries below LEX_TOL
 * of its largest are round-off, zero).  Per pivot: one ftran, the ratio
 * test over beta (O(n)), the eta append; no n x n array anywhere.  The
 * positive-semidefinite test of a ray verdict is a CHOLMOD factor of
 * (A + A')/2 + delta I.  Ties among at most LEX_ROWS rows are decided on
 * their rows of B^-1 (a transposed solve each, btran) instead: on
 * degenerate contact problems tens of columns may tie where a few rows do.
 *
 * Crash start (sparse path, --crash, no --cover; Dirkse and Ferris 1997,
 * "Crash techniques for large-scale complementarity problems"): the start
 * basis from a guess z -- the warm start, or the answer of ipm (else pgs,
 * or the --crash solver) on a monitor of its own -- instead of B = I; see
 * crash_start.  With d = B e the pivots then go on as from B = I; a ray
 * from there proves nothing unless its certificate checks, so otherwise
 * the solve starts again from B = I, d = 1.  --warm-start is used only
 * there (the dense path and --crash none start at z = 0).  For a
 * symmetric A the guess is first purified to a vertex of the solution set
 * (see purify): ipm's answer is an interior point of that set when A is
 * singular (contact sets with more contacts than body freedoms), and the
 * crash basis of an interior point leaves thousands of loads negative
 * (the 19,600-contact pyramid: ~2,800, then 8,000-12,000 pivots); from the
 * vertex a few pivots remain.
 *
 * Files: this one holds the method (the ratio test and its lexicographic
 * tie-break, the crash start, the ray verdict, the solve's loop); the
 * basis -- workspace, scaling, B^-1 and its update, the sparse path's LU
 * and eta file, refinement -- is src/solvers/lemke_basis.c, declared in
 * src/solvers/lemke_internal.h.
 */
#include "lemke_internal.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK */
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);

/* PIVOT_TOL, SMALL_PIVOT, TIE_TOL, LEX_TOL: lemke_internal.h (lemke_small.c's pivots are these) */
#define CHECK_EVERY 32    /* pivots between checks of the basis residual */
#define DRIFT_TOL 1e-11   /* basis residual above DRIFT_TOL * scale: rebuild B^-1 */
#define CERT_TOL 1e-9     /* relative tolerance of the infeasibility certificate */
#define PSD_SHIFT 1e-10   /* delta = PSD_SHIFT * max |(A + A')/2| in the Cholesky test */
#define MAX_DENSE_BYTES (4.0 * 1024.0 * 1024.0 * 1024.0)
#define AUTO_SPARSE_MIN 500       /* --linsolve auto: sparse from this n ... */
#define AUTO_SPARSE_DENSITY 0.02  /* ... when nnz(A) <= AUTO_SPARSE_DENSITY n^2 */
#define AUTO_CRASH_DENSITY 0.1    /* ... or <= AUTO_CRASH_DENSITY n^2 where the crash start runs */
#define CRASH_WEAK_TOL 1e-10      /* crash: an LU pivot below this times the largest marks a dependent column */
#define CRASH_ROUNDS 4            /* crash: rounds of replacing dependent columns */

static const char *const columns[] = {"pivots", "z0", NULL};

/* "w3", "z3" or "z0" for variable v (1-based indices). */
static void var_name(int v, int n, char *buf, size_t len)
{
    if (v == 2 * n)
        snprintf(buf, len, "z0");
    else
        snprintf(buf, len, "%c%d", v < n ? 'w' : 'z', (v < n ? v : v - n) + 1);
}

/* Sparse path: the lexicographic tie-break over the tied rows
 * W->cand[0..nc) (all marked), from column k0 of B^-1 on (the columns
 * before it tie): their rows of B^-1, one btran each, compared column by
 * column; an entry below LEX_TOL times its row's largest |entry| is
 * round-off (0).  Rows still tied at the end (round-off): the largest
 * pivot.  Marks cleared. */
static int lexico_rows(lemke_work *W, int nc, int k0)
{
    int n = W->n;
    const double *a = W->col;
    int *cand = W->cand;
    for (int c = 0; c < nc; c++) {
        double *y = W->lexrow + (size_t)c * n;
        memset(y, 0, (size_t)n * sizeof(double));
        y[cand[c]] = 1.0;
        lemke_btran(W, y); /* row cand[c] of B^-1 */
        double zero = LEX_TOL * fabs(y[cblas_idamax(n, y, 1)]);
        for (int k = k0; k < n; k++)
            if (fabs(y[k]) <= zero) y[k] = 0.0;
        W->mark[cand[c]] = c + 1; /* its slot, 1-based */
    }
    int live = nc;
    for (int k = k0; k < n && live > 1; k++) {
        double vmin = INFINITY, vabs = 0.0;
        for (int c = 0; c < nc; c++) {
            if (!W->mark[cand[c]]) continue;
            double v = W->lexrow[(size_t)c * n + k] / a[cand[c]];
            vmin = fmin(vmin, v);
            vabs = fmax(vabs, fabs(v));
        }
        if (vabs == 0.0) continue;
        for (int c = 0; c < nc; c++)
            if (W->mark[cand[c]] && W->lexrow[(size_t)c * n + k] / a[cand[c]] > vmin + LEX_TOL * vabs) {
                W->mark[cand[c]] = 0;
                live--;
            }
    }
    int r = -1;
    for (int c = 0; c < nc; c++) {
        if (W->mark[cand[c]] && (r < 0 || a[cand[c]] > a[r])) r = cand[c];
        W->mark[cand[c]] = 0;
    }
    return r;
}

/* Sparse path: the lexicographic tie-break of ratio_test over the tied
 * rows W->cand[0..nc), column by column of B^-1 as in the dense path, but
 * computing only the columns needed.  Column k of B^-1 where w_k is basic
 * (at row s) is e_s (B^-1 B = I, and B's column s is e_k): no solve, the
 * candidate s (if it is one) leaves the tie, its entry 1 / abar_s > 0 = the
 * others'.  Any other column is B^-1 e_k, one ftran; its entries below
 * LEX_TOL times its largest |entry| are round-off (0).  Rows still tied at
 * the end (round-off): the largest pivot. */
static int lexico_columns(lemke_work *W, int nc)
{
    int n = W->n;
    const double *a = W->col;
    int *cand = W->cand, *mark = W->mark;
    double *ek = W->rowb;
    for (int c = 0; c < nc; c++) mark[cand[c]] = 1;
    int live = nc; /* candidates still marked; cand[] is compacted at each solve */
    for (int k = 0; k < n && live > 1; k++) {
        if (live <= LEX_ROWS) { /* few left: their rows of B^-1 (a solve each) decide from column k on */
            int keep = 0;
            for (int c = 0; c < nc; c++)
                if (mark[cand[c]]) cand[keep++] = cand[c];
            return lexico_rows(W, keep, k);
        }
        int s = W->row_of[k];
        if (s >= 0) { /* w_k basic at row s: column k of B^-1 is e_s */
            if (mark[s]) {
                mark[s] = 0;
                live--;
            }
            continue;
        }
        int keep = 0;
        for (int c = 0; c < nc; c++)
            if (mark[cand[c]]) cand[keep++] = cand[c];
        nc = keep;
        memset(ek, 0, (size_t)n * sizeof(double));
        ek[k] = 1.0;
        lemke_ftran(W, ek, ek); /* column k of B^-1 */
        double zero = LEX_TOL * fabs(ek[cblas_idamax(n, ek, 1)]); /* round-off of the solve */
        double vmin = INFINITY, vabs = 0.0;
        for (int c = 0; c < nc; c++) {
            if (fabs(ek[cand[c]]) <= zero) ek[cand[c]] = 0.0;
            double v = ek[cand[c]] / a[cand[c]];
            vmin = fmin(vmin, v);
            vabs = fmax(vabs, fabs(v));
        }
        if (vabs == 0.0) continue;
        for (int c = 0; c < nc; c++)
            if (ek[cand[c]] / a[cand[c]] > vmin + LEX_TOL * vabs) {
                mark[cand[c]] = 0;
                live--;
            }
    }
    int r = -1;
    for (int c = 0; c < nc; c++) { /* the survivors (round-off ties: the largest pivot); marks cleared */
        if (mark[cand[c]] && (r < 0 || a[cand[c]] > a[r])) r = cand[c];
        mark[cand[c]] = 0;
    }
    return r;
}

/* The leaving row for the column in W->col: minimum ratio, z0 first among
 * ties, then the lexico-minimum of [beta_i, (B^-1)_i.] / abar_i; -1 when
 * no entry blocks (a ray). */
static int ratio_test(lemke_work *W)
{
    int nc = 0, r = lemke_ratio_ties(W->n, W->col, W->beta, W->basis, W->cand, &nc);
    if (r != -2) return r;
    if (W->sparse && nc > 1) return lexico_columns(W, nc);
    return lemke_lexico_dense(W->n, W->col, W->Binv, W->cand, nc);
}

/* Crash start (sparse path): Lemke's method from a guessed complementary
 * basis instead of B = I.  The guess z (the warm start, or a solver's
 * answer: lcp_crash_guess) makes z_j basic where z_j > 0 and A_jj z_j > w_j
 * (w = A z + b), w_j elsewhere.  The basis is factored (a non-symmetric
 * A: with its z columns pivoted in order of decreasing A_jj z_j, UMFPACK
 * with that column order fixed, so that the dependent ones are the lighter
 * ones of each dependent set; a symmetric A: in UMFPACK's own order, much
 * less fill, as the purification decides the loads anyway), and the z
 * columns its LU finds dependent (pivot below CRASH_WEAK_TOL of the
 * largest: a rank-deficient contact set carries its load on fewer contacts
 * at a vertex) are replaced by their w columns, for up to CRASH_ROUNDS
 * rounds (later rounds in UMFPACK's own order).  A symmetric A: the loads
 * of the dependent columns are then pushed onto independent ones (lcp_crash_purify),
 * which may exchange columns of Z, and the complementary basis of the
 * purified Z is factored (if that fails, the unpurified one is kept).
 * With beta = B^-1 S b, the covering vector
 * becomes S d = B e, so z0's column is B^-1 (-S d) = -e: z0 = -min beta
 * makes every basic value feasible, and z0 enters at the row of the
 * lexico-minimum of [beta_i, (B^-1)_i.] (then every row of [beta, B^-1]
 * is lexico-positive, as from B = I, and the pivots go on as always).
 * This d is not positive, so a ray proves nothing by itself: ray_verdict's
 * certificate is checked on the data, and without it the solve starts
 * again from B = I with d = 1.  Returns the row where z0 enters, -1 when
 * beta >= 0 already (the guess's basis solves the LCP), -2 when no
 * nonsingular basis was found (W must then be set up afresh). */
static int crash_start(lemke_work *W, const lcp_problem *p, const double *z, int *nz, int *ndep, int *npur,
                       double deadline)
{
    int n = W->n, zbasic = 0;
    *nz = *ndep = 0;
    *npur = -1;
    double *w = W->wv;
    lcp_csr_matvec(&p->A, z, w);
    for (int j = 0; j < n; j++) {
        w[j] += p->b[j];
        int zb = z[j] > 0 && (w[j] <= 0 || lcp_csr_diag(&p->A, j) * z[j] > w[j]);
        W->basis[j] = zb ? n + j : j;
        zbasic += zb;
    }
    if (!zbasic) return -2; /* the guess is z = 0: the usual start */
    *nz = zbasic;
    for (int v = 0; v <= 2 * n; v++) W->row_of[v] = -1;
    for (int j = 0; j < n; j++) W->row_of[W->basis[j]] = j;
    int *order = lcp_alloc((size_t)n, sizeof(int)), *weak = lcp_alloc((size_t)n, sizeof(int));
    char *isz = lcp_alloc((size_t)n, 1), *zb0 = lcp_alloc((size_t)n, 1);
    lcp_crash_key *key = lcp_alloc((size_t)n, sizeof(lcp_crash_key));
    int rc = -2, st = LCP_SF_FAILED;
    if (!order || !weak || !key || !isz || !zb0) goto out;
    int sym = lcp_csr_is_symmetric(&p->A, 1e-12); /* purification: A(Z, Z) by Cholesky (as ipm: to 1e-12) */
    for (int j = 0; j < n; j++) zb0[j] = W->basis[j] >= n;
    /* the column order: z columns by decreasing A_jj z_j, then w; a symmetric A is purified
     * afterwards, so UMFPACK's own order there (much less fill) */
    int m = 0;
    for (int j = 0; j < n; j++)
        if (W->basis[j] >= n) key[m++] = (lcp_crash_key){-lcp_csr_diag(&p->A, j) * z[j], j};
    qsort(key, (size_t)m, sizeof *key, lcp_crash_key_cmp);
    for (int q = 0; q < m; q++) order[q] = key[q].j;
    for (int j = 0; j < n; j++)
        if (W->basis[j] < n) order[m++] = j;
    for (int round = 0; round < CRASH_ROUNDS; round++) {
        st = lemke_sparse_factor_basis(W, round == 0 && !sym ? order : NULL);
        if (st != LCP_SF_OK && st != LCP_SF_SINGULAR) goto out;
        int nw = lcp_sparse_factor_lu_weak(&W->F, CRASH_WEAK_TOL, weak);
        if (nw < 0) goto out;
        if (nw == 0 && st == LCP_SF_OK) break;
        int changed = 0;
        for (int q = 0; q < nw; q++) { /* column weak[q] is slot r's variable: z_j -> w_j */
            int r = weak[q], v = W->basis[r];
            if (v >= n && v < 2 * n) {
                W->row_of[v] = -1;
                W->basis[r] = v - n;
                W->row_of[v - n] = r;
                changed = 1;
                ++*ndep;
            }
        }
        if (!changed) goto out; /* dependent w columns only */
        st = LCP_SF_FAILED;
    }
    if (st != LCP_SF_OK) goto out;
    int nd = 0, npv = 0;
    for (int j = 0; j < n; j++) {
        isz[j] = W->basis[j] >= n; /* slot j holds z_j or w_j */
        if (!isz[j] && zb0[j]) weak[nd++] = j; /* loaded, dependent */
    }
    if (sym && nd > 0 && lcp_crash_purify(p, z, isz, weak, nd, &npv, deadline) == 0) {
        /* the complementary basis of the purified z set; its LU, else back to the crash basis */
        for (int j = 0; j < n; j++) order[j] = W->basis[j];
        for (int v = 0; v <= 2 * n; v++) W->row_of[v] = -1;
        for (int j = 0; j < n; j++) {
            W->basis[j] = isz[j] ? n + j : j;
            W->row_of[W->basis[j]] = j;
        }
        if (lemke_sparse_factor_basis(W, NULL) == LCP_SF_OK) {
            *npur = npv;
        } else {
            for (int v = 0; v <= 2 * n; v++) W->row_of[v] = -1;
            for (int j = 0; j < n; j++) W->row_of[W->basis[j] = order[j]] = j;
            if (lemke_sparse_factor_basis(W, NULL) != LCP_SF_OK) goto out;
        }
    }
    if (lemke_ftran(W, W->bs, W->beta) != LCP_SF_OK) goto out;
    rc = 0;
out:
    free(order);
    free(weak);
    free(key);
    free(isz);
    free(zb0);
    if (rc) return rc;
    double bmin = INFINITY, bmax = 0.0;
    for (int i = 0; i < n; i++) {
        if (!isfinite(W->beta[i])) return -2;
        bmin = fmin(bmin, W->beta[i]);
        bmax = fmax(bmax, fabs(W->beta[i]));
    }
    if (bmin >= 0) return -1;
    /* S d = B e: the sum of the basis columns */
    const lcp_csr *T = &W->At;
    memset(W->ds, 0, (size_t)n * sizeof(double));
    for (int r = 0; r < n; r++) {
        int v = W->basis[r];
        if (v < n) W->ds[v] += 1.0;
        else
            for (int k = T->p[v - n]; k < T->p[v - n + 1]; k++) W->ds[T->j[k]] -= T->x[k];
    }
    /* z0 enters at the row of the smallest beta_i, the lexico-minimum of [beta_i, (B^-1)_i.] among ties */
    int nc = 0;
    for (int i = 0; i < n; i++) {
        W->col[i] = 1.0; /* lexico_columns divides by it */
        if (W->beta[i] <= bmin + TIE_TOL * fmax(1.0, bmax)) W->cand[nc++] = i;
    }
    int r0 = nc > 1 ? lexico_columns(W, nc) : W->cand[0];
    for (int i = 0; i < n; i++) W->col[i] = -1.0; /* z0's column B^-1 (-S d) = -e */
    return r0;
}

/* 1 when A is positive semidefinite, hence copositive-plus: (A + A')/2 +
 * delta I has a Cholesky factor.  S: n x n workspace. */
static int positive_semidefinite(const lcp_problem *p, double *S)
{
    int n = p->n, info = 0;
    memset(S, 0, (size_t)n * (size_t)n * sizeof(double));
    for (int i = 0; i < n; i++)
        for (int k = p->A.p[i]; k < p->A.p[i + 1]; k++) {
            S[i + (size_t)p->A.j[k] * n] += 0.5 * p->A.x[k]; /* A/2 */
            S[p->A.j[k] + (size_t)i * n] += 0.5 * p->A.x[k]; /* + A'/2 */
        }
    double smax = fabs(S[cblas_idamax(n * n, S, 1)]);
    if (smax == 0.0) return 1; /* skew-symmetric A: z'Az = 0 */
    for (int i = 0; i < n; i++) S[i + (size_t)i * n] += PSD_SHIFT * smax; /* + delta I */
    dpotrf_("L", &n, S, &n, &info);
    return info == 0;
}

/* positive_semidefinite for the sparse path: (A + A')/2 + delta I by
 * CHOLMOD; 1 when its Cholesky factor exists, 0 when not (or out of memory:
 * nothing is claimed). */
static int positive_semidefinite_sparse(const lcp_problem *p)
{
    int n = p->n;
    long nnz = lcp_csr_nnz(&p->A), nt = 2 * nnz + n;
    int *ti = lcp_alloc((size_t)nt, sizeof(int)), *tj = lcp_alloc((size_t)nt, sizeof(int));
    double *tx = lcp_alloc((size_t)nt, sizeof(double));
    int psd = 0;
    lcp_csr S = {0};
    if (ti && tj && tx) {
        long m = 0;
        for (int i = 0; i < n; i++)
            for (int k = p->A.p[i]; k < p->A.p[i + 1]; k++) {
                ti[m] = i, tj[m] = p->A.j[k], tx[m++] = 0.5 * p->A.x[k];  /* A/2 */
                ti[m] = p->A.j[k], tj[m] = i, tx[m++] = 0.5 * p->A.x[k];  /* + A'/2 */
            }
        for (int i = 0; i < n; i++) ti[m] = tj[m] = i, tx[m++] = 0.0; /* the diagonal, present */
        if (!lcp_csr_from_triplets(&S, n, n, m, ti, tj, tx)) {
            double smax = 0.0;
            for (long k = 0; k < lcp_csr_nnz(&S); k++) smax = fmax(smax, fabs(S.x[k]));
            if (smax == 0.0) {
                psd = 1; /* skew-symmetric A */
            } else {
                for (int i = 0; i < n; i++)
                    for (int k = S.p[i]; k < S.p[i + 1]; k++)
                        if (S.j[k] == i) S.x[k] += PSD_SHIFT * smax; /* + delta I */
                lcp_sparse_factor F;
                psd = lcp_sparse_factor_init(&F, n, S.p, S.j, S.x, 1, 0) == LCP_SF_OK &&
                      lcp_sparse_factor_refactor(&F, S.x, LCP_SF_CHOLESKY) == LCP_SF_OK;
                lcp_sparse_factor_free(&F);
            }
        }
    }
    lcp_csr_free(&S);
    free(ti);
    free(tj);
    free(tx);
    return psd;
}

/* The verdict on a ray termination: the entering variable e (column
 * B^-1 a_e in W->col) grows without bound.  Along the ray the z part moves
 * by y (y_j = -abar_i where z_j is basic at row i, y_e = 1 when e is z_e);
 * y >= 0, A'y <= 0, b'y < 0 is a Farkas certificate that no z >= 0 has
 * A z + b >= 0, which exact arithmetic guarantees when A is copositive-plus
 * (CPS sec. 4.4).  Exit 3 needs the certificate checked on the data. */
static void ray_verdict(const lcp_problem *p, lemke_work *W, int e, int pivot, lcp_info *info)
{
    int n = W->n;
    double *y = W->tmp, *aty = W->wv;
    char name[32];
    var_name(e, n, name, sizeof name);
    memset(y, 0, (size_t)n * sizeof(double));
    for (int i = 0; i < n; i++)
        if (W->basis[i] >= n && W->basis[i] < 2 * n) y[W->basis[i] - n] = -W->col[i]; /* dz_j = -abar_i */
    if (e >= n && e < 2 * n) y[e - n] = 1.0;                                         /* dz_e = 1 */
    double ymax = fabs(y[cblas_idamax(n, y, 1)]), ymin = 0.0, amax = 0.0, by = 0.0, bscale = 0.0;
    for (int i = 0; i < n; i++) ymin = fmin(ymin, y[i]);
    int cert = ymax > 0 && ymin >= -CERT_TOL * ymax; /* y >= 0 up to round-off */
    if (cert) {
        for (int i = 0; i < n; i++) y[i] = fmax(y[i], 0.0) / ymax; /* y >= 0, max y = 1 */
        memset(aty, 0, (size_t)n * sizeof(double));
        for (int i = 0; i < n; i++)
            for (int k = p->A.p[i]; k < p->A.p[i + 1]; k++) {
                aty[p->A.j[k]] += p->A.x[k] * y[i]; /* A'y */
                amax = fmax(amax, fabs(p->A.x[k]));
            }
        for (int i = 0; i < n; i++) {
            by += p->b[i] * y[i];          /* b'y */
            bscale += fabs(p->b[i]) * y[i]; /* |b|'y */
        }
        double atymax = aty[0], ysum = cblas_dasum(n, y, 1);
        for (int j = 1; j < n; j++) atymax = fmax(atymax, aty[j]);
        cert = atymax <= CERT_TOL * amax * ysum && by < -CERT_TOL * bscale;
    }
    int psd = W->sparse ? positive_semidefinite_sparse(p) : positive_semidefinite(p, W->Binv);
    if (cert) {
        info->status = LCP_NO_SOLUTION;
        snprintf(info->message, sizeof info->message,
                 "ray termination at pivot %d: entering %s has no blocking variable%s; its ray gives y >= 0 with "
                 "A'y <= 0 and b'y = %.3g < 0, so no z >= 0 has A z + b >= 0",
                 pivot, name, psd ? " (A copositive-plus: no solution)" : "", by);
    } else if (psd) {
        info->status = LCP_ERROR;
        snprintf(info->message, sizeof info->message,
                 "ray termination at pivot %d entering %s; A is copositive-plus (positive semidefinite), but the "
                 "ray's infeasibility certificate fails on the data (round-off): cannot decide",
                 pivot, name);
    } else {
        info->status = LCP_ERROR;
        snprintf(info->message, sizeof info->message,
                 "ray termination at pivot %d entering %s; A is not copositive-plus as far as tested (not positive "
                 "semidefinite), so this does not prove infeasibility (cannot decide)",
                 pivot, name);
    }
}

/* The most negative b_i / d_i (ties: the last, the lexicographic choice):
 * z0's row from B = I; -1 when b >= 0. */
static int standard_start(const lcp_problem *p, const double *cover)
{
    int r0 = -1;
    for (int i = 0; i < p->n; i++) {
        double t = p->b[i] / (cover ? cover[i] : 1.0);
        if (t < 0 && (r0 < 0 || t <= p->b[r0] / (cover ? cover[r0] : 1.0))) r0 = i;
    }
    return r0;
}

/* The basis is complementary and feasible (z0 left, or a crash basis with
 * beta >= 0): x = its z, refined against round-off, the monitor's last
 * step at pivot k. */
static void finish(lemke_work *W, const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon,
                   lcp_info *info, int k, double *extra)
{
    if (W->sparse && W->neta > 0) { /* the basic values from a fresh LU of the final basis, not through the etas */
        memcpy(W->rowb, W->beta, (size_t)W->n * sizeof(double));
        if (lemke_sparse_refactor(W)) memcpy(W->beta, W->rowb, (size_t)W->n * sizeof(double));
    }
    lemke_current_z(W, x);
    lcp_metrics m;
    lcp_verify(p, x, W->wv, &m);
    for (int it = 0; it < 3 && !(m.residual <= s->tol); it++) { /* round-off: refine the final basis solution */
        lemke_refine(W);
        lemke_current_z(W, x);
        lcp_verify(p, x, W->wv, &m);
    }
    extra[0] = k;
    extra[1] = 0.0;
    if (!lcp_monitor_step(mon, k, x, extra) && mon->status != LCP_SOLVED) {
        info->status = LCP_ERROR;
        snprintf(info->message, sizeof info->message,
                 "z0 left the basis at pivot %d, but round-off leaves the residual at %.3g > tol "
                 "(ill-conditioned basis)",
                 k, mon->last.residual);
    }
}

static int lemke_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                       lcp_err *err)
{
    int n = p->n;
    double extra[2] = {0.0, 0.0}; /* pivots, z0 */
    info->iterations = 0;
    int r0 = standard_start(p, s->lemke.cover);
    if (r0 < 0) { /* b >= 0: z = 0 */
        memset(x, 0, (size_t)n * sizeof(double));
        lcp_monitor_step(mon, 0, x, extra);
        return 0;
    }
    if (s->linsolve == LCP_LINSOLVE_PCG)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "lemke: --linsolve pcg is ipm's; use dense or sparse");
    /* auto: the sparse path for a sparse A; up to 10% nonzeros too where its crash start runs
     * (no --cover, --crash not none): on degenerate contact problems (a pyramid of 1,024
     * contacts, 2.5% nonzeros) a few pivots from the crash basis instead of thousands from B = I */
    double bytes = 8.0 * (double)n * (double)n;
    double density = s->lemke.cover || s->crash.mode == LCP_CRASH_NONE ? AUTO_SPARSE_DENSITY : AUTO_CRASH_DENSITY;
    int sparse = s->linsolve == LCP_LINSOLVE_SPARSE ||
                 (s->linsolve == LCP_LINSOLVE_AUTO &&
                  ((n >= AUTO_SPARSE_MIN && (double)lcp_csr_nnz(&p->A) <= density * (double)n * (double)n) ||
                   bytes > MAX_DENSE_BYTES));
    if (!sparse && bytes > MAX_DENSE_BYTES)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                        "lemke: n = %d needs %.1f GiB for the dense basis inverse (n x n), over its 4 GiB limit "
                        "(n <= 23170): use --linsolve sparse or an iterative solver (pgs, psor)",
                        n, bytes / (1024.0 * 1024.0 * 1024.0));
    /* the crash start (sparse path, no --cover): a guess from --warm-start (auto), --crash SOLVER, or ipm then pgs (auto) */
    if (s->crash.mode == LCP_CRASH_SOLVER && (!sparse || s->lemke.cover))
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "lemke: --crash %s needs the sparse path (%s) and no --cover",
                        s->crash.by->name, "--linsolve sparse");
    double *guess = NULL;
    char how[96] = "";
    if (sparse && !s->lemke.cover && s->crash.mode != LCP_CRASH_NONE) {
        if (!(guess = lcp_alloc((size_t)n, sizeof(double))))
            return lcp_fail(err, LCP_ERROR, NULL, 0, "lemke: out of memory (n = %d)", n);
        static const char *const by[] = {"ipm", "pgs", NULL};
        lcp_crash_start_guess(p, s, x, by, guess, mon->t0, how, sizeof how); /* how "": none */
        if (!*how) {
            free(guess);
            guess = NULL;
        }
    }
    memset(x, 0, (size_t)n * sizeof(double));
    lemke_work W;
    if (lemke_work_init(&W, p, s->lemke.cover, sparse)) {
        lemke_work_free(&W);
        free(guess);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "lemke: out of memory (n = %d)", n);
    }
    openblas_set_num_threads(1); /* one BLAS thread: the same bits for every -j */
    int crashed = 0; /* the pivots started from the crash basis (d = B e) */
    if (guess) {
        int zb = 0, dep = 0, pur = -1;
        int rc = crash_start(&W, p, guess, &zb, &dep, &pur, s->time_limit > 0 ? mon->t0 + s->time_limit : 0.0);
        if (rc >= -1) {
            crashed = 1;
            r0 = rc;
            if (pur >= 0)
                snprintf(info->message, sizeof info->message,
                         "crash start from %s: %d of %d z basic, %d dependent ones purified to a vertex (%d "
                         "exchanges); d = B e",
                         how, zb - dep, n, dep, pur);
            else
                snprintf(info->message, sizeof info->message,
                         "crash start from %s: %d of %d z basic, %d dependent ones replaced by w; d = B e", how,
                         zb - dep, n, dep);
        } else { /* no usable basis: B = I as always */
            lemke_work_free(&W);
            if (lemke_work_init(&W, p, s->lemke.cover, sparse)) {
                lemke_work_free(&W);
                free(guess);
                return lcp_fail(err, LCP_ERROR, NULL, 0, "lemke: out of memory (n = %d)", n);
            }
        }
        free(guess);
    }
    lcp_status status0 = info->status;

    int k = 0, e = 2 * n, stopped = lcp_monitor_step(mon, 0, x, extra); /* z0 enters first */
    int first = 1; /* z0 enters at row r0 next */
    int fresh = 1; /* B^-1 was formed directly, no rank-1 update since */
    int done = 0;  /* the basis solved the LCP, x holds the answer */
    if (!stopped && crashed && r0 == -1) { /* the crash basis is feasible: no pivot */
        finish(&W, p, s, x, mon, info, 0, extra);
        done = 1;
        stopped = 1;
    }
    while (!stopped) {
        if (!(first && crashed)) lemke_entering_column(&W, e); /* (crash_start set z0's column, -delta) */
        int r = first ? r0 : ratio_test(&W);
        if (!fresh && (r < 0 || fabs(W.col[r]) < SMALL_PIVOT * fabs(W.col[cblas_idamax(n, W.col, 1)]))) {
            if (lemke_refactor(&W)) { /* a ray or a small pivot: confirm it with a fresh B^-1 */
                info->status = LCP_ERROR;
                snprintf(info->message, sizeof info->message, "the basis became singular at pivot %d (its LU failed)", k);
            } else {
                fresh = 1;
                continue;
            }
        } else if (r < 0) { /* ray termination */
            ray_verdict(p, &W, e, k + 1, info);
        }
        if (info->status != status0) {
            if (!crashed || info->status == LCP_NO_SOLUTION) break;
            /* from the crash basis d is not positive: nothing is decided; start again from B = I, d = 1 */
            info->status = status0;
            snprintf(info->message, sizeof info->message,
                     "the crash start ended on a ray that proves nothing; started again from B = I, d = 1 at pivot %d", k);
            lemke_work_free(&W);
            if (lemke_work_init(&W, p, s->lemke.cover, sparse)) {
                info->iterations = k;
                return lcp_fail(err, LCP_ERROR, NULL, 0, "lemke: out of memory (n = %d)", n);
            }
            crashed = 0;
            first = fresh = 1;
            e = 2 * n;
            r0 = standard_start(p, s->lemke.cover);
            continue;
        }
        int leaving = W.basis[r];
        int full = lemke_do_pivot(&W, r, e);
        first = fresh = 0;
        k++;
        if (leaving == 2 * n) { /* z0 left: z solves the LCP */
            finish(&W, p, s, x, mon, info, k, extra);
            done = 1;
            break;
        }
        if (full) { /* the sparse path's eta file is full: factor the basis afresh */
            if (lemke_refactor(&W)) {
                info->status = LCP_ERROR;
                snprintf(info->message, sizeof info->message, "the basis became singular at pivot %d (its LU failed)", k);
                break;
            }
            fresh = 1;
        } else if (k % CHECK_EVERY == 0) { /* drift of B^-1: rebuild it */
            double scale = fmax(1.0, fmax(fabs(W.bs[cblas_idamax(n, W.bs, 1)]),
                                          fabs(W.beta[cblas_idamax(n, W.beta, 1)])));
            if (lemke_basis_residual(&W) > DRIFT_TOL * scale) {
                if (lemke_refactor(&W)) {
                    info->status = LCP_ERROR;
                    snprintf(info->message, sizeof info->message, "the basis became singular at pivot %d (its LU failed)", k);
                    break;
                }
                fresh = 1;
            }
        }
        e = leaving < n ? leaving + n : leaving - n; /* the complement enters next */
        extra[0] = k;
        extra[1] = W.beta[W.row_of[2 * n]]; /* z0 */
        if (mon->trace) lemke_current_z(&W, x);   /* x is only read for the trace's row */
        stopped = lcp_monitor_tick(mon, k, x, extra); /* z0 > 0: not a solution yet */
    }
    if (!done) lemke_current_z(&W, x); /* stopped early: the last basis's z */
    info->iterations = k;
    lemke_work_free(&W);
    /* undecided (a ray that proves nothing, a singular basis): decided
     * completely where the components are small (src/solvers/enumerate.c) */
    if (info->status == LCP_ERROR && mon->status != LCP_TIME_LIMIT && !mon->interrupted)
        return lcp_decide_by_components(p, s, x, mon, info, err);
    return 0;
}

const lcp_solver lcp_solver_lemke = {"lemke",
                                     "Lemke's complementary pivoting, lexicographic (--cover; --linsolve dense|sparse)",
                                     LCP_KIND_LCP, columns, lemke_solve, NULL, 0, 0};
