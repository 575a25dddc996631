/*
 * test_dump_kinds.c - dump of maps, optionals, any-values, unions tagged
 * by a field or a YAML tag, and @stream roots, as YAML and JSON, compared
 * byte for byte with the text that bakes back to the same blob; the YAML
 * loads in libyaml and the JSON parses.
 */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "blobc/blobc.h"
#include "test.h"
#include "kinds_fixture.h"

/* The dump of an image of `root` wrapped into a .blob, NUL-terminated;
 * stripped, the blob is read with the fixture schema. */
static char *dump_of(const blobc_buffer *img, const blobc_type *root, bool strip,
                     blobc_dump_format f) {
    blobc_buffer blob = {0}, out = {0};
    fx_blob(img->data, img->len, root, strip, &blob);
    blobc_dump_options o = {0};
    o.format = f;
    if (strip) {
        o.schema = KS;
        o.type_name = root->name;
    }
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_dump(blob.data, blob.len, &o, &out, &err) != BLOBC_OK) {
        fprintf(stderr, "dump failed: %s (%s)\n", err.message, err.path);
        blobc_buffer_free(&blob);
        return NULL;
    }
    blobc_buffer_free(&blob);
    blobc_buf_putc(&out, '\0');
    return (char *)out.data;
}

/* Every document of the YAML stream loads (aliases defined, no syntax
 * error); the number of documents. */
static int yaml_documents(const char *t) {
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)t, strlen(t));
    int n = 0;
    for (;;) {
        yaml_document_t doc;
        if (!yaml_parser_load(&p, &doc)) {
            n = -1;
            break;
        }
        bool empty = !yaml_document_get_root_node(&doc);
        yaml_document_delete(&doc);
        if (empty) break;
        n++;
    }
    yaml_parser_delete(&p);
    return n;
}

static const char holder_yaml[] =
    "$type: Holder\n"
    "$schema: \"fixture.schema\"\n"
    "tags:\n"
    "  \"a\": 1\n"
    "  \"ab\": 2\n"
    "ids:\n"
    "  -5: \"x\"\n"
    "  7: \"y\"\n"
    "cols:\n"
    "  red:\n"
    "    x: 0.0\n"
    "    \"y\": 0.0\n"
    "  green:\n"
    "    x: 1.0\n"
    "    \"y\": 0.0\n"
    "pos:\n"
    "  x: 5.0\n"
    "  \"y\": 6.0\n"
    "\"n\": 9\n"
    "doc:\n"
    "  \"k\":\n"
    "    - 1\n"
    "    - true\n"
    "    - null\n"
    "    - \"s\"\n"
    "    - 2.5\n"
    "    - 9223372036854775809\n"
    "    - -3\n";

static const char holder_json[] =
    "{\n"
    "  \"$type\": \"Holder\",\n"
    "  \"$schema\": \"fixture.schema\",\n"
    "  \"tags\": {\n"
    "    \"a\": 1,\n"
    "    \"ab\": 2\n"
    "  },\n"
    "  \"ids\": {\n"
    "    \"-5\": \"x\",\n"
    "    \"7\": \"y\"\n"
    "  },\n"
    "  \"cols\": {\n"
    "    \"red\": {\n"
    "      \"x\": 0.0,\n"
    "      \"y\": 0.0\n"
    "    },\n"
    "    \"green\": {\n"
    "      \"x\": 1.0,\n"
    "      \"y\": 0.0\n"
    "    }\n"
    "  },\n"
    "  \"pos\": {\n"
    "    \"x\": 5.0,\n"
    "    \"y\": 6.0\n"
    "  },\n"
    "  \"n\": 9,\n"
    "  \"doc\": {\n"
    "    \"k\": [\n"
    "      1,\n"
    "      true,\n"
    "      null,\n"
    "      \"s\",\n"
    "      2.5,\n"
    "      9223372036854775809,\n"
    "      -3\n"
    "    ]\n"
    "  }\n"
    "}\n";

TEST(maps_optionals_any) {
    blobc_buffer img = {0};
    build_holder(&GOOD, &img);
    char *y = dump_of(&img, HOLDER, false, BLOBC_DUMP_YAML);
    char *j = dump_of(&img, HOLDER, false, BLOBC_DUMP_JSON);
    CHECK(y && j);
    if (y) CHECK_STR(y, holder_yaml);
    if (j) CHECK_STR(j, holder_json);
    if (y) CHECK_EQ_I(yaml_documents(y), 1);
    cJSON *doc = j ? cJSON_Parse(j) : NULL;
    CHECK(doc != NULL);
    cJSON_Delete(doc);
    free(y);
    free(j);
    blobc_buffer_free(&img);
}

static const char stream_yaml[] =
    "$type: S\n"
    "$schema: \"fixture.schema\"\n"
    "---\n"
    "l:\n"
    "  type: a\n"
    "  x: 1\n"
    "\"n\":\n"
    "  kind: 2\n"
    "  \"y\": \"bee\"\n"
    "t: !circle\n"
    "  x: 3\n"
    "---\n"
    "l:\n"
    "  type: B\n"
    "  \"y\": \"hi\"\n"
    "\"n\":\n"
    "  kind: 1\n"
    "  x: 5\n"
    "t: !B\n"
    "  \"y\": \"sq\"\n"
    "o:\n"
    "  x: 7\n";

static const char stream_json[] =
    "[\n"
    "  {\n"
    "    \"l\": {\n"
    "      \"type\": \"a\",\n"
    "      \"x\": 1\n"
    "    },\n"
    "    \"n\": {\n"
    "      \"kind\": 2,\n"
    "      \"y\": \"bee\"\n"
    "    },\n"
    "    \"t\": {\n"
    "      \"!circle\": {\n"
    "        \"x\": 3\n"
    "      }\n"
    "    }\n"
    "  },\n"
    "  {\n"
    "    \"l\": {\n"
    "      \"type\": \"B\",\n"
    "      \"y\": \"hi\"\n"
    "    },\n"
    "    \"n\": {\n"
    "      \"kind\": 1,\n"
    "      \"x\": 5\n"
    "    },\n"
    "    \"t\": {\n"
    "      \"!B\": {\n"
    "        \"y\": \"sq\"\n"
    "      }\n"
    "    },\n"
    "    \"o\": {\n"
    "      \"x\": 7\n"
    "    }\n"
    "  }\n"
    "]\n";

TEST(tagged_unions_and_stream) {
    blobc_buffer img = {0};
    build_stream(&img);
    const blobc_type *s = fx_type(KS, "S");
    char *y = dump_of(&img, s, true, BLOBC_DUMP_YAML);
    char *j = dump_of(&img, s, true, BLOBC_DUMP_JSON);
    CHECK(y && j);
    if (y) CHECK_STR(y, stream_yaml);
    if (j) CHECK_STR(j, stream_json);
    if (y) CHECK_EQ_I(yaml_documents(y), 3);
    cJSON *doc = j ? cJSON_Parse(j) : NULL;
    CHECK(doc && cJSON_IsArray(doc) && cJSON_GetArraySize(doc) == 2);
    cJSON_Delete(doc);
    free(y);
    free(j);
    blobc_buffer_free(&img);
}

TEST_MAIN_BEGIN("dump_kinds")
    kx_init();
    RUN(maps_optionals_any);
    RUN(tagged_unions_and_stream);
    blobc_schema_free(KS);
TEST_MAIN_END
