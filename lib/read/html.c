/*
 * html.c - `blobc dump --html`: one self-contained page that shows a
 * verified blob as a coloured byte map with its structure, and the size
 * report as a treemap.
 *
 * A 20 MB blob has millions of fields, far too many to write out one by
 * one. The page carries compact data instead: the file's bytes (base64),
 * the types the data uses, the payload table (start, count, type, and
 * where its first reference is, from the layout listing), the header's
 * fields and the size report; its script (html_page.c) draws only the
 * rows in view, each a field broken down from its payload's type, its
 * value read from the bytes. Everything from the blob reaches the page as
 * JSON inside a script element, with <, > and & escaped, and the script
 * puts it in the document as text, never as markup.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/hashtab.h"
#include "common/quote.h"
#include "read/dump_map.h"
#include "read/listing.h"

typedef struct pager {
    blobc_buffer *out;
    bool ok;
    const blobc_walk *w;
    int64_t *ref;       /* per payload: data offset of its first reference, -1 none */
    blobc_ptrset types; /* the types the page describes, numbered */
} pager;

static void put(pager *g, const char *s) { blobc_emit_bytes(g->out, &g->ok, s, strlen(s)); }

/* A JSON string that cannot end the script element it is in. */
static void put_str(pager *g, const char *s, size_t n) {
    blobc_buffer q = {0};
    if (!blobc_buf_quoted(&q, (const uint8_t *)s, n, true)) g->ok = false;
    for (size_t i = 0; i < q.len && g->ok; i++) {
        char c = (char)q.data[i];
        if (c == '<') put(g, "\\u003c");
        else if (c == '>') put(g, "\\u003e");
        else if (c == '&') put(g, "\\u0026");
        else blobc_emit_bytes(g->out, &g->ok, &c, 1);
    }
    blobc_buffer_free(&q);
}

static void put_base64(pager *g, const uint8_t *p, size_t n) {
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char chunk[4 * 1024];
    size_t o = 0;
    for (size_t i = 0; i < n && g->ok; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        chunk[o++] = abc[v >> 18];
        chunk[o++] = abc[(v >> 12) & 63];
        chunk[o++] = i + 1 < n ? abc[(v >> 6) & 63] : '=';
        chunk[o++] = i + 2 < n ? abc[v & 63] : '=';
        if (o == sizeof chunk) {
            blobc_emit_bytes(g->out, &g->ok, chunk, o);
            o = 0;
        }
    }
    blobc_emit_bytes(g->out, &g->ok, chunk, o);
}

/* The number of type t in the page's table, added (with the types it
 * holds, which the loop in put_types reaches) on first sight. */
static long type_num(pager *g, const blobc_type *t) {
    if (!t) return -1;
    uint32_t num;
    if (blobc_ptrset_add(&g->types, t, &num) < 0) g->ok = false;
    return (long)num;
}

static void put_type(pager *g, const blobc_type *t) {
    char name[256];
    blobc_type_spell(t, name, sizeof name);
    put(g, "{\"n\":");
    put_str(g, name, strlen(name));
    blobc_emit(g->out, &g->ok, ",\"k\":%d,\"s\":%" PRIu32, (int)t->kind, t->size);
    if (t->kind == BLOBC_KIND_STRUCT || t->kind == BLOBC_KIND_UNION) {
        put(g, ",\"f\":[");
        for (uint32_t i = 0; i < t->nfields && g->ok; i++) {
            put(g, i ? ",[" : "[");
            put_str(g, t->fields[i].name, strlen(t->fields[i].name));
            blobc_emit(g->out, &g->ok, ",%" PRIu32 ",%ld]", t->fields[i].offset, type_num(g, t->fields[i].type));
        }
        put(g, "]");
    } else if (t->kind == BLOBC_KIND_ENUM) {
        blobc_emit(g->out, &g->ok, ",\"sg\":%d,\"v\":[", blobc_kind_is_signed(t->elem->kind) ? 1 : 0);
        for (uint32_t i = 0; i < t->nvalues && g->ok; i++) {
            /* values as text: a u64 is more than a JS number holds */
            blobc_emit(g->out, &g->ok, "%s[\"%" PRIu64 "\",", i ? "," : "", t->values[i].value);
            put_str(g, t->values[i].name, strlen(t->values[i].name));
            put(g, "]");
        }
        put(g, "]");
    } else if (t->elem) {
        blobc_emit(g->out, &g->ok, ",\"e\":%ld,\"c\":%" PRIu32 "%s", type_num(g, t->elem), t->count,
                   t->kind == BLOBC_KIND_PTR && t->ref ? ",\"ref\":1" : "");
    }
    put(g, "}");
}

/* Every type in the set, those it reaches added as they are met. */
static void put_types(pager *g) {
    put(g, ",\n\"types\":[");
    for (size_t i = 0; i < g->types.count && g->ok; i++) {
        if (i) put(g, ",\n");
        put_type(g, g->types.keys[i]);
    }
    put(g, "]");
}

static bool on_payload(void *ctx, size_t k) { return ((pager *)ctx)->ok; }
static bool on_step(void *ctx, uint32_t depth, const char *name, uint32_t index) {
    return ((pager *)ctx)->ok;
}
static bool on_part(void *ctx, const blobc_lpart *e) {
    pager *g = ctx;
    if (e->kind == BLOBC_L_OFFSET && e->first) g->ref[e->payload] = (int64_t)e->at;
    return g->ok;
}

/* Payloads in file order: start, count, type, shared, first reference. */
static void put_payloads(pager *g) {
    const blobc_walk *w = g->w;
    put(g, ",\n\"payloads\":[");
    for (size_t at = 0; at < w->ntab && g->ok; at++) {
        size_t k = w->any_order ? w->any_sorted[at] : at;
        blobc_wpayload pv = blobc_walk_payload(w, k);
        uint32_t esz;
        const blobc_type *t = blobc_walk_tid_type(w, pv.tid, &esz);
        blobc_emit(g->out, &g->ok, "%s%" PRIu32 ",%" PRIu32 ",%ld,%d,%" PRId64, at ? "," : "", pv.start,
                   pv.count, type_num(g, t), (pv.flags & BLOBC_WP_PTR ? 1 : 0) | (pv.flags & BLOBC_WP_SHARED ? 2 : 0),
                   g->ref[k]);
        if (at % 8 == 7) put(g, "\n");
    }
    put(g, "]");
}

static void put_header(pager *g, const blobc_source *src) {
    size_t n;
    const blobc_hfield *f = blobc_map_header_fields(src->is_unity, &n);
    put(g, ",\n\"header\":[");
    for (size_t i = 0; (src->is_blob || src->is_unity) && i < n && g->ok; i++) {
        blobc_emit(g->out, &g->ok, "%s[", i ? "," : "");
        put_str(g, f[i].name, strlen(f[i].name));
        blobc_emit(g->out, &g->ok, ",%u,%u,%u]", f[i].at, f[i].size, f[i].hex);
    }
    put(g, "]");
}

static void put_data(pager *g, const blobc_source *src, const blobc_walk *w, const uint8_t *bytes, size_t len) {
    char root[256];
    blobc_type_spell(src->root, root, sizeof root);
    put(g, "{\"root\":");
    put_str(g, root, strlen(root));
    put(g, ",\"schema\":");
    if (src->schema_name) put_str(g, src->schema_name, strlen(src->schema_name));
    else put(g, "null");
    blobc_emit(g->out, &g->ok, ",\"file_size\":%zu,\"data_offset\":%" PRIu64 ",\"data_size\":%zu,\"unity\":%s",
               len, src->data_offset, src->size, src->is_unity ? "true" : "false");
    /* what the map calls the bytes after the last payload */
    put(g, w->end_align ? ",\"tail\":\"(padding up to Length)\"" : ",\"tail\":\"(trailing bytes)\"");
    if (src->is_blob && !src->is_unity && src->blob.header.types_size)
        blobc_emit(g->out, &g->ok, ",\"types_at\":%" PRIu64 ",\"types_size\":%" PRIu64, src->blob.header.types_offset,
                   src->blob.header.types_size);
    put_header(g, src);
    blobc_emit(g->out, &g->ok, ",\"root_type\":%ld", type_num(g, src->root));
    put_payloads(g);
    put_types(g);
    put(g, ",\n\"bytes\":\"");
    put_base64(g, bytes, len);
    put(g, "\"");
}

blobc_status blobc_html_page(const blobc_source *src, const blobc_walk *w, const uint8_t *bytes, size_t len,
                             blobc_buffer *out, blobc_error *err) {
    pager g = {.out = out, .ok = true, .w = w};
    blobc_ptrset_init(&g.types);
    size_t start = out->len;
    blobc_buffer report = {0};
    blobc_status st = blobc_size_report(src, w, len, 0, true, &report, err);
    g.ref = malloc((w->ntab + 1) * sizeof *g.ref);
    static const blobc_layout_ops ops = {on_payload, on_step, on_part};
    if (st == BLOBC_OK && g.ref) {
        for (size_t k = 0; k <= w->ntab; k++) g.ref[k] = -1;
        if (!blobc_layout_list(w, src->data, src->size, false, &ops, &g)) g.ok = false;
        blobc_html_head(out, &g.ok);
        put(&g, "<script type=\"application/json\" id=\"blob\">");
        put_data(&g, src, w, bytes, len);
        put(&g, ",\n\"size\":");
        /* the report is ours (identifiers and numbers), and escaped all the same */
        for (size_t i = 0; i < report.len && g.ok; i++) {
            char c = (char)report.data[i];
            if (c == '<' || c == '>' || c == '&') blobc_emit(g.out, &g.ok, "\\u%04x", (unsigned)c);
            else blobc_emit_bytes(g.out, &g.ok, &c, 1);
        }
        put(&g, "}</script>\n");
        blobc_html_tail(out, &g.ok);
    } else if (st == BLOBC_OK) {
        g.ok = false;
    }
    free(g.ref);
    blobc_ptrset_free(&g.types);
    blobc_buffer_free(&report);
    if (st != BLOBC_OK) return st;
    if (g.ok) return BLOBC_OK;
    out->len = start;
    return blobc_err_nomem(err);
}
