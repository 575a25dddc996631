/*
 * output.c - the output rules every command that writes a file follows,
 * and the sets of a run's inputs and outputs by identity.
 *
 *  - A regular file, or a path that does not exist yet, is written to a
 *    temporary file in the same directory and given the name in one step
 *    (blobc_os_replace, lib/platform/). On Linux the temporary is unnamed
 *    (O_TMPFILE): a new file is then linked under its name, so even
 *    SIGKILL leaves nothing behind; a file that is replaced is linked as
 *    ".NAME.blobc-tmp" (locked while live) and renamed over NAME by the
 *    very next call. Elsewhere a hidden ".NAME.XXXXXX" is written and
 *    renamed (moved, on Windows). Either way the caller's hooks hear of a
 *    named temporary before it can appear and after it is gone, so that a
 *    signal or console handler can hold off or remove it.
 *  - Missing directories above the output are created, as mkdir -p does.
 *  - A character device, FIFO or socket is written in place, never
 *    replaced (`-o /dev/null` stays a device, a FIFO keeps its reader).
 *  - A symbolic link is followed: its target is written, the link stays.
 *  - An output that is one of the run's inputs (same device and inode,
 *    through any link) is refused before anything is written.
 *
 *  - The content is bytes in memory, or what a producer makes as it is
 *    written (blobc_write_output_from: a dump's text, never whole in
 *    memory); a producer that fails leaves no file, like a failed write.
 *
 * The file is not fsync'ed: outputs are build artifacts that can be
 * regenerated, and the rename already makes the write atomic with respect
 * to every other process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "blobc/blobfile.h"
#include "common/hashtab.h"
#include "common/buffer.h"
#include "common/err.h"
#include "common/fileio.h"
#include "platform/platform.h"

/* ---- the files of a run, by identity ----
 * An input is its (device, inode). An output is the directory it goes in
 * (device, inode) and its name there, so that a file not written yet has
 * an identity too: "x/a.blob", "./x/a.blob" and "link-to-x/a.blob" are
 * one output. */

typedef struct file_entry {
    uint64_t dev, ino;
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
    /* The directory the last output went in, as looked at: a batch's
     * outputs mostly share one, looked at once. */
    char *dir;
    bool dir_known;
    blobc_os_info dir_st;
};

static uint64_t id_hash(uint64_t dev, uint64_t ino, const char *name) {
    uint64_t h = blobc_hash_u64(blobc_hash_u64((uint64_t)dev) ^ (uint64_t)ino);
    return name ? h ^ blobc_hash_bytes(name, strlen(name)) : h;
}

static const file_entry *set_find(const fileset *s, uint64_t dev, uint64_t ino, const char *name) {
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
static blobc_status set_add(fileset *s, uint64_t dev, uint64_t ino, const char *name, const char *given,
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
    blobc_os_info st;
    bool is_stdin = strcmp(path, "-") == 0;
    /* A missing input is reported by whoever reads it. */
    if ((is_stdin ? blobc_os_fstat(blobc_os_stdin(), &st) : blobc_os_stat(path, &st)) != 0)
        return BLOBC_OK;
    return blobc_inputs_add_info(set, path, &st, err);
}

blobc_status blobc_inputs_add_info(blobc_inputs *set, const char *path, const blobc_os_info *info,
                                   blobc_error *err) {
    size_t first;
    return set_add(&set->s, info->dev, info->ino, NULL, path, &first, err);
}

blobc_status blobc_inputs_add_all(blobc_inputs *dst, const blobc_inputs *src, blobc_error *err) {
    size_t first;
    blobc_status st = BLOBC_OK;
    for (size_t i = 0; src && i < src->s.count && !st; i++) {
        const file_entry *e = &src->s.items[i];
        st = set_add(&dst->s, e->dev, e->ino, NULL, e->given, &first, err);
    }
    return st;
}

const char *blobc_inputs_find_info(const blobc_inputs *set, const blobc_os_info *st) {
    if (!set) return NULL;
    const file_entry *e = set_find(&set->s, st->dev, st->ino, NULL);
    return e ? e->given : NULL;
}

const char *blobc_inputs_find(const blobc_inputs *set, const char *path) {
    blobc_os_info st;
    if (!set || !path || strcmp(path, "-") == 0 || blobc_os_stat(path, &st) != 0) return NULL;
    return blobc_inputs_find_info(set, &st);
}

bool blobc_writes_over(const char *output, const char *path) {
    blobc_os_info so, sp;
    if (!output || !path || strcmp(output, "-") == 0) return false;
    if (strcmp(output, path) == 0) return true;
    if (blobc_os_stat(output, &so) != 0 || blobc_os_stat(path, &sp) != 0) return false;
    return blobc_os_same_file(&so, &sp);
}

/* The directory part of `target` (a new string: "." when it has none). */
static char *dir_of(const char *target) {
    size_t n = blobc_os_dir_len(target);
    if (!n) n = 2, target = "./";
    if (n > 1) n--; /* "/" itself stays */
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, target, n);
        d[n] = '\0';
    }
    return d;
}

static const char *base_of(const char *target) { return target + blobc_os_dir_len(target); }

blobc_outputs *blobc_outputs_new(void) { return calloc(1, sizeof(blobc_outputs)); }

void blobc_outputs_free(blobc_outputs *set) {
    if (!set) return;
    set_free(&set->s);
    free(set->dir);
    free(set);
}

/* Whether dir is a directory, and its identity in *st: looked at once
 * for a run of outputs in it. False when out of memory too (the whole
 * path then stands for itself, as for a directory still to be made). */
static bool dir_identity(blobc_outputs *set, char *dir, blobc_os_info *st) {
    if (!set->dir || strcmp(set->dir, dir) != 0) {
        char *copy = strdup(dir);
        free(set->dir);
        set->dir = copy;
        set->dir_known = blobc_os_stat(dir, &set->dir_st) == 0 && set->dir_st.kind == BLOBC_OS_DIRECTORY;
        if (!copy) return set->dir_known;
    }
    *st = set->dir_st;
    return set->dir_known;
}

blobc_status blobc_outputs_add(blobc_outputs *set, const char *path, size_t *first,
                               blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!set || !path || !first) return blobc_err_arg(err, __func__, "set, path or first is NULL");
    return blobc_outputs_add_known(set, path, first, NULL, err);
}

blobc_status blobc_outputs_add_known(blobc_outputs *set, const char *path, size_t *first,
                                     blobc_out_known *known, blobc_error *err) {
    /* Standard output is a name of its own (a directory's never holds '/'
     * in a name, so no file is keyed like it). */
    if (strcmp(path, "-") == 0) return set_add(&set->s, 0, 0, "/-", path, first, err);
    char *target = NULL, *dir = NULL;
    blobc_os_info info;
    int found;
    int e = blobc_os_resolve_links_info(path, &target, &info, &found);
    if (e) return e == ENOMEM ? blobc_err_nomem(err) : blobc_err_io(err, "open", path, e);
    if (!(dir = dir_of(target))) {
        free(target);
        return blobc_err_nomem(err);
    }
    /* A directory still to be made has no identity yet: the whole path
     * stands for itself. */
    blobc_os_info st = {0};
    const char *base = base_of(target);
    bool ok = base[0] && strcmp(base, ".") != 0 && strcmp(base, "..") != 0 &&
              dir_identity(set, dir, &st);
    blobc_status s = ok ? set_add(&set->s, st.dev, st.ino, base, path, first, err)
                        : set_add(&set->s, 0, 0, target, path, first, err);
    free(dir);
    if (known && s == BLOBC_OK) {
        known->target = target;
        known->found = found;
        known->info = info;
    } else {
        free(target);
    }
    return s;
}

/* ---- writing ---- */

static blobc_status out_error(blobc_error *err, const char *what, const char *path, int e) {
    return blobc_err_io(err, what, path, e);
}

typedef struct out_ctx {
    const char *path;   /* as given, for messages */
    const char *target; /* after following links */
    const blobc_output_options *opts;
    bool exists;        /* target is an existing regular file */
    blobc_os_info old;  /* then: what it is (its permissions are kept) */
} out_ctx;

/* Creates the missing directories above the target, as mkdir -p does
 * (0777 less the umask). A directory that cannot be looked at for another
 * reason is left to the write to report. */
static blobc_status make_parents(const out_ctx *c, blobc_error *err) {
    char *dir = dir_of(c->target);
    if (!dir) return blobc_err_nomem(err);
    blobc_os_info st;
    blobc_status s = BLOBC_OK;
    if (blobc_os_stat(dir, &st) == ENOENT) {
        /* Each prefix that ends before a separator, then the whole; not a
         * bare root, drive or doubled separator ("/", "C:", "a//"). */
        size_t n = strlen(dir);
        for (size_t i = 1; i <= n; i++) {
            char sep[2] = {dir[i], '\0'};
            if (i < n && blobc_os_dir_len(sep) != 1) continue;
            dir[i] = '\0';
            int e = blobc_os_dir_len(dir) == i ? 0 : blobc_os_mkdir(dir);
            if (e && e != EEXIST) {
                s = out_error(err, "create the directory", dir, e);
                break;
            }
            dir[i] = sep[0];
        }
    }
    free(dir);
    return s;
}

static blobc_status stdout_error(int e, blobc_error *err) {
    char why[128];
    blobc_err_file(err, "<stdout>");
    return blobc_err(err, BLOBC_EIO, "cannot write to standard output: %s",
                     blobc_errno_text(e, why, sizeof why));
}

static int put_stdout(void *to, const void *p, size_t n) {
    (void)to;
    return blobc_os_write_stdout(p, n);
}

static int write_stdout(const blobc_os_content *c) {
    return c->produce ? c->produce(c->ctx, put_stdout, NULL) : blobc_os_write_stdout(c->data, c->len);
}

blobc_status blobc_err_refuse_input(blobc_error *err, const char *in, const char *path) {
    blobc_err_file(err, path);
    if (strcmp(in, path) == 0)
        return blobc_err(err, BLOBC_EIO, "refusing to overwrite input file '%s'", in);
    return blobc_err(err, BLOBC_EIO,
                     "refusing to overwrite input file '%s' (the output '%s' is the same file)",
                     strcmp(in, "-") == 0 ? "<stdin>" : in, path);
}

/* A producer's run: its status beside the write's errno, which the
 * platform layer carries (ECANCELED: the producer failed). */
typedef struct producer {
    blobc_produce_fn produce;
    void *ctx;
    blobc_error *err;
    blobc_status st;
} producer;

/* A write that failed at `stage` with errno e: the producer's own failure
 * (already in err), or an I/O error. */
static blobc_status write_failed(const producer *p, const char *stage, const char *path, int e,
                                 blobc_error *err) {
    if (e == ECANCELED && p) return p->st;
    if (e == ENOMEM) return blobc_err_nomem(err);
    return out_error(err, stage, path, e);
}

/* What is at the target decides the route: 1 when the write is done (or
 * refused; *st says), 0 when a regular file is to be written. `found`
 * and sb: what looking at the target gave; `parents`: whether missing
 * directories may have to be made. */
static int classify(out_ctx *c, const blobc_os_content *content, const producer *p, int found,
                    blobc_os_info sb, bool parents, blobc_status *st, blobc_error *err) {
    if (found != 0) {
        *st = parents ? make_parents(c, err) : BLOBC_OK;
        return *st != BLOBC_OK;
    }
    const char *in = c->opts ? blobc_inputs_find_info(c->opts->inputs, &sb) : NULL;
    if (in) {
        *st = blobc_err_refuse_input(err, in, c->path);
    } else if (sb.kind == BLOBC_OS_DIRECTORY) {
        *st = out_error(err, "replace", c->path, EISDIR);
    } else if (sb.kind == BLOBC_OS_OTHER) {
        /* Devices, FIFOs and sockets are written where they are, and
         * cannot be read back: a copy's check is not run (its callers
         * write those from memory). */
        const char *stage = "open";
        blobc_os_copy unchecked;
        blobc_os_content in_place = *content;
        if (content->copy) {
            unchecked = *content->copy;
            unchecked.check = NULL;
            in_place.copy = &unchecked;
        }
        int e = blobc_os_write_in_place(c->target, &in_place, &stage);
        *st = e ? write_failed(p, stage, c->path, e, err) : BLOBC_OK;
    } else {
        c->exists = true;
        c->old = sb;
        return 0;
    }
    return 1;
}

typedef struct sink {
    int (*put)(void *to, const void *p, size_t n);
    void *to;
    int e; /* the first write error */
} sink;

static bool put_piece(void *to, const void *bytes, size_t len) {
    sink *k = to;
    if (!k->e && len) k->e = k->put(k->to, bytes, len);
    return !k->e;
}

static int run_producer(void *ctx, int (*put)(void *to, const void *p, size_t n), void *to) {
    producer *p = ctx;
    sink k = {put, to, 0};
    blobc_error_clear(p->err);
    p->st = p->produce(p->ctx, put_piece, &k, p->err);
    return k.e ? k.e : p->st != BLOBC_OK ? ECANCELED : 0;
}

/* The output rules for content at target, what is there already known
 * (found, sb); through dir when it holds the target's directory open. */
static blobc_status write_known(const char *path, const char *target, int found,
                                const blobc_os_info *sb, blobc_os_outdir *dir,
                                const blobc_os_content *content, const producer *p,
                                const blobc_output_options *opts, blobc_error *err) {
    out_ctx c = {path, target, opts, false, {0}};
    blobc_status st = BLOBC_OK;
    if (!classify(&c, content, p, found, *sb, !dir, &st, err)) {
        blobc_os_temp_hooks hooks = {opts ? opts->temp_created : NULL,
                                     opts ? opts->temp_gone : NULL, opts ? opts->hook_ctx : NULL};
        const char *stage = "replace";
        const blobc_os_info *old = c.exists ? &c.old : NULL;
        bool named = opts && opts->named_temp;
        int e = dir ? blobc_os_replace_in(dir, target, content, old, named, &hooks, &stage)
                    : blobc_os_replace(target, content, old, named, &hooks, &stage);
        if (e) st = write_failed(p, stage, path, e, err);
    }
    return st;
}

/* The output rules for content; p is its producer, if any. */
static blobc_status write_content(const char *path, const blobc_os_content *content, const producer *p,
                                  const blobc_output_options *opts, blobc_error *err) {
    if (strcmp(path, "-") == 0) {
        int e = write_stdout(content);
        return !e ? BLOBC_OK : e == ECANCELED && p ? p->st : stdout_error(e, err);
    }
    char *target = NULL;
    blobc_os_info sb;
    int found;
    int e = blobc_os_resolve_links_info(path, &target, &sb, &found);
    if (e == ENOMEM) return blobc_err_nomem(err);
    if (e) return out_error(err, "open", path, e);
    blobc_status st = write_known(path, target, found, &sb, NULL, content, p, opts, err);
    free(target);
    return st;
}

blobc_status blobc_write_output_known(const char *path, const blobc_out_known *known,
                                      blobc_os_outdir *dir, const void *data, size_t len,
                                      const blobc_output_options *opts, blobc_error *err) {
    /* Only a target looked at, in a directory held open (so none is to be
     * made): anything else is looked at again, as any write does. */
    if (!known || !known->target || !dir || (known->found && known->found != ENOENT))
        return blobc_write_output(path, data, len, opts, err);
    blobc_os_content content = {data, len, NULL, NULL, NULL};
    return write_known(path, known->target, known->found, &known->info, dir, &content, NULL, opts,
                       err);
}

blobc_status blobc_write_output(const char *path, const void *data, size_t len,
                                const blobc_output_options *opts, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!path) return blobc_err_arg(err, __func__, "path is NULL");
    if (!data && len) return blobc_err_arg(err, __func__, "len is not 0 but data is NULL");
    blobc_os_content content = {data, len, NULL, NULL, NULL};
    return write_content(path, &content, NULL, opts, err);
}

blobc_status blobc_write_output_from(const char *path, blobc_produce_fn produce, void *ctx,
                                     const blobc_output_options *opts, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!path || !produce) return blobc_err_arg(err, __func__, "path or produce is NULL");
    producer p = {produce, ctx, err, BLOBC_OK};
    blobc_os_content content = {NULL, 0, run_producer, &p, NULL};
    return write_content(path, &content, &p, opts, err);
}

/* The plain copy of a file's range: read and handed to put in pieces
 * small enough to stay in the processor's cache. */
static int copy_pieces(void *ctx, int (*put)(void *to, const void *p, size_t n), void *to) {
    enum { PIECE = 256 << 10 };
    const blobc_os_copy *c = ctx;
    uint8_t *buf = malloc(c->len < PIECE ? (size_t)c->len + 1 : PIECE);
    if (!buf) return ENOMEM;
    int e = 0;
    for (uint64_t done = 0; !e && done < c->len;) {
        size_t want = c->len - done < PIECE ? (size_t)(c->len - done) : PIECE, got = 0;
        e = blobc_os_read_at(c->fd, buf, want, c->at + done, &got);
        if (!e && got != want) e = EIO; /* cut short meanwhile */
        if (!e) e = put(to, buf, got);
        if (!e && c->seen) c->seen(c->check_ctx, done, buf, got);
        done += got;
    }
    free(buf);
    return e;
}

blobc_status blobc_write_output_copy(const char *path, blobc_os_fd fd, uint64_t at, uint64_t len,
                                     int (*check)(void *ctx, blobc_os_fd written),
                                     void (*seen)(void *ctx, uint64_t at, const void *p, size_t n),
                                     void *check_ctx, const blobc_output_options *opts,
                                     blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!path || fd == BLOBC_OS_NO_FD) return blobc_err_arg(err, __func__, "path or fd is missing");
    if (check && strcmp(path, "-") == 0)
        return blobc_err_arg(err, __func__, "a checked copy cannot go to standard output");
    blobc_os_copy copy = {fd, at, len, opts && opts->plain_copy, check, seen, check_ctx};
    blobc_os_content content = {NULL, 0, copy_pieces, &copy, &copy};
    return write_content(path, &content, NULL, opts, err);
}

blobc_status blobc_write_file_atomic(const char *path, const void *data, size_t len,
                                     blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!path) return blobc_err_arg(err, __func__, "path is NULL");
    if (!data && len) return blobc_err_arg(err, __func__, "len is not 0 but data is NULL");
    return blobc_write_output(path, data, len, NULL, err);
}
