/*
 * limit_xxh3_memcpy.c - the floors for `blobc verify` and for loading a
 * blob: read the file, then XXH3-64 it (what verify must do at least to
 * check the data hash) or memcpy it into fresh memory (what a runtime
 * pays to load a blob it does not mmap). xxh3-mmap hashes the file mapped
 * instead of read, the floor for a verify that maps its input.
 *
 *     limit_xxh3_memcpy xxh3|xxh3-mmap|memcpy FILE [REPEAT]
 *
 * With REPEAT, the operation is also timed in-process REPEAT more times on
 * warm memory and the best rate is printed, to separate the raw speed of
 * the operation from process start-up and file reading.
 */
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>
#include <xxhash.h>

#include "slurp.h"

/* Where the timed work's results go, so it cannot be optimized away. */
static volatile uint64_t sink;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The file mapped read-only; exits with status 2 on failure. */
static unsigned char *map_file(const char *path, size_t *len) {
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "limit_xxh3_memcpy: %s: %s\n", path, strerror(errno));
        exit(2);
    }
    *len = (size_t)st.st_size;
    if (*len == 0) return NULL;
    void *p = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "limit_xxh3_memcpy: %s: mmap: %s\n", path, strerror(errno));
        exit(2);
    }
    close(fd);
    return p;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    if (argc < 3 || argc > 4 ||
        (strcmp(mode, "xxh3") != 0 && strcmp(mode, "xxh3-mmap") != 0 && strcmp(mode, "memcpy") != 0)) {
        fprintf(stderr, "usage: limit_xxh3_memcpy xxh3|xxh3-mmap|memcpy FILE [REPEAT]\n");
        return 2;
    }
    int hash = strcmp(mode, "memcpy") != 0;
    int mapped = strcmp(mode, "xxh3-mmap") == 0;
    long repeat = argc == 4 ? strtol(argv[3], NULL, 10) : 0;
    size_t len;
    unsigned char *data = mapped ? map_file(argv[2], &len) : slurp("limit_xxh3_memcpy", argv[2], &len);
    unsigned char *copy = NULL;
    uint64_t result;
    if (hash) {
        result = XXH3_64bits(data, len);
    } else {
        copy = malloc(len ? len : 1);
        if (!copy) {
            fprintf(stderr, "limit_xxh3_memcpy: out of memory\n");
            return 2;
        }
        memcpy(copy, data, len);
        result = len ? copy[len / 2] : 0;
    }
    double best = 0;
    for (long i = 0; i < repeat; i++) {
        double t0 = now();
        if (hash) {
            sink = XXH3_64bits(data, len);
        } else {
            memcpy(copy, data, len);
            sink = len ? copy[len / 3] : 0;
        }
        double t = now() - t0;
        if (i == 0 || t < best) best = t;
    }
    if (repeat > 0)
        printf("%s %zu bytes: best %.3f ms, %.2f GB/s in-process (result %016llx)\n", mode, len,
               best * 1e3, best > 0 ? (double)len / best / 1e9 : 0.0, (unsigned long long)result);
    else
        printf("%s %zu bytes: %016llx\n", mode, len, (unsigned long long)result);
    free(copy);
    if (mapped) {
        if (data) munmap(data, len);
    } else {
        free(data);
    }
    return 0;
}
