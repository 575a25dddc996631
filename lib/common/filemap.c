/*
 * filemap.c - whole-file reads that map a regular file instead of copying
 * it: a pass over a large input (hashing it, verifying it) then costs no
 * copy and no page clearing. Anything else (standard input, pipes, empty
 * files, a failed mmap) is read into memory as blobc_read_file_ex does,
 * within its limits.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobfile.h"
#include "common/err.h"
#include "common/fileio.h"
#include "platform/platform.h"

blobc_status blobc_file_map(const char *path, blobc_file_view *view, blobc_error *err) {
    return blobc_file_map_ex(path, NULL, view, err);
}

blobc_status blobc_file_map_ex(const char *path, const blobc_read_options *opts,
                               blobc_file_view *view, blobc_error *err) {
    return blobc_file_map_keep(path, opts, view, NULL, err);
}

blobc_status blobc_file_map_keep(const char *path, const blobc_read_options *opts,
                                 blobc_file_view *view, blobc_os_fd *keep, blobc_error *err) {
    blobc_error scratch;
    if (keep) *keep = BLOBC_OS_NO_FD;
    err = blobc_err_or(err, &scratch);
    if (!path || !view) return blobc_err_arg(err, __func__, "path or view is NULL");
    memset(view, 0, sizeof *view);
    blobc_os_fd fd = BLOBC_OS_NO_FD;
    blobc_os_kind kind;
    int oe = strcmp(path, "-") == 0 ? ENOENT
             : opts && opts->regular ? blobc_os_open_regular(path, &fd, &kind)
                                     : blobc_os_open_read(path, &fd);
    bool opened = oe == 0 && fd != BLOBC_OS_NO_FD; /* else the read below says why */
    blobc_os_info sb;
    if (opened && blobc_os_fstat(fd, &sb) == 0 && sb.kind == BLOBC_OS_REGULAR && sb.size > 0 &&
        sb.size < SIZE_MAX) {
        size_t len = (size_t)sb.size;
        const void *p = blobc_os_map_file(fd, len);
        if (p && keep) *keep = fd;
        else blobc_os_close(fd);
        if (p) {
            view->data = p;
            view->len = len;
            view->mapped = true;
            return BLOBC_OK;
        }
    } else if (opened) {
        blobc_os_close(fd);
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
    if (view->mapped) blobc_os_unmap_file(view->data, view->len);
    else free((void *)view->data);
    memset(view, 0, sizeof *view);
}
