/*
 * utf8.h - UTF-8 validity, and telling a text input from a binary one.
 * Not installed.
 */
#ifndef BLOBC_UTF8_H
#define BLOBC_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blobc/error.h"

/* UTF-8 validity of n bytes (no overlongs, no surrogates, <= U+10FFFF). */
bool blobc_utf8_valid(const uint8_t *s, size_t n);
/* The length (1 to 4) of the valid UTF-8 sequence s starts with, its code
 * point in *cp; 0 when s[0..n) does not start with one. n > 0. */
size_t blobc_utf8_seq(const uint8_t *s, size_t n, uint32_t *cp);
/* Writes code point cp (<= U+10FFFF) as UTF-8 at o: 1 to 4 bytes, their
 * number returned. */
size_t blobc_utf8_put(char *o, uint32_t cp);
/* A copy of s (malloc'd; NULL when out of memory) with every byte that is
 * not part of valid UTF-8 replaced by U+FFFD: a file name, which can hold
 * any bytes, made fit for JSON. */
char *blobc_utf8_repaired(const char *s);

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
