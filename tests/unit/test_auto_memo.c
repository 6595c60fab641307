/* tests/unit/test_auto_memo.c: auto's choice kept on a thread
 * (src/core/auto_memo.c) is given back only for the same problem but b's
 * values -- the same choice, bit for bit, as computing it gives -- and for
 * nothing that differs in what the choice reads; a batch's problems of one
 * pattern share the choice made for the first (lcp_solve_opts.auto_given),
 * and one it does not solve chooses for itself. */
#include "check.h"
#include "../../src/core/auto.h"
#include "../../src/core/auto_memo.h"
#include "../../src/core/pipeline.h"
#include "../../src/scenes/scenes.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static int same_choice(const lcp_auto_choice *a, const lcp_auto_choice *b)
{
    if (a->solver != b->solver || a->precond != b->precond || a->ncand != b->ncand) return 0;
    if (strcmp(a->reason, b->reason) || strcmp(a->predicted, b->predicted)) return 0;
    for (int c = 0; c < a->ncand; c++)
        if (a->cand[c].solver != b->cand[c].solver || a->cand[c].budget != b->cand[c].budget ||
            memcmp(&a->cand[c].time_budget, &b->cand[c].time_budget, sizeof(double)))
            return 0;
    return memcmp(a->f.v, b->f.v, sizeof a->f.v) == 0;
}

static int gen(const char *scene, const char *const *opts, lcp_problem *p)
{
    lcp_err e;
    lcp_problem_init(p);
    return lcp_generate_problem(scene, opts, p, &e);
}

/* A = a I (2 x 2), b = (-1, -1): with a = -1 no solution (w = -x - 1 < 0) */
static int diagonal(lcp_problem *p, double a, lcp_err *e)
{
    const int ti[2] = {0, 1}, tj[2] = {0, 1};
    const double tx[2] = {a, a};
    lcp_problem_init(p);
    p->kind = LCP_KIND_LCP;
    if (lcp_csr_from_triplets(&p->A, 2, 2, 2, ti, tj, tx) || !(p->b = malloc(2 * sizeof(double)))) return 1;
    p->b[0] = p->b[1] = -1;
    p->blen = 2;
    return lcp_problem_finish(p, e);
}

static void *other_thread(void *arg)
{
    lcp_auto_choice ch;
    return (void *)(long)lcp_auto_memo_get(arg, NULL, &ch);
}

int main(void)
{
    lcp_problem p, q;
    lcp_auto_choice fresh, kept, again;
    lcp_err e;
    /* 140 unknowns: more than pivot's small path takes (128), which solves before any choice */
    const char *spd[] = {"size", "140", "density", "1", "cond", "1e3", "seed", "3", NULL};
    CHECK(gen("random-spd", spd, &p) == 0);
    CHECK(lcp_auto_memo_get(&p, NULL, &kept) == 0); /* nothing kept yet */
    CHECK(lcp_choose_auto(&p, &fresh, &e) == 0);
    lcp_auto_memo_put(&p, NULL, &fresh);
    CHECK(lcp_auto_memo_get(&p, NULL, &kept) == 1);
    CHECK(same_choice(&fresh, &kept));
    CHECK(kept.time_s == 0);
    CHECK(lcp_auto_memo_get(&p, "models/other.model", &kept) == 0); /* another model */

    /* b's values, its signs kept: the same choice, as computing it again gives */
    for (int i = 0; i < p.n; i++) p.b[i] *= 1.5;
    CHECK(lcp_auto_memo_get(&p, NULL, &kept) == 1);
    CHECK(lcp_choose_auto(&p, &again, &e) == 0);
    CHECK(same_choice(&again, &kept));

    /* a sign of b (a contact that opens): the opening fraction is a feature */
    int k = 0;
    while (k < p.n && p.b[k] <= 0) k++;
    CHECK(k < p.n);
    double bk = p.b[k];
    p.b[k] = -bk;
    CHECK(lcp_auto_memo_get(&p, NULL, &kept) == 0);
    p.b[k] = bk;
    CHECK(lcp_auto_memo_get(&p, NULL, &kept) == 1);

    /* one entry of A, the bounds, the kind */
    double a0 = p.A.x[3];
    p.A.x[3] = a0 * (1 + 1e-15) + 1e-300;
    CHECK(lcp_auto_memo_get(&p, NULL, &kept) == 0);
    p.A.x[3] = a0;
    double *hi = malloc((size_t)p.n * sizeof(double));
    for (int i = 0; i < p.n; i++) hi[i] = 1;
    p.hi = hi;
    CHECK(lcp_auto_memo_get(&p, NULL, &kept) == 0);
    p.hi = NULL;
    free(hi);
    lcp_kind kind = p.kind;
    p.kind = LCP_KIND_BLCP;
    CHECK(lcp_auto_memo_get(&p, NULL, &kept) == 0);
    p.kind = kind;
    CHECK(lcp_auto_memo_get(&p, NULL, &kept) == 1);

    /* another thread keeps its own (none) */
    pthread_t t;
    void *hit = (void *)1;
    CHECK(pthread_create(&t, NULL, other_thread, &p) == 0 && pthread_join(t, &hit) == 0);
    CHECK(hit == NULL);

    /* a friction problem: mu is read */
    const char *fc[] = {"bodies", "4", "mu", "0.5", NULL};
    CHECK(gen("column", fc, &q) == 0);
    lcp_auto_choice fq;
    CHECK(lcp_choose_auto(&q, &fq, &e) == 0);
    lcp_auto_memo_put(&q, NULL, &fq);
    CHECK(lcp_auto_memo_get(&p, NULL, &kept) == 0); /* one kept a thread: the last */
    CHECK(lcp_auto_memo_get(&q, NULL, &kept) == 1 && same_choice(&fq, &kept));
    if (q.mu && q.nmu > 0) {
        q.mu[0] *= 2;
        CHECK(lcp_auto_memo_get(&q, NULL, &kept) == 0);
        q.mu[0] /= 2;
    }

    /* too large to keep: not kept (the last stays) */
    const char *big[] = {"size", "700", "density", "1", "seed", "1", NULL}; /* 5.9 MB > LCP_AUTO_MEMO_BYTES */
    lcp_problem r;
    CHECK(gen("random-spd", big, &r) == 0);
    lcp_auto_memo_put(&r, NULL, &fq);
    CHECK(lcp_auto_memo_get(&r, NULL, &kept) == 0);
    CHECK(lcp_auto_memo_get(&q, NULL, &kept) == 1);

    lcp_auto_memo_forget();
    CHECK(lcp_auto_memo_get(&q, NULL, &kept) == 0);
    lcp_auto_memo_put(&q, NULL, &fq);

    /* through the pipeline: a second solve gives the same answer and reason */
    lcp_solve_opts o;
    lcp_solve_opts_default(&o);
    lcp_solve_out a, b;
    CHECK(lcp_pipeline_solve(&p, &o, NULL, 0, NULL, &a, &e) == 0);
    CHECK(lcp_pipeline_solve(&p, &o, NULL, 0, NULL, &b, &e) == 0);
    CHECK(a.status == LCP_SOLVED && b.status == LCP_SOLVED);
    CHECK(!strcmp(a.auto_reason, b.auto_reason) && a.solver == b.solver);
    CHECK(memcmp(a.x, b.x, (size_t)p.n * sizeof(double)) == 0);
    CHECK(b.auto_time_s <= a.auto_time_s);
    lcp_solve_out_free(&a);
    lcp_solve_out_free(&b);

    /* a batch's shared choice: one pattern whatever the values; the first problem of each pattern leads */
    lcp_problem p2;
    CHECK(gen("random-spd", spd, &p2) == 0);
    for (int i = 0; i < p2.A.p[p2.n]; i++) p2.A.x[i] *= 1.25;
    for (int i = 0; i < p2.n; i++) p2.b[i] = -p2.b[i] - 0.5;
    CHECK(lcp_auto_same_pattern(&p, &p2) == 1);
    CHECK(lcp_auto_same_pattern(&p, &q) == 0);
    CHECK(lcp_auto_memo_get(&p2, NULL, &kept) == 0); /* the thread's memo: not the same problem */
    const lcp_problem *batch[5] = {&q, &p, &p2, NULL, &q};
    lcp_auto_share sh;
    lcp_auto_share_init(&sh, batch, 5, NULL);
    CHECK(sh.n == 5 && sh.lead[0] == 0 && sh.lead[1] == 1 && sh.lead[2] == 1 && sh.lead[3] == 3 && sh.lead[4] == 0);
    CHECK(lcp_auto_share_made(&sh, 0) && lcp_auto_share_made(&sh, 1) && lcp_auto_share_made(&sh, 3));
    CHECK(!lcp_auto_share_made(&sh, 2) && !lcp_auto_share_made(&sh, 4));
    CHECK(!lcp_auto_share_given(&sh, 2) && !lcp_auto_share_given(&sh, 0)); /* the leader's solve made none yet */
    lcp_auto_share_made(&sh, 1)->solver = lcp_solver_find("pgs");
    CHECK(lcp_auto_share_given(&sh, 2) == lcp_auto_share_made(&sh, 1) && !lcp_auto_share_given(&sh, 4));
    lcp_auto_share_free(&sh);
    CHECK(sh.n == 0 && !lcp_auto_share_made(&sh, 0));
    /* the same a problem at a time, each added once it is there (lcpsolve batch, as it reads) */
    {
        const lcp_problem *seen[5] = {NULL, NULL, NULL, NULL, NULL};
        lcp_auto_share_begin(&sh, 5);
        for (int i = 0; i < 5; i++) {
            seen[i] = batch[i];
            lcp_auto_share_add(&sh, seen, i, NULL);
        }
        CHECK(sh.n == 5 && sh.lead[0] == 0 && sh.lead[1] == 1 && sh.lead[2] == 1 && sh.lead[3] == 3 && sh.lead[4] == 0);
        CHECK(lcp_auto_share_made(&sh, 0) && lcp_auto_share_made(&sh, 1) && lcp_auto_share_made(&sh, 3));
        CHECK(!lcp_auto_share_made(&sh, 2) && !lcp_auto_share_made(&sh, 4));
        lcp_auto_share_free(&sh);
    }
    /* problems of up to 16 unknowns that a solve with o begins by the small path need no choice: each leads
     * itself, none kept; without o (or with a setting that skips the small path: --reg) they share */
    {
        const char *s8[] = {"size", "8", "density", "1", "seed", "5", NULL}, *s8b[] = {"size", "8", "density", "1", "seed", "6", NULL};
        lcp_problem t1, t2;
        CHECK(gen("random-spd", s8, &t1) == 0 && gen("random-spd", s8b, &t2) == 0 && lcp_auto_same_pattern(&t1, &t2));
        const lcp_problem *tiny[2] = {&t1, &t2};
        lcp_auto_share ts;
        lcp_auto_share_init(&ts, tiny, 2, &o);
        CHECK(ts.lead[0] == 0 && ts.lead[1] == 1 && !lcp_auto_share_made(&ts, 0) && !lcp_auto_share_made(&ts, 1));
        lcp_auto_share_free(&ts);
        lcp_auto_share_init(&ts, tiny, 2, NULL);
        CHECK(ts.lead[1] == 0 && lcp_auto_share_made(&ts, 0));
        lcp_auto_share_free(&ts);
        lcp_solve_opts reg = o;
        reg.reg = 1e-9;
        lcp_auto_share_init(&ts, tiny, 2, &reg);
        CHECK(ts.lead[1] == 0 && lcp_auto_share_made(&ts, 0));
        lcp_auto_share_free(&ts);
        lcp_problem_free(&t1);
        lcp_problem_free(&t2);
    }
    lcp_auto_choice made;
    memset(&made, 0, sizeof made);
    o.auto_made = &made;
    CHECK(lcp_pipeline_solve(&p, &o, NULL, 0, NULL, &a, &e) == 0);
    CHECK(made.solver == a.solver && !strcmp(made.reason, a.auto_reason));
    lcp_solve_out_free(&a);
    o.auto_made = NULL;
    o.auto_given = &made;
    CHECK(lcp_pipeline_solve(&p2, &o, NULL, 0, NULL, &a, &e) == 0);
    CHECK(a.status == LCP_SOLVED && a.auto_shared == 1 && a.auto_time_s == 0 && a.solver == made.solver);
    CHECK(strstr(a.auto_reason, "the choice made for the first problem of this pattern") != NULL);
    lcp_solve_out_free(&a);
    /* where the given choice does not solve, auto chooses for the problem: A = I, then A = -I (no solution) */
    lcp_problem d1, d2;
    CHECK(diagonal(&d1, 1.0, &e) == 0 && diagonal(&d2, -1.0, &e) == 0);
    CHECK(lcp_auto_same_pattern(&d1, &d2) == 1);
    o.auto_given = NULL;
    o.auto_made = &made;
    CHECK(lcp_pipeline_solve(&d1, &o, NULL, 0, NULL, &a, &e) == 0 && a.status == LCP_SOLVED);
    lcp_solve_out_free(&a);
    o.auto_made = NULL;
    o.auto_given = &made;
    lcp_pipeline_solve(&d2, &o, NULL, 0, NULL, &a, &e);
    CHECK(a.status != LCP_SOLVED && a.auto_shared == 0 && a.auto_time_s > 0);
    lcp_solve_out_free(&a);
    lcp_problem_free(&d1);
    lcp_problem_free(&d2);
    lcp_problem_free(&p2);
    lcp_problem_free(&p);
    lcp_problem_free(&q);
    lcp_problem_free(&r);
    CHECK_DONE();
}
