/*
 * test_verify_checks.c - BLOBC_VERIFY_CHECKS through the API: a blob baked
 * with a schema without checks fails against the same layout with checks,
 * with code, offset, path and the bake's message; without the flag (or a
 * schema) nothing is judged; a sink hears every failure up to its limit
 * and counts the rest; without a sink the first failure ends the verify.
 */
#include <stdlib.h>
#include <string.h>

#include "blobc/blobc.h"
#include "test.h"

/* One layout, with and without checks, and data that fails four. */
#define ROOT "struct R { ps: [P]; }\nroot R;\n"
static const char LOOSE[] = "struct P { x: i32; name: string; tags: [string]; }\n" ROOT;
static const char STRICT[] =
    "struct P { @range(0, 9) x: i32; @match(\"^[a-z]+$\") name: string; @unique @len(, 2) tags: [string]; }\n" ROOT;
static const char DATA[] = "ps:\n  - {x: 1, name: ok, tags: [a]}\n  - {x: 12, name: Bad, tags: [a, b, a]}\n";

static blobc_schema *parse(const char *text) {
    blobc_schema *s = NULL;
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_schema_parse(text, strlen(text), "t.schema", &s, &err) != BLOBC_OK) return NULL;
    return s;
}

/* DATA baked with the loose schema. */
static bool bake(blobc_buffer *out) {
    blobc_schema *loose = parse(LOOSE);
    blobc_bake_options bo = {0};
    bo.schema = loose;
    blobc_error err;
    blobc_error_clear(&err);
    bool ok = loose && blobc_bake_memory(DATA, sizeof DATA - 1, "d.yaml", &bo, out, &err) == BLOBC_OK;
    blobc_schema_free(loose);
    return ok;
}

typedef struct heard {
    int n;
    blobc_error e[8];
} heard;

static void hear(void *ctx, const blobc_error *e) {
    heard *h = ctx;
    if (h->n < 8) h->e[h->n] = *e;
    h->n++;
}

TEST(every_failure_heard) {
    blobc_buffer b = {0};
    blobc_schema *strict = parse(STRICT);
    CHECK(strict && bake(&b));
    if (!strict || !b.len) return;
    heard h = {0};
    blobc_check_sink sink = {hear, &h, 0, 0};
    blobc_verify_options o = {0};
    o.schema = strict;
    o.flags = BLOBC_VERIFY_CHECKS;
    o.checks = &sink;
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_verify_blob(b.data, b.len, &o, &err), BLOBC_EINPUT);
    CHECK_EQ_I(err.code, BLOBC_V_CHECK);
    CHECK_STR(blobc_verify_code_name(err.code), "value-check");
    CHECK_STR(err.path, "ps[1].x");
    CHECK_STR(err.message, "12 is out of @range(0, 9)");
    CHECK(err.has_offset && err.offset > 96);
    CHECK_EQ_I(h.n, 4);
    if (h.n == 4) {
        CHECK_STR(h.e[1].path, "ps[1].name");
        CHECK_STR(h.e[1].message, "\"Bad\" does not match @match(\"^[a-z]+$\")");
        CHECK_STR(h.e[2].path, "ps[1].tags");
        CHECK_STR(h.e[2].message, "3 items, outside @len(, 2)");
        CHECK_STR(h.e[3].path, "ps[1].tags[2]");
        CHECK_STR(h.e[3].message, "\"a\" repeats item 0 (@unique)");
        CHECK(h.e[3].offset > h.e[0].offset); /* canonical order */
    }
    CHECK_EQ_U(sink.suppressed, 0);

    /* a limit: two heard, two counted */
    h.n = 0;
    sink.max_errors = 2;
    CHECK_EQ_I(blobc_verify_blob(b.data, b.len, &o, &err), BLOBC_EINPUT);
    CHECK_EQ_I(h.n, 2);
    CHECK_EQ_U(sink.suppressed, 2);

    /* no sink: the first failure only */
    o.checks = NULL;
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_verify_blob(b.data, b.len, &o, &err), BLOBC_EINPUT);
    CHECK_STR(err.path, "ps[1].x");

    /* without the flag, or without a schema, nothing is judged */
    o.flags = 0;
    CHECK_EQ_I(blobc_verify_blob(b.data, b.len, &o, &err), BLOBC_OK);
    o.flags = BLOBC_VERIFY_CHECKS;
    o.schema = NULL;
    CHECK_EQ_I(blobc_verify_blob(b.data, b.len, &o, &err), BLOBC_OK);
    blobc_buffer_free(&b);
    blobc_schema_free(strict);
}

TEST_MAIN_BEGIN("verify_checks_api")
RUN(every_failure_heard);
TEST_MAIN_END
