/* examples/fit_friction.c: a friction coefficient fitted to observed
 * velocities by gradient descent through the solver.
 *   cc fit_friction.c $(pkg-config --cflags --libs lcpsolve) && ./a.out
 *
 * A ball (mass 1, a point: M = I, J = I in the contact frame: normal z,
 * tangents x, y) is thrown along the ground at 8 speeds; one time step of
 * 3D Coulomb friction (fc3d, in factored form: A = J M^-1 J', b = J v)
 * gives its velocity after the step, v+ = v + M^-1 J' r.  The velocities
 * "observed" are those of mu = 0.35: slow throws stick, fast ones slide.
 * Starting from mu = 0.8, gradient descent on
 *     L(mu) = sum over throws of |v+(mu) - v+_observed|^2
 * takes dL/dmu from lcps_vjp: the cotangent of r is g = J M^-1 dL/dv+,
 * and the VJP's grad_mu is dL/dmu (one solve with the factorisation that
 * lcps_diff_new made at the solution).  Prints the fit, then checks that
 * it found 0.35 (exit 0) or not (exit 1). */
#include <lcpsolve.h>
#include <math.h>
#include <stdio.h>

#define THROWS 8

/* v+ of one throw at friction mu, and (grad != NULL) dL/dmu of its term */
static int step(double mu, const double *v, const double *obs, double *vplus, double *grad)
{
    int mp[] = {0, 1, 2, 3}, mj[] = {0, 1, 2}, jp[] = {0, 1, 2, 3}, jj[] = {0, 1, 2};
    double mx[] = {1, 1, 1}, jx[] = {1, 1, 1}; /* contact rows: normal (z), tangents (x, y) */
    lcps_csr M = {3, 3, mp, mj, mx}, J = {3, 3, jp, jj, jx};
    char err[256];
    lcps_problem *p = NULL;
    lcps_settings *s = lcps_settings_new();
    lcps_result r = {0};
    lcps_diff *d = NULL;
    int rc = lcps_problem_factored("fc3d", &M, &J, v, NULL, &p, err, sizeof err);
    if (!rc) rc = lcps_problem_set_vector(p, "mu", &mu, 1, err, sizeof err);
    if (!rc) rc = lcps_settings_set(s, "solver", "nsn", err, sizeof err);
    if (!rc) rc = lcps_settings_set(s, "tol", "1e-13", err, sizeof err);
    if (!rc) rc = lcps_solve(p, s, NULL, &r, err, sizeof err);
    if (!rc) {
        for (int k = 0; k < 3; k++) vplus[k] = v[k] + r.x[k]; /* v + M^-1 J' r, M = J = I */
        if (grad) {
            double g[3];
            for (int k = 0; k < 3; k++) g[k] = 2.0 * (vplus[k] - obs[k]); /* J M^-1 dL/dv+ */
            rc = lcps_diff_new(p, s, &r, &d, err, sizeof err);
            if (!rc) rc = lcps_vjp(d, g, NULL, NULL, grad, err, sizeof err);
        }
    }
    if (rc) fprintf(stderr, "fit_friction: %s\n", err);
    lcps_diff_free(d);
    lcps_result_free(&r);
    lcps_settings_free(s);
    lcps_problem_free(p);
    return rc;
}

int main(void)
{
    const double g = 9.81, dt = 0.01, mu_true = 0.35;
    double v[THROWS][3], obs[THROWS][3];
    /* directions along the ground: unit vectors (3-4-5 and 5-12-13 triangles) */
    const double dir[THROWS][2] = {{1, 0}, {0.6, 0.8}, {0, 1}, {-0.8, 0.6}, {-5.0 / 13, -12.0 / 13},
                                   {0.8, -0.6}, {-1, 0}, {12.0 / 13, 5.0 / 13}};
    for (int t = 0; t < THROWS; t++) { /* normal velocity first: the contact frame (z, x, y) */
        double speed = 0.01 + 0.02 * t;
        v[t][0] = -g * dt;
        v[t][1] = speed * dir[t][0];
        v[t][2] = speed * dir[t][1];
        if (step(mu_true, v[t], NULL, obs[t], NULL)) return 2;
    }
    double mu = 0.8, lr = 8.0, loss = 0.0;
    for (int it = 0; it < 200; it++) {
        double grad = 0.0;
        loss = 0.0;
        for (int t = 0; t < THROWS; t++) {
            double vp[3], gt;
            if (step(mu, v[t], obs[t], vp, &gt)) return 2;
            grad += gt;
            for (int k = 0; k < 3; k++) loss += (vp[k] - obs[t][k]) * (vp[k] - obs[t][k]);
        }
        if (it % 10 == 0 || loss < 1e-20) printf("iteration %3d  mu %.6f  loss %.3e  dL/dmu %+.3e\n", it, mu, loss, grad);
        if (loss < 1e-20) break;
        mu -= lr * grad;
    }
    printf("fitted mu %.6f (the observations' %.2f)\n", mu, mu_true);
    return fabs(mu - mu_true) < 1e-6 ? 0 : 1;
}
