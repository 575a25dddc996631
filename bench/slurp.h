/*
 * slurp.h - whole-file read for the limit programs, done the way blobc
 * reads its input (one malloc'd buffer, read() until EOF), so a limit
 * program pays the same I/O cost as the command it is compared with.
 */
#ifndef BENCH_SLURP_H
#define BENCH_SLURP_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The contents of `path` plus one NUL byte (not counted in *len); exits
 * with status 2 and a message on any failure. */
static inline unsigned char *slurp(const char *prog, const char *path, size_t *len) {
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
        exit(2);
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    unsigned char *buf = malloc(cap);
    if (!buf) {
        fprintf(stderr, "%s: %s: out of memory\n", prog, path);
        exit(2);
    }
    for (;;) {
        if (n == cap - 1) {
            /* The file grew since fstat: keep going. */
            unsigned char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                fprintf(stderr, "%s: %s: out of memory\n", prog, path);
                exit(2);
            }
            buf = bigger;
            cap *= 2;
        }
        ssize_t got = read(fd, buf + n, cap - 1 - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
            exit(2);
        }
        if (got == 0) break;
        n += (size_t)got;
    }
    close(fd);
    buf[n] = '\0';
    *len = n;
    return buf;
}

#endif
