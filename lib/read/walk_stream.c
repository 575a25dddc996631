/*
 * walk_stream.c - the walker's value stream (common/stream.h): a verified blob
 * read back as events, one per call, in field order.
 *
 * Field order is address order and so the walker's order: the n-th new
 * payload met is entry n of the walker's payload table, and a reference to
 * an earlier start is a payload given before, which the table marks
 * shared. Its first appearance carries a share id, each later reference is
 * a REF naming it: a consumer that keeps the ids keeps the sharing.
 * Nesting is an explicit stack, so depth costs no C recursion.
 */
#include <stdlib.h>

#include "common/kind.h"
#include "common/stream.h"
#include "read/source.h"
#include "read/walk.h"

typedef struct sframe {
    const blobc_type *type; /* STRUCT, UNION: the container; SEQ: the item type */
    size_t base;            /* data offset of the struct / first item */
    uint32_t n, i, esize;
    bool seq;
} sframe;

struct blobc_rstream {
    blobc_source src;
    blobc_walk w;
    size_t next;            /* the next new payload (table index) */
    uint32_t nshared;
    uint32_t *share;        /* per payload: its share id, 0 none yet */
    sframe *fr;
    size_t nfr, frcap;
    const blobc_type *vt;   /* the value the next call gives (after FIELD, ITEM, PTR) */
    size_t vp;
    bool pending, started;
    /* replaying payloads given before (blobc_rstream_expand) until the
     * stack is back to replay_base; `expand` marks the one asked for */
    bool replaying, expand;
    size_t replay_base;
    const blobc_type *ref_t; /* the last REF's slot */
    size_t ref_p;
};

void blobc_sval_load(const blobc_type *t, const uint8_t *p, blobc_sval *v) {
    memset(v, 0, sizeof *v);
    blobc_kind kind = t->kind == BLOBC_KIND_ENUM ? t->elem->kind : t->kind;
    switch (kind) {
    case BLOBC_KIND_BOOL:
    case BLOBC_KIND_U8: v->bits = p[0]; break;
    case BLOBC_KIND_I8: v->bits = (uint64_t)(int64_t)(int8_t)p[0]; break;
    case BLOBC_KIND_U16: v->bits = blobc_ld16(p); break;
    case BLOBC_KIND_I16: v->bits = (uint64_t)(int64_t)(int16_t)blobc_ld16(p); break;
    case BLOBC_KIND_U32: v->bits = blobc_ld32(p); break;
    case BLOBC_KIND_I32: v->bits = (uint64_t)(int64_t)(int32_t)blobc_ld32(p); break;
    case BLOBC_KIND_I64:
    case BLOBC_KIND_U64: v->bits = blobc_ld64(p); break;
    case BLOBC_KIND_F32: {
        uint32_t b = blobc_ld32(p);
        float f;
        memcpy(&f, &b, 4);
        v->f = f;
        break;
    }
    case BLOBC_KIND_F64: {
        uint64_t b = blobc_ld64(p);
        memcpy(&v->f, &b, 8);
        break;
    }
    default: break;
    }
    if (t->kind == BLOBC_KIND_ENUM) {
        const blobc_enum_value *ev = blobc_enum_find_value(t, v->bits);
        v->s = ev ? ev->name : NULL;
        v->n = ev ? strlen(ev->name) : 0;
    }
}

blobc_status blobc_rstream_open(const void *bytes, size_t len, const blobc_schema *schema,
                                const char *type_name, blobc_rstream **out, blobc_error *err) {
    *out = NULL;
    blobc_rstream *s = calloc(1, sizeof *s);
    if (!s) return blobc_err_nomem(err);
    blobc_walk_init(&s->w);
    blobc_source_format fmt = {false, NULL};
    blobc_status st = blobc_source_open(&s->src, bytes, len, fmt, schema, type_name, 0, err);
    s->w.end_align = s->src.end_align;
    s->w.any_order = s->src.is_unity;
    if (st == BLOBC_OK)
        st = blobc_walk_run(&s->w, s->src.data, s->src.size, s->src.root, s->src.data_offset, err);
    if (st == BLOBC_OK && s->w.ntab && !(s->share = calloc(s->w.ntab, sizeof *s->share)))
        st = blobc_err_nomem(err);
    if (st != BLOBC_OK) {
        blobc_rstream_free(s);
        return st;
    }
    s->next = 1; /* the root is entry 0 */
    *out = s;
    return BLOBC_OK;
}

const blobc_type *blobc_rstream_root(const blobc_rstream *s) { return s->src.root; }

void blobc_rstream_free(blobc_rstream *s) {
    if (!s) return;
    blobc_walk_free(&s->w);
    blobc_source_close(&s->src);
    free(s->share);
    free(s->fr);
    free(s);
}

static blobc_status push(blobc_rstream *s, const blobc_type *t, size_t base, uint32_t n,
                         uint32_t esize, bool seq) {
    if (!blobc_grow((void **)&s->fr, &s->frcap, s->nfr + 1, sizeof *s->fr)) return BLOBC_ENOMEM;
    sframe f = {t, base, n, 0, esize, seq};
    s->fr[s->nfr++] = f;
    return BLOBC_OK;
}

static blobc_status payload(blobc_rstream *s, const blobc_type *t, size_t tg, uint32_t cnt,
                            blobc_value_event *ev);

/* A string, [T] or *T at data offset p: null, a new payload, or a
 * reference to one given before. */
static blobc_status reference(blobc_rstream *s, const blobc_type *t, size_t p, blobc_value_event *ev) {
    const uint8_t *d = s->src.data;
    int32_t off = (int32_t)blobc_ld32(d + p);
    uint32_t cnt = t->kind == BLOBC_KIND_PTR ? 1 : blobc_ld32(d + p + 4);
    if (off == 0) {
        ev->kind = BLOBC_EV_NULL;
        return BLOBC_OK;
    }
    size_t tg = p + (size_t)(int64_t)off;
    blobc_walk *w = &s->w;
    if (s->replaying) {
        /* everything was met before: only the payload asked for and the
         * ones met once (inside it) are given again */
        size_t k = blobc_walk_find(w, (uint32_t)tg);
        if (k == SIZE_MAX) return BLOBC_EINPUT; /* a bug */
        if (!s->share[k] || s->expand) {
            s->expand = false;
            ev->share = s->share[k];
            return payload(s, t, tg, cnt, ev);
        }
    } else if (s->next < w->ntab && w->tstart[s->next] == tg) {
        size_t idx = s->next++;
        if (blobc_walk_flags(w, idx) & BLOBC_WP_SHARED) ev->share = s->share[idx] = ++s->nshared;
        return payload(s, t, tg, cnt, ev);
    }
    size_t k = blobc_walk_find(w, (uint32_t)tg);
    if (k == SIZE_MAX || k >= s->next || !s->share[k]) return BLOBC_EINPUT; /* a bug */
    ev->kind = BLOBC_EV_REF;
    ev->share = s->share[k];
    ev->count = t->kind == BLOBC_KIND_STRING ? cnt - 1 : cnt;
    s->ref_t = t;
    s->ref_p = p;
    return BLOBC_OK;
}

/* The first appearance of the payload at tg of a string, [T] or *T t. */
static blobc_status payload(blobc_rstream *s, const blobc_type *t, size_t tg, uint32_t cnt,
                            blobc_value_event *ev) {
    const uint8_t *d = s->src.data;
    if (t->kind == BLOBC_KIND_STRING) {
        ev->kind = BLOBC_EV_SCALAR;
        ev->v.s = (const char *)d + tg;
        ev->v.n = cnt - 1;
        return BLOBC_OK;
    }
    if (t->kind == BLOBC_KIND_ARRAY || t->kind == BLOBC_KIND_MAP) {
        /* a map: the sequence of its entries, each a {key, value} struct */
        ev->kind = BLOBC_EV_BEGIN_SEQ;
        ev->count = cnt;
        return push(s, t->elem, tg, cnt, t->elem->size, true);
    }
    ev->kind = BLOBC_EV_PTR;
    s->vt = t->elem;
    s->vp = tg;
    s->pending = true;
    return BLOBC_OK;
}

/* A reference &T at p: its target's key, as the data writes it (a
 * SCALAR of the key's type), or NULL. The walk checked that it lands on an
 * item of a keyed [T]. */
static blobc_status ref_key(blobc_rstream *s, const blobc_type *t, size_t p, blobc_value_event *ev) {
    const uint8_t *d = s->src.data;
    int32_t off = (int32_t)blobc_ld32(d + p);
    if (off == 0) {
        ev->kind = BLOBC_EV_NULL;
        return BLOBC_OK;
    }
    const blobc_field *kf = &t->elem->fields[t->elem->key - 1];
    size_t q = (size_t)((int64_t)p + off) + kf->offset;
    ev->kind = BLOBC_EV_SCALAR;
    ev->type = kf->type;
    if (kf->type->kind != BLOBC_KIND_STRING) {
        blobc_sval_load(kf->type, d + q, &ev->v);
        return BLOBC_OK;
    }
    ev->v.s = (const char *)d + (size_t)((int64_t)q + (int32_t)blobc_ld32(d + q));
    ev->v.n = blobc_ld32(d + q + 4) - 1;
    return BLOBC_OK;
}

/* A [T] or map t of no items at p where null would lose a difference the
 * data makes: an any's empty list or mapping (not a null), a present ?T's
 * (not an absent one). */
static blobc_status empty_seq(blobc_rstream *s, const blobc_type *t, size_t p,
                              blobc_value_event *ev) {
    ev->kind = BLOBC_EV_BEGIN_SEQ;
    ev->type = t;
    ev->count = 0;
    return push(s, t->elem, p, 0, t->elem->size, true);
}

static bool no_items(const blobc_type *t, const uint8_t *p) {
    return (t->kind == BLOBC_KIND_ARRAY || t->kind == BLOBC_KIND_MAP) && blobc_ld32(p) == 0;
}

/* The events of the value of type t at data offset p (its first one). */
static blobc_status value(blobc_rstream *s, const blobc_type *t, size_t p, blobc_value_event *ev) {
    ev->type = t;
    ev->at.off = p;
    const uint8_t *d = s->src.data;
    if (t->kind == BLOBC_KIND_PTR && t->ref) return ref_key(s, t, p, ev);
    switch (t->kind) {
    case BLOBC_KIND_STRUCT:
        ev->kind = BLOBC_EV_BEGIN_STRUCT;
        return push(s, t, p, t->nfields, 0, false);
    case BLOBC_KIND_UNION:
        /* the walk checked the tag */
        if (blobc_ld32(d + p) == 0) {
            ev->kind = BLOBC_EV_NULL;
            return BLOBC_OK;
        }
        ev->kind = BLOBC_EV_BEGIN_STRUCT;
        return push(s, t, p, 1, 0, false);
    case BLOBC_KIND_FIXED:
        ev->kind = BLOBC_EV_BEGIN_SEQ;
        ev->count = t->count;
        return push(s, t->elem, p, t->count, t->elem->size, true);
    case BLOBC_KIND_STRING:
    case BLOBC_KIND_ARRAY:
    case BLOBC_KIND_MAP:
    case BLOBC_KIND_PTR: return reference(s, t, p, ev);
    case BLOBC_KIND_OPTIONAL:
        /* absent: null, as data leaves it out; present: its value */
        if (!d[p + blobc_optional_flag(t)]) {
            ev->kind = BLOBC_EV_NULL;
            return BLOBC_OK;
        }
        if (no_items(t->elem, d + p)) return empty_seq(s, t->elem, p, ev);
        return value(s, t->elem, p, ev);
    case BLOBC_KIND_ANY: {
        /* the value its kind word names (the walk checked it) */
        static const blobc_kind body[] = {0, BLOBC_KIND_BOOL, BLOBC_KIND_I64, BLOBC_KIND_U64,
                                          BLOBC_KIND_F64};
        uint32_t k = blobc_ld32(d + p);
        if (k == BLOBC_ANY_NULL) {
            ev->kind = BLOBC_EV_NULL;
            return BLOBC_OK;
        }
        if (k < BLOBC_ANY_STRING) return value(s, blobc_builtin_type(body[k]), p + BLOBC_ANY_BODY, ev);
        const blobc_type *bt = k == BLOBC_ANY_STRING ? blobc_builtin_type(BLOBC_KIND_STRING)
                               : k == BLOBC_ANY_LIST ? blobc_any_list_type()
                                                     : blobc_any_map_type();
        if (no_items(bt, d + p + BLOBC_ANY_BODY)) return empty_seq(s, bt, p + BLOBC_ANY_BODY, ev);
        return value(s, bt, p + BLOBC_ANY_BODY, ev);
    }
    default:
        ev->kind = BLOBC_EV_SCALAR;
        blobc_sval_load(t, d + p, &ev->v);
        return BLOBC_OK;
    }
}

blobc_status blobc_rstream_expand(blobc_rstream *s) {
    if (!s->ref_t) return BLOBC_EINPUT;
    if (!s->replaying) s->replay_base = s->nfr;
    s->replaying = s->expand = s->pending = true;
    s->vt = s->ref_t;
    s->vp = s->ref_p;
    s->ref_t = NULL;
    return BLOBC_OK;
}

static blobc_status step(blobc_rstream *s, blobc_value_event *ev);

blobc_status blobc_rstream_next(void *ctx, blobc_value_event *ev) {
    blobc_rstream *s = ctx;
    blobc_status st = step(s, ev);
    if (s->replaying && !s->pending && s->nfr <= s->replay_base) s->replaying = false;
    return st;
}

static blobc_status step(blobc_rstream *s, blobc_value_event *ev) {
    memset(ev, 0, sizeof *ev);
    if (!s->started) {
        s->started = true;
        return value(s, s->src.root, 0, ev);
    }
    if (s->pending) {
        s->pending = false;
        return value(s, s->vt, s->vp, ev);
    }
    if (!s->nfr) return BLOBC_OK; /* BLOBC_EV_END */
    sframe *f = &s->fr[s->nfr - 1];
    if (f->i == f->n) {
        ev->kind = f->seq ? BLOBC_EV_END_SEQ : BLOBC_EV_END_STRUCT;
        s->nfr--;
        return BLOBC_OK;
    }
    uint32_t i = f->i++;
    s->pending = true;
    if (f->seq) {
        ev->kind = BLOBC_EV_ITEM;
        ev->count = i;
        s->vt = f->type;
        s->vp = f->base + (size_t)i * f->esize;
    } else {
        const blobc_type *t = f->type;
        const blobc_field *fd =
            t->kind == BLOBC_KIND_UNION ? &t->fields[blobc_ld32(s->src.data + f->base) - 1]
                                        : &t->fields[i];
        ev->kind = BLOBC_EV_FIELD;
        ev->field = fd;
        s->vt = fd->type;
        s->vp = f->base + fd->offset;
    }
    ev->at.off = s->vp;
    return BLOBC_OK;
}
