/*
 * fuzz_bake.c - libFuzzer target: both data front ends over hostile text
 * with a fixed schema. The first byte picks YAML or JSON and a limit of
 * errors. Each input is baked twice, stopping at the first error and
 * going on after errors (a diagnostics sink): both must agree on success
 * and on the bytes, the sink must get the first error the call returns,
 * and whatever bakes must verify.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count_diag(void *ctx, const blobc_error *e) {
    size_t *n = ctx;
    if (++*n > 1000000 || e->message[0] == '\0') abort(); /* every error says what */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    static const unsigned limits[] = {20, 1, 3, 0};
    blobc_bake_options o = {0};
    o.schema = fuzz_schema();
    o.input = (data[0] & 1) ? BLOBC_INPUT_JSON : BLOBC_INPUT_YAML;
    o.output = BLOBC_OUTPUT_RAW;
    blobc_buffer out = {0}, out2 = {0};
    blobc_error err, err2;
    blobc_error_clear(&err);
    blobc_error_clear(&err2);
    const char *text = (const char *)data + 1;
    blobc_status st = blobc_bake_memory(text, size - 1, "fuzz.data", &o, &out, &err);
    size_t n = 0;
    blobc_diag_sink sink = {count_diag, &n, limits[(data[0] >> 1) & 3], 0, NULL, 0};
    o.diag = &sink;
    blobc_status st2 = blobc_bake_memory(text, size - 1, "fuzz.data", &o, &out2, &err2);
    if ((st == BLOBC_OK) != (st2 == BLOBC_OK)) abort(); /* the two ways disagree */
    if (st == BLOBC_OK) {
        if (out.len != out2.len || memcmp(out.data, out2.data, out.len) != 0) abort();
        if (n != 0) abort();
        blobc_error verr;
        blobc_error_clear(&verr);
        if (blobc_verify_data(out.data, out.len, blobc_schema_root(o.schema), &verr) != BLOBC_OK)
            abort(); /* bake produced a blob its own verifier rejects */
    } else if (out.len || out2.len || (sink.max_errors && n > sink.max_errors)) {
        abort();
    }
    blobc_buffer_free(&out);
    blobc_buffer_free(&out2);
    return 0;
}
