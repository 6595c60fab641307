/* src/io/config.h: YAML solver configurations (--config FILE.yaml).
 * A configuration is one mapping whose keys are the long option names of
 * the command line (solver, precond, tol, max-iter, omega, threads,
 * time-limit, ...) and whose values are scalars; each pair is handed to the
 * same option handler as the command line, which takes precedence. */
#ifndef LCPSOLVE_CONFIG_H
#define LCPSOLVE_CONFIG_H

#include "../core/common.h"

/* Calls set(ctx, key, value, line) for each pair; stops at the first
 * non-zero return.  Errors: "FILE:LINE: reason", LCP_INPUT_ERROR. */
int lcp_config_read(const char *path, int (*set)(void *ctx, const char *key, const char *value, long line),
                    void *ctx, lcp_err *err);

#endif
