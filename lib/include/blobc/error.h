/*
 * blobc/error.h - status codes, the error object and the output buffer
 * shared by every blobc library call.
 *
 * The error contract, held by every function of the library:
 *  - A fallible call returns a blobc_status and, on failure, fills a
 *    caller-owned blobc_error with where the problem is (file,
 *    line:column, schema path or JSON Pointer, byte offset) and what was
 *    expected. The status returned and err->status are the same.
 *  - Every `blobc_error *err` parameter may be NULL: the call then works
 *    and fails the same way, returning the status without the detail.
 *    (blobc_error_format and blobc_error_clear accept NULL too.)
 *  - A call that is misused (a NULL pointer where one is required, a
 *    length without its bytes, an option value out of its enum) returns
 *    BLOBC_EARG, never BLOBC_EIO or a crash: BLOBC_EARG is a bug in the
 *    caller, BLOBC_EINPUT a problem in the data, BLOBC_EIO one with the
 *    file system.
 *  - The library never prints, never exits, and keeps no state between
 *    calls: any number of threads may call it at once, each with its own
 *    objects (schemas, buffers, error objects). Objects only read by a
 *    call (a loaded blobc_schema, a blob's bytes) may be shared by
 *    threads. docs/ARCHITECTURE.md, "Threads and the error contract".
 *
 * Stability: stable: a minor release keeps every declaration here
 * source-compatible.
 */
#ifndef BLOBC_ERROR_H
#define BLOBC_ERROR_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status of a call. The numeric values of the first three double as the
 * CLI's exit codes (0 success, 1 invalid input, 2 usage or I/O);
 * BLOBC_ENOMEM and BLOBC_EARG map to 2. */
typedef enum blobc_status {
    BLOBC_OK = 0,
    BLOBC_EINPUT = 1,   /* bad schema, bad data, bad blob, failed verification */
    BLOBC_EIO = 2,      /* a file could not be read or written; bad usage */
    BLOBC_ENOMEM = 3,   /* an allocation failed */
    BLOBC_EARG = 4      /* the call was misused: a required pointer is NULL,
                           an option is out of range (a bug in the caller) */
} blobc_status;

#define BLOBC_ERROR_FILE_MAX 512
#define BLOBC_ERROR_PATH_MAX 512
#define BLOBC_ERROR_MSG_MAX 1024
#define BLOBC_ERROR_LINE_MAX 256

/* Where and what. Fields that do not apply stay zero / empty:
 *  - file:    the file the problem is in ("" when not known)
 *  - line, column: 1-based position in a text file (0 when not applicable)
 *  - path:    schema path ("rooms[3].center.x") or JSON Pointer ("/rooms/3/center/x")
 *  - has_offset/offset: byte offset in a blob file (verify, dump)
 *  - code:    a stable machine-readable code (see blobc/verify.h), 0 if none
 *  - source_line: the text of the offending line, for a caret display */
typedef struct blobc_error {
    blobc_status status;
    int code;
    uint32_t line;
    uint32_t column;
    int has_offset;
    uint64_t offset;
    char file[BLOBC_ERROR_FILE_MAX];
    char path[BLOBC_ERROR_PATH_MAX];
    char message[BLOBC_ERROR_MSG_MAX];
    char source_line[BLOBC_ERROR_LINE_MAX];
} blobc_error;

/* Resets every field; an error object may be reused across calls. */
BLOBC_API void blobc_error_clear(blobc_error *err);

/* Formats the error the way the CLI prints it, without a trailing newline
 * ("warning:" in place of "error:" for a warning, whose status is
 * BLOBC_OK):
 *   file:line:col: error: message          (text positions)
 *   file: /json/pointer: error: message    (JSON values)
 *   file: offset 0x1a4 (rooms[3].name): error: message   (blobs)
 * followed, when source_line is set, by "\n    <line>\n    ^" under the column.
 * Returns the length it needed (snprintf semantics). */
BLOBC_API size_t blobc_error_format(const blobc_error *err, char *buf, size_t cap);

/* A short name for a status ("ok", "invalid input", "I/O error", ...). */
BLOBC_API const char *blobc_status_name(blobc_status st);

/* A growable byte buffer the library writes its outputs into. Zero-initialize
 * it before first use; release with blobc_buffer_free. */
typedef struct blobc_buffer {
    uint8_t *data;
    size_t len;
    size_t cap;
} blobc_buffer;

BLOBC_API void blobc_buffer_free(blobc_buffer *buf);

/* How errors are written for a reader that is not a person (CI):
 * TEXT as blobc_error_format; JSON one object a line ({"tool", "severity",
 * "file", "line", "column", "offset", "path", "code", "message"}, the
 * fields that apply); GITHUB a GitHub Actions workflow command
 * (`::error file=F,line=L,col=C,title=TOOL::PATH: MESSAGE`); SARIF a
 * SARIF 2.1.0 log of them all (blobc_sarif_log). */
typedef enum blobc_error_style {
    BLOBC_STYLE_TEXT = 0,
    BLOBC_STYLE_JSON,
    BLOBC_STYLE_GITHUB,
    BLOBC_STYLE_SARIF
} blobc_error_style;

/* Appends one error (a warning when its status is BLOBC_OK) to out as a
 * line of style TEXT, JSON or GITHUB; tool names the program (NULL:
 * "blobc"). */
BLOBC_API blobc_status blobc_error_annotate(const blobc_error *e, blobc_error_style style,
                                            const char *tool, blobc_buffer *out, blobc_error *err);
/* Appends a SARIF 2.1.0 log holding the n errors, one result each (its
 * level error or warning, its location the file as a URI with the line
 * and column, or the byte offset in a blob, its ruleId a verify code's
 * name), for code scanning. */
BLOBC_API blobc_status blobc_sarif_log(const blobc_error *errs, size_t n, const char *tool,
                                       blobc_buffer *out, blobc_error *err);

#ifdef __cplusplus
}
#endif
#endif
