/*
 * fuzz_schema.c - libFuzzer target: the schema lexer, parser and layout,
 * then the layout report, the type-section round trip and code generation
 * for every schema that parses.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blobc_schema *s = NULL;
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_schema_parse((const char *)data, size, "fuzz.schema", &s, &err) != BLOBC_OK) {
        char msg[4096];
        (void)blobc_error_format(&err, msg, sizeof msg);
        return 0;
    }
    blobc_buffer out = {0};
    (void)blobc_schema_report(s, &out, &err);
    out.len = 0;
    (void)blobc_gen_c(s, NULL, &out, &err);
    const blobc_type *root = blobc_schema_root(s);
    if (root) {
        out.len = 0;
        if (blobc_types_encode(root, "fuzz.schema", &out, &err) == BLOBC_OK) {
            blobc_schema *back = NULL;
            const char *name = NULL;
            if (blobc_types_decode(out.data, out.len, &back, &name, &err) != BLOBC_OK)
                abort(); /* what we encode must decode */
            if (blobc_type_hash(blobc_schema_root(back)) != blobc_type_hash(root)) abort();
            blobc_schema_free(back);
        }
    }
    blobc_buffer_free(&out);
    blobc_schema_free(s);
    return 0;
}
