/*
 * json_lex.c - the JSON tokenizer of the bake: strings (scanned eight
 * bytes at a time, escapes decoded), numbers (checked against JSON's
 * grammar and converted in the same pass), stepping over a value, and the
 * first syntax error of a text with a message at the offending token.
 *
 * json.c reads every value through these: the values it places, the ones
 * it steps over, and, when something is wrong, the whole text once more
 * to find the first syntax error (the reader notices a mistake where it
 * stands, which is not always where the text went wrong: a trailing comma
 * is only seen at the bracket after it). Nothing allocates except the
 * buffer an escaped string is decoded into; the open brackets of a value
 * being stepped over are a byte stack.
 */
#include "bake/json_lex.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bake/bake_internal.h"

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

size_t jl_string(const char *t, size_t len, size_t i, unsigned *flags) {
    unsigned fl = JL_OPEN;
    i++;
    while (i < len) {
        /* Eight bytes at a time while none is a quote, a backslash or a
         * control character. */
        while (len - i >= 8) {
            uint64_t w;
            memcpy(&w, t + i, 8);
            uint64_t q = w ^ (ONES * '"'), b = w ^ (ONES * '\\');
            uint64_t special = ((q - ONES) & ~q) | ((b - ONES) & ~b) | ((w - ONES * 0x20) & ~w);
            if (!(special & HIGHS)) {
                if (w & HIGHS) fl |= JL_HIGH;
                i += 8;
                continue;
            }
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            /* The lowest flagged byte is a real match (the borrows of the
             * tests only run upwards): step straight to it. */
            unsigned k = (unsigned)__builtin_ctzll(special & HIGHS) >> 3;
            if (k) {
                if (w & HIGHS & (~0ull >> (64 - 8 * k))) fl |= JL_HIGH;
                i += k;
            }
#endif
            break;
        }
        if (i >= len) break;
        unsigned char c = (unsigned char)t[i];
        if (c == '"') {
            fl &= ~JL_OPEN;
            i++;
            break;
        }
        if (c == '\\') {
            fl |= JL_ESC;
            if (i + 5 < len && t[i + 1] == 'u' && t[i + 2] == '0' && t[i + 3] == '0' &&
                t[i + 4] == '0' && t[i + 5] == '0')
                fl |= JL_NUL;
            i += 2;
            continue;
        }
        if (c < 0x20) fl |= JL_CTRL;
        else if (c >= 0x80) fl |= JL_HIGH;
        i++;
    }
    *flags = fl;
    return i > len ? len : i;
}

static int hex4(const char *p) {
    int v = 0;
    for (int k = 0; k < 4; k++) {
        char c = p[k];
        int d = c >= '0' && c <= '9' ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

/* The code point of the \u escape at s[i] (a surrogate pair counts as
 * one, *n receives the escape's length): -1 when JSON does not allow it. */
static long unicode_escape(const char *s, size_t n, size_t i, size_t *len) {
    int u = n - i >= 6 ? hex4(s + i + 2) : -1;
    if (u < 0 || (u >= 0xDC00 && u <= 0xDFFF)) return -1;
    *len = 6;
    if (u < 0xD800 || u > 0xDBFF) return u;
    int lo = n - i >= 12 && s[i + 6] == '\\' && s[i + 7] == 'u' ? hex4(s + i + 8) : -1;
    if (lo < 0xDC00 || lo > 0xDFFF) return -1;
    *len = 12;
    return 0x10000 + (((long)u - 0xD800) << 10) + (lo - 0xDC00);
}

bool jl_unescape(const char *s, size_t n, blobc_buffer *out, bool *nomem) {
    *nomem = false;
    out->len = 0;
    /* Decoded text is never longer than its source. */
    if (!blobc_buf_reserve(out, n + 1)) {
        *nomem = true;
        return false;
    }
    char *o = (char *)out->data;
    size_t i = 0;
    while (i < n) {
        const char *bs = memchr(s + i, '\\', n - i);
        size_t run = bs ? (size_t)(bs - (s + i)) : n - i;
        memcpy(o, s + i, run);
        o += run;
        i += run;
        if (i >= n) break;
        if (i + 1 >= n) return false;
        char e = s[i + 1];
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *p = e ? strchr(from, e) : NULL;
        if (p) {
            *o++ = to[p - from];
            i += 2;
            continue;
        }
        size_t elen;
        long cp = e == 'u' ? unicode_escape(s, n, i, &elen) : -1;
        if (cp < 0) return false;
        o += blobc_utf8_put(o, (uint32_t)cp);
        i += elen;
    }
    out->len = (size_t)(o - (char *)out->data);
    *o = '\0';
    return true;
}

/* ---- numbers ---- */

/* The characters a number token runs over: digits, signs, '.', 'e', 'E'. */
static const unsigned char num_char[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1,
    ['7'] = 1, ['8'] = 1, ['9'] = 1, ['-'] = 1, ['+'] = 1, ['.'] = 1, ['e'] = 1, ['E'] = 1,
};

/* The digits from *p accumulated into *m (which wraps past 19 digits:
 * the caller counts them). */
static const char *digits(const char *p, const char *e, uint64_t *m) {
    uint64_t v = *m;
    unsigned d;
    while (p < e && (d = (unsigned)(*p - '0')) <= 9) {
        v = v * 10 + d;
        p++;
    }
    *m = v;
    return p;
}

bool jl_number(const char *t, size_t len, size_t i, jl_num *o) {
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = t + i, *e = t + len;
    bool neg = p < e && *p == '-';
    p += neg;
    const char *d0 = p;
    uint64_t m = 0;
    long scale = 0; /* the value is m * 10^scale */
    bool ok = p < e && (unsigned)(*p - '0') <= 9, is_int = ok;
    if (ok) p = *p == '0' ? p + 1 : digits(p, e, &m);
    if (ok && p < e && *p == '.') {
        const char *f0 = ++p;
        p = digits(p, e, &m);
        ok = p > f0;
        is_int = false;
        scale = -(long)(p - f0);
    }
    size_t nd = (size_t)(p - d0) - (scale != 0); /* digits in m, leading zeros included */
    if (ok && p < e && (*p == 'e' || *p == 'E')) {
        p++;
        bool eneg = p < e && *p == '-';
        if (p < e && (*p == '-' || *p == '+')) p++;
        const char *e0 = p;
        long x = 0;
        for (; p < e && (unsigned)(*p - '0') <= 9; p++)
            if (x < 100000) x = x * 10 + (*p - '0');
        ok = p > e0;
        is_int = false;
        scale += eneg ? -x : x;
    }
    /* The whole run of number characters is the token. */
    const char *end = p;
    while (end < e && num_char[(unsigned char)*end]) end++;
    if (!ok) {
        bool digit = false;
        for (const char *q = t + i; q < end && !digit; q++) digit = (unsigned)(*q - '0') <= 9;
        if (!digit) return false;
    }
    o->end = (size_t)(end - t);
    o->json = ok && end == p;
    o->is_int = o->json && is_int;
    /* m is exact with at most 19 digits; Clinger's fast path: m and
     * 10^|scale| are exact doubles, so one multiplication or division
     * rounds correctly, as strtod does. */
    bool exact = o->json && nd <= 19;
    o->has_u = exact && is_int && !neg;
    o->u = m;
    o->has_d = exact && m <= (1ull << 53) && scale >= -22 && scale <= 22;
    if (o->has_d) {
        double d = (double)m;
        d = scale < 0 ? d / pow10[-scale] : d * pow10[scale];
        o->d = neg ? -d : d;
    }
    return true;
}

/* ---- syntax ---- */

/* A walk over a value checking its syntax; msg (when not NULL) receives
 * what is wrong, at off. */
typedef struct jsyn {
    const char *t;
    size_t len;
    size_t off;
    char *msg;
    size_t cap;
} jsyn;

BLOBC_PRINTF(3, 4)
static bool fail(jsyn *s, size_t off, const char *fmt, ...) {
    s->off = off;
    if (!s->msg) return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, s->cap, fmt, ap);
    va_end(ap);
    return false;
}

/* "'x'", "byte 0x0a" or "the end of the input", for "got ...". */
static const char *what_at(const jsyn *s, size_t i, char *buf, size_t cap) {
    if (i >= s->len) return "the end of the input";
    unsigned char c = (unsigned char)s->t[i];
    if (c >= 0x21 && c < 0x7f) snprintf(buf, cap, "'%c'", c);
    else snprintf(buf, cap, "byte 0x%02x", c);
    return buf;
}

/* The string at t[i] == '"'; *end receives the index past its quote. */
static bool string_ok(jsyn *s, size_t i, size_t *end) {
    unsigned fl;
    size_t e = jl_string(s->t, s->len, i, &fl);
    if (fl & JL_OPEN) {
        /* Unterminated, or an escape stepped over the closing quote. */
        if (!(fl & JL_ESC)) return fail(s, i, "unterminated string");
    } else if (!(fl & JL_ESC)) {
        *end = e;
        return true;
    }
    /* Escapes: each one checked, in order. */
    size_t start = i++;
    while (i < s->len) {
        char c = s->t[i];
        if (c == '"') {
            *end = i + 1;
            return true;
        }
        if (c != '\\') {
            i++;
            continue;
        }
        if (i + 1 >= s->len) break;
        char x = s->t[i + 1];
        if (x && strchr("\"\\/bfnrt", x)) {
            i += 2;
            continue;
        }
        if (x != 'u') return fail(s, i, "bad escape sequence '\\%c' in a string", x);
        int u = s->len - i >= 6 ? hex4(s->t + i + 2) : -1;
        if (u < 0) return fail(s, i, "bad escape sequence in a string (\\u needs 4 hex digits)");
        if (u >= 0xDC00 && u <= 0xDFFF)
            return fail(s, i, "a lone low surrogate \\u%04X in a string", (unsigned)u);
        size_t elen;
        if (unicode_escape(s->t, s->len, i, &elen) < 0)
            return fail(s, i, "a high surrogate \\u%04X in a string without its low half",
                        (unsigned)u);
        i += elen;
    }
    return fail(s, start, "unterminated string");
}

/* A scalar value at i (not a bracket); *end receives where it ends. */
static bool scalar_ok(jsyn *s, size_t i, size_t *end, const char *after) {
    const char *t = s->t;
    char buf[32];
    if (t[i] == '"') return string_ok(s, i, end);
    static const char *const lits[] = {"true", "false", "null"};
    for (size_t k = 0; k < 3; k++) {
        size_t n = strlen(lits[k]);
        if (t[i] != lits[k][0]) continue;
        if (s->len - i < n || memcmp(t + i, lits[k], n) != 0)
            return fail(s, i, "invalid literal (expected %s)", lits[k]);
        *end = i + n;
        return true;
    }
    jl_num num;
    if (jl_number(t, s->len, i, &num)) {
        *end = num.end;
        return true;
    }
    /* What JavaScript and Python's json module write for a float JSON has
     * no number for; AUTHORING.md spells these as strings. */
    static const char *const nonjson[][2] = {
        {"NaN", "\"nan\""}, {"Infinity", "\"inf\""}, {"-Infinity", "\"-inf\""}};
    for (size_t k = 0; k < 3; k++) {
        size_t n = strlen(nonjson[k][0]);
        if (s->len - i >= n && memcmp(t + i, nonjson[k][0], n) == 0)
            return fail(s, i, "%s is not JSON; a float that is not a number is written as the "
                              "string %s", nonjson[k][0], nonjson[k][1]);
    }
    return fail(s, i, "unexpected %s%s", what_at(s, i, buf, sizeof buf), after);
}

/* What came before a value or key, for "after ..." hints. */
static const char *after_word(char prev) {
    return prev == ',' ? " after ','" : prev == ':' ? " after ':'" : prev == '[' ? " after '['" : "";
}

/* The value at i, to its end (*end, past any white space after it). */
static bool value_ok(jsyn *s, size_t i, size_t *end) {
    const char *t = s->t;
    size_t len = s->len, depth = 0;
    unsigned char stack[BK_JSON_NESTING]; /* '{' or '[' per open bracket */
    char buf[32], prev = 0;
    for (;;) {
        /* a value */
        i = jl_ws(t, len, i);
        if (i >= len) return fail(s, len, "unexpected end of input");
        if (t[i] == '{' || t[i] == '[') {
            if (depth >= BK_JSON_NESTING)
                return fail(s, i, "nesting is deeper than %d levels", BK_JSON_NESTING);
            char open = t[i];
            stack[depth++] = (unsigned char)open;
            i = jl_ws(t, len, i + 1);
            if (i < len && t[i] == (open == '{' ? '}' : ']')) {
                depth--;
                i++;
            } else if (open == '[') {
                prev = '[';
                continue;
            } else {
                prev = '{';
                goto key;
            }
        } else {
            if (t[i] == ',' && prev == ',')
                return fail(s, i, "unexpected ',' after ',' (a value is missing)");
            size_t e;
            if (!scalar_ok(s, i, &e, after_word(prev))) return false;
            i = e;
        }
        /* after a value: closing brackets, then the next member or item */
        for (;;) {
            i = jl_ws(t, len, i);
            if (depth == 0) {
                *end = i;
                return true;
            }
            bool obj = stack[depth - 1] == '{';
            char close = obj ? '}' : ']';
            if (i < len && t[i] == close) {
                depth--;
                i++;
                continue;
            }
            if (i >= len) return fail(s, len, "unexpected end of input");
            if (t[i] != ',')
                return fail(s, i, "expected ',' or '%c' after %s, got %s", close,
                            obj ? "an object member" : "an array item",
                            what_at(s, i, buf, sizeof buf));
            size_t comma = i;
            i = jl_ws(t, len, i + 1);
            if (i < len && (t[i] == '}' || t[i] == ']'))
                return fail(s, comma,
                            "trailing comma: '%c' after ',' (JSON allows no comma after the last %s)",
                            t[i], obj ? "member" : "item");
            prev = ',';
            if (obj) goto key;
            break;
        }
        continue;
    key:
        /* an object member's key and colon, from i */
        if (i >= len) return fail(s, len, "unexpected end of input");
        if (t[i] == ',' && prev == ',')
            return fail(s, i, "unexpected ',' after ',' (a member is missing)");
        if (t[i] != '"')
            return fail(s, i, "expected a string key, got %s%s", what_at(s, i, buf, sizeof buf),
                        after_word(prev));
        size_t e;
        if (!string_ok(s, i, &e)) return false;
        i = jl_ws(t, len, e);
        if (i >= len) return fail(s, len, "unexpected end of input");
        if (t[i] != ':')
            return fail(s, i, "expected ':' after an object key, got %s",
                        what_at(s, i, buf, sizeof buf));
        i++;
        prev = ':';
    }
}

bool jl_skip(const char *t, size_t len, size_t i, size_t *end) {
    jsyn s = {t, len, 0, NULL, 0};
    return value_ok(&s, i, end);
}

bool jl_count_items(const char *t, size_t len, size_t i, uint32_t *count) {
    uint32_t n = 0;
    i = jl_ws(t, len, i + 1);
    if (i < len && t[i] == ']') {
        *count = 0;
        return true;
    }
    for (;;) {
        if (!jl_skip(t, len, i, &i)) return false;
        if (n < UINT32_MAX) n++;
        if (i < len && t[i] == ']') break;
        if (i >= len || t[i] != ',') return false;
        i++;
    }
    *count = n;
    return true;
}

/* Bytes jl_count_flat stops at: the ends of items and of the array,
 * strings, and the brackets of a nested value. */
static const unsigned char flat_stop[256] = {
    [','] = 1, [']'] = 1, ['"'] = 1, ['['] = 1, ['{'] = 1,
};

bool jl_count_flat(const char *t, size_t len, size_t i, size_t limit, uint32_t *count) {
    size_t end = len - i > limit ? i + limit : len, j = jl_ws(t, end, i + 1);
    if (j < end && t[j] == ']') {
        *count = 0;
        return true;
    }
    uint32_t commas = 0;
    for (;;) {
        while (j < end && !flat_stop[(unsigned char)t[j]]) j++;
        if (j >= end) return false;
        char c = t[j];
        if (c == ',') {
            commas++;
            j++;
        } else if (c == '"') {
            unsigned fl;
            j = jl_string(t, len, j, &fl);
            if (fl & JL_OPEN) return false;
        } else if (c == ']') {
            *count = commas + 1;
            return true;
        } else {
            return false;
        }
    }
}

bool jl_check(const char *t, size_t len, size_t *off, char *msg, size_t cap) {
    jsyn s = {t, len, 0, msg, cap};
    size_t i = len >= 3 && memcmp(t, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0, end;
    if (value_ok(&s, i, &end) && (end >= len || fail(&s, end, "more text after the top-level value")))
        return true;
    *off = s.off;
    return false;
}

/* ---- positions ---- */

void jl_line_col(const char *t, size_t len, size_t off, uint32_t *line, size_t *start,
                 uint32_t *col) {
    if (off > len) off = len;
    size_t ln = *line, st = *start;
    const char *p = t + st, *end = t + off;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) break;
        ln++;
        p = nl + 1;
        st = (size_t)(p - t);
    }
    size_t c = 1;
    for (size_t i = st; i < off; i++)
        if (((unsigned char)t[i] & 0xC0) != 0x80) c++;
    *line = ln > UINT32_MAX ? UINT32_MAX : (uint32_t)ln;
    *start = st;
    *col = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}
