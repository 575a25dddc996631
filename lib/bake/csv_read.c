/*
 * csv_read.c - reading a CSV or TSV text (RFC 4180): a row's cells in
 * place (a span of the text; only a quoted cell holding "" or a line break
 * is copied, into one buffer the row reuses), and the places of cells for
 * messages. Positions are counted as the text is read (lines, and
 * characters from the line's start), so a message names the row's line
 * and the cell's column however many lines a quoted cell spans.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake/csv_internal.h"

bk_pos csv_here(const csv *c, size_t off) {
    bk_pos p = {c->line, (uint32_t)(off - c->line_start - c->cont + 1), c->base + off};
    if (c->line_start == 0 && c->bom) p.col--;
    return p;
}

void csv_locate(bk *k, const bk_pos *pos) {
    const csv_table *t = k->fe;
    while (t[1].name && t[1].base <= pos->off) t++;
    blobc_err_at(k->err, t->name, pos->line, pos->col);
    blobc_err_source_line(k->err, t->text, t->len, pos->off - t->base);
}

/* An error at pos: a mistake in the text itself (syntax: reported
 * alone, and the bake stops) or a header cell's, kept with the others
 * and naming its column. */
blobc_status csv_fail(csv *c, const bk_pos *pos, const char *column, bool syntax,
                      const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bk *k = c->k;
    k->column = column;
    if (syntax) {
        k->syntax = true;
        k->muted = false; /* reported, whatever came before */
        k->depth = 0;     /* the text is no value: no path */
    }
    blobc_status st = bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, NULL, 0, "%s%s",
                              !syntax ? "" : c->sep == '\t' ? "invalid TSV: " : "invalid CSV: ",
                              msg);
    k->column = NULL;
    return syntax ? st : bk_soft(k, st);
}

/* Bytes >= 0x80: one UTF-8 sequence, counted for columns, or an error. */
static blobc_status utf8_at(csv *c, size_t *i) {
    uint32_t cp;
    size_t n = blobc_utf8_seq((const uint8_t *)c->text + *i, c->len - *i, &cp);
    if (!n) {
        bk_pos p = csv_here(c, *i);
        return syntax_fail(c, &p, "invalid UTF-8 (byte 0x%02x)", (unsigned char)c->text[*i]);
    }
    c->cont += n - 1;
    *i += n;
    return BLOBC_OK;
}

static void new_line(csv *c, size_t next) {
    c->line++;
    c->line_start = next;
    c->cont = 0;
}

/* Bytes an unquoted cell stops at: 1 the separator or a line end, 2 a
 * quote, 3 the start of a multi-byte character; a table, for the loop
 * every byte of the text goes through. */
static void stop_classes(csv *c) {
    for (unsigned b = 0; b < 256; b++)
        c->stop[b] = b == (unsigned char)c->sep || b == '\n' || b == '\r' ? 1
                     : b == '"'                                           ? 2
                     : b >= 0x80                                          ? 3
                                                                          : 0;
}

static blobc_status add_cell(csv *c, size_t s, size_t n, bool copied, bk_pos pos) {
    if (!blobc_grow((void **)&c->cells, &c->cells_cap, c->ncells + 1, sizeof *c->cells))
        return blobc_err_nomem(c->k->err);
    c->cells[c->ncells++] = (csv_cell){s, n, copied, pos};
    return BLOBC_OK;
}

/* A quoted cell from its opening quote at c->i: up to the closing one,
 * "" read as one quote and a line break (CRLF, CR or LF) as LF; copied
 * only when it holds either. */
static blobc_status quoted_cell(csv *c) {
    const char *t = c->text;
    bk_pos open = csv_here(c, c->i);
    size_t i = c->i + 1, from = i, base = c->copy.len;
    bool copied = false;
    for (;;) {
        if (i >= c->len)
            return syntax_fail(c, &open, "a quoted cell is not closed (no quote ends the one here)");
        unsigned char b = (unsigned char)t[i];
        if (b == '"' && !(i + 1 < c->len && t[i + 1] == '"')) break;
        if (b == '"' || b == '\r' || b == '\n') {
            /* "" or a line break: the text so far, then the one byte it stands for */
            if (!blobc_buf_append(&c->copy, t + from, i - from) ||
                !blobc_buf_putc(&c->copy, b == '"' ? '"' : '\n'))
                return blobc_err_nomem(c->k->err);
            copied = true;
            i += b == '"' || (b == '\r' && i + 1 < c->len && t[i + 1] == '\n') ? 2 : 1;
            if (b != '"') new_line(c, i);
            from = i;
        } else if (b >= 0x80) {
            blobc_status st = utf8_at(c, &i);
            if (st) return st;
        } else {
            i++;
        }
    }
    size_t s = from, n;
    if (copied) {
        if (!blobc_buf_append(&c->copy, t + from, i - from)) return blobc_err_nomem(c->k->err);
        s = base;
        n = c->copy.len - base;
    } else {
        s = c->i + 1;
        n = i - s;
    }
    c->i = i + 1;
    if (c->i < c->len && c->stop[(unsigned char)t[c->i]] != 1) {
        bk_pos p = csv_here(c, c->i);
        return syntax_fail(c, &p, "text after a quoted cell's closing quote (a quote inside a "
                                  "quoted cell is written twice: \"\")");
    }
    return add_cell(c, s, n, copied, open);
}

/* The cells of the row at c->i, up to its line end (stepped over). */
blobc_status csv_read_row(csv *c) {
    const char *t = c->text;
    c->ncells = 0;
    c->copy.len = 0;
    for (;;) {
        blobc_status st;
        if (c->i < c->len && t[c->i] == '"') {
            if ((st = quoted_cell(c))) return st;
        } else {
            size_t i = c->i;
            unsigned char k = 0;
            for (;;) {
                while (i < c->len && !(k = c->stop[(unsigned char)t[i]])) i++;
                if (i >= c->len || k == 1) break;
                if (k == 2) {
                    bk_pos p = csv_here(c, i);
                    return syntax_fail(c, &p, "a quote inside a cell that does not start with "
                                              "one (quote the whole cell and write the quote "
                                              "twice: \"\")");
                }
                if ((st = utf8_at(c, &i))) return st;
            }
            if ((st = add_cell(c, c->i, i - c->i, false, csv_here(c, c->i)))) return st;
            c->i = i;
        }
        if (c->i >= c->len) return BLOBC_OK;
        char b = t[c->i++];
        if (b == c->sep) continue;
        if (b == '\r' && c->i < c->len && t[c->i] == '\n') c->i++;
        new_line(c, c->i);
        return BLOBC_OK;
    }
}

const char *csv_cell_text(const csv *c, const csv_cell *cell) {
    return cell->copied ? (const char *)c->copy.data + cell->s : c->text + cell->s;
}

/* Steps over lines that hold nothing. */
void csv_skip_blank(csv *c) {
    while (c->i < c->len && (c->text[c->i] == '\n' || c->text[c->i] == '\r')) {
        c->i += c->text[c->i] == '\r' && c->i + 1 < c->len && c->text[c->i + 1] == '\n' ? 2 : 1;
        new_line(c, c->i);
    }
}

void csv_begin(csv *c, bool tsv) {
    c->sep = tsv ? '\t' : ',';
    c->line = 1;
    stop_classes(c);
    if (c->len >= 3 && memcmp(c->text, "\xEF\xBB\xBF", 3) == 0) c->i = c->bom = 3;
    csv_skip_blank(c);
}
