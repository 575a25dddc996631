/*
 * filemap.c - whole-file reads that map a regular file instead of copying
 * it: a pass over a large input (hashing it, verifying it) then costs no
 * copy and no page clearing. Anything else (standard input, pipes, empty
 * files, a failed mmap) is read into memory as blobc_read_file_ex does,
 * within its limits.
 */
/* MAP_POPULATE is a Linux extension, outside the POSIX names the build
 * asks for. */
#define _DEFAULT_SOURCE 1

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blobc/blobfile.h"
#include "common/util.h"

blobc_status blobc_file_map(const char *path, blobc_file_view *view, blobc_error *err) {
    return blobc_file_map_ex(path, NULL, view, err);
}

blobc_status blobc_file_map_ex(const char *path, const blobc_read_options *opts,
                               blobc_file_view *view, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!path || !view) return blobc_err_arg(err, __func__, "path or view is NULL");
    memset(view, 0, sizeof *view);
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
            view->data = p;
            view->len = len;
            view->mapped = true;
            return BLOBC_OK;
        }
    } else if (fd >= 0) {
        close(fd);
    }
    uint8_t *bytes = NULL;
    size_t len = 0;
    blobc_status st = blobc_read_file_ex(path, opts, &bytes, &len, err);
    if (st == BLOBC_OK) {
        view->data = bytes;
        view->len = len;
    }
    return st;
}

void blobc_file_unmap(blobc_file_view *view) {
    if (!view || !view->data) return;
    if (view->mapped) munmap((void *)view->data, view->len);
    else free((void *)view->data);
    memset(view, 0, sizeof *view);
}
