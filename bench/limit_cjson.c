/*
 * limit_cjson.c - the JSON parsing floor for `blobc bake`: read the file,
 * build the cJSON tree, free it. Nothing is checked against a schema and
 * nothing is written, so a bake that parses JSON must do at least this
 * much work; bench/run.sh compares the two whole-process.
 *
 *     limit_cjson FILE.json
 */
#include <cjson/cJSON.h>

#include "slurp.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: limit_cjson FILE.json\n");
        return 2;
    }
    size_t len;
    unsigned char *text = slurp("limit_cjson", argv[1], &len);
    cJSON *root = cJSON_ParseWithLength((const char *)text, len);
    if (!root) {
        fprintf(stderr, "limit_cjson: %s: parse error near byte %ld\n", argv[1],
                (long)(cJSON_GetErrorPtr() - (const char *)text));
        return 1;
    }
    /* Something observable, so the parse cannot be optimized away. */
    printf("%d top-level members\n", cJSON_GetArraySize(root));
    cJSON_Delete(root);
    free(text);
    return 0;
}
