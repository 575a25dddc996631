/*
 * utf8.c - UTF-8 validity, and telling a text input from a binary one.
 */
#include "common/utf8.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/checked.h"
#include "common/err.h"

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

char *blobc_utf8_repaired(const char *s) {
    size_t n = strlen(s), cap;
    if (!blobc_mul_ok(n, 3, &cap) || !blobc_add_ok(cap, 1, &cap)) return NULL;
    char *out = malloc(cap), *o = out;
    for (size_t i = 0; out && i < n;) {
        uint32_t cp;
        size_t len = blobc_utf8_seq((const uint8_t *)s + i, n - i, &cp);
        if (len) memcpy(o, s + i, len);
        o += len ? len : blobc_utf8_put(o, 0xFFFD);
        i += len ? len : 1;
    }
    if (out) *o = '\0';
    return out;
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
        /* Many bytes at a time while they are printable ASCII, which is
         * nearly all of a text file; anything else takes the byte path. */
#if defined(__SSE2__)
        /* A signed compare finds both: bytes >= 0x80 are negative. Line
         * ends and tabs are text too: taken here, or every line of a
         * YAML file would leave this path. */
        while (!s->need && n - i >= 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
            __m128i ws = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))),
                                      _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')));
            if (_mm_movemask_epi8(_mm_andnot_si128(ws, _mm_cmplt_epi8(v, _mm_set1_epi8(0x20))))) break;
            i += 16;
        }
#endif
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
