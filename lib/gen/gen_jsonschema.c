/*
 * gen_jsonschema.c - a JSON Schema (draft 2020-12) of the YAML/JSON data a
 * schema's type is authored in, for editors and validators: the rules of
 * docs/AUTHORING.md as far as JSON Schema can say them (docs/EDITORS.md
 * lists what it cannot). The output is pretty-printed JSON, deterministic:
 * types in declaration order, fields in declaration order.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "blobc/gen.h"
#include "common/fmt_float.h"
#include "common/buffer.h"
#include "common/compiler.h"
#include "common/err.h"
#include "common/quote.h"

#define JS_DIALECT "https://json-schema.org/draft/2020-12/schema"
/* $defs key of the YAML-only integer spellings; no schema type has a '.'. */
#define YAML_INT "blobc.yaml-int"
/* Integers with '_' between digits or in binary: plain YAML 1.1 integers
 * for blobc, strings for a YAML 1.2 reader. A JSON string "12" still fails. */
#define YAML_INT_PATTERN                                                                  \
    "^[-+]?(0b[01_]+|0x[0-9a-fA-F]+(_[0-9a-fA-F_]*)+|0o[0-7]+(_[0-7_]*)+|[0-9]+(_[0-9_]*)+)$"
/* Deepest JSON nesting written: composites nest two levels per [ ] or *. */
#define JS_MAX_DEPTH 200

/* A JSON writer: commas, newlines and two-space indentation by level; an
 * inline level (short arrays of scalars) stays on one line. */
typedef struct jw {
    blobc_buffer *out;
    bool ok;
    bool too_deep;
    int depth;
    bool first[JS_MAX_DEPTH + 1];
    bool inline_[JS_MAX_DEPTH + 1];
} jw;

static void raw(jw *w, const char *s) { blobc_emit_bytes(w->out, &w->ok, s, strlen(s)); }

static void rawf(jw *w, const char *fmt, ...) BLOBC_PRINTF(2, 3);
static void rawf(jw *w, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    blobc_vemit(w->out, &w->ok, fmt, ap);
    va_end(ap);
}

static void newline(jw *w) {
    raw(w, "\n");
    for (int i = 0; i < w->depth; i++) raw(w, "  ");
}

/* Separates the next member or item from the previous one. */
static void item(jw *w) {
    if (!w->first[w->depth]) raw(w, ",");
    if (w->inline_[w->depth]) {
        if (!w->first[w->depth]) raw(w, " ");
    } else {
        newline(w);
    }
    w->first[w->depth] = false;
}

static void str(jw *w, const char *s) {
    if (w->ok) w->ok = blobc_buf_quoted(w->out, (const uint8_t *)s, strlen(s), true);
}

static void key(jw *w, const char *k) {
    item(w);
    str(w, k);
    raw(w, ": ");
}

static void open_(jw *w, const char *bracket, bool inl) {
    raw(w, bracket);
    if (w->depth == JS_MAX_DEPTH) {
        w->ok = false;
        w->too_deep = true;
        return;
    }
    w->depth++;
    w->first[w->depth] = true;
    w->inline_[w->depth] = inl || w->inline_[w->depth - 1];
}

static void close_(jw *w, const char *bracket) {
    if (!w->ok) return;
    bool empty = w->first[w->depth], inl = w->inline_[w->depth];
    w->depth--;
    if (!empty && !inl) newline(w);
    raw(w, bracket);
}

static void key_str(jw *w, const char *k, const char *v) {
    key(w, k);
    str(w, v);
}

/* ---- values ---- */

static void put_float(jw *w, double v, bool f32) {
    if (isnan(v)) str(w, "nan");
    else if (isinf(v)) str(w, v < 0 ? "-inf" : "inf");
    else {
        char buf[BLOBC_FLOAT_TEXT_MAX];
        size_t n = blobc_format_float(buf, v, f32);
        buf[n] = '\0';
        raw(w, buf);
    }
}

static void put_int(jw *w, blobc_kind k, uint64_t bits) {
    if (blobc_kind_is_signed(k)) rawf(w, "%lld", (long long)(int64_t)bits);
    else rawf(w, "%llu", (unsigned long long)bits);
}

/* The smallest and largest value of an integer kind, as bits. */
static void int_range(blobc_kind k, uint32_t size, uint64_t *lo, uint64_t *hi) {
    unsigned bits = 8 * size;
    if (blobc_kind_is_signed(k)) {
        *hi = UINT64_MAX >> (65 - bits);
        *lo = ~*hi;
    } else {
        *lo = 0;
        *hi = UINT64_MAX >> (64 - bits);
    }
}

static void put_default(jw *w, const blobc_field *f) {
    const blobc_default *d = &f->def;
    blobc_kind k = f->type->kind;
    key(w, "default");
    if (k == BLOBC_KIND_BOOL) raw(w, d->bits ? "true" : "false");
    else if (blobc_kind_is_integer(k)) put_int(w, k, d->bits);
    else if (k == BLOBC_KIND_F32 || k == BLOBC_KIND_F64) put_float(w, d->f, k == BLOBC_KIND_F32);
    else if (k == BLOBC_KIND_ENUM) {
        const blobc_enum_value *v = blobc_enum_find_value(f->type, d->bits);
        str(w, v ? v->name : "");
    } else if (k == BLOBC_KIND_UNION || k == BLOBC_KIND_PTR) {
        raw(w, "null");
    } else if (w->ok) {
        w->ok = blobc_buf_quoted(w->out, (const uint8_t *)(d->str ? d->str : ""),
                                 d->str ? d->str_len : 0, true);
    }
}

static bool is_composite(blobc_kind k) {
    return k == BLOBC_KIND_ARRAY || k == BLOBC_KIND_FIXED || k == BLOBC_KIND_PTR;
}

/* The keywords of a value of type t, inside an open object. */
static void type_body(jw *w, const blobc_type *t) {
    blobc_kind k = t->kind;
    if (k == BLOBC_KIND_BOOL) {
        key_str(w, "type", "boolean");
    } else if (blobc_kind_is_integer(k)) {
        uint64_t lo, hi;
        int_range(k, t->size, &lo, &hi);
        /* A YAML 1.2 reader (an editor's) takes the YAML 1.1 spellings
         * blobc also accepts (1_000, 0b101) for strings. */
        key(w, "anyOf");
        raw(w, "[{\"type\": \"integer\", \"minimum\": ");
        put_int(w, k, lo);
        raw(w, ", \"maximum\": ");
        put_int(w, k, hi);
        raw(w, "}, {\"$ref\": \"#/$defs/" YAML_INT "\"}]");
    } else if (k == BLOBC_KIND_F32 || k == BLOBC_KIND_F64) {
        /* JSON spells infinities and NaN as these strings; YAML's .inf and
         * .nan load as numbers. */
        key(w, "anyOf");
        raw(w, "[{\"type\": \"number\"}, {\"enum\": [\"inf\", \"-inf\", \"nan\"]}]");
    } else if (k == BLOBC_KIND_STRING) {
        key_str(w, "type", "string");
    } else if (k == BLOBC_KIND_ENUM || k == BLOBC_KIND_STRUCT || k == BLOBC_KIND_UNION) {
        key(w, "$ref");
        rawf(w, "\"#/$defs/%s\"", t->name); /* names are identifiers: nothing to escape */
    } else if (k == BLOBC_KIND_ARRAY || k == BLOBC_KIND_FIXED) {
        key(w, "type");
        raw(w, k == BLOBC_KIND_ARRAY ? "[\"array\", \"null\"]" : "\"array\"");
        key(w, "items");
        open_(w, "{", !is_composite(t->elem->kind));
        type_body(w, t->elem);
        close_(w, "}");
        if (k == BLOBC_KIND_FIXED) {
            key(w, "minItems");
            rawf(w, "%u", (unsigned)t->count);
            key(w, "maxItems");
            rawf(w, "%u", (unsigned)t->count);
        }
    } else if (k == BLOBC_KIND_PTR && t->ref) {
        /* a reference is written as its target's key */
        type_body(w, t->elem->fields[t->elem->key - 1].type);
    } else if (k == BLOBC_KIND_PTR) {
        key(w, "anyOf");
        open_(w, "[", false);
        item(w);
        raw(w, "{\"type\": \"null\"}");
        item(w);
        open_(w, "{", !is_composite(t->elem->kind));
        type_body(w, t->elem);
        close_(w, "}");
        close_(w, "]");
    }
}

/* Absent [T] and *T fields are empty and null; defaulted fields take the
 * default, and so do all-default structs. */
static bool required(const blobc_field *f) { return !blobc_field_optional(f); }

/* The keywords of a struct's object; `top` adds the meta keys of the
 * top level (AUTHORING.md, "The top level"). */
static void struct_body(jw *w, const blobc_type *t, bool top) {
    key_str(w, "type", "object");
    key(w, "properties");
    open_(w, "{", false);
    if (top) {
        key(w, "$schema");
        raw(w, "{\"type\": \"string\", \"description\": \"Path of the schema file, relative to "
               "this file.\"}");
        key(w, "$type");
        raw(w, "{\"const\": ");
        str(w, t->name);
        raw(w, "}");
    }
    for (uint32_t i = 0; i < t->nfields; i++) {
        const blobc_field *f = &t->fields[i];
        key(w, f->name);
        open_(w, "{", !is_composite(f->type->kind));
        if (f->doc) key_str(w, "description", f->doc);
        if (f->type->kind == BLOBC_KIND_UNION && f->def.present) {
            /* the only default of a union field: null, no member */
            key(w, "anyOf");
            raw(w, "[{\"type\": \"null\"}, {\"$ref\": \"#/$defs/");
            raw(w, f->type->name);
            raw(w, "\"}]");
        } else if (f->type->kind == BLOBC_KIND_PTR && f->def.present) {
            /* a reference's only default: null, no item */
            key(w, "anyOf");
            open_(w, "[", false);
            item(w);
            raw(w, "{\"type\": \"null\"}");
            item(w);
            open_(w, "{", true);
            type_body(w, f->type);
            close_(w, "}");
            close_(w, "]");
        } else {
            type_body(w, f->type);
        }
        if (f->def.present) put_default(w, f);
        close_(w, "}");
    }
    close_(w, "}");
    bool any = false;
    for (uint32_t i = 0; i < t->nfields && !any; i++) any = required(&t->fields[i]);
    if (any) {
        key(w, "required");
        open_(w, "[", true);
        for (uint32_t i = 0; i < t->nfields; i++)
            if (required(&t->fields[i])) {
                item(w);
                str(w, t->fields[i].name);
            }
        close_(w, "]");
    }
    key(w, "additionalProperties");
    raw(w, "false");
}

/* A union value is a single-key object naming the member (AUTHORING.md). */
static void union_body(jw *w, const blobc_type *t) {
    key(w, "oneOf");
    open_(w, "[", false);
    for (uint32_t i = 0; i < t->nfields; i++) {
        const blobc_field *m = &t->fields[i];
        item(w);
        open_(w, "{", true);
        if (m->doc) key_str(w, "description", m->doc);
        key_str(w, "type", "object");
        key(w, "properties");
        rawf(w, "{\"%s\": {\"$ref\": \"#/$defs/%s\"}}", m->name, m->type->elem->name);
        key(w, "required");
        rawf(w, "[\"%s\"]", m->name);
        key(w, "additionalProperties");
        raw(w, "false");
        close_(w, "}");
    }
    close_(w, "]");
}

static void enum_body(jw *w, const blobc_type *t) {
    key(w, "enum");
    open_(w, "[", true);
    for (uint32_t i = 0; i < t->nvalues; i++) {
        item(w);
        str(w, t->values[i].name);
    }
    close_(w, "]");
    /* Per-member docs, where any: JSON Schema has no place for them in
     * `enum`, so they go to a oneOf of consts alongside. */
    bool docs = false;
    for (uint32_t i = 0; i < t->nvalues && !docs; i++) docs = t->values[i].doc != NULL;
    if (!docs) return;
    key(w, "oneOf");
    open_(w, "[", false);
    for (uint32_t i = 0; i < t->nvalues; i++) {
        item(w);
        open_(w, "{", true);
        key_str(w, "const", t->values[i].name);
        if (t->values[i].doc) key_str(w, "description", t->values[i].doc);
        close_(w, "}");
    }
    close_(w, "]");
}

blobc_status blobc_gen_jsonschema(const blobc_schema *schema, const char *type_name,
                                  blobc_buffer *out, blobc_error *err) {
    if (!schema || !out) return blobc_err_arg(err, __func__, "schema or out is NULL");
    const blobc_type *root = type_name ? blobc_schema_find(schema, type_name)
                                       : blobc_schema_root(schema);
    if (!root)
        return type_name ? blobc_err(err, BLOBC_EINPUT, "gen jsonschema: no type '%s' in the schema",
                                     type_name)
                         : blobc_err(err, BLOBC_EINPUT,
                                     "gen jsonschema: the schema has no root; name the type with -t");
    if (root->kind != BLOBC_KIND_STRUCT)
        return blobc_err(err, BLOBC_EINPUT,
                         "gen jsonschema: '%s' is %s; the data's top level is a struct", root->name,
                         root->kind == BLOBC_KIND_ENUM ? "an enum" : "a union");
    size_t mark = out->len;
    jw w = {out, true, false, 0, {true}, {false}};
    open_(&w, "{", false);
    key_str(&w, "$schema", JS_DIALECT);
    const char *file = blobc_schema_filename(schema);
    char comment[600];
    snprintf(comment, sizeof comment, "Generated by blobc gen jsonschema from %s; do not edit.",
             file[0] ? file : "a schema");
    key_str(&w, "$comment", comment);
    key_str(&w, "title", root->name);
    if (root->doc) key_str(&w, "description", root->doc);
    struct_body(&w, root, true);
    key(&w, "$defs");
    open_(&w, "{", false);
    for (size_t i = 0; i < blobc_schema_count(schema); i++) {
        const blobc_type *t = blobc_schema_at(schema, i);
        key(&w, t->name);
        open_(&w, "{", false);
        if (t->doc) key_str(&w, "description", t->doc);
        if (t->kind == BLOBC_KIND_STRUCT) struct_body(&w, t, false);
        else if (t->kind == BLOBC_KIND_UNION) union_body(&w, t);
        else enum_body(&w, t);
        close_(&w, "}");
    }
    key(&w, YAML_INT);
    raw(&w, "{\"type\": \"string\", \"pattern\": \"" YAML_INT_PATTERN "\"}");
    close_(&w, "}");
    close_(&w, "}");
    raw(&w, "\n");
    if (!w.ok) {
        out->len = mark;
        if (w.too_deep)
            return blobc_err(err, BLOBC_EINPUT, "gen jsonschema: types nested too deeply");
        return blobc_err_nomem(err);
    }
    return BLOBC_OK;
}
