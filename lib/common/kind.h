/*
 * kind.h - what the library shares about type kinds beyond the public
 * blobc_kind_* functions of blobc/schema.h (kind.c).
 */
#ifndef BLOBC_KIND_H
#define BLOBC_KIND_H

#include <stdbool.h>

#include "blobc/schema.h"

/* Whether k is a kind at all (a decoded type section may hold anything). */
static inline bool blobc_kind_valid(int k) {
    return (k >= BLOBC_KIND_BOOL && k <= BLOBC_KIND_UNION) ||
           (k >= BLOBC_KIND_MAP && k <= BLOBC_KIND_ANY);
}

/* Whether types of kind k are declared with a name: struct, enum, union. */
static inline bool blobc_kind_is_named(blobc_kind k) {
    return k == BLOBC_KIND_STRUCT || k == BLOBC_KIND_ENUM || k == BLOBC_KIND_UNION;
}

/* Whether values of kind k are anonymous composites: [T], [T; N], *T,
 * ?T and [K: V]. Each has one element chain to follow (blobc_type_next):
 * a map's key is always a leaf (an integer, an enum or a string). */
static inline bool blobc_kind_is_anonymous(blobc_kind k) {
    return k == BLOBC_KIND_ARRAY || k == BLOBC_KIND_FIXED || k == BLOBC_KIND_PTR ||
           k == BLOBC_KIND_OPTIONAL || k == BLOBC_KIND_MAP;
}

/* The next type of an anonymous composite's chain: the element, or a
 * map's value type. */
static inline const blobc_type *blobc_type_next(const blobc_type *t) {
    if (t->kind != BLOBC_KIND_MAP) return t->elem;
    return t->elem && t->elem->nfields == 2 ? t->elem->fields[1].type : NULL;
}

/* Whether t is one of the shared, read-only singletons: scalars, string,
 * any, and the [any] and [string: any] an any-value is made of. */
bool blobc_is_builtin(const blobc_type *t);

/* Whether the builtins are all the kind has: scalars, string, any. */
static inline bool blobc_kind_is_leaf(blobc_kind k) {
    return blobc_kind_is_scalar(k) || k == BLOBC_KIND_STRING || k == BLOBC_KIND_ANY;
}

/* The [any] and [string: any] every schema shares (what an any holds as
 * a list and a mapping), laid out already. */
const blobc_type *blobc_any_list_type(void);
const blobc_type *blobc_any_map_type(void);

/* Whether s[0..n) is an identifier of the schema language,
 * [A-Za-z_][A-Za-z0-9_]* (a quoted field name need not be one). */
static inline bool blobc_is_ident(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
        if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
    }
    return n > 0;
}

/* True for words the schema language reserves (type keywords, any,
 * struct, enum, union, root, true, false): a field so named is quoted. */
bool blobc_schema_is_keyword(const char *s, size_t n);

/* The member of union u that member m of union `other` is, by what the
 * data names a member: when both unions are tagged the same way (by the
 * same field or by YAML tag, string or integer tags), by its tag; else by
 * its name (its struct's), or a member that says it was called so (@was,
 * then *renamed). NULL when u has none. Upgrade carries values over by
 * it and compat pairs members by it. */
const blobc_field *blobc_union_partner(const blobc_type *u, const blobc_type *other,
                                       const blobc_field *m, bool *renamed);

#endif
