/*
 * compare.c - blobc_compare_blobs: two blobs' value streams
 * (walk_stream.c) side by side, stopped at the first event that differs,
 * which is named by the schema path the events led to. What `verify
 * --against` reports when a committed blob is not what its source bakes
 * to: no text is printed and read back.
 */
#include <stdio.h>
#include <stdlib.h>

#include "blobc/verify.h"
#include "common/stream.h"
#include "common/buffer.h"
#include "common/err.h"
#include "common/quote.h"

/* One open container on the way to the current value: a struct's field
 * or a sequence's index. */
typedef struct cstep {
    const blobc_field *field;
    uint32_t index;
    bool seq, has;
} cstep;

typedef struct cmp {
    cstep *st;
    size_t n, cap;
} cmp;

/* Follows the path through the first stream's events. */
static bool track(cmp *c, const blobc_value_event *ev) {
    switch (ev->kind) {
    case BLOBC_EV_BEGIN_STRUCT:
    case BLOBC_EV_BEGIN_SEQ:
        if (!blobc_grow((void **)&c->st, &c->cap, c->n + 1, sizeof *c->st)) return false;
        c->st[c->n++] = (cstep){NULL, 0, ev->kind == BLOBC_EV_BEGIN_SEQ, false};
        return true;
    case BLOBC_EV_END_STRUCT:
    case BLOBC_EV_END_SEQ: c->n--; return true;
    case BLOBC_EV_FIELD:
        c->st[c->n - 1].field = ev->field;
        c->st[c->n - 1].has = true;
        return true;
    case BLOBC_EV_ITEM:
        c->st[c->n - 1].index = ev->count;
        c->st[c->n - 1].has = true;
        return true;
    default: return true;
    }
}

static void render(const cmp *c, char *buf, size_t cap) {
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < c->n && o < cap; i++) {
        const cstep *s = &c->st[i];
        if (!s->has) continue;
        int w = s->seq ? snprintf(buf + o, cap - o, "[%u]", (unsigned)s->index)
                       : snprintf(buf + o, cap - o, "%s%s", o ? "." : "", s->field->name);
        if (w > 0) o += (size_t)w;
    }
}

static bool same_type(const blobc_type *a, const blobc_type *b) {
    if (a == b) return true;
    if (!a || !b || a->kind != b->kind) return false;
    return !a->name || !b->name || strcmp(a->name, b->name) == 0;
}

static bool same_event(const blobc_value_event *a, const blobc_value_event *b) {
    if (a->kind != b->kind || !same_type(a->type, b->type)) return false;
    switch (a->kind) {
    case BLOBC_EV_FIELD: return strcmp(a->field->name, b->field->name) == 0;
    case BLOBC_EV_BEGIN_SEQ: return a->count == b->count;
    case BLOBC_EV_SCALAR: return blobc_sval_equal(a->type, &a->v, &b->v);
    case BLOBC_EV_REF: return a->share == b->share;
    default: return true;
    }
}

/* a, b and c one after the other in buf, cut to fit. */
static void join(char *buf, size_t cap, const char *a, const char *b, const char *c) {
    const char *parts[3] = {a, b, c};
    size_t o = 0;
    for (int i = 0; i < 3; i++)
        for (const char *p = parts[i]; *p && o + 1 < cap; p++) buf[o++] = *p;
    buf[o] = '\0';
}

/* What an event says of its value, for the message. */
static void describe(const blobc_value_event *ev, char *buf, size_t cap) {
    char sp[160] = "";
    if (ev->type) blobc_type_spell(ev->type, sp, sizeof sp);
    char text[BLOBC_DIFF_TEXT_MAX];
    switch (ev->kind) {
    case BLOBC_EV_END: snprintf(buf, cap, "nothing"); break;
    case BLOBC_EV_FIELD: join(buf, cap, "field \"", ev->field->name, "\""); break;
    case BLOBC_EV_ITEM: snprintf(buf, cap, "item %u", (unsigned)ev->count); break;
    case BLOBC_EV_END_STRUCT:
    case BLOBC_EV_END_SEQ: snprintf(buf, cap, "no more"); break;
    case BLOBC_EV_BEGIN_STRUCT: join(buf, cap, sp, "", ""); break;
    case BLOBC_EV_BEGIN_SEQ:
        snprintf(text, sizeof text, " of %u items", (unsigned)ev->count);
        join(buf, cap, sp, text, "");
        break;
    case BLOBC_EV_NULL: join(buf, cap, sp, " = null", ""); break;
    case BLOBC_EV_PTR: join(buf, cap, sp, " to a value", ""); break;
    case BLOBC_EV_REF: join(buf, cap, sp, " = the payload of an earlier value", ""); break;
    case BLOBC_EV_SCALAR:
        if (ev->type->kind == BLOBC_KIND_STRING) {
            blobc_quote(text, sizeof text, ev->v.s, ev->v.n);
            join(buf, cap, "string bytes = ", text, "");
        } else {
            blobc_sval_text(ev->type, &ev->v, text, sizeof text);
            join(buf, cap, sp, " = ", text);
        }
        break;
    }
}

static blobc_status walk_both(blobc_rstream *a, blobc_rstream *b, blobc_difference *d,
                              blobc_error *err) {
    cmp c = {NULL, 0, 0};
    blobc_status st = BLOBC_OK;
    for (;;) {
        blobc_value_event ea, eb;
        if ((st = blobc_rstream_next(a, &ea)) || (st = blobc_rstream_next(b, &eb))) {
            st = st == BLOBC_ENOMEM ? blobc_err_nomem(err)
                                    : blobc_err(err, st, "internal error: the value stream lost its step");
            break;
        }
        if (!same_event(&ea, &eb)) {
            d->differ = 1;
            render(&c, d->path, sizeof d->path);
            describe(&ea, d->a, sizeof d->a);
            describe(&eb, d->b, sizeof d->b);
            break;
        }
        if (ea.kind == BLOBC_EV_END) break;
        if (!track(&c, &ea)) {
            st = blobc_err_nomem(err);
            break;
        }
    }
    free(c.st);
    return st;
}

blobc_status blobc_compare_blobs(const void *a, size_t alen, const void *b, size_t blen,
                                 const blobc_verify_options *opts, blobc_difference *diff,
                                 blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!a || !b || !diff) return blobc_err_arg(err, __func__, "a, b or diff is NULL");
    memset(diff, 0, sizeof *diff);
    const blobc_schema *schema = opts ? opts->schema : NULL;
    const char *type = opts ? opts->type_name : NULL;
    blobc_rstream *sa = NULL, *sb = NULL;
    blobc_status st = blobc_rstream_open(a, alen, schema, type, &sa, err);
    if (!st) st = blobc_rstream_open(b, blen, schema, type, &sb, err);
    if (!st) st = walk_both(sa, sb, diff, err);
    blobc_rstream_free(sa);
    blobc_rstream_free(sb);
    return st;
}
