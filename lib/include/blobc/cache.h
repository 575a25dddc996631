/*
 * blobc/cache.h - a content-addressed cache of baked outputs, shared by
 * any number of threads, processes and machines.
 *
 * An entry is named by a bake plan's key (blobc/bake.h): the hash of
 * everything that decides the output bytes and whether the bake succeeds. A cache is a directory (local
 * or on a network file system; every write is a temporary file renamed
 * into place) or an HTTP server that takes GET and PUT of URL/<2 hex>/<key
 * hex> (nginx WebDAV, ccache's HTTP storage layout, bazel-remote's /cas/).
 * docs/PIPELINE.md has the entry format and the deployment.
 *
 * A cache is a trust boundary: every entry read is checked against its
 * key, verified in full (blobc/verify.h), and its type section compared
 * with the one the plan's bake writes, byte for byte (the verifier checks
 * the layout, not the names), before it is handed out. A bad
 * entry, an unreachable or failing server, or a full disk is a warning:
 * the caller bakes as if the entry were not there, never fails. A
 * directory may be shared with users who plant links, FIFOs or other
 * files in it: nothing below it is followed through a symbolic link,
 * opened unless it is a regular file, or written in place.
 *
 * HTTP goes through libcurl (libcurl.so.4), loaded with dlopen only when a
 * cache names a URL, so programs that never use HTTP never load it. Its
 * global state must be set up once per process before such a cache is
 * opened: call blobc_http_global_init() from main, before starting
 * threads, and blobc_http_global_cleanup() at the end (the library never
 * does on its own, so that it touches no process-global state).
 *
 * Stability: experimental: the cache's options and statistics may still
 * change.
 */
#ifndef BLOBC_CACHE_H
#define BLOBC_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "bake.h"
#include "blobfile.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct blobc_cache blobc_cache;

/* Opens the cache at `spec`: a URL (http:// or https://), else a directory,
 * created when missing; or, when a URL is among them, up to 4 of these
 * separated by spaces, asked in order (a hit further out is copied into
 * the ones before it; outputs are put into all). Safe to use from many
 * threads at once. */
BLOBC_API blobc_status blobc_cache_open(const char *spec, blobc_cache **out, blobc_error *err);

/* Ends the use: a directory cache records this process's hits and misses
 * (one small file per process, so no two writers share a file; many are
 * folded into one), each lookup where it was answered: a hit in the cache
 * that held the entry, a miss in every cache asked before it. */
BLOBC_API void blobc_cache_close(blobc_cache *cache);

/* A hit: the output bytes, checked against the key and verified where
 * they lie: a directory entry read into memory (never mapped: another
 * user could truncate the file under the mapping), or the body an HTTP
 * server sent. Valid until blobc_cache_entry_free, which must come before
 * blobc_cache_close. Entries held at once by one cache, from servers and
 * directories alike, take at most 512 MiB together, whatever the threads:
 * a lookup whose entry would pass that is a warning and a miss. */
typedef struct blobc_cache_entry {
    const uint8_t *data;
    size_t len;
    blobc_file_view file_;    /* private */
    blobc_buffer body_;       /* private */
    struct blobc_cache *cache_; /* private: whose memory bound body_ counts against */
    size_t held_;             /* private */
} blobc_cache_entry;

/* Looks up the output for `plan` baked with `opts`. On a hit, *out holds
 * it and *hit is true; free it with blobc_cache_entry_free. On a miss *hit
 * is false and *out is empty; when the reason was a bad entry or a failing
 * server, `warn` says so (warn->status is not BLOBC_OK), and the caller
 * should bake. */
BLOBC_API void blobc_cache_get(blobc_cache *cache, const blobc_bake_plan *plan,
                               const blobc_bake_options *opts, blobc_cache_entry *out,
                               bool *hit, blobc_error *warn);
BLOBC_API void blobc_cache_entry_free(blobc_cache_entry *entry);

/* Stores the output baked for `plan`. A failure only fills `warn`. */
BLOBC_API void blobc_cache_put(blobc_cache *cache, const blobc_bake_plan *plan, const void *bytes,
                     size_t len, blobc_error *warn);

/* The lookups so far through this handle. */
BLOBC_API void blobc_cache_counts(const blobc_cache *cache, uint64_t *hits, uint64_t *misses);

typedef struct blobc_cache_stats {
    uint64_t entries;
    uint64_t bytes;     /* of the entries' files */
    uint64_t hits;      /* recorded by every process that used the directory */
    uint64_t misses;
} blobc_cache_stats;

/* Counts a directory cache's entries and sums its recorded hits and
 * misses. Reads only. */
BLOBC_API blobc_status blobc_cache_dir_stats(const char *dir, blobc_cache_stats *stats, blobc_error *err);

/* Removes entries, least recently used first (the later of access and
 * modification time), until the entries take at most max_bytes. *removed
 * (may be NULL) gets the number removed. Safe while others use the cache:
 * a reader that loses an entry sees a miss. Only regular files named as
 * the cache names its entries and temporary files are removed, and no
 * symbolic link below dir is followed. BLOBC_EIO when dir cannot be
 * written, or an entry could not be removed (the first is named; the
 * others are still tried). */
BLOBC_API blobc_status blobc_cache_dir_prune(const char *dir, uint64_t max_bytes, uint64_t *removed,
                                   blobc_error *err);

/* Loads libcurl for the rest of the process and runs its
 * curl_global_init(CURL_GLOBAL_DEFAULT). Not thread-safe: call it once,
 * from main, before any thread opens an HTTP cache. BLOBC_EIO when
 * libcurl cannot be loaded or set up. */
BLOBC_API blobc_status blobc_http_global_init(blobc_error *err);
/* curl_global_cleanup, after every cache is closed; then libcurl may be
 * unloaded. Does nothing when blobc_http_global_init was not called. */
BLOBC_API void blobc_http_global_cleanup(void);

#ifdef __cplusplus
}
#endif

#endif
