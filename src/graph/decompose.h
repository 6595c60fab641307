/* src/graph/decompose.h: solving each connected component of the contact
 * graph on its own (--decompose); see decompose.c. */
#ifndef LCPSOLVE_DECOMPOSE_H
#define LCPSOLVE_DECOMPOSE_H

#include "../solvers/solver.h"

/* Solves p with sv one component at a time (smallest first, OpenMP tasks),
 * x in place (its entries are each component's start), then checks the
 * whole x once with mon (iteration = the most any component took).  The
 * outcome goes to mon->status / info like a solver's; *ncomp gets the
 * number of components.  Returns 0, non-zero with err set on no memory,
 * or -1 (x as given) when there is one component only, or a component
 * could not run or ended in a verdict
 * (no solution, breakdown): the caller then solves the whole problem, whose
 * messages name its own rows and contacts. */
int lcp_solve_components(const lcp_solver *sv, const lcp_problem *p, const lcp_settings *s, double *x,
                         lcp_monitor *mon, lcp_info *info, int *ncomp, lcp_err *err);

#endif
