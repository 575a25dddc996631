/*
 * stream_fill.c - the fill stack as a consumer of the value stream
 * (common/stream.h): each event becomes the fill call a front end makes
 * for the same value, so a blob read back and filled again is what baking
 * its values written as YAML gives. Scalars of another type go through
 * their text and the bake's own parse rules (SPEC §5): one set of
 * conversion and range rules, one set of messages, whoever produced the
 * value. Shared payloads are linked, not copied.
 *
 * The stream gives a map as the sequence of its {key, value} entries: an
 * entry's key becomes the key of the map's mapping, its value that key's
 * value. It names a union's member by its struct: a union tagged by a
 * field or by YAML tag is filled in its one-key form, the member the new
 * union pairs with the old one (blobc_union_partner) named.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake/bake_internal.h"
#include "common/kind.h"
#include "common/scalar.h"
#include "common/stream.h"

/* A payload a share id names: a string's bytes, a [T]'s items, a *T's target. */
typedef struct sf_share {
    blobc_ref ref;
    uint32_t len;
    blobc_kind kind;
} sf_share;

/* What an open struct or sequence of the stream is on the fill stack. */
typedef enum sf_what {
    SF_STRUCT,  /* a struct or union frame */
    SF_SEQ,     /* a sequence frame */
    SF_MAP,     /* a map's frame: its items are entries */
    SF_ENTRY    /* a map's entry: no frame of its own */
} sf_what;

typedef struct sf_open {
    sf_what what;
    const blobc_type *old;  /* SF_STRUCT: the stream's type; SF_ENTRY: the entry */
    const blobc_type *nu;   /* SF_STRUCT: the union filled, when it is one */
    uint32_t share;         /* SF_SEQ, SF_MAP: the share id, 0 none */
} sf_open;

typedef struct sf {
    bk *k;
    bk_slot cur;          /* where the next value goes */
    bool root_seen;
    bool want_key;        /* the next value is a map entry's key */
    sf_share *sh;         /* by share id - 1 */
    size_t nsh, shcap;
    sf_open *open;        /* the open structs and sequences */
    size_t nopen, opencap;
} sf;

static blobc_status open_push(sf *f, sf_what what, const blobc_type *old, const blobc_type *nu,
                              uint32_t share) {
    if (!blobc_grow((void **)&f->open, &f->opencap, f->nopen + 1, sizeof *f->open))
        return blobc_err_nomem(f->k->err);
    f->open[f->nopen++] = (sf_open){what, old, nu, share};
    return BLOBC_OK;
}

static const blobc_type *through_optional(const blobc_type *t) {
    return t->kind == BLOBC_KIND_OPTIONAL ? t->elem : t;
}

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
    bool string = through_optional(f->cur.type)->kind == BLOBC_KIND_STRING;
    blobc_status st = bk_store(f->k, &f->cur, &v, pos, &payload);
    if (st || !string || !ev->share) return st;
    return keep_share(f, ev->share, payload, (uint32_t)(v.n + 1), BLOBC_KIND_STRING);
}

/* A payload given before, linked into the slot. */
static blobc_status reference(sf *f, const blobc_value_event *ev, const bk_pos *pos) {
    if (!ev->share || ev->share > f->nsh || !f->sh[ev->share - 1].ref)
        return internal(f, pos, "a reference to a payload not given before");
    const sf_share *s = &f->sh[ev->share - 1];
    bk_unwrap_shared(f->k, &f->cur, s->kind);
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
    if (ev->type->kind == BLOBC_KIND_MAP) {
        /* the map's mapping: each entry's key names the slot of its value */
        if ((st = open_push(f, SF_MAP, ev->type, NULL, ev->share))) return st;
        return bk_push_struct(f->k, &f->cur, pos);
    }
    if ((st = open_push(f, SF_SEQ, ev->type, NULL, ev->share))) return st;
    bool known = f->cur.type->kind == BLOBC_KIND_ARRAY && ev->type->kind == BLOBC_KIND_ARRAY;
    return bk_push_seq(f->k, &f->cur, known ? ev->count : UINT32_MAX, pos);
}

static blobc_status end_seq(sf *f, const bk_pos *pos) {
    if (!f->nopen || (f->open[f->nopen - 1].what != SF_SEQ && f->open[f->nopen - 1].what != SF_MAP))
        return internal(f, pos, "a sequence ends that did not begin");
    sf_open o = f->open[--f->nopen];
    blobc_ref items = 0;
    uint32_t count = 0;
    blobc_status st = bk_pop_seq(f->k, pos, &items, &count);
    if (st || !count) return st;
    return keep_share(f, o.share, items, count, o.what == SF_MAP ? BLOBC_KIND_MAP : BLOBC_KIND_ARRAY);
}

/* A map entry's key, given as a scalar or as a string shared before: the
 * key of the map's mapping, read as the new key type reads a scalar. */
static blobc_status entry_key(sf *f, const blobc_value_event *ev, const bk_pos *pos) {
    char text[64];
    const char *key = ev->v.s;
    size_t n = ev->v.n;
    f->want_key = false;
    if (ev->kind == BLOBC_EV_REF) {
        const sf_share *s = ev->share && ev->share <= f->nsh ? &f->sh[ev->share - 1] : NULL;
        if (!s || s->kind != BLOBC_KIND_STRING || !s->ref)
            return internal(f, pos, "a map key shared with a payload not given before");
        key = (const char *)blobc_builder_ptr(f->k->b, s->ref);
        n = s->len - 1;
    } else if (ev->type->kind != BLOBC_KIND_STRING && ev->type->kind != BLOBC_KIND_ENUM) {
        n = blobc_sval_text(ev->type, &ev->v, text, sizeof text);
        if (n >= sizeof text) return internal(f, pos, "scalar text");
        key = text;
    }
    return bk_key(f->k, key ? key : "", n, pos, &f->cur);
}

static blobc_status begin_struct(sf *f, const blobc_value_event *ev, const bk_pos *pos) {
    const blobc_type *t = ev->type;
    if (t->flags & BLOBC_STRUCT_ENTRY) return open_push(f, SF_ENTRY, t, NULL, 0);
    if (!f->root_seen) {
        /* the driver opened the root's frame */
        f->root_seen = true;
        return open_push(f, SF_STRUCT, t, NULL, 0);
    }
    blobc_status st = follow(f, pos);
    if (st) return st;
    const blobc_type *u = through_optional(f->cur.type);
    if (u->kind == BLOBC_KIND_UNION && t->kind == BLOBC_KIND_UNION) {
        if ((st = open_push(f, SF_STRUCT, t, u, 0))) return st;
        return bk_push_union_key(f->k, &f->cur, pos);
    }
    if ((st = open_push(f, SF_STRUCT, t, NULL, 0))) return st;
    return bk_push_struct(f->k, &f->cur, pos);
}

/* A field's key, a union's member or a map entry's part. */
static blobc_status field(sf *f, const blobc_value_event *ev, const bk_pos *pos) {
    const blobc_field *fd = ev->field;
    const sf_open *o = f->nopen ? &f->open[f->nopen - 1] : NULL;
    if (o && o->what == SF_ENTRY) {
        /* the key first, then the value, whose slot the key gave */
        f->want_key = fd == &o->old->fields[0];
        return BLOBC_OK;
    }
    const char *name = fd->name;
    if (o && o->nu && (o->old->by != BLOBC_UNION_BY_KEY || o->nu->by != BLOBC_UNION_BY_KEY)) {
        /* the member the new union pairs with, by its name or tag */
        const blobc_field *m = blobc_union_partner(o->nu, o->old, fd, NULL);
        bool alike = o->old->by == o->nu->by && o->old->int_tags == o->nu->int_tags;
        if (m) name = o->nu->by == BLOBC_UNION_BY_TAG ? m->tag : m->name;
        else if (alike && o->nu->int_tags) {
            char num[32];
            snprintf(num, sizeof num, "%lld", (long long)(int64_t)fd->tag_value);
            return bk_unknown_tag(f->k, o->nu, num, strlen(num), pos);
        } else if (alike) {
            /* the data names it by a tag the new union does not have */
            return bk_unknown_tag(f->k, o->nu, fd->tag, strlen(fd->tag), pos);
        }
    }
    return bk_key(f->k, name, strlen(name), pos, &f->cur);
}

static blobc_status end_struct(sf *f, const bk_pos *pos) {
    if (!f->nopen || (f->open[f->nopen - 1].what != SF_STRUCT && f->open[f->nopen - 1].what != SF_ENTRY))
        return internal(f, pos, "a struct ends that did not begin");
    if (f->open[--f->nopen].what == SF_ENTRY) return BLOBC_OK;
    return bk_pop_struct(f->k);
}

static bool in_map(const sf *f) { return f->nopen && f->open[f->nopen - 1].what == SF_MAP; }

static blobc_status event(sf *f, const blobc_value_event *ev) {
    bk *k = f->k;
    bk_pos pos = {ev->at.line, ev->at.col, (size_t)ev->at.off};
    blobc_status st;
    if (f->want_key && (ev->kind == BLOBC_EV_SCALAR || ev->kind == BLOBC_EV_REF))
        return entry_key(f, ev, &pos);
    if (f->want_key) return internal(f, &pos, "a map key that is no scalar");
    switch (ev->kind) {
    case BLOBC_EV_BEGIN_STRUCT: return begin_struct(f, ev, &pos);
    case BLOBC_EV_FIELD: return field(f, ev, &pos);
    case BLOBC_EV_END_STRUCT: return end_struct(f, &pos);
    case BLOBC_EV_BEGIN_SEQ: return begin_seq(f, ev, &pos);
    case BLOBC_EV_ITEM: return in_map(f) ? BLOBC_OK : bk_item(k, &pos, &f->cur); /* an entry's key gives it */
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
        bk_unwrap_shared(k, &f->cur, BLOBC_KIND_PTR);
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
    free(f.open);
    return st;
}
