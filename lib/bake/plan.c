/*
 * plan.c - what a bake depends on, found without baking: the front end
 * runs only until the schema and the root type are known (the meta keys
 * come first in YAML; in JSON they are found by the same read-ahead scan
 * the bake uses), then stops. The plan holds that schema and root, and
 * the cache key: one XXH3-128 over everything that decides the output
 * bytes, so that equal keys mean equal blobs.
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "bake/bake_internal.h"
#include "blobc/blobc.h"

/* Fed to the key before anything else: a different layout of the key's
 * own input must never collide with this one. */
static const char key_domain[] = "blobc bake key 1";

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

/* The key covers: the library version and blob format version (a newer
 * baker may lay out bytes differently); the options that change bytes
 * (for a Unity file also its version and length rule);
 * the root type's layout hash and its canonical type description (the
 * type section: every reachable type with its names, which the blob
 * embeds, and the schema name it records), never the schema's text, so
 * comments and unused types do not matter; and the input bytes. */
static blobc_status make_key(const blobc_bake_plan *plan, const char *schema_name,
                             const blobc_bake_options *o, const char *text, size_t len,
                             uint8_t key[16], blobc_error *err) {
    blobc_buffer types = {0};
    blobc_status st = blobc_types_encode(plan->root, schema_name, &types, err);
    if (st) return st;
    XXH3_state_t *h = XXH3_createState();
    if (!h) {
        blobc_buffer_free(&types);
        return blobc_err_nomem(err);
    }
    XXH3_128bits_reset(h);
    XXH3_128bits_update(h, key_domain, sizeof key_domain);
    put_bytes(h, blobc_version(), strlen(blobc_version()));
    put_u64(h, BLOBC_FORMAT_VERSION);
    put_u64(h, (uint64_t)o->output);
    put_u64(h, o->strip ? 1 : 0);
    if (o->output == BLOBC_OUTPUT_UNITY) { /* the version and length rule are in the bytes */
        put_u64(h, (uint32_t)o->unity.version);
        put_u64(h, o->unity.length == BLOBC_UNITY_LENGTH_EXACT);
    }
    put_u64(h, (uint64_t)plan->input);
    put_u64(h, blobc_type_hash(plan->root));
    put_bytes(h, types.data, types.len);
    put_bytes(h, text, len);
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits_digest(h));
    memcpy(key, c.digest, 16);
    XXH3_freeState(h);
    blobc_buffer_free(&types);
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
    if (st == BK_PROBED) {
        plan->schema = k.schema;
        plan->root = k.root;
        plan->owned_schema = k.owned_schema;
        k.owned_schema = NULL;
        const char *name = k.meta_schema ? k.meta_schema : o.schema_path;
        st = make_key(plan, name, &o, text, len, plan->key, err);
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
    memset(plan, 0, sizeof *plan);
}
