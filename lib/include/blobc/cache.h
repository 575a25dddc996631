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
 * cache names a URL that its size thresholds let some input ask, so
 * programs that never use HTTP never load it. Its
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

/* Below these sizes a server is not worth asking. Each process that asks
 * one loads libcurl and connects, 7 to 10 ms of CPU whatever the entry's
 * size, while a bake costs by the byte: measured (bench/pipeline.sh, one
 * process per input as under ninja), an HTTP hit overtakes the bake of a
 * YAML input between 190 and 290 KB and of a JSON input between 1.1 and
 * 1.8 MB. */
#define BLOBC_CACHE_SERVER_MIN_YAML ((uint64_t)256 << 10)
#define BLOBC_CACHE_SERVER_MIN_JSON ((uint64_t)2 << 20)
/* A threshold no input reaches: the servers of the cache are never used. */
#define BLOBC_CACHE_SERVER_NEVER UINT64_MAX

typedef struct blobc_cache_options {
    /* An input smaller than this (in bytes, by its format) is neither
     * looked up on nor put to a server of the cache: it is baked, and its
     * output kept in the cache's directories only. 0: every input. */
    uint64_t server_min_yaml;
    uint64_t server_min_json;
} blobc_cache_options;

/* The defaults above. */
BLOBC_API void blobc_cache_options_default(blobc_cache_options *opts);

/* Opens the cache at `spec`: a URL (http:// or https://), else a directory,
 * created when missing; or, when a URL is among them, up to 4 of these
 * separated by spaces, asked in order (a hit further out is copied into
 * the ones before it; outputs are put into all). Safe to use from many
 * threads at once. */
BLOBC_API blobc_status blobc_cache_open(const char *spec, blobc_cache **out, blobc_error *err);
/* blobc_cache_open with options (NULL: the defaults). libcurl is loaded
 * only when a server may be asked: not when both thresholds are
 * BLOBC_CACHE_SERVER_NEVER. */
BLOBC_API blobc_status blobc_cache_open_with(const char *spec, const blobc_cache_options *opts,
                                             blobc_cache **out, blobc_error *err);

/* Whether the bake of the file at `path` would ask the servers of a cache
 * opened with `opts` (NULL: the defaults): its size against the threshold
 * of its format, told as a bake tells it (by extension, else by its first
 * bytes). True when that cannot be known beforehand: standard input ("-"),
 * a pipe, a file that cannot be read. For a program that sets up HTTP
 * (blobc_http_global_init) only when some input needs it. */
BLOBC_API bool blobc_cache_asks_server(const blobc_cache_options *opts, const char *path);

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
    void *in_file_;           /* private: a hit left in its file */
} blobc_cache_entry;

/* Whether a lookup for an input of `input_size` bytes in `format` asks
 * any store of the cache: a directory always, a server from its
 * threshold on. When none is asked, a caller bakes without planning. */
BLOBC_API bool blobc_cache_asks(const blobc_cache *cache, blobc_input_format format,
                                uint64_t input_size);

/* Looks up the output for `plan` baked with `opts`; `input_size` is the
 * length of the input the plan was made from, which decides whether the
 * cache's servers are asked (blobc_cache_options). On a hit, *out holds
 * it and *hit is true; free it with blobc_cache_entry_free. On a miss *hit
 * is false and *out is empty; when the reason was a bad entry or a failing
 * server, `warn` says so (warn->status is not BLOBC_OK), and the caller
 * should bake. */
BLOBC_API void blobc_cache_get(blobc_cache *cache, const blobc_bake_plan *plan, uint64_t input_size,
                               const blobc_bake_options *opts, blobc_cache_entry *out,
                               bool *hit, blobc_error *warn);
BLOBC_API void blobc_cache_entry_free(blobc_cache_entry *entry);
/* blobc_cache_get, except that a hit on an entry that only this user can
 * have written (its file, its directory and the cache directory theirs
 * and writable by no one else; never on Windows) may stay in its file:
 * then entry->data is NULL, and the entry was checked there without being
 * read into memory (docs/PIPELINE.md, "Entries and trust"). Write it out
 * with blobc_cache_entry_write while plan and opts are still alive: its
 * copy is checked against them. */
BLOBC_API void blobc_cache_get_file(blobc_cache *cache, const blobc_bake_plan *plan,
                                    uint64_t input_size, const blobc_bake_options *opts,
                                    blobc_cache_entry *out, bool *hit, blobc_error *warn);
/* Writes a hit's output bytes to path by the output rules
 * (blobc_write_output). One left in its file is copied file to file (by
 * the kernel where it can, never whole in memory; to standard output or
 * a device, through memory) and its data section's hash checked in the
 * copy before the copy is given its name. When that check fails (the
 * entry was damaged, or changed while it was copied), nothing is written,
 * *rejected is set and err holds the warning ("cache entry rejected
 * (...); baking instead"): the caller bakes instead, as on a miss, and
 * the lookup counts as one. */
BLOBC_API blobc_status blobc_cache_entry_write(const blobc_cache_entry *entry, const char *path,
                                               const blobc_output_options *opts, bool *rejected,
                                               blobc_error *err);

/* Stores the output (`bytes`, `len`) baked for `plan` from an input of
 * `input_size` bytes: into every directory of the cache, and into its
 * servers when the input is not below their threshold (an entry no run
 * with the same thresholds would ask for is not worth a connection). A
 * failure only fills `warn`. */
BLOBC_API void blobc_cache_put(blobc_cache *cache, const blobc_bake_plan *plan, uint64_t input_size,
                               const void *bytes, size_t len, blobc_error *warn);

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
