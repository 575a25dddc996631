/*
 * walk_checks.c - the rules the bytes of a value must keep (FORMAT.md,
 * "Verification"): bools are 0 or 1, enums hold declared values, floats
 * no non-canonical NaN, padding is zero, string bytes are valid UTF-8 with
 * one NUL, last.
 *
 * Each rule of a check op is written once, in the table `rules`: a test
 * of many items at once (a contiguous run, or one op's items across a
 * chunk of elements), the test of one item, which finds the first failure
 * in order once the many-item test said no, and the error message. The
 * walker runs every check through this table.
 */
#include "read/walk_internal.h"

#include <inttypes.h>

/* The value of the es-byte little-endian integer at p. */
static uint64_t load_le(const uint8_t *p, unsigned size) {
    switch (size) {
    case 1: return p[0];
    case 2: return blobc_ld16(p);
    case 4: return blobc_ld32(p);
    default: return blobc_ld64(p);
    }
}

static bool enum_ok(const blobc_winfo *in, uint64_t key) {
    if (key < in->emin || key > in->emax) return false;
    if (in->edense) return true;
    uint64_t d = key - in->emin;
    if (in->ebits) return (in->ebits[d / 8] >> (d % 8)) & 1;
    size_t lo = 0, hi = in->nevals;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (in->evals[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo < in->nevals && in->evals[lo] == key;
}

/* Whether the enum value of es bytes at q is declared. */
static bool enum_item_ok(const blobc_winfo *ei, const uint8_t *q, unsigned es) {
    uint64_t v = load_le(q, es);
    if (ei->esigned && es < 8 && (v >> (8 * es - 1)) & 1) v |= ~0ull << (8 * es);
    return enum_ok(ei, enum_bias(ei->esigned, v));
}

static bool f32_bad(uint32_t b) { return (b & 0x7fffffffu) > 0x7f800000u && b != 0x7fc00000u; }
static bool f64_bad(uint64_t b) {
    return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull && b != 0x7ff8000000000000ull;
}

/* ---- many items at once ----
 * Each answers exactly whether cnt groups of n items, the groups `es`
 * bytes apart from q, all keep the rule: one op's items across a chunk
 * of elements, or (cnt 1) one contiguous run. One accumulator and one
 * branch: the OR of (word & mask) is (OR of words) & mask, and the NaN
 * tests only say "maybe" (a canonical NaN sets them too), so a hit is
 * settled by an exact pass. */

static unsigned or_bytes(const uint8_t *q, size_t n, size_t es, size_t cnt) {
    unsigned acc = 0;
    for (size_t i = 0; i < cnt; i++)
        for (size_t j = 0; j < n; j++) acc |= q[i * es + j];
    return acc;
}

static bool bool_pass(const blobc_walk *w, const wop *op, const uint8_t *q, size_t n, size_t es,
                      size_t cnt) {
    return or_bytes(q, n, es, cnt) <= 1;
}

static bool pad_pass(const blobc_walk *w, const wop *op, const uint8_t *q, size_t n, size_t es,
                     size_t cnt) {
    return or_bytes(q, n, es, cnt) == 0;
}

static bool mask_pass(const blobc_walk *w, const wop *op, const uint8_t *q, size_t n, size_t es,
                      size_t cnt) {
    /* word by word, each over the elements: one load and one OR an
     * element */
    for (size_t j = 0; j < n; j++) {
        const uint8_t *r = q + 8 * j;
        uint64_t a0 = 0, a1 = 0;
        size_t i = 0;
        for (; i + 2 <= cnt; i += 2, r += 2 * es) {
            a0 |= ld64(r);
            a1 |= ld64(r + es);
        }
        if (i < cnt) a0 |= ld64(r);
        if ((a0 | a1) & op->mask) return false;
    }
    return true;
}

static bool f32_pass(const blobc_walk *w, const wop *op, const uint8_t *q, size_t n, size_t es,
                     size_t cnt) {
    /* two floats a word, each pair over the elements; |x| > 0x7f800000
     * is bit 31 of |x| + 0x007fffff, which cannot carry into the other
     * half */
    uint64_t acc = 0;
    size_t j = 0;
    for (; j + 2 <= n; j += 2) {
        const uint8_t *r = q + 4 * j;
        uint64_t a0 = 0, a1 = 0;
        size_t i = 0;
        for (; i + 2 <= cnt; i += 2, r += 2 * es) {
            a0 |= (ld64(r) & 0x7fffffff7fffffffull) + 0x007fffff007fffffull;
            a1 |= (ld64(r + es) & 0x7fffffff7fffffffull) + 0x007fffff007fffffull;
        }
        if (i < cnt) a0 |= (ld64(r) & 0x7fffffff7fffffffull) + 0x007fffff007fffffull;
        acc |= a0 | a1;
    }
    if (j < n)
        for (size_t i = 0; i < cnt; i++) acc |= (ld32(q + i * es + 4 * j) & 0x7fffffffu) + 0x007fffffu;
    if (BLOBC_UNLIKELY(acc & 0x8000000080000000ull))
        for (size_t i = 0; i < cnt; i++)
            for (j = 0; j < n; j++)
                if (f32_bad(ld32(q + i * es + 4 * j))) return false;
    return true;
}

static bool f64_pass(const blobc_walk *w, const wop *op, const uint8_t *q, size_t n, size_t es,
                     size_t cnt) {
    /* |x| > 0x7ff0000000000000 carries into bit 63 */
    uint64_t acc = 0;
    for (size_t i = 0; i < cnt; i++)
        for (size_t j = 0; j < n; j++)
            acc |= (ld64(q + i * es + 8 * j) & 0x7fffffffffffffffull) + 0x000fffffffffffffull;
    if (BLOBC_UNLIKELY(acc >> 63))
        for (size_t i = 0; i < cnt; i++)
            for (size_t j = 0; j < n; j++)
                if (f64_bad(ld64(q + i * es + 8 * j))) return false;
    return true;
}

static bool enum_pass(const blobc_walk *w, const wop *op, const uint8_t *q, size_t n, size_t es,
                      size_t cnt) {
    const blobc_winfo *ei = &w->infos[op->tid];
    const unsigned esz = op->esize;
    for (size_t i = 0; i < cnt; i++)
        for (size_t j = 0; j < n; j++)
            if (!enum_item_ok(ei, q + i * es + (size_t)esz * j, esz)) return false;
    return true;
}

/* ---- one item ---- */

static bool bool_bad(const blobc_walk *w, const wop *op, const uint8_t *q) { return *q > 1; }
static bool pad_bad(const blobc_walk *w, const wop *op, const uint8_t *q) { return *q != 0; }
static bool mask_bad(const blobc_walk *w, const wop *op, const uint8_t *q) {
    return (blobc_ld64(q) & op->mask) != 0;
}
static bool f32_item_bad(const blobc_walk *w, const wop *op, const uint8_t *q) {
    return f32_bad(blobc_ld32(q));
}
static bool f64_item_bad(const blobc_walk *w, const wop *op, const uint8_t *q) {
    return f64_bad(blobc_ld64(q));
}
static bool enum_bad(const blobc_walk *w, const wop *op, const uint8_t *q) {
    return !enum_item_ok(&w->infos[op->tid], q, op->esize);
}

/* ---- the messages, for the failing item at data offset `bad` ---- */

static blobc_status bool_fail(blobc_walk *w, blobc_error *err, const wop *op, size_t bad) {
    return blobc_walk_fail(w, err, BLOBC_V_BOOL, bad, bad, "bool byte is %u, not 0 or 1",
                           w->data[bad]);
}

static blobc_status pad_fail(blobc_walk *w, blobc_error *err, const wop *op, size_t bad) {
    return blobc_walk_fail(w, err, BLOBC_V_PADDING, bad, bad, "nonzero padding byte 0x%02x",
                           w->data[bad]);
}

static blobc_status f32_fail(blobc_walk *w, blobc_error *err, const wop *op, size_t bad) {
    return blobc_walk_fail(w, err, BLOBC_V_NAN, bad, bad,
                           "f32 NaN 0x%08" PRIx32 " is not the canonical NaN 0x7fc00000",
                           blobc_ld32(w->data + bad));
}

static blobc_status f64_fail(blobc_walk *w, blobc_error *err, const wop *op, size_t bad) {
    return blobc_walk_fail(w, err, BLOBC_V_NAN, bad, bad,
                           "f64 NaN 0x%016" PRIx64 " is not the canonical NaN 0x7ff8000000000000",
                           blobc_ld64(w->data + bad));
}

static blobc_status enum_fail(blobc_walk *w, blobc_error *err, const wop *op, size_t bad) {
    const blobc_winfo *in = &w->infos[op->tid];
    const char *name = in->type->name ? in->type->name : "?";
    unsigned es = op->esize;
    uint64_t v = load_le(w->data + bad, es);
    if (blobc_kind_is_signed(in->type->elem->kind)) {
        if (es < 8 && (v >> (8 * es - 1)) & 1) v |= ~0ull << (8 * es);
        return blobc_walk_fail(w, err, BLOBC_V_ENUM, bad, bad, "%" PRId64 " is not a value of enum %s",
                               (int64_t)v, name);
    }
    return blobc_walk_fail(w, err, BLOBC_V_ENUM, bad, bad, "%" PRIu64 " is not a value of enum %s", v,
                           name);
}

/* ---- unions: the tag names a member (1..count) and the offset is not
 * 0, or, in a field declared `= null` only, the tag is 0 (none) and so is
 * the offset: what bake writes and dump writes back ---- */

static bool utag_ok(uint32_t count, bool none_ok, const uint8_t *q) {
    uint32_t tag = ld32(q);
    return tag == 0 ? none_ok && ld32(q + BLOBC_UNION_REF) == 0
                    : tag <= count && ld32(q + BLOBC_UNION_REF) != 0;
}

static bool utag_pass(const blobc_walk *w, const wop *op, const uint8_t *q, size_t n, size_t es,
                      size_t cnt) {
    const uint32_t count = w->infos[op->tid].count;
    const bool none_ok = op->mask == NONE_OK;
    for (size_t i = 0; i < cnt; i++)
        for (size_t j = 0; j < n; j++)
            if (!utag_ok(count, none_ok, q + i * es + BLOBC_UNION_SIZE * j)) return false;
    return true;
}

static bool utag_bad(const blobc_walk *w, const wop *op, const uint8_t *q) {
    return !utag_ok(w->infos[op->tid].count, op->mask == NONE_OK, q);
}

static blobc_status utag_fail(blobc_walk *w, blobc_error *err, const wop *op, size_t bad) {
    const blobc_type *u = w->infos[op->tid].type;
    uint32_t tag = blobc_ld32(w->data + bad);
    int32_t off = (int32_t)blobc_ld32(w->data + bad + BLOBC_UNION_REF);
    if (tag == 0 && op->mask != NONE_OK)
        return blobc_walk_fail(w, err, BLOBC_V_UNION, bad, bad,
                               "union %s holds no member (tag 0), which only a field declared "
                               "'= null' or an @open union may",
                               u->name);
    if (tag == 0)
        return blobc_walk_fail(w, err, BLOBC_V_UNION, bad + BLOBC_UNION_REF, bad,
                               "union holds no member (tag 0) but its offset is %" PRId32 ", not 0",
                               off);
    if (tag > u->nfields)
        return blobc_walk_fail(w, err, BLOBC_V_UNION, bad, bad,
                               "union tag %" PRIu32 " names no member of %s (1 to %" PRIu32
                               ", or 0 for none)",
                               tag, u->name, u->nfields);
    return blobc_walk_fail(w, err, BLOBC_V_UNION, bad + BLOBC_UNION_REF, bad,
                           "union tag %" PRIu32 " (%s) with offset 0 (a member is never null)", tag,
                           u->fields[tag - 1].name);
}

/* ---- the table ---- */

typedef struct wrule {
    int code; /* BLOBC_V_* of a failure; CODE_MASK: found from the type */
    bool (*pass)(const blobc_walk *w, const wop *op, const uint8_t *q, size_t n, size_t es,
                 size_t cnt);
    bool (*bad)(const blobc_walk *w, const wop *op, const uint8_t *q);
    /* NULL for OP_MASK: blobc_walk_check_fail finds the rule of the byte */
    blobc_status (*fail)(blobc_walk *w, blobc_error *err, const wop *op, size_t bad);
} wrule;

static const wrule rules[OP_COUNT] = {
    [OP_BOOL] = {BLOBC_V_BOOL, bool_pass, bool_bad, bool_fail},
    [OP_ENUM] = {BLOBC_V_ENUM, enum_pass, enum_bad, enum_fail},
    [OP_F32] = {BLOBC_V_NAN, f32_pass, f32_item_bad, f32_fail},
    [OP_F64] = {BLOBC_V_NAN, f64_pass, f64_item_bad, f64_fail},
    [OP_PAD] = {BLOBC_V_PADDING, pad_pass, pad_bad, pad_fail},
    [OP_MASK] = {CODE_MASK, mask_pass, mask_bad, NULL},
    [OP_UTAG] = {BLOBC_V_UNION, utag_pass, utag_bad, utag_fail},
};

int blobc_walk_run_check(const blobc_walk *w, const wop *op, size_t p, size_t n, size_t *bad) {
    const wrule *r = &rules[op->code];
    const uint8_t *d = w->data + p;
    if (BLOBC_LIKELY(r->pass(w, op, d, n, 0, 1))) return 0;
    for (size_t i = 0; i < n; i++) {
        if (!r->bad(w, op, d + (size_t)op->esize * i)) continue;
        *bad = p + (size_t)op->esize * i;
        if (op->code == OP_MASK) {
            /* the first byte that has a forbidden bit */
            uint64_t v = blobc_ld64(d + 8 * i) & op->mask;
            while (!(v & 0xff)) {
                v >>= 8;
                ++*bad;
            }
        }
        return r->code;
    }
    return 0;
}

/* Op by op over the elements, so that each op's test is one tight loop;
 * on false the caller walks them in order, op by op, to report the first
 * failure as if this pass had not run. */
bool blobc_walk_checks_pass(const blobc_walk *w, const blobc_winfo *in, size_t base, size_t i0,
                            size_t i1) {
    const size_t es = in->size, cnt = i1 - i0;
    for (uint32_t k = 0; k < in->ncops; k++) {
        const wop *op = &in->cops[k];
        if (!rules[op->code].pass(w, op, w->data + base + i0 * es + op->off, op->n, es, cnt))
            return false;
    }
    return true;
}

blobc_status blobc_walk_check_fail(blobc_walk *w, blobc_error *err, const wop *op, size_t bad,
                                   const blobc_type *etype, size_t ebase) {
    if (op->code != OP_MASK) return rules[op->code].fail(w, err, op, bad);
    /* down to the leaf holding the byte: a bool, an enum, or padding */
    const blobc_type *t = etype;
    uint64_t off = bad - ebase;
    char comp[BLOBC_PATH_STEP_MAX];
    while (blobc_path_step(&t, &off, comp, sizeof comp)) {
    }
    if (t->kind == BLOBC_KIND_BOOL) return bool_fail(w, err, op, bad);
    if (t->kind == BLOBC_KIND_ENUM) {
        wop eop = {OP_ENUM, (uint8_t)t->size, 0, 1, blobc_walk_type_lookup(w, t), 0};
        return enum_fail(w, err, &eop, bad - (size_t)off);
    }
    return pad_fail(w, err, op, bad);
}

/* ---- string bytes ---- */

/* Index of the first byte of s[0..n) that starts an invalid UTF-8 sequence. */
static size_t utf8_bad_at(const uint8_t *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                                  : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (len == 0 || len > n - i || !blobc_utf8_valid(s + i, len)) return i;
        i += len;
    }
    return n;
}

/* String bytes: NUL last and nowhere else, valid UTF-8. The common case
 * (short ASCII) is one pass of 8-byte words. */
static int string_rule(const uint8_t *s, size_t n, size_t *bad) {
    if (s[n - 1] != 0) {
        *bad = n - 1;
        return BLOBC_V_STRING_NUL;
    }
    size_t m = n - 1, i = 0;
    for (; i + 8 <= m; i += 8) {
        uint64_t v;
        memcpy(&v, s + i, 8);
        if ((v | ((v - 0x0101010101010101ull) & ~v)) & 0x8080808080808080ull) break;
    }
    while (i < m && s[i] != 0 && s[i] < 0x80) i++;
    if (BLOBC_LIKELY(i == m)) return 0;
    const uint8_t *z = memchr(s + i, 0, m - i);
    if (z) {
        *bad = (size_t)(z - s);
        return BLOBC_V_STRING_NUL;
    }
    if (!blobc_utf8_valid(s + i, m - i)) {
        *bad = i + utf8_bad_at(s + i, m - i);
        return BLOBC_V_UTF8;
    }
    return 0;
}


blobc_status blobc_walk_string_check(blobc_walk *w, size_t p, size_t t, size_t n,
                                     blobc_error *err) {
    size_t b = 0;
    int code = string_rule(w->data + t, n, &b);
    if (!code) return BLOBC_OK;
    const uint8_t *s = w->data + t;
    if (code == BLOBC_V_STRING_NUL && b == n - 1)
        return blobc_walk_fail(w, err, code, t + b, p,
                               "string does not end with NUL (last byte 0x%02x)", s[b]);
    if (code == BLOBC_V_STRING_NUL)
        return blobc_walk_fail(w, err, code, t + b, p, "NUL inside the string at byte %zu of %zu", b,
                               n - 1);
    return blobc_walk_fail(w, err, code, t + b, p, "string is not valid UTF-8 at byte %zu (0x%02x)", b,
                           s[b]);
}
