/* src/core/problem.h: the problem model of docs/contract.md.
 *
 *   lcp : w = A lambda + b, lambda >= 0, w >= 0, lambda'w = 0
 *   blcp: lambda = mid(lo, lambda - w, hi); findex[i] = j >= 0 replaces the
 *         bounds of row i by -mu[i]*lambda_j, +mu[i]*lambda_j
 *   ccp : u = W r + q, r_i in K_mu_i, u_i in K*_mu_i, r_i'u_i = 0
 *   fc3d: the same data, with the De Saxce term mu_i*|u_Ti| added to u_in
 *
 * Contacts are contact-major: rows 3i, 3i+1, 3i+2 = normal, tangent 1, 2.
 * A problem may come in factored form (M, J, v[, e]); lcp_problem_finish()
 * then forms A = J M^-1 J' and b = J v + e (through CHOLMOD).
 */
#ifndef LCPSOLVE_PROBLEM_H
#define LCPSOLVE_PROBLEM_H

#include <math.h>

#include "../la/csr.h"

typedef enum {
    LCP_KIND_NONE = 0,
    LCP_KIND_LCP = 1,
    LCP_KIND_BLCP = 2,
    LCP_KIND_CCP = 4,
    LCP_KIND_FC3D = 8,
} lcp_kind;

#define LCP_KIND_FRICTION (LCP_KIND_CCP | LCP_KIND_FC3D)

const char *lcp_kind_name(lcp_kind k);
lcp_kind lcp_kind_parse(const char *s); /* LCP_KIND_NONE if unknown */

typedef struct lcp_problem {
    lcp_kind kind;
    int n;          /* unknowns (rows of A) */
    int nc;         /* contacts (friction kinds: n / 3) */
    lcp_csr A;      /* n x n (formed from the factored form when absent) */
    double *b;      /* n */
    double *lo, *hi;/* blcp bounds, n each (may hold +-INFINITY); NULL = 0 / +inf */
    int *findex;    /* blcp, n, -1 for none; NULL if absent */
    double *mu;     /* friction: nc coefficients; blcp with findex: n (per row) */
    int nmu;        /* length of mu */
    /* a lower bound on the residual's normalisation (max(1, |b|_inf) for
     * lcp/blcp, max(|q|, |r|, |u|) for friction): 0, except for the parts of
     * a decomposed problem, which carry the whole problem's |b| so that
     * their residuals add up to the whole one (src/graph/decompose.c) */
    double scale_floor;
    /* --reg EPS: A holds A_orig + reg I (Tikhonov, added once by
     * lcp_problem_regularise); lcp_verify's metrics remain those of the
     * original problem (w - reg x), its w those of the regularised one */
    double reg;

    /* set by lcp_problems_pack: the numeric arrays (A, b, ... e) lie in a
     * block shared by several problems and owned by the caller, and
     * lcp_problem_free leaves them (the fields above are a solve's first
     * reads: they share the struct's first cache lines) */
    int packed;

    /* factored form: all NULL/empty when A was given directly */
    lcp_csr M;      /* nb x nb, symmetric positive definite */
    lcp_csr J;      /* n x nb */
    double *v;      /* nb, free velocity */
    double *e;      /* n, optional restitution/stabilisation term */

    /* lengths of the vectors as read (0: the reader guarantees the length);
     * lcp_problem_finish() checks them against the matrices */
    int blen, lolen, hilen, findexlen, vlen, elen;

    /* where each field was read, "FILE:LINE" (NULL: unknown, use source);
     * indexed by lcp_field_index(): A b mu lo hi findex M J v e */
    char *where[10];

    char *source;   /* the path it was read from (for messages) */
    char *format;   /* "mtx", "json", "dat", "fclib", "folder", "generated" */
} lcp_problem;

/* The named fields of a problem, in one order: A b mu lo hi findex M J v e. */
extern const char *const lcp_field_names[10];
int lcp_field_index(const char *name); /* -1 if unknown */
/* Records where a field was read ("FILE:LINE", or "FILE" when line <= 0). */
void lcp_problem_set_where(lcp_problem *p, const char *field, const char *file, long line);
/* --reg EPS: A += EPS I (diagonal entries added where absent), p->reg = EPS. */
int lcp_problem_regularise(lcp_problem *p, double eps, lcp_err *err);

void lcp_problem_init(lcp_problem *p);
void lcp_problem_free(lcp_problem *p);

/* Forms A and b from the factored form when needed, fills defaults
 * (nc, kind-dependent sizes) and runs every load-time check: square and
 * consistent sizes, finite values, mu >= 0, 3 | n for friction kinds,
 * lo <= hi, findex in range.  Errors name the problem's source. */
int lcp_problem_finish(lcp_problem *p, lcp_err *err);

/* The numeric arrays of the finished problems p[0 .. count) and, beside
 * each, xs[k] (p[k]->n doubles, where xs and xs[k] are not NULL: a batch's
 * answers) copied one problem after the other into one block, the old
 * arrays freed and the problems pointed there (packed set): A, b, lo, hi,
 * findex, mu and xs[k] of each problem in turn, then the factored forms'
 * M, J, v and e after them all.  A pass over the problems in order then
 * reads memory in order: problems read one by one from files lie
 * scattered over the heap, and a batch of small ones solved once each is
 * bound by cache and TLB misses.  Returns the block, which the caller
 * frees after lcp_problem_free of every problem; NULL, nothing changed,
 * where there is no memory or a problem is packed already. */
void *lcp_problems_pack(lcp_problem *const *p, double **xs, int count);

/* Effective bounds of row i for blcp at the point x (findex applied). */
static inline void lcp_problem_bounds(const lcp_problem *p, const double *x, int i, double *lo, double *hi)
{
    /* inline: read a row at a time by the verification and pivot's small path */
    if (p->findex && p->findex[i] >= 0) {
        double r = p->mu[i] * fabs(x[p->findex[i]]);
        *lo = -r;
        *hi = r;
        return;
    }
    *lo = p->lo ? p->lo[i] : 0.0;
    *hi = p->hi ? p->hi[i] : INFINITY;
}

#endif
