/*
 * fuzz_verify.c - libFuzzer target: verification of hostile bytes, as a
 * whole .blob file (hash checks bypassed so mutations reach the walker),
 * as a raw data section of a fixed recursive schema (the canonical rule),
 * and as the data of a Unity file of that schema (wrapped with a valid
 * header and hash, so every input reaches the any-order walk). Whatever
 * verifies as a .blob or a raw section must dump and bake back to the same
 * bytes (roundtrip.h). A .blob is also judged by the value checks of a
 * schema of the same layout (verify -s), every failure through a sink.
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

/* The fuzz schema's layout with value checks on its fields. */
static const char checked_text[] =
    "enum Kind : u8 { a, b = 5, c }\n"
    "enum Big : i64 { lo = -9223372036854775808, hi = 9223372036854775807 }\n"
    "struct V { @range(0, 1) x: f32; @range(-1e9, ) y: f64; }\n"
    "@align(16) struct A { b: bool; k: Kind; v: V; @range(1, 9) f: [u16; 3]; }\n"
    "struct Node {\n"
    "  @range(-5, 5) s8: i8; n8: u8; s16: i16; @range(, 7) n16: u16; s32: i32; n32: u32; s64: i64;\n"
    "  @range(1, ) n64: u64;\n"
    "  @len(1, 4) @match(\"^[a-z]\") name: string; @unique @len(, 3) @match(\"x|^$\") tags: [string];\n"
    "  @len(, 2) kids: [Node]; next: *Node; a: A;\n"
    "  grid: [[u32]]; pts: [[f32; 3]]; refs: [*A]; big: Big; ok: bool;\n"
    "  u: U = null; us: [U];\n"
    "}\n"
    "union U { V, A, Node }\n"
    "root Node;\n";

static void count_failure(void *ctx, const blobc_error *e) {
    if (e->code != BLOBC_V_CHECK || !e->message[0]) abort(); /* says what failed */
    ++*(size_t *)ctx;
}

/* The blob judged by the checked schema: the sink hears every failure up
 * to its limit, and a failure is always a verify that fails. */
static void judge_checks(const uint8_t *data, size_t size) {
    static blobc_schema *checked;
    blobc_error err;
    blobc_error_clear(&err);
    if (!checked && blobc_schema_parse(checked_text, sizeof checked_text - 1, "checked.schema", &checked,
                                       &err) != BLOBC_OK)
        abort();
    size_t heard = 0;
    blobc_check_sink sink = {count_failure, &heard, 5, 0};
    blobc_verify_options vo = {0};
    vo.schema = checked;
    vo.flags = BLOBC_VERIFY_NO_HASH | BLOBC_VERIFY_CHECKS;
    vo.checks = &sink;
    blobc_status st = blobc_verify_blob(data, size, &vo, &err);
    if ((heard > 0) != (st != BLOBC_OK && err.code == BLOBC_V_CHECK) || heard > 5) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blobc_error err;
    blobc_error_clear(&err);
    blobc_verify_options vo = {0};
    vo.flags = BLOBC_VERIFY_NO_HASH;
    (void)blobc_verify_blob(data, size, &vo, &err);
    judge_checks(data, size);

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
