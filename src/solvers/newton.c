/* src/solvers/newton.c: semismooth Newton methods for the lcp
 *     w = A z + b,  z >= 0,  w >= 0,  z'w = 0
 * (De Luca, Facchinei and Kanzow 1996, "A semismooth equation approach to
 * the solution of nonlinear complementarity problems", Math. Prog. 75;
 * Facchinei and Pang 2003, "Finite-Dimensional Variational Inequalities and
 * Complementarity Problems", ch. 9.1; Qi and Sun 1993, "A nonsmooth version
 * of Newton's method", Math. Prog. 58).
 *
 * Scaling.  The solvers work on the equivalent lcp (S A S, S b) with
 * S = diag(A)^-1/2 (1 where A_ii <= 0): z = S zs, ws = S w, so zs >= 0,
 * ws >= 0, zs'ws = z'w.  The FB function is not scale invariant and does
 * badly on contact problems whose masses differ by orders of magnitude
 * without it.  The iterate handed to the monitor is always x = S zs.
 *
 * Both solvers write the (scaled) lcp as Phi(z) = 0, componentwise:
 *   newton-fb : Phi_i = phi(z_i, w_i),  phi(a, b) = a + b - sqrt(a^2 + b^2)
 *               (Fischer-Burmeister); an element of its generalized
 *               Jacobian is H = D_a + D_b A with, where r_i = |(z_i, w_i)| > 0,
 *                   D_a,i = 1 - z_i / r_i,   D_b,i = 1 - w_i / r_i,
 *               and where r_i = 0 the choice of De Luca et al. (Procedure
 *               3.1): with zbar_i = 1 on B = {i: z_i = w_i = 0}, 0 elsewhere,
 *               c = A zbar, rho_i = sqrt(1 + c_i^2):
 *                   D_a,i = 1 - 1 / rho_i,   D_b,i = 1 - c_i / rho_i;
 *   newton-min: Phi_i = min(z_i, w_i); H row i = e_i' where z_i < w_i and
 *               A_i (row i of A) otherwise, ties included (a contact at
 *               rest, z_i = w_i = 0, is taken as active): D_a = 1, D_b = 0
 *               or the reverse (the active-set Newton method, Facchinei and
 *               Pang 9.1.5).
 * Step k solves the regularized Newton system
 *     (D_a + D_b (A + delta_k I)) d = -Phi(z),   delta_k = min(c_k, ||Phi||),
 * where c_k starts at 1e-10 and is divided by 10 after a full step (t = 1),
 * multiplied by 10 after a damped or gradient step, within [1e-10, 1e-4]
 * (a Levenberg-Marquardt-like adaptation).  delta_k D_b keeps H nonsingular
 * where A is only positive semidefinite (redundant contacts: pyramids) and
 * tames the long steps along its null space; it falls back to 1e-10 once
 * full steps are taken, so that ill-conditioned nonsingular problems keep
 * fast local convergence (the error it adds to the Newton equation is
 * O(delta ||d||), below O(||Phi||^2) where delta <= ||Phi||^2).  The step is
 * z <- z + t d, t the first of 1, 1/2, 1/4, ... (down to 1e-14) with the
 * non-monotone Armijo decrease (Grippo, Lampariello and Lucidi 1986, "A
 * nonmonotone line search technique for Newton's method", SIAM J. Numer.
 * Anal. 23)
 *     psi(z + t d) <= max_{0<=j<5} psi(z_k-j) + sigma t grad psi(z)'d,
 * sigma = 1e-4: the reference is the largest of the last 5 merits (on the
 * degenerate contact sets of granular piles the monotone search took steps
 * of 1/8 to 1/1000 for hundreds of iterations; this takes a third as many
 * steps).  It turns monotone (psi(z) itself) for the rest of the solve
 * once psi <= 1e-12 psi(z_0) (near a solution, where a rise back would
 * only cost steps) or once 50 steps in a row found no merit below the
 * lowest so far (cycling, e.g. about a stationary point that is no
 * solution), so that the stall tests below see a monotone merit there;
 * of the Fischer-Burmeister merit psi(z) = 1/2 ||Phi_FB(z)||^2, which is
 * continuously differentiable with grad psi = H_FB' Phi_FB = D_a Phi_FB +
 * A'(D_b Phi_FB).  The direction must pass the angle test grad psi'd <=
 * -1e-12 ||grad psi|| ||d|| (scale free; De Luca et al.'s test -rho ||d||^p
 * rejected the good directions of heavy stacks, whose ||d|| is large).
 * Where H is singular, d fails the test or its line search fails, the step
 * is a gradient step d = -s grad psi instead, s = ||g||^2 / ||H_FB g||^2 (the
 * Cauchy point of the Gauss-Newton model).  This is the globalisation of De
 * Luca et al.: every limit point is a stationary point of psi, a solution
 * when A is a P0 matrix (Facchinei and Soares 1997).
 * newton-min globalises with the same smooth FB merit (the min merit is not
 * differentiable and has no gradient to fall back on): its min-map
 * direction is tried first, then the FB Newton direction, then the
 * gradient.  Near a nondegenerate solution the min-map step lands on the
 * solution of the identified active set, psi drops to zero and the full
 * step is accepted (finite termination).  Near a solution where H is
 * nonsingular (BD-regularity) both converge quadratically: the full step
 * t = 1 is accepted and residual_{k+1} ~ residual_k^2 in the trace.
 *
 * Linear systems (--linsolve): dense (n <= 16384): the rows with D_b,i <=
 * eps D_a,i are eliminated, the rest is a reduced system, symmetric positive
 * definite when A is symmetric psd, solved by LAPACK Cholesky
 * (dpotrf/dpotrs), or LU (dgetrf/dgetrs) where A is not symmetric or
 * Cholesky fails (see dense_solve); sparse, A symmetric: the same reduced
 * system by CHOLMOD, on the fixed pattern of A plus the diagonal (the
 * eliminated rows and columns set to the identity's), symbolic analysis
 * once, numeric factorisation per step (sparse_chol_solve: 4-5 times
 * faster than the LU of the full H on granular piles of 3,000-8,000
 * contacts); sparse, A not symmetric or Cholesky failed once: UMFPACK,
 * symbolic analysis once
 * on the pattern of H (that of A plus the diagonal, the same at every
 * step), numeric LU per step (src/la/sparse_factor.c, with UMFPACK's default
 * iterative refinement); auto: dense for n <= 1000, sparse above.
 * LAPACK (OpenBLAS) runs on -j threads.  S A S is never formed: products
 * and the Newton matrices take its entries as A_ij (S_i S_j) on the fly,
 * the same double everywhere (see smatvec).  A step costs one product with
 * A: A d, for the line search, for grad psi'd = Phi'(D_a d + D_b A d) and
 * for w <- w + t A d (the accepted trial point's w, so the next step
 * starts from the very merit the line search accepted; w is formed afresh,
 * a second product, only after a step that gained little, where the
 * rounding accumulated in w could be what stops the progress).  grad psi
 * itself (a product with A') is formed only for a gradient step or when
 * the bound on ||grad psi|| does not settle the angle test.  Our workspace is
 * allocated before the loop; UMFPACK allocates its numeric factor inside
 * each umfpack_di_numeric call (the library's own storage).
 *
 * Verdicts: the monitor decides "solved" from the common residual.  When no
 * step of at least 1e-14 decreases psi along the Newton and the gradient
 * direction, when the gradient vanishes at psi > 0 (a stationary point that
 * is no solution), or when the line search's reference (the max of the
 * last merits, psi itself once monotone) gains less than a relative 1e-10
 * over 10 steps in a row or less than 1e-6 over 100 steps (a crawl, e.g.
 * towards an infimum of psi at infinity), the solve stops with status error ("line
 * search failed: ..."); if the residual is already below sqrt(eps) = 1.5e-8
 * the stall is taken for the rounding floor of the problem and the solve
 * stops with the monitor's status (max_iter, exit 1) instead.
 * Trace columns: merit (psi of the scaled problem after the step) and step
 * (the accepted t; 0 at iteration 0).  lcp only.
 */
#include "../core/scratch.h"
#include "../la/linsolve_cost.h"
#include "solver.h"
#include "../la/sparse_factor.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK */
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda, double *b,
             const int *ldb, int *info);
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *lda, const int *ipiv,
             double *b, const int *ldb, int *info);

#define ARMIJO_SIGMA 1e-4       /* sufficient decrease factor */
#define ARMIJO_BETA 0.5         /* backtracking factor */
#define NONMONOTONE 5           /* Armijo against the max of the last 5 merits (Grippo et al.) */
#define NM_LOCAL 1e-12         /* ... and from psi <= 1e-12 psi_0 on (||Phi|| <= 1e-6 ||Phi_0||) */
#define NM_PATIENCE 50          /* ... monotone from the first time 50 steps find no lower merit */
#define MIN_STEP 1e-14          /* smallest step the line search tries */
#define DESCENT_ANGLE 1e-12     /* descent test grad'd <= -angle ||grad|| ||d|| */
#define REG_MIN 1e-10           /* regularization delta = min(c, ||Phi||), c in [REG_MIN, REG_MAX] */
#define REG_MAX 1e-4
#define REG_FACTOR 10.0         /* c /= 10 after a full step, *= 10 after a damped one */
#define STALL_REL 1e-10         /* a step that gains less than this share of psi ... */
#define STALL_STEPS 10          /* ... this many times in a row: no progress */
#define CRAWL_STEPS 100         /* psi gains less than CRAWL_REL over this many steps: */
#define CRAWL_REL 1e-6          /* no progress either (e.g. psi's infimum at infinity) */
#define ROUNDING_RESIDUAL 1.5e-8 /* below this (sqrt(eps)), a stall is rounding, not failure */
#define AUTO_DENSE_MAX 1000     /* --linsolve auto: dense up to this n */
#define DENSE_MAX 16384         /* dense H: n^2 doubles (2 GiB) at most */
#define ELIM_REL DBL_EPSILON    /* dense: rows with D_b,i <= this D_a,i are eliminated */
#define SYM_TOL 1e-14           /* A symmetric to this (relative to max|A_ij|): Cholesky */

static const char *const columns[] = {"merit", "step", NULL};

typedef struct {
    const lcp_problem *p;
    int n, sparse;
    double delta;                /* regularization: H = D_a + D_b (A + delta I) */
    const lcp_csr *A;            /* the problem's A (S A S is applied on the fly) */
    lcp_csr At;                  /* A' where A is not symmetric */
    double *b, *sc, *z;          /* S b, the scaling S (diagonal), the scaled iterate S^-1 x */
    double *w, *phi;             /* w = A z + b, Phi_FB(z) at the current z */
    double *da, *db;             /* D_a, D_b of H_FB (merit gradient) */
    double *ma, *mb, *rhs;       /* D_a, D_b and -Phi of the Newton system */
    double *g, *d, *ad, *hg;     /* grad psi, direction, A d, H g */
    double *zt, *wt, *tmp, *sv;  /* trial point, its w, scratch, scratch of smatvec */
    double *rowsum, *colsum;     /* sum_j |A_ij|, sum_i |A_ij| (the bound on ||grad psi||) */
    int have_g;                  /* g holds grad psi at the current z */
    double gg;                   /* ||g||^2 when have_g */
    double psiref;               /* the line search's reference: max of the last NONMONOTONE merits */
    double hist[NONMONOTONE];    /* those merits (a ring) */
    int sym;                     /* A symmetric (to SYM_TOL): At = A, Cholesky tried */
    /* dense path: the reduced system on F = {i: D_b,i > ELIM_REL D_a,i} */
    double *H;                   /* m x m column-major (m = |F|), factored in place */
    double *rr;                  /* its right-hand side */
    int *ipiv, *pos, *fidx;      /* LU pivots; position of row i in F (-1: eliminated); rows of F */
    int chol_off;                /* Cholesky failed once: LU from then on */
    long nchol, nlu, nsys;       /* factorizations of each kind, systems solved */
    double msum;                 /* sum of the reduced sizes m */
    /* sparse path: H in CSR = H' in CSC for UMFPACK (solved with UMFPACK_At) */
    int *Hp, *Hj, *amap, *hdiag; /* pattern, A entry of each H entry (-1: none), diagonal slots */
    double *Hx;
    lcp_sparse_factor sf;        /* UMFPACK on that pattern */
} newton_work;

/* phi(a, b) = a + b - sqrt(a^2 + b^2) without cancellation (2ab / (a + b + r)
 * when a + b > 0); da, db (if not NULL): 1 - a/r, 1 - b/r, also free of
 * cancellation.  Returns r = sqrt(a^2 + b^2); da, db are unset when r = 0. */
static double fb(double a, double b, double *phi, double *da, double *db)
{
    /* sqrt(a^2 + b^2) where it cannot overflow or underflow (libm's hypot costs several times that: it runs
     * for every row at every merit evaluation) */
    double fa = fabs(a), fb2 = fabs(b);
    double r = fa < 1e150 && fb2 < 1e150 && (fa > 1e-150 || fb2 > 1e-150 || (a == 0 && b == 0)) ? sqrt(a * a + b * b)
                                                                                                : hypot(a, b),
           s = a + b;
    *phi = s > 0 ? 2.0 * a * b / (s + r) : s - r;
    if (da && r > 0) {
        *da = (a > 0 ? b * b / (r + a) : r - a) / r; /* (r - a) / r */
        *db = (b > 0 ? a * a / (r + b) : r - b) / r; /* (r - b) / r */
    }
    return r;
}

/* psi = 1/2 ||Phi_FB(z)||^2 for w = A z + b; Phi into phi when not NULL. */
static double fb_merit(int n, const double *z, const double *w, double *phi)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double f;
        fb(z[i], w[i], &f, NULL, NULL);
        if (phi) phi[i] = f;
        s += f * f;
    }
    return 0.5 * s;
}

/* y = S M S v (M = A or A').  Every use of S A S -- products, the Newton
 * matrix -- takes the entry (i, j) as A_ij * (S_i S_j), the same double
 * each time (and the same for (j, i) where A is symmetric): where A is
 * singular, d has large components along the null space of the Newton
 * matrix, and a product with a matrix that differs from it by rounding
 * turns them into errors in A d of eps |A| |d| that ruin the line search
 * near the solution (pyramids of redundant contacts). */
static void smatvec(const newton_work *W, const lcp_csr *M, const double *v, double *y)
{
    const double *sc = W->sc;
    for (int i = 0; i < M->m; i++) {
        double s = 0.0, si = sc[i];
        for (int k = M->p[i]; k < M->p[i + 1]; k++) s += M->x[k] * (si * sc[M->j[k]]) * v[M->j[k]];
        y[i] = s;
    }
}

/* D_a, D_b of H_FB at (z, w), with De Luca et al.'s choice where r_i = 0. */
static void fb_jacobian(newton_work *W, const double *z)
{
    int n = W->n, degenerate = 0;
    for (int i = 0; i < n; i++) {
        double f;
        double r = fb(z[i], W->w[i], &f, &W->da[i], &W->db[i]);
        W->tmp[i] = r > 0 ? 0.0 : 1.0; /* zbar: 1 on B = {z_i = w_i = 0} */
        degenerate |= r == 0;
    }
    if (!degenerate) return;
    smatvec(W, W->A, W->tmp, W->hg); /* c = A zbar (hg as scratch) */
    for (int i = 0; i < n; i++)
        if (W->tmp[i] > 0) {
            double rho = hypot(1.0, W->hg[i]);
            W->da[i] = 1.0 - 1.0 / rho;
            W->db[i] = 1.0 - W->hg[i] / rho;
        }
}

/* g = grad psi = D_a Phi + A'(D_b Phi), computed once per iterate (have_g),
 * only where it is needed: the gradient step and the descent tests the
 * bound below cannot settle; returns ||g||^2. */
static double fb_gradient(newton_work *W)
{
    if (W->have_g) return W->gg;
    int n = W->n;
    for (int i = 0; i < n; i++) W->tmp[i] = W->db[i] * W->phi[i];
    smatvec(W, W->sym ? W->A : &W->At, W->tmp, W->g);
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        W->g[i] += W->da[i] * W->phi[i];
        s += W->g[i] * W->g[i];
    }
    W->have_g = 1;
    W->gg = s;
    return s;
}

/* An upper bound on ||grad psi||_2 = ||H_FB' Phi||_2 <= sqrt(||H_FB||_1
 * ||H_FB||_inf) ||Phi||_2 without a product with A: ||H_FB||_inf = max_i
 * (D_a,i + D_b,i sum_j |A_ij|), ||H_FB||_1 <= max D_a + max D_b max_j
 * sum_i |A_ij|. */
static double fb_gradient_bound(const newton_work *W, double psi)
{
    double hinf = 0.0, damax = 0.0, dbmax = 0.0, colmax = 0.0;
    for (int i = 0; i < W->n; i++) {
        hinf = fmax(hinf, W->da[i] + W->db[i] * W->rowsum[i]);
        damax = fmax(damax, W->da[i]);
        dbmax = fmax(dbmax, W->db[i]);
        colmax = fmax(colmax, W->colsum[i]);
    }
    return sqrt(hinf * (damax + dbmax * colmax)) * sqrt(2.0 * psi);
}

/* Symbolic part of the sparse path: the pattern of H (A plus the diagonal,
 * rows sorted) and UMFPACK's analysis of it, once. */
static int sparse_setup(newton_work *W, lcp_err *err)
{
    const lcp_csr *A = W->A;
    int n = W->n;
    long nnz = lcp_csr_nnz(A) + n; /* at most one added diagonal a row */
    W->Hp = lcp_alloc((size_t)n + 1, sizeof(int));
    W->Hj = lcp_alloc((size_t)nnz, sizeof(int));
    W->amap = lcp_alloc((size_t)nnz, sizeof(int));
    W->hdiag = lcp_alloc((size_t)n, sizeof(int));
    W->Hx = lcp_alloc((size_t)nnz, sizeof(double));
    if (!W->Hp || !W->Hj || !W->amap || !W->hdiag || !W->Hx)
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    lcp_pattern_with_diagonal(A, W->Hp, W->Hj, W->hdiag, W->amap, NULL);
    if (W->sym) {                                            /* the reduced system: CHOLMOD */
        W->rr = lcp_alloc((size_t)n, sizeof(double));
        W->pos = lcp_alloc((size_t)n, sizeof(int));
        if (!W->rr || !W->pos) return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    }
    int st = lcp_sparse_factor_init(&W->sf, n, W->Hp, W->Hj, W->Hx, W->sym, LCP_SF_REFINE_DEFAULT);
    if (st == LCP_SF_OK) return 0;
    if (!W->sf.stage) return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    return lcp_fail(err, LCP_ERROR, NULL, 0, "UMFPACK symbolic analysis of H failed (status %d%s)", W->sf.status,
                    st == LCP_SF_NOMEM ? ": out of memory" : "");
}

/* Dense path of newton_solve.  Rows with D_b,i <= ELIM_REL D_a,i (D_b,i = 0:
 * z_i = 0 < w_i under FB, z_i < w_i under the min map) have d_i =
 * rhs_i / D_a,i (the D_b,i (A d)_i they drop is below the rounding of
 * D_a,i d_i); the others, F, keep
 *     (diag(D_a + delta D_b) + D_b A)_FF d_F = rhs_F - D_b,F A_FE d_E,
 * which, divided by D_b row by row, is
 *     (A_FF + diag(delta + D_a / D_b)_F) d_F = rhs_F / D_b,F - A_FE d_E,
 * symmetric positive definite when A is symmetric positive semidefinite
 * (delta > 0): LAPACK Cholesky (dpotrf, lower triangle) on m = |F| rows,
 * half the flops of LU on m <= n.  Where A is not symmetric, or once
 * Cholesky has failed (A indefinite, or singular to working precision),
 * LU (dgetrf) on the unscaled reduced system.  The reduced matrix is
 * gathered from the CSR rows of F into the columns of H (row i of A
 * becomes column pos[i]: H holds the transpose, equal to it for Cholesky,
 * solved with dgetrs "T" for LU).  Returns 0, 1 when the system is
 * singular, or LCP_ERROR. */
/* Systems of up to SMALL_CHOL rows: Cholesky and the two triangular solves
 * here (LAPACK's dpotrf and dpotrs cost more in their calls -- OpenBLAS's
 * buffer lock and dispatch -- than in their flops at these sizes).  H: the
 * lower triangle of an m x m column-major matrix, overwritten by L; b:
 * overwritten by the solution.  0, or j + 1 where the pivot of column j is
 * not positive (dpotrf's info; b is then untouched). */
#define SMALL_CHOL 32
static int small_cholesky(int m, double *H, double *b)
{
    for (int j = 0; j < m; j++) {
        double *cj = H + (size_t)j * m, d = cj[j];
        for (int k = 0; k < j; k++) d -= H[(size_t)k * m + j] * H[(size_t)k * m + j];
        if (!(d > 0)) return j + 1;
        d = sqrt(d);
        cj[j] = d;
        for (int i = j + 1; i < m; i++) {
            double v = cj[i];
            for (int k = 0; k < j; k++) v -= H[(size_t)k * m + i] * H[(size_t)k * m + j];
            cj[i] = v / d;
        }
    }
    for (int i = 0; i < m; i++) { /* L y = b */
        double v = b[i];
        for (int k = 0; k < i; k++) v -= H[(size_t)k * m + i] * b[k];
        b[i] = v / H[(size_t)i * m + i];
    }
    for (int i = m - 1; i >= 0; i--) { /* L' x = y */
        const double *ci = H + (size_t)i * m;
        double v = b[i];
        for (int k = i + 1; k < m; k++) v -= ci[k] * b[k];
        b[i] = v / ci[i];
    }
    return 0;
}

static int dense_solve(newton_work *W, lcp_err *err)
{
    const lcp_csr *A = W->A;
    const double *ma = W->ma, *mb = W->mb, *rhs = W->rhs, *sc = W->sc;
    double *d = W->d, *H = W->H, *rr = W->rr;
    int n = W->n, m = 0, info = 0, one = 1;
    for (int i = 0; i < n; i++) {
        if (ma[i] > 0 && mb[i] <= ELIM_REL * ma[i]) {
            W->pos[i] = -1;
            d[i] = rhs[i] / ma[i];                               /* eliminated */
        } else if (mb[i] > 0) {
            W->pos[i] = m;
            W->fidx[m++] = i;
        } else {
            return 1;                                            /* D_a,i = D_b,i = 0: a zero row */
        }
    }
    W->msum += m;
    W->nsys++;
    if (m == 0) return 0;                                        /* all eliminated */
    size_t mm = (size_t)m;
    if (W->sym && !W->chol_off) {
        for (int a = 0; a < m; a++) {                            /* column a = row i = fidx[a], lower part */
            int i = W->fidx[a];
            double *col = H + (size_t)a * mm, acc = 0.0, si = sc[i];
            memset(col + a, 0, (mm - (size_t)a) * sizeof(double));
            for (int k = A->p[i]; k < A->p[i + 1]; k++) {
                int j = A->j[k], pj = W->pos[j];
                if (pj < 0) acc += A->x[k] * (si * sc[j]) * d[j];  /* (S A S)_FE d_E */
                else if (pj >= a) col[pj] = A->x[k] * (si * sc[j]);
            }
            col[a] += W->delta + ma[i] / mb[i];
            rr[a] = rhs[i] / mb[i] - acc;
        }
        if (m <= SMALL_CHOL) info = small_cholesky(m, H, rr);
        else dpotrf_("L", &m, H, &m, &info);
        if (info < 0) return lcp_fail(err, LCP_ERROR, NULL, 0, "dpotrf: argument %d invalid", -info);
        if (info == 0) {
            if (m > SMALL_CHOL) dpotrs_("L", &m, &one, H, &m, rr, &m, &info);
            for (int a = 0; a < m; a++) d[W->fidx[a]] = rr[a];
            W->nchol++;
            return 0;
        }
        W->chol_off = 1;                                         /* not positive definite: LU from now on */
    }
    for (int a = 0; a < m; a++) {                                /* column a = row i of H_FF */
        int i = W->fidx[a];
        double *col = H + (size_t)a * mm, acc = 0.0;
        memset(col, 0, mm * sizeof(double));
        double si = sc[i];
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            int j = A->j[k], pj = W->pos[j];
            if (pj < 0) acc += A->x[k] * (si * sc[j]) * d[j];
            else col[pj] = mb[i] * (A->x[k] * (si * sc[j]));
        }
        col[a] += ma[i] + W->delta * mb[i];
        rr[a] = rhs[i] - mb[i] * acc;
    }
    dgetrf_(&m, &m, H, &m, W->ipiv, &info);
    if (info > 0) return 1;                                      /* exactly singular U */
    if (info < 0) return lcp_fail(err, LCP_ERROR, NULL, 0, "dgetrf: argument %d invalid", -info);
    dgetrs_("T", &m, &one, H, &m, W->ipiv, rr, &m, &info);       /* H holds H_FF' */
    for (int a = 0; a < m; a++) d[W->fidx[a]] = rr[a];
    W->nlu++;
    return 0;
}

/* Sparse path for symmetric A: the reduced system of dense_solve,
 *     (A_FF + diag(delta + D_a / D_b)_F) d_F = rhs_F / D_b,F - A_FE d_E,
 * factored by CHOLMOD on the fixed pattern of H (A plus the diagonal, the
 * symbolic analysis of init reused at every step): the rows and columns of
 * the eliminated set E are set to those of the identity (right-hand side
 * d_E), so that the pattern never changes.  Returns 0, 1 (a zero row: H
 * singular), 2 when Cholesky fails (not positive definite: the caller
 * falls back to LU of the full H), or LCP_ERROR. */
static int sparse_chol_solve(newton_work *W, lcp_err *err)
{
    const lcp_csr *A = W->A;
    const double *ma = W->ma, *mb = W->mb, *rhs = W->rhs, *sc = W->sc;
    double *d = W->d, *rr = W->rr;
    int n = W->n, m = 0;
    for (int i = 0; i < n; i++) {
        if (ma[i] > 0 && mb[i] <= ELIM_REL * ma[i]) {
            W->pos[i] = -1;
            d[i] = rhs[i] / ma[i];                               /* eliminated */
        } else if (mb[i] > 0) {
            W->pos[i] = m++;
        } else {
            return 1;                                            /* D_a,i = D_b,i = 0: a zero row */
        }
    }
    W->msum += m;
    W->nsys++;
    for (int i = 0; i < n; i++) {
        if (W->pos[i] < 0) {
            for (int k = W->Hp[i]; k < W->Hp[i + 1]; k++) W->Hx[k] = k == W->hdiag[i] ? 1.0 : 0.0;
            rr[i] = d[i];
            continue;
        }
        double acc = 0.0, si = sc[i];
        for (int k = W->Hp[i]; k < W->Hp[i + 1]; k++) {
            int j = W->Hj[k];
            double v = W->amap[k] >= 0 ? A->x[W->amap[k]] * (si * sc[j]) : 0.0;
            if (W->pos[j] < 0) {
                acc += v * d[j];                                 /* (S A S)_FE d_E */
                v = 0.0;
            }
            W->Hx[k] = k == W->hdiag[i] ? v + W->delta + ma[i] / mb[i] : v;
        }
        rr[i] = rhs[i] / mb[i] - acc;
    }
    if (m == 0) return 0;                                        /* all eliminated */
    int st = lcp_sparse_factor_refactor(&W->sf, W->Hx, LCP_SF_CHOLESKY);
    if (st == LCP_SF_NOT_POSDEF) return 2;
    if (st == LCP_SF_OK) st = lcp_sparse_factor_solve(&W->sf, rr, d);
    if (st != LCP_SF_OK) return lcp_sparse_factor_fail(&W->sf, err, "");
    W->nchol++;
    return 0;
}

/* Solves H d = rhs, H = diag(ma) + diag(mb) A.  Returns 0, 1 when H is
 * singular (d unset), or LCP_ERROR (out of memory, message in err). */
static int newton_solve(newton_work *W, lcp_err *err)
{
    const lcp_csr *A = W->A;
    int n = W->n;
    if (!W->sparse) return dense_solve(W, err);
    if (W->sym && !W->chol_off) {
        int cr = sparse_chol_solve(W, err);
        if (cr != 2) return cr;
        W->chol_off = 1;                                 /* not positive definite: LU from now on */
    }
    for (int i = 0; i < n; i++)
        for (int k = W->Hp[i]; k < W->Hp[i + 1]; k++) {
            double v = W->amap[k] >= 0 ? W->mb[i] * (A->x[W->amap[k]] * (W->sc[i] * W->sc[W->Hj[k]])) : 0.0; /* D_b S A S */
            W->Hx[k] = k == W->hdiag[i] ? v + W->ma[i] + W->delta * W->mb[i] : v; /* + D_a + delta D_b */
        }
    int st = lcp_sparse_factor_refactor(&W->sf, W->Hx, LCP_SF_LU);
    if (st == LCP_SF_OK) st = lcp_sparse_factor_solve(&W->sf, W->rhs, W->d);
    if (st == LCP_SF_SINGULAR) return 1;
    if (st != LCP_SF_OK) return lcp_sparse_factor_fail(&W->sf, err, "");
    W->nlu++;
    return 0;
}

/* Armijo backtracking from t = 1 along d (ad = A d, slope = grad psi'd < 0).
 * Returns the accepted t, with the trial point in zt, its w in wt and its
 * merit in *pt, or 0 when no t >= MIN_STEP gives the sufficient decrease. */
static double line_search(newton_work *W, const double *z, double psi, double slope, double *pt)
{
    int n = W->n;
    for (double t = 1.0; t >= MIN_STEP; t *= ARMIJO_BETA) {
        for (int i = 0; i < n; i++) {
            W->zt[i] = z[i] + t * W->d[i];
            W->wt[i] = W->w[i] + t * W->ad[i];
        }
        *pt = fb_merit(n, W->zt, W->wt, NULL);
        if (*pt <= psi + ARMIJO_SIGMA * t * slope) return t; /* false for NaN */
    }
    return 0.0;
}

/* One Newton attempt with the system in ma, mb, rhs: solves H d = rhs and,
 * when d passes the descent test g'd <= -angle ||g|| ||d|| (g = grad psi;
 * g'd = Phi'H_FB d = Phi'(D_a d + D_b A d) from A d, which the line search
 * needs anyway; ||g|| by its bound first, exactly only when the bound does
 * not settle the test), searches along it.  *t: the accepted step (merit
 * in *pt), 0 when H is singular, d is no descent direction or the line
 * search fails.  Returns 0, or LCP_ERROR (err set). */
static int newton_step(newton_work *W, const double *z, double psi, lcp_err *err, double *t, double *pt)
{
    int n = W->n;
    *t = 0.0;
    int sr = newton_solve(W, err);                           /* H d = -Phi */
    if (sr != 0) return sr == 1 ? 0 : sr;                    /* singular: no step */
    smatvec(W, W->A, W->d, W->ad);                           /* A d */
    double slope = 0.0, dd = 0.0;
    for (int i = 0; i < n; i++) {
        slope += W->phi[i] * (W->da[i] * W->d[i] + W->db[i] * W->ad[i]); /* grad psi'd */
        dd += W->d[i] * W->d[i];                             /* ||d||^2 */
    }
    if (!isfinite(slope) || !isfinite(dd)) return 0;
    if (!(slope <= -DESCENT_ANGLE * fb_gradient_bound(W, psi) * sqrt(dd)) &&
        !(slope <= -DESCENT_ANGLE * sqrt(dd * fb_gradient(W))))
        return 0;
    *t = line_search(W, z, W->psiref, slope, pt);
    return 0;
}

static void work_free(newton_work *W)
{
    lcp_csr_free(&W->At);
    free(W->b); /* the block of the n-vectors b ... sv (newton_solve_lcp) */
    free(W->rr);
    free(W->Hx);
    lcp_scratch_give(LCP_SCRATCH_DENSE_M, W->H);
    free(W->ipiv);
    free(W->pos);
    free(W->fidx);
    free(W->Hp);
    free(W->Hj);
    free(W->amap);
    free(W->hdiag);
    lcp_sparse_factor_free(&W->sf);
}

static int newton_solve_lcp(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon,
                            lcp_info *info, lcp_err *err, int use_min)
{
    const char *name = use_min ? "newton-min" : "newton-fb";
    int n = p->n, rc = 0;
    newton_work W0 = {0}, *W = &W0;
    W->p = p;
    W->n = n;
    if (s->linsolve == LCP_LINSOLVE_PCG)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                        "%s: --linsolve pcg is ipm's (the Newton matrices here are not symmetric); use dense or sparse",
                        name);
    W->sparse = s->linsolve == LCP_LINSOLVE_SPARSE ||
                (s->linsolve == LCP_LINSOLVE_AUTO && (n > AUTO_DENSE_MAX || lcp_linsolve_prefer_sparse(&p->A, NULL, NULL)));
    const char *how = s->linsolve == LCP_LINSOLVE_AUTO ? (n > AUTO_DENSE_MAX ? ", auto: n > 1000" : W->sparse ? ", auto: sparse cheaper" : ", auto: dense cheaper") : "";
    if (!W->sparse && n > DENSE_MAX)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                        "%s: --linsolve dense needs an n x n array (n = %d > %d); use --linsolve sparse", name, n,
                        DENSE_MAX);
    double **dv[] = {&W->b, &W->sc, &W->z,  &W->w,  &W->phi, &W->da,  &W->db,     &W->ma,     &W->mb, &W->rhs,
                     &W->g, &W->d,  &W->ad, &W->hg, &W->zt,  &W->wt,  &W->rowsum, &W->colsum, &W->tmp, &W->sv};
    enum { NV = sizeof dv / sizeof dv[0] };
    double *blk = lcp_alloc((size_t)NV * (size_t)(n > 0 ? n : 1), sizeof(double)); /* one block: W->b first */
    if (!blk) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < NV; i++) *dv[i] = blk + i * (size_t)(n > 0 ? n : 1);
    const lcp_csr *A = W->A = &p->A;
    for (int i = 0; i < n; i++) {
        double a = lcp_csr_diag(A, i);
        W->sc[i] = a > 0 ? 1.0 / sqrt(a) : 1.0;               /* S = diag(A)^-1/2 where positive */
        W->b[i] = W->sc[i] * p->b[i];                         /* S b */
        W->z[i] = x[i] / W->sc[i];                            /* S^-1 x */
    }
    W->sym = lcp_csr_is_symmetric(A, SYM_TOL);               /* then S A S is too */
    if (!W->sym && lcp_csr_transpose(A, &W->At)) {           /* A' for grad psi (A itself when symmetric) */
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    for (int i = 0; i < n; i++) W->colsum[i] = 0.0;
    for (int i = 0; i < n; i++) {                            /* row and column sums of |S A S| */
        double r = 0.0;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            double v = fabs(A->x[k] * (W->sc[i] * W->sc[A->j[k]]));
            r += v;
            if (!W->sym) W->colsum[A->j[k]] += v;
        }
        W->rowsum[i] = r;
    }
    if (W->sym) memcpy(W->colsum, W->rowsum, (size_t)n * sizeof(double));
    openblas_set_num_threads(1); /* one BLAS/LAPACK thread: the same bits for every -j (threaded reductions reorder sums) */
    if (W->sparse) {
        if ((rc = sparse_setup(W, err))) goto done;
        /* under auto's budget: a factorisation predicted far past it is not started */
        if (lcp_monitor_afford(mon, lcp_sparse_factor_flops(&W->sf) / LCP_FLOP_RATE)) {
            snprintf(info->message, sizeof info->message, "a factorisation of %.3g flops: past auto's budget",
                     lcp_sparse_factor_flops(&W->sf));
            goto done;
        }
    } else {
        W->H = lcp_scratch_take(LCP_SCRATCH_DENSE_M, (size_t)n * (size_t)n * sizeof(double)); /* kept by the thread */
        W->rr = lcp_alloc((size_t)n, sizeof(double));
        W->ipiv = lcp_alloc((size_t)n, sizeof(int));
        W->pos = lcp_alloc((size_t)n, sizeof(int));
        W->fidx = lcp_alloc((size_t)n, sizeof(int));
        if (!W->H || !W->rr || !W->ipiv || !W->pos || !W->fidx) {
            rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory: dense H of n = %d (try --linsolve sparse)", n);
            goto done;
        }
    }

    const double *z = W->z;
    smatvec(W, A, z, W->w);
    for (int i = 0; i < n; i++) W->w[i] += W->b[i];         /* w = A z + b */
    double psi = fb_merit(n, z, W->w, W->phi), extra[2] = {psi, 0.0};
    int min_steps = 0, newton_steps = 0, gradient_steps = 0, stalls = 0;
    double psi_check = psi;                                  /* psi CRAWL_STEPS steps ago */
    const char *why = NULL;                                  /* set when the solver gives up */
    int nm = NONMONOTONE, since_best = 0;                    /* merits in the reference; steps without a new best */
    double psi_best = HUGE_VAL, psi_first = psi;
    double regc = REG_MIN;                                   /* c: the cap of delta */
    int stop = lcp_monitor_step(mon, 0, x, extra);
    for (int k = 1; !stop; k++) {
        if (psi < psi_best) {                                /* a new lowest merit */
            psi_best = psi;
            since_best = 0;
        } else if (++since_best >= NM_PATIENCE) {
            nm = 1;                                          /* cycling: monotone from now on */
        }
        if (psi <= NM_LOCAL * psi_first) nm = 1;             /* near the solution: monotone from now on */
        W->hist[(k - 1) % NONMONOTONE] = psi;                /* psiref = max of the last nm merits */
        W->psiref = psi;
        for (int q = 0; q < nm && q < k; q++) W->psiref = fmax(W->psiref, W->hist[(k - 1 - q) % NONMONOTONE]);
        W->delta = fmin(regc, sqrt(2.0 * psi));              /* delta = min(c, ||Phi||) */
        fb_jacobian(W, z);                                   /* D_a, D_b of H_FB */
        W->have_g = 0;                                       /* g = H_FB' Phi: when needed */
        double t = 0.0, pt = psi;
        int sr = 0;
        if (use_min) {
            for (int i = 0; i < n; i++) {
                int zi = z[i] < W->w[i];                     /* min picks z_i: row e_i'; ties: A_i */
                W->ma[i] = zi ? 1.0 : 0.0;
                W->mb[i] = zi ? 0.0 : 1.0;
                W->rhs[i] = -(zi ? z[i] : W->w[i]);          /* -min(z_i, w_i) */
            }
            if ((sr = newton_step(W, z, psi, err, &t, &pt)) == 0 && t > 0) min_steps++;
        }
        if (sr == 0 && !(t > 0)) {                           /* FB Newton step */
            memcpy(W->ma, W->da, (size_t)n * sizeof(double));
            memcpy(W->mb, W->db, (size_t)n * sizeof(double));
            for (int i = 0; i < n; i++) W->rhs[i] = -W->phi[i];
            if ((sr = newton_step(W, z, psi, err, &t, &pt)) == 0 && t > 0) newton_steps++;
        }
        if (sr) {
            info->status = LCP_ERROR;
            snprintf(info->message, sizeof info->message, "%.250s", err->msg);
            break;
        }
        if (!(t > 0)) {                                      /* gradient step */
            double gg = fb_gradient(W);
            if (!(gg > 0)) {
                why = "stationary point of the merit";
                break;
            }
            smatvec(W, A, W->g, W->ad);                      /* A g */
            double hh = 0.0;
            for (int i = 0; i < n; i++) {
                W->hg[i] = W->da[i] * W->g[i] + W->db[i] * W->ad[i]; /* H_FB g */
                hh += W->hg[i] * W->hg[i];
            }
            double c = hh > 0 && isfinite(hh) ? gg / hh : 1.0; /* Cauchy step of the Gauss-Newton model */
            for (int i = 0; i < n; i++) {
                W->d[i] = -c * W->g[i];
                W->ad[i] *= -c;                              /* A d */
            }
            t = line_search(W, z, W->psiref, -c * gg, &pt);
            if (!(t > 0)) {
                why = "no step >= 1e-14 decreases the merit";
                break;
            }
            gradient_steps++;
        }
        regc = t >= 1.0 ? fmax(REG_MIN, regc / REG_FACTOR)   /* full step: less regularization */
                        : fmin(REG_MAX, regc * REG_FACTOR);  /* damped step: more */
        memcpy(W->z, W->zt, (size_t)n * sizeof(double));    /* z <- z + t d */
        memcpy(W->w, W->wt, (size_t)n * sizeof(double));    /* w <- w + t A d */
        double psi_new = fb_merit(n, z, W->w, W->phi);       /* = pt */
        double nref = psi_new;                               /* the next reference: psi_new and */
        for (int q = 0; q < nm - 1 && q < k; q++)            /* the last nm - 1 merits */
            nref = fmax(nref, W->hist[(k - 1 - q) % NONMONOTONE]);
        if (W->psiref - nref <= STALL_REL * W->psiref) {     /* little progress: w afresh */
            smatvec(W, A, z, W->w);
            for (int i = 0; i < n; i++) W->w[i] += W->b[i];
            psi_new = fb_merit(n, z, W->w, W->phi);
            stalls++;
        } else {
            stalls = 0;
        }
        psi = psi_new;
        for (int i = 0; i < n; i++) x[i] = W->sc[i] * z[i];  /* x = S z */
        extra[0] = psi;
        extra[1] = t;
        stop = lcp_monitor_step(mon, k, x, extra);
        if (!stop && !isfinite(psi)) {
            why = "the merit overflows";
            break;
        }
        if (!stop && stalls >= STALL_STEPS) {
            why = "no progress over 10 steps";
            break;
        }
        if (k % CRAWL_STEPS == 0) {
            if (!stop && psi_check - nref <= CRAWL_REL * psi_check) {
                why = "psi gained < 1e-6 over 100 steps";
                break;
            }
            psi_check = nref;
        }
    }
    info->iterations = mon->iter;
    const char *path = W->sparse && W->sym && !W->nlu && !W->chol_off ? "sparse Cholesky (CHOLMOD)"
                       : W->sparse && W->sym && W->nchol ? "sparse Cholesky, then LU (CHOLMOD, UMFPACK)"
                       : W->sparse && W->sym        ? "sparse LU, Cholesky failed (UMFPACK)"
                       : W->sparse                    ? "sparse LU (UMFPACK)"
                       : !W->sym                    ? "dense LU (LAPACK)"
                       : !W->nlu                    ? "dense Cholesky (LAPACK)" /* or nothing factored yet */
                       : W->nchol                   ? "dense Cholesky, then LU (LAPACK)"
                                                    : "dense LU, Cholesky failed (LAPACK)";
    /* the mean size of the reduced systems; which steps were taken (appends: no formatted print a solve) */
    char sizes[48] = "", steps[96] = "";
    lcp_text ts = {sizes, sizeof sizes, 0}, tt = {steps, sizeof steps, 0};
    if (W->nsys > 0) {
        lcp_text_put(&ts, "; mean size ");
        lcp_text_long(&ts, (long)nearbyint(W->msum / (double)W->nsys)); /* as %.0f */
        lcp_text_put(&ts, "/");
        lcp_text_long(&ts, n);
    }
    if (use_min) {
        lcp_text_long(&tt, min_steps);
        lcp_text_put(&tt, " min-map, ");
    }
    lcp_text_long(&tt, newton_steps);
    lcp_text_put(&tt, use_min ? " FB Newton, " : " Newton, ");
    lcp_text_long(&tt, gradient_steps);
    lcp_text_put(&tt, " gradient steps");
    if (info->status == LCP_ERROR) {
        /* message already set (factorization failure) */
    } else if (why && mon->last.residual <= ROUNDING_RESIDUAL) {
        snprintf(info->message, sizeof info->message,
                 "stopped at the rounding level: %.40s at residual %.3g; %s%s; %s", why, mon->last.residual, path,
                 how, steps);
    } else if (why || mon->status == LCP_ERROR) {
        info->status = LCP_ERROR;
        snprintf(info->message, sizeof info->message,
                 "line search failed: the problem may have no solution or A may be degenerate (%.40s at psi "
                 "%.3g; %s; %s)",
                 why ? why : "NaN or overflow", psi, steps, path);
    } else {
        lcp_text tm = {info->message, sizeof info->message, 0};
        lcp_text_put(&tm, path), lcp_text_put(&tm, how), lcp_text_put(&tm, sizes);
        lcp_text_put(&tm, "; "), lcp_text_put(&tm, steps);
    }
done:
    work_free(W);
    return rc;
}

static int fb_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                    lcp_err *err)
{
    return newton_solve_lcp(p, s, x, mon, info, err, 0);
}

static int min_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                     lcp_err *err)
{
    return newton_solve_lcp(p, s, x, mon, info, err, 1);
}

const lcp_solver lcp_solver_newton_fb = {
    "newton-fb", "semismooth Newton on the Fischer-Burmeister function, Armijo line search (--linsolve)",
    LCP_KIND_LCP, columns, fb_solve, NULL, LCP_SOLVER_FACTOR, 0};
const lcp_solver lcp_solver_newton_min = {
    "newton-min", "semismooth (active-set) Newton on min(z, w), FB-merit line search (--linsolve)",
    LCP_KIND_LCP, columns, min_solve, NULL, LCP_SOLVER_FACTOR, 0};
