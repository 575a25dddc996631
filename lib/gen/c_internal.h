/*
 * c_internal.h - what the C generator's files share: its state, the names
 * it gives each type, and small questions about types. Private to
 * lib/gen/.
 */
#ifndef BLOBC_GEN_C_INTERNAL_H
#define BLOBC_GEN_C_INTERNAL_H

#include "blobc/gen.h"
#include "common/hashtab.h"
#include "common/util.h"
#include "gen/gen_internal.h"

/* A set of identifiers (gen_util.c, shared with the other generators). */
typedef blobc_nameset nameset;

enum { VISIT_NONE, VISIT_OPEN, VISIT_DONE };

/* Output names of one named type. */
typedef struct type_info {
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
    int visit;                  /* dependency-order emission state */
    uint32_t cursor;            /* next field to look at while ordering */
} type_info;

typedef struct gen {
    const blobc_schema *schema;
    blobc_buffer *out;
    blobc_error *err;
    bool ok;                    /* false after the first failed append */
    blobc_arena arena;
    blobc_buffer tmp;           /* scratch for composing names and parameter lists */
    nameset globals;
    const char *prefix;
    const char *guard;
    const char *text_fn;        /* returns the schema text for the checked opens */
    type_info *info;
    size_t ninfo;
    blobc_hashtab map;          /* type pointer -> info index + 1 */
} gen;

static inline bool is_ref_kind(blobc_kind k) {
    return k == BLOBC_KIND_STRING || k == BLOBC_KIND_ARRAY || k == BLOBC_KIND_PTR;
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

/* ---- naming (c_names.c) ---- */

/* Whether s is a C identifier. */
/* Gives every output identifier its name (docs/CODEGEN.md, "Names"). */
blobc_status blobc_genc_assign_names(gen *g);

#endif
