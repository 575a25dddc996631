/*
 * blobc/api.h - BLOBC_API, the mark on every function the library exports.
 *
 * The library is compiled with -fvisibility=hidden: only functions
 * declared with BLOBC_API are visible outside libblobc.so (and outside the
 * single object inside libblobc.a), so the library's internal functions
 * can never collide with a program's own names.
 *
 * Every public header says how settled it is, in a "Stability:" line:
 * stable (a minor release keeps it source-compatible) or experimental
 * (any release may change it; docs/ARCHITECTURE.md lists which).
 *
 * Stability: stable: a minor release keeps every declaration here
 * source-compatible.
 */
#ifndef BLOBC_API_H
#define BLOBC_API_H

#if defined(__GNUC__) || defined(__clang__)
#define BLOBC_API __attribute__((visibility("default")))
#else
#define BLOBC_API
#endif

#endif
