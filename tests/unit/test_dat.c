/* tests/unit/test_dat.c: the Siconos .dat reader (src/io/dat.c).
 *
 * Every public Siconos file loads with the expected sizes (when the shared
 * data folder is there), dense and block storage agree exactly, known
 * entries are where they belong, the sparse (CSparse) storage reads, and
 * malformed files are refused with "FILE:LINE: reason", without a crash or
 * a leak (run it under -fsanitize=address,undefined). */
#include "check.h"
#include "io/io.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* filler so that the file could hold what its header claims */
#define PAD "\n0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"

static char tmpdir[256];

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Writes text to tmpdir/name and returns the path (static buffer per call). */
static const char *write_tmp(const char *name, const char *text, size_t len)
{
    static char path[8][512];
    static int next;
    char *p = path[next++ % 8];
    snprintf(p, 512, "%s/%s", tmpdir, name);
    FILE *f = fopen(p, "wb");
    if (!f) return p;
    fwrite(text, 1, len, f);
    fclose(f);
    return p;
}

static const char *write_text(const char *name, const char *text)
{
    return write_tmp(name, text, strlen(text));
}

/* A(i,j) of a CSR matrix (0 when absent). */
static double at(const lcp_csr *A, int i, int j)
{
    for (int k = A->p[i]; k < A->p[i + 1]; k++)
        if (A->j[k] == j) return A->x[k];
    return 0.0;
}

/* 1 if two CSR matrices are identical (structure and values). */
static int same_csr(const lcp_csr *a, const lcp_csr *b)
{
    if (a->m != b->m || a->n != b->n) return 0;
    if (memcmp(a->p, b->p, ((size_t)a->m + 1) * sizeof(int))) return 0;
    long nnz = lcp_csr_nnz(a);
    return !memcmp(a->j, b->j, (size_t)nnz * sizeof(int)) &&
           !memcmp(a->x, b->x, (size_t)nnz * sizeof(double));
}

/* Reads path; on failure prints the message.  Returns the status. */
static int load(const char *path, lcp_kind hint, lcp_problem *p, lcp_err *err)
{
    lcp_problem_init(p);
    err->msg[0] = '\0';
    int rc = lcp_read_dat(path, hint, p, err);
    return rc;
}

static const struct {
    const char *file;
    int friction, n, nc;
} siconos[] = {
    {"lcp/lcp_CPS_1.dat", 0, 2, 0},
    {"lcp/lcp_CPS_2.dat", 0, 3, 0},
    {"lcp/lcp_CPS_3.dat", 0, 4, 0},
    {"lcp/lcp_CPS_4.dat", 0, 4, 0},
    {"lcp/lcp_CPS_4bis.dat", 0, 4, 0},
    {"lcp/lcp_Pang_isolated_sol.dat", 0, 3, 0},
    {"lcp/lcp_deudeu.dat", 0, 2, 0},
    {"lcp/lcp_deudeu_block.dat", 0, 2, 0},
    {"lcp/lcp_enum_fails.dat", 0, 9, 0},
    {"lcp/lcp_exp_murty.dat", 0, 6, 0},
    {"lcp/lcp_inf_sol_perturbed.dat", 0, 3, 0},
    {"lcp/lcp_mmc.dat", 0, 26, 0},
    {"lcp/lcp_ortiz.dat", 0, 4, 0},
    {"lcp/lcp_ortiz_block.dat", 0, 4, 0},
    {"lcp/lcp_trivial.dat", 0, 9, 0},
    {"lcp/lcp_trivial_block.dat", 0, 9, 0},
    {"fc3d/BoxesStack1-i100000-32.hdf5.dat", 1, 156, 52},
    {"fc3d/Capsules-i122-1617.dat", 1, 888, 296},
    {"fc3d/FC3D_Example1.dat", 1, 9, 3},
    {"fc3d/FrictionContact3D_1c.dat", 1, 3, 1},
    {"fc3d/KaplasTower-i1061-4.hdf5.dat", 1, 1710, 570},
    {"fc3d/Rover1039.dat", 1, 12, 4},
    {"fc3d/Rover4396.dat", 1, 6, 2},
};

/* Every Siconos file loads with its sizes and passes lcp_problem_finish. */
static void test_siconos_all(void)
{
    for (size_t k = 0; k < sizeof siconos / sizeof *siconos; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", check_data_path(""), siconos[k].file);
        lcp_problem p;
        lcp_err err;
        int rc = load(path, LCP_KIND_NONE, &p, &err);
        if (rc) fprintf(stderr, "%s: %s\n", path, err.msg);
        CHECK(rc == 0);
        CHECK(p.n == siconos[k].n && p.A.m == siconos[k].n && p.A.n == siconos[k].n);
        CHECK(p.kind == (siconos[k].friction ? LCP_KIND_FC3D : LCP_KIND_LCP));
        CHECK(p.nc == siconos[k].nc && p.nmu == siconos[k].nc);
        CHECK(p.b != NULL && (siconos[k].friction ? p.mu != NULL : p.mu == NULL));
        CHECK(p.format && !strcmp(p.format, "dat") && p.source && !strcmp(p.source, path));
        rc = lcp_problem_finish(&p, &err);
        if (rc) fprintf(stderr, "finish %s: %s\n", path, err.msg);
        CHECK(rc == 0);
        lcp_problem_free(&p);
    }
}

/* Dense and block (SBM) versions of the same problem agree exactly. */
static void test_dense_vs_block(void)
{
    const char *pairs[][2] = {{"lcp_ortiz.dat", "lcp_ortiz_block.dat"},
                              {"lcp_trivial.dat", "lcp_trivial_block.dat"},
                              {"lcp_deudeu.dat", "lcp_deudeu_block.dat"}};
    for (int k = 0; k < 3; k++) {
        char a[512], b[512];
        snprintf(a, sizeof a, "%s/lcp/%s", check_data_path(""), pairs[k][0]);
        snprintf(b, sizeof b, "%s/lcp/%s", check_data_path(""), pairs[k][1]);
        lcp_problem P, Q;
        lcp_err err;
        CHECK(load(a, LCP_KIND_NONE, &P, &err) == 0);
        CHECK(load(b, LCP_KIND_NONE, &Q, &err) == 0);
        CHECK(P.A.p && Q.A.p && same_csr(&P.A, &Q.A));
        CHECK(P.n == Q.n && P.b && Q.b && !memcmp(P.b, Q.b, (size_t)P.n * sizeof(double)));
        lcp_problem_free(&P);
        lcp_problem_free(&Q);
    }
}

/* Known entries: Murty's matrix (column-major storage), FrictionContact3D_1c. */
static void test_siconos_entries(void)
{
    lcp_problem p;
    lcp_err err;
    CHECK(load(check_data_path("/lcp/lcp_exp_murty.dat"), LCP_KIND_NONE, &p, &err) == 0);
    if (p.A.p) {
        int ok = 1;
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 6; j++) ok &= at(&p.A, i, j) == (i == j ? 1.0 : j > i ? 2.0 : 0.0);
        CHECK(ok); /* upper triangular, 1 on the diagonal, 2 above */
        for (int i = 0; i < 6; i++) CHECK(p.b[i] == -1.0);
    }
    lcp_problem_free(&p);

    CHECK(load(check_data_path("/lcp/lcp_ortiz.dat"), LCP_KIND_NONE, &p, &err) == 0);
    if (p.A.p) { /* first printed line "3 -1 0 0" is column 0 */
        CHECK(at(&p.A, 0, 0) == 3.0 && at(&p.A, 1, 0) == -1.0 && at(&p.A, 0, 1) == 1.0);
    }
    lcp_problem_free(&p);

    CHECK(load(check_data_path("/fc3d/FrictionContact3D_1c.dat"), LCP_KIND_NONE, &p, &err) == 0);
    if (p.A.p && p.b && p.mu) {
        CHECK(at(&p.A, 0, 0) == 15.0 && at(&p.A, 1, 1) == 14.0 && at(&p.A, 2, 2) == 16.0);
        CHECK(at(&p.A, 0, 1) == -1.0 && at(&p.A, 0, 2) == -2.0 && at(&p.A, 1, 2) == 1.0);
        CHECK(p.b[0] == -1.0 && p.b[1] == 2.0 && p.b[2] == 3.0);
        CHECK(p.mu[0] == 0.1);
    }
    lcp_problem_free(&p);
}

/* kind hints: friction files read as ccp, LCP files as blcp, mismatches refused. */
static void test_hints(void)
{
    lcp_problem p;
    lcp_err err;
    CHECK(load(check_data_path("/fc3d/Rover4396.dat"), LCP_KIND_CCP, &p, &err) == 0 && p.kind == LCP_KIND_CCP);
    lcp_problem_free(&p);
    CHECK(load(check_data_path("/fc3d/Rover4396.dat"), LCP_KIND_FC3D, &p, &err) == 0 && p.kind == LCP_KIND_FC3D);
    lcp_problem_free(&p);
    CHECK(load(check_data_path("/lcp/lcp_CPS_1.dat"), LCP_KIND_BLCP, &p, &err) == 0 && p.kind == LCP_KIND_BLCP);
    lcp_problem_free(&p);
    CHECK(load(check_data_path("/fc3d/Rover4396.dat"), LCP_KIND_LCP, &p, &err) == LCP_INPUT_ERROR);
    lcp_problem_free(&p);
    CHECK(load(check_data_path("/lcp/lcp_mmc.dat"), LCP_KIND_FC3D, &p, &err) == LCP_INPUT_ERROR);
    CHECK(strstr(err.msg, "lcp_mmc.dat:1:") != NULL);
    lcp_problem_free(&p);
}

/* The same 3 x 3 matrix in every storage, hand-written. */
static void test_storages(void)
{
    /* A = [4 0 1; 0 5 0; 2 0 6], q = (-1, -2, -3) */
    const char *dense = "3\n0\n3\n3\n3\t3\n4 0 2\n0 5 0\n1 0 6\n-1 -2 -3\n";
    const char *sbm = /* blocks 2+1 rows and columns; blocks (0,0), (0,1), (1,0), (1,1) */
        "3\n1\n3\n3\n4\n2\n2\n2\t3\t\n2\t3\t\n3\n4\n0\t2\t4\t\n0\t1\t0\t1\t\n"
        "0\n4\n0\n0\n5\n1\n1\n0\n2\n2\n0\n3\n6\n-1 -2 -3\n";
    const char *triplet = "3\n2\n3\n3\n1\n"
                          "CSparse Version 3.1.9, May 4, 2016.  Copyright (c) Timothy A. Davis\n"
                          "triplet: 3-by-3, nzmax: 6 nnz: 5\n"
                          "    0 0 : 4\n    2 0 : 2\n    1 1 : 5\n    0 2 : 1\n    2 2 : 6\n"
                          "-1 -2 -3\n";
    const char *csc = "3\n2\n3\n3\n2\n"
                      "CSparse Version 3.1.9, May 4, 2016.  Copyright (c) Timothy A. Davis\n"
                      "3-by-3, nzmax: 5 nnz: 5, 1-norm: 7\n"
                      "    col 0 : locations 0 to 1\n      0 : 4\n      2 : 2\n"
                      "    col 1 : locations 2 to 2\n      1 : 5\n"
                      "    col 2 : locations 3 to 4\n      0 : 1\n      2 : 6\n"
                      "-1 -2 -3\n";
    const char *csr = "3\n2\n3\n3\n3\n"
                      "CSparse Version 3.1.9, May 4, 2016.  Copyright (c) Timothy A. Davis\n"
                      "3-by-3, nzmax: 5 nnz: 5, 1-norm: 7\n"
                      "    col 0 : locations 0 to 1\n      0 : 4\n      2 : 1\n"
                      "    col 1 : locations 2 to 2\n      1 : 5\n"
                      "    col 2 : locations 3 to 4\n      0 : 2\n      2 : 6\n"
                      "-1 -2 -3\n";
    const char *zero = "2\n1\n2\n2\n0\n1 2\n"; /* nbblocks 0: the zero matrix */
    lcp_problem ref, p;
    lcp_err err;
    CHECK(load(write_text("st_dense.dat", dense), LCP_KIND_NONE, &ref, &err) == 0);
    CHECK(ref.A.p && at(&ref.A, 2, 0) == 2.0 && at(&ref.A, 0, 2) == 1.0 && lcp_csr_nnz(&ref.A) == 5);
    const char *others[][2] = {
        {"st_sbm.dat", sbm}, {"st_triplet.dat", triplet}, {"st_csc.dat", csc}, {"st_csr.dat", csr}};
    for (int k = 0; k < 4; k++) {
        int rc = load(write_text(others[k][0], others[k][1]), LCP_KIND_NONE, &p, &err);
        if (rc) fprintf(stderr, "%s\n", err.msg);
        CHECK(rc == 0);
        CHECK(p.A.p && ref.A.p && same_csr(&p.A, &ref.A));
        CHECK(p.b && p.b[2] == -3.0);
        lcp_problem_free(&p);
    }
    CHECK(load(write_text("st_zero.dat", zero), LCP_KIND_NONE, &p, &err) == 0);
    CHECK(p.A.p && p.A.m == 2 && lcp_csr_nnz(&p.A) == 0 && p.b && p.b[1] == 2.0);
    lcp_problem_free(&p);
    lcp_problem_free(&ref);
}

/* 1 if msg is "PATH:LINE: ..." with the given line. */
static int has_line(const char *msg, const char *path, int line)
{
    char want[600];
    snprintf(want, sizeof want, "%s:%d: ", path, line);
    return strncmp(msg, want, strlen(want)) == 0;
}

static const struct {
    const char *name, *text;
    int line;
    const char *words; /* a piece of the expected message */
} bad[] = {
    {"empty.dat", "", 1, "end of file"},
    {"blank.dat", "\n\n\n", 1, "end of file"},
    {"trunc_q.dat", "2\n0\n2\n2\n2 2\n1 0\n0 1\n-1\n", 8, "q has 1 of 2"},
    {"trunc_matrix.dat", "2\n0\n2\n2\n2 2\n1 0\n0\n", 7, "3 of 4"},
    {"bad_token.dat", "2\n0\n2\n2\n2 2\n1 abc\n0 1\n-1 -1\n", 6, "found 'abc'"},
    {"nan_value.dat", "2\n0\n2\n2\n2 2\n1 0\n0 nan\n-1 -1\n", 7, "not a finite"},
    {"inf_q.dat", "2\n0\n2\n2\n2 2\n1 0\n0 1\n-1 inf\n", 8, "not a finite"},
    {"overflow_value.dat", "2\n0\n2\n2\n2 2\n1 0\n0 1e999\n-1 1\n", 7, "not a finite"},
    {"huge_n.dat", "1000000000000\n0\n1\n1\n1 1\n1\n1\n", 1, "too large"},
    {"huge_dense.dat", "40000\n0\n40000\n40000\n40000 40000\n1 2 3\n", 5, "values claimed"},
    {"negative_n.dat", "-3\n0\n3\n3\n", 1, "negative"},
    {"float_n.dat", "2.5\n0\n2\n2\n", 1, "found '2.5'"},
    {"ll_overflow.dat", "99999999999999999999999\n0\n", 1, "an integer"},
    {"zero_n.dat", "0\n0\n0\n0\n0 0\n", 1, "empty"},
    {"size_mismatch.dat", "3\n0\n3\n4\n3 4\n", 4, "3 x 4, expected 3 x 3"},
    {"repeat_mismatch.dat", "2\n0\n2\n2\n2 3\n", 5, "differs"},
    {"bad_storage.dat", "2\n7\n2\n2\n", 2, "storage type 7"},
    {"sbm_ptr_decr.dat", "4\n1\n4\n4\n4\n2\n2\n2 4\n2 4\n3\n4\n0 3 2\n" PAD, 12, "not increasing"},
    {"sbm_ptr_start.dat", "4\n1\n4\n4\n4\n2\n2\n2 4\n2 4\n3\n4\n1 2 4\n" PAD, 12, "start at 0"},
    {"sbm_ptr_end.dat", "4\n1\n4\n4\n4\n2\n2\n2 4\n2 4\n3\n4\n0 2 3\n" PAD, 12, "end at 3"},
    {"sbm_sizes_flat.dat", "4\n1\n4\n4\n4\n2\n2\n2 2\n" PAD, 8, "not increasing"},
    {"sbm_sizes_end.dat", "4\n1\n4\n4\n4\n2\n2\n1 3\n" PAD, 8, "end at 3, expected 4"},
    {"sbm_col_range.dat", "4\n1\n4\n4\n4\n2\n2\n2 4\n2 4\n3\n4\n0 2 4\n0 1 5 1\n" PAD, 13,
     "out of range"},
    {"sbm_block_num.dat",
     "2\n1\n2\n2\n1\n1\n1\n2\n2\n2\n1\n0 1\n0\n3\n1 2 3 4\n1 1\n", 14, "block number 3"},
    {"sbm_huge_blocks.dat", "4\n1\n4\n4\n1000000000\n2\n2\n", 5, "values claimed"},
    {"sbm_filled2.dat", "4\n1\n4\n4\n4\n2\n2\n2 4\n2 4\n3\n5\n", 11, "filled2"},
    {"sbm_negative.dat", "4\n1\n4\n4\n-4\n", 5, "negative"},
    {"sbm_trunc_block.dat", "2\n1\n2\n2\n1\n1\n1\n2\n2\n2\n1\n0 1\n0\n0\n1 2\n", 15, "2 of 4"},
    {"sp_range.dat",
     "2\n2\n2\n2\n1\nCSparse Version\ntriplet: 2-by-2, nzmax: 1 nnz: 1\n  5 0 : 1\n1 1\n", 8,
     "outside"},
    {"sp_size.dat", "2\n2\n2\n2\n1\nCSparse Version\ntriplet: 3-by-2, nzmax: 1 nnz: 1\n", 7,
     "3 x 2"},
    {"sp_origin.dat", "2\n2\n2\n2\n9\n", 5, "origin"},
    {"sp_huge_nnz.dat", "2\n2\n2\n2\n1\nCSparse\ntriplet: 2-by-2, nzmax: 1 nnz: 2000000000\n", 7,
     "values claimed"},
    {"sp_locations.dat",
     "2\n2\n2\n2\n2\nCSparse\n2-by-2, nzmax: 2 nnz: 2, 1-norm: 1\n col 0 : locations 0 to 5\n"
     "                                                  \n",
     8,
     "outside"},
    {"fc_d2.dat", "2\n1\n0\n2\n2\n2 2\n1 0 0 1\n1 1\n0.5\n", 1, "d = 2"},
    {"fc_nc_huge.dat", "3\n1000000000\n0\n3000000000\n", 2, "too large"},
    {"fc_claims.dat", "3\n100000\n0\n300000\n300000\n300000 300000\n1 2\n", 6, "values claimed"},
    {"fc_no_mu.dat", "3\n1\n0\n3\n3\n3 3\n1 0 0\n0 1 0\n0 0 1\n-1 0 0\n", 10, "mu has 0 of 1"},
    {"fc_nan_mu.dat", "3\n1\n0\n3\n3\n3 3\n1 0 0\n0 1 0\n0 0 1\n-1 0 0\nNaN\n", 11, "finite"},
    {"binary.dat", "\x01\x02\xff\xfe garbage\n", 1, "expected"},
};

/* Malformed files: LCP_INPUT_ERROR, "FILE:LINE: ...", the expected words. */
static void test_malformed(void)
{
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        const char *path = write_text(bad[k].name, bad[k].text);
        lcp_problem p;
        lcp_err err;
        int rc = load(path, LCP_KIND_NONE, &p, &err);
        int ok = rc == LCP_INPUT_ERROR && has_line(err.msg, path, bad[k].line) &&
                 strstr(err.msg, bad[k].words) != NULL && !strchr(err.msg, '\n');
        if (!ok)
            fprintf(stderr, "%s: rc %d, line %d and '%s' expected, got: %s\n", bad[k].name, rc,
                    bad[k].line, bad[k].words, err.msg);
        CHECK(ok);
        CHECK(p.A.p == NULL && p.b == NULL && p.mu == NULL); /* nothing half-filled */
        lcp_problem_free(&p);
    }
    /* a NUL byte inside a number, and one in the trailing text that is
     * otherwise ignored: refused wherever it is (a text file has none) */
    static const char nul_text[] = "2\n0\n2\n2\n2 2\n1 0\n0 1\n-1 2\0009\n";
    const char *nul = write_tmp("nul.dat", nul_text, sizeof nul_text - 1);
    lcp_problem p;
    lcp_err err;
    CHECK(load(nul, LCP_KIND_NONE, &p, &err) == LCP_INPUT_ERROR && has_line(err.msg, nul, 8) &&
          strstr(err.msg, "NUL byte"));
    lcp_problem_free(&p);
    static const char nul_note[] = "2\n0\n2\n2\n2 2\n1 0\n0 1\n-1 2\nnote \0\n";
    nul = write_tmp("nul_note.dat", nul_note, sizeof nul_note - 1);
    CHECK(load(nul, LCP_KIND_NONE, &p, &err) == LCP_INPUT_ERROR && has_line(err.msg, nul, 9) &&
          strstr(err.msg, "NUL byte"));
    lcp_problem_free(&p);
    /* hint FC3D on a file whose d is 4 */
    const char *path = write_text("fc_d4.dat", "4\n0\n4\n4\n4 4\n");
    CHECK(load(path, LCP_KIND_FC3D, &p, &err) == LCP_INPUT_ERROR && has_line(err.msg, path, 1) &&
          strstr(err.msg, "d = 4"));
    lcp_problem_free(&p);
    /* a missing file and a folder */
    char missing[512];
    snprintf(missing, sizeof missing, "%s/no_such_file.dat", tmpdir);
    CHECK(load(missing, LCP_KIND_NONE, &p, &err) == LCP_INPUT_ERROR &&
          strstr(err.msg, missing) && strstr(err.msg, "cannot open"));
    lcp_problem_free(&p);
    CHECK(load(tmpdir, LCP_KIND_NONE, &p, &err) == LCP_INPUT_ERROR && strstr(err.msg, tmpdir));
    lcp_problem_free(&p);
}

/* Mutations and truncations of valid files: each either loads or is refused
 * as LCP_INPUT_ERROR naming the file; never a crash (ASan checks the rest). */
static void test_fuzz(void)
{
    const char *seeds[] = {
        "4\n1\n4\n4\n4\n2\n2\n2\t4\t\n2\t4\t\n3\n4\n0\t2\t4\t\n0\t1\t0\t1\t\n"
        "0\n3\n-1\n1\n2\n1\n0\n1\n-1\n1\n2\n0\n0\n1\n0\n3\n3\n1\n-1\n2\n-2 1 -1 1\n",
        "3\n1\n0\n3\n3\n3 3\n15 -1 -2\n-1 14 1\n-2 1 16\n-1 2 3\n0.1\n",
        "3\n2\n3\n3\n2\nCSparse Version 3.1.9\n3-by-3, nzmax: 5 nnz: 5, 1-norm: 7\n"
        "    col 0 : locations 0 to 1\n      0 : 4\n      2 : 2\n"
        "    col 1 : locations 2 to 2\n      1 : 5\n"
        "    col 2 : locations 3 to 4\n      0 : 1\n      2 : 6\n-1 -2 -3\n",
    };
    const char pieces[] = "0123456789-+.e \n\t:x";
    unsigned long long rng = 0x9E3779B97F4A7C15ULL;
    int wrong = 0, loaded = 0, refused = 0;
    for (int s = 0; s < 3; s++) {
        size_t len = strlen(seeds[s]);
        char *buf = malloc(len + 1);
        for (size_t cut = 0; cut < len; cut++) { /* every truncation */
            const char *path = write_tmp("fuzz.dat", seeds[s], cut);
            lcp_problem p;
            lcp_err err;
            int rc = load(path, LCP_KIND_NONE, &p, &err);
            if (rc == 0) loaded++;
            else if (rc == LCP_INPUT_ERROR && strstr(err.msg, path)) refused++;
            else wrong++;
            lcp_problem_free(&p);
        }
        for (int it = 0; it < 1500; it++) { /* random byte mutations */
            memcpy(buf, seeds[s], len + 1);
            int edits = 1 + (int)(rng % 4);
            for (int e = 0; e < edits; e++) {
                rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
                size_t at_ = (size_t)(rng >> 33) % len;
                buf[at_] = pieces[(rng >> 20) % (sizeof pieces - 1)];
            }
            const char *path = write_tmp("fuzz.dat", buf, len);
            lcp_problem p;
            lcp_err err;
            for (int h = 0; h < 2; h++) {
                int rc = load(path, h ? LCP_KIND_FC3D : LCP_KIND_NONE, &p, &err);
                if (rc == 0) loaded++;
                else if (rc == LCP_INPUT_ERROR && strstr(err.msg, path)) refused++;
                else wrong++;
                lcp_problem_free(&p);
            }
        }
        free(buf);
    }
    if (wrong) fprintf(stderr, "fuzz: %d results neither loaded nor refused properly\n", wrong);
    CHECK(wrong == 0);
    CHECK(loaded > 0 && refused > 0);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/lcp_test_dat.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    if (is_dir(check_data_path("/lcp")) && is_dir(check_data_path("/fc3d"))) {
        test_siconos_all();
        test_dense_vs_block();
        test_siconos_entries();
        test_hints();
    } else {
        CHECK_SKIP("Siconos files: %s not found (LCPSOLVE_DATA)", check_data_path(""));
    }
    test_storages();
    test_malformed();
    test_fuzz();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    CHECK_DONE();
}
