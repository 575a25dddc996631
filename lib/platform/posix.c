/*
 * posix.c - files, mapping, directories and atomic replacement on POSIX
 * systems (platform.h). Linux keeps its fast path for outputs: an unnamed
 * O_TMPFILE file linked into place, so a killed process leaves nothing
 * behind; elsewhere a hidden named temporary file and rename(2).
 */
#ifndef _WIN32
#define _GNU_SOURCE /* O_TMPFILE, linkat's AT_SYMLINK_FOLLOW, MAP_POPULATE, MADV_HUGEPAGE */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "platform/platform.h"

/* glibc's strerror_r is the GNU one under _GNU_SOURCE: it may return a
 * static string instead of filling buf. */
const char *blobc_os_error_text(int e, char *buf, size_t cap) {
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
    const char *s = strerror_r(e, buf, cap);
    if (s != buf) snprintf(buf, cap, "%s", s ? s : "");
#else
    if (strerror_r(e, buf, cap) != 0) buf[0] = '\0';
#endif
    if (!buf[0]) snprintf(buf, cap, "error %d", e);
    return buf;
}

static void info_of(const struct stat *st, blobc_os_info *info) {
    info->kind = S_ISREG(st->st_mode)   ? BLOBC_OS_REGULAR
                 : S_ISDIR(st->st_mode) ? BLOBC_OS_DIRECTORY
                                        : BLOBC_OS_OTHER;
    info->size = st->st_size > 0 ? (uint64_t)st->st_size : 0;
    info->dev = (uint64_t)st->st_dev;
    info->ino = (uint64_t)st->st_ino;
    info->mtime = (int64_t)st->st_mtime;
    info->atime = (int64_t)st->st_atime;
    info->mode = (unsigned)(st->st_mode & 07777);
}

int blobc_os_stat(const char *path, blobc_os_info *info) {
    struct stat st;
    if (stat(path, &st) != 0) return errno;
    info_of(&st, info);
    return 0;
}

int blobc_os_fstat(blobc_os_fd fd, blobc_os_info *info) {
    struct stat st;
    if (fstat((int)fd, &st) != 0) return errno;
    info_of(&st, info);
    return 0;
}

int blobc_os_fstat_stream(FILE *f, blobc_os_info *info) {
    int fd = fileno(f);
    return fd < 0 ? EBADF : blobc_os_fstat(fd, info);
}

blobc_os_fd blobc_os_stdin(void) { return STDIN_FILENO; }

int blobc_os_open_read(const char *path, blobc_os_fd *fd) {
    int f = open(path, O_RDONLY | O_CLOEXEC);
    if (f < 0) return errno;
    *fd = f;
    return 0;
}

int blobc_os_read(blobc_os_fd fd, void *buf, size_t n, size_t *got) {
    for (;;) {
        ssize_t m = read((int)fd, buf, n);
        if (m >= 0) {
            *got = (size_t)m;
            return 0;
        }
        if (errno != EINTR) return errno;
    }
}

int blobc_os_close(blobc_os_fd fd) { return close((int)fd) == 0 ? 0 : errno; }

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

int blobc_os_write_stdout(const void *data, size_t len) { return write_all(STDOUT_FILENO, data, len); }

FILE *blobc_os_fopen(const char *path, const char *mode) { return fopen(path, mode); }

int blobc_os_mkdir(const char *path) { return mkdir(path, 0777) == 0 ? 0 : errno; }

int blobc_os_remove(const char *path) { return unlink(path) == 0 ? 0 : errno; }

int blobc_os_rmdir(const char *path) { return rmdir(path) == 0 ? 0 : errno; }

int blobc_os_touch(const char *path) {
    return utimensat(AT_FDCWD, path, NULL, 0) == 0 ? 0 : errno;
}

size_t blobc_os_dir_len(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path) + 1 : 0;
}

bool blobc_os_is_absolute(const char *path) { return path[0] == '/'; }

void *blobc_os_alloc16(size_t n) {
    void *p = NULL;
    return posix_memalign(&p, 16, n ? n : 1) == 0 ? p : NULL;
}

const void *blobc_os_map_file(blobc_os_fd fd, size_t len) {
    int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
    flags |= MAP_POPULATE; /* one call instead of a fault per page */
#endif
    void *p = mmap(NULL, len, PROT_READ, flags, (int)fd, 0);
    return p == MAP_FAILED ? NULL : p;
}

void blobc_os_unmap_file(const void *p, size_t len) { munmap((void *)p, len); }

void *blobc_os_map_zero(size_t len) {
    int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_NORESERVE
    flags |= MAP_NORESERVE;
#endif
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, len, MADV_HUGEPAGE);
#endif
    return p;
}

void blobc_os_unmap_zero(void *p, size_t len) { munmap(p, len); }

struct blobc_os_dir {
    DIR *d;
};

int blobc_os_dir_open(const char *path, blobc_os_dir **out) {
    blobc_os_dir *d = malloc(sizeof *d);
    if (!d) return ENOMEM;
    if (!(d->d = opendir(path))) {
        int e = errno;
        free(d);
        return e;
    }
    *out = d;
    return 0;
}

const char *blobc_os_dir_next(blobc_os_dir *d) {
    struct dirent *e;
    while ((e = readdir(d->d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) return e->d_name;
    return NULL;
}

void blobc_os_dir_close(blobc_os_dir *d) {
    if (!d) return;
    closedir(d->d);
    free(d);
}

/* ---- atomic replacement ---- */

int blobc_os_resolve_links(const char *path, char **out) {
    char *cur = strdup(path);
    if (!cur) return ENOMEM;
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) break;
        if (hops == 40) {
            free(cur);
            return ELOOP;
        }
        char target[PATH_MAX];
        ssize_t n = readlink(cur, target, sizeof target - 1);
        if (n < 0) {
            int e = errno;
            free(cur);
            return e;
        }
        target[n] = '\0';
        size_t dirlen = target[0] == '/' ? 0 : blobc_os_dir_len(cur);
        char *next = malloc(dirlen + (size_t)n + 1);
        if (!next) {
            free(cur);
            return ENOMEM;
        }
        memcpy(next, cur, dirlen);
        memcpy(next + dirlen, target, (size_t)n + 1);
        free(cur);
        cur = next;
    }
    *out = cur;
    return 0;
}

/* "dir/.name.XXXXXX" with a fresh suffix: in the target's directory, so
 * the rename cannot cross file systems; hidden and without the target's
 * extension, so a glob over the directory's blobs never sees it. */
static char *temp_name(const char *target, unsigned attempt) {
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    size_t dirlen = blobc_os_dir_len(target), total = strlen(target) + 9;
    char *tmp = malloc(total);
    if (!tmp) return NULL;
    uint64_t x = (blobc_os_unique() ^ (uint64_t)(uintptr_t)tmp) + attempt * 0x9E3779B97F4A7C15ull;
    char suffix[7];
    for (int i = 0; i < 6; i++, x /= 36) suffix[i] = digits[x % 36];
    suffix[6] = '\0';
    snprintf(tmp, total, "%.*s.%s.%s", (int)dirlen, target, target + dirlen, suffix);
    return tmp;
}

static void hook(const blobc_os_temp_hooks *h, bool created, const char *tmp) {
    if (!h) return;
    void (*fn)(void *, const char *) = created ? h->created : h->gone;
    if (fn) fn(h->ctx, tmp);
}

/* Gives the finished temporary file `tmp` the target's name. */
static int put_in_place(const char *target, char *tmp, const blobc_os_temp_hooks *h,
                        const char **stage) {
    int e = 0;
    if (rename(tmp, target) != 0) {
        e = errno;
        *stage = "replace";
        unlink(tmp);
    }
    hook(h, false, tmp);
    free(tmp);
    return e;
}

static int write_named_temp(const char *target, const void *data, size_t len,
                            const blobc_os_info *old, const blobc_os_temp_hooks *h,
                            const char **stage) {
    char *tmp = NULL;
    int fd = -1;
    for (unsigned attempt = 0; fd < 0 && attempt < 100; attempt++) {
        free(tmp);
        if (!(tmp = temp_name(target, attempt))) return ENOMEM;
        /* 0666 so the umask applies as for a plain create. */
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        int e = errno;
        free(tmp);
        *stage = "create";
        return e;
    }
    hook(h, true, tmp);
    int e = write_all(fd, data, len);
    /* Best effort: some file systems have no permission bits to set. */
    if (!e && old) (void)fchmod(fd, (mode_t)old->mode);
    if (close(fd) != 0 && !e) e = errno;
    if (e) {
        unlink(tmp);
        hook(h, false, tmp);
        free(tmp);
        *stage = "write";
        return e;
    }
    return put_in_place(target, tmp, h, stage);
}

#ifdef O_TMPFILE
/* Links the unnamed file fd into the directory: straight to the target
 * when it does not exist, else under a temporary name renamed over it
 * (link cannot replace). Returns -1 when linking is not possible here
 * (no /proc), so the caller falls back to a named temporary. */
static int link_tmpfile(const char *target, bool exists, int fd, int *res,
                        const blobc_os_temp_hooks *h, const char **stage) {
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    if (!exists) {
        if (linkat(AT_FDCWD, proc, AT_FDCWD, target, AT_SYMLINK_FOLLOW) == 0) {
            *res = 0;
            return 0;
        }
        if (errno != EEXIST) return -1;
    }
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        char *tmp = temp_name(target, attempt);
        if (!tmp) {
            *res = ENOMEM;
            return 0;
        }
        if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0) {
            hook(h, true, tmp);
            *res = put_in_place(target, tmp, h, stage);
            return 0;
        }
        int e = errno;
        free(tmp);
        if (e != EEXIST) return -1;
    }
    return -1;
}

/* 1 when the unnamed-file route was taken (*res is its result), 0 when the
 * file system cannot do it. */
static int write_tmpfile(const char *target, const void *data, size_t len,
                         const blobc_os_info *old, int *res, const blobc_os_temp_hooks *h,
                         const char **stage) {
    size_t dirlen = blobc_os_dir_len(target);
    char *dir = dirlen ? strndup(target, dirlen) : strdup(".");
    if (!dir) {
        *res = ENOMEM;
        return 1;
    }
    int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    free(dir);
    if (fd < 0) return 0;
    int e = write_all(fd, data, len);
    if (e) {
        close(fd);
        *res = e;
        *stage = "write";
        return 1;
    }
    if (old) (void)fchmod(fd, (mode_t)old->mode);
    if (link_tmpfile(target, old != NULL, fd, res, h, stage) != 0) {
        close(fd);
        return 0;
    }
    /* The data reached the file system with the writes; a failing close
     * of a local file has nothing left to lose. */
    close(fd);
    return 1;
}
#endif

int blobc_os_replace(const char *target, const void *data, size_t len, const blobc_os_info *old,
                     bool named_temp, const blobc_os_temp_hooks *hooks, const char **stage) {
    *stage = "replace";
#ifdef O_TMPFILE
    int res = 0;
    if (!named_temp && write_tmpfile(target, data, len, old, &res, hooks, stage)) return res;
#else
    (void)named_temp;
#endif
    return write_named_temp(target, data, len, old, hooks, stage);
}

int blobc_os_write_in_place(const char *path, const void *data, size_t len, const char **stage) {
    *stage = "open";
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return errno;
    *stage = "write";
    int e = write_all(fd, data, len);
    if (close(fd) != 0 && !e) e = errno;
    return e;
}

/* ---- time ---- */

int64_t blobc_os_now(void) { return (int64_t)time(NULL); }

uint64_t blobc_os_unique(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^ ((uint64_t)getpid() << 20);
}
#endif
