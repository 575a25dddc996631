/*
 * diag.c - several errors per run: the errors a bake keeps while it goes
 * on, and their delivery to the caller's sink at the end (see
 * blobc_diag_sink in blobc/bake.h).
 *
 * Errors are kept packed (a small header and four strings each), so that
 * a run with no limit holds what it reports, not a 2 KiB blobc_error per
 * error. Past the limit they are only counted: bk_fail then skips the
 * path and the source line. Nothing here runs unless an error happened.
 */
#include <stdlib.h>
#include <string.h>

#include "bake/bake_internal.h"

typedef struct kept_head {
    uint32_t status, code, line, column;
} kept_head;

static void put_str(bk *k, const char *s) {
    if (!blobc_buf_append(&k->kept, s, strlen(s) + 1)) k->hard = true;
}

/* Keeps the error in k->err (or counts it past the limit). */
static void keep(bk *k) {
    k->nerrors++;
    if (k->muted) return;
    const blobc_error *e = k->err;
    kept_head h = {(uint32_t)e->status, (uint32_t)e->code, e->line, e->column};
    if (!blobc_buf_append(&k->kept, &h, sizeof h)) k->hard = true;
    put_str(k, e->file);
    put_str(k, e->path);
    put_str(k, e->message);
    put_str(k, e->source_line);
    k->nkept++;
    if (k->sink->max_errors && k->nkept >= k->sink->max_errors) k->muted = true;
}

blobc_status bk_soft(bk *k, blobc_status st) {
    if (!k->sink || !bk_input_failed(k, st) || k->hard || !k->err) return st;
    keep(k);
    return k->hard ? blobc_err_nomem(k->err) : bk_stop(k, BK_OUT_KEPT);
}

/* Copies the NUL-terminated string at *at into dst and steps past it. */
static void take_str(const blobc_buffer *b, size_t *at, char *dst, size_t cap) {
    const char *s = (const char *)b->data + *at;
    size_t n = strlen(s);
    *at += n + 1;
    if (n >= cap) n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

/* A kept error's place, for putting them in document order: a missing
 * field is found at the end of its struct but placed at its start. */
typedef struct kept_at {
    uint32_t line, column;
    size_t off; /* of its record in k->kept; also the order found */
} kept_at;

static int by_place(const void *a, const void *b) {
    const kept_at *x = a, *y = b;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    if (x->column != y->column) return x->column < y->column ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* Unpacks the record at off into e. */
static void unpack(const bk *k, size_t off, blobc_error *e) {
    blobc_error_clear(e);
    kept_head h;
    memcpy(&h, k->kept.data + off, sizeof h);
    off += sizeof h;
    e->status = (blobc_status)h.status;
    e->code = (int)h.code;
    e->line = h.line;
    e->column = h.column;
    take_str(&k->kept, &off, e->file, sizeof e->file);
    take_str(&k->kept, &off, e->path, sizeof e->path);
    take_str(&k->kept, &off, e->message, sizeof e->message);
    take_str(&k->kept, &off, e->source_line, sizeof e->source_line);
}

blobc_status bk_diag_finish(bk *k, blobc_status st) {
    blobc_diag_sink *sink = k->sink;
    if (sink) sink->skipped = k->skipped;
    if (!sink || !k->err || (st == BLOBC_OK && k->nerrors == 0)) return st;
    sink->suppressed = 0;
    if (k->syntax || st == BLOBC_ENOMEM || (st != BLOBC_OK && k->hard)) {
        /* alone: a syntax error makes the errors before it doubtful */
        if (sink->fn) sink->fn(sink->ctx, k->err);
        return st;
    }
    if (st != BLOBC_OK) keep(k); /* the error that ended the run */
    kept_at *at = k->nkept ? calloc(k->nkept, sizeof *at) : NULL;
    if (!at) {
        if (sink->fn) sink->fn(sink->ctx, k->err);
        return st != BLOBC_OK ? st : BLOBC_EINPUT;
    }
    size_t off = 0, n = 0;
    for (; n < k->nkept && off < k->kept.len; n++) {
        kept_head h;
        memcpy(&h, k->kept.data + off, sizeof h);
        at[n] = (kept_at){h.line, h.column, off};
        off += sizeof h;
        for (int str = 0; str < 4; str++) off += strlen((const char *)k->kept.data + off) + 1;
    }
    qsort(at, n, sizeof *at, by_place);
    blobc_error e;
    for (size_t i = 0; i < n; i++) {
        unpack(k, at[i].off, &e);
        if (i == 0) *k->err = e;
        if (sink->fn) sink->fn(sink->ctx, &e);
    }
    free(at);
    sink->suppressed = k->nerrors - k->nkept;
    return st != BLOBC_OK ? st : BLOBC_EINPUT;
}
