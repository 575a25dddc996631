/*
 * test_bake.c - baking YAML and JSON: every value read back through C
 * structs that mirror a test schema, YAML and JSON (and any key order)
 * giving the same bytes, alias sharing and replay, the alias budget, and
 * every class of error with its exact message, position and path. Also
 * runs the bad-data corpus in tests/bad/data (NAME.yaml/NAME.json with the
 * expected first error line in NAME.expect).
 */
#include <dirent.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/buffer.h"

#include "blobc/blobc.h"
#include "common/scalar.h"
#include "test.h"

static const char schema_text[] =
    "enum Kind : u8 { floor, wall, door = 5, stairs }\n"
    "enum Team : i16 { none = -1, red, blue }\n"
    "struct Vec3 { x: f32; y: f32; z: f32; }\n"
    "struct Meta { note: string; n: u32 = 7; }\n"
    "struct All {\n"
    "  b: bool; i8v: i8; u8v: u8; i16v: i16; u16v: u16;\n"
    "  i32v: i32; u32v: u32; i64v: i64; u64v: u64;\n"
    "  f32v: f32; f64v: f64;\n"
    "  kind: Kind = wall; team: Team = red;\n"
    "  name: string; dname: string = \"dflt\"; dnum: u16 = 300; df: f32 = 1.5;\n"
    "  pos: Vec3; w: [f32; 4]; ids: [u32]; tags: [string];\n"
    "  meta: *Meta; meta2: *Meta; grid: [[u32]]; ptrs: [*Meta]; pts: [Vec3];\n"
    "}\n"
    "struct N { k: [N]; }\n"
    "struct Bomb { n: [N]; }\n"
    "struct Deep { c: [Deep]; }\n"
    "struct Floats { a: [f32]; b: [f64]; }\n"
    "root All;\n";

/* The C view of All (the schema's layout follows the C rules). */
typedef struct {
    int32_t off;
    int32_t len;
} Arr;
typedef struct {
    float x, y, z;
} CVec3;
typedef struct {
    Arr note;
    uint32_t n;
} CMeta;
typedef struct {
    uint8_t b;
    int8_t i8v;
    uint8_t u8v;
    int16_t i16v;
    uint16_t u16v;
    int32_t i32v;
    uint32_t u32v;
    int64_t i64v;
    uint64_t u64v;
    float f32v;
    double f64v;
    uint8_t kind;
    int16_t team;
    Arr name;
    Arr dname;
    uint16_t dnum;
    float df;
    CVec3 pos;
    float w[4];
    Arr ids;
    Arr tags;
    int32_t meta;
    int32_t meta2;
    Arr grid;
    Arr ptrs;
    Arr pts;
} CAll;

static blobc_schema *g_schema;

static const blobc_schema *schema(void) {
    if (!g_schema) {
        blobc_error err;
        blobc_error_clear(&err);
        if (blobc_schema_parse(schema_text, sizeof schema_text - 1, "t.schema", &g_schema, &err)) {
            char m[2048];
            blobc_error_format(&err, m, sizeof m);
            printf("FAIL bake.schema: the test schema does not parse: %s\n", m);
            exit(1);
        }
    }
    return g_schema;
}

/* ---- baking helpers ---- */

static blobc_error g_err;
static char g_msg[4096];

/* Bakes text (raw data section) with the test schema; type NULL = root. */
static blobc_status bake_as(const char *text, const char *filename, const char *type,
                            blobc_buffer *out) {
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    o.schema = schema();
    o.type_name = type;
    o.output = BLOBC_OUTPUT_RAW;
    blobc_error_clear(&g_err);
    blobc_status st = blobc_bake_memory(text, strlen(text), filename, &o, out, &g_err);
    g_msg[0] = '\0';
    if (st) blobc_error_format(&g_err, g_msg, sizeof g_msg);
    return st;
}

/* The first line of the formatted error of baking text (or "ok"). */
static const char *first_error(const char *text, const char *filename) {
    blobc_buffer out = {0};
    blobc_status st = bake_as(text, filename, NULL, &out);
    bool empty = out.len == 0;
    blobc_buffer_free(&out);
    if (st == BLOBC_OK) return "ok";
    if (!empty) return "output not empty after an error";
    char *nl = strchr(g_msg, '\n');
    if (nl) *nl = '\0';
    return g_msg;
}

/* ---- reading the baked bytes ---- */

static const uint8_t *g_base;
static size_t g_size;

/* Data offset of the target of the offset field at `at`, -1 when null,
 * -2 when out of bounds. */
static long target(size_t at) {
    if (at + 4 > g_size) return -2;
    int32_t o;
    memcpy(&o, g_base + at, 4);
    if (o == 0) return -1;
    long t = (long)at + o;
    if (t < 0 || (size_t)t >= g_size) return -2;
    return t;
}

static int32_t length_at(size_t at) {
    int32_t n;
    memcpy(&n, g_base + at + 4, 4);
    return n;
}

/* The string whose {offset, length} is at `at`, or "<bad>". */
static const char *str_at(size_t at) {
    long t = target(at);
    int32_t n = length_at(at);
    if (t < 0 || n < 1 || (size_t)t + (size_t)n > g_size) return "<bad>";
    const char *s = (const char *)g_base + t;
    if (s[n - 1] != '\0' || strlen(s) != (size_t)n - 1) return "<bad>";
    return s;
}

static uint32_t u32_at(size_t at) {
    uint32_t v;
    memcpy(&v, g_base + at, 4);
    return v;
}

static uint32_t f32_bits(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static uint64_t f64_bits(double d) {
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

#define FIELD(f) offsetof(CAll, f)

/* ---- the documents ---- */

static const char values_yaml[] =
    "b: true\n"
    "i8v: -128\n"
    "u8v: 255\n"
    "i16v: -32768\n"
    "u16v: 65535\n"
    "i32v: -2147483648\n"
    "u32v: 4294967295\n"
    "i64v: -9223372036854775808\n"
    "u64v: 18446744073709551615\n"
    "f32v: 3.4028235e38\n"
    "f64v: -2.5e-300\n"
    "kind: door\n"
    "team: none\n"
    "name: \"h\xc3\xa9llo\"\n"
    "pos: {x: 1.5, y: -2, z: .inf}\n"
    "w: [1, 2.5, -0.0, .nan]\n"
    "ids: [10, 0x20, 0b11, 0o17, 1_000]\n"
    "tags: [a, \"\", \"\xc3\xa7\"]\n"
    "meta: {note: hi}\n"
    "grid: [[1, 2], [], [3]]\n"
    "ptrs: [{note: x, n: 9}, null, ~]\n"
    "pts: [{x: 1, y: 2, z: 3}]\n";

static const char values_json[] =
    "{\"b\": true, \"i8v\": -128, \"u8v\": 255, \"i16v\": -32768, \"u16v\": 65535,\n"
    " \"i32v\": -2147483648, \"u32v\": 4294967295, \"i64v\": -9223372036854775808,\n"
    " \"u64v\": 18446744073709551615, \"f32v\": 3.4028235e38, \"f64v\": -2.5e-300,\n"
    " \"kind\": \"door\", \"team\": \"none\", \"name\": \"h\\u00e9llo\",\n"
    " \"pos\": {\"x\": 1.5, \"y\": -2, \"z\": \"inf\"}, \"w\": [1, 2.5, -0.0, \"nan\"],\n"
    " \"ids\": [10, 32, 3, 15, 1000], \"tags\": [\"a\", \"\", \"\xc3\xa7\"],\n"
    " \"meta\": {\"note\": \"hi\"}, \"grid\": [[1, 2], [], [3]],\n"
    " \"ptrs\": [{\"note\": \"x\", \"n\": 9}, null, null], \"pts\": [{\"x\": 1, \"y\": 2, \"z\": 3}]}\n";

/* values_yaml with the keys in reverse order. */
static const char values_yaml_reversed[] =
    "pts: [{z: 3, y: 2, x: 1}]\n"
    "ptrs: [{n: 9, note: x}, null, ~]\n"
    "grid: [[1, 2], [], [3]]\n"
    "meta: {note: hi}\n"
    "tags: [a, \"\", \"\xc3\xa7\"]\n"
    "ids: [10, 0x20, 0b11, 0o17, 1_000]\n"
    "w: [1, 2.5, -0.0, .nan]\n"
    "pos: {z: .inf, y: -2, x: 1.5}\n"
    "name: \"h\xc3\xa9llo\"\n"
    "team: none\n"
    "kind: door\n"
    "f64v: -2.5e-300\n"
    "f32v: 3.4028235e38\n"
    "u64v: 18446744073709551615\n"
    "i64v: -9223372036854775808\n"
    "u32v: 4294967295\n"
    "i32v: -2147483648\n"
    "u16v: 65535\n"
    "i16v: -32768\n"
    "u8v: 255\n"
    "i8v: -128\n"
    "b: true\n";

TEST(layout_matches_c) {
    const blobc_type *t = blobc_schema_root(schema());
    CHECK(t);
    CHECK_EQ_U(t->size, sizeof(CAll));
    CHECK_EQ_U(t->align, _Alignof(CAll));
#define OFF(f) CHECK_EQ_U(blobc_struct_find_field(t, #f, strlen(#f))->offset, offsetof(CAll, f))
    OFF(b); OFF(i8v); OFF(u8v); OFF(i16v); OFF(u16v); OFF(i32v); OFF(u32v); OFF(i64v);
    OFF(u64v); OFF(f32v); OFF(f64v); OFF(kind); OFF(team); OFF(name); OFF(dname); OFF(dnum);
    OFF(df); OFF(pos); OFF(w); OFF(ids); OFF(tags); OFF(meta); OFF(meta2); OFF(grid);
    OFF(ptrs); OFF(pts);
#undef OFF
}

TEST(values_read_back) {
    blobc_buffer out = {0};
    if (bake_as(values_yaml, "v.yaml", NULL, &out)) FAILF("%s", g_msg);
    g_base = out.data;
    g_size = out.len;
    CHECK_EQ_U((uintptr_t)out.data % 16, 0);
    CAll a;
    CHECK(out.len >= sizeof a);
    memcpy(&a, out.data, sizeof a);
    CHECK_EQ_U(a.b, 1);
    CHECK_EQ_I(a.i8v, -128);
    CHECK_EQ_U(a.u8v, 255);
    CHECK_EQ_I(a.i16v, -32768);
    CHECK_EQ_U(a.u16v, 65535);
    CHECK_EQ_I(a.i32v, INT32_MIN);
    CHECK_EQ_U(a.u32v, UINT32_MAX);
    CHECK_EQ_I(a.i64v, INT64_MIN);
    CHECK_EQ_U(a.u64v, UINT64_MAX);
    CHECK_EQ_U(f32_bits(a.f32v), 0x7f7fffffu);
    CHECK_EQ_U(f64_bits(a.f64v), f64_bits(-2.5e-300));
    CHECK_EQ_U(a.kind, 5);
    CHECK_EQ_I(a.team, -1);
    CHECK_STR(str_at(FIELD(name)), "h\xc3\xa9llo");
    CHECK_EQ_I(a.name.len, 7);
    /* defaults */
    CHECK_STR(str_at(FIELD(dname)), "dflt");
    CHECK_EQ_U(a.dnum, 300);
    CHECK_EQ_U(f32_bits(a.df), f32_bits(1.5f));
    /* nested struct, fixed array, specials */
    CHECK_EQ_U(f32_bits(a.pos.x), f32_bits(1.5f));
    CHECK_EQ_U(f32_bits(a.pos.y), f32_bits(-2.0f));
    CHECK_EQ_U(f32_bits(a.pos.z), 0x7f800000u);
    CHECK_EQ_U(f32_bits(a.w[0]), f32_bits(1.0f));
    CHECK_EQ_U(f32_bits(a.w[1]), f32_bits(2.5f));
    CHECK_EQ_U(f32_bits(a.w[2]), 0x80000000u);
    CHECK_EQ_U(f32_bits(a.w[3]), 0x7fc00000u);
    /* [u32] */
    CHECK_EQ_I(a.ids.len, 5);
    long ids = target(FIELD(ids));
    CHECK(ids > 0 && ids % 4 == 0);
    static const uint32_t want_ids[] = {10, 32, 3, 15, 1000};
    for (int i = 0; i < 5; i++) CHECK_EQ_U(u32_at((size_t)ids + 4u * (size_t)i), want_ids[i]);
    /* [string], the empty string has length 1 */
    CHECK_EQ_I(a.tags.len, 3);
    long tags = target(FIELD(tags));
    CHECK(tags > 0);
    CHECK_STR(str_at((size_t)tags), "a");
    CHECK_STR(str_at((size_t)tags + 8), "");
    CHECK_EQ_I(length_at((size_t)tags + 8), 1);
    CHECK_STR(str_at((size_t)tags + 16), "\xc3\xa7");
    /* *T non-null with a default inside, and null */
    long meta = target(FIELD(meta));
    CHECK(meta > 0);
    CHECK_STR(str_at((size_t)meta + offsetof(CMeta, note)), "hi");
    CHECK_EQ_U(u32_at((size_t)meta + offsetof(CMeta, n)), 7);
    CHECK_EQ_I(target(FIELD(meta2)), -1);
    /* [[u32]]: the empty inner array is offset 0, length 0 */
    CHECK_EQ_I(a.grid.len, 3);
    long grid = target(FIELD(grid));
    CHECK(grid > 0);
    CHECK_EQ_I(length_at((size_t)grid), 2);
    long g0 = target((size_t)grid);
    CHECK(g0 > 0);
    CHECK_EQ_U(u32_at((size_t)g0), 1);
    CHECK_EQ_U(u32_at((size_t)g0 + 4), 2);
    CHECK_EQ_I(target((size_t)grid + 8), -1);
    CHECK_EQ_I(length_at((size_t)grid + 8), 0);
    long g2 = target((size_t)grid + 16);
    CHECK(g2 > 0);
    CHECK_EQ_I(length_at((size_t)grid + 16), 1);
    CHECK_EQ_U(u32_at((size_t)g2), 3);
    /* [*Meta] with nulls */
    CHECK_EQ_I(a.ptrs.len, 3);
    long ptrs = target(FIELD(ptrs));
    CHECK(ptrs > 0);
    long p0 = target((size_t)ptrs);
    CHECK(p0 > 0);
    CHECK_STR(str_at((size_t)p0), "x");
    CHECK_EQ_U(u32_at((size_t)p0 + 8), 9);
    CHECK_EQ_I(target((size_t)ptrs + 4), -1);
    CHECK_EQ_I(target((size_t)ptrs + 8), -1);
    /* [Vec3] */
    CHECK_EQ_I(a.pts.len, 1);
    long pts = target(FIELD(pts));
    CHECK(pts > 0);
    CVec3 v;
    memcpy(&v, out.data + pts, sizeof v);
    CHECK(v.x == 1 && v.y == 2 && v.z == 3);
    blobc_error verr;
    blobc_error_clear(&verr);
    CHECK_EQ_I(blobc_verify_data(out.data, out.len, blobc_schema_root(schema()), &verr), BLOBC_OK);
    blobc_buffer_free(&out);
}

static bool same_bytes(const blobc_buffer *a, const blobc_buffer *b) {
    return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

TEST(yaml_json_and_key_order_give_same_bytes) {
    blobc_buffer y = {0}, j = {0}, r = {0}, y2 = {0};
    if (bake_as(values_yaml, "v.yaml", NULL, &y)) FAILF("yaml: %s", g_msg);
    if (bake_as(values_json, "v.json", NULL, &j)) FAILF("json: %s", g_msg);
    if (bake_as(values_yaml_reversed, "r.yaml", NULL, &r)) FAILF("reversed: %s", g_msg);
    if (bake_as(values_yaml, "v.yaml", NULL, &y2)) FAILF("twice: %s", g_msg);
    CHECK(same_bytes(&y, &j));
    CHECK(same_bytes(&y, &r));
    CHECK(same_bytes(&y, &y2));
    blobc_buffer_free(&y);
    blobc_buffer_free(&j);
    blobc_buffer_free(&r);
    blobc_buffer_free(&y2);
}

/* A document with every required field; `over` replaces one line (by key)
 * or, when its key is new, is appended. */
static const char *const base_keys[] = {"b", "i8v", "u8v", "i16v", "u16v", "i32v", "u32v",
                                        "i64v", "u64v", "f32v", "f64v", "name", "pos", "w"};
static const char *const base_vals[] = {"false", "0", "0", "0", "0", "0", "0", "0", "0",
                                        "0", "0", "n", "{x: 0, y: 0, z: 0}", "[0, 0, 0, 0]"};
static const char *const base_jvals[] = {"false", "0", "0", "0", "0", "0", "0",
                                         "0", "0", "0", "0", "\"n\"",
                                         "{\"x\": 0, \"y\": 0, \"z\": 0}", "[0, 0, 0, 0]"};
#define NBASE (sizeof base_keys / sizeof base_keys[0])

static char g_doc[8192];

static const char *ydoc(const char *key, const char *val) {
    size_t o = 0;
    bool used = false;
    for (size_t i = 0; i < NBASE; i++) {
        const char *v = base_vals[i];
        if (key && strcmp(key, base_keys[i]) == 0) {
            v = val;
            used = true;
        }
        o += (size_t)snprintf(g_doc + o, sizeof g_doc - o, "%s: %s\n", base_keys[i], v);
    }
    if (key && !used) snprintf(g_doc + o, sizeof g_doc - o, "%s: %s\n", key, val);
    return g_doc;
}

/* One member per line, on line i + 2. */
static const char *jdoc(const char *key, const char *val) {
    size_t o = (size_t)snprintf(g_doc, sizeof g_doc, "{\n");
    bool used = false;
    for (size_t i = 0; i < NBASE; i++) {
        const char *v = base_jvals[i];
        if (key && strcmp(key, base_keys[i]) == 0) {
            v = val;
            used = true;
        }
        o += (size_t)snprintf(g_doc + o, sizeof g_doc - o, "\"%s\": %s%s\n", base_keys[i], v,
                              i + 1 < NBASE || (key && !used) ? "," : "");
    }
    if (key && !used) o += (size_t)snprintf(g_doc + o, sizeof g_doc - o, "\"%s\": %s\n", key, val);
    snprintf(g_doc + o, sizeof g_doc - o, "}\n");
    return g_doc;
}

#define YERR(key, val, want) CHECK_STR(first_error(ydoc(key, val), "t.yaml"), want)
#define JERR(key, val, want) CHECK_STR(first_error(jdoc(key, val), "t.json"), want)

TEST(base_documents_bake) {
    CHECK_STR(first_error(ydoc(NULL, NULL), "t.yaml"), "ok");
    CHECK_STR(first_error(jdoc(NULL, NULL), "t.json"), "ok");
}

TEST(integer_ranges_yaml) {
    YERR("i8v", "-129", "t.yaml:2:6: i8v: error: expected an integer in i8 range -128..127, got \"-129\"");
    YERR("i8v", "128", "t.yaml:2:6: i8v: error: expected an integer in i8 range -128..127, got \"128\"");
    YERR("u8v", "256", "t.yaml:3:6: u8v: error: expected an integer in u8 range 0..255, got \"256\"");
    YERR("u8v", "-1", "t.yaml:3:6: u8v: error: expected an integer in u8 range 0..255, got \"-1\"");
    YERR("i16v", "32768", "t.yaml:4:7: i16v: error: expected an integer in i16 range -32768..32767, got \"32768\"");
    YERR("u16v", "65536", "t.yaml:5:7: u16v: error: expected an integer in u16 range 0..65535, got \"65536\"");
    YERR("i32v", "-2147483649", "t.yaml:6:7: i32v: error: expected an integer in i32 range -2147483648..2147483647, got \"-2147483649\"");
    YERR("u32v", "4294967296", "t.yaml:7:7: u32v: error: expected an integer in u32 range 0..4294967295, got \"4294967296\"");
    YERR("i64v", "-9223372036854775809", "t.yaml:8:7: i64v: error: expected an integer in i64 range -9223372036854775808..9223372036854775807, got \"-9223372036854775809\"");
    YERR("i64v", "9223372036854775808", "t.yaml:8:7: i64v: error: expected an integer in i64 range -9223372036854775808..9223372036854775807, got \"9223372036854775808\"");
    YERR("u64v", "18446744073709551616", "t.yaml:9:7: u64v: error: expected an integer in u64 range 0..18446744073709551615, got \"18446744073709551616\"");
    YERR("u64v", "0x1_0000_0000_0000_0000", "t.yaml:9:7: u64v: error: expected an integer in u64 range 0..18446744073709551615, got \"0x1_0000_0000_0000_0000\"");
}

TEST(integer_ranges_json) {
    JERR("i8v", "-129", "t.json:3:8: /i8v: error: expected an integer in i8 range -128..127, got \"-129\"");
    JERR("u8v", "256", "t.json:4:8: /u8v: error: expected an integer in u8 range 0..255, got \"256\"");
    JERR("i16v", "-32769", "t.json:5:9: /i16v: error: expected an integer in i16 range -32768..32767, got \"-32769\"");
    JERR("u16v", "-1", "t.json:6:9: /u16v: error: expected an integer in u16 range 0..65535, got \"-1\"");
    JERR("i32v", "2147483648", "t.json:7:9: /i32v: error: expected an integer in i32 range -2147483648..2147483647, got \"2147483648\"");
    JERR("u32v", "4294967296", "t.json:8:9: /u32v: error: expected an integer in u32 range 0..4294967295, got \"4294967296\"");
    JERR("i64v", "-9223372036854775809", "t.json:9:9: /i64v: error: expected an integer in i64 range -9223372036854775808..9223372036854775807, got \"-9223372036854775809\"");
    JERR("u64v", "18446744073709551616", "t.json:10:9: /u64v: error: expected an integer in u64 range 0..18446744073709551615, got \"18446744073709551616\"");
}

/* Integers past 2^53 come from the source text, not cJSON's double. */
TEST(json_big_integers_exact) {
    blobc_buffer out = {0};
    static const struct {
        const char *key, *text;
        size_t off;
        uint64_t want;
    } cases[] = {
        {"u64v", "18446744073709551615", offsetof(CAll, u64v), UINT64_MAX},
        {"u64v", "9007199254740993", offsetof(CAll, u64v), 9007199254740993ull},
        {"i64v", "-9007199254740993", offsetof(CAll, i64v), (uint64_t)-9007199254740993ll},
        {"i64v", "9223372036854775807", offsetof(CAll, i64v), (uint64_t)INT64_MAX},
        {"i64v", "-9223372036854775808", offsetof(CAll, i64v), (uint64_t)INT64_MIN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (bake_as(jdoc(cases[i].key, cases[i].text), "t.json", NULL, &out)) FAILF("%s", g_msg);
        uint64_t v;
        memcpy(&v, out.data + cases[i].off, 8);
        CHECK_EQ_U(v, cases[i].want);
    }
    blobc_buffer_free(&out);
}

TEST(value_kind_errors_yaml) {
    YERR("i32v", "1.5", "t.yaml:6:7: i32v: error: expected an integer in i32 range -2147483648..2147483647, got \"1.5\"");
    YERR("i32v", "\"12\"", "t.yaml:6:7: i32v: error: expected an integer in i32 range -2147483648..2147483647, got a quoted string \"12\"");
    YERR("i32v", "{a: 1}", "t.yaml:6:7: i32v: error: expected an integer in i32 range -2147483648..2147483647, got a mapping");
    YERR("i32v", "[1]", "t.yaml:6:7: i32v: error: expected an integer in i32 range -2147483648..2147483647, got a sequence");
    YERR("i32v", "012", "t.yaml:6:7: i32v: error: expected an integer in i32 range -2147483648..2147483647, got \"012\"");
    YERR("f32v", "3.5e38", "t.yaml:10:7: f32v: error: expected f32, got \"3.5e38\" (out of f32 range)");
    YERR("f64v", "1e309", "t.yaml:11:7: f64v: error: expected f64, got \"1e309\" (out of f64 range)");
    YERR("f32v", "'1.0'", "t.yaml:10:7: f32v: error: expected a number (f32), got a quoted string \"1.0\"");
    YERR("b", "yes", "t.yaml:1:4: b: error: expected true or false, got \"yes\"");
    YERR("b", "True", "t.yaml:1:4: b: error: expected true or false, got \"True\"");
    YERR("b", "\"true\"", "t.yaml:1:4: b: error: expected true or false, got a quoted string \"true\"");
    YERR("kind", "wal", "t.yaml:15:7: kind: error: unknown member \"wal\" of enum Kind; did you mean \"wall\"?");
    YERR("kind", "zzzzzz", "t.yaml:15:7: kind: error: unknown member \"zzzzzz\" of enum Kind (members: floor, wall, door, stairs)");
    YERR("kind", "5", "t.yaml:15:7: kind: error: unknown member \"5\" of enum Kind (members: floor, wall, door, stairs)");
    YERR("pos", "5", "t.yaml:13:6: pos: error: expected a mapping (struct Vec3), got \"5\"");
    YERR("pos", "[1, 2, 3]", "t.yaml:13:6: pos: error: expected a mapping (struct Vec3), got a sequence");
    YERR("pos", "", "t.yaml:13:5: pos: error: expected a mapping (struct Vec3), got an empty value");
    YERR("w", "[1, 2, 3]", "t.yaml:14:4: w: error: expected exactly 4 items for [f32; 4], got 3");
    YERR("w", "[1, 2, 3, 4, 5]", "t.yaml:14:17: w: error: too many items for [f32; 4]: it takes exactly 4");
    YERR("w", "{a: 1}", "t.yaml:14:4: w: error: expected a sequence of 4 items ([f32; 4]), got a mapping");
    YERR("ids", "7", "t.yaml:15:6: ids: error: expected a sequence ([u32]), got \"7\"");
    YERR("meta", "[1]", "t.yaml:15:7: meta: error: expected a mapping (struct Meta), got a sequence");
    YERR("meta", "{note: x, n: -1}", "t.yaml:15:20: meta.n: error: expected an integer in u32 range 0..4294967295, got \"-1\"");
    YERR("grid", "[[1], [2, x]]", "t.yaml:15:17: grid[1][1]: error: expected an integer in u32 range 0..4294967295, got \"x\"");
    YERR("ptrs", "[{note: a}, {note: [b]}]", "t.yaml:15:26: ptrs[1].note: error: expected a string, got a sequence");
}

TEST(value_kind_errors_json) {
    JERR("i32v", "1.5", "t.json:7:9: /i32v: error: expected an integer in i32 range -2147483648..2147483647, got \"1.5\"");
    JERR("i32v", "\"12\"", "t.json:7:9: /i32v: error: expected an integer in i32 range -2147483648..2147483647, got the string \"12\"");
    JERR("i32v", "1e3", "t.json:7:9: /i32v: error: expected an integer in i32 range -2147483648..2147483647, got \"1e3\"");
    JERR("i32v", "01", "t.json:7:9: /i32v: error: invalid JSON number \"01\"");
    JERR("i32v", "true", "t.json:7:9: /i32v: error: expected an integer in i32 range -2147483648..2147483647, got true");
    JERR("f32v", "3.5e38", "t.json:11:9: /f32v: error: expected f32, got \"3.5e38\" (out of f32 range)");
    JERR("f32v", "1.", "t.json:11:9: /f32v: error: invalid JSON number \"1.\"");
    JERR("f32v", "\"Infinity\"", "t.json:11:9: /f32v: error: expected a number (f32), got the string \"Infinity\" (JSON writes infinities and NaN as the strings \"inf\", \"-inf\" and \"nan\")");
    JERR("b", "1", "t.json:2:6: /b: error: expected true or false, got the number 1");
    JERR("b", "\"true\"", "t.json:2:6: /b: error: expected true or false, got the string \"true\"");
    JERR("kind", "5", "t.json:16:9: /kind: error: expected a member name of enum Kind, got the number 5");
    JERR("kind", "\"Wall\"", "t.json:16:9: /kind: error: unknown member \"Wall\" of enum Kind; did you mean \"wall\"?");
    JERR("name", "null", "t.json:13:9: /name: error: expected a string, got null");
    JERR("pos", "[1]", "t.json:14:8: /pos: error: expected an object (struct Vec3), got an array");
    JERR("w", "[1, 2, 3]", "t.json:15:6: /w: error: expected exactly 4 items for [f32; 4], got 3");
    JERR("ids", "{}", "t.json:16:8: /ids: error: expected an array ([u32]), got an object");
    JERR("grid", "[[1], [2, \"x\"]]", "t.json:16:19: /grid/1/1: error: expected an integer in u32 range 0..4294967295, got the string \"x\"");
}

TEST(strings) {
    blobc_buffer out = {0};
    /* The schema decides: a string field takes any scalar's text. */
    static const struct {
        const char *doc_val;
        int json;
        const char *want;
    } cases[] = {
        {"123", 0, "123"},   {"1.50", 0, "1.50"}, {"true", 0, "true"}, {"null", 0, "null"},
        {"", 0, ""},         {"'x: y'", 0, "x: y"}, {"\"tab\\there\"", 0, "tab\there"},
        {"123", 1, "123"},   {"1.50", 1, "1.50"}, {"false", 1, "false"},
        {"\"\\ud83d\\ude00\"", 1, "\xf0\x9f\x98\x80"}, {"\"a\\/b\\\\\"", 1, "a/b\\"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *doc = cases[i].json ? jdoc("name", cases[i].doc_val) : ydoc("name", cases[i].doc_val);
        if (bake_as(doc, cases[i].json ? "t.json" : "t.yaml", NULL, &out))
            FAILF("case %zu: %s", i, g_msg);
        g_base = out.data;
        g_size = out.len;
        CHECK_STR(str_at(FIELD(name)), cases[i].want);
    }
    blobc_buffer_free(&out);
    YERR("name", "\"a\\0b\"", "t.yaml:12:7: name: error: a string cannot contain a NUL character (U+0000)");
    JERR("name", "\"a\\u0000b\"", "t.json:13:9: /name: error: a string cannot contain a NUL character (U+0000)");
    JERR("name", "\"a\xff\"", "t.json:13:9: /name: error: invalid UTF-8 in a string");
    JERR("name", "\"a\tb\"", "t.json:13:9: /name: error: invalid JSON: a control character in a string must be escaped");
    JERR("name", "\"\\ud800\"", "t.json:13:10: error: invalid JSON: a high surrogate \\uD800 in a string without its low half");
    JERR("name", "\"\\x\"", "t.json:13:10: error: invalid JSON: bad escape sequence '\\x' in a string");
    CHECK_STR(first_error("{\"name\": \"abc", "t.json"), "t.json:1:10: error: invalid JSON: unterminated string");
}

TEST(floats_round_once) {
    blobc_buffer out = {0};
    /* Just above the midpoint between 1 and the next float: as a double it
     * rounds to the midpoint, and rounding that to f32 again would give 1. */
    static const char *const texts[] = {"1.0000000596046447753906251", "0.1", "1e-45", "-0.0",
                                        "3.4028235677973366e38", "1.17549435e-38"};
    static const uint32_t want[] = {0x3f800001u, 0x3dcccccdu, 0x00000001u, 0x80000000u,
                                    0x7f7fffffu, 0x00800000u};
    for (int json = 0; json < 2; json++) {
        for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
            const char *doc = json ? jdoc("f32v", texts[i]) : ydoc("f32v", texts[i]);
            if (bake_as(doc, json ? "t.json" : "t.yaml", NULL, &out))
                FAILF("%s %s: %s", json ? "json" : "yaml", texts[i], g_msg);
            uint32_t bits;
            memcpy(&bits, out.data + FIELD(f32v), 4);
            if (bits != want[i])
                FAILF("%s %s: got 0x%08x, want 0x%08x", json ? "json" : "yaml", texts[i], bits,
                      want[i]);
        }
    }
    if (bake_as(jdoc("f64v", "\"-inf\""), "t.json", NULL, &out)) FAILF("%s", g_msg);
    double d;
    memcpy(&d, out.data + FIELD(f64v), 8);
    CHECK(isinf(d) && d < 0);
    blobc_buffer_free(&out);
}

/* Random decimals through both front ends agree bit for bit with
 * blobc_parse_float (strtof/strtod rounding), whatever shortcut a front
 * end takes. */
TEST(floats_match_the_scalar_parser) {
    enum { N = 4000 };
    static char texts[N][40];
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < N; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t r = seed >> 11;
        int idig = 1 + (int)(r % 9), fdig = (int)((r >> 4) % 12);
        size_t o = 0;
        if (r & 0x100000) texts[i][o++] = '-';
        for (int d = 0; d < idig; d++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            char c = (char)('0' + (seed >> 33) % 10);
            if (d == 0 && idig > 1 && c == '0') c = '1';
            texts[i][o++] = c;
        }
        if (fdig) {
            texts[i][o++] = '.';
            for (int d = 0; d < fdig; d++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                texts[i][o++] = (char)('0' + (seed >> 33) % 10);
            }
        }
        if ((r >> 8) % 16 == 0) o += (size_t)snprintf(texts[i] + o, 40 - o, "e%d", (int)((r >> 12) % 56) - 30);
        texts[i][o] = '\0';
    }
    size_t cap = (size_t)N * 2 * 44 + 64;
    char *y = malloc(cap), *j = malloc(cap);
    CHECK(y && j);
    size_t yo = (size_t)snprintf(y, cap, "a: [");
    size_t jo = (size_t)snprintf(j, cap, "{\"a\": [");
    for (int i = 0; i < N; i++) {
        yo += (size_t)snprintf(y + yo, cap - yo, "%s%s", i ? ", " : "", texts[i]);
        jo += (size_t)snprintf(j + jo, cap - jo, "%s%s", i ? ", " : "", texts[i]);
    }
    yo += (size_t)snprintf(y + yo, cap - yo, "]\nb: [");
    jo += (size_t)snprintf(j + jo, cap - jo, "], \"b\": [");
    for (int i = 0; i < N; i++) {
        yo += (size_t)snprintf(y + yo, cap - yo, "%s%s", i ? ", " : "", texts[i]);
        jo += (size_t)snprintf(j + jo, cap - jo, "%s%s", i ? ", " : "", texts[i]);
    }
    snprintf(y + yo, cap - yo, "]\n");
    snprintf(j + jo, cap - jo, "]}");
    blobc_buffer out = {0};
    for (int json = 0; json < 2; json++) {
        if (bake_as(json ? j : y, json ? "f.json" : "f.yaml", "Floats", &out)) {
            free(y);
            free(j);
            FAILF("%s: %s", json ? "json" : "yaml", g_msg);
        }
        int32_t a_off, b_off;
        memcpy(&a_off, out.data, 4);
        memcpy(&b_off, out.data + 8, 4);
        const uint8_t *a = out.data + a_off, *b = out.data + 8 + b_off;
        for (int i = 0; i < N; i++) {
            double want32, want64;
            char msg[200];
            size_t n = strlen(texts[i]);
            if (!blobc_parse_float(texts[i], n, BLOBC_KIND_F32, BLOBC_SYNTAX_JSON, &want32, msg, sizeof msg) ||
                !blobc_parse_float(texts[i], n, BLOBC_KIND_F64, BLOBC_SYNTAX_JSON, &want64, msg, sizeof msg))
                FAILF("%s does not parse: %s", texts[i], msg);
            float f;
            double d;
            memcpy(&f, a + 4 * i, 4);
            memcpy(&d, b + 8 * i, 8);
            if (f32_bits(f) != f32_bits((float)want32) || f64_bits(d) != f64_bits(want64))
                FAILF("%s %s: got %a / %a, want %a / %a", json ? "json" : "yaml", texts[i], (double)f, d, want32, want64);
        }
    }
    free(y);
    free(j);
    blobc_buffer_free(&out);
}

TEST(struct_errors) {
    YERR("nmae", "x", "t.yaml:15:1: nmae: error: unknown field \"nmae\" in struct All; did you mean \"name\"?");
    YERR("zzz", "x", "t.yaml:15:1: zzz: error: unknown field \"zzz\" in struct All (fields: b, i8v, u8v, i16v, u16v, i32v, u32v, i64v, u64v, f32v, f64v, kind, ...)");
    YERR("$shema", "x", "t.yaml:15:1: $shema: error: unknown field \"$shema\" in struct All; did you mean \"$schema\"?");
    YERR("meta", "{note: x, nn: 1}", "t.yaml:15:17: meta.nn: error: unknown field \"nn\" in struct Meta; did you mean \"n\"?");
    YERR("meta", "{note: x, $type: 1}", "t.yaml:15:17: meta.$type: error: unknown field \"$type\" in struct Meta ($schema and $type are only allowed at the top level)");
    YERR("meta", "{note: x, note: y}", "t.yaml:15:17: meta.note: error: duplicate field \"note\" in struct Meta");
    YERR("meta", "{n: 1}", "t.yaml:15:7: meta: error: missing field \"note\" (string) in struct Meta");
    YERR("pos", "{x: 1}", "t.yaml:13:6: pos: error: missing fields \"y\", \"z\" in struct Vec3");
    YERR("meta", "{<<: 5, note: a}", "t.yaml:15:12: meta: error: a merge key (<<) takes an alias of a mapping (<<: *base) or a sequence of them (<<: [*a, *b]), got a scalar");
    YERR("meta", "{? [a] : 1}", "t.yaml:15:10: meta: error: a mapping key must be a scalar, got a sequence");
    YERR("$type", "All", "t.yaml:15:1: $type: error: \"$type\" must come before the first data key");
    /* tags are read, not obeyed: the schema decides */
    CHECK_STR(first_error(ydoc("name", "!!str x"), "t.yaml"), "ok");
    CHECK_STR(first_error("b: true\nb: false\n", "t.yaml"),
              "t.yaml:2:1: b: error: duplicate field \"b\" in struct All");
    CHECK_STR(first_error("{\"b\": true, \"b\": false}", "t.json"),
              "t.json:1:13: /b: error: duplicate field \"b\" in struct All");
    JERR("meta", "{\"note\": \"x\", \"note\": \"y\"}", "t.json:16:23: /meta/note: error: duplicate field \"note\" in struct Meta");
    JERR("nmae", "1", "t.json:16:1: /nmae: error: unknown field \"nmae\" in struct All; did you mean \"name\"?");
    JERR("meta", "{\"n\": 1}", "t.json:16:9: /meta: error: missing field \"note\" (string) in struct Meta");
    JERR("a/b~", "1", "t.json:16:1: /a~1b~0: error: unknown field \"a/b~\" in struct All (fields: b, i8v, u8v, i16v, u16v, i32v, u32v, i64v, u64v, f32v, f64v, kind, ...)");
    CHECK_STR(first_error("b: true\n", "t.yaml"),
              "t.yaml:1:1: error: missing fields \"i8v\", \"u8v\", \"i16v\", \"u16v\", \"i32v\", \"u32v\", \"i64v\", \"u64v\", \"f32v\", \"f64v\", \"name\", \"pos\", \"w\" in struct All");
}

TEST(empty_arrays_and_null_pointers) {
    blobc_buffer out = {0};
    static const char *const vals[] = {"[]", "null", "~", ""};
    for (size_t i = 0; i < 4; i++) {
        char doc[8192];
        snprintf(doc, sizeof doc, "%smeta2: %s\n", ydoc("ids", vals[i]), i ? vals[i] : "null");
        if (bake_as(doc, "t.yaml", NULL, &out)) FAILF("%s", g_msg);
        CAll a;
        memcpy(&a, out.data, sizeof a);
        CHECK_EQ_I(a.ids.off, 0);
        CHECK_EQ_I(a.ids.len, 0);
        CHECK_EQ_I(a.meta2, 0);
        CHECK_EQ_U(out.len, sizeof(CAll) + 2 + 5); /* only "n" and "dflt" follow the root */
    }
    if (bake_as(jdoc("ids", "null"), "t.json", NULL, &out)) FAILF("%s", g_msg);
    CHECK_EQ_U(out.len, sizeof(CAll) + 2 + 5);
    /* A *T to an empty array is not null. */
    YERR("pos", "null", "t.yaml:13:6: pos: error: expected a mapping (struct Vec3), got \"null\"");
    blobc_buffer_free(&out);
}

TEST(alias_shares_out_of_line_payloads) {
    static const char doc[] =
        "b: false\ni8v: 0\nu8v: 0\ni16v: 0\nu16v: 0\ni32v: 0\nu32v: 0\ni64v: 0\nu64v: 0\n"
        "f32v: 0\nf64v: 0\nw: [0, 0, 0, 0]\n"
        "name: &n shared\n"
        "tags: [*n, other, *n]\n"
        "meta: &m {note: *n}\n"
        "meta2: *m\n"
        "ptrs: [*m, {note: y}]\n"
        "ids: &i [1, 2, 3]\n"
        "grid: [*i, [4], *i]\n"
        "pts: [&p {x: 1, y: 2, z: 3}, *p]\n"
        "pos: *p\n";
    blobc_buffer out = {0};
    if (bake_as(doc, "s.yaml", NULL, &out)) FAILF("%s", g_msg);
    g_base = out.data;
    g_size = out.len;
    long name = target(FIELD(name));
    CHECK(name > 0);
    long tags = target(FIELD(tags));
    CHECK(tags > 0);
    CHECK_EQ_I(target((size_t)tags), name);
    CHECK_EQ_I(target((size_t)tags + 16), name);
    CHECK(target((size_t)tags + 8) != name);
    long meta = target(FIELD(meta));
    CHECK(meta > 0);
    CHECK_EQ_I(target(FIELD(meta2)), meta);
    CHECK_EQ_I(target((size_t)meta), name);
    long ptrs = target(FIELD(ptrs));
    CHECK_EQ_I(target((size_t)ptrs), meta);
    long ids = target(FIELD(ids));
    long grid = target(FIELD(grid));
    CHECK_EQ_I(target((size_t)grid), ids);
    CHECK_EQ_I(length_at((size_t)grid), 3);
    CHECK_EQ_I(target((size_t)grid + 16), ids);
    CHECK(target((size_t)grid + 8) != ids);
    /* An inline value is copied. */
    long pts = target(FIELD(pts));
    CVec3 p0, p1, pos;
    memcpy(&p0, out.data + pts, sizeof p0);
    memcpy(&p1, out.data + pts + 12, sizeof p1);
    memcpy(&pos, out.data + FIELD(pos), sizeof pos);
    CHECK(p0.x == 1 && p0.y == 2 && p0.z == 3);
    CHECK(memcmp(&p0, &p1, sizeof p0) == 0 && memcmp(&p0, &pos, sizeof p0) == 0);
    /* "shared" stored once: the data ends right after the last payload. */
    size_t count = 0;
    for (size_t i = 0; i + 7 <= out.len; i++)
        if (memcmp(out.data + i, "shared", 7) == 0) count++;
    CHECK_EQ_U(count, 1);
    blobc_error verr;
    blobc_error_clear(&verr);
    CHECK_EQ_I(blobc_verify_data(out.data, out.len, blobc_schema_root(schema()), &verr), BLOBC_OK);
    blobc_buffer_free(&out);
}

/* An alias used where another type is expected is replayed, and nested
 * anchors inside a replayed value still share. */
TEST(alias_replay_across_types) {
    static const char doc[] =
        "b: false\ni8v: 0\nu8v: 0\ni16v: 0\nu16v: 0\ni32v: 0\nu32v: 0\ni64v: 0\nu64v: 0\n"
        "f32v: 0\nf64v: 0\nname: n\npos: {x: 0, y: 0, z: 0}\n"
        "w: &four [1, 2, 3, 4]\n"
        "ids: *four\n"
        "meta: {note: x}\n"
        "ptrs: [&pm {note: &s deep}, *pm]\n"
        "tags: [*s]\n";
    blobc_buffer out = {0};
    if (bake_as(doc, "r.yaml", NULL, &out)) FAILF("%s", g_msg);
    g_base = out.data;
    g_size = out.len;
    CAll a;
    memcpy(&a, out.data, sizeof a);
    CHECK(a.w[0] == 1 && a.w[3] == 4);
    long ids = target(FIELD(ids));
    CHECK_EQ_I(a.ids.len, 4);
    CHECK_EQ_U(u32_at((size_t)ids + 12), 4);
    long ptrs = target(FIELD(ptrs));
    long p0 = target((size_t)ptrs), p1 = target((size_t)ptrs + 4);
    CHECK(p0 > 0 && p0 == p1);
    long tags = target(FIELD(tags));
    CHECK_EQ_I(target((size_t)tags), target((size_t)p0));
    CHECK_STR(str_at((size_t)tags), "deep");
    /* Errors inside a replay point at the alias and say so. */
    CHECK_STR(first_error("i8v: &big 300\nu8v: 1\nb: *big\n", "t.yaml"),
              "t.yaml:1:6: i8v: error: expected an integer in i8 range -128..127, got \"300\"");
    CHECK_STR(first_error("pos: &v {x: 1, y: 2, z: 3}\nmeta: *v\n", "t.yaml"),
              "t.yaml:2:7: meta.x: error: unknown field \"x\" in struct Meta (fields: note, n) "
              "(in the value of alias *v, anchored at t.yaml:1:6)");
    blobc_buffer_free(&out);
}

TEST(alias_errors) {
    CHECK_STR(first_error("name: *nope\n", "t.yaml"),
              "t.yaml:1:7: name: error: alias *nope refers to no anchor (an anchor &nope must come before it)");
    CHECK_STR(first_error("pts: &p [{x: 1, y: 2, z: 3}, *p]\n", "t.yaml"),
              "t.yaml:1:30: pts[0]: error: alias *p is inside the node anchored as &p (a recursive alias)");
    CHECK_STR(first_error("&r {b: *r}\n", "t.yaml"),
              "t.yaml:1:8: b: error: alias *r is inside the node anchored as &r (a recursive alias)");
}

/* 10^8 inline copies if expanded: refused quickly by the replay budget. */
TEST(billion_laughs_refused) {
    char doc[4096];
    size_t o = (size_t)snprintf(doc, sizeof doc, "n:\n  - &a {k: []}\n");
    for (char c = 'b'; c <= 'i'; c++) {
        o += (size_t)snprintf(doc + o, sizeof doc - o, "  - &%c {k: [", c);
        for (int i = 0; i < 10; i++)
            o += (size_t)snprintf(doc + o, sizeof doc - o, "%s*%c", i ? ", " : "", c - 1);
        o += (size_t)snprintf(doc + o, sizeof doc - o, "]}\n");
    }
    clock_t t0 = clock();
    blobc_buffer out = {0};
    CHECK_EQ_I(bake_as(doc, "lol.yaml", "Bomb", &out), BLOBC_EINPUT);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    CHECK_CONTAINS(g_msg, "error: aliases expand to more than 1001424 events (16 times the document's own events, plus 1000000): refusing to expand further");
    CHECK_EQ_U(out.len, 0);
    if (secs > 5) FAILF("took %.1f s", secs);
    /* The same shape, smaller, is fine: 1 + 10 + 100 + 1000 N's under n[3]. */
    o = (size_t)snprintf(doc, sizeof doc, "n:\n  - &a {k: []}\n");
    for (char c = 'b'; c <= 'd'; c++) {
        o += (size_t)snprintf(doc + o, sizeof doc - o, "  - &%c {k: [", c);
        for (int i = 0; i < 10; i++)
            o += (size_t)snprintf(doc + o, sizeof doc - o, "%s*%c", i ? ", " : "", c - 1);
        o += (size_t)snprintf(doc + o, sizeof doc - o, "]}\n");
    }
    if (bake_as(doc, "lol.yaml", "Bomb", &out)) FAILF("%s", g_msg);
    /* root (8) + n's 4 items (32) + every N of the tree is 8 bytes. */
    CHECK_EQ_U(out.len, 8 + 32 + 8 * (10 + 110 + 1110));
    blobc_buffer_free(&out);
}

TEST(nesting_limit) {
    /* Deep flow text runs into the flow budget long before 10000 levels,
     * so the limit is reached through aliases: anchor k holds 50 levels
     * around an alias of anchor k - 1, and baking it nests 50 * k deep. */
    size_t anchors = 210, per = 50;
    size_t cap = anchors * (per * 12 + 64) + 64;
    char *doc = malloc(cap);
    CHECK(doc);
    size_t o = (size_t)snprintf(doc, cap, "c:\n");
    for (size_t k = 1; k <= anchors; k++) {
        o += (size_t)snprintf(doc + o, cap - o, "  - &l%zu {c: [", k);
        for (size_t i = 1; i < per; i++) o += (size_t)snprintf(doc + o, cap - o, "{c: [");
        if (k > 1) o += (size_t)snprintf(doc + o, cap - o, "*l%zu", k - 1);
        for (size_t i = 0; i < per; i++) o += (size_t)snprintf(doc + o, cap - o, "]}");
        o += (size_t)snprintf(doc + o, cap - o, "\n");
    }
    blobc_buffer out = {0};
    blobc_status st = bake_as(doc, "deep.yaml", "Deep", &out);
    free(doc);
    CHECK_EQ_I(st, BLOBC_EINPUT);
    CHECK_CONTAINS(g_msg, "error: nesting is deeper than 10000 levels");
    /* A deep but allowed tree bakes. */
    size_t levels = 1000;
    cap = levels * 12 + 64;
    doc = malloc(cap);
    CHECK(doc);
    o = (size_t)snprintf(doc, cap, "c: ");
    for (size_t i = 0; i < levels; i++) o += (size_t)snprintf(doc + o, cap - o, "[{c: ");
    o += (size_t)snprintf(doc + o, cap - o, "[]");
    for (size_t i = 0; i < levels; i++) o += (size_t)snprintf(doc + o, cap - o, "}]");
    st = bake_as(doc, "deep.yaml", "Deep", &out);
    free(doc);
    if (st) FAILF("%s", g_msg);
    CHECK_EQ_U(out.len, 8 + 8 * levels);
    blobc_buffer_free(&out);
    char json[4000];
    o = (size_t)snprintf(json, sizeof json, "{\"b\": ");
    for (int i = 0; i < 1100; i++) json[o++] = '[';
    json[o] = '\0';
    CHECK_STR(first_error(json, "deep.json"), "deep.json:1:1006: error: invalid JSON: nesting is deeper than 1000 levels");
}

TEST(syntax_errors) {
    CHECK_STR(first_error("b: true\nname: \"abc\n", "t.yaml"),
              "t.yaml:3:1: error: invalid YAML: found unexpected end of stream (while scanning a quoted scalar at t.yaml:2:7)");
    CHECK_STR(first_error("b: true\n- x\n", "t.yaml"),
              "t.yaml:2:1: error: invalid YAML: did not find expected key (while parsing a block mapping at t.yaml:1:1)");
    CHECK_STR(first_error("b: true\nname: x\n\tu8v: 1\n", "t.yaml"),
              "t.yaml:3:1: error: invalid YAML: found a tab character that violates indentation (while scanning a plain scalar at t.yaml:2:7)");
    CHECK_STR(first_error("{\n\"b\": true\n\"i8v\": 1}\n", "t.json"),
              "t.json:3:1: error: invalid JSON: expected ',' or '}' after an object member, got '\"'");
    CHECK_STR(first_error("{\"b\": tru}", "t.json"), "t.json:1:7: error: invalid JSON: invalid literal (expected true)");
    CHECK_STR(first_error("{\"b\": true", "t.json"), "t.json:1:11: error: invalid JSON: unexpected end of input");
    char trail[8192];
    snprintf(trail, sizeof trail, "%s x", jdoc(NULL, NULL));
    CHECK_STR(first_error(trail, "t.json"),
              "t.json:17:2: error: invalid JSON: more text after the top-level value");
    /* A syntax error goes first: the text after the object, not the
     * missing fields before it. */
    CHECK_STR(first_error("{\"b\": true} x", "t.json"),
              "t.json:1:13: error: invalid JSON: more text after the top-level value");
    CHECK_STR(first_error("{\"b\": tr\xc3\xa9}", "t.json"),
              "t.json:1:7: error: invalid JSON: invalid literal (expected true)");
    char two[8192];
    snprintf(two, sizeof two, "%s---\nb: false\n", ydoc(NULL, NULL));
    CHECK_STR(first_error(two, "t.yaml"),
              "t.yaml:15:1: error: a second YAML document: a data file holds one document (a @stream root takes many)");
    CHECK_STR(first_error("", "t.yaml"), "t.yaml:1:1: error: no data: expected a mapping holding the root struct's fields");
    CHECK_STR(first_error("- 1\n", "t.yaml"), "t.yaml:1:1: error: the top level must be a mapping holding the root struct's fields, got a sequence");
    CHECK_STR(first_error("[1]", "t.json"), "t.json:1:1: error: the top level is an array, which only a @stream root takes; All is not one (expected an object holding its fields)");
    CHECK_STR(first_error("b: \"\xff\"\n", "t.yaml"), "t.yaml:1:5: error: invalid YAML: invalid leading UTF-8 octet (byte 0xff)");
    /* The error names the line with the problem. */
    blobc_buffer out = {0};
    bake_as("b: true\n- x\n", "t.yaml", NULL, &out);
    CHECK_STR(g_err.source_line, "- x");
    CHECK_STR(g_err.path, "");
    bake_as(jdoc("u8v", "300"), "t.json", NULL, &out);
    CHECK_STR(g_err.source_line, "\"u8v\": 300,");
    CHECK_STR(g_err.path, "/u8v");
    CHECK_EQ_U(g_err.line, 4);
    CHECK_EQ_U(g_err.column, 8);
}

/* ---- files, meta keys, options ---- */

static char g_dir[256];

static void write_file(const char *rel, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", g_dir, rel);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static const char *path_of(const char *rel) {
    static char path[4][512];
    static int i;
    i = (i + 1) % 4;
    snprintf(path[i], sizeof path[i], "%s/%s", g_dir, rel);
    return path[i];
}

static blobc_status bake_file(const char *rel, const blobc_bake_options *o, blobc_buffer *out) {
    blobc_error_clear(&g_err);
    blobc_status st = blobc_bake_file(path_of(rel), o, out, &g_err);
    g_msg[0] = '\0';
    if (st) {
        blobc_error_format(&g_err, g_msg, sizeof g_msg);
        char *nl = strchr(g_msg, '\n');
        if (nl) *nl = '\0';
    }
    return st;
}

static void make_dir(void) {
    snprintf(g_dir, sizeof g_dir, "/tmp/blobc-test-bake-XXXXXX");
    if (!test_mkdtemp(g_dir)) {
        printf("FAIL bake.setup: mkdtemp\n");
        exit(1);
    }
    char sub[512];
    snprintf(sub, sizeof sub, "%s/sub", g_dir);
    blobc_os_mkdir(sub);
    write_file("s.schema", schema_text);
    write_file("small.schema", "struct P { x: u8; name: string = \"p\"; } struct Q { y: i8; } root P;\n");
}

TEST(schema_and_type_from_the_data) {
    blobc_buffer out = {0};
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    write_file("sub/a.yaml", "$schema: ../small.schema\nx: 7\n");
    if (bake_file("sub/a.yaml", &o, &out)) FAILF("%s", g_msg);
    blobc_blob blob;
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_blob_open(out.data, out.len, 0, &blob, &err), BLOBC_OK);
    CHECK_STR(blob.schema_name, "../small.schema");
    CHECK_EQ_U(blob.data_size, 14); /* x, padding, name, "p\0" */
    CHECK_EQ_U(blob.data[0], 7);
    CHECK(blob.root && strcmp(blob.root->name, "P") == 0);
    blobc_blob_close(&blob);

    write_file("sub/b.json", "{\"$type\": \"Q\", \"y\": -3, \"$schema\": \"../small.schema\"}");
    o.output = BLOBC_OUTPUT_RAW;
    if (bake_file("sub/b.json", &o, &out)) FAILF("%s", g_msg);
    CHECK_EQ_U(out.len, 1);
    CHECK_EQ_U(out.data[0], 0xfd);

    /* -t overrides $type, -s overrides $schema (which then is not read). */
    write_file("sub/c.yaml", "$schema: missing.schema\n$type: P\ny: 5\n");
    o.schema_path = path_of("small.schema");
    o.type_name = "Q";
    if (bake_file("sub/c.yaml", &o, &out)) FAILF("%s", g_msg);
    CHECK_EQ_U(out.len, 1);
    CHECK_EQ_U(out.data[0], 5);
    /* The recorded schema name: the data's $schema, else the -s path. */
    o.output = BLOBC_OUTPUT_BLOB;
    if (bake_file("sub/c.yaml", &o, &out)) FAILF("%s", g_msg);
    CHECK_EQ_I(blobc_blob_open(out.data, out.len, 0, &blob, &err), BLOBC_OK);
    CHECK_STR(blob.schema_name, "missing.schema");
    blobc_blob_close(&blob);
    write_file("sub/c2.yaml", "y: 5\n");
    if (bake_file("sub/c2.yaml", &o, &out)) FAILF("%s", g_msg);
    CHECK_EQ_I(blobc_blob_open(out.data, out.len, 0, &blob, &err), BLOBC_OK);
    CHECK_STR(blob.schema_name, path_of("small.schema"));
    blobc_blob_close(&blob);
    o.output = BLOBC_OUTPUT_RAW;
    o.schema_path = NULL;
    o.type_name = NULL;

    /* Errors about the meta keys. */
    CHECK_EQ_I(bake_file("sub/c.yaml", &o, &out), BLOBC_EIO);
    char want[1024];
    snprintf(want, sizeof want,
             "%s:1:10: $schema: error: cannot load the schema named by $schema: cannot open "
             "'%s/sub/missing.schema': No such file or directory",
             path_of("sub/c.yaml"), g_dir);
    CHECK_STR(g_msg, want);
    CHECK_EQ_U(out.len, 0);
    write_file("sub/d.yaml", "$schema: ../small.schema\n$type: Pp\nx: 1\n");
    CHECK_EQ_I(bake_file("sub/d.yaml", &o, &out), BLOBC_EINPUT);
    CHECK_CONTAINS(g_msg, "d.yaml:2:8: $type: error: unknown type \"Pp\" (from $type) in schema ");
    CHECK_CONTAINS(g_msg, "small.schema; did you mean \"P\"?");
    write_file("sub/e.yaml", "x: 1\n");
    CHECK_EQ_I(bake_file("sub/e.yaml", &o, &out), BLOBC_EINPUT);
    CHECK_CONTAINS(g_msg, "e.yaml:1:1: error: no schema: put \"$schema: PATH\" at the top of the data, or pass -s SCHEMA");
    write_file("sub/f.yaml", "$schema: [a]\n");
    CHECK_EQ_I(bake_file("sub/f.yaml", &o, &out), BLOBC_EINPUT);
    CHECK_CONTAINS(g_msg, "f.yaml:1:10: $schema: error: \"$schema\" must be a string (the schema file's path), got a sequence");
    write_file("sub/g.json", "{\"$schema\": \"../small.schema\", \"$schema\": \"x\"}");
    CHECK_EQ_I(bake_file("sub/g.json", &o, &out), BLOBC_EINPUT);
    CHECK_CONTAINS(g_msg, "g.json:1:43: /$schema: error: duplicate key \"$schema\"");
    write_file("sub/h.json", "{\"$schema\": 5}");
    CHECK_EQ_I(bake_file("sub/h.json", &o, &out), BLOBC_EINPUT);
    CHECK_CONTAINS(g_msg, "h.json:1:13: /$schema: error: \"$schema\" must be a string (the schema file's path)");
    o.schema = schema();
    o.type_name = "Kind";
    write_file("sub/i.yaml", "x: 1\n");
    CHECK_EQ_I(bake_file("sub/i.yaml", &o, &out), BLOBC_EINPUT);
    CHECK_CONTAINS(g_msg, "i.yaml: error: type \"Kind\" (from -t) is an enum; the root type must be a struct");
    o.schema = NULL;
    o.type_name = NULL;
    CHECK_EQ_I(bake_file("sub/nothere.yaml", &o, &out), BLOBC_EIO);
    CHECK_CONTAINS(g_msg, "nothere.yaml: error: cannot open '");
    blobc_buffer_free(&out);
}

TEST(format_detection_and_streaming) {
    blobc_buffer a = {0}, b = {0}, c = {0};
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    o.schema = schema();
    o.output = BLOBC_OUTPUT_RAW;
    write_file("v.yaml", values_yaml);
    write_file("v.data", values_json);
    write_file("y.data", values_yaml);
    if (bake_file("v.yaml", &o, &a)) FAILF("yaml file: %s", g_msg);
    if (bake_file("v.data", &o, &b)) FAILF("json by content: %s", g_msg);
    if (bake_file("y.data", &o, &c)) FAILF("yaml by content: %s", g_msg);
    CHECK(same_bytes(&a, &b));
    CHECK(same_bytes(&a, &c));
    /* A streamed file's errors still show the offending line. */
    write_file("bad.yaml", ydoc("u16v", "65536"));
    CHECK_EQ_I(bake_file("bad.yaml", &o, &a), BLOBC_EINPUT);
    CHECK_STR(g_err.source_line, "u16v: 65536");
    CHECK_EQ_U(g_err.line, 5);
    CHECK_EQ_U(a.len, 0);
    /* Forced format: this JSON is YAML too, with the same meaning. */
    write_file("j.data", jdoc(NULL, NULL));
    if (bake_file("j.data", &o, &b)) FAILF("json: %s", g_msg);
    o.input = BLOBC_INPUT_YAML;
    if (bake_file("j.data", &o, &c)) FAILF("json read as yaml: %s", g_msg);
    CHECK(same_bytes(&b, &c));
    /* ...and a quoted "inf" is a string to YAML. */
    CHECK_EQ_I(bake_file("v.data", &o, &c), BLOBC_EINPUT);
    CHECK_CONTAINS(g_msg, "v.data:5:34: pos.z: error: expected a number (f32), got a quoted string \"inf\"");
    blobc_buffer_free(&a);
    blobc_buffer_free(&b);
    blobc_buffer_free(&c);
}

TEST(blob_output) {
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    o.schema = schema();
    blobc_buffer out = {0}, raw = {0};
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_bake_memory(values_yaml, strlen(values_yaml), "v.yaml", &o, &out, &err), BLOBC_OK);
    o.output = BLOBC_OUTPUT_RAW;
    CHECK_EQ_I(blobc_bake_memory(values_yaml, strlen(values_yaml), "v.yaml", &o, &raw, &err), BLOBC_OK);
    blobc_blob blob;
    CHECK_EQ_I(blobc_blob_open(out.data, out.len, 0, &blob, &err), BLOBC_OK);
    CHECK_EQ_U(blob.data_size, raw.len);
    CHECK(memcmp(blob.data, raw.data, raw.len) == 0);
    CHECK(blob.types != NULL);
    CHECK(blob.schema_name == NULL);
    blobc_blob_close(&blob);
    o.output = BLOBC_OUTPUT_BLOB;
    o.strip = true;
    CHECK_EQ_I(blobc_bake_memory(values_yaml, strlen(values_yaml), "v.yaml", &o, &out, &err), BLOBC_OK);
    CHECK_EQ_I(blobc_blob_open(out.data, out.len, 0, &blob, &err), BLOBC_OK);
    CHECK(blob.types == NULL);
    blobc_blob_close(&blob);
    /* A failed bake leaves `out` empty. */
    CHECK_EQ_I(blobc_bake_memory("b: 2\n", 5, "x.yaml", &o, &out, &err), BLOBC_EINPUT);
    CHECK_EQ_U(out.len, 0);
    blobc_buffer_free(&out);
    blobc_buffer_free(&raw);
}

/* ---- the sample data in tests/data/bake ---- */

static size_t field_off(const blobc_type *t, const char *name) {
    const blobc_field *f = blobc_struct_find_field(t, name, strlen(name));
    return f ? f->offset : 0;
}

TEST(data_files) {
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    o.output = BLOBC_OUTPUT_RAW;
    blobc_buffer y = {0}, j = {0}, s = {0};
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_bake_file("tests/data/bake/node.yaml", &o, &y, &err)) FAILF("node.yaml: %s", err.message);
    if (blobc_bake_file("tests/data/bake/node.json", &o, &j, &err)) FAILF("node.json: %s", err.message);
    if (blobc_bake_file("tests/data/bake/node_shared.yaml", &o, &s, &err))
        FAILF("node_shared.yaml: %s", err.message);
    CHECK(same_bytes(&y, &j));
    blobc_schema *sc = NULL;
    CHECK_EQ_I(blobc_schema_load("tests/data/bake/node.schema", &sc, &err), BLOBC_OK);
    const blobc_type *node = blobc_schema_root(sc);
    CHECK_EQ_I(blobc_verify_data(y.data, y.len, node, &err), BLOBC_OK);
    CHECK_EQ_I(blobc_verify_data(s.data, s.len, node, &err), BLOBC_OK);
    g_base = s.data;
    g_size = s.len;
    long name = target(field_off(node, "name"));
    long tags = target(field_off(node, "tags"));
    CHECK(name > 0 && tags > 0);
    CHECK_EQ_I(target((size_t)tags), name);
    CHECK_EQ_I(target((size_t)tags + 8), name);
    CHECK(target((size_t)tags + 16) != name);
    long grid = target(field_off(node, "grid"));
    long row = target((size_t)grid);
    CHECK(row > 0);
    CHECK_EQ_I(target((size_t)grid + 8), row);
    CHECK_EQ_I(target((size_t)grid + 16), row);
    long pts = target(field_off(node, "pts"));
    float p[3];
    memcpy(p, s.data + pts, sizeof p);
    CHECK(p[0] == 1 && p[1] == 2 && p[2] == 3);
    long refs = target(field_off(node, "refs"));
    long r0 = target((size_t)refs), r2 = target((size_t)refs + 8);
    CHECK(r0 > 0 && r2 > 0 && r0 != r2);
    CHECK_EQ_I(target((size_t)refs + 4), r0);
    CHECK_EQ_I(target((size_t)refs + 12), -1);
    long kids = target(field_off(node, "kids"));
    CHECK(kids > 0);
    CHECK_EQ_I(target((size_t)kids + field_off(node, "name")), name);
    CHECK_EQ_I(target((size_t)kids + node->size + field_off(node, "name")), name);
    long next = target(field_off(node, "next"));
    CHECK(next > 0 && memcmp(s.data + next, s.data + kids, 8) == 0);
    blobc_schema_free(sc);
    blobc_buffer_free(&y);
    blobc_buffer_free(&j);
    blobc_buffer_free(&s);
}

/* ---- several errors per run ---- */

/* A sink that keeps the first line of every error, one a line. */
static void keep_lines(void *ctx, const blobc_error *e) {
    char line[2048];
    blobc_error_format(e, line, sizeof line);
    char *nl = strchr(line, '\n');
    if (nl) *nl = '\0';
    blobc_buf_puts(ctx, line);
    blobc_buf_putc(ctx, '\n');
}

/* Bakes text through a sink with the given limit; the lines it got. */
static const char *sink_bake(const char *text, const char *filename, unsigned max,
                             size_t *suppressed, bool one_thread) {
    static blobc_buffer lines;
    lines.len = 0;
    blobc_diag_sink sink = {keep_lines, &lines, max, 0, NULL, 0};
    blobc_bake_options o = {0};
    o.schema = schema();
    o.output = BLOBC_OUTPUT_RAW;
    o.diag = &sink;
    o.one_thread = one_thread;
    blobc_buffer out = {0};
    blobc_error_clear(&g_err);
    blobc_status st = blobc_bake_memory(text, strlen(text), filename, &o, &out, &g_err);
    if (st == BLOBC_OK || out.len) blobc_buf_puts(&lines, "(baked)\n");
    blobc_buffer_free(&out);
    blobc_error_format(&g_err, g_msg, sizeof g_msg);
    char *nl = strchr(g_msg, '\n');
    if (nl) *nl = '\0';
    *suppressed = sink.suppressed;
    blobc_buf_putc(&lines, '\0');
    lines.len--;
    return (const char *)lines.data;
}

TEST(several_errors) {
    /* Scalars, an unknown key around nested containers, containers of the
     * wrong kind (skipped whole), a missing field: every one, in document
     * order (the missing fields belong to the mapping's start). */
    static const char y[] =
        "b: maybe\n"
        "i8v: 300\n"
        "bogus: {a: [1, {c: 2}]}\n"
        "kind: wal\n"
        "pos: [1, 2]\n"
        "w: {x: 1}\n"
        "pts:\n"
        "  - {x: 1, y: 2, z: 3, q: [[1], {d: 2}]}\n"
        "  - 5\n"
        "  - {x: 1, y: 2}\n";
    static const char want_y[] =
        "t.yaml:1:1: error: missing fields \"u8v\", \"i16v\", \"u16v\", \"i32v\", \"u32v\", "
        "\"i64v\", \"u64v\", \"f32v\", \"f64v\", \"name\" in struct All\n"
        "t.yaml:1:4: b: error: expected true or false, got \"maybe\"\n"
        "t.yaml:2:6: i8v: error: expected an integer in i8 range -128..127, got \"300\"\n"
        "t.yaml:3:1: bogus: error: unknown field \"bogus\" in struct All (fields: b, i8v, u8v, "
        "i16v, u16v, i32v, u32v, i64v, u64v, f32v, f64v, kind, ...)\n"
        "t.yaml:4:7: kind: error: unknown member \"wal\" of enum Kind; did you mean \"wall\"?\n"
        "t.yaml:5:6: pos: error: expected a mapping (struct Vec3), got a sequence\n"
        "t.yaml:6:4: w: error: expected a sequence of 4 items ([f32; 4]), got a mapping\n"
        "t.yaml:8:24: pts[0].q: error: unknown field \"q\" in struct Vec3 (fields: x, y, z)\n"
        "t.yaml:9:5: pts[1]: error: expected a mapping (struct Vec3), got \"5\"\n"
        "t.yaml:10:5: pts[2]: error: missing field \"z\" (f32) in struct Vec3\n";
    size_t sup;
    CHECK_STR(sink_bake(y, "t.yaml", 0, &sup, true), want_y);
    CHECK_EQ_U(sup, 0);
    /* the first also goes to the error, as without a sink */
    CHECK(strncmp(g_msg, "t.yaml:1:1: error: missing fields", 33) == 0);
    /* the limit: the first N, the rest counted */
    const char *got = sink_bake(y, "t.yaml", 3, &sup, false);
    CHECK(strlen(got) > 0 && strstr(want_y, got) != NULL); /* the first 3 found */
    CHECK_EQ_U(sup, 7);
    /* JSON: the same errors, the same order, JSON Pointers */
    static const char j[] =
        "{\"b\": \"maybe\", \"i8v\": 300, \"bogus\": {\"a\": [1, {\"c\": 2}]},\n"
        "\"kind\": \"wal\", \"pos\": [1, 2], \"w\": {\"x\": 1},\n"
        "\"pts\": [{\"x\": 1, \"y\": 2, \"z\": 3, \"q\": [[1], {\"d\": 2}]}, 5, {\"x\": 1, \"y\": 2}]}\n";
    CHECK_STR(sink_bake(j, "t.json", 0, &sup, false),
              "t.json:1:1: error: missing fields \"u8v\", \"i16v\", \"u16v\", \"i32v\", \"u32v\", "
              "\"i64v\", \"u64v\", \"f32v\", \"f64v\", \"name\" in struct All\n"
              "t.json:1:7: /b: error: expected true or false, got the string \"maybe\"\n"
              "t.json:1:23: /i8v: error: expected an integer in i8 range -128..127, got \"300\"\n"
              "t.json:1:28: /bogus: error: unknown field \"bogus\" in struct All (fields: b, i8v, "
              "u8v, i16v, u16v, i32v, u32v, i64v, u64v, f32v, f64v, kind, ...)\n"
              "t.json:2:9: /kind: error: unknown member \"wal\" of enum Kind; did you mean \"wall\"?\n"
              "t.json:2:23: /pos: error: expected an object (struct Vec3), got an array\n"
              "t.json:2:36: /w: error: expected an array of 4 items ([f32; 4]), got an object\n"
              "t.json:3:34: /pts/0/q: error: unknown field \"q\" in struct Vec3 (fields: x, y, z)\n"
              "t.json:3:57: /pts/1: error: expected an object (struct Vec3), got the number 5\n"
              "t.json:3:60: /pts/2: error: missing field \"z\" (f32) in struct Vec3\n");
    /* A syntax error comes alone, wherever it is. */
    CHECK_STR(sink_bake("b: maybe\ni8v: 300\nname: [1\n", "t.yaml", 0, &sup, false),
              "t.yaml:4:1: error: invalid YAML: did not find expected ',' or ']' (while parsing "
              "a flow sequence at t.yaml:3:7)\n");
    CHECK_STR(sink_bake("{\"b\": \"maybe\", \"i8v\": 300,}", "t.json", 0, &sup, false),
              "t.json:1:26: error: invalid JSON: trailing comma: '}' after ',' (JSON allows no "
              "comma after the last member)\n");
    /* Without a sink the first error found stops the bake, and a syntax
     * error after it still wins. */
    CHECK_STR(first_error("b: maybe\ni8v: 300\n", "t.yaml"),
              "t.yaml:1:4: b: error: expected true or false, got \"maybe\"");
    CHECK_STR(first_error("b: maybe\ni8v: 300\nname: [1\n", "t.yaml"),
              "t.yaml:4:1: error: invalid YAML: did not find expected ',' or ']' (while parsing "
              "a flow sequence at t.yaml:3:7)");
}

/* ---- the bad-data corpus ---- */

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void corpus_case(const char *name) {
    test_failed_ = 0;
    test_name_ = name;
    char path[512], expect_path[512], want[8192];
    snprintf(path, sizeof path, "tests/bad/data/%s", name);
    snprintf(expect_path, sizeof expect_path, "%.*s.expect", (int)(strrchr(path, '.') - path), path);
    FILE *f = fopen(expect_path, "rb");
    if (!f) {
        printf("FAIL bake.corpus.%s: no %s\n", name, expect_path);
        test_any_failed_ = 1;
        return;
    }
    size_t n = fread(want, 1, sizeof want - 1, f);
    fclose(f);
    want[n] = '\0';
    /* every error, in document order, through a sink */
    blobc_buffer out = {0}, got = {0};
    blobc_diag_sink sink = {keep_lines, &got, 20, 0, NULL, 0};
    blobc_bake_options o = {0};
    o.diag = &sink;
    blobc_error_clear(&g_err);
    blobc_status st = blobc_bake_file(path, &o, &out, &g_err);
    if (got.len == 0) keep_lines(&got, &g_err); /* an error outside the data */
    blobc_buf_putc(&got, '\0');
    /* without a sink: the first of them */
    blobc_buffer out1 = {0};
    blobc_error first;
    blobc_error_clear(&first);
    blobc_status st1 = blobc_bake_file(path, NULL, &out1, &first);
    blobc_error_format(&first, g_msg, sizeof g_msg);
    char *nl = strchr(g_msg, '\n');
    if (nl) *nl = '\0';
    char *want_nl = strchr(want, '\n');
    size_t first_len = want_nl ? (size_t)(want_nl - want) : strlen(want);
    if (st == BLOBC_OK || st1 == BLOBC_OK) printf("FAIL bake.corpus.%s: baked without an error\n", name);
    else if (out.len || out1.len) printf("FAIL bake.corpus.%s: output left after an error\n", name);
    else if (strcmp((const char *)got.data, want) != 0)
        printf("FAIL bake.corpus.%s: got \"%s\", want \"%s\"\n", name, (const char *)got.data, want);
    else if (strlen(g_msg) != first_len && strstr(want, g_msg) == NULL)
        printf("FAIL bake.corpus.%s: without a sink got \"%s\", one of \"%s\"\n", name, g_msg, want);
    else {
        printf("PASS bake.corpus.%s\n", name);
        blobc_buffer_free(&got);
        return;
    }
    test_any_failed_ = 1;
    blobc_buffer_free(&out);
    blobc_buffer_free(&out1);
    blobc_buffer_free(&got);
}

static int cmp_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_corpus(void) {
    DIR *d = opendir("tests/bad/data");
    if (!d) {
        printf("FAIL bake.corpus: cannot open tests/bad/data (run from the source tree)\n");
        test_any_failed_ = 1;
        return;
    }
    char *names[512];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 512)
        if (ends_with(e->d_name, ".yaml") || ends_with(e->d_name, ".json"))
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_names);
    if (n < 10) {
        printf("FAIL bake.corpus: only %zu cases\n", n);
        test_any_failed_ = 1;
    }
    for (size_t i = 0; i < n; i++) {
        corpus_case(names[i]);
        free(names[i]);
    }
}

static void remove_dir(void) {
    static const char *const files[] = {"s.schema", "small.schema", "sub/a.yaml", "sub/b.json",
                                        "sub/c.yaml", "sub/c2.yaml", "sub/d.yaml", "sub/e.yaml", "sub/f.yaml",
                                        "sub/g.json", "sub/h.json", "sub/i.yaml", "v.yaml",
                                        "v.data", "y.data", "j.data", "bad.yaml"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) blobc_os_remove(path_of(files[i]));
    blobc_os_rmdir(path_of("sub"));
    blobc_os_rmdir(g_dir);
}

TEST_MAIN_BEGIN("bake")
    schema();
    make_dir();
    RUN(layout_matches_c);
    RUN(values_read_back);
    RUN(yaml_json_and_key_order_give_same_bytes);
    RUN(base_documents_bake);
    RUN(integer_ranges_yaml);
    RUN(integer_ranges_json);
    RUN(json_big_integers_exact);
    RUN(value_kind_errors_yaml);
    RUN(value_kind_errors_json);
    RUN(strings);
    RUN(floats_round_once);
    RUN(floats_match_the_scalar_parser);
    RUN(struct_errors);
    RUN(empty_arrays_and_null_pointers);
    RUN(alias_shares_out_of_line_payloads);
    RUN(alias_replay_across_types);
    RUN(alias_errors);
    RUN(billion_laughs_refused);
    RUN(nesting_limit);
    RUN(syntax_errors);
    RUN(several_errors);
    RUN(schema_and_type_from_the_data);
    RUN(format_detection_and_streaming);
    RUN(blob_output);
    RUN(data_files);
    run_corpus();
    remove_dir();
    blobc_schema_free(g_schema);
TEST_MAIN_END
