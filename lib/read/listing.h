/*
 * listing.h - a walked data section in file order, part by part
 * (listing.c): what `dump --map`, `blobc size` and `dump --html` are made
 * from. Private to lib/read/.
 *
 * Every byte from the first payload to the end of the data is in exactly
 * one part that has bytes (SCALAR, OFFSET, TAG, UOFFSET, PRESENCE, ABSENT,
 * ANYKIND, UNUSED, PADDING, STRING, GAP, TAIL); PAYLOAD and AGG parts announce the parts that follow.
 */
#ifndef BLOBC_READ_LISTING_H
#define BLOBC_READ_LISTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/source.h"
#include "read/walk.h"

typedef enum blobc_lkind {
    BLOBC_L_PAYLOAD, /* the head of a [T]'s items or a *T's target (not the root) */
    BLOBC_L_AGG,     /* a struct or [T; N]: its parts follow */
    BLOBC_L_SCALAR,  /* a scalar or enum */
    BLOBC_L_OFFSET,  /* a string, [T] or *T: offset (and length) */
    BLOBC_L_TAG,     /* a union's tag */
    BLOBC_L_UOFFSET, /* a union's offset when its tag names no member */
    BLOBC_L_PRESENCE, /* an optional's presence byte and the padding after it */
    BLOBC_L_ABSENT,  /* an absent optional's value bytes (zero) */
    BLOBC_L_ANYKIND, /* an any's kind word (BLOBC_ANY_*) */
    BLOBC_L_UNUSED,  /* the bytes of an any's body its kind leaves unused */
    BLOBC_L_PADDING, /* between a struct's fields, or after the last */
    BLOBC_L_STRING,  /* a string's bytes, NUL included */
    BLOBC_L_GAP,     /* between payloads */
    BLOBC_L_TAIL     /* after the last payload */
} blobc_lkind;

typedef struct blobc_lpart {
    blobc_lkind kind;
    uint32_t depth;         /* steps below the payload's own path */
    size_t at, size;        /* data offset and bytes (PAYLOAD: all its bytes) */
    const blobc_type *type; /* PAYLOAD: the items' type, NULL for string bytes;
                               TAG, UOFFSET: the union; PRESENCE, ABSENT: the
                               optional; ANYKIND, UNUSED: any; SCALAR, OFFSET
                               in an any's body: the type its kind names
                               (a bool, i64, u64, f64, string, [any] or
                               [string: any]); else the value's */
    size_t payload;         /* the payload listed; OFFSET: its target's, SIZE_MAX
                               for a null one, one outside the data or a
                               reference (&T, which lands on an item) */
    bool first;             /* OFFSET: the first reference to the target; the
                               target's path is this part's */
    bool again;             /* OFFSET: a reference to a payload met before;
                               PAYLOAD, STRING: the payload is shared */
    bool zero;              /* PADDING, GAP, TAIL: all its bytes are zero */
    bool prepass;           /* a Unity file's first pass, which finds the
                               payloads' paths (first references) only */
} blobc_lpart;

typedef struct blobc_layout_ops {
    /* Payload k's parts follow, below its own path (the root's is empty). */
    bool (*payload)(void *ctx, size_t k);
    /* One step down from depth `depth`: field `name`, or item `index`
     * when name is NULL; the parts that follow are at depth + 1. */
    bool (*step)(void *ctx, uint32_t depth, const char *name, uint32_t index);
    bool (*part)(void *ctx, const blobc_lpart *p);
} blobc_layout_ops;

/* Lists what the walk `w` of src's data placed (payloads in file order;
 * for a failed walk, those it placed). A callback returning false stops
 * it; false then, or when out of memory. */
bool blobc_layout_list(const blobc_walk *w, const uint8_t *data, size_t size, bool failed,
                       const blobc_layout_ops *ops, void *ctx);

/* The size report (size.c) of a verified blob of `len` bytes, opened as
 * src and walked as w. */
blobc_status blobc_size_report(const blobc_source *src, const blobc_walk *w, size_t len,
                               uint32_t depth, bool json, blobc_buffer *out, blobc_error *err);

/* The `dump --html` page (html.c) of a verified blob: the file's bytes,
 * opened as src and walked as w; its fixed parts (html_page.c). */
blobc_status blobc_html_page(const blobc_source *src, const blobc_walk *w, const uint8_t *bytes,
                             size_t len, blobc_buffer *out, blobc_error *err);
void blobc_html_head(blobc_buffer *out, bool *ok);
void blobc_html_tail(blobc_buffer *out, bool *ok);

#endif
