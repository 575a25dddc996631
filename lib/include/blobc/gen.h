/*
 * blobc/gen.h - code generation from a schema: a C11 (and C++17) header
 * that reads baked blobs in place over the runtime in blobc/blob.h, a
 * C++17 header of classes over blobc/blob.hpp, C# for Unity, and a JSON
 * Schema of the authoring data for editors and validators.
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
    bool own_file_only;     /* only the types of the schema's own file (file 0),
                               with an #include of blobc_gen_file_name's header
                               of each imported file it uses */
} blobc_gen_options;

/* Appends the generated header for every named type in `schema` to `out`
 * (opts may be NULL). The schema may be parsed or decoded from a blob.
 * Fails with BLOBC_EARG for a guard or prefix that is not a C identifier,
 * BLOBC_ENOMEM when out of memory; on failure `out` is left as it was.
 * The output and its naming rules are described in docs/CODEGEN.md. */
BLOBC_API blobc_status blobc_gen_c(const blobc_schema *schema, const blobc_gen_options *opts,
                                   blobc_buffer *out, blobc_error *err);

typedef struct blobc_gen_cpp_options {
    const char *namespace_name; /* C++ namespace (A or A::B) of every type; global when NULL */
    const char *guard;          /* include guard; BLOBC_GEN_<FILE STEM>_HPP when NULL */
    bool own_file_only;         /* as in blobc_gen_options */
} blobc_gen_cpp_options;

/* Appends a C++17 header for every named type in `schema` to `out` (opts
 * may be NULL): a class per struct and union with an accessor per field,
 * enum classes, over the runtime in blobc/blob.hpp; it reads blobs in
 * place, without exceptions or allocation. Fails with BLOBC_EARG for a
 * namespace or guard that is not a C++ name, BLOBC_EINPUT for a schema
 * gen c refuses too; on failure `out` is left as it was. The output is
 * described in docs/CODEGEN.md, "C++". */
BLOBC_API blobc_status blobc_gen_cpp(const blobc_schema *schema, const blobc_gen_cpp_options *opts,
                                     blobc_buffer *out, blobc_error *err);

typedef struct blobc_gen_cs_options {
    const char *namespace_name; /* dotted C# namespace; global when NULL */
    bool no_mathematics;        /* never map [f32; 3] and the like to
                                   Unity.Mathematics' float3 */
    bool own_file_only;         /* only the types of the schema's own file
                                   (file 0); the others are in the files
                                   generated for theirs, compiled with it */
    bool standalone;            /* over blobc's own C# runtime (BlobcRuntime.cs,
                                   namespace Blobc) instead of Unity's
                                   packages: reads .blob files; implies
                                   no_mathematics */
} blobc_gen_cs_options;

/* Appends C# for every named type in `schema` to `out` (opts may be NULL):
 * structs over Unity.Entities' BlobArray<T>, BlobPtr<T> and BlobString
 * that read a Unity blob asset file (blobc/unity.h) in place, or with
 * opts->standalone the same structs over blobc's C# runtime, which reads
 * .blob files. Fails with BLOBC_EARG for a namespace that is not a C#
 * namespace name, BLOBC_EINPUT with own_file_only when a type's name
 * would depend on the other files; on failure `out` is left as it was.
 * The mapping is described in docs/UNITY.md, the runtime in
 * docs/ENGINES.md. */
BLOBC_API blobc_status blobc_gen_cs(const blobc_schema *schema, const blobc_gen_cs_options *opts,
                                    blobc_buffer *out, blobc_error *err);

/* The name of the file gen writes for schema file `file` of `schema`
 * (blobc_schema_file): its name without directories and without the
 * extension, then `ext` ("level.schema", ".h": "level.h"). Fails with
 * BLOBC_EINPUT when that name has characters other than [A-Za-z0-9._+-]
 * (it is written into #include lines), BLOBC_EARG for a file index out of
 * range. With own_file_only, a header includes the headers of the files
 * it uses by these names, so all go into one directory. */
BLOBC_API blobc_status blobc_gen_file_name_of(const blobc_schema *schema, size_t file, const char *ext,
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
