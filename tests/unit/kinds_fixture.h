/*
 * kinds_fixture.h - test data for maps, optionals, any-values, tagged
 * unions and @stream roots: a schema using each, and images of it made
 * with the blob builder directly (no front end involved).
 */
#ifndef BLOBC_KINDS_FIXTURE_H
#define BLOBC_KINDS_FIXTURE_H

#include "walk_fixture.h"

static const char kinds_schema[] =
    "enum Color : u8 { red, green = 3 }\n"
    "struct V2 { x: f32; y: f32; }\n"
    "struct Holder { tags: [string: u32]; ids: [i32: string]; cols: [Color: V2];\n"
    "    pos: ?V2; name: ?string; n: ?u8; doc: any; }\n"
    "struct Deep { a: any; b: any; }\n"
    "struct A { x: u32; }\n"
    "struct B { y: string; }\n"
    "union L by \"type\" default \"a\" { \"a\": A, B }\n"
    "union N by \"kind\" { 1: A, 2: B }\n"
    "union T by tag { \"!circle\": A, B }\n"
    "struct R { l: L; n: N; t: T; o: ?A; }\n"
    "@stream struct S { items: [R]; }\n"
    "root Holder;\n";

static blobc_schema *KS;
static const blobc_type *HOLDER, *DEEP;

/* What build_holder varies. */
typedef struct hopts {
    const char *tk[2]; /* tags' keys */
    int32_t ik[2];     /* ids' keys */
    uint8_t ck[2];     /* cols' keys */
    bool name;         /* name present */
} hopts;

static const hopts GOOD = {{"a", "ab"}, {-5, 7}, {0, 3}, false};

static inline void any_set(uint8_t *p, uint32_t kind, uint64_t body) {
    blobc_st32(p, kind);
    blobc_st64(p + BLOBC_ANY_BODY, body);
}

/* Holder with doc = {"k": [1, true, null, "s", 2.5, 2^63 + 1, -3]}. */
static inline void build_holder(const hopts *o, blobc_buffer *out) {
    blobc_builder *b = blobc_builder_new();
    uint8_t *root;
    if (!b || blobc_builder_root(b, HOLDER->size, HOLDER->align, (void **)&root) != BLOBC_OK) abort();
    blobc_ref tags = fx_arr(b, 0, fx_off(HOLDER, "tags"), 2, 12, 4);
    for (uint32_t i = 0; i < 2; i++) {
        fx_str(b, tags, 12 * i, o->tk[i]);
        blobc_st32(fx_mem(b, tags) + 12 * i + 8, i + 1);
    }
    blobc_ref ids = fx_arr(b, 0, fx_off(HOLDER, "ids"), 2, 12, 4);
    for (uint32_t i = 0; i < 2; i++) {
        blobc_st32(fx_mem(b, ids) + 12 * i, (uint32_t)o->ik[i]);
        fx_str(b, ids, 12 * i + 4, i ? "y" : "x");
    }
    blobc_ref cols = fx_arr(b, 0, fx_off(HOLDER, "cols"), 2, 12, 4);
    for (uint32_t i = 0; i < 2; i++) {
        fx_mem(b, cols)[12 * i] = o->ck[i];
        fx_f32(fx_mem(b, cols) + 12 * i + 4, (float)i);
    }
    root = fx_mem(b, 0);
    uint32_t pos = fx_off(HOLDER, "pos");
    fx_f32(root + pos, 5.0f);
    fx_f32(root + pos + 4, 6.0f);
    root[pos + 8] = 1;
    if (o->name) {
        fx_str(b, 0, fx_off(HOLDER, "name"), "nm");
        fx_mem(b, 0)[fx_off(HOLDER, "name") + 8] = 1;
    }
    root = fx_mem(b, 0);
    uint32_t n = fx_off(HOLDER, "n");
    root[n] = 9;
    root[n + 1] = 1;
    uint32_t doc = fx_off(HOLDER, "doc");
    blobc_st32(root + doc, BLOBC_ANY_MAP);
    blobc_ref m = fx_arr(b, 0, doc + 4, 1, 20, 4);
    fx_str(b, m, 0, "k");
    blobc_st32(fx_mem(b, m) + 8, BLOBC_ANY_LIST);
    blobc_ref l = fx_arr(b, m, 12, 7, 12, 4);
    uint8_t *it = fx_mem(b, l);
    any_set(it, BLOBC_ANY_INT, 1);
    any_set(it + 12, BLOBC_ANY_BOOL, 1);
    any_set(it + 24, BLOBC_ANY_NULL, 0);
    blobc_st32(it + 36, BLOBC_ANY_STRING);
    fx_str(b, l, 40, "s");
    it = fx_mem(b, l);
    double f = 2.5;
    uint64_t fb;
    memcpy(&fb, &f, 8);
    any_set(it + 48, BLOBC_ANY_FLOAT, fb);
    any_set(it + 60, BLOBC_ANY_UINT, (1ull << 63) + 1);
    any_set(it + 72, BLOBC_ANY_INT, (uint64_t)-3);
    fx_finish(b, out);
}

/* A member of the union at (loc, at): its tag and its struct, an A
 * {x} or a B {y}. */
static inline void kx_member(blobc_builder *b, blobc_ref loc, uint32_t at, uint32_t tag, uint32_t x,
                             const char *y) {
    blobc_st32(fx_mem(b, loc) + at, tag);
    blobc_ref m = fx_ptr(b, loc, at + 4, y ? 8 : 4, 4);
    if (y) fx_str(b, m, 0, y);
    else blobc_st32(fx_mem(b, m), x);
}

/* The @stream S of two R items: every union each way, o absent then
 * present. */
static inline void build_stream(blobc_buffer *out) {
    const blobc_type *s = fx_type(KS, "S"), *r = fx_type(KS, "R");
    blobc_builder *b = blobc_builder_new();
    void *root;
    if (!b || blobc_builder_root(b, s->size, s->align, &root) != BLOBC_OK) abort();
    blobc_ref items = fx_arr(b, 0, 0, 2, r->size, r->align);
    kx_member(b, items, fx_off(r, "l"), 1, 1, NULL);
    kx_member(b, items, fx_off(r, "n"), 2, 0, "bee");
    kx_member(b, items, fx_off(r, "t"), 1, 3, NULL);
    uint32_t at = r->size;
    kx_member(b, items, at + fx_off(r, "l"), 2, 0, "hi");
    kx_member(b, items, at + fx_off(r, "n"), 1, 5, NULL);
    kx_member(b, items, at + fx_off(r, "t"), 2, 0, "sq");
    blobc_st32(fx_mem(b, items) + at + fx_off(r, "o"), 7);
    fx_mem(b, items)[at + fx_off(r, "o") + 4] = 1;
    fx_finish(b, out);
}

static inline void kx_init(void) {
    KS = fx_schema_parse(kinds_schema);
    HOLDER = fx_type(KS, "Holder");
    DEEP = fx_type(KS, "Deep");
}

#endif
