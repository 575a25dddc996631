/*
 * typesec_decode.c - reads a type section back into a schema. It trusts
 * nothing: every count is checked against the bytes left before
 * allocating, every index against its table, and anything that could make
 * later code loop or recurse without bound (a chain of anonymous types
 * that refers back to itself) is refused. The layout engine then
 * recomputes sizes and offsets and rejects what no schema could declare.
 */
#include "schema/typesec_internal.h"

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
    size_t head, per = 0, count = 0, count_at = 12;
    if (kind >= BLOBC_KIND_BOOL && kind <= BLOBC_KIND_F64) head = 1;
    else if (kind == BLOBC_KIND_STRING || kind == BLOBC_KIND_ANY) head = 1;
    else if (kind == BLOBC_KIND_ARRAY || kind == BLOBC_KIND_PTR || kind == TS_REF ||
             kind == BLOBC_KIND_OPTIONAL)
        head = 2;
    else if (kind == TS_KEYED) {
        head = 5;
        per = 2;
    }
    else if (kind == BLOBC_KIND_FIXED || kind == BLOBC_KIND_MAP) head = 3;
    else if (kind == BLOBC_KIND_ENUM || kind == BLOBC_KIND_STRUCT || kind == BLOBC_KIND_UNION) {
        head = 4;
        per = kind == BLOBC_KIND_ENUM ? 3 : 2;
    } else if (kind == TS_TAGGED) {
        head = 7;
        per = 4;
        count_at = 24;
    } else return 0;
    if (head > avail) return 0;
    if (per) {
        count = word(d, off + count_at);
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

/* A member (field or enum value) name, unique within record `rec`; a
 * struct field's (`key`) may be any non-empty text, the key its data has. */
static blobc_status member_name_at(decoder *d, size_t off, uint32_t rec, bool key,
                                   const char **name, blobc_error *err) {
    uint32_t i = word(d, off);
    blobc_status st = key && i < d->nstrs && d->names[i][0] ? (*name = d->names[i], BLOBC_OK)
                                                             : name_at(d, off, rec, name, err);
    if (st) return st;
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
        if ((st = member_name_at(d, m, i, false, &vals[v].name, err))) return st;
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
    uint32_t flags = al >> TS_FLAGS_SHIFT;
    if (flags & ~TS_STRUCT_FLAGS)
        return bad(err, off + 8, "struct %s: unknown flags 0x%x", t->name, (unsigned)flags);
    t->flags = flags;
    al &= TS_ALIGN_MASK;
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
        if ((st = member_name_at(d, m, i, t->kind == BLOBC_KIND_STRUCT, &fs[f].name, err))) return st;
        uint32_t w = word(d, m + 4);
        bool always = t->kind == BLOBC_KIND_STRUCT && (w & TS_MEMBER_ALWAYS);
        bool anchor = t->kind == BLOBC_KIND_STRUCT && (w & TS_ANCHOR);
        ft = w & ~((always ? TS_MEMBER_ALWAYS : 0) | (anchor ? TS_ANCHOR : 0));
        if (anchor) fs[f].flags = BLOBC_FIELD_ANCHOR;
        if ((st = type_ok(d, m + 4, i, ft, err))) return st;
        fs[f].type = d->type[ft];
        uint32_t code = word(d, d->rec[ft]);
        bool may_mark = code == BLOBC_KIND_UNION || code == TS_TAGGED || code == TS_REF;
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

/* A map record: (key, value), the key a leaf (an integer, an enum, a
 * string) and the value any type an anonymous record's element may be. */
static blobc_status fill_map(decoder *d, uint32_t i, blobc_type *t, blobc_error *err) {
    size_t off = d->rec[i];
    uint32_t key, value;
    blobc_status st = type_at(d, off + 4, i, &key, err);
    if (!st) st = type_at(d, off + 8, i, &value, err);
    if (st) return st;
    blobc_kind kk = kind_of(d, key);
    if (!blobc_kind_is_integer(kk) && kk != BLOBC_KIND_ENUM && kk != BLOBC_KIND_STRING)
        return bad(err, off + 4, "type %u: a map's key is an integer, an enum or a string, not "
                   "%s", i, blobc_kind_name(kk));
    if (blobc_kind_is_anonymous(kind_of(d, value)) && value >= i)
        return bad(err, off + 8, "type %u refers forward to anonymous type %u", i, value);
    uint64_t k = anon_key(BLOBC_KIND_MAP, value);
    uint32_t found = map_get(&d->anon, k, key);
    if (found) return bad(err, off, "type %u repeats type %u", i, found - 1);
    if (!map_put(&d->anon, k, key, i)) return blobc_err_nomem(err);
    if (d->type[i] != t) return BLOBC_OK; /* [string: any]: the shared one */
    return blobc_schema_init_map(d->s, t, d->type[key], d->type[value]) ? BLOBC_OK
                                                                       : blobc_err_nomem(err);
}

static blobc_status fill_anon(decoder *d, uint32_t i, blobc_type *t, blobc_error *err) {
    size_t off = d->rec[i];
    uint32_t elem;
    if (t->kind == BLOBC_KIND_MAP) return fill_map(d, i, t, err);
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
    if (code == BLOBC_KIND_OPTIONAL && kind_of(d, elem) == BLOBC_KIND_OPTIONAL)
        return bad(err, off + 4, "type %u is an optional of an optional", i);
    t->ref = code == TS_REF;
    uint32_t found = map_get(&d->anon, anon_key((blobc_kind)code, elem), count);
    if (found) return bad(err, off, "type %u repeats type %u", i, found - 1);
    if (!map_put(&d->anon, anon_key((blobc_kind)code, elem), count, i)) return blobc_err_nomem(err);
    if (d->type[i] != t) return BLOBC_OK; /* [any]: the shared one */
    t->elem = d->type[elem];
    t->count = count;
    return BLOBC_OK;
}

/* A tagged union's record (TS_TAGGED): name, by, tag field, flags,
 * default, count, then (name, *Struct, tag_lo, tag_hi) per member. What
 * the tags must be (unique, of one sort, the default a member) layout
 * checks, for parsed and decoded unions alike. */
static blobc_status fill_tagged(decoder *d, uint32_t i, blobc_type *t, blobc_error *err) {
    size_t off = d->rec[i];
    uint32_t by = word(d, off + 8), tf = word(d, off + 12), flags = word(d, off + 16);
    if (by != BLOBC_UNION_BY_FIELD && by != BLOBC_UNION_BY_TAG)
        return bad(err, off + 8, "union %s: unknown tagging %u", t->name, by);
    if ((by == BLOBC_UNION_BY_FIELD) != (tf != TS_NONE) || (tf != TS_NONE && tf >= d->nstrs))
        return bad(err, off + 12, "union %s: tag field %u", t->name, tf);
    if (flags & ~(TS_INT_TAGS | TS_OPEN_TAGS)) return bad(err, off + 16, "union %s: unknown flags", t->name);
    if (flags & TS_OPEN_TAGS) t->flags = BLOBC_STRUCT_OPEN;
    t->by = (blobc_union_by)by;
    t->tag_field = tf == TS_NONE ? NULL : d->names[tf];
    t->int_tags = flags & TS_INT_TAGS;
    t->default_member = word(d, off + 20);
    t->nfields = word(d, off + 24);
    if (t->nfields == 0) return bad(err, off + 24, "union %s has no members", t->name);
    blobc_field *fs = blobc_arena_array(&d->s->arena, t->nfields, sizeof *fs);
    if (!fs) return blobc_err_nomem(err);
    for (uint32_t f = 0; f < t->nfields; f++) {
        size_t m = off + 28 + (size_t)f * 16;
        uint32_t ft;
        blobc_status st = member_name_at(d, m, i, false, &fs[f].name, err);
        if (!st) st = type_at(d, m + 4, i, &ft, err);
        if (st) return st;
        fs[f].type = d->type[ft];
        uint64_t tag = (uint64_t)word(d, m + 8) | (uint64_t)word(d, m + 12) << 32;
        if (t->int_tags) {
            fs[f].tag_value = tag;
        } else if (tag >= d->nstrs) {
            return bad(err, m + 8, "union %s: tag %llu is not a string index", t->name,
                       (unsigned long long)tag);
        } else {
            fs[f].tag = d->names[tag];
        }
    }
    t->fields = fs;
    return BLOBC_OK;
}

/* [any] and [string: any] are the objects every schema shares
 * (blobc_any_list_type); NULL for every other record. */
static const blobc_type *shared_type(const decoder *d, uint32_t i) {
    uint32_t code = word(d, d->rec[i]);
    size_t off = d->rec[i];
    bool is_any = code == BLOBC_KIND_ARRAY || code == BLOBC_KIND_MAP;
    uint32_t v = is_any ? word(d, off + (code == BLOBC_KIND_MAP ? 8 : 4)) : TS_NONE;
    is_any = is_any && v < d->ntypes && word(d, d->rec[v]) == BLOBC_KIND_ANY;
    if (is_any && code == BLOBC_KIND_ARRAY) return blobc_any_list_type();
    uint32_t k = is_any ? word(d, off + 4) : TS_NONE;
    if (k < d->ntypes && word(d, d->rec[k]) == BLOBC_KIND_STRING) return blobc_any_map_type();
    return NULL;
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
            if (k < BLOBC_KIND_BOOL || k > TS_LAST_CODE)
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
        d->type[i] = shared_type(d, i);
        if (!d->type[i]) d->type[i] = d->obj[i];
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
        st = t->kind == BLOBC_KIND_ENUM          ? fill_enum(d, i, t, err)
             : word(d, d->rec[i]) == TS_TAGGED ? fill_tagged(d, i, t, err)
                                               : fill_struct(d, i, t, err);
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
