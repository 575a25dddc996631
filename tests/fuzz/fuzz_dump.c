/*
 * fuzz_dump.c - libFuzzer target: every dump format over hostile bytes,
 * as a .blob (hash checks bypassed) and as raw data of a fixed schema;
 * YAML and JSON also through a writer, which must receive exactly the
 * text made without one (and nothing when the dump fails).
 */
#include "fuzz_common.h"

#include "common/buffer.h"

static void collect(void *ctx, const void *bytes, size_t len) {
    blobc_buf_append(ctx, bytes, len);
}

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
            blobc_status st = blobc_dump(copy, size, &o, &out, &err);
            if (f == BLOBC_DUMP_YAML || f == BLOBC_DUMP_JSON) {
                blobc_buffer piece = {0}, got = {0};
                o.write = collect;
                o.write_ctx = &got;
                blobc_error_clear(&err);
                blobc_status st2 = blobc_dump(copy, size, &o, &piece, &err);
                if (st2 != st || piece.len != 0 || got.len != (st ? 0 : out.len) ||
                    (got.len && memcmp(got.data, out.data, got.len) != 0))
                    abort();
                blobc_buffer_free(&piece);
                blobc_buffer_free(&got);
            }
            blobc_buffer_free(&out);
        }
    }
    free(copy);
    return 0;
}
