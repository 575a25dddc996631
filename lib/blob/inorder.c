/*
 * inorder.c - the builder's in-order mode: payloads written straight
 * into their final place, for a caller that allocates in the canonical
 * order (docs/FORMAT.md, "The data section") as a front end reading a
 * document from top to bottom does when its keys come in the schema's
 * order. No record per allocation or link is kept and finish has nothing
 * to lay out: the image is the buffer the allocations were made in.
 *
 * The order is proved as the calls come, in constant time for each: the
 * allocations made so far form a forest (an allocation is a tree of its
 * own until it is linked), and the image is canonical exactly when every
 * link attaches the newest tree, below the last child, to a node on the
 * right edge of the tree made before it at a higher byte offset than that
 * node's earlier links; then allocation order is the depth-first order
 * in which the canonical layout places them. The right edges of the trees
 * are kept on one stack (the spine); anything else (a link out of order,
 * a payload linked twice, an allocation never linked) makes the call fail
 * with IO_OUT_OF_ORDER, and the caller starts again with the ordinary
 * builder, which lays out any graph.
 *
 * An array whose length is unknown until it closes (an open allocation)
 * grows at the end of the buffer; what is allocated while it is open
 * (its items' strings and arrays, which the layout places after it) goes
 * to a segment of its own, appended behind it when it closes. The links
 * from its items into that segment are written relative to the segment's
 * start and corrected by the segment's final place then.
 */
#include "blob/inorder.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/buffer.h"
#include "common/compiler.h"
#include "common/endian.h"
#include "platform/platform.h"

#define NONE UINT32_MAX
#define SEG_MIN ((size_t)64 * 1024)
/* Memory past a segment's end is cleared this far ahead of need at a time. */
#define CLEAR_STEP ((size_t)64 * 1024)
/* A segment buffer up to this size is kept for the next open array. */
#define SPARE_MAX ((size_t)1024 * 1024)

typedef struct seg {
    uint8_t *mem;
    size_t len, cap;
    size_t clean;          /* [len, clean) is zero */
    uint32_t owner;        /* not the first: the open allocation it follows */
    uint32_t tail;         /* an open allocation growing at its end, NONE when none */
    uint32_t tail_node;    /* ... its index on the spine (open ones never move) */
    uint32_t first_align;  /* alignment of its first allocation, 0 while empty */
    uint32_t max_align;
    size_t fix_mark;       /* the owner's links into it are fix[fix_mark..] */
} seg;

/* An allocation on the spine: a root of the forest or on a right edge. */
typedef struct node {
    uint32_t ref;
    uint32_t seg;
    uint32_t pos;      /* in its segment */
    uint32_t size;
    uint32_t last_at;  /* its last link's byte offset, NONE before the first */
    uint16_t root;     /* not linked yet */
    uint16_t open;
} node;

struct io_builder {
    seg *top;          /* segs[nsegs - 1] */
    node *g;           /* the spine */
    size_t ng, g_cap;
    size_t last_root;  /* index of the newest root on the spine */
    uint32_t nrefs;
    bool broken;
    io_last *last;
    seg *segs;
    size_t nsegs, segs_cap;
    uint32_t *fix;     /* positions, in the owner's segment, of provisional links */
    size_t nfix, fix_cap;
    size_t prefix;
    size_t max_size;   /* the largest allocation: the scratch's size */
    uint8_t *scratch;
    size_t scratch_cap;
    seg spare;
};

io_builder *io_new(size_t prefix, size_t hint, io_last *last) {
    io_builder *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    size_t cap = prefix + (hint < SEG_MIN ? SEG_MIN : hint > BLOBC_MAX_DATA_SIZE ? BLOBC_MAX_DATA_SIZE : hint);
    s->segs = calloc(4, sizeof *s->segs);
    uint8_t *mem = calloc(1, cap); /* fresh pages: zero without being touched */
    if (!s->segs || !mem) {
        free(mem);
        io_free(s);
        return NULL;
    }
    blobc_os_advise_huge(mem, cap);
    s->segs_cap = 4;
    s->nsegs = 1;
    s->segs[0] = (seg){mem, prefix, cap, cap, NONE, NONE, 0, 0, 1, 0};
    s->top = &s->segs[0];
    s->prefix = prefix;
    s->last = last;
    last->ref = NONE;
    return s;
}

void io_free(io_builder *s) {
    if (!s) return;
    for (size_t i = 0; i < s->nsegs; i++) free(s->segs[i].mem);
    free(s->spare.mem);
    free(s->segs);
    free(s->g);
    free(s->fix);
    free(s->scratch);
    free(s);
}

static io_status broken(io_builder *s) {
    s->broken = true;
    return IO_OUT_OF_ORDER;
}

/* reserve's way when the clean memory runs out. */
BLOBC_NOINLINE
static bool reserve_more(io_builder *s, seg *sg, size_t need) {
    if (need > sg->cap) {
        size_t cap = sg->cap ? sg->cap : SEG_MIN;
        while (cap < need) cap *= 2; /* need < 2^32 + a prefix: no overflow */
        uint8_t *p = realloc(sg->mem, cap);
        if (!p) return false;
        blobc_os_advise_huge(p, cap);
        sg->mem = p;
        sg->cap = cap;
        s->last->ref = NONE; /* it may have moved */
    }
    size_t to = need + CLEAR_STEP < sg->cap ? need + CLEAR_STEP : sg->cap;
    memset(sg->mem + sg->clean, 0, to - sg->clean);
    sg->clean = to;
    return true;
}

/* Room for `need` bytes in sg, zero past its end. */
static inline bool reserve(io_builder *s, seg *sg, size_t need) {
    return BLOBC_LIKELY(need <= sg->clean) || reserve_more(s, sg, need);
}

/* A segment for what is allocated while the open allocation at the end
 * of the top one is open. */
static bool push_seg(io_builder *s) {
    if (s->nsegs == s->segs_cap &&
        !blobc_grow((void **)&s->segs, &s->segs_cap, s->nsegs + 1, sizeof *s->segs))
        return false;
    seg *below = &s->segs[s->nsegs - 1];
    seg sg = s->spare;
    s->spare = (seg){0};
    sg.len = 0;
    sg.owner = below->tail;
    sg.tail = sg.tail_node = NONE;
    sg.first_align = sg.max_align = 0;
    sg.fix_mark = s->nfix;
    s->segs[s->nsegs++] = sg;
    s->top = &s->segs[s->nsegs - 1];
    return true;
}

static void retire_seg(io_builder *s, seg *sg) {
    if (sg->cap <= SPARE_MAX && !s->spare.mem) {
        memset(sg->mem, 0, sg->len);
        s->spare = *sg;
    } else {
        free(sg->mem);
    }
    *sg = (seg){0};
}

static inline io_status place(io_builder *s, size_t size, uint32_t align, bool open,
                                 blobc_ref *ref, void **mem) {
    if (BLOBC_UNLIKELY(s->broken || s->nrefs >= NONE - 1)) return broken(s);
    if (BLOBC_UNLIKELY(s->top->tail != NONE) && !push_seg(s)) return IO_NOMEM;
    seg *top = s->top;
    size_t pos = (top->len + align - 1) & ~((size_t)align - 1);
    /* Past the limit the ordinary builder says by how much. */
    if (BLOBC_UNLIKELY(size > BLOBC_MAX_DATA_SIZE || pos + size > s->prefix + BLOBC_MAX_DATA_SIZE))
        return broken(s);
    if (!reserve(s, top, pos + size)) return IO_NOMEM;
    if (BLOBC_UNLIKELY(s->ng == s->g_cap) &&
        !blobc_grow((void **)&s->g, &s->g_cap, s->ng + 1, sizeof *s->g))
        return IO_NOMEM;
    uint32_t r = s->nrefs++;
    if (BLOBC_UNLIKELY(align > top->max_align)) {
        if (!top->first_align) top->first_align = align;
        top->max_align = align;
    }
    top->len = pos + size;
    if (open) {
        top->tail = r;
        top->tail_node = (uint32_t)s->ng;
    }
    s->last_root = s->ng;
    s->g[s->ng++] = (node){r, (uint32_t)(s->nsegs - 1), (uint32_t)pos, (uint32_t)size, NONE, 1,
                           open};
    if (size > s->max_size) s->max_size = size;
    if (ref) *ref = r;
    if (mem) *mem = top->mem + pos;
    return IO_OK;
}

io_status io_alloc(io_builder *s, size_t size, uint32_t align, blobc_ref *ref, void **mem) {
    return place(s, size, align, false, ref, mem);
}

/* The common case: loc on the right edge of the newest tree, in the top
 * segment, which no open allocation ends: the payload goes below it on
 * the spine without ever being a tree of its own. Anything else takes
 * the two calls. */
io_status io_alloc_linked(io_builder *s, blobc_ref loc, uint32_t at, size_t size, uint32_t align,
                          blobc_ref *ref, void **mem) {
    seg *top = s->top;
    node *g = s->g;
    size_t pi = s->ng, seg_i = s->nsegs - 1;
    size_t pos = (top->len + align - 1) & ~((size_t)align - 1);
    if (BLOBC_UNLIKELY(s->broken || top->tail != NONE || s->ng == s->g_cap ||
                       s->nrefs >= NONE - 1 || size > BLOBC_MAX_DATA_SIZE ||
                       pos + size > s->prefix + BLOBC_MAX_DATA_SIZE || pos + size > top->clean))
        goto two_calls;
    do {
        if (pi == s->last_root) goto two_calls;
        pi--;
    } while (g[pi].ref != loc);
    node *pn = &g[pi];
    if (BLOBC_UNLIKELY((pn->last_at != NONE && (uint64_t)at < (uint64_t)pn->last_at + 4) ||
                       (uint64_t)at + 4 > pn->size))
        goto two_calls;
    if (pn->seg != seg_i) {
        /* an item of the open array the top segment follows */
        if (pn->seg + 1 != seg_i || top->owner != loc || s->nfix == s->fix_cap) goto two_calls;
        s->fix[s->nfix++] = pn->pos + at;
    }
    uint32_t r = s->nrefs++;
    if (BLOBC_UNLIKELY(align > top->max_align)) {
        if (!top->first_align) top->first_align = align;
        top->max_align = align;
    }
    top->len = pos + size;
    blobc_st32(s->segs[pn->seg].mem + pn->pos + at,
               (uint32_t)(int32_t)((int64_t)pos - ((int64_t)pn->pos + at)));
    pn->last_at = at;
    s->ng = pi + 2;
    g[pi + 1] = (node){r, (uint32_t)seg_i, (uint32_t)pos, (uint32_t)size, NONE, 0, 0};
    if (size > s->max_size) s->max_size = size;
    if (ref) *ref = r;
    if (mem) *mem = top->mem + pos;
    return IO_OK;
two_calls:;
    blobc_ref c = NONE;
    io_status st = place(s, size, align, false, &c, mem);
    if (st == IO_OK) st = io_link(s, loc, at, c);
    if (ref) *ref = c;
    return st;
}

io_status io_open(io_builder *s, uint32_t align, blobc_ref *ref) {
    return place(s, 0, align, true, ref, NULL);
}

/* The segment open allocation ref grows at the end of: the top one, or
 * the one below when the top holds what was allocated while it is open.
 * -1 when ref is no such allocation. */
static long tail_seg(const io_builder *s, blobc_ref ref) {
    size_t top = s->nsegs - 1;
    if (s->segs[top].tail == ref) return (long)top;
    if (top > 0 && s->segs[top].owner == ref && s->segs[top - 1].tail == ref) return (long)top - 1;
    return -1;
}

void *io_grow(io_builder *s, blobc_ref ref, size_t add, io_status *st) {
    long si = s->broken ? -1 : tail_seg(s, ref);
    if (si < 0) {
        *st = broken(s);
        return NULL;
    }
    seg *sg = &s->segs[si];
    node *n = &s->g[sg->tail_node];
    if (add > BLOBC_MAX_DATA_SIZE - n->size) {
        *st = broken(s);
        return NULL;
    }
    if (!reserve(s, sg, sg->len + add)) {
        *st = IO_NOMEM;
        return NULL;
    }
    uint8_t *p = sg->mem + sg->len;
    sg->len += add;
    n->size += (uint32_t)add;
    if (n->size > s->max_size) s->max_size = n->size;
    return p;
}

/* The top segment appended behind the open allocation that just closed
 * at the end of the one below, where the canonical layout puts what was
 * allocated after it; its offsets from that allocation corrected. */
static io_status merge(io_builder *s) {
    seg *c = &s->segs[s->nsegs - 1], *p = &s->segs[s->nsegs - 2];
    size_t at = (p->len + c->first_align - 1) & ~((size_t)c->first_align - 1);
    /* The segment was laid out from a 16-aligned start: the same padding
     * only where `at` is aligned for everything in it. */
    if (at % c->max_align != 0 || at + c->len > s->prefix + BLOBC_MAX_DATA_SIZE) return broken(s);
    if (!reserve(s, p, at + c->len)) return IO_NOMEM;
    memcpy(p->mem + at, c->mem, c->len);
    p->len = at + c->len;
    if (c->max_align > p->max_align) p->max_align = c->max_align;
    uint32_t cs = (uint32_t)(s->nsegs - 1);
    for (size_t i = s->ng; i-- > 0 && s->g[i].seg == cs;) {
        s->g[i].seg = cs - 1;
        s->g[i].pos += (uint32_t)at;
    }
    for (size_t i = c->fix_mark; i < s->nfix; i++) {
        uint8_t *q = p->mem + s->fix[i];
        blobc_st32(q, blobc_ld32(q) + (uint32_t)at);
    }
    s->nfix = c->fix_mark;
    retire_seg(s, c);
    s->nsegs--;
    s->top = p;
    s->last->ref = NONE;
    return IO_OK;
}

io_status io_close(io_builder *s, blobc_ref ref) {
    long si = s->broken ? -1 : tail_seg(s, ref);
    if (si < 0) return broken(s);
    seg *sg = &s->segs[si];
    node *n = &s->g[sg->tail_node];
    /* Closed empty, it takes no place in the layout but its padding did. */
    if (n->size == 0) return broken(s);
    n->open = 0;
    sg->tail = sg->tail_node = NONE;
    return (size_t)si + 1 < s->nsegs ? merge(s) : IO_OK;
}

/* A link from the owner of the segment its target is in: written from
 * the segment's start, corrected when the segment finds its place. */
BLOBC_NOINLINE
static io_status link_across(io_builder *s, const node *pn, const node *cn, uint32_t at) {
    if (cn->seg != pn->seg + 1 || s->segs[cn->seg].owner != pn->ref) return broken(s);
    if (s->nfix == s->fix_cap &&
        !blobc_grow((void **)&s->fix, &s->fix_cap, s->nfix + 1, sizeof *s->fix))
        return IO_NOMEM;
    s->fix[s->nfix++] = pn->pos + at;
    return IO_OK;
}

io_status io_link(io_builder *s, blobc_ref loc, uint32_t at, blobc_ref target) {
    size_t ci = s->last_root, pi = ci;
    node *g = s->g, *cn = &g[ci];
    if (BLOBC_UNLIKELY(s->broken || ci == 0 || cn->ref != target || cn->open)) return broken(s);
    /* loc on the right edge of the tree before: below the newest root,
     * no other root in between. */
    do {
        pi--;
        if (g[pi].ref == loc) break;
        if (g[pi].root) return broken(s);
    } while (pi > 0);
    node *pn = &g[pi];
    if (BLOBC_UNLIKELY(pn->ref != loc || (pn->last_at != NONE && (uint64_t)at < (uint64_t)pn->last_at + 4) ||
                       (uint64_t)at + 4 > pn->size))
        return broken(s);
    if (BLOBC_UNLIKELY(cn->seg != pn->seg)) {
        io_status st = link_across(s, pn, cn, at);
        if (st) return st;
    }
    int64_t rel = (int64_t)cn->pos - ((int64_t)pn->pos + at);
    blobc_st32(s->segs[pn->seg].mem + pn->pos + at, (uint32_t)(int32_t)rel);
    pn->last_at = at;
    cn->root = 0;
    /* What hung below loc's earlier links is complete: off the spine;
     * the newest tree takes its place. */
    if (ci != pi + 1) {
        size_t to = pi + 1;
        for (size_t i = ci; i < s->ng; i++) g[to++] = g[i];
        s->ng = to;
    }
    /* The newest root is now the root of loc's tree. */
    while (!g[pi].root) pi--;
    s->last_root = pi;
    return IO_OK;
}

static const node *find(io_builder *s, blobc_ref ref) {
    for (size_t i = s->ng; i-- > 0;)
        if (s->g[i].ref == ref) return &s->g[i];
    return NULL;
}

void *io_ptr(io_builder *s, blobc_ref ref) {
    const node *n = find(s, ref);
    if (n) {
        uint8_t *p = s->segs[n->seg].mem + n->pos;
        s->last->ref = ref;
        s->last->mem = p;
        return p;
    }
    /* Not on the spine: complete already, so writing it breaks the order
     * (and the caller starts over); the write goes to scratch memory. */
    s->broken = true;
    if (s->scratch_cap < s->max_size + 16) {
        free(s->scratch);
        s->scratch_cap = s->max_size + 16;
        if (!(s->scratch = calloc(1, s->scratch_cap))) s->scratch_cap = 0;
    }
    return s->scratch;
}

size_t io_size(io_builder *s, blobc_ref ref) {
    const node *n = find(s, ref);
    if (!n) s->broken = true;
    return n ? n->size : 0;
}

io_status io_finish(io_builder *s, size_t prefix, size_t suffix, blobc_buffer *out) {
    seg *m = &s->segs[0];
    if (s->broken || s->nsegs != 1 || s->last_root != 0 || s->nrefs == 0 || prefix != s->prefix ||
        m->tail != NONE)
        return broken(s);
    if (suffix > SIZE_MAX - m->len || !reserve(s, m, m->len + suffix)) return IO_NOMEM;
    uint8_t *img = m->mem;
    if ((uintptr_t)(img + prefix) % 16 != 0) {
        img = blobc_os_alloc16(m->len + suffix);
        if (!img) return IO_NOMEM;
        memcpy(img, m->mem, m->len);
        memset(img + m->len, 0, suffix);
        free(m->mem);
        m->cap = m->len + suffix;
    }
    blobc_buffer_free(out);
    out->data = img;
    out->len = m->len;
    out->cap = m->cap;
    m->mem = NULL;
    m->len = m->cap = m->clean = 0;
    s->last->ref = NONE;
    return IO_OK;
}
