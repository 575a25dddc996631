/*
 * lookup.c - bench/forms.sh's map lookups: opens a blob of map.schema
 * (Db, a [string: Item] map) with the header `blobc gen c` writes for it,
 * and looks up LOOKUPS keys spread over the map through the generated
 * find (a binary search), timing them with a monotonic clock. Prints
 * "entries N lookups L ns_per_lookup X"; exits 2 when a key is missing.
 */
#include "map_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../slurp.h"

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: lookup BLOB LOOKUPS\n");
        return 2;
    }
    size_t len;
    unsigned char *buf = slurp("lookup", argv[1], &len);
    blobc_rt_status st;
    const Db *db = Db_open(buf, len, &st);
    if (!db) {
        fprintf(stderr, "lookup: %s: not a blob of map.schema\n", argv[1]);
        return 2;
    }
    size_t n = Db_items_count(db), lookups = strtoul(argv[2], NULL, 10);
    unsigned long long sum = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (size_t i = 0; i < lookups; i++) {
        char key[32];
        int kl = snprintf(key, sizeof key, "item%07zu", (i * 7919) % n);
        const Db_items_entry *e = Db_items_find(db, key, (size_t)kl);
        if (!e) {
            fprintf(stderr, "lookup: key %s is missing\n", key);
            return 2;
        }
        sum += e->value.hp;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / (double)lookups;
    printf("entries %zu lookups %zu ns_per_lookup %.1f (sum %llu)\n", n, lookups, ns, sum);
    free(buf);
    return 0;
}
