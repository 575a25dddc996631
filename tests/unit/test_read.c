/*
 * test_read.c - the read API (blobc/read.h) over a blob baked here: every
 * kind reached by name, index, item, member and pointer, scalars as
 * numbers and text, the empty value for everything that is not there,
 * stripped blobs, refusal of a damaged blob, references and keys; and
 * blobc_compare_blobs naming the first value two blobs differ in.
 */
#include <math.h>

#include "blobc/blobc.h"
#include "blobc/read.h"
#include "test.h"

static const char schema_text[] =
    "enum Kind : i8 { low = -2, high = 5 }\n"
    "struct Meta { note: string; }\n"
    "struct Box { w: f32; }\n"
    "struct Ball { r: f64; }\n"
    "union Shape { Box, Ball }\n"
    "struct Item { id: u64; kind: Kind; pos: [f32; 3]; meta: *Meta; }\n"
    "struct Root {\n"
    "  name: string; flag: bool; small: i16; big: u64;\n"
    "  items: [Item]; shape: Shape; none: Shape = null; maybe: *Meta; tags: [string];\n"
    "}\n"
    "root Root;\n";

static const char data_text[] =
    "name: \"h\\u00e9llo\"\n"
    "flag: true\n"
    "small: -300\n"
    "big: 18446744073709551615\n"
    "items:\n"
    "  - {id: 1, kind: low, pos: [0.1, -0.0, 2.5], meta: &m {note: shared}}\n"
    "  - {id: 2, kind: high, pos: [1, 2, 3], meta: *m}\n"
    "shape: {Ball: {r: .nan}}\n"
    "maybe: null\n"
    "tags: []\n";

static blobc_schema *g_schema;
static blobc_buffer g_blob;
static blobc_error err;

static void setup(void) {
    if (blobc_schema_parse(schema_text, strlen(schema_text), "t.schema", &g_schema, &err))
        FAILF("%s", err.message);
    blobc_bake_options o = {0};
    o.schema = g_schema;
    if (blobc_bake_memory(data_text, strlen(data_text), "t.yaml", &o, &g_blob, &err))
        FAILF("%s", err.message);
}

static const char *text(blobc_value v) {
    static char buf[64];
    blobc_value_text(v, buf, sizeof buf);
    return buf;
}

TEST(navigate_every_kind) {
    blobc_reader *r = NULL;
    CHECK_EQ_I(blobc_reader_open(g_blob.data, g_blob.len, NULL, &r, &err), BLOBC_OK);
    if (!r) return;
    blobc_value root = blobc_reader_root(r);
    CHECK_EQ_I(blobc_value_kind(root), BLOBC_KIND_STRUCT);
    CHECK_EQ_U(blobc_value_field_count(root), 9);
    CHECK_STR(blobc_value_field_name(root, 4), "items");
    CHECK(blobc_value_field_name(root, 9) == NULL);

    const char *s;
    size_t n;
    CHECK(blobc_value_string(blobc_value_field(root, "name"), &s, &n));
    CHECK(n == 6 && memcmp(s, "h\xc3\xa9llo", 7) == 0);
    bool b = false;
    CHECK(blobc_value_bool(blobc_value_field(root, "flag"), &b) && b);
    int64_t i = 0;
    uint64_t u = 0;
    CHECK(blobc_value_int(blobc_value_field(root, "small"), &i) && i == -300);
    CHECK(!blobc_value_uint(blobc_value_field(root, "small"), &u));
    CHECK(!blobc_value_int(blobc_value_field(root, "big"), &i));
    CHECK(blobc_value_uint(blobc_value_field(root, "big"), &u) && u == UINT64_MAX);
    CHECK_STR(text(blobc_value_field(root, "big")), "18446744073709551615");

    blobc_value items = blobc_value_field(root, "items");
    CHECK_EQ_I(blobc_value_kind(items), BLOBC_KIND_ARRAY);
    CHECK_EQ_U(blobc_value_length(items), 2);
    blobc_value it0 = blobc_value_item(items, 0), it1 = blobc_value_item(items, 1);
    CHECK_EQ_I(blobc_value_kind(blobc_value_item(items, 2)), 0);
    blobc_value kind = blobc_value_field(it0, "kind");
    CHECK_STR(blobc_value_enum_name(kind), "low");
    CHECK(blobc_value_int(kind, &i) && i == -2);
    CHECK_STR(text(kind), "low");
    blobc_value pos = blobc_value_field(it0, "pos");
    CHECK_EQ_I(blobc_value_kind(pos), BLOBC_KIND_FIXED);
    CHECK_EQ_U(blobc_value_length(pos), 3);
    double d = 0;
    CHECK(blobc_value_float(blobc_value_item(pos, 0), &d) && d == (double)0.1f);
    CHECK_STR(text(blobc_value_item(pos, 0)), "0.1");
    CHECK_STR(text(blobc_value_item(pos, 1)), "-0.0");
    /* the shared *Meta: both pointers reach the same bytes */
    blobc_value m0 = blobc_value_deref(blobc_value_field(it0, "meta"));
    blobc_value m1 = blobc_value_deref(blobc_value_field(it1, "meta"));
    CHECK(m0.offset == m1.offset && blobc_value_kind(m0) == BLOBC_KIND_STRUCT);
    CHECK_STR(text(blobc_value_field(m1, "note")), "shared");
    CHECK(blobc_value_uint(blobc_value_field(it1, "id"), &u) && u == 2);

    blobc_value shape = blobc_value_field(root, "shape");
    CHECK_STR(blobc_value_union_tag(shape), "Ball");
    CHECK_EQ_U(blobc_value_field_count(shape), 1);
    CHECK_STR(blobc_value_field_name(shape, 0), "Ball");
    blobc_value ball = blobc_value_field(shape, "Ball");
    CHECK(blobc_value_float(blobc_value_field(ball, "r"), &d) && isnan(d));
    CHECK_STR(text(blobc_value_field(ball, "r")), ".nan");
    CHECK_EQ_I(blobc_value_kind(blobc_value_field(shape, "Box")), 0);
    CHECK(blobc_value_field_at(shape, 0).offset == ball.offset);
    blobc_value none = blobc_value_field(root, "none");
    CHECK(blobc_value_union_tag(none) == NULL && blobc_value_is_null(none));
    CHECK_EQ_U(blobc_value_field_count(none), 0);
    CHECK_EQ_I(blobc_value_kind(blobc_value_union_member(none)), 0);

    blobc_value maybe = blobc_value_field(root, "maybe");
    CHECK(blobc_value_is_null(maybe));
    CHECK_EQ_I(blobc_value_kind(blobc_value_deref(maybe)), 0);
    CHECK(blobc_value_is_null(blobc_value_field(root, "tags")));
    CHECK_EQ_U(blobc_value_length(blobc_value_field(root, "tags")), 0);

    /* the empty value, and asking values for what they do not have */
    blobc_value nope = blobc_value_field(root, "nope");
    CHECK_EQ_I(blobc_value_kind(nope), 0);
    CHECK_EQ_I(blobc_value_kind(blobc_value_field(nope, "x")), 0);
    CHECK_EQ_U(blobc_value_length(nope), 0);
    CHECK(!blobc_value_int(nope, &i) && !blobc_value_float(root, &d) && !blobc_value_bool(items, &b));
    CHECK(!blobc_value_string(kind, &s, &n) && blobc_value_enum_name(root) == NULL);
    CHECK_EQ_U(blobc_value_text(root, NULL, 0), 0);
    CHECK_EQ_U(blobc_value_text(blobc_value_field(root, "small"), NULL, 0), 4);
    blobc_reader_free(r);
}

TEST(stripped_and_damaged) {
    blobc_bake_options o = {0};
    o.schema = g_schema;
    o.strip = true;
    blobc_buffer strip = {0};
    CHECK_EQ_I(blobc_bake_memory(data_text, strlen(data_text), "t.yaml", &o, &strip, &err), BLOBC_OK);
    blobc_reader *r = NULL;
    CHECK_EQ_I(blobc_reader_open(strip.data, strip.len, NULL, &r, &err), BLOBC_EINPUT);
    CHECK(r == NULL);
    blobc_verify_options vo = {0};
    vo.schema = g_schema;
    CHECK_EQ_I(blobc_reader_open(strip.data, strip.len, &vo, &r, &err), BLOBC_OK);
    CHECK_STR(text(blobc_value_field(blobc_reader_root(r), "small")), "-300");
    blobc_reader_free(r);
    /* a flipped byte in the data fails verification: no reader */
    uint8_t *bad = malloc(g_blob.len);
    if (!bad) FAILF("out of memory");
    memcpy(bad, g_blob.data, g_blob.len);
    bad[120] ^= 0x40;
    CHECK_EQ_I(blobc_reader_open(bad, g_blob.len, NULL, &r, NULL), BLOBC_EINPUT);
    CHECK(r == NULL);
    blobc_error e;
    CHECK_EQ_I(blobc_reader_open(NULL, 0, NULL, &r, &e), BLOBC_EARG);
    CHECK_CONTAINS(e.message, "blobc_reader_open");
    CHECK_EQ_I(blobc_reader_open(g_blob.data, g_blob.len, NULL, NULL, &e), BLOBC_EARG);
    CHECK_EQ_I(blobc_value_kind(blobc_reader_root(NULL)), 0);
    free(bad);
    blobc_buffer_free(&strip);
}

/* Threads navigating one reader at once read the same values. */
static blobc_reader *g_shared;

static void navigate(void *arg) {
    uintptr_t sum = 0;
    for (int round = 0; round < 2000; round++) {
        blobc_value items = blobc_value_field(blobc_reader_root(g_shared), "items");
        for (uint32_t k = 0; k < blobc_value_length(items); k++) {
            uint64_t u = 0;
            blobc_value_uint(blobc_value_field(blobc_value_item(items, k), "id"), &u);
            sum += u;
        }
    }
    *(uintptr_t *)arg = sum;
}

TEST(threads_share_a_reader) {
    CHECK_EQ_I(blobc_reader_open(g_blob.data, g_blob.len, NULL, &g_shared, &err), BLOBC_OK);
    blobc_os_thread t[4];
    uintptr_t sums[4] = {0};
    for (int k = 0; k < 4; k++) blobc_os_thread_start(&t[k], navigate, &sums[k]);
    for (int k = 0; k < 4; k++) blobc_os_thread_join(&t[k]);
    for (int k = 0; k < 4; k++) CHECK_EQ_U(sums[k], 2000 * 3);
    blobc_reader_free(g_shared);
}

static void compare_with(const char *from, const char *to, const char *path, const char *a,
                         const char *b) {
    char *alt = malloc(strlen(data_text) + 64);
    const char *at = strstr(data_text, from);
    if (!alt || !at) FAILF("no %s in the data", from);
    size_t pre = (size_t)(at - data_text);
    memcpy(alt, data_text, pre);
    strcpy(alt + pre, to);
    strcat(alt, at + strlen(from));
    blobc_bake_options o = {0};
    o.schema = g_schema;
    blobc_buffer other = {0};
    CHECK_EQ_I(blobc_bake_memory(alt, strlen(alt), "u.yaml", &o, &other, &err), BLOBC_OK);
    blobc_difference d;
    CHECK_EQ_I(blobc_compare_blobs(g_blob.data, g_blob.len, other.data, other.len, NULL, &d, &err),
               BLOBC_OK);
    CHECK_EQ_I(d.differ, 1);
    CHECK_STR(d.path, path);
    CHECK_STR(d.a, a);
    CHECK_STR(d.b, b);
    blobc_buffer_free(&other);
    free(alt);
}

TEST(compare_names_the_first_difference) {
    blobc_difference d;
    CHECK_EQ_I(blobc_compare_blobs(g_blob.data, g_blob.len, g_blob.data, g_blob.len, NULL, &d, &err),
               BLOBC_OK);
    CHECK_EQ_I(d.differ, 0);
    compare_with("-0.0", "0.0", "items[0].pos[1]", "f32 = -0.0", "f32 = 0.0");
    compare_with("kind: high", "kind: low", "items[1].kind", "Kind = high", "Kind = low");
    compare_with("meta: *m", "meta: {note: shared}", "items[1].meta",
                 "*Meta = the payload of an earlier value", "*Meta to a value");
    compare_with("{Ball: {r: .nan}}", "{Box: {w: 1}}", "shape", "field \"Ball\"", "field \"Box\"");
    compare_with("tags: []", "tags: [x]", "tags", "[string] = null", "[string] of 1 items");
    compare_with("h\\u00e9llo", "hello", "name", "string bytes = \"h\xc3\xa9llo\"",
                 "string bytes = \"hello\"");
}

/* References read as their targets; keys of keyed structs and of
 * references; a *T to a keyed struct and a null reference have none. */
TEST(references_and_keys) {
    static const char sch[] = "struct Item { @key id: u32; }\n"
                              "struct Node { @key name: string; next: &Node = null; }\n"
                              "struct R { items: [Item]; nodes: [Node]; best: &Item; p: *Item; }\n"
                              "root R;\n";
    static const char data[] = "items: [{id: 9}, {id: 4}]\n"
                               "nodes: [{name: b, next: a}, {name: a, next: b}, {name: c}]\n"
                               "best: 9\np: {id: 1}\n";
    blobc_schema *s = NULL;
    blobc_buffer blob = {0};
    blobc_bake_options o = {0};
    blobc_reader *r = NULL;
    if (blobc_schema_parse(sch, strlen(sch), "k.schema", &s, &err)) FAILF("%s", err.message);
    o.schema = s;
    if (blobc_bake_memory(data, strlen(data), "k.yaml", &o, &blob, &err)) FAILF("%s", err.message);
    CHECK_EQ_I(blobc_reader_open(blob.data, blob.len, NULL, &r, &err), BLOBC_OK);
    blobc_value root = blobc_reader_root(r);
    blobc_value best = blobc_value_field(root, "best");
    CHECK_STR(text(blobc_value_key(best)), "9");
    /* the target is the item of the sorted array that holds key 9 */
    blobc_value item1 = blobc_value_item(blobc_value_field(root, "items"), 1);
    CHECK_EQ_U(blobc_value_deref(best).offset, item1.offset);
    CHECK_STR(text(blobc_value_key(item1)), "9");
    /* a cycle a -> b -> a, followed twice round */
    blobc_value n = blobc_value_item(blobc_value_field(root, "nodes"), 0);
    CHECK_STR(text(blobc_value_key(n)), "a");
    for (int k = 0; k < 4; k++) n = blobc_value_deref(blobc_value_field(n, "next"));
    CHECK_STR(text(blobc_value_key(n)), "a");
    CHECK_STR(text(blobc_value_key(blobc_value_field(n, "next"))), "b");
    blobc_value c = blobc_value_item(blobc_value_field(root, "nodes"), 2);
    CHECK_EQ_I(blobc_value_kind(blobc_value_key(blobc_value_field(c, "next"))), 0);
    CHECK_EQ_I(blobc_value_kind(blobc_value_key(blobc_value_field(root, "p"))), 0);
    CHECK_EQ_I(blobc_value_kind(blobc_value_key(root)), 0);
    blobc_reader_free(r);
    blobc_buffer_free(&blob);
    blobc_schema_free(s);
}

TEST_MAIN_BEGIN("read")
setup();
RUN(navigate_every_kind);
RUN(stripped_and_damaged);
RUN(threads_share_a_reader);
RUN(compare_names_the_first_difference);
RUN(references_and_keys);
blobc_buffer_free(&g_blob);
blobc_schema_free(g_schema);
TEST_MAIN_END
