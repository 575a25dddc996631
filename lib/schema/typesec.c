/*
 * typesec.c - the type section of a .blob: the type graph reachable from
 * the root, with names, so that dump and verify work without the schema
 * file (byte layout in docs/FORMAT.md, "Type section").
 *
 * The encoding is canonical: strings sorted and unique, one record per
 * distinct type, records numbered in a fixed walk from the root. The
 * decoder trusts nothing: it checks every count against the bytes left
 * before allocating, every index against its table, and rejects anything
 * that could make later code loop or recurse without bound (a chain of
 * anonymous types that refers back to itself). Sizes and offsets are not
 * stored; the schema layout engine recomputes them and rejects what no
 * schema could declare (inline self-containment, oversized types).
 *
 * The same encoder, with the fields' defaults after the section, is the
 * canonical description of a schema as a bake uses it (the cache key).
 */
#include <stdio.h>
#include <stdlib.h>

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

static bool is_ident(const char *s, size_t n) {
    if (n == 0 || n > BLOBC_MAX_NAME) return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
        if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
    }
    return true;
}

/* Record kinds past blobc_kind's numbering: a reference &T (an element's
 * record, like *T's) and a struct with a @key (a struct's record with the
 * key's field index after the count). Added without a version change: a
 * blob without them encodes as before, and an older reader refuses them
 * as unknown kinds rather than misreading them. */
#define TS_REF 19u
#define TS_KEYED 20u

/* The record kind that encodes t. */
static uint32_t ts_code(const blobc_type *t) {
    if (t->kind == BLOBC_KIND_PTR && t->ref) return TS_REF;
    if (t->kind == BLOBC_KIND_STRUCT && t->key) return TS_KEYED;
    return (uint32_t)t->kind;
}

/* The blobc_kind of a record kind. */
static blobc_kind ts_kind(uint32_t code) {
    return code == TS_REF ? BLOBC_KIND_PTR : code == TS_KEYED ? BLOBC_KIND_STRUCT : (blobc_kind)code;
}

static bool is_builtin(blobc_kind k) {
    return blobc_kind_is_scalar(k) || k == BLOBC_KIND_STRING;
}

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

static uint64_t map_hash(uint64_t a, uint64_t b) { return blobc_hash_u64(a ^ blobc_hash_u64(b)); }

static bool map_init(map *m, size_t expect) {
    memset(m, 0, sizeof *m);
    return blobc_hashtab_reserve(&m->tab, expect);
}

static void map_free(map *m) {
    blobc_hashtab_free(&m->tab);
    free(m->entries);
    memset(m, 0, sizeof *m);
}

/* The value of (a, b) plus one, or 0 when the key is absent. */
static uint32_t map_get(const map *m, uint64_t a, uint64_t b) {
    blobc_hprobe p;
    for (uint32_t k = blobc_hashtab_first(&m->tab, map_hash(a, b), &p); k;
         k = blobc_hashtab_next(&m->tab, &p))
        if (m->entries[k - 1].a == a && m->entries[k - 1].b == b) return m->entries[k - 1].value + 1;
    return 0;
}

/* Inserts (a, b) -> value; the key must be absent. False when out of memory. */
static bool map_put(map *m, uint64_t a, uint64_t b, uint32_t value) {
    if (m->count >= UINT32_MAX - 1 ||
        !blobc_grow((void **)&m->entries, &m->cap, m->count + 1, sizeof *m->entries) ||
        !blobc_hashtab_add(&m->tab, map_hash(a, b), (uint32_t)m->count + 1))
        return false;
    m->entries[m->count++] = (map_entry){a, b, value};
    return true;
}

/* Key of an anonymous composite: kind, element record, count. */
static uint64_t anon_key(blobc_kind kind, uint32_t elem) {
    return ((uint64_t)elem << 8) | (uint64_t)kind;
}


/* ================= encoding ================= */

typedef struct enc_str {
    const char *s;
    size_t n;
} enc_str;

typedef struct encoder {
    const blobc_type **types; /* by record index */
    uint32_t *elem;           /* by record index: element or enum base, else TS_NONE */
    size_t ntypes, types_cap, elem_cap;
    uint32_t *fields;         /* field type records of every struct, in record order */
    size_t nfields, fields_cap;
    map by_ptr;               /* named type -> record */
    map by_key;               /* anonymous (kind, element, count) -> record */
    uint32_t builtin[BLOBC_KIND_COUNT + 1]; /* kind -> record + 1 */
    enc_str *strs;
    size_t nstrs, strs_cap;
    const blobc_type **chain; /* scratch: an anonymous chain being numbered */
    size_t chain_cap;
} encoder;

/* Grows *p (elements of `size` bytes) so that index `n` is valid. */
static bool ensure(void **p, size_t *cap, size_t n, size_t size) {
    return n < SIZE_MAX && blobc_grow(p, cap, n + 1, size);
}

static bool push_type(encoder *e, const blobc_type *t, uint32_t elem, uint32_t *idx) {
    if (e->ntypes >= UINT32_MAX - 1) return false;
    if (!ensure((void **)&e->types, &e->types_cap, e->ntypes, sizeof *e->types) ||
        !ensure((void **)&e->elem, &e->elem_cap, e->ntypes, sizeof *e->elem))
        return false;
    *idx = (uint32_t)e->ntypes;
    e->types[e->ntypes] = t;
    e->elem[e->ntypes] = elem;
    e->ntypes++;
    return true;
}

static bool push_str(encoder *e, const char *s) {
    if (!ensure((void **)&e->strs, &e->strs_cap, e->nstrs, sizeof *e->strs)) return false;
    e->strs[e->nstrs++] = (enc_str){s, strlen(s)};
    return true;
}

static int cmp_bytes(const char *a, size_t an, const char *b, size_t bn) {
    int c = memcmp(a, b, an < bn ? an : bn);
    if (c) return c;
    return (an > bn) - (an < bn);
}

static int cmp_enc_str(const void *x, const void *y) {
    const enc_str *a = x, *b = y;
    return cmp_bytes(a->s, a->n, b->s, b->n);
}

/* Index of a collected string (the table is sorted and unique by then). */
static uint32_t str_index(const encoder *e, const char *s) {
    size_t n = strlen(s), lo = 0, hi = e->nstrs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp_bytes(e->strs[mid].s, e->strs[mid].n, s, n);
        if (c == 0) return (uint32_t)mid;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return TS_NONE; /* not reached: every name was collected */
}

/* Record of a builtin or named type, numbering it on first sight. */
static blobc_status assign_leaf(encoder *e, const blobc_type *t, uint32_t *idx, blobc_error *err) {
    if (is_builtin(t->kind)) {
        if (!e->builtin[t->kind]) {
            if (!push_type(e, t, TS_NONE, idx)) return blobc_err_nomem(err);
            e->builtin[t->kind] = *idx + 1;
        }
        *idx = e->builtin[t->kind] - 1;
        return BLOBC_OK;
    }
    if (t->kind != BLOBC_KIND_STRUCT && t->kind != BLOBC_KIND_ENUM && t->kind != BLOBC_KIND_UNION)
        return blobc_err(err, BLOBC_EINPUT, "cannot embed a type of kind %d", (int)t->kind);
    uint32_t found = map_get(&e->by_ptr, (uintptr_t)t, 0);
    if (found) {
        *idx = found - 1;
        return BLOBC_OK;
    }
    if (!t->name || !is_ident(t->name, strlen(t->name)))
        return blobc_err(err, BLOBC_EINPUT, "type name \"%s\" cannot be embedded",
                         t->name ? t->name : "");
    if (!push_type(e, t, TS_NONE, idx) || !map_put(&e->by_ptr, (uintptr_t)t, 0, *idx))
        return blobc_err_nomem(err);
    return BLOBC_OK;
}

/* Record of any type. An anonymous composite is numbered right after its
 * element chain (so the decoder can insist that anonymous records only
 * refer backwards) and interned by (kind, element, count). The chain is
 * walked iteratively: [[[[T]]]] nests as deep as the schema text allows. */
static blobc_status assign(encoder *e, const blobc_type *t, uint32_t *idx, blobc_error *err) {
    size_t depth = 0;
    while (blobc_kind_is_anonymous(t->kind)) {
        if (!t->elem) return blobc_err(err, BLOBC_EINPUT, "composite type without an element");
        if (!ensure((void **)&e->chain, &e->chain_cap, depth, sizeof *e->chain))
            return blobc_err_nomem(err);
        e->chain[depth++] = t;
        t = t->elem;
    }
    blobc_status st = assign_leaf(e, t, idx, err);
    if (st) return st;
    while (depth) {
        const blobc_type *c = e->chain[--depth];
        uint32_t count = c->kind == BLOBC_KIND_FIXED ? c->count : 0;
        uint64_t key = anon_key((blobc_kind)ts_code(c), *idx);
        uint32_t found = map_get(&e->by_key, key, count);
        if (found) {
            *idx = found - 1;
            continue;
        }
        uint32_t elem = *idx;
        if (!push_type(e, c, elem, idx) || !map_put(&e->by_key, key, count, *idx))
            return blobc_err_nomem(err);
    }
    return BLOBC_OK;
}

static blobc_status bad_name(blobc_error *err, const char *what, const char *name,
                             const char *owner) {
    return blobc_err(err, BLOBC_EINPUT, "%s name \"%.64s\" of %s cannot be embedded", what,
                     name ? name : "", owner);
}

/* Numbers every type reachable from the root (named types in the order a
 * breadth-first walk meets them) and collects every name. */
static blobc_status number_types(encoder *e, const blobc_type *root, blobc_error *err) {
    uint32_t idx;
    blobc_status st = assign(e, root, &idx, err);
    for (size_t i = 0; !st && i < e->ntypes; i++) {
        const blobc_type *t = e->types[i];
        if (t->kind == BLOBC_KIND_STRUCT || t->kind == BLOBC_KIND_UNION) {
            if (!push_str(e, t->name)) return blobc_err_nomem(err);
            for (uint32_t f = 0; !st && f < t->nfields; f++) {
                const blobc_field *fd = &t->fields[f];
                if (!fd->name || !is_ident(fd->name, strlen(fd->name)))
                    return bad_name(err, t->kind == BLOBC_KIND_UNION ? "member" : "field",
                                    fd->name, t->name);
                if (!fd->type) return blobc_err(err, BLOBC_EINPUT, "field without a type");
                if (!push_str(e, fd->name)) return blobc_err_nomem(err);
                st = assign(e, fd->type, &idx, err);
                if (!st && !ensure((void **)&e->fields, &e->fields_cap, e->nfields,
                                   sizeof *e->fields))
                    return blobc_err_nomem(err);
                bool may_mark = fd->type->kind == BLOBC_KIND_UNION ||
                                (fd->type->kind == BLOBC_KIND_PTR && fd->type->ref);
                if (!st && t->kind == BLOBC_KIND_STRUCT && may_mark && !blobc_field_may_be_none(fd))
                    idx |= TS_MEMBER_ALWAYS;
                if (!st) e->fields[e->nfields++] = idx;
            }
        } else if (t->kind == BLOBC_KIND_ENUM) {
            if (!push_str(e, t->name)) return blobc_err_nomem(err);
            for (uint32_t v = 0; v < t->nvalues; v++) {
                const char *n = t->values[v].name;
                if (!n || !is_ident(n, strlen(n))) return bad_name(err, "member", n, t->name);
                if (!push_str(e, n)) return blobc_err_nomem(err);
            }
            if (!t->elem || !blobc_kind_is_integer(t->elem->kind))
                return blobc_err(err, BLOBC_EINPUT, "enum %s has no integer base", t->name);
            st = assign(e, t->elem, &idx, err);
            if (!st) e->elem[i] = idx;
        }
    }
    return st;
}

static bool put32(blobc_buffer *b, uint32_t v) {
    uint8_t w[4];
    blobc_st32(w, v);
    return blobc_buf_append(b, w, 4);
}

static bool write_section(const encoder *e, uint32_t schema_name, blobc_buffer *out) {
    size_t sbytes = 0;
    for (size_t i = 0; i < e->nstrs; i++) sbytes += e->strs[i].n + 1;
    if (sbytes > UINT32_MAX - TS_HEADER - 3) return false;
    bool ok = put32(out, (uint32_t)e->nstrs) && put32(out, (uint32_t)sbytes) &&
              put32(out, (uint32_t)e->ntypes) && put32(out, 0) && put32(out, schema_name);
    for (size_t i = 0; ok && i < e->nstrs; i++)
        ok = blobc_buf_append(out, e->strs[i].s, e->strs[i].n) && blobc_buf_putc(out, '\0');
    if (ok) ok = blobc_buf_zeros(out, (4 - sbytes % 4) % 4);
    size_t fi = 0;
    for (size_t i = 0; ok && i < e->ntypes; i++) {
        const blobc_type *t = e->types[i];
        ok = put32(out, ts_code(t));
        switch (t->kind) {
        case BLOBC_KIND_ARRAY:
        case BLOBC_KIND_PTR: ok = ok && put32(out, e->elem[i]); break;
        case BLOBC_KIND_FIXED: ok = ok && put32(out, e->elem[i]) && put32(out, t->count); break;
        case BLOBC_KIND_ENUM:
            ok = ok && put32(out, str_index(e, t->name)) && put32(out, e->elem[i]) &&
                 put32(out, t->nvalues);
            for (uint32_t v = 0; ok && v < t->nvalues; v++) {
                const blobc_enum_value *ev = &t->values[v];
                ok = put32(out, str_index(e, ev->name)) && put32(out, (uint32_t)ev->value) &&
                     put32(out, (uint32_t)(ev->value >> 32));
            }
            break;
        case BLOBC_KIND_STRUCT:
        case BLOBC_KIND_UNION: /* a union's members: (its struct's name, *Struct) */
            ok = ok && put32(out, str_index(e, t->name)) && put32(out, t->align_attr) &&
                 put32(out, t->nfields);
            if (t->key) ok = ok && put32(out, t->key - 1);
            for (uint32_t f = 0; ok && f < t->nfields; f++)
                ok = put32(out, str_index(e, t->fields[f].name)) && put32(out, e->fields[fi++]);
            break;
        default: break;
        }
    }
    return ok;
}

static void encoder_free(encoder *e) {
    free(e->types);
    free(e->elem);
    free(e->fields);
    map_free(&e->by_ptr);
    map_free(&e->by_key);
    free(e->strs);
    free(e->chain);
}

static bool put64(blobc_buffer *b, uint64_t v) {
    uint8_t w[8];
    blobc_st64(w, v);
    return blobc_buf_append(b, w, 8);
}

/* A field's default as the bake stores it: the value's bits (a float's
 * as the double it is held in), a string's bytes; a union's is null. */
static bool put_default(const blobc_field *f, blobc_buffer *out) {
    const blobc_default *d = &f->def;
    if (!blobc_buf_putc(out, d->present ? 1 : 0)) return false;
    if (!d->present || f->type->kind == BLOBC_KIND_UNION) return true;
    if (f->type->kind == BLOBC_KIND_STRING)
        return put64(out, d->str_len) && blobc_buf_append(out, d->str, d->str_len);
    uint64_t v = d->bits;
    if (f->type->kind == BLOBC_KIND_F32 || f->type->kind == BLOBC_KIND_F64) memcpy(&v, &d->f, 8);
    return put64(out, v);
}

/* An old name (@was): which names a bake accepts. */
static bool put_was(const char *was, blobc_buffer *out) {
    size_t n = was ? strlen(was) : 0;
    return blobc_buf_putc(out, was ? 1 : 0) && (!was || (put64(out, n) && blobc_buf_append(out, was, n)));
}

/* What the section leaves out but a bake reads: every field's default and
 * old name, struct and union records in the section's order, and every
 * enum member's old name. */
static bool write_defaults(const encoder *e, blobc_buffer *out) {
    bool ok = true;
    for (size_t i = 0; ok && i < e->ntypes; i++) {
        const blobc_type *t = e->types[i];
        if (t->kind == BLOBC_KIND_ENUM)
            for (uint32_t v = 0; ok && v < t->nvalues; v++) ok = put_was(t->values[v].was, out);
        if (t->kind != BLOBC_KIND_STRUCT && t->kind != BLOBC_KIND_UNION) continue;
        for (uint32_t f = 0; ok && f < t->nfields; f++)
            ok = put_default(&t->fields[f], out) && put_was(t->fields[f].was, out);
    }
    return ok;
}

/* The type section into out, and with `defaults` the defaults after it;
 * *section_len (may be NULL) gets the section's length. */
static blobc_status encode(const char *fn, const blobc_type *root, const char *schema_name,
                           bool defaults, blobc_buffer *out, size_t *section_len,
                           blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!root) return blobc_err_arg(err, fn, "root is NULL");
    if (!out) return blobc_err_arg(err, fn, "out is NULL");
    if (root->kind != BLOBC_KIND_STRUCT)
        return blobc_err(err, BLOBC_EINPUT, "the root type must be a struct");
    if (schema_name) {
        size_t n = strlen(schema_name);
        if (n > TS_MAX_SCHEMA_NAME || !blobc_utf8_valid((const uint8_t *)schema_name, n))
            return blobc_err(err, BLOBC_EINPUT,
                             "schema name cannot be embedded: it must be valid UTF-8 of at "
                             "most %u bytes",
                             TS_MAX_SCHEMA_NAME);
    }
    encoder e;
    memset(&e, 0, sizeof e);
    if (!map_init(&e.by_ptr, 64) || !map_init(&e.by_key, 64)) {
        encoder_free(&e);
        return blobc_err_nomem(err);
    }
    blobc_status st = number_types(&e, root, err);
    if (!st && schema_name && !push_str(&e, schema_name)) st = blobc_err_nomem(err);
    if (!st) {
        if (e.nstrs) qsort(e.strs, e.nstrs, sizeof *e.strs, cmp_enc_str);
        size_t n = 0;
        for (size_t i = 0; i < e.nstrs; i++)
            if (n == 0 || cmp_enc_str(&e.strs[n - 1], &e.strs[i]) != 0) e.strs[n++] = e.strs[i];
        e.nstrs = n;
        uint32_t sn = schema_name ? str_index(&e, schema_name) : TS_NONE;
        size_t start = out->len;
        bool ok = write_section(&e, sn, out);
        if (ok && section_len) *section_len = out->len - start;
        if (!ok || (defaults && !write_defaults(&e, out))) {
            out->len = start;
            st = blobc_err_nomem(err);
        }
    }
    encoder_free(&e);
    return st;
}

blobc_status blobc_types_encode(const blobc_type *root, const char *schema_name,
                                blobc_buffer *out, blobc_error *err) {
    return encode(__func__, root, schema_name, false, out, NULL, err);
}

blobc_status blobc_types_describe(const blobc_type *root, const char *schema_name,
                                  blobc_buffer *out, size_t *section_len, blobc_error *err) {
    return encode(__func__, root, schema_name, true, out, section_len, err);
}

/* ================= decoding ================= */

typedef struct decoder {
    const uint8_t *p;
    size_t len;
    uint32_t nstrs, ntypes;
    char **names;          /* decoded strings, in the schema's arena */
    uint8_t *ident;        /* per string: a valid identifier */
    uint32_t *stamp;       /* per string: last record whose members used it, + 1 */
    uint8_t *named_used;   /* per string: names a struct or enum already */
    uint32_t *rec;         /* per record: byte offset in the section */
    blobc_type **obj;      /* per record: the object (NULL for builtins) */
    const blobc_type **type; /* per record: what references resolve to */
    map anon;
    blobc_schema *s;
} decoder;

static blobc_status bad(blobc_error *err, size_t off, const char *fmt, ...) BLOBC_PRINTF(3, 4);

static blobc_status bad(blobc_error *err, size_t off, const char *fmt, ...) {
    char msg[BLOBC_ERROR_MSG_MAX - 32];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (err) {
        err->code = BLOBC_V_BAD_TYPES;
        blobc_err_offset(err, off);
    }
    return blobc_err(err, BLOBC_EINPUT, "type section: %s", msg);
}

static uint32_t word(const decoder *d, size_t off) { return blobc_ld32(d->p + off); }

/* Number of 32-bit words a record of `kind` has, reading its counts; 0
 * when the kind is unknown or the record does not fit in `avail` words. */
static size_t record_words(const decoder *d, size_t off, size_t avail) {
    uint32_t kind = word(d, off);
    size_t head, per = 0, count = 0;
    if (kind >= BLOBC_KIND_BOOL && kind <= BLOBC_KIND_F64) head = 1;
    else if (kind == BLOBC_KIND_STRING) head = 1;
    else if (kind == BLOBC_KIND_ARRAY || kind == BLOBC_KIND_PTR || kind == TS_REF) head = 2;
    else if (kind == TS_KEYED) {
        head = 5;
        per = 2;
    }
    else if (kind == BLOBC_KIND_FIXED) head = 3;
    else if (kind == BLOBC_KIND_ENUM || kind == BLOBC_KIND_STRUCT || kind == BLOBC_KIND_UNION) {
        head = 4;
        per = kind == BLOBC_KIND_ENUM ? 3 : 2;
    } else return 0;
    if (head > avail) return 0;
    if (per) {
        count = word(d, off + 12);
        if (count > (avail - head) / per) return 0;
    }
    return head + count * per;
}

/* Walks the string table: NUL-terminated UTF-8, strictly increasing. */
static blobc_status read_strings(decoder *d, size_t sbytes, blobc_error *err) {
    size_t off = TS_HEADER, end = TS_HEADER + sbytes;
    const char *prev = NULL;
    size_t prev_n = 0;
    for (uint32_t i = 0; i < d->nstrs; i++) {
        const uint8_t *z = memchr(d->p + off, 0, end - off);
        if (!z) return bad(err, off, "string %u runs past the end of the string table", i);
        size_t n = (size_t)(z - (d->p + off));
        const char *str = (const char *)d->p + off;
        if (n > TS_MAX_SCHEMA_NAME)
            return bad(err, off, "string %u is %zu bytes, more than %u", i, n,
                       TS_MAX_SCHEMA_NAME);
        if (!blobc_utf8_valid(d->p + off, n))
            return bad(err, off, "string %u is not valid UTF-8", i);
        if (prev && cmp_bytes(prev, prev_n, str, n) >= 0)
            return bad(err, off, "string %u does not sort after string %u", i, i - 1);
        d->names[i] = blobc_arena_strndup(&d->s->arena, str, n);
        if (!d->names[i]) return blobc_err_nomem(err);
        d->ident[i] = is_ident(str, n);
        prev = str;
        prev_n = n;
        off += n + 1;
    }
    if (off != end)
        return bad(err, off, "%zu bytes after the last string of the string table", end - off);
    return BLOBC_OK;
}

/* A name reference: a string index that is an identifier. */
static blobc_status name_at(decoder *d, size_t off, uint32_t rec, const char **name,
                            blobc_error *err) {
    uint32_t i = word(d, off);
    if (i >= d->nstrs)
        return bad(err, off, "type %u: name %u is not a string index (%u strings)", rec, i,
                   d->nstrs);
    if (!d->ident[i])
        return bad(err, off, "type %u: name \"%.64s\" is not an identifier", rec, d->names[i]);
    *name = d->names[i];
    return BLOBC_OK;
}

/* A member (field or enum value) name, unique within record `rec`. */
static blobc_status member_name_at(decoder *d, size_t off, uint32_t rec, const char **name,
                                   blobc_error *err) {
    blobc_status st = name_at(d, off, rec, name, err);
    if (st) return st;
    uint32_t i = word(d, off);
    if (d->stamp[i] == rec + 1)
        return bad(err, off, "type %u: \"%s\" is declared twice", rec, *name);
    d->stamp[i] = rec + 1;
    return BLOBC_OK;
}

static blobc_status type_ok(decoder *d, size_t off, uint32_t rec, uint32_t idx, blobc_error *err);

static blobc_status type_at(decoder *d, size_t off, uint32_t rec, uint32_t *idx,
                            blobc_error *err) {
    *idx = word(d, off);
    return type_ok(d, off, rec, *idx, err);
}

static blobc_status type_ok(decoder *d, size_t off, uint32_t rec, uint32_t idx, blobc_error *err) {
    if (idx >= d->ntypes)
        return bad(err, off, "type %u refers to type %u; there are %u", rec, idx, d->ntypes);
    return BLOBC_OK;
}

static blobc_kind kind_of(const decoder *d, uint32_t idx) {
    return ts_kind(word(d, d->rec[idx]));
}

/* Whether `v` (bits sign-extended for signed kinds) is in range of `kind`. */
static bool fits_int(uint64_t v, blobc_kind kind) {
    unsigned bits = 0;
    switch (kind) {
    case BLOBC_KIND_I8: case BLOBC_KIND_U8: bits = 8; break;
    case BLOBC_KIND_I16: case BLOBC_KIND_U16: bits = 16; break;
    case BLOBC_KIND_I32: case BLOBC_KIND_U32: bits = 32; break;
    default: return true;
    }
    if (!blobc_kind_is_signed(kind)) return v >> bits == 0;
    uint64_t sign = (uint64_t)1 << (bits - 1);
    uint64_t low = v & ((sign << 1) - 1);
    uint64_t ext = (low ^ sign) - sign; /* sign-extend the low bits */
    return ext == v;
}

static blobc_status fill_enum(decoder *d, uint32_t i, blobc_type *t, blobc_error *err) {
    size_t off = d->rec[i];
    uint32_t base;
    blobc_status st = type_at(d, off + 8, i, &base, err);
    if (st) return st;
    blobc_kind bk = kind_of(d, base);
    if (!blobc_kind_is_integer(bk))
        return bad(err, off + 8, "enum %s has base %s, not an integer type", t->name,
                   blobc_kind_name(bk));
    t->elem = blobc_builtin_type(bk);
    t->nvalues = word(d, off + 12);
    if (t->nvalues == 0) return bad(err, off + 12, "enum %s has no members", t->name);
    blobc_enum_value *vals = blobc_arena_array(&d->s->arena, t->nvalues, sizeof *vals);
    if (!vals) return blobc_err_nomem(err);
    for (uint32_t v = 0; v < t->nvalues; v++) {
        size_t m = off + 16 + (size_t)v * 12;
        if ((st = member_name_at(d, m, i, &vals[v].name, err))) return st;
        vals[v].value = (uint64_t)word(d, m + 4) | ((uint64_t)word(d, m + 8) << 32);
        if (!fits_int(vals[v].value, bk))
            return bad(err, m + 4, "enum %s: value of %s is out of range for %s", t->name,
                       vals[v].name, blobc_kind_name(bk));
    }
    t->values = vals;
    return BLOBC_OK;
}

static blobc_status fill_struct(decoder *d, uint32_t i, blobc_type *t, blobc_error *err) {
    size_t off = d->rec[i];
    uint32_t al = word(d, off + 8);
    if (al != 0 && t->kind == BLOBC_KIND_UNION)
        return bad(err, off + 8, "union %s has an alignment attribute", t->name);
    if (al != 0 && (al > BLOBC_MAX_ALIGN || !blobc_is_pow2(al)))
        return bad(err, off + 8, "struct %s: @align(%u) is not a power of two <= %u", t->name,
                   al, BLOBC_MAX_ALIGN);
    t->align_attr = al;
    t->nfields = word(d, off + 12);
    if (t->nfields == 0)
        return bad(err, off + 12, "%s %s has no %s", blobc_kind_name(t->kind), t->name,
                   t->kind == BLOBC_KIND_UNION ? "members" : "fields");
    blobc_field *fs = blobc_arena_array(&d->s->arena, t->nfields, sizeof *fs);
    if (!fs) return blobc_err_nomem(err);
    blobc_status st;
    size_t first = off + (word(d, off) == TS_KEYED ? 20 : 16);
    for (uint32_t f = 0; f < t->nfields; f++) {
        size_t m = first + (size_t)f * 8;
        uint32_t ft;
        if ((st = member_name_at(d, m, i, &fs[f].name, err))) return st;
        uint32_t w = word(d, m + 4);
        bool always = t->kind == BLOBC_KIND_STRUCT && (w & TS_MEMBER_ALWAYS);
        ft = always ? w & ~TS_MEMBER_ALWAYS : w;
        if ((st = type_ok(d, m + 4, i, ft, err))) return st;
        fs[f].type = d->type[ft];
        uint32_t code = word(d, d->rec[ft]);
        bool may_mark = code == BLOBC_KIND_UNION || code == TS_REF;
        if (always && !may_mark)
            return bad(err, m + 4,
                       "struct %s: field %s is marked as a union or reference but is not one",
                       t->name, fs[f].name);
        /* A union or reference field not marked is declared `= null` (and
         * every union field of a section written before the mark existed). */
        if (t->kind == BLOBC_KIND_STRUCT && may_mark && !always) fs[f].def.present = true;
    }
    t->fields = fs;
    if (word(d, off) == TS_KEYED) {
        uint32_t key = word(d, off + 16);
        if (key >= t->nfields)
            return bad(err, off + 16, "struct %s: key field %u of %u", t->name, key, t->nfields);
        t->key = key + 1;
    }
    return BLOBC_OK;
}

static blobc_status fill_anon(decoder *d, uint32_t i, blobc_type *t, blobc_error *err) {
    size_t off = d->rec[i];
    uint32_t elem;
    blobc_status st = type_at(d, off + 4, i, &elem, err);
    if (st) return st;
    /* Forward references between anonymous types could close a cycle
     * ([[[...]]] forever); the encoder numbers elements first. */
    if (blobc_kind_is_anonymous(kind_of(d, elem)) && elem >= i)
        return bad(err, off + 4, "type %u refers forward to anonymous type %u", i, elem);
    uint32_t count = 0;
    if (t->kind == BLOBC_KIND_FIXED) {
        count = word(d, off + 8);
        if (count == 0 || count > BLOBC_MAX_FIXED_COUNT)
            return bad(err, off + 8, "type %u: fixed array count %u out of range", i, count);
    }
    uint32_t code = word(d, off);
    if (code == TS_REF && word(d, d->rec[elem]) != TS_KEYED)
        return bad(err, off + 4, "type %u is a reference to type %u, which is not a keyed struct",
                   i, elem);
    t->ref = code == TS_REF;
    uint32_t found = map_get(&d->anon, anon_key((blobc_kind)code, elem), count);
    if (found) return bad(err, off, "type %u repeats type %u", i, found - 1);
    if (!map_put(&d->anon, anon_key((blobc_kind)code, elem), count, i)) return blobc_err_nomem(err);
    t->elem = d->type[elem];
    t->count = count;
    return BLOBC_OK;
}

static blobc_status decode(decoder *d, const char **schema_name, blobc_error *err) {
    if (d->len < TS_HEADER)
        return bad(err, 0, "%zu bytes, shorter than its %u-byte header", d->len, TS_HEADER);
    d->nstrs = word(d, 0);
    uint32_t sbytes = word(d, 4);
    d->ntypes = word(d, 8);
    uint32_t root = word(d, 12), sname = word(d, 16);
    if (sbytes > d->len - TS_HEADER)
        return bad(err, 4, "string table of %u bytes does not fit in %zu bytes", sbytes,
                   d->len - TS_HEADER);
    if (d->nstrs > sbytes)
        return bad(err, 0, "%u strings cannot fit in %u bytes", d->nstrs, sbytes);
    blobc_arena *a = &d->s->arena;
    d->names = blobc_arena_array(a, d->nstrs, sizeof *d->names);
    d->ident = blobc_arena_array(a, d->nstrs, 1);
    d->stamp = blobc_arena_array(a, d->nstrs, sizeof *d->stamp);
    d->named_used = blobc_arena_array(a, d->nstrs, 1);
    if (!d->names || !d->ident || !d->stamp || !d->named_used) return blobc_err_nomem(err);
    blobc_status st = read_strings(d, sbytes, err);
    if (st) return st;

    size_t tstart = TS_HEADER + (size_t)sbytes;
    size_t pad = (4 - tstart % 4) % 4;
    if (pad > d->len - tstart) return bad(err, tstart, "section ends inside padding");
    for (size_t k = 0; k < pad; k++)
        if (d->p[tstart + k]) return bad(err, tstart + k, "nonzero padding byte");
    tstart += pad;
    size_t nwords = (d->len - tstart) / 4;
    if ((d->len - tstart) % 4)
        return bad(err, d->len, "type records end in a partial word");
    if (d->ntypes == 0 || d->ntypes > nwords)
        return bad(err, 8, "%u types cannot fit in %zu words", d->ntypes, nwords);
    /* Sized by the section: ntypes <= nwords. */
    d->rec = blobc_arena_array(a, d->ntypes, sizeof *d->rec);
    d->obj = blobc_arena_array(a, d->ntypes, sizeof *d->obj);
    d->type = blobc_arena_array(a, d->ntypes, sizeof *d->type);
    if (!d->rec || !d->obj || !d->type || !map_init(&d->anon, d->ntypes))
        return blobc_err_nomem(err);

    /* Pass 1: where each record starts; every record fits. */
    size_t off = tstart;
    for (uint32_t i = 0; i < d->ntypes; i++) {
        size_t left = (d->len - off) / 4;
        size_t n = left ? record_words(d, off, left) : 0;
        if (n == 0) {
            if (!left) return bad(err, off, "type %u is missing (%u declared)", i, d->ntypes);
            uint32_t k = word(d, off);
            if (k < BLOBC_KIND_BOOL || k > TS_KEYED)
                return bad(err, off, "type %u has unknown kind %u", i, k);
            return bad(err, off, "type %u runs past the end of the section", i);
        }
        d->rec[i] = (uint32_t)off;
        off += n * 4;
    }
    if (off != d->len) return bad(err, off, "%zu bytes after the last type", d->len - off);

    /* Pass 2: an object for every record, so references can point anywhere. */
    bool builtin_seen[BLOBC_KIND_COUNT + 1] = {false};
    for (uint32_t i = 0; i < d->ntypes; i++) {
        blobc_kind k = kind_of(d, i);
        if (is_builtin(k)) {
            if (builtin_seen[k]) return bad(err, d->rec[i], "type %u repeats %s", i,
                                            blobc_kind_name(k));
            builtin_seen[k] = true;
            d->type[i] = blobc_builtin_type(k);
            if (!d->type[i]) return bad(err, d->rec[i], "type %u: no builtin %s", i,
                                        blobc_kind_name(k));
            continue;
        }
        d->obj[i] = blobc_arena_alloc(a, sizeof(blobc_type));
        if (!d->obj[i]) return blobc_err_nomem(err);
        d->obj[i]->kind = k;
        d->type[i] = d->obj[i];
    }

    /* Pass 3: fill them in, checking every name, index and count. */
    for (uint32_t i = 0; i < d->ntypes && !st; i++) {
        blobc_type *t = d->obj[i];
        if (!t) continue;
        if (blobc_kind_is_anonymous(t->kind)) {
            st = fill_anon(d, i, t, err);
            continue;
        }
        size_t noff = d->rec[i] + 4;
        if ((st = name_at(d, noff, i, &t->name, err))) break;
        uint32_t si = word(d, noff);
        if (d->named_used[si]) return bad(err, noff, "type %s is declared twice", t->name);
        d->named_used[si] = 1;
        st = t->kind == BLOBC_KIND_ENUM ? fill_enum(d, i, t, err) : fill_struct(d, i, t, err);
        if (!st) st = blobc_schema_add_named(d->s, t, err);
    }
    if (st) return st;

    if (root >= d->ntypes) return bad(err, 12, "root type %u does not exist", root);
    blobc_kind rk = kind_of(d, root);
    if (rk != BLOBC_KIND_STRUCT)
        return bad(err, 12, "root type %u is a %s, not a struct", root, blobc_kind_name(rk));
    d->s->root = d->type[root];
    if (sname != TS_NONE && sname >= d->nstrs)
        return bad(err, 16, "schema name %u is not a string index", sname);
    *schema_name = sname == TS_NONE ? NULL : d->names[sname];

    if ((st = blobc_schema_layout(d->s, err)) != BLOBC_OK) {
        if (st != BLOBC_EINPUT) return st;
        char msg[BLOBC_ERROR_MSG_MAX];
        snprintf(msg, sizeof msg, "%s", err ? err->message : "");
        return bad(err, 0, "%s", msg);
    }
    return BLOBC_OK;
}

blobc_status blobc_types_decode(const void *bytes, size_t len, blobc_schema **schema,
                                const char **schema_name, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!schema) return blobc_err_arg(err, __func__, "schema is NULL");
    *schema = NULL;
    if (!bytes && len) return blobc_err_arg(err, __func__, "len is not 0 but bytes is NULL");
    const char *name = NULL;
    if (schema_name) *schema_name = NULL;
    decoder d;
    memset(&d, 0, sizeof d);
    d.p = bytes;
    d.len = len;
    d.s = blobc_schema_new("");
    if (!d.s) return blobc_err_nomem(err);
    blobc_status st = decode(&d, &name, err);
    map_free(&d.anon);
    if (st) {
        blobc_schema_free(d.s);
        return st;
    }
    *schema = d.s;
    if (schema_name) *schema_name = name;
    return BLOBC_OK;
}
