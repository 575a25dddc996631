/*
 * names.c - finding things by name in a schema: the index of its named
 * types, and of each struct's fields, union's and enum's members (one hash
 * table each, in the schema's arena, built when the schema is laid out),
 * with the lookups the baker and the verifier use on their hot paths, and
 * the words the schema language reserves.
 */
#include "schema/names.h"

#include <stdio.h>

#include "common/kind.h"

typedef const char *(*name_fn)(const void *items, size_t i);

/* `stored` (NUL-terminated) equals key[0..len): never reads stored past its NUL. */
static inline bool name_eq(const char *stored, const char *key, size_t len) {
    size_t i = 0;
    while (i < len && stored[i] != '\0' && stored[i] == key[i]) i++;
    return i == len && stored[len] == '\0';
}

static size_t table_find(const blobc_hashtab *t, const void *items, name_fn fn, const char *key,
                         size_t len) {
    blobc_hprobe p;
    for (uint32_t k = blobc_hashtab_first(t, blobc_hash_bytes(key, len), &p); k;
         k = blobc_hashtab_next(t, &p))
        if (name_eq(fn(items, k - 1), key, len)) return k - 1;
    return SIZE_MAX;
}

enum { TABLE_OK, TABLE_NOMEM, TABLE_DUP };

/* Indexes n items by name; on a duplicate returns TABLE_DUP with the two
 * item indexes in *first and *second. */
static int table_build(blobc_arena *a, blobc_hashtab *t, const void *items, size_t n, name_fn fn,
                       size_t *first, size_t *second) {
    blobc_hashtab_init(t, a);
    if (n >= UINT32_MAX || !blobc_hashtab_reserve(t, n)) return TABLE_NOMEM;
    for (size_t k = 0; k < n; k++) {
        const char *name = fn(items, k);
        size_t len = strlen(name);
        size_t dup = table_find(t, items, fn, name, len);
        if (dup != SIZE_MAX) {
            *first = dup;
            *second = k;
            return TABLE_DUP;
        }
        if (!blobc_hashtab_add(t, blobc_hash_bytes(name, len), (uint32_t)(k + 1))) return TABLE_NOMEM;
    }
    return TABLE_OK;
}

static const char *named_name(const void *items, size_t i) {
    return ((blobc_type *const *)items)[i]->name;
}
static const char *field_name(const void *items, size_t i) {
    return ((const blobc_field *)items)[i].name;
}
static const char *member_name(const void *items, size_t i) {
    return ((const blobc_enum_value *)items)[i].name;
}

typedef struct schema_names {
    blobc_hashtab table;
    size_t count;            /* s->nnamed when built */
} schema_names;

/* ---- named types ---- */

const blobc_type *blobc_schema_find_len(const blobc_schema *s, const char *name, size_t len) {
    if (!s || !name) return NULL;
    const schema_names *sn = s->names;
    if (sn && sn->count == s->nnamed) {
        size_t i = table_find(&sn->table, s->named, named_name, name, len);
        return i == SIZE_MAX ? NULL : s->named[i];
    }
    for (size_t i = 0; i < s->nnamed; i++)
        if (name_eq(s->named[i]->name, name, len)) return s->named[i];
    return NULL;
}

const blobc_type *blobc_schema_find(const blobc_schema *s, const char *name) {
    return name ? blobc_schema_find_len(s, name, strlen(name)) : NULL;
}

/* " (first declared at FILE:LINE:COL)": the file too, since with imports
 * the first may be in another file than the error. */
static const char *first_at(const blobc_schema *s, blobc_pos pos, char *buf, size_t cap) {
    if (!pos.line) return "";
    char place[BLOBC_PLACE_BUF];
    snprintf(buf, cap, " (first declared at %s)", blobc_schema_place(s, pos, place, sizeof place));
    return buf;
}

blobc_status blobc_schema_index_names(blobc_schema *s, blobc_error *err) {
    const schema_names *old = s->names;
    if (old && old->count == s->nnamed) return BLOBC_OK;
    for (size_t i = 0; i < s->nnamed; i++) {
        const blobc_type *t = s->named[i];
        if (!blobc_kind_is_named(t->kind) || !t->name || !t->name[0])
            return blobc_schema_err(s, t->pos, err,
                                    "a named type must be a struct, an enum or a union with a name");
    }
    schema_names *sn = blobc_arena_alloc(&s->arena, sizeof *sn);
    if (!sn) return blobc_err_nomem(err);
    size_t a, b;
    int rc = table_build(&s->arena, &sn->table, s->named, s->nnamed, named_name, &a, &b);
    if (rc == TABLE_NOMEM) return blobc_err_nomem(err);
    if (rc == TABLE_DUP) {
        char at[BLOBC_PLACE_BUF + 32];
        return blobc_schema_err(s, s->named[b]->pos, err, "duplicate type name '%s'%s",
                                s->named[b]->name, first_at(s, s->named[a]->pos, at, sizeof at));
    }
    sn->count = s->nnamed;
    s->names = sn;
    return BLOBC_OK;
}

/* ---- fields and members: lookups on the hot path ---- */

/* Below this many fields or members a linear scan beats hashing the key. */
#define LINEAR_MAX 8

const blobc_field *blobc_struct_find_field(const blobc_type *st, const char *name, size_t len) {
    if (!st || (st->kind != BLOBC_KIND_STRUCT && st->kind != BLOBC_KIND_UNION) || !name ||
        len == 0)
        return NULL;
    const type_lookup *lk = st->lookup;
    if (st->nfields <= LINEAR_MAX || !lk) {
        for (uint32_t i = 0; i < st->nfields; i++) {
            const char *fn = st->fields[i].name;
            if (fn[0] == name[0] && name_eq(fn, name, len)) return &st->fields[i];
        }
        return NULL;
    }
    size_t i = table_find(&lk->names, st->fields, field_name, name, len);
    return i == SIZE_MAX ? NULL : &st->fields[i];
}

const blobc_enum_value *blobc_enum_find_name(const blobc_type *et, const char *name, size_t len) {
    if (!et || et->kind != BLOBC_KIND_ENUM || !name || len == 0) return NULL;
    const type_lookup *lk = et->lookup;
    if (et->nvalues <= LINEAR_MAX || !lk) {
        for (uint32_t i = 0; i < et->nvalues; i++)
            if (name_eq(et->values[i].name, name, len)) return &et->values[i];
        return NULL;
    }
    size_t i = table_find(&lk->names, et->values, member_name, name, len);
    return i == SIZE_MAX ? NULL : &et->values[i];
}

const blobc_enum_value *blobc_enum_find_value(const blobc_type *et, uint64_t bits) {
    if (!et || et->kind != BLOBC_KIND_ENUM) return NULL;
    const type_lookup *lk = et->lookup;
    if (et->nvalues <= LINEAR_MAX || !lk || !lk->sorted) {
        for (uint32_t i = 0; i < et->nvalues; i++)
            if (et->values[i].value == bits) return &et->values[i];
        return NULL;
    }
    size_t lo = 0, hi = et->nvalues;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t v = lk->sorted[mid].value;
        if (v == bits) return &et->values[lk->sorted[mid].index];
        if (v < bits) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

int blobc_value_entry_cmp(const void *a, const void *b) {
    const value_entry *x = a, *y = b;
    if (x->value != y->value) return x->value < y->value ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

blobc_status blobc_schema_index_items(blobc_schema *s, const blobc_type *t, blobc_error *err,
                                      type_lookup **out) {
    bool st = t->kind != BLOBC_KIND_ENUM; /* struct fields or union members */
    const void *items = st ? (const void *)t->fields : (const void *)t->values;
    size_t n = st ? t->nfields : t->nvalues;
    type_lookup *lk = blobc_arena_alloc(&s->arena, sizeof *lk);
    if (!lk) return blobc_err_nomem(err);
    size_t a, b;
    int rc = table_build(&s->arena, &lk->names, items, n, st ? field_name : member_name, &a, &b);
    if (rc == TABLE_NOMEM) return blobc_err_nomem(err);
    if (rc == TABLE_DUP) {
        char at[BLOBC_PLACE_BUF + 32];
        blobc_pos first = st ? t->fields[a].pos : t->values[a].pos;
        blobc_pos second = st ? t->fields[b].pos : t->values[b].pos;
        return blobc_schema_err(s, second, err, "duplicate %s '%s' in %s %s%s",
                                t->kind == BLOBC_KIND_STRUCT ? "field" : "member",
                                st ? t->fields[b].name : t->values[b].name,
                                blobc_kind_name(t->kind), t->name ? t->name : "(unnamed)",
                                first_at(s, first, at, sizeof at));
    }
    *out = lk;
    return BLOBC_OK;
}
