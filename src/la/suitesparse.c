/* src/la/suitesparse.c: see suitesparse.h. */
#include "suitesparse.h"

#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

cholmod_sparse lcp_csr_as_cholmod(const lcp_csr *A, int stype)
{
    cholmod_sparse S;
    memset(&S, 0, sizeof S);
    S.nrow = (size_t)A->n;
    S.ncol = (size_t)A->m;
    S.nzmax = (size_t)lcp_csr_nnz(A);
    S.p = A->p;
    S.i = A->j;
    S.x = A->x;
    S.stype = stype;
    S.itype = CHOLMOD_INT;
    S.xtype = CHOLMOD_REAL;
    S.dtype = CHOLMOD_DOUBLE;
    S.sorted = 1;
    S.packed = 1;
    return S;
}

void lcp_cholmod_start(cholmod_common *c)
{
    cholmod_start(c);
    c->print = 0;
    c->error_handler = NULL;
    c->final_ll = 1;
}

int lcp_cholmod_factorize(cholmod_sparse *A, double shift, cholmod_factor *L, cholmod_common *c)
{
#ifdef _OPENMP
    int dyn = omp_get_dynamic();
    omp_set_dynamic(1);
#endif
    double beta[2] = {shift, 0.0};
    int ok = cholmod_factorize_p(A, beta, NULL, 0, L, c);
#ifdef _OPENMP
    omp_set_dynamic(dyn);
#endif
    return ok;
}
