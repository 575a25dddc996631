/*
 * limit_xxh3_memcpy.c - the floors for `blobc verify` and for loading a
 * blob: read the file, then XXH3-64 it (what verify must do at least to
 * check the data hash) or memcpy it into fresh memory (what a runtime
 * pays to load a blob it does not mmap).
 *
 *     limit_xxh3_memcpy xxh3|memcpy FILE [REPEAT]
 *
 * With REPEAT, the operation is also timed in-process REPEAT more times on
 * warm memory and the best rate is printed, to separate the raw speed of
 * the operation from process start-up and file reading.
 */
#include <stdint.h>
#include <time.h>
#include <xxhash.h>

#include "slurp.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4 || (strcmp(argv[1], "xxh3") != 0 && strcmp(argv[1], "memcpy") != 0)) {
        fprintf(stderr, "usage: limit_xxh3_memcpy xxh3|memcpy FILE [REPEAT]\n");
        return 2;
    }
    int hash = strcmp(argv[1], "xxh3") == 0;
    long repeat = argc == 4 ? strtol(argv[3], NULL, 10) : 0;
    size_t len;
    unsigned char *data = slurp("limit_xxh3_memcpy", argv[2], &len);
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
            result ^= XXH3_64bits(data, len);
        } else {
            memcpy(copy, data, len);
            result ^= len ? copy[len / 3] : 0;
        }
        double t = now() - t0;
        if (i == 0 || t < best) best = t;
    }
    if (repeat > 0)
        printf("%s %zu bytes: best %.3f ms, %.2f GB/s in-process (result %016llx)\n", argv[1], len,
               best * 1e3, best > 0 ? (double)len / best / 1e9 : 0.0, (unsigned long long)result);
    else
        printf("%s %zu bytes: %016llx\n", argv[1], len, (unsigned long long)result);
    free(copy);
    free(data);
    return 0;
}
