/*
 * dir.c - the cache in a directory: its entries, the counts of hits and
 * misses under stats/, statistics and pruning.
 *
 * The directory may be shared with other users and machines (a network
 * file system), any of whom can plant files, links, FIFOs or directories
 * in it. So the file system, not only the bytes, is a trust boundary:
 *  - the directory the user named is opened once; everything below it is
 *    reached from it one name at a time (a tree of lib/platform/), so no
 *    symbolic link or reparse point inside the cache is ever followed;
 *  - a file is opened only when it is a regular file, in a way that a
 *    FIFO put there meanwhile cannot stall;
 *  - an entry's head is checked before its size is trusted, and the entry
 *    is read into memory with bounded reads, never mapped: a mapped file
 *    that another user truncates kills the reader (SIGBUS);
 *  - a write creates a new file (never opening what was there) and
 *    renames it over the name, which replaces whatever was planted there
 *    and never writes through it;
 *  - only prune, and the folding of stats/, remove files: regular files
 *    whose names are names this file writes, in a directory of the cache.
 *
 * Owners are not checked: in a shared cache every user writes entries,
 * and what an entry holds is judged by verifying it (cache.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobc.h"
#include "blobc/cache.h"
#include "cache/cache_internal.h"
#include "common/fileio.h"
#include "platform/platform.h"

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


#define TEMP_AGE 3600     /* seconds: a temporary file this old lost its writer */
#define ENTRY_SUFFIX 6    /* ".<key hex>.<6>": the temporary files of entries */
#define STATS_DIR "stats" /* "p.<6 to 16>" count files, ".p.<...>" their temporaries */
#define STATS_SUFFIX 12
#define STATS_FOLD 16     /* fold stats/ when it holds this many count files */
#define STATS_SCAN 256    /* names looked at per fold: bounded work per process */
#define STATS_LINE 64
#define HEAD_MAX 64       /* the most bytes of head an entry_judge may want */

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

/* Reads n bytes of fd from offset `at`: whether all of them came. */
static bool read_all_at(blobc_os_fd fd, void *buf, size_t n, uint64_t at) {
    size_t got;
    return blobc_os_read_at(fd, buf, n, at, &got) == 0 && got == n;
}

/* ---- opening ---- */

blobc_os_tree *blobc_dir_open(const char *root, bool create, blobc_error *err) {
    blobc_os_tree *t = NULL;
    int e = create ? blobc_os_mkdir(root) : 0;
    if (e && e != EEXIST) {
        blobc_err_io(err, "create the cache directory", root, e);
        return NULL;
    }
    if ((e = blobc_os_tree_open(root, &t))) blobc_err_io(err, "open the cache directory", root, e);
    return t;
}

void blobc_dir_close(blobc_os_tree *dir) { blobc_os_tree_close(dir); }

/* Why the subdirectory could not be opened (error e), or NULL when it is
 * simply not there or cannot be read. */
static const char *sub_fault(int e) {
    if (e == ELOOP) return "its directory is a symbolic link, never followed";
    return e == ENOTDIR ? "its directory is not a directory" : NULL;
}

/* Opens `name` in dir for reading when it is a regular file: the
 * descriptor and its info in *st, or BLOBC_OS_NO_FD with *why (NULL when
 * there is no such file). */
static blobc_os_fd open_regular(const blobc_os_tree *dir, const char *name, blobc_os_info *st,
                                const char **why) {
    blobc_os_fd fd;
    int e;
    /* Another writer of the same key may rename its copy over the entry
     * between the look and the open: that is the cache working, so look
     * again (a few times; something that keeps swapping is reported). */
    for (int tries = 0; (e = blobc_os_tree_read(dir, name, &fd, st)) == EAGAIN && tries < 4;)
        tries++;
    *why = NULL;
    if (e == EAGAIN) *why = "it was replaced while being opened";
    else if (e && e != ENOENT) *why = "it cannot be opened";
    else if (!e && fd == BLOBC_OS_NO_FD) *why = blobc_kind_text(st->kind);
    return e ? BLOBC_OS_NO_FD : fd;
}

/* ---- entries ---- */

/* The head of the open entry fd of size bytes, judged by j: NULL when it
 * declares that size, else why not. */
static const char *judge_head(blobc_os_fd fd, uint64_t size, entry_judge *j, uint8_t *head) {
    if (size < j->head || j->head > HEAD_MAX) return "not a cache entry";
    if (!read_all_at(fd, head, j->head, 0)) return "it was cut short while being read";
    size_t total = j->judge(j, head);
    if (!total) return j->why;
    return total == size ? NULL : "its length is wrong";
}

/* Reads the entry `hex` of the subdirectory sub into out: NULL when it
 * was read, else why not ("" when there is none). With `file`, an entry
 * that only this user can have written (the file, sub and the cache
 * directory `top` all private, lib/platform/) is left open in its file
 * instead, unread: its checks are the caller's. */
static const char *read_entry(const blobc_os_tree *top, const blobc_os_tree *sub, const char *hex,
                              entry_judge *j, blobc_buffer *out, entry_file *file) {
    blobc_os_info st;
    const char *why;
    blobc_os_fd fd = open_regular(sub, hex, &st, &why);
    if (fd == BLOBC_OS_NO_FD) return why ? why : "";
    if (file && blobc_os_fd_private(fd) && blobc_os_tree_private(sub) && blobc_os_tree_private(top)) {
        file->fd = fd;
        file->size = st.size;
        return NULL;
    }
    uint8_t head[HEAD_MAX];
    why = judge_head(fd, st.size, j, head);
    /* Only now is the size trusted: the head of this key declares it, and
     * its memory is counted. */
    if (!why && !blobc_buf_reserve(out, (size_t)st.size)) why = "out of memory";
    if (!why) {
        memcpy(out->data, head, j->head);
        size_t rest = (size_t)st.size - j->head;
        if (!read_all_at(fd, out->data + j->head, rest, j->head))
            why = "it was cut short while being read";
        else
            out->len = (size_t)st.size;
    }
    /* Touched, so that prune drops what is used least recently even where
     * the file system does not keep access times. */
    if (!why) blobc_os_touch_fd(fd);
    blobc_os_close(fd);
    return why;
}

bool blobc_dir_get(blobc_os_tree *dir, const char *root, const uint8_t key[16], entry_judge *j,
                   blobc_buffer *out, entry_file *file, blobc_error *warn) {
    char hex[33], sub[3];
    blobc_cache_key_hex(key, hex);
    memcpy(sub, hex, 2);
    sub[2] = '\0';
    const char *why = NULL;
    bool found = false;
    blobc_os_tree *st;
    int e = blobc_os_tree_sub(dir, sub, false, &st);
    if (e) {
        why = sub_fault(e);
        if (!why && e != ENOENT) why = "its directory cannot be read";
    } else {
        why = read_entry(dir, st, hex, j, out, file);
        blobc_os_tree_close(st);
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

void blobc_dir_put(blobc_os_tree *dir, const char *root, const uint8_t key[16], const void *entry,
                   size_t len, blobc_error *warn) {
    char hex[33], sub[3], tmp[1 + 32 + 1 + ENTRY_SUFFIX + 1];
    blobc_cache_key_hex(key, hex);
    memcpy(sub, hex, 2);
    sub[2] = '\0';
    snprintf(tmp, sizeof tmp, ".%s.%0*d", hex, ENTRY_SUFFIX, 0);
    blobc_os_tree *st = NULL;
    int e = blobc_os_tree_sub(dir, sub, true, &st);
    const char *what = "create the cache directory", *fault = NULL;
    if (e) {
        fault = sub_fault(e);
    } else {
        /* Readers on any machine see no entry or a whole one; writers of
         * one key race harmlessly (the same bytes), and an entry others
         * are reading (Windows cannot replace it then) is left to them. */
        e = blobc_os_tree_write(st, tmp, ENTRY_SUFFIX, hex, entry, len);
        if (e == EBUSY) e = 0;
        what = "store the cache entry";
        blobc_os_tree_close(st);
    }
    if (!e) return;
    char *path = path_of(root, sub, fault || st ? hex : NULL);
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
static bool read_counts(const blobc_os_tree *dir, const char *name, uint64_t *h, uint64_t *m) {
    blobc_os_info st;
    const char *why;
    blobc_os_fd fd = open_regular(dir, name, &st, &why);
    if (fd == BLOBC_OS_NO_FD) return false;
    char line[STATS_LINE];
    size_t n = 0;
    if (blobc_os_read_at(fd, line, sizeof line - 1, 0, &n) != 0) n = 0;
    blobc_os_close(fd);
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
static void fold(const blobc_os_tree *st, uint64_t *h, uint64_t *m) {
    char names[STATS_SCAN][20];
    size_t n = 0, seen = 0;
    blobc_os_dir *d;
    if (blobc_os_tree_list(st, &d) != 0) return;
    const char *f;
    while (seen++ < STATS_SCAN && (f = blobc_os_dir_next(d)))
        if (is_stats(f)) memcpy(names[n++], f, strlen(f) + 1); /* <= 19 */
    blobc_os_dir_close(d);
    for (size_t i = 0; n >= STATS_FOLD && i < n; i++) {
        uint64_t fh = 0, fm = 0;
        if (read_counts(st, names[i], &fh, &fm) && blobc_os_tree_remove(st, names[i]) == 0) {
            *h = add_sat(*h, fh);
            *m = add_sat(*m, fm);
        }
    }
}

void blobc_dir_record(blobc_os_tree *dir, uint64_t hits, uint64_t misses) {
    blobc_os_tree *st;
    if (!dir || (hits == 0 && misses == 0) || blobc_os_tree_sub(dir, STATS_DIR, true, &st) != 0)
        return;
    fold(st, &hits, &misses);
    /* Each process writes a file of its own: no two writers ever share
     * one (NFS has no reliable append). */
    char tmp[3 + STATS_SUFFIX + 1] = ".p.";
    memset(tmp + 3, '0', STATS_SUFFIX);
    tmp[3 + STATS_SUFFIX] = '\0';
    char line[STATS_LINE];
    int len = snprintf(line, sizeof line, "%llu %llu\n", (unsigned long long)hits,
                       (unsigned long long)misses);
    (void)blobc_os_tree_write(st, tmp, STATS_SUFFIX, tmp + 1, line, (size_t)len);
    blobc_os_tree_close(st);
}

/* ---- statistics and pruning ---- */

typedef struct entry_info {
    char hex[33];
    uint64_t size;
    int64_t used;
} entry_info;

typedef struct entry_list {
    entry_info *v;
    size_t n, cap;
} entry_list;

static bool list_add(entry_list *l, const char *hex, const blobc_os_info *st) {
    if (l->n == l->cap && !blobc_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v)) return false;
    entry_info *e = &l->v[l->n++];
    memcpy(e->hex, hex, sizeof e->hex);
    e->size = st->size;
    e->used = st->atime > st->mtime ? st->atime : st->mtime;
    return true;
}

/* A listing of the subdirectory `sub` (its tree in *st): 0, or the error
 * that kept it from being read. */
static int list_of(const blobc_os_tree *dir, const char *sub, blobc_os_tree **st, blobc_os_dir **d) {
    *st = NULL;
    int e = blobc_os_tree_sub(dir, sub, false, st);
    if (!e) e = blobc_os_tree_list(*st, d);
    if (e) {
        blobc_os_tree_close(*st);
        *st = NULL;
    }
    return e;
}

/* Lists the entries of one subdirectory; with `clean`, removes the
 * temporary files of writers killed midway (an hour old or more). A
 * link or a file in the place of a subdirectory is not the cache's and
 * is passed over; one that cannot be read is an error (the counts would
 * be wrong). */
static blobc_status list_sub(const blobc_os_tree *dir, const char *root, const char *sub,
                             entry_list *l, bool clean, int64_t now, blobc_error *err) {
    blobc_os_tree *st;
    blobc_os_dir *d;
    int e = list_of(dir, sub, &st, &d);
    if (e) {
        if (e == ENOENT || sub_fault(e)) return BLOBC_OK;
        char *path = path_of(root, sub, NULL);
        blobc_err_io(err, "read the cache directory", path ? path : root, e);
        free(path);
        return err->status;
    }
    bool ok = true;
    const char *f;
    while (ok && (f = blobc_os_dir_next(d))) {
        blobc_os_info info;
        bool entry = is_entry(sub, f), temp = clean && is_entry_temp(sub, f);
        if ((!entry && !temp) || blobc_os_tree_stat(st, f, &info) != 0 || info.kind != BLOBC_OS_REGULAR)
            continue;
        if (entry) ok = list_add(l, f, &info);
        else if (now - info.mtime >= TEMP_AGE) (void)blobc_os_tree_remove(st, f);
    }
    blobc_os_dir_close(d);
    blobc_os_tree_close(st);
    return ok ? BLOBC_OK : blobc_err_nomem(err);
}

/* Every entry of the cache: regular files with an entry's name in a
 * subdirectory with its name, none reached through a link. */
static blobc_status list_entries(const blobc_os_tree *dir, const char *root, entry_list *l,
                                 bool clean, blobc_error *err) {
    blobc_os_dir *top;
    int e = blobc_os_tree_list(dir, &top);
    if (e) return blobc_err_io(err, "read the cache directory", root, e);
    int64_t now = blobc_os_now();
    blobc_status st = BLOBC_OK;
    const char *d;
    while (!st && (d = blobc_os_dir_next(top)))
        if (is_hex(d, 2)) {
            char sub[3] = {d[0], d[1], '\0'}; /* d is gone at the next name */
            st = list_sub(dir, root, sub, l, clean, now, err);
        }
    blobc_os_dir_close(top);
    return st;
}

/* The temporary files of stats/ whose writers were killed. */
static void clean_stats(const blobc_os_tree *dir, int64_t now) {
    blobc_os_tree *st;
    blobc_os_dir *d;
    if (list_of(dir, STATS_DIR, &st, &d) != 0) return;
    const char *f;
    blobc_os_info info;
    while ((f = blobc_os_dir_next(d)))
        if (is_stats_temp(f) && blobc_os_tree_stat(st, f, &info) == 0 &&
            info.kind == BLOBC_OS_REGULAR && now - info.mtime >= TEMP_AGE)
            (void)blobc_os_tree_remove(st, f);
    blobc_os_dir_close(d);
    blobc_os_tree_close(st);
}

static void sum_counts(const blobc_os_tree *dir, blobc_cache_stats *s) {
    blobc_os_tree *st;
    blobc_os_dir *d;
    if (list_of(dir, STATS_DIR, &st, &d) != 0) return;
    const char *f;
    while ((f = blobc_os_dir_next(d)))
        if (is_stats(f)) (void)read_counts(st, f, &s->hits, &s->misses);
    blobc_os_dir_close(d);
    blobc_os_tree_close(st);
}

blobc_status blobc_cache_dir_stats(const char *root, blobc_cache_stats *s, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!root || !s) return blobc_err_arg(err, __func__, "dir or stats is NULL");
    memset(s, 0, sizeof *s);
    blobc_os_tree *dir = blobc_dir_open(root, false, err);
    if (!dir) return err->status;
    entry_list l = {0};
    blobc_status st = list_entries(dir, root, &l, false, err);
    for (size_t i = 0; i < l.n; i++) s->bytes += l.v[i].size;
    s->entries = l.n;
    free(l.v);
    if (!st) sum_counts(dir, s);
    blobc_os_tree_close(dir);
    return st;
}

static int by_use(const void *a, const void *b) {
    const entry_info *x = a, *y = b;
    if (x->used != y->used) return x->used < y->used ? -1 : 1;
    return strcmp(x->hex, y->hex);
}

/* Removes the entry `hex` if it still is one: 0 (removed), ENOENT (gone
 * or no longer an entry), or the error of the failed removal. */
static int remove_entry(const blobc_os_tree *dir, const char *hex) {
    char sub[3] = {hex[0], hex[1], '\0'};
    blobc_os_tree *st;
    if (blobc_os_tree_sub(dir, sub, false, &st) != 0) return ENOENT;
    int e = blobc_os_tree_remove(st, hex);
    blobc_os_tree_close(st);
    return e;
}

/* Removes entries, least recently used first, until at most max bytes
 * are left. Every failed removal is an error (the first is named). */
static blobc_status drop_entries(const blobc_os_tree *dir, const char *root, entry_list *l,
                                 uint64_t max, uint64_t *removed, blobc_error *err) {
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
    blobc_os_tree *dir = blobc_dir_open(root, false, err);
    if (!dir) return err->status;
    /* A cache that cannot be written cannot be pruned: say so, rather
     * than report nothing removed. */
    blobc_status st = BLOBC_OK;
    int e = blobc_os_tree_writable(dir);
    if (e) st = blobc_err_io(err, "prune the cache directory", root, e);
    entry_list l = {0};
    if (!st) st = list_entries(dir, root, &l, true, err);
    if (!st) clean_stats(dir, blobc_os_now());
    if (!st) st = drop_entries(dir, root, &l, max_bytes, &n, err);
    free(l.v);
    blobc_os_tree_close(dir);
    if (removed) *removed = n;
    return st;
}
