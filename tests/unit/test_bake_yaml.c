/*
 * test_bake_yaml.c - a big YAML input is parsed on a second thread while
 * the first bakes. Whatever the document, the bytes and every error must
 * be the same as baking it on one thread: errors early (the baker stops
 * while the parser is still ahead), late, from the parser itself, and
 * from the reader; aliases replayed across batch boundaries; and the
 * file path, which streams the input, as well as text in memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobc.h"
#include "test.h"

static const char schema_text[] =
    "struct Item { id: u32; name: string; tags: [string]; at: [f32; 2]; }\n"
    "struct Doc { items: [Item]; ref: *Item; }\n"
    "root Doc;\n";

static blobc_schema *g_schema;
static char g_msg[2][4096];

static const blobc_schema *schema(void) {
    if (!g_schema) {
        blobc_error err;
        blobc_error_clear(&err);
        if (blobc_schema_parse(schema_text, sizeof schema_text - 1, "t.schema", &g_schema, &err)) {
            printf("FAIL bake_yaml.schema: the test schema does not parse\n");
            exit(1);
        }
    }
    return g_schema;
}

/* A document of n items (well over a megabyte from about 20,000), with
 * `bad` (if not NULL) in place of item number bad_at's name, which is then
 * on line 4 + 4 * bad_at (item 3 has its anchor on a line of its own). */
static char *doc(int n, int bad_at, const char *bad, size_t *len) {
    size_t cap = (size_t)n * 100 + 1024 + (bad ? strlen(bad) : 0);
    char *d = malloc(cap);
    if (!d) return NULL;
    size_t o = (size_t)snprintf(d, cap, "items:\n");
    for (int i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "item number %d", i);
        o += (size_t)snprintf(d + o, cap - o,
                              "  - %sid: %d\n    name: %s\n    tags: [t%d, %s]\n    at: [%d.5, -%d]\n",
                              i == 3 ? "&three\n    " : "", i, i == bad_at && bad ? bad : name,
                              i % 7, i % 2 ? "*tag" : "&tag odd", i, i);
    }
    o += (size_t)snprintf(d + o, cap - o, "ref: *three\n");
    *len = o;
    return d;
}

/* Bakes text both ways; returns whether they agree (bytes, or the whole
 * error), and leaves the threaded result's message (or "ok") in g_msg[0]. */
static bool both_ways(const char *text, size_t len, blobc_buffer *out) {
    blobc_buffer res[2] = {{0}, {0}};
    blobc_status st[2];
    blobc_error err[2];
    for (int one = 0; one < 2; one++) {
        blobc_bake_options o;
        memset(&o, 0, sizeof o);
        o.schema = schema();
        o.output = BLOBC_OUTPUT_RAW;
        o.one_thread = one == 1;
        blobc_error_clear(&err[one]);
        st[one] = blobc_bake_memory(text, len, "t.yaml", &o, &res[one], &err[one]);
        if (st[one] == BLOBC_OK) snprintf(g_msg[one], sizeof g_msg[one], "ok");
        else blobc_error_format(&err[one], g_msg[one], sizeof g_msg[one]);
    }
    bool same = st[0] == st[1] && strcmp(g_msg[0], g_msg[1]) == 0 && res[0].len == res[1].len &&
                (res[0].len == 0 || memcmp(res[0].data, res[1].data, res[0].len) == 0);
    if (!same) printf("  threaded: %s\n  one thread: %s\n", g_msg[0], g_msg[1]);
    if (out) *out = res[0];
    else blobc_buffer_free(&res[0]);
    blobc_buffer_free(&res[1]);
    return same;
}

static const char *first_line(const char *msg) {
    static char line[4096];
    snprintf(line, sizeof line, "%s", msg);
    char *nl = strchr(line, '\n');
    if (nl) *nl = '\0';
    return line;
}

TEST(same_bytes_both_ways) {
    size_t len;
    char *d = doc(40000, -1, NULL, &len);
    CHECK(d && len > 2 * 1024 * 1024);
    if (!d) return;
    blobc_buffer out = {0};
    CHECK(both_ways(d, len, &out));
    CHECK_STR(g_msg[0], "ok");
    /* The items really are there: 40,000 of them, the last one's id. */
    CHECK(out.len > 40000u * 36u);
    blobc_buffer_free(&out);
    free(d);
}

TEST(errors_both_ways) {
    size_t len;
    /* A value error early: the baker stops while the parser is ahead. */
    char *d = doc(40000, 5, "[not, a, string]", &len);
    CHECK(d != NULL);
    if (!d) return;
    CHECK(both_ways(d, len, NULL));
    CHECK_STR(first_line(g_msg[0]),
              "t.yaml:24:11: items[5].name: error: expected a string, got a sequence");
    free(d);
    /* The same, near the end. */
    d = doc(40000, 39990, "[not, a, string]", &len);
    CHECK(d != NULL);
    if (!d) return;
    CHECK(both_ways(d, len, NULL));
    CHECK_STR(first_line(g_msg[0]),
              "t.yaml:159964:11: items[39990].name: error: expected a string, got a sequence");
    free(d);
    /* A syntax error late in the text. */
    d = doc(40000, 39000, "x: : y", &len);
    CHECK(d != NULL);
    if (!d) return;
    CHECK(both_ways(d, len, NULL));
    CHECK_CONTAINS(g_msg[0], "t.yaml:156004:");
    CHECK_CONTAINS(g_msg[0], "error: invalid YAML: ");
    free(d);
    /* A reader error: a byte that is not UTF-8. */
    d = doc(40000, 30000, "bad \xff byte", &len);
    CHECK(d != NULL);
    if (!d) return;
    CHECK(both_ways(d, len, NULL));
    CHECK_CONTAINS(g_msg[0], "t.yaml:120004:");
    CHECK_CONTAINS(g_msg[0], "error: invalid YAML: invalid leading UTF-8 octet (byte 0xff)");
    free(d);
    /* An alias to no anchor, after many batches. */
    d = doc(40000, 35000, "*nowhere", &len);
    CHECK(d != NULL);
    if (!d) return;
    CHECK(both_ways(d, len, NULL));
    CHECK_CONTAINS(g_msg[0], "error: alias *nowhere refers to no anchor");
    free(d);
}

TEST(streamed_file) {
    size_t len;
    char *d = doc(30000, -1, NULL, &len);
    CHECK(d != NULL);
    if (!d) return;
    char path[] = "/tmp/blobc-test-yaml-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) {
        free(d);
        return;
    }
    FILE *f = fdopen(fd, "wb");
    CHECK(f && fwrite(d, 1, len, f) == len);
    if (f) fclose(f);
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    o.schema = schema();
    o.output = BLOBC_OUTPUT_RAW;
    o.input = BLOBC_INPUT_YAML;
    blobc_buffer a = {0}, b = {0};
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_bake_file(path, &o, &a, &err), BLOBC_OK);
    o.one_thread = true;
    CHECK_EQ_I(blobc_bake_file(path, &o, &b, &err), BLOBC_OK);
    CHECK(a.len > 0 && a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
    /* And the text in memory gives the same bytes. */
    blobc_buffer c = {0};
    CHECK(both_ways(d, len, &c));
    CHECK(c.len == a.len && memcmp(c.data, a.data, a.len) == 0);
    blobc_buffer_free(&a);
    blobc_buffer_free(&b);
    blobc_buffer_free(&c);
    remove(path);
    free(d);
}

TEST_MAIN_BEGIN("bake_yaml")
    RUN(same_bytes_both_ways);
    RUN(errors_both_ways);
    RUN(streamed_file);
    blobc_schema_free(g_schema);
TEST_MAIN_END
