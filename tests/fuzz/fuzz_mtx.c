/* tests/fuzz/fuzz_mtx.c: Matrix Market (src/io/mtx.c), as a matrix and as a
 * vector, then the size-line lookup used in messages. */
#include "fuzz.h"
#include "io/io.h"

#include <stdlib.h>

const char *const fuzz_seeds[] = {"tests/bad/*.mtx", "problems/*/*.mtx", "tests/fuzz/corpus/mtx/*", NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("m.mtx", data, size);
    lcp_err err;
    lcp_csr A;
    if (lcp_read_mtx_matrix(path, &A, &err) == 0) lcp_csr_free(&A);
    double *v = NULL;
    int n = 0;
    if (lcp_read_mtx_vector(path, &v, &n, &err) == 0) free(v);
    (void)mtx_size_line(path);
    return 0;
}
