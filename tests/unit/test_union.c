/*
 * test_union.c - unions end to end in the library: the declaration and its
 * layout, the schema hash (member order and layouts count, names do not),
 * the type-section record (round trip and hostile records), baking the
 * single-key form from YAML and JSON with every error, values read back
 * from the bytes, shared member payloads, and verify and dump of the
 * result (byte-identical re-bake, hostile tags and payloads).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include <xxhash.h>

#include "blobc/blobc.h"
#include "schema/schema_internal.h"
#include "test.h"

static const char schema_text[] =
    "struct Circle { r: f32; }\n"
    "struct Box { w: f32; h: f32; }\n"
    "struct Poly { pts: [f32]; }\n"
    "union Shape { Circle, Box, Poly, }\n"
    "struct Scene {\n"
    "    main: Shape;\n"
    "    extra: Shape = null;\n"
    "    shapes: [Shape];\n"
    "    pair: [Shape; 2];\n"
    "    maybe: *Shape;\n"
    "    id: u8 = 9;\n"
    "}\n"
    "root Scene;\n";

static blobc_error err;
static char msg[4096];

static blobc_schema *parse(const char *text) {
    blobc_schema *s = NULL;
    blobc_error_clear(&err);
    if (blobc_schema_parse(text, strlen(text), "t.schema", &s, &err) != BLOBC_OK) {
        blobc_error_format(&err, msg, sizeof msg);
        return NULL;
    }
    return s;
}

static blobc_schema *g_schema;
static const blobc_schema *schema(void) {
    if (!g_schema && !(g_schema = parse(schema_text))) {
        printf("FAIL union.schema: %s\n", msg);
        exit(1);
    }
    return g_schema;
}

/* ---- the declaration ---- */

TEST(parse_and_layout) {
    const blobc_type *u = blobc_schema_find(schema(), "Shape");
    CHECK(u != NULL);
    if (!u) return;
    CHECK_EQ_U(u->kind, BLOBC_KIND_UNION);
    CHECK_EQ_U(u->size, 8);
    CHECK_EQ_U(u->align, 4);
    CHECK_EQ_U(u->nfields, 3);
    CHECK_STR(blobc_kind_name(u->kind), "union");
    static const char *const names[] = {"Circle", "Box", "Poly"};
    for (uint32_t i = 0; i < 3; i++) {
        const blobc_field *m = &u->fields[i];
        CHECK_STR(m->name, names[i]);
        CHECK_EQ_U(m->offset, BLOBC_UNION_REF);
        CHECK_EQ_U(m->type->kind, BLOBC_KIND_PTR);
        CHECK(m->type->elem == blobc_schema_find(schema(), names[i]));
        CHECK(blobc_struct_find_field(u, names[i], strlen(names[i])) == m);
    }
    CHECK(blobc_struct_find_field(u, "Circ", 4) == NULL);
    const blobc_type *sc = blobc_schema_root(schema());
    const blobc_field *extra = blobc_struct_find_field(sc, "extra", 5);
    const blobc_field *main_f = blobc_struct_find_field(sc, "main", 4);
    CHECK(extra->def.present);
    CHECK(!main_f->def.present);
    CHECK(extra->type == u);
    CHECK_EQ_U(sc->size, 8 + 8 + 8 + 16 + 4 + 4);
    char sp[64];
    blobc_type_spell(blobc_struct_find_field(sc, "pair", 4)->type, sp, sizeof sp);
    CHECK_STR(sp, "[Shape; 2]");
    /* the member's *Circle is the schema's one *Circle */
    blobc_schema *s2 = parse("struct C { r: u8; } union U { C } struct R { u: U; p: *C; } root R;");
    CHECK(s2 != NULL);
    if (s2) {
        const blobc_type *r = blobc_schema_root(s2);
        CHECK(r->fields[1].type == blobc_schema_find(s2, "U")->fields[0].type);
        blobc_schema_free(s2);
    }
    /* recursion through a union is out of line, so fine */
    blobc_schema *s3 = parse("struct Node { kids: [Tree]; } union Tree { Node, Leaf } "
                             "struct Leaf { v: u32; } struct Root { t: Tree; } root Root;");
    CHECK(s3 != NULL);
    blobc_schema_free(s3);
}

TEST(doc_comments) {
    blobc_schema *s = parse("struct Circle { r: f32; } struct Box { w: f32; }\n"
                            "/// Something to draw.\nunion Shape {\n  /// round\n  Circle,\n"
                            "  /// square\n  /// and more\n  Box,\n}\n"
                            "struct S { s: Shape = null; } root S;");
    CHECK(s != NULL);
    if (!s) return;
    const blobc_type *u = blobc_schema_find(s, "Shape");
    CHECK_STR(u->doc ? u->doc : "(none)", "Something to draw.");
    CHECK_STR(u->fields[0].doc ? u->fields[0].doc : "(none)", "round");
    CHECK_STR(u->fields[1].doc ? u->fields[1].doc : "(none)", "square\nand more");
    blobc_buffer out = {0};
    CHECK_EQ_U(blobc_schema_report(s, &out, &err), BLOBC_OK);
    blobc_buf_putc(&out, '\0');
    CHECK_CONTAINS((const char *)out.data, "/// Something to draw.\nunion Shape  (size 8");
    CHECK_CONTAINS((const char *)out.data,
                   "         /// square\n         /// and more\n      2  Box     (size 4, align 4)\n");
    out.len = 0;
    CHECK_EQ_U(blobc_gen_c(s, NULL, &out, &err), BLOBC_OK);
    blobc_buf_putc(&out, '\0');
    CHECK_CONTAINS((const char *)out.data, "/** round */\n#define Shape_Circle 1u /* Circle */\n");
    out.len = 0;
    CHECK_EQ_U(blobc_gen_jsonschema(s, NULL, &out, &err), BLOBC_OK);
    /* the document read back, printed again without layout */
    cJSON *doc = cJSON_ParseWithLength((const char *)out.data, out.len);
    char *flat = doc ? cJSON_PrintUnformatted(doc) : NULL;
    cJSON_Delete(doc);
    CHECK(flat != NULL);
    CHECK_CONTAINS(flat, "{\"description\":\"square\\nand more\",\"type\":\"object\"");
    CHECK_CONTAINS(flat, "\"s\":{\"anyOf\":[{\"type\":\"null\"},{\"$ref\":\"#/$defs/Shape\"}],"
                         "\"default\":null}");
    cJSON_free(flat);
    blobc_buffer_free(&out);
    blobc_schema_free(s);
}

TEST(check_report) {
    blobc_schema *s = parse("struct Circle { r: f32; } struct Box { w: f64; }\n"
                            "union Shape { Circle, Box }\nstruct S { s: Shape = null; } root S;");
    CHECK(s != NULL);
    if (!s) return;
    blobc_buffer out = {0};
    CHECK_EQ_U(blobc_schema_report(s, &out, &err), BLOBC_OK);
    blobc_buf_putc(&out, '\0');
    CHECK_CONTAINS((const char *)out.data,
                   "union Shape  (size 8, align 4: u32 tag at 0, i32 offset at 4)\n"
                   "    tag  member\n"
                   "      0  none    (no member: the offset is 0)\n"
                   "      1  Circle  (size 4, align 4)\n"
                   "      2  Box     (size 8, align 8)\n");
    CHECK_CONTAINS((const char *)out.data, "         0     8  s: Shape = null\n");
    CHECK_CONTAINS((const char *)out.data, "t.schema: 4 types, 0 warnings\n");
    blobc_buffer_free(&out);
    blobc_schema_free(s);
    /* reachability goes through unions: only the unused union is reported */
    s = parse("struct C { r: f32; } struct D { q: u8; } union U { C } union V { D }\n"
              "struct S { s: [U]; } root S;");
    CHECK(s != NULL);
    if (!s) return;
    CHECK_EQ_U(blobc_schema_warning_count(s), 2);
    out.len = 0;
    CHECK_EQ_U(blobc_schema_report(s, &out, &err), BLOBC_OK);
    blobc_buf_putc(&out, '\0');
    CHECK_CONTAINS((const char *)out.data,
                   "t.schema:1:29: warning: struct D is not used by the root S\n"
                   "t.schema:1:62: warning: union V is not used by the root S\n");
    blobc_buffer_free(&out);
    blobc_schema_free(s);
}

/* ---- the schema hash ---- */

static uint64_t hash_of(const char *text) {
    blobc_schema *s = parse(text);
    if (!s) return 0;
    uint64_t h = blobc_type_hash(blobc_schema_root(s));
    blobc_schema_free(s);
    return h;
}

TEST(hash_covers_members) {
    const char *base = "struct A { x: u32; } struct B { y: f64; } union U { A, B } "
                       "struct R { u: U; } root R;";
    uint64_t h = hash_of(base);
    CHECK(h != 0);
    /* names do not count */
    CHECK_EQ_U(hash_of("struct P { q: u32; } struct Q { z: f64; } union V { P, Q } "
                       "struct S { w: V = null; } root S;"),
               h);
    static const char *const variants[] = {
        "struct A { x: u32; } struct B { y: f64; } union U { B, A } struct R { u: U; } root R;",
        "struct A { x: u64; } struct B { y: f64; } union U { A, B } struct R { u: U; } root R;",
        "struct A { x: u32; } struct B { y: f64; } union U { A } struct R { u: U; } root R;",
        "struct A { x: u32; } struct B { y: f64; } union U { A, B } struct R { u: *A; v: u32; } root R;",
        "struct A { x: u32; } struct B { y: f64; } union U { A, B } struct R { u: [U; 1]; } root R;",
    };
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        uint64_t v = hash_of(variants[i]);
        if (v == 0 || v == h) FAILF("variant %zu keeps the hash (or does not parse: %s)", i, msg);
    }
}

/* The serialization documented in docs/FORMAT.md, "Schema hash". */
TEST(hash_serialization_is_as_documented) {
    blobc_schema *s = parse("struct C { r: u8; } union U { C } struct P { u: U; } root P;");
    CHECK(s != NULL);
    if (!s) return;
    uint8_t buf[128];
    size_t n = 0;
#define U8(v) (buf[n++] = (uint8_t)(v))
#define U32(v) (U8(v), U8((v) >> 8), U8((v) >> 16), U8((v) >> 24))
    memcpy(buf, "BLOBCTH1", 8);
    n = 8;
    U8(BLOBC_KIND_STRUCT); U32(8); U32(4); U32(1);          /* P: #0 */
    U32(0); U8(BLOBC_KIND_UNION); U32(8); U32(4); U32(1);   /* u: U, #1, one member */
    U32(4); U8(BLOBC_KIND_PTR); U32(4); U32(4);             /* member at 4: *C, #2 */
    U8(BLOBC_KIND_STRUCT); U32(1); U32(1); U32(1);          /*   C, #3 */
    U32(0); U8(BLOBC_KIND_U8); U32(1); U32(1);              /*   r: u8 */
#undef U8
#undef U32
    CHECK_EQ_U(blobc_type_hash(blobc_schema_root(s)), XXH3_64bits(buf, n));
    blobc_schema_free(s);
}

/* ---- the type section ---- */

TEST(typesec_round_trip) {
    blobc_buffer sec = {0};
    const blobc_type *root = blobc_schema_root(schema());
    CHECK_EQ_U(blobc_types_encode(root, "shapes.schema", &sec, &err), BLOBC_OK);
    blobc_schema *d = NULL;
    const char *name = NULL;
    CHECK_EQ_U(blobc_types_decode(sec.data, sec.len, &d, &name, &err), BLOBC_OK);
    if (d) {
        CHECK_EQ_U(blobc_type_hash(blobc_schema_root(d)), blobc_type_hash(root));
        const blobc_type *u = blobc_schema_find(d, "Shape");
        CHECK(u && u->kind == BLOBC_KIND_UNION && u->nfields == 3);
        if (u) {
            CHECK_STR(u->fields[2].name, "Poly");
            CHECK(u->fields[2].type->elem == blobc_schema_find(d, "Poly"));
        }
        /* encoding the decoded schema gives the same bytes */
        blobc_buffer again = {0};
        CHECK_EQ_U(blobc_types_encode(blobc_schema_root(d), name, &again, &err), BLOBC_OK);
        CHECK(again.len == sec.len && memcmp(again.data, sec.data, sec.len) == 0);
        blobc_buffer_free(&again);
        blobc_schema_free(d);
    }
    blobc_buffer_free(&sec);
}

/* Finds the record of the named union in an encoded section: the word
 * offset of its kind word. */
static size_t find_union_record(const blobc_buffer *sec) {
    for (size_t off = 20; off + 16 <= sec->len; off += 4)
        if (blobc_ld32(sec->data + off) == BLOBC_KIND_UNION) return off;
    return 0;
}

static const char *decode_error(const blobc_buffer *sec) {
    blobc_schema *d = NULL;
    blobc_error_clear(&err);
    if (blobc_types_decode(sec->data, sec->len, &d, NULL, &err) == BLOBC_OK) {
        blobc_schema_free(d);
        return "ok";
    }
    return err.message;
}

TEST(typesec_hostile_union_records) {
    blobc_schema *s = parse("struct C { r: u8; } struct D { q: u16; } union U { C, D } "
                            "struct P { u: U; c: *C; n: u32; } root P;");
    CHECK(s != NULL);
    if (!s) return;
    blobc_buffer sec = {0};
    CHECK_EQ_U(blobc_types_encode(blobc_schema_root(s), NULL, &sec, &err), BLOBC_OK);
    size_t rec = find_union_record(&sec);
    CHECK(rec != 0);
    CHECK_STR(decode_error(&sec), "ok");
    uint8_t *p = sec.data + rec;
    /* an alignment attribute on a union */
    blobc_st32(p + 8, 4);
    CHECK_CONTAINS(decode_error(&sec), "union U has an alignment attribute");
    blobc_st32(p + 8, 0);
    /* a member named after another struct */
    uint32_t name0 = blobc_ld32(p + 16);
    blobc_st32(p + 16, blobc_ld32(p + 4)); /* the union's own name */
    CHECK_CONTAINS(decode_error(&sec), "union U: member 1 is not named after its struct");
    blobc_st32(p + 16, name0);
    /* a member that is not a *Struct: point it at the u32 record */
    uint32_t type0 = blobc_ld32(p + 20);
    uint32_t n_types = blobc_ld32(sec.data + 8);
    bool flipped = false;
    for (uint32_t t = 0; t < n_types && !flipped; t++) {
        blobc_st32(p + 20, t);
        if (strstr(decode_error(&sec), "union U: member 1 is not a struct type")) flipped = true;
    }
    CHECK(flipped);
    blobc_st32(p + 20, type0);
    /* no members */
    blobc_buffer cut = {0};
    blobc_buf_append(&cut, sec.data, rec + 12);
    blobc_buf_append(&cut, "\0\0\0\0", 4);
    blobc_buf_append(&cut, sec.data + rec + 32, sec.len - rec - 32);
    CHECK_CONTAINS(decode_error(&cut), "union U has no members");
    blobc_buffer_free(&cut);
    CHECK_STR(decode_error(&sec), "ok");
    blobc_buffer_free(&sec);
    blobc_schema_free(s);
}

/* ---- baking ---- */

static blobc_status bake(const char *text, const char *filename, blobc_output_format fmt,
                         blobc_buffer *out) {
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    o.schema = schema();
    o.output = fmt;
    blobc_error_clear(&err);
    out->len = 0;
    blobc_status st = blobc_bake_memory(text, strlen(text), filename, &o, out, &err);
    msg[0] = '\0';
    if (st) blobc_error_format(&err, msg, sizeof msg);
    return st;
}

static const char *first_error(const char *text, const char *filename) {
    blobc_buffer out = {0};
    blobc_status st = bake(text, filename, BLOBC_OUTPUT_RAW, &out);
    blobc_buffer_free(&out);
    if (st == BLOBC_OK) return "ok";
    char *nl = strchr(msg, '\n');
    if (nl) *nl = '\0';
    return msg;
}

static const char scene_yaml[] =
    "main: {Circle: {r: 1.5}}\n"
    "shapes:\n"
    "  - Box: &b {w: 2, h: 3}\n"
    "  - Poly: {pts: [1, 2, 3]}\n"
    "  - Box: *b\n"
    "pair: [{Circle: {r: 1}}, {Box: {w: 4, h: 5}}]\n"
    "maybe: {Box: {w: 6, h: 7}}\n";

static const char scene_json[] =
    "{\"main\": {\"Circle\": {\"r\": 1.5}},\n"
    " \"shapes\": [{\"Box\": {\"w\": 2, \"h\": 3}}, {\"Poly\": {\"pts\": [1, 2, 3]}},\n"
    "            {\"Box\": {\"w\": 2, \"h\": 3}}],\n"
    " \"pair\": [{\"Circle\": {\"r\": 1}}, {\"Box\": {\"h\": 5, \"w\": 4}}],\n"
    " \"maybe\": {\"Box\": {\"w\": 6, \"h\": 7}}, \"extra\": null}\n";

static const uint8_t *g_d;
static size_t g_n;

/* The data offset the self-relative i32 at `at` points to, -1 for 0. */
static long target(size_t at) {
    int32_t off = (int32_t)blobc_ld32(g_d + at);
    if (off == 0) return -1;
    long t = (long)at + off;
    return t >= 0 && (size_t)t < g_n ? t : -2;
}

static float f32_at(long at) {
    uint32_t b = blobc_ld32(g_d + at);
    float f;
    memcpy(&f, &b, 4);
    return f;
}

TEST(bake_values_read_back) {
    blobc_buffer y = {0}, j = {0};
    CHECK_EQ_U(bake(scene_yaml, "s.yaml", BLOBC_OUTPUT_RAW, &y), BLOBC_OK);
    if (msg[0]) FAILF("%s", msg);
    g_d = y.data;
    g_n = y.len;
    /* main: tag 1 (Circle), its payload holds r */
    CHECK_EQ_U(blobc_ld32(g_d + 0), 1);
    CHECK(f32_at(target(4)) == 1.5f);
    CHECK_EQ_U(target(4) % 4, 0);
    /* extra: absent, allowed by "= null": none */
    CHECK_EQ_U(blobc_ld32(g_d + 8), 0);
    CHECK_EQ_U(blobc_ld32(g_d + 12), 0);
    /* shapes: three items; the aliased Box payload is shared */
    CHECK_EQ_U(blobc_ld32(g_d + 20), 3);
    long items = target(16);
    CHECK_EQ_U(blobc_ld32(g_d + items), 2);
    CHECK_EQ_U(blobc_ld32(g_d + items + 8), 3);
    CHECK_EQ_U(blobc_ld32(g_d + items + 16), 2);
    long box = target((size_t)items + 4);
    CHECK(f32_at(box) == 2.0f && f32_at(box + 4) == 3.0f);
    CHECK_EQ_I(target((size_t)items + 20), box);
    long poly = target((size_t)items + 12);
    CHECK_EQ_U(blobc_ld32(g_d + poly + 4), 3);
    CHECK(f32_at(target((size_t)poly) + 8) == 3.0f);
    /* pair: inline */
    CHECK_EQ_U(blobc_ld32(g_d + 24), 1);
    CHECK(f32_at(target(28)) == 1.0f);
    CHECK_EQ_U(blobc_ld32(g_d + 32), 2);
    CHECK(f32_at(target(36) + 4) == 5.0f);
    /* maybe: *Shape to a union value out of line */
    long u = target(40);
    CHECK_EQ_U(blobc_ld32(g_d + u), 2);
    CHECK(f32_at(target((size_t)u + 4)) == 6.0f);
    CHECK_EQ_U(g_d[44], 9);
    /* JSON (no sharing there) */
    CHECK_EQ_U(bake(scene_json, "s.json", BLOBC_OUTPUT_RAW, &j), BLOBC_OK);
    if (msg[0]) FAILF("%s", msg);
    g_d = j.data;
    g_n = j.len;
    items = target(16);
    CHECK(target((size_t)items + 20) != target((size_t)items + 4));
    CHECK(f32_at(target((size_t)items + 20) + 4) == 3.0f);
    CHECK_EQ_U(blobc_ld32(g_d + 8), 0);
    blobc_buffer_free(&y);
    blobc_buffer_free(&j);
}

#define PAIR_YAML "pair: [{Circle: {r: 1}}, {Circle: {r: 2}}]\n"

TEST(bake_errors) {
    static const struct {
        const char *text, *file, *want;
    } cases[] = {
        {"main: {Circel: {r: 1}}\n", "e.yaml",
         "e.yaml:1:8: main: error: unknown member \"Circel\" of union Shape; did you mean "
         "\"Circle\"?"},
        {"main: {Oval: {r: 1}}\n", "e.yaml",
         "e.yaml:1:8: main: error: unknown member \"Oval\" of union Shape (members: Circle, Box, "
         "Poly)"},
        {"main: {Circle: {r: 1}, Box: {w: 1, h: 2}}\n", "e.yaml",
         "e.yaml:1:24: main: error: a union value names exactly one member, but \"Box\" follows "
         "\"Circle\" (union Shape)"},
        {"main: 3\n", "e.yaml",
         "e.yaml:1:7: main: error: expected a mapping with one key naming a member of union "
         "Shape (Circle, Box, Poly), got \"3\""},
        {"main: [1]\n", "e.yaml",
         "e.yaml:1:7: main: error: expected a mapping with one key naming a member of union "
         "Shape (Circle, Box, Poly), got a sequence"},
        {"main: null\n", "e.yaml",
         "e.yaml:1:7: main: error: expected a mapping with one key naming a member of union "
         "Shape (Circle, Box, Poly), got \"null\" (null, no member, is allowed only in a field "
         "declared '= null' or an @open union)"},
        {"main: {}\n", "e.yaml",
         "e.yaml:1:7: main: error: expected a mapping with one key naming a member of union "
         "Shape (Circle, Box, Poly), got an empty mapping"},
        {"main: {Circle: null}\n", "e.yaml",
         "e.yaml:1:16: main.Circle: error: expected a mapping (struct Circle), got \"null\""},
        {"main: {Circle: {q: 1}}\n", "e.yaml",
         "e.yaml:1:17: main.Circle.q: error: unknown field \"q\" in struct Circle (fields: r)"},
        {"main: {Circle: {r: 1}}\nshapes: [~]\n", "e.yaml",
         "e.yaml:2:10: shapes[0]: error: expected a mapping with one key naming a member of "
         "union Shape (Circle, Box, Poly), got \"~\" (null, no member, is allowed only in a field "
         "declared '= null' or an @open union)"},
        {"id: 1\n", "e.yaml", "e.yaml:1:1: error: missing fields \"main\", \"pair\" in struct Scene"},
        {"{\"main\": {\"Box\": {\"w\": 1}}}", "e.json",
         "e.json:1:18: /main/Box: error: missing field \"h\" (f32) in struct Box"},
        {"{\"main\": {\"Box\": {\"w\": 1, \"h\": 1}, \"Circle\": {}}}", "e.json",
         "e.json:1:36: /main: error: a union value names exactly one member, but \"Circle\" "
         "follows \"Box\" (union Shape)"},
        {"{\"main\": null}", "e.json",
         "e.json:1:10: /main: error: expected an object with one key naming a member of union "
         "Shape (Circle, Box, Poly), got null (null, no member, is allowed only in a field "
         "declared '= null' or an @open union)"},
        {"{\"main\": {\"Box\": 1}}", "e.json",
         "e.json:1:18: /main/Box: error: expected an object (struct Box), got the number 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = first_error(cases[i].text, cases[i].file);
        if (strcmp(got, cases[i].want) != 0)
            FAILF("case %zu:\n  got:  %s\n  want: %s", i, got, cases[i].want);
        if (getenv("SHOW")) printf("%s\n", got);
    }
    /* null where the field allows it, in both languages */
    CHECK_STR(first_error("main: {Box: {w: 1, h: 2}}\nextra: null\n" PAIR_YAML, "o.yaml"), "ok");
    CHECK_STR(first_error("{\"main\": {\"Box\": {\"w\": 1, \"h\": 2}}, \"extra\": null,\n"
                          " \"pair\": [{\"Circle\": {\"r\": 1}}, {\"Circle\": {\"r\": 2}}]}",
                          "o.json"),
              "ok");
    CHECK_STR(first_error("main: {Circle: {r: 1}}\nmaybe: null\n" PAIR_YAML, "o.yaml"), "ok");
}

/* ---- verify and dump ---- */

static const char *verify_error(const uint8_t *d, size_t n) {
    blobc_error_clear(&err);
    if (blobc_verify_data(d, n, blobc_schema_root(schema()), &err) == BLOBC_OK) return "ok";
    snprintf(msg, sizeof msg, "%s @%llu %s: %s", blobc_verify_code_name(err.code),
             (unsigned long long)err.offset, err.path, err.message);
    return msg;
}

TEST(verify_and_dump_round_trip) {
    blobc_buffer raw = {0}, text = {0}, again = {0};
    CHECK_EQ_U(bake(scene_yaml, "s.yaml", BLOBC_OUTPUT_RAW, &raw), BLOBC_OK);
    CHECK_STR(verify_error(raw.data, raw.len), "ok");
    blobc_dump_options o;
    memset(&o, 0, sizeof o);
    o.schema = schema();
    o.raw = true;
    CHECK_EQ_U(blobc_dump(raw.data, raw.len, &o, &text, &err), BLOBC_OK);
    blobc_buf_putc(&text, '\0');
    const char *t = (const char *)text.data;
    CHECK_CONTAINS(t, "main:\n  Circle:\n    r: 1.5\n");
    CHECK_CONTAINS(t, "extra: null\n");
    CHECK_CONTAINS(t, "  - Box: &a1\n      w: 2.0\n      h: 3.0\n");
    CHECK_CONTAINS(t, "  - Box: *a1\n");
    CHECK_CONTAINS(t, "maybe:\n  Box:\n    w: 6.0\n");
    /* the dump bakes back to the same bytes */
    CHECK_EQ_U(bake(t, "d.yaml", BLOBC_OUTPUT_RAW, &again), BLOBC_OK);
    CHECK(again.len == raw.len && memcmp(again.data, raw.data, raw.len) == 0);
    /* JSON: the single-key form, and none as null */
    text.len = 0;
    o.format = BLOBC_DUMP_JSON;
    CHECK_EQ_U(blobc_dump(raw.data, raw.len, &o, &text, &err), BLOBC_OK);
    blobc_buf_putc(&text, '\0');
    CHECK_CONTAINS((const char *)text.data, "\"main\": {\n    \"Circle\": {\n      \"r\": 1.5\n    }\n  }");
    CHECK_CONTAINS((const char *)text.data, "\"extra\": null");
    blobc_buffer_free(&raw);
    blobc_buffer_free(&text);
    blobc_buffer_free(&again);
}

TEST(verify_rejects_bad_unions) {
    blobc_buffer raw = {0};
    CHECK_EQ_U(bake(scene_yaml, "s.yaml", BLOBC_OUTPUT_RAW, &raw), BLOBC_OK);
    uint8_t *d = raw.data;
    /* main: tag at 0, offset at 4 */
    blobc_st32(d, 4);
    CHECK_STR(verify_error(d, raw.len),
              "union @0 main: union tag 4 names no member of Shape (1 to 3, or 0 for none)");
    blobc_st32(d, 0);
    CHECK_STR(verify_error(d, raw.len),
              "union @0 main: union Shape holds no member (tag 0), which only a field declared "
              "'= null' or an @open union may");
    blobc_st32(d, 1);
    /* extra, declared `= null`, holds none: tag 0 at 8, offset 0 at 12 */
    blobc_st32(d + 12, 4);
    CHECK_STR(verify_error(d, raw.len),
              "union @12 extra: union holds no member (tag 0) but its offset is 4, not 0");
    blobc_st32(d + 12, 0);
    blobc_st32(d, 0);
    blobc_st32(d, 1);
    uint32_t off = blobc_ld32(d + 4);
    blobc_st32(d + 4, 0);
    CHECK_STR(verify_error(d, raw.len),
              "union @4 main: union tag 1 (Circle) with offset 0 (a member is never null)");
    blobc_st32(d + 4, off + 2);
    CHECK_STR(verify_error(d, raw.len), "misaligned @4 main: pointer target 0x32 is not aligned to 4");
    blobc_st32(d + 4, off);
    /* the Box behind shapes[0] walked as a Poly (tag 3): its bytes make no
     * array, and the path names the member */
    size_t items = 16 + blobc_ld32(d + 16);
    blobc_st32(d + items, 3);
    CHECK_CONTAINS(verify_error(d, raw.len), "offset-range @76 shapes[0].Poly.pts: array offset");
    blobc_st32(d + items, 2);
    /* shapes[2] shares that Box: as a Circle it is another type there */
    blobc_st32(d + items + 16, 1);
    CHECK_CONTAINS(verify_error(d, raw.len), "overlap @");
    CHECK_CONTAINS(msg, "shapes[2]: pointer target");
    blobc_st32(d + items + 16, 2);
    CHECK_STR(verify_error(d, raw.len), "ok");
    /* inside a member's payload, the path names the member */
    size_t poly = items + 12 + blobc_ld32(d + items + 12);
    blobc_st32(d + poly + 4, 0x7fffffff);
    CHECK_CONTAINS(verify_error(d, raw.len), "shapes[1].Poly.pts");
    blobc_buffer_free(&raw);
}

/* The builder API makes a union like any offset field: the tag, and a link
 * at BLOBC_UNION_REF to the member's allocation. */
TEST(builder_union) {
    blobc_schema *s = parse("struct C { r: f32; } struct B { w: f64; } union U { C, B } "
                            "struct R { u: U; v: [U]; } root R;");
    CHECK(s != NULL);
    if (!s) return;
    const blobc_type *r = blobc_schema_root(s);
    blobc_builder *b = blobc_builder_new();
    void *root;
    CHECK_EQ_U(blobc_builder_root(b, r->size, r->align, &root), BLOBC_OK);
    blobc_ref bref, items;
    void *mem;
    blobc_st32(root, 2); /* u: a B */
    CHECK_EQ_U(blobc_builder_alloc(b, 8, 8, &bref, &mem), BLOBC_OK);
    double w = 0.25;
    memcpy(mem, &w, 8);
    CHECK_EQ_U(blobc_builder_link(b, 0, BLOBC_UNION_REF, bref), BLOBC_OK);
    /* v: [none-less: a C, then the same B again] */
    CHECK_EQ_U(blobc_builder_alloc(b, 16, 4, &items, &mem), BLOBC_OK);
    blobc_st32(blobc_builder_ptr(b, 0) + 12, 2);
    CHECK_EQ_U(blobc_builder_link(b, 0, 8, items), BLOBC_OK);
    blobc_ref cref;
    void *cm;
    CHECK_EQ_U(blobc_builder_alloc(b, 4, 4, &cref, &cm), BLOBC_OK);
    blobc_st32(blobc_builder_ptr(b, items), 1);
    blobc_st32((uint8_t *)blobc_builder_ptr(b, items) + 8, 2);
    CHECK_EQ_U(blobc_builder_link(b, items, 4, cref), BLOBC_OK);
    CHECK_EQ_U(blobc_builder_link(b, items, 12, bref), BLOBC_OK);
    blobc_buffer out = {0};
    CHECK_EQ_U(blobc_builder_finish(b, &out, &err), BLOBC_OK);
    blobc_builder_free(b);
    blobc_error_clear(&err);
    CHECK_EQ_U(blobc_verify_data(out.data, out.len, r, &err), BLOBC_OK);
    if (err.message[0]) FAILF("%s", err.message);
    blobc_dump_options o;
    memset(&o, 0, sizeof o);
    o.schema = s;
    o.raw = true;
    blobc_buffer text = {0};
    CHECK_EQ_U(blobc_dump(out.data, out.len, &o, &text, &err), BLOBC_OK);
    blobc_buf_putc(&text, '\0');
    CHECK_CONTAINS((const char *)text.data,
                   "u:\n  B: &a1\n    w: 0.25\nv:\n  - C:\n      r: 0.0\n  - B: *a1\n");
    blobc_buffer_free(&text);
    blobc_buffer_free(&out);
    blobc_schema_free(s);
}

TEST_MAIN_BEGIN("union")
RUN(parse_and_layout);
RUN(check_report);
RUN(doc_comments);
RUN(hash_covers_members);
RUN(hash_serialization_is_as_documented);
RUN(typesec_round_trip);
RUN(typesec_hostile_union_records);
RUN(bake_values_read_back);
RUN(bake_errors);
RUN(verify_and_dump_round_trip);
RUN(verify_rejects_bad_unions);
RUN(builder_union);
blobc_schema_free(g_schema);
TEST_MAIN_END
