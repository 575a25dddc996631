/*
 * blobc/blobfile.h - the .blob container: header, data section, embedded
 * type description; and the file helpers every command uses.
 *
 * The byte layout is specified in docs/FORMAT.md. Readers refuse format
 * versions they do not know and never trust a length or offset in the
 * header before checking it against the file size.
 *
 * Stability: stable: a minor release keeps every declaration here
 * source-compatible.
 */
#ifndef BLOBC_BLOBFILE_H
#define BLOBC_BLOBFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blob.h"
#include "error.h"
#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The container's constants, defined once in the runtime header blob.h. */
#define BLOBC_MAGIC BLOBC_RT_MAGIC
#define BLOBC_MAGIC_SIZE BLOBC_RT_MAGIC_SIZE
#define BLOBC_FORMAT_VERSION BLOBC_RT_FORMAT_VERSION
#define BLOBC_HEADER_SIZE BLOBC_RT_HEADER_SIZE
/* Alignment of the data and type sections in the file. */
#define BLOBC_SECTION_ALIGN BLOBC_RT_SECTION_ALIGN

/* The decoded header (docs/FORMAT.md, "Header"). */
typedef struct blobc_header {
    uint32_t version;
    uint32_t header_size;
    uint64_t data_offset;
    uint64_t data_size;
    uint64_t data_hash;     /* XXH3-64 of the data section */
    uint64_t schema_hash;   /* blobc_type_hash of the root type */
    uint64_t types_offset;  /* 0 when stripped */
    uint64_t types_size;
    uint64_t types_hash;    /* XXH3-64 of the type section, 0 when stripped */
    uint64_t file_size;
    uint32_t flags;
} blobc_header;

/* Serializes the type graph reachable from `root` (with names, so dump can
 * print keys) into the type-section bytes appended to `out`. `schema_name`
 * (may be NULL) is recorded so dump can print `$schema`. */
BLOBC_API blobc_status blobc_types_encode(const blobc_type *root, const char *schema_name,
                                          blobc_buffer *out, blobc_error *err);

/* The canonical description of everything a bake of `root` takes from its
 * schema: the type section blobc_types_encode writes (schema_name as
 * there), then every field's default, which the section leaves out, in
 * the section's record order. Comments, positions, doc comments and types
 * the root does not reach are not in it. Baking the same data against two
 * roots with equal descriptions gives the same bytes or the same failure;
 * the cache key of a bake (blobc/bake.h) is built on it. Appended to
 * `out`; *section_len (may be NULL) gets the length of the type section
 * it starts with. */
BLOBC_API blobc_status blobc_types_describe(const blobc_type *root, const char *schema_name,
                                            blobc_buffer *out, size_t *section_len,
                                            blobc_error *err);

/* Decodes and fully validates a type section from untrusted bytes: every
 * index in range, names valid identifiers, no inline self-containment, and
 * layout recomputed. On success *schema owns the types, its root is set,
 * and *schema_name (may be NULL) points into the schema's memory or is NULL. */
BLOBC_API blobc_status blobc_types_decode(const void *bytes, size_t len, blobc_schema **schema,
                                          const char **schema_name, blobc_error *err);

typedef struct blobc_write_options {
    bool strip;               /* leave the type section out */
    const char *schema_name;  /* recorded for dump's $schema; may be NULL */
} blobc_write_options;

/* Builds a complete .blob file image in `out` (replacing its contents)
 * from a data section of 1 to BLOBC_MAX_DATA_SIZE bytes; `root` must be a
 * struct. opts may be NULL (type section included, no schema name). */
BLOBC_API blobc_status blobc_blob_write(const void *data, size_t data_size, const blobc_type *root,
                                        const blobc_write_options *opts, blobc_buffer *out,
                                        blobc_error *err);

/* Like blobc_blob_write, but the data section is already in `out`, after
 * BLOBC_HEADER_SIZE bytes of room (out->len is exactly BLOBC_HEADER_SIZE +
 * data_size, as blobc_builder_finish_at leaves it with that prefix): the
 * header is written into the room and the type section appended, so the
 * data is not copied. The bytes equal blobc_blob_write's; the header room
 * need not be zero. The type section fits without moving the data when
 * out->cap leaves room for it (blobc_types_encode's size + 15). */
BLOBC_API blobc_status blobc_blob_write_in_place(size_t data_size, const blobc_type *root,
                                                 const blobc_write_options *opts, blobc_buffer *out,
                                                 blobc_error *err);

/* A parsed .blob: views into the caller's bytes plus the decoded types. */
typedef struct blobc_blob {
    blobc_header header;
    const uint8_t *data;        /* the data section (inside the caller's bytes) */
    size_t data_size;
    blobc_schema *types;        /* decoded type section, NULL when stripped */
    const blobc_type *root;     /* root type from the type section, or NULL */
    const char *schema_name;    /* recorded schema name, or NULL */
} blobc_blob;

enum {
    BLOBC_OPEN_NO_HASH = 1      /* skip every hash check (header, data, types, schema): fuzzing */
};

/* The checks of blobc_blob_open that need only the header, for a blob
 * read in pieces (a cache entry left in its file): magic, version, header
 * size and hash, and the sections' bounds in a file of file_size bytes.
 * `header` holds the file's first min(file_size, BLOBC_HEADER_SIZE) bytes.
 * Left to the caller: the data and type sections' hashes, the padding
 * between them and the type section's content. */
BLOBC_API blobc_status blobc_blob_check_header(const void *header, uint64_t file_size,
                                               blobc_header *hd, blobc_error *err);
/* Checks magic, version, header size, section bounds and alignment, the
 * header and section hashes, and decodes the type section. Errors carry a
 * verify code (blobc/verify.h) and the header byte offset. Free with
 * blobc_blob_close. */
BLOBC_API blobc_status blobc_blob_open(const void *bytes, size_t len, unsigned flags, blobc_blob *blob,
                                       blobc_error *err);
BLOBC_API void blobc_blob_close(blobc_blob *blob);

/* The maximum input size: inputs whose size is not known in advance
 * (standard input, pipes, devices) are read up to this many bytes, then
 * refused; a regular file is read as large as it is. */
#define BLOBC_DEFAULT_MAX_INPUT ((uint64_t)1 << 30)

typedef struct blobc_read_options {
    uint64_t max_input;  /* limit for non-regular inputs; 0: BLOBC_DEFAULT_MAX_INPUT */
    bool blob;           /* a .blob: a non-regular input is read up to the file
                            size its header records, and no further than the
                            header when it is not a blob header */
    const char *text;    /* a text input (UTF-8): reading stops at the first
                            byte that is not text (a NUL, another control
                            character, malformed UTF-8), an error saying
                            "binary data at offset N; expected <text>".
                            NULL for binary inputs. With `blob` too: a blob,
                            or else text (a non-regular input whose first
                            bytes are no blob header is read on as text). */
    uint64_t max_text;   /* not 0: text is at most this many bytes, regular
                            files included (refused before they are read):
                            BLOBC_MAX_SCHEMA_SIZE for schemas. The error
                            says "text of more than N; expected <text>". */
    bool regular;        /* only a regular file is read: anything else (a
                            FIFO, a device, a socket, standard input that is
                            not a file) is refused, BLOBC_EIO "cannot read
                            'PATH': expected a regular file, found a FIFO",
                            without waiting for a writer or reading from it
                            (a program that watches files, where a FIFO may
                            take a file's place) */
} blobc_read_options;

/* Whole-file read into a malloc'd buffer (16-byte aligned) that the caller
 * frees with free(). "-" reads standard input. Errors are BLOBC_EIO,
 * including an input over the limit. opts may be NULL (the defaults). */
BLOBC_API blobc_status blobc_read_file_ex(const char *path, const blobc_read_options *opts, uint8_t **data,
                                size_t *len, blobc_error *err);
/* blobc_read_file_ex with the default options. */
BLOBC_API blobc_status blobc_read_file(const char *path, uint8_t **data, size_t *len, blobc_error *err);

/* A whole file for reading: a regular file is mapped read-only (no copy;
 * a file truncated by another process while it is mapped can then end
 * the process with SIGBUS), anything else ("-" for standard input, pipes)
 * is read into memory (16-byte aligned either way). */
typedef struct blobc_file_view {
    const uint8_t *data;
    size_t len;
    bool mapped;
} blobc_file_view;

BLOBC_API blobc_status blobc_file_map(const char *path, blobc_file_view *view, blobc_error *err);
/* blobc_file_map reading what is not mapped with blobc_read_file_ex's
 * options (NULL: the defaults). */
BLOBC_API blobc_status blobc_file_map_ex(const char *path, const blobc_read_options *opts,
                                         blobc_file_view *view, blobc_error *err);
BLOBC_API void blobc_file_unmap(blobc_file_view *view);

/* ---- outputs ----
 * The rules every command that writes a file follows (blobc(1), "OUTPUT
 * FILES"): a regular file or a new path is written to a temporary file in
 * the same directory and renamed over it once complete (an unnamed
 * O_TMPFILE where the file system has it: a new file is then linked under
 * its name, so no other name ever exists; a replaced one is linked as
 * ".NAME.blobc-tmp" and renamed over NAME by the next call); missing
 * directories above it are created; a character device, FIFO or socket is
 * written in place, never replaced; a symbolic link is followed and its
 * target written; an output that is one of the run's inputs is refused
 * before anything is written. */

/* The files a run reads, by device and inode. */
typedef struct blobc_inputs blobc_inputs;
BLOBC_API blobc_inputs *blobc_inputs_new(void); /* NULL when out of memory */
BLOBC_API void blobc_inputs_free(blobc_inputs *set);
/* Records `path` ("-": standard input); a path that does not exist is
 * skipped (reading it will fail and say so). */
BLOBC_API blobc_status blobc_inputs_add(blobc_inputs *set, const char *path, blobc_error *err);
/* The name under which the file at `path` (through any link) was added,
 * or NULL when it is not an input (or set is NULL). */
BLOBC_API const char *blobc_inputs_find(const blobc_inputs *set, const char *path);

/* The files a run writes, by identity: the directory an output goes in
 * (device and inode, after following the output's own links, as the
 * write does) and its name there. "x/a.blob", "./x/a.blob" and
 * "link-to-x/a.blob" are one output; an output whose directory does not
 * exist yet is known by its spelling. */
typedef struct blobc_outputs blobc_outputs;
BLOBC_API blobc_outputs *blobc_outputs_new(void); /* NULL when out of memory */
BLOBC_API void blobc_outputs_free(blobc_outputs *set);
/* Records output `path` ("-": standard output); the calls are numbered
 * 0, 1, 2... When an output recorded before is the same file, *first is
 * the number of the call that recorded it first; else SIZE_MAX. */
BLOBC_API blobc_status blobc_outputs_add(blobc_outputs *set, const char *path, size_t *first,
                                         blobc_error *err);

typedef struct blobc_output_options {
    const blobc_inputs *inputs; /* refused as outputs; may be NULL */
    /* Named temporary files: temp_created is called before one may appear
     * at temp_path, temp_gone once it is gone again (renamed or removed),
     * both on the writing thread and always in pairs, so that a program
     * can hold off or remove it from a signal handler. Named temporaries
     * exist only where O_TMPFILE is missing (for the whole write), and for
     * the two system calls that link a finished file and rename it over
     * the file it replaces. */
    void (*temp_created)(void *hook_ctx, const char *temp_path);
    void (*temp_gone)(void *hook_ctx, const char *temp_path);
    void *hook_ctx;
    bool named_temp;            /* a named temporary even where O_TMPFILE works
                                   (for file systems that misreport it) */
    bool plain_copy;            /* an output copied from a file (a cache hit) is
                                   read and written, never copied by the kernel
                                   (for file systems whose copy offload misbehaves) */
} blobc_output_options;

/* Writes `len` bytes to `path` by the output rules above; "-" writes
 * standard output. On failure nothing is left behind and a file that was
 * there is unchanged. A replaced file keeps its permissions; a new one gets
 * 0666 & ~umask. Nothing is fsync'ed: the rename makes the write atomic for
 * every other process, and a build artifact is not worth a disk flush per
 * file (after a power loss, rebake). opts may be NULL. */
BLOBC_API blobc_status blobc_write_output(const char *path, const void *data, size_t len,
                                          const blobc_output_options *opts, blobc_error *err);
/* A text made as it is written (a dump of a big blob, never whole in
 * memory): produce hands it to put piece by piece and returns BLOBC_OK,
 * or a failure with its detail in err. put returns false once a write
 * failed (produce may stop early then). produce may be called more than
 * once for one output (a way of writing that fails before anything is in
 * place is followed by another) and hands over the whole text each time. */
typedef blobc_status (*blobc_produce_fn)(void *ctx, bool (*put)(void *to, const void *bytes, size_t len),
                                        void *to, blobc_error *err);
/* blobc_write_output of what produce makes: a failed produce, like a failed
 * write, leaves no file behind and a replaced one unchanged (a device, FIFO
 * or standard output may have had pieces). */
BLOBC_API blobc_status blobc_write_output_from(const char *path, blobc_produce_fn produce, void *ctx,
                                               const blobc_output_options *opts, blobc_error *err);
/* blobc_write_output without inputs or hooks. */
BLOBC_API blobc_status blobc_write_file_atomic(const char *path, const void *data, size_t len,
                                     blobc_error *err);

/* The checked open that generated headers call from <Type>_open_checked
 * (with BLOBC_WITH_LIBRARY): verifies a complete .blob file image with
 * blobc_verify_blob as a blob of type `type_name` of the schema given as
 * text (what generated headers embed), then opens it like blobc_rt_open.
 * The layout comes from the text, not from the file, so stripped blobs
 * verify too. Before verifying, the type's layout hash must equal
 * expected_schema_hash: the text and the structs the caller reads with
 * cannot disagree. Errors are the library's (verify codes in err->code);
 * a refusal by the header check that follows carries the blobc_rt_status
 * as its code. */
BLOBC_API blobc_status blobc_rt_open_checked(const void *buf, size_t len, const char *schema_text,
                                             size_t text_len, const char *type_name,
                                             uint64_t expected_schema_hash, size_t root_size,
                                             blobc_rt_view *out, blobc_error *err);

#ifdef __cplusplus
}
#endif
#endif
