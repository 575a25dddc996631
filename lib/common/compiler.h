/*
 * compiler.h - what the library asks of the compiler beyond C11: printf
 * format checking, branch hints, keeping a function out of line. Not
 * installed.
 */
#ifndef BLOBC_COMPILER_H
#define BLOBC_COMPILER_H

/* MinGW's "printf" archetype is the old Microsoft one (no %zu); blobc
 * uses the C99 printf mingw-w64 provides (__USE_MINGW_ANSI_STDIO). */
#if defined(__MINGW32__)
#define BLOBC_PRINTF(a, b) __attribute__((format(gnu_printf, a, b)))
#define BLOBC_LIKELY(x) __builtin_expect(!!(x), 1)
#define BLOBC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define BLOBC_NOINLINE __attribute__((noinline))
#elif defined(__GNUC__) || defined(__clang__)
#define BLOBC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define BLOBC_LIKELY(x) __builtin_expect(!!(x), 1)
#define BLOBC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define BLOBC_NOINLINE __attribute__((noinline))
#else
#define BLOBC_PRINTF(a, b)
#define BLOBC_LIKELY(x) (x)
#define BLOBC_UNLIKELY(x) (x)
#define BLOBC_NOINLINE
#endif

#endif
