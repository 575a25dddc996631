/*
 * watch_react.c - how soon after a save a running program hears of the new
 * blob: saves INPUT (its "name:" line changed) ROUNDS times, and times each
 * save to the notice for OUTPUT from `blobc watch --notify` (the blob is
 * then in place: the notice follows the rename). Polls the notify client
 * every 0.2 ms, as a busy game would at most. bench/watch.sh drives it.
 *
 *   usage: watch_react PORT INPUT OUTPUT ROUNDS
 * Prints the times in milliseconds, one per line, sorted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blobc/notify.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void nap(void) {
    struct timespec ts = {0, 200000};
    nanosleep(&ts, NULL);
}

/* Waits (30 s at most) for a notice of `output` after generation *gen. */
static int await(blobc_notify *c, const char *output, unsigned long long *gen) {
    double end = now() + 30;
    blobc_notice n;
    while (now() < end) {
        while (blobc_notify_poll(c, &n) == 1)
            if (strcmp(n.path, output) == 0 && n.generation > *gen) {
                *gen = n.generation;
                return 1;
            }
        nap();
    }
    return 0;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: watch_react PORT INPUT OUTPUT ROUNDS\n");
        return 2;
    }
    int rounds = atoi(argv[4]);
    FILE *f = fopen(argv[2], "rb");
    static char text[1 << 26];
    size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[len] = '\0';
    char *name = strstr(text, "\nname:"), *eol = name ? strchr(name + 1, '\n') : NULL;
    if (!eol || rounds < 1) {
        fprintf(stderr, "watch_react: %s has no name: line\n", argv[2]);
        return 2;
    }
    blobc_notify c;
    blobc_notify_init(&c, "127.0.0.1", (unsigned)atoi(argv[1]));
    unsigned long long gen = 0;
    if (!await(&c, argv[3], &gen)) { /* the state sent on connecting */
        fprintf(stderr, "watch_react: no notice for %s\n", argv[3]);
        return 1;
    }
    double *ms = malloc(rounds * sizeof *ms);
    for (int r = 0; r < rounds; r++) {
        struct timespec gap = {0, 100 * 1000000L}; /* let the last one settle */
        nanosleep(&gap, NULL);
        double t0 = now();
        f = fopen(argv[2], "wb");
        fwrite(text, 1, (size_t)(name + 1 - text), f);
        fprintf(f, "name: \"Round %d\"", r);
        fwrite(eol, 1, len - (size_t)(eol - text), f);
        fclose(f);
        if (!await(&c, argv[3], &gen)) {
            fprintf(stderr, "watch_react: no notice after save %d\n", r);
            return 1;
        }
        ms[r] = (now() - t0) * 1000;
    }
    qsort(ms, rounds, sizeof *ms, by_value);
    for (int r = 0; r < rounds; r++) printf("%.2f\n", ms[r]);
    blobc_notify_close(&c);
    return 0;
}
