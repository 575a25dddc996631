/*
 * test.h - a minimal unit-test harness. Each TEST prints one line,
 * "PASS suite.name" or "FAIL suite.name: file:line: what", which
 * tests/run.sh counts. A test stops at its first failed check.
 */
#ifndef BLOBC_TEST_H
#define BLOBC_TEST_H

#include <errno.h>
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

/* ---- the operating system, through the platform layer (the tests build
 * for Windows too) ---- */
#include "platform/platform.h"

/* mkdtemp: the "XXXXXX" that ends tmpl replaced by a new directory's name. */
static inline char *test_mkdtemp(char *tmpl) {
    size_t n = strlen(tmpl);
    if (n < 6) return NULL;
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        uint64_t x = blobc_os_unique() + attempt * 0x9E3779B97F4A7C15ull;
        for (size_t i = n - 6; i < n; i++, x /= 36) tmpl[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[x % 36];
        int e = blobc_os_mkdir(tmpl);
        if (!e) return tmpl;
        if (e != EEXIST) return NULL;
    }
    return NULL;
}

/* rm -rf of a directory the test made. */
static inline void test_rm_rf(const char *dir) {
    blobc_os_dir *d;
    if (blobc_os_dir_open(dir, &d) == 0) {
        const char *name;
        while ((name = blobc_os_dir_next(d))) {
            size_t n = strlen(dir) + strlen(name) + 2;
            char *p = malloc(n);
            if (!p) break;
            snprintf(p, n, "%s/%s", dir, name);
            blobc_os_info info;
            if (blobc_os_stat(p, &info) == 0 && info.kind == BLOBC_OS_DIRECTORY) test_rm_rf(p);
            else blobc_os_remove(p);
            free(p);
        }
        blobc_os_dir_close(d);
    }
    blobc_os_rmdir(dir);
}

/* The directory for temporary files: $TMPDIR, else /tmp. */
static inline const char *test_tmp(void) {
    const char *t = getenv("TMPDIR");
    return t && t[0] ? t : "/tmp";
}

/* A test that cannot run on this platform: counted and printed. */
#define SKIP_TEST(fn, why) printf("SKIP %s.%s: %s\n", test_suite_, #fn, why)

#define TEST_MAIN_BEGIN(suite)                                                \
    int main(void) {                                                          \
        test_suite_ = suite;
#define TEST_MAIN_END                                                         \
        return test_any_failed_;                                              \
    }

#endif
