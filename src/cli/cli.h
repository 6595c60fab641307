/* src/cli/cli.h: what the commands of the command line share. */
#ifndef LCPSOLVE_CLI_H
#define LCPSOLVE_CLI_H

#include <signal.h>

#include "../core/verify.h"

/* Set by the binary's SIGINT/SIGTERM handler (src/cli/main.c). */
extern volatile sig_atomic_t lcp_interrupted;

/* The iteration callback of every solve the binary runs (lcp_settings'
 * on_iteration): 1 once a SIGINT or SIGTERM came, so the solve stops at its
 * next check with its best iterate (status time_limit, "interrupted"). */
int lcp_cli_stop_on_signal(void *ctx, int iter, double time_s, const lcp_metrics *m, const char *const *columns,
                           const double *extra);

#endif
