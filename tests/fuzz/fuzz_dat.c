/* tests/fuzz/fuzz_dat.c: Siconos .dat (src/io/dat.c) with each kind hint
 * (guess, lcp, fc3d), then the load-time checks of lcp_problem_finish(). */
#include "fuzz.h"
#include "io/io.h"

const char *const fuzz_seeds[] = {"tests/bad/*.dat", "$DATA/siconos/lcp/*.dat",
                                  "$DATA/siconos/fc3d/FC3D_Example1.dat",
                                  "$DATA/siconos/fc3d/FrictionContact3D_1c.dat",
                                  "tests/fuzz/corpus/dat/*", NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("p.dat", data, size);
    static const lcp_kind hints[] = {LCP_KIND_NONE, LCP_KIND_LCP, LCP_KIND_FC3D};
    for (int h = 0; h < 3; h++) {
        lcp_err err;
        lcp_problem p;
        lcp_problem_init(&p);
        if (lcp_read_dat(path, hints[h], &p, &err) == 0) (void)lcp_problem_finish(&p, &err);
        lcp_problem_free(&p);
    }
    return 0;
}
