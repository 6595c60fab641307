/* src/solvers/dantzig_small.c: Dantzig and Cottle's principal pivoting
 * method for tiny lcps, nothing allocated (see dantzig_small.h for where
 * pivot's small path takes it).
 *
 * The method (Dantzig and Cottle 1967; Cottle, Pang and Stone 1992, sec.
 * 4.2; the scheme of Baraff's and ODE's incremental LCP): w = A x + b,
 * x = 0 at the start, each row i in one set -- C (basic: w_i = 0, x_i >= 0)
 * or N (x_i = 0, w_i >= 0 once the row is processed).  The rows are taken
 * in order; a row d with w_d < 0 drives: x_d grows, the rows of C keep
 * w_C = 0, and the step ends at the first of
 *   - w_d = 0: d joins C, the next row;
 *   - x_i = 0 for i in C: i leaves C (w_i = 0 there), d drives on;
 *   - w_i = 0 for a processed row i of N: i joins C, d drives on.
 * Where A is a P-matrix each pivot below is positive and the method ends,
 * in about n pivots on the problems met (random P-matrices of up to 32
 * unknowns: at most 1.8 n; Murty's lower triangular example, exponential
 * for Murty's and Lemke's rules: 1 pivot), but exponentially many on some
 * (Murty's example transposed, lcp_exp_murty of the Siconos collection):
 * past CAP pivots, O(n^3) work as about two of the block steps, the path
 * stops and the block steps take the problem.
 *
 * The directions come from the principal pivot transform of A on C, kept
 * as a dense tableau T (Tucker's form): [x_C; w_N] = T [w_C; x_N] + const,
 * so that with w_C = 0 and x_d the only x of N moving, dx_C = T_Cd and
 * dw_N = T_Nd -- column d, no solve.  A row joining or leaving C is one
 * principal pivot on T, an n x n update with the rows contiguous (T_CC is
 * then A_CC^-1, T_dd the Schur complement of A_CC in A_{C+d}).  The point
 * (x_C, w_N) is kept apart and moved by each step; at the end x_C is
 * refined with A itself (x_C -= T_CC (A_CC x_C + b_C), twice where the
 * first moved it by more than rounding), so that the
 * drift of the updates does not reach the answer.  A row joining C whose
 * pivot (the Schur complement T_ii) is below PIVOT_TOL of its diagonal
 * entry A_ii (A not P, or too ill-conditioned there: rows and columns
 * scaled apart are judged each by its own scale), a
 * diagonal entry of A not above 0 (not P: such a row can stall the method,
 * found before any pivot), a NaN or more than CAP pivots ends the path
 * (0), and the caller goes on without it. */
#include "dantzig_small.h"

#include "../la/csr.h"

#include <math.h>
#include <string.h>

#define CAP(n) (2 * (n) + 2) /* pivots before the path gives up (the block steps go on) */
#define PIVOT_TOL 1e-11      /* a row's pivot below this times its diagonal entry A_ii: not trusted */
#define STEP_TOL 1e-14       /* a direction's entry below this times its scale (its row's): 0 */
#define REFINE_TOL 1e-13     /* a refinement that moved x by less than this times its largest entry: the last */

enum { N = LCP_DANTZIG_SMALL_N };

/* the principal pivot of T (n x n, row-major) on r: x_r and w_r change places */
static void principal_pivot(double *T, int n, int r)
{
    double *Tr = T + (size_t)r * n, ip = 1.0 / Tr[r];
    for (int j = 0; j < n; j++) Tr[j] *= -ip; /* row r: -T_rj / T_rr */
    Tr[r] = ip;
    for (int i = 0; i < n; i++) {
        if (i == r) continue;
        double *Ti = T + (size_t)i * n, f = Ti[r];
        if (f == 0.0) continue;
        for (int j = 0; j < n; j++) Ti[j] += f * Tr[j]; /* T_ij - T_ir T_rj / T_rr */
        Ti[r] = f * ip;
    }
}

int lcp_dantzig_small(const lcp_problem *p, double *x, int *pivots)
{
    const int n = p->n, *ap = p->A.p, *aj = p->A.j;
    const double *ax = p->A.x, *b = p->b;
    *pivots = 0;
    if (p->kind != LCP_KIND_LCP || n < 1 || n > N || !ap || !b) return 0;
    double T[N * N], w[N], r[N], diag[N], rmax[N];
    int in[N];
    if (!lcp_csr_to_dense_rows(&p->A, T, rmax)) return 0; /* (a NaN or an infinity: the block steps report it) */
    for (int i = 0; i < n; i++) {
        if (!isfinite(b[i])) return 0;
        x[i] = 0.0, w[i] = b[i], in[i] = 0;
    }
    for (int i = 0; i < n; i++) { /* a P-matrix's diagonal is positive: else not taken (the row would stall it) */
        diag[i] = T[i * n + i];
        if (!(diag[i] > 0.0)) return 0;
    }
    for (int d = 0; d < n; d++) {
        if (w[d] >= 0.0) continue; /* x_d = 0 holds */
        for (;;) {
            if (++*pivots > CAP(n)) return 0;
            double s_d = T[d * n + d]; /* the Schur complement of A_CC in A_{C+d}: > 0 on a P-matrix */
            if (!(s_d > PIVOT_TOL * diag[d])) return 0;
            double big = 1.0;
            for (int i = 0; i < n; i++)
                if (in[i] && fabs(T[i * n + d]) > big) big = fabs(T[i * n + d]);
            /* the step: to w_d = 0 (block d: d joins C), or to the first x_i = 0 of C (i leaves C) or w_i = 0 of a
             * processed row of N (i joins C) on the way */
            double step = -w[d] / s_d;
            int block = d;
            for (int i = 0; i < n; i++) {
                double t = T[i * n + d];
                if (!in[i] && i >= d) continue; /* (d itself, and the rows not yet processed) */
                if (!(t < -STEP_TOL * big * (in[i] ? 1.0 : rmax[i]))) continue;
                double si = -(in[i] ? x[i] : w[i]) / t;
                if (si < step) step = si, block = i;
            }
            step = step > 0.0 ? step : 0.0;
            x[d] += step;
            for (int i = 0; i < n; i++) { /* (w_d too: d is not in C) */
                if (in[i]) x[i] += step * T[i * n + d];
                else w[i] += step * T[i * n + d];
            }
            double tb = T[block * n + block]; /* a row joining C: its Schur complement (d's: s_d, tested) */
            if (in[block] ? !(fabs(tb) > 0.0) : !(tb > PIVOT_TOL * diag[block])) return 0;
            principal_pivot(T, n, block);
            in[block] = !in[block];
            if (block == d) {
                w[d] = 0.0;
                break;
            }
            x[block] = 0.0, w[block] = 0.0;
        }
    }
    /* x_C refined with A itself: x_C -= T_CC (A_CC x_C + b_C), as r over every row (0 off C: T's columns
     * there are skipped by the product's zeros, rows of T contiguous, no gather); a second round only where the
     * first moved x by more than rounding */
    double xmax = 0.0;
    for (int i = 0; i < n; i++) {
        if (!in[i]) x[i] = 0.0;
        xmax = fabs(x[i]) > xmax ? fabs(x[i]) : xmax;
    }
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < n; i++) {
            double t = 0.0;
            if (in[i]) {
                t = b[i];
                for (int e = ap[i]; e < ap[i + 1]; e++) t += ax[e] * x[aj[e]]; /* (x is 0 off C) */
            }
            r[i] = t;
        }
        double moved = 0.0;
        for (int i = 0; i < n; i++) {
            if (!in[i]) continue;
            const double *Ti = T + (size_t)i * n;
            double t = 0.0;
            for (int j = 0; j < n; j++) t += Ti[j] * r[j];
            x[i] -= t;
            moved = fabs(t) > moved ? fabs(t) : moved;
        }
        if (!(moved > REFINE_TOL * xmax)) break; /* (a NaN: checked below) */
    }
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}
