/*
 * test_bake_json.c - the JSON front end's own shortcuts: object keys are
 * matched against cJSON's decoded key instead of being scanned, so keys
 * with escapes (and keys cut short at "\u0000") must still be found, and
 * still locate errors; and a document whose tree outgrows the small
 * arena blocks (the mapped ones) must bake like the same data in YAML.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobc.h"
#include "test.h"

static const char schema_text[] =
    "struct R { name: string; count: u32; ids: [u32]; tags: [string]; }\n"
    "root R;\n";

static blobc_schema *g_schema;
static char g_msg[4096];

static const blobc_schema *schema(void) {
    if (!g_schema) {
        blobc_error err;
        blobc_error_clear(&err);
        if (blobc_schema_parse(schema_text, sizeof schema_text - 1, "t.schema", &g_schema, &err)) {
            printf("FAIL bake_json.schema: the test schema does not parse\n");
            exit(1);
        }
    }
    return g_schema;
}

/* Bakes text; returns "ok" or the first line of the error. */
static const char *bake(const char *text, size_t len, const char *filename, blobc_buffer *out) {
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    o.schema = schema();
    o.output = BLOBC_OUTPUT_RAW;
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_bake_memory(text, len, filename, &o, out, &err) == BLOBC_OK) return "ok";
    blobc_error_format(&err, g_msg, sizeof g_msg);
    char *nl = strchr(g_msg, '\n');
    if (nl) *nl = '\0';
    return g_msg;
}

static const char *bake_str(const char *text) {
    blobc_buffer out = {0};
    const char *r = bake(text, strlen(text), "t.json", &out);
    blobc_buffer_free(&out);
    return r;
}

/* Whether two documents bake to the same bytes. */
static bool same_bytes(const char *a, const char *fa, const char *b, const char *fb) {
    blobc_buffer x = {0}, y = {0};
    bool ok = strcmp(bake(a, strlen(a), fa, &x), "ok") == 0 &&
              strcmp(bake(b, strlen(b), fb, &y), "ok") == 0 && x.len == y.len &&
              memcmp(x.data, y.data, x.len) == 0;
    blobc_buffer_free(&x);
    blobc_buffer_free(&y);
    return ok;
}

TEST(escaped_keys) {
    const char *plain = "{\"name\": \"a\", \"count\": 3, \"ids\": [1, 2], \"tags\": [\"x\"]}";
    CHECK(same_bytes(plain, "a.json",
                     "{\"n\\u0061me\": \"a\", \"c\\u006funt\": 3, \"ids\" : [1, 2], \"tags\": [\"x\"]}",
                     "b.json"));
    /* The key's length differs from its source: the value is still located. */
    CHECK_STR(bake_str("{\"name\": \"a\",\n \"c\\u006funt\": \"3\"}"),
              "t.json:2:16: /count: error: expected an integer in u32 range 0..4294967295, got the "
              "string \"3\"");
    CHECK_STR(bake_str("{\"name\": \"a\",\n  \"co\\u0000unt\": 3}"),
              "t.json:2:3: error: an object key cannot contain a NUL character (U+0000)");
    CHECK_STR(bake_str("{\"name\": \"a\",\n  \"cou\\u006et\": 3, \"x\\ty\": 1}"),
              "t.json:2:20: /x?y: error: unknown field \"x\\ty\" in struct R (fields: name, "
              "count, ids, tags)");
    /* A string value with escapes keeps its decoded length. */
    CHECK(same_bytes("{\"name\": \"a\\\"b\", \"count\": 1, \"ids\": [], \"tags\": []}", "a.json",
                     "name: 'a\"b'\ncount: 1\nids: []\ntags: []\n", "a.yaml"));
}

TEST(big_document_like_yaml) {
    /* 200,000 items: a tree of well over the 2 MiB the arena maps. */
    enum { N = 200000 };
    size_t cap = (size_t)N * 24 + 256;
    char *j = malloc(cap), *y = malloc(cap);
    CHECK(j && y);
    if (!j || !y) {
        free(j);
        free(y);
        return;
    }
    size_t jo = (size_t)snprintf(j, cap, "{\"name\": \"big\", \"count\": %d, \"ids\": [", N);
    size_t yo = (size_t)snprintf(y, cap, "name: big\ncount: %d\nids: [", N);
    for (int i = 0; i < N; i++) {
        jo += (size_t)snprintf(j + jo, cap - jo, "%s%u", i ? "," : "", (unsigned)i * 2654435761u);
        yo += (size_t)snprintf(y + yo, cap - yo, "%s%u", i ? ", " : "", (unsigned)i * 2654435761u);
    }
    jo += (size_t)snprintf(j + jo, cap - jo, "], \"tags\": [");
    yo += (size_t)snprintf(y + yo, cap - yo, "]\ntags: [");
    for (int i = 0; i < N / 4; i++) {
        jo += (size_t)snprintf(j + jo, cap - jo, "%s\"t%d\"", i ? "," : "", i);
        yo += (size_t)snprintf(y + yo, cap - yo, "%st%d", i ? ", " : "", i);
    }
    snprintf(j + jo, cap - jo, "]}");
    snprintf(y + yo, cap - yo, "]\n");
    CHECK(same_bytes(j, "big.json", y, "big.yaml"));
    free(j);
    free(y);
}

TEST_MAIN_BEGIN("bake_json")
    RUN(escaped_keys);
    RUN(big_document_like_yaml);
    blobc_schema_free(g_schema);
TEST_MAIN_END
