/* tests/unit/test_generate.c: `lcpsolve generate` writes what it says.
 *
 * Each scene is generated into a scratch folder and read back through the
 * Matrix Market readers; A = J M^-1 J' and b = J v are recomputed here
 * densely and independently, symmetry and semidefiniteness are checked
 * (dense Cholesky), random-spd's condition number is measured with a Jacobi
 * eigenvalue iteration, and the usage errors return 2 with one line. */
#include "check.h"

#include "cli/generate.h"
#include "io/io.h"

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char base[256];
static char captured[8192]; /* what the last run() wrote to stderr (and stdout) */

/* Runs lcp_generate_main("generate", args..., NULL) with stdout and stderr
 * captured into `captured`. */
static int run(const char *first, ...)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = lcp_strdup("generate");
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 63; a = va_arg(ap, const char *))
        argv[argc++] = lcp_strdup(a);
    va_end(ap);
    argv[argc] = NULL;
    char *copy[64];
    memcpy(copy, argv, sizeof argv);

    char cap[300];
    snprintf(cap, sizeof cap, "%s/captured.txt", base);
    fflush(stdout);
    fflush(stderr);
    int fd = open(cap, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int save1 = dup(1), save2 = dup(2);
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
    int rc = lcp_generate_main(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(save1, 1);
    dup2(save2, 2);
    close(save1);
    close(save2);
    FILE *f = fopen(cap, "r");
    size_t k = f ? fread(captured, 1, sizeof captured - 1, f) : 0;
    captured[k] = '\0';
    if (f) fclose(f);

    for (int i = 0; i < argc; i++) CHECK(argv[i] == copy[i]); /* argv not reordered */
    for (int i = 0; i < argc; i++) free(argv[i]);
    return rc;
}

/* 1 if captured is exactly one line starting with "lcpsolve generate: " */
static int one_line(void)
{
    size_t len = strlen(captured);
    return !strncmp(captured, "lcpsolve generate: ", 19) && len > 0 && captured[len - 1] == '\n' &&
           strchr(captured, '\n') == captured + len - 1;
}

static const char *path(const char *dir, const char *name)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static int exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

static double *dense(const char *file, int *m, int *n)
{
    lcp_csr A;
    lcp_err err;
    if (lcp_read_mtx_matrix(file, &A, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return NULL;
    }
    double *d = lcp_csr_to_dense_colmajor(&A);
    *m = A.m;
    *n = A.n;
    lcp_csr_free(&A);
    return d;
}

static double *vec(const char *file, int *n)
{
    double *v = NULL;
    lcp_err err;
    if (lcp_read_mtx_vector(file, &v, n, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return NULL;
    }
    return v;
}

static char *slurp(const char *file, long *len)
{
    FILE *f = fopen(file, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)*len + 1);
    if (b && fread(b, 1, (size_t)*len, f) != (size_t)*len) *len = -1;
    if (b) b[*len > 0 ? *len : 0] = '\0';
    fclose(f);
    return b;
}

static int same_file(const char *a, const char *b)
{
    long la, lb;
    char *x = slurp(a, &la), *y = slurp(b, &lb);
    int same = x && y && la == lb && la >= 0 && !memcmp(x, y, (size_t)la);
    free(x);
    free(y);
    return same;
}

static cJSON *manifest(const char *dir)
{
    long len;
    char *t = slurp(path(dir, "problem.json"), &len);
    cJSON *j = t ? cJSON_Parse(t) : NULL;
    free(t);
    return j;
}

static const char *jstr(cJSON *j, const char *key)
{
    cJSON *it = cJSON_GetObjectItemCaseSensitive(j, key);
    return cJSON_IsString(it) ? it->valuestring : "";
}

static double jparam(cJSON *j, const char *key)
{
    cJSON *it = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "params"), key);
    return cJSON_IsNumber(it) ? it->valuedouble : NAN;
}

static int symmetric(const double *A, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (A[i + (long)j * n] != A[j + (long)i * n]) return 0;
    return 1;
}

/* Dense Cholesky of A + shift I; returns the smallest pivot (negative or
 * zero when A + shift I is not positive definite). */
static double min_pivot(const double *A, int n, double shift)
{
    double *L = malloc((size_t)n * n * sizeof *L), mp = INFINITY;
    memcpy(L, A, (size_t)n * n * sizeof *L);
    for (int i = 0; i < n; i++) L[i + (long)i * n] += shift;
    for (int k = 0; k < n; k++) {
        double d = L[k + (long)k * n];
        for (int q = 0; q < k; q++) d -= L[k + (long)q * n] * L[k + (long)q * n];
        if (d < mp) mp = d;
        if (d <= 0.0) break;
        d = sqrt(d);
        L[k + (long)k * n] = d;
        for (int i = k + 1; i < n; i++) {
            double s = L[i + (long)k * n];
            for (int q = 0; q < k; q++) s -= L[i + (long)q * n] * L[k + (long)q * n];
            L[i + (long)k * n] = s / d;
        }
    }
    free(L);
    return mp;
}

/* Eigenvalues of a symmetric matrix by cyclic Jacobi rotations: ev[0..n-1]
 * (unsorted). */
static void eigs(const double *A0, int n, double *ev)
{
    double *A = malloc((size_t)n * n * sizeof *A);
    memcpy(A, A0, (size_t)n * n * sizeof *A);
#define E(i, j) A[(i) + (long)(j) * n]
    for (int sweep = 0; sweep < 100; sweep++) {
        double off = 0.0;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) off += E(p, q) * E(p, q);
        if (off < 1e-30) break;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) {
                if (E(p, q) == 0.0) continue;
                double th = (E(q, q) - E(p, p)) / (2.0 * E(p, q));
                double t = (th >= 0 ? 1.0 : -1.0) / (fabs(th) + sqrt(th * th + 1.0));
                double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < n; k++) { /* columns p, q */
                    double akp = E(k, p), akq = E(k, q);
                    E(k, p) = c * akp - s * akq;
                    E(k, q) = s * akp + c * akq;
                }
                for (int k = 0; k < n; k++) { /* rows p, q */
                    double apk = E(p, k), aqk = E(q, k);
                    E(p, k) = c * apk - s * aqk;
                    E(q, k) = s * apk + c * aqk;
                }
            }
    }
    for (int i = 0; i < n; i++) ev[i] = E(i, i);
#undef E
    free(A);
}

/* The smallest and largest eigenvalue of a symmetric matrix. */
static void eig_range(const double *A0, int n, double *lo, double *hi)
{
    double *ev = malloc((size_t)n * sizeof *ev);
    eigs(A0, n, ev);
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        if (ev[i] < *lo) *lo = ev[i];
        if (ev[i] > *hi) *hi = ev[i];
    }
    free(ev);
}

/* Numerical rank of a symmetric positive semidefinite matrix: eigenvalues
 * above 1e-10 times the largest. */
static int rank_psd(const double *A, int n)
{
    double *ev = malloc((size_t)n * sizeof *ev), mx = 0.0;
    eigs(A, n, ev);
    for (int i = 0; i < n; i++) mx = fmax(mx, ev[i]);
    int r = 0;
    for (int i = 0; i < n; i++) r += ev[i] > 1e-10 * mx;
    free(ev);
    return r;
}

/* Reads the folder of a rigid-body scene and checks the factored form
 * against the assembled one: A = J M^-1 J' and b = J v, recomputed densely
 * (M is block diagonal: m I3 and a 3x3 symmetric inertia block a body,
 * checked too, inverted here by Gauss-Jordan).
 * Returns A (n x n, caller frees) and b. */
static double *check_rigid(const char *dir, int rows, int bodies, double **bout)
{
    int am, an, mm, mn, jm, jn, nb, nv;
    double *A = dense(path(dir, "A.mtx"), &am, &an);
    double *M = dense(path(dir, "M.mtx"), &mm, &mn);
    double *J = dense(path(dir, "J.mtx"), &jm, &jn);
    double *b = vec(path(dir, "b.mtx"), &nb);
    double *v = vec(path(dir, "v.mtx"), &nv);
    CHECK(A && M && J && b && v);
    if (!A || !M || !J || !b || !v) exit(1);
    CHECK(am == rows && an == rows && nb == rows);
    CHECK(mm == 6 * bodies && mn == 6 * bodies && nv == 6 * bodies);
    CHECK(jm == rows && jn == 6 * bodies);
    /* nonzeros only on the diagonal and in the 3x3 inertia blocks */
    int block_ok = 1;
    for (int i = 0; i < mm; i++)
        for (int j = 0; j < mm; j++) {
            int inblock = i == j || (i / 6 == j / 6 && i % 6 >= 3 && j % 6 >= 3);
            if ((!inblock && M[i + (long)j * mm] != 0.0) || (i == j && !(M[i + (long)i * mm] > 0.0)) ||
                M[i + (long)j * mm] != M[j + (long)i * mm])
                block_ok = 0;
        }
    CHECK(block_ok);
    /* M^-1 block by block (6x6 Gauss-Jordan, no pivoting: SPD blocks) */
    double *Mi = calloc((size_t)mm * mm, sizeof *Mi);
    for (int k0 = 0; k0 < mm; k0 += 6) {
        double a[6][12];
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 12; c++) a[r][c] = c < 6 ? M[k0 + r + (long)(k0 + c) * mm] : (c - 6 == r);
        for (int p = 0; p < 6; p++) {
            double d = a[p][p];
            for (int c = 0; c < 12; c++) a[p][c] /= d;
            for (int r = 0; r < 6; r++)
                if (r != p) {
                    double f = a[r][p];
                    for (int c = 0; c < 12; c++) a[r][c] -= f * a[p][c];
                }
        }
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 6; c++) Mi[k0 + r + (long)(k0 + c) * mm] = a[r][c + 6];
    }
    double err = 0.0, errb = 0.0, amax = 0.0;
    for (int i = 0; i < rows; i++) {
        for (int j = 0; j < rows; j++) {
            double s = 0.0;
            for (int k = 0; k < mm; k++) {
                if (J[i + (long)k * jm] == 0.0) continue;
                for (int q = k - k % 6; q < k - k % 6 + 6; q++)
                    s += J[i + (long)k * jm] * Mi[k + (long)q * mm] * J[j + (long)q * jm];
            }
            err = fmax(err, fabs(s - A[i + (long)j * rows]));
            amax = fmax(amax, fabs(s));
        }
        double s = 0.0;
        for (int k = 0; k < mm; k++) s += J[i + (long)k * jm] * v[k];
        errb = fmax(errb, fabs(s - b[i]));
    }
    CHECK(err <= 1e-12 * fmax(1.0, amax));
    CHECK(errb <= 1e-14);
    CHECK(symmetric(A, rows));
    int posdiag = 1;
    for (int i = 0; i < rows; i++) posdiag &= A[i + (long)i * rows] > 0.0;
    CHECK(posdiag);
    /* positive semidefinite: A + eps I has a Cholesky factor */
    CHECK(min_pivot(A, rows, 1e-9 * amax) > 0.0);
    /* v = dt M^-1 f: (0, 0, -dt g) and no spin for every body */
    int vok = 1;
    for (int k = 0; k < bodies; k++)
        for (int q = 0; q < 6; q++) vok &= fabs(v[6 * k + q] - (q == 2 ? -0.0981 : 0.0)) < 1e-15;
    CHECK(vok);
    free(M);
    free(Mi);
    free(J);
    free(v);
    *bout = b;
    return A;
}

static void test_column(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/column", base);
    CHECK(run("column", "--bodies", "5", "-o", dir, NULL) == 0);
    CHECK(one_line() && strstr(captured, "column") && strstr(captured, "5 contacts"));
    const char *files[] = {"A.mtx", "b.mtx", "M.mtx", "J.mtx", "v.mtx", "problem.json"};
    for (int k = 0; k < 6; k++) CHECK(exists(path(dir, files[k])));
    CHECK(!exists(path(dir, "mu.mtx")));
    double *b, *A = check_rigid(dir, 5, 5, &b);
    /* unit masses: A = tridiag(-1, 2, -1) except A(0,0) = 1/m_0 = 1 */
    CHECK_NEAR(A[0], 1.0, 1e-14);           /* ground / sphere 0: 1/m_0 */
    CHECK_NEAR(A[4 + 4 * 5], 2.0, 1e-14);   /* sphere 3 / sphere 4 */
    CHECK_NEAR(A[1 + 0 * 5], -1.0, 1e-14);  /* neighbouring contacts share a sphere */
    CHECK_NEAR(A[2 + 0 * 5], 0.0, 0.0);     /* contacts two apart share nothing */
    /* gravity pushes into the ground contact; the spheres fall together, so
     * the sphere-sphere contacts have no approach velocity */
    CHECK_NEAR(b[0], -0.0981, 1e-15);
    int bneg = 1;
    for (int i = 1; i < 5; i++) bneg &= b[i] <= 0.0 && b[i] > -1e-15;
    CHECK(bneg);
    cJSON *j = manifest(dir);
    CHECK(j && !strcmp(jstr(j, "kind"), "lcp") && !strcmp(jstr(j, "A"), "A.mtx") &&
          !strcmp(jstr(j, "b"), "b.mtx") && !strcmp(jstr(j, "scene"), "column") &&
          !strcmp(jstr(j, "M"), "M.mtx") && !cJSON_GetObjectItem(j, "mu"));
    CHECK_NEAR(jparam(j, "bodies"), 5, 0);
    CHECK_NEAR(jparam(j, "dt"), 0.01, 0);
    cJSON_Delete(j);
    free(A);
    free(b);

    /* the first row of A of a column: contact 0 touches sphere 0 only, whose
     * mass is also in contact 1: A(0,0) = 1/m_0 -- check with masses */
    CHECK(run("column", "--bodies", "5", "--mass-ratio", "100", "--mass", "2", "-o", dir, NULL) ==
          0);
    int m, n;
    double *M = dense(path(dir, "M.mtx"), &m, &n);
    A = dense(path(dir, "A.mtx"), &m, &n);
    CHECK(M && A);
    if (M && A) {
        CHECK_NEAR(M[0], 2.0, 1e-14);                        /* bottom sphere */
        CHECK_NEAR(M[24 + 24 * 30], 200.0, 1e-11);           /* top: 100 x heavier */
        CHECK_NEAR(M[12 + 12 * 30], 20.0, 1e-12);            /* geometric middle */
        CHECK_NEAR(M[3 + 3 * 30], 0.4 * 2.0 * 0.01, 1e-16);  /* 2/5 m r^2, r = 0.1 */
        CHECK_NEAR(A[0], 1.0 / 2.0, 1e-15);
        CHECK(symmetric(A, 5));
    }
    free(M);
    free(A);

    /* friction: 3 rows a contact, mu.mtx, kind fc3d (ccp on request) */
    CHECK(run("column", "--bodies", "5", "--mu", "0.3", "-o", dir, NULL) == 0);
    CHECK(exists(path(dir, "mu.mtx")));
    A = check_rigid(dir, 15, 5, &b);
    int nmu;
    double *mu = vec(path(dir, "mu.mtx"), &nmu);
    CHECK(mu && nmu == 5);
    for (int i = 0; mu && i < nmu; i++) CHECK_NEAR(mu[i], 0.3, 0);
    free(mu);
    CHECK_NEAR(b[0], -0.0981, 1e-15);
    CHECK_NEAR(b[1], 0.0, 0);
    CHECK_NEAR(b[2], 0.0, 0);
    /* tangent rows of the ground contact: sliding and rolling of sphere 0,
     * 1/m + r^2 / (2/5 m r^2) = 1 + 2.5 */
    CHECK_NEAR(A[1 + 1 * 15], 3.5, 1e-12);
    j = manifest(dir);
    CHECK(j && !strcmp(jstr(j, "kind"), "fc3d") && !strcmp(jstr(j, "mu"), "mu.mtx"));
    CHECK_NEAR(jparam(j, "mu"), 0.3, 0);
    cJSON_Delete(j);
    free(A);
    free(b);
    CHECK(run("column", "--bodies", "5", "--mu", "0.3", "--kind", "ccp", "-o", dir, NULL) == 0);
    j = manifest(dir);
    CHECK(j && !strcmp(jstr(j, "kind"), "ccp"));
    cJSON_Delete(j);

    /* frictionless again into the same folder: the stale mu.mtx goes */
    CHECK(run("column", "--bodies", "3", "-o", dir, NULL) == 0);
    CHECK(!exists(path(dir, "mu.mtx")));
    j = manifest(dir);
    CHECK(j && !strcmp(jstr(j, "kind"), "lcp"));
    cJSON_Delete(j);

    /* options before the scene, folder created with its parents */
    char deep[400];
    snprintf(deep, sizeof deep, "%s/x/y/z", base);
    CHECK(run("-o", deep, "--bodies", "2", "column", NULL) == 0);
    CHECK(exists(path(deep, "A.mtx")));
}

static void test_pyramid(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/pyramid", base);
    /* base 3: 3 + 2 + 1 = 6 boxes; 3 ground faces and 2 + 2 + 1 + 1 = ... the
     * 3 upper boxes rest on 2 boxes each: 6 faces; 4 points a face:
     * 4 * 3 + 4 * 6 = 36 contacts = 4 B^2 */
    CHECK(run("pyramid", "--base", "3", "-o", dir, NULL) == 0);
    CHECK(one_line() && strstr(captured, "6 bodies, 36 contacts"));
    double *b, *A = check_rigid(dir, 36, 6, &b);
    /* ground contacts (rows 0..11) approach at dt g; box-box ones do not */
    for (int i = 0; i < 36; i++) CHECK_NEAR(b[i], i < 12 ? -0.0981 : 0.0, 1e-15);
    /* rank deficient: 4 points on a face of rigid bodies */
    double amax = 0.0;
    for (int i = 0; i < 36; i++) amax = fmax(amax, A[i + i * 36]);
    CHECK(min_pivot(A, 36, 0.0) < 1e-8 * amax);
    free(A);
    free(b);
    int m, n;
    double *J = dense(path(dir, "J.mtx"), &m, &n);
    /* contact 0: corner (-2 + ..., ) of the bottom face of base box 0:
     * row [n, (p - x) x n] with p - x = (-w/2, -d/2, -h/2), n = z:
     * (p - x) x z = (-d/2, w/2, 0) */
    CHECK(J && m == 36 && n == 36);
    if (J) {
        CHECK_NEAR(J[0 + 2 * 36], 1.0, 0);
        CHECK_NEAR(J[0 + 3 * 36], -0.5, 1e-15);
        CHECK_NEAR(J[0 + 4 * 36], 0.5, 1e-15);
        CHECK_NEAR(J[0 + 5 * 36], 0.0, 0);
    }
    free(J);
    double *M = dense(path(dir, "M.mtx"), &m, &n);
    if (M) { /* box 1 x 1 x 0.5, 1 kg: m/12 (d^2 + h^2), m/12 (w^2 + h^2), m/12 (w^2 + d^2) */
        CHECK_NEAR(M[3 + 3 * 36], 1.25 / 12, 1e-15);
        CHECK_NEAR(M[4 + 4 * 36], 1.25 / 12, 1e-15);
        CHECK_NEAR(M[5 + 5 * 36], 2.0 / 12, 1e-15);
    }
    free(M);

    CHECK(run("pyramid", "--base", "3", "--mu", "0.5", "-o", dir, NULL) == 0);
    A = check_rigid(dir, 108, 6, &b);
    int nmu;
    double *mu = vec(path(dir, "mu.mtx"), &nmu);
    CHECK(mu && nmu == 36);
    free(mu);
    free(A);
    free(b);

    /* bigger bases: the count 4 B^2 */
    CHECK(run("pyramid", "--base", "30", "-o", dir, NULL) == 0);
    CHECK(strstr(captured, "465 bodies, 3600 contacts") != NULL);
    cJSON *j = manifest(dir);
    CHECK_NEAR(jparam(j, "contacts"), 3600, 0);
    CHECK_NEAR(jparam(j, "n"), 3600, 0);
    cJSON_Delete(j);
}

static void test_granular(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/granular", base);
    /* no holes, B = 3, L = 2: layer 0 has 9 spheres (9 ground contacts, 12
     * beside), layer 1 has 4 in the hollows (4 x 4 below, 4 beside) */
    CHECK(run("granular", "--base", "3", "--layers", "2", "--holes", "0", "-o", dir, NULL) == 0);
    CHECK(one_line() && strstr(captured, "13 bodies, 41 contacts"));
    double *b, *A = check_rigid(dir, 41, 13, &b);
    /* ground contacts approach at dt g, the others do not */
    int ground = 0;
    for (int i = 0; i < 41; i++) ground += fabs(b[i] + 0.0981) < 1e-15;
    CHECK(ground == 9);
    CHECK(symmetric(A, 41));
    free(A);
    free(b);
    /* the normals of the hollow contacts are at 45 degrees: J has entries
     * +-1/sqrt(2) in the z columns of the spheres below and above */
    int m, n;
    double *J = dense(path(dir, "J.mtx"), &m, &n);
    CHECK(J && m == 41 && n == 78);
    int diag45 = 0;
    for (int i = 0; J && i < 41; i++)
        for (int k = 0; k < 13; k++) diag45 += fabs(fabs(J[i + (6 * k + 2) * 41]) - sqrt(0.5)) < 1e-14;
    CHECK(diag45 == 32); /* 16 contacts, 2 spheres each */
    free(J);
    /* holes are seeded: the same seed gives the same scene, another seed another */
    CHECK(run("granular", "--base", "6", "--layers", "4", "--seed", "7", "-o", dir, NULL) == 0);
    char first[8192];
    snprintf(first, sizeof first, "%.8000s", captured);
    CHECK(run("granular", "--base", "6", "--layers", "4", "--seed", "7", "-o", dir, NULL) == 0);
    CHECK(!strcmp(first, captured));
    CHECK(run("granular", "--base", "6", "--layers", "4", "--seed", "8", "--mu", "0.4", "-o", dir, NULL) == 0);
    CHECK(strcmp(first, captured) != 0);
    CHECK(strstr(captured, "fc3d") != NULL);
    CHECK(run("granular", "--holes", "1", "-o", dir, NULL) == 2);
    CHECK(run("granular", "--layers", "0", "-o", dir, NULL) == 2);
    CHECK(run("column", "--layers", "3", "-o", dir, NULL) == 2);
}

/* Every contact point of a scene whose bodies are boxes lies on the top face
 * of the lower box (or the ground, z = 0) and on the bottom face of the
 * upper one, inside both footprints: the lever arms r = p - x are read back
 * from the normal rows of J (n = z: angular part (r_y, -r_x, 0)).  hx, hy
 * give each body's half extents along x and y; h the thickness. */
static int points_on_faces(const double *J, int rows, int nv, const double *hx, const double *hy,
                           double h)
{
    int ok = 1;
    for (int i = 0; i < rows; i++) {
        int seen = 0;
        for (int b = 0; b < nv / 6; b++) {
            double jz = J[i + (long)(6 * b + 2) * rows];
            if (jz == 0.0) continue;
            seen++;
            double sg = jz > 0.0 ? 1.0 : -1.0; /* +1: the upper body */
            double rx = -sg * J[i + (long)(6 * b + 4) * rows], ry = sg * J[i + (long)(6 * b + 3) * rows];
            ok &= fabs(jz) == 1.0 && fabs(rx) <= hx[b] * (1 + 1e-12) && fabs(ry) <= hy[b] * (1 + 1e-12);
            ok &= J[i + (long)(6 * b + 5) * rows] == 0.0; /* (r x z)_z = 0 */
            (void)h;
        }
        ok &= seen == 1 || seen == 2;
    }
    return ok;
}

static void test_tower(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/tower", base);
    /* 3 layers of 2 planks: 8 ground contacts, 2 x 4 crossings of 4 points */
    CHECK(run("tower", "--layers", "3", "-o", dir, NULL) == 0);
    CHECK(one_line() && strstr(captured, "6 bodies, 40 contacts"));
    double *b, *A = check_rigid(dir, 40, 6, &b);
    for (int i = 0; i < 40; i++) CHECK_NEAR(b[i], i < 8 ? -0.0981 : 0.0, 1e-15);
    /* a plank's normal rows span its push and two tilts: rank 3 a plank */
    CHECK(rank_psd(A, 40) == 18);
    free(A);
    free(b);
    int m, n;
    double *M = dense(path(dir, "M.mtx"), &m, &n), *J = dense(path(dir, "J.mtx"), &m, &n);
    CHECK(M && J && m == 40 && n == 36);
    if (M && J) {
        /* 0.12 x 0.024 x 0.008, 12 g: layer 0 along x, layer 1 along y */
        double w = 0.12, d = 0.024, h = 0.008, ms = 0.012 / 12;
        CHECK_NEAR(M[0], 0.012, 0);
        CHECK_NEAR(M[3 + 3 * 36], ms * (d * d + h * h), 1e-18);
        CHECK_NEAR(M[4 + 4 * 36], ms * (w * w + h * h), 1e-18);
        CHECK_NEAR(M[15 + 15 * 36], ms * (w * w + h * h), 1e-18); /* plank 2, layer 1 */
        CHECK_NEAR(M[16 + 16 * 36], ms * (d * d + h * h), 1e-18);
        CHECK_NEAR(M[17 + 17 * 36], ms * (w * w + d * d), 1e-18);
        double hx[6], hy[6];
        for (int k = 0; k < 6; k++) {
            hx[k] = (k / 2) % 2 ? d / 2 : w / 2;
            hy[k] = (k / 2) % 2 ? w / 2 : d / 2;
        }
        CHECK(points_on_faces(J, 40, 36, hx, hy, h));
        /* a crossing: the upper plank (layer 1, along y) meets it at x = +-d/2
         * of its axis: contact 8, the first crossing, touches planks 0 and 2 */
        CHECK_NEAR(fabs(J[8 + (6 * 2 + 4) * 40]), d / 2, 1e-17);
        CHECK_NEAR(fabs(J[8 + (6 * 0 + 3) * 40]), d / 2, 1e-17);
    }
    free(M);
    free(J);
    /* the count 4 P + 4 P^2 (L - 1); friction: 3 rows a contact, rank 6 a plank */
    CHECK(run("tower", "--layers", "4", "--planks", "3", "-o", dir, NULL) == 0);
    CHECK(strstr(captured, "12 bodies, 120 contacts") != NULL);
    CHECK(run("tower", "--layers", "2", "--mu", "0.5", "-o", dir, NULL) == 0);
    A = check_rigid(dir, 72, 4, &b);
    CHECK(rank_psd(A, 72) == 24);
    free(A);
    free(b);
    cJSON *j = manifest(dir);
    CHECK(j && !strcmp(jstr(j, "scene"), "tower") && !strcmp(jstr(j, "kind"), "fc3d"));
    CHECK_NEAR(jparam(j, "planks"), 2, 0);
    CHECK_NEAR(jparam(j, "width"), 0.12, 0);
    CHECK_NEAR(jparam(j, "contacts"), 24, 0);
    cJSON_Delete(j);
}

static void test_mass_ratio(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/mass-ratio", base);
    /* 4 spheres, the top one 1e6 kg on three of 1 kg */
    CHECK(run("mass-ratio", "--ratio", "1e6", "-o", dir, NULL) == 0);
    CHECK(one_line() && strstr(captured, "4 bodies, 4 contacts"));
    double *b, *A = check_rigid(dir, 4, 4, &b);
    CHECK_NEAR(A[0], 1.0, 1e-15);
    CHECK_NEAR(A[1 + 1 * 4], 2.0, 1e-15);
    CHECK_NEAR(A[3 + 3 * 4], 1.0 + 1e-6, 1e-15); /* light below, heavy above */
    CHECK_NEAR(A[2 + 3 * 4], -1.0, 1e-15);
    CHECK(min_pivot(A, 4, 0.0) > 0.0); /* positive definite */
    double lo, hi;
    eig_range(A, 4, &lo, &hi);
    CHECK(hi / lo > 1e6 && hi / lo < 1e8); /* ill-conditioned, like R */
    free(A);
    free(b);
    int m, n;
    double *M = dense(path(dir, "M.mtx"), &m, &n);
    if (M) {
        CHECK_NEAR(M[18 + 18 * 24], 1e6, 0);
        CHECK_NEAR(M[21 + 21 * 24], 0.4 * 1e6 * 0.01, 1e-6);
        CHECK_NEAR(M[12 + 12 * 24], 1.0, 0);
    }
    free(M);
    /* R = 1: the plain column, well conditioned */
    CHECK(run("mass-ratio", "--ratio", "1", "-o", dir, NULL) == 0);
    A = check_rigid(dir, 4, 4, &b);
    eig_range(A, 4, &lo, &hi);
    CHECK(hi / lo < 100.0);
    free(A);
    free(b);
    cJSON *j = manifest(dir);
    CHECK(j && !strcmp(jstr(j, "scene"), "mass-ratio"));
    CHECK_NEAR(jparam(j, "ratio"), 1, 0);
    CHECK_NEAR(jparam(j, "bodies"), 4, 0);
    cJSON_Delete(j);
}

static void test_redundant(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/redundant", base);
    CHECK(run("redundant", "--bodies", "2", "--points", "3", "-o", dir, NULL) == 0);
    CHECK(one_line() && strstr(captured, "2 bodies, 18 contacts"));
    double *b, *A = check_rigid(dir, 18, 2, &b);
    CHECK(rank_psd(A, 18) == 6); /* 3 a box: rank deficient by 2 (9 - 3) */
    for (int i = 0; i < 18; i++) CHECK_NEAR(b[i], i < 9 ? -0.0981 : 0.0, 1e-15);
    free(A);
    free(b);
    int m, n;
    double *J = dense(path(dir, "J.mtx"), &m, &n);
    if (J) { /* the 3 x 3 grid over the whole 1 x 1 face, corners and mid-points */
        double hx[2] = {0.5, 0.5}, hy[2] = {0.5, 0.5};
        CHECK(points_on_faces(J, 18, 12, hx, hy, 0.5));
        CHECK_NEAR(J[4 + 3 * 18], 0.0, 0); /* the centre point: no lever arm */
        CHECK_NEAR(J[4 + 4 * 18], 0.0, 0);
        CHECK_NEAR(J[0 + 4 * 18], 0.5, 1e-15);
    }
    free(J);
    CHECK(run("redundant", "--bodies", "2", "--points", "2", "--mu", "0.3", "-o", dir, NULL) == 0);
    A = check_rigid(dir, 24, 2, &b);
    CHECK(rank_psd(A, 24) == 12); /* 6 a box */
    free(A);
    free(b);
}

static void test_chain(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/chain", base);
    /* hanging still: the rope rows are vertical, A = (1/m) tridiag(-1, 2, -1)
     * with A(0,0) = 1/m (the anchor is fixed), b = -g dt on the anchor rope */
    CHECK(run("chain", "--links", "5", "-o", dir, NULL) == 0);
    CHECK(one_line() && strstr(captured, "5 bodies, 5 ropes"));
    double *b, *A = check_rigid(dir, 5, 5, &b);
    CHECK_NEAR(A[0], 10.0, 1e-12);
    CHECK_NEAR(A[2 + 2 * 5], 20.0, 1e-12);
    CHECK_NEAR(A[3 + 2 * 5], -10.0, 1e-12);
    CHECK_NEAR(A[4 + 2 * 5], 0.0, 0);
    CHECK_NEAR(b[0], -0.0981, 1e-15);
    for (int i = 1; i < 5; i++) CHECK_NEAR(b[i], 0.0, 0);
    free(A);
    free(b);
    int m, n;
    double *J = dense(path(dir, "J.mtx"), &m, &n);
    if (J) { /* rope 1 pulls link 1 up (+z) and link 0 down */
        CHECK_NEAR(J[1 + 2 * 5], -1.0, 0);
        CHECK_NEAR(J[1 + 8 * 5], 1.0, 0);
    }
    free(J);
    /* at 30 degrees: the capsules' inertia turned (M not diagonal), rows
     * along the chain, the anchor rope's approach -g dt cos 30 */
    CHECK(run("chain", "--links", "4", "--angle", "30", "-o", dir, NULL) == 0);
    A = check_rigid(dir, 4, 4, &b);
    CHECK_NEAR(b[0], -0.0981 * cos(M_PI / 6), 1e-15);
    CHECK(min_pivot(A, 4, 0.0) > 0.0);
    free(A);
    free(b);
    double *M = dense(path(dir, "M.mtx"), &m, &n);
    if (M) { /* capsule r = 0.02, l = 0.1, 0.1 kg: the off-diagonal x-z entry
              * (I_a - I_t) sin a (-cos a) */
        double r = 0.02, l = 0.1, vc = M_PI * r * r * l, vs = 4.0 / 3.0 * M_PI * r * r * r;
        double mc = 0.1 * vc / (vc + vs), ms = 0.1 - mc;
        double It = mc * (l * l / 12 + r * r / 4) + ms * (0.4 * r * r + l * l / 4 + 0.375 * l * r);
        double Ia = 0.5 * mc * r * r + 0.4 * ms * r * r;
        CHECK_NEAR(M[3 + 5 * 24], (Ia - It) * 0.5 * -cos(M_PI / 6), 1e-17);
        CHECK_NEAR(M[4 + 4 * 24], It, 1e-17);
    }
    free(M);
    /* --ground: one more row; hanging still, the last link's rope and the
     * ground hold it along the same line: A singular; tilted, the ground
     * point is off the rope's line: A positive definite */
    CHECK(run("chain", "--links", "4", "--ground", "-o", dir, NULL) == 0);
    CHECK(strstr(captured, "4 bodies, 5 ropes") != NULL);
    A = check_rigid(dir, 5, 4, &b);
    CHECK(rank_psd(A, 5) == 4);
    CHECK_NEAR(b[4], -0.0981, 1e-15);
    free(A);
    free(b);
    CHECK(run("chain", "--links", "4", "--ground", "--angle", "30", "-o", dir, NULL) == 0);
    A = check_rigid(dir, 5, 4, &b);
    CHECK(rank_psd(A, 5) == 5);
    free(A);
    free(b);
    cJSON *j = manifest(dir);
    CHECK(j && !strcmp(jstr(j, "scene"), "chain") && !strcmp(jstr(j, "kind"), "lcp"));
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "params"), "ground")));
    CHECK_NEAR(jparam(j, "angle"), 30, 0);
    cJSON_Delete(j);
}

static void test_murty(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/murty", base);
    CHECK(run("murty", "--size", "6", "-o", dir, NULL) == 0);
    CHECK(!exists(path(dir, "M.mtx")) && !exists(path(dir, "mu.mtx")));
    int m, n, nb;
    double *A = dense(path(dir, "A.mtx"), &m, &n);
    double *b = vec(path(dir, "b.mtx"), &nb);
    CHECK(A && b && m == 6 && n == 6 && nb == 6);
    if (A && b) {
        int ok = 1;
        for (int i = 0; i < 6; i++) {
            ok &= b[i] == -1.0;
            for (int j = 0; j < 6; j++)
                ok &= A[i + j * 6] == (j == i ? 1.0 : j < i ? 2.0 : 0.0); /* lower triangular */
        }
        CHECK(ok);
    }
    free(A);
    free(b);
    cJSON *j = manifest(dir);
    CHECK(j && !strcmp(jstr(j, "kind"), "lcp") && !strcmp(jstr(j, "scene"), "murty"));
    cJSON_Delete(j);
    /* the default size is 8 */
    CHECK(run("murty", "-o", dir, NULL) == 0);
    A = dense(path(dir, "A.mtx"), &m, &n);
    CHECK(m == 8);
    free(A);
}

static void test_random_spd(void)
{
    char d1[300], d2[300], d3[300];
    snprintf(d1, sizeof d1, "%s/rspd1", base);
    snprintf(d2, sizeof d2, "%s/rspd2", base);
    snprintf(d3, sizeof d3, "%s/rspd3", base);
    CHECK(run("random-spd", "--size", "60", "--cond", "100", "--seed", "3", "-o", d1, NULL) == 0);
    CHECK(one_line() && strstr(captured, "random-spd"));
    CHECK(run("random-spd", "--seed", "3", "--size", "60", "--cond", "100", "-o", d2, NULL) == 0);
    CHECK(run("random-spd", "--size", "60", "--cond", "100", "--seed", "4", "-o", d3, NULL) == 0);
    CHECK(same_file(path(d1, "A.mtx"), path(d2, "A.mtx")));
    CHECK(same_file(path(d1, "b.mtx"), path(d2, "b.mtx")));
    CHECK(same_file(path(d1, "problem.json"), path(d2, "problem.json")));
    CHECK(!same_file(path(d1, "A.mtx"), path(d3, "A.mtx")));
    CHECK(!exists(path(d1, "M.mtx")));

    int m, n, nb;
    double *A = dense(path(d1, "A.mtx"), &m, &n);
    double *b = vec(path(d1, "b.mtx"), &nb);
    CHECK(A && b && m == 60 && n == 60 && nb == 60);
    if (A && b) {
        CHECK(symmetric(A, 60));
        int posdiag = 1, neg = 0, pos = 0, offneg = 0, offpos = 0;
        for (int i = 0; i < 60; i++) {
            posdiag &= A[i + i * 60] > 0.0;
            neg += b[i] < 0.0;
            pos += b[i] > 0.0;
            for (int j = 0; j < 60; j++)
                if (j != i) {
                    offneg += A[i + j * 60] < 0.0;
                    offpos += A[i + j * 60] > 0.0;
                }
        }
        CHECK(posdiag);
        CHECK(neg > 10 && pos > 10);       /* mixed signs in b */
        CHECK(offneg > 0 && offpos > 0);   /* and off the diagonal of A */
        double lo, hi;
        eig_range(A, 60, &lo, &hi);
        CHECK(lo > 0.0);
        CHECK_NEAR(hi / lo, 100.0, 1.0);   /* the condition number asked for, within 1% */
        cJSON *j = manifest(d1);
        CHECK(j && !strcmp(jstr(j, "kind"), "lcp"));
        CHECK_NEAR(jparam(j, "cond_estimate"), 100.0, 1e-9);
        CHECK_NEAR(jparam(j, "seed"), 3, 0);
        cJSON_Delete(j);
    }
    free(A);
    free(b);

    /* dense and ill-conditioned, and the 1 x 1 case */
    CHECK(run("random-spd", "--size", "40", "--density", "1", "--cond", "1e6", "-o", d1, NULL) ==
          0);
    A = dense(path(d1, "A.mtx"), &m, &n);
    if (A) {
        int nz = 0;
        for (long k = 0; k < 1600; k++) nz += A[k] != 0.0;
        CHECK(nz == 1600);
        double lo, hi;
        eig_range(A, 40, &lo, &hi);
        CHECK(lo > 0.0 && fabs(hi / lo / 1e6 - 1.0) < 0.01);
    }
    free(A);
    CHECK(run("random-spd", "--size", "1", "-o", d1, NULL) == 0);
    A = dense(path(d1, "A.mtx"), &m, &n);
    CHECK(A && m == 1 && A[0] > 0.0);
    free(A);
}

static void test_errors(void)
{
    char dir[300], file[300];
    snprintf(dir, sizeof dir, "%s/err", base);
    snprintf(file, sizeof file, "%s/afile", base);
    FILE *f = fopen(file, "w");
    if (f) fclose(f);
#define BAD(...)                                  \
    do {                                          \
        CHECK(run(__VA_ARGS__, NULL) == 2);       \
        CHECK(one_line());                        \
        if (!one_line()) fputs(captured, stderr); \
    } while (0)
    BAD("spheres", "-o", dir);
    BAD("column", "--bodies", "0", "-o", dir);
    BAD("column", "--bodies", "abc", "-o", dir);
    BAD("column", "--bodies", "5x", "-o", dir);
    BAD("column", "--bodies", "5");
    BAD("column", "-o", dir, "--bodies");
    BAD("column", "--radius", "-1", "-o", dir);
    BAD("column", "--dt", "nan", "-o", dir);
    BAD("column", "--mu", "-0.5", "-o", dir);
    BAD("column", "--kind", "ccp", "-o", dir);
    BAD("column", "--mu", "0.5", "--kind", "lcp", "-o", dir);
    BAD("column", "--frobnicate", "-o", dir);
    BAD("column", "-x", "-o", dir);
    BAD("murty", "--bodies", "5", "-o", dir);
    BAD("murty", "--size", "100000", "-o", dir);
    BAD("random-spd", "--cond", "1", "-o", dir);
    BAD("random-spd", "--density", "1.5", "-o", dir);
    BAD("random-spd", "--seed", "-3", "-o", dir);
    BAD("random-spd", "--size", "1000000", "--density", "0.5", "-o", dir);
    BAD("pyramid", "--base", "100000", "-o", dir);
    BAD("tower", "--planks", "6", "-o", dir);               /* 6 x 0.024 > 0.12 */
    BAD("tower", "--planks", "2", "--depth", "0.1", "-o", dir);
    BAD("tower", "--layers", "0", "-o", dir);
    BAD("tower", "--bodies", "3", "-o", dir);
    BAD("mass-ratio", "--ratio", "0.5", "-o", dir);
    BAD("mass-ratio", "--ratio", "1e10", "-o", dir);
    BAD("mass-ratio", "--bodies", "1", "-o", dir);
    BAD("redundant", "--points", "1", "-o", dir);
    BAD("redundant", "--points", "33", "-o", dir);
    BAD("redundant", "--bodies", "100000", "--points", "32", "-o", dir);
    BAD("chain", "--links", "0", "-o", dir);
    BAD("chain", "--mu", "0.5", "-o", dir);
    BAD("chain", "--angle", "90", "-o", dir);
    BAD("chain", "--gap", "-0.1", "-o", dir);
    BAD("chain", "--ground", "yes", "-o", dir);
    BAD("column", "--ground", "-o", dir);
    BAD("-o", dir);
    BAD("column", "pyramid", "-o", dir);
    BAD("column", "-o", "");
    BAD("column", "-o", file);
    CHECK(!exists(dir)); /* nothing written on a usage error */
#undef BAD
    /* help: stdout, exit 0, every scene and option */
    CHECK(run("--help", NULL) == 0);
    CHECK(strstr(captured, "Usage: lcpsolve generate") && strstr(captured, "column") &&
          strstr(captured, "pyramid") && strstr(captured, "random-spd") &&
          strstr(captured, "murty") && strstr(captured, "--bodies") &&
          strstr(captured, "--mass-ratio") && strstr(captured, "--cond"));
    CHECK(strstr(captured, "tower") && strstr(captured, "mass-ratio:") &&
          strstr(captured, "redundant") && strstr(captured, "chain") &&
          strstr(captured, "--planks P") && strstr(captured, "--ground ") &&
          !strstr(captured, "(null)") && strstr(captured, "(default 0.12)"));
    CHECK(run("murty", "-h", NULL) == 0);
}

int main(void)
{
    snprintf(base, sizeof base, "%s/lcp-generate-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        return 1;
    }
    test_column();
    test_pyramid();
    test_granular();
    test_tower();
    test_mass_ratio();
    test_redundant();
    test_chain();
    test_murty();
    test_random_spd();
    test_errors();
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", base);
    CHECK_DONE();
}
