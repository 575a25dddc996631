/*
 * json_syntax.c - finds the first JSON syntax error of a text and says
 * what it is, at the offending token.
 *
 * cJSON only says where it gave up, which is often a token or a line
 * after the mistake (a trailing comma is noticed at the bracket after
 * it). This is a small validator without allocations (the open brackets
 * are a byte stack), run on error paths only: when a parse failed, and
 * before data errors are reported, since a syntax error goes first. It
 * accepts what cJSON accepts where the bake checks more itself: numbers
 * are any run of number characters holding a digit (the bake reports a
 * non-JSON spelling as a value error), raw control characters in strings
 * are left to the bake.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bake/bake_internal.h"

typedef struct jsyn {
    const char *t;
    size_t len;
    size_t off;
    char *msg;
    size_t cap;
} jsyn;

BLOBC_PRINTF(3, 4)
static bool fail(jsyn *s, size_t off, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, s->cap, fmt, ap);
    va_end(ap);
    s->off = off;
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

static size_t ws(const jsyn *s, size_t i) {
    while (i < s->len && (s->t[i] == ' ' || s->t[i] == '\t' || s->t[i] == '\n' || s->t[i] == '\r'))
        i++;
    return i;
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

/* The string at t[i] == '"'; *end receives the index past its quote. */
static bool string_ok(jsyn *s, size_t i, size_t *end) {
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
        char e = s->t[i + 1];
        if (e && strchr("\"\\/bfnrt", e)) {
            i += 2;
            continue;
        }
        if (e != 'u') return fail(s, i, "bad escape sequence '\\%c' in a string", e);
        int u = s->len - i >= 6 ? hex4(s->t + i + 2) : -1;
        if (u < 0) return fail(s, i, "bad escape sequence in a string (\\u needs 4 hex digits)");
        if (u >= 0xDC00 && u <= 0xDFFF)
            return fail(s, i, "a lone low surrogate \\u%04X in a string", (unsigned)u);
        if (u >= 0xD800 && u <= 0xDBFF) {
            int lo = s->len - i >= 12 && s->t[i + 6] == '\\' && s->t[i + 7] == 'u'
                         ? hex4(s->t + i + 8)
                         : -1;
            if (lo < 0xDC00 || lo > 0xDFFF)
                return fail(s, i, "a high surrogate \\u%04X in a string without its low half",
                            (unsigned)u);
            i += 12;
            continue;
        }
        i += 6;
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
    size_t j = i;
    bool digit = false;
    while (j < s->len && t[j] && strchr("0123456789+-.eE", t[j])) {
        if (t[j] >= '0' && t[j] <= '9') digit = true;
        j++;
    }
    if (digit) {
        *end = j;
        return true;
    }
    return fail(s, i, "unexpected %s%s", what_at(s, i, buf, sizeof buf), after);
}

/* What came before a value or key, for "after ..." hints. */
static const char *after_word(char prev) {
    return prev == ',' ? " after ','" : prev == ':' ? " after ':'" : prev == '[' ? " after '['" : "";
}

static bool check(jsyn *s) {
    const char *t = s->t;
    size_t len = s->len, depth = 0, i = 0;
    unsigned char stack[BK_JSON_NESTING]; /* '{' or '[' per open bracket */
    char buf[32], prev = 0;
    if (len >= 3 && memcmp(t, "\xEF\xBB\xBF", 3) == 0) i = 3;
    for (;;) {
        /* a value */
        i = ws(s, i);
        if (i >= len) return fail(s, len, "unexpected end of input");
        if (t[i] == '{' || t[i] == '[') {
            if (depth >= BK_JSON_NESTING)
                return fail(s, i, "nesting is deeper than %d levels", BK_JSON_NESTING);
            char open = t[i];
            stack[depth++] = (unsigned char)open;
            i = ws(s, i + 1);
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
            size_t end;
            if (!scalar_ok(s, i, &end, after_word(prev))) return false;
            i = end;
        }
        /* after a value: closing brackets, then the next member or item */
        for (;;) {
            i = ws(s, i);
            if (depth == 0) {
                if (i < len) return fail(s, i, "more text after the top-level value");
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
            i = ws(s, i + 1);
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
        size_t end;
        if (!string_ok(s, i, &end)) return false;
        i = ws(s, end);
        if (i >= len) return fail(s, len, "unexpected end of input");
        if (t[i] != ':')
            return fail(s, i, "expected ':' after an object key, got %s",
                        what_at(s, i, buf, sizeof buf));
        i++;
        prev = ':';
    }
}

bool bk_json_syntax(const char *t, size_t len, size_t *off, char *msg, size_t cap) {
    jsyn s = {t, len, 0, msg, cap};
    if (check(&s)) return true;
    *off = s.off;
    return false;
}
