/*
 * test_suggest.c - did-you-mean for every kind of name it serves, against
 * the typo people make most: two neighbouring letters swapped. Every
 * swap of every name of each kind must suggest that name: builtin type
 * names and the spellings other languages give them ("flaot" is f32),
 * declared type names and enum members in a schema, and in the data field
 * keys, enum members, union members and $type.
 */
#include <stdbool.h>

#include "blobc/blobc.h"
#include "test.h"

static blobc_error err;

/* How other languages spell the builtins (lib/common/suggest.c). */
static const char *const spellings[][2] = {
    {"boolean", "bool"}, {"char", "i8"},        {"int8", "i8"},     {"int8_t", "i8"},
    {"sbyte", "i8"},     {"byte", "u8"},        {"uint8", "u8"},    {"uint8_t", "u8"},
    {"uchar", "u8"},     {"short", "i16"},      {"int16", "i16"},   {"int16_t", "i16"},
    {"ushort", "u16"},   {"uint16", "u16"},     {"uint16_t", "u16"}, {"int", "i32"},
    {"int32", "i32"},    {"int32_t", "i32"},    {"integer", "i32"}, {"uint", "u32"},
    {"uint32", "u32"},   {"uint32_t", "u32"},   {"unsigned", "u32"}, {"long", "i64"},
    {"int64", "i64"},    {"int64_t", "i64"},    {"ulong", "u64"},   {"uint64", "u64"},
    {"uint64_t", "u64"}, {"size_t", "u64"},     {"float", "f32"},   {"float32", "f32"},
    {"single", "f32"},   {"real", "f32"},       {"double", "f64"},  {"float64", "f64"},
    {"str", "string"},   {"String", "string"},  {"text", "string"},
};
static const char *const builtins[] = {"bool", "i8",  "u8",  "i16", "u16", "i32",   "u32",
                                       "i64",  "u64", "f32", "f64", "string"};

/* The schema the data checks bake against: names of several lengths. */
static const char schema_text[] =
    "enum Kind : u8 { floor, wall, door, stairs, portcullis }\n"
    "struct Circle { r: f32; }\n"
    "struct Box { w: f32; }\n"
    "union Shape { Circle, Box }\n"
    "struct Room { id: u32; name: string; radius: f32 = 0; kind: Kind = floor;\n"
    "    shape: Shape = null; neighbors: [u32]; }\n"
    "struct Level { index: i32; rooms: [Room]; }\n"
    "root Level;\n";

/* swap_at: word with letters i and i+1 swapped (false when they are equal,
 * or when the swap starts the word with a digit: a number, not a name). */
static bool swap_at(const char *word, size_t i, char *out, size_t cap) {
    size_t n = strlen(word);
    if (i + 1 >= n || n >= cap || word[i] == word[i + 1]) return false;
    if (i == 0 && word[1] >= '0' && word[1] <= '9') return false;
    memcpy(out, word, n + 1);
    out[i] = word[i + 1];
    out[i + 1] = word[i];
    return true;
}

/* The message of a schema that fails to parse, or "" when it parses. */
static const char *schema_error(const char *text) {
    blobc_schema *s = NULL;
    blobc_error_clear(&err);
    if (blobc_schema_parse(text, strlen(text), "t.schema", &s, &err) == BLOBC_OK) {
        blobc_schema_free(s);
        return "";
    }
    return err.message;
}

/* The first error of baking data with the test schema. */
static const char *bake_error(const blobc_schema *s, const char *data) {
    blobc_bake_options o = {0};
    o.schema = s;
    blobc_buffer out = {0};
    blobc_error_clear(&err);
    blobc_status st = blobc_bake_memory(data, strlen(data), "t.yaml", &o, &out, &err);
    blobc_buffer_free(&out);
    return st == BLOBC_OK ? "" : err.message;
}

/* The first error for `typo` put into tmpl (one %s): the schema text's
 * when s is NULL, else the data's, baked with s. */
static const char *error_for(const char *tmpl, const blobc_schema *s, const char *typo) {
    static char text[1024];
    snprintf(text, sizeof text, tmpl, typo);
    return s ? bake_error(s, text) : schema_error(text);
}

/* NULL when every swap in `name` is answered with "did you mean
 * <q>want<q>", else what was answered instead. */
static const char *swaps_suggest(const char *name, const char *want, char q, const char *tmpl,
                                 const blobc_schema *s) {
    static char why[1400];
    for (size_t i = 0; name[i]; i++) {
        char typo[64], hint[96];
        if (!swap_at(name, i, typo, sizeof typo)) continue;
        const char *msg = error_for(tmpl, s, typo);
        snprintf(hint, sizeof hint, "did you mean %c%s%c", q, want, q);
        if (!strstr(msg, hint)) {
            snprintf(why, sizeof why, "'%s' (a swap in '%s'): got \"%s\", want \"%s\"", typo, name,
                     msg, hint);
            return why;
        }
    }
    return NULL;
}

#define CHECK_SWAPS(name, want, q, tmpl, s)                                   \
    do {                                                                      \
        const char *why_ = swaps_suggest(name, want, q, tmpl, s);             \
        if (why_) FAILF("%s", why_);                                          \
    } while (0)

#define N(a) (sizeof(a) / sizeof((a)[0]))

TEST(builtin_type_names) {
    for (size_t k = 0; k < N(builtins); k++)
        CHECK_SWAPS(builtins[k], builtins[k], '\'', "struct A { x: %s; }\n", NULL);
}

TEST(other_language_spellings) {
    for (size_t k = 0; k < N(spellings); k++)
        CHECK_SWAPS(spellings[k][0], spellings[k][1], '\'', "struct A { x: %s; }\n", NULL);
}

static const char *const members[] = {"floor", "wall", "door", "stairs", "portcullis"};

TEST(names_in_the_schema) {
    static const char *const names[] = {"Room", "Level", "Circle", "Portal", "Inventory"};
    for (size_t k = 0; k < N(names); k++)
        CHECK_SWAPS(names[k], names[k], '\'',
                    "struct Room { x: u8; } struct Level { x: u8; } struct Circle { x: u8; }\n"
                    "struct Portal { x: u8; } struct Inventory { x: u8; }\n"
                    "struct A { x: %s; }\n",
                    NULL);
    for (size_t k = 0; k < N(members); k++)
        CHECK_SWAPS(members[k], members[k], '\'',
                    "enum Kind : u8 { floor, wall, door, stairs, portcullis }\n"
                    "struct A { k: Kind = %s; }\n",
                    NULL);
}

TEST(names_in_the_data) {
    blobc_schema *s = NULL;
    if (blobc_schema_parse(schema_text, strlen(schema_text), "t.schema", &s, &err) != BLOBC_OK)
        FAILF("%s", err.message);
    static const char *const fields[] = {"id", "name", "radius", "kind", "shape", "neighbors"};
    static const char *const shapes[] = {"Circle", "Box"};
    static const char *const types[] = {"Level", "Room"};
    const char *why = NULL;
    for (size_t k = 0; k < N(fields) && !why; k++)
        why = swaps_suggest(fields[k], fields[k], '"',
                            "index: 1\nrooms:\n  - {id: 1, name: a, %s: 1}\n", s);
    for (size_t k = 0; k < N(members) && !why; k++)
        why = swaps_suggest(members[k], members[k], '"',
                            "index: 1\nrooms:\n  - {id: 1, name: a, kind: %s}\n", s);
    for (size_t k = 0; k < N(shapes) && !why; k++)
        why = swaps_suggest(shapes[k], shapes[k], '"',
                            "index: 1\nrooms:\n  - {id: 1, name: a, shape: {%s: {}}}\n", s);
    for (size_t k = 0; k < N(types) && !why; k++)
        why = swaps_suggest(types[k], types[k], '"', "$type: %s\nindex: 1\n", s);
    blobc_schema_free(s);
    if (why) FAILF("%s", why);
}

TEST_MAIN_BEGIN("suggest")
RUN(builtin_type_names);
RUN(other_language_spellings);
RUN(names_in_the_schema);
RUN(names_in_the_data);
TEST_MAIN_END
