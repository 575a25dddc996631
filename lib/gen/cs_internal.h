/*
 * cs_internal.h - what the files of the C# generator share: its state,
 * the names it gives (cs_names.c), the spelling and layout of types
 * (cs_types.c); gen_cs.c writes the output. Private to lib/gen/.
 */
#ifndef BLOBC_GEN_CS_INTERNAL_H
#define BLOBC_GEN_CS_INTERNAL_H

#include "blobc/gen.h"
#include "common/arena.h"
#include "common/buffer.h"
#include "common/err.h"
#include "gen/gen_internal.h"

typedef struct cs_type_info {
    const char *name;           /* C# name, '@' included */
    const char **members;       /* struct: per field; union: per member, its As property */
    const char **values;        /* enum: per value; union: per member, its Tag */
    const char *tag_enum, *tag_field, *offset_field; /* union: Tag, tag, offset */
    const char *tag_of, *tag_field_const, *default_const; /* tagged union: TagOf, TagField, DefaultMember */
    uint32_t natural;           /* struct: the alignment C# gives it */
    uint32_t comp;              /* struct: strongly connected component */
    bool explicit_layout;
    bool blob_only;             /* struct: holds offsets, valid only in blob storage */
} cs_type_info;

/* A struct the output adds: for a [T; N] that is itself an element, for
 * the entries of a map [K: V], for an optional ?T, and the reader of
 * `any` (one per file). */
typedef struct cs_helper {
    const char *key;            /* [T; N]: the spelling it is made for */
    const char *name;
    const char *base;           /* what the names of the types it holds start from */
    const blobc_type *type;     /* a map: the map type (its entry is type->elem) */
} cs_helper;

typedef struct csgen {
    const blobc_schema *schema;
    blobc_buffer *out;
    blobc_error *err;
    bool ok;
    bool math;
    bool own_only;              /* only the types of file 0 */
    bool standalone;            /* over blobc's runtime, not Unity's */
    const char *file_tag;       /* own_only: the file's stem as an identifier, in helper names */
    const char *ns;
    const char *indent;         /* "" or "    " inside a namespace */
    const char *owner;          /* the struct being written */
    const char *base;           /* the field being written as Owner_field, which
                                   a map's or an optional's struct is named after */
    blobc_arena arena;
    blobc_buffer tmp, props, aliases;
    blobc_buffer uses;          /* own_only: the comment naming the files used */
    blobc_nameset globals;
    blobc_typemap map;
    cs_type_info *info;
    size_t ninfo;
    bool *cyclic_comp;          /* per component: it has a cycle */
    cs_helper *helpers;
    size_t nhelpers, helpers_cap;
} csgen;

#define emit(x, ...) blobc_emit((x)->out, &(x)->ok, __VA_ARGS__)
static inline cs_type_info *info_of(const csgen *c, const blobc_type *t) {
    size_t i = blobc_typemap_find(&c->map, t);
    return i == SIZE_MAX ? NULL : &c->info[i];
}

/* Names from outside are written in full from global::, so that no
 * schema name (a field `UnsafeUtility`, a namespace `Game.System`) can
 * stand in their way. */
static inline const char *as_ref(const csgen *c) {
    return c->standalone ? "global::Blobc.BlobMemory.AsRef" : "global::Unity.Collections.LowLevel.Unsafe.UnsafeUtility.AsRef";
}

/* The name without its @, to build other names from. */
static inline const char *bare(const char *s) { return s[0] == '@' ? s + 1 : s; }

/* ---- names (cs_names.c) ---- */

char *blobc_gencs_arena_str(csgen *c, const blobc_buffer *b);
/* `base`, or base_, base__, ...: the first spelling not in set, added. */
const char *blobc_gencs_unique_in(csgen *c, blobc_nameset *set, const char *base);
/* A type's own names start from its name (CS0542) and what it inherits:
 * an enum's `value__` (CS0076), a struct's object members (CS0108). */
bool blobc_gencs_local_names(const csgen *c, blobc_nameset *local, const char *type_name, blobc_kind kind);
/* Names every named type, and the members inside each. */
bool blobc_gencs_assign_names(csgen *c);
/* With own_only: fails when a type's name depends on the other types. */
blobc_status blobc_gencs_check_split_names(csgen *c);
bool blobc_gencs_valid_namespace(const char *ns);
/* C#'s name of a scalar kind ("uint"), NULL for the others. */
const char *blobc_gencs_scalar_name(blobc_kind k);
/* "float" for a [f32; 2..4] that maps to float2..float4, else NULL. */
const char *blobc_gencs_math_name(const csgen *c, const blobc_type *t);

/* ---- types and layout (cs_types.c) ---- */

/* The strongly connected components of the struct graph (c->cyclic_comp). */
bool blobc_gencs_find_components(csgen *c);
/* Whether a BlobArray/BlobPtr of type t, inside a struct of component
 * `comp` (UINT32_MAX: inside a helper), must be stored untyped. */
bool blobc_gencs_needs_raw(const csgen *c, const blobc_type *t, uint32_t comp);
/* The C# type of t, qualified with global:: when `full` (alias targets). */
bool blobc_gencs_put_type(csgen *c, blobc_buffer *b, const blobc_type *t, bool full);
/* Whether a value of type t holds an offset. */
bool blobc_gencs_holds_offsets(const csgen *c, const blobc_type *t);
/* Every struct's C# alignment and whether it needs an explicit layout. */
bool blobc_gencs_layout_all(csgen *c);
/* The helper struct of a map (its entries), an optional, `any` or a
 * [T; N] element, made on first use; NULL when out of memory. */
const char *blobc_gencs_helper_for(csgen *c, const blobc_type *t);
/* The name of a named type or helper from global::, the namespace included. */
bool blobc_gencs_put_global(csgen *c, blobc_buffer *b, const char *name);

/* ---- any-values and union tags (cs_kinds.c) ---- */

/* The reader struct of `any`, named `name`. */
void blobc_gencs_emit_any(csgen *c, const char *name);
/* TagOf, TagField and DefaultMember of a union tagged by a field or a YAML tag. */
void blobc_gencs_emit_union_tags(csgen *c, const blobc_type *t, const cs_type_info *ti);

#endif
