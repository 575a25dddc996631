/*
 * names.h - finding things by name in a schema (names.c). Private to
 * lib/schema/.
 */
#ifndef BLOBC_SCHEMA_NAMES_H
#define BLOBC_SCHEMA_NAMES_H

#include "common/hashtab.h"
#include "schema/schema_internal.h"

/* An enum member's value and its index in declaration order. */
typedef struct value_entry {
    uint64_t value;
    uint32_t index;
} value_entry;
/* qsort order of value entries: by value, then index. */
int blobc_value_entry_cmp(const void *a, const void *b);

/* What layout attaches to a struct or enum (blobc_type.lookup). */
typedef struct type_lookup {
    blobc_hashtab names;     /* fields or members by name */
    value_entry *sorted;     /* ENUM: members by value, ascending */
} type_lookup;

/* Indexes a struct's fields or an enum's members by name, in the schema's
 * arena; a duplicate name is an error at the second one. */
blobc_status blobc_schema_index_items(blobc_schema *s, const blobc_type *t, blobc_error *err,
                                      type_lookup **out);

/* Builds the name index of s->named (duplicate and malformed names are
 * errors) so blobc_schema_find is a hash lookup. Idempotent. */
blobc_status blobc_schema_index_names(blobc_schema *s, blobc_error *err);

/* blobc_schema_find for a name that need not be NUL-terminated. */
const blobc_type *blobc_schema_find_len(const blobc_schema *s, const char *name, size_t len);


#endif
