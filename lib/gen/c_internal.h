/*
 * c_internal.h - what the C and C++ generators' files share: their state,
 * the names they give each type, the parts of the output both write (doc
 * comments, enum literals, struct order, the schema text) and small
 * questions about types. Private to lib/gen/.
 */
#ifndef BLOBC_GEN_C_INTERNAL_H
#define BLOBC_GEN_C_INTERNAL_H

#include "blobc/gen.h"
#include "common/hashtab.h"
#include "common/arena.h"
#include "common/buffer.h"
#include "common/compiler.h"
#include "common/err.h"
#include "gen/gen_internal.h"

/* A set of identifiers (gen_util.c, shared with the other generators). */
typedef blobc_nameset nameset;

enum { VISIT_NONE, VISIT_OPEN, VISIT_DONE };

/* Output names of one named type. */
typedef struct type_info type_info;
struct type_info {
    const blobc_type *type;
    const char *cname;
    /* enum */
    const char *name_fn;
    const char **values;        /* per member: its macro */
    /* struct */
    const char *hash_macro, *open_fn, *open_raw_fn, *open_checked_fn;
    uint64_t hash;              /* blobc_type_hash: linear in the reachable types, so once */
    const char **members;       /* per field: the C member name */
    const char **acc;           /* per field: accessor, or NULL */
    const char **acc_at;        /* per field: item accessor of a [T], or NULL */
    const char **acc_find;      /* per field: binary search of a keyed [T], or NULL */
    /* union: values[0] is <U>_NONE, values[i] member i's tag macro, acc[i - 1]
     * its <U>_as_<Member> accessor; members[0..1] the tag and ref members */
    const char *tag_fn;
    /* tagged union: per member its _TAG macro; the tag field's and the
     * default member's macros (NULL when it has none) */
    const char **tags;
    const char *tag_field_macro, *default_macro;
    /* map fields: _count; optional fields: _has_ (acc is the value, acc_at
     * and acc_find a map's entry i and lookup) */
    const char **acc_count, **acc_has;
    /* a map's entry struct or an optional (info[ninfo..]): the struct field
     * whose type holds it, and whether it is written out already;
     * members[0..1] are key and value, or value and has */
    const type_info *owner;
    uint32_t owner_field;
    bool emitted;
    int visit;                  /* dependency-order emission state */
    uint32_t cursor;            /* next field to look at while ordering */
    bool offsets;               /* C++: holds offsets (inline), so is never copied */
};

typedef struct gen {
    const blobc_schema *schema;
    const char *lang;           /* "gen c", "gen cpp": the start of error messages */
    blobc_buffer *out;
    blobc_error *err;
    bool ok;                    /* false after the first failed append */
    blobc_arena arena;
    blobc_buffer tmp;           /* scratch for composing names and parameter lists */
    nameset globals;
    const char *prefix;
    const char *guard;
    const char *text_fn;        /* returns the schema text for the checked opens */
    const char *qual;           /* C++: "::" or "::<namespace>::", before every type name */
    bool own_only;              /* only the types of file 0, including the others' headers */
    type_info *info;            /* the named types, then nanon anonymous ones */
    size_t ninfo, nanon;
    blobc_hashtab map;          /* type pointer -> info index + 1 */
} gen;

/* Whether the output defines t (else an included header does). */
static inline bool is_own(const gen *g, const blobc_type *t) { return !g->own_only || t->pos.file == 0; }

static inline bool is_ref_kind(blobc_kind k) {
    return k == BLOBC_KIND_STRING || k == BLOBC_KIND_ARRAY || k == BLOBC_KIND_PTR || k == BLOBC_KIND_MAP;
}

/* Whether values of kind k are {offset, length} to items: [T], and a map
 * (its entries). */
static inline bool is_list_kind(blobc_kind k) { return k == BLOBC_KIND_ARRAY || k == BLOBC_KIND_MAP; }

/* The C types the output declares for anonymous types: a map's entry
 * struct and an optional. */
static inline bool needs_anon_type(blobc_kind k) { return k == BLOBC_KIND_MAP || k == BLOBC_KIND_OPTIONAL; }
/* The type the output names for such a node (a map's is its entry). */
static inline const blobc_type *anon_key(const blobc_type *t) {
    return t->kind == BLOBC_KIND_MAP ? t->elem : t;
}

/* What a field holds inline: through fixed arrays and optionals. */
static inline const blobc_type *strip_inline(const blobc_type *t) {
    while (t->kind == BLOBC_KIND_FIXED || t->kind == BLOBC_KIND_OPTIONAL) t = t->elem;
    return t;
}

static inline const blobc_type *strip_fixed(const blobc_type *t) {
    while (t->kind == BLOBC_KIND_FIXED) t = t->elem;
    return t;
}

static inline uint32_t fixed_depth(const blobc_type *t) {
    uint32_t n = 0;
    for (; t->kind == BLOBC_KIND_FIXED; t = t->elem) n++;
    return n;
}

/* Whether a field gets an accessor (its value holds offsets to resolve)
 * and an item accessor (a [T] whose items hold offsets). */
static inline bool wants_accessor(const blobc_type *t) { return is_ref_kind(strip_fixed(t)->kind); }
static inline bool wants_item_accessor(const blobc_type *t) {
    return t->kind == BLOBC_KIND_ARRAY && is_ref_kind(strip_fixed(t->elem)->kind);
}

static inline blobc_status nomem(gen *g) { return blobc_err_nomem(g->err); }

/* ---- the parts gen c and gen cpp share (c_shared.c) ---- */

/* Sets g up over the schema's named types (the guard is derived from the
 * file name with guard_suffix when NULL) and checks that every type a
 * field names is one of them. blobc_genc_end frees what g holds, also
 * after a failure. */
blobc_status blobc_genc_begin(gen *g, const char *lang, const blobc_schema *schema, const char *prefix,
                              const char *guard, const char *guard_suffix, blobc_buffer *out,
                              blobc_error *err);
void blobc_genc_end(gen *g);
type_info *blobc_genc_info_of(const gen *g, const blobc_type *t);
/* The C type of a scalar kind as stored ("uint32_t", "blobc_rt_bool"). */
const char *blobc_genc_scalar_type(blobc_kind k);
/* A schema doc comment as a C/C++ comment at `indent`. */
void blobc_genc_doc(gen *g, const char *indent, const char *doc);
/* The schema spelling of a type, for comments. */
void blobc_genc_spelling(gen *g, const blobc_type *t);
/* An enum member's value as a constant expression of its base's type. */
void blobc_genc_enum_literal(gen *g, blobc_kind base, uint64_t bits);
/* Per member: whether an earlier member has its value (a switch names
 * each value once). NULL when out of memory; free() it. */
bool *blobc_genc_enum_dups(const blobc_type *t);
/* A struct's layout as the output can write it: fields, increasing
 * offsets; and whether @align raised its alignment. */
blobc_status blobc_genc_check_struct(gen *g, const blobc_type *t);
bool blobc_genc_raised_align(const blobc_type *t);
/* Calls emit_one on every struct after the structs it holds inline. */
blobc_status blobc_genc_structs_in_order(gen *g, blobc_status (*emit_one)(gen *, const type_info *));
/* An #include line of the header (named by its file and ext) of every
 * other schema file whose types the own types use. */
blobc_status blobc_genc_includes(gen *g, const char *ext);
/* The function g->text_fn returning the schema text, under
 * BLOBC_WITH_LIBRARY; fills every struct's hash. */
blobc_status blobc_genc_schema_text(gen *g);

/* ---- maps, optionals, any and tagged unions (c_types.c) ---- */

void blobc_genc_emit(gen *g, const char *fmt, ...) BLOBC_PRINTF(2, 3);
/* The C spelling of a stored type without its fixed dimensions. */
const char *blobc_genc_base_ctype(const gen *g, const blobc_type *t);
/* A struct's definition with padding and static assertions; `what` says
 * what it is in the comment above it. */
void blobc_genc_struct_def(gen *g, const type_info *ti, const char *what);
/* Adds an info (after the named types) for every map entry and optional
 * a struct field's type holds, and indexes them. */
blobc_status blobc_genc_collect_anon(gen *g);
/* typedefs of the anonymous types. */
void blobc_genc_anon_typedefs(gen *g);
/* The optionals a struct holds inline, before it; everything else after
 * every struct (inline=false). */
void blobc_genc_anon_defs(gen *g, const type_info *owner, bool inline_only);
/* The accessors of a map, optional field f. */
void blobc_genc_new_accessors(gen *g, const type_info *ti, uint32_t f);
/* s as a C (and C++) string literal. */
void blobc_genc_c_string(gen *g, const char *s);
/* A tagged union's tag macros. */
void blobc_genc_union_tags(gen *g, const type_info *ti);
/* Appends ", size_t blobc_i0, ..." for each fixed level of t to params and
 * "[blobc_i0]..." to lvalue, each NUL-terminated. */
bool blobc_genc_fixed_indices(blobc_buffer *params, blobc_buffer *lvalue, const blobc_type *t);
void blobc_genc_view_head(gen *g, const char *fn, const char *params, const blobc_type *r);
void blobc_genc_view_body(gen *g, const blobc_type *r, const char *lvalue);
void blobc_genc_ptr_decl(gen *g, const blobc_type *t, const char *inner);
void blobc_genc_ptr_type(gen *g, const blobc_type *t);
const char *blobc_genc_cast_macro(const blobc_type *t);

/* ---- naming (c_names.c) ---- */


/* Gives every output identifier its name (docs/CODEGEN.md, "Names"). */
blobc_status blobc_genc_assign_names(gen *g);
/* Whether the naming rules would change s (a keyword, a standard name,
 * a reserved prefix). */
bool blobc_genc_is_escaped(const char *s);
/* The same for gen cpp (docs/CODEGEN.md, "C++"). */
blobc_status blobc_gencpp_assign_names(gen *g);

#endif
