/*
 * util.h - private helpers shared by the library's modules: the arena,
 * buffer appends, error filling, little-endian loads and stores, and
 * overflow-checked size arithmetic. Not installed.
 */
#ifndef BLOBC_UTIL_H
#define BLOBC_UTIL_H

#include <locale.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "blobc/error.h"

#if defined(__GNUC__) || defined(__clang__)
#define BLOBC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define BLOBC_LIKELY(x) __builtin_expect(!!(x), 1)
#define BLOBC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define BLOBC_PRINTF(a, b)
#define BLOBC_LIKELY(x) (x)
#define BLOBC_UNLIKELY(x) (x)
#endif

/* ---- arena: many small allocations, freed all at once ---- */

typedef struct blobc_arena_block blobc_arena_block;
typedef struct blobc_arena {
    blobc_arena_block *head;
    size_t used;    /* bytes used in head */
    size_t cap;     /* capacity of head */
} blobc_arena;

void blobc_arena_init(blobc_arena *a);
void blobc_arena_free(blobc_arena *a);
/* Zeroed, aligned to 16. NULL when out of memory or n overflows. */
void *blobc_arena_alloc(blobc_arena *a, size_t n);
/* Zeroed array of count elements of size each; NULL on overflow. */
void *blobc_arena_array(blobc_arena *a, size_t count, size_t size);
/* NUL-terminated copy of n bytes. */
char *blobc_arena_strndup(blobc_arena *a, const char *s, size_t n);

/* ---- growable arrays ---- */

/* Makes room for `need` elements of `elem` bytes in the malloc'ed array
 * *p of *cap elements, doubling; false (nothing changed) when out of
 * memory or the size would overflow. */
bool blobc_grow(void **p, size_t *cap, size_t need, size_t elem);

/* ---- buffers ---- */

/* Makes room for `extra` more bytes; false when out of memory or overflow. */
bool blobc_buf_reserve(blobc_buffer *b, size_t extra);
bool blobc_buf_append(blobc_buffer *b, const void *p, size_t n);
bool blobc_buf_putc(blobc_buffer *b, char c);
bool blobc_buf_puts(blobc_buffer *b, const char *s);
bool blobc_buf_printf(blobc_buffer *b, const char *fmt, ...) BLOBC_PRINTF(2, 3);
bool blobc_buf_vprintf(blobc_buffer *b, const char *fmt, va_list ap) BLOBC_PRINTF(2, 0);
/* Appends n zero bytes. */
bool blobc_buf_zeros(blobc_buffer *b, size_t n);
/* Appends s[0..n) quoted: as a JSON string (RFC 8259) when json, else as
 * a YAML double-quoted scalar, escaping what a YAML reader would not take
 * literally (controls, DEL, C1, the Unicode line and paragraph
 * separators, BOM and the noncharacters U+FFFE/FFFF). Both must be UTF-8:
 * a byte that is not part of valid UTF-8 (a file name can hold any) is
 * written as "\ufffd", U+FFFD, one per byte. */
bool blobc_buf_quoted(blobc_buffer *b, const uint8_t *s, size_t n, bool json);

/* ---- errors ---- */

/* Sets status and message (printf-style); keeps file/line/path already set. */
blobc_status blobc_err(blobc_error *e, blobc_status st, const char *fmt, ...) BLOBC_PRINTF(3, 4);
blobc_status blobc_verr(blobc_error *e, blobc_status st, const char *fmt, va_list ap);
/* Sets the text position (file may be NULL to leave it). */
void blobc_err_at(blobc_error *e, const char *file, uint32_t line, uint32_t col);
void blobc_err_file(blobc_error *e, const char *file);
void blobc_err_path(blobc_error *e, const char *path);
void blobc_err_offset(blobc_error *e, uint64_t offset);
/* A verification failure: BLOBC_EINPUT with a verify code (blobc/verify.h)
 * and the byte offset of the bad field. */
blobc_status blobc_err_verify(blobc_error *e, int code, uint64_t offset, const char *fmt, ...)
    BLOBC_PRINTF(4, 5);
/* Copies the line containing byte `pos` of text into e->source_line. */
void blobc_err_source_line(blobc_error *e, const char *text, size_t len, size_t pos);
blobc_status blobc_err_nomem(blobc_error *e);
/* BLOBC_EARG "fn: what": the caller misused a public function. */
blobc_status blobc_err_arg(blobc_error *e, const char *fn, const char *what);

/* The error contract (blobc/error.h): a public function given a NULL
 * error pointer works with a cleared scratch object of its own instead,
 * so nothing below it tests for NULL. */
static inline blobc_error *blobc_err_or(blobc_error *err, blobc_error *scratch) {
    if (err) return err;
    memset(scratch, 0, sizeof *scratch);
    return scratch;
}
/* BLOBC_EIO "cannot <what> '<path>': <errno text>", file set to path
 * ("-" is standard input). In fileio.c. */
blobc_status blobc_err_io(blobc_error *err, const char *what, const char *path, int e);
/* True when writing `output` would replace the file `path`: the same
 * name, or the same existing file under another. In output.c. */
bool blobc_writes_over(const char *output, const char *path);
/* strerror_r into buf (thread-safe); "error N" when it has no text. */
const char *blobc_errno_text(int e, char *buf, size_t cap);

/* ---- numbers in the "C" locale ---- */

/* strtod, strtof and printf's %g follow LC_NUMERIC, which a host program
 * may set process-wide with setlocale (a comma for a decimal point). Code
 * that calls them switches its own thread to the "C" locale around the
 * call: uselocale is per thread, so no other thread sees the change. */
typedef struct blobc_c_numeric {
    locale_t c, prev;
} blobc_c_numeric;
blobc_c_numeric blobc_c_numeric_begin(void);
void blobc_c_numeric_end(blobc_c_numeric l);

/* ---- little-endian access (the format is little-endian everywhere) ---- */

static inline uint16_t blobc_ld16(const void *p) {
    const uint8_t *b = (const uint8_t *)p;
    return (uint16_t)(b[0] | (b[1] << 8));
}
static inline uint32_t blobc_ld32(const void *p) {
    const uint8_t *b = (const uint8_t *)p;
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}
static inline uint64_t blobc_ld64(const void *p) {
    return (uint64_t)blobc_ld32(p) | ((uint64_t)blobc_ld32((const uint8_t *)p + 4) << 32);
}
static inline void blobc_st16(void *p, uint16_t v) {
    uint8_t *b = (uint8_t *)p;
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
}
static inline void blobc_st32(void *p, uint32_t v) {
    uint8_t *b = (uint8_t *)p;
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)(v >> 16);
    b[3] = (uint8_t)(v >> 24);
}
static inline void blobc_st64(void *p, uint64_t v) {
    blobc_st32(p, (uint32_t)v);
    blobc_st32((uint8_t *)p + 4, (uint32_t)(v >> 32));
}

/* ---- checked arithmetic ---- */

static inline bool blobc_add_ok(size_t a, size_t b, size_t *r) {
    if (a > SIZE_MAX - b) return false;
    *r = a + b;
    return true;
}
static inline bool blobc_mul_ok(size_t a, size_t b, size_t *r) {
    if (b != 0 && a > SIZE_MAX / b) return false;
    *r = a * b;
    return true;
}
/* Rounds v up to a multiple of align (a power of two); false on overflow. */
static inline bool blobc_align_ok(size_t v, size_t align, size_t *r) {
    size_t m = align - 1;
    if (v > SIZE_MAX - m) return false;
    *r = (v + m) & ~m;
    return true;
}
static inline bool blobc_is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

/* Edit distance (insert, delete, replace, swap two neighbours), capped;
 * for did-you-mean (common/suggest.h). */
size_t blobc_edit_distance(const char *a, size_t alen, const char *b, size_t blen);

/* Writes s[0..n) as a double-quoted, escaped one-line excerpt of at most
 * BLOBC_QUOTE_MAX input bytes (then "..."), for error messages. Returns the
 * length needed; a buffer of BLOBC_QUOTE_BUF bytes always suffices. */
#define BLOBC_QUOTE_MAX 40
#define BLOBC_QUOTE_BUF (BLOBC_QUOTE_MAX * 4 + 8)
size_t blobc_quote(char *dst, size_t cap, const char *s, size_t n);

/* "1 GiB", "64 KiB", "1000 bytes": a size for messages; snprintf semantics. */
size_t blobc_size_text(char *buf, size_t cap, uint64_t n);
/* The error for a non-regular input that went past the maximum input size. */
blobc_status blobc_input_too_large(blobc_error *err, const char *path, uint64_t max);
/* The error for text (`what`: "schema text") longer than its own limit. */
blobc_status blobc_text_too_large(blobc_error *err, const char *name, const char *what,
                                  uint64_t max);

/* UTF-8 validity of n bytes (no overlongs, no surrogates, <= U+10FFFF). */
bool blobc_utf8_valid(const uint8_t *s, size_t n);
/* The length (1 to 4) of the valid UTF-8 sequence s starts with, its code
 * point in *cp; 0 when s[0..n) does not start with one. n > 0. */
size_t blobc_utf8_seq(const uint8_t *s, size_t n, uint32_t *cp);
/* Writes code point cp (<= U+10FFFF) as UTF-8 at o: 1 to 4 bytes, their
 * number returned. */
size_t blobc_utf8_put(char *o, uint32_t cp);

/* ---- text or binary ----
 * Authoring inputs are text; one with a NUL byte is a binary file, reported
 * as "binary data at offset N" (the first byte that is not text), never
 * echoed. */
typedef struct blobc_textscan {
    uint64_t off;        /* bytes scanned so far (UINT64_MAX: UTF-16, not checked) */
    unsigned need;       /* UTF-8 continuation bytes still expected */
    bool seen_bad;
    uint64_t first_bad;  /* the first byte that is not text, and its value */
    uint8_t first_byte;
} blobc_textscan;
/* Scans the next n bytes; true once the input is found to be binary, with
 * the offset of its first non-text byte in the whole input in *bad and
 * that byte in *byte. */
bool blobc_textscan_run(blobc_textscan *s, const uint8_t *p, size_t n, uint64_t *bad,
                        uint8_t *byte);
/* "binary data at offset N (byte 0xXX); expected <expected>" (BLOBC_EINPUT). */
blobc_status blobc_err_binary(blobc_error *e, uint64_t off, uint8_t byte, const char *expected);
/* True for text; else fills err (file and message) and returns false. */
bool blobc_text_check(const char *filename, const char *text, size_t len, const char *expected,
                      blobc_error *err);

#endif
