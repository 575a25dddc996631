/*
 * against.c - blobc verify --against SRC BLOB: is a committed blob what
 * its source bakes to today? SRC is baked afresh (with the options the
 * blob was baked with: stripped or not) and compared byte for byte; when
 * they differ, the first differing value is named by its schema path,
 * found by the library walking both blobs' values side by side
 * (blobc_compare_blobs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Prints where the blobs first differ (the library compares their values
 * in field order, both verified); returns the exit code. */
static int report_difference(const char *blob, const char *src, const uint8_t *old,
                             size_t old_len, const blobc_buffer *fresh,
                             const blobc_bake_plan *plan) {
    blobc_verify_options vo = {.schema = plan->schema, .type_name = plan->root->name};
    blobc_difference d;
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_compare_blobs(old, old_len, fresh->data, fresh->len, &vo, &d, &err)) {
        if (!err.file[0]) snprintf(err.file, sizeof err.file, "%s", blob);
        report(&err);
        return exit_code(err.status);
    }
    if (!d.differ)
        fprintf(stderr, "%s: error: out of date with %s: the values are equal, the type "
                        "description or header differs (schema name, type or field names)\n",
                blob, src);
    else
        fprintf(stderr, "%s: %s: error: out of date with %s: the blob has %s; a fresh bake has %s\n",
                blob, d.path[0] ? d.path : "(root)", src, d.a, d.b);
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
    rc = report_difference(blob, src, old, old_len, &fresh, &plan);
done:
    blobc_buffer_free(&fresh);
    blobc_bake_plan_free(&plan);
    free(old);
    free(text);
    return rc;
}
