/* src/core/pipeline.h: the one solve pipeline (src/core/pipeline.c).
 *
 * Every front end -- the command line, `sequence`, `batch`, `bench`'s
 * children, MPI, and the public API of include/lcpsolve.h -- solves a
 * problem through lcp_pipeline_solve(), which does, once and in this order:
 *
 *   the small path (an lcp or blcp of up to 128 unknowns, solver pivot or
 *   auto: src/solvers/pivot_small.h; its answer verified, else -- auto on
 *   an lcp -- lemke, else the rest)
 *   -> validate (the problem as given, its warm start and covering vector)
 *   -> cone conversion (--cone pyramid:K)
 *   -> regularisation (--reg EPS, on a copy: the problem given is not changed)
 *   -> the auto choice (--solver auto) and the solver/problem/preconditioner checks
 *   -> the memory check (--max-memory) and the process check (MPI)
 *   -> decomposition into connected components (--decompose)
 *   -> the solve, with auto's fallbacks
 *   -> the best iterate (short of a solution, the lowest residual seen)
 *   -> verification (src/core/verify.c: the residual reported is recomputed)
 *   -> the map back to the problem given (--cone, --reg).
 *
 * The first stage is also a function of its own (lcp_pipeline_small):
 * lcps_solve and `lcpsolve batch` call it first and fill their answer from
 * it, entering the rest (with lcp_solve_opts.s.small_tried) only where it
 * gives none -- the same code and the same bits, without the general run's
 * set-up on the problems that RL environments solve millions of times.
 *
 * It never prints and never exits; what a front end prints comes back in
 * lcp_solve_out.  The settings of a solve are an lcp_solve_opts, filled by
 * the option table (src/core/options.h) from the command line, a --config
 * file, a plan, or lcps_settings_set().
 */
#ifndef LCPSOLVE_PIPELINE_H
#define LCPSOLVE_PIPELINE_H

#include "auto.h"
#include "cone.h"
#include "../solvers/solver.h"
#include "../la/symbolic_store.h"

/* The settings of one solve (every long option that is not about files of
 * the command line: src/core/options.c).  Strings are borrowed: the owner
 * (the command line's argv, a settings handle) keeps them alive. */
typedef struct lcp_solve_opts {
    lcp_settings s;            /* tol, max-iter, time-limit, threads, omega, solver options, callback */
    const char *solver;        /* "auto" or a solver of the registry */
    const char *precond;       /* "none" or a preconditioner of the registry */
    double warm_factor;        /* the warm start is scaled by warm_factor * dt_ratio */
    double dt_ratio;
    int decompose;             /* -1 auto, 0 off, 1 on */
    lcp_order_method order;    /* --order */
    int order_named;           /* --order was given (natural too) */
    double reg;                /* --reg EPS, 0 for none */
    int cone_k;                /* --cone pyramid:K, 0 for none */
    const char *cover;         /* --cover FILE (lemke), NULL for all ones */
    const char *trace;         /* --trace FILE.csv, NULL for none */
    const char *auto_model;    /* --auto-model FILE, NULL: the built-in model */
    const lcp_auto_choice *auto_given; /* auto: this choice (another problem's of the same pattern: a batch's
                                        * environments, one scene perturbed) instead of one for the problem;
                                        * where it does not solve, auto chooses for the problem */
    lcp_auto_choice *auto_made; /* auto: where the solve keeps its choice (made, or taken), for the caller */
    const char *auto_given_from; /* where auto_given comes from, in auto's reason ("the choice made for ..."); NULL:
                                  * a batch's first problem of the pattern */
    double *x_into, *w_into;   /* NULL, or the caller's arrays (n doubles; w_into may be NULL) where the small
                                * paths write their answer instead of allocating it: out->x and out->w are then
                                * NULL (the answer is there); the other paths allocate out->x as always */
} lcp_solve_opts;

/* The defaults of docs/contract.md (solver auto, precond none, tol 1e-8, ...). */
void lcp_solve_opts_default(lcp_solve_opts *o);

/* What a solve gave.  x and w are of the problem given (its n), owned. */
typedef struct {
    lcp_status status;         /* solved, max_iter, time_limit, stalled, no_solution, error */
    int iterations;            /* the last run's (the most of any component when decomposed) */
    int components;            /* solved apart (1: whole) */
    int threads_used;          /* the OpenMP threads the solve ran on: -j capped by the free CPUs (lcp_threads_free) */
    double rows_swept, nnz_swept; /* components > 1: the work (lcp_info) */
    double time_s;             /* the solve, from the choice to the verified answer */
    double omega;              /* the relaxation used (psor), 0 if none */
    lcp_metrics m;             /* verified, of the problem solved (the cone form where --cone) */
    const lcp_solver *solver;  /* the solver of the answer (auto: after its fallbacks) */
    const char *precond;       /* "none" or its name (static storage) */
    int interrupted;           /* the iteration callback asked to stop (status time_limit) */
    double auto_time_s;        /* the time spent choosing */
    int auto_shared;           /* the choice was auto_given */
    double *x, *w;             /* the answer and w = A x + b (u), of the problem given */
    int xw_block;              /* w lies in x's allocation (x + n: a small path's): freed with x */
    /* the problem solved, when not the one given (--cone): its facts */
    lcp_kind solved_kind;
    int solved_n, solved_nc;
    long solved_nnz;
    double reg;                /* --reg: A + reg I was solved */
    lcp_cone_form cone_form;   /* LCP_CONE_NONE unless --cone */
    double cone_error;         /* --cone: the residual of the mapped-back r on the problem given */
    const char *reason_literal; /* auto's reason and choice where they are a constant text in static
                                 * storage (the small paths'), not copied into the texts below (read them
                                 * by lcp_solve_out_reason and lcp_solve_out_choice), else NULL */
    /* the texts last: a solve clears what comes before message and empties these */
    char message[512];         /* why it stopped where that is not plain ("" for none) */
    char choice[1024];         /* auto: the pick and why, as chosen ("" unless auto) */
    char auto_reason[1024];    /* auto: the pick, then what its fallbacks did ("" unless auto) */
    char auto_predicted[600];  /* auto: "CONFIG=SECONDS,..." the ranked configurations' predicted times */
} lcp_solve_out;

/* The update path (src/core/cache.c): the pattern-only set-up of a solve
 * (the sweep orders and colour classes of --order, the symbolic analyses of
 * the sparse factorisations), kept for later solves of problems with the
 * same pattern.  One cache may serve several threads.
 * lcp_pipeline_cache_order: the order of `method` for p's pattern, built
 * or found; *handle must be released (lcp_pipeline_cache_release) when the
 * solve is done with it; NULL with err set when it could not be built. */
typedef struct lcp_pipeline_cache lcp_pipeline_cache;
lcp_pipeline_cache *lcp_pipeline_cache_new(void);
void lcp_pipeline_cache_free(lcp_pipeline_cache *c);
const lcp_order *lcp_pipeline_cache_order(lcp_pipeline_cache *c, const lcp_problem *p, lcp_order_method method,
                                          void **handle, lcp_err *err);
void lcp_pipeline_cache_release(lcp_pipeline_cache *c, void *handle);
void lcp_pipeline_cache_stats(lcp_pipeline_cache *c, long *builds, long *hits);
/* its store of symbolic analyses (NULL for c NULL): current in the solves */
lcp_symbolic_store *lcp_pipeline_cache_store(lcp_pipeline_cache *c);

/* Solves p (lcp_problem_finish()ed, not changed) with the settings o from
 * x0 (n0 entries, scaled by warm_factor * dt_ratio; NULL: zeros; x0_source
 * names it in messages).  Returns 0 when a solve ran (its outcome in
 * out->status), or a non-zero lcp_status (input error, out of memory) with
 * a one-line reason in err; out is filled as far as it got either way and
 * must be released by lcp_solve_out_free(). */
int lcp_pipeline_solve(const lcp_problem *p, const lcp_solve_opts *o, const double *x0, int n0,
                       const char *x0_source, lcp_solve_out *out, lcp_err *err);
/* The same with a cache (NULL: none) for the pattern-only set-up. */
int lcp_pipeline_solve_cached(const lcp_problem *p, const lcp_solve_opts *o, const double *x0, int n0,
                              const char *x0_source, lcp_pipeline_cache *cache, lcp_solve_out *out, lcp_err *err);
void lcp_solve_out_free(lcp_solve_out *out);
/* auto's reason (the pick, then what its fallbacks did) and its choice as chosen: "" unless auto */
const char *lcp_solve_out_reason(const lcp_solve_out *out);
const char *lcp_solve_out_choice(const lcp_solve_out *out);
/* Whether a solve of p with o from x0 (n0 entries; NULL) begins with pivot's
 * small path (src/solvers/pivot_small.h): an lcp or blcp it takes, the
 * solver pivot or auto, and no setting that asks for the general run. */
int lcp_pipeline_small_first(const lcp_problem *p, const lcp_solve_opts *o, const double *x0, int n0);

/* The answer of the small paths (before any set-up: pivot's small path,
 * lemke's tiny one), verified. */
typedef struct {
    const lcp_solver *solver;  /* pivot or lemke */
    const char *reason;        /* auto's reason (static storage); NULL where the solver was named */
    double *x, *w;             /* x_into and w_into where given (w NULL where w_into is), else one new block:
                                * w = x + n, freed with x */
    int steps;                 /* block steps or pivots */
    lcp_metrics m;             /* verified */
    double time_s;             /* from the path's start (t0) to the verified answer */
    double t_end;              /* the clock then (lcp_now_fast) */
} lcp_small_answer;

/* The pipeline's first stage alone, for a caller that fills its own answer
 * (lcps_solve, lcpsolve batch) without the general run's set-up: 1 where
 * the small paths solved p (a), 0 where they do not take it
 * (lcp_pipeline_small_first, or a --cover file the general run refuses),
 * -1 where they took it and gave no verified answer (nothing kept): the
 * caller then runs the pipeline with o->s.small_tried set, which goes on from
 * there.  t0: the start of the solve's time (lcp_now_fast's clock: a
 * caller that has just read it, as a batch does between its problems), or
 * -1 to read it here. */
int lcp_pipeline_small(const lcp_problem *p, const lcp_solve_opts *o, const double *x0, int n0, double *x_into,
                       double *w_into, double t0, lcp_small_answer *a);

#endif
