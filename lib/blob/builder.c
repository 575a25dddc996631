/*
 * builder.c - the blob builder: collects allocations and links while a
 * value graph is baked, then lays them out canonically (docs/FORMAT.md,
 * "The data section") and writes every link as a self-relative i32.
 *
 * This is the hot path of baking, so the bookkeeping is compact: 16 bytes
 * per allocation, 12 per link, no malloc per allocation (fixed allocations
 * are bump-allocated from zeroed chunks), and finish is linear: a list per
 * allocation chains its links, an explicit-stack depth-first
 * walk places payloads, and one pass in allocation order copies bytes,
 * patches offsets and frees each chunk once it has been copied, so the
 * payloads and the image are not both held whole.
 *
 * Any failed call leaves the builder failed: the first error is kept and
 * reported again by blobc_builder_status and blobc_builder_finish, so a
 * caller that only checks the final status still gets a precise message.
 */
#include "blobc/builder.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/buffer.h"
#include "common/checked.h"
#include "common/compiler.h"
#include "common/endian.h"
#include "common/sort.h"
#include "common/err.h"
#include "blob/inorder.h"
#include "platform/platform.h"

/* Chunks start small (a tiny blob stays cheap) and double up to a limit. */
#define CHUNK_MIN ((size_t)64 * 1024)
#define CHUNK_MAX ((size_t)1024 * 1024)
/* Closed open-allocations at most this big are copied into chunk memory. */
#define SMALL_COPY ((size_t)16 * 1024)
/* finish copies a block of its own this much at a time (copy_alloc). */
#define TRIM_SLICE ((size_t)1024 * 1024)

#define INFO_ALIGN_MASK 0x1fu   /* the alignment itself, 1..16 */
#define INFO_OPEN 0x20u         /* still growable */
#define INFO_ON_STACK 0x40u     /* finish: on the walk's stack (an ancestor) */
#define INFO_SLOT_SHIFT 8       /* open: index into the open table */
#define MAX_OPEN ((size_t)1 << 24)

#define UNPLACED UINT32_MAX

typedef struct alloc_rec {
    uint8_t *mem;       /* NULL for an empty allocation */
    uint32_t size;
    uint32_t info;
} alloc_rec;

typedef struct link_rec {
    uint32_t loc;
    uint32_t at;
    uint32_t target;
} link_rec;

/* A chunk or dedicated block, with the highest allocation it holds so
 * that finish, which copies allocations in ref order, can free it as soon
 * as it has been drained. */
typedef struct block_rec {
    void *mem;
    uint32_t last;
} block_rec;

typedef struct open_slot {
    blobc_ref ref;
    size_t cap;
    size_t link_mark;   /* links and pending references recorded from here */
    size_t xlink_mark;  /* on may lie in it */
} open_slot;

/* A reference: target UNPLACED until resolved. */
typedef struct xlink_rec {
    uint32_t loc;
    uint32_t at;
    uint32_t target;
    uint32_t toff;
} xlink_rec;

/* Buffers of closed open-allocations kept for the next ones (a bake opens
 * one per array, most of them small): zeroed, with their capacity. */
#define SPARES 16
typedef struct spare_buf {
    uint8_t *mem;
    size_t cap;
} spare_buf;

struct blobc_builder {
    alloc_rec *allocs;
    size_t nallocs, allocs_cap;
    link_rec *links;
    size_t nlinks, links_cap;
    xlink_rec *xlinks;
    size_t nxlinks, xlinks_cap;
    open_slot *opens;
    size_t nopens, opens_cap;
    spare_buf spares[SPARES];
    size_t nspares;

    uint8_t *chunk;           /* current chunk: bump pointer region */
    size_t chunk_used, chunk_size;
    size_t chunk_block;       /* the current chunk's index in blocks */
    block_rec *blocks;        /* every chunk and dedicated block, to free */
    size_t nblocks, blocks_cap;

    blobc_status failed;      /* first failure, sticky */
    char message[192];
    bool finished;
    bool out_of_order;        /* in-order mode: the calls left the canonical order */
    io_builder *io;           /* the in-order mode (inorder.c), NULL in the ordinary one */
    io_last last;             /* ... and the allocation it was asked for last */
};

static blobc_status fail(blobc_builder *b, blobc_status st, const char *fmt, ...)
    BLOBC_PRINTF(3, 4);

static blobc_status fail(blobc_builder *b, blobc_status st, const char *fmt, ...) {
    if (b->failed == BLOBC_OK) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(b->message, sizeof b->message, fmt, ap);
        va_end(ap);
        b->failed = st;
    }
    return st;
}

static blobc_status fail_nomem(blobc_builder *b) { return fail(b, BLOBC_ENOMEM, "out of memory"); }

static blobc_status fail_too_big(blobc_builder *b, uint64_t at_least) {
    return fail(b, BLOBC_EINPUT,
                "data section would be at least %llu bytes; offsets are 32-bit, so the limit "
                "is 2 GiB - 1",
                (unsigned long long)at_least);
}

static bool remember_block(blobc_builder *b, void *blk, blobc_ref ref) {
    if (b->nblocks == b->blocks_cap &&
        !blobc_grow((void **)&b->blocks, &b->blocks_cap, b->nblocks + 1, sizeof(block_rec)))
        return false;
    b->blocks[b->nblocks++] = (block_rec){blk, ref};
    return true;
}

/* Zeroed, stable memory for `size` bytes at `align`, for allocation `ref`. */
static uint8_t *chunk_alloc(blobc_builder *b, size_t size, size_t align, blobc_ref ref) {
    size_t start;
    if (b->chunk && blobc_align_ok(b->chunk_used, align, &start) && start <= b->chunk_size &&
        size <= b->chunk_size - start) {
        b->chunk_used = start + size;
        block_rec *c = &b->blocks[b->chunk_block];
        if (ref > c->last) c->last = ref;
        return b->chunk + start;
    }
    /* A big allocation gets a block of its own so that the remainder of
     * the current chunk stays usable; calloc of a large block is lazily
     * zeroed by the OS, so this also costs nothing up front. */
    if (size >= CHUNK_MIN / 4) {
        uint8_t *blk = calloc(1, size);
        if (!blk) return NULL;
        if (!remember_block(b, blk, ref)) {
            free(blk);
            return NULL;
        }
        return blk;
    }
    size_t csize = b->chunk_size ? b->chunk_size * 2 : CHUNK_MIN;
    if (csize > CHUNK_MAX) csize = CHUNK_MAX;
    uint8_t *c = calloc(1, csize);
    if (!c) return NULL;
    if (!remember_block(b, c, ref)) {
        free(c);
        return NULL;
    }
    b->chunk_block = b->nblocks - 1;
    b->chunk = c;
    b->chunk_size = csize;
    b->chunk_used = size;
    return c;
}

static bool valid_align(uint32_t align) { return align <= 16 && blobc_is_pow2(align); }

blobc_builder *blobc_builder_new(void) { return calloc(1, sizeof(blobc_builder)); }

blobc_builder *blobc_builder_new_in_order(size_t prefix, size_t size_hint) {
    blobc_builder *b = calloc(1, sizeof(blobc_builder));
    if (b && !(b->io = io_new(prefix, size_hint, &b->last))) {
        free(b);
        return NULL;
    }
    return b;
}

bool blobc_builder_out_of_order(const blobc_builder *b) { return b && b->out_of_order; }

/* An in-order call's outcome: IO_OUT_OF_ORDER fails the builder. */
static blobc_status io_outcome(blobc_builder *b, io_status st) {
    if (st == IO_OK) return BLOBC_OK;
    if (st == IO_NOMEM) return fail_nomem(b);
    b->out_of_order = true;
    return fail(b, BLOBC_EARG, "allocations and links out of the canonical order");
}

/* The checks every in-order allocation shares with the ordinary one. */
static inline blobc_status io_alloc_ok(blobc_builder *b, uint32_t align) {
    if (b->failed) return b->failed;
    if (b->finished) return fail(b, BLOBC_EARG, "builder used after finish");
    if (!valid_align(align))
        return fail(b, BLOBC_EARG, "alignment %u is not a power of two <= 16", (unsigned)align);
    if (b->nallocs == 0) return fail(b, BLOBC_EARG, "allocation before the root");
    return BLOBC_OK;
}

void blobc_builder_free(blobc_builder *b) {
    if (!b) return;
    io_free(b->io);
    for (size_t i = 0; i < b->nopens; i++) free(b->allocs[b->opens[i].ref].mem);
    for (size_t i = 0; i < b->nblocks; i++) free(b->blocks[i].mem);
    for (size_t i = 0; i < b->nspares; i++) free(b->spares[i].mem);
    free(b->blocks);
    free(b->opens);
    free(b->links);
    free(b->xlinks);
    free(b->allocs);
    free(b);
}

blobc_status blobc_builder_status(const blobc_builder *b, blobc_error *err) {
    if (!b) return blobc_err_arg(err, __func__, "b is NULL");
    if (b->failed != BLOBC_OK) return blobc_err(err, b->failed, "%s", b->message);
    return BLOBC_OK;
}


static blobc_status new_record(blobc_builder *b, uint32_t align, blobc_ref *ref) {
    if (b->finished) return fail(b, BLOBC_EARG, "builder used after finish");
    if (!valid_align(align))
        return fail(b, BLOBC_EARG, "alignment %u is not a power of two <= 16", (unsigned)align);
    if (b->nallocs >= UINT32_MAX - 1)
        return fail(b, BLOBC_EINPUT, "too many allocations");
    if (b->nallocs == b->allocs_cap &&
        !blobc_grow((void **)&b->allocs, &b->allocs_cap, b->nallocs + 1, sizeof(alloc_rec)))
        return fail_nomem(b);
    *ref = (blobc_ref)b->nallocs;
    b->allocs[b->nallocs] = (alloc_rec){NULL, 0, align};
    return BLOBC_OK;
}

static blobc_status alloc_fixed(blobc_builder *b, size_t size, uint32_t align, blobc_ref *ref,
                                void **mem) {
    if (b->failed) return b->failed;
    if (size == 0) return fail(b, BLOBC_EARG, "allocation of size 0");
    if (size > BLOBC_MAX_DATA_SIZE) return fail_too_big(b, size);
    blobc_ref r;
    blobc_status st = new_record(b, align, &r);
    if (st) return st;
    uint8_t *p = chunk_alloc(b, size, align, r);
    if (!p) return fail_nomem(b);
    b->allocs[r].mem = p;
    b->allocs[r].size = (uint32_t)size;
    b->nallocs++;
    if (ref) *ref = r;
    if (mem) *mem = p;
    return BLOBC_OK;
}

blobc_status blobc_builder_root(blobc_builder *b, uint32_t size, uint32_t align, void **mem) {
    if (!b) return BLOBC_EARG;
    if (b->failed) return b->failed;
    if (b->nallocs != 0) return fail(b, BLOBC_EARG, "the root must be the first allocation");
    if (b->io) {
        if (b->finished) return fail(b, BLOBC_EARG, "builder used after finish");
        if (!valid_align(align))
            return fail(b, BLOBC_EARG, "alignment %u is not a power of two <= 16", (unsigned)align);
        b->nallocs = 1;
        return io_outcome(b, io_alloc(b->io, size, align, NULL, mem));
    }
    return alloc_fixed(b, size, align, NULL, mem);
}

/* The common allocation, a small one that fits the current chunk, with
 * room for its record: true when done. Anything else takes the checked
 * way below, which reports what is wrong. */
static inline bool alloc_quick(blobc_builder *b, size_t size, uint32_t align, blobc_ref *ref,
                               void **mem) {
    if (b->failed || b->finished || b->nallocs == 0 || b->nallocs == b->allocs_cap ||
        b->nallocs >= UINT32_MAX - 1 || !b->chunk || size == 0 || size > CHUNK_MAX ||
        !valid_align(align))
        return false;
    size_t start = (b->chunk_used + align - 1) & ~((size_t)align - 1);
    if (start > b->chunk_size || size > b->chunk_size - start) return false;
    blobc_ref r = (blobc_ref)b->nallocs++;
    uint8_t *p = b->chunk + start;
    b->chunk_used = start + size;
    b->blocks[b->chunk_block].last = r; /* the newest ref is the highest */
    b->allocs[r] = (alloc_rec){p, (uint32_t)size, align};
    if (ref) *ref = r;
    if (mem) *mem = p;
    return true;
}

blobc_status blobc_builder_alloc(blobc_builder *b, size_t size, uint32_t align, blobc_ref *ref,
                                 void **mem) {
    if (!b) return BLOBC_EARG;
    if (b->io) {
        blobc_status st = io_alloc_ok(b, align);
        if (st) return st;
        if (size == 0) return fail(b, BLOBC_EARG, "allocation of 0 bytes");
        return io_outcome(b, io_alloc(b->io, size, align, ref, mem));
    }
    if (BLOBC_LIKELY(alloc_quick(b, size, align, ref, mem))) return BLOBC_OK;
    if (b->failed) return b->failed;
    if (b->nallocs == 0) return fail(b, BLOBC_EARG, "allocation before the root");
    return alloc_fixed(b, size, align, ref, mem);
}

blobc_status blobc_builder_alloc_linked(blobc_builder *b, blobc_ref loc, uint32_t at, size_t size,
                                        uint32_t align, blobc_ref *ref, void **mem) {
    if (!b) return BLOBC_EARG;
    if (b->io) {
        blobc_status st = io_alloc_ok(b, align);
        if (st) return st;
        if (size == 0) return fail(b, BLOBC_EARG, "allocation of 0 bytes");
        return io_outcome(b, io_alloc_linked(b->io, loc, at, size, align, ref, mem));
    }
    blobc_ref r;
    blobc_status st = blobc_builder_alloc(b, size, align, &r, mem);
    if (!st) st = blobc_builder_link(b, loc, at, r);
    if (ref) *ref = r;
    return st;
}

blobc_status blobc_builder_open(blobc_builder *b, uint32_t align, blobc_ref *ref) {
    if (!b) return BLOBC_EARG;
    if (b->failed) return b->failed;
    if (b->io) {
        blobc_status st = io_alloc_ok(b, align);
        return st ? st : io_outcome(b, io_open(b->io, align, ref));
    }
    if (b->nallocs == 0) return fail(b, BLOBC_EARG, "allocation before the root");
    if (b->nopens >= MAX_OPEN) return fail(b, BLOBC_EINPUT, "too many open allocations");
    blobc_ref r;
    blobc_status st = new_record(b, align, &r);
    if (st) return st;
    if (b->nopens == b->opens_cap &&
        !blobc_grow((void **)&b->opens, &b->opens_cap, b->nopens + 1, sizeof(open_slot)))
        return fail_nomem(b);
    b->opens[b->nopens] = (open_slot){r, 0, b->nlinks, b->nxlinks};
    b->allocs[r].info |= INFO_OPEN | ((uint32_t)b->nopens << INFO_SLOT_SHIFT);
    b->nopens++;
    b->nallocs++;
    if (ref) *ref = r;
    return BLOBC_OK;
}

static open_slot *slot_of(blobc_builder *b, blobc_ref ref) {
    if (ref >= b->nallocs || !(b->allocs[ref].info & INFO_OPEN)) return NULL;
    return &b->opens[b->allocs[ref].info >> INFO_SLOT_SHIFT];
}

/* Room for `need` bytes in an open allocation's buffer, zero past its
 * size: a spare buffer first, else a bigger one. */
static bool grow_open(blobc_builder *b, alloc_rec *a, open_slot *s, size_t need) {
    if (!a->mem && b->nspares && b->spares[b->nspares - 1].cap >= need) {
        spare_buf *sp = &b->spares[--b->nspares];
        a->mem = sp->mem;
        s->cap = sp->cap;
        return true;
    }
    size_t cap = s->cap ? s->cap : 64;
    while (cap < need) cap *= 2; /* need < 2^31, so no overflow */
    uint8_t *p = realloc(a->mem, cap);
    if (!p) {
        fail_nomem(b);
        return false;
    }
    memset(p + s->cap, 0, cap - s->cap);
    a->mem = p;
    s->cap = cap;
    return true;
}

/* Done with an open allocation's buffer: kept zeroed for the next one
 * when it is small, else freed. */
static void retire_buffer(blobc_builder *b, uint8_t *buf, size_t used, size_t cap) {
    if (buf && cap <= SMALL_COPY && b->nspares < SPARES) {
        memset(buf, 0, used);
        b->spares[b->nspares++] = (spare_buf){buf, cap};
    } else {
        free(buf);
    }
}

void *blobc_builder_grow(blobc_builder *b, blobc_ref ref, size_t add) {
    if (!b || b->failed) return NULL;
    if (b->io) {
        io_status st = IO_OK;
        void *p = io_grow(b->io, ref, add, &st);
        if (!p) io_outcome(b, st);
        return p;
    }
    if (BLOBC_LIKELY(ref < b->nallocs)) {
        /* An item more into an open allocation whose buffer has room. */
        alloc_rec *a = &b->allocs[ref];
        if ((a->info & INFO_OPEN) && add <= b->opens[a->info >> INFO_SLOT_SHIFT].cap - a->size &&
            add <= BLOBC_MAX_DATA_SIZE - a->size) {
            uint8_t *p = a->mem + a->size;
            a->size += (uint32_t)add;
            return p;
        }
    }
    open_slot *s = slot_of(b, ref);
    if (!s) {
        fail(b, BLOBC_EARG, "grow of allocation %u, which is not open", (unsigned)ref);
        return NULL;
    }
    alloc_rec *a = &b->allocs[ref];
    if (add > BLOBC_MAX_DATA_SIZE - a->size) {
        fail_too_big(b, (uint64_t)a->size + add);
        return NULL;
    }
    size_t need = a->size + add;
    if (need > s->cap && !grow_open(b, a, s, need)) return NULL;
    /* The buffer is zero past its size: no clearing here. */
    uint8_t *p = a->mem + a->size;
    a->size = (uint32_t)need;
    return p;
}

blobc_status blobc_builder_close(blobc_builder *b, blobc_ref ref) {
    if (!b) return BLOBC_EARG;
    if (b->failed) return b->failed;
    if (b->io) return io_outcome(b, io_close(b->io, ref));
    open_slot *s = slot_of(b, ref);
    if (!s) return fail(b, BLOBC_EARG, "close of allocation %u, which is not open", (unsigned)ref);
    alloc_rec *a = &b->allocs[ref];
    uint8_t *buf = a->mem;
    if (a->size == 0) {
        retire_buffer(b, buf, 0, s->cap);
        a->mem = NULL;
    } else if (a->size <= SMALL_COPY) {
        uint8_t *p = chunk_alloc(b, a->size, a->info & INFO_ALIGN_MASK, ref);
        if (!p) return fail_nomem(b);
        memcpy(p, buf, a->size);
        retire_buffer(b, buf, a->size, s->cap);
        a->mem = p;
    } else {
        /* Large: the buffer itself becomes a block (trimmed to size). */
        uint8_t *p = realloc(buf, a->size);
        if (p) a->mem = p;
        if (!remember_block(b, a->mem, ref)) {
            free(a->mem);
            a->mem = NULL;
            a->size = 0;
            return fail_nomem(b); /* the slot stays; freeing its NULL buffer is harmless */
        }
    }
    /* Swap-remove the slot, re-pointing the moved entry's record. */
    size_t idx = (size_t)(s - b->opens);
    b->nopens--;
    if (idx != b->nopens) {
        b->opens[idx] = b->opens[b->nopens];
        alloc_rec *moved = &b->allocs[b->opens[idx].ref];
        moved->info = (moved->info & 0xffu) | ((uint32_t)idx << INFO_SLOT_SHIFT);
    }
    a->info &= INFO_ALIGN_MASK;
    return BLOBC_OK;
}

void *blobc_builder_ptr(const blobc_builder *b, blobc_ref ref) {
    if (b->io) return ref == b->last.ref ? b->last.mem : io_ptr(b->io, ref);
    return ref < b->nallocs ? b->allocs[ref].mem : NULL;
}

size_t blobc_builder_size(const blobc_builder *b, blobc_ref ref) {
    if (b->io) return io_size(b->io, ref);
    return ref < b->nallocs ? b->allocs[ref].size : 0;
}

blobc_status blobc_builder_link(blobc_builder *b, blobc_ref loc, uint32_t at, blobc_ref target) {
    if (!b) return BLOBC_EARG;
    if (b->failed) return b->failed;
    if (b->finished) return fail(b, BLOBC_EARG, "builder used after finish");
    if (b->io) return io_outcome(b, io_link(b->io, loc, at, target));
    if (loc >= b->nallocs)
        return fail(b, BLOBC_EARG, "link from allocation %u, which does not exist", (unsigned)loc);
    if (target >= b->nallocs)
        return fail(b, BLOBC_EARG, "link to allocation %u, which does not exist",
                    (unsigned)target);
    const alloc_rec *l = &b->allocs[loc];
    if (l->size < 4 || at > l->size - 4)
        return fail(b, BLOBC_EARG,
                    "link at byte %u of allocation %u, which is only %u bytes", (unsigned)at,
                    (unsigned)loc, (unsigned)l->size);
    const alloc_rec *t = &b->allocs[target];
    if (t->size == 0 && !(t->info & INFO_OPEN))
        return fail(b, BLOBC_EARG,
                    "link to allocation %u, which is empty (an empty array is stored as "
                    "offset 0)",
                    (unsigned)target);
    if (b->nlinks >= UINT32_MAX) return fail(b, BLOBC_EINPUT, "too many links");
    if (b->nlinks == b->links_cap &&
        !blobc_grow((void **)&b->links, &b->links_cap, b->nlinks + 1, sizeof(link_rec)))
        return fail_nomem(b);
    b->links[b->nlinks++] = (link_rec){loc, at, target};
    return BLOBC_OK;
}

/* ---- references and sorted items ---- */

blobc_status blobc_builder_link_pending(blobc_builder *b, blobc_ref loc, uint32_t at,
                                        uint32_t *id) {
    if (!b || !id) return BLOBC_EARG;
    if (b->failed) return b->failed;
    if (b->io) return io_outcome(b, IO_OUT_OF_ORDER); /* references point anywhere */
    if (b->finished) return fail(b, BLOBC_EARG, "builder used after finish");
    if (loc >= b->nallocs)
        return fail(b, BLOBC_EARG, "reference from allocation %u, which does not exist",
                    (unsigned)loc);
    const alloc_rec *l = &b->allocs[loc];
    if (l->size < 4 || at > l->size - 4)
        return fail(b, BLOBC_EARG,
                    "reference at byte %u of allocation %u, which is only %u bytes",
                    (unsigned)at, (unsigned)loc, (unsigned)l->size);
    if (b->nxlinks >= UINT32_MAX) return fail(b, BLOBC_EINPUT, "too many references");
    if (b->nxlinks == b->xlinks_cap &&
        !blobc_grow((void **)&b->xlinks, &b->xlinks_cap, b->nxlinks + 1, sizeof(xlink_rec)))
        return fail_nomem(b);
    *id = (uint32_t)b->nxlinks;
    b->xlinks[b->nxlinks++] = (xlink_rec){loc, at, UNPLACED, 0};
    return BLOBC_OK;
}

blobc_status blobc_builder_resolve(blobc_builder *b, uint32_t id, blobc_ref target, uint32_t toff) {
    if (!b) return BLOBC_EARG;
    if (b->failed) return b->failed;
    if (id >= b->nxlinks)
        return fail(b, BLOBC_EARG, "reference %u does not exist", (unsigned)id);
    if (target >= b->nallocs)
        return fail(b, BLOBC_EARG, "reference to allocation %u, which does not exist",
                    (unsigned)target);
    /* Offsets are relative to the field, and 0 means null: a reference
     * cannot lead to its own first byte (an item whose first field
     * names the item itself). */
    if (b->xlinks[id].loc == target && b->xlinks[id].at == toff)
        return fail(b, BLOBC_EINPUT,
                    "a reference cannot name the item it is the first field of (its offset "
                    "would be 0, which reads as null); declare another field first");
    b->xlinks[id].target = target;
    b->xlinks[id].toff = toff;
    return BLOBC_OK;
}

/* The open allocation ref holding n items of item_size bytes, or NULL
 * after failing. */
static open_slot *items_slot(blobc_builder *b, blobc_ref ref, uint32_t item_size, size_t n) {
    open_slot *s = slot_of(b, ref);
    if (!s) {
        fail(b, BLOBC_EARG, "allocation %u is not open", (unsigned)ref);
        return NULL;
    }
    if (item_size == 0 || b->allocs[ref].size != (uint64_t)item_size * n) {
        fail(b, BLOBC_EARG, "allocation %u does not hold %zu items of %u bytes", (unsigned)ref,
             n, (unsigned)item_size);
        return NULL;
    }
    return s;
}

blobc_status blobc_builder_item_targets(blobc_builder *b, blobc_ref ref, uint32_t item_size,
                                        uint32_t at, size_t n, blobc_ref *targets) {
    if (!b || (n && !targets)) return BLOBC_EARG;
    if (b->failed) return b->failed;
    if (b->io) return io_outcome(b, IO_OUT_OF_ORDER); /* sorting moves what is placed */
    open_slot *s = items_slot(b, ref, item_size, n);
    if (!s) return b->failed;
    for (size_t i = 0; i < n; i++) targets[i] = UINT32_MAX;
    for (size_t i = s->link_mark; i < b->nlinks; i++) {
        const link_rec *l = &b->links[i];
        if (l->loc == ref && l->at % item_size == at) targets[l->at / item_size] = l->target;
    }
    return BLOBC_OK;
}

blobc_status blobc_builder_permute(blobc_builder *b, blobc_ref ref, uint32_t item_size, size_t n,
                                   const uint32_t *perm) {
    if (!b || (n && !perm)) return BLOBC_EARG;
    if (b->failed) return b->failed;
    if (b->io) return io_outcome(b, IO_OUT_OF_ORDER);
    open_slot *s = items_slot(b, ref, item_size, n);
    if (!s) return b->failed;
    uint8_t *mem = b->allocs[ref].mem;
    uint32_t *inv = malloc((n ? n : 1) * sizeof *inv);
    uint8_t *old = malloc(n ? (size_t)item_size * n : 1);
    if (!inv || !old) {
        free(inv);
        free(old);
        return fail_nomem(b);
    }
    for (size_t i = 0; i < n; i++) inv[i] = UINT32_MAX;
    for (size_t i = 0; i < n; i++) {
        if (perm[i] >= n || inv[perm[i]] != UINT32_MAX) {
            free(inv);
            free(old);
            return fail(b, BLOBC_EARG, "not a permutation of %zu items", n);
        }
        inv[perm[i]] = (uint32_t)i;
    }
    if (n) memcpy(old, mem, (size_t)item_size * n);
    for (size_t i = 0; i < n; i++)
        memcpy(mem + i * item_size, old + (size_t)perm[i] * item_size, item_size);
    for (size_t i = s->link_mark; i < b->nlinks; i++) {
        link_rec *l = &b->links[i];
        if (l->loc == ref) l->at = inv[l->at / item_size] * item_size + l->at % item_size;
    }
    for (size_t i = s->xlink_mark; i < b->nxlinks; i++) {
        xlink_rec *l = &b->xlinks[i];
        if (l->loc == ref) l->at = inv[l->at / item_size] * item_size + l->at % item_size;
    }
    free(inv);
    free(old);
    return BLOBC_OK;
}

/* ---- finish ---- */

#define NO_LINK UINT32_MAX

typedef struct frame {
    uint32_t loc;
    uint32_t next;  /* the next of its links to follow, NO_LINK when done */
} frame;

typedef struct finish_work {
    uint32_t *head;     /* per allocation: its first link, NO_LINK when none */
    uint32_t *next;     /* per link: the next link of the same allocation */
    uint32_t *pos;      /* placement, UNPLACED until reached */
    frame *stack;
} finish_work;

static void work_free(finish_work *w) {
    free(w->head);
    free(w->next);
    free(w->pos);
    free(w->stack);
}

/* Walks one allocation's list: counts it, tells whether it is in
 * increasing byte order and, if so, finds the first link that the next
 * one overlaps (NO_LINK when none). */
static bool scan_list(const link_rec *links, const uint32_t *next, uint32_t head, size_t *count,
                      uint32_t *overlap) {
    size_t k = 0;
    *overlap = NO_LINK;
    for (uint32_t prev = NO_LINK, j = head; j != NO_LINK; prev = j, j = next[j], k++) {
        if (prev == NO_LINK) continue;
        if (links[j].at < links[prev].at) return false;
        if (*overlap == NO_LINK && links[j].at - links[prev].at < 4) *overlap = prev;
    }
    *count = k;
    return true;
}

/* Relinks allocation a's k links in increasing byte order. */
static bool sort_list(const link_rec *links, finish_work *w, size_t a, size_t k) {
    blobc_sort_rec *v = malloc(k * sizeof *v);
    if (!v) return false;
    size_t i = 0;
    for (uint32_t j = w->head[a]; j != NO_LINK; j = w->next[j]) v[i++] = (blobc_sort_rec){links[j].at, j};
    bool ok = blobc_sort_by_key(v, k);
    if (ok) {
        w->head[a] = v[0].idx;
        for (i = 0; i + 1 < k; i++) w->next[v[i].idx] = v[i + 1].idx;
        w->next[v[k - 1].idx] = NO_LINK;
    }
    free(v);
    return ok;
}

/* Chains each allocation's links into a list in recording order. The
 * records themselves stay put: moving them into groups costs either a
 * second copy of them all or, in place, a cache miss per record. Then
 * makes sure each list is in increasing byte order (bakers record a
 * struct's links in field order, so one rarely needs sorting) with no two
 * links overlapping. */
static blobc_status group_links(blobc_builder *b, finish_work *w, blobc_error *err) {
    size_t n = b->nallocs, nl = b->nlinks;
    const link_rec *links = b->links;
    for (size_t i = 0; i < nl; i++) {
        /* An open allocation may have been closed empty after being linked. */
        if (b->allocs[links[i].target].size == 0)
            return blobc_err(err, BLOBC_EARG,
                             "link to allocation %u, which is empty (an empty array is "
                             "stored as offset 0)",
                             (unsigned)links[i].target);
    }
    for (size_t a = 0; a < n; a++) w->head[a] = NO_LINK;
    for (size_t i = nl; i-- > 0;) {
        w->next[i] = w->head[links[i].loc];
        w->head[links[i].loc] = (uint32_t)i;
    }
    for (size_t a = 0; a < n; a++) {
        size_t k = 0;
        uint32_t bad;
        if (!scan_list(links, w->next, w->head[a], &k, &bad)) {
            k = 0;
            for (uint32_t j = w->head[a]; j != NO_LINK; j = w->next[j]) k++;
            if (!sort_list(links, w, a, k)) return blobc_err_nomem(err);
            scan_list(links, w->next, w->head[a], &k, &bad);
        }
        if (bad != NO_LINK)
            return blobc_err(err, BLOBC_EARG,
                             "links at bytes %u and %u of allocation %zu overlap",
                             (unsigned)links[bad].at, (unsigned)links[w->next[bad]].at, a);
    }
    return BLOBC_OK;
}

static blobc_status too_big(blobc_error *err, uint64_t size) {
    return blobc_err(err, BLOBC_EINPUT,
                     "data section would be %llu bytes; offsets are 32-bit, so the limit is "
                     "2 GiB - 1",
                     (unsigned long long)size);
}

/* Depth-first placement from the root (FORMAT.md, "The data section").
 * Sets pos; *total receives the image size. */
static blobc_status place(blobc_builder *b, finish_work *w, uint64_t *total, blobc_error *err) {
    alloc_rec *al = b->allocs;
    const link_rec *links = b->links;
    for (size_t i = 0; i < b->nallocs; i++) w->pos[i] = UNPLACED;
    uint64_t cursor = al[0].size;
    size_t depth = 0;
    w->pos[0] = 0;
    w->stack[depth++] = (frame){0, w->head[0]};
    al[0].info |= INFO_ON_STACK;
    while (depth) {
        frame *f = &w->stack[depth - 1];
        if (f->next == NO_LINK) {
            al[f->loc].info &= ~INFO_ON_STACK;
            depth--;
            continue;
        }
        uint32_t t = links[f->next].target;
        f->next = w->next[f->next];
        if (w->pos[t] != UNPLACED) {
            if (al[t].info & INFO_ON_STACK)
                return blobc_err(err, BLOBC_EARG,
                                 "allocation %u links back to allocation %u, which contains "
                                 "it: a blob cannot hold a cycle",
                                 (unsigned)f->loc, (unsigned)t);
            continue;
        }
        uint32_t align = al[t].info & INFO_ALIGN_MASK;
        uint64_t at = (cursor + align - 1) & ~(uint64_t)(align - 1);
        cursor = at + al[t].size;
        /* Past the limit the walk goes on (positions no longer matter) so
         * that the error can state the whole size; the uint64 cursor cannot
         * overflow: fewer than 2^32 allocations of under 2^31 bytes each. */
        w->pos[t] = (uint32_t)at;
        w->stack[depth++] = (frame){t, w->head[t]};
        al[t].info |= INFO_ON_STACK;
    }
    if (cursor > BLOBC_MAX_DATA_SIZE) return too_big(err, cursor);
    *total = cursor;
    return BLOBC_OK;
}

/* Zeroed, 16-byte aligned memory. calloc first: for a large image it maps
 * fresh pages that are zero without being touched, so a page only costs
 * memory once the copy reaches it. */
static uint8_t *zeroed16(size_t size) {
    uint8_t *p = calloc(1, size);
    if (!p || (uintptr_t)p % 16 == 0) return p;
    free(p);
    void *q = blobc_os_alloc16(size);
    if (!q) return NULL;
    memset(q, 0, size);
    return q;
}

static int cmp_block_last(const void *x, const void *y) {
    const block_rec *a = x, *b = y;
    return (a->last > b->last) - (a->last < b->last);
}

/* Copies allocation a to dst. One with a block of its own (a long array)
 * is copied from the back a slice at a time, its block shrunk after each,
 * so that it and its copy are never both whole in memory. */
static void copy_alloc(blobc_builder *b, size_t nb, size_t a, uint8_t *dst) {
    const alloc_rec *r = &b->allocs[a];
    size_t left = r->size;
    if (left > 2 * TRIM_SLICE) {
        /* Blocks below nb are freed, so a's own block, if it has one, is
         * among the next ones, which all end at a or later. */
        for (size_t j = nb; j < b->nblocks && b->blocks[j].last == a; j++) {
            block_rec *blk = &b->blocks[j];
            if (blk->mem != r->mem) continue;
            while (left > TRIM_SLICE) {
                size_t cut = left - TRIM_SLICE;
                memcpy(dst + cut, (uint8_t *)blk->mem + cut, TRIM_SLICE);
                left = cut;
                void *q = realloc(blk->mem, left);
                if (q) blk->mem = q;
            }
            memcpy(dst, blk->mem, left);
            return;
        }
    }
    memcpy(dst, r->mem, left);
}

/* Copies every placed allocation into img and writes its links, in ref
 * order, freeing each block of builder memory once the last allocation in
 * it has been copied. Tree-shaped data is placed in nearly the order it
 * was allocated, so the blocks drain as the image fills and the two are
 * never both whole. */
static void copy_out(blobc_builder *b, const finish_work *w, uint8_t *img) {
    /* Sorting the block list by its last ref is harmless to the final
     * free in blobc_builder_free, which frees whatever is left. */
    qsort(b->blocks, b->nblocks, sizeof *b->blocks, cmp_block_last);
    b->chunk = NULL;
    const link_rec *links = b->links;
    size_t nb = 0;
    for (size_t a = 0; a < b->nallocs; a++) {
        uint32_t p = w->pos[a];
        if (p != UNPLACED) {
            copy_alloc(b, nb, a, img + p);
            for (uint32_t i = w->head[a]; i != NO_LINK; i = w->next[i]) {
                const link_rec *l = &links[i];
                int64_t rel = (int64_t)w->pos[l->target] - ((int64_t)p + l->at);
                blobc_st32(img + p + l->at, (uint32_t)(int32_t)rel);
            }
        }
        while (nb < b->nblocks && b->blocks[nb].last <= a) {
            free(b->blocks[nb].mem);
            b->blocks[nb++].mem = NULL;
        }
    }
}

/* Every reference resolved, to a byte inside a placed allocation. */
static blobc_status check_xlinks(const blobc_builder *b, const finish_work *w, blobc_error *err) {
    for (size_t i = 0; i < b->nxlinks; i++) {
        const xlink_rec *x = &b->xlinks[i];
        if (w->pos[x->loc] == UNPLACED) continue;
        if (x->target == UNPLACED)
            return blobc_err(err, BLOBC_EARG, "reference %zu was never resolved", i);
        if (w->pos[x->target] == UNPLACED || x->toff >= b->allocs[x->target].size)
            return blobc_err(err, BLOBC_EARG,
                             "reference %zu leads to byte %u of allocation %u, which is not "
                             "in the blob",
                             i, (unsigned)x->toff, (unsigned)x->target);
    }
    return BLOBC_OK;
}

static void write_xlinks(const blobc_builder *b, const finish_work *w, uint8_t *img) {
    for (size_t i = 0; i < b->nxlinks; i++) {
        const xlink_rec *x = &b->xlinks[i];
        if (w->pos[x->loc] == UNPLACED) continue;
        int64_t from = (int64_t)w->pos[x->loc] + x->at;
        int64_t rel = (int64_t)w->pos[x->target] + x->toff - from;
        blobc_st32(img + from, (uint32_t)(int32_t)rel);
    }
}

blobc_status blobc_builder_finish_at(blobc_builder *b, blobc_buffer *out, size_t prefix,
                                     size_t suffix, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!b || !out) return blobc_err_arg(err, __func__, "b or out is NULL");
    if (b->failed) return blobc_err(err, b->failed, "%s", b->message);
    if (b->finished) return blobc_err(err, BLOBC_EARG, "builder used after finish");
    if (b->nallocs == 0) return blobc_err(err, BLOBC_EARG, "no root allocation");
    if (b->nopens)
        return blobc_err(err, BLOBC_EARG, "allocation %u is still open at finish",
                         (unsigned)b->opens[0].ref);
    if (prefix % 16 != 0)
        return blobc_err(err, BLOBC_EARG, "image prefix of %zu bytes is not a multiple of 16",
                         prefix);
    b->finished = true;
    if (b->io) {
        /* The image is laid out already. */
        io_status st = io_finish(b->io, prefix, suffix, out);
        if (st) return blobc_err(err, io_outcome(b, st), "%s", b->message);
        return BLOBC_OK;
    }

    size_t n = b->nallocs;
    finish_work w = {0};
    w.head = malloc(n * sizeof *w.head);
    w.next = malloc((b->nlinks ? b->nlinks : 1) * sizeof *w.next);
    w.pos = malloc(n * sizeof *w.pos);
    w.stack = malloc(n * sizeof *w.stack);
    if (!w.head || !w.next || !w.pos || !w.stack) {
        work_free(&w);
        return blobc_err_nomem(err);
    }
    uint64_t total = 0;
    blobc_status st = group_links(b, &w, err);
    if (!st) st = place(b, &w, &total, err);
    if (!st) st = check_xlinks(b, &w, err);
    free(w.stack);
    w.stack = NULL;
    size_t size = (size_t)total;
    if (!st && (prefix > SIZE_MAX - size || suffix > SIZE_MAX - size - prefix))
        st = blobc_err_nomem(err);
    uint8_t *o = NULL;
    if (!st) {
        size += prefix + suffix;
        o = zeroed16(size);
        if (!o) st = blobc_err_nomem(err);
    }
    if (st) {
        work_free(&w);
        return st;
    }
    copy_out(b, &w, o + prefix);
    write_xlinks(b, &w, o + prefix);
    work_free(&w);
    blobc_buffer_free(out);
    out->data = o;
    out->len = prefix + (size_t)total;
    out->cap = size;
    return BLOBC_OK;
}

blobc_status blobc_builder_finish(blobc_builder *b, blobc_buffer *out, blobc_error *err) {
    return blobc_builder_finish_at(b, out, 0, 0, err);
}
