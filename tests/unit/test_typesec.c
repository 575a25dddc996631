/*
 * test_typesec.c - the type section: golden bytes, canonical and
 * deterministic encoding, the bake's description (the section and the
 * defaults), round trips through the decoder (structure,
 * names, layout and schema hash), interning, and hostile sections that
 * must fail cleanly with a precise message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobfile.h"
#include "blobc/schema.h"
#include "blobc/verify.h"
#include "test.h"
#include "common/buffer.h"
#include "common/endian.h"

static blobc_schema *parse(const char *text) {
    blobc_schema *s = NULL;
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_schema_parse(text, strlen(text), "t.schema", &s, &err) != BLOBC_OK) {
        printf("schema does not parse: %s\n", err.message);
        return NULL;
    }
    return s;
}

static bool encode(const blobc_schema *s, const char *name, blobc_buffer *out) {
    blobc_error err;
    blobc_error_clear(&err);
    out->len = 0;
    if (blobc_types_encode(blobc_schema_root(s), name, out, &err) != BLOBC_OK) {
        printf("encode failed: %s\n", err.message);
        return false;
    }
    return true;
}

/* ---- golden bytes ---- */

static const char small_schema[] = "enum K : u8 { a, b = 5 }\n"
                                   "struct R { k: K; next: *R; w: [f32; 2]; }\n"
                                   "root R;\n";

static const uint32_t small_words[] = {
    8, 19, 6, 0, 6,                         /* strings, bytes, types, root, schema name */
    0x0052004b, 0x00620061, 0x656e006b, 0x73007478, 0x00007700,
    /* 0: struct R (string 1), no @align, 3 fields: k -> 1, next -> 2, w -> 4 */
    13, 1, 0, 3, 4, 1, 5, 2, 7, 4,
    /* 1: enum K (string 0), base 5, 2 members: a = 0, b = 5 */
    12, 0, 5, 2, 2, 0, 0, 3, 5, 0,
    17, 0,      /* 2: *R */
    10,         /* 3: f32 */
    16, 3, 2,   /* 4: [f32; 2] */
    3,          /* 5: u8 */
};

TEST(golden_bytes) {
    blobc_schema *s = parse(small_schema);
    CHECK(s);
    blobc_buffer out = {0};
    CHECK(blobc_buf_puts(&out, "keep")); /* encode appends */
    blobc_error err;
    CHECK_EQ_I(blobc_types_encode(blobc_schema_root(s), "s", &out, &err), BLOBC_OK);
    CHECK(memcmp(out.data, "keep", 4) == 0);
    CHECK_EQ_U(out.len - 4, sizeof small_words);
    /* K R a b k next s w, NUL-terminated, then one byte of padding */
    CHECK(memcmp(out.data + 4 + 20, "K\0R\0a\0b\0k\0next\0s\0w\0\0", 20) == 0);
    for (size_t i = 0; i < sizeof small_words / 4; i++)
        if (blobc_ld32(out.data + 4 + 4 * i) != small_words[i])
            FAILF("word %zu: got 0x%x, want 0x%x", i, blobc_ld32(out.data + 4 + 4 * i),
                  small_words[i]);
    blobc_buffer_free(&out);
    blobc_schema_free(s);
}

TEST(declaration_order_does_not_matter) {
    blobc_schema *a = parse(small_schema);
    blobc_schema *b = parse("struct Unused { z: u64; }\n"
                            "root R;\n"
                            "struct R { k: K; next: *R; w: [f32; 2]; }\n"
                            "enum K : u8 { a, b = 5 }\n");
    CHECK(a && b);
    blobc_buffer ea = {0}, eb = {0};
    CHECK(encode(a, "s", &ea) && encode(b, "s", &eb));
    CHECK_EQ_U(ea.len, eb.len);
    CHECK(memcmp(ea.data, eb.data, ea.len) == 0);
    blobc_buffer_free(&ea);
    blobc_buffer_free(&eb);
    blobc_schema_free(a);
    blobc_schema_free(b);
}

/* ---- the bake's description: the section, then every default ---- */

static bool describe(const char *schema, blobc_buffer *out, size_t *section) {
    blobc_schema *s = parse(schema);
    blobc_error err;
    bool ok = s && blobc_types_describe(blobc_schema_root(s), "s", out, section, &err) == BLOBC_OK;
    blobc_schema_free(s);
    return ok;
}

/* Every kind of default changes the description, never the section in
 * front of it, but for `= null` on a union field: the section marks the
 * union fields that may not hold none (docs/FORMAT.md), which verify
 * holds blobs to. What no bake sees (comments, order, unused types)
 * changes neither. */
TEST(description_covers_defaults) {
    static const char *const variants[] = {
        "enum K : u8 { a, b } union U { R2 } struct R2 { z: u8; }\n"
        "struct R { i: u16; f: f32; d: f64; k: K; s: string; b: bool; u: U; }\nroot R;\n",
        "enum K : u8 { a, b } union U { R2 } struct R2 { z: u8; }\n"
        "struct R { i: u16 = 3; f: f32; d: f64; k: K; s: string; b: bool; u: U; }\nroot R;\n",
        "enum K : u8 { a, b } union U { R2 } struct R2 { z: u8; }\n"
        "struct R { i: u16 = 4; f: f32; d: f64; k: K; s: string; b: bool; u: U; }\nroot R;\n",
        "enum K : u8 { a, b } union U { R2 } struct R2 { z: u8; }\n"
        "struct R { i: u16; f: f32 = 1.5; d: f64; k: K; s: string; b: bool; u: U; }\nroot R;\n",
        "enum K : u8 { a, b } union U { R2 } struct R2 { z: u8; }\n"
        "struct R { i: u16; f: f32; d: f64 = -0.0; k: K; s: string; b: bool; u: U; }\nroot R;\n",
        "enum K : u8 { a, b } union U { R2 } struct R2 { z: u8; }\n"
        "struct R { i: u16; f: f32; d: f64; k: K = b; s: string; b: bool; u: U; }\nroot R;\n",
        "enum K : u8 { a, b } union U { R2 } struct R2 { z: u8; }\n"
        "struct R { i: u16; f: f32; d: f64; k: K; s: string = \"\"; b: bool; u: U; }\nroot R;\n",
        "enum K : u8 { a, b } union U { R2 } struct R2 { z: u8; }\n"
        "struct R { i: u16; f: f32; d: f64; k: K; s: string = \"x\"; b: bool; u: U; }\nroot R;\n",
        "enum K : u8 { a, b } union U { R2 } struct R2 { z: u8; }\n"
        "struct R { i: u16; f: f32; d: f64; k: K; s: string; b: bool = false; u: U; }\nroot R;\n",
        "enum K : u8 { a, b } union U { R2 } struct R2 { z: u8; }\n"
        "struct R { i: u16; f: f32; d: f64; k: K; s: string; b: bool; u: U = null; }\nroot R;\n",
        "enum K : u8 { a, b } union U { R2 } struct R2 { z: u8 = 1; }\n"
        "struct R { i: u16; f: f32; d: f64; k: K; s: string; b: bool; u: U; }\nroot R;\n",
    };
    enum { N = sizeof variants / sizeof variants[0], MAY_BE_NONE = 9 };
    blobc_buffer d[N] = {{0}};
    size_t sec[N];
    for (int i = 0; i < N; i++) CHECK(describe(variants[i], &d[i], &sec[i]));
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++) {
            CHECK(d[i].len != d[j].len || memcmp(d[i].data, d[j].data, d[i].len) != 0);
            bool same = sec[i] == sec[j] && memcmp(d[i].data, d[j].data, sec[i]) == 0;
            CHECK(same == (i != MAY_BE_NONE && j != MAY_BE_NONE));
        }
    /* The section is blobc_types_encode's, byte for byte. */
    blobc_schema *s = parse(variants[1]);
    blobc_buffer e = {0};
    CHECK(s && encode(s, "s", &e));
    CHECK(e.len == sec[1] && memcmp(e.data, d[1].data, e.len) == 0);
    blobc_buffer_free(&e);
    blobc_schema_free(s);
    blobc_buffer same = {0};
    size_t n;
    CHECK(describe("// a comment\nstruct Unused { q: u8 = 9; }\n"
                   "struct R { i: u16 = 3; f: f32; d: f64; k: K; s: string; b: bool; u: U; }\n"
                   "struct R2 { z: u8; } union U { R2 } enum K : u8 { a, b } root R;\n",
                   &same, &n));
    CHECK(same.len == d[1].len && memcmp(same.data, d[1].data, same.len) == 0);
    blobc_buffer_free(&same);
    for (int i = 0; i < N; i++) blobc_buffer_free(&d[i]);
}

/* ---- round trips ---- */

static const char full_schema[] =
    "enum Kind : u8 { a, b = 5, c }\n"
    "enum Big : i64 { lo = -9223372036854775808, hi = 9223372036854775807 }\n"
    "enum Neg : i8 { m = -128, p = 127 }\n"
    "struct V { x: f32; y: f64; }\n"
    "@align(16) struct A { b: bool; k: Kind; v: V; f: [u16; 3]; }\n"
    "struct Node {\n"
    "  fi8: i8; fu8: u8; fi16: i16; fu16: u16; fi32: i32; fu32: u32; fi64: i64; fu64: u64;\n"
    "  name: string; tags: [string]; kids: [Node]; next: *Node; a: A;\n"
    "  grid: [[u32]]; pts: [[f32; 3]]; refs: [*A]; big: Big; ok: bool; n: Neg;\n"
    "  more: [u32]; deep: [[[f32; 3]; 2]; 4];\n"
    "}\n"
    "root Node;\n";

/* Compares two type graphs (bounded walk: named types compared once). */
static int same_type(const blobc_type *x, const blobc_type *y, int depth, char *why, size_t cap) {
    if (depth > 32) return 1;
    if (x->kind != y->kind || x->size != y->size || x->align != y->align ||
        x->count != y->count || x->nfields != y->nfields || x->nvalues != y->nvalues ||
        x->align_attr != y->align_attr) {
        snprintf(why, cap, "type %s/%s differs", x->name ? x->name : "?", y->name ? y->name : "?");
        return 0;
    }
    if ((x->name == NULL) != (y->name == NULL) || (x->name && strcmp(x->name, y->name))) {
        snprintf(why, cap, "name %s vs %s", x->name ? x->name : "-", y->name ? y->name : "-");
        return 0;
    }
    for (uint32_t i = 0; i < x->nvalues; i++)
        if (strcmp(x->values[i].name, y->values[i].name) || x->values[i].value != y->values[i].value) {
            snprintf(why, cap, "enum %s member %u", x->name, i);
            return 0;
        }
    for (uint32_t i = 0; i < x->nfields; i++) {
        if (strcmp(x->fields[i].name, y->fields[i].name) || x->fields[i].offset != y->fields[i].offset) {
            snprintf(why, cap, "struct %s field %u", x->name, i);
            return 0;
        }
        if (x->kind == BLOBC_KIND_STRUCT && depth > 0) continue; /* named: once */
        if (!same_type(x->fields[i].type, y->fields[i].type, depth + 1, why, cap)) return 0;
    }
    if (x->elem && !same_type(x->elem, y->elem, depth + 1, why, cap)) return 0;
    return 1;
}

TEST(round_trip) {
    blobc_schema *s = parse(full_schema);
    CHECK(s);
    blobc_buffer enc = {0};
    CHECK(encode(s, "levels/level.schema", &enc));
    blobc_schema *d = NULL;
    const char *name = NULL;
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_types_decode(enc.data, enc.len, &d, &name, &err), BLOBC_OK);
    CHECK_STR(name, "levels/level.schema");
    const blobc_type *r0 = blobc_schema_root(s), *r1 = blobc_schema_root(d);
    CHECK(r1);
    CHECK_STR(r1->name, "Node");
    CHECK_EQ_U(blobc_type_hash(r1), blobc_type_hash(r0));
    char why[128] = "";
    if (!same_type(r0, r1, 0, why, sizeof why)) FAILF("%s", why);
    /* Every named type reachable from the root is in the decoded schema. */
    CHECK_EQ_U(blobc_schema_count(d), 6);
    const blobc_type *a0 = blobc_schema_find(s, "A"), *a1 = blobc_schema_find(d, "A");
    CHECK(a1 && a1->align_attr == 16 && a1->size == a0->size);
    if (!same_type(a0, a1, 0, why, sizeof why)) FAILF("%s", why);
    const blobc_type *big = blobc_schema_find(d, "Big");
    CHECK(big && big->elem->kind == BLOBC_KIND_I64);
    CHECK_EQ_U(big->values[0].value, (uint64_t)INT64_MIN);
    const blobc_type *neg = blobc_schema_find(d, "Neg");
    CHECK_EQ_U(neg->values[0].value, (uint64_t)(int64_t)-128);
    /* Re-encoding the decoded types gives the same bytes. */
    blobc_buffer again = {0};
    CHECK(encode(d, "levels/level.schema", &again));
    CHECK_EQ_U(again.len, enc.len);
    CHECK(memcmp(again.data, enc.data, enc.len) == 0);
    blobc_buffer_free(&again);
    blobc_buffer_free(&enc);
    blobc_schema_free(d);
    blobc_schema_free(s);
}

TEST(decoded_types_are_interned) {
    blobc_schema *s = parse("struct A { x: [u32]; y: [[u32]]; s: string; }\n"
                            "struct B { x: [u32]; p: *A; q: *A; y: [[u32]]; n: u32; }\n"
                            "struct R { a: A; b: B; s: string; }\nroot R;\n");
    CHECK(s);
    blobc_buffer enc = {0};
    CHECK(encode(s, NULL, &enc));
    blobc_schema *d = NULL;
    const char *name = "x";
    blobc_error err;
    CHECK_EQ_I(blobc_types_decode(enc.data, enc.len, &d, &name, &err), BLOBC_OK);
    CHECK(name == NULL);
    const blobc_type *a = blobc_schema_find(d, "A"), *b = blobc_schema_find(d, "B");
    const blobc_type *r = blobc_schema_root(d);
    CHECK(a && b && r);
    CHECK(a->fields[0].type == b->fields[0].type);           /* [u32] */
    CHECK(a->fields[1].type == b->fields[3].type);           /* [[u32]] */
    CHECK(a->fields[1].type->elem == a->fields[0].type);
    CHECK(b->fields[1].type == b->fields[2].type);           /* *A */
    CHECK(b->fields[1].type->elem == a);
    CHECK(a->fields[2].type == blobc_builtin_type(BLOBC_KIND_STRING));
    CHECK(r->fields[2].type == blobc_builtin_type(BLOBC_KIND_STRING));
    CHECK(b->fields[4].type == blobc_builtin_type(BLOBC_KIND_U32));
    CHECK(a->fields[0].type->elem == blobc_builtin_type(BLOBC_KIND_U32));
    blobc_buffer_free(&enc);
    blobc_schema_free(d);
    blobc_schema_free(s);
}

/* A deep chain of anonymous types must not recurse in the encoder or the
 * decoder. The parser caps nesting, so the graph is built by hand. */
TEST(deep_anonymous_chain) {
    enum { DEPTH = 100000 };
    blobc_type *chain = calloc(DEPTH, sizeof *chain);
    CHECK(chain);
    for (size_t i = 0; i < DEPTH; i++) {
        chain[i].kind = i % 2 ? BLOBC_KIND_ARRAY : BLOBC_KIND_PTR;
        chain[i].elem = i + 1 < DEPTH ? &chain[i + 1] : blobc_builtin_type(BLOBC_KIND_U16);
    }
    blobc_field f = {0};
    f.name = "deep";
    f.type = &chain[0];
    blobc_type root = {0};
    root.kind = BLOBC_KIND_STRUCT;
    root.name = "Deep";
    root.nfields = 1;
    root.fields = &f;
    blobc_buffer enc = {0};
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_types_encode(&root, NULL, &enc, &err), BLOBC_OK);
    blobc_schema *d = NULL;
    CHECK_EQ_I(blobc_types_decode(enc.data, enc.len, &d, NULL, &err), BLOBC_OK);
    const blobc_type *t = blobc_schema_root(d)->fields[0].type;
    size_t depth = 0;
    while (t->kind == BLOBC_KIND_ARRAY || t->kind == BLOBC_KIND_PTR) {
        if (t->kind != chain[depth].kind) FAILF("level %zu has kind %d", depth, (int)t->kind);
        t = t->elem;
        depth++;
    }
    CHECK_EQ_U(depth, DEPTH);
    CHECK(t == blobc_builtin_type(BLOBC_KIND_U16));
    CHECK_EQ_U(blobc_schema_root(d)->size, 4);
    blobc_schema_free(d);
    blobc_buffer_free(&enc);
    free(chain);
}

TEST(encode_errors) {
    blobc_schema *s = parse(small_schema);
    CHECK(s);
    blobc_buffer out = {0};
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_types_encode(blobc_schema_find(s, "K"), NULL, &out, &err), BLOBC_EINPUT);
    CHECK_STR(err.message, "the root type must be a struct");
    CHECK_EQ_I(blobc_types_encode(blobc_schema_root(s), "bad\xff", &out, &err), BLOBC_EINPUT);
    CHECK_CONTAINS(err.message, "schema name cannot be embedded");
    CHECK_EQ_U(out.len, 0);
    blobc_schema_free(s);

    /* Names the format cannot carry are refused, not written. */
    /* past the longest name a type section holds (a quoted field name
     * may be any text up to it) */
    char *longname = malloc(5000);
    CHECK(longname);
    memset(longname, 'x', 4999);
    longname[4999] = '\0';
    blobc_field f = {0};
    f.name = longname;
    f.type = blobc_builtin_type(BLOBC_KIND_U8);
    blobc_type st = {0};
    st.kind = BLOBC_KIND_STRUCT;
    st.name = "S";
    st.nfields = 1;
    st.fields = &f;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_types_encode(&st, NULL, &out, &err), BLOBC_EINPUT);
    CHECK_CONTAINS(err.message, "field name \"xxxx");
    CHECK_CONTAINS(err.message, "of S cannot be embedded");
    free(longname);
    blobc_buffer_free(&out);
}

/* ---- hostile sections ---- */

/* Assembles a section from strings (already in the wanted order) and words. */
static size_t build(uint8_t *buf, const char *const *strs, size_t nstrs, uint32_t ntypes,
                    uint32_t root, uint32_t sname, const uint32_t *words, size_t nwords) {
    size_t sb = 0;
    for (size_t i = 0; i < nstrs; i++) sb += strlen(strs[i]) + 1;
    blobc_st32(buf, (uint32_t)nstrs);
    blobc_st32(buf + 4, (uint32_t)sb);
    blobc_st32(buf + 8, ntypes);
    blobc_st32(buf + 12, root);
    blobc_st32(buf + 16, sname);
    size_t off = 20;
    for (size_t i = 0; i < nstrs; i++) {
        size_t n = strlen(strs[i]) + 1;
        memcpy(buf + off, strs[i], n);
        off += n;
    }
    while (off % 4) buf[off++] = 0;
    for (size_t i = 0; i < nwords; i++, off += 4) blobc_st32(buf + off, words[i]);
    return off;
}

static blobc_status decode_msg(const uint8_t *buf, size_t len, blobc_error *err) {
    blobc_schema *d = NULL;
    const char *name = NULL;
    blobc_error_clear(err);
    blobc_status st = blobc_types_decode(buf, len, &d, &name, err);
    if (st == BLOBC_OK) blobc_schema_free(d);
    else if (d) return (blobc_status)99; /* a failed decode must not hand out a schema */
    return st;
}

#define HOSTILE(strs, ntypes, root, sname, words, want_off, want_msg)                        \
    do {                                                                                    \
        uint8_t hb_[512];                                                                    \
        size_t n_ = build(hb_, strs, sizeof strs / sizeof *strs, ntypes, root, sname, words,   \
                          sizeof words / sizeof *words);                                    \
        blobc_error e_;                                                                     \
        CHECK_EQ_I(decode_msg(hb_, n_, &e_), BLOBC_EINPUT);                                  \
        CHECK_EQ_I(e_.code, BLOBC_V_BAD_TYPES);                                             \
        CHECK_EQ_U(e_.offset, want_off);                                                    \
        CHECK_STR(e_.message, want_msg);                                                    \
    } while (0)

/* Strings used by most cases: "R" = 0, "x" = 1. Records start at byte 24. */
static const char *const rx[] = {"R", "x"};

TEST(hostile_structure) {
    /* A valid baseline: struct R { x: u32 } */
    {
        static const uint32_t w[] = {13, 0, 0, 1, 1, 1, 7};
        uint8_t b[128];
        size_t n = build(b, rx, 2, 2, 0, UINT32_MAX, w, 7);
        blobc_error e;
        CHECK_EQ_I(decode_msg(b, n, &e), BLOBC_OK);
    }
    static const uint32_t unknown_kind[] = {13, 0, 0, 1, 1, 1, 99};
    HOSTILE(rx, 2, 0, UINT32_MAX, unknown_kind, 48, "type section: type 1 has unknown kind 99");
    static const uint32_t huge_fields[] = {13, 0, 0, 0xffffffff, 1, 1, 7};
    HOSTILE(rx, 2, 0, UINT32_MAX, huge_fields, 24,
            "type section: type 0 runs past the end of the section");
    static const uint32_t bad_ref[] = {13, 0, 0, 1, 1, 2, 7};
    HOSTILE(rx, 2, 0, UINT32_MAX, bad_ref, 44, "type section: type 0 refers to type 2; there are 2");
    static const uint32_t bad_name[] = {13, 5, 0, 1, 1, 1, 7};
    HOSTILE(rx, 2, 0, UINT32_MAX, bad_name, 28,
            "type section: type 0: name 5 is not a string index (2 strings)");
    static const uint32_t dup_field[] = {13, 0, 0, 2, 1, 1, 1, 1, 7};
    HOSTILE(rx, 2, 0, UINT32_MAX, dup_field, 48, "type section: type 0: \"x\" is declared twice");
    static const uint32_t no_fields[] = {13, 0, 0, 0, 7};
    HOSTILE(rx, 2, 0, UINT32_MAX, no_fields, 36, "type section: struct R has no fields");
    static const uint32_t bad_align[] = {13, 0, 3, 1, 1, 1, 7};
    HOSTILE(rx, 2, 0, UINT32_MAX, bad_align, 32,
            "type section: struct R: @align(3) is not a power of two <= 16");
    static const uint32_t root_scalar[] = {13, 0, 0, 1, 1, 1, 7};
    HOSTILE(rx, 2, 1, UINT32_MAX, root_scalar, 12,
            "type section: root type 1 is a u32, not a struct");
    HOSTILE(rx, 2, 7, UINT32_MAX, root_scalar, 12, "type section: root type 7 does not exist");
    HOSTILE(rx, 2, 0, 2, root_scalar, 16, "type section: schema name 2 is not a string index");
    static const uint32_t dup_builtin[] = {13, 0, 0, 1, 1, 1, 7, 7};
    HOSTILE(rx, 3, 0, UINT32_MAX, dup_builtin, 52, "type section: type 2 repeats u32");
    static const uint32_t extra[] = {13, 0, 0, 1, 1, 1, 7, 7};
    HOSTILE(rx, 2, 0, UINT32_MAX, extra, 52, "type section: 4 bytes after the last type");
    static const uint32_t missing[] = {13, 0, 0, 1, 1, 1, 7};
    HOSTILE(rx, 3, 0, UINT32_MAX, missing, 52, "type section: type 2 is missing (3 declared)");
    /* [T] whose element is itself: an infinite anonymous type. */
    static const uint32_t self_array[] = {13, 0, 0, 1, 1, 1, 15, 1};
    HOSTILE(rx, 2, 0, UINT32_MAX, self_array, 52,
            "type section: type 1 refers forward to anonymous type 1");
    static const uint32_t dup_anon[] = {13, 0, 0, 1, 1, 2, 7, 15, 1, 15, 1};
    HOSTILE(rx, 4, 0, UINT32_MAX, dup_anon, 60, "type section: type 3 repeats type 2");
    static const uint32_t fixed0[] = {13, 0, 0, 1, 1, 2, 7, 16, 1, 0};
    HOSTILE(rx, 3, 0, UINT32_MAX, fixed0, 60,
            "type section: type 2: fixed array count 0 out of range");
    /* struct R { x: R }: inline self-containment, found by the layout engine. */
    static const uint32_t inline_self[] = {13, 0, 0, 1, 1, 0};
    {
        uint8_t b[128];
        size_t n = build(b, rx, 2, 1, 0, UINT32_MAX, inline_self, 6);
        blobc_error e;
        CHECK_EQ_I(decode_msg(b, n, &e), BLOBC_EINPUT);
        CHECK_EQ_I(e.code, BLOBC_V_BAD_TYPES);
        CHECK_CONTAINS(e.message, "type section: struct R contains itself inline");
    }
    static const uint32_t dup_named[] = {13, 0, 0, 1, 1, 1, 13, 0, 0, 1, 1, 2, 7};
    HOSTILE(rx, 3, 0, UINT32_MAX, dup_named, 52, "type section: type R is declared twice");
}

/* The type section records which union and reference fields were
 * declared `= null`: one without it has its type word marked (bit 31), so
 * a blob's own types refuse none (or null) exactly where the schema does. A section written
 * before the mark existed has none: every union field there may hold none,
 * as it could then. The mark on a field that is not a union is refused. */
TEST(union_fields_may_hold_none) {
    blobc_schema *s = parse("struct A { @key x: u32; }\nunion U { A }\n"
                            "struct R { req: U; opt: U = null; list: [U]; as: [A];\n"
                            "  ref: &A; opt_ref: &A = null; }\nroot R;\n");
    CHECK(s);
    blobc_buffer b = {0}, again = {0};
    CHECK(encode(s, NULL, &b));
    blobc_schema *d = NULL;
    const char *name = NULL;
    blobc_error err;
    CHECK_EQ_I(blobc_types_decode(b.data, b.len, &d, &name, &err), BLOBC_OK);
    const blobc_type *r = blobc_schema_root(d);
    CHECK(!r->fields[0].def.present); /* req */
    CHECK(r->fields[1].def.present);  /* opt */
    CHECK(!r->fields[2].def.present); /* list: not a union */
    CHECK(!r->fields[4].def.present); /* ref */
    CHECK(r->fields[5].def.present);  /* opt_ref: a reference may be null */
    CHECK(encode(d, NULL, &again));
    CHECK(again.len == b.len && memcmp(again.data, b.data, b.len) == 0);
    blobc_schema_free(d);
    blobc_schema_free(s);
    blobc_buffer_free(&b);
    blobc_buffer_free(&again);
    /* struct R { u: U } with union U { A } and struct A { x: u32 }: the
     * union record is 18, name, 0, count, (member name, *A) */
    static const char *const strs[] = {"A", "R", "U", "u", "x"};
    static const uint32_t old_style[] = {13, 1, 0, 1, 3, 1, 18, 2, 0, 1, 0, 2, 17, 3,
                                         13, 0, 0, 1, 4, 4, 7};
    uint8_t buf[256];
    size_t n = build(buf, strs, 5, 5, 0, UINT32_MAX, old_style, sizeof old_style / 4);
    CHECK_EQ_I(blobc_types_decode(buf, n, &d, &name, &err), BLOBC_OK);
    CHECK(blobc_schema_root(d)->fields[0].def.present);
    blobc_schema_free(d);
    static const uint32_t marked[] = {13, 1, 0, 1, 3, 0x80000001u, 18, 2, 0, 1, 0, 2, 17, 3,
                                      13, 0, 0, 1, 4, 4, 7};
    n = build(buf, strs, 5, 5, 0, UINT32_MAX, marked, sizeof marked / 4);
    CHECK_EQ_I(blobc_types_decode(buf, n, &d, &name, &err), BLOBC_OK);
    CHECK(!blobc_schema_root(d)->fields[0].def.present);
    blobc_schema_free(d);
    static const uint32_t marked_scalar[] = {13, 1, 0, 1, 3, 0x80000004u, 18, 2, 0, 1, 0, 2,
                                             17, 3, 13, 0, 0, 1, 4, 4, 7};
    HOSTILE(strs, 5, 0, UINT32_MAX, marked_scalar, 52,
            "type section: struct R: field u is marked as a union or reference but is not one");
}

TEST(hostile_names_and_enums) {
    /* a struct's name must be an identifier (its fields' may be any text) */
    static const char *const bad_ident[] = {"1x", "R"};
    static const uint32_t w1[] = {13, 0, 0, 1, 1, 1, 7};
    HOSTILE(bad_ident, 2, 0, UINT32_MAX, w1, 32,
            "type section: type 0: name \"1x\" is not an identifier");
    static const char *const unsorted[] = {"x", "R"};
    static const uint32_t w2[] = {13, 1, 0, 1, 0, 1, 7};
    HOSTILE(unsorted, 2, 0, UINT32_MAX, w2, 22,
            "type section: string 1 does not sort after string 0");
    static const char *const dup[] = {"R", "R"};
    HOSTILE(dup, 2, 0, UINT32_MAX, w2, 22, "type section: string 1 does not sort after string 0");
    static const char *const utf[] = {"R", "x\xc3"};
    HOSTILE(utf, 2, 0, UINT32_MAX, w2, 22, "type section: string 1 is not valid UTF-8");
    /* Strings: E R a x. enum E : u8 { a = 300 } */
    static const char *const er[] = {"E", "R", "a", "x"};
    static const uint32_t range[] = {13, 1, 0, 1, 3, 1, 12, 0, 2, 1, 2, 300, 0, 3};
    HOSTILE(er, 3, 0, UINT32_MAX, range, 72,
            "type section: enum E: value of a is out of range for u8");
    static const uint32_t i8_range[] = {13, 1, 0, 1, 3, 1, 12, 0, 2, 1, 2, 0x80, 0, 2};
    HOSTILE(er, 3, 0, UINT32_MAX, i8_range, 72,
            "type section: enum E: value of a is out of range for i8");
    static const uint32_t float_base[] = {13, 1, 0, 1, 3, 1, 12, 0, 2, 1, 2, 1, 0, 10};
    HOSTILE(er, 3, 0, UINT32_MAX, float_base, 60,
            "type section: enum E has base f32, not an integer type");
    static const uint32_t no_members[] = {13, 1, 0, 1, 3, 1, 12, 0, 2, 0, 3};
    HOSTILE(er, 3, 0, UINT32_MAX, no_members, 64, "type section: enum E has no members");
    static const uint32_t dup_member[] = {13, 1, 0, 1, 3, 1, 12, 0, 2, 2, 2, 1, 0, 2, 2, 0, 3};
    HOSTILE(er, 3, 0, UINT32_MAX, dup_member, 80, "type section: type 1: \"a\" is declared twice");
    /* Sign-extended i8 -1 is fine. */
    {
        static const uint32_t ok[] = {13, 1, 0, 1, 3, 1, 12, 0, 2, 1, 2, 0xffffffff, 0xffffffff, 2};
        uint8_t b[256];
        size_t n = build(b, er, 4, 3, 0, UINT32_MAX, ok, sizeof ok / 4);
        blobc_error e;
        CHECK_EQ_I(decode_msg(b, n, &e), BLOBC_OK);
    }
}

TEST(hostile_header) {
    uint8_t b[64] = {0};
    blobc_error e;
    CHECK_EQ_I(decode_msg(b, 19, &e), BLOBC_EINPUT);
    CHECK_STR(e.message, "type section: 19 bytes, shorter than its 20-byte header");
    blobc_st32(b + 4, 100);
    CHECK_EQ_I(decode_msg(b, 40, &e), BLOBC_EINPUT);
    CHECK_STR(e.message, "type section: string table of 100 bytes does not fit in 20 bytes");
    CHECK_EQ_U(e.offset, 4);
    blobc_st32(b, 9);
    blobc_st32(b + 4, 8);
    CHECK_EQ_I(decode_msg(b, 40, &e), BLOBC_EINPUT);
    CHECK_STR(e.message, "type section: 9 strings cannot fit in 8 bytes");
    blobc_st32(b, 1);
    blobc_st32(b + 4, 3);
    memcpy(b + 20, "abc", 3);
    CHECK_EQ_I(decode_msg(b, 40, &e), BLOBC_EINPUT);
    CHECK_STR(e.message, "type section: string 0 runs past the end of the string table");
    memcpy(b + 20, "ab\0\1", 4);
    CHECK_EQ_I(decode_msg(b, 40, &e), BLOBC_EINPUT);
    CHECK_STR(e.message, "type section: nonzero padding byte");
    CHECK_EQ_U(e.offset, 23);
}

/* Every prefix of a valid section and many single-byte corruptions are
 * rejected or decoded cleanly; under ASan nothing reads out of bounds. */
TEST(truncations_and_flips) {
    blobc_schema *s = parse(full_schema);
    CHECK(s);
    blobc_buffer enc = {0};
    CHECK(encode(s, "x.schema", &enc));
    uint64_t want_hash = blobc_type_hash(blobc_schema_root(s));
    for (size_t len = 0; len < enc.len; len++) {
        uint8_t *copy = malloc(len ? len : 1); /* exact size, so ASan sees overreads */
        memcpy(copy, enc.data, len);
        blobc_error e;
        blobc_status st = decode_msg(copy, len, &e);
        free(copy);
        if (st != BLOBC_EINPUT || e.code != BLOBC_V_BAD_TYPES)
            FAILF("prefix of %zu bytes: status %d code %d", len, (int)st, e.code);
    }
    size_t accepted = 0, rejected = 0;
    static const uint8_t flips[] = {0x01, 0x02, 0x10, 0x80, 0xff};
    uint8_t *copy = malloc(enc.len);
    for (size_t i = 0; i < enc.len; i++) {
        for (size_t k = 0; k < sizeof flips; k++) {
            memcpy(copy, enc.data, enc.len);
            copy[i] ^= flips[k];
            blobc_schema *d = NULL;
            blobc_error e;
            blobc_error_clear(&e);
            blobc_status st = blobc_types_decode(copy, enc.len, &d, NULL, &e);
            if (st == BLOBC_OK) {
                accepted++;
                (void)blobc_type_hash(blobc_schema_root(d)); /* usable */
                blobc_schema_free(d);
            } else {
                rejected++;
                if (d) FAILF("failed decode returned a schema");
                if (st != BLOBC_EINPUT || e.code != BLOBC_V_BAD_TYPES || !e.has_offset)
                    FAILF("byte %zu ^ 0x%02x: status %d code %d", i, flips[k], (int)st, e.code);
            }
        }
    }
    free(copy);
    CHECK(rejected > accepted); /* most corruptions are structural */
    CHECK(want_hash != 0);
    blobc_buffer_free(&enc);
    blobc_schema_free(s);
}

TEST_MAIN_BEGIN("typesec")
RUN(golden_bytes);
RUN(declaration_order_does_not_matter);
RUN(description_covers_defaults);
RUN(round_trip);
RUN(decoded_types_are_interned);
RUN(deep_anonymous_chain);
RUN(encode_errors);
RUN(hostile_structure);
RUN(union_fields_may_hold_none);
RUN(hostile_names_and_enums);
RUN(hostile_header);
RUN(truncations_and_flips);
TEST_MAIN_END
