/* src/cli/sensitivity.c: --sensitivity DB.mtx --sensitivity-out DX.mtx and
 * --adjoint G.mtx --adjoint-out DIR of the solve command; see
 * sensitivity.h and src/diff/diff.h. */
#include "sensitivity.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../diff/diff.h"
#include "../io/io.h"

void lcp_cli_diff_free(lcp_cli_diff_opts *d)
{
    free(d->db);
    free(d->g);
    d->db = d->g = NULL;
}

static int read_vec(const char *path, int n, double **v, lcp_err *err)
{
    int len = 0;
    int rc = lcp_read_mtx_vector(path, v, &len, err);
    if (!rc && len != n)
        rc = lcp_fail(err, LCP_INPUT_ERROR, path, 0, "has %d entries, the problem has %d unknowns", len, n);
    return rc;
}

int lcp_cli_diff_check(lcp_cli_diff_opts *d, const lcp_problem *p, int cone_k, lcp_err *err)
{
    if (!d->sensitivity != !d->sensitivity_out)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--sensitivity and --sensitivity-out go together");
    if (!d->adjoint != !d->adjoint_out)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--adjoint and --adjoint-out go together");
    if (!d->sensitivity && !d->adjoint) return 0;
    if (cone_k)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--%s: the derivatives are of the problem itself, not of its "
                        "--cone approximation", d->sensitivity ? "sensitivity" : "adjoint");
    int rc = 0;
    if (d->sensitivity && (rc = read_vec(d->sensitivity, p->n, &d->db, err))) return rc;
    if (d->adjoint && (rc = read_vec(d->adjoint, p->n, &d->g, err))) return rc;
    if (d->adjoint_out && mkdir(d->adjoint_out, 0777) != 0 && errno != EEXIST)
        return lcp_fail(err, LCP_INPUT_ERROR, d->adjoint_out, 0, "cannot create the folder (%s)", strerror(errno));
    return 0;
}

/* values on the pattern of S (a copy of its pattern), written as FILE in DIR */
static int write_on_pattern(const char *dir, const char *name, const lcp_csr *S, const double *val, lcp_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    lcp_csr G = *S;
    G.x = (double *)val;
    return lcp_write_mtx_matrix(path, &G, "lcpsolve gradient on the entries of the problem's matrix", err);
}

static int write_vec(const char *dir, const char *name, const double *v, int n, lcp_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return lcp_write_mtx_vector(path, v, n, "lcpsolve gradient", err);
}

int lcp_cli_diff(lcp_cli_diff_opts *d, const lcp_problem *p, const double *x, double reg, lcp_err *err)
{
    lcp_diff D;
    int rc = lcp_diff_prepare(&D, p, x, reg, err);
    int n = p->n, fac = D.fm_on, nb = fac ? p->M.m : 0;
    long na = lcp_csr_nnz(&p->A), nm = fac ? lcp_csr_nnz(&p->M) : 0, nj = fac ? lcp_csr_nnz(&p->J) : 0;
    double *out = lcp_alloc((size_t)(n + na + D.nmu + nm + nj + nb + n + 1), sizeof(double));
    if (!rc && !out) rc = lcp_fail(err, LCP_ERROR, NULL, 0, "derivatives: out of memory");
    if (!rc && d->db) {
        if (!(rc = lcp_diff_jvp(&D, NULL, d->db, NULL, out, err)))
            rc = lcp_write_mtx_vector(d->sensitivity_out, out, n, "lcpsolve derivative of the solution along DB", err);
    }
    if (!rc && d->g) {
        double *gb = out, *gA = gb + n, *gmu = gA + na, *gM = gmu + D.nmu, *gJ = gM + nm, *gv = gJ + nj;
        const char *dir = d->adjoint_out;
        rc = lcp_diff_vjp(&D, d->g, gA, gb, gmu, err);
        if (!rc) rc = write_vec(dir, "grad_b.mtx", gb, n, err);
        if (!rc) rc = write_on_pattern(dir, "grad_A.mtx", &p->A, gA, err);
        if (!rc && D.nmu) rc = write_vec(dir, "grad_mu.mtx", gmu, D.nmu, err);
        if (!rc && fac) {
            rc = lcp_diff_vjp_factored(&D, d->g, gM, gJ, gv, NULL, NULL, err);
            if (!rc) rc = write_on_pattern(dir, "grad_M.mtx", &p->M, gM, err);
            if (!rc) rc = write_on_pattern(dir, "grad_J.mtx", &p->J, gJ, err);
            if (!rc) rc = write_vec(dir, "grad_v.mtx", gv, nb, err);
            if (!rc) rc = write_vec(dir, "grad_e.mtx", gb, n, err); /* b = J v + e */
        }
    }
    free(out);
    lcp_diff_free(&D);
    return rc;
}
