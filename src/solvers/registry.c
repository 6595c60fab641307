/* src/solvers/registry.c: the only file that lists the solvers.  The order
 * here is the order of --list-solvers.  To add a solver: write one file in
 * src/solvers/ exporting a `const lcp_solver`, and add one line below. */
#include "solver.h"

#include <string.h>

extern const lcp_solver lcp_solver_pgs, lcp_solver_psor, lcp_solver_sgs, lcp_solver_jacobi;
/* DEVELOPMENT ONLY (being written in parallel): weak until their files land */
extern const lcp_solver lcp_solver_lemke __attribute__((weak));
extern const lcp_solver lcp_solver_pivot __attribute__((weak));
extern const lcp_solver lcp_solver_ipm __attribute__((weak));
extern const lcp_solver lcp_solver_newton_fb __attribute__((weak));
extern const lcp_solver lcp_solver_newton_min __attribute__((weak));
extern const lcp_solver lcp_solver_nsgs __attribute__((weak));

static const lcp_solver *const all[] = {
    &lcp_solver_pgs,
    &lcp_solver_psor,
    &lcp_solver_sgs,
    &lcp_solver_jacobi,
    &lcp_solver_lemke,
    &lcp_solver_pivot,
    &lcp_solver_ipm,
    &lcp_solver_newton_fb,
    &lcp_solver_newton_min,
    &lcp_solver_nsgs,
};
static const lcp_solver *solvers[sizeof all / sizeof all[0] + 1];

const lcp_solver *const *lcp_solver_list(void)
{
    if (!solvers[0]) {
        int k = 0;
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
            if (all[i]) solvers[k++] = all[i];
    }
    return solvers;
}

const lcp_solver *lcp_solver_find(const char *name)
{
    const lcp_solver *const *list = lcp_solver_list();
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i]->name, name)) return list[i];
    return NULL;
}

int lcp_solver_check(const lcp_solver *sv, const lcp_problem *p, lcp_err *err)
{
    if (sv->kinds & p->kind) return 0;
    char kinds[64] = "";
    for (unsigned k = 1; k <= LCP_KIND_FC3D; k <<= 1)
        if (sv->kinds & k) {
            if (*kinds) strcat(kinds, ", ");
            strcat(kinds, lcp_kind_name((lcp_kind)k));
        }
    return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "solver '%s' does not solve %s problems (it takes: %s)",
                    sv->name, lcp_kind_name(p->kind), kinds);
}
