/* src/io/json.c: problems in JSON, through cJSON.
 *
 * One object.  "kind": "lcp" | "blcp" | "ccp" | "fc3d" (optional: inferred as
 * for folders).  Each data field (A b mu lo hi findex M J v e) is either
 *   - a string: a Matrix Market file, relative to the JSON file (a manifest);
 *   - a matrix inline: an array of rows [[a11, a12], [a21, a22]], or
 *     {"size": [m, n], "entries": [[i, j, value], ...]} with 0-based i, j;
 *   - a vector inline: [x1, x2, ...]; in lo and hi the strings "inf" and
 *     "-inf" stand for infinite bounds.
 * "n", when present, must equal the number of unknowns (A's rows, or J's).
 * Other keys ("scene", "params", "comment", ...) are ignored.  Errors name
 * the line: cJSON's parse position, or the line where the key appears.
 */
#include "io.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_BYTES (1L << 30)


static long line_at(const char *text, size_t offset)
{
    long line = 1;
    for (size_t i = 0; i < offset && text[i]; i++) line += text[i] == '\n';
    return line;
}

/* The line of the first occurrence of "key" in the text (1 if not found). */
static long line_of_key(const char *text, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *s = strstr(text, pat);
    return s ? line_at(text, (size_t)(s - text)) : 1;
}

/* A number, or for bounds "inf" / "-inf". */
static int json_number(const cJSON *it, int allow_inf, double *x)
{
    if (cJSON_IsNumber(it)) {
        *x = it->valuedouble;
        return 1;
    }
    if (allow_inf && cJSON_IsString(it)) {
        if (!strcmp(it->valuestring, "inf") || !strcmp(it->valuestring, "+inf")) *x = INFINITY;
        else if (!strcmp(it->valuestring, "-inf")) *x = -INFINITY;
        else return 0;
        return 1;
    }
    return 0;
}

static int inline_vector(const cJSON *it, const char *field, double **out, int *n, const char *path,
                         long line, lcp_err *err)
{
    int allow_inf = !strcmp(field, "lo") || !strcmp(field, "hi");
    int len = cJSON_GetArraySize(it);
    double *v = lcp_alloc((size_t)len, sizeof(double));
    if (!v) return lcp_fail(err, LCP_ERROR, path, line, "out of memory");
    int k = 0;
    for (const cJSON *e = it->child; e; e = e->next, k++)
        if (!json_number(e, allow_inf, &v[k])) {
            free(v);
            return lcp_fail(err, LCP_INPUT_ERROR, path, line, "%s[%d] is not a number", field, k + 1);
        }
    *out = v;
    *n = len;
    return 0;
}

static int inline_matrix(const cJSON *it, const char *field, lcp_csr *A, const char *path, long line,
                         size_t text_len, lcp_err *err)
{
    memset(A, 0, sizeof *A);
    if (cJSON_IsArray(it)) { /* rows */
        int m = cJSON_GetArraySize(it), n = -1, i = 0;
        if (m == 0) return lcp_fail(err, LCP_INPUT_ERROR, path, line, "%s has no rows", field);
        for (const cJSON *r = it->child; r; r = r->next, i++) {
            if (!cJSON_IsArray(r))
                return lcp_fail(err, LCP_INPUT_ERROR, path, line, "row %d of %s is not an array", i + 1, field);
            int len = cJSON_GetArraySize(r);
            if (n >= 0 && len != n)
                return lcp_fail(err, LCP_INPUT_ERROR, path, line, "row %d of %s has %d entries, row 1 has %d",
                                i + 1, field, len, n);
            n = len;
        }
        double *a = lcp_calloc((size_t)m * (size_t)n, sizeof(double));
        if (!a) return lcp_fail(err, LCP_ERROR, path, line, "out of memory");
        i = 0;
        for (const cJSON *r = it->child; r; r = r->next, i++) {
            int c = 0;
            for (const cJSON *e = r->child; e; e = e->next, c++)
                if (!json_number(e, 0, &a[i + (size_t)c * m])) {
                    free(a);
                    return lcp_fail(err, LCP_INPUT_ERROR, path, line, "%s(%d,%d) is not a number", field, i + 1,
                                    c + 1);
                }
        }
        int rc = lcp_csr_from_dense_colmajor(A, m, n, a);
        free(a);
        return rc ? lcp_fail(err, rc, path, line, "out of memory") : 0;
    }
    const cJSON *size = cJSON_GetObjectItemCaseSensitive(it, "size");
    const cJSON *ent = cJSON_GetObjectItemCaseSensitive(it, "entries");
    if (!cJSON_IsObject(it) || !cJSON_IsArray(size) || cJSON_GetArraySize(size) != 2 || !cJSON_IsArray(ent))
        return lcp_fail(err, LCP_INPUT_ERROR, path, line,
                        "%s must be a file name, an array of rows, or {\"size\": [m, n], \"entries\": [[i, j, x], ...]}",
                        field);
    double dm = cJSON_GetArrayItem(size, 0)->valuedouble, dn = cJSON_GetArrayItem(size, 1)->valuedouble;
    if (!cJSON_IsNumber(cJSON_GetArrayItem(size, 0)) || !cJSON_IsNumber(cJSON_GetArrayItem(size, 1)) || dm < 0 ||
        dn < 0 || dm > 2147483647.0 || dn > 2147483647.0 || dm != floor(dm) || dn != floor(dn))
        return lcp_fail(err, LCP_INPUT_ERROR, path, line, "%s: size must be two non-negative integers", field);
    /* rows and columns cost memory even when empty: beyond 2^24, at most 64
     * a byte of the file (the caller checked the size of the text) */
    if (dm + dn > 16777216.0 && dm + dn > 64.0 * (double)text_len)
        return lcp_fail(err, LCP_INPUT_ERROR, path, line,
                        "%s: size %.0f x %.0f is not plausible for a file of %zu bytes (empty rows and columns "
                        "cost memory: at most 64 a byte beyond 2^24)", field, dm, dn, text_len);
    int nz = cJSON_GetArraySize(ent), k = 0;
    int *ti = lcp_alloc((size_t)nz, sizeof(int)), *tj = lcp_alloc((size_t)nz, sizeof(int));
    double *tx = lcp_alloc((size_t)nz, sizeof(double));
    int rc = 0;
    if (!ti || !tj || !tx) rc = lcp_fail(err, LCP_ERROR, path, line, "out of memory");
    for (const cJSON *e = ent->child; e && !rc; e = e->next, k++) {
        const cJSON *a = cJSON_GetArrayItem(e, 0), *b = cJSON_GetArrayItem(e, 1), *c = cJSON_GetArrayItem(e, 2);
        if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 3 || !cJSON_IsNumber(a) || !cJSON_IsNumber(b) ||
            !cJSON_IsNumber(c) || a->valuedouble < 0 || a->valuedouble >= dm || b->valuedouble < 0 ||
            b->valuedouble >= dn || a->valuedouble != floor(a->valuedouble) ||
            b->valuedouble != floor(b->valuedouble)) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, line,
                          "%s entry %d must be [i, j, x] with 0 <= i < %g, 0 <= j < %g", field, k + 1, dm, dn);
            break;
        }
        ti[k] = (int)a->valuedouble;
        tj[k] = (int)b->valuedouble;
        tx[k] = c->valuedouble;
    }
    if (!rc && lcp_csr_from_triplets(A, (int)dm, (int)dn, nz, ti, tj, tx))
        rc = lcp_fail(err, LCP_ERROR, path, line, "out of memory");
    free(ti);
    free(tj);
    free(tx);
    return rc;
}

/* A file named in a manifest, relative to the manifest's folder. */
static char *relative_path(const char *json_path, const char *name)
{
    if (name[0] == '/') return lcp_strdup(name);
    const char *slash = strrchr(json_path, '/');
    size_t dl = slash ? (size_t)(slash - json_path) + 1 : 0;
    char *s = malloc(dl + strlen(name) + 1);
    if (!s) return NULL;
    memcpy(s, json_path, dl);
    strcpy(s + dl, name);
    return s;
}

int lcp_read_json(const char *path, lcp_problem *p, lcp_err *err)
{
    size_t len = 0;
    char *text = NULL;
    int rc = lcp_read_bytes(path, JSON_MAX_BYTES, &text, &len, err); /* lcp_read_json_text checks the text */
    if (rc) return rc;
    rc = lcp_read_json_text(strcmp(path, "-") ? path : "<stdin>", text, len, p, err);
    free(text);
    return rc;
}

int lcp_read_json_text(const char *path, const char *text, size_t len, lcp_problem *p, lcp_err *err)
{
    int rc = lcp_check_text(path, text, len, err);
    if (rc) return rc;
    if (len > JSON_MAX_BYTES)
        return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "larger than %zu bytes", (size_t)JSON_MAX_BYTES);
    /* --max-memory: cJSON takes a node (64 bytes) a value; count them */
    double nodes = 1;
    for (size_t k = 0; k < len; k++) nodes += text[k] == ',' || text[k] == '[' || text[k] == '{';
    if (!lcp_memory_fits(nodes * 64.0 + (double)len)) {
        char b1[32], b2[32];
        rc = lcp_fail(err, LCP_INPUT_ERROR, path, 1, "%.0f values need about %s, more than --max-memory %s", nodes,
                      lcp_bytes_str(nodes * 64.0 + (double)len, b1), lcp_bytes_str((double)lcp_memory_limit, b2));
        return rc;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root) {
        size_t off = end ? (size_t)(end - text) : 0;
        if (!end && cJSON_GetErrorPtr()) off = (size_t)(cJSON_GetErrorPtr() - text);
        return lcp_fail(err, LCP_INPUT_ERROR, path, line_at(text, off), "invalid JSON near '%.20s'", text + off);
    }
    if (!cJSON_IsObject(root)) {
        rc = lcp_fail(err, LCP_INPUT_ERROR, path, 1, "expected a JSON object");
        goto done;
    }
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(root, "kind");
    if (kind) {
        if (!cJSON_IsString(kind) || lcp_kind_parse(kind->valuestring) == LCP_KIND_NONE) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, line_of_key(text, "kind"),
                          "\"kind\" must be one of lcp, blcp, ccp, fc3d");
            goto done;
        }
        p->kind = lcp_kind_parse(kind->valuestring);
    }
    /* "n", when given, is a claim about the data: checked against it once
     * read (nothing is allocated from it) */
    const cJSON *nkey = cJSON_GetObjectItemCaseSensitive(root, "n");
    long nline = nkey ? line_of_key(text, "n") : 0;
    if (nkey && (!cJSON_IsNumber(nkey) || !(nkey->valuedouble >= 0) || nkey->valuedouble != floor(nkey->valuedouble) ||
                 nkey->valuedouble > 9e15)) {
        rc = lcp_fail(err, LCP_INPUT_ERROR, path, nline, "\"n\" must be the number of unknowns (a whole number >= 0)");
        goto done;
    }
    int found = 0;
    for (int k = 0; k < 10 && !rc; k++) {
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(root, lcp_field_names[k]);
        if (!it) continue;
        found++;
        long line = line_of_key(text, lcp_field_names[k]);
        if (!cJSON_IsString(it)) lcp_problem_set_where(p, lcp_field_names[k], path, line);
        if (cJSON_IsString(it)) {
            char *file = relative_path(path, it->valuestring);
            if (!file) rc = lcp_fail(err, LCP_ERROR, path, line, "out of memory");
            else if ((rc = lcp_read_field_mtx(p, lcp_field_names[k], file, err)) && err) {
                char inner[sizeof err->msg];
                memcpy(inner, err->msg, sizeof inner);
                lcp_fail(err, rc, path, line, "\"%s\": %s", lcp_field_names[k], inner);
            }
            free(file);
        } else if (lcp_field_is_matrix(lcp_field_names[k])) {
            lcp_csr A;
            if (!(rc = inline_matrix(it, lcp_field_names[k], &A, path, line, len, err)) &&
                (rc = lcp_set_matrix_field(p, lcp_field_names[k], &A, p->where[k] ? p->where[k] : path, err)))
                lcp_csr_free(&A);
        } else if (cJSON_IsArray(it)) {
            double *v = NULL;
            int n = 0;
            if (!(rc = inline_vector(it, lcp_field_names[k], &v, &n, path, line, err)) &&
                (rc = lcp_set_vector_field(p, lcp_field_names[k], v, n, p->where[k] ? p->where[k] : path, err)))
                free(v);
        } else {
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, line, "\"%s\" must be a file name or an array", lcp_field_names[k]);
        }
    }
    if (!rc && !found)
        rc = lcp_fail(err, LCP_INPUT_ERROR, path, 1, "no problem data (keys A, b or M, J, v)");
    if (!rc && nkey) { /* the unknowns are A's rows, or J's in the factored form */
        const lcp_csr *M = p->A.p ? &p->A : p->J.p ? &p->J : NULL;
        const char *mname = p->A.p ? "A" : "J";
        double n = nkey->valuedouble;
        if (M && n != (double)M->m)
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, nline, "\"n\" is %.0f but %s is %d x %d", n, mname, M->m, M->n);
        else if (!M && p->b && n != (double)p->blen)
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, nline, "\"n\" is %.0f but b has %d entries", n, p->blen);
    }
    if (!rc) {
        free(p->format);
        p->format = lcp_strdup("json");
    }
done:
    cJSON_Delete(root);
    return rc;
}
