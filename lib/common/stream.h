/*
 * stream.h - the value stream: one typed event per key, item and value,
 * in document order, the same whoever produces it and whoever takes it.
 * Private to the library.
 *
 * Producers: the walker over a verified blob (read/walk_stream.c), pulled one
 * event at a time; the YAML and JSON front ends, which call the fill
 * stack's functions (bake/bake_internal.h) for the same events directly,
 * because they hold the slot a value goes into. Consumers: the fill stack
 * (bake/stream_fill.c, building a blob from a pulled stream, used by
 * upgrade), the comparer (read/compare.c, two streams side by side).
 *
 * The producers and consumers live in folders that do not see each
 * other's private headers; their entry points are declared here so that
 * a folder above both (evolve) can join them. Nothing in common calls
 * them.
 *
 * Sharing: a payload (string, [T] items, *T target) the producer knows is
 * referenced again carries a share id (1, 2, ... in order of first
 * appearance) on its first appearance; each later reference is a
 * BLOBC_EV_REF naming it, so a consumer can keep it shared.
 */
#ifndef BLOBC_STREAM_H
#define BLOBC_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blobc/bake.h"
#include "blobc/schema.h"

typedef enum blobc_ev_kind {
    BLOBC_EV_END = 0,       /* the stream is over */
    BLOBC_EV_BEGIN_STRUCT,  /* a struct, or a union holding a member (one FIELD follows) */
    BLOBC_EV_FIELD,         /* field: the struct field or union member whose value follows */
    BLOBC_EV_END_STRUCT,
    BLOBC_EV_BEGIN_SEQ,     /* [T] or [T; N]: count items; share (a [T]) */
    BLOBC_EV_ITEM,          /* count: the index of the item whose value follows */
    BLOBC_EV_END_SEQ,
    BLOBC_EV_SCALAR,        /* bool, integer, float, enum, string (share: a string); a
                               reference &T: its target's key, typed by the key field */
    BLOBC_EV_NULL,          /* a null *T, an empty [T], a union holding none */
    BLOBC_EV_PTR,           /* a non-null *T (share); its target's value follows */
    BLOBC_EV_REF            /* a payload given before: share names it, count its length */
} blobc_ev_kind;

/* A scalar's value, typed by the event's type. */
typedef struct blobc_sval {
    uint64_t bits;      /* integers (two's complement, sign-extended), bool 0/1, an enum's value */
    double f;           /* f32 (exactly widened) and f64 */
    const char *s;      /* string bytes (no NUL; valid until the next event), an enum member's name
                           (NULL: the value names no member) */
    size_t n;
} blobc_sval;

/* Where an event's value is in its source: in a blob, line is 0 and off
 * the value's offset in the data section; in text, line/col (1-based) or
 * line 0 and off a byte offset. */
typedef struct blobc_sloc {
    uint32_t line, col;
    uint64_t off;
} blobc_sloc;

typedef struct blobc_value_event {
    blobc_ev_kind kind;
    const blobc_type *type;     /* the value's type (BEGIN_*, SCALAR, NULL, PTR, REF) */
    const blobc_field *field;   /* FIELD */
    uint32_t count;             /* BEGIN_SEQ: items; ITEM: index; REF: length ([T], string) */
    uint32_t share;             /* first appearance of a shared payload, or the REF's; 0: none */
    blobc_sval v;               /* SCALAR */
    blobc_sloc at;
} blobc_value_event;

/* A producer read one event at a time: fills *ev, BLOBC_OK; at the end
 * ev->kind is BLOBC_EV_END. */
typedef blobc_status blobc_stream_pull(void *ctx, blobc_value_event *ev);

/* Text of a scalar value of type t (bool, integer, float, enum: its
 * member's name; a string: its bytes, cut to fit): as dump writes it,
 * shortest round-trip floats, ".nan"/".inf"/"-.inf" for the specials.
 * NUL-terminated when cap > 0; returns the length the whole text has. */
size_t blobc_sval_text(const blobc_type *t, const blobc_sval *v, char *buf, size_t cap);

/* Whether two scalar values of the same type t are the same value (NaN
 * equals NaN: a blob holds one NaN). */
bool blobc_sval_equal(const blobc_type *t, const blobc_sval *a, const blobc_sval *b);

/* ---- producers and consumers of the folders above ---- */

/* read/walk_stream.c: a verified blob's values. opens `bytes` (a .blob; a
 * stripped one with `schema`), verifies it and walks it from its root
 * (of `type_name`, NULL: the blob's root). */
typedef struct blobc_rstream blobc_rstream;
blobc_status blobc_rstream_open(const void *bytes, size_t len, const blobc_schema *schema,
                                const char *type_name, blobc_rstream **out, blobc_error *err);
const blobc_type *blobc_rstream_root(const blobc_rstream *s);
blobc_status blobc_rstream_next(void *s, blobc_value_event *ev); /* a blobc_stream_pull */
void blobc_rstream_free(blobc_rstream *s);
/* After a REF: the next events give the payload it names again, as its
 * first appearance (with its share id), for a consumer that left out the
 * value where it first appeared (upgrade --drop); payloads met only inside
 * it come again too. */
blobc_status blobc_rstream_expand(blobc_rstream *s);

/* bake/stream_fill.c: bakes the stream `pull` gives into a blob of
 * opts->schema's root (or opts->type_name), exactly as the same values
 * written as YAML and baked: converted by the bake's rules (SPEC §5),
 * defaults filled, shared payloads shared. schema_name is recorded as the
 * data's $schema. Errors name the path; `file` names the source. */
blobc_status blobc_bake_stream(blobc_stream_pull *pull, void *ctx, const blobc_bake_options *opts,
                               const char *file, const char *schema_name, blobc_buffer *out,
                               blobc_error *err);

#endif
