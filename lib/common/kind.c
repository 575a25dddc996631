/*
 * kind.c - the kinds of blobc types: their names and classes, and the
 * singleton type of each builtin (scalars and string) with its size and
 * alignment. Below the schema: scalar parsing and the schema model both
 * use it.
 */
#include "common/kind.h"


#define BUILTIN(k, nm, sz) [k] = {.kind = k, .size = sz, .align = sz, .name = nm}
static const blobc_type builtins[BLOBC_KIND_COUNT + 1] = {
    BUILTIN(BLOBC_KIND_BOOL, "bool", 1), BUILTIN(BLOBC_KIND_I8, "i8", 1),
    BUILTIN(BLOBC_KIND_U8, "u8", 1),     BUILTIN(BLOBC_KIND_I16, "i16", 2),
    BUILTIN(BLOBC_KIND_U16, "u16", 2),   BUILTIN(BLOBC_KIND_I32, "i32", 4),
    BUILTIN(BLOBC_KIND_U32, "u32", 4),   BUILTIN(BLOBC_KIND_F32, "f32", 4),
    BUILTIN(BLOBC_KIND_I64, "i64", 8),   BUILTIN(BLOBC_KIND_U64, "u64", 8),
    BUILTIN(BLOBC_KIND_F64, "f64", 8),
    [BLOBC_KIND_STRING] = {.kind = BLOBC_KIND_STRING, .size = 8, .align = 4, .name = "string"},
};

const blobc_type *blobc_builtin_type(blobc_kind kind) {
    if (blobc_kind_is_scalar(kind) || kind == BLOBC_KIND_STRING) return &builtins[kind];
    return NULL;
}

const char *blobc_kind_name(blobc_kind kind) {
    switch (kind) {
    case BLOBC_KIND_ENUM: return "enum";
    case BLOBC_KIND_STRUCT: return "struct";
    case BLOBC_KIND_ARRAY: return "array";
    case BLOBC_KIND_FIXED: return "fixed array";
    case BLOBC_KIND_PTR: return "pointer";
    case BLOBC_KIND_UNION: return "union";
    default:
        if (blobc_kind_is_scalar(kind) || kind == BLOBC_KIND_STRING) return builtins[kind].name;
        return "invalid kind";
    }
}

bool blobc_kind_is_scalar(blobc_kind kind) {
    return kind >= BLOBC_KIND_BOOL && kind <= BLOBC_KIND_F64;
}
bool blobc_kind_is_integer(blobc_kind kind) {
    return kind >= BLOBC_KIND_I8 && kind <= BLOBC_KIND_U64;
}
bool blobc_kind_is_signed(blobc_kind kind) {
    return kind == BLOBC_KIND_I8 || kind == BLOBC_KIND_I16 || kind == BLOBC_KIND_I32 ||
           kind == BLOBC_KIND_I64;
}
