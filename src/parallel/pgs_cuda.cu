/* src/parallel/pgs_cuda.cu: projected Gauss-Seidel kernels (see
 * pgs_cuda.h).  Built only by `make CUDA=1` (nvcc, linked with -lcudart).
 *
 * Colour-parallel sweeps (solver pgs-cuda): the host orders the rows by
 * DSATUR colour class (src/graph/graph.h), so a class is a contiguous range
 * of rows none of which reads another's unknown: one launch a class updates
 * all of its rows at once, no atomics.  Rows grouped by length: a class
 * whose rows hold at most SHORT_ROW entries (a contact's few neighbours)
 * takes a thread a row, the row's entries summed in their stored order; a
 * class with a longer row takes a warp a row (the
 * lanes read the row's CSR entries side by side: coalesced), the sum
 * reduced by warp shuffles -- a warp a row of 3 entries would leave 29 of
 * its 32 lanes idle.  The launches of a sweep run in order on one stream,
 * which is the Gauss-Seidel order of the permuted rows; they are captured
 * once into a CUDA graph and a sweep is one launch of the graph (a launch a
 * class costs microseconds of the host's time: tens of classes a sweep, a
 * few rows each on a small problem, were launch-bound), with the plain
 * launches where the graph cannot be made.
 *
 * Batched sweeps (batch --device gpu): a block of one warp a problem; the
 * rows of a problem are visited in order (exactly the CPU's pgs order), the
 * warp sharing each row's dot product; the problem's x lives in shared
 * memory when it fits (48 KiB: 6144 rows), in global memory otherwise.
 * The problems are grouped by size (rows up to 32, 64, 128, ...: powers of
 * two), a launch a group with the shared memory of its largest problem --
 * sized by the largest of the whole batch, one large environment would cut
 * the blocks a multiprocessor holds for all the small ones.
 */
#include "pgs_cuda.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define WARP 32
#define BLOCK 256    /* threads a block of the colour kernels: 8 rows a warp each, or 256 rows a thread each */
#define SHORT_ROW 16 /* a class whose rows have at most this many entries: a thread a row */
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

/* a thread a row (a class of short rows): the entries in their stored order */
__global__ void pgs_colour_rows_kernel(int first, int last, const int *__restrict__ rowptr, const int *__restrict__ col,
                                       const double *__restrict__ val, const double *__restrict__ b,
                                       const double *__restrict__ dinv, const double *__restrict__ lo,
                                       const double *__restrict__ hi, double *x)
{
    int i = first + (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= last) return;
    double r = 0.0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) r += val[k] * x[col[k]];
    x[i] = clip(x[i] - (b[i] + r) * dinv[i], lo[i], hi[i]);
}

__global__ void pgs_batch_kernel(int sweeps, const int *__restrict__ order, const unsigned char *__restrict__ active,
                                 const int *__restrict__ env_row,
                                 const int *__restrict__ rowptr, const int *__restrict__ col,
                                 const double *__restrict__ val, const double *__restrict__ b,
                                 const double *__restrict__ dinv, const double *__restrict__ lo,
                                 const double *__restrict__ hi, double *x, int shared_rows)
{
    extern __shared__ double xs[];
    int e = order[blockIdx.x], lane = threadIdx.x;
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
    int *cptr;           /* host: the classes' first rows */
    unsigned char *wide; /* host: 1 where a class has a row of more than SHORT_ROW entries (a warp a row) */
    int *rowptr, *col;
    double *val, *b, *dinv, *lo, *hi, *x;
    cudaStream_t stream; /* the sweeps' stream (0: none made) */
    cudaGraphExec_t sweep; /* one sweep's launches, captured (graph: 1 where made) */
    int graph, launches;   /* launches: a sweep's kernel launches */
};

/* one sweep's launches on stream: a launch a colour class, in order */
static void launch_sweep(const lcp_cuda_pgs *h, cudaStream_t stream)
{
    for (int c = 0; c < h->ncolours; c++) {
        int first = h->cptr[c], last = h->cptr[c + 1];
        if (last <= first) continue;
        if (h->wide[c]) {
            int blocks = (last - first + BLOCK / WARP - 1) / (BLOCK / WARP);
            pgs_colour_kernel<<<blocks, BLOCK, 0, stream>>>(first, last, h->rowptr, h->col, h->val, h->b, h->dinv,
                                                            h->lo, h->hi, h->x);
        } else {
            int blocks = (last - first + BLOCK - 1) / BLOCK;
            pgs_colour_rows_kernel<<<blocks, BLOCK, 0, stream>>>(first, last, h->rowptr, h->col, h->val, h->b,
                                                                 h->dinv, h->lo, h->hi, h->x);
        }
    }
}

extern "C" void lcp_cuda_pgs_free(lcp_cuda_pgs *h)
{
    if (!h) return;
    if (h->graph) cudaGraphExecDestroy(h->sweep);
    if (h->stream) cudaStreamDestroy(h->stream);
    free(h->wide);
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
    if (!h || !(h->cptr = (int *)malloc((size_t)(ncolours + 1) * sizeof(int))) ||
        !(h->wide = (unsigned char *)calloc((size_t)(ncolours > 0 ? ncolours : 1), 1))) {
        snprintf(msg, len, "out of memory");
        goto fail;
    }
    h->n = n;
    h->ncolours = ncolours;
    for (int c = 0; c <= ncolours; c++) h->cptr[c] = cptr[c];
    for (int c = 0; c < ncolours; c++) {
        for (int i = cptr[c]; i < cptr[c + 1] && !h->wide[c]; i++) h->wide[c] = rowptr[i + 1] - rowptr[i] > SHORT_ROW;
        h->launches += cptr[c + 1] > cptr[c];
    }
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
    CU(cudaDeviceSynchronize()); /* the uploads done before the sweeps' stream reads them */
    CU(cudaStreamCreate(&h->stream));
    { /* one sweep captured into a graph; where that fails, the plain launches (h->graph 0) */
        cudaGraph_t g = NULL;
        if (cudaStreamBeginCapture(h->stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess) {
            launch_sweep(h, h->stream);
            if (cudaStreamEndCapture(h->stream, &g) == cudaSuccess && g &&
                cudaGraphInstantiateWithFlags(&h->sweep, g, 0) == cudaSuccess) /* (11.4 and later alike) */
                h->graph = 1;
            if (g) cudaGraphDestroy(g);
        }
        (void)cudaGetLastError(); /* (a failed capture's error is not the sweeps') */
    }
    *hp = h;
    return 0;
fail:
    lcp_cuda_pgs_free(h);
    return -1;
}

extern "C" int lcp_cuda_pgs_sweep(lcp_cuda_pgs *h, int sweeps, double *x, char *msg, size_t len)
{
    for (int s = 0; s < sweeps; s++) {
        if (h->graph) CU(cudaGraphLaunch(h->sweep, h->stream));
        else launch_sweep(h, h->stream);
    }
    CU(cudaGetLastError());
    CU(cudaMemcpyAsync(x, h->x, (size_t)h->n * sizeof(double), cudaMemcpyDeviceToHost, h->stream));
    CU(cudaStreamSynchronize(h->stream));
    return 0;
fail:
    return -1;
}

extern "C" void lcp_cuda_pgs_shape(const lcp_cuda_pgs *h, int *launches, int *graph)
{
    *launches = h->launches;
    *graph = h->graph;
}

/* ---------------------------------------------------------------- batch */

#define GROUPS 32 /* size groups: rows up to 32, then 2^g */

struct lcp_cuda_batch {
    int nenv, rows;
    int gfirst[GROUPS + 1], gshared[GROUPS]; /* host: group g is order[gfirst[g] .. gfirst[g+1]), its shared rows */
    int *order;                              /* device: the problems by group */
    int *env_row, *rowptr, *col;
    double *val, *b, *dinv, *lo, *hi, *x;
    unsigned char *active;
};

extern "C" void lcp_cuda_batch_free(lcp_cuda_batch *h)
{
    if (!h) return;
    cudaFree(h->order);
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
    int rows = env_row[nenv], *order = (int *)malloc((size_t)(nenv > 0 ? nenv : 1) * sizeof(int));
    unsigned char *grp = (unsigned char *)malloc((size_t)(nenv > 0 ? nenv : 1));
    size_t nn = (size_t)(rows > 0 ? rows : 1), nnz = (size_t)(rowptr[rows] > 0 ? rowptr[rows] : 1);
    *hp = NULL;
    if (!h || !order || !grp) {
        snprintf(msg, len, "out of memory");
        goto fail;
    }
    h->nenv = nenv;
    h->rows = rows;
    for (int e = 0; e < nenv; e++) { /* the group of each problem, the groups' sizes, then the problems by group */
        int n = env_row[e + 1] - env_row[e], g = 0;
        while (g < GROUPS - 1 && n > (32 << g)) g++;
        grp[e] = (unsigned char)g;
        h->gfirst[g + 1]++;
        if (n > h->gshared[g]) h->gshared[g] = n;
    }
    for (int g = 0; g < GROUPS; g++) {
        h->gfirst[g + 1] += h->gfirst[g];
        if (h->gshared[g] > SHARED_ROWS) h->gshared[g] = SHARED_ROWS; /* (larger problems: x in global memory) */
    }
    {
        int next[GROUPS];
        for (int g = 0; g < GROUPS; g++) next[g] = h->gfirst[g];
        for (int e = 0; e < nenv; e++) order[next[grp[e]]++] = e;
    }
    CU(cudaMalloc((void **)&h->order, (size_t)(nenv > 0 ? nenv : 1) * sizeof(int)));
    CU(cudaMemcpy(h->order, order, (size_t)nenv * sizeof(int), cudaMemcpyHostToDevice));
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
    free(order);
    free(grp);
    *hp = h;
    return 0;
fail:
    free(order);
    free(grp);
    lcp_cuda_batch_free(h);
    return -1;
}

extern "C" int lcp_cuda_batch_sweep(lcp_cuda_batch *h, int sweeps, const unsigned char *active, double *x, char *msg,
                                    size_t len)
{
    if (h->nenv <= 0) return 0;
    CU(cudaMemcpy(h->active, active, (size_t)h->nenv, cudaMemcpyHostToDevice));
    for (int g = 0; g < GROUPS; g++) { /* a launch a group of sizes, its shared memory its largest problem's */
        int count = h->gfirst[g + 1] - h->gfirst[g];
        if (count <= 0) continue;
        pgs_batch_kernel<<<count, WARP, (size_t)h->gshared[g] * sizeof(double)>>>(
            sweeps, h->order + h->gfirst[g], h->active, h->env_row, h->rowptr, h->col, h->val, h->b, h->dinv, h->lo,
            h->hi, h->x, h->gshared[g]);
    }
    CU(cudaGetLastError());
    CU(cudaMemcpy(x, h->x, (size_t)h->rows * sizeof(double), cudaMemcpyDeviceToHost));
    return 0;
fail:
    return -1;
}
