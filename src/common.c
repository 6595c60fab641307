/* src/common.c: status table, errors, checked allocation, clock. */
#include "common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct {
    const char *name;
    int code;
} status_table[] = {
#define X(id, name, code, msg) {name, code},
    LCP_STATUS_TABLE(X)
#undef X
};

const char *lcp_status_name(lcp_status s)
{
    return (s >= 0 && s < LCP_STATUS_COUNT) ? status_table[s].name : "error";
}

int lcp_status_exit_code(lcp_status s)
{
    return (s >= 0 && s < LCP_STATUS_COUNT) ? status_table[s].code : 5;
}

int lcp_fail(lcp_err *err, int code, const char *file, long line, const char *fmt, ...)
{
    if (!err) return code;
    size_t k = 0;
    if (file && line > 0)
        k = (size_t)snprintf(err->msg, sizeof err->msg, "%s:%ld: ", file, line);
    else if (file)
        k = (size_t)snprintf(err->msg, sizeof err->msg, "%s: ", file);
    if (k >= sizeof err->msg) k = sizeof err->msg - 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + k, sizeof err->msg - k, fmt, ap);
    va_end(ap);
    for (char *c = err->msg; *c; c++) /* one line, always */
        if (*c == '\n' || *c == '\r') *c = ' ';
    return code;
}

void *lcp_alloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) return NULL;
    size_t bytes = count * size;
    return malloc(bytes ? bytes : 1);
}

void *lcp_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) return NULL;
    return calloc(count ? count : 1, size ? size : 1);
}

double lcp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

char *lcp_strdup(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

int lcp_procs = 1;
