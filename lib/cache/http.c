/*
 * http.c - the cache's HTTP transport over libcurl: one easy handle per
 * request, so requests on any number of threads share nothing. libcurl
 * is loaded with dlopen only when a cache names a URL; its global state is
 * the caller's to set up (blobc_http_global_init, see blobc/cache.h).
 *
 * A cache server is trusted for nothing. Every transfer has its own
 * callbacks for the answer's headers and body, so nothing of an answer
 * reaches libcurl's defaults (which print a body to stdout). A GET judges
 * the entry's head as it arrives and takes no more than the length the
 * head declares; any other answer's body is not read at all. Redirects are
 * not followed. A server that cannot connect in 1 s, has not answered 1 s
 * after a request was sent, or moves less than 256 KiB/s once a request
 * has run 2 s is too slow: the request is dropped and the caller stops
 * asking it. No request takes more than 60 s.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache_internal.h"
#include "platform/platform.h"

#define CONNECT_MS 1000L
#define ANSWER_WITHIN 1.0                 /* s from a request's end to its answer */
#define RATE_AFTER 2.0                    /* s into a request, its rate is judged */
#define RATE_MIN (256.0 * 1024)           /* bytes per second, up and down */
#define HEADERS_MAX (64u * 1024)          /* all of an answer's header lines */
#define REQUEST_MAX_S 60L

static double now(void) { return blobc_os_monotonic(); }

/* One transfer: what libcurl's callbacks see and decide. */
typedef struct xfer {
    const blobc_curl *api;
    CURL *c;
    bool put;
    double start, sent;    /* when it began; when the request was all sent */
    size_t header_bytes;
    long code;             /* the final answer's status, once its headers end */
    bool enough;           /* the body was not needed: left unread */
    const char *stop;      /* why the transfer was ended here, or NULL */
    http_result stop_as;
    entry_judge *entry;    /* GET: how the answer is judged */
    blobc_buffer *body;
    size_t want;           /* GET: the entry's length by its head; 0 before */
    const char *up;        /* PUT: what is left to send */
    size_t up_left;
} xfer;

static size_t stop(xfer *x, http_result as, const char *why) {
    x->stop = why;
    x->stop_as = as;
    return 0; /* any count but the one given ends the transfer */
}

static size_t on_header(char *p, size_t size, size_t n, void *data) {
    xfer *x = data;
    size_t bytes = size * n;
    x->header_bytes += bytes;
    if (x->header_bytes > HEADERS_MAX) return stop(x, HTTP_DOWN, "got over 64 KiB of headers");
    if (bytes <= 2 && (p[0] == '\r' || p[0] == '\n')) {
        /* a header block ends; 1xx blocks come before the final one */
        long code = 0;
        x->api->easy_getinfo(x->c, CURLINFO_RESPONSE_CODE, &code);
        if (code >= 200) x->code = code;
    }
    return bytes;
}

/* The head is judged as soon as it is whole: a wrong one ends the
 * transfer there, and the body is given exactly the room the head
 * declares, which it may not pass. */
static size_t judge_head(xfer *x) {
    entry_judge *e = x->entry;
    x->want = e->judge(e, x->body->data);
    if (!x->want) return stop(x, HTTP_REJECTED, e->why);
    curl_off_t cl = -1;
    x->api->easy_getinfo(x->c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &cl);
    if (cl >= 0 && (unsigned long long)cl != (unsigned long long)x->want) {
        snprintf(e->why, sizeof e->why, "its Content-Length is %lld, its head says %zu bytes",
                 (long long)cl, x->want);
        return stop(x, HTTP_REJECTED, e->why);
    }
    uint8_t *p = realloc(x->body->data, x->want);
    if (!p) return stop(x, HTTP_FAILED, "ran out of memory");
    x->body->data = p;
    x->body->cap = x->want;
    return 1;
}

static size_t on_body(char *p, size_t size, size_t n, void *data) {
    xfer *x = data;
    size_t bytes = size * n, given = bytes;
    if (x->put || x->code != 200) {
        x->enough = true; /* a PUT's answer, an error page: never read */
        return 0;
    }
    blobc_buffer *b = x->body;
    if (!x->want) {
        size_t k = x->entry->head - b->len;
        if (k > bytes) k = bytes;
        if (!blobc_buf_append(b, p, k)) return stop(x, HTTP_FAILED, "ran out of memory");
        p += k;
        bytes -= k;
        if (b->len < x->entry->head) return given;
        if (!judge_head(x)) return 0;
    }
    if (bytes > x->want - b->len) {
        snprintf(x->entry->why, sizeof x->entry->why, "the answer is longer than its head says");
        return stop(x, HTTP_REJECTED, x->entry->why);
    }
    memcpy(b->data + b->len, p, bytes);
    b->len += bytes;
    return given;
}

static size_t on_upload(char *buf, size_t size, size_t n, void *data) {
    xfer *x = data;
    size_t bytes = size * n;
    if (bytes > x->up_left) bytes = x->up_left;
    memcpy(buf, x->up, bytes);
    x->up += bytes;
    x->up_left -= bytes;
    return bytes;
}

static int on_progress(void *data, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                       curl_off_t ulnow) {
    xfer *x = data;
    double t = now();
    if (!x->code && !x->sent) {
        curl_off_t us = 0;
        if (!x->put) x->api->easy_getinfo(x->c, CURLINFO_PRETRANSFER_TIME_T, &us);
        if (us > 0 || (x->put && x->up_left == 0)) x->sent = us > 0 ? x->start + (double)us / 1e6 : t;
    }
    const char *why = NULL;
    if (!x->code && x->sent && t - x->sent > ANSWER_WITHIN)
        why = "got no answer 1 s after the request: too slow";
    else if (t - x->start > RATE_AFTER && (double)(dlnow + ulnow) < RATE_MIN * (t - x->start))
        why = "moved under 256 KiB/s: too slow";
    if (!why) return 0;
    stop(x, HTTP_DOWN, why);
    return 1;
}

/* libcurl's ABI 4, the one every distribution ships: libcurl.so.4 on
 * Linux, libcurl-4.dll on Windows. */
#define CURL_SONAME blobc_os_curl_lib

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* s[0..n) with its %XX escapes decoded (RFC 3986), malloc'd. */
static char *decoded(const char *s, size_t n) {
    char *d = malloc(n + 1), *q = d;
    if (!d) return NULL;
    for (size_t i = 0; i < n; i++) {
        int hi = s[i] == '%' && i + 2 < n ? hex_digit(s[i + 1]) : -1;
        int lo = hi >= 0 ? hex_digit(s[i + 2]) : -1;
        if (lo >= 0) {
            *q++ = (char)(hi * 16 + lo);
            i += 2;
        } else {
            *q++ = s[i];
        }
    }
    *q = '\0';
    return d;
}

/* The userinfo is what comes before the last '@' of the authority, which
 * ends at the first '/', '?' or '#' after "://". */
static blobc_status take_credentials(blobc_curl *api, char *url, blobc_error *err) {
    char *auth = strstr(url, "://");
    if (!auth) return BLOBC_OK;
    auth += 3;
    size_t n = strcspn(auth, "/?#");
    char *at = NULL;
    for (size_t i = 0; i < n; i++)
        if (auth[i] == '@') at = auth + i;
    if (!at) return BLOBC_OK;
    size_t info = (size_t)(at - auth);
    const char *colon = memchr(auth, ':', info);
    size_t name = colon ? (size_t)(colon - auth) : info;
    api->user = decoded(auth, name);
    if (colon) api->password = decoded(colon + 1, info - name - 1);
    if (!api->user || (colon && !api->password)) return blobc_err_nomem(err);
    size_t rest = strlen(at + 1) + 1, len = strlen(url);
    memmove(auth, at + 1, rest);
    memset(auth + rest, 0, len + 1 - (size_t)(auth - url) - rest); /* no copy left behind */
    return BLOBC_OK;
}

blobc_status blobc_curl_load(blobc_curl *api, char *url, blobc_error *err) {
    memset(api, 0, sizeof *api);
    if (take_credentials(api, url, err) != BLOBC_OK) {
        blobc_curl_unload(api);
        return err->status;
    }
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

static void scrub_free(char *s) {
    if (!s) return;
    for (volatile char *p = s; *p; p++) *p = 0;
    free(s);
}

void blobc_curl_unload(blobc_curl *api) {
    if (api->dl) blobc_os_lib_close(api->dl);
    scrub_free(api->user);
    scrub_free(api->password);
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

static bool start(xfer *x, const blobc_curl *api, const char *url, char *errbuf) {
    CURL *c = x->c = api->easy_init();
    if (!c) return false;
    x->api = api;
    x->start = now();
    errbuf[0] = '\0';
    api->easy_setopt(c, CURLOPT_URL, url);
    api->easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    api->easy_setopt(c, CURLOPT_NOSIGNAL, 1L); /* no SIGALRM: threads */
    api->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    api->easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    api->easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, CONNECT_MS);
    api->easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1024L);
    api->easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 5L);
    api->easy_setopt(c, CURLOPT_TIMEOUT, REQUEST_MAX_S);
    api->easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    api->easy_setopt(c, CURLOPT_HEADERDATA, x);
    api->easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    api->easy_setopt(c, CURLOPT_WRITEDATA, x);
    api->easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    api->easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    api->easy_setopt(c, CURLOPT_XFERINFODATA, x);
    /* Credentials: the URL's, else ~/.netrc's for the host (the way to
     * keep them off command lines). */
    api->easy_setopt(c, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
    if (api->user) api->easy_setopt(c, CURLOPT_USERNAME, api->user);
    if (api->password) api->easy_setopt(c, CURLOPT_PASSWORD, api->password);
    return true;
}

static http_result warn_as(blobc_error *warn, http_result r, const char *method, const char *what) {
    const char *then = r == HTTP_DOWN                  ? "; not asked again in this run"
                       : r == HTTP_REFUSED && *method == 'P' ? "; no more PUTs to it in this run"
                       : r == HTTP_REFUSED                    ? "; not asked again in this run"
                                                              : "";
    blobc_err(warn, BLOBC_EIO, "cache server: %s %s%s", method, what, then);
    return r;
}

/* Turns a finished transfer into a result, with a warning for failures. */
static http_result finish(xfer *x, CURLcode rc, const char *errbuf, const char *method,
                          const char *url, blobc_error *warn) {
    const blobc_curl *api = x->api;
    api->easy_cleanup(x->c);
    blobc_err_file(warn, url);
    if (x->stop && x->stop_as == HTTP_REJECTED) return HTTP_REJECTED;
    if (x->stop) return warn_as(warn, x->stop_as, method, x->stop);
    if (rc != CURLE_OK && !(rc == CURLE_WRITE_ERROR && x->enough)) {
        bool down = rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST ||
                    rc == CURLE_OPERATION_TIMEDOUT || rc == CURLE_COULDNT_RESOLVE_PROXY;
        char what[CURL_ERROR_SIZE + 16];
        snprintf(what, sizeof what, "failed: %s", errbuf[0] ? errbuf : api->easy_strerror(rc));
        return warn_as(warn, down ? HTTP_DOWN : HTTP_FAILED, method, what);
    }
    if (x->put && x->code >= 200 && x->code < 300) return HTTP_FOUND;
    if (!x->put && x->code == 404) return HTTP_MISSING;
    if (!x->put && x->code == 200) {
        if (x->want && x->body->len == x->want) return HTTP_FOUND;
        snprintf(x->entry->why, sizeof x->entry->why, "%s",
                 x->want ? "cut short" : "not a cache entry");
        return HTTP_REJECTED;
    }
    char what[48];
    snprintf(what, sizeof what, "answered HTTP %ld", x->code);
    /* too large for the server is about this entry, not the server */
    return warn_as(warn, x->put && x->code == 413 ? HTTP_FAILED : HTTP_REFUSED, method, what);
}

http_result blobc_http_get(const blobc_curl *api, const char *url, entry_judge *e, blobc_buffer *out,
                           blobc_error *warn) {
    char errbuf[CURL_ERROR_SIZE];
    xfer x = {.entry = e, .body = out};
    e->why[0] = '\0';
    out->len = 0;
    if (!start(&x, api, url, errbuf)) {
        blobc_err_nomem(warn);
        return HTTP_FAILED;
    }
    CURLcode rc = api->easy_perform(x.c);
    http_result r = finish(&x, rc, errbuf, "GET", url, warn);
    if (r != HTTP_FOUND) out->len = 0;
    return r;
}

http_result blobc_http_put(const blobc_curl *api, const char *url, const void *data, size_t len,
                           blobc_error *warn) {
    char errbuf[CURL_ERROR_SIZE];
    xfer x = {.put = true, .up = data, .up_left = len};
    if (!start(&x, api, url, errbuf)) {
        blobc_err_nomem(warn);
        return HTTP_FAILED;
    }
    api->easy_setopt(x.c, CURLOPT_UPLOAD, 1L);
    api->easy_setopt(x.c, CURLOPT_READFUNCTION, on_upload);
    api->easy_setopt(x.c, CURLOPT_READDATA, &x);
    api->easy_setopt(x.c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)len);
    CURLcode rc = api->easy_perform(x.c);
    return finish(&x, rc, errbuf, "PUT", url, warn);
}
