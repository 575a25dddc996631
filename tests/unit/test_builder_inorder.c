/*
 * test_builder_inorder.c - the in-order builder (blobc_builder_new_in_order)
 * against the ordinary one: the same calls give the same image whenever
 * the in-order builder accepts them, and every call out of the canonical
 * order is caught. Random value graphs are built the ways a front end
 * builds them (structs with pointer slots, arrays whose length is known
 * or grows, payloads linked at once or when complete), in order and with
 * mistakes put in on purpose.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/builder.h"
#include "test.h"
#include "common/buffer.h"
#include "common/endian.h"

#define PREFIX 32

/* Both builders, driven by the same calls. */
typedef struct pair {
    blobc_builder *b[2];
    uint32_t rng;
    int mistakes;   /* chance in 1000 of a mistake at each choice */
    int made;       /* mistakes made */
} pair;

static uint32_t rnd(pair *p, uint32_t n) {
    p->rng = p->rng * 1103515245u + 12345u;
    return (p->rng >> 8) % n;
}

static bool mistake(pair *p) {
    if (rnd(p, 1000) >= (uint32_t)p->mistakes) return false;
    p->made++;
    return true;
}

static blobc_ref alloc2(pair *p, size_t size, uint32_t align, uint8_t fill) {
    blobc_ref r[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        void *mem = NULL;
        if (blobc_builder_alloc(p->b[i], size, align, &r[i], &mem) == BLOBC_OK) memset(mem, fill, size / 2);
    }
    return r[0] == r[1] ? r[0] : UINT32_MAX;
}

static void link2(pair *p, blobc_ref loc, uint32_t at, blobc_ref target) {
    for (int i = 0; i < 2; i++) blobc_builder_link(p->b[i], loc, at, target);
}

static void put2(pair *p, blobc_ref ref, uint32_t off, uint8_t v) {
    /* As a front end does, nothing is written after a failed call. */
    for (int i = 0; i < 2; i++) {
        uint8_t *m = blobc_builder_status(p->b[i], NULL) ? NULL : blobc_builder_ptr(p->b[i], ref);
        if (m) m[off] = v;
    }
}

static blobc_ref value(pair *p, int depth);

/* Fills `slots` pointer slots of 8 bytes at (ref, base): each a child
 * linked before or after its own payloads, in increasing order unless a
 * mistake swaps two. */
static void fill_slots(pair *p, blobc_ref ref, uint32_t base, uint32_t slots, int depth) {
    uint32_t order[4] = {0, 1, 2, 3};
    if (slots > 1 && mistake(p)) {
        order[0] = 1;
        order[1] = 0;
    }
    for (uint32_t k = 0; k < slots; k++) {
        uint32_t at = base + 8 * order[k];
        if (rnd(p, 4) == 0) continue; /* null */
        blobc_ref c = value(p, depth + 1);
        if (c == UINT32_MAX) continue;
        link2(p, ref, at, c);
        put2(p, ref, at + 4, (uint8_t)k);
        if (mistake(p)) link2(p, ref, at, c); /* linked twice */
    }
}

/* A payload: a string, a struct with slots, or an array of such structs
 * of known or growing length. Returns its ref, linked by the caller. */
static blobc_ref value(pair *p, int depth) {
    uint32_t kind = depth > 3 ? 0 : rnd(p, 4);
    if (kind == 0) {
        if (mistake(p)) alloc2(p, 3, 1, 'x'); /* never linked */
        return alloc2(p, 1 + rnd(p, 9), 1, (uint8_t)('a' + depth));
    }
    uint32_t slots = 1 + rnd(p, 3), esize = 8 * slots + 4 * rnd(p, 2);
    /* Align 8 behind an array of align 4 may need padding the segment
     * laid out after the array did not have: such graphs may go back to
     * the ordinary builder, so only the runs with mistakes have them. */
    uint32_t align = p->mistakes && rnd(p, 3) == 0 ? 8 : 4;
    if (align == 8) esize = (esize + 7) & ~7u;
    if (kind == 1) {
        blobc_ref r = alloc2(p, esize, align, 0);
        fill_slots(p, r, 0, slots, depth);
        return r;
    }
    uint32_t n = 1 + rnd(p, 5);
    blobc_ref r[2] = {0, 0};
    if (kind == 2) {
        r[0] = alloc2(p, (size_t)esize * n, align, 0);
        r[1] = r[0];
    } else {
        for (int i = 0; i < 2; i++) blobc_builder_open(p->b[i], align, &r[i]);
    }
    if (r[0] != r[1]) return UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        if (kind == 3)
            for (int j = 0; j < 2; j++) blobc_builder_grow(p->b[j], r[0], esize);
        put2(p, r[0], i * esize + esize - 1, (uint8_t)(i + 1));
        fill_slots(p, r[0], i * esize, slots, depth);
    }
    if (kind == 3)
        for (int j = 0; j < 2; j++) blobc_builder_close(p->b[j], r[0]);
    return r[0];
}

/* One random graph: whether the in-order builder took it, and when it
 * did, that its image is the ordinary one's. */
static int replay(uint32_t seed, int mistakes, int *accepted) {
    pair p = {{blobc_builder_new(), blobc_builder_new_in_order(PREFIX, 0)}, seed, mistakes, 0};
    if (!p.b[0] || !p.b[1]) return -1;
    for (int i = 0; i < 2; i++) blobc_builder_root(p.b[i], 32, 8, NULL);
    fill_slots(&p, 0, 0, 4, 0);
    blobc_buffer out[2] = {{0}, {0}};
    blobc_error err[2];
    blobc_status st[2];
    for (int i = 0; i < 2; i++) st[i] = blobc_builder_finish_at(p.b[i], &out[i], PREFIX, 8, &err[i]);
    bool ooo = blobc_builder_out_of_order(p.b[1]);
    int bad = 0;
    if (st[1] == BLOBC_OK) {
        (*accepted)++;
        if (st[0] != BLOBC_OK || ooo || out[0].len != out[1].len ||
            memcmp(out[0].data, out[1].data, out[0].len) != 0 || out[1].cap < out[1].len + 8 ||
            (uintptr_t)(out[1].data + PREFIX) % 16 != 0)
            bad = 1;
    } else if (!ooo || st[1] != BLOBC_EARG) {
        bad = 2; /* a refusal is always for the order */
    }
    if (mistakes == 0 && p.made == 0 && st[1] != BLOBC_OK) bad = 3;
    for (int i = 0; i < 2; i++) {
        blobc_builder_free(p.b[i]);
        blobc_buffer_free(&out[i]);
    }
    return bad;
}

TEST(in_order_graphs_give_the_same_image) {
    int accepted = 0;
    for (uint32_t seed = 1; seed <= 2000; seed++) {
        int bad = replay(seed, 0, &accepted);
        if (bad) FAILF("seed %u: case %d", seed, bad);
    }
    CHECK_EQ_I(accepted, 2000);
}

TEST(graphs_with_mistakes_are_refused_or_the_same) {
    int accepted = 0;
    for (uint32_t seed = 1; seed <= 3000; seed++) {
        int bad = replay(seed, 60, &accepted);
        if (bad) FAILF("seed %u: case %d", seed, bad);
    }
    CHECK(accepted > 100 && accepted < 2900);
}

/* The calls a [T] with payloads makes, checked byte for byte: the items
 * first, then what they hold, offsets corrected after the close. */
TEST(open_array_items_before_their_payloads) {
    blobc_builder *b = blobc_builder_new_in_order(16, 0);
    CHECK_EQ_I(blobc_builder_root(b, 8, 4, NULL), BLOBC_OK);
    blobc_ref items, s;
    CHECK_EQ_I(blobc_builder_open(b, 4, &items), BLOBC_OK);
    for (uint32_t i = 0; i < 2; i++) {
        uint8_t *it = blobc_builder_grow(b, items, 8);
        CHECK(it);
        blobc_st32(it + 4, 2);
        void *m;
        CHECK_EQ_I(blobc_builder_alloc(b, 2, 1, &s, &m), BLOBC_OK);
        memcpy(m, i ? "b" : "a", 2);
        CHECK_EQ_I(blobc_builder_link(b, items, i * 8, s), BLOBC_OK);
    }
    CHECK_EQ_I(blobc_builder_close(b, items), BLOBC_OK);
    blobc_st32((uint8_t *)blobc_builder_ptr(b, 0) + 4, 2);
    CHECK_EQ_I(blobc_builder_link(b, 0, 0, items), BLOBC_OK);
    blobc_buffer out = {0};
    blobc_error err;
    CHECK_EQ_I(blobc_builder_finish_at(b, &out, 16, 0, &err), BLOBC_OK);
    blobc_builder_free(b);
    static const uint8_t want[] = {8, 0, 0, 0, 2, 0, 0, 0, 16, 0, 0, 0, 2, 0, 0, 0,
                                   10, 0, 0, 0, 2, 0, 0, 0, 'a', 0, 'b', 0};
    CHECK_EQ_U(out.len, 16 + sizeof want);
    CHECK(memcmp(out.data + 16, want, sizeof want) == 0);
    blobc_buffer_free(&out);
}

TEST(out_of_order_calls_fail_and_say_so) {
    blobc_builder *b = blobc_builder_new_in_order(0, 0);
    CHECK_EQ_I(blobc_builder_root(b, 16, 4, NULL), BLOBC_OK);
    blobc_ref s1, s2;
    CHECK_EQ_I(blobc_builder_alloc(b, 2, 1, &s1, NULL), BLOBC_OK);
    CHECK_EQ_I(blobc_builder_link(b, 0, 8, s1), BLOBC_OK);
    CHECK(!blobc_builder_out_of_order(b));
    CHECK_EQ_I(blobc_builder_alloc(b, 2, 1, &s2, NULL), BLOBC_OK);
    /* byte 0 comes before byte 8, whose payload is placed already */
    CHECK_EQ_I(blobc_builder_link(b, 0, 0, s2), BLOBC_EARG);
    CHECK(blobc_builder_out_of_order(b));
    blobc_error err;
    CHECK_EQ_I(blobc_builder_status(b, &err), BLOBC_EARG);
    CHECK_STR(err.message, "allocations and links out of the canonical order");
    blobc_builder_free(b);

    /* sorting and references are the ordinary builder's */
    b = blobc_builder_new_in_order(0, 0);
    blobc_builder_root(b, 16, 4, NULL);
    uint32_t id;
    CHECK_EQ_I(blobc_builder_link_pending(b, 0, 0, &id), BLOBC_EARG);
    CHECK(blobc_builder_out_of_order(b));
    blobc_builder_free(b);

    /* an allocation never linked is found at finish */
    b = blobc_builder_new_in_order(0, 0);
    blobc_builder_root(b, 16, 4, NULL);
    CHECK_EQ_I(blobc_builder_alloc(b, 4, 4, &s1, NULL), BLOBC_OK);
    blobc_buffer out = {0};
    CHECK_EQ_I(blobc_builder_finish(b, &out, &err), BLOBC_EARG);
    CHECK(blobc_builder_out_of_order(b));
    blobc_builder_free(b);
    CHECK(!blobc_builder_out_of_order(NULL));
}

TEST_MAIN_BEGIN("builder_inorder")
RUN(in_order_graphs_give_the_same_image);
RUN(graphs_with_mistakes_are_refused_or_the_same);
RUN(open_array_items_before_their_payloads);
RUN(out_of_order_calls_fail_and_say_so);
TEST_MAIN_END
