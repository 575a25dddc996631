/*
 * upgrade.c - carries a blob over to a new version of its schema by field
 * name. The old blob is dumped in memory (YAML: shared payloads stay
 * shared) and the text baked with the new schema, so the result is by
 * construction what baking the old data with the new schema gives; the
 * baker range-checks every converted value and names its path. Before
 * that, compat.c's paired walk decides what may carry over. Fields the new
 * schema dropped (--drop) are cut out of a JSON dump instead, the one
 * format simple enough to edit exactly (docs/SCHEMA.md, "blobc upgrade").
 */
#include <stdio.h>
#include <stdlib.h>

#include "blobc/bake.h"
#include "blobc/dump.h"
#include "common/util.h"
#include "evolve/evolve_internal.h"

/* Deepest JSON nesting the filter follows: what bake's JSON reader takes. */
#define JF_MAX_DEPTH 1000

/* ---- cutting dropped fields out of a JSON dump ---- */

typedef struct jf {
    const char *t;
    size_t n, i;
    blobc_buffer *out;
    const upgrade_plan *plan;
    int depth;
    bool ok, too_deep;
} jf;

static void ws(jf *f) {
    while (f->i < f->n && (f->t[f->i] == ' ' || f->t[f->i] == '\n' || f->t[f->i] == '\t' ||
                           f->t[f->i] == '\r'))
        f->i++;
}

static void emit(jf *f, size_t from, size_t to) {
    if (f->ok) f->ok = blobc_buf_append(f->out, f->t + from, to - from);
}

/* Steps over a string (f->i on its quote). */
static void skip_string(jf *f) {
    for (f->i++; f->i < f->n && f->t[f->i] != '"'; f->i++)
        if (f->t[f->i] == '\\') f->i++;
    f->i++;
}

/* Steps over any value; the dump wrote valid JSON, so this only has to
 * find its end. */
static void skip_value(jf *f) {
    ws(f);
    if (f->i >= f->n) return;
    char c = f->t[f->i];
    if (c == '"') return skip_string(f);
    if (c != '{' && c != '[') {
        while (f->i < f->n && !strchr(",]} \n\t\r", f->t[f->i])) f->i++;
        return;
    }
    int level = 0;
    do {
        char d = f->t[f->i];
        if (d == '"') {
            skip_string(f);
            continue;
        }
        if (d == '{' || d == '[') level++;
        if (d == '}' || d == ']') level--;
        f->i++;
    } while (level > 0 && f->i < f->n);
}

static bool dropped(const upgrade_plan *plan, const blobc_field *fd) {
    for (size_t k = 0; k < plan->ndropped; k++)
        if (plan->dropped[k] == fd) return true;
    return false;
}

static void copy_value(jf *f, const blobc_type *t);

/* An object of struct t, without the members of dropped fields. */
static void copy_object(jf *f, const blobc_type *t) {
    emit(f, f->i, f->i + 1);
    f->i++;
    bool first = true;
    for (;;) {
        ws(f);
        if (f->i >= f->n || f->t[f->i] == '}') break;
        if (f->t[f->i] == ',') {
            f->i++;
            continue;
        }
        size_t key = f->i;
        skip_string(f);
        size_t key_end = f->i;
        ws(f);
        f->i++; /* ':' */
        const blobc_field *fd = blobc_struct_find_field(t, f->t + key + 1, key_end - key - 2);
        if (fd && dropped(f->plan, fd)) {
            skip_value(f);
            continue;
        }
        if (!first && f->ok) f->ok = blobc_buf_putc(f->out, ',');
        first = false;
        emit(f, key, key_end);
        if (f->ok) f->ok = blobc_buf_putc(f->out, ':');
        if (fd) copy_value(f, fd->type);
        else {
            ws(f);
            size_t v = f->i;
            skip_value(f);
            emit(f, v, f->i);
        }
    }
    emit(f, f->i, f->i + 1);
    f->i++;
}

static void copy_value(jf *f, const blobc_type *t) {
    ws(f);
    if (f->i >= f->n) return;
    while (t->kind == BLOBC_KIND_PTR) t = t->elem;
    char c = f->t[f->i];
    /* a union is a single-key object naming the member: its *Struct field */
    bool obj = c == '{' && (t->kind == BLOBC_KIND_STRUCT || t->kind == BLOBC_KIND_UNION);
    bool arr = c == '[' && (t->kind == BLOBC_KIND_ARRAY || t->kind == BLOBC_KIND_FIXED);
    if (!obj && !arr) {
        size_t v = f->i;
        skip_value(f);
        emit(f, v, f->i);
        return;
    }
    if (++f->depth > JF_MAX_DEPTH) {
        f->too_deep = true;
        f->ok = false;
        return;
    }
    if (obj) {
        copy_object(f, t);
    } else {
        emit(f, f->i, f->i + 1);
        f->i++;
        for (bool first = true;; first = false) {
            ws(f);
            if (f->i >= f->n || f->t[f->i] == ']') break;
            if (f->t[f->i] == ',') f->i++;
            if (!first && f->ok) f->ok = blobc_buf_putc(f->out, ',');
            copy_value(f, t->elem);
        }
        emit(f, f->i, f->i + 1);
        f->i++;
    }
    f->depth--;
}

/* ---- the upgrade ---- */

/* The old blob's root type and (when it comes from `from`) the dump's schema. */
static blobc_status old_root_of(const void *bytes, size_t len, const blobc_upgrade_options *o,
                                blobc_blob *blob, const blobc_type **root, blobc_error *err) {
    if (o->from) {
        *root = o->type_name ? blobc_schema_find(o->from, o->type_name) : blobc_schema_root(o->from);
        if (!*root || (*root)->kind != BLOBC_KIND_STRUCT)
            return blobc_err(err, BLOBC_EINPUT, "the old schema has no struct %s",
                             o->type_name ? o->type_name : "root");
        return BLOBC_OK;
    }
    if (blobc_blob_open(bytes, len, 0, blob, err)) return err->status;
    if (!blob->types)
        return blobc_err(err, BLOBC_EINPUT,
                         "the blob is stripped (no embedded type description): give its schema "
                         "with --from");
    *root = blob->root;
    return BLOBC_OK;
}

blobc_status blobc_upgrade(const void *bytes, size_t len, const blobc_upgrade_options *o,
                           blobc_buffer *out, blobc_error *err) {
    if (!bytes || !o || !o->schema || !out)
        return blobc_err_arg(err, __func__, "bytes, opts, opts->schema or out is NULL");
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    const blobc_type *new_root =
        o->type_name ? blobc_schema_find(o->schema, o->type_name) : blobc_schema_root(o->schema);
    if (!new_root || new_root->kind != BLOBC_KIND_STRUCT)
        return blobc_err(err, BLOBC_EINPUT, "the new schema has no struct %s",
                         o->type_name ? o->type_name : "root (name the type with -t)");
    blobc_blob blob;
    memset(&blob, 0, sizeof blob);
    const blobc_type *old_root = NULL;
    upgrade_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.drop = o->drop;
    blobc_buffer text = {0}, cut = {0};
    blobc_status st = old_root_of(bytes, len, o, &blob, &old_root, err);
    if (st == BLOBC_OK) st = blobc_upgrade_plan(old_root, new_root, &plan, err);
    if (st == BLOBC_OK) {
        blobc_dump_options d = {0};
        d.format = plan.ndropped ? BLOBC_DUMP_JSON : BLOBC_DUMP_YAML;
        d.schema = o->from;
        d.type_name = o->from ? old_root->name : NULL;
        /* a schema decoded from a blob has no file name: the old blob's
         * recorded name stays */
        const char *file = blobc_schema_filename(o->schema);
        d.schema_name = o->schema_name ? o->schema_name : file[0] ? file : NULL;
        st = blobc_dump(bytes, len, &d, &text, err);
    }
    const blobc_buffer *src = &text;
    if (st == BLOBC_OK && plan.ndropped) {
        jf f = {(const char *)text.data, text.len, 0, &cut, &plan, 0, true, false};
        copy_value(&f, old_root);
        if (f.too_deep)
            st = blobc_err(err, BLOBC_EINPUT,
                           "the data nests deeper than %d levels, too deep to drop fields "
                           "through JSON", JF_MAX_DEPTH);
        else if (!f.ok)
            st = blobc_err_nomem(err);
        src = &cut;
    }
    if (st == BLOBC_OK) {
        blobc_bake_options b = {0};
        b.schema = o->schema;
        b.type_name = new_root->name;
        b.input = plan.ndropped ? BLOBC_INPUT_JSON : BLOBC_INPUT_YAML;
        b.strip = o->strip;
        b.one_thread = true;
        st = blobc_bake_memory((const char *)src->data, src->len, "", &b, out, err);
        /* Positions in the text made in memory mean nothing to the user;
         * the path names the value. */
        if (st != BLOBC_OK) {
            err->line = err->column = 0;
            err->source_line[0] = '\0';
            err->file[0] = '\0';
        }
    }
    blobc_buffer_free(&text);
    blobc_buffer_free(&cut);
    free(plan.dropped);
    blobc_blob_close(&blob);
    return st;
}
