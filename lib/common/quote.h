/*
 * quote.h - text quoted for output: whole strings as JSON or YAML
 * scalars, and short excerpts of input for error messages. Not installed.
 */
#ifndef BLOBC_QUOTE_H
#define BLOBC_QUOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blobc/error.h"

/* Appends valid UTF-8 s[0..n) quoted: as a JSON string (RFC 8259) when
 * json, else as a YAML double-quoted scalar, escaping what a YAML reader
 * would not take literally (controls, DEL, C1, the Unicode line and
 * paragraph separators, BOM and the noncharacters U+FFFE/FFFF). */
bool blobc_buf_quoted(blobc_buffer *b, const uint8_t *s, size_t n, bool json);

/* Writes s[0..n) as a double-quoted, escaped one-line excerpt of at most
 * BLOBC_QUOTE_MAX input bytes (then "..."), for error messages. Returns the
 * length needed; a buffer of BLOBC_QUOTE_BUF bytes always suffices. */
#define BLOBC_QUOTE_MAX 40
#define BLOBC_QUOTE_BUF (BLOBC_QUOTE_MAX * 4 + 8)
size_t blobc_quote(char *dst, size_t cap, const char *s, size_t n);

#endif
