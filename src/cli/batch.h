/* src/cli/batch.h: `lcpsolve batch [OPTIONS] DIR`, many small problems
 * ("environments") solved at once.
 *
 * DIR holds one environment an entry: a problem folder or a .json, .dat or
 * .hdf5 file, taken in name order (hidden entries skipped).  All are read
 * first (the parse time is reported apart), then solved on the -j OpenMP
 * threads, one environment a thread at a time (dynamic schedule), each solve
 * sequential inside: the answers are the same bits for any -j.  Every
 * answer is verified by src/core/verify.c.  With --device gpu (CUDA builds only,
 * src/parallel/pgs_cuda.cu) the lcp/blcp environments are swept by a
 * batched PGS kernel, a thread block an environment, and checked on the
 * host the same way.
 */
#ifndef LCPSOLVE_BATCH_H
#define LCPSOLVE_BATCH_H

/* argv[0] is the word "batch".  Returns the exit code of docs/contract.md: 0 all
 * solved, 1 some reached a limit, 2 a usage or input error (naming the
 * file), 3 some have no solution, 5 a breakdown. */
int lcp_batch_main(int argc, char **argv);

#endif
