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
#include <time.h>
#include <unistd.h>

#include "blobc/blobfile.h"
#include "common/util.h"

/* strerror's buffer may be shared between threads; strerror_r (the POSIX
 * one: this file asks for no GNU extensions) writes into the caller's. */
static const char *errno_text(int e, char *buf, size_t cap) {
    if (strerror_r(e, buf, cap) != 0) snprintf(buf, cap, "error %d", e);
    return buf;
}

blobc_status blobc_err_io(blobc_error *err, const char *what, const char *path, int e) {
    char why[128];
    errno_text(e, why, sizeof why);
    if (strcmp(path, "-") == 0) {
        blobc_err_file(err, "<stdin>");
        return blobc_err(err, BLOBC_EIO, "cannot %s standard input: %s", what, why);
    }
    blobc_err_file(err, path);
    return blobc_err(err, BLOBC_EIO, "cannot %s '%s': %s", what, path, why);
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
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!path || !data || !len) return blobc_err_arg(err, __func__, "path, data or len is NULL");
    *data = NULL;
    *len = 0;
    bool is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY);
    if (fd < 0) return blobc_err_io(err, "open", path, errno);
    size_t hint = 0;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uintmax_t)st.st_size < SIZE_MAX)
        hint = (size_t)st.st_size;
    int e = read_all(fd, hint, data, len);
    if (!is_stdin) close(fd);
    if (e == ENOMEM) return blobc_err_nomem(err);
    if (e) return blobc_err_io(err, "read", path, e);
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

/* Creates the temporary file `tmp`, whose name ends in six X's, under a
 * fresh name. Unlike mkstemp (mode 0600) it asks for 0666, so the kernel
 * applies the umask the way a plain open(path, O_CREAT, 0666) would:
 * reading the umask means setting it, which is process-wide and races
 * with every other thread creating files. The names come from the time,
 * the process and this call's stack address, mixed (splitmix64); a
 * clash just tries the next. */
static int create_temp(char *tmp, size_t tlen) {
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
                 ((uint64_t)getpid() << 40) ^ (uint64_t)(uintptr_t)&ts;
    for (int attempt = 0; attempt < 1000; attempt++) {
        x += 0x9e3779b97f4a7c15ull;
        uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        for (size_t i = tlen - 7; i < tlen - 1; i++, z /= 36) tmp[i] = digits[z % 36];
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

blobc_status blobc_write_file_atomic(const char *path, const void *data, size_t len,
                                     blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!path) return blobc_err_arg(err, __func__, "path is NULL");
    if (!data && len) return blobc_err_arg(err, __func__, "len is not 0 but data is NULL");
    if (strcmp(path, "-") == 0) {
        int e = write_all(STDOUT_FILENO, data, len);
        if (e) {
            char why[128];
            blobc_err_file(err, "<stdout>");
            return blobc_err(err, BLOBC_EIO, "cannot write to standard output: %s",
                             errno_text(e, why, sizeof why));
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
    struct stat old;
    bool replaces = stat(path, &old) == 0 && S_ISREG(old.st_mode);
    int fd = create_temp(tmp, tlen);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return blobc_err_io(err, "create", path, e);
    }
    int e = write_all(fd, data, len);
    const char *what = "write";
    /* A replaced file keeps its permissions. Best effort: some file
     * systems have no permission bits to set. */
    if (!e && replaces) (void)fchmod(fd, old.st_mode & 07777);
    if (close(fd) != 0 && !e) e = errno;
    if (!e && rename(tmp, path) != 0) {
        e = errno;
        what = "replace";
    }
    if (e) {
        unlink(tmp);
        free(tmp);
        return blobc_err_io(err, what, path, e);
    }
    free(tmp);
    return BLOBC_OK;
}
