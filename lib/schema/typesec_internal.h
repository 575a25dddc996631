/*
 * typesec_internal.h - what the type section's encoder (typesec.c) and
 * decoder (typesec_decode.c) share: the record codes and flag bits of
 * docs/FORMAT.md's "Type section", and the two-word map both use to find
 * a record again. Private to lib/schema/.
 */
#ifndef BLOBC_TYPESEC_INTERNAL_H
#define BLOBC_TYPESEC_INTERNAL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobfile.h"
#include "blobc/verify.h"
#include "schema/schema_internal.h"
#include "common/hashtab.h"
#include "common/kind.h"
#include "common/arena.h"
#include "common/buffer.h"
#include "common/checked.h"
#include "common/compiler.h"
#include "common/endian.h"
#include "common/err.h"
#include "common/utf8.h"

/* Section header: string_count, string_bytes, type_count, root, schema_name. */
#define TS_HEADER 20u
#define TS_NONE UINT32_MAX
/* On a struct field's type word: the field is a union or a reference
 * declared without `= null`, so it always holds a member or leads to an
 * item (docs/FORMAT.md, "Type section"). */
#define TS_MEMBER_ALWAYS 0x80000000u
/* Longest schema name (names of types, fields and members: BLOBC_MAX_NAME). */
#define TS_MAX_SCHEMA_NAME 4096u

static inline bool is_ident(const char *s, size_t n) {
    return n <= BLOBC_MAX_NAME && blobc_is_ident(s, n);
}

/* Record kinds past blobc_kind's numbering: a reference &T (an element's
 * record, like *T's) and a struct with a @key (a struct's record with the
 * key's field index after the count). Added without a version change: a
 * blob without them encodes as before, and an older reader refuses them
 * as unknown kinds rather than misreading them. */
#define TS_REF 19u
#define TS_KEYED 20u
/* A union tagged by a field or by YAML tags (the one-key union keeps 18).
 * Maps, optionals and any are their kinds' numbers (21 to 23). */
#define TS_TAGGED 24u
#define TS_LAST_CODE TS_TAGGED
/* On a struct record's align word, above the @align value. */
#define TS_ALIGN_MASK 0xffu
#define TS_FLAGS_SHIFT 8u
#define TS_STRUCT_FLAGS (BLOBC_STRUCT_OPEN | BLOBC_STRUCT_STREAM)
/* On a struct field's type word: @anchor. */
#define TS_ANCHOR 0x40000000u
/* A tagged union record's flags word: integer tags. */
#define TS_INT_TAGS 1u
#define TS_OPEN_TAGS 2u /* @open: a tag naming no member is none */

/* The record kind that encodes t. */
static inline uint32_t ts_code(const blobc_type *t) {
    if (t->kind == BLOBC_KIND_PTR && t->ref) return TS_REF;
    if (t->kind == BLOBC_KIND_STRUCT && t->key) return TS_KEYED;
    if (t->kind == BLOBC_KIND_UNION && t->by != BLOBC_UNION_BY_KEY) return TS_TAGGED;
    return (uint32_t)t->kind;
}

/* The blobc_kind of a record kind. */
static inline blobc_kind ts_kind(uint32_t code) {
    return code == TS_REF     ? BLOBC_KIND_PTR
           : code == TS_KEYED ? BLOBC_KIND_STRUCT
           : code == TS_TAGGED ? BLOBC_KIND_UNION
                              : (blobc_kind)code;
}

static inline bool is_builtin(blobc_kind k) { return blobc_kind_is_leaf(k); }

/* ---- a map from two 64-bit words to a u32, on the common hash table ---- */

typedef struct map_entry {
    uint64_t a, b;
    uint32_t value;
} map_entry;

typedef struct map {
    blobc_hashtab tab;  /* (a, b) -> entries[item - 1] */
    map_entry *entries;
    size_t count, cap;
} map;

static inline uint64_t map_hash(uint64_t a, uint64_t b) { return blobc_hash_u64(a ^ blobc_hash_u64(b)); }

static inline bool map_init(map *m, size_t expect) {
    memset(m, 0, sizeof *m);
    return blobc_hashtab_reserve(&m->tab, expect);
}

static inline void map_free(map *m) {
    blobc_hashtab_free(&m->tab);
    free(m->entries);
    memset(m, 0, sizeof *m);
}

/* The value of (a, b) plus one, or 0 when the key is absent. */
static inline uint32_t map_get(const map *m, uint64_t a, uint64_t b) {
    blobc_hprobe p = {0};
    for (uint32_t k = blobc_hashtab_first(&m->tab, map_hash(a, b), &p); k;
         k = blobc_hashtab_next(&m->tab, &p))
        if (m->entries[k - 1].a == a && m->entries[k - 1].b == b) return m->entries[k - 1].value + 1;
    return 0;
}

/* Inserts (a, b) -> value; the key must be absent. False when out of memory. */
static inline bool map_put(map *m, uint64_t a, uint64_t b, uint32_t value) {
    if (m->count >= UINT32_MAX - 1 ||
        !blobc_grow((void **)&m->entries, &m->cap, m->count + 1, sizeof *m->entries) ||
        !blobc_hashtab_add(&m->tab, map_hash(a, b), (uint32_t)m->count + 1))
        return false;
    m->entries[m->count++] = (map_entry){a, b, value};
    return true;
}

/* Key of an anonymous composite: kind, element record, count. */
static inline uint64_t anon_key(blobc_kind kind, uint32_t elem) {
    return ((uint64_t)elem << 8) | (uint64_t)kind;
}


/* ================= encoding ================= */

/* Byte-wise order of two counted strings, shorter first on a tie. */
static inline int cmp_bytes(const char *a, size_t an, const char *b, size_t bn) {
    int c = memcmp(a, b, an < bn ? an : bn);
    if (c) return c;
    return (an > bn) - (an < bn);
}

#endif
