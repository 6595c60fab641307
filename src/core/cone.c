/* src/core/cone.c: pyramid approximations of friction cones; see cone.h. */
#include "cone.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TWO_PI 6.28318530717958647692

int lcp_cone_parse(const char *s, int *K, lcp_err *err)
{
    const char *pre = "pyramid:";
    if (strncmp(s, pre, strlen(pre)))
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--cone: '%s' must be pyramid:K (K >= 3 facets)", s);
    char *end;
    errno = 0;
    long k = strtol(s + strlen(pre), &end, 10);
    if (end == s + strlen(pre) || *end || errno || k < 3 || k > 64)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--cone: '%s': K must be an integer from 3 to 64", s);
    *K = (int)k;
    return 0;
}

static int copy_common(const lcp_problem *src, lcp_problem *dst, lcp_kind kind, lcp_err *err)
{
    lcp_problem_init(dst);
    dst->kind = kind;
    dst->source = lcp_strdup(src->source ? src->source : "-");
    dst->format = lcp_strdup(src->format ? src->format : "-");
    if (!dst->source || !dst->format) return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    return 0;
}

/* The box LCP: A and b as they are, findex friction rows. */
static int to_box(const lcp_problem *src, lcp_problem *dst, lcp_err *err)
{
    int n = src->n, rc;
    if ((rc = copy_common(src, dst, LCP_KIND_BLCP, err))) return rc;
    dst->b = lcp_alloc((size_t)n, sizeof(double));
    dst->findex = lcp_alloc((size_t)n, sizeof(int));
    dst->mu = lcp_alloc((size_t)n, sizeof(double));
    if (!dst->b || !dst->findex || !dst->mu || lcp_csr_copy(&dst->A, &src->A))
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (pyramid:4, n = %d)", n);
    memcpy(dst->b, src->b, (size_t)n * sizeof(double));
    dst->blen = dst->findexlen = dst->nmu = n;
    for (int i = 0; i < src->nc; i++) {
        dst->findex[3 * i] = -1;                                   /* normal: [0, inf) */
        dst->findex[3 * i + 1] = dst->findex[3 * i + 2] = 3 * i;   /* tangents: +-mu r_n */
        dst->mu[3 * i] = 0.0;
        dst->mu[3 * i + 1] = dst->mu[3 * i + 2] = src->mu[i];
    }
    return lcp_problem_finish(dst, err);
}

/* The Stewart-Trinkle lcp (cone.h). */
static int to_stewart_trinkle(const lcp_problem *src, int K, lcp_problem *dst, lcp_err *err)
{
    int nc = src->nc, B = K + 2, N = nc * B, rc;
    if ((rc = copy_common(src, dst, LCP_KIND_LCP, err))) return rc;
    double *c = lcp_alloc((size_t)K, sizeof(double)), *sn = lcp_alloc((size_t)K, sizeof(double));
    long nnzA = lcp_csr_nnz(&src->A), cap = nnzA * (long)K * K + 3L * K * nc + nc + 1;
    int *ti = lcp_alloc((size_t)cap, sizeof(int)), *tj = lcp_alloc((size_t)cap, sizeof(int));
    double *tx = lcp_alloc((size_t)cap, sizeof(double));
    dst->b = lcp_calloc((size_t)N, sizeof(double));
    dst->blen = N;
    if (!c || !sn || !ti || !tj || !tx || !dst->b) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (pyramid:%d, %ld entries)", K, cap);
        goto done;
    }
    for (int k = 0; k < K; k++) {
        c[k] = cos(TWO_PI * k / K);
        sn[k] = sin(TWO_PI * k / K);
    }
    long nz = 0;
    const lcp_csr *A = &src->A;
    for (int row = 0; row < src->n; row++) {                       /* E' W E, entry by entry of W */
        int i = row / 3, a = row % 3;
        for (int e = A->p[row]; e < A->p[row + 1]; e++) {
            int col = A->j[e], j = col / 3, cc = col % 3;
            double v = A->x[e];
            for (int p = 0; p < (a ? K : 1); p++) {
                double ea = a == 0 ? 1.0 : a == 1 ? c[p] : sn[p];  /* E[a][p'] */
                int I = i * B + (a ? 1 + p : 0);
                for (int q = 0; q < (cc ? K : 1); q++) {
                    double ec = cc == 0 ? 1.0 : cc == 1 ? c[q] : sn[q];
                    ti[nz] = I;
                    tj[nz] = j * B + (cc ? 1 + q : 0);
                    tx[nz++] = ea * v * ec;
                }
            }
        }
    }
    for (int i = 0; i < nc; i++) {
        int base = i * B, g = base + K + 1;
        const double *q = src->b + 3 * i;
        dst->b[base] = q[0];
        for (int k = 0; k < K; k++) {
            dst->b[base + 1 + k] = c[k] * q[1] + sn[k] * q[2];     /* D' q_T */
            ti[nz] = base + 1 + k, tj[nz] = g, tx[nz++] = 1.0;     /* + gamma */
            ti[nz] = g, tj[nz] = base + 1 + k, tx[nz++] = -1.0;    /* - e' beta */
        }
        ti[nz] = g, tj[nz] = base, tx[nz++] = src->mu[i];          /* mu lambda_n */
    }
    if ((rc = lcp_csr_from_triplets(&dst->A, N, N, nz, ti, tj, tx))) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "pyramid:%d: cannot build the Stewart-Trinkle matrix", K);
        goto done;
    }
    rc = lcp_problem_finish(dst, err);
done:
    free(c);
    free(sn);
    free(ti);
    free(tj);
    free(tx);
    return rc;
}

int lcp_cone_convert(const lcp_problem *src, lcp_cone_form form, int K, lcp_problem *dst, lcp_err *err)
{
    if (!(src->kind & LCP_KIND_FRICTION))
        return lcp_fail(err, LCP_INPUT_ERROR, src->source, 0,
                        "--cone approximates friction cones: it needs a ccp or fc3d problem, not %s",
                        lcp_kind_name(src->kind));
    if (form == LCP_CONE_BOX) {
        if (K != 4) return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--cone: the box form needs K = 4");
        return to_box(src, dst, err);
    }
    return to_stewart_trinkle(src, K, dst, err);
}

void lcp_cone_map_back(const lcp_problem *src, lcp_cone_form form, int K, const double *x, double *r)
{
    if (form == LCP_CONE_BOX) {
        memcpy(r, x, (size_t)src->n * sizeof(double));
        return;
    }
    int B = K + 2;
    for (int i = 0; i < src->nc; i++) {
        const double *xi = x + i * B;
        double t1 = 0.0, t2 = 0.0;
        for (int k = 0; k < K; k++) {
            t1 += xi[1 + k] * cos(TWO_PI * k / K);
            t2 += xi[1 + k] * sin(TWO_PI * k / K);
        }
        r[3 * i] = xi[0];
        r[3 * i + 1] = t1;
        r[3 * i + 2] = t2;
    }
}
