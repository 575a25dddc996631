/*
 * walk.c - the canonical-order walker shared by verify and dump.
 *
 * Each type reached is compiled once into a short "check program": the
 * byte offsets (within one element) of everything that needs a look —
 * bools, enums, floats (NaN), padding runs, offset fields — merged into
 * runs, with plain integers left out entirely. Small nested programs are
 * copied inline; a large one inside a [T; N] or a nested struct becomes a
 * LOOP/CALL op that pushes a frame instead of being copied, so a program
 * stays proportional to the schema, not to the data.
 *
 * The walk itself is a loop over an explicit frame stack (a million-deep
 * *T chain costs heap, not C stack). A new payload must start exactly at
 * the aligned cursor; a payload reached again must be the same one and
 * finished (else a cycle). So each byte of the data is visited a bounded
 * number of times whatever the input, and back references cost one binary
 * search in the payload table.
 *
 * A frame is normally walked fast (walk_refs): a program is split into its
 * checks and its other ops; the checks of a chunk of elements (4 KiB) run
 * first, op by op over the chunk with one branch per op, then the
 * elements' offset fields are visited with the common cases inline (new
 * strings, [T] of items with nothing to check, [string]). That is only a
 * reordering of work that has no side effects: when a chunk fails a check,
 * the frame falls back to the op-by-op walk from the chunk's first
 * element, which reports the first failure in canonical order, exactly as
 * if the checks had not run ahead. Everything unusual (shared payloads,
 * errors, frames to push) goes through the same general path either way.
 */
/* MAP_ANONYMOUS and madvise are outside the POSIX names the build asks
 * for. */
#define _DEFAULT_SOURCE 1

#include "read/walk.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define NONE UINT32_MAX
/* For the few small functions of the per-payload fast path. */
#if defined(__GNUC__) || defined(__clang__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif
/* Little-endian loads for the hot loops: one plain load where the host is
 * little-endian (some compilers do not merge blobc_ld64's byte loads). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint32_t ld32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static inline uint64_t ld64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}
#else
#define ld32 blobc_ld32
#define ld64 blobc_ld64
#endif
/* run_check's answer for a failed mask test: which rule broke depends on
 * what the byte is (bool, enum or padding), found from the type. */
#define CODE_MASK (-1)
/* The pseudo-type of string bytes (size 1): distinct from every schema
 * type, so string bytes are never "the same payload" as a [u8] or a
 * [string] at the same place. Ids 1..BLOBC_KIND_COUNT are the builtins. */
#define STRBYTES 0u
/* The packed table entry's tid field (12 bits) holds ids below this. */
#define TID_ESC 0xfffu
/* A table entry: flags | tid << 4 | count << 16 (see blobc_walk). */
static inline uint32_t pack(uint32_t tid, uint32_t count, uint32_t flags) {
    return flags | tid << 4 | count << 16;
}
/* A sub-program at most this long is copied into its container. */
#define INLINE_MAX 32u
/* The checks of a payload's elements are run this many bytes at a time,
 * just before the elements' offset fields are walked: a chunk stays in L1
 * between the two passes. */
#define CHUNK_BYTES 4096u
/* Keep this many bytes at the end of a path that does not fit. */
#define PATH_KEEP (BLOBC_ERROR_PATH_MAX - 8)

enum {
    OP_BOOL = 1, /* n bytes, each 0 or 1 */
    OP_ENUM,     /* n values of esize bytes, each declared in enum tid */
    OP_F32,      /* n floats, no non-canonical NaN */
    OP_F64,
    OP_PAD,      /* n zero bytes */
    OP_MASK,     /* n 8-byte words w with (w & mask) == 0: padding, bools and
                    enums of values 0..2^k-1 in one test */
    OP_STR,      /* a string {offset, length} */
    OP_ARR,      /* a [tid] {offset, length} */
    OP_PTR,      /* a *tid {offset} */
    OP_LOOP,     /* [tid; n] inline: walked in a frame of its own */
    OP_CALL      /* one tid inline: walked in a frame of its own */
};

typedef struct wop {
    uint8_t code;
    uint8_t esize;
    uint32_t off;
    uint32_t n;
    uint32_t tid;
    uint64_t mask; /* OP_MASK */
} wop;

enum { ST_NEW = 0, ST_COMPILING, ST_COMPILED };

/* Element types whose payloads the fast walk places on the spot (their
 * ids fit the packed table entry): nothing to check in the items
 * ([u32], *Vec2i), or strings, whose bytes follow at once. */
enum { CLS_OTHER = 0, CLS_PLAIN, CLS_STRINGS };

struct blobc_winfo {
    const blobc_type *type;
    blobc_kind kind;
    uint32_t size, align;
    uint32_t elem;  /* ARRAY, FIXED, PTR: element id */
    uint32_t count; /* FIXED */
    uint8_t state;
    uint8_t cls;    /* CLS_*: how the fast walk places a payload of these */
    uint8_t flat;   /* only checks: no op needs a frame */
    uint8_t run;    /* one check op covering the whole element */
    const wop *ops;
    uint32_t nops;
    /* ops split in two, in offset order, for the fast walk: the checks
     * (run over a chunk of elements first, op by op) and the rest
     * (offset fields, LOOP, CALL: walked element by element) */
    const wop *cops, *rops;
    uint32_t ncops, nrops;
    uint32_t chunk; /* elements per checked chunk */
    /* ENUM: values biased so that unsigned order is the value order */
    uint8_t esigned, edense;
    uint64_t emin, emax;
    const uint64_t *evals; /* sorted, unique */
    uint32_t nevals;
    const uint8_t *ebits;  /* bitmap over emin..emax, when small */
};

struct blobc_wframe {
    uint32_t tid;
    uint32_t base;
    uint32_t n;   /* elements */
    uint32_t i;   /* current element */
    uint32_t pc;  /* next op of the current element */
    uint32_t tab; /* payload index, NONE for LOOP/CALL frames */
    uint32_t ck;  /* elements below this one passed their checks */
    uint8_t indexed;
    uint8_t fast; /* pc counts rops: the checks are run by chunks */
};

/* Private work stacks, kept in blobc_walk.scratch. */
typedef struct wscratch {
    const blobc_type **chain;
    size_t chain_cap;
    uint32_t *cstack; /* pairs (id, next dependency) */
    size_t cstack_cap;
    wop *ops;
    size_t nops, ops_cap;
} wscratch;

/* ---- small growable arrays ---- */

static bool grow(void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return true;
    size_t nc = *cap ? *cap : 16;
    while (nc < need) {
        if (nc > SIZE_MAX / 2 / elem) return false;
        nc *= 2;
    }
    void *q = realloc(*p, nc * elem);
    if (!q) return false;
    *p = q;
    *cap = nc;
    return true;
}

static void tab_release(blobc_walk *w) {
    if (w->tab_map) {
        munmap(w->tab_map, w->tab_map_len);
    } else {
        free(w->tstart);
        free(w->tinfo);
    }
    w->tab_map = NULL;
    w->tab_map_len = 0;
    w->tstart = NULL;
    w->tinfo = NULL;
    w->tab_cap = 0;
}

void blobc_walk_init(blobc_walk *w) {
    memset(w, 0, sizeof *w);
    blobc_arena_init(&w->arena);
}

void blobc_walk_free(blobc_walk *w) {
    wscratch *s = w->scratch;
    if (s) {
        free(s->chain);
        free(s->cstack);
        free(s->ops);
        free(s);
    }
    tab_release(w);
    free(w->big);
    free(w->infos);
    free(w->pmap);
    free(w->pkeys);
    free(w->smap);
    free(w->frames);
    blobc_arena_free(&w->arena);
    memset(w, 0, sizeof *w);
}

/* ---- type ids ----
 * Every type reached gets a small id; infos[id] holds its program. Named
 * types are identified by pointer, builtins by kind (ids 0..KIND_COUNT-1),
 * anonymous composites by structure (kind, element id, count), so two
 * spellings of `[[u32]]` are one type even if a schema did not intern them:
 * a payload shared by two such fields is the same payload. */

static bool kind_builtin(blobc_kind k) { return blobc_kind_is_scalar(k) || k == BLOBC_KIND_STRING; }
static bool kind_anon(blobc_kind k) {
    return k == BLOBC_KIND_ARRAY || k == BLOBC_KIND_FIXED || k == BLOBC_KIND_PTR;
}

static uint32_t builtin_size(blobc_kind k) {
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

static uint32_t pmap_get(const blobc_walk *w, const blobc_type *t) {
    if (!w->pmap_cap) return NONE;
    size_t mask = w->pmap_cap - 1, h = hash_ptr(t) & mask;
    while (w->pkeys[h]) {
        if (w->pkeys[h] == t) return w->pmap[h];
        h = (h + 1) & mask;
    }
    return NONE;
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
    if (!w->smap_cap) return NONE;
    size_t mask = w->smap_cap - 1, h = hash_shape(kind, elem, count) & mask;
    for (; w->smap[h] != NONE; h = (h + 1) & mask) {
        const blobc_winfo *in = &w->infos[w->smap[h]];
        if (in->kind == kind && in->elem == elem && in->count == count) return w->smap[h];
    }
    return NONE;
}

static bool smap_put(blobc_walk *w, uint32_t id) {
    if ((w->smap_used + 1) * 2 > w->smap_cap) {
        size_t nc = w->smap_cap ? w->smap_cap * 2 : 64;
        uint32_t *nm = malloc(nc * sizeof *nm);
        if (!nm) return false;
        memset(nm, 0xff, nc * sizeof *nm);
        for (size_t i = 0; i < w->smap_cap; i++) {
            uint32_t v = w->smap[i];
            if (v == NONE) continue;
            const blobc_winfo *in = &w->infos[v];
            size_t h = hash_shape(in->kind, in->elem, in->count) & (nc - 1);
            while (nm[h] != NONE) h = (h + 1) & (nc - 1);
            nm[h] = v;
        }
        free(w->smap);
        w->smap = nm;
        w->smap_cap = nc;
    }
    const blobc_winfo *in = &w->infos[id];
    size_t mask = w->smap_cap - 1, h = hash_shape(in->kind, in->elem, in->count) & mask;
    while (w->smap[h] != NONE) h = (h + 1) & mask;
    w->smap[h] = id;
    w->smap_used++;
    return true;
}

static wscratch *scratch(blobc_walk *w) {
    if (!w->scratch) w->scratch = calloc(1, sizeof(wscratch));
    return w->scratch;
}

/* A fresh info for t (size and alignment sanity-checked: everything
 * later divides by the size and masks by the alignment). */
static uint32_t new_info(blobc_walk *w, const blobc_type *t, uint32_t size, uint32_t align) {
    if (size == 0 || !blobc_is_pow2(align) || align > BLOBC_MAX_ALIGN || size % align != 0)
        return NONE;
    if (w->ninfos >= NONE - 1) return NONE;
    if (!grow((void **)&w->infos, &w->infos_cap, w->ninfos + 1, sizeof *w->infos)) return NONE;
    blobc_winfo *in = &w->infos[w->ninfos];
    memset(in, 0, sizeof *in);
    in->type = t;
    in->kind = t->kind;
    in->size = size;
    in->align = align;
    in->elem = NONE;
    return (uint32_t)w->ninfos++;
}

static uint32_t base_id(blobc_walk *w, const blobc_type *t) {
    if (kind_builtin(t->kind)) {
        uint32_t id = (uint32_t)t->kind;
        /* dump and the map read values by the schema's sizes */
        if (t->size != builtin_size(t->kind)) return NONE;
        if (!w->infos[id].type) {
            uint32_t sz = builtin_size(t->kind);
            blobc_winfo *in = &w->infos[id];
            memset(in, 0, sizeof *in);
            in->type = t;
            in->kind = t->kind;
            in->size = sz;
            in->align = t->kind == BLOBC_KIND_STRING ? 4 : sz;
            in->elem = NONE;
            /* string items need no program: placed as they are met */
            if (t->kind == BLOBC_KIND_STRING) in->cls = CLS_STRINGS;
        }
        return id;
    }
    if (t->kind == BLOBC_KIND_STRUCT || t->kind == BLOBC_KIND_ENUM)
        return new_info(w, t, t->size, t->align);
    return NONE;
}

/* The id of t, NONE when out of memory or the type is malformed. */
static uint32_t type_id(blobc_walk *w, const blobc_type *t) {
    if (!t) return NONE;
    uint32_t id = pmap_get(w, t);
    if (id != NONE) return id;
    wscratch *s = scratch(w);
    if (!s) return NONE;
    size_t depth = 0;
    const blobc_type *cur = t;
    while (kind_anon(cur->kind) && pmap_get(w, cur) == NONE) {
        if (!grow((void **)&s->chain, &s->chain_cap, depth + 1, sizeof *s->chain)) return NONE;
        s->chain[depth++] = cur;
        cur = cur->elem;
        if (!cur) return NONE;
    }
    uint32_t cid = pmap_get(w, cur);
    if (cid == NONE) {
        cid = base_id(w, cur);
        if (cid == NONE || !pmap_put(w, cur, cid)) return NONE;
    }
    while (depth) {
        const blobc_type *a = s->chain[--depth];
        uint32_t count = a->kind == BLOBC_KIND_FIXED ? a->count : 0;
        uint32_t sid = smap_find(w, a->kind, cid, count);
        if (sid == NONE) {
            const blobc_winfo *e = &w->infos[cid];
            uint32_t size, align;
            if (a->kind == BLOBC_KIND_FIXED) {
                if (count == 0 || (uint64_t)count * e->size > BLOBC_MAX_TYPE_SIZE) return NONE;
                size = count * e->size;
                align = e->align;
            } else {
                size = a->kind == BLOBC_KIND_PTR ? 4 : 8;
                align = 4;
            }
            if (a->size != size) return NONE;
            sid = new_info(w, a, size, align);
            if (sid == NONE) return NONE;
            w->infos[sid].elem = cid;
            w->infos[sid].count = count;
            if (!smap_put(w, sid)) return NONE;
        }
        if (!pmap_put(w, a, sid)) return NONE;
        cid = sid;
    }
    return cid;
}

/* ---- compiling check programs ---- */

static bool emit(wscratch *s, wop op) {
    if (s->nops) {
        wop *l = &s->ops[s->nops - 1];
        if (l->code == op.code && l->esize == op.esize && l->tid == op.tid && l->mask == op.mask) {
            switch (op.code) {
            case OP_MASK:
            case OP_BOOL:
            case OP_ENUM:
            case OP_F32:
            case OP_F64:
                if ((uint64_t)l->off + (uint64_t)l->n * l->esize == op.off) {
                    l->n += op.n;
                    return true;
                }
                break;
            case OP_PAD:
                if ((uint64_t)l->off + l->n == op.off) {
                    l->n += op.n;
                    return true;
                }
                break;
            default:
                break;
            }
        }
    }
    if (!grow((void **)&s->ops, &s->ops_cap, s->nops + 1, sizeof *s->ops)) return false;
    s->ops[s->nops++] = op;
    return true;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t enum_bias(bool is_signed, uint64_t v) {
    return is_signed ? v ^ 0x8000000000000000ull : v;
}

static bool compile_enum(blobc_walk *w, blobc_winfo *in) {
    const blobc_type *t = in->type;
    const blobc_type *base = t->elem;
    if (!base || !blobc_kind_is_integer(base->kind) || builtin_size(base->kind) != in->size)
        return false;
    bool sg = blobc_kind_is_signed(base->kind);
    in->esigned = sg;
    in->edense = 0;
    in->nevals = 0;
    if (t->nvalues == 0) {
        in->emin = 1;
        in->emax = 0; /* empty range: nothing is declared */
        return true;
    }
    uint64_t *v = blobc_arena_array(&w->arena, t->nvalues, sizeof *v);
    if (!v) return false;
    for (uint32_t i = 0; i < t->nvalues; i++) v[i] = enum_bias(sg, t->values[i].value);
    qsort(v, t->nvalues, sizeof *v, cmp_u64);
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->nvalues; i++)
        if (n == 0 || v[n - 1] != v[i]) v[n++] = v[i];
    in->evals = v;
    in->nevals = n;
    in->emin = v[0];
    in->emax = v[n - 1];
    uint64_t span = in->emax - in->emin;
    if (span == (uint64_t)n - 1) {
        in->edense = 1;
    } else if (span < 65536) {
        uint8_t *bits = blobc_arena_alloc(&w->arena, (size_t)(span / 8 + 1));
        if (!bits) return false;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t d = v[i] - in->emin;
            bits[d / 8] |= (uint8_t)(1u << (d % 8));
        }
        in->ebits = bits;
    }
    return true;
}

/* Appends sub's program shifted by `at`, `times` times with stride. */
static bool copy_ops(wscratch *s, const blobc_winfo *sub, uint32_t at, uint32_t times) {
    for (uint32_t k = 0; k < times; k++) {
        for (uint32_t j = 0; j < sub->nops; j++) {
            wop op = sub->ops[j];
            op.off += at + k * sub->size;
            if (!emit(s, op)) return false;
        }
    }
    return true;
}

static bool is_check(uint8_t code) {
    return (code >= OP_BOOL && code <= OP_PAD) || code == OP_MASK;
}

/* Whether an enum of one byte holds exactly the values 0..2^k-1, so that
 * "declared" is "no bit above k set"; *allowed gets 2^k - 1. */
static bool enum_maskable(const blobc_winfo *e, uint8_t *allowed) {
    if (e->size != 1 || !e->edense || e->emin != enum_bias(e->esigned, 0)) return false;
    uint64_t count = e->emax - e->emin + 1;
    if (!blobc_is_pow2(count) || count > 256) return false;
    *allowed = (uint8_t)(count - 1);
    return true;
}

/* Folds the padding, bool and small-enum checks of one element of `size`
 * bytes into 8-byte mask tests: a struct's padding, its bools and a kind
 * enum usually share a word, and one AND then replaces several ops. */
static bool maskify(blobc_walk *w, wscratch *s, uint32_t size) {
    enum { MAX = 1024 };
    if (size < 8 || size > MAX || s->nops == 0) return true;
    uint8_t mb[MAX];
    bool any = false;
    memset(mb, 0, size);
    size_t keep = 0;
    for (size_t i = 0; i < s->nops; i++) {
        wop op = s->ops[i];
        uint8_t allowed = 0;
        if (op.code == OP_PAD) {
            memset(mb + op.off, 0xff, op.n);
        } else if (op.code == OP_BOOL) {
            memset(mb + op.off, 0xfe, op.n);
        } else if (op.code == OP_ENUM && enum_maskable(&w->infos[op.tid], &allowed)) {
            memset(mb + op.off, (uint8_t)~allowed, op.n);
        } else {
            s->ops[keep++] = op;
            continue;
        }
        any = true;
    }
    if (!any) return true;
    /* the kept ops, then one mask per window, merged back in offset order */
    size_t nkeep = keep;
    for (uint32_t b = 0; b < size; b++) {
        if (!mb[b]) continue;
        uint32_t ws = b + 8 <= size ? b : size - 8;
        uint64_t m = 0;
        for (int j = 7; j >= 0; j--) m = m << 8 | mb[ws + (uint32_t)j];
        for (uint32_t j = ws; j < ws + 8; j++) mb[j] = 0;
        if (!grow((void **)&s->ops, &s->ops_cap, keep + 1, sizeof *s->ops)) return false;
        s->ops[keep++] = (wop){OP_MASK, 8, ws, 1, 0, m};
        b = ws + 7;
    }
    /* insertion sort by offset: both runs are sorted and short */
    for (size_t i = nkeep; i < keep; i++) {
        wop x = s->ops[i];
        size_t j = i;
        while (j > 0 && s->ops[j - 1].off > x.off) {
            s->ops[j] = s->ops[j - 1];
            j--;
        }
        s->ops[j] = x;
    }
    s->nops = keep;
    return true;
}

/* Compiles infos[id], whose inline parts are compiled already. Returns 0,
 * or -1 out of memory, or -2 a malformed type. */
static int compile_one(blobc_walk *w, uint32_t id) {
    wscratch *s = w->scratch;
    s->nops = 0;
    blobc_winfo *in = &w->infos[id];
    const blobc_type *t = in->type;
    wop op = {0, 0, 0, 1, 0, 0};
    switch (in->kind) {
    case BLOBC_KIND_BOOL:
        op.code = OP_BOOL;
        op.esize = 1;
        if (!emit(s, op)) return -1;
        break;
    case BLOBC_KIND_F32:
    case BLOBC_KIND_F64:
        op.code = in->kind == BLOBC_KIND_F32 ? OP_F32 : OP_F64;
        op.esize = (uint8_t)in->size;
        if (!emit(s, op)) return -1;
        break;
    case BLOBC_KIND_ENUM:
        if (!compile_enum(w, in)) return -2;
        op.code = OP_ENUM;
        op.esize = (uint8_t)in->size;
        op.tid = id;
        if (!emit(s, op)) return -1;
        break;
    case BLOBC_KIND_STRING:
        op.code = OP_STR;
        if (!emit(s, op)) return -1;
        break;
    case BLOBC_KIND_ARRAY:
    case BLOBC_KIND_PTR:
        op.code = in->kind == BLOBC_KIND_ARRAY ? OP_ARR : OP_PTR;
        op.tid = in->elem;
        if (!emit(s, op)) return -1;
        break;
    case BLOBC_KIND_FIXED: {
        const blobc_winfo *e = &w->infos[in->elem];
        if (e->nops == 0) break;
        if (e->run) {
            op = e->ops[0];
            op.n *= in->count;
            if (!emit(s, op)) return -1;
        } else if ((uint64_t)e->nops * in->count <= INLINE_MAX) {
            if (!copy_ops(s, e, 0, in->count)) return -1;
        } else {
            op.code = OP_LOOP;
            op.n = in->count;
            op.tid = in->elem;
            if (!emit(s, op)) return -1;
        }
        break;
    }
    case BLOBC_KIND_STRUCT: {
        uint32_t at = 0;
        if (t->nfields == 0) return -2;
        for (uint32_t i = 0; i < t->nfields; i++) {
            const blobc_field *f = &t->fields[i];
            uint32_t fid = type_id(w, f->type);
            if (fid == NONE) return -2;
            in = &w->infos[id];
            const blobc_winfo *sub = &w->infos[fid];
            if (f->offset < at || (uint64_t)f->offset + sub->size > in->size ||
                f->offset % sub->align != 0)
                return -2;
            if (f->offset > at) {
                wop pad = {OP_PAD, 1, at, f->offset - at, 0, 0};
                if (!emit(s, pad)) return -1;
            }
            if (sub->nops <= INLINE_MAX) {
                if (!copy_ops(s, sub, f->offset, 1)) return -1;
            } else {
                wop call = {OP_CALL, 0, f->offset, 1, fid, 0};
                if (!emit(s, call)) return -1;
            }
            at = f->offset + sub->size;
        }
        if (in->size > at) {
            wop pad = {OP_PAD, 1, at, in->size - at, 0, 0};
            if (!emit(s, pad)) return -1;
        }
        break;
    }
    default:
        break; /* plain integers: nothing to check */
    }
    in = &w->infos[id];
    if (!maskify(w, s, in->size)) return -1;
    wop *ops = NULL;
    if (s->nops) {
        ops = blobc_arena_array(&w->arena, s->nops, sizeof *ops);
        if (!ops) return -1;
        memcpy(ops, s->ops, s->nops * sizeof *ops);
    }
    in->ops = ops;
    in->nops = (uint32_t)s->nops;
    in->flat = 1;
    size_t nc = 0;
    for (size_t i = 0; i < s->nops; i++) {
        if (!is_check(ops[i].code)) in->flat = 0;
        else nc++;
    }
    /* one of the two is empty (ops is NULL when both are), or both are
     * replaced below */
    in->cops = ops;
    in->rops = ops ? ops + nc : NULL;
    if (nc < s->nops) {
        wop *split = blobc_arena_array(&w->arena, s->nops, sizeof *split);
        if (!split) return -1;
        size_t a = 0, b = nc;
        for (size_t i = 0; i < s->nops; i++) {
            wop r = ops[i];
            if (is_check(r.code)) {
                split[a++] = r;
                continue;
            }
            if (r.code == OP_ARR || r.code == OP_PTR) {
                /* What the fast walk needs of the items, decoded once: n
                 * their size, mask their alignment - 1 and (high half) the
                 * table entry's tid and flags; esize a class known now
                 * (integers: nothing to check; strings), else 0 for
                 * infos[tid].cls, known once the type is compiled. The
                 * general path reads only code and tid. */
                const blobc_winfo *e = &w->infos[r.tid];
                r.n = e->size;
                uint32_t flags = BLOBC_WP_DONE | (r.code == OP_PTR ? BLOBC_WP_PTR : 0);
                r.mask = e->align - 1;
                r.esize = CLS_OTHER;
                if (r.tid < TID_ESC) {
                    r.mask |= (uint64_t)pack(r.tid, 0, flags) << 32;
                    if (r.tid == BLOBC_KIND_STRING) r.esize = CLS_STRINGS;
                    else if (blobc_kind_is_integer(e->kind) && e->size == builtin_size(e->kind))
                        r.esize = CLS_PLAIN;
                }
            }
            split[b++] = r;
        }
        in->cops = split;
        in->rops = split + nc;
    }
    in->ncops = (uint32_t)nc;
    in->nrops = (uint32_t)(s->nops - nc);
    in->chunk = in->size >= CHUNK_BYTES ? 1 : CHUNK_BYTES / in->size;
    if (id < TID_ESC)
        in->cls = in->nops == 0 ? CLS_PLAIN : in->kind == BLOBC_KIND_STRING ? CLS_STRINGS : CLS_OTHER;
    in->run = s->nops == 1 && is_check(ops[0].code) && ops[0].code != OP_PAD && ops[0].off == 0 &&
              (uint64_t)ops[0].n * ops[0].esize == in->size;
    in->state = ST_COMPILED;
    return 0;
}

static blobc_status types_error(blobc_walk *w, blobc_error *err, int rc, const blobc_type *t) {
    if (rc == -1) return blobc_err_nomem(err);
    char name[128];
    blobc_type_spell(t, name, sizeof name);
    blobc_err(err, BLOBC_EINPUT, "type %s has an inconsistent layout", name);
    err->code = BLOBC_V_BAD_TYPES;
    (void)w;
    return BLOBC_EINPUT;
}

/* Compiles id and, first, every type stored inline in it (post-order,
 * with an explicit stack: inline nesting depth is the schema's to pick). */
static blobc_status ensure_compiled(blobc_walk *w, uint32_t id, blobc_error *err) {
    if (w->infos[id].state == ST_COMPILED) return BLOBC_OK;
    wscratch *s = scratch(w);
    if (!s) return blobc_err_nomem(err);
    size_t n = 0;
    if (!grow((void **)&s->cstack, &s->cstack_cap, 2, sizeof *s->cstack)) return blobc_err_nomem(err);
    s->cstack[0] = id;
    s->cstack[1] = 0;
    n = 1;
    w->infos[id].state = ST_COMPILING;
    while (n) {
        uint32_t cid = s->cstack[2 * (n - 1)];
        uint32_t next = s->cstack[2 * (n - 1) + 1];
        blobc_winfo *in = &w->infos[cid];
        uint32_t dep = NONE;
        if (in->kind == BLOBC_KIND_STRUCT) {
            const blobc_type *t = in->type;
            while (next < t->nfields) {
                uint32_t fid = type_id(w, t->fields[next].type);
                if (fid == NONE) return types_error(w, err, -2, t);
                next++;
                if (w->infos[fid].state != ST_COMPILED) {
                    dep = fid;
                    break;
                }
            }
        } else if (in->kind == BLOBC_KIND_FIXED && next == 0) {
            next = 1;
            if (w->infos[in->elem].state != ST_COMPILED) dep = in->elem;
        }
        s->cstack[2 * (n - 1) + 1] = next;
        if (dep != NONE) {
            if (w->infos[dep].state == ST_COMPILING) /* inline self-containment */
                return types_error(w, err, -2, w->infos[dep].type);
            if (!grow((void **)&s->cstack, &s->cstack_cap, 2 * (n + 1), sizeof *s->cstack))
                return blobc_err_nomem(err);
            w->infos[dep].state = ST_COMPILING;
            s->cstack[2 * n] = dep;
            s->cstack[2 * n + 1] = 0;
            n++;
            continue;
        }
        int rc = compile_one(w, cid);
        if (rc != 0) return types_error(w, err, rc, w->infos[cid].type);
        n--;
    }
    return BLOBC_OK;
}

/* ---- payload table ---- */

/* A data offset as the file offset messages show (data-relative for raw
 * input, whose err_base is 0). */
#define AT(x) ((uint64_t)(x) + w->err_base)

/* Payloads whose tid or count does not fit the packed word. */
typedef struct wbig {
    uint32_t k, tid, count;
} wbig;

blobc_wpayload blobc_walk_payload(const blobc_walk *w, size_t k) {
    uint32_t v = w->tinfo[k];
    blobc_wpayload p = {w->tstart[k], v >> 16, (v >> 4) & TID_ESC, v & 15u};
    if (p.tid == TID_ESC) {
        const wbig *b = w->big;
        size_t lo = 0, hi = w->nbig;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (b[mid].k < k) lo = mid + 1;
            else hi = mid;
        }
        p.tid = b[lo].tid;
        p.count = b[lo].count;
    }
    return p;
}

/* Makes room for `need` more payloads. */
static bool tab_grow(blobc_walk *w, size_t need) {
    if (w->tab_map) {
        /* past the reserved bound (which cannot happen, see tab_reserve):
         * move to the heap and grow from there */
        size_t n = w->ntab;
        uint32_t *ts = malloc(n * sizeof *ts), *ti = malloc(n * sizeof *ti);
        if (!ts || !ti) {
            free(ts);
            free(ti);
            return false;
        }
        memcpy(ts, w->tstart, n * sizeof *ts);
        memcpy(ti, w->tinfo, n * sizeof *ti);
        tab_release(w);
        w->tstart = ts;
        w->tinfo = ti;
        w->tab_cap = n;
    }
    size_t cap = w->tab_cap, ci = cap;
    if (need > (size_t)NONE - w->ntab ||
        !grow((void **)&w->tstart, &cap, w->ntab + need, sizeof *w->tstart) ||
        !grow((void **)&w->tinfo, &ci, w->ntab + need, sizeof *w->tinfo))
        return false;
    w->tab_cap = cap < ci ? cap : ci;
    return true;
}

/* Makes room for every payload `size` bytes of data can hold, once, so
 * the table is never copied or grown while walking. Each payload but the
 * root is reached first through its own offset field of at least 4 bytes,
 * and fields do not overlap: at most size / 4 + 1 payloads. A big table is
 * its own anonymous mapping asking for huge pages: on a 20 MB blob the
 * table takes about 6 MB, and faulting that in 4 KiB pages cost more than
 * a third of the whole verify. Only the pages used are ever touched. */
#define TAB_MAP_MIN (4u << 20)
#define TAB_HUGE (2u << 20)
static bool tab_reserve(blobc_walk *w, size_t size) {
    size_t cap = size / 4 + 2;
    if (w->tab_cap >= cap) return true;
    tab_release(w);
    if (cap > SIZE_MAX / 8 / 2) return tab_grow(w, 1);
    size_t half = cap * sizeof(uint32_t);
    if (half * 2 >= TAB_MAP_MIN) {
        half = (half + TAB_HUGE - 1) & ~(size_t)(TAB_HUGE - 1);
        void *p = mmap(NULL, 2 * half, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p != MAP_FAILED) {
#ifdef MADV_HUGEPAGE
            (void)madvise(p, 2 * half, MADV_HUGEPAGE);
#endif
            w->tab_map = p;
            w->tab_map_len = 2 * half;
            w->tstart = p;
            w->tinfo = (uint32_t *)((uint8_t *)p + half);
            w->tab_cap = cap;
            return true;
        }
        return tab_grow(w, 1); /* no mapping: grow on the heap */
    }
    w->tstart = malloc(half);
    w->tinfo = malloc(half);
    if (!w->tstart || !w->tinfo) {
        tab_release(w);
        return false;
    }
    w->tab_cap = cap;
    return true;
}

/* Records a new payload (the caller made room). False when out of memory. */
HOT bool tab_put(blobc_walk *w, size_t t, size_t count, uint32_t tid, uint32_t flags) {
    size_t k = w->ntab++;
    w->tstart[k] = (uint32_t)t;
    if (BLOBC_LIKELY(tid < TID_ESC && count <= 0xffffu)) {
        w->tinfo[k] = pack(tid, (uint32_t)count, flags);
        return true;
    }
    w->tinfo[k] = pack(TID_ESC, 0, flags);
    if (!grow(&w->big, &w->big_cap, w->nbig + 1, sizeof(wbig))) return false;
    ((wbig *)w->big)[w->nbig++] = (wbig){(uint32_t)k, tid, (uint32_t)count};
    return true;
}

size_t blobc_walk_find(const blobc_walk *w, uint32_t start) {
    size_t lo = 0, hi = w->ntab;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->tstart[mid] < start) lo = mid + 1;
        else hi = mid;
    }
    return lo < w->ntab && w->tstart[lo] == start ? lo : SIZE_MAX;
}

/* Index of the payload containing `at`, or SIZE_MAX. */
static size_t find_containing(const blobc_walk *w, size_t at) {
    size_t lo = 0, hi = w->ntab;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->tstart[mid] <= at) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return SIZE_MAX;
    blobc_wpayload p = blobc_walk_payload(w, lo - 1);
    return at < p.start + (uint64_t)p.count * w->infos[p.tid].size ? lo - 1 : SIZE_MAX;
}

/* ---- errors and paths ---- */

static void spell_tid(const blobc_walk *w, uint32_t tid, char *buf, size_t cap) {
    if (tid == STRBYTES || !w->infos[tid].type) snprintf(buf, cap, "string byte");
    else blobc_type_spell(w->infos[tid].type, buf, cap);
}

typedef struct pbuf {
    char *s;
    size_t len, cap;
    bool oom;
} pbuf;

static void pb_add(pbuf *b, const char *s, size_t n) {
    if (b->oom) return;
    if (!grow((void **)&b->s, &b->cap, b->len + n + 1, 1)) {
        b->oom = true;
        return;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void pb_index(pbuf *b, uint64_t i) {
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "[%" PRIu64 "]", i);
    pb_add(b, tmp, (size_t)n);
}

/* Appends the path from the start of a t to byte `off` inside it: field
 * names and [i] through nested structs and fixed arrays. With `stop`
 * (a LOOP or CALL op) it ends at the inline value that op walks. */
static void type_path(blobc_walk *w, pbuf *b, const blobc_type *t, uint64_t off, const wop *stop) {
    char comp[BLOBC_PATH_STEP_MAX];
    for (;;) {
        if (stop && off == 0) {
            if (stop->code == OP_LOOP && t->kind == BLOBC_KIND_FIXED && t->count == stop->n &&
                pmap_get(w, t->elem) == stop->tid)
                return;
            if (stop->code == OP_CALL && pmap_get(w, t) == stop->tid) return;
        }
        size_t n = blobc_path_step(&t, &off, comp, sizeof comp);
        if (!n) return;
        pb_add(b, comp, n);
    }
}

size_t blobc_path_step(const blobc_type **tp, uint64_t *offp, char *buf, size_t cap) {
    const blobc_type *t = *tp;
    uint64_t off = *offp;
    int n = 0;
    if (t->kind == BLOBC_KIND_STRUCT) {
        /* fields are in increasing offset order: binary search */
        uint32_t lo = 0, hi = t->nfields;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (t->fields[mid].offset <= off) lo = mid + 1;
            else hi = mid;
        }
        if (lo == 0) return 0;
        const blobc_field *f = &t->fields[lo - 1];
        if (off - f->offset >= f->type->size) return 0; /* padding */
        n = snprintf(buf, cap, ".%s", f->name);
        *offp = off - f->offset;
        *tp = f->type;
    } else if (t->kind == BLOBC_KIND_FIXED && t->elem && t->elem->size) {
        n = snprintf(buf, cap, "[%" PRIu64 "]", off / t->elem->size);
        *offp = off % t->elem->size;
        *tp = t->elem;
    }
    if (n < 0) return 0;
    return (size_t)n < cap ? (size_t)n : cap - 1;
}

const blobc_type *blobc_walk_tid_type(const blobc_walk *w, uint32_t tid, uint32_t *size) {
    *size = w->infos[tid].size;
    return tid == STRBYTES ? NULL : w->infos[tid].type;
}

/* The schema path of byte `at` (data offset) inside the top frame's
 * current element, built from the frame stack. */
static void build_path(blobc_walk *w, size_t at, blobc_error *err) {
    pbuf b = {0};
    for (size_t k = 0; k < w->nframes; k++) {
        const blobc_wframe *f = &w->frames[k];
        if (k > 0) {
            const blobc_wframe *p = &w->frames[k - 1];
            const blobc_winfo *pi = &w->infos[p->tid];
            const wop *pops = p->fast ? pi->rops : pi->ops;
            if (p->pc > 0 && p->pc <= (p->fast ? pi->nrops : pi->nops)) {
                const wop *op = &pops[p->pc - 1];
                type_path(w, &b, pi->type, op->off, op->code == OP_LOOP || op->code == OP_CALL ? op : NULL);
            }
        }
        if (f->indexed) pb_index(&b, f->i);
    }
    if (at != SIZE_MAX && w->nframes) {
        const blobc_wframe *f = &w->frames[w->nframes - 1];
        const blobc_winfo *fi = &w->infos[f->tid];
        uint64_t ebase = f->base + (uint64_t)f->i * fi->size;
        if (at >= ebase) type_path(w, &b, fi->type, at - ebase, NULL);
    }
    if (b.s && !b.oom) {
        const char *p = b.s;
        size_t n = b.len;
        if (n && p[0] == '.') {
            p++;
            n--;
        }
        if (n >= BLOBC_ERROR_PATH_MAX) {
            char tail[BLOBC_ERROR_PATH_MAX];
            memcpy(tail, "...", 3);
            memcpy(tail + 3, p + n - PATH_KEEP, PATH_KEEP);
            tail[3 + PATH_KEEP] = '\0';
            blobc_err_path(err, tail);
        } else {
            blobc_err_path(err, p);
        }
    }
    free(b.s);
}

/* Fails with `code` at data offset `at`; the path is that of byte
 * `path_at` in the top frame's element (SIZE_MAX: the frames only). */
static blobc_status wfail(blobc_walk *w, blobc_error *err, int code, size_t at, size_t path_at,
                          const char *fmt, ...) BLOBC_PRINTF(6, 7);
static blobc_status wfail(blobc_walk *w, blobc_error *err, int code, size_t at, size_t path_at,
                          const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    blobc_verr(err, BLOBC_EINPUT, fmt, ap);
    va_end(ap);
    if (err) {
        err->code = code;
        blobc_err_offset(err, w->err_base + at);
        err->path[0] = '\0';
        build_path(w, path_at, err);
    }
    return BLOBC_EINPUT;
}

static bool push_frame(blobc_walk *w, uint32_t tid, size_t base, size_t n, uint32_t tab,
                       bool indexed) {
    if (!grow((void **)&w->frames, &w->frames_cap, w->nframes + 1, sizeof *w->frames)) return false;
    blobc_wframe *f = &w->frames[w->nframes++];
    f->tid = tid;
    f->base = (uint32_t)base;
    f->n = (uint32_t)n;
    f->i = 0;
    f->pc = 0;
    f->tab = tab;
    f->ck = 0;
    f->indexed = indexed;
    f->fast = 0;
    return true;
}

/* ---- the checks ---- */

static uint64_t load_le(const uint8_t *p, unsigned size) {
    switch (size) {
    case 1: return p[0];
    case 2: return blobc_ld16(p);
    case 4: return blobc_ld32(p);
    default: return blobc_ld64(p);
    }
}

static bool enum_ok(const blobc_winfo *in, uint64_t key) {
    if (key < in->emin || key > in->emax) return false;
    if (in->edense) return true;
    uint64_t d = key - in->emin;
    if (in->ebits) return (in->ebits[d / 8] >> (d % 8)) & 1;
    size_t lo = 0, hi = in->nevals;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (in->evals[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo < in->nevals && in->evals[lo] == key;
}

static bool f32_bad(uint32_t b) { return (b & 0x7fffffffu) > 0x7f800000u && b != 0x7fc00000u; }

/* Whether any of n floats at q is a NaN (canonical or not): two at a time
 * in a 64-bit word. |x| > 0x7f800000 is bit 31 of |x| + 0x007fffff, which
 * cannot carry into the other half. A hit is rechecked exactly. */
HOT bool f32_maybe_nan(const uint8_t *q, uint32_t n) {
    uint64_t acc = 0;
    uint32_t k = 0;
    for (; k + 2 <= n; k += 2)
        acc |= (blobc_ld64(q + 4 * k) & 0x7fffffff7fffffffull) + 0x007fffff007fffffull;
    if (k < n) acc |= (uint64_t)((blobc_ld32(q + 4 * k) & 0x7fffffffu) + 0x007fffffu);
    return (acc & 0x8000000080000000ull) != 0;
}
static bool f64_bad(uint64_t b) {
    return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull && b != 0x7ff8000000000000ull;
}

/* Whether the enum value of es bytes at q is declared. */
static bool enum_item_ok(const blobc_winfo *ei, const uint8_t *q, unsigned es) {
    uint64_t v = load_le(q, es);
    if (ei->esigned && es < 8 && (v >> (8 * es - 1)) & 1) v |= ~0ull << (8 * es);
    return enum_ok(ei, enum_bias(ei->esigned, v));
}

/* Whether the one item of check op `op` at q breaks its rule. */
static bool item_bad(const blobc_walk *w, const wop *op, const uint8_t *q) {
    switch (op->code) {
    case OP_BOOL: return *q > 1;
    case OP_F32: return f32_bad(blobc_ld32(q));
    case OP_F64: return f64_bad(blobc_ld64(q));
    case OP_ENUM: return !enum_item_ok(&w->infos[op->tid], q, op->esize);
    case OP_MASK: return (blobc_ld64(q) & op->mask) != 0;
    default: return *q != 0; /* padding */
    }
}

/* Runs check op `op` over n items starting at data offset p. Returns 0, or
 * the code with *bad set to the offending byte. Long runs of bools and
 * floats are tested in one branch-free pass; only a failure pays for
 * finding the item. */
static int run_check(const blobc_walk *w, const wop *op, size_t p, size_t n, size_t *bad) {
    const uint8_t *d = w->data + p;
    unsigned acc = 0;
    switch (op->code) {
    case OP_BOOL:
        for (size_t i = 0; i < n; i++) acc |= d[i];
        acc = acc > 1;
        break;
    case OP_PAD:
        for (size_t i = 0; i < n; i++) acc |= d[i];
        break;
    case OP_F32:
        for (size_t i = 0; i < n; i++) acc |= f32_bad(blobc_ld32(d + 4 * i));
        break;
    case OP_F64:
        for (size_t i = 0; i < n; i++) acc |= f64_bad(blobc_ld64(d + 8 * i));
        break;
    case OP_MASK: {
        uint64_t m = 0;
        for (size_t i = 0; i < n; i++) m |= blobc_ld64(d + 8 * i) & op->mask;
        acc = m != 0;
        break;
    }
    default:
        acc = 1;
        break;
    }
    if (BLOBC_LIKELY(!acc)) return 0;
    for (size_t i = 0; i < n; i++) {
        if (item_bad(w, op, d + (size_t)op->esize * i)) {
            *bad = p + (size_t)op->esize * i;
            if (op->code == OP_MASK) {
                /* the first byte that has a forbidden bit */
                uint64_t v = blobc_ld64(d + 8 * i) & op->mask;
                while (!(v & 0xff)) {
                    v >>= 8;
                    ++*bad;
                }
                return CODE_MASK;
            }
            switch (op->code) {
            case OP_BOOL: return BLOBC_V_BOOL;
            case OP_F32:
            case OP_F64: return BLOBC_V_NAN;
            case OP_ENUM: return BLOBC_V_ENUM;
            default: return BLOBC_V_PADDING;
            }
        }
    }
    return 0;
}

/* Whether elements [i0, i1) of values of `in` from data offset base pass
 * every check op. Op by op over the elements, one accumulator and one
 * branch per op: the OR of (word & mask) is (OR of words) & mask, and the
 * NaN tests only say "maybe" (a canonical NaN sets them too), so a hit is
 * settled by an exact pass over that op. True is exactly "no check op of
 * these elements fails"; on false the caller walks them in order, op by
 * op, to report the first failure as if this pass had not run. */
static bool checks_pass(const blobc_walk *w, const blobc_winfo *in, size_t base, size_t i0,
                        size_t i1) {
    const size_t es = in->size, cnt = i1 - i0;
    for (uint32_t k = 0; k < in->ncops; k++) {
        const wop *op = &in->cops[k];
        const uint8_t *q = w->data + base + i0 * es + op->off;
        const uint32_t n = op->n;
        switch (op->code) {
        case OP_MASK:
            /* word by word, each over the elements: one load and one OR
             * an element */
            for (uint32_t j = 0; j < n; j++) {
                const uint8_t *r = q + 8 * j;
                uint64_t a0 = 0, a1 = 0;
                size_t i = 0;
                for (; i + 2 <= cnt; i += 2, r += 2 * es) {
                    a0 |= ld64(r);
                    a1 |= ld64(r + es);
                }
                if (i < cnt) a0 |= ld64(r);
                if ((a0 | a1) & op->mask) return false;
            }
            break;
        case OP_F32: {
            /* two floats a word, each pair over the elements */
            uint64_t acc = 0;
            uint32_t j = 0;
            for (; j + 2 <= n; j += 2) {
                const uint8_t *r = q + 4 * j;
                uint64_t a0 = 0, a1 = 0;
                size_t i = 0;
                for (; i + 2 <= cnt; i += 2, r += 2 * es) {
                    a0 |= (ld64(r) & 0x7fffffff7fffffffull) + 0x007fffff007fffffull;
                    a1 |= (ld64(r + es) & 0x7fffffff7fffffffull) + 0x007fffff007fffffull;
                }
                if (i < cnt) a0 |= (ld64(r) & 0x7fffffff7fffffffull) + 0x007fffff007fffffull;
                acc |= a0 | a1;
            }
            if (j < n)
                for (size_t i = 0; i < cnt; i++)
                    acc |= (ld32(q + i * es + 4 * j) & 0x7fffffffu) + 0x007fffffu;
            if (BLOBC_UNLIKELY(acc & 0x8000000080000000ull))
                for (size_t i = 0; i < cnt; i++)
                    for (j = 0; j < n; j++)
                        if (f32_bad(ld32(q + i * es + 4 * j))) return false;
            break;
        }
        case OP_F64: {
            /* |x| > 0x7ff0000000000000 carries into bit 63 */
            uint64_t acc = 0;
            for (size_t i = 0; i < cnt; i++)
                for (uint32_t j = 0; j < n; j++)
                    acc |= (ld64(q + i * es + 8 * j) & 0x7fffffffffffffffull) +
                           0x000fffffffffffffull;
            if (BLOBC_UNLIKELY(acc >> 63))
                for (size_t i = 0; i < cnt; i++)
                    for (uint32_t j = 0; j < n; j++)
                        if (f64_bad(ld64(q + i * es + 8 * j))) return false;
            break;
        }
        case OP_BOOL:
        case OP_PAD: {
            unsigned acc = 0;
            for (size_t i = 0; i < cnt; i++)
                for (uint32_t j = 0; j < n; j++) acc |= q[i * es + j];
            if (acc > (op->code == OP_BOOL ? 1u : 0u)) return false;
            break;
        }
        case OP_ENUM: {
            const blobc_winfo *ei = &w->infos[op->tid];
            const unsigned esz = op->esize;
            for (size_t i = 0; i < cnt; i++)
                for (uint32_t j = 0; j < n; j++)
                    if (!enum_item_ok(ei, q + i * es + (size_t)esz * j, esz)) return false;
            break;
        }
        default:
            return false;
        }
    }
    return true;
}

/* The message for a failed check at data offset `bad`. */
static blobc_status check_fail(blobc_walk *w, blobc_error *err, const wop *op, int code,
                               size_t bad, const blobc_type *etype, size_t ebase) {
    const uint8_t *d = w->data + bad;
    if (code == CODE_MASK) {
        /* down to the leaf holding the byte: a bool, an enum, or padding */
        const blobc_type *t = etype;
        uint64_t off = bad - ebase;
        char comp[BLOBC_PATH_STEP_MAX];
        while (blobc_path_step(&t, &off, comp, sizeof comp)) {
        }
        if (t->kind == BLOBC_KIND_BOOL) return check_fail(w, err, op, BLOBC_V_BOOL, bad, t, 0);
        if (t->kind == BLOBC_KIND_ENUM) {
            wop eop = {OP_ENUM, (uint8_t)t->size, 0, 1, pmap_get(w, t), 0};
            return check_fail(w, err, &eop, BLOBC_V_ENUM, bad - (size_t)off, t, 0);
        }
        code = BLOBC_V_PADDING;
    }
    switch (code) {
    case BLOBC_V_BOOL:
        return wfail(w, err, code, bad, bad, "bool byte is %u, not 0 or 1", d[0]);
    case BLOBC_V_NAN:
        if (op->code == OP_F32)
            return wfail(w, err, code, bad, bad,
                         "f32 NaN 0x%08" PRIx32 " is not the canonical NaN 0x7fc00000",
                         blobc_ld32(d));
        return wfail(w, err, code, bad, bad,
                     "f64 NaN 0x%016" PRIx64 " is not the canonical NaN 0x7ff8000000000000",
                     blobc_ld64(d));
    case BLOBC_V_ENUM: {
        const blobc_winfo *in = &w->infos[op->tid];
        unsigned es = op->esize;
        uint64_t v = load_le(d, es);
        if (blobc_kind_is_signed(in->type->elem->kind)) {
            if (es < 8 && (v >> (8 * es - 1)) & 1) v |= ~0ull << (8 * es);
            return wfail(w, err, code, bad, bad, "%" PRId64 " is not a value of enum %s",
                         (int64_t)v, in->type->name ? in->type->name : "?");
        }
        return wfail(w, err, code, bad, bad, "%" PRIu64 " is not a value of enum %s", v,
                     in->type->name ? in->type->name : "?");
    }
    default:
        return wfail(w, err, code, bad, bad, "nonzero padding byte 0x%02x", d[0]);
    }
}

/* Index of the first byte of s[0..n) that starts an invalid UTF-8 sequence. */
static size_t utf8_bad_at(const uint8_t *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                                  : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (len == 0 || len > n - i || !blobc_utf8_valid(s + i, len)) return i;
        i += len;
    }
    return n;
}

/* ---- offset fields ---- */

/* Index of the payload starting at `start`: a small direct-mapped cache in
 * front of the binary search, because shared payloads (a common tag, a
 * default material) tend to be referenced again and again. */
static size_t find_cached(blobc_walk *w, uint32_t start) {
    size_t h = (size_t)((start * 2654435761u) >> (32 - BLOBC_WALK_CACHE_BITS));
    uint32_t c = w->bcache[h];
    if (c && c - 1 < w->ntab && w->tstart[c - 1] == start) return c - 1;
    size_t k = blobc_walk_find(w, start);
    if (k != SIZE_MAX) w->bcache[h] = (uint32_t)(k + 1);
    return k;
}

/* String bytes: NUL last and nowhere else, valid UTF-8. The common case
 * (short ASCII) is one pass of 8-byte words. */
static int string_check(const uint8_t *s, size_t n, size_t *bad) {
    if (s[n - 1] != 0) {
        *bad = n - 1;
        return BLOBC_V_STRING_NUL;
    }
    size_t m = n - 1, i = 0;
    for (; i + 8 <= m; i += 8) {
        uint64_t v;
        memcpy(&v, s + i, 8);
        if ((v | ((v - 0x0101010101010101ull) & ~v)) & 0x8080808080808080ull) break;
    }
    while (i < m && s[i] != 0 && s[i] < 0x80) i++;
    if (BLOBC_LIKELY(i == m)) return 0;
    const uint8_t *z = memchr(s + i, 0, m - i);
    if (z) {
        *bad = (size_t)(z - s);
        return BLOBC_V_STRING_NUL;
    }
    if (!blobc_utf8_valid(s + i, m - i)) {
        *bad = i + utf8_bad_at(s + i, m - i);
        return BLOBC_V_UTF8;
    }
    return 0;
}

#if defined(__SSE2__)
/* Bit k set when byte k of the 16 at p is 1..0x7f (a signed compare with
 * 0: NUL and non-ASCII bytes both fail it). */
static inline unsigned plain16(const uint8_t *p) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    return (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_setzero_si128()));
}
#else
/* Whether the 8 bytes of v are all ASCII and none is NUL. */
static inline bool word_plain(uint64_t v) {
    return !((v | ((v - 0x0101010101010101ull) & ~v)) & 0x8080808080808080ull);
}
#endif

/* The common case of string bytes at d + t (n of them, NUL included):
 * ASCII, no NUL inside, NUL last — tested 16 bytes at a time (or a word
 * at a time without SSE2), a short string in one load that ends at the
 * string's end, the bytes before it (someone else's) masked out; the
 * overlap of the last load with the one before is string bytes, checked
 * twice. False means "look closer" (string_check), not "bad". */
HOT bool string_fast(const uint8_t *d, size_t t, size_t n) {
    const uint8_t *s = d + t;
    size_t m = n - 1;
    if (s[m] != 0) return false;
#if defined(__SSE2__)
    if (n >= 16) {
        unsigned ok = plain16(s + n - 16) | 0x8000u;
        if (n > 16) {
            ok &= plain16(s);
            for (size_t i = 16; i + 16 < n; i += 16) ok &= plain16(s + i);
        }
        return ok == 0xffffu;
    }
    if (t + n < 16) return false;
    return (plain16(s + n - 16) | 0x8000u | (0xffffu >> n)) == 0xffffu;
#else
    if (m >= 8) {
        size_t i = 0;
        for (; i + 8 <= m; i += 8)
            if (!word_plain(ld64(s + i))) return false;
        return i == m || word_plain(ld64(s + m - 8));
    }
    if (m == 0) return true;
    if (t + m < 8) return false;
    /* the m string bytes are the top of the word; the bytes below are
     * someone else's: replace them by 0x01 */
    uint64_t v = ld64(s + m - 8) >> (8 * (8 - m));
    return word_plain(v | (0x0101010101010101ull << (8 * m)));
#endif
}

static blobc_status string_fail(blobc_walk *w, blobc_error *err, int code, size_t t, size_t n,
                                size_t b, size_t p) {
    const uint8_t *s = w->data + t;
    if (code == BLOBC_V_STRING_NUL && b == n - 1)
        return wfail(w, err, code, t + b, p, "string does not end with NUL (last byte 0x%02x)",
                     s[b]);
    if (code == BLOBC_V_STRING_NUL)
        return wfail(w, err, code, t + b, p, "NUL inside the string at byte %zu of %zu", b, n - 1);
    return wfail(w, err, code, t + b, p, "string is not valid UTF-8 at byte %zu (0x%02x)", b, s[b]);
}

static blobc_status visit_slow(blobc_walk *w, const wop *op, size_t p, bool *pushed,
                               blobc_error *err);

static blobc_status string_slow(blobc_walk *w, size_t p, size_t t, size_t n, blobc_error *err) {
    size_t b = 0;
    int code = string_check(w->data + t, n, &b);
    return code ? string_fail(w, err, code, t, n, b, p) : BLOBC_OK;
}

/* New string bytes of n bytes at t (the cursor), from the field at p. */
HOT blobc_status place_str(blobc_walk *w, size_t p, size_t t, size_t n, blobc_error *err) {
    if ((BLOBC_UNLIKELY(w->ntab == w->tab_cap) && !tab_grow(w, 1)) ||
        !tab_put(w, t, n, STRBYTES, BLOBC_WP_DONE))
        return blobc_err_nomem(err);
    w->cursor = t + n;
    if (BLOBC_LIKELY(string_fast(w->data, t, n))) return BLOBC_OK;
    return string_slow(w, p, t, n, err);
}

/* The items from `from` on of a new [string] (or *string) payload of cnt
 * items at t, table entry j: each places its bytes in turn, no frame
 * needed. */
static blobc_status string_items(blobc_walk *w, size_t t, size_t cnt, size_t j, size_t from,
                                 bool indexed, blobc_error *err) {
    static const wop str_op = {OP_STR, 0, 0, 1, STRBYTES, 0};
    for (size_t i = from; i < cnt; i++) {
        bool sub = false;
        size_t q = t + 8 * i;
        blobc_status st;
        int32_t so = (int32_t)blobc_ld32(w->data + q);
        int32_t sl = (int32_t)blobc_ld32(w->data + q + 4);
        size_t cur = w->cursor;
        if (BLOBC_LIKELY(so > 0 && sl > 0 && q + (size_t)so == cur &&
                         (uint64_t)(uint32_t)sl <= w->size - cur))
            st = place_str(w, q, cur, (size_t)sl, err);
        else
            st = visit_slow(w, &str_op, q, &sub, err);
        if (BLOBC_UNLIKELY(st != BLOBC_OK)) {
            /* The path must name the item: rebuild it with a frame. */
            if (err && err->code &&
                push_frame(w, BLOBC_KIND_STRING, t, cnt, (uint32_t)j, indexed)) {
                w->frames[w->nframes - 1].i = (uint32_t)i;
                w->frames[w->nframes - 1].pc = 1;
                err->path[0] = '\0';
                build_path(w, q, err);
            }
            return st;
        }
    }
    return BLOBC_OK;
}

/* A new payload of cnt elements of tid at t (= the aligned cursor, gap
 * checked), referenced from the field at p: records it, checks strings
 * and frame-less element types at once, or pushes a frame. */
static blobc_status place(blobc_walk *w, const wop *op, size_t p, size_t t, size_t cnt,
                          uint32_t tid, bool *pushed, blobc_error *err) {
    if (op->code == OP_STR) return place_str(w, p, t, cnt, err);
    /* compiled before it is recorded: the table holds only payloads of
     * types with a sound layout, which the map relies on */
    if (BLOBC_UNLIKELY(w->infos[tid].state != ST_COMPILED)) {
        blobc_status st = ensure_compiled(w, tid, err);
        if (st != BLOBC_OK) return st;
    }
    size_t j = w->ntab;
    if ((BLOBC_UNLIKELY(w->ntab == w->tab_cap) && !tab_grow(w, 1)) ||
        !tab_put(w, t, cnt, tid, op->code == OP_PTR ? BLOBC_WP_PTR : 0))
        return blobc_err_nomem(err);
    size_t esz = w->infos[tid].size;
    w->cursor = t + cnt * esz;
    w->work++;
    const blobc_winfo *in = &w->infos[tid];
    if (in->nops == 0) {
        w->tinfo[j] |= BLOBC_WP_DONE;
        return BLOBC_OK;
    }
    bool indexed = op->code == OP_ARR;
    if (tid == BLOBC_KIND_STRING) {
        w->tinfo[j] |= BLOBC_WP_DONE;
        return string_items(w, t, cnt, j, 0, indexed, err);
    }
    if (in->flat) {
        size_t bad = 0;
        int code = 0;
        const wop *fop = NULL;
        if (in->run) {
            fop = &in->ops[0];
            code = run_check(w, fop, t, cnt * fop->n, &bad);
            w->work += (cnt * esz) / 64;
        } else {
            /* all checks by chunks first; a failing chunk is walked again
             * op by op to find its first failure */
            size_t i = 0;
            while (i < cnt) {
                size_t i1 = cnt - i > in->chunk ? i + in->chunk : cnt;
                if (!checks_pass(w, in, t, i, i1)) break;
                w->work += (i1 - i) * in->nops;
                i = i1;
            }
            for (; i < cnt && !code; i++) {
                size_t eb = t + i * esz;
                for (uint32_t k = 0; k < in->nops; k++) {
                    fop = &in->ops[k];
                    code = run_check(w, fop, eb + fop->off, fop->n, &bad);
                    if (code) break;
                }
                w->work += in->nops;
            }
        }
        if (BLOBC_LIKELY(!code)) {
            w->tinfo[j] |= BLOBC_WP_DONE;
            return BLOBC_OK;
        }
        /* A frame for the failing element, so that the path names it. */
        if (!push_frame(w, tid, t, cnt, (uint32_t)j, indexed)) return blobc_err_nomem(err);
        size_t ei = (bad - t) / esz;
        w->frames[w->nframes - 1].i = (uint32_t)ei;
        return check_fail(w, err, fop, code, bad, in->type, t + ei * esz);
    }
    if (!push_frame(w, tid, t, cnt, (uint32_t)j, indexed)) return blobc_err_nomem(err);
    w->frames[w->nframes - 1].fast = 1;
    *pushed = true;
    return BLOBC_OK;
}

/* Every check of an offset field, in the documented order, for the cases
 * the fast path in visit_offset did not settle: errors, references to
 * placed payloads, and payloads behind a nonzero gap. */
static blobc_status visit_slow(blobc_walk *w, const wop *op, size_t p, bool *pushed,
                               blobc_error *err) {
    const uint8_t *d = w->data;
    size_t size = w->size;
    int32_t off = (int32_t)blobc_ld32(d + p);
    int64_t cnt = 1;
    uint32_t tid;
    const char *what;
    if (op->code == OP_PTR) {
        if (off == 0) return BLOBC_OK;
        tid = op->tid;
        what = "pointer";
    } else {
        int32_t len = (int32_t)blobc_ld32(d + p + 4);
        if (op->code == OP_STR) {
            tid = STRBYTES;
            what = "string";
            if (off == 0)
                return wfail(w, err, BLOBC_V_NULL_LENGTH, p, p,
                             "string offset is 0 (a string is never null)");
            if (len < 0)
                return wfail(w, err, BLOBC_V_LENGTH, p, p, "string length %" PRId32 " is negative",
                             len);
            if (len == 0)
                return wfail(w, err, BLOBC_V_NULL_LENGTH, p, p,
                             "string length 0 (it counts the NUL: the empty string is 1)");
        } else {
            tid = op->tid;
            what = "array";
            if (len < 0)
                return wfail(w, err, BLOBC_V_LENGTH, p, p, "array length %" PRId32 " is negative",
                             len);
            if (off == 0) {
                if (len != 0)
                    return wfail(w, err, BLOBC_V_NULL_LENGTH, p, p,
                                 "array offset 0 (empty) with length %" PRId32, len);
                return BLOBC_OK;
            }
            if (len == 0)
                return wfail(w, err, BLOBC_V_NULL_LENGTH, p, p,
                             "array length 0 with offset %" PRId32 " (empty is offset 0)", off);
        }
        cnt = len;
    }
    uint64_t esz = w->infos[tid].size;
    uint64_t align = w->infos[tid].align;
    int64_t target = (int64_t)p + off;
    if (target < 0)
        return wfail(w, err, BLOBC_V_OFFSET_RANGE, p, p,
                     "%s offset %" PRId32 " leads %" PRId64 " byte(s) before the data section", what,
                     off, -target);
    if (target >= (int64_t)size)
        return wfail(w, err, BLOBC_V_OFFSET_RANGE, p, p,
                     "%s offset %" PRId32 " leads to 0x%" PRIx64
                     ", past the end of the data section (0x%" PRIx64 ")",
                     what, off, AT(target), AT(size));
    size_t t = (size_t)target;
    if (t & (align - 1))
        return wfail(w, err, BLOBC_V_MISALIGNED, p, p,
                     "%s target 0x%" PRIx64 " is not aligned to %" PRIu64, what, AT(t), align);
    /* cnt < 2^31 and esz < 2^31: the product cannot wrap in 64 bits. */
    if ((uint64_t)cnt * esz > size - t) {
        if (op->code == OP_PTR)
            return wfail(w, err, BLOBC_V_OFFSET_RANGE, p, p,
                         "pointer target at 0x%" PRIx64 " needs %" PRIu64 " bytes, %zu remain", AT(t), esz,
                         size - t);
        return wfail(w, err, BLOBC_V_LENGTH, p, p,
                     "%s of %" PRId64 " items of %" PRIu64 " bytes at 0x%" PRIx64
                     " does not fit in the data section",
                     what, cnt, esz, AT(t));
    }
    if (t < w->cursor) {
        size_t k = find_cached(w, (uint32_t)t);
        if (k == SIZE_MAX) {
            size_t c = find_containing(w, t);
            if (c != SIZE_MAX)
                return wfail(w, err, BLOBC_V_OVERLAP, p, p,
                             "%s target 0x%" PRIx64 " points inside the payload at 0x%" PRIx64, what,
                             AT(t), AT(w->tstart[c]));
            return wfail(w, err, BLOBC_V_OVERLAP, p, p,
                         "%s target 0x%" PRIx64 " points back into padding, not at a payload", what,
                         AT(t));
        }
        blobc_wpayload e = blobc_walk_payload(w, k);
        if (e.tid != tid || e.count != (uint64_t)cnt) {
            char want[96], have[96];
            spell_tid(w, tid, want, sizeof want);
            spell_tid(w, e.tid, have, sizeof have);
            return wfail(w, err, BLOBC_V_OVERLAP, p, p,
                         "%s target 0x%" PRIx64 " (%" PRId64 " x %s) overlaps the payload there (%" PRIu32
                         " x %s)",
                         what, AT(t), cnt, want, e.count, have);
        }
        if (!(e.flags & BLOBC_WP_DONE))
            return wfail(w, err, BLOBC_V_CYCLE, p, p,
                         "%s target 0x%" PRIx64 " is a payload that contains this field (a cycle)",
                         what, AT(t));
        w->tinfo[k] |= BLOBC_WP_SHARED;
        if (op->code != OP_STR && ((e.flags & BLOBC_WP_PTR) != 0) != (op->code == OP_PTR))
            w->tinfo[k] |= BLOBC_WP_MIXED;
        return BLOBC_OK;
    }
    size_t at = (w->cursor + (size_t)align - 1) & ~((size_t)align - 1);
    if (t != at)
        return wfail(w, err, BLOBC_V_LAYOUT, p, p,
                     "%s target 0x%" PRIx64 " is not where the next payload goes (0x%" PRIx64 ")",
                     what, AT(t), AT(at));
    for (size_t g = w->cursor; g < at; g++)
        if (d[g])
            return wfail(w, err, BLOBC_V_PADDING, g, p,
                         "nonzero gap byte 0x%02x before the %s target", d[g], what);
    return place(w, op, p, t, (size_t)cnt, tid, pushed, err);
}

/* The offset field of `op` at data offset p. The common case — a new
 * payload exactly at the aligned cursor, fitting, after a zero gap — is
 * settled here with a handful of compares (it implies every range check);
 * everything else goes through visit_slow. The caller has stored pc + 1
 * in the top frame; a pushed frame is reported in *pushed. */
static inline blobc_status visit_offset(blobc_walk *w, const wop *op, size_t p, bool *pushed,
                                        blobc_error *err) {
    const uint8_t *d = w->data;
    int32_t off = (int32_t)blobc_ld32(d + p);
    int32_t len = 1;
    uint32_t tid = op->tid;
    if (op->code == OP_STR) {
        len = (int32_t)blobc_ld32(d + p + 4);
        size_t cur = w->cursor;
        if (BLOBC_LIKELY(off > 0 && len > 0 && p + (size_t)off == cur &&
                         (uint64_t)(uint32_t)len <= w->size - cur))
            return place_str(w, p, cur, (size_t)len, err);
        return visit_slow(w, op, p, pushed, err);
    }
    if (op->code == OP_PTR) {
        if (off == 0) return BLOBC_OK;
    } else {
        len = (int32_t)blobc_ld32(d + p + 4);
        if (op->code == OP_STR) tid = STRBYTES;
        else if (off == 0 && len == 0) return BLOBC_OK;
        if (off == 0 || len <= 0) return visit_slow(w, op, p, pushed, err);
    }
    const blobc_winfo *in = &w->infos[tid];
    size_t cur = w->cursor;
    size_t at = (cur + in->align - 1) & ~((size_t)in->align - 1);
    size_t t = p + (size_t)(int64_t)off;
    if (BLOBC_LIKELY(t == at && at <= w->size &&
                     (uint64_t)(uint32_t)len * in->size <= w->size - at)) {
        if (BLOBC_LIKELY(at - cur < 8 && at >= 8)) {
            /* the gap (0 to 7 bytes, after a string mostly) is the top of
             * the word that ends at the target: one test, no loop whose
             * trip count the branch predictor has to guess */
            if (blobc_ld64(d + at - 8) & ~(~0ull >> (8 * (at - cur))))
                return visit_slow(w, op, p, pushed, err);
        } else {
            for (size_t g = cur; g < at; g++)
                if (d[g]) return visit_slow(w, op, p, pushed, err);
        }
        if (tid == BLOBC_KIND_STRING) {
            /* [string], *string: the items' bytes follow at once */
            size_t j = w->ntab;
            if ((BLOBC_UNLIKELY(w->ntab == w->tab_cap) && !tab_grow(w, 1)) ||
                !tab_put(w, t, (uint32_t)len, tid,
                         BLOBC_WP_DONE | (op->code == OP_PTR ? BLOBC_WP_PTR : 0)))
                return blobc_err_nomem(err);
            w->cursor = t + (size_t)(uint32_t)len * 8;
            return string_items(w, t, (uint32_t)len, j, 0, op->code == OP_ARR, err);
        }
        if (in->state == ST_COMPILED && in->nops == 0) {
            /* items with nothing to check ([u32], *Vec2i): just placed */
            if ((BLOBC_UNLIKELY(w->ntab == w->tab_cap) && !tab_grow(w, 1)) ||
                !tab_put(w, t, (uint32_t)len, tid,
                         BLOBC_WP_DONE | (op->code == OP_PTR ? BLOBC_WP_PTR : 0)))
                return blobc_err_nomem(err);
            w->cursor = t + (size_t)(uint32_t)len * in->size;
            return BLOBC_OK;
        }
        return place(w, op, p, t, (size_t)len, tid, pushed, err);
    }
    return visit_slow(w, op, p, pushed, err);
}

/* ---- the walk ---- */

/* The payload table as the fast walk keeps it: in registers, written
 * back (tab_sync) before anything else touches the walk, and read again
 * (tab_load) after, since that may have moved the table. */
typedef struct wtab {
    size_t cur, nt, cap;
    uint32_t *start, *info;
} wtab;

HOT void tab_load(const blobc_walk *w, wtab *t) {
    t->cur = w->cursor;
    t->nt = w->ntab;
    t->cap = w->tab_cap;
    t->start = w->tstart;
    t->info = w->tinfo;
}

HOT void tab_sync(blobc_walk *w, const wtab *t) {
    w->cursor = t->cur;
    w->ntab = t->nt;
}

/* Grows the table for `need` more payloads (see walk_refs). */
static bool tab_room(blobc_walk *w, wtab *t, size_t need) {
    tab_sync(w, t);
    if (!tab_grow(w, need)) return false;
    tab_load(w, t);
    return true;
}

/* The common case of the string field at p: new bytes right at the
 * cursor, few enough for the packed table entry, ASCII with the one NUL
 * last. Records them (the caller made room) and moves the cursor. False,
 * with nothing changed, for anything else: visit_offset then decides.
 * Every range check is implied: the target is the cursor and 1 <= length
 * <= size - cursor (a negative offset or length read as unsigned is past
 * any data section). */
HOT bool str_quick(const uint8_t *d, size_t size, size_t p, wtab *t) {
    uint32_t so = ld32(d + p), sl = ld32(d + p + 4);
    size_t c = t->cur;
    if (BLOBC_UNLIKELY((uint64_t)p + so != c || sl - 1u >= 0xffffu || c + sl > size ||
                       !string_fast(d, c, sl)))
        return false;
    t->start[t->nt] = (uint32_t)c;
    t->info[t->nt++] = pack(STRBYTES, sl, BLOBC_WP_DONE);
    t->cur = c + sl;
    return true;
}

/* Whether the gap [cur, at) before a payload (less than its alignment)
 * is zero; at <= size. A gap under 8 bytes is the top of the word that
 * ends at the target: one test, no loop. */
HOT bool gap_zero(const uint8_t *d, size_t cur, size_t at) {
    size_t g = at - cur;
    if (BLOBC_LIKELY(g < 8 && at >= 8)) return !(ld64(d + at - 8) & ~(~0ull >> (8 * g)));
    for (; cur < at; cur++)
        if (d[cur]) return false;
    return true;
}

/* A LOOP or CALL op at p: the inline value(s) walked in a frame of their
 * own, fast (checks by chunks). A type with checks only needs no frame
 * when they all pass; else a slow frame from the first failing chunk
 * finds the failure. *pushed tells whether a frame was pushed. */
static blobc_status enter_inline(blobc_walk *w, const wop *op, size_t p, bool *pushed,
                                 blobc_error *err) {
    uint32_t sub = op->tid;
    blobc_status st = ensure_compiled(w, sub, err);
    if (st != BLOBC_OK) return st;
    const blobc_winfo *si = &w->infos[sub];
    size_t i = 0;
    if (si->flat) {
        while (i < op->n) {
            size_t i1 = op->n - i > si->chunk ? i + si->chunk : op->n;
            if (!checks_pass(w, si, p, i, i1)) break;
            i = i1;
        }
        w->work += (uint64_t)i * si->nops;
        if (i == op->n) return BLOBC_OK;
    }
    if (!push_frame(w, sub, p, op->n, NONE, op->code == OP_LOOP)) return blobc_err_nomem(err);
    blobc_wframe *f = &w->frames[w->nframes - 1];
    f->i = (uint32_t)i;
    f->fast = !si->flat;
    *pushed = true;
    return BLOBC_OK;
}

/* What the fast walk leaves to the general path, with the top frame's
 * place (element i, op pc - 1 of the rops) stored as the slow walk has
 * it, so that a pushed frame resumes there and errors name the path. */
static blobc_status refs_slow(blobc_walk *w, const wop *op, size_t p, uint32_t i, uint32_t pc,
                              bool *pushed, blobc_error *err) {
    blobc_wframe *f = &w->frames[w->nframes - 1];
    f->i = i;
    f->pc = pc;
    if (op->code == OP_LOOP || op->code == OP_CALL) return enter_inline(w, op, p, pushed, err);
    return visit_offset(w, op, p, pushed, err);
}

enum { FR_DONE, FR_PUSHED, FR_SLOW };

/* Walks the top frame, a fast one, from its current element and op. Each
 * chunk of elements has its checks run first (checks_pass); then their
 * offset fields are visited in order, the common cases inline with the
 * cursor and table in registers: a string's new bytes, a new [T] or *T
 * of items with nothing to check, a new [string] and its strings. The
 * rest goes through the general path (refs_slow). *next tells how it
 * stopped: the frame is done, a frame was pushed on top, or a chunk fails
 * a check and the frame turned slow at that chunk's first element, where
 * the op-by-op walk takes over and reports the first failure in canonical
 * order. */
static blobc_status walk_refs(blobc_walk *w, int *next, blobc_error *err) {
    blobc_wframe *f = &w->frames[w->nframes - 1];
    const uint32_t tid = f->tid, n = f->n;
    const blobc_winfo *infos = w->infos;
    const wop *const ops = infos[tid].rops; /* in the arena: never moves */
    const uint32_t nops = infos[tid].nrops;
    const wop *const end = ops ? ops + nops : NULL;
    const size_t esize = infos[tid].size, base = f->base, size = w->size;
    const uint8_t *const d = w->data;
    size_t ck = f->ck;
    wtab t;
    tab_load(w, &t);
    blobc_status st;
    for (uint32_t i = f->i, pc = f->pc; i < n; i++, pc = 0) {
        /* (a frame resumed inside an element has checked past it) */
        if (i >= ck) {
            const blobc_winfo *in = &infos[tid];
            ck = n - i > in->chunk ? i + in->chunk : n;
            if (in->ncops && !checks_pass(w, in, base, i, ck)) {
                f->fast = 0;
                f->i = i;
                f->pc = 0;
                tab_sync(w, &t);
                *next = FR_SLOW;
                return BLOBC_OK;
            }
            f->ck = (uint32_t)ck;
        }
        /* Room in the table for a payload from each field, checked once an
         * element (and a [string]'s items once an array). With the table
         * reserved for size / 4 + 2 payloads it always is: the payloads
         * placed so far, plus one for each field not yet visited, are at
         * most one a 4-byte field plus the root. */
        if (BLOBC_UNLIKELY(t.cap - t.nt < nops) && !tab_room(w, &t, nops))
            return blobc_err_nomem(err);
        const size_t ebase = base + (size_t)i * esize;
        for (const wop *op = pc ? ops + pc : ops; op != end; op++) {
            const size_t p = ebase + op->off;
            uint32_t ao, al;
            switch (op->code) {
            case OP_STR:
                if (BLOBC_LIKELY(str_quick(d, size, p, &t))) continue;
                goto general;
            case OP_ARR:
                ao = ld32(d + p);
                al = ld32(d + p + 4);
                if ((ao | al) == 0) continue; /* empty */
                break;
            case OP_PTR:
                ao = ld32(d + p);
                al = 1;
                if (ao == 0) continue; /* null */
                break;
            default:
                goto general;
            }
            {
                /* the items' size, alignment, class and table entry,
                 * decoded by compile_one */
                const size_t esz = op->n, amask = (uint32_t)op->mask;
                const size_t at = (t.cur + amask) & ~amask;
                const unsigned cls = op->esize ? op->esize : infos[op->tid].cls;
                /* a new payload at the aligned cursor, 1 to 0xffff items
                 * (al - 1 wraps for 0; a negative al is over 2^31) that
                 * fit, after a zero gap */
                if (BLOBC_LIKELY(cls != CLS_OTHER && (uint64_t)p + ao == at && al - 1u < 0xffffu &&
                                 (uint64_t)at + (uint64_t)al * esz <= size &&
                                 (at == t.cur || gap_zero(d, t.cur, at)))) {
                    const size_t k = t.nt++;
                    t.start[k] = (uint32_t)at;
                    t.info[k] = (uint32_t)(op->mask >> 32) | al << 16;
                    t.cur = at + (size_t)al * esz;
                    if (cls == CLS_PLAIN) continue;
                    /* strings: their bytes follow at once */
                    if (BLOBC_UNLIKELY(t.cap - t.nt < al) && !tab_room(w, &t, al))
                        return blobc_err_nomem(err);
                    uint32_t j = 0;
                    while (j < al && str_quick(d, size, at + 8 * (size_t)j, &t)) j++;
                    if (BLOBC_LIKELY(j == al)) continue;
                    tab_sync(w, &t);
                    f->i = i;
                    f->pc = (uint32_t)(op - ops) + 1;
                    st = string_items(w, at, al, k, j, op->code == OP_ARR, err);
                    if (st != BLOBC_OK) return st;
                    tab_load(w, &t);
                    continue;
                }
            }
        general:;
            bool pushed = false;
            tab_sync(w, &t);
            st = refs_slow(w, op, p, i, (uint32_t)(op - ops) + 1, &pushed, err);
            if (st != BLOBC_OK) return st;
            if (pushed) {
                *next = FR_PUSHED;
                return BLOBC_OK;
            }
            /* compiling a type may have grown the infos */
            infos = w->infos;
            f = &w->frames[w->nframes - 1];
            tab_load(w, &t);
        }
    }
    tab_sync(w, &t);
    *next = FR_DONE;
    return BLOBC_OK;
}

blobc_status blobc_walk_run(blobc_walk *w, const uint8_t *data, size_t size, const blobc_type *root,
                            uint64_t err_base, blobc_error *err) {
    w->data = data;
    w->size = size;
    w->err_base = err_base;
    w->cursor = 0;
    w->ntab = 0;
    w->nframes = 0;
    w->work = 0;
    memset(w->bcache, 0, sizeof w->bcache);
    if (!w->infos) {
        if (!grow((void **)&w->infos, &w->infos_cap, BLOBC_KIND_COUNT + 1, sizeof *w->infos))
            return blobc_err_nomem(err);
        memset(w->infos, 0, (BLOBC_KIND_COUNT + 1) * sizeof *w->infos);
        w->ninfos = BLOBC_KIND_COUNT + 1;
        w->infos[STRBYTES].size = 1;
        w->infos[STRBYTES].align = 1;
        w->infos[STRBYTES].state = ST_COMPILED;
    }
    if (size > BLOBC_MAX_DATA_SIZE)
        return wfail(w, err, BLOBC_V_DATA_SIZE, 0, SIZE_MAX,
                     "data section is %zu bytes; offsets are 32-bit, so at most 2147483647", size);
    if (!root) return blobc_err(err, BLOBC_EIO, "no root type to walk the data with");
    uint32_t rid = type_id(w, root);
    if (rid == NONE) return types_error(w, err, -2, root);
    blobc_status st = ensure_compiled(w, rid, err);
    if (st != BLOBC_OK) return st;
    const blobc_winfo *ri = &w->infos[rid];
    if (size < ri->size) {
        char name[128];
        blobc_type_spell(root, name, sizeof name);
        return wfail(w, err, BLOBC_V_DATA_SIZE, 0, SIZE_MAX,
                     "data section is %zu bytes, smaller than the root %s (%" PRIu32 " bytes)", size,
                     name, ri->size);
    }
    w->nbig = 0;
    if (!tab_reserve(w, size) || !tab_put(w, 0, 1, rid, BLOBC_WP_PTR))
        return blobc_err_nomem(err);
    w->cursor = ri->size;
    if (!push_frame(w, rid, 0, 1, 0, false)) return blobc_err_nomem(err);
    w->frames[0].fast = 1;

    const uint8_t *d = data;
    while (w->nframes) {
    next_frame:;
        blobc_wframe *f = &w->frames[w->nframes - 1];
        if (f->fast) {
            int next = FR_DONE;
            st = walk_refs(w, &next, err);
            if (BLOBC_UNLIKELY(st != BLOBC_OK)) return st;
            if (next == FR_PUSHED) goto next_frame;
            f = &w->frames[w->nframes - 1];
            if (next == FR_DONE) goto frame_done;
            /* FR_SLOW: a check fails in the chunk from f->i on */
        }
        /* (fetched after the fast walk, which may have grown the infos) */
        const blobc_winfo *in = &w->infos[f->tid];
        /* The op-by-op walk: every op of every element in order. Only a
         * frame that is to fail a check runs it (see walk_refs). */
        const wop *ops = in->ops;
        const uint32_t nops = in->nops, esize = in->size;
        uint32_t i = f->i, pc = f->pc;
        for (; i < f->n; i++, pc = 0) {
            size_t ebase = f->base + (size_t)i * esize;
            for (; pc < nops; pc++) {
                const wop *op = &ops[pc];
                size_t p = ebase + op->off;
                switch (op->code) {
                case OP_STR:
                case OP_ARR:
                case OP_PTR:
                case OP_LOOP:
                case OP_CALL: {
                    bool pushed = false;
                    f->i = i;
                    f->pc = pc + 1;
                    if (op->code == OP_LOOP || op->code == OP_CALL)
                        st = enter_inline(w, op, p, &pushed, err);
                    else
                        st = visit_offset(w, op, p, &pushed, err);
                    if (BLOBC_UNLIKELY(st != BLOBC_OK)) return st;
                    if (pushed) goto next_frame;
                    /* (ops live in the arena: compiling more types does
                     * not move them, nor does anything move f here) */
                    break;
                }
                case OP_BOOL: {
                    unsigned acc = 0;
                    for (uint32_t k = 0; k < op->n; k++) acc |= d[p + k];
                    if (BLOBC_UNLIKELY(acc > 1)) goto check_failed;
                    break;
                }
                case OP_MASK: {
                    uint64_t acc = blobc_ld64(d + p) & op->mask;
                    for (uint32_t k = 1; k < op->n; k++) acc |= blobc_ld64(d + p + 8 * k) & op->mask;
                    if (BLOBC_UNLIKELY(acc)) goto check_failed;
                    break;
                }
                case OP_PAD: {
                    unsigned acc = 0;
                    for (uint32_t k = 0; k < op->n; k++) acc |= d[p + k];
                    if (BLOBC_UNLIKELY(acc)) goto check_failed;
                    break;
                }
                case OP_F32:
                    if (BLOBC_UNLIKELY(f32_maybe_nan(d + p, op->n)) &&
                        run_check(w, op, p, op->n, &(size_t){0}))
                        goto check_failed;
                    break;
                case OP_ENUM: {
                    const blobc_winfo *ei = &w->infos[op->tid];
                    unsigned es = op->esize;
                    for (uint32_t k = 0; k < op->n; k++)
                        if (BLOBC_UNLIKELY(!enum_item_ok(ei, d + p + (size_t)es * k, es)))
                            goto check_failed;
                    break;
                }
                default: {
                    size_t bad;
                    if (BLOBC_UNLIKELY(run_check(w, op, p, op->n, &bad))) goto check_failed;
                    break;
                }
                check_failed: {
                    size_t bad = 0;
                    int code = run_check(w, op, p, op->n, &bad);
                    f->i = i;
                    f->pc = pc + 1;
                    return check_fail(w, err, op, code, bad, w->infos[f->tid].type, ebase);
                }
                }
            }
        }
    frame_done:
        if (f->tab != NONE) w->tinfo[f->tab] |= BLOBC_WP_DONE;
        w->work += (uint64_t)f->n * w->infos[f->tid].nops;
        w->nframes--;
    }
    size_t end = w->cursor;
    if (w->end_align && end < size && size % w->end_align == 0 && size - end < w->end_align) {
        for (; end < size; end++)
            if (data[end])
                return wfail(w, err, BLOBC_V_PADDING, end, SIZE_MAX,
                             "nonzero byte in the padding after the last payload (which ends "
                             "at 0x%" PRIx64 ")", AT(w->cursor));
    }
    if (end != size)
        return wfail(w, err, BLOBC_V_LAYOUT, w->cursor, SIZE_MAX,
                     "%zu trailing bytes after the last payload (which ends at 0x%" PRIx64 ")",
                     size - w->cursor, AT(w->cursor));
    return BLOBC_OK;
}
