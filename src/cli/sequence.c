/* src/cli/sequence.c: `lcpsolve sequence DIR`: the steps of a simulation
 * (lcpsolve generate sequence, src/cli/generate_sequence.c) solved in
 * order, each warm-started from the previous step's answer matched by
 * contact id, each through the one solve pipeline (src/core/pipeline.c)
 * with one cache of the pattern-only set-up for all steps; a line or a JSON
 * object a step and a total; the parser of its --schedule.  See
 * src/cli/sequence.h. */
#include "sequence.h"

#include "../core/pipeline.h"
#include "../io/io.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ schedule */

int lcp_schedule_parse(const char *spec, lcp_schedule *sch, lcp_err *err)
{
    memset(sch, 0, sizeof *sch);
    const char *s = spec;
    int kinds = 0; /* 1: caps seen, 2: tolerances seen */
    if (!*s) return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--schedule: empty (expected P:V,P:V,... e.g. 0:5,0.5:20)");
    while (*s) {
        char *end;
        if (sch->n == LCP_SCHEDULE_MAX)
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--schedule: more than %d entries", LCP_SCHEDULE_MAX);
        errno = 0;
        double at = strtod(s, &end);
        if (end == s || *end != ':' || errno || !(at >= 0 && at < 1))
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                            "--schedule: '%s': each entry is P:V with a progress fraction 0 <= P < 1", spec);
        const char *v = end + 1;
        errno = 0;
        double val = strtod(v, &end);
        if (end == v || (*end && *end != ',') || errno || !isfinite(val))
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--schedule: '%s': the value after '%.*s:' is not a number",
                            spec, (int)(v - 1 - s), s);
        int is_int = 1;
        for (const char *q = v; q < end; q++)
            if (*q < '0' || *q > '9') is_int = 0;
        if (is_int) {
            if (!(val >= 1 && val <= 2147483647.0))
                return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--schedule: '%s': an iteration cap must be >= 1", spec);
            kinds |= 1;
        } else {
            if (!(val > 0 && val < 1))
                return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                                "--schedule: '%s': a tolerance must be in (0, 1) (caps are whole numbers)", spec);
            kinds |= 2;
        }
        if (kinds == 3)
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0,
                            "--schedule: '%s' mixes iteration caps and tolerances (use one kind)", spec);
        if (sch->n == 0 && at != 0)
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--schedule: '%s': the first entry must be at progress 0",
                            spec);
        if (sch->n > 0 && !(at > sch->at[sch->n - 1]))
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--schedule: '%s': progress fractions must increase", spec);
        sch->at[sch->n] = at;
        sch->value[sch->n] = val;
        sch->n++;
        s = *end ? end + 1 : end;
        if (*end == ',' && !*s)
            return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "--schedule: '%s' ends with a comma", spec);
    }
    sch->is_tol = kinds == 2;
    return 0;
}

void lcp_schedule_apply(const lcp_schedule *sch, double f, lcp_settings *s)
{
    if (!sch || sch->n == 0) return;
    int k = 0;
    for (int q = 0; q < sch->n; q++)
        if (sch->at[q] <= f + 1e-12) k = q;
    if (sch->is_tol) s->tol = sch->value[k];
    else s->max_iter = (int)sch->value[k];
}

/* ------------------------------------------------------------ the steps */

typedef struct {
    double id;
    int k;
} idkey;
static int cmp_idkey(const void *a, const void *b)
{
    double d = ((const idkey *)a)->id - ((const idkey *)b)->id;
    return d < 0 ? -1 : d > 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The step-* entries of dir, sorted by name: *names_out (*nn_out of them).
 * 0, or the status of a failure with err set (no such folder, no steps,
 * out of memory). */
static int list_steps(const char *dir, char ***names_out, int *nn_out, lcp_err *err)
{
    DIR *d = opendir(dir);
    if (!d) return lcp_fail(err, LCP_INPUT_ERROR, dir, 0, "cannot open the sequence folder: %s", strerror(errno));
    char **names = NULL;
    int nn = 0, cap = 0, rc = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (strncmp(de->d_name, "step-", 5)) continue;
        if (nn == cap) {
            cap = cap ? 2 * cap : 64;
            char **t = realloc(names, (size_t)cap * sizeof *t);
            if (!t) {
                rc = LCP_ERROR;
                break;
            }
            names = t;
        }
        if (!(names[nn] = lcp_strdup(de->d_name))) {
            rc = LCP_ERROR;
            break;
        }
        nn++;
    }
    closedir(d);
    if (rc) {
        for (int k = 0; k < nn; k++) free(names[k]);
        free(names);
        return lcp_fail(err, LCP_ERROR, dir, 0, "out of memory");
    }
    if (nn == 0) {
        free(names);
        return lcp_fail(err, LCP_INPUT_ERROR, dir, 0, "no step-* folders (make one with lcpsolve generate sequence)");
    }
    qsort(names, (size_t)nn, sizeof *names, cmp_str);
    *names_out = names;
    *nn_out = nn;
    return 0;
}

/* The answer of the last step solved, keyed by contact id, for the next
 * step's warm start. */
typedef struct {
    double *x;   /* its answer (rpc rows a contact) */
    idkey *ids;  /* its contacts' ids, sorted (k: the contact); NULL before the first step */
    int n, rpc;  /* contacts, rows a contact */
} step_answer;

/* The totals over the steps. */
typedef struct {
    int solved, worst_exit;
    double sum_res, max_res, sum_ms, sum_it;
    char first_unsolved[320]; /* the first step not solved, and how it ended */
} seq_totals;

/* The warm start: cur = this step's ids (ncon contacts, then sorted by id),
 * x = the previous answer at each id found there (none when the rows a
 * contact changed, or --warm-factor 0).  Returns the number matched. */
static int match_ids(const lcp_sequence_opts *o, const step_answer *prev, const double *ids, int ncon, int rpc,
                     idkey *cur, double *x)
{
    int matched = 0;
    for (int i = 0; i < ncon; i++) {
        cur[i] = (idkey){ids[i], i};
        if (!prev->ids || rpc != prev->rpc || o->o->warm_factor == 0) continue;
        idkey key = {ids[i], 0}, *hit = bsearch(&key, prev->ids, (size_t)prev->n, sizeof *prev->ids, cmp_idkey);
        if (!hit) continue;
        matched++;
        for (int q = 0; q < rpc; q++) x[rpc * i + q] = prev->x[rpc * hit->k + q];
    }
    qsort(cur, (size_t)ncon, sizeof *cur, cmp_idkey);
    return matched;
}

/* Step k's line, or its JSON object. */
static void print_step(const lcp_sequence_opts *o, int k, const lcp_problem *p, const char *name, int ncon, int matched,
                       const lcp_solve_out *out, const lcp_settings *s, double r)
{
    lcp_status st = out->status;
    const lcp_solver *sv = out->solver;
    const char *pname = out->precond;
    double solve_s = out->time_s + out->auto_time_s;
    lcp_info info = {.iterations = out->iterations};
    if (o->json) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "step", k);
        cJSON_AddStringToObject(j, "problem", p->source ? p->source : name);
        cJSON_AddStringToObject(j, "kind", lcp_kind_name(p->kind));
        cJSON_AddNumberToObject(j, "n", p->n);
        cJSON_AddNumberToObject(j, "contacts", ncon);
        cJSON_AddNumberToObject(j, "matched", matched);
        cJSON_AddNumberToObject(j, "new", ncon - matched);
        cJSON_AddStringToObject(j, "solver", sv->name);
        cJSON_AddStringToObject(j, "precond", pname);
        cJSON_AddStringToObject(j, "status", lcp_status_name(st));
        cJSON_AddNumberToObject(j, "iterations", info.iterations);
        cJSON_AddNumberToObject(j, "time_s", solve_s);
        cJSON_AddNumberToObject(j, "residual", r);
        cJSON_AddNumberToObject(j, "tol", s->tol);
        cJSON_AddNumberToObject(j, "max_iter", s->max_iter);
        char *t = cJSON_PrintUnformatted(j);
        if (t) printf("%s\n", t);
        free(t);
        cJSON_Delete(j);
    } else if (!o->quiet) {
        printf("step %-5d n %-6d contacts %-5d matched %-5d %-10s %-10s %6d it  residual %.2e  %.3f ms\n", k, p->n,
               ncon, matched, sv->name, lcp_status_name(st), info.iterations, r, 1e3 * solve_s);
    }
}

/* Step k of nn (folder name; path: plen bytes of room): read with its
 * ids, warm-started from *prev by contact id, solved through the pipeline
 * (the schedule's settings for this step; cache: the pattern-only set-up),
 * printed and counted in *tot; its answer becomes *prev.  0, or the status
 * of a failure with err set. */
static int solve_step(const lcp_sequence_opts *o, int k, int nn, const char *name, char *path, size_t plen,
                      lcp_pipeline_cache *cache, step_answer *prev, seq_totals *tot, lcp_err *err)
{
    int rc;
    lcp_problem p;
    lcp_problem_init(&p);
    double *ids = NULL, *x = NULL;
    int nid = 0, matched_any = 0;
    idkey *cur = NULL;
    lcp_solve_out out;
    memset(&out, 0, sizeof out);
    snprintf(path, plen, "%s/%s", o->dir, name);
    if ((rc = lcp_read_problem(path, o->kind, &p, err))) goto step_done;
    snprintf(path, plen, "%s/%s/ids.mtx", o->dir, name);
    if ((rc = lcp_read_mtx_vector(path, &ids, &nid, err))) goto step_done;
    int rpc = p.kind & LCP_KIND_FRICTION ? 3 : 1, ncon = p.n / rpc;
    if (nid != ncon) {
        rc = lcp_fail(err, LCP_INPUT_ERROR, path, 0, "has %d ids, the problem has %d contacts", nid, ncon);
        goto step_done;
    }
    x = lcp_calloc((size_t)(p.n > 0 ? p.n : 1), sizeof *x);
    cur = lcp_alloc((size_t)(ncon > 0 ? ncon : 1), sizeof *cur);
    if (!x || !cur) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
        goto step_done;
    }
    /* warm start: the previous solution matched by id */
    int matched = match_ids(o, prev, ids, ncon, rpc, cur, x);
    matched_any = matched > 0; /* scaled by --warm-factor and --dt-ratio in the pipeline */
    for (int i = 1; i < ncon; i++)
        if (cur[i].id == cur[i - 1].id) {
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, 0, "id %.17g appears twice", cur[i].id);
            goto step_done;
        }
    /* the step's solve: the pipeline with the settings of every step,
     * the schedule's cap or tolerance for this one */
    lcp_solve_opts so = *o->o;
    lcp_schedule_apply(o->schedule, (double)k / (double)nn, &so.s);
    if ((rc = lcp_pipeline_solve_cached(&p, &so, matched_any ? x : NULL, p.n, path, cache, &out, err)))
        goto step_done;
    if (p.n > 0) memcpy(x, out.x, (size_t)p.n * sizeof *x);
    if (out.status == LCP_SOLVED) tot->solved++;
    else if (!tot->first_unsolved[0])
        snprintf(tot->first_unsolved, sizeof tot->first_unsolved, "%s: %s after %d iterations", name,
                 lcp_status_name(out.status), out.iterations);
    int ec = lcp_status_exit_code(out.status);
    if (ec > tot->worst_exit) tot->worst_exit = ec;
    double r = isfinite(out.m.residual) ? out.m.residual : 1e308;
    tot->sum_res += r;
    tot->max_res = fmax(tot->max_res, r);
    tot->sum_ms += 1e3 * (out.time_s + out.auto_time_s);
    tot->sum_it += out.iterations;
    print_step(o, k, &p, name, ncon, matched, &out, &so.s, r);
    /* this step's answer, keyed by id, for the next */
    free(prev->ids);
    free(prev->x);
    prev->ids = cur;
    cur = NULL;
    prev->x = x;
    x = NULL;
    prev->n = ncon;
    prev->rpc = rpc;
step_done:
    lcp_solve_out_free(&out);
    free(cur);
    free(x);
    free(ids);
    lcp_problem_free(&p);
    return rc;
}

int lcp_sequence_solve(const lcp_sequence_opts *o, lcp_err *err)
{
    char **names = NULL;
    int nn = 0, rc = list_steps(o->dir, &names, &nn, err);
    if (rc) return lcp_status_exit_code((lcp_status)rc);

    step_answer prev = {NULL, NULL, 0, 1};
    seq_totals tot = {0, 0, 0, 0, 0, 0, ""};
    size_t plen = strlen(o->dir) + 300;
    char *path = malloc(plen);
    lcp_pipeline_cache *cache = lcp_pipeline_cache_new(); /* the update path: --order's set-up once a pattern */
    if (!path || !cache) rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    for (int k = 0; k < nn && !rc; k++) rc = solve_step(o, k, nn, names[k], path, plen, cache, &prev, &tot, err);
    if (!rc) {
        if (o->json) {
            printf("{\"summary\":true,\"steps\":%d,\"solved\":%d,\"mean_residual\":%.6e,\"max_residual\":%.6e,"
                   "\"mean_ms\":%.6g,\"mean_iterations\":%.6g}\n",
                   nn, tot.solved, tot.sum_res / nn, tot.max_res, tot.sum_ms / nn, tot.sum_it / nn);
        } else if (!o->quiet) {
            printf("total: %d steps, %d solved, mean residual %.2e, max residual %.2e, mean %.3f ms a step, "
                   "mean %.1f iterations\n",
                   nn, tot.solved, tot.sum_res / nn, tot.max_res, tot.sum_ms / nn, tot.sum_it / nn);
        }
        if (tot.solved < nn) /* the exit code's reason */
            fprintf(stderr, "lcpsolve sequence: exit %d: %d of %d steps not solved (the first, %s)\n", tot.worst_exit,
                    nn - tot.solved, nn, tot.first_unsolved);
    }
    free(prev.ids);
    free(prev.x);
    free(path);
    lcp_pipeline_cache_free(cache);
    for (int k = 0; k < nn; k++) free(names[k]);
    free(names);
    if (rc) return lcp_status_exit_code((lcp_status)rc);
    return tot.worst_exit;
}
