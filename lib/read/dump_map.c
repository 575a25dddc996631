/*
 * dump_map.c - `blobc dump --map`: the byte layout of a blob in file
 * order. The header field by field; then the data as the layout listing
 * gives it (listing.c): every payload the verifying walk placed, each
 * element broken down to its fields with offset, size, raw bytes, schema
 * path and value, the padding between them, each offset field's absolute
 * target, and the gaps between payloads; then a summary of the type
 * section.
 *
 * A blob that fails verification is mapped as far as the walk got: every
 * payload it placed is in bounds, so it can be listed; the line holding
 * the bad byte is marked and the listing ends with the failure.
 *
 * A payload's path is the path of the first field seen referring to it,
 * kept from when that field was listed. A path longer than PATH_SHOWN
 * bytes is shown by its end ("..." in front): with inline structs nested
 * thousands of levels deep, whole paths would make the map quadratic in
 * the depth. Each line costs a bounded number of bytes, so the map is
 * linear in the blob; given a writer (blobc_dump_options.write) it is
 * handed over in pieces as it is made, never held whole.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "blobc/dump.h"
#include "common/fmt_float.h"
#include "blobc/unity.h"
#include "read/dump_map.h"
#include "read/listing.h"

#define HEX_BYTES 16   /* raw bytes shown per line */
#define VALUE_CHARS 80 /* string text shown per line */
#define PATH_SHOWN 80  /* path bytes shown per line, the end of a longer one */
#define PIECE (64u * 1024u) /* bytes handed to the writer at a time */

typedef struct mapper {
    blobc_buffer *out;
    bool ok;                 /* false after the first failed append */
    const uint8_t *d;        /* data section */
    size_t size;
    uint64_t base;           /* file offset of the data section */
    const blobc_walk *w;
    uint32_t *pathat;        /* per payload: 1 + where its path is in paths; 0 unseen */
    blobc_buffer paths;      /* the payloads' paths as shown, each NUL-terminated */
    size_t *lens;            /* per depth below the payload: the path's length there */
    size_t lens_cap;
    const blobc_error *fail; /* the verification error, or NULL */
    bool fail_shown;
    blobc_buffer path;       /* path of the line being written */
    const blobc_dump_options *opts; /* its writer, if any */
    size_t start;            /* where the map begins in out */
} mapper;

static void mput(mapper *m, const char *s, size_t n) { blobc_emit_bytes(m->out, &m->ok, s, n); }
static void mputs(mapper *m, const char *s) { mput(m, s, strlen(s)); }
static void mprintf(mapper *m, const char *fmt, ...) BLOBC_PRINTF(2, 3);
static void mprintf(mapper *m, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    blobc_vemit(m->out, &m->ok, fmt, ap);
    va_end(ap);
}

/* The start of a line: file offset, size, raw bytes (bytes is NULL for
 * aggregates, whose bytes are listed by the lines that follow). */
static void line_head(mapper *m, uint64_t at, uint64_t size, const uint8_t *bytes) {
    mprintf(m, "0x%08" PRIx64 " %7" PRIu64 "  ", at, size);
    size_t shown = 0;
    if (bytes) {
        size_t k = size < HEX_BYTES ? (size_t)size : HEX_BYTES;
        static const char hx[] = "0123456789abcdef";
        char hex[3 * HEX_BYTES + 4];
        size_t o = 0;
        for (size_t i = 0; i < k; i++) {
            hex[o++] = hx[bytes[i] >> 4];
            hex[o++] = hx[bytes[i] & 15];
            hex[o++] = ' ';
        }
        if (size > HEX_BYTES) {
            memcpy(hex + o, ".. ", 3);
            o += 3;
        }
        mput(m, hex, o);
        shown = o;
    }
    for (size_t i = shown; i < 3 * HEX_BYTES + 3; i++) mput(m, " ", 1);
}

/* Hands what is made so far to the writer (all of it, or once a piece
 * is full). */
static void flush(mapper *m, bool all) {
    const blobc_dump_options *o = m->opts;
    size_t n = m->out->len - m->start;
    if (!o || !o->write || !m->ok || n == 0 || (!all && n < PIECE)) return;
    o->write(o->write_ctx, m->out->data + m->start, n);
    m->out->len = m->start;
}

/* Marks the line covering the failed byte, and ends it. */
static void line_end(mapper *m, uint64_t at, uint64_t size) {
    const blobc_error *f = m->fail;
    if (f && f->has_offset && !m->fail_shown && f->offset >= at && f->offset - at < (size ? size : 1)) {
        mprintf(m, "   <-- %s: %s", blobc_verify_code_name(f->code), f->message);
        m->fail_shown = true;
    }
    mput(m, "\n", 1);
    flush(m, false);
}

static void put_text(mapper *m, const uint8_t *s, size_t n) {
    mput(m, "\"", 1);
    size_t shown = n < VALUE_CHARS ? n : VALUE_CHARS;
    /* raw UTF-8 when it is valid, else every high byte escaped */
    bool utf8 = blobc_utf8_valid(s, shown);
    for (size_t i = 0; i < shown; i++) {
        uint8_t c = s[i];
        if (c == '"' || c == '\\') mprintf(m, "\\%c", c);
        else if (c == '\n') mputs(m, "\\n");
        else if (c == '\t') mputs(m, "\\t");
        else if (c < 0x20 || c == 0x7f || (c >= 0x80 && !utf8)) mprintf(m, "\\x%02x", c);
        else mput(m, (const char *)&c, 1);
    }
    mput(m, "\"", 1);
    if (n > shown) mprintf(m, " .. (%zu bytes)", n);
}

/* The path as shown: "(root)", the path, or the end of a long one after
 * "..." (cut where a field name or an index begins). *n gets its length;
 * *cut whether "..." goes in front. */
static const char *path_shown(const mapper *m, size_t *n, bool *cut) {
    const char *p = (const char *)m->path.data;
    size_t len = m->path.len;
    *cut = false;
    if (len && p[0] == '.') {
        p++;
        len--;
    }
    if (len == 0) {
        *n = 6;
        return "(root)";
    }
    if (len > PATH_SHOWN) {
        size_t from = len - (PATH_SHOWN - 3);
        while (from < len && p[from] != '.' && p[from] != '[') from++;
        if (from < len && p[from] == '.') from++;
        p += from;
        len -= from;
        *cut = true;
    }
    *n = len;
    return p;
}

/* Writes the path of the line being written, as shown. */
static void put_path(mapper *m) {
    size_t n;
    bool cut;
    const char *p = path_shown(m, &n, &cut);
    if (cut) mput(m, "...", 3);
    mput(m, p, n);
}

static void path_truncate(mapper *m, size_t len) {
    m->path.len = len;
    if (m->path.data) m->path.data[len] = '\0';
}

static void path_add(mapper *m, const char *s) {
    if (!blobc_buf_puts(&m->path, s) || !blobc_buf_reserve(&m->path, 1)) {
        m->ok = false;
        return;
    }
    m->path.data[m->path.len] = '\0';
}

static void spell(const blobc_type *t, char *buf, size_t cap) { blobc_type_spell(t, buf, cap); }

/* The value of a scalar or enum at p. */
static void put_value(mapper *m, const blobc_type *t, const uint8_t *p) {
    switch (t->kind) {
    case BLOBC_KIND_BOOL:
        if (*p <= 1) mputs(m, *p ? "true" : "false");
        else mprintf(m, "%u (not a bool)", *p);
        break;
    case BLOBC_KIND_I8: mprintf(m, "%d", (int8_t)*p); break;
    case BLOBC_KIND_U8: mprintf(m, "%u", *p); break;
    case BLOBC_KIND_I16: mprintf(m, "%d", (int16_t)blobc_ld16(p)); break;
    case BLOBC_KIND_U16: mprintf(m, "%u", blobc_ld16(p)); break;
    case BLOBC_KIND_I32: mprintf(m, "%" PRId32, (int32_t)blobc_ld32(p)); break;
    case BLOBC_KIND_U32: mprintf(m, "%" PRIu32, blobc_ld32(p)); break;
    case BLOBC_KIND_I64: mprintf(m, "%" PRId64, (int64_t)blobc_ld64(p)); break;
    case BLOBC_KIND_U64: mprintf(m, "%" PRIu64, blobc_ld64(p)); break;
    case BLOBC_KIND_F32:
    case BLOBC_KIND_F64: {
        double v;
        if (t->kind == BLOBC_KIND_F32) {
            uint32_t b = blobc_ld32(p);
            float f;
            memcpy(&f, &b, 4);
            v = f;
        } else {
            uint64_t b = blobc_ld64(p);
            memcpy(&v, &b, 8);
        }
        if (isnan(v)) mputs(m, "nan");
        else if (isinf(v)) mputs(m, v < 0 ? "-inf" : "inf");
        else {
            char buf[BLOBC_FLOAT_TEXT_MAX];
            mput(m, buf, blobc_format_float(buf, v, t->kind == BLOBC_KIND_F32));
        }
        break;
    }
    case BLOBC_KIND_ENUM: {
        uint64_t v;
        bool sg = blobc_kind_is_signed(t->elem->kind);
        switch (t->size) {
        case 1: v = sg ? (uint64_t)(int64_t)(int8_t)*p : *p; break;
        case 2: v = sg ? (uint64_t)(int64_t)(int16_t)blobc_ld16(p) : blobc_ld16(p); break;
        case 4: v = sg ? (uint64_t)(int64_t)(int32_t)blobc_ld32(p) : blobc_ld32(p); break;
        default: v = blobc_ld64(p); break;
        }
        const blobc_enum_value *ev = blobc_enum_find_value(t, v);
        if (ev) mputs(m, ev->name);
        else if (sg) mprintf(m, "%" PRId64 " (not a member)", (int64_t)v);
        else mprintf(m, "%" PRIu64 " (not a member)", v);
        break;
    }
    default:
        break;
    }
}

/* Payload k is first seen from the field being listed: its path is that
 * field's, as shown (a bounded copy). */
static void keep_path(mapper *m, size_t k) {
    size_t n;
    bool cut;
    const char *p = path_shown(m, &n, &cut);
    size_t at = m->paths.len;
    if (at >= UINT32_MAX - PATH_SHOWN - 8 || (cut && !blobc_buf_append(&m->paths, "...", 3)) ||
        !blobc_buf_append(&m->paths, p, n) || !blobc_buf_putc(&m->paths, '\0')) {
        m->ok = false;
        return;
    }
    m->pathat[k] = (uint32_t)at + 1;
}

/* An offset field's line: where it leads. */
static void offset_line(mapper *m, const blobc_lpart *e) {
    const blobc_type *t = e->type;
    size_t p = e->at;
    char ty[128];
    spell(t, ty, sizeof ty);
    line_head(m, m->base + p, e->size, m->d + p);
    int32_t off = (int32_t)blobc_ld32(m->d + p);
    int32_t len = t->kind == BLOBC_KIND_PTR ? 1 : (int32_t)blobc_ld32(m->d + p + 4);
    put_path(m);
    mprintf(m, ": %s", ty);
    if (off == 0) {
        mputs(m, t->kind == BLOBC_KIND_PTR     ? " = null"
                 : t->kind == BLOBC_KIND_ARRAY ? " = []"
                 : t->kind == BLOBC_KIND_MAP   ? " = {}"
                                               : " = (null)");
        line_end(m, m->base + p, e->size);
        return;
    }
    int64_t tg = (int64_t)p + off;
    mprintf(m, " -> 0x%08" PRIx64, (uint64_t)((int64_t)m->base + tg));
    if (t->kind == BLOBC_KIND_ARRAY) mprintf(m, ", %" PRId32 " items", len);
    else if (t->kind == BLOBC_KIND_MAP) mprintf(m, ", %" PRId32 " entries", len);
    else if (t->kind == BLOBC_KIND_STRING) mprintf(m, ", %" PRId32 " bytes", len);
    if (tg < 0 || (uint64_t)tg >= m->size) mputs(m, " (outside the data)");
    else if (t->kind == BLOBC_KIND_PTR && t->ref) {
        /* a reference places nothing: name the item it lands on */
        size_t k = blobc_walk_find_containing(m->w, (size_t)tg);
        blobc_wpayload pl = k != SIZE_MAX ? blobc_walk_payload(m->w, k) : (blobc_wpayload){0};
        if (k != SIZE_MAX && t->elem->size && ((size_t)tg - pl.start) % t->elem->size == 0)
            mprintf(m, " (item %zu of the [%s] at 0x%08" PRIx64 ")",
                    ((size_t)tg - pl.start) / t->elem->size, t->elem->name,
                    (uint64_t)(m->base + pl.start));
    } else if (e->again) {
        mputs(m, " (shared)");
    }
    line_end(m, m->base + p, e->size);
}

/* A union's tag with the member it names, or its bare offset when the
 * tag names no member. */
static void union_line(mapper *m, const blobc_lpart *e) {
    const blobc_type *t = e->type;
    char ty[128];
    spell(t, ty, sizeof ty);
    line_head(m, m->base + e->at, 4, m->d + e->at);
    put_path(m);
    if (e->kind == BLOBC_L_UOFFSET) {
        mprintf(m, ": offset = %" PRId32, (int32_t)blobc_ld32(m->d + e->at));
    } else {
        uint32_t tag = blobc_ld32(m->d + e->at);
        mprintf(m, ": %s tag = %" PRIu32, ty, tag);
        if (tag == 0) mputs(m, " (none)");
        else if (tag <= t->nfields) mprintf(m, " (%s)", t->fields[tag - 1].name);
        else mputs(m, " (not a member)");
    }
    line_end(m, m->base + e->at, 4);
}

/* An optional's presence byte, an absent one's zero value, an any's kind
 * word and the bytes its body leaves unused. */
static void kind_line(mapper *m, const blobc_lpart *e) {
    static const char *const any_names[BLOBC_ANY_KIND_COUNT] = {
        "null", "bool", "int", "uint", "float", "string", "list", "mapping"};
    line_head(m, m->base + e->at, e->size, m->d + e->at);
    put_path(m);
    uint32_t k = e->kind == BLOBC_L_ANYKIND ? blobc_ld32(m->d + e->at) : 0;
    switch (e->kind) {
    case BLOBC_L_PRESENCE:
        mprintf(m, ": presence = %u (%s)%s", m->d[e->at], m->d[e->at] ? "present" : "absent",
                e->zero ? "" : " NONZERO padding");
        break;
    case BLOBC_L_ABSENT: mprintf(m, ": (absent)%s", e->zero ? "" : " NONZERO"); break;
    case BLOBC_L_ANYKIND:
        mprintf(m, ": any kind = %" PRIu32 " (%s)", k, k < BLOBC_ANY_KIND_COUNT ? any_names[k] : "?");
        break;
    default: mprintf(m, ": (unused)%s", e->zero ? "" : " NONZERO"); break;
    }
    line_end(m, m->base + e->at, e->size);
}

/* Bytes between payloads or after the last; padding inside a struct. */
static void filler_line(mapper *m, const blobc_lpart *e) {
    line_head(m, m->base + e->at, e->size, m->d + e->at);
    if (e->kind == BLOBC_L_GAP) {
        mprintf(m, "(gap)%s", e->zero ? "" : " NONZERO");
    } else if (e->kind == BLOBC_L_TAIL) {
        /* the only tail a sound walk leaves: Unity's padding to 16 */
        mputs(m, m->w->end_align ? "(padding up to Length)" : "(trailing bytes)");
    } else {
        put_path(m);
        mprintf(m, ": (padding)%s", e->zero ? "" : " NONZERO");
    }
    line_end(m, m->base + e->at, e->size);
}

/* A payload's head: string bytes, or a [T]'s items or *T's target. */
static void payload_line(mapper *m, const blobc_lpart *e) {
    line_head(m, m->base + e->at, e->size, e->type ? NULL : m->d + e->at);
    put_path(m);
    if (!e->type) {
        mputs(m, ": string bytes = ");
        put_text(m, m->d + e->at, e->size ? e->size - 1 : 0);
        if (e->again) mputs(m, " (shared)");
        line_end(m, m->base + e->at, e->size);
        return;
    }
    char ty[128];
    spell(e->type, ty, sizeof ty);
    blobc_wpayload pv = blobc_walk_payload(m->w, e->payload);
    if (e->type->flags & BLOBC_STRUCT_ENTRY) mprintf(m, ": map entries, %" PRIu32, pv.count);
    else if (!(pv.flags & BLOBC_WP_PTR)) mprintf(m, ": [%s] items, %" PRIu32, ty, pv.count);
    else mprintf(m, ": *%s target", ty);
    if (e->again) mputs(m, " (shared)");
    line_end(m, m->base + e->at, 0);
}

/* A scalar's line, or an aggregate's (whose parts follow). */
static void value_line(mapper *m, const blobc_lpart *e) {
    char ty[128];
    spell(e->type, ty, sizeof ty);
    bool leaf = e->kind == BLOBC_L_SCALAR;
    line_head(m, m->base + e->at, e->size, leaf ? m->d + e->at : NULL);
    put_path(m);
    mprintf(m, ": %s", ty);
    if (leaf) {
        mputs(m, " = ");
        put_value(m, e->type, m->d + e->at);
    }
    line_end(m, m->base + e->at, leaf ? e->size : 0);
}

/* Sets m->path to payload k's path: the one kept when it was first seen
 * ("?" when it was not, which a sound walk never leaves). */
static bool on_payload(void *ctx, size_t k) {
    mapper *m = ctx;
    path_truncate(m, 0);
    if (k != 0) path_add(m, m->pathat[k] ? (const char *)m->paths.data + m->pathat[k] - 1 : "?");
    m->lens[0] = m->path.len;
    return m->ok;
}

static bool on_step(void *ctx, uint32_t depth, const char *name, uint32_t index) {
    mapper *m = ctx;
    if (!blobc_grow((void **)&m->lens, &m->lens_cap, (size_t)depth + 2, sizeof *m->lens)) return false;
    path_truncate(m, m->lens[depth]);
    if (name) {
        path_add(m, ".");
        path_add(m, name);
    } else {
        char idx[32];
        snprintf(idx, sizeof idx, "[%" PRIu32 "]", index);
        path_add(m, idx);
    }
    m->lens[depth + 1] = m->path.len;
    return m->ok;
}

static bool on_part(void *ctx, const blobc_lpart *e) {
    mapper *m = ctx;
    path_truncate(m, m->lens[e->depth]);
    if (e->prepass) {
        if (e->first) keep_path(m, e->payload);
        return m->ok;
    }
    switch (e->kind) {
    case BLOBC_L_PAYLOAD:
    case BLOBC_L_STRING: payload_line(m, e); break;
    case BLOBC_L_AGG:
    case BLOBC_L_SCALAR: value_line(m, e); break;
    case BLOBC_L_OFFSET:
        offset_line(m, e);
        if (e->first) keep_path(m, e->payload);
        break;
    case BLOBC_L_TAG:
    case BLOBC_L_UOFFSET: union_line(m, e); break;
    case BLOBC_L_PRESENCE:
    case BLOBC_L_ABSENT:
    case BLOBC_L_ANYKIND:
    case BLOBC_L_UNUSED: kind_line(m, e); break;
    default: filler_line(m, e); break;
    }
    return m->ok;
}

static void list_payloads(mapper *m) {
    static const blobc_layout_ops ops = {on_payload, on_step, on_part};
    if (!blobc_grow((void **)&m->lens, &m->lens_cap, 2, sizeof *m->lens) ||
        !blobc_layout_list(m->w, m->d, m->size, m->fail != NULL, &ops, m))
        m->ok = false;
}

/* Header fields (docs/FORMAT.md, "Header"). */
static const blobc_hfield header_fields[] = {
    {BLOBC_RT_H_MAGIC, 8, "magic", 2},
    {BLOBC_RT_H_VERSION, 4, "version", 0},
    {BLOBC_RT_H_HEADER_SIZE, 4, "header_size", 0},
    {BLOBC_RT_H_DATA_OFFSET, 8, "data_offset", 1},
    {BLOBC_RT_H_DATA_SIZE, 8, "data_size", 0},
    {BLOBC_RT_H_DATA_HASH, 8, "data_hash", 1},
    {BLOBC_RT_H_SCHEMA_HASH, 8, "schema_hash", 1},
    {BLOBC_RT_H_TYPES_OFFSET, 8, "types_offset", 1},
    {BLOBC_RT_H_TYPES_SIZE, 8, "types_size", 0},
    {BLOBC_RT_H_TYPES_HASH, 8, "types_hash", 1},
    {BLOBC_RT_H_FLAGS, 4, "flags", 1},
    {BLOBC_RT_H_RESERVED, 4, "reserved", 1},
    {BLOBC_RT_H_FILE_SIZE, 8, "file_size", 0},
    {BLOBC_RT_H_HEADER_HASH, 8, "header_hash", 1},
};

/* A Unity blob asset file's version and BlobAssetHeader (docs/UNITY.md). */
static const blobc_hfield unity_fields[] = {
    {BLOBC_UNITY_OFF_VERSION, 4, "version", 0},   {BLOBC_UNITY_OFF_VALIDATION_PTR, 8, "ValidationPtr", 1},
    {BLOBC_UNITY_OFF_LENGTH, 4, "Length", 0},     {BLOBC_UNITY_OFF_ALLOCATOR, 4, "Allocator", 0},
    {BLOBC_UNITY_OFF_HASH, 8, "Hash", 1},         {BLOBC_UNITY_OFF_PADDING, 8, "Padding", 1},
};

const blobc_hfield *blobc_map_header_fields(bool unity, size_t *n) {
    *n = unity ? sizeof unity_fields / sizeof unity_fields[0] : sizeof header_fields / sizeof header_fields[0];
    return unity ? unity_fields : header_fields;
}

static void list_header(mapper *m, const uint8_t *f, size_t len, bool unity) {
    size_t n;
    const blobc_hfield *fields = blobc_map_header_fields(unity, &n);
    mprintf(m, "## header: %u bytes at 0x00000000\n",
            unity ? BLOBC_UNITY_DATA_OFFSET : BLOBC_HEADER_SIZE);
    for (size_t i = 0; i < n; i++) {
        size_t at = fields[i].at, sz = fields[i].size;
        if (at + sz > len) {
            mprintf(m, "0x%08zx          (file ends at %zu bytes)\n", at, len);
            line_end(m, at, sz);
            return;
        }
        line_head(m, at, sz, f + at);
        mprintf(m, "header.%s = ", fields[i].name);
        uint64_t v = sz == 4 ? blobc_ld32(f + at) : blobc_ld64(f + at);
        if (fields[i].hex == 2) put_text(m, f + at, sz);
        else if (fields[i].hex) mprintf(m, "0x%0*" PRIx64, (int)(2 * sz), v);
        else mprintf(m, "%" PRIu64, v);
        line_end(m, at, sz);
    }
}

static void list_types(mapper *m, const blobc_source *src) {
    const blobc_header *h = &src->blob.header;
    if (!src->blob.types) {
        mputs(m, "## types: none (stripped)\n");
        return;
    }
    mprintf(m, "## types: %" PRIu64 " bytes at 0x%08" PRIx64 "\n", h->types_size, h->types_offset);
    if (src->blob.schema_name) {
        mputs(m, "schema ");
        put_text(m, (const uint8_t *)src->blob.schema_name, strlen(src->blob.schema_name));
        mputs(m, "\n");
    }
    if (src->blob.root && src->blob.root->name) mprintf(m, "root %s\n", src->blob.root->name);
    size_t n = blobc_schema_count(src->blob.types);
    for (size_t i = 0; i < n; i++) {
        const blobc_type *t = blobc_schema_at(src->blob.types, i);
        if (t->kind == BLOBC_KIND_ENUM)
            mprintf(m, "enum %s : %s (%" PRIu32 " values)\n", t->name, blobc_kind_name(t->elem->kind),
                    t->nvalues);
        else
            mprintf(m, "%s %s: size %" PRIu32 ", align %" PRIu32 ", %" PRIu32 " %s\n",
                    blobc_kind_name(t->kind), t->name, t->size, t->align, t->nfields,
                    t->kind == BLOBC_KIND_UNION ? "members" : "fields");
        flush(m, false);
    }
}

blobc_status blobc_dump_map(const blobc_source *src, const blobc_walk *w, blobc_status walk_st,
                            const void *bytes, size_t len, const struct blobc_dump_options *opts,
                            blobc_buffer *out, blobc_error *err) {
    mapper m;
    memset(&m, 0, sizeof m);
    m.ok = true;
    m.out = out;
    m.opts = opts;
    m.start = out->len;
    m.fail = walk_st != BLOBC_OK ? err : NULL;
    if (!opts->raw) list_header(&m, bytes, len, src->is_unity);
    if (!src->data || !src->root) {
        /* the container itself failed: nothing past the header is sound */
        if (m.fail) {
            if (!m.fail_shown) mputs(&m, "\n");
            mprintf(&m, "## verification failed: %s: %s\n", blobc_verify_code_name(m.fail->code),
                    m.fail->message);
        }
        flush(&m, true);
        return !m.ok ? blobc_err_nomem(err) : walk_st;
    }
    m.d = src->data;
    m.size = src->size;
    m.base = src->data_offset;
    m.w = w;
    char ty[128];
    spell(src->root, ty, sizeof ty);
    mprintf(&m, "## data: %zu bytes at 0x%08" PRIx64 ", root %s\n", m.size, m.base, ty);
    if (w->ntab) {
        m.pathat = calloc(w->ntab, sizeof *m.pathat);
        if (!m.pathat) m.ok = false;
        else list_payloads(&m);
    }
    if (m.fail) {
        mprintf(&m, "## verification failed at 0x%08" PRIx64 "%s%s%s: %s: %s\n", m.fail->offset,
                m.fail->path[0] ? " (" : "", m.fail->path, m.fail->path[0] ? ")" : "",
                blobc_verify_code_name(m.fail->code), m.fail->message);
        if (w->ntab) mputs(&m, "## the map stops here: what follows was not reached soundly\n");
    } else if (src->is_blob) {
        list_types(&m, src);
    }
    free(m.pathat);
    free(m.lens);
    blobc_buffer_free(&m.paths);
    blobc_buffer_free(&m.path);
    flush(&m, true);
    if (!m.ok) return blobc_err_nomem(err);
    return walk_st;
}
