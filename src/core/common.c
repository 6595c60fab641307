/* src/core/common.c: status table, errors, checked allocation, clock. */
/* sched_getaffinity and CPU_COUNT (lcp_threads_free) */
#define _GNU_SOURCE
#include "common.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <x86intrin.h>
#endif
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define LCP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LCP_ASAN 1
#endif
#endif

size_t lcp_memory_limit;
int openblas_get_num_threads(void);

int lcp_memory_fits(double bytes)
{
    return !lcp_memory_limit || bytes <= (double)lcp_memory_limit;
}

int lcp_parse_bytes(const char *s, size_t *bytes)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || !(v >= 0)) return -1;
    double mult = 1;
    switch (*end) {
    case 'k': case 'K': mult = 1024.0; end++; break;
    case 'm': case 'M': mult = 1024.0 * 1024; end++; break;
    case 'g': case 'G': mult = 1024.0 * 1024 * 1024; end++; break;
    case 't': case 'T': mult = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: break;
    }
    if (mult > 1 && *end == 'i') end++;
    if (*end == 'b' || *end == 'B') end++;
    if (*end || v * mult >= 9.0e18) return -1;
    *bytes = (size_t)(v * mult);
    return 0;
}

const char *lcp_bytes_str(double bytes, char buf[32])
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (bytes >= 1024 && u < 6) bytes /= 1024, u++;
    snprintf(buf, 32, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
    return buf;
}

int lcp_set_memory_limit(size_t bytes)
{
    lcp_memory_limit = bytes;
#ifdef LCP_ASAN
    return 0; /* ASan reserves terabytes of shadow memory: the estimates only */
#else
    if (!bytes) return 0;
    /* data + stack pages in use now (field 6 of /proc/self/statm) */
    unsigned long size = 0, res = 0, shr = 0, text = 0, lib = 0, data = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%lu %lu %lu %lu %lu %lu", &size, &res, &shr, &text, &lib, &data) != 6) data = 0;
        fclose(f);
    }
    /* slack: 64 MiB, and 256 MiB a BLAS thread (OpenBLAS mallocs a 128 MiB
     * buffer a thread when it first needs one, and waits forever when that
     * fails) */
    int bt = openblas_get_num_threads();
    double lim = (double)data * (double)sysconf(_SC_PAGESIZE) + (double)bytes +
                 (64.0 + 256.0 * (bt > 0 ? bt : 1)) * 1024 * 1024;
    struct rlimit rl;
    if (getrlimit(RLIMIT_DATA, &rl) != 0) return -1;
    if (rl.rlim_max != RLIM_INFINITY && lim > (double)rl.rlim_max) lim = (double)rl.rlim_max;
    if (rl.rlim_cur != RLIM_INFINITY && lim > (double)rl.rlim_cur) return 0; /* already tighter */
    rl.rlim_cur = (rlim_t)lim;
    return setrlimit(RLIMIT_DATA, &rl) == 0 ? 0 : -1;
#endif
}

void lcp_heap_keep(void)
{
#ifdef __GLIBC__
    if (!getenv("MALLOC_TOP_PAD_")) mallopt(M_TOP_PAD, LCP_HEAP_PAD);
#endif
}

static const struct {
    const char *name;
    int code;
} status_table[] = {
#define X(id, name, code, msg) {name, code},
    LCP_STATUS_TABLE(X)
#undef X
};

const char *lcp_status_name(lcp_status s)
{
    return (s >= 0 && s < LCP_STATUS_COUNT) ? status_table[s].name : "error";
}

int lcp_status_exit_code(lcp_status s)
{
    return (s >= 0 && s < LCP_STATUS_COUNT) ? status_table[s].code : 5;
}

int lcp_fail(lcp_err *err, int code, const char *file, long line, const char *fmt, ...)
{
    if (!err) return code;
    size_t k = 0;
    if (file && line > 0)
        k = (size_t)snprintf(err->msg, sizeof err->msg, "%s:%ld: ", file, line);
    else if (file)
        k = (size_t)snprintf(err->msg, sizeof err->msg, "%s: ", file);
    if (k >= sizeof err->msg) k = sizeof err->msg - 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + k, sizeof err->msg - k, fmt, ap);
    va_end(ap);
    for (char *c = err->msg; *c; c++) /* one line, always */
        if (*c == '\n' || *c == '\r') *c = ' ';
    return code;
}

void *lcp_alloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) return NULL;
    size_t bytes = count * size;
    if (lcp_memory_limit && bytes > lcp_memory_limit) return NULL;
    return malloc(bytes ? bytes : 1);
}

void *lcp_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) return NULL;
    if (lcp_memory_limit && count * size > lcp_memory_limit) return NULL;
    return calloc(count ? count : 1, size ? size : 1);
}

/* LCPSOLVE_CLOCK=thread: the calling thread's CPU time instead of the wall
 * clock, for benchmarks on a shared machine (scripts/auto-check: the time a
 * run waits for a core is not its own); read once. */
static _Thread_local int wall_forced; /* lcp_now_force_wall */

void lcp_now_force_wall(int on) { wall_forced = on; }

static atomic_int clock_id = -1; /* LCPSOLVE_CLOCK's, read once (now_clock) */

static int now_clock(void)
{
    if (wall_forced) return (int)CLOCK_MONOTONIC;
    int id = atomic_load_explicit(&clock_id, memory_order_relaxed);
    if (id < 0) {
        const char *e = getenv("LCPSOLVE_CLOCK");
        id = e && !strcmp(e, "thread") ? (int)CLOCK_THREAD_CPUTIME_ID : (int)CLOCK_MONOTONIC;
        atomic_store_explicit(&clock_id, id, memory_order_relaxed);
    }
    return id;
}

double lcp_now(void)
{
    struct timespec ts;
    clock_gettime((clockid_t)now_clock(), &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int lcp_now_is_wall(void) { return now_clock() == (int)CLOCK_MONOTONIC; }

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* lcp_now_fast's counter.  It is read only where the kernel's own clock
 * reads it from user space: the CPU says the counter runs at a constant
 * rate in every power state (CPUID 0x80000007, EDX bit 8), the kernel's
 * clock source is the counter or a hypervisor's clock scaled from it
 * (tsc, kvm-clock) and a clock read takes well under a microsecond (the
 * vDSO: a kernel that does not trust the counter, or a kvm-clock without
 * its stable flag, falls back to a system call).  Then the counter is in
 * step on every CPU.  Its reading and the wall clock's at the start (set
 * once) and the seconds a tick (0 until calibrated: an atomic, any thread
 * may calibrate it) come from readings of the counter between two wall
 * clock reads less than TSC_BRACKET apart, so that a thread preempted
 * between them does not skew the rate.  Callers still take
 * max(0, t1 - t0). */
#define TSC_BRACKET 2e-6
static pthread_once_t tsc_once = PTHREAD_ONCE_INIT;
static int tsc_ok;
static unsigned long long tsc0;
static double clk0;
static _Atomic double tsc_sec; /* seconds a tick, 0 until calibrated */

/* the counter between two wall-clock reads: 1 with the reads' midpoint where they are close enough */
static int tsc_bracket(unsigned long long *t, double *mid)
{
    double a = lcp_wall_now();
    *t = __rdtsc();
    double b = lcp_wall_now();
    *mid = 0.5 * (a + b);
    return b - a <= TSC_BRACKET;
}

static int kernel_reads_tsc(void)
{
    char src[64] = "";
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
    if (!f) return 0;
    int got = fgets(src, sizeof src, f) != NULL;
    fclose(f);
    src[strcspn(src, "\n")] = 0;
    if (!got || (strcmp(src, "tsc") && strcmp(src, "kvm-clock"))) return 0;
    double least = 1.0; /* the shortest of a few clock reads: a vDSO read, or a system call */
    for (int i = 0; i < 8; i++) {
        double a = lcp_wall_now(), b = lcp_wall_now();
        least = fmin(least, b - a);
    }
    return least < 2e-7;
}

static void tsc_init(void)
{
    unsigned a, b, c, d;
    tsc_ok = __get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000007 && __get_cpuid(0x80000007, &a, &b, &c, &d) &&
             (d >> 8 & 1) && kernel_reads_tsc();
    for (int i = 0; tsc_ok && i < 100; i++)
        if (tsc_bracket(&tsc0, &clk0)) return;
    tsc_ok = 0; /* never a close pair of wall-clock reads */
}

double lcp_now_fast(void)
{
    /* calibrated (so the counter is trusted: acquire, tsc0 and clk0 set before) and the wall clock asked: the
     * counter alone */
    double sec = atomic_load_explicit(&tsc_sec, memory_order_acquire);
    if (sec > 0 && (atomic_load_explicit(&clock_id, memory_order_relaxed) == (int)CLOCK_MONOTONIC || wall_forced))
        return clk0 + (double)(long long)(__rdtsc() - tsc0) * sec;
    if (now_clock() != (int)CLOCK_MONOTONIC) return lcp_now();
    pthread_once(&tsc_once, tsc_init);
    if (!tsc_ok) return lcp_now();
    unsigned long long t = __rdtsc();
    sec = atomic_load_explicit(&tsc_sec, memory_order_relaxed);
    if (sec > 0) return clk0 + (double)(long long)(t - tsc0) * sec;
    double now = lcp_wall_now(); /* (one read while the 2 ms run: the price of lcp_now) */
    if (now - clk0 >= 2e-3 && tsc_bracket(&t, &now) && t > tsc0)
        atomic_store_explicit(&tsc_sec, (now - clk0) / (double)(t - tsc0), memory_order_release);
    return now;
}
#else
double lcp_now_fast(void) { return lcp_now(); }
#endif

double lcp_wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double lcp_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

char *lcp_strdup(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

int lcp_procs = 1;

int lcp_fmt_g3(double x, char *buf)
{
    if (!isfinite(x) || x == 0) return snprintf(buf, 16, "%.3g", x);
    int l = 0;
    if (x < 0) buf[l++] = '-', x = -x;
    int e;
    double xs;
    if (x >= 1e-20 && x < 1e20) {
        /* without log10 and pow (auto's texts, at every solve): the decimal exponent from the binary one
         * (x in [2^(b-1), 2^b): floor(log10 x) is e or e + 1), and the scaling by an exact power of ten
         * (10^k, k <= 22, is a double); one off at a power of ten is mended as below */
        static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
        uint64_t bits;
        memcpy(&bits, &x, sizeof bits);
        int b = (int)((bits >> 52) & 0x7ff) - 1022; /* x normal here */
        e = (int)floor((b - 1) * 0.30102999566398120);
        if (e + 1 >= 0 ? x >= p10[e + 1] : x * p10[-(e + 1)] >= 1) e++;
        xs = e <= 2 ? x * p10[2 - e] : x / p10[e - 2];
    } else {
        e = (int)floor(log10(x));
        xs = x * pow(10, 2 - e);
    }
    double m = nearbyint(xs); /* the 3 significant digits */
    if (fabs(xs - floor(xs) - 0.5) < 1e-9 || e > 300 || e < -300) /* next to a tie, or 10^(2-e) inexact: printf */
        return l + snprintf(buf + l, 16, "%.3g", x);
    if (m >= 1000) m = nearbyint(m / 10), e++;
    if (m < 100) m *= 10, e--; /* log10 one below at an exact power of 10 */
    int d[3] = {(int)m / 100, (int)m / 10 % 10, (int)m % 10}, nd = d[2] ? 3 : d[1] ? 2 : 1;
    if (e < -4 || e >= 3) { /* d.dde+XX */
        buf[l++] = (char)('0' + d[0]);
        if (nd > 1) buf[l++] = '.';
        for (int k = 1; k < nd; k++) buf[l++] = (char)('0' + d[k]);
        int a = e < 0 ? -e : e;
        buf[l++] = 'e', buf[l++] = e < 0 ? '-' : '+';
        if (a >= 100) buf[l++] = (char)('0' + a / 100);
        buf[l++] = (char)('0' + a / 10 % 10), buf[l++] = (char)('0' + a % 10);
        buf[l] = '\0';
        return l;
    }
    if (e >= 0) { /* e + 1 digits before the point */
        for (int k = 0; k <= e; k++) buf[l++] = (char)('0' + d[k]);
        if (nd > e + 1) buf[l++] = '.';
        for (int k = e + 1; k < nd; k++) buf[l++] = (char)('0' + d[k]);
    } else { /* 0.000ddd */
        buf[l++] = '0', buf[l++] = '.';
        for (int k = 0; k < -e - 1; k++) buf[l++] = '0';
        for (int k = 0; k < nd; k++) buf[l++] = (char)('0' + d[k]);
    }
    buf[l] = '\0';
    return l;
}

int lcp_parse_number(const char *s, double *x)
{
    char *end;
    errno = 0;
    *x = strtod(s, &end);
    return end != s && *end == '\0' && errno == 0 && isfinite(*x);
}

/* CPUs this process may run on (its affinity mask), else the online count. */
static int cpus_usable(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* Tasks of this process running now: the reader, and OpenMP workers still
 * spinning after a parallel region (/proc/self/task/TID/stat, state R). */
static int own_running(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    if (!d) return 1;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[64], buf[256];
        snprintf(path, sizeof path, "/proc/self/task/%.20s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t k = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[k] = 0;
        const char *rp = strrchr(buf, ')'); /* "TID (comm) STATE ..." */
        if (rp && rp[1] == ' ' && rp[2] == 'R') n++;
    }
    closedir(d);
    return n > 0 ? n : 1;
}

/* LCPSOLVE_THREADS=exact: -j N runs N threads whatever the load (the tests
 * that compare the bits of thread counts set it, tests/lib.sh and
 * tests/run.sh, so a loaded machine does not turn their -j 2 into one
 * thread); read once. */
static int threads_exact(void)
{
    static atomic_int exact = -1;
    int e = atomic_load_explicit(&exact, memory_order_relaxed);
    if (e < 0) {
        const char *v = getenv("LCPSOLVE_THREADS");
        e = v && !strcmp(v, "exact");
        atomic_store_explicit(&exact, e, memory_order_relaxed);
    }
    return e;
}

int lcp_threads_free(int want)
{
    if (want <= 1) return 1;
    if (threads_exact()) return want;
    int cpus = cpus_usable(), running = 0, total = 0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        double l1, l5, l15;
        if (fscanf(f, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &running, &total) != 5) running = 0;
        fclose(f);
    }
    int others = running - own_running(); /* the count includes this process's (its OpenMP workers may spin) */
    int free_cpus = cpus - others;
    if (free_cpus < 1) free_cpus = 1;
    if (want > cpus) want = cpus;
    return want < free_cpus ? want : free_cpus;
}

void lcp_text_put(lcp_text *t, const char *s)
{
    if (t->len + 1 >= t->size) {
        if (t->size) t->buf[t->len < t->size ? t->len : t->size - 1] = '\0';
        return;
    }
    size_t l = strlen(s);
    if (l > t->size - 1 - t->len) l = t->size - 1 - t->len;
    memcpy(t->buf + t->len, s, l);
    t->len += l;
    t->buf[t->len] = '\0';
}

void lcp_text_long(lcp_text *t, long v)
{
    char d[24], *e = d + sizeof d - 1;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    *e = '\0';
    do *--e = (char)('0' + u % 10);
    while ((u /= 10) > 0);
    if (v < 0) *--e = '-';
    lcp_text_put(t, e);
}

void lcp_text_g3(lcp_text *t, double x)
{
    char b[32];
    lcp_fmt_g3(x, b);
    lcp_text_put(t, b);
}
