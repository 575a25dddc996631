/*
 * upgrade.c - carries a blob over to a new version of its schema by field
 * name: the old blob's value stream (read/walk_stream.c) goes through a filter
 * that leaves out dropped fields and straight into the fill stack of a
 * bake with the new schema (bake/stream_fill.c). The fill stack converts
 * each value by the bake's own rules and names the path of a value that
 * does not fit, so the result is what baking the old values, written out,
 * with the new schema gives; payloads the old blob shared stay shared.
 * Before that, compat.c's paired walk decides what may carry over
 * (docs/SCHEMA.md, "blobc upgrade").
 */
#include <stdlib.h>

#include "common/stream.h"
#include "common/buffer.h"
#include "common/err.h"
#include "evolve/evolve_internal.h"

/* ---- the filter between the old stream and the new fill ---- */

typedef struct xform {
    blobc_rstream *rs;
    const upgrade_plan *plan;
    uint8_t *given;       /* per share id: its payload went through */
    size_t ngiven, cap;
} xform;

static bool dropped(const upgrade_plan *plan, const blobc_field *fd) {
    for (size_t k = 0; k < plan->ndropped; k++)
        if (plan->dropped[k] == fd) return true;
    return false;
}

/* Steps over the value that follows a dropped field's key. */
static blobc_status skip_value(xform *x) {
    size_t depth = 0;
    for (;;) {
        blobc_value_event ev;
        blobc_status st = blobc_rstream_next(x->rs, &ev);
        if (st) return st;
        if (ev.kind == BLOBC_EV_BEGIN_STRUCT || ev.kind == BLOBC_EV_BEGIN_SEQ) depth++;
        else if (ev.kind == BLOBC_EV_END_STRUCT || ev.kind == BLOBC_EV_END_SEQ) depth--;
        else if (ev.kind == BLOBC_EV_END) return BLOBC_EINPUT;
        if (depth == 0 && ev.kind != BLOBC_EV_PTR) return BLOBC_OK;
    }
}

static bool was_given(const xform *x, uint32_t id) { return id < x->ngiven && x->given[id]; }

static blobc_status give(xform *x, uint32_t id) {
    if (id >= x->ngiven) {
        size_t n = (size_t)id + 1;
        if (!blobc_grow((void **)&x->given, &x->cap, n, 1)) return BLOBC_ENOMEM;
        memset(x->given + x->ngiven, 0, n - x->ngiven);
        x->ngiven = n;
    }
    x->given[id] = 1;
    return BLOBC_OK;
}

/* A blobc_stream_pull: the old stream without the dropped fields. A
 * payload whose first appearance was inside a dropped value is given in
 * full where it is next used, so it stays shared among the uses kept. */
static blobc_status xform_pull(void *ctx, blobc_value_event *ev) {
    xform *x = ctx;
    for (;;) {
        blobc_status st = blobc_rstream_next(x->rs, ev);
        if (st) return st;
        if (ev->kind == BLOBC_EV_FIELD && x->plan->ndropped && dropped(x->plan, ev->field)) {
            if ((st = skip_value(x))) return st;
            continue;
        }
        if (ev->kind == BLOBC_EV_REF) {
            if (was_given(x, ev->share)) return BLOBC_OK;
            if ((st = blobc_rstream_expand(x->rs))) return st;
            continue;
        }
        return ev->share ? give(x, ev->share) : BLOBC_OK;
    }
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
    xform x = {NULL, &plan, NULL, 0, 0};
    blobc_status st = old_root_of(bytes, len, o, &blob, &old_root, err);
    /* the stream's own types: its fields are the ones the plan names */
    if (st == BLOBC_OK)
        st = blobc_rstream_open(bytes, len, o->from, o->from ? old_root->name : NULL, &x.rs, err);
    /* a schema decoded from a blob has no file name: then the old blob's
     * recorded name stays (upgrade to a blob's own types is the identity) */
    const char *name = o->schema_name ? o->schema_name : blobc_schema_filename(o->schema);
    char *kept = NULL;
    if (st == BLOBC_OK && !name[0] && blob.schema_name && !(kept = strdup(blob.schema_name)))
        st = blobc_err_nomem(err);
    if (!name[0]) name = kept;
    blobc_blob_close(&blob);
    if (st == BLOBC_OK) st = blobc_upgrade_plan(blobc_rstream_root(x.rs), new_root, &plan, err);
    if (st == BLOBC_OK) {
        blobc_bake_options b = {0};
        b.schema = o->schema;
        b.type_name = new_root->name;
        b.strip = o->strip;
        b.one_thread = true;
        st = blobc_bake_stream(xform_pull, &x, &b, "", name, out, err);
        /* the path names the value; there is no text to point into */
        if (st != BLOBC_OK) {
            err->line = err->column = 0;
            err->source_line[0] = '\0';
            err->file[0] = '\0';
        }
    }
    blobc_rstream_free(x.rs);
    free(kept);
    free(x.given);
    free(plan.dropped);
    return st;
}
