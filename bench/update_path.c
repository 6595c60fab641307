/* bench/update_path.c: what the update path saves a time-stepping loop:
 * the same problem solved again and again (an engine's step whose contacts
 * persist), once with a cache that keeps the pattern-only set-up across
 * solves (the API's problem handles and `lcpsolve sequence` do: the sweep
 * orders of --order and the factorisations' symbolic analyses,
 * src/la/symbolic_store.h), once without (every solve analyses afresh).
 *
 *   build/bench/update_path PROBLEM REPEATS SOLVER [OPTION VALUE]...
 *
 * The options are long options of a solve (linsolve sparse, order nd, ...).
 * As a time-stepping loop: round r solves the problem with b scaled by
 * 1 + 0.05 sin(r), warm-started from the answer of round r - 1 (of the
 * same kind of solve).  The two kinds of solve alternate; the cached ones
 * meet a warm cache.
 * Prints the median of each in milliseconds, their ratio, the analyses
 * taken from the store, and whether both gave the same bits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "core/pipeline.h"
#include "io/io.h"
#include "median.h"

static int set(lcp_solve_opts *o, const char *name, const char *val, lcp_err *err)
{
    const lcp_option *opt = lcp_option_find(name);
    if (!opt) return lcp_fail(err, LCP_INPUT_ERROR, NULL, 0, "unknown option '%s'", name);
    return lcp_option_apply(o, opt, val, err);
}


int main(int argc, char **argv)
{
    if (argc < 4 || argc % 2) {
        fprintf(stderr, "usage: %s PROBLEM REPEATS SOLVER [OPTION VALUE]...\n", argv[0]);
        return 2;
    }
    lcp_problem p;
    lcp_err err = {{0}};
    lcp_problem_init(&p);
    if (lcp_read_problem(argv[1], LCP_KIND_NONE, &p, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    int reps = atoi(argv[2]);
    lcp_solve_opts o;
    lcp_solve_opts_default(&o);
    if (set(&o, "solver", argv[3], &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    for (int k = 4; k + 1 < argc; k += 2)
        if (set(&o, argv[k], argv[k + 1], &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 2;
        }
    lcp_pipeline_cache *cache = lcp_pipeline_cache_new();
    double *tc = calloc((size_t)reps, sizeof(double)), *tp = calloc((size_t)reps, sizeof(double));
    int same = 1, status = -1, iters = 0;
    double *b0 = malloc((size_t)p.n * sizeof(double)), *xc = calloc((size_t)p.n, sizeof(double)),
           *xp = calloc((size_t)p.n, sizeof(double));
    if (!cache || !tc || !tp || !b0 || !xc || !xp) return 5;
    memcpy(b0, p.b, (size_t)p.n * sizeof(double));
    for (int r = -1; r < reps; r++) { /* round -1 warms the cache (and the libraries) */
        for (int i = 0; i < p.n; i++) p.b[i] = b0[i] * (1.0 + 0.05 * sin((double)r));
        lcp_solve_out u, w;
        double t0 = lcp_now();
        if (lcp_pipeline_solve_cached(&p, &o, r < 0 ? NULL : xc, p.n, "x0", cache, &u, &err)) break;
        double t1 = lcp_now();
        if (lcp_pipeline_solve(&p, &o, r < 0 ? NULL : xp, p.n, "x0", &w, &err)) break;
        double t2 = lcp_now();
        memcpy(xc, u.x, (size_t)p.n * sizeof(double));
        memcpy(xp, w.x, (size_t)p.n * sizeof(double));
        if (r >= 0) tc[r] = t1 - t0, tp[r] = t2 - t1;
        same = same && u.iterations == w.iterations && !memcmp(u.x, w.x, (size_t)p.n * sizeof(double));
        status = (int)u.status;
        iters = u.iterations;
        lcp_solve_out_free(&u);
        lcp_solve_out_free(&w);
    }
    if (err.msg[0]) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    long analyses, reuses;
    lcp_symbolic_store_stats(lcp_pipeline_cache_store(cache), &analyses, &reuses);
    double mc = median(tc, reps), mp = median(tp, reps);
    char label[160] = "";
    const char *name = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
    snprintf(label, sizeof label, "%s %s", name, argv[3]);
    for (int k = 4; k + 1 < argc; k += 2) {
        size_t l = strlen(label);
        snprintf(label + l, sizeof label - l, " --%s %s", argv[k], argv[k + 1]);
    }
    printf("%-56s n %-6d %-7s it %-3d analysed %8.2f ms  kept %8.2f ms  ratio %.3f  analyses %ld reused %ld  "
           "same bits %s\n", label, p.n, lcp_status_name((lcp_status)status), iters, 1e3 * mp, 1e3 * mc, mc / mp,
           analyses, reuses, same ? "yes" : "NO");
    lcp_pipeline_cache_free(cache);
    free(tc), free(tp), free(b0), free(xc), free(xp);
    lcp_problem_free(&p);
    return same ? 0 : 1;
}
