/*
 * blobc/bake.h - turn authoring data (YAML or JSON) into a blob.
 *
 * The schema decides every value's type (SPEC §5). Baking is all or
 * nothing: on any error nothing is produced and the error names the place
 * as file:line:col, and for a value also by its path in the data: a schema
 * path (rooms[3].center.x) for YAML, a JSON Pointer (/rooms/3/center/x) for
 * JSON. A NUL byte makes the input binary: "binary data at offset N".
 */
#ifndef BLOBC_BAKE_H
#define BLOBC_BAKE_H

#include <stdbool.h>
#include <stddef.h>

#include "blobfile.h"
#include "error.h"
#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum blobc_input_format {
    BLOBC_INPUT_AUTO = 0,   /* by extension (.yaml/.yml, .json), else by content */
    BLOBC_INPUT_YAML,
    BLOBC_INPUT_JSON
} blobc_input_format;

typedef enum blobc_output_format {
    BLOBC_OUTPUT_BLOB = 0,  /* header + data + type section */
    BLOBC_OUTPUT_RAW        /* the data section alone */
} blobc_output_format;

typedef struct blobc_bake_options {
    const char *schema_path;      /* -s: overrides the data's $schema */
    const blobc_schema *schema;   /* an already loaded schema; overrides both */
    const char *type_name;        /* -t: overrides $type and the schema's root */
    blobc_input_format input;
    blobc_output_format output;
    bool strip;                   /* --strip: no type section */
    const char *output_path;      /* where the caller will write the result; the
                                     bake refuses (BLOBC_EIO) when it names the
                                     input or the schema file it reads. May be NULL. */
    bool one_thread;              /* never start a thread. By default a YAML input
                                     of 1 MiB or more is parsed by libyaml on a
                                     second thread while this one bakes (same
                                     result, less wall time). */
    uint64_t max_input;           /* inputs that are not regular files (the data,
                                     the schema) are read up to this many bytes,
                                     then refused; 0: BLOBC_DEFAULT_MAX_INPUT */
} blobc_bake_options;

/* Bakes `text` (the contents of `filename`, which is used for messages, to
 * resolve a relative $schema, and for AUTO detection). The finished file
 * image (or raw data section) replaces the contents of `out`; on any error
 * `out` is left empty. The rules for the data are in docs/AUTHORING.md.
 *
 * JSON is parsed with cJSON. While a JSON bake runs, cJSON's allocation
 * hooks (cJSON_InitHooks) send the calling thread's allocations to an
 * arena and every other thread's to malloc/free; afterwards the default
 * hooks are installed again. A program that installs its own cJSON hooks must install
 * them again after baking JSON. */
blobc_status blobc_bake_memory(const char *text, size_t len, const char *filename,
                               const blobc_bake_options *opts, blobc_buffer *out,
                               blobc_error *err);

/* Reads `path` ("-" for standard input) and bakes it. YAML is streamed
 * from the file, never read whole. */
blobc_status blobc_bake_file(const char *path, const blobc_bake_options *opts,
                             blobc_buffer *out, blobc_error *err);

#ifdef __cplusplus
}
#endif
#endif
