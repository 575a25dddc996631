/*
 * csv.c - the CSV and TSV front end: a spreadsheet's rows as the items of
 * one [T] field of the root struct, its header row naming the fields of T
 * (docs/AUTHORING.md, "From a spreadsheet").
 *
 * The header is read once into a program: its column paths sorted into
 * the order of the schema's fields, as opens of nested structs and fixed
 * arrays, leaves and closes, so that every row fills its item in one pass
 * with each nested struct opened once and each field found without a
 * name lookup. A row's cells are all read (csv_read.c) before the program
 * runs over them, since the columns may come in any order. Cells are
 * text: a string takes a cell as written, any other type reads it as YAML
 * reads a plain scalar.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake/csv_internal.h"

/* ---- the header ---- */

static const blobc_type *through(const blobc_type *t) {
    while (t->kind == BLOBC_KIND_OPTIONAL || (t->kind == BLOBC_KIND_PTR && !t->ref)) t = t->elem;
    return t;
}

/* Whether a value of t fits in one cell (or one item or entry of it). */
static bool scalar_like(const blobc_type *t) {
    t = through(t);
    return blobc_kind_is_scalar(t->kind) || t->kind == BLOBC_KIND_STRING ||
           t->kind == BLOBC_KIND_ENUM || t->kind == BLOBC_KIND_PTR;
}

/* How a cell for t is read: a string (or a reference by a string key)
 * takes its text as written, so "null" or "~" stay text; anything else
 * as a YAML plain scalar. */
static uint8_t token_for(const blobc_type *t) {
    t = through(t);
    if (t->kind == BLOBC_KIND_PTR && t->ref) {
        const blobc_type *e = t->elem;
        if (e->key) t = through(e->fields[e->key - 1].type);
    }
    return t->kind == BLOBC_KIND_STRING ? BK_TOK_QUOTED : BK_TOK_PLAIN;
}

static bool is_sep_char(char ch) {
    return ch > ' ' && ch < 0x7f && !(ch >= '0' && ch <= '9') && !(ch >= 'a' && ch <= 'z') &&
           !(ch >= 'A' && ch <= 'Z') && ch != '_' && ch != '.';
}

/* The field `name` (n bytes) of struct st, or an error with a did-you-mean. */
static blobc_status find_field(csv *c, csv_col *col, const blobc_type *st, const char *name,
                               size_t n, const blobc_field **out) {
    *out = blobc_struct_find_field(st, name, n);
    if (*out) return BLOBC_OK;
    const char *names[256];
    size_t m = 0;
    for (uint32_t i = 0; i < st->nfields && m < 256; i++) names[m++] = st->fields[i].name;
    const char *best = bk_closest(name, n, names, m);
    char q[200], list[300];
    bk_quote(q, sizeof q, name, n);
    if (best) return header_fail(c, col, "struct %s has no field %s; did you mean \"%s\"?", st->name, q, best);
    bk_list_names(list, sizeof list, st);
    return header_fail(c, col, "struct %s has no field %s (fields: %s)", st->name, q, list);
}

/* Resolves a header cell into its steps from the row's struct. */
static blobc_status resolve_col(csv *c, csv_col *col, const blobc_type *row) {
    const char *s = col->name;
    size_t n = strlen(s);
    const blobc_type *t = row;
    /* a trailing separator: "tags|" */
    char sep = 0;
    if (n > 1 && is_sep_char(s[n - 1]) && !blobc_struct_find_field(row, s, n)) sep = s[--n];
    size_t at = 0;
    if (n == 0) return header_fail(c, col, "a header cell is empty (every column needs a name)");
    while (at <= n) {
        size_t e = at;
        while (e < n && s[e] != '.') e++;
        if (col->nsteps == CSV_MAX_STEPS)
            return header_fail(c, col, "more than %d steps in one column name", CSV_MAX_STEPS);
        const blobc_type *in = through(t);
        if (e == at) return header_fail(c, col, "an empty step in the column name");
        if (in->kind == BLOBC_KIND_STRUCT) {
            const blobc_field *f;
            blobc_status st = find_field(c, col, in, s + at, e - at, &f);
            if (st) return st;
            col->steps[col->nsteps++] = (uint32_t)(f - in->fields);
            t = f->type;
        } else if (in->kind == BLOBC_KIND_FIXED) {
            uint64_t idx = 0;
            size_t j = at;
            while (j < e && s[j] >= '0' && s[j] <= '9' && idx <= UINT32_MAX) idx = idx * 10 + (uint64_t)(s[j++] - '0');
            char sp[160];
            blobc_type_spell(in, sp, sizeof sp);
            if (j != e || (e - at > 1 && s[at] == '0'))
                return header_fail(c, col, "\"%.*s\" is no index of %s (an item is named by its "
                                   "index: 0 to %u)", (int)(e - at), s + at, sp, in->count - 1);
            if (idx >= in->count)
                return header_fail(c, col, "index %llu is past the end of %s (indices 0 to %u)",
                                   (unsigned long long)idx, sp, in->count - 1);
            col->steps[col->nsteps++] = (uint32_t)idx;
            t = in->elem;
        } else {
            char sp[160];
            blobc_type_spell(t, sp, sizeof sp);
            return header_fail(c, col, "\"%.*s\" is a step into a %s, which has no fields", (int)(e - at),
                               s + at, sp);
        }
        at = e + 1;
    }
    const blobc_type *in = through(t);
    col->type = t;
    char sp[160];
    blobc_type_spell(t, sp, sizeof sp);
    if (in->kind == BLOBC_KIND_ARRAY || in->kind == BLOBC_KIND_FIXED || in->kind == BLOBC_KIND_MAP) {
        const blobc_field *f = NULL;
        const blobc_type *parent = row;
        for (uint32_t i = 0; i + 1 < col->nsteps; i++) {
            const blobc_type *p = through(parent);
            parent = p->kind == BLOBC_KIND_STRUCT ? p->fields[col->steps[i]].type : p->elem;
        }
        if (through(parent)->kind == BLOBC_KIND_STRUCT)
            f = &through(parent)->fields[col->steps[col->nsteps - 1]];
        if (!sep && f && f->sep) sep = f->sep[0];
        const blobc_type *item = in->kind == BLOBC_KIND_MAP ? blobc_map_value(in) : in->elem;
        if (!scalar_like(item) || (in->kind == BLOBC_KIND_MAP && !scalar_like(blobc_map_key(in))))
            return header_fail(c, col, "a %s does not fit in one cell (only lists, fixed arrays "
                               "and maps of scalars, strings, enums and references do)", sp);
        if (!sep)
            return header_fail(c, col, "a %s in one cell needs a separator: end the column's name "
                               "with it (\"%s|\") or declare @sep(\"|\") on the field", sp, col->name);
    } else if (!scalar_like(t)) {
        return header_fail(c, col, "a %s does not fit in one cell: name its fields (\"%s.NAME\")",
                           sp, col->name);
    } else if (sep) {
        return header_fail(c, col, "a %s takes no separator (\"%c\" ends the column's name)", sp, sep);
    }
    col->sep = sep;
    return BLOBC_OK;
}

static int cmp_cols(const void *a, const void *b) {
    const csv_col *x = *(const csv_col *const *)a, *y = *(const csv_col *const *)b;
    for (uint32_t i = 0; i < x->nsteps && i < y->nsteps; i++)
        if (x->steps[i] != y->steps[i]) return x->steps[i] < y->steps[i] ? -1 : 1;
    if (x->nsteps != y->nsteps) return x->nsteps < y->nsteps ? -1 : 1;
    return x < y ? -1 : x > y;
}

static blobc_status add_op(csv *c, csv_op op) {
    if (!blobc_grow((void **)&c->ops, &c->ops_cap, c->nops + 1, sizeof *c->ops))
        return blobc_err_nomem(c->k->err);
    c->ops[c->nops++] = op;
    return BLOBC_OK;
}

/* The containers the program has open while it is made. */
typedef struct nest {
    uint32_t depth;
    uint32_t open[CSV_MAX_STEPS + 1];      /* the op of each */
    const blobc_type *types[CSV_MAX_STEPS + 1];
    uint32_t next_item[CSV_MAX_STEPS + 1]; /* a fixed array's next index */
} nest;

/* A header error kept: *bad says so, and the program is made on. */
static blobc_status kept_bad(csv *c, blobc_status st, blobc_status *bad) {
    if (!bk_kept(c->k, st)) return st;
    *bad = BLOBC_EINPUT;
    return BLOBC_OK;
}

static blobc_status no_item(csv *c, const csv_col *col, const blobc_type *fixed, uint32_t item,
                            blobc_status *bad) {
    char sp[160];
    blobc_type_spell(fixed, sp, sizeof sp);
    return kept_bad(c, header_fail(c, col, "no column for item %u of %s: a fixed array needs a "
                                   "column for every index", item, sp), bad);
}

/* Closes the containers open deeper than `depth`; col is the last column
 * under them. */
static blobc_status close_to(csv *c, nest *ns, uint32_t depth, const csv_col *col, blobc_status *bad) {
    blobc_status st = BLOBC_OK;
    while (!st && ns->depth > depth) {
        const blobc_type *t = through(ns->types[ns->depth]);
        if (t->kind == BLOBC_KIND_FIXED && ns->next_item[ns->depth] != t->count)
            st = no_item(c, col, t, ns->next_item[ns->depth], bad);
        c->ops[ns->open[ns->depth]].end = c->ops[ns->open[ns->depth]].hi = (uint32_t)c->nops;
        if (!st) st = add_op(c, (csv_op){.op = OP_CLOSE});
        ns->depth--;
    }
    return st;
}

/* The ops of one column: opens for the containers its path enters below
 * the ones open, then its leaf. */
static blobc_status add_column(csv *c, nest *ns, const csv_col *col, blobc_status *bad) {
    for (uint32_t d = ns->depth; d < col->nsteps; d++) {
        const blobc_type *in = through(ns->types[d]);
        bool fixed = in->kind == BLOBC_KIND_FIXED;
        uint32_t step = col->steps[d];
        if (fixed && step != ns->next_item[d]) {
            blobc_status st = no_item(c, col, in, ns->next_item[d], bad);
            if (st) return st;
            ns->next_item[d] = step; /* said once */
        }
        if (fixed) ns->next_item[d]++;
        csv_op op = {.in_fixed = fixed, .field = fixed ? NULL : &in->fields[step],
                     .col = (uint32_t)(col - c->cols)};
        const blobc_type *t = fixed ? in->elem : in->fields[step].type;
        if (d + 1 == col->nsteps) {
            const blobc_type *leaf = through(t);
            op.op = OP_LEAF;
            op.leaf = !col->sep ? LEAF_SCALAR : leaf->kind == BLOBC_KIND_MAP ? LEAF_MAP : LEAF_SPLIT;
            op.sep = col->sep;
            op.tok = token_for(leaf->kind == BLOBC_KIND_MAP ? blobc_map_value(leaf)
                               : col->sep ? leaf->elem : t);
            op.end = op.lo = op.hi = (uint32_t)c->nops;
            return add_op(c, op);
        }
        op.op = through(t)->kind == BLOBC_KIND_FIXED ? OP_OPEN_FIXED : OP_OPEN_STRUCT;
        op.lo = (uint32_t)c->nops + 1;
        ns->open[d + 1] = (uint32_t)c->nops;
        ns->types[d + 1] = t;
        ns->next_item[d + 1] = 0;
        ns->depth = d + 1;
        blobc_status st = add_op(c, op);
        if (st) return st;
    }
    return BLOBC_OK;
}

/* The program from the sorted columns: an open for each struct or fixed
 * array the paths enter, a leaf per column, a close when they leave it. */
static blobc_status compile(csv *c, const blobc_type *row) {
    csv_col **order = malloc(c->ncols * sizeof *order);
    if (!order) return blobc_err_nomem(c->k->err);
    for (uint32_t i = 0; i < c->ncols; i++) order[i] = &c->cols[i];
    qsort(order, c->ncols, sizeof *order, cmp_cols);
    nest ns;
    ns.depth = 0;
    ns.types[0] = row;
    blobc_status st = BLOBC_OK, bad = BLOBC_OK;
    const csv_col *prev = NULL;
    for (uint32_t ci = 0; ci < c->ncols && !st; ci++) {
        const csv_col *col = order[ci];
        if (col->nsteps == 0) continue; /* $tags: no field's */
        if (prev && prev->nsteps <= col->nsteps &&
            memcmp(prev->steps, col->steps, prev->nsteps * sizeof *col->steps) == 0) {
            st = prev->nsteps == col->nsteps
                     ? header_fail(c, col, "a second column for one field: \"%s\" (at %u:%u) "
                                   "names it too", prev->name, prev->pos.line, prev->pos.col)
                     : header_fail(c, col, "column \"%s\" fills all of it already", prev->name);
            st = kept_bad(c, st, &bad);
            continue;
        }
        uint32_t common = 0;
        while (prev && common < ns.depth && common + 1 < col->nsteps &&
               prev->steps[common] == col->steps[common])
            common++;
        st = close_to(c, &ns, common, prev, &bad);
        if (!st) st = add_column(c, &ns, col, &bad);
        prev = col;
    }
    if (!st) st = close_to(c, &ns, 0, prev, &bad);
    free(order);
    return st ? st : bad;
}

/* The root's [T] field the rows fill: the one named by the options, or
 * the root's only list of structs. */
static blobc_status pick_table(csv *c, const char *want) {
    bk *k = c->k;
    const blobc_type *root = k->root;
    const blobc_field *only = NULL;
    size_t lists = 0;
    char names[300] = "";
    for (uint32_t i = 0; i < root->nfields; i++) {
        const blobc_type *t = through(root->fields[i].type);
        if (t->kind != BLOBC_KIND_ARRAY || through(t->elem)->kind != BLOBC_KIND_STRUCT) continue;
        only = &root->fields[i];
        size_t n = strlen(names);
        snprintf(names + n, sizeof names - n, "%s%s", lists ? ", " : "", only->name);
        lists++;
    }
    if (want) {
        const blobc_field *f = blobc_struct_find_field(root, want, strlen(want));
        const blobc_type *t = f ? through(f->type) : NULL;
        if (f && t->kind == BLOBC_KIND_ARRAY && through(t->elem)->kind == BLOBC_KIND_STRUCT) {
            c->table = f;
            return BLOBC_OK;
        }
        const char *list[256];
        size_t m = 0;
        for (uint32_t i = 0; i < root->nfields && m < 256; i++) list[m++] = root->fields[i].name;
        const char *best = f ? NULL : bk_closest(want, strlen(want), list, m);
        char q[200], hint[340];
        bk_quote(q, sizeof q, want, strlen(want));
        if (best) snprintf(hint, sizeof hint, "; did you mean \"%s\"?", best);
        else snprintf(hint, sizeof hint, " (its lists of structs: %s)", lists ? names : "none");
        return bk_fail(k, BLOBC_EINPUT, NULL, BK_AT_CONTAINER, NULL, 0,
                       f ? "--table %s: field %s of struct %s is not a list of structs%s"
                         : "--table %s: struct %s has no field %s%s",
                       q, f ? f->name : root->name, f ? root->name : q, hint);
    }
    if (lists == 1) {
        c->table = only;
        return BLOBC_OK;
    }
    if (lists == 0)
        return bk_fail(k, BLOBC_EINPUT, NULL, BK_AT_CONTAINER, NULL, 0,
                       "struct %s has no list of structs ([T] field) for a table's rows to fill",
                       root->name);
    return bk_fail(k, BLOBC_EINPUT, NULL, BK_AT_CONTAINER, NULL, 0,
                   "struct %s has %zu lists of structs (%s): --table FIELD names the one the rows "
                   "fill", root->name, lists, names);
}

/* Reads the header row and makes the program. */
/* Whether a header cell names the rows' tags: "$tags", or "$tags|"
 * with the character that splits a cell holding several. */
static bool is_tags_col(const char *name) {
    return strncmp(name, "$tags", 5) == 0 && (!name[5] || (is_sep_char(name[5]) && !name[6]));
}

/* The $tags column (column i): kept aside, outside the program. */
static blobc_status tags_col(csv *c, uint32_t i, const blobc_type *row) {
    csv_col *col = &c->cols[i];
    if (!row->ntags)
        return header_fail(c, col, "struct %s declares no @tags, so its rows take no $tags "
                           "column (declare them: @tags(dev, test) struct %s)", row->name, row->name);
    if (c->tags_col)
        return header_fail(c, col, "a second $tags column (\"%s\" at %u:%u is one)",
                           c->cols[c->tags_col - 1].name, c->cols[c->tags_col - 1].pos.line,
                           c->cols[c->tags_col - 1].pos.col);
    c->tags_col = i + 1;
    c->tags_sep = col->name[5];
    return BLOBC_OK;
}

static blobc_status read_header(csv *c, const char *field) {
    bk *k = c->k;
    blobc_status st = csv_read_row(c);
    if (st) return st;
    if (!(c->cols = calloc(c->ncells, sizeof *c->cols))) return blobc_err_nomem(k->err);
    c->ncols = (uint32_t)c->ncells;
    for (uint32_t i = 0; i < c->ncols; i++) {
        const csv_cell *cell = &c->cells[i];
        c->cols[i].pos = cell->pos;
        if (!(c->cols[i].name = blobc_arena_strndup(&k->arena, csv_cell_text(c, cell), cell->n)))
            return blobc_err_nomem(k->err);
    }
    bk_pos start = {1, 1, c->base};
    if (!k->root && (st = bk_resolve_root(k, &start))) return st;
    if ((st = pick_table(c, field))) return st;
    if (bk_field_seen(k, c->table->name, strlen(c->table->name)))
        return bk_fail(k, BLOBC_EINPUT, NULL, BK_AT_CONTAINER, NULL, 0,
                       "two tables fill the list %s of struct %s (each list takes one table)",
                       c->table->name, k->root->name);
    const blobc_type *row = through(through(c->table->type)->elem);
    blobc_status bad = BLOBC_OK;
    for (uint32_t i = 0; i < c->ncols; i++) {
        st = is_tags_col(c->cols[i].name) ? tags_col(c, i, row) : resolve_col(c, &c->cols[i], row);
        if (bk_kept(k, st)) bad = BLOBC_EINPUT;
        else if (st) return st;
    }
    if (bad) return bk_stop(k, BK_OUT_KEPT);
    st = compile(c, row);
    if (st == BLOBC_EINPUT && k->nerrors) return bk_stop(k, BK_OUT_KEPT);
    return st;
}

/* ---- rows ---- */

static bool cell_empty(const csv *c, uint32_t col) { return col >= c->ncells || c->cells[col].n == 0; }

/* Whether every cell under op (an open) is empty. */
static bool subtree_empty(const csv *c, const csv_op *op) {
    for (uint32_t i = op->lo; i < op->hi; i++)
        if (c->ops[i].op == OP_LEAF && !cell_empty(c, c->ops[i].col)) return false;
    return true;
}

/* The slot the op's step leads to, in the innermost frame. */
static blobc_status step_slot(csv *c, const csv_op *op, const bk_pos *pos, bk_slot *out) {
    return op->in_fixed ? bk_item(c->k, pos, out) : bk_key_field(c->k, op->field, pos, out);
}

static blobc_status store_text(csv *c, bk_slot *slot, const char *s, size_t n, uint8_t tok,
                               const bk_pos *pos) {
    if (slot->type->kind == BLOBC_KIND_STRING)
        return bk_soft(c->k, bk_store_string(c->k, slot, s, n, pos, NULL));
    bk_scalar v;
    memset(&v, 0, sizeof v);
    v.s = s;
    v.n = n;
    v.tok = (bk_tok)tok;
    if (through(slot->type)->kind == BLOBC_KIND_BOOL && (n == 4 || n == 5)) {
        /* spreadsheets write their booleans TRUE and FALSE */
        static const char *const words[] = {"true", "false"};
        const char *w = words[n == 5];
        size_t i = 0;
        while (i < n && (s[i] | 0x20) == w[i]) i++;
        if (i == n) v.s = w;
    }
    if (tok == BK_TOK_PLAIN && n && s[0] >= '0' && s[0] <= '9' && n < 20) {
        /* the common case, digits only, without the parser */
        uint64_t u = 0;
        size_t i = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') u = u * 10 + (uint64_t)(s[i++] - '0');
        if (i == n && (n == 1 || s[0] != '0')) {
            v.has_u = true;
            v.u = u;
            if (bk_store_quick(c->k, slot, &v)) return BLOBC_OK;
        }
    }
    return bk_store(c->k, slot, &v, pos, NULL);
}

/* A cell split by its separator: the items of a list, or key=value pairs
 * of a map. */
static blobc_status split_cell(csv *c, const csv_op *op, const csv_cell *cell, bk_slot *slot) {
    bk *k = c->k;
    const char *s = csv_cell_text(c, cell), *end = s + cell->n;
    bool map = op->leaf == LEAF_MAP;
    uint32_t count = 1;
    for (const char *p = s; p < end; p++) count += *p == op->sep;
    blobc_status st = map ? bk_push_struct(k, slot, &cell->pos) : bk_push_seq(k, slot, count, &cell->pos);
    if (st) return st;
    for (const char *p = s;; ) {
        const char *q = memchr(p, op->sep, (size_t)(end - p));
        if (!q) q = end;
        bk_pos pos = cell->pos;
        if (!cell->copied) {
            pos.off += (size_t)(p - s);
            pos.col += (uint32_t)(p - s); /* the cell's line: no line break in an uncopied cell */
        }
        bk_slot item;
        if (map) {
            const char *eq = memchr(p, '=', (size_t)(q - p));
            if (!eq) {
                char qt[200];
                bk_quote(qt, sizeof qt, p, (size_t)(q - p));
                st = bk_soft(k, bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0,
                                        "expected KEY=VALUE, got %s", qt));
            } else if (!(st = bk_key(k, p, (size_t)(eq - p), &pos, &item))) {
                st = store_text(c, &item, eq + 1, (size_t)(q - eq - 1), op->tok, &pos);
            }
        } else if (!(st = bk_item(k, &pos, &item))) {
            st = store_text(c, &item, p, (size_t)(q - p), op->tok, &pos);
        }
        if (st && !bk_kept(k, st)) return st;
        if (q == end) break;
        p = q + 1;
    }
    return map ? bk_pop_struct(k) : bk_pop_seq(k, &cell->pos, NULL, NULL);
}

static blobc_status leaf(csv *c, const csv_op *op, const bk_pos *rowpos) {
    bk *k = c->k;
    if (cell_empty(c, op->col)) {
        if (!op->in_fixed) return BLOBC_OK; /* the field's default */
        const csv_cell *cell = op->col < c->ncells ? &c->cells[op->col] : NULL;
        blobc_status st = bk_soft(k, bk_fail(k, BLOBC_EINPUT, cell ? &cell->pos : rowpos,
                                             BK_AT_CONTAINER, NULL, 0,
                                             "an empty cell, but a fixed array needs every item"));
        /* kept: the item is counted, left zero, so that the array closes
         * without a second error */
        bk_slot slot;
        return bk_kept(k, st) ? bk_item(k, rowpos, &slot) : st;
    }
    const csv_cell *cell = &c->cells[op->col];
    bk_slot slot;
    blobc_status st = step_slot(c, op, &cell->pos, &slot);
    if (st) return st;
    if (op->leaf != LEAF_SCALAR) return split_cell(c, op, cell, &slot);
    return store_text(c, &slot, csv_cell_text(c, cell), cell->n, op->tok, &cell->pos);
}

/* Runs the program over the row's cells: the item's fields, nested
 * structs opened once, empty cells left to their defaults. */
static blobc_status fill_row(csv *c, const bk_pos *rowpos) {
    bk *k = c->k;
    for (size_t i = 0; i < c->nops;) {
        const csv_op *op = &c->ops[i];
        blobc_status st = BLOBC_OK;
        k->column = op->op == OP_LEAF ? c->cols[op->col].name : NULL;
        if (op->op == OP_LEAF) {
            st = leaf(c, op, rowpos);
        } else if (op->op == OP_CLOSE) {
            bk_frame *f = bk_top(k);
            st = f->kind == BK_FIXED ? bk_pop_seq(k, rowpos, NULL, NULL) : bk_pop_struct(k);
        } else if (!op->in_fixed && subtree_empty(c, op)) {
            i = op->end + 1; /* the field's default */
            continue;
        } else {
            const bk_pos *pos = op->col < c->ncells ? &c->cells[op->col].pos : rowpos;
            bk_slot slot;
            st = step_slot(c, op, pos, &slot);
            if (!st)
                st = op->op == OP_OPEN_FIXED ? bk_push_seq(k, &slot, through(slot.type)->count, pos)
                                             : bk_push_struct(k, &slot, pos);
            if (st && bk_kept(k, st)) { /* nothing was opened: on after it */
                k->column = NULL;
                i = op->end + 1;
                continue;
            }
        }
        k->column = NULL;
        if (st && !bk_kept(k, st)) return st;
        i++;
    }
    return BLOBC_OK;
}

/* A row's $tags cell, split and judged: *excluded when --exclude-tags
 * leaves the row out. */
static blobc_status row_tags(csv *c, const blobc_type *row, bool *excluded) {
    *excluded = false;
    if (!c->tags_col || cell_empty(c, c->tags_col - 1)) return BLOBC_OK;
    const csv_cell *cell = &c->cells[c->tags_col - 1];
    const char *p = csv_cell_text(c, cell), *end = p + cell->n;
    bk_scalar tags[BLOBC_MAX_TAGS];
    bk_pos pos[BLOBC_MAX_TAGS];
    uint32_t n = 0;
    bk *k = c->k;
    k->column = c->cols[c->tags_col - 1].name;
    blobc_status st = BLOBC_OK;
    for (const char *q; p <= end && !st; p = q + 1) {
        q = c->tags_sep ? memchr(p, c->tags_sep, (size_t)(end - p)) : NULL;
        if (!q) q = end;
        const char *a = p, *b = q;
        while (a < b && *a == ' ') a++;
        while (b > a && b[-1] == ' ') b--;
        if (n == BLOBC_MAX_TAGS) {
            st = bk_soft(k, bk_fail(k, BLOBC_EINPUT, &cell->pos, BK_AT_CONTAINER, NULL, 0,
                                    "more than %u tags in one cell", (unsigned)BLOBC_MAX_TAGS));
            break;
        }
        memset(&tags[n], 0, sizeof tags[n]);
        tags[n] = (bk_scalar){.s = a, .n = (size_t)(b - a), .tok = BK_TOK_QUOTED};
        pos[n++] = cell->pos;
    }
    if (!st) st = bk_tags_judge(k, row, tags, pos, n, excluded);
    k->column = NULL;
    return st;
}

static blobc_status bake_rows(csv *c) {
    bk *k = c->k;
    bk_pos pos = {1, 1, c->base};
    bk_slot slot;
    blobc_status st = bk_key_field(k, c->table, &pos, &slot);
    if (!st) st = bk_push_seq(k, &slot, UINT32_MAX, &pos);
    if (st) return st;
    const blobc_type *row = through(through(c->table->type)->elem);
    for (;;) {
        csv_skip_blank(c);
        if (c->i >= c->len) break;
        bk_pos rowpos = csv_here(c, c->i);
        if ((st = csv_read_row(c))) return st;
        if (c->ncells > c->ncols)
            return syntax_fail(c, &c->cells[c->ncols].pos, "a row of %zu cells, but the header "
                               "names %u columns", c->ncells, c->ncols);
        bool excluded = false;
        st = row_tags(c, row, &excluded);
        if (excluded) continue;
        if (!st || bk_kept(k, st)) st = bk_item(k, &rowpos, &slot);
        if (!st) st = bk_push_struct(k, &slot, &rowpos);
        if (!st) st = fill_row(c, &rowpos);
        if (!st) st = bk_pop_struct(k);
        if (st && !bk_kept(k, st)) return st;
    }
    return bk_pop_seq(k, &pos, NULL, NULL);
}

/* One table into its list of the root (the root resolved by the first). */
static blobc_status bake_table(bk *k, const csv_table *t, bool tsv, const char *field) {
    csv c;
    memset(&c, 0, sizeof c);
    c.k = k;
    c.text = t->text;
    c.len = t->len;
    c.base = t->base;
    csv_begin(&c, tsv);
    blobc_status st;
    if (c.i >= c.len) {
        bk_pos pos = {c.line, 1, c.base + c.i};
        st = bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_CONTAINER, NULL, 0,
                     "no header row (the first row names the columns)");
    } else {
        st = read_header(&c, field);
        if (!st) st = bake_rows(&c);
    }
    k->column = NULL;
    free(c.cells);
    free(c.cols);
    free(c.ops);
    blobc_buffer_free(&c.copy);
    return st;
}

/* Reads table i of the options, which starts at offset base. */
static blobc_status read_table(bk *k, const blobc_bake_table *bt, size_t base, csv_table *t) {
    const blobc_bake_options *o = k->opts;
    if (!bt->field || !bt->path)
        return blobc_err_arg(k->err, "blobc_bake_memory", "opts->tables holds a NULL field or path");
    if (blobc_writes_over(o->output_path, bt->path))
        return blobc_err_refuse_input(k->err, bt->path, o->output_path);
    blobc_read_options ro = {o->max_input ? o->max_input : BLOBC_DEFAULT_MAX_INPUT, false,
                             "CSV or TSV text", 0, o->regular_files};
    blobc_error_clear(k->err);
    blobc_status st = blobc_read_file_ex(bt->path, &ro, &t->owned, &t->len, k->err);
    if (st && st != BLOBC_ENOMEM && o->unread) o->unread(o->unread_ctx, bt->path);
    if (st) return st;
    t->name = bt->path;
    t->text = (const char *)t->owned;
    t->base = base;
    return BLOBC_OK;
}

blobc_status bk_bake_csv(bk *k, const char *text, size_t len, bool tsv) {
    const blobc_bake_options *o = k->opts;
    size_t n = 1 + o->ntables;
    /* one more, empty, ends the list for csv_locate */
    csv_table *t = n < SIZE_MAX / sizeof *t ? calloc(n + 1, sizeof *t) : NULL;
    if (!t) return blobc_err_nomem(k->err);
    const char *main_name = k->filename;
    t[0] = (csv_table){main_name, text, len, 0, NULL};
    k->fe = t;
    k->locate = csv_locate;
    blobc_status st = bake_table(k, &t[0], tsv, o->table);
    bool kept = false;
    for (size_t i = 1; i < n && (!st || (kept |= bk_kept(k, st))); i++) {
        const blobc_bake_table *bt = &o->tables[i - 1];
        size_t base = t[i - 1].base + t[i - 1].len + 1;
        if ((st = read_table(k, bt, base, &t[i]))) break;
        k->filename = bt->path; /* for the messages that name no cell */
        st = bake_table(k, &t[i], tsv, bt->field); /* in the first one's format */
        k->filename = main_name;
    }
    if (!st || bk_kept(k, st)) {
        kept |= st != BLOBC_OK;
        st = bk_pop_struct(k); /* the root: other fields' defaults, references resolved */
        if (!st && kept) st = bk_stop(k, BK_OUT_KEPT); /* errors were kept: still so */
    }
    if (st) k->depth = 0;
    for (size_t i = 0; i < n; i++) free(t[i].owned);
    free(t);
    k->fe = NULL;
    k->locate = NULL;
    return st;
}
