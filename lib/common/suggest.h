/*
 * suggest.h - did-you-mean: the one place that decides which known name
 * an unknown one was meant to be, for schema type names, enum members,
 * data keys and $type alike. Not installed.
 */
#ifndef BLOBC_SUGGEST_H
#define BLOBC_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

/* Collects the closest candidate for `want`: a difference in case only
 * beats any typo; else the smallest edit distance (a swap of neighbours
 * is one edit) within a bound that grows with the longer name: 1 edit up
 * to 4 letters, 2 up to 6, else 3, and always fewer than its letters; at
 * the same distance the first offered, unless a later one has the same
 * letters in another order. */
typedef struct blobc_suggest {
    const char *want;
    size_t want_len;
    const char *best;
    size_t best_dist;
    bool best_swapped; /* best is want's letters in another order */
} blobc_suggest;

void blobc_suggest_init(blobc_suggest *sg, const char *want, size_t len);
void blobc_suggest_offer(blobc_suggest *sg, const char *candidate);
/* For type names, after the candidates: when `want` is how another
 * language spells a builtin ("float", "uint8_t", "std::string",
 * "boolean"), that builtin wins over any typo (not over a name that
 * differs in case only); a typo of such a spelling ("flaot") offers the
 * builtin like any other candidate. */
void blobc_suggest_builtin_spellings(blobc_suggest *sg);
/* The suggestion, or NULL. */
const char *blobc_suggest_best(const blobc_suggest *sg);
/* "; did you mean 'x'?" (the schema's messages), or "" */
const char *blobc_suggest_text(const blobc_suggest *sg, char *buf, size_t cap);

/* Edit distance (insert, delete, replace, swap two neighbours), capped. */
size_t blobc_edit_distance(const char *a, size_t alen, const char *b, size_t blen);

#endif
