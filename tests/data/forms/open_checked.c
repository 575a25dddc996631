/* Opens a blob of tests/data/forms/in/openunion.schema through the
 * checked open of the header gen c made for it (ou.h): verified with the
 * schema text the header holds. Prints "ok" or the verifier's message. */
#include <stdio.h>
#include <stdlib.h>

#include "ou.h"

int main(int argc, char **argv) {
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f) return 2;
    static unsigned char buf[1 << 16] __attribute__((aligned(16)));
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    blobc_error e;
    if (!Root_open_checked(buf, n, &e)) {
        printf("%s\n", e.message);
        return 1;
    }
    printf("ok\n");
    return 0;
}
