/*
 * cache_internal.h - what the cache front (cache.c: entries, checks,
 * directories) shares with its HTTP transport (http.c). Private.
 */
#ifndef BLOBC_CACHE_INTERNAL_H
#define BLOBC_CACHE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <curl/curl.h>

#include "blobc/cache.h"
#include "common/util.h"

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

/* How a GET judges an answer as it arrives: the head first, and then no
 * more than the length the head declares is ever taken. */
typedef struct http_entry {
    size_t head;  /* bytes of head, judged before the rest is taken */
    /* The entry's whole length as the head declares it, or 0 to refuse it
     * (saying why in e->why). */
    size_t (*judge)(struct http_entry *e, const uint8_t *head);
    void *ctx;
    char why[160]; /* why an answer was refused: HTTP_REJECTED */
} http_entry;

/* GETs url into out, judged by e as it arrives. */
http_result blobc_http_get(const blobc_curl *api, const char *url, http_entry *e, blobc_buffer *out,
                           blobc_error *warn);
/* PUTs len bytes to url. */
http_result blobc_http_put(const blobc_curl *api, const char *url, const void *data, size_t len,
                           blobc_error *warn);

#endif
