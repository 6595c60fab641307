/* src/core/features.h: the features of a problem that --solver auto's
 * learned model (src/core/auto.c) predicts each configuration's time from:
 * cheap next to a solve (O(nnz) each, plus a 10-step Lanczos estimate),
 * computed once, printed by `lcpsolve info --features`. */
#ifndef LCPSOLVE_FEATURES_H
#define LCPSOLVE_FEATURES_H

#include "problem.h"

#define LCP_NFEATURES 17

/* the names, in the order of lcp_features.v (the model file's columns) */
extern const char *const lcp_feature_names[LCP_NFEATURES];

typedef struct {
    double v[LCP_NFEATURES]; /* the features (logs where the range is wide) */
    /* the plain facts behind them */
    int n, contacts, components, largest, diameter, symmetric, diag_pos, lanczos_steps;
    long nnz;
    double cond;             /* scaled condition estimate; INFINITY: semidefinite or nearly */
    double time_s;           /* the time the features took */
} lcp_features;

/* Fills f for p (lcp_problem_finish()ed); 0, or LCP_ERROR on no memory. */
int lcp_features_compute(const lcp_problem *p, lcp_features *f);

#endif
