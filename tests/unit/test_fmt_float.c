/*
 * test_fmt_float.c - the shortest round-trip float text
 * (common/fmt_float.c): fixed cases, and random floats and doubles written
 * exactly as the formatter before its integer path for f32 wrote them
 * (ref_format below, kept as the oracle) and read back bit for bit;
 * integers in decimal.
 *
 * Bounded by default; the longer run (docs/PERFORMANCE.md):
 *   FMT_FLOAT_RANDOM=N   N random values of each kind (default 300000)
 *   FMT_FLOAT_ALL=1      also every f32 from 1e-5 to 1e15 (562 million, minutes)
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>

#include "test.h"
#include "common/fmt_float.h"

/* ---- the oracle: the double loop alone, as it was ---- */

static const double ref_p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static bool ref_midpoint(double q) {
    uint64_t b;
    memcpy(&b, &q, 8);
    return (b & 0x1fffffffu) == 0x10000000u;
}

static size_t ref_fixed(char *buf, bool neg, uint64_t r, int k, int m) {
    char dig[24];
    int n = snprintf(dig, sizeof dig, "%" PRIu64, r);
    if (k == 0) return (size_t)sprintf(buf, "%s%s%.*s.0", neg ? "-" : "", dig, m, "000000000000000");
    if (n <= k) return (size_t)sprintf(buf, "%s0.%.*s%s", neg ? "-" : "", k - n, "0000000000000000000000", dig);
    return (size_t)sprintf(buf, "%s%.*s.%s", neg ? "-" : "", n - k, dig, dig + n - k);
}

static size_t ref_general(char *buf, double v, bool f32) {
    bool normal = fabs(v) >= (f32 ? FLT_MIN : DBL_MIN);
    int n = 0;
    for (int prec = f32 ? (normal ? 6 : 1) : (normal ? 15 : 1); prec <= (f32 ? 9 : 17); prec++) {
        n = snprintf(buf, 32, "%.*g", prec, v);
        if (f32 ? strtof(buf, NULL) == (float)v : strtod(buf, NULL) == v) break;
    }
    char *e = strchr(buf, 'e');
    if (!strchr(buf, '.') && !strchr(buf, 'n')) {
        if (!e) return (size_t)n + (size_t)sprintf(buf + n, ".0");
        memmove(e + 2, e, strlen(e) + 1);
        memcpy(e, ".0", 2);
        n += 2;
    }
    return (size_t)n;
}

static size_t ref_format(char *buf, double v, bool f32) {
    bool neg = signbit(v);
    double a = fabs(v);
    if (a == 0) return (size_t)sprintf(buf, neg ? "-0.0" : "0.0");
    if (a >= 1e-5 && a < 1e15) {
        for (int k = 0; k < 23; k++) {
            double x = a * ref_p10[k];
            if (x >= 9007199254740992.0) break;
            uint64_t r = (uint64_t)x;
            if (x - (double)r >= 0.5) r++;
            double q = (double)r / ref_p10[k];
            if (!(f32 ? !ref_midpoint(q) && (float)q == (float)a : q == a)) continue;
            int m = 0;
            for (int z = 1; k == 0 && z < 16 && ref_p10[z] <= a; z++) {
                double y = a / ref_p10[z];
                uint64_t rz = (uint64_t)y;
                if (y - (double)rz >= 0.5) rz++;
                double qz = (double)rz * ref_p10[z];
                if (!(f32 ? (float)qz == (float)a : qz == a)) break;
                r = rz;
                m = z;
            }
            return ref_fixed(buf, neg, r, k, m);
        }
    }
    return ref_general(buf, v, f32);
}

/* ---- checks ---- */

static char mismatch[256];

/* Whether v is written as the oracle writes it, and reads back. */
static bool same(double v, bool f32) {
    char got[BLOBC_FLOAT_TEXT_MAX + 8], want[64];
    size_t n = blobc_format_float(got, v, f32);
    got[n] = '\0';
    ref_format(want, v, f32);
    double r = f32 ? (double)strtof(got, NULL) : strtod(got, NULL);
    bool back = r == (f32 ? (double)(float)v : v) && !signbit(r) == !signbit(v);
    if (strcmp(got, want) == 0 && back && n < BLOBC_FLOAT_TEXT_MAX) return true;
    snprintf(mismatch, sizeof mismatch, "%s %.17g: \"%s\", want \"%s\"%s", f32 ? "f32" : "f64", v, got,
             want, back ? "" : " (does not read back)");
    return false;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static float f32_of(uint32_t b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static long runs(void) {
    const char *s = getenv("FMT_FLOAT_RANDOM");
    return s && atol(s) > 0 ? atol(s) : 300000;
}

TEST(fixed_cases) {
    static const struct {
        double v;
        bool f32;
        const char *text;
    } cases[] = {
    {0.0, true, "0.0"},
    {-0.0, true, "-0.0"},
    {1.0, true, "1.0"},
    {0.1f, true, "0.1"},
    {-1498.28125f, true, "-1498.2813"},
    {16777216.0f, true, "16777216.0"},
    {16777218.0f, true, "16777218.0"},
    {30000001024.0f, true, "30000000000.0"},
    {3609067520.0f, true, "3609067500.0"},
    {2097152.25f, true, "2097152.3"},
    {1e-5f, true, "1.0e-05"},
    {9.99999e-6f, true, "9.99999e-06"},
    {1e15f, true, "1000000000000000.0"},
    {999999986991104.0f, true, "1000000000000000.0"},
    {FLT_MAX, true, "3.4028235e+38"},
    {-FLT_MAX, true, "-3.4028235e+38"},
    {FLT_MIN, true, "1.1754944e-38"},
    {1.4e-45f /* the least subnormal */, true, "1.0e-45"},
    {1.1754942e-38f, true, "1.1754942e-38"},
    {0.3f, true, "0.3"},
    {8388607.5f, true, "8388607.5"},
    {1e10f, true, "10000000000.0"},
    {123456789.0f, true, "123456790.0"},
    {0.00012345678f, true, "0.00012345678"},
    {5e-5f, true, "0.00005"},
    {4294967296.0f, true, "4294967300.0"},
    {0.1, false, "0.1"},
    {1e23, false, "1.0e+23"},
    {5e-324, false, "5.0e-324"},
    {DBL_MAX, false, "1.7976931348623157e+308"},
    {DBL_MIN, false, "2.2250738585072014e-308"},
    {9007199254740992.0, false, "9007199254740992.0"},
    {123456.789, false, "123456.789"},
    {1e-5, false, "0.00001"},
    {1.5e-7, false, "1.5e-07"},
    {1e15, false, "1.0e+15"},
    {1e20, false, "1.0e+20"},
    {2.0 / 3, false, "0.6666666666666666"},
    {-2.5, false, "-2.5"},
    {0.30000000000000004, false, "0.30000000000000004"},
    };
    char buf[BLOBC_FLOAT_TEXT_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        buf[blobc_format_float(buf, cases[i].v, cases[i].f32)] = '\0';
        CHECK_STR(buf, cases[i].text);
        if (!same(cases[i].v, cases[i].f32)) FAILF("%s", mismatch);
    }
}

/* Every f32 bit pattern is as likely: all magnitudes, subnormals too. */
TEST(random_f32_bits) {
    for (long i = 0; i < runs(); i++) {
        float f = f32_of((uint32_t)next());
        if (isfinite(f) && !same(f, true)) FAILF("%s", mismatch);
    }
}

/* The integer path's range, 1e-5 to 1e15, and values people author: a
 * few decimals, integers, halves and quarters. */
TEST(random_f32_authored) {
    for (long i = 0; i < runs(); i++) {
        uint64_t r = next();
        uint32_t b = (uint32_t)(110 + r % 67) << 23 | (uint32_t)(r >> 8 & 0x7fffff) | (uint32_t)(r >> 63) << 31;
        float decimal = (float)((double)((int64_t)(r >> 24) % 20000000 - 10000000) / ref_p10[r >> 40 & 7]);
        float binary = (float)ldexp((double)((int64_t)(r >> 32 & 0xffffff) - 0x800000), -(int)(r >> 56 & 31));
        if (!same(f32_of(b), true) || !same(decimal, true) || !same(binary, true)) FAILF("%s", mismatch);
    }
}

/* The neighbours of powers of two and ten, where the gaps change. */
TEST(f32_edges) {
    for (int e = -149; e < 128; e++) {
        float p = (float)ldexp(1.0, e);
        for (int d = -3; d <= 3; d++) {
            float f = p;
            for (int s = 0; s < (d < 0 ? -d : d); s++) f = nextafterf(f, d < 0 ? 0.0f : INFINITY);
            if (isfinite(f) && (!same(f, true) || !same(-f, true))) FAILF("%s", mismatch);
        }
    }
    for (int e = -45; e <= 38; e++) {
        float p = (float)pow(10.0, e);
        float f = nextafterf(p, 0.0f), g = nextafterf(p, INFINITY);
        if (!same(p, true) || !same(f, true) || (isfinite(g) && !same(g, true))) FAILF("%s", mismatch);
    }
}

TEST(random_f64) {
    for (long i = 0; i < runs(); i++) {
        uint64_t r = next();
        double d;
        memcpy(&d, &r, 8);
        double authored = (double)((int64_t)(r >> 16) % 2000000000 - 1000000000) / ref_p10[r >> 56 & 15];
        if ((isfinite(d) && !same(d, false)) || !same(authored, false)) FAILF("%s", mismatch);
    }
}

/* Integers in decimal: each digit count's first and last, and random. */
TEST(integers) {
    char got[24], want[24];
    for (int d = 0; d < 20; d++) {
        uint64_t p = 1;
        for (int i = 0; i < d; i++) p *= 10;
        uint64_t vs[] = {p, p - 1, p + 1, p * 5 - 1, next() % p + p / 10};
        for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) {
            got[blobc_format_u64(got, vs[i])] = '\0';
            snprintf(want, sizeof want, "%" PRIu64, vs[i]);
            CHECK_STR(got, want);
        }
    }
    for (long i = 0; i < runs(); i++) {
        uint64_t v = next() >> (next() & 63);
        got[blobc_format_u64(got, v)] = '\0';
        snprintf(want, sizeof want, "%" PRIu64, v);
        CHECK_STR(got, want);
    }
    got[blobc_format_u64(got, UINT64_MAX)] = '\0';
    CHECK_STR(got, "18446744073709551615");
}

/* The longer run only (FMT_FLOAT_ALL=1): every f32 of the integer
 * path's range. */
TEST(every_f32_in_range) {
    for (uint32_t b = 0x37000000u; b < 0x58800000u; b++)
        if (!same(f32_of(b), true)) FAILF("%s", mismatch);
}

TEST_MAIN_BEGIN("fmt_float")
RUN(fixed_cases);
RUN(random_f32_bits);
RUN(random_f32_authored);
RUN(f32_edges);
RUN(random_f64);
RUN(integers);
if (getenv("FMT_FLOAT_ALL") && strcmp(getenv("FMT_FLOAT_ALL"), "1") == 0) RUN(every_f32_in_range);
TEST_MAIN_END
