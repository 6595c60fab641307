/* src/cli/generate.c: `lcpsolve generate SCENE [OPTIONS] -o DIR`.
 *
 * Writes a problem folder that `lcpsolve DIR` (or `lcpsolve DIR/problem.json`)
 * reads back: A.mtx, b.mtx, the factored form M.mtx, J.mtx, v.mtx of the
 * rigid-body scenes, mu.mtx, and problem.json last; with --envs K, K such
 * folders with b (and v) perturbed, for `lcpsolve batch`.  Here: the
 * command line (getopt_long over the option table), --help, the writers and
 * the summary line.  The scenes themselves, their option table and checks
 * are the library's: src/scenes/ (scenes.h).
 */
#include "generate.h"

#include "../core/common.h"
#include "../io/io.h"
#include "../scenes/scenes.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROG "lcpsolve generate"

/* ----------------------------------------------------------- output */

/* mkdir -p */
static int make_dirs(const char *dir, lcp_err *err)
{
    char *d = lcp_strdup(dir);
    if (!d) return LCP_ERROR;
    size_t len = strlen(d);
    for (size_t k = 1; k <= len; k++) {
        if (d[k] != '/' && d[k] != '\0') continue;
        char save = d[k];
        d[k] = '\0';
        if (mkdir(d, 0777) != 0 && errno != EEXIST) {
            int e = errno;
            lcp_fail(err, LCP_INPUT_ERROR, d, 0, "cannot create folder: %s", strerror(e));
            free(d);
            return LCP_INPUT_ERROR;
        }
        d[k] = save;
    }
    free(d);
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return lcp_fail(err, LCP_INPUT_ERROR, dir, 0, "not a folder");
    return 0;
}

static int join(char *buf, size_t size, const char *dir, const char *name, lcp_err *err)
{
    int k = snprintf(buf, size, "%s/%s", dir, name);
    if (k < 0 || (size_t)k >= size)
        return lcp_fail(err, LCP_INPUT_ERROR, dir, 0, "path too long");
    return 0;
}

static void add_num(cJSON *o, const char *key, double v) { cJSON_AddNumberToObject(o, key, v); }

static int write_json(const gen_params *g, const gen_result *r, const char *path, lcp_err *err)
{
    cJSON *root = cJSON_CreateObject(), *par = cJSON_CreateObject();
    char *text = NULL;
    int rc = lcp_fail(err, LCP_ERROR, path, 0, "out of memory");
    if (!root || !par) goto done;
    cJSON_AddStringToObject(root, "kind", r->kind);
    cJSON_AddStringToObject(root, "A", "A.mtx");
    cJSON_AddStringToObject(root, "b", "b.mtx");
    if (r->mu) cJSON_AddStringToObject(root, "mu", "mu.mtx");
    if (r->M.p) {
        cJSON_AddStringToObject(root, "M", "M.mtx");
        cJSON_AddStringToObject(root, "J", "J.mtx");
        cJSON_AddStringToObject(root, "v", "v.mtx");
    }
    cJSON_AddStringToObject(root, "scene", g->scene->name);
    unsigned id = g->scene->id;
    /* the effective parameters (defaults included), then what came out */
    if (id == SC_COLUMN) {
        add_num(par, "bodies", (double)g->bodies);
        add_num(par, "radius", g->radius);
        add_num(par, "mass", g->mass);
        add_num(par, "mass_ratio", g->mass_ratio);
    } else if (id == SC_GRANULAR) {
        add_num(par, "base", (double)g->base);
        add_num(par, "layers", (double)g->layers);
        add_num(par, "holes", g->holes);
        add_num(par, "radius", g->radius);
        add_num(par, "mass", g->mass);
        add_num(par, "seed", (double)(g->seed & ((1ULL << 53) - 1)));
    } else if (id == SC_PYRAMID) {
        add_num(par, "base", (double)g->base);
        add_num(par, "width", g->width);
        add_num(par, "depth", g->depth);
        add_num(par, "height", g->height);
        add_num(par, "mass", g->mass);
    } else if (id == SC_TOWER) {
        add_num(par, "layers", (double)g->layers);
        add_num(par, "planks", (double)g->planks);
        add_num(par, "width", g->width);
        add_num(par, "depth", g->depth);
        add_num(par, "height", g->height);
        add_num(par, "mass", g->mass);
    } else if (id == SC_MASS_RATIO) {
        add_num(par, "bodies", (double)g->bodies);
        add_num(par, "radius", g->radius);
        add_num(par, "mass", g->mass);
        add_num(par, "ratio", g->ratio);
    } else if (id == SC_REDUNDANT) {
        add_num(par, "bodies", (double)g->bodies);
        add_num(par, "points", (double)g->points);
        add_num(par, "width", g->width);
        add_num(par, "depth", g->depth);
        add_num(par, "height", g->height);
        add_num(par, "mass", g->mass);
    } else if (id == SC_CHAIN) {
        add_num(par, "links", (double)g->links);
        add_num(par, "radius", g->radius);
        add_num(par, "length", g->length);
        add_num(par, "gap", g->gap);
        add_num(par, "angle", g->angle);
        cJSON_AddBoolToObject(par, "ground", g->ground);
        add_num(par, "mass", g->mass);
    } else {
        add_num(par, "size", (double)g->size);
    }
    if (id & SC_RIGID) {
        add_num(par, "piles", (double)g->piles);
        add_num(par, "dt", g->dt);
        add_num(par, "gravity", g->gravity);
        if (r->mu) add_num(par, "mu", g->mu);
        add_num(par, "contacts", r->ncontacts);
    }
    if (id == SC_RANDOM_SPD) {
        add_num(par, "density", g->density);
        add_num(par, "cond", g->cond);
        add_num(par, "cond_estimate", r->cond);
        if (g->seed < (1ULL << 53)) { /* exact as a JSON number */
            add_num(par, "seed", (double)g->seed);
        } else {
            char seed[32];
            snprintf(seed, sizeof seed, "%llu", (unsigned long long)g->seed);
            cJSON_AddStringToObject(par, "seed", seed);
        }
    }
    if (g->envs) {
        add_num(par, "env", (double)g->env);
        add_num(par, "envs", (double)g->envs);
        add_num(par, "perturb", g->perturb);
    }
    add_num(par, "n", r->n);
    add_num(par, "nnz_A", (double)lcp_csr_nnz(&r->A));
    cJSON_AddItemToObject(root, "params", par);
    par = NULL;
    text = cJSON_Print(root);
    if (!text) goto done;

    lcp_outfile o;
    if ((rc = lcp_outfile_open(&o, path, err))) goto done;
    fputs(text, o.fp);
    fputc('\n', o.fp);
    rc = lcp_outfile_commit(&o, err);
done:
    cJSON_Delete(par);
    cJSON_Delete(root);
    free(text);
    return rc;
}

/* Writes the folder: the files of the result, then problem.json (last, so a
 * complete manifest means complete data).  Files of the problem-folder
 * schema that this result does not have (an earlier run's mu.mtx, M.mtx, ...)
 * are removed, so the folder always reads back as what was generated. */
static int write_folder(const gen_params *g, const gen_result *r, lcp_err *err)
{
    char path[4096], comment[256];
    int rc;
    const char *dir = g->out;
    if ((rc = make_dirs(dir, err))) return rc;
    const char *what = r->M.p ? "A = J M^-1 J'" : "A";
    snprintf(comment, sizeof comment, "lcpsolve generate %s: %s (see problem.json)",
             g->scene->name, what);
    if ((rc = join(path, sizeof path, dir, "A.mtx", err)) ||
        (rc = lcp_write_mtx_matrix(path, &r->A, comment, err)))
        return rc;
    snprintf(comment, sizeof comment, "lcpsolve generate %s: b%s", g->scene->name,
             r->M.p ? " = J v" : "");
    if ((rc = join(path, sizeof path, dir, "b.mtx", err)) ||
        (rc = lcp_write_mtx_vector(path, r->b, r->n, comment, err)))
        return rc;
    if (r->M.p) {
        snprintf(comment, sizeof comment,
                 "lcpsolve generate %s: M = blockdiag(m I3, inertia), 6 columns a body "
                 "(v, omega)", g->scene->name);
        if ((rc = join(path, sizeof path, dir, "M.mtx", err)) ||
            (rc = lcp_write_mtx_matrix(path, &r->M, comment, err)))
            return rc;
        snprintf(comment, sizeof comment,
                 "lcpsolve generate %s: J, contact Jacobian, %s", g->scene->name,
                 r->mu ? "rows normal, t1, t2 a contact" : "one normal row a contact");
        if ((rc = join(path, sizeof path, dir, "J.mtx", err)) ||
            (rc = lcp_write_mtx_matrix(path, &r->J, comment, err)))
            return rc;
        snprintf(comment, sizeof comment,
                 "lcpsolve generate %s: v = dt M^-1 f_ext, free velocity", g->scene->name);
        if ((rc = join(path, sizeof path, dir, "v.mtx", err)) ||
            (rc = lcp_write_mtx_vector(path, r->v, r->M.m, comment, err)))
            return rc;
    }
    if (r->mu) {
        snprintf(comment, sizeof comment, "lcpsolve generate %s: mu, one a contact",
                 g->scene->name);
        if ((rc = join(path, sizeof path, dir, "mu.mtx", err)) ||
            (rc = lcp_write_mtx_vector(path, r->mu, r->ncontacts, comment, err)))
            return rc;
    }
    static const char *const stale[] = {"M.mtx", "J.mtx", "v.mtx", "e.mtx",
                                        "mu.mtx", "lo.mtx", "hi.mtx", "findex.mtx"};
    for (size_t k = 0; k < sizeof stale / sizeof stale[0]; k++) {
        int mine = (k < 3 && r->M.p) || (k == 4 && r->mu);
        if (mine) continue;
        if ((rc = join(path, sizeof path, dir, stale[k], err))) return rc;
        if (remove(path) != 0 && errno != ENOENT)
            return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "cannot remove the stale file: %s",
                            strerror(errno));
    }
    if ((rc = join(path, sizeof path, dir, "problem.json", err))) return rc;
    return write_json(g, r, path, err);
}

/* --envs K: K folders DIR/env00000 ... (the names sort in order), each the
 * scene with its data perturbed: v_i (factored form, then b = J v, so both
 * forms stay one problem) or b_i times 1 + P u, u uniform in [-1, 1] from
 * splitmix64 seeded by (--seed, the environment's number): the same command
 * writes the same bytes, and environment k does not depend on K. */
static int write_envs(gen_params *g, gen_result *r, lcp_err *err)
{
    const char *dir = g->out;
    int rc = make_dirs(dir, err), nv = r->M.p ? r->M.m : 0;
    if (rc) return rc;
    double *b0 = lcp_alloc((size_t)r->n, sizeof(double)), *v0 = lcp_alloc((size_t)(nv > 0 ? nv : 1), sizeof(double));
    char *path = malloc(strlen(dir) + 32);
    if (!b0 || !v0 || !path) {
        free(b0);
        free(v0);
        free(path);
        return lcp_fail(err, LCP_ERROR, dir, 0, "out of memory");
    }
    memcpy(b0, r->b, (size_t)r->n * sizeof(double));
    if (nv) memcpy(v0, r->v, (size_t)nv * sizeof(double));
    for (long k = 0; k < g->envs && !rc; k++) {
        uint64_t st = g->seed ^ (0xd1b54a32d192ed03ULL * (uint64_t)(k + 1));
        rng_next(&st);
        if (nv) {
            for (int i = 0; i < nv; i++) r->v[i] = v0[i] * (1.0 + g->perturb * (2.0 * rng_uniform(&st) - 1.0));
            lcp_csr_matvec(&r->J, r->v, r->b);
        } else {
            for (int i = 0; i < r->n; i++) r->b[i] = b0[i] * (1.0 + g->perturb * (2.0 * rng_uniform(&st) - 1.0));
        }
        sprintf(path, "%s/env%05ld", dir, k);
        g->out = path;
        g->env = k;
        rc = write_folder(g, r, err);
        g->out = dir;
    }
    memcpy(r->b, b0, (size_t)r->n * sizeof(double));
    if (nv) memcpy(r->v, v0, (size_t)nv * sizeof(double));
    free(b0);
    free(v0);
    free(path);
    return rc;
}

/* ------------------------------------------------------ command line */

static void print_option(FILE *fp, const gen_option *o, long size_default, unsigned scene)
{
    char lhs[64], def[32] = "";
    const char *dv = lcp_gen_scene_default(scene, o);
    if (o->key < 256)
        snprintf(lhs, sizeof lhs, "-%c, --%s%s%s", o->key, o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
    else
        snprintf(lhs, sizeof lhs, "    --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    if (o->key == K_SIZE) snprintf(def, sizeof def, " (default %ld)", size_default);
    else if (dv) snprintf(def, sizeof def, " (default %s)", dv);
    fprintf(fp, "  %-22s%s%s\n", lhs, o->help, def);
}

static void print_help(FILE *fp)
{
    fprintf(fp,
            "Usage: lcpsolve generate SCENE [OPTIONS] -o DIR\n"
            "\n"
            "Writes a generated problem into DIR: A.mtx, b.mtx and problem.json (a manifest\n"
            "naming them); the rigid-body scenes also write the factored form M.mtx, J.mtx,\n"
            "v.mtx (A = J M^-1 J', b = J v: one gravity step of a stack at rest), and\n"
            "mu.mtx with --mu.  Files of those names already in DIR are replaced, and\n"
            "problem-folder files the new problem lacks (M, J, v, e, mu, lo, hi, findex\n"
            ".mtx) are removed.  The same command always writes the same bytes.\n"
            "\n"
            "Scenes and their options (SI units):\n");
    for (int s = 0; s < NSCENES; s++) {
        fprintf(fp, "%s%s: %s\n", s ? "\n" : "", lcp_gen_scenes[s].name, lcp_gen_scenes[s].summary);
        for (int k = 0; k < NOPTIONS; k++)
            if (lcp_gen_options[k].scenes != SC_ALL && (lcp_gen_options[k].scenes & lcp_gen_scenes[s].id))
                print_option(fp, &lcp_gen_options[k], lcp_gen_scenes[s].default_size, lcp_gen_scenes[s].id);
    }
    fprintf(fp, "\nCommon options:\n");
    for (int k = 0; k < NOPTIONS; k++)
        if (lcp_gen_options[k].scenes == SC_ALL) print_option(fp, &lcp_gen_options[k], 0, 0);
    fprintf(fp,
            "\nExamples:\n"
            "  lcpsolve generate column --bodies 20 --mass-ratio 100 -o column20\n"
            "  lcpsolve generate pyramid --base 5 --mu 0.5 -o pyramid5-fc3d\n"
            "  lcpsolve generate random-spd --size 200 --cond 1e4 --seed 7 -o rspd200\n"
            "  lcpsolve generate tower --layers 20 --planks 3 --mu 0.5 -o kapla\n"
            "  lcpsolve generate mass-ratio --ratio 1e6 -o heavy\n"
            "  lcpsolve generate redundant --bodies 4 --points 4 -o grid\n"
            "  lcpsolve generate chain --links 100 --angle 30 -o chain100\n"
            "\nExit status: 0 written, 2 usage or input error, 5 out of memory.\n");
}

/* Parses argv into g: 0 ok, -1 help printed, else the exit code. */
static int parse_args(int argc, char **av, gen_params *g)
{
    struct option lo[NOPTIONS + 1];
    for (int k = 0; k < NOPTIONS; k++) {
        lo[k].name = lcp_gen_options[k].name;
        lo[k].has_arg = lcp_gen_options[k].arg ? required_argument : no_argument;
        lo[k].flag = NULL;
        lo[k].val = lcp_gen_options[k].key;
    }
    memset(&lo[NOPTIONS], 0, sizeof lo[NOPTIONS]);
    int rc0 = lcp_gen_params_init(g);
    if (rc0) return rc0;

    /* optind = 0 makes glibc's getopt start afresh (main may have used it);
     * av[0] ("generate") is skipped like a program name. */
    optind = 0;
    opterr = 0;
    int c, idx = -1;
    while ((c = getopt_long(argc, av, ":o:h", lo, NULL)) != -1) {
        if (c == '?') {
            if (optopt && optopt < 256) {
                char s[3] = {'-', (char)optopt, 0};
                return lcp_gen_usage_error("unknown option '%s'", s);
            }
            return lcp_gen_usage_error("unknown option '%s'", av[optind - 1]);
        }
        if (c == ':') return lcp_gen_usage_error("option '%s' needs a value", av[optind - 1]);
        const gen_option *o = lcp_gen_find_option(c, &idx);
        if (!o) return lcp_gen_usage_error("unknown option '%s'", av[optind - 1]);
        if (c == K_HELP) {
            print_help(stdout);
            return -1;
        }
        int rc = lcp_gen_set_option(g, o, optarg);
        if (rc) return rc;
        g->given[idx] = 1;
    }
    if (optind >= argc)
        return lcp_gen_usage_error("no scene given (column, pyramid, granular, tower, mass-ratio, "
                                   "redundant, chain, random-spd or murty)");
    if (optind + 1 < argc) return lcp_gen_usage_error("unexpected argument '%s'", av[optind + 1]);
    if (!g->out) return lcp_gen_usage_error("-o DIR is required");
    return lcp_gen_params_finish(g, av[optind]);
}

/* The options of argv (as the command's, argv[0] "generate") checked as the
 * command checks them; 0, -1 for --help (printed), else the exit code with
 * the reason in lcp_gen_usage_msg. */
static int parse_copy(int argc, char **argv, gen_params *g)
{
    if (argc < 1 || !argv) return lcp_gen_usage_error("no arguments");
    /* a private copy: getopt_long permutes the pointers, not the caller's */
    char **av = lcp_alloc((size_t)argc + 1, sizeof *av);
    if (!av) return lcp_status_exit_code(LCP_ERROR);
    memcpy(av, argv, (size_t)argc * sizeof *av);
    av[argc] = NULL;
    int rc = parse_args(argc, av, g);
    free(av); /* g keeps pointers into argv's strings, not into av */
    return rc;
}

int lcp_generate_main(int argc, char **argv)
{
    gen_params g;
    gen_result r;
    lcp_err err = {{0}};
    memset(&r, 0, sizeof r);
    lcp_gen_usage_msg[0] = '\0';
    int rc = parse_copy(argc, argv, &g);
    if (rc > 0 && *lcp_gen_usage_msg) fprintf(stderr, PROG ": %s\n", lcp_gen_usage_msg);
    if (rc) return rc < 0 ? 0 : rc;
    int status = lcp_gen_build(&g, &r);
    if (status) {
        fprintf(stderr, PROG ": %s: out of memory\n", g.scene->name);
        lcp_gen_result_free(&r);
        return lcp_status_exit_code(LCP_ERROR);
    }
    status = g.envs ? write_envs(&g, &r, &err) : write_folder(&g, &r, &err);
    if (status) {
        fprintf(stderr, PROG ": %s\n", err.msg);
        lcp_gen_result_free(&r);
        return lcp_status_exit_code((lcp_status)status);
    }
    fprintf(stderr, PROG ": %s", g.scene->name);
    if (g.scene->id & SC_RIGID)
        fprintf(stderr, ", %d bodies, %d %s", r.nbodies, r.ncontacts,
                g.scene->id == SC_CHAIN ? "ropes and contacts" : "contacts");
    fprintf(stderr, ": %s n=%d nnz(A)=%ld", r.kind, r.n, lcp_csr_nnz(&r.A));
    if (g.scene->id == SC_RANDOM_SPD) fprintf(stderr, " cond~%.3g", r.cond);
    if (g.envs) fprintf(stderr, " x %ld environments (perturb %g)", g.envs, g.perturb);
    fprintf(stderr, " -> %s\n", g.out);
    lcp_gen_result_free(&r);
    return 0;
}
