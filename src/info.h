/* src/info.h: `lcpsolve info PROBLEM`: what a problem is, before solving it. */
#ifndef LCPSOLVE_INFO_H
#define LCPSOLVE_INFO_H

#include <stdio.h>

#include "problem.h"

typedef struct {
    int symmetric;          /* A == A' (to 1e-12 relative) */
    const char *definite;   /* "positive definite", "positive semidefinite", "indefinite",
                               "not positive definite" (large: Cholesky failed), ... */
    const char *method;     /* how definiteness was decided */
    double diag_min, diag_max;
    double cond;            /* condition estimate, or 0 when not estimated */
    double eig_min, eig_max;/* of the symmetric part (small problems) */
} lcp_matrix_facts;

/* Facts about A: dense LAPACK eigen/singular values when n <= dense_max,
 * a CHOLMOD Cholesky test of the symmetric part otherwise. */
int lcp_matrix_analyse(const lcp_problem *p, int dense_max, lcp_matrix_facts *f, lcp_err *err);

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

#endif
