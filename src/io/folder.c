/* src/io/folder.c: a problem folder.  Reads problem.json when present (a
 * manifest, src/io/json.c); otherwise every file of a known field name:
 * A.mtx b.mtx [mu.mtx lo.mtx hi.mtx findex.mtx] and/or M.mtx J.mtx v.mtx
 * [e.mtx].  When both the assembled and the factored form are present, A
 * and b are used as given and M, J, v kept for body-based solvers. */
#include "io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


int lcp_read_folder(const char *dir, lcp_kind kind_hint, lcp_problem *p, lcp_err *err)
{
    size_t len = strlen(dir) + 32;
    char *path = malloc(len);
    if (!path) return lcp_fail(err, LCP_ERROR, dir, 0, "out of memory");
    snprintf(path, len, "%s/problem.json", dir);
    if (access(path, R_OK) == 0) {
        int rc = lcp_read_json(path, p, err);
        free(path);
        if (!rc && kind_hint) p->kind = kind_hint;
        return rc;
    }
    int found = 0, rc = 0;
    for (int k = 0; k < 10 && !rc; k++) {
        snprintf(path, len, "%s/%s.mtx", dir, lcp_field_names[k]);
        if (access(path, F_OK) != 0) continue;
        found++;
        rc = lcp_read_field_mtx(p, lcp_field_names[k], path, err);
    }
    free(path);
    if (rc) return rc;
    if (!found)
        return lcp_fail(err, LCP_INPUT_ERROR, dir, 0,
                        "no problem files in this folder (expected A.mtx b.mtx, or M.mtx J.mtx v.mtx, or problem.json)");
    p->kind = kind_hint;
    free(p->format);
    p->format = lcp_strdup("folder");
    return 0;
}
