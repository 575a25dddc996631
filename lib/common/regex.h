/*
 * regex.h - the regular expressions of @match checks: POSIX extended
 * syntax, matched by the library itself so that every platform gives the
 * same answer (Windows has no regcomp) and in time linear in the text
 * whatever the pattern (a schema, or data, may be hostile). Private.
 */
#ifndef BLOBC_REGEX_H
#define BLOBC_REGEX_H

#include <stdbool.h>
#include <stddef.h>

#include "common/arena.h"

typedef struct blobc_regex blobc_regex;

/* Longest pattern, and most instructions its program may take once
 * counted repetitions ({m,n}) are written out. */
#define BLOBC_REGEX_MAX_PATTERN 4096u
#define BLOBC_REGEX_MAX_PROGRAM 20000u

/* Compiles pat[0..n) (valid UTF-8) into memory of arena a. On a syntax
 * error returns NULL with a message in msg and the byte offset of the
 * mistake in *at; out of memory: NULL with msg empty. */
const blobc_regex *blobc_regex_compile(const char *pat, size_t n, blobc_arena *a, char *msg,
                                       size_t cap, size_t *at);

/* Whether the pattern matches somewhere in s[0..n) (valid UTF-8): 1 yes,
 * 0 no, -1 out of memory. Safe on any number of threads at once. */
int blobc_regex_search(const blobc_regex *re, const char *s, size_t n);

#endif
