/* src/io/mtx.c: Matrix Market files.
 *
 * Reading is CHOLMOD's (cholmod_read_matrix: coordinate and array, general,
 * symmetric and skew-symmetric, real/integer/pattern).  Before handing a file
 * to CHOLMOD its header is checked against the file's size, so a header that
 * claims 10^12 entries is refused before anything is allocated; when CHOLMOD
 * refuses a file, mtx_locate() scans it once more to name the line at fault.
 * Writing (arrays for vectors, coordinates for matrices) is plain fprintf
 * through an atomic lcp_outfile.
 */
#include "io.h"

#include <cholmod.h>
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
    int pattern;     /* pattern: no values */
    int symmetric;   /* symmetric or skew-symmetric */
    long m, n, nnz;  /* declared sizes (nnz = m*n for arrays) */
    long size_line;  /* line of the size line */
} mtx_header;

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Reads the banner and size line; checks the claims against the file size. */
static int mtx_read_header(FILE *f, const char *path, long fsize, mtx_header *h, long *lineno,
                           lcp_err *err)
{
    char line[1024], obj[64], fmt[64], field[64], sym[64];
    memset(h, 0, sizeof *h);
    *lineno = 1;
    if (!fgets(line, sizeof line, f)) return lcp_fail(err, LCP_INPUT_ERROR, path, 1, "empty file");
    if (sscanf(line, "%%%%MatrixMarket %63s %63s %63s %63s", obj, fmt, field, sym) != 4 ||
        strcasecmp(obj, "matrix") != 0)
        return lcp_fail(err, LCP_INPUT_ERROR, path, 1,
                        "not a Matrix Market file (expected '%%%%MatrixMarket matrix FORMAT FIELD "
                        "SYMMETRY')");
    if (!strcasecmp(fmt, "coordinate")) h->coordinate = 1;
    else if (strcasecmp(fmt, "array"))
        return lcp_fail(err, LCP_INPUT_ERROR, path, 1, "unknown format '%s'", fmt);
    if (!strcasecmp(field, "pattern")) h->pattern = 1;
    else if (strcasecmp(field, "real") && strcasecmp(field, "integer"))
        return lcp_fail(err, LCP_INPUT_ERROR, path, 1, "unsupported field '%s' (real, integer or pattern)",
                        field);
    if (!strcasecmp(sym, "symmetric") || !strcasecmp(sym, "skew-symmetric")) h->symmetric = 1;
    else if (strcasecmp(sym, "general"))
        return lcp_fail(err, LCP_INPUT_ERROR, path, 1, "unsupported symmetry '%s'", sym);
    if (h->pattern && !h->coordinate)
        return lcp_fail(err, LCP_INPUT_ERROR, path, 1, "pattern is only valid with coordinate");
    for (;;) {
        if (!fgets(line, sizeof line, f))
            return lcp_fail(err, LCP_INPUT_ERROR, path, *lineno, "no size line");
        ++*lineno;
        char *s = line;
        while (isspace((unsigned char)*s)) s++;
        if (*s == '%' || *s == '\0') continue;
        char extra[8];
        int got = h->coordinate ? sscanf(s, "%ld %ld %ld %7s", &h->m, &h->n, &h->nnz, extra)
                                : sscanf(s, "%ld %ld %7s", &h->m, &h->n, extra);
        if (got != (h->coordinate ? 3 : 2))
            return lcp_fail(err, LCP_INPUT_ERROR, path, *lineno,
                            h->coordinate ? "size line must be 'ROWS COLS ENTRIES'"
                                          : "size line must be 'ROWS COLS'");
        break;
    }
    h->size_line = *lineno;
    if (h->m < 0 || h->n < 0 || h->nnz < 0 || h->m > INT_MAX || h->n > INT_MAX || h->nnz > INT_MAX)
        return lcp_fail(err, LCP_INPUT_ERROR, path, *lineno, "sizes %ld x %ld (%ld entries) out of range",
                        h->m, h->n, h->nnz);
    if (!h->coordinate) {
        if (h->n && h->m > LONG_MAX / h->n)
            return lcp_fail(err, LCP_INPUT_ERROR, path, *lineno, "sizes overflow");
        h->nnz = h->m * h->n;
        if (h->symmetric) h->nnz = h->m * (h->m + 1) / 2;
    }
    /* every entry needs at least two bytes of text ("0\n"), coordinates four */
    long need = h->nnz * (h->coordinate ? 4 : 2);
    if (fsize >= 0 && need > fsize)
        return lcp_fail(err, LCP_INPUT_ERROR, path, *lineno,
                        "declares %ld entries but the file has only %ld bytes", h->nnz, fsize);
    return 0;
}

/* After CHOLMOD refused the file (or a value is not finite): find the line. */
static int mtx_locate(const char *path, lcp_err *err)
{
    FILE *f = fopen(path, "r");
    if (!f) return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "cannot open: %s", strerror(errno));
    mtx_header h;
    long lineno = 0, count = 0;
    int rc = mtx_read_header(f, path, -1, &h, &lineno, err);
    char line[4096];
    int want = h.coordinate ? (h.pattern ? 2 : 3) : 1;
    while (!rc && fgets(line, sizeof line, f)) {
        lineno++;
        char *s = line;
        while (isspace((unsigned char)*s)) s++;
        if (*s == '%' || *s == '\0') continue;
        if (count >= h.nnz) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, lineno, "more entries than the %ld declared", h.nnz);
            break;
        }
        double tok[3];
        char *end = s;
        int k;
        for (k = 0; k < want; k++) {
            char *next;
            errno = 0;
            tok[k] = strtod(end, &next);
            if (next == end) break;
            end = next;
        }
        while (isspace((unsigned char)*end)) end++;
        if (k < want || *end) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, lineno, "expected %d number%s per line, found '%.40s'",
                          want, want > 1 ? "s" : "", strtok(s, "\n"));
            break;
        }
        if (h.coordinate) {
            if (tok[0] != floor(tok[0]) || tok[1] != floor(tok[1]) || tok[0] < 1 || tok[0] > h.m ||
                tok[1] < 1 || tok[1] > h.n) {
                rc = lcp_fail(err, LCP_INPUT_ERROR, path, lineno, "index (%g, %g) outside the %ld x %ld matrix",
                              tok[0], tok[1], h.m, h.n);
                break;
            }
            if (h.symmetric && tok[1] > tok[0]) {
                rc = lcp_fail(err, LCP_INPUT_ERROR, path, lineno,
                              "entry (%g, %g) above the diagonal in a symmetric file", tok[0], tok[1]);
                break;
            }
        }
        if (!isfinite(tok[want - 1]) && !h.pattern) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, lineno, "value is not finite");
            break;
        }
        count++;
    }
    if (!rc && count < h.nnz)
        rc = lcp_fail(err, LCP_INPUT_ERROR, path, lineno, "file ends after %ld of %ld entries", count, h.nnz);
    if (!rc) rc = lcp_fail(err, LCP_INPUT_ERROR, path, 0, "CHOLMOD could not read this Matrix Market file");
    fclose(f);
    return rc;
}

static void quiet_common(cholmod_common *c)
{
    cholmod_start(c);
    c->print = 0;
    c->error_handler = NULL;
}

/* Reads any Matrix Market matrix into CSR (dense arrays become CSR too;
 * explicit zeros of coordinate files are kept out). */
int lcp_read_mtx_matrix(const char *path, lcp_csr *A, lcp_err *err)
{
    memset(A, 0, sizeof *A);
    int is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    FILE *f = is_stdin ? stdin : fopen(path, "r");
    if (!f) return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "cannot open: %s", strerror(errno));
    if (!is_stdin) {
        struct stat st;
        mtx_header h;
        long lineno;
        if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
            fclose(f);
            return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "is a folder, not a Matrix Market file");
        }
        int rc = mtx_read_header(f, name, (long)st.st_size, &h, &lineno, err);
        if (rc) {
            fclose(f);
            return rc;
        }
        rewind(f);
    }
    cholmod_common c;
    quiet_common(&c);
    int mtype = 0;
    void *M = cholmod_read_matrix(f, 1, &mtype, &c);
    if (!is_stdin) fclose(f);
    int rc = 0;
    if (!M) {
        cholmod_finish(&c);
        if (is_stdin) return lcp_fail(err, LCP_INPUT_ERROR, name, 0, "not a valid Matrix Market matrix");
        return mtx_locate(path, err);
    }
    if (mtype == CHOLMOD_DENSE) {
        cholmod_dense *D = M;
        if (D->nrow > INT_MAX || D->ncol > INT_MAX) rc = LCP_INPUT_ERROR;
        else rc = lcp_csr_from_dense_colmajor(A, (int)D->nrow, (int)D->ncol, D->x);
        cholmod_free_dense(&D, &c);
    } else if (mtype == CHOLMOD_SPARSE) {
        cholmod_sparse *S = M; /* unsymmetric CSC with both triangles (prefer = 1) */
        lcp_csr T; /* a CSC of A is the CSR of A' */
        long nnz = (long)((int *)S->p)[S->ncol];
        memset(&T, 0, sizeof T);
        T.m = (int)S->ncol;
        T.n = (int)S->nrow;
        T.p = S->p;
        T.j = S->i;
        T.x = S->x;
        if (!S->sorted || !S->packed) rc = LCP_ERROR;
        else {
            (void)nnz;
            rc = lcp_csr_transpose(&T, A); /* (A')' = A, rows sorted */
        }
        cholmod_free_sparse(&S, &c);
    } else {
        rc = LCP_ERROR;
        cholmod_free_triplet((cholmod_triplet **)&M, &c);
    }
    cholmod_finish(&c);
    if (rc) return lcp_fail(err, rc, name, 0, "cannot convert the matrix (too large or out of memory)");
    int bi = 0, bj = 0;
    if (!lcp_csr_all_finite(A, &bi, &bj)) {
        lcp_csr_free(A);
        if (is_stdin)
            return lcp_fail(err, LCP_INPUT_ERROR, name, 0, "entry (%d, %d) is not finite", bi + 1, bj + 1);
        return mtx_locate(path, err);
    }
    return 0;
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
        rc = lcp_fail(err, LCP_INPUT_ERROR, name, 0, "expected a vector, found a %d x %d matrix", A.m, A.n);
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
    (void)base_name;
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
