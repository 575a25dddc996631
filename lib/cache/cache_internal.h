/*
 * cache_internal.h - what the cache front (cache.c: entries, checks)
 * shares with its two stores: a directory (dir.c) and an HTTP server
 * (http.c). Private.
 */
#ifndef BLOBC_CACHE_INTERNAL_H
#define BLOBC_CACHE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <curl/curl.h>

#include "blobc/cache.h"
#include "common/util.h"

/* An entry: a 32-byte head (the magic, the key, the payload length as a
 * little-endian u64), then the payload. */
#define BLOBC_ENTRY_MAGIC "BLOBCCE1"
#define BLOBC_ENTRY_HEAD 32u
/* The largest entry: a blob's data section is at most 2 GiB - 1, and its
 * header and type section are far smaller than the rest of 4 GiB. */
#define BLOBC_ENTRY_MAX ((size_t)0xffffffffu)

/* The 32 lowercase hex digits that name the entry of key (and a NUL). */
void blobc_cache_key_hex(const uint8_t key[16], char hex[33]);
/* Why a head cannot begin an entry of size bytes in all (a static
 * string), or NULL when its magic and payload length fit. */
const char *blobc_entry_head_fault(const uint8_t *head, uint64_t size);
/* Fills warn: the entry `name` was rejected, and why. Returns false. */
bool blobc_entry_reject(blobc_error *warn, const char *name, const char *why,
                        const blobc_error *e);

/* ---- a cache directory (dir.c) ----
 * Nothing below the directory is followed through a symbolic link, opened
 * when it is not a regular file, mapped, or removed unless its name and
 * type are those of a file the cache writes. */

/* A descriptor of the cache directory root (created first when asked),
 * or -1 with err filled. */
int blobc_dir_open(const char *root, bool create, blobc_error *err);
/* Reads the entry of key into out (empty): true when a regular file of
 * the cache with a fitting head was read in full; false when there is
 * none (warn says why when one was there but refused). */
bool blobc_dir_get(int dir, const char *root, const uint8_t key[16], blobc_buffer *out,
                   blobc_error *warn);
/* Stores the entry bytes under key: a new file renamed over the name. */
void blobc_dir_put(int dir, const char *root, const uint8_t key[16], const void *entry,
                   size_t len, blobc_error *warn);
/* Records a process's hits and misses in stats/, folding the files
 * there into one when they become many. Best effort: never fails. */
void blobc_dir_record(int dir, uint64_t hits, uint64_t misses);

/* libcurl's calls, found with dlopen when a cache names a URL: a program
 * that never talks HTTP never loads libcurl and the thirty libraries
 * behind it (their start-up cost is most of a small verify's time). */
typedef struct blobc_curl {
    void *dl;
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
} blobc_curl;

/* Loads libcurl into api; BLOBC_EIO naming the library when it cannot. */
blobc_status blobc_curl_load(blobc_curl *api, blobc_error *err);
void blobc_curl_unload(blobc_curl *api);

/* What an HTTP request came to. */
typedef enum http_result {
    HTTP_FOUND,     /* GET: 200 with the body; PUT: stored */
    HTTP_MISSING,   /* GET: 404 */
    HTTP_FAILED,    /* the server answered with an error: warn, go on */
    HTTP_DOWN       /* no answer in time: warn once, stop asking */
} http_result;

/* GETs url into out (at most max bytes; a longer body is an error). */
http_result blobc_http_get(const blobc_curl *api, const char *url, size_t max, blobc_buffer *out,
                           blobc_error *warn);
/* PUTs len bytes to url. */
http_result blobc_http_put(const blobc_curl *api, const char *url, const void *data, size_t len,
                           blobc_error *warn);

#endif
