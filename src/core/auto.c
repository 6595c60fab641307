/* src/core/auto.c: `--solver auto` from measurements (see auto.h).
 *
 * The model (written by `lcpsolve tune`, src/cli/tune.c) is a text file:
 *
 *   lcpsolve-auto-model 1
 *   time-limit S                      each measured run's limit
 *   features NAME ...                 the columns of src/core/features.c
 *   config KIND SOLVER PRECOND        a candidate (PRECOND none for none)
 *   problem KIND FAMILY NAME F... T I T I ...
 *                                     a measured problem: its features,
 *                                     then per config of its kind (in the
 *                                     order of the config lines) the time
 *                                     to the tolerance (-1: not solved in
 *                                     the limit) and the iterations
 *
 * (lines starting with # are comments).  The prediction is k-nearest
 * neighbours: among the measured problems of the same kind, the K = 7
 * nearest in the feature space scaled by each feature's standard deviation
 * over them (ccp and fc3d: the other friction kind's problems too, at
 * KIND_DIST2 more, each lending its time of the same solver and
 * preconditioner, its twin configuration); a configuration's predicted
 * time is the weighted (1 / (0.1 + distance)) geometric mean of its times
 * on them, a failure counting as 10 times the time limit.  The features
 * of the spectrum and the contact graph (lcp_features_complete: about 12
 * passes over A, where the others take 2) join the distances only where
 * their modelled cost is at most FEATURE_SHARE of the pick's time predicted
 * without them (the prediction is then made again with them), or at once
 * where they cost less than a pass over the model's samples.  The
 * configurations run in the predicted order: a
 * run that stops short of the tolerance (iteration limit, stall, breakdown)
 * or passes its budget hands over to the next from zero.  The time budget,
 * the same for every candidate of a round: 10 times the first candidate's
 * weighted geometric mean time on the neighbours that it solved, each time
 * scaled by the ratio of the nonzeros (at least AUTO_MIN_BUDGET: the CPU
 * time of a set-up on a small problem varies by about a millisecond from
 * run to run, and a budget of that order would make the runs depend on it);
 * a run past it goes on while its observed rate says it ends within
 * LCP_GO_ON times as much again (src/solvers/monitor.c).  Online
 * switching: in the first round, a
 * first-order candidate (LCP_SOLVER_LINEAR) is watched by the monitor,
 * which extrapolates its time to the tolerance from the rate at which the
 * best residual falls; once that passes LCP_SWITCH_MARGIN times the
 * smallest scaled prediction of the candidates after it, the run is cut and
 * the next starts, from the best iterate where it is first-order too (from
 * zero otherwise).  A candidate without such a rate (pivoting, Newton,
 * interior point; admm and prox, whose residual stalls before it falls)
 * stops once it has run LCP_SWITCH_MARGIN times the next's prediction,
 * unless its residual's rate says it ends within LCP_GO_ON times as much (in
 * the first round; neither cut before LCP_SWITCH_FLOOR), or at 10 times the most iterations it took on a neighbour that
 * it solved (scaled by the square root of the ratio of the nonzeros where
 * this problem is larger; plus 50); ipm and the Newton solvers do not
 * start a sparse factorisation predicted past the budget or past
 * LCP_SWITCH_MARGIN times the next's prediction (lcp_monitor_afford).
 * The predictions share their neighbours, so a run cut short scales the
 * predictions the later runs are measured against by how much slower than
 * its own prediction it proved: what a first-order run is measured against,
 * each next's prediction by the most the runs of the next's kind (first-order
 * or not) proved (lcp_auto_run.slow_kind: a first-order run knows its own
 * rest from its rate, and the first-order methods' iterations can grow with
 * a problem beyond the neighbours where a direct method's work does not);
 * what a run without a rate is measured against, by the most any run
 * proved (lcp_auto_slow), once two runs have proved slower (one may
 * say only that its method stalled).
 * After the last candidate, the next round: the
 * candidates again on 4 times the budgets (at most 9 rounds; a candidate
 * that broke down is not run again), first-order ones from their own best
 * iterate and first among them those whose rate said they had least left
 * to run, the others from zero in the predicted order, so that a configuration
 * that solves the problem in time T is reached after at most about
 * (4/3) x 4 T x (candidates) however wrong the prediction.  What the kind
 * forces stays: a configuration whose solver does not take the problem
 * (kind, symmetry, ...: lcp_solver_check) is not a candidate.
 */
#include "auto.h"

#include <ctype.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define AUTO_MIN_BUDGET 0.02 /* seconds of CPU time: the least time budget of a run */

extern const char lcp_auto_model_default[]; /* models/auto.model, built in (Makefile) */

#define KNN LCP_AUTO_KNN
#define FEATURE_SHARE 0.1 /* the spectrum's and the graph's features: at most this share of the predicted solve */
#define RANK_S_SAMPLE 1e-8 /* a prediction's modelled seconds a measured sample (its distance, 17 features) */
#define KIND_DIST2 1.0 /* the squared distance a friction sample of the other kind (ccp, fc3d) adds */
#define NFP ((LCP_NFEATURES + 3) / 4 * 4) /* the features padded to blocks of 4 (the distances' sums) */
typedef double v2 __attribute__((vector_size(16), aligned(8), may_alias)); /* two lanes of the distances */

typedef struct {
    lcp_kind kind;
    char solver[32], precond[32];
    /* resolved once when the model is read (the choice runs at every solve of auto): the solver and
     * preconditioner (sv NULL: not in this build, or the preconditioner is not, or the solver refuses it),
     * whether the solver takes box bounds alone and a symmetric A (box_only), and "SOLVER[ -p PRECOND]" */
    const lcp_solver *sv;
    const lcp_precond_type *pc;
    int box_only;
    char name[80];
} am_cfg;

typedef struct {
    lcp_kind kind;
    char family[64], name[160];
    double f[LCP_NFEATURES];
    double t[LCP_AUTO_MAXCFG]; /* NAN: not of this kind */
    double lt[LCP_AUTO_MAXCFG]; /* log max(t, 1e-6) where t >= 0 (scale_features) */
    int it[LCP_AUTO_MAXCFG];
} am_sample;

struct lcp_auto_model {
    char source[256];
    double time_limit;
    int ncfg, ns, cap;
    am_cfg cfg[LCP_AUTO_MAXCFG];
    am_sample *s;
    /* per kind (kind_slot): the samples, and each feature's mean and standard deviation over them (the
     * scaling of the distances), computed once when the samples change (scale_features) */
    int nk[4];
    double mean[4][LCP_NFEATURES], sd[4][LCP_NFEATURES];
    int *of_kind[4]; /* the samples of each kind, in order (nk[q] of them) */
    /* the same per kind for the distances: each feature's weight 1 / sd^2 (0 where sd <= 1e-9, and in
     * the padding), and the samples' features in one block, NFP a sample in of_kind's order (the padding
     * 0): the nearest are found by one pass over contiguous memory */
    double w2[4][NFP];
    double *feat[4];
    /* a friction configuration's twin of the other friction kind (ccp <-> fc3d: the same solver and
     * preconditioner), -1 where there is none: neighbours of the other kind lend their times to it */
    int twin[LCP_AUTO_MAXCFG];
};

static int kind_slot(lcp_kind k) { return k == LCP_KIND_LCP ? 0 : k == LCP_KIND_BLCP ? 1 : k == LCP_KIND_CCP ? 2 : 3; }
static int other_friction_slot(int q) { return q == 2 ? 3 : 2; } /* ccp <-> fc3d */

static void scale_features(lcp_auto_model *m)
{
    for (int i = 0; i < m->ns; i++)
        for (int c = 0; c < m->ncfg; c++) m->s[i].lt[c] = m->s[i].t[c] >= 0 ? log(fmax(m->s[i].t[c], 1e-6)) : NAN;
    memset(m->nk, 0, sizeof m->nk);
    memset(m->mean, 0, sizeof m->mean);
    memset(m->sd, 0, sizeof m->sd);
    for (int i = 0; i < m->ns; i++) {
        int q = kind_slot(m->s[i].kind);
        m->nk[q]++;
        for (int j = 0; j < LCP_NFEATURES; j++) m->mean[q][j] += m->s[i].f[j];
    }
    for (int q = 0; q < 4; q++)
        for (int j = 0; m->nk[q] && j < LCP_NFEATURES; j++) m->mean[q][j] /= m->nk[q];
    for (int i = 0; i < m->ns; i++) {
        int q = kind_slot(m->s[i].kind);
        for (int j = 0; j < LCP_NFEATURES; j++)
            m->sd[q][j] += (m->s[i].f[j] - m->mean[q][j]) * (m->s[i].f[j] - m->mean[q][j]);
    }
    for (int q = 0; q < 4; q++)
        for (int j = 0; j < LCP_NFEATURES; j++) m->sd[q][j] = m->nk[q] > 1 ? sqrt(m->sd[q][j] / (m->nk[q] - 1)) : 0;
    for (int c = 0; c < m->ncfg; c++) {
        m->twin[c] = -1;
        for (int d = 0; d < m->ncfg && (m->cfg[c].kind & LCP_KIND_FRICTION); d++)
            if ((m->cfg[d].kind & LCP_KIND_FRICTION) && m->cfg[d].kind != m->cfg[c].kind &&
                !strcmp(m->cfg[d].solver, m->cfg[c].solver) && !strcmp(m->cfg[d].precond, m->cfg[c].precond))
                m->twin[c] = d;
    }
    int fill[4] = {0};
    for (int q = 0; q < 4; q++) {
        free(m->of_kind[q]);
        free(m->feat[q]);
        m->of_kind[q] = lcp_alloc((size_t)(m->nk[q] > 0 ? m->nk[q] : 1), sizeof(int));
        m->feat[q] = lcp_calloc((size_t)(m->nk[q] > 0 ? m->nk[q] : 1) * NFP, sizeof(double));
        if (!m->of_kind[q] || !m->feat[q]) m->nk[q] = 0; /* out of memory: no samples of the kind (the fallback order) */
        for (int j = 0; j < NFP; j++)
            m->w2[q][j] = j < LCP_NFEATURES && m->sd[q][j] > 1e-9 ? 1 / (m->sd[q][j] * m->sd[q][j]) : 0;
    }
    for (int i = 0; i < m->ns; i++) {
        int q = kind_slot(m->s[i].kind);
        if (m->of_kind[q] && m->feat[q] && fill[q] < m->nk[q]) {
            memcpy(m->feat[q] + (size_t)fill[q] * NFP, m->s[i].f, sizeof m->s[i].f);
            m->of_kind[q][fill[q]++] = i;
        }
    }
}

static int parse_kind(const char *w, lcp_kind *k)
{
    if (!strcmp(w, "lcp")) *k = LCP_KIND_LCP;
    else if (!strcmp(w, "blcp")) *k = LCP_KIND_BLCP;
    else if (!strcmp(w, "ccp")) *k = LCP_KIND_CCP;
    else if (!strcmp(w, "fc3d")) *k = LCP_KIND_FC3D;
    else return -1;
    return 0;
}

static int cfg_name(const am_cfg *c, char *buf, size_t size)
{
    return snprintf(buf, size, "%s%s%s", c->solver, strcmp(c->precond, "none") ? " -p " : "",
                    strcmp(c->precond, "none") ? c->precond : "");
}

/* the solvers that take box bounds only (no findex rows) and need a symmetric A: they refuse the rest
 * at their start */
static const char *const box_only[] = {"mprgp", "apgd", "pmg", "bb"};

/* what of a configuration does not depend on the problem, once (am_cfg) */
static void resolve_cfg(am_cfg *c)
{
    c->sv = lcp_solver_find(c->solver);
    c->pc = NULL;
    c->box_only = 0;
    for (size_t k = 0; k < sizeof box_only / sizeof *box_only; k++)
        if (!strcmp(c->solver, box_only[k])) c->box_only = 1;
    if (c->sv && strcmp(c->precond, "none")) {
        lcp_err e;
        c->pc = lcp_precond_find(c->precond);
        if (!c->pc || lcp_solver_check_precond(c->sv, c->precond, &e)) c->sv = NULL;
    }
    cfg_name(c, c->name, sizeof c->name);
}

void lcp_auto_model_free(lcp_auto_model *m)
{
    if (!m) return;
    for (int q = 0; q < 4; q++) free(m->of_kind[q]), free(m->feat[q]);
    free(m->s);
    free(m);
}

#define MBAD(...) (lcp_fail(err, LCP_INPUT_ERROR, source, line, __VA_ARGS__), lcp_auto_model_free(m), (lcp_auto_model *)NULL)

lcp_auto_model *lcp_auto_model_parse(const char *text, const char *source, lcp_err *err)
{
    lcp_auto_model *m = calloc(1, sizeof *m);
    int line = 0, header = 0, features = 0;
    if (!m) return lcp_fail(err, LCP_ERROR, source, 0, "out of memory"), NULL;
    snprintf(m->source, sizeof m->source, "%s", source);
    m->time_limit = 1;
    for (const char *q = text; *q;) {
        const char *e = strchr(q, '\n');
        size_t len = e ? (size_t)(e - q) : strlen(q);
        char buf[4096];
        line++;
        if (len >= sizeof buf) return MBAD("line too long (%zu characters) for an auto model", len);
        memcpy(buf, q, len);
        buf[len] = '\0';
        q = e ? e + 1 : q + len;
        char *save = NULL, *w = strtok_r(buf, " \t\r", &save);
        if (!w || *w == '#') continue;
        if (!header) {
            char *v = strtok_r(NULL, " \t\r", &save);
            if (strcmp(w, "lcpsolve-auto-model") || !v || strcmp(v, "1"))
                return MBAD("not an auto model: the first line must be 'lcpsolve-auto-model 1' (lcpsolve tune writes one)");
            header = 1;
        } else if (!strcmp(w, "time-limit")) {
            char *v = strtok_r(NULL, " \t\r", &save), *end = NULL;
            double x = v ? strtod(v, &end) : 0;
            if (!v || *end || !(x > 0)) return MBAD("time-limit: '%s' is not a positive number", v ? v : "");
            m->time_limit = x;
        } else if (!strcmp(w, "features")) {
            int k = 0;
            for (char *v; (v = strtok_r(NULL, " \t\r", &save)); k++)
                if (k >= LCP_NFEATURES || strcmp(v, lcp_feature_names[k]))
                    return MBAD("feature %d is '%s', this build computes '%s': retrain the model (lcpsolve tune)",
                                k + 1, v, k < LCP_NFEATURES ? lcp_feature_names[k] : "(none)");
            if (k != LCP_NFEATURES)
                return MBAD("%d features, this build computes %d: retrain the model (lcpsolve tune)", k, LCP_NFEATURES);
            features = 1;
        } else if (!strcmp(w, "config")) {
            char *k = strtok_r(NULL, " \t\r", &save), *sv = strtok_r(NULL, " \t\r", &save);
            char *pc = strtok_r(NULL, " \t\r", &save);
            if (m->ns) return MBAD("config lines must come before the problem lines");
            if (m->ncfg >= LCP_AUTO_MAXCFG) return MBAD("more than %d configurations", LCP_AUTO_MAXCFG);
            am_cfg *c = &m->cfg[m->ncfg];
            if (!k || parse_kind(k, &c->kind)) return MBAD("config: '%s' is not a kind (lcp, blcp, ccp, fc3d)", k ? k : "");
            if (!sv || !pc || strlen(sv) >= sizeof c->solver || strlen(pc) >= sizeof c->precond)
                return MBAD("config: want KIND SOLVER PRECOND");
            snprintf(c->solver, sizeof c->solver, "%s", sv);
            snprintf(c->precond, sizeof c->precond, "%s", pc);
            resolve_cfg(c);
            m->ncfg++;
        } else if (!strcmp(w, "problem")) {
            if (!features) return MBAD("a problem line before the features line");
            if (m->ns == m->cap) {
                int cap = m->cap ? 2 * m->cap : 64;
                am_sample *s = realloc(m->s, (size_t)cap * sizeof *s);
                if (!s) return MBAD("out of memory");
                m->s = s;
                m->cap = cap;
            }
            am_sample *s = &m->s[m->ns];
            char *k = strtok_r(NULL, " \t\r", &save), *fam = strtok_r(NULL, " \t\r", &save);
            char *name = strtok_r(NULL, " \t\r", &save);
            if (!k || parse_kind(k, &s->kind)) return MBAD("problem: '%s' is not a kind", k ? k : "");
            if (!fam || !name) return MBAD("problem: want KIND FAMILY NAME FEATURES... TIMES...");
            snprintf(s->family, sizeof s->family, "%s", fam);
            snprintf(s->name, sizeof s->name, "%s", name);
            for (int j = 0; j < LCP_NFEATURES; j++) {
                char *v = strtok_r(NULL, " \t\r", &save), *end = NULL;
                s->f[j] = v ? strtod(v, &end) : NAN;
                if (!v || *end || !isfinite(s->f[j])) return MBAD("problem %s: feature %d missing or not a number", name, j + 1);
            }
            for (int c = 0; c < m->ncfg; c++) {
                s->t[c] = NAN;
                s->it[c] = 0;
                if (m->cfg[c].kind != s->kind) continue;
                char *v = strtok_r(NULL, " \t\r", &save), *u = strtok_r(NULL, " \t\r", &save), *end = NULL, *end2 = NULL;
                double t = v ? strtod(v, &end) : NAN;
                long it = u ? strtol(u, &end2, 10) : -1;
                if (!v || !u || *end || *end2 || !(t == -1 || t >= 0) || it < 0)
                    return MBAD("problem %s: the time and iterations of %s %s missing or not numbers", name,
                                m->cfg[c].solver, m->cfg[c].precond);
                s->t[c] = t;
                s->it[c] = (int)(it > 100000000 ? 100000000 : it);
            }
            if (strtok_r(NULL, " \t\r", &save)) return MBAD("problem %s: more fields than its kind's configurations", name);
            m->ns++;
        } else {
            return MBAD("unknown line '%s' (lcpsolve-auto-model, time-limit, features, config, problem, #)", w);
        }
    }
    if (!header) return MBAD("empty: not an auto model");
    scale_features(m);
    return m;
}

lcp_auto_model *lcp_auto_model_load(const char *path, lcp_err *err)
{
    if (!path) return lcp_auto_model_parse(lcp_auto_model_default, "the built-in auto model (models/auto.model)", err);
    FILE *fp = fopen(path, "rb");
    if (!fp) return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "cannot read the auto model"), NULL;
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    for (size_t got; text && (got = fread(text + len, 1, cap - len - 1, fp)) > 0;) {
        len += got;
        if (len + 1 == cap) {
            char *t2 = cap < ((size_t)64 << 20) ? realloc(text, cap *= 2) : NULL;
            if (!t2) free(text);
            text = t2;
        }
    }
    fclose(fp);
    if (!text) return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "auto model too large or out of memory"), NULL;
    text[len] = '\0';
    if (memchr(text, '\0', len)) {
        free(text);
        return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "not an auto model (a binary file)"), NULL;
    }
    lcp_auto_model *m = lcp_auto_model_parse(text, path, err);
    free(text);
    return m;
}

int lcp_auto_model_size(const lcp_auto_model *m) { return m->ns; }
const char *lcp_auto_model_family(const lcp_auto_model *m, int i) { return m->s[i].family; }
const char *lcp_auto_model_name(const lcp_auto_model *m, int i) { return m->s[i].name; }

double lcp_auto_model_time(const lcp_auto_model *m, int i, const char *config)
{
    for (int c = 0; c < m->ncfg; c++)
        if (m->cfg[c].kind == m->s[i].kind && !strcmp(m->cfg[c].name, config)) return m->s[i].t[c];
    return NAN;
}

int lcp_auto_model_drop_family(lcp_auto_model *m, const char *family)
{
    int k = 0;
    for (int i = 0; i < m->ns; i++)
        if (strcmp(m->s[i].family, family)) m->s[k++] = m->s[i];
    m->ns = k;
    scale_features(m);
    return k;
}

int lcp_auto_model_write(const lcp_auto_model *m, FILE *out)
{
    fprintf(out, "lcpsolve-auto-model 1\ntime-limit %.17g\nfeatures", m->time_limit);
    for (int j = 0; j < LCP_NFEATURES; j++) fprintf(out, " %s", lcp_feature_names[j]);
    fputc('\n', out);
    for (int c = 0; c < m->ncfg; c++)
        fprintf(out, "config %s %s %s\n", lcp_kind_name(m->cfg[c].kind), m->cfg[c].solver, m->cfg[c].precond);
    for (int i = 0; i < m->ns; i++) {
        const am_sample *s = &m->s[i];
        fprintf(out, "problem %s %s %s", lcp_kind_name(s->kind), s->family, s->name);
        for (int j = 0; j < LCP_NFEATURES; j++) fprintf(out, " %.6g", s->f[j]);
        for (int c = 0; c < m->ncfg; c++)
            if (m->cfg[c].kind == s->kind) fprintf(out, " %.6g %d", s->t[c], s->it[c]);
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}

/* the candidates of a kind where a model has none: every solver of the build
 * in a fixed order (lcp_solver_check sorts out
 * the rest); the third column: the name auto shows */
static const char *const fallback_cfgs[][3] = {
    {"pgs", "none", "pgs"},       {"mprgp", "ichol", "mprgp -p ichol"}, {"ipm", "none", "ipm"},
    {"lemke", "none", "lemke"},   {"pivot", "none", "pivot"},           {"newton-fb", "none", "newton-fb"},
    {"admm", "none", "admm"},     {"nsgs", "none", "nsgs"},             {"nsn", "none", "nsn"},
    {"socp-ipm", "none", "socp-ipm"}, {"psor", "none", "psor"},
};

typedef struct {
    const lcp_solver *sv;
    const lcp_precond_type *pc;
    double t, logt; /* the predicted time and its log */
    double lscaled; /* the log of the time on all the neighbours (those that solved scaled, failures as in t);
                     * NAN: none */
    double lmax;    /* the log of the time on the neighbours that solved (scaled); NAN: none */
    double lown;    /* a candidate that does not resume: the same, grown with the square of the nonzeros; else NAN */
    int budget;     /* iterations, from the neighbours that solved; 0 none */
    const char *name;
} ranked;

/* a configuration that takes the problem: its solver's check, and the box-only solvers' (the rest of what
 * it takes is the problem's kind, resolved when the model was read: resolve_cfg) */
static int candidate(const lcp_problem *p, const lcp_features *f, const am_cfg *c, ranked *r)
{
    memset(r, 0, sizeof *r);
    if (!c->sv || lcp_solver_check_diag(c->sv, p, f->diag_pos, NULL)) return 0;
    if (c->box_only && (!f->symmetric || (!(p->kind & LCP_KIND_FRICTION) && f->v[13] > 0))) return 0;
    r->sv = c->sv;
    r->pc = c->pc;
    r->name = c->name;
    return 1;
}


/* The configurations that take p, ranked by their time predicted from the K nearest measured problems in
 * the features F holds (without lcp_features_complete's: by the others alone); nb, *kout the neighbours,
 * *otherout how many of them are of the other friction kind.  Returns how many. */
static int rank_configs(const lcp_problem *p, const lcp_auto_model *m, const lcp_features *F, ranked *r, int *nb,
                        int *kout, int *otherout)
{
    const double *f = F->v;
    /* the neighbours: the K nearest samples of the kind in the feature space scaled by the model's standard
     * deviations (scale_features: the weights and the samples' features in one block), by squared
     * distance (the same order), summed in four lanes (feature j into lane j mod 4; the padding adds 0);
     * with K found, a sample stops once its partial sum reaches the K-th distance (the sums only grow: the
     * same neighbours as the full sums) */
    const int kq = kind_slot(p->kind);
    double w2[NFP]; /* the model's weights; 0 for the features not computed */
    memcpy(w2, m->w2[kq], sizeof w2);
    for (int j = LCP_FEATURE_COMPLETE_FIRST; !F->complete && j <= LCP_FEATURE_COMPLETE_LAST; j++) w2[j] = 0;
    double fq[NFP] = {0};
    memcpy(fq, f, sizeof(double) * LCP_NFEATURES);
    double nd[KNN];
    int k = 0, other = 0, nr = 0;
    /* friction: the samples of the other friction kind too (ccp <-> fc3d: the same contacts, the same
     * solvers bar a few), the kind counting as one more feature one standard deviation away */
    for (int pass = 0; pass < (p->kind & LCP_KIND_FRICTION ? 2 : 1); pass++) {
        const int sq = pass ? other_friction_slot(kq) : kq;
        const double *xf = m->feat[sq];
        for (int ii = 0; ii < m->nk[sq]; ii++) {
            const double *fs = xf + (size_t)ii * NFP;
            v2 a01 = {pass ? KIND_DIST2 : 0, 0}, a23 = {0, 0}; /* lanes 0, 1 and 2, 3: each lane's operations as in scalar code */
            int j = 0;
            for (; j < NFP; j += 4) {
                v2 e01 = *(const v2 *)(fq + j) - *(const v2 *)(fs + j), e23 = *(const v2 *)(fq + j + 2) - *(const v2 *)(fs + j + 2);
                a01 += e01 * e01 * *(const v2 *)(w2 + j);
                a23 += e23 * e23 * *(const v2 *)(w2 + j + 2);
                if (k == KNN && j + 4 < NFP && (a01[0] + a01[1]) + (a23[0] + a23[1]) >= nd[KNN - 1]) break;
            }
            if (j < NFP) continue; /* past the K-th */
            double d = (a01[0] + a01[1]) + (a23[0] + a23[1]);
            int pos = k < KNN ? k++ : KNN;
            while (pos > 0 && nd[pos - 1] > d) {
                if (pos < KNN) nb[pos] = nb[pos - 1], nd[pos] = nd[pos - 1];
                pos--;
            }
            if (pos < KNN) nb[pos] = m->of_kind[sq][ii], nd[pos] = d;
        }
    }
    for (int q = 0; q < k; q++) other += m->s[nb[q]].kind != p->kind;
    for (int q = 0; q < k; q++) nd[q] = sqrt(nd[q]);
    *kout = k;
    *otherout = other;
    double fail = log(10 * m->time_limit);
    /* each neighbour's weight and the ratio of the nonzeros (log_n + log_row), once: its log (the times' scale)
     * and its square root where this problem is larger (the iterations') */
    double wq[KNN], lgrow[KNN], sqgrow[KNN];
    for (int q = 0; q < k; q++) {
        const am_sample *s = &m->s[nb[q]];
        double x = fmin(2, fmax(-2, f[0] + f[1] - s->f[0] - s->f[1]));
        wq[q] = 1 / (0.1 + nd[q]);
        lgrow[q] = x * M_LN10;
        sqgrow[q] = x > 0 ? pow(10, x / 2) : 1;
    }
    for (int c = 0; c < m->ncfg && nr < LCP_AUTO_MAXCFG; c++) {
        if (m->cfg[c].kind != p->kind || !candidate(p, F, &m->cfg[c], &r[nr])) continue;
        double sw = 0, sl = 0, slg = 0, sws = 0, sls = 0, sls2 = 0, most = -1;
        /* lown: a candidate that cannot go on from where a cut left it (pivoting, Newton, interior point: its
         * work is lost) has a time budget of its own, its neighbours' times grown with the square of the
         * nonzeros where this problem is larger: a pass of pivots or of factorisations costs more than
         * linearly */
        const int resumes = (r[nr].sv->flags & LCP_SOLVER_LINEAR) != 0; /* (candidate: sv set) */
        /* a solver whose method changes at regime_n unknowns (pivot's small path): the neighbours on this
         * problem's side of it only (a chain of 1,000 links by block steps says nothing of 1,200 by pivots) */
        const double lreg = r[nr].sv->regime_n > 0 ? log10((double)r[nr].sv->regime_n) + 1e-9 : -1;
        const int above = lreg >= 0 && f[0] > lreg;
        for (int q = 0; q < k; q++) {
            const am_sample *s = &m->s[nb[q]];
            int cq = s->kind == p->kind ? c : m->twin[c]; /* a neighbour of the other kind: the twin's times */
            if (cq < 0 || isnan(s->t[cq]) || (lreg >= 0 && (s->f[0] > lreg) != above)) continue;
            double w = wq[q], lt = s->lt[cq]; /* log max(t, 1e-6) (scale_features) */
            sw += w;
            sl += w * (s->t[cq] >= 0 ? lt : fail);
            slg += w * (s->t[cq] >= 0 ? lt + lgrow[q] : fail);
            if (s->t[cq] < 0) continue;
            /* the budgets, from the neighbours that solved: their time, and their iterations scaled by the
             * square root of the ratio of the nonzeros where this problem is larger */
            most = fmax(most, s->it[cq] * sqgrow[q]);
            sws += w;
            sls += w * (lt + lgrow[q]);
            sls2 += w * (lt + (!resumes && lgrow[q] > 0 ? 2 * lgrow[q] : lgrow[q]));
        }
        r[nr].logt = sw > 0 ? sl / sw : fail + 1 + 1e-3 * c; /* no neighbour: after the measured, in model order */
        r[nr].t = exp(r[nr].logt);
        r[nr].lscaled = sw > 0 ? slg / sw : NAN; /* (exp taken for the candidates that run alone) */
        r[nr].budget = most >= 0 ? (int)fmin(10 * most + 50, 1e8) : 0;
        r[nr].lmax = sws > 0 ? sls / sws : NAN;
        r[nr].lown = sws > 0 && !resumes ? sls2 / sws : NAN;
        nr++;
    }
    if (nr == 0) /* a kind the model does not cover */
        for (size_t c = 0; c < sizeof fallback_cfgs / sizeof *fallback_cfgs; c++) {
            am_cfg fc = {.kind = p->kind};
            snprintf(fc.solver, sizeof fc.solver, "%s", fallback_cfgs[c][0]);
            snprintf(fc.precond, sizeof fc.precond, "%s", fallback_cfgs[c][1]);
            resolve_cfg(&fc);
            if (candidate(p, F, &fc, &r[nr])) {
                r[nr].name = fallback_cfgs[c][2];
                r[nr].logt = (double)c;
                r[nr].t = NAN;
                r[nr].lscaled = r[nr].lmax = r[nr].lown = NAN;
                nr++;
            }
        }
    /* by predicted time, ties in model order (a stable insertion sort of the few) */
    for (int c = 1; c < nr; c++) {
        ranked x = r[c];
        int q = c;
        for (; q > 0 && r[q - 1].logt > x.logt; q--) r[q] = r[q - 1];
        r[q] = x;
    }
    return nr;
}

int lcp_choose_auto_with(const lcp_problem *p, const lcp_auto_model *m, lcp_auto_choice *ch, lcp_err *err)
{
    double t0 = lcp_now();
    memset(ch, 0, sizeof *ch);
    /* the features of one or two passes over A first; the spectrum's and the graph's (about 12 passes) only
     * where they cost at most FEATURE_SHARE of the pick's time predicted without them: on a problem solved
     * in microseconds they would cost as much as the solve, and the picks they change are few (the
     * leave-one-family-out replay of the model's measurements: the same share within 2x with them or
     * without) */
    if (lcp_features_basic(p, &ch->f)) return lcp_fail(err, LCP_ERROR, NULL, 0, "auto: out of memory (features)");
    /* where they cost less than a pass over the model's samples (a problem of a few rows), at once: one
     * prediction, not two */
    const int kq = kind_slot(p->kind);
    double samples = m->nk[kq] + (p->kind & LCP_KIND_FRICTION ? m->nk[other_friction_slot(kq)] : 0);
    const double complete_cost = lcp_features_complete_cost(p);
    if (complete_cost <= RANK_S_SAMPLE * samples && lcp_features_complete(p, &ch->f))
        return lcp_fail(err, LCP_ERROR, NULL, 0, "auto: out of memory (features)");
    ranked r[LCP_AUTO_MAXCFG];
    int nb[KNN], k = 0, other = 0;
    int nr = rank_configs(p, m, &ch->f, r, nb, &k, &other);
    if (nr > 0 && k > 0 && !ch->f.complete) {
        /* the lesser of the neighbours' times and the same scaled to this problem's nonzeros */
        double pred = isfinite(r[0].lscaled) ? fmin(r[0].t, exp(r[0].lscaled)) : r[0].t;
        if (isfinite(pred) && complete_cost <= FEATURE_SHARE * pred) {
            if (lcp_features_complete(p, &ch->f)) return lcp_fail(err, LCP_ERROR, NULL, 0, "auto: out of memory (features)");
            nr = rank_configs(p, m, &ch->f, r, nb, &k, &other);
        }
    }
    ch->neighbours = k;
    if (nr == 0)
        return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "auto: no solver of this build takes this %s problem",
                        lcp_kind_name(p->kind));
    ch->ncand = nr < LCP_AUTO_MAXCAND ? nr : LCP_AUTO_MAXCAND;
    double first_tb = 0;
    for (int c = 0; c < ch->ncand; c++) {
        lcp_auto_cand *a = &ch->cand[c];
        a->solver = r[c].sv;
        a->precond = r[c].pc;
        a->t_pred = r[c].t;
        a->t_scaled = isnan(r[c].lscaled) ? NAN : exp(r[c].lscaled);
        /* a candidate without a rate to watch (pivoting, Newton) is cut by its iterations */
        a->budget = (r[c].sv->flags & LCP_SOLVER_LINEAR) ? 0 : r[c].budget;
        /* the time budget of a round is the first candidate's for all: a prediction that is off costs
         * rounds, not one long run of a poor candidate */
        if (c == 0) {
            double tmax = isnan(r[0].lmax) ? -1 : exp(r[0].lmax);
            first_tb = fmax(10 * (tmax >= 0 ? tmax : isfinite(r[0].t) ? r[0].t : 0), AUTO_MIN_BUDGET);
        }
        a->time_budget = isnan(r[c].lown) ? first_tb : fmax(first_tb, 10 * exp(r[c].lown));
    }
    ch->solver = r[0].sv;
    ch->precond = r[0].pc;
    ch->precond_name = r[0].pc ? r[0].pc->name : "none";
    const lcp_solver *gs = lcp_solver_find(p->kind & LCP_KIND_FRICTION ? "nsgs" : "pgs");
    for (int c = 0; c < nr && k > 0 && !ch->probe; c++) /* measured (neighbours), not the fallback order */
        if (r[c].sv == gs && !r[c].pc) ch->probe = gs;
    /* the texts, by appends (no formatted print: the choice runs at every solve of auto) */
    lcp_text t = {ch->predicted, sizeof ch->predicted, 0};
    for (int c = 0; c < nr; c++) {
        if (c) lcp_text_put(&t, ",");
        lcp_text_put(&t, r[c].name), lcp_text_put(&t, "="), lcp_text_g3(&t, isfinite(r[c].t) ? r[c].t : -1.0);
    }
    char then[300] = "";
    lcp_text th = {then, sizeof then, 0};
    for (int c = 1; c < ch->ncand; c++) lcp_text_put(&th, c > 1 ? ", " : ""), lcp_text_put(&th, r[c].name);
    lcp_text rs = {ch->reason, sizeof ch->reason, 0};
    lcp_text_put(&rs, "auto: "), lcp_text_put(&rs, r[0].name);
    if (k > 0) {
        lcp_text_put(&rs, " (predicted "), lcp_text_g3(&rs, r[0].t), lcp_text_put(&rs, " s from the "), lcp_text_g3(&rs, k);
        lcp_text_put(&rs, " nearest measured "), lcp_text_put(&rs, other ? "friction" : lcp_kind_name(p->kind));
        lcp_text_put(&rs, " problems of "), lcp_text_put(&rs, m->source);
        lcp_text_put(&rs, ", the nearest "), lcp_text_put(&rs, m->s[nb[0]].family), lcp_text_put(&rs, "/"), lcp_text_put(&rs, m->s[nb[0]].name);
        if (!ch->f.complete) lcp_text_put(&rs, "; by the features but the spectrum's and the graph's, which would cost over a tenth of it");
    } else {
        lcp_text_put(&rs, " ("), lcp_text_put(&rs, m->source), lcp_text_put(&rs, " holds no measured "), lcp_text_put(&rs, lcp_kind_name(p->kind));
        lcp_text_put(&rs, " problem: the configurations in order");
    }
    lcp_text_put(&rs, "; if it stops short: "), lcp_text_put(&rs, *then ? then : "nothing else"), lcp_text_put(&rs, ")");
    ch->time_s = lcp_now() - t0;
    return 0;
}

/* the loaded models: the built-in one (kept) and model files, in slots
 * read again when the file's size or modification time changed; with every
 * slot taken, the least recently used one that no solve is reading (users,
 * counted under the lock: a model is read only inside lcp_choose_auto_with)
 * makes room, and where all are being read the model is read for this solve
 * alone.  The built-in model, once read, is never replaced or freed: a solve
 * that finds it read takes it without the lock */
#define MODEL_SLOTS 16
static _Atomic(lcp_auto_model *) builtin;
static struct {
    char path[1024];
    long long size, mtime_ns, used;
    int users;
    lcp_auto_model *m;
} slots[MODEL_SLOTS];
static long long slot_clock;

int lcp_choose_auto_model(const lcp_problem *p, const char *path, lcp_auto_choice *ch, lcp_err *err)
{
    lcp_auto_model *m = NULL;
    int owned = 0, slot = -1; /* owned: a model read for this solve alone (no slot left): freed after it */
    struct stat st;
    long long size = -1, mt = -1;
    if (!path && (m = atomic_load_explicit(&builtin, memory_order_acquire)))
        return lcp_choose_auto_with(p, m, ch, err);
    if (path && stat(path, &st) == 0) size = (long long)st.st_size, mt = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
#ifdef _OPENMP
#pragma omp critical(lcp_auto_model_cache)
#endif
    {
        if (!path) {
            m = atomic_load_explicit(&builtin, memory_order_relaxed);
            if (!m && (m = lcp_auto_model_load(NULL, err))) atomic_store_explicit(&builtin, m, memory_order_release);
        } else {
            int k = 0, free_slot = -1;
            for (; k < MODEL_SLOTS; k++) {
                if (!slots[k].m) {
                    if (free_slot < 0) free_slot = k;
                    continue;
                }
                if (!strcmp(slots[k].path, path) && slots[k].size == size && slots[k].mtime_ns == mt) break;
            }
            if (k == MODEL_SLOTS && free_slot < 0) /* all taken: the least recently used that nobody reads */
                for (int j = 0; j < MODEL_SLOTS; j++)
                    if (!slots[j].users && (free_slot < 0 || slots[j].used < slots[free_slot].used)) free_slot = j;
            if (k < MODEL_SLOTS) {
                m = slots[k].m;
                slot = k;
            } else if ((m = lcp_auto_model_load(path, err))) {
                if (free_slot >= 0) {
                    lcp_auto_model_free(slots[free_slot].m);
                    snprintf(slots[free_slot].path, sizeof slots[free_slot].path, "%s", path);
                    slots[free_slot].size = size;
                    slots[free_slot].mtime_ns = mt;
                    slots[free_slot].m = m;
                    slot = free_slot;
                } else {
                    owned = 1;
                }
            }
            if (slot >= 0) slots[slot].users++, slots[slot].used = ++slot_clock;
        }
    }
    if (!m) return LCP_INPUT_ERROR;
    int rc = lcp_choose_auto_with(p, m, ch, err);
    if (owned) lcp_auto_model_free(m);
    if (slot >= 0) {
#ifdef _OPENMP
#pragma omp critical(lcp_auto_model_cache)
#endif
        slots[slot].users--;
    }
    return rc;
}

int lcp_choose_auto(const lcp_problem *p, lcp_auto_choice *ch, lcp_err *err)
{
    return lcp_choose_auto_model(p, NULL, ch, err);
}


/* the budgets of candidate c in round r: GROW^r times the first round's time budget; in the first round a
 * first-order candidate is also cut by its rate against the fastest prediction of those after it */
#define GROW 4.0
#define MAX_ROUNDS 9
static void budgets(const lcp_auto_choice *ch, int c, int round, int user_max, lcp_auto_run *r)
{
    double g = pow(GROW, round), it = ch->cand[c].budget * g;
    r->max_iter = ch->cand[c].budget > 0 && it < user_max ? (int)it : 0;
    r->time_limit = ch->cand[c].time_budget * g;
    r->switch_cpu = 0;
    r->switch_by_rate = (ch->cand[c].solver->flags & LCP_SOLVER_LINEAR) != 0;
    /* each next is no faster than predicted by what the runs so far have shown: for a first-order run (its
     * own rate says what it still needs) by what the runs of the next's kind have shown (a first-order
     * method's iterations can grow with the problem where a direct one's work does not: a findex pyramid
     * of 4,332 rows, twice the corpus's largest, took psor 12 times its prediction and pivot its own); for
     * a run without a rate by the most any run has shown, once two runs have shown it (that one method
     * stalled does not say the next will) */
    for (int k = c + 1; round == 0 && k < ch->ncand; k++) {
        double t = ch->cand[k].t_scaled;
        if (!(isfinite(t) && t > 0)) continue;
        if (r->switch_by_rate) t *= r->slow_kind[(ch->cand[k].solver->flags & LCP_SOLVER_LINEAR) != 0];
        else if (r->slow_runs >= 2) t *= lcp_auto_slow(r);
        if (r->switch_cpu == 0 || t < r->switch_cpu) r->switch_cpu = t;
    }
}

double lcp_auto_slow(const lcp_auto_run *r)
{
    return fmax(r->slow_kind[0], r->slow_kind[1]);
}

void lcp_auto_begin(const lcp_auto_choice *ch, const lcp_solver *sv, const lcp_precond_type *precond, int user_max,
                    lcp_auto_run *r)
{
    *r = (lcp_auto_run){.solver = sv, .precond = precond, .start = LCP_AUTO_FROM_ZERO, .slow_kind = {1, 1}};
    for (int c = 0; c < LCP_AUTO_MAXCAND; c++) r->order[c] = c, r->rest[c] = INFINITY;
    if (ch->ncand > 1 && sv == ch->cand[0].solver) budgets(ch, 0, 0, user_max, r);
}

/* a longer round's order: the candidates that go on from their own best iterate (kept), by the time their
 * rate said they still needed, first; then the others in the predicted order */
static void round_order(const lcp_auto_choice *ch, lcp_auto_run *r)
{
    int n = 0;
    for (int c = 0; c < ch->ncand; c++) {
        if (!(r->kept & (1u << c)) || !isfinite(r->rest[c])) continue;
        int q = n++;
        for (; q > 0 && r->rest[r->order[q - 1]] > r->rest[c]; q--) r->order[q] = r->order[q - 1];
        r->order[q] = c;
    }
    for (int c = 0; c < ch->ncand; c++)
        if (!(r->kept & (1u << c)) || !isfinite(r->rest[c])) r->order[n++] = c;
}

int lcp_auto_next(const lcp_auto_choice *ch, const lcp_problem *p, int user_max, lcp_status status, int cut,
                  int progressed, double taken, double rest, lcp_auto_run *r)
{
    int budgeted = r->max_iter > 0 || r->time_limit > 0 || r->switch_cpu > 0;
    int stopped = status == LCP_ERROR || (budgeted && (status == LCP_MAX_ITER || status == LCP_STALLED || cut));
    if (!stopped || ch->ncand < 2) return 0;
    if (cut && r->stage < ch->ncand) { /* slower than predicted: the others' predictions likely too (shared neighbours) */
        const lcp_auto_cand *c = &ch->cand[r->stage];
        double pred = isfinite(c->t_scaled) && c->t_scaled > 0 ? c->t_scaled : c->t_pred;
        double *kind = &r->slow_kind[(c->solver->flags & LCP_SOLVER_LINEAR) != 0];
        if (isfinite(pred) && pred > 0 && taken / pred > *kind) *kind = taken / pred;
        if (isfinite(pred) && pred > 0 && (taken > pred || (cut == LCP_CUT_RATE && !(rest < INFINITY)))) r->slow_runs++;
    }
    if (status == LCP_ERROR) r->dead |= 1u << r->stage; /* a breakdown: not again */
    if (r->stage < ch->ncand) r->rest[r->stage] = cut && rest > 0 ? rest : INFINITY;
    /* the next candidate that has not broken down; after the last, the next round on GROW times the budgets,
     * in its order (round_order) */
    int pos = r->pos, round = r->round, stage = r->order[pos];
    for (int tries = 0; tries < ch->ncand; tries++) {
        if (++pos >= ch->ncand) pos = 0, round++, round_order(ch, r);
        stage = r->order[pos];
        if (!(r->dead & (1u << stage))) break;
    }
    if (round >= MAX_ROUNDS || (r->dead & (1u << stage))) return 0;
    const lcp_auto_cand *c = &ch->cand[stage];
    if (lcp_solver_check(c->solver, p, NULL)) return 0;
    /* cut for its rate, with progress made: a first-order method goes on from the best iterate */
    int warm = cut == LCP_CUT_RATE && progressed && round == r->round && (c->solver->flags & LCP_SOLVER_LINEAR);
    r->stage = stage;
    r->pos = pos;
    r->round = round;
    r->solver = c->solver;
    r->precond = c->precond;
    budgets(ch, stage, round, user_max, r);
    /* a longer round of a first-order candidate goes on from its own best iterate (it converges from any
     * start, and its state is the iterate); others start afresh (admm resumed from its iterate loses its rho
     * and dual: on a granular pile 4,000 iterations where 1,500 from zero solve it) */
    int own = !warm && round > 0 && (r->kept & (1u << stage)) && (c->solver->flags & LCP_SOLVER_LINEAR);
    r->start = warm ? LCP_AUTO_FROM_BEST : own ? LCP_AUTO_FROM_OWN : LCP_AUTO_FROM_ZERO;
    r->what = warm ? "from the best iterate (the rate was too slow)"
              : own ? "from its best iterate of the round before (a longer round)"
              : cut == LCP_CUT_RATE ? "from zero (the rate was too slow)"
              : cut == LCP_CUT_STEP ? "from zero (a factorisation predicted past its time)"
              : cut == LCP_CUT_NEXT ? "from zero (it ran past 3 times the next's predicted time)"
              : round                ? "from zero (a longer round)"
                                     : "from zero";
    return 1;
}
