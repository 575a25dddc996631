/*
 * judge.c - one value against one value check, and the words of its
 * failure (judge.h). The value's text (a number as the data would write
 * it, a string quoted) is made only for a failure: most values pass.
 */
#include "common/judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fmt_float.h"
#include "common/quote.h"
#include "common/regex.h"
#include "common/scalar.h"
#include "platform/platform.h"

/* A string as messages quote it. */
#define QUOTED 200

bool blobc_judge_int_in_range(const blobc_check *c, bool is_signed, uint64_t v) {
    if (is_signed)
        return (!c->has_lo || (int64_t)v >= (int64_t)c->lo) && (!c->has_hi || (int64_t)v <= (int64_t)c->hi);
    return (!c->has_lo || v >= c->lo) && (!c->has_hi || v <= c->hi);
}

bool blobc_judge_float_in_range(const blobc_check *c, double d) {
    return (!c->has_lo || d >= c->lo_f) && (!c->has_hi || d <= c->hi_f) && !isnan(d);
}

/* A string's length in characters (code points): what a designer counts. */
static size_t chars(const char *s, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xc0) != 0x80;
    return c;
}

static bool is_float(blobc_kind kind) { return kind == BLOBC_KIND_F32 || kind == BLOBC_KIND_F64; }

static double load_float(blobc_kind kind, const uint8_t *p) {
    if (kind == BLOBC_KIND_F64) {
        double d;
        memcpy(&d, p, 8);
        return d;
    }
    float f;
    memcpy(&f, p, 4);
    return f;
}

/* The number at p of scalar kind `kind` as the data writes it. */
static void number_text(blobc_kind kind, const uint8_t *p, char shown[64]) {
    if (is_float(kind)) {
        double d = load_float(kind, p);
        if (isnan(d)) strcpy(shown, ".nan");
        else if (isinf(d)) strcpy(shown, d > 0 ? ".inf" : "-.inf");
        else shown[blobc_format_float(shown, d, kind == BLOBC_KIND_F32)] = 0;
        return;
    }
    uint64_t v = blobc_load_int(p, kind);
    if (blobc_kind_is_signed(kind)) snprintf(shown, 64, "%lld", (long long)(int64_t)v);
    else shown[blobc_format_u64(shown, v)] = 0;
}

static blobc_kind base_kind(const blobc_type *t) {
    return t->kind == BLOBC_KIND_ENUM ? t->elem->kind : t->kind;
}

bool blobc_judge_number(const blobc_check *c, const blobc_type *t, const uint8_t *p, char *msg,
                        size_t cap) {
    blobc_kind kind = base_kind(t);
    if (c->kind != BLOBC_CHECK_RANGE || kind == BLOBC_KIND_BOOL) return true;
    bool in = is_float(kind) ? blobc_judge_float_in_range(c, load_float(kind, p))
                             : blobc_judge_int_in_range(c, blobc_kind_is_signed(kind), blobc_load_int(p, kind));
    if (in) return true;
    char shown[64];
    number_text(kind, p, shown);
    snprintf(msg, cap, "%s is out of %s", shown, c->text);
    return false;
}

int blobc_judge_string(const blobc_check *c, const char *s, size_t n, char *msg, size_t cap) {
    char q[QUOTED];
    if (c->kind == BLOBC_CHECK_LEN) {
        size_t len = chars(s, n);
        if (len >= c->min && len <= c->max) return 1;
        blobc_quote(q, sizeof q, s, n);
        snprintf(msg, cap, "%s has %zu character%s, outside %s", q, len, len == 1 ? "" : "s", c->text);
        return 0;
    }
    if (c->kind != BLOBC_CHECK_MATCH) return 1;
    int m = blobc_regex_search(c->impl, s, n);
    if (m) return m < 0 ? -1 : 1;
    blobc_quote(q, sizeof q, s, n);
    snprintf(msg, cap, "%s does not match %s", q, c->text);
    return 0;
}

bool blobc_judge_count(const blobc_check *c, uint64_t count, char *msg, size_t cap) {
    if (c->kind != BLOBC_CHECK_LEN || (count >= c->min && count <= c->max)) return true;
    snprintf(msg, cap, "%u item%s, outside %s", (unsigned)count, count == 1 ? "" : "s", c->text);
    return false;
}

void blobc_judge_repeat(const blobc_check *c, const blobc_type *t, const void *bytes, size_t n,
                        uint32_t first, char *msg, size_t cap) {
    char shown[QUOTED];
    const uint8_t *p = bytes;
    if (!t) {
        blobc_quote(shown, sizeof shown, bytes, n);
        snprintf(msg, cap, "%s repeats item %u (%s)", shown, (unsigned)first, c->text);
        return;
    }
    blobc_kind kind = base_kind(t);
    const blobc_enum_value *ev = NULL;
    if (t->kind == BLOBC_KIND_ENUM) {
        uint64_t v = blobc_load_int(p, kind);
        for (uint32_t i = 0; i < t->nvalues && !ev; i++)
            if (t->values[i].value == v) ev = &t->values[i];
    }
    if (ev) snprintf(shown, sizeof shown, "%.40s", ev->name);
    else if (kind == BLOBC_KIND_BOOL) strcpy(shown, *p ? "true" : "false");
    else number_text(kind, p, shown);
    snprintf(msg, cap, "%s repeats item %u (%s)", shown, (unsigned)first, c->text);
}

/* Why name s[0..n) cannot be a path under the assets root, or NULL. */
static const char *bad_path(const char *s, size_t n) {
    if (n == 0) return "is empty (expected a file name)";
    if (s[0] == '/' || (n >= 2 && s[1] == ':')) return "is absolute (expected a path relative to the assets root)";
    if (memchr(s, '\\', n)) return "holds a backslash (use '/' between directories)";
    for (size_t i = 0; i <= n;) {
        size_t j = i;
        while (j < n && s[j] != '/') j++;
        if (j == i) return "has an empty name between slashes";
        if (j - i == 2 && s[i] == '.' && s[i + 1] == '.') return "leaves the assets root ('..')";
        i = j + 1;
    }
    return NULL;
}

int blobc_judge_path(const blobc_check *c, const char *s, size_t n, const char *root,
                     blobc_buffer *full, char *msg, size_t cap) {
    char q[QUOTED];
    blobc_quote(q, sizeof q, s, n);
    const char *why = bad_path(s, n);
    if (why) {
        snprintf(msg, cap, "%s %s (%s)", q, why, c->text);
        return 0;
    }
    size_t e = c->ext ? strlen(c->ext) : 0;
    if (e && (n < e || memcmp(s + n - e, c->ext, e) != 0)) {
        snprintf(msg, cap, "%s does not end with \"%s\" (%s)", q, c->ext, c->text);
        return 0;
    }
    if (!blobc_buf_printf(full, "%s/%s%.*s", root ? root : ".", c->arg, (int)n, s)) return -1;
    blobc_os_info info;
    if (blobc_os_stat((const char *)full->data, &info) == 0 && info.kind == BLOBC_OS_REGULAR) return 1;
    snprintf(msg, cap, "%s names no file: %s is not there (%s%s)", q, (const char *)full->data, c->text,
             root ? "" : "; --assets DIR sets the root");
    return 0;
}

/* ---- @unique ---- */

void blobc_uniq_init(blobc_uniq *u) {
    memset(u, 0, sizeof *u);
    blobc_hashtab_init(&u->seen, NULL);
}

void blobc_uniq_free(blobc_uniq *u) {
    blobc_hashtab_free(&u->seen);
    free(u->items);
    memset(u, 0, sizeof *u);
}

void blobc_uniq_reset(blobc_uniq *u) {
    blobc_hashtab_free(&u->seen);
    blobc_hashtab_init(&u->seen, NULL);
    u->nitems = 0;
}

uint32_t blobc_uniq_find(const blobc_uniq *u, const void *bytes, size_t n, uint64_t hash) {
    blobc_hprobe pr;
    for (uint32_t i = blobc_hashtab_first(&u->seen, hash, &pr); i; i = blobc_hashtab_next(&u->seen, &pr)) {
        const blobc_uniq_item *it = &u->items[i - 1];
        if (it->n == n && memcmp(it->bytes, bytes, n) == 0) return it->index;
    }
    return UINT32_MAX;
}

bool blobc_uniq_put(blobc_uniq *u, const void *bytes, size_t n, uint64_t hash, uint32_t index) {
    if (!blobc_grow((void **)&u->items, &u->cap, u->nitems + 1, sizeof *u->items) ||
        !blobc_hashtab_add(&u->seen, hash, (uint32_t)u->nitems + 1))
        return false;
    u->items[u->nitems++] = (blobc_uniq_item){bytes, n, index};
    return true;
}
