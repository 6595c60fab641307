/* src/cli/sensitivity.c: --sensitivity DB.mtx (or a direction file
 * DIRECTION.json) --sensitivity-out DX.mtx and --adjoint G.mtx
 * --adjoint-out DIR of the solve command; see sensitivity.h and
 * src/diff/diff.h. */
#include "sensitivity.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../diff/diff.h"
#include "../io/io.h"

void lcp_cli_diff_free(lcp_cli_diff_opts *d)
{
    for (int k = 0; k < LCP_DIR_N; k++) free(d->dir[k]), d->dir[k] = NULL;
    free(d->g);
    d->db = d->g = NULL;
}

static const char *const DIR_NAMES[LCP_DIR_N] = {"A", "b", "mu", "lo", "hi", "M", "J", "v", "e"};

static int is_factored(const lcp_problem *p)
{
    return p->M.p && p->J.p && p->v;
}

/* The length of direction k for p, or -1 with the reason in *why. */
static long dir_len(const lcp_problem *p, int k, const char **why)
{
    int fac = is_factored(p);
    *why = NULL;
    switch (k) {
    case LCP_DIR_A: return lcp_csr_nnz(&p->A);
    case LCP_DIR_B: return p->n;
    case LCP_DIR_MU: return p->mu && p->nmu ? p->nmu : (*why = "the problem has no mu", -1);
    case LCP_DIR_LO:
    case LCP_DIR_HI: return p->kind == LCP_KIND_BLCP ? p->n : (*why = "only a blcp has bounds lo, hi", -1);
    case LCP_DIR_M: return fac ? lcp_csr_nnz(&p->M) : (*why = "the problem is not in factored form (M, J, v)", -1);
    case LCP_DIR_J: return fac ? lcp_csr_nnz(&p->J) : (*why = "the problem is not in factored form (M, J, v)", -1);
    case LCP_DIR_V: return fac ? p->M.m : (*why = "the problem is not in factored form (M, J, v)", -1);
    default: return fac ? p->n : (*why = "the problem is not in factored form (M, J, v)", -1);
    }
}

/* A matrix file's entries as values on the pattern of S (an entry outside
 * it refused, naming it). */
static int read_on_pattern(const char *path, const lcp_csr *S, const char *what, double **out, lcp_err *err)
{
    lcp_csr D;
    int rc = lcp_read_mtx_matrix(path, &D, err);
    if (rc) return rc;
    if (D.m != S->m || D.n != S->n) {
        rc = lcp_fail(err, LCP_INPUT_ERROR, path, 0, "is %d x %d, the problem's %s %d x %d", D.m, D.n, what, S->m, S->n);
        goto done;
    }
    double *v = *out = lcp_calloc((size_t)lcp_csr_nnz(S) + 1, sizeof(double));
    if (!v) {
        rc = lcp_fail(err, LCP_ERROR, path, 0, "out of memory");
        goto done;
    }
    for (int i = 0; i < D.m; i++)
        for (int k = D.p[i]; k < D.p[i + 1]; k++) {
            int e = S->p[i], end = S->p[i + 1];
            while (e < end && S->j[e] != D.j[k]) e++;
            if (e < end) v[e] += D.x[k];
            else if (D.x[k] != 0.0) {
                rc = lcp_fail(err, LCP_INPUT_ERROR, path, 0, "entry (%d, %d) is not an entry of the problem's %s "
                              "(a direction changes the stored entries only)", i + 1, D.j[k] + 1, what);
                goto done;
            }
        }
done:
    lcp_csr_free(&D);
    return rc;
}

/* A direction file: a JSON object whose keys name variables (A, b, mu, lo,
 * hi; or the factored form's M, J, v, e with mu) and whose values are
 * Matrix Market files (paths relative to the direction file's folder) or
 * arrays of numbers (a matrix's values in the order of its stored entries). */
static int read_direction(lcp_cli_diff_opts *d, const lcp_problem *p, lcp_err *err)
{
    const char *path = d->sensitivity;
    char *text = NULL;
    size_t len = 0;
    int rc = lcp_read_text(path, (size_t)1 << 26, &text, &len, err);
    if (rc) return rc;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root || !cJSON_IsObject(root)) {
        long line = 1;
        for (const char *c = text; root == NULL && end && c < end && *c; c++) line += *c == '\n';
        rc = lcp_fail(err, LCP_INPUT_ERROR, path, root ? 0 : line, "%s", root ? "a direction file holds one JSON "
                      "object (keys A, b, mu, lo, hi, M, J, v, e)" : "not valid JSON");
        goto done;
    }
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path) : 0;
    int fac_keys = 0, plain_keys = 0;
    for (cJSON *it = root->child; it; it = it->next) {
        int k = 0;
        while (k < LCP_DIR_N && strcmp(it->string, DIR_NAMES[k])) k++;
        if (k == LCP_DIR_N) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, 0, "unknown key \"%s\" (A, b, mu, lo, hi, M, J, v, e)", it->string);
            goto done;
        }
        if (d->dir[k]) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, 0, "key \"%s\" twice", it->string);
            goto done;
        }
        const char *why;
        long n = dir_len(p, k, &why);
        if (n < 0) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, 0, "\"%s\": %s", it->string, why);
            goto done;
        }
        fac_keys += k >= LCP_DIR_M;
        plain_keys += k == LCP_DIR_A || k == LCP_DIR_B || k == LCP_DIR_LO || k == LCP_DIR_HI;
        if (cJSON_IsArray(it)) {
            long m = cJSON_GetArraySize(it), i = 0;
            if (m != n) {
                rc = lcp_fail(err, LCP_INPUT_ERROR, path, 0, "\"%s\" has %ld values, the problem %ld", it->string, m, n);
                goto done;
            }
            if (!(d->dir[k] = lcp_alloc((size_t)n + 1, sizeof(double)))) {
                rc = lcp_fail(err, LCP_ERROR, path, 0, "out of memory");
                goto done;
            }
            for (cJSON *v = it->child; v; v = v->next, i++) {
                if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
                    rc = lcp_fail(err, LCP_INPUT_ERROR, path, 0, "\"%s\"[%ld] is not a finite number", it->string, i);
                    goto done;
                }
                d->dir[k][i] = v->valuedouble;
            }
            continue;
        }
        if (!cJSON_IsString(it)) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, 0, "\"%s\" takes a file name or an array of numbers", it->string);
            goto done;
        }
        char file[4096];
        const char *f = it->valuestring;
        if (f[0] == '/' || !dirlen) snprintf(file, sizeof file, "%s", f);
        else snprintf(file, sizeof file, "%.*s/%s", dirlen, path, f);
        if (k == LCP_DIR_A || k == LCP_DIR_M || k == LCP_DIR_J) {
            const lcp_csr *S = k == LCP_DIR_A ? &p->A : k == LCP_DIR_M ? &p->M : &p->J;
            rc = read_on_pattern(file, S, DIR_NAMES[k], &d->dir[k], err);
        } else {
            int got = 0;
            rc = lcp_read_mtx_vector(file, &d->dir[k], &got, err);
            if (!rc && got != n) rc = lcp_fail(err, LCP_INPUT_ERROR, file, 0, "has %d entries, \"%s\" of the problem %ld",
                                               got, it->string, n);
        }
        if (rc) goto done;
    }
    if (fac_keys && plain_keys)
        rc = lcp_fail(err, LCP_INPUT_ERROR, path, 0, "a direction is either of A, b, lo, hi or of the factored form's "
                      "M, J, v, e (b = J v + e), not both");
done:
    cJSON_Delete(root);
    free(text);
    return rc;
}

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && !strcmp(s + a - b, tail);
}

static int read_vec(const char *path, int n, double **v, lcp_err *err)
{
    int len = 0;
    int rc = lcp_read_mtx_vector(path, v, &len, err);
    if (!rc && len != n)
        rc = lcp_fail(err, LCP_INPUT_ERROR, path, 0, "has %d entries, the problem has %d unknowns", len, n);
    return rc;
}

int lcp_cli_diff_check(lcp_cli_diff_opts *d, const lcp_problem *p, int cone_k, lcp_err *err)
{
    if (!d->sensitivity != !d->sensitivity_out)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--sensitivity and --sensitivity-out go together");
    if (!d->adjoint != !d->adjoint_out)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--adjoint and --adjoint-out go together");
    if (!d->sensitivity && !d->adjoint) return 0;
    if (cone_k)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--%s: the derivatives are of the problem itself, not of its "
                        "--cone approximation", d->sensitivity ? "sensitivity" : "adjoint");
    int rc = 0;
    if (d->sensitivity && ends_with(d->sensitivity, ".json")) {
        if ((rc = read_direction(d, p, err))) return rc;
    } else if (d->sensitivity) {
        if ((rc = read_vec(d->sensitivity, p->n, &d->dir[LCP_DIR_B], err))) return rc;
    }
    d->db = d->dir[LCP_DIR_B];
    if (d->adjoint && (rc = read_vec(d->adjoint, p->n, &d->g, err))) return rc;
    if (d->adjoint_out && mkdir(d->adjoint_out, 0777) != 0 && errno != EEXIST)
        return lcp_fail(err, LCP_INPUT_ERROR, d->adjoint_out, 0, "cannot create the folder (%s)", strerror(errno));
    return 0;
}

/* values on the pattern of S (a copy of its pattern), written as FILE in DIR */
static int write_on_pattern(const char *dir, const char *name, const lcp_csr *S, const double *val, lcp_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    lcp_csr G = *S;
    G.x = (double *)val;
    return lcp_write_mtx_matrix(path, &G, "lcpsolve gradient on the entries of the problem's matrix", err);
}

static int lcp_write_mtx_vector_in(const char *dir, const char *name, const double *v, int n, const char *comment,
                                   lcp_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return lcp_write_mtx_vector(path, v, n, comment, err);
}

static int write_vec(const char *dir, const char *name, const double *v, int n, lcp_err *err)
{
    return lcp_write_mtx_vector_in(dir, name, v, n, "lcpsolve gradient", err);
}

int lcp_cli_diff(lcp_cli_diff_opts *d, const lcp_problem *p, const double *x, double reg, lcp_err *err)
{
    lcp_diff D;
    int rc = lcp_diff_prepare(&D, p, x, reg, err);
    int n = p->n, fac = D.fm_on, nb = fac ? p->M.m : 0;
    long na = lcp_csr_nnz(&p->A), nm = fac ? lcp_csr_nnz(&p->M) : 0, nj = fac ? lcp_csr_nnz(&p->J) : 0;
    double *out = lcp_alloc((size_t)(n + na + D.nmu + nm + nj + nb + 3 * n + 1), sizeof(double));
    if (!rc && !out) rc = lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: out of memory");
    /* the flags of the derivative, in the files' comment */
    d->degenerate = rc ? 0 : lcp_diff_count_degenerate(&D);
    d->minimum_norm = !rc && lcp_diff_minimum_norm(&D);
    d->null_space = d->minimum_norm ? D.nullity : 0;
    char note[256];
    snprintf(note, sizeof note, "; degenerate rows %d; %s", d->degenerate,
             d->minimum_norm ? "minimum-norm (the Jacobian is singular)" : "unique");
    if (d->minimum_norm) snprintf(note + strlen(note), sizeof note - strlen(note), ", null space %d", d->null_space);
    char comment[512];
    double *const *v = (double *const *)d->dir;
    if (!rc && d->sensitivity) {
        int fac_dir = v[LCP_DIR_M] || v[LCP_DIR_J] || v[LCP_DIR_V] || v[LCP_DIR_E];
        rc = fac_dir ? lcp_diff_jvp_factored(&D, v[LCP_DIR_M], v[LCP_DIR_J], v[LCP_DIR_V], v[LCP_DIR_E], v[LCP_DIR_MU],
                                             out, err)
                     : lcp_diff_jvp_bounds(&D, v[LCP_DIR_A], v[LCP_DIR_B], v[LCP_DIR_MU], v[LCP_DIR_LO], v[LCP_DIR_HI],
                                           out, err);
        snprintf(comment, sizeof comment, "lcpsolve derivative of the solution along %s%s",
                 ends_with(d->sensitivity, ".json") ? "the direction file's" : "DB", note);
        if (!rc) rc = lcp_write_mtx_vector(d->sensitivity_out, out, n, comment, err);
    }
    if (!rc && d->g) {
        double *gb = out, *gA = gb + n, *gmu = gA + na, *gM = gmu + D.nmu, *gJ = gM + nm, *gv = gJ + nj;
        double *glo = gv + nb, *ghi = glo + n;
        const char *dir = d->adjoint_out;
        rc = lcp_diff_vjp_bounds(&D, d->g, gA, gb, gmu, D.bounds ? glo : NULL, D.bounds ? ghi : NULL, err);
        snprintf(comment, sizeof comment, "lcpsolve gradient%s", note);
        if (!rc) rc = lcp_write_mtx_vector_in(dir, "grad_b.mtx", gb, n, comment, err);
        if (!rc) rc = write_on_pattern(dir, "grad_A.mtx", &p->A, gA, err);
        if (!rc && D.nmu) rc = write_vec(dir, "grad_mu.mtx", gmu, D.nmu, err);
        if (!rc && D.bounds) rc = write_vec(dir, "grad_lo.mtx", glo, n, err);
        if (!rc && D.bounds) rc = write_vec(dir, "grad_hi.mtx", ghi, n, err);
        if (!rc && fac) {
            rc = lcp_diff_vjp_factored(&D, d->g, gM, gJ, gv, NULL, NULL, err);
            if (!rc) rc = write_on_pattern(dir, "grad_M.mtx", &p->M, gM, err);
            if (!rc) rc = write_on_pattern(dir, "grad_J.mtx", &p->J, gJ, err);
            if (!rc) rc = write_vec(dir, "grad_v.mtx", gv, nb, err);
            if (!rc) rc = write_vec(dir, "grad_e.mtx", gb, n, err); /* b = J v + e */
        }
    }
    d->done = !rc;
    free(out);
    lcp_diff_free(&D);
    return rc;
}
