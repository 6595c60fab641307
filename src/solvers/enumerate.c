/* src/solvers/enumerate.c: the complete decision of an lcp that a pivoting
 * method could not decide (Lemke's ray termination on an A that is not
 * copositive-plus, a basis it could not factor).
 *
 * The rows of an lcp fall apart into the connected components of A's
 * pattern (i ~ j where A has an entry (i, j) or (j, i);
 * lcp_problem_components, src/graph/graph.c): each component is an lcp
 * of its own, and the whole has a solution exactly when every component
 * has one.  So a problem is decided a component at a time:
 *  - a component of at most LCP_ENUM_MAX rows by implicit enumeration of
 *    its complementary bases (Murty, ch. 11: a complete branching method).
 *    A node fixes some rows to z_i = 0 (set Z) and others to w_i = 0 (set
 *    W); its relaxation is the polyhedron z >= 0, z_Z = 0, w = A z + b >= 0,
 *    w_W = 0, whose emptiness phase 1 of the simplex method decides
 *    (cone_point).  Empty: no solution has these fixings, the node is cut
 *    off.  Otherwise its vertex z is a solution when every row is
 *    complementary (z_i w_i = 0), else the node branches on the row with
 *    the largest min(z_i, w_i) into z_i = 0 and w_i = 0 -- every solution
 *    has one of the two.  A node with every row fixed is a complementary
 *    basis, so the search visits each of the 2^k bases at most once and
 *    usually cuts most of them off at a shallow node.  No solution when
 *    every node is cut off (the message states it with the rows); the
 *    first solution found is taken;
 *  - a larger one by Lemke again, on the component alone (only where the
 *    problem has more than one: a single component is the problem Lemke
 *    could not decide).
 * The tolerance of the tests is relative (ENUM_TOL of the scale of A and
 * b); a candidate is verified by the common monitor in the end, so a loose
 * acceptance cannot report a wrong "solved".  A leaf whose phase 1 ran out
 * of pivots (round-off) is counted: when no solution was found and some
 * such node was met, nothing is claimed (the problem stays undecided, with
 * that said).
 *
 * At most 2^(k+1) - 1 nodes of one phase 1 each on a (k+1) x (3k+1)
 * tableau; the time limit and the callback (polls) are honoured. */
#include "solver.h"
#include "../graph/graph.h"

extern const lcp_solver lcp_solver_lemke;

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *lda, const int *ipiv,
             double *b, const int *ldb, int *info);
void dgelsd_(const int *m, const int *n, const int *nrhs, double *a, const int *lda, double *b, const int *ldb,
             double *s, const double *rcond, int *rank, double *work, const int *lwork, int *iwork, int *info);

#define ENUM_TOL 1e-10  /* a basis's sign tests, relative to the scale of A and b */
#define SING_TOL 1e-13  /* A_SS singular when a pivot of its LU is below this times max |A| */

enum { ENUM_SOLVED = 0, ENUM_NONE, ENUM_UNDECIDED, ENUM_STOPPED, ENUM_NOMEM };

/* A node's relaxation: the polyhedron z >= 0, z_j = 0 where !var[j],
 * (A z + b)_i = 0 where eq[i], (A z + b)_i >= 0 elsewhere.  Phase 1 of the
 * simplex method on a dense tableau (rows: the k equations, a slack for
 * each row not in eq, an artificial each; Bland's rule: no cycling).
 * 1 with z (k, zero where !var) a vertex of it, 0 when it is empty, -1 when
 * the pivots ran out before the optimum (never taken as empty). */
static int cone_point(int k, const double *A, const double *b, const int *var, const int *eq, double tol,
                      double *T, int *basis, double *z)
{
    int nz = 0, col[LCP_ENUM_MAX];
    for (int j = 0; j < k; j++)
        if (var[j]) col[nz++] = j;
    int nv = nz + k + k, w = nv + 1; /* z_S, slacks (rows off S), artificials; then the right-hand side */
    memset(T, 0, (size_t)(k + 1) * w * sizeof(double));
    for (int i = 0; i < k; i++) {
        double *r = T + (size_t)i * w, sg = -b[i] < 0 ? -1.0 : 1.0;
        for (int c = 0; c < nz; c++) r[c] = sg * A[i + (size_t)col[c] * k];
        if (!eq[i]) r[nz + i] = -sg;
        r[nz + k + i] = 1.0;
        r[nv] = sg * -b[i];
        basis[i] = nz + k + i;
    }
    double *obj = T + (size_t)k * w; /* reduced costs of min sum(artificials): -(sum of the rows) */
    for (int i = 0; i < k; i++)
        for (int c = 0; c < nv + 1; c++)
            if (c < nz + k || c == nv) obj[c] -= T[(size_t)i * w + c];
    int optimal = 0;
    for (int it = 0; it < 50 * (nv + k) && !optimal; it++) {
        int e = -1;
        for (int c = 0; c < nv && e < 0; c++) /* Bland: the first improving column */
            if (obj[c] < -tol) e = c;
        if (e < 0) {
            optimal = 1;
            break;
        }
        int r = -1;
        double best = 0.0;
        for (int i = 0; i < k; i++) {
            double a = T[(size_t)i * w + e];
            if (a > tol) {
                double ratio = T[(size_t)i * w + nv] / a;
                if (r < 0 || ratio < best - tol || (ratio <= best + tol && basis[i] < basis[r])) r = i, best = ratio;
            }
        }
        if (r < 0) break; /* unbounded cannot happen in phase 1 (sum >= 0) */
        double *pr = T + (size_t)r * w, pv = pr[e];
        for (int c = 0; c <= nv; c++) pr[c] /= pv;
        for (int i = 0; i <= k; i++) {
            if (i == r) continue;
            double *ri = T + (size_t)i * w, f = ri[e];
            if (f != 0.0)
                for (int c = 0; c <= nv; c++) ri[c] -= f * pr[c];
        }
        basis[r] = e;
    }
    if (!optimal) return -1;
    if (-obj[nv] > tol * k) return 0; /* the artificials' least sum is positive: empty */
    memset(z, 0, (size_t)k * sizeof(double));
    for (int i = 0; i < k; i++)
        if (basis[i] < nz) z[col[basis[i]]] = T[(size_t)i * w + nv];
    return 1;
}

/* One component: dense column-major A (k x k) and b; z gets the answer.
 * *nodes: the nodes visited. */
static int enumerate(int k, const double *A, const double *b, double scale, double deadline, double *z,
                     long *nodes)
{
    /* the stack of open nodes: a row's state 0 free, 1 z_i = 0, 2 w_i = 0;
     * depth-first, at most k + 1 open at once (one sibling a level) */
    unsigned char *state = malloc((size_t)(k + 2) * (k > 0 ? k : 1));
    double *T = malloc((size_t)(k + 1) * (3 * k + 1) * sizeof(double)), *w = malloc((size_t)(k + 1) * sizeof(double));
    int *basis = malloc((size_t)(k + 1) * sizeof(int)), *var = malloc((size_t)(k + 1) * sizeof(int)),
        *eq = malloc((size_t)(k + 1) * sizeof(int));
    int rc = ENUM_NONE, top = 0;
    long unresolved = 0; /* leaves whose phase 1 ran out of pivots (round-off) */
    *nodes = 0;
    if (!state || !T || !w || !basis || !var || !eq) {
        rc = ENUM_NOMEM;
        goto out;
    }
    double tol = ENUM_TOL * scale, ptol = ENUM_TOL * fmax(1.0, scale);
    memset(state, 0, (size_t)k); /* the root: every row free */
    top = 1;
    while (top > 0) {
        unsigned char *st = state + (size_t)(--top) * k;
        if ((++*nodes & 0x3f) == 0 && ((deadline > 0 && lcp_now() > deadline) || lcp_monitor_poll())) {
            rc = ENUM_STOPPED;
            goto out;
        }
        for (int i = 0; i < k; i++) {
            var[i] = st[i] != 1;
            eq[i] = st[i] == 2;
        }
        int found = cone_point(k, A, b, var, eq, ptol, T, basis, z);
        if (found == 0) continue; /* empty: no solution below this node */
        int branch = -1;
        double worst = 0.0;
        if (found > 0) { /* its vertex: a solution, or the row to branch on */
            int ok = 1;
            for (int i = 0; i < k; i++) {
                w[i] = b[i];
                for (int c = 0; c < k; c++) w[i] += A[i + (size_t)c * k] * z[c];
                ok = ok && z[i] >= -tol && w[i] >= -tol && (!eq[i] || fabs(w[i]) <= tol);
                double m = fmin(z[i], w[i]);
                if (st[i] == 0 && m > tol && m > worst) worst = m, branch = i;
            }
            if (ok && branch < 0) {
                int compl = 1;
                for (int i = 0; i < k && compl; i++) compl = z[i] <= tol || fabs(w[i]) <= tol;
                if (compl) {
                    for (int i = 0; i < k; i++) z[i] = fmax(z[i], 0.0);
                    rc = ENUM_SOLVED;
                    goto out;
                }
            }
        }
        if (branch < 0) /* no vertex (pivots ran out), or one that failed its tests: the first free row */
            for (int i = 0; i < k && branch < 0; i++)
                if (st[i] == 0) branch = i;
        if (branch < 0) { /* a leaf that phase 1 could not settle */
            unresolved++;
            continue;
        }
        /* two children; the one that keeps the vertex's larger side is searched first (pushed last) */
        int first = found > 0 && z[branch] > w[branch] ? 2 : 1;
        unsigned char *c1 = state + (size_t)top * k, *c2 = state + (size_t)(top + 1) * k;
        if (c1 != st) memcpy(c1, st, (size_t)k);
        memcpy(c2, c1, (size_t)k);
        c1[branch] = (unsigned char)(3 - first);
        c2[branch] = (unsigned char)first;
        top += 2;
    }
    if (unresolved) rc = ENUM_UNDECIDED;
out:
    free(state), free(T), free(w), free(basis), free(var), free(eq);
    return rc;
}

/* The lcp of the rows rows[0..k-1] alone (their columns too: a component). */
static int sub_problem(const lcp_problem *p, const int *rows, int k, const int *local, lcp_problem *q)
{
    lcp_problem_init(q);
    long nnz = 0;
    for (int a = 0; a < k; a++) nnz += p->A.p[rows[a] + 1] - p->A.p[rows[a]];
    q->kind = LCP_KIND_LCP;
    q->n = k;
    q->blen = k;
    if (lcp_csr_alloc(&q->A, k, k, nnz) || !(q->b = lcp_alloc((size_t)(k > 0 ? k : 1), sizeof(double))))
        return -1;
    long t = 0;
    q->A.p[0] = 0;
    for (int a = 0; a < k; a++) {
        int i = rows[a];
        for (int u = p->A.p[i]; u < p->A.p[i + 1]; u++) {
            q->A.j[t] = local[p->A.j[u]];
            q->A.x[t++] = p->A.x[u];
        }
        q->A.p[a + 1] = (int)t;
        q->b[a] = p->b[i];
    }
    lcp_err e;
    return lcp_problem_finish(q, &e) ? -1 : 0;
}

int lcp_decide_by_components(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon,
                             lcp_info *info, lcp_err *err)
{
    int n = p->n;
    if (p->kind != LCP_KIND_LCP || n == 0) return 0;
    int *comp = lcp_alloc((size_t)n, sizeof(int)), *rows = lcp_alloc((size_t)n, sizeof(int)),
        *local = lcp_alloc((size_t)n, sizeof(int));
    double *z = lcp_alloc((size_t)n, sizeof(double)), *xs = lcp_alloc((size_t)n, sizeof(double));
    double *A = NULL, *bb = NULL;
    int count = comp && rows && local && z && xs ? lcp_problem_components(p, comp, NULL) : -1;
    int rc = 0, undecided = 0, enumerated = 0, largest_enum = 0;
    char why[200] = "";
    double deadline = s->time_limit > 0 ? mon->t0 + s->time_limit : 0.0;
    if (count < 0) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "lemke: out of memory (deciding by components)");
        goto out;
    }
    memcpy(xs, x, (size_t)n * sizeof(double));
    double scale = 1.0;
    for (long t = 0; t < lcp_csr_nnz(&p->A); t++) scale = fmax(scale, fabs(p->A.x[t]));
    for (int i = 0; i < n; i++) scale = fmax(scale, fabs(p->b[i]));
    for (int c = 0; c < count && !rc; c++) {
        int k = 0;
        for (int i = 0; i < n; i++)
            if (comp[i] == c) local[i] = k, rows[k++] = i;
        int verdict;
        if (k <= LCP_ENUM_MAX) {
            free(A), free(bb);
            A = calloc((size_t)k * k, sizeof(double));
            bb = malloc((size_t)k * sizeof(double));
            if (!A || !bb) {
                rc = lcp_fail(err, LCP_ERROR, NULL, 0, "lemke: out of memory (deciding by components)");
                break;
            }
            for (int a = 0; a < k; a++) {
                bb[a] = p->b[rows[a]];
                for (int u = p->A.p[rows[a]]; u < p->A.p[rows[a] + 1]; u++)
                    A[a + (size_t)local[p->A.j[u]] * k] += p->A.x[u];
            }
            long nd = 0;
            verdict = enumerate(k, A, bb, scale, deadline, z, &nd);
            enumerated++;
            largest_enum = k > largest_enum ? k : largest_enum;
            if (verdict == ENUM_NOMEM) {
                rc = lcp_fail(err, LCP_ERROR, NULL, 0, "lemke: out of memory (enumerating %d rows)", k);
                break;
            }
            if (verdict == ENUM_SOLVED)
                for (int a = 0; a < k; a++) xs[rows[a]] = z[a];
            if (verdict == ENUM_NONE) {
                int len = snprintf(info->message, sizeof info->message,
                                   "no solution: the %d row%s ", k, k > 1 ? "s" : "");
                for (int a = 0; a < k && a < 8 && len < 120; a++)
                    len += snprintf(info->message + len, sizeof info->message - (size_t)len, "%s%d", a ? ", " : "",
                                    rows[a] + 1);
                snprintf(info->message + len, sizeof info->message - (size_t)len,
                         "%s (a component of A, coupled to no other row) admit none of their %ld complementary "
                         "bases: no z >= 0 with w = A z + b >= 0 and z'w = 0 there (complete enumeration, %ld nodes)",
                         k > 8 ? ", ..." : "", 1L << k, nd);
                info->status = LCP_NO_SOLUTION;
                memcpy(x, xs, (size_t)n * sizeof(double));
                goto out;
            }
            if (verdict == ENUM_STOPPED) {
                snprintf(why, sizeof why, "the enumeration of a %d-row component was stopped (time limit or callback)", k);
                undecided = 1;
                break;
            }
            if (verdict == ENUM_UNDECIDED) {
                snprintf(why, sizeof why, "the enumeration of a %d-row component met bases that round-off left "
                         "unsettled (%ld nodes)", k, nd);
                undecided = 1;
            }
        } else if (count > 1) { /* Lemke again, on the component alone */
            lcp_problem q;
            lcp_monitor m2;
            lcp_settings s2;
            lcp_info i2 = {.status = LCP_MAX_ITER};
            s2 = *s;
            lcp_settings_inner(&s2, s);
            s2.lemke.cover = NULL; /* the whole problem's (n entries) */
            if (deadline > 0) s2.time_limit = fmax(deadline - lcp_now(), 1e-3);
            if (sub_problem(p, rows, k, local, &q) || lcp_monitor_init(&m2, &q, &s2, NULL)) {
                lcp_problem_free(&q);
                rc = lcp_fail(err, LCP_ERROR, NULL, 0, "lemke: out of memory (a component of %d rows)", k);
                break;
            }
            for (int a = 0; a < k; a++) z[a] = 0.0;
            rc = lcp_solver_lemke.solve(&q, &s2, z, &m2, &i2, err);
            lcp_status st = i2.status != LCP_MAX_ITER ? i2.status : m2.status;
            if (!rc && st == LCP_SOLVED) {
                for (int a = 0; a < k; a++) xs[rows[a]] = m2.best_x ? m2.best_x[a] : z[a];
            } else if (!rc && st == LCP_NO_SOLUTION) {
                snprintf(info->message, sizeof info->message, "no solution: a component of %d rows (row %d ...): %.150s",
                         k, rows[0] + 1, i2.message);
                info->status = LCP_NO_SOLUTION;
                lcp_monitor_free(&m2);
                lcp_problem_free(&q);
                goto out;
            } else if (!rc) {
                snprintf(why, sizeof why, "a component of %d rows stays undecided (%.120s)", k,
                         *i2.message ? i2.message : lcp_status_name(st));
                undecided = 1;
            }
            lcp_monitor_free(&m2);
            lcp_problem_free(&q);
        } else {
            snprintf(why, sizeof why, "one component of %d rows, over the %d of complete enumeration", k, LCP_ENUM_MAX);
            undecided = 1;
        }
    }
    if (rc) goto out;
    if (undecided) { /* the verdict stays Lemke's, with what was tried */
        size_t len = strlen(info->message);
        snprintf(info->message + len, sizeof info->message - len, "; by components: %.160s", why);
        goto out;
    }
    /* every component solved: the answer, for the monitor to verify */
    memcpy(x, xs, (size_t)n * sizeof(double));
    info->status = LCP_MAX_ITER; /* the monitor decides */
    snprintf(info->message, sizeof info->message,
             "lemke could not decide the whole; decided by its %d component%s (%d by complete enumeration, the "
             "largest %d rows)", count, count > 1 ? "s" : "", enumerated, largest_enum);
    lcp_monitor_step(mon, info->iterations, x, NULL);
out:
    free(comp), free(rows), free(local), free(z), free(xs), free(A), free(bb);
    return rc;
}
