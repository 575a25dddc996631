/*
 * fmt_float.h - the shortest decimal text that reads back to the same
 * f32 or f64 bits. Private.
 */
#ifndef BLOBC_FMT_FLOAT_H
#define BLOBC_FMT_FLOAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for any result, NUL included. */
#define BLOBC_FLOAT_TEXT_MAX 32

/* Writes a finite v (for f32: a float widened to double) as the decimal
 * text with the fewest significant digits that strtof/strtod turns back
 * into the same value, always as a float literal: "12.5", "3.0", "-0.0",
 * "1.0e+20", "1.5e-07". Returns its length. Infinities and NaN are the
 * caller's (their spelling differs between YAML and JSON). */
size_t blobc_format_float(char *buf, double v, bool f32);

/* Writes v in decimal (at most 20 characters, no NUL); returns the length. */
size_t blobc_format_u64(char *buf, uint64_t v);

#endif
