/*
 * cache_internal.h - what the cache front (cache.c: entries, checks,
 * directories) shares with its HTTP transport (http.c). Private.
 */
#ifndef BLOBC_CACHE_INTERNAL_H
#define BLOBC_CACHE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "blobc/cache.h"
#include "common/util.h"

/* What an HTTP request came to. */
typedef enum http_result {
    HTTP_FOUND,     /* GET: 200 with the body; PUT: stored */
    HTTP_MISSING,   /* GET: 404 */
    HTTP_FAILED,    /* the server answered with an error: warn, go on */
    HTTP_DOWN       /* no answer in time: warn once, stop asking */
} http_result;

/* GETs url into out (at most max bytes; a longer body is an error). */
http_result blobc_http_get(const char *url, size_t max, blobc_buffer *out, blobc_error *warn);
/* PUTs len bytes to url. */
http_result blobc_http_put(const char *url, const void *data, size_t len, blobc_error *warn);

#endif
