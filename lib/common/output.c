/*
 * output.c - the output rules every command that writes a file follows,
 * and the sets of a run's inputs and outputs by identity.
 *
 *  - A regular file, or a path that does not exist yet, is written to an
 *    unnamed temporary file (O_TMPFILE) in the same directory. A new file
 *    is then linked under its name: no other name ever exists, so even
 *    SIGKILL leaves nothing behind. A file that is replaced cannot be
 *    (a link does not replace), so the finished file is linked as
 *    ".NAME.blobc-tmp" and renamed over NAME by the very next call; the
 *    writer holds a lock on it meanwhile, and a leftover nobody holds (its
 *    writer was killed between the two calls) is removed by the next write
 *    of NAME. Where the file system has no O_TMPFILE, a hidden
 *    ".NAME.XXXXXX" is written and renamed. Either way the caller's hooks
 *    hear of a named temporary before it can appear and after it is gone,
 *    so that a signal handler can hold off or remove it.
 *  - Missing directories above the output are created, as mkdir -p does.
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
#define _GNU_SOURCE /* O_TMPFILE, O_PATH, linkat's AT_SYMLINK_FOLLOW */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "blobc/blobfile.h"
#include "common/hashtab.h"
#include "common/util.h"

/* ---- the files of a run, by identity ----
 * An input is its (device, inode). An output is the directory it goes in
 * (device, inode) and its name there, so that a file not written yet has
 * an identity too: "x/a.blob", "./x/a.blob" and "link-to-x/a.blob" are
 * one output. */

typedef struct file_entry {
    dev_t dev;
    ino_t ino;
    char *name;  /* outputs: the name in directory (dev, ino); inputs: NULL */
    char *given; /* the path as the caller gave it */
} file_entry;

typedef struct fileset {
    blobc_hashtab tab;
    file_entry *items;
    size_t count, cap;
} fileset;

struct blobc_inputs {
    fileset s;
};
struct blobc_outputs {
    fileset s;
};

static uint64_t id_hash(dev_t dev, ino_t ino, const char *name) {
    uint64_t h = blobc_hash_u64(blobc_hash_u64((uint64_t)dev) ^ (uint64_t)ino);
    return name ? h ^ blobc_hash_bytes(name, strlen(name)) : h;
}

static const file_entry *set_find(const fileset *s, dev_t dev, ino_t ino, const char *name) {
    blobc_hprobe p;
    for (uint32_t k = blobc_hashtab_first(&s->tab, id_hash(dev, ino, name), &p); k;
         k = blobc_hashtab_next(&s->tab, &p)) {
        const file_entry *e = &s->items[k - 1];
        if (e->dev == dev && e->ino == ino &&
            (name ? e->name && strcmp(e->name, name) == 0 : !e->name))
            return e;
    }
    return NULL;
}

/* Records the identity as entry number s->count; *first: the number of
 * the entry that had it before (its name is the one found), or SIZE_MAX. */
static blobc_status set_add(fileset *s, dev_t dev, ino_t ino, const char *name, const char *given,
                            size_t *first, blobc_error *err) {
    const file_entry *old = set_find(s, dev, ino, name);
    bool known = old != NULL;
    *first = known ? (size_t)(old - s->items) : SIZE_MAX;
    file_entry e = {dev, ino, name ? strdup(name) : NULL, strdup(given)};
    if (s->count >= UINT32_MAX - 1 || !e.given || (name && !e.name) ||
        !blobc_grow((void **)&s->items, &s->cap, s->count + 1, sizeof *s->items) ||
        (!known && !blobc_hashtab_add(&s->tab, id_hash(dev, ino, name), (uint32_t)s->count + 1))) {
        free(e.name);
        free(e.given);
        return blobc_err_nomem(err);
    }
    s->items[s->count++] = e;
    return BLOBC_OK;
}

static void set_free(fileset *s) {
    for (size_t i = 0; i < s->count; i++) {
        free(s->items[i].name);
        free(s->items[i].given);
    }
    free(s->items);
    blobc_hashtab_free(&s->tab);
}

blobc_inputs *blobc_inputs_new(void) { return calloc(1, sizeof(blobc_inputs)); }

void blobc_inputs_free(blobc_inputs *set) {
    if (!set) return;
    set_free(&set->s);
    free(set);
}

blobc_status blobc_inputs_add(blobc_inputs *set, const char *path, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!set || !path) return blobc_err_arg(err, __func__, "set or path is NULL");
    struct stat st;
    bool is_stdin = strcmp(path, "-") == 0;
    /* A missing input is reported by whoever reads it. */
    if ((is_stdin ? fstat(STDIN_FILENO, &st) : stat(path, &st)) != 0) return BLOBC_OK;
    size_t first;
    return set_add(&set->s, st.st_dev, st.st_ino, NULL, path, &first, err);
}

static const char *inputs_find_stat(const blobc_inputs *set, const struct stat *st) {
    if (!set) return NULL;
    const file_entry *e = set_find(&set->s, st->st_dev, st->st_ino, NULL);
    return e ? e->given : NULL;
}

const char *blobc_inputs_find(const blobc_inputs *set, const char *path) {
    struct stat st;
    if (!set || !path || strcmp(path, "-") == 0 || stat(path, &st) != 0) return NULL;
    return inputs_find_stat(set, &st);
}

bool blobc_writes_over(const char *output, const char *path) {
    struct stat so, sp;
    if (!output || !path || strcmp(output, "-") == 0) return false;
    if (strcmp(output, path) == 0) return true;
    if (stat(output, &so) != 0 || stat(path, &sp) != 0) return false;
    return so.st_dev == sp.st_dev && so.st_ino == sp.st_ino;
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

/* The directory part of `target` (a new string: "." when it has none). */
static char *dir_of(const char *target) {
    const char *slash = strrchr(target, '/');
    if (!slash) return strdup(".");
    return strndup(target, slash == target ? 1 : (size_t)(slash - target));
}

static const char *base_of(const char *target) {
    const char *slash = strrchr(target, '/');
    return slash ? slash + 1 : target;
}

blobc_outputs *blobc_outputs_new(void) { return calloc(1, sizeof(blobc_outputs)); }

void blobc_outputs_free(blobc_outputs *set) {
    if (!set) return;
    set_free(&set->s);
    free(set);
}

blobc_status blobc_outputs_add(blobc_outputs *set, const char *path, size_t *first,
                               blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!set || !path || !first) return blobc_err_arg(err, __func__, "set, path or first is NULL");
    /* Standard output is a name of its own (a directory's never holds '/'
     * in a name, so no file is keyed like it). */
    if (strcmp(path, "-") == 0) return set_add(&set->s, 0, 0, "/-", path, first, err);
    char *target = NULL, *dir = NULL;
    int e = resolve_links(path, &target);
    if (e) return e == ENOMEM ? blobc_err_nomem(err) : blobc_err_io(err, "open", path, e);
    if (!(dir = dir_of(target))) {
        free(target);
        return blobc_err_nomem(err);
    }
    /* A directory still to be made has no identity yet: the whole path
     * stands for itself. */
    struct stat st;
    const char *base = base_of(target);
    bool known = base[0] && strcmp(base, ".") != 0 && strcmp(base, "..") != 0 &&
                 stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
    blobc_status s = known ? set_add(&set->s, st.st_dev, st.st_ino, base, path, first, err)
                           : set_add(&set->s, 0, 0, target, path, first, err);
    free(dir);
    free(target);
    return s;
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

/* Creates the missing directories above the target, as mkdir -p does
 * (0777 less the umask). A directory that cannot be looked at for another
 * reason is left to the write to report. */
static blobc_status make_parents(const out_ctx *c, blobc_error *err) {
    char *dir = dir_of(c->target);
    if (!dir) return blobc_err_nomem(err);
    struct stat st;
    blobc_status s = BLOBC_OK;
    if (stat(dir, &st) != 0 && errno == ENOENT) {
        for (char *p = dir + 1;; p++) {
            if (*p != '/' && *p) continue;
            char end = *p;
            *p = '\0';
            if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
                s = out_error(err, "create the directory", dir, errno);
                break;
            }
            *p = end;
            if (!end) break;
        }
    }
    free(dir);
    return s;
}

/* "dir/.name.suffix": in the target's directory, so the rename cannot
 * cross file systems; hidden and without the target's extension, so a
 * glob over the directory's blobs never sees it. A long name is cut so
 * the temporary's still fits NAME_MAX. */
static char *temp_name(const char *target, const char *suffix) {
    const char *base = base_of(target);
    size_t dirlen = (size_t)(base - target), n = strlen(base), sn = strlen(suffix), total;
    if (n + sn + 2 > 255) n = 255 - sn - 2;
    if (!blobc_add_ok(dirlen + n, sn + 3, &total)) return NULL;
    char *tmp = malloc(total);
    if (tmp) snprintf(tmp, total, "%.*s.%.*s.%s", (int)dirlen, target, (int)n, base, suffix);
    return tmp;
}

/* A temporary name with a fresh random suffix. */
static char *random_temp_name(const char *target, unsigned attempt) {
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = ((uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 20) ^
                  (uint64_t)(uintptr_t)&ts) + attempt * 0x9E3779B97F4A7C15ull;
    char suffix[7];
    for (int i = 0; i < 6; i++, x /= 36) suffix[i] = digits[x % 36];
    suffix[6] = '\0';
    return temp_name(target, suffix);
}

/* Gives the finished temporary file `tmp` the target's name. */
static blobc_status put_in_place(const out_ctx *c, const char *tmp, blobc_error *err) {
    if (rename(tmp, c->target) == 0) return BLOBC_OK;
    int e = errno;
    unlink(tmp);
    return out_error(err, "replace", c->path, e);
}

/* A hidden named temporary file, for file systems without O_TMPFILE. */
static blobc_status write_named_temp(const out_ctx *c, const void *data, size_t len,
                                     blobc_error *err) {
    char *tmp = NULL;
    int fd = -1;
    for (unsigned attempt = 0; fd < 0 && attempt < 100; attempt++) {
        if (tmp) hook_gone(c, tmp);
        free(tmp);
        if (!(tmp = random_temp_name(c->target, attempt))) return blobc_err_nomem(err);
        hook_created(c, tmp);
        /* 0666 so the umask applies as for a plain create. */
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    blobc_status st;
    if (fd < 0) {
        st = out_error(err, "create", c->path, errno);
    } else {
        int e = blobc_write_all(fd, data, len);
        /* Best effort: some file systems have no permission bits to set. */
        if (!e && c->exists) (void)fchmod(fd, c->mode);
        if (close(fd) != 0 && !e) e = errno;
        if (e) unlink(tmp);
        st = e ? out_error(err, "write", c->path, e) : put_in_place(c, tmp, err);
    }
    hook_gone(c, tmp);
    free(tmp);
    return st;
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
static int link_over(const out_ctx *c, const unnamed *u, const char *tmp, blobc_status *st,
                     blobc_error *err) {
    const char *t = base_of(tmp);
    int e = 0;
    hook_created(c, tmp);
    if (linkat(AT_FDCWD, u->proc, u->dirfd, t, AT_SYMLINK_FOLLOW) != 0) {
        e = errno;
    } else if (renameat(u->dirfd, t, u->dirfd, base_of(c->target)) != 0) {
        *st = out_error(err, "replace", c->path, errno);
        unlinkat(u->dirfd, t, 0);
    } else {
        *st = BLOBC_OK;
    }
    hook_gone(c, tmp);
    return e;
}

/* Puts the finished file in place of the existing target through
 * ".NAME.blobc-tmp", which the lock on the file marks as live (a leftover
 * there is removed first); under a random name when the lock cannot be
 * had or another writer holds that name. 0, or -1 when linking is not
 * possible here (no /proc). */
static int publish_over(const out_ctx *c, const unnamed *u, blobc_status *st, blobc_error *err) {
    int e = EEXIST;
    if (flock(u->fd, LOCK_EX | LOCK_NB) == 0) {
        char *tmp = temp_name(c->target, "blobc-tmp");
        if (!tmp) {
            *st = blobc_err_nomem(err);
            return 0;
        }
        e = link_over(c, u, tmp, st, err);
        if (e == EEXIST && reclaim(u->dirfd, base_of(tmp))) e = link_over(c, u, tmp, st, err);
        free(tmp);
    }
    for (unsigned attempt = 0; e == EEXIST && attempt < 100; attempt++) {
        char *tmp = random_temp_name(c->target, attempt);
        if (!tmp) {
            *st = blobc_err_nomem(err);
            return 0;
        }
        e = link_over(c, u, tmp, st, err);
        free(tmp);
    }
    return e ? -1 : 0;
}

/* Gives the finished unnamed file its name: 0, or -1 when linking is not
 * possible here. A new file is linked under the name itself; one that
 * appeared meanwhile is replaced like any other. */
static int publish(const out_ctx *c, const unnamed *u, blobc_status *st, blobc_error *err) {
    if (!c->exists) {
        if (linkat(AT_FDCWD, u->proc, u->dirfd, base_of(c->target), AT_SYMLINK_FOLLOW) == 0) {
            *st = BLOBC_OK;
            return 0;
        }
        if (errno != EEXIST) return -1;
    }
    return publish_over(c, u, st, err);
}

/* 1 when the unnamed-file route was taken (*st is its result), 0 when the
 * file system cannot do it. */
static int write_tmpfile(const out_ctx *c, const void *data, size_t len, blobc_status *st,
                         blobc_error *err) {
    char *dir = dir_of(c->target);
    if (!dir) {
        *st = blobc_err_nomem(err);
        return 1;
    }
    unnamed u = {-1, open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), ""};
    free(dir);
    if (u.dirfd < 0) return 0;
    u.fd = openat(u.dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    int taken = u.fd >= 0;
    if (taken) {
        snprintf(u.proc, sizeof u.proc, "/proc/self/fd/%d", u.fd);
        int e = blobc_write_all(u.fd, data, len);
        if (e) {
            *st = out_error(err, "write", c->path, e);
        } else {
            if (c->exists) (void)fchmod(u.fd, c->mode);
            taken = publish(c, &u, st, err) == 0;
        }
        /* The data reached the file system with the writes; a failing
         * close of a local file has nothing left to lose. */
        close(u.fd);
    }
    close(u.dirfd);
    return taken;
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

static blobc_status refuse_input(const char *in, const char *path, blobc_error *err) {
    blobc_err_file(err, path);
    if (strcmp(in, path) == 0)
        return blobc_err(err, BLOBC_EIO, "refusing to overwrite input file '%s'", in);
    return blobc_err(err, BLOBC_EIO,
                     "refusing to overwrite input file '%s' (the output '%s' is the same file)",
                     strcmp(in, "-") == 0 ? "<stdin>" : in, path);
}

/* What is at the target decides the route: 1 when the write is done (or
 * refused; *st says), 0 when a regular file is to be written. */
static int classify(out_ctx *c, const void *data, size_t len, blobc_status *st,
                    blobc_error *err) {
    struct stat sb;
    if (stat(c->target, &sb) != 0) {
        *st = make_parents(c, err);
        return *st != BLOBC_OK;
    }
    const char *in = c->opts ? inputs_find_stat(c->opts->inputs, &sb) : NULL;
    if (in) *st = refuse_input(in, c->path, err);
    else if (S_ISDIR(sb.st_mode)) *st = out_error(err, "replace", c->path, EISDIR);
    else if (!S_ISREG(sb.st_mode)) *st = write_in_place(c, data, len, err);
    else {
        c->exists = true;
        c->mode = sb.st_mode & 07777;
        return 0;
    }
    return 1;
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
    if (classify(&c, data, len, &st, err)) {
        free(target);
        return st;
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
