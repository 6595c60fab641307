/* tests/unit/test_core.c: unit tests of the core: CSR kernels, the residuals
 * of docs/contract.md on hand-solved problems, the load-time checks of
 * lcp_problem_finish (factored form included), the readers (Matrix Market,
 * JSON, folders, YAML configurations) and the atomic writers.
 *
 * Every expected number below is worked out by hand in the comment next to
 * it.  Files are written into a mkdtemp() folder that is removed at the end.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "io/config.h"
#include "la/csr.h"
#include "io/io.h"
#include "core/problem.h"
#include "core/verify.h"

#define EPS 1e-14

/* ------------------------------------------------------------------ helpers */

/* A from a dense row-major m x n array (exact zeros dropped). */
static void dense_rm(lcp_csr *A, int m, int n, const double *rm)
{
    double *cm = calloc((size_t)m * (size_t)n + 1, sizeof(double));
    for (int i = 0; i < m; i++)
        for (int c = 0; c < n; c++) cm[i + (size_t)c * m] = rm[(size_t)i * n + c];
    if (lcp_csr_from_dense_colmajor(A, m, n, cm)) {
        fprintf(stderr, "dense_rm: allocation failed\n");
        exit(2);
    }
    free(cm);
}

static double *dupv(const double *v, int n)
{
    double *d = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    if (n > 0) memcpy(d, v, (size_t)n * sizeof(double));
    return d;
}

/* A problem with A (dense row-major n x n) and b, source "test". */
static void prob(lcp_problem *p, lcp_kind kind, int n, const double *Arm, const double *b)
{
    lcp_problem_init(p);
    p->kind = kind;
    dense_rm(&p->A, n, n, Arm);
    p->b = dupv(b, n);
    p->blen = n;
    p->source = lcp_strdup("test");
}

static void set_mu(lcp_problem *p, const double *mu, int nmu)
{
    p->mu = dupv(mu, nmu);
    p->nmu = nmu;
}

static int has(const lcp_err *e, const char *s)
{
    int ok = strstr(e->msg, s) != NULL;
    if (!ok) fprintf(stderr, "  message '%s' lacks '%s'\n", e->msg, s);
    return ok;
}

static int one_line(const lcp_err *e) { return e->msg[0] && !strchr(e->msg, '\n'); }

static char tmpdir[64];
static char *made[128];
static int nmade;

/* Writes text into tmpdir/name (creating parent folders given in name is the
 * caller's job), returns the path (owned by the cleanup list). */
static const char *wfile(const char *name, const char *text)
{
    size_t len = strlen(tmpdir) + strlen(name) + 2;
    char *path = malloc(len);
    snprintf(path, len, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        exit(2);
    }
    fputs(text, f);
    fclose(f);
    if (nmade < 128) made[nmade++] = path;
    return path;
}

static const char *wdir(const char *name)
{
    size_t len = strlen(tmpdir) + strlen(name) + 2;
    char *path = malloc(len);
    snprintf(path, len, "%s/%s", tmpdir, name);
    mkdir(path, 0700);
    if (nmade < 128) made[nmade++] = path;
    return path; /* removed by check_rm_tree, freed at the end */
}

/* Number of entries of dir whose name contains s. */
static int count_in_dir(const char *dir, const char *s)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int k = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strstr(e->d_name, s)) k++;
    closedir(d);
    return k;
}

/* Runs fn in a child process: a crash or a sanitizer report there becomes
 * one failed check instead of the end of this binary. */
static int isolated(int (*fn)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return 0;
    if (pid == 0) _exit(fn() ? 0 : 1);
    int st = 0;
    if (waitpid(pid, &st, 0) != pid) return 0;
    if (WIFSIGNALED(st)) fprintf(stderr, "  child killed by signal %d\n", WTERMSIG(st));
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* n doubles that end exactly at a page with no access: reading one past
 * the end faults (deterministically, with or without sanitizers). */
static double *guarded(const double *v, int n)
{
    long pg = sysconf(_SC_PAGESIZE);
    char *base = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return NULL;
    mprotect(base + pg, (size_t)pg, PROT_NONE);
    double *d = (double *)(base + pg) - n;
    memcpy(d, v, (size_t)n * sizeof(double));
    return d;
}

/* --------------------------------------------------------------------- csr */

static void test_csr(void)
{
    /* unsorted triplets with a duplicate (0,1): 2 + 0.5
     *   [4  2.5  0  0]
     *   [0  0   -1  0]
     *   [3  0    0  1] */
    const int ti[] = {2, 0, 2, 0, 1, 0};
    const int tj[] = {3, 1, 0, 1, 2, 0};
    const double tx[] = {1.0, 2.0, 3.0, 0.5, -1.0, 4.0};
    lcp_csr A;
    CHECK(lcp_csr_from_triplets(&A, 3, 4, 6, ti, tj, tx) == 0);
    CHECK(A.m == 3 && A.n == 4);
    CHECK(lcp_csr_nnz(&A) == 5);
    const int ep[] = {0, 2, 3, 5}, ej[] = {0, 1, 2, 0, 3};
    const double ex[] = {4.0, 2.5, -1.0, 3.0, 1.0};
    for (int i = 0; i < 4; i++) CHECK(A.p[i] == ep[i]);
    for (int k = 0; k < 5; k++) {
        CHECK(A.j[k] == ej[k]);
        CHECK(A.x[k] == ex[k]);
    }
    /* matvec: x = (1, 2, 3, 4): y = (4 + 5, -3, 3 + 4) */
    double x[] = {1, 2, 3, 4}, y[3];
    lcp_csr_matvec(&A, x, y);
    CHECK(y[0] == 9.0 && y[1] == -3.0 && y[2] == 7.0);
    /* diag: present, absent, absent */
    CHECK(lcp_csr_diag(&A, 0) == 4.0);
    CHECK(lcp_csr_diag(&A, 1) == 0.0);
    CHECK(lcp_csr_diag(&A, 2) == 0.0);
    { /* every row full (read by position), and its entries after a row's change of one (by bisection again) */
        const double F[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        lcp_csr Fc;
        dense_rm(&Fc, 3, 3, F);
        CHECK(lcp_csr_diag(&Fc, 0) == 1 && lcp_csr_diag(&Fc, 1) == 5 && lcp_csr_diag(&Fc, 2) == 9);
        lcp_csr_free(&Fc);
        const double G[] = {1, 0, 3, 4, 5, 6, 7, 8, 9}; /* 8 entries: not full */
        dense_rm(&Fc, 3, 3, G);
        CHECK(lcp_csr_diag(&Fc, 0) == 1 && lcp_csr_diag(&Fc, 1) == 5 && lcp_csr_diag(&Fc, 2) == 9);
        lcp_csr_free(&Fc);
    }
    { /* block3: contact 1's diagonal block of a 6 x 6 matrix with entries beside it (columns 0-2 and 5 left out
       * of rows 3-5, the absent ones 0) */
        double S[36], B[9];
        for (int k = 0; k < 36; k++) S[k] = k % 5 == 2 ? 0.0 : k + 1; /* (zeros: absent from the CSR) */
        lcp_csr Sc;
        dense_rm(&Sc, 6, 6, S);
        lcp_csr_block3(&Sc, 1, B);
        int same = 1;
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++) same &= B[3 * a + c] == S[6 * (3 + a) + 3 + c];
        CHECK(same && B[1] == 0.0 && B[3] == 0.0 && B[0] == 22 && B[8] == 36);
        lcp_csr_block3(&Sc, 0, B);
        CHECK(B[0] == 1 && B[2] == 0.0 && B[4] == 0.0 && B[3] == 7 && B[8] == 15);
        lcp_csr_free(&Sc);
    }
    /* transpose: 4 x 3, rows sorted */
    lcp_csr T;
    CHECK(lcp_csr_transpose(&A, &T) == 0);
    CHECK(T.m == 4 && T.n == 3 && lcp_csr_nnz(&T) == 5);
    const int tp[] = {0, 2, 3, 4, 5}, tjj[] = {0, 2, 0, 1, 2};
    const double txx[] = {4.0, 3.0, 2.5, -1.0, 1.0};
    for (int i = 0; i < 5; i++) CHECK(T.p[i] == tp[i]);
    for (int k = 0; k < 5; k++) CHECK(T.j[k] == tjj[k] && T.x[k] == txx[k]);
    /* dense round trip (column-major) */
    double *d = lcp_csr_to_dense_colmajor(&A);
    CHECK(d != NULL);
    if (d) {
        const double want[12] = {4, 0, 3, 2.5, 0, 0, 0, -1, 0, 0, 0, 1};
        for (int k = 0; k < 12; k++) CHECK(d[k] == want[k]);
        lcp_csr B;
        CHECK(lcp_csr_from_dense_colmajor(&B, 3, 4, d) == 0);
        CHECK(lcp_csr_nnz(&B) == 5);
        for (int i = 0; i < 4; i++) CHECK(B.p[i] == A.p[i]);
        for (int k = 0; k < 5; k++) CHECK(B.j[k] == A.j[k] && B.x[k] == A.x[k]);
        lcp_csr_free(&B);
        free(d);
    }
    /* copy */
    lcp_csr C;
    CHECK(lcp_csr_copy(&C, &A) == 0);
    CHECK(lcp_csr_nnz(&C) == 5 && C.x[1] == 2.5 && C.j[4] == 3);
    lcp_csr_free(&C);
    CHECK(lcp_csr_all_finite(&A, NULL, NULL) == 1);
    A.x[3] = NAN;
    int bi = -1, bj = -1;
    CHECK(lcp_csr_all_finite(&A, &bi, &bj) == 0 && bi == 2 && bj == 0);
    CHECK(lcp_csr_is_symmetric(&A, 0.0) == 0); /* not square */
    lcp_csr_free(&T);
    lcp_csr_free(&A);
    CHECK(A.p == NULL && A.m == 0); /* freed and reset */
    lcp_csr_free(NULL);              /* NULL-safe */

    /* out of range: row m, column n, negative */
    const int bi1[] = {0, 3}, bj1[] = {0, 0};
    const int bi2[] = {0, 1}, bj2[] = {0, 4};
    const int bi3[] = {-1}, bj3[] = {0};
    const double bx[] = {1, 1};
    CHECK(lcp_csr_from_triplets(&A, 3, 4, 2, bi1, bj1, bx) == LCP_INPUT_ERROR);
    CHECK(A.p == NULL);
    CHECK(lcp_csr_from_triplets(&A, 3, 4, 2, bi2, bj2, bx) == LCP_INPUT_ERROR);
    CHECK(lcp_csr_from_triplets(&A, 3, 4, 1, bi3, bj3, bx) == LCP_INPUT_ERROR);
    lcp_csr_free(&A);
    /* no entries: an all-zero matrix */
    CHECK(lcp_csr_from_triplets(&A, 2, 2, 0, NULL, NULL, NULL) == 0);
    CHECK(A.m == 2 && lcp_csr_nnz(&A) == 0 && A.p[2] == 0);
    CHECK(lcp_csr_diag(&A, 1) == 0.0);
    lcp_csr_free(&A);
    /* duplicates that cancel stay as an explicit zero (summed, not dropped) */
    const int ci[] = {1, 1}, cj[] = {0, 0};
    const double cx[] = {2.0, -2.0};
    CHECK(lcp_csr_from_triplets(&A, 2, 2, 2, ci, cj, cx) == 0);
    CHECK(lcp_csr_nnz(&A) == 1 && A.x[0] == 0.0 && A.p[1] == 0 && A.p[2] == 1);
    lcp_csr_free(&A);

    /* symmetry */
    const double s1[] = {2, 1, 1, 3};
    const double s2[] = {2, 1, 1.1, 3};
    const double s3[] = {1, 1, 0, 1};
    dense_rm(&A, 2, 2, s1);
    CHECK(lcp_csr_is_symmetric(&A, 0.0) == 1);
    lcp_csr_free(&A);
    dense_rm(&A, 2, 2, s2); /* |1 - 1.1| = 0.1 vs tol * max|A| = tol * 3 */
    CHECK(lcp_csr_is_symmetric(&A, 1e-12) == 0);
    CHECK(lcp_csr_is_symmetric(&A, 0.05) == 1);
    lcp_csr_free(&A);
    dense_rm(&A, 2, 2, s3); /* structurally unsymmetric */
    CHECK(lcp_csr_is_symmetric(&A, 0.1) == 0);
    lcp_csr_free(&A);
    /* random sparse patterns against the entrywise definition: symmetric
     * ones, then one entry changed, removed or added (explicit zeros and
     * entries below the tolerance included) */
    unsigned seed = 12345;
    for (int trial = 0; trial < 400; trial++) {
        int n = 1 + trial % 9;
        double a[81] = {0}, amax = 0.0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j <= i; j++) {
                seed = seed * 1103515245u + 12345u;
                int r = (int)(seed >> 16) % 4;
                a[i * n + j] = a[j * n + i] = r == 0 ? 0.0 : r == 1 ? 1e-13 : (double)(seed % 1000) / 10.0 - 50.0;
            }
        seed = seed * 1103515245u + 12345u;
        int i0 = (int)(seed >> 16) % n, j0 = (int)(seed >> 8) % n, how = trial % 4;
        if (how == 1) a[i0 * n + j0] += 1e-3;                /* changed */
        if (how == 2) a[i0 * n + j0] = 0.0;                  /* removed */
        if (how == 3) a[i0 * n + j0] = a[i0 * n + j0] ? 0.0 : 7.0; /* added or removed */
        for (int k = 0; k < n * n; k++) amax = fmax(amax, fabs(a[k]));
        int want = 1;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (fabs(a[i * n + j] - a[j * n + i]) > 1e-9 * amax) want = 0;
        dense_rm(&A, n, n, a); /* drops exact zeros: absent entries */
        CHECK(lcp_csr_is_symmetric(&A, 1e-9) == want);
        lcp_csr_free(&A);
    }
    /* full rows (the dense path: its tiles of 8 and the rows and columns past the last full tile): symmetric,
     * then one entry moved by a little less or a little more than the tolerance, anywhere, the largest entry
     * anywhere too (it sets the tolerance's scale), and a NaN passed over as in the sparse walk */
    for (int trial = 0; trial < 600; trial++) {
        int n = 1 + trial % 27;
        double *a = malloc((size_t)n * n * sizeof *a), amax = 0.0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j <= i; j++) {
                seed = seed * 1103515245u + 12345u;
                a[i * n + j] = a[j * n + i] = 1.0 + (double)(seed % 1000) / 1000.0; /* no zero: every row full */
            }
        seed = seed * 1103515245u + 12345u;
        int i0 = (int)(seed >> 16) % n, j0 = (int)(seed >> 8) % n, how = (trial / 27) % 4;
        seed = seed * 1103515245u + 12345u;
        int r0 = (int)(seed >> 16) % n, c0 = (int)(seed >> 8) % n;
        a[r0 * n + c0] = a[c0 * n + r0] = 50.0; /* the largest */
        for (int k = 0; k < n * n; k++) amax = fmax(amax, fabs(a[k]));
        if (how == 1) a[i0 * n + j0] += 0.5e-9 * amax;
        if (how == 2) a[i0 * n + j0] += 2e-9 * amax;
        if (how == 3) a[i0 * n + j0] = NAN;
        int want = 1, exact = 1;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                if (fabs(a[i * n + j] - a[j * n + i]) > 1e-9 * amax) want = 0;
                if (fabs(a[i * n + j] - a[j * n + i]) > 0) exact = 0;
            }
        if (how == 2 && i0 != j0) CHECK(!want); /* the check itself can fail */
        dense_rm(&A, n, n, a);
        CHECK(lcp_csr_nnz(&A) == (long)n * n);
        CHECK(lcp_csr_is_symmetric(&A, 1e-9) == want);
        CHECK(lcp_csr_is_symmetric(&A, 0.0) == exact);
        lcp_csr_free(&A);
        free(a);
    }
    /* the largest entry facing a NaN still sets the tolerance's scale (a NaN is passed over, not its partner):
     * a difference of 1e-8 is within 1e-9 x 50, not within 1e-9 x 2; in a full tile and in a row's tail */
    for (int where = 0; where < 4; where++) {
        int n = 19;
        double a[19 * 19];
        for (int i = 0; i < n; i++)
            for (int j = 0; j <= i; j++) a[i * n + j] = a[j * n + i] = 1.0 + 0.01 * (i + j);
        int r0 = where & 1 ? 2 : 1, c0 = where & 1 ? 17 : 12; /* (1, 12): a full tile; (2, 17): past the last */
        a[r0 * n + c0] = where & 2 ? 50.0 : NAN;              /* the NaN above the diagonal, then below */
        a[c0 * n + r0] = where & 2 ? NAN : 50.0;
        a[3 * n + 5] += 1e-8;
        dense_rm(&A, n, n, a);
        CHECK(lcp_csr_nnz(&A) == (long)n * n);
        CHECK(lcp_csr_is_symmetric(&A, 1e-9) == 1);
        CHECK(lcp_csr_is_symmetric(&A, 1e-11) == 0);
        lcp_csr_free(&A);
    }
}

/* --------------------------------------------------------------------- lcp */

/* lcp_csr_row_dot3 (the residual's rows of up to 3 entries) gives
 * lcp_csr_row_dot's bits: every length 0-3, entries and x of either sign,
 * zeros of both signs (products of -0), infinities, NaN, and magnitudes
 * far apart (sums that round). */
static void test_row_dot3(void)
{
    const double vals[] = {1.5, -2.25, 0.0, -0.0, 1e300, -1e-300, 3.0e16, -7.0, INFINITY, 0.1};
    int aj[3] = {2, 0, 1};
    double ax[3], x[3];
    int bad = 0, cases = 0;
    for (int m = 0; m <= 3; m++)
        for (int t = 0; t < 2000; t++) {
            for (int k = 0; k < 3; k++) {
                ax[k] = vals[(t * 7 + k * 3 + m) % 10];
                x[k] = vals[(t * 3 + k * 5 + t / 10) % 10];
            }
            if (t % 97 == 0) x[t % 3] = NAN;
            double a = lcp_csr_row_dot(aj, ax, x, 0, m), b = lcp_csr_row_dot3(aj, ax, x, 0, m);
            bad += memcmp(&a, &b, sizeof a) != 0 && !(a != a && b != b);
            cases++;
        }
    CHECK(bad == 0 && cases == 8000);
}

/* The scale of the lcp residual, max(1, ||b||_inf): b of every length
 * from 0 to 11 with entries of either sign, -0, infinities and NaNs (passed
 * over, as fmax passes them) at every place, against a plain loop; the
 * largest entry at each place in turn. */
static void test_verify_bscale(void)
{
    const double vals[] = {0.5, -3.0, -0.0, 7.25, NAN, -INFINITY, 1e-300, -2.5};
    double b[11];
    lcp_problem p;
    memset(&p, 0, sizeof p);
    p.kind = LCP_KIND_LCP;
    p.b = b;
    int bad = 0, cases = 0;
    for (int n = 0; n <= 11; n++)
        for (int shift = 0; shift < 8; shift++)
            for (int big = -1; big < n; big++) {
                double want = 0.0;
                for (int i = 0; i < n; i++) {
                    b[i] = i == big ? -1e9 : vals[(i + shift) % 8];
                    want = fmax(want, fabs(b[i]));
                }
                p.n = n;
                double got = lcp_verify_bscale(&p);
                bad += !(got == want && !signbit(got));
                cases++;
            }
    CHECK(bad == 0 && cases > 500);
}

static void test_verify_lcp(void)
{
    /* A = [2 1; 1 2], b = (-4, 2), ||b||_inf = 4.  Solution x = (2, 0),
     * w = (0, 4). */
    const double A[] = {2, 1, 1, 2}, b[] = {-4, 2};
    lcp_problem p;
    lcp_err err = {{0}};
    prob(&p, LCP_KIND_LCP, 2, A, b);
    CHECK(lcp_problem_finish(&p, &err) == 0);
    CHECK(p.n == 2 && p.kind == LCP_KIND_LCP);
    double w[2];
    lcp_metrics m;
    double x1[] = {2, 0};
    lcp_verify(&p, x1, w, &m);
    CHECK(w[0] == 0.0 && w[1] == 4.0);
    CHECK(m.residual == 0.0 && m.complementarity == 0.0 && m.feasibility == 0.0);
    /* x = (1, 3): w = (2+3-4, 1+6+2) = (1, 9); min = (1, 3);
     * residual 3/4, x'w = 1 + 27 = 28, feasible */
    double x2[] = {1, 3};
    lcp_verify(&p, x2, w, &m);
    CHECK_NEAR(m.residual, 0.75, EPS);
    CHECK_NEAR(m.complementarity, 28.0, EPS);
    CHECK_NEAR(m.feasibility, 0.0, EPS);
    /* x = (-1, 0.5): w = (-2+0.5-4, -1+1+2) = (-5.5, 2); min = (-5.5, 0.5);
     * residual 5.5/4 = 1.375, |x'w| = |5.5 + 1| = 6.5, feasibility 5.5 */
    double x3[] = {-1, 0.5};
    lcp_verify(&p, x3, w, &m);
    CHECK_NEAR(m.residual, 1.375, EPS);
    CHECK_NEAR(m.complementarity, 6.5, EPS);
    CHECK_NEAR(m.feasibility, 5.5, EPS);
    /* complementarity is |x'w|, not sum |x_i w_i|: x = (1, -1) gives
     * w = (2-1-4, 1-2+2) = (-3, 1), x'w = -3 - 1 = -4 */
    double x4[] = {1, -1};
    lcp_verify(&p, x4, w, &m);
    CHECK_NEAR(m.complementarity, 4.0, EPS);
    CHECK_NEAR(m.residual, 3.0 / 4.0, EPS);
    CHECK_NEAR(m.feasibility, 3.0, EPS);
    /* lcp_verify_w with a given w */
    const double wg[] = {0.5, -0.25};
    const double xg[] = {0.0, 2.0};
    lcp_verify_w(&p, xg, wg, &m);
    CHECK_NEAR(m.residual, 0.25 / 4.0, EPS);
    CHECK_NEAR(m.complementarity, 0.5, EPS);
    CHECK_NEAR(m.feasibility, 0.25, EPS);
    /* NaN in x never looks like convergence */
    double xn[] = {NAN, 0};
    lcp_verify(&p, xn, w, &m);
    CHECK(m.residual == INFINITY);
    double xn2[] = {2, NAN}; /* w = (NaN, NaN) */
    lcp_verify(&p, xn2, w, &m);
    CHECK(m.residual == INFINITY);
    lcp_problem_free(&p);

    /* ||b||_inf < 1: the denominator is 1.  A = I, b = (0.5, -0.25),
     * x = (0, 0): w = b, min = (0, -0.25), residual 0.25 */
    const double I2[] = {1, 0, 0, 1}, bs[] = {0.5, -0.25};
    prob(&p, LCP_KIND_LCP, 2, I2, bs);
    CHECK(lcp_problem_finish(&p, &err) == 0);
    double x0[] = {0, 0};
    lcp_verify(&p, x0, w, &m);
    CHECK_NEAR(m.residual, 0.25, EPS);
    CHECK_NEAR(m.feasibility, 0.25, EPS);
    /* a NaN in x whose w row does not see it (A = I): still not solved */
    double xn3[] = {0, NAN};
    lcp_verify(&p, xn3, w, &m);
    CHECK(m.residual == INFINITY);
    lcp_problem_free(&p);
}

/* -------------------------------------------------------------------- blcp */

static void test_verify_blcp(void)
{
    /* A = I, b = (1, -2, 0.5, 0), ||b||_inf = 2,
     * lo = (-1, -inf, 0, -inf), hi = (1, 0.5, inf, inf).
     * Solution x = mid(lo, -b, hi) = (-1, 0.5, 0, 0), w = (0, -1.5, 0.5, 0). */
    const double A[] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const double b[] = {1, -2, 0.5, 0};
    const double lo[] = {-1, -INFINITY, 0, -INFINITY}, hi[] = {1, 0.5, INFINITY, INFINITY};
    lcp_problem p;
    lcp_err err = {{0}};
    prob(&p, LCP_KIND_NONE, 4, A, b);
    p.lo = dupv(lo, 4);
    p.hi = dupv(hi, 4);
    p.lolen = p.hilen = 4;
    CHECK(lcp_problem_finish(&p, &err) == 0);
    CHECK(p.kind == LCP_KIND_BLCP); /* inferred from the bounds */
    double w[4];
    lcp_metrics m;
    double xs[] = {-1, 0.5, 0, 0};
    lcp_verify(&p, xs, w, &m);
    CHECK(w[0] == 0 && w[1] == -1.5 && w[2] == 0.5 && w[3] == 0);
    CHECK(m.residual == 0.0 && m.complementarity == 0.0 && m.feasibility == 0.0);
    /* x = (0.5, 0.5, -0.25, 3): w = (1.5, -1.5, 0.25, 3)
     *   x - w = (-1, 2, -0.5, 0); mid = (-1, 0.5, 0, 0); x - mid = (1.5, 0, -0.25, 3)
     *   residual 3 / 2 = 1.5
     *   feasibility: row 2 is 0.25 below lo
     *   complementarity: w > 0 picks lo, w < 0 picks hi:
     *     row 0: 1.5 * |0.5 - (-1)| = 2.25; row 1: 1.5 * |0.5 - 0.5| = 0;
     *     row 2: 0.25 * |-0.25 - 0| = 0.0625; row 3: lo = -inf, so
     *     3 * max(1, |3|) = 9; total 11.3125 */
    double x[] = {0.5, 0.5, -0.25, 3};
    lcp_verify(&p, x, w, &m);
    CHECK_NEAR(m.residual, 1.5, EPS);
    CHECK_NEAR(m.feasibility, 0.25, EPS);
    CHECK_NEAR(m.complementarity, 11.3125, EPS);
    /* NaN */
    double xn[] = {NAN, 0.5, 0, 0};
    lcp_verify(&p, xn, w, &m);
    CHECK(m.residual == INFINITY);
    double blo, bhi;
    lcp_problem_bounds(&p, x, 1, &blo, &bhi);
    CHECK(blo == -INFINITY && bhi == 0.5);
    lcp_problem_free(&p);

    /* Bounds absent: lo = 0, hi = +inf (an lcp in blcp clothes).
     * A = I, b = (-1, 1): x = (1, 0) solves; x = (0, 0): residual 1. */
    const double I2[] = {1, 0, 0, 1}, b2[] = {-1, 1};
    prob(&p, LCP_KIND_BLCP, 2, I2, b2);
    CHECK(lcp_problem_finish(&p, &err) == 0);
    double y1[] = {1, 0}, y0[] = {0, 0};
    lcp_verify(&p, y1, w, &m);
    CHECK(m.residual == 0.0);
    lcp_verify(&p, y0, w, &m);
    CHECK_NEAR(m.residual, 1.0, EPS);
    lcp_problem_bounds(&p, y0, 0, &blo, &bhi);
    CHECK(blo == 0.0 && bhi == INFINITY);
    lcp_problem_free(&p);

    /* findex: row 0 a normal (lo 0, hi inf), rows 1 and 2 frictional with
     * findex = 0 and mu = 0.5: bounds +-0.5 |x_0|.
     * A = I, b = (-2, 3, -0.2), ||b||_inf = 3.
     * Solution: x0 = 2 (w0 = 0), bounds +-1: x1 = mid(-1, -3, 1) = -1 (w1 = 2),
     * x2 = mid(-1, 0.2, 1) = 0.2 (w2 = 0). */
    const double I3[] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, b3[] = {-2, 3, -0.2};
    const double mu3[] = {0, 0.5, 0.5};
    const int fi[] = {-1, 0, 0};
    prob(&p, LCP_KIND_BLCP, 3, I3, b3);
    set_mu(&p, mu3, 3);
    p.findex = malloc(3 * sizeof(int));
    memcpy(p.findex, fi, sizeof fi);
    p.findexlen = 3;
    CHECK(lcp_problem_finish(&p, &err) == 0);
    double f1[] = {2, -1, 0.2}, fw[3];
    lcp_verify(&p, f1, fw, &m);
    CHECK_NEAR(m.residual, 0.0, EPS);
    CHECK_NEAR(m.feasibility, 0.0, EPS);
    /* x = (2, 0.5, 0.2): w1 = 3.5, x1 - w1 = -3, mid = -1, |0.5 + 1| = 1.5;
     * residual 1.5 / 3 = 0.5 */
    double f2[] = {2, 0.5, 0.2};
    lcp_verify(&p, f2, fw, &m);
    CHECK_NEAR(m.residual, 0.5, EPS);
    /* x = (-4, 1.5, 0): the bounds use |x_0| = 4: +-2, so x1 = 1.5 is
     * inside; x0 = -4 violates lo = 0 by 4 */
    double f3[] = {-4, 1.5, 0};
    lcp_problem_bounds(&p, f3, 1, &blo, &bhi);
    CHECK(blo == -2.0 && bhi == 2.0);
    lcp_problem_bounds(&p, f3, 0, &blo, &bhi);
    CHECK(blo == 0.0 && bhi == INFINITY);
    lcp_verify(&p, f3, fw, &m);
    CHECK_NEAR(m.feasibility, 4.0, EPS);
    /* x = (1, 0.75, 0): bounds +-0.5, row 1 violates hi by 0.25 */
    double f4[] = {1, 0.75, 0};
    lcp_verify(&p, f4, fw, &m);
    CHECK_NEAR(m.feasibility, 0.25, EPS);
    lcp_problem_free(&p);
}

/* The blcp rows' one pass (w and the terms together, verify.c's blcp_chunk) against the terms of a given w
 * (lcp_verify_w: a row's terms one node at a time): the same w as A x + b row by row, and the same bits of
 * every metric, on banded and full rows (3 entries and fewer, more), bounds finite and infinite, findex rows,
 * x beyond its bounds, one chunk and several, a NaN in x */
static void test_verify_blcp_pass(void)
{
    unsigned seed = 12345;
    const int sizes[] = {1, 3, 7, 40, 1300};
    for (int t = 0; t < 10; t++) {
        int n = sizes[t % 5], band = t % 2 ? n : 1 + t % 3, findex = t >= 5;
        double *Arm = calloc((size_t)n * n, sizeof(double)), *b = malloc(n * sizeof(double));
        double *lo = malloc(n * sizeof(double)), *hi = malloc(n * sizeof(double)), *mu = malloc(n * sizeof(double));
        double *x = malloc(n * sizeof(double)), *w = malloc(n * sizeof(double)), *w2 = malloc(n * sizeof(double));
        int *fi = malloc(n * sizeof(int));
        for (int i = 0; i < n; i++) {
            for (int j = i - band; j <= i + band; j++)
                if (j >= 0 && j < n) Arm[(size_t)i * n + j] = (double)(seed = seed * 1103515245u + 12345u) / 4294967296.0 - 0.3;
            double r = (double)(seed = seed * 1103515245u + 12345u) / 4294967296.0;
            b[i] = 4 * r - 2;
            lo[i] = r < 0.2 ? -INFINITY : -r;
            hi[i] = r > 0.8 ? INFINITY : 2 * r;
            x[i] = 3 * r - 1.2;
            mu[i] = 0.3 + r;
            fi[i] = findex && i % 3 ? i - i % 3 : -1;
        }
        lcp_problem p;
        lcp_err err = {{0}};
        prob(&p, LCP_KIND_BLCP, n, Arm, b);
        p.lo = dupv(lo, n), p.hi = dupv(hi, n), p.lolen = p.hilen = n;
        if (findex) {
            set_mu(&p, mu, n);
            p.findex = malloc(n * sizeof(int));
            memcpy(p.findex, fi, n * sizeof(int));
            p.findexlen = n;
        }
        CHECK(lcp_problem_finish(&p, &err) == 0);
        for (int pass = 0; pass < 2; pass++) {
            if (pass) x[n / 2] = NAN; /* (its terms are dropped by the maxima: the NaN test alone says so) */
            lcp_metrics m1, m2;
            lcp_verify(&p, x, w, &m1);
            int wsame = 1;
            for (int i = 0; i < n; i++) {
                double wi = lcp_csr_row_dot(p.A.j, p.A.x, x, p.A.p[i], p.A.p[i + 1]) + p.b[i];
                wsame &= memcmp(&wi, &w[i], sizeof wi) == 0;
            }
            CHECK(wsame);
            memcpy(w2, w, n * sizeof(double));
            lcp_verify_w(&p, x, w2, &m2);
            CHECK(memcmp(&m1.residual, &m2.residual, sizeof(double)) == 0);
            CHECK(memcmp(&m1.complementarity, &m2.complementarity, sizeof(double)) == 0);
            CHECK(memcmp(&m1.feasibility, &m2.feasibility, sizeof(double)) == 0);
            CHECK(pass ? m1.residual == INFINITY : isfinite(m1.residual) && m1.residual > 0);
        }
        lcp_problem_free(&p);
        free(Arm), free(b), free(lo), free(hi), free(mu), free(x), free(w), free(w2), free(fi);
    }
}

/* ----------------------------------------------------------- cones, ccp/fc3d */

static void test_cone(void)
{
    /* inside K_0.5: |r_T| = 1 <= 0.5 * 2 */
    double r1[] = {2, 0.6, 0.8};
    lcp_cone_project(0.5, r1);
    CHECK(r1[0] == 2 && r1[1] == 0.6 && r1[2] == 0.8);
    /* inside the polar cone: mu |r_T| = 0.25 <= -r_n = 1 -> 0 */
    double r2[] = {-1, 0.3, 0.4};
    lcp_cone_project(0.5, r2);
    CHECK(r2[0] == 0 && r2[1] == 0 && r2[2] == 0);
    /* onto the surface: r = (1, 3, 4), |r_T| = 5:
     * r_n' = (1 + 0.5 * 5) / 1.25 = 2.8, r_T' = 0.5 * 2.8 * (3, 4) / 5 = (0.84, 1.12) */
    double r3[] = {1, 3, 4};
    lcp_cone_project(0.5, r3);
    CHECK_NEAR(r3[0], 2.8, EPS);
    CHECK_NEAR(r3[1], 0.84, EPS);
    CHECK_NEAR(r3[2], 1.12, EPS);
    CHECK_NEAR(hypot(r3[1], r3[2]), 0.5 * r3[0], EPS); /* on the surface */
    /* surface, negative normal but outside the polar cone: r = (-1, 4, 0),
     * mu = 1: r_n' = (-1 + 4) / 2 = 1.5, r_T' = (1.5, 0) */
    double r4[] = {-1, 4, 0};
    lcp_cone_project(1.0, r4);
    CHECK_NEAR(r4[0], 1.5, EPS);
    CHECK_NEAR(r4[1], 1.5, EPS);
    CHECK_NEAR(r4[2], 0.0, EPS);
    /* mu = 0: K_0 is the ray r_T = 0, r_n >= 0 */
    double z1[] = {1, 3, 4};
    lcp_cone_project(0.0, z1);
    CHECK(z1[0] == 1 && z1[1] == 0 && z1[2] == 0);
    double z2[] = {-2, 3, 4};
    lcp_cone_project(0.0, z2);
    CHECK(z2[0] == 0 && z2[1] == 0 && z2[2] == 0);
    double z3[] = {2, 0, 0};
    lcp_cone_project(0.0, z3);
    CHECK(z3[0] == 2 && z3[1] == 0 && z3[2] == 0);
    /* mu = 0, r_T = 0, r_n < 0: the projection onto the ray is 0 */
    double z4[] = {-1, 0, 0};
    lcp_cone_project(0.0, z4);
    CHECK(z4[0] == 0 && z4[1] == 0 && z4[2] == 0);
    /* mu > 0, r_T = 0, r_n < 0: polar cone -> 0 */
    double z5[] = {-1, 0, 0};
    lcp_cone_project(0.5, z5);
    CHECK(z5[0] == 0 && z5[1] == 0 && z5[2] == 0);
    /* idempotent on the result */
    double r5[] = {2.8, 0.84, 1.12};
    lcp_cone_project(0.5, r5);
    CHECK_NEAR(r5[0], 2.8, EPS);
    CHECK_NEAR(r5[1], 0.84, EPS);
}

static void test_verify_friction(void)
{
    const double I3[] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    lcp_problem p;
    lcp_err err = {{0}};
    lcp_metrics m;
    double u[6];

    /* One contact, W = I, mu = 0.5, q = (-1, 0.5, 0), r = (1, 0, 0):
     * u = (0, 0.5, 0), |q| = sqrt(1.25), |r| = 1, |u| = 0.5.
     * ccp: z = r - u = (1, -0.5, 0) is inside K (0.5 <= 0.5), so
     *   r - P(z) = (0, 0.5, 0): residual 0.5 / sqrt(1.25);
     *   r'u = 0; r in K; u to K* = K_2: P = (0.2, 0.4, 0),
     *   distance sqrt(0.05).
     * fc3d: u~ = u + 0.5 * 0.5 e_n = (0.25, 0.5, 0); z = (0.75, -0.5, 0),
     *   |z_T| = 0.5 > 0.375: P(z) = ((0.75 + 0.25) / 1.25 = 0.8, -0.4, 0);
     *   r - P(z) = (0.2, 0.4, 0): residual sqrt(0.2) / sqrt(1.25) = 0.4;
     *   r'u~ = 0.25; u~ in K_2 (0.5 <= 2 * 0.25). */
    const double q1[] = {-1, 0.5, 0}, mu1[] = {0.5};
    double r1[] = {1, 0, 0};
    prob(&p, LCP_KIND_CCP, 3, I3, q1);
    set_mu(&p, mu1, 1);
    CHECK(lcp_problem_finish(&p, &err) == 0);
    CHECK(p.nc == 1);
    lcp_verify(&p, r1, u, &m);
    CHECK_NEAR(m.residual, 0.5 / sqrt(1.25), EPS);
    CHECK_NEAR(m.complementarity, 0.0, EPS);
    CHECK_NEAR(m.feasibility, sqrt(0.05), EPS);
    p.kind = LCP_KIND_FC3D;
    lcp_verify(&p, r1, u, &m);
    CHECK_NEAR(m.residual, 0.4, EPS);
    CHECK_NEAR(m.complementarity, 0.25, EPS);
    CHECK_NEAR(m.feasibility, 0.0, EPS);
    lcp_problem_free(&p);

    /* Sliding contact, W = I, mu = 0.5: r = (1, -0.5, 0) on the cone's
     * surface, u = (0, 1, 0) (sliding along +t1), q = u - r = (-1, 1.5, 0).
     * fc3d: u~ = (0.5, 1, 0); z = r - u~ = (0.5, -1.5, 0);
     *   P(z) = ((0.5 + 0.75) / 1.25 = 1, -0.5, 0) = r: residual 0, r'u~ = 0.
     * ccp (no De Saxce term): z = (1, -1.5, 0), P(z) = (1.4, -0.7, 0),
     *   r - P(z) = (-0.4, 0.2, 0): residual sqrt(0.2) / max(sqrt(3.25),
     *   sqrt(1.25), 1) = sqrt(0.2 / 3.25). */
    const double q2[] = {-1, 1.5, 0};
    double r2[] = {1, -0.5, 0};
    prob(&p, LCP_KIND_FC3D, 3, I3, q2);
    set_mu(&p, mu1, 1);
    CHECK(lcp_problem_finish(&p, &err) == 0);
    lcp_verify(&p, r2, u, &m);
    CHECK(u[0] == 0 && u[1] == 1 && u[2] == 0);
    CHECK_NEAR(m.residual, 0.0, EPS);
    CHECK_NEAR(m.complementarity, 0.0, EPS);
    CHECK_NEAR(m.feasibility, 0.0, EPS);
    p.kind = LCP_KIND_CCP;
    lcp_verify(&p, r2, u, &m);
    CHECK_NEAR(m.residual, sqrt(0.2 / 3.25), EPS);
    /* r'u = -0.5 */
    CHECK_NEAR(m.complementarity, 0.5, EPS);
    lcp_problem_free(&p);

    /* Two contacts: the first as above (r = (1, 0, 0), q = (-1, 0.5, 0),
     * mu 0.5), the second sticking: mu = 0.3, r = (2, 0.3, -0.4)
     * (|r_T| = 0.5 <= 0.6), u = 0, q = -r.
     * fc3d: err^2 = 0.2 + 0; |q|^2 = 1.25 + 4.25 = 5.5, |r|^2 = 5.25,
     * |u|^2 = 0.25: residual sqrt(0.2 / 5.5); complementarity 0.25. */
    const double I6[36] = {1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
                           0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1};
    const double q3[] = {-1, 0.5, 0, -2, -0.3, 0.4}, mu3[] = {0.5, 0.3};
    double r3[] = {1, 0, 0, 2, 0.3, -0.4};
    prob(&p, LCP_KIND_FC3D, 6, I6, q3);
    set_mu(&p, mu3, 2);
    CHECK(lcp_problem_finish(&p, &err) == 0);
    CHECK(p.nc == 2);
    lcp_verify(&p, r3, u, &m);
    CHECK_NEAR(m.residual, sqrt(0.2 / 5.5), EPS);
    CHECK_NEAR(m.complementarity, 0.25, EPS);
    CHECK_NEAR(m.feasibility, 0.0, EPS);
    /* NaN in r */
    double rn[] = {NAN, 0, 0, 2, 0.3, -0.4};
    lcp_verify(&p, rn, u, &m);
    CHECK(m.residual == INFINITY);
    lcp_problem_free(&p);

    /* r outside its cone, u = 0: W = I, mu = 0.3, r = (0, 0.6, 0.8), q = -r.
     * |r_T| = 1, r_n = 0: P_K(r) = (P_n, 0.3 P_n (0.6, 0.8)) with
     * P_n = (0 + 0.3 * 1) / 1.09; feasibility = |r - P_K(r)| =
     * sqrt(P_n^2 + (1 - 0.3 P_n)^2); the natural map: z = r - 0 = r, so the
     * residual is |r - P_K(r)| / |r| (|q| = |r| = 1, |u| = 0) */
    const double q4[] = {0, -0.6, -0.8}, mu4[] = {0.3};
    double r4[] = {0, 0.6, 0.8};
    prob(&p, LCP_KIND_FC3D, 3, I3, q4);
    set_mu(&p, mu4, 1);
    CHECK(lcp_problem_finish(&p, &err) == 0);
    lcp_verify(&p, r4, u, &m);
    double pn = 0.3 / 1.09, dist = sqrt(pn * pn + (1 - 0.3 * pn) * (1 - 0.3 * pn));
    CHECK_NEAR(m.feasibility, dist, EPS);
    CHECK_NEAR(m.residual, dist, EPS);
    CHECK_NEAR(m.complementarity, 0.0, EPS);
    lcp_problem_free(&p);

    /* A frictionless (mu = 0) separating contact beside a solved sliding one:
     * contact 2 has r = 0, u = (1, 0, 0) (q = (1, 0, 0)): z = r - u = (-1, 0, 0),
     * P_K0(z) = 0, so its error is 0 and the pair is solved: residual 0. */
    const double q5[] = {-1, 1.5, 0, 1, 0, 0}, mu5[] = {0.5, 0.0};
    double r5[] = {1, -0.5, 0, 0, 0, 0};
    prob(&p, LCP_KIND_FC3D, 6, I6, q5);
    set_mu(&p, mu5, 2);
    CHECK(lcp_problem_finish(&p, &err) == 0);
    lcp_verify(&p, r5, u, &m);
    CHECK_NEAR(m.residual, 0.0, EPS);
    CHECK_NEAR(m.feasibility, 0.0, EPS);
    p.kind = LCP_KIND_CCP; /* contact 2 alone: the same for ccp */
    lcp_verify(&p, r5, u, &m);
    CHECK(m.residual > 0.1); /* contact 1 is not a ccp solution */
    lcp_problem_free(&p);

    /* all zero: the denominator is 1, residual 0 */
    const double q0[] = {0, 0, 0};
    double r0[] = {0, 0, 0};
    prob(&p, LCP_KIND_FC3D, 3, I3, q0);
    set_mu(&p, mu1, 1);
    CHECK(lcp_problem_finish(&p, &err) == 0);
    lcp_verify(&p, r0, u, &m);
    CHECK(m.residual == 0.0);
    lcp_problem_free(&p);
}

static void test_relative_diff(void)
{
    const double x[] = {1, 2.5}, y[] = {1, 2};
    CHECK_NEAR(lcp_relative_diff(x, y, 2), 0.25, EPS); /* 0.5 / 2 */
    const double a[] = {0.1}, c[] = {0.2};
    CHECK_NEAR(lcp_relative_diff(a, c, 1), 0.1, EPS); /* 0.1 / max(1, 0.2) */
    const double big[] = {-10, 0}, bigy[] = {-8, 0};
    CHECK_NEAR(lcp_relative_diff(big, bigy, 2), 0.25, EPS); /* 2 / 8 */
    CHECK(lcp_relative_diff(x, x, 2) == 0.0);
    const double n1[] = {NAN, 1};
    CHECK(lcp_relative_diff(n1, y, 2) == INFINITY);
    CHECK(lcp_relative_diff(y, n1, 2) == INFINITY);
    CHECK(lcp_relative_diff(x, y, 0) == 0.0);
}

/* ---------------------------------------------------------- problem checks */

static int finish_fails(lcp_problem *p, const char *what)
{
    lcp_err err = {{0}};
    int rc = lcp_problem_finish(p, &err);
    int ok = rc == LCP_INPUT_ERROR && one_line(&err) && has(&err, "test") && has(&err, what);
    if (!ok) fprintf(stderr, "  finish returned %d: '%s'\n", rc, err.msg);
    lcp_problem_free(p);
    return ok;
}

/* Factored form with v shorter than M: must be refused, never read past v. */
static int short_v_child(void)
{
    const double Md[] = {2, 0, 0, 4}, Jd[] = {1, 1, 0, 2, 1, -1}, v1[] = {1};
    lcp_problem p;
    lcp_problem_init(&p);
    p.source = lcp_strdup("test");
    dense_rm(&p.M, 2, 2, Md);
    dense_rm(&p.J, 3, 2, Jd);
    p.v = guarded(v1, 1);
    p.vlen = 1;
    lcp_err err = {{0}};
    int rc = lcp_problem_finish(&p, &err);
    int ok = rc == LCP_INPUT_ERROR && strstr(err.msg, "v has 1") != NULL;
    if (!ok) fprintf(stderr, "  short v: rc %d '%s'\n", rc, err.msg);
    return ok; /* the child exits without freeing the mmap'ed v */
}

static int short_e_child(void)
{
    const double Md[] = {2, 0, 0, 4}, Jd[] = {1, 1, 0, 2, 1, -1}, v2[] = {1, -1}, e1[] = {0.5};
    lcp_problem p;
    lcp_problem_init(&p);
    p.source = lcp_strdup("test");
    dense_rm(&p.M, 2, 2, Md);
    dense_rm(&p.J, 3, 2, Jd);
    p.v = dupv(v2, 2);
    p.vlen = 2;
    p.vlen = 2;
    p.e = guarded(e1, 1);
    p.elen = 1;
    lcp_err err = {{0}};
    int rc = lcp_problem_finish(&p, &err);
    int ok = rc == LCP_INPUT_ERROR && strstr(err.msg, "e has 1") != NULL;
    if (!ok) fprintf(stderr, "  short e: rc %d '%s'\n", rc, err.msg);
    return ok;
}

static int short_J_child(void)
{
    const double I3[] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, Md[] = {2, 0, 0, 4}, J2[] = {1, 0, 0, 1}, v2[] = {1, 1};
    lcp_problem p;
    lcp_problem_init(&p);
    p.source = lcp_strdup("test");
    dense_rm(&p.A, 3, 3, I3);
    dense_rm(&p.M, 2, 2, Md);
    dense_rm(&p.J, 2, 2, J2);
    p.v = dupv(v2, 2);
    p.vlen = 2;
    p.vlen = 2;
    return finish_fails(&p, "J has 2 rows");
}

static void test_problem_checks(void)
{
    lcp_problem p;
    lcp_err err = {{0}};
    const double I2[] = {1, 0, 0, 1}, b2[] = {1, 2}, b3[] = {1, 2, 3};
    const double I3[] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

    /* non-square A */
    lcp_problem_init(&p);
    p.source = lcp_strdup("test");
    const double A23[] = {1, 2, 3, 4, 5, 6};
    dense_rm(&p.A, 2, 3, A23);
    p.b = dupv(b2, 2);
    CHECK(finish_fails(&p, "not square"));
    /* b of the wrong length */
    prob(&p, LCP_KIND_LCP, 2, I2, b2);
    p.blen = 3;
    CHECK(finish_fails(&p, "b has 3 entries"));
    /* no b, no A */
    prob(&p, LCP_KIND_LCP, 2, I2, b2);
    free(p.b);
    p.b = NULL;
    CHECK(finish_fails(&p, "no vector b"));
    lcp_problem_init(&p);
    p.source = lcp_strdup("test");
    p.b = dupv(b2, 2);
    CHECK(finish_fails(&p, "no matrix A"));
    /* NaN and inf in A, b */
    const double An[] = {1, NAN, 0, 1};
    prob(&p, LCP_KIND_LCP, 2, An, b2);
    CHECK(finish_fails(&p, "A(1,2) is not finite"));
    const double bi[] = {1, INFINITY};
    prob(&p, LCP_KIND_LCP, 2, I2, bi);
    CHECK(finish_fails(&p, "b[2] is not finite"));
    /* mu < 0, NaN mu */
    const double mneg[] = {-0.1}, mnan[] = {NAN};
    prob(&p, LCP_KIND_FC3D, 3, I3, b3);
    set_mu(&p, mneg, 1);
    CHECK(finish_fails(&p, "negative"));
    prob(&p, LCP_KIND_CCP, 3, I3, b3);
    set_mu(&p, mnan, 1);
    CHECK(finish_fails(&p, "mu[1] is not finite"));
    /* friction: n not a multiple of 3, mu missing, mu of the wrong length */
    const double mu1[] = {0.5}, mu2[] = {0.5, 0.5};
    prob(&p, LCP_KIND_FC3D, 2, I2, b2);
    set_mu(&p, mu1, 1);
    CHECK(finish_fails(&p, "3 rows a contact"));
    prob(&p, LCP_KIND_FC3D, 3, I3, b3);
    CHECK(finish_fails(&p, "needs mu"));
    prob(&p, LCP_KIND_FC3D, 3, I3, b3);
    set_mu(&p, mu2, 2);
    CHECK(finish_fails(&p, "mu has 2 entries for 1 contacts"));
    /* kind inferred from mu: fc3d */
    prob(&p, LCP_KIND_NONE, 3, I3, b3);
    set_mu(&p, mu1, 1);
    CHECK(lcp_problem_finish(&p, &err) == 0 && p.kind == LCP_KIND_FC3D && p.nc == 1);
    lcp_problem_free(&p);
    /* an lcp with mu */
    prob(&p, LCP_KIND_LCP, 3, I3, b3);
    set_mu(&p, mu1, 1);
    CHECK(finish_fails(&p, "takes no bounds"));
    /* lo > hi, NaN bound, lo of the wrong length */
    const double lo[] = {0, 2}, hi[] = {1, 1}, lon[] = {0, NAN};
    prob(&p, LCP_KIND_BLCP, 2, I2, b2);
    p.lo = dupv(lo, 2);
    p.hi = dupv(hi, 2);
    p.lolen = p.hilen = 2;
    CHECK(finish_fails(&p, "lo[2] = 2 exceeds hi[2] = 1"));
    prob(&p, LCP_KIND_BLCP, 2, I2, b2);
    p.lo = dupv(lon, 2);
    p.lolen = 2;
    CHECK(finish_fails(&p, "NaN"));
    prob(&p, LCP_KIND_BLCP, 2, I2, b2);
    p.lo = dupv(lo, 2);
    p.lolen = 1;
    CHECK(finish_fails(&p, "lo has 1 entries"));
    /* findex out of range, pointing at itself, below -1; missing mu */
    const int fbad[][3] = {{-1, 3, 0}, {-1, 1, 0}, {-2, 0, 0}};
    const double muf[] = {0, 0.5, 0.5};
    const char *fwhat[] = {"findex[2] = 3", "findex[2] = 1", "findex[1] = -2"};
    for (int k = 0; k < 3; k++) {
        prob(&p, LCP_KIND_BLCP, 3, I3, b3);
        set_mu(&p, muf, 3);
        p.findex = malloc(3 * sizeof(int));
        p.findexlen = 3;
        memcpy(p.findex, fbad[k], 3 * sizeof(int));
        CHECK(finish_fails(&p, fwhat[k]));
    }
    prob(&p, LCP_KIND_BLCP, 3, I3, b3);
    p.findex = malloc(3 * sizeof(int));
    p.findexlen = 3;
    memcpy(p.findex, fbad[0], 3 * sizeof(int));
    p.findex[1] = 0;
    CHECK(finish_fails(&p, "findex needs mu"));
    prob(&p, LCP_KIND_BLCP, 3, I3, b3);
    set_mu(&p, muf, 3);
    CHECK(finish_fails(&p, "mu without findex"));
    /* bounds on a friction problem */
    prob(&p, LCP_KIND_FC3D, 3, I3, b3);
    set_mu(&p, mu1, 1);
    p.lo = dupv(b3, 3);
    p.lolen = 3;
    CHECK(finish_fails(&p, "belong to blcp"));

    /* Factored form, M diagonal: M = diag(2, 4), J = [1 1; 0 2; 1 -1],
     * v = (1, -1), e = (0.5, 0, 0).  J M^-1 = [0.5 0.25; 0 0.5; 0.5 -0.25];
     * A = J M^-1 J' = [0.75 0.5 0.25; 0.5 1 -0.5; 0.25 -0.5 0.75],
     * b = J v + e = (0 + 0.5, -2, 2). */
    const double Md[] = {2, 0, 0, 4}, Jd[] = {1, 1, 0, 2, 1, -1}, vd[] = {1, -1}, ed[] = {0.5, 0, 0};
    const double Awant[] = {0.75, 0.5, 0.25, 0.5, 1, -0.5, 0.25, -0.5, 0.75}, bwant[] = {0.5, -2, 2};
    lcp_problem_init(&p);
    p.source = lcp_strdup("test");
    dense_rm(&p.M, 2, 2, Md);
    dense_rm(&p.J, 3, 2, Jd);
    p.v = dupv(vd, 2);
    p.vlen = 2;
    p.e = dupv(ed, 3);
    p.elen = 3;
    CHECK(lcp_problem_finish(&p, &err) == 0);
    CHECK(p.n == 3 && p.A.m == 3 && p.A.n == 3 && p.kind == LCP_KIND_LCP);
    if (p.A.p) {
        double *d = lcp_csr_to_dense_colmajor(&p.A);
        for (int i = 0; i < 3; i++)
            for (int c = 0; c < 3; c++) CHECK_NEAR(d[i + 3 * c], Awant[3 * i + c], EPS);
        free(d);
        for (int i = 0; i < 3; i++) CHECK_NEAR(p.b[i], bwant[i], EPS);
    }
    lcp_problem_free(&p);

    /* Factored form, M block diagonal [2 1; 1 2] + [4], J = [1 0 1; 0 1 0; 1 1 2],
     * v = (1, -1, 2), no e.  M^-1 = [2 -1; -1 2]/3 + [1/4].
     * A = [11/12 -1/3 5/6; -1/3 2/3 1/3; 5/6 1/3 5/3], b = J v = (3, -1, 4). */
    const double Mb[] = {2, 1, 0, 1, 2, 0, 0, 0, 4}, Jb[] = {1, 0, 1, 0, 1, 0, 1, 1, 2}, vb[] = {1, -1, 2};
    const double Ab[] = {11.0 / 12, -1.0 / 3, 5.0 / 6, -1.0 / 3, 2.0 / 3, 1.0 / 3, 5.0 / 6, 1.0 / 3, 5.0 / 3};
    const double bb[] = {3, -1, 4};
    lcp_problem_init(&p);
    p.source = lcp_strdup("test");
    dense_rm(&p.M, 3, 3, Mb);
    dense_rm(&p.J, 3, 3, Jb);
    p.v = dupv(vb, 3);
    p.vlen = 3;
    set_mu(&p, mu1, 1); /* with mu: an fc3d problem, one contact */
    CHECK(lcp_problem_finish(&p, &err) == 0);
    CHECK(p.n == 3 && p.kind == LCP_KIND_FC3D && p.nc == 1);
    if (p.A.p) {
        double *d = lcp_csr_to_dense_colmajor(&p.A);
        for (int i = 0; i < 3; i++)
            for (int c = 0; c < 3; c++) CHECK_NEAR(d[i + 3 * c], Ab[3 * i + c], EPS);
        free(d);
        for (int i = 0; i < 3; i++) CHECK_NEAR(p.b[i], bb[i], EPS);
        CHECK(lcp_csr_is_symmetric(&p.A, 1e-14));
    }
    lcp_problem_free(&p);

    /* M symmetric but indefinite: refused */
    const double Mi[] = {1, 2, 2, 1}, J2[] = {1, 0, 0, 1}, v2[] = {1, 1};
    lcp_problem_init(&p);
    p.source = lcp_strdup("test");
    dense_rm(&p.M, 2, 2, Mi);
    dense_rm(&p.J, 2, 2, J2);
    p.v = dupv(v2, 2);
    p.vlen = 2;
    CHECK(finish_fails(&p, "not positive definite"));
    /* M negative on the diagonal: refused */
    const double Mneg[] = {1, 0, 0, -1};
    lcp_problem_init(&p);
    p.source = lcp_strdup("test");
    dense_rm(&p.M, 2, 2, Mneg);
    dense_rm(&p.J, 2, 2, J2);
    p.v = dupv(v2, 2);
    p.vlen = 2;
    CHECK(finish_fails(&p, "not positive definite"));
    /* M not symmetric */
    const double Mu[] = {2, 1, 0, 2};
    lcp_problem_init(&p);
    p.source = lcp_strdup("test");
    dense_rm(&p.M, 2, 2, Mu);
    dense_rm(&p.J, 2, 2, J2);
    p.v = dupv(v2, 2);
    p.vlen = 2;
    CHECK(finish_fails(&p, "not symmetric"));
    /* J columns != M size; v missing */
    lcp_problem_init(&p);
    p.source = lcp_strdup("test");
    dense_rm(&p.M, 2, 2, Md);
    dense_rm(&p.J, 3, 3, Jb);
    p.v = dupv(v2, 2);
    p.vlen = 2;
    CHECK(finish_fails(&p, "J has 3 columns"));
    lcp_problem_init(&p);
    p.source = lcp_strdup("test");
    dense_rm(&p.M, 2, 2, Md);
    dense_rm(&p.J, 2, 2, J2);
    CHECK(finish_fails(&p, "needs M, J and v"));
    /* v shorter than M, e shorter than J's rows: refused before any read */
    CHECK(isolated(short_v_child));
    CHECK(isolated(short_e_child));
    /* A given beside a factored form whose J has fewer rows than A, and no b:
     * b = J v would be too short for A */
    CHECK(isolated(short_J_child));
}

/* ----------------------------------------------------------------- readers */

static void test_mtx(void)
{
    lcp_err err = {{0}};
    lcp_csr A;
    /* coordinate general, with a comment and a blank line */
    const char *f = wfile("g.mtx", "%%MatrixMarket matrix coordinate real general\n"
                                   "% a comment\n"
                                   "2 3 3\n"
                                   "2 3 -1.5\n"
                                   "1 1 4\n"
                                   "\n"
                                   "1 2 2.25e-1\n");
    CHECK(lcp_read_mtx_matrix(f, &A, &err) == 0);
    CHECK(A.m == 2 && A.n == 3 && lcp_csr_nnz(&A) == 3);
    if (A.p) {
        CHECK(A.p[1] == 2 && A.j[0] == 0 && A.x[0] == 4 && A.j[1] == 1 && A.x[1] == 0.225);
        CHECK(A.j[2] == 2 && A.x[2] == -1.5);
    }
    lcp_csr_free(&A);
    /* coordinate symmetric: lower triangle given, both come back */
    f = wfile("s.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
                       "3 3 4\n"
                       "1 1 2\n"
                       "2 1 -1\n"
                       "3 2 0.5\n"
                       "3 3 7\n");
    CHECK(lcp_read_mtx_matrix(f, &A, &err) == 0);
    CHECK(A.m == 3 && A.n == 3 && lcp_csr_nnz(&A) == 6);
    if (A.p) {
        double *d = lcp_csr_to_dense_colmajor(&A);
        const double want[9] = {2, -1, 0, -1, 0, 0.5, 0, 0.5, 7};
        for (int k = 0; k < 9; k++) CHECK(d[k] == want[k]);
        free(d);
        CHECK(lcp_csr_is_symmetric(&A, 0.0));
    }
    lcp_csr_free(&A);
    /* array general: column-major values 1 3 2 4 -> [1 2; 3 4] */
    f = wfile("a.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n3\n2\n4\n");
    CHECK(lcp_read_mtx_matrix(f, &A, &err) == 0);
    CHECK(A.m == 2 && A.n == 2);
    if (A.p) {
        double *d = lcp_csr_to_dense_colmajor(&A);
        CHECK(d[0] == 1 && d[1] == 3 && d[2] == 2 && d[3] == 4);
        free(d);
    }
    lcp_csr_free(&A);
    /* array vector, and a row vector, and a coordinate vector with a gap */
    double *v = NULL;
    int n = 0;
    f = wfile("v.mtx", "%%MatrixMarket matrix array real general\n3 1\n0.1\n-2\n3e2\n");
    CHECK(lcp_read_mtx_vector(f, &v, &n, &err) == 0);
    CHECK(n == 3 && v && v[0] == 0.1 && v[1] == -2 && v[2] == 300);
    free(v);
    f = wfile("vr.mtx", "%%MatrixMarket matrix array real general\n1 2\n5\n6\n");
    CHECK(lcp_read_mtx_vector(f, &v, &n, &err) == 0);
    CHECK(n == 2 && v && v[0] == 5 && v[1] == 6);
    free(v);
    f = wfile("vc.mtx", "%%MatrixMarket matrix coordinate real general\n4 1 2\n4 1 8\n2 1 -1\n");
    CHECK(lcp_read_mtx_vector(f, &v, &n, &err) == 0);
    CHECK(n == 4 && v && v[0] == 0 && v[1] == -1 && v[2] == 0 && v[3] == 8);
    free(v);
    /* a matrix where a vector is expected */
    f = wfile("notvec.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n");
    CHECK(lcp_read_mtx_vector(f, &v, &n, &err) == LCP_INPUT_ERROR && v == NULL);
    CHECK(has(&err, "notvec.mtx") && has(&err, "2 x 2"));
    /* integer field */
    f = wfile("i.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 1 3\n2 2 -7\n");
    CHECK(lcp_read_mtx_matrix(f, &A, &err) == 0);
    CHECK(lcp_csr_nnz(&A) == 2 && A.x && A.x[0] == 3 && A.x[1] == -7);
    lcp_csr_free(&A);
    /* pattern: refused from the banner (every field holds numbers; CHOLMOD
     * would read ones), as a matrix and as a vector */
    f = wfile("p.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 1\n2 1\n");
    memset(&err, 0, sizeof err);
    int rc = lcp_read_mtx_matrix(f, &A, &err);
    CHECK(rc == LCP_INPUT_ERROR && has(&err, "p.mtx:1:") && has(&err, "pattern"));
    lcp_csr_free(&A);
    f = wfile("pv.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 1 1\n2 1\n");
    CHECK(lcp_read_mtx_vector(f, &v, &n, &err) == LCP_INPUT_ERROR && v == NULL && has(&err, "pv.mtx:1:"));

    /* a valid file with a comment line longer than any fixed buffer */
    {
        char *text = malloc(5000);
        strcpy(text, "%%MatrixMarket matrix coordinate real general\n% ");
        size_t l = strlen(text);
        memset(text + l, 'x', 3000);
        strcpy(text + l + 3000, "\n2 2 1\n2 2 5\n");
        f = wfile("longc.mtx", text);
        free(text);
        memset(&err, 0, sizeof err);
        rc = lcp_read_mtx_matrix(f, &A, &err);
        CHECK(rc == 0);
        if (rc) fprintf(stderr, "  long comment: '%s'\n", err.msg);
        else CHECK(lcp_csr_nnz(&A) == 1 && A.x[0] == 5 && A.j[0] == 1);
        lcp_csr_free(&A);
    }
    /* refusals name the file and the line */
    struct {
        const char *name, *text, *where;
    } bad[] = {
        {"bb.mtx", "%%MatrixMarket tensor coordinate real general\n1 1 1\n1 1 1\n", "bb.mtx:1:"},
        {"bs.mtx", "%%MatrixMarket matrix coordinate real general\n% c\n2 2\n", "bs.mtx:3:"},
        {"br.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n3 1 1\n", "br.mtx:4:"},
        {"bf.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 2 1\n", "bf.mtx:"},
        {"bn.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 x\n", "bn.mtx:4:"},
        {"bh.mtx", "%%MatrixMarket matrix coordinate real general\n1000000 1000000 1000000000000\n1 1 1\n",
         "bh.mtx:2:"},
        {"bneg.mtx", "%%MatrixMarket matrix coordinate real general\n-2 2 1\n1 1 1\n", "bneg.mtx:2:"},
        {"bnan.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 nan\n", "bnan.mtx:4:"},
        {"bup.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 1\n1 2 1\n", "bup.mtx:4:"},
        {"bempty.mtx", "", "bempty.mtx:1:"},
        {"bboth.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n2 1 1\n1 2 1\n2 2 1\n", "bboth.mtx:4:"},
        {"bmany.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 1\n", "bmany.mtx:4:"},
        {"bzero.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n0 1 1\n", "bzero.mtx:3:"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        memset(&err, 0, sizeof err);
        f = wfile(bad[k].name, bad[k].text);
        rc = lcp_read_mtx_matrix(f, &A, &err);
        CHECK(rc == LCP_INPUT_ERROR);
        if (rc != LCP_INPUT_ERROR) fprintf(stderr, "  %s: returned %d, expected a refusal\n", bad[k].name, rc);
        else CHECK(one_line(&err) && has(&err, bad[k].where));
        lcp_csr_free(&A);
    }
    /* a folder given as a file */
    rc = lcp_read_mtx_matrix(tmpdir, &A, &err);
    CHECK(rc == LCP_INPUT_ERROR && has(&err, "folder"));
    rc = lcp_read_mtx_matrix("/nonexistent/x.mtx", &A, &err);
    CHECK(rc == LCP_INPUT_ERROR && has(&err, "/nonexistent/x.mtx"));
}

static void test_json(void)
{
    lcp_err err = {{0}};
    lcp_problem p;
    /* inline dense rows; kind given */
    const char *f = wfile("d.json", "{\n  \"kind\": \"lcp\",\n  \"A\": [[2, 1], [1, 2]],\n  \"b\": [-4, 2],\n"
                                    "  \"comment\": \"ignored\"\n}\n");
    lcp_problem_init(&p);
    CHECK(lcp_read_problem(f, LCP_KIND_NONE, &p, &err) == 0);
    CHECK(p.kind == LCP_KIND_LCP && p.n == 2 && lcp_csr_nnz(&p.A) == 4);
    if (p.b) CHECK(p.b[0] == -4 && p.b[1] == 2);
    if (p.A.p) CHECK(lcp_csr_diag(&p.A, 1) == 2 && p.A.x[1] == 1);
    CHECK(p.source && strstr(p.source, "d.json"));
    lcp_problem_free(&p);
    /* inline {"size", "entries"}, 0-based, duplicates summed; friction */
    f = wfile("e.json", "{\"A\": {\"size\": [3, 3], \"entries\": [[0, 0, 1], [1, 1, 2], [2, 2, 3], [1, 1, 0.5],"
                        " [2, 0, -1]]},\n \"b\": [1, 2, 3], \"mu\": [0.4], \"kind\": \"ccp\"}\n");
    lcp_problem_init(&p);
    CHECK(lcp_read_problem(f, LCP_KIND_NONE, &p, &err) == 0);
    CHECK(p.kind == LCP_KIND_CCP && p.nc == 1 && p.mu && p.mu[0] == 0.4);
    if (p.A.p) {
        CHECK(lcp_csr_nnz(&p.A) == 4);
        CHECK(lcp_csr_diag(&p.A, 1) == 2.5 && lcp_csr_diag(&p.A, 2) == 3);
        CHECK(p.A.j[p.A.p[2]] == 0 && p.A.x[p.A.p[2]] == -1);
    }
    lcp_problem_free(&p);
    /* "inf" / "-inf" bounds */
    f = wfile("bl.json", "{\"A\": [[1, 0], [0, 1]], \"b\": [0, 0],\n \"lo\": [\"-inf\", 0],\n"
                         " \"hi\": [\"inf\", 1]}\n");
    lcp_problem_init(&p);
    CHECK(lcp_read_problem(f, LCP_KIND_NONE, &p, &err) == 0);
    CHECK(p.kind == LCP_KIND_BLCP);
    CHECK(p.lo && p.hi && p.lo[0] == -INFINITY && p.hi[0] == INFINITY && p.lo[1] == 0 && p.hi[1] == 1);
    lcp_problem_free(&p);
    /* "inf" is a bound only: in b it is refused, naming the line */
    f = wfile("binf.json", "{\n\"A\": [[1]],\n\"b\": [\"inf\"]\n}\n");
    lcp_problem_init(&p);
    CHECK(lcp_read_problem(f, LCP_KIND_NONE, &p, &err) == LCP_INPUT_ERROR);
    CHECK(has(&err, "binf.json:3:"));
    lcp_problem_free(&p);
    /* a manifest naming .mtx files relative to itself */
    wdir("man");
    wdir("man/data");
    wfile("man/A.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 2\n2 1 1\n2 2 2\n");
    wfile("man/data/b.mtx", "%%MatrixMarket matrix array real general\n2 1\n-1\n-1\n");
    f = wfile("man/problem.json", "{\"A\": \"A.mtx\", \"b\": \"data/b.mtx\"}\n");
    lcp_problem_init(&p);
    CHECK(lcp_read_problem(f, LCP_KIND_NONE, &p, &err) == 0);
    CHECK(p.kind == LCP_KIND_LCP && p.n == 2 && lcp_csr_nnz(&p.A) == 4);
    if (p.b) CHECK(p.b[0] == -1 && p.b[1] == -1);
    if (p.A.p) CHECK(p.A.x[1] == 1 && p.A.x[2] == 1);
    lcp_problem_free(&p);
    /* the same folder read as a folder goes through problem.json */
    char *mdir = malloc(strlen(tmpdir) + 8);
    sprintf(mdir, "%s/man", tmpdir);
    lcp_problem_init(&p);
    CHECK(lcp_read_problem(mdir, LCP_KIND_NONE, &p, &err) == 0);
    CHECK(p.n == 2);
    lcp_problem_free(&p);
    free(mdir);
    /* a manifest naming a missing file */
    f = wfile("man/missing.json", "{\"A\": \"A.mtx\",\n \"b\": \"nope.mtx\"}\n");
    lcp_problem_init(&p);
    CHECK(lcp_read_problem(f, LCP_KIND_NONE, &p, &err) == LCP_INPUT_ERROR);
    CHECK(has(&err, "nope.mtx"));
    lcp_problem_free(&p);
    /* syntax error on line 3 */
    f = wfile("syn.json", "{\n\"A\": [[1]],\n\"b\": [1,, 2]\n}\n");
    lcp_problem_init(&p);
    CHECK(lcp_read_json(f, &p, &err) == LCP_INPUT_ERROR);
    CHECK(one_line(&err) && has(&err, "syn.json:3:"));
    lcp_problem_free(&p);
    /* ragged rows on line 2 */
    f = wfile("rag.json", "{\"b\": [1, 2],\n\"A\": [[1, 2], [3]]}\n");
    lcp_problem_init(&p);
    CHECK(lcp_read_json(f, &p, &err) == LCP_INPUT_ERROR);
    CHECK(has(&err, "rag.json:2:") && has(&err, "row 2"));
    lcp_problem_free(&p);
}

static void test_folder(void)
{
    lcp_err err = {{0}};
    lcp_problem p;
    wdir("fold");
    wfile("fold/A.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 1\n3 3 1\n");
    wfile("fold/b.mtx", "%%MatrixMarket matrix array real general\n3 1\n-1\n0.5\n0\n");
    wfile("fold/mu.mtx", "%%MatrixMarket matrix array real general\n1 1\n0.5\n");
    char *dir = malloc(strlen(tmpdir) + 8);
    sprintf(dir, "%s/fold", tmpdir);
    lcp_problem_init(&p);
    CHECK(lcp_read_problem(dir, LCP_KIND_NONE, &p, &err) == 0);
    CHECK(p.kind == LCP_KIND_FC3D && p.n == 3 && p.nc == 1 && p.nmu == 1 && p.mu && p.mu[0] == 0.5);
    if (p.b) CHECK(p.b[0] == -1 && p.b[1] == 0.5 && p.b[2] == 0);
    CHECK(p.format && !strcmp(p.format, "folder"));
    /* the problem of test_verify_friction: r = (1, 0, 0) -> fc3d residual 0.4 */
    double r[] = {1, 0, 0}, u[3];
    lcp_metrics m;
    if (!p.A.p) m.residual = -1;
    else lcp_verify(&p, r, u, &m);
    CHECK_NEAR(m.residual, 0.4, EPS);
    lcp_problem_free(&p);
    /* the kind hint wins: ccp */
    lcp_problem_init(&p);
    CHECK(lcp_read_problem(dir, LCP_KIND_CCP, &p, &err) == 0);
    CHECK(p.kind == LCP_KIND_CCP);
    lcp_problem_free(&p);
    free(dir);
    /* an empty folder */
    const char *e = wdir("emptyf");
    lcp_problem_init(&p);
    CHECK(lcp_read_problem(e, LCP_KIND_NONE, &p, &err) == LCP_INPUT_ERROR);
    CHECK(has(&err, "emptyf") && has(&err, "no problem files"));
    lcp_problem_free(&p);
}

/* ------------------------------------------------------------------ config */

typedef struct {
    int n;
    char key[8][32], value[8][32];
    long line[8];
    int stop_at; /* return non-zero at this pair (1-based), 0 never */
} pairs;

static int collect(void *ctx, const char *key, const char *value, long line)
{
    pairs *q = ctx;
    if (q->n < 8) {
        snprintf(q->key[q->n], 32, "%s", key);
        snprintf(q->value[q->n], 32, "%s", value);
        q->line[q->n] = line;
    }
    q->n++;
    return q->stop_at && q->n == q->stop_at;
}

static void test_config(void)
{
    lcp_err err = {{0}};
    pairs q;
    memset(&q, 0, sizeof q);
    const char *f = wfile("c.yaml", "# solver settings\n"
                                    "solver: pgs\n"
                                    "tol: 1e-10\n"
                                    "\n"
                                    "max-iter: 500\n"
                                    "omega: \"1.5\"\n");
    CHECK(lcp_config_read(f, collect, &q, &err) == 0);
    CHECK(q.n == 4);
    CHECK(!strcmp(q.key[0], "solver") && !strcmp(q.value[0], "pgs") && q.line[0] == 2);
    CHECK(!strcmp(q.key[1], "tol") && !strcmp(q.value[1], "1e-10") && q.line[1] == 3);
    CHECK(!strcmp(q.key[2], "max-iter") && !strcmp(q.value[2], "500") && q.line[2] == 5);
    CHECK(!strcmp(q.key[3], "omega") && !strcmp(q.value[3], "1.5") && q.line[3] == 6);
    /* the callback stops the read */
    memset(&q, 0, sizeof q);
    q.stop_at = 2;
    CHECK(lcp_config_read(f, collect, &q, &err) == LCP_INPUT_ERROR);
    CHECK(q.n == 2);
    /* an empty file is an empty configuration */
    memset(&q, 0, sizeof q);
    f = wfile("empty.yaml", "");
    CHECK(lcp_config_read(f, collect, &q, &err) == 0 && q.n == 0);
    /* refusals: "FILE:LINE: reason" */
    struct {
        const char *name, *text, *where;
    } bad[] = {
        {"nest.yaml", "solver: pgs\nextra:\n  tol: 1\n", "nest.yaml:3:"},
        {"list.yaml", "solver: pgs\ntol: [1, 2]\n", "list.yaml:2:"},
        {"top.yaml", "- solver\n- pgs\n", "top.yaml:1:"},
        {"scalar.yaml", "just words\n", "scalar.yaml:1:"},
        {"syntax.yaml", "solver: pgs\ntol: \"1e-8\n", "syntax.yaml:"},
        {"alias.yaml", "a: &x 1\nb: *x\n", "alias.yaml:2:"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        memset(&q, 0, sizeof q);
        memset(&err, 0, sizeof err);
        f = wfile(bad[k].name, bad[k].text);
        CHECK(lcp_config_read(f, collect, &q, &err) == LCP_INPUT_ERROR);
        CHECK(one_line(&err) && has(&err, bad[k].where));
    }
    CHECK(lcp_config_read("/nonexistent.yaml", collect, &q, &err) == LCP_INPUT_ERROR);
    CHECK(has(&err, "/nonexistent.yaml"));
}

/* ----------------------------------------------------------------- writers */

static void test_writers(void)
{
    lcp_err err = {{0}};
    const double v[] = {0.1, -1.0 / 3.0, 1e-300, 4.9e-324, 9.9e307, -0.0, 123456789.123456789,
                        2.0 / 3.0};
    const int n = 8;
    char path[256];
    snprintf(path, sizeof path, "%s/out.mtx", tmpdir);
    CHECK(lcp_write_mtx_vector(path, v, n, "a comment", &err) == 0);
    double *r = NULL;
    int rn = 0;
    CHECK(lcp_read_mtx_vector(path, &r, &rn, &err) == 0);
    CHECK(rn == n);
    if (r && rn == n)
        for (int i = 0; i < n; i++) CHECK(memcmp(&r[i], &v[i], sizeof(double)) == 0 || (r[i] == 0 && v[i] == 0));
    free(r);
    CHECK(count_in_dir(tmpdir, ".tmp.") == 0); /* no temporary left behind */
    /* overwrite in place: the new content, still no temporary */
    const double v2[] = {1, 2};
    CHECK(lcp_write_mtx_vector(path, v2, 2, NULL, &err) == 0);
    CHECK(lcp_read_mtx_vector(path, &r, &rn, &err) == 0 && rn == 2 && r && r[1] == 2);
    free(r);
    CHECK(count_in_dir(tmpdir, ".tmp.") == 0);
    /* large doubles read back exactly; CHOLMOD's reader turns |x| >= 1e308
     * into infinity, so such values are refused with their line instead */
    const double vbig[] = {9.999999999999999e307, -1.2345678901234567e300};
    CHECK(lcp_write_mtx_vector(path, vbig, 2, NULL, &err) == 0);
    r = NULL;
    CHECK(lcp_read_mtx_vector(path, &r, &rn, &err) == 0);
    if (r && rn == 2) CHECK(r[0] == vbig[0] && r[1] == vbig[1]);
    free(r);
    const double vmax[] = {1.7976931348623157e308, -1e308};
    CHECK(lcp_write_mtx_vector(path, vmax, 2, NULL, &err) == 0);
    memset(&err, 0, sizeof err);
    r = NULL;
    CHECK(lcp_read_mtx_vector(path, &r, &rn, &err) == LCP_INPUT_ERROR);
    CHECK(strstr(err.msg, "out.mtx:3:") != NULL);
    free(r);
    /* an empty vector */
    CHECK(lcp_write_mtx_vector(path, v, 0, "", &err) == 0);
    /* a missing folder: refused with the path, nothing created */
    char bad[300];
    snprintf(bad, sizeof bad, "%s/no/such/out.mtx", tmpdir);
    memset(&err, 0, sizeof err);
    CHECK(lcp_write_mtx_vector(bad, v, n, NULL, &err) != 0);
    CHECK(one_line(&err) && has(&err, bad));
    snprintf(bad, sizeof bad, "%s/no", tmpdir);
    struct stat st;
    CHECK(stat(bad, &st) != 0);
    CHECK(count_in_dir(tmpdir, ".tmp.") == 0);
    /* matrix writer round trip */
    const int ti[] = {0, 1, 1}, tj[] = {1, 0, 2};
    const double tx[] = {1.0 / 7.0, -2.5e-17, 3};
    lcp_csr A, B;
    CHECK(lcp_csr_from_triplets(&A, 2, 3, 3, ti, tj, tx) == 0);
    snprintf(path, sizeof path, "%s/outA.mtx", tmpdir);
    CHECK(lcp_write_mtx_matrix(path, &A, "m", &err) == 0);
    CHECK(lcp_read_mtx_matrix(path, &B, &err) == 0);
    CHECK(B.m == 2 && B.n == 3 && lcp_csr_nnz(&B) == 3);
    if (B.p && lcp_csr_nnz(&B) == 3)
        for (int k = 0; k < 3; k++) CHECK(B.j[k] == A.j[k] && B.x[k] == A.x[k]);
    lcp_csr_free(&A);
    lcp_csr_free(&B);
    CHECK(count_in_dir(tmpdir, ".tmp.") == 0);
    /* an aborted outfile leaves nothing */
    lcp_outfile o;
    snprintf(path, sizeof path, "%s/aborted.mtx", tmpdir);
    CHECK(lcp_outfile_open(&o, path, &err) == 0);
    fputs("partial", (FILE *)o.fp);
    lcp_outfile_abort(&o);
    CHECK(stat(path, &st) != 0);
    CHECK(count_in_dir(tmpdir, ".tmp.") == 0);
}

static void test_misc(void)
{
    CHECK(lcp_kind_parse("lcp") == LCP_KIND_LCP && lcp_kind_parse("blcp") == LCP_KIND_BLCP);
    CHECK(lcp_kind_parse("ccp") == LCP_KIND_CCP && lcp_kind_parse("fc3d") == LCP_KIND_FC3D);
    CHECK(lcp_kind_parse("LCP") == LCP_KIND_NONE && lcp_kind_parse(NULL) == LCP_KIND_NONE);
    CHECK(!strcmp(lcp_kind_name(LCP_KIND_FC3D), "fc3d"));
    CHECK(lcp_status_exit_code(LCP_SOLVED) == 0 && lcp_status_exit_code(LCP_INPUT_ERROR) == 2);
    CHECK(lcp_status_exit_code(LCP_NO_SOLUTION) == 3 && lcp_status_exit_code(LCP_REF_MISMATCH) == 4);
    CHECK(lcp_status_exit_code(LCP_ERROR) == 5 && lcp_status_exit_code(LCP_MAX_ITER) == 1);
    CHECK(!strcmp(lcp_status_name(LCP_REF_MISMATCH), "reference_mismatch"));
    lcp_err e;
    CHECK(lcp_fail(&e, 7, "f.mtx", 12, "bad\nthing %d", 3) == 7);
    CHECK(!strcmp(e.msg, "f.mtx:12: bad thing 3"));
    lcp_fail(&e, 1, "f.mtx", 0, "x");
    CHECK(!strcmp(e.msg, "f.mtx: x"));
    CHECK(lcp_fail(NULL, 2, "f", 1, "x") == 2);
}

/* lcp_fmt_g3 writes what printf's "%.3g" writes: log-uniform values over 1e-300..1e300 of both signs, the
 * powers of ten and the values next to the rounding's boundaries (9.995, 0.0009995, 999.5, ...) */
/* 1 where lcp_fmt_g3 and printf agree on 200,000 log-uniform values 10^lo..10^(lo + span) of both signs */
static int fmt_g3_agrees(unsigned long long *st, double lo, double span)
{
    char a[32], b[32];
    for (int k = 0; k < 200000; k++) {
        *st ^= *st << 13, *st ^= *st >> 7, *st ^= *st << 17;
        double u = (double)(*st >> 11) / 9007199254740992.0;
        double x = pow(10, lo + span * u) * (k & 1 ? -1 : 1);
        lcp_fmt_g3(x, a);
        snprintf(b, sizeof b, "%.3g", x);
        if (strcmp(a, b)) return 0;
    }
    return 1;
}

static void test_fmt_g3(void)
{
    unsigned long long st = 88172645463325252ULL;
    char a[32], b[32];
    CHECK(fmt_g3_agrees(&st, -300, 600));
    /* the range of auto's predicted times and the like (1e-20..1e20: the way without log10 and pow) */
    CHECK(fmt_g3_agrees(&st, -21, 42));
    /* the doubles next to each power of ten of the range, and to the boundaries d.dd5 of a few decades */
    int nsame = 1;
    for (int p = -21; p <= 21; p++) {
        const double mant[] = {1, 9.995, 9.9995, 1.005, 5.555};
        for (size_t q = 0; q < sizeof mant / sizeof *mant; q++) {
            double x = mant[q] * pow(10, p), y[3] = {nextafter(x, 0), x, nextafter(x, INFINITY)};
            for (int r = 0; r < 3; r++) {
                lcp_fmt_g3(y[r], a);
                snprintf(b, sizeof b, "%.3g", y[r]);
                if (strcmp(a, b)) nsame = 0, printf("lcp_fmt_g3(%.17g) = %s, printf %s\n", y[r], a, b);
            }
        }
    }
    CHECK(nsame);
    const double edge[] = {1, 10, 100, 1000, 1e-5, 1e-4, 1e5, 9.995, 9.9949, 0.0009995, 999.5, 999.49, 99.95, 1e-300, 1e300,
                           0.1, 0.5, 123456, 0.000123456, 1.5e-7, 2.25, 1e21, 1e-21, -0.00172, 4.37e-05, 0.0016, -1};
    int esame = 1;
    for (size_t k = 0; k < sizeof edge / sizeof *edge; k++) {
        lcp_fmt_g3(edge[k], a);
        snprintf(b, sizeof b, "%.3g", edge[k]);
        if (strcmp(a, b)) esame = 0, printf("lcp_fmt_g3(%.17g) = %s, printf %s\n", edge[k], a, b);
    }
    CHECK(esame);
    lcp_fmt_g3(0, a);
    CHECK(!strcmp(a, "0"));
    lcp_fmt_g3(NAN, a);
    snprintf(b, sizeof b, "%.3g", NAN);
    CHECK(!strcmp(a, b));
}

/* lcp_csr_row_dot: a row whose columns are one run (the dense rows' path without the gather) gives the bits of
 * the gathered sums, entry e on running sum e mod 4, (s0 + s1) + (s2 + s3); a row with a gap takes the gather */
static double row_dot_reference(const int *aj, const double *ax, const double *x, int lo, int hi)
{
    double s[4] = {0, 0, 0, 0};
    for (int e = lo; e < hi; e++) s[(e - lo) % 4] += ax[e] * x[aj[e]];
    return (s[0] + s[1]) + (s[2] + s[3]);
}

/* lcp_text: appends cut at the size as snprintf would, numbers as printf's %ld and %.3g */
static void test_text(void)
{
    char buf[32], ref[32];
    lcp_text t = {buf, sizeof buf, 0};
    lcp_text_put(&t, "n = "), lcp_text_long(&t, -1234567), lcp_text_put(&t, ", "), lcp_text_g3(&t, 0.00012345);
    snprintf(ref, sizeof ref, "n = %ld, %.3g", -1234567L, 0.00012345);
    CHECK(!strcmp(buf, ref) && t.len == strlen(ref));
    lcp_text u = {buf, 4, 0};
    lcp_text_put(&u, ""), lcp_text_long(&u, 0);
    CHECK(!strcmp(buf, "0"));
    lcp_text_put(&u, "abcdef"), lcp_text_put(&u, "x");
    CHECK(!strcmp(buf, "0ab") && u.len == 3);
}

/* lcp_now_fast: intervals measured by it match lcp_now's (5 ms of work,
 * within 5%, after the calibration's first 2 ms), and readings in a row
 * never go back by more than a microsecond (the thread may move between
 * cores: the counter is read only where the kernel keeps it in step). */
static void test_now_fast(void)
{
    double t0 = lcp_now_fast(), prev = t0, worst_back = 0.0;
    int back = 0;
    while (lcp_now() - t0 < 3e-3) { /* past the calibration */
        double t = lcp_now_fast();
        back += t < prev - 1e-6;
        worst_back = fmax(worst_back, prev - t);
        prev = t;
    }
    int agree = 0;
    double fast = 0.0, wall = 0.0;
    for (int tries = 0; tries < 20 && !agree; tries++) { /* each end read between two wall-clock reads less than
                                                          * 20 us apart (a loaded machine may preempt between) */
        double a0 = lcp_now(), f0 = lcp_now_fast(), a0b = lcp_now();
        while (lcp_now() - a0 < 5e-3) {
            double t = lcp_now_fast();
            back += t < prev - 1e-6;
            worst_back = fmax(worst_back, prev - t);
            prev = t;
        }
        double a1 = lcp_now(), f1 = lcp_now_fast(), a1b = lcp_now();
        if (a0b - a0 > 2e-5 || a1b - a1 > 2e-5) continue;
        fast = f1 - f0, wall = a1 - a0;
        agree = fabs(fast - wall) <= 0.05 * wall;
    }
    if (back || !agree)
        fprintf(stderr, "lcp_now_fast: %d readings back (worst %.3g s); last interval %.6g s against the wall clock's "
                        "%.6g s\n", back, worst_back, fast, wall);
    CHECK(back == 0);
    CHECK(agree);
}

static void test_row_dot(void)
{
    enum { N = 90 };
    int aj[N];
    double ax[N], x[N + 40];
    unsigned u = 12345;
    for (int k = 0; k < N + 40; k++) {
        u = u * 1103515245u + 12345u;
        x[k] = ((double)(u >> 8) / (1 << 24) - 0.5) * pow(10, (int)(u % 7) - 3);
    }
    int ok = 1;
    for (int len = 1; len <= N; len++)
        for (int start = 0; start < 40; start += 13)
            for (int gap = 0; gap < 2; gap++) {
                for (int e = 0; e < len; e++) {
                    aj[e] = start + e + (gap && e >= len / 2); /* gap: one column skipped halfway */
                    u = u * 1103515245u + 12345u;
                    ax[e] = ((double)(u >> 8) / (1 << 24) - 0.5) * pow(10, (int)(u % 5) - 2);
                }
                double a = lcp_csr_row_dot(aj, ax, x, 0, len), b = row_dot_reference(aj, ax, x, 0, len);
                if (memcmp(&a, &b, sizeof a)) ok = 0;
            }
    CHECK(ok);
}

/* lcp_problems_pack: an lcp, a blcp with bounds, findex and mu, and an lcp
 * in factored form (M, J, v, e) with answers beside them, into one block:
 * every array the same values at its new place inside the block, the
 * answers' too, the problems marked, their verification the same bits,
 * and lcp_problem_free leaving the block to its owner (under ASan: no
 * free of an address inside it) */
static int in_block(const void *q, const char *block, size_t bytes)
{
    return (const char *)q >= block && (const char *)q < block + bytes;
}

static void test_pack(void)
{
    lcp_err err = {{0}};
    lcp_problem a, bl, f;
    const double A2[] = {2, -1, -1, 2}, b2[] = {-1, 1};
    const double A3[] = {4, 1, 0, 1, 3, 1, 0, 1, 2}, b3[] = {-1, -2, 3}, lo3[] = {0, -1, -2}, hi3[] = {1, 1, 5},
                 mu3[] = {0, 0.5, 0};
    prob(&a, LCP_KIND_LCP, 2, A2, b2);
    prob(&bl, LCP_KIND_BLCP, 3, A3, b3);
    bl.lo = dupv(lo3, 3), bl.hi = dupv(hi3, 3), bl.lolen = bl.hilen = 3;
    set_mu(&bl, mu3, 3);
    bl.findex = malloc(3 * sizeof(int)), bl.findexlen = 3;
    bl.findex[0] = -1, bl.findex[1] = 0, bl.findex[2] = -1;
    lcp_problem_init(&f);
    f.kind = LCP_KIND_LCP;
    f.source = lcp_strdup("test");
    const double M2[] = {2, 0, 0, 3}, J32[] = {1, 0, 1, 1, 0, 2}, v2[] = {-1, 0.5}, e3[] = {0.1, 0, -0.2};
    dense_rm(&f.M, 2, 2, M2);
    dense_rm(&f.J, 3, 2, J32);
    f.v = dupv(v2, 2), f.vlen = 2;
    f.e = dupv(e3, 3), f.elen = 3;
    CHECK(lcp_problem_finish(&a, &err) == 0 && lcp_problem_finish(&bl, &err) == 0 && lcp_problem_finish(&f, &err) == 0);
    lcp_problem before[3];
    lcp_problem *ps[3] = {&a, &bl, &f};
    double x0[3][3] = {{0.5, 1}, {0.2, -0.3, 1}, {0, 0.25, 0.5}}, *xs[3];
    for (int k = 0; k < 3; k++) { /* deep copies to compare with */
        before[k] = *ps[k];
        CHECK(lcp_csr_copy(&before[k].A, &ps[k]->A) == 0);
        before[k].b = dupv(ps[k]->b, ps[k]->n);
        xs[k] = dupv(x0[k], ps[k]->n);
    }
    lcp_metrics m0[3];
    double w[3];
    for (int k = 0; k < 3; k++) lcp_verify(ps[k], x0[k], w, &m0[k]);
    size_t bytes = 0; /* the block's size: each array rounded up to 8 bytes */
#define R8(b) (((size_t)(b) + 7) / 8 * 8)
    for (int k = 0; k < 3; k++) {
        const lcp_problem *p = ps[k];
        const lcp_csr *C[3] = {&p->A, &p->M, &p->J};
        for (int c = 0; c < 3; c++)
            if (C[c]->p) bytes += R8((C[c]->m + 1) * sizeof(int)) + R8(C[c]->p[C[c]->m] * sizeof(int)) + R8(C[c]->p[C[c]->m] * sizeof(double));
        int nd = 2 + (p->lo != NULL) + (p->hi != NULL) + (p->e != NULL); /* b, the answer, lo, hi, e */
        bytes += R8(nd * p->n * sizeof(double)) + (p->findex ? R8(p->n * sizeof(int)) : 0) + R8(p->nmu * sizeof(double)) +
                 (p->v ? R8(p->M.m * sizeof(double)) : 0);
    }
#undef R8
    char *block = lcp_problems_pack(ps, xs, 3);
    CHECK(block != NULL);
    for (int k = 0; block && k < 3; k++) {
        lcp_problem *p = ps[k];
        CHECK(p->packed == 1);
        CHECK(in_block(p->A.p, block, bytes) && in_block(p->A.j, block, bytes) && in_block(p->A.x, block, bytes));
        CHECK(in_block(p->b, block, bytes) && in_block(xs[k], block, bytes));
        int nnz = p->A.p[p->n];
        CHECK(nnz == before[k].A.p[p->n] && !memcmp(p->A.p, before[k].A.p, (size_t)(p->n + 1) * sizeof(int)));
        CHECK(!memcmp(p->A.j, before[k].A.j, (size_t)nnz * sizeof(int)) && !memcmp(p->A.x, before[k].A.x, (size_t)nnz * sizeof(double)));
        CHECK(!memcmp(p->b, before[k].b, (size_t)p->n * sizeof(double)) && !memcmp(xs[k], x0[k], (size_t)p->n * sizeof(double)));
        lcp_metrics m;
        lcp_verify(p, xs[k], w, &m);
        CHECK(m.residual == m0[k].residual && m.complementarity == m0[k].complementarity);
    }
    CHECK(in_block(bl.lo, block, bytes) && in_block(bl.hi, block, bytes) && in_block(bl.findex, block, bytes) &&
          in_block(bl.mu, block, bytes));
    CHECK(bl.lo[1] == -1 && bl.hi[2] == 5 && bl.findex[1] == 0 && bl.mu[1] == 0.5);
    CHECK(in_block(f.M.x, block, bytes) && in_block(f.J.j, block, bytes) && in_block(f.v, block, bytes) &&
          in_block(f.e, block, bytes));
    CHECK(f.M.x[1] == 3 && f.J.x[3] == 2 && f.v[0] == -1 && f.e[2] == -0.2);
    CHECK((char *)f.M.p > (char *)xs[2]); /* the factored form after every problem's hot arrays */
    CHECK(lcp_problems_pack(ps, NULL, 3) == NULL); /* packed already: refused, nothing changed */
    for (int k = 0; k < 3; k++) {
        lcp_problem_free(ps[k]);
        CHECK(ps[k]->packed == 0 && ps[k]->A.p == NULL);
        lcp_csr_free(&before[k].A);
        free(before[k].b);
    }
    free(block);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0); /* the closing line survives a sanitizer's exit */
    snprintf(tmpdir, sizeof tmpdir, "/tmp/lcp_test_core_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    test_csr();
    test_row_dot3();
    test_verify_bscale();
    test_verify_lcp();
    test_verify_blcp();
    test_verify_blcp_pass();
    test_cone();
    test_verify_friction();
    test_relative_diff();
    test_problem_checks();
    test_pack();
    test_mtx();
    test_json();
    test_folder();
    test_config();
    test_writers();
    test_misc();
    test_fmt_g3();
    test_row_dot();
    test_now_fast();
    test_text();
    for (int i = 0; i < nmade; i++) free(made[i]);
    check_rm_tree(tmpdir);
    CHECK(access(tmpdir, F_OK) != 0);
    CHECK_DONE();
}
