/*
 * walk_driver.c - the canonical-order walker shared by verify and dump: its
 * driver.
 *
 * Each type reached is compiled once into a short check program
 * (walk_compile.c). The walk itself is a loop over an explicit frame stack
 * (a million-deep *T chain costs heap, not C stack): a frame is walked
 * fast (walk_refs.c, checks run ahead by chunks), and only a frame that
 * is to fail a check is walked here op by op, to report the first failure
 * in canonical order. walk_internal.h lists the parts.
 */
#include "read/walk_internal.h"

#include <inttypes.h>
#include <stdlib.h>

void blobc_walk_init(blobc_walk *w) {
    memset(w, 0, sizeof *w);
    blobc_arena_init(&w->arena);
}

void blobc_walk_free(blobc_walk *w) {
    wscratch *s = w->scratch;
    if (s) {
        free(s->chain);
        free(s->cstack);
        free(s->ops);
        free(s);
    }
    blobc_walk_tab_release(w);
    blobc_walk_any_release(w);
    free(w->big);
    free(w->refs);
    free(w->depths);
    free(w->infos);
    blobc_ptrset_free(&w->ptypes);
    free(w->pids);
    blobc_hashtab_free(&w->shapes);
    free(w->frames);
    blobc_arena_free(&w->arena);
    memset(w, 0, sizeof *w);
}

/* The op-by-op walk of the top frame from its current element and op:
 * every op of every element in order. Sets *pushed when a frame was
 * pushed on top. */
static blobc_status walk_ops(blobc_walk *w, bool *pushed, blobc_error *err) {
    blobc_wframe *f = &w->frames[w->nframes - 1];
    const blobc_winfo *in = &w->infos[f->tid];
    const wop *ops = in->ops;
    const uint32_t nops = in->nops, esize = in->size;
    for (uint32_t i = f->i, pc = f->pc; i < f->n; i++, pc = 0) {
        size_t ebase = f->base + (size_t)i * esize;
        for (; pc < nops; pc++) {
            const wop *op = &ops[pc];
            size_t p = ebase + op->off;
            blobc_status st;
            f->i = i;
            f->pc = pc + 1;
            if (is_check(op->code)) {
                size_t bad = 0;
                if (BLOBC_LIKELY(!blobc_walk_run_check(w, op, p, op->n, &bad))) continue;
                /* (infos may have moved: compiling a type grows them) */
                return blobc_walk_check_fail(w, err, op, bad, w->infos[f->tid].type, ebase);
            }
            if (op->code == OP_LOOP || op->code == OP_CALL)
                st = blobc_walk_enter_inline(w, op, p, pushed, err);
            else
                st = blobc_walk_visit(w, op, p, pushed, err);
            /* (ops live in the arena: compiling more types does not move
             * them, nor does anything move f here) */
            if (st != BLOBC_OK || *pushed) return st;
        }
    }
    return BLOBC_OK;
}

static blobc_status walk_all(blobc_walk *w, const uint8_t *data, size_t size, const blobc_type *root,
                             uint64_t err_base, blobc_error *err) {
    blobc_walk_any_release(w); /* (a run before may have left them) */
    w->data = data;
    w->size = size;
    w->err_base = err_base;
    w->cursor = 0;
    w->ntab = 0;
    w->nframes = 0;
    w->work = 0;
    w->ndepths = 0;
    memset(w->bcache, 0, sizeof w->bcache);
    if (!blobc_walk_ids_init(w)) return blobc_err_nomem(err);
    if (size > BLOBC_MAX_DATA_SIZE)
        return blobc_walk_fail(w, err, BLOBC_V_DATA_SIZE, 0, SIZE_MAX,
                               "data section is %zu bytes; offsets are 32-bit, so at most 2147483647",
                               size);
    if (!root) return blobc_err(err, BLOBC_EARG, "no root type to walk the data with");
    uint32_t rid = blobc_walk_type_id(w, root);
    if (rid == WNONE) return blobc_walk_types_error(err, -2, root);
    blobc_status st = blobc_walk_compile(w, rid, err);
    if (st != BLOBC_OK) return st;
    const blobc_winfo *ri = &w->infos[rid];
    if (size < ri->size) {
        char name[128];
        blobc_type_spell(root, name, sizeof name);
        return blobc_walk_fail(w, err, BLOBC_V_DATA_SIZE, 0, SIZE_MAX,
                               "data section is %zu bytes, smaller than the root %s (%" PRIu32
                               " bytes)",
                               size, name, ri->size);
    }
    w->nbig = 0;
    size_t any_hit;
    if (!blobc_walk_tab_reserve(w, size) ||
        (w->any_order && (!blobc_walk_any_init(w) || !blobc_walk_any_claim(w, 0, 0, ri->size, &any_hit))) ||
        !tab_put(w, 0, 1, rid, BLOBC_WP_PTR))
        return blobc_err_nomem(err);
    w->cursor = w->any_order ? ANY_CURSOR : ri->size;
    if (!blobc_walk_push_frame(w, rid, 0, 1, 0, false)) return blobc_err_nomem(err);
    w->frames[0].fast = 1;

    while (w->nframes) {
        blobc_wframe *f = &w->frames[w->nframes - 1];
        bool pushed = false;
        if (f->fast) {
            int next = FR_DONE;
            st = blobc_walk_refs(w, &next, err);
            if (BLOBC_UNLIKELY(st != BLOBC_OK)) return st;
            if (next == FR_PUSHED) continue;
            /* FR_SLOW: a check fails in the chunk from f->i on */
            if (next == FR_SLOW) st = walk_ops(w, &pushed, err);
        } else {
            st = walk_ops(w, &pushed, err);
        }
        if (BLOBC_UNLIKELY(st != BLOBC_OK)) return st;
        if (pushed) continue;
        f = &w->frames[w->nframes - 1];
        if (f->tab != WNONE) w->tinfo[f->tab] |= BLOBC_WP_DONE;
        w->work += (uint64_t)f->n * w->infos[f->tid].nops;
        if (BLOBC_UNLIKELY(f->tab != WNONE && blobc_walk_is_any_box(w, f->tid))) {
            st = blobc_walk_any_box_done(w, err);
            if (st != BLOBC_OK) return st;
            continue;
        }
        w->nframes--;
    }
    return BLOBC_OK;
}

blobc_status blobc_walk_run(blobc_walk *w, const uint8_t *data, size_t size, const blobc_type *root,
                            uint64_t err_base, blobc_error *err) {
    blobc_status st = walk_all(w, data, size, root, err_base, err);
    if (w->any_order) return blobc_walk_any_finish(w, st, err);
    if (st != BLOBC_OK) return st;
    size_t end = w->cursor;
    if (w->end_align && end < size && size % w->end_align == 0 && size - end < w->end_align) {
        for (; end < size; end++)
            if (data[end])
                return blobc_walk_fail(w, err, BLOBC_V_PADDING, end, SIZE_MAX,
                                       "nonzero byte in the padding after the last payload "
                                       "(which ends at 0x%" PRIx64 ")",
                                       AT(w->cursor));
    }
    if (end != size)
        return blobc_walk_fail(w, err, BLOBC_V_LAYOUT, w->cursor, SIZE_MAX,
                               "%zu trailing bytes after the last payload (which ends at 0x%" PRIx64
                               ")",
                               size - w->cursor, AT(w->cursor));
    return blobc_walk_keys_check(w, err);
}
