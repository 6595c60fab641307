/* tests/unit/test_fclib.c: the FCLIB HDF5 reader (src/io/fclib.c).
 *
 * The two public global files load into the factored form (sizes, M v = f,
 * and after lcp_problem_finish the stored solution satisfies u = A r + b);
 * small local and global problems written here with libfclib load with the
 * right orientation; files that are not HDF5, missing, or FCLIB files with
 * broken sizes, indices or values are refused with LCP_INPUT_ERROR naming
 * the file (libfclib itself would overflow or exit on most of them). */
#include "check.h"
#include "io/io.h"

#include <fclib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<hdf5.h>)
#include <hdf5.h>
#else
#include <hdf5/serial/hdf5.h>
#endif
#else
#include <hdf5.h>
#endif


static char tmpdir[256];

static const char *tmp_path(const char *name)
{
    static char path[8][512];
    static int next;
    char *p = path[next++ % 8];
    snprintf(p, 512, "%s/%s", tmpdir, name);
    return p;
}

static int load(const char *path, lcp_problem *p, lcp_err *err)
{
    lcp_problem_init(p);
    err->msg[0] = '\0';
    return lcp_read_fclib(path, p, err);
}

/* A(i,j) of a CSR matrix (0 when absent). */
static double at(const lcp_csr *A, int i, int j)
{
    for (int k = A->p[i]; k < A->p[i + 1]; k++)
        if (A->j[k] == j) return A->x[k];
    return 0.0;
}

/* A whole double dataset read with HDF5 (NULL if absent); *n its length. */
static double *h5_read_doubles(const char *path, const char *name, int *n)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return NULL;
    double *x = NULL;
    hid_t ds = H5Dopen2(f, name, H5P_DEFAULT);
    if (ds >= 0) {
        hid_t sp = H5Dget_space(ds);
        hssize_t np = H5Sget_simple_extent_npoints(sp);
        x = malloc((size_t)(np > 0 ? np : 1) * sizeof(double));
        if (x && H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x) < 0) {
            free(x);
            x = NULL;
        }
        *n = (int)np;
        H5Sclose(sp);
        H5Dclose(ds);
    }
    H5Fclose(f);
    return x;
}

/* Replaces (or creates) a 1-D dataset of `type` holding n values. */
static void h5_put(const char *path, const char *name, hid_t type, const void *data, hsize_t n)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0) return;
    if (H5Lexists(f, name, H5P_DEFAULT) > 0) H5Ldelete(f, name, H5P_DEFAULT);
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t ds = H5Dcreate2(f, name, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (ds >= 0) {
        H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
        H5Dclose(ds);
    }
    H5Sclose(sp);
    H5Fclose(f);
}

static void h5_ints(const char *path, const char *name, const int *v, hsize_t n)
{
    h5_put(path, name, H5T_NATIVE_INT, v, n);
}

static void h5_doubles(const char *path, const char *name, const double *v, hsize_t n)
{
    h5_put(path, name, H5T_NATIVE_DOUBLE, v, n);
}

static void h5_remove(const char *path, const char *name)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0) return;
    if (H5Lexists(f, name, H5P_DEFAULT) > 0) H5Ldelete(f, name, H5P_DEFAULT);
    H5Fclose(f);
}

static void h5_new_group(const char *path, const char *name)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0) return;
    hid_t g = H5Gcreate2(f, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g >= 0) H5Gclose(g);
    H5Fclose(f);
}

/* A local problem: W = [4 1 0; 1 5 0; 0 0 6] (compressed columns), q, mu. */
static const char *write_local(const char *name)
{
    const char *path = tmp_path(name);
    unlink(path);
    int p[4] = {0, 2, 4, 5}, i[5] = {0, 1, 0, 1, 2};
    double x[5] = {4, 1, 1, 5, 6}, q[3] = {-1, 2, 3}, mu[1] = {0.25};
    struct fclib_matrix W = {.nzmax = 5, .m = 3, .n = 3, .p = p, .i = i, .x = x, .nz = -1};
    struct fclib_local L = {.W = &W, .mu = mu, .q = q, .spacedim = 3};
    if (!fclib_write_local(&L, path)) fprintf(stderr, "fclib_write_local failed\n");
    return path;
}

/* A global problem: M = 2 I, H = I + e0 e1' (triplets: i rows, p columns),
 * f = (2, 4, 6), w = (0.5, 0, 0), mu = 0.3; with G when asked. */
static const char *write_global(const char *name, int with_G)
{
    const char *path = tmp_path(name);
    unlink(path);
    int mp[4] = {0, 1, 2, 3}, mi[3] = {0, 1, 2};
    double mx[3] = {2, 2, 2};
    int hi[4] = {0, 1, 2, 0}, hp[4] = {0, 1, 2, 1};
    double hx[4] = {1, 1, 1, 1};
    int gp[2] = {0, 1}, gi[1] = {0};
    double gx[1] = {1}, gb[1] = {0};
    double f[3] = {2, 4, 6}, w[3] = {0.5, 0, 0}, mu[1] = {0.3};
    struct fclib_matrix M = {.nzmax = 3, .m = 3, .n = 3, .p = mp, .i = mi, .x = mx, .nz = -1};
    struct fclib_matrix H = {.nzmax = 4, .m = 3, .n = 3, .p = hp, .i = hi, .x = hx, .nz = 4};
    struct fclib_matrix G = {.nzmax = 1, .m = 3, .n = 1, .p = gp, .i = gi, .x = gx, .nz = -1};
    struct fclib_global P = {.M = &M, .H = &H, .G = with_G ? &G : NULL, .mu = mu, .f = f,
                             .b = with_G ? gb : NULL, .w = w, .spacedim = 3};
    if (!fclib_write_global(&P, path)) fprintf(stderr, "fclib_write_global failed\n");
    return path;
}

/* The public global files: sizes, M v = f, and a symmetric A after
 * lcp_problem_finish. */
static void test_public_files(void)
{
    const struct {
        const char *file;
        int n, nc, nb;
    } files[] = {{"Box_Stacks-i0122-82-5.hdf5", 246, 82, 450},
                 {"Spheres-i099-356-679.hdf5", 1068, 356, 12000}};
    for (int k = 0; k < 2; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", check_data_path("/fc3d"), files[k].file);
        lcp_problem p;
        lcp_err err;
        int rc = load(path, &p, &err);
        if (rc) fprintf(stderr, "%s\n", err.msg);
        CHECK(rc == 0);
        CHECK(p.kind == LCP_KIND_FC3D && p.n == files[k].n && p.nc == files[k].nc &&
              p.nmu == files[k].nc);
        CHECK(p.M.m == files[k].nb && p.M.n == files[k].nb);
        CHECK(p.J.m == files[k].n && p.J.n == files[k].nb);
        CHECK(p.v && p.e && p.mu && !p.A.p && !p.b);
        CHECK(p.format && !strcmp(p.format, "fclib") && p.source && !strcmp(p.source, path));
        int nf = 0;
        double *f = h5_read_doubles(path, "fclib_global/vectors/f", &nf);
        if (rc == 0 && f && nf == p.M.m) { /* M v = f */
            double *Mv = malloc((size_t)nf * sizeof(double)), worst = 0, scale = 1;
            lcp_csr_matvec(&p.M, p.v, Mv);
            for (int i = 0; i < nf; i++) {
                worst = fmax(worst, fabs(Mv[i] - f[i]));
                scale = fmax(scale, fabs(f[i]));
            }
            CHECK(worst <= 1e-12 * scale);
            free(Mv);
        } else {
            CHECK(0);
        }
        free(f);
        rc = lcp_problem_finish(&p, &err);
        if (rc) fprintf(stderr, "finish: %s\n", err.msg);
        CHECK(rc == 0 && p.A.m == files[k].n && p.b);
        if (rc == 0) { /* A = J M^-1 J' is symmetric with a positive diagonal */
            int pos = 1;
            for (int i = 0; i < p.n; i++) pos &= lcp_csr_diag(&p.A, i) > 0;
            CHECK(lcp_csr_is_symmetric(&p.A, 1e-10) && pos);
        }
        lcp_problem_free(&p);
    }
}

/* Local and global problems written here. */
static void test_written(void)
{
    lcp_problem p;
    lcp_err err;
    int rc = load(write_local("local.hdf5"), &p, &err);
    if (rc) fprintf(stderr, "%s\n", err.msg);
    CHECK(rc == 0 && p.kind == LCP_KIND_FC3D && p.n == 3 && p.nc == 1);
    if (rc == 0) {
        CHECK(at(&p.A, 0, 0) == 4 && at(&p.A, 0, 1) == 1 && at(&p.A, 1, 0) == 1 &&
              at(&p.A, 2, 2) == 6 && lcp_csr_nnz(&p.A) == 5);
        CHECK(p.b[0] == -1 && p.b[1] == 2 && p.b[2] == 3 && p.mu[0] == 0.25);
        CHECK(!p.M.p && !p.J.p && !p.v);
    }
    lcp_problem_free(&p);

    rc = load(write_global("global.hdf5", 0), &p, &err);
    if (rc) fprintf(stderr, "%s\n", err.msg);
    CHECK(rc == 0 && p.n == 3 && p.nc == 1 && p.M.m == 3 && p.J.m == 3 && p.J.n == 3);
    if (rc == 0) {
        CHECK(fabs(p.v[0] - 1) < 1e-15 && fabs(p.v[1] - 2) < 1e-15 && fabs(p.v[2] - 3) < 1e-15);
        CHECK(p.e[0] == 0.5 && p.e[1] == 0 && p.mu[0] == 0.3);
        CHECK(at(&p.J, 1, 0) == 1 && at(&p.J, 0, 1) == 0); /* J = H', H(0,1) = 1 */
        rc = lcp_problem_finish(&p, &err);
        CHECK(rc == 0);
        if (rc == 0) { /* A = H' M^-1 H = 0.5 [1 1 0; 1 2 0; 0 0 1], b = H'v + w */
            CHECK(fabs(at(&p.A, 0, 0) - 0.5) < 1e-15 && fabs(at(&p.A, 1, 1) - 1) < 1e-15 &&
                  fabs(at(&p.A, 0, 1) - 0.5) < 1e-15 && fabs(at(&p.A, 2, 2) - 0.5) < 1e-15);
            CHECK(fabs(p.b[0] - 1.5) < 1e-15 && fabs(p.b[1] - 3) < 1e-15 &&
                  fabs(p.b[2] - 3) < 1e-15);
        }
    }
    lcp_problem_free(&p);
}

/* 1 if err names the path and holds `words`. */
static int refused(int rc, const lcp_err *err, const char *path, const char *words)
{
    int ok = rc == LCP_INPUT_ERROR && strncmp(err->msg, path, strlen(path)) == 0 &&
             strstr(err->msg, words) != NULL;
    if (!ok) fprintf(stderr, "expected refusal with '%s', got rc %d: %s\n", words, rc, err->msg);
    return ok;
}

/* Files that must be refused. */
static void test_refused(void)
{
    lcp_problem p;
    lcp_err err;
    const char *path;
    int rc;

    path = tmp_path("missing.hdf5");
    rc = load(path, &p, &err);
    CHECK(refused(rc, &err, path, "cannot open"));
    lcp_problem_free(&p);

    path = tmp_path("text.hdf5");
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("3\n1\n0\n3\n3\n", f);
        fclose(f);
    }
    rc = load(path, &p, &err);
    CHECK(refused(rc, &err, path, "not an HDF5 file"));
    lcp_problem_free(&p);

    path = tmp_path("empty.hdf5"); /* HDF5, but no FCLIB group */
    hid_t h = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (h >= 0) H5Fclose(h);
    rc = load(path, &p, &err);
    CHECK(refused(rc, &err, path, "not an FCLIB problem"));
    lcp_problem_free(&p);

    path = write_local("truncated.hdf5"); /* an HDF5 file cut short */
    struct stat st;
    if (stat(path, &st) == 0 && truncate(path, st.st_size / 2) != 0) perror("truncate");
    rc = load(path, &p, &err);
    CHECK(rc == LCP_INPUT_ERROR && strncmp(err.msg, path, strlen(path)) == 0);
    lcp_problem_free(&p);

    path = write_global("global_notpd.hdf5", 0); /* M = diag(2, -1, 2) */
    const double m_bad[3] = {2, -1, 2};
    h5_doubles(path, "fclib_global/M/x", m_bad, 3);
    rc = load(path, &p, &err);
    CHECK(refused(rc, &err, path, "not positive definite"));
    lcp_problem_free(&p);

    path = write_global("global_G.hdf5", 1);
    rc = load(path, &p, &err);
    CHECK(refused(rc, &err, path, "equality constraints"));
    lcp_problem_free(&p);

    /* broken local files: one change each to a valid file */
    const int p_long[6] = {0, 2, 4, 5, 5, 5}, nz7 = 7, nz3 = -3, two = 2, neg = -1;
    const int big = 2000000000;
    const int p_decr[4] = {0, 3, 2, 5}, i_out[5] = {0, 1, 0, 1, 7}, pair[2] = {5, 5};
    const double q2[2] = {1, 2}, x_nan[5] = {4, 1, 1, NAN, 6};
    const double q_inf[3] = {-1, INFINITY, 3}, mu_nan[1] = {NAN};
    const double m_eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    struct {
        const char *name, *words;
        int kind; /* 0 ints, 1 doubles, 2 remove, 3 new group */
        const char *dset;
        const void *data;
        hsize_t n;
    } cases[] = {
        {"p_long.hdf5", "fclib_local/W/p has 6 elements", 0, "fclib_local/W/p", p_long, 6},
        {"nz7.hdf5", "nz = 7 exceeds nzmax", 0, "fclib_local/W/nz", &nz7, 1},
        {"nz-3.hdf5", "unknown matrix format", 0, "fclib_local/W/nz", &nz3, 1},
        {"spacedim2.hdf5", "2D friction", 0, "fclib_local/spacedim", &two, 1},
        {"q_short.hdf5", "fclib_local/vectors/q has 2 elements", 1, "fclib_local/vectors/q", q2,
         2},
        {"p_decr.hdf5", "pointers not increasing", 0, "fclib_local/W/p", p_decr, 4},
        {"i_out.hdf5", "outside", 0, "fclib_local/W/i", i_out, 5},
        {"x_nan.hdf5", "not finite", 1, "fclib_local/W/x", x_nan, 5},
        {"q_inf.hdf5", "q[1] is not finite", 1, "fclib_local/vectors/q", q_inf, 3},
        {"mu_nan.hdf5", "mu[0] is not finite", 1, "fclib_local/vectors/mu", mu_nan, 1},
        {"nzmax_pair.hdf5", "scalar", 0, "fclib_local/W/nzmax", pair, 2},
        {"m_neg.hdf5", "negative size", 0, "fclib_local/W/m", &neg, 1},
        {"nzmax_big.hdf5", "nzmax", 0, "fclib_local/W/nzmax", &big, 1},
        {"no_mu.hdf5", "fclib_local/vectors/mu is missing", 2, "fclib_local/vectors/mu", NULL, 0},
        {"no_W.hdf5", "fclib_local/W is missing", 2, "fclib_local/W", NULL, 0},
        {"x_matrix.hdf5", "more than nzmax", 1, "fclib_local/W/x", m_eye, 9},
        {"mixed.hdf5", "mixed", 3, "fclib_local/V", NULL, 0},
        {"dim_float.hdf5", "integer", 1, "fclib_local/spacedim", q2, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        path = write_local(cases[k].name);
        if (cases[k].kind == 0) h5_ints(path, cases[k].dset, cases[k].data, cases[k].n);
        else if (cases[k].kind == 1) h5_doubles(path, cases[k].dset, cases[k].data, cases[k].n);
        else if (cases[k].kind == 2) h5_remove(path, cases[k].dset);
        else h5_new_group(path, cases[k].dset);
        rc = load(path, &p, &err);
        CHECK(refused(rc, &err, path, cases[k].words));
        CHECK(!p.A.p && !p.b && !p.mu && !p.M.p && !p.v);
        lcp_problem_free(&p);
    }

    /* NaN or Inf anywhere in a global problem: refused at load */
    const double m_nan[3] = {2, NAN, 2}, f_inf[3] = {2, -INFINITY, 6}, w_nan[3] = {0.5, NAN, 0}, gmu_inf[1] = {INFINITY};
    struct {
        const char *name, *words, *dset;
        const double *data;
        hsize_t n;
    } gcases[] = {
        {"g_m_nan.hdf5", "not finite", "fclib_global/M/x", m_nan, 3},
        {"g_f_inf.hdf5", "not finite", "fclib_global/vectors/f", f_inf, 3},
        {"g_w_nan.hdf5", "not finite", "fclib_global/vectors/w", w_nan, 3},
        {"g_mu_inf.hdf5", "not finite", "fclib_global/vectors/mu", gmu_inf, 1},
    };
    for (size_t k = 0; k < sizeof gcases / sizeof *gcases; k++) {
        path = write_global(gcases[k].name, 0);
        h5_doubles(path, gcases[k].dset, gcases[k].data, gcases[k].n);
        rc = load(path, &p, &err);
        CHECK(refused(rc, &err, path, gcases[k].words));
        lcp_problem_free(&p);
    }
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/lcp_test_fclib.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* the helpers probe links quietly */
    struct stat st;
    if (stat(check_data_path("/fc3d"), &st) == 0 && S_ISDIR(st.st_mode)) test_public_files();
    else CHECK_SKIP("FCLIB files: %s not found (LCPSOLVE_DATA)", check_data_path("/fc3d"));
    test_written();
    test_refused();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    CHECK_DONE();
}
