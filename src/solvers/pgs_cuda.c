/* src/solvers/pgs_cuda.c: pgs-cuda, colour-parallel projected Gauss-Seidel
 * on an NVIDIA GPU (CUDA builds only: make CUDA=1; the kernels are in
 * src/parallel/pgs_cuda.cu).  lcp, and blcp without findex.
 *
 * The host colours the contact graph (DSATUR, src/graph/graph.h), permutes
 * the rows of A (and its columns, the same way) so that each colour class
 * is a contiguous range, uploads that CSR with b, 1/A_ii and the bounds, and
 * runs the sweeps as one kernel launch a class.  Every CHECK sweeps (and
 * at the iteration limit) x comes back, is permuted back and goes through
 * the normal monitor (src/solvers/monitor.c): the residual, limits, best
 * iterate.  An iteration is one sweep.  The sweep is the one of
 * `pgs --order dsatur` (same order, same updates; the warp sum of a class
 * of long rows may round differently in the last places).  The message
 * gives the set-up (the colouring, the device's context, the upload, the
 * sweep's graph) and the sweeps (with the copies of x back) apart: the
 * solve's time holds both.  Without a usable device it fails with "no
 * CUDA device" (exit 5).
 */
#ifdef LCP_HAVE_CUDA
#include "solver.h"
#include "../parallel/pgs_cuda.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK 10 /* sweeps between monitor checks */

static int pgs_cuda_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                          lcp_err *err)
{
    char msg[512];
    double t_setup = lcp_now();
    if (lcp_cuda_devices(msg, sizeof msg) <= 0) return lcp_fail(err, LCP_ERROR, NULL, 0, "%s", msg);
    if (p->kind == LCP_KIND_BLCP && p->findex)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                        "pgs-cuda solves blcp without findex (this one has friction rows: try pgs)");
    const int n = p->n;
    double *dinv = NULL;
    int rc = lcp_inverse_diagonal(p, "pgs-cuda", &dinv, err);
    if (rc) return rc;
    lcp_order o = {0};
    if ((rc = lcp_order_build(p, LCP_ORDER_DSATUR, &o, err))) {
        free(dinv);
        return rc;
    }
    size_t nn = (size_t)(n > 0 ? n : 1);
    long nnz = lcp_csr_nnz(&p->A);
    int *iperm = lcp_alloc(nn, sizeof(int)), *rp = lcp_alloc(nn + 1, sizeof(int));
    int *cj = lcp_alloc((size_t)(nnz > 0 ? nnz : 1), sizeof(int));
    double *cx = lcp_alloc((size_t)(nnz > 0 ? nnz : 1), sizeof(double));
    double *pb = lcp_alloc(nn, sizeof(double)), *pd = lcp_alloc(nn, sizeof(double));
    double *plo = lcp_alloc(nn, sizeof(double)), *phi = lcp_alloc(nn, sizeof(double));
    double *px = lcp_alloc(nn, sizeof(double));
    lcp_cuda_pgs *h = NULL;
    if (!iperm || !rp || !cj || !cx || !pb || !pd || !plo || !phi || !px) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto done;
    }
    /* permuted CSR: row k is row perm[k], column j becomes iperm[j] (the
     * columns of a row are not re-sorted: the kernel does not need it) */
    for (int k = 0; k < n; k++) iperm[o.perm[k]] = k;
    rp[0] = 0;
    for (int k = 0; k < n; k++) {
        int i = o.perm[k], q = rp[k];
        for (int t = p->A.p[i]; t < p->A.p[i + 1]; t++, q++) {
            cj[q] = iperm[p->A.j[t]];
            cx[q] = p->A.x[t];
        }
        rp[k + 1] = q;
        pb[k] = p->b[i];
        pd[k] = dinv[i];
        plo[k] = p->kind == LCP_KIND_BLCP && p->lo ? p->lo[i] : 0.0;
        phi[k] = p->kind == LCP_KIND_BLCP && p->hi ? p->hi[i] : INFINITY;
        px[k] = x[i];
    }
    if (lcp_cuda_pgs_create(&h, n, rp, cj, cx, pb, pd, plo, phi, px, o.ncolours, o.cptr, msg, sizeof msg)) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "pgs-cuda: %s", msg);
        goto done;
    }
    info->omega = 1.0;
    t_setup = lcp_now() - t_setup;
    double t_sweeps = 0.0;
    if (!lcp_monitor_step(mon, 0, x, NULL))
        for (int it = 0;;) {
            int k = CHECK;
            if (s->max_iter > it && s->max_iter - it < k) k = s->max_iter - it;
            double t0 = lcp_now();
            if (lcp_cuda_pgs_sweep(h, k, px, msg, sizeof msg)) {
                rc = lcp_fail(err, LCP_ERROR, NULL, 0, "pgs-cuda: %s", msg);
                goto done;
            }
            t_sweeps += lcp_now() - t0;
            it += k;
            for (int q = 0; q < n; q++) x[o.perm[q]] = px[q];
            if (lcp_monitor_step(mon, it, x, NULL)) break;
        }
    info->iterations = mon->iter;
    int launches, graph;
    lcp_cuda_pgs_shape(h, &launches, &graph);
    snprintf(info->message, sizeof info->message,
             "set-up %.3g s (colouring, device context, upload), sweeps %.3g s (%d kernel launches a sweep%s)",
             t_setup, t_sweeps, launches, graph ? ", one CUDA graph" : "");
done:
    lcp_cuda_pgs_free(h);
    lcp_order_free(&o);
    free(dinv);
    free(iperm);
    free(rp);
    free(cj);
    free(cx);
    free(pb);
    free(pd);
    free(plo);
    free(phi);
    free(px);
    return rc;
}

const lcp_solver lcp_solver_pgs_cuda = {"pgs-cuda",
                                        "colour-parallel projected Gauss-Seidel on a CUDA GPU (CUDA builds)",
                                        LCP_KIND_LCP | LCP_KIND_BLCP, NULL, pgs_cuda_solve, NULL, 0, 0};
#endif
