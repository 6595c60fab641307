/* src/core/features.h: the features of a problem that --solver auto's
 * learned model (src/core/auto.c) predicts each configuration's time from:
 * cheap next to a solve (O(nnz) each, plus a 10-step Lanczos estimate),
 * computed once, printed by `lcpsolve info --features`.  auto takes the
 * spectrum's and the graph's only where they cost a small share of the
 * predicted solve (src/core/auto.c). */
#ifndef LCPSOLVE_FEATURES_H
#define LCPSOLVE_FEATURES_H

#include "problem.h"

#define LCP_NFEATURES 17

/* the features that lcp_features_complete adds to lcp_features_basic's (their indices in v): the spectrum's
 * and the contact graph's, about 12 passes over A where the others take 2 */
#define LCP_FEATURE_COMPLETE_FIRST 7
#define LCP_FEATURE_COMPLETE_LAST 11
/* the modelled seconds of a pass of lcp_features_complete's over a stored entry (or a row) of A */
#define LCP_FEATURE_S_ENTRY 1e-9

/* the names, in the order of lcp_features.v (the model file's columns) */
extern const char *const lcp_feature_names[LCP_NFEATURES];

typedef struct {
    double v[LCP_NFEATURES]; /* the features (logs where the range is wide) */
    /* the plain facts behind them */
    int n, contacts, components, largest, diameter, symmetric, diag_pos, lanczos_steps;
    int complete;            /* lcp_features_complete's too (v[7..11] 0 and components... unknown without) */
    long nnz;
    double cond;             /* scaled condition estimate; INFINITY: semidefinite or nearly */
    double time_s;           /* the time the features took */
} lcp_features;

/* Fills f for p (lcp_problem_finish()ed): every feature; 0, or LCP_ERROR on no memory. */
int lcp_features_compute(const lcp_problem *p, lcp_features *f);

/* The features in one or two passes over A (sizes, symmetry, the diagonal, the rows, findex, mu, b):
 * all but the spectrum's and the graph's, which stay 0 and f->complete 0; then lcp_features_complete
 * adds those (the Lanczos estimate and the contact graph's components and diameter). */
int lcp_features_basic(const lcp_problem *p, lcp_features *f);
int lcp_features_complete(const lcp_problem *p, lcp_features *f);

/* lcp_features_complete's modelled seconds on p (no clock: the same decision whatever the load) */
double lcp_features_complete_cost(const lcp_problem *p);

#endif
