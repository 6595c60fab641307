/* src/scenes/scenes.c: a scene built from its parameters (the rigid-body
 * scenes: src/scenes/geometry.c, then rigid.c; random-spd and murty:
 * matrices.c), lcp_generate_problem (the library's lcps_problem_generate:
 * the options by name, checked as the command checks them), and the
 * triplet lists the builders assemble their matrices from. */
#include "builders.h"

#include "../core/common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lcp_gen_result_free(gen_result *r)
{
    lcp_csr_free(&r->A);
    lcp_csr_free(&r->M);
    lcp_csr_free(&r->J);
    free(r->b);
    free(r->v);
    free(r->mu);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------ triplets */

int lcp_trip_push(triplets *t, int i, int j, double x)
{
    if (t->n == t->cap) {
        long cap = t->cap ? 2 * t->cap : 256;
        int *ni = realloc(t->i, (size_t)cap * sizeof *ni);
        if (ni) t->i = ni;
        int *nj = realloc(t->j, (size_t)cap * sizeof *nj);
        if (nj) t->j = nj;
        double *nx = realloc(t->x, (size_t)cap * sizeof *nx);
        if (nx) t->x = nx;
        if (!ni || !nj || !nx) return LCP_ERROR;
        t->cap = cap;
    }
    t->i[t->n] = i;
    t->j[t->n] = j;
    t->x[t->n] = x;
    t->n++;
    return 0;
}

void lcp_trip_free(triplets *t)
{
    free(t->i);
    free(t->j);
    free(t->x);
    memset(t, 0, sizeof *t);
}

int lcp_trip_to_csr(triplets *t, int m, int n, lcp_csr *A)
{
    int rc = lcp_csr_from_triplets(A, m, n, t->n, t->i, t->j, t->x);
    lcp_trip_free(t);
    return rc ? LCP_ERROR : 0; /* entries are in range by construction */
}

/* ------------------------------------------------------------- a scene */

int lcp_gen_build(const gen_params *g, gen_result *r)
{
    rb_scene sc;
    int status = 0;
    memset(&sc, 0, sizeof sc);
    switch (g->scene->id) {
    case SC_COLUMN:
    case SC_PYRAMID:
    case SC_GRANULAR:
    case SC_TOWER:
    case SC_MASS_RATIO:
    case SC_REDUNDANT:
    case SC_CHAIN:
        status = lcp_gen_rigid_scene(g, &sc);
        if (!status) status = lcp_gen_build_rigid(g, &sc, g->mu >= 0.0, r);
        break;
    case SC_RANDOM_SPD: status = lcp_gen_build_random_spd(g, r); break;
    default: status = lcp_gen_build_murty(g, r); break;
    }
    lcp_rb_scene_free(&sc);
    return status;
}

int lcp_generate_problem(const char *scene, const char *const *options, lcp_problem *p, lcp_err *err)
{
    gen_params g;
    gen_result r;
    int idx = -1;
    memset(&r, 0, sizeof r);
    lcp_gen_usage_msg[0] = '\0';
    int rc = lcp_gen_params_init(&g);
    for (int k = 0; !rc && options && options[k]; k += 2) { /* the table's options, by name, as the command's */
        const char *name = options[k], *val = options[k + 1];
        const gen_option *o = NULL;
        for (int q = 0; q < NOPTIONS; q++)
            if (!strcmp(lcp_gen_options[q].name, name)) o = &lcp_gen_options[q], idx = q;
        if (!o || o->key == K_HELP || o->key == K_OUTPUT || o->key == K_ENVS || o->key == K_PERTURB)
            rc = lcp_gen_usage_error("'%s' is not an option of a scene (lcpsolve generate --help)", name);
        else if (!val)
            rc = lcp_gen_usage_error("--%s: no value", name);
        else if (!o->arg) { /* a flag: true or false */
            if (strcmp(val, "true") && strcmp(val, "false")) rc = lcp_gen_usage_error("--%s takes true or false", name);
            else if (!strcmp(val, "true")) rc = lcp_gen_set_option(&g, o, ""), g.given[idx] = 1;
        } else if (!(rc = lcp_gen_set_option(&g, o, val)))
            g.given[idx] = 1;
    }
    if (!rc) rc = lcp_gen_params_finish(&g, scene ? scene : "");
    if (rc) return lcp_fail(err, rc == 5 ? LCP_ERROR : LCP_INPUT_ERROR, NULL, 0, "generate: %s", lcp_gen_usage_msg);
    if (lcp_gen_build(&g, &r)) {
        lcp_gen_result_free(&r);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "generate %s: out of memory", g.scene->name);
    }
    /* the result's arrays become the problem's */
    p->kind = lcp_kind_parse(r.kind);
    p->n = r.n;
    p->A = r.A;
    p->b = r.b;
    p->blen = r.n;
    if (r.M.p) {
        p->M = r.M;
        p->J = r.J;
        p->v = r.v;
        p->vlen = r.M.m;
    }
    if (r.mu) {
        p->mu = r.mu;
        p->nmu = r.ncontacts;
    }
    char src[64];
    snprintf(src, sizeof src, "generate %s", g.scene->name);
    p->source = lcp_strdup(src);
    p->format = lcp_strdup("generated");
    return lcp_problem_finish(p, err);
}
