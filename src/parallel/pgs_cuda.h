/* src/parallel/pgs_cuda.h: projected Gauss-Seidel on an NVIDIA GPU (CUDA
 * builds only: make CUDA=1 compiles src/parallel/pgs_cuda.cu and defines
 * LCP_HAVE_CUDA).  Plain C types only, so that C and CUDA C++ share it;
 * the glue that turns problems into these arrays is C (src/solvers/
 * pgs_cuda.c for the solver pgs-cuda, src/batch.c for batch --device gpu).
 *
 * Every function returns 0, or -1 with a one-line reason in msg.
 *
 * Update of row i (the CPU's pgs_row, src/solvers/pgs.c):
 *     r_i = b_i + sum_k A_ik x_k,   x_i <- min(max(x_i - r_i * dinv_i, lo_i), hi_i)
 * (lcp: lo = 0, hi = +inf).  The sum is reduced across a warp, so the bits
 * may differ from the CPU's in the last places; the answers are judged by the
 * host's common residual (src/core/verify.c) either way.
 */
#ifndef LCPSOLVE_PGS_CUDA_H
#define LCPSOLVE_PGS_CUDA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Number of usable CUDA devices (> 0), or -1 with the reason ("no CUDA
 * device: ...") in msg. */
int lcp_cuda_devices(char *msg, size_t len);

/* Colour-parallel sweeps of one problem.  The rows come permuted so that
 * colour class c is rows cptr[c] .. cptr[c+1]-1 (no entry of A between two
 * rows of a class), the columns renumbered the same way: one kernel launch
 * a class (a sweep's launches one CUDA graph), a thread a row where the
 * class's rows are short, else a warp a row, no atomics.  n rows, CSR rowptr/col/val, and b,
 * dinv, lo, hi, x0 (n each, permuted). */
typedef struct lcp_cuda_pgs lcp_cuda_pgs;
int lcp_cuda_pgs_create(lcp_cuda_pgs **h, int n, const int *rowptr, const int *col, const double *val,
                        const double *b, const double *dinv, const double *lo, const double *hi, const double *x0,
                        int ncolours, const int *cptr, char *msg, size_t len);
/* sweeps forward sweeps, then x (n, permuted) copied back. */
int lcp_cuda_pgs_sweep(lcp_cuda_pgs *h, int sweeps, double *x, char *msg, size_t len);
/* a sweep's kernel launches (a launch a non-empty class) and whether they
 * run as one CUDA graph (1) or one by one (0) */
void lcp_cuda_pgs_shape(const lcp_cuda_pgs *h, int *launches, int *graph);
void lcp_cuda_pgs_free(lcp_cuda_pgs *h);

/* Batched sweeps of many small problems, a thread block (one warp) a
 * problem, rows in natural order (the CPU's pgs order), x in shared memory
 * when it fits.  Problem e owns rows env_row[e] .. env_row[e+1]-1 of the
 * concatenated arrays; rowptr indexes the concatenated col/val; col is
 * local to the problem (0 .. n_e - 1). */
typedef struct lcp_cuda_batch lcp_cuda_batch;
int lcp_cuda_batch_create(lcp_cuda_batch **h, int nenv, const int *env_row, const int *rowptr, const int *col,
                          const double *val, const double *b, const double *dinv, const double *lo,
                          const double *hi, const double *x0, char *msg, size_t len);
/* sweeps sweeps on every problem e with active[e] != 0, then every x
 * (env_row[nenv] doubles) copied back. */
int lcp_cuda_batch_sweep(lcp_cuda_batch *h, int sweeps, const unsigned char *active, double *x, char *msg,
                         size_t len);
void lcp_cuda_batch_free(lcp_cuda_batch *h);

#ifdef __cplusplus
}
#endif

#endif
