/* src/cli/info.h: `lcpsolve info PROBLEM`: what a problem is, before solving it. */
#ifndef LCPSOLVE_INFO_H
#define LCPSOLVE_INFO_H

#include <stdio.h>

#include "../core/problem.h"
#include "../la/analyse.h"

/* With --cone: what solving the pyramid approximation gave. */
typedef struct {
    const char *cone;       /* "pyramid:K" */
    const char *form;       /* the problem solved: "blcp (box friction, findex)" or "lcp (Stewart-Trinkle)" */
    int n;                  /* its unknowns */
    const char *solver, *status;
    int iterations;
    double residual;        /* of the approximation (decides "solved") */
    double cone_error;      /* the residual of the mapped-back r on the original problem */
} lcp_cone_facts;

/* Prints the report (human or --json); cone: NULL, or the --cone result. */
int lcp_info_print(FILE *out, const lcp_problem *p, const lcp_cone_facts *cone, int json, lcp_err *err);

/* `lcpsolve info --features`: the features --solver auto predicts from
 * (src/core/features.h), a line each, or one JSON object. */
int lcp_info_features(FILE *out, const lcp_problem *p, int json, lcp_err *err);

#endif
