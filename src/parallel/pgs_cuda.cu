/* src/parallel/pgs_cuda.cu: projected Gauss-Seidel kernels (see
 * pgs_cuda.h).  Built only by `make CUDA=1` (nvcc, linked with -lcudart).
 *
 * Colour-parallel sweeps (solver pgs-cuda): the host orders the rows by
 * DSATUR colour class (src/graph/graph.h), so a class is a contiguous range
 * of rows none of which reads another's unknown: one launch a class updates
 * all of its rows at once, a warp a row (the lanes read the row's CSR
 * entries side by side: coalesced), the sum reduced by warp shuffles, no
 * atomics.  The launches of a sweep run in order on one stream, which is the
 * Gauss-Seidel order of the permuted rows.
 *
 * Batched sweeps (batch --device gpu): a block of one warp a problem; the
 * rows of a problem are visited in order (exactly the CPU's pgs order), the
 * warp sharing each row's dot product; the problem's x lives in shared
 * memory when it fits (48 KiB: 6144 rows), in global memory otherwise.
 */
#include "pgs_cuda.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define WARP 32
#define BLOCK 256 /* threads a block of the colour kernel: 8 rows */
#define SHARED_ROWS 6144

#define CU(call)                                                                                       \
    do {                                                                                               \
        cudaError_t e_ = (call);                                                                       \
        if (e_ != cudaSuccess) {                                                                       \
            snprintf(msg, len, "CUDA: %s: %s", #call, cudaGetErrorString(e_));                         \
            goto fail;                                                                                 \
        }                                                                                              \
    } while (0)

/* x clipped to [lo, hi]; a NaN stays NaN (the host's monitor sees it). */
__device__ static inline double clip(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* The sum of r over the warp, in every lane. */
__device__ static inline double warp_sum(double r)
{
    for (int off = WARP / 2; off > 0; off >>= 1) r += __shfl_xor_sync(0xffffffffu, r, off);
    return r;
}

__global__ void pgs_colour_kernel(int first, int last, const int *__restrict__ rowptr, const int *__restrict__ col,
                                  const double *__restrict__ val, const double *__restrict__ b,
                                  const double *__restrict__ dinv, const double *__restrict__ lo,
                                  const double *__restrict__ hi, double *x)
{
    int i = first + (int)((blockIdx.x * blockDim.x + threadIdx.x) / WARP);
    int lane = threadIdx.x & (WARP - 1);
    if (i >= last) return; /* the whole warp: i is the same in all its lanes */
    double r = 0.0;
    for (int k = rowptr[i] + lane; k < rowptr[i + 1]; k += WARP) r += val[k] * x[col[k]];
    r = warp_sum(r);
    if (lane == 0) x[i] = clip(x[i] - (b[i] + r) * dinv[i], lo[i], hi[i]);
}

__global__ void pgs_batch_kernel(int sweeps, const unsigned char *__restrict__ active, const int *__restrict__ env_row,
                                 const int *__restrict__ rowptr, const int *__restrict__ col,
                                 const double *__restrict__ val, const double *__restrict__ b,
                                 const double *__restrict__ dinv, const double *__restrict__ lo,
                                 const double *__restrict__ hi, double *x, int shared_rows)
{
    extern __shared__ double xs[];
    int e = blockIdx.x, lane = threadIdx.x;
    if (!active[e]) return;
    int r0 = env_row[e], n = env_row[e + 1] - r0;
    double *xe = x + r0;
    double *w = n <= shared_rows ? xs : xe;
    if (w == xs) {
        for (int i = lane; i < n; i += WARP) xs[i] = xe[i];
        __syncwarp();
    }
    for (int s = 0; s < sweeps; s++)
        for (int i = 0; i < n; i++) {
            int g = r0 + i;
            double r = 0.0;
            for (int k = rowptr[g] + lane; k < rowptr[g + 1]; k += WARP) r += val[k] * w[col[k]];
            r = warp_sum(r);
            if (lane == 0) w[i] = clip(w[i] - (b[g] + r) * dinv[g], lo[g], hi[g]);
            __syncwarp();
        }
    if (w == xs)
        for (int i = lane; i < n; i += WARP) xe[i] = xs[i];
}

extern "C" int lcp_cuda_devices(char *msg, size_t len)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count <= 0) {
        snprintf(msg, len, "no CUDA device (%s)", e != cudaSuccess ? cudaGetErrorString(e) : "none found");
        return -1;
    }
    return count;
}

/* ------------------------------------------------------------ one problem */

struct lcp_cuda_pgs {
    int n, ncolours;
    int *cptr; /* host */
    int *rowptr, *col;
    double *val, *b, *dinv, *lo, *hi, *x;
};

extern "C" void lcp_cuda_pgs_free(lcp_cuda_pgs *h)
{
    if (!h) return;
    cudaFree(h->rowptr);
    cudaFree(h->col);
    cudaFree(h->val);
    cudaFree(h->b);
    cudaFree(h->dinv);
    cudaFree(h->lo);
    cudaFree(h->hi);
    cudaFree(h->x);
    free(h->cptr);
    free(h);
}

extern "C" int lcp_cuda_pgs_create(lcp_cuda_pgs **hp, int n, const int *rowptr, const int *col, const double *val,
                                   const double *b, const double *dinv, const double *lo, const double *hi,
                                   const double *x0, int ncolours, const int *cptr, char *msg, size_t len)
{
    lcp_cuda_pgs *h = (lcp_cuda_pgs *)calloc(1, sizeof *h);
    size_t nn = (size_t)(n > 0 ? n : 1), nnz = (size_t)(rowptr[n] > 0 ? rowptr[n] : 1);
    *hp = NULL;
    if (!h || !(h->cptr = (int *)malloc((size_t)(ncolours + 1) * sizeof(int)))) {
        snprintf(msg, len, "out of memory");
        goto fail;
    }
    h->n = n;
    h->ncolours = ncolours;
    for (int c = 0; c <= ncolours; c++) h->cptr[c] = cptr[c];
    CU(cudaMalloc((void **)&h->rowptr, (nn + 1) * sizeof(int)));
    CU(cudaMalloc((void **)&h->col, nnz * sizeof(int)));
    CU(cudaMalloc((void **)&h->val, nnz * sizeof(double)));
    CU(cudaMalloc((void **)&h->b, nn * sizeof(double)));
    CU(cudaMalloc((void **)&h->dinv, nn * sizeof(double)));
    CU(cudaMalloc((void **)&h->lo, nn * sizeof(double)));
    CU(cudaMalloc((void **)&h->hi, nn * sizeof(double)));
    CU(cudaMalloc((void **)&h->x, nn * sizeof(double)));
    CU(cudaMemcpy(h->rowptr, rowptr, ((size_t)n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(h->col, col, (size_t)rowptr[n] * sizeof(int), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(h->val, val, (size_t)rowptr[n] * sizeof(double), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(h->b, b, (size_t)n * sizeof(double), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(h->dinv, dinv, (size_t)n * sizeof(double), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(h->lo, lo, (size_t)n * sizeof(double), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(h->hi, hi, (size_t)n * sizeof(double), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(h->x, x0, (size_t)n * sizeof(double), cudaMemcpyHostToDevice));
    *hp = h;
    return 0;
fail:
    lcp_cuda_pgs_free(h);
    return -1;
}

extern "C" int lcp_cuda_pgs_sweep(lcp_cuda_pgs *h, int sweeps, double *x, char *msg, size_t len)
{
    const int rows_a_block = BLOCK / WARP;
    for (int s = 0; s < sweeps; s++)
        for (int c = 0; c < h->ncolours; c++) {
            int first = h->cptr[c], last = h->cptr[c + 1];
            if (last <= first) continue;
            int blocks = (last - first + rows_a_block - 1) / rows_a_block;
            pgs_colour_kernel<<<blocks, BLOCK>>>(first, last, h->rowptr, h->col, h->val, h->b, h->dinv, h->lo, h->hi,
                                                 h->x);
        }
    CU(cudaGetLastError());
    CU(cudaMemcpy(x, h->x, (size_t)h->n * sizeof(double), cudaMemcpyDeviceToHost));
    return 0;
fail:
    return -1;
}

/* ---------------------------------------------------------------- batch */

struct lcp_cuda_batch {
    int nenv, rows, shared_rows;
    int *env_row, *rowptr, *col;
    double *val, *b, *dinv, *lo, *hi, *x;
    unsigned char *active;
};

extern "C" void lcp_cuda_batch_free(lcp_cuda_batch *h)
{
    if (!h) return;
    cudaFree(h->env_row);
    cudaFree(h->rowptr);
    cudaFree(h->col);
    cudaFree(h->val);
    cudaFree(h->b);
    cudaFree(h->dinv);
    cudaFree(h->lo);
    cudaFree(h->hi);
    cudaFree(h->x);
    cudaFree(h->active);
    free(h);
}

extern "C" int lcp_cuda_batch_create(lcp_cuda_batch **hp, int nenv, const int *env_row, const int *rowptr,
                                     const int *col, const double *val, const double *b, const double *dinv,
                                     const double *lo, const double *hi, const double *x0, char *msg, size_t len)
{
    lcp_cuda_batch *h = (lcp_cuda_batch *)calloc(1, sizeof *h);
    int rows = env_row[nenv], maxn = 0;
    size_t nn = (size_t)(rows > 0 ? rows : 1), nnz = (size_t)(rowptr[rows] > 0 ? rowptr[rows] : 1);
    *hp = NULL;
    if (!h) {
        snprintf(msg, len, "out of memory");
        goto fail;
    }
    for (int e = 0; e < nenv; e++)
        if (env_row[e + 1] - env_row[e] > maxn) maxn = env_row[e + 1] - env_row[e];
    h->nenv = nenv;
    h->rows = rows;
    h->shared_rows = maxn < SHARED_ROWS ? maxn : SHARED_ROWS;
    CU(cudaMalloc((void **)&h->env_row, ((size_t)nenv + 1) * sizeof(int)));
    CU(cudaMalloc((void **)&h->active, (size_t)(nenv > 0 ? nenv : 1)));
    CU(cudaMalloc((void **)&h->rowptr, (nn + 1) * sizeof(int)));
    CU(cudaMalloc((void **)&h->col, nnz * sizeof(int)));
    CU(cudaMalloc((void **)&h->val, nnz * sizeof(double)));
    CU(cudaMalloc((void **)&h->b, nn * sizeof(double)));
    CU(cudaMalloc((void **)&h->dinv, nn * sizeof(double)));
    CU(cudaMalloc((void **)&h->lo, nn * sizeof(double)));
    CU(cudaMalloc((void **)&h->hi, nn * sizeof(double)));
    CU(cudaMalloc((void **)&h->x, nn * sizeof(double)));
    CU(cudaMemcpy(h->env_row, env_row, ((size_t)nenv + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(h->rowptr, rowptr, ((size_t)rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(h->col, col, (size_t)rowptr[rows] * sizeof(int), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(h->val, val, (size_t)rowptr[rows] * sizeof(double), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(h->b, b, (size_t)rows * sizeof(double), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(h->dinv, dinv, (size_t)rows * sizeof(double), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(h->lo, lo, (size_t)rows * sizeof(double), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(h->hi, hi, (size_t)rows * sizeof(double), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(h->x, x0, (size_t)rows * sizeof(double), cudaMemcpyHostToDevice));
    *hp = h;
    return 0;
fail:
    lcp_cuda_batch_free(h);
    return -1;
}

extern "C" int lcp_cuda_batch_sweep(lcp_cuda_batch *h, int sweeps, const unsigned char *active, double *x, char *msg,
                                    size_t len)
{
    if (h->nenv <= 0) return 0;
    CU(cudaMemcpy(h->active, active, (size_t)h->nenv, cudaMemcpyHostToDevice));
    pgs_batch_kernel<<<h->nenv, WARP, (size_t)h->shared_rows * sizeof(double)>>>(
        sweeps, h->active, h->env_row, h->rowptr, h->col, h->val, h->b, h->dinv, h->lo, h->hi, h->x, h->shared_rows);
    CU(cudaGetLastError());
    CU(cudaMemcpy(x, h->x, (size_t)h->rows * sizeof(double), cudaMemcpyDeviceToHost));
    return 0;
fail:
    return -1;
}
