/* src/solvers/team.c: how many threads a solver's parallel sweeps use,
 * chosen by measurement while it runs (lcp_team, src/solvers/solver.h).
 *
 * A colour-parallel sweep has a barrier between colour classes.  On an idle
 * machine -j N is up to N times faster; on one where other processes are
 * busy, a thread that is descheduled holds every other one at the next
 * barrier, and -j N can be many times slower than -j 1.  Neither the
 * machine's load nor the OpenMP wait policy is known in advance (libgomp
 * reads OMP_WAIT_POLICY once, when it is loaded), so the steps time
 * themselves:
 *  - a trial runs TRIAL steps with the threads asked for and TRIAL with
 *    one, alternately, and keeps the threads where their mean step is
 *    below GAIN times the mean alone (a step's time on a loaded machine is
 *    erratic: the mean, not the least, is what the solve pays);
 *  - with the threads kept, a step slower than SLOW times the trial's mean
 *    step alone counts as a strike; STRIKES of them start a new trial at
 *    once (the machine got busy); otherwise a trial comes again after
 *    INTERVAL steps and SPACING seconds;
 *  - with one thread kept, the next trial waits twice as long after each
 *    verdict for one thread in a row (up to 64 times), so a busy machine
 *    pays for few parallel trial steps.
 * The colour classes make every thread count give the bits of the
 * sequential sweep in the same order, so the choice changes the time of a
 * solve, never its answer. */
#include "solver.h"

#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif

enum { TRIAL = 3, INTERVAL = 64, STRIKES = 2, MAXBACKOFF = 64 };
#define SPACING 0.25 /* seconds between trials, at the least */
#define GAIN 0.9     /* the threads are kept when their mean step is below this times the mean alone */
#define SLOW 1.5     /* a step with the threads slower than this times the mean alone is a strike */

static void set_threads(int n)
{
#ifdef _OPENMP
    omp_set_num_threads(n);
#else
    (void)n;
#endif
}

void lcp_team_init(lcp_team *t, int threads)
{
    *t = (lcp_team){.max = threads > 1 ? threads : 1, .cur = threads > 1 ? threads : 1, .backoff = 1};
}

int lcp_team_begin(lcp_team *t)
{
    if (t->max <= 1) return 1;
    if (t->trial < 0 && ((t->calls >= t->next && lcp_now() >= t->next_time) || t->strikes >= STRIKES)) {
        t->trial = 0; /* a new trial */
        t->sum[0] = t->sum[1] = 0.0;
        t->strikes = 0;
    }
    int was = t->cur;
    if (t->trial >= 0) t->cur = t->trial % 2 ? 1 : t->max; /* alternately: max, 1, max, 1, ... */
    if (t->cur != was || t->calls == 0) set_threads(t->cur);   /* the regions of this step */
    t->t0 = lcp_now();
    return t->cur;
}

void lcp_team_end(lcp_team *t)
{
    if (t->max <= 1) return;
    double now = lcp_now(), dt = now - t->t0;
    t->calls++;
    if (t->trial < 0) {
        if (t->cur > 1 && dt > SLOW * t->alone) t->strikes++;
        return;
    }
    t->sum[t->cur == 1 ? 0 : 1] += dt;
    if (++t->trial < 2 * TRIAL) return;
    /* the trial's verdict */
    t->alone = t->sum[0] / TRIAL;
    int keep = t->sum[1] < GAIN * t->sum[0];
    t->cur = keep ? t->max : 1;
    t->trial = -1;
    t->backoff = keep ? 1 : (t->backoff < MAXBACKOFF ? 2 * t->backoff : MAXBACKOFF);
    int wait = keep ? 1 : t->backoff;
    t->next = t->calls + (long)INTERVAL * wait;
    t->next_time = now + SPACING * wait;
    t->trials++;
    if (!keep) t->serial++;
    set_threads(t->cur);
}

void lcp_team_done(lcp_team *t)
{
    if (t->max > 1) set_threads(t->max);
}
