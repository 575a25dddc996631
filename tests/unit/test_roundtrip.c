/*
 * test_roundtrip.c - what verify accepts, dump writes so that bake reads
 * it back byte for byte, and upgrade to the same schema changes nothing
 * (the rule of tests/fuzz/roundtrip.h), over every blob of the fuzz
 * corpus, its regression cases and the blobs the tree holds, each read
 * both as a .blob and as a raw data section of the fuzz schema; then over
 * the cases found by hand: a chain of *T deeper than the dump's block
 * style, and unions that hold no member where the schema says they may not.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../fuzz/roundtrip.h"
#include "common/buffer.h"
#include "common/endian.h"
#include "test.h"

static const char *const corpus_dirs[] = {
    "tests/fuzz/corpus/fuzz_verify", "tests/fuzz/regress/fuzz_verify",
    "tests/fuzz/regress/fuzz_dump",  "tests/bad/blob",
    "tests/data/golden",             "samples",
};

static char g_why[1024];

/* The rule on the file's bytes (an aligned copy), both ways; counts the
 * readings it applied to. */
static rt_result one_file(const char *path, size_t *applied) {
    uint8_t *bytes = NULL;
    size_t len = 0;
    blobc_error err;
    if (blobc_read_file(path, &bytes, &len, &err) != BLOBC_OK) return RT_SKIP;
    rt_result worst = RT_SKIP;
    for (int raw = 0; raw <= 1 && worst != RT_FAIL; raw++) {
        rt_result r = fuzz_roundtrip(bytes, len, raw, g_why, sizeof g_why);
        if (r == RT_OK) ++*applied;
        if (r != RT_SKIP) worst = r;
    }
    free(bytes);
    return worst;
}

TEST(corpus) {
    size_t applied = 0, files = 0;
    for (size_t d = 0; d < sizeof corpus_dirs / sizeof corpus_dirs[0]; d++) {
        DIR *dir = opendir(corpus_dirs[d]);
        if (!dir) continue;
        struct dirent *e;
        while ((e = readdir(dir)) != NULL) {
            char path[1024];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", corpus_dirs[d], e->d_name);
            if (e->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
            files++;
            if (one_file(path, &applied) == RT_FAIL) {
                closedir(dir);
                FAILF("%s: %s", path, g_why);
            }
        }
        closedir(dir);
    }
    /* the fuzz corpus alone gives 9 blobs and 9 data sections that verify */
    if (applied < 18) FAILF("only %zu of %zu files verify: the corpus is missing", applied, files);
}

/* Bakes YAML text against schema text; the .blob in *out. */
static bool bake_text(const char *schema_text, const char *yaml, blobc_schema **s, blobc_buffer *out) {
    blobc_error err;
    if (blobc_schema_parse(schema_text, strlen(schema_text), "t.schema", s, &err) != BLOBC_OK)
        return false;
    blobc_bake_options o = {0};
    o.schema = *s;
    if (blobc_bake_memory(yaml, strlen(yaml), "t.yaml", &o, out, &err) != BLOBC_OK) {
        printf("    bake: %s\n", err.message);
        return false;
    }
    return true;
}

/* A linked list of n nodes (nesting n) of struct N { v: u8; next: *N; }:
 * node i at 8 i, its `next` at 8 i + 4 leading 4 bytes on, as the bake of
 * the list in block YAML lays it out (the layout is canonical: one value
 * graph, one byte string), without 2 n^2 bytes of indentation to parse. */
static bool bake_chain(int n, blobc_schema **s, blobc_buffer *blob) {
    static const char sch[] = "struct N { v: u8; next: *N; }\nroot N;\n";
    blobc_error err;
    if (blobc_schema_parse(sch, sizeof sch - 1, "n.schema", s, &err) != BLOBC_OK) return false;
    uint8_t *d = calloc((size_t)n, 8);
    if (!d) return false;
    for (int i = 0; i < n; i++) {
        d[8 * i] = (uint8_t)(i % 256);
        if (i + 1 < n) blobc_st32(d + 8 * i + 4, 4);
    }
    bool ok = blobc_blob_write(d, (size_t)n * 8, blobc_schema_root(*s), NULL, blob, &err) == BLOBC_OK;
    free(d);
    return ok;
}

/* The reported case: an 8,000-long list (from block YAML) dumps in flow
 * style below 64 levels, which bake must read back, and upgrade carry
 * over. */
TEST(deep_chain) {
    blobc_schema *s = NULL;
    blobc_buffer blob = {0};
    bool baked = bake_chain(8000, &s, &blob);
    rt_result r = baked ? fuzz_roundtrip(blob.data, blob.len, false, g_why, sizeof g_why) : RT_SKIP;
    blobc_buffer_free(&blob);
    blobc_schema_free(s);
    if (!baked) FAILF("no blob");
    if (r != RT_OK) FAILF("%s", r == RT_SKIP ? "the blob does not verify" : g_why);
}

/* Each format is dumped as deep as its bake reads, and no deeper (a JSON
 * dump then says to use YAML): a list exactly at the limit dumps and bakes
 * back to the same bytes, one a level deeper is refused. */
TEST(nesting_limits) {
    for (int json = 0; json <= 1; json++) {
        int limit = (int)(json ? BLOBC_JSON_MAX_NESTING : BLOBC_MAX_NESTING);
        for (int n = limit; n <= limit + 1; n++) {
            blobc_schema *s = NULL;
            blobc_buffer blob = {0}, text = {0}, back = {0};
            bool baked = bake_chain(n, &s, &blob);
            blobc_dump_options d = {0};
            d.format = json ? BLOBC_DUMP_JSON : BLOBC_DUMP_YAML;
            blobc_error err;
            blobc_error_clear(&err);
            blobc_status st = baked ? blobc_dump(blob.data, blob.len, &d, &text, &err) : BLOBC_EINPUT;
            blobc_bake_options o = {0};
            o.schema = s;
            o.input = json ? BLOBC_INPUT_JSON : BLOBC_INPUT_YAML;
            bool same = st == BLOBC_OK &&
                        blobc_bake_memory((const char *)text.data, text.len, "t", &o, &back, &err) ==
                            BLOBC_OK &&
                        back.len == blob.len && memcmp(back.data, blob.data, blob.len) == 0;
            size_t written = text.len;
            blobc_buffer_free(&blob);
            blobc_buffer_free(&text);
            blobc_buffer_free(&back);
            blobc_schema_free(s);
            if (!baked) FAILF("no blob of %d levels", n);
            if (n == limit && !same)
                FAILF("%s, %d levels: the dump does not bake back: %s", json ? "JSON" : "YAML", n,
                      err.message);
            if (n > limit && (st != BLOBC_EINPUT || written || !strstr(err.message, "bake reads")))
                FAILF("%s, %d levels: the dump is not refused (%s)", json ? "JSON" : "YAML", n,
                      err.message);
        }
    }
}

/* A copy of the blob whose union at data offset `at` holds none (tag and
 * offset 0): verify must refuse it with code union; NULL when it does. */
static const char *none_at(const blobc_buffer *blob, size_t at, blobc_buffer *copy) {
    copy->len = 0;
    if (!blobc_buf_append(copy, blob->data, blob->len)) return "out of memory";
    memset(copy->data + BLOBC_HEADER_SIZE + at, 0, 8);
    blobc_error err;
    blobc_verify_options vo = {0};
    vo.flags = BLOBC_VERIFY_NO_HASH;
    if (blobc_verify_blob(copy->data, copy->len, &vo, &err) == BLOBC_OK) return "none verifies";
    if (err.code == BLOBC_V_UNION) return NULL;
    snprintf(g_why, sizeof g_why, "%s", err.message);
    return g_why;
}

/* The data offset an offset field at `at` leads to. */
static size_t target(const blobc_buffer *blob, size_t at) {
    return at + (size_t)(int32_t)blobc_ld32(blob->data + BLOBC_HEADER_SIZE + at);
}

/* Bake writes no member only into a field declared `= null`; verify
 * accepts none there (also through the blob's own types, which record
 * it) and nowhere else: a required field, [U], [U; N], *U. So dump never
 * writes a null that the bake refuses. */
TEST(union_none_only_where_declared) {
    static const char sch[] = "struct A { x: u32; }\nunion U { A }\n"
                              "struct R { req: U; opt: U = null; list: [U]; fixed: [U; 1]; p: *U; }\n"
                              "root R;\n";
    static const char yaml[] = "req: {A: {x: 1}}\nlist: [{A: {x: 2}}]\nfixed: [{A: {x: 3}}]\n"
                               "p: {A: {x: 4}}\n";
    blobc_schema *s = NULL;
    blobc_buffer blob = {0}, copy = {0};
    if (!bake_text(sch, yaml, &s, &blob)) FAILF("the data does not bake");
    blobc_error err;
    const char *why = NULL, *where = "the bake (opt holds none)";
    blobc_verify_options vo = {0};
    if (blobc_verify_blob(blob.data, blob.len, &vo, &err) != BLOBC_OK) why = err.message;
    if (!why && (why = none_at(&blob, 0, &copy))) where = "req";
    if (!why && (why = none_at(&blob, 24, &copy))) where = "fixed[0]";
    if (!why && (why = none_at(&blob, target(&blob, 16), &copy))) where = "list[0]";
    if (!why && (why = none_at(&blob, target(&blob, 32), &copy))) where = "*p";
    blobc_buffer_free(&copy);
    blobc_buffer_free(&blob);
    blobc_schema_free(s);
    if (why) FAILF("%s: %s", where, why);
}

TEST_MAIN_BEGIN("roundtrip")
    RUN(corpus);
    RUN(deep_chain);
    RUN(nesting_limits);
    RUN(union_none_only_where_declared);
TEST_MAIN_END
