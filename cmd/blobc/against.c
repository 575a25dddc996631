/*
 * against.c - blobc verify --against SRC BLOB: is a committed blob what
 * its source bakes to today? SRC is baked afresh (with the options the
 * blob was baked with: stripped or not) and compared byte for byte; when
 * they differ, the first differing value is named by its schema path,
 * found by walking both layout maps (blobc dump --map) side by side.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One value line of a layout map: "rooms[0].radius: f32 = 6.25". Offsets
 * ("-> 0x1dc, 5 bytes") are left out, since an earlier change moves every
 * payload after it; padding and section lines are skipped. */
typedef struct map_value {
    char *text;
} map_value;

typedef struct map_values {
    map_value *v;
    size_t n, cap;
} map_values;

static bool is_hex_byte(const char *s, size_t n) {
    return n == 2 && strchr("0123456789abcdef", s[0]) && strchr("0123456789abcdef", s[1]);
}

/* The description column of a data line: after the offset, the size and
 * the hex bytes. NULL for lines that are not values. */
static char *describe(const char *line, size_t n) {
    size_t i = 0, field = 0;
    while (i < n) {
        while (i < n && line[i] == ' ') i++;
        size_t start = i;
        while (i < n && line[i] != ' ') i++;
        if (field++ >= 2 && !is_hex_byte(line + start, i - start)) {
            i = start;
            break;
        }
    }
    if (i >= n) return NULL;
    char *d = cli_strndup(line + i, n - i);
    if (d && strstr(d, "(padding)")) {
        free(d);
        return NULL;
    }
    char *arrow = d ? strstr(d, "-> 0x") : NULL;
    if (arrow) {
        /* "-> 0x1dc, 5 bytes" becomes "of 5 bytes"; "-> 0x21c" goes. */
        char *end = arrow + 5;
        while (*end && strchr("0123456789abcdef", *end)) end++;
        if (end[0] == ',' && end[1] == ' ') {
            memcpy(arrow, "of ", 3);
            memmove(arrow + 3, end + 2, strlen(end + 2) + 1);
        } else {
            memmove(arrow, end, strlen(end) + 1);
        }
        size_t len = strlen(d);
        while (len && d[len - 1] == ' ') d[--len] = '\0';
    }
    return d;
}

static bool collect(const blobc_buffer *map, map_values *out) {
    const char *p = (const char *)map->data, *end = p + map->len;
    bool in_data = false;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (n > 3 && p[0] == '#' && p[1] == '#') in_data = n >= 7 && strncmp(p, "## data", 7) == 0;
        else if (in_data) {
            char *d = describe(p, n);
            if (d) {
                if (out->n == out->cap) {
                    size_t cap = out->cap ? out->cap * 2 : 256;
                    map_value *v = realloc(out->v, cap * sizeof *v);
                    if (!v) {
                        free(d);
                        return false;
                    }
                    out->v = v;
                    out->cap = cap;
                }
                out->v[out->n++].text = d;
            }
        }
        p += n + 1;
    }
    return true;
}

static void values_free(map_values *m) {
    for (size_t i = 0; i < m->n; i++) free(m->v[i].text);
    free(m->v);
}

static int map_of(const uint8_t *bytes, size_t len, const blobc_bake_plan *plan, map_values *out) {
    blobc_dump_options o = {0};
    o.format = BLOBC_DUMP_MAP;
    o.schema = plan->schema;
    o.type_name = plan->root->name;
    blobc_buffer map = {0};
    blobc_error err;
    blobc_error_clear(&err);
    int rc = 0;
    if (blobc_dump(bytes, len, &o, &map, &err) != BLOBC_OK) {
        report(&err);
        rc = exit_code(err.status);
    } else if (!collect(&map, out)) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = EXIT_USAGE;
    }
    blobc_buffer_free(&map);
    return rc;
}

/* Prints where the blobs first differ; returns EXIT_INPUT. */
static int report_difference(const char *blob, const char *src, const map_values *old,
                             const map_values *now) {
    size_t i = 0;
    while (i < old->n && i < now->n && strcmp(old->v[i].text, now->v[i].text) == 0) i++;
    if (i == old->n && i == now->n) {
        fprintf(stderr, "%s: error: out of date with %s: the values are equal, the type "
                        "description or header differs (schema name, type or field names)\n",
                blob, src);
        return EXIT_INPUT;
    }
    const char *a = i < old->n ? old->v[i].text : "(nothing)";
    const char *b = i < now->n ? now->v[i].text : "(nothing)";
    const char *colon = strstr(i < old->n ? a : b, ": ");
    int plen = colon ? (int)(colon - (i < old->n ? a : b)) : 0;
    fprintf(stderr, "%s: %.*s: error: out of date with %s: the blob has %s; a fresh bake has %s\n",
            blob, plen, i < old->n ? a : b, src, colon && i < old->n ? colon + 2 : a,
            i < now->n && strstr(b, ": ") ? strstr(b, ": ") + 2 : b);
    return EXIT_INPUT;
}

/* Reports err (naming `file` when it names nothing); returns the exit code. */
static int failed(blobc_error *err, const char *file) {
    if (!err->file[0]) snprintf(err->file, sizeof err->file, "%s", file);
    report(err);
    return exit_code(err->status);
}

int verify_against(const char *src, const char *blob, const char *schema, const char *type) {
    uint8_t *old = NULL, *text = NULL;
    size_t old_len = 0, text_len = 0;
    blobc_error err;
    blobc_error_clear(&err);
    blobc_bake_plan plan;
    memset(&plan, 0, sizeof plan);
    blobc_buffer fresh = {0};
    map_values mo = {0}, mn = {0};
    int rc = 0;
    blobc_bake_options bo = {0};
    bo.schema_path = schema;
    bo.type_name = type;
    const char *name = strcmp(src, "-") == 0 ? "<stdin>" : src;
    /* The source's schema is what the blob is verified against (a
     * stripped blob has none of its own). */
    if (blobc_read_file(src, &text, &text_len, &err) ||
        blobc_bake_plan_memory((const char *)text, text_len, name, &bo, &plan, &err)) {
        rc = failed(&err, src);
        goto done;
    }
    blobc_verify_options vo = {.schema = plan.schema, .type_name = plan.root->name,
                               .max_input = cli_max_input};
    blobc_blob b;
    if (blobc_verify_file(blob, &vo, &err) || blobc_read_file(blob, &old, &old_len, &err) ||
        blobc_blob_open(old, old_len, 0, &b, &err)) {
        rc = failed(&err, blob);
        goto done;
    }
    bo.strip = b.header.types_offset == 0;
    blobc_blob_close(&b);
    bo.schema = plan.schema;
    if (blobc_bake_memory((const char *)text, text_len, name, &bo, &fresh, &err)) {
        rc = failed(&err, src);
        goto done;
    }
    if (fresh.len == old_len && memcmp(fresh.data, old, old_len) == 0) goto done;
    if (!(rc = map_of(old, old_len, &plan, &mo)) && !(rc = map_of(fresh.data, fresh.len, &plan, &mn)))
        rc = report_difference(blob, src, &mo, &mn);
done:
    values_free(&mo);
    values_free(&mn);
    blobc_buffer_free(&fresh);
    blobc_bake_plan_free(&plan);
    free(old);
    free(text);
    return rc;
}
