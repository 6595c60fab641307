/* tests/fuzz/util.c: the temporary files of tests/fuzz/fuzz.h. */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[4096];

static void cleanup(void)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    char p[8192];
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    closedir(d);
    rmdir(dir);
}

const char *fuzz_dir(void)
{
    if (!dir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/lcpfuzz.XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(dir)) {
            perror("fuzz: mkdtemp");
            abort();
        }
        atexit(cleanup);
    }
    return dir;
}

const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[8192];
    snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f)) {
        perror("fuzz: writing the input file");
        abort();
    }
    return path;
}
