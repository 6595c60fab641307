/* tests/unit/check.h: a minimal test harness.  Each test binary ends with
 * "N passed, N failed, N skipped" and exits non-zero when any check failed. */
#ifndef LCP_CHECK_H
#define LCP_CHECK_H

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int check_passed, check_failed, check_skipped __attribute__((unused));

/* A part skipped (data absent): one line, counted. */
#define CHECK_SKIP(...)                \
    do {                               \
        check_skipped++;               \
        printf("SKIP " __VA_ARGS__);   \
        printf("\n");                  \
    } while (0)

/* The public collections of the field (optional, never in the repository):
 * $LCPSOLVE_DATA/siconos<rel>, LCPSOLVE_DATA by default ../shared/data.
 * The result lives in one of 8 buffers used in turn. */
static inline const char *check_data_path(const char *rel)
{
    static char buf[8][1024];
    static int k;
    const char *d = getenv("LCPSOLVE_DATA");
    char *b = buf[k++ % 8];
    snprintf(b, sizeof buf[0], "%s/siconos%s", d && *d ? d : "../shared/data", rel);
    return b;
}

/* Removes a folder a test wrote, with what it holds. */
static inline void check_rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char path[1024];
        int k = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (k < 0 || k >= (int)sizeof path) continue;
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) check_rm_tree(path);
        else remove(path);
    }
    closedir(d);
    rmdir(dir);
}

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (cond) check_passed++;                                                    \
        else {                                                                       \
            check_failed++;                                                          \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                         \
    do {                                                                              \
        double check_a_ = (a), check_b_ = (b);                                        \
        if (fabs(check_a_ - check_b_) <= (tol)) check_passed++;                       \
        else {                                                                        \
            check_failed++;                                                           \
            fprintf(stderr, "%s:%d: %s = %.17g, expected %.17g (tol %g)\n", __FILE__, \
                    __LINE__, #a, check_a_, check_b_, (double)(tol));                 \
        }                                                                             \
    } while (0)

#define CHECK_DONE()                                                   \
    do {                                                               \
        printf("%d passed, %d failed, %d skipped\n", check_passed, check_failed, check_skipped); \
        return check_failed ? 1 : 0;                                   \
    } while (0)

#endif
