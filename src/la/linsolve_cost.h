/* src/la/linsolve_cost.h: --linsolve auto's choice between the dense
 * (LAPACK) and the sparse (CHOLMOD/UMFPACK) factorisations of ipm and the
 * Newton solvers, from a cost estimate rather than from n alone. */
#ifndef LCPSOLVE_LINSOLVE_COST_H
#define LCPSOLVE_LINSOLVE_COST_H

#include "csr.h"

/* 1 where a sparse factorisation of a matrix with A's pattern is predicted
 * cheaper than the dense one: the envelope of A in its given order bounds
 * the factor's fill (row i keeps at most i - first(i) entries left of the
 * diagonal), so sum (i - first(i))^2 bounds the sparse flops; against the
 * n^3/3 of dense Cholesky, with the sparse path's set-up and slower flops
 * priced in (SPARSE_FLOP, SPARSE_SETUP in linsolve_cost.c).  The estimates
 * go into *sparse_flops and *dense_flops where not NULL.  O(nnz). */
int lcp_linsolve_prefer_sparse(const lcp_csr *A, double *sparse_flops, double *dense_flops);

#endif
