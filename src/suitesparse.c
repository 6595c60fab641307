/* src/suitesparse.c: see suitesparse.h. */
#include "suitesparse.h"

#include <string.h>

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
