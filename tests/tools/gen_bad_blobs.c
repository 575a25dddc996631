/*
 * gen_bad_blobs.c - writes the bad-blob corpus of tests/bad/blob: each
 * case a small .blob that breaks exactly one rule, plus a MANIFEST line
 * "NAME CODE [SCHEMA [TYPE]]" giving the verification code it must fail
 * with ("ok" for the hostile-but-valid ones). Deterministic, so the
 * committed corpus can be checked against a fresh run.
 *
 * Data-level cases are made by corrupting a valid data section and then
 * writing a proper file around it (so every hash matches and the walk is
 * what fails); header-level cases patch the file and recompute the hashes
 * that would otherwise fail first.
 *
 *     gen_bad_blobs OUTDIR
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../unit/walk_fixture.h"

static const char *outdir;
static FILE *manifest;
static blobc_schema *S, *NODE_S, *DAG_S, *OTHER_S, *UNION_S, *UNION_REQ_S, *KEY_S, *KEY_REQ_S, *KEY2_S;
static const blobc_type *LV, *ROOM, *META;
static blobc_buffer IMG; /* a valid 4-room level */

static void die(const char *what) {
    fprintf(stderr, "gen_bad_blobs: %s: %s\n", what, strerror(errno));
    exit(2);
}

static void write_file(const char *name, const void *p, size_t n) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", outdir, name);
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f) != 0) die(path);
}

/* One case: the file and its manifest line. */
static void emit(const char *name, const char *code, const char *schema, const char *type,
                 const void *p, size_t n) {
    char file[256];
    snprintf(file, sizeof file, "%s.blob", name);
    write_file(file, p, n);
    fprintf(manifest, "%s %s", file, code);
    if (schema) fprintf(manifest, " %s", schema);
    if (type) fprintf(manifest, " %s", type);
    fputc('\n', manifest);
}

/* A data section (possibly corrupt) as a proper .blob of root type t. */
static void emit_data(const char *name, const char *code, const uint8_t *d, size_t n,
                      const blobc_type *t) {
    blobc_buffer b = {0};
    fx_blob(d, n, t, false, &b);
    emit(name, code, NULL, NULL, b.data, b.len);
    blobc_buffer_free(&b);
}

static int32_t rd(const uint8_t *p) { return (int32_t)blobc_ld32(p); }
static size_t tgt(const uint8_t *img, size_t pos) { return pos + (size_t)(int64_t)rd(img + pos); }
static size_t field_at(const uint8_t *img, uint32_t i, const char *f) {
    return tgt(img, fx_off(LV, "rooms")) + i * ROOM->size + fx_off(ROOM, f);
}

static uint8_t *copy(void) {
    uint8_t *c = malloc(IMG.len + 64);
    if (!c) die("malloc");
    memcpy(c, IMG.data, IMG.len);
    memset(c + IMG.len, 0, 64);
    return c;
}

/* Recomputes the header hash after a header patch (docs/FORMAT.md). */
static void rehash_header(uint8_t *f) { blobc_st64(f + 88, XXH3_64bits(f, 88)); }

static void header_cases(void) {
    blobc_buffer b = {0};
    fx_blob(IMG.data, IMG.len, LV, false, &b);
    uint8_t *f = malloc(b.len);
    if (!f) die("malloc");

    emit("truncated_header", "truncated", NULL, NULL, b.data, 40);
    emit("truncated_data", "truncated", NULL, NULL, b.data, BLOBC_HEADER_SIZE + IMG.len / 2);

    memcpy(f, b.data, b.len);
    memcpy(f, "PK\x03\x04", 4);
    emit("bad_magic", "bad-magic", NULL, NULL, f, b.len);

    memcpy(f, b.data, b.len);
    blobc_st32(f + 8, 2);
    rehash_header(f);
    emit("unknown_version", "bad-version", NULL, NULL, f, b.len);

    memcpy(f, b.data, b.len);
    f[88] ^= 1;
    emit("bad_header_hash", "header-hash", NULL, NULL, f, b.len);

    memcpy(f, b.data, b.len);
    blobc_st64(f + 16, 100); /* data_offset not a multiple of 16 */
    rehash_header(f);
    emit("bad_header_data_offset", "bad-header", NULL, NULL, f, b.len);

    memcpy(f, b.data, b.len);
    f[BLOBC_HEADER_SIZE + 1] ^= 0x40; /* inside the root; data hash now stale */
    emit("bad_data_hash", "data-hash", NULL, NULL, f, b.len);

    memcpy(f, b.data, b.len);
    size_t types = (size_t)blobc_ld64(f + 48);
    f[types + 5] ^= 0x10;
    emit("bad_types_hash", "types-hash", NULL, NULL, f, b.len);

    /* the type section's bytes garbled, its hash recomputed */
    memcpy(f, b.data, b.len);
    size_t tsize = (size_t)blobc_ld64(f + 56);
    memset(f + types, 0xff, tsize);
    blobc_st64(f + 64, XXH3_64bits(f + types, tsize));
    rehash_header(f);
    emit("bad_types_garbled", "bad-types", NULL, NULL, f, b.len);

    emit("schema_hash_vs_other_schema", "schema-hash", "other.schema", NULL, b.data, b.len);
    emit("schema_hash_vs_other_type", "schema-hash", "level.schema", "Room", b.data, b.len);
    emit("valid_level", "ok", NULL, NULL, b.data, b.len);
    emit("valid_level_with_schema", "ok", "level.schema", NULL, b.data, b.len);

    blobc_buffer st = {0};
    fx_blob(IMG.data, IMG.len, LV, true, &st);
    emit("stripped_no_schema", "no-types", NULL, NULL, st.data, st.len);
    emit("stripped_with_schema", "ok", "level.schema", NULL, st.data, st.len);
    blobc_buffer_free(&st);
    blobc_buffer_free(&b);
    free(f);
}

static void data_cases(void) {
    uint8_t *c;
    size_t n = IMG.len, f, s;

#define CASE(name, code, ...)           \
    do {                                \
        c = copy();                     \
        __VA_ARGS__;                    \
        emit_data(name, code, c, n, LV); \
        free(c);                        \
    } while (0)

    CASE("offset_range_positive", "offset-range",
         blobc_st32(c + field_at(c, 1, "name"), 0x7ffffff0u));
    CASE("offset_range_negative", "offset-range", {
        f = field_at(c, 1, "name");
        blobc_st32(c + f, (uint32_t)-(int32_t)(f + 16));
    });
    CASE("offset_range_int_min", "offset-range",
         blobc_st32(c + field_at(c, 1, "name"), 0x80000000u));
    CASE("misaligned_array", "misaligned", {
        f = field_at(c, 1, "neighbors");
        blobc_st32(c + f, blobc_ld32(c + f) + 1);
    });
    CASE("length_huge", "length", blobc_st32(c + field_at(c, 2, "neighbors") + 4, 0x7fffffffu));
    CASE("length_overflow_wraps", "length",
         blobc_st32(c + field_at(c, 2, "neighbors") + 4, 0x40000001u)); /* x4 wraps 32 bits */
    CASE("length_negative", "length", blobc_st32(c + field_at(c, 2, "neighbors") + 4, 0xfffffffeu));
    CASE("null_offset_with_length", "null-length", blobc_st32(c + field_at(c, 2, "neighbors"), 0));
    CASE("string_null", "null-length", blobc_st32(c + field_at(c, 0, "name"), 0));
    CASE("string_length_zero", "null-length", blobc_st32(c + field_at(c, 0, "name") + 4, 0));
    CASE("string_no_nul", "string-nul", {
        f = field_at(c, 1, "name");
        s = tgt(c, f);
        c[s + (size_t)rd(c + f + 4) - 1] = '!';
    });
    CASE("string_nul_inside", "string-nul", {
        s = tgt(c, field_at(c, 1, "name"));
        c[s + 2] = 0;
    });
    CASE("utf8_overlong", "utf8", {
        s = tgt(c, field_at(c, 1, "name"));
        memcpy(c + s, "\xc0\xaf", 2);
    });
    CASE("utf8_surrogate", "utf8", {
        s = tgt(c, field_at(c, 1, "name"));
        memcpy(c + s, "\xed\xa0\x80", 3);
    });
    CASE("utf8_truncated", "utf8", {
        f = field_at(c, 1, "name");
        s = tgt(c, f);
        memcpy(c + s + (size_t)rd(c + f + 4) - 3, "\xe2\x82", 2);
    });
    CASE("utf8_in_tag", "utf8", {
        s = tgt(c, tgt(c, field_at(c, 2, "tags")) + 8);
        c[s] = 0xfe;
    });
    CASE("bool_2", "bool", c[field_at(c, 1, "lit")] = 2);
    CASE("enum_undeclared", "enum", c[field_at(c, 2, "kind")] = 4);
    CASE("enum_signed_undeclared", "enum", blobc_st16(c + field_at(c, 0, "temp"), (uint16_t)-1));
    CASE("nan_f32_payload", "nan", blobc_st32(c + field_at(c, 1, "radius"), 0x7fc00001u));
    CASE("nan_f32_negative_quiet", "nan", blobc_st32(c + field_at(c, 1, "weights") + 12, 0xffc00000u));
    CASE("nan_f32_signaling", "nan", blobc_st32(c + fx_off(LV, "size_m"), 0x7f800001u));
    CASE("nan_f64", "nan", {
        s = tgt(c, field_at(c, 2, "meta"));
        blobc_st64(c + s + fx_off(META, "depth"), 0xfff8000000000000ull);
    });
    CASE("struct_padding", "padding", c[field_at(c, 3, "kind") + 2] = 1);
    CASE("struct_padding_after_bool", "padding", c[field_at(c, 1, "lit") + 1] = 1);
    CASE("overlap_string_into_string", "overlap", {
        /* room 2's second tag points one byte into its first */
        size_t tg = tgt(c, field_at(c, 2, "tags"));
        blobc_st32(c + tg + 8, (uint32_t)(tgt(c, tg) + 1 - (tg + 8)));
        blobc_st32(c + tg + 12, 2);
    });
    CASE("overlap_arrays_other_count", "overlap", {
        /* room 1's neighbors (1 item) at room 2's (2 items) */
        size_t f1 = field_at(c, 1, "neighbors"), f2 = field_at(c, 2, "neighbors");
        blobc_st32(c + f2, (uint32_t)(tgt(c, f1) - f2));
    });
    CASE("overlap_string_as_array", "overlap", {
        /* room 1's neighbors ([u32], 1 item) at room 0's name bytes */
        size_t f1 = field_at(c, 1, "neighbors");
        blobc_st32(c + f1, (uint32_t)(tgt(c, field_at(c, 0, "name")) - f1));
    });
    CASE("overlap_into_root", "overlap", {
        f = field_at(c, 1, "neighbors");
        blobc_st32(c + f, (uint32_t)(4 - (int64_t)f));
    });
    CASE("layout_skips_forward", "layout", {
        /* the level's name one byte later than the cursor */
        f = fx_off(LV, "name");
        blobc_st32(c + f, blobc_ld32(c + f) + 1);
    });

    /* a nonzero gap byte before an aligned payload: find a room whose
     * name bytes end short of the next payload's 4-byte alignment (the
     * neighbors, or the tags when there are no neighbors) */
    c = copy();
    size_t gap = 0;
    for (uint32_t i = 0; i < 4 && !gap; i++) {
        f = field_at(c, i, "name");
        size_t end = tgt(c, f) + (size_t)rd(c + f + 4);
        size_t nb = field_at(c, i, "neighbors");
        size_t next = rd(c + nb) ? tgt(c, nb) : tgt(c, field_at(c, i, "tags"));
        if (end < next) gap = end;
    }
    if (!gap) {
        fprintf(stderr, "gen_bad_blobs: the fixture has no gap after a name\n");
        exit(2);
    }
    c[gap] = 0x55;
    emit_data("gap_padding", "padding", c, n, LV);
    free(c);

    c = copy();
    emit_data("trailing_bytes", "layout", c, n + 4, LV);
    free(c);
    c = copy();
    emit_data("root_does_not_fit", "data-size", c, LV->size - 4, LV);
    free(c);
#undef CASE
}

static void node(uint8_t *d, size_t at, uint32_t v, int32_t next) {
    blobc_st32(d + at, v);
    blobc_st32(d + at + 4, (uint32_t)next);
}

static void graph_cases(void) {
    const blobc_type *nt = blobc_schema_root(NODE_S), *dt = blobc_schema_root(DAG_S);
    uint8_t d[12 * 40];
    node(d, 0, 1, -4);
    emit_data("cycle_self", "cycle", d, 8, nt);
    node(d, 0, 1, 4);
    node(d, 8, 2, -12);
    emit_data("cycle_two_root", "cycle", d, 16, nt);
    node(d, 8, 2, 4);
    node(d, 16, 3, -12);
    emit_data("cycle_two", "cycle", d, 24, nt);
    node(d, 16, 3, 0);
    emit_data("chain_ok", "ok", d, 24, nt);

    /* 1000 deep */
    size_t deep = 1000;
    uint8_t *ch = malloc(8 * deep);
    if (!ch) die("malloc");
    for (size_t i = 0; i < deep; i++) node(ch, 8 * i, (uint32_t)i, i + 1 < deep ? 4 : 0);
    emit_data("chain_1000_ok", "ok", ch, 8 * deep, nt);
    node(ch, 8 * (deep - 1), 0, -(int32_t)(8 * (deep - 1)) + 8 - 4);
    emit_data("chain_1000_cycle", "cycle", ch, 8 * deep, nt);
    free(ch);

    /* D { a: *D; b: *D; v: u32 }: 40 levels whose a and b both point at
     * the next: 2^40 paths, 40 nodes. Valid, and must verify in linear work. */
    for (int k = 0; k < 40; k++) {
        bool last = k == 39;
        blobc_st32(d + 12 * k, last ? 0 : 12);
        blobc_st32(d + 12 * k + 4, last ? 0 : 8);
        blobc_st32(d + 12 * k + 8, (uint32_t)k);
    }
    emit_data("dag_shared_40_ok", "ok", d, 12 * 40, dt);
    blobc_st32(d + 12 * 20 + 4, 8 + 4); /* node 20's b: into node 21 */
    emit_data("dag_partial_overlap", "overlap", d, 12 * 40, dt);
}

/* R { u: U = null; v: u32; } with union U { C, B }, C { r: f32 } (align
 * 4) and B { w: f64 } (align 8): the tag at 0, the offset at 4, v at 8,
 * the member's payload after the root. (UNION_REQ_S: the same with u
 * declared without `= null`.) */
static void union_data(uint8_t *d, uint32_t tag, int32_t off, size_t n) {
    memset(d, 0, n);
    blobc_st32(d, tag);
    blobc_st32(d + 4, (uint32_t)off);
    blobc_st32(d + 8, 77);
}

/* R { ks: [K]; js: [J]; r: &K = null; } (20 bytes), K and J { @key id:
 * i32; v: u32; }: two K at 20 and 28 with keys k0, k1, one J at 36, and r
 * leading to data offset `to` (0: null). (KEY_REQ_S: r declared without
 * `= null`.) */
static void key_data(uint8_t *d, int32_t k0, int32_t k1, uint32_t to) {
    memset(d, 0, 44);
    blobc_st32(d, 20);
    blobc_st32(d + 4, 2);
    blobc_st32(d + 8, 28);
    blobc_st32(d + 12, 1);
    blobc_st32(d + 16, to ? (uint32_t)((int32_t)to - 16) : 0);
    blobc_st32(d + 20, (uint32_t)k0);
    blobc_st32(d + 28, (uint32_t)k1);
    blobc_st32(d + 36, 5);
}

static void key_cases(void) {
    const blobc_type *rt = blobc_schema_root(KEY_S);
    uint8_t d[44];
    key_data(d, -4, 3, 28);
    emit_data("keys_ok", "ok", d, 44, rt);
    key_data(d, -4, 3, 0);
    emit_data("keys_ref_null_ok", "ok", d, 44, rt);
    emit_data("ref_null_in_required_field", "ref", d, 44, blobc_schema_root(KEY_REQ_S));
    key_data(d, 3, -4, 20);
    emit_data("keys_unsorted", "key-order", d, 44, rt); /* signed: -4 sorts first */
    key_data(d, 3, 3, 20);
    emit_data("keys_duplicate", "key-order", d, 44, rt);
    key_data(d, -4, 3, 24);
    emit_data("ref_inside_item", "ref", d, 44, rt);
    key_data(d, -4, 3, 36);
    emit_data("ref_to_other_type", "ref", d, 44, rt);
    key_data(d, -4, 3, 4);
    emit_data("ref_to_root", "ref", d, 44, rt);
    key_data(d, -4, 3, 0);
    blobc_st32(d + 16, 1000);
    emit_data("ref_out_of_range", "offset-range", d, 44, rt);
}

/* R { ks: [K]; more: [K]; } (16 bytes): one K at 16 in ks (key a), one
 * at 24 in more (key b): two arrays of one key space. */
static void key_space_cases(void) {
    const blobc_type *rt = blobc_schema_root(KEY2_S);
    uint8_t d[32];
    for (int dup = 0; dup < 2; dup++) {
        memset(d, 0, sizeof d);
        blobc_st32(d, 16);
        blobc_st32(d + 4, 1);
        blobc_st32(d + 8, 16);
        blobc_st32(d + 12, 1);
        blobc_st32(d + 16, 7);
        blobc_st32(d + 24, dup ? 7 : 2); /* sorted alone, each array */
        emit_data(dup ? "keys_duplicate_across_arrays" : "keys_two_arrays_ok", dup ? "key-order" : "ok",
                  d, 32, rt);
    }
    /* the same key in arrays of two types is no clash */
    uint8_t e[44];
    key_data(e, -4, 5, 28);
    emit_data("keys_same_in_two_types_ok", "ok", e, 44, blobc_schema_root(KEY_S));
}

static void union_cases(void) {
    const blobc_type *rt = blobc_schema_root(UNION_S);
    uint8_t d[32];
    union_data(d, 1, 8, 16); /* C at 12 */
    fx_f32(d + 12, 2.5f);
    emit_data("union_ok", "ok", d, 16, rt);
    union_data(d, 0, 0, 12);
    emit_data("union_none_ok", "ok", d, 12, rt);
    emit_data("union_none_in_required_field", "union", d, 12, blobc_schema_root(UNION_REQ_S));
    union_data(d, 2, 12, 24); /* B at 16, after 4 gap bytes */
    fx_f64(d + 16, 0.5);
    emit_data("union_member_2_ok", "ok", d, 24, rt);
    union_data(d, 3, 8, 16);
    emit_data("union_tag_out_of_range", "union", d, 16, rt);
    union_data(d, 0x80000001u, 8, 16);
    emit_data("union_tag_huge", "union", d, 16, rt);
    union_data(d, 0, 8, 16);
    emit_data("union_none_with_offset", "union", d, 16, rt);
    union_data(d, 1, 0, 12);
    emit_data("union_member_null", "union", d, 12, rt);
    union_data(d, 2, 8, 20); /* B at 12: not 8-aligned */
    emit_data("union_payload_misaligned", "misaligned", d, 20, rt);
    union_data(d, 1, 1000, 16);
    emit_data("union_payload_out_of_range", "offset-range", d, 16, rt);
    union_data(d, 1, -8, 16);
    emit_data("union_payload_before_data", "offset-range", d, 16, rt);
    union_data(d, 1, -4, 16); /* back to the root's own start */
    emit_data("union_payload_overlaps_root", "overlap", d, 16, rt);
    union_data(d, 2, 20, 32); /* B at 24, not at 16 where it goes */
    emit_data("union_payload_not_canonical", "layout", d, 32, rt);
    union_data(d, 2, 12, 24);
    d[13] = 1; /* the gap before B */
    emit_data("union_payload_gap_nonzero", "padding", d, 24, rt);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: gen_bad_blobs OUTDIR\n");
        return 2;
    }
    outdir = argv[1];
    S = fx_schema_parse(fx_schema_text);
    LV = fx_type(S, "Level");
    ROOM = fx_type(S, "Room");
    META = fx_type(S, "RoomMeta");
    static const char node_text[] = "struct Node { v: u32; next: *Node; }\nroot Node;\n";
    static const char dag_text[] = "struct D { a: *D; b: *D; v: u32; }\nroot D;\n";
    static const char other_text[] = "struct Level { index: i64; name: string; }\nroot Level;\n";
    static const char union_text[] = "struct C { r: f32; }\nstruct B { w: f64; }\nunion U { C, B }\n"
                                     "struct R { u: U = null; v: u32; }\nroot R;\n";
    static const char union_req_text[] = "struct C { r: f32; }\nstruct B { w: f64; }\n"
                                         "union U { C, B }\nstruct R { u: U; v: u32; }\nroot R;\n";
    static const char key_text[] = "struct K { @key id: i32; v: u32; }\n"
                                   "struct J { @key id: i32; v: u32; }\n"
                                   "struct R { ks: [K]; js: [J]; r: &K = null; }\nroot R;\n";
    static const char key_req_text[] = "struct K { @key id: i32; v: u32; }\n"
                                       "struct J { @key id: i32; v: u32; }\n"
                                       "struct R { ks: [K]; js: [J]; r: &K; }\nroot R;\n";
    KEY_S = fx_schema_parse(key_text);
    KEY_REQ_S = fx_schema_parse(key_req_text);
    KEY2_S = fx_schema_parse("struct K { @key id: i32; v: u32; }\n"
                             "struct R { ks: [K]; more: [K]; }\nroot R;\n");
    NODE_S = fx_schema_parse(node_text);
    DAG_S = fx_schema_parse(dag_text);
    OTHER_S = fx_schema_parse(other_text);
    UNION_S = fx_schema_parse(union_text);
    UNION_REQ_S = fx_schema_parse(union_req_text);
    write_file("level.schema", fx_schema_text, strlen(fx_schema_text));
    write_file("other.schema", other_text, strlen(other_text));
    fx_level(S, 4, &IMG);
    char mpath[1024];
    snprintf(mpath, sizeof mpath, "%s/MANIFEST", outdir);
    manifest = fopen(mpath, "wb");
    if (!manifest) die(mpath);
    fprintf(manifest, "# NAME CODE [SCHEMA [TYPE]]: `blobc verify [-s SCHEMA [-t TYPE]] NAME`\n"
                      "# must fail with CODE (\"ok\": must pass). Written by\n"
                      "# tests/tools/gen_bad_blobs.c; do not edit.\n");
    header_cases();
    data_cases();
    graph_cases();
    union_cases();
    key_cases();
    key_space_cases();
    if (fclose(manifest) != 0) die(mpath);
    blobc_buffer_free(&IMG);
    blobc_schema_free(S);
    blobc_schema_free(NODE_S);
    blobc_schema_free(DAG_S);
    blobc_schema_free(OTHER_S);
    blobc_schema_free(UNION_S);
    blobc_schema_free(UNION_REQ_S);
    blobc_schema_free(KEY_S);
    blobc_schema_free(KEY_REQ_S);
    blobc_schema_free(KEY2_S);
    return 0;
}
