/*
 * fmt_float.c - shortest round-trip float text, fast for the values people
 * author.
 *
 * For magnitudes from 1e-5 to 1e15, the smallest number of fraction
 * digits k whose nearest decimal r / 10^k reads back to the same value is
 * found with a multiply, a divide and a compare per k: the check is exact
 * (one correctly rounded division is what strtod computes for r * 10^-k;
 * for f32 the double rounding through double is ruled out explicitly), and
 * fewer fraction digits means fewer significant digits, so the first k
 * that reads back is the shortest text. Only values that need more than
 * 2^53 in r (16-17 digit doubles) and very large or small magnitudes take
 * the classic loop of %.Ng and strtod, exact but far slower.
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

size_t blobc_format_u64(char *p, uint64_t v) {
    char tmp[24];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++) p[i] = tmp[n - 1 - i];
    return n;
}

/* r (an integer below 2^53) with k implied fraction digits, or with m
 * zeros appended (then k is 0). */
static size_t put_fixed(char *buf, bool neg, uint64_t r, int k, int m) {
    char dig[24];
    size_t n = blobc_format_u64(dig, r), o = 0;
    if (neg) buf[o++] = '-';
    if (k == 0) {
        memcpy(buf + o, dig, n);
        o += n;
        for (int z = 0; z < m; z++) buf[o++] = '0';
        memcpy(buf + o, ".0", 2);
        return o + 2;
    }
    if (n <= (size_t)k) {
        buf[o++] = '0';
        buf[o++] = '.';
        for (size_t z = n; z < (size_t)k; z++) buf[o++] = '0';
        memcpy(buf + o, dig, n);
        return o + n;
    }
    memcpy(buf + o, dig, n - (size_t)k);
    o += n - (size_t)k;
    buf[o++] = '.';
    memcpy(buf + o, dig + n - (size_t)k, (size_t)k);
    return o + (size_t)k;
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

size_t blobc_format_float(char *buf, double v, bool f32) {
    bool neg = signbit(v);
    double a = fabs(v);
    if (a == 0) {
        memcpy(buf, neg ? "-0.0" : "0.0", neg ? 5 : 4);
        return neg ? 4 : 3;
    }
    if (a >= 1e-5 && a < 1e15) {
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
