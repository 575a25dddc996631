/*
 * fmt_float.c - shortest round-trip float text, fast for the values people
 * author.
 *
 * For magnitudes from 1e-5 to 1e15, the smallest number of fraction
 * digits k whose nearest decimal r / 10^k (a tie rounded up) reads back
 * to the same value is the text: fewer fraction digits means fewer
 * significant digits, so the first k that reads back is the shortest.
 * An integer then drops low digits while it still reads back
 * ("3609067520" is "3609068000" as a float).
 *
 * An f32 is exactly M * 2^E (M below 2^24), so a * 10^k is M * 5^k / 2^S
 * with S = -E - k: while M * 5^k stays below 2^50, the candidate, its
 * distance to a and the test against half the gap to the neighbouring
 * floats are integer arithmetic, with no division (f32_fixed). A double
 * takes the same steps in floating point, one correctly rounded division
 * per k (what strtod computes for r * 10^-k). Only values that need more
 * than 2^53 in r (16-17 digit doubles) and very large or small
 * magnitudes take the classic loop of %.Ng and strtod, exact but far
 * slower.
 */
#include "common/fmt_float.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform.h"

static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                             1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                             1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Whether q (a double) lies exactly halfway between two floats, where
 * rounding it to float could differ from rounding the exact decimal. */
static bool f32_midpoint(double q) {
    uint64_t b;
    memcpy(&b, &q, 8);
    /* 52 - 23 = 29 mantissa bits below the float's precision */
    return (b & 0x1fffffffu) == 0x10000000u;
}

static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                     "25262728293031323334353637383940414243444546474849"
                                     "50515253545556575859606162636465666768697071727374"
                                     "75767778798081828384858687888990919293949596979899";

static const uint64_t p10_u64[20] = {1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u,
                                      100000000u, 1000000000u, 10000000000u, 100000000000u,
                                      1000000000000u, 10000000000000u, 100000000000000u,
                                      1000000000000000u, 10000000000000000u, 100000000000000000u,
                                      1000000000000000000u, 10000000000000000000u};

/* The number of decimal digits of v: from its bit length (log10(2) is
 * about 1233 / 4096), then one comparison, no loop to mispredict. */
static size_t decimal_len(uint64_t v) {
#if defined(__GNUC__) || defined(__clang__)
    unsigned t = (unsigned)(64 - __builtin_clzll(v | 1)) * 1233u >> 12;
    return v ? t + 1 - (v < p10_u64[t]) : 1;
#else
    size_t n = 1;
    while (n < 20 && v >= p10_u64[n]) n++;
    return n;
#endif
}

/* Two digits per step from the end: half the dependent multiplies. */
size_t blobc_format_u64(char *p, uint64_t v) {
    size_t n = decimal_len(v), i = n;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100) * 2;
        v /= 100;
        p[--i] = digit_pairs[d + 1];
        p[--i] = digit_pairs[d];
    }
    if (v >= 10) {
        p[--i] = digit_pairs[v * 2 + 1];
        p[--i] = digit_pairs[v * 2];
    } else {
        p[--i] = (char)('0' + v);
    }
    return n;
}

/* r (an integer below 2^53) with k implied fraction digits, or with m
 * zeros appended (then k is 0). */
/* The low `count` digits of *r, written backwards to end at p (two at a
 * time); *r keeps the rest. Returns where they start. */
static inline char *digits_back(char *p, uint64_t *r, size_t count) {
    uint64_t v = *r;
    if (v <= UINT32_MAX) {
        /* 32-bit arithmetic where it fits: most texts of an f32 */
        uint32_t u = (uint32_t)v;
        for (; count >= 2; count -= 2) {
            unsigned d = u % 100 * 2;
            u /= 100;
            *--p = digit_pairs[d + 1];
            *--p = digit_pairs[d];
        }
        if (count) {
            *--p = (char)('0' + u % 10);
            u /= 10;
        }
        *r = u;
        return p;
    }
    for (; count >= 2; count -= 2) {
        unsigned d = (unsigned)(v % 100) * 2;
        v /= 100;
        *--p = digit_pairs[d + 1];
        *--p = digit_pairs[d];
    }
    if (count) {
        *--p = (char)('0' + v % 10);
        v /= 10;
    }
    *r = v;
    return p;
}

static size_t put_fixed(char *buf, bool neg, uint64_t r, int k, int m) {
    size_t o = neg ? 1 : 0;
    buf[0] = '-';
    if (k == 0) {
        o += blobc_format_u64(buf + o, r);
        for (int z = 0; z < m; z++) buf[o++] = '0';
        memcpy(buf + o, ".0", 2);
        return o + 2;
    }
    /* from the end: k fraction digits (leading zeros included), the
     * point, then the integer part, "0" when there is none */
    size_t n = decimal_len(r), whole = n > (size_t)k ? n - (size_t)k : 1;
    char *end = buf + o + whole + 1 + k;
    char *p = digits_back(end, &r, (size_t)k);
    *--p = '.';
    digits_back(p, &r, whole);
    return (size_t)(end - buf);
}

/* The %.Ng loop: exact for any value. */
static size_t slow_path(char *buf, double v, bool f32) {
    bool normal = fabs(v) >= (f32 ? 1.17549435e-38 : 2.2250738585072014e-308);
    int lo = f32 ? (normal ? 6 : 1) : (normal ? 15 : 1), hi = f32 ? 9 : 17;
    int n = 0;
    for (int prec = lo; prec <= hi; prec++) {
        n = blobc_os_fmt_g(buf, BLOBC_FLOAT_TEXT_MAX, prec, v);
        if (f32 ? blobc_os_strtof(buf, NULL) == (float)v : blobc_os_strtod(buf, NULL) == v) break;
    }
    /* keep it a float literal: "3" -> "3.0", "1e+20" -> "1.0e+20" */
    if (!strpbrk(buf, ".en")) {
        memcpy(buf + n, ".0", 3);
        n += 2;
    } else if (!strchr(buf, '.') && strchr(buf, 'e')) {
        char *e = strchr(buf, 'e');
        memmove(e + 2, e, strlen(e) + 1);
        memcpy(e, ".0", 2);
        n += 2;
    }
    return (size_t)n;
}

/* The integer a = m * 2^e (an f32 below 1e15): how many low digits read
 * back as zeros, as the loop below over z does with (float) rounding,
 * which keeps a decimal exactly halfway when the mantissa m is even. */
static int f32_int_zeros(uint64_t a, uint32_t m, int e, bool low_gap, uint64_t *r) {
    int zeros = 0;
    uint64_t p = 10;
    *r = a;
    if (e <= 0) {
        /* gaps of at most 1: only the decimal's own zeros go */
        while (zeros < 15 && *r % 10 == 0) *r /= 10, zeros++;
        return zeros;
    }
    for (int z = 1; z < 16 && p <= a; z++, p *= 10) {
        uint64_t q = a / p, rem = a - q * p;
        bool up = rem >= p - rem; /* the tie rounds up */
        uint64_t dist = up ? p - rem : rem;
        /* |qz - a| against half the gap (a quarter below a power of two) */
        uint64_t scaled = dist * (!up && low_gap ? 4 : 2);
        bool ok = e <= 0 ? dist == 0
                         : (m & 1) ? scaled < ((uint64_t)1 << e) : scaled <= ((uint64_t)1 << e);
        if (!ok) break;
        *r = q + up;
        zeros = z;
    }
    return zeros;
}

/* An f32 from 1e-5 to 1e15 in fixed notation, exactly as the double loop
 * in blobc_format_float writes it; 0 when the integers would not be exact
 * (M * 5^k at 2^50 or more), and that loop decides. For a fraction the
 * test is strict: the double loop rejects a quotient exactly halfway
 * between two floats (f32_midpoint), and while M * 5^k is below 2^50 no
 * r / 10^k lies within half a double's step of a midpoint it is not on,
 * so the correctly rounded quotient is on one exactly when r / 10^k is. */
static size_t f32_fixed(char *buf, bool neg, float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    uint32_t m = (b & 0x7fffffu) | 0x800000u;
    int e = (int)((b >> 23) & 0xff) - 150;
    bool low_gap = (b & 0x7fffffu) == 0 && (b >> 23 & 0xff) > 1;
    if (e >= 0 || (e > -24 && (m & ((1u << -e) - 1)) == 0)) {
        uint64_t a = e >= 0 ? (uint64_t)m << e : m >> -e, r;
        int zeros = f32_int_zeros(a, m, e, low_gap, &r);
        return put_fixed(buf, neg, r, 0, zeros);
    }
    /* 10^-k below the gap 2^e: the open interval holds a multiple of it,
     * so k reads back; and when k - 1 does, k does (a multiple of
     * 10^-(k-1) is one of 10^-k, and with equal half gaps the nearest is
     * inside when any is). So the search goes down from there, usually
     * a step or two; below a power of two the gaps differ, and it goes
     * up from 1 as the double loop does. */
    int top = (-e * 78913 >> 18) + 1; /* floor(-e log10(2)) + 1: 10^top > 2^-e */
    int k = low_gap ? 1 : top, found = 0;
    uint64_t r = 0;
    for (;;) {
        uint64_t p5 = p10_u64[k] >> k, n = m * p5; /* 5^k = 10^k / 2^k */
        if (n >= ((uint64_t)1 << 50)) return 0;
        int s = -e - k;
        uint64_t half = s ? (uint64_t)1 << (s - 1) : 0, rem = s ? n & ((half << 1) - 1) : 0;
        bool up = s && rem >= half;
        uint64_t dist = up ? (half << 1) - rem : rem;
        bool ok = dist * (!up && low_gap ? 4 : 2) < p5;
        if (low_gap) {
            if (ok) return put_fixed(buf, neg, (n >> s) + up, k, 0);
            if (++k > -e) return 0;
            continue;
        }
        if (!ok) break;
        found = k;
        r = (n >> s) + up;
        if (--k == 0) break;
    }
    return found ? put_fixed(buf, neg, r, found, 0) : 0;
}

size_t blobc_format_float(char *buf, double v, bool f32) {
    bool neg = signbit(v);
    double a = fabs(v);
    if (a == 0) {
        memcpy(buf, neg ? "-0.0" : "0.0", neg ? 5 : 4);
        return neg ? 4 : 3;
    }
    if (a >= 1e-5 && a < 1e15) {
        size_t n = f32 && (double)(float)a == a ? f32_fixed(buf, neg, (float)a) : 0;
        if (n) return n;
        float af = (float)a;
        for (int k = 0; k < 23; k++) {
            double x = a * p10[k];
            if (x >= 9007199254740992.0) break;
            /* the nearest integer, without libm's rounding-mode dance */
            uint64_t r = (uint64_t)x;
            if (x - (double)r >= 0.5) r++;
            double q = (double)r / p10[k];
            if (!(f32 ? !f32_midpoint(q) && (float)q == af : q == a)) continue;
            int m = 0;
            /* an integer: drop low digits while it still reads back
             * ("3609067520" is "3609068000" as a float) */
            for (int z = 1; k == 0 && z < 16 && p10[z] <= a; z++) {
                double y = a / p10[z];
                uint64_t rz = (uint64_t)y;
                if (y - (double)rz >= 0.5) rz++;
                double qz = (double)rz * p10[z]; /* exact: below 2^53 */
                if (!(f32 ? (float)qz == af : qz == a)) break;
                r = rz;
                m = z;
            }
            return put_fixed(buf, neg, r, k, m);
        }
    }
    return slow_path(buf, v, f32);
}
