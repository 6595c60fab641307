/* examples/factored.c: a contact problem in factored form, as a physics
 * engine has it: a column of 3 spheres on the ground (vertical motion
 * only), masses M, contact Jacobian J, free velocity v after one step of
 * gravity.  lcpsolve forms A = J M^-1 J' and b = J v itself; solver "si"
 * (sequential impulses) works on M, J and v without forming A.
 *   cc factored.c $(pkg-config --cflags --libs lcpsolve) && ./a.out
 * The impulses carry the weight above each contact: 6, 3 and 1 times
 * m g dt for masses 3, 2, 1 (printed, then checked). */
#include <lcpsolve.h>
#include <math.h>
#include <stdio.h>

int main(void)
{
    const double g = 9.81, dt = 0.01;
    double mass[3] = {3, 2, 1}; /* bottom to top */
    /* M = diag(mass); J: contact 0 (ground-sphere 0) +1 on body 0, contact
     * k (sphere k-1 - sphere k) -1 on body k-1, +1 on body k */
    int mp[] = {0, 1, 2, 3}, mj[] = {0, 1, 2};
    int jp[] = {0, 1, 3, 5}, jj[] = {0, 0, 1, 1, 2};
    double jx[] = {1, -1, 1, -1, 1};
    double v[3];
    for (int i = 0; i < 3; i++) v[i] = -g * dt; /* at rest, then one step of gravity */
    lcps_csr M = {3, 3, mp, mj, mass}, J = {3, 3, jp, jj, jx};
    char err[256];
    lcps_problem *p = NULL;
    if (lcps_problem_factored("lcp", &M, &J, v, NULL, &p, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    const char *solvers[] = {"si", "pgs", "lemke"};
    int worst = 0;
    for (int k = 0; k < 3; k++) {
        lcps_settings *s = lcps_settings_new();
        lcps_result r;
        if (lcps_settings_set(s, "solver", solvers[k], err, sizeof err) ||
            lcps_settings_set(s, "tol", "1e-12", err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        int rc = lcps_solve(p, s, NULL, &r, err, sizeof err);
        if (rc == 2 || rc == 5) {
            fprintf(stderr, "%s\n", err);
            return rc;
        }
        printf("%-6s %s in %d iterations, residual %.1e, impulses / (m g dt):", r.solver, lcps_status_name(r.status),
               r.iterations, r.residual);
        for (int i = 0; i < r.n; i++) {
            double expect = 0; /* the weight of the spheres above contact i */
            for (int j = i; j < 3; j++) expect += mass[j];
            printf(" %.6f", r.x[i] / (g * dt));
            if (fabs(r.x[i] / (g * dt) - expect) > 1e-6) rc = 1;
        }
        printf("\n");
        if (rc > worst) worst = rc;
        lcps_result_free(&r);
        lcps_settings_free(s);
    }
    lcps_problem_free(p);
    return worst;
}
