/* src/io/outfile.c: atomic output files (write a temporary, then rename). */
#include "io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int lcp_outfile_open(lcp_outfile *o, const char *path, lcp_err *err)
{
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->fp = stdout;
        return 0;
    }
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "cannot write: is a directory");
        o->path = lcp_strdup(path); /* a device or a FIFO: in place */
        o->fp = o->path ? fopen(path, "w") : NULL;
        if (!o->fp) {
            int e = errno;
            lcp_outfile_abort(o);
            return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "cannot write: %s", strerror(e));
        }
        return 0;
    }
    size_t len = strlen(path) + 64;
    o->path = lcp_strdup(path);
    o->tmp = malloc(len);
    if (!o->path || !o->tmp) {
        lcp_outfile_abort(o);
        return lcp_fail(err, LCP_ERROR, path, 0, "out of memory");
    }
    snprintf(o->tmp, len, "%s.tmp.%ld", path, (long)getpid());
    o->fp = fopen(o->tmp, "w");
    if (!o->fp) {
        int e = errno;
        lcp_outfile_abort(o);
        return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "cannot write: %s", strerror(e));
    }
    return 0;
}

int lcp_outfile_commit(lcp_outfile *o, lcp_err *err)
{
    FILE *fp = o->fp;
    if (!fp) return lcp_fail(err, LCP_ERROR, o->path, 0, "not open");
    if (fp == stdout) {
        o->fp = NULL;
        return fflush(stdout) == 0 ? 0 : lcp_fail(err, LCP_ERROR, "-", 0, "write failed");
    }
    int bad = ferror(fp);
    bad |= fflush(fp) != 0;
    bad |= fclose(fp) != 0;
    o->fp = NULL;
    if (bad) {
        int rc = lcp_fail(err, LCP_ERROR, o->path, 0, "write failed: %s", strerror(errno));
        lcp_outfile_abort(o);
        return rc;
    }
    if (o->tmp && rename(o->tmp, o->path) != 0) {
        int rc = lcp_fail(err, LCP_ERROR, o->path, 0, "cannot rename into place: %s",
                          strerror(errno));
        lcp_outfile_abort(o);
        return rc;
    }
    free(o->tmp);
    free(o->path);
    o->tmp = o->path = NULL;
    return 0;
}

int lcp_outfile_probe(const char *path, lcp_err *err)
{
    struct stat st;
    if (strcmp(path, "-") && stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return access(path, W_OK) == 0 ? 0 : lcp_fail(err, LCP_INPUT_ERROR, path, 0, "cannot write: %s", strerror(errno));
    lcp_outfile o;
    int rc = lcp_outfile_open(&o, path, err);
    if (!rc) lcp_outfile_abort(&o);
    return rc;
}

void lcp_outfile_abort(lcp_outfile *o)
{
    if (o->fp && o->fp != stdout) fclose(o->fp);
    if (o->tmp) remove(o->tmp);
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}
