/* src/solvers/registry.c: the only file that lists the solvers.  The order
 * here is the order of --list-solvers.  To add a solver: write one file in
 * src/solvers/ exporting a `const lcp_solver`, and add one line below. */
#include "solver.h"

#include <string.h>

extern const lcp_solver lcp_solver_pgs, lcp_solver_psor, lcp_solver_sgs, lcp_solver_jacobi, lcp_solver_lemke,
    lcp_solver_pivot, lcp_solver_ipm, lcp_solver_newton_fb, lcp_solver_newton_min, lcp_solver_nsgs,
    lcp_solver_admm, lcp_solver_fixed_point, lcp_solver_mprgp, lcp_solver_apgd, lcp_solver_bb, lcp_solver_nsn,
    lcp_solver_prox, lcp_solver_pmg, lcp_solver_socp_ipm, lcp_solver_si, lcp_solver_bgs;
#ifdef LCP_HAVE_MPI /* make MPI=1 only: src/mpi/solvers.c */
extern const lcp_solver lcp_solver_mpi_pgs, lcp_solver_mpi_nsgs, lcp_solver_mpi_jacobi, lcp_solver_mpi_apgd;
#endif
#ifdef LCP_HAVE_CUDA
extern const lcp_solver lcp_solver_pgs_cuda; /* make CUDA=1 only */
#endif

static const lcp_solver *const solvers[] = {
    &lcp_solver_pgs,        /* src/solvers/pgs.c */
    &lcp_solver_psor,       /* src/solvers/pgs.c */
    &lcp_solver_sgs,        /* src/solvers/pgs.c */
    &lcp_solver_jacobi,     /* src/solvers/jacobi.c */
    &lcp_solver_lemke,      /* src/solvers/lemke.c */
    &lcp_solver_pivot,      /* src/solvers/pivot.c */
    &lcp_solver_ipm,        /* src/solvers/ipm.c */
    &lcp_solver_newton_fb,  /* src/solvers/newton.c */
    &lcp_solver_newton_min, /* src/solvers/newton.c */
    &lcp_solver_nsgs,       /* src/solvers/nsgs.c */
    &lcp_solver_mprgp,      /* src/solvers/mprgp.c */
    &lcp_solver_apgd,       /* src/solvers/apgd.c */
    &lcp_solver_bb,         /* src/solvers/bb.c */
    &lcp_solver_admm,       /* src/solvers/admm.c */
    &lcp_solver_fixed_point, /* src/solvers/fixed_point.c */
    &lcp_solver_nsn,        /* src/solvers/nsn.c */
    &lcp_solver_prox,       /* src/solvers/prox.c */
    &lcp_solver_pmg,        /* src/solvers/pmg.c */
    &lcp_solver_socp_ipm,   /* src/solvers/socp_ipm.c */
    &lcp_solver_si,         /* src/solvers/si.c */
    &lcp_solver_bgs,        /* src/solvers/bgs.c */
#ifdef LCP_HAVE_MPI
    &lcp_solver_mpi_pgs,    /* src/mpi/solvers.c (make MPI=1) */
    &lcp_solver_mpi_nsgs,   /* src/mpi/solvers.c (make MPI=1) */
    &lcp_solver_mpi_jacobi, /* src/mpi/solvers.c (make MPI=1) */
    &lcp_solver_mpi_apgd,   /* src/mpi/solvers.c (make MPI=1) */
#endif
#ifdef LCP_HAVE_CUDA
    &lcp_solver_pgs_cuda,   /* src/solvers/pgs_cuda.c + src/parallel/pgs_cuda.cu (make CUDA=1) */
#endif
    NULL,
};

const lcp_solver *const *lcp_solver_list(void) { return solvers; }

const lcp_solver *lcp_solver_find(const char *name)
{
    for (int i = 0; solvers[i]; i++)
        if (!strcmp(solvers[i]->name, name)) return solvers[i];
    return NULL;
}
int lcp_solver_check(const lcp_solver *sv, const lcp_problem *p, lcp_err *err)
{
    return lcp_solver_check_diag(sv, p, 0, err);
}

int lcp_solver_check_diag(const lcp_solver *sv, const lcp_problem *p, int diag_pos, lcp_err *err)
{
    if ((sv->kinds & p->kind) && (sv->flags & LCP_SOLVER_MONOTONE) && !diag_pos)
        for (int i = 0; i < p->n; i++) { /* e_i'A e_i < 0: A is not positive semidefinite */
            double a = lcp_csr_diag(&p->A, i);
            if (a < 0 && (p->kind & LCP_KIND_FRICTION))
                return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                                "%s needs W positive semidefinite, but W(%d,%d) = %g < 0 (contact %d): try nsn or prox",
                                sv->name, i + 1, i + 1, a, i / 3 + 1);
            if (a < 0)
                return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                                "%s needs A positive semidefinite, but A(%d,%d) = %g < 0 (row %d): try lemke, pivot or "
                                "newton-fb", sv->name, i + 1, i + 1, a, i + 1);
        }
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

const char *lcp_solver_precond_names(const lcp_solver *sv)
{
    static _Thread_local char names[256]; /* per thread: two solves may refuse at once */
    strcpy(names, "none");
    for (int i = 0; sv->preconds && sv->preconds[i]; i++)
        if (strlen(names) + strlen(sv->preconds[i]) + 3 < sizeof names) {
            strcat(names, ",");
            strcat(names, sv->preconds[i]);
        }
    return names;
}

int lcp_solver_check_precond(const lcp_solver *sv, const char *name, lcp_err *err)
{
    if (!strcmp(name, "none")) return 0;
    for (int i = 0; sv->preconds && sv->preconds[i]; i++)
        if (!strcmp(sv->preconds[i], name)) return 0;
    if (!sv->preconds)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "solver '%s' takes no preconditioner (only -p none)", sv->name);
    return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "solver '%s' does not take preconditioner '%s' (it takes: %s)",
                    sv->name, name, lcp_solver_precond_names(sv));
}
