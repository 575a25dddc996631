/*
 * test_regex.c - the @match engine: a table of patterns and texts, errors
 * at their offsets, hostile patterns in bounded time, and (where the C
 * library has one) the answers of POSIX regexec on the same pairs.
 */
#include "test.h"
#include "common/arena.h"
#include "common/regex.h"

#ifndef _WIN32
#include <regex.h>
#endif

static int search(const char *pat, const char *text) {
    blobc_arena a;
    blobc_arena_init(&a);
    char msg[200];
    size_t at;
    const blobc_regex *re = blobc_regex_compile(pat, strlen(pat), &a, msg, sizeof msg, &at);
    int r = re ? blobc_regex_search(re, text, strlen(text)) : -2;
    blobc_arena_free(&a);
    return r;
}

static const struct {
    const char *pat, *text;
    int want;
} cases[] = {
    {"^[a-z_]+$", "fire_sword", 1},     {"^[a-z_]+$", "Fire", 0},
    {"^[a-z_]+$", "", 0},               {"a", "banana", 1},
    {"^a", "banana", 0},                {"a$", "banana", 1},
    {"^(ab|cd)*$", "abcdab", 1},        {"^(ab|cd)*$", "abc", 0},
    {"^x{2,3}$", "xx", 1},              {"^x{2,3}$", "xxxx", 0},
    {"^x{2,}$", "xxxxxx", 1},           {"^x{2}$", "x", 0},
    {"^(a|b)?c$", "c", 1},              {"^(a|b)?c$", "bc", 1},
    {"^[^0-9]+$", "abc", 1},            {"^[^0-9]+$", "a1c", 0},
    {"^[[:digit:]]{3}$", "123", 1},     {"^[[:alpha:][:digit:]]+$", "a1B2", 1},
    {"^\\d+\\.\\d+$", "3.14", 1},       {"^\\d+\\.\\d+$", "3x14", 0},
    {"^\\w+$", "snake_case1", 1},       {"\\s", "nospace", 0},
    {"^.$", "\xc3\xa9", 1},             {"^[\xc3\xa0-\xc3\xbf]$", "\xc3\xa9", 1},
    {"^[]a]$", "]", 1},                 {"^[a-]$", "-", 1},
    {"()", "x", 1},                     {"a||b", "c", 1},
    {"^(a*)*$", "aaaa", 1},             {"^(a*)*b$", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaac", 0},
    {"(x+x+)+y", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 0},
    {"^assets/[a-z]+\\.png$", "assets/hero.png", 1},
    {"^assets/[a-z]+\\.png$", "assets/hero.pngx", 0},
};

TEST(regex_table) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = search(cases[i].pat, cases[i].text);
        if (got != cases[i].want) fprintf(stderr, "  pattern %s on %s\n", cases[i].pat, cases[i].text);
        CHECK_EQ_I(got, cases[i].want);
    }
}

TEST(regex_errors_name_their_place) {
    static const struct {
        const char *pat;
        size_t at;
        const char *msg;
    } bad[] = {
        {"ab(c", 2, "a '(' is not closed (missing ')')"},
        {"abc)", 3, "a ')' closes no group"},
        {"[abc", 0, "a '[' is not closed (missing ']')"},
        {"*a", 0, "a repetition follows nothing"},
        {"a{3,1}", 1, "a count in braces runs backwards ({m,n} with n < m)"},
        {"a{x}", 1, "a '{' takes {m}, {m,} or {m,n}"},
        {"a{256}", 2, "a count in braces is over 255"},
        {"[z-a]", 2, "a range in brackets runs backwards"},
        {"\\q", 0, "unknown escape (a backslash makes a punctuation character literal; \\d \\w \\s "
                   "\\t \\n are classes and controls)"},
        {"[[:bogus:]]", 1, "unknown character class (expected [:alpha:], [:digit:], [:alnum:], "
                           "[:space:], [:upper:], [:lower:], [:punct:], [:xdigit:], ...)"},
        {"(a{255}){255}", 0, "the pattern is too large once its repetitions are counted out"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        blobc_arena a;
        blobc_arena_init(&a);
        char msg[200];
        size_t at = 99;
        const blobc_regex *re = blobc_regex_compile(bad[i].pat, strlen(bad[i].pat), &a, msg, sizeof msg, &at);
        CHECK(re == NULL);
        CHECK_STR(msg, bad[i].msg);
        CHECK_EQ_U(at, bad[i].at);
        blobc_arena_free(&a);
    }
}

/* The classic exponential pattern of a backtracking matcher, on a long
 * text: a Thompson search answers in linear time. */
TEST(regex_hostile_pattern_is_linear) {
    char text[20001];
    memset(text, 'a', sizeof text - 1);
    text[sizeof text - 1] = 0;
    CHECK_EQ_I(search("^(a|a)*(a|aa)*(a*)*b$", text), 0);
    CHECK_EQ_I(search("^(a|a)*(a|aa)*(a*)*$", text), 1);
}

#ifndef _WIN32
/* Every pattern of a small alphabet against every short text: the same
 * answer as the C library's regexec. */
TEST(regex_agrees_with_posix_regexec) {
    static const char *pats[] = {
        "a*b",  "^a*b$", "(ab|a)(bc|c)", "^(a|b)+$", "a{2}b?", "^[ab]{1,3}c$", "b$", "^$",
        "a.c",  "[^a]", "(a|)b", "^(a?){2}$", "((a|b)c)*$", "c|^a", "^(ab){0,2}$", "a+?",
    };
    static const char alpha[] = "abc";
    char text[8];
    unsigned mismatches = 0;
    for (size_t p = 0; p < sizeof pats / sizeof pats[0]; p++) {
        regex_t rx;
        if (regcomp(&rx, pats[p], REG_EXTENDED | REG_NOSUB) != 0) continue;
        for (unsigned len = 0; len <= 5; len++) {
            unsigned total = 1;
            for (unsigned i = 0; i < len; i++) total *= 3;
            for (unsigned v = 0; v < total; v++) {
                unsigned x = v;
                for (unsigned i = 0; i < len; i++, x /= 3) text[i] = alpha[x % 3];
                text[len] = 0;
                int want = regexec(&rx, text, 0, NULL, 0) == 0;
                int got = search(pats[p], text);
                if (got != want && mismatches++ < 5)
                    fprintf(stderr, "  %s on \"%s\": regexec %d, ours %d\n", pats[p], text, want, got);
            }
        }
        regfree(&rx);
    }
    CHECK_EQ_U(mismatches, 0);
}
#endif

TEST_MAIN_BEGIN("regex")
RUN(regex_table);
RUN(regex_errors_name_their_place);
RUN(regex_hostile_pattern_is_linear);
#ifndef _WIN32
RUN(regex_agrees_with_posix_regexec);
#else
SKIP_TEST(regex_agrees_with_posix_regexec, "no regexec in the C library");
#endif
TEST_MAIN_END
