/* src/solvers/crash.c: the guess of a crash start (Dirkse and Ferris 1997,
 * "Crash techniques for large-scale complementarity problems"), shared by
 * the pivoting solvers: lemke (its start basis, sparse path) and pivot (its
 * start clamped set); and the purification of a guess to a vertex of the
 * solution set (lcp_crash_purify), for a symmetric A.  The guess is the --warm-start when there is one, or
 * the answer of a solver run on a monitor of its own (no trace), briefly:
 * at most CRASH_ITERS iterations to max(tol, CRASH_TOL), within what is
 * left of --time-limit.  What the pivoting solver makes of it is its own
 * business; a guess is only a start, never a verdict.
 */
#include "solver.h"
#include "../la/suitesparse.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CRASH_TOL 1e-8  /* the guessing solver's tolerance (or --tol, if larger) */
#define CRASH_ITERS 200 /* its iterations at most */

int lcp_crash_guess(const lcp_problem *p, const lcp_settings *s, const lcp_solver *by, double *z, double t0,
                    int *its)
{
    return lcp_guess_by(p, s, by, z, t0, fmax(s->tol, CRASH_TOL), CRASH_ITERS, its, NULL);
}

int lcp_guess_by(const lcp_problem *p, const lcp_settings *s, const lcp_solver *by, double *z, double t0, double tol,
                 int max_iter, int *its, double *residual)
{
    *its = 0;
    lcp_err ierr;
    memset(&ierr, 0, sizeof ierr);
    if (!by || !by->solve || lcp_solver_check(by, p, &ierr)) return -1; /* it does not take this problem */
    lcp_settings cs = *s;
    lcp_settings_inner(&cs, s);
    cs.tol = tol;
    cs.max_iter = max_iter;
    cs.precond = NULL;
    cs.order = NULL;
    cs.adaptive = 0.0;
    cs.lemke.cover = NULL;
    cs.crash.mode = LCP_CRASH_NONE;
    if (s->time_limit > 0) {
        double left = s->time_limit - (lcp_now() - t0);
        if (left <= 0) return -1;
        cs.time_limit = left;
    }
    lcp_monitor imon;
    lcp_info iinfo;
    memset(&iinfo, 0, sizeof iinfo);
    if (lcp_monitor_init(&imon, p, &cs, NULL)) return -1;
    iinfo.status = LCP_MAX_ITER;
    int rc = by->solve(p, &cs, z, &imon, &iinfo, &ierr) == 0 && iinfo.status != LCP_ERROR &&
                     iinfo.status != LCP_NO_SOLUTION && imon.status != LCP_ERROR && isfinite(imon.best.residual)
                 ? 0
                 : -1;
    if (!rc) memcpy(z, imon.best_x, (size_t)p->n * sizeof(double));
    if (residual) *residual = rc ? INFINITY : imon.best.residual;
    *its = iinfo.iterations;
    lcp_monitor_free(&imon);
    return rc;
}

int lcp_crash_start_guess(const lcp_problem *p, const lcp_settings *s, const double *x, const char *const *by,
                          double *guess, double t0, char *how, size_t howlen)
{
    int n = p->n, its = 0, warm = 0;
    *how = '\0';
    if (s->crash.mode == LCP_CRASH_NONE) return -1;
    memcpy(guess, x, (size_t)n * sizeof(double));
    for (int j = 0; j < n && !warm; j++) warm = x[j] != 0.0;
    if (s->crash.mode == LCP_CRASH_SOLVER) {
        if (lcp_crash_guess(p, s, s->crash.by, guess, t0, &its) == 0)
            snprintf(how, howlen, "%s's answer (%d iterations)", s->crash.by->name, its);
    } else if (warm) {
        snprintf(how, howlen, "the warm start");
    } else {
        for (int q = 0; by && by[q] && !*how; q++) {
            memset(guess, 0, (size_t)n * sizeof(double));
            if (lcp_crash_guess(p, s, lcp_solver_find(by[q]), guess, t0, &its) == 0)
                snprintf(how, howlen, "%s's answer (%d iterations)", by[q], its);
        }
    }
    /* no time left for the crash basis (its factorisation cannot be interrupted: on a granular pile of
     * 103,688 contacts ipm's guess took the whole limit and the LU 28 s more) */
    if (s->time_limit > 0 && lcp_now() - t0 >= s->time_limit) *how = '\0';
    return *how ? 0 : -1;
}

int lcp_crash_key_cmp(const void *a, const void *b)
{
    const lcp_crash_key *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key ? 1 : (x->j > y->j) - (x->j < y->j);
}

/* Purification of the crash guess (Megiddo 1991; Bixby and Saltzman 1994,
 * the "primal push" of crossover), for a symmetric A: the guess z (ipm's
 * answer, an interior point of the solution set when A is singular
 * positive semidefinite) is moved to a vertex of that set, so that the
 * crash basis needs few pivots.  Z: the z columns the crash's LU found
 * independent (isz); D: the other loaded ones (dep, z_k > 0), dependent on
 * Z: for A = A' >= 0, A(Z+k, Z+k) singular with A(Z, Z) not means
 * A(:, k) = A(:, Z) c for c = A(Z, Z)^-1 A(Z, k), so lowering z_k by t and
 * raising z_Z by t c leaves w = A z + b unchanged.  For each k in D
 * (lightest first): the step t = z_k, or less where a basic z_j reaches 0
 * first (ratio test over Z, Harris' tie-break to the largest |c_i| for a
 * well-conditioned exchange); then z_k takes z_j's place in Z.  Either way
 * one loaded column fewer outside Z: at the end z is supported on the
 * independent set Z, a vertex.  The solves: a Cholesky factor of A(Z0, Z0)
 * (CHOLMOD, AMD; Z0 = Z at the factorisation), right-hand sides A(Z0, k)
 * PUR_NB at a time, then the exchanges since the factorisation in product
 * form (eta vectors over the slots of Z0); refactored after a batch when
 * the eta file holds PUR_ETA / 2 vectors or as many entries as half of
 * nnz(L), and before an exchange that would overflow it.  Only which z are
 * basic comes out (isz): the caller factors the complementary basis and
 * takes beta = B^-1 S b from it.  Returns 0; -1 when A(Z, Z) is not
 * positive definite to working precision, out of memory or past the
 * deadline (isz unchanged).  *npiv: the exchanges. */
#define PUR_PIVOT_TOL 1e-9 /* |d_i| <= PUR_PIVOT_TOL max(1, |d|_inf) does not block (lemke's PIVOT_TOL) */
#define PUR_NB 64    /* right-hand sides solved at once */
#define PUR_ETA 128  /* eta vectors (exchanges) between two factorisations at most */
#define PUR_ROOM 32L /* the eta file holds PUR_ROOM |Z| + n entries */
#define PUR_HARRIS 1e-12 /* ratio-test slack, relative to the step z_k */

typedef struct {
    int n, m;                  /* n; m = |Z| */
    cholmod_common cc;
    cholmod_factor *L;         /* A(Z0, Z0) = L L' */
    cholmod_dense *rhs;        /* m x PUR_NB */
    int *zvar, *slot_of, *pos; /* the z at each slot; the slot of z_j (-1: none); Z0's row of j (-1) */
    int *sp, *sj;              /* A(Z0, Z0), compressed */
    double *sx;
    double *d;                 /* m: the direction c of one dependent column */
    int neta, *eta_r;          /* the eta file: slot, pivot, entries */
    double *eta_piv;
    long *eta_p, eta_cap;
    int *eta_i;
    double *eta_x;
} purify_work;

/* L L' = A(Z0, Z0), Z0 = the z basic now (slot order); an empty eta file. 0, or -1. */
static int purify_factor(purify_work *P, const lcp_csr *A)
{
    int m = P->m, nz = 0;
    for (int i = 0; i < P->n; i++) P->pos[i] = -1;
    for (int s = 0; s < m; s++) P->pos[P->zvar[s]] = s;
    for (int s = 0; s < m; s++) { /* column s: row zvar[s] of A (symmetric), its columns mapped to slots */
        int i = P->zvar[s];
        P->sp[s] = nz;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            int c = P->pos[A->j[k]];
            if (c >= 0) {
                P->sj[nz] = c;
                P->sx[nz++] = A->x[k];
            }
        }
    }
    P->sp[m] = nz;
    cholmod_sparse S;
    memset(&S, 0, sizeof S);
    S.nrow = S.ncol = (size_t)m;
    S.nzmax = (size_t)(nz > 0 ? nz : 1);
    S.p = P->sp;
    S.i = P->sj;
    S.x = P->sx;
    S.stype = -1; /* the lower triangle */
    S.itype = CHOLMOD_INT;
    S.xtype = CHOLMOD_REAL;
    S.dtype = CHOLMOD_DOUBLE;
    S.sorted = 0;
    S.packed = 1;
    if (P->L) cholmod_free_factor(&P->L, &P->cc);
    P->L = cholmod_analyze(&S, &P->cc);
    if (!P->L || !lcp_cholmod_factorize(&S, 0.0, P->L, &P->cc) || P->cc.status != CHOLMOD_OK) return -1;
    P->neta = 0;
    P->eta_p[0] = 0;
    return 0;
}

static void purify_free(purify_work *P)
{
    if (P->L) cholmod_free_factor(&P->L, &P->cc);
    if (P->rhs) cholmod_free_dense(&P->rhs, &P->cc);
    cholmod_finish(&P->cc);
    free(P->zvar);
    free(P->slot_of);
    free(P->pos);
    free(P->sp);
    free(P->sj);
    free(P->sx);
    free(P->d);
    free(P->eta_r);
    free(P->eta_piv);
    free(P->eta_p);
    free(P->eta_i);
    free(P->eta_x);
}

int lcp_crash_purify(const lcp_problem *p, const double *z, char *isz, const int *dep, int ndep, int *npiv,
                     double deadline)
{
    int n = p->n, m = 0, rc = -1;
    const lcp_csr *A = &p->A;
    for (int j = 0; j < n; j++) m += isz[j] != 0;
    *npiv = 0;
    if (m == 0) return -1;
    purify_work P;
    memset(&P, 0, sizeof P);
    P.n = n;
    P.m = m;
    lcp_cholmod_start(&P.cc);
    P.cc.nmethods = 1; /* AMD only: the factor is redone often */
    P.cc.method[0].ordering = CHOLMOD_AMD;
    P.cc.postorder = 1;
    long nnz = lcp_csr_nnz(A);
    P.eta_cap = PUR_ROOM * m + n;
    P.zvar = lcp_alloc((size_t)m, sizeof(int));
    P.slot_of = lcp_alloc((size_t)n, sizeof(int));
    P.pos = lcp_alloc((size_t)n, sizeof(int));
    P.sp = lcp_alloc((size_t)m + 1, sizeof(int));
    P.sj = lcp_alloc((size_t)nnz + 1, sizeof(int));
    P.sx = lcp_alloc((size_t)nnz + 1, sizeof(double));
    P.d = lcp_alloc((size_t)m, sizeof(double));
    P.eta_r = lcp_alloc(PUR_ETA, sizeof(int));
    P.eta_piv = lcp_alloc(PUR_ETA, sizeof(double));
    P.eta_p = lcp_alloc(PUR_ETA + 1, sizeof(long));
    P.eta_i = lcp_alloc((size_t)P.eta_cap, sizeof(int));
    P.eta_x = lcp_alloc((size_t)P.eta_cap, sizeof(double));
    double *x = lcp_alloc((size_t)n, sizeof(double)); /* the z being moved */
    lcp_crash_key *key = lcp_alloc((size_t)ndep, sizeof(lcp_crash_key));
    if (!P.zvar || !P.slot_of || !P.pos || !P.sp || !P.sj || !P.sx || !P.d || !P.eta_r || !P.eta_piv || !P.eta_p ||
        !P.eta_i || !P.eta_x || !x || !key || !(P.rhs = cholmod_zeros((size_t)m, PUR_NB, CHOLMOD_REAL, &P.cc)))
        goto out;
    for (int j = 0, s = 0; j < n; j++) {
        P.slot_of[j] = -1;
        x[j] = 0.0;
        if (isz[j]) {
            P.slot_of[j] = s;
            P.zvar[s++] = j;
            x[j] = z[j];
        }
    }
    for (int q = 0; q < ndep; q++) {
        x[dep[q]] = z[dep[q]];
        key[q] = (lcp_crash_key){z[dep[q]], dep[q]}; /* the lightest first */
    }
    qsort(key, (size_t)ndep, sizeof *key, lcp_crash_key_cmp);
    if (purify_factor(&P, A)) goto out;
    for (int q = 0; q < ndep;) {
        if (deadline > 0 && lcp_now() > deadline) goto out;
        int nb = ndep - q < PUR_NB ? ndep - q : PUR_NB;
        double *R = P.rhs->x;
        memset(R, 0, (size_t)m * PUR_NB * sizeof(double));
        for (int c = 0; c < nb; c++) { /* A(Z0, k): row k of A */
            int k = key[q + c].j;
            for (int t = A->p[k]; t < A->p[k + 1]; t++)
                if (P.pos[A->j[t]] >= 0) R[P.pos[A->j[t]] + (size_t)c * m] = A->x[t];
        }
        P.rhs->ncol = (size_t)nb;
        cholmod_dense *X = cholmod_solve(CHOLMOD_A, P.L, P.rhs, &P.cc); /* A(Z0, Z0)^-1 A(Z0, k) */
        P.rhs->ncol = PUR_NB;
        if (!X) goto out;
        int c = 0;
        for (; c < nb; c++) {
            int k = key[q + c].j;
            double *d = P.d;
            memcpy(d, (const double *)X->x + (size_t)c * m, (size_t)m * sizeof(double));
            for (int t = 0; t < P.neta; t++) { /* the exchanges since: E_t^-1 d */
                int r = P.eta_r[t];
                double dr = d[r] / P.eta_piv[t];
                d[r] = dr;
                if (dr == 0.0) continue;
                for (long e = P.eta_p[t]; e < P.eta_p[t + 1]; e++) d[P.eta_i[e]] -= P.eta_x[e] * dr;
            }
            /* z_k -= t, z(slot i) += t d_i: the first basic z to reach 0, Harris' slack, the largest |d_i| */
            double ptol = PUR_PIVOT_TOL * fmax(1.0, fabs(d[cblas_idamax(m, d, 1)]));
            double sk = x[k], tmax = sk, t = sk, best = 0.0;
            int r = -1;
            for (int i = 0; i < m; i++)
                if (d[i] < -ptol) tmax = fmin(tmax, (fmax(x[P.zvar[i]], 0.0) + PUR_HARRIS * sk) / -d[i]);
            if (tmax < sk) {
                for (int i = 0; i < m; i++)
                    if (d[i] < -ptol && fmax(x[P.zvar[i]], 0.0) / -d[i] <= tmax && -d[i] > best) {
                        best = -d[i];
                        r = i;
                    }
                t = fmin(sk, fmax(x[P.zvar[r]], 0.0) / -d[r]);
                if (t >= sk) r = -1;
            }
            if (r >= 0 && (P.neta == PUR_ETA || P.eta_p[P.neta] + m > P.eta_cap))
                break; /* no room for the exchange: refactor first, this column again */
            for (int i = 0; i < m; i++) x[P.zvar[i]] += t * d[i];
            if (r < 0) {
                x[k] = 0.0;
                continue;
            }
            /* z_k takes slot r at z_k - t, z_j leaves at 0: the eta vector d, pivot d_r */
            int j = P.zvar[r];
            x[k] -= t;
            x[j] = 0.0;
            long e = P.eta_p[P.neta];
            for (int i = 0; i < m; i++)
                if (d[i] != 0.0 && i != r) {
                    P.eta_i[e] = i;
                    P.eta_x[e++] = d[i];
                }
            P.eta_r[P.neta] = r;
            P.eta_piv[P.neta] = d[r];
            P.eta_p[++P.neta] = e;
            P.zvar[r] = k;
            P.slot_of[j] = -1;
            P.slot_of[k] = r;
            ++*npiv;
        }
        cholmod_free_dense(&X, &P.cc);
        q += c;
        if (P.neta > 0 && (c < nb || P.neta >= PUR_ETA / 2 || (double)P.eta_p[P.neta] > 0.5 * P.cc.lnz) &&
            purify_factor(&P, A))
            goto out;
    }
    for (int j = 0; j < n; j++) isz[j] = P.slot_of[j] >= 0;
    rc = 0;
out:
    free(x);
    free(key);
    purify_free(&P);
    return rc;
}

