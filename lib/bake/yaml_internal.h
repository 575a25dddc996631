/*
 * yaml_internal.h - the YAML front end's state (yaml.c), shared with its
 * look ahead (yaml_ahead.c): the events as the bake sees them, the anchor
 * log, replays, and the events pulled ahead of the bake. Private to
 * lib/bake/.
 */
#ifndef BLOBC_BAKE_YAML_INTERNAL_H
#define BLOBC_BAKE_YAML_INTERNAL_H

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "bake/bake_internal.h"
#include "bake/yaml_pipe.h"
#include "common/hashtab.h"

enum { YE_SCALAR = 1, YE_SEQ, YE_SEQ_END, YE_MAP, YE_MAP_END, YE_ALIAS };

/* Phases of the stream. */
enum { P_STREAM, P_DOC, P_ROOTNODE, P_PENDING, P_BODY, P_DOCEND, P_END, P_DONE };

/* Struct frame states (bk_frame.state): the low bits, a key or a value
 * next, the value of a merge key or the aliases of its sequence; then
 * whether keys merged in are being read (a key set before is skipped). */
enum { ST_KEY = 0, ST_VALUE = 1, ST_MERGE = 2, ST_MERGE_SEQ = 3, ST_PART = 3, ST_MERGING = 4 };

/* Pending-root states: a key, or the value of $schema / $type. */
enum { PK_KEY = 0, PK_SCHEMA, PK_TYPE };

/* Replayed events allowed: this many times the events parsed, plus a floor. */
#define REPLAY_FACTOR 16u
#define REPLAY_FLOOR 1000000u

typedef struct yev {
    int type;
    bool quoted;
    bool replayed;
    uint32_t anchor;   /* node start: the anchor defined on it, 0 when none */
    uint32_t alias;    /* YE_ALIAS: the anchor referred to */
    const char *s;
    size_t n;
    const char *tag;   /* an explicit tag (parser events only) */
    const char *anchor_name; /* node start: the anchor's name (parser events only) */
    bk_pos pos;
} yev;

typedef struct logev {
    uint8_t type;
    uint8_t quoted;
    uint32_t anchor;
    uint32_t alias;
    size_t text;       /* offset in logtext */
    size_t n;
} logev;

typedef struct anchor_rec {
    const char *name;
    size_t start, end; /* its events: [start, end) of the log */
    uint32_t shares;   /* head of its share list (index + 1), 0 when none */
    bool complete;
    uint32_t line, col;
} anchor_rec;

typedef struct share_rec {
    const blobc_type *type;
    blobc_ref ref;
    uint32_t len;
    uint32_t next;
} share_rec;

typedef struct rec_entry {
    uint32_t id;
    uint32_t depth;
} rec_entry;

typedef struct replay {
    size_t cur, end;
} replay;

/* A merge key's alias, waiting for the end of the mapping at `depth`. */
typedef struct merge_rec {
    uint32_t depth;
    uint32_t anchor;
    bk_pos pos;
} merge_rec;

typedef struct ys {
    bk *k;
    const char *text;          /* whole input, or NULL when streamed */
    size_t len;
    uint8_t *filetext;         /* the file re-read for error lines */
    size_t filelen;
    bool file_tried;

    anchor_rec *anchors;       /* id 0 unused */
    uint32_t nanchors, anchors_cap;
    blobc_hashtab amap;        /* anchor name -> id */
    share_rec *shares;
    uint32_t nshares, shares_cap;
    logev *log;
    size_t nlog, log_cap;
    blobc_buffer logtext;
    rec_entry *rec;            /* anchored containers being recorded */
    size_t nrec, rec_cap;
    replay *rp;                /* replays in progress, innermost last */
    size_t nrp, rp_cap;
    merge_rec *merges;         /* merge keys' aliases of open mappings, innermost last */
    size_t nmerges, merges_cap;

    uint64_t parsed, replayed;
    uint32_t pdepth;           /* nesting of parser events */
    uint32_t skip;             /* open containers of a value being skipped */
    bool skip_next;            /* the next node is skipped (after a bad key) */
    uint32_t lc_line;          /* a line start found for an earlier error ... */
    size_t lc_off;             /* ... at this offset (errors come in order) */
    int phase;
    int pstate;
    bk_pos root_pos;
    bk_pos alias_pos;          /* the alias that started the current replay */
    char note[BLOBC_PLACE_BUF + 112];
    /* Events pulled ahead of the bake (a union tagged by a field looks for
     * its tag): copies, strings in aheadtext, taken before the parser's. */
    ypipe *q;
    struct ahead_ev *ahead;
    size_t nahead, ahead_cap, ahead_cur;
    blobc_buffer aheadtext;
    int ahead_end;             /* what the parser said after the last one, 0: more */
    ypipe_event cur;           /* the ahead event being consumed */
    /* A @stream root: each document is an item of its list. */
    bool stream;
    bool doc_root;             /* the next node is a later document's root */
    const char *root_tag;      /* the first document's root mapping: its tag */
    const char *root_anchor;   /* ... and its anchor's name (arena copies) */
} ys;

/* An event pulled ahead: a ypipe_event with its strings as offsets. */
typedef struct ahead_ev {
    yaml_event_type_t type;
    bool plain;
    yaml_mark_t mark;
    size_t value, length, tag, anchor; /* offsets in aheadtext; SIZE_MAX: none */
} ahead_ev;

/* Grows an array to hold at least n + 1 elements. */
static inline bool reserve(void **p, size_t *cap, size_t n, size_t elem) {
    return n < SIZE_MAX && blobc_grow(p, cap, n + 1, elem);
}

static inline bool reserve32(void **p, uint32_t *cap, uint32_t n, size_t elem) {
    size_t c = *cap;
    if (n >= UINT32_MAX - 1) return false;
    if (!reserve(p, &c, n, elem)) return false;
    *cap = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
    return true;
}

static inline bk_pos mark_pos(const yaml_mark_t *m) {
    bk_pos p;
    p.line = m->line + 1 > UINT32_MAX ? UINT32_MAX : (uint32_t)(m->line + 1);
    p.col = m->column + 1 > UINT32_MAX ? UINT32_MAX : (uint32_t)(m->column + 1);
    p.off = m->index;
    return p;
}

/* The i-th event after the ones consumed, pulled from the parser when it
 * is not ahead yet: YPIPE_EVENT with *out, or what the parser said. */
int ya_peek(ys *y, size_t i, const struct ahead_ev **out);
/* An ahead event's string, or NULL. */
static inline const char *ya_text(const ys *y, size_t off) {
    return off == SIZE_MAX ? NULL : (const char *)y->aheadtext.data + off;
}
/* The next event for the bake: one pulled ahead first, else the parser's. */
int ya_next_event(ys *y, const ypipe_event **ev);
/* bk.find_tag for YAML. */
blobc_status ya_find_tag(bk *k, const char *name, bk_scalar *tag, bk_pos *tpos, bool *found);
blobc_status ya_find_list(bk *k, const char *name, bk_scalar *vals, bk_pos *pos, uint32_t cap,
                          uint32_t *n, bk_pos *vpos, bool *found);

#endif
