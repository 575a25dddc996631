/*
 * fuzz_dump.c - libFuzzer target: every dump format over hostile bytes,
 * as a .blob (hash checks bypassed) and as raw data of a fixed schema.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t *copy = aligned_alloc(16, (size + 15) & ~(size_t)15);
    if (!copy) return 0;
    if (size) memcpy(copy, data, size);
    for (int raw = 0; raw <= 1; raw++) {
        for (int f = BLOBC_DUMP_YAML; f <= BLOBC_DUMP_HTML; f++) {
            blobc_dump_options o = {0};
            o.format = (blobc_dump_format)f;
            o.flags = BLOBC_VERIFY_NO_HASH;
            if (raw) {
                o.raw = true;
                o.schema = fuzz_schema();
            }
            blobc_buffer out = {0};
            blobc_error err;
            blobc_error_clear(&err);
            (void)blobc_dump(copy, size, &o, &out, &err);
            blobc_buffer_free(&out);
        }
    }
    free(copy);
    return 0;
}
