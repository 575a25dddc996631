/*
 * gen_util.c - the helpers the code generators share (gen_internal.h):
 * identifier sets for collision-free naming and the type -> index map.
 */
#include "gen/gen_internal.h"

#include "common/util.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- a set of identifiers ---- */

static uint64_t str_hash(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return h;
}

bool blobc_nameset_has(const blobc_nameset *set, const char *name) {
    if (!set->cap) return false;
    size_t mask = set->cap - 1;
    for (size_t i = (size_t)str_hash(name) & mask;; i = (i + 1) & mask) {
        if (!set->slots[i]) return false;
        if (strcmp(set->slots[i], name) == 0) return true;
    }
}

static void nameset_put(const char **slots, size_t cap, const char *name) {
    size_t mask = cap - 1;
    size_t i = (size_t)str_hash(name) & mask;
    while (slots[i]) i = (i + 1) & mask;
    slots[i] = name;
}

bool blobc_nameset_add(blobc_nameset *set, const char *name) {
    if (set->count + 1 > set->cap / 2) {
        size_t cap = set->cap ? set->cap * 2 : 64;
        if (cap > SIZE_MAX / sizeof(char *) || cap <= set->cap) return false;
        const char **slots = calloc(cap, sizeof *slots);
        if (!slots) return false;
        for (size_t i = 0; i < set->cap; i++)
            if (set->slots[i]) nameset_put(slots, cap, set->slots[i]);
        free(set->slots);
        set->slots = slots;
        set->cap = cap;
    }
    nameset_put(set->slots, set->cap, name);
    set->count++;
    return true;
}

void blobc_nameset_free(blobc_nameset *set) {
    free(set->slots);
    memset(set, 0, sizeof *set);
}

const char *blobc_nameset_unique(blobc_nameset *set, const blobc_nameset *also,
                                 blobc_arena *arena, const char *base) {
    if (!base) return NULL;
    size_t n = strlen(base);
    const char *name = base;
    while (blobc_nameset_has(set, name) || (also && blobc_nameset_has(also, name))) {
        char *longer = blobc_arena_alloc(arena, n + 2);
        if (!longer) return NULL;
        memcpy(longer, name, n);
        longer[n++] = '_';
        longer[n] = '\0';
        name = longer;
    }
    return blobc_nameset_add(set, name) ? name : NULL;
}

/* ---- named type -> index ---- */

static size_t ptr_hash(const void *p, size_t mask) {
    uint64_t v = (uint64_t)(uintptr_t)p;
    v ^= v >> 33;
    v *= 0xff51afd7ed558ccdull;
    v ^= v >> 33;
    return (size_t)v & mask;
}

bool blobc_typemap_build(blobc_typemap *m, const blobc_schema *schema) {
    size_t n = blobc_schema_count(schema);
    size_t cap = 16;
    while (cap < n * 2) {
        if (cap > SIZE_MAX / 4) return false;
        cap *= 2;
    }
    m->schema = schema;
    m->slots = calloc(cap, sizeof *m->slots);
    if (!m->slots) return false;
    m->cap = cap;
    for (size_t i = 0; i < n; i++) {
        size_t j = ptr_hash(blobc_schema_at(schema, i), cap - 1);
        while (m->slots[j]) j = (j + 1) & (cap - 1);
        m->slots[j] = i + 1;
    }
    return true;
}

size_t blobc_typemap_find(const blobc_typemap *m, const blobc_type *t) {
    size_t mask = m->cap - 1;
    for (size_t j = ptr_hash(t, mask); m->slots[j]; j = (j + 1) & mask)
        if (blobc_schema_at(m->schema, m->slots[j] - 1) == t) return m->slots[j] - 1;
    return SIZE_MAX;
}

void blobc_typemap_free(blobc_typemap *m) {
    free(m->slots);
    memset(m, 0, sizeof *m);
}

bool blobc_gen_is_identifier(const char *s) {
    if (!s || !((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return false;
    for (s++; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return false;
    return true;
}

bool blobc_gen_file_name(const blobc_schema *schema, blobc_buffer *out) {
    const char *file = blobc_schema_filename(schema);
    const char *base = file && *file ? file : "(schema)";
    for (const char *p = base; *p; p++)
        if (*p == '/' || *p == '\\') base = p + 1;
    for (const char *p = base; *p; p++) {
        char ch = *p;
        bool plain = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
                     ch == '.' || ch == '_' || ch == '-' || ch == '+';
        if (!blobc_buf_putc(out, plain ? ch : '?')) return false;
    }
    return true;
}

void blobc_gen_emit(blobc_buffer *out, bool *ok, const char *fmt, ...) {
    if (!*ok) return;
    va_list ap;
    va_start(ap, fmt);
    *ok = blobc_buf_vprintf(out, fmt, ap);
    va_end(ap);
}
