/*
 * platform/win32.h - what win32.c shares with win32_rt.c: UTF-8 to UTF-16
 * and back, and Windows errors as errno values. Private to the folder.
 */
#ifndef BLOBC_PLATFORM_WIN32_H
#define BLOBC_PLATFORM_WIN32_H
#ifdef _WIN32
#include <wchar.h>

/* malloc'd conversions; NULL when out of memory or not valid UTF-8/16. */
wchar_t *blobc_win_wide(const char *s);
char *blobc_win_utf8(const wchar_t *w);
/* The errno value nearest to a GetLastError() code. */
int blobc_win_errno(unsigned long e);
#endif
#endif
