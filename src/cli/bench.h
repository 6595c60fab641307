/* src/cli/bench.h: `lcpsolve bench [OPTIONS] PLAN.yaml`, an experiment plan
 * (src/io/plan.h) run pair by pair: every problem with every configuration
 * whose solver takes its kind, `repeats` times.
 *
 * Each run is one forked child running the normal command line
 * (`lcpsolve --json OPTIONS -- PROBLEM`, through the main function handed
 * in), its --json object read back through a pipe.  A child killed by a
 * signal is recorded as status `crash`; one still running time-limit +
 * grace seconds after it started is killed (SIGKILL) and recorded as
 * `timeout`; the plan goes on.  A configuration whose solver does not take
 * the problem's kind is recorded once as `skipped` with the reason.  The
 * problem itself is read once beforehand in a child too (its kind, n, nnz).
 *
 * Output: one CSV row a run, written atomically at the end (and on
 * SIGINT/SIGTERM, with the runs so far): config,problem,repeat,exit_code,
 * then the --json fields in a fixed order, then any others, wall_s, path,
 * message.  Then a table on stdout (median solve time of the solved runs,
 * per problem and configuration, the fastest marked), or with --json one
 * summary object.  A progress bar goes to stderr when it is a terminal.
 */
#ifndef LCPSOLVE_BENCH_H
#define LCPSOLVE_BENCH_H

#include "../io/plan.h"

/* argv[0] is the word "bench".  run_main is lcpsolve's main (the child
 * calls it with a fresh argv); check validates plan options (plan.h).
 * Exit: 0 the plan ran to the end (whatever the runs' statuses), 1
 * interrupted (the CSV holds the runs so far), 2 usage or plan error
 * ("FILE:LINE: reason"), 5 the CSV could not be written. */
int lcp_bench_main(int argc, char **argv, int (*run_main)(int, char **), lcp_plan_check_fn check);

#endif
