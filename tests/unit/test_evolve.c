/*
 * test_evolve.c - the library side of compat, upgrade and gen jsonschema:
 * results and lines, the error contract (NULL error pointers, BLOBC_EARG),
 * and an upgrade equal to baking the old values with the new schema.
 */
#include "blobc/blobc.h"
#include "test.h"

static blobc_error err;

static blobc_schema *parse(const char *text) {
    blobc_schema *s = NULL;
    blobc_error_clear(&err);
    if (blobc_schema_parse(text, strlen(text), "t.schema", &s, &err) != BLOBC_OK) return NULL;
    return s;
}

static bool text_is(const blobc_buffer *b, const char *want) {
    return b->len == strlen(want) && memcmp(b->data, want, b->len) == 0;
}

static const char old_text[] = "enum K : u8 { a, b }\n"
                               "struct P { x: f32; k: K = a; n: u16; }\n"
                               "root P;\n";

TEST(compat_lines_and_counts) {
    blobc_schema *o = parse(old_text);
    blobc_schema *n = parse("enum K : u8 { a, b }\n"
                            "struct Q { x: f32; kind: K = a; n: u32; }\n"
                            "root Q;\n");
    if (!o || !n) FAILF("%s", err.message);
    blobc_buffer out = {0};
    blobc_compat_result r;
    CHECK_EQ_I(blobc_compat(blobc_schema_root(o), blobc_schema_root(n), n, &out, &r, NULL), BLOBC_OK);
    /* the struct's size, k removed and kind added (values go by name, so
     * the same offset and type is no rename), n moved and retyped */
    CHECK_EQ_U(r.changes, 5);
    CHECK_EQ_U(r.notes, 1); /* P is now Q */
    CHECK(text_is(&out, "note: (root): struct P is now called Q\n"
                        "(root): struct P: size changed from 8 to 12\n"
                        "k: removed (was K at offset 4)\n"
                        "n: moved from offset 6 to 8\n"
                        "kind: added (K at offset 4)\n"
                        "n: retyped from u16 to u32 (size 2 to 4)\n"));
    blobc_buffer_free(&out);
    /* with a P still in the new schema, Q is another root */
    blobc_schema *n2 = parse("struct P { x: f32; }\nstruct Q { x: f32; kind: u8; n: u32; }\nroot Q;\n");
    if (!n2) FAILF("%s", err.message);
    CHECK_EQ_I(blobc_compat(blobc_schema_root(o), blobc_schema_root(n2), n2, &out, &r, NULL), BLOBC_OK);
    CHECK(out.len > 40 && memcmp(out.data, "(root): root type changed from P to Q\n", 38) == 0);
    blobc_buffer_free(&out);
    blobc_schema_free(n2);
    CHECK_EQ_I(blobc_compat(NULL, blobc_schema_root(n), n, &out, &r, &err), BLOBC_EARG);
    CHECK_EQ_U(out.len, 0);
    blobc_schema_free(o);
    blobc_schema_free(n);
}

TEST(upgrade_equals_rebake) {
    blobc_schema *o = parse(old_text);
    blobc_schema *n = parse("enum K : u16 { b = 7, a }\n"
                            "struct P { n: u64; extra: i8 = -1; k: K = a; x: f64; }\n"
                            "root P;\n");
    if (!o || !n) FAILF("%s", err.message);
    blobc_bake_options bo = {0};
    bo.schema = o;
    blobc_buffer old_blob = {0}, up = {0}, want = {0};
    const char *data = "x: 0.25\nk: b\nn: 65535\n";
    CHECK_EQ_I(blobc_bake_memory(data, strlen(data), "d.yaml", &bo, &old_blob, &err), BLOBC_OK);
    blobc_upgrade_options uo = {0};
    uo.schema = n;
    uo.schema_name = "new.schema";
    CHECK_EQ_I(blobc_upgrade(old_blob.data, old_blob.len, &uo, &up, NULL), BLOBC_OK);
    const char *again = "$schema: new.schema\nx: 0.25\nk: b\nn: 65535\n";
    bo.schema = n;
    CHECK_EQ_I(blobc_bake_memory(again, strlen(again), "d.yaml", &bo, &want, &err), BLOBC_OK);
    CHECK_EQ_U(up.len, want.len);
    CHECK(memcmp(up.data, want.data, up.len) == 0);
    /* refusals name the path */
    blobc_schema *bad = parse("struct P { x: f32; n: u16; w: f32; }\nroot P;\n");
    if (!bad) FAILF("%s", err.message);
    uo.schema = bad;
    blobc_buffer none = {0};
    blobc_error_clear(&err);
    CHECK_EQ_I(blobc_upgrade(old_blob.data, old_blob.len, &uo, &none, &err), BLOBC_EINPUT);
    CHECK_STR(err.path, "k");
    CHECK_CONTAINS(err.message, "--drop");
    CHECK_EQ_U(none.len, 0);
    CHECK_EQ_I(blobc_upgrade(NULL, 0, &uo, &none, &err), BLOBC_EARG);
    blobc_buffer_free(&old_blob);
    blobc_buffer_free(&up);
    blobc_buffer_free(&want);
    blobc_schema_free(bad);
    blobc_schema_free(o);
    blobc_schema_free(n);
}

/* Maps, optionals and tagged unions: compat sees into a map's values and
 * keys; upgrade carries them over as a rebake of the same values does. */
TEST(new_types) {
    blobc_schema *o = parse("struct P { x: i32; }\nstruct Q { q: u8; }\n"
                            "union U by \"t\" { \"p\": P, \"q\": Q }\n"
                            "struct R { m: [string: P]; k: [u8: i8]; o: ?u16; u: U; a: any; }\nroot R;\n");
    blobc_schema *n = parse("struct P { x: i64; y: u8 = 2; }\nstruct Q { q: u8; }\n"
                            "union U by \"t\" { \"p\": P, \"q\": Q }\n"
                            "struct R { m: [string: P]; k: [u8: i8]; o: u16 = 4; u: U; a: any; }\nroot R;\n");
    blobc_schema *badkey = parse("struct P { x: i32; }\nstruct Q { q: u8; }\n"
                                 "union U by \"t\" { \"p\": P, \"q\": Q }\n"
                                 "struct R { m: [string: P]; k: [i8: i8]; o: ?u16; u: U; a: any; }\nroot R;\n");
    if (!o || !n || !badkey) FAILF("%s", err.message);
    blobc_buffer out = {0};
    blobc_compat_result r;
    CHECK_EQ_I(blobc_compat(blobc_schema_root(o), blobc_schema_root(n), n, &out, &r, NULL), BLOBC_OK);
    CHECK(r.changes >= 4);
    char txt[2048];
    snprintf(txt, sizeof txt, "%.*s", (int)out.len, (const char *)out.data);
    CHECK_CONTAINS(txt, "m{}: struct P: size changed from 4 to 16\n");
    CHECK_CONTAINS(txt, "o: no longer optional (?u16 to u16, size 4 to 2)\n");
    blobc_buffer_free(&out);
    CHECK_EQ_I(blobc_compat(blobc_schema_root(o), blobc_schema_root(badkey), badkey, &out, &r, NULL), BLOBC_OK);
    CHECK_EQ_U(r.changes, 1);
    CHECK(text_is(&out, "k: map key retyped from u8 to i8\n"));
    blobc_buffer_free(&out);

    blobc_bake_options bo = {0};
    bo.schema = o;
    blobc_buffer old_blob = {0}, up = {0}, want = {0};
    const char *data = "m: {b: {x: -1}, a: {x: 5}}\nk: {9: -9, 1: 1}\nu: {t: q, q: 7}\na: [1, {}, []]\n";
    CHECK_EQ_I(blobc_bake_memory(data, strlen(data), "d.yaml", &bo, &old_blob, &err), BLOBC_OK);
    blobc_upgrade_options uo = {0};
    uo.schema = n;
    uo.schema_name = "new.schema";
    CHECK_EQ_I(blobc_upgrade(old_blob.data, old_blob.len, &uo, &up, &err), BLOBC_OK);
    const char *again = "$schema: new.schema\nm: {a: {x: 5}, b: {x: -1}}\nk: {1: 1, 9: -9}\n"
                        "u: {t: q, q: 7}\na: [1, {}, []]\n";
    bo.schema = n;
    CHECK_EQ_I(blobc_bake_memory(again, strlen(again), "d.yaml", &bo, &want, &err), BLOBC_OK);
    CHECK_EQ_U(up.len, want.len);
    CHECK(up.len == want.len && memcmp(up.data, want.data, up.len) == 0);
    blobc_buffer none = {0};
    uo.schema = badkey;
    CHECK_EQ_I(blobc_upgrade(old_blob.data, old_blob.len, &uo, &none, &err), BLOBC_EINPUT);
    CHECK_STR(err.path, "k");
    CHECK_CONTAINS(err.message, "keys do not convert");
    blobc_buffer_free(&old_blob);
    blobc_buffer_free(&up);
    blobc_buffer_free(&want);
    blobc_schema_free(badkey);
    blobc_schema_free(o);
    blobc_schema_free(n);
}

TEST(jsonschema_contract) {
    blobc_schema *o = parse(old_text);
    if (!o) FAILF("%s", err.message);
    blobc_buffer out = {0};
    CHECK_EQ_I(blobc_gen_jsonschema(o, NULL, &out, NULL), BLOBC_OK);
    CHECK(out.len > 0 && out.data[out.len - 1] == '\n');
    blobc_buffer_free(&out);
    CHECK_EQ_I(blobc_gen_jsonschema(o, "K", &out, &err), BLOBC_EINPUT);
    CHECK_EQ_U(out.len, 0);
    CHECK_EQ_I(blobc_gen_jsonschema(NULL, NULL, &out, &err), BLOBC_EARG);
    blobc_schema_free(o);
}

TEST_MAIN_BEGIN("evolve")
RUN(compat_lines_and_counts);
RUN(upgrade_equals_rebake);
RUN(new_types);
RUN(jsonschema_contract);
TEST_MAIN_END
