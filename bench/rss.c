/*
 * rss.c - runs a command several times and reports its whole-process wall
 * time and peak resident memory, so the benchmark needs neither GNU time
 * nor hyperfine. Each run gets stdin from a file and a freshly truncated
 * stdout file (both /dev/null by default); stderr passes through.
 *
 *     rss [-n RUNS] [-i IN] [-o OUT] -- COMMAND [ARG...]
 *
 * Prints one line: median, min and max wall seconds, the largest peak RSS
 * of any run in KiB (getrusage ru_maxrss of the child), and the median and
 * min CPU seconds (user + system), which other load on the machine
 * disturbs far less than wall time. Exits 1 when a run fails, naming the run.
 */
#define _DEFAULT_SOURCE /* wait4 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_RUNS 1000

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double tv_seconds(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6; }

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void usage(void) {
    fprintf(stderr, "usage: rss [-n RUNS] [-i IN] [-o OUT] -- COMMAND [ARG...]\n");
    exit(2);
}

/* Replaces descriptor `target` with `path` opened with `flags`; in the child. */
static void redirect(int target, const char *path, int flags) {
    int fd = open(path, flags, 0644);
    if (fd < 0 || dup2(fd, target) < 0) {
        fprintf(stderr, "rss: %s: %s\n", path, strerror(errno));
        _exit(127);
    }
    close(fd);
}

int main(int argc, char **argv) {
    int runs = 1;
    const char *in = "/dev/null", *out = "/dev/null";
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (i + 1 >= argc) usage();
        if (strcmp(argv[i], "-n") == 0) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > MAX_RUNS) usage();
            runs = (int)n;
        } else if (strcmp(argv[i], "-i") == 0) {
            in = argv[++i];
        } else if (strcmp(argv[i], "-o") == 0) {
            out = argv[++i];
        } else {
            usage();
        }
    }
    if (i >= argc) usage();
    char **cmd = argv + i;

    static double wall[MAX_RUNS], cpu[MAX_RUNS];
    long peak_kb = 0;
    for (int r = 0; r < runs; r++) {
        fflush(NULL);
        double t0 = now();
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "rss: fork: %s\n", strerror(errno));
            return 2;
        }
        if (pid == 0) {
            redirect(0, in, O_RDONLY);
            redirect(1, out, O_WRONLY | O_CREAT | O_TRUNC);
            execvp(cmd[0], cmd);
            fprintf(stderr, "rss: %s: %s\n", cmd[0], strerror(errno));
            _exit(127);
        }
        int status;
        struct rusage ru;
        while (wait4(pid, &status, 0, &ru) < 0) {
            if (errno != EINTR) {
                fprintf(stderr, "rss: wait4: %s\n", strerror(errno));
                return 2;
            }
        }
        wall[r] = now() - t0;
        cpu[r] = tv_seconds(ru.ru_utime) + tv_seconds(ru.ru_stime);
        if (ru.ru_maxrss > peak_kb) peak_kb = ru.ru_maxrss;
        if (WIFSIGNALED(status)) {
            fprintf(stderr, "rss: run %d of %s: killed by signal %d\n", r + 1, cmd[0], WTERMSIG(status));
            return 1;
        }
        if (WEXITSTATUS(status) != 0) {
            fprintf(stderr, "rss: run %d of %s: exit status %d\n", r + 1, cmd[0], WEXITSTATUS(status));
            return 1;
        }
    }
    double lo = wall[0], hi = wall[0], cpu_lo = cpu[0];
    for (int r = 1; r < runs; r++) {
        if (wall[r] < lo) lo = wall[r];
        if (wall[r] > hi) hi = wall[r];
        if (cpu[r] < cpu_lo) cpu_lo = cpu[r];
    }
    printf("%.6f %.6f %.6f %ld %.6f %.6f\n", median(wall, runs), lo, hi, peak_kb, median(cpu, runs),
           cpu_lo);
    return 0;
}
