/*
 * fuzz_verify.c - libFuzzer target: verification of hostile bytes, as a
 * whole .blob file (hash checks bypassed so mutations reach the walker),
 * as a raw data section of a fixed recursive schema (the canonical rule),
 * and as the data of a Unity file of that schema (wrapped with a valid
 * header and hash, so every input reaches the any-order walk). Whatever
 * verifies as a .blob or a raw section must dump and bake back to the same
 * bytes (roundtrip.h).
 */
#include "roundtrip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_roundtrip(const uint8_t *copy, size_t size, bool raw) {
    char why[512];
    if (fuzz_roundtrip(copy, size, raw, why, sizeof why) == RT_FAIL) {
        fprintf(stderr, "round trip: %s\n", why);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blobc_error err;
    blobc_error_clear(&err);
    blobc_verify_options vo = {0};
    vo.flags = BLOBC_VERIFY_NO_HASH;
    (void)blobc_verify_blob(data, size, &vo, &err);

    /* The walker assumes a 16-byte aligned image; give it one. */
    uint8_t *copy = aligned_alloc(16, (size + 15) & ~(size_t)15);
    if (!copy) return 0;
    if (size) memcpy(copy, data, size);
    blobc_error_clear(&err);
    if (blobc_verify_data(copy, size, blobc_schema_root(fuzz_schema()), &err) == BLOBC_OK)
        check_roundtrip(copy, size, true);
    check_roundtrip(copy, size, false);
    free(copy);

    blobc_buffer unity = {0};
    blobc_unity_options uo = {0};
    unity.data = size ? malloc(size) : NULL;
    if (unity.data) {
        memcpy(unity.data, data, size);
        unity.len = unity.cap = size;
    }
    if (unity.data && blobc_unity_wrap(size, &uo, &unity, NULL) == BLOBC_OK) {
        vo.flags = 0;
        vo.schema = fuzz_schema();
        vo.unity = &uo;
        blobc_error_clear(&err);
        (void)blobc_verify_blob(unity.data, unity.len, &vo, &err);
    }
    blobc_buffer_free(&unity);
    return 0;
}
