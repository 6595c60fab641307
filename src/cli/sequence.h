/* src/cli/sequence.h: `lcpsolve sequence DIR [OPTIONS]` (src/cli/sequence.c):
 * the steps of a simulation, one contact problem a time step (written by
 * `lcpsolve generate sequence`, src/cli/generate_sequence.c: DIR/step-0000
 * ... are problem folders with ids.mtx, one persistent id a contact),
 * solved in order, each warm-started from the previous step's solution
 * matched by contact id; its --schedule.
 */
#ifndef LCPSOLVE_CLI_SEQUENCE_H
#define LCPSOLVE_CLI_SEQUENCE_H

#include "../core/pipeline.h"

/* --schedule SPEC: "P:V,P:V,..." with progress fractions 0 = P_1 < P_2 <
 * ... < 1; every V an iteration cap (a whole number >= 1) or every V a
 * tolerance (a number in (0, 1) written with '.' or 'e').  The step at
 * progress k/K (k = 0..K-1 of K steps) uses the entry with the largest
 * P <= k/K. */
#define LCP_SCHEDULE_MAX 32
typedef struct {
    int n;       /* entries, 0 for no schedule */
    int is_tol;  /* 1: values are tolerances, 0: iteration caps */
    double at[LCP_SCHEDULE_MAX], value[LCP_SCHEDULE_MAX];
} lcp_schedule;

/* 0, or LCP_INPUT_ERROR with a one-line reason in err. */
int lcp_schedule_parse(const char *spec, lcp_schedule *sch, lcp_err *err);
/* Applies the entry for progress fraction f to s (max_iter or tol). */
void lcp_schedule_apply(const lcp_schedule *sch, double f, lcp_settings *s);

typedef struct {
    const char *dir;
    const lcp_solve_opts *o;      /* the settings of every step (the pipeline's); warm_factor: x0 =
                                   * warm_factor * dt_ratio * the previous x, matched by id; 0: cold starts */
    lcp_kind kind;                /* --kind: the kind of the steps where their files do not say */
    const lcp_schedule *schedule; /* NULL or n == 0: none */
    int json, quiet;
    /* --tune: each step's configuration and iteration budget chosen by a
     * bandit (sequence.c), reward -alpha time_s - beta residual */
    int tune;
    double alpha, beta;
} lcp_sequence_opts;

/* Solves every DIR/step-* in name order; prints a line (or a JSON object) a
 * step and a total.  Returns the exit code: 0 all solved, 1 some stopped at
 * a limit (or stalled), 2 input error, 3 no solution, 5 breakdown. */
int lcp_sequence_solve(const lcp_sequence_opts *o, lcp_err *err);

#endif
