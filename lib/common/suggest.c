/*
 * suggest.c - "did you mean" for an unknown name: the closest candidate
 * by edit distance, when it is close enough to be a typo.
 */
#include "common/suggest.h"

#include <stdio.h>

void blobc_suggest_init(blobc_suggest *sg, const char *want, size_t len) {
    sg->want = want;
    sg->want_len = len;
    sg->best = NULL;
    sg->best_dist = SIZE_MAX;
}

void blobc_suggest_offer(blobc_suggest *sg, const char *candidate) {
    if (!candidate) return;
    size_t cl = strlen(candidate);
    size_t d = blobc_edit_distance(sg->want, sg->want_len, candidate, cl);
    /* A difference in case only ("U32" for "u32") beats any other typo. */
    if (cl == sg->want_len) {
        size_t i = 0;
        while (i < cl && (sg->want[i] | 0x20) == (candidate[i] | 0x20)) i++;
        if (i == cl) d = 0;
    }
    /* Close enough to be a typo: at most 2 edits and fewer than half the
     * letters of the longer name. */
    size_t longer = cl > sg->want_len ? cl : sg->want_len;
    if (d > 2 || d * 2 >= longer) return;
    if (d < sg->best_dist) {
        sg->best = candidate;
        sg->best_dist = d;
    }
}

const char *blobc_suggest_text(const blobc_suggest *sg, char *buf, size_t cap) {
    if (!sg->best) return "";
    snprintf(buf, cap, "; did you mean '%s'?", sg->best);
    return buf;
}
