/*
 * blobc/dump.h - turn a blob back into text: YAML (re-bakeable), JSON, a
 * byte-level layout map, or a report of where its bytes go. Dump verifies
 * before it reads, so any input is safe to pass.
 *
 * Stability: stable: a minor release keeps every declaration here
 * source-compatible.
 */
#ifndef BLOBC_DUMP_H
#define BLOBC_DUMP_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "schema.h"
#include "unity.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum blobc_dump_format {
    BLOBC_DUMP_YAML = 0,
    BLOBC_DUMP_JSON,
    BLOBC_DUMP_MAP,
    /* where the bytes go (`blobc size`): by what they are, by the type of
     * the payload they are in and by field path, each table summing to
     * the input's size; as text or as JSON */
    BLOBC_DUMP_SIZE,
    BLOBC_DUMP_SIZE_JSON,
    /* one self-contained HTML page: the blob as a coloured byte map with
     * its structure (every field, hover for path and value, offsets that
     * jump to their target) and the size report as a treemap; drawn
     * lazily by the page's script, so a big blob stays usable */
    BLOBC_DUMP_HTML
} blobc_dump_format;

#define BLOBC_SIZE_DEPTH_MAX 64

typedef struct blobc_dump_options {
    blobc_dump_format format;
    const blobc_schema *schema;  /* -s: needed for stripped blobs and raw data */
    const char *type_name;       /* -t: type in `schema` (default: its root) */
    const char *schema_name;     /* printed as $schema (overrides the recorded one) */
    bool raw;                    /* the input is a raw data section */
    const blobc_unity_options *unity; /* the input is a Unity blob asset file; when
                                         NULL, one is still recognised (blobc_unity_detect) */
    unsigned flags;              /* BLOBC_VERIFY_NO_HASH for fuzzing */
    /* BLOBC_DUMP_YAML, BLOBC_DUMP_JSON and BLOBC_DUMP_MAP: when set, the
     * text is handed to `write` in pieces as it is made (64 KiB at a time,
     * and the rest before the call returns), so `out` never holds more
     * than a piece (or one long string): a dump of a big blob costs no
     * memory of its text's size. YAML and JSON reach the writer only when
     * the dump succeeds: a blob whose dump could fail part way (shared
     * payloads, deeply nesting types) is first run through without
     * writing. A map's pieces on a failure are the map as far as it got
     * (as it is without a writer). */
    void (*write)(void *ctx, const void *bytes, size_t len);
    void *write_ctx;
    /* BLOBC_DUMP_SIZE*: field steps a path row goes down to; deeper
     * bytes count in their row (0: 3; at most BLOBC_SIZE_DEPTH_MAX) */
    uint32_t size_depth;
} blobc_dump_options;

/* Appends the dump of `bytes` to `out`. */
BLOBC_API blobc_status blobc_dump(const void *bytes, size_t len, const blobc_dump_options *opts,
                                  blobc_buffer *out, blobc_error *err);

#ifdef __cplusplus
}
#endif
#endif
