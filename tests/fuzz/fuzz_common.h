/*
 * fuzz_common.h - what the libFuzzer targets share: a schema that uses
 * every kind of type (with recursion through *T, [T] and a union, so
 * hostile data can build cycles and deep chains), parsed once.
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
    "struct Node {\n"
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

#endif
