/*
 * blobc/evolve.h - schema evolution: whether blobs of one version of a
 * type read correctly with another (compat), and carrying a blob over to a
 * new version of its schema (upgrade). See docs/SCHEMA.md, "Evolving a
 * schema".
 */
#ifndef BLOBC_EVOLVE_H
#define BLOBC_EVOLVE_H

#include <stddef.h>

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
 * new_root's, pairing struct fields by name and enum members by name and
 * value; type names do not matter. Appends one line per difference to
 * `out`, "PATH: what" for changes and "note: PATH: what" for renames, in
 * the order met walking from the root ("(root)" for the root itself).
 * old_root and new_root may come from different schemas (parsed or decoded
 * from blobs). On failure (out of memory) `out` is left as it was. */
blobc_status blobc_compat(const blobc_type *old_root, const blobc_type *new_root,
                          blobc_buffer *out, blobc_compat_result *result, blobc_error *err);

#ifdef __cplusplus
}
#endif
#endif
