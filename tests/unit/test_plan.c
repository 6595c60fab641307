/* tests/unit/test_plan.c: the experiment-plan reader (src/io/plan.c):
 * globs relative to the plan, non-problems left out, duplicates merged,
 * short unique names, configuration names and option precedence, and
 * "FILE:LINE: reason" for malformed plans. */
#include "check.h"
#include "io/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void put(const char *rel, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* the check function of a plan: refuses key "bad" and value "oops"; "flag" is a flag */
static int check(void *ctx, const char *key, const char *value, int *flag, char *msg, size_t len)
{
    (*(int *)ctx)++;
    *flag = !strcmp(key, "flag");
    if (!strcmp(key, "bad")) return snprintf(msg, len, "unknown key '%s'", key), 1;
    if (!strcmp(value, "oops")) return snprintf(msg, len, "--%s: '%s' is wrong", key, value), 1;
    return 0;
}

/* reads plan text; returns rc, err in *err */
static int read_text(const char *text, lcp_plan *plan, lcp_err *err)
{
    put("plan.yaml", text);
    char path[256];
    snprintf(path, sizeof path, "%s/plan.yaml", dir);
    int calls = 0;
    memset(err, 0, sizeof *err);
    return lcp_plan_read(path, check, &calls, plan, err);
}

/* the plan must be refused at line `line` with `what` in the message */
static int refused(const char *text, long line, const char *what)
{
    lcp_plan plan;
    lcp_err err;
    int rc = read_text(text, &plan, &err);
    char want[64];
    snprintf(want, sizeof want, "plan.yaml:%ld: ", line);
    int ok = rc == LCP_INPUT_ERROR && strstr(err.msg, want) && strstr(err.msg, what);
    if (!ok) fprintf(stderr, "plan refused? rc %d, '%s' (wanted line %ld, '%s')\n", rc, err.msg, line, what);
    if (!rc) lcp_plan_free(&plan);
    return ok;
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/lcp_test_plan_XXXXXX");
    if (!mkdtemp(dir)) return 1;
    char sub[128];
    snprintf(sub, sizeof sub, "%s/p", dir), mkdir(sub, 0777);
    snprintf(sub, sizeof sub, "%s/p/sub", dir), mkdir(sub, 0777);
    snprintf(sub, sizeof sub, "%s/q", dir), mkdir(sub, 0777);
    put("p/a.dat", "");
    put("p/b.json", "");
    put("p/README.md", "");
    put("p/.hidden.dat", "");
    put("q/a.dat", "");
    put("q/c d.hdf5", "");

    lcp_plan plan;
    lcp_err err;
    int rc = read_text("# a plan\n"
                       "problems:\n"
                       "  - p/*\n"
                       "  - q/*\n"
                       "  - p/a.dat\n"
                       "configs:\n"
                       "  - {solver: pgs}\n"
                       "  - {name: x, solver: lemke, tol: 1e-10}\n"
                       "  - solver: mprgp\n"
                       "    precond: ichol\n"
                       "  - {flag: true}\n"
                       "tol: 1e-8\n"
                       "flag: false\n"
                       "repeats: 3\n"
                       "grace: 2.5\n"
                       "output: out/r.csv\n",
                       &plan, &err);
    CHECK(rc == 0);
    if (rc) fprintf(stderr, "%s\n", err.msg);
    else {
        CHECK(plan.nproblems == 5); /* a b sub from p (README, hidden left out); a, "c d" from q */
        const char *names[] = {"a", "b", "sub", "a-2", "c_d"};
        for (int i = 0; i < 5 && i < plan.nproblems; i++) CHECK(!strcmp(plan.problems[i].name, names[i]));
        if (plan.nproblems == 5) {
            char want[160];
            snprintf(want, sizeof want, "%s/p/a.dat", dir);
            CHECK(!strcmp(plan.problems[0].path, want));
            CHECK(plan.problems[0].line == 3 && plan.problems[3].line == 4);
        }
        CHECK(plan.nconfigs == 4);
        CHECK(plan.nconfigs == 4 && !strcmp(plan.configs[0].name, "pgs") && !strcmp(plan.configs[1].name, "x") &&
              !strcmp(plan.configs[2].name, "mprgp-ichol") && !strcmp(plan.configs[3].name, "config-4"));
        CHECK(plan.configs[1].line == 8 && plan.configs[2].line == 9);
        CHECK(!strcmp(lcp_plan_value(&plan, 1, "tol"), "1e-10")); /* the config's own */
        CHECK(!strcmp(lcp_plan_value(&plan, 0, "tol"), "1e-8"));  /* the plan's default */
        CHECK(lcp_plan_value(&plan, 0, "omega") == NULL);
        CHECK(!strcmp(lcp_plan_value(&plan, 2, "precond"), "ichol"));
        CHECK(!strcmp(lcp_plan_value(&plan, 3, "flag"), "true") && !strcmp(lcp_plan_value(&plan, 0, "flag"), "false"));
        CHECK(plan.configs[3].nopt == 1 && plan.configs[3].opt[0].flag == 1);
        CHECK(plan.ndefaults == 2 && plan.defaults[0].line == 12);
        CHECK(plan.repeats == 3);
        CHECK_NEAR(plan.grace, 2.5, 0);
        char want[160];
        snprintf(want, sizeof want, "%s/out/r.csv", dir);
        CHECK(plan.output && !strcmp(plan.output, want));
        CHECK(plan.traces == NULL);
        lcp_plan_free(&plan);
    }
    /* defaults: repeats 1, grace 10, output results.csv beside the plan; one problem as a scalar */
    rc = read_text("problems: p/b.json\nconfigs: [{solver: pgs}]\n", &plan, &err);
    CHECK(rc == 0);
    if (!rc) {
        char want[160];
        snprintf(want, sizeof want, "%s/results.csv", dir);
        CHECK(plan.repeats == 1 && plan.grace == 10 && !strcmp(plan.output, want) && plan.nproblems == 1);
        lcp_plan_free(&plan);
    }

    /* malformed plans: the line and the reason */
    CHECK(refused("problems: [p/*]\nconfigs: [{solver: pgs}]\nbad: 1\n", 3, "unknown key 'bad'"));
    CHECK(refused("problems: [p/*]\nconfigs:\n  - {solver: pgs}\n  - {solver: pgs, tol: oops}\n", 4, "'oops' is wrong"));
    CHECK(refused("problems: [p/*]\nconfigs:\n  - {solver: pgs}\n  - {solver: pgs}\n", 4, "used twice (also on line 3)"));
    CHECK(refused("problems: [p/*]\nconfigs:\n  - {name: a__b}\n", 3, "'__'"));
    CHECK(refused("problems: [p/*]\nconfigs:\n  - {name: 'a/b'}\n", 3, "name 'a/b'"));
    CHECK(refused("problems:\n  - p/*\n  - p/*.mtx\nconfigs: [{solver: pgs}]\n", 3, "matches no problem"));
    CHECK(refused("problems:\n  - p/none.dat\nconfigs: [{solver: pgs}]\n", 2, "none.dat"));
    CHECK(refused("problems: [p/*]\nconfigs: [{solver: pgs}]\nrepeats: 0\n", 3, "repeats"));
    CHECK(refused("problems: [p/*]\nconfigs: [{solver: pgs}]\ngrace: -1\n", 3, "grace"));
    CHECK(refused("problems: [p/*]\nconfigs: [{solver: pgs, repeats: 2}]\n", 2, "plan key"));
    CHECK(refused("problems: [p/*]\nconfigs: [{solver: [pgs]}]\n", 2, "scalar"));
    CHECK(refused("problems: [p/*]\nconfigs: [pgs]\n", 2, "mapping of options"));
    CHECK(refused("problems: [p/*]\nconfigs: []\n", 2, "non-empty"));
    CHECK(refused("problems: [p/*]\n", 1, "no 'configs:'"));
    CHECK(refused("configs: [{solver: pgs}]\n", 1, "no 'problems:'"));
    CHECK(refused("problems: [p/*]\nconfigs: [{solver: pgs}]\ntol: 1\ntol: 2\n", 4, "given twice (first on line 3)"));
    CHECK(refused("problems: [p/*]\nconfigs: [{solver: pgs, tol: 1, tol: 2}]\n", 2, "given twice"));
    CHECK(refused("problems: [p/*]\nconfigs:\n  - {solver: pgs\n  - {x: 1}\n", 4, "YAML"));
    CHECK(refused("- 1\n- 2\n", 1, "a plan is a mapping"));
    CHECK(refused("", 1, "empty plan"));
    CHECK(refused("problems: [p/*]\nconfigs: [{solver: pgs}]\n---\na: 1\n", 4, "one YAML document"));
    CHECK(refused("problems: [p/*]\nconfigs: [{solver: pgs}]\noutput:\n", 3, "needs a path"));

    CHECK(lcp_plan_bool("True") == 1 && lcp_plan_bool("no") == 0 && lcp_plan_bool("1") == 1 && lcp_plan_bool("x") == -1);

    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) fprintf(stderr, "could not remove %s\n", dir);
    CHECK_DONE();
}
