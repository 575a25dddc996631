/*
 * unity_layouts.h - data sections of tests/data/unity/order.schema laid out
 * as Unity's BlobBuilder lays them out: each payload where the baker
 * allocated it (aligned, zero-filled, the root first), offsets patched at
 * the end. The payloads are numbered in blobc's canonical order, so the
 * identity permutation gives exactly what `bake --format raw order.yaml`
 * writes, and any other permutation the same values elsewhere. Variants
 * share payloads (accepted), overlap them, misalign them, or leave a
 * nonzero byte between them (refused); the many_* layouts are big and
 * built to be slow for a checker that is not linear.
 *
 * Used by tests/tools/unity_layouts.c (files for tests/cli/unity.sh) and
 * tests/unit/test_verify.c (the walker's work).
 */
#ifndef BLOBC_UNITY_LAYOUTS_H
#define BLOBC_UNITY_LAYOUTS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct ul_buf {
    uint8_t *d;
    size_t len, cap;
} ul_buf;

/* BlobBuilder.Allocate: aligned, zero-filled (the gap too). */
static inline size_t ul_alloc(ul_buf *b, size_t size, size_t align) {
    size_t at = (b->len + align - 1) & ~(align - 1);
    if (at + size > b->cap) {
        size_t cap = (at + size) * 2 + 64;
        b->d = (uint8_t *)realloc(b->d, cap);
        if (!b->d) abort();
        b->cap = cap;
    }
    memset(b->d + b->len, 0, at + size - b->len);
    b->len = at + size;
    return at;
}

static inline void ul_st32(ul_buf *b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; i++) b->d[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

/* An offset field at `field` leading to `target`, and a length after it
 * (len < 0: a *T, no length). */
static inline void ul_ref(ul_buf *b, size_t field, size_t target, int32_t len) {
    ul_st32(b, field, (uint32_t)(int32_t)((int64_t)target - (int64_t)field));
    if (len >= 0) ul_st32(b, field + 4, (uint32_t)len);
}

/* The 14 payloads of order.yaml, in canonical order. */
enum {
    UL_ROOT, UL_TITLE, UL_ITEMS, UL_NAME0, UL_VALS0, UL_NAME1, UL_VALS1,
    UL_BEST, UL_BEST_NAME, UL_BEST_VALS, UL_TAGS, UL_TAG0, UL_TAG1, UL_TAG2, UL_COUNT
};

/* What a layout does besides placing the payloads in its order. */
typedef enum ul_variant {
    UL_PLAIN,
    UL_SHARED,      /* best.vals is items[0].vals, tags[1] is items[0].name: accepted */
    UL_OVERLAP,     /* tags[1] ("yy") points one byte into the title: refused */
    UL_INSIDE,      /* best points at items[1], inside the [Item]: refused */
    UL_MISALIGNED,  /* items[0].vals at an odd address: refused */
    UL_GAP_BYTE     /* a nonzero byte between two payloads: refused */
} ul_variant;

static const struct {
    size_t size, align;
} ul_payload[UL_COUNT] = {
    {28, 4}, {7, 1}, {40, 4}, {2, 1}, {6, 2}, {3, 1}, {2, 2},
    {20, 4}, {5, 1}, {4, 2}, {24, 4}, {2, 1}, {3, 1}, {4, 1},
};

static inline void ul_u16s(ul_buf *b, size_t at, const uint16_t *v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        b->d[at + 2 * i] = (uint8_t)v[i];
        b->d[at + 2 * i + 1] = (uint8_t)(v[i] >> 8);
    }
}

/* An Item at `it`: name -> nm (text), vals -> vs (n values), flag. */
static inline void ul_item(ul_buf *b, size_t it, size_t nm, const char *text, size_t vs,
                           const uint16_t *v, int32_t n, int flag) {
    memcpy(b->d + nm, text, strlen(text) + 1);
    ul_ref(b, it, nm, (int32_t)strlen(text) + 1);
    ul_u16s(b, vs, v, (size_t)n);
    ul_ref(b, it + 8, vs, n);
    b->d[it + 16] = (uint8_t)flag;
}

/* order.yaml's data with payload order[i] allocated i-th (order[0] must be
 * the root). Returns the data size; b->d holds the data. */
static inline size_t ul_order(ul_buf *b, const int *order, ul_variant v) {
    size_t at[UL_COUNT];
    b->len = 0;
    for (int i = 0; i < UL_COUNT; i++) {
        int k = order[i];
        if (v == UL_SHARED && (k == UL_BEST_VALS || k == UL_TAG1)) continue;
        if (v == UL_MISALIGNED && k == UL_VALS0) {
            /* one byte of an allocation of its own before it, then a u16
             * array at an odd address (no BlobBuilder does this) */
            at[k] = ul_alloc(b, ul_payload[k].size + 1, 2) + 1;
            continue;
        }
        at[k] = ul_alloc(b, ul_payload[k].size, ul_payload[k].align);
    }
    if (v == UL_SHARED) {
        at[UL_BEST_VALS] = at[UL_VALS0];
        at[UL_TAG1] = at[UL_NAME0];
    }
    static const uint16_t v0[] = {1, 2, 3}, v1[] = {4}, vb[] = {7, 8};
    memcpy(b->d + at[UL_TITLE], "orders", 7);
    ul_ref(b, 0, at[UL_TITLE], 7);
    ul_ref(b, 8, at[UL_ITEMS], 2);
    ul_item(b, at[UL_ITEMS], at[UL_NAME0], "a", at[UL_VALS0], v0, 3, 1);
    ul_item(b, at[UL_ITEMS] + 20, at[UL_NAME1], "bb", at[UL_VALS1], v1, 1, 0);
    ul_ref(b, 16, v == UL_INSIDE ? at[UL_ITEMS] + 20 : at[UL_BEST], -1);
    if (v == UL_SHARED) ul_item(b, at[UL_BEST], at[UL_BEST_NAME], "best", at[UL_VALS0], v0, 3, 1);
    else ul_item(b, at[UL_BEST], at[UL_BEST_NAME], "best", at[UL_BEST_VALS], vb, 2, 1);
    ul_ref(b, 20, at[UL_TAGS], 3);
    static const char *const tags[] = {"x", "yy", "zzz"};
    for (int i = 0; i < 3; i++) {
        size_t t = at[UL_TAG0 + i];
        const char *text = tags[i];
        if (v == UL_SHARED && i == 1) text = "a";
        else memcpy(b->d + t, text, strlen(text) + 1);
        if (v == UL_OVERLAP && i == 1) t = at[UL_TITLE] + 1;
        ul_ref(b, at[UL_TAGS] + 8 * (size_t)i, t, (int32_t)strlen(text) + 1);
    }
    if (v == UL_GAP_BYTE) {
        /* room for one byte after the title: the next payload is aligned past it */
        size_t g = at[UL_TITLE] + ul_payload[UL_TITLE].size;
        if (g < b->len && b->d[g] == 0) b->d[g] = 0x5a;
    }
    return b->len;
}

/* Hostile and big: an Order of n tags, their strings allocated in reverse
 * (each new one below the last), or all n tags one shared string. Linear
 * for blobc; quadratic for a checker that inserts into a sorted list, or
 * compares each payload with those before it. */
static inline size_t ul_many(ul_buf *b, size_t n, int shared) {
    b->len = 0;
    size_t root = ul_alloc(b, 28, 4);
    size_t title = ul_alloc(b, 2, 1);
    b->d[title] = 't';
    ul_ref(b, root, title, 2);
    size_t tags = ul_alloc(b, 8 * n, 4);
    ul_ref(b, root + 20, tags, (int32_t)n);
    if (shared) {
        size_t s = ul_alloc(b, 4, 1);
        memcpy(b->d + s, "abc", 4);
        for (size_t i = 0; i < n; i++) ul_ref(b, tags + 8 * i, s, 4);
        return b->len;
    }
    size_t base = ul_alloc(b, 4 * n, 1);
    for (size_t i = 0; i < n; i++) {
        size_t s = base + 4 * (n - 1 - i);
        b->d[s] = (uint8_t)('a' + i % 26);
        b->d[s + 1] = (uint8_t)('a' + i / 26 % 26);
        b->d[s + 2] = (uint8_t)('a' + i / 676 % 26);
        ul_ref(b, tags + 8 * i, s, 4);
    }
    return b->len;
}

#endif
