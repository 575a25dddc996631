/*
 * load.c - a schema from a file: read as the options say (a size limit
 * for pipes, only regular files), parsed, its imports read the same way.
 */
#include <stdlib.h>

#include "schema/schema_internal.h"

blobc_status blobc_schema_load(const char *path, blobc_schema **out, blobc_error *err) {
    return blobc_schema_load_ex(path, NULL, out, err);
}

blobc_status blobc_schema_load_limited(const char *path, uint64_t max_input, blobc_schema **out,
                                       blobc_error *err) {
    blobc_schema_load_options lo = {max_input, false, NULL, NULL};
    return blobc_schema_load_ex(path, &lo, out, err);
}

blobc_status blobc_schema_load_ex(const char *path, const blobc_schema_load_options *opts,
                                  blobc_schema **out, blobc_error *err) {
    uint8_t *data = NULL;
    size_t len = 0;
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!path || !out) return blobc_err_arg(err, __func__, "path or out is NULL");
    *out = NULL;
    blobc_status st = blobc_schema_read(path, opts, &data, &len, err);
    if (st != BLOBC_OK) return st;
    st = blobc_schema_parse_with((const char *)data, len, path, opts, out, err);
    free(data);
    return st;
}
