/*
 * util.c - arena, buffers, error filling and small text helpers used by
 * every module of the library.
 */
#include "common/util.h"

#include "blobc/blobc.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- arena ---- */

struct blobc_arena_block {
    blobc_arena_block *next;
    size_t pad; /* keeps the payload 16-byte aligned on 64-bit and 32-bit hosts */
    _Alignas(16) unsigned char mem[];
};

#define ARENA_BLOCK_DEFAULT (64u * 1024u)

void blobc_arena_init(blobc_arena *a) { memset(a, 0, sizeof *a); }

void blobc_arena_free(blobc_arena *a) {
    blobc_arena_block *b = a->head;
    while (b) {
        blobc_arena_block *next = b->next;
        free(b);
        b = next;
    }
    memset(a, 0, sizeof *a);
}

void *blobc_arena_alloc(blobc_arena *a, size_t n) {
    size_t need;
    if (n == 0) n = 1;
    if (!blobc_align_ok(n, 16, &need)) return NULL;
    if (!a->head || need > a->cap - a->used) {
        size_t cap = need > ARENA_BLOCK_DEFAULT ? need : ARENA_BLOCK_DEFAULT;
        size_t total;
        if (!blobc_add_ok(cap, sizeof(blobc_arena_block), &total)) return NULL;
        blobc_arena_block *blk = malloc(total);
        if (!blk) return NULL;
        /* A dedicated oversized block goes behind the head so the head's
         * free space is not abandoned. */
        if (a->head && need > ARENA_BLOCK_DEFAULT) {
            blk->next = a->head->next;
            a->head->next = blk;
            memset(blk->mem, 0, need);
            return blk->mem;
        }
        blk->next = a->head;
        a->head = blk;
        a->cap = cap;
        a->used = 0;
    }
    void *p = a->head->mem + a->used;
    a->used += need;
    memset(p, 0, n);
    return p;
}

void *blobc_arena_array(blobc_arena *a, size_t count, size_t size) {
    size_t n;
    if (!blobc_mul_ok(count, size, &n)) return NULL;
    return blobc_arena_alloc(a, n);
}

char *blobc_arena_strndup(blobc_arena *a, const char *s, size_t n) {
    size_t total;
    if (!blobc_add_ok(n, 1, &total)) return NULL;
    char *p = blobc_arena_alloc(a, total);
    if (!p) return NULL;
    if (n) memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

/* ---- buffers ---- */

void blobc_buffer_free(blobc_buffer *buf) {
    if (!buf) return;
    free(buf->data);
    buf->data = NULL;
    buf->len = buf->cap = 0;
}

bool blobc_grow(void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return true;
    size_t nc = *cap ? *cap : 16;
    while (nc < need) {
        if (nc > SIZE_MAX / 2 / elem) return false;
        nc *= 2;
    }
    void *q = realloc(*p, nc * elem);
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
    uint8_t *p = realloc(b->data, cap);
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

bool blobc_buf_vprintf(blobc_buffer *b, const char *fmt, va_list ap) {
    va_list again;
    va_copy(again, ap);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    bool ok = n >= 0;
    if (ok && (size_t)n < sizeof small) {
        ok = blobc_buf_append(b, small, (size_t)n);
    } else if (ok && (ok = blobc_buf_reserve(b, (size_t)n + 1))) {
        vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, again);
        b->len += (size_t)n;
    }
    va_end(again);
    return ok;
}

bool blobc_buf_printf(blobc_buffer *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    bool ok = blobc_buf_vprintf(b, fmt, ap);
    va_end(ap);
    return ok;
}

bool blobc_buf_zeros(blobc_buffer *b, size_t n) {
    if (!blobc_buf_reserve(b, n)) return false;
    if (n) memset(b->data + b->len, 0, n);
    b->len += n;
    return true;
}

/* ---- errors ---- */

static void copy_str(char *dst, size_t cap, const char *src) {
    size_t n = strlen(src);
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void blobc_error_clear(blobc_error *err) {
    if (err) memset(err, 0, sizeof *err);
}

const char *blobc_status_name(blobc_status st) {
    switch (st) {
    case BLOBC_OK: return "ok";
    case BLOBC_EINPUT: return "invalid input";
    case BLOBC_EIO: return "I/O error";
    case BLOBC_ENOMEM: return "out of memory";
    case BLOBC_EARG: return "invalid argument";
    }
    return "unknown status";
}

blobc_status blobc_verr(blobc_error *e, blobc_status st, const char *fmt, va_list ap) {
    if (e) {
        e->status = st;
        vsnprintf(e->message, sizeof e->message, fmt, ap);
    }
    return st;
}

blobc_status blobc_err(blobc_error *e, blobc_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    blobc_verr(e, st, fmt, ap);
    va_end(ap);
    return st;
}

blobc_status blobc_err_nomem(blobc_error *e) { return blobc_err(e, BLOBC_ENOMEM, "out of memory"); }

blobc_c_numeric blobc_c_numeric_begin(void) {
    blobc_c_numeric l = {(locale_t)0, (locale_t)0};
    l.c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (l.c) l.prev = uselocale(l.c);
    return l;
}

void blobc_c_numeric_end(blobc_c_numeric l) {
    if (!l.c) return;
    uselocale(l.prev);
    freelocale(l.c);
}

blobc_status blobc_err_arg(blobc_error *e, const char *fn, const char *what) {
    blobc_error_clear(e); /* no place in any input to name */
    return blobc_err(e, BLOBC_EARG, "%s: %s", fn, what);
}

void blobc_err_at(blobc_error *e, const char *file, uint32_t line, uint32_t col) {
    if (!e) return;
    if (file) copy_str(e->file, sizeof e->file, file);
    e->line = line;
    e->column = col;
}

void blobc_err_file(blobc_error *e, const char *file) {
    if (e && file) copy_str(e->file, sizeof e->file, file);
}

void blobc_err_path(blobc_error *e, const char *path) {
    if (e && path) copy_str(e->path, sizeof e->path, path);
}

void blobc_err_offset(blobc_error *e, uint64_t offset) {
    if (!e) return;
    e->has_offset = 1;
    e->offset = offset;
}

blobc_status blobc_err_verify(blobc_error *e, int code, uint64_t offset, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    blobc_verr(e, BLOBC_EINPUT, fmt, ap);
    va_end(ap);
    if (e) e->code = code;
    blobc_err_offset(e, offset);
    return BLOBC_EINPUT;
}

void blobc_err_source_line(blobc_error *e, const char *text, size_t len, size_t pos) {
    if (!e || !text) return;
    if (pos > len) pos = len;
    size_t start = pos, end = pos;
    while (start > 0 && text[start - 1] != '\n') start--;
    while (end < len && text[end] != '\n' && text[end] != '\r') end++;
    size_t n = end - start;
    if (n >= sizeof e->source_line) n = sizeof e->source_line - 1;
    memcpy(e->source_line, text + start, n);
    e->source_line[n] = '\0';
    /* Tabs would misplace the caret; show them as spaces. Control bytes
     * are never echoed to a terminal: each becomes a '?'. */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)e->source_line[i];
        if (c == '\t') e->source_line[i] = ' ';
        else if (c < 0x20 || c == 0x7f) e->source_line[i] = '?';
    }
}

size_t blobc_error_format(const blobc_error *err, char *buf, size_t cap) {
    if (!err) {
        if (buf && cap) buf[0] = '\0';
        return 0;
    }
    blobc_buffer b = {0};
    const char *file = err->file[0] ? err->file : NULL;
    bool ok = true;
    if (file) ok = ok && blobc_buf_puts(&b, file);
    if (err->line) {
        ok = ok && blobc_buf_printf(&b, ":%u:%u", (unsigned)err->line, (unsigned)err->column);
        if (err->path[0]) ok = ok && blobc_buf_printf(&b, ": %s", err->path);
    } else if (err->has_offset) {
        ok = ok && blobc_buf_printf(&b, "%soffset 0x%llx", file ? ": " : "",
                                    (unsigned long long)err->offset);
        if (err->path[0]) ok = ok && blobc_buf_printf(&b, " (%s)", err->path);
    } else if (err->path[0]) {
        ok = ok && blobc_buf_printf(&b, "%s%s", file ? ": " : "", err->path);
    }
    ok = ok && blobc_buf_printf(&b, "%serror: %s", b.len ? ": " : "", err->message);
    if (err->source_line[0]) {
        ok = ok && blobc_buf_printf(&b, "\n    %s\n    ", err->source_line);
        for (uint32_t i = 1; ok && i < err->column && i < BLOBC_ERROR_LINE_MAX; i++)
            ok = blobc_buf_putc(&b, ' ');
        ok = ok && blobc_buf_putc(&b, '^');
    }
    size_t n = ok ? b.len : 0;
    if (cap) {
        size_t c = n < cap ? n : cap - 1;
        if (c) memcpy(buf, b.data, c);
        buf[c] = '\0';
    }
    blobc_buffer_free(&b);
    return n;
}

/* ---- text helpers ---- */

/* Writes `text` quoted, escaping control bytes and cutting it at BLOBC_QUOTE_MAX
 * so that a huge or binary scalar still gives a one-line message. */
size_t blobc_quote(char *dst, size_t cap, const char *s, size_t n) {
    size_t o = 0;
#define PUT(c)                                                                                     \
    do {                                                                                           \
        if (o + 1 < cap) dst[o] = (c);                                                             \
        o++;                                                                                       \
    } while (0)
    PUT('"');
    size_t shown = n > BLOBC_QUOTE_MAX ? BLOBC_QUOTE_MAX : n;
    for (size_t i = 0; i < shown; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            PUT('\\');
            PUT((char)c);
        } else if (c == '\n') {
            PUT('\\');
            PUT('n');
        } else if (c == '\t') {
            PUT('\\');
            PUT('t');
        } else if (c < 0x20 || c == 0x7f) {
            static const char hex[] = "0123456789abcdef";
            PUT('\\');
            PUT('x');
            PUT(hex[c >> 4]);
            PUT(hex[c & 15]);
        } else {
            PUT((char)c);
        }
    }
    PUT('"');
    if (shown < n) {
        PUT('.');
        PUT('.');
        PUT('.');
    }
#undef PUT
    if (cap) dst[o < cap ? o : cap - 1] = '\0';
    return o;
}


size_t blobc_edit_distance(const char *a, size_t alen, const char *b, size_t blen) {
    /* Names are short; anything longer is not worth suggesting. */
    enum { MAXN = 64 };
    if (alen > MAXN || blen > MAXN) return SIZE_MAX;
    /* Three rows: the one before the previous counts a swap of two
     * neighbouring letters ("nmae" for "name") as one edit. */
    size_t r0[MAXN + 1], r1[MAXN + 1], r2[MAXN + 1];
    size_t *pp = r0, *prev = r1, *row = r2;
    for (size_t j = 0; j <= blen; j++) prev[j] = j;
    for (size_t i = 1; i <= alen; i++) {
        row[0] = i;
        for (size_t j = 1; j <= blen; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t best = prev[j - 1] + cost;
            if (prev[j] + 1 < best) best = prev[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                pp[j - 2] + 1 < best)
                best = pp[j - 2] + 1;
            row[j] = best;
        }
        size_t *t = pp;
        pp = prev;
        prev = row;
        row = t;
    }
    return prev[blen];
}

size_t blobc_utf8_seq(const uint8_t *s, size_t n, uint32_t *cp) {
    uint8_t c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len;
    uint32_t v;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        v = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        v = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        v = c & 0x07;
    } else {
        return 0;
    }
    if (len > n) return 0;
    for (size_t k = 1; k < len; k++) {
        if ((s[k] & 0xC0) != 0x80) return 0;
        v = (v << 6) | (s[k] & 0x3F);
    }
    if ((len == 3 && v < 0x800) || (len == 4 && (v < 0x10000 || v > 0x10FFFF)) ||
        (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

bool blobc_utf8_valid(const uint8_t *s, size_t n) {
    size_t i = 0;
    uint32_t cp;
    while (i < n) {
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t len = blobc_utf8_seq(s + i, n - i, &cp);
        if (!len) return false;
        i += len;
    }
    return true;
}

size_t blobc_utf8_put(char *o, uint32_t cp) {
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

#ifndef BLOBC_VERSION
#define BLOBC_VERSION "0.0.0"
#endif

const char *blobc_version(void) { return BLOBC_VERSION; }

/* ---- quoted strings ---- */

static const char hexd[] = "0123456789abcdef";

bool blobc_buf_quoted(blobc_buffer *b, const uint8_t *s, size_t n, bool json) {
    size_t need;
    if (!blobc_mul_ok(n, 6, &need) || !blobc_buf_reserve(b, need + 2)) return false;
    uint8_t *o = b->data + b->len, *o0 = o;
    *o++ = '"';
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            *o++ = c;
            i++;
            continue;
        }
        if (c < 0x80) {
            *o++ = '\\';
            switch (c) {
            case '"': *o++ = '"'; break;
            case '\\': *o++ = '\\'; break;
            case '\n': *o++ = 'n'; break;
            case '\t': *o++ = 't'; break;
            case '\r': *o++ = 'r'; break;
            case '\b': *o++ = 'b'; break;
            case '\f': *o++ = 'f'; break;
            default:
                if (json) {
                    memcpy(o, "u00", 3);
                    o += 3;
                } else {
                    *o++ = 'x';
                }
                *o++ = hexd[c >> 4];
                *o++ = hexd[c & 15];
            }
            i++;
            continue;
        }
        uint32_t cp;
        size_t len = blobc_utf8_seq(s + i, n - i, &cp);
        if (!len) {
            /* not UTF-8: U+FFFD for the byte, so the text stays valid */
            memcpy(o, "\\ufffd", 6);
            o += 6;
            i++;
            continue;
        }
        if (!json && ((cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
                         cp == 0xfeff || cp == 0xfffe || cp == 0xffff)) {
            *o++ = '\\';
            if (cp <= 0xff) {
                *o++ = 'x';
                *o++ = hexd[cp >> 4];
                *o++ = hexd[cp & 15];
            } else if (cp == 0x2028) {
                *o++ = 'L';
            } else if (cp == 0x2029) {
                *o++ = 'P';
            } else {
                *o++ = 'u';
                for (int sh = 12; sh >= 0; sh -= 4) *o++ = hexd[(cp >> sh) & 15];
            }
        } else {
            memcpy(o, s + i, len);
            o += len;
        }
        i += len;
    }
    *o++ = '"';
    b->len += (size_t)(o - o0);
    return true;
}

/* ---- text or binary ---- */

/* A NUL never occurs in YAML, JSON or schema text, so it marks a binary
 * file (as git and grep decide); the report points at the first byte that
 * is not text (a control character other than tab, LF, CR, or malformed
 * UTF-8), which may come before the NUL. A stray control byte or bad
 * UTF-8 in an otherwise text file is left to the parser, which reports it
 * at its line and column. The state carries a UTF-8 sequence cut at the
 * end of one chunk into the next. */
bool blobc_textscan_run(blobc_textscan *s, const uint8_t *p, size_t n, uint64_t *bad,
                        uint8_t *byte) {
    if (s->off == 0 && s->need == 0 && n >= 2 &&
        ((p[0] == 0xFE && p[1] == 0xFF) || (p[0] == 0xFF && p[1] == 0xFE)))
        s->off = UINT64_MAX; /* UTF-16 with a BOM: left to the parser */
    if (s->off == UINT64_MAX) return false;
    for (size_t i = 0; i < n; i++) {
        /* Eight bytes at a time while they are printable ASCII, which is
         * nearly all of a text file; anything else takes the byte path. */
        while (!s->need && n - i >= 8) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            if ((w | ((w - 0x2020202020202020ull) & ~w)) & 0x8080808080808080ull) break;
            i += 8;
        }
        if (i >= n) break;
        uint8_t c = p[i];
        bool ok;
        if (s->need) {
            ok = (c & 0xC0) == 0x80;
            s->need = ok ? s->need - 1 : 0;
        } else if (c < 0x80) {
            ok = c >= 0x20 || c == '\t' || c == '\n' || c == '\r';
        } else {
            s->need = c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2
                    : c >= 0xF0 && c <= 0xF4 ? 3 : 0;
            ok = s->need != 0;
        }
        if (!ok && !s->seen_bad) {
            s->seen_bad = true;
            s->first_bad = s->off + i;
            s->first_byte = c;
        }
        if (c == 0) {
            *bad = s->first_bad;
            *byte = s->first_byte;
            s->off += i + 1;
            return true;
        }
    }
    s->off += n;
    return false;
}

blobc_status blobc_err_binary(blobc_error *e, uint64_t off, uint8_t byte, const char *expected) {
    return blobc_err(e, BLOBC_EINPUT, "binary data at offset %llu (byte 0x%02x); expected %s",
                     (unsigned long long)off, byte, expected);
}

bool blobc_text_check(const char *filename, const char *text, size_t len, const char *expected,
                      blobc_error *err) {
    blobc_textscan sc = {0};
    uint64_t bad;
    uint8_t byte;
    if (!blobc_textscan_run(&sc, (const uint8_t *)text, len, &bad, &byte)) return true;
    blobc_err_file(err, filename);
    blobc_err_binary(err, bad, byte, expected);
    return false;
}
