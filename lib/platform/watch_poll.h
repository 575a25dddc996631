/*
 * platform/watch_poll.h - watching directories by listing them again and
 * again (watch_poll.c): what posix_watch.c and win32_watch.c fall back on
 * when asked to poll, or where the system has no change events. Private to
 * the folder.
 */
#ifndef BLOBC_PLATFORM_WATCH_POLL_H
#define BLOBC_PLATFORM_WATCH_POLL_H

#include "platform/platform.h"

typedef struct blobc_poll blobc_poll;
int blobc_poll_open(blobc_poll **p);
/* Lists dir now (a directory already polled is left as it is). */
int blobc_poll_add(blobc_poll *p, const char *dir);
/* Lists every directory again and reports each entry that appeared,
 * went, or changed size, time or identity since the last listing; the
 * number of changes reported, or -1 when out of memory. */
int blobc_poll_scan(blobc_poll *p, blobc_os_watch_fn fn, void *ctx);
void blobc_poll_close(blobc_poll *p);

#endif
