/*
 * test_verify_kinds.c - verification of maps, optionals and any-values:
 * sound blobs pass; unsorted or repeated map keys, a presence byte other
 * than 0 or 1, an absent value that is not all zero, a bad any kind word,
 * an any bool other than 0 or 1, an any uint below 2^63, nonzero unused
 * bytes and lists nested past BLOBC_MAX_ANY_DEPTH (directly, or through a
 * shared payload) each fail with their code, offset, path and message;
 * hostile depth costs linear work.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobc.h"
#include "test.h"
#include "read/walk.h"
#include "walk_fixture.h"
#include "kinds_fixture.h"

/* CHECK_FAILS, and the message too. */
#define CHECK_FAILS_MSG(o, code_, off_, path_, msg_)                                        \
    do {                                                                                    \
        CHECK_FAILS(o, code_, off_, path_);                                                 \
        CHECK_STR((o).err.message, (msg_));                                                 \
    } while (0)

#define CHECK_PASSES(o)                                                                     \
    do {                                                                                    \
        if ((o).st != BLOBC_OK) FAILF("%s at %s", (o).err.message, (o).err.path);           \
    } while (0)

static size_t tgt(const uint8_t *d, size_t pos) { return pos + (size_t)(int64_t)(int32_t)blobc_ld32(d + pos); }

static outcome holder_outcome(const hopts *o, size_t *tags_at) {
    blobc_buffer b = {0};
    build_holder(o, &b);
    outcome r = verify_as(b.data, b.len, HOLDER);
    if (tags_at) *tags_at = tgt(b.data, fx_off(HOLDER, "tags"));
    blobc_buffer_free(&b);
    return r;
}

TEST(sound_blobs_pass) {
    CHECK_PASSES(holder_outcome(&GOOD, NULL));
    hopts o = GOOD;
    o.name = true;
    CHECK_PASSES(holder_outcome(&o, NULL));
    CHECK_EQ_I(strcmp(blobc_verify_code_name(BLOBC_V_OPTIONAL), "optional"), 0);
    CHECK_EQ_I(strcmp(blobc_verify_code_name(BLOBC_V_ANY), "any"), 0);
}

TEST(map_keys_sorted_unique) {
    size_t at = 0;
    hopts o = GOOD;
    o.tk[0] = "ab";
    o.tk[1] = "a"; /* a prefix sorts first */
    outcome r = holder_outcome(&o, &at);
    CHECK_FAILS_MSG(r, BLOBC_V_KEY_ORDER, at + 12, "tags[1].key",
                "map entry 1 has a key that sorts before the entry before it (entries are "
                "sorted by key)");
    o.tk[0] = "a";
    r = holder_outcome(&o, &at);
    CHECK_FAILS_MSG(r, BLOBC_V_KEY_ORDER, at + 12, "tags[1].key",
                "map entry 1 has the key of the entry before it (a key is given once)");
    /* integers as signed numbers: 7 after -5, not -5 (0xfffffffb) after 7 */
    o = GOOD;
    o.ik[0] = 7;
    o.ik[1] = -5;
    r = holder_outcome(&o, NULL);
    CHECK_EQ_I(r.err.code, BLOBC_V_KEY_ORDER);
    CHECK_STR(r.err.path, "ids[1].key");
    o = GOOD;
    o.ck[0] = 3;
    o.ck[1] = 0;
    r = holder_outcome(&o, NULL);
    CHECK_EQ_I(r.err.code, BLOBC_V_KEY_ORDER);
    CHECK_STR(r.err.path, "cols[1].key");
    o.ck[1] = 3;
    r = holder_outcome(&o, NULL);
    CHECK_EQ_I(r.err.code, BLOBC_V_KEY_ORDER);
    /* an undeclared enum key is an enum error, found before the order */
    o.ck[1] = 7;
    r = holder_outcome(&o, NULL);
    CHECK_EQ_I(r.err.code, BLOBC_V_ENUM);
}

/* The good image, one byte changed, verified. */
static outcome patched(size_t at, uint8_t v, bool name) {
    hopts o = GOOD;
    o.name = name;
    blobc_buffer b = {0};
    build_holder(&o, &b);
    b.data[at] = v;
    outcome r = verify_as(b.data, b.len, HOLDER);
    blobc_buffer_free(&b);
    return r;
}

TEST(optional_presence) {
    uint32_t pos = fx_off(HOLDER, "pos"), name = fx_off(HOLDER, "name");
    outcome r = patched(pos + 8, 2, false);
    CHECK_FAILS_MSG(r, BLOBC_V_OPTIONAL, pos + 8, "pos", "presence byte is 2, not 0 (absent) or 1 (present)");
    r = patched(pos + 9, 1, false);
    CHECK_FAILS_MSG(r, BLOBC_V_PADDING, pos + 9, "pos", "nonzero padding byte 0x01");
    r = patched(name + 3, 0x40, false);
    CHECK_FAILS_MSG(r, BLOBC_V_OPTIONAL, name + 3, "name",
                "absent optional (presence byte 0) has byte 3 of its value 0x40, not 0");
    /* present: the string inside is walked like any string */
    r = patched(name + 4, 0, true);
    CHECK_FAILS_MSG(r, BLOBC_V_NULL_LENGTH, name, "name",
                "string length 0 (it counts the NUL: the empty string is 1)");
    /* absent and zero: nothing of a string is read */
    CHECK_PASSES(patched(name + 8, 0, false));
    r = patched(fx_off(HOLDER, "n") + 1, 0, false); /* n absent with its value 9 left */
    CHECK_EQ_I(r.err.code, BLOBC_V_OPTIONAL);
}

/* Where the doc's list items start in the good image. */
static size_t items_at(void) {
    blobc_buffer b = {0};
    build_holder(&GOOD, &b);
    size_t m = tgt(b.data, fx_off(HOLDER, "doc") + 4);
    size_t l = tgt(b.data, m + 12);
    blobc_buffer_free(&b);
    return l;
}

TEST(any_values) {
    uint32_t doc = fx_off(HOLDER, "doc");
    size_t l = items_at();
    outcome r = patched(doc, 9, false);
    CHECK_FAILS_MSG(r, BLOBC_V_ANY, doc, "doc", "any kind word is 9, not 0 (null) to 7 (mapping)");
    r = patched(l + 12 + 4, 3, false);
    CHECK_FAILS_MSG(r, BLOBC_V_BOOL, l + 16, "doc[0].value[1]", "bool byte is 3, not 0 or 1");
    r = patched(l + 12 + 5, 1, false);
    CHECK_FAILS_MSG(r, BLOBC_V_ANY, l + 17, "doc[0].value[1]",
                "nonzero unused byte 0x01 in an any holding a bool");
    r = patched(l + 24 + 11, 1, false);
    CHECK_FAILS_MSG(r, BLOBC_V_ANY, l + 35, "doc[0].value[2]",
                "nonzero unused byte 0x01 in an any holding a null");
    r = patched(l + 60 + 11, 0x7f, false);
    CHECK_FAILS_MSG(r, BLOBC_V_ANY, l + 64, "doc[0].value[5]",
                "any uint 9151314442816847873 is below 2^63 (an int holds it)");
    r = patched(l + 48 + 4, 1, false); /* 2.5 plus one ulp: a fine float */
    CHECK_PASSES(r);
    r = patched(l + 36 + 8, 0, false); /* the string's length */
    CHECK_EQ_I(r.err.code, BLOBC_V_NULL_LENGTH);
    CHECK_STR(r.err.path, "doc[0].value[3]");
}

/* Deep { a: any; b: any } with a = a chain of `levels` nested lists (the
 * innermost empty), laid out canonically by hand: each list one item. */
static uint8_t *deep_chain(size_t levels, size_t *len) {
    size_t n = 24 + 12 * (levels - 1);
    uint8_t *d = calloc(1, n);
    for (size_t k = 0; k < levels; k++) {
        size_t at = k == 0 ? 0 : 24 + 12 * (k - 1);
        blobc_st32(d + at, BLOBC_ANY_LIST);
        if (k + 1 == levels) break;
        size_t next = 24 + 12 * k;
        blobc_st32(d + at + 4, (uint32_t)(next - (at + 4)));
        blobc_st32(d + at + 8, 1);
    }
    *len = n;
    return d;
}

TEST(any_depth) {
    size_t n = 0;
    uint8_t *d = deep_chain(BLOBC_MAX_ANY_DEPTH, &n);
    CHECK_PASSES(verify_as(d, n, DEEP));
    free(d);
    d = deep_chain(BLOBC_MAX_ANY_DEPTH + 1, &n);
    outcome r = verify_as(d, n, DEEP);
    CHECK_FAILS_MSG(r, BLOBC_V_ANY, 0, "a", "any value nests lists and mappings 257 deep (at most 256)");
    free(d);
    /* a hostile chain: heap frames, not C stack, and linear work */
    d = deep_chain(1000000, &n);
    blobc_walk w;
    blobc_walk_init(&w);
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_walk_run(&w, d, n, DEEP, 0, &err), BLOBC_EINPUT);
    CHECK_EQ_I(err.code, BLOBC_V_ANY);
    CHECK(w.work < 8 * 1000000);
    blobc_walk_free(&w);
    free(d);
}

/* b's chain of `outer` lists ends in a's outermost list, shared: its
 * depth adds to theirs though it was walked (and passed) under a. */
TEST(any_depth_through_sharing) {
    for (size_t outer = 50; outer <= 60; outer += 10) {
        size_t n = 0;
        uint8_t *a = deep_chain(200, &n);
        size_t total = n + 12 * outer;
        uint8_t *d = calloc(1, total);
        memcpy(d, a, n);
        free(a);
        /* b at 12 -> item at n -> ... ; the last item shares a's list (at 24) */
        size_t at = 12;
        for (size_t k = 0; k < outer; k++) {
            size_t next = n + 12 * k;
            blobc_st32(d + at, BLOBC_ANY_LIST);
            blobc_st32(d + at + 4, (uint32_t)(next - (at + 4)));
            blobc_st32(d + at + 8, 1);
            at = next;
        }
        blobc_st32(d + at, BLOBC_ANY_LIST);
        blobc_st32(d + at + 4, (uint32_t)(int32_t)(24 - (int64_t)(at + 4)));
        blobc_st32(d + at + 8, 1);
        outcome r = verify_as(d, total, DEEP);
        /* depths: a's list 199, then outer + 1 more levels above it */
        if (outer == 50) CHECK_PASSES(r);
        else {
            CHECK_EQ_I(r.err.code, BLOBC_V_ANY);
            CHECK_STR(r.err.message, "any value nests lists and mappings 257 deep (at most 256)");
        }
        free(d);
    }
}

TEST_MAIN_BEGIN("verify_kinds")
    kx_init();
    RUN(sound_blobs_pass);
    RUN(map_keys_sorted_unique);
    RUN(optional_presence);
    RUN(any_values);
    RUN(any_depth);
    RUN(any_depth_through_sharing);
    blobc_schema_free(KS);
TEST_MAIN_END
