/* src/cli/bench_internal.h: what the files of `lcpsolve bench` share: the
 * resolved configurations, the probes, the rows of the CSV, the cells of
 * the table, and the calls between src/cli/bench.c (the command),
 * src/cli/bench_run.c (the children) and src/cli/bench_report.c (the
 * output).
 */
#ifndef LCPSOLVE_BENCH_INTERNAL_H
#define LCPSOLVE_BENCH_INTERNAL_H

#include "../io/io.h"
#include "../io/plan.h"
#include "../solvers/solver.h"

#include <cjson/cJSON.h>
#include <signal.h>

#define DEFAULT_TIME_LIMIT 60.0

/* Set by bench's SIGINT/SIGTERM handler (bench.c): stop handing out runs,
 * pass the signal on to a running child. */
extern volatile sig_atomic_t bench_stop;

typedef struct {
    const char *solver, *precond; /* "auto", "none" when not given */
    const lcp_solver *sv;         /* NULL for auto */
    lcp_kind kind_hint;
    int cone_k;
    double time_limit;
    const char *tol, *threads; /* as given, for rows without --json */
} bench_cfg;

typedef struct {
    int done, ok;
    char status[16]; /* when not ok: input_error, crash or timeout */
    lcp_kind kind;
    int n, contacts;
    long nnz;
    char msg[600];
} probe_res;

typedef struct {
    int problem, config, repeat;
    int exit_code; /* -1: none (skipped) */
    char status[24];
    cJSON *json;   /* the run's --json object, or NULL */
    char *message; /* bench's own note (crash, timeout, skip, stderr), or NULL */
    double wall_s; /* < 0: not run */
    const probe_res *pr;
} bench_row;

typedef struct {
    bench_row *v;
    int n, cap;
} row_list;

typedef struct {
    double median;   /* of the solved runs' time_s; NAN when none */
    int solved, runs;
    const char *status; /* "solved", or the most frequent status of the runs */
    int best;
} cell;

/* bench.c.  A new row at the end of rows (exit_code -1, wall_s -1, the
 * rest zero); NULL when out of memory. */
bench_row *bench_new_row(row_list *rows);

/* bench_run.c.  Reads the problem at path in a child (limit_s seconds at
 * most): its kind, n, nnz and contacts, or why not (status, msg). */
void bench_probe(const char *path, lcp_kind hint, double limit_s, probe_res *pr);

/* bench_run.c.  Run rep of configuration k on problem p: lcpsolve's main
 * (run_main) in a child, its --json object, exit and message made into a
 * new row of rows.  0, or LCP_ERROR when no child could be run (err set). */
int bench_do_run(const lcp_plan *plan, const bench_cfg *cfg, int p, int k, int rep, int (*run_main)(int, char **),
                 const probe_res *pr, row_list *rows, lcp_err *err);

/* bench_report.c.  The CSV of the rows into out (not committed). */
int bench_write_csv(lcp_outfile *out, const lcp_plan *plan, const bench_cfg *cfg, const row_list *rows, lcp_err *err);

/* bench_report.c.  cells[problem * nconfigs + config] from the rows: the
 * median time of the solved runs, the status, the fastest marked. */
void bench_make_cells(const lcp_plan *plan, const row_list *rows, cell *cells);

/* bench_report.c.  The table on stdout, or the one JSON summary object. */
void bench_print_table(const lcp_plan *plan, const cell *cells);
void bench_print_json(const lcp_plan *plan, const bench_cfg *cfg, const row_list *rows, const cell *cells,
                      const char *output, int interrupted, int exit_code);

#endif
