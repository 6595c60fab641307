/* src/core/auto.h: `--solver auto`: a solver and a preconditioner picked from
 * the problem's kind, size, sparsity, symmetry, definiteness and a cheap
 * condition estimate, with the reasons (src/core/auto.c). */
#ifndef LCPSOLVE_CHOOSE_H
#define LCPSOLVE_CHOOSE_H

#include "../solvers/solver.h"

typedef struct {
    const lcp_solver *solver;
    const lcp_precond_type *precond; /* NULL: none */
    const char *precond_name;        /* "none" or the preconditioner's name */
    char reason[900];                /* "auto: NAME (why)" */
    /* where the pick may stall: run it with at most budget iterations, then,
     * unless solved (or a proven verdict), fallback from zero; but where
     * warm_budget > 0, fallback first runs from the pick's best iterate on
     * warm_budget iterations (a Newton polish of admm's slow tail); when
     * that does not solve and resume > budget, the pick again from its best
     * iterate up to resume iterations in all, the warm try once more, and
     * only then fallback from zero */
    const lcp_solver *fallback;      /* NULL: none */
    const lcp_precond_type *fallback_precond;
    int budget, warm_budget, resume;
    /* and where the fallback may stall too: it runs on fallback_budget
     * iterations, then fallback2 (no budget) from zero */
    const lcp_solver *fallback2;
    int fallback_budget;
    /* the pick is a cheap first try (a few Newton steps, run on budget):
     * callers that run no fallbacks (batch) take fallback and
     * fallback_precond, the pick of the rules without it */
    int probe;
    double time_s;                   /* the time spent choosing */
} lcp_auto_choice;

/* Fills ch for problem p; 0, or LCP_INPUT_ERROR when no solver of this build
 * takes the problem (the reason in err). */
int lcp_choose_auto(const lcp_problem *p, lcp_auto_choice *ch, lcp_err *err);

/* Where ch's pick is a Newton first try (probe), makes the pick the rules'
 * one behind it (for callers that run no fallbacks, or a -p it does not
 * take); the reason says so.  Nothing otherwise. */
void lcp_auto_drop_probe(lcp_auto_choice *ch);

/* The runs of one auto solve: the pick on its budget, then its fallbacks
 * as the fields above say.  lcp_auto_begin gives the first run,
 * lcp_auto_next after each run (how it ended) whether another follows and
 * which; the one sequence of runs for every caller (main.c's solve,
 * sequence.c's steps).  The caller sets x as start says, keeping the
 * saved iterate (FROM_BEST: save the run's best iterate too; saved: one
 * is kept -- without it there is no second round of the pick). */
typedef enum {
    LCP_AUTO_FROM_ZERO,  /* x = 0 (a stalled iterate can hold a Newton method back) */
    LCP_AUTO_FROM_BEST,  /* x = the best iterate of the run just ended, and save it */
    LCP_AUTO_FROM_SAVED  /* x = the iterate saved at the last FROM_BEST */
} lcp_auto_start;
typedef struct {
    const lcp_solver *solver;        /* the next run */
    const lcp_precond_type *precond;
    int max_iter;                    /* its budget; 0: none (the caller's --max-iter) */
    lcp_auto_start start;            /* lcp_auto_next's runs: where x starts */
    const char *what;                /* the same in words ("from zero", ...) */
    /* the state */
    const lcp_precond_type *pick_precond;
    int stage, polish, resumed;      /* fallbacks begun; a warm try running; the pick's second round done */
} lcp_auto_run;
/* The first run: sv with precond (ch's pick, or the caller's solver with ch
 * zeroed: no fallbacks), on ch's budget where it has a fallback. */
void lcp_auto_begin(const lcp_auto_choice *ch, const lcp_solver *sv, const lcp_precond_type *precond, int user_max,
                    lcp_auto_run *r);
/* After a run that ended with status (best_finite: the monitor's best
 * residual is finite; saved: an iterate is kept from a FROM_BEST): 1 and
 * the next run in r, or 0 when none follows (solved, a proven verdict, a
 * stop without a budget, or no fallback left that takes p). */
int lcp_auto_next(const lcp_auto_choice *ch, const lcp_problem *p, int user_max, lcp_status status, int best_finite,
                  int saved, lcp_auto_run *r);

#endif
