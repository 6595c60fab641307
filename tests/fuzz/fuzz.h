/* tests/fuzz/fuzz.h: what every harness tests/fuzz/fuzz_NAME.c shares.
 *
 * A harness defines LLVMFuzzerTestOneInput (one entry point: the bytes of one
 * input file) and fuzz_seeds[], the glob patterns (relative to the
 * repository root, or "$DATA/..." in the optional public collections,
 * LCPSOLVE_DATA, default ../shared/data; NULL-terminated) of its seed corpus.  The same source is
 * linked two ways:
 *   - `make fuzz`: with libFuzzer (clang -fsanitize=fuzzer,address,undefined)
 *     into build-fuzz/fuzz_NAME;
 *   - `make test`: with tests/fuzz/replay.c (any compiler, SANITIZE=1 too)
 *     into $(BUILD)/fuzz/replay_NAME, which feeds every seed and every file
 *     of tests/fuzz/regress/NAME/ through the entry point.
 * A new reader (e.g. YAML plans) needs one file, tests/fuzz/fuzz_plan.c, and
 * a folder tests/fuzz/regress/plan/ (may be empty): the Makefile and
 * tests/fuzz/run-all pick up every tests/fuzz/fuzz_*.c.
 */
#ifndef LCPSOLVE_FUZZ_H
#define LCPSOLVE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern const char *const fuzz_seeds[];

/* Writes data into a file named `name` inside a private temporary folder
 * (made once a process, removed at exit) and returns its path.  The
 * readers take paths; a real file keeps their fstat/size checks in play. */
const char *fuzz_file(const char *name, const uint8_t *data, size_t size);
/* The private folder itself (made on first use). */
const char *fuzz_dir(void);

#endif
