/*
 * unity_layouts.c - writes Unity files of tests/data/unity/order.schema
 * whose payloads lie in other orders than blobc's canonical one, as
 * tests/unit/unity_layouts.h builds them, for tests/cli/unity.sh:
 *
 *     unity_layouts OUTDIR [N]
 *
 * OUTDIR/NAME.bytes for each layout below (version 1, Length padded to
 * 16), and many-reverse.bytes and many-shared.bytes with N tags (default
 * 100000).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobc.h"
#include "common/buffer.h"
#include "../unit/unity_layouts.h"

static void write_unity(const char *dir, const char *name, const ul_buf *b, size_t n) {
    blobc_buffer out = {0};
    blobc_error err;
    blobc_error_clear(&err);
    blobc_unity_options o = {1, false, BLOBC_UNITY_LENGTH_PADDED};
    if (!blobc_buf_append(&out, b->d, n) || blobc_unity_wrap(n, &o, &out, &err) != BLOBC_OK) {
        fprintf(stderr, "unity_layouts: %s: %s\n", name, err.message);
        exit(2);
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.bytes", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(out.data, 1, out.len, f) != out.len || fclose(f) != 0) {
        fprintf(stderr, "unity_layouts: %s: %s\n", path, strerror(errno));
        exit(2);
    }
    blobc_buffer_free(&out);
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: unity_layouts OUTDIR [N]\n");
        return 2;
    }
    static const int canonical[UL_COUNT] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
    static const int reverse[UL_COUNT] = {0, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
    /* a baker's order: the root's payloads, then each item's */
    static const int bfs[UL_COUNT] = {0, 1, 2, 7, 10, 3, 4, 5, 6, 8, 9, 11, 12, 13};
    static const int interleaved[UL_COUNT] = {0, 2, 11, 3, 10, 4, 12, 7, 5, 13, 1, 8, 6, 9};
    static const struct {
        const char *name;
        const int *order;
        ul_variant v;
    } layouts[] = {
        {"canonical", canonical, UL_PLAIN},   {"reverse", reverse, UL_PLAIN},
        {"bfs", bfs, UL_PLAIN},               {"interleaved", interleaved, UL_PLAIN},
        {"shared", reverse, UL_SHARED},       {"overlap", bfs, UL_OVERLAP},
        {"inside", bfs, UL_INSIDE},           {"misaligned", reverse, UL_MISALIGNED},
        {"gap", canonical, UL_GAP_BYTE},
    };
    ul_buf b = {0};
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
        write_unity(argv[1], layouts[i].name, &b, ul_order(&b, layouts[i].order, layouts[i].v));
    size_t n = argc == 3 ? (size_t)strtoul(argv[2], NULL, 10) : 100000;
    write_unity(argv[1], "many-reverse", &b, ul_many(&b, n, 0));
    write_unity(argv[1], "many-shared", &b, ul_many(&b, n, 1));
    free(b.d);
    return 0;
}
