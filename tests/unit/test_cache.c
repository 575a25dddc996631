/*
 * test_cache.c - bake plans (schema and root found without baking, the
 * cache key) and the directory cache used from many threads at once.
 */
#include <stdlib.h>
#include <unistd.h>

#include "blobc/blobc.h"
#include "blobc/cache.h"
#include "test.h"

static const char schema_text[] =
    "struct P { x: u32; name: string; tags: [string]; }\n"
    "struct Q { x: u32; name: string; tags: [string]; }\n"
    "root P;\n";

static blobc_schema *schema_of(const char *text) {
    blobc_schema *s = NULL;
    blobc_error err;
    return blobc_schema_parse(text, strlen(text), "t.schema", &s, &err) == BLOBC_OK ? s : NULL;
}

/* The key of `data` baked with `schema` and opts (strip, raw). */
static bool key_of(const char *data, const char *schema, bool strip, bool raw, uint8_t key[16]) {
    blobc_schema *s = schema_of(schema);
    if (!s) return false;
    blobc_bake_options o = {0};
    o.schema = s;
    o.strip = strip;
    o.output = raw ? BLOBC_OUTPUT_RAW : BLOBC_OUTPUT_BLOB;
    blobc_bake_plan plan;
    blobc_error err;
    bool ok = blobc_bake_plan_memory(data, strlen(data), "d.yaml", &o, &plan, &err) == BLOBC_OK;
    if (ok) memcpy(key, plan.key, 16);
    blobc_bake_plan_free(&plan);
    blobc_schema_free(s);
    return ok;
}

TEST(plan_finds_root_without_baking) {
    blobc_schema *s = schema_of(schema_text);
    CHECK(s != NULL);
    blobc_bake_options o = {0};
    o.schema = s;
    /* A data error after the meta keys: the plan never gets there. */
    const char *data = "$type: Q\nx: 1\nname: [oops]\n";
    blobc_bake_plan plan;
    blobc_error err;
    blobc_status st = blobc_bake_plan_memory(data, strlen(data), "d.yaml", &o, &plan, &err);
    bool ok = st == BLOBC_OK && plan.root && strcmp(plan.root->name, "Q") == 0 &&
              plan.schema == s && plan.input == BLOBC_INPUT_YAML;
    blobc_bake_plan_free(&plan);
    blobc_buffer out = {0};
    blobc_status bst = blobc_bake_memory(data, strlen(data), "d.yaml", &o, &out, &err);
    blobc_buffer_free(&out);
    blobc_schema_free(s);
    CHECK(ok);
    CHECK_EQ_I(bst, BLOBC_EINPUT);
}

TEST(plan_json_late_type) {
    blobc_schema *s = schema_of(schema_text);
    CHECK(s != NULL);
    blobc_bake_options o = {0};
    o.schema = s;
    const char *data = "{\"x\": 1, \"name\": \"a\", \"tags\": [], \"$type\": \"Q\"}";
    blobc_bake_plan plan;
    blobc_error err;
    blobc_status st = blobc_bake_plan_memory(data, strlen(data), "d.json", &o, &plan, &err);
    bool ok = st == BLOBC_OK && strcmp(plan.root->name, "Q") == 0 && plan.input == BLOBC_INPUT_JSON;
    blobc_bake_plan_free(&plan);
    blobc_schema_free(s);
    CHECK(ok);
}

/* JSON whose tail `tail` (a late "$type", a \u escape) begins at offset
 * `at` of the file: the name's string pads the text up to it. */
static char *json_with_tail_at(size_t at, const char *tail) {
    const char *head = "{\"x\": 1, \"tags\": [], \"name\": \"";
    size_t h = strlen(head), t = strlen(tail);
    char *text = malloc(at + t + 8);
    if (!text || at < h + 2) return text;
    memcpy(text, head, h);
    memset(text + h, 'a', at - h - 3);
    memcpy(text + at - 3, "\", ", 3);
    strcpy(text + at, tail);
    strcat(text, "}");
    return text;
}

/* A plan from the file (its passes read in pieces) is the plan from
 * memory: the same root and key, with the late "$type" or the \u escape
 * straddling the pieces' boundary at 256 KiB, or not. */
TEST(plan_file_same_as_memory) {
    char dir[] = "/tmp/blobc-cache-test.XXXXXX";
    CHECK(test_mkdtemp(dir) != NULL);
    blobc_schema *s = schema_of(schema_text);
    CHECK(s != NULL);
    blobc_bake_options o = {0};
    o.schema = s;
    static const char *const tails[] = {"\"$type\": \"Q\"", "\"z\": \"\\u0041\"",
                                        "\"z\": \"\\\\u\""};
    static const char *const roots[] = {"Q", "P", "P"};
    int bad = 0, cases = 0;
    char path[64];
    snprintf(path, sizeof path, "%s/d.json", dir);
    for (size_t i = 0; i < 3; i++) {
        for (size_t back = 0; back <= 8; back++, cases++) {
            char *text = json_with_tail_at(((size_t)256 << 10) - back, tails[i]);
            FILE *f = text ? fopen(path, "wb") : NULL;
            if (!f || fwrite(text, 1, strlen(text), f) != strlen(text)) bad++;
            if (f) fclose(f);
            blobc_bake_plan pm, pf;
            blobc_file_view v;
            blobc_error err;
            bool okm = text && blobc_bake_plan_memory(text, strlen(text), "d.json", &o, &pm, &err) == BLOBC_OK;
            bool okf = blobc_bake_plan_file(path, &o, &pf, &v, &err) == BLOBC_OK;
            if (!okm || !okf || memcmp(pm.key, pf.key, 16) != 0 || strcmp(pf.root->name, roots[i]) != 0 ||
                strcmp(pm.root->name, roots[i]) != 0)
                bad++;
            if (okm) blobc_bake_plan_free(&pm);
            if (okf) blobc_bake_plan_free(&pf);
            blobc_file_unmap(&v);
            free(text);
        }
    }
    test_rm_rf(dir);
    blobc_schema_free(s);
    CHECK_EQ_I(cases, 27);
    CHECK_EQ_I(bad, 0);
}

TEST(key_covers_what_decides_the_bytes) {
    const char *d = "x: 1\nname: a\ntags: [b]\n";
    uint8_t k[16], k2[16];
    CHECK(key_of(d, schema_text, false, false, k));
    CHECK(key_of(d, schema_text, false, false, k2));
    CHECK(memcmp(k, k2, 16) == 0);
    CHECK(key_of(d, schema_text, true, false, k2));
    CHECK(memcmp(k, k2, 16) != 0);
    CHECK(key_of(d, schema_text, false, true, k2));
    CHECK(memcmp(k, k2, 16) != 0);
    CHECK(key_of("x: 2\nname: a\ntags: [b]\n", schema_text, false, false, k2));
    CHECK(memcmp(k, k2, 16) != 0);
    /* Comments and an unused type: the same canonical schema. */
    CHECK(key_of(d, "// hi\nstruct P { x: u32; name: string; tags: [string]; }\nroot P;\n", false,
                 false, k2));
    CHECK(memcmp(k, k2, 16) == 0);
    /* A renamed field is another type description. */
    CHECK(key_of("x: 1\nnom: a\ntags: [b]\n", "struct P { x: u32; nom: string; tags: [string]; }\nroot P;\n",
                 false, false, k2));
    CHECK(memcmp(k, k2, 16) != 0);
    /* A default is in the key: with x left out, = 3 and = 4 bake apart, and
     * without one the bake fails. */
    const char *nox = "name: a\ntags: [b]\n";
    CHECK(key_of(nox, "struct P { x: u32 = 3; name: string; tags: [string]; }\nroot P;\n", false,
                 false, k));
    CHECK(key_of(nox, "struct P { x: u32 = 4; name: string; tags: [string]; }\nroot P;\n", false,
                 false, k2));
    CHECK(memcmp(k, k2, 16) != 0);
    CHECK(key_of(nox, schema_text, false, false, k2));
    CHECK(memcmp(k, k2, 16) != 0);
}

/* ---- the key is the same on every thread ----
 * Nothing the key reads may be shared scratch (a library's version
 * formatted into a static buffer, say): threads planning at once would
 * then see torn keys, and a batch would miss entries it holds. */

typedef struct key_arg {
    const blobc_schema *schema;
    const uint8_t *want;
    int bad;
} key_arg;

static void key_worker(void *p) {
    key_arg *a = p;
    const char *data = "x: 1\nname: a\ntags: [b]\n";
    for (int i = 0; i < 10000; i++) {
        blobc_bake_options o = {0};
        o.schema = a->schema;
        blobc_bake_plan plan;
        blobc_error err;
        if (blobc_bake_plan_memory(data, strlen(data), "d.yaml", &o, &plan, &err) != BLOBC_OK ||
            memcmp(plan.key, a->want, 16) != 0)
            a->bad++;
        blobc_bake_plan_free(&plan);
    }
}

TEST(key_same_on_every_thread) {
    uint8_t want[16];
    CHECK(key_of("x: 1\nname: a\ntags: [b]\n", schema_text, false, false, want));
    blobc_schema *s = schema_of(schema_text);
    CHECK(s != NULL);
    blobc_os_thread t[8];
    key_arg args[8];
    for (int i = 0; i < 8; i++) {
        args[i] = (key_arg){s, want, 0};
        blobc_os_thread_start(&t[i], key_worker, &args[i]);
    }
    int bad = 0;
    for (int i = 0; i < 8; i++) {
        blobc_os_thread_join(&t[i]);
        bad += args[i].bad;
    }
    blobc_schema_free(s);
    CHECK_EQ_I(bad, 0);
}

/* ---- many threads, one directory cache ---- */

typedef struct worker_arg {
    const char *dir;
    const blobc_schema *schema;
    int id;
    int bad;
} worker_arg;

static void worker(void *p) {
    worker_arg *w = p;
    blobc_cache *c;
    blobc_error err;
    if (blobc_cache_open(w->dir, &c, &err) != BLOBC_OK) {
        w->bad++;
        return;
    }
    uint64_t hits = 0, misses = 0;
    for (int round = 0; round < 20; round++) {
        char data[64];
        snprintf(data, sizeof data, "x: %d\nname: n%d\ntags: [a, b]\n", (w->id + round) % 8,
                 (w->id + round) % 8);
        blobc_bake_options o = {0};
        o.schema = w->schema;
        blobc_bake_plan plan;
        if (blobc_bake_plan_memory(data, strlen(data), "d.yaml", &o, &plan, &err) != BLOBC_OK) {
            w->bad++;
            continue;
        }
        blobc_buffer want = {0};
        blobc_cache_entry got;
        bool hit;
        blobc_error warn;
        if (blobc_bake_memory(data, strlen(data), "d.yaml", &o, &want, &err) != BLOBC_OK) w->bad++;
        blobc_cache_get(c, &plan, strlen(data), &o, &got, &hit, &warn);
        if (warn.status != BLOBC_OK && ++w->bad) fprintf(stderr, "get: %s\n", warn.message);
        if (hit) hits++;
        else misses++;
        if (hit && (got.len != want.len || memcmp(got.data, want.data, want.len) != 0)) w->bad++;
        if (!hit) blobc_cache_put(c, &plan, strlen(data), want.data, want.len, &warn);
        if (!hit && warn.status != BLOBC_OK && ++w->bad) fprintf(stderr, "put: %s\n", warn.message);
        blobc_buffer_free(&want);
        blobc_cache_entry_free(&got);
        blobc_bake_plan_free(&plan);
    }
    /* the handle counts its own lookups, whatever other handles do */
    uint64_t h, m;
    blobc_cache_counts(c, &h, &m);
    if (h != hits || m != misses) w->bad++;
    blobc_cache_close(c);
}

TEST(dir_cache_many_threads) {
    char dir[] = "/tmp/blobc-cache-test.XXXXXX";
    CHECK(test_mkdtemp(dir) != NULL);
    blobc_schema *s = schema_of(schema_text);
    CHECK(s != NULL);
    blobc_os_thread t[16];
    worker_arg args[16];
    for (int i = 0; i < 16; i++) {
        args[i] = (worker_arg){dir, s, i, 0};
        blobc_os_thread_start(&t[i], worker, &args[i]);
    }
    int bad = 0;
    for (int i = 0; i < 16; i++) {
        blobc_os_thread_join(&t[i]);
        bad += args[i].bad;
    }
    blobc_cache_stats st;
    blobc_error err;
    blobc_status sst = blobc_cache_dir_stats(dir, &st, &err);
    test_rm_rf(dir);
    blobc_schema_free(s);
    CHECK_EQ_I(bad, 0);
    CHECK_EQ_I(sst, BLOBC_OK);
    CHECK_EQ_U(st.entries, 8);
    CHECK_EQ_U(st.hits + st.misses, 16 * 20);
    CHECK(st.hits >= 16 * 20 - 16 * 8);
}

/* Writes n bytes of text (starting with `head`, then spaces) to dir/name. */
static void write_sized(const char *dir, const char *name, const char *head, size_t n, char *path) {
    sprintf(path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fputs(head, f);
    for (size_t i = strlen(head); i < n; i++) fputc(' ', f);
    fclose(f);
}

/* Which inputs a server is asked for: by size and format (the name's, else
 * the content's), and never when no input can reach the thresholds. */
TEST(server_asked_from_a_size_per_format) {
    char dir[] = "/tmp/blobc-cache-test.XXXXXX";
    CHECK(test_mkdtemp(dir) != NULL);
    blobc_cache_options o;
    blobc_cache_options_default(&o);
    CHECK_EQ_U(o.server_min_yaml, 256u << 10);
    CHECK_EQ_U(o.server_min_json, 2u << 20);
    o.server_min_yaml = 1000;
    o.server_min_json = 5000;
    char p[400];
    write_sized(dir, "a.yaml", "x: 1\n", 999, p);
    CHECK(!blobc_cache_asks_server(&o, p));
    write_sized(dir, "b.yaml", "x: 1\n", 1000, p);
    CHECK(blobc_cache_asks_server(&o, p));
    write_sized(dir, "c.json", "{}", 4999, p);
    CHECK(!blobc_cache_asks_server(&o, p));
    write_sized(dir, "d.JSON", "{}", 5000, p);
    CHECK(blobc_cache_asks_server(&o, p));
    /* no extension: the first character after white space decides */
    write_sized(dir, "e", " {}", 3000, p);
    CHECK(!blobc_cache_asks_server(&o, p));
    write_sized(dir, "f", " x: 1", 3000, p);
    CHECK(blobc_cache_asks_server(&o, p));
    /* what cannot be known beforehand asks */
    CHECK(blobc_cache_asks_server(&o, "-"));
    sprintf(p, "%s/none.yaml", dir);
    CHECK(blobc_cache_asks_server(&o, p));
    /* a cache: its directory always, its server from the threshold on */
    char spec[400];
    snprintf(spec, sizeof spec, "%s/local http://127.0.0.1:9/c", dir);
    blobc_cache_options never = {BLOBC_CACHE_SERVER_NEVER, BLOBC_CACHE_SERVER_NEVER};
    blobc_cache *c = NULL;
    CHECK_EQ_I(blobc_cache_open_with(spec, &never, &c, NULL), BLOBC_OK);
    CHECK(blobc_cache_asks(c, BLOBC_INPUT_YAML, 1));
    blobc_cache_close(c);
    c = NULL;
    CHECK_EQ_I(blobc_cache_open_with("http://127.0.0.1:9/c", &never, &c, NULL), BLOBC_OK);
    CHECK(!blobc_cache_asks(c, BLOBC_INPUT_YAML, (uint64_t)1 << 40));
    CHECK(!blobc_cache_asks(c, BLOBC_INPUT_JSON, (uint64_t)1 << 40));
    blobc_cache_close(c);
    CHECK(!blobc_cache_asks(NULL, BLOBC_INPUT_JSON, 1));
    test_rm_rf(dir);
}

/* The error contract (blobc/error.h) on the functions of this area. */
TEST(error_contract) {
    blobc_bake_plan plan;
    blobc_error e;
    CHECK_EQ_I(blobc_bake_plan_memory("x: 1\n", 5, "d.yaml", NULL, &plan, NULL), BLOBC_EINPUT);
    CHECK_EQ_I(blobc_bake_plan_memory("x", 1, "d.yaml", NULL, NULL, &e), BLOBC_EARG);
    CHECK_CONTAINS(e.message, "blobc_bake_plan_memory");
    CHECK_EQ_I(blobc_bake_plan_memory(NULL, 3, "d.yaml", NULL, &plan, &e), BLOBC_EARG);
    blobc_bake_plan_free(NULL);
    blobc_cache *c;
    CHECK_EQ_I(blobc_cache_open(NULL, &c, &e), BLOBC_EARG);
    CHECK_CONTAINS(e.message, "blobc_cache_open");
    CHECK_EQ_I(blobc_cache_open("/proc/no/such/cache", &c, NULL), BLOBC_EIO);
    CHECK_EQ_I(blobc_cache_open("/proc/no/such/cache", &c, &e), BLOBC_EIO);
    CHECK_CONTAINS(e.message, "cannot create the cache directory '/proc/no/such/cache'");
    blobc_cache_stats st;
    CHECK_EQ_I(blobc_cache_dir_stats("/proc/no/such/cache", &st, NULL), BLOBC_EIO);
    CHECK_EQ_I(blobc_cache_dir_stats(NULL, &st, &e), BLOBC_EARG);
    CHECK_EQ_I(blobc_cache_dir_prune(NULL, 0, NULL, &e), BLOBC_EARG);
    blobc_file_view v;
    CHECK_EQ_I(blobc_file_map("/proc/no/such/file", &v, NULL), BLOBC_EIO);
    CHECK_EQ_I(blobc_file_map(NULL, &v, &e), BLOBC_EARG);
    blobc_file_unmap(NULL);
    blobc_cache_entry out;
    bool hit = true;
    blobc_cache_get(NULL, NULL, 0, NULL, &out, &hit, &e);
    blobc_cache_entry_free(&out);
    blobc_cache_entry_free(NULL);
    CHECK_EQ_I(e.status, BLOBC_EARG);
    CHECK(!hit);
    blobc_cache_put(NULL, NULL, 0, NULL, 0, NULL);
}

TEST_MAIN_BEGIN("cache")
RUN(error_contract);
RUN(plan_finds_root_without_baking);
RUN(plan_json_late_type);
RUN(plan_file_same_as_memory);
RUN(key_covers_what_decides_the_bytes);
RUN(key_same_on_every_thread);
RUN(dir_cache_many_threads);
RUN(server_asked_from_a_size_per_format);
TEST_MAIN_END
