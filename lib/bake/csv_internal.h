/*
 * csv_internal.h - what the CSV and TSV front end (csv.c, a table's rows
 * into a list) and the reader of its text (csv_read.c, RFC 4180 rows of
 * cells with their places) share, and what else reads a table (text.c,
 * the string tables of localized text). Private.
 */
#ifndef BLOBC_CSV_INTERNAL_H
#define BLOBC_CSV_INTERNAL_H

#include "bake/bake_internal.h"

/* Deepest dotted path a header cell may spell. */
#define CSV_MAX_STEPS 64

/* What a leaf does with its cell. */
enum { LEAF_SCALAR, LEAF_SPLIT, LEAF_MAP };
/* The program's operations. */
enum { OP_OPEN_STRUCT, OP_OPEN_FIXED, OP_LEAF, OP_CLOSE };

typedef struct csv_op {
    uint8_t op;
    uint8_t leaf;             /* LEAF: LEAF_* */
    uint8_t tok;              /* LEAF: the token its cell (or item, or map value) stores as */
    char sep;                 /* LEAF_SPLIT, LEAF_MAP: between items / pairs */
    bool in_fixed;            /* the step is an item of a fixed array (bk_item), not a field */
    const blobc_field *field; /* the step into a struct, when not in_fixed */
    uint32_t end;             /* OPEN: the index of its CLOSE; LEAF: itself */
    uint32_t col;             /* LEAF: its column; OPEN: the first column under it */
    uint32_t lo, hi;          /* OPEN: the leaves under it are ops lo..hi */
} csv_op;

typedef struct csv_cell {
    size_t s, n;              /* its text: in the input, or in the row's buffer */
    bool copied;              /* in the row's buffer */
    bk_pos pos;               /* where it starts */
} csv_cell;

typedef struct csv_col {
    char *name;               /* the header cell, for messages */
    uint32_t steps[CSV_MAX_STEPS]; /* field or item index per step, for the sort */
    uint32_t nsteps;
    const blobc_type *type;   /* the leaf's type */
    char sep;
    bk_pos pos;
} csv_col;

typedef struct csv {
    bk *k;
    const char *text;
    size_t len, i;            /* where the reading goes on */
    char sep;                 /* ',' or '\t' */
    uint32_t line;            /* of text[i] */
    size_t line_start;        /* offset of the line's first byte */
    size_t cont;              /* UTF-8 continuation bytes on the line before i */
    size_t bom;               /* 3 when the text starts with a byte order mark */
    size_t base;              /* where the text starts among the bake's tables'
                                 (positions' offsets count across them all) */
    csv_cell *cells;
    size_t ncells, cells_cap;
    blobc_buffer copy;        /* the row's copied cells */
    csv_col *cols;
    uint32_t ncols;
    csv_op *ops;
    size_t nops, ops_cap;
    const blobc_field *table;
    uint32_t tags_col;        /* 1 + the $tags column, 0 when there is none */
    char tags_sep;            /* what splits its cells, 0 for one tag a cell */
    unsigned char stop[256];  /* stop_class of every byte */
} csv;

/* The tables of one bake: the input, then opts->tables, each read when
 * its turn comes and kept to the end, where references are resolved and
 * an error may point into any of them. */
typedef struct csv_table {
    const char *name;
    const char *text;
    size_t len, base;
    uint8_t *owned;
} csv_table;

/* ---- reading (csv_read.c) ---- */

/* Starts reading c->text (c->len bytes; c->k, c->base set): the
 * separator, a byte order mark stepped over, blank lines skipped. */
void csv_begin(csv *c, bool tsv);
/* The place of byte `off` of the text. */
bk_pos csv_here(const csv *c, size_t off);
/* bk.locate of a bake whose k->fe is a csv_table list (ended by one
 * without a name). */
void csv_locate(bk *k, const bk_pos *pos);
/* An error at pos: a mistake in the text itself (syntax: reported
 * alone, and the bake stops) or a header cell's, kept with the others
 * and naming its column. */
blobc_status csv_fail(csv *c, const bk_pos *pos, const char *column, bool syntax,
                      const char *fmt, ...) BLOBC_PRINTF(5, 6);
#define syntax_fail(c, pos, ...) csv_fail(c, pos, NULL, true, __VA_ARGS__)
#define header_fail(c, col, ...) csv_fail(c, &(col)->pos, (col)->name, false, __VA_ARGS__)
/* The cells of the row at c->i, up to its line end (stepped over). */
blobc_status csv_read_row(csv *c);
/* A cell's text (cell->n bytes, in the input or the row's buffer). */
const char *csv_cell_text(const csv *c, const csv_cell *cell);
/* Steps over lines that hold nothing. */
void csv_skip_blank(csv *c);

#endif
