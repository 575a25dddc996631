/*
 * yaml_pipe.c - libyaml's events in batches, parsed ahead on a thread of
 * their own for big inputs (see yaml_pipe.h).
 *
 * A small ring of batches is handed between the two threads under one
 * mutex: the parsing thread fills a batch while the baker reads the one
 * before, so they meet once per batch, not once per event. A batch ends
 * the stream when the parser produced its stream-end event or failed;
 * after that the parsing thread touches nothing shared.
 */
#include "bake/yaml_pipe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform.h"

/* Big batches: handing one over may wake the other thread, and a wake-up
 * costs tens of microseconds on a virtual machine. */
#define BATCH_EVENTS 8192
#define BATCH_TEXT ((size_t)512 * 1024)
#define NSLOTS 3

/* An event's strings are copied into its batch's text block, which never
 * moves while the batch is in use (a string that does not fit gets an
 * allocation of its own), and the event is deleted at once: libyaml's
 * allocations are made and freed by the parsing thread, while they are
 * still warm. */
typedef struct batch {
    ypipe_event *ev;
    size_t n;
    char *text;
    size_t tlen;
    char **big; /* strings that did not fit in text */
    size_t nbig, big_cap;
    bool ended; /* the last batch: the stream ended, or the parser failed */
    int end;    /* then: YPIPE_END, YPIPE_ERROR, YPIPE_NOMEM or YPIPE_DEEP */
    bool full;  /* handed to the baker, not yet given back */
} batch;

struct ypipe {
    yaml_parser_t *p;
    bool threaded;
    size_t nslots;
    batch slots[NSLOTS];
    size_t fill, read; /* slot the parser fills next, slot the baker reads */
    const ypipe_event *cur, *end; /* the baker's next event in slots[read], and its end */
    bool reading;      /* slots[read] is the baker's */
    bool stop;
    /* Flow nesting seen by the producer (parsing thread or on demand). */
    unsigned flow;
    uint64_t flow_work;
    yaml_mark_t deep_mark;
    /* Who sleeps on cv: a thread is woken only when it sleeps. */
    bool parser_waits, baker_waits;
    /* Without a thread: the event last given out, seen in place. */
    yaml_event_t held;
    bool holding;
    bool over;    /* the stream ended ... */
    int over_how; /* ... as YPIPE_END, YPIPE_ERROR or YPIPE_DEEP */
    ypipe_event view;
    /* The %TAG directives of the last document that declared some, for
     * the documents after it that declare none (see parse_event). */
    yaml_tag_directive_t *tags;
    size_t ntags;
    blobc_os_thread thread;
    blobc_os_mutex mu;
    blobc_os_cond cv;
};

static void free_tags(ypipe *q) {
    for (size_t i = 0; i < q->ntags; i++) {
        free(q->tags[i].handle);
        free(q->tags[i].prefix);
    }
    free(q->tags);
    q->tags = NULL;
    q->ntags = 0;
}

static yaml_char_t *dup_text(const yaml_char_t *s) {
    size_t n = strlen((const char *)s) + 1;
    yaml_char_t *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* Unity writes its `%TAG !u! tag:unity3d.com,2011:` line once, above the
 * first of many documents, where YAML wants it above each: a later
 * document that declares no handles gets the last ones declared, pushed
 * onto the parser's own list right after its start (libyaml resolves a
 * node's tag when it parses the node, and frees the list, with free, at
 * the document's end). False when out of memory. */
static bool carry_tags(ypipe *q, const yaml_event_t *e) {
    yaml_tag_directive_t *d = e->data.document_start.tag_directives.start;
    yaml_tag_directive_t *end = e->data.document_start.tag_directives.end;
    if (d != end) {
        free_tags(q);
        size_t n = (size_t)(end - d);
        q->tags = calloc(n, sizeof *q->tags);
        if (!q->tags) return false;
        for (; q->ntags < n; q->ntags++) {
            q->tags[q->ntags].handle = dup_text(d[q->ntags].handle);
            q->tags[q->ntags].prefix = dup_text(d[q->ntags].prefix);
            if (!q->tags[q->ntags].handle || !q->tags[q->ntags].prefix) return false;
        }
        return true;
    }
    yaml_parser_t *p = q->p;
    for (size_t i = 0; i < q->ntags; i++) {
        if (p->tag_directives.top == p->tag_directives.end) {
            size_t have = (size_t)(p->tag_directives.end - p->tag_directives.start);
            yaml_tag_directive_t *g = realloc(p->tag_directives.start, 2 * have * sizeof *g);
            if (!g) return false;
            p->tag_directives.start = g;
            p->tag_directives.top = g + have;
            p->tag_directives.end = g + 2 * have;
        }
        yaml_tag_directive_t t = {dup_text(q->tags[i].handle), dup_text(q->tags[i].prefix)};
        if (!t.handle || !t.prefix) {
            free(t.handle);
            free(t.prefix);
            return false;
        }
        *p->tag_directives.top++ = t;
    }
    return true;
}

/* yaml_parser_parse, with the %TAG handles carried to later documents. */
static int parse_event(ypipe *q, yaml_event_t *e) {
    if (!yaml_parser_parse(q->p, e)) return 0;
    if (e->type == YAML_DOCUMENT_START_EVENT && !carry_tags(q, e)) {
        yaml_event_delete(e);
        q->p->error = YAML_MEMORY_ERROR;
        return 0;
    }
    return 1;
}

static void release(batch *b) {
    for (size_t i = 0; i < b->nbig; i++) free(b->big[i]);
    b->nbig = 0;
    b->n = 0;
    b->tlen = 0;
}

/* put_text for a string that does not fit in the batch's text block. */
static const char *put_big(batch *b, const void *s, size_t n) {
    if (b->nbig == b->big_cap) {
        size_t cap = b->big_cap ? 2 * b->big_cap : 16;
        char **g = cap <= SIZE_MAX / sizeof *g ? realloc(b->big, cap * sizeof *g) : NULL;
        if (!g) return NULL;
        b->big = g;
        b->big_cap = cap;
    }
    char *d = n < SIZE_MAX ? malloc(n + 1) : NULL;
    if (!d) return NULL;
    b->big[b->nbig++] = d;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* A copy of s[0..n) and a NUL, stable until the batch is filled again;
 * NULL when out of memory. Inline: it runs once per scalar on the thread
 * the bake waits for. */
static inline const char *put_text(batch *b, const void *s, size_t n) {
    if (n >= BATCH_TEXT - b->tlen) return put_big(b, s, n);
    char *d = b->text + b->tlen;
    b->tlen += n + 1;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* Event e as a ypipe_event whose strings are e's own. */
static void view_of(const yaml_event_t *e, ypipe_event *r) {
    memset(r, 0, sizeof *r);
    r->type = e->type;
    r->mark = e->start_mark;
    switch (e->type) {
    case YAML_SCALAR_EVENT:
        r->plain = e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        r->length = e->data.scalar.length;
        r->value = (const char *)e->data.scalar.value;
        r->tag = (const char *)e->data.scalar.tag;
        r->anchor = (const char *)e->data.scalar.anchor;
        break;
    case YAML_SEQUENCE_START_EVENT:
        r->tag = (const char *)e->data.sequence_start.tag;
        r->anchor = (const char *)e->data.sequence_start.anchor;
        break;
    case YAML_MAPPING_START_EVENT:
        r->tag = (const char *)e->data.mapping_start.tag;
        r->anchor = (const char *)e->data.mapping_start.anchor;
        break;
    case YAML_ALIAS_EVENT: r->anchor = (const char *)e->data.alias.anchor; break;
    default: break;
    }
}

static bool copy_str(batch *b, const char **s) {
    if (*s) *s = put_text(b, *s, strlen(*s));
    return *s != NULL;
}

/* Copies event e into the batch: a scalar, most of the events, field by
 * field (every field written, nothing cleared first). */
static bool put_event(batch *b, const yaml_event_t *e) {
    ypipe_event *r = &b->ev[b->n];
    if (e->type == YAML_SCALAR_EVENT) {
        r->type = YAML_SCALAR_EVENT;
        r->plain = e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        r->mark = e->start_mark;
        r->length = e->data.scalar.length;
        r->tag = (const char *)e->data.scalar.tag;
        r->anchor = (const char *)e->data.scalar.anchor;
        if (!(r->value = put_text(b, e->data.scalar.value, r->length))) return false;
    } else {
        view_of(e, r);
    }
    if (r->tag && !copy_str(b, &r->tag)) return false;
    if (r->anchor && !copy_str(b, &r->anchor)) return false;
    b->n++;
    return true;
}

/* Counts flow nesting and its budget; false once the budget is used up.
 * A block collection cannot sit inside a flow one, so while the count is
 * above zero every end event closes a flow collection. */
static bool flow_ok(ypipe *q, const yaml_event_t *e) {
    bool flow = (e->type == YAML_SEQUENCE_START_EVENT &&
                 e->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE) ||
                (e->type == YAML_MAPPING_START_EVENT &&
                 e->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE);
    if (flow) q->flow++;
    if (q->flow > YPIPE_FLOW_FREE) {
        q->flow_work += q->flow;
        if (q->flow_work > YPIPE_FLOW_BUDGET) {
            q->deep_mark = e->start_mark;
            return false;
        }
    }
    if ((e->type == YAML_SEQUENCE_END_EVENT || e->type == YAML_MAPPING_END_EVENT) && q->flow)
        q->flow--;
    return true;
}

yaml_mark_t ypipe_deep_mark(const ypipe *q, unsigned *depth) {
    *depth = q->flow;
    return q->deep_mark;
}

/* Parses events into b until it is full or the stream ends. */
static void fill_batch(ypipe *q, batch *b) {
    release(b);
    b->ended = false;
    while (b->n < BATCH_EVENTS && b->tlen < BATCH_TEXT / 2) {
        yaml_event_t e;
        if (!parse_event(q, &e)) {
            b->ended = true;
            b->end = YPIPE_ERROR;
            break;
        }
        /* a scalar changes no nesting: only deep inside flow does it count */
        if ((e.type != YAML_SCALAR_EVENT || q->flow > YPIPE_FLOW_FREE) && !flow_ok(q, &e)) {
            yaml_event_delete(&e);
            b->ended = true;
            b->end = YPIPE_DEEP;
            break;
        }
        bool last = e.type == YAML_STREAM_END_EVENT || e.type == YAML_NO_EVENT;
        bool ok = put_event(b, &e);
        yaml_event_delete(&e);
        if (!ok || last) {
            b->ended = true;
            b->end = ok ? YPIPE_END : YPIPE_NOMEM;
            break;
        }
    }
}

static void parse_ahead(void *arg) {
    ypipe *q = arg;
    for (;;) {
        blobc_os_mutex_lock(&q->mu);
        while (q->slots[q->fill].full && !q->stop) {
            q->parser_waits = true;
            blobc_os_cond_wait(&q->cv, &q->mu);
            q->parser_waits = false;
        }
        bool stop = q->stop;
        blobc_os_mutex_unlock(&q->mu);
        if (stop) break;
        batch *b = &q->slots[q->fill];
        fill_batch(q, b);
        blobc_os_mutex_lock(&q->mu);
        b->full = true;
        if (q->baker_waits) blobc_os_cond_signal(&q->cv);
        blobc_os_mutex_unlock(&q->mu);
        if (b->ended) break;
        q->fill = (q->fill + 1) % q->nslots;
    }
}

ypipe *ypipe_start(yaml_parser_t *p, bool threaded) {
    ypipe *q = calloc(1, sizeof *q);
    if (!q) return NULL;
    q->p = p;
    if (!threaded) return q;
    q->nslots = NSLOTS;
    for (size_t i = 0; i < q->nslots; i++) {
        q->slots[i].ev = malloc(BATCH_EVENTS * sizeof(ypipe_event));
        q->slots[i].text = malloc(BATCH_TEXT);
        if (!q->slots[i].ev || !q->slots[i].text) {
            ypipe_stop(q);
            return NULL;
        }
    }
    if (blobc_os_mutex_init(&q->mu) == 0) {
        if (blobc_os_cond_init(&q->cv) == 0) {
            if (blobc_os_thread_start(&q->thread, parse_ahead, q) == 0) {
                q->threaded = true;
                return q;
            }
            blobc_os_cond_destroy(&q->cv);
        }
        blobc_os_mutex_destroy(&q->mu);
    }
    /* No thread to be had: parse on demand (the batches stay unused). */
    return q;
}

/* Without a thread nothing is copied: the event is shown in place and
 * deleted at the next call. */
static int next_in_place(ypipe *q, const ypipe_event **ev) {
    if (q->holding) yaml_event_delete(&q->held);
    q->holding = false;
    if (q->over) return q->over_how;
    yaml_event_t *e = &q->held;
    if (!parse_event(q, e)) {
        q->over = true;
        return q->over_how = YPIPE_ERROR;
    }
    if (!flow_ok(q, e)) {
        yaml_event_delete(e);
        q->over = true;
        return q->over_how = YPIPE_DEEP;
    }
    q->holding = true;
    if (e->type == YAML_STREAM_END_EVENT || e->type == YAML_NO_EVENT) {
        q->over = true;
        q->over_how = YPIPE_END;
    }
    ypipe_event *r = &q->view;
    view_of(e, r);
    *ev = r;
    return YPIPE_EVENT;
}

/* The batch in hand is used up: the next one, or how the stream ended. */
static int next_batch(ypipe *q, const ypipe_event **ev) {
    for (;;) {
        batch *b = &q->slots[q->read];
        if (q->reading) {
            if (q->cur < q->end) {
                *ev = q->cur++;
                return YPIPE_EVENT;
            }
            if (b->ended) return b->end; /* stays there: the stream is over */
            q->reading = false;
            blobc_os_mutex_lock(&q->mu);
            b->full = false;
            if (q->parser_waits) blobc_os_cond_signal(&q->cv);
            blobc_os_mutex_unlock(&q->mu);
            q->read = (q->read + 1) % q->nslots;
            continue;
        }
        blobc_os_mutex_lock(&q->mu);
        while (!q->slots[q->read].full) {
            q->baker_waits = true;
            blobc_os_cond_wait(&q->cv, &q->mu);
            q->baker_waits = false;
        }
        blobc_os_mutex_unlock(&q->mu);
        q->reading = true;
        q->cur = q->slots[q->read].ev;
        q->end = q->cur + q->slots[q->read].n;
    }
}

int ypipe_next(ypipe *q, const ypipe_event **ev) {
    /* Nearly every call: the next event of the batch in hand. */
    if (q->cur < q->end) {
        *ev = q->cur++;
        return YPIPE_EVENT;
    }
    return q->threaded ? next_batch(q, ev) : next_in_place(q, ev);
}

void ypipe_stop(ypipe *q) {
    if (!q) return;
    if (q->threaded) {
        blobc_os_mutex_lock(&q->mu);
        q->stop = true;
        blobc_os_cond_broadcast(&q->cv);
        blobc_os_mutex_unlock(&q->mu);
        blobc_os_thread_join(&q->thread);
        blobc_os_cond_destroy(&q->cv);
        blobc_os_mutex_destroy(&q->mu);
    }
    if (q->holding) yaml_event_delete(&q->held);
    free_tags(q);
    for (size_t i = 0; i < NSLOTS; i++) {
        release(&q->slots[i]);
        free(q->slots[i].big);
        free(q->slots[i].ev);
        free(q->slots[i].text);
    }
    free(q);
}
