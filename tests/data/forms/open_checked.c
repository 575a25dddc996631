/* Opens a blob through the checked open of the header gen c made for its
 * schema (HEADER, root type ROOT): verified against the schema text the
 * header holds. Prints "ok" or the verifier's message. C11 and C++17. */
#include <stdio.h>
#include <stdlib.h>

#include HEADER

#define OPEN_CHECKED_(r) r##_open_checked
#define OPEN_CHECKED(r) OPEN_CHECKED_(r)

static unsigned char buf[1 << 16] __attribute__((aligned(16)));

int main(int argc, char **argv) {
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f) return 2;
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    blobc_error e;
    if (!OPEN_CHECKED(ROOT)(buf, n, &e)) {
        printf("%s\n", e.message);
        return 1;
    }
    printf("ok\n");
    return 0;
}
