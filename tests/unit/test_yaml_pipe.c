/*
 * test_yaml_pipe.c - the event pipe on its own, both ways (parsed on
 * demand, and on a thread ahead): every event libyaml gives, in order and
 * with the same contents, across many batches; the end and a parse
 * error, each reported again on every later call; and stopping early,
 * with the parsing thread still ahead, never hangs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "bake/yaml_pipe.h"

/* n mappings with a tagged, anchored and aliased node each. */
static char *doc(int n, size_t *len) {
    size_t cap = (size_t)n * 80 + 64;
    char *d = malloc(cap);
    if (!d) return NULL;
    size_t o = 0;
    for (int i = 0; i < n; i++)
        o += (size_t)snprintf(d + o, cap - o, "- {k%d: &a%d !t \"v\\t%d\", r: *a%d, s: [%d, 'x']}\n",
                              i, i, i, i, i);
    *len = o;
    return d;
}

/* Checks the pipe's events against libyaml's own, all of them. */
static void compare(const char *text, size_t len, bool threaded, int want_end) {
    yaml_parser_t direct, piped;
    CHECK(yaml_parser_initialize(&direct) && yaml_parser_initialize(&piped));
    yaml_parser_set_input_string(&direct, (const unsigned char *)text, len);
    yaml_parser_set_input_string(&piped, (const unsigned char *)text, len);
    ypipe *q = ypipe_start(&piped, threaded);
    CHECK(q != NULL);
    if (!q) return;
    size_t n = 0, bad = 0;
    int r;
    const ypipe_event *e;
    while ((r = ypipe_next(q, &e)) == YPIPE_EVENT) {
        yaml_event_t d;
        if (!yaml_parser_parse(&direct, &d)) {
            bad++;
            break;
        }
        bool same = e->type == d.type && e->mark.index == d.start_mark.index &&
                    e->mark.line == d.start_mark.line && e->mark.column == d.start_mark.column;
        const unsigned char *tag = NULL, *anchor = NULL;
        if (d.type == YAML_SCALAR_EVENT) {
            same = same && e->length == d.data.scalar.length &&
                   memcmp(e->value, d.data.scalar.value, e->length) == 0 &&
                   e->plain == (d.data.scalar.style == YAML_PLAIN_SCALAR_STYLE);
            tag = d.data.scalar.tag;
            anchor = d.data.scalar.anchor;
        } else if (d.type == YAML_MAPPING_START_EVENT) {
            tag = d.data.mapping_start.tag;
            anchor = d.data.mapping_start.anchor;
        } else if (d.type == YAML_SEQUENCE_START_EVENT) {
            tag = d.data.sequence_start.tag;
            anchor = d.data.sequence_start.anchor;
        } else if (d.type == YAML_ALIAS_EVENT) {
            anchor = d.data.alias.anchor;
        }
        same = same && (tag ? e->tag && strcmp(e->tag, (const char *)tag) == 0 : !e->tag) &&
               (anchor ? e->anchor && strcmp(e->anchor, (const char *)anchor) == 0 : !e->anchor);
        if (!same) bad++;
        yaml_event_delete(&d);
        n++;
    }
    CHECK_EQ_U(bad, 0);
    CHECK_EQ_I(r, want_end);
    /* The end is said again, however often asked. */
    CHECK_EQ_I(ypipe_next(q, &e), want_end);
    CHECK_EQ_I(ypipe_next(q, &e), want_end);
    if (want_end == YPIPE_ERROR) {
        yaml_event_t d;
        CHECK(!yaml_parser_parse(&direct, &d));
        CHECK_EQ_U(piped.problem_mark.index, direct.problem_mark.index);
        CHECK_STR(piped.problem, direct.problem);
    } else {
        CHECK(n > 0);
    }
    ypipe_stop(q);
    yaml_parser_delete(&direct);
    yaml_parser_delete(&piped);
}

TEST(same_events_both_ways) {
    size_t len;
    char *d = doc(30000, &len); /* about 60 batches */
    CHECK(d != NULL);
    if (!d) return;
    compare(d, len, false, YPIPE_END);
    compare(d, len, true, YPIPE_END);
    compare("a: 1\n", 5, false, YPIPE_END);
    compare("a: 1\n", 5, true, YPIPE_END);
    compare("", 0, true, YPIPE_END);
    /* A parse error after many batches. */
    d[len - 2] = ']'; /* the last line's closing brace */
    compare(d, len, false, YPIPE_ERROR);
    compare(d, len, true, YPIPE_ERROR);
    compare("a: [1\n", 6, true, YPIPE_ERROR);
    free(d);
}

TEST(stop_early) {
    size_t len;
    char *d = doc(30000, &len);
    CHECK(d != NULL);
    if (!d) return;
    for (int threaded = 0; threaded < 2; threaded++) {
        for (int take = 0; take < 3; take++) {
            yaml_parser_t p;
            CHECK(yaml_parser_initialize(&p));
            yaml_parser_set_input_string(&p, (const unsigned char *)d, len);
            ypipe *q = ypipe_start(&p, threaded == 1);
            CHECK(q != NULL);
            const ypipe_event *e;
            for (int i = 0; i < take * 9000; i++) CHECK_EQ_I(ypipe_next(q, &e), YPIPE_EVENT);
            ypipe_stop(q); /* returns: the test would hang otherwise */
            yaml_parser_delete(&p);
        }
    }
    free(d);
}

TEST_MAIN_BEGIN("yaml_pipe")
    RUN(same_events_both_ways);
    RUN(stop_early);
TEST_MAIN_END
