/*
 * output.c - the output rules every command that writes a file follows,
 * and the set of a run's inputs that an output must never replace.
 *
 *  - A regular file, or a path that does not exist yet, is written to an
 *    unnamed temporary file (O_TMPFILE) in the same directory and given
 *    its name only when every byte was written: other processes see the
 *    old file or the whole new one, and a killed process leaves nothing
 *    visible. Where the file system has no O_TMPFILE, a hidden named
 *    temporary is used, announced through the caller's hooks so that a
 *    signal handler can remove it.
 *  - A character device, FIFO or socket is written in place, never
 *    replaced (`-o /dev/null` stays a device, a FIFO keeps its reader).
 *  - A symbolic link is followed: its target is written, the link stays.
 *  - An output that is one of the run's inputs (same device and inode,
 *    through any link) is refused before anything is written.
 *
 * The file is not fsync'ed: outputs are build artifacts that can be
 * regenerated, and the rename already makes the write atomic with respect
 * to every other process.
 */
#define _GNU_SOURCE /* O_TMPFILE, linkat's AT_SYMLINK_FOLLOW */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "blobc/blobfile.h"
#include "common/util.h"

/* ---- the inputs of a run: (device, inode) -> name, open addressing ---- */

typedef struct input_slot {
    dev_t dev;
    ino_t ino;
    char *name; /* NULL: empty slot */
} input_slot;

struct blobc_inputs {
    input_slot *slots;
    size_t cap, count; /* cap is a power of two, at most half full */
};

static size_t slot_of(const blobc_inputs *s, dev_t dev, ino_t ino) {
    uint64_t x = ((uint64_t)dev * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)ino * 0xC2B2AE3D27D4EB4Full);
    size_t i = (size_t)(x ^ (x >> 29)) & (s->cap - 1);
    while (s->slots[i].name && (s->slots[i].dev != dev || s->slots[i].ino != ino))
        i = (i + 1) & (s->cap - 1);
    return i;
}

static bool inputs_grow(blobc_inputs *s) {
    size_t ncap = s->cap ? s->cap * 2 : 16;
    if (ncap > SIZE_MAX / sizeof(input_slot)) return false;
    blobc_inputs grown = {calloc(ncap, sizeof(input_slot)), ncap, s->count};
    if (!grown.slots) return false;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slots[i].name) grown.slots[slot_of(&grown, s->slots[i].dev, s->slots[i].ino)] = s->slots[i];
    free(s->slots);
    *s = grown;
    return true;
}

blobc_inputs *blobc_inputs_new(void) { return calloc(1, sizeof(blobc_inputs)); }

void blobc_inputs_free(blobc_inputs *s) {
    if (!s) return;
    for (size_t i = 0; i < s->cap; i++) free(s->slots[i].name);
    free(s->slots);
    free(s);
}

blobc_status blobc_inputs_add(blobc_inputs *s, const char *path, blobc_error *err) {
    struct stat st;
    bool is_stdin = strcmp(path, "-") == 0;
    /* A missing input is reported by whoever reads it. */
    if ((is_stdin ? fstat(STDIN_FILENO, &st) : stat(path, &st)) != 0) return BLOBC_OK;
    if ((s->count + 1) * 2 > s->cap && !inputs_grow(s)) return blobc_err_nomem(err);
    size_t i = slot_of(s, st.st_dev, st.st_ino);
    if (s->slots[i].name) return BLOBC_OK; /* the first name given is kept */
    size_t n = strlen(path);
    char *name = malloc(n + 1);
    if (!name) return blobc_err_nomem(err);
    memcpy(name, path, n + 1);
    s->slots[i] = (input_slot){st.st_dev, st.st_ino, name};
    s->count++;
    return BLOBC_OK;
}

static const char *inputs_find_stat(const blobc_inputs *s, const struct stat *st) {
    if (!s || !s->count) return NULL;
    return s->slots[slot_of(s, st->st_dev, st->st_ino)].name;
}

const char *blobc_inputs_find(const blobc_inputs *s, const char *path) {
    struct stat st;
    if (!s || strcmp(path, "-") == 0 || stat(path, &st) != 0) return NULL;
    return inputs_find_stat(s, &st);
}

/* ---- writing ---- */

static blobc_status out_error(blobc_error *err, const char *what, const char *path, int e) {
    return blobc_err_io(err, what, path, e);
}

int blobc_write_all(int fd, const void *data, size_t n) {
    const uint8_t *p = data;
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

/* The final target of `path` after following symbolic links (a new
 * string), so that the temporary file goes next to the file that is
 * really replaced. A dangling link yields its missing target. */
static int resolve_links(const char *path, char **out) {
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
        const char *slash = strrchr(cur, '/');
        size_t dirlen = target[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
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

typedef struct out_ctx {
    const char *path;   /* as given, for messages */
    const char *target; /* after following links */
    const blobc_output_options *opts;
    bool exists;        /* target is an existing regular file */
    mode_t mode;        /* its permissions, kept by the replacement */
} out_ctx;

static void hook_created(const out_ctx *c, const char *tmp) {
    if (c->opts && c->opts->temp_created) c->opts->temp_created(c->opts->hook_ctx, tmp);
}
static void hook_gone(const out_ctx *c, const char *tmp) {
    if (c->opts && c->opts->temp_gone) c->opts->temp_gone(c->opts->hook_ctx, tmp);
}

/* "dir/.name.XXXXXX" with a fresh suffix: in the target's directory, so
 * the rename cannot cross file systems; hidden and without the target's
 * extension, so a glob over the directory's blobs never sees it. */
static char *temp_name(const char *target, unsigned attempt) {
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    const char *slash = strrchr(target, '/');
    size_t dirlen = slash ? (size_t)(slash - target) + 1 : 0, n = strlen(target), total;
    if (!blobc_add_ok(n, 9, &total)) return NULL;
    char *tmp = malloc(total);
    if (!tmp) return NULL;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = ((uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 20) ^ (uint64_t)(uintptr_t)tmp) +
                 attempt * 0x9E3779B97F4A7C15ull;
    char suffix[7];
    for (int i = 0; i < 6; i++, x /= 36) suffix[i] = digits[x % 36];
    suffix[6] = '\0';
    snprintf(tmp, total, "%.*s.%s.%s", (int)dirlen, target, target + dirlen, suffix);
    return tmp;
}

/* Gives the finished temporary file `tmp` the target's name. */
static blobc_status put_in_place(const out_ctx *c, char *tmp, blobc_error *err) {
    blobc_status st = BLOBC_OK;
    if (rename(tmp, c->target) != 0) {
        int e = errno;
        unlink(tmp);
        st = out_error(err, "replace", c->path, e);
    }
    hook_gone(c, tmp);
    free(tmp);
    return st;
}

/* A hidden named temporary file, for file systems without O_TMPFILE. */
static blobc_status write_named_temp(const out_ctx *c, const void *data, size_t len,
                                     blobc_error *err) {
    char *tmp = NULL;
    int fd = -1;
    for (unsigned attempt = 0; fd < 0 && attempt < 100; attempt++) {
        free(tmp);
        if (!(tmp = temp_name(c->target, attempt))) return blobc_err_nomem(err);
        /* 0666 so the umask applies as for a plain create. */
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return out_error(err, "create", c->path, e);
    }
    hook_created(c, tmp);
    int e = blobc_write_all(fd, data, len);
    /* Best effort: some file systems have no permission bits to set. */
    if (!e && c->exists) (void)fchmod(fd, c->mode);
    if (close(fd) != 0 && !e) e = errno;
    if (e) {
        unlink(tmp);
        hook_gone(c, tmp);
        free(tmp);
        return out_error(err, "write", c->path, e);
    }
    return put_in_place(c, tmp, err);
}

#ifdef O_TMPFILE
/* Links the unnamed file fd into the directory: straight to the target
 * when it does not exist, else under a temporary name renamed over it
 * (link cannot replace). Returns -1 when linking is not possible here
 * (no /proc), so the caller falls back to a named temporary. */
static int link_tmpfile(const out_ctx *c, int fd, blobc_status *st, blobc_error *err) {
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    if (!c->exists) {
        if (linkat(AT_FDCWD, proc, AT_FDCWD, c->target, AT_SYMLINK_FOLLOW) == 0) {
            *st = BLOBC_OK;
            return 0;
        }
        if (errno != EEXIST) return -1;
    }
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        char *tmp = temp_name(c->target, attempt);
        if (!tmp) {
            *st = blobc_err_nomem(err);
            return 0;
        }
        if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0) {
            hook_created(c, tmp);
            *st = put_in_place(c, tmp, err);
            return 0;
        }
        int e = errno;
        free(tmp);
        if (e != EEXIST) return -1;
    }
    return -1;
}

/* 1 when the unnamed-file route was taken (*st is its result), 0 when the
 * file system cannot do it. */
static int write_tmpfile(const out_ctx *c, const void *data, size_t len, blobc_status *st,
                         blobc_error *err) {
    const char *slash = strrchr(c->target, '/');
    char *dir = slash ? strndup(c->target, (size_t)(slash - c->target) + 1) : strdup(".");
    if (!dir) {
        *st = blobc_err_nomem(err);
        return 1;
    }
    int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    free(dir);
    if (fd < 0) return 0;
    int e = blobc_write_all(fd, data, len);
    if (e) {
        close(fd);
        *st = out_error(err, "write", c->path, e);
        return 1;
    }
    if (c->exists) (void)fchmod(fd, c->mode);
    if (link_tmpfile(c, fd, st, err) != 0) {
        close(fd);
        return 0;
    }
    /* The data reached the file system with the writes; a failing close
     * of a local file has nothing left to lose. */
    close(fd);
    return 1;
}
#endif

/* Devices, FIFOs and sockets are written where they are. */
static blobc_status write_in_place(const out_ctx *c, const void *data, size_t len,
                                   blobc_error *err) {
    int fd = open(c->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return out_error(err, "open", c->path, errno);
    int e = blobc_write_all(fd, data, len);
    if (close(fd) != 0 && !e) e = errno;
    return e ? out_error(err, "write", c->path, e) : BLOBC_OK;
}

static blobc_status write_stdout(const void *data, size_t len, blobc_error *err) {
    int e = blobc_write_all(STDOUT_FILENO, data, len);
    if (!e) return BLOBC_OK;
    char why[128];
    blobc_err_file(err, "<stdout>");
    return blobc_err(err, BLOBC_EIO, "cannot write to standard output: %s",
                     blobc_errno_text(e, why, sizeof why));
}

blobc_status blobc_write_output(const char *path, const void *data, size_t len,
                                const blobc_output_options *opts, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!path) return blobc_err_arg(err, __func__, "path is NULL");
    if (!data && len) return blobc_err_arg(err, __func__, "len is not 0 but data is NULL");
    if (strcmp(path, "-") == 0) return write_stdout(data, len, err);
    out_ctx c = {path, NULL, opts, false, 0};
    char *target = NULL;
    int e = resolve_links(path, &target);
    if (e == ENOMEM) return blobc_err_nomem(err);
    if (e) return out_error(err, "open", path, e);
    c.target = target;
    blobc_status st = BLOBC_OK;
    struct stat sb;
    if (stat(target, &sb) == 0) {
        const char *in = opts ? inputs_find_stat(opts->inputs, &sb) : NULL;
        if (in) {
            blobc_err_file(err, path);
            if (strcmp(in, path) == 0)
                st = blobc_err(err, BLOBC_EIO, "refusing to overwrite input file '%s'", in);
            else
                st = blobc_err(err, BLOBC_EIO,
                               "refusing to overwrite input file '%s' (the output '%s' is the same file)",
                               strcmp(in, "-") == 0 ? "<stdin>" : in, path);
        } else if (S_ISDIR(sb.st_mode)) {
            st = out_error(err, "replace", path, EISDIR);
        } else if (!S_ISREG(sb.st_mode)) {
            st = write_in_place(&c, data, len, err);
        } else {
            c.exists = true;
            c.mode = sb.st_mode & 07777;
        }
        if (st != BLOBC_OK || !S_ISREG(sb.st_mode)) {
            free(target);
            return st;
        }
    }
#ifdef O_TMPFILE
    if (!(opts && opts->named_temp) && write_tmpfile(&c, data, len, &st, err)) {
        free(target);
        return st;
    }
#endif
    st = write_named_temp(&c, data, len, err);
    free(target);
    return st;
}

blobc_status blobc_write_file_atomic(const char *path, const void *data, size_t len,
                                     blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!path) return blobc_err_arg(err, __func__, "path is NULL");
    if (!data && len) return blobc_err_arg(err, __func__, "len is not 0 but data is NULL");
    return blobc_write_output(path, data, len, NULL, err);
}
