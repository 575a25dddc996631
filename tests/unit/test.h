/*
 * test.h - a minimal unit-test harness. Each TEST prints one line,
 * "PASS suite.name" or "FAIL suite.name: file:line: what", which
 * tests/run.sh counts. A test stops at its first failed check.
 */
#ifndef BLOBC_TEST_H
#define BLOBC_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failed_;
static int test_any_failed_;
static const char *test_suite_ = "unit";

#define TEST(name) static void name(void)

#define FAILF(...)                                                            \
    do {                                                                      \
        if (!test_failed_) {                                                  \
            printf("FAIL %s.%s: %s:%d: ", test_suite_, test_name_, __FILE__, __LINE__); \
            printf(__VA_ARGS__);                                              \
            printf("\n");                                                     \
        }                                                                     \
        test_failed_ = 1;                                                     \
        return;                                                               \
    } while (0)

/* Every check needs the running test's name; set by RUN. */
static const char *test_name_ = "";

#define CHECK(cond)                                                           \
    do {                                                                      \
        if (!(cond)) FAILF("check failed: %s", #cond);                        \
    } while (0)

#define CHECK_EQ_U(a, b)                                                      \
    do {                                                                      \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                      \
        if (a_ != b_)                                                         \
            FAILF("%s == %s: got %" PRIu64 " (0x%" PRIx64 "), want %" PRIu64 " (0x%" PRIx64 ")", \
                  #a, #b, a_, a_, b_, b_);                                    \
    } while (0)

#define CHECK_EQ_I(a, b)                                                      \
    do {                                                                      \
        int64_t a_ = (int64_t)(a), b_ = (int64_t)(b);                         \
        if (a_ != b_) FAILF("%s == %s: got %" PRId64 ", want %" PRId64, #a, #b, a_, b_); \
    } while (0)

#define CHECK_STR(a, b)                                                       \
    do {                                                                      \
        const char *a_ = (a), *b_ = (b);                                      \
        if (!a_ || !b_ || strcmp(a_, b_) != 0)                                \
            FAILF("%s == %s: got \"%s\", want \"%s\"", #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
    } while (0)

/* Substring check, for error messages. */
#define CHECK_CONTAINS(hay, needle)                                           \
    do {                                                                      \
        const char *h_ = (hay), *n_ = (needle);                               \
        if (!h_ || !strstr(h_, n_)) FAILF("%s contains \"%s\": got \"%s\"", #hay, n_, h_ ? h_ : "(null)"); \
    } while (0)

#define RUN(fn)                                                               \
    do {                                                                      \
        test_failed_ = 0;                                                     \
        test_name_ = #fn;                                                     \
        fn();                                                                 \
        if (!test_failed_) printf("PASS %s.%s\n", test_suite_, #fn);          \
        else test_any_failed_ = 1;                                            \
        fflush(stdout);                                                       \
    } while (0)

#define TEST_MAIN_BEGIN(suite)                                                \
    int main(void) {                                                          \
        test_suite_ = suite;
#define TEST_MAIN_END                                                         \
        return test_any_failed_;                                              \
    }

#endif
