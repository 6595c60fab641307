/* src/cli/generate.h: the commands that write problems:
 *
 *   lcpsolve generate SCENE [OPTIONS] -o DIR        (src/cli/generate.c)
 *       one problem folder of a scene (column, pyramid, granular, tower,
 *       mass-ratio, redundant, chain, random-spd, murty; see `lcpsolve
 *       generate --help` and src/scenes/scenes.h), or with --envs K, K of
 *       them for `lcpsolve batch`.
 *   lcpsolve generate sequence --scene ... -o DIR   (src/cli/generate_sequence.c)
 *       the steps of a short rigid-sphere simulation (src/scenes/simulation.c),
 *       for `lcpsolve sequence DIR`.
 */
#ifndef LCPSOLVE_CLI_GENERATE_H
#define LCPSOLVE_CLI_GENERATE_H

/* argv[0] is the word "generate", the scene and the options follow (in any
 * order; argv itself is not reordered).  Writes the problem folder, prints
 * one summary line to stderr and returns the exit code of docs/contract.md: 0 on
 * success (also for --help, printed to stdout), 2 for a usage or input error
 * (one line "lcpsolve generate: ..." on stderr), 5 when memory runs out. */
int lcp_generate_main(int argc, char **argv);

/* argv[0] is "generate", argv[1] "sequence"; exit code of docs/contract.md. */
int lcp_sequence_generate_main(int argc, char **argv);

#endif
