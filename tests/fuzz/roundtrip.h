/*
 * roundtrip.h - the rule that what verify accepts, dump writes so that
 * bake reads it back (docs/DUMP.md): for a .blob, or a raw data section of
 * the fuzz schema, that verifies,
 *
 *   - the YAML dump bakes back to the same bytes;
 *   - the JSON dump bakes back to the same bytes when the blob shares no
 *     payload (JSON cannot share); a JSON dump may only fail for that
 *     reason (the copy budget) or for nesting deeper than JSON reads;
 *   - upgrade to its own schema gives the same bytes.
 *
 * Used by the verify fuzz target (a violation aborts) and, over the whole
 * corpus, by tests/unit/test_roundtrip.c.
 */
#ifndef BLOBC_FUZZ_ROUNDTRIP_H
#define BLOBC_FUZZ_ROUNDTRIP_H

#include <stdarg.h>
#include <stdio.h>

#include "fuzz_common.h"

typedef enum { RT_SKIP, RT_OK, RT_FAIL } rt_result;

typedef struct rt_case {
    const uint8_t *data; /* 16-byte aligned */
    size_t size;
    bool raw;                     /* a data section of the fuzz schema */
    const blobc_schema *schema;   /* the blob's own types, or the fuzz schema */
    bool shares;                  /* some payload is reached twice */
    char *why;
    size_t cap;
} rt_case;

static rt_result rt_fail(rt_case *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, c->cap, fmt, ap);
    va_end(ap);
    return RT_FAIL;
}

/* Dumps c as `format`; bakes the text back and compares. */
static rt_result rt_dump_bake(rt_case *c, blobc_dump_format format) {
    const char *what = format == BLOBC_DUMP_JSON ? "JSON" : "YAML";
    blobc_dump_options d = {0};
    d.format = format;
    d.raw = c->raw;
    if (c->raw) d.schema = c->schema;
    blobc_buffer text = {0}, back = {0};
    blobc_error err;
    blobc_error_clear(&err);
    rt_result r = RT_OK;
    if (blobc_dump(c->data, c->size, &d, &text, &err) != BLOBC_OK) {
        /* JSON cannot share or nest past its reader's limit, and says so */
        bool json_limit = format == BLOBC_DUMP_JSON &&
                          (err.code == BLOBC_V_BUDGET || strstr(err.message, "levels the JSON bake reads"));
        if (!json_limit) r = rt_fail(c, "the %s dump of a blob that verifies fails: %s", what, err.message);
        goto done;
    }
    if (format == BLOBC_DUMP_JSON && c->shares) goto done; /* copies: other bytes */
    blobc_bake_options o = {0};
    o.schema = c->schema;
    o.input = format == BLOBC_DUMP_JSON ? BLOBC_INPUT_JSON : BLOBC_INPUT_YAML;
    o.output = c->raw ? BLOBC_OUTPUT_RAW : BLOBC_OUTPUT_BLOB;
    if (blobc_bake_memory((const char *)text.data, text.len, "dump", &o, &back, &err) != BLOBC_OK) {
        char msg[4096];
        blobc_error_format(&err, msg, sizeof msg);
        r = rt_fail(c, "the bake of the %s dump fails: %s", what, msg);
    } else if (back.len != c->size || memcmp(back.data, c->data, c->size) != 0) {
        size_t at = 0;
        while (at < back.len && at < c->size && back.data[at] == c->data[at]) at++;
        r = rt_fail(c, "the bake of the %s dump gives other bytes (%zu, not %zu; first "
                       "difference at byte %zu)", what, back.len, c->size, at);
    }
done:
    blobc_buffer_free(&text);
    blobc_buffer_free(&back);
    return r;
}

/* Upgrading a blob to its own schema changes nothing. */
static rt_result rt_upgrade(rt_case *c) {
    if (c->raw) return RT_OK; /* upgrade reads .blob files */
    blobc_upgrade_options u = {0};
    u.schema = c->schema;
    blobc_buffer out = {0};
    blobc_error err;
    blobc_error_clear(&err);
    rt_result r = RT_OK;
    if (blobc_upgrade(c->data, c->size, &u, &out, &err) != BLOBC_OK)
        r = rt_fail(c, "upgrade to its own schema fails: %s", err.message);
    else if (out.len != c->size || memcmp(out.data, c->data, c->size) != 0)
        r = rt_fail(c, "upgrade to its own schema changes the bytes (%zu, not %zu)", out.len, c->size);
    blobc_buffer_free(&out);
    return r;
}

/* Whether the YAML dump names a shared payload: an alias. The dump writes
 * every anchor as " &aN" and every alias as "*aN" outside strings, so the
 * test reads the text outside double-quoted strings. */
static bool rt_shares(const rt_case *c) {
    blobc_dump_options d = {0};
    d.raw = c->raw;
    if (c->raw) d.schema = c->schema;
    blobc_buffer text = {0};
    blobc_error err;
    bool shared = false;
    if (blobc_dump(c->data, c->size, &d, &text, &err) == BLOBC_OK) {
        bool in_str = false;
        for (size_t i = 0; i + 1 < text.len && !shared; i++) {
            char ch = (char)text.data[i];
            if (in_str && ch == '\\') i++;
            else if (ch == '"') in_str = !in_str;
            else if (!in_str && ch == '*' && text.data[i + 1] == 'a') shared = true;
        }
    }
    blobc_buffer_free(&text);
    return shared;
}

/* The rule for one input (aligned copy of the bytes). RT_SKIP when it does
 * not verify or has no types of its own to bake with. */
static rt_result fuzz_roundtrip(const uint8_t *data, size_t size, bool raw, char *why, size_t cap) {
    rt_case c = {data, size, raw, NULL, false, why, cap};
    blobc_error err;
    blobc_error_clear(&err);
    blobc_blob blob;
    memset(&blob, 0, sizeof blob);
    if (raw) {
        c.schema = fuzz_schema();
        if (blobc_verify_data(data, size, blobc_schema_root(c.schema), &err) != BLOBC_OK)
            return RT_SKIP;
    } else {
        if (blobc_verify_blob(data, size, NULL, &err) != BLOBC_OK) return RT_SKIP;
        if (blobc_blob_open(data, size, 0, &blob, &err) != BLOBC_OK) return RT_SKIP;
        c.schema = blob.types;
        if (!c.schema) {
            blobc_blob_close(&blob);
            return RT_SKIP; /* stripped: no schema of its own */
        }
    }
    c.shares = rt_shares(&c);
    rt_result r = rt_dump_bake(&c, BLOBC_DUMP_YAML);
    if (r == RT_OK) r = rt_dump_bake(&c, BLOBC_DUMP_JSON);
    if (r == RT_OK) r = rt_upgrade(&c);
    if (!raw) blobc_blob_close(&blob);
    return r;
}

#endif
