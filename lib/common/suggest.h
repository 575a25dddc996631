/*
 * suggest.h - "did you mean" for unknown names (suggest.c).
 */
#ifndef BLOBC_SUGGEST_H
#define BLOBC_SUGGEST_H

#include "common/util.h"

/* Suggestion for an unknown name among candidates, or NULL. */
typedef struct blobc_suggest {
    const char *want;
    size_t want_len;
    const char *best;
    size_t best_dist;
} blobc_suggest;
void blobc_suggest_init(blobc_suggest *sg, const char *want, size_t len);
void blobc_suggest_offer(blobc_suggest *sg, const char *candidate);
/* " (did you mean 'x'?)"-style suffix, or "" */
const char *blobc_suggest_text(const blobc_suggest *sg, char *buf, size_t cap);

#endif
