/*
 * plan.c - what a bake depends on, found without baking: the front end
 * runs only until the schema and the root type are known (the meta keys
 * come first in YAML; in JSON they are found by the same read-ahead scan
 * the bake uses), then stops. The plan holds that schema and root, and
 * the cache key: one XXH3-128 over everything that decides the output
 * bytes and the bake's success, so that equal keys mean equal outcomes.
 */
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include <xxhash.h>
#include <yaml.h>

#include "bake/bake_internal.h"
#include "blobc/blobc.h"

/* Fed to the key before anything else: a different layout of the key's
 * own input must never collide with this one. */
static const char key_domain[] = "blobc bake key 2";

/* A checksum of the library's sources, from the Makefile: two builds of
 * one version number from different code may bake different bytes. */
#ifndef BLOBC_SOURCE_ID
#define BLOBC_SOURCE_ID ""
#endif

static void put_u64(XXH3_state_t *h, uint64_t v) {
    uint8_t b[8];
    blobc_st64(b, v);
    XXH3_128bits_update(h, b, sizeof b);
}

/* A length-prefixed byte string, so that adjacent fields cannot trade bytes. */
static void put_bytes(XXH3_state_t *h, const void *p, size_t n) {
    put_u64(h, n);
    XXH3_128bits_update(h, p, n);
}

static void put_str(XXH3_state_t *h, const char *s) { put_bytes(h, s, strlen(s)); }

/* The key covers everything that decides the output bytes or whether the
 * bake succeeds: the code that bakes (the library's version and source
 * checksum, the versions of libyaml and cJSON, the blob format version);
 * the options that change bytes (the output form, --strip, a Unity file's
 * version and length rule); the input format; the schema as this bake
 * uses it, in the one canonical form of blobc_types_describe (every type
 * the root reaches with its names, the schema name when the output
 * records it, and every default), never the schema's text, so comments,
 * declaration order and unused types do not matter; and the input bytes.
 * The type section the output embeds is kept in the plan, so that a
 * cache can hold an entry's against it. */
static blobc_status make_key(blobc_bake_plan *plan, const char *schema_name,
                             const blobc_bake_options *o, const char *text, size_t len,
                             blobc_error *err) {
    bool embeds = o->output == BLOBC_OUTPUT_BLOB && !o->strip;
    blobc_buffer desc = {0};
    size_t section = 0;
    blobc_status st =
        blobc_types_describe(plan->root, embeds ? schema_name : NULL, &desc, &section, err);
    if (st) return st;
    XXH3_state_t *h = XXH3_createState();
    if (!h) {
        blobc_buffer_free(&desc);
        return blobc_err_nomem(err);
    }
    XXH3_128bits_reset(h);
    XXH3_128bits_update(h, key_domain, sizeof key_domain);
    put_str(h, blobc_version());
    put_str(h, BLOBC_SOURCE_ID);
    /* libyaml's version as loaded; cJSON's as compiled against, because
     * cJSON_Version() formats into a static buffer that threads share. */
    int y[3];
    yaml_get_version(&y[0], &y[1], &y[2]);
    for (int i = 0; i < 3; i++) put_u64(h, (uint64_t)(int64_t)y[i]);
    put_u64(h, CJSON_VERSION_MAJOR);
    put_u64(h, CJSON_VERSION_MINOR);
    put_u64(h, CJSON_VERSION_PATCH);
    put_u64(h, BLOBC_FORMAT_VERSION);
    put_u64(h, (uint64_t)o->output);
    put_u64(h, o->strip ? 1 : 0);
    if (o->output == BLOBC_OUTPUT_UNITY) { /* the version and length rule are in the bytes */
        put_u64(h, (uint32_t)o->unity.version);
        put_u64(h, o->unity.length == BLOBC_UNITY_LENGTH_EXACT);
    }
    put_u64(h, (uint64_t)plan->input);
    put_bytes(h, desc.data, desc.len);
    put_bytes(h, text, len);
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits_digest(h));
    memcpy(plan->key, c.digest, 16);
    XXH3_freeState(h);
    desc.len = embeds ? section : 0;
    plan->types_ = desc;
    return BLOBC_OK;
}

blobc_status blobc_bake_plan_memory(const char *text, size_t len, const char *filename,
                                    const blobc_bake_options *opts, blobc_bake_plan *plan,
                                    blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    blobc_error_clear(err);
    if (!plan) return blobc_err_arg(err, __func__, "plan is NULL");
    memset(plan, 0, sizeof *plan);
    if (!text && len) return blobc_err_arg(err, __func__, "text is NULL");
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    o.one_thread = true; /* the probe stops after a few events */
    o.diag = NULL;       /* silent: an error ends the probe, in err */
    if (!filename) filename = "<input>";
    if (!text) text = "", len = 0;
    plan->input = bk_detect(text, len, filename, o.input);
    bk k;
    bk_init(&k, filename, &o, err);
    k.probe = true;
    blobc_status st = bk_run_front_end(&k, plan->input, text, len);
    if (bk_stopped(&k, st, BK_OUT_PROBED)) {
        plan->schema = k.schema;
        plan->root = k.root;
        plan->owned_schema = k.owned_schema;
        k.owned_schema = NULL;
        const char *name = k.meta_schema ? k.meta_schema : o.schema_path;
        st = make_key(plan, name, &o, text, len, err);
    } else if (st == BLOBC_OK) {
        st = blobc_err(err, BLOBC_EINPUT, "no data to bake");
    }
    bk_free(&k);
    if (st) blobc_bake_plan_free(plan);
    return st;
}

void blobc_bake_plan_free(blobc_bake_plan *plan) {
    if (!plan) return;
    if (plan->owned_schema) blobc_schema_free(plan->owned_schema);
    blobc_buffer_free(&plan->types_);
    memset(plan, 0, sizeof *plan);
}
