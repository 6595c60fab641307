/* tests/fuzz/replay.c: the libFuzzer-free driver of a harness (tests/fuzz/fuzz.h).
 *
 *   replay_NAME              every seed (fuzz_seeds[]) and every file of
 *                            tests/fuzz/regress/NAME/, from the repository root
 *   replay_NAME FILE|DIR...  those files (a folder: the files in it)
 *   replay_NAME --list-seeds prints the seed files, one a line (for
 *                            tests/fuzz/run-all, which copies them into a corpus)
 * Each input goes through LLVMFuzzerTestOneInput once; a crash, a sanitizer
 * report or a leak (SANITIZE=1) ends the run with a non-zero status and
 * "replay: crashed on FILE".  Prints "N passed, 0 failed" (tests/run.sh
 * counts it), and "PASS file" a file with REPLAY_VERBOSE=1.
 */
#include "fuzz.h"

#include <dirent.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FUZZ_NAME
#error "compile with -DFUZZ_NAME=\"name\""
#endif

static int count, verbose;
static const char *current;

/* Names the input a crash happened on (signal handler, ASan death callback). */
static void say_current(void)
{
    if (!current) return;
    const char *a = "replay: crashed on ";
    if (write(2, a, strlen(a)) < 0 || write(2, current, strlen(current)) < 0 || write(2, "\n", 1) < 0) return;
}
static void on_crash(int sig)
{
    say_current();
    signal(sig, SIG_DFL);
    raise(sig);
}
void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static void run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        exit(1);
    }
    size_t cap = 1 << 16, n = 0, got;
    unsigned char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            unsigned char *b = realloc(buf, cap *= 2);
            if (!b) free(buf);
            buf = b;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "replay: out of memory reading %s\n", path);
        exit(1);
    }
    /* an exact-size copy, so that reading past the end is caught by ASan */
    unsigned char *data = malloc(n ? n : 1);
    memcpy(data, buf, n);
    free(buf);
    current = path;
    LLVMFuzzerTestOneInput(data, n);
    current = NULL;
    free(data);
    if (verbose) printf("PASS %s\n", path);
    fflush(stdout);
    count++;
}

static void run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: no such file %s\n", path);
        exit(1);
    }
    if (!S_ISDIR(st.st_mode)) {
        run_file(path);
        return;
    }
    struct dirent **names;
    int k = scandir(path, &names, NULL, alphasort);
    for (int i = 0; i < k; i++) {
        char p[8192];
        snprintf(p, sizeof p, "%s/%s", path, names[i]->d_name);
        if (names[i]->d_name[0] != '.' && stat(p, &st) == 0 && S_ISREG(st.st_mode)) run_file(p);
        free(names[i]);
    }
    free(names);
}

static void each_seed(void (*fn)(const char *))
{
    for (int s = 0; fuzz_seeds[s]; s++) {
        glob_t g;
        char pat[1024]; /* "$DATA/...": the public collections, LCPSOLVE_DATA (default ../shared/data) */
        const char *d = getenv("LCPSOLVE_DATA");
        if (!strncmp(fuzz_seeds[s], "$DATA/", 6))
            snprintf(pat, sizeof pat, "%s/%s", d && *d ? d : "../shared/data", fuzz_seeds[s] + 6);
        else
            snprintf(pat, sizeof pat, "%s", fuzz_seeds[s]);
        if (glob(pat, 0, NULL, &g) == 0)
            for (size_t i = 0; i < g.gl_pathc; i++) {
                struct stat st;
                if (stat(g.gl_pathv[i], &st) == 0 && S_ISREG(st.st_mode)) fn(g.gl_pathv[i]);
            }
        globfree(&g);
    }
}

static void print_path(const char *p) { printf("%s\n", p); }

int main(int argc, char **argv)
{
    const char *v = getenv("REPLAY_VERBOSE");
    verbose = v && *v && strcmp(v, "0");
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    if (__sanitizer_set_death_callback) /* ASan: keep its handlers and reports */
        __sanitizer_set_death_callback(say_current);
    else
        for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) signal(sigs[k], on_crash);
    if (argc == 2 && !strcmp(argv[1], "--list-seeds")) {
        each_seed(print_path);
        return 0;
    }
    if (argc > 1) {
        for (int i = 1; i < argc; i++) run_path(argv[i]);
    } else {
        each_seed(run_file);
        struct stat st;
        if (stat("tests/fuzz/regress/" FUZZ_NAME, &st) == 0) run_path("tests/fuzz/regress/" FUZZ_NAME);
    }
    printf("%d passed, 0 failed\n", count);
    return 0;
}
