/*
 * hashtab.h - the library's one hash table: an open-addressing index over
 * items the caller keeps (numbered 1..UINT32_MAX, 0 meaning none). A slot
 * holds an item's number and the low 32 bits of its key's hash; the
 * caller hashes keys (blobc_hash_bytes, blobc_hash_u64, blobc_hash_ptr)
 * and compares the candidates a lookup yields with its own keys, so one
 * table serves names, pointers and composite keys alike. Slots come from
 * malloc, or from an arena for a table that lives as long as the arena.
 *
 *     blobc_hprobe p;
 *     for (uint32_t k = blobc_hashtab_first(&t, h, &p); k; k = blobc_hashtab_next(&t, &p))
 *         if (same_key(items[k - 1], key)) return k;
 */
#ifndef BLOBC_HASHTAB_H
#define BLOBC_HASHTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"

typedef struct blobc_hslot {
    uint32_t item; /* 0: empty */
    uint32_t hash;
} blobc_hslot;

typedef struct blobc_hashtab {
    blobc_hslot *slots; /* NULL until the first add or reserve */
    size_t mask;        /* slot count - 1 */
    size_t used;
    blobc_arena *arena; /* where slots come from; NULL: malloc */
} blobc_hashtab;

/* An empty table; with an arena, its slots live (and die) there. */
void blobc_hashtab_init(blobc_hashtab *t, blobc_arena *arena);
void blobc_hashtab_free(blobc_hashtab *t);
/* Room for n items in all without growing. False when out of memory. */
bool blobc_hashtab_reserve(blobc_hashtab *t, size_t n);
/* Adds item (nonzero) under hash; a key already there is not looked for:
 * look it up first where duplicates matter. False when out of memory. */
bool blobc_hashtab_add(blobc_hashtab *t, uint64_t hash, uint32_t item);

/* A lookup in progress. */
typedef struct blobc_hprobe {
    size_t i;      /* the slot to look at next */
    uint32_t hash;
} blobc_hprobe;

/* The next item whose hash matches, in probe order; 0 when there is none. */
static inline uint32_t blobc_hashtab_next(const blobc_hashtab *t, blobc_hprobe *p) {
    for (;;) {
        const blobc_hslot *s = &t->slots[p->i];
        p->i = (p->i + 1) & t->mask;
        if (!s->item) return 0;
        if (s->hash == p->hash) return s->item;
    }
}

/* The first item whose hash matches `hash`, or 0. */
static inline uint32_t blobc_hashtab_first(const blobc_hashtab *t, uint64_t hash,
                                           blobc_hprobe *p) {
    if (!t->slots) return 0;
    p->hash = (uint32_t)hash;
    p->i = (size_t)p->hash & t->mask;
    return blobc_hashtab_next(t, p);
}

/* Puts `item` in place of the one the probe returned last. */
static inline void blobc_hashtab_replace(blobc_hashtab *t, const blobc_hprobe *p, uint32_t item) {
    t->slots[(p->i - 1) & t->mask].item = item;
}

/* ---- hashing keys ---- */

/* Mixes the bits of v (the MurmurHash3 finalizer). */
static inline uint64_t blobc_hash_u64(uint64_t v) {
    v ^= v >> 33;
    v *= 0xff51afd7ed558ccdull;
    v ^= v >> 33;
    v *= 0xc4ceb9fe1a85ec53ull;
    v ^= v >> 33;
    return v;
}

static inline uint64_t blobc_hash_ptr(const void *p) { return blobc_hash_u64((uint64_t)(uintptr_t)p); }

/* n bytes at p (FNV-1a, its high half folded into the low one: keys are
 * short names, on the bake's hot path, and FNV's low bits serve). */
static inline uint64_t blobc_hash_bytes(const void *p, size_t n) {
    const uint8_t *b = (const uint8_t *)p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h ^ (h >> 32);
}

/* ---- a set of pointers, numbered 0, 1, 2... in insertion order ---- */

typedef struct blobc_ptrset {
    blobc_hashtab tab;
    const void **keys; /* keys[num] */
    size_t count, cap;
} blobc_ptrset;

/* Zero-initialize (or this), free with blobc_ptrset_free. */
void blobc_ptrset_init(blobc_ptrset *ps);
/* 1 when p was added (*num = its new number), 0 when already there
 * (*num = its number), -1 when out of memory. */
int blobc_ptrset_add(blobc_ptrset *ps, const void *p, uint32_t *num);
/* p's number, or UINT32_MAX when p is not in the set. */
uint32_t blobc_ptrset_find(const blobc_ptrset *ps, const void *p);
void blobc_ptrset_free(blobc_ptrset *ps);

#endif
