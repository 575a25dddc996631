/*
 * walk_table.c - the table of payloads the walker placed, by increasing
 * start (sorted by construction: each new payload starts at the cursor;
 * a Unity file's, in the order the walk reached them: walk_anyorder.c).
 * Verify uses it to tell a back reference from an overlap; dump reads it
 * afterwards to know which payloads are shared and where a map must stop.
 */
#include "read/walk_internal.h"

#include <stdlib.h>

#include "platform/platform.h"

void blobc_walk_tab_release(blobc_walk *w) {
    if (w->tab_map) {
        blobc_os_unmap_zero(w->tab_map, w->tab_map_len);
    } else {
        free(w->tstart);
        free(w->tinfo);
    }
    w->tab_map = NULL;
    w->tab_map_len = 0;
    w->tstart = NULL;
    w->tinfo = NULL;
    w->tab_cap = 0;
}

blobc_wpayload blobc_walk_payload(const blobc_walk *w, size_t k) {
    uint32_t v = w->tinfo[k];
    blobc_wpayload p = {w->tstart[k], v >> 16, (v >> 4) & TID_ESC, v & 15u};
    if (p.tid == TID_ESC) {
        const wbig *b = w->big;
        size_t lo = 0, hi = w->nbig;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (b[mid].k < k) lo = mid + 1;
            else hi = mid;
        }
        p.tid = b[lo].tid;
        p.count = b[lo].count;
    }
    return p;
}

bool blobc_walk_tab_grow(blobc_walk *w, size_t need) {
    if (w->tab_map) {
        /* past the reserved bound (which cannot happen, see tab_reserve):
         * move to the heap and grow from there */
        size_t n = w->ntab;
        uint32_t *ts = malloc(n * sizeof *ts), *ti = malloc(n * sizeof *ti);
        if (!ts || !ti) {
            free(ts);
            free(ti);
            return false;
        }
        memcpy(ts, w->tstart, n * sizeof *ts);
        memcpy(ti, w->tinfo, n * sizeof *ti);
        blobc_walk_tab_release(w);
        w->tstart = ts;
        w->tinfo = ti;
        w->tab_cap = n;
    }
    size_t cap = w->tab_cap, ci = cap;
    if (need > (size_t)WNONE - w->ntab ||
        !blobc_grow((void **)&w->tstart, &cap, w->ntab + need, sizeof *w->tstart) ||
        !blobc_grow((void **)&w->tinfo, &ci, w->ntab + need, sizeof *w->tinfo))
        return false;
    w->tab_cap = cap < ci ? cap : ci;
    return true;
}

/* Makes room for every payload `size` bytes of data can hold, once, so
 * the table is never copied or grown while walking. Each payload but the
 * root is reached first through its own offset field of at least 4 bytes,
 * and fields do not overlap: at most size / 4 + 1 payloads. A big table is
 * its own anonymous mapping asking for huge pages: on a 20 MB blob the
 * table takes about 6 MB, and faulting that in 4 KiB pages cost more than
 * a third of the whole verify. Only the pages used are ever touched. */
#define TAB_MAP_MIN (4u << 20)
#define TAB_HUGE (2u << 20)
bool blobc_walk_tab_reserve(blobc_walk *w, size_t size) {
    size_t cap = size / 4 + 2;
    if (w->tab_cap >= cap) return true;
    blobc_walk_tab_release(w);
    if (cap > SIZE_MAX / 8 / 2) return blobc_walk_tab_grow(w, 1);
    size_t half = cap * sizeof(uint32_t);
    if (half * 2 >= TAB_MAP_MIN) {
        half = (half + TAB_HUGE - 1) & ~(size_t)(TAB_HUGE - 1);
        void *p = blobc_os_map_zero(2 * half);
        if (p) {
            w->tab_map = p;
            w->tab_map_len = 2 * half;
            w->tstart = p;
            w->tinfo = (uint32_t *)((uint8_t *)p + half);
            w->tab_cap = cap;
            return true;
        }
        return blobc_walk_tab_grow(w, 1); /* no mapping: grow on the heap */
    }
    w->tstart = malloc(half);
    w->tinfo = malloc(half);
    if (!w->tstart || !w->tinfo) {
        blobc_walk_tab_release(w);
        return false;
    }
    w->tab_cap = cap;
    return true;
}

size_t blobc_walk_any_find(const blobc_walk *w, size_t t) {
    if (!w->any_win || t >= w->size) return SIZE_MAX;
    for (uint32_t k = w->any_win[t >> WIN_SHIFT]; k; k = w->any_next[k - 1])
        if (k - 1 < w->ntab && w->tstart[k - 1] == t) return k - 1;
    return SIZE_MAX;
}

size_t blobc_walk_find(const blobc_walk *w, uint32_t start) {
    if (w->any_order) return blobc_walk_any_find(w, start);
    size_t lo = 0, hi = w->ntab;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->tstart[mid] < start) lo = mid + 1;
        else hi = mid;
    }
    return lo < w->ntab && w->tstart[lo] == start ? lo : SIZE_MAX;
}

size_t blobc_walk_find_containing(const blobc_walk *w, size_t at) {
    size_t lo = 0, hi = w->ntab;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->tstart[mid] <= at) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return SIZE_MAX;
    blobc_wpayload p = blobc_walk_payload(w, lo - 1);
    return at < p.start + (uint64_t)p.count * w->infos[p.tid].size ? lo - 1 : SIZE_MAX;
}

/* Index of the payload starting at `start`: a small direct-mapped cache in
 * front of the binary search, because shared payloads (a common tag, a
 * default material) tend to be referenced again and again. */
size_t blobc_walk_find_cached(blobc_walk *w, uint32_t start) {
    size_t h = (size_t)((start * 2654435761u) >> (32 - BLOBC_WALK_CACHE_BITS));
    uint32_t c = w->bcache[h];
    if (c && c - 1 < w->ntab && w->tstart[c - 1] == start) return c - 1;
    size_t k = blobc_walk_find(w, start);
    if (k != SIZE_MAX) w->bcache[h] = (uint32_t)(k + 1);
    return k;
}
