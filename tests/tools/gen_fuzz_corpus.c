/*
 * gen_fuzz_corpus.c - writes the blob seeds of the verify and dump fuzz
 * targets: every bake seed (tests/fuzz/corpus/fuzz_bake, the first byte
 * picks YAML or JSON) that bakes against the fuzz schema, as a whole .blob
 * (NAME.blob) and as a raw data section (NAME.raw).
 *
 *   gen_fuzz_corpus SEED_DIR OUT_DIR
 *
 * tests/cli/fuzz_corpus.sh checks that a fresh run gives the committed
 * files; after a deliberate format change, regenerate them with
 * build/tools/gen_fuzz_corpus tests/fuzz/corpus/fuzz_bake tests/fuzz/corpus/fuzz_verify
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fuzz/fuzz_common.h"

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int write_file(const char *dir, const char *name, const char *ext, const blobc_buffer *b) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->data, 1, b->len, f) != b->len || fclose(f) != 0) {
        fprintf(stderr, "gen_fuzz_corpus: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

/* Bakes one seed both ways; a seed that does not bake is skipped. */
static int one(const char *seeds, const char *name, const char *out) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", seeds, name);
    uint8_t *data = NULL;
    size_t len = 0;
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_read_file(path, &data, &len, &err) != BLOBC_OK || len < 1) {
        free(data);
        fprintf(stderr, "gen_fuzz_corpus: cannot read %s\n", path);
        return 1;
    }
    int rc = 0;
    for (int raw = 0; raw <= 1 && !rc; raw++) {
        blobc_bake_options o = {0};
        o.schema = fuzz_schema();
        o.input = (data[0] & 1) ? BLOBC_INPUT_JSON : BLOBC_INPUT_YAML;
        o.output = raw ? BLOBC_OUTPUT_RAW : BLOBC_OUTPUT_BLOB;
        blobc_buffer b = {0};
        if (blobc_bake_memory((const char *)data + 1, len - 1, name, &o, &b, &err) == BLOBC_OK)
            rc = write_file(out, name, raw ? "raw" : "blob", &b);
        blobc_buffer_free(&b);
    }
    free(data);
    return rc;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: gen_fuzz_corpus SEED_DIR OUT_DIR\n");
        return 2;
    }
    DIR *d = opendir(argv[1]);
    if (!d) {
        fprintf(stderr, "gen_fuzz_corpus: cannot open %s\n", argv[1]);
        return 2;
    }
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < 256)
        if (e->d_name[0] != '.' && (names[n] = strdup(e->d_name)) != NULL) n++;
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (!rc) rc = one(argv[1], names[i], argv[2]);
        free(names[i]);
    }
    return rc;
}
