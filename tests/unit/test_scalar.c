/*
 * test_scalar.c - literal parsing shared by schema defaults, YAML and JSON:
 * exact integer ranges for every kind, bases and separators, float
 * rounding and overflow, the YAML special values, messages, and storing.
 */
#include <float.h>
#include <math.h>

#include "common/scalar.h"
#include "test.h"

static char msg[256];

static int pint(const char *s, blobc_kind k, blobc_syntax syn, uint64_t *bits) {
    msg[0] = '\0';
    return blobc_parse_int(s, strlen(s), k, syn, bits, msg, sizeof msg);
}

static int pflt(const char *s, blobc_kind k, blobc_syntax syn, double *out) {
    msg[0] = '\0';
    return blobc_parse_float(s, strlen(s), k, syn, out, msg, sizeof msg);
}

static uint64_t f64_bits(double d) {
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}
static uint32_t f32_bits(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* Each kind's extremes are accepted with the right bits; one past them is
 * refused, in both YAML and JSON syntax. */
TEST(int_ranges_every_kind) {
    static const struct {
        blobc_kind k;
        const char *min, *max, *below, *above;
        uint64_t minbits, maxbits;
    } cases[] = {
        {BLOBC_KIND_I8, "-128", "127", "-129", "128", 0xffffffffffffff80ull, 127},
        {BLOBC_KIND_U8, "0", "255", "-1", "256", 0, 255},
        {BLOBC_KIND_I16, "-32768", "32767", "-32769", "32768", 0xffffffffffff8000ull, 32767},
        {BLOBC_KIND_U16, "0", "65535", "-1", "65536", 0, 65535},
        {BLOBC_KIND_I32, "-2147483648", "2147483647", "-2147483649", "2147483648",
         0xffffffff80000000ull, 2147483647},
        {BLOBC_KIND_U32, "0", "4294967295", "-1", "4294967296", 0, 4294967295u},
        {BLOBC_KIND_I64, "-9223372036854775808", "9223372036854775807", "-9223372036854775809",
         "9223372036854775808", 0x8000000000000000ull, 0x7fffffffffffffffull},
        {BLOBC_KIND_U64, "0", "18446744073709551615", "-1", "18446744073709551616", 0,
         0xffffffffffffffffull},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int syn = BLOBC_SYNTAX_YAML; syn <= BLOBC_SYNTAX_JSON; syn++) {
            uint64_t b = 12345;
            CHECK(pint(cases[i].min, cases[i].k, (blobc_syntax)syn, &b));
            CHECK_EQ_U(b, cases[i].minbits);
            CHECK(pint(cases[i].max, cases[i].k, (blobc_syntax)syn, &b));
            CHECK_EQ_U(b, cases[i].maxbits);
            CHECK(!pint(cases[i].below, cases[i].k, (blobc_syntax)syn, &b));
            CHECK_CONTAINS(msg, blobc_int_range_text(cases[i].k));
            CHECK(!pint(cases[i].above, cases[i].k, (blobc_syntax)syn, &b));
            CHECK_CONTAINS(msg, cases[i].above);
        }
    }
}

TEST(int_messages_quote_the_text) {
    uint64_t b;
    CHECK(!pint("300", BLOBC_KIND_U8, BLOBC_SYNTAX_YAML, &b));
    CHECK_STR(msg, "expected an integer in u8 range 0..255, got \"300\"");
    CHECK(!pint("-1", BLOBC_KIND_U32, BLOBC_SYNTAX_JSON, &b));
    CHECK_STR(msg, "expected an integer in u32 range 0..4294967295, got \"-1\"");
    CHECK(!pint("1.5", BLOBC_KIND_I32, BLOBC_SYNTAX_YAML, &b));
    CHECK_STR(msg, "expected an integer in i32 range -2147483648..2147483647, got \"1.5\"");
    CHECK(!pint("a\"b\n", BLOBC_KIND_I8, BLOBC_SYNTAX_YAML, &b));
    CHECK_STR(msg, "expected an integer in i8 range -128..127, got \"a\\\"b\\n\"");
    /* Long text is cut at 40 bytes. */
    CHECK(!pint("123456789012345678901234567890123456789012345678901234567890", BLOBC_KIND_U64,
                BLOBC_SYNTAX_YAML, &b));
    CHECK_STR(msg, "expected an integer in u64 range 0..18446744073709551615, got "
                   "\"1234567890123456789012345678901234567890\"...");
    CHECK(!pint("", BLOBC_KIND_U8, BLOBC_SYNTAX_YAML, &b));
    CHECK_STR(msg, "expected an integer in u8 range 0..255, got \"\"");
    /* A message buffer of any size is safe. */
    char tiny[5];
    CHECK(!blobc_parse_int("300", 3, BLOBC_KIND_U8, BLOBC_SYNTAX_YAML, &b, tiny, sizeof tiny));
    CHECK_STR(tiny, "expe");
    CHECK(!blobc_parse_int("300", 3, BLOBC_KIND_U8, BLOBC_SYNTAX_YAML, &b, NULL, 0));
}

TEST(int_huge_values_do_not_wrap) {
    uint64_t b;
    CHECK(!pint("99999999999999999999999999", BLOBC_KIND_U64, BLOBC_SYNTAX_YAML, &b));
    CHECK(!pint("-99999999999999999999999999", BLOBC_KIND_I64, BLOBC_SYNTAX_YAML, &b));
    CHECK(!pint("36893488147419103232", BLOBC_KIND_U64, BLOBC_SYNTAX_JSON, &b)); /* 2^65 */
    CHECK(!pint("0x10000000000000000", BLOBC_KIND_U64, BLOBC_SYNTAX_YAML, &b));
    CHECK(pint("0xffffffffffffffff", BLOBC_KIND_U64, BLOBC_SYNTAX_YAML, &b));
    CHECK_EQ_U(b, UINT64_MAX);
    CHECK(!pint("0xffffffffffffffff", BLOBC_KIND_I64, BLOBC_SYNTAX_YAML, &b));
    CHECK(pint("-0x8000000000000000", BLOBC_KIND_I64, BLOBC_SYNTAX_YAML, &b));
    CHECK_EQ_U(b, 0x8000000000000000ull);
    /* 19 digits take the fast path, 20 the careful one. */
    CHECK(pint("9999999999999999999", BLOBC_KIND_U64, BLOBC_SYNTAX_YAML, &b));
    CHECK_EQ_U(b, 9999999999999999999ull);
    CHECK(!pint("9999999999999999999", BLOBC_KIND_I64, BLOBC_SYNTAX_YAML, &b));
    CHECK(pint("10000000000000000000", BLOBC_KIND_U64, BLOBC_SYNTAX_YAML, &b));
    CHECK_EQ_U(b, 10000000000000000000ull);
}

TEST(int_signs_and_zero) {
    uint64_t b = 7;
    CHECK(pint("-0", BLOBC_KIND_U8, BLOBC_SYNTAX_YAML, &b));
    CHECK_EQ_U(b, 0);
    CHECK(pint("-0", BLOBC_KIND_U64, BLOBC_SYNTAX_JSON, &b));
    CHECK_EQ_U(b, 0);
    CHECK(pint("+0", BLOBC_KIND_I8, BLOBC_SYNTAX_YAML, &b));
    CHECK_EQ_U(b, 0);
    CHECK(pint("+12", BLOBC_KIND_U8, BLOBC_SYNTAX_SCHEMA, &b));
    CHECK_EQ_U(b, 12);
    CHECK(!pint("+12", BLOBC_KIND_U8, BLOBC_SYNTAX_JSON, &b));
    CHECK(!pint("-", BLOBC_KIND_I8, BLOBC_SYNTAX_YAML, &b));
    CHECK(!pint("+", BLOBC_KIND_I8, BLOBC_SYNTAX_YAML, &b));
    CHECK(!pint("--1", BLOBC_KIND_I8, BLOBC_SYNTAX_YAML, &b));
    CHECK(!pint("-1", BLOBC_KIND_U8, BLOBC_SYNTAX_YAML, &b));
    CHECK(pint("-5", BLOBC_KIND_I16, BLOBC_SYNTAX_YAML, &b));
    CHECK_EQ_U(b, (uint64_t)-5);
}

TEST(int_bases) {
    uint64_t b;
    CHECK(pint("0x7f", BLOBC_KIND_I8, BLOBC_SYNTAX_YAML, &b));
    CHECK_EQ_U(b, 127);
    CHECK(pint("0xFf", BLOBC_KIND_U8, BLOBC_SYNTAX_YAML, &b));
    CHECK_EQ_U(b, 255);
    CHECK(!pint("0x80", BLOBC_KIND_I8, BLOBC_SYNTAX_YAML, &b));
    CHECK(pint("-0x80", BLOBC_KIND_I8, BLOBC_SYNTAX_YAML, &b));
    CHECK_EQ_U(b, (uint64_t)-128);
    CHECK(pint("0o17", BLOBC_KIND_U8, BLOBC_SYNTAX_SCHEMA, &b));
    CHECK_EQ_U(b, 15);
    CHECK(pint("0b101", BLOBC_KIND_U8, BLOBC_SYNTAX_YAML, &b));
    CHECK_EQ_U(b, 5);
    CHECK(pint("0b11111111", BLOBC_KIND_U8, BLOBC_SYNTAX_YAML, &b));
    CHECK_EQ_U(b, 255);
    CHECK(!pint("0b100000000", BLOBC_KIND_U8, BLOBC_SYNTAX_YAML, &b));
    const char *bad[] = {"0x", "0o", "0b", "0b2", "0o8", "0xg", "0X10", "0O7", "0B1",
                         "012", "00", "0_1", "0x-1", "1x", "12a", " 1", "1 ", "1e3",
                         "1.0", "0.", "\xff", "１"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (pint(bad[i], BLOBC_KIND_U32, BLOBC_SYNTAX_YAML, &b)) FAILF("accepted \"%s\"", bad[i]);
    }
    /* JSON is decimal only. */
    CHECK(!pint("0x10", BLOBC_KIND_U32, BLOBC_SYNTAX_JSON, &b));
    CHECK(!pint("0b1", BLOBC_KIND_U32, BLOBC_SYNTAX_JSON, &b));
    CHECK(!pint("012", BLOBC_KIND_U32, BLOBC_SYNTAX_JSON, &b));
    CHECK(pint("0", BLOBC_KIND_U32, BLOBC_SYNTAX_JSON, &b));
    CHECK_EQ_U(b, 0);
}

TEST(int_underscores) {
    uint64_t b;
    CHECK(pint("1_000_000", BLOBC_KIND_U32, BLOBC_SYNTAX_YAML, &b));
    CHECK_EQ_U(b, 1000000);
    CHECK(pint("0xff_ff", BLOBC_KIND_U16, BLOBC_SYNTAX_SCHEMA, &b));
    CHECK_EQ_U(b, 0xffff);
    CHECK(pint("0b1010_1010", BLOBC_KIND_U8, BLOBC_SYNTAX_YAML, &b));
    CHECK_EQ_U(b, 0xaa);
    CHECK(pint("-1_2_8", BLOBC_KIND_I8, BLOBC_SYNTAX_YAML, &b));
    CHECK_EQ_U(b, (uint64_t)-128);
    const char *bad[] = {"_1", "1_", "1__0", "0x_ff", "-_1", "_", "0_x1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (pint(bad[i], BLOBC_KIND_U32, BLOBC_SYNTAX_YAML, &b)) FAILF("accepted \"%s\"", bad[i]);
    }
    CHECK(!pint("1_000", BLOBC_KIND_U32, BLOBC_SYNTAX_JSON, &b));
}

TEST(int_length_is_respected) {
    uint64_t b;
    msg[0] = '\0';
    CHECK(blobc_parse_int("123456", 3, BLOBC_KIND_U32, BLOBC_SYNTAX_YAML, &b, msg, sizeof msg));
    CHECK_EQ_U(b, 123);
    CHECK(blobc_parse_int("-7xyz", 2, BLOBC_KIND_I32, BLOBC_SYNTAX_JSON, &b, msg, sizeof msg));
    CHECK_EQ_U(b, (uint64_t)-7);
    CHECK(!blobc_parse_int("1\0" "2", 3, BLOBC_KIND_U32, BLOBC_SYNTAX_YAML, &b, msg, sizeof msg));
    CHECK_STR(msg, "expected an integer in u32 range 0..4294967295, got \"1\\x002\"");
}

TEST(int_rejects_non_integer_kinds) {
    uint64_t b;
    CHECK(!pint("1", BLOBC_KIND_F32, BLOBC_SYNTAX_YAML, &b));
    CHECK(!pint("1", BLOBC_KIND_BOOL, BLOBC_SYNTAX_YAML, &b));
    CHECK(!pint("1", BLOBC_KIND_STRUCT, BLOBC_SYNTAX_YAML, &b));
}

TEST(range_texts) {
    CHECK_STR(blobc_int_range_text(BLOBC_KIND_I8), "-128..127");
    CHECK_STR(blobc_int_range_text(BLOBC_KIND_U16), "0..65535");
    CHECK_STR(blobc_int_range_text(BLOBC_KIND_I64), "-9223372036854775808..9223372036854775807");
    CHECK_STR(blobc_int_range_text(BLOBC_KIND_U64), "0..18446744073709551615");
}

/* ---- floats ---- */

TEST(float_plain_values) {
    double d;
    CHECK(pflt("1.5", BLOBC_KIND_F64, BLOBC_SYNTAX_JSON, &d));
    CHECK(d == 1.5);
    CHECK(pflt("3", BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d));
    CHECK(d == 3.0);
    CHECK(pflt("-2.5e-3", BLOBC_KIND_F64, BLOBC_SYNTAX_JSON, &d));
    CHECK(d == -2.5e-3);
    CHECK(pflt("1E+5", BLOBC_KIND_F64, BLOBC_SYNTAX_JSON, &d));
    CHECK(d == 1e5);
    CHECK(pflt("+1.5", BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d));
    CHECK(d == 1.5);
    CHECK(pflt("1.", BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d));
    CHECK(d == 1.0);
    CHECK(pflt(".5", BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d));
    CHECK(d == 0.5);
    CHECK(pflt("-.5e1", BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d));
    CHECK(d == -5.0);
    CHECK(pflt("-0.0", BLOBC_KIND_F64, BLOBC_SYNTAX_JSON, &d));
    CHECK_EQ_U(f64_bits(d), 0x8000000000000000ull);
    CHECK(pflt("-0", BLOBC_KIND_F32, BLOBC_SYNTAX_YAML, &d));
    CHECK_EQ_U(f32_bits((float)d), 0x80000000u);
    CHECK(pflt("0.1", BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d));
    CHECK_EQ_U(f64_bits(d), 0x3fb999999999999aull);
}

TEST(float_f32_is_rounded_once_from_decimal) {
    double d;
    CHECK(pflt("0.1", BLOBC_KIND_F32, BLOBC_SYNTAX_YAML, &d));
    CHECK_EQ_U(f32_bits((float)d), 0x3dcccccdu);
    CHECK(d == (double)0.1f);
    /* 1 + 2^-24 + 2^-60: rounding through double would tie to even (1.0);
     * rounding once from the decimal text goes up. */
    CHECK(pflt("1.00000005960464477550697891", BLOBC_KIND_F32, BLOBC_SYNTAX_YAML, &d));
    CHECK_EQ_U(f32_bits((float)d), 0x3f800001u);
    CHECK(pflt("16777217", BLOBC_KIND_F32, BLOBC_SYNTAX_JSON, &d));
    CHECK(d == 16777216.0);
}

TEST(float_f32_limits) {
    double d;
    CHECK(pflt("3.4028234663852886e38", BLOBC_KIND_F32, BLOBC_SYNTAX_YAML, &d));
    CHECK(d == (double)FLT_MAX);
    /* Rounds down to FLT_MAX: not an overflow. */
    CHECK(pflt("3.4028235e38", BLOBC_KIND_F32, BLOBC_SYNTAX_YAML, &d));
    CHECK(d == (double)FLT_MAX);
    CHECK(pflt("-3.4028235e38", BLOBC_KIND_F32, BLOBC_SYNTAX_JSON, &d));
    CHECK(d == -(double)FLT_MAX);
    CHECK(!pflt("3.5e38", BLOBC_KIND_F32, BLOBC_SYNTAX_YAML, &d));
    CHECK(!pflt("1e39", BLOBC_KIND_F32, BLOBC_SYNTAX_YAML, &d));
    CHECK_STR(msg, "expected f32, got \"1e39\" (out of f32 range)");
    CHECK(!pflt("-1e39", BLOBC_KIND_F32, BLOBC_SYNTAX_JSON, &d));
    CHECK_STR(msg, "expected f32, got \"-1e39\" (out of f32 range)");
    /* Fine for f64. */
    CHECK(pflt("1e39", BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d));
    CHECK(d == 1e39);
    /* Denormals and underflow round like any other value. */
    CHECK(pflt("1.401298464324817e-45", BLOBC_KIND_F32, BLOBC_SYNTAX_YAML, &d));
    CHECK_EQ_U(f32_bits((float)d), 1);
    CHECK(pflt("1e-45", BLOBC_KIND_F32, BLOBC_SYNTAX_YAML, &d));
    CHECK_EQ_U(f32_bits((float)d), 1);
    CHECK(pflt("1.1754942e-38", BLOBC_KIND_F32, BLOBC_SYNTAX_YAML, &d));
    CHECK_EQ_U(f32_bits((float)d), 0x007fffffu);
    CHECK(pflt("1e-50", BLOBC_KIND_F32, BLOBC_SYNTAX_YAML, &d));
    CHECK_EQ_U(f32_bits((float)d), 0);
}

TEST(float_f64_limits) {
    double d;
    CHECK(pflt("1.7976931348623157e308", BLOBC_KIND_F64, BLOBC_SYNTAX_JSON, &d));
    CHECK(d == DBL_MAX);
    CHECK(!pflt("1.8e308", BLOBC_KIND_F64, BLOBC_SYNTAX_JSON, &d));
    CHECK_STR(msg, "expected f64, got \"1.8e308\" (out of f64 range)");
    CHECK(!pflt("1e99999", BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d));
    CHECK(pflt("4.9406564584124654e-324", BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d));
    CHECK_EQ_U(f64_bits(d), 1);
    CHECK(pflt("1e-400", BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d));
    CHECK_EQ_U(f64_bits(d), 0);
}

TEST(float_yaml_specials) {
    double d;
    const char *pos[] = {".inf", "+.inf", ".Inf", ".INF", "+.Inf", "+.INF"};
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++) {
        if (!pflt(pos[i], BLOBC_KIND_F32, BLOBC_SYNTAX_YAML, &d) || !(isinf(d) && d > 0))
            FAILF("%s", pos[i]);
    }
    const char *neg[] = {"-.inf", "-.Inf", "-.INF"};
    for (size_t i = 0; i < sizeof neg / sizeof neg[0]; i++) {
        if (!pflt(neg[i], BLOBC_KIND_F64, BLOBC_SYNTAX_SCHEMA, &d) || !(isinf(d) && d < 0))
            FAILF("%s", neg[i]);
    }
    const char *nan[] = {".nan", ".NaN", ".NAN"};
    for (size_t i = 0; i < sizeof nan / sizeof nan[0]; i++) {
        if (!pflt(nan[i], BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d)) FAILF("%s", nan[i]);
        CHECK_EQ_U(f64_bits(d), BLOBC_F64_NAN_BITS);
        if (!pflt(nan[i], BLOBC_KIND_F32, BLOBC_SYNTAX_YAML, &d)) FAILF("%s", nan[i]);
        CHECK(isnan(d));
    }
    const char *bad[] = {"inf", "-inf", "nan", "NaN", "Infinity", ".iNf", "-.nan", "+.nan",
                         ".inff", ".na", "..inf"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (pflt(bad[i], BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d)) FAILF("accepted \"%s\"", bad[i]);
    }
    CHECK(!pflt(".inf", BLOBC_KIND_F64, BLOBC_SYNTAX_JSON, &d));
    CHECK(!pflt(".nan", BLOBC_KIND_F32, BLOBC_SYNTAX_JSON, &d));
}

TEST(float_grammar) {
    double d;
    const char *bad[] = {"", ".", "-", "+", "e5", "1e", "1e+", "1.5.5", "0x1p3", "0x10", "1f",
                         "1.0f", "01.5", "00", "007", "1,5", " 1.5", "1.5 ", "--1", "1e5.5",
                         "_1.5", "1_.5", "1._5", "1.5_", "1e_5", "1__0.5", "∞"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (pflt(bad[i], BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d)) FAILF("accepted \"%s\"", bad[i]);
    }
    CHECK(!pflt("0x1p3", BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d));
    CHECK_STR(msg, "expected f64, got \"0x1p3\"");
    const char *json_bad[] = {"1.", ".5", "+1", "1_000.5", "-.5", "1.e5"};
    for (size_t i = 0; i < sizeof json_bad / sizeof json_bad[0]; i++) {
        if (pflt(json_bad[i], BLOBC_KIND_F64, BLOBC_SYNTAX_JSON, &d))
            FAILF("JSON accepted \"%s\"", json_bad[i]);
    }
    CHECK(pflt("1_000.25", BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d));
    CHECK(d == 1000.25);
    CHECK(pflt("1e1_0", BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d));
    CHECK(d == 1e10);
    CHECK(pflt("0.000_001", BLOBC_KIND_F64, BLOBC_SYNTAX_SCHEMA, &d));
    CHECK(d == 1e-6);
    CHECK(pflt("0e0", BLOBC_KIND_F64, BLOBC_SYNTAX_JSON, &d));
    CHECK(d == 0.0);
}

TEST(float_long_text) {
    /* Longer than the on-stack copy: 0.000...0001 with 300 zeros. */
    char buf[400];
    strcpy(buf, "0.");
    for (int i = 0; i < 300; i++) strcat(buf, "0");
    strcat(buf, "1");
    double d;
    CHECK(pflt(buf, BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d));
    CHECK(d == 1e-301);
    CHECK(!pflt("1.5x", BLOBC_KIND_F64, BLOBC_SYNTAX_YAML, &d));
    /* Length-bounded input. */
    CHECK(blobc_parse_float("2.5000", 3, BLOBC_KIND_F64, BLOBC_SYNTAX_JSON, &d, msg, sizeof msg));
    CHECK(d == 2.5);
}

/* Short literals take an exact-arithmetic shortcut; it must agree with
 * strtof/strtod to the bit on every kind of input. */
TEST(float_fast_path_matches_libc) {
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 200000; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        uint64_t mant = seed % (i & 1 ? 20000000ull : 10000000000000000ull);
        int exp = (int)((seed >> 40) % 61) - 30;
        char text[64];
        if (i % 3 == 0) snprintf(text, sizeof text, "%llue%d", (unsigned long long)mant, exp);
        else snprintf(text, sizeof text, "%llu.%03u", (unsigned long long)mant,
                      (unsigned)(seed >> 20) % 1000);
        double d;
        if (!pflt(text, BLOBC_KIND_F32, BLOBC_SYNTAX_YAML, &d)) {
            if (!isinf(strtof(text, NULL))) FAILF("f32 refused %s: %s", text, msg);
        } else if (f32_bits((float)d) != f32_bits(strtof(text, NULL))) {
            FAILF("f32 %s: got %08x, want %08x", text, f32_bits((float)d),
                  f32_bits(strtof(text, NULL)));
        }
        if (!pflt(text, BLOBC_KIND_F64, BLOBC_SYNTAX_JSON, &d)) FAILF("f64 refused %s", text);
        if (f64_bits(d) != f64_bits(strtod(text, NULL)))
            FAILF("f64 %s: got %016llx, want %016llx", text, (unsigned long long)f64_bits(d),
                  (unsigned long long)f64_bits(strtod(text, NULL)));
    }
}

TEST(float_rejects_non_float_kinds) {
    double d;
    CHECK(!pflt("1", BLOBC_KIND_I32, BLOBC_SYNTAX_YAML, &d));
}

TEST(bools) {
    bool b = false;
    CHECK(blobc_parse_bool("true", 4, &b, msg, sizeof msg));
    CHECK(b);
    CHECK(blobc_parse_bool("false", 5, &b, msg, sizeof msg));
    CHECK(!b);
    CHECK(blobc_parse_bool("trueX", 4, &b, msg, sizeof msg));
    CHECK(b);
    const char *bad[] = {"True", "FALSE", "yes", "no", "on", "1", "0", "", "tru"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (blobc_parse_bool(bad[i], strlen(bad[i]), &b, msg, sizeof msg))
            FAILF("accepted \"%s\"", bad[i]);
    }
    CHECK(!blobc_parse_bool("yes", 3, &b, msg, sizeof msg));
    CHECK_STR(msg, "expected true or false, got \"yes\"");
}

TEST(store_scalars) {
    uint8_t b[8];
    memset(b, 0xaa, sizeof b);
    blobc_store_scalar(b, BLOBC_KIND_BOOL, 1, 0);
    CHECK_EQ_U(b[0], 1);
    CHECK_EQ_U(b[1], 0xaa);
    blobc_store_scalar(b, BLOBC_KIND_I8, (uint64_t)-2, 0);
    CHECK_EQ_U(b[0], 0xfe);
    CHECK_EQ_U(b[1], 0xaa);
    blobc_store_scalar(b, BLOBC_KIND_I16, (uint64_t)-2, 0);
    CHECK(memcmp(b, "\xfe\xff\xaa", 3) == 0);
    blobc_store_scalar(b, BLOBC_KIND_U32, 0x01020304, 0);
    CHECK(memcmp(b, "\x04\x03\x02\x01\xaa", 5) == 0);
    blobc_store_scalar(b, BLOBC_KIND_I64, 0x0102030405060708ull, 0);
    CHECK(memcmp(b, "\x08\x07\x06\x05\x04\x03\x02\x01", 8) == 0);
    memset(b, 0xaa, sizeof b);
    blobc_store_scalar(b, BLOBC_KIND_F32, 0, 1.0);
    CHECK(memcmp(b, "\x00\x00\x80\x3f\xaa", 5) == 0);
    blobc_store_scalar(b, BLOBC_KIND_F32, 0, -NAN);
    CHECK(memcmp(b, "\x00\x00\xc0\x7f\xaa", 5) == 0);
    blobc_store_scalar(b, BLOBC_KIND_F32, 0, -HUGE_VAL);
    CHECK(memcmp(b, "\x00\x00\x80\xff", 4) == 0);
    blobc_store_scalar(b, BLOBC_KIND_F64, 0, 1.0);
    CHECK(memcmp(b, "\x00\x00\x00\x00\x00\x00\xf0\x3f", 8) == 0);
    /* A NaN with a payload and the sign bit set is stored canonical. */
    uint64_t odd = 0xfff0000000000123ull;
    double weird;
    memcpy(&weird, &odd, 8);
    blobc_store_scalar(b, BLOBC_KIND_F64, 0, weird);
    CHECK(memcmp(b, "\x00\x00\x00\x00\x00\x00\xf8\x7f", 8) == 0);
}

TEST_MAIN_BEGIN("scalar")
RUN(int_ranges_every_kind);
RUN(int_messages_quote_the_text);
RUN(int_huge_values_do_not_wrap);
RUN(int_signs_and_zero);
RUN(int_bases);
RUN(int_underscores);
RUN(int_length_is_respected);
RUN(int_rejects_non_integer_kinds);
RUN(range_texts);
RUN(float_plain_values);
RUN(float_f32_is_rounded_once_from_decimal);
RUN(float_f32_limits);
RUN(float_f64_limits);
RUN(float_yaml_specials);
RUN(float_grammar);
RUN(float_long_text);
RUN(float_fast_path_matches_libc);
RUN(float_rejects_non_float_kinds);
RUN(bools);
RUN(store_scalars);
TEST_MAIN_END
