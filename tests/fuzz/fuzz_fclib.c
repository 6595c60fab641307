/* tests/fuzz/fuzz_fclib.c: the checks src/io/fclib.c applies to what
 * libfclib read from an FCLIB file (src/io/fclib_check.h), on fclib structs
 * built from the fuzz bytes, then lcp_problem_finish().  HDF5 parsing is
 * libhdf5's and libfclib's, not ours; what we own is everything after.
 *
 * Input bytes, read in order (missing bytes read as 0):
 *   1 byte   mode: bit 0 global (else local); bit 1 the array lengths are
 *            taken from the bytes (else as libfclib allocates them from the
 *            sizes: the usual, consistent case); bit 2 the vector lengths
 *            from the bytes
 *   each matrix (local: W; global: M, H): nzmax, m, n, nz as int16
 *            (0x7fff reads INT_MAX, -0x8000 INT_MIN); with mode bit 1, the
 *            lengths of p, i, x (one byte each)
 *   vectors (local: q, mu; global: f, w, mu): with mode bit 2, a length
 *            byte each
 *   then the contents, array after array: indices as int16, values as int8 / 4
 *            (0x7f: NaN, 0x80: +inf)
 * Lengths derived from the sizes are capped at 4096 (an oversized claim is
 * then seen as the inconsistency it is). */
#include "fuzz.h"
#include "io/fclib_check.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const fuzz_seeds[] = {"tests/fuzz/corpus/fclib/*", NULL};

typedef struct {
    const uint8_t *d;
    size_t n, pos;
} bytes;

static int u8(bytes *b) { return b->pos < b->n ? b->d[b->pos++] : 0; }
static int i16(bytes *b)
{
    int lo = u8(b), hi = u8(b);
    int v = (int16_t)(uint16_t)(lo | hi << 8);
    return v == 0x7fff ? INT_MAX : v == -0x8000 ? INT_MIN : v;
}
static double val(bytes *b)
{
    int v = (int8_t)u8(b);
    return v == 0x7f ? NAN : v == -0x80 ? INFINITY : v / 4.0;
}
static long long cap(long long n) { return n < 0 ? 0 : n > 4096 ? 4096 : n; }

static struct fclib_matrix *matrix(bytes *b, int free_lengths, long long len[3])
{
    struct fclib_matrix *A = calloc(1, sizeof *A);
    A->nzmax = i16(b);
    A->m = i16(b);
    A->n = i16(b);
    A->nz = i16(b);
    if (free_lengths) {
        len[0] = u8(b);
        len[1] = u8(b);
        len[2] = u8(b);
    } else if (A->nz >= 0) {
        len[0] = len[1] = cap(A->nz);
        len[2] = cap(A->nzmax);
    } else {
        long long outer = A->nz == -1 ? A->n : A->m;
        len[0] = cap(outer + 1);
        len[1] = len[2] = cap(A->nzmax);
    }
    /* exact-size arrays, so that ASan sees any read past them */
    A->p = malloc((size_t)(len[0] ? len[0] : 1) * sizeof(int));
    A->i = malloc((size_t)(len[1] ? len[1] : 1) * sizeof(int));
    A->x = malloc((size_t)(len[2] ? len[2] : 1) * sizeof(double));
    return A;
}

static void fill(bytes *b, struct fclib_matrix *A, const long long len[3])
{
    for (long long k = 0; k < len[0]; k++) A->p[k] = i16(b);
    for (long long k = 0; k < len[1]; k++) A->i[k] = i16(b);
    for (long long k = 0; k < len[2]; k++) A->x[k] = val(b);
}

static double *vector(bytes *b, long long n)
{
    double *v = malloc((size_t)(n ? n : 1) * sizeof(double));
    for (long long k = 0; k < n; k++) v[k] = val(b);
    return v;
}

static void free_matrix(struct fclib_matrix *A)
{
    if (!A) return;
    free(A->p);
    free(A->i);
    free(A->x);
    free(A);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bytes b = {data, size, 0};
    int mode = u8(&b);
    lcp_fclib_lengths len;
    memset(&len, 0, sizeof len);
    lcp_problem p;
    lcp_problem_init(&p);
    lcp_err err;
    if (!(mode & 1)) {
        struct fclib_local fl;
        memset(&fl, 0, sizeof fl);
        fl.spacedim = 3;
        fl.W = matrix(&b, mode & 2, len.W);
        if (mode & 4) {
            len.q = u8(&b);
            len.mu = u8(&b);
        } else {
            len.q = cap(fl.W->m);
            len.mu = cap(fl.W->m / 3);
        }
        fill(&b, fl.W, len.W);
        fl.q = vector(&b, len.q);
        fl.mu = vector(&b, len.mu);
        if (lcp_fclib_local_checked("fuzz.hdf5", &fl, &len, &p, &err) == 0) (void)lcp_problem_finish(&p, &err);
        free_matrix(fl.W);
        free(fl.q);
        free(fl.mu);
    } else {
        struct fclib_global fg;
        memset(&fg, 0, sizeof fg);
        fg.spacedim = 3;
        fg.M = matrix(&b, mode & 2, len.M);
        fg.H = matrix(&b, mode & 2, len.H);
        if (mode & 4) {
            len.f = u8(&b);
            len.w = u8(&b);
            len.mu = u8(&b);
        } else {
            len.f = cap(fg.M->m);
            len.w = cap(fg.H->n);
            len.mu = cap(fg.H->n / 3);
        }
        fill(&b, fg.M, len.M);
        fill(&b, fg.H, len.H);
        fg.f = vector(&b, len.f);
        fg.w = vector(&b, len.w);
        fg.mu = vector(&b, len.mu);
        if (lcp_fclib_global_checked("fuzz.hdf5", &fg, &len, &p, &err) == 0) (void)lcp_problem_finish(&p, &err);
        free_matrix(fg.M);
        free_matrix(fg.H);
        free(fg.f);
        free(fg.w);
        free(fg.mu);
    }
    lcp_problem_free(&p);
    return 0;
}
