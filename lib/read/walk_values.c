/*
 * walk_values.c - the values whose bytes a word inside them explains
 * (docs/FORMAT.md, "Optionals" and "Free-form values"): an optional's
 * presence byte says whether its T is there, an any's kind word what its
 * body holds. Both are read before anything else of the value: zero bytes
 * need not be a sound T, and an any's body is a bool, a number or an
 * offset field as the kind word says.
 *
 * An any's lists and mappings nest without bound in the data but at most
 * BLOBC_MAX_ANY_DEPTH deep in a sound blob. The walk has no C recursion to
 * bound, so depth is measured bottom up: each [any] or any-mapping
 * payload records, once walked, how deep its lists and mappings go; an
 * any that holds it (placing it, or meeting it again, shared) has that
 * depth. One record per such payload, found again by binary search, and
 * each payload walked once: linear whatever the input.
 */
#include "read/walk_internal.h"

#include <inttypes.h>

/* An [any] or any-mapping payload's depth: 1 + the deepest list or
 * mapping of its items (an empty one, which has no payload, counts 1). */
typedef struct blobc_wdepth {
    uint32_t k; /* its table entry */
    uint32_t depth;
} blobc_wdepth;

static const char *const any_names[BLOBC_ANY_KIND_COUNT] = {
    "null", "bool", "int", "uint", "float", "string", "list", "mapping"};

blobc_status blobc_walk_optional(blobc_walk *w, const wop *op, size_t p, wop *then,
                                 blobc_error *err) {
    const blobc_winfo *e = &w->infos[op->tid];
    const uint8_t *d = w->data;
    const size_t flag = p + e->size, end = (flag + e->align) & ~((size_t)e->align - 1);
    if (d[flag] > 1)
        return blobc_walk_fail(w, err, BLOBC_V_OPTIONAL, flag, flag,
                               "presence byte is %u, not 0 (absent) or 1 (present)", d[flag]);
    if (end > flag + 1) {
        const wop pad = {OP_PAD, 1, 0, (uint32_t)(end - flag - 1), 0, 0};
        size_t bad = 0;
        if (blobc_walk_run_check(w, &pad, flag + 1, pad.n, &bad))
            return blobc_walk_check_fail(w, err, &pad, bad, NULL, 0);
    }
    if (d[flag] == 0) {
        for (size_t g = p; g < flag; g++)
            if (d[g])
                return blobc_walk_fail(w, err, BLOBC_V_OPTIONAL, g, p,
                                       "absent optional (presence byte 0) has byte %zu of its "
                                       "value 0x%02x, not 0",
                                       g - p, d[g]);
        return BLOBC_OK;
    }
    w->work++;
    if (e->state == ST_COMPILED && e->nops == 0) return BLOBC_OK;
    *then = (wop){OP_CALL, 0, op->off, 1, op->tid, 0};
    return BLOBC_OK;
}

/* The depth recorded for table entry k (0: none, not walked yet). */
static blobc_wdepth *depth_of(blobc_walk *w, size_t k) {
    size_t lo = 0, hi = w->ndepths;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->depths[mid].k < k) lo = mid + 1;
        else hi = mid;
    }
    return lo < w->ndepths && w->depths[lo].k == k ? &w->depths[lo] : NULL;
}

bool blobc_walk_any_box_placed(blobc_walk *w, size_t k) {
    /* placed in table order: the records stay sorted by k */
    if (!blobc_grow((void **)&w->depths, &w->depths_cap, w->ndepths + 1, sizeof *w->depths))
        return false;
    w->depths[w->ndepths++] = (blobc_wdepth){(uint32_t)k, 0};
    return true;
}

static blobc_status too_deep(blobc_walk *w, size_t at, uint32_t depth, blobc_error *err) {
    return blobc_walk_fail(w, err, BLOBC_V_ANY, at, at,
                           "any value nests lists and mappings %" PRIu32 " deep (at most %u)",
                           depth, BLOBC_MAX_ANY_DEPTH);
}

/* An any at p holds a list or mapping `depth` deep: the frame it is in
 * (an [any] or any-mapping, or a struct, which ignores it) keeps the
 * deepest. */
static blobc_status held(blobc_walk *w, size_t p, uint32_t depth, blobc_error *err) {
    if (depth > BLOBC_MAX_ANY_DEPTH) return too_deep(w, p, depth, err);
    blobc_wframe *f = &w->frames[w->nframes - 1];
    if (f->anyh < depth) f->anyh = depth;
    return BLOBC_OK;
}

blobc_status blobc_walk_any_box_done(blobc_walk *w, blobc_error *err) {
    blobc_wframe f = w->frames[--w->nframes];
    uint32_t depth = f.anyh + 1;
    blobc_wdepth *r = depth_of(w, f.tab);
    if (r) r->depth = depth;
    if (!f.from_any || !w->nframes) return BLOBC_OK;
    /* the any holding it: the op its frame stopped at */
    const blobc_wframe *pf = &w->frames[w->nframes - 1];
    const blobc_winfo *pi = &w->infos[pf->tid];
    const wop *op = &(pf->fast ? pi->rops : pi->ops)[pf->pc - 1];
    return held(w, pf->base + (size_t)pf->i * pi->size + op->off, depth, err);
}

blobc_status blobc_walk_any(blobc_walk *w, const wop *op, size_t p, wop *then, blobc_error *err) {
    const uint8_t *q = w->data + p, *body = q + BLOBC_ANY_BODY;
    const uint32_t kind = ld32(q);
    size_t used = 8;
    switch (kind) {
    case BLOBC_ANY_NULL: used = 0; break;
    case BLOBC_ANY_BOOL:
    case BLOBC_ANY_FLOAT: {
        const wop chk = kind == BLOBC_ANY_BOOL ? (wop){OP_BOOL, 1, 0, 1, 0, 0}
                                               : (wop){OP_F64, 8, 0, 1, 0, 0};
        size_t bad = 0;
        if (blobc_walk_run_check(w, &chk, p + BLOBC_ANY_BODY, 1, &bad))
            return blobc_walk_check_fail(w, err, &chk, bad, NULL, 0);
        used = kind == BLOBC_ANY_BOOL ? 1 : 8;
        break;
    }
    case BLOBC_ANY_INT: break;
    case BLOBC_ANY_UINT:
        if (!(ld64(body) >> 63))
            return blobc_walk_fail(w, err, BLOBC_V_ANY, p + BLOBC_ANY_BODY, p,
                                   "any uint %" PRIu64 " is below 2^63 (an int holds it)",
                                   ld64(body));
        break;
    case BLOBC_ANY_STRING:
    case BLOBC_ANY_LIST:
    case BLOBC_ANY_MAP: break;
    default:
        return blobc_walk_fail(w, err, BLOBC_V_ANY, p, p,
                               "any kind word is %" PRIu32 ", not 0 (null) to 7 (mapping)", kind);
    }
    for (size_t i = used; i < 8; i++)
        if (body[i])
            return blobc_walk_fail(w, err, BLOBC_V_ANY, p + BLOBC_ANY_BODY + i, p,
                                   "nonzero unused byte 0x%02x in an any holding a %s", body[i],
                                   any_names[kind]);
    if (kind < BLOBC_ANY_STRING) return BLOBC_OK;
    const uint32_t tid = kind == BLOBC_ANY_STRING ? STRBYTES
                         : kind == BLOBC_ANY_LIST ? BLOBC_KIND_ANY
                                                  : w->any_eid;
    *then = (wop){kind == BLOBC_ANY_STRING ? OP_STR : OP_ARR, 0, op->off + BLOBC_ANY_BODY, 1, tid, 0};
    return BLOBC_OK;
}

blobc_status blobc_walk_any_held(blobc_walk *w, size_t p, bool pushed, blobc_error *err) {
    if (pushed) {
        w->frames[w->nframes - 1].from_any = 1;
        return BLOBC_OK;
    }
    /* empty, or a payload walked before */
    const size_t at = p + BLOBC_ANY_BODY;
    if (ld32(w->data + at) == 0) return held(w, p, 1, err);
    size_t t = at + (size_t)(int64_t)(int32_t)ld32(w->data + at);
    size_t k = w->any_order ? blobc_walk_any_find(w, t) : blobc_walk_find_cached(w, t);
    const blobc_wdepth *r = k == SIZE_MAX ? NULL : depth_of(w, k);
    return held(w, p, r ? r->depth : 1, err);
}
