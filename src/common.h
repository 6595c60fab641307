/* src/common.h: error reporting, checked allocation, timing, status codes.
 *
 * Conventions used throughout lcpsolve:
 *  - Functions that can fail return 0 on success and a non-zero lcp_status
 *    on failure, with a one-line reason in an lcp_err ("FILE:LINE: what").
 *  - Kernels never print and never exit; only src/main.c maps a status to an
 *    exit code and prints.
 *  - Indices are int (32 bit); sizes are checked against INT_MAX at load.
 *  - Free functions are NULL-safe.
 */
#ifndef LCPSOLVE_COMMON_H
#define LCPSOLVE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define LCP_VERSION "0.1.0"

/* One table of run outcomes: name in --json, exit code (DESIGN.md), meaning. */
#define LCP_STATUS_TABLE(X)                                                        \
    X(LCP_SOLVED,        "solved",             0, "residual <= tol")                \
    X(LCP_MAX_ITER,      "max_iter",           1, "iteration limit reached")        \
    X(LCP_TIME_LIMIT,    "time_limit",         1, "time limit reached")             \
    X(LCP_INPUT_ERROR,   "input_error",        2, "usage or input error")           \
    X(LCP_NO_SOLUTION,   "no_solution",        3, "the problem has no solution")    \
    X(LCP_REF_MISMATCH,  "reference_mismatch", 4, "differs from --reference")       \
    X(LCP_ERROR,         "error",              5, "numerical breakdown or internal error") \
    X(LCP_STALLED,       "stalled",            1, "--adaptive: the residual stopped improving")

typedef enum {
#define X(id, name, code, msg) id,
    LCP_STATUS_TABLE(X)
#undef X
    LCP_STATUS_COUNT
} lcp_status;

const char *lcp_status_name(lcp_status s);
int lcp_status_exit_code(lcp_status s);

/* A one-line error message: "FILE:LINE: reason" or "FILE: reason". */
typedef struct {
    char msg[1024];
} lcp_err;

/* Sets err (if not NULL) and returns code; line <= 0 omits the line. */
int lcp_fail(lcp_err *err, int code, const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* malloc/calloc of count*size bytes; NULL on overflow or failure. */
void *lcp_alloc(size_t count, size_t size);
void *lcp_calloc(size_t count, size_t size);

/* Monotonic wall-clock seconds. */
double lcp_now(void);

/* Duplicate a string (NULL-safe). */
char *lcp_strdup(const char *s);

#endif
