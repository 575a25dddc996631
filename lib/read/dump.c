/*
 * dump.c - blobc_dump: a verified blob back to YAML (re-bakeable) or JSON,
 * and the entry to the layout map (dump_map.c), the size report (size.c)
 * and the HTML page (html.c).
 *
 * The data is walked by verify first (walk_driver.c), so everything read here is
 * known to be in bounds and canonical, and the walker's payload table says
 * which payloads are shared. The text is written in field order, which is
 * address order and so the walker's order: the n-th new payload met here is
 * table entry n, and a reference to an earlier start is a shared payload —
 * a YAML alias of the anchor put on its first occurrence, or in JSON (which
 * cannot share) a copy, within a budget so that a DAG built to explode
 * cannot make the output explode.
 *
 * Nesting is an explicit stack of open mappings and sequences; past
 * BLOCK_DEPTH levels collections switch to flow style ({...}, [...]) so a
 * million-deep chain costs linear output, not quadratic indentation.
 *
 * Given a writer (blobc_dump_options.write), the text goes to it in
 * pieces of PIECE bytes: the buffer keeps that capacity, and the one check
 * that it has room, which every append makes anyway, is where a full piece
 * is handed over, so streaming costs the appends nothing. A dump can
 * still fail part way (copies over budget, nesting too deep); when the
 * blob could make it (a shared payload, types that may nest deeply) a
 * first run writes nothing and only looks for the failure, so the writer
 * never receives a text that is then refused.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "blobc/bake.h"
#include "blobc/dump.h"
#include "common/fmt_float.h"
#include "common/kind.h"
#include "read/dump_emit.h"
#include "read/dump_map.h"
#include "read/listing.h"

/* ---- values ---- */

static inline bool push(demit *e, dframe f) {
    if (e->nfr == e->frcap && !blobc_grow((void **)&e->fr, &e->frcap, e->nfr + 1, sizeof *e->fr)) {
        e->oom = true;
        return false;
    }
    e->fr[e->nfr++] = f;
    return true;
}

/* Where a value goes: after "key:" / "-" in a block parent (YAML), in a
 * flow parent, or anywhere in JSON. */
typedef struct vctx {
    bool flow;      /* the parent is flow style */
    bool in_seq;    /* the parent is a sequence */
    uint32_t ind;   /* the parent's entry indentation */
} vctx;

/* Text before and after a value written on the spot (not a frame). */
static inline void inline_open(demit *e, const vctx *c, uint32_t anchor) {
    if (!e->json && !c->flow) putc1(e, ' ');
    if (anchor) {
        put_anchor(e, '&', anchor);
        putc1(e, ' ');
    }
}
static inline void inline_close(demit *e, const vctx *c) {
    if (!e->json && !c->flow) putc1(e, '\n');
}

/* Opens a mapping (struct) or sequence as the value in context c; the
 * frame ends `copies` copies when it closes. */
/* Whether one more level of nesting (a mapping or a sequence, as the
 * bake counts them: frames, and a flow sequence of scalars) stays within
 * what the bake of this format reads; the dump stops otherwise. */
static bool level_ok(demit *e) {
    if (e->nfr + 1 > e->max_nesting) e->too_deep = true;
    return !e->too_deep;
}

/* What a collection's frame is beyond its items: a map's entries, a
 * union member's tag (by field: the tag entry first; by tag: the YAML tag
 * on the node). */
typedef struct cextra {
    uint8_t map;
    const blobc_type *tagu;
    const blobc_field *tagm;
    const char *ytag;
} cextra;

/* A YAML tag as the schema spells it. A named handle (Unity's `!u!1`)
 * needs a %TAG directive this document does not have, and a full URI
 * cannot be written short: both go verbatim (`!<!u!1>`), which a reader
 * resolves to the same tag. */
static void put_ytag(demit *e, const char *tag) {
    size_t n = strlen(tag);
    size_t from = n > 1 && tag[1] == '!' ? 2 : 1;
    bool shorthand = tag[0] == '!' && n > from && !memchr(tag + from, '!', n - from);
    if (!shorthand) PUTS(e, "!<");
    put(e, tag, n);
    if (!shorthand) putc1(e, '>');
}

static void open_coll_x(demit *e, const vctx *c, bool seq, const blobc_type *type, size_t base,
                        uint32_t n, uint32_t esize, uint32_t anchor, uint8_t copies,
                        const cextra *x) {
    if (!level_ok(e)) return;
    dframe f = {type, base, n, 0, esize, c->ind + 2, (uint8_t)seq, 0, 0, copies, 0, 0, 0, NULL, NULL};
    f.flow = c->flow || e->nfr >= BLOCK_DEPTH;
    const char *ytag = NULL;
    if (x) {
        f.map = x->map;
        f.tagu = x->tagu;
        f.tagm = x->tagm;
        if (f.tagm) f.n++;
        ytag = x->ytag;
    }
    if (e->json) {
        putc1(e, seq ? '[' : '{');
    } else if (f.flow) {
        inline_open(e, c, anchor);
        if (ytag) {
            put_ytag(e, ytag);
            putc1(e, ' ');
        }
        putc1(e, seq ? '[' : '{');
    } else {
        if (anchor) {
            putc1(e, ' ');
            put_anchor(e, '&', anchor);
        }
        if (ytag) {
            putc1(e, ' ');
            put_ytag(e, ytag);
        }
        if (c->in_seq && !anchor && !ytag) {
            /* "- key: v" / "- - v": the first entry stays on the dash's line */
            putc1(e, ' ');
            f.first_inline = 1;
        } else {
            putc1(e, '\n');
        }
    }
    push(e, f);
}

static void open_coll(demit *e, const vctx *c, bool seq, const blobc_type *type, size_t base,
                      uint32_t n, uint32_t esize, uint32_t anchor, uint8_t copies) {
    open_coll_x(e, c, seq, type, base, n, esize, anchor, copies, NULL);
}

/* Items of scalar type (or strings) as one flow sequence "[a, b, c]". */
static void put_inline_seq(demit *e, const blobc_type *et, size_t base, uint32_t n);

static bool inline_items(const blobc_type *et) {
    return scalar_like(et) || et->kind == BLOBC_KIND_STRING;
}

/* Writes the value of type t at data offset p in context c: at once, or
 * by pushing a frame for a collection. A *T continues with its target,
 * whose node carries the pointer's anchor when the target has none of
 * its own (one node has one anchor; a doubly shared **T keeps one). */
/* A reference &T at p, as the data writes it: its target's key (the walk
 * checked that it lands on an item of a keyed [T]), or null. */
static void put_ref(demit *e, const blobc_type *t, size_t p) {
    int32_t off = (int32_t)blobc_ld32(e->d + p);
    if (off == 0) {
        PUTS(e, "null");
        return;
    }
    const blobc_field *kf = &t->elem->fields[t->elem->key - 1];
    size_t q = (size_t)((int64_t)p + off) + kf->offset;
    if (kf->type->kind == BLOBC_KIND_STRING) {
        int32_t so = (int32_t)blobc_ld32(e->d + q);
        put_string(e, e->d + (size_t)((int64_t)q + so), blobc_ld32(e->d + q + 4) - 1);
        return;
    }
    put_scalar(e, kf->type, e->d + q);
}

/* A string field whose payload comes next in the table and is not
 * shared (most of them): written with no anchor or copy to decide. */
static inline bool plain_string(demit *e, const vctx *c, size_t p) {
    int32_t off = (int32_t)blobc_ld32(e->d + p);
    size_t tg = p + (size_t)(int64_t)off;
    blobc_walk *w = e->w;
    if (off == 0 || e->next >= w->ntab || w->tstart[e->next] != tg ||
        (blobc_walk_flags(w, e->next) & BLOBC_WP_SHARED))
        return false;
    e->next++;
    inline_open(e, c, 0);
    put_string(e, e->d + tg, blobc_ld32(e->d + p + 4) - 1);
    inline_close(e, c);
    return true;
}

/* An any's null, bool or number (its body at b): a float always reads
 * as one (blobc_format_float writes "3.0", not "3"), so each bakes back
 * to its own kind. */
static void put_any_scalar(demit *e, uint32_t kind, const uint8_t *b) {
    char *o = room(e, NUMBER_TEXT);
    if (!o) return;
    switch (kind) {
    case BLOBC_ANY_NULL:
        memcpy(o, "null", 4);
        o += 4;
        break;
    case BLOBC_ANY_BOOL: o = number_text(o, BLOBC_KIND_BOOL, b, e->json); break;
    case BLOBC_ANY_INT: o = number_text(o, BLOBC_KIND_I64, b, e->json); break;
    case BLOBC_ANY_UINT: o = number_text(o, BLOBC_KIND_U64, b, e->json); break;
    default: o = number_text(o, BLOBC_KIND_F64, b, e->json); break;
    }
    done(e, o);
}

/* A map entry's key (its entry at p) and colon: a string's text (its
 * bytes are the next payload, or one met before), an integer as its
 * digits (quoted in JSON, whose keys are strings), an enum by name. */
static void put_map_key(demit *e, const blobc_type *entry, size_t p) {
    const blobc_type *kt = entry->fields[0].type;
    if (kt->kind == BLOBC_KIND_STRING) {
        size_t tg = 0, idx = 0;
        uint32_t cnt = 0;
        if (resolve(e, BLOBC_KIND_STRING, p, &tg, &cnt, &idx) != R_NULL)
            put_string(e, e->d + tg, cnt - 1);
    } else if (kt->kind == BLOBC_KIND_ENUM) {
        put_scalar(e, kt, e->d + p);
    } else {
        char *o = room(e, NUMBER_TEXT + 2);
        if (!o) return;
        if (e->json) *o++ = '"';
        o = number_text(o, kt->kind, e->d + p, false);
        if (e->json) *o++ = '"';
        done(e, o);
    }
    putc1(e, ':');
    if (e->json) putc1(e, ' ');
}

/* Whether s reads as a plain word in YAML: letters, digits, '_' and '-',
 * not first a digit or '-', and not a bool or null. */
static bool plain_word(const char *s) {
    size_t n = strlen(s);
    if (n == 0 || (s[0] >= '0' && s[0] <= '9') || s[0] == '-' || yaml_special(s, n)) return false;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_' || ch == '-'))
            return false;
    }
    return true;
}

/* The tag entry's value of a member of a union by field: its integer,
 * or its string (as a word where YAML reads it as one). */
static void put_tag_value(demit *e, const blobc_type *u, const blobc_field *m) {
    if (u->int_tags) {
        char *o = room(e, NUMBER_TEXT);
        if (o) done(e, i64_text(o, (int64_t)m->tag_value));
    } else if (!e->json && plain_word(m->tag)) {
        put(e, m->tag, strlen(m->tag));
    } else {
        put_string(e, (const uint8_t *)m->tag, strlen(m->tag));
    }
}

static void value(demit *e, const vctx *c, const blobc_type *t, size_t p) {
    size_t pend = SIZE_MAX; /* a shared *T target, anchored on the node */
    uint8_t copies = 0;
    if (t->kind == BLOBC_KIND_STRING && plain_string(e, c, p)) return;
    cextra x = {0, NULL, NULL, NULL};
    for (;;) {
        if (scalar_like(t)) {
            inline_open(e, c, take_anchor(e, pend));
            put_scalar(e, t, e->d + p);
            inline_close(e, c);
            break;
        }
        if (t->kind == BLOBC_KIND_STRUCT) {
            open_coll_x(e, c, false, t, p, t->nfields, 0, take_anchor(e, pend), copies, &x);
            return;
        }
        if (t->kind == BLOBC_KIND_OPTIONAL) {
            /* present: T's own text; absent (in a list or a map): null */
            if (e->d[p + blobc_optional_flag(t)]) {
                t = t->elem;
                continue;
            }
            inline_open(e, c, take_anchor(e, pend));
            PUTS(e, "null");
            inline_close(e, c);
            break;
        }
        if (t->kind == BLOBC_KIND_ANY) {
            uint32_t k = blobc_ld32(e->d + p);
            if (k < BLOBC_ANY_STRING) {
                inline_open(e, c, take_anchor(e, pend));
                put_any_scalar(e, k, e->d + p + BLOBC_ANY_BODY);
                inline_close(e, c);
                break;
            }
            t = k == BLOBC_ANY_STRING ? blobc_builtin_type(BLOBC_KIND_STRING)
                : k == BLOBC_ANY_LIST ? blobc_any_list_type()
                                      : blobc_any_map_type();
            p += BLOBC_ANY_BODY;
            continue;
        }
        if (t->kind == BLOBC_KIND_UNION) {
            /* {Member: payload}, or null for none (the walk checked the tag) */
            uint32_t tag = blobc_ld32(e->d + p);
            if (tag == 0) {
                inline_open(e, c, take_anchor(e, pend));
                PUTS(e, "null");
                inline_close(e, c);
                break;
            }
            const blobc_field *m = &t->fields[tag - 1];
            if (t->by == BLOBC_UNION_BY_FIELD || (t->by == BLOBC_UNION_BY_TAG && !e->json)) {
                /* the member's own mapping, its tag inside or on it */
                if (t->by == BLOBC_UNION_BY_FIELD) {
                    x.tagu = t;
                    x.tagm = m;
                } else {
                    x.ytag = m->tag;
                }
                t = m->type;
                p += BLOBC_UNION_REF;
                continue;
            }
            open_coll(e, c, false, t, p, 1, 0, take_anchor(e, pend), copies);
            return;
        }
        if (t->kind == BLOBC_KIND_FIXED) {
            if (inline_items(t->elem)) {
                inline_open(e, c, take_anchor(e, pend));
                put_inline_seq(e, t->elem, p, t->count);
                inline_close(e, c);
                break;
            }
            open_coll(e, c, true, t->elem, p, t->count, t->elem->size, take_anchor(e, pend), copies);
            return;
        }
        if (t->kind == BLOBC_KIND_PTR && t->ref) {
            inline_open(e, c, take_anchor(e, pend));
            put_ref(e, t, p);
            inline_close(e, c);
            break;
        }
        size_t tg = 0, idx = SIZE_MAX;
        uint32_t cnt = 0;
        int r = resolve(e, t->kind, p, &tg, &cnt, &idx);
        if (r == R_NULL) {
            inline_open(e, c, take_anchor(e, pend));
            if (t->kind == BLOBC_KIND_ARRAY) PUTS(e, "[]");
            else if (t->kind == BLOBC_KIND_MAP) PUTS(e, "{}");
            else PUTS(e, "null");
            inline_close(e, c);
            break;
        }
        if (r == R_ALIAS) {
            inline_open(e, c, 0);
            put_anchor(e, '*', (uint32_t)idx);
            inline_close(e, c);
            break;
        }
        if (r == R_COPY) {
            if (!budget_ok(e)) break;
            copy_begin(e);
            copies++;
            idx = SIZE_MAX;
        } else if (!(blobc_walk_flags(e->w, idx) & BLOBC_WP_SHARED)) {
            idx = SIZE_MAX;
        }
        if (idx == SIZE_MAX) idx = pend;
        if (t->kind == BLOBC_KIND_STRING) {
            inline_open(e, c, take_anchor(e, idx));
            put_string(e, e->d + tg, cnt - 1);
            inline_close(e, c);
            break;
        }
        if (t->kind == BLOBC_KIND_ARRAY) {
            const blobc_type *et = t->elem;
            if (inline_items(et)) {
                inline_open(e, c, take_anchor(e, idx));
                put_inline_seq(e, et, tg, cnt);
                inline_close(e, c);
                break;
            }
            open_coll(e, c, true, et, tg, cnt, et->size, take_anchor(e, idx), copies);
            return;
        }
        if (t->kind == BLOBC_KIND_MAP) {
            x.map = 1;
            open_coll_x(e, c, false, t->elem, tg, cnt, t->elem->size, take_anchor(e, idx), copies,
                        &x);
            return;
        }
        /* *T: the pointer's value is its target's */
        pend = idx;
        t = t->elem;
        p = tg;
    }
    while (copies--) copy_end(e);
}

static void put_inline_seq(demit *e, const blobc_type *et, size_t base, uint32_t n) {
    vctx flowc = {true, true, 0};
    if (!level_ok(e)) return;
    putc1(e, '[');
    uint32_t es = et->size;
    bool scalar = scalar_like(et), number = scalar && et->kind != BLOBC_KIND_ENUM;
    for (uint32_t i = 0; i < n && !e->oom; i++) {
        if (number) {
            /* the separator and the number in one write */
            char *o = room(e, 2 + NUMBER_TEXT);
            if (!o) break;
            memcpy(o, ", ", 2);
            o += i ? 2 : 0;
            done(e, number_text(o, et->kind, e->d + base + (size_t)i * es, e->json));
            continue;
        }
        if (i) PUTS(e, ", ");
        if (scalar) put_scalar(e, et, e->d + base + (size_t)i * es);
        else value(e, &flowc, et, base + (size_t)i * es);
    }
    putc1(e, ']');
}

/* ---- the document ---- */

/* A key and its colon (and in JSON the space after it). */
static void put_key(demit *e, const char *key) {
    const keytext *k = key_text(e, key);
    char *o = k ? room(e, KEY_TEXT) : NULL;
    if (o) {
        memcpy(o, k->text, KEY_TEXT);
        done(e, o + k->len);
        return;
    }
    put_name(e, key);
    putc1(e, ':');
    if (e->json) putc1(e, ' ');
}

/* A block JSON entry's start: the comma after the one before, the line
 * and its indentation, and the key, in one write. */
static void json_lead_in(demit *e, bool comma, uint32_t ind, const char *key) {
    char *o = room(e, (size_t)ind + 18);
    if (!o) return;
    *o = ',';
    o += comma;
    *o++ = '\n';
    done(e, spaces(o, ind));
    if (key) put_key(e, key);
}

/* A block JSON entry whose value is a bool or a number, all in one write
 * (the common case); false when it is something else, or its key too
 * long to keep. */
static bool json_number_entry(demit *e, bool comma, uint32_t ind, const char *key,
                              const blobc_type *t, size_t p) {
    if (!scalar_like(t) || t->kind == BLOBC_KIND_ENUM) return false;
    const keytext *k = key ? key_text(e, key) : NULL;
    if (key && !k) return false;
    char *o = room(e, (size_t)ind + 18 + KEY_TEXT + NUMBER_TEXT);
    if (!o) return true;
    *o = ',';
    o += comma;
    *o++ = '\n';
    o = spaces(o, ind);
    if (k) {
        memcpy(o, k->text, KEY_TEXT);
        o += k->len;
    }
    done(e, number_text(o, t->kind, e->d + p, true));
    return true;
}

static void run(demit *e) {
    while (e->nfr && !e->failed) {
        dframe *f = &e->fr[e->nfr - 1];
        if (f->i == f->n) {
            bool flow = f->flow, seq = f->seq, empty = f->out == 0;
            uint8_t copies = f->copies;
            uint32_t ind = f->ind;
            e->nfr--;
            if (empty && !seq && !flow && !e->json) {
                /* every field left out: an empty mapping, not a null */
                if (!f->first_inline) indent(e, ind);
                PUTS(e, "{}\n");
            }
            bool parent_flow = e->nfr && e->fr[e->nfr - 1].flow;
            if (e->json) {
                char *o = room(e, (size_t)ind + 16);
                if (!o) break;
                if (!flow) {
                    *o++ = '\n';
                    o = spaces(o, ind - 2);
                }
                *o++ = seq ? ']' : '}';
                done(e, o);
            } else if (flow) {
                putc1(e, seq ? ']' : '}');
                if (!parent_flow) putc1(e, '\n');
            }
            while (copies--) copy_end(e);
            continue;
        }
        uint32_t i = f->i++;
        const char *key = NULL;
        const blobc_type *t = NULL;
        size_t p = 0, kp = SIZE_MAX; /* kp: a map entry's key */
        bool tag_entry = false;
        if (f->seq) {
            t = f->type;
            p = f->base + (size_t)i * f->esize;
            if (f->docs) {
                /* "---", then the item as a document's top node */
                vctx dc = {false, false, (uint32_t)-2};
                PUTS(e, "---");
                e->doc_anchor = e->anchors;
                value(e, &dc, t, p);
                continue;
            }
        } else if (f->map) {
            const blobc_field *vf = &f->type->fields[1];
            kp = f->base + (size_t)i * f->esize;
            t = vf->type;
            p = kp + vf->offset;
        } else if (f->tagm && i == 0) {
            key = f->tagu->tag_field;
            tag_entry = true;
        } else {
            /* a union's one entry is the member its tag names (by tag, in
             * JSON, under the tag) */
            const blobc_field *fd = f->type->kind == BLOBC_KIND_UNION
                                        ? &f->type->fields[blobc_ld32(e->d + f->base) - 1]
                                        : &f->type->fields[i - (f->tagm != NULL)];
            key = f->type->kind == BLOBC_KIND_UNION && f->type->by == BLOBC_UNION_BY_TAG ? fd->tag
                                                                                      : fd->name;
            t = fd->type;
            p = f->base + fd->offset;
            /* an absent optional is left out, as bake leaves it */
            if (t->kind == BLOBC_KIND_OPTIONAL && !e->d[p + blobc_optional_flag(t)]) continue;
        }
        bool first = f->out++ == 0;
        if (e->json && !f->flow && !f->map && !tag_entry &&
            json_number_entry(e, !first, f->ind, key, t, p))
            continue;
        /* the entry's lead-in */
        if (f->flow) {
            if (!first) PUTS(e, ", ");
        } else if (e->json) {
            json_lead_in(e, !first, f->ind, key);
            key = NULL;
        } else if (!(first && f->first_inline)) {
            indent(e, f->ind);
        }
        if (kp != SIZE_MAX) {
            put_map_key(e, f->type, kp);
            if (!e->json && f->flow) putc1(e, ' ');
        } else if (key) {
            put_key(e, key);
            if (!e->json && f->flow) putc1(e, ' ');
        } else if (!e->json && !f->flow && !tag_entry) {
            putc1(e, '-');
        }
        vctx c = {f->flow != 0, f->seq != 0, f->ind};
        if (tag_entry) {
            inline_open(e, &c, 0);
            put_tag_value(e, f->tagu, f->tagm);
            inline_close(e, &c);
        } else if (scalar_like(t)) {
            /* no frame, and no anchor: only payloads carry one */
            inline_open(e, &c, 0);
            put_scalar(e, t, e->d + p);
            inline_close(e, &c);
        } else {
            value(e, &c, t, p);
        }
    }
}

/* One run over the data into e (set up by the caller); the status. */
static blobc_status emit_text(demit *ep, const blobc_source *src, blobc_walk *w,
                              const blobc_dump_options *o, blobc_error *err) {
    demit e = *ep;
    if (!blobc_buf_reserve(e.out, streams(&e) ? PIECE : 4096)) return blobc_err_nomem(err);
    load_cursor(&e);
    e.json = o->format == BLOBC_DUMP_JSON;
    e.d = src->data;
    e.w = w;
    e.next = 1; /* the root is entry 0 */
    /* copies of shared payloads may add this much to a JSON dump */
    e.copy_budget = 16 * (uint64_t)src->size + ((uint64_t)16 << 20);
    e.max_nesting = e.json ? BLOBC_JSON_MAX_NESTING : BLOBC_MAX_NESTING;
    const char *schema_name = o->schema_name ? o->schema_name : src->schema_name;
    if (!schema_name && o->schema && blobc_schema_filename(o->schema)[0])
        schema_name = blobc_schema_filename(o->schema);
    const char *tname = src->root->name ? src->root->name : "?";
    const blobc_type *rt = src->root;
    bool stream = (rt->flags & BLOBC_STRUCT_STREAM) && rt->nfields == 1 &&
                  rt->fields[0].type->kind == BLOBC_KIND_ARRAY;
    if (e.json && stream) {
        /* a @stream root is the array of its items: JSON has no stream */
        putc1(&e, '[');
    } else if (e.json) {
        PUTS(&e, "{\n  \"$type\": \"");
        put(&e, tname, strlen(tname));
        putc1(&e, '"');
        if (schema_name) {
            PUTS(&e, ",\n  \"$schema\": ");
            put_string(&e, (const uint8_t *)schema_name, strlen(schema_name));
        }
    } else {
        PUTS(&e, "$type: ");
        put(&e, tname, strlen(tname));
        putc1(&e, '\n');
        if (schema_name) {
            PUTS(&e, "$schema: ");
            put_string(&e, (const uint8_t *)schema_name, strlen(schema_name));
            putc1(&e, '\n');
        }
    }
    if (stream) {
        /* the meta keys are the stream's first document, each item one
         * after it (YAML); the items of the JSON array */
        const blobc_type *it = rt->fields[0].type->elem;
        size_t tg = 0, idx = 0;
        uint32_t cnt = 0;
        if (resolve(&e, BLOBC_KIND_ARRAY, rt->fields[0].offset, &tg, &cnt, &idx) == R_NEW) {
            dframe items = {.type = it, .base = tg, .n = cnt, .esize = it->size,
                            .ind = e.json ? 2 : 0, .seq = 1, .docs = !e.json, .out = 0};
            push(&e, items);
        } else if (e.json) {
            putc1(&e, ']');
        }
    } else {
        /* the root's fields continue the top-level mapping, after the
         * meta keys (so in JSON each entry follows a comma) */
        dframe root = {.type = rt, .n = rt->nfields, .ind = e.json ? 2 : 0, .out = 1};
        push(&e, root);
    }
    e.keys = calloc(KEY_SLOTS, sizeof *e.keys); /* none: each key is made as it goes */
    run(&e);
    if (e.json) putc1(&e, '\n');
    free(e.fr);
    free(e.anchor);
    free(e.keys);
    sync_len(&e);
    *ep = e;
    blobc_status st = BLOBC_OK;
    if (e.oom) st = blobc_err_nomem(err);
    else if (e.over_budget) {
        if (e.json)
            blobc_err(err, BLOBC_EINPUT,
                      "the blob shares payloads so heavily that writing them out as JSON copies "
                      "would exceed %" PRIu64 " bytes; JSON cannot share: dump it as YAML, which "
                      "keeps them shared",
                      e.copy_budget);
        else
            blobc_err(err, BLOBC_EINPUT,
                      "copies of shared payloads that YAML cannot name (pointers to pointers "
                      "whose two payloads are both shared) would exceed %" PRIu64 " bytes",
                      e.copy_budget);
        err->code = BLOBC_V_BUDGET;
        st = BLOBC_EINPUT;
    } else if (e.too_deep) {
        if (e.json)
            blobc_err(err, BLOBC_EINPUT,
                      "the data is nested deeper than the %u levels the JSON bake reads: dump it "
                      "as YAML, which bakes back up to %u levels",
                      BLOBC_JSON_MAX_NESTING, BLOBC_MAX_NESTING);
        else
            blobc_err(err, BLOBC_EINPUT,
                      "the data is nested deeper than the %u levels the bake reads, so no text "
                      "would bake back (only the builder API makes such a blob)",
                      BLOBC_MAX_NESTING);
        st = BLOBC_EINPUT;
    } else if (e.desync) {
        st = blobc_err(err, BLOBC_EINPUT, "internal error: the dump lost step with the verified layout");
    }
    return st;
}

/* How many levels a value of type t may open (as level_ok counts them),
 * or more than `cap` when it may open more than that, nests through
 * itself, or the types take too many steps to tell (*steps). */
static uint32_t type_levels(const blobc_type *t, uint32_t cap, uint32_t *steps) {
    if (cap == 0 || ++*steps > 4096) return cap + 1;
    switch (t->kind) {
    case BLOBC_KIND_STRUCT:
    case BLOBC_KIND_UNION: {
        uint32_t most = 0;
        for (uint32_t i = 0; i < t->nfields && most < cap; i++) {
            uint32_t l = type_levels(t->fields[i].type, cap - 1, steps);
            if (l > most) most = l;
        }
        return 1 + most;
    }
    case BLOBC_KIND_FIXED:
    case BLOBC_KIND_ARRAY:
        return 1 + (inline_items(t->elem) ? 0 : type_levels(t->elem, cap - 1, steps));
    case BLOBC_KIND_PTR: return t->ref ? 0 : type_levels(t->elem, cap, steps);
    case BLOBC_KIND_MAP: return 1 + type_levels(blobc_map_value(t), cap - 1, steps);
    case BLOBC_KIND_OPTIONAL: return type_levels(t->elem, cap, steps);
    /* lists and mappings up to BLOBC_MAX_ANY_DEPTH deep */
    case BLOBC_KIND_ANY: return BLOBC_MAX_ANY_DEPTH > cap ? cap + 1 : BLOBC_MAX_ANY_DEPTH;
    default: return 0;
    }
}

/* Whether the dump of this blob could fail part way: it copies or names
 * shared payloads, or its types may nest deeper than the format allows. */
static bool may_fail(const blobc_source *src, const blobc_walk *w, bool json) {
    for (size_t i = 0; i < w->ntab; i++)
        if (blobc_walk_flags(w, i) & BLOBC_WP_SHARED) return true;
    uint32_t steps = 0, cap = json ? BLOBC_JSON_MAX_NESTING : BLOBC_MAX_NESTING;
    return type_levels(src->root, cap < BLOCK_DEPTH ? cap : BLOCK_DEPTH, &steps) > BLOCK_DEPTH;
}

static blobc_status dump_text(const blobc_source *src, blobc_walk *w, const blobc_dump_options *o,
                              blobc_buffer *out, blobc_error *err) {
    demit e;
    memset(&e, 0, sizeof e);
    e.out = out;
    e.start = out->len;
    e.o = o;
    blobc_status st = BLOBC_OK;
    if (o->write && may_fail(src, w, o->format == BLOBC_DUMP_JSON)) {
        demit dry = e;
        dry.dry = true;
        st = emit_text(&dry, src, w, o, err);
        out->len = e.start;
    }
    if (st == BLOBC_OK) st = emit_text(&e, src, w, o, err);
    if (st == BLOBC_OK) hand_over(&e);
    else out->len = e.start;
    return st;
}

blobc_status blobc_dump(const void *bytes, size_t len, const blobc_dump_options *opts,
                        blobc_buffer *out, blobc_error *err) {
    static const blobc_dump_options none;
    if (!opts) opts = &none;
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!out) return blobc_err_arg(err, __func__, "out is NULL");
    if ((unsigned)opts->format > BLOBC_DUMP_HTML)
        return blobc_err_arg(err, __func__, "opts->format is not a blobc_dump_format");
    blobc_source src;
    blobc_source_format fmt = {opts->raw, opts->unity};
    blobc_status st = blobc_source_open(&src, bytes, len, fmt, opts->schema, opts->type_name,
                                        opts->flags, err);
    blobc_walk w;
    blobc_walk_init(&w);
    w.end_align = src.end_align;
    w.any_order = src.is_unity;
    if (st == BLOBC_OK) st = blobc_walk_run(&w, src.data, src.size, src.root, src.data_offset, err);
    if (opts->format == BLOBC_DUMP_MAP) {
        blobc_status ms = blobc_dump_map(&src, &w, st, bytes, len, opts, out, err);
        if (st == BLOBC_OK) st = ms;
    } else if (st == BLOBC_OK && opts->format == BLOBC_DUMP_HTML) {
        st = blobc_html_page(&src, &w, bytes, len, out, err);
    } else if (st == BLOBC_OK && opts->format >= BLOBC_DUMP_SIZE) {
        st = blobc_size_report(&src, &w, len, opts->size_depth,
                               opts->format == BLOBC_DUMP_SIZE_JSON, out, err);
    } else if (st == BLOBC_OK) {
        st = dump_text(&src, &w, opts, out, err);
    }
    blobc_walk_free(&w);
    blobc_source_close(&src);
    return st;
}
