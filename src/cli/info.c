/* src/cli/info.c: `lcpsolve info PROBLEM`: kind, sizes, symmetry,
 * definiteness (PD means a unique solution for every b), diagonal range,
 * condition, the contact graph; the facts of A from src/la/analyse.c. */
#include "info.h"
#include "../graph/graph.h"
#include "../core/features.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int lcp_info_print(FILE *out, const lcp_problem *p, const lcp_cone_facts *cone, int json, lcp_err *err)
{
    lcp_matrix_facts f;
    int rc = lcp_matrix_analyse(p, 2000, &f, err);
    if (rc) return rc;
    long nnz = lcp_csr_nnz(&p->A);
    int bodies = p->M.p ? p->M.m : 0;
    lcp_graph g;
    lcp_graph_facts gf;
    if ((rc = lcp_graph_build(p, &g, err))) return rc;
    rc = lcp_graph_analyse(&g, &gf);
    lcp_graph_free(&g);
    if (rc) return lcp_fail(err, LCP_ERROR, p->source, 0, "cannot analyse the contact graph (out of memory)");
    if (json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "problem", p->source ? p->source : "");
        cJSON_AddStringToObject(o, "format", p->format ? p->format : "");
        cJSON_AddStringToObject(o, "kind", lcp_kind_name(p->kind));
        cJSON_AddNumberToObject(o, "n", p->n);
        cJSON_AddNumberToObject(o, "nnz", (double)nnz);
        cJSON_AddNumberToObject(o, "contacts", (p->kind & LCP_KIND_FRICTION) ? p->nc : p->n);
        cJSON_AddNumberToObject(o, "body_dofs", bodies);
        cJSON_AddBoolToObject(o, "symmetric", f.symmetric);
        cJSON_AddStringToObject(o, "definiteness", f.definite);
        cJSON_AddStringToObject(o, "definiteness_method", f.method);
        cJSON_AddNumberToObject(o, "diag_min", f.diag_min);
        cJSON_AddNumberToObject(o, "diag_max", f.diag_max);
        if (f.cond > 0) cJSON_AddNumberToObject(o, "condition", isfinite(f.cond) ? f.cond : 1e308);
        cJSON *go = cJSON_AddObjectToObject(o, "graph");
        cJSON_AddNumberToObject(go, "nodes", gf.nodes);
        cJSON_AddNumberToObject(go, "edges", (double)gf.edges);
        cJSON_AddNumberToObject(go, "components", gf.components);
        cJSON_AddNumberToObject(go, "largest_component", gf.largest);
        cJSON_AddNumberToObject(go, "degree_min", gf.deg_min);
        cJSON_AddNumberToObject(go, "degree_median", gf.deg_median);
        cJSON_AddNumberToObject(go, "degree_mean", gf.deg_mean);
        cJSON_AddNumberToObject(go, "degree_max", gf.deg_max);
        double hist[8];
        for (int k = 0; k < 8; k++) hist[k] = (double)gf.deg_hist[k];
        cJSON_AddItemToObject(go, "degree_histogram", cJSON_CreateDoubleArray(hist, 8));
        cJSON_AddNumberToObject(go, "density", gf.nodes > 1 ? 2.0 * (double)gf.edges / ((double)gf.nodes * (gf.nodes - 1)) : 0.0);
        cJSON_AddNumberToObject(go, "colours_greedy", gf.colours_greedy);
        cJSON_AddNumberToObject(go, "colours_dsatur", gf.colours_dsatur);
        if (gf.lap_steps > 0) {
            cJSON_AddNumberToObject(go, "laplacian_lmax", gf.lap_lmax);
            cJSON_AddNumberToObject(go, "laplacian_fiedler", gf.lap_fiedler);
            cJSON_AddNumberToObject(go, "laplacian_condition", isfinite(gf.lap_cond) ? gf.lap_cond : 1e308);
            cJSON_AddNumberToObject(go, "laplacian_lanczos_steps", gf.lap_steps);
        }
        if (cone) {
            cJSON_AddStringToObject(o, "cone", cone->cone);
            cJSON_AddStringToObject(o, "cone_form", cone->form);
            cJSON_AddNumberToObject(o, "cone_n", cone->n);
            cJSON_AddStringToObject(o, "cone_solver", cone->solver);
            cJSON_AddStringToObject(o, "cone_status", cone->status);
            cJSON_AddNumberToObject(o, "cone_iterations", cone->iterations);
            cJSON_AddNumberToObject(o, "cone_residual", isfinite(cone->residual) ? cone->residual : 1e308);
            cJSON_AddNumberToObject(o, "cone_error", isfinite(cone->cone_error) ? cone->cone_error : 1e308);
        }
        char *s = cJSON_PrintUnformatted(o);
        fprintf(out, "%s\n", s ? s : "{}");
        free(s);
        cJSON_Delete(o);
        return 0;
    }
    fprintf(out, "problem     %s (%s)\n", p->source ? p->source : "-", p->format ? p->format : "-");
    fprintf(out, "kind        %s\n", lcp_kind_name(p->kind));
    fprintf(out, "size        n = %d, nnz = %ld (%.3g%% dense)\n", p->n, nnz,
            p->n ? 100.0 * (double)nnz / ((double)p->n * p->n) : 0.0);
    if (p->kind & LCP_KIND_FRICTION) fprintf(out, "contacts    %d (3 rows each)\n", p->nc);
    else fprintf(out, "contacts    %d (one row each)\n", p->n);
    if (bodies) fprintf(out, "factored    M %d x %d, J %d x %d\n", p->M.m, p->M.n, p->J.m, p->J.n);
    fprintf(out, "symmetric   %s\n", f.symmetric ? "yes" : "no");
    fprintf(out, "definite    %s (%s)%s\n", f.definite, f.method,
            !strcmp(f.definite, "positive definite") && p->kind == LCP_KIND_LCP ? ": a unique solution for every b"
                                                                                : "");
    fprintf(out, "diagonal    [%g, %g]\n", f.diag_min, f.diag_max);
    if (f.cond > 1e15) fprintf(out, "condition   infinite: A is singular to working precision\n");
    else if (f.cond > 0) fprintf(out, "condition   %.3g (2-norm, singular values)\n", f.cond);
    else fprintf(out, "condition   not estimated (n > 2000)\n");
    fprintf(out, "graph       %d contacts, %ld edges (%.3g%% of pairs), %d component%s, the largest %d\n", gf.nodes,
            gf.edges, gf.nodes > 1 ? 200.0 * (double)gf.edges / ((double)gf.nodes * (gf.nodes - 1)) : 0.0,
            gf.components, gf.components == 1 ? "" : "s", gf.largest);
    fprintf(out, "degree      min %d, median %d, mean %.3g, max %d; histogram 0:%ld 1:%ld 2-3:%ld 4-7:%ld 8-15:%ld "
                 "16-31:%ld 32-63:%ld 64+:%ld\n",
            gf.deg_min, gf.deg_median, gf.deg_mean, gf.deg_max, gf.deg_hist[0], gf.deg_hist[1], gf.deg_hist[2],
            gf.deg_hist[3], gf.deg_hist[4], gf.deg_hist[5], gf.deg_hist[6], gf.deg_hist[7]);
    fprintf(out, "colours     %d greedy (balanced), %d DSATUR: independent classes for parallel sweeps (--order)\n",
            gf.colours_greedy, gf.colours_dsatur);
    if (gf.lap_steps > 0)
        fprintf(out, "laplacian   largest component: lmax %.4g, Fiedler value %.4g, condition %.4g (%d Lanczos steps: "
                     "an estimate)\n",
                gf.lap_lmax, gf.lap_fiedler, gf.lap_cond, gf.lap_steps);
    if (cone) {
        fprintf(out, "cone        %s as %s, n = %d: %s, %s after %d iterations, residual %.3e\n", cone->cone, cone->form,
                cone->n, cone->solver, cone->status, cone->iterations, cone->residual);
        fprintf(out, "cone error  %.3e (the %s residual of the pyramid solution on this problem)\n", cone->cone_error,
                lcp_kind_name(p->kind));
    }
    return 0;
}

int lcp_info_features(FILE *out, const lcp_problem *p, int json, lcp_err *err)
{
    lcp_features f;
    if (lcp_features_compute(p, &f)) return lcp_fail(err, LCP_ERROR, p->source, 0, "out of memory (features)");
    if (json) {
        cJSON *o = cJSON_CreateObject(), *fo;
        cJSON_AddStringToObject(o, "problem", p->source ? p->source : "");
        cJSON_AddStringToObject(o, "kind", lcp_kind_name(p->kind));
        cJSON_AddNumberToObject(o, "n", p->n);
        cJSON_AddNumberToObject(o, "nnz", (double)f.nnz);
        cJSON_AddNumberToObject(o, "contacts", f.contacts);
        cJSON_AddNumberToObject(o, "components", f.components);
        cJSON_AddNumberToObject(o, "largest_component", f.largest);
        cJSON_AddNumberToObject(o, "diameter", f.diameter);
        cJSON_AddNumberToObject(o, "condition_estimate", isfinite(f.cond) ? f.cond : 1e308);
        cJSON_AddNumberToObject(o, "lanczos_steps", f.lanczos_steps);
        cJSON_AddNumberToObject(o, "features_time_s", f.time_s);
        fo = cJSON_AddObjectToObject(o, "features");
        for (int k = 0; k < LCP_NFEATURES; k++) cJSON_AddNumberToObject(fo, lcp_feature_names[k], f.v[k]);
        char *s = cJSON_PrintUnformatted(o);
        fprintf(out, "%s\n", s ? s : "{}");
        free(s);
        cJSON_Delete(o);
        return 0;
    }
    fprintf(out, "problem            %s\n", p->source ? p->source : "-");
    fprintf(out, "kind               %s\n", lcp_kind_name(p->kind));
    fprintf(out, "n                  %d (nnz %ld, %d contacts, %d components, largest %d, diameter ~%d)\n", p->n,
            f.nnz, f.contacts, f.components, f.largest, f.diameter);
    if (isfinite(f.cond)) fprintf(out, "condition estimate %.3g (scaled, Lanczos, %d steps)\n", f.cond, f.lanczos_steps);
    else fprintf(out, "condition estimate semidefinite or nearly, or not estimated (Lanczos, %d steps)\n", f.lanczos_steps);
    for (int k = 0; k < LCP_NFEATURES; k++) fprintf(out, "%-18s %.6g\n", lcp_feature_names[k], f.v[k]);
    fprintf(out, "time               %.3g s\n", f.time_s);
    return 0;
}
