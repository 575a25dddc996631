/*
 * verify_checks.c - `verify -s` judging the schema's value checks
 * (docs/SCHEMA.md, "Value checks") over a blob the walk has proven sound,
 * so every offset read here is known to lead inside the data. Each value
 * is judged by common/judge.c, as the bake judges it, and a failure is
 * reported with the value's path.
 *
 * Bounded like the walk: an explicit stack of frames (no C recursion over
 * the data's depth); only types holding a checked field somewhere are
 * entered; a payload is entered once however many references reach it (a
 * DAG), and a payload a checked field holds (a string, a list) is judged
 * once per field, so a shared value is reported at the first place that
 * reaches it, in canonical order. Work: O(data size x checked fields).
 */
#include "read/verify_checks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/judge.h"
#include "common/scalar.h"
#include "read/walk.h"

/* How an element of a frame adds to the path. */
enum { STEP_NONE, STEP_INDEX, STEP_KEY };

typedef struct vc_frame {
    const blobc_type *t; /* the elements' type */
    size_t base;
    uint32_t n, i;
    uint32_t field;      /* a struct element's next field */
    bool begun;          /* the current element's path is made */
    uint8_t step;
    size_t plen;         /* the path's length before the frame's steps */
    size_t elen;         /* ... and with the current element's */
} vc_frame;

/* A payload entered (who NULL), judged by a field (who: the field), a
 * string payload's text id (who: the texts; first: the id), or a text met
 * in a @unique list (who: the check, list: the list's start, start: the
 * text id; first: the first item with that text). */
typedef struct vc_key {
    const void *who;
    size_t list;     /* a @unique list's start, else SIZE_MAX */
    size_t start;
    uint32_t first;
} vc_key;

typedef struct vc {
    const uint8_t *data;
    uint64_t err_base;
    const blobc_verify_options *opts;
    blobc_error *err;
    blobc_buffer path;
    bool path_oom;       /* then errors carry no path rather than a wrong one */
    vc_frame *fr;
    size_t nfr, frcap;
    blobc_ptrset types;  /* the types reachable from the root, numbered */
    uint8_t *needs;      /* per type: a checked field somewhere inside */
    blobc_hashtab seen;
    vc_key *keys;
    size_t nkeys, keycap;
    blobc_uniq uniq;     /* the numbers of the @unique list being judged */
    blobc_uniq texts;    /* every distinct string text met by @unique */
    size_t failures;
} vc;

/* ---- which types to enter ---- */

/* Child i of t: a type its values hold, or NULL past the last. A
 * reference &T holds nothing (its target is a keyed array's item, which
 * is judged where the array is). */
static const blobc_type *child(const blobc_type *t, uint32_t i) {
    switch (t->kind) {
    case BLOBC_KIND_STRUCT:
    case BLOBC_KIND_UNION: return i < t->nfields ? t->fields[i].type : NULL;
    case BLOBC_KIND_PTR: return i == 0 && !t->ref ? t->elem : NULL;
    case BLOBC_KIND_ARRAY:
    case BLOBC_KIND_FIXED:
    case BLOBC_KIND_OPTIONAL:
    case BLOBC_KIND_MAP: return i == 0 ? t->elem : NULL;
    default: return NULL;
    }
}

static bool has_checks(const blobc_type *t) {
    if (t->kind != BLOBC_KIND_STRUCT) return false;
    for (uint32_t i = 0; i < t->nfields; i++)
        if (t->fields[i].nchecks) return true;
    return false;
}

/* Numbers every type reachable from root, then marks those that hold a
 * checked field, directly or below (a fixpoint: types may be recursive). */
static blobc_status find_needs(vc *v, const blobc_type *root) {
    uint32_t num;
    if (blobc_ptrset_add(&v->types, root, &num) < 0) return blobc_err_nomem(v->err);
    for (size_t k = 0; k < v->types.count; k++) {
        const blobc_type *c;
        for (uint32_t i = 0; (c = child(v->types.keys[k], i)) != NULL; i++)
            if (blobc_ptrset_add(&v->types, c, &num) < 0) return blobc_err_nomem(v->err);
    }
    size_t n = v->types.count;
    if (!(v->needs = calloc(n, 1))) return blobc_err_nomem(v->err);
    for (size_t k = 0; k < n; k++) v->needs[k] = has_checks(v->types.keys[k]);
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t k = 0; k < n; k++) {
            const blobc_type *c;
            for (uint32_t i = 0; !v->needs[k] && (c = child(v->types.keys[k], i)) != NULL; i++)
                if (v->needs[blobc_ptrset_find(&v->types, c)]) {
                    v->needs[k] = 1;
                    changed = true;
                }
        }
    }
    return BLOBC_OK;
}

static bool needs(const vc *v, const blobc_type *t) {
    uint32_t k = blobc_ptrset_find(&v->types, t);
    return k != UINT32_MAX && v->needs[k];
}

/* ---- payloads met before ---- */

/* The key (who, list, start): *k its index; 1 when new (first
 * UINT32_MAX), 0 when there before, -1 out of memory. */
static int meet(vc *v, const void *who, size_t list, size_t start, size_t *k) {
    uint64_t h = blobc_hash_u64(blobc_hash_ptr(who) ^ blobc_hash_u64(list) ^ start);
    blobc_hprobe pr;
    for (uint32_t i = blobc_hashtab_first(&v->seen, h, &pr); i; i = blobc_hashtab_next(&v->seen, &pr))
        if (v->keys[i - 1].who == who && v->keys[i - 1].list == list && v->keys[i - 1].start == start) {
            *k = i - 1;
            return 0;
        }
    if (v->nkeys >= UINT32_MAX - 1 ||
        !blobc_grow((void **)&v->keys, &v->keycap, v->nkeys + 1, sizeof *v->keys) ||
        !blobc_hashtab_add(&v->seen, h, (uint32_t)v->nkeys + 1))
        return -1;
    *k = v->nkeys;
    v->keys[v->nkeys++] = (vc_key){who, list, start, UINT32_MAX};
    return 1;
}

static int first_time(vc *v, const void *who, size_t start) {
    size_t k;
    return meet(v, who, SIZE_MAX, start, &k);
}

/* ---- reading sound data ---- */

static size_t target(const vc *v, size_t p) { return p + (size_t)(int64_t)(int32_t)blobc_ld32(v->data + p); }

/* The string field at p: its bytes' start and length (NUL left out). */
static const char *text_at(const vc *v, size_t p, size_t *n) {
    *n = blobc_ld32(v->data + p + 4) - 1;
    return (const char *)v->data + target(v, p);
}

/* Whether the ?T of type t at p holds its T. */
static bool present(const vc *v, const blobc_type *t, size_t p) { return v->data[p + t->elem->size] == 1; }

/* ---- the path ---- */

static void path_put(vc *v, const char *s, size_t n) {
    if (!v->path_oom && !blobc_buf_append(&v->path, s, n)) v->path_oom = true;
}

/* ".name" */
static void path_name(vc *v, const char *name) {
    path_put(v, ".", 1);
    path_put(v, name, strlen(name));
}

/* "[i]" */
static void path_index(vc *v, uint32_t i) {
    char b[16];
    int n = snprintf(b, sizeof b, "[%u]", (unsigned)i);
    path_put(v, b, (size_t)n);
}

/* ".key" for a map's entry of struct t at e, as the bake writes it: a
 * string key's text (control characters as '?'), an enum's name, or the
 * number. */
static void key_step(vc *v, const blobc_type *t, size_t e) {
    const blobc_type *kt = t->fields[0].type;
    size_t p = e + t->fields[0].offset, n;
    char b[208];
    if (kt->kind == BLOBC_KIND_STRING) {
        const char *s = text_at(v, p, &n);
        for (size_t j = 0; j < n && j < 200; j++) b[j] = (unsigned char)s[j] < 0x20 ? '?' : s[j];
        b[n < 200 ? n : 200] = '\0';
        path_name(v, b);
        return;
    }
    blobc_kind kind = kt->kind == BLOBC_KIND_ENUM ? kt->elem->kind : kt->kind;
    uint64_t bits = blobc_load_int(v->data + p, kind);
    const blobc_enum_value *ev = kt->kind == BLOBC_KIND_ENUM ? blobc_enum_find_value(kt, bits) : NULL;
    if (ev) snprintf(b, sizeof b, "%.200s", ev->name);
    else if (blobc_kind_is_signed(kind)) snprintf(b, sizeof b, "%lld", (long long)(int64_t)bits);
    else snprintf(b, sizeof b, "%llu", (unsigned long long)bits);
    path_name(v, b);
}

/* ---- failures ---- */

/* The value at p fails: reported, and the verify goes on (BLOBC_OK) when
 * there is a sink to take every failure. */
static blobc_status failed(vc *v, size_t p, const char *msg) {
    blobc_error e;
    blobc_error_clear(&e);
    blobc_err(&e, BLOBC_EINPUT, "%s", msg);
    e.code = BLOBC_V_CHECK;
    blobc_err_offset(&e, v->err_base + p);
    if (!v->path_oom && v->path.len) blobc_walk_set_path(&e, (const char *)v->path.data, v->path.len);
    if (v->failures++ == 0) *v->err = e;
    blobc_check_sink *s = v->opts->checks;
    if (!s) return BLOBC_EINPUT;
    if (s->max_errors && v->failures > s->max_errors) s->suppressed++;
    else if (s->fn) s->fn(s->ctx, &e);
    return BLOBC_OK;
}

/* ---- judging ---- */

/* The text id of the string field at p: one per distinct text, each
 * string payload read once whatever refers to it (its key keeps the id). */
static int text_id(vc *v, size_t p, uint32_t *id) {
    size_t k, n;
    int r = meet(v, &v->texts, SIZE_MAX, target(v, p), &k);
    if (r <= 0) {
        if (r == 0) *id = v->keys[k].first;
        return r;
    }
    const char *s = text_at(v, p, &n);
    uint64_t h = blobc_hash_bytes(s, n);
    uint32_t f = blobc_uniq_find(&v->texts, s, n, h);
    if (f == UINT32_MAX && !blobc_uniq_put(&v->texts, s, n, h, f = (uint32_t)k)) return -1;
    v->keys[k].first = *id = f;
    return 1;
}

/* Item `index` of a @unique list (at `list`) against the items before
 * it: 1 new, 0 a repeat (msg says of which), -1 out of memory. Strings
 * compare by text id, so a string shared by many items or lists is read
 * once. */
static int unique_ok(vc *v, const blobc_check *c, const blobc_type *t, size_t list, size_t p,
                     uint32_t index, char *msg) {
    size_t n = t ? t->size : 0, k;
    const void *bytes = v->data + p;
    uint32_t first, id;
    if (t) {
        uint64_t h = blobc_hash_bytes(bytes, n);
        if ((first = blobc_uniq_find(&v->uniq, bytes, n, h)) == UINT32_MAX)
            return blobc_uniq_put(&v->uniq, bytes, n, h, index) ? 1 : -1;
    } else {
        int r = text_id(v, p, &id);
        if (r >= 0) r = meet(v, c, list, id, &k);
        if (r != 0) {
            if (r > 0) v->keys[k].first = index;
            return r;
        }
        first = v->keys[k].first;
        bytes = text_at(v, p, &n);
    }
    blobc_judge_repeat(c, t, bytes, n, first, msg, BLOBC_JUDGE_MSG);
    return 0;
}

/* A string s[0..n) against check c (@len only for a field's own string). */
static int judge_text(vc *v, const blobc_check *c, bool each, const char *s, size_t n, char *msg) {
    if (c->kind == BLOBC_CHECK_PATH) {
        if (!v->opts->assets_dir) return 1;
        blobc_buffer full = {0};
        int r = blobc_judge_path(c, s, n, v->opts->assets_dir, &full, msg, BLOBC_JUDGE_MSG);
        blobc_buffer_free(&full);
        return r;
    }
    if (c->kind == BLOBC_CHECK_LEN && each) return 1;
    return blobc_judge_string(c, s, n, msg, BLOBC_JUDGE_MSG);
}

/* The number or string of type t at p, by field fd's checks: its own
 * value (index UINT32_MAX), or item `index` of its list at `list`. */
static blobc_status judge_value(vc *v, const blobc_field *fd, const blobc_type *t, size_t p,
                                size_t list, uint32_t index) {
    bool each = index != UINT32_MAX, str = t->kind == BLOBC_KIND_STRING, fresh = true;
    if (!str && !blobc_kind_is_scalar(t->kind) && t->kind != BLOBC_KIND_ENUM) return BLOBC_OK;
    size_t n = 0;
    const char *s = str ? text_at(v, p, &n) : NULL;
    int r = str ? first_time(v, fd, target(v, p)) : 1;
    if (r < 0) return blobc_err_nomem(v->err);
    fresh = r == 1;
    char msg[BLOBC_JUDGE_MSG];
    for (uint32_t i = 0; i < fd->nchecks; i++) {
        const blobc_check *c = &fd->checks[i];
        r = 1;
        if (c->kind == BLOBC_CHECK_UNIQUE) r = each ? unique_ok(v, c, str ? NULL : t, list, p, index, msg) : 1;
        else if (!fresh) continue;
        else if (str) r = judge_text(v, c, each, s, n, msg);
        else r = blobc_judge_number(c, t, v->data + p, msg, sizeof msg);
        if (r < 0) return blobc_err_nomem(v->err);
        blobc_status st = r ? BLOBC_OK : failed(v, p, msg);
        if (st) return st;
    }
    return BLOBC_OK;
}

/* Whether a check of fd applies to each item of its list. */
static bool judges_items(const vc *v, const blobc_field *fd) {
    for (uint32_t i = 0; i < fd->nchecks; i++) {
        blobc_check_kind k = fd->checks[i].kind;
        if (k == BLOBC_CHECK_RANGE || k == BLOBC_CHECK_MATCH || k == BLOBC_CHECK_UNIQUE ||
            (k == BLOBC_CHECK_PATH && v->opts->assets_dir))
            return true;
    }
    return false;
}

/* The n items of type et from base, of field fd's list (or fixed array). */
static blobc_status judge_items(vc *v, const blobc_field *fd, const blobc_type *et, size_t base,
                                uint32_t n) {
    if (!judges_items(v, fd)) return BLOBC_OK;
    blobc_uniq_reset(&v->uniq);
    size_t len = v->path.len;
    for (uint32_t i = 0; i < n; i++) {
        size_t q = base + (size_t)i * et->size;
        const blobc_type *it = et;
        if (it->kind == BLOBC_KIND_OPTIONAL) {
            if (!present(v, it, q)) continue;
            it = it->elem;
        }
        path_index(v, i);
        blobc_status st = judge_value(v, fd, it, q, base, i);
        v->path.len = len;
        if (st) return st;
    }
    return BLOBC_OK;
}

/* A [T] or map field's count, then (a list met the first time by this
 * field) its items. */
static blobc_status judge_list(vc *v, const blobc_field *fd, const blobc_type *t, size_t p) {
    uint32_t count = blobc_ld32(v->data + p + 4);
    char msg[BLOBC_JUDGE_MSG];
    for (uint32_t i = 0; i < fd->nchecks; i++) {
        blobc_status st = BLOBC_OK;
        if (!blobc_judge_count(&fd->checks[i], count, msg, sizeof msg)) st = failed(v, p, msg);
        if (st) return st;
    }
    if (!count || t->kind == BLOBC_KIND_MAP) return BLOBC_OK;
    size_t at = target(v, p);
    int r = first_time(v, fd, at);
    if (r <= 0) return r < 0 ? blobc_err_nomem(v->err) : BLOBC_OK;
    return judge_items(v, fd, t->elem, at, count);
}

/* Field fd's value at p, by its checks. */
static blobc_status judge_field(vc *v, const blobc_field *fd, size_t p) {
    const blobc_type *t = fd->type;
    if (t->kind == BLOBC_KIND_OPTIONAL) {
        if (!present(v, t, p)) return BLOBC_OK;
        t = t->elem;
    }
    if (t->kind == BLOBC_KIND_ARRAY || t->kind == BLOBC_KIND_MAP) return judge_list(v, fd, t, p);
    if (t->kind == BLOBC_KIND_FIXED) return judge_items(v, fd, t->elem, p, t->count);
    return judge_value(v, fd, t, p, 0, UINT32_MAX);
}

/* ---- the walk ---- */

static blobc_status push(vc *v, const blobc_type *t, size_t base, uint32_t n, uint8_t step) {
    if (!blobc_grow((void **)&v->fr, &v->frcap, v->nfr + 1, sizeof *v->fr)) return blobc_err_nomem(v->err);
    v->fr[v->nfr++] = (vc_frame){t, base, n, 0, 0, false, step, v->path.len, v->path.len};
    return BLOBC_OK;
}

/* Enters the value of type t at p when a checked field is inside: an
 * inline struct or fixed array, or a payload not entered before. */
static blobc_status descend(vc *v, const blobc_type *t, size_t p) {
    for (;;) {
        if (!needs(v, t)) return BLOBC_OK;
        if (t->kind == BLOBC_KIND_OPTIONAL) {
            if (!present(v, t, p)) return BLOBC_OK;
            t = t->elem;
            continue;
        }
        if (t->kind != BLOBC_KIND_UNION) break;
        uint32_t tag = blobc_ld32(v->data + p);
        if (tag == 0 || tag > t->nfields) return BLOBC_OK;
        const blobc_field *m = &t->fields[tag - 1];
        path_name(v, m->name);
        t = m->type;
        p += m->offset;
    }
    if (t->kind == BLOBC_KIND_STRUCT) return push(v, t, p, 1, STEP_NONE);
    if (t->kind == BLOBC_KIND_FIXED) return push(v, t->elem, p, t->count, STEP_INDEX);
    uint32_t n = t->kind == BLOBC_KIND_PTR ? 1 : blobc_ld32(v->data + p + 4);
    if (!n || blobc_ld32(v->data + p) == 0) return BLOBC_OK;
    size_t at = target(v, p);
    int r = first_time(v, NULL, at);
    if (r <= 0) return r < 0 ? blobc_err_nomem(v->err) : BLOBC_OK;
    return push(v, t->elem, at, n, t->kind == BLOBC_KIND_MAP ? STEP_KEY : t->kind == BLOBC_KIND_PTR ? STEP_NONE
                                                                                            : STEP_INDEX);
}

/* The top frame's current element: its path made, then one field judged
 * and entered (a struct), or the element entered (anything else). */
static blobc_status step(vc *v) {
    vc_frame *f = &v->fr[v->nfr - 1];
    size_t e = f->base + (size_t)f->i * f->t->size;
    if (!f->begun) {
        v->path.len = f->plen;
        if (f->step == STEP_INDEX) path_index(v, f->i);
        else if (f->step == STEP_KEY) key_step(v, f->t, e);
        f->elen = v->path.len;
        f->begun = true;
    }
    v->path.len = f->elen;
    bool is_struct = f->t->kind == BLOBC_KIND_STRUCT;
    if (f->field == (is_struct ? f->t->nfields : 1)) {
        f->i++;
        f->field = 0;
        f->begun = false;
        return BLOBC_OK;
    }
    if (!is_struct) {
        f->field = 1;
        return descend(v, f->t, e);
    }
    const blobc_field *fd = &f->t->fields[f->field++];
    bool entry = f->t->flags & BLOBC_STRUCT_ENTRY;
    if (entry && fd == &f->t->fields[0]) return BLOBC_OK; /* a key: the path names it */
    if (!entry) path_name(v, fd->name);
    blobc_status st = fd->nchecks ? judge_field(v, fd, e + fd->offset) : BLOBC_OK;
    return st ? st : descend(v, fd->type, e + fd->offset);
}

static blobc_status walk(vc *v, const blobc_type *root) {
    blobc_status st = find_needs(v, root);
    if (st || !needs(v, root)) return st;
    if ((st = push(v, root, 0, 1, STEP_NONE))) return st;
    while (v->nfr) {
        const vc_frame *f = &v->fr[v->nfr - 1];
        if (f->i == f->n) {
            v->path.len = f->plen;
            v->nfr--;
            continue;
        }
        if ((st = step(v))) return st;
    }
    return v->failures ? BLOBC_EINPUT : BLOBC_OK;
}

blobc_status blobc_verify_checks(const uint8_t *data, const blobc_type *root,
                                 uint64_t err_base, const blobc_verify_options *opts,
                                 blobc_error *err) {
    vc v = {.data = data, .err_base = err_base, .opts = opts, .err = err};
    blobc_ptrset_init(&v.types);
    blobc_hashtab_init(&v.seen, NULL);
    blobc_uniq_init(&v.uniq);
    blobc_uniq_init(&v.texts);
    blobc_status st = walk(&v, root);
    blobc_buffer_free(&v.path);
    free(v.fr);
    blobc_ptrset_free(&v.types);
    free(v.needs);
    blobc_hashtab_free(&v.seen);
    free(v.keys);
    blobc_uniq_free(&v.uniq);
    blobc_uniq_free(&v.texts);
    return st;
}
