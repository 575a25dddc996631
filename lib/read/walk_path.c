/*
 * walk_path.c - where a walk error is: the message with its file offset,
 * and the schema path of the byte (".rooms[3].kind"), rebuilt from the
 * frame stack only when an error is reported.
 */
#include "read/walk_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* Keep this many bytes at the end of a path that does not fit. */
#define PATH_KEEP (BLOBC_ERROR_PATH_MAX - 8)

void blobc_walk_spell_items(const blobc_type *t, char *buf, size_t cap) {
    if (!(t->flags & BLOBC_STRUCT_ENTRY) || t->kind != BLOBC_KIND_STRUCT) {
        blobc_type_spell(t, buf, cap);
        return;
    }
    /* a map's entry has no name: say whose it is */
    char k[64], v[128];
    blobc_type_spell(t->fields[0].type, k, sizeof k);
    blobc_type_spell(t->fields[1].type, v, sizeof v);
    snprintf(buf, cap, "entry of [%s: %s]", k, v);
}

void blobc_walk_spell_tid(const blobc_walk *w, uint32_t tid, char *buf, size_t cap) {
    if (tid == STRBYTES || !w->infos[tid].type) snprintf(buf, cap, "string byte");
    else blobc_walk_spell_items(w->infos[tid].type, buf, cap);
}

/* The path being built; an allocation failure leaves the error's path
 * empty rather than wrong. */
typedef struct pbuf {
    blobc_buffer b;
    bool oom;
} pbuf;

static void pb_add(pbuf *b, const char *s, size_t n) {
    if (!b->oom && !blobc_buf_append(&b->b, s, n)) b->oom = true;
}

static void pb_index(pbuf *b, uint64_t i) {
    if (!b->oom && !blobc_buf_printf(&b->b, "[%" PRIu64 "]", i)) b->oom = true;
}

/* Appends the path from the start of a t to byte `off` inside it: field
 * names and [i] through nested structs and fixed arrays. With `stop`
 * (a LOOP or CALL op) it ends at the inline value that op walks. */
static void type_path(blobc_walk *w, pbuf *b, const blobc_type *t, uint64_t off, const wop *stop) {
    char comp[BLOBC_PATH_STEP_MAX];
    for (;;) {
        if (stop && off == 0) {
            if (stop->code == OP_LOOP && t->kind == BLOBC_KIND_FIXED && t->count == stop->n &&
                blobc_walk_type_lookup(w, t->elem) == stop->tid)
                return;
            if (stop->code == OP_CALL && blobc_walk_type_lookup(w, t) == stop->tid) return;
            if (stop->code == OP_OPT && t->kind == BLOBC_KIND_OPTIONAL &&
                blobc_walk_type_lookup(w, t->elem) == stop->tid)
                return;
        }
        size_t n = blobc_path_step(&t, &off, comp, sizeof comp);
        if (!n) return;
        pb_add(b, comp, n);
    }
}

size_t blobc_path_step(const blobc_type **tp, uint64_t *offp, char *buf, size_t cap) {
    const blobc_type *t = *tp;
    uint64_t off = *offp;
    int n = 0;
    /* an optional's value is its first bytes, and has no name of its own */
    while (t->kind == BLOBC_KIND_OPTIONAL && t->elem && off < t->elem->size) t = t->elem;
    if (t->kind == BLOBC_KIND_STRUCT) {
        /* fields are in increasing offset order: binary search */
        uint32_t lo = 0, hi = t->nfields;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (t->fields[mid].offset <= off) lo = mid + 1;
            else hi = mid;
        }
        if (lo == 0) return 0;
        const blobc_field *f = &t->fields[lo - 1];
        if (off - f->offset >= f->type->size) return 0; /* padding */
        n = snprintf(buf, cap, ".%s", f->name);
        *offp = off - f->offset;
        *tp = f->type;
    } else if (t->kind == BLOBC_KIND_FIXED && t->elem && t->elem->size) {
        n = snprintf(buf, cap, "[%" PRIu64 "]", off / t->elem->size);
        *offp = off % t->elem->size;
        *tp = t->elem;
    }
    if (n < 0) return 0;
    return (size_t)n < cap ? (size_t)n : cap - 1;
}

const blobc_type *blobc_walk_tid_type(const blobc_walk *w, uint32_t tid, uint32_t *size) {
    *size = w->infos[tid].size;
    return tid == STRBYTES ? NULL : w->infos[tid].type;
}

/* ".Member" after a union's path: the member its tag (checked by then)
 * names, for the payload walked below it. */
static void union_step(const blobc_walk *w, pbuf *b, const wop *op, size_t ebase) {
    const blobc_type *u = w->infos[op->tid].type;
    uint32_t tag = ld32(w->data + ebase + op->off);
    if (tag == 0 || tag > u->nfields) return;
    pb_add(b, ".", 1);
    pb_add(b, u->fields[tag - 1].name, strlen(u->fields[tag - 1].name));
}

void blobc_walk_build_path(blobc_walk *w, size_t at, blobc_error *err) {
    pbuf b = {{0}, false};
    for (size_t k = 0; k < w->nframes; k++) {
        const blobc_wframe *f = &w->frames[k];
        if (k > 0) {
            const blobc_wframe *p = &w->frames[k - 1];
            const blobc_winfo *pi = &w->infos[p->tid];
            const wop *pops = p->fast ? pi->rops : pi->ops;
            if (p->pc > 0 && p->pc <= (p->fast ? pi->nrops : pi->nops)) {
                const wop *op = &pops[p->pc - 1];
                type_path(w, &b, pi->type, op->off,
                          op->code == OP_LOOP || op->code == OP_CALL || op->code == OP_OPT ? op : NULL);
                if (op->code == OP_UNION) union_step(w, &b, op, p->base + (size_t)p->i * pi->size);
            }
        }
        if (f->indexed) pb_index(&b, f->i);
    }
    if (at != SIZE_MAX && w->nframes) {
        const blobc_wframe *f = &w->frames[w->nframes - 1];
        const blobc_winfo *fi = &w->infos[f->tid];
        uint64_t ebase = f->base + (uint64_t)f->i * fi->size;
        if (at >= ebase) type_path(w, &b, fi->type, at - ebase, NULL);
    }
    if (b.b.len && !b.oom && blobc_buf_putc(&b.b, '\0')) blobc_walk_set_path(err, (const char *)b.b.data, b.b.len - 1);
    blobc_buffer_free(&b.b);
}

void blobc_walk_set_path(blobc_error *err, const char *p, size_t n) {
    if (n && p[0] == '.') {
        p++;
        n--;
    }
    char cut[BLOBC_ERROR_PATH_MAX];
    if (n >= BLOBC_ERROR_PATH_MAX) {
        memcpy(cut, "...", 3);
        memcpy(cut + 3, p + n - PATH_KEEP, PATH_KEEP);
        cut[3 + PATH_KEEP] = '\0';
    } else {
        memcpy(cut, p, n);
        cut[n] = '\0';
    }
    blobc_err_path(err, cut);
}

blobc_status blobc_walk_fail(blobc_walk *w, blobc_error *err, int code, size_t at, size_t path_at,
                             const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    blobc_verr(err, BLOBC_EINPUT, fmt, ap);
    va_end(ap);
    if (err) {
        err->code = code;
        blobc_err_offset(err, w->err_base + at);
        err->path[0] = '\0';
        blobc_walk_build_path(w, path_at, err);
    }
    return BLOBC_EINPUT;
}
