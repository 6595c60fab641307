/* src/precond/diag.c: diagonal (Jacobi) preconditioning, P = diag(A).
 *
 * Applying P^-1 = D^-1 inside conjugate gradients is the same as running
 * them on the symmetrically scaled matrix D^-1/2 A D^-1/2 (unit diagonal);
 * projected Gauss-Seidel is invariant under that scaling, so pgs/psor with
 * diag take the same steps as without.  Every diagonal entry must be
 * positive.
 */
#include "precond.h"

#include <stdlib.h>

typedef struct {
    int n;
    double *dinv;
} diag;

static void release(void *state)
{
    diag *d = state;
    if (d) free(d->dinv);
    free(d);
}

static int setup(const lcp_csr *A, const struct lcp_settings_s *s, void **state, lcp_err *err)
{
    (void)s;
    diag *d = lcp_calloc(1, sizeof *d);
    if (!d || !(d->dinv = lcp_alloc((size_t)A->n, sizeof(double)))) {
        release(d);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    }
    d->n = A->n;
    for (int i = 0; i < A->n; i++) {
        double a = lcp_csr_diag(A, i);
        if (!(a > 0)) {
            release(d);
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                            "preconditioner diag needs a positive diagonal, but A(%d,%d) = %g", i + 1, i + 1, a);
        }
        d->dinv[i] = 1.0 / a;
    }
    *state = d;
    return 0;
}

static void apply(void *state, const double *r, double *y)
{
    const diag *d = state;
    for (int i = 0; i < d->n; i++) y[i] = d->dinv[i] * r[i];
}

const lcp_precond_type lcp_precond_diag = {"diag", "diagonal (Jacobi) scaling D^-1/2 A D^-1/2", setup, apply, release};
