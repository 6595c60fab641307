/* src/generate.h: `lcpsolve generate SCENE [OPTIONS] -o DIR`, the problem
 * generator (scenes: column, pyramid, granular, tower, mass-ratio,
 * redundant, chain, random-spd, murty; see
 * `lcpsolve generate --help` and the comments of src/generate.c). */
#ifndef LCPSOLVE_GENERATE_H
#define LCPSOLVE_GENERATE_H

/* argv[0] is the word "generate", the scene and the options follow (in any
 * order; argv itself is not reordered).  Writes the problem folder, prints
 * one summary line to stderr and returns the exit code of DESIGN.md: 0 on
 * success (also for --help, printed to stdout), 2 for a usage or input error
 * (one line "lcpsolve generate: ..." on stderr), 5 when memory runs out. */
int lcp_generate_main(int argc, char **argv);

#endif
