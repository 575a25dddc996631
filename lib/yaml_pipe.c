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
#include "yaml_pipe.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Big batches: handing one over may wake the other thread, and a wake-up
 * costs tens of microseconds on a virtual machine. */
#define BATCH_EVENTS 8192
#define BATCH_TEXT ((size_t)256 * 1024) /* soft: a long scalar may pass it */
#define NSLOTS 3
#define NONE SIZE_MAX

/* One event as kept in a batch: strings are offsets in the batch's text
 * (which may move while the batch fills). */
typedef struct rec {
    uint8_t type;
    uint8_t plain;
    size_t index, line, column;
    size_t value, length, tag, anchor;
} rec;

typedef struct batch {
    rec *ev;
    size_t n;
    char *text;
    size_t tlen, tcap;
    bool ended; /* the last batch: the stream ended, or the parser failed */
    int end;    /* then: YPIPE_END, YPIPE_ERROR or YPIPE_NOMEM */
    bool full; /* handed to the baker, not yet given back */
} batch;

struct ypipe {
    yaml_parser_t *p;
    bool threaded;
    size_t nslots;
    batch slots[NSLOTS];
    size_t fill, read; /* slot the parser fills next, slot the baker reads */
    size_t pos;        /* the baker's next event in slots[read] */
    bool reading;      /* slots[read] is the baker's */
    ypipe_event cur;   /* the event last given out */
    bool stop;
    /* Who sleeps on cv: a thread is woken only when it sleeps. */
    bool parser_waits, baker_waits;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

/* Appends n bytes and a NUL to the batch's text; returns their offset. */
static size_t put_text(batch *b, const void *s, size_t n) {
    if (n >= SIZE_MAX - 1 - b->tlen) return NONE;
    size_t need = b->tlen + n + 1;
    if (need > b->tcap) {
        size_t cap = b->tcap ? b->tcap : BATCH_TEXT;
        while (cap < need) {
            if (cap > SIZE_MAX / 2) return NONE;
            cap *= 2;
        }
        char *t = realloc(b->text, cap);
        if (!t) return NONE;
        b->text = t;
        b->tcap = cap;
    }
    size_t at = b->tlen;
    if (n) memcpy(b->text + at, s, n);
    b->text[at + n] = '\0';
    b->tlen = need;
    return at;
}

static bool put_str(batch *b, const yaml_char_t *s, size_t *at) {
    *at = NONE;
    if (!s) return true;
    *at = put_text(b, s, strlen((const char *)s));
    return *at != NONE;
}

/* Copies event e into the batch. */
static bool put_event(batch *b, const yaml_event_t *e) {
    rec *r = &b->ev[b->n];
    r->type = (uint8_t)e->type;
    r->plain = 0;
    r->index = e->start_mark.index;
    r->line = e->start_mark.line;
    r->column = e->start_mark.column;
    r->value = r->tag = r->anchor = NONE;
    r->length = 0;
    bool ok = true;
    switch (e->type) {
    case YAML_SCALAR_EVENT:
        r->plain = e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        r->length = e->data.scalar.length;
        r->value = put_text(b, e->data.scalar.value, e->data.scalar.length);
        ok = r->value != NONE && put_str(b, e->data.scalar.tag, &r->tag) &&
             put_str(b, e->data.scalar.anchor, &r->anchor);
        break;
    case YAML_SEQUENCE_START_EVENT:
        ok = put_str(b, e->data.sequence_start.tag, &r->tag) &&
             put_str(b, e->data.sequence_start.anchor, &r->anchor);
        break;
    case YAML_MAPPING_START_EVENT:
        ok = put_str(b, e->data.mapping_start.tag, &r->tag) &&
             put_str(b, e->data.mapping_start.anchor, &r->anchor);
        break;
    case YAML_ALIAS_EVENT: ok = put_str(b, e->data.alias.anchor, &r->anchor); break;
    default: break;
    }
    if (ok) b->n++;
    return ok;
}

/* Parses events into b until it is full or the stream ends. */
static void fill_batch(yaml_parser_t *p, batch *b) {
    b->n = 0;
    b->tlen = 0;
    b->ended = false;
    while (b->n < BATCH_EVENTS && b->tlen < BATCH_TEXT) {
        yaml_event_t e;
        if (!yaml_parser_parse(p, &e)) {
            b->ended = true;
            b->end = YPIPE_ERROR;
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

static void *parse_ahead(void *arg) {
    ypipe *q = arg;
    for (;;) {
        pthread_mutex_lock(&q->mu);
        while (q->slots[q->fill].full && !q->stop) {
            q->parser_waits = true;
            pthread_cond_wait(&q->cv, &q->mu);
            q->parser_waits = false;
        }
        bool stop = q->stop;
        pthread_mutex_unlock(&q->mu);
        if (stop) break;
        batch *b = &q->slots[q->fill];
        fill_batch(q->p, b);
        pthread_mutex_lock(&q->mu);
        b->full = true;
        if (q->baker_waits) pthread_cond_signal(&q->cv);
        pthread_mutex_unlock(&q->mu);
        if (b->ended) break;
        q->fill = (q->fill + 1) % q->nslots;
    }
    return NULL;
}

ypipe *ypipe_start(yaml_parser_t *p, bool threaded) {
    ypipe *q = calloc(1, sizeof *q);
    if (!q) return NULL;
    q->p = p;
    q->nslots = threaded ? NSLOTS : 1;
    for (size_t i = 0; i < q->nslots; i++) {
        q->slots[i].ev = malloc(BATCH_EVENTS * sizeof(rec));
        if (!q->slots[i].ev) {
            ypipe_stop(q);
            return NULL;
        }
    }
    if (threaded && pthread_mutex_init(&q->mu, NULL) == 0) {
        if (pthread_cond_init(&q->cv, NULL) == 0) {
            if (pthread_create(&q->thread, NULL, parse_ahead, q) == 0) {
                q->threaded = true;
                return q;
            }
            pthread_cond_destroy(&q->cv);
        }
        pthread_mutex_destroy(&q->mu);
    }
    /* No thread (not wanted, or none to be had): parse on demand. */
    q->nslots = 1;
    return q;
}

int ypipe_next(ypipe *q, const ypipe_event **ev) {
    for (;;) {
        batch *b = &q->slots[q->read];
        if (q->reading) {
            if (q->pos < b->n) {
                const rec *r = &b->ev[q->pos++];
                ypipe_event *e = &q->cur;
                e->type = (yaml_event_type_t)r->type;
                e->plain = r->plain;
                e->mark.index = r->index;
                e->mark.line = r->line;
                e->mark.column = r->column;
                e->value = r->value == NONE ? NULL : b->text + r->value;
                e->length = r->length;
                e->tag = r->tag == NONE ? NULL : b->text + r->tag;
                e->anchor = r->anchor == NONE ? NULL : b->text + r->anchor;
                *ev = e;
                return YPIPE_EVENT;
            }
            if (b->ended) return b->end; /* stays there: the stream is over */
            q->reading = false;
            if (q->threaded) {
                pthread_mutex_lock(&q->mu);
                b->full = false;
                if (q->parser_waits) pthread_cond_signal(&q->cv);
                pthread_mutex_unlock(&q->mu);
                q->read = (q->read + 1) % q->nslots;
            }
            continue;
        }
        if (q->threaded) {
            pthread_mutex_lock(&q->mu);
            while (!q->slots[q->read].full) {
                q->baker_waits = true;
                pthread_cond_wait(&q->cv, &q->mu);
                q->baker_waits = false;
            }
            pthread_mutex_unlock(&q->mu);
        } else {
            fill_batch(q->p, b);
        }
        q->reading = true;
        q->pos = 0;
    }
}

void ypipe_stop(ypipe *q) {
    if (!q) return;
    if (q->threaded) {
        pthread_mutex_lock(&q->mu);
        q->stop = true;
        pthread_cond_broadcast(&q->cv);
        pthread_mutex_unlock(&q->mu);
        pthread_join(q->thread, NULL);
        pthread_cond_destroy(&q->cv);
        pthread_mutex_destroy(&q->mu);
    }
    for (size_t i = 0; i < NSLOTS; i++) {
        free(q->slots[i].ev);
        free(q->slots[i].text);
    }
    free(q);
}
