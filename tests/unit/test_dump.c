/*
 * test_dump.c - dump as YAML, JSON and a layout map: exact text for a small
 * level, re-baking the YAML gives the same bytes (floats to the bit,
 * strings with every awkward character, shared payloads as anchors and
 * aliases), JSON is valid and round-trips where nothing is shared, deep
 * chains stay linear, exploding DAGs hit the copy budget instead of the
 * disk, and invalid blobs print nothing (YAML, JSON) or a map up to the
 * failure.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "blobc/blobc.h"
#include "test.h"
#include "walk_fixture.h"

static blobc_schema *S;
static const blobc_type *LV;

static blobc_status dump_as(const blobc_buffer *blob, blobc_dump_format f, const blobc_schema *s,
                            bool raw, blobc_buffer *out, blobc_error *err) {
    blobc_dump_options o = {0};
    o.format = f;
    o.schema = s;
    o.raw = raw;
    blobc_error_clear(err);
    out->len = 0;
    return blobc_dump(blob->data, blob->len, &o, out, err);
}

/* The text as a NUL-terminated string (kept in the buffer). */
static const char *text(blobc_buffer *b) {
    blobc_buf_putc(b, '\0');
    b->len--;
    return (const char *)b->data;
}

/* Bakes text with the fixture schema into a .blob recording the same
 * schema name as fx_blob, so whole files compare. */
static blobc_status bake_text(const blobc_schema *s, const char *t, size_t n, const char *name,
                              blobc_buffer *out, blobc_error *err) {
    blobc_bake_options o = {0};
    o.schema = s;
    o.schema_path = "fixture.schema";
    blobc_error_clear(err);
    return blobc_bake_memory(t, n, name, &o, out, err);
}

/* libyaml must load the text as one document (undefined aliases fail). */
static bool yaml_loads(const char *t, size_t n, char *why, size_t cap) {
    yaml_parser_t p;
    yaml_document_t doc;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)t, n);
    bool ok = yaml_parser_load(&p, &doc);
    if (!ok) snprintf(why, cap, "%s at line %zu", p.problem ? p.problem : "?", p.problem_mark.line + 1);
    else yaml_document_delete(&doc);
    yaml_parser_delete(&p);
    return ok;
}

/* dump -> bake must give the same file bytes; the dump text is returned. */
#define CHECK_REBAKES(blob, schema, fmt, dumped)                                               \
    do {                                                                                       \
        blobc_error e_;                                                                        \
        if (dump_as(&(blob), (fmt), NULL, false, &(dumped), &e_) != BLOBC_OK)                 \
            FAILF("dump: %s", e_.message);                                                     \
        blobc_buffer again_ = {0};                                                             \
        if (bake_text((schema), (const char *)(dumped).data, (dumped).len,                     \
                      (fmt) == BLOBC_DUMP_JSON ? "d.json" : "d.yaml", &again_, &e_) != BLOBC_OK) { \
            char m_[1200];                                                                     \
            blobc_error_format(&e_, m_, sizeof m_);                                            \
            FAILF("re-bake: %s\n%.2000s", m_, text(&(dumped)));                               \
        }                                                                                      \
        if (again_.len != (blob).len || memcmp(again_.data, (blob).data, (blob).len) != 0)     \
            FAILF("re-baked blob differs (%zu vs %zu bytes)\n%.2000s", again_.len, (blob).len, \
                  text(&(dumped)));                                                            \
        blobc_buffer_free(&again_);                                                            \
    } while (0)

static const char small_yaml[] =
    "$type: Level\n"
    "$schema: \"fixture.schema\"\n"
    "index: -7\n"
    "name: \"Castle \\\"Keep\\\"\"\n"
    "size_m: 12.5\n"
    "rooms:\n"
    "  - id: 1\n"
    "    name: \"Room 0\"\n"
    "    kind: wall\n"
    "    center:\n"
    "      x: 0.0\n"
    "      \"y\": -1.25\n"
    "      z: 0.1\n"
    "    radius: 1.0\n"
    "    weights: [0.0, 0.33333334, 0.6666667, 1.0]\n"
    "    neighbors: []\n"
    "    tags: [\"dark\", \"hub\"]\n"
    "    meta: null\n"
    "    lit: false\n"
    "    temp: cold\n"
    "  - id: 2\n"
    "    name: \"Room 1\"\n"
    "    kind: door\n"
    "    center:\n"
    "      x: 0.5\n"
    "      \"y\": -1.25\n"
    "      z: 0.1\n"
    "    radius: 2.0\n"
    "    weights: [0.0, 0.33333334, 0.6666667, 1.0]\n"
    "    neighbors: [0]\n"
    "    tags: [\"lit\", \"plain\"]\n"
    "    meta: null\n"
    "    lit: true\n"
    "    temp: hot\n"
    "big: 18364758544493064720\n";

TEST(yaml_exact) {
    blobc_buffer blob = {0}, out = {0};
    fx_level_blob(S, 2, false, &blob);
    blobc_error err;
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_YAML, NULL, false, &out, &err), BLOBC_OK);
    CHECK_STR(text(&out), small_yaml);
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
}

static const char small_json[] =
    "{\n"
    "  \"$type\": \"Level\",\n"
    "  \"$schema\": \"fixture.schema\",\n"
    "  \"index\": -7,\n"
    "  \"name\": \"Castle \\\"Keep\\\"\",\n"
    "  \"size_m\": 12.5,\n"
    "  \"rooms\": [\n"
    "    {\n"
    "      \"id\": 1,\n"
    "      \"name\": \"Room 0\",\n"
    "      \"kind\": \"wall\",\n"
    "      \"center\": {\n"
    "        \"x\": 0.0,\n"
    "        \"y\": -1.25,\n"
    "        \"z\": 0.1\n"
    "      },\n"
    "      \"radius\": 1.0,\n"
    "      \"weights\": [0.0, 0.33333334, 0.6666667, 1.0],\n"
    "      \"neighbors\": [],\n"
    "      \"tags\": [\"dark\", \"hub\"],\n"
    "      \"meta\": null,\n"
    "      \"lit\": false,\n"
    "      \"temp\": \"cold\"\n"
    "    }\n"
    "  ],\n"
    "  \"big\": 18364758544493064720\n"
    "}\n";

TEST(yaml_quotes_bool_like_names) {
    blobc_schema *s = fx_schema_parse("enum Sw : u8 { off, on, Yes, onward }\n"
                                      "struct R { y: u8; N: u8; no2: u8; a: Sw; b: Sw; c: Sw; d: Sw; }\n"
                                      "root R;\n");
    const blobc_type *t = blobc_schema_root(s);
    uint8_t d[7] = {1, 2, 3, 0, 1, 2, 3};
    blobc_buffer blob = {0}, out = {0};
    fx_blob(d, sizeof d, t, false, &blob);
    CHECK_REBAKES(blob, s, BLOBC_DUMP_YAML, out);
    CHECK_CONTAINS(text(&out), "\"y\": 1\n\"N\": 2\nno2: 3\na: \"off\"\nb: \"on\"\nc: \"Yes\"\nd: onward\n");
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
    blobc_schema_free(s);
}

TEST(json_exact_and_rebakes) {
    blobc_buffer blob = {0}, out = {0};
    fx_level_blob(S, 1, false, &blob);
    blobc_error err;
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_JSON, NULL, false, &out, &err), BLOBC_OK);
    CHECK_STR(text(&out), small_json);
    CHECK_REBAKES(blob, S, BLOBC_DUMP_JSON, out);
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
}

TEST(yaml_rebakes_with_sharing) {
    /* 13 rooms: "hub" is shared by rooms 0, 4, 8, 12 */
    blobc_buffer img = {0}, blob = {0}, out = {0};
    fx_level(S, 13, &img);
    fx_blob(img.data, img.len, LV, false, &blob);
    CHECK_REBAKES(blob, S, BLOBC_DUMP_YAML, out);
    const char *t = text(&out);
    CHECK_CONTAINS(t, "tags: [\"dark\", &a1 \"hub\"]");
    const char *p = t;
    int aliases = 0;
    while ((p = strstr(p, "*a1]")) != NULL) {
        aliases++;
        p++;
    }
    CHECK_EQ_I(aliases, 3);
    char why[256];
    if (!yaml_loads(t, out.len, why, sizeof why)) FAILF("libyaml: %s", why);
    blobc_buffer_free(&img);
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
}

TEST(json_copies_shared) {
    blobc_buffer blob = {0}, out = {0};
    fx_level_blob(S, 5, false, &blob);
    blobc_error err;
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_JSON, NULL, false, &out, &err), BLOBC_OK);
    cJSON *j = cJSON_ParseWithLength((const char *)out.data, out.len);
    CHECK(j);
    cJSON *rooms = cJSON_GetObjectItemCaseSensitive(j, "rooms");
    CHECK_EQ_I(cJSON_GetArraySize(rooms), 5);
    cJSON *t4 = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rooms, 4), "tags");
    CHECK_STR(cJSON_GetArrayItem(t4, 1)->valuestring, "hub");
    cJSON_Delete(j);
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
}

/* ---- scalars to the bit ---- */

static const char scalars_schema[] =
    "enum E : i64 { lo = -9223372036854775808, zero = 0, hi = 9223372036854775807 }\n"
    "struct T {\n"
    "  f: [f32]; d: [f64]; a8: i8; b8: u8; a16: i16; b16: u16; a32: i32; b32: u32;\n"
    "  a64: i64; b64: u64; b: bool; e: [E; 3]; s: [string];\n"
    "}\n"
    "root T;\n";

static const uint32_t f32_bits[] = {
    0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x3dcccccdu, 0x7f7fffffu, 0xff7fffffu,
    0x00000001u, 0x80000001u, 0x007fffffu, 0x00800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
    0x4b000001u, 0x4f000000u, 0x5f000000u, 0x3eaaaaabu, 0x2edbe6ffu, 0x501502f9u, 0x3a83126fu,
    0x322bcc77u, 0x49742400u, 0x4cbebc20u, 0x38d1b717u,
};
static const uint64_t f64_bits[] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0x3fb999999999999aull,
    0x3fd3333333333334ull, 0x7fefffffffffffffull, 0x0000000000000001ull, 0x000fffffffffffffull,
    0x0010000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
    0x4340000000000001ull, 0x43e0000000000000ull, 0x3e7ad7f29abcaf48ull, 0x44b52d02c7e14af6ull,
    0x400921fb54442d18ull, 0xc00921fb54442d18ull,
};
static const char *const strings[] = {
    "", "plain", "quote \" and \\ backslash", "tab\tnew\nline\rcr", "\x01\x02\x1b\x1f\x7f",
    "caf\xc3\xa9", "\xc2\x85 nel \xc2\x80\xc2\x9f c1", "\xe2\x80\xa8 ls \xe2\x80\xa9 ps",
    "\xef\xbb\xbf bom \xef\xbf\xbe \xef\xbf\xbf", "emoji \xf0\x9f\x98\x80", "# not a comment",
    "key: value", "- dash", "true", "null", "~", "0x10", "1e3", "  spaces  ", "'single'",
    "&anchor *alias", "{flow}", "[seq]", "%directive", "@at `tick`", "line\\nnot", "\xe4\xb8\xad\xe6\x96\x87",
};

static void build_scalars(const blobc_schema *s, blobc_buffer *blob) {
    const blobc_type *t = blobc_schema_root(s);
    blobc_builder *b = blobc_builder_new();
    uint8_t *r;
    if (blobc_builder_root(b, t->size, t->align, (void **)&r) != BLOBC_OK) abort();
    size_t nf = sizeof f32_bits / sizeof f32_bits[0], nd = sizeof f64_bits / sizeof f64_bits[0];
    size_t ns = sizeof strings / sizeof strings[0];
    blobc_ref fa = fx_arr(b, 0, fx_off(t, "f"), (uint32_t)nf, 4, 4);
    for (size_t i = 0; i < nf; i++) blobc_st32(fx_mem(b, fa) + 4 * i, f32_bits[i]);
    blobc_ref da = fx_arr(b, 0, fx_off(t, "d"), (uint32_t)nd, 8, 8);
    for (size_t i = 0; i < nd; i++) blobc_st64(fx_mem(b, da) + 8 * i, f64_bits[i]);
    r = fx_mem(b, 0);
    r[fx_off(t, "a8")] = 0x80;
    r[fx_off(t, "b8")] = 0xff;
    blobc_st16(r + fx_off(t, "a16"), 0x8000);
    blobc_st16(r + fx_off(t, "b16"), 0xffff);
    blobc_st32(r + fx_off(t, "a32"), 0x80000000u);
    blobc_st32(r + fx_off(t, "b32"), 0xffffffffu);
    blobc_st64(r + fx_off(t, "a64"), 0x8000000000000000ull);
    blobc_st64(r + fx_off(t, "b64"), 0xffffffffffffffffull);
    r[fx_off(t, "b")] = 1;
    blobc_st64(r + fx_off(t, "e"), 0x8000000000000000ull);
    blobc_st64(r + fx_off(t, "e") + 16, 0x7fffffffffffffffull);
    blobc_ref sa = fx_arr(b, 0, fx_off(t, "s"), (uint32_t)ns, 8, 4);
    for (size_t i = 0; i < ns; i++) fx_str(b, sa, (uint32_t)(8 * i), strings[i]);
    blobc_buffer img = {0};
    fx_finish(b, &img);
    fx_blob(img.data, img.len, t, false, blob);
    blobc_buffer_free(&img);
}

TEST(scalars_yaml_to_the_bit) {
    blobc_schema *s = fx_schema_parse(scalars_schema);
    blobc_buffer blob = {0}, out = {0};
    build_scalars(s, &blob);
    CHECK_REBAKES(blob, s, BLOBC_DUMP_YAML, out);
    const char *t = text(&out);
    CHECK_CONTAINS(t, "a8: -128\n");
    CHECK_CONTAINS(t, "b64: 18446744073709551615\n");
    CHECK_CONTAINS(t, "a64: -9223372036854775808\n");
    CHECK_CONTAINS(t, "e: [lo, zero, hi]\n");
    CHECK_CONTAINS(t, "f: [0.0, -0.0, 1.0, -1.0, 0.1, 3.4028235e+38, -3.4028235e+38, 1.0e-45, ");
    CHECK_CONTAINS(t, ".inf, -.inf, .nan, ");
    CHECK_CONTAINS(t, "d: [0.0, -0.0, 1.0, 0.1, 0.30000000000000004, 1.7976931348623157e+308, 5.0e-324, ");
    CHECK_CONTAINS(t, "\"quote \\\" and \\\\ backslash\"");
    CHECK_CONTAINS(t, "\"tab\\tnew\\nline\\rcr\"");
    CHECK_CONTAINS(t, "\"\\x01\\x02\\x1b\\x1f\\x7f\"");
    CHECK_CONTAINS(t, "\"\\x85 nel \\x80\\x9f c1\"");
    CHECK_CONTAINS(t, "\"\\L ls \\P ps\"");
    CHECK_CONTAINS(t, "\"\\ufeff bom \\ufffe \\uffff\"");
    char why[256];
    if (!yaml_loads(t, out.len, why, sizeof why)) FAILF("libyaml: %s", why);
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
    blobc_schema_free(s);
}

TEST(scalars_json_to_the_bit) {
    blobc_schema *s = fx_schema_parse(scalars_schema);
    blobc_buffer blob = {0}, out = {0};
    build_scalars(s, &blob);
    CHECK_REBAKES(blob, s, BLOBC_DUMP_JSON, out);
    const char *t = text(&out);
    CHECK_CONTAINS(t, "\"inf\", \"-inf\", \"nan\"");
    CHECK_CONTAINS(t, "\"\\u0001\\u0002\\u001b\\u001f\\u007f\"");
    CHECK_CONTAINS(t, "\"e\": [\"lo\", \"zero\", \"hi\"]");
    cJSON *j = cJSON_ParseWithLength(t, out.len);
    CHECK(j);
    cJSON *sv = cJSON_GetObjectItemCaseSensitive(j, "s");
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
        CHECK_STR(cJSON_GetArrayItem(sv, (int)i)->valuestring, strings[i]);
    cJSON_Delete(j);
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
    blobc_schema_free(s);
}

/* ---- shapes ---- */

static const char node_schema[] = "struct Node { v: u32; next: *Node; } root Node;";

static void chain(size_t n, blobc_buffer *blob) {
    const char *unused = node_schema;
    (void)unused;
    uint8_t *d = malloc(8 * n);
    for (size_t i = 0; i < n; i++) {
        blobc_st32(d + 8 * i, (uint32_t)i);
        blobc_st32(d + 8 * i + 4, i + 1 < n ? 4 : 0);
    }
    blobc_schema *s = fx_schema_parse(node_schema);
    fx_blob(d, 8 * n, blobc_schema_root(s), false, blob);
    blobc_schema_free(s);
    free(d);
}

TEST(deep_chain_flow_and_linear) {
    blobc_schema *s = fx_schema_parse(node_schema);
    blobc_buffer blob = {0}, out = {0};
    chain(3000, &blob);
    CHECK_REBAKES(blob, s, BLOBC_DUMP_YAML, out);
    const char *t = text(&out);
    /* block style down to the depth limit, then one flow line */
    CHECK_CONTAINS(t, "v: 0\nnext:\n  v: 1\n  next:\n    v: 2\n");
    CHECK_CONTAINS(t, "next: {v: 64, next: {v: 65, next: {");
    CHECK_CONTAINS(t, "{v: 2999, next: null}}}");
    blobc_buffer_free(&blob);
    chain(900, &blob); /* the JSON reader stops at 1000 levels */
    CHECK_REBAKES(blob, s, BLOBC_DUMP_JSON, out);
    CHECK_CONTAINS(text(&out), "\"next\": {\"v\": 64, \"next\": {\"v\": 65, ");
    blobc_buffer_free(&blob);
    blobc_schema_free(s);
    /* a million levels (only the builder API makes them): no text would
     * bake back, so none is written, and the refusal costs no more than
     * the walk */
    chain(1000000, &blob);
    blobc_error err;
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_YAML, NULL, false, &out, &err), BLOBC_EINPUT);
    CHECK_CONTAINS(err.message, "deeper than the 10000 levels the bake reads");
    CHECK_EQ_U(out.len, 0);
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_JSON, NULL, false, &out, &err), BLOBC_EINPUT);
    CHECK_CONTAINS(err.message, "deeper than the 1000 levels the JSON bake reads: dump it as YAML");
    CHECK_EQ_U(out.len, 0);
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
}

/* D { a: *D; b: *D; v: u32 }: 40 levels, a and b of each at the next. */
static void dag(blobc_buffer *blob) {
    uint8_t d[12 * 40];
    for (int k = 0; k < 40; k++) {
        bool last = k == 39;
        blobc_st32(d + 12 * k, last ? 0 : 12);
        blobc_st32(d + 12 * k + 4, last ? 0 : 8);
        blobc_st32(d + 12 * k + 8, (uint32_t)k);
    }
    blobc_schema *s = fx_schema_parse("struct D { a: *D; b: *D; v: u32; } root D;");
    fx_blob(d, sizeof d, blobc_schema_root(s), false, blob);
    blobc_schema_free(s);
}

TEST(exploding_dag) {
    blobc_schema *s = fx_schema_parse("struct D { a: *D; b: *D; v: u32; } root D;");
    blobc_buffer blob = {0}, out = {0};
    dag(&blob);
    CHECK_REBAKES(blob, s, BLOBC_DUMP_YAML, out);
    const char *t = text(&out);
    CHECK_CONTAINS(t, "a: &a1\n  a: &a2\n");
    CHECK_CONTAINS(t, "b: *a1\nv: 0\n");
    if (out.len > 8000) FAILF("%zu bytes for 40 nodes", out.len);
    /* JSON would need 2^40 copies: refused, nothing written */
    blobc_error err;
    blobc_buf_puts(&out, "keep");
    size_t before = out.len;
    blobc_dump_options o = {0};
    o.format = BLOBC_DUMP_JSON;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_dump(blob.data, blob.len, &o, &out, &err), BLOBC_EINPUT);
    CHECK_EQ_I(err.code, BLOBC_V_BUDGET);
    CHECK_CONTAINS(err.message, "YAML");
    CHECK_EQ_U(out.len, before);
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
    blobc_schema_free(s);
}

/* What a writer was handed: the text, and its pieces. */
typedef struct text_sink {
    blobc_buffer text;
    size_t pieces, largest;
} text_sink;

static void sink_write(void *ctx, const void *bytes, size_t len) {
    text_sink *k = ctx;
    blobc_buf_append(&k->text, bytes, len);
    k->pieces++;
    if (len > k->largest) k->largest = len;
}

/* Given a writer, YAML and JSON go to it in pieces of at most 64 KiB, the
 * same text as without one; with shared payloads too (a first run then
 * looks for a failure), and a dump that fails hands it nothing. */
TEST(text_to_a_writer) {
    blobc_buffer blob = {0}, whole = {0}, out = {0}, dag_blob = {0};
    fx_level_blob(S, 3000, false, &blob);
    dag(&dag_blob);
    for (int f = 0; f < 2; f++) {
        blobc_dump_format fmt = f ? BLOBC_DUMP_JSON : BLOBC_DUMP_YAML;
        blobc_error err;
        CHECK_EQ_I(dump_as(&blob, fmt, NULL, false, &whole, &err), BLOBC_OK);
        text_sink k = {{0}, 0, 0};
        blobc_dump_options o = {0};
        o.format = fmt;
        o.write = sink_write;
        o.write_ctx = &k;
        blobc_buf_puts(&out, "kept");
        blobc_error_clear(&err);
        CHECK_EQ_I(blobc_dump(blob.data, blob.len, &o, &out, &err), BLOBC_OK);
        CHECK_EQ_U(out.len, 4); /* what was there stays; the rest went out */
        CHECK_EQ_U(k.text.len, whole.len);
        CHECK(memcmp(k.text.data, whole.data, whole.len) == 0);
        if (k.pieces < 4 || k.largest > 64 * 1024) FAILF("%zu pieces, the largest %zu bytes", k.pieces, k.largest);
        k.text.len = k.pieces = 0;
        blobc_error_clear(&err);
        blobc_status st = blobc_dump(dag_blob.data, dag_blob.len, &o, &out, &err);
        CHECK_EQ_I(st, f ? BLOBC_EINPUT : BLOBC_OK);
        if (f) CHECK_EQ_U(k.text.len, 0);
        else CHECK(k.text.len > 0 && k.text.len < 8000);
        CHECK_EQ_U(out.len, 4);
        out.len = 0;
        blobc_buffer_free(&k.text);
    }
    blobc_buffer_free(&blob);
    blobc_buffer_free(&dag_blob);
    blobc_buffer_free(&whole);
    blobc_buffer_free(&out);
}

static const char shapes_schema[] =
    "struct P { x: i16; }\n"
    "struct S {\n"
    "  p: *P; q: *P; arr: [P]; grid: [[u8]]; fixed: [[u16; 2]; 2]; ps: [*P]; sp: *string;\n"
    "  sp2: *string; s2: string; pa: *[u32]; pa2: *[u32]; fx: [P; 2];\n"
    "}\n"
    "root S;\n";

/* Shared *T targets, a *T and a [T] of one item on the same payload
 * (reachable through the builder API: the YAML shows a copy), nested
 * arrays, pointers to strings and to arrays, and sharing through them. */
TEST(shapes_rebake) {
    blobc_schema *s = fx_schema_parse(shapes_schema);
    const blobc_type *t = blobc_schema_root(s);
    blobc_builder *b = blobc_builder_new();
    uint8_t *r;
    CHECK_EQ_I(blobc_builder_root(b, t->size, t->align, (void **)&r), BLOBC_OK);
    blobc_ref p = fx_ptr(b, 0, fx_off(t, "p"), 2, 2);
    blobc_st16(fx_mem(b, p), 0xfffe);
    CHECK_EQ_I(blobc_builder_link(b, 0, fx_off(t, "q"), p), BLOBC_OK);
    blobc_ref g = fx_arr(b, 0, fx_off(t, "grid"), 3, 8, 4);
    blobc_ref g0 = fx_arr(b, g, 0, 2, 1, 1);
    fx_mem(b, g0)[1] = 9;
    CHECK_EQ_I(blobc_builder_link(b, g, 16, g0), BLOBC_OK); /* grid[2] shares grid[0] */
    blobc_st32(fx_mem(b, g) + 20, 2);
    r = fx_mem(b, 0);
    blobc_st16(r + fx_off(t, "fixed") + 6, 7);
    blobc_ref ps = fx_arr(b, 0, fx_off(t, "ps"), 2, 4, 4);
    CHECK_EQ_I(blobc_builder_link(b, ps, 4, p), BLOBC_OK); /* ps[1] is p */
    blobc_ref sp = fx_ptr(b, 0, fx_off(t, "sp"), 8, 4);
    blobc_ref str = fx_str(b, sp, 0, "pointed");
    CHECK_EQ_I(blobc_builder_link(b, 0, fx_off(t, "sp2"), sp), BLOBC_OK);
    fx_str_share(b, 0, fx_off(t, "s2"), str, 8);
    blobc_ref pa = fx_ptr(b, 0, fx_off(t, "pa"), 8, 4);
    blobc_ref items = fx_arr(b, pa, 0, 3, 4, 4);
    blobc_st32(fx_mem(b, items) + 8, 33);
    CHECK_EQ_I(blobc_builder_link(b, 0, fx_off(t, "pa2"), pa), BLOBC_OK);
    blobc_buffer img = {0}, blob = {0}, out = {0};
    fx_finish(b, &img);
    fx_blob(img.data, img.len, t, false, &blob);
    CHECK_REBAKES(blob, s, BLOBC_DUMP_YAML, out);
    const char *y = text(&out);
    CHECK_CONTAINS(y, "p: &a1\n  x: -2\nq: *a1\n");
    CHECK_CONTAINS(y, "grid:\n  - &a2 [0, 9]\n  - []\n  - *a2\n");
    CHECK_CONTAINS(y, "fixed:\n  - [0, 0]\n  - [0, 7]\n");
    CHECK_CONTAINS(y, "ps:\n  - null\n  - *a1\n");
    /* one anchor on the string node serves both the *string target
     * (sp2) and the string bytes (s2) */
    CHECK_CONTAINS(y, "sp: &a3 \"pointed\"\nsp2: *a3\ns2: *a3\n");
    CHECK_CONTAINS(y, "pa: &a4 [0, 0, 33]\npa2: *a4\n");
    char why[256];
    if (!yaml_loads(y, out.len, why, sizeof why)) FAILF("libyaml: %s", why);
    blobc_buffer_free(&img);
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
    blobc_schema_free(s);
}

TEST(ptr_and_array_on_one_payload) {
    blobc_schema *s = fx_schema_parse(shapes_schema);
    const blobc_type *t = blobc_schema_root(s);
    blobc_builder *b = blobc_builder_new();
    uint8_t *r;
    CHECK_EQ_I(blobc_builder_root(b, t->size, t->align, (void **)&r), BLOBC_OK);
    blobc_ref p = fx_ptr(b, 0, fx_off(t, "p"), 2, 2);
    blobc_st16(fx_mem(b, p), 5);
    CHECK_EQ_I(blobc_builder_link(b, 0, fx_off(t, "arr"), p), BLOBC_OK);
    blobc_st32(fx_mem(b, 0) + fx_off(t, "arr") + 4, 1);
    fx_str(b, 0, fx_off(t, "s2"), "");
    blobc_buffer img = {0}, blob = {0}, out = {0};
    fx_finish(b, &img);
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_verify_data(img.data, img.len, t, &err), BLOBC_OK);
    fx_blob(img.data, img.len, t, false, &blob);
    /* the second reference is an alias of the mapping; the bake links a
     * [T] to a *T's target as one item, so the bytes come back */
    CHECK_REBAKES(blob, s, BLOBC_DUMP_YAML, out);
    CHECK_CONTAINS(text(&out), "p: &a1\n  x: 5\nq: null\narr: *a1\n");
    blobc_buffer_free(&img);
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
    blobc_schema_free(s);
}

/* N { v: u8; p: *N; a: [N]; }: a chain of n nodes where each node's `a`
 * is its `p` target as a one-item array. */
static const char mixed_schema[] = "struct N { v: u8; p: *N; a: [N]; } root N;";

static void mixed_chain(size_t n, blobc_buffer *blob) {
    uint8_t *d = calloc(n, 16);
    for (size_t i = 0; i < n; i++) {
        d[16 * i] = (uint8_t)i;
        if (i + 1 == n) break;
        blobc_st32(d + 16 * i + 4, 12); /* p -> node i + 1 */
        blobc_st32(d + 16 * i + 8, 8);  /* a -> the same node, one item */
        blobc_st32(d + 16 * i + 12, 1);
    }
    blobc_schema *s = fx_schema_parse(mixed_schema);
    fx_blob(d, 16 * n, blobc_schema_root(s), false, blob);
    blobc_schema_free(s);
    free(d);
}

/* Whatever verify accepts, YAML dump prints in linear size: 3,000 nodes
 * whose *N and [N] share every payload dump as anchors and aliases (once
 * refused as "JSON cannot share"), and bake back to the same bytes. */
TEST(mixed_sharing_linear) {
    blobc_schema *s = fx_schema_parse(mixed_schema);
    blobc_buffer blob = {0}, out = {0};
    mixed_chain(3000, &blob);
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_verify_blob(blob.data, blob.len, NULL, &err), BLOBC_OK);
    CHECK_REBAKES(blob, s, BLOBC_DUMP_YAML, out);
    const char *t = text(&out);
    CHECK_CONTAINS(t, "v: 0\np: &a1\n  v: 1\n  p: &a2\n");
    CHECK_CONTAINS(t, "{v: 182, p: &a2999 {v: 183, p: null, a: []}, a: *a2999}, a: *a2998}");
    CHECK_CONTAINS(t, "\na: *a1\n");
    if (out.len > 8 * blob.len) FAILF("YAML of %zu bytes for a %zu-byte blob", out.len, blob.len);
    /* JSON cannot share: the copies would be quadratic, so it stops at
     * its budget with a message that names JSON (900 levels: JSON is read
     * to 1000) */
    blobc_buffer_free(&blob);
    mixed_chain(900, &blob);
    blobc_dump_options o = {0};
    o.format = BLOBC_DUMP_JSON;
    out.len = 0;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_dump(blob.data, blob.len, &o, &out, &err), BLOBC_EINPUT);
    CHECK_EQ_I(err.code, BLOBC_V_BUDGET);
    CHECK_CONTAINS(err.message, "JSON cannot share");
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
    blobc_schema_free(s);
}

/* ---- inputs: raw, stripped, invalid ---- */

TEST(raw_and_stripped) {
    blobc_buffer img = {0}, blob = {0}, out = {0};
    fx_level(S, 2, &img);
    blobc_error err;
    CHECK_EQ_I(dump_as(&img, BLOBC_DUMP_YAML, S, true, &out, &err), BLOBC_OK);
    /* raw data records no schema name: the schema's own file name */
    CHECK(strncmp(text(&out), "$type: Level\n$schema: \"fixture.schema\"\nindex: -7\n", 48) == 0);
    fx_blob(img.data, img.len, LV, true, &blob);
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_YAML, NULL, false, &out, &err), BLOBC_EINPUT);
    CHECK_EQ_I(err.code, BLOBC_V_NO_TYPES);
    CHECK_EQ_U(out.len, 0);
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_YAML, S, false, &out, &err), BLOBC_OK);
    CHECK(strncmp(text(&out), "$type: Level\n$schema: \"fixture.schema\"\n", 39) == 0);
    blobc_dump_options o = {0};
    o.schema = S;
    o.schema_name = "other/name.schema";
    out.len = 0;
    CHECK_EQ_I(blobc_dump(blob.data, blob.len, &o, &out, &err), BLOBC_OK);
    CHECK(strncmp(text(&out), "$type: Level\n$schema: \"other/name.schema\"\n", 42) == 0);
    blobc_buffer_free(&img);
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
}

TEST(invalid_prints_nothing) {
    blobc_buffer img = {0}, blob = {0}, out = {0};
    fx_level(S, 3, &img);
    size_t lit = blobc_ld32(img.data + fx_off(LV, "rooms")) + fx_off(LV, "rooms") +
                 fx_off(fx_type(S, "Room"), "lit");
    img.data[lit] = 7;
    fx_blob(img.data, img.len, LV, false, &blob);
    blobc_error err;
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_YAML, NULL, false, &out, &err), BLOBC_EINPUT);
    CHECK_EQ_I(err.code, BLOBC_V_BOOL);
    CHECK_EQ_U(out.len, 0);
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_JSON, NULL, false, &out, &err), BLOBC_EINPUT);
    CHECK_EQ_U(out.len, 0);
    /* the map shows it up to the failure and marks the byte */
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_MAP, NULL, false, &out, &err), BLOBC_EINPUT);
    CHECK_EQ_I(err.code, BLOBC_V_BOOL);
    CHECK_STR(err.path, "rooms[0].lit");
    const char *m = text(&out);
    char want[160];
    snprintf(want, sizeof want, "0x%08zx       1  07", (size_t)BLOBC_HEADER_SIZE + lit);
    CHECK_CONTAINS(m, want);
    CHECK_CONTAINS(m, "rooms[0].lit: bool = 7 (not a bool)   <-- bool: bool byte is 7, not 0 or 1\n");
    CHECK_CONTAINS(m, "## verification failed at ");
    CHECK_CONTAINS(m, "(rooms[0].lit): bool: ");
    CHECK(!strstr(m, "## types"));
    blobc_buffer_free(&img);
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
}

TEST(map_header_failure) {
    blobc_buffer blob = {0}, out = {0};
    fx_level_blob(S, 1, false, &blob);
    blob.data[0] = 'X';
    blobc_error err;
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_MAP, NULL, false, &out, &err), BLOBC_EINPUT);
    CHECK_EQ_I(err.code, BLOBC_V_BAD_MAGIC);
    const char *m = text(&out);
    CHECK_CONTAINS(m, "0x00000000       8  58 42 4c 4f 42 43 0d 0a");
    CHECK_CONTAINS(m, "header.magic = \"XBLOBC\\x0d\\n\"");
    CHECK_CONTAINS(m, "## verification failed: bad-magic: ");
    CHECK(!strstr(m, "## data"));
    /* a file cut inside the header: the fields that are there */
    blob.data[0] = 0x89;
    blob.len = 20;
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_MAP, NULL, false, &out, &err), BLOBC_EINPUT);
    m = text(&out);
    CHECK_CONTAINS(m, "header.header_size = 96");
    CHECK_CONTAINS(m, "(file ends at 20 bytes)");
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
}

TEST(map_valid) {
    blobc_buffer blob = {0}, out = {0};
    fx_level_blob(S, 5, false, &blob);
    blobc_error err;
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_MAP, NULL, false, &out, &err), BLOBC_OK);
    const char *m = text(&out);
    CHECK_CONTAINS(m, "0x00000000       8  89 42 4c 4f 42 43 0d 0a                            header.magic");
    CHECK_CONTAINS(m, "0x00000060      32                                                     (root): Level\n");
    CHECK_CONTAINS(m, "0x00000060       4  f9 ff ff ff                                        index: i32 = -7\n");
    CHECK_CONTAINS(m, "0x00000064       8  1c 00 00 00 0e 00 00 00                            name: string -> 0x00000080, 14 bytes\n");
    CHECK_CONTAINS(m, "0x00000080      14  43 61 73 74 6c 65 20 22 4b 65 65 70 22 00          name: string bytes = \"Castle \\\"Keep\\\"\"\n");
    CHECK_CONTAINS(m, "0x0000008e       2  00 00                                              (gap)\n");
    CHECK_CONTAINS(m, "rooms[0]: (padding)\n");
    CHECK_CONTAINS(m, "rooms[2].meta: *RoomMeta target\n");
    CHECK_CONTAINS(m, "rooms[2].meta.note: string bytes = \"note\\twith\\ttabs\"\n");
    CHECK_CONTAINS(m, "rooms[4].tags[1]: string -> ");
    CHECK_CONTAINS(m, "(shared)");
    CHECK_CONTAINS(m, "## types: ");
    CHECK_CONTAINS(m, "struct Room: size 72, align 4, 11 fields\n");
    /* every data line's offset is in increasing order: file order */
    unsigned long long last = 0;
    for (const char *p = strstr(m, "## data"); p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, "0x", 2) != 0) {
            if (strncmp(p, "## types", 8) == 0) break;
            continue;
        }
        unsigned long long at = strtoull(p, NULL, 16);
        if (at < last) FAILF("offset 0x%llx after 0x%llx", at, last);
        last = at;
    }
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
}

TEST(map_deep_chain_paths_bounded) {
    blobc_buffer blob = {0}, out = {0};
    chain(200000, &blob);
    blobc_error err;
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_MAP, NULL, false, &out, &err), BLOBC_OK);
    /* three lines of at most ~230 bytes per node, paths cut short */
    if (out.len > 700 * 200000) FAILF("map of a 200k chain is %zu bytes", out.len);
    CHECK_CONTAINS(text(&out), "...next.next");
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
}

/* The size report: its tables sum to the file; a deep chain stays in
 * --depth rows (no row per node); a bad blob gives the walk's error and
 * no output; an out-of-range depth is clamped. */
TEST(size_report) {
    blobc_buffer blob = {0}, out = {0};
    fx_level_blob(S, 5, false, &blob);
    blobc_error err;
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_SIZE, NULL, false, &out, &err), BLOBC_OK);
    char want[64];
    snprintf(want, sizeof want, "%10zu   100.0%%  total\n", blob.len);
    CHECK_CONTAINS(text(&out), want);
    CHECK_CONTAINS(text(&out), "  rooms[].tags");
    blobc_dump_options o = {0};
    o.format = BLOBC_DUMP_SIZE_JSON;
    o.size_depth = 1000;
    out.len = 0;
    CHECK_EQ_I(blobc_dump(blob.data, blob.len, &o, &out, &err), BLOBC_OK);
    CHECK_CONTAINS(text(&out), "\"depth\":\t64,");
    blobc_buffer_free(&blob);
    chain(200000, &blob);
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_SIZE, NULL, false, &out, &err), BLOBC_OK);
    if (out.len > 4000) FAILF("size report of a 200k chain is %zu bytes", out.len);
    CHECK_CONTAINS(text(&out), "  next.next.next\n");
    blob.data[blob.len - 200] ^= 0x40; /* the data hash no longer matches */
    CHECK_EQ_I(dump_as(&blob, BLOBC_DUMP_SIZE, NULL, false, &out, &err), BLOBC_EINPUT);
    CHECK_EQ_U(out.len, 0);
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
}

typedef struct map_sink {
    size_t total, pieces, largest;
    bool tail_seen;
} map_sink;

/* Pieces end at line ends: a line is never split between two. */
static void map_write(void *ctx, const void *bytes, size_t len) {
    static const char want[] = "  ...n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.v: u8 = 31\n";
    map_sink *k = ctx;
    const char *p = bytes;
    k->total += len;
    k->pieces++;
    if (len > k->largest) k->largest = len;
    for (size_t i = 0; i + sizeof want - 1 <= len; i++)
        if (p[i] == ' ' && memcmp(p + i, want, sizeof want - 1) == 0) k->tail_seen = true;
    if (len && p[len - 1] != '\n') k->tail_seen = false, k->pieces = 0; /* split line: fail */
}

/* Inline structs nested as deep as a schema allows (S0 { v: u8; n: S1; }
 * ... S9999 { v: u8; }): whole paths made the map quadratic (800 MB for
 * 20,000 levels). Each line shows a path's last 80 bytes, and the map goes
 * to the writer in pieces as it is made. */
TEST(map_deep_inline_nesting_linear) {
    enum { N = BLOBC_MAX_NESTING };
    size_t cap = (size_t)N * 48 + 64, o = 0;
    char *t = malloc(cap);
    uint8_t *d = malloc(N);
    if (!t || !d) FAILF("out of memory");
    for (int i = 0; i < N - 1; i++) o += (size_t)snprintf(t + o, cap - o, "struct S%d { v: u8; n: S%d; }\n", i, i + 1);
    o += (size_t)snprintf(t + o, cap - o, "struct S%d { v: u8; }\nroot S0;\n", N - 1);
    for (int i = 0; i < N; i++) d[i] = (uint8_t)i;
    blobc_schema *s = fx_schema_parse(t);
    blobc_buffer blob = {0}, out = {0};
    fx_blob(d, N, blobc_schema_root(s), false, &blob);
    free(t);
    free(d);
    blobc_schema_free(s);
    map_sink k = {0, 0, 0, false};
    blobc_dump_options mo = {0};
    mo.format = BLOBC_DUMP_MAP;
    mo.write = map_write;
    mo.write_ctx = &k;
    blobc_error err;
    blobc_status st = blobc_dump(blob.data, blob.len, &mo, &out, &err);
    size_t left = out.len;
    blobc_buffer_free(&blob);
    blobc_buffer_free(&out);
    CHECK_EQ_I(st, BLOBC_OK);
    CHECK_EQ_U(left, 0); /* all of it went to the writer */
    /* two lines of at most ~200 bytes per level, and the type section */
    if (k.total > 500 * (size_t)N) FAILF("map of %d levels is %zu bytes", N, k.total);
    if (k.pieces < 10 || k.largest > 80 * 1024) FAILF("%zu pieces, the largest %zu bytes", k.pieces, k.largest);
    CHECK(k.tail_seen);
}

/* Property: whatever verifies, dumps, and baking the dump gives the same
 * bytes. Random byte changes to a valid level (deterministic) mostly fail
 * verification; the ones that pass (new values, mostly) must round-trip. */
TEST(mutations_that_verify_rebake) {
    blobc_buffer img = {0}, out = {0}, again = {0};
    fx_level(S, 9, &img);
    uint8_t *c = malloc(img.len);
    uint64_t seed = 0x2545f4914f6cdd1dull;
    int passed = 0, failed = 0;
    for (int round = 0; round < 3000; round++) {
        memcpy(c, img.data, img.len);
        int flips = 1 + round % 3;
        for (int k = 0; k < flips; k++) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            c[(seed >> 8) % img.len] = (uint8_t)(seed >> 40);
        }
        blobc_error err;
        blobc_error_clear(&err);
        if (blobc_verify_data(c, img.len, LV, &err) != BLOBC_OK) {
            if (err.code == 0) FAILF("round %d: failure without a code: %s", round, err.message);
            failed++;
            continue;
        }
        passed++;
        blobc_dump_options o = {0};
        o.schema = S;
        o.raw = true;
        out.len = 0;
        if (blobc_dump(c, img.len, &o, &out, &err) != BLOBC_OK)
            FAILF("round %d: verified but dump failed: %s", round, err.message);
        blobc_bake_options bo = {0};
        bo.schema = S;
        bo.output = BLOBC_OUTPUT_RAW;
        blobc_error_clear(&err);
        if (blobc_bake_memory((const char *)out.data, out.len, "m.yaml", &bo, &again, &err) !=
            BLOBC_OK)
            FAILF("round %d: re-bake: %s\n%s", round, err.message, text(&out));
        if (again.len != img.len || memcmp(again.data, c, img.len) != 0)
            FAILF("round %d: re-baked bytes differ", round);
    }
    /* both outcomes must have happened for the test to mean anything */
    if (passed < 100 || failed < 100) FAILF("passed %d, failed %d", passed, failed);
    free(c);
    blobc_buffer_free(&img);
    blobc_buffer_free(&out);
    blobc_buffer_free(&again);
}

TEST_MAIN_BEGIN("dump")
    S = fx_schema_parse(fx_schema_text);
    LV = fx_type(S, "Level");
    RUN(yaml_exact);
    RUN(yaml_quotes_bool_like_names);
    RUN(json_exact_and_rebakes);
    RUN(yaml_rebakes_with_sharing);
    RUN(json_copies_shared);
    RUN(scalars_yaml_to_the_bit);
    RUN(scalars_json_to_the_bit);
    RUN(deep_chain_flow_and_linear);
    RUN(exploding_dag);
    RUN(text_to_a_writer);
    RUN(shapes_rebake);
    RUN(ptr_and_array_on_one_payload);
    RUN(mixed_sharing_linear);
    RUN(raw_and_stripped);
    RUN(invalid_prints_nothing);
    RUN(map_header_failure);
    RUN(map_valid);
    RUN(map_deep_chain_paths_bounded);
    RUN(size_report);
    RUN(map_deep_inline_nesting_linear);
    RUN(mutations_that_verify_rebake);
    blobc_schema_free(S);
TEST_MAIN_END
