/*
 * locale_bake.c - the library under a program's own LC_NUMERIC. Sets the
 * locale named by argv[1] process-wide (setlocale, as a host program
 * would), then parses a schema with float defaults, bakes YAML and JSON
 * floats that take the slow paths (exponents, many digits) and prints the
 * schema report and both dumps. tests/cli/locale.sh compares the output
 * with the "C" locale's: they must be the same bytes.
 */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "blobc/blobc.h"

static const char schema_text[] =
    "struct P { a: f32 = 0.1; b: f64 = 1.0e-300; c: f64; d: [f32]; }\nroot P;\n";
static const char yaml_text[] =
    "c: 3.14159265358979323846\nd: [1.5e3, 2.5e-7, 0.1, 123456.789012345678, 1e38]\n";
static const char json_text[] =
    "{\"c\": 2.718281828459045235, \"d\": [1.5E3, -2.5e-7, 0.1, 1e-40, 3.4028234e38]}";

static int show(const char *what, const blobc_buffer *b) {
    printf("== %s\n%.*s\n", what, (int)b->len, (const char *)b->data);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    if (!setlocale(LC_NUMERIC, argv[1])) {
        printf("no locale %s\n", argv[1]);
        return 3;
    }
    blobc_error err;
    blobc_schema *s = NULL;
    if (blobc_schema_parse(schema_text, strlen(schema_text), "p.schema", &s, &err)) {
        printf("schema: %s\n", err.message);
        return 1;
    }
    blobc_buffer out = {0};
    int rc = 0;
    if (blobc_schema_report(s, &out, &err) == BLOBC_OK) show("report", &out);
    else rc = 1;
    const char *texts[2] = {yaml_text, json_text};
    const char *names[2] = {"p.yaml", "p.json"};
    for (int i = 0; i < 2; i++) {
        blobc_bake_options o;
        memset(&o, 0, sizeof o);
        o.schema = s;
        blobc_buffer blob = {0};
        if (blobc_bake_memory(texts[i], strlen(texts[i]), names[i], &o, &blob, &err)) {
            printf("bake %s: %s\n", names[i], err.message);
            rc = 1;
            continue;
        }
        blobc_dump_options d;
        memset(&d, 0, sizeof d);
        for (int f = 0; f < 2; f++) {
            d.format = f ? BLOBC_DUMP_JSON : BLOBC_DUMP_YAML;
            out.len = 0;
            if (blobc_dump(blob.data, blob.len, &d, &out, &err) == BLOBC_OK) show(names[i], &out);
            else rc = 1;
        }
        blobc_buffer_free(&blob);
    }
    /* The program's own locale is left as it set it. */
    char num[32];
    snprintf(num, sizeof num, "%.1f", 1.5);
    printf("== program's own 1.5: %s\n", num);
    blobc_buffer_free(&out);
    blobc_schema_free(s);
    return rc;
}
