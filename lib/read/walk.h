/*
 * walk.h - the walker of a data section, shared by verify and dump.
 * Private.
 *
 * The walker visits the data section exactly in the order the builder
 * placed it (docs/FORMAT.md, "The data section"), checking every value on
 * the way, and records every payload it places in a table sorted by start
 * (sorted by construction: each new payload starts at the cursor). Verify
 * uses it for the checks alone; dump reads the table afterwards to know
 * which payloads are shared (YAML anchors) and where a map must stop.
 *
 * With any_order (Unity files, walk_anyorder.c) payloads may lie in any
 * order: the table is then in the order the walk reached them (which is
 * the canonical order's, and the order dump reads them in), and any_sorted
 * lists them by start.
 */
#ifndef BLOBC_WALK_H
#define BLOBC_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blobc/schema.h"
#include "common/hashtab.h"
#include "common/arena.h"
#include "common/buffer.h"
#include "common/checked.h"
#include "common/compiler.h"
#include "common/endian.h"
#include "common/err.h"
#include "common/quote.h"
#include "common/utf8.h"

/* Flags of a placed payload. */
enum {
    BLOBC_WP_DONE = 1u,   /* fully walked; a reference to it is no cycle */
    BLOBC_WP_SHARED = 2u, /* reached again after its first reference */
    BLOBC_WP_PTR = 4u,    /* first reached through a *T (or it is the root) */
    BLOBC_WP_MIXED = 8u   /* reached both through *T and through [T] */
};

/* One placed payload, decoded: `count` elements of canonical type `tid` at
 * `start` (for string bytes: `count` bytes, NUL included). */
typedef struct blobc_wpayload {
    uint32_t start;
    uint32_t count;
    uint32_t tid;
    uint32_t flags;
} blobc_wpayload;

#define BLOBC_WALK_CACHE_BITS 10

typedef struct blobc_winfo blobc_winfo;
typedef struct blobc_wframe blobc_wframe;

typedef struct blobc_walk {
    const uint8_t *data;
    size_t size;
    uint64_t err_base;      /* added to data offsets in errors */
    size_t cursor;          /* end of the last placed payload */
    uint64_t work;          /* op and element visits, for the linear-work tests */
    uint32_t end_align;     /* set before a run: the data may end with zero bytes
                               up to the next multiple of this after the last
                               payload (Unity pads to 16); 0: it ends there.
                               With any_order, nonzero: every byte outside the
                               payloads is zero; 0: those bytes are not read */
    bool any_order;         /* set before a run: payloads placed anywhere (Unity) */

    /* placed payloads, by increasing start: the starts, and beside them
     * flags | tid << 4 | count << 16 (ids or counts too big for that are
     * kept aside, see walk_table.c). 8 bytes a payload: the table is written once
     * per payload, and on a big blob its page faults are a real cost. */
    uint32_t *tstart;
    uint32_t *tinfo;
    size_t ntab, tab_cap;
    void *tab_map;          /* both arrays in one mapping (walk_table.c), or NULL */
    size_t tab_map_len;
    void *big;
    size_t nbig, big_cap;

    /* any_order: payloads by start, after the run (walk_anyorder.c) */
    uint32_t *any_sorted;
    uint64_t *any_cover;    /* bytes covered by payloads */
    uint32_t *any_win;      /* per 8 bytes: the chain of payloads starting there */
    uint32_t *any_next;     /* per payload: the next in its chain */
    size_t any_cap;

    /* everything below is the walker's own */
    blobc_arena arena;
    blobc_winfo *infos;
    size_t ninfos, infos_cap;
    blobc_ptrset ptypes;    /* type pointers seen, numbered */
    uint32_t *pids;         /* type pointer number -> id */
    size_t pids_cap;
    blobc_hashtab shapes;   /* anonymous type structure -> id + 1 */
    blobc_wframe *frames;
    size_t nframes, frames_cap;
    void *scratch;          /* reusable work stacks */
    uint32_t bcache[1u << BLOBC_WALK_CACHE_BITS]; /* start -> table index + 1 */
    struct blobc_wref *refs; /* references met, checked after the walk */
    size_t nrefs, refs_cap;
    uint32_t any_eid;       /* the id of [string: any]'s entry struct */
    struct blobc_wdepth *depths; /* [any] and any-mapping payloads: their depth */
    size_t ndepths, depths_cap;
} blobc_walk;

void blobc_walk_init(blobc_walk *w);
void blobc_walk_free(blobc_walk *w);

/* Walks `size` bytes of data as one `root` and checks everything FORMAT.md
 * "Verification" lists. Stops at the first error (code, offset err_base +
 * data offset, schema path). The table keeps the payloads placed so far
 * either way. */
blobc_status blobc_walk_run(blobc_walk *w, const uint8_t *data, size_t size, const blobc_type *root,
                            uint64_t err_base, blobc_error *err);

/* The schema type of a payload's elements (its tid) and their size;
 * NULL for string bytes (size 1). */
const blobc_type *blobc_walk_tid_type(const blobc_walk *w, uint32_t tid, uint32_t *size);

/* One step down the path from a value of type *t to byte *off inside it:
 * writes ".field" or "[i]" into buf and moves *t and *off into that part.
 * Returns the length written, 0 at a leaf or in padding. */
#define BLOBC_PATH_STEP_MAX 160
size_t blobc_path_step(const blobc_type **t, uint64_t *off, char *buf, size_t cap);

/* Sets err's path to p[0..n) ("rooms[3].tags[1]"), a leading '.' left
 * out, cut to its last characters after "..." when it does not fit. */
void blobc_walk_set_path(blobc_error *err, const char *p, size_t n);

/* The type of a payload's items as messages name it: blobc_type_spell's,
 * or for a map's entry struct "entry of [K: V]". */
void blobc_walk_spell_items(const blobc_type *t, char *buf, size_t cap);

/* Payload k, decoded. */
blobc_wpayload blobc_walk_payload(const blobc_walk *w, size_t k);

static inline uint32_t blobc_walk_flags(const blobc_walk *w, size_t k) { return w->tinfo[k] & 15u; }

/* Index of the payload that starts exactly at `start`, or SIZE_MAX. */
size_t blobc_walk_find(const blobc_walk *w, uint32_t start);
/* Index of the payload containing `at` (canonical order), or SIZE_MAX. */
size_t blobc_walk_find_containing(const blobc_walk *w, size_t at);

#endif
