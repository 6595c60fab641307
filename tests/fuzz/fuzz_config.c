/* tests/fuzz/fuzz_config.c: YAML solver configurations (src/io/config.c).
 * The option handler is main.c's in real runs; here one that keeps the
 * values (as strings) and refuses a key "stop", so both paths run. */
#include "fuzz.h"
#include "io/config.h"

#include <string.h>

const char *const fuzz_seeds[] = {"tests/bad/*.yaml", "tests/*.yaml", "tests/e2e/*.yaml",
                                  "tests/fuzz/corpus/config/*", NULL};

static int set(void *ctx, const char *key, const char *value, long line)
{
    size_t *total = ctx;
    *total += strlen(key) + strlen(value) + (size_t)line;
    return !strcmp(key, "stop");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("c.yaml", data, size);
    lcp_err err;
    size_t total = 0;
    (void)lcp_config_read(path, set, &total, &err);
    return 0;
}
