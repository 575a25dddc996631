/*
 * blobc/gen.h - code generation from a schema: a C11 (and C++17) header
 * that reads baked blobs in place over the runtime in blobc/blob.h, and a
 * JSON Schema of the authoring data for editors and validators.
 *
 * Stability: stable: a minor release keeps every declaration here
 * source-compatible.
 */
#ifndef BLOBC_GEN_H
#define BLOBC_GEN_H

#include <stdbool.h>

#include "error.h"
#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct blobc_gen_options {
    const char *guard;      /* include guard; BLOBC_GEN_<FILE STEM>_H when NULL */
    const char *prefix;     /* prepended to every type name (and so to the
                               names derived from it); none when NULL */
} blobc_gen_options;

/* Appends the generated header for every named type in `schema` to `out`
 * (opts may be NULL). The schema may be parsed or decoded from a blob.
 * Fails with BLOBC_EARG for a guard or prefix that is not a C identifier,
 * BLOBC_ENOMEM when out of memory; on failure `out` is left as it was.
 * The output and its naming rules are described in docs/CODEGEN.md. */
BLOBC_API blobc_status blobc_gen_c(const blobc_schema *schema, const blobc_gen_options *opts,
                                   blobc_buffer *out, blobc_error *err);

typedef struct blobc_gen_cs_options {
    const char *namespace_name; /* dotted C# namespace; global when NULL */
    bool no_mathematics;        /* never map [f32; 3] and the like to
                                   Unity.Mathematics' float3 */
} blobc_gen_cs_options;

/* Appends C# for every named type in `schema` to `out` (opts may be NULL):
 * structs over Unity.Entities' BlobArray<T>, BlobPtr<T> and BlobString
 * that read a Unity blob asset file (blobc/unity.h) in place. Fails with
 * BLOBC_EARG for a namespace that is not a C# namespace name; on failure
 * `out` is left as it was. The mapping is described in docs/UNITY.md. */
BLOBC_API blobc_status blobc_gen_cs(const blobc_schema *schema, const blobc_gen_cs_options *opts,
                                    blobc_buffer *out, blobc_error *err);

/* Appends a JSON Schema (draft 2020-12) of the YAML/JSON data whose top
 * level is the struct `type` (NULL: the schema's root): every field with
 * its type, ranges, enum names, defaults and doc comments, required
 * fields, no unknown keys; `$defs` holds every named type. Fails with
 * BLOBC_EINPUT when the type is unknown or not a struct; on failure `out`
 * is left as it was. Described in docs/EDITORS.md. */
BLOBC_API blobc_status blobc_gen_jsonschema(const blobc_schema *schema, const char *type,
                                            blobc_buffer *out, blobc_error *err);

#ifdef __cplusplus
}
#endif
#endif
