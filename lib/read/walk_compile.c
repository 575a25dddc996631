/*
 * walk_compile.c - the check program of each type the walker reaches.
 *
 * A program lists the byte offsets (within one element) of everything
 * that needs a look - bools, enums, floats (NaN), padding runs, offset
 * fields - merged into runs, with plain integers left out entirely.
 * Padding, bools and small enums sharing an 8-byte word fold into one
 * mask test. Small nested programs are copied inline; a large one inside
 * a [T; N] or a nested struct becomes a LOOP/CALL op that pushes a frame
 * instead of being copied, so a program stays proportional to the schema,
 * not to the data.
 */
#include "read/walk_internal.h"

#include <stdlib.h>

/* A sub-program at most this long is copied into its container. */
#define INLINE_MAX 32u

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
    if (!blobc_grow((void **)&s->ops, &s->ops_cap, s->nops + 1, sizeof *s->ops)) return false;
    s->ops[s->nops++] = op;
    return true;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static bool compile_enum(blobc_walk *w, blobc_winfo *in) {
    const blobc_type *t = in->type;
    const blobc_type *base = t->elem;
    if (!base || !blobc_kind_is_integer(base->kind) || blobc_walk_builtin_size(base->kind) != in->size)
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
        if (!blobc_grow((void **)&s->ops, &s->ops_cap, keep + 1, sizeof *s->ops)) return false;
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
    case BLOBC_KIND_MAP: /* the bytes of [entry] */
    case BLOBC_KIND_PTR:
        op.code = in->kind == BLOBC_KIND_PTR ? t->ref ? OP_REF : OP_PTR : OP_ARR;
        op.tid = in->elem;
        if (!emit(s, op)) return -1;
        break;
    case BLOBC_KIND_UNION: {
        /* the tag check, then the member: out of line, its id now and its
         * program when a payload of it is placed */
        if (in->size != BLOBC_UNION_SIZE || in->align != BLOBC_UNION_ALIGN || t->nfields == 0)
            return -2;
        uint32_t *mem = blobc_arena_array(&w->arena, t->nfields, sizeof *mem);
        if (!mem) return -1;
        for (uint32_t i = 0; i < t->nfields; i++) {
            const blobc_type *m = t->fields[i].type;
            if (!m || m->kind != BLOBC_KIND_PTR || !m->elem || m->elem->kind != BLOBC_KIND_STRUCT ||
                t->fields[i].offset != BLOBC_UNION_REF ||
                (mem[i] = blobc_walk_type_id(w, m->elem)) == WNONE)
                return -2;
        }
        in = &w->infos[id];
        in->umem = mem;
        in->count = t->nfields;
        /* an @open union holds none wherever it is (a tag it did not know) */
        wop tag = {OP_UTAG, BLOBC_UNION_SIZE, 0, 1, id, (t->flags & BLOBC_STRUCT_OPEN) ? NONE_OK : 0};
        wop ref = {OP_UNION, 0, 0, 1, id, 0};
        if (!emit(s, tag) || !emit(s, ref)) return -1;
        break;
    }
    case BLOBC_KIND_OPTIONAL:
        /* T's checks cannot run before the presence byte is read: zero
         * bytes need not be a sound T (a string, a union) */
        op.code = OP_OPT;
        op.tid = in->elem;
        if (!emit(s, op)) return -1;
        break;
    case BLOBC_KIND_ANY:
        op.code = OP_ANY;
        op.tid = id;
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
            uint32_t fid = blobc_walk_type_id(w, f->type);
            if (fid == WNONE) return -2;
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
                size_t first = s->nops;
                if (!copy_ops(s, sub, f->offset, 1)) return -1;
                /* only a union or reference field declared `= null` may
                 * hold none */
                if (blobc_field_may_be_none(f))
                    for (size_t k = first; k < s->nops; k++)
                        if (s->ops[k].code == OP_UTAG || s->ops[k].code == OP_REF)
                            s->ops[k].mask = NONE_OK;
            } else {
                wop call = {OP_CALL, 0, f->offset, 1, fid, 0};
                if (!emit(s, call)) return -1;
            }
            at = f->offset + sub->size;
            /* after the key's own checks, which make it safe to read */
            if (i == 0 && (t->flags & BLOBC_STRUCT_ENTRY)) {
                wop mkey = {OP_MKEY, 0, 0, 1, id, 0};
                if (!emit(s, mkey)) return -1;
            }
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
                    else if (blobc_kind_is_integer(e->kind) && e->size == blobc_walk_builtin_size(e->kind))
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

blobc_status blobc_walk_types_error(blobc_error *err, int rc, const blobc_type *t) {
    if (rc == -1) return blobc_err_nomem(err);
    char name[128];
    blobc_type_spell(t, name, sizeof name);
    blobc_err(err, BLOBC_EINPUT, "type %s has an inconsistent layout", name);
    if (err) err->code = BLOBC_V_BAD_TYPES;
    return BLOBC_EINPUT;
}

/* Compiles id and, first, every type stored inline in it (post-order,
 * with an explicit stack: inline nesting depth is the schema's to pick). */
blobc_status blobc_walk_compile(blobc_walk *w, uint32_t id, blobc_error *err) {
    if (w->infos[id].state == ST_COMPILED) return BLOBC_OK;
    wscratch *s = blobc_walk_scratch(w);
    if (!s) return blobc_err_nomem(err);
    size_t n = 0;
    if (!blobc_grow((void **)&s->cstack, &s->cstack_cap, 2, sizeof *s->cstack)) return blobc_err_nomem(err);
    s->cstack[0] = id;
    s->cstack[1] = 0;
    n = 1;
    w->infos[id].state = ST_COMPILING;
    while (n) {
        uint32_t cid = s->cstack[2 * (n - 1)];
        uint32_t next = s->cstack[2 * (n - 1) + 1];
        blobc_winfo *in = &w->infos[cid];
        uint32_t dep = WNONE;
        if (in->kind == BLOBC_KIND_STRUCT) {
            const blobc_type *t = in->type;
            while (next < t->nfields) {
                uint32_t fid = blobc_walk_type_id(w, t->fields[next].type);
                if (fid == WNONE) return blobc_walk_types_error(err, -2, t);
                next++;
                if (w->infos[fid].state != ST_COMPILED) {
                    dep = fid;
                    break;
                }
            }
        } else if ((in->kind == BLOBC_KIND_FIXED || in->kind == BLOBC_KIND_OPTIONAL) && next == 0) {
            next = 1;
            if (w->infos[in->elem].state != ST_COMPILED) dep = in->elem;
        }
        s->cstack[2 * (n - 1) + 1] = next;
        if (dep != WNONE) {
            if (w->infos[dep].state == ST_COMPILING) /* inline self-containment */
                return blobc_walk_types_error(err, -2, w->infos[dep].type);
            if (!blobc_grow((void **)&s->cstack, &s->cstack_cap, 2 * (n + 1), sizeof *s->cstack))
                return blobc_err_nomem(err);
            w->infos[dep].state = ST_COMPILING;
            s->cstack[2 * n] = dep;
            s->cstack[2 * n + 1] = 0;
            n++;
            continue;
        }
        int rc = compile_one(w, cid);
        if (rc != 0) return blobc_walk_types_error(err, rc, w->infos[cid].type);
        n--;
    }
    return BLOBC_OK;
}
