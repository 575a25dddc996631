/*
 * test_bake_json.c - the JSON front end's own shortcuts: keys are read
 * straight from the text (the field expected next is matched without a
 * scan), so keys with escapes (and keys holding "\u0000") must still be
 * found, and still locate errors; the punctuation of objects and arrays is
 * checked by the walk itself; a $type after the data restarts the bake;
 * big documents bake like the same data in YAML; and numbers converted by
 * the tokenizer's fast path are the doubles strtod gives, bit for bit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake/json_lex.h"
#include "blobc/blobc.h"
#include "test.h"

static const char schema_text[] =
    "struct R { name: string; count: u32; ids: [u32]; tags: [string]; }\n"
    "struct S { n: u8; inner: *S; }\n"
    "struct G { grid: [[u32]]; }\n"
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

/* The text is copied to a buffer of exactly its length, without the NUL,
 * so that under ASan a read past the end of the input fails the test. */
static const char *bake_str(const char *text) {
    blobc_buffer out = {0};
    size_t n = strlen(text);
    char *exact = malloc(n ? n : 1);
    if (!exact) return "out of memory";
    memcpy(exact, text, n);
    const char *r = bake(exact, n, "t.json", &out);
    free(exact);
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

/* The same document as JSON and as YAML, grown piece by piece. */
typedef struct pair {
    char *j, *y;
    size_t jo, yo, cap;
} pair;

static bool pair_new(pair *p, size_t cap) {
    p->j = malloc(cap);
    p->y = malloc(cap);
    p->jo = p->yo = 0;
    p->cap = cap;
    return p->j && p->y;
}

static void pair_add(pair *p, const char *j, const char *y) {
    p->jo += (size_t)snprintf(p->j + p->jo, p->cap - p->jo, "%s", j);
    p->yo += (size_t)snprintf(p->y + p->yo, p->cap - p->yo, "%s", y);
}

/* n numbers, comma-separated, into both. */
static void pair_numbers(pair *p, int n) {
    for (int i = 0; i < n; i++) {
        char num[32];
        snprintf(num, sizeof num, "%s%u", i ? ", " : "", (unsigned)i * 2654435761u);
        pair_add(p, num, num);
    }
}

static bool pair_same(pair *p) {
    bool same = same_bytes(p->j, "big.json", p->y, "big.yaml");
    free(p->j);
    free(p->y);
    return same;
}

TEST(big_document_like_yaml) {
    /* 200,000 items in arrays the front end reads an item at a time. */
    enum { N = 200000 };
    pair p;
    CHECK(pair_new(&p, (size_t)N * 24 + 256));
    if (!p.j || !p.y) return;
    pair_add(&p, "{\"name\": \"big\", \"count\": 200000, \"ids\": [", "name: big\ncount: 200000\nids: [");
    pair_numbers(&p, N);
    pair_add(&p, "], \"tags\": [", "]\ntags: [");
    for (int i = 0; i < N / 4; i++) {
        char j[32], y[32];
        snprintf(j, sizeof j, "%s\"t%d\"", i ? "," : "", i);
        snprintf(y, sizeof y, "%st%d", i ? ", " : "", i);
        pair_add(&p, j, y);
    }
    pair_add(&p, "]}", "]\n");
    CHECK(pair_same(&p));
}

TEST(big_item_like_yaml) {
    /* One item of 200,000 numbers: its tree alone is well over the 2 MiB
     * the arena maps. */
    enum { N = 200000 };
    pair p;
    CHECK(pair_new(&p, (size_t)N * 24 + 256));
    if (!p.j || !p.y) return;
    pair_add(&p, "{\"$type\": \"G\", \"grid\": [[1], [", "$type: G\ngrid: [[1], [");
    pair_numbers(&p, N);
    pair_add(&p, "], [], [2, 3]]}", "], [], [2, 3]]\n");
    CHECK(pair_same(&p));
}

TEST(counted_arrays) {
    /* A short array of scalars is counted before it is read (its items
     * allocated at once): brackets and commas inside strings, white
     * space, nesting and arrays on either side of the count's limit bake
     * as the same data in YAML. */
    CHECK(same_bytes("{\"name\": \"a\", \"count\": 1, \"ids\": [ 1 ,\n2 ], "
                     "\"tags\": [\"x,]\", \"[{\\\"\", \"\"]}",
                     "a.json", "name: a\ncount: 1\nids: [1, 2]\ntags: ['x,]', '[{\"', '']\n",
                     "a.yaml"));
    CHECK(same_bytes("{\"name\": \"a\", \"count\": 2, \"ids\": [ ], \"tags\": [\"\"]}", "a.json",
                     "name: a\ncount: 2\nids: []\ntags: ['']\n", "a.yaml"));
    CHECK(same_bytes("{\"$type\": \"G\", \"grid\": [[1, 2], [], [3]]}", "g.json",
                     "$type: G\ngrid: [[1, 2], [], [3]]\n", "g.yaml"));
    for (int n = 90; n <= 120; n += 2) { /* "1234567890," = 11 bytes an item */
        pair p;
        CHECK(pair_new(&p, 4096));
        if (!p.j || !p.y) return;
        pair_add(&p, "{\"name\": \"a\", \"count\": 1, \"ids\": [", "name: a\ncount: 1\nids: [");
        for (int i = 0; i < n; i++)
            pair_add(&p, i ? ",1234567890" : "1234567890", i ? ", 1234567890" : "1234567890");
        pair_add(&p, "], \"tags\": []}", "]\ntags: []\n");
        CHECK(pair_same(&p));
    }
    /* A wrong item in a counted array is reported where it is. */
    CHECK_STR(bake_str("{\"ids\": [1, \"2\", 3]}"),
              "t.json:1:13: /ids/1: error: expected an integer in u32 range 0..4294967295, got the "
              "string \"2\"");
    CHECK_STR(bake_str("{\"ids\": [1, \"2]}"),
              "t.json:1:13: error: invalid JSON: unterminated string");
}

TEST(streamed_punctuation) {
    /* The top-level object and the arrays in it are read without cJSON. */
    CHECK_STR(bake_str("{\"name\": \"a\" \"count\": 1}"),
              "t.json:1:14: error: invalid JSON: expected ',' or '}' after an object member, got '\"'");
    CHECK_STR(bake_str("{\"name\" 1}"), "t.json:1:9: error: invalid JSON: expected ':' after an object key, got '1'");
    CHECK_STR(bake_str("{\"ids\": [1 2]}"), "t.json:1:12: error: invalid JSON: expected ',' or ']' after an array item, got '2'");
    CHECK_STR(bake_str("{\"ids\": [1,]}"), "t.json:1:11: error: invalid JSON: trailing comma: ']' after ',' (JSON allows no comma after the last item)");
    CHECK_STR(bake_str("{\"ids\": [,1]}"), "t.json:1:10: error: invalid JSON: unexpected ',' after '['");
    CHECK_STR(bake_str("{\"ids\": [1],}"), "t.json:1:12: error: invalid JSON: trailing comma: '}' after ',' (JSON allows no comma after the last member)");
    CHECK_STR(bake_str("{,\"ids\": [1]}"), "t.json:1:2: error: invalid JSON: expected a string key, got ','");
    CHECK_STR(bake_str("{\"ids\": [1]"), "t.json:1:12: error: invalid JSON: unexpected end of input");
    CHECK_STR(bake_str("{\"ids\": [1"), "t.json:1:11: error: invalid JSON: unexpected end of input");
    CHECK_STR(bake_str("{\"ids\": "), "t.json:1:9: error: invalid JSON: unexpected end of input");
    CHECK_STR(bake_str("{\"name\": "), "t.json:1:10: error: invalid JSON: unexpected end of input");
    CHECK_STR(bake_str("{\"$type\": \"S\", \"inner\": {\"n\": 1, \"inner\": "),
              "t.json:1:43: error: invalid JSON: unexpected end of input");
    CHECK_STR(bake_str("{\"na"), "t.json:1:2: error: invalid JSON: unterminated string");
    /* Control bytes and a byte-order mark are not white space, even where
     * cJSON would skip them. */
    CHECK_STR(bake_str("{\"ids\": [1]\x01}"), "t.json:1:12: error: invalid JSON: expected ',' or '}' after an object member, got byte 0x01");
    CHECK_STR(bake_str("{\"ids\": [\x01 1]}"), "t.json:1:10: error: invalid JSON: unexpected byte 0x01 after '['");
    CHECK_STR(bake_str("{\"count\": \xef\xbb\xbf" "1}"),
              "t.json:1:11: error: invalid JSON: unexpected byte 0xef after ':'");
    /* A byte-order mark is allowed at the start only. */
    CHECK_STR(bake_str("\xef\xbb\xbf[1]"),
              "t.json:1:2: error: the top level is an array, which only a @stream root takes; R is "
              "not one (expected an object holding its fields)");
    CHECK_STR(bake_str("\xef\xbb\xbf \xef\xbb\xbf{}"), "t.json:1:3: error: invalid JSON: unexpected byte 0xef");
    CHECK_STR(bake_str("\xef\xbb\xbf{\"count\": 1.5}"),
              "t.json:1:12: /count: error: expected an integer in u32 range 0..4294967295, got \"1.5\"");
    /* After the meta keys too. */
    CHECK_STR(bake_str("{\"$type\": \"S\" \"n\": 1}"), "t.json:1:15: error: invalid JSON: expected ',' or '}' after an object member, got '\"'");
    CHECK_STR(bake_str("{\"$type\": \"S\",}"), "t.json:1:14: error: invalid JSON: trailing comma: '}' after ',' (JSON allows no comma after the last member)");
    /* A syntax error goes first, as in YAML: a value error before it in
     * the text is often its echo, and is not reported. */
    CHECK_STR(bake_str("{\"count\": -1, \"ids\": [1 2]}"),
              "t.json:1:25: error: invalid JSON: expected ',' or ']' after an array item, got '2'");
    /* White space of every kind, and empty containers, are fine. */
    CHECK(same_bytes(" \r\n\t{ \"name\" :\t\"a\" ,\n\"count\"\r:1,\"ids\":[ ],\"tags\":[\n] }\n ", "a.json",
                     "{\"name\":\"a\",\"count\":1,\"ids\":[],\"tags\":[]}", "b.json"));
    CHECK(same_bytes("{\"$type\":\"S\",\"n\":1,\"inner\":{\"n\":2,\"inner\":null}}", "a.json",
                     "$type: S\nn: 1\ninner: {n: 2, inner: null}\n", "b.yaml"));
}

TEST(meta_keys_anywhere) {
    const char *first = "{\"$type\": \"S\", \"n\": 5, \"inner\": null}";
    /* A late $type naming another root: the bake starts over as that type. */
    CHECK(same_bytes(first, "a.json", "{\"n\": 5, \"inner\": null, \"$type\": \"S\"}", "b.json"));
    CHECK(same_bytes(first, "a.json", "{\"n\": 5, \"inner\": null, \"\\u0024type\": \"S\"}", "b.json"));
    /* Even when the data has already failed as the schema's root. */
    CHECK(same_bytes(first, "a.json", "{\"n\": 5, \"inner\": {\"n\": 1, \"inner\": null, \"x\": 1}, \"$type\": \"S\"}",
                     "b.json") == false);
    CHECK_STR(bake_str("{\"n\": 5, \"inner\": {\"n\": 1, \"inner\": null, \"x\": 1}, \"$type\": \"S\"}"),
              "t.json:1:43: /inner/x: error: unknown field \"x\" in struct S (fields: n, inner)");
    /* A late $type naming the root already in use changes nothing. */
    CHECK(same_bytes("{\"name\": \"a\", \"count\": 1, \"ids\": [], \"tags\": [], \"$type\": \"R\"}", "a.json",
                     "{\"name\": \"a\", \"count\": 1, \"ids\": [], \"tags\": []}", "b.json"));
    /* Errors of late meta keys name their place. */
    CHECK_STR(bake_str("{\"n\": 5, \"$type\": 7}"),
              "t.json:1:19: /$type: error: \"$type\" must be a string (the root type's name)");
    CHECK_STR(bake_str("{\"n\": 5, \"$type\": \"S\", \"$type\": \"S\"}"),
              "t.json:1:33: /$type: error: duplicate key \"$type\"");
    CHECK_STR(bake_str("{\"$type\": \"S\", \"n\": 1, \"$type\": \"R\"}"),
              "t.json:1:33: /$type: error: duplicate key \"$type\"");
    CHECK_STR(bake_str("{\"n\": 5, \"$type\": \"Q\"}"),
              "t.json:1:19: /$type: error: unknown type \"Q\" (from $type) in schema t.schema");
    CHECK_STR(bake_str("{\"count\": 1, \"$type\": \"S\", \"n\": 2}"),
              "t.json:1:2: /count: error: unknown field \"count\" in struct S (fields: n, inner)");
}

/* JSON allows four white-space bytes; cJSON, which the front end once
 * walked in step with, skipped any byte up to 0x20, and the walk then read
 * past a string's end quoting it for a type error. A control byte wherever
 * white space may stand, inside every kind of value (a union's object, a
 * fixed-size array, an escaped key or string, a value of the wrong kind),
 * is a syntax error at that byte. */
TEST(control_bytes_as_space) {
    static const char sch[] = "struct V { x: f32; } union U { V }\n"
                              "struct R { u: U; f: [u8; 3]; s: string; n: u8; }\nroot R;\n";
    static const char *const docs[] = {
        "{\"u\":{\"V\"@:\"\"},\"f\":[1,2,3],\"s\":\"\",\"n\":1}",
        "{\"u\":{@\"V\":{\"x\":1}},\"f\":[1,2,3],\"s\":\"\",\"n\":1}",
        "{\"u\":{\"V\":@{\"x\":1}},\"f\":[1,2,3],\"s\":\"\",\"n\":1}",
        "{\"u\":{\"V\":{\"x\":1}@},\"f\":[1,2,3],\"s\":\"\",\"n\":1}",
        "{\"u\":{\"V\":{\"x\"@:1}},\"f\":[1,2,3],\"s\":\"\",\"n\":1}",
        "{\"u\":{\"V\":{\"x\":1}},\"f\":[1,@2,3],\"s\":\"\",\"n\":1}",
        "{\"u\":{\"V\":{\"x\":1}},\"f\":[1,2@,3],\"s\":\"\",\"n\":1}",
        "{\"u\":{\"V\":{\"x\":1}},\"f\":[1,2,3@],\"s\":\"\",\"n\":1}",
        "{\"u\":{\"V\":{\"x\":1}},\"f\":[1,2,3],\"s\":\"\\u0041\"@,\"n\":1}",
        "{\"u\":{\"V\":{\"x\":1}},\"f\":[1,2,3],\"\\u0073\"@:\"\",\"n\":1}",
        "{\"u\":{\"V\":{\"x\":1}},\"f\":[1,2,3],\"s\":\"\",\"n\":[@\"\"]}",
        "{\"u\":{\"V\":{\"x\":1}},\"f\":[1,2,3],\"s\":\"\",\"n\":{\"a\"@:1}}",
    };
    blobc_schema *s = NULL;
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_schema_parse(sch, sizeof sch - 1, "c.schema", &s, &err), BLOBC_OK);
    for (size_t d = 0; d < sizeof docs / sizeof docs[0]; d++) {
        size_t n = strlen(docs[d]), at = (size_t)(strchr(docs[d], '@') - docs[d]);
        for (int c = 1; c < 0x20; c++) {
            if (c == '\t' || c == '\n' || c == '\r') continue;
            char *text = malloc(n); /* exactly the text: ASan sees a read past it */
            if (!text) FAILF("out of memory");
            memcpy(text, docs[d], n);
            text[at] = (char)c;
            blobc_bake_options o;
            memset(&o, 0, sizeof o);
            o.schema = s;
            o.output = BLOBC_OUTPUT_RAW;
            blobc_buffer out = {0};
            blobc_error_clear(&err);
            blobc_status st = blobc_bake_memory(text, n, "c.json", &o, &out, &err);
            free(text);
            blobc_buffer_free(&out);
            char want[64];
            snprintf(want, sizeof want, "byte 0x%02x", c);
            if (st != BLOBC_EINPUT || err.line != 1 || err.column != at + 1 ||
                !strstr(err.message, "invalid JSON") || !strstr(err.message, want)) {
                blobc_schema_free(s);
                FAILF("document %zu, byte 0x%02x at column %zu: status %d, %u:%u: %s", d, c,
                      at + 1, (int)st, (unsigned)err.line, (unsigned)err.column, err.message);
            }
        }
    }
    blobc_schema_free(s);
}

/* xorshift: the same numbers on every run. */
static uint64_t rnd(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random JSON numbers of every shape the fast path takes (up to 19
 * digits, fractions, exponents, signs) and some it must refuse: where it
 * gives a double, strtod gives the same bits; where it gives an integer,
 * that is the number. */
TEST(numbers_as_strtod) {
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    unsigned fast = 0;
    for (int n = 0; n < 200000; n++) {
        char buf[64];
        size_t o = 0;
        if (rnd(&seed) % 3 == 0) buf[o++] = '-';
        unsigned idig = 1 + (unsigned)(rnd(&seed) % 20);
        buf[o++] = idig == 1 ? (char)('0' + rnd(&seed) % 10) : (char)('1' + rnd(&seed) % 9);
        for (unsigned i = 1; i < idig; i++) buf[o++] = (char)('0' + rnd(&seed) % 10);
        if (rnd(&seed) % 2) {
            buf[o++] = '.';
            unsigned f = 1 + (unsigned)(rnd(&seed) % 18);
            for (unsigned i = 0; i < f; i++) buf[o++] = (char)('0' + rnd(&seed) % 10);
        }
        if (rnd(&seed) % 4 == 0)
            o += (size_t)snprintf(buf + o, sizeof buf - o, "e%s%d", rnd(&seed) % 2 ? "-" : "+",
                                  (int)(rnd(&seed) % 40));
        buf[o] = '\0';
        jl_num num;
        CHECK(jl_number(buf, o, 0, &num));
        CHECK(num.json);
        CHECK_EQ_U(num.end, o);
        if (num.has_d) {
            double want = strtod(buf, NULL);
            if (memcmp(&want, &num.d, sizeof want) != 0) {
                printf("FAIL bake_json.numbers_as_strtod: %s gives %.17g, strtod %.17g\n", buf,
                       num.d, want);
                exit(1);
            }
            fast++;
        }
        if (num.has_u) CHECK(num.u == strtoull(buf, NULL, 10) && !strchr(buf, '.'));
    }
    CHECK(fast > 50000); /* the fast path is taken, not just refused */
    static const char *const not_json[] = {"01", "1.", ".5", "+1", "1e", "--1", "1.5.5", "0x10"};
    for (size_t i = 0; i < sizeof not_json / sizeof not_json[0]; i++) {
        jl_num num;
        bool digit = jl_number(not_json[i], strlen(not_json[i]), 0, &num);
        CHECK(!digit || !num.json || num.end != strlen(not_json[i])); /* "0" then "x10" */
    }
}

TEST_MAIN_BEGIN("bake_json")
    RUN(escaped_keys);
    RUN(big_document_like_yaml);
    RUN(big_item_like_yaml);
    RUN(counted_arrays);
    RUN(streamed_punctuation);
    RUN(numbers_as_strtod);
    RUN(meta_keys_anywhere);
    RUN(control_bytes_as_space);
    blobc_schema_free(g_schema);
TEST_MAIN_END
