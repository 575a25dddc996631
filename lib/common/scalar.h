/*
 * scalar.h - text to typed scalar values, shared by the schema parser
 * (defaults, enum values) and both data front ends, so that every place a
 * number is read applies exactly the same rules (SPEC §5). Private.
 */
#ifndef BLOBC_SCALAR_H
#define BLOBC_SCALAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blobc/schema.h"

/* Which literal syntax the text follows. */
typedef enum blobc_syntax {
    BLOBC_SYNTAX_SCHEMA, /* schema defaults and enum values: as YAML */
    BLOBC_SYNTAX_YAML,   /* sign, decimal, 0x/0o/0b, '_' between digits; .inf .nan */
    BLOBC_SYNTAX_JSON    /* the JSON number grammar only */
} blobc_syntax;

/* Canonical NaN bit patterns: the only NaNs a blob may hold. */
#define BLOBC_F32_NAN_BITS 0x7fc00000u
#define BLOBC_F64_NAN_BITS 0x7ff8000000000000ull

/* The largest value of an integer kind; 0 for any other kind. */
uint64_t blobc_int_max(blobc_kind kind);

/* Parses an integer literal for an integer kind (I8..U64), checked exactly
 * against the kind's range over all 64 bits. *bits receives the two's
 * complement value sign-extended to 64 bits. On failure writes a one-line
 * message ("expected an integer in u8 range 0..255, got 300") into msg. */
bool blobc_parse_int(const char *s, size_t n, blobc_kind kind, blobc_syntax syn, uint64_t *bits,
                     char *msg, size_t cap);

/* Parses a float literal for F32 or F64. Integers are accepted ("3").
 * YAML/SCHEMA also take .inf -.inf +.inf .nan (and .Inf/.INF/.NaN/.NAN).
 * A finite value that overflows the kind is an error, not infinity. For F32
 * the result is the correctly rounded float, widened to double. NaN results
 * are the canonical NaN. */
bool blobc_parse_float(const char *s, size_t n, blobc_kind kind, blobc_syntax syn, double *out,
                       char *msg, size_t cap);

/* Only "true" and "false". */
bool blobc_parse_bool(const char *s, size_t n, bool *out, char *msg, size_t cap);

/* Stores a scalar (BOOL..F64) little-endian at p: integers and bool from
 * bits, floats from f (NaN stored as the canonical pattern). */
void blobc_store_scalar(void *p, blobc_kind kind, uint64_t bits, double f);

/* The integer of kind (I8..U64) at p, sign-extended to 64 bits for
 * signed kinds. */
uint64_t blobc_load_int(const void *p, blobc_kind kind);

/* The order of keyed arrays (docs/FORMAT.md, "Keys"): integers (and
 * enums, by their base `kind`) by value, signed kinds as signed; strings
 * (kind STRING) by their bytes, a prefix first. <0, 0 or >0. */
int blobc_key_cmp(blobc_kind kind, uint64_t a, const char *as, size_t an, uint64_t b,
                  const char *bs, size_t bn);

/* Range of an integer kind, for messages: "0..255", "-128..127". */
const char *blobc_int_range_text(blobc_kind kind);

#endif
