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

/* ------------------------------------------------------------ --tune */

/* A run of a sweep arm (pgs/nsgs with a budget) also tells what the smaller
 * budgets of the same solver would have given: the best residual checked up
 * to their iteration, and the time to it (nested actions).  The recorder
 * chains to the caller's callback (the binary's SIGINT). */
#define MARKS 4
static const int MARK_IT[MARKS] = {5, 20, 50, 200};
typedef struct {
    double best[MARKS], t[MARKS], last_t;
    /* the break-even stop replayed on the checks (a reward arm's run, had it been this one): where it stops */
    double alpha, beta, best_all, stop_t, stop_r;
    int stopped;
    lcp_breakeven be;
    int (*chain)(void *, int, double, const lcp_metrics *, const char *const *, const double *);
    void *chain_ctx;
} recorder;

static int record(void *ctx, int iter, double time_s, const lcp_metrics *m, const char *const *columns,
                  const double *extra)
{
    recorder *rc = ctx;
    if (iter >= 0) {
        rc->last_t = time_s;
        if (m && isfinite(m->residual) && m->residual < rc->best_all) rc->best_all = m->residual;
        if (m && iter > 0 && !rc->stopped && lcp_breakeven_step(&rc->be, iter, time_s, rc->best_all, rc->alpha, rc->beta))
            rc->stopped = 1, rc->stop_t = time_s, rc->stop_r = rc->best_all;
        for (int k = 0; k < MARKS; k++)
            if (iter <= MARK_IT[k]) {
                if (m && isfinite(m->residual) && m->residual < rc->best[k]) rc->best[k] = m->residual;
                rc->t[k] = time_s;
            }
    }
    return rc->chain ? rc->chain(rc->chain_ctx, iter, time_s, m, columns, extra) : 0;
}

/* The bandit of --tune (the reinforcement-learning tuner of a simulation
 * loop): an action is a configuration and an iteration budget (ARMS), the
 * state the step's size (log2 of its contacts, halved) and the previous
 * step's residual (decades, 0 to 4 for 1e-8 and above ... 1e-2 and below),
 * the reward -alpha time_s - beta residual.  Each step takes the action of
 * the highest mean reward in its state (an action not yet scored there: its
 * mean over the steps of the same size, else of the nearest size where it
 * was scored).  Exploration: the sweep arms never scored come
 * first; then each arm that solves to the tolerance (lemke, auto) once, on
 * a time limit of the break-even time -best mean / alpha (a run that takes
 * longer cannot beat the best arm on the step): one cut there is scored as
 * it ended and the step is solved again by the best arm from the same
 * start, so that learning a slow configuration costs at most one step of
 * the best arm's time.  A run of a sweep arm also scores the
 * smaller budgets of its solver from its own checks (the recorder below):
 * the bandit need not run pgs-5 to learn what 5 sweeps give.  The reward
 * arms (pgs-reward, nsgs-reward) have no fixed budget: the monitor stops
 * them at the break-even sweep, the first whose gain in beta x residual is
 * below its cost in alpha x time (settings.reward_alpha/beta). */
typedef struct {
    const char *label, *solver;
    int budget; /* iterations; 0: to the tolerance; REWARD_ARM: to the break-even sweep */
    int kinds;  /* LCP_KIND_* it takes */
} arm;
#define REWARD_ARM (-1)
#define REWARD_CAP 1000 /* the sweeps of a reward arm at most */
static const arm ARMS[] = {
    {"pgs-5", "pgs", 5, LCP_KIND_LCP | LCP_KIND_BLCP},
    {"pgs-20", "pgs", 20, LCP_KIND_LCP | LCP_KIND_BLCP},
    {"pgs-50", "pgs", 50, LCP_KIND_LCP | LCP_KIND_BLCP},
    {"pgs-200", "pgs", 200, LCP_KIND_LCP | LCP_KIND_BLCP},
    {"pgs-reward", "pgs", REWARD_ARM, LCP_KIND_LCP | LCP_KIND_BLCP},
    {"lemke", "lemke", 0, LCP_KIND_LCP},
    {"nsgs-5", "nsgs", 5, LCP_KIND_CCP | LCP_KIND_FC3D},
    {"nsgs-20", "nsgs", 20, LCP_KIND_CCP | LCP_KIND_FC3D},
    {"nsgs-50", "nsgs", 50, LCP_KIND_CCP | LCP_KIND_FC3D},
    {"nsgs-200", "nsgs", 200, LCP_KIND_CCP | LCP_KIND_FC3D},
    {"nsgs-reward", "nsgs", REWARD_ARM, LCP_KIND_CCP | LCP_KIND_FC3D},
    {"auto", "auto", 0, LCP_KIND_LCP | LCP_KIND_BLCP | LCP_KIND_CCP | LCP_KIND_FC3D},
};
#define NARMS ((int)(sizeof ARMS / sizeof *ARMS))
#define NSTATES 60 /* 12 sizes x 5 residual decades */
/* the weight of an arm's latest reward in its mean once it has more than 1 / RECENCY scores (before: the
 * plain average): the steps of a simulation change (contacts come and go, piles settle or get harder), and
 * a plain average keeps an arm's early rewards as long as its late ones -- an arm cheap on the easy first
 * steps stays rated above one whose single score was taken on a hard step or under a passing load, and
 * is held when it has become the dearer (Sutton and Barto: a constant step size for nonstationary rewards) */
#define RECENCY 0.2

typedef struct {
    double mean[NSTATES][NARMS], size_mean[NSTATES / 5][NARMS]; /* the recency-weighted means (bandit_score) */
    int size_count[NSTATES / 5][NARMS];
    int count[NSTATES][NARMS], taken[NARMS], steps;
    double prev_res;   /* the previous step's residual (INFINITY: none yet) */
    double reward;     /* the sum of the rewards */
} bandit;

static int bandit_state(const bandit *b, int contacts)
{
    int size = (int)(log2(contacts + 1.0) / 2);
    if (size > 11) size = 11;
    int dec = 0; /* residual 1e-8 and below: 0 ... above 1e-2: 4 */
    if (isfinite(b->prev_res)) {
        dec = (int)floor((log10(fmax(b->prev_res, 1e-300)) + 8) / 1.5) + 1;
        dec = dec < 0 ? 0 : dec > 4 ? 4 : dec;
    }
    return size * 5 + dec;
}

/* *explore: the arm returned is one that solves to the tolerance, not scored yet (its run is capped);
 * explore NULL: the best scored arm only */
static int bandit_choose(bandit *b, int state, lcp_kind kind, int *explore, double *best_mean)
{
    int best = -1, untried = -1, unsolved = -1;
    double bv = -INFINITY;
    if (explore) *explore = 0;
    for (int a = 0; a < NARMS; a++) {
        if (!(ARMS[a].kinds & kind) || (strcmp(ARMS[a].solver, "auto") && !lcp_solver_find(ARMS[a].solver))) continue;
        /* not scored in the state: its mean over the steps of the size, else of the nearest size scored */
        double v = b->count[state][a] ? b->mean[state][a] : NAN;
        for (int d = 0; isnan(v) && d < NSTATES / 5; d++)
            for (int sz = state / 5 - d; isnan(v) && sz <= state / 5 + d; sz += d ? 2 * d : 1)
                if (sz >= 0 && sz < NSTATES / 5 && b->size_count[sz][a]) v = b->size_mean[sz][a];
        if (isnan(v)) {
            if (ARMS[a].budget != 0 && untried < 0) untried = a; /* a sweep arm: cheap to learn */
            if (ARMS[a].budget == 0 && unsolved < 0) unsolved = a;
        } else if (v > bv) {
            bv = v;
            best = a;
        }
    }
    *best_mean = bv;
    if (explore && untried >= 0) return untried;
    if (explore && unsolved >= 0) {
        *explore = best >= 0;
        return unsolved;
    }
    return best >= 0 ? best : NARMS - 1; /* NARMS - 1: auto, which takes every kind */
}

/* scores arm a in state with reward (a run of it, or what a smaller budget would have given): its means
 * move toward it by 1 / count, at least by RECENCY */
static void bandit_score(bandit *b, int state, int a, double reward)
{
    b->count[state][a]++;
    b->size_count[state / 5][a]++;
    b->mean[state][a] += (reward - b->mean[state][a]) * fmax(1.0 / b->count[state][a], RECENCY);
    b->size_mean[state / 5][a] += (reward - b->size_mean[state / 5][a]) * fmax(1.0 / b->size_count[state / 5][a], RECENCY);
}

static void bandit_update(bandit *b, int state, int a, double reward, double residual)
{
    bandit_score(b, state, a, reward);
    b->taken[a]++;
    b->steps++;
    b->reward += reward;
    b->prev_res = residual;
}

/* The totals over the steps. */
typedef struct {
    int solved, worst_exit;
    double sum_res, max_res, sum_ms, sum_it;
    char first_unsolved[320]; /* the first step not solved, and how it ended */
    const char *last_arm;     /* --tune: the action of the step just solved */
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
                       const lcp_solve_out *out, const lcp_settings *s, double r, const char *action)
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
        if (action) cJSON_AddStringToObject(j, "action", action);
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

/* the step's settings for arm a: its solver, budget or break-even stop, and the recorder */
static void arm_settings(const lcp_sequence_opts *o, int k, int nn, int a, lcp_solve_opts *so, recorder *rec)
{
    *so = *o->o;
    lcp_schedule_apply(o->schedule, (double)k / (double)nn, &so->s);
    so->solver = ARMS[a].solver;
    so->precond = "none";
    so->s.precond = NULL;
    if (ARMS[a].budget > 0) so->s.max_iter = ARMS[a].budget;
    if (ARMS[a].budget == REWARD_ARM) {
        so->s.max_iter = REWARD_CAP;
        so->s.reward_alpha = o->alpha;
        so->s.reward_beta = o->beta;
    }
    *rec = (recorder){.chain = so->s.on_iteration, .chain_ctx = so->s.on_iteration_ctx, .alpha = o->alpha,
                      .beta = o->beta, .best_all = INFINITY};
    for (int q = 0; q < MARKS; q++) rec->best[q] = INFINITY, rec->t[q] = 0;
    so->s.on_iteration = record;
    so->s.on_iteration_ctx = rec;
}

/* Step k of nn (folder name; path: plen bytes of room): read with its
 * ids, warm-started from *prev by contact id, solved through the pipeline
 * (the schedule's settings for this step; cache: the pattern-only set-up),
 * printed and counted in *tot; its answer becomes *prev.  0, or the status
 * of a failure with err set. */
static int solve_step(const lcp_sequence_opts *o, int k, int nn, const char *name, char *path, size_t plen,
                      lcp_pipeline_cache *cache, step_answer *prev, seq_totals *tot, bandit *bd, lcp_err *err)
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
    int state = 0, action = -1;
    recorder rec;
    int explore = 0;
    double best_mean = -INFINITY;
    if (o->tune && bd) { /* the bandit's action: a configuration and its budget */
        state = bandit_state(bd, ncon);
        action = bandit_choose(bd, state, p.kind, &explore, &best_mean);
        arm_settings(o, k, nn, action, &so, &rec);
        if (explore && o->alpha > 0) { /* past the break-even time the arm cannot win this step */
            double be = -best_mean / o->alpha;
            if (!(so.s.time_limit > 0) || be < so.s.time_limit) so.s.time_limit = fmax(be, 1e-6);
        }
    }
    if ((rc = lcp_pipeline_solve_cached(&p, &so, matched_any ? x : NULL, p.n, path, cache, &out, err)))
        goto step_done;
    if (explore && out.status == LCP_TIME_LIMIT && !out.interrupted) {
        /* cut at the break-even time: scored as it ended, and the step solved again by the best arm */
        double res = isfinite(out.m.residual) ? out.m.residual : 1e308, secs = out.time_s + out.auto_time_s;
        bandit_update(bd, state, action, -o->alpha * secs - o->beta * res, res);
        /* the step's action and reward are the rerun's (with both times) */
        bd->steps--, bd->taken[action]--, bd->reward -= -o->alpha * secs - o->beta * res;
        lcp_solve_out_free(&out);
        memset(&out, 0, sizeof out);
        action = bandit_choose(bd, state, p.kind, NULL, &best_mean);
        arm_settings(o, k, nn, action, &so, &rec);
        if ((rc = lcp_pipeline_solve_cached(&p, &so, matched_any ? x : NULL, p.n, path, cache, &out, err)))
            goto step_done;
        out.time_s += secs; /* the step took both runs */
    }
    if (action >= 0) {
        double res = isfinite(out.m.residual) ? out.m.residual : 1e308, secs = out.time_s + out.auto_time_s;
        bandit_update(bd, state, action, -o->alpha * secs - o->beta * res, res);
        /* the smaller budgets of the same solver, from this run's checks (one problem solved whole: the
         * iterations of a decomposed solve are its components') */
        int reward_arm = ARMS[action].budget == REWARD_ARM, cap = reward_arm ? REWARD_CAP : ARMS[action].budget;
        for (int a = 0; ARMS[action].budget != 0 && out.components == 1 && a < NARMS; a++) {
            if (a == action || strcmp(ARMS[a].solver, ARMS[action].solver) || ARMS[a].budget <= 0 ||
                ARMS[a].budget >= cap || !(ARMS[a].kinds & p.kind))
                continue;
            /* a reward arm stopped at its break-even sweep: what a larger budget would give is not known */
            if (reward_arm && out.iterations < ARMS[a].budget && out.status != LCP_SOLVED) continue;
            int q = 0;
            while (q < MARKS && MARK_IT[q] != ARMS[a].budget) q++;
            if (q == MARKS) continue;
            double r_a = out.iterations <= ARMS[a].budget ? res : rec.best[q]; /* it stopped before: the same */
            double t_a = out.iterations <= ARMS[a].budget ? secs : rec.t[q] + fmax(0, secs - rec.last_t);
            if (!isfinite(r_a)) continue;
            bandit_score(bd, state, a, -o->alpha * t_a - o->beta * r_a);
        }
        /* and the reward arm of the same solver: where its break-even stop falls on this run's checks (a run
         * that solved first: the same run) */
        for (int a = 0; !reward_arm && ARMS[action].budget > 0 && out.components == 1 && a < NARMS; a++)
            if (ARMS[a].budget == REWARD_ARM && !strcmp(ARMS[a].solver, ARMS[action].solver) && (ARMS[a].kinds & p.kind)) {
                if (rec.stopped)
                    bandit_score(bd, state, a, -o->alpha * (rec.stop_t + fmax(0, secs - rec.last_t)) - o->beta * rec.stop_r);
                else if (out.status == LCP_SOLVED)
                    bandit_score(bd, state, a, -o->alpha * secs - o->beta * res);
            }
    }
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
    print_step(o, k, &p, name, ncon, matched, &out, &so.s, r, action >= 0 ? ARMS[action].label : NULL);
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
    seq_totals tot = {0, 0, 0, 0, 0, 0, "", NULL};
    bandit *bd = o->tune ? calloc(1, sizeof *bd) : NULL;
    if (bd) bd->prev_res = INFINITY;
    size_t plen = strlen(o->dir) + 300;
    char *path = malloc(plen);
    lcp_pipeline_cache *cache = lcp_pipeline_cache_new(); /* the update path: --order's set-up once a pattern */
    if (!path || !cache || (o->tune && !bd)) rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    for (int k = 0; k < nn && !rc; k++) rc = solve_step(o, k, nn, names[k], path, plen, cache, &prev, &tot, bd, err);
    if (!rc) {
        if (o->json && bd) {
            printf("{\"summary\":true,\"steps\":%d,\"solved\":%d,\"mean_residual\":%.6e,\"max_residual\":%.6e,"
                   "\"mean_ms\":%.6g,\"mean_iterations\":%.6g,\"tune\":true,\"alpha\":%g,\"beta\":%g,"
                   "\"mean_reward\":%.6g,\"actions\":{",
                   nn, tot.solved, tot.sum_res / nn, tot.max_res, tot.sum_ms / nn, tot.sum_it / nn, o->alpha, o->beta,
                   nn ? bd->reward / nn : 0.0);
            for (int a = 0, first = 1; a < NARMS; a++)
                if (bd->taken[a]) printf("%s\"%s\":%d", first ? "" : ",", ARMS[a].label, bd->taken[a]), first = 0;
            printf("}}\n");
        } else if (o->json) {
            printf("{\"summary\":true,\"steps\":%d,\"solved\":%d,\"mean_residual\":%.6e,\"max_residual\":%.6e,"
                   "\"mean_ms\":%.6g,\"mean_iterations\":%.6g}\n",
                   nn, tot.solved, tot.sum_res / nn, tot.max_res, tot.sum_ms / nn, tot.sum_it / nn);
        } else if (!o->quiet) {
            printf("total: %d steps, %d solved, mean residual %.2e, max residual %.2e, mean %.3f ms a step, "
                   "mean %.1f iterations\n",
                   nn, tot.solved, tot.sum_res / nn, tot.max_res, tot.sum_ms / nn, tot.sum_it / nn);
            if (bd) {
                printf("tune: mean reward %.6g (alpha %g, beta %g); actions", nn ? bd->reward / nn : 0.0, o->alpha, o->beta);
                for (int a = 0; a < NARMS; a++)
                    if (bd->taken[a]) printf(" %s %d", ARMS[a].label, bd->taken[a]);
                printf("\n");
            }
        }
        if (tot.solved < nn && !bd) /* the exit code's reason (--tune: budgets stop short by design) */
            fprintf(stderr, "lcpsolve sequence: exit %d: %d of %d steps not solved (the first, %s)\n", tot.worst_exit,
                    nn - tot.solved, nn, tot.first_unsolved);
    }
    free(prev.ids);
    free(prev.x);
    free(path);
    free(bd);
    lcp_pipeline_cache_free(cache);
    for (int k = 0; k < nn; k++) free(names[k]);
    free(names);
    if (rc) return lcp_status_exit_code((lcp_status)rc);
    return o->tune ? 0 : tot.worst_exit; /* --tune: steps short of the tolerance are the trade-off chosen */
}
