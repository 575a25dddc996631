/*
 * keys.c - keyed arrays and references while baking (docs/SCHEMA.md,
 * "Keys and references").
 *
 * A [S] of a struct S with a @key is sorted by key when it ends, so that
 * readers can binary-search it, and each item joins S's one key space
 * (every keyed [S] of the blob). A reference &S is written as a key; it
 * is recorded pending in the builder and resolved when the document ends,
 * so it may point forward and form cycles. The builder moves a pending
 * reference with its item when an array it lies in is sorted.
 */
#include "bake/bake_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hashtab.h"
#include "common/scalar.h"
#include "common/sort.h"
#include "common/suggest.h"
#include "platform/platform.h"

typedef struct key_val {
    uint64_t bits;         /* integers and enums, sign-extended */
    const char *s;         /* strings (not NUL-terminated in the builder) */
    size_t n;
} key_val;

/* An item of a keyed array, in its type's key space. */
typedef struct key_ent {
    const blobc_type *st;
    key_val key;
    blobc_ref items;       /* the array's allocation */
    uint32_t index;        /* sorted place */
    uint32_t item;         /* place in the document, for messages */
    const char *path;      /* the array's path */
    bk_pos pos;
} key_ent;

typedef struct ref_rec {
    const blobc_type *st;
    key_val key;
    uint32_t id;           /* the builder's pending reference */
    bk_path_mark path;
    bk_pos pos;
} ref_rec;

/* References in chunks that never move: a large document's hundreds of
 * thousands are written once, not copied each time an array doubles.
 * Chunks double from 256 records to 65,536 (5 MiB, on huge pages). */
#define REF_CHUNK_MIN 256
#define REF_CHUNK_MAX 65536
typedef struct ref_chunk {
    struct ref_chunk *next;
    size_t n, cap;
    ref_rec recs[];
} ref_chunk;

/* An item of an open keyed array. */
typedef struct key_item {
    bk_pos pos;
    bool bad;              /* no key of its own (bk_keyed_item_bad) */
} key_item;

typedef struct bk_keys {
    key_ent *ents;
    size_t nents, ents_cap;
    blobc_hashtab tab;     /* (type, key) -> ents */
    ref_chunk *refs, *last_refs; /* in document order */
    bk_path_memo memo;     /* the paths of references */
    key_item *ipos;        /* the items of open keyed arrays */
    size_t nipos, ipos_cap;
    const blobc_type **bad; /* types with an item that has no key of its own */
    size_t nbad, bad_cap;
} bk_keys;

/* For sorting an array's items. */
typedef struct sort_rec {
    key_val key;
    uint32_t item;
    blobc_kind kind;
} sort_rec;

static blobc_status keys_state(bk *k, bk_keys **out) {
    if (!k->keys) {
        k->keys = calloc(1, sizeof *k->keys);
        if (!k->keys) return blobc_err_nomem(k->err);
        blobc_hashtab_init(&k->keys->tab, NULL);
    }
    *out = k->keys;
    return BLOBC_OK;
}

void bk_keys_free(bk *k) {
    bk_keys *ks = k->keys;
    if (!ks) return;
    free(ks->ents);
    free(ks->ipos);
    free(ks->bad);
    bk_path_memo_free(&ks->memo);
    for (ref_chunk *c = ks->refs, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    blobc_hashtab_free(&ks->tab);
    free(ks);
    k->keys = NULL;
}

static const blobc_field *key_field(const blobc_type *st) { return &st->fields[st->key - 1]; }

/* The kind keys of st compare as. */
static blobc_kind key_kind(const blobc_type *st) {
    const blobc_type *kt = key_field(st)->type;
    return kt->kind == BLOBC_KIND_ENUM ? kt->elem->kind : kt->kind;
}

static int key_cmp(blobc_kind kind, const key_val *a, const key_val *b) {
    return blobc_key_cmp(kind, a->bits, a->s, a->n, b->bits, b->s, b->n);
}

/* The key as the data spells it: a number, an enum member, a quoted string. */
static void key_text(const blobc_type *st, const key_val *key, char *buf, size_t cap) {
    const blobc_type *kt = key_field(st)->type;
    if (kt->kind == BLOBC_KIND_STRING) {
        bk_quote(buf, cap, key->s, key->n);
    } else if (kt->kind == BLOBC_KIND_ENUM) {
        const blobc_enum_value *ev = blobc_enum_find_value(kt, key->bits);
        snprintf(buf, cap, "%s", ev ? ev->name : "?");
    } else if (blobc_kind_is_signed(kt->kind)) {
        snprintf(buf, cap, "%lld", (long long)(int64_t)key->bits);
    } else {
        snprintf(buf, cap, "%llu", (unsigned long long)key->bits);
    }
}

static uint64_t key_hash(const blobc_type *st, const key_val *key) {
    uint64_t h = key->s || key_kind(st) == BLOBC_KIND_STRING ? blobc_hash_bytes(key->s, key->n)
                                                            : blobc_hash_u64(key->bits);
    return blobc_hash_u64(h ^ blobc_hash_ptr(st));
}

static const key_ent *key_find(const bk_keys *ks, const blobc_type *st, const key_val *key) {
    blobc_hprobe p;
    blobc_kind kind = key_kind(st);
    for (uint32_t i = blobc_hashtab_first(&ks->tab, key_hash(st, key), &p); i;
         i = blobc_hashtab_next(&ks->tab, &p)) {
        const key_ent *e = &ks->ents[i - 1];
        if (e->st == st && key_cmp(kind, &e->key, key) == 0) return e;
    }
    return NULL;
}

/* ---- keyed arrays ---- */

blobc_status bk_keyed_begin(bk *k, bk_frame *f) {
    bk_keys *ks = NULL;
    blobc_status st = keys_state(k, &ks);
    if (st) return st;
    f->keyed = ks->nipos + 1;
    return BLOBC_OK;
}

blobc_status bk_keyed_item(bk *k, const bk_pos *pos) {
    bk_keys *ks = k->keys;
    if (!blobc_grow((void **)&ks->ipos, &ks->ipos_cap, ks->nipos + 1, sizeof *ks->ipos))
        return blobc_err_nomem(k->err);
    ks->ipos[ks->nipos++] = (key_item){*pos, false};
    return BLOBC_OK;
}

void bk_keyed_item_bad(bk *k) {
    if (k->keys && k->keys->nipos) k->keys->ipos[k->keys->nipos - 1].bad = true;
}

static bool has_bad_item(const bk_keys *ks, const blobc_type *st) {
    for (size_t i = 0; i < ks->nbad; i++)
        if (ks->bad[i] == st) return true;
    return false;
}

static int cmp_sort_rec(const void *x, const void *y) {
    const sort_rec *a = x, *b = y;
    int c = key_cmp(a->kind, &a->key, &b->key);
    if (c) return c;
    return (a->item > b->item) - (a->item < b->item);
}

/* Integer keys sorted without a comparison callback, stably, so equal
 * keys stay in document order as cmp_sort_rec keeps them. A signed key's
 * sign bit is flipped so the unsigned order of the bits is the signed
 * order of the keys. */
static bool sort_int_keys(sort_rec *v, size_t n, blobc_kind kind) {
    uint64_t flip = blobc_kind_is_signed(kind) ? UINT64_C(1) << 63 : 0;
    blobc_sort_rec *a = malloc(n * sizeof *a);
    if (!a) return false;
    for (size_t i = 0; i < n; i++) a[i] = (blobc_sort_rec){v[i].key.bits ^ flip, v[i].item};
    bool ok = blobc_sort_by_key(a, n);
    for (size_t i = 0; ok && i < n; i++) {
        v[i].key.bits = a[i].key ^ flip;
        v[i].item = a[i].idx;
    }
    free(a);
    return ok;
}

/* The items in key order, equal keys in document order. */
static blobc_status sort_keys(bk *k, sort_rec *v, size_t n) {
    if (v[0].kind == BLOBC_KIND_STRING) {
        qsort(v, n, sizeof *v, cmp_sort_rec);
        return BLOBC_OK;
    }
    return sort_int_keys(v, n, v[0].kind) ? BLOBC_OK : blobc_err_nomem(k->err);
}

/* The keys of an open keyed array's n items, from the builder's memory. */
static blobc_status read_keys(bk *k, const bk_frame *f, sort_rec *v, size_t n) {
    const blobc_type *st = f->type->elem;
    const blobc_field *kf = key_field(st);
    blobc_kind kind = key_kind(st);
    const uint8_t *mem = blobc_builder_ptr(k->b, f->items);
    blobc_ref *targets = NULL;
    if (kind == BLOBC_KIND_STRING) {
        targets = malloc(n * sizeof *targets);
        if (!targets) return blobc_err_nomem(k->err);
        if (blobc_builder_item_targets(k->b, f->items, st->size, kf->offset, n, targets)) {
            free(targets);
            return bk_fail_builder(k, &f->pos);
        }
    }
    for (size_t i = 0; i < n; i++) {
        memset(&v[i], 0, sizeof v[i]);
        v[i].item = (uint32_t)i;
        v[i].kind = kind;
        if (kind != BLOBC_KIND_STRING) {
            v[i].key.bits = blobc_load_int(mem + i * st->size + kf->offset, kind);
        } else if (targets[i] != UINT32_MAX) {
            v[i].key.s = blobc_builder_ptr(k->b, targets[i]);
            v[i].key.n = blobc_builder_size(k->b, targets[i]) - 1; /* less the NUL */
        }
    }
    free(targets);
    return BLOBC_OK;
}

/* "items[3]" or "/items/3": item i of the array at `path`. */
static void item_path(const bk *k, const char *path, uint32_t i, char *buf, size_t cap) {
    snprintf(buf, cap, k->json ? "%s/%u" : "%s[%u]", path, (unsigned)i);
}

/* " (at FILE:3:5)". A JSON position is an offset: the front end turns it
 * into a line and column, through k->err, which the error about to be
 * reported clears anyway. */
static void line_text(bk *k, const bk_pos *pos, char *buf, size_t cap) {
    char at[BLOBC_PLACE_BUF];
    uint32_t line = pos->line, col = pos->col;
    if (!line && k->locate && k->err) {
        k->locate(k, pos);
        line = k->err->line;
        col = k->err->column;
    }
    if (line) snprintf(buf, cap, " (at %s)", blobc_place(at, sizeof at, k->filename, line, col));
    else buf[0] = '\0';
}

static blobc_status duplicate(bk *k, const blobc_type *st, const key_val *key, const char *path,
                              uint32_t item, const bk_pos *pos, const key_ent *first) {
    char kt[120], there[600], line[BLOBC_PLACE_BUF + 8];
    key_text(st, key, kt, sizeof kt);
    item_path(k, first->path, first->item, there, sizeof there);
    line_text(k, &first->pos, line, sizeof line);
    blobc_status s = bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                             "duplicate key %s of %s: %s has it too%s (all keyed arrays of %s "
                             "share one key space)",
                             kt, st->name, there, line, st->name);
    if (k->err) item_path(k, path, item, k->err->path, sizeof k->err->path);
    return bk_soft(k, s);
}

static blobc_status add_entry(bk *k, const key_ent *e) {
    bk_keys *ks = k->keys;
    if (ks->nents >= UINT32_MAX - 1 ||
        !blobc_grow((void **)&ks->ents, &ks->ents_cap, ks->nents + 1, sizeof *ks->ents) ||
        !blobc_hashtab_add(&ks->tab, key_hash(e->st, &e->key), (uint32_t)ks->nents + 1))
        return blobc_err_nomem(k->err);
    ks->ents[ks->nents++] = *e;
    return BLOBC_OK;
}

/* Enters the sorted items into the key space; a key met before (in this
 * array or another) is an error naming both places. */
static blobc_status register_items(bk *k, const bk_frame *f, const sort_rec *v, size_t n,
                                   const char *path, const key_item *ipos) {
    const blobc_type *st = f->type->elem;
    bk_keys *ks = k->keys;
    bool kept = false;
    for (size_t i = 0; i < n; i++) {
        if (ipos[v[i].item].bad) {
            if (!has_bad_item(ks, st) &&
                !blobc_grow((void **)&ks->bad, &ks->bad_cap, ks->nbad + 1, sizeof *ks->bad))
                return blobc_err_nomem(k->err);
            if (!has_bad_item(ks, st)) ks->bad[ks->nbad++] = st;
            continue;
        }
        key_val key = v[i].key;
        if (key.s) {
            char *copy = blobc_arena_strndup(&k->arena, key.s, key.n);
            if (!copy) return blobc_err_nomem(k->err);
            key.s = copy;
        } else if (v[i].kind == BLOBC_KIND_STRING) {
            key.s = "";
        }
        const key_ent *first = key_find(k->keys, st, &key);
        if (first) {
            blobc_status s = duplicate(k, st, &key, path, v[i].item, &ipos[v[i].item].pos, first);
            if (!bk_kept(k, s)) return s;
            kept = true;
            continue;
        }
        key_ent e = {st, key, f->items, (uint32_t)i, v[i].item, path, ipos[v[i].item].pos};
        blobc_status s = add_entry(k, &e);
        if (s) return s;
    }
    return kept ? bk_stop(k, BK_OUT_KEPT) : BLOBC_OK;
}

/* A map's keys are its own: two entries with one key, side by side once
 * sorted, are an error at the later one naming the first. */
static blobc_status map_duplicates(bk *k, const bk_frame *f, const sort_rec *v, size_t n,
                                   const char *map_path, const key_item *ipos) {
    const blobc_type *st = f->type->elem;
    bool kept = false;
    for (size_t i = 1; i < n; i++) {
        if (ipos[v[i].item].bad || ipos[v[i - 1].item].bad ||
            key_cmp(v[i].kind, &v[i - 1].key, &v[i].key) != 0)
            continue;
        char kt[120], line[BLOBC_PLACE_BUF + 8], path[sizeof k->err->path];
        key_text(st, &v[i].key, kt, sizeof kt);
        const char *sep = k->json ? "/" : map_path[0] ? "." : "";
        const char *ks = v[i].key.s ? v[i].key.s : kt;
        size_t kn = v[i].key.s ? v[i].key.n : strlen(kt);
        snprintf(path, sizeof path, "%s%s%.*s", map_path, sep, (int)(kn > 200 ? 200 : kn), ks);
        line_text(k, &ipos[v[i - 1].item].pos, line, sizeof line);
        size_t ll = strlen(line);
        if (ll > 6) line[ll - 1] = '\0'; /* " (at X)" -> "X" */
        blobc_status s = bk_fail(k, BLOBC_EINPUT, &ipos[v[i].item].pos, BK_AT_VALUE, NULL, 0,
                                 "duplicate key %s in a map; the first is at %s", kt,
                                 ll > 6 ? line + 5 : "an earlier entry");
        if (k->err) snprintf(k->err->path, sizeof k->err->path, "%s", path);
        s = bk_soft(k, s);
        if (!bk_kept(k, s)) return s;
        kept = true;
    }
    return kept ? bk_stop(k, BK_OUT_KEPT) : BLOBC_OK;
}

blobc_status bk_keyed_end(bk *k, bk_frame *f, const bk_pos *pos) {
    bk_keys *ks = k->keys;
    size_t start = f->keyed - 1, n = f->count;
    const key_item *ipos = ks->ipos + start;
    blobc_status st = BLOBC_OK;
    if (n == 0) goto done;
    blobc_buffer pb = {0};
    bool is_map = f->kind == BK_MAP;
    /* a map's path is its container's: render without its frame */
    if (is_map) k->depth--;
    bk_render_path(k, &pb);
    if (is_map) k->depth++;
    /* render_path names an array's current item; drop that last part */
    size_t plen = pb.data ? pb.len : 0;
    while (!is_map && plen && ((const char *)pb.data)[plen - 1] != (k->json ? '/' : '[')) plen--;
    if (!is_map && plen) plen--;
    char *path = blobc_arena_strndup(&k->arena, pb.data ? (const char *)pb.data : "", plen);
    blobc_buffer_free(&pb);
    sort_rec *v = malloc(n * sizeof *v);
    uint32_t *perm = malloc(n * sizeof *perm);
    if (!path || !v || !perm) {
        st = blobc_err_nomem(k->err);
    } else if (!(st = read_keys(k, f, v, n)) && !(st = sort_keys(k, v, n))) {
        for (size_t i = 0; i < n; i++) perm[i] = v[i].item;
        if (blobc_builder_permute(k->b, f->items, f->type->elem->size, n, perm))
            st = bk_fail_builder(k, pos);
        else if (f->type->elem->flags & BLOBC_STRUCT_ENTRY)
            st = map_duplicates(k, f, v, n, path, ipos);
        else
            st = register_items(k, f, v, n, path, ipos);
    }
    free(v);
    free(perm);
done:
    ks->nipos = start;
    return st;
}

/* ---- references ---- */

static blobc_status key_type_error(bk *k, const blobc_type *st, const bk_scalar *v,
                                   const bk_pos *pos) {
    char want[300], q[200];
    bk_describe_type(k, key_field(st)->type, want, sizeof want);
    bk_quote(q, sizeof q, v->s, v->n);
    return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                   "expected a key of %s (%s), got %s", st->name, want,
                   v->tok == BK_TOK_JNULL ? "null" : q);
}

/* The key a reference names, checked against the key's type. */
static blobc_status parse_key(bk *k, const blobc_type *st, const bk_scalar *v, const bk_pos *pos,
                              key_val *out) {
    const blobc_type *kt = key_field(st)->type;
    char msg[200];
    memset(out, 0, sizeof *out);
    if (kt->kind == BLOBC_KIND_STRING) {
        /* any scalar, as a string field takes it: a JSON number or
         * true/false is its source text */
        if (v->tok == BK_TOK_JNULL) return key_type_error(k, st, v, pos);
        if (v->has_nul || (v->tok != BK_TOK_JSTRING && memchr(v->s, 0, v->n)) ||
            (v->check_utf8 && !blobc_utf8_valid((const uint8_t *)v->s, v->n)))
            return key_type_error(k, st, v, pos);
        out->s = blobc_arena_strndup(&k->arena, v->s, v->n);
        out->n = v->n;
        return out->s ? BLOBC_OK : blobc_err_nomem(k->err);
    }
    if (kt->kind == BLOBC_KIND_ENUM) {
        const blobc_enum_value *ev =
            (v->tok == BK_TOK_PLAIN || v->tok == BK_TOK_QUOTED || v->tok == BK_TOK_JSTRING) &&
                    !memchr(v->s, 0, v->n)
                ? blobc_enum_find_name(kt, v->s, v->n)
                : NULL;
        if (!ev) return key_type_error(k, st, v, pos);
        out->bits = ev->value;
        return BLOBC_OK;
    }
    if (v->has_u && v->u <= blobc_int_max(kt->kind)) {
        out->bits = v->u;
        return BLOBC_OK;
    }
    if (v->tok != BK_TOK_PLAIN && v->tok != BK_TOK_JNUMBER) return key_type_error(k, st, v, pos);
    blobc_syntax syn = v->tok == BK_TOK_PLAIN ? BLOBC_SYNTAX_YAML : BLOBC_SYNTAX_JSON;
    if (!blobc_parse_int(v->s, v->n, kt->kind, syn, &out->bits, msg, sizeof msg))
        return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0, "%s", msg);
    return BLOBC_OK;
}

static bool add_ref_chunk(bk_keys *ks) {
    size_t cap = !ks->last_refs                        ? REF_CHUNK_MIN
                 : ks->last_refs->cap >= REF_CHUNK_MAX ? REF_CHUNK_MAX
                                                       : ks->last_refs->cap * 2;
    size_t bytes = sizeof(ref_chunk) + cap * sizeof(ref_rec);
    ref_chunk *c = malloc(bytes);
    if (!c) return false;
    blobc_os_advise_huge(c, bytes);
    c->next = NULL;
    c->n = 0;
    c->cap = cap;
    if (ks->last_refs) ks->last_refs->next = c;
    else ks->refs = c;
    ks->last_refs = c;
    return true;
}

blobc_status bk_ref_store(bk *k, const bk_slot *s, const bk_scalar *v, const bk_pos *pos,
                          bool is_null, bool nullable) {
    const blobc_type *st = s->type->elem;
    if (is_null && (nullable || key_field(st)->type->kind != BLOBC_KIND_STRING ||
                          v->tok == BK_TOK_JNULL)) {
        if (nullable) return BLOBC_OK;
        char want[300];
        bk_describe_type(k, s->type, want, sizeof want);
        return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                       "expected %s, got null (null, no element, is allowed only in a field "
                       "declared '= null')",
                       want);
    }
    bk_keys *ks = NULL;
    blobc_status r = keys_state(k, &ks);
    if (r) return r;
    ref_rec rec = {st, {0, NULL, 0}, 0, {NULL, NULL, UINT32_MAX}, *pos};
    if ((r = parse_key(k, st, v, pos, &rec.key))) return r;
    if (blobc_builder_link_pending(k->b, s->ref, s->off, &rec.id)) return bk_fail_builder(k, pos);
    if ((r = bk_path_mark_take(k, &ks->memo, &rec.path))) return r;
    if ((!ks->last_refs || ks->last_refs->n == ks->last_refs->cap) && !add_ref_chunk(ks))
        return blobc_err_nomem(k->err);
    ks->last_refs->recs[ks->last_refs->n++] = rec;
    return BLOBC_OK;
}

static blobc_status dangling(bk *k, const ref_rec *r) {
    char kt[120];
    key_text(r->st, &r->key, kt, sizeof kt);
    const char *sug = NULL;
    blobc_suggest sg;
    char text[120];
    blobc_suggest_init(&sg, kt, strlen(kt));
    /* did-you-mean among the keys of the type (spelled as the data does) */
    for (size_t i = 0; i < k->keys->nents; i++) {
        const key_ent *e = &k->keys->ents[i];
        if (e->st != r->st) continue;
        key_text(e->st, &e->key, text, sizeof text);
        char *c = blobc_arena_strndup(&k->arena, text, strlen(text));
        if (c) blobc_suggest_offer(&sg, c);
    }
    sug = blobc_suggest_best(&sg);
    blobc_status s =
        sug ? bk_fail(k, BLOBC_EINPUT, &r->pos, BK_AT_VALUE, NULL, 0,
                      "no %s has the key %s; did you mean %s?", r->st->name, kt, sug)
            : bk_fail(k, BLOBC_EINPUT, &r->pos, BK_AT_VALUE, NULL, 0,
                      "no %s has the key %s (a reference names an item of a keyed [%s])",
                      r->st->name, kt, r->st->name);
    if (k->err) bk_path_mark_text(k, &r->path, k->err->path, sizeof k->err->path);
    return bk_soft(k, s);
}

static blobc_status resolve_one(bk *k, const ref_rec *r) {
    bk_keys *ks = k->keys;
    const key_ent *e = key_find(ks, r->st, &r->key);
    if (!e && has_bad_item(ks, r->st)) return BLOBC_OK; /* its key may be the one in error */
    if (!e) {
        blobc_status s = dangling(k, r);
        return bk_kept(k, s) ? BLOBC_OK : s;
    }
    if (blobc_builder_resolve(k->b, r->id, e->items, e->index * r->st->size))
        return bk_fail_builder(k, &r->pos);
    return BLOBC_OK;
}

blobc_status bk_refs_resolve(bk *k) {
    blobc_status st = BLOBC_OK;
    for (const ref_chunk *c = k->keys->refs; c && !st; c = c->next)
        for (size_t i = 0; i < c->n && !st; i++) st = resolve_one(k, &c->recs[i]);
    return st;
}
