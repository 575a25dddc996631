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

/* The look ahead of a union tagged by a field (bk.find_tag): the keys of
 * the mapping that just started, up to its end, for `name`. A mapping
 * replayed from an alias is looked through in the log instead. */
blobc_status ya_find_tag(bk *k, const char *name, bk_scalar *tag, bk_pos *tpos, bool *found) {
    ys *y = k->fe;
    size_t nlen = name ? strlen(name) : 0;
    uint32_t depth = 1;
    bool key = true, match = false;
    *found = false;
    memset(tag, 0, sizeof *tag);
    for (size_t i = 0;; i++) {
        int type;
        bool plain;
        const char *str;
        size_t n;
        bk_pos pos = y->alias_pos;
        if (y->nrp) {
            const replay *r = &y->rp[y->nrp - 1];
            if (r->cur + i >= r->end) return BLOBC_OK;
            const logev *l = &y->log[r->cur + i];
            type = l->type == YE_SCALAR ? YAML_SCALAR_EVENT : l->type == YE_MAP ? YAML_MAPPING_START_EVENT
                 : l->type == YE_SEQ ? YAML_SEQUENCE_START_EVENT : l->type == YE_MAP_END ? YAML_MAPPING_END_EVENT
                 : l->type == YE_SEQ_END ? YAML_SEQUENCE_END_EVENT : YAML_ALIAS_EVENT;
            plain = !l->quoted;
            str = y->logtext.data ? (const char *)y->logtext.data + l->text : "";
            n = l->n;
        } else {
            const ahead_ev *a = NULL;
            if (ya_peek(y, i, &a) != YPIPE_EVENT) return BLOBC_OK; /* the bake meets it */
            type = a->type;
            plain = a->plain;
            str = ya_text(y, a->value);
            n = a->length;
            pos = mark_pos(&a->mark);
        }
        uint64_t limit = BK_AHEAD_FACTOR * (y->parsed + y->nahead) + BK_AHEAD_FLOOR;
        if (++k->ahead_work > limit) return bk_ahead_over(k, &pos, limit);
        bool start = type == YAML_MAPPING_START_EVENT || type == YAML_SEQUENCE_START_EVENT;
        bool node = start || type == YAML_SCALAR_EVENT || type == YAML_ALIAS_EVENT;
        if (type == YAML_MAPPING_END_EVENT || type == YAML_SEQUENCE_END_EVENT) {
            if (--depth == 0) return BLOBC_OK;
            continue;
        }
        if (!node) continue;
        if (depth == 1 && match) {
            *found = true;
            *tpos = pos;
            tag->s = type == YAML_SCALAR_EVENT ? str : "";
            tag->n = type == YAML_SCALAR_EVENT ? n : 0;
            tag->tok = type != YAML_SCALAR_EVENT ? BK_TOK_JNULL : plain ? BK_TOK_PLAIN : BK_TOK_QUOTED;
            return BLOBC_OK;
        }
        if (depth == 1 && !name) {
            *found = type == YAML_SCALAR_EVENT;
            *tpos = pos;
            tag->s = *found ? str : "";
            tag->n = *found ? n : 0;
            tag->tok = plain ? BK_TOK_PLAIN : BK_TOK_QUOTED;
            return BLOBC_OK;
        }
        if (depth == 1) {
            match = key && type == YAML_SCALAR_EVENT && n == nlen && memcmp(str, name, n) == 0;
            key = !key;
        }
        if (start) depth++;
    }
}

