/*
 * fuzz_size.c - libFuzzer target: the size report (`blobc size`) of
 * hostile bytes as a .blob (hash checks bypassed), as raw data of a fixed
 * schema and as the data of a Unity file of it, at the default depth and
 * at 1, 2 and the deepest (so its seeds are the blobs fuzz_dump reads, as
 * they are). Whenever a report is made, each of its three tables must add
 * up to the input's size exactly.
 */
#include <inttypes.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The sum of the "bytes" of the JSON array `key`; UINT64_MAX when absent.
 * Sizes here stay far below 2^53, where cJSON's doubles are exact. */
static uint64_t table_sum(const cJSON *doc, const char *key) {
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(doc, key), *row;
    if (!cJSON_IsArray(a)) return UINT64_MAX;
    uint64_t sum = 0;
    cJSON_ArrayForEach(row, a) {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(row, "bytes");
        if (!cJSON_IsNumber(b)) return UINT64_MAX;
        sum += (uint64_t)b->valuedouble;
    }
    return sum;
}

static void check_sums(const blobc_buffer *out, size_t len) {
    cJSON *doc = cJSON_ParseWithLength((const char *)out->data, out->len);
    static const char *const keys[] = {"kinds", "types", "paths"};
    for (int i = 0; i < 3; i++) {
        uint64_t sum = table_sum(doc, keys[i]);
        if (sum != len) {
            fprintf(stderr, "size: the %s add up to %" PRIu64 " of %zu bytes\n%.*s", keys[i], sum, len,
                    (int)out->len, (const char *)out->data);
            abort();
        }
    }
    cJSON_Delete(doc);
}

/* The text and JSON reports of `bytes` at each depth. */
static void report(const uint8_t *bytes, size_t len, blobc_dump_options *o) {
    static const uint32_t depths[] = {0, 1, 2, BLOBC_SIZE_DEPTH_MAX};
    blobc_buffer out = {0};
    for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++) {
        o->size_depth = depths[d];
        for (int f = BLOBC_DUMP_SIZE; f <= BLOBC_DUMP_SIZE_JSON; f++) {
            blobc_error err;
            blobc_error_clear(&err);
            o->format = (blobc_dump_format)f;
            out.len = 0;
            blobc_status st = blobc_dump(bytes, len, o, &out, &err);
            if (st != BLOBC_OK) { /* refused at one depth: at every depth */
                blobc_buffer_free(&out);
                return;
            }
            if (f == BLOBC_DUMP_SIZE_JSON) check_sums(&out, len);
        }
    }
    blobc_buffer_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t *copy = aligned_alloc(16, (size + 16) & ~(size_t)15);
    if (!copy) return 0;
    if (size) memcpy(copy, data, size);
    blobc_dump_options o = {0};
    o.flags = BLOBC_VERIFY_NO_HASH;
    report(copy, size, &o);
    o.raw = true;
    o.schema = fuzz_schema();
    report(copy, size, &o);
    free(copy);

    blobc_buffer unity = {0};
    blobc_unity_options uo = {0};
    unity.data = malloc(size + 1);
    if (unity.data) {
        if (size) memcpy(unity.data, data, size);
        unity.len = unity.cap = size;
    }
    if (unity.data && blobc_unity_wrap(size, &uo, &unity, NULL) == BLOBC_OK) {
        blobc_dump_options u = {0};
        u.schema = fuzz_schema();
        u.unity = &uo;
        report(unity.data, unity.len, &u);
    }
    blobc_buffer_free(&unity);
    return 0;
}
