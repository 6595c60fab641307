/* src/solvers/pivot_small.c: pivot's path for small problems (see
 * pivot_small.h for where the pipeline takes it).
 *
 * Method: block principal pivoting with Murty's single pivot as its
 * safeguard (Judice and Pires 1994, "A block principal pivoting algorithm
 * for large-scale strictly monotone linear complementarity problems",
 * Computers & Operations Research 21; Murty 1988, "Linear
 * Complementarity, Linear and Nonlinear Programming", ch. 8 -- the
 * box-constrained form as in Cottle, Pang and Stone 1992, 4.9).  Each row
 * is in one set: F (free: w_i = 0), L (x_i = lo_i, wants w_i >= 0) or U
 * (x_i = hi_i, wants w_i <= 0).  A step solves A_FF x_F = -(b_F + A_FN x_N)
 * with the rows of N at their bounds (the |F| x |F| block formed afresh and
 * factored: see below), forms w_N = A_N x + b_N, and lists
 * the infeasible rows: a free x_i beyond a bound, a row at a bound whose
 * w_i has the wrong sign.  None: the sets are complementary -- the
 * solution.  Else every infeasible row changes set while their number
 * falls, or for up to SMALL_TRIES steps where it does not; then only the
 * infeasible row of largest index changes (Murty's rule, which ends for a
 * P-matrix: Judice and Pires' finiteness argument), and a step with fewer
 * infeasible rows than ever before returns to the block switches.  Beyond
 * LCP_SMALL_LANE_N unknowns the path ends where Murty's rule would begin:
 * there a row a step costs a factorisation of a block of hundreds of rows,
 * where pivot's general scheme takes a row for an update of its factor (a
 * dense SPD problem of 500 unknowns of condition 1e10 that the block
 * switches do not settle: 6 blocks before the general scheme, where the
 * single pivots took the 36 steps of the cap and failed).
 *
 * Friction rows (findex f_i >= 0: lo_i = -mu_i |x_f|, hi_i = mu_i |x_f|)
 * at a bound hold x_i = -+mu_i x_f: where x_f is free that is a column of
 * the block (A_Fi (-+mu_i) added to column f), else a constant.  Rows
 * whose findex row has one itself are not taken (lcp_pivot_small_fits).
 *
 * The block is formed afresh each step from the free rows' stored entries
 * of A (no dense copy of A: a sparse row costs its entries; an A of full
 * rows is gathered by position) and factored: where A is symmetric (its
 * stored values exactly; no findex) by L D L' over the block's profile --
 * each row from its first nonzero to the diagonal, fill staying inside --
 * so a banded block (a column of bodies, a chain) costs its band and a
 * dense one |F|^3 / 6 multiply-adds (its rows four at a time: ldl_left4);
 * a negative pivot (A symmetric but not
 * semidefinite) hands that step and the rest to the LU; else a dense LU
 * with partial pivoting, O(|F|^3) at most (less on a banded block, whose
 * zero multipliers skip their updates).  For up to LCP_SMALL_N unknowns
 * that costs less than keeping a factor up to date (pivot's general path:
 * a column of 50 spheres 2.3 us against 26 us, a dense SPD problem of 64
 * unknowns in 2 steps against 37 pivots), and the whole solve lives on the
 * stack (the block's 32 KB at 64 unknowns; beyond, up to 128, in the
 * thread's scratch, kept between solves): no allocation, no monitor.
 * Where the last block is dense and symmetric, of SMALL_REFINE rows and
 * more, one step of iterative refinement with its factor ends the solve
 * (pivot_refine_rows: kept only where it lowers the free rows' |w|; on a
 * dense SPD block of 100 rows 7.8e-16 -> 2.2e-16 for a tenth of the
 * factor's work, where on a small or banded block a step moves within the
 * rounding of w itself and costs as much as the factor: a column of 50
 * bodies +40%).
 *
 * A rank-deficient block (a stack of boxes: four contacts a face, three of
 * them enough): a pivot within SMALL_PIVOT of the block's largest entry
 * (L D L': of its largest diagonal entry; the LU: no pivot above it left
 * in the column's rows) marks a row that depends on the rows before it,
 * and those rows go to a bound, all of them after one factorisation; the
 * next step solves the block of the rest (a pyramid of 16 rows: 2 steps).
 * Beyond LCP_TINY_N unknowns a singular block ends the path: there the
 * dependent sets of a stack of boxes or planks can cycle (a tower of 48
 * rows: blocks of 48, 18, 14, 42, 18, 14 ... rows, 30 and 24 of them
 * dependent) or take many steps (a pyramid of 64 rows: 8, 1.8x
 * newton-min's solve), and the general solvers are built for them: the
 * price is one block.  The start: from a warm start, its sets;
 * on a Z-matrix without findex, every row free (z_matrix); else each row
 * at the bound nearest 0 (0 for an lcp) unless w there does not hold it
 * at that bound (w_i <= 0 at a lower bound): then free -- a column of
 * resting spheres, whose b_i = 0 above the ground contact, is solved in
 * one step instead of a step a contact; a row whose box holds 0 inside
 * starts at the bound beyond which its own row alone puts it (x_i = -w_i /
 * a_ii), else free -- dense SPD problems in a tight box, most rows at a
 * bound at the answer, 1-2 steps instead of 4-7 (0.64 of the time on
 * random boxes of width 0.01, 0.98-1.02 where the box is wide).  NaN, a free row without bounds
 * that depends on the others, or no end within 2 n + 4 steps (at most
 * SMALL_STEPS: dense rank-deficient problems of more than about 30
 * unknowns can cycle between dependent sets, and a failure should cost a
 * bounded number of blocks) returns 0, and the caller solves the problem
 * the general way.
 *
 * A triangular A with a positive diagonal (Murty's examples, a diagonal
 * A) goes first by one pass of projected substitution (triangular_solve:
 * exact, one step).  An unsymmetric lcp that is not a Z-matrix, of up to
 * LCP_DANTZIG_SMALL_N unknowns, from scratch, goes first by Dantzig and
 * Cottle's method (dantzig_small.h: a pivot an update of a tableau where a
 * block step factors afresh; Murty's example of 30 unknowns in one pivot,
 * where the block steps took a step a row and then gave up); where that
 * stops short (a diagonal entry not above 0, a pivot too small, its cap)
 * the block steps take the problem from their own start. */
#include "pivot_small.h"

#include "dantzig_small.h"
#include "pivot_internal.h"

#include "../core/scratch.h"
#include "../core/verify.h"
#include "../la/csr.h"

#include <math.h>
#include <string.h>

enum { FREE = 0, AT_LO = 1, AT_HI = 2 };

#define SMALL_TRIES 3     /* block switches allowed without fewer infeasible rows (Judice and Pires' p) */
#define SMALL_STEPS 36    /* the most steps (2 n + 4 below): a failure costs at most this many blocks */
#define SMALL_PIVOT 1e-13 /* a pivot below this times the block's largest entry: singular to working precision */
#define SMALL_REFINE 32   /* a dense free block of this many rows and more: one refinement step at the end */

double lcp_pivot_small_threshold(const lcp_problem *p, double tol, double bscale)
{
    return lcp_max_nan(1e-3 * tol, 1e-14) * lcp_max_nan(lcp_max_nan(1.0, p->scale_floor), bscale); /* (inline fmax) */
}

int lcp_pivot_small_fits(const lcp_problem *p)
{
    if (!(p->kind == LCP_KIND_LCP || p->kind == LCP_KIND_BLCP) || p->n < 1 || p->n > LCP_SMALL_N || !p->A.p || !p->b)
        return 0;
    if (p->findex) {
        if (!p->mu) return 0;
        for (int i = 0; i < p->n; i++) {
            int f = p->findex[i];
            if (f >= p->n || f == i || (f >= 0 && p->findex[f] >= 0)) return 0;
        }
    }
    return 1;
}

/* Whether A is a Z-matrix: no off-diagonal entry above 0 (a column of
 * bodies: a contact's force presses its neighbours' contacts together).
 * There a force only lowers the others' w, so from the rows at their bound
 * the load reaches the contacts below one block step at a time (a
 * perturbed column of 32 spheres: 6 steps, one a layer of contacts whose
 * w turned negative -- Chandrasekaran's method for such matrices); from
 * every row free the first step is the unconstrained solve and the rows
 * that pull go to their bound (that column: 1 step; chains of 17-64
 * links resting on the ground, b perturbed: 4.0 steps on average against
 * 5.5).  Where most rows end at their bound it costs a little more
 * (random M-matrices with b of either sign: 3.7 against 2.9); the
 * resting contact of a stack is the case it is for.  Elsewhere (mixed
 * signs: a dense random SPD matrix, a pyramid of boxes) the free start
 * costs more steps than the start from the bound (2 -> 4-5). */
static int z_matrix(const lcp_problem *p)
{
    const int n = p->n, *ap = p->A.p, *aj = p->A.j;
    const double *ax = p->A.x;
    for (int i = 0; i < n; i++)
        for (int e = ap[i]; e < ap[i + 1]; e++)
            if (aj[e] != i && !(ax[e] <= 0.0)) return 0;
    return 1;
}

/* A triangular -- every stored entry on one side of the diagonal or on it
 * -- with a positive diagonal: the lcp (blcp) is solved by one pass of
 * projected substitution in the triangle's order, x_i = mid(lo_i, -(b_i +
 * sum_j a_ij x_j) / a_ii, hi_i) with the x_j of the rows before (Cottle,
 * Pang and Stone 1992, 4.1: each row's complementarity then depends on
 * the rows before alone, and its one-dimensional problem has this one
 * answer).  Murty's examples, exponential for Lemke's and Murty's rules
 * and for Dantzig and Cottle's method transposed, and a diagonal A, take
 * one pass.  Not taken with findex (the bounds would follow a row not yet
 * solved).  Returns 1 with x, 0 where A is not triangular, a diagonal
 * entry is not above 0 (not P) or x is not finite (x then undefined). */
static int triangular_solve(const lcp_problem *p, double *x)
{
    const int n = p->n, *ap = p->A.p, *aj = p->A.j;
    const double *ax = p->A.x, *b = p->b;
    if (p->findex) return 0;
    int lower = 1, upper = 1;
    for (int i = 0; i < n; i++) { /* (a symmetric or general A fails at its first row with entries both sides) */
        if (ap[i + 1] == ap[i]) return 0; /* (an empty row: no positive diagonal) */
        if (aj[ap[i]] < i) upper = 0;
        if (aj[ap[i + 1] - 1] > i) lower = 0;
        if (!lower && !upper) return 0;
    }
    for (int i = 0; i < n; i++) x[i] = 0.0;
    for (int q = 0; q < n; q++) {
        int i = lower ? q : n - 1 - q;
        double r = b[i], d = 0.0;
        for (int e = ap[i]; e < ap[i + 1]; e++) {
            if (aj[e] == i) d = ax[e];
            else r += ax[e] * x[aj[e]];
        }
        if (!(d > 0.0)) return 0;
        double lo, hi, t = -r / d;
        lcp_problem_bounds(p, x, i, &lo, &hi); /* (no findex: the bounds as given) */
        x[i] = t < lo ? lo : t > hi ? hi : t;
        if (!isfinite(x[i])) return 0;
    }
    return 1;
}

/* sum a[m] b[m] over m in [lo, hi): a short run (a banded block's rows) by
 * a plain loop, a long one by pivot's dot kernel (pivot_kernels.c: four
 * lanes a vector, AVX2 where the CPU has it; the set-up of the lanes cost
 * more than the run on a column of bodies' blocks) */
static inline double dot_run(const double *a, const double *b, int lo, int hi)
{
    if (hi - lo >= 16) return pivot_dot(hi - lo, a + lo, b + lo);
    double t = 0.0;
    for (int m = lo; m < hi; m++) t += a[m] * b[m];
    return t;
}

/* ldl_solve's end of row a (W_ac, c in [fa, a), in Ka): d_a, the row to L, the pivot's tests; 0 to go on, else
 * what ldl_solve returns (-2, -3, or the dependent rows' count at the first with stop) */
static inline int ldl_row_end(double *Ka, int fa, int a, double floor, double *D, double *iD, int *dep, int *nd,
                              int stop)
{
    double d = Ka[a];
    for (int c = fa; c < a; c++) { /* d_a = K_aa - sum W_ac L_ac; the row to L (iD: 1 / d_c, 0 where d_c is) */
        double l = Ka[c] * iD[c];
        d -= Ka[c] * l;
        Ka[c] = l;
    }
    if (d != d) return -2;
    if (d < -floor) return -3;
    if (d <= floor) {
        dep[(*nd)++] = a, d = 0.0;
        if (stop) return *nd;
    }
    D[a] = d;
    iD[a] = d != 0.0 ? 1.0 / d : 0.0;
    return 0;
}

/* rows a .. a + g - 1 (g = 4 or 2) of a full block (ldl_full): their entries left of row a (W_qc = K_qc -
 * sum_m W_qm L_cm, c < a) in one pass, a short dot of each row against row c's L at a time -- g chains of adds,
 * each in dot_run's order (the same bits), one filling the others' waits on their adds' latency (a dense
 * block of 24-100 rows: 0.8-0.9 of the time of a row at a time).  Written out for each g: the sums in
 * registers. */
static void ldl_left4(double *const *R, int a)
{
    double *K0 = R[a], *K1 = R[a + 1], *K2 = R[a + 2], *K3 = R[a + 3];
    for (int c = 0; c < a; c++) {
        const double *Rc = R[c];
        if (c >= 16) {
            K0[c] -= dot_run(K0, Rc, 0, c), K1[c] -= dot_run(K1, Rc, 0, c);
            K2[c] -= dot_run(K2, Rc, 0, c), K3[c] -= dot_run(K3, Rc, 0, c);
            continue;
        }
        double t0 = 0.0, t1 = 0.0, t2 = 0.0, t3 = 0.0;
        for (int m = 0; m < c; m++) {
            double l = Rc[m];
            t0 += K0[m] * l, t1 += K1[m] * l, t2 += K2[m] * l, t3 += K3[m] * l;
        }
        K0[c] -= t0, K1[c] -= t1, K2[c] -= t2, K3[c] -= t3;
    }
}

static void ldl_left2(double *const *R, int a)
{
    double *K0 = R[a], *K1 = R[a + 1];
    for (int c = 0; c < a; c++) {
        const double *Rc = R[c];
        if (c >= 16) {
            K0[c] -= dot_run(K0, Rc, 0, c), K1[c] -= dot_run(K1, Rc, 0, c);
            continue;
        }
        double t0 = 0.0, t1 = 0.0;
        for (int m = 0; m < c; m++) t0 += K0[m] * Rc[m], t1 += K1[m] * Rc[m];
        K0[c] -= t0, K1[c] -= t1;
    }
}

/* ldl_solve's factor and forward solve on a full block (every row's profile from column 0): its rows a group
 * at a time, four (its last two or three: two, or one), each row then its entries in the group's columns
 * before it and its end; L z = rhs by pairs of rows up to 16 (two chains, each in dot_run's order).  Returns
 * 0, or what ldl_solve returns; *nd the dependent rows. */
static int ldl_full(double *const *R, double *rhs, int k, int from, double *D, double *iD, int *dep, int *nd,
                    int stop, double floor)
{
    int r;
    for (int a = from; a < k;) {
        int g = a + 3 < k ? 4 : a + 1 < k ? 2 : 1;
        if (g == 4) ldl_left4(R, a);
        else if (g == 2) ldl_left2(R, a);
        else
            for (int c = 0; c < a; c++) R[a][c] -= dot_run(R[a], R[c], 0, c);
        for (int a0 = a, q = 0; q < g; q++, a++) {
            for (int c = a0; c < a; c++) R[a][c] -= dot_run(R[a], R[c], 0, c);
            if ((r = ldl_row_end(R[a], 0, a, floor, D, iD, dep, nd, stop))) return r;
        }
    }
    if (*nd) return *nd;
    for (int a = 0; a < k; a++) {
        if (a + 1 < 16 && a + 1 < k) {
            const double *Ra = R[a], *Rb = R[a + 1];
            double t = 0.0, u = 0.0;
            for (int m = 0; m < a; m++) t += Ra[m] * rhs[m], u += Rb[m] * rhs[m];
            rhs[a] -= t;
            u += Rb[a] * rhs[a]; /* (row a + 1's last term, last: dot_run's order) */
            rhs[++a] -= u;
            continue;
        }
        rhs[a] -= dot_run(R[a], rhs, 0, a);
    }
    return 0;
}

/* K (k x k, symmetric, row a at R[a]: its entries m from first[a] to a
 * at R[a][m]; its lower part read) = L D L' over the profile (row a's entries from first[a],
 * its first nonzero, to the diagonal: fill stays inside it, so a banded
 * block -- a column of bodies -- costs its band, a dense one k^3 / 6
 * multiply-adds, half the LU's), then L D L' y = rhs: the solution in rhs, and 0.  A pivot d_a within
 * SMALL_PIVOT of the largest diagonal entry marks a row that depends on
 * the rows before it (a semidefinite A: its Schur complement's row is 0
 * there): it is left out of the factor (l = 0 in its column) and listed in
 * dep[], their count returned (rhs then undefined), as lu_solve does
 * (stop: at the first such row, the caller wanting no more).  -3 for a
 * pivot below -SMALL_PIVOT of it (A is not semidefinite: the caller takes
 * the LU), -2 for a NaN.  Rows before from hold their L and D from an
 * earlier call (the leading rows of a block are factored as they were: L D
 * L' of a leading principal block does not depend on the rows after it);
 * only the rows from there are factored, and the solves take all k.  iD
 * beside D: 1 / d_a (0 where d_a is), a division a row instead of one an
 * entry of L (their latency bounds a small block's factor).  full: every
 * row's profile from column 0 (a dense A's block), its rows by groups
 * (ldl_left4); a banded block's rows, each starting a column after the
 * last, one at a time. */
static int ldl_solve(double *const *R, double *rhs, int k, int from, const int *first, double *D, double *iD,
                     int *dep, int stop, int full)
{
    double dmax = 0.0;
    for (int a = 0; a < k; a++) {
        double d = R[a][a];
        if (d != d) return -2;
        dmax = d > dmax ? d : dmax;
    }
    double floor = SMALL_PIVOT * dmax;
    for (int a = 0; a < from; a++) /* the rows factored at a step before: their pivots pass this block's floor */
        if (!(D[a] > floor)) {
            from = a;
            break;
        }
    int nd = 0, r;
    if (full) {
        if ((r = ldl_full(R, rhs, k, from, D, iD, dep, &nd, stop, floor))) return r;
    } else {
        for (int a = from; a < k; a++) {
            double *Ka = R[a];
            int fa = first[a];
            for (int c = fa; c < a; c++) /* Ka[c] = W_ac = L_ac d_c, from W_am (m < c) and row c's L */
                Ka[c] -= dot_run(Ka, R[c], fa > first[c] ? fa : first[c], c);
            if ((r = ldl_row_end(Ka, fa, a, floor, D, iD, dep, &nd, stop))) return r;
        }
        if (nd) return nd;
        for (int a = 0; a < k; a++) rhs[a] -= dot_run(R[a], rhs, first[a], a); /* L z = rhs */
    }
    for (int a = 0; a < k; a++) rhs[a] *= iD[a];
    for (int a = k - 1; a >= 0; a--) { /* L' y = z / d, a column of L' (row a of L) at a time */
        const double *Ka = R[a];
        double ya = rhs[a];
        if (a - first[a] < 16) {
            for (int m = first[a]; m < a; m++) rhs[m] -= Ka[m] * ya;
            continue;
        }
        pivot_axpy(a - first[a], ya, Ka + first[a], rhs + first[a]); /* (rhs -= ya Ka) */
    }
    return 0;
}

/* K (k x k, row-major) = L U with partial pivoting, applied to rhs as it
 * goes, then U y = rhs: the solution in rhs, and 0.  A column with no
 * pivot above SMALL_PIVOT kmax left in its rows depends on the columns
 * before it: it is skipped (no elimination, the next column takes its pivot
 * row), and the count of such columns is returned, their positions in
 * dep[] (rhs then undefined): all of a rank-deficient block's dependent
 * columns from one factorisation (stop: the first alone).  -2 for a NaN.
 * The band: lb is the block's lower bandwidth (no row a has an entry left
 * of column a - lb) and last[a] row a's last nonzero column on entry.  With
 * partial pivoting the multipliers of column c stay in rows up to c + lb (a
 * row below has never met a pivot row that reaches column c), and a row's
 * last nonzero moves at most to its pivot row's: the search and the
 * updates cost the band (a column of bodies with friction rows), not k^2
 * a column. */
static int lu_solve(double *K, double *rhs, int k, double kmax, int *dep, int stop, int lb, int *last)
{
    double floor = SMALL_PIVOT * kmax;
    if (kmax != kmax) return -2;
    int r0 = 0, nd = 0; /* the next pivot row; the dependent columns */
    for (int c = 0; c < k; c++) {
        int pr = r0, rend = c + lb < k - 1 ? c + lb : k - 1; /* the rows that may hold column c */
        double big = r0 < k ? fabs(K[r0 * k + c]) : 0.0;
        for (int r = r0 + 1; r <= rend; r++)
            if (fabs(K[r * k + c]) > big) big = fabs(K[r * k + c]), pr = r;
        if (big != big) return -2;
        if (!(big > floor)) {
            dep[nd++] = c;
            if (stop) return nd;
            continue;
        }
        if (pr != r0) {
            int ce = last[r0] > last[pr] ? last[r0] : last[pr];
            for (int j = c; j <= ce; j++) {
                double t = K[r0 * k + j];
                K[r0 * k + j] = K[pr * k + j];
                K[pr * k + j] = t;
            }
            double t = rhs[r0];
            rhs[r0] = rhs[pr];
            rhs[pr] = t;
            int lt = last[r0];
            last[r0] = last[pr];
            last[pr] = lt;
        }
        const double *Kc = K + r0 * k;
        int ce = last[r0] > c ? last[r0] : c; /* the pivot row's last nonzero: the updates stop there */
        last[r0] = ce;
        double inv = 1.0 / Kc[c];
        for (int r = r0 + 1; r <= rend; r++) {
            double *Kr = K + r * k, l = Kr[c] * inv;
            if (l == 0.0) continue;
            for (int j = c + 1; j <= ce; j++) Kr[j] -= l * Kc[j];
            rhs[r] -= l * rhs[r0];
            if (ce > last[r]) last[r] = ce;
        }
        r0++;
    }
    if (nd) return nd;
    for (int a = k - 1; a >= 0; a--) {
        const double *Ka = K + a * k;
        double s = rhs[a];
        for (int j = a + 1; j <= last[a]; j++) s -= Ka[j] * rhs[j];
        rhs[a] = s / Ka[a];
    }
    return 0;
}

/* The final refinement's solve with the last block's L D L' (refine: pivot_refine_rows) */
typedef struct {
    double *const *R;
    double *D, *iD;
    const int *first;
    int k;
} ldl_factor;

static int ldl_again(void *ctx, double *r)
{
    ldl_factor *f = ctx;
    int dep[1];
    return ldl_solve(f->R, r, f->k, f->k, f->first, f->D, f->iD, dep, 1, 1) != 0;
}

/* x complementary to within thr on every row of an lcp (x_i >= -thr, w_i >= -thr, |w_i| <= thr where x_i >
 * thr): the check of the block steps' sets, for an answer found another way (Dantzig and Cottle's, whose
 * tableau's rounding is not bounded: values near 1e300 leave it a wrong basis) */
static int lcp_rows_hold(const lcp_problem *p, const double *x, double thr)
{
    for (int i = 0; i < p->n; i++) { /* w_i with the verification's bits (pivot_row_w: under cancellation,
                                       * values near 1e300, a sum in another order gives another w) */
        double wi = pivot_row_w(p, x, i);
        if (!(x[i] >= -thr) || !(wi >= -thr) || (x[i] > thr && !(wi <= thr))) return 0;
    }
    return 1;
}

/* the block factorisations of this thread's small paths, by L D L' and by LU (lcp_pivot_small_counts) */
static _Thread_local long count_ldl, count_lu;

void lcp_pivot_small_counts(long *ldl, long *lu)
{
    *ldl = count_ldl;
    *lu = count_lu;
}

/* lcp_pivot_small with the block's k x k array K (n x n doubles), its rows' places R (n) and the row arrays: dw
 * 7 n doubles, iw 7 n ints */
static int small_solve(const lcp_problem *p, const double *start, double thr, int max_steps, double *x, int *steps,
                       double *K, double **R, double *dw, int *iw)
{
    enum { N = LCP_SMALL_N };
    const int n = p->n, *ap = p->A.p, *aj = p->A.j, *fi = p->findex;
    const double *ax = p->A.x, *b = p->b;
    double *rhs = dw, *c = rhs + n, *g = c + n, *lo = g + n, *hi = lo + n, *D = hi + n, *iD = D + n;
    int *st = iw, *to = st + n, *idx = to + n, *pos = idx + n, *dep = pos + n, *first = dep + n, *cl = first + n;
    if (triangular_solve(p, x)) { /* (exact in one pass: the start is not needed) */
        *steps = 1;
        return 1;
    }
    /* the blocks by L D L' where A is exactly symmetric (tolerance 0: the block as given, not its symmetric part) */
    int sym = !fi && lcp_csr_is_symmetric(&p->A, 0.0), zm = !start && !fi && z_matrix(p);
    /* an unsymmetric lcp, not a Z-matrix: first Dantzig and Cottle's method, each pivot an update where a block
     * step factors afresh (dantzig_small.h); where it stops short, the block steps */
    if (!sym && !zm && !start && p->kind == LCP_KIND_LCP && n <= LCP_DANTZIG_SMALL_N) {
        int pivots = 0;
        if (lcp_dantzig_small(p, x, &pivots) && !(max_steps > 0 && pivots > max_steps) && lcp_rows_hold(p, x, thr)) {
            *steps = pivots;
            return 1;
        }
    }
    /* the bounds at x = 0 (a friction row's, -+mu_i |x_f|, there 0: formed again at x where used) and the
     * start's sets */
    static const double zero[N];
    const double *x0 = start ? start : zero;
    for (int i = 0; i < n; i++) {
        double l, h;
        lcp_problem_bounds(p, zero, i, &lo[i], &hi[i]);
        if (start) lcp_problem_bounds(p, x0, i, &l, &h);
        else l = lo[i], h = hi[i];
        st[i] = x0[i] <= l && l > -INFINITY ? AT_LO : x0[i] >= h && h < INFINITY ? AT_HI : FREE;
    }
    if (zm) { /* every row free but those fixed by their bounds (see z_matrix) */
        for (int i = 0; i < n; i++)
            if (lo[i] < hi[i]) st[i] = FREE;
    } else if (!start) { /* from the point nearest 0: a row at a bound whose w there does not hold it there starts free */
        int cz = 1; /* c = 0 (an lcp from scratch): w = b there, no products */
        for (int i = 0; i < n; i++) {
            c[i] = st[i] == AT_LO ? lo[i] : st[i] == AT_HI ? hi[i] : 0.0;
            cz &= c[i] == 0.0;
        }
        for (int i = 0; i < n; i++) {
            if (lo[i] == hi[i]) continue; /* (a friction row: lo = hi = 0 at x = 0) */
            double wi = cz ? b[i] : pivot_row_w(p, c, i);
            if (st[i] == FREE) { /* 0 inside its box: where its own row alone puts it, x_i = -w_i / a_ii, at a
                                  * bound beyond it (a box problem's tight bounds: the rows there from the start) */
                double d = lcp_csr_diag(&p->A, i);
                if (d > 0 && -wi < lo[i] * d) st[i] = AT_LO;
                else if (d > 0 && -wi > hi[i] * d) st[i] = AT_HI;
                continue;
            }
            if (st[i] == AT_LO ? wi <= 0 : wi >= 0) st[i] = FREE;
        }
    }
    int dense = ap[n] == n * n;
    int best = n + 1, tries = SMALL_TRIES, cap = 2 * n + 4 < SMALL_STEPS ? 2 * n + 4 : SMALL_STEPS;
    if (max_steps > 0 && max_steps < cap) cap = max_steps;
    int kprev = 0, factored = 0; /* the block of the step before, and whether its L D L' was completed */
    for (int i = 0; i < n; i++) pos[i] = -1;
    while (*steps < cap) {
        ++*steps;
        int k = 0, from = 0;
        if (sym && dense) { /* the rows free before keep their order, the rows freed join at the end: the block's
                             * leading rows up to the first that left keep their L D L' (spd-box-32: the free set
                             * grows by a layer a step, 15 -> 24 -> 28 -> 30 rows) */
            int left = -1;
            for (int a = 0; a < kprev; a++) {
                int i = idx[a];
                if (st[i] != FREE) {
                    if (left < 0) left = a;
                    continue;
                }
                idx[k++] = i;
            }
            from = !factored ? 0 : left < 0 ? k : left;
            for (int i = 0; i < n; i++)
                if (st[i] == FREE && pos[i] < 0) idx[k++] = i;
            for (int i = 0; i < n; i++) pos[i] = -1;
            for (int a = 0; a < k; a++) pos[idx[a]] = a;
        } else {
            for (int i = 0; i < n; i++) pos[i] = st[i] == FREE ? (idx[k] = i, k++) : -1;
        }
        kprev = k, factored = 0;
        /* the rows at a bound: x_i = c_i + g_i x_f (g_i != 0 only for a friction row whose x_f is free) */
        for (int i = 0; i < n; i++) {
            if (st[i] == FREE) continue;
            g[i] = 0.0;
            if (fi && fi[i] >= 0) {
                int f = fi[i];
                double s = st[i] == AT_LO ? -p->mu[i] : p->mu[i];
                if (st[f] == FREE) c[i] = 0.0, g[i] = s;
                else c[i] = s * fabs(st[f] == AT_LO ? lo[f] : hi[f]);
            } else {
                c[i] = st[i] == AT_LO ? lo[i] : hi[i];
            }
        }
        /* the block and its right-hand side, from the free rows' stored entries: a symmetric block's lower
         * part over its profile (L D L'), else the whole block (L U) */
        int nd = 0;
        if (sym && dense) { /* A's rows full: the block gathered by position, the bounds' part from the rows at a
                             * nonzero value */
            int nc = 0;
            for (int j = 0; j < n; j++)
                if (pos[j] < 0 && c[j] != 0.0) cl[nc++] = j;
            for (int a = 0; a < k; a++) { /* (K's leading dimension n: the rows kept stay where they are) */
                const double *Ai = ax + (size_t)idx[a] * (size_t)n;
                double *Ka = R[a] = K + (size_t)a * (size_t)n, s = -b[idx[a]];
                for (int q = 0; q < nc; q++) s -= Ai[cl[q]] * c[cl[q]];
                if (a >= from)
                    for (int q = 0; q <= a; q++) Ka[q] = Ai[idx[q]];
                first[a] = 0;
                rhs[a] = s;
            }
        } else if (sym) {
            size_t off = 0; /* row a stored from its first nonzero to the diagonal after row a - 1: the profile, a
                             * banded block's band, is the memory touched too (a column of 900 spheres: 7 KB, not
                             * the 6.5 MB of a k x k array's pages) */
            for (int a = 0; a < k; a++) { /* the columns sorted, idx in order (pos rises with j) */
                int i = idx[a], fa = a, last;
                double s = -b[i];
                for (int e = ap[i]; e < ap[i + 1]; e++) /* the first column in the block: the row's first */
                    if (pos[aj[e]] >= 0) {
                        fa = pos[aj[e]] < a ? pos[aj[e]] : a; /* (none left of the diagonal: the diagonal) */
                        break;
                    }
                double *Ka = R[a] = K + off - fa; /* (off >= a >= fa: every row before holds one entry at least) */
                off += (size_t)(a - fa + 1);
                last = fa - 1;
                for (int e = ap[i]; e < ap[i + 1]; e++) {
                    int j = aj[e], q = pos[j];
                    if (q < 0) {
                        s -= ax[e] * c[j];
                    } else if (q <= a) {
                        for (int z = last + 1; z < q; z++) Ka[z] = 0.0; /* (the profile's gaps) */
                        Ka[q] = ax[e];
                        last = q;
                    }
                }
                for (int z = last + 1; z <= a; z++) Ka[z] = 0.0;
                first[a] = fa;
                rhs[a] = s;
            }
        }
        if (sym) {
            nd = k ? ldl_solve(R, rhs, k, from, first, D, iD, dep, n > LCP_TINY_N, dense) : 0;
            count_ldl += nd != -3;
            factored = nd == 0;
            if (nd == -3) { /* not semidefinite: this step again, and the rest, by the LU */
                sym = 0;
                --*steps;
                continue;
            }
        } else {
            memset(K, 0, (size_t)k * (size_t)k * sizeof *K);
            int lb = 0; /* the block's lower bandwidth; cl[a]: row a's last nonzero column */
            double kmax = 0.0;
            for (int a = 0; a < k; a++) {
                int i = idx[a], fa = a, la = a;
                double *Ka = K + a * k, s = -b[i];
                for (int e = ap[i]; e < ap[i + 1]; e++) {
                    int j = aj[e], q = pos[j];
                    if (q < 0) {
                        s -= ax[e] * c[j];
                        if (g[j] == 0.0) continue;
                        q = pos[fi[j]];
                        Ka[q] += ax[e] * g[j];
                    } else {
                        Ka[q] += ax[e];
                    }
                    fa = q < fa ? q : fa;
                    la = q > la ? q : la;
                }
                for (int q = fa; q <= la; q++) /* (a NaN: the LU's test) */
                    kmax = fabs(Ka[q]) > kmax ? fabs(Ka[q]) : kmax;
                lb = a - fa > lb ? a - fa : lb;
                cl[a] = la;
                rhs[a] = s;
            }
            nd = k ? lu_solve(K, rhs, k, kmax, dep, n > LCP_TINY_N, lb, cl) : 0;
            count_lu++;
        }
        if (nd < 0) return 0;
        if (nd > 0 && n > LCP_TINY_N) return 0; /* (see the header) */
        if (nd > 0) { /* rows dependent on the free rows before them (a PSD A: redundant contacts) go to a bound */
            for (int d = 0; d < nd; d++) {
                int i = idx[dep[d]];
                if (fi && fi[i] >= 0) st[i] = AT_LO;
                else if (lo[i] > -INFINITY) st[i] = AT_LO;
                else if (hi[i] < INFINITY) st[i] = AT_HI;
                else return 0;
            }
            continue;
        }
        for (int a = 0; a < k; a++) x[idx[a]] = rhs[a];
        for (int i = 0; i < n; i++)
            if (st[i] != FREE) x[i] = g[i] != 0.0 ? c[i] + g[i] * x[fi[i]] : c[i];
        /* the infeasible rows, and the set each would move to */
        int ninf = 0, last = -1;
        for (int i = 0; i < n; i++) {
            double l = lo[i], h = hi[i], xi = x[i];
            if (fi && fi[i] >= 0) lcp_problem_bounds(p, x, i, &l, &h); /* (the others' bounds: lo, hi) */
            to[i] = st[i];
            if (xi != xi) return 0;
            if (st[i] == FREE) {
                if (xi < l - thr) to[i] = AT_LO;
                else if (xi > h + thr) to[i] = AT_HI;
            } else if (l < h) { /* a row fixed by its bounds (lo = hi) takes any w */
                double wi = pivot_row_w(p, x, i);
                if (wi != wi) return 0;
                if (st[i] == AT_LO ? wi < -thr : wi > thr) to[i] = FREE;
            }
            if (to[i] != st[i]) ninf++, last = i;
        }
        if (!ninf) {
            /* a friction row held at -+mu x_f with x_f free stands for -+mu |x_f| only where x_f >= 0: a free
             * x_f below 0 at the end (a findex row whose own box allows it) puts it on the other bound, where
             * its w was not tested -- the general solve takes it */
            for (int i = 0; fi && i < n; i++)
                if (st[i] != FREE && g[i] != 0.0 && x[fi[i]] < -thr) return 0;
            if (sym && dense && factored && k >= SMALL_REFINE) { /* (a dense block's leading dimension: n) */
                ldl_factor f = {R, D, iD, first, k};
                pivot_refine_rows(p, idx, k, lo, hi, x, ldl_again, &f, rhs, c);
            }
            return 1;
        }
        if (ninf < best) best = ninf, tries = SMALL_TRIES;
        else if (tries > 0) tries--;
        else if (n > LCP_SMALL_LANE_N) return 0; /* (see the header: Murty's rule a factorisation a row) */
        else { /* Murty's rule: the last infeasible row alone */
            st[last] = to[last];
            continue;
        }
        memcpy(st, to, (size_t)n * sizeof *st);
    }
    return 0;
}

int lcp_pivot_small(const lcp_problem *p, const double *start, double thr, int max_steps, double *x, int *steps)
{
    *steps = 0;
    if (p->n <= LCP_SMALL_STACK_N) { /* the block and the rows' arrays on the stack (38 KB at most) */
        double K[LCP_SMALL_STACK_N * LCP_SMALL_STACK_N], dw[7 * LCP_SMALL_STACK_N], *R[LCP_SMALL_STACK_N];
        int iw[7 * LCP_SMALL_STACK_N];
        return small_solve(p, start, thr, max_steps, x, steps, K, R, dw, iw);
    }
    /* the rows' arrays first, then R, then the block: a sparse block's profile touches its first pages only */
    size_t n = (size_t)p->n, head = 7 * n + (7 * n + 1) / 2 + n, nd = head + n * n;
    double *W = lcp_scratch_take(LCP_SCRATCH_PIVOT, nd * sizeof *W); /* kept by the thread */
    if (!W) return 0;
    int ok = small_solve(p, start, thr, max_steps, x, steps, W + head, (double **)(W + 7 * n + (7 * n + 1) / 2), W,
                         (int *)(W + 7 * n));
    lcp_scratch_give(LCP_SCRATCH_PIVOT, W);
    return ok;
}
