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

static bool kind_builtin(blobc_kind k) {
    return blobc_kind_is_scalar(k) || k == BLOBC_KIND_STRING || k == BLOBC_KIND_ANY;
}

uint32_t blobc_walk_builtin_size(blobc_kind k) {
    switch (k) {
    case BLOBC_KIND_BOOL: case BLOBC_KIND_I8: case BLOBC_KIND_U8: return 1;
    case BLOBC_KIND_I16: case BLOBC_KIND_U16: return 2;
    case BLOBC_KIND_I32: case BLOBC_KIND_U32: case BLOBC_KIND_F32: return 4;
    case BLOBC_KIND_I64: case BLOBC_KIND_U64: case BLOBC_KIND_F64: return 8;
    case BLOBC_KIND_STRING: return 8;
    case BLOBC_KIND_ANY: return BLOBC_ANY_SIZE;
    default: return 0;
    }
}

/* Type pointers are numbered in the order first seen (ptypes); pids
 * gives each number's id. */
uint32_t blobc_walk_type_lookup(const blobc_walk *w, const blobc_type *t) {
    uint32_t k = blobc_ptrset_find(&w->ptypes, t);
    return k == UINT32_MAX ? WNONE : w->pids[k];
}

static bool pmap_put(blobc_walk *w, const blobc_type *t, uint32_t id) {
    uint32_t k;
    if (blobc_ptrset_add(&w->ptypes, t, &k) < 0 ||
        !blobc_grow((void **)&w->pids, &w->pids_cap, (size_t)k + 1, sizeof *w->pids))
        return false;
    w->pids[k] = id;
    return true;
}

static uint64_t hash_shape(uint32_t kind, uint32_t elem, uint32_t count) {
    return blobc_hash_u64(((uint64_t)kind << 56) ^ ((uint64_t)elem << 24) ^ count);
}

static uint32_t smap_find(const blobc_walk *w, blobc_kind kind, uint32_t elem, uint32_t count) {
    blobc_hprobe p;
    for (uint32_t k = blobc_hashtab_first(&w->shapes, hash_shape(kind, elem, count), &p); k;
         k = blobc_hashtab_next(&w->shapes, &p)) {
        const blobc_winfo *in = &w->infos[k - 1];
        if (in->kind == kind && in->elem == elem && in->count == count) return k - 1;
    }
    return WNONE;
}

static bool smap_put(blobc_walk *w, uint32_t id) {
    const blobc_winfo *in = &w->infos[id];
    return blobc_hashtab_add(&w->shapes, hash_shape(in->kind, in->elem, in->count), id + 1);
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
            in->align = t->kind == BLOBC_KIND_STRING ? 4 : t->kind == BLOBC_KIND_ANY ? BLOBC_ANY_ALIGN : sz;
            in->elem = WNONE;
            /* string items need no program: placed as they are met */
            if (t->kind == BLOBC_KIND_STRING) in->cls = CLS_STRINGS;
        }
        return id;
    }
    if (t->kind == BLOBC_KIND_STRUCT || t->kind == BLOBC_KIND_ENUM || t->kind == BLOBC_KIND_UNION)
        return new_info(w, t, t->size, t->align);
    return WNONE;
}

/* The id of a map's entry struct e whose value has id vid. Entries are
 * numbered by their key's and value's ids, not by pointer: two spellings
 * of [string: u32] hold one kind of payload (sharing one is sound), as two
 * of [u32] do. */
static uint32_t entry_id(blobc_walk *w, const blobc_type *e, uint32_t vid) {
    if (!e || e->kind != BLOBC_KIND_STRUCT || !(e->flags & BLOBC_STRUCT_ENTRY) || e->nfields != 2 ||
        e->key != 1 || e->fields[0].offset != 0)
        return WNONE;
    const blobc_type *k = e->fields[0].type;
    if (!k || !(blobc_kind_is_integer(k->kind) || k->kind == BLOBC_KIND_ENUM ||
                k->kind == BLOBC_KIND_STRING))
        return WNONE;
    uint32_t id = blobc_walk_type_lookup(w, e);
    if (id != WNONE) return id;
    /* a leaf: numbered without the chain this call is unwinding */
    uint32_t kid = blobc_walk_type_id(w, k);
    if (kid == WNONE) return WNONE;
    id = smap_find(w, BLOBC_KIND_STRUCT, vid, kid);
    if (id != WNONE) {
        /* the first one met is the one compiled: the others must agree */
        const blobc_type *f = w->infos[id].type;
        if (f->size != e->size || f->align != e->align || f->fields[1].offset != e->fields[1].offset)
            return WNONE;
    } else {
        id = new_info(w, e, e->size, e->align);
        if (id == WNONE) return WNONE;
        w->infos[id].elem = vid;
        w->infos[id].count = kid;
        if (!smap_put(w, id)) return WNONE;
    }
    return pmap_put(w, e, id) ? id : WNONE;
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
        /* a map goes on to its value: its entry struct is numbered by
         * structure below, once the value's id is known */
        cur = blobc_type_next(cur);
        if (!cur) return WNONE;
    }
    uint32_t cid = blobc_walk_type_lookup(w, cur);
    if (cid == WNONE) {
        cid = base_id(w, cur);
        if (cid == WNONE || !pmap_put(w, cur, cid)) return WNONE;
    }
    while (depth) {
        const blobc_type *a = s->chain[--depth];
        if (a->kind == BLOBC_KIND_MAP && (cid = entry_id(w, a->elem, cid)) == WNONE) return WNONE;
        /* a reference &T has a program of its own, apart from *T's */
        uint32_t count = a->kind == BLOBC_KIND_FIXED ? a->count : a->ref ? 1 : 0;
        uint32_t sid = smap_find(w, a->kind, cid, count);
        if (sid == WNONE) {
            const blobc_winfo *e = &w->infos[cid];
            uint32_t size, align;
            if (a->kind == BLOBC_KIND_FIXED) {
                if (count == 0 || (uint64_t)count * e->size > BLOBC_MAX_TYPE_SIZE) return WNONE;
                size = count * e->size;
                align = e->align;
            } else if (a->kind == BLOBC_KIND_OPTIONAL) {
                /* T, its presence byte, padding to T's alignment */
                if ((uint64_t)e->size + e->align > BLOBC_MAX_TYPE_SIZE) return WNONE;
                size = (e->size + e->align) & ~(e->align - 1);
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
    uint32_t m = blobc_walk_type_id(w, blobc_any_map_type());
    if (m == WNONE) return false;
    w->any_eid = w->infos[m].elem;
    return true;
}
