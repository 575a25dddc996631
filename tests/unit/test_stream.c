/*
 * test_stream.c - the walker's value stream (common/stream.h) event by
 * event: the order, typed scalars, share ids on first appearances and
 * references after, a replay on request; and the fill consuming a stream
 * giving the blob it came from.
 */
#include <string.h>

#include "blobc/blobc.h"
#include "blobc/pipeline.h" /* its events and the stream's share no name */
#include "common/stream.h"
#include "common/buffer.h"
#include "test.h"

static const char schema_text[] = "enum K : u8 { a, b = 7 }\n"
                                  "struct M { s: string; }\n"
                                  "struct R { k: K; f: [f32; 2]; m: *M; n: *M; t: [string]; "
                                  "u: [string]; }\n"
                                  "root R;\n";

static const char data_text[] = "k: b\n"
                                "f: [0.5, -1]\n"
                                "m: &m {s: &s hi}\n"
                                "n: *m\n"
                                "t: [*s, x]\n"
                                "u: []\n";

static blobc_schema *g_schema;
static blobc_buffer g_blob;
static blobc_error err;

/* The events as one line of text: enough to see order and sharing. */
static void render(const blobc_value_event *ev, blobc_buffer *out) {
    char text[64];
    switch (ev->kind) {
    case BLOBC_EV_END: blobc_buf_puts(out, "END"); break;
    case BLOBC_EV_BEGIN_STRUCT: blobc_buf_puts(out, "{"); break;
    case BLOBC_EV_END_STRUCT: blobc_buf_puts(out, "}"); break;
    case BLOBC_EV_FIELD: blobc_buf_printf(out, "%s:", ev->field->name); break;
    case BLOBC_EV_BEGIN_SEQ: blobc_buf_printf(out, "[%u", (unsigned)ev->count); break;
    case BLOBC_EV_END_SEQ: blobc_buf_puts(out, "]"); break;
    case BLOBC_EV_ITEM: blobc_buf_printf(out, "#%u", (unsigned)ev->count); break;
    case BLOBC_EV_NULL: blobc_buf_puts(out, "null"); break;
    case BLOBC_EV_PTR: blobc_buf_puts(out, "ptr"); break;
    case BLOBC_EV_REF: blobc_buf_printf(out, "ref%u", (unsigned)ev->share); break;
    case BLOBC_EV_SCALAR:
        blobc_sval_text(ev->type, &ev->v, text, sizeof text);
        blobc_buf_printf(out, "%s", text);
        break;
    }
    if (ev->share && ev->kind != BLOBC_EV_REF) blobc_buf_printf(out, "=%u", (unsigned)ev->share);
    blobc_buf_putc(out, ' ');
}

static void setup(void) {
    if (blobc_schema_parse(schema_text, strlen(schema_text), "t.schema", &g_schema, &err))
        FAILF("%s", err.message);
    blobc_bake_options o = {0};
    o.schema = g_schema;
    if (blobc_bake_memory(data_text, strlen(data_text), "t.yaml", &o, &g_blob, &err))
        FAILF("%s", err.message);
}

TEST(events_in_field_order) {
    blobc_rstream *s = NULL;
    CHECK_EQ_I(blobc_rstream_open(g_blob.data, g_blob.len, NULL, NULL, &s, &err), BLOBC_OK);
    if (!s) return;
    CHECK_STR(blobc_rstream_root(s)->name, "R");
    blobc_buffer out = {0};
    blobc_value_event ev;
    for (int i = 0; i < 100; i++) {
        if (blobc_rstream_next(s, &ev) != BLOBC_OK) FAILF("next failed");
        render(&ev, &out);
        if (ev.kind == BLOBC_EV_END) break;
        /* the first reference to the shared *M is replayed once, as its
         * first appearance */
        if (ev.kind == BLOBC_EV_REF && ev.share == 1 && out.len < 60) {
            CHECK_EQ_I(blobc_rstream_expand(s), BLOBC_OK);
            blobc_buf_puts(&out, "/ ");
        }
    }
    blobc_buf_putc(&out, '\0');
    CHECK_STR((const char *)out.data,
              "{ k: b f: [2 #0 0.5 #1 -1.0 ] m: ptr=1 { s: hi=2 } n: ref1 / ptr=1 { s: ref2 } "
              "t: [2 #0 ref2 #1 x ] u: null } END ");
    blobc_buffer_free(&out);
    blobc_rstream_free(s);
    CHECK_EQ_I(blobc_rstream_open("nope", 4, NULL, NULL, &s, &err), BLOBC_EINPUT);
    CHECK(s == NULL);
}

/* The fill, pulling the walker's stream, gives back the very bytes. */
TEST(fill_from_stream_is_the_identity) {
    blobc_rstream *s = NULL;
    CHECK_EQ_I(blobc_rstream_open(g_blob.data, g_blob.len, NULL, NULL, &s, &err), BLOBC_OK);
    if (!s) return;
    blobc_bake_options o = {0};
    o.schema = g_schema;
    blobc_buffer out = {0};
    CHECK_EQ_I(blobc_bake_stream(blobc_rstream_next, s, &o, "", NULL, &out, &err), BLOBC_OK);
    CHECK(out.len == g_blob.len && memcmp(out.data, g_blob.data, out.len) == 0);
    blobc_buffer_free(&out);
    blobc_rstream_free(s);
}

TEST_MAIN_BEGIN("stream")
setup();
RUN(events_in_field_order);
RUN(fill_from_stream_is_the_identity);
blobc_buffer_free(&g_blob);
blobc_schema_free(g_schema);
TEST_MAIN_END
