/* src/la/analyse.h: facts about a problem's matrix A (lcpsolve info, the
 * definiteness test of ipm). */
#ifndef LCPSOLVE_ANALYSE_H
#define LCPSOLVE_ANALYSE_H

#include "../core/problem.h"

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

#endif
