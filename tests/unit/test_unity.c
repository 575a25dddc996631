/*
 * test_unity.c - the Unity blob asset file (blobc/unity.h): the bytes
 * blobc_unity_wrap writes for both length rules, the hash against known
 * xxHash32 values, every header check of blobc_unity_open with its code
 * and offset, recognition, and every byte flip and truncation refused.
 */
#include "test.h"

#include "blobc/blobc.h"

/* XXH32(data, n, 0) of known inputs: xxHash's own test values
 * ("" -> 0x02cc5d05, "a" -> 0x550d7456, "abc" -> 0x32d153ff). */
TEST(hash_known_values) {
    static const struct {
        const char *data;
        uint32_t hash;
    } cases[] = {{"a", 0x550d7456u}, {"abc", 0x32d153ffu}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        blobc_buffer b = {0};
        blobc_error err;
        blobc_error_clear(&err);
        size_t n = strlen(cases[i].data);
        b.data = malloc(n);
        CHECK(b.data);
        memcpy(b.data, cases[i].data, n);
        b.len = b.cap = n;
        blobc_unity_options o = {0};
        o.length = BLOBC_UNITY_LENGTH_EXACT;
        CHECK_EQ_I(blobc_unity_wrap(n, &o, &b, &err), BLOBC_OK);
        CHECK_EQ_U(b.len, 36 + n);
        uint64_t h = 0;
        for (int k = 7; k >= 0; k--) h = h << 8 | b.data[20 + k];
        CHECK_EQ_U(h, cases[i].hash);
        blobc_buffer_free(&b);
    }
}

/* 20 bytes of data -> the file, padded (Length 32) or exact (Length 20) */
static void wrap20(blobc_buffer *b, blobc_unity_length rule, int32_t version) {
    memset(b, 0, sizeof *b);
    b->data = malloc(20);
    for (int i = 0; i < 20; i++) b->data[i] = (uint8_t)(i + 1);
    b->len = b->cap = 20;
    blobc_unity_options o = {version, false, rule};
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_unity_wrap(20, &o, b, &err) != BLOBC_OK) b->len = 0;
}

static uint32_t ld32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

TEST(wrap_bytes) {
    blobc_buffer b;
    wrap20(&b, BLOBC_UNITY_LENGTH_ANY, -3);
    CHECK_EQ_U(b.len, 36 + 32);
    CHECK_EQ_U(ld32(b.data), (uint32_t)-3);
    for (int i = 4; i < 12; i++) CHECK_EQ_U(b.data[i], 0);    /* ValidationPtr */
    CHECK_EQ_U(ld32(b.data + 12), 32);                        /* Length */
    CHECK_EQ_U(ld32(b.data + 16), 1);                         /* Allocator.None */
    CHECK_EQ_U(ld32(b.data + 24), 0);                         /* Hash: 32 bits */
    for (int i = 28; i < 36; i++) CHECK_EQ_U(b.data[i], 0);   /* Padding */
    for (int i = 0; i < 20; i++) CHECK_EQ_U(b.data[36 + i], i + 1);
    for (int i = 56; i < 68; i++) CHECK_EQ_U(b.data[i], 0);   /* zero padding to 16 */
    blobc_buffer_free(&b);
    wrap20(&b, BLOBC_UNITY_LENGTH_EXACT, 5);
    CHECK_EQ_U(b.len, 36 + 20);
    CHECK_EQ_U(ld32(b.data + 12), 20);
    blobc_buffer_free(&b);
}

TEST(wrap_errors) {
    blobc_buffer b = {0};
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_unity_wrap(0, NULL, &b, &err), BLOBC_EINPUT);
    b.data = calloc(4, 1);
    CHECK(b.data);
    b.len = b.cap = 4;
    CHECK_EQ_I(blobc_unity_wrap(5, NULL, &b, &err), BLOBC_EINPUT);
    CHECK_CONTAINS(err.message, "does not hold a 5-byte data section");
    blobc_buffer_free(&b);
}

#define OPEN_FAILS(bytes, len, opts, want_code, want_off, text)                           \
    do {                                                                                  \
        blobc_unity_header hd_;                                                           \
        const uint8_t *d_;                                                                \
        size_t sz_;                                                                       \
        blobc_error e_;                                                                   \
        blobc_error_clear(&e_);                                                           \
        CHECK_EQ_I(blobc_unity_open((bytes), (len), (opts), &hd_, &d_, &sz_, &e_), BLOBC_EINPUT); \
        CHECK_EQ_I(e_.code, (want_code));                                                 \
        CHECK(e_.has_offset);                                                             \
        CHECK_EQ_U(e_.offset, (want_off));                                                \
        CHECK_CONTAINS(e_.message, (text));                                               \
    } while (0)

TEST(open_checks) {
    blobc_buffer b;
    wrap20(&b, BLOBC_UNITY_LENGTH_PADDED, 9);
    CHECK(b.len == 68);
    blobc_unity_header hd;
    const uint8_t *data;
    size_t n;
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_unity_open(b.data, b.len, NULL, &hd, &data, &n, &err), BLOBC_OK);
    CHECK(data == b.data + 36);
    CHECK_EQ_U(n, 32);
    CHECK_EQ_I(hd.version, 9);
    CHECK_EQ_I(hd.length, 32);
    blobc_unity_options v8 = {8, true, BLOBC_UNITY_LENGTH_ANY};
    OPEN_FAILS(b.data, b.len, &v8, BLOBC_V_BAD_VERSION, 0, "version 9; TryRead with version 8");
    blobc_unity_options v9 = {9, true, BLOBC_UNITY_LENGTH_EXACT};
    CHECK_EQ_I(blobc_unity_open(b.data, b.len, &v9, &hd, &data, &n, &err), BLOBC_OK);
    OPEN_FAILS(b.data, 35, NULL, BLOBC_V_TRUNCATED, 0, "shorter than the 36 bytes");
    OPEN_FAILS(b.data, b.len - 1, NULL, BLOBC_V_TRUNCATED, 12, "Length is 32, but only 31");
    b.data[7] = 1;
    OPEN_FAILS(b.data, b.len, NULL, BLOBC_V_BAD_HEADER, 4, "ValidationPtr");
    b.data[7] = 0;
    b.data[16] = 0;
    OPEN_FAILS(b.data, b.len, NULL, BLOBC_V_BAD_HEADER, 16, "Allocator is 0");
    b.data[16] = 1;
    b.data[35] = 1;
    OPEN_FAILS(b.data, b.len, NULL, BLOBC_V_BAD_HEADER, 28, "Padding");
    b.data[35] = 0;
    b.data[40] ^= 1;
    OPEN_FAILS(b.data, b.len, NULL, BLOBC_V_DATA_HASH, 20, "but the data hashes to");
    b.data[40] ^= 1;
    blobc_buffer_free(&b);

    wrap20(&b, BLOBC_UNITY_LENGTH_EXACT, 0);
    blobc_unity_options padded = {0, false, BLOBC_UNITY_LENGTH_PADDED};
    OPEN_FAILS(b.data, b.len, &padded, BLOBC_V_BAD_HEADER, 12, "Length 20 is not a multiple of 16");
    CHECK_EQ_I(blobc_unity_open(b.data, b.len, NULL, &hd, &data, &n, &err), BLOBC_OK);
    CHECK_EQ_U(n, 20);
    blobc_buffer_free(&b);
}

TEST(detect) {
    blobc_buffer b;
    wrap20(&b, BLOBC_UNITY_LENGTH_PADDED, 1);
    CHECK(blobc_unity_detect(b.data, b.len));
    CHECK(!blobc_unity_detect(b.data, b.len - 1));
    CHECK(!blobc_unity_detect(NULL, 0));
    /* every single flip outside the version makes it unrecognisable */
    for (size_t i = 4; i < b.len; i++) {
        b.data[i] ^= 0x10;
        if (blobc_unity_detect(b.data, b.len)) FAILF("still recognised after flipping byte %zu", i);
        b.data[i] ^= 0x10;
    }
    /* a .blob never is one */
    CHECK(!blobc_unity_detect("\x89" "BLOBC\r\n\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 36));
    blobc_buffer_free(&b);
}

TEST(every_truncation_and_flip_fails) {
    blobc_buffer b;
    wrap20(&b, BLOBC_UNITY_LENGTH_PADDED, 1);
    blobc_unity_options o = {1, true, BLOBC_UNITY_LENGTH_ANY};
    blobc_unity_header hd;
    const uint8_t *data;
    size_t n;
    for (size_t len = 0; len < b.len; len++)
        if (blobc_unity_open(b.data, len, &o, &hd, &data, &n, NULL) == BLOBC_OK)
            FAILF("a %zu-byte prefix opened", len);
    for (size_t i = 0; i < b.len; i++)
        for (int bit = 0; bit < 8; bit++) {
            b.data[i] ^= (uint8_t)(1u << bit);
            if (blobc_unity_open(b.data, b.len, &o, &hd, &data, &n, NULL) == BLOBC_OK)
                FAILF("opened with bit %d of byte %zu flipped", bit, i);
            b.data[i] ^= (uint8_t)(1u << bit);
        }
    blobc_buffer_free(&b);
}

TEST_MAIN_BEGIN("unity")
RUN(hash_known_values);
RUN(wrap_bytes);
RUN(wrap_errors);
RUN(open_checks);
RUN(detect);
RUN(every_truncation_and_flip_fails);
TEST_MAIN_END
