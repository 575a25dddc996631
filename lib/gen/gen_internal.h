/*
 * gen_internal.h - the helpers of the C# generator (gen_cs.c): a set of
 * output identifiers and the map from a schema's named types to their
 * index, both over the library's hash table, the text emitter and the
 * identifier test. Private to lib/gen; gen c uses the name set too.
 */
#ifndef BLOBC_GEN_INTERNAL_H
#define BLOBC_GEN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "blobc/schema.h"
#include "common/hashtab.h"
#include "common/arena.h"
#include "common/buffer.h"
#include "common/compiler.h"
#include "common/err.h"

/* A set of identifiers over the library's hash table; the names must
 * outlive it. */
typedef struct blobc_nameset {
    blobc_hashtab tab;
    const char **names;   /* names[item - 1] */
    size_t count, cap;
} blobc_nameset;

bool blobc_nameset_has(const blobc_nameset *set, const char *name);
/* Adds a name that is not in the set; false when out of memory. */
bool blobc_nameset_add(blobc_nameset *set, const char *name);
void blobc_nameset_free(blobc_nameset *set);
/* A name as an identifier of generated code: a quoted field name ("near
 * clip plane") with every byte outside [A-Za-z0-9_] made '_' and a
 * leading digit given one in front (an arena copy); an identifier as it
 * is. NULL when out of memory. */
const char *blobc_gen_ident(blobc_arena *arena, const char *s);

/* `base`, or base_, base__, ... (copies in the arena): the first spelling
 * in neither set (`also` may be NULL), added to `set`. NULL when base is
 * NULL or out of memory. */
const char *blobc_nameset_unique(blobc_nameset *set, const blobc_nameset *also,
                                 blobc_arena *arena, const char *base);

/* Named type -> its index in blobc_schema_at order. */
typedef struct blobc_typemap {
    const blobc_schema *schema;
    blobc_hashtab tab;    /* type pointer -> index + 1 */
} blobc_typemap;

bool blobc_typemap_build(blobc_typemap *m, const blobc_schema *schema);
/* The index of t, or SIZE_MAX when t is not a named type of the schema. */
size_t blobc_typemap_find(const blobc_typemap *m, const blobc_type *t);
void blobc_typemap_free(blobc_typemap *m);

/* Appends the schema's file name without its directories (characters
 * outside [A-Za-z0-9._+-] as '?', so it is safe in any comment);
 * false when out of memory. */
bool blobc_gen_file_name(const blobc_schema *schema, blobc_buffer *out);


/* Where a line of doc text goes. */
typedef enum blobc_gen_doc_lang {
    BLOBC_GEN_DOC_C,    /* inside a C block comment */
    BLOBC_GEN_DOC_CS    /* after C#'s `///`, inside an XML doc element */
} blobc_gen_doc_lang;

/* Appends one line of a schema doc comment (n bytes, no '\n') so that it
 * stays one line of text inside its comment, whatever it holds; false
 * when out of memory. */
bool blobc_gen_doc_line(blobc_buffer *out, const char *s, size_t n, blobc_gen_doc_lang lang);

/* Marks used[k] for every schema file k but the schema's own (file 0)
 * whose named types the fields of file 0's structs and unions name
 * (blobc_gen_chain_named); `used` has blobc_schema_file_count
 * entries, cleared by the caller. */
void blobc_gen_files_used(const blobc_schema *schema, bool *used);

/* Calls fn on every named type (enum, struct, union) a field of type t
 * names: where its chain of [T], [T; N], *T, ?T and map values ends, and
 * each enum a map along it has as key; stops at the first false. */
bool blobc_gen_chain_named(const blobc_type *t, bool (*fn)(void *ctx, const blobc_type *named), void *ctx);

/* [A-Za-z_][A-Za-z0-9_]* */
bool blobc_gen_is_identifier(const char *s);


#endif
