/* src/io/text.c: a whole file (or standard input) in memory, for the
 * readers that parse text themselves (JSON, Siconos .dat) and for the
 * format sniffing of standard input (src/io/read.c). */
#include "io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lcp_read_bytes(const char *path, size_t max_bytes, char **text, size_t *len, lcp_err *err)
{
    int is_stdin = !strcmp(path, "-");
    const char *name = is_stdin ? "<stdin>" : path;
    *text = NULL;
    *len = 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) return lcp_fail(err, LCP_INPUT_ERROR, name, 0, "cannot open: %s", strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    int rc = 0;
    while (buf) {
        if (n == cap) { /* grow by doubling, up to max_bytes */
            if (cap >= max_bytes) {
                rc = lcp_fail(err, LCP_INPUT_ERROR, name, 0, "larger than %zu bytes", max_bytes);
                break;
            }
            char *b = realloc(buf, 2 * cap + 1);
            if (!b) break;
            buf = b;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (!buf) rc = lcp_fail(err, LCP_ERROR, name, 0, "out of memory");
    else if (!rc && ferror(f)) rc = lcp_fail(err, LCP_INPUT_ERROR, name, 0, "read error: %s", strerror(errno));
    if (!is_stdin) fclose(f);
    if (rc) {
        free(buf);
        return rc;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

int lcp_check_text(const char *name, const char *text, size_t len, lcp_err *err)
{
    const char *nul = memchr(text, '\0', len);
    if (!nul) return 0;
    long line = 1;
    const char *start = text; /* of the line */
    for (const char *c = text; c < nul; c++)
        if (*c == '\n') {
            line++;
            start = c + 1;
        }
    return lcp_fail(err, LCP_INPUT_ERROR, name, line, "NUL byte in a text file (column %zu)", (size_t)(nul - start) + 1);
}

int lcp_read_text(const char *path, size_t max_bytes, char **text, size_t *len, lcp_err *err)
{
    int rc = lcp_read_bytes(path, max_bytes, text, len, err);
    if (rc) return rc;
    if ((rc = lcp_check_text(strcmp(path, "-") ? path : "<stdin>", *text, *len, err))) {
        free(*text);
        *text = NULL;
        *len = 0;
    }
    return rc;
}
