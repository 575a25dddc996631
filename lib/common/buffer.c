/*
 * buffer.c - blobc_buffer appends and growable arrays.
 */
#include "common/buffer.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked.h"
#include "platform/platform.h"


void blobc_buffer_free(blobc_buffer *buf) {
    if (!buf) return;
    free(buf->data);
    buf->data = NULL;
    buf->len = buf->cap = 0;
}

/* The block p (of which the first `used` bytes matter) made `size`
 * bytes, or NULL with p unchanged. A large one is asked for huge pages (a
 * big generated header or a bake's reference table otherwise pays a page
 * fault per 4 KiB it fills, more than filling it costs) and is moved by
 * hand, not realloc'd: the fresh pages are then huge from the start. */
static void *resize(void *p, size_t used, size_t size) {
    if (size < BLOBC_OS_HUGE_MIN) return realloc(p, size);
    void *q = malloc(size);
    if (!q) return NULL;
    blobc_os_advise_huge(q, size);
    if (used) memcpy(q, p, used);
    free(p);
    return q;
}

bool blobc_grow(void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return true;
    size_t nc = *cap ? *cap : 16;
    while (nc < need) {
        if (nc > SIZE_MAX / 2 / elem) return false;
        nc *= 2;
    }
    void *q = resize(*p, *cap * elem, nc * elem);
    if (!q) return false;
    *p = q;
    *cap = nc;
    return true;
}

bool blobc_buf_reserve(blobc_buffer *b, size_t extra) {
    size_t need;
    if (!blobc_add_ok(b->len, extra, &need)) return false;
    if (need <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    uint8_t *p = resize(b->data, b->len, cap);
    if (!p) return false;
    b->data = p;
    b->cap = cap;
    return true;
}

bool blobc_buf_append(blobc_buffer *b, const void *p, size_t n) {
    if (!blobc_buf_reserve(b, n)) return false;
    if (n) memcpy(b->data + b->len, p, n);
    b->len += n;
    return true;
}

bool blobc_buf_putc(blobc_buffer *b, char c) {
    if (b->len == b->cap && !blobc_buf_reserve(b, 1)) return false;
    b->data[b->len++] = (uint8_t)c;
    return true;
}

bool blobc_buf_puts(blobc_buffer *b, const char *s) { return blobc_buf_append(b, s, strlen(s)); }

static bool buf_vprintf(blobc_buffer *b, const char *fmt, va_list ap) BLOBC_PRINTF(2, 0);
static bool buf_vprintf(blobc_buffer *b, const char *fmt, va_list ap) {
    /* Formatted straight into the spare capacity: most texts fit there,
     * so each is formatted once and never copied; a longer one is
     * formatted again once the room is made. */
    va_list again;
    va_copy(again, ap);
    bool ok = blobc_buf_reserve(b, 256);
    size_t room = ok ? b->cap - b->len : 0;
    int n = ok ? vsnprintf((char *)b->data + b->len, room, fmt, ap) : -1;
    ok = n >= 0;
    if (ok && (size_t)n >= room && (ok = blobc_buf_reserve(b, (size_t)n + 1)))
        vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, again);
    if (ok) b->len += (size_t)n;
    va_end(again);
    return ok;
}

bool blobc_buf_printf(blobc_buffer *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    bool ok = buf_vprintf(b, fmt, ap);
    va_end(ap);
    return ok;
}

bool blobc_buf_zeros(blobc_buffer *b, size_t n) {
    if (!blobc_buf_reserve(b, n)) return false;
    if (n) memset(b->data + b->len, 0, n);
    b->len += n;
    return true;
}

void blobc_vemit(blobc_buffer *out, bool *ok, const char *fmt, va_list ap) {
    if (*ok) *ok = buf_vprintf(out, fmt, ap);
}

void blobc_emit(blobc_buffer *out, bool *ok, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    blobc_vemit(out, ok, fmt, ap);
    va_end(ap);
}

void blobc_emit_bytes(blobc_buffer *out, bool *ok, const void *p, size_t n) {
    if (*ok) *ok = blobc_buf_append(out, p, n);
}
