/* src/generate.h: `lcpsolve generate SCENE [OPTIONS] -o DIR`, the problem
 * generator (scenes: column, pyramid, granular, tower, mass-ratio,
 * redundant, chain, random-spd, murty; see
 * `lcpsolve generate --help` and the comments of src/generate.c). */
#ifndef LCPSOLVE_GENERATE_H
#define LCPSOLVE_GENERATE_H

#include "core/problem.h"

/* argv[0] is the word "generate", the scene and the options follow (in any
 * order; argv itself is not reordered).  Writes the problem folder, prints
 * one summary line to stderr and returns the exit code of DESIGN.md: 0 on
 * success (also for --help, printed to stdout), 2 for a usage or input error
 * (one line "lcpsolve generate: ..." on stderr), 5 when memory runs out. */
int lcp_generate_main(int argc, char **argv);

/* The same scene as a problem in memory (the library's
 * lcps_problem_generate): options NULL-terminated pairs of the command's
 * long option names and values ("base", "10", "mu", "0.5", ...; a flag:
 * "true" or "false"), checked as the command checks them but printing
 * nothing and without getopt (safe in threads); p (initialised) gets A, b,
 * the factored form and mu, lcp_problem_finish()ed.  0, or LCP_INPUT_ERROR /
 * LCP_ERROR with the reason in err. */
int lcp_generate_problem(const char *scene, const char *const *options, lcp_problem *p, lcp_err *err);

#endif
