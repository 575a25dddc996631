/*
 * stream_fill.c - the fill stack as a consumer of the value stream
 * (common/stream.h): each event becomes the fill call a front end makes
 * for the same value, so a blob read back and filled again is what baking
 * its values written as YAML gives. Scalars of another type go through
 * their text and the bake's own parse rules (SPEC §5): one set of
 * conversion and range rules, one set of messages, whoever produced the
 * value. Shared payloads are linked, not copied.
 */
#include <stdlib.h>
#include <string.h>

#include "bake/bake_internal.h"
#include "common/scalar.h"
#include "common/stream.h"

/* A payload a share id names: a string's bytes, a [T]'s items, a *T's target. */
typedef struct sf_share {
    blobc_ref ref;
    uint32_t len;
    blobc_kind kind;
} sf_share;

typedef struct sf {
    bk *k;
    bk_slot cur;          /* where the next value goes */
    bool root_seen;
    sf_share *sh;         /* by share id - 1 */
    size_t nsh, shcap;
    uint32_t *seq;        /* per open sequence: its share id, 0 none */
    size_t nseq, seqcap;
} sf;

static blobc_status keep_share(sf *f, uint32_t id, blobc_ref ref, uint32_t len, blobc_kind kind) {
    if (!id) return BLOBC_OK;
    if (id > f->nsh) {
        if (!blobc_grow((void **)&f->sh, &f->shcap, id, sizeof *f->sh))
            return blobc_err_nomem(f->k->err);
        memset(f->sh + f->nsh, 0, (id - f->nsh) * sizeof *f->sh);
        f->nsh = id;
    }
    f->sh[id - 1] = (sf_share){ref, len, kind};
    return BLOBC_OK;
}

static blobc_status internal(sf *f, const bk_pos *pos, const char *what) {
    return bk_fail(f->k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0, "internal error: %s", what);
}

/* A value that is not a *T's own given to a *T slot is its target's, as
 * in YAML. */
static blobc_status follow(sf *f, const bk_pos *pos) {
    while (f->cur.type->kind == BLOBC_KIND_PTR) {
        blobc_status st = bk_deref(f->k, &f->cur, pos, NULL);
        if (st) return st;
    }
    return BLOBC_OK;
}

static blobc_status scalar(sf *f, const blobc_value_event *ev, const bk_pos *pos) {
    const blobc_type *et = ev->type;
    blobc_kind want = f->cur.type->kind;
    if (want == et->kind && blobc_kind_is_scalar(want)) {
        /* the same type: the value as it is (its text would parse back to it) */
        blobc_store_scalar(bk_ptr(f->k, &f->cur), want, ev->v.bits, ev->v.f);
        return BLOBC_OK;
    }
    char text[64];
    bk_scalar v;
    memset(&v, 0, sizeof v);
    if (et->kind == BLOBC_KIND_STRING || et->kind == BLOBC_KIND_ENUM) {
        v.s = ev->v.s ? ev->v.s : "";
        v.n = ev->v.n;
        v.tok = BK_TOK_QUOTED;
    } else {
        v.n = blobc_sval_text(et, &ev->v, text, sizeof text);
        if (v.n >= sizeof text) return internal(f, pos, "scalar text");
        v.s = text;
        v.tok = BK_TOK_PLAIN;
    }
    blobc_ref payload = 0;
    bool string = f->cur.type->kind == BLOBC_KIND_STRING;
    blobc_status st = bk_store(f->k, &f->cur, &v, pos, &payload);
    if (st || !string || !ev->share) return st;
    return keep_share(f, ev->share, payload, (uint32_t)(v.n + 1), BLOBC_KIND_STRING);
}

/* A payload given before, linked into the slot. */
static blobc_status reference(sf *f, const blobc_value_event *ev, const bk_pos *pos) {
    if (!ev->share || ev->share > f->nsh || !f->sh[ev->share - 1].ref)
        return internal(f, pos, "a reference to a payload not given before");
    const sf_share *s = &f->sh[ev->share - 1];
    blobc_kind want = f->cur.type->kind;
    /* a *T target that is also a [T] of one item links either way round */
    bool ok = want == s->kind || (want == BLOBC_KIND_PTR && s->kind == BLOBC_KIND_ARRAY) ||
              (want == BLOBC_KIND_ARRAY && s->kind == BLOBC_KIND_PTR);
    if (!ok) return internal(f, pos, "a shared payload of another kind");
    uint32_t len = s->kind == BLOBC_KIND_PTR ? 1 : s->len;
    return bk_link_shared(f->k, &f->cur, s->ref, len, pos);
}

static blobc_status begin_seq(sf *f, const blobc_value_event *ev, const bk_pos *pos) {
    blobc_status st = follow(f, pos);
    if (st) return st;
    if (!blobc_grow((void **)&f->seq, &f->seqcap, f->nseq + 1, sizeof *f->seq))
        return blobc_err_nomem(f->k->err);
    f->seq[f->nseq++] = ev->share;
    bool known = f->cur.type->kind == BLOBC_KIND_ARRAY && ev->type->kind == BLOBC_KIND_ARRAY;
    return bk_push_seq(f->k, &f->cur, known ? ev->count : UINT32_MAX, pos);
}

static blobc_status end_seq(sf *f, const bk_pos *pos) {
    if (!f->nseq) return internal(f, pos, "a sequence ends that did not begin");
    uint32_t share = f->seq[--f->nseq];
    blobc_ref items = 0;
    uint32_t count = 0;
    blobc_status st = bk_pop_seq(f->k, pos, &items, &count);
    if (st || !count) return st;
    return keep_share(f, share, items, count, BLOBC_KIND_ARRAY);
}

static blobc_status event(sf *f, const blobc_value_event *ev) {
    bk *k = f->k;
    bk_pos pos = {ev->at.line, ev->at.col, (size_t)ev->at.off};
    blobc_status st;
    switch (ev->kind) {
    case BLOBC_EV_BEGIN_STRUCT:
        if (!f->root_seen) {
            /* the driver opened the root's frame */
            f->root_seen = true;
            return BLOBC_OK;
        }
        if ((st = follow(f, &pos))) return st;
        return bk_push_struct(k, &f->cur, &pos);
    case BLOBC_EV_FIELD:
        return bk_key(k, ev->field->name, strlen(ev->field->name), &pos, &f->cur);
    case BLOBC_EV_END_STRUCT: return bk_pop_struct(k);
    case BLOBC_EV_BEGIN_SEQ: return begin_seq(f, ev, &pos);
    case BLOBC_EV_ITEM: return bk_item(k, &pos, &f->cur);
    case BLOBC_EV_END_SEQ: return end_seq(f, &pos);
    case BLOBC_EV_SCALAR: return scalar(f, ev, &pos);
    case BLOBC_EV_NULL: {
        bk_scalar v;
        memset(&v, 0, sizeof v);
        v.s = "null";
        v.n = 4;
        v.tok = BK_TOK_JNULL;
        return bk_store(k, &f->cur, &v, &pos, NULL);
    }
    case BLOBC_EV_PTR: {
        if (f->cur.type->kind != BLOBC_KIND_PTR) return BLOBC_OK; /* the target fills the slot */
        blobc_ref target = 0;
        if ((st = bk_deref(k, &f->cur, &pos, &target))) return st;
        return keep_share(f, ev->share, target, 1, BLOBC_KIND_PTR);
    }
    case BLOBC_EV_REF: return reference(f, ev, &pos);
    default: return internal(f, &pos, "an unknown event");
    }
}

blobc_status bk_fill_stream(bk *k, blobc_stream_pull *pull, void *ctx) {
    sf f;
    memset(&f, 0, sizeof f);
    f.k = k;
    blobc_status st;
    for (;;) {
        blobc_value_event ev;
        if ((st = pull(ctx, &ev))) {
            if (st == BLOBC_ENOMEM) blobc_err_nomem(k->err);
            else if (!k->err || !k->err->message[0])
                blobc_err(k->err, st, "internal error: the value stream lost its step");
            break;
        }
        if (ev.kind == BLOBC_EV_END) {
            if (k->depth) st = internal(&f, NULL, "the value stream ended inside a value");
            break;
        }
        if ((st = event(&f, &ev))) break;
    }
    free(f.sh);
    free(f.seq);
    return st;
}
