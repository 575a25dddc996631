/*
 * stream.c - what every consumer of the value stream does with a scalar:
 * its text (as dump writes it) and equality.
 */
#include "common/stream.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/fmt_float.h"

static size_t put(char *buf, size_t cap, const char *s, size_t n) {
    if (cap) {
        size_t k = n < cap - 1 ? n : cap - 1;
        memcpy(buf, s, k);
        buf[k] = '\0';
    }
    return n;
}

size_t blobc_sval_text(const blobc_type *t, const blobc_sval *v, char *buf, size_t cap) {
    char tmp[BLOBC_FLOAT_TEXT_MAX + 2];
    blobc_kind kind = t->kind;
    switch (kind) {
    case BLOBC_KIND_BOOL: return put(buf, cap, v->bits ? "true" : "false", v->bits ? 4 : 5);
    case BLOBC_KIND_STRING: return put(buf, cap, v->s, v->n);
    case BLOBC_KIND_ENUM: return put(buf, cap, v->s ? v->s : "?", v->s ? strlen(v->s) : 1);
    case BLOBC_KIND_F32:
    case BLOBC_KIND_F64:
        if (isnan(v->f)) return put(buf, cap, ".nan", 4);
        if (isinf(v->f)) return put(buf, cap, v->f < 0 ? "-.inf" : ".inf", v->f < 0 ? 5 : 4);
        return put(buf, cap, tmp, blobc_format_float(tmp, v->f, kind == BLOBC_KIND_F32));
    default:
        if (blobc_kind_is_signed(kind) && (int64_t)v->bits < 0) {
            tmp[0] = '-';
            size_t n = 1 + blobc_format_u64(tmp + 1, (uint64_t)0 - v->bits);
            return put(buf, cap, tmp, n);
        }
        return put(buf, cap, tmp, blobc_format_u64(tmp, v->bits));
    }
}

bool blobc_sval_equal(const blobc_type *t, const blobc_sval *a, const blobc_sval *b) {
    switch (t->kind) {
    case BLOBC_KIND_STRING: return a->n == b->n && (a->n == 0 || memcmp(a->s, b->s, a->n) == 0);
    case BLOBC_KIND_F32:
    case BLOBC_KIND_F64: {
        if (isnan(a->f) || isnan(b->f)) return isnan(a->f) && isnan(b->f);
        /* -0.0 and 0.0 differ in the blob */
        return memcmp(&a->f, &b->f, sizeof a->f) == 0;
    }
    default: return a->bits == b->bits;
    }
}
