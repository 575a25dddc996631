/*
 * reader.c - blobc/read.h: navigating a verified blob through its types.
 *
 * Opening verifies the whole data section (walk_driver.c), so every step
 * afterwards reads bytes already proven in bounds, aligned and well
 * formed: a step is a few loads and an offset sum, with no checks that
 * could fail and nothing allocated. The reader itself is never written
 * after opening, so threads may share it.
 */
#include <stdlib.h>

#include "blobc/read.h"
#include "common/stream.h"
#include "read/source.h"
#include "read/walk.h"

struct blobc_reader {
    blobc_source src;
};

static const blobc_value none;

blobc_status blobc_reader_open(const void *bytes, size_t len, const blobc_verify_options *opts,
                               blobc_reader **out, blobc_error *err) {
    static const blobc_verify_options defaults;
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!out) return blobc_err_arg(err, __func__, "out is NULL");
    *out = NULL;
    if (!bytes) return blobc_err_arg(err, __func__, "bytes is NULL");
    if (!opts) opts = &defaults;
    blobc_reader *r = calloc(1, sizeof *r);
    if (!r) return blobc_err_nomem(err);
    blobc_source_format fmt = {false, opts->unity};
    blobc_status st = blobc_source_open(&r->src, bytes, len, fmt, opts->schema, opts->type_name,
                                        opts->flags, err);
    if (st == BLOBC_OK) {
        blobc_walk w;
        blobc_walk_init(&w);
        w.end_align = r->src.end_align;
        w.any_order = r->src.is_unity;
        st = blobc_walk_run(&w, r->src.data, r->src.size, r->src.root, r->src.data_offset, err);
        blobc_walk_free(&w);
    }
    if (st != BLOBC_OK) {
        blobc_reader_free(r);
        return st;
    }
    *out = r;
    return BLOBC_OK;
}

void blobc_reader_free(blobc_reader *r) {
    if (!r) return;
    blobc_source_close(&r->src);
    free(r);
}

blobc_value blobc_reader_root(const blobc_reader *r) {
    if (!r) return none;
    blobc_value v = {r, r->src.root, 0};
    return v;
}

blobc_kind blobc_value_kind(blobc_value v) { return v.reader ? v.type->kind : (blobc_kind)0; }

static const uint8_t *at(blobc_value v) { return v.reader->src.data + v.offset; }

static blobc_value make(blobc_value from, const blobc_type *t, uint64_t off) {
    blobc_value v = {from.reader, t, off};
    return v;
}

/* The payload a string, [T] or *T at v refers to (0: null). */
static uint64_t target(blobc_value v) {
    int32_t rel = (int32_t)blobc_ld32(at(v));
    return rel ? (uint64_t)((int64_t)v.offset + rel) : 0;
}

/* ---- structs and unions ---- */

static uint32_t union_tag(blobc_value v) { return blobc_ld32(at(v)); }

uint32_t blobc_value_field_count(blobc_value v) {
    blobc_kind k = blobc_value_kind(v);
    if (k == BLOBC_KIND_STRUCT) return v.type->nfields;
    if (k == BLOBC_KIND_UNION) return union_tag(v) ? 1 : 0;
    return 0;
}

/* Field i's declaration (a union: the member it holds). */
static const blobc_field *field_decl(blobc_value v, uint32_t i) {
    if (i >= blobc_value_field_count(v)) return NULL;
    if (v.type->kind == BLOBC_KIND_UNION) return &v.type->fields[union_tag(v) - 1];
    return &v.type->fields[i];
}

const char *blobc_value_field_name(blobc_value v, uint32_t i) {
    const blobc_field *f = field_decl(v, i);
    return f ? f->name : NULL;
}

blobc_value blobc_value_field_at(blobc_value v, uint32_t i) {
    const blobc_field *f = field_decl(v, i);
    if (!f) return none;
    if (v.type->kind == BLOBC_KIND_UNION) return blobc_value_union_member(v);
    return make(v, f->type, v.offset + f->offset);
}

blobc_value blobc_value_field(blobc_value v, const char *name) {
    blobc_kind k = blobc_value_kind(v);
    if (!name || (k != BLOBC_KIND_STRUCT && k != BLOBC_KIND_UNION)) return none;
    const blobc_field *f = blobc_struct_find_field(v.type, name, strlen(name));
    if (!f) return none;
    if (k == BLOBC_KIND_UNION)
        return field_decl(v, 0) == f ? blobc_value_union_member(v) : none;
    return make(v, f->type, v.offset + f->offset);
}

const char *blobc_value_union_tag(blobc_value v) {
    if (blobc_value_kind(v) != BLOBC_KIND_UNION) return NULL;
    return blobc_value_field_name(v, 0);
}

blobc_value blobc_value_union_member(blobc_value v) {
    const blobc_field *f = blobc_value_kind(v) == BLOBC_KIND_UNION ? field_decl(v, 0) : NULL;
    if (!f) return none;
    /* the member is a *Struct at the union's offset field */
    return blobc_value_deref(make(v, f->type, v.offset + f->offset));
}

/* ---- sequences and pointers ---- */

uint32_t blobc_value_length(blobc_value v) {
    switch (blobc_value_kind(v)) {
    case BLOBC_KIND_FIXED: return v.type->count;
    case BLOBC_KIND_ARRAY: return target(v) ? blobc_ld32(at(v) + 4) : 0;
    case BLOBC_KIND_STRING: return target(v) ? blobc_ld32(at(v) + 4) - 1 : 0;
    default: return 0;
    }
}

blobc_value blobc_value_item(blobc_value v, uint32_t i) {
    if (i >= blobc_value_length(v)) return none;
    const blobc_type *et = v.type->elem;
    uint64_t base = v.type->kind == BLOBC_KIND_FIXED ? v.offset : target(v);
    if (v.type->kind != BLOBC_KIND_FIXED && v.type->kind != BLOBC_KIND_ARRAY) return none;
    return make(v, et, base + (uint64_t)i * et->size);
}

blobc_value blobc_value_deref(blobc_value v) {
    if (blobc_value_kind(v) != BLOBC_KIND_PTR) return none;
    uint64_t t = target(v);
    return t ? make(v, v.type->elem, t) : none;
}

blobc_value blobc_value_key(blobc_value v) {
    if (blobc_value_kind(v) == BLOBC_KIND_PTR && v.type->ref) v = blobc_value_deref(v);
    if (blobc_value_kind(v) != BLOBC_KIND_STRUCT || !v.type->key) return none;
    return blobc_value_field_at(v, v.type->key - 1);
}

bool blobc_value_is_null(blobc_value v) {
    switch (blobc_value_kind(v)) {
    case BLOBC_KIND_PTR:
    case BLOBC_KIND_ARRAY:
    case BLOBC_KIND_STRING: return target(v) == 0;
    case BLOBC_KIND_UNION: return union_tag(v) == 0;
    default: return false;
    }
}

/* ---- scalars ---- */

static bool load(blobc_value v, blobc_sval *out) {
    blobc_kind k = blobc_value_kind(v);
    if (!blobc_kind_is_scalar(k) && k != BLOBC_KIND_ENUM) return false;
    blobc_sval_load(v.type, at(v), out);
    return true;
}

const char *blobc_value_enum_name(blobc_value v) {
    blobc_sval s;
    return blobc_value_kind(v) == BLOBC_KIND_ENUM && load(v, &s) ? s.s : NULL;
}

/* An integer-like value: its bits and whether they are signed. */
static bool int_bits(blobc_value v, uint64_t *bits, bool *is_signed) {
    blobc_sval s;
    if (!load(v, &s)) return false;
    blobc_kind k = v.type->kind == BLOBC_KIND_ENUM ? v.type->elem->kind : v.type->kind;
    if (k == BLOBC_KIND_F32 || k == BLOBC_KIND_F64) return false;
    *bits = s.bits;
    *is_signed = blobc_kind_is_signed(k);
    return true;
}

bool blobc_value_int(blobc_value v, int64_t *out) {
    uint64_t b;
    bool sg;
    if (!out || !int_bits(v, &b, &sg) || (!sg && b > (uint64_t)INT64_MAX)) return false;
    *out = (int64_t)b;
    return true;
}

bool blobc_value_uint(blobc_value v, uint64_t *out) {
    uint64_t b;
    bool sg;
    if (!out || !int_bits(v, &b, &sg) || (sg && (int64_t)b < 0)) return false;
    *out = b;
    return true;
}

bool blobc_value_float(blobc_value v, double *out) {
    blobc_kind k = blobc_value_kind(v);
    blobc_sval s;
    if (!out || (k != BLOBC_KIND_F32 && k != BLOBC_KIND_F64) || !load(v, &s)) return false;
    *out = s.f;
    return true;
}

bool blobc_value_bool(blobc_value v, bool *out) {
    if (!out || blobc_value_kind(v) != BLOBC_KIND_BOOL) return false;
    *out = *at(v) != 0;
    return true;
}

bool blobc_value_string(blobc_value v, const char **s, size_t *len) {
    if (!s || !len || blobc_value_kind(v) != BLOBC_KIND_STRING) return false;
    uint64_t t = target(v);
    *s = t ? (const char *)v.reader->src.data + t : "";
    *len = blobc_value_length(v);
    return true;
}

size_t blobc_value_text(blobc_value v, char *buf, size_t cap) {
    blobc_sval s;
    memset(&s, 0, sizeof s);
    if (blobc_value_kind(v) == BLOBC_KIND_STRING) blobc_value_string(v, &s.s, &s.n);
    else if (!load(v, &s)) {
        if (cap && buf) buf[0] = '\0';
        return 0;
    }
    return blobc_sval_text(v.type, &s, buf, buf ? cap : 0);
}
