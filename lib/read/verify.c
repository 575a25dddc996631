/*
 * verify.c - blobc_verify_blob, blobc_verify_data and blobc_verify_file:
 * open the source (source.c: container, root type, layout hash), then
 * walk the data section in canonical order (walk_driver.c).
 */
#include "read/source.h"
#include "read/walk.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

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
    blobc_read_options ro = {opts ? opts->max_input : 0, true, NULL};
    blobc_status st = blobc_file_map_ex(path, &ro, &v, err);
    if (st == BLOBC_OK) st = blobc_verify_blob(v.data, v.len, opts, err);
    blobc_file_unmap(&v);
    if (st != BLOBC_OK && err && !err->file[0]) blobc_err_file(err, path);
    return st;
}
