/*
 * plan.c - what a bake depends on, found without baking: the front end
 * runs only until the schema and the root type are known (the meta keys
 * come first in YAML; in JSON they are found by the same read-ahead scan
 * the bake uses), then stops. The plan holds that schema and root, and
 * the cache key: one XXH3-128 over everything that decides the output
 * bytes and the bake's success, so that equal keys mean equal outcomes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include <xxhash.h>
#include <yaml.h>

#include "bake/bake_internal.h"
#include "blobc/blobc.h"
#include "common/fileio.h"
#include "platform/platform.h"

/* Fed to the key before anything else: a different layout of the key's
 * own input must never collide with this one. */
static const char key_domain[] = "blobc bake key 3";

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

/* What a plan learns from all of the input's bytes: their hash, for the
 * key, and for JSON whether they can spell a "$type" key at all (which
 * a probe would otherwise look for in all of them). */
typedef struct text_pass {
    uint8_t digest[16];
    signed char type_key; /* as bk's: 0 not asked, 1 cannot, 2 may */
} text_pass;

enum { PIECE = 256 << 10, LOOK = 5 /* bytes past a piece that "$type\"" may need */ };

typedef struct pass_state {
    XXH3_state_t *h;
    bool json, may;
    uint64_t from;
} pass_state;

/* One piece of the input at offset off: b holds n bytes and up to LOOK
 * after them (avail). */
static void pass_piece(pass_state *ps, const char *b, size_t n, size_t avail, uint64_t off) {
    XXH3_128bits_update(ps->h, b, n);
    if (ps->json && !ps->may) ps->may = bk_type_key_piece(b, n, avail, off, &ps->from);
}

static void pass_done(pass_state *ps, text_pass *out) {
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits_digest(ps->h));
    memcpy(out->digest, c.digest, 16);
    out->type_key = !ps->json ? 0 : ps->may ? 2 : 1;
}

/* The hash of text in memory (0, or ENOMEM); the probe looks for a
 * "$type" key there itself, and only when it must. */
static int pass_memory(const char *text, size_t len, text_pass *out) {
    pass_state ps = {XXH3_createState(), false, false, 0};
    if (!ps.h || XXH3_128bits_reset(ps.h) != XXH_OK) {
        XXH3_freeState(ps.h);
        return ENOMEM;
    }
    XXH3_128bits_update(ps.h, text, len);
    pass_done(&ps, out);
    XXH3_freeState(ps.h);
    return 0;
}

/* The pass over the len bytes of the open file fd, read in pieces that
 * stay in the processor's cache rather than through a mapping of it: on
 * a hit the input's mapped pages are then never touched past its meta
 * keys (a first touch of each page is most of such a pass's cost on a
 * virtual machine). 0, or an errno value (EIO: the file changed size). */
static int pass_file(blobc_os_fd fd, uint64_t len, bool json, text_pass *out) {
    pass_state ps = {XXH3_createState(), json, false, 0};
    char *buf = malloc(PIECE + LOOK);
    int e = !ps.h || !buf || XXH3_128bits_reset(ps.h) != XXH_OK ? ENOMEM : 0;
    for (uint64_t off = 0; !e && off < len; off += PIECE) {
        size_t n = len - off < PIECE ? (size_t)(len - off) : PIECE;
        size_t want = len - off < PIECE + LOOK ? (size_t)(len - off) : PIECE + LOOK, got = 0;
        e = blobc_os_read_at(fd, buf, want, off, &got);
        if (!e && got != want) e = EIO;
        if (!e) pass_piece(&ps, buf, n, want, off);
    }
    if (!e) pass_done(&ps, out);
    free(buf);
    XXH3_freeState(ps.h);
    return e;
}

/* A file other than the input that a bake reads (a table, the string
 * table): its name and every byte. */
static blobc_status put_file(XXH3_state_t *h, const blobc_bake_options *o, const char *path,
                             blobc_error *err) {
    blobc_read_options ro = {o->max_input, false, NULL, 0, o->regular_files};
    uint8_t *data;
    size_t len;
    blobc_status st = blobc_read_file_ex(path, &ro, &data, &len, err);
    if (st) return st;
    put_str(h, path);
    put_bytes(h, data, len);
    free(data);
    return BLOBC_OK;
}

/* What else decides a table's bytes: the field its rows fill, the other
 * tables (each field, name and every byte), and the @sep of every field a
 * cell may split (which a blob's schema does not keep, so
 * blobc_types_describe leaves it out). */
static blobc_status put_table(XXH3_state_t *h, const blobc_bake_plan *plan,
                              const blobc_bake_options *o, blobc_error *err) {
    put_str(h, o->table ? o->table : "");
    put_u64(h, o->ntables);
    for (size_t i = 0; i < o->ntables; i++) {
        const blobc_bake_table *t = &o->tables[i];
        if (!t->field || !t->path) return blobc_err_arg(err, "blobc_bake_plan", "opts->tables holds a NULL field or path");
        put_str(h, t->field);
        blobc_status st = put_file(h, o, t->path, err);
        if (st) return st;
    }
    for (size_t i = 0, n = blobc_schema_count(plan->schema); i < n; i++) {
        const blobc_type *t = blobc_schema_at(plan->schema, i);
        for (uint32_t f = 0; t->kind == BLOBC_KIND_STRUCT && f < t->nfields; f++) {
            if (!t->fields[f].sep) continue;
            put_str(h, t->name);
            put_str(h, t->fields[f].name);
            put_str(h, t->fields[f].sep);
        }
    }
    return BLOBC_OK;
}

/* What decides a bake's texts: the string table's bytes and the
 * language (nothing without a table: keys as before). */
static blobc_status put_strings(XXH3_state_t *h, const blobc_bake_options *o, blobc_error *err) {
    put_str(h, "strings");
    put_str(h, o->lang ? o->lang : "");
    return put_file(h, o, o->strings, err);
}

static bool checks_files(const blobc_schema *s) {
    for (size_t i = 0, n = blobc_schema_count(s); i < n; i++) {
        const blobc_type *t = blobc_schema_at(s, i);
        for (uint32_t f = 0; t->kind == BLOBC_KIND_STRUCT && f < t->nfields; f++)
            for (uint32_t c = 0; c < t->fields[f].nchecks; c++)
                if (t->fields[f].checks[c].kind == BLOBC_CHECK_PATH) return true;
    }
    return false;
}

/* The key covers everything that decides the output bytes or whether the
 * bake succeeds: the code that bakes (the library's version and source
 * checksum, the versions of libyaml and cJSON, the blob format version);
 * the options that change bytes (the output form, --strip, a Unity file's
 * version and length rule, --exclude-tags, --strings and --lang); the input format; the schema as this bake
 * uses it, in the one canonical form of blobc_types_describe (every type
 * the root reaches with its names, the schema name when the output
 * records it, and every default), never the schema's text, so comments,
 * declaration order and unused types do not matter; and the input bytes.
 * The type section the output embeds is kept in the plan, so that a
 * cache can hold an entry's against it. A table adds what put_table
 * says. */
static blobc_status make_key(blobc_bake_plan *plan, const char *schema_name,
                             const blobc_bake_options *o, size_t len, const text_pass *pass,
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
    /* the items --exclude-tags leaves out (nothing without it: keys as before) */
    for (size_t i = 0; i < o->nexclude_tags; i++) {
        if (i == 0) put_str(h, "exclude-tags");
        put_str(h, o->exclude_tags[i] ? o->exclude_tags[i] : "");
    }
    bool table = plan->input == BLOBC_INPUT_CSV || plan->input == BLOBC_INPUT_TSV;
    if ((table && (st = put_table(h, plan, o, err)) != BLOBC_OK) ||
        (o->strings && (st = put_strings(h, o, err)) != BLOBC_OK)) {
        XXH3_freeState(h);
        blobc_buffer_free(&desc);
        return st;
    }
    /* The input by its own hash, which a pass over a file computes piece
     * by piece before the schema is known (text_pass). */
    put_u64(h, len);
    XXH3_128bits_update(h, pass->digest, sizeof pass->digest);
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits_digest(h));
    memcpy(plan->key, c.digest, 16);
    plan->checks_files = checks_files(plan->schema);
    XXH3_freeState(h);
    desc.len = embeds ? section : 0;
    plan->types_ = desc;
    return BLOBC_OK;
}

/* The plan of text; pass: what a pass over the file found, or NULL (then
 * the text in memory is hashed). */
static blobc_status plan_text(const char *text, size_t len, const char *filename,
                              const blobc_bake_options *opts, const text_pass *pass,
                              blobc_bake_plan *plan, blobc_error *err) {
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    o.one_thread = true; /* the probe stops after a few events */
    o.diag = NULL;       /* silent: an error ends the probe, in err */
    if (!filename) filename = "<input>";
    if (!text) text = "", len = 0;
    plan->input = bk_detect(text, len, filename, o.input);
    text_pass mem;
    if (!pass && pass_memory(text, len, &mem) != 0) return blobc_err_nomem(err);
    if (!pass) pass = &mem;
    bk k;
    bk_init(&k, filename, &o, err);
    k.probe = true;
    k.type_key = pass->type_key;
    blobc_status st = bk_run_front_end(&k, plan->input, text, len);
    if (bk_stopped(&k, st, BK_OUT_PROBED)) {
        plan->schema = k.schema;
        plan->root = k.root;
        plan->owned_schema = k.owned_schema;
        k.owned_schema = NULL;
        const char *name = k.meta_schema ? k.meta_schema : o.schema_path;
        st = make_key(plan, name, &o, len, pass, err);
    } else if (st == BLOBC_OK) {
        st = blobc_err(err, BLOBC_EINPUT, "no data to bake");
    }
    bk_free(&k);
    if (st) blobc_bake_plan_free(plan);
    return st;
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
    return plan_text(text, len, filename, opts, NULL, plan, err);
}

blobc_status blobc_bake_plan_file(const char *path, const blobc_bake_options *opts,
                                  blobc_bake_plan *plan, blobc_file_view *text,
                                  blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    blobc_error_clear(err);
    if (!plan || !text || !path) return blobc_err_arg(err, __func__, "path, plan or text is NULL");
    memset(plan, 0, sizeof *plan);
    blobc_os_fd fd;
    blobc_status st = blobc_file_map_keep(path, NULL, text, &fd, err);
    if (st) return st;
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path, *t = (const char *)text->data;
    if (fd == BLOBC_OS_NO_FD) return plan_text(t, text->len, name, opts, NULL, plan, err);
    text_pass pass;
    blobc_input_format fmt = bk_detect(t, text->len, name, opts ? opts->input : 0);
    int e = pass_file(fd, text->len, fmt == BLOBC_INPUT_JSON, &pass);
    blobc_os_close(fd);
    if (e == ENOMEM) return blobc_err_nomem(err);
    if (e) return blobc_err_io(err, "read", path, e);
    return plan_text(t, text->len, name, opts, &pass, plan, err);
}

void blobc_bake_plan_free(blobc_bake_plan *plan) {
    if (!plan) return;
    if (plan->owned_schema) blobc_schema_free(plan->owned_schema);
    blobc_buffer_free(&plan->types_);
    memset(plan, 0, sizeof *plan);
}
