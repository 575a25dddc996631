/*
 * checked.h - size arithmetic that reports overflow instead of wrapping:
 * every size computed from untrusted counts goes through these. Not
 * installed.
 */
#ifndef BLOBC_CHECKED_H
#define BLOBC_CHECKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline bool blobc_add_ok(size_t a, size_t b, size_t *r) {
    if (a > SIZE_MAX - b) return false;
    *r = a + b;
    return true;
}
static inline bool blobc_mul_ok(size_t a, size_t b, size_t *r) {
    if (b != 0 && a > SIZE_MAX / b) return false;
    *r = a * b;
    return true;
}
/* Rounds v up to a multiple of align (a power of two); false on overflow. */
static inline bool blobc_align_ok(size_t v, size_t align, size_t *r) {
    size_t m = align - 1;
    if (v > SIZE_MAX - m) return false;
    *r = (v + m) & ~m;
    return true;
}
static inline bool blobc_is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

#endif
