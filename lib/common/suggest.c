/*
 * suggest.c - did-you-mean for every unknown name the library reports.
 */
#include "common/suggest.h"
#include "blobc/blobc.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>


size_t blobc_edit_distance(const char *a, size_t alen, const char *b, size_t blen) {
    /* Names are short; anything longer is not worth suggesting. */
    enum { MAXN = 64 };
    if (alen > MAXN || blen > MAXN) return SIZE_MAX;
    /* Three rows: the one before the previous counts a swap of two
     * neighbouring letters ("nmae" for "name") as one edit. */
    size_t r0[MAXN + 1], r1[MAXN + 1], r2[MAXN + 1];
    size_t *pp = r0, *prev = r1, *row = r2;
    for (size_t j = 0; j <= blen; j++) prev[j] = j;
    for (size_t i = 1; i <= alen; i++) {
        row[0] = i;
        for (size_t j = 1; j <= blen; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t best = prev[j - 1] + cost;
            if (prev[j] + 1 < best) best = prev[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                pp[j - 2] + 1 < best)
                best = pp[j - 2] + 1;
            row[j] = best;
        }
        size_t *t = pp;
        pp = prev;
        prev = row;
        row = t;
    }
    return prev[blen];
}

void blobc_suggest_init(blobc_suggest *sg, const char *want, size_t len) {
    sg->want = want;
    sg->want_len = len;
    sg->best = NULL;
    sg->best_dist = SIZE_MAX;
    sg->best_swapped = false;
}

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static bool equal_ci(const char *a, size_t alen, const char *b, size_t blen) {
    if (alen != blen) return false;
    for (size_t i = 0; i < alen; i++)
        if (lower((unsigned char)a[i]) != lower((unsigned char)b[i])) return false;
    return true;
}

/* The same letters in another order: "flaot" for "float". */
static bool anagram(const char *a, size_t alen, const char *b, size_t blen) {
    if (alen != blen) return false;
    unsigned count[256] = {0};
    for (size_t i = 0; i < alen; i++) count[(unsigned char)a[i]]++;
    for (size_t i = 0; i < blen; i++)
        if (count[(unsigned char)b[i]]-- == 0) return false;
    return true;
}

/* A nearer name wins; at the same distance the first offered, unless the
 * later one is the wanted name's letters swapped ("int46" is int64, not
 * int16). */
static void consider(blobc_suggest *sg, const char *name, size_t name_len, const char *suggest,
                     size_t d) {
    if (d > sg->best_dist) return;
    bool swapped = d > 0 && anagram(sg->want, sg->want_len, name, name_len);
    if (d == sg->best_dist && !(swapped && !sg->best_swapped)) return;
    sg->best = suggest;
    sg->best_dist = d;
    sg->best_swapped = swapped;
}

/* Offers `suggest` when `name` is near enough to the wanted one. */
static void offer_as(blobc_suggest *sg, const char *name, const char *suggest) {
    size_t cl = strlen(name);
    if (equal_ci(sg->want, sg->want_len, name, cl)) {
        consider(sg, name, cl, suggest, 0);
        return;
    }
    size_t d = blobc_edit_distance(sg->want, sg->want_len, name, cl);
    size_t longest = cl > sg->want_len ? cl : sg->want_len;
    size_t limit = longest <= 4 ? 1 : longest <= 6 ? 2 : 3;
    if (d > limit || d >= longest) return;
    consider(sg, name, cl, suggest, d);
}

void blobc_suggest_offer(blobc_suggest *sg, const char *candidate) {
    if (candidate) offer_as(sg, candidate, candidate);
}

/* The builtin types under the names C, C++, C#, Java, Go, Rust, Python
 * and serialization formats (protobuf, FlatBuffers) give them. */
static const struct {
    const char *spelling, *builtin;
} spellings[] = {
    {"boolean", "bool"},    {"_Bool", "bool"},
    {"char", "i8"},         {"int8", "i8"},        {"int8_t", "i8"},      {"sbyte", "i8"},
    {"byte", "u8"},         {"uint8", "u8"},       {"uint8_t", "u8"},     {"uchar", "u8"},
    {"short", "i16"},       {"int16", "i16"},      {"int16_t", "i16"},
    {"ushort", "u16"},      {"uint16", "u16"},     {"uint16_t", "u16"},
    {"int", "i32"},         {"int32", "i32"},      {"int32_t", "i32"},    {"integer", "i32"},
    {"uint", "u32"},        {"uint32", "u32"},     {"uint32_t", "u32"},   {"unsigned", "u32"},
    {"long", "i64"},        {"int64", "i64"},      {"int64_t", "i64"},
    {"ulong", "u64"},       {"uint64", "u64"},     {"uint64_t", "u64"},   {"size_t", "u64"},
    {"float", "f32"},       {"float32", "f32"},    {"single", "f32"},     {"real", "f32"},
    {"double", "f64"},      {"float64", "f64"},
    {"str", "string"},      {"String", "string"},  {"std::string", "string"},
    {"text", "string"},     {"char*", "string"},   {"const char*", "string"},
};

void blobc_suggest_builtin_spellings(blobc_suggest *sg) {
    size_t n = sizeof spellings / sizeof spellings[0];
    for (size_t i = 0; i < n; i++)
        if (sg->best_dist != 0 &&
            equal_ci(sg->want, sg->want_len, spellings[i].spelling, strlen(spellings[i].spelling))) {
            sg->best = spellings[i].builtin;
            sg->best_dist = 0;
            return;
        }
    /* a typo of such a spelling ("flaot") is as good a guess as any other */
    for (size_t i = 0; i < n; i++) offer_as(sg, spellings[i].spelling, spellings[i].builtin);
}

const char *blobc_suggest_best(const blobc_suggest *sg) { return sg->best; }

const char *blobc_suggest_text(const blobc_suggest *sg, char *buf, size_t cap) {
    if (!sg->best) return "";
    snprintf(buf, cap, "; did you mean '%s'?", sg->best);
    return buf;
}

const char *blobc_closest_name(const char *word, size_t len, const char *const *names, size_t n) {
    if (!word || (n && !names)) return NULL;
    blobc_suggest sg;
    blobc_suggest_init(&sg, word, len);
    for (size_t i = 0; i < n; i++)
        if (names[i]) blobc_suggest_offer(&sg, names[i]);
    return blobc_suggest_best(&sg);
}
