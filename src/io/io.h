/* src/io/io.h: readers and writers, one file a format.
 *
 * Every reader fills an lcp_problem (initialised by the caller) and returns
 * 0, or LCP_INPUT_ERROR with err = "FILE:LINE: what is wrong".  Readers do
 * not call lcp_problem_finish(); lcp_read_problem() does.  Readers survive
 * any input: no crash, no unbounded allocation from a header's claims.
 */
#ifndef LCPSOLVE_IO_H
#define LCPSOLVE_IO_H

#include "../core/problem.h"

/* Dispatch on what path is: a folder, or a file by extension
 * (.mtx is refused here: use -A/-b), then lcp_problem_finish(). */
int lcp_read_problem(const char *path, lcp_kind kind_hint, lcp_problem *p, lcp_err *err);

/* Matrix Market through CHOLMOD (src/io/mtx.c). */
int lcp_read_mtx_matrix(const char *path, lcp_csr *A, lcp_err *err);
int lcp_read_mtx_vector(const char *path, double **v, int *n, lcp_err *err);
/* The line number of a Matrix Market file's size line (0 if unknown). */
long mtx_size_line(const char *path);
/* Writes v as a Matrix Market array n x 1, atomically (temp file + rename). */
int lcp_write_mtx_vector(const char *path, const double *v, int n, const char *comment,
                         lcp_err *err);
/* Writes A in coordinate form, atomically. */
int lcp_write_mtx_matrix(const char *path, const lcp_csr *A, const char *comment, lcp_err *err);

/* Writes p as a folder dir (created) of Matrix Market files, one a field
 * present, and problem.json naming them with the kind; read back by
 * lcp_read_problem (src/io/write.c). */
int lcp_write_problem(const lcp_problem *p, const char *dir, lcp_err *err);

/* A problem folder: A.mtx b.mtx [mu.mtx lo.mtx hi.mtx findex.mtx] or
 * M.mtx J.mtx v.mtx [e.mtx mu.mtx] (src/io/folder.c). */
int lcp_read_folder(const char *dir, lcp_kind kind_hint, lcp_problem *p, lcp_err *err);

/* JSON, a whole problem or a manifest naming .mtx files (src/io/json.c). */
int lcp_read_json(const char *path, lcp_problem *p, lcp_err *err);
/* The same from text in memory (NUL-terminated at len): name is for
 * messages, and manifests' files are relative to its folder. */
int lcp_read_json_text(const char *name, const char *text, size_t len, lcp_problem *p, lcp_err *err);

/* Siconos .dat, LCP or FrictionContact (src/io/dat.c).  kind_hint may be
 * LCP_KIND_NONE (guess from the content), LCP_KIND_LCP or LCP_KIND_FC3D. */
int lcp_read_dat(const char *path, lcp_kind kind_hint, lcp_problem *p, lcp_err *err);
/* The same from text in memory; name is for messages. */
int lcp_read_dat_text(const char *name, const char *text, size_t len, lcp_kind kind_hint, lcp_problem *p,
                      lcp_err *err);

/* FCLIB HDF5, local or global form, through libfclib (src/io/fclib.c). */
int lcp_read_fclib(const char *path, lcp_problem *p, lcp_err *err);
/* The same, naming the problem `name` in messages and as its source (a
 * temporary copy of standard input is read as "<stdin>"). */
int lcp_read_fclib_as(const char *path, const char *name, lcp_problem *p, lcp_err *err);

/* The whole of a text file ("-": standard input), NUL-terminated, at most
 * max_bytes (src/io/text.c); a NUL byte inside is refused with its line
 * (lcp_check_text).  The caller frees *text. */
int lcp_read_text(const char *path, size_t max_bytes, char **text, size_t *len, lcp_err *err);
/* The same without the NUL check (any bytes: HDF5 on standard input). */
int lcp_read_bytes(const char *path, size_t max_bytes, char **text, size_t *len, lcp_err *err);
/* LCP_INPUT_ERROR "name:LINE: NUL byte ..." when text[0..len) holds a NUL. */
int lcp_check_text(const char *name, const char *text, size_t len, lcp_err *err);

/* Atomic output: opens "<path>.tmp.<pid>" for writing; commit renames it
 * over path, abort removes it.  path "-" means stdout (no temp file); a
 * path that exists and is no regular file (/dev/null, a FIFO, a terminal)
 * is written in place (tmp NULL): renaming over it would replace the
 * device with a file.  A directory is refused. */
typedef struct {
    char *path, *tmp;
    void *fp; /* FILE * */
} lcp_outfile;
int lcp_outfile_open(lcp_outfile *o, const char *path, lcp_err *err);
int lcp_outfile_commit(lcp_outfile *o, lcp_err *err);
void lcp_outfile_abort(lcp_outfile *o);
/* Whether path can be written, before any work: a regular file's
 * temporary is made and removed; a device or FIFO is checked for write
 * permission only (opening a FIFO would take its reader's one stream). */
int lcp_outfile_probe(const char *path, lcp_err *err);



/* Reads the Matrix Market file at path into the problem field named
 * `field` (A b mu lo hi findex M J v e), recording vector lengths;
 * LCP_INPUT_ERROR for an unknown field or a field given twice.
 * (src/io/fields.c, shared by the folder and JSON readers) */
int lcp_read_field_mtx(lcp_problem *p, const char *field, const char *path, lcp_err *err);
/* The vector field's storage and length slots (NULL for matrices/unknown). */
int lcp_field_is_matrix(const char *field);
int lcp_set_vector_field(lcp_problem *p, const char *field, double *v, int n, const char *src,
                         lcp_err *err);
int lcp_set_matrix_field(lcp_problem *p, const char *field, lcp_csr *A, const char *src, lcp_err *err);
#endif
