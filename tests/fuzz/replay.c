/*
 * replay.c - a libFuzzer target without libFuzzer: runs the target's
 * LLVMFuzzerTestOneInput once on every file named (a directory: each file
 * in it, in name order). `make check` links each target with this and
 * replays the seed corpus and every crash kept as a regression case
 * (tests/fuzz/seeds.sh), so a fixed crash stays fixed; under `make asan`
 * the replay runs with the sanitizers, as the fuzzer does.
 *
 * Each input is copied to a buffer of exactly its size, so that a read past
 * its end is a read past an allocation (ASan reports it). The name of each
 * input goes to stderr before it runs: after a crash, the last one named
 * is the culprit.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t runs;

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *more = realloc(buf, cap *= 2);
            if (!more) free(buf);
            buf = more;
        }
    }
    int bad = ferror(f);
    fclose(f);
    uint8_t *exact = buf ? malloc(n ? n : 1) : NULL;
    if (!exact || bad) {
        free(buf);
        free(exact);
        fprintf(stderr, "replay: cannot read %s\n", path);
        return 1;
    }
    if (n) memcpy(exact, buf, n);
    free(buf);
    fprintf(stderr, "replay: %s\n", path);
    (void)LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    runs++;
    return 0;
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return run_file(dir);
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            char **more = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
            if (!more) {
                rc = 1;
                break;
            }
            names = more;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(len))) {
            rc = 1;
            break;
        }
        snprintf(names[n++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (!rc && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) rc = run_file(names[i]);
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (run_dir(argv[i])) return 2;
    printf("%zu inputs\n", runs);
    return 0;
}
