/* src/cli/generate_sequence.c: `lcpsolve generate sequence --scene
 * column|pyramid|granular --steps K [OPTIONS] -o DIR`: the command line,
 * --help, and the folders DIR/step-0000 ... of a short rigid-sphere
 * simulation (A b M J v e [mu] .mtx, problem.json, and ids.mtx: one
 * persistent id a contact, the pair of bodies), written between building
 * each step's problem and solving it (src/scenes/simulation.c, where the
 * simulation is explained).  `lcpsolve sequence DIR` (src/cli/sequence.c)
 * solves the steps in order. */
#include "generate.h"

#include "../core/common.h"
#include "../io/io.h"
#include "../scenes/simulation.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROG "lcpsolve generate sequence"

/* ----------------------------------------------------------- output */

/* The step's folder dir: its .mtx files, ids.mtx, problem.json last. */
static int write_step(const lcp_seq_params *g, const lcp_problem *p, const double *ids, int nc, int nb, long step,
                      const char *dir, lcp_err *err)
{
    char path[4200], note[256];
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return lcp_fail(err, LCP_INPUT_ERROR, dir, 0, "cannot create folder: %s", strerror(errno));
    static const char *const what[] = {"A = J M^-1 J'", "b = J v + e", "M = blockdiag(m I3, I I3)",
                                       "J, contact Jacobian", "v = u + dt M^-1 f_ext", "e, gap term"};
    const char *files[] = {"A.mtx", "b.mtx", "M.mtx", "J.mtx", "v.mtx", "e.mtx"};
    int rc = 0;
    for (int k = 0; k < 6 && !rc; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[k]);
        snprintf(note, sizeof note, "lcpsolve generate sequence %s, step %ld: %s", lcp_seq_scene_names[g->scene], step,
                 what[k]);
        if (k == 0) rc = lcp_write_mtx_matrix(path, &p->A, note, err);
        else if (k == 1) rc = lcp_write_mtx_vector(path, p->b, p->n, note, err);
        else if (k == 2) rc = lcp_write_mtx_matrix(path, &p->M, note, err);
        else if (k == 3) rc = lcp_write_mtx_matrix(path, &p->J, note, err);
        else if (k == 4) rc = lcp_write_mtx_vector(path, p->v, 6 * nb, note, err);
        else rc = lcp_write_mtx_vector(path, p->e, p->n, note, err);
    }
    if (!rc && g->friction) {
        snprintf(path, sizeof path, "%s/mu.mtx", dir);
        rc = lcp_write_mtx_vector(path, p->mu, nc, "lcpsolve generate sequence: mu, one a contact", err);
    } else if (!rc) {
        snprintf(path, sizeof path, "%s/mu.mtx", dir);
        remove(path);
    }
    if (!rc) {
        snprintf(path, sizeof path, "%s/ids.mtx", dir);
        rc = lcp_write_mtx_vector(path, ids, nc,
                                  "lcpsolve generate sequence: contact ids, (a + 8) (bodies + 8) + (b + 8) of the "
                                  "pair a < b (ground -1, walls -2..-5)",
                                  err);
    }
    if (rc) return rc;
    cJSON *o = cJSON_CreateObject(), *par = cJSON_CreateObject();
    if (!o || !par) {
        cJSON_Delete(o);
        cJSON_Delete(par);
        return lcp_fail(err, LCP_ERROR, dir, 0, "out of memory");
    }
    cJSON_AddStringToObject(o, "kind", lcp_kind_name(p->kind));
    for (int k = 0; k < 6; k++) {
        char key[2] = {files[k][0], 0};
        cJSON_AddStringToObject(o, key, files[k]);
    }
    if (g->friction) cJSON_AddStringToObject(o, "mu", "mu.mtx");
    cJSON_AddStringToObject(o, "ids", "ids.mtx");
    cJSON_AddStringToObject(o, "scene", "sequence");
    cJSON_AddStringToObject(par, "sequence_scene", lcp_seq_scene_names[g->scene]);
    cJSON_AddNumberToObject(par, "step", (double)step);
    cJSON_AddNumberToObject(par, "steps", (double)g->steps);
    cJSON_AddNumberToObject(par, "time", (double)step * g->dt);
    cJSON_AddNumberToObject(par, "dt", g->dt);
    cJSON_AddNumberToObject(par, "bodies", nb);
    cJSON_AddNumberToObject(par, "contacts", nc);
    cJSON_AddNumberToObject(par, "radius", g->radius);
    cJSON_AddNumberToObject(par, "mass", g->mass);
    cJSON_AddNumberToObject(par, "mass_ratio", g->mass_ratio);
    cJSON_AddNumberToObject(par, "gravity", g->gravity);
    if (g->friction) cJSON_AddNumberToObject(par, "mu", g->mu);
    cJSON_AddNumberToObject(par, "seed", (double)(g->seed & ((1ULL << 53) - 1)));
    cJSON_AddNumberToObject(par, "n", p->n);
    cJSON_AddItemToObject(o, "params", par);
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    if (!text) return lcp_fail(err, LCP_ERROR, dir, 0, "out of memory");
    snprintf(path, sizeof path, "%s/problem.json", dir);
    lcp_outfile of;
    if ((rc = lcp_outfile_open(&of, path, err))) {
        free(text);
        return rc;
    }
    fputs(text, of.fp);
    fputc('\n', of.fp);
    free(text);
    return lcp_outfile_commit(&of, err);
}

/* ------------------------------------------------------ command line */

static void seq_help(FILE *f)
{
    fprintf(f,
            "Usage: lcpsolve generate sequence --scene column|pyramid|granular --steps K [OPTIONS] -o DIR\n"
            "\n"
            "A short simulation of rigid spheres (velocity-level time stepping): each step\n"
            "detects the contacts (gap below 0.25 radius; speculative for open gaps),\n"
            "writes DIR/step-NNNN (A b M J v e [mu] .mtx, problem.json, and ids.mtx: one\n"
            "id a contact, the pair of bodies, the same in every step the pair touches),\n"
            "solves the step through the solver table (auto, tolerance 1e-10) and moves\n"
            "the spheres with the impulses.  Solve the steps in order with\n"
            "`lcpsolve sequence DIR`.\n"
            "\n"
            "Scenes:\n"
            "  column    --bodies N spheres stacked, dropped from gaps, jittered sideways\n"
            "  pyramid   a 2D triangle of spheres, --base B in the bottom row\n"
            "  granular  B x B x L jittered spheres (--base, --layers) falling into a box\n"
            "\n"
            "Options:\n"
            "  --scene NAME     column, pyramid or granular (required)\n"
            "  --steps K        time steps (default 20, 1 to 100000)\n"
            "  --bodies N       column: spheres (default 10)\n"
            "  --base B         pyramid, granular: spheres along the base (default 5)\n"
            "  --layers L       granular: layers (default 3)\n"
            "  --radius R       sphere radius, m (default 0.1)\n"
            "  --mass M         mass of a sphere (the lightest), kg (default 1)\n"
            "  --mass-ratio R   column, pyramid: top / bottom mass (geometric by height);\n"
            "                   granular: masses log-uniform in [M, M R] (default 1)\n"
            "  --gap G          initial gap between neighbours, m (default 0.3 R: above the contact margin)\n"
            "  --jitter J       random sideways offsets, in radii (default 0.1)\n"
            "  --dt S           time step, s (default 0.01)\n"
            "  --gravity G      m/s^2 along -z (default 9.81)\n"
            "  --mu MU          Coulomb friction: 3 rows a contact (default none: lcp)\n"
            "  --kind KIND      fc3d (default) or ccp, with --mu\n"
            "  --seed S         random seed (default 1)\n"
            "  -o DIR           output folder (required)\n"
            "\nExit status: 0 written, 2 usage or input error, 5 out of memory or a failed step solve.\n");
}

enum { Q_SCENE = 300, Q_STEPS, Q_BODIES, Q_BASE, Q_LAYERS, Q_RADIUS, Q_MASS, Q_RATIO, Q_GAP, Q_JITTER, Q_DT,
       Q_GRAVITY, Q_MU, Q_KIND, Q_SEED };

static int useerr(const char *what, const char *val)
{
    fprintf(stderr, PROG ": %s '%s'\n", what, val);
    return 2;
}

static int num(const char *name, const char *val, double lo, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(val, &end);
    if (end == val || *end || errno || !isfinite(x) || x < lo) {
        fprintf(stderr, PROG ": --%s: '%s' is not a number >= %g\n", name, val, lo);
        return 2;
    }
    *out = x;
    return 0;
}

/* The options of argv into g (at its defaults): 0, -1 for --help (printed),
 * else the exit code with the reason printed. */
static int parse_args(int argc, char **argv, lcp_seq_params *g)
{
    static const struct option lo[] = {
        {"scene", 1, NULL, Q_SCENE},   {"steps", 1, NULL, Q_STEPS},     {"bodies", 1, NULL, Q_BODIES},
        {"base", 1, NULL, Q_BASE},     {"layers", 1, NULL, Q_LAYERS},   {"radius", 1, NULL, Q_RADIUS},
        {"mass", 1, NULL, Q_MASS},     {"mass-ratio", 1, NULL, Q_RATIO}, {"gap", 1, NULL, Q_GAP},
        {"jitter", 1, NULL, Q_JITTER}, {"dt", 1, NULL, Q_DT},           {"gravity", 1, NULL, Q_GRAVITY},
        {"mu", 1, NULL, Q_MU},         {"kind", 1, NULL, Q_KIND},       {"seed", 1, NULL, Q_SEED},
        {"output", 1, NULL, 'o'},      {"help", 0, NULL, 'h'},          {NULL, 0, NULL, 0}};
    double x;
    int c, kind_given = 0;
    /* argv[0] "generate", argv[1] "sequence": options follow */
    optind = 2;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", lo, NULL)) != -1) {
        int rc = 0;
        switch (c) {
        case 'h': seq_help(stdout); return -1;
        case 'o': g->out = optarg; break;
        case Q_SCENE:
            g->scene = -1;
            for (int k = 0; k < 3; k++)
                if (!strcmp(optarg, lcp_seq_scene_names[k])) g->scene = k;
            if (g->scene < 0) return useerr("--scene must be column, pyramid or granular, not", optarg);
            break;
        case Q_STEPS:
        case Q_BODIES:
        case Q_BASE:
        case Q_LAYERS:
            if ((rc = num(lo[c - Q_SCENE].name, optarg, 1, &x))) return rc;
            if (x != floor(x) || x > (c == Q_STEPS ? 100000 : c == Q_BODIES ? 20000 : 60))
                return useerr("out of range or not a whole number:", optarg);
            if (c == Q_STEPS) g->steps = (long)x;
            else if (c == Q_BODIES) g->bodies = (long)x;
            else if (c == Q_BASE) g->base = (long)x;
            else g->layers = (long)x;
            break;
        case Q_RADIUS: rc = num("radius", optarg, 1e-300, &g->radius); break;
        case Q_MASS: rc = num("mass", optarg, 1e-300, &g->mass); break;
        case Q_RATIO: rc = num("mass-ratio", optarg, 1e-300, &g->mass_ratio); break;
        case Q_GAP: rc = num("gap", optarg, 0, &g->gap); break;
        case Q_JITTER: rc = num("jitter", optarg, 0, &g->jitter); break;
        case Q_DT: rc = num("dt", optarg, 1e-300, &g->dt); break;
        case Q_GRAVITY: rc = num("gravity", optarg, -1e300, &g->gravity); break;
        case Q_MU: rc = num("mu", optarg, 0, &g->mu); break;
        case Q_KIND:
            if (strcmp(optarg, "fc3d") && strcmp(optarg, "ccp"))
                return useerr("--kind must be fc3d or ccp, not", optarg);
            g->kind = optarg;
            kind_given = 1;
            break;
        case Q_SEED: {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(optarg, &end, 10);
            if (end == optarg || *end || errno || strchr(optarg, '-'))
                return useerr("--seed: not a non-negative integer:", optarg);
            g->seed = v;
            break;
        }
        case ':': return useerr("option needs a value:", argv[optind - 1]);
        default: return useerr("unknown option", argv[optind - 1]);
        }
        if (rc) return rc;
    }
    if (optind < argc) return useerr("unexpected argument", argv[optind]);
    if (g->scene < 0) return useerr("--scene is required (column, pyramid or granular)", "");
    if (!g->out || !*g->out) return useerr("-o DIR is required", "");
    if (kind_given && g->mu < 0) return useerr("--kind needs --mu", "");
    if ((long)(g->scene == 0   ? g->bodies
               : g->scene == 1 ? g->base * (g->base + 1) / 2
                               : g->base * g->base * g->layers) > 20000)
        return useerr("too many spheres (at most 20000)", "");
    lcp_seq_params_derive(g);
    return 0;
}

/* An earlier, longer sequence's steps past K would be read as this one's:
 * DIR/step-K ... removed (their files, then the folder), dir (plen bytes)
 * the scratch path.  0, or 2 with the reason printed. */
static int remove_stale_steps(const lcp_seq_params *g, char *dir, size_t plen)
{
    DIR *od = dir ? opendir(g->out) : NULL;
    struct dirent *de;
    while (od && (de = readdir(od))) {
        char *end;
        if (strncmp(de->d_name, "step-", 5)) continue;
        long k = strtol(de->d_name + 5, &end, 10);
        if (*end || k < g->steps) continue;
        static const char *const stale[] = {"A.mtx", "b.mtx", "M.mtx", "J.mtx", "v.mtx", "e.mtx",
                                            "mu.mtx", "ids.mtx", "problem.json"};
        for (size_t q = 0; q < sizeof stale / sizeof stale[0]; q++) {
            snprintf(dir, plen, "%s/%s/%s", g->out, de->d_name, stale[q]);
            remove(dir);
        }
        snprintf(dir, plen, "%s/%s", g->out, de->d_name);
        if (rmdir(dir) != 0) {
            fprintf(stderr, PROG ": %s: cannot remove this step of an earlier sequence: %s\n", dir, strerror(errno));
            closedir(od);
            return 2;
        }
    }
    if (od) closedir(od);
    return 0;
}

/* What the summary line says of the steps. */
typedef struct {
    int total_contacts, minc, maxc;
    double worst; /* the largest residual of a step's solve */
} seq_stats;

/* The steps: each one's problem, its folder dir/step-NNNN (dir, plen bytes,
 * the path), its solve and the spheres S moved.  0, or the status of the
 * first step that failed (err says why; nothing said: out of memory). */
static int run_steps(const lcp_seq_params *g, lcp_seq_sphere *S, int nb, char *dir, size_t plen, seq_stats *st,
                     lcp_err *err)
{
    int rc = 0;
    for (long step = 0; step < g->steps && !rc && dir; step++) {
        lcp_problem p;
        lcp_problem_init(&p);
        double *ids = NULL, res = 0;
        int nc = 0;
        rc = lcp_seq_step_problem(g, S, nb, &p, &ids, &nc);
        if (!rc) {
            p.source = lcp_strdup(g->out);
            p.format = lcp_strdup("generated");
            snprintf(dir, plen, "%s/step-%04ld", g->out, step);
            rc = write_step(g, &p, ids, nc, nb, step, dir, err);
        }
        if (!rc && (rc = lcp_seq_step_advance(g, S, nb, &p, &res, err)) == 0) {
            st->worst = fmax(st->worst, res);
            st->total_contacts += nc;
            if (st->minc < 0 || nc < st->minc) st->minc = nc;
            if (nc > st->maxc) st->maxc = nc;
        }
        free(ids);
        lcp_problem_free(&p);
    }
    return rc;
}

int lcp_sequence_generate_main(int argc, char **argv)
{
    lcp_seq_params g = {.scene = -1, .bodies = 10, .base = 5, .layers = 3, .steps = 20, .radius = 0.1, .mass = 1,
                        .mass_ratio = 1, .dt = 0.01, .gravity = 9.81, .mu = -1, .gap = -1, .jitter = 0.1,
                        .kind = "fc3d", .seed = 1};
    int rc = parse_args(argc, argv, &g);
    if (rc) return rc < 0 ? 0 : rc;

    lcp_err err = {{0}};
    lcp_seq_sphere *S = NULL;
    int nb = 0;
    seq_stats st = {0, -1, 0, 0.0};
    if (lcp_seq_build_scene(&g, &S, &nb)) {
        fprintf(stderr, PROG ": out of memory\n");
        return 5;
    }
    if (mkdir(g.out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, PROG ": %s: cannot create folder: %s\n", g.out, strerror(errno));
        free(S);
        return 2;
    }
    size_t plen = strlen(g.out) + 64;
    char *dir = malloc(plen);
    if (remove_stale_steps(&g, dir, plen)) {
        free(dir);
        free(S);
        return 2;
    }
    rc = run_steps(&g, S, nb, dir, plen, &st, &err);
    free(S);
    if (!dir) rc = LCP_ERROR;
    free(dir);
    if (rc) {
        fprintf(stderr, PROG ": %s\n", err.msg[0] ? err.msg : "out of memory");
        return lcp_status_exit_code((lcp_status)rc);
    }
    fprintf(stderr,
            PROG ": %s, %d bodies, %ld steps of %g s, %d to %d contacts a step (mean %.1f), %s; worst internal "
                 "residual %.1e -> %s\n",
            lcp_seq_scene_names[g.scene], nb, g.steps, g.dt, st.minc, st.maxc,
            (double)st.total_contacts / (double)g.steps, g.friction ? g.kind : "lcp", st.worst, g.out);
    return 0;
}
