/* peer/siconos_lcp.c: the peer, Siconos Numerics 4.4, on any problem file
 * lcpsolve reads.
 *
 *   build/peer/siconos_lcp SOLVER PROBLEM OUT.mtx [TOL [MAX_ITER]]
 *
 * Reads PROBLEM with lcpsolve's own readers (a folder, .json, .dat ...; parse
 * time excluded), hands A and b to Siconos' linearComplementarity_driver
 * with SOLVER (lemke = lcp_lexicolemke, pgs = lcp_pgs, psor = lcp_psor,
 * nsgs = lcp_nsgs_SBM, newton-fb = lcp_newton_FB, newton-min =
 * lcp_newton_min, enum = lcp_enum; lcp_qp and lcp_nsqp are left out:
 * Debian's build lacks ql0001 and aborts in them), writes z as a Matrix
 * Market array, and prints one line: Siconos' info and iteration count,
 * the seconds of the driver call alone, and the residual of z by lcpsolve's verification (src/core/verify.c),
 * the same residual lcpsolve reports for itself.  A goes over as a dense
 * column-major matrix (NM_DENSE: the storage Siconos' LCP solvers read),
 * except for nsgs, which reads only a sparse block matrix (NM_SPARSE_BLOCK,
 * 1x1 blocks, one a row, built from CSC with SBM_from_csparse).  Built by
 * `make peer` where libsiconos-numerics-dev is installed
 * (scripts/install-deps --peer). */
#include <CSparseMatrix_internal.h>
#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <NumericsSparseMatrix.h>
#include <SolverOptions.h>
#include <SparseBlockMatrix.h>
#include <lcp_cst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io.h"
#include "core/verify.h"

static int solver_id(const char *name)
{
    if (!strcmp(name, "lemke")) return SICONOS_LCP_LEMKE;
    if (!strcmp(name, "pgs")) return SICONOS_LCP_PGS;
    if (!strcmp(name, "psor")) return SICONOS_LCP_PSOR;
    if (!strcmp(name, "nsgs")) return SICONOS_LCP_NSGS_SBM;
    if (!strcmp(name, "newton-fb")) return SICONOS_LCP_NEWTON_FB_FBLSA;
    if (!strcmp(name, "newton-min")) return SICONOS_LCP_NEWTON_MIN_FBLSA;
    if (!strcmp(name, "enum")) return SICONOS_LCP_ENUM;
    return -1;
}

/* A as a Siconos sparse block matrix of 1x1 blocks (lcp_nsgs_SBM's storage). */
static NumericsMatrix *sbm_matrix(const lcp_csr *A)
{
    lcp_csr T;
    if (lcp_csr_transpose(A, &T)) return NULL; /* CSC of A = CSR of A' */
    long nnz = lcp_csr_nnz(&T);
    NumericsMatrix *S = NM_create(NM_SPARSE, A->m, A->n);
    NM_csc_alloc(S, nnz > 0 ? nnz : 1);
    S->matrix2->origin = NSM_CSC;
    CSparseMatrix *c = NM_csc(S);
    for (int k = 0; k <= A->n; k++) c->p[k] = T.p[k];
    for (long k = 0; k < nnz; k++) {
        c->i[k] = T.j[k];
        c->x[k] = T.x[k];
    }
    lcp_csr_free(&T);
    SparseBlockStructuredMatrix *sbm = SBM_new();
    int bad = SBM_from_csparse(1, c, sbm);
    NM_clear(S);
    free(S);
    if (bad) return NULL;
    return NM_new_SBM(A->m, A->n, sbm);
}

int main(int argc, char **argv)
{
    if (argc < 4 || solver_id(argv[1]) < 0) {
        fprintf(stderr, "usage: %s lemke|pgs|psor|nsgs|newton-fb|newton-min|enum PROBLEM OUT.mtx [TOL [MAX_ITER]]\n", argv[0]);
        return 2;
    }
    lcp_problem prob;
    lcp_err err = {{0}};
    lcp_problem_init(&prob);
    if (lcp_read_problem(argv[2], LCP_KIND_LCP, &prob, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    int n = prob.n, sbm = solver_id(argv[1]) == SICONOS_LCP_NSGS_SBM;
    NumericsMatrix *M = NULL;
    if (sbm) {
        M = sbm_matrix(&prob.A);
    } else {
        double *a = lcp_csr_to_dense_colmajor(&prob.A); /* owned by the NumericsMatrix from here */
        if (a) M = NM_create_from_data(NM_DENSE, n, n, a);
    }
    double *q = malloc((size_t)n * sizeof(double));
    double *z = calloc((size_t)n, sizeof(double)), *w = calloc((size_t)n, sizeof(double));
    if (!M || !q || !z || !w) {
        fprintf(stderr, "out of memory (n = %d)\n", n);
        return 5;
    }
    memcpy(q, prob.b, (size_t)n * sizeof(double));
    LinearComplementarityProblem *p = newLCP();
    p->size = n;
    p->M = M;
    p->q = q;
    SolverOptions *o = solver_options_create(solver_id(argv[1]));
    if (argc > 4) o->dparam[SICONOS_DPARAM_TOL] = atof(argv[4]);
    if (argc > 5) o->iparam[SICONOS_IPARAM_MAX_ITER] = atoi(argv[5]);
    double t0 = lcp_now();
    int info = linearComplementarity_driver(p, z, w, o);
    double t = lcp_now() - t0;
    lcp_metrics m;
    lcp_verify(&prob, z, w, &m);
    if (lcp_write_mtx_vector(argv[3], z, n, "siconos peer solution", &err)) fprintf(stderr, "%s\n", err.msg);
    printf("info %d iterations %d time_s %.6e residual %.3e siconos_error %.3e\n", info,
           o->iparam[SICONOS_IPARAM_ITER_DONE], t, m.residual, o->dparam[SICONOS_DPARAM_RESIDU]);
    solver_options_delete(o);
    freeLinearComplementarityProblem(p); /* frees M (and a) and q */
    free(z);
    free(w);
    lcp_problem_free(&prob);
    return info ? 1 : 0;
}
