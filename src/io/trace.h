/* src/io/trace.h: CSV convergence traces, header
 * "iter,time_s,residual,complementarity,feasibility" then solver columns.
 * Written to a temporary file and renamed on close: whole or not at all. */
#ifndef LCPSOLVE_TRACE_H
#define LCPSOLVE_TRACE_H

#include "io.h"
#include "../core/verify.h"

typedef struct {
    lcp_outfile out;
    int nextra;
} lcp_trace;

/* extra: NULL-terminated list of solver-specific column names (may be NULL). */
int lcp_trace_open(lcp_trace *t, const char *path, const char *const *extra, lcp_err *err);
void lcp_trace_row(lcp_trace *t, int iter, double time_s, const lcp_metrics *m,
                   const double *extra);
int lcp_trace_close(lcp_trace *t, lcp_err *err);
void lcp_trace_abort(lcp_trace *t);

#endif
