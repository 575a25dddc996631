/*
 * fuzz_csv.c - libFuzzer target: the CSV and TSV front end over hostile
 * text with the fixed schema, the rows filling the root's list kids. The
 * first byte picks CSV or TSV, a limit of errors and whether items
 * tagged dev are left out.
 * Each input is baked twice, stopping at the first error and going on
 * after errors: both must agree on success and on the bytes, and
 * whatever bakes must verify.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    static const unsigned limits[] = {20, 1, 3, 0};
    blobc_bake_options o = {0};
    o.schema = fuzz_schema();
    o.input = (data[0] & 1) ? BLOBC_INPUT_TSV : BLOBC_INPUT_CSV;
    o.table = "kids";
    o.output = BLOBC_OUTPUT_RAW;
    o.exclude_tags = fuzz_excluded;
    o.nexclude_tags = (data[0] >> 3) & 1; /* items tagged dev left out, or not */
    fuzz_bake_twice((const char *)data + 1, size - 1, "fuzz.csv", &o, limits[(data[0] >> 1) & 3]);
    return 0;
}
