/*
 * http.c - the cache's HTTP transport over libcurl: one easy handle per
 * request, so requests on any number of threads share nothing. Timeouts
 * keep a dead or stalled server from holding a bake up: 1 s to connect,
 * a transfer slower than 1 KiB/s for 5 s is dropped, and no request takes
 * more than 60 s. libcurl's global state is the caller's to set up (see
 * blobc/cache.h).
 */
#include <curl/curl.h>
#include <stdio.h>
#include <string.h>

#include "cache/cache_internal.h"

typedef struct sink {
    blobc_buffer *b;
    size_t max;
} sink;

static size_t on_body(char *p, size_t size, size_t n, void *data) {
    sink *s = data;
    size_t bytes = size * n;
    if (bytes > s->max - s->b->len || !blobc_buf_append(s->b, p, bytes)) return 0;
    return bytes;
}

typedef struct source {
    const char *p;
    size_t left;
} source;

static size_t on_upload(char *buf, size_t size, size_t n, void *data) {
    source *s = data;
    size_t bytes = size * n;
    if (bytes > s->left) bytes = s->left;
    memcpy(buf, s->p, bytes);
    s->p += bytes;
    s->left -= bytes;
    return bytes;
}

static CURL *easy(const char *url, char *errbuf) {
    CURL *c = curl_easy_init();
    if (!c) return NULL;
    errbuf[0] = '\0';
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L); /* no SIGALRM: threads */
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 1000L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1024L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 5L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, 60L);
    return c;
}

/* Turns a finished transfer into a result, with a warning for failures. */
static http_result finish(CURL *c, CURLcode rc, const char *errbuf, const char *method,
                          const char *url, bool put, blobc_error *warn) {
    long code = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    curl_easy_cleanup(c);
    blobc_err_file(warn, url);
    if (rc != CURLE_OK) {
        bool down = rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST ||
                    rc == CURLE_OPERATION_TIMEDOUT || rc == CURLE_COULDNT_RESOLVE_PROXY;
        blobc_err(warn, BLOBC_EIO, "cache server: %s failed: %s", method,
                  errbuf[0] ? errbuf : curl_easy_strerror(rc));
        return down ? HTTP_DOWN : HTTP_FAILED;
    }
    if (!put && code == 200) return HTTP_FOUND;
    if (put && code >= 200 && code < 300) return HTTP_FOUND;
    if (!put && code == 404) return HTTP_MISSING;
    blobc_err(warn, BLOBC_EIO, "cache server: %s answered HTTP %ld", method, code);
    return HTTP_FAILED;
}

http_result blobc_http_get(const char *url, size_t max, blobc_buffer *out, blobc_error *warn) {
    char errbuf[CURL_ERROR_SIZE];
    CURL *c = easy(url, errbuf);
    if (!c) {
        blobc_err_nomem(warn);
        return HTTP_FAILED;
    }
    out->len = 0;
    sink s = {out, max};
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &s);
    CURLcode rc = curl_easy_perform(c);
    http_result r = finish(c, rc, errbuf, "GET", url, false, warn);
    if (r != HTTP_FOUND) out->len = 0;
    return r;
}

http_result blobc_http_put(const char *url, const void *data, size_t len, blobc_error *warn) {
    char errbuf[CURL_ERROR_SIZE];
    CURL *c = easy(url, errbuf);
    if (!c) {
        blobc_err_nomem(warn);
        return HTTP_FAILED;
    }
    source s = {data, len};
    curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(c, CURLOPT_READFUNCTION, on_upload);
    curl_easy_setopt(c, CURLOPT_READDATA, &s);
    curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)len);
    CURLcode rc = curl_easy_perform(c);
    return finish(c, rc, errbuf, "PUT", url, true, warn);
}
