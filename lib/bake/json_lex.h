/*
 * json_lex.h - the JSON tokenizer of the bake (json_lex.c), which json.c
 * walks: strings, numbers, skipping a value, and the first syntax error of
 * a text. Positions are byte offsets; line and column are computed from
 * one only when an error is reported. Private to lib/bake/.
 */
#ifndef BLOBC_BAKE_JSON_LEX_H
#define BLOBC_BAKE_JSON_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/buffer.h"
#include "common/compiler.h"
#include "common/err.h"
#include "common/utf8.h"

/* String flags (jl_string). */
#define JL_ESC 1u   /* has a backslash escape */
#define JL_HIGH 2u  /* has a byte >= 0x80 */
#define JL_NUL 4u   /* spells \u0000 */
#define JL_CTRL 8u  /* has a raw control character */
#define JL_OPEN 16u /* runs to the end of the text without a closing quote */

static inline bool jl_is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

static inline size_t jl_ws(const char *t, size_t len, size_t i) {
    /* Most tokens follow without white space: one test rejects the rest. */
    while (i < len && (unsigned char)t[i] <= ' ' && jl_is_ws(t[i])) i++;
    return i;
}

/* t[i] is '"': the index just past the closing quote (or len), with the
 * string's flags in *flags. */
size_t jl_string(const char *t, size_t len, size_t i, unsigned *flags);

/* Decodes the escapes of a string's body s[0..n) into out (replacing its
 * contents; a NUL byte ends it, not counted). false for an escape JSON
 * does not allow (a syntax error: jl_check says which) or out of memory
 * (*nomem set). */
bool jl_unescape(const char *s, size_t n, blobc_buffer *out, bool *nomem);

/* A number token: its text runs from the start to `end`. */
typedef struct jl_num {
    size_t end;
    bool json;     /* spelled as JSON allows: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
    bool is_int;   /* ... and an integer without fraction or exponent */
    bool has_u;    /* is_int, non-negative, and u is its value */
    bool has_d;    /* d is its value, correctly rounded (as strtod) */
    uint64_t u;
    double d;
} jl_num;

/* The number-like run at t[i] (digits, signs, '.', 'e', 'E'); false when
 * it holds no digit (not a number at all: a syntax error). */
bool jl_number(const char *t, size_t len, size_t i, jl_num *out);

/* Steps over the value at i, checking its syntax: true with *end past it;
 * false at a syntax error (jl_check says which). */
bool jl_skip(const char *t, size_t len, size_t i, size_t *end);

/* The items of the array whose '[' is at i, counted; false at a syntax
 * error. */
bool jl_count_items(const char *t, size_t len, size_t i, uint32_t *count);

/* The items of the array whose '[' is at i, counted when it closes within
 * `limit` bytes and holds no object or array: true with *count, the
 * number of items the walk will read if the array's syntax is right (a
 * mistake in it is a syntax error, reported before any count matters).
 * False otherwise, reading no further than the limit. */
bool jl_count_flat(const char *t, size_t len, size_t i, size_t limit, uint32_t *count);

/* The first syntax error of the whole text, at the offending token: false
 * with its offset and message; true when the text is valid JSON as far as
 * syntax goes (numbers are any run of number characters holding a digit
 * and raw control characters in strings are left to the reader, which
 * reports them as value errors). */
bool jl_check(const char *t, size_t len, size_t *off, char *msg, size_t cap);

/* Line and column (1-based; the column counts characters) of offset off,
 * going on from an earlier offset's line *line starting at *start, both
 * at or before off; both move to off's line. */
void jl_line_col(const char *t, size_t len, size_t off, uint32_t *line, size_t *start,
                 uint32_t *col);

#endif
