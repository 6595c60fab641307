/* src/diff/diff_api.c: the derivatives' calls of include/lcpsolve.h
 * (lcps_diff_new, lcps_jvp, lcps_vjp, ...) on src/diff/diff.c. */
#include "../../include/lcpsolve.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/api_internal.h"
#include "diff.h"

struct lcps_diff {
    lcp_diff d;
    const int *perm;  /* the caller's entries of A -> A.x (NULL: the same order) */
    long nval;
    double *dA;       /* A.x's order: a JVP's dA, a VJP's gradient */
};

static int fail(char *err, size_t errlen, int code, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return lcp_status_exit_code((lcp_status)code);
}

static int from(const lcp_err *e, int rc, char *err, size_t errlen)
{
    return fail(err, errlen, rc ? rc : LCP_ERROR, "%s", e->msg);
}

int lcps_diff_new(const lcps_problem *p, const lcps_settings *s, const lcps_result *r, lcps_diff **out, char *err,
                  size_t errlen)
{
    if (!out) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_diff_new: out is NULL");
    *out = NULL;
    if (!p || !r) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_diff_new: %s", !p ? "no problem" : "no result");
    if (!r->x)
        return fail(err, errlen, LCP_INPUT_ERROR, "lcps_diff_new: the result has no x (status %s)",
                    lcps_status_name(r->status));
    lcp_err e = {{0}};
    const int *perm;
    long nval;
    const lcp_problem *lp = lcp_api_problem(p, &perm, &nval, &e);
    if (!lp) return from(&e, LCP_INPUT_ERROR, err, errlen);
    if (r->n != lp->n)
        return fail(err, errlen, LCP_INPUT_ERROR, "lcps_diff_new: the result has %d unknowns, the problem %d", r->n, lp->n);
    lcps_diff *h = calloc(1, sizeof *h);
    if (!h || !(h->dA = lcp_alloc((size_t)(lcp_csr_nnz(&lp->A) + 1), sizeof(double)))) {
        free(h);
        return fail(err, errlen, LCP_ERROR, "out of memory");
    }
    h->perm = perm;
    h->nval = nval;
    int rc = lcp_diff_prepare(&h->d, lp, r->x, lcp_api_settings_reg(s), &e);
    if (rc) {
        lcps_diff_free(h);
        return from(&e, rc, err, errlen);
    }
    *out = h;
    return 0;
}

void lcps_diff_free(lcps_diff *h)
{
    if (!h) return;
    lcp_diff_free(&h->d);
    free(h->dA);
    free(h);
}

int lcps_diff_len(const lcps_diff *h, const char *name)
{
    if (!h || !name) return -1;
    const lcp_problem *p = h->d.p;
    int fac = h->d.fm_on;
    if (!strcmp(name, "x") || !strcmp(name, "b")) return p->n;
    if (!strcmp(name, "A")) return (int)h->nval;
    if (!strcmp(name, "mu")) return h->d.nmu;
    if (!strcmp(name, "lo") || !strcmp(name, "hi")) return h->d.bounds ? p->n : 0;
    if (!strcmp(name, "e")) return fac ? p->n : 0;
    if (!strcmp(name, "M")) return fac ? (int)lcp_csr_nnz(&p->M) : 0;
    if (!strcmp(name, "J")) return fac ? (int)lcp_csr_nnz(&p->J) : 0;
    if (!strcmp(name, "v")) return fac ? p->M.m : 0;
    return -1;
}

int lcps_diff_degenerate(const lcps_diff *h, int *flags)
{
    if (!h) return -1;
    int count = 0;
    for (int i = 0; i < h->d.n; i++) {
        count += h->d.flag[i];
        if (flags) flags[i] = h->d.flag[i];
    }
    return count;
}

const lcp_diff *lcp_diff_of(const lcps_diff *h)
{
    return h ? &h->d : NULL;
}

int lcps_diff_minimum_norm(const lcps_diff *h)
{
    if (!h) return -1;
    return lcp_diff_minimum_norm(&h->d) ? h->d.nullity : 0;
}

int lcps_jvp(lcps_diff *h, const double *dA, const double *db, const double *dmu, double *dx, char *err,
             size_t errlen)
{
    return lcps_jvp_bounds(h, dA, db, dmu, NULL, NULL, dx, err, errlen);
}

int lcps_vjp(lcps_diff *h, const double *g, double *grad_A, double *grad_b, double *grad_mu, char *err,
             size_t errlen)
{
    return lcps_vjp_bounds(h, g, grad_A, grad_b, grad_mu, NULL, NULL, err, errlen);
}

int lcps_jvp_bounds(lcps_diff *h, const double *dA, const double *db, const double *dmu, const double *dlo,
                    const double *dhi, double *dx, char *err, size_t errlen)
{
    if (!h || !dx) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_jvp: %s", !h ? "no handle" : "dx is NULL");
    lcp_err e = {{0}};
    const double *a = dA;
    if (dA && h->perm) { /* the caller's order -> A.x's */
        memset(h->dA, 0, (size_t)lcp_csr_nnz(&h->d.p->A) * sizeof(double));
        for (long k = 0; k < h->nval; k++) h->dA[h->perm[k]] += dA[k];
        a = h->dA;
    }
    int rc = lcp_diff_jvp_bounds(&h->d, a, db, dmu, dlo, dhi, dx, &e);
    return rc ? from(&e, rc, err, errlen) : 0;
}

int lcps_vjp_bounds(lcps_diff *h, const double *g, double *grad_A, double *grad_b, double *grad_mu,
                    double *grad_lo, double *grad_hi, char *err, size_t errlen)
{
    if (!h || !g) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_vjp: %s", !h ? "no handle" : "g is NULL");
    lcp_err e = {{0}};
    double *ga = grad_A && h->perm ? h->dA : grad_A;
    int rc = lcp_diff_vjp_bounds(&h->d, g, ga, grad_b, grad_mu, grad_lo, grad_hi, &e);
    if (rc) return from(&e, rc, err, errlen);
    if (grad_A && h->perm)
        for (long k = 0; k < h->nval; k++) grad_A[k] = h->dA[h->perm[k]];
    return 0;
}

int lcps_jvp_factored(lcps_diff *h, const double *dM, const double *dJ, const double *dv, const double *de,
                      const double *dmu, double *dx, char *err, size_t errlen)
{
    if (!h || !dx) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_jvp_factored: %s", !h ? "no handle" : "dx is NULL");
    lcp_err e = {{0}};
    int rc = lcp_diff_jvp_factored(&h->d, dM, dJ, dv, de, dmu, dx, &e);
    return rc ? from(&e, rc, err, errlen) : 0;
}

int lcps_vjp_factored(lcps_diff *h, const double *g, double *grad_M, double *grad_J, double *grad_v,
                      double *grad_e, double *grad_mu, char *err, size_t errlen)
{
    if (!h || !g) return fail(err, errlen, LCP_INPUT_ERROR, "lcps_vjp_factored: %s", !h ? "no handle" : "g is NULL");
    lcp_err e = {{0}};
    int rc = lcp_diff_vjp_factored(&h->d, g, grad_M, grad_J, grad_v, grad_e, grad_mu, &e);
    return rc ? from(&e, rc, err, errlen) : 0;
}
