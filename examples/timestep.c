/* examples/timestep.c: a time-stepping loop.  A column of N spheres falls
 * onto the ground and comes to rest (vertical motion, velocity-level
 * contact with a gap term); every step is a factored-form lcp solved by
 * lcpsolve, warm-started from the previous step's impulses (x0), through
 * the update path: the contacts persist, so the problem is made once (A =
 * J M^-1 J' formed once) and each step changes only v and e (b = J v + e),
 * the colour classes of the sweep order (setting "order") built once too.
 * Prints the iterations of a few steps, then the total with and without
 * warm starts, and checks that the column rests on the ground.
 *   cc timestep.c $(pkg-config --cflags --libs lcpsolve) -lm && ./a.out */
#include <lcpsolve.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 8        /* spheres */
#define STEPS 200

static const double g = 9.81, dt = 0.01, radius = 0.1;

/* One run of STEPS steps; warm: start each solve from the last impulses.
 * Returns the total iterations, -1 on an error; z: the final heights. */
static long simulate(int warm, double *z, int print)
{
    double v[N], mass[N], lambda[N] = {0};
    int mp[N + 1], mj[N], jp[N + 1], jj[2 * N];
    double jx[2 * N], e[N], vfree[N];
    for (int i = 0; i < N; i++) {
        z[i] = radius + 2 * radius * i + 0.02 * (i + 1); /* dropped from small gaps */
        v[i] = 0;
        mass[i] = 1.0 + 0.5 * i;
        mp[i] = i, mj[i] = i;
    }
    mp[N] = N;
    lcps_settings *s = lcps_settings_new();
    char err[256];
    if (lcps_settings_set(s, "solver", "pgs", err, sizeof err) || lcps_settings_set(s, "tol", "1e-8", err, sizeof err) ||
        lcps_settings_set(s, "order", "colour", err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    /* contact c is under sphere c: J's pattern and values stay (the column
     * keeps its contacts), so the problem is made once */
    int k = 0;
    jp[0] = 0;
    for (int c = 0; c < N; c++) {
        if (c > 0) jj[k] = c - 1, jx[k++] = -1;
        jj[k] = c, jx[k++] = 1;
        jp[c + 1] = k;
    }
    lcps_csr M = {N, N, mp, mj, mass}, J = {N, N, jp, jj, jx};
    lcps_problem *p = NULL;
    for (int i = 0; i < N; i++) vfree[i] = -g * dt, e[i] = 0;
    if (lcps_problem_factored("lcp", &M, &J, vfree, e, &p, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    long total = 0;
    for (int step = 0; step < STEPS; step++) {
        for (int c = 0; c < N; c++) { /* the gap term: a contact closes no further than its gap */
            double gap = c == 0 ? z[0] - radius : z[c] - z[c - 1] - 2 * radius;
            e[c] = gap / dt;
        }
        for (int i = 0; i < N; i++) vfree[i] = v[i] - g * dt;
        lcps_result r;
        if (lcps_problem_set_vector(p, "v", vfree, N, err, sizeof err) ||
            lcps_problem_set_vector(p, "e", e, N, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return -1;
        }
        int rc = lcps_solve(p, s, warm ? lambda : NULL, &r, err, sizeof err);
        if (rc == 2 || rc == 5 || !r.x) {
            fprintf(stderr, "step %d: %s\n", step, rc ? err : "no answer");
            return -1;
        }
        total += r.iterations;
        if (print && (step < 3 || step % 50 == 0))
            printf("step %3d  %-10s %4d iterations  residual %.1e\n", step, lcps_status_name(r.status), r.iterations,
                   r.residual);
        memcpy(lambda, r.x, sizeof lambda);
        /* v = v_free + M^-1 J' lambda, then the positions */
        for (int i = 0; i < N; i++) v[i] = vfree[i];
        for (int c = 0; c < N; c++)
            for (int q = jp[c]; q < jp[c + 1]; q++) v[jj[q]] += jx[q] * lambda[c] / mass[jj[q]];
        for (int i = 0; i < N; i++) z[i] += dt * v[i];
        lcps_result_free(&r);
    }
    lcps_problem_free(p);
    lcps_settings_free(s);
    return total;
}

int main(void)
{
    double zw[N], zc[N];
    long warm = simulate(1, zw, 1), cold = simulate(0, zc, 0);
    if (warm < 0 || cold < 0) return 2;
    printf("iterations over %d steps: %ld warm-started, %ld from zero\n", STEPS, warm, cold);
    int ok = 1;
    for (int i = 0; i < N; i++) { /* at rest: each sphere on the one below, within 1e-6 */
        double want = radius + 2 * radius * i;
        if (fabs(zw[i] - want) > 1e-6 || fabs(zc[i] - want) > 1e-6) ok = 0;
    }
    printf("column at rest: %s (top sphere at z = %.6f, expected %.6f)\n", ok ? "yes" : "no", zw[N - 1],
           radius + 2 * radius * (N - 1));
    return ok && warm < cold ? 0 : 1;
}
