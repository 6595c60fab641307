/* src/solvers/solver.h: the solver contract and the registry.
 *
 * A solver is one file in src/solvers/ exporting one `const lcp_solver`,
 * plus one line in the table of src/solvers/registry.c; --list-solvers, the
 * help text and the checks of solver/problem fit all come from that table.
 *
 * solve() starts from x (the caller fills it: zeros or --warm-start), works
 * in place, and calls lcp_monitor_step() once before the first iteration
 * (iter 0) and once after every iteration; it stops when that returns
 * non-zero.  All of a solver's workspace is allocated before its loop.
 */
#ifndef LCPSOLVE_SOLVER_H
#define LCPSOLVE_SOLVER_H

#include "../core/problem.h"
#include "../io/trace.h"
#include "../core/verify.h"
#include "../precond/precond.h"
#include "../graph/graph.h"

/* The settings of a solve: what every solver reads, then one block a
 * solver (family) for the options only it reads.  Filled by the option
 * table (src/core/options.c); a solver never writes them. */
typedef struct lcp_settings_s {
    double tol;         /* stop when residual <= tol */
    int max_iter;       /* iterations (sweeps, pivots, Newton steps) */
    double time_limit;  /* seconds, <= 0 for none */
    double budget_cpu;  /* auto's budget of a run: seconds of the solving thread's CPU time (lcp_cpu_now), <= 0 for
                           none; a run past it ends with LCP_TIME_LIMIT and mon->budget_hit = LCP_CUT_BUDGET,
                           unless the observed rate says it ends within LCP_GO_ON times as much again (at most 4 budgets) */
    double switch_cpu;  /* auto's switch: the predicted CPU seconds of the next candidate, <= 0 for none: a step
                           predicted to take LCP_SWITCH_MARGIN times it is not started (lcp_monitor_afford); and
                           with switch_by_rate (a first-order solver) a run whose estimated time to the tolerance
                           (mon->eta_cpu, from the observed rate) passes that margin is cut (LCP_TIME_LIMIT,
                           mon->budget_hit = LCP_CUT_RATE) */
    int switch_by_rate;
    /* auto's probe (src/core/pipeline.c): after probe_iter iterations the run's rate (log of the best residual
     * an iteration) extrapolated to the tolerance at probe_sweep_s seconds an iteration must come within
     * probe_top / LCP_PROBE_MARGIN, else the run is cut (LCP_TIME_LIMIT, budget_hit = LCP_CUT_PROBE); where it
     * does, it may take LCP_PROBE_MARGIN times the iterations extrapolated (and probe_iter) more.  0: none */
    int probe_iter;
    double probe_sweep_s, probe_top;
    double omega;       /* relaxation; 0 = the solver's default */
    int omega_auto;     /* --omega auto: estimate the optimal omega */
    int threads;
    const lcp_precond_type *precond; /* -p NAME; NULL for none (src/precond/) */
    /* --order: the sweep order over contacts (rows, or 3-row blocks for the
     * friction kinds); NULL for natural.  With colour classes (ncolours > 0)
     * the sweeps run a class at a time on -j threads, the same bits for any
     * thread count.  Taken by the solvers with LCP_SOLVER_ORDER. */
    const lcp_order *order;
    double adaptive;     /* --adaptive FRAC: stop (status stalled) when a sweep improves the residual by
                          * less than FRAC of it; 0 for off (src/solvers/monitor.c) */
    double reward_alpha, reward_beta; /* the break-even stop of `sequence --tune`'s reward arms: stop (status
                          * stalled) when the next iteration, at the rate of the last quarter to half of them,
                          * would improve the best residual, weighted by beta, by less than alpha times an
                          * iteration's time (the reward -alpha time - beta residual would fall); 0: off */
    int linsolve;        /* --linsolve: the linear systems of ipm, newton-fb/min, lemke: LCP_LINSOLVE_* */
    int small_tried;     /* the small paths ran on this problem already and gave no answer (the pipeline's first
                          * stage, or its caller: lcps_solve, lcpsolve batch): neither the pipeline nor pivot
                          * runs them again (set by those, not an option) */

    /* the blocks of the solvers that read them */
    struct {
        const double *cover; /* --cover: the covering vector d (n), NULL for all ones */
    } lemke;
    struct {
        int mode;            /* --crash: LCP_CRASH_AUTO (default), LCP_CRASH_NONE, or LCP_CRASH_SOLVER (by) */
        const struct lcp_solver *by; /* --crash SOLVER: the solver whose answer guesses the start */
    } crash;                 /* lemke, pivot (src/solvers/crash.c) */
    struct {
        int local;           /* --local: the per-contact solver, LCP_LOCAL_* */
        double rho;          /* --rho: the step of --local projection; 0 = 1 / max diag of W_ii */
        int shuffle;         /* --shuffle: a new (seeded, reproducible) contact order each sweep */
    } nsgs;
    struct {
        double rho;          /* --rho: the starting penalty; 0 = the solver's default */
    } admm;
    struct {
        int cycle;           /* --cycle: 1 for V-cycles (default), 2 for W-cycles (-p mg, pmg) */
    } mg;
    struct {
        const struct lcp_solver *inner; /* --inner: the ccp solver of each outer step (default nsgs) */
    } fixed_point;
    /* Called by the monitor after each check of an iterate (iteration 0 is
     * the start; -1: polled during a long set-up, lcp_monitor_poll) with its metrics (NULL where the iterate is not checked:
     * Lemke's bases without a trace), the solver's extra trace columns
     * (names in columns, NULL-terminated, values in extra; either may be
     * NULL); a non-zero return stops the solve (status time_limit, the
     * best iterate kept): progress, cancellation, the binary's SIGINT.
     * Under --decompose it is called for each component's iterates, from
     * the thread solving it (several at once with -j > 1). */
    int (*on_iteration)(void *ctx, int iter, double time_s, const lcp_metrics *m, const char *const *columns,
                        const double *extra);
    void *on_iteration_ctx;
    const char *const *columns; /* the running solver's extra columns (set by the pipeline) */
    int on_iteration_rows; /* the callback wants a row of metrics an iteration (lcps_settings_on_iteration):
                            * solvers that only tick their iterations without one (pivot) check each */
} lcp_settings;

enum { LCP_LINSOLVE_AUTO = 0, LCP_LINSOLVE_DENSE = 1, LCP_LINSOLVE_SPARSE = 2, LCP_LINSOLVE_PCG = 3 /* ipm */ };
enum { LCP_CRASH_AUTO = 0, LCP_CRASH_NONE = 1, LCP_CRASH_SOLVER = 2 };
enum { LCP_LOCAL_AUTO = 0, LCP_LOCAL_PROJECTION = 1, LCP_LOCAL_NEWTON = 2, LCP_LOCAL_EXACT = 3 };

void lcp_settings_default(lcp_settings *s);

/* The break-even stop of a reward -alpha time - beta residual (settings.reward_alpha/beta; `sequence --tune`
 * replays it on a run's checks): two anchors (iteration, time, best residual), the later set each time the
 * iterations double; lcp_breakeven_step returns 1 at the first check (iteration 10 on) where the next
 * iteration's gain at the window's rate, beta x best x (1 - rho) with rho the best residual's factor an
 * iteration since the earlier anchor, is below an iteration's cost over the window, alpha x time / iterations. */
typedef struct {
    int ia, ib;
    double ta, tb, ra, rb;
} lcp_breakeven;
int lcp_breakeven_step(lcp_breakeven *b, int iter, double t, double best, double alpha, double beta);

/* Watches the iterates: residual, trace rows, limits, best iterate. */
typedef struct lcp_monitor_s {
    const lcp_problem *p;
    const lcp_settings *s;
    lcp_trace *trace;       /* NULL for none */
    double t0;              /* solve start (lcp_now) */
    double c0;              /* the same on the thread's CPU clock (lcp_cpu_now) */
    int budget_hit;         /* auto cut the run: LCP_CUT_BUDGET (past s->budget_cpu), LCP_CUT_RATE or LCP_CUT_STEP (s->switch_cpu) */
    /* the convergence rate (s->budget_cpu or s->switch_cpu set): two anchors (iteration, log of the best
     * residual), the later set each time the iterations double, the rate taken from the earlier to now */
    int rate_i1, rate_ia, rate_ib;
    double rate_la, rate_lb, c1; /* c1: the CPU time at the first read after the start (iteration rate_i1): the
                                    set-up before it is not an iteration's cost */
    double w0, wall_next;   /* the wall clock at the init; the wall time of the next CPU clock read (a system
                               call: read only once the wall time, its bound, could have reached a threshold) */
    lcp_breakeven breakeven; /* the break-even stop (s->reward_alpha) */
    int probe_i0, probe_cap; /* s->probe_iter: the first measured iteration; the iterations allowed (0: not yet) */
    double probe_l0, probe_more; /* the log of the best residual there; the seconds extrapolated at probe_iter */
    double eta_cpu;         /* the estimated CPU seconds still to the tolerance: NAN before an estimate,
                               INFINITY where the best residual has not moved over the window */
    double *w;              /* n: workspace, A x + b of the last check */
    double *best_x;         /* n: the iterate with the smallest residual */
    lcp_metrics last, best;
    int iter;               /* last iteration seen */
    lcp_status status;      /* set when the monitor stops the solve */
    double first_residual;
    char message[256];      /* why the monitor stopped with status error (divergence, NaN), else "" */
    double start_error;     /* ccp/fc3d: the natural-map error of r = 0, unnormalised (see monitor.c) */
    double bscale;          /* lcp_verify_bscale at init: b must not change while the monitor is in use */
    int interrupted;        /* the iteration callback asked to stop */
    /* the distributed solvers (src/mpi): a stop asked by the callback is
     * only noted (stop_asked) for the caller to reduce over the processes
     * and pass back as `interrupted`, so that every process stops alike */
    int collective, stop_asked;
    int stop_pending;       /* the callback asked to stop during the set-up (lcp_monitor_poll) */
    struct lcp_monitor_s *outer; /* the monitor this one's solve runs inside (lcp_monitor_poll), or NULL */
} lcp_monitor;

int lcp_monitor_init(lcp_monitor *mon, const lcp_problem *p, const lcp_settings *s,
                     lcp_trace *trace);
/* Under auto (s->budget_cpu, s->switch_cpu): 1 where a step predicted to take cpu_s seconds of CPU (a
 * factorisation: its flops / LCP_FLOP_RATE) would end past the budget, or alone take LCP_SWITCH_MARGIN
 * times the next candidate's predicted time: the run is cut there (status time_limit, budget_hit) and
 * the solver returns at once; 0 otherwise, and always without auto or a prediction (NAN). */
int lcp_monitor_afford(lcp_monitor *mon, double cpu_s);
/* The time since the monitor's init for lcp_monitor_record's t, read only
 * where something reads it (a trace, the callback, a time limit), else 0. */
double lcp_monitor_time(const lcp_monitor *mon);
/* The CPU time of the solving thread since the monitor's init (a system call: auto's budgets only). */
double lcp_monitor_cpu(lcp_monitor *mon);
#define LCP_FLOP_RATE 1e10 /* flops a second: optimistic, so that only a step far past the budget is refused */
void lcp_monitor_free(lcp_monitor *mon);
/* Checks x after iteration iter (0 = the start).  extra: the solver's trace
 * columns or NULL.  Returns non-zero when the solve must stop: converged,
 * iteration or time limit, or a NaN/divergence (status error). */
int lcp_monitor_step(lcp_monitor *mon, int iter, const double *x, const double *extra);

/* The decisions of lcp_monitor_step on metrics computed elsewhere (the
 * distributed solvers of src/mpi, which reduce them over the processes
 * with t and interrupted, so every process decides alike); x is copied as
 * the best iterate when it is (the caller completes it). */
int lcp_monitor_record(lcp_monitor *mon, int iter, double t, int interrupted, const lcp_metrics *m,
                       const double *x, const double *extra);
/* The same for a caller that gives its buffer *x (n doubles from lcp_alloc,
 * not read again before it is written): where x becomes the best iterate,
 * the buffers are swapped instead of copied (*x is then the previous best
 * buffer, its content stale; the iterate judged is in mon->best_x), a pass
 * over x less each improving iteration (the fused pgs/psor sweeps). */
int lcp_monitor_record_give(lcp_monitor *mon, int iter, double t, int interrupted, const lcp_metrics *m, double **x,
                            const double *extra);
/* For the long set-ups inside a solver (the Lanczos estimates of
 * src/la/spectral.c): asks the settings' callback of the solve running on
 * this thread (its monitor, from lcp_monitor_init to lcp_monitor_free)
 * with iteration -1 and no metrics; 1 when it asked to stop, which the
 * monitor then does at its next check (status time_limit, interrupted);
 * 0 outside a solve. */
int lcp_monitor_poll(void);
/* The settings of a solve run inside another (a crash start's guess,
 * fixed-point's inner steps), copied from outer: their iterates reach the
 * outer callback as polls (iteration -1, no metrics), not as rows of the
 * outer solve; a stop asked stops the inner solve and, at its next check,
 * the outer one. */
void lcp_settings_inner(lcp_settings *inner, const lcp_settings *outer);

/* For iterates that cannot be a solution (Lemke's bases with z0 > 0): with a
 * trace open the same as lcp_monitor_step (a row per iteration), otherwise
 * only the iteration and time limits and interrupts are checked, without
 * the O(nnz) residual. */
int lcp_monitor_tick(lcp_monitor *mon, int iter, const double *x, const double *extra);

typedef struct {
    int iterations;
    /* The solver's own verdict, where it has one: LCP_NO_SOLUTION (with the
     * evidence in message, e.g. Lemke's ray termination) or LCP_ERROR (a
     * breakdown: singular system, non-monotone problem...).  Left at
     * LCP_MAX_ITER, the monitor's status (solved, limits) decides. */
    lcp_status status;
    char message[256];  /* why the solver stopped when it was not the monitor */
    double omega;       /* the relaxation used (psor) */
    /* --decompose (src/graph/decompose.c): the sum over the components of
     * their rows, and of their nonzeros of A, times their iterations (the
     * work of the solve, where iterations is the most of any one); 0 when
     * the problem was solved whole */
    double rows_swept, nnz_swept;
} lcp_info;

typedef struct lcp_solver {
    const char *name;
    const char *summary;
    unsigned kinds;              /* LCP_KIND_* it accepts */
    const char *const *columns;  /* extra trace columns, NULL-terminated, or NULL */
    /* Returns 0 when it ran (outcome in info->status and the monitor),
     * non-zero with err set when it could not run at all. */
    int (*solve)(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon,
                 lcp_info *info, lcp_err *err);
    /* the preconditioners it takes besides none, NULL-terminated names of
     * src/precond/registry.c, or NULL for none only */
    const char *const *preconds;
    unsigned flags; /* LCP_SOLVER_* */
    int regime_n;   /* the unknowns beyond which its method changes (pivot: past its small path, LCP_SMALL_N), 0 for
                     * none: auto predicts its time from the measured problems on the problem's side of it only */
} lcp_solver;

enum {
    LCP_SOLVER_ORDER = 1,    /* sweeps follow s->order (--order) */
    LCP_SOLVER_FACTOR = 2,   /* sparse factorisations follow --order natural|amd|nd (src/la/sparse_factor.h) */
    LCP_SOLVER_DIST = 4,     /* distributed over the MPI processes (src/mpi, make MPI=1): collective calls */
    LCP_SOLVER_MONOTONE = 8, /* needs A positive semidefinite: lcp_solver_check refuses a negative
                                diagonal entry (which proves it is not), naming the row */
    LCP_SOLVER_LINEAR = 16,  /* a first-order method: its residual falls at a (roughly) linear rate, from any start;
                                auto extrapolates its time to the tolerance (s->switch_cpu) and warm-starts it */
};
enum { LCP_CUT_BUDGET = 1, LCP_CUT_RATE = 2, LCP_CUT_STEP = 3, LCP_CUT_NEXT = 4, LCP_CUT_PROBE = 5 };
                                /* lcp_monitor.budget_hit: past the budget; the rate; a step predicted past the
                                   next's time; a run without a rate past it; auto's probe (s->probe_iter) */
#define LCP_PROBE_MARGIN 2.0 /* auto's probe goes on where its extrapolated time is this many times below the pick's */
#define LCP_SWITCH_MARGIN 3.0 /* a run is cut when its estimated time passes this many times the next's */
#define LCP_GO_ON 2.0 /* a run past its budget (or, without a rate, past LCP_SWITCH_MARGIN times the next's
                         prediction) goes on while its residual's rate says it ends within this many times the
                         time it has run: the rate, a straight line through the log of the best residual, is
                         pessimistic for the methods these cuts watch most (ipm, Newton: superlinear at the end;
                         ipm on a 16,447-contact granular pile: 3.4 s extrapolated at 2.4 s, 1.6 s needed) */
#define LCP_SWITCH_FLOOR 0.02 /* seconds of CPU: no cut by the rate or the next's time before it (the time of a
                                 small run varies from run to run by about a millisecond: the same problem must
                                 take the same runs whatever the load) */

/* Inverse diagonal of A (n doubles, caller frees); LCP_INPUT_ERROR naming
 * the row when a diagonal entry is not positive.  (src/solvers/pgs.c) */
int lcp_inverse_diagonal(const lcp_problem *p, const char *solver, double **dinv, lcp_err *err);

/* The row update of the pgs family (pgs, psor, sgs; pmg's smoother,
 * mpi-pgs), set up once a solve (src/solvers/pgs.c, whose header gives the
 * update): 1 / A_ii and omega, and on an lcp each row's b_i, c_i = omega
 * / A_ii and g_i = c_i A(i, i-1) in one array.  lcp_gs_init: -1 when
 * there is no memory. */
typedef struct {
    double b, c, g;
} lcp_gs_row;
typedef struct {
    const double *dinv;
    double omega;
    lcp_gs_row *row; /* lcp only; NULL for a blcp */
} lcp_gs;
int lcp_gs_init(lcp_gs *gs, const lcp_problem *p, const double *dinv, double omega);
void lcp_gs_free(lcp_gs *gs);

/* The team of a solver's parallel sweeps (src/solvers/team.c): the threads
 * asked for (-j), or one where the sweeps time faster alone (a busy
 * machine), re-measured as the solve goes on; the choice never changes the
 * bits.  Around each step of parallel regions (a sweep and its check):
 *   lcp_team_begin(&team) (sets the OpenMP thread count of the regions that
 *   follow), the step, lcp_team_end(&team); lcp_team_done(&team) after the
 *   last (the count asked for again). */
typedef struct {
    int max, cur;        /* the threads asked for; those of the current step */
    int trial;           /* the step's index within a trial, -1 between trials */
    int strikes, backoff; /* slow steps with the threads; the wait before the next trial, in intervals */
    long calls, next;    /* steps run; the step at which the next trial may start */
    double t0, next_time; /* the step's start; the next trial's earliest time */
    double sum[2], alone; /* a trial's time alone and with the threads; its mean step alone */
    int trials, serial;  /* trials run, and how many chose one thread */
} lcp_team;
void lcp_team_init(lcp_team *t, int threads);
int lcp_team_begin(lcp_team *t);
void lcp_team_end(lcp_team *t);
void lcp_team_done(lcp_team *t);

/* One projected Gauss-Seidel sweep over rows first..last (step +1 or -1);
 * returns the largest |change|.  (src/solvers/pgs.c) */
double lcp_pgs_sweep(const lcp_problem *p, const lcp_gs *gs, double *x, int first, int last, int step);

/* nsgs's sweeps (src/solvers/nsgs.c), for ccp/fc3d: extra[0] gets the
 * largest contact change of each sweep for the trace. */
/* nsgs's update of one contact with the others fixed (the local solver of
 * --local, the relaxation of --omega, the step of --rho), for solvers that
 * sweep in their own way (src/mpi): set up once, then lcp_nsgs_update
 * writes r_i and returns |dr_i|.  (src/solvers/nsgs.c) */
typedef struct lcp_nsgs lcp_nsgs;
int lcp_nsgs_setup(const lcp_problem *p, const lcp_settings *s, lcp_nsgs **out, lcp_err *err);
double lcp_nsgs_update(const lcp_nsgs *S, int contact, double *x);
void lcp_nsgs_free(lcp_nsgs *S);

int lcp_nsgs_run(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                 lcp_err *err, double *extra);

/* The crash start's guess (src/solvers/crash.c; lemke and pivot).
 * lcp_crash_guess: solver `by` run on its own monitor (no trace) from z as
 * given, 200 iterations at most, to max(tol, 1e-8), within what is left of
 * --time-limit (t0: the solve's start); z = its best iterate.  Returns 0,
 * or -1 when it does not take the problem, refused it or gave nothing
 * finite, or ended on its own verdict (error, no_solution) -- z then holds
 * garbage.  *its: its iterations.
 * lcp_crash_start_guess: the guess by s->crash into guess (n): -1 for
 * --crash none; --crash SOLVER: that solver's answer from x; auto: x when
 * it is not 0 (the warm start), else the answer of the first solver of
 * `by` (NULL-terminated names, or NULL for none) that gives one.  Returns
 * 0 with `how` naming it ("ipm's answer (23 iterations)"), else -1 (how ""),
 * also when --time-limit has passed by then (no time for a crash basis). */
int lcp_crash_guess(const lcp_problem *p, const lcp_settings *s, const struct lcp_solver *by, double *z, double t0,
                    int *its);
/* The same to tolerance tol in max_iter iterations at most (lcp_crash_guess: max(--tol, 1e-8), 200), and
 * the best iterate's residual in *residual (INFINITY where -1; residual may be NULL): nsn's hybrid start. */
int lcp_guess_by(const lcp_problem *p, const lcp_settings *s, const struct lcp_solver *by, double *z, double t0,
                 double tol, int max_iter, int *its, double *residual);
int lcp_crash_start_guess(const lcp_problem *p, const lcp_settings *s, const double *x, const char *const *by,
                          double *guess, double t0, char *how, size_t howlen);
/* Purification of an lcp guess z >= 0 for a symmetric positive semidefinite
 * A (src/solvers/crash.c): isz (n flags) marks an independent set Z of
 * loaded rows (A(Z, Z) positive definite), dep[0..ndep) the other loaded
 * ones; their loads are pushed onto Z, exchanging rows, until z is
 * supported on the new Z (isz on return): a vertex of the solution set.
 * 0; -1 (isz unchanged) when A(Z, Z) is not positive definite to working
 * precision, out of memory, or past deadline (lcp_now() seconds, 0: none).
 * *npiv: the exchanges. */
int lcp_crash_purify(const lcp_problem *p, const double *z, char *isz, const int *dep, int ndep, int *npiv,
                     double deadline);
/* A row and its sort key, in ascending order by key, then row (qsort):
 * the crash's orders by load (crash.c, lemke, pivot: key = -load). */
typedef struct {
    double key;
    int j;
} lcp_crash_key;
int lcp_crash_key_cmp(const void *a, const void *b);

const lcp_solver *lcp_solver_find(const char *name);
const lcp_solver *const *lcp_solver_list(void); /* NULL-terminated */
/* 0 if solver fits problem, else LCP_INPUT_ERROR with a one-line reason. */
int lcp_solver_check(const lcp_solver *sv, const lcp_problem *p, lcp_err *err);
/* The same where the caller knows whether every diagonal entry of A is > 0 (diag_pos 1: lcp_features'
 * diag_pos, found in its pass over A): the monotone solvers' scan for a negative one is then skipped (auto
 * checks each of its candidates: ten scans of the diagonal a choice) */
int lcp_solver_check_diag(const lcp_solver *sv, const lcp_problem *p, int diag_pos, lcp_err *err);
/* 0 if solver takes preconditioner `name` ("none" always fits), else
 * LCP_INPUT_ERROR with the ones it takes. */
int lcp_solver_check_precond(const lcp_solver *sv, const char *name, lcp_err *err);
/* "none, diag, ..." (static storage). */
const char *lcp_solver_precond_names(const lcp_solver *sv);

/* The complete decision of an lcp a pivoting method could not decide
 * (src/solvers/enumerate.c): by the connected components of A, each of at
 * most LCP_ENUM_MAX rows by implicit enumeration of its complementary bases
 * (branching, cut off by phase 1 of the simplex method), larger
 * ones by Lemke alone.  Sets info->status LCP_NO_SOLUTION with the rows as
 * evidence, or puts the whole answer in x for mon to verify (info->status
 * back to LCP_MAX_ITER), or leaves the verdict with what was tried added to
 * info->message.  Non-zero only when it could not run (memory). */
#define LCP_ENUM_MAX 25
int lcp_decide_by_components(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon,
                             lcp_info *info, lcp_err *err);

#endif
