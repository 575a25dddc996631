/*
 * bake_internal.h - what the bake driver and the two data front ends
 * (YAML, JSON) share: the fill stack that turns "a key / an item / a
 * scalar arrives" into builder calls, the error reporting that names the
 * place, and the driver hook that picks the schema and root type once the
 * top-level meta keys are known. Private.
 *
 * A front end walks its input in document order and, for every value,
 * asks the fill stack for the slot the value goes into (a type plus a
 * builder (allocation, byte offset); never a raw pointer, because open
 * arrays move while they grow), then either stores a scalar there or
 * opens a struct or sequence frame on it. The stack keeps one compact
 * frame per open container, so depth costs no C recursion, and paths for
 * messages are rendered from it only when an error happens.
 */
#ifndef BLOBC_BAKE_INTERNAL_H
#define BLOBC_BAKE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>

#include "blobc/bake.h"
#include "blobc/builder.h"
#include "blobc/schema.h"
#include "common/arena.h"
#include "common/buffer.h"
#include "common/checked.h"
#include "common/compiler.h"
#include "common/endian.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/hashtab.h"
#include "common/quote.h"
#include "common/utf8.h"

/* Deepest nesting of containers the front ends accept. */
#define BK_MAX_DEPTH BLOBC_MAX_NESTING
/* ... and of JSON brackets (as cJSON's CJSON_NESTING_LIMIT). */
#define BK_JSON_NESTING ((int)BLOBC_JSON_MAX_NESTING)

/* A position in the input. YAML fills line/col (1-based, characters);
 * JSON fills only off (a byte offset) and leaves line 0: line and column
 * are computed from the text when an error is reported. */
typedef struct bk_pos {
    uint32_t line;
    uint32_t col;
    size_t off;
} bk_pos;

/* Where a value goes: its type and its bytes at (ref, off). */
typedef struct bk_slot {
    const blobc_type *type;
    blobc_ref ref;
    uint32_t off;
} bk_slot;

/* A struct whose fields get their defaults, and the next one to. */
typedef struct bk_def_frame {
    bk_slot at;
    uint32_t next;
} bk_def_frame;

/* What kind of token a scalar came from; the schema type decides what is
 * acceptable, the token kind only what the author wrote. */
typedef enum bk_tok {
    BK_TOK_PLAIN,    /* YAML plain scalar */
    BK_TOK_QUOTED,   /* YAML quoted or block scalar */
    BK_TOK_JSTRING,  /* JSON string */
    BK_TOK_JNUMBER,  /* JSON number (text is its source) */
    BK_TOK_JBOOL,    /* JSON true / false */
    BK_TOK_JNULL     /* JSON null */
} bk_tok;

typedef struct bk_scalar {
    const char *s;
    size_t n;
    bk_tok tok;
    bool check_utf8;   /* JSON strings with bytes >= 0x80: validate */
    bool has_nul;      /* the source spelled a NUL (JSON "\u0000") */
    bool has_d;        /* JSON number: d is its value, as strtod of the same text */
    bool has_u;        /* JSON number: a non-negative integer, u its value */
    double d;
    uint64_t u;
} bk_scalar;

/* How a struct field's name is matched in input text without a scan of
 * the name (a plan per struct type, built the first time the type is
 * filled): its first bytes followed by a closing quote, as one word. */
typedef struct bk_keyplan {
    uint64_t word;  /* name bytes then '"', the first min(len + 1, 8) of them */
    uint64_t mask;  /* 0xFF for each of those bytes */
    uint32_t len;   /* strlen of the name */
} bk_keyplan;

/* BK_UNION: the single-key mapping of a union value ({Member: {...}});
 * its key is filled like a struct's field. */
/* BK_MAP: a map's mapping ([K: V]), filled like an array of its entries,
 * one per key. */
typedef enum bk_frame_kind { BK_STRUCT = 1, BK_FIXED, BK_ARRAY, BK_UNION, BK_MAP } bk_frame_kind;

typedef struct bk_frame {
    const blobc_type *type;   /* the container's type */
    const blobc_field *field; /* STRUCT, UNION: the field or member being filled, NULL
                                 before the first key */
    bk_slot at;               /* STRUCT, FIXED: where the container is; ARRAY: its {offset,length} */
    bk_slot value;            /* STRUCT: the current field's slot (YAML fills it lazily) */
    const bk_keyplan *keys;   /* STRUCT: one per field */
    bk_pos pos;               /* where the container starts */
    size_t bits;              /* STRUCT: first word of its seen-field bitset in bk.bits */
    blobc_ref items;          /* ARRAY: the items' allocation, once there is one */
    uint32_t count;           /* FIXED, ARRAY: items so far */
    uint32_t known;           /* ARRAY: item count known up front (JSON), else UINT32_MAX */
    uint32_t hint;            /* STRUCT: index of the field expected next; UNION: 1 once a key came */
    uint32_t anchor;          /* YAML: anchor id of this node, 0 when none */
    size_t keyed;             /* ARRAY of a keyed struct: 1 + where its items'
                                 positions start in the key state (keys.c); else 0 */
    size_t key_errs;          /* STRUCT with a @key: 1 + the errors counted when its key
                                 field's value began, until the value ends; else 0 */
    const blobc_type *tag_of; /* STRUCT: the tagged union it is a member of, whose tag
                                 key it skips; else NULL */
    uint8_t kind;             /* bk_frame_kind */
    uint8_t state;            /* free for the front end */
    bool key_bad;             /* STRUCT with a @key: its key's value had an error */
    bool tagged;              /* STRUCT: an item whose $tags were read ahead (tags.c) */
} bk_frame;

/* The bake's own outcomes, which are no failures and never leave the
 * bake. The functions of the bake return only blobc_status values: one
 * that unwinds for one of these returns BLOBC_EINPUT and names the
 * outcome in k->outcome (bk_stop); the one that acts on it asks
 * bk_stopped, or bk_kept, which also takes it. bk_fail and
 * bk_resolve_root clear it: an error reported after it is a failure. */
typedef enum bk_outcome {
    BK_OUT_NONE = 0,
    /* An error was kept and the bake goes on; the front end skips the
     * value the error was about (the rest of a container whose start it
     * has read) and carries on with the next. */
    BK_OUT_KEPT,
    /* A probing bake (k->probe) stops as soon as the schema and the root
     * type are known; the plan takes them. */
    BK_OUT_PROBED,
    /* The JSON front end found a $type after the data it baked as another
     * root type: the bake starts over with the meta keys read ahead. */
    BK_OUT_RESTART,
    /* A key the struct does not read (an @open struct's unknown key, a
     * tagged union's tag): the front end skips its value, as after a kept
     * error, with no error. */
    BK_OUT_SKIP
} bk_outcome;

typedef struct bk bk;

struct bk {
    blobc_builder *b;
    blobc_error *err;
    const char *filename;        /* for messages */
    const blobc_bake_options *opts;
    bool json;                   /* path style and wording */
    bool probe;                  /* stop once the root type is known (BK_OUT_PROBED) */
    /* Whether the JSON text can spell a "$type" key at all, when a plan
     * found out in its pass over the file (0: not known, look; 1: it
     * cannot; 2: it may), so that a probe never reads the whole mapping. */
    signed char type_key;
    bk_outcome outcome;          /* why the BLOBC_EINPUT in flight unwinds, if not a failure */

    bk_frame *fr;
    uint32_t depth;
    size_t fr_cap;
    bk_def_frame *defs;          /* apply_struct_default's walk */
    size_t defs_cap;
    uint64_t *bits;
    size_t nbits, bits_cap;

    /* Top-level meta keys, as written (NUL-terminated copies). */
    char *meta_schema;
    char *meta_type;
    bk_pos meta_schema_pos;
    bk_pos meta_type_pos;

    /* The driver's hook behind bk_resolve_root: the fill stack and the
     * front ends never call the driver by name. */
    blobc_status (*resolve_root)(bk *k, const bk_pos *pos);
    /* Filled by bk_resolve_root. */
    const blobc_schema *schema;
    blobc_schema *owned_schema;
    const blobc_type *root;

    /* The front end's look ahead for a union tagged by a field: the
     * scalar of key `name` in the mapping about to open (*found false when
     * it has none), with its place; name NULL: its first key itself (a
     * union by tag in the one-key form). NULL: the front end cannot. */
    blobc_status (*find_tag)(bk *k, const char *name, bk_scalar *tag, bk_pos *tagpos,
                             bool *found);
    /* The look ahead for an item's tags (tags.c): the value of key `name`
     * in the mapping about to open, when it is a scalar (*n = 1) or a
     * sequence of scalars (*n items, cap + 1 when more than cap, vals
     * and pos holding the first cap); *n = UINT32_MAX for anything else.
     * NULL: the front end cannot. */
    blobc_status (*find_list)(bk *k, const char *name, bk_scalar *vals, bk_pos *pos,
                              uint32_t cap, uint32_t *n, bk_pos *vpos, bool *found);
    /* The YAML tag of the node about to be filled (a union by tag), or NULL. */
    const char *node_tag;
    size_t node_tag_len;
    /* Bytes (JSON) or events (YAML) stepped over looking ahead for tags:
     * nested tagged unions look through one another, so it is bounded
     * (BK_AHEAD_FACTOR times the input, plus BK_AHEAD_FLOOR). */
    uint64_t ahead_work;
    /* Keys of @open structs skipped so far. */
    size_t skipped;
    /* a map key being read as its key type: the error path names it as
     * written, since the entry holds no key yet */
    const char *raw_key;
    size_t raw_key_len;
    /* Sets err's line/column/source line for a position. */
    void (*locate)(bk *k, const bk_pos *pos);
    void *fe;
    /* A CSV cell's header name: while set, messages name the column in
     * place of the value's path. */
    const char *column;
    /* Appended to every value error while set (YAML alias replays). */
    const char *note;
    blobc_arena arena;
    /* The key plans built so far: plans[i] for the struct type numbered
     * i in plan_types. */
    blobc_ptrset plan_types;
    const bk_keyplan **plans;
    size_t plans_cap;
    struct {
        const blobc_type *type;
        const bk_keyplan *keys;
    } plan_memo[16];             /* the plans of recent types, by address bits */

    /* Several errors per run (opts->diag, diag.c): the errors kept so
     * far, packed, in document order. */
    blobc_diag_sink *sink;
    blobc_buffer kept;
    size_t nkept;
    size_t nerrors;              /* found: kept, and counted past the limit */
    bool muted;                  /* the sink is full: errors are only counted */
    bool hard;                   /* the builder failed: no going on */
    bool syntax;                 /* the error in err is a syntax error */

    /* Keyed arrays and references (keys.c); NULL until the first. */
    struct bk_keys *keys;
    /* The schema has value checks (checks.c), and their state (NULL until
     * a @unique list's first item). */
    bool checking;
    struct bk_checks *checks;
    /* opts->exclude_tags names some tag; and the struct of the item whose
     * tags were just read ahead and keep it, for the struct frame it opens
     * (tags.c). */
    /* The string table of text fields (text.c), NULL without --strings. */
    struct bk_texts *texts;
    bool excluding;
    bool schema_tags;            /* some struct of the schema declares @tags */
    const blobc_type *tagged;

    /* The builder writes payloads in place as they come (JSON, whose
     * reader fills values in the blob's own order); the driver bakes again
     * with the ordinary builder when the document's order is another
     * (reorder), its first warn_skip warnings (given already) unsaid. */
    bool in_order;
    bool reorder;
    size_t size_hint;            /* the input's size: the image's first buffer */
    size_t warned;               /* warnings given */
    size_t warn_skip;
};

/* With a sink, keeps the error in k->err and returns bk_stop(k,
 * BK_OUT_KEPT); without, returns st (the bake stops at the first error).
 * Call it after bk_fail for an error that leaves the document's
 * structure intact; a status already kept passes through as it is. */
blobc_status bk_soft(bk *k, blobc_status st);

/* The end of a run that returned st: with a sink and errors, hands them
 * to the sink (a syntax error alone), puts the first into err and returns
 * the failure; else st. */
blobc_status bk_diag_finish(bk *k, blobc_status st);

/* Path modes for bk_fail: whether the innermost frame's current field or
 * item is part of the path (an error about a value) or not (an error about
 * the container itself, such as a missing field). */
#define BK_AT_VALUE 0
#define BK_AT_CONTAINER 1

/* The input format: opts' choice, else by the file name's extension, else
 * by the first non-blank byte of the text (driver.c). */
blobc_input_format bk_detect(const char *text, size_t len, const char *filename,
                             blobc_input_format fmt);

/* Runs the front end for `fmt` over the whole text, with the driver's
 * root resolution (driver.c). */
blobc_status bk_run_front_end(bk *k, blobc_input_format fmt, const char *text, size_t len);

void bk_init(bk *k, const char *filename, const blobc_bake_options *opts, blobc_error *err);
void bk_free(bk *k);
/* Frees everything and starts again on the same input: the file name,
 * options, error and driver hook stay. */
void bk_reset(bk *k);

/* Reports an error at pos with the current path (plus `key`, when given,
 * as one more component). Returns st. */
blobc_status bk_fail(bk *k, blobc_status st, const bk_pos *pos, int mode, const char *key,
                     size_t keylen, const char *fmt, ...) BLOBC_PRINTF(7, 8);
/* A warning at pos, with the current path (the key `key` of the innermost
 * mapping, when given), to the sink's warning callback (nothing without
 * one). */
void bk_warn(bk *k, const bk_pos *pos, const char *key, size_t keylen, const char *fmt, ...)
    BLOBC_PRINTF(5, 6);
/* The builder failed (out of memory, too large): report its message here. */
blobc_status bk_fail_builder(bk *k, const bk_pos *pos);

/* Once the front end has seen the top-level meta keys: calls the driver's
 * hook, which loads the schema and picks the root type from the options
 * and k->meta_*, creates the builder and its root, and pushes the root
 * struct frame. */
blobc_status bk_resolve_root(bk *k, const bk_pos *pos);

/* Is this token a null for *T / [T]? (YAML: plain "", "~", "null", "Null",
 * "NULL"; JSON: null.) */
bool bk_is_null(const bk_scalar *v);

/* Unwinds for outcome `why`: returns the status that carries it. */
static inline blobc_status bk_stop(bk *k, bk_outcome why) {
    k->outcome = why;
    return BLOBC_EINPUT;
}
/* Whether status st returned by a bake function carries outcome `why`. */
static inline bool bk_stopped(const bk *k, blobc_status st, bk_outcome why) {
    return st == BLOBC_EINPUT && k->outcome == why;
}
/* Whether st carries a kept error (BK_OUT_KEPT); if so, takes it: the
 * caller skips the value and goes on. */
static inline bool bk_kept(bk *k, blobc_status st) {
    if (!bk_stopped(k, st, BK_OUT_KEPT) && !bk_stopped(k, st, BK_OUT_SKIP)) return false;
    k->outcome = BK_OUT_NONE;
    return true;
}
/* Whether st is a failure of the input rather than one of the outcomes. */
static inline bool bk_input_failed(const bk *k, blobc_status st) {
    return st == BLOBC_EINPUT && k->outcome == BK_OUT_NONE;
}

/* The innermost frame. */
static inline bk_frame *bk_top(bk *k) { return k->depth ? &k->fr[k->depth - 1] : NULL; }

/* The struct field whose value is being filled, or (*each) one item of
 * whose list or fixed array: the innermost struct frame's field, one
 * level up past a sequence; NULL outside a struct's field. What value
 * checks and text apply by. */
static inline const blobc_field *bk_filled_field(const bk *k, bool *each) {
    if (!k->depth) return NULL;
    const bk_frame *f = &k->fr[k->depth - 1];
    *each = f->kind == BK_ARRAY || f->kind == BK_FIXED;
    if (*each && k->depth < 2) return NULL;
    if (*each) f = &k->fr[k->depth - 2];
    return f->kind == BK_STRUCT ? f->field : NULL;
}

/* Whether a frame is filled from a mapping (keys) rather than a sequence. */
static inline bool bk_is_map(const bk_frame *f) {
    return f->kind == BK_STRUCT || f->kind == BK_UNION || f->kind == BK_MAP;
}

/* Address of a slot's bytes right now (re-fetch after any array grows). */
static inline uint8_t *bk_ptr(const bk *k, const bk_slot *s) {
    return (uint8_t *)blobc_builder_ptr(k->b, s->ref) + s->off;
}

/* ---- structs ---- */

/* Opens a frame for a mapping on slot s: a struct frame, or a union frame
 * when s->type is a UNION (any other type is an error). */
blobc_status bk_push_struct(bk *k, const bk_slot *s, const bk_pos *pos);
/* Before a mapping fills slot type t through pointers and optionals: the
 * skip outcome (bk_unknown_tag) when it is an @open union's value whose
 * tag names no member, which is left out as if null (the pointer stays
 * null, the optional absent), so the front end makes no target. */
blobc_status bk_open_union_gone(bk *k, const blobc_type *t, const bk_pos *pos);
/* A key in the innermost mapping frame: finds the struct field (unknown
 * and duplicate keys are errors) and returns the slot its value goes into;
 * in a union frame, the key names the member: the tag is set and the slot
 * is the member's *Struct. */
blobc_status bk_key(bk *k, const char *key, size_t len, const bk_pos *pos, bk_slot *out);
/* The field the innermost frame expects next, when it is a struct: the
 * one after the last key (keys usually come in declaration order), or
 * NULL. A front end that finds its key spelled next may skip the lookup
 * and call bk_key_field. */
static inline const blobc_field *bk_next_field(const bk *k, const bk_keyplan **kp) {
    const bk_frame *f = &k->fr[k->depth - 1];
    if (f->kind != BK_STRUCT || f->hint >= f->type->nfields) return NULL;
    *kp = &f->keys[f->hint];
    return &f->type->fields[f->hint];
}
/* bk_key for a key known to name field fld of the innermost struct. */
blobc_status bk_key_field(bk *k, const blobc_field *fld, const bk_pos *pos, bk_slot *out);
/* Whether the innermost struct frame has the field `key` set already
 * (false for a name that is no field). */
bool bk_field_seen(const bk *k, const char *key, size_t len);
/* Ends the innermost mapping: applies defaults, checks required fields
 * (a union needs its one key), pops the frame. */
blobc_status bk_pop_struct(bk *k);

/* ---- sequences ---- */

/* Opens a sequence frame on slot s ([T] or [T; N]); `known` is the item
 * count when the front end knows it up front, else UINT32_MAX. */
blobc_status bk_push_seq(bk *k, const bk_slot *s, uint32_t known, const bk_pos *pos);
/* The slot of the next item of the innermost sequence frame. */
blobc_status bk_item(bk *k, const bk_pos *pos, bk_slot *out);
/* Ends the innermost sequence: checks a fixed count, links a [T]'s items.
 * *items / *count receive the items' allocation and count ([T] only; count
 * 0 means there is no payload). Pops the frame. */
blobc_status bk_pop_seq(bk *k, const bk_pos *pos, blobc_ref *items, uint32_t *count);

/* ---- values ---- */

/* For a *T slot and a non-null value: allocates the target, links it and
 * moves *s to it. */
blobc_status bk_deref(bk *k, bk_slot *s, const bk_pos *pos, blobc_ref *target);

/* Rounds a correctly rounded double to f32 when that gives the same float
 * as rounding the exact value once: not when the double lies exactly
 * halfway between two floats, nor outside the normal f32 range. */
static inline bool bk_f32_from_double(double d, double *out) {
    if (d == 0) {
        *out = d;
        return true;
    }
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    int e = (int)((bits >> 52) & 0x7ff) - 1023;
    if (e < -126 || e > 127) return false;
    if ((bits & 0x1fffffffu) == 0x10000000u) return false;
    float f = (float)d;
    if (isinf(f)) return false;
    *out = (double)f;
    return true;
}

/* The stores of bk_store that need nothing but the slot's kind, inline
 * for the JSON reader's hot path: a number it converted exactly (has_u,
 * has_d) into an integer or float field, within range and rounding once.
 * False when bk_store must decide (a *T, an enum, a string, a value out
 * of range or needing the slow conversion, a type error). */
static inline bool bk_store_quick(bk *k, const bk_slot *s, const bk_scalar *v) {
    if (k->checking || k->texts) return false;
    blobc_kind kind = s->type->kind;
    if (kind == BLOBC_KIND_F32 || kind == BLOBC_KIND_F64) {
        double d = v->d;
        if (!v->has_d || !isfinite(d)) return false;
        if (kind == BLOBC_KIND_F64) {
            uint64_t b;
            memcpy(&b, &d, sizeof b);
            blobc_st64(bk_ptr(k, s), b);
            return true;
        }
        if (!bk_f32_from_double(d, &d)) return false;
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        blobc_st32(bk_ptr(k, s), b);
        return true;
    }
    if (!v->has_u || kind < BLOBC_KIND_I8 || kind > BLOBC_KIND_U64) return false;
    uint64_t u = v->u;
    uint8_t *p;
    switch (kind) {
    case BLOBC_KIND_I8: if (u > 0x7f) return false; *bk_ptr(k, s) = (uint8_t)u; return true;
    case BLOBC_KIND_U8: if (u > 0xff) return false; *bk_ptr(k, s) = (uint8_t)u; return true;
    case BLOBC_KIND_I16:
    case BLOBC_KIND_U16:
        if (u > (kind == BLOBC_KIND_I16 ? 0x7fffu : 0xffffu)) return false;
        p = bk_ptr(k, s);
        p[0] = (uint8_t)u;
        p[1] = (uint8_t)(u >> 8);
        return true;
    case BLOBC_KIND_I32:
    case BLOBC_KIND_U32:
        if (u > (kind == BLOBC_KIND_I32 ? 0x7fffffffu : 0xffffffffu)) return false;
        blobc_st32(bk_ptr(k, s), (uint32_t)u);
        return true;
    default:
        if (kind == BLOBC_KIND_I64 && u > 0x7fffffffffffffffull) return false;
        blobc_st64(bk_ptr(k, s), u);
        return true;
    }
}

/* Stores a scalar token into slot s (any type; a *T slot is followed,
 * nulls are accepted where they mean null/empty, anything else is a type
 * error). For a string, *payload receives the bytes' allocation (when
 * payload is not NULL). */
blobc_status bk_store(bk *k, bk_slot *s, const bk_scalar *v, const bk_pos *pos,
                      blobc_ref *payload);

/* Stores string bytes str[0..n) (valid UTF-8 without NUL: the caller has
 * checked) into string slot s; *payload (when not NULL) receives their
 * allocation. bk_store's way for a string, for a front end that knows. */
blobc_status bk_store_string(bk *k, const bk_slot *s, const char *str, size_t n,
                             const bk_pos *pos, blobc_ref *payload);

/* Writes a shared payload into slot s: a string's or a [T]'s
 * {offset, length} with the given length, or a *T's offset. */
blobc_status bk_link_shared(bk *k, const bk_slot *s, blobc_ref target, uint32_t len,
                            const bk_pos *pos);


/* "expected TYPE, got VALUE" (and `extra`, when given) at pos, kept. */
blobc_status bk_type_error(bk *k, const blobc_type *t, const bk_scalar *v, const bk_pos *pos,
                           const char *extra);
/* The same for a container (a mapping when is_map, else a sequence) where
 * slot s's type wants something else. */
blobc_status bk_fail_container(bk *k, const bk_slot *s, bool is_map, const bk_pos *pos);

/* "a mapping (struct Vec3)", "an integer (u32)", ... for messages. */
void bk_describe_type(const bk *k, const blobc_type *t, char *buf, size_t cap);

/* Quotes arbitrary input text for a message: escapes, cut at 40 bytes. */
void bk_quote(char *dst, size_t cap, const char *s, size_t n);

/* "id, name, kind, ..." : the first few names of a struct's fields, an
 * enum's or a union's members. */
void bk_list_names(char *buf, size_t cap, const blobc_type *t);
/* "\"tilelayer\", \"objectgroup\"" or "1, 2": the tags of a tagged union. */
void bk_list_tags(const blobc_type *u, char *buf, size_t cap);
/* An unknown tag s[0..n) of union u at pos, with a did-you-mean. */
blobc_status bk_unknown_tag(bk *k, const blobc_type *u, const char *s, size_t n, const bk_pos *pos);


/* ---- maps, optionals, any, tagged unions (fill_forms.c) ---- */

#define BK_AHEAD_FACTOR 16u
#define BK_AHEAD_FLOOR ((uint64_t)1 << 20)
/* The error when the look ahead for tags passes its bound. */
blobc_status bk_ahead_over(bk *k, const bk_pos *pos, uint64_t limit);

/* For the value stream (stream_fill.c): opens the one-key frame
 * ({Member: {...}}) of the union slot s holds through ?T and *T, however
 * its data tags members (the stream names the member); and moves s,
 * through ?T (marked present) and any (its kind word set), to the slot a
 * shared payload of kind `kind` (STRING, ARRAY, MAP, PTR) links into. */
blobc_status bk_push_union_key(bk *k, const bk_slot *s, const bk_pos *pos);
void bk_unwrap_shared(bk *k, bk_slot *s, blobc_kind kind);

/* The plain frames (fill.c) under the entry points above (fill_forms.c),
 * for a slot that holds the container itself: a struct or one-key union,
 * a [T] or [T; N]; a struct's or union's key. */
blobc_status bk_open_struct(bk *k, const bk_slot *s, const bk_pos *pos);
blobc_status bk_open_seq(bk *k, const bk_slot *s, uint32_t known, const bk_pos *pos);
blobc_status bk_struct_key(bk *k, const char *key, size_t len, const bk_pos *pos, bk_slot *out);
blobc_status bk_close_struct(bk *k);
/* A frame on top of the stack, cleared, at pos (fill.c). */
blobc_status bk_push_frame(bk *k, const bk_pos *pos, bk_frame **out);
/* ---- keys and references (keys.c) ---- */

/* Is t a [S] of a struct S with a @key? Its items are sorted by key when
 * it ends and join the key space of S. */
static inline bool bk_is_keyed_array(const blobc_type *t) {
    return t->kind == BLOBC_KIND_ARRAY && t->elem->kind == BLOBC_KIND_STRUCT && t->elem->key;
}
/* A keyed array's frame f opens / gets an item at pos / ends (before its
 * items' allocation is closed): sorted, checked for duplicate keys,
 * entered into its type's key space. */
blobc_status bk_keyed_begin(bk *k, bk_frame *f);
blobc_status bk_keyed_item(bk *k, const bk_pos *pos);
/* The item of the innermost open keyed array has no key of its own (its
 * key field was missing or had an error, already reported): it stays out
 * of the key space, and a reference to a key of its type that no item
 * has is not reported on top. */
void bk_keyed_item_bad(bk *k);
blobc_status bk_keyed_end(bk *k, bk_frame *f, const bk_pos *pos);
/* Stores a reference: v is the key of its target (or null, when
 * `nullable`), resolved by bk_refs_resolve at the end of the document. */
blobc_status bk_ref_store(bk *k, const bk_slot *s, const bk_scalar *v, const bk_pos *pos,
                          bool is_null, bool nullable);
/* The end of the document: every reference to its element, or an error
 * at the reference (a key that names no element, with a did-you-mean). */
blobc_status bk_refs_resolve(bk *k);
void bk_keys_free(bk *k);
/* The path of the value being filled, as messages print it. */
void bk_render_path(const bk *k, blobc_buffer *b);
/* The same path kept for a message that may come later (a reference is
 * resolved when the document ends): its container's path, rendered once
 * for every value of one container (bk_path_memo keeps the last), and the
 * last step, a field or an item. */
typedef struct bk_path_mark {
    const char *prefix;       /* in k->arena */
    const blobc_field *field; /* the last step, or */
    uint32_t item;            /* it, or UINT32_MAX: none (prefix is the whole path) */
} bk_path_mark;
typedef struct bk_path_step bk_path_step;
typedef struct bk_path_memo {
    bk_path_step *steps;      /* the containers the prefix was rendered for */
    uint32_t depth, cap;
    const char *prefix;
} bk_path_memo;
blobc_status bk_path_mark_take(bk *k, bk_path_memo *memo, bk_path_mark *out);
void bk_path_mark_text(const bk *k, const bk_path_mark *m, char *buf, size_t cap);
void bk_path_memo_free(bk_path_memo *memo);

/* ---- value checks (checks.c) ---- */

/* The value just stored in slot s (a number, bool or enum) / the string
 * s[0..n) just stored / the list or map about to close, judged by the
 * checks of the field it belongs to; a failure is an error kept (the
 * value stays: nothing to skip). Called only while k->checking. */
blobc_status bk_check_number(bk *k, const bk_slot *s, const bk_pos *pos);
blobc_status bk_check_string(bk *k, const char *s, size_t n, const bk_pos *pos);
blobc_status bk_check_count(bk *k, const bk_pos *pos);
void bk_checks_free(bk *k);

/* ---- front ends ---- */

/* Bakes JSON text (in memory). */
blobc_status bk_bake_json(bk *k, const char *text, size_t len);

/* Bakes CSV (tsv false) or TSV text (in memory). */
blobc_status bk_bake_csv(bk *k, const char *text, size_t len, bool tsv);

/* Reads up to `size` bytes into buf; *got = 0 at the end. 1 on success,
 * 0 on a read error (the shape of libyaml's read handler). */
typedef int bk_read_fn(void *data, unsigned char *buf, size_t size, size_t *got);

/* Inputs from this size up are parsed on a second thread (unless the
 * options say one_thread). */
#define BK_YAML_THREAD_MIN ((size_t)1024 * 1024)

/* Bakes YAML: from `text` when it is not NULL, else streamed through
 * `read` (then error lines are fetched by re-reading k->filename); `size`
 * is the streamed input's size when known, else 0. */
blobc_status bk_bake_yaml(bk *k, const char *text, size_t len, bk_read_fn *read, void *data,
                          size_t size);

/* Fills the blob from a value stream (stream_fill.c): the events `pull`
 * gives, after the driver opened the root's frame, up to the stream's end
 * (common/stream.h; blobc_bake_stream in driver.c is the entry). */
struct blobc_value_event;
blobc_status bk_fill_stream(bk *k, blobc_status (*pull)(void *ctx, struct blobc_value_event *ev),
                            void *ctx);

/* ---- tags (tags.c) ---- */

/* The struct the items of list type `list` are, when it declares @tags
 * (directly or through *T or ?T); else NULL. */
const blobc_type *bk_tagged_items(const blobc_type *list);
/* At the root's resolution: every tag of opts->exclude_tags is declared
 * by some struct of the schema. */
blobc_status bk_tags_resolve(bk *k, const bk_pos *pos);
/* As the mapping of an item of the innermost list opens: its $tags read
 * ahead and judged, and *out whether --exclude-tags leaves it out. */
blobc_status bk_item_excluded(bk *k, bool *out);
/* bk_item for an item of the innermost sequence whose mapping opens
 * now: when its struct declares @tags, its $tags are read ahead and
 * judged first. Returns the skip outcome when --exclude-tags leaves it
 * out (there is no item), a kept error when they are wrong (the item is
 * taken, its mapping skipped). */
blobc_status bk_item_tagged(bk *k, const bk_pos *pos, bk_slot *out);
/* (a schema without @tags: bk_item itself, with no call more on the way
 * of every item) */
static inline blobc_status bk_item_map(bk *k, const bk_pos *pos, bk_slot *out) {
    return k->schema_tags ? bk_item_tagged(k, pos, out) : bk_item(k, pos, out);
}
/* Judges n tags (at pos[i]) of an item of struct st: each one st
 * declares; *excluded when one is excluded. For a front end that has
 * them at hand (a CSV row's $tags cell). */
blobc_status bk_tags_judge(bk *k, const blobc_type *st, const bk_scalar *tags,
                           const bk_pos *pos, uint32_t n, bool *excluded);
/* A "$tags" key in the innermost struct: skipped (BK_OUT_SKIP) in an
 * item whose tags were read ahead, else an error. */
blobc_status bk_tags_key(bk *k, const bk_pos *pos);

/* ---- localized text (text.c) ---- */

typedef struct bk_texts bk_texts;
/* At the root's resolution, with opts->strings: reads the string table
 * (its errors name its lines; TSV when `tsv`, else CSV), and the
 * language opts->lang takes. */
blobc_status bk_texts_load(bk *k, bool tsv);
void bk_texts_free(bk *k);
/* A string about to be stored for field fld (NULL: the field being
 * filled, or whose item is): when it is text, its key is looked up in the
 * table (an error when it is not there) and, with --lang, *s and *n
 * become the language's text (the first language's, with a warning, when
 * the table has none for it). */
blobc_status bk_translate(bk *k, const blobc_field *fld, const char **s, size_t *n,
                          const bk_pos *pos);

/* Did-you-mean among a list of names: the closest within a small edit
 * distance, or NULL. */
const char *bk_closest(const char *key, size_t len, const char *const *names, size_t n);

/* Whether JSON text can spell a "$type" key at all (json.c), asked of the
 * piece b[0, n) at offset off of the text: b holds avail >= n bytes, up
 * to 5 past the piece (fewer only where the text ends); *from (0 at the
 * start) carries from piece to piece where the next backslash may be. */
bool bk_type_key_piece(const char *b, size_t n, size_t avail, uint64_t off, uint64_t *from);

#endif
