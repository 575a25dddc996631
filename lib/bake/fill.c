/*
 * fill.c - the part of baking both front ends share: filling
 * structs by field name (unknown and duplicate keys, required fields,
 * defaults), sequences ([T] and [T; N]), pointers, scalars and strings
 * into the builder, and error messages that name the place.
 *
 * Everything here is per value on the hot path, so: a field lookup first
 * tries the field after the previous one (keys usually come in declaration
 * order), duplicate detection is a bitset per open struct, and the path of
 * an error is rendered from the frame stack only when an error happens.
 */
#include "bake/bake_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/scalar.h"
#include "common/suggest.h"

void bk_init(bk *k, const char *filename, const blobc_bake_options *opts, blobc_error *err) {
    memset(k, 0, sizeof *k);
    k->filename = filename;
    k->opts = opts;
    k->err = err;
    k->sink = opts ? opts->diag : NULL;
    blobc_arena_init(&k->arena);
}

void bk_free(bk *k) {
    bk_keys_free(k);
    bk_checks_free(k);
    bk_texts_free(k);
    free(k->fr);
    free(k->defs);
    blobc_ptrset_free(&k->plan_types);
    free(k->plans);
    free(k->bits);
    if (k->b) blobc_builder_free(k->b);
    if (k->owned_schema) blobc_schema_free(k->owned_schema);
    blobc_arena_free(&k->arena);
    blobc_buffer_free(&k->kept);
    memset(k, 0, sizeof *k);
}

void bk_reset(bk *k) {
    const char *filename = k->filename;
    const blobc_bake_options *opts = k->opts;
    blobc_error *err = k->err;
    blobc_status (*resolve_root)(bk *, const bk_pos *) = k->resolve_root;
    bool probe = k->probe, in_order = k->in_order;
    signed char type_key = k->type_key;
    size_t size_hint = k->size_hint, warned = k->warned, warn_skip = k->warn_skip;
    bk_free(k);
    bk_init(k, filename, opts, err);
    k->resolve_root = resolve_root;
    k->probe = probe;
    k->type_key = type_key;
    k->in_order = in_order;
    k->size_hint = size_hint;
    k->warned = warned;
    k->warn_skip = warn_skip;
}

blobc_status bk_resolve_root(bk *k, const bk_pos *pos) {
    k->outcome = BK_OUT_NONE;
    return k->resolve_root(k, pos);
}

/* ---- did you mean ---- */

/* Suggestion for an unknown key among a struct's fields (and the meta keys
 * at the top level); NULL when nothing is close. */
static const char *suggest_field(const blobc_type *st, const char *key, size_t len, bool top) {
    blobc_suggest sg;
    blobc_suggest_init(&sg, key, len);
    for (uint32_t i = 0; i < st->nfields; i++) blobc_suggest_offer(&sg, st->fields[i].name);
    if (top) {
        blobc_suggest_offer(&sg, "$schema");
        blobc_suggest_offer(&sg, "$type");
    }
    return blobc_suggest_best(&sg);
}

/* ---- frames ---- */

blobc_status bk_push_frame(bk *k, const bk_pos *pos, bk_frame **out) {
    if (k->depth >= BK_MAX_DEPTH)
        return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                       "nesting is deeper than %u levels", (unsigned)BK_MAX_DEPTH);
    if (k->depth == k->fr_cap &&
        !blobc_grow((void **)&k->fr, &k->fr_cap, (size_t)k->depth + 1, sizeof *k->fr))
        return blobc_err_nomem(k->err);
    static const bk_frame empty; /* copied, not cleared: no rep stos for 100 bytes */
    bk_frame *f = &k->fr[k->depth++];
    *f = empty;
    /* Field by field: the caller has just stored *pos that way, and one
     * wide load of it would wait for the stores instead of taking their
     * values (a store-forwarding stall, on every container). */
    f->pos.off = pos->off;
    f->pos.line = pos->line;
    f->pos.col = pos->col;
    *out = f;
    return BLOBC_OK;
}

/* The key plan of struct type t, built on first use (in the arena);
 * NULL when out of memory. */
static const bk_keyplan *key_plan(bk *k, const blobc_type *t) {
    size_t slot = ((uintptr_t)t / sizeof *t) % 16;
    if (k->plan_memo[slot].type == t) return k->plan_memo[slot].keys;
    uint32_t num;
    int added = blobc_ptrset_add(&k->plan_types, t, &num);
    if (added < 0) return NULL;
    if (!added) {
        k->plan_memo[slot].type = t;
        k->plan_memo[slot].keys = k->plans[num];
        return k->plans[num];
    }
    if (num >= k->plans_cap &&
        !blobc_grow((void **)&k->plans, &k->plans_cap, (size_t)num + 1, sizeof *k->plans))
        return NULL;
    bk_keyplan *p = blobc_arena_alloc(&k->arena, (t->nfields ? t->nfields : 1) * sizeof *p);
    if (!p) return NULL;
    for (uint32_t i = 0; i < t->nfields; i++) {
        const char *name = t->fields[i].name;
        size_t len = strlen(name);
        uint8_t w[8] = {0}, m[8] = {0};
        for (size_t j = 0; j < 8 && j <= len; j++) {
            w[j] = j < len ? (uint8_t)name[j] : '"';
            m[j] = 0xff;
        }
        memcpy(&p[i].word, w, 8);
        memcpy(&p[i].mask, m, 8);
        p[i].len = (uint32_t)len;
    }
    k->plans[num] = p;
    k->plan_memo[slot].type = t;
    k->plan_memo[slot].keys = p;
    return p;
}

blobc_status bk_open_struct(bk *k, const bk_slot *s, const bk_pos *pos) {
    bool is_union = s->type->kind == BLOBC_KIND_UNION;
    if (s->type->kind != BLOBC_KIND_STRUCT && !is_union) return bk_fail_container(k, s, true, pos);
    /* a union has one key: no seen-field bits */
    size_t words = is_union ? 0 : ((size_t)s->type->nfields + 63) / 64;
    const bk_keyplan *keys = is_union ? NULL : key_plan(k, s->type);
    if (!is_union && !keys) return blobc_err_nomem(k->err);
    if (words > k->bits_cap - k->nbits &&
        !blobc_grow((void **)&k->bits, &k->bits_cap, k->nbits + words, sizeof *k->bits))
        return blobc_err_nomem(k->err);
    bk_frame *f;
    blobc_status st = bk_push_frame(k, pos, &f);
    if (st) return st;
    f->kind = is_union ? BK_UNION : BK_STRUCT;
    f->keys = keys;
    f->type = s->type;
    f->at.type = s->type; /* by field: see push_frame */
    f->at.ref = s->ref;
    f->at.off = s->off;
    f->bits = k->nbits;
    f->tagged = k->tagged == s->type;
    k->tagged = NULL;
    if (words) memset(k->bits + k->nbits, 0, words * sizeof *k->bits);
    k->nbits += words;
    return BLOBC_OK;
}

/* Whether `name` (NUL-terminated) is the len bytes at key. */
static bool name_is(const char *name, const char *key, size_t len) {
    return memchr(key, 0, len) == NULL && strncmp(name, key, len) == 0 && name[len] == '\0';
}

/* The field that was called `key` (@was), or NULL. */
static const blobc_field *renamed_field(const blobc_type *t, const char *key, size_t len) {
    for (uint32_t i = 0; i < t->nfields; i++)
        if (t->fields[i].was && name_is(t->fields[i].was, key, len)) return &t->fields[i];
    return NULL;
}

/* The key of a union's mapping names the member it holds. f->count
 * counts the keys, f->field is the member the first one named (NULL when
 * it named none: that error is reported, and so is no "empty" one). */
/* The one member of a union's mapping is m: its tag stored, its value
 * the slot to fill. */
static blobc_status union_member(bk *k, bk_frame *f, const blobc_field *m, bk_slot *out) {
    f->field = m;
    blobc_st32(bk_ptr(k, &f->at), (uint32_t)(m - f->type->fields) + 1);
    out->type = m->type;
    out->ref = f->at.ref;
    out->off = f->at.off + m->offset;
    f->value = *out;
    return BLOBC_OK;
}

/* A union by YAML tag written with its tag as the one key (JSON). */
static blobc_status tag_key(bk *k, bk_frame *f, const char *key, size_t len, const bk_pos *pos,
                            bk_slot *out) {
    const blobc_type *t = f->type;
    for (uint32_t i = 0; i < t->nfields; i++)
        if (strlen(t->fields[i].tag) == len && memcmp(t->fields[i].tag, key, len) == 0)
            return union_member(k, f, &t->fields[i], out);
    return bk_soft(k, bk_unknown_tag(k, t, key, len, pos));
}

static blobc_status union_key(bk *k, bk_frame *f, const char *key, size_t len, const bk_pos *pos,
                              bk_slot *out) {
    const blobc_type *t = f->type;
    char q[200];
    bk_quote(q, sizeof q, key, len);
    if (f->count++) {
        if (!f->field)
            return bk_soft(k, bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, NULL, 0,
                                      "a union value names exactly one member; %s is a second "
                                      "key (union %s)",
                                      q, t->name));
        return bk_soft(k, bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, NULL, 0,
                                  "a union value names exactly one member, but %s follows \"%s\" "
                                  "(union %s)",
                                  q, f->field->name, t->name));
    }
    if (t->by == BLOBC_UNION_BY_TAG) return tag_key(k, f, key, len, pos, out);
    const blobc_field *m = memchr(key, 0, len) ? NULL : blobc_struct_find_field(t, key, len);
    if (!m && (m = renamed_field(t, key, len)) != NULL)
        bk_warn(k, pos, key, len, "member \"%s\" of union %s is now called \"%s\" (@was)", m->was,
                t->name, m->name);
    if (!m) {
        const char *sug = suggest_field(t, key, len, false);
        char names[300];
        bk_list_names(names, sizeof names, t);
        if (sug)
            return bk_soft(k, bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, NULL, 0,
                                      "unknown member %s of union %s; did you mean \"%s\"?", q,
                                      t->name, sug));
        return bk_soft(k, bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, NULL, 0,
                                  "unknown member %s of union %s (members: %s)", q, t->name,
                                  names));
    }
    return union_member(k, f, m, out);
}

/* A key an @open struct does not name: counted, listed when asked, and
 * its value skipped. */
static blobc_status open_skip(bk *k, const blobc_type *t, const char *key, size_t len,
                              const bk_pos *pos) {
    k->skipped++;
    if (k->opts && k->opts->warn_unknown) {
        char q[200];
        bk_quote(q, sizeof q, key, len);
        bk_warn(k, pos, key, len, "key %s is not read (struct %s is @open)", q, t->name);
    }
    return bk_stop(k, BK_OUT_SKIP);
}

bool bk_field_seen(const bk *k, const char *key, size_t len) {
    const bk_frame *f = bk_top((bk *)k);
    if (!f || f->kind != BK_STRUCT || memchr(key, 0, len)) return false;
    const blobc_field *fld = blobc_struct_find_field(f->type, key, len);
    if (!fld) return false;
    uint32_t i = (uint32_t)(fld - f->type->fields);
    return (k->bits[f->bits + i / 64] >> (i % 64)) & 1;
}

blobc_status bk_struct_key(bk *k, const char *key, size_t len, const bk_pos *pos, bk_slot *out) {
    bk_frame *f = bk_top(k);
    const blobc_type *t = f->type;
    if (f->kind == BK_UNION) return union_key(k, f, key, len, pos, out);
    const blobc_field *fld = NULL;
    if (f->hint < t->nfields && f->keys[f->hint].len == len &&
        memcmp(t->fields[f->hint].name, key, len) == 0)
        fld = &t->fields[f->hint];
    else if (memchr(key, 0, len) == NULL)
        fld = blobc_struct_find_field(t, key, len);
    if (!fld && (fld = renamed_field(t, key, len)) != NULL)
        bk_warn(k, pos, key, len, "field \"%s\" of struct %s is now called \"%s\" (@was)", fld->was,
                t->name, fld->name);
    if (!fld && len == 5 && memcmp(key, "$tags", 5) == 0) return bk_tags_key(k, pos);
    if (!fld && (t->flags & BLOBC_STRUCT_OPEN)) return open_skip(k, t, key, len, pos);
    if (!fld) {
        char q[200];
        bk_quote(q, sizeof q, key, len);
        bool top = k->depth == 1;
        const char *sug = suggest_field(t, key, len, top);
        blobc_status st;
        if (sug) {
            st = bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, key, len,
                         "unknown field %s in struct %s; did you mean \"%s\"?", q, t->name, sug);
        } else if (!top && len > 0 && key[0] == '$') {
            st = bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, key, len,
                         "unknown field %s in struct %s ($schema and $type are only "
                         "allowed at the top level)",
                         q, t->name);
        } else {
            char names[300];
            bk_list_names(names, sizeof names, t);
            st = bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, key, len,
                         "unknown field %s in struct %s (fields: %s)", q, t->name, names);
        }
        return bk_soft(k, st);
    }
    return bk_key_field(k, fld, pos, out);
}

/* A keyed struct's key field: whether an error was counted while its
 * value was read (from its key to the next field's, or the struct's end);
 * `next` is the field beginning now. */
static void key_value_mark(bk *k, bk_frame *f, uint32_t next) {
    if (f->key_errs) f->key_bad |= k->nerrors >= f->key_errs;
    f->key_errs = next + 1 == f->type->key ? k->nerrors + 1 : 0;
}

blobc_status bk_key_field(bk *k, const blobc_field *fld, const bk_pos *pos, bk_slot *out) {
    bk_frame *f = bk_top(k);
    const blobc_type *t = f->type;
    uint32_t i = (uint32_t)(fld - t->fields);
    uint64_t *w = &k->bits[f->bits + i / 64];
    uint64_t m = (uint64_t)1 << (i % 64);
    if (*w & m)
        return bk_soft(k, bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, fld->name,
                                  strlen(fld->name), "duplicate field \"%s\" in struct %s",
                                  fld->name, t->name));
    if (t->key) key_value_mark(k, f, i);
    *w |= m;
    f->count++;
    f->field = fld;
    f->hint = i + 1;
    /* Built in registers and stored twice: copying *out back as a whole
     * right after its parts were stored stalls on store forwarding. */
    bk_slot v = {fld->type, f->at.ref, f->at.off + fld->offset};
    f->value = v;
    *out = v;
    return BLOBC_OK;
}

static blobc_status put_string(bk *k, const bk_slot *s, const char *str, size_t n,
                               const bk_pos *pos, blobc_ref *payload);

blobc_status bk_store_string(bk *k, const bk_slot *s, const char *str, size_t n,
                             const bk_pos *pos, blobc_ref *payload) {
    blobc_status st = k->texts ? bk_translate(k, NULL, &str, &n, pos) : BLOBC_OK;
    if (!st) st = put_string(k, s, str, n, pos, payload);
    return st || !k->checking ? st : bk_check_string(k, str, n, pos);
}

static blobc_status put_string(bk *k, const bk_slot *s, const char *str, size_t n,
                               const bk_pos *pos, blobc_ref *payload) {
    if (n >= 0x7ffffffeu)
        return bk_soft(k, bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                                  "string of %zu bytes is too long (at most 2 GiB)", n));
    blobc_ref r;
    void *mem;
    if (blobc_builder_alloc_linked(k->b, s->ref, s->off, n + 1, 1, &r, &mem) != BLOBC_OK)
        return bk_fail_builder(k, pos);
    if (n) memcpy(mem, str, n);
    blobc_st32(bk_ptr(k, s) + 4, (uint32_t)(n + 1));
    if (payload) *payload = r;
    return BLOBC_OK;
}

static blobc_status apply_default(bk *k, const bk_slot *s, const blobc_field *fld,
                                  const bk_pos *pos) {
    const blobc_default *d = &fld->def;
    blobc_kind kind = s->type->kind;
    if (kind == BLOBC_KIND_STRING) {
        const char *str = d->str;
        size_t n = d->str_len;
        blobc_status st = k->texts ? bk_translate(k, fld, &str, &n, pos) : BLOBC_OK;
        return st ? st : put_string(k, s, str, n, pos, NULL);
    }
    if (kind == BLOBC_KIND_ENUM) kind = s->type->elem->kind;
    if (!blobc_kind_is_scalar(kind)) return BLOBC_OK;
    if (d->bits == 0 && d->f == 0 && !signbit(d->f)) return BLOBC_OK; /* already zero */
    blobc_store_scalar(bk_ptr(k, s), kind, d->bits, d->f);
    return BLOBC_OK;
}

/* A left-out struct: every field its default, the structs it holds
 * walked with a stack of their own (a type may nest BLOBC_MAX_NESTING
 * levels deep; the bake keeps to a small thread stack). */
static blobc_status apply_struct_default(bk *k, const bk_slot *s, const bk_pos *pos) {
    uint32_t n = 0;
    if (!blobc_grow((void **)&k->defs, &k->defs_cap, 1, sizeof *k->defs))
        return blobc_err_nomem(k->err);
    k->defs[n++] = (bk_def_frame){*s, 0};
    while (n) {
        bk_def_frame *top = &k->defs[n - 1];
        const blobc_type *st = top->at.type;
        if (top->next == st->nfields) {
            n--;
            continue;
        }
        const blobc_field *fld = &st->fields[top->next++];
        bk_slot sub = {fld->type, top->at.ref, top->at.off + fld->offset};
        if (fld->def.present) {
            blobc_status r = apply_default(k, &sub, fld, pos);
            if (r) return r;
        } else if (fld->type->kind == BLOBC_KIND_STRUCT) {
            if (!blobc_grow((void **)&k->defs, &k->defs_cap, (size_t)n + 1, sizeof *k->defs))
                return blobc_err_nomem(k->err);
            k->defs[n++] = (bk_def_frame){sub, 0};
        }
    }
    return BLOBC_OK;
}

blobc_status bk_close_struct(bk *k) {
    bk_frame *f = bk_top(k);
    const blobc_type *t = f->type;
    if (f->kind == BK_UNION && !f->count) {
        char want[400];
        bk_describe_type(k, t, want, sizeof want);
        blobc_status st = bk_fail(k, BLOBC_EINPUT, &f->pos, BK_AT_VALUE, NULL, 0,
                                  "expected %s, got %s", want,
                                  k->json ? "an empty object" : "an empty mapping");
        if (!bk_kept(k, bk_soft(k, st))) return st;
        /* kept: the union ends all the same, holding none */
    }
    if (f->kind == BK_UNION) {
        k->depth--;
        return BLOBC_OK;
    }
    if (f->count < t->nfields) {
        const uint64_t *bits = k->bits + f->bits;
        uint32_t missing = 0, first = 0;
        char names[400];
        size_t o = 0;
        names[0] = '\0';
        for (uint32_t i = 0; i < t->nfields; i++) {
            if (bits[i / 64] & ((uint64_t)1 << (i % 64))) continue;
            const blobc_field *fld = &t->fields[i];
            if (fld->def.present) {
                bk_slot s = {fld->type, f->at.ref, f->at.off + fld->offset};
                blobc_status st = apply_default(k, &s, fld, &f->pos);
                if (st) return st;
                continue;
            }
            if (blobc_field_optional(fld)) {
                bk_slot s = {fld->type, f->at.ref, f->at.off + fld->offset};
                blobc_status st = fld->type->kind == BLOBC_KIND_STRUCT
                                      ? apply_struct_default(k, &s, &f->pos)
                                      : BLOBC_OK;
                if (st) return st;
                continue;
            }
            if (missing++ == 0) first = i;
            if (o < sizeof names) {
                int w = snprintf(names + o, sizeof names - o, "%s\"%s\"", missing > 1 ? ", " : "",
                                 fld->name);
                if (w > 0) o += (size_t)w;
            }
        }
        if (missing) {
            char sp[160];
            blobc_type_spell(t->fields[first].type, sp, sizeof sp);
            blobc_status st =
                missing == 1
                    ? bk_fail(k, BLOBC_EINPUT, &f->pos, BK_AT_CONTAINER, NULL, 0,
                              "missing field \"%s\" (%s) in struct %s", t->fields[first].name,
                              sp, t->name)
                    : bk_fail(k, BLOBC_EINPUT, &f->pos, BK_AT_CONTAINER, NULL, 0,
                              "missing fields %s in struct %s", names, t->name);
            if (!bk_kept(k, bk_soft(k, st))) return st;
            /* kept: the struct ends all the same */
        }
    }
    if (t->key) {
        key_value_mark(k, f, UINT32_MAX);
        uint32_t ki = t->key - 1;
        bool seen = (k->bits[f->bits + ki / 64] >> (ki % 64)) & 1;
        const bk_frame *up = k->depth >= 2 ? &k->fr[k->depth - 2] : NULL;
        if ((f->key_bad || (!seen && !t->fields[ki].def.present)) && up && up->keyed && up->type->elem == t)
            bk_keyed_item_bad(k);
    }
    k->nbits = f->bits;
    k->depth--;
    if (k->depth == 0 && k->keys) return bk_refs_resolve(k);
    return BLOBC_OK;
}

/* ---- sequences ---- */

blobc_status bk_open_seq(bk *k, const bk_slot *s, uint32_t known, const bk_pos *pos) {
    const blobc_type *t = s->type;
    if (t->kind == BLOBC_KIND_FIXED) {
        if (known != UINT32_MAX && known != t->count) {
            char sp[160];
            blobc_type_spell(t, sp, sizeof sp);
            return bk_soft(k, bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                                      "expected exactly %u items for %s, got %u",
                                      (unsigned)t->count, sp, (unsigned)known));
        }
    } else if (t->kind != BLOBC_KIND_ARRAY) {
        return bk_fail_container(k, s, false, pos);
    }
    blobc_ref items = 0;
    /* A keyed array's items are sorted in place before it closes: grown. */
    if (bk_is_keyed_array(t)) known = UINT32_MAX;
    /* ... and so are a list's whose items may be left out. */
    if (k->excluding && bk_tagged_items(t)) known = UINT32_MAX;
    if (t->kind == BLOBC_KIND_ARRAY && known != UINT32_MAX && known > 0) {
        size_t size;
        if (!blobc_mul_ok(known, t->elem->size, &size) || size > BLOBC_MAX_DATA_SIZE)
            return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                           "%u items of %u bytes do not fit in a blob (at most 2 GiB - 1)",
                           (unsigned)known, (unsigned)t->elem->size);
        if (blobc_builder_alloc(k->b, size, t->elem->align, &items, NULL) != BLOBC_OK)
            return bk_fail_builder(k, pos);
    }
    bk_frame *f;
    blobc_status st = bk_push_frame(k, pos, &f);
    if (st) return st;
    f->kind = t->kind == BLOBC_KIND_FIXED ? BK_FIXED : BK_ARRAY;
    f->type = t;
    f->at.type = s->type; /* by field: see push_frame */
    f->at.ref = s->ref;
    f->at.off = s->off;
    f->known = known;
    f->items = items;
    if (bk_is_keyed_array(t)) return bk_keyed_begin(k, f);
    return BLOBC_OK;
}

blobc_status bk_item(bk *k, const bk_pos *pos, bk_slot *out) {
    bk_frame *f = bk_top(k);
    const blobc_type *elem = f->type->elem;
    uint32_t esize = elem->size;
    if (f->kind == BK_FIXED) {
        if (f->count >= f->type->count) {
            /* reported at the first item too many; the others are skipped */
            if (f->count++ > f->type->count) return bk_stop(k, BK_OUT_KEPT);
            char sp[160];
            blobc_type_spell(f->type, sp, sizeof sp);
            return bk_soft(k, bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, NULL, 0,
                                      "too many items for %s: it takes exactly %u", sp,
                                      (unsigned)f->type->count));
        }
        out->type = elem;
        out->ref = f->at.ref;
        out->off = f->at.off + f->count * esize;
        f->count++;
        return BLOBC_OK;
    }
    if (f->known != UINT32_MAX) {
        if (f->count >= f->known)
            return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, NULL, 0, "internal error: item count");
    } else {
        if (f->count >= 0x7fffffffu)
            return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, NULL, 0, "too many items");
        if (f->count == 0 && blobc_builder_open(k->b, elem->align, &f->items) != BLOBC_OK)
            return bk_fail_builder(k, pos);
        if (!blobc_builder_grow(k->b, f->items, esize)) return bk_fail_builder(k, pos);
        if (f->keyed) {
            blobc_status st = bk_keyed_item(k, pos);
            if (st) return st;
        }
    }
    out->type = elem;
    out->ref = f->items;
    out->off = f->count * esize;
    f->count++;
    return BLOBC_OK;
}

blobc_status bk_pop_seq(bk *k, const bk_pos *pos, blobc_ref *items, uint32_t *count) {
    bk_frame *f = bk_top(k);
    if (f->kind == BK_FIXED) {
        /* too many items were reported at the first one too many */
        if (f->count < f->type->count) {
            char sp[160];
            blobc_type_spell(f->type, sp, sizeof sp);
            blobc_status st = bk_fail(k, BLOBC_EINPUT, &f->pos, BK_AT_CONTAINER, NULL, 0,
                                      "expected exactly %u items for %s, got %u",
                                      (unsigned)f->type->count, sp, (unsigned)f->count);
            if (!bk_kept(k, bk_soft(k, st))) return st;
        }
        if (count) *count = 0;
        k->depth--;
        return BLOBC_OK;
    }
    if (k->checking) {
        blobc_status st = bk_check_count(k, &f->pos);
        if (st) return st;
    }
    if (f->keyed) {
        blobc_status st = bk_keyed_end(k, f, pos);
        if (st && !bk_kept(k, st)) return st;
    }
    if (f->count > 0) {
        if (f->known == UINT32_MAX && blobc_builder_close(k->b, f->items) != BLOBC_OK)
            return bk_fail_builder(k, pos);
        uint8_t *p = bk_ptr(k, &f->at);
        blobc_st32(p + 4, f->count);
        if (blobc_builder_link(k->b, f->at.ref, f->at.off, f->items) != BLOBC_OK)
            return bk_fail_builder(k, pos);
    }
    if (items) *items = f->items;
    if (count) *count = f->count;
    k->depth--;
    return BLOBC_OK;
}

/* ---- values ---- */

blobc_status bk_deref(bk *k, bk_slot *s, const bk_pos *pos, blobc_ref *target) {
    const blobc_type *elem = s->type->elem;
    blobc_ref r;
    if (blobc_builder_alloc_linked(k->b, s->ref, s->off, elem->size, elem->align, &r, NULL) !=
        BLOBC_OK)
        return bk_fail_builder(k, pos);
    s->type = elem;
    s->ref = r;
    s->off = 0;
    if (target) *target = r;
    return BLOBC_OK;
}

bool bk_is_null(const bk_scalar *v) {
    if (v->tok == BK_TOK_JNULL) return true;
    if (v->tok != BK_TOK_PLAIN) return false;
    switch (v->n) {
    case 0: return true;
    case 1: return v->s[0] == '~';
    case 4:
        return memcmp(v->s, "null", 4) == 0 || memcmp(v->s, "Null", 4) == 0 ||
               memcmp(v->s, "NULL", 4) == 0;
    default: return false;
    }
}

blobc_status bk_link_shared(bk *k, const bk_slot *s, blobc_ref target, uint32_t len,
                            const bk_pos *pos) {
    if (s->type->kind != BLOBC_KIND_PTR) blobc_st32(bk_ptr(k, s) + 4, len);
    if (blobc_builder_link(k->b, s->ref, s->off, target) != BLOBC_OK)
        return bk_fail_builder(k, pos);
    return BLOBC_OK;
}

/* ---- any: a scalar's kind as YAML's core schema and JSON read it ---- */

static bool yaml_bool(const bk_scalar *v, bool *b) {
    static const char *const words[] = {"true", "True", "TRUE", "false", "False", "FALSE"};
    for (size_t i = 0; i < 6; i++)
        if (strlen(words[i]) == v->n && memcmp(words[i], v->s, v->n) == 0) {
            *b = i < 3;
            return true;
        }
    return false;
}

/* A number as an any-value: an integer when it reads as one (i64, or u64
 * from 2^63), else a float; false when it is neither. */
static bool any_number(const bk_scalar *v, uint8_t *body, uint32_t *kind) {
    char msg[160];
    uint64_t bits;
    double d;
    blobc_syntax syn = v->tok == BK_TOK_JNUMBER ? BLOBC_SYNTAX_JSON : BLOBC_SYNTAX_YAML;
    if (blobc_parse_int(v->s, v->n, BLOBC_KIND_I64, syn, &bits, msg, sizeof msg)) {
        *kind = BLOBC_ANY_INT;
    } else if (blobc_parse_int(v->s, v->n, BLOBC_KIND_U64, syn, &bits, msg, sizeof msg)) {
        *kind = BLOBC_ANY_UINT;
    } else if (blobc_parse_float(v->s, v->n, BLOBC_KIND_F64, syn, &d, msg, sizeof msg)) {
        *kind = BLOBC_ANY_FLOAT;
        memcpy(&bits, &d, sizeof bits);
    } else {
        return false;
    }
    blobc_st64(body, bits);
    return true;
}

static blobc_status bk_store_any(bk *k, const bk_slot *s, const bk_scalar *v,
                                 const bk_pos *pos) {
    uint8_t *p = bk_ptr(k, s);
    uint32_t kind;
    bool b;
    if (bk_is_null(v)) return BLOBC_OK; /* kind 0, all zero */
    if (v->tok == BK_TOK_JBOOL || (v->tok == BK_TOK_PLAIN && yaml_bool(v, &b))) {
        if (v->tok == BK_TOK_JBOOL) b = v->s[0] == 't';
        blobc_st32(p, BLOBC_ANY_BOOL);
        blobc_st32(p + BLOBC_ANY_BODY, b);
        return BLOBC_OK;
    }
    if ((v->tok == BK_TOK_JNUMBER || v->tok == BK_TOK_PLAIN) &&
        any_number(v, p + BLOBC_ANY_BODY, &kind)) {
        blobc_st32(p, kind);
        return BLOBC_OK;
    }
    if (v->tok == BK_TOK_JNUMBER)
        return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0, "a number out of range");
    if (v->has_nul || (v->tok != BK_TOK_JSTRING && memchr(v->s, 0, v->n)))
        return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                       "a string cannot contain a NUL character (U+0000)");
    if (v->check_utf8 && !blobc_utf8_valid((const uint8_t *)v->s, v->n))
        return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0, "invalid UTF-8 in a string");
    if (v->n >= 0x7ffffffeu)
        return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                       "string of %zu bytes is too long (at most 2 GiB)", v->n);
    blobc_st32(p, BLOBC_ANY_STRING);
    blobc_st32(p + BLOBC_ANY_BODY + 4, (uint32_t)(v->n + 1));
    blobc_ref r;
    void *mem;
    if (blobc_builder_alloc_linked(k->b, s->ref, s->off + BLOBC_ANY_BODY, v->n + 1, 1, &r, &mem))
        return bk_fail_builder(k, pos);
    if (v->n) memcpy(mem, v->s, v->n);
    return BLOBC_OK;
}


/* JSON float fast path: the reader converted the text exactly already
 * (json_lex.c), so only an infinity (an overflow, which blobc_parse_float
 * reports) or an f32 that double rounding could get wrong needs the slow
 * path. */
static bool json_float_fast(const bk_scalar *v, blobc_kind kind, double *out) {
    double d = v->d;
    if (!isfinite(d)) return false;
    if (kind == BLOBC_KIND_F64) {
        *out = d;
        return true;
    }
    return bk_f32_from_double(d, out);
}

/* YAML float fast path for the common spelling -?(0|[1-9][0-9]*)(.[0-9]+)?
 * with at most 15 significant digits: the digits as an integer and the
 * power of ten are both exact doubles, so one division is correctly
 * rounded (Clinger), the same result strtod gives. Anything else goes to
 * blobc_parse_float. */
static bool yaml_float_fast(const char *s, size_t n, blobc_kind kind, double *out) {
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    size_t i = 0;
    bool neg = false;
    if (i < n && s[i] == '-') {
        neg = true;
        i++;
    }
    size_t start = i;
    uint64_t m = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') m = m * 10 + (uint64_t)(s[i++] - '0');
    size_t idigits = i - start;
    if (idigits == 0 || (idigits > 1 && s[start] == '0')) return false;
    size_t frac = 0;
    if (i < n && s[i] == '.') {
        i++;
        size_t f0 = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') m = m * 10 + (uint64_t)(s[i++] - '0');
        frac = i - f0;
        if (frac == 0) return false;
    }
    if (i != n || idigits + frac > 15) return false;
    double d = (double)m / pow10[frac];
    if (neg) d = -d;
    if (kind == BLOBC_KIND_F64) {
        *out = d;
        return true;
    }
    return bk_f32_from_double(d, out);
}

/* Is s the payload reference of the member a union frame just named?
 * (Its struct must follow: a named member cannot be null.) */
static bool union_member_slot(bk *k, const bk_slot *s) {
    const bk_frame *f = bk_top(k);
    return f && f->kind == BK_UNION && f->count && f->value.ref == s->ref &&
           f->value.off == s->off;
}

/* Is s the current field of the innermost struct, a union or a reference
 * declared `= null`? */
static bool nullable_slot(bk *k, const bk_slot *s) {
    const bk_frame *f = bk_top(k);
    return f && f->kind == BK_STRUCT && f->field && f->field->def.present &&
           f->field->type == s->type && f->value.ref == s->ref && f->value.off == s->off;
}

/* Is v a null for the current field of the innermost struct, one that may
 * be left out (it has a default, or is a struct, a map or an optional)?
 * Then it means the field is left out. A YAML string takes `null` as its
 * text, as it always has; references and unions have nulls of their own. */
static const blobc_field *null_field(bk *k, const bk_slot *s, const bk_scalar *v) {
    const bk_frame *f = bk_top(k);
    if (!f || f->kind != BK_STRUCT || !f->field || f->field->type != s->type ||
        f->value.ref != s->ref || f->value.off != s->off || !bk_is_null(v))
        return NULL;
    blobc_kind kind = s->type->kind;
    if (kind == BLOBC_KIND_PTR || kind == BLOBC_KIND_UNION || kind == BLOBC_KIND_ANY ||
        (kind == BLOBC_KIND_STRING && v->tok != BK_TOK_JNULL))
        return NULL;
    return f->field->def.present || blobc_field_optional(f->field) ? f->field : NULL;
}

static blobc_status store(bk *k, bk_slot *s, const bk_scalar *v, const bk_pos *pos,
                          blobc_ref *payload) {
    char msg[300];
    const blobc_field *left = null_field(k, s, v);
    if (left && left->def.present) return apply_default(k, s, left, pos);
    if (left) return s->type->kind == BLOBC_KIND_STRUCT ? apply_struct_default(k, s, pos) : BLOBC_OK;
    for (;;) {
        const blobc_type *t = s->type;
        blobc_kind kind = t->kind;
        switch (kind) {
        case BLOBC_KIND_PTR: {
            if (t->ref) return bk_ref_store(k, s, v, pos, bk_is_null(v), nullable_slot(k, s));
            if (bk_is_null(v) && !union_member_slot(k, s)) return BLOBC_OK;
            blobc_status st = bk_deref(k, s, pos, NULL);
            if (st) return st;
            continue;
        }
        case BLOBC_KIND_ARRAY:
        case BLOBC_KIND_MAP:
            if (bk_is_null(v)) return BLOBC_OK;
            return bk_type_error(k, t, v, pos, NULL);
        case BLOBC_KIND_OPTIONAL:
            if (bk_is_null(v)) return BLOBC_OK; /* absent: all zero */
            bk_ptr(k, s)[blobc_optional_flag(t)] = 1;
            s->type = t->elem;
            continue;
        case BLOBC_KIND_ANY: return bk_store_any(k, s, v, pos);
        case BLOBC_KIND_UNION:
            if (bk_is_null(v) && (nullable_slot(k, s) || (t->flags & BLOBC_STRUCT_OPEN))) return BLOBC_OK;
            if (bk_is_null(v))
                return bk_type_error(k, t, v, pos,
                                  " (null, no member, is allowed only in a field declared "
                                  "'= null' or an @open union)");
            return bk_type_error(k, t, v, pos, NULL);
        case BLOBC_KIND_STRUCT:
        case BLOBC_KIND_FIXED: return bk_type_error(k, t, v, pos, NULL);
        case BLOBC_KIND_STRING:
            if (v->tok == BK_TOK_JNULL) return bk_type_error(k, t, v, pos, NULL);
            if (v->has_nul || (v->tok != BK_TOK_JSTRING && memchr(v->s, 0, v->n)))
                return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                               "a string cannot contain a NUL character (U+0000)");
            if (v->check_utf8 && !blobc_utf8_valid((const uint8_t *)v->s, v->n))
                return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                               "invalid UTF-8 in a string");
            return bk_store_string(k, s, v->s, v->n, pos, payload);
        case BLOBC_KIND_ENUM: {
            if (v->tok != BK_TOK_PLAIN && v->tok != BK_TOK_QUOTED && v->tok != BK_TOK_JSTRING)
                return bk_type_error(k, t, v, pos, NULL);
            const blobc_enum_value *ev = memchr(v->s, 0, v->n) ? NULL
                                                                 : blobc_enum_find_name(t, v->s, v->n);
            for (uint32_t i = 0; !ev && !memchr(v->s, 0, v->n) && i < t->nvalues; i++)
                if (t->values[i].was && name_is(t->values[i].was, v->s, v->n)) {
                    ev = &t->values[i];
                    bk_warn(k, pos, NULL, 0, "member \"%s\" of enum %s is now called \"%s\" (@was)",
                            ev->was, t->name, ev->name);
                }
            if (!ev) {
                char q[200];
                bk_quote(q, sizeof q, v->s, v->n);
                blobc_suggest sg;
                blobc_suggest_init(&sg, v->s, v->n);
                for (uint32_t i = 0; i < t->nvalues; i++) blobc_suggest_offer(&sg, t->values[i].name);
                const char *best = blobc_suggest_best(&sg);
                if (best)
                    return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                                   "unknown member %s of enum %s; did you mean \"%s\"?", q,
                                   t->name, best);
                char names[300];
                bk_list_names(names, sizeof names, t);
                return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                               "unknown member %s of enum %s (members: %s)", q, t->name, names);
            }
            blobc_store_scalar(bk_ptr(k, s), t->elem->kind, ev->value, 0);
            return BLOBC_OK;
        }
        case BLOBC_KIND_BOOL: {
            if (v->tok != BK_TOK_PLAIN && v->tok != BK_TOK_JBOOL)
                return bk_type_error(k, t, v, pos, NULL);
            bool b;
            if (!blobc_parse_bool(v->s, v->n, &b, msg, sizeof msg))
                return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0, "%s", msg);
            *bk_ptr(k, s) = b ? 1 : 0;
            return BLOBC_OK;
        }
        case BLOBC_KIND_F32:
        case BLOBC_KIND_F64: {
            double d;
            if (v->tok == BK_TOK_JSTRING) {
                /* JSON has no literal for these; the strings stand in. */
                if (v->n == 3 && memcmp(v->s, "inf", 3) == 0) d = HUGE_VAL;
                else if (v->n == 4 && memcmp(v->s, "-inf", 4) == 0) d = -HUGE_VAL;
                else if (v->n == 3 && memcmp(v->s, "nan", 3) == 0) d = NAN;
                else
                    return bk_type_error(k, t, v, pos,
                                      " (JSON writes infinities and NaN as the strings \"inf\", "
                                      "\"-inf\" and \"nan\")");
            } else if (v->tok == BK_TOK_PLAIN || v->tok == BK_TOK_JNUMBER) {
                blobc_syntax syn = v->tok == BK_TOK_PLAIN ? BLOBC_SYNTAX_YAML : BLOBC_SYNTAX_JSON;
                bool fast = v->has_d ? json_float_fast(v, kind, &d)
                                     : yaml_float_fast(v->s, v->n, kind, &d);
                if (!fast && !blobc_parse_float(v->s, v->n, kind, syn, &d, msg, sizeof msg))
                    return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0, "%s", msg);
            } else {
                return bk_type_error(k, t, v, pos, NULL);
            }
            blobc_store_scalar(bk_ptr(k, s), kind, 0, d);
            return BLOBC_OK;
        }
        default: {
            /* integers */
            if (v->has_u && v->u <= blobc_int_max(kind)) {
                blobc_store_scalar(bk_ptr(k, s), kind, v->u, 0);
                return BLOBC_OK;
            }
            if (v->tok != BK_TOK_PLAIN && v->tok != BK_TOK_JNUMBER)
                return bk_type_error(k, t, v, pos, NULL);
            uint64_t bits;
            blobc_syntax syn = v->tok == BK_TOK_PLAIN ? BLOBC_SYNTAX_YAML : BLOBC_SYNTAX_JSON;
            if (!blobc_parse_int(v->s, v->n, kind, syn, &bits, msg, sizeof msg))
                return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0, "%s", msg);
            blobc_store_scalar(bk_ptr(k, s), kind, bits, 0);
            return BLOBC_OK;
        }
        }
    }
}

blobc_status bk_store(bk *k, bk_slot *s, const bk_scalar *v, const bk_pos *pos,
                      blobc_ref *payload) {
    blobc_status st = store(k, s, v, pos, payload);
    if (st == BLOBC_EINPUT) return bk_soft(k, st);
    return st || !k->checking ? st : bk_check_number(k, s, pos);
}
