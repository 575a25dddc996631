/*
 * cache_internal.h - what the cache front (cache.c: entries, checks,
 * directories) shares with its HTTP transport (http.c). Private.
 */
#ifndef BLOBC_CACHE_INTERNAL_H
#define BLOBC_CACHE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

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
