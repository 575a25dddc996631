/*
 * quote.c - text quoted for output: JSON and YAML strings, and excerpts
 * of input for error messages.
 */
#include "common/quote.h"

#include <string.h>

#include "common/buffer.h"
#include "common/checked.h"
#include "common/utf8.h"

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

static const char hexd[] = "0123456789abcdef";

#define BYTES(c) (0x0101010101010101ull * (c))

/* Whether any of the 8 bytes in w needs more than itself in a quoted
 * string: a control byte, DEL, '"', '\\' or a byte of a UTF-8 sequence
 * (exact as a whole, byte order aside). */
static bool word_special(uint64_t w) {
    uint64_t below = (w - BYTES(0x20)) & ~w, del = (w ^ BYTES(0x7f)) - BYTES(1);
    uint64_t quote = (w ^ BYTES(0x22)) - BYTES(1), bslash = (w ^ BYTES(0x5c)) - BYTES(1);
    return ((w | below | (del & ~(w ^ BYTES(0x7f))) | (quote & ~(w ^ BYTES(0x22))) |
             (bslash & ~(w ^ BYTES(0x5c)))) &
            BYTES(0x80)) != 0;
}

bool blobc_buf_quoted(blobc_buffer *b, const uint8_t *s, size_t n, bool json) {
    size_t need;
    if (!blobc_mul_ok(n, 6, &need) || !blobc_buf_reserve(b, need + 2)) return false;
    uint8_t *o = b->data + b->len, *o0 = o;
    *o++ = '"';
    size_t i = 0;
    while (i < n) {
        /* plain text eight bytes at a time: names and tags mostly are */
        size_t from = i;
        while (n - i >= 8) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (word_special(w)) break;
            memcpy(o, &w, 8);
            o += 8;
            i += 8;
        }
        /* a short plain tail: the last eight bytes again, the ones
         * already copied written over with themselves */
        if (i - from >= 8 && n - i < 8) {
            uint64_t w;
            memcpy(&w, s + n - 8, 8);
            if (!word_special(w)) {
                memcpy(o - (8 - (n - i)), &w, 8);
                o += n - i;
                i = n;
            }
        }
        if (i == n) break;
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
