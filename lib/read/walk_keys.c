/*
 * walk_keys.c - references (&T) and keyed arrays ([T] of a struct with a
 * @key), checked once the walk has placed every payload (docs/FORMAT.md,
 * "Keys and references").
 *
 * A reference places nothing: it may point forward or back into any
 * keyed array, so during the walk it is only recorded; afterwards each is
 * looked up in the table of placed payloads (a binary search), and each
 * keyed array is checked item against next item. Work stays linear: one
 * look-up per reference, one comparison per item, a string key's bytes
 * read at most twice. Where a blob has several keyed arrays, their items
 * are then sorted together to find a key given twice in two of them (one
 * key space per type). A blob that passes can be binary-searched.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "common/scalar.h"
#include "read/walk_internal.h"

typedef struct blobc_wref {
    uint32_t at;      /* the offset field */
    uint32_t target;
    uint32_t tid;     /* the keyed struct's id */
} blobc_wref;

blobc_status blobc_walk_ref(blobc_walk *w, const wop *op, size_t p, blobc_error *err) {
    int32_t off = (int32_t)blobc_ld32(w->data + p);
    if (off == 0 && op->mask == NONE_OK) return BLOBC_OK;
    if (off == 0) {
        char sp[160];
        blobc_walk_spell_tid(w, op->tid, sp, sizeof sp);
        return blobc_walk_fail(w, err, BLOBC_V_REF, p, p,
                               "reference &%s is null, which only a field declared '= null' may be",
                               sp);
    }
    int64_t t = (int64_t)p + off;
    if (t < 0 || (uint64_t)t >= w->size)
        return blobc_walk_fail(w, err, BLOBC_V_OFFSET_RANGE, p, p,
                               "reference target %" PRId64 " is outside the data section", t);
    if (w->nrefs == w->refs_cap &&
        !blobc_grow((void **)&w->refs, &w->refs_cap, w->nrefs + 1, sizeof *w->refs))
        return blobc_err_nomem(err);
    w->refs[w->nrefs++] = (blobc_wref){(uint32_t)p, (uint32_t)t, op->tid};
    return BLOBC_OK;
}

static blobc_status check_ref(blobc_walk *w, const blobc_wref *r, blobc_error *err) {
    const blobc_winfo *in = &w->infos[r->tid];
    char sp[160];
    blobc_walk_spell_tid(w, r->tid, sp, sizeof sp);
    size_t k = blobc_walk_find_containing(w, r->target);
    if (k == SIZE_MAX)
        return blobc_walk_fail(w, err, BLOBC_V_REF, r->at, SIZE_MAX,
                               "reference to 0x%" PRIx64 ", which is in no payload",
                               AT(r->target));
    blobc_wpayload pl = blobc_walk_payload(w, k);
    if (pl.tid != r->tid || ((pl.flags & BLOBC_WP_PTR) && !(pl.flags & BLOBC_WP_MIXED)))
        return blobc_walk_fail(w, err, BLOBC_V_REF, r->at, SIZE_MAX,
                               "reference to 0x%" PRIx64 ", which is not in a keyed [%s]",
                               AT(r->target), sp);
    if ((r->target - pl.start) % in->size != 0)
        return blobc_walk_fail(w, err, BLOBC_V_REF, r->at, SIZE_MAX,
                               "reference to 0x%" PRIx64 ", inside item %u of the [%s] at 0x%" PRIx64
                               " rather than at its start",
                               AT(r->target), (unsigned)((r->target - pl.start) / in->size), sp,
                               AT(pl.start));
    return BLOBC_OK;
}

/* The key of the item at data offset p of keyed struct st (verified). */
static void item_key(const blobc_walk *w, const blobc_type *st, size_t p, uint64_t *bits,
                     const char **s, size_t *n) {
    const blobc_field *kf = &st->fields[st->key - 1];
    const blobc_type *kt = kf->type;
    p += kf->offset;
    *s = NULL;
    *n = 0;
    *bits = 0;
    if (kt->kind == BLOBC_KIND_STRING) {
        int32_t off = (int32_t)blobc_ld32(w->data + p);
        *s = (const char *)w->data + p + off;
        *n = blobc_ld32(w->data + p + 4) - 1;
        return;
    }
    *bits = blobc_load_int(w->data + p, kt->kind == BLOBC_KIND_ENUM ? kt->elem->kind : kt->kind);
}

/* The key kind that orders items of keyed struct st: an enum's base. */
static blobc_kind key_kind(const blobc_type *st) {
    const blobc_type *kt = st->fields[st->key - 1].type;
    return kt->kind == BLOBC_KIND_ENUM ? kt->elem->kind : kt->kind;
}

/* Runs after the entry's key is checked (a string's bytes placed or met
 * before), and the entry before it was: both keys are sound to read. A
 * frame other than the entries' own (a hostile type section that puts an
 * entry inline) has no entry before. */
blobc_status blobc_walk_map_key(blobc_walk *w, const wop *op, size_t p, blobc_error *err) {
    const blobc_wframe *f = &w->frames[w->nframes - 1];
    if (f->tid != op->tid || f->i == 0) return BLOBC_OK;
    const blobc_winfo *in = &w->infos[op->tid];
    uint64_t a, b;
    const char *as, *bs;
    size_t an, bn;
    item_key(w, in->type, p - in->size, &a, &as, &an);
    item_key(w, in->type, p, &b, &bs, &bn);
    int c = blobc_key_cmp(key_kind(in->type), a, as, an, b, bs, bn);
    if (c < 0) return BLOBC_OK;
    if (c == 0)
        return blobc_walk_fail(w, err, BLOBC_V_KEY_ORDER, p, p,
                               "map entry %" PRIu32 " has the key of the entry before it (a key "
                               "is given once)",
                               f->i);
    return blobc_walk_fail(w, err, BLOBC_V_KEY_ORDER, p, p,
                           "map entry %" PRIu32 " has a key that sorts before the entry before it "
                           "(entries are sorted by key)",
                           f->i);
}

static blobc_status check_sorted(blobc_walk *w, const blobc_wpayload *pl, blobc_error *err) {
    const blobc_winfo *in = &w->infos[pl->tid];
    const blobc_type *st = in->type;
    blobc_kind kind = key_kind(st);
    uint64_t a = 0, b = 0;
    const char *as = NULL, *bs = NULL;
    size_t an = 0, bn = 0;
    for (uint32_t i = 0; i < pl->count; i++) {
        size_t p = pl->start + (size_t)i * in->size;
        item_key(w, st, p, &b, &bs, &bn);
        if (i > 0) {
            int c = blobc_key_cmp(kind, a, as, an, b, bs, bn);
            if (c >= 0)
                return blobc_walk_fail(w, err, BLOBC_V_KEY_ORDER, p, SIZE_MAX,
                                       "item %u of the keyed [%s] at 0x%" PRIx64 " %s",
                                       (unsigned)i, st->name, AT(pl->start),
                                       c == 0 ? "has the key of the item before it"
                                              : "has a key that sorts before the item before it");
        }
        a = b;
        as = bs;
        an = bn;
    }
    return BLOBC_OK;
}

/* One item of a keyed array, for the key space check: its type, its key
 * (a number made to sort as unsigned, or a string's bytes), where it is. */
typedef struct key_item {
    uint32_t tid;
    uint32_t p;
    uint32_t array;   /* the array's start */
    uint64_t u;
    const char *s;
    size_t n;
} key_item;

/* By type, then key; the same key of one type compares equal. */
static int key_item_cmp(const void *va, const void *vb) {
    const key_item *a = va, *b = vb;
    if (a->tid != b->tid) return a->tid < b->tid ? -1 : 1;
    if (a->s) return blobc_key_cmp(BLOBC_KIND_STRING, 0, a->s, a->n, 0, b->s, b->n);
    return (a->u > b->u) - (a->u < b->u);
}

/* Whether the payload is a keyed array (not a lone *T target). */
static bool keyed_array(const blobc_walk *w, const blobc_wpayload *pl) {
    if (pl->tid == STRBYTES || pl->count == 0) return false;
    if ((pl->flags & BLOBC_WP_PTR) && !(pl->flags & BLOBC_WP_MIXED)) return false;
    const blobc_type *st = w->infos[pl->tid].type;
    /* a map's entries: sorted during the walk, each map its own key space */
    return st && st->kind == BLOBC_KIND_STRUCT && st->key && !(st->flags & BLOBC_STRUCT_ENTRY);
}

/* All keyed arrays of one type share one key space: with two or more of
 * a type, their items are sorted together (each array is sorted already)
 * and neighbours compared. O(n log n) in the items, the bytes of a string
 * key read O(log n) times. */
static blobc_status check_key_space(blobc_walk *w, size_t nkeyed, blobc_error *err) {
    key_item *it = malloc((nkeyed ? nkeyed : 1) * sizeof *it);
    if (!it) return blobc_err_nomem(err);
    size_t n = 0;
    for (size_t i = 0; i < w->ntab; i++) {
        blobc_wpayload pl = blobc_walk_payload(w, i);
        if (!keyed_array(w, &pl)) continue;
        const blobc_type *st = w->infos[pl.tid].type;
        blobc_kind kind = key_kind(st);
        uint64_t flip = blobc_kind_is_signed(kind) ? UINT64_C(1) << 63 : 0;
        for (uint32_t j = 0; j < pl.count; j++) {
            key_item *k = &it[n++];
            k->tid = pl.tid;
            k->p = pl.start + j * w->infos[pl.tid].size;
            k->array = pl.start;
            item_key(w, st, k->p, &k->u, &k->s, &k->n);
            k->u ^= flip;
        }
    }
    qsort(it, n, sizeof *it, key_item_cmp);
    blobc_status st = BLOBC_OK;
    for (size_t i = 1; i < n && !st; i++) {
        const key_item *a = &it[i - 1], *b = &it[i];
        if (key_item_cmp(a, b) != 0) continue;
        const char *name = w->infos[b->tid].type->name;
        uint32_t size = w->infos[b->tid].size;
        st = blobc_walk_fail(w, err, BLOBC_V_KEY_ORDER, b->p, SIZE_MAX,
                             "item %u of the keyed [%s] at 0x%" PRIx64 " has the key of item %u of "
                             "the one at 0x%" PRIx64 " (all keyed arrays of %s share one key space)",
                             (unsigned)((b->p - b->array) / size), name, AT(b->array),
                             (unsigned)((a->p - a->array) / size), AT(a->array), name);
    }
    free(it);
    return st;
}

blobc_status blobc_walk_keys_check(blobc_walk *w, blobc_error *err) {
    size_t nkeyed = 0, narrays = 0;
    for (size_t i = 0; i < w->ntab; i++) {
        blobc_wpayload pl = blobc_walk_payload(w, i);
        if (!keyed_array(w, &pl)) continue;
        nkeyed += pl.count;
        narrays++;
        if (pl.count < 2) continue;
        blobc_status s = check_sorted(w, &pl, err);
        if (s) return s;
    }
    if (narrays > 1) {
        blobc_status s = check_key_space(w, nkeyed, err);
        if (s) return s;
    }
    for (size_t i = 0; i < w->nrefs; i++) {
        blobc_status s = check_ref(w, &w->refs[i], err);
        if (s) return s;
    }
    return BLOBC_OK;
}
