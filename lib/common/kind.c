/*
 * kind.c - the kinds of blobc types: their names and classes, and the
 * singleton type of each builtin (scalars and string) with its size and
 * alignment, and the words of the schema language. Below the schema:
 * scalar parsing, the schema model and gen's schema text use it.
 */
#include "common/kind.h"

#include <string.h>

#define BUILTIN(k, nm, sz) [k] = {.kind = k, .size = sz, .align = sz, .name = nm}
static const blobc_type builtins[BLOBC_KIND_COUNT + 1] = {
    BUILTIN(BLOBC_KIND_BOOL, "bool", 1), BUILTIN(BLOBC_KIND_I8, "i8", 1),
    BUILTIN(BLOBC_KIND_U8, "u8", 1),     BUILTIN(BLOBC_KIND_I16, "i16", 2),
    BUILTIN(BLOBC_KIND_U16, "u16", 2),   BUILTIN(BLOBC_KIND_I32, "i32", 4),
    BUILTIN(BLOBC_KIND_U32, "u32", 4),   BUILTIN(BLOBC_KIND_F32, "f32", 4),
    BUILTIN(BLOBC_KIND_I64, "i64", 8),   BUILTIN(BLOBC_KIND_U64, "u64", 8),
    BUILTIN(BLOBC_KIND_F64, "f64", 8),
    [BLOBC_KIND_STRING] = {.kind = BLOBC_KIND_STRING, .size = 8, .align = 4, .name = "string"},
    [BLOBC_KIND_ANY] = {.kind = BLOBC_KIND_ANY, .size = BLOBC_ANY_SIZE, .align = BLOBC_ANY_ALIGN,
                        .name = "any"},
};

/* What an `any` holds at BLOBC_ANY_BODY as a list or a mapping: an
 * [any], and a [string: any] over its entry {key: string; value: any}.
 * Every schema's [any] and [string: any] are these objects (the parser
 * and the type section's decoder intern them here), so payloads of a
 * field and of an any compare as one type. Laid out already: `internal`
 * is layout's "done". */
enum { LAID_OUT = 2 };
static const blobc_field any_entry_fields[2] = {
    {.name = "key", .type = &builtins[BLOBC_KIND_STRING], .offset = 0},
    {.name = "value", .type = &builtins[BLOBC_KIND_ANY], .offset = 8},
};
static const blobc_type any_entry = {.kind = BLOBC_KIND_STRUCT, .size = 20, .align = 4,
                                     .nfields = 2, .fields = any_entry_fields, .key = 1,
                                     .flags = BLOBC_STRUCT_ENTRY, .internal = LAID_OUT};
static const blobc_type any_list = {.kind = BLOBC_KIND_ARRAY, .size = 8, .align = 4,
                                    .elem = &builtins[BLOBC_KIND_ANY], .internal = LAID_OUT};
static const blobc_type any_map = {.kind = BLOBC_KIND_MAP, .size = 8, .align = 4,
                                   .elem = &any_entry, .internal = LAID_OUT};

const blobc_type *blobc_any_list_type(void) { return &any_list; }
const blobc_type *blobc_any_map_type(void) { return &any_map; }

bool blobc_is_builtin(const blobc_type *t) {
    if (t == &any_list || t == &any_map || t == &any_entry) return true;
    return blobc_kind_valid((int)t->kind) && blobc_builtin_type(t->kind) == t;
}

const blobc_type *blobc_builtin_type(blobc_kind kind) {
    if (blobc_kind_is_scalar(kind) || kind == BLOBC_KIND_STRING || kind == BLOBC_KIND_ANY)
        return &builtins[kind];
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
    case BLOBC_KIND_MAP: return "map";
    case BLOBC_KIND_OPTIONAL: return "optional";
    case BLOBC_KIND_ANY: return "any";
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

bool blobc_schema_is_keyword(const char *s, size_t n) {
    static const char *const words[] = {"bool", "i8",  "u8",  "i16",    "u16",  "i32",
                                        "u32",  "i64", "u64", "f32",    "f64",  "string",
                                        "any", "struct", "enum", "union", "root", "true",
                                        "false"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == n && memcmp(words[i], s, n) == 0) return true;
    return false;
}

static bool tagged_alike(const blobc_type *a, const blobc_type *b) {
    if (a->by == BLOBC_UNION_BY_KEY || a->by != b->by || a->int_tags != b->int_tags) return false;
    return a->by != BLOBC_UNION_BY_FIELD || strcmp(a->tag_field, b->tag_field) == 0;
}

const blobc_field *blobc_union_partner(const blobc_type *u, const blobc_type *other,
                                       const blobc_field *m, bool *renamed) {
    bool by_tag = tagged_alike(u, other);
    if (renamed) *renamed = false;
    for (uint32_t i = 0; i < u->nfields; i++) {
        const blobc_field *f = &u->fields[i];
        if (by_tag ? (u->int_tags ? f->tag_value == m->tag_value : strcmp(f->tag, m->tag) == 0)
                   : strcmp(f->name, m->name) == 0)
            return f;
    }
    for (uint32_t i = 0; i < u->nfields && !by_tag; i++)
        if (u->fields[i].was && strcmp(u->fields[i].was, m->name) == 0) {
            if (renamed) *renamed = true;
            return &u->fields[i];
        }
    return NULL;
}
