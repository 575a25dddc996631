/*
 * blobc/bake.h - turn authoring data (YAML or JSON) into a blob.
 *
 * The schema decides every value's type (SPEC §5). Baking is all or
 * nothing: on any error nothing is produced and the error names the place
 * (file:line:col, and the path of the value: "rooms[3].name" in YAML, the
 * JSON Pointer "/rooms/3/name" in JSON). A NUL byte makes the input
 * binary: "binary data at offset N", its bytes never echoed.
 *
 * Stability: stable: a minor release keeps every declaration here
 * source-compatible.
 */
#ifndef BLOBC_BAKE_H
#define BLOBC_BAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blobfile.h"
#include "error.h"
#include "schema.h"
#include "unity.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum blobc_input_format {
    BLOBC_INPUT_AUTO = 0,   /* by extension (.yaml/.yml, .json, .csv, .tsv), else by content */
    BLOBC_INPUT_YAML,
    BLOBC_INPUT_JSON,
    BLOBC_INPUT_CSV,        /* a header row, then a row per item (docs/AUTHORING.md) */
    BLOBC_INPUT_TSV         /* the same, separated by tabs */
} blobc_input_format;

/* The format a bake with BLOBC_INPUT_AUTO reads `text` (the contents of
 * `filename`, or their first bytes) as: by the name's extension (.yaml,
 * .yml, .json, .csv, .tsv, in any case), else JSON when the first character after a
 * byte order mark and white space opens an object or array, else YAML. */
BLOBC_API blobc_input_format blobc_input_format_of(const char *text, size_t len, const char *filename);

typedef enum blobc_output_format {
    BLOBC_OUTPUT_BLOB = 0,  /* header + data + type section */
    BLOBC_OUTPUT_RAW,       /* the data section alone */
    BLOBC_OUTPUT_UNITY      /* a Unity blob asset file (blobc/unity.h) */
} blobc_output_format;

/* Several errors per run. A bake given a sink goes on after an error that
 * leaves the document's structure intact (an unknown or duplicate key, a
 * wrong scalar, a number out of range, a bad enum name, a missing field, a
 * type mismatch; the value in question is skipped) and, when it fails,
 * calls `fn` once per error in document order, at most `max_errors` times
 * (0: no limit; the rest are only counted, in `suppressed`). The first
 * error also goes to the bake's blobc_error, as without a sink. A YAML or
 * JSON syntax error is reported alone: the data errors before it are
 * usually its echo. Nothing is printed; the caller decides. */
typedef struct blobc_diag_sink {
    void (*fn)(void *ctx, const blobc_error *e);
    void *ctx;
    unsigned max_errors;
    size_t suppressed;            /* set by the bake: errors past max_errors */
    /* Warnings, as they are met, whether the bake succeeds or not (status
     * BLOBC_OK, so blobc_error_format says "warning:"): data that still
     * uses a name the schema renamed (@was). NULL: none are reported. */
    void (*warning)(void *ctx, const blobc_error *w);
    size_t skipped;               /* set by the bake: keys of @open structs it
                                     skipped (each one a warning with
                                     blobc_bake_options.warn_unknown) */
} blobc_diag_sink;

/* The deepest nesting the JSON front end reads (cJSON's limit); YAML's is
 * BLOBC_MAX_NESTING (schema.h). `blobc dump` writes nothing deeper than the
 * format it writes is read back with. */
#define BLOBC_JSON_MAX_NESTING 1000u

/* One more table of a CSV or TSV bake: the rows of the file at `path`
 * (in the input's format) fill the root's list `field`. */
typedef struct blobc_bake_table {
    const char *field;
    const char *path;
} blobc_bake_table;

typedef struct blobc_bake_options {
    const char *schema_path;      /* -s: overrides the data's $schema */
    const blobc_schema *schema;   /* an already loaded schema; overrides both */
    const char *type_name;        /* -t: overrides $type and the schema's root */
    blobc_input_format input;
    blobc_output_format output;
    bool strip;                   /* --strip: no type section */
    blobc_unity_options unity;    /* BLOBC_OUTPUT_UNITY: version and length rule */
    const char *output_path;      /* where the caller will write the result; the
                                     bake refuses (BLOBC_EIO) when it names the
                                     input or the schema file it reads. May be NULL. */
    bool one_thread;              /* never start a thread. By default a YAML input
                                     of 1 MiB or more is parsed by libyaml on a
                                     second thread while this one bakes (same
                                     result, less wall time). */
    blobc_diag_sink *diag;        /* several errors per run (see above); NULL:
                                     stop at the first error */
    uint64_t max_input;           /* inputs that are not regular files (the data,
                                     the schema) are read up to this many bytes,
                                     then refused; 0: BLOBC_DEFAULT_MAX_INPUT */
    bool regular_files;           /* every file the bake opens by name (the
                                     schema, its imports; the data in
                                     blobc_bake_file) must be a regular file:
                                     a FIFO, device or socket there is refused
                                     (BLOBC_EIO, "expected a regular file")
                                     without waiting for a writer. For a
                                     program that watches files, where a FIFO
                                     may take a file's place. */
    /* Told, on the bake's thread, of each file the bake tried to read by
     * name and could not (not there yet, not a regular file, unreadable,
     * not text): the data blobc_bake_file opens, the schema -s or
     * $schema names, a file it imports. A
     * program that watches files waits for these to change. NULL: not
     * told. */
    void (*unread)(void *ctx, const char *path);
    void *unread_ctx;
    bool warn_unknown;            /* --warn-unknown: each key an @open struct
                                     skips is a warning to the sink */
    const char *assets_dir;       /* --assets: the root @path checks look
                                     under; NULL: the current directory */
    /* Told of each file a @path check found (its path as checked, under
     * assets_dir), for a depfile. NULL: not told. */
    void (*asset)(void *ctx, const char *path);
    void *asset_ctx;
    const char *table;            /* CSV and TSV: the root's [T] field the rows
                                     fill (--table); NULL: its only one */
    const blobc_bake_table *tables; /* CSV and TSV: more tables of the same root,
                                     read after the input, each filling its own
                                     list (--table FIELD=FILE); the root's other
                                     fields take their defaults. Every one is an
                                     input: in the plan's key, the depfile, the
                                     files a batch's DONE event names. */
    size_t ntables;
    /* --exclude-tags: the items of a list whose $tags hold one of these
     * are left out (each must be a tag some struct's @tags declares). */
    const char *const *exclude_tags;
    size_t nexclude_tags;
    /* --strings: the string table (CSV, or TSV by a .tsv/.tab name) whose
     * keys the schema's text fields hold: its first column the key, the
     * others one per language. Every key must be in it. NULL: none. */
    const char *strings;
    /* --lang: the table's column text fields take (the first language's
     * text, with a warning, where its cell is empty); NULL: the keys are
     * baked as written. */
    const char *lang;
} blobc_bake_options;

/* Bakes `text` (the contents of `filename`, which is used for messages, to
 * resolve a relative $schema, and for AUTO detection). The finished file
 * image (or raw data section) replaces the contents of `out`; on any error
 * `out` is left empty. The rules for the data are in docs/AUTHORING.md.
 *
 * JSON is read by the bake's own tokenizer (no JSON library is involved,
 * so the program's own use of cJSON is not disturbed). A YAML text of
 * 1 MiB or more is parsed on a second thread unless opts->one_thread is
 * set. */
BLOBC_API blobc_status blobc_bake_memory(const char *text, size_t len, const char *filename,
                                         const blobc_bake_options *opts, blobc_buffer *out,
                                         blobc_error *err);

/* Reads `path` ("-" for standard input) and bakes it. YAML is streamed
 * from the file, never read whole. */
BLOBC_API blobc_status blobc_bake_file(const char *path, const blobc_bake_options *opts,
                                       blobc_buffer *out, blobc_error *err);

/* ---- planning a bake: what it depends on, and its cache key ---- */

typedef struct blobc_bake_plan {
    const blobc_schema *schema;   /* the schema the bake uses */
    const blobc_type *root;       /* its root type for this input */
    blobc_input_format input;     /* the input's format */
    uint8_t key[16];              /* XXH3-128 (canonical, big-endian) of everything
                                     that decides the output bytes and whether the
                                     bake succeeds: the library (version and source
                                     checksum) and its parsers' versions, the format
                                     version, the options that change bytes, the input
                                     format, the schema as the bake uses it
                                     (blobc_types_describe: names, layout, defaults)
                                     and the input bytes */
    bool checks_files;            /* the schema has @path checks: whether the bake
                                     succeeds depends on files the key does not
                                     cover, so no cache answers for it */
    blobc_schema *owned_schema;   /* the schema when the plan loaded it */
    blobc_buffer types_;          /* private: the type section the output embeds
                                     (empty when it embeds none), which a cache
                                     entry's must equal */
} blobc_bake_plan;

/* Finds the schema and root type a bake of `text` would use, without
 * baking it: the data is read only up to its meta keys ($schema, $type).
 * Bake with the plan by passing plan->schema as opts->schema to
 * blobc_bake_memory: the result is the same bytes as without a plan, and
 * the schema cannot change between planning and baking. The files read
 * are blobc_schema_file(plan->schema, i). A bake error found this early
 * (a bad $schema, a syntax error before the first data key) is returned
 * the way the bake returns it. Free with blobc_bake_plan_free. */
BLOBC_API blobc_status blobc_bake_plan_memory(const char *text, size_t len, const char *filename,
                                    const blobc_bake_options *opts, blobc_bake_plan *plan,
                                    blobc_error *err);
/* blobc_bake_plan_memory of the file at `path`, whose text it leaves in
 * *text (mapped, or read when it cannot be mapped; free it with
 * blobc_file_unmap, also after a failed plan) for the bake that may
 * follow. The passes over the whole input (the key's hash of it; in
 * JSON, the look for a "$type" key past the first data key) read the
 * file in small pieces instead of through the mapping, so that a cache
 * hit touches the mapped text only up to its meta keys. The same plan
 * as blobc_bake_plan_memory of the same bytes. */
BLOBC_API blobc_status blobc_bake_plan_file(const char *path, const blobc_bake_options *opts,
                                            blobc_bake_plan *plan, blobc_file_view *text,
                                            blobc_error *err);
BLOBC_API void blobc_bake_plan_free(blobc_bake_plan *plan);

/* The make/ninja depfile of a bake into `out` (replacing its contents):
 * "OUTPUT: INPUT SCHEMA-FILES..." and an empty rule per schema file, as
 * gcc -MP writes (input NULL or "-": not listed; schema NULL: no schema
 * files). Each name is written so that GNU make and ninja both read it
 * back exactly; a name that has no such spelling (a tab, ';', '|', '=',
 * ...: blobc(1), --depfile) is refused with BLOBC_EIO, nothing written. */
BLOBC_API blobc_status blobc_depfile(const char *output, const char *input,
                                     const blobc_schema *schema, blobc_buffer *out,
                                     blobc_error *err);
/* blobc_depfile of a bake with several inputs (a CSV bake's tables),
 * listed in order, and more files after the schema's (the files a bake's
 * @path checks found: blobc_bake_options.asset), each of those with an
 * empty rule like the schema's. */
BLOBC_API blobc_status blobc_depfile_inputs(const char *output, const char *const *inputs,
                                            size_t ninputs, const blobc_schema *schema,
                                            const char *const *extra, size_t nextra,
                                            blobc_buffer *out, blobc_error *err);

#ifdef __cplusplus
}
#endif
#endif
