/*
 * walk_types.c - type ids for the walker.
 *
 * Every type reached gets a small id; infos[id] holds its program. Named
 * types are identified by pointer, builtins by kind (ids 0..KIND_COUNT-1),
 * anonymous composites by structure (kind, element id, count), so two
 * spellings of `[[u32]]` are one type even if a schema did not intern them:
 * a payload shared by two such fields is the same payload.
 */
#include "read/walk_internal.h"

#include "common/kind.h"

#include <stdlib.h>

static bool kind_builtin(blobc_kind k) { return blobc_kind_is_scalar(k) || k == BLOBC_KIND_STRING; }

uint32_t blobc_walk_builtin_size(blobc_kind k) {
    switch (k) {
    case BLOBC_KIND_BOOL: case BLOBC_KIND_I8: case BLOBC_KIND_U8: return 1;
    case BLOBC_KIND_I16: case BLOBC_KIND_U16: return 2;
    case BLOBC_KIND_I32: case BLOBC_KIND_U32: case BLOBC_KIND_F32: return 4;
    case BLOBC_KIND_I64: case BLOBC_KIND_U64: case BLOBC_KIND_F64: return 8;
    case BLOBC_KIND_STRING: return 8;
    default: return 0;
    }
}

static size_t hash_ptr(const void *p) {
    uint64_t v = (uint64_t)(uintptr_t)p;
    v ^= v >> 33;
    v *= 0xff51afd7ed558ccdull;
    v ^= v >> 33;
    return (size_t)v;
}

static size_t hash_shape(uint32_t kind, uint32_t elem, uint32_t count) {
    uint64_t v = ((uint64_t)kind << 56) ^ ((uint64_t)elem << 24) ^ count;
    v *= 0x9e3779b97f4a7c15ull;
    v ^= v >> 29;
    return (size_t)v;
}

uint32_t blobc_walk_type_lookup(const blobc_walk *w, const blobc_type *t) {
    if (!w->pmap_cap) return WNONE;
    size_t mask = w->pmap_cap - 1, h = hash_ptr(t) & mask;
    while (w->pkeys[h]) {
        if (w->pkeys[h] == t) return w->pmap[h];
        h = (h + 1) & mask;
    }
    return WNONE;
}

static bool pmap_put(blobc_walk *w, const blobc_type *t, uint32_t id) {
    if ((w->pmap_used + 1) * 2 > w->pmap_cap) {
        size_t nc = w->pmap_cap ? w->pmap_cap * 2 : 64;
        const blobc_type **nk = calloc(nc, sizeof *nk);
        uint32_t *nv = calloc(nc, sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return false;
        }
        for (size_t i = 0; i < w->pmap_cap; i++) {
            if (!w->pkeys[i]) continue;
            size_t h = hash_ptr(w->pkeys[i]) & (nc - 1);
            while (nk[h]) h = (h + 1) & (nc - 1);
            nk[h] = w->pkeys[i];
            nv[h] = w->pmap[i];
        }
        free(w->pkeys);
        free(w->pmap);
        w->pkeys = nk;
        w->pmap = nv;
        w->pmap_cap = nc;
    }
    size_t mask = w->pmap_cap - 1, h = hash_ptr(t) & mask;
    while (w->pkeys[h]) h = (h + 1) & mask;
    w->pkeys[h] = t;
    w->pmap[h] = id;
    w->pmap_used++;
    return true;
}

static uint32_t smap_find(const blobc_walk *w, blobc_kind kind, uint32_t elem, uint32_t count) {
    if (!w->smap_cap) return WNONE;
    size_t mask = w->smap_cap - 1, h = hash_shape(kind, elem, count) & mask;
    for (; w->smap[h] != WNONE; h = (h + 1) & mask) {
        const blobc_winfo *in = &w->infos[w->smap[h]];
        if (in->kind == kind && in->elem == elem && in->count == count) return w->smap[h];
    }
    return WNONE;
}

static bool smap_put(blobc_walk *w, uint32_t id) {
    if ((w->smap_used + 1) * 2 > w->smap_cap) {
        size_t nc = w->smap_cap ? w->smap_cap * 2 : 64;
        uint32_t *nm = malloc(nc * sizeof *nm);
        if (!nm) return false;
        memset(nm, 0xff, nc * sizeof *nm);
        for (size_t i = 0; i < w->smap_cap; i++) {
            uint32_t v = w->smap[i];
            if (v == WNONE) continue;
            const blobc_winfo *in = &w->infos[v];
            size_t h = hash_shape(in->kind, in->elem, in->count) & (nc - 1);
            while (nm[h] != WNONE) h = (h + 1) & (nc - 1);
            nm[h] = v;
        }
        free(w->smap);
        w->smap = nm;
        w->smap_cap = nc;
    }
    const blobc_winfo *in = &w->infos[id];
    size_t mask = w->smap_cap - 1, h = hash_shape(in->kind, in->elem, in->count) & mask;
    while (w->smap[h] != WNONE) h = (h + 1) & mask;
    w->smap[h] = id;
    w->smap_used++;
    return true;
}

wscratch *blobc_walk_scratch(blobc_walk *w) {
    if (!w->scratch) w->scratch = calloc(1, sizeof(wscratch));
    return w->scratch;
}

/* A fresh info for t (size and alignment sanity-checked: everything
 * later divides by the size and masks by the alignment). */
static uint32_t new_info(blobc_walk *w, const blobc_type *t, uint32_t size, uint32_t align) {
    if (size == 0 || !blobc_is_pow2(align) || align > BLOBC_MAX_ALIGN || size % align != 0)
        return WNONE;
    if (w->ninfos >= WNONE - 1) return WNONE;
    if (!blobc_grow((void **)&w->infos, &w->infos_cap, w->ninfos + 1, sizeof *w->infos)) return WNONE;
    blobc_winfo *in = &w->infos[w->ninfos];
    memset(in, 0, sizeof *in);
    in->type = t;
    in->kind = t->kind;
    in->size = size;
    in->align = align;
    in->elem = WNONE;
    return (uint32_t)w->ninfos++;
}

static uint32_t base_id(blobc_walk *w, const blobc_type *t) {
    if (kind_builtin(t->kind)) {
        uint32_t id = (uint32_t)t->kind;
        /* dump and the map read values by the schema's sizes */
        if (t->size != blobc_walk_builtin_size(t->kind)) return WNONE;
        if (!w->infos[id].type) {
            uint32_t sz = blobc_walk_builtin_size(t->kind);
            blobc_winfo *in = &w->infos[id];
            memset(in, 0, sizeof *in);
            in->type = t;
            in->kind = t->kind;
            in->size = sz;
            in->align = t->kind == BLOBC_KIND_STRING ? 4 : sz;
            in->elem = WNONE;
            /* string items need no program: placed as they are met */
            if (t->kind == BLOBC_KIND_STRING) in->cls = CLS_STRINGS;
        }
        return id;
    }
    if (t->kind == BLOBC_KIND_STRUCT || t->kind == BLOBC_KIND_ENUM)
        return new_info(w, t, t->size, t->align);
    return WNONE;
}

uint32_t blobc_walk_type_id(blobc_walk *w, const blobc_type *t) {
    if (!t) return WNONE;
    uint32_t id = blobc_walk_type_lookup(w, t);
    if (id != WNONE) return id;
    wscratch *s = blobc_walk_scratch(w);
    if (!s) return WNONE;
    size_t depth = 0;
    const blobc_type *cur = t;
    while (blobc_kind_is_anonymous(cur->kind) && blobc_walk_type_lookup(w, cur) == WNONE) {
        if (!blobc_grow((void **)&s->chain, &s->chain_cap, depth + 1, sizeof *s->chain)) return WNONE;
        s->chain[depth++] = cur;
        cur = cur->elem;
        if (!cur) return WNONE;
    }
    uint32_t cid = blobc_walk_type_lookup(w, cur);
    if (cid == WNONE) {
        cid = base_id(w, cur);
        if (cid == WNONE || !pmap_put(w, cur, cid)) return WNONE;
    }
    while (depth) {
        const blobc_type *a = s->chain[--depth];
        uint32_t count = a->kind == BLOBC_KIND_FIXED ? a->count : 0;
        uint32_t sid = smap_find(w, a->kind, cid, count);
        if (sid == WNONE) {
            const blobc_winfo *e = &w->infos[cid];
            uint32_t size, align;
            if (a->kind == BLOBC_KIND_FIXED) {
                if (count == 0 || (uint64_t)count * e->size > BLOBC_MAX_TYPE_SIZE) return WNONE;
                size = count * e->size;
                align = e->align;
            } else {
                size = a->kind == BLOBC_KIND_PTR ? 4 : 8;
                align = 4;
            }
            if (a->size != size) return WNONE;
            sid = new_info(w, a, size, align);
            if (sid == WNONE) return WNONE;
            w->infos[sid].elem = cid;
            w->infos[sid].count = count;
            if (!smap_put(w, sid)) return WNONE;
        }
        if (!pmap_put(w, a, sid)) return WNONE;
        cid = sid;
    }
    return cid;
}

/* ---- compiling check programs ---- */

bool blobc_walk_ids_init(blobc_walk *w) {
    if (w->infos) return true;
    if (!blobc_grow((void **)&w->infos, &w->infos_cap, BLOBC_KIND_COUNT + 1, sizeof *w->infos))
        return false;
    memset(w->infos, 0, (BLOBC_KIND_COUNT + 1) * sizeof *w->infos);
    w->ninfos = BLOBC_KIND_COUNT + 1;
    w->infos[STRBYTES].size = 1;
    w->infos[STRBYTES].align = 1;
    w->infos[STRBYTES].state = ST_COMPILED;
    return true;
}
