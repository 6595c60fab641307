/* src/core/auto.h: `--solver auto`: a configuration (solver and
 * preconditioner) predicted from measurements.  A model (a small text file
 * written by `lcpsolve tune`, the default one built into the library from
 * models/auto.model) holds, for problems of a training corpus, their
 * features (src/core/features.h) and each candidate configuration's time to
 * the tolerance (or its failure); auto ranks the configurations that take
 * the problem's kind by the time its nearest neighbours in the scaled
 * feature space took (src/core/auto.c), runs the first, and switches to the
 * next when a run stops short of the tolerance, runs past its time budget,
 * or (a first-order method) converges at a rate that puts its end far
 * beyond the next candidate's predicted time. */
#ifndef LCPSOLVE_CHOOSE_H
#define LCPSOLVE_CHOOSE_H

#include "../solvers/solver.h"
#include "features.h"

#include <stdio.h>

#define LCP_AUTO_MAXCAND 6 /* candidates run at most, in the predicted order */
#define LCP_AUTO_KNN 7     /* the measured problems a prediction rests on (the nearest) */
#define LCP_AUTO_MAXCFG 64 /* configurations a model holds */

typedef struct {
    const lcp_solver *solver;
    const lcp_precond_type *precond; /* NULL: none */
    double t_pred;                   /* predicted seconds to the tolerance (the neighbours' own) */
    double t_scaled;                 /* the same with the neighbours' times scaled to this problem's nonzeros */
    int budget;                      /* iterations before the next candidate (those without a rate); 0: none */
    double time_budget;              /* seconds before the next candidate; 0: none */
} lcp_auto_cand;

typedef struct {
    const lcp_solver *solver;        /* the pick: cand[0] */
    const lcp_precond_type *precond; /* NULL: none */
    const char *precond_name;        /* "none" or the preconditioner's name */
    char reason[900];                /* "auto: NAME (why)" */
    int ncand;                       /* the candidates in the order they run */
    lcp_auto_cand cand[LCP_AUTO_MAXCAND];
    char predicted[600];             /* "NAME[ -p P]=SECONDS,..." for every ranked configuration */
    int neighbours;                  /* measured problems the prediction rests on */
    const lcp_solver *probe;         /* the kind's Gauss-Seidel solver (pgs; nsgs for friction) where the model
                                        measured it, without a preconditioner, among the configurations ranked:
                                        auto's probe may run it (src/core/pipeline.c); NULL otherwise */
    lcp_features f;
    double time_s;                   /* the time spent choosing (features included) */
} lcp_auto_choice;

/* A model: the measurements of `lcpsolve tune`. */
typedef struct lcp_auto_model lcp_auto_model;

/* Reads a model file (path) or the built-in default (path NULL); NULL with
 * a one-line reason (file:line: what) in err. */
lcp_auto_model *lcp_auto_model_load(const char *path, lcp_err *err);
/* The same from text (source names it in messages). */
lcp_auto_model *lcp_auto_model_parse(const char *text, const char *source, lcp_err *err);
void lcp_auto_model_free(lcp_auto_model *m);
/* Its measured problems, their family and name, and the time of the best
 * configuration that solved each (INFINITY: none). */
int lcp_auto_model_size(const lcp_auto_model *m);
const char *lcp_auto_model_family(const lcp_auto_model *m, int i);
const char *lcp_auto_model_name(const lcp_auto_model *m, int i);
/* the measured time of configuration "solver[ -p precond]" on sample i:
 * seconds, -1 failed, NAN not measured or not of its kind */
double lcp_auto_model_time(const lcp_auto_model *m, int i, const char *config);
/* Removes the samples of family (leave-one-family-out); the count left. */
int lcp_auto_model_drop_family(lcp_auto_model *m, const char *family);
/* Writes m as text (the format tune writes). 0 or -1. */
int lcp_auto_model_write(const lcp_auto_model *m, FILE *out);

/* Fills ch for problem p from the model at path (NULL: the built-in one;
 * loaded once and kept); 0, or LCP_INPUT_ERROR (a model that does not read,
 * or no solver of this build takes the problem) with the reason in err. */
int lcp_choose_auto_model(const lcp_problem *p, const char *model, lcp_auto_choice *ch, lcp_err *err);
/* ... with an already loaded model (tune's validation). */
int lcp_choose_auto_with(const lcp_problem *p, const lcp_auto_model *m, lcp_auto_choice *ch, lcp_err *err);
/* The built-in model. */
int lcp_choose_auto(const lcp_problem *p, lcp_auto_choice *ch, lcp_err *err);

/* The runs of one auto solve: the candidates in order, each on its budget
 * (and, in the first round, cut by its rate against the next's prediction),
 * then again on 4 times the budgets (rounds), each from its own best iterate
 * of the round before where the caller kept it (kept); lcp_auto_begin gives
 * the first run, lcp_auto_next after each run (how it ended) whether another
 * follows and which. */
typedef enum {
    LCP_AUTO_FROM_ZERO,  /* x = 0 */
    LCP_AUTO_FROM_BEST,  /* x = the best iterate of the run just ended */
    LCP_AUTO_FROM_OWN    /* x = this candidate's own best iterate of its last run (the caller keeps it: kept) */
} lcp_auto_start;
typedef struct {
    const lcp_solver *solver;        /* the next run */
    const lcp_precond_type *precond;
    int max_iter;                    /* its iteration budget; 0: none (the caller's --max-iter) */
    double time_limit;               /* its time budget (settings.budget_cpu); 0: none */
    double switch_cpu;               /* the next candidate's predicted time (settings.switch_cpu); 0: none */
    int switch_by_rate;              /* a first-order candidate: cut by its rate too (settings.switch_by_rate) */
    lcp_auto_start start;            /* lcp_auto_next's runs: where x starts */
    const char *what;                /* the same in words ("from zero", ...) */
    int stage, round;                /* the candidate running; the round (budgets 4^round times the first) */
    int pos, order[LCP_AUTO_MAXCAND];  /* the round's order of the candidates (stage = order[pos]): the first
                                        round's is the predicted one; a longer round's runs first those that
                                        go on from their own best iterate, by the CPU time their rate said
                                        they still needed (rest), then the others in the predicted order */
    double rest[LCP_AUTO_MAXCAND];   /* per candidate: that time at the end of its last run (INFINITY: no
                                        rate, or no iterate kept) */
    unsigned dead;                   /* candidates that broke down (bit c) */
    unsigned kept;                   /* candidates whose last run progressed and whose best iterate the caller
                                        keeps (bit c): run again in a longer round, they go on from there */
    double slow_kind[2];             /* how much slower than predicted this problem has shown itself (>= 1),
                                        over the runs cut short of candidates without a rate [0] and of
                                        first-order ones [1]: the largest of the run's time to the tolerance
                                        (its CPU time and the rest its rate extrapolates) over its
                                        prediction; the predictions a first-order run is measured against
                                        (switch_cpu) are scaled each by its kind's, what a run without a
                                        rate is measured against by the larger (lcp_auto_slow; slow_runs) */
    int slow_runs;                   /* the runs cut short that proved slower than predicted (a run cut
                                        for its rate without progress counts); what a run without a rate
                                        is measured against is scaled by lcp_auto_slow once two have (one may say
                                        only that its method stalled; two, that the problem is slower) */
} lcp_auto_run;
void lcp_auto_begin(const lcp_auto_choice *ch, const lcp_solver *sv, const lcp_precond_type *precond, int user_max,
                    lcp_auto_run *r);
/* how much slower than predicted the runs so far have shown the problem, of either kind (>= 1) */
double lcp_auto_slow(const lcp_auto_run *r);
/* cut: how auto's monitor ended the run (lcp_monitor.budget_hit: 0 or LCP_CUT_*); progressed:
 * its best iterate is better than its start (a warm start worth taking); taken: the run's time to the
 * tolerance as far as it is known (its CPU time and the rest its rate extrapolates; lcp_auto_slow); rest: that
 * rest alone (INFINITY: unknown) */
int lcp_auto_next(const lcp_auto_choice *ch, const lcp_problem *p, int user_max, lcp_status status, int cut,
                  int progressed, double taken, double rest, lcp_auto_run *r);

#endif
