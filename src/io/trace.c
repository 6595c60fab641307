/* src/io/trace.c: CSV convergence traces (docs/contract.md), written atomically. */
#include "trace.h"

#include <stdio.h>
#include <string.h>

int lcp_trace_open(lcp_trace *t, const char *path, const char *const *extra, lcp_err *err)
{
    memset(t, 0, sizeof *t);
    int rc = lcp_outfile_open(&t->out, path, err);
    if (rc) return rc;
    FILE *f = t->out.fp;
    fputs("iter,time_s,residual,complementarity,feasibility", f);
    for (int k = 0; extra && extra[k]; k++, t->nextra++) fprintf(f, ",%s", extra[k]);
    fputc('\n', f);
    return 0;
}

void lcp_trace_row(lcp_trace *t, int iter, double time_s, const lcp_metrics *m, const double *extra)
{
    FILE *f = t->out.fp;
    if (!f) return;
    fprintf(f, "%d,%.6e,%.6e,%.6e,%.6e", iter, time_s, m->residual, m->complementarity, m->feasibility);
    for (int k = 0; k < t->nextra; k++) fprintf(f, ",%.10g", extra ? extra[k] : 0.0);
    fputc('\n', f);
}

int lcp_trace_close(lcp_trace *t, lcp_err *err) { return lcp_outfile_commit(&t->out, err); }

void lcp_trace_abort(lcp_trace *t) { lcp_outfile_abort(&t->out); }
