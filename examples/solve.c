/* examples/solve.c: a 2 x 2 lcp through the library, from arrays.
 *   cc solve.c $(pkg-config --cflags --libs lcpsolve) && ./a.out
 * prints "solved 23 7.63e-11 1 1" (the iterations and residual of pgs). */
#include <lcpsolve.h>
#include <stdio.h>
int main(void)
{
    int rowptr[] = {0, 2, 4}, col[] = {0, 1, 0, 1};
    double val[] = {2, -1, -1, 2}, b[] = {-1, -1};
    char err[256];
    lcps_problem *p = NULL;
    lcps_settings *s = lcps_settings_new();
    lcps_result r;
    if (lcps_problem_csr("lcp", 2, rowptr, col, val, b, &p, err, sizeof err) ||
        lcps_settings_set(s, "solver", "pgs", err, sizeof err) ||
        lcps_settings_set(s, "tol", "1e-10", err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    int rc = lcps_solve(p, s, NULL, &r, err, sizeof err); /* NULL: no warm start */
    printf("%s %d %.2e %g %g\n", lcps_status_name(r.status), r.iterations,
           r.residual, r.x[0], r.x[1]);
    lcps_result_free(&r);
    lcps_settings_free(s);
    lcps_problem_free(p);
    return rc;
}
