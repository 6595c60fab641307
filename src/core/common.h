/* src/core/common.h: error reporting, checked allocation, timing, status codes.
 *
 * Conventions used throughout lcpsolve:
 *  - Functions that can fail return 0 on success and a non-zero lcp_status
 *    on failure, with a one-line reason in an lcp_err ("FILE:LINE: what").
 *  - Kernels never print and never exit; only the command line (src/cli/) maps a status to an
 *    exit code and prints.
 *  - Indices are int (32 bit); sizes are checked against INT_MAX at load.
 *  - Free functions are NULL-safe.
 */
#ifndef LCPSOLVE_COMMON_H
#define LCPSOLVE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define LCP_VERSION "0.1.0"

/* One table of run outcomes: name in --json, exit code (docs/contract.md), meaning. */
#define LCP_STATUS_TABLE(X)                                                        \
    X(LCP_SOLVED,        "solved",             0, "residual <= tol")                \
    X(LCP_MAX_ITER,      "max_iter",           1, "iteration limit reached")        \
    X(LCP_TIME_LIMIT,    "time_limit",         1, "time limit reached")             \
    X(LCP_INPUT_ERROR,   "input_error",        2, "usage or input error")           \
    X(LCP_NO_SOLUTION,   "no_solution",        3, "the problem has no solution")    \
    X(LCP_REF_MISMATCH,  "reference_mismatch", 4, "differs from --reference")       \
    X(LCP_ERROR,         "error",              5, "numerical breakdown or internal error") \
    X(LCP_STALLED,       "stalled",            1, "--adaptive: the residual stopped improving")

typedef enum {
#define X(id, name, code, msg) id,
    LCP_STATUS_TABLE(X)
#undef X
    LCP_STATUS_COUNT
} lcp_status;

const char *lcp_status_name(lcp_status s);
int lcp_status_exit_code(lcp_status s);

/* A one-line error message: "FILE:LINE: reason" or "FILE: reason". */
typedef struct {
    char msg[1024];
} lcp_err;

/* Sets err (if not NULL) and returns code; line <= 0 omits the line. */
int lcp_fail(lcp_err *err, int code, const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* malloc/calloc of count*size bytes; NULL on overflow or failure. */
void *lcp_alloc(size_t count, size_t size);
void *lcp_calloc(size_t count, size_t size);

/* --max-memory (src/core/common.c).  lcp_memory_limit is the cap in bytes (0:
 * none).  lcp_set_memory_limit() sets it and, outside AddressSanitizer
 * builds, also setrlimit(RLIMIT_DATA) to what the process uses now plus
 * the cap (plus 64 MiB, and 256 MiB a BLAS thread, for stacks and
 * OpenBLAS's buffers), so that any
 * allocation beyond it fails ("out of memory", exit 5) instead of the
 * machine swapping; returns 0, or -1 when the rlimit could not be set.
 * lcp_alloc/lcp_calloc refuse a single block larger than the cap, and the
 * readers refuse, before allocating, a file whose declared sizes need more
 * (lcp_memory_fits; exit 2 with FILE:LINE). */
extern size_t lcp_memory_limit;
int lcp_set_memory_limit(size_t bytes);

/* The heap's freed top kept for the next solve (the command's main calls it
 * once; a library host chooses its own allocator policy): under glibc,
 * M_TOP_PAD of LCP_HEAP_PAD bytes, so that memory freed at the top of the
 * heap is not given back to the kernel while it is under that much -- a
 * factorisation's workspace freed at the end of one Newton step and taken
 * again at the next then costs no page faults.  UMFPACK's numeric
 * factorisation allocates its LU and work arrays afresh each call (about
 * 15 MB for a granular pile of 2,385 unknowns): with the default policy
 * they went back to the kernel each time, and the page faults took 60% of
 * the factorisation (33 ms a step, 12.5 ms kept; medians of 3 through the
 * command: nsn on the Siconos KaplasTower file 0.32 -> 0.11 s, on a
 * pyramid of 3,072 unknowns 0.85 -> 0.28 s, newton-min on a pyramid of
 * 10,000 0.147 -> 0.095 s; the peak resident memory of the granular pile's
 * solve 31 -> 33 MB).  Not where MALLOC_TOP_PAD_ is set (the user's choice
 * stands). */
#define LCP_HEAP_PAD (64 << 20)
void lcp_heap_keep(void);
int lcp_memory_fits(double bytes); /* 1 when there is no cap or bytes <= the cap */
/* Parses BYTES with an optional suffix K, M, G, T (powers of 1024, an
 * optional trailing B or iB); 0 on success. */
int lcp_parse_bytes(const char *s, size_t *bytes);
/* "832 B", "1.5 KiB", "12.3 MiB", "4.0 GiB" into buf (returned). */
const char *lcp_bytes_str(double bytes, char buf[32]);

/* A whole string as a finite number (strtod); 1 when it is one. */
/* x as printf's "%.3g" writes it, without printf (a tenth of its cost: auto's reasons at every solve),
 * into buf (at least 16 bytes); the length.  Non-finite x and zero through snprintf. */
int lcp_fmt_g3(double x, char *buf);
/* A text built by appends into buf (size >= 1 bytes), cut at its size as snprintf would: the messages of
 * every solve without a formatted print.  lcp_text t = {buf, sizeof buf, 0}; appends keep buf terminated. */
typedef struct {
    char *buf;
    size_t size, len;
} lcp_text;
void lcp_text_put(lcp_text *t, const char *s);
void lcp_text_long(lcp_text *t, long v); /* v in decimal */
void lcp_text_g3(lcp_text *t, double x); /* x as "%.3g" (lcp_fmt_g3) */
int lcp_parse_number(const char *s, double *x);

/* Monotonic wall-clock seconds. */
double lcp_now(void);
/* lcp_now for the short intervals of a small problem's solve (both ends of
 * an interval read by it): where lcp_now is the wall clock, the x86 CPU
 * has an invariant time-stamp counter and the kernel's clock reads that
 * counter in user space (clock source tsc or kvm-clock, a read well under
 * a microsecond), the counter scaled by its rate (calibrated against the
 * wall clock once 2 ms have passed, from readings taken between two close
 * wall-clock reads; lcp_now until then) -- a few nanoseconds where a clock
 * read costs 20-30 (a virtual machine's kvm-clock: two reads were a
 * quarter of a 2-unknown solve); lcp_now elsewhere. */
double lcp_now_fast(void);
/* The calling thread's CPU time, seconds: auto's budgets, which must not depend on the machine's load. */
double lcp_cpu_now(void);
/* the wall clock (CLOCK_MONOTONIC) whatever LCPSOLVE_CLOCK says: no system call (vDSO); a bound on a
 * thread's CPU time, which cannot run ahead of it */
double lcp_wall_now(void);
/* 1 where lcp_now reads that wall clock too (LCPSOLVE_CLOCK unset): one read serves both */
int lcp_now_is_wall(void);
/* on != 0: lcp_now reads the wall clock on the calling thread whatever LCPSOLVE_CLOCK says, until called
 * with 0 (lcpsolve tune's solves timed in a row: the batch is timed on the thread's CPU clock, and the
 * solves' own reads would each cost a system call) */
void lcp_now_force_wall(int on);
/* The OpenMP threads to run for a request of `want` (-j): want, capped by the
 * CPUs this process may use less those busy with other processes' runnable
 * tasks at this moment (/proc/loadavg's running count less this process's
 * running threads), and at least 1.  On a machine where other processes are busy a -j N run
 * then takes the free cores only, instead of waiting at every barrier for
 * a thread that shares its core (src/core/common.c).  LCPSOLVE_THREADS=exact
 * in the environment: want, always (the tests of the thread counts). */
int lcp_threads_free(int want);

/* Duplicate a string (NULL-safe). */
char *lcp_strdup(const char *s);

/* The MPI processes running this command: the world size in MPI builds
 * under mpirun, 1 otherwise and in the children `lcpsolve bench` forks
 * (each is one process on its own).  Set by main.  (src/core/common.c) */
extern int lcp_procs;

#endif
