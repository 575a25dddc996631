/*
 * yaml.c - the YAML front end: libyaml's event parser feeds the fill
 * stack (fill.c) directly, one event at a time, with no document
 * tree, so memory stays at the size of the blob being built. The events
 * come through yaml_pipe.c, which parses a big input on a second thread,
 * ahead of the baker.
 *
 * Anchors and aliases. Events are recorded only while inside an anchored
 * node (one shared log; an anchor is a range of it), so unanchored input
 * is never buffered. An alias replays its anchor's range through the same
 * code path, which copies inline values. When the anchored node's value
 * lives out of line (a string's bytes, a [T]'s items, a *T's target), the
 * original remembers (anchor, type, builder ref, length); a replayed node
 * whose anchor has such a record for the very type now expected (the
 * schema interns types, so pointers compare) is linked to the same
 * payload instead and its events are skipped: one payload, several
 * offsets. Replays are counted against a budget so that nested aliases
 * cannot expand exponentially.
 *
 * Merge keys (`<<: *base`, `<<: [*a, *b]`, YAML 1.1): at the mapping's
 * end the aliased mappings' keys are replayed into it, first to last, each
 * only if no key before set it (explicit keys win, then earlier merges);
 * the end then comes again from log entry 0, a lone end-of-mapping event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "bake/bake_internal.h"
#include "platform/platform.h"
#include "common/hashtab.h"
#include "bake/yaml_pipe.h"

#include "bake/yaml_internal.h"

/* ---- positions and source lines ---- */

static const char *source_text(ys *y, size_t *len) {
    if (y->text) {
        *len = y->len;
        return y->text;
    }
    if (!y->file_tried) {
        y->file_tried = true;
        const char *f = y->k->filename;
        /* Only a regular file reads the same again: a pipe or device (a
         * FIFO, /dev/zero) would block or read on without end. */
        blobc_read_options ro = {0, false, NULL, 0, true};
        if (f && strcmp(f, "-") != 0 && strcmp(f, "<stdin>") != 0) {
            blobc_error tmp;
            blobc_error_clear(&tmp);
            if (blobc_read_file_ex(f, &ro, &y->filetext, &y->filelen, &tmp) != BLOBC_OK) {
                y->filetext = NULL;
                y->filelen = 0;
            }
        }
    }
    *len = y->filelen;
    return (const char *)y->filetext;
}

/* Byte offset where 1-based line `line` starts, counting breaks as libyaml
 * does (LF, CRLF, CR), from line `from` starting at offset i. */
static size_t line_start(const char *t, size_t len, uint32_t line, uint32_t from, size_t i) {
    for (uint32_t l = from; l < line && i < len; l++) {
        while (i < len && t[i] != '\n' && t[i] != '\r') i++;
        if (i < len && t[i] == '\r' && i + 1 < len && t[i + 1] == '\n') i++;
        if (i < len) i++;
    }
    return i;
}

static void yaml_locate(bk *k, const bk_pos *pos) {
    ys *y = k->fe;
    if (pos->line == 0) return;
    blobc_err_at(k->err, NULL, pos->line, pos->col);
    size_t len;
    const char *t = source_text(y, &len);
    if (!t) return;
    /* A UTF-16 input has no byte-for-byte lines to show. */
    if (len >= 2 && ((unsigned char)t[0] == 0xFE || (unsigned char)t[0] == 0xFF || t[0] == 0 ||
                     t[1] == 0))
        return;
    /* Several errors come in document order: go on from the last line. */
    if (y->lc_line == 0 || pos->line < y->lc_line) {
        y->lc_line = 1;
        y->lc_off = 0;
    }
    y->lc_off = line_start(t, len, pos->line, y->lc_line, y->lc_off);
    y->lc_line = pos->line;
    blobc_err_source_line(k->err, t, len, y->lc_off);
}

/* ---- anchors ---- */

static uint32_t anchor_lookup(const ys *y, const char *name) {
    blobc_hprobe p;
    for (uint32_t id = blobc_hashtab_first(&y->amap, blobc_hash_bytes(name, strlen(name)), &p); id;
         id = blobc_hashtab_next(&y->amap, &p))
        if (strcmp(y->anchors[id].name, name) == 0) return id;
    return 0;
}

static bool amap_put(ys *y, uint32_t id) {
    const char *name = y->anchors[id].name;
    uint64_t h = blobc_hash_bytes(name, strlen(name));
    blobc_hprobe p;
    for (uint32_t cur = blobc_hashtab_first(&y->amap, h, &p); cur;
         cur = blobc_hashtab_next(&y->amap, &p)) {
        if (strcmp(y->anchors[cur].name, name) == 0) {
            blobc_hashtab_replace(&y->amap, &p, id); /* a redefinition hides the earlier anchor */
            return true;
        }
    }
    return blobc_hashtab_add(&y->amap, h, id);
}

static blobc_status anchor_define(ys *y, const char *name, const bk_pos *pos, uint32_t *id) {
    bk *k = y->k;
    uint32_t n = y->nanchors ? y->nanchors : 1;
    if (!reserve32((void **)&y->anchors, &y->anchors_cap, n, sizeof *y->anchors))
        return blobc_err_nomem(k->err);
    anchor_rec *a = &y->anchors[n];
    memset(a, 0, sizeof *a);
    a->name = blobc_arena_strndup(&k->arena, name, strlen(name));
    if (!a->name) return blobc_err_nomem(k->err);
    a->start = y->nlog;
    a->line = pos->line;
    a->col = pos->col;
    y->nanchors = n + 1;
    if (!amap_put(y, n)) return blobc_err_nomem(k->err);
    *id = n;
    return BLOBC_OK;
}

/* The payload of anchor `id` that a value of `type` can link to, and the
 * length to link with: one recorded for the same type, or one payload seen
 * both ways, a *T's target and a [T] of that one item (blobs can share it
 * so; dump writes the second reference as an alias). NULL when none. */
static const share_rec *share_find(const ys *y, uint32_t id, const blobc_type *type,
                                   uint32_t *len) {
    const share_rec *one = NULL;
    for (uint32_t s = y->anchors[id].shares; s; s = y->shares[s - 1].next) {
        const share_rec *r = &y->shares[s - 1];
        if (r->type == type) {
            *len = r->len;
            return r;
        }
        bool ptr_arr = type->kind == BLOBC_KIND_PTR && r->type->kind == BLOBC_KIND_ARRAY &&
                       r->len == 1;
        bool arr_ptr = type->kind == BLOBC_KIND_ARRAY && r->type->kind == BLOBC_KIND_PTR;
        if ((ptr_arr || arr_ptr) && r->type->elem == type->elem) one = r;
    }
    *len = 1;
    return one;
}

static blobc_status share_add(ys *y, uint32_t id, const blobc_type *type, blobc_ref ref,
                              uint32_t len) {
    if (!reserve32((void **)&y->shares, &y->shares_cap, y->nshares, sizeof *y->shares))
        return blobc_err_nomem(y->k->err);
    y->shares[y->nshares] = (share_rec){type, ref, len, y->anchors[id].shares};
    y->anchors[id].shares = ++y->nshares;
    return BLOBC_OK;
}

static blobc_status log_event(ys *y, const yev *ev) {
    if (!reserve((void **)&y->log, &y->log_cap, y->nlog, sizeof *y->log))
        return blobc_err_nomem(y->k->err);
    logev *l = &y->log[y->nlog++];
    l->type = (uint8_t)ev->type;
    l->quoted = ev->quoted;
    l->anchor = ev->anchor;
    l->alias = ev->alias;
    l->text = y->logtext.len;
    l->n = ev->type == YE_SCALAR ? ev->n : 0;
    if (l->n && !blobc_buf_append(&y->logtext, ev->s, ev->n)) return blobc_err_nomem(y->k->err);
    return BLOBC_OK;
}

/* ---- errors ---- */

static const char *node_word(const yev *ev) {
    switch (ev->type) {
    case YE_MAP: return "a mapping";
    case YE_SEQ: return "a sequence";
    case YE_ALIAS: return "an alias";
    default: return "a scalar";
    }
}

/* The text of a scalar, or of an alias whose anchor is a single scalar
 * (where an alias cannot be replayed: keys and meta values). */
static blobc_status scalar_text(ys *y, const yev *ev, const char *what, const char **s,
                                size_t *n, bool *quoted) {
    if (ev->type == YE_SCALAR) {
        *s = ev->s;
        *n = ev->n;
        *quoted = ev->quoted;
        return BLOBC_OK;
    }
    if (ev->type == YE_ALIAS) {
        const anchor_rec *a = &y->anchors[ev->alias];
        if (a->end - a->start == 1 && y->log[a->start].type == YE_SCALAR) {
            const logev *l = &y->log[a->start];
            *s = y->logtext.data ? (const char *)y->logtext.data + l->text : "";
            *n = l->n;
            *quoted = l->quoted;
            y->replayed++;
            return BLOBC_OK;
        }
    }
    return bk_fail(y->k, BLOBC_EINPUT, &ev->pos, BK_AT_CONTAINER, NULL, 0, "%s must be a scalar, got %s",
                   what, node_word(ev));
}

/* ---- the consumer: one event at a time ---- */

static blobc_status start_replay(ys *y, const yev *ev) {
    const anchor_rec *a = &y->anchors[ev->alias];
    if (y->nrp == 0) {
        y->alias_pos = ev->pos;
        char at[BLOBC_PLACE_BUF];
        snprintf(y->note, sizeof y->note, "(in the value of alias *%.60s, anchored at %s)",
                 a->name, blobc_place(at, sizeof at, y->k->filename, a->line, a->col));
        y->k->note = y->note;
    }
    if (!reserve((void **)&y->rp, &y->rp_cap, y->nrp, sizeof *y->rp))
        return blobc_err_nomem(y->k->err);
    y->rp[y->nrp++] = (replay){a->start, a->end};
    return BLOBC_OK;
}

/* The end of a mapping whose merge keys named mappings: the first one's
 * keys are replayed into it now, then the end again (log entry 0), which
 * brings the next. False when none is left. */
static bool start_merges(ys *y, blobc_status *st) {
    bk *k = y->k;
    size_t first = y->nmerges;
    while (first > 0 && y->merges[first - 1].depth == k->depth) first--;
    if (first == y->nmerges) return false;
    bk_top(k)->state = ST_KEY | ST_MERGING;
    *st = BLOBC_OK;
    if (!reserve((void **)&y->rp, &y->rp_cap, y->nrp + 1, sizeof *y->rp)) {
        *st = blobc_err_nomem(k->err);
        return true;
    }
    merge_rec m = y->merges[first];
    memmove(&y->merges[first], &y->merges[first + 1], (--y->nmerges - first) * sizeof m);
    const anchor_rec *a = &y->anchors[m.anchor];
    y->alias_pos = m.pos;
    char at[BLOBC_PLACE_BUF];
    snprintf(y->note, sizeof y->note, "(merged from *%.60s, anchored at %s)", a->name,
             blobc_place(at, sizeof at, k->filename, a->line, a->col));
    k->note = y->note;
    y->rp[y->nrp++] = (replay){0, 1};
    y->rp[y->nrp++] = (replay){a->start + 1, a->end - 1}; /* its keys and values */
    return true;
}

static blobc_status end_container(ys *y, const yev *ev) {
    bk *k = y->k;
    bk_frame *f = bk_top(k);
    blobc_status st;
    if (ev->type == YE_MAP_END && y->nmerges && start_merges(y, &st)) return st;
    if (ev->type == YE_MAP_END) {
        st = bk_pop_struct(k);
    } else {
        uint32_t anchor = f->anchor, count = 0;
        const blobc_type *t = f->type;
        blobc_ref items = 0;
        st = bk_pop_seq(k, &ev->pos, &items, &count);
        if (!st && anchor && t->kind == BLOBC_KIND_ARRAY && count)
            st = share_add(y, anchor, t, items, count);
    }
    if (!st && (k->depth == 0 || (y->stream && k->depth == 2))) y->phase = P_DOCEND;
    return st;
}

/* After an error kept (BK_OUT_KEPT) about the node starting at ev: skips
 * the rest of it. Any other status is returned as it is. */
static blobc_status skip_node(ys *y, const yev *ev, blobc_status st) {
    if (!bk_kept(y->k, st)) return st;
    y->skip = ev->type == YE_MAP || ev->type == YE_SEQ ? 1 : 0;
    return BLOBC_OK;
}

/* After an error kept about a key: skips the value that follows. */
static blobc_status skip_value(ys *y, blobc_status st) {
    if (!bk_kept(y->k, st)) return st;
    y->skip_next = true;
    return BLOBC_OK;
}

/* An event inside a skipped value: only its nesting is followed (an alias
 * is one node, never replayed here). */
static blobc_status skip_event(ys *y, const yev *ev) {
    bool start = ev->type == YE_MAP || ev->type == YE_SEQ;
    if (y->skip_next) {
        y->skip_next = false;
        y->skip = start ? 1 : 0;
    } else if (start) {
        y->skip++;
    } else if (ev->type == YE_MAP_END || ev->type == YE_SEQ_END) {
        y->skip--;
    }
    return BLOBC_OK;
}

static blobc_status dispatch(ys *y, const yev *ev, bk_slot s);

/* A mapping's anchor, into the fields of its struct marked @anchor. */
static blobc_status anchor_fields(ys *y, const yev *ev) {
    bk *k = y->k;
    const bk_frame *f = bk_top(k);
    if (f->kind != BK_STRUCT) return BLOBC_OK;
    const blobc_type *t = f->type;
    for (uint32_t i = 0; i < t->nfields; i++) {
        if (!(t->fields[i].flags & BLOBC_FIELD_ANCHOR)) continue;
        bk_slot slot;
        bk_scalar v;
        memset(&v, 0, sizeof v);
        v.s = ev->anchor_name;
        v.n = strlen(ev->anchor_name);
        v.tok = t->fields[i].type->kind == BLOBC_KIND_STRING ? BK_TOK_QUOTED : BK_TOK_PLAIN;
        blobc_status st = bk_key_field(k, &t->fields[i], &ev->pos, &slot);
        if (!st) st = bk_store(k, &slot, &v, &ev->pos, NULL);
        if (st && !bk_kept(k, st)) return st;
    }
    return BLOBC_OK;
}

/* The list of a @stream root opens once its schema is known; the first
 * document's mapping, unless it held only meta keys, is its first item. */
static blobc_status open_stream(ys *y, bool first_item) {
    bk *k = y->k;
    bk_slot slot;
    blobc_status st = bk_key_field(k, &k->root->fields[0], &y->root_pos, &slot);
    if (!st) st = bk_push_seq(k, &slot, UINT32_MAX, &y->root_pos);
    if (st) return st;
    y->stream = true;
    if (!first_item) return BLOBC_OK;
    if ((st = bk_item(k, &y->root_pos, &slot))) return st;
    yev m;
    memset(&m, 0, sizeof m);
    m.type = YE_MAP;
    m.pos = y->root_pos;
    m.tag = y->root_tag;
    m.anchor_name = y->root_anchor;
    k->node_tag = m.tag;
    k->node_tag_len = m.tag ? strlen(m.tag) : 0;
    st = dispatch(y, &m, slot);
    k->node_tag = NULL;
    return st;
}

/* The first document's mapping has begun. When its first key is no meta
 * key and the root is a @stream, the mapping is the stream's first item,
 * and opens now: an item that is a union tagged by a field looks ahead
 * from its own start. Any other root waits for its first data key. */
static bool is_meta(const char *s, size_t n, int *which);

static blobc_status stream_start(ys *y) {
    bk *k = y->k;
    const ahead_ev *a;
    if (y->nrp || ya_peek(y, 0, &a) != YPIPE_EVENT) return BLOBC_OK;
    if (a->type == YAML_MAPPING_END_EVENT) return BLOBC_OK;
    int which;
    const char *s = ya_text(y, a->value);
    if (a->type == YAML_SCALAR_EVENT && s && is_meta(s, a->length, &which)) return BLOBC_OK;
    blobc_status st = bk_resolve_root(k, &y->root_pos);
    if (st) return st;
    y->phase = P_BODY;
    if (!(k->root->flags & BLOBC_STRUCT_STREAM)) return BLOBC_OK;
    st = open_stream(y, true);
    if (st) return skip_node(y, &(yev){.type = YE_MAP}, st);
    return BLOBC_OK;
}

/* A value event (not an alias) for slot s. */
static blobc_status dispatch(ys *y, const yev *ev, bk_slot s) {
    bk *k = y->k;
    blobc_status st;
    bk_scalar v;
    memset(&v, 0, sizeof v);
    if (ev->type == YE_SCALAR) {
        v.s = ev->s;
        v.n = ev->n;
        v.tok = ev->quoted || (ev->tag && strcmp(ev->tag, YAML_STR_TAG) == 0) ? BK_TOK_QUOTED
                                                                              : BK_TOK_PLAIN;
    }
    bool null = ev->type == YE_SCALAR && bk_is_null(&v);
    if (ev->type == YE_MAP && (st = bk_open_union_gone(k, s.type, &ev->pos)))
        return skip_node(y, ev, st);
    for (;;) {
        if (ev->anchor) {
            uint32_t len;
            const share_rec *sh = share_find(y, ev->anchor, s.type, &len);
            if (sh) {
                /* Only a replay meets a finished anchor: skip its events. */
                if (!y->nrp) return bk_fail(k, BLOBC_EINPUT, &ev->pos, BK_AT_VALUE, NULL, 0,
                                            "internal error: share outside a replay");
                y->rp[y->nrp - 1].cur = y->anchors[ev->anchor].end;
                return bk_link_shared(k, &s, sh->ref, len, &ev->pos);
            }
        }
        if (s.type->kind != BLOBC_KIND_PTR || s.type->ref || null) break;
        const blobc_type *pt = s.type;
        blobc_ref target;
        if ((st = bk_deref(k, &s, &ev->pos, &target))) return st;
        if (ev->anchor && !ev->replayed && (st = share_add(y, ev->anchor, pt, target, 0)))
            return st;
    }
    switch (ev->type) {
    case YE_MAP: {
        /* A look ahead for a tag (bk_push_struct) moves the parser on,
         * which frees this event's strings: keep the anchor's name. */
        yev m = *ev;
        if (m.anchor_name &&
            !(m.anchor_name = blobc_arena_strndup(&k->arena, m.anchor_name, strlen(m.anchor_name))))
            return blobc_err_nomem(k->err);
        if ((st = bk_push_struct(k, &s, &ev->pos))) return skip_node(y, ev, st);
        bk_top(k)->state = ST_KEY;
        return m.anchor_name ? anchor_fields(y, &m) : BLOBC_OK;
    }
    case YE_SEQ:
        if ((st = bk_push_seq(k, &s, UINT32_MAX, &ev->pos))) return skip_node(y, ev, st);
        bk_top(k)->anchor = ev->replayed ? 0 : ev->anchor;
        return BLOBC_OK;
    default: {
        blobc_ref payload = 0;
        bool is_string = s.type->kind == BLOBC_KIND_STRING;
        if ((st = bk_store(k, &s, &v, &ev->pos, &payload))) return skip_node(y, ev, st);
        if (is_string && ev->anchor && !ev->replayed)
            return share_add(y, ev->anchor, s.type, payload, (uint32_t)(ev->n + 1));
        return BLOBC_OK;
    }
    }
}

static blobc_status on_key(ys *y, const yev *ev) {
    bk *k = y->k;
    const char *s;
    size_t n;
    bool quoted;
    blobc_status st = scalar_text(y, ev, "a mapping key", &s, &n, &quoted);
    if (st) return st;
    bk_frame *f = bk_top(k);
    if (!quoted && n == 2 && s[0] == '<' && s[1] == '<') {
        if (f->kind != BK_STRUCT)
            return skip_value(y, bk_soft(k, bk_fail(k, BLOBC_EINPUT, &ev->pos, BK_AT_CONTAINER,
                NULL, 0, "a merge key (<<) merges into a struct's mapping, not a union's")));
        f->state = (uint8_t)(ST_MERGE | (f->state & ST_MERGING));
        return BLOBC_OK;
    }
    /* a key merged in yields to one set before it (skip_next is false here) */
    if ((f->state & ST_MERGING) && bk_field_seen(k, s, n)) y->skip_next = true;
    if (y->skip_next) return BLOBC_OK;
    /* an item's tags were read ahead from its own keys, and only those */
    if ((f->state & ST_MERGING) && n == 5 && memcmp(s, "$tags", 5) == 0)
        return skip_value(y, bk_soft(k, bk_fail(k, BLOBC_EINPUT, &ev->pos, BK_AT_CONTAINER, s, n,
            "an item's $tags are its own: a merge key (<<) does not bring them (write $tags in "
            "the item itself)")));
    if (k->depth == 1 && ((n == 7 && memcmp(s, "$schema", 7) == 0) ||
                          (n == 5 && memcmp(s, "$type", 5) == 0)))
        return skip_value(y, bk_soft(k, bk_fail(k, BLOBC_EINPUT, &ev->pos, BK_AT_CONTAINER, s, n,
                                                "\"%.*s\" must come before the first data key",
                                                (int)n, s)));
    bk_slot slot;
    if ((st = bk_key(k, s, n, &ev->pos, &slot))) return skip_value(y, st);
    f->state = (uint8_t)(ST_VALUE | (f->state & ST_MERGING));
    return BLOBC_OK;
}

/* The value of a merge key: an alias of a mapping, or a sequence of them. */
static blobc_status on_merge(ys *y, const yev *ev) {
    bk *k = y->k;
    bk_frame *f = bk_top(k);
    uint8_t merging = f->state & ST_MERGING;
    bool in_seq = (f->state & ST_PART) == ST_MERGE_SEQ;
    bool seq = ev->type == YE_SEQ && !in_seq, end = ev->type == YE_SEQ_END && in_seq;
    if (seq || end || !in_seq) f->state = (uint8_t)((seq ? ST_MERGE_SEQ : ST_KEY) | merging);
    if (seq || end) return BLOBC_OK;
    const anchor_rec *a = ev->type == YE_ALIAS ? &y->anchors[ev->alias] : NULL;
    if (!a || y->log[a->start].type != YE_MAP)
        return skip_node(y, ev, bk_soft(k, bk_fail(k, BLOBC_EINPUT, &ev->pos, BK_AT_CONTAINER,
            NULL, 0, "a merge key (<<) takes an alias of a mapping (<<: *base) or a sequence of "
            "them (<<: [*a, *b]), got %s", a ? "an alias of a non-mapping" : node_word(ev))));
    if (!reserve((void **)&y->merges, &y->merges_cap, y->nmerges, sizeof *y->merges))
        return blobc_err_nomem(k->err);
    y->merges[y->nmerges++] = (merge_rec){k->depth, ev->alias, ev->pos};
    return BLOBC_OK;
}

static blobc_status on_value(ys *y, const yev *ev) {
    bk *k = y->k;
    if (ev->type == YE_ALIAS) return start_replay(y, ev); /* its first event takes the slot */
    bk_frame *f = bk_top(k);
    bk_slot slot;
    yev kept;
    if (bk_is_map(f)) {
        slot = f->value;
        f->state = (uint8_t)(ST_KEY | (f->state & ST_MERGING));
    } else if (ev->type == YE_MAP && k->schema_tags) {
        /* The look ahead for the item's tags moves the parser on, which
         * frees this event's strings: keep its tag and anchor's name. */
        kept = *ev;
        if ((kept.tag && !(kept.tag = blobc_arena_strndup(&k->arena, kept.tag, strlen(kept.tag)))) ||
            (kept.anchor_name &&
             !(kept.anchor_name = blobc_arena_strndup(&k->arena, kept.anchor_name, strlen(kept.anchor_name)))))
            return blobc_err_nomem(k->err);
        ev = &kept;
        blobc_status st = bk_item_map(k, &ev->pos, &slot);
        if (st) return skip_node(y, ev, st);
    } else {
        blobc_status st = bk_item(k, &ev->pos, &slot);
        if (st) return skip_node(y, ev, st);
    }
    /* Tags are read, not obeyed: the schema decides each value's type,
     * except where a union is tagged by them. */
    k->node_tag = ev->tag;
    k->node_tag_len = ev->tag ? strlen(ev->tag) : 0;
    blobc_status st = dispatch(y, ev, slot);
    k->node_tag = NULL;
    return st;
}

static bool is_meta(const char *s, size_t n, int *which) {
    if (n == 7 && memcmp(s, "$schema", 7) == 0) {
        *which = PK_SCHEMA;
        return true;
    }
    if (n == 5 && memcmp(s, "$type", 5) == 0) {
        *which = PK_TYPE;
        return true;
    }
    return false;
}

/* The top-level mapping before the first data key: only $schema and
 * $type, which decide the root type, may appear. */
static blobc_status on_pending(ys *y, const yev *ev) {
    bk *k = y->k;
    blobc_status st;
    const char *s;
    size_t n;
    bool quoted;
    if (y->pstate == PK_KEY) {
        if (ev->type == YE_MAP_END) {
            if ((st = bk_resolve_root(k, &y->root_pos))) return st;
            y->phase = P_BODY;
            if (!(k->root->flags & BLOBC_STRUCT_STREAM)) return end_container(y, ev);
            y->phase = P_DOCEND; /* a document of meta keys alone */
            return open_stream(y, false);
        }
        if ((st = scalar_text(y, ev, "a mapping key", &s, &n, &quoted))) return st;
        int which;
        if (!is_meta(s, n, &which)) {
            if ((st = bk_resolve_root(k, &y->root_pos))) return st;
            y->phase = P_BODY;
            return on_key(y, ev);
        }
        if ((which == PK_SCHEMA && k->meta_schema) || (which == PK_TYPE && k->meta_type))
            return bk_fail(k, BLOBC_EINPUT, &ev->pos, BK_AT_VALUE, s, n,
                           "duplicate key \"%.*s\"", (int)n, s);
        y->pstate = which;
        return BLOBC_OK;
    }
    const char *what = y->pstate == PK_SCHEMA ? "\"$schema\"" : "\"$type\"";
    const char *key = y->pstate == PK_SCHEMA ? "$schema" : "$type";
    if (ev->type != YE_SCALAR && ev->type != YE_ALIAS)
        return bk_fail(k, BLOBC_EINPUT, &ev->pos, BK_AT_VALUE, key, strlen(key),
                       "%s must be a string (%s), got %s", what,
                       y->pstate == PK_SCHEMA ? "the schema file's path" : "the root type's name",
                       node_word(ev));
    if ((st = scalar_text(y, ev, what, &s, &n, &quoted))) return st;
    if (memchr(s, 0, n))
        return bk_fail(k, BLOBC_EINPUT, &ev->pos, BK_AT_VALUE, key, strlen(key),
                       "%s cannot contain a NUL character", what);
    char *copy = blobc_arena_strndup(&k->arena, s, n);
    if (!copy) return blobc_err_nomem(k->err);
    if (y->pstate == PK_SCHEMA) {
        k->meta_schema = copy;
        k->meta_schema_pos = ev->pos;
    } else {
        k->meta_type = copy;
        k->meta_type_pos = ev->pos;
    }
    y->pstate = PK_KEY;
    return BLOBC_OK;
}

static blobc_status process(ys *y, const yev *ev) {
    bk *k = y->k;
    switch (y->phase) {
    case P_ROOTNODE:
        if (ev->type == YE_MAP) {
            y->root_tag = ev->tag ? blobc_arena_strndup(&k->arena, ev->tag, strlen(ev->tag)) : NULL;
            y->root_anchor = ev->anchor_name ? blobc_arena_strndup(&k->arena, ev->anchor_name,
                                                                   strlen(ev->anchor_name))
                                             : NULL;
            y->root_pos = ev->pos;
            y->phase = P_PENDING;
            y->pstate = PK_KEY;
            return stream_start(y);
        }
        if (ev->type == YE_SCALAR && !ev->quoted && ev->n == 0)
            return bk_fail(k, BLOBC_EINPUT, &ev->pos, BK_AT_VALUE, NULL, 0,
                           "the document is empty: expected a mapping holding the root "
                           "struct's fields");
        return bk_fail(k, BLOBC_EINPUT, &ev->pos, BK_AT_VALUE, NULL, 0,
                       "the top level must be a mapping holding the root struct's fields, got %s",
                       node_word(ev));
    case P_PENDING: return on_pending(y, ev);
    case P_BODY: {
        if (y->skip || y->skip_next) return skip_event(y, ev);
        bk_frame *f = bk_top(k);
        if (bk_is_map(f) && (f->state & ST_PART) >= ST_MERGE) return on_merge(y, ev);
        if (ev->type == YE_MAP_END || ev->type == YE_SEQ_END) return end_container(y, ev);
        if (bk_is_map(f) && (f->state & ST_PART) == ST_KEY) return on_key(y, ev);
        return on_value(y, ev);
    }
    default:
        return bk_fail(k, BLOBC_EINPUT, &ev->pos, BK_AT_VALUE, NULL, 0,
                       "internal error: unexpected YAML event");
    }
}

/* ---- event sources ---- */

static blobc_status replay_next(ys *y, yev *ev, bool *got) {
    replay *r = &y->rp[y->nrp - 1];
    *got = false;
    if (r->cur >= r->end) {
        if (--y->nrp == 0) y->k->note = NULL;
        return BLOBC_OK;
    }
    const logev *l = &y->log[r->cur++];
    if (++y->replayed > REPLAY_FACTOR * y->parsed + REPLAY_FLOOR)
        return bk_fail(y->k, BLOBC_EINPUT, &y->alias_pos, BK_AT_VALUE, NULL, 0,
                       "aliases expand to more than %llu events (%u times the document's own "
                       "events, plus %u): refusing to expand further",
                       (unsigned long long)(REPLAY_FACTOR * y->parsed + REPLAY_FLOOR),
                       REPLAY_FACTOR, REPLAY_FLOOR);
    memset(ev, 0, sizeof *ev);
    ev->type = l->type;
    ev->quoted = l->quoted;
    ev->replayed = true;
    ev->anchor = l->anchor;
    ev->alias = l->alias;
    ev->s = y->logtext.data ? (const char *)y->logtext.data + l->text : "";
    ev->n = l->n;
    ev->pos = y->alias_pos;
    *got = true;
    return BLOBC_OK;
}

/* A node event from the parser: define its anchor, record it while inside
 * an anchored node, then consume it. */
static blobc_status on_parsed_node(ys *y, const ypipe_event *e) {
    bk *k = y->k;
    yev ev;
    memset(&ev, 0, sizeof ev);
    ev.pos = mark_pos(&e->mark);
    const char *anchor = NULL;
    switch (e->type) {
    case YAML_SCALAR_EVENT:
        ev.type = YE_SCALAR;
        ev.s = e->value;
        ev.n = e->length;
        ev.quoted = !e->plain;
        ev.tag = e->tag;
        anchor = e->anchor;
        break;
    case YAML_SEQUENCE_START_EVENT:
        ev.type = YE_SEQ;
        ev.tag = e->tag;
        anchor = e->anchor;
        break;
    case YAML_MAPPING_START_EVENT:
        ev.type = YE_MAP;
        ev.tag = e->tag;
        anchor = e->anchor;
        break;
    case YAML_SEQUENCE_END_EVENT: ev.type = YE_SEQ_END; break;
    case YAML_MAPPING_END_EVENT: ev.type = YE_MAP_END; break;
    case YAML_ALIAS_EVENT: {
        ev.type = YE_ALIAS;
        const char *name = e->anchor;
        ev.alias = anchor_lookup(y, name);
        char q[120];
        bk_quote(q, sizeof q, name, strlen(name));
        if (!ev.alias)
            return bk_fail(k, BLOBC_EINPUT, &ev.pos, BK_AT_VALUE, NULL, 0,
                           "alias *%s refers to no anchor (an anchor &%s must come before it)",
                           name, name);
        if (!y->anchors[ev.alias].complete)
            return bk_fail(k, BLOBC_EINPUT, &ev.pos, BK_AT_VALUE, NULL, 0,
                           "alias *%s is inside the node anchored as &%s (a recursive alias)",
                           name, name);
        break;
    }
    default: return BLOBC_OK;
    }

    bool start = ev.type == YE_MAP || ev.type == YE_SEQ;
    blobc_status st;
    if (start) {
        if (y->pdepth >= BK_MAX_DEPTH)
            return bk_fail(k, BLOBC_EINPUT, &ev.pos, BK_AT_VALUE, NULL, 0,
                           "nesting is deeper than %u levels", (unsigned)BK_MAX_DEPTH);
        y->pdepth++;
    }
    if (anchor) {
        uint32_t id = 0;
        if ((st = anchor_define(y, anchor, &ev.pos, &id))) return st;
        /* The document's root can never be aliased (only from inside
         * itself): keep it out of the log. */
        ev.anchor_name = anchor;
        if (y->phase != P_ROOTNODE && !y->doc_root) {
            ev.anchor = id;
            if (start) {
                if (!reserve((void **)&y->rec, &y->rec_cap, y->nrec, sizeof *y->rec))
                    return blobc_err_nomem(k->err);
                y->rec[y->nrec++] = (rec_entry){id, y->pdepth};
            }
        }
    }
    y->doc_root = false;
    if (y->nrec > 0 || (ev.type == YE_SCALAR && ev.anchor)) {
        if ((st = log_event(y, &ev))) return st;
    }
    if (ev.type == YE_SCALAR && ev.anchor) {
        y->anchors[ev.anchor].end = y->nlog;
        y->anchors[ev.anchor].complete = true;
    }
    if (ev.type == YE_MAP_END || ev.type == YE_SEQ_END) {
        if (y->nrec > 0 && y->rec[y->nrec - 1].depth == y->pdepth) {
            anchor_rec *a = &y->anchors[y->rec[--y->nrec].id];
            a->end = y->nlog;
            a->complete = true;
        }
        y->pdepth--;
    }
    return process(y, &ev);
}

static blobc_status syntax_error_at(ys *y, const yaml_parser_t *p);

/* A syntax error is about the text, not a value: no path. */
static blobc_status syntax_error(ys *y, const yaml_parser_t *p) {
    y->k->muted = false; /* reported, whatever came before */
    blobc_status st = syntax_error_at(y, p);
    y->k->syntax = true;
    if (y->k->err) y->k->err->path[0] = '\0';
    return st;
}

static blobc_status syntax_error_at(ys *y, const yaml_parser_t *p) {
    bk *k = y->k;
    k->note = NULL;
    if (p->error == YAML_MEMORY_ERROR) return blobc_err_nomem(k->err);
    const char *problem = p->problem ? p->problem : "unknown problem";
    if (p->error == YAML_READER_ERROR) {
        bk_pos pos = {0, 0, 0};
        size_t len;
        const char *t = source_text(y, &len);
        if (t) {
            size_t off = p->problem_offset < len ? p->problem_offset : len;
            uint32_t line = 1;
            size_t start = 0;
            for (size_t i = 0; i < off; i++)
                if (t[i] == '\n') {
                    line++;
                    start = i + 1;
                }
            uint32_t col = 1;
            for (size_t i = start; i < off; i++)
                if (((unsigned char)t[i] & 0xC0) != 0x80) col++;
            pos.line = line;
            pos.col = col;
        }
        if (p->problem_value != -1)
            return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0,
                           "invalid YAML: %s (byte 0x%02x)", problem,
                           (unsigned)p->problem_value & 0xffu);
        return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0, "invalid YAML: %s", problem);
    }
    bk_pos pos = mark_pos(&p->problem_mark);
    if (p->context) {
        bk_pos cpos = mark_pos(&p->context_mark);
        char at[BLOBC_PLACE_BUF];
        blobc_place(at, sizeof at, k->filename, cpos.line, cpos.col);
        return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0, "invalid YAML: %s (%s at %s)",
                       problem, p->context, at);
    }
    return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0, "invalid YAML: %s", problem);
}

static blobc_status flow_too_deep(ys *y, const ypipe *q) {
    unsigned depth;
    yaml_mark_t m = ypipe_deep_mark(q, &depth);
    bk_pos pos = mark_pos(&m);
    y->k->note = NULL;
    y->k->muted = false;
    y->k->syntax = true;
    blobc_status st = bk_fail(y->k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0,
                              "too much inside flow collections ([...], {...}) nested deeper "
                              "than %u levels (%u here): write the outer levels in block style",
                              YPIPE_FLOW_FREE, depth);
    if (y->k->err) y->k->err->path[0] = '\0';
    return st;
}

/* A syntax error anywhere goes first: after an error that ended the run,
 * the rest of the text is parsed (its events dropped) for one. */
static blobc_status syntax_after(ys *y, yaml_parser_t *p, ypipe *q, blobc_status st) {
    for (;;) {
        const ypipe_event *e;
        int got = ya_next_event(y, &e);
        if (got == YPIPE_EVENT) continue;
        if (got == YPIPE_ERROR) return syntax_error(y, p);
        if (got == YPIPE_DEEP) return flow_too_deep(y, q);
        return st;
    }
}

static blobc_status run(ys *y, yaml_parser_t *p, ypipe *q) {
    bk *k = y->k;
    blobc_status st;
    for (;;) {
        if (y->nrp) {
            yev ev;
            bool got;
            if ((st = replay_next(y, &ev, &got))) return st;
            if (got && (st = process(y, &ev))) return st;
            continue;
        }
        if (y->phase == P_DONE) return BLOBC_OK;
        const ypipe_event *e;
        int got = ya_next_event(y, &e);
        if (got == YPIPE_NOMEM) return blobc_err_nomem(k->err);
        if (got == YPIPE_ERROR) return syntax_error(y, p);
        if (got == YPIPE_DEEP) return flow_too_deep(y, q);
        if (got == YPIPE_END) return BLOBC_OK; /* after a stream end: never here */
        y->parsed++;
        st = BLOBC_OK;
        bk_pos pos;
        switch (e->type) {
        case YAML_STREAM_START_EVENT: y->phase = P_DOC; break;
        case YAML_STREAM_END_EVENT:
            pos = mark_pos(&e->mark);
            if (y->stream && k->depth == 2) {
                st = bk_pop_seq(k, &pos, NULL, NULL);
                if (!st) st = bk_pop_struct(k);
            }
            if (y->phase == P_DOC)
                st = bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0,
                             "no data: expected a mapping holding the root struct's fields");
            y->phase = P_DONE;
            break;
        case YAML_DOCUMENT_START_EVENT:
            pos = mark_pos(&e->mark);
            if (y->phase == P_END && y->stream) {
                y->phase = P_BODY; /* its root node is the next item */
                y->doc_root = true;
                break;
            }
            if (y->phase == P_END)
                st = bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0,
                             "a second YAML document: a data file holds one document (a "
                             "@stream root takes many)");
            y->phase = P_ROOTNODE;
            break;
        case YAML_DOCUMENT_END_EVENT: y->phase = P_END; break;
        case YAML_NO_EVENT: y->phase = P_DONE; break;
        default: st = on_parsed_node(y, e); break;
        }
        if (st) return st;
    }
}

blobc_status bk_bake_yaml(bk *k, const char *text, size_t len, bk_read_fn *read, void *data,
                          size_t size) {
    ys y;
    memset(&y, 0, sizeof y);
    y.k = k;
    y.text = text;
    y.len = len;
    k->json = false;
    k->fe = &y;
    k->locate = yaml_locate;

    yaml_parser_t p;
    /* log entry 0: the end of a mapping, replayed after merged keys */
    yev end_ev = {.type = YE_MAP_END};
    blobc_status st = log_event(&y, &end_ev);
    if (!st && !yaml_parser_initialize(&p)) {
        st = blobc_err_nomem(k->err);
    } else if (!st) {
        if (text) yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
        else yaml_parser_set_input(&p, read, data);
        /* A second thread pays for itself from about a megabyte on. */
        bool threaded = !k->opts->one_thread && (text ? len : size) >= BK_YAML_THREAD_MIN;
        ypipe *q = ypipe_start(&p, threaded);
        y.q = q;
        k->find_tag = ya_find_tag;
        k->find_list = ya_find_list;
        st = q ? run(&y, &p, q) : blobc_err_nomem(k->err);
        if (bk_input_failed(k, st) && !k->syntax) st = syntax_after(&y, &p, q, st);
        ypipe_stop(q);
        yaml_parser_delete(&p);
    }
    if (st) k->depth = 0;
    k->note = NULL;
    k->fe = NULL;
    k->locate = NULL;
    k->find_tag = NULL;
    k->find_list = NULL;
    free(y.ahead);
    blobc_buffer_free(&y.aheadtext);
    free(y.filetext);
    free(y.anchors);
    blobc_hashtab_free(&y.amap);
    free(y.shares);
    free(y.log);
    blobc_buffer_free(&y.logtext);
    free(y.rec);
    free(y.rp);
    free(y.merges);
    return st;
}
