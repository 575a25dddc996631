/*
 * cache.c - the content-addressed cache of baked outputs: entry naming
 * and format, the checks every entry read must pass, the memory entries
 * may hold, and the tiers a lookup asks in turn. A directory's files are
 * in dir.c (entries, statistics, pruning), HTTP transfers in http.c.
 *
 * An entry is stored at <root>/<first 2 hex digits of the key>/<32 hex
 * digits> as a 32-byte head (magic, the key again, the payload length)
 * followed by the output bytes, so a file put under the wrong name, cut
 * short or replaced is caught before its payload is even verified.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "blobc/blobc.h"
#include "blobc/cache.h"
#include "cache/cache_internal.h"

#define ENTRY_MAGIC "BLOBCCE1"
#define ENTRY_HEAD 32u
/* The largest entry: a blob's data section is at most 2 GiB - 1, and its
 * header and type section are far smaller than the rest of 4 GiB. */
#define ENTRY_MAX ((size_t)0xffffffffu)
/* The most memory entries read (HTTP bodies, directory files) may hold at
 * once, across every thread of a cache: a server or a user of a shared
 * directory declaring huge entries costs no more than this. */
#define HELD_MAX ((size_t)512 << 20)

/* Most caches one spec may list (a local directory before a server). */
#define MAX_TIERS 4

typedef struct tier {
    char *root;          /* directory, or URL without a trailing '/' */
    bool http;
    blobc_os_tree *fd;   /* the directory, opened once; NULL for a URL */
    atomic_bool down;    /* the server did not answer: stop asking */
    atomic_bool no_put;  /* the server refused a PUT: stop sending */
    blobc_curl curl;     /* libcurl's calls, for a URL */
    atomic_uint_least64_t hits, misses; /* lookups this tier answered */
} tier;

struct blobc_cache {
    tier t[MAX_TIERS];   /* asked in order; a hit is copied into the earlier ones */
    size_t n;
    blobc_cache_options opts; /* which inputs are worth a server */
    atomic_uint_least64_t hits, misses; /* lookups, whichever tier answered */
    atomic_size_t held;  /* bytes of entries held now: HELD_MAX at most */
};

/* A hit left in its entry's file (blobc_cache_get_file): what its write
 * checks the copy against, and where its lookup was counted. */
typedef struct in_file {
    blobc_os_fd fd;
    uint64_t size;                 /* of the entry file, head included */
    const blobc_bake_plan *plan;
    bool strip;
    char *name;                    /* the entry's path, for messages */
    uint64_t data_at, data_len;    /* its data section, as its header said when checked */
    tier *tier;
    blobc_cache *owner;
} in_file;

/* ---- names ---- */

/* "<root>/ab/ab12...": malloc'd, or NULL. */
static char *entry_name(const tier *c, const uint8_t key[16]) {
    char hex[33];
    blobc_cache_key_hex(key, hex);
    size_t n = strlen(c->root) + 2 + 2 + 32 + 1;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%.2s/%s", c->root, hex, hex);
    return p;
}

/* ---- open, close ---- */

static bool is_url(const char *s) {
    return strncmp(s, "http://", 7) == 0 || strncmp(s, "https://", 8) == 0;
}

/* ---- which inputs a server is asked for ---- */

void blobc_cache_options_default(blobc_cache_options *o) {
    o->server_min_yaml = BLOBC_CACHE_SERVER_MIN_YAML;
    o->server_min_json = BLOBC_CACHE_SERVER_MIN_JSON;
}

static bool worth_a_server(const blobc_cache_options *o, blobc_input_format fmt, uint64_t size) {
    return size >= (fmt == BLOBC_INPUT_JSON ? o->server_min_json : o->server_min_yaml);
}

bool blobc_cache_asks_server(const blobc_cache_options *opts, const char *path) {
    blobc_cache_options o;
    if (opts) o = *opts;
    else blobc_cache_options_default(&o);
    blobc_os_info st;
    if (!path || strcmp(path, "-") == 0 || blobc_os_stat(path, &st) || st.kind != BLOBC_OS_REGULAR)
        return true;
    bool yaml = worth_a_server(&o, BLOBC_INPUT_YAML, st.size);
    if (yaml == worth_a_server(&o, BLOBC_INPUT_JSON, st.size)) return yaml;
    /* The format decides: the name tells it, else the first character
     * after white space, as a bake reads it. */
    char head[4096];
    size_t got = 0;
    blobc_os_fd fd;
    blobc_os_kind kind; /* a FIFO put there since the stat: never waited on */
    if (blobc_os_open_regular(path, &fd, &kind) != 0 || fd == BLOBC_OS_NO_FD) return true;
    blobc_os_read(fd, head, sizeof head, &got);
    blobc_os_close(fd);
    return worth_a_server(&o, blobc_input_format_of(head, got, path), st.size);
}

static blobc_status open_tier(tier *t, const char *spec, size_t n, bool load_curl, blobc_error *err) {
    while (n > 1 && spec[n - 1] == '/') n--;
    t->fd = NULL;
    if (!(t->root = malloc(n + 1))) return blobc_err_nomem(err);
    memcpy(t->root, spec, n);
    t->root[n] = '\0';
    t->http = is_url(t->root);
    atomic_init(&t->down, false);
    atomic_init(&t->no_put, false);
    atomic_init(&t->hits, 0);
    atomic_init(&t->misses, 0);
    if (t->http) return load_curl ? blobc_curl_load(&t->curl, t->root, err) : BLOBC_OK;
    t->fd = blobc_dir_open(t->root, true, err);
    return t->fd ? BLOBC_OK : err->status;
}

static void close_tier(tier *t) {
    blobc_curl_unload(&t->curl);
    blobc_dir_close(t->fd);
    free(t->root);
}

/* One location, or (when a URL is among them) several separated by
 * spaces, asked in order: "~/.cache/blobc http://cache:8080/blobc". */
blobc_status blobc_cache_open(const char *spec, blobc_cache **out, blobc_error *err) {
    return blobc_cache_open_with(spec, NULL, out, err);
}

blobc_status blobc_cache_open_with(const char *spec, const blobc_cache_options *opts,
                                   blobc_cache **out, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!out) return blobc_err_arg(err, __func__, "out is NULL");
    *out = NULL;
    if (!spec) return blobc_err_arg(err, __func__, "spec is NULL");
    if (!spec[0]) return blobc_err(err, BLOBC_EIO, "empty cache location");
    blobc_cache *c = calloc(1, sizeof *c);
    if (!c) return blobc_err_nomem(err);
    atomic_init(&c->hits, 0);
    atomic_init(&c->misses, 0);
    atomic_init(&c->held, 0);
    if (opts) c->opts = *opts;
    else blobc_cache_options_default(&c->opts);
    bool servers = c->opts.server_min_yaml != BLOBC_CACHE_SERVER_NEVER ||
                   c->opts.server_min_json != BLOBC_CACHE_SERVER_NEVER;
    bool list = strstr(spec, "://") != NULL;
    blobc_status st = BLOBC_OK;
    for (const char *p = spec; *p && !st;) {
        size_t n = list ? strcspn(p, " \t") : strlen(p);
        if (n && c->n == MAX_TIERS)
            st = blobc_err(err, BLOBC_EIO, "more than %d caches in the cache list", MAX_TIERS);
        else if (n)
            st = open_tier(&c->t[c->n++], p, n, servers, err);
        p += n;
        while (*p == ' ' || *p == '\t') p++;
    }
    if (!st && c->n == 0) st = blobc_err(err, BLOBC_EIO, "empty cache location");
    if (st) {
        for (size_t i = 0; i < c->n; i++) close_tier(&c->t[i]);
        free(c);
        return st;
    }
    *out = c;
    return BLOBC_OK;
}

void blobc_cache_close(blobc_cache *c) {
    if (!c) return;
    for (size_t i = 0; i < c->n; i++) {
        tier *t = &c->t[i];
        if (!t->http) blobc_dir_record(t->fd, atomic_load(&t->hits), atomic_load(&t->misses));
        close_tier(t);
    }
    free(c);
}

void blobc_cache_counts(const blobc_cache *c, uint64_t *hits, uint64_t *misses) {
    if (hits) *hits = c ? atomic_load(&c->hits) : 0;
    if (misses) *misses = c ? atomic_load(&c->misses) : 0;
}

/* ---- checking an entry ---- */

/* Why an entry's head is not one of this key, or NULL. */
static const char *head_problem(const uint8_t *e, const uint8_t key[16]) {
    if (memcmp(e, ENTRY_MAGIC, 8) != 0) return "not a cache entry";
    if (memcmp(e + 8, key, 16) != 0) return "it holds another key";
    return NULL;
}

/* The head must name this key and the payload length; the payload must
 * verify in full as the plan's root type, in the output form asked for. */
static bool entry_ok(const uint8_t *e, size_t n, const blobc_bake_plan *plan,
                     const blobc_bake_options *opts, const char *name, blobc_error *warn) {
    if (n < ENTRY_HEAD) return blobc_entry_reject(warn, name, "not a cache entry", NULL);
    const char *bad = head_problem(e, plan->key);
    if (bad) return blobc_entry_reject(warn, name, bad, NULL);
    if (blobc_ld64(e + 24) != n - ENTRY_HEAD)
        return blobc_entry_reject(warn, name, "its length is wrong", NULL);
    const uint8_t *p = e + ENTRY_HEAD;
    size_t len = n - ENTRY_HEAD;
    blobc_error ve;
    blobc_error_clear(&ve);
    if (opts && opts->output == BLOBC_OUTPUT_RAW) {
        if (blobc_verify_data(p, len, plan->root, &ve) != BLOBC_OK)
            return blobc_entry_reject(warn, name, "verification failed", &ve);
        return true;
    }
    if (opts && opts->output == BLOBC_OUTPUT_UNITY) {
        /* the version and the length rule asked for, exactly */
        blobc_unity_options u = opts->unity;
        u.check_version = true;
        if (u.length == BLOBC_UNITY_LENGTH_ANY) u.length = BLOBC_UNITY_LENGTH_PADDED;
        blobc_verify_options uo = {.schema = plan->schema, .type_name = plan->root->name,
                                   .unity = &u};
        if (blobc_verify_blob(p, len, &uo, &ve) != BLOBC_OK)
            return blobc_entry_reject(warn, name, "verification failed", &ve);
        return true;
    }
    blobc_verify_options vo = {.schema = plan->schema, .type_name = plan->root->name};
    if (blobc_verify_blob(p, len, &vo, &ve) != BLOBC_OK)
        return blobc_entry_reject(warn, name, "verification failed", &ve);
    blobc_blob b; /* verified just now: the hashes need no second pass */
    if (blobc_blob_open(p, len, BLOBC_OPEN_NO_HASH, &b, &ve) != BLOBC_OK)
        return blobc_entry_reject(warn, name, "verification failed", &ve);
    bool stripped = b.header.types_offset == 0;
    /* The verifier checks the layout, not the names: a forged entry could
     * carry other type and field names, which dump would then print. */
    bool same_types = !stripped && b.header.types_size == plan->types_.len &&
                      memcmp(p + b.header.types_offset, plan->types_.data, plan->types_.len) == 0;
    blobc_blob_close(&b);
    if (stripped != (opts && opts->strip))
        return blobc_entry_reject(warn, name, stripped ? "stripped" : "not stripped", NULL);
    if (!stripped && !same_types)
        return blobc_entry_reject(warn, name, "its type description is not the one this bake writes", NULL);
    return true;
}

/* Reads n bytes at `at` of the entry file: whether all of them came. */
static bool read_at(blobc_os_fd fd, void *buf, size_t n, uint64_t at) {
    size_t got = 0;
    return blobc_os_read_at(fd, buf, n, at, &got) == 0 && got == n;
}

/* The data section's hash, read in pieces that stay in the processor's
 * cache: false when the file was cut short. */
static bool hash_range(blobc_os_fd fd, uint64_t at, uint64_t len, uint64_t *hash) {
    enum { PIECE = 256 << 10 };
    uint8_t *buf = malloc(PIECE);
    XXH3_state_t *h = XXH3_createState();
    bool ok = buf && h && XXH3_64bits_reset(h) == XXH_OK;
    for (uint64_t done = 0; ok && done < len; done += PIECE) {
        size_t want = len - done < PIECE ? (size_t)(len - done) : PIECE;
        ok = read_at(fd, buf, want, at + done) && XXH3_64bits_update(h, buf, want) == XXH_OK;
    }
    if (ok) *hash = XXH3_64bits_digest(h);
    XXH3_freeState(h);
    free(buf);
    return ok;
}

/* The checks of a blob of len bytes at `base` of the open file fd that
 * entry_ok makes, without the walk of its data section (the one check
 * that needs all of it in memory, and most of a hit's cost): the header
 * and its hash, the layout hash, stripped or not as asked, the type
 * section's hash and its bytes against the plan's, and with `data` the
 * data section's hash, which catches a file damaged since it was
 * written. NULL when it passes, else why not (detail in *ve). */
static const char *blob_checks(blobc_os_fd fd, uint64_t base, uint64_t len,
                               const blobc_bake_plan *plan, bool strip, bool data,
                               blobc_header *out, blobc_error *ve) {
    uint8_t h[BLOBC_HEADER_SIZE];
    blobc_header scratch, *hd = out ? out : &scratch;
    size_t n = len < sizeof h ? (size_t)len : sizeof h;
    if (!read_at(fd, h, n, base)) return "it was cut short while being read";
    if (blobc_blob_check_header(h, len, hd, ve) != BLOBC_OK) return "verification failed";
    if (hd->schema_hash != blobc_type_hash(plan->root))
        return "verification failed: the blob's layout hash is not the schema's";
    bool stripped = hd->types_offset == 0;
    if (stripped != strip) return stripped ? "stripped" : "not stripped";
    uint64_t data_end = hd->data_offset + hd->data_size;
    const char *why = NULL;
    if (!stripped) {
        /* the padding after the data and the type section: small, and
         * bounded by the plan's section, or the entry is not this bake's */
        if (hd->types_size != plan->types_.len)
            return "its type description is not the one this bake writes";
        size_t tail = (size_t)(len - data_end), pad = tail - (size_t)hd->types_size;
        uint8_t *t = malloc(tail);
        if (!t) return "out of memory";
        if (!read_at(fd, t, tail, base + data_end)) why = "it was cut short while being read";
        for (size_t i = 0; !why && i < pad; i++)
            if (t[i]) why = "verification failed: nonzero padding before the type section";
        if (!why && XXH3_64bits(t + pad, (size_t)hd->types_size) != hd->types_hash)
            why = "verification failed: the type section does not hash to its header's hash";
        if (!why && memcmp(t + pad, plan->types_.data, plan->types_.len) != 0)
            why = "its type description is not the one this bake writes";
        free(t);
    }
    uint64_t got;
    if (!why && data && !hash_range(fd, base + hd->data_offset, hd->data_size, &got))
        why = "it was cut short while being read";
    else if (!why && data && got != hd->data_hash)
        why = "verification failed: the data section does not hash to its header's hash";
    return why;
}

/* The checks of an entry left in its file, one only this user can have
 * written (a private directory's; docs/PIPELINE.md, "Entries and trust"),
 * before it is taken for a hit: its head, and the blob's header and type
 * section where they lie. Its data section is hashed in the copy that is
 * written out, before that is given its name (entry_write). Only for
 * --format blob, whose header holds those hashes. */
static bool file_entry_ok(in_file *f, const blobc_bake_options *opts, blobc_error *warn) {
    blobc_os_fd fd = f->fd;
    uint64_t size = f->size;
    const blobc_bake_plan *plan = f->plan;
    const char *name = f->name;
    uint8_t head[ENTRY_HEAD];
    if (size < ENTRY_HEAD) return blobc_entry_reject(warn, name, "not a cache entry", NULL);
    if (!read_at(fd, head, ENTRY_HEAD, 0))
        return blobc_entry_reject(warn, name, "it was cut short while being read", NULL);
    const char *bad = head_problem(head, plan->key);
    if (bad) return blobc_entry_reject(warn, name, bad, NULL);
    uint64_t len = blobc_ld64(head + 24);
    if (len != size - ENTRY_HEAD) return blobc_entry_reject(warn, name, "its length is wrong", NULL);
    /* Never taken into memory, but held to the one bound every entry
     * keeps: a larger one is never taken from a cache. */
    if (size > HELD_MAX) {
        char why[96];
        snprintf(why, sizeof why, "its %llu bytes are past %zu MiB, the most an entry may hold",
                 (unsigned long long)size, HELD_MAX >> 20);
        return blobc_entry_reject(warn, name, why, NULL);
    }
    blobc_error ve;
    blobc_error_clear(&ve);
    blobc_header hd = {0};
    bad = blob_checks(fd, ENTRY_HEAD, len, plan, opts && opts->strip, false, &hd, &ve);
    f->data_at = hd.data_offset;
    f->data_len = hd.data_size;
    return !bad || blobc_entry_reject(warn, name, bad, ve.status ? &ve : NULL);
}

/* ---- get, put ---- */

/* ---- memory held by entries ---- */

static bool hold(blobc_cache *c, size_t n) {
    size_t was = atomic_load(&c->held);
    do {
        if (n > HELD_MAX - was) return false;
    } while (!atomic_compare_exchange_weak(&c->held, &was, was + n));
    return true;
}

/* A GET in flight: its answer judged by the head as it arrives, and the
 * memory the head declares counted before any of it is taken. */
typedef struct lookup {
    entry_judge h;
    blobc_cache *cache;
    const uint8_t *key;
    size_t held;
} lookup;

static size_t judge_head(entry_judge *h, const uint8_t *head) {
    lookup *l = h->ctx;
    const char *bad = head_problem(head, l->key);
    uint64_t len = blobc_ld64(head + 24);
    if (!bad && len > ENTRY_MAX - ENTRY_HEAD) bad = "its length is wrong";
    if (bad) {
        snprintf(h->why, sizeof h->why, "%s", bad);
        return 0;
    }
    size_t total = (size_t)len + ENTRY_HEAD;
    if (!hold(l->cache, total)) {
        snprintf(h->why, sizeof h->why,
                 "its %zu bytes would take the cache entries held in memory past %zu MiB", total,
                 HELD_MAX >> 20);
        return 0;
    }
    l->held = total;
    return total;
}

/* Marks a tier with flag after a failed request; only the first thread to
 * do so keeps its warning, so a run says it once. */
static void mark(atomic_bool *flag, blobc_error *warn) {
    if (atomic_exchange(flag, true)) blobc_error_clear(warn);
}

/* Fetches the entry `name` into out: 1 found, 0 absent or unreachable
 * (a warning in warn for the latter). From a server or a directory, the
 * head is judged before the rest is taken, and the memory it declares is
 * counted first. A directory entry is read, never mapped: a file that
 * another user truncates under a mapping would kill the process (SIGBUS). */
static int fetch(blobc_cache *owner, tier *c, const uint8_t key[16], const char *name,
                 blobc_cache_entry *out, entry_file *file, blobc_error *warn) {
    if (c->http && (atomic_load(&c->down) || !c->curl.dl)) return 0;
    lookup l = {.h = {.head = ENTRY_HEAD, .judge = judge_head}, .cache = owner, .key = key};
    l.h.ctx = &l;
    http_result r = HTTP_MISSING;
    bool found = c->http ? (r = blobc_http_get(&c->curl, name, &l.h, &out->body_, warn)) == HTTP_FOUND
                         : blobc_dir_get(c->fd, c->root, key, &l.h, &out->body_, file, warn);
    if (found && file && file->fd != BLOBC_OS_NO_FD) return 1;
    if (found) {
        out->cache_ = owner;
        out->held_ = l.held;
        out->file_ = (blobc_file_view){out->body_.data, out->body_.len, false};
        return 1;
    }
    if (l.held) atomic_fetch_sub(&owner->held, l.held);
    if (r == HTTP_REJECTED) blobc_entry_reject(warn, name, l.h.why, NULL);
    if (r == HTTP_DOWN || r == HTTP_REFUSED) mark(&c->down, warn);
    return 0;
}

static void put_tier(tier *c, const uint8_t key[16], const blobc_buffer *e, blobc_error *warn);

/* The entry as stored: the head, then the output bytes. */
static bool make_entry(const uint8_t key[16], const void *bytes, size_t len, blobc_buffer *e) {
    uint8_t head[ENTRY_HEAD];
    memcpy(head, ENTRY_MAGIC, 8);
    memcpy(head + 8, key, 16);
    blobc_st64(head + 24, len);
    return len <= ENTRY_MAX - ENTRY_HEAD && blobc_buf_append(e, head, sizeof head) &&
           blobc_buf_append(e, bytes, len);
}

/* Looks in one tier; true on a verified hit, left where it lies in *out.
 * With `leave`, a blob in a private directory's entry stays in its file
 * (out->data NULL) and is checked there. */
static bool get_tier(blobc_cache *owner, tier *c, const blobc_bake_plan *plan,
                     const blobc_bake_options *opts, bool leave, blobc_cache_entry *out,
                     blobc_error *warn) {
    char *name = entry_name(c, plan->key);
    bool hit = false;
    entry_file file = {BLOBC_OS_NO_FD, 0};
    bool blob = !opts || opts->output == BLOBC_OUTPUT_BLOB;
    entry_file *fp = leave && blob && !c->http ? &file : NULL;
    if (!name) {
        blobc_err_nomem(warn);
    } else if (!fetch(owner, c, plan->key, name, out, fp, warn)) {
        /* a miss, or a refused entry (warn says) */
    } else if (file.fd != BLOBC_OS_NO_FD) {
        in_file *f = calloc(1, sizeof *f);
        if (!f) {
            blobc_os_close(file.fd);
            blobc_err_nomem(warn);
        } else {
            *f = (in_file){file.fd, file.size, plan, opts && opts->strip, name, 0, 0, c, owner};
            name = NULL; /* the entry's now, for the messages of its write */
            out->in_file_ = f;
            if (file_entry_ok(f, opts, warn)) {
                /* used now: prune drops what is used least recently */
                blobc_os_touch_fd(f->fd);
                out->len = (size_t)(f->size - ENTRY_HEAD);
                hit = true;
            }
        }
    } else if (entry_ok(out->file_.data, out->file_.len, plan, opts, name, warn)) {
        out->data = out->file_.data + ENTRY_HEAD;
        out->len = out->file_.len - ENTRY_HEAD;
        hit = true;
    }
    if (!hit) blobc_cache_entry_free(out);
    free(name);
    return hit;
}

void blobc_cache_entry_free(blobc_cache_entry *e) {
    if (!e) return;
    in_file *f = e->in_file_;
    if (f) {
        blobc_os_close(f->fd);
        free(f->name);
        free(f);
    }
    /* file_ views the body: freed once, as the body. */
    blobc_buffer_free(&e->body_);
    if (e->held_) atomic_fetch_sub(&e->cache_->held, e->held_);
    memset(e, 0, sizeof *e);
}

bool blobc_cache_asks(const blobc_cache *c, blobc_input_format fmt, uint64_t input_size) {
    if (!c) return false;
    bool servers = worth_a_server(&c->opts, fmt, input_size);
    for (size_t i = 0; i < c->n; i++)
        if (!c->t[i].http || servers) return true;
    return false;
}

/* The copy of an entry written out, checked before it is given its name:
 * its data section hashed as the plain copy's pieces went out (one read
 * of the entry, no read back), or else read back from the copy; the rest
 * read back from the copy either way (blob_checks). */
typedef struct recheck {
    const in_file *f;
    XXH3_state_t *h;
    uint64_t data_at, data_len, fed; /* the data section in the payload, and how much was hashed */
    const char *why;
    blobc_error ve;
} recheck;

static void copy_seen(void *ctx, uint64_t at, const void *p, size_t n) {
    recheck *r = ctx;
    uint64_t from = r->data_at + r->fed, end = r->data_at + r->data_len;
    if (!r->h || at > from || at + n <= from || from >= end) return;
    size_t skip = (size_t)(from - at), take = n - skip;
    if (take > end - from) take = (size_t)(end - from);
    if (XXH3_64bits_update(r->h, (const uint8_t *)p + skip, take) == XXH_OK) r->fed += take;
}

static int check_copy(void *ctx, blobc_os_fd written) {
    recheck *r = ctx;
    blobc_error_clear(&r->ve);
    bool streamed = r->h && r->fed == r->data_len;
    blobc_header hd;
    r->why = blob_checks(written, 0, r->f->size - ENTRY_HEAD, r->f->plan, r->f->strip, !streamed,
                         &hd, &r->ve);
    /* what was hashed on the way must be the data section the copy's own
     * header declares, and hash to its hash */
    if (!r->why && streamed &&
        (hd.data_offset != r->data_at || hd.data_size != r->data_len ||
         XXH3_64bits_digest(r->h) != hd.data_hash))
        r->why = "verification failed: the data section does not hash to its header's hash";
    return r->why ? ECANCELED : 0;
}

/* An entry that proved bad as it was written out: counted as a miss
 * after all, and the warning in err. */
static blobc_status write_rejected(const in_file *f, const char *why, const blobc_error *ve,
                                   bool *rejected, blobc_error *err) {
    atomic_fetch_sub(&f->tier->hits, 1);
    atomic_fetch_add(&f->tier->misses, 1);
    atomic_fetch_sub(&f->owner->hits, 1);
    atomic_fetch_add(&f->owner->misses, 1);
    *rejected = true;
    blobc_entry_reject(err, f->name, why, ve && ve->status ? ve : NULL);
    return BLOBC_EINPUT;
}

/* To standard output or a device, which cannot be read back before
 * anyone sees it: the whole entry read into memory and checked in full
 * there (entry_ok), as an untrusted directory's would be. */
static blobc_status write_through_memory(const in_file *f, const char *path,
                                         const blobc_output_options *opts, bool *rejected,
                                         blobc_error *err) {
    blobc_buffer b = {0};
    blobc_error w;
    blobc_error_clear(&w);
    if (!blobc_buf_reserve(&b, (size_t)f->size)) return blobc_err_nomem(err);
    blobc_status st;
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    o.strip = f->strip;
    if (!read_at(f->fd, b.data, (size_t)f->size, 0))
        st = write_rejected(f, "it was cut short while being read", NULL, rejected, err);
    else if (!entry_ok(b.data, (size_t)f->size, f->plan, &o, f->name, &w)) {
        st = write_rejected(f, "verification failed", NULL, rejected, err);
        *err = w; /* entry_ok's warning says why */
    } else
        st = blobc_write_output(path, b.data + ENTRY_HEAD, (size_t)f->size - ENTRY_HEAD, opts, err);
    blobc_buffer_free(&b);
    return st;
}

blobc_status blobc_cache_entry_write(const blobc_cache_entry *e, const char *path,
                                     const blobc_output_options *opts, bool *rejected,
                                     blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    bool no;
    if (!rejected) rejected = &no;
    *rejected = false;
    if (!e || !path) return blobc_err_arg(err, __func__, "entry or path is NULL");
    const in_file *f = e->in_file_;
    if (!f) return blobc_write_output(path, e->data, e->len, opts, err);
    blobc_os_info st;
    if (strcmp(path, "-") == 0 || (blobc_os_stat(path, &st) == 0 && st.kind == BLOBC_OS_OTHER))
        return write_through_memory(f, path, opts, rejected, err);
    recheck r = {f, XXH3_createState(), f->data_at, f->data_len, 0, NULL, {0}};
    if (r.h && XXH3_64bits_reset(r.h) != XXH_OK) {
        XXH3_freeState(r.h);
        r.h = NULL; /* read back instead */
    }
    blobc_status s = blobc_write_output_copy(path, f->fd, ENTRY_HEAD, f->size - ENTRY_HEAD,
                                             check_copy, copy_seen, &r, opts, err);
    XXH3_freeState(r.h);
    if (s && r.why) return write_rejected(f, r.why, &r.ve, rejected, err);
    /* A copy cut short: the entry shrank while it was copied. */
    if (s && (blobc_os_fstat(f->fd, &st) != 0 || st.size != f->size))
        return write_rejected(f, "it was cut short while being read", NULL, rejected, err);
    return s;
}

static void get(blobc_cache *c, const blobc_bake_plan *plan, uint64_t input_size,
                const blobc_bake_options *opts, bool leave, blobc_cache_entry *out, bool *hit,
                blobc_error *warn) {
    blobc_error scratch;
    warn = blobc_err_or(warn, &scratch);
    blobc_error_clear(warn);
    if (hit) *hit = false;
    if (out) memset(out, 0, sizeof *out);
    if (!c || !plan || !plan->root || !out || !hit) {
        blobc_err_arg(warn, __func__, "cache, plan, out or hit is NULL");
        return;
    }
    blobc_error w;
    bool servers = worth_a_server(&c->opts, plan->input, input_size), asked = false;
    size_t i;
    for (i = 0; i < c->n && !*hit; i++) {
        if (c->t[i].http && !servers) continue;
        blobc_error_clear(&w);
        /* Left in its file only where no tier before wants a copy of it. */
        *hit = get_tier(c, &c->t[i], plan, opts, leave && !asked, out, &w);
        asked = true;
        if (w.status != BLOBC_OK && warn->status == BLOBC_OK) *warn = w;
        /* Counted where it was answered: a miss in each tier asked, a hit
         * only in the one that held the entry. */
        atomic_fetch_add(*hit ? &c->t[i].hits : &c->t[i].misses, 1);
    }
    /* Found further out: keep a copy nearer (the local directory), of
     * the entry as found, head and all, so the body is not copied. */
    if (*hit) {
        blobc_buffer e = {(uint8_t *)out->file_.data, out->file_.len, out->file_.len};
        for (size_t j = 0; j + 1 < i; j++) {
            if (c->t[j].http && !servers) continue;
            blobc_error_clear(&w);
            put_tier(&c->t[j], plan->key, &e, &w);
            if (w.status != BLOBC_OK && warn->status == BLOBC_OK) *warn = w;
        }
    }
    atomic_fetch_add(*hit ? &c->hits : &c->misses, 1);
}

void blobc_cache_get(blobc_cache *c, const blobc_bake_plan *plan, uint64_t input_size,
                     const blobc_bake_options *opts, blobc_cache_entry *out, bool *hit,
                     blobc_error *warn) {
    get(c, plan, input_size, opts, false, out, hit, warn);
}

void blobc_cache_get_file(blobc_cache *c, const blobc_bake_plan *plan, uint64_t input_size,
                          const blobc_bake_options *opts, blobc_cache_entry *out, bool *hit,
                          blobc_error *warn) {
    get(c, plan, input_size, opts, true, out, hit, warn);
}

static void put_tier(tier *c, const uint8_t key[16], const blobc_buffer *e, blobc_error *warn) {
    if (c->http && (atomic_load(&c->down) || atomic_load(&c->no_put) || !c->curl.dl)) return;
    char *name = entry_name(c, key);
    if (!name) {
        blobc_err_nomem(warn);
    } else if (c->http) {
        http_result r = blobc_http_put(&c->curl, name, e->data, e->len, warn);
        if (r == HTTP_DOWN || r == HTTP_REFUSED) mark(r == HTTP_DOWN ? &c->down : &c->no_put, warn);
    } else {
        blobc_dir_put(c->fd, c->root, key, e->data, e->len, warn);
    }
    free(name);
}

void blobc_cache_put(blobc_cache *c, const blobc_bake_plan *plan, uint64_t input_size,
                     const void *bytes, size_t len, blobc_error *warn) {
    blobc_error scratch;
    warn = blobc_err_or(warn, &scratch);
    blobc_error_clear(warn);
    if (!c || !plan || (!bytes && len)) {
        blobc_err_arg(warn, __func__, "cache, plan or bytes is NULL");
        return;
    }
    blobc_buffer e = {0};
    if (!make_entry(plan->key, bytes, len, &e)) {
        blobc_err_nomem(warn);
    } else {
        blobc_error w;
        bool servers = worth_a_server(&c->opts, plan->input, input_size);
        for (size_t i = 0; i < c->n; i++) {
            if (c->t[i].http && !servers) continue;
            blobc_error_clear(&w);
            put_tier(&c->t[i], plan->key, &e, &w);
            if (w.status != BLOBC_OK && warn->status == BLOBC_OK) *warn = w;
        }
    }
    blobc_buffer_free(&e);
}
