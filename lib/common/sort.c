/*
 * sort.c - a stable LSD radix sort on 11-bit digits. A digit every key
 * shares is skipped (most keys are small, so two or three passes of the
 * six), which keeps the sort linear and its passes few.
 */
#include "common/sort.h"

#include <stdlib.h>
#include <string.h>

#define DIGIT_BITS 11
#define DIGITS ((size_t)1 << DIGIT_BITS)

bool blobc_sort_by_key(blobc_sort_rec *v, size_t n) {
    if (n < 2) return true;
    blobc_sort_rec *tmp = malloc(n * sizeof *tmp), *a = v, *b = tmp;
    size_t *count = malloc(DIGITS * sizeof *count);
    bool ok = tmp && count;
    for (unsigned shift = 0; ok && shift < 64; shift += DIGIT_BITS) {
        memset(count, 0, DIGITS * sizeof *count);
        for (size_t i = 0; i < n; i++) count[(a[i].key >> shift) & (DIGITS - 1)]++;
        if (count[(a[0].key >> shift) & (DIGITS - 1)] == n) continue; /* one digit for all */
        for (size_t d = 0, at = 0; d < DIGITS; d++) {
            size_t c = count[d];
            count[d] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++) b[count[(a[i].key >> shift) & (DIGITS - 1)]++] = a[i];
        blobc_sort_rec *t = a;
        a = b;
        b = t;
    }
    if (ok && a != v) memcpy(v, a, n * sizeof *v);
    free(tmp);
    free(count);
    return ok;
}
