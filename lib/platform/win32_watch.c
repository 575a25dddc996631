/*
 * win32_watch.c - watching directories (ReadDirectoryChangesW, or the
 * polling watcher when asked) and the loopback server's sockets
 * (Winsock) on Windows (platform.h).
 */
#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform.h"
#include "platform/watch_poll.h"
#include "platform/win32.h"

/* ---- sockets ---- */

static int wsa_errno(void) {
    int e = WSAGetLastError();
    switch (e) {
    case WSAEWOULDBLOCK: return EAGAIN;
    case WSAEADDRINUSE: return EADDRINUSE;
    case WSAEACCES: return EACCES;
    case WSAECONNRESET:
    case WSAECONNABORTED:
    case WSAENOTCONN:
    case WSAESHUTDOWN: return EPIPE;
    default: return EIO;
    }
}

/* Winsock counts its users: one more for each listener, never released
 * (a process's few listeners live as long as it). */
static int wsa_start(void) {
    WSADATA d;
    return WSAStartup(MAKEWORD(2, 2), &d) == 0 ? 0 : EIO;
}

static int nonblocking(SOCKET s) {
    u_long one = 1;
    return ioctlsocket(s, FIONBIO, &one) == 0 ? 0 : wsa_errno();
}

int blobc_os_listen(const char *ipv4, unsigned *port, blobc_os_socket *out) {
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((u_short)*port);
    if (*port > 65535 || inet_pton(AF_INET, ipv4, &a.sin_addr) != 1) return EINVAL;
    int e = wsa_start();
    if (e) return e;
    SOCKET s = socket(AF_INET, SOCK_STREAM, 0);
    if (s == INVALID_SOCKET) return wsa_errno();
    BOOL excl = TRUE; /* no other program may bind the port under it */
    setsockopt(s, SOL_SOCKET, SO_EXCLUSIVEADDRUSE, (const char *)&excl, sizeof excl);
    int len = sizeof a;
    if (bind(s, (struct sockaddr *)&a, sizeof a) != 0 || listen(s, 16) != 0 ||
        getsockname(s, (struct sockaddr *)&a, &len) != 0)
        e = wsa_errno();
    if (!e) e = nonblocking(s);
    if (e) {
        closesocket(s);
        return e;
    }
    *port = ntohs(a.sin_port);
    *out = (blobc_os_socket)s;
    return 0;
}

int blobc_os_accept(blobc_os_socket listener, blobc_os_socket *c) {
    SOCKET s = accept((SOCKET)listener, NULL, NULL);
    if (s == INVALID_SOCKET) return wsa_errno();
    /* it inherits the listener's event selection (watch_wait): drop it */
    WSAEventSelect(s, NULL, 0);
    BOOL one = TRUE;
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, (const char *)&one, sizeof one);
    int e = nonblocking(s);
    if (e) {
        closesocket(s);
        return e;
    }
    *c = (blobc_os_socket)s;
    return 0;
}

int blobc_os_send(blobc_os_socket s, const void *data, size_t len) {
    const char *p = data;
    while (len) {
        int n = send((SOCKET)s, p, len > INT_MAX ? INT_MAX : (int)len, 0);
        if (n == SOCKET_ERROR) return wsa_errno();
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int blobc_os_recv_discard(blobc_os_socket s) {
    char buf[4096];
    for (int i = 0; i < 16; i++) {
        int n = recv((SOCKET)s, buf, sizeof buf, 0);
        if (n > 0) continue;
        if (n == 0) return EPIPE;
        int e = wsa_errno();
        return e == EAGAIN ? 0 : e;
    }
    return 0;
}

void blobc_os_socket_close(blobc_os_socket s) {
    if (s != BLOBC_OS_NO_SOCKET) closesocket((SOCKET)s);
}

/* ---- the watcher: one overlapped ReadDirectoryChangesW per directory ---- */

/* WaitForMultipleObjects takes 64 handles: one is the listener's. */
#define MAX_DIRS (MAXIMUM_WAIT_OBJECTS - 1)
#define CHANGES                                                                                    \
    (FILE_NOTIFY_CHANGE_FILE_NAME | FILE_NOTIFY_CHANGE_DIR_NAME | FILE_NOTIFY_CHANGE_SIZE |        \
     FILE_NOTIFY_CHANGE_LAST_WRITE | FILE_NOTIFY_CHANGE_CREATION | FILE_NOTIFY_CHANGE_ATTRIBUTES)

/* A directory's own handle is told nothing when the directory is
 * renamed away (the handle follows it), nor when it is removed (Windows
 * keeps a directory pending deletion until its last handle, the watch's,
 * is closed; only newer systems take its name away at once). So every
 * LOOK_MS while waiting, each watched directory's name is looked up: one
 * that no longer names the watched directory (gone, pending deletion,
 * another one made there) is reported whole (name NULL) and let go, as
 * inotify reports a directory's own removal. */
#define LOOK_MS 1000

typedef struct watched {
    char *dir;
    HANDLE h;
    OVERLAPPED ov;
    DWORD buf[16384]; /* FILE_NOTIFY_INFORMATION records, DWORD-aligned */
} watched;

struct blobc_os_watch {
    unsigned poll_ms;
    blobc_poll *poll;
    watched *dirs[MAX_DIRS];
    size_t n;
    double look_at; /* the next look at the watched directories' names */
};

int blobc_os_watch_open(unsigned poll_ms, blobc_os_watch **out) {
    blobc_os_watch *w = calloc(1, sizeof *w);
    if (!w) return ENOMEM;
    w->poll_ms = poll_ms;
    int e = poll_ms ? blobc_poll_open(&w->poll) : 0;
    if (e) {
        free(w);
        return e;
    }
    *out = w;
    return 0;
}

static int arm(watched *d) {
    ResetEvent(d->ov.hEvent);
    if (!ReadDirectoryChangesW(d->h, d->buf, sizeof d->buf, FALSE, CHANGES, NULL, &d->ov, NULL))
        return blobc_win_errno(GetLastError());
    return 0;
}

static void unwatch(watched *d) {
    if (d->h != INVALID_HANDLE_VALUE) {
        CancelIo(d->h);
        DWORD got;
        GetOverlappedResult(d->h, &d->ov, &got, TRUE); /* the buffer is the kernel's until then */
        CloseHandle(d->h);
    }
    d->h = INVALID_HANDLE_VALUE;
}

static int open_dir(watched *d) {
    wchar_t *w = blobc_win_wide(d->dir);
    if (!w) return ENOMEM;
    /* FILE_READ_ATTRIBUTES: the look asks the handle which directory it holds */
    d->h = CreateFileW(w, FILE_LIST_DIRECTORY | FILE_READ_ATTRIBUTES,
                       FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                       NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OVERLAPPED, NULL);
    free(w);
    if (d->h == INVALID_HANDLE_VALUE) return blobc_win_errno(GetLastError());
    int e = arm(d);
    if (e) unwatch(d);
    return e;
}

int blobc_os_watch_add(blobc_os_watch *w, const char *dir) {
    if (w->poll) return blobc_poll_add(w->poll, dir);
    for (size_t i = 0; i < w->n; i++)
        if (strcmp(w->dirs[i]->dir, dir) == 0) {
            unwatch(w->dirs[i]); /* looked at again: it may be a new directory */
            return open_dir(w->dirs[i]);
        }
    if (w->n == MAX_DIRS) return EMFILE;
    watched *d = calloc(1, sizeof *d);
    size_t len = strlen(dir);
    if (!d || !(d->dir = malloc(len + 1))) {
        free(d);
        return ENOMEM;
    }
    memcpy(d->dir, dir, len + 1);
    d->h = INVALID_HANDLE_VALUE;
    d->ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
    int e = d->ov.hEvent ? open_dir(d) : blobc_win_errno(GetLastError());
    if (e) {
        if (d->ov.hEvent) CloseHandle(d->ov.hEvent);
        free(d->dir);
        free(d);
        return e;
    }
    w->dirs[w->n++] = d;
    return 0;
}

/* The records of a finished read, then the next read started. */
static void deliver(watched *d, blobc_os_watch_fn fn, void *ctx) {
    DWORD got = 0;
    if (d->h == INVALID_HANDLE_VALUE) return; /* let go by a look meanwhile */
    if (!GetOverlappedResult(d->h, &d->ov, &got, FALSE) || got == 0) {
        fn(ctx, d->dir, NULL); /* the buffer overflowed, or the directory went */
    } else {
        const char *p = (const char *)d->buf;
        for (;;) {
            const FILE_NOTIFY_INFORMATION *r = (const FILE_NOTIFY_INFORMATION *)(const void *)p;
            size_t wn = r->FileNameLength / sizeof(WCHAR);
            wchar_t *w = malloc((wn + 1) * sizeof *w);
            char *name = NULL;
            if (w) {
                memcpy(w, r->FileName, wn * sizeof *w);
                w[wn] = 0;
                name = blobc_win_utf8(w);
                free(w);
            }
            fn(ctx, d->dir, name); /* NULL (all) when it could not be converted */
            free(name);
            if (!r->NextEntryOffset) break;
            p += r->NextEntryOffset;
        }
    }
    if (arm(d) != 0) unwatch(d);
}

/* The look of LOOK_MS: a watched directory whose name is gone (or, pending
 * deletion, cannot be opened) or names another directory is reported whole
 * and let go. */
static void look(blobc_os_watch *w, blobc_os_watch_fn fn, void *ctx) {
    for (size_t i = 0; i < w->n; i++) {
        watched *d = w->dirs[i];
        blobc_os_info named, held;
        /* a handle that cannot say what it holds: nothing can be told */
        if (d->h == INVALID_HANDLE_VALUE || blobc_os_fstat((blobc_os_fd)d->h, &held) != 0) continue;
        if (blobc_os_stat(d->dir, &named) == 0 && blobc_os_same_file(&named, &held)) continue;
        unwatch(d); /* a directory pending deletion goes now */
        fn(ctx, d->dir, NULL);
    }
    w->look_at = blobc_os_monotonic() + LOOK_MS / 1000.0;
}

/* Polling: sleep (or wait for the listener) a period at a time. */
static int poll_wait(blobc_os_watch *w, int timeout_ms, HANDLE sock_ev, bool *incoming,
                     blobc_os_watch_fn fn, void *ctx) {
    double end = blobc_os_monotonic() + timeout_ms / 1000.0;
    for (;;) {
        int left = timeout_ms < 0 ? (int)w->poll_ms : (int)((end - blobc_os_monotonic()) * 1000);
        DWORD ms = left < 0 ? 0 : left < (int)w->poll_ms ? (DWORD)left : w->poll_ms;
        if (sock_ev) *incoming = WaitForSingleObject(sock_ev, ms) == WAIT_OBJECT_0;
        else Sleep(ms);
        int changes = blobc_poll_scan(w->poll, fn, ctx);
        if (changes < 0) return ENOMEM;
        if (changes || *incoming || (timeout_ms >= 0 && blobc_os_monotonic() >= end)) return 0;
    }
}

int blobc_os_watch_wait(blobc_os_watch *w, int timeout_ms, blobc_os_socket listener, bool *incoming,
                        blobc_os_watch_fn fn, void *ctx) {
    *incoming = false;
    HANDLE sock_ev = NULL;
    if (listener != BLOBC_OS_NO_SOCKET) {
        if (!(sock_ev = WSACreateEvent())) return ENOMEM;
        WSAEventSelect((SOCKET)listener, sock_ev, FD_ACCEPT);
    }
    int e = 0;
    if (w->poll) {
        e = poll_wait(w, timeout_ms, sock_ev, incoming, fn, ctx);
    } else {
        HANDLE hs[MAXIMUM_WAIT_OBJECTS];
        watched *of[MAXIMUM_WAIT_OBJECTS];
        DWORD n = 0;
        for (size_t i = 0; i < w->n; i++)
            if (w->dirs[i]->h != INVALID_HANDLE_VALUE) {
                of[n] = w->dirs[i];
                hs[n++] = w->dirs[i]->ov.hEvent;
            }
        bool dirs = n > 0;
        if (sock_ev) hs[n++] = sock_ev;
        DWORD ms = timeout_ms < 0 ? INFINITE : (DWORD)timeout_ms;
        if (dirs) { /* woken in time for the next look (a shorter wait: allowed) */
            double left = (w->look_at - blobc_os_monotonic()) * 1000;
            DWORD until = left <= 0 ? 0 : (DWORD)left + 1;
            if (until < ms) ms = until;
        }
        DWORD r = n ? WaitForMultipleObjects(n, hs, FALSE, ms) : (Sleep(ms), WAIT_TIMEOUT);
        if (r == WAIT_FAILED) e = blobc_win_errno(GetLastError());
        /* every handle that is signalled, not only the first */
        for (DWORD i = 0; !e && r != WAIT_TIMEOUT && i < n; i++) {
            if (WaitForSingleObject(hs[i], 0) != WAIT_OBJECT_0) continue;
            if (hs[i] == sock_ev) *incoming = true;
            else deliver(of[i], fn, ctx);
        }
        if (!e && dirs && blobc_os_monotonic() >= w->look_at) look(w, fn, ctx);
    }
    if (sock_ev) {
        WSAEventSelect((SOCKET)listener, NULL, 0);
        WSACloseEvent(sock_ev);
        nonblocking((SOCKET)listener);
    }
    return e;
}

void blobc_os_watch_close(blobc_os_watch *w) {
    if (!w) return;
    for (size_t i = 0; i < w->n; i++) {
        unwatch(w->dirs[i]);
        CloseHandle(w->dirs[i]->ov.hEvent);
        free(w->dirs[i]->dir);
        free(w->dirs[i]);
    }
    blobc_poll_close(w->poll);
    free(w);
}
#endif
