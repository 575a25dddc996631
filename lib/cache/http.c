/*
 * http.c - the cache's HTTP transport over libcurl: one easy handle per
 * request, so requests on any number of threads share nothing. Timeouts
 * keep a dead or stalled server from holding a bake up: 1 s to connect,
 * a transfer slower than 1 KiB/s for 5 s is dropped, and no request takes
 * more than 60 s. libcurl is loaded with dlopen only when a cache names a
 * URL; its global state is the caller's to set up (blobc_http_global_init,
 * see blobc/cache.h).
 */
#include <curl/curl.h>
#include <stdio.h>
#include <string.h>

#include "cache/cache_internal.h"
#include "platform/platform.h"

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

/* libcurl's ABI 4, the one every distribution ships: libcurl.so.4 on
 * Linux, libcurl-4.dll on Windows. */
#define CURL_SONAME blobc_os_curl_lib

blobc_status blobc_curl_load(blobc_curl *api, blobc_error *err) {
    memset(api, 0, sizeof *api);
    api->dl = blobc_os_lib_open(CURL_SONAME, false);
    if (!api->dl) return blobc_err(err, BLOBC_EIO, "cannot load %s for the HTTP cache", CURL_SONAME);
    struct { blobc_os_fn *slot; const char *name; } want[] = {
        {(blobc_os_fn *)&api->easy_init, "curl_easy_init"},
        {(blobc_os_fn *)&api->easy_setopt, "curl_easy_setopt"},
        {(blobc_os_fn *)&api->easy_perform, "curl_easy_perform"},
        {(blobc_os_fn *)&api->easy_getinfo, "curl_easy_getinfo"},
        {(blobc_os_fn *)&api->easy_cleanup, "curl_easy_cleanup"},
        {(blobc_os_fn *)&api->easy_strerror, "curl_easy_strerror"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        *want[i].slot = blobc_os_lib_sym(api->dl, want[i].name);
        if (!*want[i].slot) {
            blobc_curl_unload(api);
            return blobc_err(err, BLOBC_EIO, "%s has no %s", CURL_SONAME, want[i].name);
        }
    }
    return BLOBC_OK;
}

void blobc_curl_unload(blobc_curl *api) {
    if (api->dl) blobc_os_lib_close(api->dl);
    memset(api, 0, sizeof *api);
}

blobc_status blobc_http_global_init(blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    /* Loaded for the rest of the process: libcurl's global state lives in it. */
    void *dl = blobc_os_lib_open(CURL_SONAME, false);
    if (!dl) return blobc_err(err, BLOBC_EIO, "cannot load %s for the HTTP cache", CURL_SONAME);
    CURLcode (*init)(long) = (CURLcode(*)(long))blobc_os_lib_sym(dl, "curl_global_init");
    if (!init || init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        blobc_os_lib_close(dl);
        return blobc_err(err, BLOBC_EIO, "cannot set up %s for the HTTP cache", CURL_SONAME);
    }
    return BLOBC_OK;
}

void blobc_http_global_cleanup(void) {
    void *dl = blobc_os_lib_open(CURL_SONAME, true);
    if (!dl) return;
    void (*cleanup)(void) = (void (*)(void))blobc_os_lib_sym(dl, "curl_global_cleanup");
    if (cleanup) cleanup();
    blobc_os_lib_close(dl); /* this look-up's reference */
    blobc_os_lib_close(dl); /* blobc_http_global_init's */
}

static CURL *easy(const blobc_curl *api, const char *url, char *errbuf) {
    CURL *c = api->easy_init();
    if (!c) return NULL;
    errbuf[0] = '\0';
    api->easy_setopt(c, CURLOPT_URL, url);
    api->easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    api->easy_setopt(c, CURLOPT_NOSIGNAL, 1L); /* no SIGALRM: threads */
    api->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    api->easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 1000L);
    api->easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1024L);
    api->easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 5L);
    api->easy_setopt(c, CURLOPT_TIMEOUT, 60L);
    return c;
}

/* Turns a finished transfer into a result, with a warning for failures. */
static http_result finish(const blobc_curl *api, CURL *c, CURLcode rc, const char *errbuf, const char *method,
                          const char *url, bool put, blobc_error *warn) {
    long code = 0;
    api->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    api->easy_cleanup(c);
    blobc_err_file(warn, url);
    if (rc != CURLE_OK) {
        bool down = rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST ||
                    rc == CURLE_OPERATION_TIMEDOUT || rc == CURLE_COULDNT_RESOLVE_PROXY;
        blobc_err(warn, BLOBC_EIO, "cache server: %s failed: %s", method,
                  errbuf[0] ? errbuf : api->easy_strerror(rc));
        return down ? HTTP_DOWN : HTTP_FAILED;
    }
    if (!put && code == 200) return HTTP_FOUND;
    if (put && code >= 200 && code < 300) return HTTP_FOUND;
    if (!put && code == 404) return HTTP_MISSING;
    blobc_err(warn, BLOBC_EIO, "cache server: %s answered HTTP %ld", method, code);
    return HTTP_FAILED;
}

http_result blobc_http_get(const blobc_curl *api, const char *url, size_t max, blobc_buffer *out,
                           blobc_error *warn) {
    char errbuf[CURL_ERROR_SIZE];
    CURL *c = easy(api, url, errbuf);
    if (!c) {
        blobc_err_nomem(warn);
        return HTTP_FAILED;
    }
    out->len = 0;
    sink s = {out, max};
    api->easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    api->easy_setopt(c, CURLOPT_WRITEDATA, &s);
    CURLcode rc = api->easy_perform(c);
    http_result r = finish(api, c, rc, errbuf, "GET", url, false, warn);
    if (r != HTTP_FOUND) out->len = 0;
    return r;
}

http_result blobc_http_put(const blobc_curl *api, const char *url, const void *data, size_t len,
                           blobc_error *warn) {
    char errbuf[CURL_ERROR_SIZE];
    CURL *c = easy(api, url, errbuf);
    if (!c) {
        blobc_err_nomem(warn);
        return HTTP_FAILED;
    }
    source s = {data, len};
    api->easy_setopt(c, CURLOPT_UPLOAD, 1L);
    api->easy_setopt(c, CURLOPT_READFUNCTION, on_upload);
    api->easy_setopt(c, CURLOPT_READDATA, &s);
    api->easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)len);
    CURLcode rc = api->easy_perform(c);
    return finish(api, c, rc, errbuf, "PUT", url, true, warn);
}
