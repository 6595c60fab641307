/* src/io/mtx.c: Matrix Market files.
 *
 * Parsing is CHOLMOD's (cholmod_read_matrix: coordinate and array, general,
 * symmetric and skew-symmetric, real/integer).  Pattern files (positions
 * without values) are refused: every field of a problem, and every vector
 * read beside one (warm starts, references, ids), holds numbers, and
 * CHOLMOD would read a pattern as ones.  CHOLMOD is lenient,
 * so before a file reaches it mtx_validate() checks every line against the
 * format and names the line at fault: the header against the file's size (a
 * header that claims 10^12 entries is refused before anything is
 * allocated), indices, counts, triangles, finite values.
 * Writing (arrays for vectors, coordinates for matrices) is plain fprintf
 * through an atomic lcp_outfile.
 */
#include "io.h"
#include "../la/suitesparse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

typedef struct {
    int coordinate;  /* 1 coordinate, 0 array */
    int symmetric;   /* 1 symmetric, 2 skew-symmetric */
    long m, n, nnz;  /* declared sizes (for arrays: the number of stored values) */
    long size_line;  /* line of the size line */
    int long_lines;  /* some line is longer than CHOLMOD's line buffer */
} mtx_header;

/* The next line (any length) into *buf; returns its length, -1 at EOF, or
 * -2 when the line holds a NUL byte (a text file has none; C string
 * functions, CHOLMOD's too, would read the line as ending there). */
static long next_line(FILE *f, char **buf, size_t *cap, long *lineno)
{
    ssize_t len = getline(buf, cap, f);
    if (len < 0) return -1;
    ++*lineno;
    return memchr(*buf, '\0', (size_t)len) ? -2 : (long)len;
}

static int nul_fail(lcp_err *err, const char *path, long lineno, const char *line)
{
    return lcp_fail(err, LCP_INPUT_ERROR, path, lineno, "NUL byte in a text file (column %zu)", strlen(line) + 1);
}

static int blank_or_comment(const char *s)
{
    while (isspace((unsigned char)*s)) s++;
    return *s == '%' || *s == '\0';
}

/* Reads the banner and size line; checks the claims against the file size. */
static int mtx_read_header(FILE *f, const char *path, long fsize, mtx_header *h, long *lineno, char **line,
                           size_t *cap, lcp_err *err)
{
    char obj[64], fmt[64], field[64], sym[64];
    memset(h, 0, sizeof *h);
    *lineno = 0;
    long got_line = next_line(f, line, cap, lineno);
    if (got_line == -1) return lcp_fail(err, LCP_INPUT_ERROR, path, 1, "empty file");
    if (got_line == -2) return nul_fail(err, path, *lineno, *line);
    if (sscanf(*line, "%%%%MatrixMarket %63s %63s %63s %63s", obj, fmt, field, sym) != 4 ||
        strcasecmp(obj, "matrix") != 0)
        return lcp_fail(err, LCP_INPUT_ERROR, path, 1,
                        "not a Matrix Market file (expected '%%%%MatrixMarket matrix FORMAT FIELD SYMMETRY')");
    if (!strcasecmp(fmt, "coordinate")) h->coordinate = 1;
    else if (strcasecmp(fmt, "array"))
        return lcp_fail(err, LCP_INPUT_ERROR, path, 1, "unknown format '%s' (coordinate or array)", fmt);
    if (!strcasecmp(field, "pattern"))
        return lcp_fail(err, LCP_INPUT_ERROR, path, 1,
                        "pattern matrix where numbers are needed (positions without values: write the "
                        "field as real or integer)");
    if (strcasecmp(field, "real") && strcasecmp(field, "integer"))
        return lcp_fail(err, LCP_INPUT_ERROR, path, 1, "unsupported field '%s' (real or integer)", field);
    if (!strcasecmp(sym, "symmetric")) h->symmetric = 1;
    else if (!strcasecmp(sym, "skew-symmetric")) h->symmetric = 2;
    else if (strcasecmp(sym, "general"))
        return lcp_fail(err, LCP_INPUT_ERROR, path, 1, "unsupported symmetry '%s' (general, symmetric, skew-symmetric)",
                        sym);
    for (;;) {
        if ((got_line = next_line(f, line, cap, lineno)) == -1)
            return lcp_fail(err, LCP_INPUT_ERROR, path, *lineno, "no size line");
        if (got_line == -2) return nul_fail(err, path, *lineno, *line);
        if (strlen(*line) > 1000) h->long_lines = 1;
        if (!blank_or_comment(*line)) break;
    }
    h->size_line = *lineno;
    char extra[8];
    int got = h->coordinate ? sscanf(*line, "%ld %ld %ld %7s", &h->m, &h->n, &h->nnz, extra)
                            : sscanf(*line, "%ld %ld %7s", &h->m, &h->n, extra);
    if (got != (h->coordinate ? 3 : 2))
        return lcp_fail(err, LCP_INPUT_ERROR, path, *lineno,
                        h->coordinate ? "size line must be 'ROWS COLS ENTRIES'" : "size line must be 'ROWS COLS'");
    if (h->m < 0 || h->n < 0 || h->nnz < 0 || h->m > INT_MAX || h->n > INT_MAX || h->nnz > INT_MAX)
        return lcp_fail(err, LCP_INPUT_ERROR, path, *lineno, "sizes %ld x %ld (%ld entries) out of range", h->m,
                        h->n, h->nnz);
    if (h->symmetric && h->m != h->n)
        return lcp_fail(err, LCP_INPUT_ERROR, path, *lineno, "a %s matrix must be square, not %ld x %ld",
                        h->symmetric == 1 ? "symmetric" : "skew-symmetric", h->m, h->n);
    if (!h->coordinate) {
        if (h->n && h->m > LONG_MAX / h->n)
            return lcp_fail(err, LCP_INPUT_ERROR, path, *lineno, "sizes overflow");
        h->nnz = h->symmetric == 1 ? h->m * (h->m + 1) / 2 : h->symmetric == 2 ? h->m * (h->m - 1) / 2 : h->m * h->n;
    }
    /* every entry needs at least two bytes of text ("0\n"), coordinates four */
    if (fsize >= 0 && h->nnz > fsize / (h->coordinate ? 4 : 2))
        return lcp_fail(err, LCP_INPUT_ERROR, path, *lineno, "declares %ld entries but the file has only %ld bytes",
                        h->nnz, fsize);
    /* rows and columns cost memory even when empty (CHOLMOD's and our
     * pointer arrays): more than 2^24 need a file of 64 bytes a row/column */
    if ((double)h->m + (double)h->n > 16777216.0 && fsize >= 0 && (double)h->m + (double)h->n > 64.0 * (double)fsize)
        return lcp_fail(err, LCP_INPUT_ERROR, path, *lineno,
                        "%ld x %ld with %ld entries: that many empty rows and columns is not plausible for a "
                        "file of %ld bytes (at most 64 a byte beyond 2^24)", h->m, h->n, h->nnz, fsize);
    /* --max-memory: CHOLMOD's triplets, its sparse copy and our CSR, both
     * triangles of a symmetric file, about 40 bytes an entry */
    double need = (double)h->nnz * (h->symmetric ? 2 : 1) * 40.0 + ((double)h->m + (double)h->n) * 16.0;
    char b1[32], b2[32];
    if (!lcp_memory_fits(need))
        return lcp_fail(err, LCP_INPUT_ERROR, path, *lineno,
                        "%ld x %ld with %ld entries needs about %s, more than --max-memory %s", h->m, h->n, h->nnz,
                        lcp_bytes_str(need, b1), lcp_bytes_str((double)lcp_memory_limit, b2));
    return 0;
}

/* Reads one number at *s, advancing it; 0 when there is none. */
static int number(char **s, double *x)
{
    char *end;
    *x = strtod(*s, &end);
    if (end == *s) return 0;
    *s = end;
    return 1;
}

/* Checks every line of the file: CHOLMOD parses leniently (0-based or
 * fractional indices, extra entries, both triangles of a symmetric file,
 * overlong lines are all let through or misread), so nothing reaches it
 * that the Matrix Market format does not allow.  Names the line at fault. */
static int mtx_validate(FILE *f, const char *path, long fsize, int *long_lines, lcp_err *err)
{
    mtx_header h;
    long lineno = 0, count = 0;
    char *line = NULL;
    size_t cap = 0;
    int rc = mtx_read_header(f, path, fsize, &h, &lineno, &line, &cap, err);
    int want = h.coordinate ? 3 : 0;
    *long_lines = h.long_lines;
    long got_line;
    while (!rc && (got_line = next_line(f, &line, &cap, &lineno)) != -1) {
        if (got_line == -2) {
            rc = nul_fail(err, path, lineno, line);
            break;
        }
        if (strlen(line) > 1000) *long_lines = 1; /* CHOLMOD reads at most ~1030 a line */
        if (blank_or_comment(line)) continue;
        char *s = line;
        if (strlen(line) > 1000) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, lineno, "line longer than 1000 characters");
            break;
        }
        double tok[3];
        int k = 0;
        if (h.coordinate) {
            while (k < want && number(&s, &tok[k])) k++;
        } else { /* arrays: one value a line */
            k = number(&s, &tok[0]);
        }
        while (isspace((unsigned char)*s)) s++;
        if ((h.coordinate && k < want) || (!h.coordinate && k == 0) || *s) {
            line[strcspn(line, "\r\n")] = '\0';
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, lineno, "expected %s, found '%.40s'",
                          h.coordinate ? "'ROW COL VALUE'" : "a number", line);
            break;
        }
        if (count + 1 > h.nnz) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, lineno, "more entries than the %ld declared", h.nnz);
            break;
        }
        double v = h.coordinate ? tok[2] : tok[0];
        if (!isfinite(v) || fabs(v) >= 1e308) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, lineno, "value is not finite (or beyond 1e308)");
            break;
        }
        if (h.coordinate) {
            if (tok[0] != floor(tok[0]) || tok[1] != floor(tok[1]) || tok[0] < 1 || tok[0] > h.m || tok[1] < 1 ||
                tok[1] > h.n) {
                rc = lcp_fail(err, LCP_INPUT_ERROR, path, lineno,
                              "index (%g, %g) is not a 1-based position in the %ld x %ld matrix", tok[0], tok[1],
                              h.m, h.n);
                break;
            }
            if ((h.symmetric == 1 && tok[1] > tok[0]) || (h.symmetric == 2 && tok[1] >= tok[0])) {
                rc = lcp_fail(err, LCP_INPUT_ERROR, path, lineno,
                              "entry (%g, %g) is not below the diagonal of a %s file (store the lower triangle)",
                              tok[0], tok[1], h.symmetric == 1 ? "symmetric" : "skew-symmetric");
                break;
            }
        }
        count++;
    }
    if (!rc && count < h.nnz)
        rc = lcp_fail(err, LCP_INPUT_ERROR, path, lineno, "file ends after %ld of %ld entries", count, h.nnz);
    free(line);
    return rc;
}

/* Standard input copied to a temporary file, so it can be checked first. */
static FILE *spool_stdin(void)
{
    FILE *t = tmpfile();
    if (!t) return NULL;
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, stdin)) > 0)
        if (fwrite(buf, 1, k, t) != k) {
            fclose(t);
            return NULL;
        }
    rewind(t);
    return t;
}

/* A copy of a checked file without its comment lines (except the banner),
 * for CHOLMOD when some comment line is longer than its line buffer. */
static FILE *without_comments(FILE *f)
{
    FILE *t = tmpfile();
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    if (!t) return NULL;
    rewind(f);
    while (next_line(f, &line, &cap, &lineno) >= 0) /* checked: no NUL bytes */
        if (lineno == 1 || !blank_or_comment(line)) fputs(line, t);
    free(line);
    fclose(f);
    rewind(t);
    return t;
}

/* Reads any Matrix Market matrix into CSR: checked line by line by
 * mtx_validate(), then parsed by CHOLMOD (dense arrays become CSR too). */
int lcp_read_mtx_matrix(const char *path, lcp_csr *A, lcp_err *err)
{
    memset(A, 0, sizeof *A);
    int is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    FILE *f = is_stdin ? spool_stdin() : fopen(path, "r");
    if (!f) return lcp_fail(err, LCP_INPUT_ERROR, name, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode)) {
        fclose(f);
        return lcp_fail(err, LCP_INPUT_ERROR, name, 0, "is a folder, not a Matrix Market file");
    }
    int long_lines = 0;
    int rc = mtx_validate(f, name, S_ISREG(st.st_mode) ? (long)st.st_size : -1, &long_lines, err);
    if (rc) {
        fclose(f);
        return rc;
    }
    if (long_lines && !(f = without_comments(f)))
        return lcp_fail(err, LCP_ERROR, name, 0, "cannot make a temporary file");
    rewind(f);
    cholmod_common c;
    lcp_cholmod_start(&c);
    int mtype = 0;
    void *M = cholmod_read_matrix(f, 1, &mtype, &c);
    fclose(f);
    if (!M) {
        cholmod_finish(&c);
        return lcp_fail(err, c.status == CHOLMOD_OUT_OF_MEMORY ? LCP_ERROR : LCP_INPUT_ERROR, name, 0,
                        "CHOLMOD could not read this Matrix Market file (status %d)", c.status);
    }
    if (mtype == CHOLMOD_DENSE) {
        cholmod_dense *D = M;
        rc = lcp_csr_from_dense_colmajor(A, (int)D->nrow, (int)D->ncol, D->x);
        cholmod_free_dense(&D, &c);
    } else if (mtype == CHOLMOD_SPARSE) {
        cholmod_sparse *S = M; /* unsymmetric CSC with both triangles (prefer = 1) */
        lcp_csr T;             /* a CSC of A is the CSR of A': transpose it */
        memset(&T, 0, sizeof T);
        T.m = (int)S->ncol;
        T.n = (int)S->nrow;
        T.p = S->p;
        T.j = S->i;
        T.x = S->x;
        rc = (!S->packed || S->xtype != CHOLMOD_REAL) ? LCP_ERROR : lcp_csr_transpose(&T, A);
        cholmod_free_sparse(&S, &c);
    } else {
        rc = LCP_ERROR;
        cholmod_free_triplet((cholmod_triplet **)&M, &c);
    }
    cholmod_finish(&c);
    if (rc) return lcp_fail(err, rc, name, 0, "cannot convert the matrix (out of memory)");
    return 0;
}

/* The line of the size line of a Matrix Market file (0 if unknown). */
long mtx_size_line(const char *path)
{
    if (!strcmp(path, "-")) return 0;
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    mtx_header h;
    long lineno = 0;
    char *line = NULL;
    size_t cap = 0;
    lcp_err e;
    long at = mtx_read_header(f, path, -1, &h, &lineno, &line, &cap, &e) ? 0 : h.size_line;
    free(line);
    fclose(f);
    return at;
}

/* A vector: an array n x 1 or 1 x n, or a coordinate n x 1 / 1 x n. */
int lcp_read_mtx_vector(const char *path, double **v, int *n, lcp_err *err)
{
    *v = NULL;
    *n = 0;
    lcp_csr A;
    int rc = lcp_read_mtx_matrix(path, &A, err);
    if (rc) return rc;
    const char *name = strcmp(path, "-") ? path : "<stdin>";
    if (A.n != 1 && A.m != 1) {
        rc = lcp_fail(err, LCP_INPUT_ERROR, name, mtx_size_line(path), "expected a vector, found a %d x %d matrix",
                      A.m, A.n);
        lcp_csr_free(&A);
        return rc;
    }
    int len = A.n == 1 ? A.m : A.n;
    double *d = lcp_calloc((size_t)len, sizeof(double));
    if (!d) {
        lcp_csr_free(&A);
        return lcp_fail(err, LCP_ERROR, name, 0, "out of memory");
    }
    for (int i = 0; i < A.m; i++)
        for (int k = A.p[i]; k < A.p[i + 1]; k++) d[A.n == 1 ? i : A.j[k]] = A.x[k];
    lcp_csr_free(&A);
    *v = d;
    *n = len;
    return 0;
}

int lcp_write_mtx_vector(const char *path, const double *v, int n, const char *comment, lcp_err *err)
{
    lcp_outfile o;
    int rc = lcp_outfile_open(&o, path, err);
    if (rc) return rc;
    FILE *f = o.fp;
    fprintf(f, "%%%%MatrixMarket matrix array real general\n");
    if (comment && *comment) fprintf(f, "%% %s\n", comment);
    fprintf(f, "%d 1\n", n);
    for (int i = 0; i < n; i++) fprintf(f, "%.17g\n", v[i]);
    return lcp_outfile_commit(&o, err);
}

int lcp_write_mtx_matrix(const char *path, const lcp_csr *A, const char *comment, lcp_err *err)
{
    lcp_outfile o;
    int rc = lcp_outfile_open(&o, path, err);
    if (rc) return rc;
    FILE *f = o.fp;
    fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n");
    if (comment && *comment) fprintf(f, "%% %s\n", comment);
    fprintf(f, "%d %d %ld\n", A->m, A->n, lcp_csr_nnz(A));
    for (int i = 0; i < A->m; i++)
        for (int k = A->p[i]; k < A->p[i + 1]; k++) fprintf(f, "%d %d %.17g\n", i + 1, A->j[k] + 1, A->x[k]);
    return lcp_outfile_commit(&o, err);
}
