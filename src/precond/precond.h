/* src/precond/precond.h: the preconditioner contract and its registry.
 *
 * A preconditioner is one file in src/precond/ exporting one
 * `const lcp_precond_type`, plus one line in src/precond/registry.c.  It is
 * built once from a symmetric positive (semi)definite matrix (setup), applied
 * many times (apply: y = P^-1 r, an approximation of A^-1 r that is itself
 * symmetric positive definite, so conjugate gradients may use it), and freed.
 *
 * Solvers say which preconditioners they take in lcp_solver.preconds;
 * `-p NAME` reaches them as lcp_settings.precond (NULL for none), and they
 * call lcp_precond_setup() on the matrix they iterate with (A itself, or a
 * matrix of their own such as an interior-point Newton matrix).
 */
#ifndef LCPSOLVE_PRECOND_H
#define LCPSOLVE_PRECOND_H

#include "../la/csr.h"

struct lcp_settings_s;

typedef struct lcp_precond_type {
    const char *name;
    const char *summary;
    /* Builds the state for the n x n matrix A (both triangles stored).
     * Returns 0, or a status with err set (e.g. LCP_INPUT_ERROR naming the
     * row where the matrix does not fit). */
    int (*setup)(const lcp_csr *A, const struct lcp_settings_s *s, void **state, lcp_err *err);
    /* y = P^-1 r; r and y are distinct n-vectors.  Never fails. */
    void (*apply)(void *state, const double *r, double *y);
    void (*free)(void *state);
} lcp_precond_type;

/* A built preconditioner. */
typedef struct {
    const lcp_precond_type *type; /* NULL: none (apply copies) */
    int n;
    void *state;
} lcp_precond;

const lcp_precond_type *lcp_precond_find(const char *name); /* NULL if unknown; "none" is NULL too */
const lcp_precond_type *const *lcp_precond_list(void);     /* NULL-terminated, without "none" */
/* Comma-separated names of every preconditioner of this build, "none" first. */
const char *lcp_precond_names(void);

/* Builds P for A with type t (NULL: the identity). */
int lcp_precond_setup(lcp_precond *P, const lcp_precond_type *t, const lcp_csr *A,
                      const struct lcp_settings_s *s, lcp_err *err);
void lcp_precond_apply(const lcp_precond *P, const double *r, double *y);
void lcp_precond_free(lcp_precond *P);

#endif
