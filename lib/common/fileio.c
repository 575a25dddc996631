/*
 * fileio.c - whole-file reads into 16-byte aligned memory (so a blob can
 * be read in place with aligned loads) and all-or-nothing writes.
 *
 * Writes go to a temporary file next to the destination, renamed over it
 * only once every byte was written and the file closed without error:
 * other processes see either the old file or the complete new one, and a
 * failed bake leaves nothing behind. The file is not fsync'ed: outputs are
 * build artifacts that can be regenerated, durability across a power loss
 * is not worth a disk flush per file in a parallel build, and the rename
 * already gives atomicity with respect to every other process.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blobc/blobfile.h"
#include "common/util.h"

static blobc_status io_error(blobc_error *err, const char *what, const char *path, int e) {
    if (strcmp(path, "-") == 0) {
        blobc_err_file(err, "<stdin>");
        return blobc_err(err, BLOBC_EIO, "cannot %s standard input: %s", what, strerror(e));
    }
    blobc_err_file(err, path);
    return blobc_err(err, BLOBC_EIO, "cannot %s '%s': %s", what, path, strerror(e));
}

/* Reads everything from fd into a 16-byte aligned buffer. `hint` is the
 * expected size (0 when unknown); the buffer grows past it if the file did. */
static int read_all(int fd, size_t hint, uint8_t **data, size_t *len) {
    size_t cap = hint ? hint + 1 : 64 * 1024, n = 0;
    void *buf = NULL;
    if (posix_memalign(&buf, 16, cap) != 0) return ENOMEM;
    for (;;) {
        if (n == cap) {
            size_t ncap;
            void *nb = NULL;
            if (!blobc_mul_ok(cap, 2, &ncap) || posix_memalign(&nb, 16, ncap) != 0) {
                free(buf);
                return ENOMEM;
            }
            memcpy(nb, buf, n);
            free(buf);
            buf = nb;
            cap = ncap;
        }
        ssize_t r = read(fd, (uint8_t *)buf + n, cap - n);
        if (r < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            free(buf);
            return e;
        }
        if (r == 0) break;
        n += (size_t)r;
    }
    *data = buf;
    *len = n;
    return 0;
}

blobc_status blobc_read_file(const char *path, uint8_t **data, size_t *len, blobc_error *err) {
    *data = NULL;
    *len = 0;
    bool is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY);
    if (fd < 0) return io_error(err, "open", path, errno);
    size_t hint = 0;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uintmax_t)st.st_size < SIZE_MAX)
        hint = (size_t)st.st_size;
    int e = read_all(fd, hint, data, len);
    if (!is_stdin) close(fd);
    if (e == ENOMEM) return blobc_err_nomem(err);
    if (e) return io_error(err, "read", path, e);
    return BLOBC_OK;
}

static int write_all(int fd, const uint8_t *p, size_t n) {
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The mode a plain open(path, O_CREAT|O_TRUNC, 0666) would leave: the
 * existing file's permissions when it is replaced, else 0666 minus the
 * umask (which can only be read by setting it, so it is put right back). */
static mode_t target_mode(const char *path) {
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) return st.st_mode & 07777;
    mode_t mask = umask(022);
    umask(mask);
    return 0666 & ~mask;
}

blobc_status blobc_write_file_atomic(const char *path, const void *data, size_t len,
                                     blobc_error *err) {
    if (strcmp(path, "-") == 0) {
        int e = write_all(STDOUT_FILENO, data, len);
        if (e) {
            blobc_err_file(err, "<stdout>");
            return blobc_err(err, BLOBC_EIO, "cannot write to standard output: %s",
                             strerror(e));
        }
        return BLOBC_OK;
    }
    /* "dir/.name.XXXXXX": in the same directory, so the rename cannot
     * cross file systems; hidden and without the destination's extension,
     * so a concurrent glob over the directory's blobs never sees it. */
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    size_t plen = strlen(path), tlen;
    if (!blobc_add_ok(plen, 9, &tlen)) return blobc_err_nomem(err);
    char *tmp = malloc(tlen);
    if (!tmp) return blobc_err_nomem(err);
    snprintf(tmp, tlen, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return io_error(err, "create", path, e);
    }
    int e = write_all(fd, data, len);
    const char *what = "write";
    /* Best effort: some file systems have no permission bits to set. */
    if (!e) (void)fchmod(fd, target_mode(path));
    if (close(fd) != 0 && !e) e = errno;
    if (!e && rename(tmp, path) != 0) {
        e = errno;
        what = "replace";
    }
    if (e) {
        unlink(tmp);
        free(tmp);
        return io_error(err, what, path, e);
    }
    free(tmp);
    return BLOBC_OK;
}
