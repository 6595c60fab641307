/* peer/siconos_fc3d.c: the peer, Siconos Numerics 4.4, on any friction
 * problem file lcpsolve reads (fc3d).
 *
 *   build/peer/siconos_fc3d SOLVER PROBLEM R.mtx U.mtx [TOL [MAX_ITER [STORAGE]]]
 *
 * SOLVER: nsgs = fc3d_nsgs (SICONOS_FRICTION_3D_NSGS, its default local
 * solver, full error evaluation every sweep like lcpsolve's monitor),
 * nsn-ac = fc3d_nonsmooth_Newton_AlartCurnier (SICONOS_FRICTION_3D_NSN_AC),
 * admm = fc3d_admm (SICONOS_FRICTION_3D_ADMM), prox = fc3d_proximal
 * (SICONOS_FRICTION_3D_PROX); soclcp-nsgs = soclcp_nsgs, Siconos' block
 * Gauss-Seidel for the second-order cone LCP, which is lcpsolve's ccp
 * kind (the problem is read as ccp: a .dat or .hdf5 fc3d file is taken
 * without the De Saxce term).  STORAGE: how W is handed over: sbm (default;
 * Siconos' sparse block matrix, 3x3 blocks, built from CSC with
 * SBM_from_csparse: the storage fc3d_nsgs is written for), sparse (NM_SPARSE,
 * CSC) or dense (NM_DENSE, column-major).
 *
 * Reads PROBLEM with lcpsolve's own readers (parse time excluded), solves
 * with fc3d_driver from r = 0, writes r to R.mtx and u = W r + q (computed
 * by lcpsolve, as --output-w does) to U.mtx as Matrix Market arrays, and
 * prints one line: Siconos' info and iteration count, the solve seconds,
 * the residual of r by lcpsolve's verification (src/core/verify.c: the residual
 * lcpsolve reports for itself) and Siconos' own error figure.  Build:
 * `make build/peer/siconos_fc3d` where libsiconos-numerics-dev is
 * installed (scripts/install-deps --peer). */
#include <CSparseMatrix_internal.h>
#include <FrictionContactProblem.h>
#include <Friction_cst.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <NumericsSparseMatrix.h>
#include <SolverOptions.h>
#include <SparseBlockMatrix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io.h"
#include "core/verify.h"

/* The SOCLCP header is not installed by Debian's libsiconos-numerics-dev
 * 4.4 (NumericsFwd.h declares the type, NonSmoothDrivers.h the driver),
 * but the library exports the constructor and destructor: declared here. */
SecondOrderConeLinearComplementarityProblem *secondOrderConeLinearComplementarityProblem_new(
    int n, int nc, NumericsMatrix *M, double *q, unsigned int *coneIndex, double *mu);
void freeSecondOrderConeLinearComplementarityProblem(SecondOrderConeLinearComplementarityProblem *p);

static int solver_id(const char *name)
{
    if (!strcmp(name, "soclcp-nsgs")) return solver_options_name_to_id("SOCLCP_NSGS");
    if (!strcmp(name, "nsgs")) return SICONOS_FRICTION_3D_NSGS;
    if (!strcmp(name, "nsn-ac")) return SICONOS_FRICTION_3D_NSN_AC;
    if (!strcmp(name, "admm")) return SICONOS_FRICTION_3D_ADMM;
    if (!strcmp(name, "prox")) return SICONOS_FRICTION_3D_PROX;
    return -1;
}

/* W as a Siconos NM_SPARSE matrix in CSC form (CSC of W = CSR of W'). */
static NumericsMatrix *sparse_matrix(const lcp_csr *A)
{
    lcp_csr T;
    if (lcp_csr_transpose(A, &T)) return NULL;
    long nnz = lcp_csr_nnz(&T);
    NumericsMatrix *M = NM_create(NM_SPARSE, A->m, A->n);
    NM_csc_alloc(M, nnz > 0 ? nnz : 1);
    M->matrix2->origin = NSM_CSC;
    CSparseMatrix *c = M->matrix2->csc;
    for (int k = 0; k <= A->n; k++) c->p[k] = T.p[k];
    for (long k = 0; k < nnz; k++) {
        c->i[k] = T.j[k];
        c->x[k] = T.x[k];
    }
    lcp_csr_free(&T);
    return M;
}

static NumericsMatrix *make_matrix(const lcp_csr *A, const char *storage)
{
    if (!strcmp(storage, "dense")) {
        double *a = lcp_csr_to_dense_colmajor(A); /* owned by the NumericsMatrix from here */
        return a ? NM_create_from_data(NM_DENSE, A->m, A->n, a) : NULL;
    }
    NumericsMatrix *S = sparse_matrix(A);
    if (!S || !strcmp(storage, "sparse")) return S;
    SparseBlockStructuredMatrix *sbm = SBM_new();
    if (SBM_from_csparse(3, NM_csc(S), sbm)) {
        NM_clear(S);
        free(S);
        return NULL;
    }
    NM_clear(S);
    free(S);
    return NM_new_SBM(A->m, A->n, sbm);
}

int main(int argc, char **argv)
{
    const char *storage = argc > 7 ? argv[7] : "sbm";
    if (argc < 5 || solver_id(argv[1]) < 0 ||
        (strcmp(storage, "sbm") && strcmp(storage, "sparse") && strcmp(storage, "dense"))) {
        fprintf(stderr, "usage: %s nsgs|nsn-ac|admm|prox|soclcp-nsgs PROBLEM R.mtx U.mtx [TOL [MAX_ITER [sbm|sparse|dense]]]\n",
                argv[0]);
        return 2;
    }
    lcp_problem prob;
    lcp_err err = {{0}};
    lcp_problem_init(&prob);
    int soclcp = !strcmp(argv[1], "soclcp-nsgs");
    lcp_kind kind = soclcp ? LCP_KIND_CCP : LCP_KIND_FC3D;
    if (lcp_read_problem(argv[2], kind, &prob, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    if (soclcp && prob.kind == LCP_KIND_FC3D) prob.kind = LCP_KIND_CCP; /* the same data, without De Saxce */
    if (prob.kind != kind) {
        fprintf(stderr, "%s: a %s problem, %s solves %s\n", argv[2], lcp_kind_name(prob.kind), argv[1],
                lcp_kind_name(kind));
        return 2;
    }
    int n = prob.n, nc = prob.nc;
    NumericsMatrix *M = make_matrix(&prob.A, storage);
    double *q = malloc((size_t)n * sizeof(double)), *mu = malloc((size_t)nc * sizeof(double));
    double *r = calloc((size_t)n, sizeof(double)), *u = calloc((size_t)n, sizeof(double));
    if (!M || !q || !mu || !r || !u) {
        fprintf(stderr, "out of memory (n = %d, storage %s)\n", n, storage);
        return 5;
    }
    memcpy(q, prob.b, (size_t)n * sizeof(double));
    memcpy(mu, prob.mu, (size_t)nc * sizeof(double));
    FrictionContactProblem *p = NULL;
    SecondOrderConeLinearComplementarityProblem *sp = NULL;
    unsigned int *cone = NULL;
    if (soclcp) { /* cone i is rows coneIndex[i] .. coneIndex[i+1]-1 */
        cone = malloc((size_t)(nc + 1) * sizeof *cone);
        for (int i = 0; cone && i <= nc; i++) cone[i] = 3u * (unsigned)i;
        sp = secondOrderConeLinearComplementarityProblem_new(n, nc, M, q, cone, mu); /* owns M, q, cone, mu */
    } else {
        p = frictionContactProblem_new_with_data(3, nc, M, q, mu); /* owns M, q, mu */
    }
    SolverOptions *o = solver_options_create(solver_id(argv[1]));
    if (argc > 5) o->dparam[SICONOS_DPARAM_TOL] = atof(argv[5]);
    if (argc > 6) o->iparam[SICONOS_IPARAM_MAX_ITER] = atoi(argv[6]);
    if (solver_id(argv[1]) == SICONOS_FRICTION_3D_NSGS) /* the full residual every sweep, as lcpsolve */
        o->iparam[SICONOS_FRICTION_3D_IPARAM_ERROR_EVALUATION] = SICONOS_FRICTION_3D_NSGS_ERROR_EVALUATION_FULL;
    double t0 = lcp_now();
    int info = soclcp ? soclcp_driver(sp, r, u, o) : fc3d_driver(p, r, u, o);
    double t = lcp_now() - t0;
    lcp_metrics m;
    lcp_verify(&prob, r, u, &m); /* u = W r + q, by lcpsolve */
    if (lcp_write_mtx_vector(argv[3], r, n, "siconos peer reaction r", &err)) fprintf(stderr, "%s\n", err.msg);
    if (lcp_write_mtx_vector(argv[4], u, n, "siconos peer velocity u = W r + q (lcpsolve)", &err))
        fprintf(stderr, "%s\n", err.msg);
    printf("info %d iterations %d time_s %.6e residual %.3e siconos_error %.3e\n", info,
           o->iparam[SICONOS_IPARAM_ITER_DONE], t, m.residual, o->dparam[SICONOS_DPARAM_RESIDU]);
    solver_options_delete(o);
    if (p) frictionContactProblem_free(p);
    if (sp) freeSecondOrderConeLinearComplementarityProblem(sp);
    free(r);
    free(u);
    lcp_problem_free(&prob);
    return info ? 1 : 0;
}
