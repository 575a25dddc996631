/*
 * blobc/verify.h - check untrusted blob bytes before reading them in place.
 *
 * Verification is what `blobc verify` runs and what a runtime calls on a
 * file it did not bake itself. It never reads outside the bytes it is
 * given and does bounded work on any input (docs/FORMAT.md, "Verification").
 * A failure is reported in a blobc_error whose `code` is one of the stable
 * codes below, with the byte offset (from the start of the file, or of the
 * data section for raw images) and the schema path of the bad value.
 *
 * Stability: stable: a minor release keeps every declaration here
 * source-compatible.
 */
#ifndef BLOBC_VERIFY_H
#define BLOBC_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "blobfile.h"
#include "error.h"
#include "schema.h"
#include "unity.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Stable error codes. Never renumbered; new ones are appended. */
typedef enum blobc_verify_code {
    BLOBC_V_OK = 0,
    BLOBC_V_TRUNCATED = 1,       /* file shorter than its header says */
    BLOBC_V_BAD_MAGIC = 2,
    BLOBC_V_BAD_VERSION = 3,     /* a format version this reader does not know */
    BLOBC_V_BAD_HEADER = 4,      /* header fields inconsistent (sizes, flags, alignment) */
    BLOBC_V_HEADER_HASH = 5,     /* header hash mismatch */
    BLOBC_V_DATA_HASH = 6,       /* XXH3-64 of the data section mismatch */
    BLOBC_V_TYPES_HASH = 7,      /* type section hash mismatch */
    BLOBC_V_BAD_TYPES = 8,       /* type section malformed */
    BLOBC_V_SCHEMA_HASH = 9,     /* layout hash differs from the header or from -s SCHEMA */
    BLOBC_V_NO_TYPES = 10,       /* stripped blob and no schema given */
    BLOBC_V_OFFSET_RANGE = 11,   /* an offset points outside the data section */
    BLOBC_V_MISALIGNED = 12,     /* a target not aligned for its element type */
    BLOBC_V_LENGTH = 13,         /* negative length, or elements do not fit */
    BLOBC_V_NULL_LENGTH = 14,    /* offset 0 with nonzero length, or string length 0 */
    BLOBC_V_STRING_NUL = 15,     /* string not NUL-terminated, or NUL inside */
    BLOBC_V_UTF8 = 16,           /* string not valid UTF-8 */
    BLOBC_V_BOOL = 17,           /* bool byte other than 0 or 1 */
    BLOBC_V_ENUM = 18,           /* enum value not declared */
    BLOBC_V_PADDING = 19,        /* nonzero padding byte */
    BLOBC_V_CYCLE = 20,          /* a pointer leads back to a payload being walked */
    BLOBC_V_OVERLAP = 21,        /* payloads overlap without being the same payload */
    BLOBC_V_LAYOUT = 22,         /* payloads not in canonical order / gaps / trailing bytes */
    BLOBC_V_DATA_SIZE = 23,      /* data section too small for the root, or over 2 GiB - 1 */
    BLOBC_V_BUDGET = 24,         /* work budget exhausted */
    BLOBC_V_NAN = 25,            /* a NaN other than the canonical quiet NaN */
    BLOBC_V_UNION = 26,          /* union tag out of range, or tag and offset disagree */
    BLOBC_V_KEY_ORDER = 27,      /* a keyed array not sorted by key, or a key twice */
    BLOBC_V_REF = 28,            /* a reference not on an item of a keyed array of its type */
    BLOBC_V_OPTIONAL = 29,       /* presence byte not 0 or 1, or an absent value not all zero */
    BLOBC_V_ANY = 30,            /* an any's kind word, unused bytes, uint or depth wrong */
    BLOBC_V_CHECK = 31           /* a value fails a value check of the schema (BLOBC_VERIFY_CHECKS) */
} blobc_verify_code;

/* A short stable name for a code: "bad-magic", "offset-range", ... */
BLOBC_API const char *blobc_verify_code_name(int code);

enum {
    BLOBC_VERIFY_NO_HASH = 1,   /* skip the data-hash check (fuzzing) */
    BLOBC_VERIFY_CHECKS = 2     /* with a schema, a blob that passes is also judged by its
                                   value checks (@range, @len, ...: `verify -s`) */
};

/* Where BLOBC_VERIFY_CHECKS reports the values that fail: `fn` is called
 * once per failing value, in canonical order, at most `max_errors` times
 * (0: no limit; the rest are only counted, in `suppressed`). Each error
 * has the code BLOBC_V_CHECK, the value's offset and path, and the
 * message a bake says for it; the first also goes to the verify's
 * blobc_error. Without a sink the first failing value ends the verify. */
typedef struct blobc_check_sink {
    void (*fn)(void *ctx, const blobc_error *e);
    void *ctx;
    unsigned max_errors;
    size_t suppressed;          /* set by the verify: failures past max_errors */
} blobc_check_sink;

typedef struct blobc_verify_options {
    const blobc_schema *schema; /* -s: the blob must match this schema's type */
    const char *type_name;      /* -t: type in `schema` (default: its root) */
    unsigned flags;
    const blobc_unity_options *unity; /* the bytes are a Unity blob asset file; when
                                         NULL, one is still recognised (blobc_unity_detect) */
    uint64_t max_input;         /* blobc_verify_file on a non-regular file: read
                                   at most this many bytes (0: the default,
                                   BLOBC_DEFAULT_MAX_INPUT) */
    const char *assets_dir;     /* BLOBC_VERIFY_CHECKS: @path names files under this
                                   folder (as `bake --assets`); NULL: @path is not judged */
    blobc_check_sink *checks;   /* BLOBC_VERIFY_CHECKS: every failing value, or NULL */
} blobc_verify_options;

/* Verifies a complete .blob file image: header, hashes, type section, and
 * a full walk of the data section. With opts->schema, also that the blob's
 * layout hash equals that type's. Stripped blobs need opts->schema. */
BLOBC_API blobc_status blobc_verify_blob(const void *bytes, size_t len, const blobc_verify_options *opts,
                                         blobc_error *err);

/* Reads the .blob at `path` ("-": standard input) and verifies it as
 * blobc_verify_blob does; err->file is set on failure. A regular file is
 * mapped read-only rather than copied, which on a large blob saves most of
 * the time verification takes (a file truncated by another process while
 * it is being verified can then end the process with SIGBUS). */
BLOBC_API blobc_status blobc_verify_file(const char *path, const blobc_verify_options *opts,
                                         blobc_error *err);

/* Walks a data section (root at byte 0) as `root`. Offsets in errors are
 * relative to `data`. */
BLOBC_API blobc_status blobc_verify_data(const void *data, size_t len, const blobc_type *root,
                                         blobc_error *err);

/* Appends the line `blobc verify --json` prints for one file: a JSON
 * object with the file's name, whether it passed (`result` NULL or its
 * status BLOBC_OK) and otherwise the error: its code's name ("invalid" or
 * "io" when it has none), offset (or null), path and message; then a
 * newline. A name can hold any bytes: every byte that is not part of valid
 * UTF-8 is replaced by U+FFFD, so the line is always valid JSON;
 * the objects come in the order the files were given, which names them
 * exactly. */
BLOBC_API blobc_status blobc_verify_report_json(const char *file, const blobc_error *result,
                                                blobc_buffer *out, blobc_error *err);

/* The same line with n errors (0: the file passed): `verify -s --json`
 * lists every value that fails a value check (BLOBC_V_CHECK). */
BLOBC_API blobc_status blobc_verify_report_json_errors(const char *file, const blobc_error *errors,
                                                       size_t n, blobc_buffer *out, blobc_error *err);

/* Where the values of two blobs first differ (blobc_compare_blobs). */
#define BLOBC_DIFF_TEXT_MAX 256
typedef struct blobc_difference {
    int differ;                       /* 0: every value is the same */
    char path[BLOBC_ERROR_PATH_MAX];  /* schema path of the first value that differs
                                         ("rooms[0].radius"; "" for the root) */
    char a[BLOBC_DIFF_TEXT_MAX];      /* that value in the first blob: "f32 = 6.25",
                                         "string bytes = \"Hall\"", "[Room] of 3 items",
                                         "*Meta = null", ...; "nothing" past its end */
    char b[BLOBC_DIFF_TEXT_MAX];      /* ... and in the second */
} blobc_difference;

/* Compares the values two .blob images hold, value by value in field
 * order, after verifying both (opts as for blobc_verify_blob: a schema for
 * stripped blobs, the type). Values only: a header, a recorded schema name
 * or type names that differ do not count, a payload shared in one blob and
 * written twice in the other does ("the payload of an earlier value").
 * On BLOBC_OK, diff says whether and where they differ. */
BLOBC_API blobc_status blobc_compare_blobs(const void *a, size_t alen, const void *b, size_t blen,
                                           const blobc_verify_options *opts,
                                           blobc_difference *diff, blobc_error *err);

#ifdef __cplusplus
}
#endif
#endif
