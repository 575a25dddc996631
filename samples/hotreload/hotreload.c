/*
 * hotreload.c - what a game does with `blobc watch --notify`: it keeps the
 * level blob mapped, polls the notify client once a frame (never
 * blocking), and when a new level is published maps the new file, checks
 * it, and swaps it in; the old mapping is let go only then. blobc
 * publishes by renaming a whole new file over the name, so the mapping in
 * use is never written to and the game never sees half a blob.
 *
 * It links nothing of blobc: the header `blobc gen c schemas/level.schema`
 * writes, the header-only runtime and <blobc/notify.h>.
 *
 *   usage: hotreload HOST:PORT LEVEL.blob [SWAPS]
 *
 * Prints one line per level it swaps in, and ends after SWAPS swaps (or
 * runs until interrupted). The first notice for LEVEL.blob counts too: a
 * client that connects is sent the last state of every output.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/notify.h"
#include "level.h"

#ifdef _WIN32
#include <windows.h>
static void frame_sleep(void) { Sleep(16); }
#else
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
static void frame_sleep(void) {
    struct timespec ts = {0, 16 * 1000000L};
    nanosleep(&ts, NULL);
}
#endif

/* A file mapped read-only. */
typedef struct mapped {
    const void *data;
    size_t len;
} mapped;

static int map_file(const char *path, mapped *m) {
#ifdef _WIN32
    HANDLE f = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           NULL, OPEN_EXISTING, 0, NULL);
    if (f == INVALID_HANDLE_VALUE) return 0;
    LARGE_INTEGER size;
    HANDLE map = GetFileSizeEx(f, &size) && size.QuadPart > 0
                     ? CreateFileMappingA(f, NULL, PAGE_READONLY, 0, 0, NULL)
                     : NULL;
    CloseHandle(f);
    if (!map) return 0;
    m->data = MapViewOfFile(map, FILE_MAP_READ, 0, 0, 0);
    CloseHandle(map);
    m->len = (size_t)size.QuadPart;
    return m->data != NULL;
#else
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    struct stat st;
    void *p = MAP_FAILED;
    if (fstat(fileno(f), &st) == 0 && st.st_size > 0)
        p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fileno(f), 0);
    fclose(f);
    if (p == MAP_FAILED) return 0;
    m->data = p;
    m->len = (size_t)st.st_size;
    return 1;
#endif
}

static void unmap_file(mapped *m) {
    if (!m->data) return;
#ifdef _WIN32
    UnmapViewOfFile(m->data);
#else
    munmap((void *)m->data, m->len);
#endif
    m->data = NULL;
}

/* "127.0.0.1:7777" -> host, port */
static int split(const char *spec, char *host, size_t cap, unsigned *port) {
    const char *colon = strrchr(spec, ':');
    if (!colon || (size_t)(colon - spec) >= cap) return 0;
    memcpy(host, spec, (size_t)(colon - spec));
    host[colon - spec] = '\0';
    char *end;
    unsigned long p = strtoul(colon + 1, &end, 10);
    *port = (unsigned)p;
    return *end == '\0' && p > 0 && p < 65536;
}

int main(int argc, char **argv) {
    char host[64];
    unsigned port;
    if (argc < 3 || argc > 4 || !split(argv[1], host, sizeof host, &port)) {
        fprintf(stderr, "usage: hotreload HOST:PORT LEVEL.blob [SWAPS]\n");
        return 2;
    }
    long swaps_left = argc == 4 ? strtol(argv[3], NULL, 10) : -1;
#ifdef _WIN32
    WSADATA wsa;
    WSAStartup(MAKEWORD(2, 2), &wsa);
#endif
    blobc_notify client;
    if (!blobc_notify_init(&client, host, port)) {
        fprintf(stderr, "hotreload: '%s' is not an IPv4 address or localhost\n", host);
        return 2;
    }
    mapped live = {NULL, 0};
    const Level *level = NULL;
    while (swaps_left != 0) {
        blobc_notice n;
        while (swaps_left != 0 && blobc_notify_poll(&client, &n) == 1) {
            if (strcmp(n.path, argv[2]) != 0) continue;
            mapped next = {NULL, 0};
            blobc_rt_status st;
            const Level *l = map_file(n.path, &next) ? Level_open(next.data, next.len, &st) : NULL;
            if (!l) { /* keep playing the level we have */
                if (next.data) unmap_file(&next);
                printf("generation %llu: %s: not a level; kept the one in use\n", n.generation, n.path);
                fflush(stdout);
                continue;
            }
            unmap_file(&live);
            live = next;
            level = l;
            size_t nrooms;
            Level_rooms(level, &nrooms);
            printf("generation %llu: level %" PRId32 " \"%s\", %zu rooms, hash %s\n", n.generation,
                   level->index, Level_name(level), nrooms, n.hash);
            fflush(stdout);
            if (swaps_left > 0) swaps_left--;
        }
        frame_sleep(); /* the rest of the frame */
    }
    unmap_file(&live);
    blobc_notify_close(&client);
    return 0;
}
