/* src/io/read.c: lcp_read_problem, the one entry point that turns a path
 * into a checked problem: a folder, .json, .dat, .hdf5/.h5. */
#include "io.h"

#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static int has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && !strcasecmp(path + n - e, ext);
}

int lcp_read_problem(const char *path, lcp_kind kind_hint, lcp_problem *p, lcp_err *err)
{
    struct stat st;
    int rc;
    if (!strcmp(path, "-")) /* standard input: a whole problem in JSON */
        rc = lcp_read_json(path, p, err);
    else if (stat(path, &st) != 0) return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "no such file or folder");
    else if (S_ISDIR(st.st_mode)) rc = lcp_read_folder(path, kind_hint, p, err);
    else if (has_ext(path, ".json")) rc = lcp_read_json(path, p, err);
    else if (has_ext(path, ".dat")) rc = lcp_read_dat(path, kind_hint, p, err);
    else if (has_ext(path, ".hdf5") || has_ext(path, ".h5")) rc = lcp_read_fclib(path, p, err);
    else if (has_ext(path, ".mtx"))
        return lcp_fail(err, LCP_INPUT_ERROR, path, 0,
                        "a Matrix Market file holds one matrix: give the problem as -A A.mtx -b b.mtx, or a folder");
    else
        return lcp_fail(err, LCP_INPUT_ERROR, path, 0,
                        "unknown problem format (expected a folder, .json, .dat, .hdf5)");
    if (rc) return rc;
    if (kind_hint && !(p->kind & LCP_KIND_FRICTION && kind_hint & LCP_KIND_FRICTION)) {
        if (p->kind && p->kind != kind_hint)
            return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "the file holds a %s problem, not %s",
                            lcp_kind_name(p->kind), lcp_kind_name(kind_hint));
    }
    if (kind_hint) p->kind = kind_hint;
    if (!p->source) p->source = lcp_strdup(strcmp(path, "-") ? path : "<stdin>");
    return lcp_problem_finish(p, err);
}
