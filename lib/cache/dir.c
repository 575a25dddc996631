/*
 * dir.c - the cache in a directory: its entries, the counts of hits and
 * misses under stats/, statistics and pruning.
 *
 * The directory may be shared with other users and machines (a network
 * file system), any of whom can plant files, links, FIFOs or directories
 * in it. So the file system, not only the bytes, is a trust boundary:
 *  - the directory the user named is opened once; everything below it is
 *    reached from that descriptor one name at a time with O_NOFOLLOW, so
 *    no symbolic link inside the cache is ever followed;
 *  - a file is opened only after it was seen (not followed) to be a
 *    regular file, with O_NONBLOCK, so that a FIFO put there meanwhile
 *    cannot stall the open, and fstat must then find the same file;
 *  - an entry's head is checked before its size is trusted, and the entry
 *    is read into memory with bounded reads, never mapped: a mapped file
 *    that another user truncates kills the reader (SIGBUS);
 *  - a write creates a new file (O_CREAT | O_EXCL | O_NOFOLLOW) and
 *    renames it over the name, which replaces whatever was planted there
 *    and never writes through it;
 *  - only prune, and the folding of stats/, remove files: regular files
 *    whose names are names this file writes, in a directory of the cache.
 *
 * Owners are not checked: in a shared cache every user writes entries,
 * and what an entry holds is judged by verifying it (cache.c).
 *
 * Not yet behind lib/platform/: its trust rules are descriptor-relative
 * POSIX calls (openat with O_NOFOLLOW, fstatat, unlinkat) whose Windows
 * counterparts (handle-relative opens that refuse reparse points) are
 * still to be written (docs/PORTABILITY.md). The Windows build says so
 * when a cache names a directory; an HTTP cache works there.
 */
#include <stdio.h>

#include "blobc/blobc.h"
#include "blobc/cache.h"
#include "cache/cache_internal.h"

/* Entries are named by their key, and refused with one message, in this
 * store and the HTTP one alike (cache.c). */
void blobc_cache_key_hex(const uint8_t key[16], char hex[33]) {
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) {
        hex[2 * i] = digits[key[i] >> 4];
        hex[2 * i + 1] = digits[key[i] & 15];
    }
    hex[32] = '\0';
}

bool blobc_entry_reject(blobc_error *warn, const char *name, const char *why, const blobc_error *e) {
    blobc_error_clear(warn);
    blobc_err_file(warn, name);
    blobc_err(warn, BLOBC_EINPUT, "cache entry rejected (%s%s%s); baking instead", why,
              e ? ": " : "", e ? e->message : "");
    return false;
}

#ifndef _WIN32
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TEMP_AGE 3600     /* seconds: a temporary file this old lost its writer */
#define ENTRY_SUFFIX 6    /* ".<key hex>.<6>": the temporary files of entries */
#define STATS_DIR "stats" /* "p.<6 to 16>" count files, ".p.<...>" their temporaries */
#define STATS_SUFFIX 12
#define STATS_FOLD 16     /* fold stats/ when it holds this many count files */
#define STATS_SCAN 256    /* names looked at per fold: bounded work per process */
#define STATS_LINE 64
#define HEAD_MAX 64       /* the most bytes of head an entry_judge may want */

#define OPEN_DIR (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define OPEN_FILE (O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)

/* ---- names ---- */

static bool hex_run(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return false;
    return true;
}

static bool is_hex(const char *s, size_t n) { return hex_run(s, n) && s[n] == '\0'; }

/* min to max letters and digits, then the end. */
static bool alnum_run(const char *s, size_t min, size_t max) {
    size_t n = 0;
    while (n <= max && ((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'z') ||
                        (s[n] >= 'A' && s[n] <= 'Z')))
        n++;
    return n >= min && n <= max && s[n] == '\0';
}

/* An entry of the subdirectory sub: its 32 hex digits begin with sub's 2. */
static bool is_entry(const char *sub, const char *name) {
    return is_hex(name, 32) && memcmp(name, sub, 2) == 0;
}

static bool is_entry_temp(const char *sub, const char *name) {
    return name[0] == '.' && hex_run(name + 1, 32) && memcmp(name + 1, sub, 2) == 0 &&
           name[33] == '.' && alnum_run(name + 34, ENTRY_SUFFIX, ENTRY_SUFFIX);
}

/* Six characters are what earlier versions wrote (mkstemp). */
static bool is_stats(const char *name) {
    return name[0] == 'p' && name[1] == '.' && alnum_run(name + 2, 6, 16);
}

static bool is_stats_temp(const char *name) { return name[0] == '.' && is_stats(name + 1); }

/* "<root>/<sub>[/<name>]" for messages (malloc'd; NULL when out of memory). */
static char *path_of(const char *root, const char *sub, const char *name) {
    size_t n = strlen(root) + strlen(sub) + (name ? strlen(name) : 0) + 3;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s%s%s", root, sub, name ? "/" : "", name ? name : "");
    return p;
}

/* What a file that is not a regular file is, for messages. */
static const char *kind_of(mode_t m) {
    if (S_ISLNK(m)) return "it is a symbolic link, never followed";
    if (S_ISDIR(m)) return "it is a directory";
    if (S_ISFIFO(m)) return "it is a FIFO";
    if (S_ISSOCK(m)) return "it is a socket";
    if (S_ISCHR(m) || S_ISBLK(m)) return "it is a device";
    return "it is not a regular file";
}

/* Reads n bytes of fd from offset `at`, or fewer at end of file or on an
 * error: the number read. */
static size_t blobc_read_at(int fd, void *buf, size_t n, uint64_t at) {
    size_t got = 0;
    while (got < n && at + got <= (uint64_t)INT64_MAX) {
        ssize_t r = pread(fd, (uint8_t *)buf + got, n - got, (off_t)(at + got));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    return got;
}

/* Writes all n bytes to fd: 0, or the errno of the failed write. */
static int blobc_write_all(int fd, const void *data, size_t n) {
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

/* ---- opening ---- */

int blobc_dir_open(const char *root, bool create, blobc_error *err) {
    /* The directory the user named is theirs to choose, a link included;
     * nothing below it is followed. */
    if (create && mkdir(root, 0777) != 0 && errno != EEXIST) {
        blobc_err_io(err, "create the cache directory", root, errno);
        return -1;
    }
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) blobc_err_io(err, "open the cache directory", root, errno);
    return fd;
}

void blobc_dir_close(int dir) {
    if (dir >= 0) close(dir);
}

/* The subdirectory `sub` of the cache, created first when `create`: -1
 * (errno set; ELOOP for a symbolic link) when it is not a directory. */
static int open_sub(int dir, const char *sub, bool create) {
    int fd = openat(dir, sub, OPEN_DIR);
    if (fd < 0 && errno == ENOENT && create) {
        if (mkdirat(dir, sub, 0777) != 0 && errno != EEXIST) return -1;
        fd = openat(dir, sub, OPEN_DIR);
    }
    return fd;
}

/* Why the subdirectory `sub` of dir could not be opened (errno e), or
 * NULL when it is simply not there. */
static const char *sub_fault(int dir, const char *sub, int e) {
    struct stat st;
    if (e == ENOENT) return NULL;
    /* O_DIRECTORY | O_NOFOLLOW on a link fails with ENOTDIR or ELOOP. */
    if (e == ELOOP || (e == ENOTDIR && fstatat(dir, sub, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                       S_ISLNK(st.st_mode)))
        return "its directory is a symbolic link, never followed";
    return e == ENOTDIR ? "its directory is not a directory" : NULL;
}

/* A listing of the directory fd (which stays open): NULL on failure. */
static DIR *list_dir(int fd) {
    int lfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = lfd >= 0 ? fdopendir(lfd) : NULL;
    if (!d && lfd >= 0) close(lfd);
    return d;
}

/* Opens `name` in dir for reading when it is a regular file: the
 * descriptor and its fstat in *st, or -1 with *why (NULL when there is
 * no such file). */
static int open_regular(int dir, const char *name, struct stat *st, const char **why) {
    struct stat seen;
    *why = NULL;
    if (fstatat(dir, name, &seen, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno != ENOENT) *why = "it cannot be read";
        return -1;
    }
    if (!S_ISREG(seen.st_mode)) {
        *why = kind_of(seen.st_mode);
        return -1;
    }
    int fd = openat(dir, name, OPEN_FILE);
    if (fd < 0) {
        if (errno != ENOENT) *why = errno == ELOOP ? kind_of(S_IFLNK) : "it cannot be opened";
        return -1;
    }
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || st->st_dev != seen.st_dev ||
        st->st_ino != seen.st_ino) {
        *why = "it was replaced while being opened";
        close(fd);
        return -1;
    }
    return fd;
}

/* Creates a new file `name` in dir, whose last n characters (before the
 * NUL) are filled with a fresh suffix, retried on a clash: the
 * descriptor, or -1 with errno set. Never opens what was there. */
static int create_new(int dir, char *name, size_t n) {
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    char *suffix = name + strlen(name) - n;
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = ((uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32) ^
                      (uint64_t)(uintptr_t)name) * 0x9E3779B97F4A7C15ull + attempt;
        for (size_t i = 0; i < n; i++, x /= 36) suffix[i] = digits[x % 36];
        /* 0666 so that the umask decides, as for any new file. */
        int fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

/* Writes len bytes to a new temporary file `tmp` of dir (its last n
 * characters made unique) and renames it to `name`: 0, or an errno. */
static int write_renamed(int dir, char *tmp, size_t n, const char *name, const void *data,
                         size_t len) {
    int fd = create_new(dir, tmp, n);
    if (fd < 0) return errno;
    int e = blobc_write_all(fd, data, len);
    if (close(fd) != 0 && !e) e = errno;
    if (!e && renameat(dir, tmp, dir, name) != 0) e = errno;
    if (e) (void)unlinkat(dir, tmp, 0);
    return e;
}

/* ---- entries ---- */

/* The head of the open entry fd of size bytes, judged by j: NULL when it
 * declares that size, else why not. */
static const char *judge_head(int fd, uint64_t size, entry_judge *j, uint8_t *head) {
    if (size < j->head || j->head > HEAD_MAX) return "not a cache entry";
    if (blobc_read_at(fd, head, j->head, 0) != j->head) return "it was cut short while being read";
    size_t total = j->judge(j, head);
    if (!total) return j->why;
    return total == size ? NULL : "its length is wrong";
}

/* Reads the entry `hex` of the subdirectory sub into out: NULL when it
 * was read, else why not ("" when there is none). */
static const char *read_entry(int sub, const char *hex, entry_judge *j, blobc_buffer *out) {
    struct stat st;
    const char *why;
    int fd = open_regular(sub, hex, &st, &why);
    if (fd < 0) return why ? why : "";
    uint8_t head[HEAD_MAX];
    uint64_t size = (uint64_t)st.st_size;
    why = judge_head(fd, size, j, head);
    /* Only now is the size trusted: the head of this key declares it, and
     * its memory is counted. */
    if (!why && !blobc_buf_reserve(out, (size_t)size)) why = "out of memory";
    if (!why) {
        memcpy(out->data, head, j->head);
        size_t rest = (size_t)size - j->head;
        if (blobc_read_at(fd, out->data + j->head, rest, j->head) != rest)
            why = "it was cut short while being read";
        else
            out->len = (size_t)size;
    }
    /* Touched, so that prune drops what is used least recently even where
     * the file system does not keep access times (best effort: another
     * user's entry may not be ours to touch). */
    if (!why) (void)futimens(fd, NULL);
    close(fd);
    return why;
}

bool blobc_dir_get(int dir, const char *root, const uint8_t key[16], entry_judge *j,
                   blobc_buffer *out, blobc_error *warn) {
    char hex[33], sub[3];
    blobc_cache_key_hex(key, hex);
    memcpy(sub, hex, 2);
    sub[2] = '\0';
    const char *why = NULL;
    bool found = false;
    int sfd = openat(dir, sub, OPEN_DIR);
    if (sfd < 0) {
        int e = errno;
        why = sub_fault(dir, sub, e);
        if (!why && e != ENOENT) why = "its directory cannot be read";
    } else {
        why = read_entry(sfd, hex, j, out);
        close(sfd);
        found = !why;
    }
    if (why && why[0]) {
        char *path = path_of(root, sub, hex);
        blobc_entry_reject(warn, path ? path : root, why, NULL);
        free(path);
    }
    if (!found) blobc_buffer_free(out);
    return found;
}

void blobc_dir_put(int dir, const char *root, const uint8_t key[16], const void *entry,
                   size_t len, blobc_error *warn) {
    char hex[33], sub[3], tmp[1 + 32 + 1 + ENTRY_SUFFIX + 1];
    blobc_cache_key_hex(key, hex);
    memcpy(sub, hex, 2);
    sub[2] = '\0';
    snprintf(tmp, sizeof tmp, ".%s.%0*d", hex, ENTRY_SUFFIX, 0);
    int e, sfd = open_sub(dir, sub, true);
    const char *what = "create the cache directory", *fault = NULL;
    if (sfd < 0) {
        e = errno;
        fault = sub_fault(dir, sub, e);
    } else {
        /* Readers on any machine see no entry or a whole one; writers of
         * one key race harmlessly (the same bytes). */
        e = write_renamed(sfd, tmp, ENTRY_SUFFIX, hex, entry, len);
        what = "store the cache entry";
        close(sfd);
    }
    if (!e) return;
    char *path = path_of(root, sub, fault || sfd >= 0 ? hex : NULL);
    if (fault) {
        blobc_err_file(warn, path ? path : root);
        blobc_err(warn, BLOBC_EIO, "cannot store the cache entry '%s': %s", path ? path : hex, fault);
    } else {
        blobc_err_io(warn, what, path ? path : root, e);
    }
    free(path);
}

/* ---- the counts of hits and misses ---- */

static uint64_t add_sat(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

/* Adds the counts the file `name` of dir records to *h and *m: false when
 * it is not a regular file (then it is not one of the cache's). */
static bool read_counts(int dir, const char *name, uint64_t *h, uint64_t *m) {
    struct stat st;
    const char *why;
    int fd = open_regular(dir, name, &st, &why);
    if (fd < 0) return false;
    char line[STATS_LINE];
    size_t n = blobc_read_at(fd, line, sizeof line - 1, 0);
    close(fd);
    line[n] = '\0';
    char *end;
    errno = 0;
    unsigned long long a = strtoull(line, &end, 10);
    if (end == line || *end != ' ') return true;
    const char *second = end + 1;
    unsigned long long b = strtoull(second, &end, 10);
    if (end == second || errno) return true;
    *h = add_sat(*h, a);
    *m = add_sat(*m, b);
    return true;
}

/* When stats/ has many count files, adds theirs to *h and *m and removes
 * them, so that it stays small however many processes used the cache. A
 * file's counts are added by whoever removed it: two processes folding
 * at once never count one file twice. */
static void fold(int sfd, uint64_t *h, uint64_t *m) {
    char names[STATS_SCAN][20];
    size_t n = 0, seen = 0;
    DIR *d = list_dir(sfd);
    if (!d) return;
    struct dirent *f;
    while (seen++ < STATS_SCAN && (f = readdir(d)))
        if (is_stats(f->d_name)) memcpy(names[n++], f->d_name, strlen(f->d_name) + 1); /* <= 19 */
    closedir(d);
    for (size_t i = 0; n >= STATS_FOLD && i < n; i++) {
        uint64_t fh = 0, fm = 0;
        if (read_counts(sfd, names[i], &fh, &fm) && unlinkat(sfd, names[i], 0) == 0) {
            *h = add_sat(*h, fh);
            *m = add_sat(*m, fm);
        }
    }
}

void blobc_dir_record(int dir, uint64_t hits, uint64_t misses) {
    if (dir < 0 || (hits == 0 && misses == 0)) return;
    int sfd = open_sub(dir, STATS_DIR, true);
    if (sfd < 0) return;
    fold(sfd, &hits, &misses);
    /* Each process writes a file of its own: no two writers ever share
     * one (NFS has no reliable append). */
    char tmp[3 + STATS_SUFFIX + 1] = ".p.";
    memset(tmp + 3, '0', STATS_SUFFIX);
    tmp[3 + STATS_SUFFIX] = '\0';
    char line[STATS_LINE];
    int len = snprintf(line, sizeof line, "%llu %llu\n", (unsigned long long)hits,
                       (unsigned long long)misses);
    (void)write_renamed(sfd, tmp, STATS_SUFFIX, tmp + 1, line, (size_t)len);
    close(sfd);
}

/* ---- statistics and pruning ---- */

typedef struct entry_info {
    char hex[33];
    uint64_t size;
    time_t used;
} entry_info;

typedef struct entry_list {
    entry_info *v;
    size_t n, cap;
} entry_list;

static bool list_add(entry_list *l, const char *hex, const struct stat *st) {
    if (l->n == l->cap && !blobc_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v)) return false;
    entry_info *e = &l->v[l->n++];
    memcpy(e->hex, hex, sizeof e->hex);
    e->size = (uint64_t)st->st_size;
    e->used = st->st_atime > st->st_mtime ? st->st_atime : st->st_mtime;
    return true;
}

/* Lists the entries of one subdirectory; with `clean`, removes the
 * temporary files of writers killed midway (an hour old or more). A
 * link or a file in the place of a subdirectory is not the cache's and
 * is passed over; one that cannot be read is an error (the counts would
 * be wrong). */
static blobc_status list_sub(int dir, const char *root, const char *sub, entry_list *l,
                             bool clean, time_t now, blobc_error *err) {
    int sfd = open_sub(dir, sub, false);
    DIR *d = sfd >= 0 ? list_dir(sfd) : NULL;
    if (!d) {
        int e = errno;
        if (sfd >= 0) close(sfd);
        if (e == ENOENT || sub_fault(dir, sub, e)) return BLOBC_OK;
        char *path = path_of(root, sub, NULL);
        blobc_err_io(err, "read the cache directory", path ? path : root, e);
        free(path);
        return err->status;
    }
    bool ok = true;
    struct dirent *f;
    while (ok && (f = readdir(d))) {
        struct stat st;
        bool entry = is_entry(sub, f->d_name), temp = clean && is_entry_temp(sub, f->d_name);
        if ((!entry && !temp) || fstatat(sfd, f->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        if (entry) ok = list_add(l, f->d_name, &st);
        else if (now - st.st_mtime >= TEMP_AGE) (void)unlinkat(sfd, f->d_name, 0);
    }
    closedir(d);
    close(sfd);
    return ok ? BLOBC_OK : blobc_err_nomem(err);
}

/* Every entry of the cache: regular files with an entry's name in a
 * subdirectory with its name, none reached through a link. */
static blobc_status list_entries(int dir, const char *root, entry_list *l, bool clean,
                                 blobc_error *err) {
    DIR *top = list_dir(dir);
    if (!top) return blobc_err_io(err, "read the cache directory", root, errno);
    time_t now = time(NULL);
    blobc_status st = BLOBC_OK;
    struct dirent *d;
    while (!st && (d = readdir(top)))
        if (is_hex(d->d_name, 2)) st = list_sub(dir, root, d->d_name, l, clean, now, err);
    closedir(top);
    return st;
}

/* The temporary files of stats/ whose writers were killed. */
static void clean_stats(int dir, time_t now) {
    int sfd = open_sub(dir, STATS_DIR, false);
    DIR *d = sfd >= 0 ? list_dir(sfd) : NULL;
    struct dirent *f;
    struct stat st;
    while (d && (f = readdir(d)))
        if (is_stats_temp(f->d_name) && fstatat(sfd, f->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(st.st_mode) && now - st.st_mtime >= TEMP_AGE)
            (void)unlinkat(sfd, f->d_name, 0);
    if (d) closedir(d);
    if (sfd >= 0) close(sfd);
}

static void sum_counts(int dir, blobc_cache_stats *s) {
    int sfd = open_sub(dir, STATS_DIR, false);
    DIR *d = sfd >= 0 ? list_dir(sfd) : NULL;
    struct dirent *f;
    while (d && (f = readdir(d)))
        if (is_stats(f->d_name)) (void)read_counts(sfd, f->d_name, &s->hits, &s->misses);
    if (d) closedir(d);
    if (sfd >= 0) close(sfd);
}

blobc_status blobc_cache_dir_stats(const char *root, blobc_cache_stats *s, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!root || !s) return blobc_err_arg(err, __func__, "dir or stats is NULL");
    memset(s, 0, sizeof *s);
    int dir = blobc_dir_open(root, false, err);
    if (dir < 0) return err->status;
    entry_list l = {0};
    blobc_status st = list_entries(dir, root, &l, false, err);
    for (size_t i = 0; i < l.n; i++) s->bytes += l.v[i].size;
    s->entries = l.n;
    free(l.v);
    if (!st) sum_counts(dir, s);
    close(dir);
    return st;
}

static int by_use(const void *a, const void *b) {
    const entry_info *x = a, *y = b;
    if (x->used != y->used) return x->used < y->used ? -1 : 1;
    return strcmp(x->hex, y->hex);
}

/* Removes the entry `hex` if it still is one: 0 (removed), ENOENT (gone
 * or no longer an entry), or the errno of the failed removal. */
static int remove_entry(int dir, const char *hex) {
    char sub[3] = {hex[0], hex[1], '\0'};
    int sfd = open_sub(dir, sub, false), e = 0;
    struct stat st;
    if (sfd < 0)
        e = ENOENT;
    else if (fstatat(sfd, hex, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
        e = ENOENT;
    else if (unlinkat(sfd, hex, 0) != 0)
        e = errno;
    if (sfd >= 0) close(sfd);
    return e;
}

/* Removes entries, least recently used first, until at most max bytes
 * are left. Every failed removal is an error (the first is named). */
static blobc_status drop_entries(int dir, const char *root, entry_list *l, uint64_t max,
                                 uint64_t *removed, blobc_error *err) {
    uint64_t total = 0, failed = 0;
    for (size_t i = 0; i < l->n; i++) total += l->v[i].size;
    if (l->n) qsort(l->v, l->n, sizeof *l->v, by_use);
    for (size_t i = 0; i < l->n && total > max; i++) {
        int e = remove_entry(dir, l->v[i].hex);
        if (e == 0) ++*removed;
        if (e == 0 || e == ENOENT) {
            total -= l->v[i].size;
        } else if (failed++ == 0) {
            char sub[3] = {l->v[i].hex[0], l->v[i].hex[1], '\0'};
            char *path = path_of(root, sub, l->v[i].hex);
            blobc_err_io(err, "remove the cache entry", path ? path : root, e);
            free(path);
        }
    }
    if (failed > 1) {
        blobc_error first = *err;
        blobc_err(err, BLOBC_EIO, "%s (and %llu more entries)", first.message,
                  (unsigned long long)(failed - 1));
    }
    return failed ? BLOBC_EIO : BLOBC_OK;
}

blobc_status blobc_cache_dir_prune(const char *root, uint64_t max_bytes, uint64_t *removed,
                                   blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!root) return blobc_err_arg(err, __func__, "dir is NULL");
    uint64_t n = 0;
    if (removed) *removed = 0;
    int dir = blobc_dir_open(root, false, err);
    if (dir < 0) return err->status;
    /* A cache that cannot be written cannot be pruned: say so, rather
     * than report nothing removed. */
    blobc_status st = BLOBC_OK;
    if (faccessat(dir, ".", W_OK, 0) != 0) st = blobc_err_io(err, "prune the cache directory", root, errno);
    entry_list l = {0};
    if (!st) st = list_entries(dir, root, &l, true, err);
    if (!st) clean_stats(dir, time(NULL));
    if (!st) st = drop_entries(dir, root, &l, max_bytes, &n, err);
    free(l.v);
    close(dir);
    if (removed) *removed = n;
    return st;
}
#else
static blobc_status no_dir(blobc_error *err, const char *root) {
    blobc_err_file(err, root);
    return blobc_err(err, BLOBC_EIO,
                     "a cache directory is not available in the Windows build yet; use an "
                     "HTTP cache (docs/PORTABILITY.md)");
}

int blobc_dir_open(const char *root, bool create, blobc_error *err) {
    (void)create;
    no_dir(err, root);
    return -1;
}

void blobc_dir_close(int dir) { (void)dir; }

bool blobc_dir_get(int dir, const char *root, const uint8_t key[16], entry_judge *j,
                   blobc_buffer *out, blobc_error *warn) {
    (void)dir, (void)root, (void)key, (void)j, (void)out, (void)warn;
    return false;
}

void blobc_dir_put(int dir, const char *root, const uint8_t key[16], const void *entry,
                   size_t len, blobc_error *warn) {
    (void)dir, (void)root, (void)key, (void)entry, (void)len, (void)warn;
}

void blobc_dir_record(int dir, uint64_t hits, uint64_t misses) { (void)dir, (void)hits, (void)misses; }

blobc_status blobc_cache_dir_stats(const char *root, blobc_cache_stats *s, blobc_error *err) {
    blobc_error scratch;
    (void)s;
    return no_dir(blobc_err_or(err, &scratch), root ? root : "");
}

blobc_status blobc_cache_dir_prune(const char *root, uint64_t max_bytes, uint64_t *removed,
                                   blobc_error *err) {
    blobc_error scratch;
    (void)max_bytes;
    if (removed) *removed = 0;
    return no_dir(blobc_err_or(err, &scratch), root ? root : "");
}
#endif
