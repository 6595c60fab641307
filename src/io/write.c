/* src/io/write.c: a problem written as a folder that every reader of
 * lcpsolve reads back (src/io/folder.c): one Matrix Market file a field
 * (A b mu lo hi findex M J v e, where present) and problem.json naming
 * them with the kind, written last so that a folder with a manifest is
 * whole.  Infinite bounds are written as +-1e300 (Matrix Market has no
 * inf; the readers take |x| >= 1e300 as infinite). */
#include "io.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int write_vec(const char *dir, const char *field, const double *v, int n, int bounds, lcp_err *err)
{
    char path[4200], note[64];
    double *t = lcp_alloc((size_t)(n > 0 ? n : 1), sizeof(double));
    if (!t) return lcp_fail(err, LCP_ERROR, dir, 0, "out of memory");
    for (int i = 0; i < n; i++) t[i] = bounds && isinf(v[i]) ? (v[i] > 0 ? 1e300 : -1e300) : v[i];
    snprintf(path, sizeof path, "%s/%s.mtx", dir, field);
    snprintf(note, sizeof note, "lcpsolve problem: %s", field);
    int rc = lcp_write_mtx_vector(path, t, n, note, err);
    free(t);
    return rc;
}

int lcp_write_problem(const lcp_problem *p, const char *dir, lcp_err *err)
{
    char path[4200];
    int rc = 0;
    if (strlen(dir) > 4000) return lcp_fail(err, LCP_INPUT_ERROR, dir, 0, "path too long");
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return lcp_fail(err, LCP_INPUT_ERROR, dir, 0, "cannot create folder: %s", strerror(errno));
    cJSON *o = cJSON_CreateObject();
    if (!o) return lcp_fail(err, LCP_ERROR, dir, 0, "out of memory");
    if (p->kind) cJSON_AddStringToObject(o, "kind", lcp_kind_name(p->kind));
    const lcp_csr *mats[3] = {&p->A, &p->M, &p->J};
    const char *mnames[3] = {"A", "M", "J"};
    for (int k = 0; k < 3 && !rc; k++) {
        if (!mats[k]->p) continue;
        snprintf(path, sizeof path, "%s/%s.mtx", dir, mnames[k]);
        rc = lcp_write_mtx_matrix(path, mats[k], "lcpsolve problem", err);
        snprintf(path, sizeof path, "%s.mtx", mnames[k]);
        if (!rc) cJSON_AddStringToObject(o, mnames[k], path);
    }
    struct {
        const char *name;
        const double *v;
        int n, bounds;
    } vecs[] = {{"b", p->b, p->n, 0},  {"mu", p->mu, p->nmu, 0}, {"lo", p->lo, p->n, 1},
                {"hi", p->hi, p->n, 1}, {"v", p->v, p->vlen, 0},  {"e", p->e, p->elen ? p->elen : p->n, 0}};
    for (size_t k = 0; k < sizeof vecs / sizeof vecs[0] && !rc; k++) {
        if (!vecs[k].v) continue;
        rc = write_vec(dir, vecs[k].name, vecs[k].v, vecs[k].n, vecs[k].bounds, err);
        snprintf(path, sizeof path, "%s.mtx", vecs[k].name);
        if (!rc) cJSON_AddStringToObject(o, vecs[k].name, path);
    }
    if (!rc && p->findex) {
        double *f = lcp_alloc((size_t)(p->n > 0 ? p->n : 1), sizeof(double));
        if (!f) rc = lcp_fail(err, LCP_ERROR, dir, 0, "out of memory");
        for (int i = 0; f && i < p->n; i++) f[i] = p->findex[i];
        if (f) rc = write_vec(dir, "findex", f, p->n, 0, err);
        free(f);
        if (!rc) cJSON_AddStringToObject(o, "findex", "findex.mtx");
    }
    char *text = rc ? NULL : cJSON_Print(o);
    cJSON_Delete(o);
    if (rc) return rc;
    if (!text) return lcp_fail(err, LCP_ERROR, dir, 0, "out of memory");
    snprintf(path, sizeof path, "%s/problem.json", dir);
    lcp_outfile of;
    if (!(rc = lcp_outfile_open(&of, path, err))) {
        fputs(text, of.fp);
        fputc('\n', of.fp);
        rc = lcp_outfile_commit(&of, err);
    }
    free(text);
    return rc;
}
