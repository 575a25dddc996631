/*
 * checks.c - the schema's value checks (@range, @len, @match, @path,
 * @unique), applied while filling: each value is judged right after it is
 * stored, where the front end's place for it is still known, and a value
 * that fails is an error kept like any other (every failing value of a run
 * is reported, in document order). The stored value itself is sound, so
 * nothing is skipped after such an error.
 *
 * A check belongs to a field; the value being filled is that field's own
 * (the innermost frame is the field's struct) or one item of it (the
 * innermost frame is the field's list or fixed array, the struct right
 * below it).
 */
#include <stdlib.h>

#include "bake/bake_internal.h"
#include "common/judge.h"

typedef struct bk_checks {
    /* The @unique list the items belong to: its frame's depth and place. */
    uint32_t depth;
    blobc_ref ref;
    uint32_t off;
    blobc_uniq seen; /* its items' bytes, copied into the bake's arena */
} bk_checks;

void bk_checks_free(bk *k) {
    if (!k->checks) return;
    blobc_uniq_free(&k->checks->seen);
    free(k->checks);
    k->checks = NULL;
}

/* The field whose checks judge the value being filled, and whether the
 * value is one item of it (*each), or NULL. */
static const blobc_field *checked_field(const bk *k, bool *each) {
    const blobc_field *f = bk_filled_field(k, each);
    return f && f->nchecks ? f : NULL;
}

/* Reports that the value at pos (mode BK_AT_VALUE; BK_AT_CONTAINER: the
 * container itself, for a list's count) fails a check, saying msg, and
 * goes on. */
static blobc_status failed(bk *k, const bk_pos *pos, int mode, const char *msg) {
    blobc_status st = bk_soft(k, bk_fail(k, BLOBC_EINPUT, pos, mode, NULL, 0, "%s", msg));
    return bk_kept(k, st) ? BLOBC_OK : st;
}

/* ---- @unique ---- */

static bk_checks *state(bk *k) {
    if (!k->checks && (k->checks = calloc(1, sizeof *k->checks))) blobc_uniq_init(&k->checks->seen);
    return k->checks;
}

/* Item `bytes` of the innermost list, a @unique one: *first is the index
 * of an earlier item with the same bytes, else UINT32_MAX (the item is
 * kept for those to come). */
static blobc_status unique_seen(bk *k, const void *bytes, size_t n, uint32_t *first) {
    bk_checks *u = state(k);
    const bk_frame *f = bk_top(k);
    *first = UINT32_MAX;
    if (!u) return blobc_err_nomem(k->err);
    if (u->depth != k->depth || u->ref != f->at.ref || u->off != f->at.off) {
        blobc_uniq_reset(&u->seen);
        u->depth = k->depth;
        u->ref = f->at.ref;
        u->off = f->at.off;
    }
    uint32_t index = f->count ? f->count - 1 : 0;
    uint64_t h = blobc_hash_bytes(bytes, n);
    if ((*first = blobc_uniq_find(&u->seen, bytes, n, h)) != UINT32_MAX) return BLOBC_OK;
    uint8_t *copy = blobc_arena_alloc(&k->arena, n ? n : 1);
    if (!copy) return blobc_err_nomem(k->err);
    memcpy(copy, bytes, n);
    return blobc_uniq_put(&u->seen, copy, n, h, index) ? BLOBC_OK : blobc_err_nomem(k->err);
}

/* ---- numbers ---- */

blobc_status bk_check_number(bk *k, const bk_slot *s, const bk_pos *pos) {
    bool each;
    const blobc_field *fld = checked_field(k, &each);
    blobc_kind kind = s->type->kind;
    if (!fld || (!blobc_kind_is_scalar(kind) && kind != BLOBC_KIND_ENUM)) return BLOBC_OK;
    const uint8_t *p = bk_ptr(k, s);
    char msg[BLOBC_JUDGE_MSG];
    for (uint32_t i = 0; i < fld->nchecks; i++) {
        const blobc_check *c = &fld->checks[i];
        blobc_status st = BLOBC_OK;
        if (!blobc_judge_number(c, s->type, p, msg, sizeof msg)) {
            st = failed(k, pos, BK_AT_VALUE, msg);
        } else if (c->kind == BLOBC_CHECK_UNIQUE && each) {
            uint32_t first;
            if ((st = unique_seen(k, p, s->type->size, &first)) || first == UINT32_MAX) {
                if (st) return st;
                continue;
            }
            blobc_judge_repeat(c, s->type, p, s->type->size, first, msg, sizeof msg);
            st = failed(k, pos, BK_AT_VALUE, msg);
        }
        if (st) return st;
    }
    return BLOBC_OK;
}

/* ---- strings ---- */

static blobc_status check_path(bk *k, const blobc_check *c, const char *s, size_t n,
                               const bk_pos *pos) {
    char msg[BLOBC_JUDGE_MSG];
    blobc_buffer full = {0};
    int r = blobc_judge_path(c, s, n, k->opts->assets_dir, &full, msg, sizeof msg);
    blobc_status st = BLOBC_OK;
    if (r < 0) st = blobc_err_nomem(k->err);
    else if (r == 0) st = failed(k, pos, BK_AT_VALUE, msg);
    else if (k->opts->asset) k->opts->asset(k->opts->asset_ctx, (const char *)full.data);
    blobc_buffer_free(&full);
    return st;
}

blobc_status bk_check_string(bk *k, const char *s, size_t n, const bk_pos *pos) {
    bool each;
    const blobc_field *fld = checked_field(k, &each);
    if (!fld) return BLOBC_OK;
    char msg[BLOBC_JUDGE_MSG];
    for (uint32_t i = 0; i < fld->nchecks; i++) {
        const blobc_check *c = &fld->checks[i];
        blobc_status st = BLOBC_OK;
        uint32_t first;
        int r;
        switch (c->kind) {
        case BLOBC_CHECK_LEN:
        case BLOBC_CHECK_MATCH:
            /* @len is about a list itself, not each of its strings */
            if (c->kind == BLOBC_CHECK_LEN && each) break;
            if ((r = blobc_judge_string(c, s, n, msg, sizeof msg)) < 0) return blobc_err_nomem(k->err);
            if (!r) st = failed(k, pos, BK_AT_VALUE, msg);
            break;
        case BLOBC_CHECK_PATH: st = check_path(k, c, s, n, pos); break;
        case BLOBC_CHECK_UNIQUE:
            if (!each || (st = unique_seen(k, s, n, &first)) || first == UINT32_MAX) break;
            blobc_judge_repeat(c, NULL, s, n, first, msg, sizeof msg);
            st = failed(k, pos, BK_AT_VALUE, msg);
            break;
        default: break;
        }
        if (st) return st;
    }
    return BLOBC_OK;
}

/* ---- lists and maps ---- */

blobc_status bk_check_count(bk *k, const bk_pos *pos) {
    if (k->depth < 2) return BLOBC_OK;
    const bk_frame *f = &k->fr[k->depth - 1], *up = &k->fr[k->depth - 2];
    if (up->kind != BK_STRUCT || !up->field || !up->field->nchecks) return BLOBC_OK;
    char msg[BLOBC_JUDGE_MSG];
    for (uint32_t i = 0; i < up->field->nchecks; i++)
        if (!blobc_judge_count(&up->field->checks[i], f->count, msg, sizeof msg))
            return failed(k, pos, BK_AT_CONTAINER, msg);
    return BLOBC_OK;
}
