/* lcpsolve.h: the C library of lcpsolve (liblcpsolve; pkg-config lcpsolve).
 *
 * Contact problems of physics engines, solved and verified:
 *
 *   lcp  : w = A x + b, x >= 0, w >= 0, x'w = 0
 *   blcp : x = mid(lo, x - w, hi); findex[i] = j >= 0 replaces the bounds of
 *          row i by -mu[i] x_j, +mu[i] x_j (ODE/Bullet-style friction)
 *   ccp  : u = A r + b, r_i in K_mu_i, u_i in K*_mu_i, r_i'u_i = 0
 *          (3 rows a contact: normal, tangent 1, tangent 2)
 *   fc3d : the same data, 3D Coulomb friction (De Saxce: u_in + mu_i |u_iT|)
 *
 * Conventions (every call):
 *  - A function that can fail returns 0 on success, otherwise the exit code
 *    of the lcpsolve command for that outcome (2 input or usage error, 5
 *    out of memory or internal error), and writes a one-line reason into
 *    err (errlen bytes, always NUL-terminated; err may be NULL).  Messages
 *    name the file and line where a problem was read from a file.
 *  - The library never prints and never exits.  It keeps no global state:
 *    handles may be used from several threads at once as long as no handle
 *    is changed by one thread while another uses it; two solves in two
 *    threads give the same bits as one after the other.  (Reading HDF5
 *    files takes a process-wide lock: libhdf5 is not thread-safe.)
 *  - Handles are opaque; *_free(NULL) does nothing.  Arrays passed in are
 *    copied: the caller keeps ownership of its memory.
 *  - Indices are 0-based ints; a CSR matrix is rowptr[n + 1], col[nnz],
 *    val[nnz] with nnz = rowptr[n].
 *
 * Example (examples/solve.c):
 *
 *   lcps_problem *p = NULL;
 *   lcps_settings *s = lcps_settings_new();
 *   lcps_result r;
 *   char err[256];
 *   if (lcps_problem_csr("lcp", n, rowptr, col, val, b, &p, err, sizeof err) ||
 *       lcps_settings_set(s, "solver", "pgs", err, sizeof err)) { ... }
 *   int rc = lcps_solve(p, s, NULL, &r, err, sizeof err);
 *   ... r.x[0 .. r.n) ...
 *   lcps_result_free(&r);
 *   lcps_settings_free(s);
 *   lcps_problem_free(p);
 *
 * The reference of every call is man 3 lcpsolve.
 */
#ifndef LCPSOLVE_H
#define LCPSOLVE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LCPS_VERSION "0.1.0"
#define LCPS_VERSION_MAJOR 0
#define LCPS_VERSION_MINOR 1
#define LCPS_VERSION_PATCH 0

/* The version of the library linked (may differ from LCPS_VERSION of the
 * header compiled against). */
const char *lcps_version(void);

/* ---- outcomes --------------------------------------------------------- */

/* How a solve ended.  lcps_status_exit_code() gives the command's exit code. */
typedef enum {
    LCPS_SOLVED = 0,             /* residual <= tol                          exit 0 */
    LCPS_MAX_ITER = 1,           /* iteration limit, best iterate returned   exit 1 */
    LCPS_TIME_LIMIT = 2,         /* time limit or stopped by the callback    exit 1 */
    LCPS_INPUT_ERROR = 3,        /* usage or input error                     exit 2 */
    LCPS_NO_SOLUTION = 4,        /* no solution, with the evidence           exit 3 */
    LCPS_REFERENCE_MISMATCH = 5, /* (command line --reference only)          exit 4 */
    LCPS_ERROR = 6,              /* numerical breakdown, out of memory       exit 5 */
    LCPS_STALLED = 7             /* adaptive: the residual stopped improving exit 1 */
} lcps_status;

/* "solved", "max_iter", "time_limit", "input_error", "no_solution",
 * "reference_mismatch", "error", "stalled" ("unknown" otherwise). */
const char *lcps_status_name(int status);
int lcps_status_exit_code(int status);

/* ---- problems --------------------------------------------------------- */

typedef struct lcps_problem lcps_problem;

/* A problem from A (n x n, CSR) and b (n), of kind "lcp", "blcp", "ccp" or
 * "fc3d".  Friction kinds need mu (lcps_problem_set_vector), blcp its
 * bounds (lo, hi; default 0 and +inf) and optionally findex.  The problem
 * is checked as a whole (sizes, finite values, mu >= 0, lo <= hi, ...)
 * when it is solved or written. */
int lcps_problem_csr(const char *kind, int n, const int *rowptr, const int *col, const double *val,
                     const double *b, lcps_problem **out, char *err, size_t errlen);

/* A sparse matrix in CSR form (rows x cols), for lcps_problem_factored. */
typedef struct {
    int rows, cols;
    const int *rowptr;   /* rows + 1 */
    const int *col;      /* rowptr[rows] */
    const double *val;   /* rowptr[rows] */
} lcps_csr;

/* The factored form: M (nb x nb, symmetric positive definite, the mass
 * matrix), J (n x nb, the contact Jacobian), v (nb, free velocity), e (n,
 * or NULL): A = J M^-1 J' and b = J v + e, formed through CHOLMOD when the
 * problem is first checked.  Sequential impulses (solver "si") works on
 * M, J and v themselves. */
int lcps_problem_factored(const char *kind, const lcps_csr *M, const lcps_csr *J, const double *v,
                          const double *e, lcps_problem **out, char *err, size_t errlen);

/* A problem read from a file or folder, as the lcpsolve command reads it:
 * a folder of Matrix Market files, a .json problem or manifest, a Siconos
 * .dat or an FCLIB .hdf5 file.  Errors name the file and the line. */
int lcps_problem_read(const char *path, lcps_problem **out, char *err, size_t errlen);

/* A scene generated from rigid-body geometry or a family of LCPs, as
 * `lcpsolve generate SCENE` makes it (the same bytes): scene "column",
 * "pyramid", "granular", "tower", "mass-ratio", "redundant", "chain",
 * "random-spd" or "murty"; options NULL-terminated pairs of the command's
 * long option names and values ({"base", "10", "mu", "0.5", NULL}; a flag
 * takes "true" or "false"), with the command's checks and messages.  The
 * rigid-body scenes carry their factored form too (M, J, v). */
int lcps_problem_generate(const char *scene, const char *const *options, lcps_problem **out, char *err,
                          size_t errlen);

/* Sets the vector "mu" (friction: one a contact; blcp with findex: one a
 * row), "lo", "hi" (blcp bounds, n; +-1e300 and beyond mean infinite),
 * "e" or "b" (n), or, of a factored problem, "v" (nb: b = J v + e is formed
 * again at the next solve, A = J M^-1 J' is kept), copying len values. */
int lcps_problem_set_vector(lcps_problem *p, const char *name, const double *v, int len, char *err,
                            size_t errlen);

/* The update path, for a sequence of problems with one pattern (a
 * time-stepping loop whose contacts persist): new values of A, in the
 * order of the val given to lcps_problem_csr (rowptr[n] values, duplicates
 * summed again; for a problem read from a file, its rows in order, columns
 * ascending), and/or of b (n values); NULL keeps either.  The pattern stays,
 * and with it the set-up the solves keep for it: the sweep orders and colour
 * classes of the setting "order" and the symbolic analyses of the sparse
 * factorisations are made once a pattern, not once a solve (same bits).
 * With the solver auto, the solves after an update of A take the choice of
 * the handle's last solve that chose (not one for the new values; where it
 * does not solve, auto chooses afresh and keeps that choice; r.auto_reason
 * says which).  A factored problem changes through "v" and "e"
 * (lcps_problem_set_vector), keeping its A. */
int lcps_problem_update(lcps_problem *p, const double *val, const double *b, char *err, size_t errlen);

/* blcp: findex[i] = j (0-based) or -1, n entries. */
int lcps_problem_set_findex(lcps_problem *p, const int *findex, int len, char *err, size_t errlen);

/* Writes the problem as a folder of Matrix Market files (path is created;
 * A.mtx b.mtx and mu, lo, hi, findex where present, and problem.json with
 * its kind), which lcps_problem_read and the lcpsolve command read back. */
int lcps_problem_write(const lcps_problem *p, const char *path, char *err, size_t errlen);

/* The problem's unknowns (rows of A) and kind ("lcp", ...). */
int lcps_problem_n(const lcps_problem *p);
const char *lcps_problem_kind(const lcps_problem *p);

void lcps_problem_free(lcps_problem *p);

/* ---- settings --------------------------------------------------------- */

typedef struct lcps_settings lcps_settings;

/* The defaults of the command line: solver auto, precond none, tol 1e-8,
 * max-iter 100000, one thread.  NULL when out of memory.  The first call
 * in a process also starts the calibration of the clock that times the
 * solves (the time-stamp counter against the wall clock, over 2 ms: each
 * solve until then reads the wall clock as well). */
lcps_settings *lcps_settings_new(void);
lcps_settings *lcps_settings_copy(const lcps_settings *s);
void lcps_settings_free(lcps_settings *s);

/* Sets an option by the long name of the command line ("solver", "precond",
 * "tol", "max-iter", "time-limit", "threads", "omega", "order", "decompose",
 * "reg", "warm-factor", "dt-ratio", "cone", "trace", "cover", "linsolve",
 * "cycle", "local", "rho", "inner", "crash", "adaptive", "shuffle", ...;
 * lcpsolve --help lists them all), with the same checks and messages.
 * value is copied.  A flag ("shuffle") takes "true" or "false".  Options of
 * the command line's own files and printing ("output", "json",
 * "reference", ...) and of the whole process ("max-memory") are refused. */
int lcps_settings_set(lcps_settings *s, const char *name, const char *value, char *err, size_t errlen);

/* One row of the convergence trace (the columns of --trace). */
typedef struct {
    int iteration;               /* 0: the start; -1: a poll during a long set-up (no metrics) */
    double time_s;               /* since the start of the solver's run */
    double residual;             /* NaN where the iterate is not checked (Lemke's bases) */
    double complementarity, feasibility;
    int nextra;                  /* the solver's own columns */
    const char *const *extra_names;
    const double *extra;         /* nextra values, or NULL */
} lcps_iteration;

/* fn is called after each check of an iterate; a non-zero return stops the
 * solve (status time_limit, message "interrupted", best iterate kept).  It is
 * also polled during the long set-ups of some solvers (the spectral
 * estimates of jacobi, psor's omega, mprgp) with iteration -1 and NaN
 * metrics; a non-zero return there stops the solve at its start.  When
 * a problem is solved one connected component at a time (setting
 * "decompose"), the rows are those of the components, and with "threads" >
 * 1 calls may come from several threads at once.  fn NULL: none. */
int lcps_settings_on_iteration(lcps_settings *s, int (*fn)(void *ctx, const lcps_iteration *row), void *ctx);

/* ---- solving ---------------------------------------------------------- */

typedef struct {
    int status;                  /* an lcps_status */
    int iterations;              /* of the run that gave the answer (decomposed: the most of any component) */
    double time_s;               /* the solve, from the solver's choice to the verified answer */
    double residual;             /* verified: the residual of docs/contract.md, recomputed from x */
    double complementarity, feasibility;
    const char *solver;          /* the solver that gave the answer (auto: after its fallbacks) */
    const char *precond;         /* "none" or its name */
    int n;                       /* entries of x and w */
    double *x;                   /* the answer (lambda or r): the solution, else the best iterate */
    double *w;                   /* w = A x + b (u) */
    const char *message;         /* why it stopped, where that is not plain ("" for none) */
    const char *auto_reason;     /* solver auto: the pick and what its fallbacks did ("" otherwise) */
    int components;              /* connected components solved apart (1: whole) */
    double omega;                /* the relaxation used (psor), 0 if none */
    void *internal_;             /* owned by the library */
} lcps_result;

/* Solves p with s (NULL: the defaults) from x0 (n values, NULL: zeros; a
 * warm start, scaled by warm-factor * dt-ratio), through the pipeline of
 * the lcpsolve command: validation, cone conversion, regularisation, the
 * auto choice with its fallbacks, the memory check, decomposition, the
 * solve, the best iterate, verification and the map back.  r is always
 * filled (x and w NULL when no solve ran) and must be released with
 * lcps_result_free.  Returns the exit code of the command for the outcome
 * (0 solved, 1 limit, 2 input error, 3 no solution, 5 breakdown); err gets
 * the reason of a 2 or 5 that stopped the solve before it ran. */
int lcps_solve(const lcps_problem *p, const lcps_settings *s, const double *x0, lcps_result *r, char *err,
               size_t errlen);

/* lcps_solve with the answer written into the caller's arrays, as an
 * engine keeps them from step to step: x (n values) and w (n values, or
 * NULL where w = A x + b is not wanted).  r is filled as by lcps_solve but
 * r->x and r->w are NULL (the answer is in x and w; lcps_result_free
 * releases r's texts).  A problem the small paths take (an lcp or blcp of
 * up to 128 unknowns with the solver pivot or auto) is then solved without
 * an allocation; the others are solved as by lcps_solve and their answer
 * copied.  x and w hold the answer (or a limit's best iterate) where the
 * return is 0 or 1, and are undefined otherwise. */
int lcps_solve_into(const lcps_problem *p, const lcps_settings *s, const double *x0, double *x, double *w,
                    lcps_result *r, char *err, size_t errlen);

void lcps_result_free(lcps_result *r);

/* ---- the registry ----------------------------------------------------- */

/* The solvers of this build, NULL-terminated names in --list-solvers order. */
const char *const *lcps_solver_names(void);

/* ---- derivatives of a solution (src/diff/) ----------------------------- */

/* Exact derivatives of a solved problem's x with respect to its data, by
 * implicit differentiation of the natural map at x (the residual's
 * equation x = P(x - w), w = A x + b, with De Saxce's term for fc3d):
 * one sparse factorisation of its generalised Jacobian K (CHOLMOD where
 * it is symmetric or reduces to a symmetric system, UMFPACK's LU
 * otherwise), made by lcps_diff_new and reused by every JVP and VJP of the handle (a VJP is
 * one transposed solve with it).  Rows where x is strictly complementary
 * (and friction contacts strictly inside one piece of the cone projection:
 * interior, surface, polar cone) are differentiable there and the
 * derivative is exact.  Degenerate rows (x_i and w_i both within 1e-7
 * times the residual's scale of 0 or of a bound; a friction contact on the
 * border of two pieces) take the piece of lower rank: the row stays at its
 * bound (lcp: dx_i = 0; blcp: dx_i = the bound's derivative; friction: r_i
 * stays 0 at the apex, on the cone's surface at its border with the
 * interior): one element of the B-subdifferential, a one-sided derivative.
 * lcps_diff_degenerate names them.  With the setting "reg", the derivative
 * is that of the regularised problem A + reg I (the one solved).
 *
 * Arrays (plain, the caller's): dA / grad_A hold one value per entry of A,
 * in the order of the val given to lcps_problem_csr (duplicate entries
 * each get the gradient of their sum; for a problem read or generated,
 * A's rows in order, columns ascending); mu is one a contact (ccp, fc3d) or one a row
 * (blcp with findex); M and J (factored form) in their rows' order,
 * columns ascending.  lcps_diff_len gives every length.  A handle is used
 * by one thread at a time. */
typedef struct lcps_diff lcps_diff;

/* Prepares the derivatives of p at the answer r of lcps_solve(p, s, ...);
 * p and s as they were for that solve and not changed while d lives.  r.x
 * must solve the problem (A + reg I with the setting "reg") to a
 * natural-map residual of 1e-6 relative to the residual's scale, whatever
 * r.status says (2 otherwise: with "reg" the status is of the original
 * problem).  Where K is singular (the solution is not unique: redundant
 * contacts, a singular A) the derivative is the one of minimal norm
 * (lcps_diff_minimum_norm); 5 (error) when that singular system is too
 * large for the dense pseudo-inverse and the sparse one does not take it
 * (unsymmetric, indefinite): differentiate a regularised problem (setting
 * "reg"). */
int lcps_diff_new(const lcps_problem *p, const lcps_settings *s, const lcps_result *r, lcps_diff **out, char *err,
                  size_t errlen);
/* The length of an array: "x", "b", "e" (n), "A" (values of A), "mu", "M",
 * "J" (values), "v" (columns of J); 0 when the problem has none, -1 for an
 * unknown name. */
int lcps_diff_len(const lcps_diff *d, const char *name);
/* The number of degenerate rows; flags (n, or NULL) gets 1 on those, 0
 * elsewhere. */
int lcps_diff_degenerate(const lcps_diff *d, int *flags);
/* JVP: dx (n) = the derivative of x along dA, db, dmu (NULL: zero). */
int lcps_jvp(lcps_diff *d, const double *dA, const double *db, const double *dmu, double *dx, char *err,
             size_t errlen);
/* VJP: the gradients of <g, x> (g: n) with respect to A's values, b, mu
 * (any output NULL: not computed). */
int lcps_vjp(lcps_diff *d, const double *g, double *grad_A, double *grad_b, double *grad_mu, char *err,
             size_t errlen);
/* The factored form (A = J M^-1 J', b = J v + e): the JVP along dM, dJ
 * (values), dv, de, dmu and the VJP's gradients with respect to them, so a
 * simulator chains them through its time step.  Each entry of M is its
 * own variable (a symmetric change of M: add the gradients of (k, l) and
 * (l, k)).  2 when the problem is not in factored form. */
int lcps_jvp_factored(lcps_diff *d, const double *dM, const double *dJ, const double *dv, const double *de,
                      const double *dmu, double *dx, char *err, size_t errlen);
int lcps_vjp_factored(lcps_diff *d, const double *g, double *grad_M, double *grad_J, double *grad_v,
                      double *grad_e, double *grad_mu, char *err, size_t errlen);
void lcps_diff_free(lcps_diff *d);

/* The bounds of a blcp as variables: the JVP along dA, db, dmu, dlo, dhi
 * and the VJP's gradients with respect to them (n each for lo and hi;
 * lcps_diff_len "lo", "hi": n for a blcp, 0 otherwise).  A row held at
 * its bound lo_i (hi_i) moves with it: dx_i = dlo_i (dhi_i); rows with
 * findex take their bounds from mu and x_findex instead (dmu), and their
 * grad_lo, grad_hi are 0, as on the free rows.  dlo, dhi NULL: no change
 * (not NULL on another kind: 2); grad_lo, grad_hi NULL: not computed.
 * lcps_jvp and lcps_vjp are these with the bounds fixed. */
int lcps_jvp_bounds(lcps_diff *d, const double *dA, const double *db, const double *dmu, const double *dlo,
                    const double *dhi, double *dx, char *err, size_t errlen);
int lcps_vjp_bounds(lcps_diff *d, const double *g, double *grad_A, double *grad_b, double *grad_mu,
                    double *grad_lo, double *grad_hi, char *err, size_t errlen);
/* Where the Jacobian on the rows not held at a bound is singular (the
 * solution is not unique: redundant contacts, a singular A), lcps_diff_new
 * takes its pseudo-inverse (a symmetric block, as of lcp, blcp, ccp and
 * fc3d without sliding contacts with a symmetric A: a sparse one of any size, its dependent rows found by a
 * sparse LDL' and its null space projected out; else LAPACK's SVD,
 * singular values below 1e-9 of the largest dropped, up to 3,000 such
 * rows, 5 beyond): every JVP is then
 * the least-squares derivative of minimal norm and every VJP its adjoint.
 * What is unique stays exact (w = A x + b where A = J M^-1 J': the
 * velocities); x's derivative is one choice among many.  Returns the
 * dimension of the null space dropped (0: the Jacobian was invertible,
 * the derivative is the unique one), -1 for a NULL handle. */
int lcps_diff_minimum_norm(const lcps_diff *d);


/* ---- data out, many solves, stopping: for front ends in other languages */

/* Read-only views of a problem's data, owned by the problem: valid until it
 * is changed or freed.  The problem is checked first, as a solve checks it
 * (a factored problem gets its A = J M^-1 J' and b = J v + e).
 * lcps_problem_matrix: "A" (n x n), or of a factored problem "M" and "J";
 * *rows, *cols and the CSR arrays (rows ascending, columns ascending within
 * a row).  lcps_problem_vector: "b", "mu", "lo", "hi", "e", "v" (*v NULL
 * and *len 0 where the problem has none; lo and hi hold +-inf for infinite
 * bounds).  lcps_problem_findex: *findex NULL and *len 0 where absent. */
int lcps_problem_matrix(const lcps_problem *p, const char *name, int *rows, int *cols, const int **rowptr,
                        const int **col, const double **val, char *err, size_t errlen);
int lcps_problem_vector(const lcps_problem *p, const char *name, const double **v, int *len, char *err,
                        size_t errlen);
int lcps_problem_findex(const lcps_problem *p, const int **findex, int *len, char *err, size_t errlen);

/* Solves p[0 .. count) with s (NULL: the defaults), problem k from x0[k]
 * (x0 NULL, or x0[k] NULL: zeros), `threads` problems at once, each on one
 * thread (s's "threads" is replaced by 1; OpenBLAS is set to one thread;
 * the calling thread solves alone for the batch's first 2 ms, or its
 * first 8 problems where at their pace the rest would take more than 4 ms,
 * the team of `threads` the rest: a short batch runs on one thread),
 * as `lcpsolve batch -j threads` solves its environments: r[k] is what
 * lcps_solve(p[k], ...) gives, the same bits for any threads; release each
 * with lcps_result_free.  With the solver auto, the problems of one pattern
 * (kind, sizes, A's sparsity, findex, which bounds and mu) take the choice
 * made for the first of them, solved before the others (after an update of
 * its A, the choice its handle kept: lcps_problem_update), and one that it
 * does not solve chooses for itself (r[k].auto_reason says which); a
 * problem of up to 16 unknowns that pivot's small path takes makes no
 * choice and is not grouped.  The problems may be one handle more than
 * once.
 * Returns the worst exit code by lcpsolve batch's precedence (2 input
 * error, 5 breakdown, 3 no solution, 1 limit, 0 all solved); err names the
 * first problem that gave a 2 or 5 ("problem K: ..."). */
int lcps_solve_batch(const lcps_problem *const *p, int count, const lcps_settings *s, const double *const *x0,
                     int threads, lcps_result *r, char *err, size_t errlen);

/* The answers x of r[0 .. count) one after the other into out (NULL: only
 * counted): the number of doubles, or -1 when a result has no x. */
long lcps_results_x(const lcps_result *r, int count, double *out);

/* A callback for lcps_settings_on_iteration that stops the solve (status
 * time_limit, message "interrupted", best iterate kept) when the byte
 * signum (0: any byte) arrives on fd, a non-blocking pipe written by a
 * signal handler (Python's signal.set_wakeup_fd writes the signal's
 * number).  It reads fd every 20 ms of the solve at most; its first call
 * of a solve discards what came before.  It sets stopped to 1 when it
 * stops, and then stops every later solve it sees until the caller sets
 * stopped and started_ back to 0 (one lcps_solve_batch: all its problems).
 * started_ and next_s_ are its own (0 at the start). */
typedef struct {
    int fd, signum;
    int stopped, started_;
    double next_s_;
} lcps_stop_fd;
int lcps_stop_on_fd(void *ctx, const lcps_iteration *row);

/* The registry entry of a solver: the kinds it takes ("lcp,blcp" into
 * kinds, kindslen bytes), the preconditioners it takes besides "none"
 * (NULL-terminated, or NULL), its one-line summary.  0, or 2 for a name
 * that is not a solver of this build. */
int lcps_solver_info(const char *name, char *kinds, size_t kindslen, const char *const **preconds,
                     const char **summary);

/* The k-th option lcps_settings_set takes (k = 0, 1, ...): its long name,
 * the name of its value (NULL for a flag) and its help line.  0, or -1
 * past the last. */
int lcps_option_info(int k, const char **name, const char **arg, const char **help);

/* The stacked path: count problems of one size n (made once, e.g. by
 * lcps_problem_csr from one pattern), solved as lcps_solve_batch solves
 * them, the answers written into the caller's arrays instead of results:
 * x[k*n .. k*n+n) (NaN where a solve gave no answer), and where not NULL
 * status[k], iterations[k], residual[k] (INFINITY without an answer).
 * Before problem k is solved, val + k*nval (NULL: none) and b + k*n (NULL:
 * none) are its new values, as lcps_problem_update takes them (nval: the
 * values of each problem's A, checked first; then each problem at most
 * once in p); x0 + k*n its start (x0 NULL: zeros).  Returns lcps_solve_batch's exit code; err names the first
 * problem that gave a 2 or 5. */
int lcps_solve_stacked(lcps_problem *const *p, int count, const double *val, long nval, const double *b,
                       const double *x0, const lcps_settings *s, int threads, double *x, int *status,
                       int *iterations, double *residual, char *err, size_t errlen);

/* Whether solver reads the solve option named option (a name of
 * lcps_option_info): 1 when its answer can depend on it, 0 when it ignores
 * it (the same answer as without) or refuses it ("order" of a solver that
 * neither sweeps nor factorises), -1 for a name that is not a solver of
 * this build or not a solve option. */
int lcps_option_read_by(const char *option, const char *solver);

#ifdef __cplusplus
}
#endif

#endif
