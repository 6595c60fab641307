/* tests/unit/check.h: a minimal test harness.  Each test binary ends with
 * "N passed, N failed" and exits non-zero when any check failed. */
#ifndef LCP_CHECK_H
#define LCP_CHECK_H

#include <math.h>
#include <stdio.h>

static int check_passed, check_failed;

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
        printf("%d passed, %d failed\n", check_passed, check_failed); \
        return check_failed ? 1 : 0;                                   \
    } while (0)

#endif
