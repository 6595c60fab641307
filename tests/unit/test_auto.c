/* tests/unit/test_auto.c: --solver auto's prediction (src/core/auto.c) on
 * hand-written models, against the same prediction computed here by brute
 * force (every distance, sorted).  The samples differ from the problem's
 * own features in log_n (the first block of four features the search sums)
 * or in offdiag_pos_share (the last), ten of them nearly tied (offsets 1.00
 * ... 1.09) and listed farthest first, then thirty farther ones in a
 * shuffled order: the search must take each nearer one in, and stops early
 * on the farther ones.  Configuration pgs is slow on the nearest five and
 * fast beyond, lemke slower still: a wrong neighbour shows in the ranking
 * or in the predicted time, the weighted (1 / (0.1 + distance)) geometric
 * mean of the neighbours' times.  Then the same with one family left out
 * (leave-one-family-out: the model's scaling computed anew), and a model
 * without a problem of the kind (the fixed order of the build's solvers). */
#include "check.h"
#include "core/auto.h"
#include "io/io.h"
#include "scenes/scenes.h"
#include "solvers/pivot_small.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS 40

static double off[NS], tp[NS], tl[NS];
static int feat_of(int i) { return i % 2 ? LCP_NFEATURES - 1 : 0; }

/* the expected predicted times of pgs and lemke over the samples i with keep[i] */
static void expect(const int *keep, double *pgs, double *lemke, int *nearest)
{
    double mean[2] = {0, 0}, ss[2] = {0, 0}, sd[2], d[NS];
    int n = 0, idx[NS];
    for (int i = 0; i < NS; i++)
        if (keep[i]) mean[0] += feat_of(i) == 0 ? off[i] : 0, mean[1] += feat_of(i) ? off[i] : 0, n++;
    mean[0] /= n, mean[1] /= n;
    for (int i = 0; i < NS; i++)
        if (keep[i]) {
            double x0 = feat_of(i) == 0 ? off[i] : 0, x1 = feat_of(i) ? off[i] : 0;
            ss[0] += (x0 - mean[0]) * (x0 - mean[0]), ss[1] += (x1 - mean[1]) * (x1 - mean[1]);
        }
    sd[0] = sqrt(ss[0] / (n - 1)), sd[1] = sqrt(ss[1] / (n - 1));
    int m = 0;
    for (int i = 0; i < NS; i++)
        if (keep[i]) d[i] = off[i] / sd[feat_of(i) ? 1 : 0], idx[m++] = i;
    for (int a = 1; a < m; a++) /* by distance */
        for (int b = a; b > 0 && d[idx[b - 1]] > d[idx[b]]; b--) {
            int t = idx[b];
            idx[b] = idx[b - 1], idx[b - 1] = t;
        }
    double sw = 0, slp = 0, sll = 0;
    for (int q = 0; q < LCP_AUTO_KNN; q++) {
        double w = 1 / (0.1 + d[idx[q]]);
        sw += w, slp += w * log(tp[idx[q]]), sll += w * log(tl[idx[q]]);
    }
    *pgs = exp(slp / sw), *lemke = exp(sll / sw), *nearest = idx[0];
}

/* a choice of n candidates by hand: solver c predicted pred[c] s (scaled alike), a time budget of 0.02 s each */
static lcp_auto_choice candidates(int n, const lcp_solver *const *sv, const double *pred)
{
    lcp_auto_choice ch = {0};
    ch.ncand = n;
    for (int c = 0; c < n; c++) ch.cand[c] = (lcp_auto_cand){sv[c], NULL, pred[c], pred[c], 0, 0.02};
    return ch;
}

int main(void)
{
    lcp_problem p;
    lcp_err e = {{0}};
    lcp_problem_init(&p);
    CHECK(lcp_read_problem("problems/murty-8", LCP_KIND_NONE, &p, &e) == 0); /* from the repository root */
    if (!p.n) CHECK_DONE();
    lcp_features f;
    CHECK(lcp_features_compute(&p, &f) == 0);

    /* the model: the nearly tied ten farthest first, then the rest shuffled */
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    int order[NS], keep[NS];
    for (int i = 0; i < NS; i++) {
        off[i] = i < 10 ? 1 + 0.01 * i : 2 + 0.1 * i;
        tp[i] = i < 5 ? 1e-3 * (i + 1) : 1e-5; /* pgs: slow on the five nearest, fast beyond */
        tl[i] = i < 5 ? 2e-2 : 1e-1;           /* lemke: slower than pgs near, slower still far */
        order[i] = i < 10 ? 9 - i : 10 + (7 * (i - 10) + 3) % 30;
        keep[i] = 1;
    }
    len += (size_t)snprintf(text + len, cap - len, "lcpsolve-auto-model 1\ntime-limit 1\nfeatures");
    for (int j = 0; j < LCP_NFEATURES; j++) len += (size_t)snprintf(text + len, cap - len, " %s", lcp_feature_names[j]);
    len += (size_t)snprintf(text + len, cap - len, "\nconfig lcp pgs none\nconfig lcp lemke none\n");
    for (int r = 0; r < NS; r++) {
        int i = order[r];
        len += (size_t)snprintf(text + len, cap - len, "problem lcp fam%d s%d", i % 3, i);
        for (int j = 0; j < LCP_NFEATURES; j++)
            len += (size_t)snprintf(text + len, cap - len, " %.17g", f.v[j] + (j == feat_of(i) ? off[i] : 0));
        len += (size_t)snprintf(text + len, cap - len, " %.17g 10 %.17g 20\n", tp[i], tl[i]);
    }
    CHECK(len < cap);
    lcp_auto_model *m = lcp_auto_model_parse(text, "test.model", &e);
    CHECK(m != NULL);
    if (!m) {
        printf("%s\n", e.msg);
        CHECK_DONE();
    }
    CHECK(lcp_auto_model_size(m) == NS);

    double want_pgs, want_lemke;
    int nearest;
    expect(keep, &want_pgs, &want_lemke, &nearest);
    char near_name[32];
    snprintf(near_name, sizeof near_name, "the nearest fam%d/s%d", nearest % 3, nearest);
    lcp_auto_choice ch;
    CHECK(lcp_choose_auto_with(&p, m, &ch, &e) == 0);
    CHECK(ch.neighbours == LCP_AUTO_KNN);
    CHECK(ch.ncand == 2 && !strcmp(ch.solver->name, "pgs"));
    CHECK(ch.ncand == 2 && !strcmp(ch.cand[1].solver->name, "lemke"));
    CHECK(ch.probe && !strcmp(ch.probe->name, "pgs")); /* the model measured pgs: auto's probe may run it */
    CHECK_NEAR(ch.cand[0].t_pred, want_pgs, 1e-12 * want_pgs);
    CHECK_NEAR(ch.cand[1].t_pred, want_lemke, 1e-12 * want_lemke);
    CHECK(strstr(ch.reason, near_name) != NULL);
    char g3[32], want[96];
    lcp_fmt_g3(want_pgs, g3);
    snprintf(want, sizeof want, "pgs=%s,lemke=", g3);
    CHECK(!strncmp(ch.predicted, want, strlen(want)));
    /* the same bits a second time (nothing kept from one choice to the next) */
    lcp_auto_choice ch2;
    CHECK(lcp_choose_auto_with(&p, m, &ch2, &e) == 0);
    CHECK(ch2.cand[0].t_pred == ch.cand[0].t_pred && ch2.cand[1].t_pred == ch.cand[1].t_pred &&
          !strcmp(ch2.predicted, ch.predicted) && !strcmp(ch2.reason, ch.reason));

    /* a family left out: the five nearest of the rest, on the rest's scaling */
    for (int i = 0; i < NS; i++) keep[i] = i % 3 != 0;
    CHECK(lcp_auto_model_drop_family(m, "fam0") == NS - (NS + 2) / 3);
    expect(keep, &want_pgs, &want_lemke, &nearest);
    snprintf(near_name, sizeof near_name, "the nearest fam%d/s%d", nearest % 3, nearest);
    CHECK(lcp_choose_auto_with(&p, m, &ch, &e) == 0);
    CHECK(strstr(ch.reason, near_name) != NULL);
    for (int c = 0; c < ch.ncand; c++) {
        double want_c = !strcmp(ch.cand[c].solver->name, "pgs") ? want_pgs : want_lemke;
        CHECK_NEAR(ch.cand[c].t_pred, want_c, 1e-12 * want_c);
    }
    CHECK(ch.ncand == 2 && ch.cand[0].t_pred <= ch.cand[1].t_pred);

    lcp_auto_model_free(m);

    /* the spectrum's and the graph's features only where they cost a tenth of the predicted solve at most:
     * 2K samples like Murty's example in all but log_cond (K = LCP_AUTO_KNN), listed farthest first; lemke
     * fast on the K listed first (far in log_cond), pgs on the K nearest.  Predicted in microseconds (the
     * complete features would cost more than a tenth): log_cond not computed, all at distance 0, the first K
     * listed taken, lemke first; the same times 1e6: log_cond computed, the nearest K, pgs first. */
    CHECK(f.complete == 1 && LCP_FEATURE_COMPLETE_FIRST <= 7 && 7 <= LCP_FEATURE_COMPLETE_LAST);
    for (int big = 0; big < 2; big++) {
        double unit = big ? 1.0 : 1e-6;
        len = (size_t)snprintf(text, cap, "lcpsolve-auto-model 1\ntime-limit 1\nfeatures");
        for (int j = 0; j < LCP_NFEATURES; j++) len += (size_t)snprintf(text + len, cap - len, " %s", lcp_feature_names[j]);
        len += (size_t)snprintf(text + len, cap - len, "\nconfig lcp pgs none\nconfig lcp lemke none\n");
        for (int i = 0; i < 2 * LCP_AUTO_KNN; i++) {
            int far = i < LCP_AUTO_KNN;
            len += (size_t)snprintf(text + len, cap - len, "problem lcp fam s%d", i);
            for (int j = 0; j < LCP_NFEATURES; j++)
                len += (size_t)snprintf(text + len, cap - len, " %.17g", f.v[j] + (j == 7 ? (far ? 10.0 - i : 0.01 * i) : 0));
            len += (size_t)snprintf(text + len, cap - len, " %.17g 10 %.17g 20\n", (far ? 4 : 1) * unit, (far ? 1 : 4) * unit);
        }
        m = lcp_auto_model_parse(text, "cond.model", &e);
        CHECK(m != NULL);
        if (!m) break;
        CHECK(lcp_features_complete_cost(&p) > 0.1 * 1e-6 && lcp_features_complete_cost(&p) < 0.1 * 1.0);
        CHECK(lcp_choose_auto_with(&p, m, &ch, &e) == 0);
        CHECK(ch.f.complete == big);
        CHECK(!strcmp(ch.solver->name, big ? "pgs" : "lemke"));
        CHECK((strstr(ch.reason, "but the spectrum's and the graph's") != NULL) == !big);
        CHECK(big ? ch.f.v[7] == f.v[7] : ch.f.v[7] == 0.0);
        CHECK_NEAR(ch.cand[0].t_pred, unit, 1e-12 * unit);
        lcp_auto_model_free(m);
    }

    /* the time budgets where the problem is larger than its neighbours (log_n 0.5 above theirs: nonzeros
     * sqrt(10) times theirs): the round's budget is the first candidate's, 10 times its neighbours' time
     * grown linearly (pgs, 1 ms: 31.6 ms); pivot, which does not resume, has its own, grown with the square
     * (1 ms x 10 x 10 = 0.1 s) */
    len = (size_t)snprintf(text, cap, "lcpsolve-auto-model 1\ntime-limit 1\nfeatures");
    for (int j = 0; j < LCP_NFEATURES; j++) len += (size_t)snprintf(text + len, cap - len, " %s", lcp_feature_names[j]);
    len += (size_t)snprintf(text + len, cap - len, "\nconfig lcp pgs none\nconfig lcp pivot none\n");
    for (int i = 0; i < LCP_AUTO_KNN; i++) {
        len += (size_t)snprintf(text + len, cap - len, "problem lcp fam g%d", i);
        for (int j = 0; j < LCP_NFEATURES; j++) len += (size_t)snprintf(text + len, cap - len, " %.17g", f.v[j] - (j == 0 ? 0.5 : 0));
        len += (size_t)snprintf(text + len, cap - len, " 1e-3 10 1e-3 8\n");
    }
    m = lcp_auto_model_parse(text, "growth.model", &e);
    CHECK(m != NULL);
    if (m) {
        CHECK(lcp_choose_auto_with(&p, m, &ch, &e) == 0);
        CHECK(ch.ncand == 2 && !strcmp(ch.cand[0].solver->name, "pgs") && !strcmp(ch.cand[1].solver->name, "pivot"));
        CHECK_NEAR(ch.cand[0].time_budget, 10 * 1e-3 * sqrt(10.0), 1e-9);
        CHECK_NEAR(ch.cand[1].time_budget, 10 * 1e-3 * 10.0, 1e-9);
        lcp_auto_model_free(m);
    }

    /* pivot's method changes past its small path (regime_n, LCP_SMALL_N unknowns): its time on a column of
     * 1,100 spheres is predicted from the measured problems of more than 1,024 unknowns alone (here 1,380:
     * pivot 0.1 s, pgs 1 ms), not from the nearer ones of 980 (block steps, 10 us); on a column of 980 from
     * those */
    lcp_problem big;
    lcp_problem_init(&big);
    const char *cargs[] = {"bodies", "1100", NULL};
    CHECK(lcp_generate_problem("column", cargs, &big, &e) == 0 && big.n == 1100);
    lcp_features fb;
    CHECK(lcp_features_compute(&big, &fb) == 0);
    len = (size_t)snprintf(text, cap, "lcpsolve-auto-model 1\ntime-limit 1\nfeatures");
    for (int j = 0; j < LCP_NFEATURES; j++) len += (size_t)snprintf(text + len, cap - len, " %s", lcp_feature_names[j]);
    len += (size_t)snprintf(text + len, cap - len, "\nconfig lcp pgs none\nconfig lcp pivot none\n");
    for (int i = 0; i < 2 * LCP_AUTO_KNN; i++) {
        double dn = i % 2 ? log10(980.0) - fb.v[0] : log10(1380.0) - fb.v[0]; /* below the regime, above it */
        len += (size_t)snprintf(text + len, cap - len, "problem lcp fam r%d", i);
        for (int j = 0; j < LCP_NFEATURES; j++) len += (size_t)snprintf(text + len, cap - len, " %.17g", fb.v[j] + (j == 0 ? dn : 0));
        len += (size_t)snprintf(text + len, cap - len, i % 2 ? " 1e-3 100 1e-5 1\n" : " 1e-3 100 1e-1 900\n");
    }
    m = lcp_auto_model_parse(text, "regime.model", &e);
    CHECK(m != NULL);
    if (m) {
        CHECK(lcp_choose_auto_with(&big, m, &ch, &e) == 0);
        CHECK(ch.ncand >= 2 && !strcmp(ch.cand[0].solver->name, "pgs") && !strcmp(ch.cand[1].solver->name, "pivot"));
        CHECK(ch.ncand >= 2 && ch.cand[1].t_pred > 1e-2); /* (from the 1,380s alone) */
        lcp_problem_free(&big);
        lcp_problem_init(&big);
        const char *sargs[] = {"bodies", "980", NULL};
        CHECK(lcp_generate_problem("column", sargs, &big, &e) == 0 && big.n == 980);
        CHECK(lcp_choose_auto_with(&big, m, &ch, &e) == 0);
        CHECK(ch.ncand >= 1 && !strcmp(ch.cand[0].solver->name, "pivot") && ch.cand[0].t_pred < 1e-3);
        printf("auto on columns of 1,100 and 980 spheres beside pivot's regime (%d unknowns): pgs, then pivot\n",
               LCP_SMALL_N);
        lcp_auto_model_free(m);
    }
    lcp_problem_free(&big);
    free(text);

    /* a model without a measured problem of the kind: every solver of the build that takes the problem, in
     * the fixed order (pgs first), nothing predicted ("-1"); the box-only mprgp (with ichol) only where A is
     * symmetric: on a column of spheres, not on Murty's example */
    m = lcp_auto_model_parse("lcpsolve-auto-model 1\nconfig fc3d nsgs none\n", "empty.model", &e);
    CHECK(m != NULL);
    if (m) {
        CHECK(lcp_choose_auto_with(&p, m, &ch, &e) == 0);
        CHECK(ch.neighbours == 0 && ch.ncand >= 2 && !strcmp(ch.solver->name, "pgs"));
        CHECK(!strncmp(ch.reason, "auto: pgs (empty.model holds no measured lcp problem: the configurations in order",
                       strlen("auto: pgs (empty.model holds no measured lcp problem: the configurations in order")));
        CHECK(!strncmp(ch.predicted, "pgs=-1,", 7) && !strstr(ch.predicted, "mprgp"));
        CHECK(ch.probe == NULL); /* nothing measured: no probe, though pgs is ranked */
        lcp_problem col;
        lcp_problem_init(&col);
        CHECK(lcp_read_problem("problems/column-20", LCP_KIND_NONE, &col, &e) == 0);
        if (col.n) {
            CHECK(lcp_choose_auto_with(&col, m, &ch, &e) == 0);
            CHECK(!strncmp(ch.predicted, "pgs=-1,mprgp -p ichol=-1,", 25));
            CHECK(ch.ncand >= 2 && !strcmp(ch.cand[1].solver->name, "mprgp") && ch.cand[1].precond &&
                  !strcmp(ch.cand[1].precond->name, "ichol"));
        }
        lcp_problem_free(&col);
        lcp_auto_model_free(m);
    }
    lcp_problem_free(&p);

    /* friction: the neighbours of the other friction kind count too, one standard deviation away (the kind
     * as one more feature), and lend their twin configuration's times (fc3d admm to ccp admm); a
     * configuration without a twin (apgd: ccp only) is predicted from the ccp neighbours alone.  Three
     * fc3d samples near in log_n (offsets 0.5, 0.6, 0.7), six ccp samples farther (2 ... 7): the scaling is
     * the ccp samples' (sd of 2 ... 7), and the K nearest are the three fc3d and the K - 3 nearest ccp */
    lcp_problem fp;
    lcp_problem_init(&fp);
    CHECK(lcp_read_problem("problems/pyramid-5-fc3d", LCP_KIND_CCP, &fp, &e) == 0);
    if (fp.n) {
        lcp_features ff;
        CHECK(lcp_features_compute(&fp, &ff) == 0);
        text = malloc(cap);
        len = (size_t)snprintf(text, cap, "lcpsolve-auto-model 1\ntime-limit 1\nfeatures");
        for (int j = 0; j < LCP_NFEATURES; j++) len += (size_t)snprintf(text + len, cap - len, " %s", lcp_feature_names[j]);
        len += (size_t)snprintf(text + len, cap - len,
                                "\nconfig ccp admm none\nconfig ccp apgd none\nconfig fc3d admm none\nconfig fc3d nsgs none\n");
        const double fo[3] = {0.5, 0.6, 0.7}, co[6] = {2, 3, 4, 5, 6, 7};
        for (int i = 0; i < 9; i++) {
            int fc = i < 3;
            len += (size_t)snprintf(text + len, cap - len, "problem %s f%d s%d", fc ? "fc3d" : "ccp", fc, i);
            for (int j = 0; j < LCP_NFEATURES; j++)
                len += (size_t)snprintf(text + len, cap - len, " %.17g", ff.v[j] + (j == 0 ? (fc ? fo[i] : co[i - 3]) : 0));
            /* fc3d: admm 1e-4, nsgs 1e-2; ccp: admm 1e-1, apgd 1e-2 (slower on the farther ones) */
            if (fc) len += (size_t)snprintf(text + len, cap - len, " 0.0001 10 0.01 100\n");
            else len += (size_t)snprintf(text + len, cap - len, " %.17g 10 %.17g 100\n", 0.1 * (i - 2), 0.01 * (i - 2));
        }
        CHECK(len < cap);
        m = lcp_auto_model_parse(text, "friction.model", &e);
        CHECK(m != NULL);
        if (m) {
            double mean = 4.5, ss = 0;
            for (int i = 0; i < 6; i++) ss += (co[i] - mean) * (co[i] - mean);
            enum { K = LCP_AUTO_KNN };
            double sd = sqrt(ss / 5), d[K], w[K];
            for (int q = 0; q < 3; q++) d[q] = sqrt(fo[q] / sd * fo[q] / sd + 1.0); /* the kind: one sd */
            for (int q = 3; q < K; q++) d[q] = co[q - 3] / sd;
            double sw = 0, sa = 0, swc = 0, sp = 0;
            for (int q = 0; q < K; q++) {
                w[q] = 1 / (0.1 + d[q]);
                sw += w[q], sa += w[q] * log(q < 3 ? 1e-4 : 0.1 * (q - 2));
                if (q >= 3) swc += w[q], sp += w[q] * log(0.01 * (q - 2));
            }
            double want_admm = exp(sa / sw), want_apgd = exp(sp / swc);
            CHECK(K > 3 && K < 9 && d[2] < d[3] && co[K - 3] / sd > d[K - 1]); /* the K nearest as said */
            CHECK(lcp_choose_auto_with(&fp, m, &ch, &e) == 0);
            CHECK(ch.neighbours == LCP_AUTO_KNN && ch.ncand == 2);
            CHECK(ch.ncand == 2 && !strcmp(ch.cand[0].solver->name, "admm") && !strcmp(ch.cand[1].solver->name, "apgd"));
            CHECK_NEAR(ch.cand[0].t_pred, want_admm, 1e-12 * want_admm);
            CHECK_NEAR(ch.cand[1].t_pred, want_apgd, 1e-12 * want_apgd);
            CHECK(strstr(ch.reason, "nearest measured friction problems of friction.model, the nearest f1/s0") != NULL);
            CHECK(ch.probe == NULL); /* nsgs measured for fc3d only: no probe of a ccp */
            /* without the fc3d samples: ccp alone, apgd first */
            CHECK(lcp_auto_model_drop_family(m, "f1") == 6);
            CHECK(lcp_choose_auto_with(&fp, m, &ch, &e) == 0);
            CHECK(ch.ncand == 2 && !strcmp(ch.cand[0].solver->name, "apgd"));
            CHECK(strstr(ch.reason, "nearest measured ccp problems") != NULL);
            lcp_auto_model_free(m);
        }
        free(text);
    }
    lcp_problem_free(&fp);

    /* the runs: a run cut short shows how much slower than predicted the problem is (slow), and the next
     * runs are measured against the predictions scaled by it; a longer round of a first-order candidate
     * goes on from its own best iterate, others from zero */
    lcp_problem mp;
    lcp_problem_init(&mp);
    CHECK(lcp_read_problem("problems/murty-8", LCP_KIND_NONE, &mp, &e) == 0);
    const lcp_solver *nm = lcp_solver_find("newton-min"), *ap = lcp_solver_find("apgd"), *lk = lcp_solver_find("lemke");
    if (mp.n && nm && ap && lk) {
        const lcp_solver *sv3[3] = {nm, ap, lk};
        const double tp3[3] = {1e-4, 2e-4, 5e-4};
        lcp_auto_choice rc = candidates(3, sv3, tp3);
        lcp_auto_run run;
        lcp_auto_begin(&rc, nm, NULL, 0, &run);
        CHECK(lcp_auto_slow(&run) == 1 && run.switch_cpu == 2e-4 && run.time_limit == 0.02 && run.stage == 0);
        /* newton-min cut after 0.01 s of its predicted 1e-4: 100 times slower */
        CHECK(lcp_auto_next(&rc, &mp, 0, LCP_TIME_LIMIT, LCP_CUT_NEXT, 1, 0.01, INFINITY, &run) == 1);
        CHECK(run.solver == ap && run.stage == 1 && run.start == LCP_AUTO_FROM_ZERO);
        CHECK_NEAR(lcp_auto_slow(&run), 100, 1e-9);
        CHECK_NEAR(run.switch_cpu, 100 * 5e-4, 1e-15); /* lemke's prediction, scaled */
        run.kept |= 1u << 1; /* the caller kept apgd's best iterate */
        /* apgd cut for its rate, its time to the tolerance 0.004 s (20 times its prediction: slow stays), of
         * which 0.003 s still to run */
        CHECK(lcp_auto_next(&rc, &mp, 0, LCP_TIME_LIMIT, LCP_CUT_RATE, 1, 0.004, 0.003, &run) == 1);
        CHECK(run.solver == lk && run.stage == 2 && run.start == LCP_AUTO_FROM_ZERO); /* lemke: a pivoting method */
        CHECK_NEAR(lcp_auto_slow(&run), 100, 1e-9);
        CHECK(run.switch_cpu == 0); /* the last: no next */
        /* lemke past its budget: the next round, first apgd from its own best iterate (the one whose rate
         * said how much it still needed), then newton-min and lemke from zero, in the predicted order */
        CHECK(lcp_auto_next(&rc, &mp, 0, LCP_TIME_LIMIT, LCP_CUT_BUDGET, 0, 0.02, INFINITY, &run) == 1);
        CHECK(run.solver == ap && run.stage == 1 && run.round == 1 && run.start == LCP_AUTO_FROM_OWN && run.switch_cpu == 0);
        CHECK(strstr(run.what, "its best iterate of the round before") != NULL);
        CHECK_NEAR(run.time_limit, 4 * 0.02, 1e-15);
        CHECK(lcp_auto_next(&rc, &mp, 0, LCP_TIME_LIMIT, LCP_CUT_BUDGET, 1, 0.08, 0.05, &run) == 1);
        CHECK(run.solver == nm && run.stage == 0 && run.round == 1 && run.start == LCP_AUTO_FROM_ZERO);
        CHECK(lcp_auto_next(&rc, &mp, 0, LCP_TIME_LIMIT, LCP_CUT_BUDGET, 0, 0.08, INFINITY, &run) == 1);
        CHECK(run.solver == lk && run.stage == 2 && run.round == 1);
        /* of two kept, the one with less to run first: newton-min (0.01 s left, as set here) before apgd (0.05 s) */
        run.kept |= 1u << 0;
        run.rest[0] = 0.01;
        CHECK(lcp_auto_next(&rc, &mp, 0, LCP_TIME_LIMIT, LCP_CUT_BUDGET, 0, 0.3, INFINITY, &run) == 1);
        CHECK(run.round == 2 && run.solver == nm && run.start == LCP_AUTO_FROM_ZERO); /* newton-min: not first-order */
        CHECK(run.order[0] == 0 && run.order[1] == 1 && run.order[2] == 2);
        /* a run without a rate (lemke) after one cut: cut at 3 times the next's own prediction, not scaled
         * by slow (that one method stalled does not say this next will) */
        lcp_auto_choice rc2 = rc;
        rc2.cand[1] = rc.cand[2], rc2.cand[2] = rc.cand[1]; /* newton-min, lemke, apgd */
        lcp_auto_begin(&rc2, nm, NULL, 0, &run);
        CHECK(lcp_auto_next(&rc2, &mp, 0, LCP_TIME_LIMIT, LCP_CUT_NEXT, 1, 0.01, INFINITY, &run) == 1);
        CHECK(run.solver == lk && !run.switch_by_rate);
        CHECK_NEAR(lcp_auto_slow(&run), 100, 1e-9);
        CHECK(run.switch_cpu == 2e-4); /* apgd's prediction as it is */
        /* ... but once two runs proved slower (apgd cut for its rate without progress, newton-min past 100
         * times its prediction), the problem is: lemke's next (pgs) scaled by slow */
        const lcp_solver *pg = lcp_solver_find("pgs");
        const lcp_solver *sv4[4] = {ap, nm, lk, pg};
        const double tp4[4] = {2e-4, 1e-4, 5e-4, 3e-4};
        lcp_auto_choice rc4 = candidates(4, sv4, tp4);
        lcp_auto_begin(&rc4, ap, NULL, 0, &run);
        CHECK(lcp_auto_next(&rc4, &mp, 0, LCP_TIME_LIMIT, LCP_CUT_RATE, 0, 1e-4, INFINITY, &run) == 1);
        CHECK(run.solver == nm && lcp_auto_slow(&run) == 1 && run.slow_runs == 1 && run.switch_cpu == 3e-4); /* the least after it */
        CHECK(lcp_auto_next(&rc4, &mp, 0, LCP_TIME_LIMIT, LCP_CUT_NEXT, 1, 0.01, INFINITY, &run) == 1);
        CHECK(run.solver == lk && run.slow_runs == 2);
        CHECK_NEAR(run.switch_cpu, 100 * 3e-4, 1e-15);
        /* a first-order run after a first-order one proved slow: a next without a rate is measured as
         * predicted (nothing of its kind proved slower), a first-order next scaled by what its kind proved
         * (psor, pgs, pivot on a findex pyramid beyond the corpus: psor 12 times its prediction, pivot as
         * predicted) */
        const lcp_solver *ps = lcp_solver_find("psor"), *pv = lcp_solver_find("pivot");
        if (ps && pv) {
            const lcp_solver *sv5[4] = {ps, pg, pv, ap};
            const double tp5[4] = {1e-3, 1e-3, 2e-3, 4e-3};
            lcp_auto_choice rc5 = candidates(4, sv5, tp5);
            lcp_auto_begin(&rc5, ps, NULL, 0, &run);
            CHECK(run.switch_by_rate && run.switch_cpu == 1e-3);
            /* psor cut for its rate: 0.012 s to the tolerance, 12 times its prediction */
            CHECK(lcp_auto_next(&rc5, &mp, 0, LCP_TIME_LIMIT, LCP_CUT_RATE, 1, 0.012, 0.01, &run) == 1);
            CHECK(run.solver == pg && run.start == LCP_AUTO_FROM_BEST);
            CHECK_NEAR(lcp_auto_slow(&run), 12, 1e-9);
            CHECK_NEAR(run.slow_kind[1], 12, 1e-9);
            CHECK(run.slow_kind[0] == 1);
            CHECK(run.switch_cpu == 2e-3); /* pivot's prediction as it is (apgd's scaled: 0.048) */
            /* pgs cut for its rate too (0.05 s to the tolerance, 50 times its prediction): pivot, a run without
             * a rate after two runs proved slower, is measured against apgd's prediction scaled by the most any
             * run proved */
            CHECK(lcp_auto_next(&rc5, &mp, 0, LCP_TIME_LIMIT, LCP_CUT_RATE, 1, 0.05, 0.04, &run) == 1);
            CHECK(run.solver == pv && !run.switch_by_rate && run.slow_runs == 2);
            CHECK_NEAR(run.switch_cpu, 50 * 4e-3, 1e-15);
            /* pivot cut past that at 0.02 s, 10 times its own prediction: its kind's factor */
            CHECK(lcp_auto_next(&rc5, &mp, 0, LCP_TIME_LIMIT, LCP_CUT_NEXT, 1, 0.02, INFINITY, &run) == 1);
            CHECK(run.solver == ap && run.switch_cpu == 0);
            CHECK_NEAR(run.slow_kind[0], 10, 1e-9);
            CHECK_NEAR(run.slow_kind[1], 50, 1e-9); /* pgs: 0.05 s of 1e-3 */
        }
        /* a run that stops without a cut (a breakdown) says nothing of the speed */
        lcp_auto_begin(&rc, nm, NULL, 0, &run);
        CHECK(lcp_auto_next(&rc, &mp, 0, LCP_ERROR, 0, 0, 5.0, INFINITY, &run) == 1);
        CHECK(lcp_auto_slow(&run) == 1 && run.switch_cpu == 5e-4);
    }
    lcp_problem_free(&mp);
    CHECK_DONE();
}
