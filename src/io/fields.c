/* src/io/fields.c: the named fields of a problem (A b mu lo hi findex M J v e)
 * and loading one of them from a Matrix Market file.  Used by the folder
 * reader and by JSON manifests, so both accept exactly the same names. */
#include "io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int lcp_field_is_matrix(const char *field)
{
    return !strcmp(field, "A") || !strcmp(field, "M") || !strcmp(field, "J");
}

int lcp_set_matrix_field(lcp_problem *p, const char *field, lcp_csr *A, const char *src, lcp_err *err)
{
    lcp_csr *dst = !strcmp(field, "A") ? &p->A : !strcmp(field, "M") ? &p->M : !strcmp(field, "J") ? &p->J : NULL;
    if (!dst) return lcp_fail(err, LCP_INPUT_ERROR, src, 0, "unknown matrix field '%s'", field);
    if (dst->p) return lcp_fail(err, LCP_INPUT_ERROR, src, 0, "%s given twice", field);
    *dst = *A;
    memset(A, 0, sizeof *A);
    return 0;
}

int lcp_set_vector_field(lcp_problem *p, const char *field, double *v, int n, const char *src, lcp_err *err)
{
    double **slot = NULL;
    int *len = NULL;
    if (!strcmp(field, "b")) slot = &p->b, len = &p->blen;
    else if (!strcmp(field, "lo")) slot = &p->lo, len = &p->lolen;
    else if (!strcmp(field, "hi")) slot = &p->hi, len = &p->hilen;
    else if (!strcmp(field, "mu")) slot = &p->mu, len = &p->nmu;
    else if (!strcmp(field, "v")) slot = &p->v, len = &p->vlen;
    else if (!strcmp(field, "e")) slot = &p->e, len = &p->elen;
    else if (!strcmp(field, "findex")) {
        if (p->findex) return lcp_fail(err, LCP_INPUT_ERROR, src, 0, "findex given twice");
        int *f = lcp_alloc((size_t)n, sizeof(int));
        if (!f) return lcp_fail(err, LCP_ERROR, src, 0, "out of memory");
        for (int i = 0; i < n; i++) {
            if (v[i] != floor(v[i]) || v[i] < -1 || v[i] > 2147483647.0) {
                free(f);
                return lcp_fail(err, LCP_INPUT_ERROR, src, 0,
                                "findex[%d] = %g is not a row index (0-based) or -1", i + 1, v[i]);
            }
            f[i] = (int)v[i];
        }
        free(v);
        p->findex = f;
        p->findexlen = n;
        return 0;
    }
    if (!slot) return lcp_fail(err, LCP_INPUT_ERROR, src, 0, "unknown field '%s'", field);
    if (*slot) return lcp_fail(err, LCP_INPUT_ERROR, src, 0, "%s given twice", field);
    *slot = v;
    *len = n;
    return 0;
}

int lcp_read_field_mtx(lcp_problem *p, const char *field, const char *path, lcp_err *err)
{
    int rc;
    lcp_problem_set_where(p, field, strcmp(path, "-") ? path : "<stdin>", mtx_size_line(path));
    if (lcp_field_is_matrix(field)) {
        lcp_csr A;
        if ((rc = lcp_read_mtx_matrix(path, &A, err))) return rc;
        if ((rc = lcp_set_matrix_field(p, field, &A, path, err))) lcp_csr_free(&A);
        return rc;
    }
    double *v;
    int n;
    if (!strcmp(field, "lo") || !strcmp(field, "hi")) {
        /* bounds may be infinite: Matrix Market has no inf, so +-1e300 and
         * beyond stand for it */
        if ((rc = lcp_read_mtx_vector(path, &v, &n, err))) return rc;
        for (int i = 0; i < n; i++)
            if (fabs(v[i]) >= 1e300) v[i] = v[i] > 0 ? INFINITY : -INFINITY;
    } else if ((rc = lcp_read_mtx_vector(path, &v, &n, err))) {
        return rc;
    }
    if ((rc = lcp_set_vector_field(p, field, v, n, path, err))) free(v);
    return rc;
}
