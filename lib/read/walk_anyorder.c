/*
 * walk_anyorder.c - the payloads of a Unity file, which lie where a
 * baker's BlobBuilder allocated them, not in blobc's canonical order
 * (docs/UNITY.md, "Reading Unity files"). The walk is the same; only the
 * placement rule differs: a new payload may start anywhere in bounds and
 * aligned, but covers no byte another payload covers, and a reference to
 * a payload's start must be to that very payload (same type and count).
 *
 * Three structures, each linear in the data size, so that a hostile
 * layout costs no more than a canonical one:
 *   - a bitmap of the bytes placed payloads cover: claiming a payload
 *     tests and sets its bits (a word at a time), and since payloads never
 *     overlap each byte is claimed once;
 *   - per 8-byte window of the data (WIN_SHIFT), a chain of the payloads starting in
 *     it (through wnext): at most 8, as payloads are at least a byte and
 *     disjoint, so finding the payload at a start is constant work (no
 *     hash an attacker could fill);
 *   - after the walk, the payloads by start (order), read from the
 *     windows in address order: what dump --map lists.
 */
#include "read/walk_internal.h"

#include <inttypes.h>
#include <stdlib.h>

/* The index of v's lowest set bit (v != 0). */
static unsigned lowest_bit(uint64_t v) {
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(v);
#else
    unsigned b = 0;
    while (!((v >> b) & 1)) b++;
    return b;
#endif
}

bool blobc_walk_any_init(blobc_walk *w) {
    size_t words = w->size / 64 + 1, wins = (w->size >> WIN_SHIFT) + 1;
    free(w->any_cover);
    free(w->any_win);
    free(w->any_sorted);
    w->any_sorted = NULL;
    w->any_cover = calloc(words, sizeof *w->any_cover);
    w->any_win = calloc(wins, sizeof *w->any_win);
    return w->any_cover && w->any_win && blobc_walk_any_room(w, w->tab_cap);
}

bool blobc_walk_any_room(blobc_walk *w, size_t n) {
    return n <= w->any_cap || blobc_grow((void **)&w->any_next, &w->any_cap, n, sizeof *w->any_next);
}

/* The bits of bytes [t, t + n) in word i of the bitmap. */
static uint64_t word_mask(size_t i, size_t t, size_t n) {
    size_t lo = i * 64, hi = lo + 64;
    size_t a = t > lo ? t - lo : 0, b = t + n < hi ? t + n - lo : 64;
    uint64_t up = b == 64 ? ~0ull : (1ull << b) - 1;
    return up & ~((1ull << a) - 1);
}

bool blobc_walk_any_claim(blobc_walk *w, size_t k, size_t t, size_t n, size_t *hit) {
    size_t first = t / 64, last = (t + n - 1) / 64;
    for (size_t i = first; i <= last; i++) {
        uint64_t taken = w->any_cover[i] & word_mask(i, t, n);
        if (taken) {
            *hit = i * 64 + lowest_bit(taken);
            return false;
        }
    }
    for (size_t i = first; i <= last; i++) w->any_cover[i] |= word_mask(i, t, n);
    w->work += last - first + 1;
    w->any_next[k] = w->any_win[t >> WIN_SHIFT];
    w->any_win[t >> WIN_SHIFT] = (uint32_t)k + 1;
    return true;
}

static size_t end_of(const blobc_walk *w, size_t k) {
    blobc_wpayload p = blobc_walk_payload(w, k);
    return p.start + (size_t)p.count * (p.tid == STRBYTES ? 1 : w->infos[p.tid].size);
}

size_t blobc_walk_any_containing(const blobc_walk *w, size_t at) {
    /* error path only: back from `at` to the nearest start before it */
    for (size_t win = (at >> WIN_SHIFT) + 1; win-- > 0;) {
        size_t best = SIZE_MAX;
        for (uint32_t k = w->any_win[win]; k; k = w->any_next[k - 1])
            if (k - 1 < w->ntab && w->tstart[k - 1] <= at &&
                (best == SIZE_MAX || w->tstart[k - 1] > w->tstart[best]))
                best = k - 1;
        if (best != SIZE_MAX) return end_of(w, best) > at ? best : SIZE_MAX;
    }
    return SIZE_MAX;
}

/* The payloads by start: each window's chain (at most 8) sorted in place. */
static bool build_order(blobc_walk *w) {
    w->any_sorted = malloc((w->ntab ? w->ntab : 1) * sizeof *w->any_sorted);
    if (!w->any_sorted) return false;
    size_t n = 0, wins = (w->size >> WIN_SHIFT) + 1;
    for (size_t win = 0; win < wins; win++) {
        size_t from = n;
        for (uint32_t k = w->any_win[win]; k; k = w->any_next[k - 1]) {
            if (k - 1 >= w->ntab) continue;
            size_t j = n++;
            while (j > from && w->tstart[w->any_sorted[j - 1]] > w->tstart[k - 1]) {
                w->any_sorted[j] = w->any_sorted[j - 1];
                j--;
            }
            w->any_sorted[j] = (uint32_t)(k - 1);
        }
    }
    return true;
}

/* Every byte no payload covers is zero, as Entities 0.50 and later write
 * them (alignment gaps and chunk ends cleared, Length padded with zeros):
 * only the uncovered bytes of each word of the bitmap are read. */
static blobc_status check_gaps(blobc_walk *w, blobc_error *err) {
    size_t words = w->size / 64 + 1;
    for (size_t i = 0; i < words; i++) {
        uint64_t open = ~w->any_cover[i];
        if (i == words - 1) open &= (1ull << (w->size % 64)) - 1;
        for (; open; open &= open - 1) {
            size_t b = i * 64 + lowest_bit(open);
            if (!w->data[b]) continue;
            size_t last_end = 0;
            for (size_t k = 0; k < w->ntab; k++) {
                size_t e = end_of(w, k);
                if (e > last_end) last_end = e;
            }
            if (b >= last_end)
                return blobc_walk_fail(w, err, BLOBC_V_PADDING, b, SIZE_MAX,
                                       "nonzero byte in the padding after the last payload "
                                       "(which ends at 0x%" PRIx64 ")",
                                       AT(last_end));
            return blobc_walk_fail(w, err, BLOBC_V_PADDING, b, SIZE_MAX,
                                   "nonzero byte 0x%02x outside every payload (Entities 0.50 and "
                                   "later zero them; --unity-length exact skips them, for files of "
                                   "0.17 and earlier)",
                                   w->data[b]);
        }
    }
    w->work += words;
    return BLOBC_OK;
}

blobc_status blobc_walk_any_finish(blobc_walk *w, blobc_status st, blobc_error *err) {
    if (!w->any_win) return st;
    if (!build_order(w)) return st ? st : blobc_err_nomem(err);
    if (st == BLOBC_OK && w->end_align) return check_gaps(w, err);
    return st;
}

void blobc_walk_any_release(blobc_walk *w) {
    free(w->any_cover);
    free(w->any_win);
    free(w->any_next);
    free(w->any_sorted);
    w->any_cover = NULL;
    w->any_win = w->any_next = w->any_sorted = NULL;
    w->any_cap = 0;
}
