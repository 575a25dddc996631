/*
 * blobc/evolve.h - schema evolution: whether blobs of one version of a
 * type read correctly with another (compat), and carrying a blob over to a
 * new version of its schema (upgrade). See docs/SCHEMA.md, "Evolving a
 * schema".
 *
 * Stability: experimental: upgrade's options may still change.
 */
#ifndef BLOBC_EVOLVE_H
#define BLOBC_EVOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "api.h"
#include "error.h"
#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct blobc_compat_result {
    size_t changes;   /* layout differences: old blobs do not read correctly */
    size_t notes;     /* differences that keep the layout (renames) */
} blobc_compat_result;

/* Compares the layout of old_root and everything reachable from it with
 * new_root's, pairing struct fields by name, enum members by name and
 * value, union members by name and tag; type names do not matter. A root
 * of another name is the old root renamed unless new_schema (may be NULL:
 * then never) still has a type of the old root's name: then the line
 * "root type changed" comes first. Appends one line per difference to
 * `out`, "PATH: what" for changes and "note: PATH: what" for renames, in
 * the order met walking from the root ("(root)" for the root itself).
 * old_root and new_root may come from different schemas (parsed or decoded
 * from blobs). On failure (out of memory) `out` is left as it was. */
BLOBC_API blobc_status blobc_compat(const blobc_type *old_root, const blobc_type *new_root,
                                    const blobc_schema *new_schema, blobc_buffer *out,
                                    blobc_compat_result *result, blobc_error *err);

typedef struct blobc_upgrade_options {
    const blobc_schema *schema;   /* the new schema (required) */
    const char *type_name;        /* the type in the new schema (and in `from`);
                                     NULL: the root */
    const blobc_schema *from;     /* the old schema, for a stripped blob; NULL:
                                     the blob's embedded type description */
    const char *schema_name;      /* recorded in the result for dump's $schema;
                                     NULL: the new schema's file name */
    bool drop;                    /* leave out fields the new schema does not
                                     have, instead of failing */
    bool strip;                   /* no type section in the result */
} blobc_upgrade_options;

/* Carries the blob `bytes` over to opts->schema by field name and writes
 * the new blob file image to `out`: exactly the blob that baking the old
 * blob's data (as `blobc dump` writes it) with the new schema gives. New
 * fields take their defaults ([T] empty, *T null); a new field without a
 * default, an old field the new schema lacks (unless drop), a value that
 * does not fit its new type and a conversion between kinds of values fail
 * with BLOBC_EINPUT and the value's path in the message or err->path.
 * The old blob is verified first. */
BLOBC_API blobc_status blobc_upgrade(const void *bytes, size_t len,
                                     const blobc_upgrade_options *opts, blobc_buffer *out,
                                     blobc_error *err);

#ifdef __cplusplus
}
#endif
#endif
