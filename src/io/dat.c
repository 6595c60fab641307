/* src/io/dat.c: Siconos Numerics text files (.dat), LCP and FrictionContact.
 *
 * A file is a sequence of whitespace-separated tokens; line breaks carry no
 * meaning, but every token's line is tracked for error messages.
 *
 *   LCP:             n  NumericsMatrix(n x n)  q[n]  [anything]
 *   FrictionContact: d  nc  NumericsMatrix(d*nc x d*nc)  q[d*nc]  mu[nc]  [anything]
 *
 * Anything after the last vector (comments such as "# from Murty", trailing
 * flags "0"/"1") is ignored.  Only d = 3 is accepted.
 *
 * NumericsMatrix, as Siconos' NM_write_in_file prints it:
 *   storageType size0 size1, then by storage type
 *   0 dense:  "size0 size1" again, then size0*size1 values, column by column;
 *   1 sparse block (SBM): nbblocks; when nbblocks > 0:
 *             blocknumber0 blocknumber1,
 *             blocksize0[blocknumber0]  (cumulative row-block ends, e.g. 3 6 9),
 *             blocksize1[blocknumber1]  (cumulative column-block ends),
 *             filled1 filled2,
 *             index1_data[filled1]      (row-block pointers into the blocks),
 *             index2_data[filled2]      (column-block index of each block),
 *             then for each block in storage order: its number, then its
 *             rows*columns values column by column;
 *   2 sparse (CSparse, NSM_write_in_file): origin (1 triplet, 2 csc, 3 csr),
 *             a "CSparse Version ..." line, a header line
 *             "[triplet: ]M-by-N, nzmax: Z nnz: K[, 1-norm: G]", then the
 *             entries as cs_print prints them: triplet "i j : x" K times;
 *             compressed, per outer index j: "col j : locations a to b" then
 *             "i : x" for each of a..b (for origin csr, "col" is a row).
 *
 * The reader never trusts a count: each is checked to be an integer in
 * [0, INT_MAX] and against the bytes left in the file before anything is
 * allocated from it (every value takes at least two bytes), so a header that
 * claims 10^12 entries is refused at once.  Values must be finite.
 */
#include "io.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Tokenizer                                                                */
/* ------------------------------------------------------------------------ */

typedef struct {
    const char *path;  /* for messages */
    lcp_err *err;
    const char *buf;   /* whole file */
    size_t len, pos;   /* length, read position */
    long line;         /* line of buf[pos] */
    const char *tok;   /* last token (not NUL-terminated) */
    size_t toklen;
    long tokline;      /* line of the last token (1 before any) */
} lexer;

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Reads the next token; 0 at end of file. */
static int lex_next(lexer *lx)
{
    while (lx->pos < lx->len && is_blank(lx->buf[lx->pos])) {
        if (lx->buf[lx->pos] == '\n') lx->line++;
        lx->pos++;
    }
    if (lx->pos >= lx->len) return 0;
    size_t start = lx->pos;
    while (lx->pos < lx->len && !is_blank(lx->buf[lx->pos])) lx->pos++;
    lx->tok = lx->buf + start;
    lx->toklen = lx->pos - start;
    lx->tokline = lx->line;
    return 1;
}

/* Skips the rest of the current line. */
static void lex_skip_line(lexer *lx)
{
    while (lx->pos < lx->len && lx->buf[lx->pos] != '\n') lx->pos++;
    if (lx->pos < lx->len) {
        lx->pos++;
        lx->line++;
    }
}

/* The last token, printable and shortened, for messages. */
static const char *lex_show(const lexer *lx, char out[48])
{
    size_t n = lx->toklen < 32 ? lx->toklen : 32, k;
    for (k = 0; k < n; k++) {
        unsigned char c = (unsigned char)lx->tok[k];
        out[k] = (c >= 32 && c < 127) ? (char)c : '?';
    }
    if (lx->toklen > n) {
        memcpy(out + k, "...", 3);
        k += 3;
    }
    out[k] = '\0';
    return out;
}

/* Records "PATH:LINE: message" and returns LCP_INPUT_ERROR. */
static int lex_fail(lexer *lx, long line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int lex_fail(lexer *lx, long line, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return lcp_fail(lx->err, LCP_INPUT_ERROR, lx->path, line, "%s", msg);
}

static int lex_oom(lexer *lx)
{
    return lcp_fail(lx->err, LCP_ERROR, lx->path, 0, "out of memory");
}

/* Reads the next token or fails with "unexpected end of file". */
static int lex_need(lexer *lx, const char *what)
{
    if (lex_next(lx)) return 0;
    return lex_fail(lx, lx->tokline, "unexpected end of file, expected %s", what);
}

/* The last token as a C string in tmp (size bytes); 0 if empty, too long or
 * holding a NUL byte. */
static int tok_cstr(const lexer *lx, char *tmp, size_t size)
{
    if (lx->toklen == 0 || lx->toklen >= size || memchr(lx->tok, '\0', lx->toklen)) return 0;
    memcpy(tmp, lx->tok, lx->toklen);
    tmp[lx->toklen] = '\0';
    return 1;
}

/* Parses the last token as a whole integer (no range check beyond long long). */
static int tok_ll(const lexer *lx, long long *v)
{
    char tmp[64];
    if (!tok_cstr(lx, tmp, sizeof tmp)) return 0;
    char *end;
    errno = 0;
    long long x = strtoll(tmp, &end, 10);
    if (*end != '\0' || errno == ERANGE) return 0;
    *v = x;
    return 1;
}

/* Next token as an integer. */
static int lex_int(lexer *lx, const char *what, long long *v)
{
    int rc = lex_need(lx, what);
    if (rc) return rc;
    char show[48];
    if (!tok_ll(lx, v))
        return lex_fail(lx, lx->tokline, "expected %s (an integer), found '%s'", what,
                        lex_show(lx, show));
    return 0;
}

/* Next token as a count in [0, INT_MAX]. */
static int lex_count(lexer *lx, const char *what, int *v)
{
    long long x;
    int rc = lex_int(lx, what, &x);
    if (rc) return rc;
    if (x < 0) return lex_fail(lx, lx->tokline, "%s is negative (%lld)", what, x);
    if (x > INT_MAX)
        return lex_fail(lx, lx->tokline, "%s = %lld is too large (at most %d)", what, x, INT_MAX);
    *v = (int)x;
    return 0;
}

/* Parses the last token as a finite double. */
static int tok_double(lexer *lx, const char *what, double *v)
{
    char tmp[128], show[48];
    if (!tok_cstr(lx, tmp, sizeof tmp))
        return lex_fail(lx, lx->tokline, "expected %s (a number), found '%s'", what,
                        lex_show(lx, show));
    char *end;
    double x = strtod(tmp, &end);
    if (*end != '\0' || end == tmp)
        return lex_fail(lx, lx->tokline, "expected %s (a number), found '%s'", what,
                        lex_show(lx, show));
    if (!isfinite(x))
        return lex_fail(lx, lx->tokline, "%s is not a finite number: '%s'", what,
                        lex_show(lx, show));
    *v = x;
    return 0;
}

/* Next token as a finite double. */
static int lex_double(lexer *lx, const char *what, double *v)
{
    int rc = lex_need(lx, what);
    return rc ? rc : tok_double(lx, what, v);
}

/* Next token must be exactly `word`. */
static int lex_word(lexer *lx, const char *word)
{
    int rc = lex_need(lx, word);
    if (rc) return rc;
    char show[48];
    if (lx->toklen != strlen(word) || memcmp(lx->tok, word, lx->toklen) != 0)
        return lex_fail(lx, lx->tokline, "expected '%s', found '%s'", word, lex_show(lx, show));
    return 0;
}

/* Refuses a claim of `count` more tokens when the rest of the file cannot
 * hold them (each takes at least one character and one separator). */
static int lex_room(lexer *lx, long long count, const char *what)
{
    unsigned long long left = (unsigned long long)(lx->len - lx->pos);
    if (count > 0 && (unsigned long long)count > (left + 1) / 2)
        return lex_fail(lx, lx->tokline,
                        "%s: %lld values claimed, but only %llu bytes are left in the file",
                        what, count, left);
    /* --max-memory: a value ends up in triplets and CSR, about 32 bytes */
    char b1[32], b2[32];
    if (count > 0 && !lcp_memory_fits((double)count * 32.0))
        return lex_fail(lx, lx->tokline, "%s: %lld values need about %s, more than --max-memory %s", what, count,
                        lcp_bytes_str((double)count * 32.0, b1), lcp_bytes_str((double)lcp_memory_limit, b2));
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Matrices                                                                 */
/* ------------------------------------------------------------------------ */

/* Triplets collected while reading a sparse or block matrix. */
typedef struct {
    int *ti, *tj;
    double *tx;
    long nz, cap;
} triplets;

static void trip_free(triplets *t)
{
    free(t->ti);
    free(t->tj);
    free(t->tx);
    memset(t, 0, sizeof *t);
}

static int trip_alloc(triplets *t, long cap)
{
    memset(t, 0, sizeof *t);
    t->ti = lcp_alloc((size_t)cap, sizeof(int));
    t->tj = lcp_alloc((size_t)cap, sizeof(int));
    t->tx = lcp_alloc((size_t)cap, sizeof(double));
    t->cap = cap;
    if (!t->ti || !t->tj || !t->tx) {
        trip_free(t);
        return LCP_ERROR;
    }
    return 0;
}

/* Appends (i, j, x), dropping exact zeros (as the dense path does); the
 * capacity was sized from the file's own count, so it never overflows. */
static void trip_push(triplets *t, int i, int j, double x)
{
    if (x == 0.0 || t->nz >= t->cap) return;
    t->ti[t->nz] = i;
    t->tj[t->nz] = j;
    t->tx[t->nz] = x;
    t->nz++;
}

static int trip_to_csr(lexer *lx, triplets *t, int m, int n, lcp_csr *A)
{
    int rc = lcp_csr_from_triplets(A, m, n, t->nz, t->ti, t->tj, t->tx);
    trip_free(t);
    if (rc == LCP_INPUT_ERROR) /* cannot happen: every index was range-checked */
        return lex_fail(lx, lx->tokline, "matrix entry outside the %d x %d matrix", m, n);
    return rc ? lex_oom(lx) : 0;
}

/* Storage 0: "size0 size1" then size0*size1 values, column-major. */
static int read_dense(lexer *lx, int m, int n, lcp_csr *A)
{
    int m2, n2, rc;
    if ((rc = lex_count(lx, "the dense matrix rows (size0)", &m2))) return rc;
    if ((rc = lex_count(lx, "the dense matrix columns (size1)", &n2))) return rc;
    if (m2 != m || n2 != n)
        return lex_fail(lx, lx->tokline, "dense matrix: repeated size %d x %d differs from %d x %d",
                        m2, n2, m, n);
    long long count = (long long)m * n;
    if ((rc = lex_room(lx, count, "dense matrix"))) return rc;
    double *a = lcp_alloc((size_t)count, sizeof(double));
    if (!a) return lex_oom(lx);
    for (long long k = 0; k < count; k++) {
        if (!lex_next(lx)) {
            free(a);
            return lex_fail(lx, lx->tokline,
                            "unexpected end of file: dense matrix has %lld of %lld values", k,
                            count);
        }
        if ((rc = tok_double(lx, "a matrix value", &a[k]))) {
            free(a);
            return rc;
        }
    }
    rc = lcp_csr_from_dense_colmajor(A, m, n, a);
    free(a);
    return rc ? lex_oom(lx) : 0;
}

/* Reads `count` cumulative block ends, strictly increasing from > 0 and
 * ending at `total` (size0 or size1). */
static int read_block_ends(lexer *lx, int count, int total, const char *what, int *ends)
{
    int rc;
    for (int k = 0; k < count; k++) {
        if ((rc = lex_count(lx, what, &ends[k]))) return rc;
        int prev = k ? ends[k - 1] : 0;
        if (ends[k] <= prev)
            return lex_fail(lx, lx->tokline,
                            "%s not increasing: %d after %d (they are cumulative block ends)",
                            what, ends[k], prev);
        if (ends[k] > total)
            return lex_fail(lx, lx->tokline, "%s: %d exceeds the matrix size %d", what, ends[k],
                            total);
    }
    if (ends[count - 1] != total)
        return lex_fail(lx, lx->tokline, "%s end at %d, expected %d", what, ends[count - 1], total);
    return 0;
}

/* The block structure of an SBM matrix (everything before the values). */
typedef struct {
    int nbblocks, bn0, bn1, filled1, filled2;
    int *bs0, *bs1;  /* cumulative block ends */
    int *idx1;       /* row-block pointers, filled1 */
    int *idx2;       /* column-block index of each block, filled2 */
} sbm_shape;

static void sbm_free(sbm_shape *s)
{
    free(s->bs0);
    free(s->bs1);
    free(s->idx1);
    free(s->idx2);
}

/* Reads and checks the SBM structure after nbblocks (> 0). */
static int read_sbm_shape(lexer *lx, int m, int n, sbm_shape *s)
{
    int rc;
    if ((rc = lex_room(lx, s->nbblocks, "sparse block matrix blocks"))) return rc;
    if ((rc = lex_count(lx, "the number of row blocks (blocknumber0)", &s->bn0))) return rc;
    if (s->bn0 < 1 || s->bn0 > m)
        return lex_fail(lx, lx->tokline, "blocknumber0 = %d, expected 1..%d (the rows)", s->bn0, m);
    if ((rc = lex_count(lx, "the number of column blocks (blocknumber1)", &s->bn1))) return rc;
    if (s->bn1 < 1 || s->bn1 > n)
        return lex_fail(lx, lx->tokline, "blocknumber1 = %d, expected 1..%d (the columns)", s->bn1,
                        n);
    if ((rc = lex_room(lx, (long long)s->bn0 + s->bn1, "block sizes"))) return rc;
    s->bs0 = lcp_alloc((size_t)s->bn0, sizeof(int));
    s->bs1 = lcp_alloc((size_t)s->bn1, sizeof(int));
    if (!s->bs0 || !s->bs1) return lex_oom(lx);
    if ((rc = read_block_ends(lx, s->bn0, m, "row block sizes", s->bs0))) return rc;
    if ((rc = read_block_ends(lx, s->bn1, n, "column block sizes", s->bs1))) return rc;

    if ((rc = lex_count(lx, "filled1 (block row pointers)", &s->filled1))) return rc;
    if (s->filled1 < 2 || s->filled1 > s->bn0 + 1)
        return lex_fail(lx, lx->tokline, "filled1 = %d, expected 2..%d (blocknumber0 + 1)",
                        s->filled1, s->bn0 + 1);
    if ((rc = lex_count(lx, "filled2 (number of blocks)", &s->filled2))) return rc;
    if (s->filled2 != s->nbblocks)
        return lex_fail(lx, lx->tokline, "filled2 = %d differs from nbblocks = %d", s->filled2,
                        s->nbblocks);
    if ((rc = lex_room(lx, (long long)s->filled1 + s->filled2, "block index arrays"))) return rc;
    s->idx1 = lcp_alloc((size_t)s->filled1, sizeof(int));
    s->idx2 = lcp_alloc((size_t)s->filled2, sizeof(int));
    if (!s->idx1 || !s->idx2) return lex_oom(lx);
    for (int k = 0; k < s->filled1; k++) {
        if ((rc = lex_count(lx, "a block row pointer", &s->idx1[k]))) return rc;
        if (k == 0 && s->idx1[0] != 0)
            return lex_fail(lx, lx->tokline, "block row pointers must start at 0, found %d",
                            s->idx1[0]);
        if (k > 0 && s->idx1[k] < s->idx1[k - 1])
            return lex_fail(lx, lx->tokline, "block row pointers not increasing: %d after %d",
                            s->idx1[k], s->idx1[k - 1]);
        if (s->idx1[k] > s->filled2)
            return lex_fail(lx, lx->tokline, "block row pointer %d exceeds the %d blocks",
                            s->idx1[k], s->filled2);
    }
    if (s->idx1[s->filled1 - 1] != s->filled2)
        return lex_fail(lx, lx->tokline, "block row pointers end at %d, expected %d (filled2)",
                        s->idx1[s->filled1 - 1], s->filled2);
    for (int k = 0; k < s->filled2; k++) {
        if ((rc = lex_count(lx, "a block column index", &s->idx2[k]))) return rc;
        if (s->idx2[k] >= s->bn1)
            return lex_fail(lx, lx->tokline, "block column index %d out of range 0..%d",
                            s->idx2[k], s->bn1 - 1);
    }
    return 0;
}

/* Reads every block's number and values into triplets. */
static int read_sbm_blocks(lexer *lx, const sbm_shape *s, triplets *t)
{
    int rc;
    for (int r = 0; r + 1 < s->filled1; r++) {
        int r0 = r ? s->bs0[r - 1] : 0, rows = s->bs0[r] - r0;
        for (int b = s->idx1[r]; b < s->idx1[r + 1]; b++) {
            int c = s->idx2[b], c0 = c ? s->bs1[c - 1] : 0, cols = s->bs1[c] - c0;
            long long num;
            if ((rc = lex_int(lx, "a block number", &num))) return rc;
            if (num != b)
                return lex_fail(lx, lx->tokline, "block number %lld, expected %d", num, b);
            long long count = (long long)rows * cols;
            for (long long k = 0; k < count; k++) {
                double x;
                if (!lex_next(lx))
                    return lex_fail(lx, lx->tokline,
                                    "unexpected end of file: block %d has %lld of %lld values", b,
                                    k, count);
                if ((rc = tok_double(lx, "a block value", &x))) return rc;
                trip_push(t, r0 + (int)(k % rows), c0 + (int)(k / rows), x);
            }
        }
    }
    return 0;
}

/* Storage 1: sparse block matrix. */
static int read_sbm(lexer *lx, int m, int n, lcp_csr *A)
{
    sbm_shape s;
    memset(&s, 0, sizeof s);
    int rc = lex_count(lx, "the number of blocks (nbblocks)", &s.nbblocks);
    if (rc) return rc;
    if (s.nbblocks == 0) { /* an all-zero matrix: nothing more follows, but a vector of m values does */
        if ((long long)m > (long long)(lx->len - lx->pos) / 2 + 1)
            return lex_fail(lx, lx->tokline, "an all-zero %d x %d matrix, but the %zu bytes left in the file "
                            "cannot hold a vector of %d values", m, n, lx->len - lx->pos, m);
        return lcp_csr_alloc(A, m, n, 0) ? lex_oom(lx) : 0;
    }
    if ((rc = read_sbm_shape(lx, m, n, &s))) goto done;
    /* total values, checked against the file before allocating */
    long long total = 0;
    for (int r = 0; r + 1 < s.filled1; r++) {
        int rows = s.bs0[r] - (r ? s.bs0[r - 1] : 0);
        for (int b = s.idx1[r]; b < s.idx1[r + 1]; b++) {
            int c = s.idx2[b], cols = s.bs1[c] - (c ? s.bs1[c - 1] : 0);
            total += (long long)rows * cols; /* no overflow: checked at every step */
            if ((rc = lex_room(lx, total, "sparse block matrix values"))) goto done;
        }
    }
    if (total > INT_MAX) {
        rc = lex_fail(lx, lx->tokline, "sparse block matrix: %lld values is too many", total);
        goto done;
    }
    triplets t;
    if (trip_alloc(&t, (long)total)) {
        rc = lex_oom(lx);
        goto done;
    }
    if ((rc = read_sbm_blocks(lx, &s, &t))) {
        trip_free(&t);
        goto done;
    }
    rc = trip_to_csr(lx, &t, m, n, A);
done:
    sbm_free(&s);
    return rc;
}

/* Parses "M-by-N," (the comma optional). */
static int parse_m_by_n(const lexer *lx, long long *M, long long *N)
{
    char tmp[64];
    if (!tok_cstr(lx, tmp, sizeof tmp)) return 0;
    char *end;
    errno = 0;
    *M = strtoll(tmp, &end, 10);
    if (end == tmp || strncmp(end, "-by-", 4) != 0) return 0;
    char *s = end + 4;
    *N = strtoll(s, &end, 10);
    if (end == s || errno == ERANGE) return 0;
    return *end == '\0' || (end[0] == ',' && end[1] == '\0');
}

/* Next token as a count that may carry a trailing comma ("30,"). */
static int lex_count_comma(lexer *lx, const char *what, int *v)
{
    int rc = lex_need(lx, what);
    if (rc) return rc;
    if (lx->toklen > 1 && lx->tok[lx->toklen - 1] == ',') lx->toklen--;
    long long x;
    char show[48];
    if (!tok_ll(lx, &x))
        return lex_fail(lx, lx->tokline, "expected %s (an integer), found '%s'", what,
                        lex_show(lx, show));
    if (x < 0 || x > INT_MAX)
        return lex_fail(lx, lx->tokline, "%s = %lld is out of range", what, x);
    *v = (int)x;
    return 0;
}

/* Storage 2, triplet body: K lines "i j : x". */
static int read_cs_triplet(lexer *lx, int m, int n, int K, triplets *t)
{
    int rc;
    for (int k = 0; k < K; k++) {
        long long i, j;
        double x;
        if ((rc = lex_int(lx, "a row index", &i))) return rc;
        if ((rc = lex_int(lx, "a column index", &j))) return rc;
        if (i < 0 || i >= m || j < 0 || j >= n)
            return lex_fail(lx, lx->tokline, "entry (%lld, %lld) outside the %d x %d matrix", i, j,
                            m, n);
        if ((rc = lex_word(lx, ":"))) return rc;
        if ((rc = lex_double(lx, "a matrix value", &x))) return rc;
        trip_push(t, (int)i, (int)j, x);
    }
    return 0;
}

/* Storage 2, compressed body: per outer index "col j : locations a to b",
 * then "i : x" for a..b.  csr: the outer index is a row. */
static int read_cs_compressed(lexer *lx, int m, int n, int K, int csr, triplets *t)
{
    int nouter = csr ? m : n, ninner = csr ? n : m, rc;
    long count = 0;
    for (int j = 0; j < nouter; j++) {
        long long jj, a, b;
        if ((rc = lex_word(lx, "col"))) return rc;
        if ((rc = lex_int(lx, "the column number", &jj))) return rc;
        if (jj != j) return lex_fail(lx, lx->tokline, "column %lld, expected %d", jj, j);
        if ((rc = lex_word(lx, ":")) || (rc = lex_word(lx, "locations"))) return rc;
        if ((rc = lex_int(lx, "the first location", &a))) return rc;
        if ((rc = lex_word(lx, "to"))) return rc;
        if ((rc = lex_int(lx, "the last location", &b))) return rc;
        if (a != count)
            return lex_fail(lx, lx->tokline, "column %d: locations start at %lld, expected %ld", j,
                            a, count);
        if (b + 1 < a || b + 1 > K)
            return lex_fail(lx, lx->tokline, "column %d: locations %lld to %lld outside 0..%d", j,
                            a, b, K - 1);
        for (; count <= b; count++) {
            long long i;
            double x;
            if ((rc = lex_int(lx, "a row index", &i))) return rc;
            if (i < 0 || i >= ninner)
                return lex_fail(lx, lx->tokline, "index %lld out of range 0..%d", i, ninner - 1);
            if ((rc = lex_word(lx, ":"))) return rc;
            if ((rc = lex_double(lx, "a matrix value", &x))) return rc;
            trip_push(t, csr ? j : (int)i, csr ? (int)i : j, x);
        }
    }
    if (count != K)
        return lex_fail(lx, lx->tokline, "sparse matrix has %ld entries, its header says %d", count,
                        K);
    return 0;
}

/* Storage 2: a CSparse matrix as printed by NSM_write_in_file. */
static int read_sparse(lexer *lx, int m, int n, lcp_csr *A)
{
    long long origin, M, N;
    int rc, nzmax = 0, K = 0, triplet = 0;
    char show[48];
    if ((rc = lex_int(lx, "the sparse origin (1 triplet, 2 csc, 3 csr)", &origin))) return rc;
    if (origin < 1 || origin > 3)
        return lex_fail(lx, lx->tokline,
                        "unknown sparse origin %lld (expected 1 triplet, 2 csc, 3 csr)", origin);
    lex_skip_line(lx);
    lexer save = *lx; /* the "CSparse Version ..." line, when present */
    if (lex_next(lx) && lx->toklen == 7 && memcmp(lx->tok, "CSparse", 7) == 0) lex_skip_line(lx);
    else *lx = save;
    if ((rc = lex_need(lx, "the sparse matrix header ('M-by-N,')"))) return rc;
    if (lx->toklen == 8 && memcmp(lx->tok, "triplet:", 8) == 0) {
        triplet = 1;
        if ((rc = lex_need(lx, "the sparse matrix size ('M-by-N,')"))) return rc;
    }
    if (!parse_m_by_n(lx, &M, &N))
        return lex_fail(lx, lx->tokline, "expected the sparse matrix size ('M-by-N,'), found '%s'",
                        lex_show(lx, show));
    if (M != m || N != n)
        return lex_fail(lx, lx->tokline, "sparse matrix is %lld x %lld, expected %d x %d", M, N, m,
                        n);
    if ((rc = lex_word(lx, "nzmax:"))) return rc;
    if ((rc = lex_count(lx, "nzmax", &nzmax))) return rc;
    if ((rc = lex_word(lx, "nnz:"))) return rc;
    if ((rc = lex_count_comma(lx, "the number of entries (nnz)", &K))) return rc;
    if (!triplet) lex_skip_line(lx); /* ", 1-norm: G" */
    /* triplet entries take 4 tokens, compressed ones 3 plus 7 per column */
    long long tokens = triplet ? 4LL * K : 3LL * K + 7LL * (origin == 3 ? m : n);
    if ((rc = lex_room(lx, tokens, "sparse matrix entries"))) return rc;
    triplets t;
    if (trip_alloc(&t, K)) return lex_oom(lx);
    rc = triplet ? read_cs_triplet(lx, m, n, K, &t)
                 : read_cs_compressed(lx, m, n, K, origin == 3, &t);
    if (rc) {
        trip_free(&t);
        return rc;
    }
    return trip_to_csr(lx, &t, m, n, A);
}

/* A NumericsMatrix that must be m x n. */
static int read_matrix(lexer *lx, int m, int n, lcp_csr *A)
{
    long long storage;
    int size0, size1, rc;
    if ((rc = lex_int(lx, "the matrix storage type", &storage))) return rc;
    long storage_line = lx->tokline;
    if ((rc = lex_count(lx, "the matrix rows (size0)", &size0))) return rc;
    if ((rc = lex_count(lx, "the matrix columns (size1)", &size1))) return rc;
    if (size0 != m || size1 != n)
        return lex_fail(lx, lx->tokline, "matrix is %d x %d, expected %d x %d", size0, size1, m, n);
    switch (storage) {
    case 0: return read_dense(lx, m, n, A);
    case 1: return read_sbm(lx, m, n, A);
    case 2: return read_sparse(lx, m, n, A);
    default:
        return lex_fail(lx, storage_line,
                        "unknown matrix storage type %lld (0 dense, 1 sparse block, 2 sparse)",
                        storage);
    }
}

/* n finite values. */
static int read_vector(lexer *lx, int n, const char *name, double **v)
{
    int rc = lex_room(lx, n, name);
    if (rc) return rc;
    double *x = lcp_alloc((size_t)n, sizeof(double));
    if (!x) return lex_oom(lx);
    char what[64];
    snprintf(what, sizeof what, "a value of %s", name);
    for (int k = 0; k < n; k++) {
        if (!lex_next(lx)) {
            free(x);
            return lex_fail(lx, lx->tokline, "unexpected end of file: %s has %d of %d values", name,
                            k, n);
        }
        if ((rc = tok_double(lx, what, &x[k]))) {
            free(x);
            return rc;
        }
    }
    *v = x;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Problems                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct {
    int n, nc;
    lcp_csr A;
    double *b, *mu;
} dat_data;

static void dat_data_free(dat_data *d)
{
    lcp_csr_free(&d->A);
    free(d->b);
    free(d->mu);
}

/* LCP: n, NumericsMatrix n x n, q[n]. */
static int read_lcp(lexer *lx, dat_data *d)
{
    int rc = lex_count(lx, "the problem size n", &d->n);
    if (rc) return rc;
    if (d->n == 0) return lex_fail(lx, lx->tokline, "n = 0: the problem is empty");
    if ((rc = read_matrix(lx, d->n, d->n, &d->A))) return rc;
    return read_vector(lx, d->n, "q", &d->b);
}

/* FrictionContact: d (= 3), nc, NumericsMatrix 3nc x 3nc, q[3nc], mu[nc]. */
static int read_friction(lexer *lx, dat_data *d)
{
    long long dim;
    int rc = lex_int(lx, "the contact dimension d", &dim);
    if (rc) return rc;
    if (dim == 2)
        return lex_fail(lx, lx->tokline,
                        "2D friction problems (d = 2) are not supported; only d = 3 is");
    if (dim != 3)
        return lex_fail(lx, lx->tokline, "contact dimension d = %lld, expected 3", dim);
    if ((rc = lex_count(lx, "the number of contacts nc", &d->nc))) return rc;
    if (d->nc == 0) return lex_fail(lx, lx->tokline, "nc = 0: the problem has no contacts");
    if (d->nc > INT_MAX / 3)
        return lex_fail(lx, lx->tokline, "nc = %d is too large (3 nc exceeds %d)", d->nc, INT_MAX);
    d->n = 3 * d->nc;
    if ((rc = read_matrix(lx, d->n, d->n, &d->A))) return rc;
    if ((rc = read_vector(lx, d->n, "q", &d->b))) return rc;
    return read_vector(lx, d->nc, "mu", &d->mu);
}

/* Guesses the content from the first five tokens (without consuming them).
 *   LCP:      n  s  n  n ...        with s in {0, 1, 2}
 *   friction: d  nc s  dnc dnc ...  with d in {2, 3}, s in {0, 1, 2}
 * Both fit only for "2 s 2 2 2" (an LCP with n = 2, or a d = 2 friction
 * problem with one contact): read as LCP.  A file that fits neither is read
 * as friction when its first four tokens do (d in {2, 3}, nc, a storage
 * type, size0 = d nc), so that its errors speak of friction, and as LCP
 * otherwise. */
static int looks_friction(const lexer *lx0)
{
    lexer lx = *lx0;
    long long t[5] = {-1, -1, -1, -1, -1};
    for (int k = 0; k < 5; k++)
        if (!lex_next(&lx) || !tok_ll(&lx, &t[k])) break;
    int lcp = t[1] >= 0 && t[1] <= 2 && t[2] == t[0] && t[3] == t[0];
    if (lcp) return 0;
    return (t[0] == 2 || t[0] == 3) && t[2] >= 0 && t[2] <= 2 && t[1] >= 0 && t[1] <= INT_MAX &&
           t[3] == t[0] * t[1];
}

int lcp_read_dat(const char *path, lcp_kind kind_hint, lcp_problem *p, lcp_err *err)
{
    char *buf = NULL;
    size_t len = 0;
    int rc = lcp_read_bytes(path, (size_t)INT_MAX, &buf, &len, err); /* lcp_read_dat_text checks the text */
    if (rc) return rc;
    rc = lcp_read_dat_text(strcmp(path, "-") ? path : "<stdin>", buf, len, kind_hint, p, err);
    free(buf);
    return rc;
}

int lcp_read_dat_text(const char *path, const char *text, size_t len, lcp_kind kind_hint, lcp_problem *p,
                      lcp_err *err)
{
    int friction;
    switch (kind_hint) {
    case LCP_KIND_NONE: friction = -1; break;
    case LCP_KIND_LCP:
    case LCP_KIND_BLCP: friction = 0; break; /* an LCP is a BLCP with bounds 0, +inf */
    case LCP_KIND_CCP:
    case LCP_KIND_FC3D: friction = 1; break;
    default:
        return lcp_fail(err, LCP_INPUT_ERROR, path, 0,
                        "a Siconos .dat file holds an lcp or a friction problem (kind %d asked)",
                        (int)kind_hint);
    }
    int rc = lcp_check_text(path, text, len, err);
    if (rc) return rc;
    lexer lx = {.path = path, .err = err, .buf = text, .len = len, .line = 1, .tokline = 1};
    if (friction < 0) friction = looks_friction(&lx);
    dat_data d;
    memset(&d, 0, sizeof d);
    rc = friction ? read_friction(&lx, &d) : read_lcp(&lx, &d);
    char *fmt = NULL, *src = NULL;
    if (!rc) {
        fmt = lcp_strdup("dat");
        src = lcp_strdup(path);
        if (!fmt || !src) rc = lcp_fail(err, LCP_ERROR, path, 0, "out of memory");
    }
    if (rc) {
        free(fmt);
        free(src);
        dat_data_free(&d);
        return rc;
    }
    if (friction)
        p->kind = kind_hint == LCP_KIND_NONE ? LCP_KIND_FC3D : kind_hint;
    else
        p->kind = kind_hint == LCP_KIND_BLCP ? LCP_KIND_BLCP : LCP_KIND_LCP;
    p->n = d.n;
    p->nc = friction ? d.nc : 0;
    p->A = d.A;
    p->b = d.b;
    p->blen = d.n;
    p->mu = d.mu;
    p->nmu = friction ? d.nc : 0;
    p->format = fmt;
    p->source = src;
    return 0;
}
