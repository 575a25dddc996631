/*
 * gen_jsonschema.c - a JSON Schema (draft 2020-12) of the YAML/JSON data a
 * schema's type is authored in, for editors and validators: the rules of
 * docs/AUTHORING.md as far as JSON Schema can say them (docs/EDITORS.md
 * lists what it cannot). Built as a cJSON tree (common/json_doc.h, so
 * that bounds such as a u64's 2^64 - 1 and float defaults stay exact) and
 * printed by cJSON; deterministic: types and fields in declaration order.
 */
#include <stdio.h>
#include <string.h>

#include "blobc/gen.h"
#include "common/err.h"
#include "common/json_doc.h"
#include "gen/gen_internal.h"

#define JS_DIALECT "https://json-schema.org/draft/2020-12/schema"
/* $defs key of the YAML-only integer spellings; no schema type has a '.'. */
#define YAML_INT "blobc.yaml-int"
/* Integers with '_' between digits or in binary: plain YAML 1.1 integers
 * for blobc, strings for a YAML 1.2 reader. A JSON string "12" still fails. */
#define YAML_INT_PATTERN                                                                  \
    "^[-+]?(0b[01_]+|0x[0-9a-fA-F]+(_[0-9a-fA-F_]*)+|0o[0-7]+(_[0-7_]*)+|[0-9]+(_[0-9_]*)+)$"
/* Deepest composite chain followed ([ ], [T; N], *), for a type section
 * built by hand; the language stops at 64. */
#define JS_MAX_CHAIN 100

/* The tree being built; ok turns false at the first allocation that fails. */
typedef struct js {
    bool ok;
    bool too_deep;
} js;

static cJSON *put(js *w, cJSON *o, const char *name, cJSON *item) {
    if (!blobc_json_add(o, name, item)) {
        w->ok = false;
        return NULL;
    }
    return item;
}

static cJSON *obj(js *w, cJSON *o, const char *name) { return put(w, o, name, cJSON_CreateObject()); }
static cJSON *arr(js *w, cJSON *o, const char *name) { return put(w, o, name, cJSON_CreateArray()); }

/* Names, docs and defaults may hold any bytes a schema allows. */
static void text(js *w, cJSON *o, const char *name, const char *s) {
    put(w, o, name, blobc_json_text(s, strlen(s)));
}

/* "$ref": "#/$defs/NAME", into object o. */
static void ref(js *w, cJSON *o, const char *type_name) {
    char buf[1100];
    snprintf(buf, sizeof buf, "#/$defs/%s", type_name);
    text(w, o, "$ref", buf);
}

/* {"$ref": "#/$defs/NAME"} under name (NULL: into array o). */
static void ref_to(js *w, cJSON *o, const char *name, const char *type_name) {
    ref(w, obj(w, o, name), type_name);
}

/* {"type": "null"} */
static void null_type(js *w, cJSON *o) { text(w, obj(w, o, NULL), "type", "null"); }

/* ---- values ---- */

static cJSON *int_item(blobc_kind k, uint64_t bits) {
    return blobc_kind_is_signed(k) ? blobc_json_i64((int64_t)bits) : blobc_json_u64(bits);
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

static void put_default(js *w, cJSON *o, const blobc_field *f) {
    const blobc_default *d = &f->def;
    blobc_kind k = f->type->kind;
    cJSON *v;
    if (k == BLOBC_KIND_BOOL) v = cJSON_CreateBool(d->bits != 0);
    else if (blobc_kind_is_integer(k)) v = int_item(k, d->bits);
    else if (k == BLOBC_KIND_F32 || k == BLOBC_KIND_F64) v = blobc_json_float(d->f, k == BLOBC_KIND_F32);
    else if (k == BLOBC_KIND_ENUM) {
        const blobc_enum_value *ev = blobc_enum_find_value(f->type, d->bits);
        v = cJSON_CreateString(ev ? ev->name : "");
    } else if (k == BLOBC_KIND_UNION || k == BLOBC_KIND_PTR) {
        v = cJSON_CreateNull();
    } else {
        v = blobc_json_text(d->str ? d->str : "", d->str ? d->str_len : 0);
    }
    put(w, o, "default", v);
}

/* The keywords of a value of type t, into object o. */
static void type_body(js *w, cJSON *o, const blobc_type *t, int chain) {
    blobc_kind k = t->kind;
    if (chain > JS_MAX_CHAIN) {
        w->ok = false;
        w->too_deep = true;
    } else if (k == BLOBC_KIND_BOOL) {
        text(w, o, "type", "boolean");
    } else if (blobc_kind_is_integer(k)) {
        uint64_t lo, hi;
        int_range(k, t->size, &lo, &hi);
        /* A YAML 1.2 reader (an editor's) takes the YAML 1.1 spellings
         * blobc also accepts (1_000, 0b101) for strings. */
        cJSON *any = arr(w, o, "anyOf"), *n = obj(w, any, NULL);
        text(w, n, "type", "integer");
        put(w, n, "minimum", int_item(k, lo));
        put(w, n, "maximum", int_item(k, hi));
        ref_to(w, any, NULL, YAML_INT);
    } else if (k == BLOBC_KIND_F32 || k == BLOBC_KIND_F64) {
        /* JSON spells infinities and NaN as these strings; YAML's .inf and
         * .nan load as numbers. */
        static const char *const special[] = {"inf", "-inf", "nan"};
        cJSON *any = arr(w, o, "anyOf");
        text(w, obj(w, any, NULL), "type", "number");
        put(w, obj(w, any, NULL), "enum", cJSON_CreateStringArray(special, 3));
    } else if (k == BLOBC_KIND_STRING) {
        text(w, o, "type", "string");
    } else if (k == BLOBC_KIND_ENUM || k == BLOBC_KIND_STRUCT || k == BLOBC_KIND_UNION) {
        ref(w, o, t->name);
    } else if (k == BLOBC_KIND_ARRAY || k == BLOBC_KIND_FIXED) {
        static const char *const nullable[] = {"array", "null"};
        put(w, o, "type", k == BLOBC_KIND_ARRAY ? cJSON_CreateStringArray(nullable, 2)
                                                : cJSON_CreateString("array"));
        type_body(w, obj(w, o, "items"), t->elem, chain + 1);
        if (k == BLOBC_KIND_FIXED) {
            put(w, o, "minItems", blobc_json_u64(t->count));
            put(w, o, "maxItems", blobc_json_u64(t->count));
        }
    } else if (k == BLOBC_KIND_MAP) {
        /* a mapping of the keys; integer keys are written as decimal text */
        static const char *const nullable[] = {"object", "null"};
        const blobc_type *key = blobc_map_key(t);
        put(w, o, "type", cJSON_CreateStringArray(nullable, 2));
        if (key->kind == BLOBC_KIND_ENUM)
            ref_to(w, o, "propertyNames", key->name);
        else if (key->kind != BLOBC_KIND_STRING)
            text(w, obj(w, o, "propertyNames"), "pattern",
                 blobc_kind_is_signed(key->kind) ? "^(0|-?[1-9][0-9]*)$" : "^(0|[1-9][0-9]*)$");
        type_body(w, obj(w, o, "additionalProperties"), blobc_map_value(t), chain + 1);
    } else if (k == BLOBC_KIND_OPTIONAL) {
        cJSON *any = arr(w, o, "anyOf");
        null_type(w, any);
        type_body(w, obj(w, any, NULL), t->elem, chain + 1);
    } else if (k == BLOBC_KIND_ANY) {
        /* any value at all: the empty schema */
    } else if (k == BLOBC_KIND_PTR && t->ref) {
        /* a reference is written as its target's key */
        type_body(w, o, t->elem->fields[t->elem->key - 1].type, chain + 1);
    } else if (k == BLOBC_KIND_PTR) {
        cJSON *any = arr(w, o, "anyOf");
        null_type(w, any);
        type_body(w, obj(w, any, NULL), t->elem, chain + 1);
    }
}

/* A file ending as a pattern: ".png" -> "\\.png$". */
static void ending_pattern(js *w, cJSON *o, const char *ext) {
    blobc_buffer b = {0};
    bool ok = true;
    for (const char *c = ext; *c && ok; c++)
        ok = (!strchr("\\^$.|?*+()[]{}/", *c) || blobc_buf_putc(&b, '\\')) && blobc_buf_putc(&b, *c);
    if (ok && blobc_buf_putc(&b, '$') && blobc_buf_putc(&b, 0)) text(w, o, "pattern", (const char *)b.data);
    else w->ok = false;
    blobc_buffer_free(&b);
}

/* The field's value checks as the JSON Schema keywords that say the same,
 * one allOf entry each (a keyword applies only to values of its kind, so
 * ?T and the YAML spellings of integers stay as they are). A @match whose
 * pattern uses POSIX classes ([:alpha:]), which JSON Schema's regular
 * expressions lack, is left to the bake. */
static void put_checks(js *w, cJSON *o, const blobc_field *f) {
    if (!f->nchecks) return;
    const blobc_type *own = f->type->kind == BLOBC_KIND_OPTIONAL ? f->type->elem : f->type;
    bool list = own->kind == BLOBC_KIND_ARRAY || own->kind == BLOBC_KIND_FIXED;
    const blobc_type *each = list ? own->elem : own;
    if (each->kind == BLOBC_KIND_OPTIONAL) each = each->elem;
    cJSON *all = arr(w, o, "allOf");
    for (uint32_t i = 0; i < f->nchecks; i++) {
        const blobc_check *c = &f->checks[i];
        bool per_item = list && c->kind != BLOBC_CHECK_LEN && c->kind != BLOBC_CHECK_UNIQUE;
        if (c->kind == BLOBC_CHECK_MATCH && strstr(c->arg, "[:")) continue;
        cJSON *k = obj(w, all, NULL);
        if (per_item) k = obj(w, k, "items");
        bool f32 = each->kind == BLOBC_KIND_F32, flt = f32 || each->kind == BLOBC_KIND_F64;
        switch (c->kind) {
        case BLOBC_CHECK_RANGE:
            if (c->has_lo) put(w, k, "minimum", flt ? blobc_json_float(c->lo_f, false) : int_item(each->kind, c->lo));
            if (c->has_hi) put(w, k, "maximum", flt ? blobc_json_float(c->hi_f, false) : int_item(each->kind, c->hi));
            break;
        case BLOBC_CHECK_LEN: {
            const char *lo = own->kind == BLOBC_KIND_STRING ? "minLength"
                             : own->kind == BLOBC_KIND_MAP  ? "minProperties" : "minItems";
            const char *hi = own->kind == BLOBC_KIND_STRING ? "maxLength"
                             : own->kind == BLOBC_KIND_MAP  ? "maxProperties" : "maxItems";
            if (c->min) put(w, k, lo, blobc_json_u64(c->min));
            if (c->max != UINT32_MAX) put(w, k, hi, blobc_json_u64(c->max));
            break;
        }
        case BLOBC_CHECK_MATCH: text(w, k, "pattern", c->arg); break;
        case BLOBC_CHECK_PATH:
            if (c->ext) ending_pattern(w, k, c->ext);
            break;
        case BLOBC_CHECK_UNIQUE: put(w, k, "uniqueItems", cJSON_CreateTrue()); break;
        }
    }
}

/* Absent [T] and *T fields are empty and null; defaulted fields take the
 * default, and so do all-default structs. */
static bool required(const blobc_field *f) { return !blobc_field_optional(f); }

static void field_body(js *w, cJSON *o, const blobc_field *f) {
    if (f->doc) text(w, o, "description", f->doc);
    if (f->type->kind == BLOBC_KIND_UNION && f->def.present) {
        /* the only default of a union field: null, no member */
        cJSON *any = arr(w, o, "anyOf");
        null_type(w, any);
        ref_to(w, any, NULL, f->type->name);
    } else if (f->type->kind == BLOBC_KIND_PTR && f->def.present) {
        /* a reference's only default: null, no item */
        cJSON *any = arr(w, o, "anyOf");
        null_type(w, any);
        type_body(w, obj(w, any, NULL), f->type, 0);
    } else {
        type_body(w, o, f->type, 0);
    }
    if (f->def.present) put_default(w, o, f);
    put_checks(w, o, f);
}

/* The keywords of a struct's object; `top` adds the meta keys of the
 * top level (AUTHORING.md, "The top level"). */
static void struct_body(js *w, cJSON *o, const blobc_type *t, bool top) {
    text(w, o, "type", "object");
    cJSON *props = obj(w, o, "properties");
    if (top) {
        cJSON *sch = obj(w, props, "$schema");
        text(w, sch, "type", "string");
        text(w, sch, "description", "Path of the schema file, relative to this file.");
        text(w, obj(w, props, "$type"), "const", t->name);
    }
    for (uint32_t i = 0; i < t->nfields; i++) field_body(w, obj(w, props, t->fields[i].name), &t->fields[i]);
    if (t->ntags) { /* an item's $tags: one of @tags, or a list of them */
        cJSON *tags = obj(w, props, "$tags");
        text(w, tags, "description", "Tags of this item (@tags); bake --exclude-tags leaves "
                                     "items with an excluded one out.");
        cJSON *any = arr(w, tags, "anyOf"), *list = obj(w, any, NULL);
        put(w, obj(w, any, NULL), "enum", cJSON_CreateStringArray(t->tags, (int)t->ntags));
        text(w, list, "type", "array");
        put(w, obj(w, list, "items"), "enum", cJSON_CreateStringArray(t->tags, (int)t->ntags));
        put(w, list, "maxItems", cJSON_CreateNumber(BLOBC_MAX_TAGS));
    }
    cJSON *req = NULL;
    for (uint32_t i = 0; i < t->nfields; i++)
        if (required(&t->fields[i])) {
            if (!req) req = arr(w, o, "required");
            text(w, req, NULL, t->fields[i].name);
        }
    put(w, o, "additionalProperties", cJSON_CreateBool((t->flags & BLOBC_STRUCT_OPEN) != 0));
}

/* A member of a union tagged by a field: the member's own mapping plus
 * the tag field, so its keywords inline (a $ref to the member would
 * refuse the tag key); the tag required unless it names the default. */
static void tagged_member(js *w, cJSON *alt, const blobc_type *u, uint32_t m) {
    const blobc_field *mf = &u->fields[m];
    struct_body(w, alt, mf->type->elem, false);
    cJSON *props = cJSON_GetObjectItemCaseSensitive(alt, "properties");
    cJSON *tag = props ? cJSON_CreateObject() : NULL;
    if (!tag || !blobc_json_add(props, u->tag_field, tag)) {
        cJSON_Delete(tag);
        w->ok = false;
        return;
    }
    if (u->int_tags) put(w, tag, "const", blobc_json_i64((int64_t)mf->tag_value));
    else text(w, tag, "const", mf->tag ? mf->tag : "");
    if (u->default_member == m + 1) return;
    cJSON *req = cJSON_GetObjectItemCaseSensitive(alt, "required");
    if (!req) req = arr(w, alt, "required");
    if (req) text(w, req, NULL, u->tag_field);
}

/* A union value is a single-key object naming the member (AUTHORING.md),
 * or the member's mapping with its tag field, or with its YAML tag. */
static void union_body(js *w, cJSON *o, const blobc_type *t) {
    cJSON *one = arr(w, o, "oneOf");
    for (uint32_t i = 0; i < t->nfields; i++) {
        const blobc_field *m = &t->fields[i];
        cJSON *alt = obj(w, one, NULL);
        if (m->doc) text(w, alt, "description", m->doc);
        if (t->by == BLOBC_UNION_BY_FIELD && t->tag_field) {
            tagged_member(w, alt, t, i);
            continue;
        }
        if (t->by == BLOBC_UNION_BY_TAG) {
            /* the member is named by the node's YAML tag, which is not
             * part of the value a JSON Schema sees */
            ref(w, alt, m->type->elem->name);
            continue;
        }
        text(w, alt, "type", "object");
        ref_to(w, obj(w, alt, "properties"), m->name, m->type->elem->name);
        text(w, arr(w, alt, "required"), NULL, m->name);
        put(w, alt, "additionalProperties", cJSON_CreateFalse());
    }
}

static void enum_body(js *w, cJSON *o, const blobc_type *t) {
    cJSON *names = arr(w, o, "enum");
    for (uint32_t i = 0; i < t->nvalues; i++) text(w, names, NULL, t->values[i].name);
    /* Per-member docs, where any: JSON Schema has no place for them in
     * `enum`, so they go to a oneOf of consts alongside. */
    bool docs = false;
    for (uint32_t i = 0; i < t->nvalues && !docs; i++) docs = t->values[i].doc != NULL;
    if (!docs) return;
    cJSON *one = arr(w, o, "oneOf");
    for (uint32_t i = 0; i < t->nvalues; i++) {
        cJSON *c = obj(w, one, NULL);
        text(w, c, "const", t->values[i].name);
        if (t->values[i].doc) text(w, c, "description", t->values[i].doc);
    }
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
    js w = {true, false};
    cJSON *doc = cJSON_CreateObject();
    if (!doc) return blobc_err_nomem(err);
    text(&w, doc, "$schema", JS_DIALECT);
    const char *file = blobc_schema_filename(schema);
    char comment[600];
    snprintf(comment, sizeof comment, "Generated by blobc gen jsonschema from %s; do not edit.",
             file[0] ? file : "a schema");
    text(&w, doc, "$comment", comment);
    text(&w, doc, "title", root->name);
    if (root->doc) text(&w, doc, "description", root->doc);
    struct_body(&w, doc, root, true);
    cJSON *defs = obj(&w, doc, "$defs");
    for (size_t i = 0; i < blobc_schema_count(schema) && w.ok; i++) {
        const blobc_type *t = blobc_schema_at(schema, i);
        cJSON *d = obj(&w, defs, t->name);
        if (t->doc) text(&w, d, "description", t->doc);
        if (t->kind == BLOBC_KIND_STRUCT) struct_body(&w, d, t, false);
        else if (t->kind == BLOBC_KIND_UNION) union_body(&w, d, t);
        else enum_body(&w, d, t);
    }
    cJSON *yint = obj(&w, defs, YAML_INT);
    text(&w, yint, "type", "string");
    text(&w, yint, "pattern", YAML_INT_PATTERN);
    if (w.too_deep) {
        cJSON_Delete(doc);
        return blobc_err(err, BLOBC_EINPUT, "gen jsonschema: types nested too deeply");
    }
    return blobc_json_print(doc, w.ok, true, out, err);
}
