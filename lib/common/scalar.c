/*
 * scalar.c - the one place that turns literal text into typed scalar
 * values, for schema defaults, enum values, YAML and JSON alike, so every
 * front end accepts exactly the same numbers (SPEC §5, docs/SCHEMA.md
 * "Literals"). Integers are accumulated digit by digit with exact overflow
 * checks (no strtoll); floats are validated against the grammar first and
 * then converted by strtof/strtod so that f32 values are rounded once,
 * directly from the decimal text.
 */
#include "common/scalar.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/compiler.h"
#include "common/endian.h"
#include "common/quote.h"
#include "platform/platform.h"

static void fail_msg(char *msg, size_t cap, const char *s, size_t n, const char *fmt_before,
                     const char *what, const char *after) {
    if (!msg || !cap) return;
    char q[BLOBC_QUOTE_BUF];
    blobc_quote(q, sizeof q, s, n);
    snprintf(msg, cap, "%s%s, got %s%s", fmt_before, what, q, after ? after : "");
}

const char *blobc_int_range_text(blobc_kind kind) {
    switch (kind) {
    case BLOBC_KIND_I8: return "-128..127";
    case BLOBC_KIND_U8: return "0..255";
    case BLOBC_KIND_I16: return "-32768..32767";
    case BLOBC_KIND_U16: return "0..65535";
    case BLOBC_KIND_I32: return "-2147483648..2147483647";
    case BLOBC_KIND_U32: return "0..4294967295";
    case BLOBC_KIND_I64: return "-9223372036854775808..9223372036854775807";
    case BLOBC_KIND_U64: return "0..18446744073709551615";
    default: return "";
    }
}

/* Largest magnitude of a kind: max for positive values, and for signed
 * kinds the magnitude of the minimum is one more. */
uint64_t blobc_int_max(blobc_kind kind) {
    switch (kind) {
    case BLOBC_KIND_I8: return 0x7f;
    case BLOBC_KIND_U8: return 0xff;
    case BLOBC_KIND_I16: return 0x7fff;
    case BLOBC_KIND_U16: return 0xffff;
    case BLOBC_KIND_I32: return 0x7fffffff;
    case BLOBC_KIND_U32: return 0xffffffffu;
    case BLOBC_KIND_I64: return 0x7fffffffffffffffull;
    case BLOBC_KIND_U64: return 0xffffffffffffffffull;
    default: return 0;
    }
}

static int digit_value(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return 99;
}

/* Accumulates the digits s[i..n) in `base`, allowing a single '_' between
 * two digits when `underscores`. Sets *overflow when the value passes
 * 2^64 - 1 (the text is still checked to the end so that "1x" is a syntax
 * error, not a range error). */
static bool accumulate(const char *s, size_t i, size_t n, unsigned base, bool underscores,
                       uint64_t *out, bool *overflow) {
    uint64_t v = 0;
    bool ovf = false;
    bool prev_digit = false;
    if (i >= n) return false;
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '_' && underscores) {
            if (!prev_digit || i + 1 >= n) return false;
            prev_digit = false;
            continue;
        }
        int d = digit_value(c);
        if ((unsigned)d >= base) return false;
        if (v > (UINT64_MAX - (uint64_t)d) / base) ovf = true;
        else v = v * base + (uint64_t)d;
        prev_digit = true;
    }
    if (!prev_digit) return false;
    *out = v;
    *overflow = ovf;
    return true;
}

bool blobc_parse_int(const char *s, size_t n, blobc_kind kind, blobc_syntax syn, uint64_t *bits,
                     char *msg, size_t cap) {
    uint64_t max = blobc_int_max(kind);
    if (max == 0) {
        if (msg && cap) snprintf(msg, cap, "internal error: %s is not an integer type",
                                 blobc_kind_name(kind));
        return false;
    }
    bool neg = false;
    uint64_t mag = 0;
    bool overflow = false;
    size_t i = 0;

    /* Fast path: plain decimal without sign, underscores or leading zero,
     * at most 19 digits (cannot overflow 64 bits). This is what nearly all
     * baked data looks like. */
    if (n > 0 && n <= 19 && s[0] >= '1' && s[0] <= '9') {
        uint64_t v = 0;
        size_t k = 0;
        for (; k < n; k++) {
            unsigned d = (unsigned)(unsigned char)s[k] - '0';
            if (d > 9) break;
            v = v * 10 + d;
        }
        if (BLOBC_LIKELY(k == n)) {
            if (v > max) goto range;
            *bits = v;
            return true;
        }
    }

    if (i < n && (s[i] == '-' || (s[i] == '+' && syn != BLOBC_SYNTAX_JSON))) {
        neg = s[i] == '-';
        i++;
    }
    if (i >= n) goto syntax;
    if (syn == BLOBC_SYNTAX_JSON) {
        /* -?(0|[1-9][0-9]*) */
        if (s[i] == '0' && i + 1 != n) goto syntax;
        if (!accumulate(s, i, n, 10, false, &mag, &overflow)) goto syntax;
    } else {
        unsigned base = 10;
        if (s[i] == '0' && i + 1 < n) {
            char p = s[i + 1];
            if (p == 'x') base = 16;
            else if (p == 'o') base = 8;
            else if (p == 'b') base = 2;
            else goto syntax; /* "012": octal in YAML 1.1, decimal in 1.2; refuse to guess */
            i += 2;
        }
        if (!accumulate(s, i, n, base, true, &mag, &overflow)) goto syntax;
    }
    if (overflow) goto range;
    if (neg) {
        if (mag == 0) {
            *bits = 0;
            return true;
        }
        if (!blobc_kind_is_signed(kind) || mag > max + 1) goto range;
        *bits = (uint64_t)0 - mag;
        return true;
    }
    if (mag > max) goto range;
    *bits = mag;
    return true;

syntax:
range: {
    char what[96];
    snprintf(what, sizeof what, "an integer in %s range %s", blobc_kind_name(kind),
             blobc_int_range_text(kind));
    fail_msg(msg, cap, s, n, "expected ", what, NULL);
    return false;
}
}

/* ---- floats ---- */

static bool eq_any(const char *s, size_t n, const char *a, const char *b, const char *c) {
    size_t la = strlen(a);
    if (n != la) return false;
    return memcmp(s, a, n) == 0 || memcmp(s, b, n) == 0 || memcmp(s, c, n) == 0;
}

/* What the grammar check learned about a decimal float literal. */
typedef struct float_scan {
    uint64_t mant;      /* all digits as one integer, while it fits */
    int exp10;          /* value = mant * 10^exp10 when !inexact */
    bool inexact;       /* too many digits or exponent too long to say */
    bool neg;
} float_scan;

/* Digits with single '_' between digits (YAML) or plain digits (JSON),
 * accumulated into fs->mant. Returns the bytes consumed (0 when no digit
 * is there) and sets *ndigits and *first (the first digit). */
static size_t scan_digits(const char *s, size_t i, size_t n, bool underscores, size_t *ndigits,
                          char *first, float_scan *fs, int *frac) {
    size_t start = i, nd = 0;
    while (i < n) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            if (nd == 0) *first = c;
            nd++;
            i++;
            if (fs) {
                if (fs->mant <= (UINT64_MAX - 9) / 10) fs->mant = fs->mant * 10 + (uint64_t)(c - '0');
                else fs->inexact = true;
                if (frac) (*frac)++;
            }
        } else if (c == '_' && underscores && nd > 0 && i + 1 < n && s[i + 1] >= '0' &&
                   s[i + 1] <= '9' && s[i - 1] != '_') {
            i++;
        } else {
            break;
        }
    }
    *ndigits = nd;
    return nd ? i - start : 0;
}

/* Checks s against [+-]? (digits (. digits?)? | . digits) ([eE] [+-]? digits)?
 * (JSON: -? digits (. digits)? ([eE] [+-]? digits)?), with no leading zero
 * in a multi-digit integer part; fills fs for the fast conversion. */
static bool float_syntax_ok(const char *s, size_t n, blobc_syntax syn, float_scan *fs) {
    bool json = syn == BLOBC_SYNTAX_JSON;
    bool us = !json;
    size_t i = 0, nd = 0, fd = 0;
    char first = 0;
    int frac = 0;
    memset(fs, 0, sizeof *fs);
    if (i < n && (s[i] == '-' || (s[i] == '+' && !json))) {
        fs->neg = s[i] == '-';
        i++;
    }
    size_t used = scan_digits(s, i, n, us, &nd, &first, fs, NULL);
    if (nd > 1 && first == '0') return false;
    i += used;
    if (i < n && s[i] == '.') {
        i++;
        char f0;
        i += scan_digits(s, i, n, us, &fd, &f0, fs, &frac);
        if (json && fd == 0) return false;
    }
    if (nd == 0 && (fd == 0 || json)) return false;
    int e = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < n && (s[i] == '+' || s[i] == '-')) eneg = s[i++] == '-';
        size_t ed;
        char e0;
        float_scan es = {0, 0, false, false};
        size_t u = scan_digits(s, i, n, us, &ed, &e0, &es, NULL);
        if (ed == 0) return false;
        i += u;
        if (es.inexact || es.mant > 100000) fs->inexact = true;
        else e = eneg ? -(int)es.mant : (int)es.mant;
    }
    fs->exp10 = e - frac;
    return i == n;
}

/* Clinger's fast path: when the digits and the power of ten are both exact
 * in the target type, one IEEE multiplication or division is the correctly
 * rounded result. Only valid when arithmetic happens in the target type's
 * own precision (FLT_EVAL_METHOD 0: x86-64 SSE, AArch64). */
static bool fast_float(const float_scan *fs, blobc_kind kind, double *out) {
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    static const double p10d[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    static const float p10f[] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
    if (fs->inexact) return false;
    int e = fs->exp10;
    if (kind == BLOBC_KIND_F32) {
        if (fs->mant > (1u << 24) || e < -10 || e > 10) return false;
        float m = (float)fs->mant;
        float v = e >= 0 ? m * p10f[e] : m / p10f[-e];
        *out = fs->neg ? -(double)v : (double)v;
        return true;
    }
    if (fs->mant > ((uint64_t)1 << 53) || e < -22 || e > 22) return false;
    double m = (double)fs->mant;
    double v = e >= 0 ? m * p10d[e] : m / p10d[-e];
    *out = fs->neg ? -v : v;
    return true;
#else
    (void)fs;
    (void)kind;
    (void)out;
    return false;
#endif
}

static double canonical_nan(void) {
    uint64_t b = BLOBC_F64_NAN_BITS;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

bool blobc_parse_float(const char *s, size_t n, blobc_kind kind, blobc_syntax syn, double *out,
                       char *msg, size_t cap) {
    const char *kname = kind == BLOBC_KIND_F32 ? "f32" : "f64";
    if (kind != BLOBC_KIND_F32 && kind != BLOBC_KIND_F64) {
        if (msg && cap) snprintf(msg, cap, "internal error: %s is not a float type",
                                 blobc_kind_name(kind));
        return false;
    }
    if (syn != BLOBC_SYNTAX_JSON && n >= 4) {
        size_t i = 0;
        bool neg = false;
        if (s[0] == '+' || s[0] == '-') {
            neg = s[0] == '-';
            i = 1;
        }
        if (eq_any(s + i, n - i, ".inf", ".Inf", ".INF")) {
            *out = neg ? -HUGE_VAL : HUGE_VAL;
            return true;
        }
        if (i == 0 && eq_any(s, n, ".nan", ".NaN", ".NAN")) {
            *out = canonical_nan();
            return true;
        }
    }
    float_scan fs;
    if (n == 0 || !float_syntax_ok(s, n, syn, &fs)) {
        fail_msg(msg, cap, s, n, "expected ", kname, NULL);
        return false;
    }
    if (fast_float(&fs, kind, out)) return true;

    /* strtod needs a NUL-terminated copy; underscores are dropped on the way. */
    char small[128];
    char *buf = small;
    if (n >= sizeof small) {
        buf = malloc(n + 1);
        if (!buf) {
            if (msg && cap) snprintf(msg, cap, "out of memory");
            return false;
        }
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] != '_') buf[k++] = s[i];
    buf[k] = '\0';

    char *end = NULL;
    double v;
    if (kind == BLOBC_KIND_F32) {
        float f = blobc_os_strtof(buf, &end);
        v = (double)f;
    } else {
        v = blobc_os_strtod(buf, &end);
    }
    bool consumed = end == buf + k;
    if (buf != small) free(buf);
    if (!consumed) {
        fail_msg(msg, cap, s, n, "expected ", kname, NULL);
        return false;
    }
    /* Underflow to a denormal or zero is ordinary rounding; only a finite
     * literal that became infinite is refused. */
    if (isinf(v)) {
        char after[32];
        snprintf(after, sizeof after, " (out of %s range)", kname);
        fail_msg(msg, cap, s, n, "expected ", kname, after);
        return false;
    }
    *out = v;
    return true;
}

bool blobc_parse_bool(const char *s, size_t n, bool *out, char *msg, size_t cap) {
    if (n == 4 && memcmp(s, "true", 4) == 0) {
        *out = true;
        return true;
    }
    if (n == 5 && memcmp(s, "false", 5) == 0) {
        *out = false;
        return true;
    }
    fail_msg(msg, cap, s, n, "expected ", "true or false", NULL);
    return false;
}

void blobc_store_scalar(void *p, blobc_kind kind, uint64_t bits, double f) {
    switch (kind) {
    case BLOBC_KIND_BOOL:
    case BLOBC_KIND_I8:
    case BLOBC_KIND_U8: *(uint8_t *)p = (uint8_t)bits; break;
    case BLOBC_KIND_I16:
    case BLOBC_KIND_U16: blobc_st16(p, (uint16_t)bits); break;
    case BLOBC_KIND_I32:
    case BLOBC_KIND_U32: blobc_st32(p, (uint32_t)bits); break;
    case BLOBC_KIND_I64:
    case BLOBC_KIND_U64: blobc_st64(p, bits); break;
    case BLOBC_KIND_F32: {
        uint32_t b;
        if (isnan(f)) {
            b = BLOBC_F32_NAN_BITS;
        } else {
            float v = (float)f;
            memcpy(&b, &v, sizeof b);
        }
        blobc_st32(p, b);
        break;
    }
    case BLOBC_KIND_F64: {
        uint64_t b;
        if (isnan(f)) b = BLOBC_F64_NAN_BITS;
        else memcpy(&b, &f, sizeof b);
        blobc_st64(p, b);
        break;
    }
    default: break;
    }
}

uint64_t blobc_load_int(const void *p, blobc_kind kind) {
    const uint8_t *b = (const uint8_t *)p;
    switch (kind) {
    case BLOBC_KIND_I8: return (uint64_t)(int64_t)(int8_t)b[0];
    case BLOBC_KIND_U8: return b[0];
    case BLOBC_KIND_I16: return (uint64_t)(int64_t)(int16_t)blobc_ld16(b);
    case BLOBC_KIND_U16: return blobc_ld16(b);
    case BLOBC_KIND_I32: return (uint64_t)(int64_t)(int32_t)blobc_ld32(b);
    case BLOBC_KIND_U32: return blobc_ld32(b);
    default: return blobc_ld64(b);
    }
}

int blobc_key_cmp(blobc_kind kind, uint64_t a, const char *as, size_t an, uint64_t b,
                  const char *bs, size_t bn) {
    if (kind == BLOBC_KIND_STRING) {
        size_t m = an < bn ? an : bn;
        int c = m ? memcmp(as, bs, m) : 0;
        if (c) return c;
        return (an > bn) - (an < bn);
    }
    if (blobc_kind_is_signed(kind)) return ((int64_t)a > (int64_t)b) - ((int64_t)a < (int64_t)b);
    return (a > b) - (a < b);
}
