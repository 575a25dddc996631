/*
 * test_anyorder.c - the walker on Unity files, whose payloads may lie in
 * any order (read/walk_anyorder.c): every layout of order.yaml that
 * tests/unit/unity_layouts.h builds is accepted or refused as a set of
 * disjoint payloads, never for its order; the table lists the payloads by
 * start; and the work stays linear on layouts built to be slow (reversed,
 * all shared, a million-deep chain laid out backwards), where a checker
 * that keeps a sorted list or compares payloads pairwise is quadratic.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobc.h"
#include "test.h"
#include "read/walk.h"
#include "walk_fixture.h"
#include "unity_layouts.h"

static blobc_schema *ORDER_S, *NODE_S;
static const blobc_type *ORDER, *NODE;

typedef struct run {
    blobc_status st;
    int code;
    char message[1100];
    size_t ntab;
    uint64_t work;
} run;

/* Walks d as a Unity file's data (any order, bytes outside payloads zero). */
static run walk_any(const uint8_t *d, size_t n, const blobc_type *root, bool sorted_check) {
    run r;
    memset(&r, 0, sizeof r);
    blobc_walk w;
    blobc_walk_init(&w);
    w.any_order = true;
    w.end_align = 16;
    blobc_error err;
    blobc_error_clear(&err);
    r.st = blobc_walk_run(&w, d, n, root, 0, &err);
    r.code = err.code;
    snprintf(r.message, sizeof r.message, "%s", err.message);
    r.ntab = w.ntab;
    r.work = w.work;
    if (sorted_check && w.any_sorted)
        for (size_t i = 1; i < w.ntab; i++)
            if (w.tstart[w.any_sorted[i - 1]] >= w.tstart[w.any_sorted[i]]) {
                r.st = BLOBC_EIO;
                snprintf(r.message, sizeof r.message, "any_sorted out of order at %zu", i);
            }
    blobc_walk_free(&w);
    return r;
}

static const int canonical[UL_COUNT] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
static const int reverse[UL_COUNT] = {0, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
static const int bfs[UL_COUNT] = {0, 1, 2, 7, 10, 3, 4, 5, 6, 8, 9, 11, 12, 13};

TEST(every_order_of_order_yaml) {
    ul_buf b = {0};
    /* every rotation of the 13 payloads after the root, both ways round */
    int order[UL_COUNT];
    for (int rot = 0; rot < 13; rot++)
        for (int dir = 0; dir < 2; dir++) {
            order[0] = 0;
            for (int i = 0; i < 13; i++) order[1 + i] = 1 + (dir ? 12 - (i + rot) % 13 : (i + rot) % 13);
            size_t n = ul_order(&b, order, UL_PLAIN);
            run r = walk_any(b.d, n, ORDER, true);
            if (r.st != BLOBC_OK) FAILF("rotation %d dir %d: %s", rot, dir, r.message);
            CHECK_EQ_U(r.ntab, UL_COUNT);
        }
    free(b.d);
}

TEST(shared_payloads_accepted) {
    ul_buf b = {0};
    size_t n = ul_order(&b, reverse, UL_SHARED);
    run r = walk_any(b.d, n, ORDER, true);
    if (r.st != BLOBC_OK) FAILF("%s", r.message);
    CHECK_EQ_U(r.ntab, UL_COUNT - 2);
    free(b.d);
}

TEST(refused_layouts) {
    static const struct {
        const int *order;
        ul_variant v;
        int code;
        const char *text;
    } cases[] = {
        {bfs, UL_OVERLAP, BLOBC_V_OVERLAP, "string target 0x1d (3 x string byte) overlaps the payload at 0x1c"},
        {bfs, UL_INSIDE, BLOBC_V_OVERLAP, "pointer target 0x38 (1 x Item) overlaps the payload at 0x24"},
        {reverse, UL_MISALIGNED, BLOBC_V_MISALIGNED, "is not aligned to 2"},
        {canonical, UL_GAP_BYTE, BLOBC_V_PADDING, "nonzero byte 0x5a outside every payload"},
    };
    ul_buf b = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = ul_order(&b, cases[i].order, cases[i].v);
        run r = walk_any(b.d, n, ORDER, false);
        if (r.st != BLOBC_EINPUT || r.code != cases[i].code || !strstr(r.message, cases[i].text))
            FAILF("case %zu: status %d code %d: %s", i, (int)r.st, r.code, r.message);
    }
    free(b.d);
}

/* A chain of a million nodes: forwards (node k at 8k), then backwards
 * (the root at 0, node k at (n - k) * 8, each successor below the one
 * before): the same work, no recursion; then the last node points back at
 * the one before it, a cycle. */
TEST(backward_chain_million) {
    size_t n = 1000000, len = 8 * n;
    uint8_t *d = calloc(n, 8);
    CHECK(d);
    for (size_t k = 0; k < n; k++) {
        blobc_st32(d + 8 * k, (uint32_t)k);
        blobc_st32(d + 8 * k + 4, k + 1 < n ? 4u : 0u);
    }
    run r = walk_any(d, len, NODE, true);
    if (r.st != BLOBC_OK) FAILF("forward: %s", r.message);
    CHECK_EQ_U(r.ntab, n);
    uint64_t forward = r.work;
    memset(d, 0, len);
    size_t prev = 0, before = 0;
    for (size_t k = 1; k < n; k++) {
        size_t at = (n - k) * 8;
        blobc_st32(d + prev + 4, (uint32_t)(int32_t)((int64_t)at - (int64_t)(prev + 4)));
        blobc_st32(d + at, (uint32_t)k);
        before = prev;
        prev = at;
    }
    r = walk_any(d, len, NODE, true);
    if (r.st != BLOBC_OK) FAILF("backward: %s", r.message);
    CHECK_EQ_U(r.ntab, n);
    if (r.work > 2 * forward + 1000)
        FAILF("work %llu backward, %llu forward", (unsigned long long)r.work, (unsigned long long)forward);
    blobc_st32(d + prev + 4, (uint32_t)(int32_t)((int64_t)before - (int64_t)(prev + 4)));
    r = walk_any(d, len, NODE, false);
    if (r.st != BLOBC_EINPUT || r.code != BLOBC_V_CYCLE) FAILF("cycle: code %d: %s", r.code, r.message);
    free(d);
}

/* The work on n reversed or all-shared strings, per string, must not grow
 * with n (a sorted insert or a pairwise check grows it n times). */
TEST(many_payloads_linear) {
    ul_buf b = {0};
    for (int shared = 0; shared < 2; shared++) {
        double per[2];
        size_t sizes[2] = {4000, 64000};
        for (int s = 0; s < 2; s++) {
            size_t len = ul_many(&b, sizes[s], shared);
            run r = walk_any(b.d, len, ORDER, true);
            if (r.st != BLOBC_OK) FAILF("shared %d, %zu strings: %s", shared, sizes[s], r.message);
            CHECK_EQ_U(r.ntab, shared ? 4 : sizes[s] + 3);
            per[s] = (double)r.work / (double)sizes[s];
        }
        if (per[1] > per[0] * 1.2 + 1)
            FAILF("shared %d: work per string %.2f at 4000, %.2f at 64000", shared, per[0], per[1]);
    }
    free(b.d);
}

/* Without any_order the same files are refused for their order: .blob
 * files keep the canonical layout. */
TEST(canonical_rule_for_blob_files) {
    ul_buf b = {0};
    size_t n = ul_order(&b, reverse, UL_PLAIN);
    blobc_error err;
    blobc_error_clear(&err);
    blobc_walk w;
    blobc_walk_init(&w);
    CHECK_EQ_I(blobc_walk_run(&w, b.d, n, ORDER, 0, &err), BLOBC_EINPUT);
    CHECK_EQ_I(err.code, BLOBC_V_LAYOUT);
    blobc_walk_free(&w);
    n = ul_order(&b, canonical, UL_PLAIN);
    blobc_walk_init(&w);
    CHECK_EQ_I(blobc_walk_run(&w, b.d, n, ORDER, 0, &err), BLOBC_OK);
    blobc_walk_free(&w);
    free(b.d);
}

TEST_MAIN_BEGIN("anyorder")
    ORDER_S = fx_schema_parse("struct Item { name: string; vals: [u16]; flag: bool; }\n"
                              "struct Order { title: string; items: [Item]; best: *Item; tags: [string]; }\n"
                              "root Order;\n");
    ORDER = blobc_schema_root(ORDER_S);
    NODE_S = fx_schema_parse("struct Node { v: u32; next: *Node; } root Node;");
    NODE = blobc_schema_root(NODE_S);
    RUN(every_order_of_order_yaml);
    RUN(shared_payloads_accepted);
    RUN(refused_layouts);
    RUN(backward_chain_million);
    RUN(many_payloads_linear);
    RUN(canonical_rule_for_blob_files);
    blobc_schema_free(ORDER_S);
    blobc_schema_free(NODE_S);
TEST_MAIN_END
