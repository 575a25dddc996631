/*
 * verify.c - blobc_verify_blob and blobc_verify_data: open the container
 * (header, hashes, type section: blobfile.c), pick the type to read the
 * data as and check it against the header's layout hash, then walk the
 * data section in canonical order (walk.c). The opening step is shared
 * with dump, which verifies everything it prints.
 */
/* MAP_POPULATE is a Linux extension, outside the POSIX names the build
 * asks for. */
#define _DEFAULT_SOURCE 1

#include "read/walk.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Byte offset of schema_hash in the header (docs/FORMAT.md, "Header"). */
#define HEADER_SCHEMA_HASH_AT 40u

void blobc_source_close(blobc_source *src) {
    if (src->is_blob) blobc_blob_close(&src->blob);
    memset(src, 0, sizeof *src);
}

/* Bad arguments are usage errors (exit 2), not bad input. */
#define usage(err, ...) blobc_err((err), BLOBC_EIO, __VA_ARGS__)

blobc_status blobc_source_open(blobc_source *src, const void *bytes, size_t len, bool raw,
                               const blobc_schema *schema, const char *type_name, unsigned flags,
                               blobc_error *err) {
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
    if (raw) {
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
            blobc_err_offset(err, HEADER_SCHEMA_HASH_AT);
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
            blobc_err_offset(err, HEADER_SCHEMA_HASH_AT);
            return BLOBC_EINPUT;
        }
    }
    src->root = src->blob.root;
    return BLOBC_OK;
}

blobc_status blobc_verify_blob(const void *bytes, size_t len, const blobc_verify_options *opts,
                               blobc_error *err) {
    static const blobc_verify_options none;
    if (!opts) opts = &none;
    blobc_source src;
    blobc_status st = blobc_source_open(&src, bytes, len, false, opts->schema, opts->type_name,
                                        opts->flags, err);
    if (st == BLOBC_OK) {
        blobc_walk w;
        blobc_walk_init(&w);
        st = blobc_walk_run(&w, src.data, src.size, src.root, src.data_offset, err);
        blobc_walk_free(&w);
    }
    blobc_source_close(&src);
    return st;
}

blobc_status blobc_verify_data(const void *data, size_t len, const blobc_type *root,
                               blobc_error *err) {
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
    blobc_status st;
    int fd = strcmp(path, "-") == 0 ? -1 : open(path, O_RDONLY);
    struct stat sb;
    if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
        (uintmax_t)sb.st_size < SIZE_MAX) {
        size_t len = (size_t)sb.st_size;
        int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
        flags |= MAP_POPULATE; /* one call instead of a fault per page */
#endif
        void *p = mmap(NULL, len, PROT_READ, flags, fd, 0);
        close(fd);
        if (p != MAP_FAILED) {
            st = blobc_verify_blob(p, len, opts, err);
            munmap(p, len);
            if (st != BLOBC_OK && err && !err->file[0]) blobc_err_file(err, path);
            return st;
        }
    } else if (fd >= 0) {
        close(fd);
    }
    /* standard input, pipes, empty files, or no mmap: read it */
    uint8_t *bytes = NULL;
    size_t len = 0;
    blobc_read_options ro = {opts ? opts->max_input : 0, true, NULL};
    st = blobc_read_file_ex(path, &ro, &bytes, &len, err);
    if (st == BLOBC_OK) st = blobc_verify_blob(bytes, len, opts, err);
    free(bytes);
    if (st != BLOBC_OK && err && !err->file[0]) blobc_err_file(err, path);
    return st;
}
