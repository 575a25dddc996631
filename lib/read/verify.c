/*
 * verify.c - blobc_verify_blob, blobc_verify_data and blobc_verify_file:
 * open the source (source.c: container, root type, layout hash), then
 * walk the data section in canonical order (walk_driver.c), then, when
 * asked, judge its values by the schema's checks (verify_checks.c); and
 * blobc_rt_open_checked, the checked open of generated headers.
 */
#include "read/source.h"
#include "read/verify_checks.h"
#include "read/walk.h"
#include "common/json_doc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bad arguments (a type the schema lacks, bytes missing) are the
 * caller's mistake, not bad input (blobc/error.h). */
#define usage(err, ...) blobc_err((err), BLOBC_EARG, __VA_ARGS__)

blobc_status blobc_verify_blob(const void *bytes, size_t len, const blobc_verify_options *opts,
                               blobc_error *err) {
    static const blobc_verify_options none;
    if (!opts) opts = &none;
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    blobc_source src;
    blobc_source_format fmt = {false, opts->unity};
    blobc_status st = blobc_source_open(&src, bytes, len, fmt, opts->schema, opts->type_name,
                                        opts->flags, err);
    if (st == BLOBC_OK) {
        blobc_walk w;
        blobc_walk_init(&w);
        w.end_align = src.end_align;
        w.any_order = src.is_unity;
        st = blobc_walk_run(&w, src.data, src.size, src.root, src.data_offset, err);
        blobc_walk_free(&w);
        /* sound, so judged by the schema's value checks when asked */
        if (st == BLOBC_OK && opts->schema && (opts->flags & BLOBC_VERIFY_CHECKS))
            st = blobc_verify_checks(src.data, src.root, src.data_offset, opts, err);
    }
    blobc_source_close(&src);
    return st;
}

blobc_status blobc_verify_data(const void *data, size_t len, const blobc_type *root,
                               blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!data && len) return usage(err, "no bytes given");
    if (!root) return usage(err, "no type to verify the data as");
    blobc_walk w;
    blobc_walk_init(&w);
    blobc_status st = blobc_walk_run(&w, data, len, root, 0, err);
    blobc_walk_free(&w);
    return st;
}

blobc_status blobc_verify_file(const char *path, const blobc_verify_options *opts,
                               blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!path) return blobc_err_arg(err, __func__, "path is NULL");
    blobc_file_view v;
    /* From a pipe: up to the size the header records, within --max-input. */
    blobc_read_options ro = {opts ? opts->max_input : 0, true, NULL, 0, false};
    blobc_status st = blobc_file_map_ex(path, &ro, &v, err);
    if (st == BLOBC_OK) st = blobc_verify_blob(v.data, v.len, opts, err);
    blobc_file_unmap(&v);
    if (st != BLOBC_OK && err && !err->file[0]) blobc_err_file(err, path);
    return st;
}

blobc_status blobc_rt_open_checked(const void *buf, size_t len, const char *schema_text,
                                   size_t text_len, const char *type_name,
                                   uint64_t expected_schema_hash, size_t root_size,
                                   blobc_rt_view *out, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    blobc_error_clear(err);
    if (!buf || !schema_text || !type_name || !out)
        return blobc_err_arg(err, __func__, "buf, schema_text, type_name or out is NULL");
    blobc_schema *schema = NULL;
    blobc_status st = blobc_schema_parse(schema_text, text_len, "(generated header)", &schema, err);
    if (st != BLOBC_OK) return st;
    const blobc_type *type = blobc_schema_find(schema, type_name);
    const char *msg = NULL;
    if (!type || blobc_type_hash(type) != expected_schema_hash) {
        msg = "the generated header's schema text does not match its structs";
    } else {
        blobc_verify_options options = {0};
        options.schema = schema;
        options.type_name = type_name;
        st = blobc_verify_blob(buf, len, &options, err);
    }
    blobc_schema_free(schema);
    if (st != BLOBC_OK) return st;
    blobc_rt_status rt = BLOBC_RT_OK;
    if (!msg) {
        rt = blobc_rt_open(buf, len, expected_schema_hash, root_size, out);
        if (rt == BLOBC_RT_OK) return BLOBC_OK;
        msg = blobc_rt_status_message(rt);
    }
    blobc_error_clear(err);
    err->code = (int)rt;
    return blobc_err(err, BLOBC_EINPUT, "%s", msg);
}

/* A string member whose text may hold any bytes (a file name, a message
 * quoting one). */
static bool add_text(cJSON *o, const char *name, const char *s) {
    return blobc_json_add(o, name, blobc_json_text(s, strlen(s)));
}

/* The error of a file that failed: its code's name, offset, path, message. */
static bool add_error(cJSON *errors, const blobc_error *r) {
    cJSON *e = blobc_json_add_object(errors, NULL);
    const char *code = r->code ? blobc_verify_code_name(r->code)
                               : r->status == BLOBC_EINPUT ? "invalid" : "io";
    return e && cJSON_AddStringToObject(e, "code", code) &&
           blobc_json_add(e, "offset", r->has_offset ? blobc_json_u64(r->offset) : cJSON_CreateNull()) &&
           add_text(e, "path", r->path) && add_text(e, "message", r->message);
}

blobc_status blobc_verify_report_json(const char *file, const blobc_error *result,
                                      blobc_buffer *out, blobc_error *err) {
    bool failed = result && result->status != BLOBC_OK;
    return blobc_verify_report_json_errors(file, failed ? result : NULL, failed, out, err);
}

blobc_status blobc_verify_report_json_errors(const char *file, const blobc_error *errors, size_t n,
                                             blobc_buffer *out, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!file || !out || (n && !errors)) return blobc_err_arg(err, __func__, "file, out or errors is NULL");
    cJSON *doc = cJSON_CreateObject(), *list;
    bool ok = doc && add_text(doc, "file", file) && cJSON_AddBoolToObject(doc, "ok", n == 0) &&
              (list = cJSON_AddArrayToObject(doc, "errors"));
    for (size_t i = 0; ok && i < n; i++) ok = add_error(list, &errors[i]);
    return blobc_json_print(doc, ok, false, out, err);
}
