/* src/cli/bench_report.c: the output of `lcpsolve bench` (src/cli/bench.c):
 * the CSV, one row a run (the fixed --json columns, then any others a run
 * reported, then wall_s, path, message), and the summary -- the median
 * solve time of the solved runs per problem and configuration, the fastest
 * marked -- as a table or one JSON object.
 */
#include "bench_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- CSV */

static const char *const fixed_cols[] = {
    "kind", "n", "nnz", "solver", "precond", "status", "iterations", "time_s", "residual", "complementarity",
    "feasibility", "contacts", "components", "parse_time_s", "tol", "threads", "omega", "reference_diff",
    "ref_tol", "cone", "cone_form", "original_kind", "original_n", "cone_error", "version", NULL};

static int is_fixed(const char *k)
{
    for (int i = 0; fixed_cols[i]; i++)
        if (!strcmp(fixed_cols[i], k)) return 1;
    return !strcmp(k, "problem") || !strcmp(k, "message"); /* as path, and last */
}

static void fmt_number(double x, char *buf, size_t len)
{
    if (x == floor(x) && fabs(x) < 1e15) {
        snprintf(buf, len, "%.0f", x);
        return;
    }
    snprintf(buf, len, "%.15g", x);
    if (strtod(buf, NULL) != x) snprintf(buf, len, "%.17g", x);
}

/* the text of a JSON value ("" when absent); buf holds it when needed */
static const char *json_text(const cJSON *o, const char *key, char *buf, size_t len)
{
    const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    if (!v || cJSON_IsNull(v)) return "";
    if (cJSON_IsString(v)) return v->valuestring;
    if (cJSON_IsBool(v)) return cJSON_IsTrue(v) ? "true" : "false";
    if (cJSON_IsNumber(v)) {
        fmt_number(v->valuedouble, buf, len);
        return buf;
    }
    char *s = cJSON_PrintUnformatted(v);
    snprintf(buf, len, "%s", s ? s : "");
    free(s);
    return buf;
}

static void csv_field(FILE *f, const char *s, int last)
{
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (const char *c = s; *c; c++) {
            if (*c == '"') fputc('"', f);
            fputc(*c, f);
        }
        fputc('"', f);
    } else
        fputs(s, f);
    fputc(last ? '\n' : ',', f);
}

/* a column's value for a row: the run's JSON, else what bench knows */
static const char *row_value(const bench_row *r, const bench_cfg *c, const char *col, char *buf, size_t len)
{
    if (!strcmp(col, "status")) return r->status;
    const char *s = json_text(r->json, col, buf, len);
    if (*s) return s;
    const probe_res *pr = r->pr;
    if (pr && pr->ok) {
        if (!strcmp(col, "kind")) return lcp_kind_name(pr->kind);
        if (!strcmp(col, "n")) return snprintf(buf, len, "%d", pr->n), buf;
        if (!strcmp(col, "nnz")) return snprintf(buf, len, "%ld", pr->nnz), buf;
        if (!strcmp(col, "contacts")) return snprintf(buf, len, "%d", pr->contacts), buf;
    }
    if (!strcmp(col, "solver")) return c->solver;
    if (!strcmp(col, "precond")) return c->precond;
    if (!strcmp(col, "tol") && c->tol) return c->tol;
    if (!strcmp(col, "threads") && c->threads) return c->threads;
    return "";
}

int bench_write_csv(lcp_outfile *out, const lcp_plan *plan, const bench_cfg *cfg, const row_list *rows, lcp_err *err)
{
    FILE *f = out->fp;
    /* the columns past the fixed ones: every other key any run reported, first seen first */
    const char **extra = NULL;
    int nextra = 0;
    for (int i = 0; i < rows->n; i++)
        for (const cJSON *it = rows->v[i].json ? rows->v[i].json->child : NULL; it; it = it->next) {
            if (!it->string || is_fixed(it->string)) continue;
            int seen = 0;
            for (int k = 0; k < nextra && !seen; k++) seen = !strcmp(extra[k], it->string);
            if (seen) continue;
            const char **ne = realloc(extra, (size_t)(nextra + 1) * sizeof *ne);
            if (!ne) {
                free(extra);
                return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
            }
            extra = ne;
            extra[nextra++] = it->string;
        }
    fputs("config,problem,repeat,exit_code,", f);
    for (int i = 0; fixed_cols[i]; i++) fprintf(f, "%s,", fixed_cols[i]);
    for (int k = 0; k < nextra; k++) fprintf(f, "%s,", extra[k]);
    fputs("wall_s,path,message\n", f);
    char buf[512];
    for (int i = 0; i < rows->n; i++) {
        const bench_row *r = &rows->v[i];
        const bench_cfg *c = &cfg[r->config];
        csv_field(f, plan->configs[r->config].name, 0);
        csv_field(f, plan->problems[r->problem].name, 0);
        fprintf(f, "%d,", r->repeat);
        if (r->exit_code >= 0) fprintf(f, "%d", r->exit_code);
        fputc(',', f);
        for (int k = 0; fixed_cols[k]; k++) csv_field(f, row_value(r, c, fixed_cols[k], buf, sizeof buf), 0);
        for (int k = 0; k < nextra; k++) csv_field(f, json_text(r->json, extra[k], buf, sizeof buf), 0);
        if (r->wall_s >= 0) fmt_number(round(r->wall_s * 1e6) / 1e6, buf, sizeof buf);
        else buf[0] = '\0';
        csv_field(f, buf, 0);
        csv_field(f, plan->problems[r->problem].path, 0);
        const char *msg = r->message ? r->message : json_text(r->json, "message", buf, sizeof buf);
        csv_field(f, msg, 1);
    }
    free(extra);
    return 0;
}

/* ---------------------------------------------------------------- summary */

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_make_cells(const lcp_plan *plan, const row_list *rows, cell *cells)
{
    int np = plan->nproblems, nc = plan->nconfigs;
    double *t = lcp_alloc((size_t)(rows->n > 0 ? rows->n : 1), sizeof(double));
    for (int i = 0; i < np * nc; i++) {
        memset(&cells[i], 0, sizeof cells[i]);
        cells[i].median = NAN;
        cells[i].status = "not_run";
    }
    /* the rows of a pair are consecutive: problems outer, configurations inner, then repeats */
    for (int i = 0; i < rows->n;) {
        const bench_row *r0 = &rows->v[i];
        cell *e = &cells[r0->problem * nc + r0->config];
        int end = i, nt = 0, top = 0;
        while (end < rows->n && rows->v[end].problem == r0->problem && rows->v[end].config == r0->config) end++;
        for (int k = i; k < end; k++) {
            const bench_row *r = &rows->v[k];
            e->runs++;
            if (!strcmp(r->status, "solved")) {
                const cJSON *ts = cJSON_GetObjectItemCaseSensitive(r->json, "time_s");
                if (t && cJSON_IsNumber(ts)) t[nt++] = ts->valuedouble;
                e->solved++;
            }
            int count = 0; /* the most frequent status, the first on ties */
            for (int j = i; j < end; j++) count += !strcmp(rows->v[j].status, r->status);
            if (count > top) {
                top = count;
                e->status = r->status;
            }
        }
        if (nt) {
            qsort(t, (size_t)nt, sizeof *t, cmp_dbl);
            e->median = nt % 2 ? t[nt / 2] : 0.5 * (t[nt / 2 - 1] + t[nt / 2]);
            e->status = "solved";
        } else
            e->solved = 0; /* solved without a time: cannot be ranked */
        i = end;
    }
    for (int p = 0; p < np; p++) {
        double best = INFINITY;
        for (int c = 0; c < nc; c++)
            if (cells[p * nc + c].solved && cells[p * nc + c].median < best) best = cells[p * nc + c].median;
        for (int c = 0; c < nc; c++)
            if (cells[p * nc + c].solved && cells[p * nc + c].median == best) cells[p * nc + c].best = 1;
    }
    free(t);
}

void bench_print_table(const lcp_plan *plan, const cell *cells)
{
    int np = plan->nproblems, nc = plan->nconfigs;
    int w0 = (int)strlen("wins/solved");
    for (int p = 0; p < np; p++)
        if ((int)strlen(plan->problems[p].name) > w0) w0 = (int)strlen(plan->problems[p].name);
    int *w = lcp_alloc((size_t)nc, sizeof(int));
    char (*txt)[48] = lcp_alloc((size_t)(np + 1) * (size_t)nc, sizeof *txt);
    if (!w || !txt) {
        free(w);
        free(txt);
        return;
    }
    for (int c = 0; c < nc; c++) {
        int wins = 0, solved = 0;
        for (int p = 0; p < np; p++) {
            const cell *e = &cells[p * nc + c];
            char *s = txt[p * nc + c];
            if (e->solved) {
                int n = snprintf(s, 48, "%.3g%s", e->median, e->best ? "*" : "");
                if (e->solved < e->runs) snprintf(s + n, (size_t)(48 - n), " (%d/%d)", e->solved, e->runs);
                solved++;
                wins += e->best;
            } else
                snprintf(s, 48, "%s", e->status);
        }
        snprintf(txt[np * nc + c], 48, "%d/%d", wins, solved);
        w[c] = (int)strlen(plan->configs[c].name);
        for (int p = 0; p <= np; p++)
            if ((int)strlen(txt[p * nc + c]) > w[c]) w[c] = (int)strlen(txt[p * nc + c]);
    }
    printf("median solve time (s) of the solved runs (* fastest; (k/r): k of r runs solved), else the status\n");
    printf("%-*s", w0, "problem");
    for (int c = 0; c < nc; c++) printf("  %*s", w[c], plan->configs[c].name);
    printf("\n");
    for (int p = 0; p <= np; p++) {
        printf("%-*s", w0, p < np ? plan->problems[p].name : "wins/solved");
        for (int c = 0; c < nc; c++) printf("  %*s", w[c], txt[p * nc + c]);
        printf("\n");
    }
    free(w);
    free(txt);
}

void bench_print_json(const lcp_plan *plan, const bench_cfg *cfg, const row_list *rows, const cell *cells,
                       const char *output, int interrupted, int exit_code)
{
    int np = plan->nproblems, nc = plan->nconfigs;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "command", "bench");
    cJSON_AddStringToObject(o, "plan", plan->file);
    cJSON_AddStringToObject(o, "output", output);
    if (plan->traces) cJSON_AddStringToObject(o, "traces", plan->traces);
    else cJSON_AddNullToObject(o, "traces");
    cJSON_AddNumberToObject(o, "problems", np);
    cJSON_AddNumberToObject(o, "configs", nc);
    cJSON_AddNumberToObject(o, "repeats", plan->repeats);
    cJSON_AddNumberToObject(o, "rows", rows->n);
    cJSON *counts = cJSON_AddObjectToObject(o, "statuses");
    for (int i = 0; i < rows->n; i++) {
        cJSON *v = cJSON_GetObjectItemCaseSensitive(counts, rows->v[i].status);
        if (v) cJSON_SetNumberValue(v, v->valuedouble + 1);
        else cJSON_AddNumberToObject(counts, rows->v[i].status, 1);
    }
    cJSON *ca = cJSON_AddArrayToObject(o, "config_summary");
    for (int c = 0; c < nc; c++) {
        int wins = 0, solved = 0;
        for (int p = 0; p < np; p++) {
            solved += cells[p * nc + c].solved > 0;
            wins += cells[p * nc + c].best;
        }
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", plan->configs[c].name);
        cJSON_AddStringToObject(e, "solver", cfg[c].solver);
        cJSON_AddStringToObject(e, "precond", cfg[c].precond);
        cJSON_AddNumberToObject(e, "wins", wins);
        cJSON_AddNumberToObject(e, "solved", solved);
        cJSON_AddItemToArray(ca, e);
    }
    cJSON *pa = cJSON_AddArrayToObject(o, "table");
    for (int p = 0; p < np; p++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "problem", plan->problems[p].name);
        cJSON_AddStringToObject(e, "path", plan->problems[p].path);
        const char *best = NULL;
        cJSON *res = cJSON_AddObjectToObject(e, "results");
        for (int c = 0; c < nc; c++) {
            const cell *x = &cells[p * nc + c];
            cJSON *r = cJSON_CreateObject();
            cJSON_AddStringToObject(r, "status", x->status);
            if (x->solved) cJSON_AddNumberToObject(r, "median_time_s", x->median);
            else cJSON_AddNullToObject(r, "median_time_s");
            cJSON_AddNumberToObject(r, "solved", x->solved);
            cJSON_AddNumberToObject(r, "runs", x->runs);
            cJSON_AddBoolToObject(r, "best", x->best);
            cJSON_AddItemToObject(res, plan->configs[c].name, r);
            if (x->best && !best) best = plan->configs[c].name;
        }
        if (best) cJSON_AddStringToObject(e, "best", best);
        else cJSON_AddNullToObject(e, "best");
        cJSON_AddItemToArray(pa, e);
    }
    cJSON_AddBoolToObject(o, "interrupted", interrupted);
    cJSON_AddNumberToObject(o, "exit_code", exit_code);
    char *s = cJSON_PrintUnformatted(o);
    printf("%s\n", s ? s : "{}");
    free(s);
    cJSON_Delete(o);
}
