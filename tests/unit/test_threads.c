/*
 * test_threads.c - the library on several threads at once: every thread
 * bakes JSON and YAML (a YAML level over 1 MiB, so the bake also starts
 * its YAML parsing thread, and small files), dumps, verifies and generates
 * C, round after round, and every output must equal, byte for byte, what
 * one thread produced alone (the verify report, which the library writes
 * with cJSON, is made too). A host thread uses cJSON meanwhile, with
 * allocation hooks of its own that must stay installed and see every
 * allocation freed. Run by make check, under ASan by make asan and under
 * TSan by make tsan (THREADS_ROUNDS sets the rounds).
 */
#include <cjson/cJSON.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobc.h"
#include "test.h"

#define NTHREADS 4

/* ---- inputs ---- */

typedef struct input {
    const char *name;     /* file name given to the bake (picks the format) */
    char *text;
    size_t len;
    const blobc_schema *schema;
} input;

typedef struct expected {
    blobc_buffer blob, yaml, json;
} expected;

static blobc_schema *g_level;  /* schemas/level.schema: every kind of type */
static blobc_schema *g_bench;  /* bench/level.schema: the big level */
static char *g_level_text;
static size_t g_level_len;
static input g_in[4];
static expected g_want[4];
static blobc_buffer g_gen_want;
static int g_rounds = 3;

static char *slurp(const char *path, size_t *len) {
    uint8_t *data;
    blobc_error err;
    if (blobc_read_file(path, &data, len, &err)) {
        printf("FAIL threads.setup: %s\n", err.message);
        exit(1);
    }
    return (char *)data;
}

static void append(blobc_buffer *b, const char *s) {
    size_t n = strlen(s);
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1 << 16;
        while (cap < b->len + n + 1) cap *= 2;
        b->data = realloc(b->data, cap);
        if (!b->data) exit(1);
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n + 1);
    b->len += n;
}

/* The same level of `rooms` rooms as block YAML and as JSON. */
static void big_level(int rooms, blobc_buffer *yaml, blobc_buffer *json) {
    static const char *const kinds[] = {"floor", "wall", "door", "stairs"};
    char line[400];
    append(yaml, "name: threads\nrooms:\n");
    append(json, "{\"name\": \"threads\", \"rooms\": [");
    for (int i = 0; i < rooms; i++) {
        double x = i * 0.5, y = -i * 0.25, z = (i % 7) * 1.5;
        snprintf(line, sizeof line,
                 "  - name: room %d\n    kind: %s\n    center: {x: %g, y: %g, z: %g}\n"
                 "    radius: %g\n    lit: %s\n    neighbors: [%d, %d]\n    tags: [t%d, \"q %d\"]\n",
                 i, kinds[i % 4], x, y, z, 1.0 + (i % 3), i % 2 ? "true" : "false", i + 1, i + 2,
                 i % 5, i);
        append(yaml, line);
        snprintf(line, sizeof line,
                 "%s{\"name\": \"room %d\", \"kind\": \"%s\", \"center\": {\"x\": %g, \"y\": %g, "
                 "\"z\": %g}, \"radius\": %g, \"lit\": %s, \"neighbors\": [%d, %d], "
                 "\"tags\": [\"t%d\", \"q %d\"]}",
                 i ? ", " : "", i, kinds[i % 4], x, y, z, 1.0 + (i % 3), i % 2 ? "true" : "false",
                 i + 1, i + 2, i % 5, i);
        append(json, line);
    }
    append(json, "]}\n");
}

/* ---- one job: bake, dump both ways, verify, generate ---- */

static int bake_and_check(const input *in, const expected *want, const blobc_schema *gen_schema) {
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    o.schema = in->schema;
    blobc_buffer blob = {0}, text = {0};
    blobc_error err;
    int bad = 0;
    if (blobc_bake_memory(in->text, in->len, in->name, &o, &blob, &err) != BLOBC_OK) {
        printf("bake %s: %s\n", in->name, err.message);
        return 1;
    }
    bad |= blob.len != want->blob.len || memcmp(blob.data, want->blob.data, blob.len) != 0;
    blobc_dump_options d;
    memset(&d, 0, sizeof d);
    bad |= blobc_dump(blob.data, blob.len, &d, &text, &err) != BLOBC_OK;
    bad |= text.len != want->yaml.len || memcmp(text.data, want->yaml.data, text.len) != 0;
    d.format = BLOBC_DUMP_JSON;
    text.len = 0;
    bad |= blobc_dump(blob.data, blob.len, &d, &text, &err) != BLOBC_OK;
    bad |= text.len != want->json.len || memcmp(text.data, want->json.data, text.len) != 0;
    bad |= blobc_verify_blob(blob.data, blob.len, NULL, &err) != BLOBC_OK;
    /* the verify report is written with cJSON, through the host's hooks */
    text.len = 0;
    bad |= blobc_verify_report_json(in->name, &err, &text, NULL) != BLOBC_OK;
    bad |= text.len < 2 || memcmp(text.data + text.len - 2, "}\n", 2) != 0;
    text.len = 0;
    bad |= blobc_gen_c(gen_schema, NULL, &text, NULL) != BLOBC_OK;
    bad |= text.len != g_gen_want.len || memcmp(text.data, g_gen_want.data, text.len) != 0;
    if (bad) printf("mismatch on %s\n", in->name);
    blobc_buffer_free(&blob);
    blobc_buffer_free(&text);
    return bad;
}

static void expect_of(const input *in, expected *want) {
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    o.schema = in->schema;
    o.one_thread = true;
    blobc_error err;
    blobc_dump_options d;
    memset(&d, 0, sizeof d);
    if (blobc_bake_memory(in->text, in->len, in->name, &o, &want->blob, &err) ||
        blobc_dump(want->blob.data, want->blob.len, &d, &want->yaml, &err)) {
        printf("FAIL threads.setup: %s: %s\n", in->name, err.message);
        exit(1);
    }
    d.format = BLOBC_DUMP_JSON;
    if (blobc_dump(want->blob.data, want->blob.len, &d, &want->json, &err)) exit(1);
}

/* ---- a host program's own cJSON, on its own thread ---- */

static atomic_long g_host_allocs, g_host_frees;
static atomic_int g_stop;

static void *host_malloc(size_t n) {
    atomic_fetch_add(&g_host_allocs, 1);
    return malloc(n);
}

static void host_free(void *p) {
    if (p) atomic_fetch_add(&g_host_frees, 1);
    free(p);
}

static void host_thread(void *arg) {
    static const char doc[] = "{\"a\":[1,2,3],\"b\":{\"c\":\"text\",\"d\":true},\"e\":null}";
    long *bad = arg;
    while (!atomic_load(&g_stop)) {
        cJSON *v = cJSON_Parse(doc);
        char *s = v ? cJSON_PrintUnformatted(v) : NULL;
        if (!s || strcmp(s, doc) != 0) (*bad)++;
        if (s) cJSON_free(s);
        cJSON_Delete(v);
    }
}

/* ---- the workers ---- */

typedef struct worker {
    int id;
    int failures;
} worker;

static void work(void *arg) {
    worker *w = arg;
    /* Each thread its own schema for gen, parsed while the others bake;
     * the bakes share the two loaded schemas (only read). */
    blobc_schema *own = NULL;
    if (blobc_schema_parse(g_level_text, g_level_len, "schemas/level.schema", &own, NULL)) {
        w->failures++;
        return;
    }
    size_t n = sizeof g_in / sizeof g_in[0];
    for (int r = 0; r < g_rounds; r++)
        for (size_t j = 0; j < n; j++) {
            size_t k = (j + (size_t)w->id + (size_t)r) % n; /* threads start on different jobs */
            /* The big inputs once a round, the small ones four times. */
            int times = g_in[k].len > 100000 ? 1 : 4;
            for (int t = 0; t < times; t++) w->failures += bake_and_check(&g_in[k], &g_want[k], own);
        }
    blobc_schema_free(own);
}

TEST(threads_match_one_thread) {
    blobc_os_thread th[NTHREADS], host;
    worker ws[NTHREADS];
    long host_bad = 0;
    atomic_store(&g_stop, 0);
    CHECK_EQ_I(blobc_os_thread_start(&host, host_thread, &host_bad), 0);
    for (int i = 0; i < NTHREADS; i++) {
        ws[i] = (worker){i, 0};
        CHECK_EQ_I(blobc_os_thread_start(&th[i], work, &ws[i]), 0);
    }
    int failures = 0;
    for (int i = 0; i < NTHREADS; i++) {
        blobc_os_thread_join(&th[i]);
        failures += ws[i].failures;
    }
    atomic_store(&g_stop, 1);
    blobc_os_thread_join(&host);
    CHECK_EQ_I(failures, 0);
    CHECK_EQ_I(host_bad, 0);
}

/* The host's hooks are still installed, and every allocation made through
 * them (the host's and the library's alike) was freed. */
TEST(host_cjson_hooks_kept) {
    long before = atomic_load(&g_host_allocs);
    cJSON *v = cJSON_Parse("[1]");
    CHECK(v != NULL);
    cJSON_Delete(v);
    CHECK(atomic_load(&g_host_allocs) > before);
    CHECK_EQ_I(atomic_load(&g_host_allocs), atomic_load(&g_host_frees));
}

TEST_MAIN_BEGIN("threads")
const char *r = getenv("THREADS_ROUNDS");
if (r && atoi(r) > 0) g_rounds = atoi(r);
cJSON_Hooks hooks = {host_malloc, host_free};
cJSON_InitHooks(&hooks);

blobc_error err;
g_level_text = slurp("schemas/level.schema", &g_level_len);
size_t blen;
char *btext = slurp("bench/level.schema", &blen);
if (blobc_schema_parse(g_level_text, g_level_len, "schemas/level.schema", &g_level, &err) ||
    blobc_schema_parse(btext, blen, "bench/level.schema", &g_bench, &err)) {
    printf("FAIL threads.setup: %s\n", err.message);
    return 1;
}
free(btext);
if (blobc_gen_c(g_level, NULL, &g_gen_want, &err)) return 1;

blobc_buffer yaml = {0}, json = {0};
big_level(12000, &yaml, &json);
g_in[0] = (input){"big.yaml", (char *)yaml.data, yaml.len, g_bench};
g_in[1] = (input){"big.json", (char *)json.data, json.len, g_bench};
g_in[2].name = "level.yaml";
g_in[2].text = slurp("samples/level.yaml", &g_in[2].len);
g_in[2].schema = g_level;
g_in[3].name = "level.json";
g_in[3].text = slurp("samples/level.json", &g_in[3].len);
g_in[3].schema = g_level;
if (g_in[0].len < 1024 * 1024) {
    printf("FAIL threads.setup: the big YAML is only %zu bytes\n", g_in[0].len);
    return 1;
}
for (size_t i = 0; i < 4; i++) expect_of(&g_in[i], &g_want[i]);

RUN(threads_match_one_thread);
RUN(host_cjson_hooks_kept);

for (size_t i = 0; i < 4; i++) {
    free(g_in[i].text);
    blobc_buffer_free(&g_want[i].blob);
    blobc_buffer_free(&g_want[i].yaml);
    blobc_buffer_free(&g_want[i].json);
}
blobc_buffer_free(&g_gen_want);
blobc_schema_free(g_level);
blobc_schema_free(g_bench);
free(g_level_text);
TEST_MAIN_END
