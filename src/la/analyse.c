/* src/la/analyse.c: facts about a problem's matrix A: symmetry,
 * definiteness, diagonal range, condition (see analyse.h). */
#include "analyse.h"
#include "suitesparse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK */
void dsyev_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w, double *work,
            const int *lwork, int *info);
void dgesvd_(const char *jobu, const char *jobvt, const int *m, const int *n, double *a, const int *lda, double *s,
             double *u, const int *ldu, double *vt, const int *ldvt, double *work, const int *lwork, int *info);

/* Eigenvalues of the symmetric part (ascending) and singular values of A. */
static int dense_analysis(const lcp_problem *p, lcp_matrix_facts *f)
{
    int n = p->n, info = 0, lwork = -1;
    double *a = lcp_csr_to_dense_colmajor(&p->A), *s = lcp_csr_to_dense_colmajor(&p->A);
    double *w = lcp_alloc((size_t)n, sizeof(double)), q;
    int rc = LCP_ERROR;
    if (!a || !s || !w) goto done;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) {
            double m = 0.5 * (s[i + (size_t)j * n] + s[j + (size_t)i * n]);
            s[i + (size_t)j * n] = s[j + (size_t)i * n] = m;
        }
    dsyev_("N", "L", &n, s, &n, w, &q, &lwork, &info);
    lwork = (int)q;
    double *work = lcp_alloc((size_t)lwork, sizeof(double));
    if (!work) goto done;
    dsyev_("N", "L", &n, s, &n, w, work, &lwork, &info);
    free(work);
    if (info) goto done;
    f->eig_min = w[0];
    f->eig_max = w[n - 1];
    double scale = fmax(fabs(w[0]), fabs(w[n - 1])), eps = 1e-12 * fmax(scale, 1e-300) * n;
    f->definite = w[0] > eps ? "positive definite" : w[0] >= -eps ? "positive semidefinite" : "indefinite";
    f->method = f->symmetric ? "eigenvalues (LAPACK dsyev)" : "eigenvalues of (A + A')/2 (LAPACK dsyev)";
    /* condition number: singular values of A */
    lwork = -1;
    dgesvd_("N", "N", &n, &n, a, &n, w, NULL, &n, NULL, &n, &q, &lwork, &info);
    lwork = (int)q;
    work = lcp_alloc((size_t)lwork, sizeof(double));
    if (!work) goto done;
    dgesvd_("N", "N", &n, &n, a, &n, w, NULL, &n, NULL, &n, work, &lwork, &info);
    free(work);
    if (info) goto done;
    f->cond = w[n - 1] > 0 ? w[0] / w[n - 1] : INFINITY;
    rc = 0;
done:
    free(a);
    free(s);
    free(w);
    return rc;
}

/* Large problems: Cholesky of the symmetric part through CHOLMOD. */
static int cholesky_test(const lcp_problem *p, lcp_matrix_facts *f)
{
    lcp_csr T;
    if (lcp_csr_transpose(&p->A, &T)) return LCP_ERROR;
    cholmod_common c;
    lcp_cholmod_start(&c); /* LL': a negative pivot fails */
    /* S = (A + A')/2: the views are A' and A */
    cholmod_sparse At = lcp_csr_as_cholmod(&p->A, 0), Tt = lcp_csr_as_cholmod(&T, 0);
    double alpha[2] = {0.5, 0}, beta[2] = {0.5, 0}; /* S = A/2 + A'/2 */
    cholmod_sparse *S = cholmod_add(&At, &Tt, alpha, beta, 1, 1, &c);
    int rc = LCP_ERROR;
    if (S) {
        S->stype = -1; /* use the lower triangle */
        cholmod_factor *L = cholmod_analyze(S, &c);
        if (L) {
            lcp_cholmod_factorize(S, 0.0, L, &c);
            f->definite = L->minor < L->n ? "not positive definite" : "positive definite";
            f->method = "sparse Cholesky of (A + A')/2 (CHOLMOD)";
            cholmod_free_factor(&L, &c);
            rc = 0;
        }
        cholmod_free_sparse(&S, &c);
    }
    cholmod_finish(&c);
    lcp_csr_free(&T);
    return rc;
}

int lcp_matrix_analyse(const lcp_problem *p, int dense_max, lcp_matrix_facts *f, lcp_err *err)
{
    memset(f, 0, sizeof *f);
    f->symmetric = lcp_csr_is_symmetric(&p->A, 1e-12);
    f->definite = "unknown";
    f->method = "none";
    f->diag_min = INFINITY;
    f->diag_max = -INFINITY;
    for (int i = 0; i < p->n; i++) {
        double d = lcp_csr_diag(&p->A, i);
        f->diag_min = fmin(f->diag_min, d);
        f->diag_max = fmax(f->diag_max, d);
    }
    if (p->n == 0) return 0;
    int rc = p->n <= dense_max ? dense_analysis(p, f) : cholesky_test(p, f);
    return rc ? lcp_fail(err, LCP_ERROR, p->source, 0, "cannot analyse A (out of memory)") : 0;
}
