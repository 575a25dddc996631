/*
 * test_verify.c - verification of data sections and .blob files: a valid
 * level passes; each corruption fails with its exact code, byte offset
 * and schema path; hostile shapes (million-deep chains, cycles, exploding
 * DAGs) are handled with bounded stack and linear work; checks run a
 * chunk of elements ahead never change which failure is reported first;
 * the bad-blob corpus in tests/bad/blob fails with the code its MANIFEST
 * names.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobc.h"
#include "test.h"
#include "read/walk.h"
#include "walk_fixture.h"

static blobc_schema *S;         /* the fixture schema */
static const blobc_type *LV, *ROOM, *META;
static blobc_buffer IMG;        /* a valid 8-room level */

static int32_t rd(const uint8_t *p) { return (int32_t)blobc_ld32(p); }
/* Target of the offset field at pos. */
static size_t tgt(const uint8_t *img, size_t pos) { return pos + (size_t)(int64_t)rd(img + pos); }

static size_t rooms_at(const uint8_t *img) { return tgt(img, fx_off(LV, "rooms")); }
static size_t room_at(const uint8_t *img, uint32_t i) { return rooms_at(img) + i * ROOM->size; }
static size_t field_at(const uint8_t *img, uint32_t i, const char *f) {
    return room_at(img, i) + fx_off(ROOM, f);
}

/* A private copy of the valid image to corrupt. */
static uint8_t *copy_img(void) {
    uint8_t *c = malloc(IMG.len);
    memcpy(c, IMG.data, IMG.len);
    return c;
}

TEST(valid_level) {
    outcome o = verify_as(IMG.data, IMG.len, LV);
    if (o.st != BLOBC_OK) FAILF("%s at %s", o.err.message, o.err.path);
    CHECK_EQ_I(o.err.code, 0);
    for (uint32_t n = 0; n < 5; n++) {
        blobc_buffer b = {0};
        fx_level(S, n, &b);
        o = verify_as(b.data, b.len, LV);
        if (o.st != BLOBC_OK) FAILF("%u rooms: %s at %s", n, o.err.message, o.err.path);
        blobc_buffer_free(&b);
    }
}

TEST(valid_blob_file) {
    blobc_buffer b = {0};
    fx_blob(IMG.data, IMG.len, LV, false, &b);
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_verify_blob(b.data, b.len, NULL, &err), BLOBC_OK);
    blobc_verify_options o = {.schema = S};
    CHECK_EQ_I(blobc_verify_blob(b.data, b.len, &o, &err), BLOBC_OK);
    o.type_name = "Level";
    CHECK_EQ_I(blobc_verify_blob(b.data, b.len, &o, &err), BLOBC_OK);
    blobc_buffer_free(&b);
}

TEST(bool_not_0_or_1) {
    uint8_t *c = copy_img();
    size_t at = field_at(c, 1, "lit");
    c[at] = 2;
    outcome o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_BOOL, at, "rooms[1].lit");
    CHECK_CONTAINS(o.err.message, "bool byte is 2");
    free(c);
}

TEST(enum_undeclared) {
    uint8_t *c = copy_img();
    size_t at = field_at(c, 2, "kind");
    c[at] = 2; /* floor=0 wall=1 door=5 stairs=6 */
    outcome o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_ENUM, at, "rooms[2].kind");
    CHECK_CONTAINS(o.err.message, "2 is not a value of enum Kind");
    c[at] = 6;
    o = verify_as(c, IMG.len, LV);
    CHECK_EQ_I(o.st, BLOBC_OK);
    at = field_at(c, 4, "temp");
    blobc_st16(c + at, (uint16_t)-41);
    o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_ENUM, at, "rooms[4].temp");
    CHECK_CONTAINS(o.err.message, "-41 is not a value of enum Temp");
    blobc_st16(c + at, (uint16_t)-40);
    CHECK_EQ_I(verify_as(c, IMG.len, LV).st, BLOBC_OK);
    free(c);
}

TEST(nan_canonical_only) {
    uint8_t *c = copy_img();
    size_t at = field_at(c, 0, "center") + 4;
    blobc_st32(c + at, 0x7fc00000u);
    CHECK_EQ_I(verify_as(c, IMG.len, LV).st, BLOBC_OK);
    blobc_st32(c + at, 0x7f800000u); /* +inf is a value, not a NaN */
    CHECK_EQ_I(verify_as(c, IMG.len, LV).st, BLOBC_OK);
    blobc_st32(c + at, 0x7fc00001u);
    outcome o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_NAN, at, "rooms[0].center.y");
    CHECK_CONTAINS(o.err.message, "0x7fc00001");
    blobc_st32(c + at, 0x7fc00000u);
    at = field_at(c, 3, "weights") + 8;
    blobc_st32(c + at, 0xffc00000u); /* negative quiet NaN */
    o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_NAN, at, "rooms[3].weights[2]");
    free(c);
}

TEST(nan_f64_behind_pointer) {
    uint8_t *c = copy_img();
    size_t meta = tgt(c, field_at(c, 2, "meta"));
    size_t at = meta + fx_off(META, "depth");
    blobc_st64(c + at, 0x7ff8000000000001ull);
    outcome o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_NAN, at, "rooms[2].meta.depth");
    blobc_st64(c + at, 0x7ff8000000000000ull);
    CHECK_EQ_I(verify_as(c, IMG.len, LV).st, BLOBC_OK);
    free(c);
}

TEST(struct_padding) {
    uint8_t *c = copy_img();
    size_t at = field_at(c, 5, "kind") + 1; /* kind: u8, then center aligned to 4 */
    c[at] = 0x80;
    outcome o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_PADDING, at, "rooms[5]");
    CHECK_CONTAINS(o.err.message, "nonzero padding byte 0x80");
    free(c);
}

TEST(string_nul) {
    uint8_t *c = copy_img();
    size_t f = field_at(c, 3, "name");
    size_t s = tgt(c, f), n = (size_t)rd(c + f + 4);
    c[s + n - 1] = 'x';
    outcome o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_STRING_NUL, s + n - 1, "rooms[3].name");
    CHECK_CONTAINS(o.err.message, "does not end with NUL");
    c[s + n - 1] = 0;
    c[s + 2] = 0;
    o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_STRING_NUL, s + 2, "rooms[3].name");
    CHECK_CONTAINS(o.err.message, "NUL inside the string at byte 2");
    free(c);
}

TEST(string_utf8) {
    static const struct {
        const char *bytes;
        size_t bad;
    } cases[] = {
        {"\xc0\xaf", 0},         /* overlong '/' */
        {"\xe0\x80\xaf", 0},     /* overlong, 3 bytes */
        {"\xed\xa0\x80", 0},     /* surrogate U+D800 */
        {"ab\xe2\x82", 2},       /* truncated sequence */
        {"\xf4\x90\x80\x80", 0}, /* above U+10FFFF */
        {"ok\x80", 2},           /* stray continuation byte */
    };
    /* Room 3's name is "Salle 3 été" (13 bytes + NUL): room for any case. */
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint8_t *c = copy_img();
        size_t f = field_at(c, 3, "name");
        size_t s = tgt(c, f), n = (size_t)rd(c + f + 4);
        size_t m = strlen(cases[k].bytes);
        CHECK(m < n - 1);
        memset(c + s, 'a', n - 1);
        memcpy(c + s + 1, cases[k].bytes, m);
        outcome o = verify_as(c, IMG.len, LV);
        CHECK_FAILS(o, BLOBC_V_UTF8, s + 1 + cases[k].bad, "rooms[3].name");
        free(c);
    }
    uint8_t *c = copy_img();
    size_t f = field_at(c, 3, "name");
    size_t s = tgt(c, f);
    memcpy(c + s, "\xf0\x9f\x98\x80", 4); /* U+1F600 is fine */
    CHECK_EQ_I(verify_as(c, IMG.len, LV).st, BLOBC_OK);
    free(c);
}

TEST(string_in_array_path) {
    uint8_t *c = copy_img();
    size_t tags = tgt(c, field_at(c, 1, "tags"));
    size_t s = tgt(c, tags + 8);
    c[s] = 0xff;
    outcome o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_UTF8, s, "rooms[1].tags[1]");
    free(c);
}

TEST(offset_out_of_range) {
    uint8_t *c = copy_img();
    size_t f = field_at(c, 2, "name");
    blobc_st32(c + f, 0x7ffffff0u);
    outcome o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_OFFSET_RANGE, f, "rooms[2].name");
    blobc_st32(c + f, (uint32_t)-(int32_t)(f + 1));
    o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_OFFSET_RANGE, f, "rooms[2].name");
    CHECK_CONTAINS(o.err.message, "leads 1 byte(s) before the data section");
    blobc_st32(c + f, (uint32_t)INT32_MIN);
    o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_OFFSET_RANGE, f, "rooms[2].name");
    free(c);
    /* a pointer whose target starts inside but ends outside */
    c = copy_img();
    f = field_at(c, 2, "meta");
    blobc_st32(c + f, (uint32_t)((IMG.len - 8 - f) & ~(size_t)7));
    o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_OFFSET_RANGE, f, "rooms[2].meta");
    free(c);
}

TEST(misaligned_target) {
    uint8_t *c = copy_img();
    size_t f = field_at(c, 1, "neighbors");
    blobc_st32(c + f, blobc_ld32(c + f) + 2);
    outcome o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_MISALIGNED, f, "rooms[1].neighbors");
    free(c);
}

TEST(length_checks) {
    uint8_t *c = copy_img();
    size_t f = field_at(c, 1, "neighbors");
    blobc_st32(c + f + 4, 0x7fffffffu);
    outcome o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_LENGTH, f, "rooms[1].neighbors");
    blobc_st32(c + f + 4, 0x80000000u);
    o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_LENGTH, f, "rooms[1].neighbors");
    CHECK_CONTAINS(o.err.message, "negative");
    blobc_st32(c + f + 4, (uint32_t)-1);
    o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_LENGTH, f, "rooms[1].neighbors");
    free(c);
    c = copy_img();
    f = field_at(c, 1, "name");
    blobc_st32(c + f + 4, 0x40000000u);
    o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_LENGTH, f, "rooms[1].name");
    free(c);
}

TEST(null_and_length) {
    uint8_t *c = copy_img();
    size_t f = field_at(c, 1, "neighbors");
    blobc_st32(c + f, 0);
    outcome o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_NULL_LENGTH, f, "rooms[1].neighbors");
    free(c);
    c = copy_img();
    blobc_st32(c + f + 4, 0);
    o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_NULL_LENGTH, f, "rooms[1].neighbors");
    free(c);
    c = copy_img();
    f = field_at(c, 0, "name");
    blobc_st32(c + f, 0);
    o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_NULL_LENGTH, f, "rooms[0].name");
    blobc_st32(c + f, 8);
    blobc_st32(c + f + 4, 0);
    o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_NULL_LENGTH, f, "rooms[0].name");
    free(c);
}

TEST(overlap_inside_payload) {
    /* room 1's second tag points one byte into room 1's first tag */
    uint8_t *c = copy_img();
    size_t tags = tgt(c, field_at(c, 1, "tags"));
    size_t s0 = tgt(c, tags);
    blobc_st32(c + tags + 8, (uint32_t)(s0 + 1 - (tags + 8)));
    blobc_st32(c + tags + 12, 2);
    outcome o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_OVERLAP, tags + 8, "rooms[1].tags[1]");
    CHECK_CONTAINS(o.err.message, "inside the payload");
    free(c);
}

TEST(overlap_same_start_other_count) {
    /* room 4's neighbors (1 item) pointed at room 2's (2 items) */
    uint8_t *c = copy_img();
    size_t f2 = field_at(c, 2, "neighbors"), f4 = field_at(c, 4, "neighbors");
    size_t t2 = tgt(c, f2);
    CHECK_EQ_I(rd(c + f2 + 4), 2);
    CHECK_EQ_I(rd(c + f4 + 4), 1);
    blobc_st32(c + f4, (uint32_t)(t2 - f4));
    outcome o = verify_as(c, IMG.len, LV);
    CHECK_FAILS(o, BLOBC_V_OVERLAP, f4, "rooms[4].neighbors");
    /* the same count is a shared payload; the old target is now orphaned */
    blobc_st32(c + f4 + 4, 2);
    o = verify_as(c, IMG.len, LV);
    CHECK_EQ_I(o.err.code, BLOBC_V_LAYOUT);
    free(c);
}

TEST(trailing_bytes) {
    uint8_t *c = malloc(IMG.len + 4);
    memcpy(c, IMG.data, IMG.len);
    memset(c + IMG.len, 0, 4);
    outcome o = verify_as(c, IMG.len + 4, LV);
    CHECK_FAILS(o, BLOBC_V_LAYOUT, IMG.len, "");
    CHECK_CONTAINS(o.err.message, "4 trailing bytes");
    free(c);
}

TEST(data_size) {
    outcome o = verify_as(IMG.data, LV->size - 1, LV);
    CHECK_FAILS(o, BLOBC_V_DATA_SIZE, 0, "");
    o = verify_as(IMG.data, 0, LV);
    CHECK_FAILS(o, BLOBC_V_DATA_SIZE, 0, "");
    /* over 2 GiB - 1: refused before a byte is read (the length is a lie) */
    o = verify_as(IMG.data, (size_t)BLOBC_MAX_DATA_SIZE + 1, LV);
    CHECK_FAILS(o, BLOBC_V_DATA_SIZE, 0, "");
    CHECK_CONTAINS(o.err.message, "at most 2147483647");
}

/* ---- hand-made images over small schemas ---- */

static blobc_schema *NODE_S;
static const blobc_type *NODE;

/* Node { v: u32; next: *Node; } as raw words. */
static void put_node(uint8_t *d, size_t at, uint32_t v, int32_t next_rel) {
    blobc_st32(d + at, v);
    blobc_st32(d + at + 4, (uint32_t)next_rel);
}

TEST(cycle_self) {
    uint8_t d[8];
    put_node(d, 0, 1, -4); /* next -> 0, the root being walked */
    outcome o = verify_as(d, sizeof d, NODE);
    CHECK_FAILS(o, BLOBC_V_CYCLE, 4, "next");
}

TEST(cycle_two) {
    uint8_t d[24];
    put_node(d, 0, 1, 4);   /* -> 8 */
    put_node(d, 8, 2, 4);   /* -> 16 */
    put_node(d, 16, 3, -12); /* -> 8: an ancestor */
    outcome o = verify_as(d, sizeof d, NODE);
    CHECK_FAILS(o, BLOBC_V_CYCLE, 20, "next.next.next");
    put_node(d, 16, 3, 0);
    CHECK_EQ_I(verify_as(d, sizeof d, NODE).st, BLOBC_OK);
}

TEST(layout_gap_and_order) {
    uint8_t d[32] = {0};
    put_node(d, 0, 1, 12); /* -> 16, but the next payload goes at 8 */
    put_node(d, 16, 2, 0);
    outcome o = verify_as(d, 24, NODE);
    CHECK_FAILS(o, BLOBC_V_LAYOUT, 4, "next");
    CHECK_CONTAINS(o.err.message, "(0x8)");
}

TEST(deep_chain_million) {
    const size_t n = 1000000;
    uint8_t *d = malloc(8 * n);
    for (size_t i = 0; i < n; i++) put_node(d, 8 * i, (uint32_t)i, i + 1 < n ? 4 : 0);
    outcome o = verify_as(d, 8 * n, NODE);
    if (o.st != BLOBC_OK) FAILF("%s", o.err.message);
    /* a cycle at the very bottom: the path is cut to fit, keeping the end */
    put_node(d, 8 * (n - 1), 7, -(int32_t)(8 * (n - 1)) - 4);
    o = verify_as(d, 8 * n, NODE);
    CHECK_EQ_I(o.err.code, BLOBC_V_CYCLE);
    CHECK_EQ_U(o.err.offset, 8 * (n - 1) + 4);
    CHECK(strncmp(o.err.path, "...", 3) == 0);
    CHECK(strlen(o.err.path) < BLOBC_ERROR_PATH_MAX);
    CHECK(strcmp(o.err.path + strlen(o.err.path) - 10, ".next.next") == 0);
    free(d);
}

/* D { a: *D; b: *D; v: u32 }: level k's a and b both point at level k+1.
 * Naively that is 2^levels visits; canonically each node is walked once. */
static blobc_schema *DAG_S;
static const blobc_type *DAG;

static size_t build_dag(uint8_t *d, int levels, int skew_at, int32_t skew) {
    for (int k = 0; k < levels; k++) {
        size_t at = 12 * (size_t)k;
        bool last = k == levels - 1;
        int32_t b = 8 + (k == skew_at ? skew : 0);
        blobc_st32(d + at, last ? 0 : 12);                 /* a -> next node */
        blobc_st32(d + at + 4, last ? 0 : (uint32_t)b);    /* b -> the same */
        blobc_st32(d + at + 8, (uint32_t)k);
    }
    return 12 * (size_t)levels;
}

TEST(exploding_dag_is_linear) {
    uint8_t d[12 * 64];
    size_t n = build_dag(d, 64, -1, 0);
    blobc_walk w;
    blobc_walk_init(&w);
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_walk_run(&w, d, n, DAG, 0, &err), BLOBC_OK);
    /* 64 nodes of 3 ops and a few entries each; 2^64 if it re-walked */
    if (w.work > 8 * 64) FAILF("work %llu for 64 nodes", (unsigned long long)w.work);
    CHECK_EQ_U(w.ntab, 64);
    for (size_t i = 1; i + 1 < w.ntab; i++) CHECK(blobc_walk_flags(&w, i) & BLOBC_WP_SHARED);
    blobc_walk_free(&w);
}

TEST(exploding_dag_partial_overlap) {
    uint8_t d[12 * 30];
    size_t n = build_dag(d, 30, 10, 4); /* node 10's b: 4 bytes into node 11 */
    outcome o = verify_as(d, n, DAG);
    char path[128] = "";
    for (int k = 0; k < 10; k++) strcat(path, k ? ".a" : "a");
    strcat(path, ".b");
    CHECK_FAILS(o, BLOBC_V_OVERLAP, 12 * 10 + 4, path);
    CHECK_CONTAINS(o.err.message, "inside the payload at 0x84");
}

TEST(exploding_dag_misaligned) {
    uint8_t d[12 * 30];
    size_t n = build_dag(d, 30, 20, 2);
    outcome o = verify_as(d, n, DAG);
    CHECK_EQ_I(o.err.code, BLOBC_V_MISALIGNED);
    CHECK_EQ_U(o.err.offset, 12 * 20 + 4);
}

/* ---- fixed arrays and nested structs with large programs ---- */

static const char big_text[] =
    "enum K : u8 { a, b, c = 9 }\n"
    "struct Cell { f: bool; k: K; x: f32; s: string; }\n"
    "struct Row { id: u16; cells: [Cell; 20]; }\n"
    "struct Big { h: u8; row: Row; rows: [Row; 3]; grid: [[u32]]; p: *string; }\n"
    "root Big;\n";

TEST(large_inline_programs) {
    blobc_schema *s = fx_schema_parse(big_text);
    const blobc_type *big = blobc_schema_root(s), *row = fx_type(s, "Row"),
                     *cell = fx_type(s, "Cell");
    blobc_builder *b = blobc_builder_new();
    uint8_t *root;
    CHECK_EQ_I(blobc_builder_root(b, big->size, big->align, (void **)&root), BLOBC_OK);
    uint32_t cells = fx_off(row, "cells");
    for (uint32_t r = 0; r < 4; r++) {
        uint32_t rb = r == 0 ? fx_off(big, "row") : fx_off(big, "rows") + (r - 1) * row->size;
        for (uint32_t i = 0; i < 20; i++) {
            uint32_t cb = rb + cells + i * cell->size;
            fx_str(b, 0, cb + fx_off(cell, "s"), i % 2 ? "odd" : "even");
            root = fx_mem(b, 0);
            root[cb + fx_off(cell, "k")] = (uint8_t)(i % 3 == 2 ? 9 : i % 2);
        }
    }
    blobc_ref g = fx_arr(b, 0, fx_off(big, "grid"), 2, 8, 4);
    blobc_ref g1 = fx_arr(b, g, 8, 3, 4, 4);
    blobc_st32(fx_mem(b, g1) + 4, 77);
    blobc_ref ps = fx_ptr(b, 0, fx_off(big, "p"), 8, 4);
    fx_str(b, ps, 0, "pointed");
    blobc_buffer img = {0};
    fx_finish(b, &img);
    outcome o = verify_as(img.data, img.len, big);
    if (o.st != BLOBC_OK) FAILF("%s at %s", o.err.message, o.err.path);

    size_t at = fx_off(big, "rows") + row->size + cells + 7 * cell->size + fx_off(cell, "f");
    img.data[at] = 3;
    o = verify_as(img.data, img.len, big);
    CHECK_FAILS(o, BLOBC_V_BOOL, at, "rows[1].cells[7].f");
    img.data[at] = 0;
    at = fx_off(big, "row") + cells + 19 * cell->size + fx_off(cell, "k");
    img.data[at] = 3;
    o = verify_as(img.data, img.len, big);
    CHECK_FAILS(o, BLOBC_V_ENUM, at, "row.cells[19].k");
    img.data[at] = 0;
    at = fx_off(big, "rows") + 2 * row->size + cells + 3 * cell->size + fx_off(cell, "s");
    size_t sb = tgt(img.data, at);
    img.data[sb] = 0xc1;
    o = verify_as(img.data, img.len, big);
    CHECK_FAILS(o, BLOBC_V_UTF8, sb, "rows[2].cells[3].s");
    img.data[sb] = 'e';
    size_t gi = tgt(img.data, fx_off(big, "grid")) + 8;
    size_t gv = tgt(img.data, gi);
    blobc_st32(img.data + gi + 4, 0x20000000u);
    o = verify_as(img.data, img.len, big);
    CHECK_EQ_I(o.err.code, BLOBC_V_LENGTH);
    CHECK_EQ_U(o.err.offset, gi);
    CHECK_STR(o.err.path, "grid[1]");
    blobc_st32(img.data + gi + 4, 3);
    (void)gv;
    size_t pstr = tgt(img.data, fx_off(big, "p"));
    size_t pb = tgt(img.data, pstr);
    img.data[pb + 7] = '!';
    o = verify_as(img.data, img.len, big);
    CHECK_FAILS(o, BLOBC_V_STRING_NUL, pb + 7, "p");
    img.data[pb + 7] = 0;
    CHECK_EQ_I(verify_as(img.data, img.len, big).st, BLOBC_OK);
    blobc_buffer_free(&img);
    blobc_schema_free(s);
}

/* Thousands of nested inline structs: compiling the programs must not
 * recurse on the C stack. */
TEST(deep_inline_nesting) {
    const int depth = 20000;
    blobc_buffer t = {0};
    for (int i = 0; i < depth; i++) blobc_buf_printf(&t, "struct S%d { a: S%d; f: bool; }\n", i, i + 1);
    blobc_buf_printf(&t, "struct S%d { x: u8; }\nroot S0;\n", depth);
    blobc_buf_putc(&t, '\0');
    blobc_schema *s = NULL;
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_schema_parse((const char *)t.data, t.len - 1, "deep.schema", &s, &err) != BLOBC_OK) {
        /* the schema layer may refuse such nesting; then there is nothing to walk */
        blobc_buffer_free(&t);
        return;
    }
    const blobc_type *r = blobc_schema_root(s);
    uint8_t *d = calloc(1, r->size);
    CHECK_EQ_I(verify_as(d, r->size, r).st, BLOBC_OK);
    d[r->size - 1] = 1; /* S0.f */
    CHECK_EQ_I(verify_as(d, r->size, r).st, BLOBC_OK);
    d[r->size - 1] = 2;
    outcome o = verify_as(d, r->size, r);
    CHECK_FAILS(o, BLOBC_V_BOOL, r->size - 1, "f");
    free(d);
    blobc_schema_free(s);
    blobc_buffer_free(&t);
}

/* ---- whole files ---- */

TEST(stripped_needs_schema) {
    blobc_buffer b = {0};
    fx_blob(IMG.data, IMG.len, LV, true, &b);
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_verify_blob(b.data, b.len, NULL, &err), BLOBC_EINPUT);
    CHECK_EQ_I(err.code, BLOBC_V_NO_TYPES);
    blobc_verify_options o = {.schema = S};
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_verify_blob(b.data, b.len, &o, &err), BLOBC_OK);
    /* the wrong type for it */
    o.type_name = "Room";
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_verify_blob(b.data, b.len, &o, &err), BLOBC_EINPUT);
    CHECK_EQ_I(err.code, BLOBC_V_SCHEMA_HASH);
    CHECK_EQ_U(err.offset, 40);
    char want[64];
    snprintf(want, sizeof want, "0x%016llx", (unsigned long long)blobc_type_hash(LV));
    CHECK_CONTAINS(err.message, want);
    snprintf(want, sizeof want, "0x%016llx", (unsigned long long)blobc_type_hash(ROOM));
    CHECK_CONTAINS(err.message, want);
    o.type_name = "Nope";
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_verify_blob(b.data, b.len, &o, &err), BLOBC_EARG);
    CHECK_CONTAINS(err.message, "Nope");
    blobc_buffer_free(&b);
}

TEST(blob_error_offsets_are_file_offsets) {
    uint8_t *c = copy_img();
    size_t at = field_at(c, 1, "lit");
    c[at] = 9;
    blobc_buffer b = {0};
    fx_blob(c, IMG.len, LV, false, &b);
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_verify_blob(b.data, b.len, NULL, &err), BLOBC_EINPUT);
    CHECK_EQ_I(err.code, BLOBC_V_BOOL);
    CHECK_EQ_U(err.offset, BLOBC_HEADER_SIZE + at);
    CHECK_STR(err.path, "rooms[1].lit");
    blobc_buffer_free(&b);
    free(c);
}

/* ---- the fast walk: checks run ahead, a chunk of elements at a time ---- */

/* 200 rooms: several chunks of checked elements (4 KiB of rooms each). */
static blobc_buffer BIG;

static uint8_t *copy_big(void) {
    uint8_t *c = malloc(BIG.len);
    memcpy(c, BIG.data, BIG.len);
    return c;
}

static outcome verify_big(const uint8_t *c) { return verify_as(c, BIG.len, LV); }

/* A check that fails in a later room must not be reported before an
 * offset field that fails in an earlier one, nor the other way round,
 * and inside one room the field order decides: the checks of a chunk run
 * before its fields are walked, so a failing chunk is walked again op by
 * op. */
TEST(first_failure_across_chunks) {
    uint8_t *c = copy_big();
    size_t lit150 = field_at(c, 150, "lit"), lit120 = field_at(c, 120, "lit");
    size_t s120 = tgt(c, field_at(c, 120, "name")), s150 = tgt(c, field_at(c, 150, "name"));
    c[lit150] = 2;
    c[s120] = 0;
    outcome o = verify_big(c);
    CHECK_FAILS(o, BLOBC_V_STRING_NUL, s120, "rooms[120].name");
    c[s120] = 'R';
    o = verify_big(c);
    CHECK_FAILS(o, BLOBC_V_BOOL, lit150, "rooms[150].lit");
    c[lit150] = 0;
    c[lit120] = 7;
    c[s150 + 1] = 0x80;
    o = verify_big(c);
    CHECK_FAILS(o, BLOBC_V_BOOL, lit120, "rooms[120].lit");
    CHECK_CONTAINS(o.err.message, "bool byte is 7");
    c[lit120] = 0;
    o = verify_big(c);
    CHECK_FAILS(o, BLOBC_V_UTF8, s150 + 1, "rooms[150].name");
    c[s150 + 1] = 'a';
    CHECK_EQ_I(verify_big(c).st, BLOBC_OK);
    /* room 130: kind (a check) comes before neighbors (a field) ... */
    size_t kind = field_at(c, 130, "kind"), nb = field_at(c, 130, "neighbors");
    c[kind] = 2;
    blobc_st32(c + nb + 4, 0x80000000u);
    o = verify_big(c);
    CHECK_FAILS(o, BLOBC_V_ENUM, kind, "rooms[130].kind");
    c[kind] = 1;
    o = verify_big(c);
    CHECK_FAILS(o, BLOBC_V_LENGTH, nb, "rooms[130].neighbors");
    blobc_st32(c + nb + 4, 1);
    /* ... and name (a field) before lit (a check) */
    size_t s130 = tgt(c, field_at(c, 130, "name")), lit130 = field_at(c, 130, "lit");
    c[lit130] = 0xff;
    c[s130 + 2] = 0;
    o = verify_big(c);
    CHECK_FAILS(o, BLOBC_V_STRING_NUL, s130 + 2, "rooms[130].name");
    free(c);
}

/* Every element is checked, at both sides of every chunk boundary. */
TEST(chunk_boundaries) {
    uint32_t chunk = 4096 / ROOM->size;
    const uint32_t rooms[] = {0, 1, chunk - 1, chunk, chunk + 1, 2 * chunk - 1, 2 * chunk, 198, 199};
    uint8_t *c = copy_big();
    for (size_t k = 0; k < sizeof rooms / sizeof rooms[0]; k++) {
        char path[64];
        size_t at = field_at(c, rooms[k], "lit");
        uint8_t was = c[at];
        c[at] = 2;
        snprintf(path, sizeof path, "rooms[%u].lit", rooms[k]);
        outcome o = verify_big(c);
        CHECK_FAILS(o, BLOBC_V_BOOL, at, path);
        c[at] = was;
        at = field_at(c, rooms[k], "weights") + 12;
        blobc_st32(c + at, 0x7f800001u);
        snprintf(path, sizeof path, "rooms[%u].weights[3]", rooms[k]);
        o = verify_big(c);
        CHECK_FAILS(o, BLOBC_V_NAN, at, path);
        fx_f32(c + at, 1.0f);
    }
    CHECK_EQ_I(verify_big(c).st, BLOBC_OK);
    free(c);
}

/* The NaN test over a chunk only says "maybe": canonical NaNs and
 * infinities pass, whichever float of whichever room holds them. */
TEST(canonical_nan_in_bulk) {
    uint8_t *c = copy_big();
    blobc_st32(c + field_at(c, 100, "center") + 4, 0x7fc00000u);
    blobc_st32(c + field_at(c, 100, "weights") + 12, 0x7fc00000u);
    blobc_st32(c + field_at(c, 101, "radius"), 0xff800000u);
    blobc_st32(c + field_at(c, 102, "center"), 0x7f800000u);
    CHECK_EQ_I(verify_big(c).st, BLOBC_OK);
    size_t at = field_at(c, 160, "center") + 8;
    blobc_st32(c + at, 0xffc00000u);
    outcome o = verify_big(c);
    CHECK_FAILS(o, BLOBC_V_NAN, at, "rooms[160].center.z");
    CHECK_CONTAINS(o.err.message, "0xffc00000");
    blobc_st32(c + at, 0);
    at = field_at(c, 90, "temp");
    blobc_st16(c + at, 21);
    o = verify_big(c);
    CHECK_FAILS(o, BLOBC_V_ENUM, at, "rooms[90].temp");
    CHECK_CONTAINS(o.err.message, "21 is not a value of enum Temp");
    free(c);
}

/* String bytes of every length from 0 to 40, each byte in turn made a NUL,
 * a bad UTF-8 lead byte, and DEL (fine); the NUL made 'x'. The strings
 * are checked 16 bytes at a time, a short one in a load that ends at its
 * NUL; the offsets must still name the exact byte. */
TEST(string_bytes_every_length) {
    enum { N = 41 };
    blobc_schema *s = fx_schema_parse("struct T { a: string; b: [string]; } root T;");
    const blobc_type *t = blobc_schema_root(s);
    blobc_builder *b = blobc_builder_new();
    uint8_t *root;
    CHECK_EQ_I(blobc_builder_root(b, t->size, t->align, (void **)&root), BLOBC_OK);
    fx_str(b, 0, fx_off(t, "a"), "a string of thirty-three bytes...");
    blobc_ref arr = fx_arr(b, 0, fx_off(t, "b"), N, 8, 4);
    for (uint32_t j = 0; j < N; j++) {
        char text[N + 1];
        for (uint32_t k = 0; k < j; k++) text[k] = (char)('a' + (j + k) % 26);
        text[j] = '\0';
        fx_str(b, arr, 8 * j, text);
    }
    blobc_buffer img = {0};
    fx_finish(b, &img);
    uint8_t *d = img.data;
    CHECK_EQ_I(verify_as(d, img.len, t).st, BLOBC_OK);
    size_t items = tgt(d, fx_off(t, "b"));
    for (uint32_t j = 0; j < N; j++) {
        size_t q = items + 8 * j, at = tgt(d, q);
        char path[32];
        snprintf(path, sizeof path, "b[%u]", j);
        CHECK_EQ_I(rd(d + q + 4), (int32_t)j + 1);
        for (uint32_t k = 0; k < j; k++) {
            uint8_t was = d[at + k];
            d[at + k] = 0;
            outcome o = verify_as(d, img.len, t);
            CHECK_FAILS(o, BLOBC_V_STRING_NUL, at + k, path);
            d[at + k] = 0xc3;
            o = verify_as(d, img.len, t);
            CHECK_FAILS(o, BLOBC_V_UTF8, at + k, path);
            d[at + k] = 0x7f;
            CHECK_EQ_I(verify_as(d, img.len, t).st, BLOBC_OK);
            d[at + k] = was;
        }
        d[at + j] = 'x';
        outcome o = verify_as(d, img.len, t);
        CHECK_FAILS(o, BLOBC_V_STRING_NUL, at + j, path);
        CHECK_CONTAINS(o.err.message, "does not end with NUL");
        d[at + j] = 0;
    }
    CHECK_EQ_I(verify_as(d, img.len, t).st, BLOBC_OK);
    blobc_buffer_free(&img);
    blobc_schema_free(s);

    /* bytes within the first 16 of the data: no 16-byte load ends there */
    s = fx_schema_parse("struct U { s: string; } root U;");
    t = blobc_schema_root(s);
    uint8_t u[12] = {8, 0, 0, 0, 4, 0, 0, 0, 'a', 'b', 'c', 0};
    CHECK_EQ_I(verify_as(u, sizeof u, t).st, BLOBC_OK);
    u[9] = 0;
    CHECK_FAILS(verify_as(u, sizeof u, t), BLOBC_V_STRING_NUL, 9, "s");
    u[9] = 0x80;
    CHECK_FAILS(verify_as(u, sizeof u, t), BLOBC_V_UTF8, 9, "s");
    blobc_schema_free(s);
}

/* An inline [F; 30] whose program is too long to copy and holds checks
 * only: walked without a frame when every check passes. */
TEST(flat_inline_values) {
    blobc_schema *s = fx_schema_parse(
        "struct F { a: bool; x: f32; b: u8; y: f64; c: bool; }\n"
        "struct R { n: u16; fs: [F; 30]; s: string; } root R;");
    const blobc_type *r = blobc_schema_root(s), *f = fx_type(s, "F");
    blobc_builder *b = blobc_builder_new();
    uint8_t *root;
    CHECK_EQ_I(blobc_builder_root(b, r->size, r->align, (void **)&root), BLOBC_OK);
    fx_str(b, 0, fx_off(r, "s"), "tail");
    root = fx_mem(b, 0);
    uint32_t fs = fx_off(r, "fs");
    for (uint32_t i = 0; i < 30; i++) root[fs + i * f->size + fx_off(f, "c")] = (uint8_t)(i % 2);
    blobc_buffer img = {0};
    fx_finish(b, &img);
    uint8_t *d = img.data;
    CHECK_EQ_I(verify_as(d, img.len, r).st, BLOBC_OK);
    size_t at = fs + 17 * f->size + fx_off(f, "c");
    d[at] = 2;
    CHECK_FAILS(verify_as(d, img.len, r), BLOBC_V_BOOL, at, "fs[17].c");
    d[at] = 1;
    at = fs + 29 * f->size + fx_off(f, "y");
    blobc_st64(d + at, 0x7ff8000000000001ull);
    CHECK_FAILS(verify_as(d, img.len, r), BLOBC_V_NAN, at, "fs[29].y");
    blobc_st64(d + at, 0x7ff8000000000000ull);
    CHECK_EQ_I(verify_as(d, img.len, r).st, BLOBC_OK);
    at = fs + 3 * f->size + fx_off(f, "a");
    size_t sb = tgt(d, fx_off(r, "s"));
    d[at] = 9;
    d[sb] = 0xff;
    CHECK_FAILS(verify_as(d, img.len, r), BLOBC_V_BOOL, at, "fs[3].a");
    d[at] = 0;
    CHECK_FAILS(verify_as(d, img.len, r), BLOBC_V_UTF8, sb, "s");
    d[sb] = 't';
    at = fs + 5 * f->size + 1; /* padding after a */
    d[at] = 1;
    CHECK_FAILS(verify_as(d, img.len, r), BLOBC_V_PADDING, at, "fs[5]");
    blobc_buffer_free(&img);
    blobc_schema_free(s);
}

/* The table entries the fast walk writes for payloads it places on the
 * spot are the ones the general path writes: element type, count, flags. */
TEST(table_entries_of_quick_payloads) {
    blobc_walk w;
    blobc_walk_init(&w);
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_walk_run(&w, BIG.data, BIG.len, LV, 0, &err), BLOBC_OK);
    for (size_t k = 0; k < w.ntab; k++) CHECK(blobc_walk_flags(&w, k) & BLOBC_WP_DONE);
    const uint8_t *d = BIG.data;
    uint32_t sz = 0;
    size_t k = blobc_walk_find(&w, (uint32_t)tgt(d, field_at(d, 2, "neighbors")));
    CHECK(k != SIZE_MAX);
    blobc_wpayload p = blobc_walk_payload(&w, k);
    const blobc_type *t = blobc_walk_tid_type(&w, p.tid, &sz);
    CHECK(t && t->kind == BLOBC_KIND_U32);
    CHECK_EQ_U(sz, 4);
    CHECK_EQ_U(p.count, 2);
    CHECK_EQ_U(p.flags, BLOBC_WP_DONE);
    k = blobc_walk_find(&w, (uint32_t)tgt(d, field_at(d, 3, "tags")));
    p = blobc_walk_payload(&w, k);
    t = blobc_walk_tid_type(&w, p.tid, &sz);
    CHECK(t && t->kind == BLOBC_KIND_STRING);
    CHECK_EQ_U(sz, 8);
    CHECK_EQ_U(p.count, 2);
    CHECK_EQ_U(p.flags, BLOBC_WP_DONE);
    size_t name = field_at(d, 3, "name");
    k = blobc_walk_find(&w, (uint32_t)tgt(d, name));
    p = blobc_walk_payload(&w, k);
    CHECK(blobc_walk_tid_type(&w, p.tid, &sz) == NULL);
    CHECK_EQ_U(sz, 1);
    CHECK_EQ_U(p.count, (uint32_t)rd(d + name + 4));
    k = blobc_walk_find(&w, (uint32_t)tgt(d, field_at(d, 2, "meta")));
    p = blobc_walk_payload(&w, k);
    CHECK_EQ_U(p.flags, BLOBC_WP_DONE | BLOBC_WP_PTR);
    blobc_walk_free(&w);

    /* *u32 and *string: first reached through a pointer */
    blobc_schema *s = fx_schema_parse("struct P { p: *u32; q: [u32]; s: *string; } root P;");
    const blobc_type *pt = blobc_schema_root(s);
    blobc_builder *b = blobc_builder_new();
    uint8_t *root;
    CHECK_EQ_I(blobc_builder_root(b, pt->size, pt->align, (void **)&root), BLOBC_OK);
    blobc_st32(fx_mem(b, fx_ptr(b, 0, fx_off(pt, "p"), 4, 4)), 77);
    fx_arr(b, 0, fx_off(pt, "q"), 3, 4, 4);
    fx_str(b, fx_ptr(b, 0, fx_off(pt, "s"), 8, 4), 0, "pointed");
    blobc_buffer img = {0};
    fx_finish(b, &img);
    blobc_walk_init(&w);
    CHECK_EQ_I(blobc_walk_run(&w, img.data, img.len, pt, 0, &err), BLOBC_OK);
    CHECK_EQ_U(w.ntab, 5);
    const uint32_t want_flags[] = {BLOBC_WP_DONE | BLOBC_WP_PTR, BLOBC_WP_DONE | BLOBC_WP_PTR,
                                   BLOBC_WP_DONE, BLOBC_WP_DONE | BLOBC_WP_PTR, BLOBC_WP_DONE};
    const uint32_t want_count[] = {1, 1, 3, 1, 8};
    const int want_kind[] = {BLOBC_KIND_STRUCT, BLOBC_KIND_U32, BLOBC_KIND_U32, BLOBC_KIND_STRING, -1};
    for (k = 0; k < 5 && k < w.ntab; k++) {
        p = blobc_walk_payload(&w, k);
        t = blobc_walk_tid_type(&w, p.tid, &sz);
        CHECK_EQ_U(p.flags, want_flags[k]);
        CHECK_EQ_U(p.count, want_count[k]);
        CHECK_EQ_I(t ? (int)t->kind : -1, want_kind[k]);
    }
    blobc_walk_free(&w);
    blobc_buffer_free(&img);
    blobc_schema_free(s);
}

/* ---- the bad-blob corpus ---- */

TEST(bad_corpus) {
    FILE *m = fopen("tests/bad/blob/MANIFEST", "r");
    if (!m) FAILF("tests/bad/blob/MANIFEST not found (run from the source tree)");
    char line[512];
    int cases = 0;
    blobc_schema *schemas[8] = {0};
    while (fgets(line, sizeof line, m)) {
        char name[128], code[64], schema[128], type[64];
        if (line[0] == '#' || line[0] == '\n') continue;
        int k = sscanf(line, "%127s %63s %127s %63s", name, code, schema, type);
        if (k < 2) FAILF("bad MANIFEST line: %s", line);
        char path[256];
        snprintf(path, sizeof path, "tests/bad/blob/%s", name);
        uint8_t *bytes = NULL;
        size_t len = 0;
        blobc_error err;
        blobc_error_clear(&err);
        if (blobc_read_file(path, &bytes, &len, &err) != BLOBC_OK) FAILF("%s: %s", path, err.message);
        blobc_verify_options o = {0};
        blobc_schema *sch = NULL;
        if (k >= 3 && strcmp(schema, "-") != 0) {
            char sp[256];
            snprintf(sp, sizeof sp, "tests/bad/blob/%s", schema);
            if (blobc_schema_load(sp, &sch, &err) != BLOBC_OK) FAILF("%s: %s", sp, err.message);
            o.schema = sch;
            if (k >= 4) o.type_name = type;
        }
        blobc_error_clear(&err);
        blobc_status st = blobc_verify_blob(bytes, len, &o, &err);
        const char *got = st == BLOBC_OK ? "ok" : blobc_verify_code_name(err.code);
        if (strcmp(got, code) != 0) FAILF("%s: got %s (%s), want %s", name, got, err.message, code);
        if (st != BLOBC_OK && st != BLOBC_EINPUT) FAILF("%s: status %d", name, st);
        free(bytes);
        blobc_schema_free(sch);
        cases++;
    }
    fclose(m);
    (void)schemas;
    if (cases < 40) FAILF("only %d corpus cases", cases);
}

TEST_MAIN_BEGIN("verify")
    S = fx_schema_parse(fx_schema_text);
    LV = fx_type(S, "Level");
    ROOM = fx_type(S, "Room");
    META = fx_type(S, "RoomMeta");
    fx_level(S, 8, &IMG);
    fx_level(S, 200, &BIG);
    NODE_S = fx_schema_parse("struct Node { v: u32; next: *Node; } root Node;");
    NODE = blobc_schema_root(NODE_S);
    DAG_S = fx_schema_parse("struct D { a: *D; b: *D; v: u32; } root D;");
    DAG = blobc_schema_root(DAG_S);
    RUN(valid_level);
    RUN(valid_blob_file);
    RUN(bool_not_0_or_1);
    RUN(enum_undeclared);
    RUN(nan_canonical_only);
    RUN(nan_f64_behind_pointer);
    RUN(struct_padding);
    RUN(string_nul);
    RUN(string_utf8);
    RUN(string_in_array_path);
    RUN(offset_out_of_range);
    RUN(misaligned_target);
    RUN(length_checks);
    RUN(null_and_length);
    RUN(overlap_inside_payload);
    RUN(overlap_same_start_other_count);
    RUN(trailing_bytes);
    RUN(data_size);
    RUN(cycle_self);
    RUN(cycle_two);
    RUN(layout_gap_and_order);
    RUN(deep_chain_million);
    RUN(exploding_dag_is_linear);
    RUN(exploding_dag_partial_overlap);
    RUN(exploding_dag_misaligned);
    RUN(large_inline_programs);
    RUN(deep_inline_nesting);
    RUN(stripped_needs_schema);
    RUN(blob_error_offsets_are_file_offsets);
    RUN(first_failure_across_chunks);
    RUN(chunk_boundaries);
    RUN(canonical_nan_in_bulk);
    RUN(string_bytes_every_length);
    RUN(flat_inline_values);
    RUN(table_entries_of_quick_payloads);
    RUN(bad_corpus);
    blobc_buffer_free(&IMG);
    blobc_buffer_free(&BIG);
    blobc_schema_free(S);
    blobc_schema_free(NODE_S);
    blobc_schema_free(DAG_S);
TEST_MAIN_END
