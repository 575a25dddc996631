/*
 * text.c - localized text: a field declared `text` holds a key of a
 * string table (`bake --strings strings.csv`), a CSV or TSV file whose
 * first column is the key and whose other columns are languages; `--lang
 * fr` bakes each key as its "fr" text (docs/AUTHORING.md, "Localized
 * text"). Without --lang the keys are only checked to be in the table.
 *
 * The table is read once per bake, before any value, with the CSV reader
 * (csv_read.c), its errors naming its lines;
 * the texts of the one language taken, and its keys, are kept in one
 * buffer with a hash index.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bake/csv_internal.h"

typedef struct text_row {
    size_t key, klen;  /* in chars, NUL-terminated */
    size_t text, tlen; /* the language's text, or the first language's when it has none */
    uint32_t line;     /* in the table */
    bool missing;      /* the language's cell is empty */
} text_row;

struct bk_texts {
    blobc_buffer chars;
    text_row *rows;
    size_t n, cap;
    blobc_hashtab index;     /* key -> rows */
    const char *lang;        /* the column taken, or NULL: keys only */
    char *first;             /* the first language's name, for messages */
    size_t missing;          /* texts baked without a translation */
};

static bool has_text(const blobc_schema *s) {
    for (size_t i = 0, n = blobc_schema_count(s); i < n; i++) {
        const blobc_type *t = blobc_schema_at(s, i);
        for (uint32_t f = 0; t->kind == BLOBC_KIND_STRUCT && f < t->nfields; f++)
            if (t->fields[f].flags & BLOBC_FIELD_TEXT) return true;
    }
    return false;
}

static const text_row *find_row(const bk_texts *t, const char *key, size_t n) {
    blobc_hprobe p;
    for (uint32_t i = blobc_hashtab_first(&t->index, blobc_hash_bytes(key, n), &p); i;
         i = blobc_hashtab_next(&t->index, &p)) {
        const text_row *r = &t->rows[i - 1];
        if (r->klen == n && memcmp(t->chars.data + r->key, key, n) == 0) return r;
    }
    return NULL;
}

/* The column of the language asked for among the header's cells. */
static blobc_status pick_lang(csv *c, const char *lang, uint32_t *col) {
    char list[300] = "";
    for (uint32_t i = 1; i < c->ncells; i++) {
        const char *s = csv_cell_text(c, &c->cells[i]);
        size_t n = c->cells[i].n;
        if (strlen(lang) == n && memcmp(s, lang, n) == 0) return *col = i, BLOBC_OK;
        size_t at = strlen(list);
        snprintf(list + at, sizeof list - at, "%s%.*s", i > 1 ? ", " : "", (int)(n > 40 ? 40 : n), s);
    }
    return csv_fail(c, &c->cells[0].pos, NULL, false, "--lang %s: the table has no column \"%s\" "
                    "(its languages: %s)", lang, lang, c->ncells > 1 ? list : "none");
}

/* One row into the table: its key and the language's text. */
static blobc_status add_row(csv *c, bk_texts *t, uint32_t col, uint32_t line) {
    const csv_cell *kc = &c->cells[0];
    if (kc->n == 0) return csv_fail(c, &kc->pos, NULL, false, "a row without a key (the first cell)");
    const char *key = csv_cell_text(c, kc);
    const text_row *old = find_row(t, key, kc->n);
    char at[BLOBC_PLACE_BUF];
    if (old)
        return csv_fail(c, &kc->pos, NULL, false, "key \"%.*s\" is given twice (first at %s)",
                        (int)(kc->n > 200 ? 200 : kc->n), key,
                        blobc_place(at, sizeof at, c->k->filename, old->line, 1));
    uint32_t use = col;
    bool missing = col && (col >= c->ncells || c->cells[col].n == 0);
    if (missing) use = 1;
    const csv_cell *tc = use && use < c->ncells ? &c->cells[use] : NULL;
    if (!blobc_grow((void **)&t->rows, &t->cap, t->n + 1, sizeof *t->rows) ||
        t->n >= UINT32_MAX - 1)
        return blobc_err_nomem(c->k->err);
    text_row *r = &t->rows[t->n];
    r->key = t->chars.len;
    r->klen = kc->n;
    r->line = line;
    r->missing = missing;
    /* NUL-terminated, for a did-you-mean over the keys */
    if (!blobc_buf_append(&t->chars, key, kc->n) || !blobc_buf_putc(&t->chars, '\0'))
        return blobc_err_nomem(c->k->err);
    r->text = t->chars.len;
    r->tlen = tc ? tc->n : 0;
    if (tc && !blobc_buf_append(&t->chars, csv_cell_text(c, tc), tc->n))
        return blobc_err_nomem(c->k->err);
    if (!blobc_hashtab_add(&t->index, blobc_hash_bytes(key, kc->n), (uint32_t)++t->n))
        return blobc_err_nomem(c->k->err);
    return BLOBC_OK;
}

/* Reads the table's text. */
static blobc_status read_texts(bk *tk, const char *text, size_t len, bool tsv, bk_texts *t) {
    csv c;
    memset(&c, 0, sizeof c);
    c.k = tk;
    c.text = text;
    c.len = len;
    csv_begin(&c, tsv);
    blobc_status st = BLOBC_OK;
    uint32_t col = 0;
    if (c.i >= c.len) {
        bk_pos pos = {c.line, 1, c.i};
        st = csv_fail(&c, &pos, NULL, false, "no header row (the first row names the key column, "
                      "then one column per language)");
    }
    if (!st) st = csv_read_row(&c);
    if (!st && c.ncells > 1) {
        if (!(t->first = malloc(c.cells[1].n + 1))) return blobc_err_nomem(tk->err);
        memcpy(t->first, csv_cell_text(&c, &c.cells[1]), c.cells[1].n);
        t->first[c.cells[1].n] = '\0';
    }
    if (!st && t->lang) st = pick_lang(&c, t->lang, &col);
    while (!st) {
        csv_skip_blank(&c);
        if (c.i >= c.len) break;
        uint32_t line = c.line;
        if (!(st = csv_read_row(&c))) st = add_row(&c, t, col, line);
    }
    free(c.cells);
    blobc_buffer_free(&c.copy);
    return st;
}

void bk_texts_free(bk *k) {
    bk_texts *t = k->texts;
    if (!t) return;
    blobc_buffer_free(&t->chars);
    blobc_hashtab_free(&t->index);
    free(t->rows);
    free(t->first);
    free(t);
    k->texts = NULL;
}

blobc_status bk_texts_load(bk *k, bool tsv) {
    const blobc_bake_options *o = k->opts;
    if (!o->strings) {
        if (!o->lang) return BLOBC_OK;
        return blobc_err_arg(k->err, "blobc_bake", "opts->lang is set without opts->strings, the "
                             "table its texts come from");
    }
    if (!has_text(k->schema)) {
        const char *file = blobc_schema_filename(k->schema);
        return bk_fail(k, BLOBC_EINPUT, NULL, BK_AT_CONTAINER, NULL, 0,
                       "--strings %s: schema %s has no text field for its keys (declare one: "
                       "`name: text;`)", o->strings, file && file[0] ? file : "(embedded)");
    }
    if (blobc_writes_over(o->output_path, o->strings))
        return blobc_err_refuse_input(k->err, o->strings, o->output_path);
    blobc_read_options ro = {o->max_input ? o->max_input : BLOBC_DEFAULT_MAX_INPUT, false,
                             "CSV or TSV text", 0, o->regular_files};
    uint8_t *data;
    size_t len;
    blobc_status st = blobc_read_file_ex(o->strings, &ro, &data, &len, k->err);
    if (st && st != BLOBC_ENOMEM && o->unread) o->unread(o->unread_ctx, o->strings);
    if (st) return st;
    bk_texts *t = calloc(1, sizeof *t);
    if (!t) {
        free(data);
        return blobc_err_nomem(k->err);
    }
    k->texts = t;
    t->lang = o->lang;
    blobc_hashtab_init(&t->index, NULL);
    /* The bake reads the table before any value (there is no frame yet),
     * its messages placed in the table's text, and without a sink for the
     * while: the first error in the table ends the bake. */
    csv_table tab[2] = {{o->strings, (const char *)data, len, 0, NULL}, {NULL, NULL, 0, 0, NULL}};
    void *fe = k->fe;
    void (*locate)(bk *, const bk_pos *) = k->locate;
    const char *filename = k->filename;
    blobc_diag_sink *sink = k->sink;
    k->fe = tab;
    k->locate = csv_locate;
    k->filename = o->strings;
    k->sink = NULL;
    st = read_texts(k, (const char *)data, len, tsv, t);
    k->fe = fe;
    k->locate = locate;
    k->filename = filename;
    k->sink = sink;
    free(data);
    return st;
}

static blobc_status translate(bk *k, const blobc_field *fld, const char **s, size_t *n,
                              const bk_pos *pos) {
    bk_texts *t = k->texts;
    const text_row *r = find_row(t, *s, *n);
    char q[200];
    if (!r) {
        bk_quote(q, sizeof q, *s, *n);
        /* a did-you-mean over the keys: for a table of a size that allows
         * one, and only for an error that will be shown (data full of
         * unknown keys must not cost one pass over the table each) */
        const char *best = NULL;
        const char **list = t->n <= 20000 && !k->muted ? malloc((t->n + 1) * sizeof *list) : NULL;
        for (size_t i = 0; list && i < t->n; i++) list[i] = (const char *)t->chars.data + t->rows[i].key;
        if (list) best = bk_closest(*s, *n, list, t->n);
        blobc_status st = bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                                  "text key %s is not in %s%s%s%s", q, k->opts->strings,
                                  best ? "; did you mean \"" : "", best ? best : "",
                                  best ? "\"?" : "");
        free(list);
        return bk_soft(k, st);
    }
    if (!t->lang) return BLOBC_OK; /* keys only */
    if (r->missing) {
        bk_quote(q, sizeof q, *s, *n);
        t->missing++;
        char at[BLOBC_PLACE_BUF];
        bk_warn(k, pos, NULL, 0, "no \"%s\" text for %s (at %s); its \"%s\" text is used", t->lang,
                q, blobc_place(at, sizeof at, k->opts->strings, r->line, 1), t->first ? t->first : "");
    }
    *s = (const char *)t->chars.data + r->text;
    *n = r->tlen;
    return BLOBC_OK;
}

blobc_status bk_translate(bk *k, const blobc_field *fld, const char **s, size_t *n,
                          const bk_pos *pos) {
    bool each;
    if (!fld) return (fld = bk_filled_field(k, &each)) && (fld->flags & BLOBC_FIELD_TEXT)
                         ? translate(k, fld, s, n, pos) : BLOBC_OK;
    if (!(fld->flags & BLOBC_FIELD_TEXT)) return BLOBC_OK;
    /* a default's: messages name its field, in the struct it ends */
    bk_frame *f = k->depth && k->fr[k->depth - 1].kind == BK_STRUCT ? &k->fr[k->depth - 1] : NULL;
    const blobc_field *was = f ? f->field : NULL;
    if (f) f->field = fld;
    blobc_status st = translate(k, fld, s, n, pos);
    if (f) f->field = was;
    return st;
}
