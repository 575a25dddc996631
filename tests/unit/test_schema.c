/*
 * test_schema.c - the schema language, the layout engine and the schema
 * hash: parsing every construct, layouts checked against the C compiler,
 * interning, errors with positions (including the tests/bad/schema
 * corpus), hand-built graphs as the type-section decoder makes them
 * (hostile ones included), lookups, spelling and the check report.
 */
#include <dirent.h>
#include <math.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <xxhash.h>

#include "blobc/blobfile.h"
#include "schema/schema_internal.h"
#include "test.h"

static blobc_error err;
static char fmt[4096];

static blobc_schema *parse(const char *text) {
    blobc_schema *s = NULL;
    blobc_error_clear(&err);
    if (blobc_schema_parse(text, strlen(text), "t.schema", &s, &err) != BLOBC_OK) {
        blobc_error_format(&err, fmt, sizeof fmt);
        return NULL;
    }
    fmt[0] = '\0';
    return s;
}

/* Parses text that must fail; leaves the formatted error in fmt. */
static bool parse_fails(const char *text) {
    blobc_schema *s = parse(text);
    if (s) {
        blobc_schema_free(s);
        return false;
    }
    return true;
}

static const char *first_line(void) {
    static char line[2048];
    size_t n = strcspn(fmt, "\n");
    if (n >= sizeof line) n = sizeof line - 1;
    memcpy(line, fmt, n);
    line[n] = '\0';
    return line;
}

static const blobc_field *field(const blobc_type *st, const char *name) {
    return blobc_struct_find_field(st, name, strlen(name));
}

/* ---- parsing ---- */

static const char *level_schema =
    "// a level\n"
    "enum Kind : u8 { floor, wall, door = 5, stairs }   // values count up\n"
    "struct Vec3 { x: f32; y: f32; z: f32; }\n"
    "struct Room {\n"
    "    id: u32;\n"
    "    name: string;\n"
    "    kind: Kind = floor;\n"
    "    center: Vec3;\n"
    "    radius: f32 = 1.0;\n"
    "    weights: [f32; 4];\n"
    "    neighbors: [u32];\n"
    "    tags: [string];\n"
    "    meta: *RoomMeta;\n"
    "    lit: bool = true;\n"
    "    spawns: [Vec3];\n"
    "}\n"
    "/* declared after its use */\n"
    "struct RoomMeta { note: string; }\n"
    "struct Level { index: i32; name: string; size_m: f32; rooms: [Room]; }\n"
    "root Level;\n";

TEST(parse_level) {
    blobc_schema *s = parse(level_schema);
    if (!s) FAILF("%s", fmt);
    CHECK_EQ_U(blobc_schema_count(s), 5);
    CHECK_STR(blobc_schema_at(s, 0)->name, "Kind");
    CHECK_STR(blobc_schema_at(s, 3)->name, "RoomMeta");
    CHECK(blobc_schema_at(s, 5) == NULL);
    CHECK_STR(blobc_schema_filename(s), "t.schema");
    const blobc_type *level = blobc_schema_find(s, "Level");
    CHECK(level && level == blobc_schema_root(s));
    CHECK(blobc_schema_find(s, "level") == NULL);
    CHECK(blobc_schema_find(s, "u32") == NULL);
    const blobc_type *kind = blobc_schema_find(s, "Kind");
    CHECK_EQ_U(kind->kind, BLOBC_KIND_ENUM);
    CHECK(kind->elem == blobc_builtin_type(BLOBC_KIND_U8));
    CHECK_EQ_U(kind->nvalues, 4);
    CHECK_STR(kind->values[3].name, "stairs");
    CHECK_EQ_U(kind->values[0].value, 0);
    CHECK_EQ_U(kind->values[1].value, 1);
    CHECK_EQ_U(kind->values[2].value, 5);
    CHECK_EQ_U(kind->values[3].value, 6);
    CHECK_EQ_U(kind->pos.line, 2);
    CHECK_EQ_U(kind->pos.column, 6);
    const blobc_type *room = blobc_schema_find(s, "Room");
    CHECK_EQ_U(room->nfields, 11);
    CHECK_EQ_U(room->size, 80);
    CHECK_EQ_U(room->align, 4);
    const blobc_field *f = field(room, "kind");
    CHECK(f && f->type == kind && f->def.present && f->def.bits == 0);
    CHECK_EQ_U(f->offset, 12);
    CHECK_EQ_U(f->pos.line, 7);
    CHECK_EQ_U(f->pos.column, 5);
    f = field(room, "meta");
    CHECK_EQ_U(f->type->kind, BLOBC_KIND_PTR);
    CHECK(f->type->elem == blobc_schema_find(s, "RoomMeta"));
    CHECK(field(room, "id")->type == blobc_builtin_type(BLOBC_KIND_U32));
    CHECK(field(room, "name")->type == blobc_builtin_type(BLOBC_KIND_STRING));
    CHECK(!field(room, "id")->def.present);
    CHECK(field(room, "lit")->def.present && field(room, "lit")->def.bits == 1);
    CHECK(field(room, "radius")->def.f == 1.0);
    CHECK_EQ_U(level->size, 24);
    blobc_schema_free(s);
}

TEST(parse_syntax_details) {
    /* BOM, CRLF, comments in odd places, a ';' after '}', trailing comma,
     * root before the struct it names, a // comment ending the file. */
    blobc_schema *s = parse("\xEF\xBB\xBF"
                            "root /* here */ B;\r\n"
                            "enum E : i16 { a = -3, b, c = 0x10, d = 1_000, e = -0b111, }\r\n"
                            "struct B{x:u8;y:[E;2];}; // done");
    if (!s) FAILF("%s", fmt);
    const blobc_type *e = blobc_schema_find(s, "E");
    CHECK_EQ_U(e->values[0].value, (uint64_t)-3);
    CHECK_EQ_U(e->values[1].value, (uint64_t)-2);
    CHECK_EQ_U(e->values[2].value, 16);
    CHECK_EQ_U(e->values[3].value, 1000);
    CHECK_EQ_U(e->values[4].value, (uint64_t)-7);
    CHECK(blobc_schema_root(s) == blobc_schema_find(s, "B"));
    CHECK_EQ_U(blobc_schema_find(s, "B")->size, 6);
    blobc_schema_free(s);
}

TEST(parse_enum_values) {
    blobc_schema *s = parse("enum A : i8 { lo = -128, next, top = 127 }\n"
                            "enum B : u64 { big = 18446744073709551614, last }\n"
                            "enum C : i64 { min = -9223372036854775808, after }\n"
                            "enum D : u8 { only = 255 }\n"
                            "enum F : i32 { m1 = -1, zero }\n");
    if (!s) FAILF("%s", fmt);
    const blobc_type *a = blobc_schema_find(s, "A");
    CHECK_EQ_U(a->values[0].value, 0xffffffffffffff80ull);
    CHECK_EQ_U(a->values[1].value, 0xffffffffffffff81ull);
    CHECK_EQ_U(a->size, 1);
    const blobc_type *b = blobc_schema_find(s, "B");
    CHECK_EQ_U(b->values[1].value, UINT64_MAX);
    CHECK_EQ_U(b->size, 8);
    CHECK_EQ_U(b->align, 8);
    const blobc_type *c = blobc_schema_find(s, "C");
    CHECK_EQ_U(c->values[1].value, 0x8000000000000001ull);
    const blobc_type *f = blobc_schema_find(s, "F");
    CHECK_EQ_U(f->values[1].value, 0);
    blobc_schema_free(s);
    CHECK(parse_fails("enum B : u64 { last = 18446744073709551615, over }"));
    CHECK_CONTAINS(fmt, "t.schema:1:45: error: enum B, member 'over': the value after "
                        "18446744073709551615 is out of u64 range 0..18446744073709551615");
    CHECK(parse_fails("enum E : i16 { a = -3, b = -0b11 }"));
    CHECK_STR(first_line(), "t.schema:1:24: error: enum E: members 'a' and 'b' both have the value -3");
}

TEST(parse_defaults) {
    blobc_schema *s = parse(
        "enum K : i8 { neg = -2, pos = 3 }\n"
        "struct D {\n"
        "  a: i64 = -9223372036854775808;\n"
        "  b: u64 = 0xffff_ffff_ffff_ffff;\n"
        "  c: f32 = 0.1;\n"
        "  d: f64 = -.inf;\n"
        "  e: f32 = .nan;\n"
        "  f: bool = false;\n"
        "  g: K = neg;\n"
        "  h: string = \"a\\\"b\\\\c\\n\\t\\r\\u{1F600}\\u00e9 \xc3\xa9\";\n"
        "  i: string = \"\";\n"
        "  j: i8 = -0;\n"
        "  k: u16 = 0o777;\n"
        "  l: f64 = 1_000.5;\n"
        "  m: f32 = 3;\n"
        "}\n");
    if (!s) FAILF("%s", fmt);
    const blobc_type *d = blobc_schema_find(s, "D");
    CHECK_EQ_U(field(d, "a")->def.bits, 0x8000000000000000ull);
    CHECK_EQ_U(field(d, "b")->def.bits, UINT64_MAX);
    CHECK(field(d, "c")->def.f == (double)0.1f);
    CHECK(isinf(field(d, "d")->def.f) && field(d, "d")->def.f < 0);
    CHECK(isnan(field(d, "e")->def.f));
    CHECK(field(d, "f")->def.present);
    CHECK_EQ_U(field(d, "f")->def.bits, 0);
    CHECK_EQ_U(field(d, "g")->def.bits, (uint64_t)-2);
    const blobc_default *h = &field(d, "h")->def;
    static const char want[] = "a\"b\\c\n\t\r\xF0\x9F\x98\x80\xC3\xA9 \xC3\xA9";
    CHECK_EQ_U(h->str_len, sizeof want - 1);
    CHECK(memcmp(h->str, want, sizeof want - 1) == 0);
    CHECK_EQ_U(h->str[h->str_len], 0);
    CHECK(field(d, "i")->def.present);
    CHECK_EQ_U(field(d, "i")->def.str_len, 0);
    CHECK_EQ_U(field(d, "j")->def.bits, 0);
    CHECK_EQ_U(field(d, "k")->def.bits, 511);
    CHECK(field(d, "l")->def.f == 1000.5);
    CHECK(field(d, "m")->def.f == 3.0);
    blobc_schema_free(s);
}

TEST(parse_empty_and_comment_only) {
    blobc_schema *s = parse("");
    if (!s) FAILF("%s", fmt);
    CHECK_EQ_U(blobc_schema_count(s), 0);
    CHECK(blobc_schema_root(s) == NULL);
    blobc_schema_free(s);
    s = parse("// nothing\n/* at all */\n");
    if (!s) FAILF("%s", fmt);
    blobc_schema_free(s);
    blobc_error_clear(&err);
    CHECK_EQ_U(blobc_schema_parse(NULL, 0, "n.schema", &s, &err), BLOBC_OK);
    blobc_schema_free(s);
}

TEST(doc_comments_are_kept) {
    blobc_schema *s = parse("//// a banner, not a doc\n"
                            "/// A point.\n"
                            "///\n"
                            "///Second paragraph.\r\n"
                            "// a plain comment between is skipped\n"
                            "@align(8) struct P {\n"
                            "    /// Across.\n"
                            "    x: f32;\n"
                            "    y: f32; /// after code: belongs to nothing\n"
                            "    /// Up.\n"
                            "    z: f32;\n"
                            "}\n"
                            "enum E : u8 {\n"
                            "    /// The first.\n"
                            "    a,\n"
                            "    b\n"
                            "}\n"
                            "/// A choice.\n"
                            "union U {\n"
                            "    /// A point.\n"
                            "    P,\n"
                            "}\n"
                            "/// Ignored: nothing follows it.\n");
    if (!s) FAILF("%s", fmt);
    const blobc_type *p = blobc_schema_find(s, "P");
    CHECK(p != NULL);
    CHECK_STR(p->doc, "A point.\n\nSecond paragraph.");
    CHECK_STR(p->fields[0].doc, "Across.");
    CHECK(p->fields[1].doc == NULL);
    CHECK_STR(p->fields[2].doc, "Up.");
    const blobc_type *e = blobc_schema_find(s, "E");
    CHECK(e->doc == NULL);
    CHECK_STR(e->values[0].doc, "The first.");
    CHECK(e->values[1].doc == NULL);
    const blobc_type *u = blobc_schema_find(s, "U");
    CHECK(u != NULL);
    CHECK_STR(u->doc, "A choice.");
    CHECK_STR(u->fields[0].doc, "A point.");
    blobc_schema_free(s);
}

TEST(imports_read_each_file_once) {
    blobc_schema *s = NULL;
    blobc_error_clear(&err);
    CHECK_EQ_U(blobc_schema_load("tests/data/import/level.schema", &s, &err), BLOBC_OK);
    CHECK_EQ_U(blobc_schema_file_count(s), 3);
    CHECK_STR(blobc_schema_file(s, 0), "tests/data/import/level.schema");
    CHECK_STR(blobc_schema_file(s, 1), "tests/data/import/rooms.schema");
    CHECK_STR(blobc_schema_file(s, 2), "tests/data/import/common.schema");
    CHECK(blobc_schema_file(s, 3) == NULL);
    CHECK_EQ_U(blobc_schema_count(s), 9);
    const blobc_type *v = blobc_schema_find(s, "Vec3");
    CHECK_EQ_U(v->pos.file, 2);
    CHECK_STR(v->doc, "A point or a direction, in metres.");
    /* The same hash as the one-file schema of the same types. */
    blobc_schema *one = NULL;
    CHECK_EQ_U(blobc_schema_load("schemas/level.schema", &one, &err), BLOBC_OK);
    CHECK_EQ_U(blobc_type_hash(blobc_schema_root(s)), blobc_type_hash(blobc_schema_root(one)));
    CHECK_EQ_U(blobc_schema_file_count(one), 1);
    CHECK_STR(blobc_schema_file(one, 0), "schemas/level.schema");
    blobc_schema_free(one);
    blobc_schema_free(s);
}

/* ---- errors ---- */

TEST(names_up_to_1024_bytes) {
    char text[4200];
    char name[1100];
    memset(name, 'n', 1024);
    name[1024] = '\0';
    snprintf(text, sizeof text, "struct %s { %s: u8; } root %s;", name, name, name);
    blobc_schema *s = parse(text);
    if (!s) FAILF("%s", first_line());
    CHECK_EQ_U(strlen(blobc_schema_at(s, 0)->name), 1024);
    blobc_schema_free(s);
    snprintf(text, sizeof text, "struct A { %sn: u8; }", name);
    CHECK(parse_fails(text));
    CHECK_STR(first_line(), "t.schema:1:12: error: name is longer than 1024 bytes");
}

TEST(errors_have_positions_and_lines) {
    CHECK(parse_fails("struct A {\n    x: u8;\n    y: Foo;\n}\n"));
    CHECK_EQ_U(err.status, BLOBC_EINPUT);
    CHECK_STR(err.file, "t.schema");
    CHECK_EQ_U(err.line, 3);
    CHECK_EQ_U(err.column, 8);
    CHECK_STR(err.message, "unknown type 'Foo'");
    CHECK_STR(err.source_line, "    y: Foo;");
    CHECK_STR(fmt, "t.schema:3:8: error: unknown type 'Foo'\n        y: Foo;\n           ^");
    /* Columns count characters, not bytes. */
    CHECK(parse_fails("struct A { s: string = \"\xc3\xa9\xc3\xa9\"; t: Nope; }"));
    CHECK_STR(first_line(), "t.schema:1:33: error: unknown type 'Nope'");
    /* CRLF files count lines the same way. */
    CHECK(parse_fails("struct A {\r\n  x: u8;\r\n  x: u8;\r\n}\r\n"));
    CHECK_STR(fmt, "t.schema:3:3: error: duplicate field 'x' in struct A (first declared at t.schema:2:3)\n"
                   "      x: u8;\n      ^");
}

TEST(errors_each_rule) {
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"struct A { x: u8; } /* open", "t.schema:1:21: error: unterminated block comment (no closing */)"},
        {"struct A { x: u8 = 1 }", "t.schema:1:22: error: expected ';' after field 'x', got '}'"},
        {"struct A { x: u8; }}", "t.schema:1:20: error: expected a declaration (struct, enum, union or root), got '}'"},
        {"struct A { x: [u8; 3; }", "t.schema:1:21: error: expected ']', '; N]' or ': V]' to close the array or map type, got ';'"},
        {"struct A { x: [u8; -1]; }", "t.schema:1:20: error: array length must be an integer from 1 to 2147483647, got '-1'"},
        {"struct A { x: [u8; n]; }", "t.schema:1:20: error: expected an array length after ';', got 'n'"},
        {"struct A { x: *; }", "t.schema:1:16: error: expected a type, got ';'"},
        {"struct A { x: u8; } root A", "t.schema:1:27: error: expected ';' after the root declaration, got end of file"},
        {"root 5;", "t.schema:1:6: error: expected a struct name after 'root', got '5'"},
        {"enum E : u8 { a b }", "t.schema:1:17: error: expected ',' or '}' after an enum member, got 'b'"},
        {"enum E : u8 { a = b }", "t.schema:1:19: error: expected an integer value after '=', got 'b'"},
        {"enum E : u8 { a = 1.5 }", "t.schema:1:19: error: enum E, member 'a': expected an integer in u8 range 0..255, got \"1.5\""},
        {"enum E : Kind { a }", "t.schema:1:10: error: an enum's base must be an integer type (i8, u8, i16, u16, i32, u32, i64 or u64), got 'Kind'"},
        {"enum E : bool { a }", "t.schema:1:10: error: an enum's base must be an integer type (i8, u8, i16, u16, i32, u32, i64 or u64), got 'bool'"},
        {"enum E : u8 { a, root }", "t.schema:1:18: error: 'root' is a keyword and cannot be used as a member name"},
        {"struct enum { x: u8; }", "t.schema:1:8: error: 'enum' is a keyword and cannot be used as a type name"},
        {"struct A { true: u8; }", "t.schema:1:12: error: 'true' is a keyword and cannot be used as a field name (quote it for a key named so: \"true\": ...)"},
        {"@align(8) root A;", "t.schema:1:1: error: @align applies to structs only"},
        {"@align(8) foo", "t.schema:1:11: error: expected 'struct' after the attribute, got 'foo'"},
        {"@align 8 struct A { x: u8; }", "t.schema:1:8: error: expected '(' after @align, got '8'"},
        {"@align(0) struct A { x: u8; }", "t.schema:1:8: error: @align takes a power of two from 1 to 16, got '0'"},
        {"@align(4 struct A { x: u8; }", "t.schema:1:10: error: expected ')' after the alignment, got 'struct'"},
        {"@ struct A { x: u8; }", "t.schema:1:3: error: unknown attribute '@struct' (a struct takes @align(N), @open, @stream and @tags(...))"},
        {"@(4) struct A { x: u8; }", "t.schema:1:2: error: expected an attribute name after '@', got '('"},
        {"struct A { x: u8 = ; }", "t.schema:1:20: error: expected a default value after '=', got ';'"},
        {"struct A { x: u8 = \"1\"; }", "t.schema:1:20: error: default of u8 field 'x' must be an integer, got a string literal"},
        {"struct A { x: f64 = 1e999; }", "t.schema:1:21: error: default of field 'x': expected f64, got \"1e999\" (out of f64 range)"},
        {"struct A { x: f64 = inf; }", "t.schema:1:21: error: default of f64 field 'x' must be a number, got 'inf'"},
        {"struct A { x: f32 = 0x10; }", "t.schema:1:21: error: default of field 'x': expected f32, got \"0x10\""},
        {"struct A { x: bool = True; }", "t.schema:1:22: error: default of bool field 'x' must be true or false, got 'True'"},
        {"enum E : u8 { a } struct A { x: E = 0; }", "t.schema:1:37: error: default of field 'x' must name a member of enum E, got '0'"},
        {"enum E : u8 { alpha } struct A { x: E = beta; }", "t.schema:1:41: error: enum E has no member 'beta'"},
        {"struct A { x: *A = 0; }", "t.schema:1:20: error: field 'x' of type *A cannot have a default (only scalars, bool, enums, string, unions and references can)"},
        {"struct A { x: [u8; 2] = 0; }", "t.schema:1:25: error: field 'x' of type [u8; 2] cannot have a default (only scalars, bool, enums, string, unions and references can)"},
        {"struct A { s: string = \"\\u{110000}\"; }", "t.schema:1:25: error: \\u escape U+110000 is beyond U+10FFFF"},
        {"struct A { s: string = \"\\u{1234567}\"; }", "t.schema:1:25: error: \\u{...} takes 1 to 6 hex digits"},
        {"struct A { s: string = \"\\u{}\"; }", "t.schema:1:25: error: malformed \\u{...} escape: expected 1 to 6 hex digits and '}'"},
        {"struct A { s: string = \"\\u12\"; }", "t.schema:1:25: error: malformed \\u escape: expected 4 hex digits or {...}"},
        {"struct A { s: string = \"\\0\"; }", "t.schema:1:25: error: NUL is not allowed in a string (strings end at their NUL)"},
        {"struct A { s: string = \"x\\", "t.schema:1:24: error: unterminated string literal (missing closing \")"},
        {"struct A { x: u8; }\x01", "t.schema:1:20: error: unexpected character byte 0x01"},
        {"struct A { x: u8; }\xc3\xa9", "t.schema:1:20: error: unexpected character byte 0xc3"},
        {"struct A { x: u8; } - ", "t.schema:1:21: error: unexpected character '-'"},
        {"struct A { x: B; } struct B { y: [A; 2]; }", "t.schema:1:12: error: struct A contains itself inline: A.x -> B.y -> A; use *A or [A]"},
        {"struct A { x: [[[A; 1]; 2]; 3]; }", "t.schema:1:12: error: struct A contains itself inline: A.x -> A; use *A or [A]"},
        {"struct A { a: u8; } struct B { a: u8; b: C; } struct C { c: D; } struct D { d: B; }",
         "t.schema:1:39: error: struct B contains itself inline: B.b -> C.c -> D.d -> B; use *B or [B]"},
        {"struct A { x: [u8; 2147483647]; y: u8; }", "t.schema:1:8: error: struct A is too large (over 2147483647 bytes)"},
        {"struct A { x: [u16; 1073741824]; }", "t.schema:1:12: error: fixed array [u16; 1073741824] is too large (over 2147483647 bytes)"},
        {"struct A { x: [[u64; 65536]; 65536]; }", "t.schema:1:12: error: fixed array [[u64; 65536]; 65536] is too large (over 2147483647 bytes)"},
        {"struct A { @key x: f32; }", "t.schema:1:17: error: struct A: the @key field 'x' is f32; a key is an integer, an enum or a string"},
        {"struct A { @key x: u8; @key y: u8; }", "t.schema:1:24: error: struct A has two @key fields; a struct has at most one key"},
        {"struct B { x: u8; } struct A { r: &B; }", "t.schema:1:36: error: &B refers to an element of a keyed array, so B must be a struct with a @key field"},
        {"struct A { @key x: u8; r: &A = 1; }", "t.schema:1:32: error: the default of reference field 'r' can only be null (no element), got '1'"},
        {"struct A { @bogus x: u8; }", "t.schema:1:13: error: unknown field attribute '@bogus' (a field takes @key, @anchor, @was, @sep, @range, @len, @match, @path and @unique)"},
        {"struct A { x: u8; @key }", "t.schema:1:24: error: expected a field after @key, got '}'"},
        {"struct A { x: &u8; }", "t.schema:1:16: error: &u8 refers to an element of a keyed array, so u8 must be a struct with a @key field"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!parse_fails(cases[i].text)) FAILF("case %zu parsed: %s", i, cases[i].text);
        if (strcmp(first_line(), cases[i].want) != 0)
            FAILF("case %zu: %s\n  got:  %s\n  want: %s", i, cases[i].text, first_line(),
                  cases[i].want);
    }
}

/* Reads a whole small file with stdio (test code only). */
static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = malloc(1 << 16);
    size_t n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
    fclose(f);
    if (buf) buf[n] = '\0';
    return buf;
}

/* Every tests/bad/schema/NAME.schema fails to load with exactly the error
 * in NAME.expect (first line "file:line:col: error: ...", then the source
 * line and the caret). */
TEST(bad_schema_corpus) {
    const char *dir = "tests/bad/schema";
    DIR *d = opendir(dir);
    if (!d) FAILF("cannot open %s (run from the source tree)", dir);
    int count = 0;
    struct dirent *de;
    char failure[4096] = "";
    while ((de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);
        if (n < 8 || strcmp(de->d_name + n - 7, ".schema") != 0) continue;
        char path[1024], expect_path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        snprintf(expect_path, sizeof expect_path, "%s/%.*s.expect", dir, (int)(n - 7), de->d_name);
        count++;
        char *want = slurp(expect_path);
        blobc_schema *s = NULL;
        blobc_error_clear(&err);
        blobc_status st = blobc_schema_load(path, &s, &err);
        if (st == BLOBC_OK) blobc_schema_free(s);
        blobc_error_format(&err, fmt, sizeof fmt);
        size_t wl = want ? strlen(want) : 0;
        while (wl && want[wl - 1] == '\n') want[--wl] = '\0';
        if (!failure[0]) {
            if (!want) snprintf(failure, sizeof failure, "%.200s: no .expect file", path);
            else if (st != BLOBC_EINPUT)
                snprintf(failure, sizeof failure, "%.200s: status %d, want 1", path, (int)st);
            else if (strcmp(fmt, want) != 0)
                snprintf(failure, sizeof failure, "%.200s:\n  got:  %.1500s\n  want: %.1500s", path, fmt,
                         want);
        }
        free(want);
    }
    closedir(d);
    if (failure[0]) FAILF("%s", failure);
    if (count < 50) FAILF("only %d bad schemas found", count);
}

TEST(load_missing_file) {
    blobc_schema *s = (blobc_schema *)1;
    blobc_error_clear(&err);
    CHECK_EQ_U(blobc_schema_load("tests/bad/schema/does-not-exist.schema", &s, &err), BLOBC_EIO);
    CHECK(s == NULL);
    CHECK_CONTAINS(err.file[0] ? err.file : err.message, "does-not-exist.schema");
}

/* ---- layout ---- */

typedef struct { int32_t offset, length; } c_slice; /* [T] and string */
typedef int32_t c_ptr;                             /* *T */
struct c_mix { uint8_t a; double b; };
struct c_tail { uint64_t a; uint8_t b; };
struct c_q { uint32_t a; uint8_t b; };
struct c_p { uint8_t x; struct c_q v[2]; uint16_t w[3]; bool flag; };
struct c_al { _Alignas(16) uint8_t a; uint16_t b; };
struct c_outer { uint8_t tag; struct c_al inner; c_ptr next; };
struct c_vec3 { float x, y, z; };
struct c_room {
    uint32_t id; c_slice name; uint8_t kind; struct c_vec3 center; float radius;
    float weights[4]; c_slice neighbors; c_slice tags; c_ptr meta; bool lit; c_slice spawns;
};
struct c_wide { uint16_t e16; int64_t i; uint8_t b; c_slice arr; float grid[2][3]; uint64_t e64; };

#define CHECK_C_FIELD(t, ctype, name)                                        \
    do {                                                                     \
        const blobc_field *f_ = field(t, #name);                             \
        if (!f_) FAILF("no field %s", #name);                                \
        CHECK_EQ_U(f_->offset, offsetof(ctype, name));                       \
        CHECK_EQ_U(f_->type->size, sizeof(((ctype *)0)->name));              \
    } while (0)
#define CHECK_C_TYPE(t, ctype)                                               \
    do {                                                                     \
        CHECK_EQ_U((t)->size, sizeof(ctype));                                \
        CHECK_EQ_U((t)->align, alignof(ctype));                              \
    } while (0)

TEST(layout_matches_c) {
    blobc_schema *s = parse(
        "enum K8 : u8 { a } enum K16 : u16 { a } enum K64 : i64 { a }\n"
        "struct Mix { a: u8; b: f64; }\n"
        "struct Tail { a: u64; b: u8; }\n"
        "struct Q { a: u32; b: u8; }\n"
        "struct P { x: u8; v: [Q; 2]; w: [u16; 3]; flag: bool; }\n"
        "@align(16) struct Al { a: u8; b: u16; }\n"
        "struct Outer { tag: u8; inner: Al; next: *Outer; }\n"
        "struct Vec3 { x: f32; y: f32; z: f32; }\n"
        "struct Room { id: u32; name: string; kind: K8; center: Vec3; radius: f32;\n"
        "  weights: [f32; 4]; neighbors: [u32]; tags: [string]; meta: *Vec3; lit: bool;\n"
        "  spawns: [Vec3]; }\n"
        "struct Wide { e16: K16; i: i64; b: u8; arr: [[u8]]; grid: [[f32; 3]; 2]; e64: K64; }\n");
    if (!s) FAILF("%s", fmt);
    const blobc_type *t = blobc_schema_find(s, "Mix");
    CHECK_C_TYPE(t, struct c_mix);
    CHECK_C_FIELD(t, struct c_mix, a);
    CHECK_C_FIELD(t, struct c_mix, b);
    CHECK_EQ_U(field(t, "b")->offset, 8);
    CHECK_EQ_U(t->size, 16);
    t = blobc_schema_find(s, "Tail");
    CHECK_C_TYPE(t, struct c_tail);
    CHECK_EQ_U(t->size, 16);
    t = blobc_schema_find(s, "Q");
    CHECK_C_TYPE(t, struct c_q);
    t = blobc_schema_find(s, "P");
    CHECK_C_TYPE(t, struct c_p);
    CHECK_C_FIELD(t, struct c_p, x);
    CHECK_C_FIELD(t, struct c_p, v);
    CHECK_C_FIELD(t, struct c_p, w);
    CHECK_C_FIELD(t, struct c_p, flag);
    CHECK_EQ_U(field(t, "w")->type->size, 6);
    CHECK_EQ_U(field(t, "w")->type->align, 2);
    t = blobc_schema_find(s, "Al");
    CHECK_C_TYPE(t, struct c_al);
    CHECK_EQ_U(t->align, 16);
    CHECK_EQ_U(t->size, 16);
    CHECK_EQ_U(t->align_attr, 16);
    t = blobc_schema_find(s, "Outer");
    CHECK_C_TYPE(t, struct c_outer);
    CHECK_C_FIELD(t, struct c_outer, tag);
    CHECK_C_FIELD(t, struct c_outer, inner);
    CHECK_C_FIELD(t, struct c_outer, next);
    t = blobc_schema_find(s, "Room");
    CHECK_C_TYPE(t, struct c_room);
    CHECK_C_FIELD(t, struct c_room, id);
    CHECK_C_FIELD(t, struct c_room, name);
    CHECK_C_FIELD(t, struct c_room, kind);
    CHECK_C_FIELD(t, struct c_room, center);
    CHECK_C_FIELD(t, struct c_room, radius);
    CHECK_C_FIELD(t, struct c_room, weights);
    CHECK_C_FIELD(t, struct c_room, neighbors);
    CHECK_C_FIELD(t, struct c_room, tags);
    CHECK_C_FIELD(t, struct c_room, meta);
    CHECK_C_FIELD(t, struct c_room, lit);
    CHECK_C_FIELD(t, struct c_room, spawns);
    t = blobc_schema_find(s, "Wide");
    CHECK_C_TYPE(t, struct c_wide);
    CHECK_C_FIELD(t, struct c_wide, e16);
    CHECK_C_FIELD(t, struct c_wide, i);
    CHECK_C_FIELD(t, struct c_wide, b);
    CHECK_C_FIELD(t, struct c_wide, arr);
    CHECK_C_FIELD(t, struct c_wide, grid);
    CHECK_C_FIELD(t, struct c_wide, e64);
    blobc_schema_free(s);
}

TEST(layout_sizes_of_every_kind) {
    static const struct {
        const char *type;
        uint32_t size, align;
    } cases[] = {
        {"bool", 1, 1}, {"i8", 1, 1},       {"u8", 1, 1},        {"i16", 2, 2},
        {"u16", 2, 2},  {"i32", 4, 4},      {"u32", 4, 4},       {"f32", 4, 4},
        {"i64", 8, 8},  {"u64", 8, 8},      {"f64", 8, 8},       {"string", 8, 4},
        {"[u8]", 8, 4}, {"[f64]", 8, 4},    {"*f64", 4, 4},      {"*S", 4, 4},
        {"[u16; 3]", 6, 2}, {"[[u8; 3]; 5]", 15, 1}, {"[f64; 1]", 8, 8}, {"E", 2, 2},
        {"[E; 3]", 6, 2}, {"S", 16, 16},   {"[S; 2]", 32, 16},  {"[*S; 3]", 12, 4},
        {"[string; 2]", 16, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text,
                 "enum E : i16 { a } @align(16) struct S { x: u8; } struct T { f: %s; }",
                 cases[i].type);
        blobc_schema *s = parse(text);
        if (!s) FAILF("%s: %s", cases[i].type, fmt);
        const blobc_type *ft = field(blobc_schema_find(s, "T"), "f")->type;
        uint32_t size = ft->size, align = ft->align;
        char spelled[64];
        blobc_type_spell(ft, spelled, sizeof spelled);
        bool same = strcmp(spelled, cases[i].type) == 0;
        blobc_schema_free(s);
        if (size != cases[i].size || align != cases[i].align)
            FAILF("%s: size %u align %u, want %u %u", cases[i].type, size, align, cases[i].size,
                  cases[i].align);
        if (!same) FAILF("%s spelled %s", cases[i].type, spelled);
    }
}

TEST(layout_recursion_through_arrays_and_pointers) {
    blobc_schema *s = parse("struct Node { value: u32; kids: [Node]; parent: *Node;"
                            " ring: [*[Node; 2]]; }\n"
                            "struct A { b: *B; } struct B { a: [A; 2]; }\n");
    if (!s) FAILF("%s", fmt);
    const blobc_type *n = blobc_schema_find(s, "Node");
    CHECK_EQ_U(n->size, 24);
    const blobc_type *ring = field(n, "ring")->type;
    CHECK_EQ_U(ring->elem->elem->size, 48);
    CHECK_EQ_U(blobc_schema_find(s, "B")->size, 8);
    blobc_schema_free(s);
}

TEST(layout_align_attribute) {
    blobc_schema *s = parse("@align(8) struct A { x: u32; y: u8; }\n"
                            "@align(4) struct B { x: u32; }\n"
                            "@align(1) struct C { x: u8; }\n"
                            "struct D { c: C; a: A; }\n");
    if (!s) FAILF("%s", fmt);
    const blobc_type *a = blobc_schema_find(s, "A");
    CHECK_EQ_U(a->align, 8);
    CHECK_EQ_U(a->size, 8);
    CHECK_EQ_U(blobc_schema_find(s, "B")->align, 4);
    CHECK_EQ_U(blobc_schema_find(s, "C")->size, 1);
    const blobc_type *d = blobc_schema_find(s, "D");
    CHECK_EQ_U(field(d, "a")->offset, 8);
    CHECK_EQ_U(d->size, 16);
    blobc_schema_free(s);
}

TEST(composites_are_interned) {
    blobc_schema *s = parse("struct A { a: [u32]; b: [[u32]]; c: [u32; 3]; d: [u32; 4];"
                            " e: *B; f: [*B]; }\n"
                            "struct B { a: [u32]; c: [u32; 3]; e: *B; g: [[u32]]; h: [*B]; }\n");
    if (!s) FAILF("%s", fmt);
    const blobc_type *a = blobc_schema_find(s, "A"), *b = blobc_schema_find(s, "B");
    CHECK(field(a, "a")->type == field(b, "a")->type);
    CHECK(field(a, "b")->type->elem == field(a, "a")->type);
    CHECK(field(a, "b")->type == field(b, "g")->type);
    CHECK(field(a, "c")->type == field(b, "c")->type);
    CHECK(field(a, "c")->type != field(a, "d")->type);
    CHECK(field(a, "e")->type == field(b, "e")->type);
    CHECK(field(a, "f")->type == field(b, "h")->type);
    CHECK(field(a, "f")->type->elem == field(a, "e")->type);
    CHECK(field(a, "c")->type->elem == blobc_builtin_type(BLOBC_KIND_U32));
    blobc_schema_free(s);
}

TEST(builtins_and_kinds) {
    for (int k = BLOBC_KIND_BOOL; k <= BLOBC_KIND_PTR; k++) {
        const blobc_type *t = blobc_builtin_type((blobc_kind)k);
        bool want = k <= BLOBC_KIND_F64 || k == BLOBC_KIND_STRING;
        if (want != (t != NULL)) FAILF("builtin %d", k);
        if (t) {
            CHECK_EQ_U(t->kind, k);
            CHECK_STR(t->name, blobc_kind_name((blobc_kind)k));
        }
    }
    CHECK(blobc_builtin_type((blobc_kind)0) == NULL);
    CHECK(blobc_builtin_type((blobc_kind)99) == NULL);
    CHECK_STR(blobc_kind_name(BLOBC_KIND_U16), "u16");
    CHECK_STR(blobc_kind_name(BLOBC_KIND_STRING), "string");
    CHECK_STR(blobc_kind_name(BLOBC_KIND_FIXED), "fixed array");
    CHECK_STR(blobc_kind_name(BLOBC_KIND_PTR), "pointer");
    CHECK_STR(blobc_kind_name((blobc_kind)0), "invalid kind");
    CHECK(blobc_kind_is_scalar(BLOBC_KIND_BOOL) && blobc_kind_is_scalar(BLOBC_KIND_F64));
    CHECK(!blobc_kind_is_scalar(BLOBC_KIND_ENUM) && !blobc_kind_is_scalar(BLOBC_KIND_STRING));
    CHECK(blobc_kind_is_integer(BLOBC_KIND_I8) && blobc_kind_is_integer(BLOBC_KIND_U64));
    CHECK(!blobc_kind_is_integer(BLOBC_KIND_BOOL) && !blobc_kind_is_integer(BLOBC_KIND_F32));
    CHECK(blobc_kind_is_signed(BLOBC_KIND_I64) && !blobc_kind_is_signed(BLOBC_KIND_U8));
    CHECK(!blobc_kind_is_signed(BLOBC_KIND_F32));
    CHECK_EQ_U(blobc_builtin_type(BLOBC_KIND_STRING)->size, 8);
    CHECK_EQ_U(blobc_builtin_type(BLOBC_KIND_STRING)->align, 4);
}

/* ---- lookups ---- */

TEST(find_field_small_and_large) {
    char text[4096] = "struct Small { id: u32; name: string; names: u8; }\nstruct Big {";
    for (int i = 0; i < 40; i++) {
        char f[32];
        snprintf(f, sizeof f, " k%d: u8;", i);
        strcat(text, f);
    }
    strcat(text, " }\n");
    blobc_schema *s = parse(text);
    if (!s) FAILF("%s", fmt);
    const blobc_type *small = blobc_schema_find(s, "Small"), *big = blobc_schema_find(s, "Big");
    for (int i = 0; i < 40; i++) {
        char name[16];
        snprintf(name, sizeof name, "k%d", i);
        const blobc_field *f = field(big, name);
        if (!f || f != &big->fields[i]) FAILF("Big.%s", name);
    }
    CHECK(field(small, "name") == &small->fields[1]);
    CHECK(field(small, "names") == &small->fields[2]);
    const blobc_type *ts[2] = {small, big};
    for (int k = 0; k < 2; k++) {
        const blobc_type *t = ts[k];
        CHECK(blobc_struct_find_field(t, "", 0) == NULL);
        CHECK(blobc_struct_find_field(t, "k", 1) == NULL);
        CHECK(blobc_struct_find_field(t, "k400", 4) == NULL);
        CHECK(blobc_struct_find_field(t, "k1\0", 3) == NULL);
        CHECK(blobc_struct_find_field(t, "nam", 3) == NULL);
        CHECK(blobc_struct_find_field(t, "namesx", 6) == NULL);
        CHECK(blobc_struct_find_field(t, "id\0\0\0\0\0\0\0\0\0", 11) == NULL);
    }
    /* Keys need not be NUL-terminated. */
    CHECK(blobc_struct_find_field(big, "k12xyz", 3) == &big->fields[12]);
    CHECK(blobc_struct_find_field(small, "namesake", 4) == &small->fields[1]);
    CHECK(blobc_struct_find_field(NULL, "id", 2) == NULL);
    CHECK(blobc_struct_find_field(blobc_builtin_type(BLOBC_KIND_U8), "id", 2) == NULL);
    blobc_schema_free(s);
}

TEST(enum_lookups) {
    char text[8192] = "enum Small : i8 { neg = -1, zero, one }\nenum Big : u32 {";
    for (int i = 0; i < 100; i++) {
        char m[32];
        snprintf(m, sizeof m, " m%d = %d,", i, (i * 37) % 100 * 3);
        strcat(text, m);
    }
    strcat(text, " }\n");
    blobc_schema *s = parse(text);
    if (!s) FAILF("%s", fmt);
    const blobc_type *small = blobc_schema_find(s, "Small"), *big = blobc_schema_find(s, "Big");
    for (int i = 0; i < 100; i++) {
        const blobc_enum_value *v = blobc_enum_find_value(big, (uint64_t)((i * 37) % 100 * 3));
        if (v != &big->values[i]) FAILF("value of m%d", i);
        char name[16];
        snprintf(name, sizeof name, "m%d", i);
        if (blobc_enum_find_name(big, name, strlen(name)) != &big->values[i]) FAILF("name m%d", i);
    }
    CHECK(blobc_enum_find_value(big, 1) == NULL);
    CHECK(blobc_enum_find_value(big, 300) == NULL);
    CHECK(blobc_enum_find_value(big, UINT64_MAX) == NULL);
    CHECK(blobc_enum_find_name(big, "m100", 4) == NULL);
    CHECK(blobc_enum_find_name(big, "m1x", 2) == &big->values[1]);
    CHECK(blobc_enum_find_value(small, (uint64_t)-1) == &small->values[0]);
    CHECK(blobc_enum_find_value(small, 0xff) == NULL);
    CHECK(blobc_enum_find_name(small, "one", 3) == &small->values[2]);
    CHECK(blobc_enum_find_name(small, "on", 2) == NULL);
    CHECK(blobc_enum_find_value(blobc_builtin_type(BLOBC_KIND_U8), 0) == NULL);
    blobc_schema_free(s);
}

TEST(type_spelling) {
    blobc_schema *s = parse("struct Room { a: [u32]; b: *Room; c: [[f32; 3]]; d: [*[string; 2]];"
                            " e: **u8; }");
    if (!s) FAILF("%s", fmt);
    const blobc_type *r = blobc_schema_find(s, "Room");
    char buf[64];
    static const char *want[] = {"[u32]", "*Room", "[[f32; 3]]", "[*[string; 2]]", "**u8"};
    for (uint32_t i = 0; i < 5; i++) {
        size_t n = blobc_type_spell(r->fields[i].type, buf, sizeof buf);
        CHECK_STR(buf, want[i]);
        CHECK_EQ_U(n, strlen(want[i]));
    }
    /* snprintf semantics: truncated, NUL-terminated, full length returned. */
    char small[5];
    CHECK_EQ_U(blobc_type_spell(r->fields[2].type, small, sizeof small), 10);
    CHECK_STR(small, "[[f3");
    CHECK_EQ_U(blobc_type_spell(r, NULL, 0), 4);
    CHECK_EQ_U(blobc_type_spell(blobc_builtin_type(BLOBC_KIND_F64), buf, sizeof buf), 3);
    CHECK_STR(buf, "f64");
    blobc_schema_free(s);
}

/* ---- schema hash ---- */

static uint64_t root_hash(const char *text) {
    blobc_schema *s = parse(text);
    if (!s) {
        printf("    parse failed: %s\n", fmt);
        return 0;
    }
    uint64_t h = blobc_type_hash(blobc_schema_root(s));
    blobc_schema_free(s);
    return h;
}

static const char *hash_base =
    "enum Kind : u8 { floor, wall, door = 5 }\n"
    "struct Vec { x: f32; y: f32; }\n"
    "struct Room { id: u32; kind: Kind = wall; at: Vec; tags: [string]; next: *Room;"
    " grid: [[u16; 3]]; flag: bool; }\n"
    "root Room;\n";

TEST(hash_ignores_names_and_member_order) {
    uint64_t base = root_hash(hash_base);
    CHECK(base != 0);
    CHECK_EQ_U(root_hash(hash_base), base);
    /* Every name changed, defaults changed, comments added. */
    CHECK_EQ_U(root_hash("enum K : u8 { a, b, c = 5 }\n"
                         "struct V { p: f32; q: f32; }\n"
                         "struct R { n: u32; k: K; v: V; t: [string]; r: *R; g: [[u16; 3]];"
                         " f: bool = true; } // renamed\n"
                         "root R;\n"),
               base);
    /* Enum members reordered (same set of values). */
    CHECK_EQ_U(root_hash("enum Kind : u8 { door = 5, wall = 1, floor = 0 }\n"
                         "struct Vec { x: f32; y: f32; }\n"
                         "struct Room { id: u32; kind: Kind; at: Vec; tags: [string]; next: *Room;"
                         " grid: [[u16; 3]]; flag: bool; }\n"
                         "root Room;\n"),
               base);
    /* Fields of the same type swapped by name only. */
    CHECK_EQ_U(root_hash("enum Kind : u8 { floor, wall, door = 5 }\n"
                         "struct Vec { y: f32; x: f32; }\n"
                         "struct Room { id: u32; kind: Kind; at: Vec; tags: [string]; next: *Room;"
                         " grid: [[u16; 3]]; flag: bool; }\n"
                         "root Room;\n"),
               base);
    /* Types unreachable from the root do not matter. */
    CHECK_EQ_U(root_hash("struct Unused { z: u64; }\n" /* */
                         "enum Kind : u8 { floor, wall, door = 5 }\n"
                         "struct Vec { x: f32; y: f32; }\n"
                         "struct Room { id: u32; kind: Kind; at: Vec; tags: [string]; next: *Room;"
                         " grid: [[u16; 3]]; flag: bool; }\n"
                         "root Room;\n"),
               base);
}

/* Replaces the first occurrence of `from` in hash_base with `to`. */
static uint64_t variant_hash(const char *from, const char *to) {
    char text[2048];
    const char *at = strstr(hash_base, from);
    if (!at) return 0;
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - hash_base), hash_base, to,
             at + strlen(from));
    return root_hash(text);
}

TEST(hash_changes_with_every_layout_change) {
    uint64_t base = root_hash(hash_base);
    static const struct {
        const char *from, *to;
    } cases[] = {
        {"Kind : u8", "Kind : i8"},                 /* enum base signedness */
        {"Kind : u8", "Kind : u16"},                /* enum size */
        {"door = 5", "door = 6"},                   /* an enum value */
        {"door = 5 }", "door = 5, stairs }"},       /* an extra member */
        {"id: u32", "id: i32"},                     /* integer signedness */
        {"id: u32", "id: f32"},                     /* int vs float */
        {"flag: bool", "flag: u8"},                 /* bool vs u8 */
        {"x: f32; y: f32", "x: f64; y: f32"},       /* nested struct size */
        {"id: u32; kind: Kind = wall", "kind: Kind = wall; id: u32"}, /* field order */
        {"[[u16; 3]]", "[[u16; 4]]"},               /* fixed count */
        {"[[u16; 3]]", "[[i16; 3]]"},               /* element kind */
        {"[[u16; 3]]", "[*[u16; 3]]"},              /* array vs pointer */
        {"next: *Room", "next: [Room]"},            /* pointer vs array */
        {"next: *Room", "next: *Vec"},              /* pointer target */
        {"tags: [string]", "tags: [[u8]]"},         /* string vs [u8] */
        {"tags: [string]", "tags: string"},         /* [string] vs string */
        {"struct Vec", "@align(8) struct Vec"},     /* alignment */
        {"flag: bool; }", "flag: bool; more: u8; }"}, /* an extra field */
    };
    uint64_t seen[32];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t h = variant_hash(cases[i].from, cases[i].to);
        if (h == 0) FAILF("variant %zu did not parse", i);
        if (h == base) FAILF("variant %zu (%s -> %s) kept the hash", i, cases[i].from, cases[i].to);
        for (size_t k = 0; k < i; k++)
            if (seen[k] == h) FAILF("variants %zu and %zu collide", k, i);
        seen[i] = h;
    }
}

/* The serialization documented in docs/FORMAT.md, "Schema hash", built by
 * hand for struct P { a: u8; b: *P; c: [E; 2]; } with enum E : i16 { x = -1, y = 7 }. */
TEST(hash_serialization_is_as_documented) {
    blobc_schema *s = parse("enum E : i16 { y = 7, x = -1 } struct P { a: u8; b: *P; c: [E; 2]; } root P;");
    if (!s) FAILF("%s", fmt);
    uint8_t buf[256];
    size_t n = 0;
#define U8(v) (buf[n++] = (uint8_t)(v))
#define U32(v) (U8(v), U8((v) >> 8), U8((v) >> 16), U8((v) >> 24))
#define U64(v) (U32((uint32_t)(v)), U32((uint32_t)((uint64_t)(v) >> 32)))
    memcpy(buf, "BLOBCTH1", 8);
    n = 8;
    U8(BLOBC_KIND_STRUCT); U32(12); U32(4); U32(3);           /* P: #0 */
    U32(0); U8(BLOBC_KIND_U8); U32(1); U32(1);                /* a: u8 */
    U32(4); U8(BLOBC_KIND_PTR); U32(4); U32(4);               /* b: *P, #1 */
    U8(0xFF); U32(0);                                         /*   -> #0 */
    U32(8); U8(BLOBC_KIND_FIXED); U32(4); U32(2); U32(2);     /* c: [E; 2], #2 */
    U8(BLOBC_KIND_ENUM); U32(2); U32(2); U8(BLOBC_KIND_I16);  /*   E, #3 */
    U32(2); U64(7); U64(0xffffffffffffffffull);               /*   values, sorted */
#undef U8
#undef U32
#undef U64
    CHECK_EQ_U(blobc_type_hash(blobc_schema_root(s)), XXH3_64bits(buf, n));
    blobc_schema_free(s);
}

TEST(hash_golden_value) {
    /* Pinned: a change here changes every blob's schema hash, which must
     * come with a format version bump. */
    CHECK_EQ_U(root_hash(hash_base), 0x6d449f95ae4abf6aull);
    CHECK_EQ_U(root_hash(level_schema), 0x3fc87ec6821ee97full);
}

/* ---- graphs built by hand, as the type-section decoder builds them ---- */

static blobc_type *mk(blobc_schema *s, blobc_kind k, const char *name) {
    blobc_type *t = blobc_arena_alloc(&s->arena, sizeof *t);
    t->kind = k;
    t->name = name;
    return t;
}

static blobc_field *mkfields(blobc_schema *s, blobc_type *st, uint32_t n) {
    blobc_field *f = blobc_arena_array(&s->arena, n, sizeof *f);
    st->fields = f;
    st->nfields = n;
    return f;
}

static blobc_status lay(blobc_schema *s) {
    blobc_error_clear(&err);
    blobc_status st = blobc_schema_layout(s, &err);
    blobc_error_format(&err, fmt, sizeof fmt);
    return st;
}

TEST(handbuilt_layout) {
    blobc_schema *s = blobc_schema_new("");
    blobc_type *u8 = mk(s, BLOBC_KIND_U8, "u8"); /* not the singleton */
    blobc_type *vec = mk(s, BLOBC_KIND_STRUCT, "Vec");
    blobc_field *vf = mkfields(s, vec, 2);
    vf[0].name = "a";
    vf[0].type = u8;
    vf[1].name = "b";
    vf[1].type = blobc_builtin_type(BLOBC_KIND_F64);
    blobc_type *arr = mk(s, BLOBC_KIND_ARRAY, NULL);
    blobc_type *fixed = mk(s, BLOBC_KIND_FIXED, NULL);
    fixed->elem = vec;
    fixed->count = 3;
    arr->elem = fixed;
    blobc_type *ptr = mk(s, BLOBC_KIND_PTR, NULL);
    blobc_type *root = mk(s, BLOBC_KIND_STRUCT, "Root");
    ptr->elem = root;
    blobc_type *e = mk(s, BLOBC_KIND_ENUM, "E");
    e->elem = blobc_builtin_type(BLOBC_KIND_U16);
    blobc_enum_value *ev = blobc_arena_array(&s->arena, 2, sizeof *ev);
    ev[0].name = "x";
    ev[0].value = 3;
    ev[1].name = "y";
    ev[1].value = 1;
    e->values = ev;
    e->nvalues = 2;
    blobc_field *rf = mkfields(s, root, 4);
    rf[0].name = "k";
    rf[0].type = e;
    rf[1].name = "v";
    rf[1].type = arr;
    rf[2].name = "self";
    rf[2].type = ptr;
    rf[3].name = "inline";
    rf[3].type = fixed;
    root->align_attr = 16;
    CHECK_EQ_U(blobc_schema_add_named(s, root, &err), BLOBC_OK);
    CHECK_EQ_U(blobc_schema_add_named(s, vec, &err), BLOBC_OK);
    CHECK_EQ_U(blobc_schema_add_named(s, e, &err), BLOBC_OK);
    s->root = root;
    if (lay(s) != BLOBC_OK) FAILF("%s", fmt);
    CHECK_EQ_U(u8->size, 1);
    CHECK_EQ_U(vec->size, 16);
    CHECK_EQ_U(vec->fields[1].offset, 8);
    CHECK_EQ_U(fixed->size, 48);
    CHECK_EQ_U(fixed->align, 8);
    CHECK_EQ_U(e->size, 2);
    CHECK_EQ_U(root->fields[1].offset, 4);
    CHECK_EQ_U(root->fields[2].offset, 12);
    CHECK_EQ_U(root->fields[3].offset, 16);
    CHECK_EQ_U(root->size, 64);
    CHECK_EQ_U(root->align, 16);
    CHECK(blobc_schema_find(s, "Vec") == vec);
    CHECK(blobc_schema_find(s, "Nope") == NULL);
    CHECK(blobc_enum_find_value(e, 1) == &ev[1]);
    /* The same graph written as a schema hashes the same. */
    blobc_schema *p = parse("@align(16) struct Root { k: E; v: [[Vec; 3]]; self: *Root;"
                            " inline: [Vec; 3]; }\n"
                            "struct Vec { a: u8; b: f64; } enum E : u16 { y = 1, x = 3 } root Root;");
    if (!p) FAILF("%s", fmt);
    CHECK_EQ_U(blobc_type_hash(root), blobc_type_hash(blobc_schema_root(p)));
    blobc_schema_free(p);
    blobc_schema_free(s);
}

/* One hostile or malformed graph per rule; all must be refused cleanly. */
TEST(handbuilt_rejections) {
    static const char *const want[] = {
        "error: struct S has no fields (a struct needs at least one)",
        "error: fixed array [u8; 0]: the length must be from 1 to 2147483647",
        "error: struct S: @align(3) is not a power of two from 1 to 16",
        "error: struct S: @align(32) is not a power of two from 1 to 16",
        "error: struct S: @align(2) is below its natural alignment 8; @align can only raise alignment",
        "error: enum E: the base must be an integer type (i8..u64)",
        "error: enum E: the base must be an integer type (i8..u64)",
        "error: pointer type contains itself without a struct in between",
        "error: array type contains itself without a struct in between",
        "error: struct S contains itself inline: S.f -> T.g -> S; use *S or [S]",
        "error: struct S: field 'f' has no type",
        "error: duplicate field 'f' in struct S",
        "error: enum E: members 'a' and 'b' both have the value 4",
        "error: enum E, member 'a': value 300 is out of u8 range 0..255",
        "error: enum E, member 'a': value -129 is out of i8 range -128..127",
        "error: the root must be a struct, not enum E",
        "error: a fixed array type contains itself",
        "error: duplicate type name 'S'",
        "error: enum E has no members",
        "error: struct S: field 'f' cannot have a default",
        "error: type has an invalid kind 99",
        "error: pointer type has no element type",
        "error: duplicate member 'a' in enum E",
    };
    for (int c = 0; c < (int)(sizeof want / sizeof want[0]); c++) {
        blobc_schema *s = blobc_schema_new("");
        blobc_type *st = mk(s, BLOBC_KIND_STRUCT, "S");
        blobc_type *e = mk(s, BLOBC_KIND_ENUM, "E");
        blobc_enum_value *ev = blobc_arena_array(&s->arena, 2, sizeof *ev);
        ev[0].name = "a";
        ev[1].name = "b";
        ev[1].value = 1;
        e->values = ev;
        e->nvalues = 2;
        e->elem = blobc_builtin_type(BLOBC_KIND_U8);
        blobc_field *f = NULL;
        if (c != 0) {
            f = mkfields(s, st, 1);
            f[0].name = "f";
            f[0].type = blobc_builtin_type(BLOBC_KIND_F64);
        }
        blobc_type *a = mk(s, BLOBC_KIND_PTR, NULL), *b = mk(s, BLOBC_KIND_PTR, NULL);
        switch (c) {
        case 1:
            a->kind = BLOBC_KIND_FIXED;
            a->elem = blobc_builtin_type(BLOBC_KIND_U8);
            f[0].type = a;
            break;
        case 2: st->align_attr = 3; break;
        case 3: st->align_attr = 32; break;
        case 4: st->align_attr = 2; break;
        case 5: e->elem = blobc_builtin_type(BLOBC_KIND_F32); break;
        case 6: e->elem = NULL; break;
        case 7: /* *(*(...)) forever */
            a->elem = b;
            b->elem = a;
            f[0].type = a;
            break;
        case 8: /* [*[*[...]]] */
            a->kind = BLOBC_KIND_ARRAY;
            a->elem = b;
            b->elem = a;
            f[0].type = a;
            break;
        case 9: {
            blobc_type *t = mk(s, BLOBC_KIND_STRUCT, "T");
            blobc_field *g = mkfields(s, t, 1);
            g[0].name = "g";
            g[0].type = st;
            f[0].type = t;
            break;
        }
        case 10: f[0].type = NULL; break;
        case 11: {
            f = mkfields(s, st, 2);
            f[0].name = "f";
            f[0].type = blobc_builtin_type(BLOBC_KIND_U8);
            f[1].name = "f";
            f[1].type = blobc_builtin_type(BLOBC_KIND_U8);
            break;
        }
        case 12: ev[0].value = 4; ev[1].value = 4; break;
        case 13: ev[0].value = 300; break;
        case 14:
            e->elem = blobc_builtin_type(BLOBC_KIND_I8);
            ev[0].value = (uint64_t)-129;
            break;
        case 15: s->root = e; break;
        case 16: /* [[...; 2]; 2] containing itself */
            a->kind = BLOBC_KIND_FIXED;
            a->count = 2;
            b->kind = BLOBC_KIND_FIXED;
            b->count = 2;
            a->elem = b;
            b->elem = a;
            f[0].type = a;
            break;
        case 17: blobc_schema_add_named(s, mk(s, BLOBC_KIND_STRUCT, "S"), &err); break;
        case 18: e->nvalues = 0; break;
        case 19:
            f[0].type = a;
            a->elem = st;
            f[0].def.present = true;
            break;
        case 20: f[0].type = mk(s, (blobc_kind)99, NULL); break;
        case 21: f[0].type = a; break;
        case 22: ev[1].name = "a"; break;
        }
        blobc_status st_add = blobc_schema_add_named(s, st, &err);
        if (st_add == BLOBC_OK) st_add = blobc_schema_add_named(s, e, &err);
        if (st_add != BLOBC_OK) FAILF("case %d: add_named failed", c);
        blobc_status rc = lay(s);
        blobc_schema_free(s);
        if (rc != BLOBC_EINPUT) FAILF("case %d: status %d, want 1 (%s)", c, (int)rc, fmt);
        if (strcmp(fmt, want[c]) != 0) FAILF("case %d:\n  got:  %s\n  want: %s", c, fmt, want[c]);
        if (err.line != 0 || err.file[0]) FAILF("case %d: has a position", c);
    }
}

TEST(add_named_rejects_anonymous) {
    blobc_schema *s = blobc_schema_new("x");
    blobc_error_clear(&err);
    CHECK_EQ_U(blobc_schema_add_named(s, mk(s, BLOBC_KIND_ARRAY, "A"), &err), BLOBC_EINPUT);
    CHECK_EQ_U(blobc_schema_add_named(s, mk(s, BLOBC_KIND_STRUCT, NULL), &err), BLOBC_EINPUT);
    CHECK_EQ_U(blobc_schema_count(s), 0);
    blobc_schema_free(s);
}

/* S0 { f: S1 } ... S(ns-1) { f: [*[*...u8]], g: [[[u16; 1]; 1]...] }: a
 * pointer/array chain 100k deep, ns structs and nf fixed arrays nested
 * inline. Returns layout's status; *root the first struct. */
static blobc_status deep_graph(blobc_schema *s, int ns, int nf, blobc_type **root,
                               const blobc_type **chain_out, const blobc_type **fixed_out) {
    enum { CHAIN = 100000 };
    blobc_type *prev = NULL;
    const blobc_type *chain = blobc_builtin_type(BLOBC_KIND_U8);
    for (int i = 0; i < CHAIN; i++) {
        blobc_type *t = mk(s, i % 2 ? BLOBC_KIND_PTR : BLOBC_KIND_ARRAY, NULL);
        t->elem = chain;
        chain = t;
    }
    const blobc_type *fixed = blobc_builtin_type(BLOBC_KIND_U16);
    for (int i = 0; i < nf; i++) {
        blobc_type *t = mk(s, BLOBC_KIND_FIXED, NULL);
        t->elem = fixed;
        t->count = 1;
        fixed = t;
    }
    blobc_type **structs = malloc((size_t)ns * sizeof *structs);
    for (int i = ns - 1; i >= 0; i--) {
        char *name = blobc_arena_alloc(&s->arena, 16);
        snprintf(name, 16, "S%d", i);
        blobc_type *t = mk(s, BLOBC_KIND_STRUCT, name);
        blobc_field *f = mkfields(s, t, prev ? 1 : 2);
        f[0].name = "f";
        f[0].type = prev ? prev : chain;
        if (!prev) {
            f[1].name = "g";
            f[1].type = fixed;
        }
        structs[i] = t;
        prev = t;
    }
    /* declared deepest first, so that no walk from the root finds the depth */
    for (int i = ns - 1; i >= 0; i--) blobc_schema_add_named(s, structs[i], &err);
    s->root = structs[0];
    *root = structs[0];
    *chain_out = chain;
    *fixed_out = fixed;
    free(structs);
    return lay(s);
}

/* 100k levels of pointers and arrays, and structs and fixed arrays nested
 * inline as deep as the language allows: no recursion anywhere on the
 * type graph. One level more is refused. */
TEST(handbuilt_deep_graphs) {
    enum { DEPTH = 100000, HALF = BLOBC_MAX_NESTING / 2 };
    blobc_schema *s = blobc_schema_new("");
    blobc_type *root;
    const blobc_type *chain, *fixed;
    if (deep_graph(s, HALF, HALF, &root, &chain, &fixed) != BLOBC_OK) FAILF("%s", fmt);
    CHECK_EQ_U(root->size, 8);
    CHECK_EQ_U(root->align, 4);
    CHECK_EQ_U(fixed->size, 2);
    /* S0.f may not be left out: down its chain, the last struct's g (a fixed array) must be given */
    CHECK(blobc_field_optional(&root->fields[0]) == false);
    uint64_t h = blobc_type_hash(root);
    CHECK(h != 0);
    CHECK_EQ_U(blobc_type_hash(root), h);
    char buf[64];
    size_t n = blobc_type_spell(chain, buf, sizeof buf);
    CHECK(n > 0 && strlen(buf) == sizeof buf - 1);
    blobc_buffer out = {0};
    CHECK_EQ_U(blobc_schema_report(s, &out, &err), BLOBC_OK);
    CHECK(out.len > (size_t)HALF * 40);
    blobc_buffer_free(&out);
    blobc_schema_free(s);

    s = blobc_schema_new("");
    CHECK_EQ_U(deep_graph(s, HALF, HALF + 1, &root, &chain, &fixed), BLOBC_EINPUT);
    CHECK_CONTAINS(fmt, "nests more than 10000 levels deep inline (structs and fixed arrays held "
                        "in place); a value of it could not be written as text");
    blobc_schema_free(s);

    /* A struct chain closed into an inline cycle. */
    s = blobc_schema_new("");
    blobc_type *prev = NULL, *last = NULL;
    for (int i = DEPTH - 1; i >= 0; i--) {
        blobc_type *t = mk(s, BLOBC_KIND_STRUCT, "S");
        blobc_field *f = mkfields(s, t, 1);
        f[0].name = "f";
        f[0].type = prev;
        if (!last) last = t;
        prev = t;
    }
    ((blobc_field *)last->fields)[0].type = prev;
    s->root = prev;
    CHECK_EQ_U(lay(s), BLOBC_EINPUT);
    CHECK_CONTAINS(fmt, "error: struct S contains itself inline: S.f -> S.f -> ");
    blobc_schema_free(s);
}

/* ---- the check report ---- */

TEST(report_golden) {
    char *text = slurp("tests/data/schema/report.schema");
    char *want = slurp("tests/data/schema/report.expect");
    if (!text || !want) FAILF("missing tests/data/schema/report.{schema,expect}");
    blobc_schema *s = NULL;
    blobc_error_clear(&err);
    blobc_status st = blobc_schema_parse(text, strlen(text), "report.schema", &s, &err);
    free(text);
    if (st != BLOBC_OK) {
        free(want);
        blobc_error_format(&err, fmt, sizeof fmt);
        FAILF("%s", fmt);
    }
    blobc_buffer out = {0};
    CHECK_EQ_U(blobc_schema_report(s, &out, &err), BLOBC_OK);
    blobc_buf_putc(&out, '\0');
    bool same = strcmp((const char *)out.data, want) == 0;
    if (!same) printf("---- got:\n%s---- want:\n%s----\n", (const char *)out.data, want);
    CHECK_EQ_U(blobc_schema_warning_count(s), 6);
    blobc_buffer_free(&out);
    blobc_schema_free(s);
    free(want);
    CHECK(same);
}

TEST(report_without_root) {
    blobc_schema *s = parse("struct A { x: u32; }");
    if (!s) FAILF("%s", fmt);
    blobc_buffer out = {0};
    CHECK_EQ_U(blobc_schema_report(s, &out, &err), BLOBC_OK);
    blobc_buf_putc(&out, '\0');
    CHECK_STR((const char *)out.data,
              "struct A  (size 4, align 4)\n"
              "    offset  size  field\n"
              "         0     4  x: u32\n"
              "\n"
              "no root\n"
              "t.schema: warning: no root declared; baking needs -t TYPE or a $type key in the data\n"
              "t.schema: 1 type, 1 warning\n");
    blobc_buffer_free(&out);
    blobc_schema_free(s);
}

/* A raw tab is allowed in a string literal (as documented); other raw
 * control characters are not. */
TEST(string_literal_raw_tab) {
    blobc_schema *s = parse("struct A { s: string = \"a\tb\"; }\nroot A;\n");
    if (!s) FAILF("parse failed: %s", fmt);
    const blobc_type *a = blobc_schema_root(s);
    CHECK_EQ_U(a->fields[0].def.str_len, 3);
    CHECK(memcmp(a->fields[0].def.str, "a\tb", 3) == 0);
    blobc_schema_free(s);
    CHECK(parse_fails("struct A { s: string = \"a\x01b\"; }\n"));
    CHECK_CONTAINS(fmt, "t.schema:1:26: error: control character in string literal");
}

TEST_MAIN_BEGIN("schema")
RUN(parse_level);
RUN(parse_syntax_details);
RUN(parse_enum_values);
RUN(parse_defaults);
RUN(string_literal_raw_tab);
RUN(parse_empty_and_comment_only);
RUN(doc_comments_are_kept);
RUN(imports_read_each_file_once);
RUN(names_up_to_1024_bytes);
RUN(errors_have_positions_and_lines);
RUN(errors_each_rule);
RUN(bad_schema_corpus);
RUN(load_missing_file);
RUN(layout_matches_c);
RUN(layout_sizes_of_every_kind);
RUN(layout_recursion_through_arrays_and_pointers);
RUN(layout_align_attribute);
RUN(composites_are_interned);
RUN(builtins_and_kinds);
RUN(find_field_small_and_large);
RUN(enum_lookups);
RUN(type_spelling);
RUN(hash_ignores_names_and_member_order);
RUN(hash_changes_with_every_layout_change);
RUN(hash_serialization_is_as_documented);
RUN(hash_golden_value);
RUN(handbuilt_layout);
RUN(handbuilt_rejections);
RUN(add_named_rejects_anonymous);
RUN(handbuilt_deep_graphs);
RUN(report_golden);
RUN(report_without_root);
TEST_MAIN_END
