/*
 * walk_refs.c - the offset fields ({offset, length} of strings and [T],
 * {offset} of *T): every check FORMAT.md lists for them, and the fast
 * walk of a frame.
 *
 * A new payload must start exactly at the aligned cursor; a payload
 * reached again must be the same one and finished (else a cycle). So each
 * byte of the data is visited a bounded number of times whatever the
 * input, and back references cost one binary search in the payload
 * table.
 *
 * A frame is normally walked fast (blobc_walk_refs): the checks of a chunk
 * of elements (4 KiB) run first, op by op over the chunk with one branch
 * per op, then the elements' offset fields are visited with the common
 * cases inline (new strings, [T] of items with nothing to check,
 * [string]). That is only a reordering of work that has no side effects:
 * when a chunk fails a check, the frame falls back to the op-by-op walk
 * (walk_driver.c) from the chunk's first element, which reports the first
 * failure in canonical order, exactly as if the checks had not run ahead.
 */
#include "read/walk_internal.h"

#include <inttypes.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__SSE2__)
/* Bit k set when byte k of the 16 at p is 1..0x7f (a signed compare with
 * 0: NUL and non-ASCII bytes both fail it). */
static inline unsigned plain16(const uint8_t *p) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    return (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_setzero_si128()));
}
#else
/* Whether the 8 bytes of v are all ASCII and none is NUL. */
static inline bool word_plain(uint64_t v) {
    return !((v | ((v - 0x0101010101010101ull) & ~v)) & 0x8080808080808080ull);
}
#endif

/* The common case of string bytes at d + t (n of them, NUL included):
 * ASCII, no NUL inside, NUL last — tested 16 bytes at a time (or a word
 * at a time without SSE2), a short string in one load that ends at the
 * string's end, the bytes before it (someone else's) masked out; the
 * overlap of the last load with the one before is string bytes, checked
 * twice. False means "look closer" (string_check), not "bad". */
HOT bool string_fast(const uint8_t *d, size_t t, size_t n) {
    const uint8_t *s = d + t;
    size_t m = n - 1;
    if (s[m] != 0) return false;
#if defined(__SSE2__)
    if (n >= 16) {
        unsigned ok = plain16(s + n - 16) | 0x8000u;
        if (n > 16) {
            ok &= plain16(s);
            for (size_t i = 16; i + 16 < n; i += 16) ok &= plain16(s + i);
        }
        return ok == 0xffffu;
    }
    if (t + n < 16) return false;
    return (plain16(s + n - 16) | 0x8000u | (0xffffu >> n)) == 0xffffu;
#else
    if (m >= 8) {
        size_t i = 0;
        for (; i + 8 <= m; i += 8)
            if (!word_plain(ld64(s + i))) return false;
        return i == m || word_plain(ld64(s + m - 8));
    }
    if (m == 0) return true;
    if (t + m < 8) return false;
    /* the m string bytes are the top of the word; the bytes below are
     * someone else's: replace them by 0x01 */
    uint64_t v = ld64(s + m - 8) >> (8 * (8 - m));
    return word_plain(v | (0x0101010101010101ull << (8 * m)));
#endif
}

static blobc_status visit_slow(blobc_walk *w, const wop *op, size_t p, bool *pushed,
                               blobc_error *err);

/* New string bytes of n bytes at t (the cursor), from the field at p. */
HOT blobc_status place_str(blobc_walk *w, size_t p, size_t t, size_t n, blobc_error *err) {
    if ((BLOBC_UNLIKELY(w->ntab == w->tab_cap) && !blobc_walk_tab_grow(w, 1)) ||
        !tab_put(w, t, n, STRBYTES, BLOBC_WP_DONE))
        return blobc_err_nomem(err);
    w->cursor = t + n;
    if (BLOBC_LIKELY(string_fast(w->data, t, n))) return BLOBC_OK;
    return blobc_walk_string_check(w, p, t, n, err);
}

/* The items from `from` on of a new [string] (or *string) payload of cnt
 * items at t, table entry j: each places its bytes in turn, no frame
 * needed. */
static blobc_status string_items(blobc_walk *w, size_t t, size_t cnt, size_t j, size_t from,
                                 bool indexed, blobc_error *err) {
    static const wop str_op = {OP_STR, 0, 0, 1, STRBYTES, 0};
    for (size_t i = from; i < cnt; i++) {
        bool sub = false;
        size_t q = t + 8 * i;
        blobc_status st;
        int32_t so = (int32_t)blobc_ld32(w->data + q);
        int32_t sl = (int32_t)blobc_ld32(w->data + q + 4);
        size_t cur = w->cursor;
        if (BLOBC_LIKELY(so > 0 && sl > 0 && q + (size_t)so == cur &&
                         (uint64_t)(uint32_t)sl <= w->size - cur))
            st = place_str(w, q, cur, (size_t)sl, err);
        else
            st = visit_slow(w, &str_op, q, &sub, err);
        if (BLOBC_UNLIKELY(st != BLOBC_OK)) {
            /* The path must name the item: rebuild it with a frame. */
            if (err && err->code &&
                blobc_walk_push_frame(w, BLOBC_KIND_STRING, t, cnt, (uint32_t)j, indexed)) {
                w->frames[w->nframes - 1].i = (uint32_t)i;
                w->frames[w->nframes - 1].pc = 1;
                err->path[0] = '\0';
                blobc_walk_build_path(w, q, err);
            }
            return st;
        }
    }
    return BLOBC_OK;
}

/* A new payload of cnt elements of tid at t (= the aligned cursor, gap
 * checked), referenced from the field at p: records it, checks strings
 * and frame-less element types at once, or pushes a frame. */
static blobc_status place(blobc_walk *w, const wop *op, size_t p, size_t t, size_t cnt,
                          uint32_t tid, bool *pushed, blobc_error *err) {
    if (op->code == OP_STR) return place_str(w, p, t, cnt, err);
    /* compiled before it is recorded: the table holds only payloads of
     * types with a sound layout, which the map relies on */
    if (BLOBC_UNLIKELY(w->infos[tid].state != ST_COMPILED)) {
        blobc_status st = blobc_walk_compile(w, tid, err);
        if (st != BLOBC_OK) return st;
    }
    size_t j = w->ntab;
    if ((BLOBC_UNLIKELY(w->ntab == w->tab_cap) && !blobc_walk_tab_grow(w, 1)) ||
        !tab_put(w, t, cnt, tid, op->code == OP_PTR ? BLOBC_WP_PTR : 0) ||
        (BLOBC_UNLIKELY(blobc_walk_is_any_box(w, tid)) && !blobc_walk_any_box_placed(w, j)))
        return blobc_err_nomem(err);
    size_t esz = w->infos[tid].size;
    if (!w->any_order) w->cursor = t + cnt * esz;
    w->work++;
    const blobc_winfo *in = &w->infos[tid];
    if (in->nops == 0) {
        w->tinfo[j] |= BLOBC_WP_DONE;
        return BLOBC_OK;
    }
    bool indexed = op->code == OP_ARR;
    if (tid == BLOBC_KIND_STRING) {
        w->tinfo[j] |= BLOBC_WP_DONE;
        return string_items(w, t, cnt, j, 0, indexed, err);
    }
    if (in->flat) {
        size_t bad = 0;
        int code = 0;
        const wop *fop = NULL;
        if (in->run) {
            fop = &in->ops[0];
            code = blobc_walk_run_check(w, fop, t, cnt * fop->n, &bad);
            w->work += (cnt * esz) / 64;
        } else {
            /* all checks by chunks first; a failing chunk is walked again
             * op by op to find its first failure */
            size_t i = 0;
            while (i < cnt) {
                size_t i1 = cnt - i > in->chunk ? i + in->chunk : cnt;
                if (!blobc_walk_checks_pass(w, in, t, i, i1)) break;
                w->work += (i1 - i) * in->nops;
                i = i1;
            }
            for (; i < cnt && !code; i++) {
                size_t eb = t + i * esz;
                for (uint32_t k = 0; k < in->nops; k++) {
                    fop = &in->ops[k];
                    code = blobc_walk_run_check(w, fop, eb + fop->off, fop->n, &bad);
                    if (code) break;
                }
                w->work += in->nops;
            }
        }
        if (BLOBC_LIKELY(!code)) {
            w->tinfo[j] |= BLOBC_WP_DONE;
            return BLOBC_OK;
        }
        /* A frame for the failing element, so that the path names it. */
        if (!blobc_walk_push_frame(w, tid, t, cnt, (uint32_t)j, indexed)) return blobc_err_nomem(err);
        size_t ei = (bad - t) / esz;
        w->frames[w->nframes - 1].i = (uint32_t)ei;
        return blobc_walk_check_fail(w, err, fop, bad, in->type, t + ei * esz);
    }
    if (!blobc_walk_push_frame(w, tid, t, cnt, (uint32_t)j, indexed)) return blobc_err_nomem(err);
    w->frames[w->nframes - 1].fast = 1;
    *pushed = true;
    return BLOBC_OK;
}

/* A reference to payload k, placed before: the same payload (type and
 * count), finished (else the reference closes a cycle); marks it shared. */
static blobc_status revisit(blobc_walk *w, const wop *op, size_t p, size_t t, int64_t cnt,
                            uint32_t tid, const char *what, size_t k, blobc_error *err) {
    blobc_wpayload e = blobc_walk_payload(w, k);
    if (e.tid != tid || e.count != (uint64_t)cnt) {
        char want[96], have[96];
        blobc_walk_spell_tid(w, tid, want, sizeof want);
        blobc_walk_spell_tid(w, e.tid, have, sizeof have);
        return blobc_walk_fail(w, err, BLOBC_V_OVERLAP, p, p,
                     "%s target 0x%" PRIx64 " (%" PRId64 " x %s) overlaps the payload there (%" PRIu32
                     " x %s)",
                     what, AT(t), cnt, want, e.count, have);
    }
    if (!(e.flags & BLOBC_WP_DONE))
        return blobc_walk_fail(w, err, BLOBC_V_CYCLE, p, p,
                     "%s target 0x%" PRIx64 " is a payload that contains this field (a cycle)",
                     what, AT(t));
    w->tinfo[k] |= BLOBC_WP_SHARED;
    if (op->code != OP_STR && ((e.flags & BLOBC_WP_PTR) != 0) != (op->code == OP_PTR))
        w->tinfo[k] |= BLOBC_WP_MIXED;
    return BLOBC_OK;
}

/* A target of a Unity file (any_order), in bounds and aligned: a payload
 * placed before, or a new one that covers no byte another covers. */
static blobc_status visit_anywhere(blobc_walk *w, const wop *op, size_t p, size_t t, int64_t cnt,
                                   uint32_t tid, const char *what, bool *pushed, blobc_error *err) {
    size_t k = blobc_walk_any_find(w, t);
    if (k != SIZE_MAX) return revisit(w, op, p, t, cnt, tid, what, k, err);
    size_t bytes = (size_t)cnt * w->infos[tid].size, hit = 0;
    if (!blobc_walk_any_room(w, w->ntab + 1)) return blobc_err_nomem(err);
    if (!blobc_walk_any_claim(w, w->ntab, t, bytes, &hit)) {
        char want[96];
        blobc_walk_spell_tid(w, tid, want, sizeof want);
        size_t c = blobc_walk_any_containing(w, hit);
        return blobc_walk_fail(w, err, BLOBC_V_OVERLAP, p, p,
                     "%s target 0x%" PRIx64 " (%" PRId64 " x %s) overlaps the payload at 0x%" PRIx64,
                     what, AT(t), cnt, want, AT(c != SIZE_MAX ? w->tstart[c] : hit));
    }
    blobc_status st = place(w, op, p, t, (size_t)cnt, tid, pushed, err);
    w->cursor = ANY_CURSOR;
    return st;
}

/* Every check of an offset field, in the documented order, for the cases
 * the fast path in visit_offset did not settle: errors, references to
 * placed payloads, and payloads behind a nonzero gap. */
static blobc_status visit_slow(blobc_walk *w, const wop *op, size_t p, bool *pushed,
                               blobc_error *err) {
    const uint8_t *d = w->data;
    size_t size = w->size;
    int32_t off = (int32_t)blobc_ld32(d + p);
    int64_t cnt = 1;
    uint32_t tid;
    const char *what;
    if (op->code == OP_PTR) {
        if (off == 0) return BLOBC_OK;
        tid = op->tid;
        what = "pointer";
    } else {
        int32_t len = (int32_t)blobc_ld32(d + p + 4);
        if (op->code == OP_STR) {
            tid = STRBYTES;
            what = "string";
            if (off == 0)
                return blobc_walk_fail(w, err, BLOBC_V_NULL_LENGTH, p, p,
                             "string offset is 0 (a string is never null)");
            if (len < 0)
                return blobc_walk_fail(w, err, BLOBC_V_LENGTH, p, p, "string length %" PRId32 " is negative",
                             len);
            if (len == 0)
                return blobc_walk_fail(w, err, BLOBC_V_NULL_LENGTH, p, p,
                             "string length 0 (it counts the NUL: the empty string is 1)");
        } else {
            tid = op->tid;
            what = "array";
            if (len < 0)
                return blobc_walk_fail(w, err, BLOBC_V_LENGTH, p, p, "array length %" PRId32 " is negative",
                             len);
            if (off == 0) {
                if (len != 0)
                    return blobc_walk_fail(w, err, BLOBC_V_NULL_LENGTH, p, p,
                                 "array offset 0 (empty) with length %" PRId32, len);
                return BLOBC_OK;
            }
            if (len == 0)
                return blobc_walk_fail(w, err, BLOBC_V_NULL_LENGTH, p, p,
                             "array length 0 with offset %" PRId32 " (empty is offset 0)", off);
        }
        cnt = len;
    }
    uint64_t esz = w->infos[tid].size;
    uint64_t align = w->infos[tid].align;
    int64_t target = (int64_t)p + off;
    if (target < 0)
        return blobc_walk_fail(w, err, BLOBC_V_OFFSET_RANGE, p, p,
                     "%s offset %" PRId32 " leads %" PRId64 " byte(s) before the data section", what,
                     off, -target);
    if (target >= (int64_t)size)
        return blobc_walk_fail(w, err, BLOBC_V_OFFSET_RANGE, p, p,
                     "%s offset %" PRId32 " leads to 0x%" PRIx64
                     ", past the end of the data section (0x%" PRIx64 ")",
                     what, off, AT(target), AT(size));
    size_t t = (size_t)target;
    if (t & (align - 1))
        return blobc_walk_fail(w, err, BLOBC_V_MISALIGNED, p, p,
                     "%s target 0x%" PRIx64 " is not aligned to %" PRIu64, what, AT(t), align);
    /* cnt < 2^31 and esz < 2^31: the product cannot wrap in 64 bits. */
    if ((uint64_t)cnt * esz > size - t) {
        if (op->code == OP_PTR)
            return blobc_walk_fail(w, err, BLOBC_V_OFFSET_RANGE, p, p,
                         "pointer target at 0x%" PRIx64 " needs %" PRIu64 " bytes, %zu remain", AT(t), esz,
                         size - t);
        return blobc_walk_fail(w, err, BLOBC_V_LENGTH, p, p,
                     "%s of %" PRId64 " items of %" PRIu64 " bytes at 0x%" PRIx64
                     " does not fit in the data section",
                     what, cnt, esz, AT(t));
    }
    if (BLOBC_UNLIKELY(w->any_order)) return visit_anywhere(w, op, p, t, cnt, tid, what, pushed, err);
    if (t < w->cursor) {
        size_t k = blobc_walk_find_cached(w, (uint32_t)t);
        if (k == SIZE_MAX) {
            size_t c = blobc_walk_find_containing(w, t);
            if (c != SIZE_MAX)
                return blobc_walk_fail(w, err, BLOBC_V_OVERLAP, p, p,
                             "%s target 0x%" PRIx64 " points inside the payload at 0x%" PRIx64, what,
                             AT(t), AT(w->tstart[c]));
            return blobc_walk_fail(w, err, BLOBC_V_OVERLAP, p, p,
                         "%s target 0x%" PRIx64 " points back into padding, not at a payload", what,
                         AT(t));
        }
        return revisit(w, op, p, t, cnt, tid, what, k, err);
    }
    size_t at = (w->cursor + (size_t)align - 1) & ~((size_t)align - 1);
    if (t != at)
        return blobc_walk_fail(w, err, BLOBC_V_LAYOUT, p, p,
                     "%s target 0x%" PRIx64 " is not where the next payload goes (0x%" PRIx64 ")",
                     what, AT(t), AT(at));
    for (size_t g = w->cursor; g < at; g++)
        if (d[g])
            return blobc_walk_fail(w, err, BLOBC_V_PADDING, g, p,
                         "nonzero gap byte 0x%02x before the %s target", d[g], what);
    return place(w, op, p, t, (size_t)cnt, tid, pushed, err);
}

/* The offset field of `op` at data offset p. The common case — a new
 * payload exactly at the aligned cursor, fitting, after a zero gap — is
 * settled here with a handful of compares (it implies every range check);
 * everything else goes through visit_slow. The caller has stored pc + 1
 * in the top frame; a pushed frame is reported in *pushed. */
static inline blobc_status visit_offset(blobc_walk *w, const wop *op, size_t p, bool *pushed,
                                        blobc_error *err) {
    const uint8_t *d = w->data;
    int32_t off = (int32_t)blobc_ld32(d + p);
    int32_t len = 1;
    uint32_t tid = op->tid;
    if (op->code == OP_STR) {
        len = (int32_t)blobc_ld32(d + p + 4);
        size_t cur = w->cursor;
        if (BLOBC_LIKELY(off > 0 && len > 0 && p + (size_t)off == cur &&
                         (uint64_t)(uint32_t)len <= w->size - cur))
            return place_str(w, p, cur, (size_t)len, err);
        return visit_slow(w, op, p, pushed, err);
    }
    if (op->code == OP_PTR) {
        if (off == 0) return BLOBC_OK;
    } else {
        len = (int32_t)blobc_ld32(d + p + 4);
        if (op->code == OP_STR) tid = STRBYTES;
        else if (off == 0 && len == 0) return BLOBC_OK;
        if (off == 0 || len <= 0) return visit_slow(w, op, p, pushed, err);
    }
    const blobc_winfo *in = &w->infos[tid];
    size_t cur = w->cursor;
    size_t at = (cur + in->align - 1) & ~((size_t)in->align - 1);
    size_t t = p + (size_t)(int64_t)off;
    if (BLOBC_LIKELY(t == at && at <= w->size &&
                     (uint64_t)(uint32_t)len * in->size <= w->size - at)) {
        if (BLOBC_LIKELY(at - cur < 8 && at >= 8)) {
            /* the gap (0 to 7 bytes, after a string mostly) is the top of
             * the word that ends at the target: one test, no loop whose
             * trip count the branch predictor has to guess */
            if (blobc_ld64(d + at - 8) & ~(~0ull >> (8 * (at - cur))))
                return visit_slow(w, op, p, pushed, err);
        } else {
            for (size_t g = cur; g < at; g++)
                if (d[g]) return visit_slow(w, op, p, pushed, err);
        }
        if (tid == BLOBC_KIND_STRING) {
            /* [string], *string: the items' bytes follow at once */
            size_t j = w->ntab;
            if ((BLOBC_UNLIKELY(w->ntab == w->tab_cap) && !blobc_walk_tab_grow(w, 1)) ||
                !tab_put(w, t, (uint32_t)len, tid,
                         BLOBC_WP_DONE | (op->code == OP_PTR ? BLOBC_WP_PTR : 0)))
                return blobc_err_nomem(err);
            w->cursor = t + (size_t)(uint32_t)len * 8;
            return string_items(w, t, (uint32_t)len, j, 0, op->code == OP_ARR, err);
        }
        if (in->state == ST_COMPILED && in->nops == 0) {
            /* items with nothing to check ([u32], *Vec2i): just placed */
            if ((BLOBC_UNLIKELY(w->ntab == w->tab_cap) && !blobc_walk_tab_grow(w, 1)) ||
                !tab_put(w, t, (uint32_t)len, tid,
                         BLOBC_WP_DONE | (op->code == OP_PTR ? BLOBC_WP_PTR : 0)))
                return blobc_err_nomem(err);
            w->cursor = t + (size_t)(uint32_t)len * in->size;
            return BLOBC_OK;
        }
        return place(w, op, p, t, (size_t)len, tid, pushed, err);
    }
    return visit_slow(w, op, p, pushed, err);
}

/* ---- the walk ---- */

/* The payload table as the fast walk keeps it: in registers, written
 * back (tab_sync) before anything else touches the walk, and read again
 * (tab_load) after, since that may have moved the table. */
typedef struct wtab {
    size_t cur, nt, cap;
    uint32_t *start, *info;
} wtab;

HOT void tab_load(const blobc_walk *w, wtab *t) {
    t->cur = w->cursor;
    t->nt = w->ntab;
    t->cap = w->tab_cap;
    t->start = w->tstart;
    t->info = w->tinfo;
}

HOT void tab_sync(blobc_walk *w, const wtab *t) {
    w->cursor = t->cur;
    w->ntab = t->nt;
}

/* Grows the table for `need` more payloads (see walk_refs). */
static bool tab_room(blobc_walk *w, wtab *t, size_t need) {
    tab_sync(w, t);
    if (!blobc_walk_tab_grow(w, need)) return false;
    tab_load(w, t);
    return true;
}

/* The common case of the string field at p: new bytes right at the
 * cursor, few enough for the packed table entry, ASCII with the one NUL
 * last. Records them (the caller made room) and moves the cursor. False,
 * with nothing changed, for anything else: visit_offset then decides.
 * Every range check is implied: the target is the cursor and 1 <= length
 * <= size - cursor (a negative offset or length read as unsigned is past
 * any data section). */
HOT bool str_quick(const uint8_t *d, size_t size, size_t p, wtab *t) {
    uint32_t so = ld32(d + p), sl = ld32(d + p + 4);
    size_t c = t->cur;
    if (BLOBC_UNLIKELY((uint64_t)p + so != c || sl - 1u >= 0xffffu || c + sl > size ||
                       !string_fast(d, c, sl)))
        return false;
    t->start[t->nt] = (uint32_t)c;
    t->info[t->nt++] = pack(STRBYTES, sl, BLOBC_WP_DONE);
    t->cur = c + sl;
    return true;
}

/* Whether the gap [cur, at) before a payload (less than its alignment)
 * is zero; at <= size. A gap under 8 bytes is the top of the word that
 * ends at the target: one test, no loop. */
HOT bool gap_zero(const uint8_t *d, size_t cur, size_t at) {
    size_t g = at - cur;
    if (BLOBC_LIKELY(g < 8 && at >= 8)) return !(ld64(d + at - 8) & ~(~0ull >> (8 * g)));
    for (; cur < at; cur++)
        if (d[cur]) return false;
    return true;
}

/* A LOOP or CALL op at p: the inline value(s) walked in a frame of their
 * own, fast (checks by chunks). A type with checks only needs no frame
 * when they all pass; else a slow frame from the first failing chunk
 * finds the failure. *pushed tells whether a frame was pushed. */
blobc_status blobc_walk_enter_inline(blobc_walk *w, const wop *op, size_t p, bool *pushed,
                                 blobc_error *err) {
    uint32_t sub = op->tid;
    blobc_status st = blobc_walk_compile(w, sub, err);
    if (st != BLOBC_OK) return st;
    const blobc_winfo *si = &w->infos[sub];
    size_t i = 0;
    if (si->flat) {
        while (i < op->n) {
            size_t i1 = op->n - i > si->chunk ? i + si->chunk : op->n;
            if (!blobc_walk_checks_pass(w, si, p, i, i1)) break;
            i = i1;
        }
        w->work += (uint64_t)i * si->nops;
        if (i == op->n) return BLOBC_OK;
    }
    if (!blobc_walk_push_frame(w, sub, p, op->n, WNONE, op->code == OP_LOOP)) return blobc_err_nomem(err);
    blobc_wframe *f = &w->frames[w->nframes - 1];
    f->i = (uint32_t)i;
    f->fast = !si->flat;
    *pushed = true;
    return BLOBC_OK;
}

/* What the fast walk leaves to the general path, with the top frame's
 * place (element i, op pc - 1 of the rops) stored as the slow walk has
 * it, so that a pushed frame resumes there and errors name the path. */
static blobc_status refs_slow(blobc_walk *w, const wop *op, size_t p, uint32_t i, uint32_t pc,
                              bool *pushed, blobc_error *err) {
    blobc_wframe *f = &w->frames[w->nframes - 1];
    f->i = i;
    f->pc = pc;
    if (op->code == OP_LOOP || op->code == OP_CALL) return blobc_walk_enter_inline(w, op, p, pushed, err);
    return blobc_walk_visit(w, op, p, pushed, err);
}

/* Walks the top frame, a fast one, from its current element and op. Each
 * chunk of elements has its checks run first (checks_pass); then their
 * offset fields are visited in order, the common cases inline with the
 * cursor and table in registers: a string's new bytes, a new [T] or *T
 * of items with nothing to check, a new [string] and its strings. The
 * rest goes through the general path (refs_slow). *next tells how it
 * stopped: the frame is done, a frame was pushed on top, or a chunk fails
 * a check and the frame turned slow at that chunk's first element, where
 * the op-by-op walk takes over and reports the first failure in canonical
 * order. */
blobc_status blobc_walk_refs(blobc_walk *w, int *next, blobc_error *err) {
    blobc_wframe *f = &w->frames[w->nframes - 1];
    const uint32_t tid = f->tid, n = f->n;
    const blobc_winfo *infos = w->infos;
    const wop *const ops = infos[tid].rops; /* in the arena: never moves */
    const uint32_t nops = infos[tid].nrops;
    const wop *const end = ops ? ops + nops : NULL;
    const size_t esize = infos[tid].size, base = f->base, size = w->size;
    const uint8_t *const d = w->data;
    size_t ck = f->ck;
    wtab t;
    tab_load(w, &t);
    blobc_status st;
    for (uint32_t i = f->i, pc = f->pc; i < n; i++, pc = 0) {
        /* (a frame resumed inside an element has checked past it) */
        if (i >= ck) {
            const blobc_winfo *in = &infos[tid];
            ck = n - i > in->chunk ? i + in->chunk : n;
            if (in->ncops && !blobc_walk_checks_pass(w, in, base, i, ck)) {
                f->fast = 0;
                f->i = i;
                f->pc = 0;
                tab_sync(w, &t);
                *next = FR_SLOW;
                return BLOBC_OK;
            }
            f->ck = (uint32_t)ck;
        }
        /* Room in the table for a payload from each field, checked once an
         * element (and a [string]'s items once an array). With the table
         * reserved for size / 4 + 2 payloads it always is: the payloads
         * placed so far, plus one for each field not yet visited, are at
         * most one a 4-byte field plus the root. */
        if (BLOBC_UNLIKELY(t.cap - t.nt < nops) && !tab_room(w, &t, nops))
            return blobc_err_nomem(err);
        const size_t ebase = base + (size_t)i * esize;
        for (const wop *op = pc ? ops + pc : ops; op != end; op++) {
            const size_t p = ebase + op->off;
            uint32_t ao, al;
            switch (op->code) {
            case OP_STR:
                if (BLOBC_LIKELY(str_quick(d, size, p, &t))) continue;
                goto general;
            case OP_ARR:
                ao = ld32(d + p);
                al = ld32(d + p + 4);
                if ((ao | al) == 0) continue; /* empty */
                break;
            case OP_PTR:
                ao = ld32(d + p);
                al = 1;
                if (ao == 0) continue; /* null */
                break;
            default:
                goto general;
            }
            {
                /* the items' size, alignment, class and table entry,
                 * decoded by compile_one */
                const size_t esz = op->n, amask = (uint32_t)op->mask;
                const size_t at = (t.cur + amask) & ~amask;
                const unsigned cls = op->esize ? op->esize : infos[op->tid].cls;
                /* a new payload at the aligned cursor, 1 to 0xffff items
                 * (al - 1 wraps for 0; a negative al is over 2^31) that
                 * fit, after a zero gap */
                if (BLOBC_LIKELY(cls != CLS_OTHER && (uint64_t)p + ao == at && al - 1u < 0xffffu &&
                                 (uint64_t)at + (uint64_t)al * esz <= size &&
                                 (at == t.cur || gap_zero(d, t.cur, at)))) {
                    const size_t k = t.nt++;
                    t.start[k] = (uint32_t)at;
                    t.info[k] = (uint32_t)(op->mask >> 32) | al << 16;
                    t.cur = at + (size_t)al * esz;
                    if (cls == CLS_PLAIN) continue;
                    /* strings: their bytes follow at once */
                    if (BLOBC_UNLIKELY(t.cap - t.nt < al) && !tab_room(w, &t, al))
                        return blobc_err_nomem(err);
                    uint32_t j = 0;
                    while (j < al && str_quick(d, size, at + 8 * (size_t)j, &t)) j++;
                    if (BLOBC_LIKELY(j == al)) continue;
                    tab_sync(w, &t);
                    f->i = i;
                    f->pc = (uint32_t)(op - ops) + 1;
                    st = string_items(w, at, al, k, j, op->code == OP_ARR, err);
                    if (st != BLOBC_OK) return st;
                    tab_load(w, &t);
                    continue;
                }
            }
        general:;
            bool pushed = false;
            tab_sync(w, &t);
            st = refs_slow(w, op, p, i, (uint32_t)(op - ops) + 1, &pushed, err);
            if (st != BLOBC_OK) return st;
            if (pushed) {
                *next = FR_PUSHED;
                return BLOBC_OK;
            }
            /* compiling a type may have grown the infos */
            infos = w->infos;
            f = &w->frames[w->nframes - 1];
            tab_load(w, &t);
        }
    }
    tab_sync(w, &t);
    *next = FR_DONE;
    return BLOBC_OK;
}

/* A union at p, whose tag its OP_UTAG check passed: none, or the member's
 * payload checked as the target of a *Member (bounds, alignment,
 * placement, sharing). */
static blobc_status visit_union(blobc_walk *w, const wop *op, size_t p, bool *pushed,
                                blobc_error *err) {
    const blobc_winfo *u = &w->infos[op->tid];
    uint32_t tag = ld32(w->data + p);
    if (tag == 0) return BLOBC_OK;
    const wop ref = {OP_PTR, 0, op->off + BLOBC_UNION_REF, 1, u->umem[tag - 1], 0};
    return visit_offset(w, &ref, p + BLOBC_UNION_REF, pushed, err);
}

/* An optional or an any at p: its own checks (walk_values.c), then what
 * they say to walk: a present T inline, or the offset field in an any's
 * body and, for a list or mapping, its depth. */
static blobc_status visit_value(blobc_walk *w, const wop *op, size_t p, bool *pushed,
                                blobc_error *err) {
    wop then = {0, 0, 0, 0, 0, 0};
    blobc_status st = op->code == OP_OPT ? blobc_walk_optional(w, op, p, &then, err)
                                         : blobc_walk_any(w, op, p, &then, err);
    if (st != BLOBC_OK || then.code == 0) return st;
    if (then.code == OP_CALL) return blobc_walk_enter_inline(w, &then, p, pushed, err);
    st = visit_offset(w, &then, p + BLOBC_ANY_BODY, pushed, err);
    if (st != BLOBC_OK || then.code == OP_STR) return st;
    return blobc_walk_any_held(w, p, *pushed, err);
}

blobc_status blobc_walk_visit(blobc_walk *w, const wop *op, size_t p, bool *pushed,
                              blobc_error *err) {
    switch (op->code) {
    case OP_UNION: return visit_union(w, op, p, pushed, err);
    case OP_REF: return blobc_walk_ref(w, op, p, err);
    case OP_OPT:
    case OP_ANY: return visit_value(w, op, p, pushed, err);
    case OP_MKEY: return blobc_walk_map_key(w, op, p, err);
    default: break;
    }
    return visit_offset(w, op, p, pushed, err);
}
