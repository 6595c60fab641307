/* src/diff/diff.c: derivatives of a solution by implicit differentiation
 * of the natural map; see diff.h. */
#include "diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/verify.h"

/* LAPACK, BLAS */
void dgesdd_(const char *jobz, const int *m, const int *n, double *a, const int *lda, double *s, double *u,
             const int *ldu, double *vt, const int *ldvt, double *work, const int *lwork, int *iwork, int *info);
void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w, double *work,
             const int *lwork, int *iwork, const int *liwork, int *info);
void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *b, const int *ldb, const double *beta, double *c,
            const int *ldc);

static double inf_norm(const double *v, int n)
{
    double m = 0.0;
    for (int i = 0; v && i < n; i++) m = fmax(m, fabs(v[i]));
    return m;
}

int lcp_diff_cone_jacobian(double mu, const double *z, double tol, double *Jp, double *Pmu, int *deg)
{
    double zn = z[0], t = sqrt(z[1] * z[1] + z[2] * z[2]), sq = sqrt(1.0 + mu * mu);
    double polar = (mu * t + zn) / sq;   /* < 0: z in the polar cone (P = 0) */
    double inner = (mu * zn - t) / sq;   /* > 0: z inside K_mu (P = z) */
    memset(Jp, 0, 9 * sizeof(double));
    memset(Pmu, 0, 3 * sizeof(double));
    *deg = 0;
    if (polar <= tol) { /* the polar piece (also its border: the lower rank) */
        *deg = polar >= -tol;
        return 0;
    }
    if (inner > tol) { /* the interior */
        Jp[0] = Jp[4] = Jp[8] = 1.0;
        return 2;
    }
    *deg = inner >= -tol; /* the surface (with its border to the interior) */
    double c = 1.0 / (1.0 + mu * mu), a = c * (mu * t + zn), d[2] = {0.0, 0.0};
    if (t > 0) d[0] = z[1] / t, d[1] = z[2] / t;
    Jp[0] = c;
    for (int k = 0; k < 2; k++) {
        Jp[1 + k] = c * mu * d[k];
        Jp[3 * (1 + k)] = mu * c * d[k];
        for (int l = 0; l < 2; l++)
            Jp[3 * (1 + k) + 1 + l] =
                mu * mu * c * d[k] * d[l] + (t > 0 ? mu * a * ((k == l) - d[k] * d[l]) / t : 0.0);
    }
    double da = c * t - 2.0 * mu * c * a; /* d a / d mu */
    Pmu[0] = da;
    Pmu[1] = d[0] * (a + mu * da);
    Pmu[2] = d[1] * (a + mu * da);
    return 1;
}

int lcp_diff_count_degenerate(const lcp_diff *d)
{
    int c = 0;
    for (int i = 0; d->flag && i < d->n; i++) c += d->flag[i];
    return c;
}

void lcp_diff_free(lcp_diff *d)
{
    if (!d) return;
    free(d->x), free(d->w), free(d->B), free(d->C), free(d->flag), free(d->pz), free(d->t1), free(d->t2);
    free(d->ridx), free(d->rmap), free(d->r1), free(d->r2), free(d->side), free(d->pinv);
    lcp_csr_free(&d->KR);
    lcp_csr_free(&d->KF);
    if (d->fac_on) lcp_sparse_factor_free(&d->F);
    if (d->sp_on) lcp_pinv_free(&d->SP);
    if (d->lu_num) umfpack_di_free_numeric(&d->lu_num);
    if (d->lu_sym) umfpack_di_free_symbolic(&d->lu_sym);
    free(d->lu_wi), free(d->lu_ww);
    free(d->T), free(d->D), free(d->fmap), free(d->f1), free(d->f2), free(d->z), free(d->az);
    lcp_csr_free(&d->MF);
    if (d->fs_on) lcp_sparse_factor_free(&d->FS);
    if (d->fm_on) lcp_sparse_factor_free(&d->FM);
    lcp_csr_free(&d->K);
    memset(d, 0, sizeof *d);
}

/* max over rows (contacts) of |x - P(x - w)| (friction: the 2-norm of a
 * contact's), with w of the regularised problem */
static double natural_residual(const lcp_diff *d)
{
    const lcp_problem *p = d->p;
    double m = 0.0;
    if (d->nc) {
        for (int c = 0; c < d->nc; c++) {
            const double *u = d->w + 3 * c;
            double v[3] = {u[0], u[1], u[2]};
            if (p->kind == LCP_KIND_FC3D) v[0] += p->mu[c] * sqrt(u[1] * u[1] + u[2] * u[2]);
            m = fmax(m, sqrt(lcp_contact_residual2_v(p->mu[c], d->x + 3 * c, v)));
        }
        return m;
    }
    for (int i = 0; i < d->n; i++) {
        double lo = 0.0, hi = INFINITY, z = d->x[i] - d->w[i];
        if (p->kind == LCP_KIND_BLCP) lcp_problem_bounds(p, d->x, i, &lo, &hi);
        m = fmax(m, fabs(d->x[i] - fmin(fmax(z, lo), hi)));
    }
    return m;
}

/* triplets of K */
typedef struct {
    int *i, *j;
    double *x;
    long n, cap;
} trip;

static void put(trip *T, int i, int j, double x)
{
    if (x == 0.0 || !T) return; /* T NULL: B, C and the flags only */
    T->i[T->n] = i, T->j[T->n] = j, T->x[T->n] = x, T->n++;
}

/* The linearisation of lcp / blcp rows: B (diagonal), C, the flags, and
 * the rows of K. */
static void rows_box(lcp_diff *d, trip *T, double tol)
{
    const lcp_problem *p = d->p;
    const lcp_csr *A = &p->A;
    for (int i = 0; i < d->n; i++) {
        double lo = 0.0, hi = INFINITY, z = d->x[i] - d->w[i];
        if (p->kind == LCP_KIND_BLCP) lcp_problem_bounds(p, d->x, i, &lo, &hi);
        /* which piece of mid(lo, z, hi): -1 at lo, 0 free, 1 at hi */
        int piece = 0, deg = 0;
        if (z - lo <= tol) piece = -1, deg = z - lo >= -tol;
        else if (hi - z <= tol) piece = 1, deg = hi - z >= -tol;
        if (piece == 0) { /* w_i = 0: the row of A (+ reg) */
            d->B[i] = 1.0;
            for (int k = A->p[i]; k < A->p[i + 1]; k++) put(T, i, A->j[k], A->x[k]);
            if (d->reg > 0) put(T, i, i, d->reg);
            continue;
        }
        d->flag[i] = deg;
        d->ndeg += deg;
        put(T, i, i, 1.0); /* x_i = the bound */
        int j = p->findex ? p->findex[i] : -1;
        if (j < 0 && p->kind == LCP_KIND_BLCP) d->side[i] = piece; /* x_i = lo_i or hi_i: d x_i = its change */
        if (j >= 0) { /* bound -+ mu_i |x_j| */
            double s = d->x[j] >= 0 ? 1.0 : -1.0, sign = piece < 0 ? 1.0 : -1.0;
            put(T, i, j, sign * p->mu[i] * s);
            d->C[i] = sign * fabs(d->x[j]);
        }
    }
}

/* Contact c's argument of the cone projection, z = r - u - mu |u_T| e_n
 * (De Saxce's term for fc3d; ccp: z = r - u); returns |u_T|. */
static double contact_z(const lcp_diff *d, int c, double *z)
{
    const double *r = d->x + 3 * c, *u = d->w + 3 * c;
    double ut = sqrt(u[1] * u[1] + u[2] * u[2]);
    z[0] = r[0] - (u[0] + (d->p->kind == LCP_KIND_FC3D ? d->p->mu[c] * ut : 0.0));
    z[1] = r[1] - u[1], z[2] = r[2] - u[2];
    return ut;
}

/* The linearisation of friction contacts: B (3 x 3 blocks), C, the flags,
 * the rows of K. */
static void rows_friction(lcp_diff *d, trip *T, double tol)
{
    const lcp_problem *p = d->p;
    const lcp_csr *A = &p->A;
    int desaxce = p->kind == LCP_KIND_FC3D;
    for (int c = 0; c < d->nc; c++) {
        const double *u = d->w + 3 * c;
        double mu = p->mu[c], z[3], Jp[9], Pmu[3], S[9] = {0}, ut = contact_z(d, c, z);
        int deg;
        lcp_diff_cone_jacobian(mu, z, tol, Jp, Pmu, &deg);
        if (desaxce && ut > tol) S[1] = mu * u[1] / ut, S[2] = mu * u[2] / ut;
        double *B = d->B + 9 * c;
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                double s = 0.0;
                for (int k = 0; k < 3; k++) s += Jp[3 * a + k] * ((k == b) + S[3 * k + b]);
                B[3 * a + b] = s;
            }
        for (int a = 0; a < 3; a++) {
            d->flag[3 * c + a] = deg;
            /* C = P' e_n |u_T| (fc3d) - dP/dmu */
            d->C[3 * c + a] = (desaxce ? Jp[3 * a] * ut : 0.0) - Pmu[a];
            for (int b = 0; b < 3; b++) {
                put(T, 3 * c + a, 3 * c + b, (a == b) - Jp[3 * a + b]);
                double bab = B[3 * a + b];
                if (bab == 0.0) continue;
                int row = 3 * c + b;
                for (int k = A->p[row]; k < A->p[row + 1]; k++) put(T, 3 * c + a, A->j[k], bab * A->x[k]);
                if (d->reg > 0) put(T, 3 * c + a, row, bab * d->reg);
            }
        }
        d->ndeg += 3 * deg;
    }
    d->ndeg /= 3; /* counted in contacts */
}

/* 1 where a contact of an fc3d slides at x (|u_T| beyond tol) off the
 * polar cone: De Saxce's term then has a derivative there (rows_friction's
 * S) and K is ccp's plus a rank-one part a sliding contact.  0: K is
 * ccp's, and the symmetric reduction serves fc3d too. */
static int slides(const lcp_diff *d, double tol)
{
    const lcp_problem *p = d->p;
    for (int c = 0; c < d->nc; c++) {
        double z[3], Jp[9], Pmu[3];
        int deg;
        if (!(contact_z(d, c, z) <= tol) && lcp_diff_cone_jacobian(p->mu[c], z, tol, Jp, Pmu, &deg) != 0) return 1;
    }
    return 0;
}

/* K_RR singular: its pseudo-inverse V S^+ U' from the SVD K_RR = U S V'
 * (symmetric K_RR: V diag(1/lambda) V' from its eigendecomposition, 5 to
 * 10 times faster), the singular values below LCP_DIFF_RANK_TOL s_max
 * dropped.  pinv r is
 * the least-squares solution of K_RR y = r of minimal norm, pinv' r that
 * of K_RR' y = r: the JVP and the VJP stay each other's adjoint. */
static int minimum_norm(lcp_diff *d, int sym, lcp_err *err)
{
    int nr = d->nr, info = 0, lwork = -1, liwork = -1, qi = 0;
    size_t nn = (size_t)nr * nr;
    double *a = lcp_calloc(nn, sizeof(double)), *u = lcp_alloc(nn, sizeof(double));
    double *vt = sym ? NULL : lcp_alloc(nn, sizeof(double));
    double *sv = lcp_alloc((size_t)nr, sizeof(double)), q = 0.0, *work = NULL;
    int *iwork = NULL;
    d->pinv = lcp_alloc(nn, sizeof(double));
    int rc = 0;
    if (!a || !u || (!sym && !vt) || !sv || !d->pinv) goto nomem;
    for (int k = 0; k < nr; k++) /* column-major */
        for (int e = d->KR.p[k]; e < d->KR.p[k + 1]; e++) a[k + (size_t)d->KR.j[e] * nr] += d->KR.x[e];
    /* symmetric: eigenvectors (dsyevd), pinv = V_k diag(1/lambda_k) V_k'; else the SVD (dgesdd) */
    if (sym) dsyevd_("V", "L", &nr, a, &nr, sv, &q, &lwork, &qi, &liwork, &info);
    else dgesdd_("S", &nr, &nr, a, &nr, sv, u, &nr, vt, &nr, &q, &lwork, &qi, &info);
    lwork = (int)q;
    liwork = sym ? qi : 8 * nr;
    if (!info && (!(work = lcp_alloc((size_t)(lwork > 1 ? lwork : 1), sizeof(double))) ||
                  !(iwork = lcp_alloc((size_t)(liwork > 1 ? liwork : 1), sizeof(int)))))
        goto nomem;
    if (!info && sym) dsyevd_("V", "L", &nr, a, &nr, sv, work, &lwork, iwork, &liwork, &info);
    else if (!info) dgesdd_("S", &nr, &nr, a, &nr, sv, u, &nr, vt, &nr, work, &lwork, iwork, &info);
    if (info) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: the %s of the singular Jacobian failed (info %d)",
                      sym ? "eigendecomposition" : "SVD", info);
        goto done;
    }
    double smax = 0.0;
    for (int k = 0; k < nr; k++) smax = fmax(smax, fabs(sv[k]));
    int rank = 0;
    double one = 1.0, zero = 0.0;
    if (sym) { /* the kept eigenvectors, compacted: vt <- V_k, u <- V_k diag(1/lambda) */
        vt = a, a = NULL;
        for (int k = 0; k < nr; k++) {
            if (!(fabs(sv[k]) > LCP_DIFF_RANK_TOL * smax)) continue;
            if (rank != k) memcpy(vt + (size_t)rank * nr, vt + (size_t)k * nr, (size_t)nr * sizeof(double));
            for (int i = 0; i < nr; i++) u[i + (size_t)rank * nr] = vt[i + (size_t)rank * nr] / sv[k];
            rank++;
        }
        if (rank > 0) dgemm_("N", "T", &nr, &nr, &rank, &one, u, &nr, vt, &nr, &zero, d->pinv, &nr);
    } else { /* pinv = V_k S_k^-1 U_k' = Vt_k' (U_k S_k^-1)' */
        while (rank < nr && sv[rank] > LCP_DIFF_RANK_TOL * smax) rank++;
        for (int k = 0; k < rank; k++)
            for (int i = 0; i < nr; i++) u[i + (size_t)k * nr] /= sv[k];
        if (rank > 0) dgemm_("T", "T", &nr, &nr, &rank, &one, vt, &nr, u, &nr, &zero, d->pinv, &nr);
    }
    if (rank == 0) memset(d->pinv, 0, nn * sizeof(double));
    d->nullity = nr - rank;
    goto done;
nomem:
    rc = lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: out of memory (the minimum-norm derivative)");
done:
    free(a), free(u), free(vt), free(sv), free(work), free(iwork);
    return rc;
}

/* S's sparse pseudo-inverse into d->SP (S: K_RR, or ccp's reduced M): 0
 * (sp_on, nullity set), 1 where it declines (nothing kept), LCP_ERROR. */
static int sparse_pinv(lcp_diff *d, const lcp_csr *S, lcp_err *err)
{
    int rc = lcp_pinv_init(&d->SP, S, err);
    if (rc) {
        lcp_pinv_free(&d->SP);
        return rc;
    }
    d->sp_on = 1;
    d->nullity = d->SP.nd;
    return 0;
}

/* y = K_RR^-1 r (trans: K_RR^-T r), or with the pseudo-inverse (dense:
 * column-major; sparse: symmetric) */
static int solve_reduced(lcp_diff *d, int trans, const double *r, double *y)
{
    int nr = d->nr;
    if (d->sp_on) return lcp_pinv_apply(&d->SP, r, y);
    if (d->pinv && !trans) {
        memset(y, 0, (size_t)nr * sizeof(double));
        for (int k = 0; k < nr; k++) {
            const double *col = d->pinv + (size_t)k * nr;
            double rk = r[k];
            if (rk != 0.0)
                for (int i = 0; i < nr; i++) y[i] += col[i] * rk;
        }
        return 0;
    }
    if (d->pinv) {
        for (int k = 0; k < nr; k++) {
            const double *col = d->pinv + (size_t)k * nr;
            double s = 0.0;
            for (int i = 0; i < nr; i++) s += col[i] * r[i];
            y[k] = s;
        }
        return 0;
    }
    if (d->lu_num) { /* CSR arrays are K_RR' in CSC: UMFPACK_At solves K_RR y = r, UMFPACK_A K_RR' y = r */
        int st = umfpack_di_wsolve(trans ? UMFPACK_A : UMFPACK_At, d->KR.p, d->KR.j, d->KR.x, y, r, d->lu_num,
                                   d->lu_control, d->lu_info, d->lu_wi, d->lu_ww);
        return st == UMFPACK_OK ? 0 : LCP_ERROR;
    }
    return lcp_sparse_factor_solve(&d->F, r, y);
}

const char *lcp_diff_method(const lcp_diff *d)
{
    if (d->fsym && d->sp_on) return "symmetric reduction, pseudo-inverse (CHOLMOD: the independent rows' Cholesky and the null space)";
    if (d->fsym) return "symmetric reduction, Cholesky (CHOLMOD)";
    return d->sp_on  ? "pseudo-inverse (CHOLMOD: the independent rows' Cholesky and the null space)"
           : d->pinv ? "pseudo-inverse (LAPACK)" : d->chol ? "Cholesky (CHOLMOD)" : d->lu_num ? "LU (UMFPACK, symmetric strategy)" : "none";
}

/* y = M^-1 r for ccp's symmetric reduction (or M's pseudo-inverse) */
static int fs_solve(lcp_diff *d, const double *r, double *y)
{
    return d->sp_on ? lcp_pinv_apply(&d->SP, r, y) : lcp_sparse_factor_solve(&d->FS, r, y);
}

int lcp_diff_solve_factor(lcp_diff *d, int trans, const double *r, double *y)
{
    return d->fsym ? (d->nf ? fs_solve(d, r, y) : 0) : d->nr ? solve_reduced(d, trans, r, y) : 0;
}

/* K_RR's LU by UMFPACK's symmetric strategy; *rcond its estimate.
 * LCP_SF_SINGULAR for an exactly singular K_RR. */
static int lu_factor(lcp_diff *d, double *rcond, lcp_err *err)
{
    int nr = d->nr;
    umfpack_di_defaults(d->lu_control);
    d->lu_control[UMFPACK_STRATEGY] = UMFPACK_STRATEGY_SYMMETRIC;
    d->lu_control[UMFPACK_IRSTEP] = LCP_DIFF_LU_REFINE;
    d->lu_wi = lcp_alloc((size_t)nr, sizeof(int));
    d->lu_ww = lcp_alloc(5 * (size_t)nr, sizeof(double));
    if (!d->lu_wi || !d->lu_ww) return lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: out of memory");
    int st = umfpack_di_symbolic(nr, nr, d->KR.p, d->KR.j, d->KR.x, &d->lu_sym, d->lu_control, d->lu_info);
    if (st == UMFPACK_OK) st = umfpack_di_numeric(d->KR.p, d->KR.j, d->KR.x, d->lu_sym, &d->lu_num, d->lu_control, d->lu_info);
    *rcond = d->lu_info[UMFPACK_RCOND];
    if (st == UMFPACK_WARNING_singular_matrix) {
        umfpack_di_free_numeric(&d->lu_num);
        d->lu_num = NULL;
        return LCP_SF_SINGULAR;
    }
    if (st != UMFPACK_OK)
        return lcp_fail(err, st == UMFPACK_ERROR_out_of_memory ? LCP_ERROR : LCP_ERROR, NULL, 0,
                        "derivatives: UMFPACK's LU of the Jacobian failed (status %d)", st);
    return 0;
}

/* The rows held (K's row is e_i and B's row 0) and the factorisation of
 * the others' K_RR. */
static int factor_reduced(lcp_diff *d, lcp_err *err)
{
    int n = d->n;
    const lcp_csr *K = &d->K;
    d->ridx = lcp_alloc((size_t)n + 1, sizeof(int));
    d->rmap = lcp_alloc((size_t)n + 1, sizeof(int));
    d->r1 = lcp_alloc((size_t)n + 1, sizeof(double));
    d->r2 = lcp_alloc((size_t)n + 1, sizeof(double));
    if (!d->ridx || !d->rmap || !d->r1 || !d->r2) return lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: out of memory");
    d->nr = 0;
    for (int i = 0; i < n; i++) {
        int held = K->p[i + 1] - K->p[i] == 1 && K->j[K->p[i]] == i && K->x[K->p[i]] == 1.0;
        if (held && d->nc) {
            const double *B = d->B + 9 * (i / 3) + 3 * (i % 3);
            held = B[0] == 0.0 && B[1] == 0.0 && B[2] == 0.0;
        } else if (held) {
            held = d->B[i] == 0.0;
        }
        d->rmap[i] = held ? -1 : d->nr;
        if (!held) d->ridx[d->nr++] = i;
    }
    int nr = d->nr;
    if (nr == 0) return 0;
    long nnz = 0, nf = 0;
    for (int k = 0; k < nr; k++)
        for (int e = K->p[d->ridx[k]]; e < K->p[d->ridx[k] + 1]; e++) nnz += d->rmap[K->j[e]] >= 0;
    nf = lcp_csr_nnz(K) - nnz - (n - nr); /* K_RF's entries (a held row's K row is its 1) */
    if (nf < 0) nf = 0;
    if (lcp_csr_alloc(&d->KR, nr, nr, nnz) || lcp_csr_alloc(&d->KF, nr, n, nf + 1))
        return lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: out of memory");
    nnz = nf = 0;
    for (int k = 0; k < nr; k++) { /* columns stay ascending: rmap is increasing */
        for (int e = K->p[d->ridx[k]]; e < K->p[d->ridx[k] + 1]; e++) {
            if (d->rmap[K->j[e]] >= 0) d->KR.j[nnz] = d->rmap[K->j[e]], d->KR.x[nnz++] = K->x[e];
            else d->KF.j[nf] = K->j[e], d->KF.x[nf++] = K->x[e];
        }
        d->KR.p[k + 1] = (int)nnz;
        d->KF.p[k + 1] = (int)nf;
    }
    int sym = lcp_csr_is_symmetric(&d->KR, 0.0), sf;
    double rcond = 0.0;
    if (sym) {
        d->fac_on = 1;
        if ((sf = lcp_sparse_factor_init(&d->F, nr, d->KR.p, d->KR.j, d->KR.x, 1, LCP_SF_REFINE_DEFAULT)))
            return lcp_sparse_factor_fail(&d->F, err, "derivatives: ");
        sf = lcp_sparse_factor_refactor(&d->F, d->KR.x, LCP_SF_CHOLESKY);
        if (!sf) {
            rcond = cholmod_rcond(d->F.L, &d->F.cc);
            if (rcond > 1e-14) {
                d->chol = 1;
                return 0;
            }
        } else if (sf != LCP_SF_NOT_POSDEF) {
            return lcp_sparse_factor_fail(&d->F, err, "derivatives: ");
        }
        /* singular (redundant contacts) or ill-conditioned: the sparse pseudo-inverse, where K_RR is
         * positive semidefinite (else the LU, and the dense one below) */
        lcp_sparse_factor_free(&d->F);
        d->fac_on = 0;
        if ((sf = sparse_pinv(d, &d->KR, err)) != 1) return sf;
    }
    sf = lu_factor(d, &rcond, err);
    if (sf && sf != LCP_SF_SINGULAR) return sf;
    if (sf == LCP_SF_SINGULAR || !(rcond > 1e-14)) {
        if (nr > LCP_DIFF_DENSE_MAX)
            return lcp_fail(err, LCP_ERROR, NULL, 0,
                            "derivatives: the Jacobian at the solution is singular (reciprocal condition %.1e) and its "
                            "%d free rows are more than the minimum-norm derivative takes (%d): the solution is not "
                            "unique there (redundant contacts?); differentiate a regularised problem (reg)",
                            rcond, nr, LCP_DIFF_DENSE_MAX);
        if (d->lu_num) umfpack_di_free_numeric(&d->lu_num);
        d->lu_num = NULL;
        return minimum_norm(d, sym, err);
    }
    return 0;
}

/* ---- ccp: the symmetric reduction ---------------------------------------- */

/* Contact c's T (column-major: column k the k-th direction) and D from z =
 * r - u and the piece the linearisation took (lcp_diff_cone_jacobian).
 * 0, or 1 where the surface's tangent direction is undefined (|z_T| = 0). */
static int cone_basis(double mu, const double *z, double tol, double *T, double *D)
{
    double Jp[9], Pmu[3];
    int deg, piece = lcp_diff_cone_jacobian(mu, z, tol, Jp, Pmu, &deg);
    memset(T, 0, 9 * sizeof(double));
    T[0] = T[4] = T[8] = 1.0;
    if (piece != 1) {
        D[0] = D[1] = D[2] = piece == 2 ? 1.0 : 0.0;
        return 0;
    }
    double t = sqrt(z[1] * z[1] + z[2] * z[2]), sq = sqrt(1.0 + mu * mu);
    if (!(t > 0)) return 1;
    double e[2] = {z[1] / t, z[2] / t}, c = 1.0 / (1.0 + mu * mu), a = c * (mu * t + z[0]);
    /* the generator (1, mu e) / sq: eigenvalue 1; the circle (0, -e2, e1):
     * mu a / t; the cone's normal (mu, -e) / sq: 0 */
    T[0] = 1.0 / sq, T[1] = mu * e[0] / sq, T[2] = mu * e[1] / sq;
    T[3] = 0.0, T[4] = -e[1], T[5] = e[0];
    T[6] = mu / sq, T[7] = -e[0] / sq, T[8] = -e[1] / sq;
    D[0] = 1.0, D[1] = mu * a / t, D[2] = 0.0;
    return 0;
}

/* out (n) = (A + reg I) v where v is nonzero on the contacts with a held
 * component only: A symmetric, so by those rows of A as columns. */
static void matvec_sparse_cols(const lcp_diff *d, const double *v, double *out)
{
    const lcp_csr *A = &d->p->A;
    memset(out, 0, (size_t)d->n * sizeof(double));
    for (int c = 0; c < d->nc; c++) {
        if (d->fmap[3 * c] >= 0 && d->fmap[3 * c + 1] >= 0 && d->fmap[3 * c + 2] >= 0) continue;
        for (int i = 3 * c; i < 3 * c + 3; i++) {
            double vi = v[i];
            if (vi == 0.0) continue;
            for (int k = A->p[i]; k < A->p[i + 1]; k++) out[A->j[k]] += A->x[k] * vi;
            out[i] += d->reg * vi;
        }
    }
}

/* Sets up the reduction; 0 when M was factorised (d->fsym; a singular M:
 * its sparse pseudo-inverse, d->sp_on), 1 when this problem takes the
 * general path instead (an undefined tangent, M indefinite, or its
 * pseudo-inverse declined), LCP_ERROR for memory. */
static int sym_setup(lcp_diff *d, double tol, lcp_err *err)
{
    const lcp_problem *p = d->p;
    const lcp_csr *A = &p->A;
    int nc = d->nc, n = d->n;
    d->T = lcp_alloc((size_t)9 * nc + 1, sizeof(double));
    d->D = lcp_alloc((size_t)3 * nc + 1, sizeof(double));
    d->fmap = lcp_alloc((size_t)n + 1, sizeof(int));
    d->z = lcp_alloc((size_t)n + 1, sizeof(double));
    d->az = lcp_alloc((size_t)n + 1, sizeof(double));
    if (!d->T || !d->D || !d->fmap || !d->z || !d->az) return lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: out of memory");
    d->nf = 0;
    for (int c = 0; c < nc; c++) {
        double z[3];
        contact_z(d, c, z);
        if (cone_basis(p->mu[c], z, tol, d->T + 9 * c, d->D + 3 * c)) return 1;
        for (int k = 0; k < 3; k++) d->fmap[3 * c + k] = d->D[3 * c + k] > 0 ? d->nf++ : -1;
    }
    int nf = d->nf;
    d->f1 = lcp_alloc((size_t)nf + 1, sizeof(double));
    d->f2 = lcp_alloc((size_t)nf + 1, sizeof(double));
    /* M's triplets: a 3 x 3 block of A at a time, T1' A12 T2 on the free components */
    int *slot = lcp_alloc((size_t)nc + 1, sizeof(int)), *touched = lcp_alloc((size_t)nc + 1, sizeof(int));
    double *blk = lcp_alloc((size_t)9 * nc + 1, sizeof(double));
    long cap = 9 * lcp_csr_nnz(A) + 3L * nc + 1, nt = 0;
    int *ti = lcp_alloc((size_t)cap, sizeof(int)), *tj = lcp_alloc((size_t)cap, sizeof(int));
    double *tx = lcp_alloc((size_t)cap, sizeof(double));
    int rc = 0;
    if (!d->f1 || !d->f2 || !slot || !touched || !blk || !ti || !tj || !tx) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: out of memory");
        goto done;
    }
    for (int c = 0; c < nc; c++) slot[c] = -1;
    for (int c1 = 0; c1 < nc; c1++) {
        int nt1 = 0;
        const double *T1 = d->T + 9 * c1;
        for (int a = 0; a < 3; a++)
            for (int k = A->p[3 * c1 + a]; k < A->p[3 * c1 + a + 1]; k++) {
                int j = A->j[k], c2 = j / 3;
                if (slot[c2] < 0) {
                    slot[c2] = nt1, touched[nt1++] = c2;
                    memset(blk + 9 * slot[c2], 0, 9 * sizeof(double));
                }
                blk[9 * slot[c2] + 3 * a + j % 3] += A->x[k];
            }
        for (int s2 = 0; s2 < nt1; s2++) {
            int c2 = touched[s2];
            const double *T2 = d->T + 9 * c2, *Ab = blk + 9 * s2;
            for (int k1 = 0; k1 < 3; k1++) {
                int f1 = d->fmap[3 * c1 + k1];
                if (f1 < 0) continue;
                for (int k2 = 0; k2 < 3; k2++) {
                    int f2 = d->fmap[3 * c2 + k2];
                    if (f2 < 0) continue;
                    double v = 0.0; /* column k1 of T1 ' Ab ' column k2 of T2 */
                    for (int a = 0; a < 3; a++)
                        for (int b = 0; b < 3; b++) v += T1[3 * k1 + a] * Ab[3 * a + b] * T2[3 * k2 + b];
                    if (v != 0.0) ti[nt] = f1, tj[nt] = f2, tx[nt++] = v;
                }
            }
            slot[c2] = -1;
        }
        for (int k = 0; k < 3; k++) { /* 1/D - 1, and reg (T orthonormal: T' reg I T = reg I) */
            int f = d->fmap[3 * c1 + k];
            double v = f < 0 ? 0.0 : 1.0 / d->D[3 * c1 + k] - 1.0 + d->reg;
            if (v != 0.0) ti[nt] = f, tj[nt] = f, tx[nt++] = v;
        }
    }
    if ((rc = lcp_csr_from_triplets(&d->MF, nf, nf, nt, ti, tj, tx))) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: cannot build the reduced system");
        goto done;
    }
    rc = 1;
    if (nf == 0) {
        d->fsym = 1, rc = 0;
        goto done;
    }
    d->fs_on = 1;
    if (lcp_sparse_factor_init(&d->FS, nf, d->MF.p, d->MF.j, d->MF.x, 1, LCP_SF_REFINE_DEFAULT) == 0 &&
        lcp_sparse_factor_refactor(&d->FS, d->MF.x, LCP_SF_CHOLESKY) == 0 && cholmod_rcond(d->FS.L, &d->FS.cc) > 1e-14) {
        d->fsym = 1, rc = 0;
        goto done;
    }
    /* M singular (redundant contacts: M is positive semidefinite) or ill-conditioned: its sparse
     * pseudo-inverse (y_f of minimal norm; dx = T y, T orthonormal, y_h fixed: dx of minimal norm) */
    lcp_sparse_factor_free(&d->FS);
    d->fs_on = 0;
    int sp = sparse_pinv(d, &d->MF, err);
    if (sp == 0) d->fsym = 1, rc = 0;
    else if (sp != 1) rc = sp;
done:
    free(slot), free(touched), free(blk), free(ti), free(tj), free(tx);
    return rc;
}

/* dx = -K^-1 R by the reduction: y_h = -(T'R)_h, y_f = M^-1 (X (T'R)_h -
 * D_f^-1 (T'R)_f), X = T_f' A T_h; dx = T y.  R is overwritten. */
static int sym_jvp(lcp_diff *d, double *R, double *dx)
{
    int nc = d->nc;
    double *z = d->z;
    for (int c = 0; c < nc; c++) { /* R~ = T'R into R; z = T_h R~_h */
        const double *T = d->T + 9 * c;
        double rt[3];
        for (int k = 0; k < 3; k++) rt[k] = T[3 * k] * R[3 * c] + T[3 * k + 1] * R[3 * c + 1] + T[3 * k + 2] * R[3 * c + 2];
        for (int a = 0; a < 3; a++) {
            double s = 0.0;
            for (int k = 0; k < 3; k++)
                if (d->fmap[3 * c + k] < 0) s += T[3 * k + a] * rt[k];
            z[3 * c + a] = s;
        }
        for (int k = 0; k < 3; k++) R[3 * c + k] = rt[k];
    }
    /* az = (A + reg I) z, over the contacts with a held component */
    matvec_sparse_cols(d, z, d->az);
    for (int c = 0; c < nc; c++) {
        const double *T = d->T + 9 * c, *az = d->az + 3 * c;
        for (int k = 0; k < 3; k++) {
            int f = d->fmap[3 * c + k];
            if (f < 0) continue;
            double x_ = T[3 * k] * az[0] + T[3 * k + 1] * az[1] + T[3 * k + 2] * az[2];
            d->f1[f] = x_ - R[3 * c + k] / d->D[3 * c + k];
        }
    }
    if (d->nf && fs_solve(d, d->f1, d->f2)) return LCP_ERROR;
    for (int c = 0; c < nc; c++) {
        const double *T = d->T + 9 * c;
        double y[3];
        for (int k = 0; k < 3; k++) {
            int f = d->fmap[3 * c + k];
            y[k] = f < 0 ? -R[3 * c + k] : d->f2[f];
        }
        for (int a = 0; a < 3; a++) dx[3 * c + a] = T[a] * y[0] + T[3 + a] * y[1] + T[6 + a] * y[2];
    }
    return 0;
}

/* l = K^-T g by the reduction: g~ = T'g, m = M^-1 g~_f, l~_f = D_f^-1 m,
 * l~_h = g~_h - (T_h' A T_f m), l = T l~. */
static int sym_adjoint(lcp_diff *d, const double *g, double *l)
{
    int nc = d->nc;
    for (int c = 0; c < nc; c++) {
        const double *T = d->T + 9 * c;
        for (int k = 0; k < 3; k++) {
            double gt = T[3 * k] * g[3 * c] + T[3 * k + 1] * g[3 * c + 1] + T[3 * k + 2] * g[3 * c + 2];
            int f = d->fmap[3 * c + k];
            if (f >= 0) d->f1[f] = gt;
            else l[3 * c + k] = gt; /* l~_h, less X' m below */
        }
    }
    if (d->nf && fs_solve(d, d->f1, d->f2)) return LCP_ERROR;
    double *z = d->z; /* T_f m */
    for (int c = 0; c < nc; c++) {
        const double *T = d->T + 9 * c;
        for (int a = 0; a < 3; a++) {
            double s = 0.0;
            for (int k = 0; k < 3; k++) {
                int f = d->fmap[3 * c + k];
                if (f >= 0) s += T[3 * k + a] * d->f2[f];
            }
            z[3 * c + a] = s;
        }
    }
    /* az = (A + reg I) z on the rows of the contacts with a held component (the only ones read) */
    const lcp_csr *A = &d->p->A;
    for (int c = 0; c < nc; c++) {
        if (d->fmap[3 * c] >= 0 && d->fmap[3 * c + 1] >= 0 && d->fmap[3 * c + 2] >= 0) continue;
        for (int i = 3 * c; i < 3 * c + 3; i++) {
            double s = d->reg * z[i];
            for (int k = A->p[i]; k < A->p[i + 1]; k++) s += A->x[k] * z[A->j[k]];
            d->az[i] = s;
        }
    }
    for (int c = 0; c < nc; c++) {
        const double *T = d->T + 9 * c, *az = d->az + 3 * c;
        double lt[3];
        for (int k = 0; k < 3; k++) {
            int f = d->fmap[3 * c + k];
            lt[k] = f >= 0 ? d->f2[f] / d->D[3 * c + k]
                           : l[3 * c + k] - (T[3 * k] * az[0] + T[3 * k + 1] * az[1] + T[3 * k + 2] * az[2]);
        }
        for (int a = 0; a < 3; a++) l[3 * c + a] = T[a] * lt[0] + T[3 + a] * lt[1] + T[6 + a] * lt[2];
    }
    return 0;
}

int lcp_diff_prepare(lcp_diff *d, const lcp_problem *p, const double *x, double reg, lcp_err *err)
{
    memset(d, 0, sizeof *d);
    d->p = p;
    d->n = p->n;
    d->reg = reg > 0 ? reg : 0.0;
    int fric = (p->kind & LCP_KIND_FRICTION) != 0, n = p->n;
    if (!p->A.p || !p->b) return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "derivatives: the problem has no A or b");
    if (fric && (!p->mu || n % 3)) return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "derivatives: a friction problem needs mu and 3 rows a contact");
    d->nc = fric ? n / 3 : 0;
    d->nmu = p->mu ? p->nmu : 0;
    long nnz = lcp_csr_nnz(&p->A);
    d->x = lcp_alloc((size_t)n, sizeof(double));
    d->w = lcp_alloc((size_t)n, sizeof(double));
    d->B = lcp_calloc((size_t)(fric ? 9 * d->nc : n), sizeof(double));
    d->C = lcp_calloc((size_t)n, sizeof(double));
    d->flag = lcp_calloc((size_t)n, sizeof(int));
    d->side = lcp_calloc((size_t)n, sizeof(int));
    d->bounds = p->kind == LCP_KIND_BLCP;
    d->t1 = lcp_alloc((size_t)n, sizeof(double));
    long cap = (fric ? 3 * nnz + 18L * d->nc : nnz + 2L * n) + n + 1;
    trip T = {lcp_alloc((size_t)cap, sizeof(int)), lcp_alloc((size_t)cap, sizeof(int)),
              lcp_alloc((size_t)cap, sizeof(double)), 0, cap};
    int rc = 0;
    if (!d->x || !d->w || !d->B || !d->C || !d->flag || !d->side || !d->t1 || !T.i || !T.j || !T.x) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: out of memory");
        goto done;
    }
    memcpy(d->x, x, (size_t)n * sizeof(double));
    lcp_csr_matvec(&p->A, x, d->w);
    for (int i = 0; i < n; i++) d->w[i] += p->b[i] + d->reg * x[i];
    double scale = fmax(1.0, inf_norm(p->b, n));
    if (fric) scale = fmax(scale, fmax(inf_norm(x, n), inf_norm(d->w, n)));
    double tol = LCP_DIFF_DEG_TOL * scale;
    d->residual = natural_residual(d) / scale;
    if (!(d->residual <= LCP_DIFF_SOLVED_TOL)) {
        rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                      "derivatives: x is not a solution of the problem%s (natural-map residual %.2g > %g)",
                      d->reg > 0 ? " with reg" : "", d->residual, LCP_DIFF_SOLVED_TOL);
        goto done;
    }
    if ((p->kind == LCP_KIND_CCP || (p->kind == LCP_KIND_FC3D && !slides(d, tol))) &&
        lcp_csr_is_symmetric(&p->A, 1e-14)) { /* the symmetric reduction: no K */
        rows_friction(d, NULL, tol);
        rc = sym_setup(d, tol, err);
        if (rc == LCP_ERROR) goto done;
        rc = 0;
        if (!d->fsym) d->ndeg = 0; /* counted again with K below */
    }
    if (!d->fsym) {
        if (fric) rows_friction(d, &T, tol);
        else rows_box(d, &T, tol);
        if ((rc = lcp_csr_from_triplets(&d->K, n, n, T.n, T.i, T.j, T.x))) {
            rc = lcp_fail(err, rc, NULL, 0, "derivatives: cannot build the Jacobian (%s)",
                          rc == LCP_ERROR ? "out of memory" : "bad entries");
            goto done;
        }
        if ((rc = factor_reduced(d, err))) goto done;
    }
    int sf;
    if (p->M.p && p->J.p && p->v) { /* the factored form: M's Cholesky and M^-1 J' x */
        int nb = p->M.m;
        d->pz = lcp_alloc((size_t)nb, sizeof(double));
        d->t2 = lcp_alloc((size_t)nb, sizeof(double));
        if (!d->pz || !d->t2) {
            rc = lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: out of memory");
            goto done;
        }
        sf = lcp_sparse_factor_init(&d->FM, nb, p->M.p, p->M.j, p->M.x, 1, LCP_SF_REFINE_DEFAULT);
        d->fm_on = 1;
        if (!sf) sf = lcp_sparse_factor_refactor(&d->FM, p->M.x, LCP_SF_CHOLESKY);
        if (sf == LCP_SF_NOT_POSDEF) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "derivatives: the mass matrix M is not positive definite");
            goto done;
        }
        if (sf) {
            rc = lcp_sparse_factor_fail(&d->FM, err, "derivatives: M: ");
            goto done;
        }
        memset(d->pz, 0, (size_t)nb * sizeof(double)); /* J' x */
        for (int i = 0; i < n; i++)
            for (int k = p->J.p[i]; k < p->J.p[i + 1]; k++) d->pz[p->J.j[k]] += p->J.x[k] * x[i];
        if ((sf = lcp_sparse_factor_solve(&d->FM, d->pz, d->pz))) {
            rc = lcp_sparse_factor_fail(&d->FM, err, "derivatives: M: ");
            goto done;
        }
    }
done:
    free(T.i), free(T.j), free(T.x);
    return rc;
}

/* R = B t + C dmu, in place on t */
static void apply_B(const lcp_diff *d, double *t, const double *dmu)
{
    if (d->nc) {
        for (int c = 0; c < d->nc; c++) {
            const double *B = d->B + 9 * c;
            double s[3] = {t[3 * c], t[3 * c + 1], t[3 * c + 2]};
            for (int a = 0; a < 3; a++)
                t[3 * c + a] = B[3 * a] * s[0] + B[3 * a + 1] * s[1] + B[3 * a + 2] * s[2] +
                               (dmu ? d->C[3 * c + a] * dmu[c] : 0.0);
        }
    } else {
        for (int i = 0; i < d->n; i++) t[i] = d->B[i] * t[i] + (dmu ? d->C[i] * dmu[i] : 0.0);
    }
}

/* dx = -K^-1 (B t + C dmu + E (dlo, dhi)); t is used as workspace.  E
 * has -1 on the rows held at lo_i (column dlo_i) or hi_i (dhi_i).  K =
 * [K_RR K_RF; 0 I]: dx_F = -R_F, K_RR dx_R = -(R_R + K_RF dx_F). */
static int finish_jvp(lcp_diff *d, double *t, const double *dmu, const double *dlo, const double *dhi, double *dx,
                      lcp_err *err)
{
    if (d->nmu == 0) dmu = NULL;
    apply_B(d, t, dmu);
    for (int i = 0; d->bounds && (dlo || dhi) && i < d->n; i++) {
        if (d->side[i] < 0 && dlo) t[i] -= dlo[i];
        else if (d->side[i] > 0 && dhi) t[i] -= dhi[i];
    }
    if (d->fsym) return sym_jvp(d, t, dx) ? lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: the solve with K failed") : 0;
    const lcp_csr *KF = &d->KF;
    for (int i = 0; i < d->n; i++)
        if (d->rmap[i] < 0) dx[i] = -t[i];
    for (int k = 0; k < d->nr; k++) {
        double s = t[d->ridx[k]];
        for (int e = KF->p[k]; e < KF->p[k + 1]; e++) s += KF->x[e] * dx[KF->j[e]];
        d->r1[k] = -s;
    }
    if (d->nr && solve_reduced(d, 0, d->r1, d->r2))
        return lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: the solve with K failed");
    for (int k = 0; k < d->nr; k++) dx[d->ridx[k]] = d->r2[k];
    return 0;
}

int lcp_diff_jvp(lcp_diff *d, const double *dA, const double *db, const double *dmu, double *dx, lcp_err *err)
{
    return lcp_diff_jvp_bounds(d, dA, db, dmu, NULL, NULL, dx, err);
}

int lcp_diff_jvp_bounds(lcp_diff *d, const double *dA, const double *db, const double *dmu, const double *dlo,
                        const double *dhi, double *dx, lcp_err *err)
{
    if ((dlo || dhi) && !d->bounds)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "derivatives: only a blcp has bounds lo, hi to change");
    const lcp_csr *A = &d->p->A;
    double *t = d->t1;
    for (int i = 0; i < d->n; i++) { /* t = dA x + db */
        double s = db ? db[i] : 0.0;
        for (int k = A->p[i]; dA && k < A->p[i + 1]; k++) s += dA[k] * d->x[A->j[k]];
        t[i] = s;
    }
    return finish_jvp(d, t, dmu, dlo, dhi, dx, err);
}

/* l = K^-T g; nu = -B' l (into l: n doubles, not g; the gradient of b); grad_mu = -C' l;
 * grad_lo, grad_hi = -E' l: l_i on the rows held at that bound */
static int adjoint(lcp_diff *d, const double *g, double *l, double *grad_mu, double *grad_lo, double *grad_hi,
                   lcp_err *err)
{
    if (d->fsym) {
        if (sym_adjoint(d, g, l)) return lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: the transposed solve with K failed");
        goto gradients;
    }
    if (d->nr == d->n && !lcp_diff_minimum_norm(d)) { /* no row held: K = K_RR in the rows' own order (ridx the identity) */
        if (d->n && solve_reduced(d, 1, g, l))
            return lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: the transposed solve with K failed");
        goto gradients;
    }
    /* K' = [K_RR' 0; K_RF' I]: l_R = K_RR^-T g_R, l_F = g_F - K_RF' l_R */
    for (int k = 0; k < d->nr; k++) d->r1[k] = g[d->ridx[k]];
    if (d->nr && solve_reduced(d, 1, d->r1, d->r2))
        return lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: the transposed solve with K failed");
    for (int i = 0; i < d->n; i++) l[i] = d->rmap[i] < 0 ? g[i] : d->r2[d->rmap[i]];
    /* a held row's B row is 0: its l_F reaches grad_b and grad_A through
     * nothing, only grad_mu (C) and the bounds' gradients read it */
    const lcp_csr *KF = &d->KF;
    int held_read = (grad_mu && d->nmu) || (d->bounds && (grad_lo || grad_hi));
    for (int k = 0; held_read && k < d->nr; k++) {
        double li = l[d->ridx[k]];
        for (int e = KF->p[k]; e < KF->p[k + 1]; e++) l[KF->j[e]] -= KF->x[e] * li;
    }
gradients:
    if (grad_lo) memset(grad_lo, 0, (size_t)d->n * sizeof(double));
    if (grad_hi) memset(grad_hi, 0, (size_t)d->n * sizeof(double));
    for (int i = 0; d->bounds && (grad_lo || grad_hi) && i < d->n; i++) {
        if (d->side[i] < 0 && grad_lo) grad_lo[i] = l[i];
        else if (d->side[i] > 0 && grad_hi) grad_hi[i] = l[i];
    }
    if (grad_mu && d->nmu) {
        memset(grad_mu, 0, (size_t)d->nmu * sizeof(double));
        for (int i = 0; i < d->n; i++) grad_mu[d->nc ? i / 3 : i] -= d->C[i] * l[i];
    }
    if (d->nc) {
        for (int c = 0; c < d->nc; c++) {
            const double *B = d->B + 9 * c;
            double s[3] = {l[3 * c], l[3 * c + 1], l[3 * c + 2]};
            for (int b = 0; b < 3; b++) l[3 * c + b] = -(B[b] * s[0] + B[3 + b] * s[1] + B[6 + b] * s[2]);
        }
    } else {
        for (int i = 0; i < d->n; i++) l[i] = -d->B[i] * l[i];
    }
    return 0;
}

int lcp_diff_vjp(lcp_diff *d, const double *g, double *grad_A, double *grad_b, double *grad_mu, lcp_err *err)
{
    return lcp_diff_vjp_bounds(d, g, grad_A, grad_b, grad_mu, NULL, NULL, err);
}

int lcp_diff_vjp_bounds(lcp_diff *d, const double *g, double *grad_A, double *grad_b, double *grad_mu,
                        double *grad_lo, double *grad_hi, lcp_err *err)
{
    double *nu = grad_b && grad_b != g ? grad_b : d->t1; /* the gradient of b, in place where asked for */
    int rc = adjoint(d, g, nu, grad_mu, grad_lo, grad_hi, err);
    if (rc) return rc;
    const lcp_csr *A = &d->p->A;
    if (grad_b && grad_b != nu) memcpy(grad_b, nu, (size_t)d->n * sizeof(double));
    for (int i = 0; grad_A && i < d->n; i++) {
        double v = nu[i];
        if (v == 0.0) memset(grad_A + A->p[i], 0, (size_t)(A->p[i + 1] - A->p[i]) * sizeof(double));
        else
            for (int k = A->p[i]; k < A->p[i + 1]; k++) grad_A[k] = v * d->x[A->j[k]];
    }
    return 0;
}

static int need_factored(const lcp_diff *d, lcp_err *err)
{
    return d->fm_on ? 0 : lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "derivatives: the problem is not in factored form (M, J, v)");
}

int lcp_diff_jvp_factored(lcp_diff *d, const double *dM, const double *dJ, const double *dv, const double *de,
                          const double *dmu, double *dx, lcp_err *err)
{
    int rc = need_factored(d, err);
    if (rc) return rc;
    const lcp_problem *p = d->p;
    int n = d->n, nb = p->M.m;
    double *t = d->t1, *f = d->t2;
    /* t = dA x + db = dJ (p + v) + J (M^-1 (dJ' x - dM p) + dv) + de, p = M^-1 J' x */
    memset(f, 0, (size_t)nb * sizeof(double));
    for (int i = 0; dJ && i < n; i++)
        for (int k = p->J.p[i]; k < p->J.p[i + 1]; k++) f[p->J.j[k]] += dJ[k] * d->x[i];
    for (int r = 0; dM && r < nb; r++)
        for (int k = p->M.p[r]; k < p->M.p[r + 1]; k++) f[r] -= dM[k] * d->pz[p->M.j[k]];
    if (dJ || dM)
        if (lcp_sparse_factor_solve(&d->FM, f, f)) return lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: the solve with M failed");
    for (int k = 0; dv && k < nb; k++) f[k] += dv[k];
    for (int i = 0; i < n; i++) {
        double s = de ? de[i] : 0.0;
        for (int k = p->J.p[i]; k < p->J.p[i + 1]; k++) {
            int col = p->J.j[k];
            s += p->J.x[k] * f[col];
            if (dJ) s += dJ[k] * (d->pz[col] + p->v[col]);
        }
        t[i] = s;
    }
    return finish_jvp(d, t, dmu, NULL, NULL, dx, err);
}

int lcp_diff_vjp_factored(lcp_diff *d, const double *g, double *grad_M, double *grad_J, double *grad_v,
                          double *grad_e, double *grad_mu, lcp_err *err)
{
    int rc = need_factored(d, err);
    if (rc || (rc = adjoint(d, g, d->t1, grad_mu, NULL, NULL, err))) return rc;
    const lcp_problem *p = d->p;
    int n = d->n, nb = p->M.m;
    const double *nu = d->t1;
    double *y = d->t2; /* J' nu, then M^-1 J' nu */
    memset(y, 0, (size_t)nb * sizeof(double));
    for (int i = 0; i < n; i++)
        for (int k = p->J.p[i]; k < p->J.p[i + 1]; k++) y[p->J.j[k]] += p->J.x[k] * nu[i];
    if (grad_v) memcpy(grad_v, y, (size_t)nb * sizeof(double));
    if (grad_e) memcpy(grad_e, nu, (size_t)n * sizeof(double));
    if (!grad_J && !grad_M) return 0;
    if (lcp_sparse_factor_solve(&d->FM, y, y)) return lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: the solve with M failed");
    for (int i = 0; grad_J && i < n; i++)
        for (int k = p->J.p[i]; k < p->J.p[i + 1]; k++) {
            int col = p->J.j[k];
            grad_J[k] = nu[i] * (d->pz[col] + p->v[col]) + d->x[i] * y[col];
        }
    for (int r = 0; grad_M && r < nb; r++)
        for (int k = p->M.p[r]; k < p->M.p[r + 1]; k++) grad_M[k] = -y[r] * d->pz[p->M.j[k]];
    return 0;
}
