/*
 * posix_watch.c - watching directories (inotify on Linux, the polling
 * watcher elsewhere) and the loopback server's sockets on POSIX systems
 * (platform.h).
 */
#ifndef _WIN32
#define _GNU_SOURCE /* MSG_NOSIGNAL, inotify_init1 on older C libraries */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/inotify.h>
#endif

#include "platform/platform.h"
#include "platform/watch_poll.h"

/* ---- sockets ---- */

static int nonblocking(int fd) {
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) return errno;
    return fcntl(fd, F_SETFD, FD_CLOEXEC) < 0 ? errno : 0;
}

int blobc_os_listen(const char *ipv4, unsigned *port, blobc_os_socket *s) {
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)*port);
    if (*port > 65535 || inet_pton(AF_INET, ipv4, &a.sin_addr) != 1) return EINVAL;
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1, e = 0;
    if (fd < 0) return errno;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    socklen_t len = sizeof a;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 16) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &len) != 0)
        e = errno;
    if (!e) e = nonblocking(fd);
    if (e) {
        close(fd);
        return e;
    }
    *port = ntohs(a.sin_port);
    *s = fd;
    return 0;
}

int blobc_os_accept(blobc_os_socket listener, blobc_os_socket *c) {
    int fd = accept((int)listener, NULL, NULL), one = 1;
    if (fd < 0) return errno == EWOULDBLOCK ? EAGAIN : errno;
    int e = nonblocking(fd);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
#if !defined(MSG_NOSIGNAL) && defined(SO_NOSIGPIPE)
    setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
    if (e) {
        close(fd);
        return e;
    }
    *c = fd;
    return 0;
}

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0 /* SO_NOSIGPIPE instead (accept) */
#endif

int blobc_os_send(blobc_os_socket s, const void *data, size_t len) {
    const char *p = data;
    while (len) {
        ssize_t n = send((int)s, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno == EWOULDBLOCK ? EAGAIN : errno;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int blobc_os_recv_discard(blobc_os_socket s) {
    char buf[4096];
    for (int i = 0; i < 16; i++) {
        ssize_t n = recv((int)s, buf, sizeof buf, 0);
        if (n > 0 || (n < 0 && errno == EINTR)) continue;
        if (n == 0) return EPIPE;
        return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : errno;
    }
    return 0;
}

void blobc_os_socket_close(blobc_os_socket s) {
    if (s != BLOBC_OS_NO_SOCKET) close((int)s);
}

/* ---- the watcher ---- */

typedef struct watched {
    char *dir;
    int wd; /* inotify's watch descriptor; -1 when gone */
} watched;

struct blobc_os_watch {
    int fd;          /* inotify; -1 when polling */
    unsigned poll_ms;
    blobc_poll *poll;
    watched *dirs;
    size_t n;
};

int blobc_os_watch_open(unsigned poll_ms, blobc_os_watch **out) {
    blobc_os_watch *w = calloc(1, sizeof *w);
    if (!w) return ENOMEM;
    w->fd = -1;
#ifdef __linux__
    if (!poll_ms) {
        w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (w->fd < 0) {
            int e = errno;
            free(w);
            return e;
        }
        *out = w;
        return 0;
    }
#endif
    w->poll_ms = poll_ms ? poll_ms : 250;
    int e = blobc_poll_open(&w->poll);
    if (e) {
        free(w);
        return e;
    }
    *out = w;
    return 0;
}

#ifdef __linux__
/* Every event that can change what a file holds, or which file a name is:
 * a rename over the name (an editor's save) is IN_MOVED_TO; and the
 * directory itself removed or renamed away (its watch would otherwise
 * follow it to its new name, or be gone without a word). */
#define EVENTS                                                                                 \
    (IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE |          \
     IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

static int inotify_add(blobc_os_watch *w, const char *dir) {
    int wd = inotify_add_watch(w->fd, dir, EVENTS);
    if (wd < 0) return errno;
    for (size_t i = 0; i < w->n; i++)
        if (strcmp(w->dirs[i].dir, dir) == 0) {
            w->dirs[i].wd = wd;
            return 0;
        }
    watched *bigger = realloc(w->dirs, (w->n + 1) * sizeof *bigger);
    if (!bigger) return ENOMEM;
    w->dirs = bigger;
    size_t len = strlen(dir);
    if (!(w->dirs[w->n].dir = malloc(len + 1))) return ENOMEM;
    memcpy(w->dirs[w->n].dir, dir, len + 1);
    w->dirs[w->n++].wd = wd;
    return 0;
}

/* Hands each event to every spelling of its directory. A directory that
 * went (removed, renamed away) is no longer watched, and every entry of
 * its name may have changed. */
static void deliver(blobc_os_watch *w, const struct inotify_event *ev, blobc_os_watch_fn fn,
                    void *ctx) {
    bool gone = ev->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF);
    if (ev->mask & IN_MOVE_SELF) inotify_rm_watch(w->fd, ev->wd);
    for (size_t i = 0; i < w->n; i++) {
        if (ev->mask & IN_Q_OVERFLOW) {
            fn(ctx, w->dirs[i].dir, NULL);
        } else if (w->dirs[i].wd == ev->wd && gone) {
            w->dirs[i].wd = -1;
            fn(ctx, w->dirs[i].dir, NULL);
        } else if (w->dirs[i].wd == ev->wd && ev->len) {
            fn(ctx, w->dirs[i].dir, ev->name);
        }
    }
}

static int inotify_drain(blobc_os_watch *w, blobc_os_watch_fn fn, void *ctx) {
    _Alignas(struct inotify_event) char buf[16384];
    for (;;) {
        ssize_t n = read(w->fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno == EAGAIN ? 0 : errno;
        for (ssize_t off = 0; off < n;) {
            const struct inotify_event *ev = (const struct inotify_event *)(void *)(buf + off);
            deliver(w, ev, fn, ctx);
            off += (ssize_t)(sizeof *ev + ev->len);
        }
    }
}
#endif

int blobc_os_watch_add(blobc_os_watch *w, const char *dir) {
#ifdef __linux__
    if (w->fd >= 0) return inotify_add(w, dir);
#endif
    return blobc_poll_add(w->poll, dir);
}

/* Waits on the event descriptor (-1: none) and the listener. */
static int wait_fds(int fd, blobc_os_socket listener, int timeout_ms, bool *incoming, bool *ready) {
    struct pollfd p[2];
    nfds_t n = 0;
    if (fd >= 0) p[n++] = (struct pollfd){fd, POLLIN, 0};
    if (listener != BLOBC_OS_NO_SOCKET) p[n++] = (struct pollfd){(int)listener, POLLIN, 0};
    int r = poll(p, n, timeout_ms);
    if (r < 0) return errno;
    *ready = fd >= 0 && (p[0].revents & POLLIN);
    *incoming = listener != BLOBC_OS_NO_SOCKET && (p[n - 1].revents & POLLIN);
    return 0;
}

/* Polling: sleep (or wait for the listener) a period at a time until a
 * listing differs or the time is up. */
static int poll_wait(blobc_os_watch *w, int timeout_ms, blobc_os_socket listener, bool *incoming,
                     blobc_os_watch_fn fn, void *ctx) {
    double end = blobc_os_monotonic() + timeout_ms / 1000.0;
    for (;;) {
        int left = timeout_ms < 0 ? (int)w->poll_ms : (int)((end - blobc_os_monotonic()) * 1000);
        if (left < 0) left = 0;
        bool ready;
        int e = wait_fds(-1, listener, left < (int)w->poll_ms ? left : (int)w->poll_ms, incoming, &ready);
        if (e) return e;
        int changes = blobc_poll_scan(w->poll, fn, ctx);
        if (changes < 0) return ENOMEM;
        if (changes || *incoming || (timeout_ms >= 0 && blobc_os_monotonic() >= end)) return 0;
    }
}

int blobc_os_watch_wait(blobc_os_watch *w, int timeout_ms, blobc_os_socket listener, bool *incoming,
                        blobc_os_watch_fn fn, void *ctx) {
    *incoming = false;
    if (w->fd < 0) return poll_wait(w, timeout_ms, listener, incoming, fn, ctx);
#ifdef __linux__
    bool ready;
    int e = wait_fds(w->fd, listener, timeout_ms, incoming, &ready);
    if (e) return e;
    return ready ? inotify_drain(w, fn, ctx) : 0;
#else
    return ENOSYS;
#endif
}

void blobc_os_watch_close(blobc_os_watch *w) {
    if (!w) return;
    if (w->fd >= 0) close(w->fd);
    blobc_poll_close(w->poll);
    for (size_t i = 0; i < w->n; i++) free(w->dirs[i].dir);
    free(w->dirs);
    free(w);
}
#endif
