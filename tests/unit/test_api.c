/*
 * test_api.c - the error contract of blobc/error.h on every public
 * function that takes a blobc_error *: a NULL error pointer is accepted on
 * success and on failure (the same status comes back), and a misused call
 * (a NULL pointer where one is required, an option out of its enum)
 * returns BLOBC_EARG with a message naming the function.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobc.h"
#include "blobc/cache.h"
#include "test.h"

static const char schema_text[] = "struct P { x: u32; name: string; }\nroot P;\n";
static const char yaml_text[] = "x: 7\nname: seven\n";
static const char json_text[] = "{\"x\": 7, \"name\": \"seven\"}";

static blobc_schema *g_schema;
static blobc_buffer g_blob;     /* a complete blob of P */
static blobc_buffer g_stripped; /* the same without its type section */
static char g_dir[256];

/* The argument error of `st`/`err`: BLOBC_EARG and the function's name. */
#define CHECK_ARG(call, fn)                                                   \
    do {                                                                      \
        blobc_error e_;                                                       \
        blobc_error_clear(&e_);                                               \
        e_.line = 99; /* stale detail from an earlier call goes */           \
        blobc_status st_ = (call);                                            \
        CHECK_EQ_I(st_, BLOBC_EARG);                                          \
        CHECK_EQ_I(e_.status, BLOBC_EARG);                                    \
        CHECK_CONTAINS(e_.message, fn);                                       \
        CHECK_EQ_U(e_.line, 0);                                               \
    } while (0)

static void setup(void) {
    blobc_error err;
    if (blobc_schema_parse(schema_text, strlen(schema_text), "p.schema", &g_schema, &err)) {
        fprintf(stderr, "setup: %s\n", err.message);
        exit(1);
    }
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    o.schema = g_schema;
    if (blobc_bake_memory(yaml_text, strlen(yaml_text), "p.yaml", &o, &g_blob, &err)) exit(1);
    o.strip = true;
    if (blobc_bake_memory(yaml_text, strlen(yaml_text), "p.yaml", &o, &g_stripped, &err)) exit(1);
    snprintf(g_dir, sizeof g_dir, "%s/blobc-api-XXXXXX", test_tmp());
    if (!test_mkdtemp(g_dir)) exit(1);
}


TEST(null_error_on_success) {
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    o.schema = g_schema;
    blobc_buffer out = {0};
    CHECK_EQ_I(blobc_bake_memory(json_text, strlen(json_text), "p.json", &o, &out, NULL), BLOBC_OK);
    CHECK(out.len == g_blob.len && memcmp(out.data, g_blob.data, out.len) == 0);

    char path[300];
    snprintf(path, sizeof path, "%s/p.yaml", g_dir);
    CHECK_EQ_I(blobc_write_file_atomic(path, yaml_text, strlen(yaml_text), NULL), BLOBC_OK);
    CHECK_EQ_I(blobc_bake_file(path, &o, &out, NULL), BLOBC_OK);
    CHECK(out.len == g_blob.len && memcmp(out.data, g_blob.data, out.len) == 0);
    uint8_t *data;
    size_t len;
    CHECK_EQ_I(blobc_read_file(path, &data, &len, NULL), BLOBC_OK);
    CHECK(len == strlen(yaml_text) && memcmp(data, yaml_text, len) == 0);
    free(data);

    blobc_schema *s = NULL;
    CHECK_EQ_I(blobc_schema_parse(schema_text, strlen(schema_text), "p.schema", &s, NULL), BLOBC_OK);
    blobc_schema_free(s);
    snprintf(path, sizeof path, "%s/p.schema", g_dir);
    CHECK_EQ_I(blobc_write_file_atomic(path, schema_text, strlen(schema_text), NULL), BLOBC_OK);
    CHECK_EQ_I(blobc_schema_load(path, &s, NULL), BLOBC_OK);
    blobc_schema_free(s);
    out.len = 0;
    CHECK_EQ_I(blobc_schema_report(g_schema, &out, NULL), BLOBC_OK);
    CHECK(out.len > 0);

    out.len = 0;
    CHECK_EQ_I(blobc_dump(g_blob.data, g_blob.len, NULL, &out, NULL), BLOBC_OK);
    CHECK(out.len > 0);
    CHECK_EQ_I(blobc_verify_blob(g_blob.data, g_blob.len, NULL, NULL), BLOBC_OK);
    snprintf(path, sizeof path, "%s/p.blob", g_dir);
    CHECK_EQ_I(blobc_write_file_atomic(path, g_blob.data, g_blob.len, NULL), BLOBC_OK);
    CHECK_EQ_I(blobc_verify_file(path, NULL, NULL), BLOBC_OK);
    out.len = 0;
    CHECK_EQ_I(blobc_verify_report_json(path, NULL, &out, NULL), BLOBC_OK);
    CHECK(out.len > 0);
    out.len = 0;
    CHECK_EQ_I(blobc_gen_c(g_schema, NULL, &out, NULL), BLOBC_OK);
    CHECK_EQ_I(blobc_gen_cpp(g_schema, NULL, &out, NULL), BLOBC_OK);
    CHECK_EQ_I(blobc_gen_file_name_of(g_schema, 0, ".h", &out, NULL), BLOBC_OK);
    out.len = 0;
    CHECK_EQ_I(blobc_gen_cs(g_schema, NULL, &out, NULL), BLOBC_OK);
    blobc_buffer u = {0};
    u.data = calloc(4, 1);
    CHECK(u.data);
    u.len = u.cap = 4;
    CHECK_EQ_I(blobc_unity_wrap(4, NULL, &u, NULL), BLOBC_OK);
    blobc_unity_header uh;
    const uint8_t *ud;
    size_t un;
    CHECK_EQ_I(blobc_unity_open(u.data, u.len, NULL, &uh, &ud, &un, NULL), BLOBC_OK);
    CHECK_EQ_I(blobc_unity_open(u.data, 3, NULL, &uh, &ud, &un, NULL), BLOBC_EINPUT);
    blobc_buffer_free(&u);

    blobc_blob b;
    CHECK_EQ_I(blobc_blob_open(g_blob.data, g_blob.len, 0, &b, NULL), BLOBC_OK);
    CHECK_EQ_I(blobc_verify_data(b.data, b.data_size, b.root, NULL), BLOBC_OK);
    blobc_buffer types = {0};
    CHECK_EQ_I(blobc_types_encode(b.root, NULL, &types, NULL), BLOBC_OK);
    blobc_schema *dec = NULL;
    CHECK_EQ_I(blobc_types_decode(types.data, types.len, &dec, NULL, NULL), BLOBC_OK);
    CHECK(dec != NULL);
    blobc_schema_free(dec);
    blobc_buffer_free(&types);
    out.len = 0;
    CHECK_EQ_I(blobc_blob_write(b.data, b.data_size, b.root, NULL, &out, NULL), BLOBC_OK);
    CHECK(out.len == g_blob.len && memcmp(out.data, g_blob.data, out.len) == 0);
    blobc_blob_close(&b);

    blobc_builder *bd = blobc_builder_new();
    CHECK_EQ_I(blobc_builder_root(bd, 8, 4, NULL), BLOBC_OK);
    CHECK_EQ_I(blobc_builder_status(bd, NULL), BLOBC_OK);
    CHECK_EQ_I(blobc_builder_finish(bd, &out, NULL), BLOBC_OK);
    blobc_builder_free(bd);
    bd = blobc_builder_new();
    CHECK_EQ_I(blobc_builder_root(bd, 8, 4, NULL), BLOBC_OK);
    CHECK_EQ_I(blobc_builder_finish_at(bd, &out, 16, 0, NULL), BLOBC_OK);
    blobc_builder_free(bd);
    blobc_buffer_free(&out);
}

/* Each failing call returns the status it returns with an error object. */
TEST(null_error_on_failure) {
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    o.schema = g_schema;
    blobc_buffer out = {0};
    CHECK_EQ_I(blobc_bake_memory("x: nope\n", 8, "p.yaml", &o, &out, NULL), BLOBC_EINPUT);
    CHECK_EQ_I(blobc_bake_memory("{\"x\": [}", 8, "p.json", &o, &out, NULL), BLOBC_EINPUT);
    CHECK_EQ_I(blobc_bake_file("/nonexistent/p.yaml", &o, &out, NULL), BLOBC_EIO);
    uint8_t *data;
    size_t len;
    CHECK_EQ_I(blobc_read_file("/nonexistent/p", &data, &len, NULL), BLOBC_EIO);
    CHECK_EQ_I(blobc_write_file_atomic("/dev/null/p", "x", 1, NULL), BLOBC_EIO);
    blobc_buffer dep = {0};
    CHECK_EQ_I(blobc_depfile("a|b", NULL, NULL, &dep, NULL), BLOBC_EIO);
    CHECK_EQ_U(dep.len, 0);
    {
        const char *ins[] = {"a.csv", "b|c.csv"};
        CHECK_EQ_I(blobc_depfile_inputs("o", ins, 2, NULL, NULL, 0, &dep, NULL), BLOBC_EIO);
        CHECK_EQ_I(blobc_depfile_inputs("o", ins, 1, NULL, NULL, 0, &dep, NULL), BLOBC_OK);
        CHECK(dep.len == strlen("o: a.csv\n") && memcmp(dep.data, "o: a.csv\n", dep.len) == 0);
        blobc_buffer_free(&dep);
    }
    blobc_schema *s = NULL;
    CHECK_EQ_I(blobc_schema_parse("struct {", 8, "bad.schema", &s, NULL), BLOBC_EINPUT);
    CHECK(s == NULL);
    CHECK_EQ_I(blobc_schema_load("/nonexistent/p.schema", &s, NULL), BLOBC_EIO);

    /* A stripped blob without a schema: no type to verify or dump it as. */
    CHECK_EQ_I(blobc_verify_blob(g_stripped.data, g_stripped.len, NULL, NULL), BLOBC_EINPUT);
    CHECK_EQ_I(blobc_dump(g_stripped.data, g_stripped.len, NULL, &out, NULL), BLOBC_EINPUT);
    CHECK_EQ_I(blobc_verify_blob("not a blob", 10, NULL, NULL), BLOBC_EINPUT);
    CHECK_EQ_I(blobc_verify_file("/nonexistent/p.blob", NULL, NULL), BLOBC_EIO);
    blobc_blob b;
    CHECK_EQ_I(blobc_blob_open("not a blob", 10, 0, &b, NULL), BLOBC_EINPUT);
    CHECK_EQ_I(blobc_types_decode("junk", 4, &s, NULL, NULL), BLOBC_EINPUT);
    CHECK_EQ_I(blobc_verify_data("\1\2\3", 3, blobc_schema_root(g_schema), NULL), BLOBC_EINPUT);

    blobc_builder *bd = blobc_builder_new();
    CHECK_EQ_I(blobc_builder_alloc(bd, 4, 4, NULL, NULL), BLOBC_EARG);
    CHECK_EQ_I(blobc_builder_status(bd, NULL), BLOBC_EARG);
    CHECK_EQ_I(blobc_builder_finish(bd, &out, NULL), BLOBC_EARG);
    blobc_builder_free(bd);
    bd = blobc_builder_new();
    CHECK_EQ_I(blobc_builder_finish_at(bd, &out, 0, 0, NULL), BLOBC_EARG);
    blobc_builder_free(bd);

    blobc_gen_options g = {"not an identifier", NULL, false};
    CHECK_EQ_I(blobc_gen_c(g_schema, &g, &out, NULL), BLOBC_EARG);
    blobc_gen_cpp_options gcpp = {"a::", NULL, false};
    CHECK_EQ_I(blobc_gen_cpp(g_schema, &gcpp, &out, NULL), BLOBC_EARG);
    CHECK_EQ_I(blobc_gen_file_name_of(g_schema, 7, ".h", &out, NULL), BLOBC_EARG);
    blobc_gen_cs_options gcs = {"Not.a namespace", false, false, false};
    CHECK_EQ_I(blobc_gen_cs(g_schema, &gcs, &out, NULL), BLOBC_EARG);
    CHECK_EQ_I(blobc_types_encode(blobc_builtin_type(BLOBC_KIND_U32), NULL, &out, NULL),
               BLOBC_EINPUT);
    CHECK_EQ_I(blobc_blob_write("\0\0\0\0", 4, blobc_builtin_type(BLOBC_KIND_U32), NULL, &out,
                                NULL),
               BLOBC_EINPUT);
    out.len = 8;
    CHECK_EQ_I(blobc_blob_write_in_place(4, blobc_schema_root(g_schema), NULL, &out, NULL),
               BLOBC_EINPUT);
    blobc_buffer_free(&out);

    char buf[8] = "x";
    CHECK_EQ_U(blobc_error_format(NULL, buf, sizeof buf), 0);
    CHECK_STR(buf, "");
    blobc_error_clear(NULL);
}

TEST(argument_errors) {
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    o.schema = g_schema;
    blobc_buffer out = {0};
    CHECK_ARG(blobc_bake_memory(yaml_text, strlen(yaml_text), "p.yaml", &o, NULL, &e_),
              "blobc_bake_memory");
    CHECK_ARG(blobc_bake_memory(NULL, 5, "p.yaml", &o, &out, &e_), "blobc_bake_memory");
    CHECK_ARG(blobc_bake_file(NULL, &o, &out, &e_), "blobc_bake_file");
    CHECK_ARG(blobc_bake_file("p.yaml", &o, NULL, &e_), "blobc_bake_file");
    o.input = (blobc_input_format)7;
    CHECK_ARG(blobc_bake_memory(yaml_text, strlen(yaml_text), "p.yaml", &o, &out, &e_),
              "blobc_bake_memory");
    o.input = BLOBC_INPUT_AUTO;
    o.output = (blobc_output_format)9;
    CHECK_ARG(blobc_bake_file("p.yaml", &o, &out, &e_), "blobc_bake_file");

    uint8_t *data;
    size_t len;
    CHECK_ARG(blobc_read_file(NULL, &data, &len, &e_), "blobc_read_file");
    CHECK_ARG(blobc_read_file("p", NULL, &len, &e_), "blobc_read_file");
    CHECK_ARG(blobc_write_file_atomic(NULL, "x", 1, &e_), "blobc_write_file_atomic");
    CHECK_ARG(blobc_write_file_atomic("p", NULL, 1, &e_), "blobc_write_file_atomic");
    CHECK_ARG(blobc_depfile(NULL, "in", NULL, &out, &e_), "blobc_depfile");
    CHECK_ARG(blobc_depfile("out", "in", NULL, NULL, &e_), "blobc_depfile");
    CHECK_ARG(blobc_depfile_inputs(NULL, NULL, 0, NULL, NULL, 0, &out, &e_), "blobc_depfile_inputs");
    CHECK_ARG(blobc_depfile_inputs("out", NULL, 1, NULL, NULL, 0, &out, &e_), "blobc_depfile_inputs");
    size_t first;
    CHECK_ARG(blobc_outputs_add(NULL, "p", &first, &e_), "blobc_outputs_add");
    CHECK_ARG(blobc_inputs_add(NULL, "p", &e_), "blobc_inputs_add");

    CHECK_ARG(blobc_schema_parse(schema_text, strlen(schema_text), "p", NULL, &e_),
              "blobc_schema_parse");
    blobc_schema *s;
    CHECK_ARG(blobc_schema_parse(NULL, 3, "p", &s, &e_), "blobc_schema_parse");
    CHECK_ARG(blobc_schema_load(NULL, &s, &e_), "blobc_schema_load");
    CHECK_ARG(blobc_schema_report(NULL, &out, &e_), "blobc_schema_report");
    CHECK_ARG(blobc_schema_report(g_schema, NULL, &e_), "blobc_schema_report");

    CHECK_ARG(blobc_dump(g_blob.data, g_blob.len, NULL, NULL, &e_), "blobc_dump");
    blobc_dump_options d;
    memset(&d, 0, sizeof d);
    d.format = (blobc_dump_format)(BLOBC_DUMP_HTML + 1);
    CHECK_ARG(blobc_dump(g_blob.data, g_blob.len, &d, &out, &e_), "blobc_dump");
    CHECK_ARG(blobc_verify_file(NULL, NULL, &e_), "blobc_verify_file");
    CHECK_ARG(blobc_verify_report_json(NULL, NULL, &out, &e_), "blobc_verify_report_json");
    CHECK_ARG(blobc_verify_report_json("f", NULL, NULL, &e_), "blobc_verify_report_json");
    CHECK_ARG(blobc_verify_report_json_errors("f", NULL, 1, &out, &e_), "blobc_verify_report_json_errors");
    CHECK_ARG(blobc_gen_c(NULL, NULL, &out, &e_), "blobc_gen_c");
    CHECK_ARG(blobc_gen_c(g_schema, NULL, NULL, &e_), "blobc_gen_c");
    CHECK_ARG(blobc_gen_cs(NULL, NULL, &out, &e_), "blobc_gen_cs");
    CHECK_ARG(blobc_gen_cpp(NULL, NULL, &out, &e_), "blobc_gen_cpp");
    CHECK_ARG(blobc_gen_cpp(g_schema, NULL, NULL, &e_), "blobc_gen_cpp");
    CHECK_ARG(blobc_gen_file_name_of(NULL, 0, ".h", &out, &e_), "blobc_gen_file_name_of");
    CHECK_ARG(blobc_gen_file_name_of(g_schema, 9, ".h", &out, &e_), "blobc_gen_file_name_of");
    CHECK_ARG(blobc_gen_cs(g_schema, NULL, NULL, &e_), "blobc_gen_cs");
    CHECK_ARG(blobc_unity_wrap(4, NULL, NULL, &e_), "blobc_unity_wrap");
    blobc_unity_options uo = {0, false, (blobc_unity_length)9};
    CHECK_ARG(blobc_unity_wrap(4, &uo, &out, &e_), "blobc_unity_wrap");
    blobc_unity_header uh;
    const uint8_t *ud;
    size_t un;
    CHECK_ARG(blobc_unity_open(g_blob.data, g_blob.len, NULL, NULL, &ud, &un, &e_),
              "blobc_unity_open");
    CHECK_ARG(blobc_unity_open(NULL, 40, NULL, &uh, &ud, &un, &e_), "blobc_unity_open");
    CHECK_ARG(blobc_unity_open(g_blob.data, g_blob.len, &uo, &uh, &ud, &un, &e_),
              "blobc_unity_open");

    blobc_blob b;
    CHECK_ARG(blobc_blob_open(g_blob.data, g_blob.len, 0, NULL, &e_), "blobc_blob_open");
    CHECK_ARG(blobc_blob_open(NULL, 40, 0, &b, &e_), "blobc_blob_open");
    CHECK_ARG(blobc_types_encode(NULL, NULL, &out, &e_), "blobc_types_encode");
    CHECK_ARG(blobc_types_encode(blobc_schema_root(g_schema), NULL, NULL, &e_),
              "blobc_types_encode");
    CHECK_ARG(blobc_types_describe(NULL, NULL, &out, NULL, &e_), "blobc_types_describe");
    CHECK_ARG(blobc_types_describe(blobc_schema_root(g_schema), NULL, NULL, NULL, &e_),
              "blobc_types_describe");
    CHECK_EQ_I(blobc_types_describe(NULL, NULL, &out, NULL, NULL), BLOBC_EARG);
    CHECK_ARG(blobc_types_decode("x", 1, NULL, NULL, &e_), "blobc_types_decode");
    CHECK_ARG(blobc_blob_write("xxxx", 4, blobc_schema_root(g_schema), NULL, NULL, &e_),
              "blobc_blob_write");
    CHECK_ARG(blobc_blob_write(NULL, 4, blobc_schema_root(g_schema), NULL, &out, &e_),
              "blobc_blob_write");
    CHECK_ARG(blobc_blob_write_in_place(4, blobc_schema_root(g_schema), NULL, NULL, &e_),
              "blobc_blob_write_in_place");
    CHECK_ARG(blobc_builder_status(NULL, &e_), "blobc_builder_status");
    CHECK_ARG(blobc_builder_finish(NULL, &out, &e_), "blobc_builder_finish");

    /* A type the schema lacks, or a type without a schema: misuse, not bad data. */
    blobc_verify_options v;
    memset(&v, 0, sizeof v);
    v.schema = g_schema;
    v.type_name = "Nope";
    blobc_error e;
    CHECK_EQ_I(blobc_verify_blob(g_blob.data, g_blob.len, &v, &e), BLOBC_EARG);
    CHECK_CONTAINS(e.message, "no type named 'Nope'");
    CHECK_EQ_I(blobc_verify_data(NULL, 4, blobc_schema_root(g_schema), &e), BLOBC_EARG);
    CHECK_EQ_I(blobc_verify_data(g_blob.data, 4, NULL, NULL), BLOBC_EARG);

    CHECK_EQ_I(blobc_builder_root(NULL, 8, 4, NULL), BLOBC_EARG);
    CHECK_EQ_I(blobc_builder_alloc(NULL, 8, 4, NULL, NULL), BLOBC_EARG);
    CHECK_EQ_I(blobc_builder_open(NULL, 4, NULL), BLOBC_EARG);
    CHECK_EQ_I(blobc_builder_close(NULL, 0), BLOBC_EARG);
    CHECK_EQ_I(blobc_builder_link(NULL, 0, 0, 0), BLOBC_EARG);
    CHECK(blobc_builder_grow(NULL, 0, 4) == NULL);
    CHECK_STR(blobc_status_name(BLOBC_EARG), "invalid argument");
    blobc_buffer_free(&out);
}

/* The plan, file map, cache, evolution and JSON Schema calls: NULL error
 * pointers on failure, and their argument errors. */
TEST(later_functions) {
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    o.schema = g_schema;
    blobc_bake_plan plan;
    memset(&plan, 0, sizeof plan);
    CHECK_EQ_I(blobc_bake_plan_memory("[", 1, "p.json", &o, &plan, NULL), BLOBC_EINPUT);
    blobc_bake_plan_free(&plan);
    memset(&plan, 0, sizeof plan);
    CHECK_ARG(blobc_bake_plan_memory(yaml_text, strlen(yaml_text), "p.yaml", &o, NULL, &e_),
              "blobc_bake_plan_memory");

    blobc_file_view v;
    CHECK_EQ_I(blobc_file_map("/nonexistent/p.blob", &v, NULL), BLOBC_EIO);
    CHECK_ARG(blobc_file_map(NULL, &v, &e_), "blobc_file_map");
    CHECK_ARG(blobc_file_map("p.blob", NULL, &e_), "blobc_file_map");

    blobc_cache *c = NULL;
    CHECK_EQ_I(blobc_cache_open("", &c, NULL) != BLOBC_OK, 1);
    CHECK_ARG(blobc_cache_open(NULL, &c, &e_), "blobc_cache_open");
    CHECK_ARG(blobc_cache_open(g_dir, NULL, &e_), "blobc_cache_open");
    blobc_cache_stats st;
    CHECK_EQ_I(blobc_cache_dir_stats("/nonexistent/cache", &st, NULL), BLOBC_EIO);
    CHECK_ARG(blobc_cache_dir_stats(NULL, &st, &e_), "blobc_cache_dir_stats");
    CHECK_ARG(blobc_cache_dir_stats(g_dir, NULL, &e_), "blobc_cache_dir_stats");
    CHECK_EQ_I(blobc_cache_dir_prune("/nonexistent/cache", 0, NULL, NULL), BLOBC_EIO);
    CHECK_ARG(blobc_cache_dir_prune(NULL, 0, NULL, &e_), "blobc_cache_dir_prune");

    /* get and put report only through `warn`, which may be NULL too. */
    char dir[300];
    snprintf(dir, sizeof dir, "%s/cache", g_dir);
    CHECK_EQ_I(blobc_cache_open(dir, &c, NULL), BLOBC_OK);
    if (c) {
        CHECK_EQ_I(blobc_bake_plan_memory(yaml_text, strlen(yaml_text), "p.yaml", &o, &plan, NULL),
                   BLOBC_OK);
        blobc_cache_entry entry;
        bool hit = true;
        blobc_cache_get(c, &plan, strlen(yaml_text), &o, &entry, &hit, NULL);
        CHECK(!hit);
        blobc_cache_put(c, &plan, strlen(yaml_text), g_blob.data, g_blob.len, NULL);
        blobc_cache_get(c, &plan, strlen(yaml_text), &o, &entry, &hit, NULL);
        CHECK(hit && entry.len == g_blob.len && memcmp(entry.data, g_blob.data, entry.len) == 0);
        if (hit) blobc_cache_entry_free(&entry);
        blobc_bake_plan_free(&plan);
        blobc_cache_close(c);
    }
    CHECK_EQ_I(blobc_cache_dir_prune(dir, 0, NULL, NULL), BLOBC_OK);
    CHECK_EQ_I(blobc_cache_dir_stats(dir, &st, NULL), BLOBC_OK);
    CHECK_EQ_U(st.entries, 0);

    blobc_buffer out = {0};
    blobc_compat_result r;
    const blobc_type *root = blobc_schema_root(g_schema);
    CHECK_EQ_I(blobc_compat(root, root, g_schema, &out, &r, NULL), BLOBC_OK);
    CHECK_ARG(blobc_compat(NULL, root, g_schema, &out, &r, &e_), "blobc_compat");
    blobc_upgrade_options u;
    memset(&u, 0, sizeof u);
    u.schema = g_schema;
    out.len = 0;
    CHECK_EQ_I(blobc_upgrade("not a blob", 10, &u, &out, NULL), BLOBC_EINPUT);
    CHECK_ARG(blobc_upgrade(g_blob.data, g_blob.len, NULL, &out, &e_), "blobc_upgrade");
    CHECK_ARG(blobc_upgrade(g_blob.data, g_blob.len, &u, NULL, &e_), "blobc_upgrade");
    blobc_difference d;
    CHECK_EQ_I(blobc_compare_blobs(g_blob.data, g_blob.len, g_blob.data, g_blob.len, NULL, &d, NULL),
               BLOBC_OK);
    CHECK_EQ_I(d.differ, 0);
    CHECK_EQ_I(blobc_compare_blobs("not a blob", 10, g_blob.data, g_blob.len, NULL, &d, NULL),
               BLOBC_EINPUT);
    CHECK_ARG(blobc_compare_blobs(NULL, 0, g_blob.data, g_blob.len, NULL, &d, &e_),
              "blobc_compare_blobs");
    out.len = 0;
    CHECK_EQ_I(blobc_gen_jsonschema(g_schema, "Nope", &out, NULL) != BLOBC_OK, 1);
    CHECK_ARG(blobc_gen_jsonschema(NULL, NULL, &out, &e_), "blobc_gen_jsonschema");
    CHECK_ARG(blobc_gen_jsonschema(g_schema, NULL, NULL, &e_), "blobc_gen_jsonschema");
    blobc_buffer_free(&out);
}

TEST_MAIN_BEGIN("api")
setup();
RUN(null_error_on_success);
RUN(null_error_on_failure);
RUN(argument_errors);
RUN(later_functions);
blobc_schema_free(g_schema);
blobc_buffer_free(&g_blob);
blobc_buffer_free(&g_stripped);
test_rm_rf(g_dir);
TEST_MAIN_END
