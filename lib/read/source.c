/*
 * source.c - what verify and dump both start from: a .blob opened (header,
 * hashes, type section: blob/container.c) or a raw data section, the root
 * type to read it as, and that type checked against the header's layout
 * hash.
 */
#include "read/source.h"

#include "blobc/unity.h"

#include <inttypes.h>

void blobc_source_close(blobc_source *src) {
    if (src->is_blob) blobc_blob_close(&src->blob);
    memset(src, 0, sizeof *src);
}

/* Bad arguments (a type the schema lacks, bytes missing) are the
 * caller's mistake, not bad input (blobc/error.h). */
#define usage(err, ...) blobc_err((err), BLOBC_EARG, __VA_ARGS__)

/* A Unity file carries no types: the schema names the root, the data is
 * walked as it is, up to the zero padding Entities 0.50 adds at the end. */
static blobc_status open_unity(blobc_source *src, const void *bytes, size_t len,
                               const blobc_unity_options *opts, const blobc_type *want,
                               blobc_error *err) {
    blobc_unity_header hd;
    src->is_unity = true;
    blobc_status st = blobc_unity_open(bytes, len, opts, &hd, &src->data, &src->size, err);
    if (st) return st;
    if (!want) {
        blobc_err(err, BLOBC_EINPUT,
                  "a Unity blob asset file has no type description; give its schema with -s");
        if (err) err->code = BLOBC_V_NO_TYPES;
        return BLOBC_EINPUT;
    }
    src->data_offset = BLOBC_UNITY_DATA_OFFSET;
    if (!opts || opts->length != BLOBC_UNITY_LENGTH_EXACT) src->end_align = 16;
    src->root = want;
    return BLOBC_OK;
}

blobc_status blobc_source_open(blobc_source *src, const void *bytes, size_t len,
                               blobc_source_format fmt, const blobc_schema *schema,
                               const char *type_name, unsigned flags, blobc_error *err) {
    memset(src, 0, sizeof *src);
    if (!bytes && len) return usage(err, "no bytes given");
    const blobc_type *want = NULL;
    if (schema) {
        want = type_name ? blobc_schema_find(schema, type_name) : blobc_schema_root(schema);
        if (!want && type_name) return usage(err, "the schema has no type named '%s'", type_name);
        if (!want) return usage(err, "the schema has no root declaration; name a type");
        if (want->kind != BLOBC_KIND_STRUCT)
            return usage(err, "'%s' is not a struct; the root of a blob is a struct",
                         want->name ? want->name : "?");
    } else if (type_name) {
        return usage(err, "a type name (%s) needs a schema", type_name);
    }
    if (fmt.unity || (!fmt.raw && blobc_unity_detect(bytes, len)))
        return open_unity(src, bytes, len, fmt.unity, want, err);
    if (fmt.raw) {
        if (!want) return usage(err, "a raw data section needs a schema");
        src->data = bytes;
        src->size = len;
        src->root = want;
        return BLOBC_OK;
    }
    unsigned oflags = (flags & BLOBC_VERIFY_NO_HASH) ? BLOBC_OPEN_NO_HASH : 0;
    blobc_status st = blobc_blob_open(bytes, len, oflags, &src->blob, err);
    if (st != BLOBC_OK) {
        memset(&src->blob, 0, sizeof src->blob);
        if (err && err->code == BLOBC_V_BAD_MAGIC && blobc_unity_resembles(bytes, len))
            blobc_err_verify(err, BLOBC_V_BAD_MAGIC, 0,
                             "not a blob file (bad magic number); its header looks like a "
                             "Unity blob asset's, but its Length or Hash does not match: "
                             "try --format unity");
        return st;
    }
    src->is_blob = true;
    src->data = src->blob.data;
    src->size = src->blob.data_size;
    src->data_offset = src->blob.header.data_offset;
    src->schema_name = src->blob.schema_name;
    uint64_t have = src->blob.header.schema_hash;
    if (want) {
        uint64_t h = blobc_type_hash(want);
        if (h != have) {
            blobc_err(err, BLOBC_EINPUT,
                      "the blob's layout hash 0x%016" PRIx64 " differs from %s's in the schema "
                      "(0x%016" PRIx64 "): it was baked with another layout",
                      have, want->name ? want->name : "the root", h);
            err->code = BLOBC_V_SCHEMA_HASH;
            blobc_err_offset(err, BLOBC_RT_H_SCHEMA_HASH);
            return BLOBC_EINPUT;
        }
        src->root = want;
        return BLOBC_OK;
    }
    if (!src->blob.root) {
        blobc_err(err, BLOBC_EINPUT,
                  "the blob is stripped (no type description); give its schema with -s");
        err->code = BLOBC_V_NO_TYPES;
        return BLOBC_EINPUT;
    }
    if (!(flags & BLOBC_VERIFY_NO_HASH)) {
        uint64_t h = blobc_type_hash(src->blob.root);
        if (h != have) {
            blobc_err(err, BLOBC_EINPUT,
                      "the embedded type description hashes to 0x%016" PRIx64
                      ", the header says 0x%016" PRIx64,
                      h, have);
            err->code = BLOBC_V_SCHEMA_HASH;
            blobc_err_offset(err, BLOBC_RT_H_SCHEMA_HASH);
            return BLOBC_EINPUT;
        }
    }
    src->root = src->blob.root;
    return BLOBC_OK;
}

