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
#include "common/buffer.h"
#include "common/endian.h"
#include "common/err.h"
#include "common/fileio.h"
#include "platform/platform.h"

/* The 32 lowercase hex digits that name the entry of key (and a NUL).
 * In dir.c, as the next. */
void blobc_cache_key_hex(const uint8_t key[16], char hex[33]);
/* Fills warn: the entry `name` was rejected, and why. Returns false. */
bool blobc_entry_reject(blobc_error *warn, const char *name, const char *why,
                        const blobc_error *e);

/* How a read (a GET, a file of a directory) judges an entry as it
 * arrives: the head first, and then no more than the length the head
 * declares is ever taken. */
typedef struct entry_judge {
    size_t head;  /* bytes of head, judged before the rest is taken */
    /* The entry's whole length as the head declares it, or 0 to refuse it
     * (saying why in e->why). */
    size_t (*judge)(struct entry_judge *e, const uint8_t *head);
    void *ctx;
    char why[160]; /* why an entry was refused (HTTP_REJECTED for a GET) */
} entry_judge;

/* ---- a cache directory (dir.c) ----
 * Nothing below the directory is followed through a symbolic link, opened
 * when it is not a regular file, mapped, or removed unless its name and
 * type are those of a file the cache writes. */

/* The cache directory root (created first when asked), or NULL with err
 * filled. */
blobc_os_tree *blobc_dir_open(const char *root, bool create, blobc_error *err);
void blobc_dir_close(blobc_os_tree *dir); /* NULL: nothing */
/* An entry left in its file: open, unread, and unchecked. */
typedef struct entry_file {
    blobc_os_fd fd; /* BLOBC_OS_NO_FD: none */
    uint64_t size;
} entry_file;
/* Reads the entry of key into out (empty): true when it is a regular file
 * of the cache whose head j accepts, declaring the file's size, and it was
 * read in full; false when there is none (warn says why when one was
 * there but refused). With `file` (NULL: always read), an entry that only
 * this user can have written (its file, its directory and the cache's are
 * theirs and writable by no one else) is left open there instead, neither
 * read nor judged: true with file->fd set. */
bool blobc_dir_get(blobc_os_tree *dir, const char *root, const uint8_t key[16], entry_judge *j,
                   blobc_buffer *out, entry_file *file, blobc_error *warn);
/* Stores the entry bytes under key: a new file renamed over the name. */
void blobc_dir_put(blobc_os_tree *dir, const char *root, const uint8_t key[16], const void *entry,
                   size_t len, blobc_error *warn);
/* Records a process's hits and misses in stats/, folding the files
 * there into one when they become many. Best effort: never fails. */
void blobc_dir_record(blobc_os_tree *dir, uint64_t hits, uint64_t misses);

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
    /* The user name and password the URL carried, percent-decoded; kept
     * out of the URL so that no message can ever show them. */
    char *user, *password;
} blobc_curl;

/* Loads libcurl into api and moves the credentials out of url (in place:
 * "http://ci:pw@host/c" becomes "http://host/c"); BLOBC_EIO naming the
 * library when it cannot be loaded. */
blobc_status blobc_curl_load(blobc_curl *api, char *url, blobc_error *err);
void blobc_curl_unload(blobc_curl *api);

/* What an HTTP request came to. */
typedef enum http_result {
    HTTP_FOUND,     /* GET: 200 with the whole entry; PUT: stored */
    HTTP_MISSING,   /* GET: 404 */
    HTTP_REJECTED,  /* GET: 200, but not the entry asked for (why in http_entry) */
    HTTP_REFUSED,   /* the server answered with an error status: warn, go on */
    HTTP_FAILED,    /* the transfer failed midway: warn, go on */
    HTTP_DOWN       /* no answer, or too slow: warn once, stop asking */
} http_result;

/* GETs url into out, judged by e as it arrives. */
http_result blobc_http_get(const blobc_curl *api, const char *url, entry_judge *e, blobc_buffer *out,
                           blobc_error *warn);
/* PUTs len bytes to url. */
http_result blobc_http_put(const blobc_curl *api, const char *url, const void *data, size_t len,
                           blobc_error *warn);

#endif
