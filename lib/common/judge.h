/*
 * judge.h - the judgement of one value against one value check (a
 * blobc_check: @range, @len, @match, @path, @unique) and the message that
 * says why it fails. The bake (lib/bake/checks.c), the schema's defaults
 * (lib/schema/checks.c) and `verify -s` (lib/read/verify_checks.c) all
 * judge here, so a value fails the same way, with the same words,
 * wherever it is judged. Nothing here knows where the value came from:
 * the callers add the place.
 */
#ifndef BLOBC_JUDGE_H
#define BLOBC_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blobc/schema.h"
#include "common/buffer.h"
#include "common/hashtab.h"

/* Room for any message below. */
#define BLOBC_JUDGE_MSG 600

/* @range's predicates, for numbers the caller holds decoded (a field's
 * default): an integer's bits (sign-extended for a signed kind), a float. */
bool blobc_judge_int_in_range(const blobc_check *c, bool is_signed, uint64_t bits);
bool blobc_judge_float_in_range(const blobc_check *c, double d);

/* A number, enum or bool of type t stored at p, against @range (any
 * other check passes). False with the message in msg when it fails. */
bool blobc_judge_number(const blobc_check *c, const blobc_type *t, const uint8_t *p, char *msg,
                        size_t cap);
/* A string s[0..n), against @len and @match (the others pass): 1 passes,
 * 0 fails (msg says why), -1 out of memory. */
int blobc_judge_string(const blobc_check *c, const char *s, size_t n, char *msg, size_t cap);
/* A list's or map's item count, against @len. */
bool blobc_judge_count(const blobc_check *c, uint64_t count, char *msg, size_t cap);
/* The message of a @unique item equal to item `first`: of type t (a
 * number, enum or bool; bytes[0..n) are its bytes), or with t NULL a
 * string (bytes[0..n) its text). */
void blobc_judge_repeat(const blobc_check *c, const blobc_type *t, const void *bytes, size_t n,
                        uint32_t first, char *msg, size_t cap);
/* A string s[0..n) against @path: a relative name under `root` (NULL:
 * the current directory, and the message says how to set one) that
 * names a regular file. 1 passes (*full holds the file's name), 0 fails
 * (msg says why), -1 out of memory. The caller frees *full. */
int blobc_judge_path(const blobc_check *c, const char *s, size_t n, const char *root,
                     blobc_buffer *full, char *msg, size_t cap);

/* The items of one @unique list seen so far, by their bytes (which the
 * caller keeps valid until the next reset). */
typedef struct blobc_uniq_item {
    const void *bytes;
    size_t n;
    uint32_t index;
} blobc_uniq_item;

typedef struct blobc_uniq {
    blobc_hashtab seen;
    blobc_uniq_item *items;
    size_t nitems, cap;
} blobc_uniq;

void blobc_uniq_init(blobc_uniq *u);
void blobc_uniq_free(blobc_uniq *u);
/* Forgets the items: a new list begins. */
void blobc_uniq_reset(blobc_uniq *u);
/* The index of an earlier item with bytes[0..n) (hash: blobc_hash_bytes
 * of them), or UINT32_MAX. */
uint32_t blobc_uniq_find(const blobc_uniq *u, const void *bytes, size_t n, uint64_t hash);
/* Records item `index` (not found before). False when out of memory. */
bool blobc_uniq_put(blobc_uniq *u, const void *bytes, size_t n, uint64_t hash, uint32_t index);

#endif
