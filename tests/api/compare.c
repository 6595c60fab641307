/* tests/api/compare.c: one solve through the installed library, printed so
 * that tests/e2e/library.sh compares it with the binary's answer bit for
 * bit:  compare PROBLEM OUT.txt [NAME VALUE]...  (settings by long name)
 * prints "EXIT STATUS ITERATIONS SOLVER" and writes x, %.17g a line.
 * Built against the installed library through pkg-config. */
#include <lcpsolve.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    char err[512];
    lcps_problem *p = NULL;
    lcps_settings *s = lcps_settings_new();
    lcps_result r;
    if (argc < 3 || argc % 2 == 0) {
        fprintf(stderr, "usage: compare PROBLEM OUT.txt [NAME VALUE]...\n");
        return 2;
    }
    if (lcps_problem_read(argv[1], &p, err, sizeof err)) {
        printf("2 input_error 0 -\n");
        fprintf(stderr, "%s\n", err);
        return 0;
    }
    for (int k = 3; k + 1 < argc; k += 2)
        if (lcps_settings_set(s, argv[k], argv[k + 1], err, sizeof err)) {
            printf("2 input_error 0 -\n");
            fprintf(stderr, "%s\n", err);
            return 0;
        }
    int rc = lcps_solve(p, s, NULL, &r, err, sizeof err);
    printf("%d %s %d %s\n", rc, lcps_status_name(r.status), r.iterations, *r.solver ? r.solver : "-");
    if (*err) fprintf(stderr, "%s\n", err);
    FILE *f = fopen(argv[2], "w");
    for (int i = 0; f && r.x && i < r.n; i++) fprintf(f, "%.17g\n", r.x[i]);
    if (f) fclose(f);
    lcps_result_free(&r);
    lcps_settings_free(s);
    lcps_problem_free(p);
    return 0;
}
