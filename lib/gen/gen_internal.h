/*
 * gen_internal.h - what the code generators (gen_c.c, gen_cs.c) share:
 * a set of output identifiers, the map from a schema's named types to
 * their index, and the identifier test. Private to lib/gen.
 */
#ifndef BLOBC_GEN_INTERNAL_H
#define BLOBC_GEN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "blobc/schema.h"

/* A set of identifiers (open addressing); the names must outlive it. */
typedef struct blobc_nameset {
    const char **slots;
    size_t cap;     /* a power of two, or 0 */
    size_t count;
} blobc_nameset;

bool blobc_nameset_has(const blobc_nameset *set, const char *name);
/* Adds a name that is not in the set; false when out of memory. */
bool blobc_nameset_add(blobc_nameset *set, const char *name);
void blobc_nameset_free(blobc_nameset *set);

/* Named type -> its index in blobc_schema_at order. */
typedef struct blobc_typemap {
    const blobc_schema *schema;
    size_t *slots;  /* index + 1, 0 = empty */
    size_t cap;
} blobc_typemap;

bool blobc_typemap_build(blobc_typemap *m, const blobc_schema *schema);
/* The index of t, or SIZE_MAX when t is not a named type of the schema. */
size_t blobc_typemap_find(const blobc_typemap *m, const blobc_type *t);
void blobc_typemap_free(blobc_typemap *m);

/* [A-Za-z_][A-Za-z0-9_]* */
bool blobc_gen_is_identifier(const char *s);

#endif
