/* tests/fuzz/fuzz_json.c: JSON problems (src/io/json.c), then the load-time
 * checks of lcp_problem_finish().  A manifest may name A.mtx, b.mtx, mu.mtx
 * (well-formed files next to the input); inputs holding '/' or '\' are
 * skipped, so that no name can leave the private folder (a manifest naming
 * /dev/zero is the user's choice, not the reader's bug). */
#include "fuzz.h"
#include "io/io.h"

#include <string.h>

const char *const fuzz_seeds[] = {"tests/bad/*.json", "problems/*.json", "problems/*/*.json",
                                  "tests/fuzz/corpus/json/*", NULL};

static const char A_mtx[] = "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 2\n2 2 2\n3 3 2\n1 2 -1\n";
static const char b_mtx[] = "%%MatrixMarket matrix array real general\n3 1\n-1\n0.5\n1\n";
static const char mu_mtx[] = "%%MatrixMarket matrix array real general\n1 1\n0.5\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int once;
    if (!once) {
        once = 1;
        fuzz_file("A.mtx", (const uint8_t *)A_mtx, sizeof A_mtx - 1);
        fuzz_file("b.mtx", (const uint8_t *)b_mtx, sizeof b_mtx - 1);
        fuzz_file("mu.mtx", (const uint8_t *)mu_mtx, sizeof mu_mtx - 1);
    }
    if (memchr(data, '/', size) || memchr(data, '\\', size)) return 0;
    const char *path = fuzz_file("p.json", data, size);
    lcp_err err;
    lcp_problem p;
    lcp_problem_init(&p);
    if (lcp_read_json(path, &p, &err) == 0) (void)lcp_problem_finish(&p, &err);
    lcp_problem_free(&p);
    return 0;
}
