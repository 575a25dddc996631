/*
 * messages.c - what the fill stack's errors say and where: the path of the
 * value being filled (rendered from the frame stack only when an error
 * happens), the error at a place with its source line, and the words for
 * what a type takes. Shared by the fill stack (fill.c) and the keys
 * (keys.c).
 */
#include "bake/bake_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/scalar.h"
#include "blobc/blobc.h"
#include "common/suggest.h"

void bk_quote(char *dst, size_t cap, const char *s, size_t n) { (void)blobc_quote(dst, cap, s, n); }

const char *bk_closest(const char *key, size_t len, const char *const *names, size_t n) {
    return blobc_closest_name(key, len, names, n);
}

/* Appends the key of a map frame's current entry to b: its text for a
 * string, its member's name for an enum, else its number. */
static void map_key_text(const bk *k, const bk_frame *f, blobc_buffer *b) {
    const blobc_type *e = f->type->elem, *kt = e->fields[0].type;
    uint32_t i = f->count - 1;
    if (k->raw_key && f == &k->fr[k->depth - 1]) {
        for (size_t j = 0; j < k->raw_key_len && j < 200; j++)
            blobc_buf_putc(b, (unsigned char)k->raw_key[j] < 0x20 ? '?' : k->raw_key[j]);
        return;
    }
    if (kt->kind == BLOBC_KIND_STRING) {
        blobc_ref *t = malloc((size_t)f->count * sizeof *t);
        if (t && !blobc_builder_item_targets(k->b, f->items, e->size, e->fields[0].offset,
                                             f->count, t) && t[i] != UINT32_MAX) {
            const char *str = blobc_builder_ptr(k->b, t[i]);
            size_t n = blobc_builder_size(k->b, t[i]) - 1;
            for (size_t j = 0; j < n && j < 200; j++)
                blobc_buf_putc(b, (unsigned char)str[j] < 0x20 ? '?' : str[j]);
        }
        free(t);
        return;
    }
    const uint8_t *mem = (const uint8_t *)blobc_builder_ptr(k->b, f->items) + (size_t)i * e->size;
    blobc_kind kind = kt->kind == BLOBC_KIND_ENUM ? kt->elem->kind : kt->kind;
    uint64_t bits = blobc_load_int(mem + e->fields[0].offset, kind);
    const blobc_enum_value *ev = kt->kind == BLOBC_KIND_ENUM ? blobc_enum_find_value(kt, bits) : NULL;
    if (ev) blobc_buf_puts(b, ev->name);
    else if (blobc_kind_is_signed(kind)) blobc_buf_printf(b, "%lld", (long long)(int64_t)bits);
    else blobc_buf_printf(b, "%llu", (unsigned long long)bits);
}

/* Appends the path of the value being filled to b. */
static void render_path(const bk *k, int mode, const char *key, size_t keylen, blobc_buffer *b) {
    for (uint32_t i = 0; i < k->depth; i++) {
        const bk_frame *f = &k->fr[i];
        if (i + 1 == k->depth && mode == BK_AT_CONTAINER) break;
        if (f->kind == BK_MAP) {
            if (!f->count) continue;
            if (k->json) blobc_buf_putc(b, '/');
            else if (b->len) blobc_buf_putc(b, '.');
            map_key_text(k, f, b);
        } else if (bk_is_map(f)) {
            if (!f->field) continue;
            if (k->json) blobc_buf_putc(b, '/');
            else if (b->len) blobc_buf_putc(b, '.');
            blobc_buf_puts(b, f->field->name);
        } else if (f->count > 0) {
            blobc_buf_printf(b, k->json ? "/%u" : "[%u]", (unsigned)(f->count - 1));
        }
    }
    if (key) {
        if (k->json) blobc_buf_putc(b, '/');
        else if (b->len) blobc_buf_putc(b, '.');
        for (size_t i = 0; i < keylen && i < 200; i++) {
            unsigned char c = (unsigned char)key[i];
            if (k->json && c == '~') blobc_buf_puts(b, "~0");
            else if (k->json && c == '/') blobc_buf_puts(b, "~1");
            else blobc_buf_putc(b, c < 0x20 || c == 0x7f ? '?' : (char)c);
        }
    }
}

void bk_render_path(const bk *k, blobc_buffer *b) { render_path(k, BK_AT_VALUE, NULL, 0, b); }

/* What a container contributes to the path of a value inside it. */
struct bk_path_step {
    const blobc_field *field;
    blobc_ref items;
    uint32_t count;
    uint8_t kind;
};

static bk_path_step step_of(const bk_frame *f) {
    return (bk_path_step){f->field, f->items, f->count, f->kind};
}

static bool same_step(const bk_path_step *a, const bk_path_step *b) {
    return a->field == b->field && a->items == b->items && a->count == b->count && a->kind == b->kind;
}

static const char *arena_path(bk *k, int mode) {
    blobc_buffer b = {0};
    render_path(k, mode, NULL, 0, &b);
    char *s = blobc_arena_strndup(&k->arena, b.data ? (const char *)b.data : "", b.data ? b.len : 0);
    blobc_buffer_free(&b);
    return s;
}

blobc_status bk_path_mark_take(bk *k, bk_path_memo *memo, bk_path_mark *out) {
    const bk_frame *top = k->depth ? &k->fr[k->depth - 1] : NULL;
    *out = (bk_path_mark){NULL, NULL, UINT32_MAX};
    if (!top || top->kind == BK_MAP) { /* a map's step is its key's text: no memo */
        out->prefix = arena_path(k, BK_AT_VALUE);
        return out->prefix ? BLOBC_OK : blobc_err_nomem(k->err);
    }
    uint32_t n = k->depth - 1, i = 0;
    if (memo->prefix && memo->depth == n) {
        bk_path_step now;
        while (i < n && (now = step_of(&k->fr[i]), same_step(&memo->steps[i], &now))) i++;
    }
    if (!memo->prefix || memo->depth != n || i < n) {
        size_t cap = memo->cap;
        if (!blobc_grow((void **)&memo->steps, &cap, n ? n : 1, sizeof *memo->steps) ||
            !(memo->prefix = arena_path(k, BK_AT_CONTAINER)))
            return blobc_err_nomem(k->err);
        memo->cap = (uint32_t)cap;
        memo->depth = n;
        for (i = 0; i < n; i++) memo->steps[i] = step_of(&k->fr[i]);
    }
    out->prefix = memo->prefix;
    if (bk_is_map(top)) out->field = top->field;
    else if (top->count > 0) out->item = top->count - 1;
    return BLOBC_OK;
}

/* The mark as render_path would have written it when it was taken. */
void bk_path_mark_text(const bk *k, const bk_path_mark *m, char *buf, size_t cap) {
    const char *p = m->prefix ? m->prefix : "";
    if (m->field)
        snprintf(buf, cap, "%s%s%s", p, k->json ? "/" : *p ? "." : "", m->field->name);
    else if (m->item != UINT32_MAX)
        snprintf(buf, cap, k->json ? "%s/%u" : "%s[%u]", p, (unsigned)m->item);
    else
        snprintf(buf, cap, "%s", p);
}

void bk_path_memo_free(bk_path_memo *memo) {
    free(memo->steps);
    *memo = (bk_path_memo){0};
}

static void set_path(bk *k, int mode, const char *key, size_t keylen) {
    if (k->column) {
        /* a spreadsheet's author knows the column, not the path */
        snprintf(k->err->path, sizeof k->err->path, "column \"%s\"", k->column);
        return;
    }
    blobc_buffer b = {0};
    render_path(k, mode, key, keylen, &b);
    if (!b.data) return;
    size_t cap = sizeof k->err->path;
    if (b.len < cap) {
        memcpy(k->err->path, b.data, b.len);
        k->err->path[b.len] = '\0';
    } else {
        /* Deep paths keep their innermost part, which says the most. */
        size_t keep = cap - 4;
        memcpy(k->err->path, "...", 3);
        memcpy(k->err->path + 3, b.data + b.len - keep, keep);
        k->err->path[cap - 1] = '\0';
    }
    blobc_buffer_free(&b);
}

static void place(bk *k, const bk_pos *pos, int mode, const char *key, size_t keylen) {
    blobc_err_file(k->err, k->filename);
    if (pos && k->locate) k->locate(k, pos);
    set_path(k, mode, key, keylen);
}

void bk_warn(bk *k, const bk_pos *pos, const char *key, size_t keylen, const char *fmt, ...) {
    blobc_diag_sink *sink = k->sink;
    if (!sink || !sink->warning || !k->err) return;
    k->warned++;
    if (k->warn_skip) {
        k->warn_skip--;
        return;
    }
    /* placed through k->err, which may hold a kept error: put it back */
    blobc_error saved = *k->err, w;
    blobc_error_clear(k->err);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(k->err->message, sizeof k->err->message, fmt, ap);
    va_end(ap);
    place(k, pos, key ? BK_AT_CONTAINER : BK_AT_VALUE, key, keylen);
    w = *k->err;
    w.status = BLOBC_OK;
    *k->err = saved;
    sink->warning(sink->ctx, &w);
}

blobc_status bk_fail(bk *k, blobc_status st, const bk_pos *pos, int mode, const char *key,
                     size_t keylen, const char *fmt, ...) {
    blobc_error *e = k->err;
    k->outcome = BK_OUT_NONE; /* a new error: no outcome it could be taken for */
    if (!e) return st;
    blobc_error_clear(e);
    if (k->muted) {
        /* only counted: spare the path and the source line */
        e->status = st;
        return st;
    }
    va_list ap;
    va_start(ap, fmt);
    blobc_verr(e, st, fmt, ap);
    va_end(ap);
    if (k->note) {
        size_t n = strlen(e->message);
        snprintf(e->message + n, sizeof e->message - n, " %s", k->note);
    }
    place(k, pos, mode, key, keylen);
    return st;
}

blobc_status bk_fail_builder(bk *k, const bk_pos *pos) {
    blobc_error tmp;
    blobc_error_clear(&tmp);
    blobc_status st = blobc_builder_status(k->b, &tmp);
    if (st == BLOBC_OK) {
        st = BLOBC_ENOMEM;
        snprintf(tmp.message, sizeof tmp.message, "out of memory");
    }
    k->hard = true;
    return bk_fail(k, st, pos, BK_AT_VALUE, NULL, 0, "%s", tmp.message);
}


void bk_describe_type(const bk *k, const blobc_type *t, char *buf, size_t cap) {
    char sp[160];
    blobc_type_spell(t, sp, sizeof sp);
    switch (t->kind) {
    case BLOBC_KIND_BOOL: snprintf(buf, cap, "true or false"); break;
    case BLOBC_KIND_I8:
    case BLOBC_KIND_U8:
    case BLOBC_KIND_I16:
    case BLOBC_KIND_U16:
    case BLOBC_KIND_I32:
    case BLOBC_KIND_U32:
    case BLOBC_KIND_I64:
    case BLOBC_KIND_U64:
        snprintf(buf, cap, "an integer in %s range %s", blobc_kind_name(t->kind),
                 blobc_int_range_text(t->kind));
        break;
    case BLOBC_KIND_F32:
    case BLOBC_KIND_F64: snprintf(buf, cap, "a number (%s)", sp); break;
    case BLOBC_KIND_ENUM: snprintf(buf, cap, "a member name of enum %s", t->name); break;
    case BLOBC_KIND_STRING: snprintf(buf, cap, "a string"); break;
    case BLOBC_KIND_STRUCT:
        snprintf(buf, cap, "%s (struct %s)", k->json ? "an object" : "a mapping", t->name);
        break;
    case BLOBC_KIND_ARRAY:
        snprintf(buf, cap, "%s (%s)", k->json ? "an array" : "a sequence", sp);
        break;
    case BLOBC_KIND_FIXED:
        snprintf(buf, cap, "%s of %u items (%s)", k->json ? "an array" : "a sequence",
                 (unsigned)t->count, sp);
        break;
    case BLOBC_KIND_PTR: {
        char inner[200];
        if (t->ref) {
            const blobc_type *kt = t->elem->fields[t->elem->key - 1].type;
            bk_describe_type(k, kt, inner, sizeof inner);
            snprintf(buf, cap, "a key of %s (%s)", t->elem->name, inner);
            break;
        }
        bk_describe_type(k, t->elem, inner, sizeof inner);
        snprintf(buf, cap, "%s or null", inner);
        break;
    }
    case BLOBC_KIND_UNION: {
        char names[300];
        bk_list_names(names, sizeof names, t);
        if (t->by == BLOBC_UNION_BY_FIELD)
            snprintf(buf, cap, "%s whose field \"%s\" names a member of union %s (%s)",
                     k->json ? "an object" : "a mapping", t->tag_field, t->name, names);
        else if (t->by == BLOBC_UNION_BY_TAG && !k->json)
            snprintf(buf, cap, "a mapping whose tag names a member of union %s (%s)", t->name,
                     names);
        else
            snprintf(buf, cap, "%s with one key naming a member of union %s (%s)",
                     k->json ? "an object" : "a mapping", t->name, names);
        break;
    }
    case BLOBC_KIND_MAP:
        snprintf(buf, cap, "%s (%s)", k->json ? "an object" : "a mapping", sp);
        break;
    case BLOBC_KIND_OPTIONAL: {
        char inner[200];
        bk_describe_type(k, t->elem, inner, sizeof inner);
        snprintf(buf, cap, "%s or null", inner);
        break;
    }
    case BLOBC_KIND_ANY: snprintf(buf, cap, "any value"); break;
    }
}

/* How the author wrote a scalar, for "got ..." in messages. */
static void describe_scalar(const bk_scalar *v, char *buf, size_t cap) {
    char q[200];
    bk_quote(q, sizeof q, v->s, v->n);
    switch (v->tok) {
    case BK_TOK_PLAIN:
        if (v->n == 0) snprintf(buf, cap, "an empty value");
        else snprintf(buf, cap, "%s", q);
        break;
    case BK_TOK_QUOTED: snprintf(buf, cap, "a quoted string %s", q); break;
    case BK_TOK_JSTRING: snprintf(buf, cap, "the string %s", q); break;
    case BK_TOK_JNUMBER: snprintf(buf, cap, "the number %.*s", (int)(v->n > 40 ? 40 : v->n), v->s);
        break;
    case BK_TOK_JBOOL: snprintf(buf, cap, "%.*s", (int)v->n, v->s); break;
    case BK_TOK_JNULL: snprintf(buf, cap, "null"); break;
    }
}

blobc_status bk_type_error(bk *k, const blobc_type *t, const bk_scalar *v, const bk_pos *pos,
                           const char *extra) {
    char want[300], got[300];
    bk_describe_type(k, t, want, sizeof want);
    describe_scalar(v, got, sizeof got);
    return bk_soft(k, bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0, "expected %s, got %s%s",
                              want, got, extra ? extra : ""));
}

/* Error for a container (mapping/sequence, `is_map`) where slot s's type
 * wants something else. */
blobc_status bk_fail_container(bk *k, const bk_slot *s, bool is_map, const bk_pos *pos) {
    char want[300];
    bk_describe_type(k, s->type, want, sizeof want);
    const char *got = k->json ? (is_map ? "an object" : "an array")
                              : (is_map ? "a mapping" : "a sequence");
    return bk_soft(k, bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0, "expected %s, got %s",
                              want, got));
}

/* "id, name, kind, ..." : the first few names of a struct's fields, an
 * enum's or a union's members. */
void bk_list_names(char *buf, size_t cap, const blobc_type *t) {
    size_t o = 0;
    bool fields = t->kind != BLOBC_KIND_ENUM;
    uint32_t n = fields ? t->nfields : t->nvalues;
    buf[0] = '\0';
    for (uint32_t i = 0; i < n && i < 12; i++) {
        const char *name = fields ? t->fields[i].name : t->values[i].name;
        if (t->kind == BLOBC_KIND_UNION && t->by != BLOBC_UNION_BY_KEY && !t->int_tags)
            name = t->fields[i].tag;
        int w = snprintf(buf + o, cap - o, "%s%s", i ? ", " : "", name);
        if (w < 0 || (size_t)w >= cap - o) return;
        o += (size_t)w;
    }
    if (n > 12) snprintf(buf + o, cap - o, ", ...");
}

/* "\"tilelayer\", \"objectgroup\", ..." or "1, 2, ...": the tags of u. */
void bk_list_tags(const blobc_type *u, char *buf, size_t cap) {
    size_t o = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < u->nfields && o + 8 < cap; i++) {
        const blobc_field *m = &u->fields[i];
        int w = u->int_tags ? snprintf(buf + o, cap - o, "%s%lld", i ? ", " : "",
                                       (long long)m->tag_value)
                            : snprintf(buf + o, cap - o, "%s\"%s\"", i ? ", " : "", m->tag);
        if (w < 0 || (size_t)w >= cap - o) break;
        o += (size_t)w;
    }
}

blobc_status bk_unknown_tag(bk *k, const blobc_type *u, const char *s, size_t n,
                                const bk_pos *pos) {
    char q[200], names[300], how[160];
    bk_quote(q, sizeof q, s, n);
    if (u->flags & BLOBC_STRUCT_OPEN) {
        /* an @open union holds none for it, its value skipped */
        k->skipped++;
        if (k->opts && k->opts->warn_unknown)
            bk_warn(k, pos, NULL, 0, "tag %s names no member of union %s: left out (the union is @open)",
                    q, u->name);
        return bk_stop(k, BK_OUT_SKIP);
    }
    bk_list_tags(u, names, sizeof names);
    if (u->by == BLOBC_UNION_BY_FIELD) snprintf(how, sizeof how, "field \"%s\"", u->tag_field);
    else snprintf(how, sizeof how, "a YAML tag, or the one key of an untagged mapping");
    blobc_suggest sg;
    blobc_suggest_init(&sg, s, n);
    for (uint32_t i = 0; !u->int_tags && i < u->nfields; i++) blobc_suggest_offer(&sg, u->fields[i].tag);
    const char *best = u->int_tags ? NULL : blobc_suggest_best(&sg);
    if (best)
        return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                       "unknown tag %s of union %s (%s); did you mean \"%s\"?", q, u->name, how,
                       best);
    return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                   "unknown tag %s of union %s (%s; tags: %s)", q, u->name, how, names);
}
