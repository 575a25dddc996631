/*
 * checks.c - the schema's value checks (@range, @len, @match, @path,
 * @unique), applied while filling: each value is judged right after it is
 * stored, where the front end's place for it is still known, and a value
 * that fails is an error kept like any other (every failing value of a run
 * is reported, in document order). The stored value itself is sound, so
 * nothing is skipped after such an error.
 *
 * A check belongs to a field; the value being filled is that field's own
 * (the innermost frame is the field's struct) or one item of it (the
 * innermost frame is the field's list or fixed array, the struct right
 * below it).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "bake/bake_internal.h"
#include "common/fmt_float.h"
#include "common/regex.h"
#include "common/scalar.h"
#include "platform/platform.h"

/* The items of the @unique list being filled, by their bytes. */
typedef struct uniq_item {
    const uint8_t *bytes;   /* in the bake's arena */
    size_t n;
    uint32_t index;
} uniq_item;

typedef struct bk_checks {
    /* The @unique list the items belong to: its frame's depth and place. */
    uint32_t depth;
    blobc_ref ref;
    uint32_t off;
    blobc_hashtab seen;
    uniq_item *items;
    size_t nitems, cap;
} bk_checks;

void bk_checks_free(bk *k) {
    if (!k->checks) return;
    blobc_hashtab_free(&k->checks->seen);
    free(k->checks->items);
    free(k->checks);
    k->checks = NULL;
}

/* The field whose checks judge the value being filled, and whether the
 * value is one item of it (*each), or NULL. */
static const blobc_field *checked_field(const bk *k, bool *each) {
    if (!k->depth) return NULL;
    const bk_frame *f = &k->fr[k->depth - 1];
    *each = f->kind == BK_ARRAY || f->kind == BK_FIXED;
    if (*each) {
        if (k->depth < 2) return NULL;
        f = &k->fr[k->depth - 2];
    }
    return f->kind == BK_STRUCT && f->field && f->field->nchecks ? f->field : NULL;
}

/* Reports that the value at pos fails check c and goes on. */
/* Reports that the value at pos (mode BK_AT_VALUE; BK_AT_CONTAINER: the
 * container itself, for a list's count) fails a check, and goes on. */
static blobc_status failed(bk *k, const bk_pos *pos, int mode, const char *fmt, ...) BLOBC_PRINTF(4, 5);
static blobc_status failed(bk *k, const bk_pos *pos, int mode, const char *fmt, ...) {
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    blobc_status st = bk_soft(k, bk_fail(k, BLOBC_EINPUT, pos, mode, NULL, 0, "%s", msg));
    return bk_kept(k, st) ? BLOBC_OK : st;
}

/* ---- @unique ---- */

static bk_checks *state(bk *k) {
    if (!k->checks && (k->checks = calloc(1, sizeof *k->checks)))
        blobc_hashtab_init(&k->checks->seen, NULL);
    return k->checks;
}

/* Item `bytes` of the innermost list, a @unique one: *first is the index
 * of an earlier item with the same bytes, else UINT32_MAX (the item is
 * kept for those to come). */
static blobc_status unique_seen(bk *k, const void *bytes, size_t n, uint32_t *first) {
    bk_checks *u = state(k);
    const bk_frame *f = bk_top(k);
    *first = UINT32_MAX;
    if (!u) return blobc_err_nomem(k->err);
    if (u->depth != k->depth || u->ref != f->at.ref || u->off != f->at.off) {
        blobc_hashtab_free(&u->seen);
        blobc_hashtab_init(&u->seen, NULL);
        u->nitems = 0;
        u->depth = k->depth;
        u->ref = f->at.ref;
        u->off = f->at.off;
    }
    uint32_t index = f->count ? f->count - 1 : 0;
    uint64_t h = blobc_hash_bytes(bytes, n);
    blobc_hprobe pr;
    for (uint32_t i = blobc_hashtab_first(&u->seen, h, &pr); i; i = blobc_hashtab_next(&u->seen, &pr)) {
        const uniq_item *it = &u->items[i - 1];
        if (it->n == n && memcmp(it->bytes, bytes, n) == 0) {
            *first = it->index;
            return BLOBC_OK;
        }
    }
    uint8_t *copy = blobc_arena_alloc(&k->arena, n ? n : 1);
    if (!copy || !blobc_grow((void **)&u->items, &u->cap, u->nitems + 1, sizeof *u->items) ||
        !blobc_hashtab_add(&u->seen, h, (uint32_t)u->nitems + 1))
        return blobc_err_nomem(k->err);
    memcpy(copy, bytes, n);
    u->items[u->nitems++] = (uniq_item){copy, n, index};
    return BLOBC_OK;
}

/* ---- numbers ---- */

static bool in_range(const blobc_check *c, blobc_kind kind, const uint8_t *p, char *shown) {
    if (kind == BLOBC_KIND_F32 || kind == BLOBC_KIND_F64) {
        double d;
        if (kind == BLOBC_KIND_F32) {
            float f;
            memcpy(&f, p, 4);
            d = f;
        } else {
            memcpy(&d, p, 8);
        }
        if (isnan(d)) strcpy(shown, ".nan");
        else if (isinf(d)) strcpy(shown, d > 0 ? ".inf" : "-.inf");
        else shown[blobc_format_float(shown, d, kind == BLOBC_KIND_F32)] = 0;
        return (!c->has_lo || d >= c->lo_f) && (!c->has_hi || d <= c->hi_f) && !isnan(d);
    }
    uint64_t v = blobc_load_int(p, kind);
    if (blobc_kind_is_signed(kind)) {
        snprintf(shown, 32, "%lld", (long long)(int64_t)v);
        return (!c->has_lo || (int64_t)v >= (int64_t)c->lo) && (!c->has_hi || (int64_t)v <= (int64_t)c->hi);
    }
    shown[blobc_format_u64(shown, v)] = 0;
    return (!c->has_lo || v >= c->lo) && (!c->has_hi || v <= c->hi);
}

blobc_status bk_check_number(bk *k, const bk_slot *s, const bk_pos *pos) {
    bool each;
    const blobc_field *fld = checked_field(k, &each);
    blobc_kind kind = s->type->kind;
    if (!fld || (!blobc_kind_is_scalar(kind) && kind != BLOBC_KIND_ENUM)) return BLOBC_OK;
    if (kind == BLOBC_KIND_ENUM) kind = s->type->elem->kind;
    const uint8_t *p = bk_ptr(k, s);
    char shown[64];
    for (uint32_t i = 0; i < fld->nchecks; i++) {
        const blobc_check *c = &fld->checks[i];
        blobc_status st = BLOBC_OK;
        if (c->kind == BLOBC_CHECK_RANGE && kind != BLOBC_KIND_BOOL && !in_range(c, kind, p, shown))
            st = failed(k, pos, BK_AT_VALUE, "%s is out of %s", shown, c->text);
        else if (c->kind == BLOBC_CHECK_UNIQUE && each) {
            uint32_t first;
            if ((st = unique_seen(k, p, s->type->size, &first)) || first == UINT32_MAX) {
                if (st) return st;
                continue;
            }
            const blobc_enum_value *ev = s->type->kind == BLOBC_KIND_ENUM
                                             ? blobc_enum_find_value(s->type, blobc_load_int(p, kind))
                                             : NULL;
            if (ev) snprintf(shown, sizeof shown, "%.40s", ev->name);
            else if (kind != BLOBC_KIND_BOOL) in_range(c, kind, p, shown);
            else strcpy(shown, *p ? "true" : "false");
            st = failed(k, pos, BK_AT_VALUE, "%s repeats item %u (%s)", shown, (unsigned)first, c->text);
        }
        if (st) return st;
    }
    return BLOBC_OK;
}

/* ---- strings ---- */

/* Characters, not bytes: what a designer counts. */
static size_t chars(const char *s, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xc0) != 0x80;
    return c;
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

static blobc_status check_path(bk *k, const blobc_check *c, const char *s, size_t n,
                               const bk_pos *pos) {
    char q[200];
    bk_quote(q, sizeof q, s, n);
    const char *why = bad_path(s, n);
    if (why) return failed(k, pos, BK_AT_VALUE, "%s %s (%s)", q, why, c->text);
    size_t e = c->ext ? strlen(c->ext) : 0;
    if (e && (n < e || memcmp(s + n - e, c->ext, e) != 0))
        return failed(k, pos, BK_AT_VALUE, "%s does not end with \"%s\" (%s)", q, c->ext, c->text);
    const char *root = k->opts->assets_dir ? k->opts->assets_dir : ".";
    blobc_buffer full = {0};
    if (!blobc_buf_printf(&full, "%s/%s%.*s", root, c->arg, (int)n, s)) return blobc_err_nomem(k->err);
    blobc_os_info info;
    bool there = blobc_os_stat((const char *)full.data, &info) == 0 && info.kind == BLOBC_OS_REGULAR;
    blobc_status st = BLOBC_OK;
    if (there && k->opts->asset) k->opts->asset(k->opts->asset_ctx, (const char *)full.data);
    if (!there)
        st = failed(k, pos, BK_AT_VALUE, "%s names no file: %s is not there (%s%s)", q,
                    (const char *)full.data, c->text,
                    k->opts->assets_dir ? "" : "; --assets DIR sets the root");
    blobc_buffer_free(&full);
    return st;
}

blobc_status bk_check_string(bk *k, const char *s, size_t n, const bk_pos *pos) {
    bool each;
    const blobc_field *fld = checked_field(k, &each);
    if (!fld) return BLOBC_OK;
    char q[200]; /* the value as messages quote it: only for a failure */
    for (uint32_t i = 0; i < fld->nchecks; i++) {
        const blobc_check *c = &fld->checks[i];
        blobc_status st = BLOBC_OK;
        size_t len;
        uint32_t first;
        int m;
        switch (c->kind) {
        case BLOBC_CHECK_LEN:
            if (each) break;
            len = chars(s, n);
            if (len < c->min || len > c->max) {
                bk_quote(q, sizeof q, s, n);
                st = failed(k, pos, BK_AT_VALUE, "%s has %zu character%s, outside %s", q, len,
                            len == 1 ? "" : "s", c->text);
            }
            break;
        case BLOBC_CHECK_MATCH:
            if ((m = blobc_regex_search(c->impl, s, n)) < 0) return blobc_err_nomem(k->err);
            if (!m) {
                bk_quote(q, sizeof q, s, n);
                st = failed(k, pos, BK_AT_VALUE, "%s does not match %s", q, c->text);
            }
            break;
        case BLOBC_CHECK_PATH: st = check_path(k, c, s, n, pos); break;
        case BLOBC_CHECK_UNIQUE:
            if (!each || (st = unique_seen(k, s, n, &first)) || first == UINT32_MAX) break;
            bk_quote(q, sizeof q, s, n);
            st = failed(k, pos, BK_AT_VALUE, "%s repeats item %u (%s)", q, (unsigned)first, c->text);
            break;
        default: break;
        }
        if (st) return st;
    }
    return BLOBC_OK;
}

/* ---- lists and maps ---- */

blobc_status bk_check_count(bk *k, const bk_pos *pos) {
    if (k->depth < 2) return BLOBC_OK;
    const bk_frame *f = &k->fr[k->depth - 1], *up = &k->fr[k->depth - 2];
    if (up->kind != BK_STRUCT || !up->field || !up->field->nchecks) return BLOBC_OK;
    for (uint32_t i = 0; i < up->field->nchecks; i++) {
        const blobc_check *c = &up->field->checks[i];
        if (c->kind == BLOBC_CHECK_LEN && (f->count < c->min || f->count > c->max))
            return failed(k, pos, BK_AT_CONTAINER, "%u item%s, outside %s", (unsigned)f->count,
                               f->count == 1 ? "" : "s", c->text);
    }
    return BLOBC_OK;
}
