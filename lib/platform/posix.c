/*
 * posix.c - files, mapping, directories and atomic replacement on POSIX
 * systems (platform.h). Linux keeps its fast path for outputs: an unnamed
 * O_TMPFILE file linked into place, so a killed process leaves nothing
 * behind; elsewhere a hidden named temporary file and rename(2).
 */
#ifndef _WIN32
#define _GNU_SOURCE /* O_TMPFILE, O_PATH, linkat's AT_SYMLINK_FOLLOW, MAP_POPULATE, MADV_HUGEPAGE */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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
#ifdef __APPLE__
    info->mtime_nsec = (int32_t)st->st_mtimespec.tv_nsec;
#else
    info->mtime_nsec = (int32_t)st->st_mtim.tv_nsec;
#endif
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

/* The kinds blobc_os_stat folds into BLOBC_OS_OTHER, told apart. */
static blobc_os_kind other_kind(mode_t m) {
    return S_ISFIFO(m) ? BLOBC_OS_FIFO : S_ISSOCK(m) ? BLOBC_OS_SOCKET : BLOBC_OS_DEVICE;
}

/* Looked at first, so that a FIFO is not even opened (a writer waiting
 * to open it would be let go, to write to no one). Opened with
 * O_NONBLOCK, so that what took the file's place since is not waited on
 * either; the flag is taken off again for the reads. */
int blobc_os_open_regular(const char *path, blobc_os_fd *fd, blobc_os_kind *kind) {
    struct stat st;
    *fd = BLOBC_OS_NO_FD;
    if (stat(path, &st) != 0) return errno;
    int f = -1, e = 0;
    if (S_ISREG(st.st_mode)) {
        f = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (f < 0) return errno;
        if (fstat(f, &st) != 0) e = errno;
    }
    if (!e && S_ISDIR(st.st_mode)) e = EISDIR;
    if (!e && S_ISREG(st.st_mode) && fcntl(f, F_SETFL, fcntl(f, F_GETFL) & ~O_NONBLOCK) != 0)
        e = errno;
    if (e || !S_ISREG(st.st_mode)) {
        if (f >= 0) close(f);
        if (!e) *kind = other_kind(st.st_mode);
        return e;
    }
    *kind = BLOBC_OS_REGULAR;
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

int blobc_os_read_at(blobc_os_fd fd, void *buf, size_t n, uint64_t at, size_t *got) {
    *got = 0;
    while (*got < n && at + *got <= (uint64_t)INT64_MAX) {
        ssize_t r = pread((int)fd, (uint8_t *)buf + *got, n - *got, (off_t)(at + *got));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return errno;
        if (r == 0) break;
        *got += (size_t)r;
    }
    return 0;
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

int blobc_os_write_stdout(const void *data, size_t len) { return write_all(STDOUT_FILENO, data, len); }

static int put_fd(void *to, const void *p, size_t n) { return write_all(*(const int *)to, p, n); }

#ifdef __linux__
/* Copies c's range into fd inside the kernel: 0, an errno value, or -1
 * when these files cannot be copied that way (another file system, a
 * kernel without the call, a FIFO or device) and nothing was written. */
static int copy_in_kernel(int fd, const blobc_os_copy *c) {
    loff_t in = (loff_t)c->at, out = 0;
    uint64_t left = c->len;
    while (left) {
        size_t want = left > ((size_t)1 << 30) ? (size_t)1 << 30 : (size_t)left;
        ssize_t n = copy_file_range((int)c->fd, &in, fd, &out, want, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && out == 0 &&
            (errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP ||
             errno == EBADF || errno == ETXTBSY || errno == EPERM))
            return -1;
        if (n < 0) return errno;
        if (n == 0) return EIO; /* the source ended before the range did */
        left -= (uint64_t)n;
    }
    /* The writes went through offsets: the file position is where a plain
     * write would have left it, for whoever writes after. */
    return lseek(fd, out, SEEK_SET) < 0 ? errno : 0;
}
#endif

static int write_content(int fd, const blobc_os_content *c) {
    int e = -1;
#ifdef __linux__
    if (c->copy && !c->copy->plain) e = copy_in_kernel(fd, c->copy);
#endif
    if (e < 0) e = c->produce ? c->produce(c->ctx, put_fd, &fd) : write_all(fd, c->data, c->len);
    if (!e && c->copy && c->copy->check) e = c->copy->check(c->copy->check_ctx, fd);
    return e;
}

FILE *blobc_os_fopen(const char *path, const char *mode) { return fopen(path, mode); }

int blobc_os_mkdir(const char *path) { return mkdir(path, 0777) == 0 ? 0 : errno; }

int blobc_os_remove(const char *path) { return unlink(path) == 0 ? 0 : errno; }

int blobc_os_rmdir(const char *path) { return rmdir(path) == 0 ? 0 : errno; }

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

void blobc_os_advise_huge(void *p, size_t len) {
#ifdef MADV_HUGEPAGE
    if (!p || len < BLOBC_OS_HUGE_MIN) return;
    /* Every page the block touches: the advice changes no memory, so a
     * page shared with a neighbour takes no harm, and a block the C
     * library mapped on its own (its header in the first page) is then
     * advised whole, which keeps it one mapping that realloc can still
     * grow in place (mremap refuses a range that spans two). */
    uintptr_t page = 4096, a = (uintptr_t)p & ~(page - 1);
    uintptr_t e = ((uintptr_t)p + len + page - 1) & ~(page - 1);
    if (e > a) (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)len;
#endif
}

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

/* ---- a directory other users write ---- */

#define OPEN_DIR (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

struct blobc_os_tree {
    int fd;
};

static int tree_new(int fd, blobc_os_tree **t) {
    if (!(*t = malloc(sizeof **t))) {
        close(fd);
        return ENOMEM;
    }
    (*t)->fd = fd;
    return 0;
}

int blobc_os_tree_open(const char *path, blobc_os_tree **t) {
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return fd < 0 ? errno : tree_new(fd, t);
}

/* What the `name` of dir is, its link not followed (the kinds of
 * blobc_os_tree_stat). */
static int stat_at(int dir, const char *name, blobc_os_info *info) {
    struct stat st;
    if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return errno;
    info_of(&st, info);
    if (S_ISLNK(st.st_mode)) info->kind = BLOBC_OS_LINK;
    else if (info->kind == BLOBC_OS_OTHER) info->kind = other_kind(st.st_mode);
    return 0;
}

int blobc_os_tree_sub(const blobc_os_tree *t, const char *name, bool create, blobc_os_tree **sub) {
    int fd = openat(t->fd, name, OPEN_DIR);
    if (fd < 0 && errno == ENOENT && create) {
        if (mkdirat(t->fd, name, 0777) != 0 && errno != EEXIST) return errno;
        fd = openat(t->fd, name, OPEN_DIR);
    }
    if (fd >= 0) return tree_new(fd, sub);
    /* O_DIRECTORY | O_NOFOLLOW on a link fails with ENOTDIR or ELOOP. */
    int e = errno;
    blobc_os_info info;
    if (e == ENOTDIR && stat_at(t->fd, name, &info) == 0 && info.kind == BLOBC_OS_LINK) e = ELOOP;
    return e;
}

void blobc_os_tree_close(blobc_os_tree *t) {
    if (!t) return;
    close(t->fd);
    free(t);
}

int blobc_os_tree_stat(const blobc_os_tree *t, const char *name, blobc_os_info *info) {
    return stat_at(t->fd, name, info);
}

/* The name is looked at before it is opened, and opened with O_NONBLOCK:
 * a FIFO put there meanwhile cannot stall the open; fstat must then find
 * the file that was looked at. */
int blobc_os_tree_read(const blobc_os_tree *t, const char *name, blobc_os_fd *fd,
                       blobc_os_info *info) {
    blobc_os_info seen;
    *fd = BLOBC_OS_NO_FD;
    int e = stat_at(t->fd, name, info);
    if (e || info->kind != BLOBC_OS_REGULAR) return e;
    seen = *info;
    int f = openat(t->fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (f < 0) {
        e = errno;
        if (e == ELOOP) info->kind = BLOBC_OS_LINK;
        return e == ELOOP ? 0 : e;
    }
    e = blobc_os_fstat(f, info);
    if (!e && (info->kind != BLOBC_OS_REGULAR || !blobc_os_same_file(info, &seen))) e = EAGAIN;
    if (e) {
        close(f);
        return e;
    }
    *fd = f;
    return 0;
}

static bool private_stat(const struct stat *st) {
    return (st->st_uid == geteuid() || st->st_uid == 0) && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

bool blobc_os_tree_private(const blobc_os_tree *t) {
    struct stat st;
    return fstat(t->fd, &st) == 0 && private_stat(&st);
}

bool blobc_os_fd_private(blobc_os_fd fd) {
    struct stat st;
    return fstat((int)fd, &st) == 0 && private_stat(&st);
}

void blobc_os_touch_fd(blobc_os_fd fd) { (void)futimens((int)fd, NULL); }

/* Creates a new file `name` in dir whose last n characters are replaced
 * by a fresh suffix, retried on a clash: the descriptor, or -1 with errno
 * set. Never opens what was there. */
static int create_new_at(int dir, char *name, size_t n) {
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    char *suffix = name + strlen(name) - n;
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        uint64_t x = (blobc_os_unique() ^ (uint64_t)(uintptr_t)name) * 0x9E3779B97F4A7C15ull + attempt;
        for (size_t i = 0; i < n; i++, x /= 36) suffix[i] = digits[x % 36];
        /* 0666 so that the umask decides, as for any new file. */
        int fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

int blobc_os_tree_write(const blobc_os_tree *t, char *tmp, size_t n, const char *name,
                        const void *data, size_t len) {
    int fd = create_new_at(t->fd, tmp, n);
    if (fd < 0) return errno;
    int e = write_all(fd, data, len);
    if (close(fd) != 0 && !e) e = errno;
    if (!e && renameat(t->fd, tmp, t->fd, name) != 0) e = errno;
    if (e) (void)unlinkat(t->fd, tmp, 0);
    return e;
}

int blobc_os_tree_remove(const blobc_os_tree *t, const char *name) {
    blobc_os_info info;
    if (stat_at(t->fd, name, &info) != 0 || info.kind != BLOBC_OS_REGULAR) return ENOENT;
    return unlinkat(t->fd, name, 0) == 0 ? 0 : errno;
}

int blobc_os_tree_writable(const blobc_os_tree *t) {
    return faccessat(t->fd, ".", W_OK, 0) == 0 ? 0 : errno;
}

int blobc_os_tree_list(const blobc_os_tree *t, blobc_os_dir **out) {
    blobc_os_dir *d = malloc(sizeof *d);
    int fd = openat(t->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), e;
    if (d && fd >= 0 && (d->d = fdopendir(fd))) {
        *out = d;
        return 0;
    }
    e = d ? errno : ENOMEM;
    if (fd >= 0) close(fd);
    free(d);
    return e;
}

/* ---- atomic replacement ---- */

int blobc_os_resolve_links_info(const char *path, char **out, blobc_os_info *info, int *found) {
    char *cur = strdup(path);
    if (!cur) return ENOMEM;
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0) {
            *found = errno;
            break;
        }
        if (!S_ISLNK(st.st_mode)) {
            *found = 0;
            info_of(&st, info);
            break;
        }
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

int blobc_os_resolve_links(const char *path, char **out) {
    blobc_os_info info;
    int found;
    return blobc_os_resolve_links_info(path, out, &info, &found);
}

/* The directory part of `target` (a new string: "." when it has none). */
static char *dir_of(const char *target) {
    size_t n = blobc_os_dir_len(target);
    if (!n) return strdup(".");
    return strndup(target, n == 1 ? 1 : n - 1);
}

static const char *base_of(const char *target) { return target + blobc_os_dir_len(target); }

static void hook(const blobc_os_temp_hooks *h, bool created, const char *tmp) {
    if (!h) return;
    void (*fn)(void *, const char *) = created ? h->created : h->gone;
    if (fn) fn(h->ctx, tmp);
}

/* "dir/.name.suffix": in the target's directory, so the rename cannot
 * cross file systems; hidden and without the target's extension, so a
 * glob over the directory's blobs never sees it. A long name is cut so
 * the temporary's still fits NAME_MAX. */
static char *temp_name(const char *target, const char *suffix) {
    const char *base = base_of(target);
    size_t dirlen = (size_t)(base - target), n = strlen(base), sn = strlen(suffix);
    if (n + sn + 2 > 255) n = 255 - sn - 2;
    size_t total = dirlen + n + sn + 3;
    char *tmp = malloc(total);
    if (tmp) snprintf(tmp, total, "%.*s.%.*s.%s", (int)dirlen, target, (int)n, base, suffix);
    return tmp;
}

/* A temporary name with a fresh random suffix. */
static char *random_temp_name(const char *target, unsigned attempt) {
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    uint64_t x = (blobc_os_unique() ^ (uint64_t)(uintptr_t)&attempt) + attempt * 0x9E3779B97F4A7C15ull;
    char suffix[7];
    for (int i = 0; i < 6; i++, x /= 36) suffix[i] = digits[x % 36];
    suffix[6] = '\0';
    return temp_name(target, suffix);
}

/* The replacement under way: the target, the file it replaces (NULL: none)
 * and the caller's hooks; *stage names the step that failed. */
typedef struct out_ctx {
    const char *target;
    const blobc_os_info *old;
    const blobc_os_temp_hooks *hooks;
    const char **stage;
    blobc_os_outdir *dir; /* the target's directory held open, or NULL */
} out_ctx;

#ifdef O_PATH
#define DIR_HANDLE (O_PATH | O_DIRECTORY | O_CLOEXEC) /* no read access needed */
#else
#define DIR_HANDLE (O_RDONLY | O_DIRECTORY | O_CLOEXEC)
#endif

struct blobc_os_outdir {
    int fd;
    /* Permission bits a new file of this process was seen to keep (the
     * umask left them): a replacement asking only for these gets them
     * at creation. The umask is never read (reading it means setting it,
     * for every thread). */
    atomic_uint kept;
    atomic_uint lost; /* and bits it took away: those need the chmod */
};

int blobc_os_outdir_open(const char *dir, blobc_os_outdir **d) {
    blobc_os_outdir *o = malloc(sizeof *o);
    if (!o) return ENOMEM;
    if ((o->fd = open(dir, DIR_HANDLE)) < 0) {
        int e = errno;
        free(o);
        return e;
    }
    atomic_init(&o->kept, 0);
    atomic_init(&o->lost, 0);
    *d = o;
    return 0;
}

void blobc_os_outdir_close(blobc_os_outdir *d) {
    if (!d) return;
    close(d->fd);
    free(d);
}

static int fail_at(const out_ctx *c, const char *stage, int e) {
    *c->stage = stage;
    return e;
}

/* Gives the finished temporary file `tmp` the target's name. */
static int put_in_place(const out_ctx *c, const char *tmp) {
    if (rename(tmp, c->target) == 0) return 0;
    int e = errno;
    unlink(tmp);
    return fail_at(c, "replace", e);
}

/* A hidden named temporary file, for file systems without O_TMPFILE. The
 * hooks hear of it before it can appear and after it is gone. */
static int write_named_temp(const out_ctx *c, const blobc_os_content *content) {
    char *tmp = NULL;
    int fd = -1;
    for (unsigned attempt = 0; fd < 0 && attempt < 100; attempt++) {
        if (tmp) hook(c->hooks, false, tmp);
        free(tmp);
        if (!(tmp = random_temp_name(c->target, attempt))) return fail_at(c, "create", ENOMEM);
        hook(c->hooks, true, tmp);
        /* 0666 so the umask applies as for a plain create. */
        /* Readable too: a copy's check reads back what was written. */
        fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    int res;
    if (fd < 0) {
        res = fail_at(c, "create", errno);
    } else {
        int e = write_content(fd, content);
        /* Best effort: some file systems have no permission bits to set. */
        if (!e && c->old) (void)fchmod(fd, (mode_t)c->old->mode);
        if (close(fd) != 0 && !e) e = errno;
        if (e) unlink(tmp);
        res = e ? fail_at(c, "write", e) : put_in_place(c, tmp);
    }
    hook(c->hooks, false, tmp);
    free(tmp);
    return res;
}

#ifdef O_TMPFILE
/* The unnamed file being written, and the directory it goes into. */
typedef struct unnamed {
    int fd, dirfd;
    char proc[40]; /* /proc/self/fd/N: what linkat links */
} unnamed;

/* Removes the temporary `name` in dirfd when it is provably a leftover:
 * a regular file that nobody holds the lock on (its writer is gone) and
 * is still the file found. False when it is anything else. */
static bool reclaim(int dirfd, const char *name) {
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT; /* gone meanwhile: link again */
    struct stat a, b;
    bool gone = fstat(fd, &a) == 0 && S_ISREG(a.st_mode) && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
                fstatat(dirfd, name, &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_dev == b.st_dev &&
                a.st_ino == b.st_ino && unlinkat(dirfd, name, 0) == 0;
    close(fd);
    return gone;
}

/* Links the file as `tmp` and renames it over the target at once, the
 * hooks told around the two calls: 0, or the errno of a link that failed
 * (nothing done). */
static int link_over(const out_ctx *c, const unnamed *u, const char *tmp, int *res) {
    const char *t = base_of(tmp);
    int e = 0;
    hook(c->hooks, true, tmp);
    if (linkat(AT_FDCWD, u->proc, u->dirfd, t, AT_SYMLINK_FOLLOW) != 0) {
        e = errno;
    } else if (renameat(u->dirfd, t, u->dirfd, base_of(c->target)) != 0) {
        *res = fail_at(c, "replace", errno);
        unlinkat(u->dirfd, t, 0);
    } else {
        *res = 0;
    }
    hook(c->hooks, false, tmp);
    return e;
}

/* Puts the finished file in place of the existing target through
 * ".NAME.blobc-tmp", which the lock on the file marks as live (a leftover
 * there is removed first); under a random name when the lock cannot be
 * had or another writer holds that name. 0, or -1 when linking is not
 * possible here (no /proc). */
static int publish_over(const out_ctx *c, const unnamed *u, int *res) {
    int e = EEXIST;
    if (flock(u->fd, LOCK_EX | LOCK_NB) == 0) {
        char *tmp = temp_name(c->target, "blobc-tmp");
        if (!tmp) {
            *res = fail_at(c, "create", ENOMEM);
            return 0;
        }
        e = link_over(c, u, tmp, res);
        if (e == EEXIST && reclaim(u->dirfd, base_of(tmp))) e = link_over(c, u, tmp, res);
        free(tmp);
    }
    for (unsigned attempt = 0; e == EEXIST && attempt < 100; attempt++) {
        char *tmp = random_temp_name(c->target, attempt);
        if (!tmp) {
            *res = fail_at(c, "create", ENOMEM);
            return 0;
        }
        e = link_over(c, u, tmp, res);
        free(tmp);
    }
    return e ? -1 : 0;
}

/* Gives the finished unnamed file its name: 0, or -1 when linking is not
 * possible here. A new file is linked under the name itself; one that
 * appeared meanwhile is replaced like any other. */
static int publish(const out_ctx *c, const unnamed *u, int *res) {
    if (!c->old) {
        if (linkat(AT_FDCWD, u->proc, u->dirfd, base_of(c->target), AT_SYMLINK_FOLLOW) == 0) {
            *res = 0;
            return 0;
        }
        if (errno != EEXIST) return -1;
    }
    return publish_over(c, u, res);
}

/* Gives the new file fd, created asking for the permissions `want`, those
 * bits exactly. Through a directory held open, bits a file was seen to
 * keep need nothing more: the first file shows what the umask leaves
 * (one fstat), and a chmod is only for bits it takes away. Best effort:
 * some file systems have no permission bits to set. */
static void keep_mode(const out_ctx *c, int fd, unsigned want) {
    bool known = c->dir && want <= 0777;
    if (known && (want & ~atomic_load(&c->dir->kept)) == 0) return;
    struct stat st;
    if (known && (want & atomic_load(&c->dir->lost)) == 0 && fstat(fd, &st) == 0) {
        unsigned got = (unsigned)st.st_mode & 07777;
        atomic_fetch_or(&c->dir->kept, got & want);
        atomic_fetch_or(&c->dir->lost, want & ~got);
        if (got == want) return;
    }
    (void)fchmod(fd, (mode_t)want);
}

/* 1 when the unnamed-file route was taken (*res is its result), 0 when the
 * file system cannot do it. */
static int write_tmpfile(const out_ctx *c, const blobc_os_content *content, int *res) {
    char *dir = dir_of(c->target);
    if (!dir) {
        *res = fail_at(c, "create", ENOMEM);
        return 1;
    }
    unnamed u = {-1, c->dir ? c->dir->fd : open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), ""};
    free(dir);
    if (u.dirfd < 0) return 0;
    unsigned want = c->old ? c->old->mode & 07777 : 0666;
    /* read and write: a copied output is read back by its check */
    u.fd = openat(u.dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, (mode_t)(want & 0777));
    int taken = u.fd >= 0;
    if (taken) {
        snprintf(u.proc, sizeof u.proc, "/proc/self/fd/%d", u.fd);
        int e = write_content(u.fd, content);
        if (e) {
            *res = fail_at(c, "write", e);
        } else {
            if (c->old) keep_mode(c, u.fd, want);
            taken = publish(c, &u, res) == 0;
        }
        /* The data reached the file system with the writes; a failing
         * close of a local file has nothing left to lose. */
        close(u.fd);
    }
    if (!c->dir) close(u.dirfd);
    return taken;
}
#endif

static int replace(blobc_os_outdir *d, const char *target, const blobc_os_content *content,
                   const blobc_os_info *old, bool named_temp, const blobc_os_temp_hooks *hooks,
                   const char **stage) {
    out_ctx c = {target, old, hooks, stage, d};
    *stage = "replace";
#ifdef O_TMPFILE
    int res = 0;
    if (!named_temp && write_tmpfile(&c, content, &res)) return res;
#else
    (void)named_temp;
#endif
    return write_named_temp(&c, content);
}

int blobc_os_replace(const char *target, const blobc_os_content *content, const blobc_os_info *old,
                     bool named_temp, const blobc_os_temp_hooks *hooks, const char **stage) {
    return replace(NULL, target, content, old, named_temp, hooks, stage);
}

int blobc_os_replace_in(blobc_os_outdir *d, const char *target, const blobc_os_content *content,
                        const blobc_os_info *old, bool named_temp, const blobc_os_temp_hooks *hooks,
                        const char **stage) {
    return replace(d, target, content, old, named_temp, hooks, stage);
}

int blobc_os_write_in_place(const char *path, const blobc_os_content *content, const char **stage) {
    *stage = "open";
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return errno;
    *stage = "write";
    int e = write_content(fd, content);
    if (close(fd) != 0 && !e) e = errno;
    return e;
}

/* ---- time ---- */

int64_t blobc_os_now(void) { return (int64_t)time(NULL); }

double blobc_os_monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

uint64_t blobc_os_unique(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^ ((uint64_t)getpid() << 20);
}
#endif
