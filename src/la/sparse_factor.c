/* src/la/sparse_factor.c: see sparse_factor.h. */
#include "sparse_factor.h"
#include "suitesparse.h"
#include "symbolic_store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local int ordering = LCP_SF_ORDER_AUTO; /* per thread: solves in two threads do not meet */

void lcp_sparse_factor_set_ordering(int o) { ordering = o; }
int lcp_sparse_factor_get_ordering(void) { return ordering; }

static int failed(lcp_sparse_factor *F, const char *stage, int status, int nomem)
{
    F->stage = stage;
    F->status = status;
    F->nomem = nomem;
    return nomem ? LCP_SF_NOMEM : LCP_SF_FAILED;
}

/* UMFPACK's Symbolic object: freed, or given back to the store that lent it */
static void free_symbolic(lcp_sparse_factor *F)
{
    if (F->symref) lcp_symbolic_store_release(F->store, F->symref);
    else if (F->symbolic) umfpack_di_free_symbolic(&F->symbolic);
    F->symbolic = F->symref = NULL;
}

double lcp_sparse_factor_flops(const lcp_sparse_factor *F)
{
    if (F->L && F->L->ColCount) {
        const int *cc = F->L->ColCount;
        double fl = 0;
        for (size_t k = 0; k < F->L->n; k++) fl += (double)cc[k] * cc[k];
        return fl;
    }
    if (F->symbolic && !F->symref && F->info[UMFPACK_FLOPS_ESTIMATE] > 0) return F->info[UMFPACK_FLOPS_ESTIMATE];
    return NAN;
}

/* UMFPACK's workspace and symbolic analysis of the pattern (once). */
static int umf_setup(lcp_sparse_factor *F)
{
    int n = F->n;
    F->wi = lcp_alloc((size_t)n, sizeof(int));
    F->ww = lcp_alloc(5 * (size_t)n, sizeof(double)); /* 5n: with iterative refinement */
    F->tmp = lcp_alloc((size_t)n, sizeof(double));
    if (!F->wi || !F->ww || !F->tmp) return failed(F, NULL, 0, 1);
    umfpack_di_defaults(F->control);
    if (F->refine >= 0) F->control[UMFPACK_IRSTEP] = F->refine;
    if (ordering == LCP_SF_ORDER_NATURAL) F->control[UMFPACK_ORDERING] = UMFPACK_ORDERING_NONE;
    if (ordering == LCP_SF_ORDER_AMD) F->control[UMFPACK_ORDERING] = UMFPACK_ORDERING_AMD;
    if (ordering == LCP_SF_ORDER_ND) F->control[UMFPACK_ORDERING] = UMFPACK_ORDERING_METIS;
    F->store = lcp_symbolic_store_current(); /* the update path: this pattern's analysis kept */
    if (F->store && (F->symbolic = lcp_symbolic_store_get_umfpack(F->store, ordering, n, F->p, F->j, &F->symref)))
        return LCP_SF_OK;
    int st = umfpack_di_symbolic(n, n, F->p, F->j, NULL, &F->symbolic, F->control, F->info);
    if (st != UMFPACK_OK) {
        if (F->symbolic) umfpack_di_free_symbolic(&F->symbolic);
        F->symbolic = NULL;
        return failed(F, "UMFPACK symbolic analysis", st, st == UMFPACK_ERROR_out_of_memory);
    }
    if (F->store) { /* kept, and lent back: the store owns it from here on */
        void *kept = lcp_symbolic_store_put_umfpack(F->store, ordering, n, F->p, F->j, F->symbolic, &F->symref);
        if (kept) F->symbolic = kept;
    }
    return LCP_SF_OK;
}

int lcp_sparse_factor_init(lcp_sparse_factor *F, int n, const int *p, const int *j, const double *x, int sym,
                           int refine)
{
    memset(F, 0, sizeof *F);
    F->n = n;
    F->sym = sym;
    F->p = p;
    F->j = j;
    F->x = x;
    F->refine = refine;
    if (!sym) return umf_setup(F);
    lcp_cholmod_start(&F->cc);
    F->cc_on = 1;
    if (ordering != LCP_SF_ORDER_AUTO) { /* one method, the one asked for */
        F->cc.nmethods = 1;
        F->cc.method[0].ordering = ordering == LCP_SF_ORDER_NATURAL ? CHOLMOD_NATURAL
                                   : ordering == LCP_SF_ORDER_AMD   ? CHOLMOD_AMD
                                                                    : CHOLMOD_METIS;
        F->cc.postorder = ordering != LCP_SF_ORDER_NATURAL;
    }
    lcp_csr Mv = {n, n, (int *)p, (int *)j, (double *)x};
    F->cs = lcp_csr_as_cholmod(&Mv, -1); /* symmetric: CSR = CSC, lower triangle used */
    lcp_symbolic_store *store = lcp_symbolic_store_current(); /* the update path: this pattern's analysis kept */
    if (!store || !(F->L = lcp_symbolic_store_get_cholmod(store, ordering, n, p, j, &F->cc))) {
        F->L = cholmod_analyze(&F->cs, &F->cc);
        if (!F->L)
            return failed(F, "CHOLMOD analysis", F->cc.status, F->cc.status == CHOLMOD_OUT_OF_MEMORY);
        if (store) lcp_symbolic_store_put_cholmod(store, ordering, n, p, j, F->L);
    }
    F->cb.nrow = F->cb.d = F->cb.nzmax = (size_t)n;
    F->cb.ncol = 1;
    F->cb.xtype = CHOLMOD_REAL;
    F->cb.dtype = CHOLMOD_DOUBLE;
    return LCP_SF_OK;
}

int lcp_sparse_factor_refactor(lcp_sparse_factor *F, const double *x, int method)
{
    F->x = x;
    F->cur = LCP_SF_NONE;
    if (method == LCP_SF_CHOLESKY) {
        if (!F->sym) return failed(F, "CHOLMOD factorization (of a matrix not declared symmetric)", 0, 0);
        F->cs.x = (double *)x;
        lcp_cholmod_factorize(&F->cs, 0.0, F->L, &F->cc); /* numeric, on the symbolic factor of init */
        if (F->cc.status == CHOLMOD_OK) {
            F->cur = LCP_SF_CHOLESKY;
            return LCP_SF_OK;
        }
        F->stage = "CHOLMOD factorization";
        F->status = F->cc.status;
        F->nomem = F->cc.status == CHOLMOD_OUT_OF_MEMORY;
        if (F->cc.status == CHOLMOD_NOT_POSDEF) return LCP_SF_NOT_POSDEF;
        return F->nomem ? LCP_SF_NOMEM : LCP_SF_FAILED;
    }
    if (!F->symbolic) {                      /* a symmetric matrix: LU set up at its first use */
        int rc = umf_setup(F);
        if (rc) return rc;
    }
    if (F->numeric) umfpack_di_free_numeric(&F->numeric);
    F->numeric = NULL;
    int st = umfpack_di_numeric(F->p, F->j, x, F->symbolic, &F->numeric, F->control, F->info);
    if (st == UMFPACK_OK || st == UMFPACK_WARNING_singular_matrix) {
        F->cur = LCP_SF_LU;
        if (st == UMFPACK_OK) return LCP_SF_OK;
        F->stage = "UMFPACK numeric factorization";
        F->status = st;
        F->nomem = 0;
        return LCP_SF_SINGULAR;
    }
    if (F->numeric) umfpack_di_free_numeric(&F->numeric);
    F->numeric = NULL;
    return failed(F, "UMFPACK numeric factorization", st, st == UMFPACK_ERROR_out_of_memory);
}

int lcp_sparse_factor_solve(lcp_sparse_factor *F, const double *b, double *x)
{
    int n = F->n;
    if (F->cur == LCP_SF_CHOLESKY) {
        F->cb.x = (double *)b;
        if (!cholmod_solve2(CHOLMOD_A, F->L, &F->cb, NULL, &F->X, NULL, &F->Y, &F->E, &F->cc))
            return failed(F, "CHOLMOD solve", F->cc.status, 0);
        memcpy(x, F->X->x, (size_t)n * sizeof(double));
        return LCP_SF_OK;
    }
    if (F->cur != LCP_SF_LU) return failed(F, "solve (no factorization)", 0, 0);
    if (b == x) {
        memcpy(F->tmp, b, (size_t)n * sizeof(double));
        b = F->tmp;
    }
    /* the CSR arrays are M' in CSC: solve (M')' x = M x = b */
    int st = umfpack_di_wsolve(UMFPACK_At, F->p, F->j, F->x, x, b, F->numeric, F->control, F->info, F->wi,
                               F->ww);
    if (st == UMFPACK_WARNING_singular_matrix) {
        F->stage = "UMFPACK solve";
        F->status = st;
        F->nomem = 0;
        return LCP_SF_SINGULAR;
    }
    if (st != UMFPACK_OK) return failed(F, "UMFPACK solve", st, 0);
    return LCP_SF_OK;
}

int lcp_sparse_factor_lu_repattern(lcp_sparse_factor *F, const int *p, const int *j, const double *x)
{
    return lcp_sparse_factor_lu_repattern_q(F, p, j, x, NULL);
}

int lcp_sparse_factor_lu_repattern_q(lcp_sparse_factor *F, const int *p, const int *j, const double *x, const int *qinit)
{
    if (F->sym || !F->wi) return failed(F, "UMFPACK symbolic analysis (of a factor not set up for LU)", 0, 0);
    if (F->numeric) umfpack_di_free_numeric(&F->numeric);
    free_symbolic(F);
    F->numeric = NULL;
    F->cur = LCP_SF_NONE;
    F->p = p;
    F->j = j;
    double fixq = F->control[UMFPACK_FIXQ];
    if (qinit) F->control[UMFPACK_FIXQ] = 1; /* the given column order stays */
    int st = umfpack_di_qsymbolic(F->n, F->n, p, j, NULL, qinit, &F->symbolic, F->control, F->info);
    F->control[UMFPACK_FIXQ] = fixq;
    if (st != UMFPACK_OK) {
        if (F->symbolic) umfpack_di_free_symbolic(&F->symbolic);
        F->symbolic = NULL;
        return failed(F, "UMFPACK symbolic analysis", st, st == UMFPACK_ERROR_out_of_memory);
    }
    return lcp_sparse_factor_refactor(F, x, LCP_SF_LU);
}

int lcp_sparse_factor_lu_weak(lcp_sparse_factor *F, double tol, int *cols)
{
    if (F->cur != LCP_SF_LU || !F->numeric) return -1;
    int n = F->n, do_recip = 0, m = 0;
    int *Q = lcp_alloc((size_t)n, sizeof(int));
    double *D = lcp_alloc((size_t)n, sizeof(double));
    if (Q && D &&
        umfpack_di_get_numeric(NULL, NULL, NULL, NULL, NULL, NULL, NULL, Q, D, &do_recip, NULL, F->numeric) == UMFPACK_OK) {
        double dmax = 0.0;
        for (int k = 0; k < n; k++) dmax = fmax(dmax, fabs(D[k]));
        for (int k = 0; k < n; k++)
            if (!(fabs(D[k]) > tol * dmax)) cols[m++] = Q[k]; /* NaN counts as weak */
    } else {
        m = -1;
    }
    free(Q);
    free(D);
    return m;
}

int lcp_sparse_factor_solve_transposed(lcp_sparse_factor *F, const double *b, double *x)
{
    if (F->cur != LCP_SF_LU) return failed(F, "transposed solve (no LU factorization)", 0, 0);
    if (b == x) {
        memcpy(F->tmp, b, (size_t)F->n * sizeof(double));
        b = F->tmp;
    }
    /* the CSR arrays are M' in CSC: solve M' x = b */
    int st = umfpack_di_wsolve(UMFPACK_A, F->p, F->j, F->x, x, b, F->numeric, F->control, F->info, F->wi, F->ww);
    if (st == UMFPACK_WARNING_singular_matrix) {
        F->stage = "UMFPACK solve";
        F->status = st;
        F->nomem = 0;
        return LCP_SF_SINGULAR;
    }
    if (st != UMFPACK_OK) return failed(F, "UMFPACK solve", st, 0);
    return LCP_SF_OK;
}

int lcp_sparse_factor_fail(const lcp_sparse_factor *F, lcp_err *err, const char *prefix)
{
    if (!F->stage) return lcp_fail(err, LCP_ERROR, NULL, 0, "%sout of memory", prefix);
    return lcp_fail(err, LCP_ERROR, NULL, 0, "%s%s failed (status %d%s)", prefix, F->stage, F->status,
                    F->nomem ? ": out of memory" : "");
}

void lcp_sparse_factor_free(lcp_sparse_factor *F)
{
    free(F->wi);
    free(F->ww);
    free(F->tmp);
    if (F->numeric) umfpack_di_free_numeric(&F->numeric);
    free_symbolic(F);
    if (F->cc_on) {
        cholmod_free_factor(&F->L, &F->cc);
        cholmod_free_dense(&F->X, &F->cc);
        cholmod_free_dense(&F->Y, &F->cc);
        cholmod_free_dense(&F->E, &F->cc);
        cholmod_finish(&F->cc);
    }
    memset(F, 0, sizeof *F);
}

long lcp_pattern_with_diagonal(const lcp_csr *A, int *p, int *j, int *dpos, int *amap, double *x)
{
    int n = A->m, m = 0;
    p[0] = 0;
    for (int i = 0; i < n; i++) { /* row i of A, the diagonal inserted where absent */
        int placed = 0;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            if (!placed && A->j[k] >= i) {
                if (A->j[k] > i) {
                    j[m] = i;
                    if (amap) amap[m] = -1;
                    if (x) x[m] = 0.0;
                    dpos[i] = m++;
                }
                placed = 1;
            }
            if (A->j[k] == i) dpos[i] = m;
            j[m] = A->j[k];
            if (amap) amap[m] = k;
            if (x) x[m] = A->x[k];
            m++;
        }
        if (!placed) {
            j[m] = i;
            if (amap) amap[m] = -1;
            if (x) x[m] = 0.0;
            dpos[i] = m++;
        }
        p[i + 1] = m;
    }
    return m;
}
