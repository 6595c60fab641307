/* src/solvers/si.c: sequential impulses, as game engines run them (Catto,
 * "Iterative dynamics with temporal coherence", GDC 2005, and Box2D; Bullet's
 * btSequentialImpulseConstraintSolver), for lcp and blcp problems given in
 * factored form (M, J, v[, e]): A = J M^-1 J', b = J v + e (DESIGN.md).
 *
 * The solver works on the body velocities, never on A:
 *     u = v + M^-1 J' lambda                       (nb: the bodies' velocities)
 * and one sweep visits the contact rows i = 0..n-1 in order:
 *     c_i      = j_i u + e_i                       (the row's relative velocity = w_i)
 *     lambda_i <- mid(lo_i, lambda_i - c_i / A_ii, hi_i)   (the ACCUMULATED impulse clamped)
 *     u       += (lambda_i new - lambda_i old) M^-1 j_i'
 * with lo = 0, hi = +inf for lcp; the box, and findex friction bounds
 * +-mu_i |lambda_j| at the current lambda, for blcp.  A_ii = j_i M^-1 j_i'
 * is the row's effective mass (inverse), formed once.  In exact arithmetic
 * the iterates are those of pgs on A (omega 1); the cost of a row is
 * nnz(j_i) + nnz(M^-1 j_i') instead of nnz(A_i), and nothing of size
 * nnz(A) is ever formed or read.
 *
 * M^-1 j_i': the rows of Y = (M^-1 J')' (n x nb), computed once: M is
 * split into the components of its graph (the bodies' blocks), each block
 * inverted densely (Cholesky), and row i of Y is those inverses applied to
 * the parts of j_i on the blocks it touches (O(nnz(J) k) for blocks of k
 * columns); a block of more than BLOCK_MAX = 64 columns (M not
 * block-diagonal) makes it take X = M \ J' from a CHOLMOD factorisation.
 * e: taken as b - J v, so that a problem whose folder gives both A, b and
 * M, J, v solves the b the residual is measured with.  The starting lambda (zeros, or --warm-start
 * scaled by --warm-factor and --dt-ratio in main.c) gives u = v + Y' lambda.
 * u is recomputed from lambda every REFRESH sweeps, so that rounding in the
 * incremental updates does not pile up over long runs.
 *
 * Stopping: the monitor (the residual of DESIGN.md, from A x + b) decides
 * "solved".  The solver also stops on its own when a whole sweep changed
 * every impulse by less than the tolerance in the residual's units:
 * max_i A_ii |dlambda_i| <= tol max(1, ||b||_inf) / 100 (the change of the
 * row's velocity an impulse change makes; a stagnating sweep), with a note
 * in info->message; the status is then the monitor's (max_iter, exit 1,
 * unless the residual is below tol).  Trace column: max_dlambda, the
 * largest |dlambda_i| of the sweep (impulse units).
 *
 * Refused (exit 2): problems given as A only (no M, J, v: use pgs, the same
 * iteration on A), a zero row of J (A_ii = 0), an M CHOLMOD cannot factor.
 * Friction kinds (ccp, fc3d) are not taken: the registry refuses them.
 */
#include "solver.h"
#include "../suitesparse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {"max_dlambda", NULL};

#define REFRESH 128 /* sweeps between recomputations of u from lambda */

/* Y = (M \ J')' through CHOLMOD (any SPD M): X = M \ J' column by column
 * costs O(n nb); used only when M has a block larger than BLOCK_MAX. */
static int form_Y_cholmod(const lcp_problem *p, lcp_csr *Y, lcp_err *err)
{
    cholmod_common c;
    lcp_cholmod_start(&c);
    cholmod_sparse Mt = lcp_csr_as_cholmod(&p->M, 0);
    cholmod_sparse Jt = lcp_csr_as_cholmod(&p->J, 0); /* J' (nb x n) */
    cholmod_sparse *Ml = cholmod_copy(&Mt, -1, 1, &c);
    cholmod_factor *L = NULL;
    cholmod_sparse *X = NULL;
    int rc = 0;
    if (!Ml) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "si: out of memory factoring M");
        goto done;
    }
    L = cholmod_analyze(Ml, &c);
    if (L) cholmod_factorize(Ml, L, &c);
    if (!L || c.status == CHOLMOD_NOT_POSDEF || L->minor < L->n) {
        rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "si: the mass matrix M is not positive definite");
        goto done;
    }
    X = cholmod_spsolve(CHOLMOD_A, L, &Jt, &c); /* nb x n: column i = M^-1 j_i' */
    if (!X || !X->packed || X->xtype != CHOLMOD_REAL) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "si: cannot form M^-1 J' (out of memory)");
        goto done;
    }
    {
        lcp_csr T; /* the CSC of X is the CSR of X' = Y */
        T.m = (int)X->ncol;
        T.n = (int)X->nrow;
        T.p = X->p;
        T.j = X->i;
        T.x = X->x;
        if (lcp_csr_copy(Y, &T)) rc = lcp_fail(err, LCP_ERROR, NULL, 0, "si: out of memory");
    }
done:
    cholmod_free_sparse(&Ml, &c);
    cholmod_free_sparse(&X, &c);
    cholmod_free_factor(&L, &c);
    cholmod_finish(&c);
    return rc;
}

/* In place inverse of the SPD k x k matrix a (row-major, symmetric) by
 * Cholesky a = L L', then a^-1 = L^-T L^-1 column by column; non-zero if
 * a is not positive definite. */
static int spd_inverse(int k, double *a, double *work)
{
    double *L = work, *col = work + (size_t)k * k;
    for (int i = 0; i < k; i++)
        for (int j = 0; j <= i; j++) {
            double sum = a[i * k + j];
            for (int q = 0; q < j; q++) sum -= L[i * k + q] * L[j * k + q];
            if (i == j) {
                if (!(sum > 0)) return 1;
                L[i * k + i] = sqrt(sum);
            } else {
                L[i * k + j] = sum / L[j * k + j];
            }
        }
    for (int c = 0; c < k; c++) {
        for (int i = 0; i < k; i++) { /* L y = e_c */
            double sum = i == c ? 1.0 : 0.0;
            for (int q = 0; q < i; q++) sum -= L[i * k + q] * col[q];
            col[i] = sum / L[i * k + i];
        }
        for (int i = k - 1; i >= 0; i--) { /* L' z = y */
            double sum = col[i];
            for (int q = i + 1; q < k; q++) sum -= L[q * k + i] * col[q];
            col[i] = sum / L[i * k + i];
        }
        for (int i = 0; i < k; i++) a[i * k + c] = col[i];
    }
    return 0;
}

/* Y = (M^-1 J')' (n x nb CSR, owned).  M block-diagonal (its graph's
 * components: the bodies, usually 6 x 6 or diagonal): one dense inverse a
 * block, and row i of Y = the blocks' inverses times the parts of j_i on
 * the blocks it touches, O(nnz(J) k).  A block above BLOCK_MAX columns
 * (M not block-diagonal in the bodies' sense) takes CHOLMOD instead. */
#define BLOCK_MAX 64
static int form_Y(const lcp_problem *p, lcp_csr *Y, lcp_err *err)
{
    int nb = p->M.m, n = p->J.m, rc = 0;
    const int *mp = p->M.p, *mj = p->M.j;
    memset(Y, 0, sizeof *Y);
    int *comp = lcp_alloc((size_t)nb, sizeof(int)), *bptr = lcp_alloc((size_t)nb + 1, sizeof(int));
    int *cols = lcp_alloc((size_t)nb, sizeof(int)), *posn = lcp_alloc((size_t)nb, sizeof(int));
    int *stamp = lcp_alloc((size_t)nb, sizeof(int));
    long *boff = lcp_alloc((size_t)nb + 1, sizeof(long));
    double *inv = NULL, *work = NULL, *jb = NULL;
    if (!comp || !bptr || !cols || !posn || !stamp || !boff) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "si: out of memory");
        goto done;
    }
    /* components of M's graph, by breadth-first search: cols[bptr[b]..] */
    for (int c = 0; c < nb; c++) comp[c] = -1;
    int nblk = 0, top = 0, kmax = 0;
    long isize = 0;
    for (int c0 = 0; c0 < nb; c0++) {
        if (comp[c0] >= 0) continue;
        bptr[nblk] = top;
        comp[c0] = nblk;
        cols[top++] = c0;
        for (int h = bptr[nblk]; h < top; h++)
            for (int e = mp[cols[h]]; e < mp[cols[h] + 1]; e++)
                if (comp[mj[e]] < 0) {
                    comp[mj[e]] = nblk;
                    cols[top++] = mj[e];
                }
        int k = top - bptr[nblk];
        if (k > BLOCK_MAX) {
            rc = form_Y_cholmod(p, Y, err);
            goto done;
        }
        for (int h = bptr[nblk]; h < top; h++) posn[cols[h]] = h - bptr[nblk];
        boff[nblk] = isize;
        isize += (long)k * k;
        kmax = k > kmax ? k : kmax;
        nblk++;
    }
    bptr[nblk] = top;
    boff[nblk] = isize;
    inv = lcp_calloc((size_t)(isize ? isize : 1), sizeof(double));
    work = lcp_alloc((size_t)kmax * (kmax + 1) + 1, sizeof(double));
    jb = lcp_calloc((size_t)kmax + 1, sizeof(double));
    if (!inv || !work || !jb) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "si: out of memory");
        goto done;
    }
    for (int b = 0; b < nblk; b++) {
        int k = bptr[b + 1] - bptr[b];
        double *a = inv + boff[b];
        for (int h = 0; h < k; h++) {
            int r = cols[bptr[b] + h];
            for (int e = mp[r]; e < mp[r + 1]; e++) a[h * k + posn[mj[e]]] = p->M.x[e];
        }
        if (spd_inverse(k, a, work)) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                          "si: the mass matrix M is not positive definite (its block at column %d)",
                          cols[bptr[b]] + 1);
            goto done;
        }
    }
    /* rows of Y: count, then fill */
    long nnz = 0;
    for (int c = 0; c < nb; c++) stamp[c] = -1;
    for (int i = 0; i < n; i++)
        for (int e = p->J.p[i]; e < p->J.p[i + 1]; e++) {
            int b = comp[p->J.j[e]];
            if (stamp[b] == i) continue;
            stamp[b] = i;
            nnz += bptr[b + 1] - bptr[b];
        }
    if (nnz > 2147483647L || lcp_csr_alloc(Y, n, nb, nnz)) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "si: out of memory for M^-1 J'");
        goto done;
    }
    for (int c = 0; c < nb; c++) stamp[c] = -1;
    long q = 0;
    for (int i = 0; i < n; i++) {
        Y->p[i] = (int)q;
        for (int e0 = p->J.p[i]; e0 < p->J.p[i + 1]; e0++) {
            int b = comp[p->J.j[e0]];
            if (stamp[b] == i) continue;
            stamp[b] = i;
            int k = bptr[b + 1] - bptr[b];
            const double *a = inv + boff[b];
            for (int e = p->J.p[i]; e < p->J.p[i + 1]; e++) /* j_i on block b */
                if (comp[p->J.j[e]] == b) jb[posn[p->J.j[e]]] += p->J.x[e];
            for (int h = 0; h < k; h++) {
                double sum = 0.0;
                for (int g = 0; g < k; g++) sum += a[h * k + g] * jb[g];
                Y->j[q] = cols[bptr[b] + h];
                Y->x[q++] = sum;
            }
            for (int g = 0; g < k; g++) jb[g] = 0.0;
        }
    }
    Y->p[n] = (int)q;
done:
    free(comp);
    free(bptr);
    free(cols);
    free(posn);
    free(stamp);
    free(boff);
    free(inv);
    free(work);
    free(jb);
    return rc;
}

/* u = v + Y' x */
static void body_velocity(const lcp_problem *p, const lcp_csr *Y, const double *x, double *u)
{
    int nb = p->M.m;
    memcpy(u, p->v, (size_t)nb * sizeof(double));
    for (int i = 0; i < Y->m; i++) {
        if (x[i] == 0.0) continue;
        for (int k = Y->p[i]; k < Y->p[i + 1]; k++) u[Y->j[k]] += Y->x[k] * x[i];
    }
}

static int si_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                    lcp_err *err)
{
    if (!p->M.p || !p->J.p || !p->v)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                        "si needs the factored form (M, J, v: -M -J -v or M.mtx J.mtx v.mtx), this problem gives "
                        "only A; use -s pgs, the same iteration on A");
    if (p->J.m != p->n || p->J.n != p->M.m)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "si: J is %d x %d, but A is %d x %d and M %d x %d", p->J.m,
                        p->J.n, p->n, p->n, p->M.m, p->M.n);
    int n = p->n, nb = p->M.m, rc;
    lcp_csr Y;
    if ((rc = form_Y(p, &Y, err))) return rc;
    double *aii = lcp_alloc((size_t)n, sizeof(double));
    double *ainv = lcp_alloc((size_t)n, sizeof(double));
    double *ebar = lcp_alloc((size_t)n, sizeof(double));
    double *u = lcp_alloc((size_t)nb, sizeof(double));
    double *work = lcp_calloc((size_t)nb, sizeof(double));
    if (!aii || !ainv || !ebar || !u || !work) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "si: out of memory");
        goto done;
    }
    const int *jp = p->J.p, *jj = p->J.j, *yp = Y.p, *yj = Y.j;
    const double *jx = p->J.x, *yx = Y.x;
    /* effective masses A_ii = j_i . (M^-1 j_i') and ebar = b - J v */
    for (int i = 0; i < n; i++) {
        for (int k = yp[i]; k < yp[i + 1]; k++) work[yj[k]] = yx[k];
        double a = 0.0, jv = 0.0;
        for (int k = jp[i]; k < jp[i + 1]; k++) {
            a += jx[k] * work[jj[k]];
            jv += jx[k] * p->v[jj[k]];
        }
        for (int k = yp[i]; k < yp[i + 1]; k++) work[yj[k]] = 0.0;
        if (!(a > 0.0)) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                          "si needs j_i M^-1 j_i' > 0 for every row, but row %d of J gives %g (a zero row of J?)",
                          i + 1, a);
            goto done;
        }
        aii[i] = a;
        ainv[i] = 1.0 / a;
        ebar[i] = p->b[i] - jv;
    }
    double bmax = 1.0;
    for (int i = 0; i < n; i++) bmax = fmax(bmax, fabs(p->b[i]));
    const double stall = 1e-2 * s->tol * bmax;
    int box = p->kind == LCP_KIND_BLCP;

    body_velocity(p, &Y, x, u);
    double dmax = 0.0;
    if (!lcp_monitor_step(mon, 0, x, &dmax)) {
        for (int it = 1;; it++) {
            double dvel = 0.0;
            dmax = 0.0;
            if (it % REFRESH == 0) body_velocity(p, &Y, x, u);
            for (int i = 0; i < n; i++) {
                double c = ebar[i];
                for (int k = jp[i]; k < jp[i + 1]; k++) c += jx[k] * u[jj[k]];
                double xi = x[i] - c * ainv[i];
                if (box) {
                    double lo, hi;
                    lcp_problem_bounds(p, x, i, &lo, &hi);
                    xi = fmin(fmax(xi, lo), hi);
                } else if (xi < 0.0) {
                    xi = 0.0;
                }
                double d = xi - x[i];
                if (d == 0.0) continue;
                x[i] = xi;
                for (int k = yp[i]; k < yp[i + 1]; k++) u[yj[k]] += d * yx[k];
                dmax = fmax(dmax, fabs(d));
                dvel = fmax(dvel, fabs(d) * aii[i]);
            }
            if (lcp_monitor_step(mon, it, x, &dmax)) break;
            if (dvel <= stall) {
                snprintf(info->message, sizeof info->message,
                         "si stopped: the impulse changes of sweep %d are below tol (max A_ii |dlambda| = %.3g), "
                         "residual %.3g",
                         it, dvel, mon->last.residual);
                break;
            }
        }
    }
    info->iterations = mon->iter;
done:
    lcp_csr_free(&Y);
    free(aii);
    free(ainv);
    free(ebar);
    free(u);
    free(work);
    return rc;
}

const lcp_solver lcp_solver_si = {"si",
                                  "sequential impulses on body velocities (factored form M, J, v; Box2D/Bullet)",
                                  LCP_KIND_LCP | LCP_KIND_BLCP, columns, si_solve, NULL};
