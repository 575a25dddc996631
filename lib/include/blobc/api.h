/*
 * blobc/api.h - BLOBC_API, the mark on every function the library exports.
 *
 * The library is compiled with -fvisibility=hidden: only functions
 * declared with BLOBC_API are visible outside libblobc.so (and outside the
 * single object inside libblobc.a), so the library's internal functions
 * can never collide with a program's own names.
 *
 * On Windows libblobc.dll exports exactly these functions (dllexport while
 * the library itself is compiled). A program using the DLL needs nothing
 * (MinGW imports by itself; MSVC through libblobc.dll.a's stubs) or may
 * define BLOBC_DLL for direct imports; one linking libblobc.a defines
 * neither.
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

#if defined(_WIN32) && defined(BLOBC_BUILDING)
#define BLOBC_API __declspec(dllexport)
#elif defined(_WIN32) && defined(BLOBC_DLL)
#define BLOBC_API __declspec(dllimport)
#elif defined(_WIN32)
#define BLOBC_API
#elif defined(__GNUC__) || defined(__clang__)
#define BLOBC_API __attribute__((visibility("default")))
#else
#define BLOBC_API
#endif

#endif
