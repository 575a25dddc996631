/*
 * kind.h - what the library shares about type kinds beyond the public
 * blobc_kind_* functions of blobc/schema.h (kind.c).
 */
#ifndef BLOBC_KIND_H
#define BLOBC_KIND_H

#include <stdbool.h>

#include "blobc/schema.h"

/* Whether k is a kind at all (a decoded type section may hold anything). */
static inline bool blobc_kind_valid(int k) { return k >= BLOBC_KIND_BOOL && k <= BLOBC_KIND_UNION; }

/* Whether types of kind k are declared with a name: struct, enum, union. */
static inline bool blobc_kind_is_named(blobc_kind k) {
    return k == BLOBC_KIND_STRUCT || k == BLOBC_KIND_ENUM || k == BLOBC_KIND_UNION;
}

/* Whether values of kind k are anonymous composites: [T], [T; N], *T. */
static inline bool blobc_kind_is_anonymous(blobc_kind k) {
    return k == BLOBC_KIND_ARRAY || k == BLOBC_KIND_FIXED || k == BLOBC_KIND_PTR;
}

/* Whether t is one of the builtin singletons. */
static inline bool blobc_is_builtin(const blobc_type *t) {
    return blobc_kind_valid((int)t->kind) && blobc_builtin_type(t->kind) == t;
}

#endif
