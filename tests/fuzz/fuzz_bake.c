/*
 * fuzz_bake.c - libFuzzer target: both data front ends over hostile text
 * with a fixed schema. The first byte picks YAML or JSON; whatever bakes
 * must verify.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    blobc_bake_options o = {0};
    o.schema = fuzz_schema();
    o.input = (data[0] & 1) ? BLOBC_INPUT_JSON : BLOBC_INPUT_YAML;
    o.output = BLOBC_OUTPUT_RAW;
    blobc_buffer out = {0};
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_bake_memory((const char *)data + 1, size - 1, "fuzz.data", &o, &out, &err) ==
        BLOBC_OK) {
        blobc_error verr;
        blobc_error_clear(&verr);
        if (blobc_verify_data(out.data, out.len, blobc_schema_root(o.schema), &verr) != BLOBC_OK)
            abort(); /* bake produced a blob its own verifier rejects */
    }
    blobc_buffer_free(&out);
    return 0;
}
