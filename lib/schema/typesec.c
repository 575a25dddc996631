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
#include "schema/typesec_internal.h"

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
        if (!blobc_type_next(t)) return blobc_err(err, BLOBC_EINPUT, "composite type without an element");
        if (!ensure((void **)&e->chain, &e->chain_cap, depth, sizeof *e->chain))
            return blobc_err_nomem(err);
        e->chain[depth++] = t;
        t = blobc_type_next(t);
    }
    blobc_status st = assign_leaf(e, t, idx, err);
    if (st) return st;
    while (depth) {
        const blobc_type *c = e->chain[--depth];
        uint32_t count = c->kind == BLOBC_KIND_FIXED ? c->count : 0;
        if (c->kind == BLOBC_KIND_MAP) {
            /* A map is numbered after its key (a leaf) and its value;
             * (value, key) is what tells two maps apart. */
            uint32_t value = *idx;
            if ((st = assign_leaf(e, blobc_map_key(c), &count, err))) return st;
            *idx = value;
        }
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

/* The record of a leaf numbered already (a map's key). */
static uint32_t leaf_index(const encoder *e, const blobc_type *t) {
    if (is_builtin(t->kind)) return e->builtin[t->kind] - 1;
    return map_get(&e->by_ptr, (uintptr_t)t, 0) - 1;
}

/* The strings a tagged union's record names: its tag field, its tags. */
static bool push_tags(encoder *e, const blobc_type *t) {
    if (t->tag_field && !push_str(e, t->tag_field)) return false;
    for (uint32_t f = 0; f < t->nfields && !t->int_tags; f++)
        if (t->fields[f].tag && !push_str(e, t->fields[f].tag)) return false;
    return true;
}

/* A struct field's name is the key the data spells it with: an identifier,
 * or any text (a quoted name in the schema, "near clip plane"). */
static bool key_name_ok(const char *s) {
    size_t n = strlen(s);
    return n > 0 && n <= TS_MAX_SCHEMA_NAME && blobc_utf8_valid((const uint8_t *)s, n);
}

/* Whether the string table can hold a tag or tag field (NULL: none). */
static bool tag_fits(const char *s) {
    size_t n = s ? strlen(s) : 0;
    return n <= TS_MAX_SCHEMA_NAME && blobc_utf8_valid((const uint8_t *)(s ? s : ""), n);
}

static blobc_status check_tags(const blobc_type *t, blobc_error *err) {
    bool ok = tag_fits(t->tag_field);
    for (uint32_t f = 0; f < t->nfields; f++) ok = ok && tag_fits(t->fields[f].tag);
    if (ok) return BLOBC_OK;
    return blobc_err(err, BLOBC_EINPUT, "a tag of union %s cannot be embedded: it must be valid "
                     "UTF-8 of at most %u bytes", t->name, TS_MAX_SCHEMA_NAME);
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
            if (t->kind == BLOBC_KIND_UNION && t->by != BLOBC_UNION_BY_KEY) {
                if ((st = check_tags(t, err))) return st;
                if (!push_tags(e, t)) return blobc_err_nomem(err);
            }
            for (uint32_t f = 0; !st && f < t->nfields; f++) {
                const blobc_field *fd = &t->fields[f];
                if (!fd->name || !(t->kind == BLOBC_KIND_STRUCT ? key_name_ok(fd->name)
                                                                : is_ident(fd->name, strlen(fd->name))))
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
                if (!st && t->kind == BLOBC_KIND_STRUCT && (fd->flags & BLOBC_FIELD_ANCHOR))
                    idx |= TS_ANCHOR;
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

/* A tagged union's record after its kind: name, by, tag field, flags,
 * default, count, then (name, *Struct, tag_lo, tag_hi) per member. */
static bool write_tagged(const encoder *e, const blobc_type *t, blobc_buffer *out, size_t *fi) {
    bool ok = put32(out, str_index(e, t->name)) && put32(out, (uint32_t)t->by) &&
              put32(out, t->tag_field ? str_index(e, t->tag_field) : TS_NONE) &&
              put32(out, (t->int_tags ? TS_INT_TAGS : 0) | (t->flags & BLOBC_STRUCT_OPEN ? TS_OPEN_TAGS : 0)) && put32(out, t->default_member) &&
              put32(out, t->nfields);
    for (uint32_t f = 0; ok && f < t->nfields; f++) {
        const blobc_field *m = &t->fields[f];
        uint64_t tag = t->int_tags ? m->tag_value : str_index(e, m->tag);
        ok = put32(out, str_index(e, m->name)) && put32(out, e->fields[(*fi)++]) &&
             put32(out, (uint32_t)tag) && put32(out, (uint32_t)(tag >> 32));
    }
    return ok;
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
        case BLOBC_KIND_PTR:
        case BLOBC_KIND_OPTIONAL: ok = ok && put32(out, e->elem[i]); break;
        case BLOBC_KIND_MAP:
            ok = ok && put32(out, leaf_index(e, blobc_map_key(t))) && put32(out, e->elem[i]);
            break;
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
        case BLOBC_KIND_UNION: /* a one-key union's members: (its struct's name, *Struct) */
        case BLOBC_KIND_STRUCT:
            if (t->kind == BLOBC_KIND_UNION && t->by != BLOBC_UNION_BY_KEY) {
                ok = ok && write_tagged(e, t, out, &fi);
                break;
            }
            ok = ok && put32(out, str_index(e, t->name)) &&
                 put32(out, t->align_attr | (t->flags & TS_STRUCT_FLAGS) << TS_FLAGS_SHIFT) &&
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

/* A field's old name, value checks and whether it is text, which a bake
 * reads too: the old-name byte says (bit 1) whether checks follow, each
 * as it is spelled (the spelling holds every argument), and (bit 2)
 * whether the field is text, so a schema without either is described as
 * before they existed. */
static bool put_field_extras(const blobc_field *f, blobc_buffer *out) {
    size_t n = f->was ? strlen(f->was) : 0;
    char bits = (char)((f->was ? 1 : 0) | (f->nchecks ? 2 : 0) | (f->flags & BLOBC_FIELD_TEXT ? 4 : 0));
    if (!blobc_buf_putc(out, bits) ||
        (f->was && !(put64(out, n) && blobc_buf_append(out, f->was, n))))
        return false;
    if (f->nchecks && !put64(out, f->nchecks)) return false;
    for (uint32_t i = 0; i < f->nchecks; i++) {
        n = strlen(f->checks[i].text);
        if (!put64(out, n) || !blobc_buf_append(out, f->checks[i].text, n)) return false;
    }
    return true;
}

/* The structs' @tags, after everything else and only when some struct
 * has them (a schema without is described as before they existed): a
 * marker, then per such struct its record's index and its tags. */
static bool put_tags(const encoder *e, blobc_buffer *out) {
    bool any = false, ok = true;
    for (size_t i = 0; ok && i < e->ntypes; i++) {
        const blobc_type *t = e->types[i];
        if (t->kind != BLOBC_KIND_STRUCT || !t->ntags) continue;
        if (!any && !(ok = blobc_buf_putc(out, 'T'))) break;
        any = true;
        ok = put64(out, i) && put64(out, t->ntags);
        for (uint32_t g = 0; ok && g < t->ntags; g++) {
            size_t n = strlen(t->tags[g]);
            ok = put64(out, n) && blobc_buf_append(out, t->tags[g], n);
        }
    }
    return ok;
}

/* What the section leaves out but a bake reads: every field's default,
 * old name and checks, struct and union records in the section's order,
 * every enum member's old name, and the structs' @tags. */
static bool write_defaults(const encoder *e, blobc_buffer *out) {
    bool ok = true;
    for (size_t i = 0; ok && i < e->ntypes; i++) {
        const blobc_type *t = e->types[i];
        if (t->kind == BLOBC_KIND_ENUM)
            for (uint32_t v = 0; ok && v < t->nvalues; v++) ok = put_was(t->values[v].was, out);
        if (t->kind != BLOBC_KIND_STRUCT && t->kind != BLOBC_KIND_UNION) continue;
        for (uint32_t f = 0; ok && f < t->nfields; f++)
            ok = put_default(&t->fields[f], out) && put_field_extras(&t->fields[f], out);
    }
    return ok && put_tags(e, out);
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

