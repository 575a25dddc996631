/*
 * verify.c - blobc_verify_blob, blobc_verify_data and blobc_verify_file:
 * open the source (source.c: container, root type, layout hash), then
 * walk the data section in canonical order (walk.c).
 */
/* MAP_POPULATE is a Linux extension, outside the POSIX names the build
 * asks for. */
#define _DEFAULT_SOURCE 1

#include "read/source.h"
#include "read/walk.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
