/*
 * blobc/notify.h - the client of `blobc watch --notify`, header-only: a
 * game includes it (it links nothing of blobc) and calls blobc_notify_poll
 * once a frame; the call never blocks. On Windows link ws2_32.
 *
 * The protocol (blobc(1), watch; docs/WATCH.md): the server speaks, the client only
 * reads. Each published output is one line,
 *
 *     GENERATION PATH HASH\n
 *
 * GENERATION a decimal number that grows by one with every output
 * published; PATH the output's name as blobc wrote it, with '%', bytes
 * below 0x20 and 0x7f written as %XX; HASH the XXH3-128 of the file's
 * bytes, 32 lowercase hex digits (what `xxh128sum` prints). A client that
 * connects is first sent the last line of every output published so far.
 *
 *     blobc_notify c;
 *     blobc_notify_init(&c, "127.0.0.1", 7777);
 *     ... each frame:
 *     blobc_notice n;
 *     while (blobc_notify_poll(&c, &n) == 1) reload(n.path);
 *     ... at the end: blobc_notify_close(&c);
 *
 * Stability: experimental: the names may still change between minor
 * releases; the line format is stable.
 */
#ifndef BLOBC_NOTIFY_H
#define BLOBC_NOTIFY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>
typedef SOCKET blobc_notify_socket_;
#define BLOBC_NOTIFY_NO_SOCKET_ INVALID_SOCKET
#define blobc_notify_closesocket_ closesocket
#else
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
typedef int blobc_notify_socket_;
#define BLOBC_NOTIFY_NO_SOCKET_ (-1)
#define blobc_notify_closesocket_ close
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define BLOBC_NOTIFY_PATH_MAX 4096

/* One published output. */
typedef struct blobc_notice {
    unsigned long long generation;
    char path[BLOBC_NOTIFY_PATH_MAX]; /* decoded */
    char hash[33];                    /* 32 hex digits */
} blobc_notice;

typedef struct blobc_notify {
    blobc_notify_socket_ sock;
    int connecting;        /* a connect under way */
    int skipping;          /* in a line too long to keep: dropped up to its end */
    time_t last_try;       /* reconnects at most once a second */
    struct sockaddr_in addr;
    size_t len;
    char buf[BLOBC_NOTIFY_PATH_MAX * 3 + 64];
} blobc_notify;

/* Parses one line (without its '\n'); 1 when it is a notice, else 0. */
static inline int blobc_notify_parse(const char *line, size_t len, blobc_notice *n) {
    const char *end = line + len, *sp1 = (const char *)memchr(line, ' ', len), *sp2 = end;
    size_t o = 0;
    if (!sp1 || sp1 == line || len < 34 || end[-33] != ' ') return 0;
    sp2 = end - 33;
    if (sp2 <= sp1 + 1) return 0;
    n->generation = 0;
    for (const char *p = line; p < sp1; p++) {
        if (*p < '0' || *p > '9' || n->generation > (~0ull - 9) / 10) return 0;
        n->generation = n->generation * 10 + (unsigned)(*p - '0');
    }
    for (const char *p = sp1 + 1; p < sp2; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '%') {
            unsigned v = 0;
            for (int k = 1; k <= 2; k++) {
                char h = p + k < sp2 ? p[k] : 'x';
                v = v * 16 + (unsigned)(h >= '0' && h <= '9'   ? h - '0'
                                        : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                        : h >= 'a' && h <= 'f' ? h - 'a' + 10
                                                               : 256);
            }
            if (v > 255) return 0;
            c = (unsigned char)v;
            p += 2;
        }
        if (o + 1 >= sizeof n->path) return 0;
        n->path[o++] = (char)c;
    }
    n->path[o] = '\0';
    for (int k = 0; k < 32; k++) {
        char h = sp2[1 + k];
        if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f'))) return 0;
        n->hash[k] = h;
    }
    n->hash[32] = '\0';
    return 1;
}

/* Where the server is: an IPv4 address ("127.0.0.1") or "localhost".
 * Nothing is connected yet; 0 when the address cannot be read. */
static inline int blobc_notify_init(blobc_notify *c, const char *host, unsigned port) {
    memset(c, 0, sizeof *c);
    c->sock = BLOBC_NOTIFY_NO_SOCKET_;
    c->addr.sin_family = AF_INET;
    c->addr.sin_port = htons((unsigned short)port);
    if (strcmp(host, "localhost") == 0) host = "127.0.0.1";
    return port <= 65535 && inet_pton(AF_INET, host, &c->addr.sin_addr) == 1;
}

static inline void blobc_notify_close(blobc_notify *c) {
    if (c->sock != BLOBC_NOTIFY_NO_SOCKET_) blobc_notify_closesocket_(c->sock);
    c->sock = BLOBC_NOTIFY_NO_SOCKET_;
    c->connecting = 0;
    c->len = 0;
    c->skipping = 0;
}

/* Starts a connection without waiting for it. */
static inline void blobc_notify_connect_(blobc_notify *c) {
    time_t now = time(NULL);
    if (c->last_try && now - c->last_try < 1) return;
    c->last_try = now;
    c->sock = socket(AF_INET, SOCK_STREAM, 0);
    if (c->sock == BLOBC_NOTIFY_NO_SOCKET_) return;
#ifdef _WIN32
    u_long nb = 1;
    ioctlsocket(c->sock, FIONBIO, &nb);
    int r = connect(c->sock, (const struct sockaddr *)&c->addr, sizeof c->addr);
    int pending = r != 0 && WSAGetLastError() == WSAEWOULDBLOCK;
#else
    fcntl(c->sock, F_SETFL, fcntl(c->sock, F_GETFL) | O_NONBLOCK);
    fcntl(c->sock, F_SETFD, FD_CLOEXEC);
    int r = connect(c->sock, (const struct sockaddr *)&c->addr, sizeof c->addr);
    int pending = r != 0 && errno == EINPROGRESS;
#endif
    if (r != 0 && !pending) blobc_notify_close(c);
    else c->connecting = pending;
}

/* Whether the connection under way is made: 1 made, 0 not yet, -1 failed. */
static inline int blobc_notify_connected_(blobc_notify *c) {
    int err = 0;
#ifdef _WIN32
    fd_set w, x;
    struct timeval tv = {0, 0};
    FD_ZERO(&w);
    FD_ZERO(&x);
    FD_SET(c->sock, &w);
    FD_SET(c->sock, &x);
    if (select(0, NULL, &w, &x, &tv) <= 0) return 0;
    int elen = sizeof err;
    getsockopt(c->sock, SOL_SOCKET, SO_ERROR, (char *)&err, &elen);
    if (FD_ISSET(c->sock, &x) && !err) err = 1;
#else
    struct pollfd p;
    p.fd = c->sock;
    p.events = POLLOUT;
    p.revents = 0;
    if (poll(&p, 1, 0) <= 0) return 0;
    socklen_t elen = sizeof err;
    getsockopt(c->sock, SOL_SOCKET, SO_ERROR, &err, &elen);
#endif
    return err ? -1 : 1;
}

/* Reads what has arrived (never waits): 1 more, 0 nothing now, -1 gone. */
static inline int blobc_notify_read_(blobc_notify *c) {
    if (c->len == sizeof c->buf) return 1;
#ifdef _WIN32
    int n = recv(c->sock, c->buf + c->len, (int)(sizeof c->buf - c->len), 0);
    if (n < 0) return WSAGetLastError() == WSAEWOULDBLOCK ? 0 : -1;
#else
    ssize_t n = recv(c->sock, c->buf + c->len, sizeof c->buf - c->len, 0);
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
#endif
    if (n == 0) return -1;
    c->len += (size_t)n;
    return 1;
}

/* The next notice, without blocking: 1 when *n holds one, 0 when none has
 * arrived (or the server is not there: the call connects, and after the
 * server went reconnects, trying once a second). */
static inline int blobc_notify_poll(blobc_notify *c, blobc_notice *n) {
    if (c->sock == BLOBC_NOTIFY_NO_SOCKET_) blobc_notify_connect_(c);
    if (c->sock == BLOBC_NOTIFY_NO_SOCKET_) return 0;
    if (c->connecting) {
        int r = blobc_notify_connected_(c);
        if (r < 0) blobc_notify_close(c);
        if (r <= 0) return 0;
        c->connecting = 0;
    }
    for (;;) {
        char *nl = (char *)memchr(c->buf, '\n', c->len);
        if (nl) {
            size_t line = (size_t)(nl - c->buf);
            int ok = !c->skipping && blobc_notify_parse(c->buf, line, n);
            c->skipping = 0;
            memmove(c->buf, nl + 1, c->len - line - 1);
            c->len -= line + 1;
            if (ok) return 1;
            continue;
        }
        if (c->len == sizeof c->buf) { /* a line longer than any notice */
            c->skipping = 1;
            c->len = 0;
        }
        int r = blobc_notify_read_(c);
        if (r < 0) blobc_notify_close(c);
        if (r <= 0) return 0;
    }
}

#ifdef __cplusplus
}
#endif
#endif
