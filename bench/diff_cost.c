/* bench/diff_cost.c: what the derivatives of a solution cost beside the
 * solve itself, on a generated pyramid (4 B^2 contacts; B = 50: 10,000).
 *
 *   build/bench/diff_cost KIND BASE SHIFT REPEATS SOLVER [OPTION VALUE]...
 *
 * KIND lcp, fc3d or ccp (mu 0.5).  The pyramid's A is singular (4 contact points
 * a face: the solution is not unique, nor its derivative), so the problem
 * solved is A + SHIFT I (its own problem: the solve reaches its tolerance).
 * Rounds of: the solve (lcps_solve with SOLVER and the options), then
 * lcps_diff_new (the Jacobian K at the solution and its LU), a JVP along a
 * random db and a VJP of a random g (each one solve with that LU), and,
 * as the yardstick of "one linear solve with a factorisation", a CHOLMOD
 * factorisation of A + SHIFT I and one solve with it; where the solver is
 * nsn (fc3d, ccp), the solve's own factorisation too: the LU of nsn's
 * Jacobian at the solution, and one solve with it.  Every time is the
 * calling thread's CPU time (lcp_cpu_now: the machine's load does not move
 * it; run with one thread: OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1, as
 * make bench-diff does); the JVP, the VJP and the yardstick's solve are
 * timed INNER (15) times a round.  Prints the medians in milliseconds and
 * the ratios to the solve and to the yardstick's solve, all from the same
 * run. */
#include <lcpsolve.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/api_internal.h"
#include "core/common.h"
#include "diff/diff.h"
#include "la/sparse_factor.h"
#include "solvers/nsn.h"
#include "median.h"

#define INNER 15

int main(int argc, char **argv)
{
    if (argc < 6 || (argc - 6) % 2) {
        fprintf(stderr, "usage: %s lcp|fc3d|ccp BASE SHIFT REPEATS SOLVER [OPTION VALUE]...\n", argv[0]);
        return 2;
    }
    const char *kind = argv[1];
    double shift = atof(argv[3]);
    int repeats = atoi(argv[4]);
    if (repeats < 1 || shift < 0 || (strcmp(kind, "lcp") && strcmp(kind, "fc3d") && strcmp(kind, "ccp"))) {
        fprintf(stderr, "diff_cost: bad arguments\n");
        return 2;
    }
    char err[1024];
    const char *gopt[] = {"base", argv[2], strcmp(kind, "lcp") ? "mu" : NULL, "0.5", NULL};
    lcps_problem *g = NULL, *p = NULL;
    if (lcps_problem_generate("pyramid", gopt, &g, err, sizeof err)) {
        fprintf(stderr, "diff_cost: %s\n", err);
        return 2;
    }
    lcp_err e = {{0}};
    const lcp_problem *lp = lcp_api_problem(g, NULL, NULL, &e);
    int n = lp->n;
    long nnz = lcp_csr_nnz(&lp->A);
    double *ax = malloc((size_t)nnz * sizeof *ax);
    for (int i = 0; i < n; i++)
        for (int k = lp->A.p[i]; k < lp->A.p[i + 1]; k++) ax[k] = lp->A.x[k] + (lp->A.j[k] == i ? shift : 0.0);
    if (lcps_problem_csr(kind, n, lp->A.p, lp->A.j, ax, lp->b, &p, err, sizeof err) ||
        (lp->mu && lcps_problem_set_vector(p, "mu", lp->mu, lp->nmu, err, sizeof err))) {
        fprintf(stderr, "diff_cost: %s\n", err);
        return 2;
    }
    lcps_settings *s = lcps_settings_new();
    if (lcps_settings_set(s, "solver", argv[5], err, sizeof err)) {
        fprintf(stderr, "diff_cost: %s\n", err);
        return 2;
    }
    for (int a = 6; a < argc; a += 2)
        if (lcps_settings_set(s, argv[a], argv[a + 1], err, sizeof err)) {
            fprintf(stderr, "diff_cost: %s\n", err);
            return 2;
        }
    double *ts = malloc((size_t)repeats * (3 + 3 * INNER) * sizeof *ts), *tp = ts + repeats, *tf = tp + repeats;
    double *tj = tf + repeats, *tv = tj + (size_t)repeats * INNER, *tl = tv + (size_t)repeats * INNER;
    double *db = malloc((size_t)n * sizeof *db), *gv = malloc((size_t)n * sizeof *gv), *dx = malloc((size_t)n * sizeof *dx);
    double *gb = malloc((size_t)n * sizeof *gb), *gA = malloc((size_t)nnz * sizeof *gA), *y = malloc((size_t)n * sizeof *y);
    for (int i = 0; i < n; i++) db[i] = sin(i + 1.0), gv[i] = cos(3.0 * i);
    int status = 0, ndeg = 0, iters = 0;
    double dotdiff = 0;
    const char *solver = "", *how = "";
    double fill_k = 0, fill_a = 0; /* nonzeros of K_RR's factors, of A's Cholesky factor */
    double *tg = malloc((size_t)repeats * INNER * sizeof *tg); /* a VJP of b alone (no grad_A) */
    double *tk = malloc((size_t)repeats * INNER * sizeof *tk); /* one solve with K's factor alone */
    double *tu = malloc((size_t)repeats * INNER * sizeof *tu); /* one solve with an LU of A */
    double *tn = malloc((size_t)repeats * INNER * sizeof *tn); /* one solve with nsn's LU at the solution */
    int nsn_yard = 0;
    int lu_yard = 0, pieces[3] = {0, 0, 0}; /* friction contacts: polar, interior, surface (summed over the rounds) */
    double fill_u = 0;
    for (int r = 0; r < repeats; r++) {
        lcps_result res;
        double t0 = lcp_cpu_now();
        int rc = lcps_solve(p, s, NULL, &res, err, sizeof err);
        ts[r] = lcp_cpu_now() - t0;
        if (rc) {
            fprintf(stderr, "diff_cost: the solve ended %s (%s)\n", lcps_status_name(res.status), err);
            return 1;
        }
        iters = res.iterations;
        solver = res.solver;
        lcps_diff *d = NULL;
        t0 = lcp_cpu_now();
        rc = lcps_diff_new(p, NULL, &res, &d, err, sizeof err);
        tp[r] = lcp_cpu_now() - t0;
        if (rc) {
            fprintf(stderr, "diff_cost: %s\n", err);
            return 1;
        }
        ndeg = lcps_diff_degenerate(d, NULL);
        const lcp_diff *ld = lcp_diff_of(d);
        how = lcp_diff_method(ld);
        lu_yard = ld->lu_num != NULL;
        for (int c = 0; ld->nc && ld->B && c < ld->nc; c++) { /* the pieces: B = 0, I, or the surface's */
            double z = 0.0, id = 0.0;
            for (int q = 0; q < 9; q++) z += fabs(ld->B[9 * c + q]), id += fabs(ld->B[9 * c + q] - (q % 4 == 0));
            pieces[z == 0.0 ? 0 : id == 0.0 ? 1 : 2]++;
        }
        fill_k = ld->lu_num ? ld->lu_info[UMFPACK_LNZ] + ld->lu_info[UMFPACK_UNZ]
                 : ld->fsym      ? ld->FS.cc.lnz
                 : ld->chol      ? ld->F.cc.lnz
                 : ld->sp_on     ? ld->SP.F.cc.lnz + (ld->SP.Mt ? 2.0 * ((int *)ld->SP.Mt->p)[ld->SP.nd] + ld->SP.cc.lnz : 0.0)
                                 : 0;
        int nk = ld->fsym ? ld->nf : ld->nr;
        double *kb = calloc((size_t)nk + 1, sizeof *kb), *ky = calloc((size_t)nk + 1, sizeof *ky);
        for (int i = 0; i < nk; i++) kb[i] = sin(2.0 * i + 1.0);
        for (int k = 0; k < INNER; k++) { /* the factor's transposed solve alone, as a VJP calls it */
            t0 = lcp_cpu_now();
            lcp_diff_solve_factor((lcp_diff *)ld, 1, kb, ky);
            tk[r * INNER + k] = lcp_cpu_now() - t0;
        }
        free(kb), free(ky);
        /* each kind of call INNER times in a row, as the yardsticks' solves are timed (interleaved, a VJP with
         * grad_A's 8 bytes an entry of A written before each would find less of K's factor in the cache
         * than the yardstick's repeated solves find of theirs) */
        for (int k = 0; k < INNER && !rc; k++) {
            t0 = lcp_cpu_now();
            rc = lcps_jvp(d, NULL, db, NULL, dx, err, sizeof err);
            tj[r * INNER + k] = lcp_cpu_now() - t0;
        }
        for (int k = 0; k < INNER && !rc; k++) {
            t0 = lcp_cpu_now();
            rc |= lcps_vjp(d, gv, gA, gb, NULL, err, sizeof err);
            tv[r * INNER + k] = lcp_cpu_now() - t0;
        }
        for (int k = 0; k < INNER && !rc; k++) {
            t0 = lcp_cpu_now();
            rc |= lcps_vjp(d, gv, NULL, gb, NULL, err, sizeof err);
            tg[r * INNER + k] = lcp_cpu_now() - t0;
        }
        if (rc) {
            fprintf(stderr, "diff_cost: %s\n", err);
            return 1;
        }
        double l = 0, rr = 0;
        for (int i = 0; i < n; i++) l += gv[i] * dx[i], rr += gb[i] * db[i];
        dotdiff = fmax(dotdiff, fabs(l - rr) / fmax(fabs(l), 1e-300));
        lcps_diff_free(d);
        /* where nsn solved: its own factorisation, the LU of its Jacobian at the solution (what its next
         * step would factorise; src/solvers/nsn.h), and one solve with it */
        if (!strcmp(res.solver, "nsn")) {
            const lcp_problem *pn = lcp_api_problem(p, NULL, NULL, &e);
            nsn_work *nw = NULL;
            int sn = nsn_work_new(pn, &nw, &e);
            if (!sn) sn = nsn_factor(nw, res.x, &e);
            for (int k = 0; k < INNER && !sn; k++) {
                t0 = lcp_cpu_now();
                sn = nsn_factor_solve(nw, db, y);
                tn[r * INNER + k] = lcp_cpu_now() - t0;
            }
            nsn_yard = !sn;
            if (nw) nsn_work_free(nw);
            status |= sn;
        }
        lcps_result_free(&res);
        /* the yardstick: a Cholesky of A + shift I and one solve (shift 0: the pyramid's A is singular, so
         * A + 1e-12 max(diag A) I, the pattern and the fill of A's) */
        const lcp_problem *ps = lcp_api_problem(p, NULL, NULL, &e);
        double *yx = ps->A.x;
        if (shift == 0 && (yx = malloc((size_t)nnz * sizeof *yx))) {
            double dmax = 0;
            for (int i = 0; i < n; i++) dmax = fmax(dmax, lcp_csr_diag(&ps->A, i));
            for (int i = 0; i < n; i++)
                for (int k = ps->A.p[i]; k < ps->A.p[i + 1]; k++) yx[k] = ps->A.x[k] + (ps->A.j[k] == i ? 1e-12 * dmax : 0.0);
        }
        if (!yx) yx = ps->A.x;
        lcp_sparse_factor F;
        t0 = lcp_cpu_now();
        int sf = lcp_sparse_factor_init(&F, n, ps->A.p, ps->A.j, yx, 1, LCP_SF_REFINE_DEFAULT);
        if (!sf) sf = lcp_sparse_factor_refactor(&F, yx, LCP_SF_CHOLESKY);
        tf[r] = lcp_cpu_now() - t0;
        if (!sf) fill_a = F.cc.lnz;
        for (int k = 0; k < INNER && !sf; k++) {
            t0 = lcp_cpu_now();
            sf = lcp_sparse_factor_solve(&F, db, y);
            tl[r * INNER + k] = lcp_cpu_now() - t0;
        }
        lcp_sparse_factor_free(&F);
        if (yx != ps->A.x) free(yx);
        status |= sf;
        /* a second yardstick where K_RR takes an LU: an LU of A + shift I
         * (UMFPACK through src/la/sparse_factor.c, no refinement: the
         * factorisation nsn keeps of its unsymmetric Jacobian) and one solve */
        if (!lu_yard) continue;
        sf = lcp_sparse_factor_init(&F, n, ps->A.p, ps->A.j, ps->A.x, 0, 0);
        if (!sf) sf = lcp_sparse_factor_refactor(&F, ps->A.x, LCP_SF_LU);
        for (int k = 0; k < INNER && !sf; k++) {
            t0 = lcp_cpu_now();
            sf = lcp_sparse_factor_solve(&F, db, y);
            tu[r * INNER + k] = lcp_cpu_now() - t0;
        }
        if (!sf) fill_u = F.info[UMFPACK_LNZ] + F.info[UMFPACK_UNZ];
        lcp_sparse_factor_free(&F);
        status |= sf;
    }
    int ri = repeats * INNER;
    double ms = 1e3, S = median(ts, repeats), P = median(tp, repeats), Jv = median(tj, ri), V = median(tv, ri);
    double Fc = median(tf, repeats), L = median(tl, ri), G = median(tg, ri), Ks = median(tk, ri);
    printf("pyramid base %s, %s, %d contacts, n = %d, nnz(A) = %ld, A + %g I; solver %s (%d iterations); "
           "%d degenerate; %d rounds, %d JVP, VJP and yardstick solves a round (medians, thread CPU time); "
           "K_RR %s\n",
           argv[2], kind, strcmp(kind, "lcp") ? n / 3 : n, n, nnz, shift, solver, iters, ndeg, repeats, INNER, how);
    if (strcmp(kind, "lcp"))
        printf("  contacts at the solution: %d separating (held), %d sticking (inside the cone), %d sliding (its surface)\n",
               pieces[0] / repeats, pieces[1] / repeats, pieces[2] / repeats);
    printf("  solve                      %10.2f ms\n", S * ms);
    printf("  lcps_diff_new (K, factor)  %10.2f ms   %.3f x the solve\n", P * ms, P / S);
    printf("  lcps_jvp (one solve)       %10.2f ms   %.4f x the solve\n", Jv * ms, Jv / S);
    printf("  lcps_vjp (one solve)       %10.2f ms   %.4f x the solve\n", V * ms, V / S);
    printf("  lcps_vjp, grad_b alone     %10.2f ms   %.4f x the solve\n", G * ms, G / S);
    printf("  new + vjp                  %10.2f ms   %.3f x the solve\n", (P + V) * ms, (P + V) / S);
    printf("  yardstick: Cholesky of A   %10.2f ms, one solve with it %.2f ms (vjp / that solve: %.2f; grad_b alone: %.2f)\n",
           Fc * ms, L * ms, V / L, G / L);
    printf("  K's factor, one solve alone %9.2f ms (that / the yardstick's solve: %.2f)\n", Ks * ms, Ks / L);
    if (lu_yard) {
        double U = median(tu, ri);
        printf("  yardstick: LU of A (UMFPACK), one solve with it %.2f ms (vjp / that solve: %.2f; grad_b alone: %.2f)\n",
               U * ms, V / U, G / U);
    }
    if (nsn_yard) {
        double N = median(tn, ri);
        printf("  the solve's factorisation: nsn's LU at the solution, one solve with it %.2f ms (vjp / that solve: %.2f; "
               "grad_b alone: %.2f)\n", N * ms, V / N, G / N);
    }
    printf("  factors' nonzeros: K's %.0f (LU: L + U; pseudo-inverse: L of K_II, M twice, L of I + M M'), A's Cholesky %.0f (L; a solve reads it twice)", fill_k, fill_a);
    if (lu_yard) printf(", A's LU %.0f (L + U)", fill_u);
    printf("\n");
    printf("  dot-product test |<g, Jv> - <J'g, v>| / |<g, Jv>| = %.1e\n", dotdiff);
    free(tn), free(tu), free(tk), free(tg), free(ts), free(db), free(gv), free(dx), free(gb), free(gA), free(y), free(ax);
    lcps_settings_free(s);
    lcps_problem_free(p);
    lcps_problem_free(g);
    return status ? 5 : 0;
}
