/*
 * test_util.c - the shared helpers: error formatting (what every CLI error
 * looks like), arena, buffers, UTF-8 validation, edit distance.
 */
#include "test.h"
#include "common/sort.h"
#include "common/suggest.h"
#include "common/arena.h"
#include "common/buffer.h"
#include "common/checked.h"
#include "common/endian.h"
#include "common/err.h"
#include "common/quote.h"
#include "common/utf8.h"

TEST(format_text_position) {
    blobc_error e;
    blobc_error_clear(&e);
    blobc_err_at(&e, "level.yaml", 12, 7);
    blobc_err(&e, BLOBC_EINPUT, "expected %s", "u8");
    char buf[256];
    size_t n = blobc_error_format(&e, buf, sizeof buf);
    CHECK_STR(buf, "level.yaml:12:7: error: expected u8");
    CHECK_EQ_U(n, strlen(buf));
    CHECK_EQ_U(e.status, BLOBC_EINPUT);
}

TEST(format_position_with_path) {
    blobc_error e;
    blobc_error_clear(&e);
    blobc_err_at(&e, "l.yaml", 3, 1);
    blobc_err_path(&e, "rooms[3].center.x");
    blobc_err(&e, BLOBC_EINPUT, "bad");
    char buf[256];
    blobc_error_format(&e, buf, sizeof buf);
    CHECK_STR(buf, "l.yaml:3:1: rooms[3].center.x: error: bad");
}

TEST(format_json_pointer) {
    blobc_error e;
    blobc_error_clear(&e);
    blobc_err_file(&e, "level.json");
    blobc_err_path(&e, "/rooms/12/center/x");
    blobc_err(&e, BLOBC_EINPUT, "expected f32");
    char buf[256];
    blobc_error_format(&e, buf, sizeof buf);
    CHECK_STR(buf, "level.json: /rooms/12/center/x: error: expected f32");
}

TEST(format_blob_offset) {
    blobc_error e;
    blobc_error_clear(&e);
    blobc_err_file(&e, "a.blob");
    blobc_err_offset(&e, 0x1a4);
    blobc_err_path(&e, "rooms[3].name");
    blobc_err(&e, BLOBC_EINPUT, "string is not NUL-terminated");
    char buf[256];
    blobc_error_format(&e, buf, sizeof buf);
    CHECK_STR(buf, "a.blob: offset 0x1a4 (rooms[3].name): error: string is not NUL-terminated");
}

TEST(format_source_line_and_caret) {
    const char *text = "struct A {\n\tx: u33;\n}\n";
    blobc_error e;
    blobc_error_clear(&e);
    blobc_err_at(&e, "a.schema", 2, 5);
    blobc_err_source_line(&e, text, strlen(text), 14);
    blobc_err(&e, BLOBC_EINPUT, "unknown type 'u33'");
    char buf[256];
    blobc_error_format(&e, buf, sizeof buf);
    CHECK_STR(buf, "a.schema:2:5: error: unknown type 'u33'\n     x: u33;\n        ^");
}

TEST(format_truncates_safely) {
    blobc_error e;
    blobc_error_clear(&e);
    blobc_err(&e, BLOBC_EIO, "cannot open '%s'", "some/long/path");
    char small[8];
    size_t n = blobc_error_format(&e, small, sizeof small);
    CHECK_EQ_U(strlen(small), 7);
    CHECK(n > 7);
}

TEST(arena_alignment_and_zeroing) {
    blobc_arena a;
    blobc_arena_init(&a);
    for (int i = 1; i < 2000; i++) {
        unsigned char *p = blobc_arena_alloc(&a, (size_t)i * 7);
        CHECK(p != NULL);
        CHECK_EQ_U((uintptr_t)p % 16, 0);
        for (int k = 0; k < i * 7; k++) CHECK_EQ_U(p[k], 0);
        memset(p, 0xAB, (size_t)i * 7);
    }
    void *big = blobc_arena_alloc(&a, 1u << 20);
    CHECK(big != NULL);
    CHECK(blobc_arena_array(&a, SIZE_MAX / 2, 4) == NULL);
    char *s = blobc_arena_strndup(&a, "hello world", 5);
    CHECK_STR(s, "hello");
    blobc_arena_free(&a);
}

TEST(buffer_appends) {
    blobc_buffer b = {0};
    CHECK(blobc_buf_puts(&b, "ab"));
    CHECK(blobc_buf_printf(&b, "%d-%s", 42, "x"));
    CHECK(blobc_buf_zeros(&b, 3));
    CHECK(blobc_buf_putc(&b, 'z'));
    CHECK_EQ_U(b.len, 2 + 4 + 3 + 1);
    CHECK(memcmp(b.data, "ab42-x\0\0\0z", 10) == 0);
    char big[600];
    memset(big, 'q', sizeof big - 1);
    big[sizeof big - 1] = 0;
    CHECK(blobc_buf_printf(&b, "%s", big));
    CHECK_EQ_U(b.len, 10 + 599);
    CHECK(!blobc_buf_reserve(&b, SIZE_MAX));
    blobc_buffer_free(&b);
    CHECK(b.data == NULL);
}

/* Texts of every length around the spare room left in the buffer (the
 * text is formatted in place when it fits, again when it does not), and
 * a buffer grown past the size from which it is moved by hand: every
 * byte must stay where it was written. */
TEST(buffer_printf_at_every_edge) {
    blobc_buffer b = {0};
    char text[700];
    size_t want = 0;
    uint32_t x = 1;
    while (want < (size_t)9 << 20) {
        x = x * 1103515245u + 12345u;
        size_t n = b.cap - b.len + (x >> 8) % 5 - 2; /* the room, give or take two */
        if (n >= sizeof text || b.cap - b.len > sizeof text) n = (x >> 12) % sizeof text;
        for (size_t k = 0; k < n; k++) text[k] = (char)('a' + (want + k) % 26);
        text[n] = 0;
        CHECK(blobc_buf_printf(&b, "%s", text));
        want += n;
        CHECK_EQ_U(b.len, want);
    }
    for (size_t k = 0; k < want; k++)
        if (b.data[k] != (uint8_t)('a' + k % 26)) FAILF("byte %zu is %d", k, b.data[k]);
    blobc_buffer_free(&b);
}

TEST(arena_blocks_grow) {
    blobc_arena a;
    blobc_arena_init(&a);
    unsigned char *last = NULL;
    for (int i = 0; i < 3000; i++) { /* 3000 x 8 KiB: blocks up to the largest, and more of it */
        unsigned char *p = blobc_arena_alloc(&a, 8192);
        CHECK(p != NULL);
        for (int k = 0; k < 8192; k += 512) CHECK_EQ_U(p[k], 0);
        memset(p, (unsigned char)i, 8192);
        if (last) CHECK_EQ_U(last[8191], (unsigned char)(i - 1));
        last = p;
    }
    blobc_arena_free(&a);
}

/* Keys of every width (a digit shared by all is skipped, so some passes
 * are left out), many equal keys (their order kept), against a plain
 * insertion of the same records. */
TEST(sort_by_key_stable) {
    enum { N = 3000 };
    static blobc_sort_rec v[N], want[N];
    const uint64_t masks[] = {0, 7, 0x7ff, 0xfffff, UINT64_MAX, UINT64_C(0xff00000000000000)};
    for (size_t m = 0; m < sizeof masks / sizeof masks[0]; m++) {
        uint64_t x = 88172645463325252u;
        for (uint32_t i = 0; i < N; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            v[i] = (blobc_sort_rec){x & masks[m], i};
        }
        size_t n = m == 0 ? 1 : N;
        for (size_t i = 0; i < n; i++) { /* insertion: stable by construction */
            size_t j = i;
            while (j && want[j - 1].key > v[i].key) {
                want[j] = want[j - 1];
                j--;
            }
            want[j] = v[i];
        }
        CHECK(blobc_sort_by_key(v, n));
        for (size_t i = 0; i < n; i++)
            if (v[i].key != want[i].key || v[i].idx != want[i].idx)
                FAILF("mask %zu: record %zu is (%llu, %u), want (%llu, %u)", m, i,
                      (unsigned long long)v[i].key, v[i].idx, (unsigned long long)want[i].key,
                      want[i].idx);
    }
    CHECK(blobc_sort_by_key(v, 0));
}

TEST(utf8) {
    CHECK(blobc_utf8_valid((const uint8_t *)"", 0));
    CHECK(blobc_utf8_valid((const uint8_t *)"plain", 5));
    CHECK(blobc_utf8_valid((const uint8_t *)"\xc3\xbc\xe2\x9c\x93\xf0\x9f\x98\x80", 9));
    CHECK(!blobc_utf8_valid((const uint8_t *)"\xc0\xaf", 2));         /* overlong '/' */
    CHECK(!blobc_utf8_valid((const uint8_t *)"\xe0\x80\xaf", 3));     /* overlong */
    CHECK(!blobc_utf8_valid((const uint8_t *)"\xed\xa0\x80", 3));     /* surrogate */
    CHECK(!blobc_utf8_valid((const uint8_t *)"\xf4\x90\x80\x80", 4)); /* > U+10FFFF */
    CHECK(!blobc_utf8_valid((const uint8_t *)"\xe2\x9c", 2));         /* truncated */
    CHECK(!blobc_utf8_valid((const uint8_t *)"\x80", 1));             /* lone continuation */
    CHECK(!blobc_utf8_valid((const uint8_t *)"\xff", 1));
}

/* A repaired copy keeps valid UTF-8 and has U+FFFD for every other byte. */
TEST(utf8_repaired) {
    static const struct {
        const char *in, *want;
    } cases[] = {
        {"", ""},
        {"a\xc3\xa9\xf0\x9f\x98\x80", "a\xc3\xa9\xf0\x9f\x98\x80"},
        {"x\xffy", "x\xef\xbf\xbdy"},
        {"\xe2\x9c", "\xef\xbf\xbd\xef\xbf\xbd"},                      /* cut short */
        {"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},   /* surrogate */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = blobc_utf8_repaired(cases[i].in);
        CHECK_STR(got, cases[i].want);
        free(got);
    }
}

/* Quoting for JSON and YAML keeps valid UTF-8 and writes every byte that
 * is not part of it (file names can hold any) as \ufffd: stray
 * continuation bytes, sequences cut short, overlong forms, surrogates,
 * code points past U+10FFFF, bytes that never start one. */
/* Plain text is copied eight bytes at a time: each byte value at each
 * place of a 19-byte string is escaped as it is alone. */
TEST(quoted_every_byte_at_every_place) {
    for (int json = 0; json <= 1; json++) {
        for (unsigned c = 0; c < 256; c++) {
            blobc_buffer one = {0};
            uint8_t ch = (uint8_t)c;
            CHECK(blobc_buf_quoted(&one, &ch, 1, json));
            for (size_t at = 0; at < 19; at++) {
                uint8_t s[19];
                memset(s, 'a', sizeof s);
                s[at] = ch;
                blobc_buffer b = {0};
                CHECK(blobc_buf_quoted(&b, s, sizeof s, json));
                /* "aaa" + the byte's escape (without its quotes) + "aaa" */
                size_t inner = one.len - 2;
                bool same = b.len == sizeof s - 1 + inner + 2 &&
                            memcmp(b.data + 1 + at, one.data + 1, inner) == 0 && b.data[0] == '"' &&
                            b.data[b.len - 1] == '"';
                for (size_t k = 0; same && k < at; k++) same = b.data[1 + k] == 'a';
                for (size_t k = 1 + at + inner; same && k < b.len - 1; k++) same = b.data[k] == 'a';
                blobc_buffer_free(&b);
                if (!same) {
                    blobc_buffer_free(&one);
                    FAILF("byte 0x%02x at %zu (%s)", c, at, json ? "JSON" : "YAML");
                }
            }
            blobc_buffer_free(&one);
        }
    }
}

TEST(quoted_text_not_utf8) {
    static const struct {
        const char *in, *json, *yaml;
    } cases[] = {
        {"a\xc3\xa9\xe2\x9c\x93\xf0\x9f\x98\x80", "\"a\xc3\xa9\xe2\x9c\x93\xf0\x9f\x98\x80\"",
         "\"a\xc3\xa9\xe2\x9c\x93\xf0\x9f\x98\x80\""},
        {"x\xffy", "\"x\\ufffdy\"", "\"x\\ufffdy\""},
        {"\x80", "\"\\ufffd\"", "\"\\ufffd\""},
        {"\xc3", "\"\\ufffd\"", "\"\\ufffd\""},                  /* cut short */
        {"\xe2\x9c", "\"\\ufffd\\ufffd\"", "\"\\ufffd\\ufffd\""},
        {"\xc0\xaf", "\"\\ufffd\\ufffd\"", "\"\\ufffd\\ufffd\""}, /* overlong '/' */
        {"\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"", "\"\\ufffd\\ufffd\\ufffd\""}, /* surrogate */
        {"\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
         "\"\\ufffd\\ufffd\\ufffd\\ufffd\""},                     /* past U+10FFFF */
        {"\xc2\x85", "\"\xc2\x85\"", "\"\\x85\""},                 /* C1: escaped in YAML */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int json = 0; json <= 1; json++) {
            blobc_buffer b = {0};
            CHECK(blobc_buf_quoted(&b, (const uint8_t *)cases[i].in, strlen(cases[i].in), json));
            CHECK(blobc_utf8_valid(b.data, b.len));
            blobc_buf_putc(&b, '\0');
            const char *want = json ? cases[i].json : cases[i].yaml;
            if (strcmp((const char *)b.data, want) != 0) {
                blobc_buffer_free(&b);
                FAILF("case %zu (%s): got the wrong text", i, json ? "JSON" : "YAML");
            }
            blobc_buffer_free(&b);
        }
    }
}

TEST(edit_distance) {
    CHECK_EQ_U(blobc_edit_distance("name", 4, "name", 4), 0);
    CHECK_EQ_U(blobc_edit_distance("nmae", 4, "name", 4), 1);
    CHECK_EQ_U(blobc_edit_distance("ab", 2, "ba", 2), 1);
    CHECK_EQ_U(blobc_edit_distance("float", 5, "Slot", 4), 2);
    CHECK_EQ_U(blobc_edit_distance("radius", 6, "radios", 6), 1);
    CHECK_EQ_U(blobc_edit_distance("", 0, "abc", 3), 3);
}

TEST(checked_arithmetic) {
    size_t r;
    CHECK(!blobc_add_ok(SIZE_MAX, 1, &r));
    CHECK(blobc_add_ok(SIZE_MAX - 1, 1, &r) && r == SIZE_MAX);
    CHECK(!blobc_mul_ok(SIZE_MAX / 2 + 1, 2, &r));
    CHECK(blobc_align_ok(17, 16, &r) && r == 32);
    CHECK(!blobc_align_ok(SIZE_MAX - 3, 16, &r));
    uint8_t b[8];
    blobc_st64(b, 0x0102030405060708ull);
    CHECK_EQ_U(b[0], 8);
    CHECK_EQ_U(blobc_ld64(b), 0x0102030405060708ull);
    CHECK_EQ_U(blobc_ld32(b + 4), 0x01020304u);
}

TEST_MAIN_BEGIN("util")
RUN(format_text_position);
RUN(format_position_with_path);
RUN(format_json_pointer);
RUN(format_blob_offset);
RUN(format_source_line_and_caret);
RUN(format_truncates_safely);
RUN(arena_alignment_and_zeroing);
RUN(buffer_appends);
RUN(buffer_printf_at_every_edge);
RUN(arena_blocks_grow);
RUN(sort_by_key_stable);
RUN(utf8);
RUN(utf8_repaired);
RUN(quoted_text_not_utf8);
RUN(quoted_every_byte_at_every_place);
RUN(edit_distance);
RUN(checked_arithmetic);
TEST_MAIN_END
