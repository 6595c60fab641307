/* tests/fuzz/fuzz_plan.c: experiment plans (src/io/plan.c, `lcpsolve bench`).
 * The plan lives in the private folder beside two problem files, q.json and
 * r.dat, so paths and globs can match.  Inputs with a '/' are skipped: a
 * pattern then stays inside that folder and never walks the file system.
 * The option check is main.c's in real runs; here one that refuses the key
 * "stop" and marks "shuffle" as a flag, so both paths run. */
#include "fuzz.h"
#include "io/plan.h"

#include <stdio.h>
#include <string.h>

const char *const fuzz_seeds[] = {"bench/plans/*.yaml", "tests/fuzz/corpus/plan/*", NULL};

static int check(void *ctx, const char *key, const char *value, int *flag, char *msg, size_t len)
{
    size_t *total = ctx;
    *total += strlen(key) + strlen(value);
    *flag = !strcmp(key, "shuffle");
    if (!strcmp(key, "stop")) {
        snprintf(msg, len, "'%s' is refused", key);
        return 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (memchr(data, '/', size)) return 0;
    static int made;
    if (!made) {
        fuzz_file("q.json", (const uint8_t *)"{}", 2);
        fuzz_file("r.dat", (const uint8_t *)"1\n", 2);
        made = 1;
    }
    const char *path = fuzz_file("plan.yaml", data, size);
    lcp_err err;
    lcp_plan plan;
    size_t total = 0;
    memset(&plan, 0, sizeof plan);
    if (lcp_plan_read(path, check, &total, &plan, &err) == 0) {
        for (int k = 0; k < plan.nconfigs; k++) (void)lcp_plan_value(&plan, k, "tol");
        lcp_plan_free(&plan);
    }
    return 0;
}
