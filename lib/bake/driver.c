/*
 * driver.c - the bake driver: picks the input format, runs the YAML or JSON
 * front end into a builder, resolves the schema and root type when the
 * front end has seen the top-level meta keys, and turns the finished image
 * into a .blob (or hands back the raw data section).
 *
 * Files in YAML are streamed (libyaml reads them in chunks), so baking a
 * large YAML file holds the blob being built but never the whole input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake/bake_internal.h"
#include "blobc/blobfile.h"
#include "common/stream.h"
#include "platform/platform.h"

/* ---- format detection ---- */

static bool ends_with_ci(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    if (m > n) return false;
    for (size_t i = 0; i < m; i++) {
        char c = s[n - m + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c + 32);
        if (c != suffix[i]) return false;
    }
    return true;
}

static blobc_input_format by_extension(const char *name) {
    if (!name) return BLOBC_INPUT_AUTO;
    if (ends_with_ci(name, ".yaml") || ends_with_ci(name, ".yml")) return BLOBC_INPUT_YAML;
    if (ends_with_ci(name, ".json")) return BLOBC_INPUT_JSON;
    if (ends_with_ci(name, ".csv")) return BLOBC_INPUT_CSV;
    if (ends_with_ci(name, ".tsv") || ends_with_ci(name, ".tab")) return BLOBC_INPUT_TSV;
    return BLOBC_INPUT_AUTO;
}

/* JSON when the first character after a BOM and whitespace opens an
 * object or array; YAML otherwise. *decided is false when the text was
 * all whitespace (more input may decide). */
static blobc_input_format by_content(const char *t, size_t len, bool *decided) {
    size_t i = 0;
    if (len >= 3 && (unsigned char)t[0] == 0xEF && (unsigned char)t[1] == 0xBB &&
        (unsigned char)t[2] == 0xBF)
        i = 3;
    while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) i++;
    *decided = i < len;
    if (i < len && (t[i] == '{' || t[i] == '[')) return BLOBC_INPUT_JSON;
    return BLOBC_INPUT_YAML;
}

/* ---- schema and root ---- */

/* $schema is relative to the data file's directory. */
static char *schema_path_for(bk *k, const char *rel) {
    const char *f = k->filename;
    size_t dir = f ? blobc_os_dir_len(f) : 0, n = strlen(rel), total;
    if (blobc_os_is_absolute(rel) || !dir || strcmp(f, "<stdin>") == 0)
        return blobc_arena_strndup(&k->arena, rel, n);
    if (!blobc_add_ok(dir, n, &total)) return NULL;
    char *p = blobc_arena_alloc(&k->arena, total + 1);
    if (!p) return NULL;
    memcpy(p, f, dir);
    memcpy(p + dir, rel, n);
    p[total] = '\0';
    return p;
}

/* An import inside the schema that $schema names failed: the error stays
 * at the import (the line to fix), and says which line of the data led
 * there. */
static blobc_status import_failed(bk *k, const blobc_error *at_import) {
    if (!k->err) return at_import->status;
    blobc_error *mine = k->err, named;
    k->err = &named;
    bk_fail(k, at_import->status, &k->meta_schema_pos, BK_AT_CONTAINER, "$schema", 7, "-");
    k->err = mine;
    *mine = *at_import;
    char at[BLOBC_PLACE_BUF];
    size_t n = strlen(mine->message);
    snprintf(mine->message + n, sizeof mine->message - n, " (in the schema $schema names at %s)",
             blobc_place(at, sizeof at, named.file, named.line, named.column));
    return mine->status;
}

static blobc_status find_schema(bk *k, const bk_pos *pos) {
    const blobc_bake_options *o = k->opts;
    blobc_schema_load_options lo = {o->max_input, o->regular_files, o->unread, o->unread_ctx};
    if (o->schema) {
        k->schema = o->schema;
        return BLOBC_OK;
    }
    if (o->schema_path) {
        if (blobc_writes_over(o->output_path, o->schema_path))
            return blobc_err_refuse_input(k->err, o->schema_path, o->output_path);
        blobc_status st = blobc_schema_load_ex(o->schema_path, &lo, &k->owned_schema, k->err);
        if (st) return st;
        k->schema = k->owned_schema;
        return BLOBC_OK;
    }
    if (!k->meta_schema)
        return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, NULL, 0,
                       "no schema: put \"$schema: PATH\" at the top of the data, or pass -s SCHEMA");
    char *path = schema_path_for(k, k->meta_schema);
    if (!path) return blobc_err_nomem(k->err);
    if (blobc_writes_over(o->output_path, path)) return blobc_err_refuse_input(k->err, path, o->output_path);
    blobc_error tmp;
    blobc_error_clear(&tmp);
    blobc_status st = blobc_schema_load_ex(path, &lo, &k->owned_schema, &tmp);
    if (st == BLOBC_EIO && tmp.line) return import_failed(k, &tmp);
    if (st == BLOBC_EIO) {
        /* Say which line of the data named the file. */
        return bk_fail(k, st, &k->meta_schema_pos, BK_AT_CONTAINER, "$schema", 7,
                       "cannot load the schema named by $schema: %s", tmp.message);
    }
    if (st) {
        *k->err = tmp;
        return st;
    }
    k->schema = k->owned_schema;
    return BLOBC_OK;
}

static blobc_status unknown_type(bk *k, const char *name, const bk_pos *pos, const char *via) {
    size_t n = blobc_schema_count(k->schema);
    const char *names[256];
    size_t m = 0;
    for (size_t i = 0; i < n && m < 256; i++) {
        const blobc_type *t = blobc_schema_at(k->schema, i);
        if (t->kind == BLOBC_KIND_STRUCT) names[m++] = t->name;
    }
    const char *sug = bk_closest(name, strlen(name), names, m);
    const char *file = blobc_schema_filename(k->schema);
    char q[200];
    bk_quote(q, sizeof q, name, strlen(name));
    if (sug)
        return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, via[0] == '$' ? via : NULL,
                       via[0] == '$' ? strlen(via) : 0,
                       "unknown type %s (from %s) in schema %s; did you mean \"%s\"?", q, via,
                       file && file[0] ? file : "(embedded)", sug);
    return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, via[0] == '$' ? via : NULL,
                   via[0] == '$' ? strlen(via) : 0, "unknown type %s (from %s) in schema %s", q,
                   via, file && file[0] ? file : "(embedded)");
}

/* Whether the schema has a keyed struct: its arrays are sorted when they
 * close and references lead into them, which the in-order builder cannot
 * place as they come. */
static bool has_keys(const blobc_schema *s) {
    for (size_t i = 0, n = blobc_schema_count(s); i < n; i++) {
        const blobc_type *t = blobc_schema_at(s, i);
        if (t->kind == BLOBC_KIND_STRUCT && t->key) return true;
    }
    return false;
}

static bool has_checks(const blobc_schema *s) {
    for (size_t i = 0, n = blobc_schema_count(s); i < n; i++) {
        const blobc_type *t = blobc_schema_at(s, i);
        for (uint32_t f = 0; t->kind == BLOBC_KIND_STRUCT && f < t->nfields; f++)
            if (t->fields[f].nchecks) return true;
    }
    return false;
}

/* The hook behind bk_resolve_root (bake_internal.h). */
static blobc_status resolve_root(bk *k, const bk_pos *pos) {
    blobc_status st = find_schema(k, pos);
    if (st) return st;
    const blobc_bake_options *o = k->opts;
    const char *name = o->type_name ? o->type_name : k->meta_type;
    const bk_pos *tpos = o->type_name ? NULL : &k->meta_type_pos;
    const char *via = o->type_name ? "-t" : "$type";
    const blobc_type *t;
    if (name) {
        t = blobc_schema_find(k->schema, name);
        if (!t) return unknown_type(k, name, tpos, via);
        if (t->kind != BLOBC_KIND_STRUCT)
            return bk_fail(k, BLOBC_EINPUT, tpos, BK_AT_CONTAINER, o->type_name ? NULL : "$type",
                           o->type_name ? 0 : 5,
                           "type \"%s\" (from %s) is an enum; the root type must be a struct",
                           name, via);
    } else {
        t = blobc_schema_root(k->schema);
        if (!t) {
            const char *file = blobc_schema_filename(k->schema);
            return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, NULL, 0,
                           "schema %s declares no root type: put \"$type: NAME\" in the data, "
                           "or pass -t TYPE",
                           file && file[0] ? file : "(embedded)");
        }
    }
    k->root = t;
    if (k->probe) return bk_stop(k, BK_OUT_PROBED);
    k->checking = has_checks(k->schema);
    /* a string table is TSV by its name as an input is (.tsv, .tab) */
    bool tsv = o->strings && by_extension(o->strings) == BLOBC_INPUT_TSV;
    if ((st = bk_tags_resolve(k, pos)) || (st = bk_texts_load(k, tsv))) return st;
    k->b = k->in_order && !has_keys(k->schema)
               ? blobc_builder_new_in_order(
                     k->opts->output == BLOBC_OUTPUT_BLOB ? BLOBC_HEADER_SIZE : 0, k->size_hint)
               : blobc_builder_new();
    if (!k->b) return blobc_err_nomem(k->err);
    if (blobc_builder_root(k->b, t->size, t->align, NULL) != BLOBC_OK)
        return bk_fail_builder(k, pos);
    bk_slot s = {t, 0, 0};
    return bk_push_struct(k, &s, pos);
}

/* ---- output ---- */

static blobc_status finish(bk *k, blobc_buffer *out) {
    blobc_status st;
    if (k->opts->output != BLOBC_OUTPUT_BLOB) {
        st = blobc_builder_finish(k->b, out, k->err);
        k->reorder = blobc_builder_out_of_order(k->b);
        blobc_builder_free(k->b);
        k->b = NULL;
        if (!st && k->opts->output == BLOBC_OUTPUT_UNITY)
            st = blobc_unity_wrap(out->len, &k->opts->unity, out, k->err);
    } else {
        blobc_write_options w = {0};
        w.strip = k->opts->strip;
        /* The data's own $schema wins over -s, so that baking a dump
         * gives the original bytes however the schema was found. */
        w.schema_name = k->meta_schema ? k->meta_schema : k->opts->schema_path;
        /* The builder writes the data section straight into the file
         * image, behind room for the header and with room after it for
         * the type section (encoded here once just to learn its size), so
         * the data is never copied a second time. */
        blobc_buffer types = {0};
        st = w.strip ? BLOBC_OK : blobc_types_encode(k->root, w.schema_name, &types, k->err);
        size_t suffix = w.strip ? 0 : types.len + (BLOBC_SECTION_ALIGN - 1);
        blobc_buffer_free(&types);
        if (!st) st = blobc_builder_finish_at(k->b, out, BLOBC_HEADER_SIZE, suffix, k->err);
        /* The builder's memory goes before the type section is added. */
        k->reorder = blobc_builder_out_of_order(k->b);
        blobc_builder_free(k->b);
        k->b = NULL;
        if (!st)
            st = blobc_blob_write_in_place(out->len - BLOBC_HEADER_SIZE, k->root, &w, out,
                                           k->err);
    }
    if (st && k->err && !k->err->file[0]) blobc_err_file(k->err, k->filename);
    return st;
}

#define TEXT_EXPECTED "YAML or JSON text"

typedef struct source {
    const char *text;      /* whole input, or NULL when streamed */
    size_t len;
    bk_read_fn *read;
    void *data;
    size_t size;           /* streamed: the file's size when known, else 0 */
    /* streamed: when the stream was cut (binary data, over the input limit,
     * a read error), puts the reason in err in place of the parser's
     * "input error" and returns its status; else BLOBC_OK */
    blobc_status (*cut)(void *data, blobc_error *err);
    bool text_checked;     /* whole input: found to be text while it was read */
} source;

/* The arguments both entry points take; *err is not NULL. */
static blobc_status check_args(const char *fn, const blobc_bake_options *opts,
                               const blobc_buffer *out, blobc_error *err) {
    if (!out) return blobc_err_arg(err, fn, "out is NULL");
    if ((unsigned)opts->input > BLOBC_INPUT_TSV)
        return blobc_err_arg(err, fn, "opts->input is not a blobc_input_format");
    if ((unsigned)opts->output > BLOBC_OUTPUT_UNITY)
        return blobc_err_arg(err, fn, "opts->output is not a blobc_output_format");
    if ((unsigned)opts->unity.length > BLOBC_UNITY_LENGTH_EXACT)
        return blobc_err_arg(err, fn, "opts->unity.length is not a blobc_unity_length");
    return BLOBC_OK;
}

/* One run of the front end over the input, and the image; *reorder
 * when an in-order builder found the document out of the blob's order
 * (the run's outcome then means nothing). */
static blobc_status bake_once(bk *k, const source *src, blobc_input_format fmt,
                              blobc_buffer *out, bool *reorder) {
    blobc_status st = src->text ? bk_run_front_end(k, fmt, src->text, src->len)
                                : bk_bake_yaml(k, NULL, 0, src->read, src->data, src->size);
    *reorder = k->b && blobc_builder_out_of_order(k->b);
    if (*reorder) return st;
    if (bk_kept(k, st)) st = BLOBC_OK; /* never returned, but its error is kept */
    blobc_status cut = st != BLOBC_OK && src->cut ? src->cut(src->data, k->err) : BLOBC_OK;
    if (cut != BLOBC_OK) st = cut;
    st = bk_diag_finish(k, st);
    if (!st) st = finish(k, out);
    *reorder = k->reorder;
    return st;
}

/* JSON in memory is baked with an in-order builder first, which writes
 * the image as the values come; a document whose order is not the blob's
 * (keys out of the schema's order, a default filled in at the end of an
 * object) is baked again with the ordinary builder, which lays out any
 * order. */
static blobc_status bake(const source *src, const char *filename, blobc_input_format fmt,
                         const blobc_bake_options *opts, blobc_buffer *out, blobc_error *err) {
    blobc_error_clear(err);
    out->len = 0;
    if (src->text && !src->text_checked &&
        !blobc_text_check(filename, src->text, src->len, TEXT_EXPECTED, err))
        return BLOBC_EINPUT;
    size_t warned = 0;
    for (int pass = 0;; pass++) {
        bk k;
        bk_init(&k, filename, opts, err);
        k.resolve_root = resolve_root;
        k.in_order = pass == 0 && fmt != BLOBC_INPUT_YAML && src->text;
        k.size_hint = src->len;
        k.warn_skip = warned;
        bool reorder;
        blobc_status st = bake_once(&k, src, fmt, out, &reorder);
        warned = k.warned;
        bk_free(&k);
        if (!reorder) {
            if (st) out->len = 0;
            return st;
        }
        blobc_error_clear(err);
        out->len = 0;
    }
}

blobc_status blobc_bake_stream(blobc_stream_pull *pull, void *ctx, const blobc_bake_options *opts,
                               const char *file, const char *schema_name, blobc_buffer *out,
                               blobc_error *err) {
    blobc_error_clear(err);
    out->len = 0;
    bk k;
    bk_init(&k, file, opts, err);
    k.resolve_root = resolve_root;
    blobc_status st = BLOBC_OK;
    if (schema_name && !(k.meta_schema = blobc_arena_strndup(&k.arena, schema_name,
                                                             strlen(schema_name))))
        st = blobc_err_nomem(err);
    bk_pos pos = {0, 0, 0};
    if (!st) st = bk_resolve_root(&k, &pos);
    if (!st) st = bk_fill_stream(&k, pull, ctx);
    if (!st) st = finish(&k, out);
    bk_free(&k);
    if (st) out->len = 0;
    return st;
}

blobc_input_format bk_detect(const char *text, size_t len, const char *filename,
                             blobc_input_format fmt) {
    if (fmt == BLOBC_INPUT_AUTO) fmt = by_extension(filename);
    if (fmt == BLOBC_INPUT_AUTO) {
        bool decided;
        fmt = by_content(text, len, &decided);
    }
    return fmt;
}

blobc_input_format blobc_input_format_of(const char *text, size_t len, const char *filename) {
    return bk_detect(text ? text : "", text ? len : 0, filename, BLOBC_INPUT_AUTO);
}

blobc_status bk_run_front_end(bk *k, blobc_input_format fmt, const char *text, size_t len) {
    k->resolve_root = resolve_root;
    if (fmt == BLOBC_INPUT_CSV || fmt == BLOBC_INPUT_TSV)
        return bk_bake_csv(k, text, len, fmt == BLOBC_INPUT_TSV);
    return fmt == BLOBC_INPUT_JSON ? bk_bake_json(k, text, len)
                                   : bk_bake_yaml(k, text, len, NULL, NULL, 0);
}

blobc_status blobc_bake_memory(const char *text, size_t len, const char *filename,
                               const blobc_bake_options *opts, blobc_buffer *out,
                               blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    blobc_bake_options defaults;
    memset(&defaults, 0, sizeof defaults);
    if (!opts) opts = &defaults;
    blobc_status st = check_args(__func__, opts, out, err);
    if (st) return st;
    if (!text && len) return blobc_err_arg(err, __func__, "len is not 0 but text is NULL");
    if (!filename) filename = "<input>";
    source src = {text ? text : "", text ? len : 0, NULL, NULL, 0, NULL, false};
    return bake(&src, filename, bk_detect(src.text, src.len, filename, opts->input), opts, out,
                err);
}

/* ---- files ---- */

typedef struct stream {
    FILE *f;
    const unsigned char *pre; /* bytes read ahead to detect the format */
    size_t pre_len, pre_pos;
    uint64_t max;             /* bytes allowed (UINT64_MAX for a regular file) */
    blobc_textscan scan;      /* scan.off: bytes handed to the parser so far */
    bool binary, too_large;   /* why the stream was cut */
    uint64_t bad;
    uint8_t bad_byte;
    const char *path, *name;  /* as given; for messages */
} stream;

/* Hands the parser the next chunk, cutting the stream (a read error for
 * the parser, replaced by the real reason afterwards) at the first byte
 * that is not text or past the maximum input size. */
static int stream_read(void *data, unsigned char *buf, size_t size, size_t *got) {
    stream *s = data;
    size_t n;
    if (s->pre_pos < s->pre_len) {
        n = s->pre_len - s->pre_pos;
        if (n > size) n = size;
        memcpy(buf, s->pre + s->pre_pos, n);
        s->pre_pos += n;
    } else {
        n = fread(buf, 1, size, s->f);
        if (n == 0 && ferror(s->f)) return 0;
    }
    *got = n;
    if (s->binary || s->too_large) return 0;
    if (s->scan.off != UINT64_MAX && n > s->max - s->scan.off) s->too_large = true;
    else s->binary = blobc_textscan_run(&s->scan, buf, n, &s->bad, &s->bad_byte);
    return !s->binary && !s->too_large;
}

static blobc_status io_error(blobc_error *err, const char *what, const char *path, int e) {
    blobc_error_clear(err);
    return blobc_err_io(err, what, path, e);
}

/* The error of a stream that was cut, in place of the parser's. */
static blobc_status stream_cut(void *data, blobc_error *err) {
    const stream *s = data;
    if (s->too_large) {
        blobc_error_clear(err);
        return blobc_input_too_large(err, s->path, s->max);
    }
    if (s->binary) {
        blobc_error_clear(err);
        blobc_err_file(err, s->name);
        return blobc_err_binary(err, s->bad, s->bad_byte, TEXT_EXPECTED);
    }
    if (ferror(s->f)) return io_error(err, "read", s->path, errno);
    return BLOBC_OK;
}

blobc_status blobc_bake_file(const char *path, const blobc_bake_options *opts, blobc_buffer *out,
                             blobc_error *err) {
    blobc_bake_options defaults;
    memset(&defaults, 0, sizeof defaults);
    if (!opts) opts = &defaults;
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    blobc_status bad = check_args(__func__, opts, out, err);
    if (bad) return bad;
    if (!path) return blobc_err_arg(err, __func__, "path is NULL");
    out->len = 0;
    bool is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    uint64_t max = opts->max_input ? opts->max_input : BLOBC_DEFAULT_MAX_INPUT;
    if (!is_stdin && blobc_writes_over(opts->output_path, path))
        return blobc_err_refuse_input(err, name, opts->output_path);
    blobc_input_format fmt = opts->input;
    if (fmt == BLOBC_INPUT_AUTO && !is_stdin) fmt = by_extension(path);

    /* Only a regular file: opened without waiting, and mapped (a stream
     * would be opened as it is). A table is read whole too. */
    bool whole = fmt == BLOBC_INPUT_JSON || fmt == BLOBC_INPUT_CSV || fmt == BLOBC_INPUT_TSV;
    if (whole || opts->regular_files) {
        /* A regular file is mapped: no copy of the text and no page
         * clearing for it (the text check is then a pass of its own). */
        blobc_file_view v;
        blobc_read_options ro = {max, false, TEXT_EXPECTED, 0, opts->regular_files};
        blobc_status st = blobc_file_map_ex(path, &ro, &v, err);
        if (st && st != BLOBC_ENOMEM && !is_stdin && opts->unread) opts->unread(opts->unread_ctx, path);
        if (st) return st;
        source src = {(const char *)v.data, v.len, NULL, NULL, 0, NULL, !v.mapped};
        st = bake(&src, name, bk_detect(src.text, src.len, name, fmt), opts, out, err);
        blobc_file_unmap(&v);
        return st;
    }

    FILE *f = is_stdin ? stdin : blobc_os_fopen(path, "rb");
    if (!f) {
        int e = errno; /* before the caller's hook */
        if (opts->unread) opts->unread(opts->unread_ctx, path);
        return io_error(err, "open", path, e);
    }
    blobc_os_info sb;
    bool regular = blobc_os_fstat_stream(f, &sb) == 0 && sb.kind == BLOBC_OS_REGULAR;
    if (regular) max = UINT64_MAX;
    /* Read ahead until the first non-blank byte decides the format. */
    blobc_buffer pre = {0};
    bool decided = fmt != BLOBC_INPUT_AUTO;
    while (!decided) {
        if (!blobc_buf_reserve(&pre, 4096)) {
            if (!is_stdin) fclose(f);
            blobc_buffer_free(&pre);
            return blobc_err_nomem(err);
        }
        size_t n = fread(pre.data + pre.len, 1, 4096, f);
        pre.len += n;
        if (n == 0 || pre.len > max) {
            bool over = pre.len > max;
            if (ferror(f) || over) {
                int e = errno;
                if (!is_stdin) fclose(f);
                blobc_buffer_free(&pre);
                return over ? blobc_input_too_large(err, path, max) : io_error(err, "read", path, e);
            }
            fmt = BLOBC_INPUT_YAML;
            break;
        }
        fmt = by_content((const char *)pre.data, pre.len, &decided);
    }

    blobc_status st;
    if (fmt != BLOBC_INPUT_YAML) {
        /* The JSON and CSV readers need the whole text: read the rest after what we have,
         * stopping early at the limit or at binary data. */
        blobc_textscan scan = {0};
        uint64_t bad_at;
        uint8_t bad_byte;
        size_t scanned = 0;
        for (;;) {
            if (!blobc_buf_reserve(&pre, 64 * 1024)) {
                st = blobc_err_nomem(err);
                goto done;
            }
            size_t n = fread(pre.data + pre.len, 1, pre.cap - pre.len, f);
            pre.len += n;
            if (n == 0) break;
            if (pre.len > max) {
                st = blobc_input_too_large(err, path, max);
                goto done;
            }
            if (blobc_textscan_run(&scan, pre.data + scanned, pre.len - scanned, &bad_at,
                                   &bad_byte)) {
                blobc_err_file(err, name);
                st = blobc_err_binary(err, bad_at, bad_byte, TEXT_EXPECTED);
                goto done;
            }
            scanned = pre.len;
        }
        if (ferror(f)) {
            st = io_error(err, "read", path, errno);
            goto done;
        }
        source src = {pre.data ? (const char *)pre.data : "", pre.len, NULL, NULL, 0, NULL, false};
        st = bake(&src, name, fmt, opts, out, err);
    } else {
        stream s = {f, pre.data, pre.len, 0, max, {0}, false, false, 0, 0, path, name};
        source src = {NULL, 0, stream_read, &s, 0, stream_cut, false};
        if (regular && sb.size > 0 && sb.size < SIZE_MAX) src.size = (size_t)sb.size;
        st = bake(&src, name, BLOBC_INPUT_YAML, opts, out, err);
    }
done:
    if (!is_stdin) fclose(f);
    blobc_buffer_free(&pre);
    return st;
}
