/* src/scenes/rigid.c: a rigid-body scene's problem (the bodies and contacts
 * of src/scenes/geometry.c): the factored form M (6x6 a body), J (the
 * contact Jacobian, in each contact's frame), v (the free velocity after
 * one gravity step), and the assembled A = J M^-1 J' (exactly symmetric),
 * b = J v. */
#include "builders.h"

#include "../core/common.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* C = X Y by Gustavson's row-by-row product.  With sym, only C(i,j) for
 * j >= i is computed and mirrored to C(j,i): C is then exactly symmetric
 * (bit for bit), as X Y is in exact arithmetic for X Y = J M^-1 J'.  Exact
 * zeros off the diagonal are dropped. */
static int spgemm(const lcp_csr *X, const lcp_csr *Y, int sym, lcp_csr *C)
{
    int m = X->m, n = Y->n;
    double *acc = lcp_calloc((size_t)n, sizeof *acc);
    int *mark = lcp_alloc((size_t)n, sizeof *mark);
    int *cols = lcp_alloc((size_t)n, sizeof *cols);
    triplets t = {0};
    int rc = LCP_ERROR;
    if (!acc || !mark || !cols) goto done;
    for (int c = 0; c < n; c++) mark[c] = -1;
    for (int i = 0; i < m; i++) {
        int len = 0;
        for (int kk = X->p[i]; kk < X->p[i + 1]; kk++) {
            int k = X->j[kk];
            double xv = X->x[kk];
            for (int jj = Y->p[k]; jj < Y->p[k + 1]; jj++) {
                int c = Y->j[jj];
                if (sym && c < i) continue;
                if (mark[c] != i) {
                    mark[c] = i;
                    acc[c] = 0.0;
                    cols[len++] = c;
                }
                acc[c] += xv * Y->x[jj];
            }
        }
        for (int q = 0; q < len; q++) {
            int c = cols[q];
            if (acc[c] == 0.0 && !(sym && c == i)) continue;
            if (lcp_trip_push(&t, i, c, acc[c])) goto done;
            if (sym && c != i && lcp_trip_push(&t, c, i, acc[c])) goto done;
        }
    }
    rc = lcp_trip_to_csr(&t, m, n, C);
done:
    lcp_trip_free(&t);
    free(acc);
    free(mark);
    free(cols);
    return rc;
}

/* Orthonormal contact frame (n, t1, t2), right-handed: t1 is the unit axis
 * least aligned with n made orthogonal to n, t2 = n x t1.  For n = +z this is
 * t1 = +x, t2 = +y. */
static void contact_frame(const double *n, double *t1, double *t2)
{
    int a = 0;
    for (int k = 1; k < 3; k++)
        if (fabs(n[k]) < fabs(n[a])) a = k;
    double e[3] = {0.0, 0.0, 0.0};
    e[a] = 1.0;
    double en = n[a];
    for (int k = 0; k < 3; k++) t1[k] = e[k] - en * n[k];
    double l = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
    for (int k = 0; k < 3; k++) t1[k] /= l;
    cross(n, t1, t2);
}

/* Inverse of a symmetric positive definite 3x3 matrix by the adjugate. */
static int inv3(const double *I, double *Ii)
{
    double c00 = I[4] * I[8] - I[5] * I[7], c01 = I[5] * I[6] - I[3] * I[8],
           c02 = I[3] * I[7] - I[4] * I[6];
    double det = I[0] * c00 + I[1] * c01 + I[2] * c02;
    if (!(det > 0.0) || !isfinite(det)) return LCP_ERROR;
    Ii[0] = c00 / det;
    Ii[1] = (I[2] * I[7] - I[1] * I[8]) / det;
    Ii[2] = (I[1] * I[5] - I[2] * I[4]) / det;
    Ii[3] = c01 / det;
    Ii[4] = (I[0] * I[8] - I[2] * I[6]) / det;
    Ii[5] = (I[2] * I[3] - I[0] * I[5]) / det;
    Ii[6] = c02 / det;
    Ii[7] = (I[1] * I[6] - I[0] * I[7]) / det;
    Ii[8] = (I[0] * I[4] - I[1] * I[3]) / det;
    return 0;
}

/* One Jacobian row: the relative velocity of body b with respect to body a
 * at the contact point p along the unit direction dir,
 *   (v_b + w_b x (p - x_b)) . dir - (v_a + w_a x (p - x_a)) . dir,
 * and since (w x r) . dir = w . (r x dir) the row is
 *   body a: [ -dir, -(p - x_a) x dir ],   body b: [ dir, (p - x_b) x dir ].
 * The static ground has no columns.  For dir = n the row is the normal gap
 * velocity (positive: separating); for dir = t1, t2 the sliding velocity. */
static int jacobian_row(const rb_scene *s, const rb_contact *C, const double *dir, int row,
                        triplets *t)
{
    const int who[2] = {C->a, C->b};
    const double sign[2] = {-1.0, 1.0};
    for (int q = 0; q < 2; q++) {
        if (who[q] < 0) continue; /* the ground */
        const rb_body *B = &s->body[who[q]];
        double r[3], rxd[3];
        for (int k = 0; k < 3; k++) r[k] = C->p[k] - B->x[k]; /* lever arm */
        cross(r, dir, rxd);
        int c0 = 6 * who[q];
        for (int k = 0; k < 3; k++) {
            double lin = sign[q] * dir[k], ang = sign[q] * rxd[k];
            if (lin != 0.0 && lcp_trip_push(t, row, c0 + k, lin)) return LCP_ERROR;
            if (ang != 0.0 && lcp_trip_push(t, row, c0 + 3 + k, ang)) return LCP_ERROR;
        }
    }
    return 0;
}

/* The factored and assembled forms of a rigid-body scene:
 *   M = blockdiag(m_k I3, I_k)              6 nb x 6 nb
 *   J: rpc rows a contact (normal[, t1, t2])  n x 6 nb
 *   v = v0 + dt M^-1 f_ext, v0 = 0 (the stack at rest), f_ext = m_k g (0,0,-1)
 *   A = J M^-1 J' (symmetric positive semidefinite), b = J v. */
int lcp_gen_build_rigid(const gen_params *g, const rb_scene *s, int friction, gen_result *res)
{
    int nb = s->nb, nv = 6 * s->nb, rpc = friction ? 3 : 1;
    long nrows = (long)rpc * s->nc;
    if (nrows > INT_MAX / 2 || (long)nv > INT_MAX / 2) return LCP_ERROR;
    int n = (int)nrows;
    triplets tm = {0}, tmi = {0}, tj = {0};
    lcp_csr Minv = {0}, Jt = {0}, W = {0};
    double *f = NULL;
    int rc = LCP_ERROR;

    /* M and M^-1, block by block */
    for (int k = 0; k < nb; k++) {
        const rb_body *B = &s->body[k];
        double Ii[9];
        if (inv3(B->I, Ii)) goto done;
        for (int q = 0; q < 3; q++) {
            if (lcp_trip_push(&tm, 6 * k + q, 6 * k + q, B->m)) goto done;
            if (lcp_trip_push(&tmi, 6 * k + q, 6 * k + q, 1.0 / B->m)) goto done;
        }
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
                if (B->I[3 * r + c] != 0.0 &&
                    lcp_trip_push(&tm, 6 * k + 3 + r, 6 * k + 3 + c, B->I[3 * r + c]))
                    goto done;
                if (Ii[3 * r + c] != 0.0 &&
                    lcp_trip_push(&tmi, 6 * k + 3 + r, 6 * k + 3 + c, Ii[3 * r + c]))
                    goto done;
            }
    }
    if (lcp_trip_to_csr(&tm, nv, nv, &res->M) || lcp_trip_to_csr(&tmi, nv, nv, &Minv)) goto done;

    /* J, contact-major: rows rpc*i (normal), rpc*i+1 (t1), rpc*i+2 (t2) */
    for (int i = 0; i < s->nc; i++) {
        const rb_contact *C = &s->con[i];
        double t1[3], t2[3];
        contact_frame(C->n, t1, t2);
        const double *dirs[3] = {C->n, t1, t2};
        for (int q = 0; q < rpc; q++)
            if (jacobian_row(s, C, dirs[q], rpc * i + q, &tj)) goto done;
    }
    if (lcp_trip_to_csr(&tj, n, nv, &res->J)) goto done;

    /* v = dt M^-1 f_ext: gravity, no applied torque (gyroscopic terms vanish at rest) */
    f = lcp_calloc((size_t)nv, sizeof *f);
    res->v = lcp_alloc((size_t)nv, sizeof *res->v);
    res->b = lcp_alloc((size_t)n, sizeof *res->b);
    if (!f || !res->v || !res->b) goto done;
    for (int k = 0; k < nb; k++) f[6 * k + 2] = -s->body[k].m * g->gravity;
    lcp_csr_matvec(&Minv, f, res->v);
    for (int k = 0; k < nv; k++) res->v[k] *= g->dt;

    /* A = (J M^-1) J', upper triangle mirrored; b = J v */
    if (spgemm(&res->J, &Minv, 0, &W)) goto done;
    if (lcp_csr_transpose(&res->J, &Jt)) goto done;
    if (spgemm(&W, &Jt, 1, &res->A)) goto done;
    lcp_csr_matvec(&res->J, res->v, res->b);

    if (friction) {
        res->mu = lcp_alloc((size_t)s->nc, sizeof *res->mu);
        if (!res->mu) goto done;
        for (int i = 0; i < s->nc; i++) res->mu[i] = g->mu;
    }
    res->n = n;
    res->nbodies = nb;
    res->ncontacts = s->nc;
    res->kind = friction ? g->kind : "lcp";
    rc = 0;
done:
    lcp_trip_free(&tm);
    lcp_trip_free(&tmi);
    lcp_trip_free(&tj);
    lcp_csr_free(&Minv);
    lcp_csr_free(&Jt);
    lcp_csr_free(&W);
    free(f);
    return rc;
}
