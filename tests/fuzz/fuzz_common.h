/*
 * fuzz_common.h - what the libFuzzer targets share: a schema that uses
 * every kind of type (with recursion through *T, [T] and a union, so
 * hostile data can build cycles and deep chains) and tagged items, parsed
 * once; and the tags a bake may exclude.
 */
#ifndef BLOBC_FUZZ_COMMON_H
#define BLOBC_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobc.h"

static const char fuzz_schema_text[] =
    "enum Kind : u8 { a, b = 5, c }\n"
    "enum Big : i64 { lo = -9223372036854775808, hi = 9223372036854775807 }\n"
    "struct V { x: f32; y: f64; }\n"
    "@align(16) struct A { b: bool; k: Kind; v: V; f: [u16; 3]; }\n"
    "@tags(dev, test) struct Node {\n"
    "  s8: i8; n8: u8; s16: i16; n16: u16; s32: i32; n32: u32; s64: i64; n64: u64;\n"
    "  name: string; tags: [string]; kids: [Node]; next: *Node; a: A;\n"
    "  grid: [[u32]]; pts: [[f32; 3]]; refs: [*A]; big: Big; ok: bool;\n"
    "  u: U = null; us: [U];\n"
    "}\n"
    "union U { V, A, Node }\n"
    "root Node;\n";

static inline const blobc_schema *fuzz_schema(void) {
    static blobc_schema *s;
    if (!s) {
        blobc_error err;
        blobc_error_clear(&err);
        if (blobc_schema_parse(fuzz_schema_text, sizeof fuzz_schema_text - 1, "fuzz.schema", &s,
                               &err) != BLOBC_OK)
            abort(); /* the fixed schema must parse */
    }
    return s;
}

static const char *const fuzz_excluded[] = {"dev"};

/* Bakes text twice with o (stopping at the first error, then going on
 * after errors through a sink with the limit `limit`): both must agree on
 * success and on the bytes, the sink must say what each error is, and
 * whatever bakes must verify. Aborts otherwise. */
static inline void fuzz_count_diag(void *ctx, const blobc_error *e) {
    size_t *n = ctx;
    if (++*n > 1000000 || e->message[0] == '\0') abort(); /* every error says what */
}

static inline void fuzz_bake_twice(const char *text, size_t len, const char *name,
                                   blobc_bake_options *o, unsigned limit) {
    blobc_buffer out = {0}, out2 = {0};
    blobc_error err, err2;
    blobc_error_clear(&err);
    blobc_error_clear(&err2);
    blobc_status st = blobc_bake_memory(text, len, name, o, &out, &err);
    size_t n = 0;
    blobc_diag_sink sink = {fuzz_count_diag, &n, limit, 0, NULL, 0};
    o->diag = &sink;
    blobc_status st2 = blobc_bake_memory(text, len, name, o, &out2, &err2);
    if ((st == BLOBC_OK) != (st2 == BLOBC_OK)) abort(); /* the two ways disagree */
    if (st == BLOBC_OK) {
        if (out.len != out2.len || memcmp(out.data, out2.data, out.len) != 0) abort();
        if (n != 0) abort();
        blobc_error verr;
        blobc_error_clear(&verr);
        if (blobc_verify_data(out.data, out.len, blobc_schema_root(o->schema), &verr) != BLOBC_OK)
            abort(); /* bake produced a blob its own verifier rejects */
    } else if (out.len || out2.len || (sink.max_errors && n > sink.max_errors)) {
        abort();
    }
    blobc_buffer_free(&out);
    blobc_buffer_free(&out2);
}

#endif
