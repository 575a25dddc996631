/*
 * fuzz_bake.c - libFuzzer target: both data front ends over hostile text
 * with a fixed schema. The first byte picks YAML or JSON, a limit of
 * errors and whether items tagged dev are left out. Each input is baked twice, stopping at the first error and
 * going on after errors (a diagnostics sink): both must agree on success
 * and on the bytes, the sink must get the first error the call returns,
 * and whatever bakes must verify.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    static const unsigned limits[] = {20, 1, 3, 0};
    blobc_bake_options o = {0};
    o.schema = fuzz_schema();
    o.input = (data[0] & 1) ? BLOBC_INPUT_JSON : BLOBC_INPUT_YAML;
    o.output = BLOBC_OUTPUT_RAW;
    o.exclude_tags = fuzz_excluded;
    o.nexclude_tags = (data[0] >> 3) & 1; /* items tagged dev left out, or not */
    fuzz_bake_twice((const char *)data + 1, size - 1, "fuzz.data", &o, limits[(data[0] >> 1) & 3]);
    return 0;
}
