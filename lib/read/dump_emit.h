/*
 * dump_emit.h - the text side of blobc_dump (dump.c): the output buffer
 * handed to a writer piece by piece, numbers, strings, keys and names as
 * YAML and JSON spell them, and the payload references that become
 * anchors, aliases or copies. Private to dump.c: its functions are
 * static, the small ones inline, so that the hot appends stay inlined
 * there.
 */
#ifndef BLOBC_DUMP_EMIT_H
#define BLOBC_DUMP_EMIT_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "blobc/bake.h"
#include "blobc/dump.h"
#include "common/fmt_float.h"
#include "common/kind.h"
#include "read/walk.h"

#define BLOCK_DEPTH 64
#define PIECE (64u * 1024u) /* bytes handed to the writer at a time */
#define KEY_SLOTS 64          /* keys written ready, by their name's address */
#define KEY_TEXT 32

/* A key as written: "name": (JSON), name: or "name": (YAML). */
typedef struct keytext {
    const char *name;
    size_t len;
    char text[KEY_TEXT];
} keytext;

typedef struct dframe {
    const blobc_type *type; /* MAP: the struct; SEQ: the item type */
    size_t base;            /* data offset of the struct / first item */
    uint32_t n, i;          /* entries, next entry */
    uint32_t esize;         /* SEQ: item size */
    uint32_t ind;           /* indentation of the entries (block style) */
    uint8_t seq, flow, first_inline;
    uint8_t copies;         /* copies of shared payloads that end with this frame */
    uint8_t map;            /* the entries of a map: type is its entry struct */
    uint8_t docs;           /* the items of a @stream root, one YAML document each */
    uint32_t out;           /* entries written (an absent optional is left out) */
    const blobc_type *tagu; /* a union by field: the member's mapping starts with */
    const blobc_field *tagm; /* the tag entry of this member */
} dframe;

typedef struct demit {
    blobc_buffer *out;      /* its len is behind cur while the text is made */
    char *cur, *lim;        /* the end of the text in out, and of its room */
    size_t start;           /* out->len when the dump began */
    uint64_t handed;        /* bytes handed to the writer (or dropped) so far */
    const blobc_dump_options *o; /* its writer, if any */
    bool dry;               /* a run that only looks for a failure: pieces are dropped */
    bool json;
    /* what stops the dump, tested as one word */
    union {
        struct {
            bool oom;
            bool over_budget;
            bool too_deep;  /* the text would nest deeper than max_nesting */
            bool desync;    /* the walk and the table disagree (a bug) */
        };
        uint32_t failed;
    };
    const uint8_t *d;
    blobc_walk *w;
    size_t next;            /* next new payload (table index) */
    uint32_t anchors;       /* anchors written so far */
    uint32_t doc_anchor;    /* anchors before the current YAML document: an
                               alias reaches no further back */
    uint32_t *anchor;       /* per payload: its anchor id, 0 none (made on first use) */
    dframe *fr;
    size_t nfr, frcap;
    /* copies of shared payloads (JSON; YAML only for a **T whose two
     * payloads are both shared) */
    uint32_t copying;       /* copies open */
    uint64_t copy_mark;     /* text_pos where the outermost copy began */
    uint64_t copied, copy_budget;
    uint32_t max_nesting;   /* what the bake of the format reads */
    keytext *keys;          /* KEY_SLOTS of them, or NULL */
} demit;

/* ---- output ---- */

static inline bool streams(const demit *e) { return e->dry || (e->o && e->o->write); }

/* The cursor from out; when streaming, the room ends where a piece is
 * full (make_room then hands it over). */
static inline void load_cursor(demit *e) {
    blobc_buffer *b = e->out;
    e->cur = (char *)b->data + b->len;
    e->lim = (char *)b->data + b->cap;
    if (streams(e) && b->cap - e->start > PIECE) e->lim = (char *)b->data + e->start + PIECE;
}

static inline void sync_len(demit *e) { e->out->len = (size_t)((uint8_t *)e->cur - e->out->data); }

/* Hands the text made so far to the writer (a dry run drops it). */
static inline void hand_over(demit *e) {
    blobc_buffer *b = e->out;
    size_t n = b->len - e->start;
    if (!streams(e) || n == 0 || e->oom) return;
    if (!e->dry) e->o->write(e->o->write_ctx, b->data + e->start, n);
    e->handed += n;
    b->len = e->start;
}

/* Room for n more bytes: a full piece goes to the writer first. */
static BLOBC_NOINLINE bool make_room(demit *e, size_t n) {
    sync_len(e);
    hand_over(e);
    blobc_buffer *b = e->out;
    bool ok = b->cap - b->len >= n || blobc_buf_reserve(b, streams(e) && n < PIECE ? PIECE : n);
    if (!ok) e->oom = true;
    load_cursor(e);
    /* one item longer than a piece (a long string) is a piece of its own */
    if (ok && (size_t)(e->lim - e->cur) < n) e->lim = (char *)b->data + b->cap;
    return ok;
}

/* Where the text is: bytes written so far, handed over or not. */
static inline uint64_t text_pos(const demit *e) {
    return e->handed + ((size_t)((uint8_t *)e->cur - e->out->data) - e->start);
}

/* Where the next n bytes go (NULL when out of memory); the text is
 * written through a local pointer and ended by done(), so that the
 * buffer's length is not read back after every byte (a store through a
 * char pointer may alias it). */
static inline char *room(demit *e, size_t n) {
    if (BLOBC_UNLIKELY((size_t)(e->lim - e->cur) < n) && !make_room(e, n)) return NULL;
    return e->cur;
}

static inline void done(demit *e, char *end) { e->cur = end; }

static inline void put(demit *e, const char *s, size_t n) {
    char *o = room(e, n);
    if (!o) return;
    memcpy(o, s, n);
    done(e, o + n);
}

#define PUTS(e, lit) put((e), (lit), sizeof(lit) - 1)

static inline void putc1(demit *e, char c) {
    char *o = room(e, 1);
    if (!o) return;
    *o = c;
    done(e, o + 1);
}

static const char spaces16[16] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
                                   ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};

/* n spaces at o, which has room for n rounded up to 16: whole stores of
 * 16 instead of a call for a few bytes. */
static inline char *spaces(char *o, uint32_t n) {
    for (uint32_t i = 0; i < n; i += 16) memcpy(o + i, spaces16, 16);
    return o + n;
}

static inline void indent(demit *e, uint32_t n) {
    char *o = room(e, (size_t)n + 16);
    if (o) done(e, spaces(o, n));
}

/* The most a number or a bool takes (an enum's name is not bounded). */
#define NUMBER_TEXT BLOBC_FLOAT_TEXT_MAX

static inline char *i64_text(char *o, int64_t v) {
    if (v < 0) {
        *o++ = '-';
        return o + blobc_format_u64(o, (uint64_t)0 - (uint64_t)v);
    }
    return o + blobc_format_u64(o, (uint64_t)v);
}

static inline char *float_text(char *o, double v, bool f32, bool json) {
    const char *t = NULL;
    if (isnan(v)) t = json ? "\"nan\"" : ".nan";
    else if (isinf(v)) t = json ? (v < 0 ? "\"-inf\"" : "\"inf\"") : (v < 0 ? "-.inf" : ".inf");
    if (!t) return o + blobc_format_float(o, v, f32);
    size_t n = strlen(t);
    memcpy(o, t, n);
    return o + n;
}

/* A bool or number of kind k at p, written at o (NUMBER_TEXT of room);
 * the end. */
static inline char *number_text(char *o, blobc_kind k, const uint8_t *p, bool json) {
    switch (k) {
    case BLOBC_KIND_BOOL:
        memcpy(o, *p ? "true" : "false", *p ? 4 : 5);
        return o + (*p ? 4 : 5);
    case BLOBC_KIND_I8: return i64_text(o, (int8_t)p[0]);
    case BLOBC_KIND_U8: return o + blobc_format_u64(o, p[0]);
    case BLOBC_KIND_I16: return i64_text(o, (int16_t)blobc_ld16(p));
    case BLOBC_KIND_U16: return o + blobc_format_u64(o, blobc_ld16(p));
    case BLOBC_KIND_I32: return i64_text(o, (int32_t)blobc_ld32(p));
    case BLOBC_KIND_U32: return o + blobc_format_u64(o, blobc_ld32(p));
    case BLOBC_KIND_I64: return i64_text(o, (int64_t)blobc_ld64(p));
    case BLOBC_KIND_U64: return o + blobc_format_u64(o, blobc_ld64(p));
    case BLOBC_KIND_F32: {
        uint32_t b = blobc_ld32(p);
        float f;
        memcpy(&f, &b, 4);
        return float_text(o, f, true, json);
    }
    case BLOBC_KIND_F64: {
        uint64_t b = blobc_ld64(p);
        double f;
        memcpy(&f, &b, 8);
        return float_text(o, f, false, json);
    }
    default: return o;
    }
}

static inline void put_string(demit *e, const uint8_t *s, size_t n) {
    /* at most six bytes a byte and the quotes (blobc_buf_quoted) */
    if (n > (SIZE_MAX - 2) / 6 || !room(e, 6 * n + 2)) {
        e->oom = true;
        return;
    }
    sync_len(e);
    if (!blobc_buf_quoted(e->out, s, n, e->json)) e->oom = true;
    load_cursor(e);
}

/* Whether an identifier reads as a bool or null to a YAML 1.1 reader
 * (y, n, yes, no, on, off, true, false, null, any case). Such keys and
 * enum names are quoted: blobc reads them either way, other tools would
 * not. */
static inline bool yaml_special(const char *s, size_t n) {
    static const char *const words[] = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"};
    if (n > 5) return false;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        const char *w = words[i];
        size_t k = 0;
        while (k < n && w[k] && (s[k] | 0x20) == w[k]) k++;
        if (k == n && !w[k]) return true;
    }
    return false;
}

/* A key's text, made on its first use (NULL when it is too long to
 * keep: then put_name). */
static BLOBC_NOINLINE const keytext *make_key_text(demit *e, keytext *k, const char *name);

static inline const keytext *key_text(demit *e, const char *name) {
    if (!e->keys) return NULL;
    keytext *k = &e->keys[((uintptr_t)name >> 3) % KEY_SLOTS];
    return k->name == name ? k : make_key_text(e, k, name);
}

static const keytext *make_key_text(demit *e, keytext *k, const char *name) {
    size_t n = strlen(name);
    if (n + 4 > KEY_TEXT || !blobc_is_ident(name, n)) return NULL;
    bool q = e->json || yaml_special(name, n);
    char *o = k->text;
    if (q) *o++ = '"';
    memcpy(o, name, n);
    o += n;
    if (q) *o++ = '"';
    *o++ = ':';
    if (e->json) *o++ = ' ';
    k->len = (size_t)(o - k->text);
    k->name = name;
    return k;
}

/* An identifier (key or enum member): JSON strings are quoted anyway; in
 * YAML only the ones that would read as something else. */
static inline void put_name(demit *e, const char *s) {
    size_t n = strlen(s);
    if (!blobc_is_ident(s, n)) {
        put_string(e, (const uint8_t *)s, n);
        return;
    }
    bool q = e->json || yaml_special(s, n);
    if (q) putc1(e, '"');
    put(e, s, n);
    if (q) putc1(e, '"');
}

/* ---- scalars ---- */

/* The kinds put_scalar writes: blobc_kind_is_scalar's, kept inline on
 * this path, and enums. */
static inline bool scalar_like(const blobc_type *t) {
    return (t->kind >= BLOBC_KIND_BOOL && t->kind <= BLOBC_KIND_F64) || t->kind == BLOBC_KIND_ENUM;
}

static inline void put_scalar(demit *e, const blobc_type *t, const uint8_t *p) {
    switch (t->kind) {
    case BLOBC_KIND_ENUM: {
        const blobc_type *base = t->elem;
        uint64_t v;
        switch (t->size) {
        case 1: v = base->kind == BLOBC_KIND_I8 ? (uint64_t)(int64_t)(int8_t)p[0] : p[0]; break;
        case 2:
            v = base->kind == BLOBC_KIND_I16 ? (uint64_t)(int64_t)(int16_t)blobc_ld16(p)
                                             : blobc_ld16(p);
            break;
        case 4:
            v = base->kind == BLOBC_KIND_I32 ? (uint64_t)(int64_t)(int32_t)blobc_ld32(p)
                                             : blobc_ld32(p);
            break;
        default: v = blobc_ld64(p); break;
        }
        const blobc_enum_value *ev = blobc_enum_find_value(t, v);
        put_name(e, ev ? ev->name : "?");
        break;
    }
    default: {
        char *o = room(e, NUMBER_TEXT);
        if (o) done(e, number_text(o, t->kind, p, e->json));
        break;
    }
    }
}

/* ---- payload references ---- */

enum { R_NULL, R_NEW, R_ALIAS, R_COPY };

/* Classifies the reference field at p (a STRING, ARRAY or PTR field).
 * *t and *cnt receive the target and count; for R_NEW *idx is the table
 * entry, for R_ALIAS *idx is the anchor id to name. */
static inline int resolve(demit *e, blobc_kind kind, size_t p, size_t *t, uint32_t *cnt, size_t *idx) {
    int32_t off = (int32_t)blobc_ld32(e->d + p);
    *cnt = kind == BLOBC_KIND_PTR ? 1 : blobc_ld32(e->d + p + 4);
    if (off == 0) return R_NULL;
    *t = p + (size_t)(int64_t)off;
    blobc_walk *w = e->w;
    if (e->next < w->ntab && w->tstart[e->next] == *t) {
        *idx = e->next++;
        return R_NEW;
    }
    size_t k = blobc_walk_find(w, (uint32_t)*t);
    if (k == SIZE_MAX || k >= e->next) {
        e->desync = true;
        return R_NULL;
    }
    /* no anchor was written for it (JSON, or a **T whose inner payload's
     * anchor took the node): a copy. A *T target that is also a [T] of
     * one item is an alias either way round: the bake links it back. */
    if (e->json || !e->anchor || e->anchor[k] <= e->doc_anchor) return R_COPY;
    *idx = e->anchor[k];
    return R_ALIAS;
}

static inline void put_anchor(demit *e, char sigil, uint32_t id) {
    char buf[16];
    buf[0] = sigil;
    buf[1] = 'a';
    put(e, buf, 2 + blobc_format_u64(buf + 2, id));
}

/* The anchor id for table entry idx, assigned as it is written; 0 when
 * there is none to write (not shared, JSON, or no entry). */
static inline uint32_t take_anchor(demit *e, size_t idx) {
    if (idx == SIZE_MAX || e->json) return 0;
    if (!(blobc_walk_flags(e->w, idx) & BLOBC_WP_SHARED)) return 0;
    if (!e->anchor) {
        e->anchor = calloc(e->w->ntab, sizeof *e->anchor);
        if (!e->anchor) {
            e->oom = true;
            return 0;
        }
    }
    uint32_t id = ++e->anchors;
    e->anchor[idx] = id;
    return id;
}

/* Bytes written inside copies of shared payloads count against a budget:
 * the mark is where the outermost open copy began. */
static inline void copy_begin(demit *e) {
    if (e->copying++ == 0) e->copy_mark = text_pos(e);
}

static inline void copy_end(demit *e) {
    if (--e->copying == 0) e->copied += text_pos(e) - e->copy_mark;
    if (e->copied > e->copy_budget) e->over_budget = true;
}

static inline bool budget_ok(demit *e) {
    uint64_t now = e->copied + (e->copying ? text_pos(e) - e->copy_mark : 0);
    if (now > e->copy_budget) e->over_budget = true;
    return !e->over_budget;
}

#endif
