/* src/core/problem.c: the problem model: defaults, the factored form
 * (A = J M^-1 J', b = J v + e, through CHOLMOD), and load-time checks. */
#include "problem.h"
#include "../la/factored.h"
#include "../la/suitesparse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *lcp_kind_name(lcp_kind k)
{
    switch (k) {
    case LCP_KIND_LCP: return "lcp";
    case LCP_KIND_BLCP: return "blcp";
    case LCP_KIND_CCP: return "ccp";
    case LCP_KIND_FC3D: return "fc3d";
    default: return "none";
    }
}

lcp_kind lcp_kind_parse(const char *s)
{
    if (!s) return LCP_KIND_NONE;
    if (!strcmp(s, "lcp")) return LCP_KIND_LCP;
    if (!strcmp(s, "blcp")) return LCP_KIND_BLCP;
    if (!strcmp(s, "ccp")) return LCP_KIND_CCP;
    if (!strcmp(s, "fc3d")) return LCP_KIND_FC3D;
    return LCP_KIND_NONE;
}

const char *const lcp_field_names[10] = {"A", "b", "mu", "lo", "hi", "findex", "M", "J", "v", "e"};

int lcp_field_index(const char *name)
{
    for (int k = 0; k < 10; k++)
        if (!strcmp(lcp_field_names[k], name)) return k;
    return -1;
}

void lcp_problem_set_where(lcp_problem *p, const char *field, const char *file, long line)
{
    int k = lcp_field_index(field);
    if (k < 0 || !file) return;
    size_t len = strlen(file) + 24;
    char *s = malloc(len);
    if (!s) return;
    if (line > 0) snprintf(s, len, "%s:%ld", file, line);
    else snprintf(s, len, "%s", file);
    free(p->where[k]);
    p->where[k] = s;
}

/* Where a message about field should point: its file and line, or the source. */
static const char *at(const lcp_problem *p, const char *field)
{
    int k = lcp_field_index(field);
    if (k >= 0 && p->where[k]) return p->where[k];
    return p->source ? p->source : "problem";
}

void lcp_problem_init(lcp_problem *p) { memset(p, 0, sizeof *p); }

void lcp_problem_free(lcp_problem *p)
{
    if (!p) return;
    if (p->packed) { /* the arrays are lcp_problems_pack's block's */
        p->A = p->M = p->J = (lcp_csr){0};
        p->b = p->lo = p->hi = p->mu = p->v = p->e = NULL;
        p->findex = NULL;
    }
    lcp_csr_free(&p->A);
    lcp_csr_free(&p->M);
    lcp_csr_free(&p->J);
    free(p->b);
    free(p->lo);
    free(p->hi);
    free(p->findex);
    free(p->mu);
    free(p->v);
    free(p->e);
    for (int k = 0; k < 10; k++) free(p->where[k]);
    free(p->source);
    free(p->format);
    memset(p, 0, sizeof *p);
}

/* lcp_problems_pack: a problem's arrays, the ones a solve reads first (A,
 * b, bounds, findex, mu: hot) or the factored form's (M, J, v, e), as the
 * addresses of their pointers and their sizes in bytes; the count. */
typedef struct {
    void **at;
    size_t bytes;
} pack_ref;

static int pack_csr(lcp_csr *A, pack_ref *r)
{
    if (!A->p) return 0;
    size_t nnz = (size_t)A->p[A->m];
    r[0] = (pack_ref){(void **)&A->p, (size_t)(A->m + 1) * sizeof(int)};
    r[1] = (pack_ref){(void **)&A->j, nnz * sizeof(int)};
    r[2] = (pack_ref){(void **)&A->x, nnz * sizeof(double)};
    return 3;
}

static int pack_refs(lcp_problem *p, int hot, pack_ref *r)
{
    size_t n = (size_t)p->n;
    int k = 0;
    if (hot) {
        k += pack_csr(&p->A, r + k);
        r[k++] = (pack_ref){(void **)&p->b, n * sizeof(double)};
        r[k++] = (pack_ref){(void **)&p->lo, n * sizeof(double)};
        r[k++] = (pack_ref){(void **)&p->hi, n * sizeof(double)};
        r[k++] = (pack_ref){(void **)&p->findex, n * sizeof(int)};
        r[k++] = (pack_ref){(void **)&p->mu, (size_t)p->nmu * sizeof(double)};
    } else {
        k += pack_csr(&p->M, r + k);
        k += pack_csr(&p->J, r + k);
        r[k++] = (pack_ref){(void **)&p->v, (size_t)p->M.m * sizeof(double)};
        r[k++] = (pack_ref){(void **)&p->e, n * sizeof(double)};
    }
    return k;
}

enum { PACK_REFS = 12, PACK_ALIGN = 8 }; /* (doubles and ints alike on 8 bytes) */

static size_t pack_round(size_t b) { return (b + PACK_ALIGN - 1) / PACK_ALIGN * PACK_ALIGN; }

void *lcp_problems_pack(lcp_problem *const *p, double **xs, int count)
{
    pack_ref r[PACK_REFS];
    size_t total = 0;
    for (int k = 0; k < count; k++) {
        if (p[k]->packed) return NULL;
        for (int hot = 1; hot >= 0; hot--) {
            int m = pack_refs(p[k], hot, r);
            for (int q = 0; q < m; q++)
                if (*r[q].at) total += pack_round(r[q].bytes);
        }
        if (xs && xs[k]) total += pack_round((size_t)p[k]->n * sizeof(double));
    }
    char *block = lcp_alloc(total ? total : 1, 1), *at = block; /* (NULL above --max-memory: left as they are) */
    if (!block) return NULL;
    for (int hot = 1; hot >= 0; hot--) /* every problem's hot arrays (and answer) in turn, then the cold ones */
        for (int k = 0; k < count; k++) {
            int m = pack_refs(p[k], hot, r);
            if (hot && xs && xs[k]) r[m++] = (pack_ref){(void **)&xs[k], (size_t)p[k]->n * sizeof(double)};
            for (int q = 0; q < m; q++) {
                if (!*r[q].at) continue;
                memcpy(at, *r[q].at, r[q].bytes);
                free(*r[q].at);
                *r[q].at = at;
                at += pack_round(r[q].bytes);
            }
        }
    for (int k = 0; k < count; k++) p[k]->packed = 1;
    return block;
}

/* A = J M^-1 J' = J Y', Y = (M^-1 J')' from lcp_minv_jt (src/la/factored.c:
 * dense inverses of M's blocks, or CHOLMOD when M is not block-diagonal),
 * the product by CHOLMOD. */
static int form_A(lcp_problem *p, lcp_err *err)
{
    const char *src = p->source;
    lcp_csr Y;
    lcp_err e2;
    int rc = lcp_minv_jt(p, &Y, &e2);
    if (rc) return lcp_fail(err, rc, src, 0, "%s", e2.msg);
    cholmod_common c;
    lcp_cholmod_start(&c);
    cholmod_sparse Jt = lcp_csr_as_cholmod(&p->J, 0); /* J' (nb x n) */
    cholmod_sparse X = lcp_csr_as_cholmod(&Y, 0);     /* Y' = M^-1 J' (nb x n) */
    cholmod_sparse *Jm = cholmod_transpose(&Jt, 1, &c), *AJ = NULL;
    if (Jm) AJ = cholmod_ssmult(Jm, &X, 0, 1, 1, &c); /* n x n, CSC */
    if (!AJ) {
        rc = lcp_fail(err, LCP_ERROR, src, 0, "out of memory forming A = J M^-1 J'");
        goto done;
    }
    {
        lcp_csr T; /* the CSC of A is the CSR of A' */
        T.m = (int)AJ->ncol;
        T.n = (int)AJ->nrow;
        T.p = AJ->p;
        T.j = AJ->i;
        T.x = AJ->x;
        if (lcp_csr_transpose(&T, &p->A)) rc = lcp_fail(err, LCP_ERROR, src, 0, "out of memory");
    }
done:
    cholmod_free_sparse(&Jm, &c);
    cholmod_free_sparse(&AJ, &c);
    cholmod_finish(&c);
    lcp_csr_free(&Y);
    return rc;
}

static int check_finite(const lcp_problem *p, const double *v, int n, const char *what, lcp_err *err)
{
    for (int i = 0; v && i < n; i++)
        if (!isfinite(v[i]))
            return lcp_fail(err, LCP_INPUT_ERROR, at(p, what), 0, "%s[%d] is not finite", what, i + 1);
    return 0;
}

static int check_matrix(const lcp_problem *p, const lcp_csr *A, const char *what, lcp_err *err)
{
    int bi = 0, bj = 0;
    if (A->p && !lcp_csr_all_finite(A, &bi, &bj))
        return lcp_fail(err, LCP_INPUT_ERROR, at(p, what), 0, "%s(%d,%d) is not finite", what, bi + 1, bj + 1);
    return 0;
}

int lcp_problem_finish(lcp_problem *p, lcp_err *err)
{
    const char *src = p->source ? p->source : "problem";
    int rc;
    int factored = p->M.p || p->J.p;
    if (factored) {
        if (!p->M.p || !p->J.p || !p->v)
            return lcp_fail(err, LCP_INPUT_ERROR, src, 0, "the factored form needs M, J and v");
        if (p->M.m != p->M.n)
            return lcp_fail(err, LCP_INPUT_ERROR, at(p, "M"), 0, "M is %d x %d, not square", p->M.m, p->M.n);
        if (p->J.n != p->M.m)
            return lcp_fail(err, LCP_INPUT_ERROR, at(p, "J"), 0, "J has %d columns but M is %d x %d", p->J.n,
                            p->M.m, p->M.m);
        if (p->v && p->vlen != p->M.m)
            return lcp_fail(err, LCP_INPUT_ERROR, at(p, "v"), 0, "v has %d entries but M is %d x %d", p->vlen, p->M.m, p->M.m);
        if (p->e && p->elen != p->J.m)
            return lcp_fail(err, LCP_INPUT_ERROR, at(p, "e"), 0, "e has %d entries but J has %d rows", p->elen, p->J.m);
        if (p->A.p && p->A.m != p->J.m)
            return lcp_fail(err, LCP_INPUT_ERROR, at(p, "J"), 0, "J has %d rows but A is %d x %d", p->J.m, p->A.m, p->A.n);
        if ((rc = check_matrix(p, &p->M, "M", err)) || (rc = check_matrix(p, &p->J, "J", err)) ||
            (rc = check_finite(p, p->v, p->M.m, "v", err)) ||
            (rc = check_finite(p, p->e, p->J.m, "e", err)))
            return rc;
        if (!lcp_csr_is_symmetric(&p->M, 1e-12))
            return lcp_fail(err, LCP_INPUT_ERROR, at(p, "M"), 0, "M is not symmetric");
        if (!p->A.p) {
            int bi = 0, bj = 0;
            if ((rc = form_A(p, err))) return rc;
            if (!lcp_csr_all_finite(&p->A, &bi, &bj)) /* finite M and J, but the product overflows */
                return lcp_fail(err, LCP_INPUT_ERROR, at(p, "J"), 0,
                                "A = J M^-1 J' overflows at (%d,%d): rescale M or J", bi + 1, bj + 1);
        }
        if (!p->b) {
            p->b = lcp_alloc((size_t)p->J.m, sizeof(double));
            if (!p->b) return lcp_fail(err, LCP_ERROR, src, 0, "out of memory");
            p->blen = p->J.m;
            lcp_csr_matvec(&p->J, p->v, p->b); /* b = J v + e */
            for (int i = 0; p->e && i < p->J.m; i++) p->b[i] += p->e[i];
            for (int i = 0; i < p->J.m; i++)
                if (!isfinite(p->b[i]))
                    return lcp_fail(err, LCP_INPUT_ERROR, at(p, "v"), 0, "b = J v + e overflows in row %d: rescale J or v",
                                    i + 1);
        }
    }
    if (!p->A.p) return lcp_fail(err, LCP_INPUT_ERROR, src, 0, "no matrix A (or M, J, v) given");
    if (!p->b) return lcp_fail(err, LCP_INPUT_ERROR, src, 0, "no vector b given");
    if (p->A.m != p->A.n)
        return lcp_fail(err, LCP_INPUT_ERROR, at(p, "A"), 0, "A is %d x %d, not square", p->A.m, p->A.n);
    p->n = p->A.m;
    {
        const int lens[] = {p->blen, p->lolen, p->hilen, p->findexlen};
        const int given[] = {p->b != NULL, p->lo != NULL, p->hi != NULL, p->findex != NULL};
        const char *names[] = {"b", "lo", "hi", "findex"};
        for (int k = 0; k < 4; k++) /* given, even empty ([] in JSON): exactly n entries */
            if (given[k] && lens[k] != p->n)
                return lcp_fail(err, LCP_INPUT_ERROR, at(p, names[k]), 0, "%s has %d entries but A is %d x %d", names[k],
                                lens[k], p->n, p->n);
    }
    if (p->kind == LCP_KIND_NONE) {
        if (p->lo || p->hi || p->findex) p->kind = LCP_KIND_BLCP;
        else if (p->mu) p->kind = LCP_KIND_FC3D;
        else p->kind = LCP_KIND_LCP;
    }
    if ((rc = check_matrix(p, &p->A, "A", err)) || (rc = check_finite(p, p->b, p->n, "b", err)))
        return rc;
    if (p->kind & LCP_KIND_FRICTION) {
        if (p->n % 3)
            return lcp_fail(err, LCP_INPUT_ERROR, at(p, "A"), 0,
                            "a %s problem needs 3 rows a contact, but A has %d rows", lcp_kind_name(p->kind),
                            p->n);
        p->nc = p->n / 3;
        if (!p->mu)
            return lcp_fail(err, LCP_INPUT_ERROR, src, 0, "a %s problem needs mu (one per contact)",
                            lcp_kind_name(p->kind));
        if (p->nmu != p->nc)
            return lcp_fail(err, LCP_INPUT_ERROR, at(p, "mu"), 0, "mu has %d entries for %d contacts", p->nmu, p->nc);
        if (p->lo || p->hi || p->findex)
            return lcp_fail(err, LCP_INPUT_ERROR, src, 0, "bounds and findex belong to blcp problems");
    }
    if (p->kind == LCP_KIND_LCP && (p->lo || p->hi || p->findex || p->mu))
        return lcp_fail(err, LCP_INPUT_ERROR, src, 0, "an lcp problem takes no bounds, findex or mu");
    if (p->mu) {
        if ((rc = check_finite(p, p->mu, p->nmu, "mu", err))) return rc;
        for (int i = 0; i < p->nmu; i++)
            if (p->mu[i] < 0)
                return lcp_fail(err, LCP_INPUT_ERROR, at(p, "mu"), 0, "mu[%d] = %g is negative", i + 1, p->mu[i]);
    }
    if (p->kind == LCP_KIND_BLCP) {
        for (int i = 0; i < p->n; i++) {
            double lo = p->lo ? p->lo[i] : 0.0, hi = p->hi ? p->hi[i] : INFINITY;
            if (isnan(lo) || isnan(hi))
                return lcp_fail(err, LCP_INPUT_ERROR, at(p, "lo"), 0, "bound %d is NaN", i + 1);
            if (lo > hi)
                return lcp_fail(err, LCP_INPUT_ERROR, at(p, "lo"), 0, "lo[%d] = %g exceeds hi[%d] = %g", i + 1, lo,
                                i + 1, hi);
        }
        if (p->findex) {
            if (!p->mu || p->nmu != p->n)
                return lcp_fail(err, LCP_INPUT_ERROR, at(p, "findex"), 0,
                                "findex needs mu with one coefficient per row (%d)", p->n);
            for (int i = 0; i < p->n; i++)
                if (p->findex[i] < -1 || p->findex[i] >= p->n || p->findex[i] == i)
                    return lcp_fail(err, LCP_INPUT_ERROR, at(p, "findex"), 0, "findex[%d] = %d is not a row or -1", i + 1,
                                    p->findex[i]);
        } else if (p->mu) {
            return lcp_fail(err, LCP_INPUT_ERROR, at(p, "mu"), 0, "mu without findex in a blcp problem");
        }
    }
    return 0;
}

int lcp_problem_regularise(lcp_problem *p, double eps, lcp_err *err)
{
    long nnz = lcp_csr_nnz(&p->A), nz = nnz + p->n;
    int *ti = lcp_alloc((size_t)(nz > 0 ? nz : 1), sizeof(int)), *tj = lcp_alloc((size_t)(nz > 0 ? nz : 1), sizeof(int));
    double *tx = lcp_alloc((size_t)(nz > 0 ? nz : 1), sizeof(double));
    lcp_csr R = {0};
    int rc = 0;
    if (!ti || !tj || !tx) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (--reg)");
        goto done;
    }
    long k = 0;
    for (int i = 0; i < p->n; i++) {
        for (int e = p->A.p[i]; e < p->A.p[i + 1]; e++, k++) {
            ti[k] = i;
            tj[k] = p->A.j[e];
            tx[k] = p->A.x[e];
        }
    }
    for (int i = 0; i < p->n; i++, k++) { /* duplicates are summed: A(i,i) + eps */
        ti[k] = tj[k] = i;
        tx[k] = eps;
    }
    if (lcp_csr_from_triplets(&R, p->n, p->n, k, ti, tj, tx)) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (--reg)");
        goto done;
    }
    lcp_csr_free(&p->A);
    p->A = R;
    p->reg = eps;
done:
    free(ti);
    free(tj);
    free(tx);
    return rc;
}
