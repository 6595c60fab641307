/* src/solvers/pivot_internal.h: what pivot's three files share: the
 * workspace of a solve (index sets, the factors of A_CC, the crash's
 * buffers), the row states, and the calls between src/solvers/pivot.c
 * (the method: drives, passes, the solve), src/solvers/pivot_factor.c (the
 * factors of A_CC and their updates) and src/solvers/pivot_crash.c (the
 * crash start).  Not part of the library's interface.
 */
#ifndef LCPSOLVE_PIVOT_INTERNAL_H
#define LCPSOLVE_PIVOT_INTERNAL_H

#include "solver.h"
#include "../la/csr.h"

#define PIV_NEG 1e-8      /* a pivot below -PIV_NEG A_kk: A is not PSD */
#define REFINE 1e-12      /* refine x_C when max_C |w_k| > REFINE max(1, |b|) */
#define LU_BLOCK 64       /* block size of the refactorisation */
#define EXACT_EVERY 16    /* ticked pivots between two w = A x + b afresh */

enum { S_U, S_C, S_LO, S_HI, S_FIX, S_ZERO }; /* untaken, clamped, at lo, at hi, lo = hi, w = 0 off C */

typedef struct {
    const lcp_problem *p;   /* borrowed */
    lcp_csr At;             /* A' (row k = column k of A), owned unless at_shared (A symmetric: A itself) */
    int at_shared;
    int n;
    int nc;                 /* |C| */
    double *L, *Ut;         /* n x n column-major: A_CC = L U, L unit lower, Ut = U' */
    int *cidx;              /* C in factor order */
    int *pos;               /* pos[k] = position of k in cidx, -1 off C */
    int *state;             /* S_* per row */
    int *order;             /* the order rows are taken in */
    double *lo, *hi;        /* bounds of the current pass */
    double *diag;           /* A_kk */
    double *rowmax;         /* max_j |A_kj| */
    double *w;              /* A x + b: the monitor's after each pivot, updated along a step */
    double *dxc;            /* dx_C in factor order; also a solve buffer */
    double *dw, *dwabs;     /* A dx and |A| |dx| */
    double *xv, *yv;        /* the rank-1 vectors of a removal */
    double *tmp;            /* gathered rows and columns */
    double *Ad;             /* NULL, or a dense A (n x n, column-major): the drive's A dx without the CSR walk */
    int perm;               /* A symmetric and dense: Ad holds the rows of A with their columns permuted
                             * (cperm), the clamped ones first (positions 0..|C|-1, any order) */
    int *cperm, *ppos;      /* position -> column, column -> position */
    int *cpq;               /* cpq[q] = ppos[cidx[q]]: the position of C's q-th column (after pivot_perm_sync) */
    double *dxp;            /* a vector in the permuted order */
    int *rlist;             /* the rows at a bound a step may bring to w = 0 (the ratio test's rows) */
    int *cols;              /* the moving columns of a dense step (i, then C), ... */
    double *coef;           /* ... and their dx */
    double *dxf;            /* dx at full length (zero off i and C between uses) */
    double *zc;             /* L^-1 A(C, zc_row): the direction's first solve, for the row's entry into C */
    int zc_row;             /* -1, or the row whose zc holds for the current factor */
    double diagmax;
    double wscale;          /* max(1, |b|_inf), the residual's scale */
    int updates;            /* factor changes since the last refactorisation */
    long regs;              /* pivots raised by the regularisation */
    int pivots, pass_start; /* pivots so far, at the start of this pass */
    long guard;             /* pivots a pass may take */
    int full_rows;          /* every row of A holds all n columns (in order): the monitor's A x + b by contiguous dots */
    int seen;               /* the monitor has seen the current x */
    int quick;              /* no trace: pivots ticked (limits only), x checked at the end of a pass */
    int ticked;             /* pivots ticked since the last check */
    int since_exact;        /* ticked pivots since w was last taken afresh from A x + b */
    int hi_rows;            /* 1 + the largest row index taken so far (n after a crash start) */
    int crashed;            /* the first pass goes on from the crash start's sets */
    int dense_scratch;      /* from scratch on a dense A for want of a crash start (--crash auto) */
    double *guess;          /* the crash start's guess x* (n) */
    char *dropq;            /* crash: dependent rows of a block; C rows to leave; purify's flags */
    int *dep;               /* crash: the dropped rows (purification) */
    int *cand;              /* crash: the rows to clamp, in order */
    double *blk;            /* crash: (2 n + LU_BLOCK) LU_BLOCK, the blocks of crash_factor */
    lcp_crash_key *key;     /* crash: the clamped rows by decreasing load (key -load) */
    char note[200];         /* which start the pivots came from */
    lcp_monitor *mon;
    lcp_info *info;
} pv;

/* Pivot floor of row k: PIV_REG times A_kk (or the largest diagonal). */
static inline double piv_scale(const pv *W, int k)
{
    return W->diag[k] > 0 ? W->diag[k] : W->diagmax;
}

/* pivot.c.  A verdict: info's status st and message; returns -1. */
int pivot_verdict(pv *W, lcp_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* pivot.c.  One pivot done: the monitor's row, w afresh from it, x_C
 * refined where w_C drifted; non-zero: stop the solve. */
int pivot_done(pv *W, double *x);

/* pivot.c.  The monitor's check of x after ticked pivots (none counted);
 * non-zero: stop the solve. */
int pivot_check(pv *W, double *x);

/* pivot_factor.c.  v <- A_CC^-1 v (|C| entries, factor order); or its two
 * halves, v <- L^-1 v and v <- U^-1 v. */
void pivot_cc_solve(const pv *W, double *v);
void pivot_cc_solve_l(const pv *W, double *v);
void pivot_cc_solve_u(const pv *W, double *v);

/* pivot.c.  Permuted mode: the columns of Ad swapped so that positions
 * 0..|C|-1 hold C (after C changed), and cpq set; nothing otherwise. */
void pivot_perm_sync(pv *W);

/* pivot.c.  One step of iterative refinement of x on k rows whose w is 0
 * in exact arithmetic (pivot's clamped set, the small path's free block):
 * r = w_rows at x (pivot_row_w), r <- S^-1 r by solve (S: the rows' block
 * and its factor; a non-zero return: no step), x_rows -= r; kept only
 * where it lowers max |w_rows| and leaves each x within [lo, hi] (arrays
 * by row).  r, kept: k doubles of scratch.  1 where the step was kept. */
int pivot_refine_rows(const lcp_problem *p, const int *rows, int k, const double *lo, const double *hi, double *x,
                      int (*solve)(void *ctx, double *r), void *ctx, double *r, double *kept);

/* pivot_kernels.c.  y[0..nr) += sum_q coef[q] A(0..nr, cols[q]) (A
 * column-major, leading dimension ld, m columns); and a . b (n entries). */
void pivot_cols_axpy(int nr, int m, const double *A, size_t ld, const int *cols, const double *coef, double *y);
double pivot_dot(int n, const double *a, const double *b);
double pivot_dot_csr(int n, const double *a, const double *b); /* the same bits as lcp_csr_row_dot on a full row */
int pivot_symmetric(int n, const double *D); /* 1 where D (n x n) = D' exactly */
void pivot_move(int n, double *dst, const double *src); /* dst[0..n) = src[0..n), front to back (dst <= src) */
double pivot_dot_abs(int n, const double *a, const double *b, double *abs_out); /* and sum |a_r b_r| */
void pivot_axpy(int n, double s, const double *c, double *v);                   /* v -= s c */
double pivot_max_abs(int n, const double *a);
/* T v = b in place (trans 0) or T' v = b (trans 1), T lower column-major (leading dimension ld, m rows; unit
 * diagonal where unit); out[rows[r]] = A(rows[r], 0..m) v + A(rows[r], col) d (A row-major, leading dimension ld) */
void pivot_trsv(int m, const double *T, size_t ld, int trans, int unit, double *v);
void pivot_rows_dot(int m, const double *A, size_t ld, const int *rows, int nrows, const double *v, int col, double d,
                    double *out);

/* w_i = b_i + A_i x over row i's stored entries, in the residual's order
 * (a full run of 16 columns or more by pivot_dot_csr: the same bits) */
static inline double pivot_row_w(const lcp_problem *p, const double *x, int i)
{
    const int *ap = p->A.p, *aj = p->A.j, lo = ap[i], hi = ap[i + 1];
    if (hi - lo >= 16 && aj[hi - 1] - aj[lo] == hi - lo - 1) /* (sorted, no duplicates: one run of columns) */
        return p->b[i] + pivot_dot_csr(hi - lo, p->A.x + lo, x + aj[lo]);
    return p->b[i] + lcp_csr_row_dot(aj, p->A.x, x, lo, hi);
}

/* pivot_factor.c.  The verdict on a negative Schur complement d of row k
 * on the first m clamped rows (with its direction vc, vk when known);
 * returns -1. */
int pivot_negative_schur(pv *W, int k, int m, double d, const double *vc, double vk);

/* pivot_factor.c.  A_CC = L U afresh from A; 0, or -1 (a verdict). */
int pivot_refactor(pv *W);

/* pivot_factor.c.  Row k joins C (the factors bordered); row at position
 * p leaves it for state newstate (a rank-1 update).  0, or -1 (a verdict). */
int pivot_c_add(pv *W, int k);
int pivot_c_remove(pv *W, int p, int newstate);

/* pivot_crash.c.  The crash start from W->guess: 0 (W->crashed), 1 when
 * the monitor stops there, -1 when its factor fails. */
int pivot_crash(pv *W, double *x, double deadline, int *nclamp, int *ndep, int *npur, int *nout);

#endif
