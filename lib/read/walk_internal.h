/*
 * walk_internal.h - the walker's own parts, shared by its files and by no
 * one else (verify and dump use walk.h):
 *
 *   walk_types.c    type ids: one small id per distinct type reached
 *   walk_compile.c  the check program of each type
 *   walk_table.c    the table of placed payloads
 *   walk_checks.c   the check rules (one table) and their messages
 *   walk_path.c     errors: the schema path of a byte, from the frames
 *   walk_refs.c     offset fields: new payloads, back references, and the
 *                   fast walk of a frame
 *   walk_driver.c   the driver: the frame stack, op by op
 *   walk_keys.c     map keys in order; references and keyed arrays,
 *                   checked after the walk
 *   walk_values.c   optionals and any-values
 */
#ifndef BLOBC_WALK_INTERNAL_H
#define BLOBC_WALK_INTERNAL_H

#include "blobc/blobfile.h"
#include "blobc/builder.h"
#include "blobc/verify.h"
#include "read/walk.h"

/* No id, no table entry. */
#define WNONE UINT32_MAX
/* For the few small functions of the per-payload fast path. */
#if defined(__GNUC__) || defined(__clang__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif
/* Little-endian loads for the hot loops: one plain load where the host is
 * little-endian (some compilers do not merge blobc_ld64's byte loads). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint32_t ld32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static inline uint64_t ld64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}
#else
#define ld32 blobc_ld32
#define ld64 blobc_ld64
#endif
/* blobc_walk_run_check's answer for a failed mask test: which rule broke
 * depends on what the byte is (bool, enum or padding), found from the
 * type. */
#define CODE_MASK (-1)
/* The pseudo-type of string bytes (size 1): distinct from every schema
 * type, so string bytes are never "the same payload" as a [u8] or a
 * [string] at the same place. Ids 1..BLOBC_KIND_COUNT are the builtins. */
#define STRBYTES 0u
/* The packed table entry's tid field (12 bits) holds ids below this. */
#define TID_ESC 0xfffu
/* A table entry: flags | tid << 4 | count << 16 (see blobc_walk). */
static inline uint32_t pack(uint32_t tid, uint32_t count, uint32_t flags) {
    return flags | tid << 4 | count << 16;
}
/* The checks of a payload's elements are run this many bytes at a time,
 * just before the elements' offset fields are walked: a chunk stays in L1
 * between the two passes. */
#define CHUNK_BYTES 4096u
/* A data offset as the file offset messages show (data-relative for raw
 * input, whose err_base is 0). */
#define AT(x) ((uint64_t)(x) + w->err_base)

enum {
    OP_BOOL = 1, /* n bytes, each 0 or 1 */
    OP_ENUM,     /* n values of esize bytes, each declared in enum tid */
    OP_F32,      /* n floats, no non-canonical NaN */
    OP_F64,
    OP_PAD,      /* n zero bytes */
    OP_MASK,     /* n 8-byte words w with (w & mask) == 0: padding, bools and
                    enums of values 0..2^k-1 in one test */
    OP_STR,      /* a string {offset, length} */
    OP_ARR,      /* a [tid] {offset, length} */
    OP_PTR,      /* a *tid {offset} */
    OP_LOOP,     /* [tid; n] inline: walked in a frame of its own */
    OP_CALL,     /* one tid inline: walked in a frame of its own */
    OP_UTAG,     /* n unions of tid (esize 8): a member's tag with a nonzero
                    offset, or (mask NONE_OK: a field declared `= null`) tag
                    0 with offset 0 */
    OP_UNION,    /* a union of tid: its member's payload, as a *member */
    OP_REF,      /* a &tid {offset}: checked once every payload is placed
                    (null only with mask NONE_OK) */
    OP_OPT,      /* a ?T, T = tid: its presence byte decides whether T's
                    bytes are walked or must be zero (walk_values.c) */
    OP_ANY,      /* an any: its kind word decides what the body holds */
    OP_MKEY,     /* a map entry's key (tid: the entry struct): above the key
                    of the entry before it (walk_keys.c) */
    OP_COUNT
};

/* OP_UTAG's and OP_REF's mask: the field was declared `= null`, so the
 * union may hold no member, the reference may be null. */
#define NONE_OK 1u

/* The ops that check bytes in place (the rest are offset fields and
 * inline values walked in frames of their own). */
static inline bool is_check(uint8_t code) {
    return (code >= OP_BOOL && code <= OP_PAD) || code == OP_MASK || code == OP_UTAG;
}

typedef struct wop {
    uint8_t code;
    uint8_t esize;
    uint32_t off;
    uint32_t n;
    uint32_t tid;
    uint64_t mask; /* OP_MASK; OP_UTAG, OP_REF: NONE_OK or 0 */
} wop;

enum { ST_NEW = 0, ST_COMPILING, ST_COMPILED };

/* Element types whose payloads the fast walk places on the spot (their
 * ids fit the packed table entry): nothing to check in the items
 * ([u32], *Vec2i), or strings, whose bytes follow at once. */
enum { CLS_OTHER = 0, CLS_PLAIN, CLS_STRINGS };

struct blobc_winfo {
    const blobc_type *type;
    blobc_kind kind;
    uint32_t size, align;
    uint32_t elem;  /* ARRAY, FIXED, PTR: element id */
    uint32_t count; /* FIXED; UNION: members */
    const uint32_t *umem; /* UNION: each member's struct id, in tag order */
    uint8_t state;
    uint8_t cls;    /* CLS_*: how the fast walk places a payload of these */
    uint8_t flat;   /* only checks: no op needs a frame */
    uint8_t run;    /* one check op covering the whole element */
    const wop *ops;
    uint32_t nops;
    /* ops split in two, in offset order, for the fast walk: the checks
     * (run over a chunk of elements first, op by op) and the rest
     * (offset fields, LOOP, CALL: walked element by element) */
    const wop *cops, *rops;
    uint32_t ncops, nrops;
    uint32_t chunk; /* elements per checked chunk */
    /* ENUM: values biased so that unsigned order is the value order */
    uint8_t esigned, edense;
    uint64_t emin, emax;
    const uint64_t *evals; /* sorted, unique */
    uint32_t nevals;
    const uint8_t *ebits;  /* bitmap over emin..emax, when small */
};

struct blobc_wframe {
    uint32_t tid;
    uint32_t base;
    uint32_t n;   /* elements */
    uint32_t i;   /* current element */
    uint32_t pc;  /* next op of the current element */
    uint32_t tab; /* payload index, WNONE for LOOP/CALL frames */
    uint32_t ck;  /* elements below this one passed their checks */
    uint8_t indexed;
    uint8_t fast; /* pc counts rops: the checks are run by chunks */
    uint8_t from_any; /* the payload is the list or mapping of an any */
    uint32_t anyh;    /* an [any] or any-mapping payload: the deepest of
                         its items' lists and mappings so far */
};

/* Private work stacks, kept in blobc_walk.scratch. */
typedef struct wscratch {
    const blobc_type **chain;
    size_t chain_cap;
    uint32_t *cstack; /* pairs (id, next dependency) */
    size_t cstack_cap;
    wop *ops;
    size_t nops, ops_cap;
} wscratch;

/* Payloads whose tid or count does not fit the packed word. */
typedef struct wbig {
    uint32_t k, tid, count;
} wbig;

/* An enum value biased so that unsigned order is the value order. */
static inline uint64_t enum_bias(bool is_signed, uint64_t v) {
    return is_signed ? v ^ 0x8000000000000000ull : v;
}

/* ---- type ids (walk_types.c) ---- */

/* Sets up the builtin ids on first use; false when out of memory. */
bool blobc_walk_ids_init(blobc_walk *w);
/* The id of t, WNONE when out of memory or the type is malformed. */
uint32_t blobc_walk_type_id(blobc_walk *w, const blobc_type *t);
/* The id t already has, or WNONE. */
uint32_t blobc_walk_type_lookup(const blobc_walk *w, const blobc_type *t);
/* The size of a builtin kind's values (strings: the 8-byte field). */
uint32_t blobc_walk_builtin_size(blobc_kind k);
wscratch *blobc_walk_scratch(blobc_walk *w);

/* ---- check programs (walk_compile.c) ---- */

/* Compiles id and every type stored inline in it. */
blobc_status blobc_walk_compile(blobc_walk *w, uint32_t id, blobc_error *err);
/* rc -1: out of memory; else t has an inconsistent layout. */
blobc_status blobc_walk_types_error(blobc_error *err, int rc, const blobc_type *t);

/* ---- the payload table (walk_table.c) ---- */

void blobc_walk_tab_release(blobc_walk *w);
/* Makes room for `need` more payloads. */
bool blobc_walk_tab_grow(blobc_walk *w, size_t need);
/* Makes room for every payload `size` bytes of data can hold. */
bool blobc_walk_tab_reserve(blobc_walk *w, size_t size);
/* blobc_walk_find with a cache in front. */
size_t blobc_walk_find_cached(blobc_walk *w, uint32_t start);

/* Records a new payload (the caller made room). False when out of memory. */
HOT bool tab_put(blobc_walk *w, size_t t, size_t count, uint32_t tid, uint32_t flags) {
    size_t k = w->ntab++;
    w->tstart[k] = (uint32_t)t;
    if (BLOBC_LIKELY(tid < TID_ESC && count <= 0xffffu)) {
        w->tinfo[k] = pack(tid, (uint32_t)count, flags);
        return true;
    }
    w->tinfo[k] = pack(TID_ESC, 0, flags);
    if (!blobc_grow(&w->big, &w->big_cap, w->nbig + 1, sizeof(wbig))) return false;
    ((wbig *)w->big)[w->nbig++] = (wbig){(uint32_t)k, tid, (uint32_t)count};
    return true;
}

/* ---- payloads in any order (walk_anyorder.c) ---- */

/* The cursor while any_order: past any data offset and aligned, so that
 * no fast path of walk_refs.c (a new payload at the cursor) ever applies
 * and every offset field goes through visit_slow. */
#define ANY_CURSOR (SIZE_MAX & ~(size_t)15)
/* The payloads starting in each 2^WIN_SHIFT bytes of data are chained. */
#define WIN_SHIFT 3

/* Sets up the structures for w->size bytes and w->tab_cap payloads. */
bool blobc_walk_any_init(blobc_walk *w);
/* Room for payload indexes below n. */
bool blobc_walk_any_room(blobc_walk *w, size_t n);
/* Index of the payload starting at t, or SIZE_MAX (in walk_table.c, with
 * the other ways of finding a payload). */
size_t blobc_walk_any_find(const blobc_walk *w, size_t t);
/* Claims bytes [t, t + n) (n >= 1) for payload k, or false with *hit the
 * first byte another payload covers. */
bool blobc_walk_any_claim(blobc_walk *w, size_t k, size_t t, size_t n, size_t *hit);
/* Index of the payload covering byte `at`, or SIZE_MAX (error path). */
size_t blobc_walk_any_containing(const blobc_walk *w, size_t at);
/* After the run that ended with st: lists the payloads by start, and when
 * st is BLOBC_OK checks the bytes outside them (end_align). */
blobc_status blobc_walk_any_finish(blobc_walk *w, blobc_status st, blobc_error *err);
void blobc_walk_any_release(blobc_walk *w);

/* ---- check rules (walk_checks.c) ---- */

/* Runs check op `op` over n items from data offset p. Returns 0, or the
 * failure's code (BLOBC_V_* or CODE_MASK) with *bad set to the first
 * offending byte. */
int blobc_walk_run_check(const blobc_walk *w, const wop *op, size_t p, size_t n, size_t *bad);
/* Whether elements [i0, i1) of values of `in` from data offset base pass
 * every check op; exact. */
bool blobc_walk_checks_pass(const blobc_walk *w, const blobc_winfo *in, size_t base, size_t i0,
                            size_t i1);
/* The error of a failed check at data offset `bad`, in an element of
 * type etype at ebase. */
blobc_status blobc_walk_check_fail(blobc_walk *w, blobc_error *err, const wop *op, size_t bad,
                                   const blobc_type *etype, size_t ebase);
/* The exact check of n string bytes at t, from the field at p. */
blobc_status blobc_walk_string_check(blobc_walk *w, size_t p, size_t t, size_t n,
                                     blobc_error *err);

/* ---- errors and paths (walk_path.c) ---- */

void blobc_walk_spell_tid(const blobc_walk *w, uint32_t tid, char *buf, size_t cap);
/* Sets err's path to that of byte `at` in the top frame's current
 * element (SIZE_MAX: the frames only). */
void blobc_walk_build_path(blobc_walk *w, size_t at, blobc_error *err);
/* Fails with `code` at data offset `at`; the path is that of byte
 * `path_at` in the top frame's element (SIZE_MAX: the frames only). */
blobc_status blobc_walk_fail(blobc_walk *w, blobc_error *err, int code, size_t at, size_t path_at,
                             const char *fmt, ...) BLOBC_PRINTF(6, 7);

/* ---- references and keyed arrays (walk_keys.c) ---- */

/* The reference of `op` at data offset p: recorded (null, or in bounds). */
blobc_status blobc_walk_ref(blobc_walk *w, const wop *op, size_t p, blobc_error *err);
/* After a complete walk: every keyed array sorted with unique keys, and
 * every reference on the first byte of an item of a keyed array of its
 * type. */
blobc_status blobc_walk_keys_check(blobc_walk *w, blobc_error *err);

/* The map entry's key at p against the key of the entry before it. */
blobc_status blobc_walk_map_key(blobc_walk *w, const wop *op, size_t p, blobc_error *err);

/* ---- optionals and any-values (walk_values.c) ---- */

/* Whether payloads of tid are lists or mappings an any may hold. */
static inline bool blobc_walk_is_any_box(const blobc_walk *w, uint32_t tid) {
    return tid == BLOBC_KIND_ANY || (tid == w->any_eid && tid != 0);
}
/* The ?T of `op` at p: its presence byte and zero bytes checked; *then
 * set to the CALL op that walks a present T (its code 0 when there is
 * nothing to walk). */
blobc_status blobc_walk_optional(blobc_walk *w, const wop *op, size_t p, wop *then,
                                 blobc_error *err);
/* The any of `op` at p: its kind word and body checked; *then set to the
 * offset field a string, list or mapping holds (code 0 for the others),
 * which the caller visits, then (a list or mapping) tells
 * blobc_walk_any_held whether that pushed a frame. */
blobc_status blobc_walk_any(blobc_walk *w, const wop *op, size_t p, wop *then, blobc_error *err);
blobc_status blobc_walk_any_held(blobc_walk *w, size_t p, bool pushed, blobc_error *err);
/* Table entry k is an [any] or any-mapping: room for its depth. */
bool blobc_walk_any_box_placed(blobc_walk *w, size_t k);
/* The top frame, an [any] or any-mapping payload, is done: its depth
 * recorded, and checked when an any holds it. */
blobc_status blobc_walk_any_box_done(blobc_walk *w, blobc_error *err);

/* ---- offset fields (walk_refs.c) ---- */

enum { FR_DONE, FR_PUSHED, FR_SLOW };
/* Walks the top frame, a fast one; *next tells how it stopped. */
blobc_status blobc_walk_refs(blobc_walk *w, int *next, blobc_error *err);
/* The offset field of `op` at data offset p; *pushed when a frame was
 * pushed for the payload. */
blobc_status blobc_walk_visit(blobc_walk *w, const wop *op, size_t p, bool *pushed,
                              blobc_error *err);
/* A LOOP or CALL op at p. */
blobc_status blobc_walk_enter_inline(blobc_walk *w, const wop *op, size_t p, bool *pushed,
                                     blobc_error *err);

/* ---- the frame stack ---- */

/* Pushes a frame of n elements of tid at data offset base, for payload
 * `tab` (WNONE for inline values). False when out of memory. */
static inline bool blobc_walk_push_frame(blobc_walk *w, uint32_t tid, size_t base, size_t n,
                                         uint32_t tab, bool indexed) {
    if (!blobc_grow((void **)&w->frames, &w->frames_cap, w->nframes + 1, sizeof *w->frames))
        return false;
    blobc_wframe *f = &w->frames[w->nframes++];
    f->tid = tid;
    f->base = (uint32_t)base;
    f->n = (uint32_t)n;
    f->i = 0;
    f->pc = 0;
    f->tab = tab;
    f->ck = 0;
    f->indexed = indexed;
    f->fast = 0;
    f->from_any = 0;
    f->anyh = 0;
    return true;
}

#endif
