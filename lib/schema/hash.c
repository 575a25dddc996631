/*
 * hash.c - the schema hash (docs/FORMAT.md, "Schema hash"): a canonical
 * byte string of a type's layout, hashed with XXH3. Blobs record it, and
 * readers compare it with the layout they were built for.
 */
#include <stdlib.h>
#include <xxhash.h>

#include "common/hashtab.h"
#include "common/kind.h"
#include "schema/names.h"

/* A type whose children are being written. */
typedef struct frame {
    const blobc_type *t;
    uint32_t next;      /* next child to write */
} frame;

typedef struct hash_ctx {
    blobc_buffer out;
    bool ok;
    blobc_ptrset seen;         /* numbered types */
    blobc_hash_rec *rec;       /* where each numbered type's bytes lie, or NULL */
    uint32_t *nums;            /* with rec: the number of each open frame's type */
    size_t numcap;
} hash_ctx;

/* Appends to a growing array of records (nodes, references). */
static void h_push_item(hash_ctx *h, void **v, size_t *n, size_t *cap, size_t elem,
                        const void *item) {
    h->ok = h->ok && blobc_grow(v, cap, *n + 1, elem);
    if (h->ok) memcpy((char *)*v + (*n)++ * elem, item, elem);
}

static void h_u8(hash_ctx *h, uint8_t v) { h->ok = h->ok && blobc_buf_putc(&h->out, (char)v); }
static void h_u32(hash_ctx *h, uint32_t v) {
    uint8_t b[4];
    blobc_st32(b, v);
    h->ok = h->ok && blobc_buf_append(&h->out, b, 4);
}
static void h_u64(hash_ctx *h, uint64_t v) {
    uint8_t b[8];
    blobc_st64(b, v);
    h->ok = h->ok && blobc_buf_append(&h->out, b, 8);
}

static void h_enum_values(hash_ctx *h, const blobc_type *t) {
    const type_lookup *lk = t->lookup;
    h_u32(h, t->nvalues);
    if (lk && lk->sorted) {
        for (uint32_t i = 0; i < t->nvalues; i++) h_u64(h, lk->sorted[i].value);
        return;
    }
    /* Not laid out: sort a copy. */
    value_entry *v = t->nvalues ? malloc(t->nvalues * sizeof *v) : NULL;
    if (t->nvalues && !v) {
        h->ok = false;
        return;
    }
    for (uint32_t i = 0; i < t->nvalues; i++) {
        v[i].value = t->values[i].value;
        v[i].index = i;
    }
    if (v) qsort(v, t->nvalues, sizeof *v, blobc_value_entry_cmp);
    for (uint32_t i = 0; i < t->nvalues; i++) h_u64(h, v[i].value);
    free(v);
}

/* Writes a reference to t; returns true when t's children must follow. */
static bool h_ref(hash_ctx *h, const blobc_type *t) {
    if (!t) {
        h_u8(h, 0);
        return false;
    }
    bool leaf = blobc_kind_is_leaf(t->kind) || !blobc_kind_valid((int)t->kind);
    if (!leaf) {
        uint32_t n;
        int added = blobc_ptrset_add(&h->seen, t, &n);
        if (added < 0) {
            h->ok = false;
            return false;
        }
        if (!added) {
            h_u8(h, 0xFF);
            if (h->rec) {
                blobc_hash_ref r = {h->out.len, n};
                h_push_item(h, (void **)&h->rec->refs, &h->rec->nrefs, &h->rec->refcap, sizeof r, &r);
            }
            h_u32(h, n);
            return false;
        }
        if (h->rec) {
            blobc_hash_node nd = {t, h->out.len, 0};
            h_push_item(h, (void **)&h->rec->nodes, &h->rec->nnodes, &h->rec->nodecap, sizeof nd,
                        &nd);
        }
    }
    /* A reference and a keyed struct have kind codes of their own (19,
     * 20, as in the type section): a blob's readers may binary-search
     * keyed arrays and follow references, so keys and references are
     * part of what the data means. Types without them hash as before. */
    bool ref = t->kind == BLOBC_KIND_PTR && t->ref;
    bool keyed = t->kind == BLOBC_KIND_STRUCT && t->key;
    h_u8(h, ref ? 19 : keyed ? 20 : (uint8_t)t->kind);
    h_u32(h, t->size);
    h_u32(h, t->align);
    switch (t->kind) {
    case BLOBC_KIND_ENUM:
        h_u8(h, t->elem ? (uint8_t)t->elem->kind : 0);
        h_enum_values(h, t);
        if (h->rec && h->ok) h->rec->nodes[h->rec->nnodes - 1].end = h->out.len;
        return false;
    case BLOBC_KIND_STRUCT:
    case BLOBC_KIND_UNION:
        h_u32(h, t->nfields);
        if (keyed) h_u32(h, t->key - 1);
        return true;
    case BLOBC_KIND_FIXED: h_u32(h, t->count); return true;
    case BLOBC_KIND_ARRAY:
    case BLOBC_KIND_PTR:
    case BLOBC_KIND_OPTIONAL:
    case BLOBC_KIND_MAP: return true;
    default: return false;
    }
}

/* Opens a frame for t, whose bytes begin; with a record, its number
 * (the node h_ref just added) goes on a parallel stack. */
static void h_push(hash_ctx *h, frame **stack, size_t *n, size_t *cap, const blobc_type *t) {
    frame fr = {t, 0};
    size_t nn = *n;
    uint32_t num = h->rec ? (uint32_t)(h->rec->nnodes - 1) : 0;
    h_push_item(h, (void **)stack, n, cap, sizeof fr, &fr);
    if (h->rec) h_push_item(h, (void **)&h->nums, &nn, &h->numcap, sizeof num, &num);
}

/* Closes the frame on top: with a record, the end of its type's bytes. */
static void h_pop(hash_ctx *h, size_t *n) {
    (*n)--;
    if (h->rec) h->rec->nodes[h->nums[*n]].end = h->out.len;
}

static uint64_t type_hash(const blobc_type *type, blobc_hash_rec *rec) {
    hash_ctx h;
    memset(&h, 0, sizeof h);
    h.ok = true;
    h.rec = rec;
    frame *stack = NULL;
    size_t n = 0, cap = 0;
    h.ok = blobc_buf_append(&h.out, "BLOBCTH1", 8);
    if (h_ref(&h, type)) h_push(&h, &stack, &n, &cap, type);
    while (h.ok && n) {
        frame *fr = &stack[n - 1];
        const blobc_type *t = fr->t;
        const blobc_type *child;
        if (t->kind == BLOBC_KIND_STRUCT || t->kind == BLOBC_KIND_UNION) {
            if (fr->next >= t->nfields || !t->fields) {
                h_pop(&h, &n);
                continue;
            }
            const blobc_field *f = &t->fields[fr->next++];
            h_u32(&h, f->offset);
            child = f->type;
        } else if (t->kind == BLOBC_KIND_MAP) {
            /* ref(key), then ref(value) */
            if (fr->next >= 2) {
                h_pop(&h, &n);
                continue;
            }
            child = fr->next++ ? blobc_map_value(t) : blobc_map_key(t);
        } else {
            if (fr->next) {
                h_pop(&h, &n);
                continue;
            }
            fr->next = 1;
            child = t->elem;
        }
        if (h_ref(&h, child)) h_push(&h, &stack, &n, &cap, child);
    }
    uint64_t r = h.ok ? XXH3_64bits(h.out.data, h.out.len) : 0;
    if (rec && h.ok) {
        rec->bytes = h.out;
        h.out = (blobc_buffer){0};
    }
    if (rec && !h.ok) rec->failed = true;
    blobc_buffer_free(&h.out);
    blobc_ptrset_free(&h.seen);
    free(stack);
    free(h.nums);
    return r;
}

uint64_t blobc_type_hash(const blobc_type *type) { return type_hash(type, NULL); }

uint64_t blobc_type_hash_rec(const blobc_type *type, blobc_hash_rec *rec) {
    memset(rec, 0, sizeof *rec);
    return type_hash(type, rec);
}

void blobc_hash_rec_free(blobc_hash_rec *rec) {
    blobc_buffer_free(&rec->bytes);
    free(rec->nodes);
    free(rec->refs);
    memset(rec, 0, sizeof *rec);
}
