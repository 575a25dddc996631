/*
 * listing.c - a walked data section listed in file order, part by part:
 * every payload the verifying walk placed (in address order: the walker's
 * table, or for a Unity file its any_sorted list), each element broken
 * down to its fields, the padding between them, each offset field's
 * target, and the gaps between payloads. The map, the size report and the
 * HTML page are three readers of this one listing.
 *
 * A payload's path is the path of the first field seen referring to it;
 * the listing says which reference is the first, and each reader keeps
 * the paths in its own terms (text, or nodes of a tree). A Unity file's
 * payloads are listed by start, which need not put a referrer before what
 * it refers to: a first pass in the walk's order (a referrer's own first)
 * finds the first references.
 *
 * Inline nesting is walked with an explicit stack, so depth costs no C
 * recursion; each part is constant work, so the listing is linear.
 */
#include <stdlib.h>

#include "common/kind.h"
#include "read/listing.h"

typedef struct lister {
    const blobc_walk *w;
    const uint8_t *d;
    size_t size;
    const blobc_layout_ops *ops;
    void *ctx;
    uint32_t *refpos; /* per payload: 1 + data offset of its first reference; 0 unseen */
    size_t cur;       /* payload being listed */
    bool prepass;
    bool ok;
} lister;

typedef struct lframe {
    const blobc_type *t; /* STRUCT, FIXED or OPTIONAL being listed */
    size_t base;
    uint32_t i;          /* next field / item */
    uint32_t at;         /* STRUCT: end of the last field (for padding) */
    uint32_t depth;      /* the aggregate's own */
} lframe;

static void emit(lister *l, blobc_lpart *p) {
    if (!l->ok || (l->prepass && p->kind != BLOBC_L_OFFSET)) return;
    p->prepass = l->prepass;
    l->ok = l->ops->part(l->ctx, p);
}

static void step(lister *l, uint32_t depth, const char *name, uint32_t index) {
    if (l->ok) l->ok = l->ops->step(l->ctx, depth, name, index);
}

static bool all_zero(const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i]) return false;
    return true;
}

/* An offset field: where it leads, and whether this is the first
 * reference to the payload there. */
static void offset_part(lister *l, const blobc_type *t, size_t p, uint32_t depth) {
    blobc_lpart e = {BLOBC_L_OFFSET, depth, p, t->kind == BLOBC_KIND_PTR ? 4 : 8, t, SIZE_MAX,
                     false, false, false, false};
    int32_t off = (int32_t)blobc_ld32(l->d + p);
    int64_t tg = (int64_t)p + off;
    /* a reference (&T) lands on an item and places no payload */
    bool ref = t->kind == BLOBC_KIND_PTR && t->ref;
    if (off != 0 && !ref && tg >= 0 && (uint64_t)tg < l->size) {
        size_t k = blobc_walk_find(l->w, (uint32_t)tg);
        e.payload = k;
        if (k != SIZE_MAX && k != l->cur && k != 0 && !l->refpos[k]) {
            e.first = true;
            l->refpos[k] = (uint32_t)p + 1;
        } else if (k != SIZE_MAX) {
            e.again = l->w->any_order ? l->refpos[k] != (uint32_t)p + 1 : k < l->cur;
        }
    }
    emit(l, &e);
}

/* A union's two words: the tag, then the offset to the member's payload
 * (below the member's name), or the bare offset when the tag names no
 * member. */
static void union_parts(lister *l, const blobc_type *t, size_t p, uint32_t depth) {
    uint32_t tag = blobc_ld32(l->d + p);
    blobc_lpart e = {BLOBC_L_TAG, depth, p, 4, t, l->cur, false, false, false, false};
    emit(l, &e);
    size_t q = p + BLOBC_UNION_REF;
    if (tag >= 1 && tag <= t->nfields) {
        step(l, depth, t->fields[tag - 1].name, 0);
        if (l->ok) offset_part(l, t->fields[tag - 1].type, q, depth + 1);
        return;
    }
    e.kind = BLOBC_L_UOFFSET;
    e.at = q;
    emit(l, &e);
}

/* An any's kind word, then its body: a value, an offset field, and the
 * bytes its kind leaves unused. */
static void any_parts(lister *l, size_t p, uint32_t depth) {
    static const blobc_kind body[BLOBC_ANY_KIND_COUNT] = {
        0, BLOBC_KIND_BOOL, BLOBC_KIND_I64, BLOBC_KIND_U64, BLOBC_KIND_F64, BLOBC_KIND_STRING};
    const blobc_type *any = blobc_builtin_type(BLOBC_KIND_ANY);
    uint32_t kind = blobc_ld32(l->d + p);
    blobc_lpart e = {BLOBC_L_ANYKIND, depth, p, 4, any, l->cur, false, false, false, false};
    emit(l, &e);
    size_t q = p + BLOBC_ANY_BODY, used = 0;
    if (kind == BLOBC_ANY_LIST || kind == BLOBC_ANY_MAP) {
        offset_part(l, kind == BLOBC_ANY_LIST ? blobc_any_list_type() : blobc_any_map_type(), q,
                    depth);
        return;
    }
    if (kind == BLOBC_ANY_STRING) {
        offset_part(l, blobc_builtin_type(BLOBC_KIND_STRING), q, depth);
        return;
    }
    if (kind > BLOBC_ANY_NULL && kind < BLOBC_ANY_STRING) {
        const blobc_type *bt = blobc_builtin_type(body[kind]);
        blobc_lpart v = {BLOBC_L_SCALAR, depth, q, bt->size, bt, l->cur, false, false, false, false};
        emit(l, &v);
        used = bt->size;
    }
    if (used < 8) {
        blobc_lpart u = {BLOBC_L_UNUSED, depth, q + used, 8 - used, any, l->cur, false, false,
                         all_zero(l->d + q + used, 8 - used), false};
        emit(l, &u);
    }
}

/* An optional's parts after its value (or its zero bytes, absent): the
 * presence byte and the padding after it. */
static void presence_part(lister *l, const blobc_type *t, size_t base, uint32_t depth) {
    uint32_t flag = blobc_optional_flag(t);
    blobc_lpart e = {BLOBC_L_PRESENCE, depth, base + flag, t->size - flag, t, l->cur, false, false,
                     all_zero(l->d + base + flag + 1, t->size - flag - 1), false};
    emit(l, &e);
}

/* The next value of the innermost unfinished aggregate, its padding
 * first; false when the stack is done. */
static bool next_value(lister *l, lframe *st, size_t *n, const blobc_type **t, size_t *p,
                       uint32_t *depth) {
    while (*n && l->ok) {
        lframe *f = &st[*n - 1];
        if (f->t->kind == BLOBC_KIND_STRUCT) {
            uint32_t nf = f->t->nfields;
            size_t from = f->base + f->at;
            size_t to = f->i < nf ? f->base + f->t->fields[f->i].offset : f->base + f->t->size;
            if (to > from) {
                blobc_lpart e = {BLOBC_L_PADDING, f->depth, from, to - from, f->t, l->cur,
                                 false, false, all_zero(l->d + from, to - from), false};
                emit(l, &e);
                f->at = (uint32_t)(to - f->base);
            }
            if (f->i == nf) {
                (*n)--;
                continue;
            }
            const blobc_field *fd = &f->t->fields[f->i++];
            step(l, f->depth, fd->name, 0);
            f->at = fd->offset + fd->type->size;
            *t = fd->type;
            *p = f->base + fd->offset;
            *depth = f->depth + 1;
            return true;
        }
        if (f->t->kind == BLOBC_KIND_OPTIONAL) {
            /* the value (at the optional's own path), then the presence byte */
            bool present = l->d[f->base + blobc_optional_flag(f->t)] != 0;
            if (f->i++ == 0 && present) {
                *t = f->t->elem;
                *p = f->base;
                *depth = f->depth;
                return true;
            }
            if (f->i == 1) {
                blobc_lpart e = {BLOBC_L_ABSENT, f->depth, f->base, f->t->elem->size, f->t,
                                 l->cur, false, false, all_zero(l->d + f->base, f->t->elem->size),
                                 false};
                emit(l, &e);
                f->i++;
            }
            presence_part(l, f->t, f->base, f->depth);
            (*n)--;
            continue;
        }
        /* FIXED */
        if (f->i == f->t->count) {
            (*n)--;
            continue;
        }
        step(l, f->depth, NULL, f->i);
        *t = f->t->elem;
        *p = f->base + (size_t)f->i++ * f->t->elem->size;
        *depth = f->depth + 1;
        return true;
    }
    return false;
}

/* Lists one value of type t at data offset p, at depth. */
static void list_value(lister *l, const blobc_type *t, size_t p, uint32_t depth) {
    lframe *st = NULL;
    size_t n = 0, cap = 0;
    do {
        blobc_lpart e = {BLOBC_L_SCALAR, depth, p, t->size, t, l->cur, false, false, false, false};
        if (blobc_kind_is_scalar(t->kind) || t->kind == BLOBC_KIND_ENUM) {
            emit(l, &e);
        } else if (t->kind == BLOBC_KIND_STRING || t->kind == BLOBC_KIND_ARRAY ||
                   t->kind == BLOBC_KIND_PTR || t->kind == BLOBC_KIND_MAP) {
            offset_part(l, t, p, depth);
        } else if (t->kind == BLOBC_KIND_ANY) {
            any_parts(l, p, depth);
        } else if (t->kind == BLOBC_KIND_UNION) {
            union_parts(l, t, p, depth);
        } else {
            e.kind = BLOBC_L_AGG;
            emit(l, &e);
            if (!blobc_grow((void **)&st, &cap, n + 1, sizeof *st)) {
                l->ok = false;
                break;
            }
            st[n++] = (lframe){t, p, 0, 0, depth};
        }
    } while (next_value(l, st, &n, &t, &p, &depth));
    free(st);
}

/* Payload k: its head, then its elements. */
static void list_payload(lister *l, size_t k) {
    blobc_wpayload pv = blobc_walk_payload(l->w, k);
    uint32_t esz;
    const blobc_type *t = blobc_walk_tid_type(l->w, pv.tid, &esz);
    l->cur = k;
    if (l->ok) l->ok = l->ops->payload(l->ctx, k);
    blobc_lpart e = {t ? BLOBC_L_PAYLOAD : BLOBC_L_STRING, 0, pv.start, (size_t)pv.count * esz, t,
                     k, false, (pv.flags & BLOBC_WP_SHARED) != 0, false, false};
    if (!t || k != 0) emit(l, &e);
    if (!t) return;
    bool arr = !(pv.flags & BLOBC_WP_PTR);
    for (uint32_t i = 0; i < pv.count && l->ok; i++) {
        if (arr) step(l, 0, NULL, i);
        list_value(l, t, pv.start + (size_t)i * esz, arr ? 1 : 0);
    }
}

bool blobc_layout_list(const blobc_walk *w, const uint8_t *data, size_t size, bool failed,
                       const blobc_layout_ops *ops, void *ctx) {
    lister l = {w, data, size, ops, ctx, NULL, 0, false, true};
    if (!w->ntab) return true;
    l.refpos = calloc(w->ntab, sizeof *l.refpos);
    if (!l.refpos || (w->any_order && !w->any_sorted)) {
        free(l.refpos);
        return false;
    }
    if (w->any_order) {
        l.prepass = true;
        for (size_t k = 0; k < w->ntab && l.ok; k++) list_payload(&l, k);
        l.prepass = false;
    }
    size_t prev_end = 0;
    for (size_t at = 0; at < w->ntab && l.ok; at++) {
        size_t k = w->any_order ? w->any_sorted[at] : at;
        blobc_wpayload pv = blobc_walk_payload(w, k);
        uint32_t esz;
        blobc_walk_tid_type(w, pv.tid, &esz);
        if (pv.start > prev_end) {
            blobc_lpart e = {BLOBC_L_GAP, 0, prev_end, pv.start - prev_end, NULL, k, false, false,
                             all_zero(data + prev_end, pv.start - prev_end), false};
            emit(&l, &e);
        }
        prev_end = pv.start + (size_t)pv.count * esz;
        list_payload(&l, k);
    }
    if (!failed && prev_end < size && l.ok) {
        blobc_lpart e = {BLOBC_L_TAIL, 0, prev_end, size - prev_end, NULL, SIZE_MAX, false, false,
                         all_zero(data + prev_end, size - prev_end), false};
        emit(&l, &e);
    }
    free(l.refpos);
    return l.ok;
}
