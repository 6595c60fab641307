/* src/choose.h: `--solver auto`: a solver and a preconditioner picked from
 * the problem's kind, size, sparsity, symmetry, definiteness and a cheap
 * condition estimate, with the reasons (src/choose.c). */
#ifndef LCPSOLVE_CHOOSE_H
#define LCPSOLVE_CHOOSE_H

#include "solvers/solver.h"

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

#endif
