/*
 * yaml_ahead.c - events pulled ahead of the YAML bake: a union tagged by a
 * field must know its tag before its mapping's first key is filled, so
 * the rest of the mapping is read ahead (copied, with its strings) and
 * handed to the bake afterwards, in order, before the parser's next.
 */
#include "bake/yaml_internal.h"

static size_t ahead_str(ys *y, const char *str, size_t n, bool *ok) {
    if (!str) return SIZE_MAX;
    size_t at = y->aheadtext.len;
    if (!blobc_buf_append(&y->aheadtext, str, n) || !blobc_buf_append(&y->aheadtext, "", 1))
        *ok = false;
    return at;
}

int ya_peek(ys *y, size_t i, const ahead_ev **out) {
    while (y->ahead_cur + i >= y->nahead) {
        if (y->ahead_end) return y->ahead_end;
        const ypipe_event *e;
        int got = ypipe_next(y->q, &e);
        if (got != YPIPE_EVENT) return y->ahead_end = got == YPIPE_END ? YPIPE_ERROR : got;
        bool ok = reserve((void **)&y->ahead, &y->ahead_cap, y->nahead, sizeof *y->ahead);
        if (!ok) return y->ahead_end = YPIPE_NOMEM;
        ahead_ev *a = &y->ahead[y->nahead];
        a->type = e->type;
        a->plain = e->plain;
        a->mark = e->mark;
        a->length = e->length;
        a->value = ahead_str(y, e->value, e->value ? e->length : 0, &ok);
        a->tag = ahead_str(y, e->tag, e->tag ? strlen(e->tag) : 0, &ok);
        a->anchor = ahead_str(y, e->anchor, e->anchor ? strlen(e->anchor) : 0, &ok);
        if (!ok) return y->ahead_end = YPIPE_NOMEM;
        y->nahead++;
    }
    *out = &y->ahead[y->ahead_cur + i];
    return YPIPE_EVENT;
}

int ya_next_event(ys *y, const ypipe_event **ev) {
    if (y->ahead_cur < y->nahead) {
        const ahead_ev *a = &y->ahead[y->ahead_cur++];
        y->cur = (ypipe_event){a->type, a->plain, a->mark, ya_text(y, a->value), a->length,
                               ya_text(y, a->tag), ya_text(y, a->anchor)};
        *ev = &y->cur;
        return YPIPE_EVENT;
    }
    y->nahead = y->ahead_cur = 0;
    y->aheadtext.len = 0;
    if (y->ahead_end) return y->ahead_end;
    return ypipe_next(y->q, ev);
}

/* Event i after the mapping that just started, read ahead (or, in a
 * mapping replayed from an alias, from the log); false past the end of
 * what there is. Its text stays put until the next event is read ahead. */
typedef struct ahead_view {
    int type;
    bool plain;
    const char *str;
    size_t n;
    bk_pos pos;
} ahead_view;

static bool ahead_at(ys *y, size_t i, ahead_view *v) {
    v->pos = y->alias_pos;
    if (y->nrp) {
        const replay *r = &y->rp[y->nrp - 1];
        if (r->cur + i >= r->end) return false;
        const logev *l = &y->log[r->cur + i];
        v->type = l->type == YE_SCALAR ? YAML_SCALAR_EVENT : l->type == YE_MAP ? YAML_MAPPING_START_EVENT
                : l->type == YE_SEQ ? YAML_SEQUENCE_START_EVENT : l->type == YE_MAP_END ? YAML_MAPPING_END_EVENT
                : l->type == YE_SEQ_END ? YAML_SEQUENCE_END_EVENT : YAML_ALIAS_EVENT;
        v->plain = !l->quoted;
        v->str = y->logtext.data ? (const char *)y->logtext.data + l->text : "";
        v->n = l->n;
        return true;
    }
    const ahead_ev *a = NULL;
    if (ya_peek(y, i, &a) != YPIPE_EVENT) return false; /* the bake meets it */
    v->type = a->type;
    v->plain = a->plain;
    v->str = ya_text(y, a->value);
    v->n = a->length;
    v->pos = mark_pos(&a->mark);
    return true;
}

/* The index of the value of key `name` in the mapping that just started
 * (name NULL: of its first key itself), *found false when it has none. */
static blobc_status find_value(bk *k, const char *name, size_t *at, bool *found) {
    ys *y = k->fe;
    size_t nlen = name ? strlen(name) : 0;
    uint32_t depth = 1;
    bool key = true, match = false;
    *found = false;
    ahead_view v;
    for (size_t i = 0; ahead_at(y, i, &v); i++) {
        uint64_t limit = BK_AHEAD_FACTOR * (y->parsed + y->nahead) + BK_AHEAD_FLOOR;
        if (++k->ahead_work > limit) return bk_ahead_over(k, &v.pos, limit);
        bool start = v.type == YAML_MAPPING_START_EVENT || v.type == YAML_SEQUENCE_START_EVENT;
        bool node = start || v.type == YAML_SCALAR_EVENT || v.type == YAML_ALIAS_EVENT;
        if (v.type == YAML_MAPPING_END_EVENT || v.type == YAML_SEQUENCE_END_EVENT) {
            if (--depth == 0) return BLOBC_OK;
            continue;
        }
        if (!node) continue;
        if (depth == 1 && (match || !name)) {
            *found = true;
            *at = i;
            return BLOBC_OK;
        }
        if (depth == 1) {
            match = key && v.type == YAML_SCALAR_EVENT && v.n == nlen && memcmp(v.str, name, v.n) == 0;
            key = !key;
        }
        if (start) depth++;
    }
    return BLOBC_OK;
}

static void view_scalar(const ahead_view *v, bk_scalar *out) {
    memset(out, 0, sizeof *out);
    out->s = v->type == YAML_SCALAR_EVENT ? v->str : "";
    out->n = v->type == YAML_SCALAR_EVENT ? v->n : 0;
    out->tok = v->type != YAML_SCALAR_EVENT ? BK_TOK_JNULL : v->plain ? BK_TOK_PLAIN : BK_TOK_QUOTED;
}

/* The look ahead of a union tagged by a field (bk.find_tag): the keys of
 * the mapping that just started, up to its end, for `name`. */
blobc_status ya_find_tag(bk *k, const char *name, bk_scalar *tag, bk_pos *tpos, bool *found) {
    size_t at = 0;
    memset(tag, 0, sizeof *tag);
    blobc_status st = find_value(k, name, &at, found);
    ahead_view v;
    if (st || !*found || !ahead_at(k->fe, at, &v)) return st;
    *tpos = v.pos;
    view_scalar(&v, tag);
    /* the first key itself is a tag only when it is a scalar */
    if (!name) *found = v.type == YAML_SCALAR_EVENT;
    if (!name) tag->tok = v.plain ? BK_TOK_PLAIN : BK_TOK_QUOTED;
    return BLOBC_OK;
}

/* The look ahead of an item's tags (bk.find_list): key `name`'s scalar,
 * or the scalars of its sequence. The events are all read ahead before
 * their texts are taken, which reading further ahead may move. */
blobc_status ya_find_list(bk *k, const char *name, bk_scalar *vals, bk_pos *pos, uint32_t cap,
                          uint32_t *n, bk_pos *vpos, bool *found) {
    ys *y = k->fe;
    size_t at = 0;
    *n = 0;
    blobc_status st = find_value(k, name, &at, found);
    ahead_view v;
    if (st || !*found || !ahead_at(y, at, &v)) return st;
    *vpos = v.pos;
    if (v.type == YAML_SCALAR_EVENT) {
        view_scalar(&v, &vals[0]);
        pos[0] = v.pos;
        *n = 1;
        return BLOBC_OK;
    }
    *n = UINT32_MAX;
    if (v.type != YAML_SEQUENCE_START_EVENT) return BLOBC_OK;
    size_t i = at + 1, count = 0;
    for (; ahead_at(y, i, &v) && v.type == YAML_SCALAR_EVENT; i++) count++;
    if (!ahead_at(y, i, &v) || v.type != YAML_SEQUENCE_END_EVENT) return BLOBC_OK;
    *n = count > cap ? cap + 1 : (uint32_t)count;
    for (size_t j = 0; j < count && j < cap; j++) {
        ahead_at(y, at + 1 + j, &v);
        view_scalar(&v, &vals[j]);
        pos[j] = v.pos;
    }
    return BLOBC_OK;
}
