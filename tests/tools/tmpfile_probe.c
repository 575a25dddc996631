/*
 * tmpfile_probe.c - exits 0 when DIR's file system can create unnamed
 * files (O_TMPFILE) and give them a name (linkat through /proc), the way
 * blobc writes outputs; 1 when it cannot, so that a test relying on it
 * can be skipped and say why.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: tmpfile_probe DIR\n");
        return 2;
    }
#ifdef O_TMPFILE
    int fd = open(argv[1], O_TMPFILE | O_WRONLY, 0600);
    if (fd < 0) return 1;
    char proc[64], name[4096];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    snprintf(name, sizeof name, "%s/.tmpfile_probe.%d", argv[1], (int)getpid());
    int ok = linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0;
    if (ok) unlink(name);
    close(fd);
    return ok ? 0 : 1;
#else
    return 1;
#endif
}
