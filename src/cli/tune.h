/* src/cli/tune.h: `lcpsolve tune`: measures the candidate configurations on
 * a corpus and writes --solver auto's model; --lofo validates a model by
 * leaving one family out at a time (src/cli/tune.c). */
#ifndef LCPSOLVE_TUNE_H
#define LCPSOLVE_TUNE_H

int lcp_tune_main(int argc, char **argv);

#endif
