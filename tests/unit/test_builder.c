/*
 * test_builder.c - the blob builder: canonical placement, offsets, zeroed
 * gaps, shared payloads, open (growable) allocations, deep graphs, the
 * 2 GiB limit and the programming errors it reports.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/builder.h"
#include "test.h"
#include "common/buffer.h"
#include "common/endian.h"

static int32_t rd_i32(const uint8_t *p) { return (int32_t)blobc_ld32(p); }

/* Compares the image with expected bytes, naming the first difference. */
#define CHECK_BYTES(buf, want, n)                                                       \
    do {                                                                                \
        const uint8_t *w_ = (const uint8_t *)(want);                                    \
        CHECK_EQ_U((buf).len, (n));                                                     \
        for (size_t i_ = 0; i_ < (size_t)(n); i_++)                                     \
            if ((buf).data[i_] != w_[i_])                                               \
                FAILF("byte %zu: got 0x%02x, want 0x%02x", i_, (buf).data[i_], w_[i_]); \
    } while (0)

static blobc_ref alloc_str(blobc_builder *b, const char *s) {
    size_t n = strlen(s) + 1;
    blobc_ref r = 0;
    void *mem = NULL;
    if (blobc_builder_alloc(b, n, 1, &r, &mem) != BLOBC_OK) return UINT32_MAX;
    memcpy(mem, s, n);
    return r;
}

TEST(root_with_string) {
    blobc_builder *b = blobc_builder_new();
    CHECK(b);
    uint8_t *root;
    CHECK_EQ_I(blobc_builder_root(b, 8, 4, (void **)&root), BLOBC_OK);
    blobc_st32(root + 4, 3);
    blobc_ref s = alloc_str(b, "hi");
    CHECK_EQ_U(s, 1);
    CHECK_EQ_I(blobc_builder_link(b, 0, 0, s), BLOBC_OK);
    blobc_buffer out = {0};
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_OK);
    blobc_builder_free(b);
    static const uint8_t want[] = {8, 0, 0, 0, 3, 0, 0, 0, 'h', 'i', 0};
    CHECK_EQ_U((uintptr_t)out.data % 16, 0);
    CHECK_BYTES(out, want, sizeof want);
    blobc_buffer_free(&out);
}

/* root { items: [K] } with K { name: string; v: u32 } (12 bytes): three
 * items recorded c, a, b, sorted to a, b, c; each item's string link and
 * a pending reference in the root's field move with it. */
TEST(sorted_items_keep_their_links) {
    blobc_builder *b = blobc_builder_new();
    uint8_t *root;
    CHECK_EQ_I(blobc_builder_root(b, 12, 4, (void **)&root), BLOBC_OK);
    blobc_ref items;
    CHECK_EQ_I(blobc_builder_open(b, 4, &items), BLOBC_OK);
    const char *names[3] = {"c", "a", "b"};
    uint32_t ref_id = 0;
    for (uint32_t i = 0; i < 3; i++) {
        uint8_t *it = blobc_builder_grow(b, items, 12);
        CHECK(it);
        blobc_st32(it + 12 - 4, 10 + i);
        blobc_st32(it + 4, 2);
        CHECK_EQ_I(blobc_builder_link(b, items, i * 12, alloc_str(b, names[i])), BLOBC_OK);
    }
    blobc_ref t[3];
    CHECK_EQ_I(blobc_builder_item_targets(b, items, 12, 0, 3, t), BLOBC_OK);
    CHECK_EQ_U(t[0], 2);
    CHECK_EQ_U(t[2], 4);
    const uint32_t perm[3] = {1, 2, 0};
    CHECK_EQ_I(blobc_builder_permute(b, items, 12, 3, perm), BLOBC_OK);
    CHECK_EQ_I(blobc_builder_close(b, items), BLOBC_OK);
    blobc_st32(root + 4, 3);
    CHECK_EQ_I(blobc_builder_link(b, 0, 0, items), BLOBC_OK);
    blobc_buffer out = {0};
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_OK);
    blobc_builder_free(b);
    /* items at 12: a (v 11), b (v 12), c (v 10); their strings follow in
     * that order, each reached from its own item */
    static const char want_names[] = "a\0b\0c";
    for (uint32_t i = 0; i < 3; i++) {
        const uint8_t *it = out.data + 12 + 12 * i;
        CHECK_EQ_U(blobc_ld32(it + 8), (i + 1) % 3 + 10);
        CHECK_EQ_U(out.data[12 + 12 * i + rd_i32(it)], (uint8_t)want_names[2 * i]);
        CHECK_EQ_I(rd_i32(it), (int32_t)(48 + 2 * i - 12 - 12 * i));
    }
    blobc_buffer_free(&out);
    (void)ref_id;
    /* not a permutation: the builder fails */
    b = blobc_builder_new();
    CHECK_EQ_I(blobc_builder_root(b, 12, 4, (void **)&root), BLOBC_OK);
    CHECK_EQ_I(blobc_builder_open(b, 4, &items), BLOBC_OK);
    CHECK(blobc_builder_grow(b, items, 24));
    const uint32_t bad[2] = {1, 1};
    CHECK_EQ_I(blobc_builder_permute(b, items, 12, 2, bad), BLOBC_EARG);
    CHECK_EQ_I(blobc_builder_status(b, &err), BLOBC_EARG);
    CHECK(strstr(err.message, "not a permutation") != NULL);
    blobc_builder_free(b);
}

/* root { r: &K; items: [K] } K { v: u32; }: a reference resolved to item 1
 * lands on it, forward of the field; one never resolved fails finish. */
TEST(pending_references) {
    for (int resolve = 0; resolve < 2; resolve++) {
        blobc_builder *b = blobc_builder_new();
        uint8_t *root;
        CHECK_EQ_I(blobc_builder_root(b, 12, 4, (void **)&root), BLOBC_OK);
        uint32_t id = 99;
        CHECK_EQ_I(blobc_builder_link_pending(b, 0, 0, &id), BLOBC_OK);
        CHECK_EQ_U(id, 0);
        blobc_ref items;
        uint8_t *mem;
        CHECK_EQ_I(blobc_builder_alloc(b, 8, 4, &items, (void **)&mem), BLOBC_OK);
        blobc_st32(mem, 5);
        blobc_st32(mem + 4, 6);
        blobc_st32(root + 8, 2);
        CHECK_EQ_I(blobc_builder_link(b, 0, 4, items), BLOBC_OK);
        if (resolve) CHECK_EQ_I(blobc_builder_resolve(b, id, items, 4), BLOBC_OK);
        blobc_buffer out = {0};
        blobc_error err;
        blobc_error_clear(&err);
        blobc_status st = blobc_builder_finish(b, &out, &err);
        blobc_builder_free(b);
        if (!resolve) {
            CHECK_EQ_I(st, BLOBC_EARG);
            CHECK(strstr(err.message, "never resolved") != NULL);
            continue;
        }
        CHECK_EQ_I(st, BLOBC_OK);
        /* items at 12: the reference at 0 leads to 12 + 4 */
        CHECK_EQ_I(rd_i32(out.data), 16);
        CHECK_EQ_I(rd_i32(out.data + 4), 8);
        CHECK_EQ_U(blobc_ld32(out.data + 16), 6);
        blobc_buffer_free(&out);
    }
}

/* root { id: u32; items: [Item] }  Item { name: string; x: u16 } (12 bytes).
 * `reverse` records every link and allocation in a different order; the
 * image must not change. */
static blobc_status build_items(bool reverse, blobc_buffer *out, blobc_error *err) {
    blobc_builder *b = blobc_builder_new();
    if (!b) return BLOBC_ENOMEM;
    uint8_t *root;
    blobc_builder_root(b, 12, 4, (void **)&root);
    blobc_st32(root, 0x11223344);
    blobc_st32(root + 8, 2);
    blobc_ref s0, s1, arr;
    if (reverse) {
        s1 = alloc_str(b, "bc");
        s0 = alloc_str(b, "a");
    }
    blobc_builder_open(b, 4, &arr);
    uint8_t *it = blobc_builder_grow(b, arr, 12);
    blobc_st32(it + 4, 2);
    blobc_st16(it + 8, 0xbeef);
    it = blobc_builder_grow(b, arr, 12);
    blobc_st32(it + 4, 3);
    blobc_st16(it + 8, 0x0102);
    if (!reverse) {
        s0 = alloc_str(b, "a");
        s1 = alloc_str(b, "bc");
        blobc_builder_link(b, arr, 0, s0);
        blobc_builder_link(b, arr, 12, s1);
        blobc_builder_close(b, arr);
        blobc_builder_link(b, 0, 4, arr);
    } else {
        blobc_builder_link(b, 0, 4, arr);
        blobc_builder_link(b, arr, 12, s1);
        blobc_builder_link(b, arr, 0, s0);
        blobc_builder_close(b, arr);
    }
    blobc_status st = blobc_builder_finish(b, out, err);
    blobc_builder_free(b);
    return st;
}

static const uint8_t items_want[] = {
    0x44, 0x33, 0x22, 0x11, 8, 0, 0, 0, 2, 0, 0, 0,  /* root: id, items {+8 -> 12, 2} */
    24, 0, 0, 0, 2, 0, 0, 0, 0xef, 0xbe, 0, 0,       /* item 0 at 12: name -> 36 */
    14, 0, 0, 0, 3, 0, 0, 0, 0x02, 0x01, 0, 0,       /* item 1 at 24: name -> 38 */
    'a', 0, 'b', 'c', 0};

TEST(array_of_structs_with_strings) {
    blobc_buffer out = {0};
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(build_items(false, &out, &err), BLOBC_OK);
    CHECK_BYTES(out, items_want, sizeof items_want);
    blobc_buffer_free(&out);
}

TEST(order_of_recording_does_not_matter) {
    blobc_buffer out = {0};
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(build_items(true, &out, &err), BLOBC_OK);
    CHECK_BYTES(out, items_want, sizeof items_want);
    blobc_buffer_free(&out);
}

TEST(shared_payload_stored_once) {
    blobc_builder *b = blobc_builder_new();
    uint8_t *root;
    blobc_builder_root(b, 16, 4, (void **)&root);
    blobc_st32(root + 4, 3);
    blobc_st32(root + 12, 3);
    blobc_ref s = alloc_str(b, "xy");
    CHECK_EQ_I(blobc_builder_link(b, 0, 8, s), BLOBC_OK);
    CHECK_EQ_I(blobc_builder_link(b, 0, 0, s), BLOBC_OK);
    blobc_buffer out = {0};
    blobc_error err;
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_OK);
    blobc_builder_free(b);
    static const uint8_t want[] = {16, 0, 0, 0, 3, 0, 0, 0, 8, 0, 0, 0, 3, 0, 0, 0, 'x', 'y', 0};
    CHECK_BYTES(out, want, sizeof want);
    blobc_buffer_free(&out);
}

/* A payload first reached deep in the walk and linked again later from
 * the root gets a negative offset. */
TEST(shared_payload_negative_offset) {
    blobc_builder *b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    uint8_t *pm;
    blobc_ref p, s;
    blobc_builder_alloc(b, 4, 4, &p, (void **)&pm);
    s = alloc_str(b, "z");
    blobc_builder_link(b, 0, 0, p);
    blobc_builder_link(b, p, 0, s);
    blobc_builder_link(b, 0, 4, s);
    blobc_buffer out = {0};
    blobc_error err;
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_OK);
    blobc_builder_free(b);
    /* root 0..8, p at 8, s at 12: root+0 -> 8, p -> +4, root+4 -> 12-4 = 8 */
    static const uint8_t want[] = {8, 0, 0, 0, 8, 0, 0, 0, 4, 0, 0, 0, 'z', 0};
    CHECK_BYTES(out, want, sizeof want);
    blobc_buffer_free(&out);
}

TEST(nested_open_arrays) {
    /* root { a: [[u32]] } = [[1, 2], [3]] */
    blobc_builder *b = blobc_builder_new();
    uint8_t *root;
    blobc_builder_root(b, 8, 4, (void **)&root);
    blobc_st32(root + 4, 2);
    blobc_ref outer, in0, in1;
    CHECK_EQ_I(blobc_builder_open(b, 4, &outer), BLOBC_OK);
    uint8_t *slot = blobc_builder_grow(b, outer, 8);
    CHECK(slot);
    blobc_st32(slot + 4, 2);
    CHECK_EQ_I(blobc_builder_open(b, 4, &in0), BLOBC_OK);
    uint8_t *v = blobc_builder_grow(b, in0, 4);
    blobc_st32(v, 1);
    /* The outer array grows while in0 is still open. */
    slot = blobc_builder_grow(b, outer, 8);
    blobc_st32(slot + 4, 1);
    v = blobc_builder_grow(b, in0, 4);
    blobc_st32(v, 2);
    CHECK_EQ_I(blobc_builder_open(b, 4, &in1), BLOBC_OK);
    v = blobc_builder_grow(b, in1, 4);
    blobc_st32(v, 3);
    CHECK_EQ_I(blobc_builder_close(b, in1), BLOBC_OK);
    CHECK_EQ_I(blobc_builder_close(b, in0), BLOBC_OK);
    CHECK_EQ_U(blobc_builder_size(b, outer), 16);
    CHECK_EQ_I(blobc_builder_link(b, outer, 0, in0), BLOBC_OK);
    CHECK_EQ_I(blobc_builder_link(b, outer, 8, in1), BLOBC_OK);
    CHECK_EQ_I(blobc_builder_close(b, outer), BLOBC_OK);
    CHECK_EQ_I(blobc_builder_link(b, 0, 0, outer), BLOBC_OK);
    CHECK_EQ_U(blobc_builder_size(b, in0), 8);
    CHECK_EQ_U(blobc_ld32((uint8_t *)blobc_builder_ptr(b, in0) + 4), 2);
    blobc_buffer out = {0};
    blobc_error err;
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_OK);
    blobc_builder_free(b);
    static const uint8_t want[] = {
        8, 0, 0, 0, 2, 0, 0, 0,                          /* root */
        16, 0, 0, 0, 2, 0, 0, 0, 16, 0, 0, 0, 1, 0, 0, 0, /* outer at 8 */
        1, 0, 0, 0, 2, 0, 0, 0,                          /* in0 at 24 */
        3, 0, 0, 0};                                     /* in1 at 32 */
    CHECK_BYTES(out, want, sizeof want);
    blobc_buffer_free(&out);
}

TEST(deep_pointer_chain) {
    /* root { head: *Node }  Node { v: u32; next: *Node }, a million long,
     * allocated back to front so placement order differs from ref order. */
    enum { N = 1000000 };
    blobc_builder *b = blobc_builder_new();
    blobc_builder_root(b, 4, 4, NULL);
    blobc_ref prev = 0;
    for (uint32_t k = 0; k < N; k++) {
        uint8_t *m;
        blobc_ref r;
        CHECK_EQ_I(blobc_builder_alloc(b, 8, 4, &r, (void **)&m), BLOBC_OK);
        blobc_st32(m, N - 1 - k);
        if (prev) CHECK_EQ_I(blobc_builder_link(b, r, 4, prev), BLOBC_OK);
        prev = r;
    }
    CHECK_EQ_I(blobc_builder_link(b, 0, 0, prev), BLOBC_OK);
    blobc_buffer out = {0};
    blobc_error err;
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_OK);
    blobc_builder_free(b);
    CHECK_EQ_U(out.len, 4 + 8u * N);
    CHECK_EQ_I(rd_i32(out.data), 4);
    for (uint32_t k = 0; k < N; k++) {
        const uint8_t *node = out.data + 4 + 8u * k;
        if (blobc_ld32(node) != k) FAILF("node %u holds %u", k, blobc_ld32(node));
        int32_t want = k + 1 < N ? 4 : 0;
        if (rd_i32(node + 4) != want) FAILF("node %u next = %d", k, rd_i32(node + 4));
    }
    blobc_buffer_free(&out);
}

TEST(alignment_gaps_are_zero) {
    blobc_builder *b = blobc_builder_new();
    uint8_t *root;
    blobc_builder_root(b, 5, 1, (void **)&root);
    memset(root, 0xaa, 5);
    blobc_ref s = alloc_str(b, "abc"), big, mid;
    uint8_t *m;
    blobc_builder_alloc(b, 16, 16, &big, (void **)&m);
    memset(m, 0xbb, 16);
    blobc_builder_alloc(b, 8, 8, &mid, (void **)&m);
    memset(m, 0xcc, 8);
    blobc_builder_link(b, 0, 0, s);     /* s at 5..9 */
    blobc_builder_link(b, s, 0, big);   /* big at 16 (gap 7..16) */
    blobc_builder_link(b, big, 8, mid); /* mid at 32 */
    blobc_buffer out = {0};
    blobc_error err;
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_OK);
    blobc_builder_free(b);
    uint8_t want[40];
    memset(want, 0, sizeof want);
    blobc_st32(want, 5);
    want[4] = 0xaa;
    blobc_st32(want + 5, 11);
    memset(want + 16, 0xbb, 16);
    blobc_st32(want + 24, 8);
    memset(want + 32, 0xcc, 8);
    CHECK_BYTES(out, want, sizeof want);
    blobc_buffer_free(&out);
}

/* Sizes over two of finish's 1 MiB copy slices and not a multiple of one,
 * so that the sliced copy of a block of its own is exercised. */
TEST(allocations_larger_than_a_chunk) {
    enum { BIG = 3 * 1024 * 1024 + 300 * 1024, GROWN = 2 * 1024 * 1024 + 200 * 1024 };
    blobc_builder *b = blobc_builder_new();
    blobc_builder_root(b, 16, 4, NULL);
    uint8_t *m;
    blobc_ref big, arr;
    CHECK_EQ_I(blobc_builder_alloc(b, BIG, 4, &big, (void **)&m), BLOBC_OK);
    for (size_t i = 0; i < BIG; i++) m[i] = (uint8_t)(i * 7);
    /* Small allocations after the big one still come from chunks. */
    blobc_ref small = alloc_str(b, "after");
    CHECK_EQ_I(blobc_builder_open(b, 4, &arr), BLOBC_OK);
    for (size_t i = 0; i < GROWN / 4; i++) {
        uint8_t *p = blobc_builder_grow(b, arr, 4);
        CHECK(p);
        blobc_st32(p, (uint32_t)i);
    }
    CHECK_EQ_I(blobc_builder_close(b, arr), BLOBC_OK);
    blobc_builder_link(b, 0, 0, big);
    blobc_builder_link(b, 0, 8, arr);
    blobc_builder_link(b, 0, 12, small);
    blobc_buffer out = {0};
    blobc_error err;
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_OK);
    blobc_builder_free(b);
    CHECK_EQ_U(out.len, 16 + BIG + GROWN + 6);
    CHECK_EQ_I(rd_i32(out.data), 16);
    CHECK_EQ_I(rd_i32(out.data + 8), 16 + BIG - 8);
    CHECK_EQ_I(rd_i32(out.data + 12), 16 + BIG + GROWN - 12);
    for (size_t i = 0; i < BIG; i++)
        if (out.data[16 + i] != (uint8_t)(i * 7)) FAILF("big byte %zu", i);
    for (size_t i = 0; i < GROWN / 4; i++)
        if (blobc_ld32(out.data + 16 + BIG + 4 * i) != i) FAILF("array item %zu", i);
    CHECK(memcmp(out.data + 16 + BIG + GROWN, "after", 6) == 0);
    blobc_buffer_free(&out);
}

TEST(unreached_allocations_are_dropped) {
    blobc_builder *b = blobc_builder_new();
    blobc_builder_root(b, 4, 4, NULL);
    blobc_ref junk = alloc_str(b, "unused"), s = alloc_str(b, "used");
    blobc_builder_link(b, junk, 0, s); /* from an unreached allocation */
    blobc_builder_link(b, 0, 0, s);
    blobc_buffer out = {0};
    blobc_error err;
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_OK);
    blobc_builder_free(b);
    static const uint8_t want[] = {4, 0, 0, 0, 'u', 's', 'e', 'd', 0};
    CHECK_BYTES(out, want, sizeof want);
    blobc_buffer_free(&out);
}

TEST(finish_replaces_buffer_contents) {
    blobc_buffer out = {0};
    CHECK(blobc_buf_puts(&out, "old contents that are longer"));
    blobc_builder *b = blobc_builder_new();
    uint8_t *root;
    blobc_builder_root(b, 2, 2, (void **)&root);
    root[0] = 7;
    blobc_error err;
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_OK);
    blobc_builder_free(b);
    static const uint8_t want[] = {7, 0};
    CHECK_BYTES(out, want, 2);
    blobc_buffer_free(&out);
}

TEST(single_allocation_over_limit) {
    blobc_builder *b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    blobc_ref r = 77;
    void *m = (void *)&r;
    CHECK_EQ_I(blobc_builder_alloc(b, (size_t)BLOBC_MAX_DATA_SIZE + 1, 1, &r, &m), BLOBC_EINPUT);
    CHECK_EQ_U(r, 77);
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_builder_status(b, &err), BLOBC_EINPUT);
    CHECK_STR(err.message, "data section would be at least 2147483648 bytes; offsets are "
                           "32-bit, so the limit is 2 GiB - 1");
    /* Sticky: later calls fail and finish reports the first error. */
    CHECK_EQ_I(blobc_builder_alloc(b, 4, 4, &r, NULL), BLOBC_EINPUT);
    blobc_buffer out = {0};
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_EINPUT);
    CHECK_CONTAINS(err.message, "at least 2147483648 bytes");
    CHECK(out.data == NULL);
    blobc_builder_free(b);
}

TEST(grow_over_limit) {
    blobc_builder *b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    blobc_ref a;
    blobc_builder_open(b, 4, &a);
    CHECK(blobc_builder_grow(b, a, 16));
    CHECK(blobc_builder_grow(b, a, BLOBC_MAX_DATA_SIZE - 15) == NULL);
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_builder_status(b, &err), BLOBC_EINPUT);
    CHECK_CONTAINS(err.message, "at least 2147483648 bytes");
    blobc_builder_free(b);
}

TEST(total_over_limit) {
    /* Two 1 GiB payloads: calloc'd blocks that are never touched, so this
     * costs address space only; the size check runs before the image is
     * allocated. */
    blobc_builder *b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    blobc_ref x, y;
    CHECK_EQ_I(blobc_builder_alloc(b, (size_t)1 << 30, 1, &x, NULL), BLOBC_OK);
    CHECK_EQ_I(blobc_builder_alloc(b, (size_t)1 << 30, 1, &y, NULL), BLOBC_OK);
    blobc_builder_link(b, 0, 0, x);
    blobc_builder_link(b, 0, 4, y);
    blobc_buffer out = {0};
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_EINPUT);
    CHECK_STR(err.message, "data section would be 2147483656 bytes; offsets are 32-bit, so "
                           "the limit is 2 GiB - 1");
    CHECK(out.data == NULL);
    blobc_builder_free(b);
}

/* Runs `finish` on a builder and returns the message it failed with. */
static blobc_status finish_err(blobc_builder *b, blobc_error *err) {
    blobc_buffer out = {0};
    blobc_error_clear(err);
    blobc_status st = blobc_builder_finish(b, &out, err);
    blobc_buffer_free(&out);
    blobc_builder_free(b);
    return st;
}

TEST(errors_in_calls) {
    blobc_error err;
    blobc_builder *b = blobc_builder_new();
    CHECK_EQ_I(blobc_builder_alloc(b, 4, 4, NULL, NULL), BLOBC_EARG);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "allocation before the root");

    b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    CHECK_EQ_I(blobc_builder_root(b, 8, 4, NULL), BLOBC_EARG);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "the root must be the first allocation");

    b = blobc_builder_new();
    CHECK_EQ_I(blobc_builder_root(b, 0, 4, NULL), BLOBC_EARG);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "allocation of size 0");

    b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    CHECK_EQ_I(blobc_builder_alloc(b, 4, 3, NULL, NULL), BLOBC_EARG);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "alignment 3 is not a power of two <= 16");

    b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    CHECK_EQ_I(blobc_builder_open(b, 32, NULL), BLOBC_EARG);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "alignment 32 is not a power of two <= 16");

    b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    CHECK_EQ_I(blobc_builder_link(b, 0, 0, 5), BLOBC_EARG);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "link to allocation 5, which does not exist");

    b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    alloc_str(b, "s");
    CHECK_EQ_I(blobc_builder_link(b, 9, 0, 1), BLOBC_EARG);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "link from allocation 9, which does not exist");

    b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    alloc_str(b, "s");
    CHECK_EQ_I(blobc_builder_link(b, 0, 5, 1), BLOBC_EARG);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "link at byte 5 of allocation 0, which is only 8 bytes");

    b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    alloc_str(b, "s");
    CHECK_EQ_I(blobc_builder_link(b, 1, 0, 1), BLOBC_EARG); /* 2-byte allocation */
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "link at byte 0 of allocation 1, which is only 2 bytes");

    b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    blobc_ref e;
    blobc_builder_open(b, 4, &e);
    blobc_builder_close(b, e);
    CHECK_EQ_I(blobc_builder_link(b, 0, 0, e), BLOBC_EARG);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message,
              "link to allocation 1, which is empty (an empty array is stored as offset 0)");

    b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    CHECK(blobc_builder_grow(b, 0, 4) == NULL);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "grow of allocation 0, which is not open");

    b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    CHECK_EQ_I(blobc_builder_close(b, 3), BLOBC_EARG);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "close of allocation 3, which is not open");
}

TEST(errors_at_finish) {
    blobc_error err;
    blobc_builder *b = blobc_builder_new();
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "no root allocation");

    b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    blobc_ref o1, o2;
    blobc_builder_open(b, 4, &o1);
    blobc_builder_open(b, 4, &o2);
    blobc_builder_grow(b, o2, 4);
    blobc_builder_close(b, o2);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "allocation 1 is still open at finish");

    /* Linked while open, then closed empty. */
    b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    blobc_builder_open(b, 4, &o1);
    CHECK_EQ_I(blobc_builder_link(b, 0, 0, o1), BLOBC_OK);
    blobc_builder_close(b, o1);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message,
              "link to allocation 1, which is empty (an empty array is stored as offset 0)");

    b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    alloc_str(b, "s");
    blobc_builder_link(b, 0, 0, 1);
    blobc_builder_link(b, 0, 2, 1);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "links at bytes 0 and 2 of allocation 0 overlap");

    b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    blobc_builder_link(b, 0, 4, 0);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message,
              "allocation 0 links back to allocation 0, which contains it: a blob cannot "
              "hold a cycle");

    b = blobc_builder_new();
    blobc_builder_root(b, 4, 4, NULL);
    blobc_ref n1, n2;
    blobc_builder_alloc(b, 4, 4, &n1, NULL);
    blobc_builder_alloc(b, 4, 4, &n2, NULL);
    blobc_builder_link(b, 0, 0, n1);
    blobc_builder_link(b, n1, 0, n2);
    blobc_builder_link(b, n2, 0, n1);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message,
              "allocation 2 links back to allocation 1, which contains it: a blob cannot "
              "hold a cycle");

    b = blobc_builder_new();
    blobc_builder_root(b, 4, 4, NULL);
    blobc_buffer out = {0};
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_OK);
    blobc_buffer_free(&out);
    CHECK_EQ_I(blobc_builder_alloc(b, 4, 4, NULL, NULL), BLOBC_EARG);
    CHECK_EQ_I(finish_err(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "builder used after finish");
}

/* A graph shaped like a level: rooms with names, neighbor lists and
 * shared tags, checked by walking the image the way a reader would. */
TEST(level_shaped_graph) {
    enum { ROOMS = 2000, ROOM = 20 };
    blobc_builder *b = blobc_builder_new();
    uint8_t *root;
    blobc_builder_root(b, 8, 4, (void **)&root);
    blobc_st32(root + 4, ROOMS);
    blobc_ref tag = alloc_str(b, "shared");
    blobc_ref rooms;
    blobc_builder_open(b, 4, &rooms);
    for (uint32_t i = 0; i < ROOMS; i++) {
        /* Room { id: u32; name: string; tag: string } = 20 bytes */
        uint8_t *r = blobc_builder_grow(b, rooms, ROOM);
        blobc_st32(r, i);
        char name[32];
        snprintf(name, sizeof name, "room%u", (unsigned)i);
        blobc_st32(r + 8, (uint32_t)strlen(name) + 1);
        blobc_st32(r + 16, 7);
        blobc_ref s = alloc_str(b, name);
        blobc_builder_link(b, rooms, i * ROOM + 12, tag);
        blobc_builder_link(b, rooms, i * ROOM + 4, s);
    }
    blobc_builder_close(b, rooms);
    blobc_builder_link(b, 0, 0, rooms);
    blobc_buffer out = {0};
    blobc_error err;
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_OK);
    blobc_builder_free(b);
    const uint8_t *d = out.data;
    CHECK_EQ_I(rd_i32(d), 8);
    const uint8_t *tagp = NULL;
    for (uint32_t i = 0; i < ROOMS; i++) {
        const uint8_t *r = d + 8 + (size_t)i * ROOM;
        CHECK_EQ_U(blobc_ld32(r), i);
        char name[32];
        snprintf(name, sizeof name, "room%u", (unsigned)i);
        const char *got = (const char *)r + 4 + rd_i32(r + 4);
        CHECK_STR(got, name);
        const uint8_t *t = r + 12 + rd_i32(r + 12);
        if (!tagp) tagp = t;
        CHECK(t == tagp);
    }
    CHECK_STR((const char *)tagp, "shared");
    /* Canonical order: the tag is reached (at byte 12 of room 0) after
     * room 0's name (at byte 4). */
    CHECK_EQ_U((size_t)(tagp - d), 8 + ROOMS * ROOM + 6);
    blobc_buffer_free(&out);
}

/* finish_at puts the same image behind a zeroed prefix, with room after. */
TEST(finish_at_leaves_prefix_and_room) {
    blobc_buffer plain = {0}, at = {0};
    blobc_error err;
    blobc_error_clear(&err);
    for (int i = 0; i < 2; i++) {
        blobc_builder *b = blobc_builder_new();
        uint8_t *root;
        CHECK_EQ_I(blobc_builder_root(b, 8, 4, (void **)&root), BLOBC_OK);
        blobc_st32(root + 4, 3);
        blobc_ref s = alloc_str(b, "hi");
        CHECK_EQ_I(blobc_builder_link(b, 0, 0, s), BLOBC_OK);
        if (i == 0) CHECK_EQ_I(blobc_builder_finish(b, &plain, &err), BLOBC_OK);
        else CHECK_EQ_I(blobc_builder_finish_at(b, &at, 96, 40, &err), BLOBC_OK);
        blobc_builder_free(b);
    }
    CHECK_EQ_U(plain.len, 11);
    CHECK_EQ_U(at.len, 96 + 11);
    CHECK(at.cap >= at.len + 40);
    CHECK_EQ_U((uintptr_t)(at.data + 96) % 16, 0);
    for (size_t i = 0; i < 96; i++)
        if (at.data[i]) FAILF("prefix byte %zu is 0x%02x", i, at.data[i]);
    CHECK(memcmp(at.data + 96, plain.data, plain.len) == 0);
    blobc_buffer_free(&plain);
    blobc_buffer_free(&at);

    blobc_builder *b = blobc_builder_new();
    blobc_builder_root(b, 4, 4, NULL);
    blobc_buffer out = {0};
    CHECK_EQ_I(blobc_builder_finish_at(b, &out, 8, 0, &err), BLOBC_EARG);
    CHECK_STR(err.message, "image prefix of 8 bytes is not a multiple of 16");
    blobc_builder_free(b);
}

/* Links recorded out of order, many to one allocation, so that grouping
 * has to move records between allocations and sort a long group. */
TEST(many_links_recorded_out_of_order) {
    enum { N = 1000 };
    blobc_builder *b = blobc_builder_new();
    blobc_builder_root(b, 8, 4, NULL);
    blobc_ref arr, strs[N];
    uint8_t *m;
    CHECK_EQ_I(blobc_builder_alloc(b, N * 8, 4, &arr, (void **)&m), BLOBC_OK);
    for (int i = 0; i < N; i++) {
        char name[16];
        snprintf(name, sizeof name, "s%d", i);
        strs[i] = alloc_str(b, name);
    }
    /* Odd items first, then even ones backwards, the root's link last. */
    for (int i = 1; i < N; i += 2) CHECK_EQ_I(blobc_builder_link(b, arr, (uint32_t)i * 8, strs[i]), BLOBC_OK);
    for (int i = N - 2; i >= 0; i -= 2) CHECK_EQ_I(blobc_builder_link(b, arr, (uint32_t)i * 8, strs[i]), BLOBC_OK);
    CHECK_EQ_I(blobc_builder_link(b, 0, 0, arr), BLOBC_OK);
    blobc_buffer out = {0};
    blobc_error err;
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_OK);
    blobc_builder_free(b);
    CHECK_EQ_I(rd_i32(out.data), 8);
    /* Strings follow the array in item order. */
    size_t at = 8 + N * 8;
    for (int i = 0; i < N; i++) {
        char name[16];
        int n = snprintf(name, sizeof name, "s%d", i);
        const uint8_t *item = out.data + 8 + (size_t)i * 8;
        CHECK_EQ_I((int64_t)(item - out.data) + rd_i32(item), (int64_t)at);
        CHECK_STR((const char *)out.data + at, name);
        at += (size_t)n + 1;
    }
    CHECK_EQ_U(out.len, at);
    blobc_buffer_free(&out);
}

TEST_MAIN_BEGIN("builder")
RUN(root_with_string);
RUN(sorted_items_keep_their_links);
RUN(pending_references);
RUN(array_of_structs_with_strings);
RUN(order_of_recording_does_not_matter);
RUN(shared_payload_stored_once);
RUN(shared_payload_negative_offset);
RUN(nested_open_arrays);
RUN(deep_pointer_chain);
RUN(alignment_gaps_are_zero);
RUN(allocations_larger_than_a_chunk);
RUN(unreached_allocations_are_dropped);
RUN(finish_replaces_buffer_contents);
RUN(single_allocation_over_limit);
RUN(grow_over_limit);
RUN(total_over_limit);
RUN(errors_in_calls);
RUN(errors_at_finish);
RUN(level_shaped_graph);
RUN(finish_at_leaves_prefix_and_room);
RUN(many_links_recorded_out_of_order);
TEST_MAIN_END
