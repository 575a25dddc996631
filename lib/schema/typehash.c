/*
 * typehash.c - the layout hashes of many types at once (blobc_type_hashes),
 * as `gen c` needs one per struct.
 *
 * Hashing each type on its own serializes everything reachable from it,
 * so a chain of n nested structs costs n^2/2 type visits. Here a type's
 * serialization is cut out of one that contains it: in the depth-first
 * bytes of an outer type, the bytes of an inner type t are exactly t's
 * own serialization when every back reference inside them points at a
 * type discovered inside them too (numbers then differ by t's number, and
 * are patched). Only what cannot be cut out that way is serialized anew.
 * The bytes are still hashed once per type, as the hash is defined.
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "common/hashtab.h"
#include "schema/schema_internal.h"

/* The smallest back-reference number inside each node's bytes (nodes
 * nest; a sweep over node starts, ends and references in byte order). */
static bool min_refs(const blobc_hash_rec *rec, uint32_t *minref) {
    size_t *open = malloc((rec->nnodes ? rec->nnodes : 1) * sizeof *open);
    if (!open) return false;
    size_t top = 0, r = 0;
    for (size_t i = 0; i <= rec->nnodes; i++) {
        size_t at = i < rec->nnodes ? rec->nodes[i].start : SIZE_MAX;
        for (;;) {
            size_t ref_at = r < rec->nrefs ? rec->refs[r].pos : SIZE_MAX;
            size_t end_at = top ? rec->nodes[open[top - 1]].end : SIZE_MAX;
            if (end_at <= ref_at && end_at <= at && top) {
                size_t done = open[--top];
                if (top && minref[done] < minref[open[top - 1]])
                    minref[open[top - 1]] = minref[done];
            } else if (ref_at < at) {
                if (top && rec->refs[r].target < minref[open[top - 1]])
                    minref[open[top - 1]] = rec->refs[r].target;
                r++;
            } else {
                break;
            }
        }
        if (i < rec->nnodes) {
            minref[i] = UINT32_MAX;
            open[top++] = i;
        }
    }
    free(open);
    return true;
}

/* XXH3-64 of "BLOBCTH1" and node i's bytes with its back references
 * renumbered from 0, i.e. blobc_type_hash of node i's type. */
static bool hash_node(const blobc_hash_rec *rec, size_t i, XXH3_state_t *st, blobc_buffer *scratch,
                      uint64_t *out) {
    const blobc_hash_node *nd = &rec->nodes[i];
    size_t lo = 0, hi = rec->nrefs;
    while (lo < hi) { /* the first reference at or after the node's start */
        size_t mid = lo + (hi - lo) / 2;
        if (rec->refs[mid].pos < nd->start) lo = mid + 1;
        else hi = mid;
    }
    const uint8_t *bytes = rec->bytes.data + nd->start;
    size_t len = nd->end - nd->start;
    if (i && lo < rec->nrefs && rec->refs[lo].pos < nd->end) {
        scratch->len = 0;
        if (!blobc_buf_append(scratch, bytes, len)) return false;
        for (size_t r = lo; r < rec->nrefs && rec->refs[r].pos < nd->end; r++)
            blobc_st32(scratch->data + (rec->refs[r].pos - nd->start),
                       rec->refs[r].target - (uint32_t)i);
        bytes = scratch->data;
    }
    XXH3_64bits_reset(st);
    XXH3_64bits_update(st, "BLOBCTH1", 8);
    XXH3_64bits_update(st, bytes, len);
    *out = XXH3_64bits_digest(st);
    return true;
}

static const blobc_type *named_core(const blobc_type *t) {
    while (t && (t->kind == BLOBC_KIND_FIXED || t->kind == BLOBC_KIND_ARRAY ||
                 t->kind == BLOBC_KIND_PTR))
        t = t->elem;
    return t;
}

/* Requested types by address: the ptrset numbers them in order of first
 * insertion; slot[] maps a number back to the index in `types`. */
typedef struct lookup {
    blobc_ptrset set;
    size_t *slot;
    size_t nslots;
} lookup;

/* The index in `types` of t, SIZE_MAX when t was not requested. */
static size_t find(const lookup *lk, const blobc_type *t) {
    uint32_t num = blobc_ptrset_find(&lk->set, t);
    return num < lk->nslots ? lk->slot[num] : SIZE_MAX;
}

/* The order to serialize in: types nothing refers to first, so that one
 * pass over an outermost type covers what it contains. */
static size_t *outermost_first(const blobc_type *const *types, size_t n, const lookup *lk) {
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    uint8_t *inner = calloc(n ? n : 1, 1);
    bool ok = order && inner;
    for (size_t i = 0; i < n && ok; i++) {
        const blobc_type *t = types[i];
        bool fields = t && (t->kind == BLOBC_KIND_STRUCT || t->kind == BLOBC_KIND_UNION);
        for (uint32_t f = 0; fields && f < t->nfields; f++) {
            const blobc_type *c = named_core(t->fields[f].type);
            size_t at = c ? find(lk, c) : SIZE_MAX;
            if (at != SIZE_MAX && c != t) inner[at] = 1;
        }
    }
    size_t k = 0;
    for (int pass = 0; pass < 2 && ok; pass++)
        for (size_t i = 0; i < n; i++)
            if (inner[i] == pass) order[k++] = i;
    free(inner);
    if (!ok) {
        free(order);
        return NULL;
    }
    return order;
}

/* One side of a batch: the requested types and their lookup. */
typedef struct side {
    const blobc_type *const *types;
    size_t n;
    lookup lk;
} side;

static bool side_init(side *sd, const blobc_type *const *types, size_t n) {
    sd->types = types;
    sd->n = n;
    sd->lk.slot = calloc(n ? n : 1, sizeof(size_t));
    sd->lk.nslots = 0;
    blobc_ptrset_init(&sd->lk.set);
    bool ok = sd->lk.slot != NULL;
    for (size_t i = 0; i < n && ok; i++) {
        uint32_t num;
        int added = blobc_ptrset_add(&sd->lk.set, types[i], &num);
        ok = added >= 0;
        if (added == 1) sd->lk.slot[sd->lk.nslots++] = i;
    }
    return ok;
}

static void side_free(side *sd) {
    free(sd->lk.slot);
    blobc_ptrset_free(&sd->lk.set);
}

/* Whether the serializations are the same bytes with the same requested
 * types at the same places: then every hash taken from one equals the
 * hash taken from the other. */
static bool same_pass(const blobc_hash_rec *x, const side *a, const blobc_hash_rec *y,
                      const side *b, bool *ok) {
    if (x->failed || y->failed) return *ok = false;
    if (x->bytes.len != y->bytes.len || x->nnodes != y->nnodes ||
        memcmp(x->bytes.data, y->bytes.data, x->bytes.len) != 0)
        return false;
    for (size_t i = 0; i < x->nnodes; i++)
        if (find(&a->lk, x->nodes[i].t) != find(&b->lk, y->nodes[i].t)) return false;
    return true;
}

/* Serializes a->types[want] and takes every requested, not yet hashed
 * type that can be cut out of its bytes. With b, *same stays true while
 * b's serializations match a's. */
static bool one_pass(side *a, side *b, size_t want, uint8_t *done, uint64_t *hashes,
                     XXH3_state_t *st, blobc_buffer *scratch, bool *same) {
    blobc_hash_rec rec;
    hashes[want] = blobc_type_hash_rec(a->types[want], &rec);
    done[want] = 1;
    bool ok = true;
    if (b && *same) {
        blobc_hash_rec other;
        blobc_type_hash_rec(b->types[want], &other);
        *same = same_pass(&rec, a, &other, b, &ok);
        blobc_hash_rec_free(&other);
    }
    uint32_t *minref = rec.failed ? NULL : malloc((rec.nnodes ? rec.nnodes : 1) * sizeof *minref);
    ok = ok && minref && min_refs(&rec, minref);
    for (size_t i = 1; i < rec.nnodes && ok; i++) {
        size_t at = find(&a->lk, rec.nodes[i].t);
        if (at != SIZE_MAX && !done[at] && minref[i] >= i) {
            ok = hash_node(&rec, i, st, scratch, &hashes[at]);
            done[at] = 1;
        }
    }
    free(minref);
    blobc_hash_rec_free(&rec);
    return ok;
}

static blobc_status batch(side *a, side *b, uint64_t *hashes, bool *same) {
    size_t n = a->n;
    size_t *order = outermost_first(a->types, n, &a->lk);
    uint8_t *done = calloc(n ? n : 1, 1);
    XXH3_state_t *st = XXH3_createState();
    blobc_buffer scratch = {0};
    bool ok = order && done && st;
    for (size_t k = 0; k < n && ok; k++)
        if (!done[order[k]]) ok = one_pass(a, b, order[k], done, hashes, st, &scratch, same);
    blobc_buffer_free(&scratch);
    if (st) XXH3_freeState(st);
    free(done);
    free(order);
    return ok ? BLOBC_OK : BLOBC_ENOMEM;
}

blobc_status blobc_type_hashes(const blobc_type *const *types, size_t n, uint64_t *hashes) {
    side a;
    blobc_status st = side_init(&a, types, n) ? batch(&a, NULL, hashes, NULL) : BLOBC_ENOMEM;
    side_free(&a);
    return st;
}

blobc_status blobc_type_hashes_same(const blobc_type *const *a, const blobc_type *const *b,
                                    size_t n, uint64_t *hashes, bool *same) {
    side sa, sb;
    *same = true;
    /* Both initialized, so both can be freed whatever happens. */
    bool ok_a = side_init(&sa, a, n), ok_b = side_init(&sb, b, n), ok = ok_a && ok_b;
    blobc_status st = ok ? batch(&sa, &sb, hashes, same) : BLOBC_ENOMEM;
    if (st == BLOBC_OK && !*same) {
        /* Shaped differently (sharing, order): compare the hashes themselves. */
        uint64_t *other = malloc((n ? n : 1) * sizeof *other);
        st = other ? batch(&sb, NULL, other, NULL) : BLOBC_ENOMEM;
        *same = st == BLOBC_OK && memcmp(hashes, other, n * sizeof *other) == 0;
        free(other);
    }
    side_free(&sa);
    side_free(&sb);
    return st;
}
