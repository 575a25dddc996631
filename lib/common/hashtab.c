/*
 * hashtab.c - the one hash table (hashtab.h): growth and the pointer set
 * built on it. Lookups are inline in the header, for the hot paths.
 */
#include "common/hashtab.h"

#include <stdlib.h>
#include <string.h>

#include "common/buffer.h"

void blobc_hashtab_init(blobc_hashtab *t, blobc_arena *arena) {
    memset(t, 0, sizeof *t);
    t->arena = arena;
}

void blobc_hashtab_free(blobc_hashtab *t) {
    if (!t->arena) free(t->slots);
    blobc_hashtab_init(t, t->arena);
}

/* Moves every item into `cap` slots (a power of two). */
static bool rehash(blobc_hashtab *t, size_t cap) {
    blobc_hslot *ns = t->arena ? blobc_arena_array(t->arena, cap, sizeof *ns)
                               : calloc(cap, sizeof *ns);
    if (!ns) return false;
    for (size_t i = 0; t->slots && i <= t->mask; i++) {
        if (!t->slots[i].item) continue;
        size_t j = t->slots[i].hash & (cap - 1);
        while (ns[j].item) j = (j + 1) & (cap - 1);
        ns[j] = t->slots[i];
    }
    if (!t->arena) free(t->slots);
    t->slots = ns;
    t->mask = cap - 1;
    return true;
}

/* At most half the slots are used: probes stay short. */
bool blobc_hashtab_reserve(blobc_hashtab *t, size_t n) {
    size_t cap = t->slots ? t->mask + 1 : 0;
    if (n <= cap / 2) return true;
    size_t nc = cap ? cap : 16;
    while (nc / 2 < n) {
        if (nc > SIZE_MAX / 2 / sizeof(blobc_hslot)) return false;
        nc *= 2;
    }
    return rehash(t, nc);
}

bool blobc_hashtab_add(blobc_hashtab *t, uint64_t hash, uint32_t item) {
    if (t->used == SIZE_MAX || !blobc_hashtab_reserve(t, t->used + 1)) return false;
    size_t i = (uint32_t)hash & t->mask;
    while (t->slots[i].item) i = (i + 1) & t->mask;
    t->slots[i].item = item;
    t->slots[i].hash = (uint32_t)hash;
    t->used++;
    return true;
}

/* ---- the pointer set ---- */

void blobc_ptrset_init(blobc_ptrset *ps) { memset(ps, 0, sizeof *ps); }

uint32_t blobc_ptrset_find(const blobc_ptrset *ps, const void *p) {
    blobc_hprobe pr;
    for (uint32_t k = blobc_hashtab_first(&ps->tab, blobc_hash_ptr(p), &pr); k;
         k = blobc_hashtab_next(&ps->tab, &pr))
        if (ps->keys[k - 1] == p) return k - 1;
    return UINT32_MAX;
}

int blobc_ptrset_add(blobc_ptrset *ps, const void *p, uint32_t *num) {
    uint32_t k = blobc_ptrset_find(ps, p);
    if (k != UINT32_MAX) {
        *num = k;
        return 0;
    }
    if (ps->count >= UINT32_MAX - 1 ||
        !blobc_grow((void **)&ps->keys, &ps->cap, ps->count + 1, sizeof *ps->keys) ||
        !blobc_hashtab_add(&ps->tab, blobc_hash_ptr(p), (uint32_t)ps->count + 1))
        return -1;
    ps->keys[ps->count] = p;
    *num = (uint32_t)ps->count++;
    return 1;
}

void blobc_ptrset_free(blobc_ptrset *ps) {
    blobc_hashtab_free(&ps->tab);
    free(ps->keys);
    memset(ps, 0, sizeof *ps);
}
