/* src/io/read.c: lcp_read_problem, the one entry point that turns a path
 * into a checked problem: a folder, .json, .dat, .hdf5/.h5, or "-" for
 * standard input, whose format is told from its first bytes. */
#include "io.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static int has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && !strcasecmp(path + n - e, ext);
}

/* The HDF5 signature, at offset 0 or (after a user block) 512, 1024, ... */
static int is_hdf5(const char *buf, size_t len)
{
    static const char sig[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
    for (size_t off = 0; off + 8 <= len; off = off ? 2 * off : 512)
        if (!memcmp(buf + off, sig, 8)) return 1;
    return 0;
}

/* HDF5 from standard input: libfclib reads a path, so the bytes go to a
 * temporary file (TMPDIR, else /tmp), removed once read. */
static int read_fclib_bytes(const char *name, const char *buf, size_t len, lcp_problem *p, lcp_err *err)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    size_t plen = strlen(dir) + 32;
    char *tmp = malloc(plen);
    if (!tmp) return lcp_fail(err, LCP_ERROR, name, 0, "out of memory");
    snprintf(tmp, plen, "%s/lcpsolve-stdin-XXXXXX", dir);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int rc = lcp_fail(err, LCP_ERROR, name, 0, "cannot make a temporary file in %s: %s", dir, strerror(errno));
        free(tmp);
        return rc;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t k = write(fd, buf + done, len - done);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        done += (size_t)k;
    }
    int rc = close(fd) != 0 || done < len
                 ? lcp_fail(err, LCP_ERROR, name, 0, "cannot write a temporary file in %s: %s", dir, strerror(errno))
                 : lcp_read_fclib_as(tmp, name, p, err);
    unlink(tmp);
    free(tmp);
    return rc;
}

/* Standard input, in any format a single file may have, told from its
 * first bytes: the HDF5 signature -> FCLIB; after blanks, '{' -> JSON,
 * "%%MatrixMarket" -> refused as a file path ending in .mtx is (one matrix
 * is not a problem: -A - -b b.mtx reads it), a number -> Siconos .dat;
 * anything else is refused naming what it found. */
static int read_stdin(lcp_kind kind_hint, lcp_problem *p, lcp_err *err)
{
    const char *name = "<stdin>";
    char *buf = NULL;
    size_t len = 0;
    int rc = lcp_read_bytes("-", (size_t)INT_MAX, &buf, &len, err);
    if (rc) return rc;
    size_t k = 0;
    if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) k = 3; /* a UTF-8 byte order mark */
    long line = 1; /* of buf[k] */
    for (; k < len && buf[k] && strchr(" \t\r\n\v\f", buf[k]); k++) line += buf[k] == '\n';
    if (is_hdf5(buf, len)) rc = read_fclib_bytes(name, buf, len, p, err);
    else if (k == len)
        rc = lcp_fail(err, LCP_INPUT_ERROR, name, 1,
                      "standard input is empty (expected a problem: JSON, Siconos .dat or FCLIB HDF5)");
    else if (len - k >= 14 && !memcmp(buf + k, "%%MatrixMarket", 14))
        rc = lcp_fail(err, LCP_INPUT_ERROR, name, line,
                      "a Matrix Market file holds one matrix: give the problem as -A - -b b.mtx (or -A A.mtx -b -), "
                      "or a folder");
    else if (buf[k] == '{' || buf[k] == '[') rc = lcp_read_json_text(name, buf, len, p, err);
    else if (buf[k] && strchr("0123456789+-.", buf[k])) rc = lcp_read_dat_text(name, buf, len, kind_hint, p, err);
    else if ((rc = lcp_check_text(name, buf, len, err)) == 0) {
        char show[24];
        size_t m = 0;
        for (; m + 1 < sizeof show && k + m < len && !strchr(" \t\r\n", buf[k + m]); m++)
            show[m] = (unsigned char)buf[k + m] >= 32 && (unsigned char)buf[k + m] < 127 ? buf[k + m] : '?';
        show[m] = '\0';
        rc = lcp_fail(err, LCP_INPUT_ERROR, name, line,
                      "not a problem in a known format: '%s' starts neither JSON ('{'), a Siconos .dat file (a "
                      "number) nor FCLIB HDF5", show);
    }
    free(buf);
    return rc;
}

int lcp_read_problem(const char *path, lcp_kind kind_hint, lcp_problem *p, lcp_err *err)
{
    struct stat st;
    int rc;
    if (!strcmp(path, "-")) rc = read_stdin(kind_hint, p, err);
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
