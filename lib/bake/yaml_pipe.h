/*
 * yaml_pipe.h - libyaml's events, pulled ahead of the baker in batches.
 * Private.
 *
 * libyaml's parse is most of a YAML bake, and it needs nothing from the
 * baker, so for a big input it runs on a thread of its own, a few
 * batches ahead: the bake then takes about as long as the parse alone.
 * Each event is copied into its batch (strings in the batch's text) and
 * deleted on the parsing thread, so libyaml's many small allocations are
 * made and freed by one thread. The baker sees the same events in the same
 * order either way; only the timing differs.
 */
#ifndef BLOBC_YAML_PIPE_H
#define BLOBC_YAML_PIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

/* One event, copied. Strings are NUL-terminated and valid until the next
 * call of ypipe_next. */
typedef struct ypipe_event {
    yaml_event_type_t type;
    bool plain;          /* scalar: plain style */
    yaml_mark_t mark;    /* where it starts */
    const char *value;   /* scalar: its value (length bytes, may hold NUL) */
    size_t length;
    const char *tag;     /* scalar, sequence, mapping: explicit tag or NULL */
    const char *anchor;  /* node: the anchor it defines; alias: the name; or NULL */
} ypipe_event;

typedef struct ypipe ypipe;

/* What ypipe_next gives. */
enum {
    YPIPE_EVENT = 1, /* *ev is the next event */
    YPIPE_END = 0,   /* the parser produced its last event (stream end) */
    YPIPE_ERROR = -1, /* the parser failed: its error fields say why */
    YPIPE_NOMEM = -2,
    YPIPE_DEEP = -3  /* deep flow nesting used up YPIPE_FLOW_BUDGET */
};

/* Bounded work on deep flow collections ([...] and {...}). Inside them
 * libyaml's scanner does work proportional to the flow depth for every
 * token, so a few kilobytes of brackets around a long list would cost
 * minutes. Flow nesting up to YPIPE_FLOW_FREE levels is free; every event
 * deeper than that costs its depth, and once the total passes
 * YPIPE_FLOW_BUDGET the parser stops at that event (on the parsing thread
 * too, so it never scans on) and ypipe_deep_mark says where. The budget
 * lets through what `blobc dump` writes for a chain of *T down to the
 * nesting limit (BLOBC_MAX_NESTING; flow style below 64 levels, about 5
 * events a level: 2.5e8 for 10,000 levels), so a dump bakes back, and
 * costs libyaml about a second at most. */
#define YPIPE_FLOW_FREE 64u
#define YPIPE_FLOW_BUDGET ((uint64_t)1 << 28)

/* Starts pulling events from p (input already set). With `threaded` a
 * thread parses ahead, in batches; without, each event is parsed on
 * demand and shown in place, nothing copied. NULL when out of memory. The parser must not be used by the caller until
 * ypipe_stop; its error fields may be read once ypipe_next has said
 * YPIPE_ERROR. */
ypipe *ypipe_start(yaml_parser_t *p, bool threaded);

int ypipe_next(ypipe *q, const ypipe_event **ev);

/* After YPIPE_DEEP: where the event that used up the budget starts, and
 * the flow depth there. */
yaml_mark_t ypipe_deep_mark(const ypipe *q, unsigned *depth);

/* Stops the parsing thread (wherever it is) and frees everything. */
void ypipe_stop(ypipe *q);

#endif
