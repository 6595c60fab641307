/* src/la/linsolve_cost.c: see linsolve_cost.h. */
#include "linsolve_cost.h"

#include <stdlib.h>

/* a sparse flop costs about this many dense (BLAS 3) ones; the analysis and
 * the factor's set-up about this many flops besides */
#define SPARSE_FLOP 30.0
#define SPARSE_SETUP 3e5

int lcp_linsolve_prefer_sparse(const lcp_csr *A, double *sparse_flops, double *dense_flops)
{
    int m = A->m;
    double n = m, sp = 0, dense = n * n * n / 3;
    if (!sparse_flops && dense <= SPARSE_SETUP) { /* the set-up alone costs more than dense: no pass needed */
        if (dense_flops) *dense_flops = dense;
        return 0;
    }
    if ((long)A->p[m] == (long)m * A->n) { /* every row full: the envelope is the whole lower triangle */
        for (int i = 0; i < m; i++) sp += ((double)i + 1) * ((double)i + 1);
        if (sparse_flops) *sparse_flops = sp;
        if (dense_flops) *dense_flops = dense;
        return SPARSE_FLOP * sp + SPARSE_SETUP < dense;
    }
    int *first = malloc((size_t)(m > 0 ? m : 1) * sizeof *first);
    if (!first) { /* no memory for the estimate: the old rule */
        if (sparse_flops) *sparse_flops = -1;
        if (dense_flops) *dense_flops = dense;
        return m > 1000;
    }
    /* the envelope of the symmetrised pattern: entry (i, j) reaches back to min(i, j) in row max(i, j) */
    for (int i = 0; i < m; i++) first[i] = i;
    for (int i = 0; i < m; i++)
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            int j = A->j[k], hi = i > j ? i : j, lo = i < j ? i : j;
            if (hi < m && lo < first[hi]) first[hi] = lo;
        }
    for (int i = 0; i < m; i++) {
        double w = (double)(i - first[i]) + 1;
        sp += w * w;
    }
    free(first);
    if (sparse_flops) *sparse_flops = sp;
    if (dense_flops) *dense_flops = dense;
    return SPARSE_FLOP * sp + SPARSE_SETUP < dense;
}
