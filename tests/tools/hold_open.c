/*
 * hold_open.c - holds FILE open the way a game or an editor that loaded it
 * does, until the file STOP exists (or 60 s pass): on Windows without
 * FILE_SHARE_DELETE, so that the file cannot be replaced meanwhile. Writes
 * "held" to standard output once the file is open.
 * tests/windows/cases.sh checks that blobc then refuses to replace it with
 * a clear message and leaves it as it was.
 *
 *   usage: hold_open FILE STOP
 */
#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif
#include <stdio.h>

static int exists(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f) fclose(f);
    return f != NULL;
}

static void nap(void) {
#ifdef _WIN32
    Sleep(20);
#else
    struct timespec ts = {0, 20000000};
    nanosleep(&ts, NULL);
#endif
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: hold_open FILE STOP\n");
        return 2;
    }
#ifdef _WIN32
    HANDLE h = CreateFileA(argv[1], GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
                           FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        fprintf(stderr, "hold_open: cannot open %s (error %lu)\n", argv[1], GetLastError());
        return 1;
    }
#else
    FILE *h = fopen(argv[1], "rb");
    if (!h) {
        perror(argv[1]);
        return 1;
    }
#endif
    printf("held\n");
    fflush(stdout);
    for (int i = 0; i < 3000 && !exists(argv[2]); i++) nap();
#ifdef _WIN32
    CloseHandle(h);
#else
    fclose(h);
#endif
    return 0;
}
