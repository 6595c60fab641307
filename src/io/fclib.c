/* src/io/fclib.c: FCLIB HDF5 problems through libfclib.
 *
 * An FCLIB file holds a 3D frictional contact problem in one of two forms:
 *   /fclib_local : W (m x m), q (m), mu (m/3)          u = W r + q
 *   /fclib_global: M (nb x nb), H (nb x m), f (nb), w (m), mu (m/3), optional
 *                  G, b (equality constraints)        M v = H r + f, u = H'v + w
 * A matrix group holds nzmax, m, n, nz and p, i, x: nz >= 0 a triplet with
 * nz entries (CSparse order: i = row, p = column, whatever fclib.h says;
 * the public files are written that way), nz == -1 compressed columns
 * (p: n+1 pointers, i: rows), nz == -2 compressed rows (p: m+1, i: columns).
 *
 * Local problems load as kind fc3d with A = W, b = q.  Global problems load
 * in the factored form of problem.h: M, J = H', v = M^-1 f (solved here with
 * CHOLMOD), e = w, so that lcp_problem_finish() forms A = J M^-1 J' = H'M^-1 H
 * and b = J v + e = H'M^-1 f + w.  G/b with constraints are refused.
 *
 * libfclib trusts the file: it allocates from the sizes stored in it, reads
 * whole datasets into those buffers and calls exit() on any HDF5 failure.
 * So the file is first opened with HDF5 here and every dataset libfclib will
 * read is checked: present, a dataset of the expected class and rank <= 1,
 * with exactly the number of elements libfclib allocates for it, and backed
 * by storage in the file.  Only then is fclib_read_local/global called, and
 * its result is checked again (pointers, index ranges, finite values).
 */
#include "io.h"
#include "fclib_check.h"
#include "../la/suitesparse.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cholmod.h>
#include <fclib.h>
#if defined(__has_include)
#if __has_include(<hdf5.h>)
#include <hdf5.h>
#else
#include <hdf5/serial/hdf5.h>
#endif
#else
#include <hdf5.h>
#endif

typedef struct {
    const char *path; /* the file opened */
    lcp_err *err;
    const char *name; /* the file named in messages (NULL: path) */
} h5ctx;

#define H5NAME(c) ((c)->name ? (c)->name : (c)->path)

static int h5fail(const h5ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int h5fail(const h5ctx *c, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return lcp_fail(c->err, LCP_INPUT_ERROR, H5NAME(c), 0, "%s", msg);
}

/* ------------------------------------------------------------------------ */
/* Checking the file before libfclib reads it                               */
/* ------------------------------------------------------------------------ */

typedef enum { H5K_INT, H5K_REAL, H5K_STRING } h5kind;

#define H5_ABSENT (-1)

/* 1 if loc has a link `name`, 0 if not. */
static int h5_has(hid_t loc, const char *name)
{
    return H5Lexists(loc, name, H5P_DEFAULT) > 0;
}

/* Checks that loc/name is a dataset of `kind`, rank <= 1, whose element
 * count (npts) is backed by storage in the file.  Returns 0, H5_ABSENT
 * (only when !required and there is no such link) or an error. */
static int h5_dataset(const h5ctx *c, hid_t loc, const char *group, const char *name, h5kind kind,
                      int required, long long *npts)
{
    if (!h5_has(loc, name)) {
        if (!required) return H5_ABSENT;
        return h5fail(c, "%s/%s is missing", group, name);
    }
    hid_t ds = H5Dopen2(loc, name, H5P_DEFAULT);
    if (ds < 0) return h5fail(c, "%s/%s is not a dataset", group, name);
    hid_t sp = H5Dget_space(ds), ty = H5Dget_type(ds);
    int rc = 0;
    if (sp < 0 || ty < 0) {
        rc = h5fail(c, "%s/%s cannot be read", group, name);
        goto done;
    }
    int rank = H5Sget_simple_extent_ndims(sp);
    hssize_t np = H5Sget_simple_extent_npoints(sp);
    if (rank < 0 || rank > 1 || np < 0) {
        rc = h5fail(c, "%s/%s has rank %d, expected a vector", group, name, rank);
        goto done;
    }
    if (H5Sget_simple_extent_type(sp) == H5S_NULL) np = 0;
    H5T_class_t cls = H5Tget_class(ty);
    int ok = kind == H5K_INT    ? cls == H5T_INTEGER
             : kind == H5K_REAL ? (cls == H5T_FLOAT || cls == H5T_INTEGER)
                                : (cls == H5T_STRING && H5Tis_variable_str(ty) == 0 && np == 1);
    if (!ok) {
        rc = h5fail(c, "%s/%s is not %s", group, name,
                    kind == H5K_INT    ? "an integer dataset"
                    : kind == H5K_REAL ? "a numeric dataset"
                                       : "a fixed-length string");
        goto done;
    }
    if (np > INT_MAX) {
        rc = h5fail(c, "%s/%s has %lld elements, too many", group, name, (long long)np);
        goto done;
    }
    /* the data must be in the file: at most a deflate-like ratio over the
     * bytes stored for it (an unallocated dataset stores none) */
    unsigned long long logical = (unsigned long long)np * H5Tget_size(ty);
    unsigned long long stored = (unsigned long long)H5Dget_storage_size(ds);
    if (logical > 65536 && logical / 1024 > stored) {
        rc = h5fail(c, "%s/%s claims %lld elements but the file stores only %llu bytes for it",
                    group, name, (long long)np, stored);
        goto done;
    }
    /* --max-memory: libfclib's copy, our triplets and CSR */
    if (!lcp_memory_fits((double)logical * 3.0)) {
        char b1[32], b2[32];
        rc = h5fail(c, "%s/%s has %lld elements, about %s to load, more than --max-memory %s", group, name,
                    (long long)np, lcp_bytes_str((double)logical * 3.0, b1),
                    lcp_bytes_str((double)lcp_memory_limit, b2));
        goto done;
    }
    *npts = (long long)np;
done:
    if (ty >= 0) H5Tclose(ty);
    if (sp >= 0) H5Sclose(sp);
    H5Dclose(ds);
    return rc;
}

/* A dataset that must hold exactly `expect` elements (absent allowed when
 * !required). */
static int h5_sized(const h5ctx *c, hid_t loc, const char *group, const char *name, h5kind kind,
                    int required, long long expect, const char *why)
{
    long long np = 0;
    int rc = h5_dataset(c, loc, group, name, kind, required, &np);
    if (rc) return rc;
    if (np != expect)
        return h5fail(c, "%s/%s has %lld elements, expected %lld (%s)", group, name, np, expect,
                      why);
    return 0;
}

/* An integer scalar (one element). */
static int h5_int(const h5ctx *c, hid_t loc, const char *group, const char *name, int *v)
{
    int rc = h5_sized(c, loc, group, name, H5K_INT, 1, 1, "a scalar");
    if (rc) return rc;
    hid_t ds = H5Dopen2(loc, name, H5P_DEFAULT);
    if (ds < 0) return h5fail(c, "%s/%s cannot be read", group, name);
    herr_t st = H5Dread(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Dclose(ds);
    return st < 0 ? h5fail(c, "%s/%s cannot be read", group, name) : 0;
}

/* Optional fixed-length string scalars (problem or matrix info). */
static int h5_strings(const h5ctx *c, hid_t loc, const char *group, const char *const *names)
{
    for (; *names; names++) {
        int rc = h5_sized(c, loc, group, *names, H5K_STRING, 0, 1, "a string");
        if (rc && rc != H5_ABSENT) return rc;
    }
    return 0;
}

/* Sizes of a matrix group, and the element counts of its p, i, x. */
typedef struct {
    int nzmax, m, n, nz;
    long long np, ni, nx;
} mat_shape;

/* The sizes of one matrix (nzmax, m, n, nz) against the element counts of
 * its p, i, x (s->np, s->ni, s->nx), as libfclib's read_matrix allocates
 * them: nothing is read beyond what the counts allow once this passes. */
static int check_shape(const h5ctx *c, const char *gp, const mat_shape *s)
{
    long long np = s->np, ni = s->ni, nx = s->nx;
    if (s->m < 0 || s->n < 0 || s->nzmax < 0)
        return h5fail(c, "%s: negative size (m = %d, n = %d, nzmax = %d)", gp, s->m, s->n, s->nzmax);
    if (s->nz >= 0) { /* triplet: p, i allocated with nz; x with nzmax */
        if (s->nz > s->nzmax) return h5fail(c, "%s: nz = %d exceeds nzmax = %d", gp, s->nz, s->nzmax);
        if (np != s->nz || ni != s->nz)
            return h5fail(c, "%s: p and i have %lld and %lld elements, expected nz = %d", gp, np,
                          ni, s->nz);
        if (nx < s->nz || nx > s->nzmax)
            return h5fail(c, "%s/x has %lld elements, expected %d to %d (nz to nzmax)", gp, nx,
                          s->nz, s->nzmax);
    } else if (s->nz == -1 || s->nz == -2) { /* compressed: p outer+1, i and x nzmax */
        int outer = s->nz == -1 ? s->n : s->m;
        if (outer == INT_MAX) return h5fail(c, "%s: size %d is too large", gp, outer);
        if (np != (long long)outer + 1)
            return h5fail(c, "%s/p has %lld elements, expected %d (%s + 1)", gp, np, outer + 1,
                          s->nz == -1 ? "n" : "m");
        if (ni > s->nzmax || nx > s->nzmax)
            return h5fail(c, "%s: i and x have %lld and %lld elements, more than nzmax = %d", gp,
                          ni, nx, s->nzmax);
    } else {
        return h5fail(c, "%s: unknown matrix format nz = %d (triplet >= 0, -1 csc, -2 csr)", gp,
                      s->nz);
    }
    /* libfclib allocates i and x from nzmax: keep it near what is stored */
    long long most = np > ni ? np : ni;
    most = most > nx ? most : nx;
    if (s->nzmax > 8 * most + 4096)
        return h5fail(c, "%s: nzmax = %d is far more than the %lld entries stored", gp, s->nzmax,
                      most);
    return 0;
}

/* Checks the datasets of one matrix group as libfclib's read_matrix will
 * read them: p, i (int) and x (double), allocated from nz, m, n, nzmax. */
static int check_matrix_data(const h5ctx *c, hid_t g, const char *gp, mat_shape *s)
{
    int rc;
    if ((rc = h5_dataset(c, g, gp, "p", H5K_INT, 1, &s->np))) return rc;
    if ((rc = h5_dataset(c, g, gp, "i", H5K_INT, 1, &s->ni))) return rc;
    if ((rc = h5_dataset(c, g, gp, "x", H5K_REAL, 1, &s->nx))) return rc;
    if ((rc = check_shape(c, gp, s))) return rc;
    /* matrix info: read by libfclib when "conditioning" is present */
    if (h5_has(g, "conditioning")) {
        if ((rc = h5_sized(c, g, gp, "conditioning", H5K_REAL, 1, 1, "a scalar"))) return rc;
        if ((rc = h5_sized(c, g, gp, "determinant", H5K_REAL, 1, 1, "a scalar"))) return rc;
        if ((rc = h5_sized(c, g, gp, "rank", H5K_INT, 1, 1, "a scalar"))) return rc;
        static const char *const comment[] = {"comment", NULL};
        if ((rc = h5_strings(c, g, gp, comment))) return rc;
    }
    return 0;
}

/* Checks the matrix group file/gp (e.g. "fclib_global/M"). */
static int check_matrix(const h5ctx *c, hid_t file, const char *gp, mat_shape *s)
{
    if (!h5_has(file, gp)) return h5fail(c, "%s is missing", gp);
    hid_t g = H5Gopen2(file, gp, H5P_DEFAULT);
    if (g < 0) return h5fail(c, "%s is not a group", gp);
    int rc;
    memset(s, 0, sizeof *s);
    if ((rc = h5_int(c, g, gp, "nzmax", &s->nzmax)) || (rc = h5_int(c, g, gp, "m", &s->m)) ||
        (rc = h5_int(c, g, gp, "n", &s->n)) || (rc = h5_int(c, g, gp, "nz", &s->nz)))
        goto done;
    rc = check_matrix_data(c, g, gp, s);
done:
    H5Gclose(g);
    return rc;
}

/* spacedim must be 3. */
static int check_spacedim(const h5ctx *c, hid_t root, const char *gp)
{
    int d = 0, rc = h5_int(c, root, gp, "spacedim", &d);
    if (rc) return rc;
    if (d == 2) return h5fail(c, "2D friction problems (spacedim = 2) are not supported");
    if (d != 3) return h5fail(c, "%s/spacedim = %d, expected 3", gp, d);
    return 0;
}

/* Optional problem info group (title, description, math_info). */
static int check_info(const h5ctx *c, hid_t file, const char *gp)
{
    if (!h5_has(file, gp)) return 0;
    hid_t g = H5Gopen2(file, gp, H5P_DEFAULT);
    if (g < 0) return h5fail(c, "%s is not a group", gp);
    static const char *const names[] = {"title", "description", "math_info", NULL};
    int rc = h5_strings(c, g, gp, names);
    H5Gclose(g);
    return rc;
}

/* Opens a required group. */
static int open_group(const h5ctx *c, hid_t file, const char *gp, hid_t *g)
{
    if (!h5_has(file, gp)) return h5fail(c, "%s is missing", gp);
    *g = H5Gopen2(file, gp, H5P_DEFAULT);
    return *g < 0 ? h5fail(c, "%s is not a group", gp) : 0;
}

/* W square, 3 rows a contact. */
static int check_local_shape(const h5ctx *c, const mat_shape *W)
{
    if (W->m != W->n) return h5fail(c, "fclib_local/W is %d x %d, not square", W->m, W->n);
    if (W->m % 3) return h5fail(c, "fclib_local/W has %d rows, not a multiple of 3", W->m);
    return 0;
}

/* M square, H (nb x m) against it, 3 columns of H a contact. */
static int check_global_shape(const h5ctx *c, const mat_shape *M, const mat_shape *H)
{
    if (M->m != M->n) return h5fail(c, "fclib_global/M is %d x %d, not square", M->m, M->n);
    if (H->m != M->n)
        return h5fail(c, "fclib_global/H has %d rows, M has %d columns", H->m, M->n);
    if (H->n % 3) return h5fail(c, "fclib_global/H has %d columns, not a multiple of 3", H->n);
    return 0;
}

/* Everything fclib_read_local reads. */
static int check_local(const h5ctx *c, hid_t file, mat_shape *W)
{
    hid_t root, vec;
    int rc = open_group(c, file, "fclib_local", &root);
    if (rc) return rc;
    rc = check_spacedim(c, root, "fclib_local");
    if (!rc && (h5_has(root, "V") || h5_has(root, "R")))
        rc = h5fail(c, "mixed local problems (V, R, s) are not supported");
    H5Gclose(root);
    if (rc) return rc;
    if ((rc = check_matrix(c, file, "fclib_local/W", W))) return rc;
    if ((rc = check_local_shape(c, W))) return rc;
    if ((rc = open_group(c, file, "fclib_local/vectors", &vec))) return rc;
    if (!(rc = h5_sized(c, vec, "fclib_local/vectors", "q", H5K_REAL, 1, W->m, "rows of W")))
        rc = h5_sized(c, vec, "fclib_local/vectors", "mu", H5K_REAL, 1, W->m / 3, "contacts");
    H5Gclose(vec);
    return rc ? rc : check_info(c, file, "fclib_local/info");
}

/* Everything fclib_read_global reads. */
static int check_global(const h5ctx *c, hid_t file, mat_shape *M, mat_shape *H)
{
    hid_t root, vec;
    int rc = open_group(c, file, "fclib_global", &root);
    if (rc) return rc;
    rc = check_spacedim(c, root, "fclib_global");
    int hasG = h5_has(root, "G");
    H5Gclose(root);
    if (rc) return rc;
    if ((rc = check_matrix(c, file, "fclib_global/M", M))) return rc;
    if ((rc = check_matrix(c, file, "fclib_global/H", H))) return rc;
    if ((rc = check_global_shape(c, M, H))) return rc;
    mat_shape G = {0};
    if (hasG) {
        if ((rc = check_matrix(c, file, "fclib_global/G", &G))) return rc;
        if (G.n > 0)
            return h5fail(c, "equality constraints (G, b with %d rows) are not supported", G.n);
    }
    if ((rc = open_group(c, file, "fclib_global/vectors", &vec))) return rc;
    const char *gv = "fclib_global/vectors";
    if (!(rc = h5_sized(c, vec, gv, "f", H5K_REAL, 1, M->m, "rows of M")) &&
        !(rc = h5_sized(c, vec, gv, "w", H5K_REAL, 1, H->n, "columns of H")) &&
        !(rc = h5_sized(c, vec, gv, "mu", H5K_REAL, 1, H->n / 3, "contacts")) && hasG)
        rc = h5_sized(c, vec, gv, "b", H5K_REAL, 1, G.n, "columns of G");
    H5Gclose(vec);
    return rc ? rc : check_info(c, file, "fclib_global/info");
}

/* Opens the file with HDF5 and checks the local (preferred) or global form.
 * *local = 1 or 0 on success. */
static int check_file(const h5ctx *c, int *local, mat_shape *a, mat_shape *b)
{
    FILE *f = fopen(c->path, "rb");
    if (!f) return h5fail(c, "cannot open: %s", strerror(errno));
    fclose(f);
    if (H5Fis_hdf5(c->path) <= 0) return h5fail(c, "not an HDF5 file");
    hid_t file = H5Fopen(c->path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) return h5fail(c, "HDF5 cannot open the file (corrupt or truncated?)");
    int rc;
    if (h5_has(file, "fclib_local")) {
        *local = 1;
        rc = check_local(c, file, a);
    } else if (h5_has(file, "fclib_global")) {
        *local = 0;
        rc = check_global(c, file, a, b);
    } else {
        rc = h5fail(c, "neither /fclib_local nor /fclib_global: not an FCLIB problem");
    }
    H5Fclose(file);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Converting what libfclib read                                            */
/* ------------------------------------------------------------------------ */

/* fclib matrix -> CSR (transposed when asked), checking pointers, index
 * ranges and finite values. */
static int fc_to_csr(const h5ctx *c, const char *name, const struct fclib_matrix *A,
                     const mat_shape *s, int transpose, lcp_csr *out)
{
    long cnt = s->nz >= 0 ? s->nz : 0;
    if (s->nz < 0) { /* compressed: pointers first */
        int outer = s->nz == -1 ? s->n : s->m;
        if (A->p[0] != 0) return h5fail(c, "%s: pointers do not start at 0", name);
        for (int k = 0; k < outer; k++)
            if (A->p[k + 1] < A->p[k])
                return h5fail(c, "%s: pointers not increasing at %d", name, k + 1);
        if (A->p[outer] > s->ni || A->p[outer] > s->nx)
            return h5fail(c, "%s: %d entries, but i and x hold %lld and %lld", name, A->p[outer],
                          s->ni, s->nx);
        cnt = A->p[outer];
    }
    int *ti = lcp_alloc((size_t)cnt, sizeof(int)), *tj = lcp_alloc((size_t)cnt, sizeof(int));
    int rc = 0;
    if (!ti || !tj) {
        rc = lcp_fail(c->err, LCP_ERROR, H5NAME(c), 0, "out of memory");
        goto done;
    }
    if (s->nz >= 0) { /* triplet, CSparse order: i = row, p = column */
        for (long k = 0; k < cnt; k++) {
            ti[k] = A->i[k];
            tj[k] = A->p[k];
        }
    } else { /* compressed: entry k lies in the outer index o with p[o] <= k < p[o+1] */
        int outer = s->nz == -1 ? s->n : s->m;
        for (int o = 0; o < outer; o++)
            for (int k = A->p[o]; k < A->p[o + 1]; k++) {
                ti[k] = s->nz == -1 ? A->i[k] : o; /* csc: i is the row */
                tj[k] = s->nz == -1 ? o : A->i[k]; /* csr: i is the column */
            }
    }
    for (long k = 0; k < cnt; k++) {
        if (ti[k] < 0 || ti[k] >= s->m || tj[k] < 0 || tj[k] >= s->n) {
            rc = h5fail(c, "%s: entry %ld at (%d, %d) outside the %d x %d matrix", name, k, ti[k],
                        tj[k], s->m, s->n);
            goto done;
        }
        if (!isfinite(A->x[k])) {
            rc = h5fail(c, "%s: entry %ld at (%d, %d) is not finite", name, k, ti[k], tj[k]);
            goto done;
        }
    }
    rc = transpose ? lcp_csr_from_triplets(out, s->n, s->m, cnt, tj, ti, A->x)
                   : lcp_csr_from_triplets(out, s->m, s->n, cnt, ti, tj, A->x);
    if (rc) rc = lcp_fail(c->err, LCP_ERROR, H5NAME(c), 0, "out of memory");
done:
    free(ti);
    free(tj);
    return rc;
}

/* A copy of n finite values. */
static int fc_vector(const h5ctx *c, const char *name, const double *x, int n, double **out)
{
    for (int k = 0; k < n; k++)
        if (!isfinite(x[k])) return h5fail(c, "%s[%d] is not finite", name, k);
    *out = lcp_alloc((size_t)n, sizeof(double));
    if (!*out) return lcp_fail(c->err, LCP_ERROR, H5NAME(c), 0, "out of memory");
    if (n) memcpy(*out, x, (size_t)n * sizeof(double));
    return 0;
}

/* v = M^-1 f with a CHOLMOD Cholesky factorisation of the symmetric M. */
static int solve_mass(const h5ctx *c, const lcp_csr *M, const double *f, double *v)
{
    int n = M->m;
    if (n == 0) return 0;
    cholmod_common cm;
    lcp_cholmod_start(&cm); /* LL', so that an indefinite M is reported */
    /* M is symmetric, so its CSR arrays are also its CSC arrays; stype 1
     * uses the upper triangle */
    cholmod_sparse S = lcp_csr_as_cholmod(M, 1);
    cholmod_dense *B = NULL, *X = NULL;
    int rc = 0;
    cholmod_factor *L = cholmod_analyze(&S, &cm);
    if (!L || !lcp_cholmod_factorize(&S, 0.0, L, &cm) || cm.status < 0) {
        rc = lcp_fail(c->err, LCP_ERROR, H5NAME(c), 0, "CHOLMOD failed to factorize M");
        goto done;
    }
    if (cm.status == CHOLMOD_NOT_POSDEF || L->minor < L->n) {
        rc = h5fail(c, "the mass matrix M is not positive definite (fails at column %d)",
                    (int)L->minor + 1);
        goto done;
    }
    B = cholmod_allocate_dense((size_t)n, 1, (size_t)n, CHOLMOD_REAL, &cm);
    if (!B) {
        rc = lcp_fail(c->err, LCP_ERROR, H5NAME(c), 0, "out of memory");
        goto done;
    }
    memcpy(B->x, f, (size_t)n * sizeof(double));
    X = cholmod_solve(CHOLMOD_A, L, B, &cm);
    if (!X) {
        rc = lcp_fail(c->err, LCP_ERROR, H5NAME(c), 0, "CHOLMOD failed to solve M v = f");
        goto done;
    }
    memcpy(v, X->x, (size_t)n * sizeof(double));
    for (int k = 0; k < n; k++)
        if (!isfinite(v[k])) {
            rc = h5fail(c, "M^-1 f is not finite (M is singular or badly scaled)");
            break;
        }
done:
    cholmod_free_dense(&X, &cm);
    cholmod_free_dense(&B, &cm);
    cholmod_free_factor(&L, &cm);
    cholmod_finish(&cm);
    return rc;
}

/* The local form: A = W, b = q. */
static int convert_local(const h5ctx *c, const mat_shape *ws, const struct fclib_local *fl, lcp_problem *p)
{
    int n = ws->m, nc = n / 3, rc;
    lcp_csr A = {0};
    double *b = NULL, *mu = NULL;
    if (!fl->W || !fl->q || !fl->mu) {
        rc = h5fail(c, "libfclib returned an incomplete local problem");
        goto done;
    }
    if ((rc = fc_to_csr(c, "fclib_local/W", fl->W, ws, 0, &A))) goto done;
    if ((rc = fc_vector(c, "q", fl->q, n, &b))) goto done;
    if ((rc = fc_vector(c, "mu", fl->mu, nc, &mu))) goto done;
    p->n = n;
    p->nc = nc;
    p->A = A;
    p->b = b;
    p->blen = n;
    p->mu = mu;
    p->nmu = nc;
done:
    if (rc) {
        lcp_csr_free(&A);
        free(b);
        free(mu);
    }
    return rc;
}

static int load_local(const h5ctx *c, const mat_shape *ws, lcp_problem *p)
{
    struct fclib_local *fl = fclib_read_local(c->path);
    if (!fl) return h5fail(c, "libfclib could not read the local problem");
    int rc = convert_local(c, ws, fl, p);
    fclib_delete_local(fl);
    free(fl);
    return rc;
}

/* The global form: M, J = H', v = M^-1 f, e = w. */
static int convert_global(const h5ctx *c, const mat_shape *ms, const mat_shape *hs,
                          const struct fclib_global *fg, lcp_problem *p)
{
    int nb = ms->n, n = hs->n, nc = n / 3, rc;
    lcp_csr M = {0}, J = {0};
    double *v = NULL, *e = NULL, *mu = NULL;
    if (!fg->M || !fg->H || !fg->f || !fg->w || !fg->mu) {
        rc = h5fail(c, "libfclib returned an incomplete global problem");
        goto done;
    }
    if ((rc = fc_to_csr(c, "fclib_global/M", fg->M, ms, 0, &M))) goto done;
    if ((rc = fc_to_csr(c, "fclib_global/H", fg->H, hs, 1, &J))) goto done;
    if (!lcp_csr_is_symmetric(&M, 1e-12)) {
        rc = h5fail(c, "the mass matrix M is not symmetric");
        goto done;
    }
    if ((rc = fc_vector(c, "f", fg->f, nb, &v))) goto done; /* v = f, then solved in place */
    if ((rc = solve_mass(c, &M, fg->f, v))) goto done;
    if ((rc = fc_vector(c, "w", fg->w, n, &e))) goto done;
    if ((rc = fc_vector(c, "mu", fg->mu, nc, &mu))) goto done;
    p->n = n;
    p->nc = nc;
    p->M = M;
    p->J = J;
    p->v = v;
    p->vlen = nb;
    p->e = e;
    p->elen = n;
    p->mu = mu;
    p->nmu = nc;
done:
    if (rc) {
        lcp_csr_free(&M);
        lcp_csr_free(&J);
        free(v);
        free(e);
        free(mu);
    }
    return rc;
}

static int load_global(const h5ctx *c, const mat_shape *ms, const mat_shape *hs, lcp_problem *p)
{
    struct fclib_global *fg = fclib_read_global(c->path);
    if (!fg) return h5fail(c, "libfclib could not read the global problem");
    int rc = convert_global(c, ms, hs, fg, p);
    fclib_delete_global(fg);
    free(fg);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The checks after reading, on structs from elsewhere (src/io/fclib_check.h) */
/* ------------------------------------------------------------------------ */

static int shape_of(const h5ctx *c, const char *gp, const struct fclib_matrix *A, const long long len[3],
                    mat_shape *s)
{
    if (!A) return h5fail(c, "%s is missing", gp);
    memset(s, 0, sizeof *s);
    s->nzmax = A->nzmax;
    s->m = A->m;
    s->n = A->n;
    s->nz = A->nz;
    s->np = len[0];
    s->ni = len[1];
    s->nx = len[2];
    return check_shape(c, gp, s);
}

static int vec_len(const h5ctx *c, const char *name, long long len, long long expect, const char *why)
{
    if (len != expect)
        return h5fail(c, "%s has %lld elements, expected %lld (%s)", name, len, expect, why);
    return 0;
}

int lcp_fclib_local_checked(const char *path, const struct fclib_local *fl, const lcp_fclib_lengths *len,
                            lcp_problem *p, lcp_err *err)
{
    h5ctx c = {path, err, NULL};
    mat_shape W;
    int rc;
    if ((rc = shape_of(&c, "fclib_local/W", fl->W, len->W, &W)) || (rc = check_local_shape(&c, &W)) ||
        (rc = vec_len(&c, "fclib_local/vectors/q", len->q, W.m, "rows of W")) ||
        (rc = vec_len(&c, "fclib_local/vectors/mu", len->mu, W.m / 3, "contacts")))
        return rc;
    if ((rc = convert_local(&c, &W, fl, p))) return rc;
    p->kind = LCP_KIND_FC3D;
    return 0;
}

int lcp_fclib_global_checked(const char *path, const struct fclib_global *fg, const lcp_fclib_lengths *len,
                             lcp_problem *p, lcp_err *err)
{
    h5ctx c = {path, err, NULL};
    mat_shape M, H;
    int rc;
    if ((rc = shape_of(&c, "fclib_global/M", fg->M, len->M, &M)) ||
        (rc = shape_of(&c, "fclib_global/H", fg->H, len->H, &H)) || (rc = check_global_shape(&c, &M, &H)) ||
        (rc = vec_len(&c, "fclib_global/vectors/f", len->f, M.m, "rows of M")) ||
        (rc = vec_len(&c, "fclib_global/vectors/w", len->w, H.n, "columns of H")) ||
        (rc = vec_len(&c, "fclib_global/vectors/mu", len->mu, H.n / 3, "contacts")))
        return rc;
    if ((rc = convert_global(&c, &M, &H, fg, p))) return rc;
    p->kind = LCP_KIND_FC3D;
    return 0;
}

int lcp_read_fclib(const char *path, lcp_problem *p, lcp_err *err) { return lcp_read_fclib_as(path, path, p, err); }

int lcp_read_fclib_as(const char *path, const char *name, lcp_problem *p, lcp_err *err)
{
    h5ctx c = {path, err, name};
    /* HDF5 prints its error stack on every failed call; silence it while we
     * probe, and restore whatever was set before */
    H5E_auto2_t old_fn = NULL;
    void *old_data = NULL;
    H5Eget_auto2(H5E_DEFAULT, &old_fn, &old_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    int local = 0;
    mat_shape a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    int rc = check_file(&c, &local, &a, &b);
    if (!rc) rc = local ? load_local(&c, &a, p) : load_global(&c, &a, &b, p);
    H5Eset_auto2(H5E_DEFAULT, old_fn, old_data);
    if (rc) return rc;
    p->kind = LCP_KIND_FC3D;
    p->format = lcp_strdup("fclib");
    p->source = lcp_strdup(name);
    if (!p->format || !p->source) return lcp_fail(err, LCP_ERROR, name, 0, "out of memory");
    return 0;
}
