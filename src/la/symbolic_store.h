/* src/la/symbolic_store.h: the update path of the sparse factorisations:
 * symbolic analyses (CHOLMOD's symbolic factor, UMFPACK's Symbolic object)
 * kept across factorisations of matrices with one pattern, so that a
 * time-stepping loop or a sequence whose contacts persist analyses each
 * pattern once, and a decomposition into equal components once for all.
 *
 * An analysis depends on the pattern alone (neither library looks at the
 * values: CHOLMOD never does, UMFPACK is given none) and on the ordering
 * asked for, so an entry is keyed on (method, ordering, n, the pattern
 * copied) and taken on an exact match only: the factorisation on a kept
 * analysis is the one on a fresh analysis, bit for bit.
 *  - CHOLMOD: the entry holds a symbolic factor; a user gets a copy of it
 *    (cholmod_factorize turns the factor it is given into the numeric one);
 *  - UMFPACK: the entry holds the Symbolic object, lent out read-only
 *    (umfpack_di_numeric does not modify it) and counted while lent.
 * Lookups and inserts under a mutex: one store serves several threads.
 * Entries lent out are kept; of the others the KEEP newest.
 *
 * The store of the calling thread is set by the pipeline for a solve that
 * has a cache (src/core/cache.c: the API's problem handles, a sequence's
 * steps); lcp_sparse_factor_init consults it.  NULL (the default): every
 * factorisation is analysed afresh and nothing is kept. */
#ifndef LCPSOLVE_SYMBOLIC_STORE_H
#define LCPSOLVE_SYMBOLIC_STORE_H

#include <cholmod.h>

typedef struct lcp_symbolic_store lcp_symbolic_store;

lcp_symbolic_store *lcp_symbolic_store_new(void);
void lcp_symbolic_store_free(lcp_symbolic_store *s);
/* analyses: entries built; reuses: analyses taken from the store */
void lcp_symbolic_store_stats(lcp_symbolic_store *s, long *analyses, long *reuses);

/* The store of the calling thread's factorisations (thread-local). */
void lcp_symbolic_store_set_current(lcp_symbolic_store *s);
lcp_symbolic_store *lcp_symbolic_store_current(void);

enum { LCP_SYM_CHOLMOD = 1, LCP_SYM_UMFPACK };

/* CHOLMOD: a copy (allocated through cc) of the symbolic factor kept for
 * this pattern, or NULL when there is none (or no memory for the copy). */
cholmod_factor *lcp_symbolic_store_get_cholmod(lcp_symbolic_store *s, int ordering, int n, const int *p,
                                               const int *j, cholmod_common *cc);
/* Keeps a copy of the symbolic factor L (not yet factorised) for this
 * pattern; nothing happens when there is no memory for it. */
void lcp_symbolic_store_put_cholmod(lcp_symbolic_store *s, int ordering, int n, const int *p, const int *j,
                                    const cholmod_factor *L);

/* UMFPACK: the Symbolic object kept for this pattern, lent until
 * lcp_symbolic_store_release(s, *ref); NULL when there is none. */
void *lcp_symbolic_store_get_umfpack(lcp_symbolic_store *s, int ordering, int n, const int *p, const int *j,
                                     void **ref);
/* Hands a fresh Symbolic object to the store, which owns it from then on,
 * and returns the one to use, lent (*ref, to release): that one, or an
 * equal analysis another thread put in meanwhile (symbolic is then freed).
 * NULL when there is no memory to keep it: the caller still owns it. */
void *lcp_symbolic_store_put_umfpack(lcp_symbolic_store *s, int ordering, int n, const int *p, const int *j,
                                   void *symbolic, void **ref);
void lcp_symbolic_store_release(lcp_symbolic_store *s, void *ref);

#endif
